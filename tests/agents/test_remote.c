/* test_remote.c — external bots seated with "cmd:" (agents/remote.h): a
 * well-behaved bot plays a whole tournament without forfeits, and bots
 * that hang, exit, send garbage, answer illegal actions or flood each
 * forfeit every game they play with the matching reason, while the run
 * completes. The bots are small Python scripts (pyzmq, msgpack) written
 * to a scratch directory; every wait is bounded by the move time. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
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

/* Every test bot connects and says hello first. */
static const char preamble[] =
    "import os, sys, time, zmq, msgpack\n"
    "s = zmq.Context().socket(zmq.PAIR)\n"
    "s.connect(os.environ['PARLOR_ENDPOINT'])\n"
    "s.send(msgpack.packb({'v': 1, 'id': 0, 'type': 'hello',"
    " 'name': 'test', 'version': '0'}))\n"
    "def ans(m, a):\n"
    "    s.send(msgpack.packb({'v': 1, 'id': m['id'], 'type': 'action',"
    " 'action': a}))\n";

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

/* Plays random against the bot run by cmd; returns the journal's text
 * (malloc'd) and the stats in *st. */
static char *play(const char *cmd, struct run_stats *st)
{
    char dir[DIR_MAX], agents[DIR_MAX * 3], err[1024];
    tmp_dir(dir);
    snprintf(agents, sizeof agents, "random,bot=cmd:%s", cmd);
    struct run_opts o = {.game = GAME, .agents = agents, .deals = DEALS,
                         .max_lineups = 120, .seed = 7, .jobs = 1,
                         .out_dir = dir, .shard = 1, .nshards = 1};
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

/* The bot in dir/name.py forfeits all GAMES games, each time with the
 * err.h name of code in the recorded reason. */
/* Games the journal text records as forfeits. */
static int count_forfeits(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "\"end\":\"forfeit\"")); p++)
        n++;
    return n;
}

static void expect_forfeits(const char *dir, const char *name, int code)
{
    char cmd[DIR_MAX * 2];
    struct run_stats st;
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/%s.py", dir, name);
    char *text = play(cmd, &st);
    assert_int_equal(st.played, GAMES);
    assert_int_equal(count_forfeits(text), GAMES);
    int n = 0;
    for (const char *p = text; (p = strstr(p, err_name(code))); p++)
        n++;
    assert_int_equal(n, GAMES);
    free(text);
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

static void test_misbehaving_bots_forfeit(void **state)
{
    (void)state;
    char dir[DIR_MAX];
    tmp_dir(dir);
    write_bot(dir, "sleeper", "s.recv()\ntime.sleep(1000)\n");
    write_bot(dir, "exiter", "s.recv()\nsys.exit(3)\n");
    write_bot(dir, "garbage",
              "while True:\n    s.recv()\n    s.send(b'\\xc1 not msgpack')\n");
    /* An id that is not among the legal ones (the list is sorted). */
    write_bot(dir, "illegal",
              "while True:\n    m = msgpack.unpackb(s.recv())\n"
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

static void test_empty_command_rejected(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    assert_int_equal(game_make(&g, GAME, err, sizeof err), 0);
    assert_null(agent_new("cmd:", &g, err, sizeof err));
    /* Creating the agent runs nothing: a roster check spawns no bot. */
    agent_t *a = agent_new("cmd:/nonexistent/bot", &g, err, sizeof err);
    assert_non_null(a);
    assert_string_equal(agent_spec(a), "cmd:/nonexistent/bot");
    agent_destroy(&a);
}

int main(void)
{
    /* Short moves keep the hanging bot's games quick. */
    setenv(REMOTE_MOVE_ENV, "300", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_bot_plays_clean),
        cmocka_unit_test(test_misbehaving_bots_forfeit),
        cmocka_unit_test(test_empty_command_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
