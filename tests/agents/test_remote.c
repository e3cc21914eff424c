/* test_remote.c — external bots, spawned ("cmd:", agents/remote.h) or
 * connecting by themselves ("bot:NAME", agents/arena.h): a well-behaved
 * bot plays a whole tournament without forfeits and is told every game's
 * result (checked against the journal); one bot connection serves several
 * tables at once; bots that hang, exit, send garbage, answer illegal
 * actions or flood each forfeit every game they play with the matching
 * reason, while the run completes; a named bot that never comes forfeits
 * once the arena's wait is over. And the attacks of issue 12: an intruder
 * on a spawned bot's channel, bots that leave processes behind (at the
 * end, and after kill -9 of the tournament), a bot past its memory limit,
 * a late answer, junk hellos filling the arena, and a hello under another
 * bot's name with CURVE. The bots are small Python scripts (pyzmq,
 * msgpack) written to a scratch directory. Nothing depends on speed: the
 * move time is a minute unless a test is about missing it, named bots
 * have a minute to connect, and waits for files and process ends only
 * bound a hang. */
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/arena.h"
#include "agents/botproc.h"
#include "agents/remote.h"
#include "common/err.h"
#include "protocol/auth.h"
#include "tournament/run.h"
#include "../tournament/tour_test_util.h"

#define GAME "thirty_one(players=2)"
#define DEALS 2
/* Two agents, every deal played once per rotation of the two seats. */
#define GAMES (DEALS * 2)

#define DIR_MAX 256
#define LONG_MS "60000"  /* a move time no answering bot can miss */
#define SHORT_MS "300"   /* one that a bot that never answers costs */
#define HANG_MS 60000    /* bound of every wait for an event */
#define CONNECT_MS 60000 /* named bots' time to connect */

/* Every test bot connects (to PARLOR_ENDPOINT when spawned, else to its
 * first argument; with CURVE keys when PARLOR_SERVER_KEY names the
 * arena's; sock() may set a routing id) and says hello (as its second
 * argument, or "test", with the secret of a spawned bot); msgs() yields
 * what the arena sends until its bye, acts() only the act requests. */
static const char preamble[] =
    "import os, sys, time, zmq, zmq.auth, msgpack\n"
    "ep = os.environ.get('PARLOR_ENDPOINT') or sys.argv[1]\n"
    "def sock(key, ident=None):\n"
    "    k = zmq.Context.instance().socket(zmq.DEALER)\n"
    "    k.linger = 0\n"
    "    if ident:\n"
    "        k.routing_id = ident\n"
    "    if os.environ.get('PARLOR_SERVER_KEY'):\n"
    "        k.curve_serverkey = zmq.auth.load_certificate("
    "os.environ['PARLOR_SERVER_KEY'])[0]\n"
    "        k.curve_publickey, k.curve_secretkey ="
    " zmq.auth.load_certificate(key)\n"
    "    k.connect(ep)\n"
    "    return k\n"
    "def hello(k, name, secret=os.environ.get('PARLOR_SECRET', '')):\n"
    "    k.send(msgpack.packb({'v': 1, 'id': 0, 'type': 'hello', 'name':"
    " name, 'version': '0', 'secret': secret}))\n"
    "s = sock(os.environ.get('PARLOR_KEY'))\n"
    "hello(s, sys.argv[2] if len(sys.argv) > 2 else 'test')\n"
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
    const char *agents;       /* the agent list */
    const char *arena;        /* arena endpoint, or NULL */
    int wait_ms;              /* bots' time to connect to it */
    int jobs;                 /* worker threads */
    const char *curve_secret; /* the arena's key pair, or NULL */
    const char *allow_dir;    /* the bots' public keys, or NULL */
    FILE *warnings;           /* forfeit reports; NULL: stderr */
};

/* Runs the tournament su describes; returns the journal's text
 * (malloc'd) and the stats in *st. */
static char *run(const struct setup *su, struct run_stats *st)
{
    char dir[DIR_MAX], err[1024];
    tmp_dir(dir, DIR_MAX);
    struct run_opts o = {.game = GAME,
                         .agents = su->agents,
                         .deals = DEALS,
                         .max_lineups = 120,
                         .seed = 7,
                         .jobs = su->jobs,
                         .out_dir = dir,
                         .shard = 1,
                         .nshards = 1,
                         .arena = su->arena,
                         .bot_wait_ms = su->wait_ms,
                         .curve_secret = su->curve_secret,
                         .allow_dir = su->allow_dir,
                         .warnings = su->warnings};
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

/* Writes the bot dir/name.py (preamble + body) and plays random against
 * it, spawned with VAR=dir/name.txt (the file it reports to: its path goes
 * to path, DIR_MAX * 2) in its environment; returns the journal's text. */
static char *play_reporting(const char *dir, const char *name,
                            const char *body, const char *var, char *path,
                            struct run_stats *st)
{
    char cmd[DIR_MAX * 5];
    write_bot(dir, name, body);
    snprintf(path, DIR_MAX * 2, "%s/%s.txt", dir, name);
    snprintf(cmd, sizeof cmd, "%s=%s /usr/bin/python3 %s/%s.py", var, path,
             dir, name);
    return play(cmd, st);
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

/* Sets the per-move limit of the bots created from now on. */
static void move_ms(const char *ms)
{
    setenv(REMOTE_MOVE_ENV, ms, 1);
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

/* Runs a tournament of agents on jobs threads with the bot dir/name.py
 * started first, connected to an arena on an ipc endpoint in dir; returns
 * the journal's text. */
static char *play_with_bot(const char *dir, const char *name,
                           const char *agents, int jobs, int wait_ms,
                           struct run_stats *st)
{
    char ep[DIR_MAX * 2];
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    pid_t pid = start_bot(dir, name, ep);
    struct setup su = {
        .agents = agents, .arena = ep, .wait_ms = wait_ms, .jobs = jobs};
    char *text = run(&su, st);
    stop_bot(pid);
    return text;
}

/* Runs random against the named bot dir/name.py (play_with_bot). */
static char *play_named(const char *dir, const char *name, int wait_ms,
                        struct run_stats *st)
{
    char agents[DIR_MAX];
    snprintf(agents, sizeof agents, "random,bot:%s", name);
    return play_with_bot(dir, name, agents, 1, wait_ms, st);
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

/* The run whose journal is text (freed here) played all GAMES games
 * without a forfeit, and its bot reported want in the file at path. */
static void expect_clean_report(char *text, const struct run_stats *st,
                                const char *path, const char *want)
{
    char got[256] = "";
    assert_int_equal(st->played, GAMES);
    assert_int_equal(count_forfeits(text), 0);
    free(text);
    read_text(path, got, sizeof got);
    assert_string_equal(got, want);
}

/* Whether process pid runs (a zombie has ended: it only waits for its
 * parent to read its status). */
static bool pid_running(long pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
    fclose(f);
    const char *p = strrchr(buf, ')');
    return p && p[1] && p[2] != 'Z' && p[2] != 'X';
}

/* Waits (bounded by HANG_MS, in 10 ms steps) until ready(arg) holds. */
static bool wait_until(bool (*ready)(const void *), const void *arg)
{
    for (int ms = 0; ms < HANG_MS && !ready(arg); ms += 10)
        usleep(10000);
    return ready(arg);
}

static bool pid_ended(const void *pid)
{
    return !pid_running(*(const long *)pid);
}

/* A file holds a whole line. */
static bool has_line(const void *path)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    if (f) {
        buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
        fclose(f);
    }
    return strchr(buf, '\n') != NULL;
}

/* Reads the pids in the file at path (whitespace-separated) into pid
 * (cap entries); returns how many. */
static int read_pids(const char *path, long *pid, int cap)
{
    int n = 0;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (n < cap && fscanf(f, "%ld", &pid[n]) == 1)
        n++;
    fclose(f);
    return n;
}

/* The journal's games, in order: the seat "bot" sat in, its rank and
 * its return, one line each like results_bot writes. The journal (format
 * 3) holds no ranks: in a two-seat game without forfeits (the callers
 * check there are none) a seat ranks 1 unless the other's return is
 * greater, which makes it 2. */
static void journal_view_of_bot(const char *text, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = text; (p = strstr(p, "\"seats\":[")); p++) {
        int seat = !strncmp(p + 9, "\"random\"", 8); /* 2 seats */
        double ret[2];
        const char *q = strstr(p, "\"returns\":[");
        assert_non_null(q);
        assert_int_equal(sscanf(q, "\"returns\":[%lf,%lf]", &ret[0], &ret[1]),
                         2);
        int rank = 1 + (ret[1 - seat] > ret[seat]);
        used += (size_t)snprintf(out + used, cap - used, "%d %d %g\n", seat,
                                 rank, ret[seat]);
    }
}

static void test_bot_told_each_result(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2], told[4096] = "", expect[4096];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    char *text =
        play_reporting(dir, "results", results_bot, "RESULTS_OUT", path, &st);
    assert_int_equal(count_forfeits(text), 0);
    journal_view_of_bot(text, expect, sizeof expect);
    read_text(path, told, sizeof told);
    /* One result per game, in the journal's order, with the seat, rank
     * and return the journal holds. */
    assert_int_equal(count(told, "\n"), GAMES);
    assert_string_equal(told, expect);
    /* The bot is gone when the run is over: its supervisor has waited
     * for it. */
    char pidfile[DIR_MAX * 3];
    long pid;
    snprintf(pidfile, sizeof pidfile, "%s.pid", path);
    assert_int_equal(read_pids(pidfile, &pid, 1), 1);
    assert_false(pid_running(pid));
    free(text);
    rm_tree(dir);
}

static void test_misbehaving_bots_forfeit(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    tmp_dir(dir, DIR_MAX);
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
    write_bot(dir, "flood", "while True:\n    ans({'id': 123456}, 0)\n");
    move_ms(SHORT_MS); /* it never answers: each game costs the limit */
    expect_forfeits(dir, "sleeper", ERR_TIMEOUT);
    move_ms(LONG_MS);
    expect_forfeits(dir, "exiter", ERR_IO);
    expect_forfeits(dir, "garbage", ERR_PROTO);
    expect_forfeits(dir, "illegal", ERR_ILLEGAL_ACTION);
    expect_forfeits(dir, "flood", ERR_PROTO);
    rm_tree(dir);
}

/* The run reports a bot's first forfeit, with the bot's exit status, at
 * once and only once; every forfeit's reason in the journal has it. */
static void test_first_forfeit_is_reported(void **state)
{
    (void)state;
    char dir[DIR_MAX], cmd[DIR_MAX * 2], agents[DIR_MAX * 3], said[4096];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "exiter", "next(acts())\nsys.exit(3)\n");
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/exiter.py", dir);
    snprintf(agents, sizeof agents, "random,bot=cmd:%s", cmd);
    FILE *w = tmpfile();
    assert_non_null(w);
    struct setup su = {.agents = agents, .jobs = 1, .warnings = w};
    char *text = run(&su, &st);
    rewind(w);
    said[fread(said, 1, sizeof said - 1, w)] = '\0';
    fclose(w);
    assert_int_equal(count(said, "warning:"), 1);
    if (!strstr(said, "parlor tournament: warning: bot forfeited deal 0: "
                      "seat ") ||
        !strstr(said, "the bot exited (exit status 3) (IO) (its further "
                      "forfeits are counted in the results)\n"))
        fail_msg("reported:\n%s", said);
    assert_int_equal(count_forfeits(text), GAMES);
    assert_int_equal(count(text, "the bot exited (exit status 3)"), GAMES);
    free(text);
    rm_tree(dir);
}

/* A spawned bot that never says hello (no such command, a crash at
 * start) stops the run after RUN_START_TRIES plays of its first game,
 * naming it and why; none of those tries is recorded. */
static void expect_no_start(const char *cmd, const char *why)
{
    char dir[DIR_MAX], agents[DIR_MAX * 2], err[1024], path[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    snprintf(agents, sizeof agents, "random,bot=cmd:%s", cmd);
    struct run_opts o = {.game = GAME, .agents = agents, .deals = DEALS,
                         .max_lineups = 120, .seed = 7, .jobs = 2,
                         .out_dir = dir, .shard = 1, .nshards = 1};
    assert_int_equal(run_tournament(&o, &st, err, sizeof err), ERR_STATE);
    if (!strstr(err, "agent bot could not start (3 tries on deal ") ||
        !strstr(err, why))
        fail_msg("error: %s (wanted '%s')", err, why);
    assert_int_equal(st.played, 0);
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0;
    for (int c; (c = getc(f)) != EOF;)
        lines += c == '\n';
    fclose(f);
    assert_int_equal(lines, 1); /* the header alone */
    rm_tree(dir);
}

/* A bot that got going once (said hello, then crashed) is charged the
 * games it later cannot start in: they are forfeits, not a stopped run. */
static void test_bot_that_started_once_keeps_forfeiting(void **state)
{
    (void)state;
    char dir[DIR_MAX], cmd[DIR_MAX * 4];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "exiter", "next(acts())\nsys.exit(3)\n");
    /* the first start runs the bot; every later one exits 4 at once */
    snprintf(cmd, sizeof cmd,
             "test -e %s/ran && exit 4; touch %s/ran; "
             "exec /usr/bin/python3 %s/exiter.py",
             dir, dir, dir);
    char *text = play(cmd, &st);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count_forfeits(text), GAMES);
    assert_int_equal(count(text, "the bot exited (exit status 3)"), 1);
    assert_int_equal(count(text, "exited before saying hello (exit status 4)"),
                     GAMES - 1);
    free(text);
    rm_tree(dir);
}

static void test_unstartable_bot_stops_run(void **state)
{
    (void)state;
    expect_no_start("/nonexistent/bot",
                    "the bot exited before saying hello (exit status 127: "
                    "the shell found no such command) (IO)");
    expect_no_start("/usr/bin/python3 -c 'import sys; sys.exit(5)'",
                    "the bot exited before saying hello (exit status 5)");
}

static void test_named_bot_plays_and_is_told(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2], told[4096] = "", expect[4096];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "results", results_bot);
    snprintf(path, sizeof path, "%s/told.txt", dir);
    setenv("RESULTS_OUT", path, 1);
    char *text = play_named(dir, "results", CONNECT_MS, &st);
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
    char dir[DIR_MAX];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "first", "for m in acts():\n    ans(m, m['legal'][0])\n");
    char *text = play_with_bot(dir, "first", "random,x=bot:first,y=bot:first",
                               2, CONNECT_MS, &st);
    /* Three agents, two seats: 3 line-ups x 2 rotations per deal. */
    assert_int_equal(st.played, DEALS * 3 * 2);
    assert_int_equal(count_forfeits(text), 0);
    free(text);
    rm_tree(dir);
}

/* Connected bots that misbehave forfeit with the reason a spawned one
 * would get; the exiting one is gone after its first game. Each has a
 * minute to connect (a request waits for it), and those that answer have
 * a minute to do so: only the two that never answer get a short limit. */
static void test_named_bots_misbehave(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
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
        move_ms(code[i] == ERR_TIMEOUT || code[i] == ERR_IO ? SHORT_MS
                                                            : LONG_MS);
        char *text = play_named(dir, name[i], CONNECT_MS, &st);
        assert_int_equal(st.played, GAMES);
        assert_int_equal(count_forfeits(text), GAMES);
        if (code[i] != ERR_IO)
            assert_int_equal(count(text, err_name(code[i])), GAMES);
        else /* the arena cannot tell a bot that died while asked from a
              * slow one; then its connection is gone */
            assert_int_equal(count(text, err_name(ERR_TIMEOUT)) +
                                 count(text, err_name(ERR_IO)),
                             GAMES);

        free(text);
    }
    move_ms(LONG_MS);
    rm_tree(dir);
}

/* A bot that never connects: every game of it forfeits as NOTFOUND. */
static void test_absent_bot_forfeits(void **state)
{
    (void)state;
    char dir[DIR_MAX], ep[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    struct setup su = {
        .agents = "random,bot:ghost", .arena = ep, .wait_ms = 200, .jobs = 1};
    char *text = run(&su, &st);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count(text, err_name(ERR_NOTFOUND)), GAMES);
    free(text);
    rm_tree(dir);
}

/* ---- issue 12 ---------------------------------------------------------- */

/* A second connection to a spawned bot's channel, made by the bot itself
 * (so that it surely connects while the bot plays), says hello without
 * the secret and answers every act first, illegally. It must get nothing
 * and change nothing; the channel must be an ipc path in a directory only
 * this user may open. The bot writes "MODE RECEIVED" to INTRUDER_OUT. */
static const char intruder_bot[] =
    "import stat\n"
    "i = sock(None)\n"
    "hello(i, 'test', 'not-the-secret')\n"
    "got = 0\n"
    "mode = stat.S_IMODE(os.stat(os.path.dirname(ep[6:])).st_mode)"
    " if ep.startswith('ipc://') else 0\n"
    "def note():\n"
    "    global got\n"
    "    while i.poll(0):\n"
    "        i.recv()\n"
    "        got += 1\n"
    "    open(os.environ['INTRUDER_OUT'], 'w').write('%o %d\\n' % (mode, "
    "got))\n"
    "for m in acts():\n"
    "    i.send(msgpack.packb({'v': 1, 'id': m['id'], 'type': 'action',"
    " 'action': -1}))\n"
    "    ans(m, m['legal'][0])\n"
    "    note()\n";

static void test_spawned_channel_is_private(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    char *text = play_reporting(dir, "intruder", intruder_bot, "INTRUDER_OUT",
                                path, &st);
    expect_clean_report(text, &st, path, "700 0\n");
    rm_tree(dir);
}

/* A bot that forks a sleeper, and a child that calls setsid() and forks
 * again (its own child then sleeps in another session and process
 * group), writes the three pids to PIDS_OUT, then plays, or with HANG
 * set, hangs at its first act. */
static const char forking_bot[] =
    "if os.fork() == 0:\n"
    "    time.sleep(1000)\n"
    "    os._exit(0)\n"
    "kid = None\n"
    "r, w = os.pipe()\n"
    "p1 = os.fork()\n"
    "if p1 == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        os.write(w, str(os.getpid()).encode())\n"
    "        time.sleep(1000)\n"
    "    os._exit(0)\n"
    "os.close(w)\n"
    "os.waitpid(p1, 0)\n"
    "grand = int(os.read(r, 64))\n"
    "with open(os.environ['PIDS_OUT'], 'a') as f:\n"
    "    f.write('%d %d\\n' % (os.getpid(), grand))\n"
    "for m in acts():\n"
    "    if os.environ.get('HANG'):\n"
    "        time.sleep(1000)\n"
    "    ans(m, m['legal'][0])\n";

/* Every pid in the file at path is gone, at once: the tournament waited
 * for the bots' supervisors, which wait for every process they kill. */
static void expect_no_process(const char *path)
{
    long pid[64];
    int n = read_pids(path, pid, 64);
    assert_true(n >= 2);
    for (int i = 0; i < n; i++)
        if (pid_running(pid[i]))
            fail_msg("process %ld of a bot outlived the tournament", pid[i]);
}

static void test_bot_processes_end_with_run(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    char *text =
        play_reporting(dir, "forker", forking_bot, "PIDS_OUT", path, &st);
    assert_int_equal(count_forfeits(text), 0);
    expect_no_process(path);
    free(text);
    rm_tree(dir);
}

/* kill -9 of the tournament (a child process playing it) ends its bot
 * and everything the bot started. */
static void test_bot_processes_end_with_killed_run(void **state)
{
    (void)state;
    char dir[DIR_MAX], cmd[DIR_MAX * 5], path[DIR_MAX * 2];
    long pid[8];
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "forker", forking_bot);
    snprintf(path, sizeof path, "%s/pids.txt", dir);
    snprintf(cmd, sizeof cmd,
             "HANG=1 PIDS_OUT=%s /usr/bin/python3 %s/forker.py", path, dir);
    pid_t run_pid = fork();
    assert_true(run_pid >= 0);
    if (run_pid == 0) {
        struct run_stats st;
        setenv("TMPDIR", dir, 1); /* its journal's directory goes in dir */
        free(play(cmd, &st));
        _exit(0);
    }
    assert_true(wait_until(has_line, path));
    kill(run_pid, SIGKILL);
    assert_int_equal(waitpid(run_pid, NULL, 0), run_pid);
    int n = read_pids(path, pid, 8);
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++)
        assert_true(wait_until(pid_ended, &pid[i]));
    rm_tree(dir);
}

/* A bot that allocates past --bot-memory fails (and forfeits) instead of
 * growing. */
static void test_bot_memory_limit(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "hog",
              "for m in acts():\n"
              "    try:\n"
              "        hog = bytearray(1 << 30)\n"
              "    except MemoryError:\n"
              "        sys.exit(9)\n"
              "    ans(m, m['legal'][0])\n");
    setenv(BOTPROC_MEMORY_ENV, "256", 1);
    expect_forfeits(dir, "hog", ERR_IO);
    unsetenv(BOTPROC_MEMORY_ENV);
    rm_tree(dir);
}

/* A named bot answers its first act after the deadline (once the next
 * game's act has come), then plays: only that first game forfeits. */
static void test_late_answer_not_charged_to_next_game(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "late",
              "first = next(acts())\n"
              "second = next(acts())\n"
              "ans(first, first['legal'][0])\n"
              "ans(second, second['legal'][0])\n"
              "for m in acts():\n"
              "    ans(m, m['legal'][0])\n");
    move_ms("10000"); /* missed once on purpose; ample for the rest */
    char *text = play_named(dir, "late", CONNECT_MS, &st);
    move_ms(LONG_MS);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count_forfeits(text), 1);
    assert_int_equal(count(text, err_name(ERR_TIMEOUT)), 1);
    free(text);
    rm_tree(dir);
}

/* After its welcome, a bot opens JUNK more connections, each saying hello
 * under a name of its own and reading the reply, writes "WELCOMES ERRORS"
 * to JUNK_OUT, and plays. */
#define JUNK (ARENA_BOTS_MAX + 6)
static const char junk_bot[] =
    "assert msgpack.unpackb(s.recv())['type'] == 'welcome'\n"
    "kind = []\n"
    "junk = [sock(None) for i in range(int(os.environ['JUNK']))]\n"
    "for i, j in enumerate(junk):\n"
    "    hello(j, 'junk%d' % i)\n"
    "    kind.append(msgpack.unpackb(j.recv())['type'])\n"
    "open(os.environ['JUNK_OUT'], 'w').write('%d %d\\n' %"
    " (kind.count('welcome'), kind.count('error')))\n"
    "for m in acts():\n"
    "    ans(m, m['legal'][0])\n";

static void test_full_arena_keeps_connected_bot(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2], want[64], n[16];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    write_bot(dir, "alice", junk_bot);
    snprintf(path, sizeof path, "%s/junk.txt", dir);
    snprintf(n, sizeof n, "%d", JUNK);
    setenv("JUNK", n, 1);
    setenv("JUNK_OUT", path, 1);
    char *text = play_named(dir, "alice", CONNECT_MS, &st);
    unsetenv("JUNK");
    unsetenv("JUNK_OUT");
    /* alice holds one of the slots; the rest go to the first junk
     * connections, and the others are refused. */
    snprintf(want, sizeof want, "%d %d\n", ARENA_BOTS_MAX - 1,
             JUNK - (ARENA_BOTS_MAX - 1));
    expect_clean_report(text, &st, path, want);
    rm_tree(dir);
}

/* With CURVE and an allow directory, mallory (an allowed key) saying
 * hello as alice is refused and gets nothing of alice's; alice plays.
 * The bot connects as alice, then as mallory, and writes the reply
 * mallory got to MALLORY_OUT. */
static const char impostor_bot[] =
    "assert msgpack.unpackb(s.recv())['type'] == 'welcome'\n"
    "m = sock(os.environ['MALLORY_KEY'])\n"
    "hello(m, 'alice')\n"
    "open(os.environ['MALLORY_OUT'], 'w').write("
    "msgpack.unpackb(m.recv())['type'] + '\\n')\n"
    "for a in acts():\n"
    "    ans(a, a['legal'][0])\n";

/* Writes key pairs dir/arena and dir/allow/NAME for each name. */
static void make_keys(const char *dir, const char *const *names, int n)
{
    char base[DIR_MAX * 2], err[256];
    snprintf(base, sizeof base, "%s/allow", dir);
    assert_int_equal(mkdir(base, 0700), 0);
    snprintf(base, sizeof base, "%s/arena", dir);
    assert_int_equal(auth_keygen(base, err, sizeof err), 0);
    for (int i = 0; i < n; i++) {
        snprintf(base, sizeof base, "%s/allow/%s", dir, names[i]);
        assert_int_equal(auth_keygen(base, err, sizeof err), 0);
    }
}

static void test_curve_binds_name_to_key(void **state)
{
    (void)state;
    char dir[DIR_MAX], ep[DIR_MAX * 2], path[DIR_MAX * 2];
    char sec[DIR_MAX * 2], allow[DIR_MAX * 2], key[3][DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    make_keys(dir, (const char *const[]){"alice", "mallory"}, 2);
    write_bot(dir, "alice", impostor_bot);
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    snprintf(sec, sizeof sec, "%s/arena.key_secret", dir);
    snprintf(allow, sizeof allow, "%s/allow", dir);
    snprintf(key[0], sizeof key[0], "%s/arena.key", dir);
    snprintf(key[1], sizeof key[1], "%s/allow/alice.key_secret", dir);
    snprintf(key[2], sizeof key[2], "%s/allow/mallory.key_secret", dir);
    snprintf(path, sizeof path, "%s/mallory.txt", dir);
    setenv("PARLOR_SERVER_KEY", key[0], 1);
    setenv("PARLOR_KEY", key[1], 1);
    setenv("MALLORY_KEY", key[2], 1);
    setenv("MALLORY_OUT", path, 1);
    pid_t pid = start_bot(dir, "alice", ep);
    struct setup su = {"random,bot:alice", ep, CONNECT_MS, 1, sec, allow,
                       NULL};
    char *text = run(&su, &st);
    stop_bot(pid);
    unsetenv("PARLOR_SERVER_KEY");
    unsetenv("PARLOR_KEY");
    unsetenv("MALLORY_KEY");
    unsetenv("MALLORY_OUT");
    expect_clean_report(text, &st, path, "error\n");
    rm_tree(dir);
}

/* With CURVE and an allow directory: alice (routing id "alice-id") says
 * hello, gets her first act and drops without answering; mallory, an
 * allowed key, then connects with alice's routing id and says nothing
 * (a hello as alice would be refused) but answers what it gets, while a
 * connection of mallory's own plays mallory's games. The id alone must
 * not make mallory alice: she is sent none of alice's requests. The bot
 * counts the requests the hijacking connection got by the bye and writes
 * the count to HIJACK_OUT. */
static const char hijack_bot[] =
    "a = sock(os.environ['ALICE_KEY'], b'alice-id')\n"
    "hello(a, 'alice')\n"
    "h, got, bye = None, 0, False\n"
    "p = zmq.Poller()\n"
    "p.register(s, zmq.POLLIN)\n"
    "p.register(a, zmq.POLLIN)\n"
    "while not bye:\n"
    "    for k, _ in p.poll():\n"
    "        m = msgpack.unpackb(k.recv())\n"
    "        if k is a and m['type'] == 'act':\n"
    "            p.unregister(a)\n"
    "            a.close()\n"
    "            h = sock(os.environ['PARLOR_KEY'], b'alice-id')\n"
    "            p.register(h, zmq.POLLIN)\n"
    "        elif k is h and m['type'] == 'act':\n"
    "            got += 1\n"
    "            h.send(msgpack.packb({'v': 1, 'id': m['id'], 'type':"
    " 'action', 'action': m['legal'][0]}))\n"
    "        elif k is s and m['type'] == 'act':\n"
    "            ans(m, m['legal'][0])\n"
    "        bye = bye or (k is s and m['type'] == 'bye')\n"
    "while h and h.poll(500):\n"
    "    got += msgpack.unpackb(h.recv())['type'] == 'act'\n"
    "open(os.environ['HIJACK_OUT'], 'w').write('%d\\n' % got)\n";

/* Sets (value) or clears (NULL) the environment variables of a CURVE
 * test in dir: the arena's public key and the keys of the bots named. */
static void curve_env(const char *dir, const char *const *var,
                      const char *const *name, int n, bool set)
{
    char path[DIR_MAX * 2];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/allow/%s.key_secret", dir, name[i]);
        if (set)
            setenv(var[i], path, 1);
        else
            unsetenv(var[i]);
    }
    snprintf(path, sizeof path, "%s/arena.key", dir);
    if (set)
        setenv("PARLOR_SERVER_KEY", path, 1);
    else
        unsetenv("PARLOR_SERVER_KEY");
}

static void test_curve_routing_id_is_not_identity(void **state)
{
    (void)state;
    char dir[DIR_MAX], ep[DIR_MAX * 2], path[DIR_MAX * 2];
    char sec[DIR_MAX * 2], allow[DIR_MAX * 2];
    const char *const name[] = {"alice", "mallory"};
    const char *const var[] = {"ALICE_KEY", "PARLOR_KEY"};
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    make_keys(dir, name, 2);
    write_bot(dir, "mallory", hijack_bot);
    snprintf(ep, sizeof ep, "ipc://%s/arena", dir);
    snprintf(sec, sizeof sec, "%s/arena.key_secret", dir);
    snprintf(allow, sizeof allow, "%s/allow", dir);
    snprintf(path, sizeof path, "%s/hijack.txt", dir);
    curve_env(dir, var, name, 2, true);
    setenv("HIJACK_OUT", path, 1);
    pid_t pid = start_bot(dir, "mallory", ep);
    struct setup su = {"random,bot:alice,bot:mallory", ep, CONNECT_MS, 1, sec,
                       allow, NULL};
    char *text = run(&su, &st);
    assert_true(wait_until(pid_ended, &(long){pid}));
    stop_bot(pid);
    curve_env(dir, var, name, 2, false);
    unsetenv("HIJACK_OUT");
    /* Three agents, two seats: 3 line-ups x 2 rotations per deal; alice
     * is in two line-ups, and she forfeits each of her games, as gone
     * (IO): mallory answers none of them. mallory's own games end
     * normally. */
    assert_int_equal(st.played, DEALS * 3 * 2);
    assert_int_equal(count_forfeits(text), DEALS * 2 * 2);
    assert_int_equal(count(text, "(IO)"), DEALS * 2 * 2);
    char got[64] = "";
    read_text(path, got, sizeof got);
    assert_string_equal(got, "0\n");
    free(text);
    rm_tree(dir);
}

/* Connections that said hello and closed, 64 under names of their own and
 * 64 more that stay open but all say hello as "mallory" (one name, one
 * peer): none of them keeps alice, who says hello last, out. Each hello
 * is said again while refused, until the arena has seen the closes (a
 * bound of a minute). The bot writes each hello's final reply type (how
 * many welcomes, how many errors) to SLOTS_OUT, then plays as alice. */
static const char slots_bot[] =
    "end = time.time() + 60\n"
    "def enter(k, name):\n"
    "    while True:\n"
    "        hello(k, name)\n"
    "        kind = msgpack.unpackb(k.recv())['type']\n"
    "        if kind == 'welcome' or time.time() > end:\n"
    "            return kind\n"
    "        time.sleep(0.05)\n"
    "kind = []\n"
    "for i in range(64):\n"
    "    j = sock(None)\n"
    "    kind.append(enter(j, 'junk%d' % i))\n"
    "    j.close()\n"
    "keep = [sock(None) for i in range(64)]\n"
    "kind += [enter(k, 'mallory') for k in keep]\n"
    "s = sock(None)\n"
    "kind.append(enter(s, 'alice'))\n"
    "open(os.environ['SLOTS_OUT'], 'w').write('%d %d\\n' %"
    " (kind.count('welcome'), kind.count('error')))\n"
    "for m in acts():\n"
    "    ans(m, m['legal'][0])\n";

static void test_closed_and_repeated_hellos_free_slots(void **state)
{
    (void)state;
    char dir[DIR_MAX], path[DIR_MAX * 2];
    struct run_stats st;
    tmp_dir(dir, DIR_MAX);
    snprintf(path, sizeof path, "%s/slots.txt", dir);
    write_bot(dir, "slots", slots_bot);
    setenv("SLOTS_OUT", path, 1);
    /* Its first hello, as "slots", takes a slot and holds it. */
    char *text =
        play_with_bot(dir, "slots", "random,bot:alice", 1, CONNECT_MS, &st);
    unsetenv("SLOTS_OUT");
    expect_clean_report(text, &st, path, "129 0\n");
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
    tmp_dir(dir, DIR_MAX);
    struct run_opts o = {.game = GAME, .agents = "random,bot:alice",
                         .deals = 1, .max_lineups = 1, .jobs = 1,
                         .out_dir = dir, .shard = 1, .nshards = 1};
    assert_int_equal(run_tournament(&o, &st, err, sizeof err), ERR_INVAL);
    assert_non_null(strstr(err, "--arena"));
    o.allow_dir = dir;
    assert_int_equal(run_tournament(&o, &st, err, sizeof err), ERR_INVAL);
    assert_non_null(strstr(err, "--curve-secret"));
    o.allow_dir = NULL;
    o.arena = "nonsense://x";
    assert_int_equal(run_tournament(&o, &st, err, sizeof err), ERR_IO);
    assert_non_null(strstr(err, "nonsense://x"));
    rm_tree(dir);
}

int main(void)
{
    move_ms(LONG_MS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_bot_plays_clean),
        cmocka_unit_test(test_bot_told_each_result),
        cmocka_unit_test(test_misbehaving_bots_forfeit),
        cmocka_unit_test(test_first_forfeit_is_reported),
        cmocka_unit_test(test_unstartable_bot_stops_run),
        cmocka_unit_test(test_bot_that_started_once_keeps_forfeiting),
        cmocka_unit_test(test_named_bot_plays_and_is_told),
        cmocka_unit_test(test_named_bot_serves_many_tables),
        cmocka_unit_test(test_named_bots_misbehave),
        cmocka_unit_test(test_absent_bot_forfeits),
        cmocka_unit_test(test_spawned_channel_is_private),
        cmocka_unit_test(test_bot_processes_end_with_run),
        cmocka_unit_test(test_bot_processes_end_with_killed_run),
        cmocka_unit_test(test_bot_memory_limit),
        cmocka_unit_test(test_late_answer_not_charged_to_next_game),
        cmocka_unit_test(test_full_arena_keeps_connected_bot),
        cmocka_unit_test(test_curve_binds_name_to_key),
        cmocka_unit_test(test_curve_routing_id_is_not_identity),
        cmocka_unit_test(test_closed_and_repeated_hellos_free_slots),
        cmocka_unit_test(test_bad_specs_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
