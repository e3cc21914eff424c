/* test_server_sec.c — the env server against a hostile client: what a
 * request may make the server do (start processes, search without end),
 * whose envs a connection may touch, what a reply may cost, and what the
 * error replies say (issues 12 and 19).
 *
 * Each test provokes one attack or one case the protocol leaves open and
 * checks the answer PROTOCOL.md gives it, then that the server still
 * serves. Time is the rig's clock, moved by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "common/err.h"
#include "env/server.h"
#include "protocol/client.h"
#include "tests/env/env_test_util.h"
#include "tests/env/server_rig.h"

#define IDLE_MS 10000

static int setup(void **state)
{
    static struct rig rig;
    struct server_options o = {.max_envs = 64, .idle_ms = IDLE_MS};
    rig_start(&rig, &o);
    *state = &rig;
    return 0;
}

static int teardown(void **state)
{
    rig_stop(*state);
    return 0;
}

/* make with opponents opp (n envs, 0: plain); returns the wire code. */
static int make_with(client_t *c, const char *spec, const char *opp, int n)
{
    client_env_t *e =
        client_make(c, spec, &(struct client_make_options){n, opp, 0, 0});
    if (!e)
        return client_wire_error(c);
    assert_int_equal(client_close(&e), 0);
    return 0;
}

/* ---- issue 12.1: nothing from the network starts a process -------------- */

static void test_opponents_are_builtin_only(void **state)
{
    client_t *c = connect_client(*state);
    char dir[] = "/tmp/parlor_secXXXXXX", cmd[160], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/ran", dir);
    snprintf(cmd, sizeof cmd, "cmd:touch %s", path);
    client_env_t *e =
        client_make(c, "dice", &(struct client_make_options){0, cmd, 0, 0});
    if (e) /* the old server accepted it and ran it at the first move */
        client_reset(e, 1);
    assert_null(e);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_SPEC);
    assert_non_null(strstr(client_errmsg(c), "built-in agents are random"));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(make_with(c, "dice", "bot:alice", 0), PROTO_E_BAD_SPEC);
    assert_int_equal(make_with(c, "dice", "random,cmd:id", 0),
                     PROTO_E_BAD_SPEC);
    assert_int_equal(make_with(c, "dice", "random", 0), 0);
    rmdir(dir);
}

/* The search budgets: 2000 playouts and 100 ms per move by default, shared
 * by every opponent seat of every env of one make. */
static void test_opponent_search_is_bounded(void **state)
{
    client_t *c = connect_client(*state);
    const char *two = "thirty_one(players=2)", *four = "thirty_one(players=4)";
    assert_int_equal(make_with(c, two, "ismcts(iters=2000,time_ms=100)", 0), 0);
    assert_int_equal(make_with(c, two, "ismcts(iters=2001)", 0),
                     PROTO_E_BAD_SPEC);
    assert_non_null(strstr(client_errmsg(c), "iters=2001"));
    assert_non_null(strstr(client_errmsg(c), "--opp-work"));
    assert_int_equal(make_with(c, two, "ismcts(time_ms=15000)", 0),
                     PROTO_E_BAD_SPEC);
    assert_non_null(strstr(client_errmsg(c), "--opp-time-ms"));
    assert_int_equal(make_with(c, two, "ismcts(iters=10,nodes=16777216)", 0),
                     PROTO_E_BAD_SPEC);
    assert_int_equal(make_with(c, two, "ismcts(iters=10,rollout=ismcts)", 0),
                     PROTO_E_BAD_SPEC);
    assert_int_equal(make_with(c, two, "pimc(samples=50,playouts=40)", 0), 0);
    assert_int_equal(make_with(c, two, "pimc(samples=50,playouts=41)", 0),
                     PROTO_E_BAD_SPEC);
    assert_non_null(strstr(client_errmsg(c), "samples x playouts"));
    /* Three opponent seats share 2000: 666 each. */
    assert_int_equal(make_with(c, four, "ismcts(iters=666)", 0), 0);
    assert_int_equal(make_with(c, four, "ismcts(iters=667)", 0),
                     PROTO_E_BAD_SPEC);
    /* Eight envs of one opponent: 250 each, and 12 ms of time_ms. */
    assert_int_equal(make_with(c, two, "ismcts(iters=250,time_ms=12)", 8), 0);
    assert_int_equal(make_with(c, two, "ismcts(iters=251)", 8),
                     PROTO_E_BAD_SPEC);
    assert_int_equal(make_with(c, two, "ismcts(iters=10,time_ms=13)", 8),
                     PROTO_E_BAD_SPEC);
    assert_int_equal(client_ping(c), 0);
}

/* ---- issue 12.2: no session takeover ----------------------------------- */

/* A second connection with the victim's routing id gets nothing and
 * changes nothing; the victim goes on being served. */
static void test_no_session_takeover(void **state)
{
    struct rig *r = *state;
    struct client_options id = {.routing_id = "victim"};
    client_t *victim = connect_client_opts(r, &id);
    client_env_t *e = make(victim, "dice", 0, NULL, 0);
    assert_int_equal(client_reset(e, 1), 0);

    client_t *thief = connect_client_opts(r, &id);
    /* Waiting for what must never come: a correct server cannot fail
     * this however slow the machine, a broken one fails it. */
    client_set_timeout(thief, 2000);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    begin_raw(&pk, &sb, "close", 1);
    msgpack_pack_str_with_body(&pk, "env", 3);
    msgpack_pack_uint64(&pk, client_env_shape(e)->id);
    assert_int_equal(client_call_raw(thief, sb.data, sb.size), ERR_TIMEOUT);
    msgpack_sbuffer_destroy(&sb);

    /* The victim's env is intact and answers it. */
    const struct client_batch *b = client_env_batch(e);
    int a = 0;
    while (!client_is_legal(b->legal, a))
        a++;
    assert_int_equal(client_step(e, a), 0);
    assert_int_equal(client_close(&e), 0);
}

int main(void)
{
    if (getenv("TEST_FILTER"))
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_opponents_are_builtin_only),
        T(test_opponent_search_is_bounded),
        T(test_no_session_takeover),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
