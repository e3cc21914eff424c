/* test_remote.c — external bots, spawned ("cmd:", agents/remote.h) or
 * connecting by themselves ("bot:NAME", agents/arena.h): a well-behaved
 * bot plays a whole tournament without forfeits and is told every game's
 * result (checked against the journal); one bot connection serves several
 * tables at once; bots that hang, exit, send garbage, answer illegal
 * actions or flood each forfeit every game they play with the matching
 * reason, while the run completes; a named bot that never comes forfeits
 * once the arena's wait is over. The bots are small Python scripts
 * (pyzmq, msgpack) written to a scratch directory; every wait is bounded
 * by the move time. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/arena.h"
#include "agents/remote.h"
#include "common/err.h"
#include "tournament/run.h"

#define GAME "thirty_one(players=2)"
#define DEALS 2
/* Two agents, every deal played once per rotation of the two seats. */
#define GAMES (DEALS * 2)

#define DIR_MAX 256

/* Makes a fresh scratch directory into buf (DIR_MAX). */
static void tmp_dir(char *buf)
{
    const char *base = getenv("TMPDIR");
    snprintf(buf, DIR_MAX, "%.200s/parlor-bots-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(buf))
        fail_msg("mkdtemp failed");
}

/* Removes dir and the plain files in it. */
static void rm_tree(const char *dir)
{
    char path[DIR_MAX * 2];
    struct dirent *e;
    DIR *d = opendir(dir);
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%.255s", dir, e->d_name);
            remove(path);
        }
    if (d)
        closedir(d);
    remove(dir);
}

/* Every test bot connects (to PARLOR_ENDPOINT when spawned, else to its
 * first argument) and says hello (as its second argument, or "test");
 * msgs() yields what the arena sends until its bye, acts() only the act
 * requests. */
static const char preamble[] =
    "import os, sys, time, zmq, msgpack\n"
    "s = zmq.Context().socket(zmq.DEALER)\n"
    "s.connect(os.environ.get('PARLOR_ENDPOINT') or sys.argv[1])\n"
    "s.send(msgpack.packb({'v': 1, 'id': 0, 'type': 'hello', 'name':"
    " sys.argv[2] if len(sys.argv) > 2 else 'test', 'version': '0'}))\n"
    "def ans(m, a):\n"
    "    s.send(msgpack.packb({'v': 1, 'id': m['id'], 'type': 'action',"
    " 'action': a}))\n"
    "def msgs():\n"
    "    while True:\n"
    "        m = msgpack.unpackb(s.recv())\n"
    "        if m['type'] == 'bye':\n"
    "            sys.exit(0)\n"
    "        yield m\n"
    "def acts():\n"
    "    return (m for m in msgs() if m['type'] == 'act')\n";

/* Writes a bot of preamble + body to dir/name.py. */
static void write_bot(const char *dir, const char *name, const char *body)
{
    char path[DIR_MAX * 2];
    snprintf(path, sizeof path, "%s/%s.py", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(preamble, f);
    fputs(body, f);
    fclose(f);
}

/* How a test tournament is run. */
struct setup {
    const char *agents; /* the agent list */
    const char *arena;  /* arena endpoint, or NULL */
    int wait_ms;        /* bots' time to connect to it */
    int jobs;           /* worker threads */
};

/* Runs the tournament su describes; returns the journal's text
 * (malloc'd) and the stats in *st. */
static char *run(const struct setup *su, struct run_stats *st)
{
    char dir[DIR_MAX], err[1024];
    tmp_dir(dir);
    struct run_opts o = {.game = GAME, .agents = su->agents, .deals = DEALS,
                         .max_lineups = 120, .seed = 7, .jobs = su->jobs,
                         .out_dir = dir, .shard = 1, .nshards = 1,
                         .arena = su->arena, .bot_wait_ms = su->wait_ms};
    int rc = run_tournament(&o, st, err, sizeof err);
    if (rc)
        fail_msg("run_tournament: %s", err);
    FILE *f = fopen(st->journal, "r");
    assert_non_null(f);
    char *text = calloc(1, 1 << 20);
    fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    rm_tree(dir);
    return text;
}

/* Plays random against the bot run by cmd. */
static char *play(const char *cmd, struct run_stats *st)
{
    char agents[DIR_MAX * 6];
    snprintf(agents, sizeof agents, "random,bot=cmd:%s", cmd);
    struct setup su = {.agents = agents, .jobs = 1};
    return run(&su, st);
}

/* Games the journal text records as forfeits. */
static int count_forfeits(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "\"end\":\"forfeit\"")); p++)
        n++;
    return n;
}

/* Times the text holds s. */
static int count(const char *text, const char *s)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, s)); p++)
        n++;
    return n;
}

/* The bot in dir/name.py forfeits all GAMES games, each time with the
 * err.h name of code in the recorded reason. */
static void expect_forfeits(const char *dir, const char *name, int code)
{
    char cmd[DIR_MAX * 2];
    struct run_stats st;
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/%s.py", dir, name);
    char *text = play(cmd, &st);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count_forfeits(text), GAMES);
    assert_int_equal(count(text, err_name(code)), GAMES);
    free(text);
}

/* Starts python3 dir/name.py ENDPOINT name; returns its pid. */
static pid_t start_bot(const char *dir, const char *name, const char *ep)
{
    char path[DIR_MAX * 2];
    snprintf(path, sizeof path, "%s/%s.py", dir, name);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        unsetenv("PARLOR_ENDPOINT");
        execl("/usr/bin/python3", "python3", path, ep, name, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void stop_bot(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* Runs random against the named bot dir/name.py, connected to an arena
 * on an ipc endpoint in dir; returns the journal's text. */
static char *play_named(const char *dir, const char *name, int wait_ms,
                        struct run_stats *st)
{
    char ep[DIR_MAX * 2], agents[DIR_MAX];
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    snprintf(agents, sizeof agents, "random,bot:%s", name);
    pid_t pid = start_bot(dir, name, ep);
    struct setup su = {agents, ep, wait_ms, 1};
    char *text = run(&su, st);
    stop_bot(pid);
    return text;
}

static void test_example_bot_plays_clean(void **state)
{
    (void)state;
    struct run_stats st;
    char *text = play("/usr/bin/python3 protocol/examples/bot.py", &st);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count_forfeits(text), 0);
    assert_null(strstr(text, "\"forfeit\""));
    free(text);
}

/* A bot that plays the first legal action and writes, for each result it
 * is told, its seat and that seat's rank and return to RESULTS_OUT. */
static const char results_bot[] =
    "out = open(os.environ['RESULTS_OUT'], 'w', buffering=1)\n"
    "open(os.environ['RESULTS_OUT'] + '.pid', 'w').write(str(os.getpid()))\n"
    "for m in msgs():\n"
    "    if m['type'] == 'act':\n"
    "        ans(m, m['legal'][0])\n"
    "    if m['type'] == 'result':\n"
    "        me = m['seat']\n"
    "        out.write('%d %d %g\\n' % (me, m['ranks'][me],"
    " m['returns'][me]))\n";

/* Reads the file at path into buf (cap bytes, NUL-terminated). */
static void read_text(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    buf[fread(buf, 1, cap - 1, f)] = '\0';
    fclose(f);
}

/* Whether the process whose pid the bot wrote to PATH.pid has ended
 * (waiting up to a second for it to be reaped). */
static bool process_gone(const char *path)
{
    char pidfile[DIR_MAX * 3];
    long pid = 0;
    snprintf(pidfile, sizeof pidfile, "%s.pid", path);
    FILE *f = fopen(pidfile, "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    for (int i = 0; i < 100 && kill((pid_t)pid, 0) == 0; i++)
        usleep(10000);
    return kill((pid_t)pid, 0) != 0;
}

/* The journal's games, in order: the seat "bot" sat in, its rank and
 * its return, one line each like results_bot writes. */
static void journal_view_of_bot(const char *text, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = text; (p = strstr(p, "\"seats\":[")); p++) {
        int seat = !strncmp(p + 9, "\"random\"", 8); /* 2 seats */
        int rank[2];
        double ret[2];
        const char *q = strstr(p, "\"returns\":[");
        const char *r = strstr(p, "\"ranks\":[");
        assert_true(q && r);
        assert_int_equal(sscanf(q, "\"returns\":[%lf,%lf]", &ret[0], &ret[1]),
                         2);
        assert_int_equal(sscanf(r, "\"ranks\":[%d,%d]", &rank[0], &rank[1]),
                         2);
        used += (size_t)snprintf(out + used, cap - used, "%d %d %g\n", seat,
                                 rank[seat], ret[seat]);
    }
}

static void test_bot_told_each_result(void **state)
{
    (void)state;
    char dir[DIR_MAX], cmd[DIR_MAX * 5], path[DIR_MAX * 2];
    char told[4096] = "", expect[4096];
    struct run_stats st;
    tmp_dir(dir);
    write_bot(dir, "results", results_bot);
    snprintf(path, sizeof path, "%s/told.txt", dir);
    snprintf(cmd, sizeof cmd, "RESULTS_OUT=%s /usr/bin/python3 %s/results.py",
             path, dir);
    char *text = play(cmd, &st);
    assert_int_equal(count_forfeits(text), 0);
    journal_view_of_bot(text, expect, sizeof expect);
    read_text(path, told, sizeof told);
    /* One result per game, in the journal's order, with the seat, rank
     * and return the journal holds. */
    assert_int_equal(count(told, "\n"), GAMES);
    assert_string_equal(told, expect);
    /* The bot is gone when the run is over (it was started through a
     * shell, which may fork it: the whole process group goes). */
    assert_true(process_gone(path));
    free(text);
    rm_tree(dir);
}

static void test_misbehaving_bots_forfeit(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    tmp_dir(dir);
    write_bot(dir, "sleeper", "next(acts())\ntime.sleep(1000)\n");
    write_bot(dir, "exiter", "next(acts())\nsys.exit(3)\n");
    write_bot(dir, "garbage",
              "for m in acts():\n    s.send(b'\\xc1 not msgpack')\n");
    /* An id that is not among the legal ones (the list is sorted). */
    write_bot(dir, "illegal",
              "for m in acts():\n"
              "    ans(m, next(a for a in range(9999)"
              " if a not in m['legal']))\n");
    /* Answers nobody asked for: the first one read is not the answer. */
    write_bot(dir, "flood",
              "while True:\n    ans({'id': 123456}, 0)\n");
    expect_forfeits(dir, "sleeper", ERR_TIMEOUT);
    expect_forfeits(dir, "exiter", ERR_IO);
    expect_forfeits(dir, "garbage", ERR_PROTO);
    expect_forfeits(dir, "illegal", ERR_ILLEGAL_ACTION);
    expect_forfeits(dir, "flood", ERR_PROTO);
    rm_tree(dir);
}

static void test_named_bot_plays_and_is_told(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2], told[4096] = "", expect[4096];
    struct run_stats st;
    tmp_dir(dir);
    write_bot(dir, "results", results_bot);
    snprintf(path, sizeof path, "%s/told.txt", dir);
    setenv("RESULTS_OUT", path, 1);
    char *text = play_named(dir, "results", 10000, &st);
    unsetenv("RESULTS_OUT");
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count_forfeits(text), 0);
    /* The journal names the agent by its spec. */
    assert_int_equal(count(text, "\"bot:results\""), GAMES + 2); /* + header */
    read_text(path, told, sizeof told);
    char *p = text;
    for (; (p = strstr(p, "\"bot:results\"")); p++)
        memcpy(p, "\"bot\"        ", 13); /* journal_view_of_bot's name */
    journal_view_of_bot(text, expect, sizeof expect);
    assert_string_equal(told, expect);
    free(text);
    rm_tree(dir);
}

/* One connection of one bot serves two agents at once on two threads. */
static void test_named_bot_serves_many_tables(void **state)
{
    (void)state;
    char dir[DIR_MAX], ep[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir);
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    write_bot(dir, "first", "for m in acts():\n    ans(m, m['legal'][0])\n");
    pid_t pid = start_bot(dir, "first", ep);
    struct setup su = {"random,x=bot:first,y=bot:first", ep, 10000, 2};
    char *text = run(&su, &st);
    stop_bot(pid);
    /* Three agents, two seats: 3 line-ups x 2 rotations per deal. */
    assert_int_equal(st.played, DEALS * 3 * 2);
    assert_int_equal(count_forfeits(text), 0);
    free(text);
    rm_tree(dir);
}

/* Connected bots that misbehave forfeit with the reason a spawned one
 * would get; the exiting one is gone after its first game. */
static void test_named_bots_misbehave(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    struct run_stats st;
    tmp_dir(dir);
    write_bot(dir, "sleeper", "next(acts())\ntime.sleep(1000)\n");
    write_bot(dir, "garbage",
              "for m in acts():\n    s.send(b'\\xc1 not msgpack')\n");
    write_bot(dir, "illegal",
              "for m in acts():\n    ans(m, max(m['legal']) + 1)\n");
    write_bot(dir, "flood", "while True:\n    ans({'id': 123456}, 0)\n");
    write_bot(dir, "exiter", "next(acts())\nsys.exit(3)\n");
    const char *name[] = {"sleeper", "garbage", "illegal", "flood", "exiter"};
    const int code[] = {ERR_TIMEOUT, ERR_PROTO, ERR_ILLEGAL_ACTION, ERR_PROTO,
                        ERR_IO};
    for (int i = 0; i < 5; i++) {
        char *text = play_named(dir, name[i], 300, &st);
        assert_int_equal(st.played, GAMES);
        assert_int_equal(count_forfeits(text), GAMES);
        if (code[i] != ERR_IO)
            assert_int_equal(count(text, err_name(code[i])), GAMES);
        else /* the arena cannot tell a bot that died while asked from a
              * slow one; then it is gone, then absent */
            assert_int_equal(count(text, err_name(ERR_TIMEOUT)) +
                                 count(text, err_name(ERR_IO)) +
                                 count(text, err_name(ERR_NOTFOUND)),
                             GAMES);

        free(text);
    }
    rm_tree(dir);
}

/* A bot that never connects: every game of it forfeits as NOTFOUND. */
static void test_absent_bot_forfeits(void **state)
{
    (void)state;
    char dir[DIR_MAX], ep[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir);
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    struct setup su = {"random,bot:ghost", ep, 200, 1};
    char *text = run(&su, &st);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count(text, err_name(ERR_NOTFOUND)), GAMES);
    free(text);
    rm_tree(dir);
}

static void test_bad_specs_rejected(void **state)
{
    (void)state;
    struct game g;
    char err[256], dir[DIR_MAX];
    struct run_stats st;
    assert_int_equal(game_make(&g, GAME, err, sizeof err), 0);
    assert_null(agent_new("cmd:", &g, err, sizeof err));
    /* Creating the agent runs nothing: a roster check spawns no bot. */
    agent_t *a = agent_new("cmd:/nonexistent/bot", &g, err, sizeof err);
    assert_non_null(a);
    assert_string_equal(agent_spec(a), "cmd:/nonexistent/bot");
    agent_destroy(&a);
    /* A named bot needs an arena, and a name. */
    assert_null(agent_new("bot:alice", &g, err, sizeof err));
    assert_non_null(strstr(err, "--arena"));
    assert_null(agent_new("bot:", &g, err, sizeof err));
    tmp_dir(dir);
    struct run_opts o = {.game = GAME, .agents = "random,bot:alice",
                         .deals = 1, .max_lineups = 1, .jobs = 1,
                         .out_dir = dir, .shard = 1, .nshards = 1};
    assert_int_equal(run_tournament(&o, &st, err, sizeof err), ERR_INVAL);
    assert_non_null(strstr(err, "--arena"));
    o.arena = "nonsense://x";
    assert_int_equal(run_tournament(&o, &st, err, sizeof err), ERR_IO);
    assert_non_null(strstr(err, "nonsense://x"));
    rm_tree(dir);
}

int main(void)
{
    /* Short moves keep the hanging bot's games quick. */
    setenv(REMOTE_MOVE_ENV, "300", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_bot_plays_clean),
        cmocka_unit_test(test_bot_told_each_result),
        cmocka_unit_test(test_misbehaving_bots_forfeit),
        cmocka_unit_test(test_named_bot_plays_and_is_told),
        cmocka_unit_test(test_named_bot_serves_many_tables),
        cmocka_unit_test(test_named_bots_misbehave),
        cmocka_unit_test(test_absent_bot_forfeits),
        cmocka_unit_test(test_bad_specs_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
