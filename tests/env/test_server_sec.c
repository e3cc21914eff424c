/* test_server_sec.c — the env server against a hostile client: what a
 * request may make the server do (start processes, search without end),
 * whose envs a connection may touch, what a reply may cost, and what the
 * error replies say (issues 12 and 19).
 *
 * Each test provokes one attack or one case the protocol leaves open and
 * checks the answer PROTOCOL.md gives it, then that the server still
 * serves. Time is the rig's clock, moved by hand.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "common/err.h"
#include "env/server.h"
#include "protocol/auth.h"
#include "protocol/client.h"
#include "tests/env/env_test_util.h"
#include "tests/env/server_rig.h"

#include "tests/env/curve_rig.h" /* after server_rig.h */

#define IDLE_MS 10000

static int setup(void **state)
{
    static struct rig rig;
    struct server_options o = {.max_envs = 64, .idle_ms = IDLE_MS};
    rig_start(&rig, &o);
    *state = &rig;
    return 0;
}

/* Small reply limits: 8 KiB a reply, 64 KiB unread per connection; envs
 * unused for 30 s are closed even when their client pings. */
#define MAX_REPLY 8192
#define REPLY_BUDGET 65536
#define MAX_UNUSED_MS 30000

static int setup_small(void **state)
{
    static struct rig rig;
    struct server_options o = {.idle_ms = IDLE_MS,
                               .max_unused_ms = MAX_UNUSED_MS,
                               .max_reply = MAX_REPLY,
                               .reply_budget = REPLY_BUDGET,
                               .reply_total = 1 << 20,
                               .max_per_peer = 2};
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
 * by every opponent seat of every env of one make. Over them is LIMIT;
 * what no budget allows (an external bot, a search rollout) BAD_SPEC. */
static void test_opponent_search_is_bounded(void **state)
{
    client_t *c = connect_client(*state);
    const char *two = "thirty_one(players=2)", *four = "thirty_one(players=4)";
    assert_int_equal(make_with(c, two, "ismcts(iters=2000,time_ms=100)", 0), 0);
    assert_int_equal(make_with(c, two, "ismcts(iters=2001)", 0), PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c), "iters=2001"));
    assert_non_null(strstr(client_errmsg(c), "--opp-work"));
    assert_int_equal(make_with(c, two, "ismcts(time_ms=15000)", 0),
                     PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c), "--opp-time-ms"));
    assert_int_equal(make_with(c, two, "ismcts(iters=10,nodes=16777216)", 0),
                     PROTO_E_LIMIT);
    assert_int_equal(make_with(c, two, "ismcts(iters=10,rollout=ismcts)", 0),
                     PROTO_E_BAD_SPEC);
    /* pimc plays out every legal action, at most 4 in Thirty-One:
     * 50 x 10 x 4 = 2000. */
    assert_int_equal(make_with(c, two, "pimc(samples=50,playouts=10)", 0), 0);
    assert_int_equal(make_with(c, two, "pimc(samples=50,playouts=11)", 0),
                     PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c), "=2200 is more than"));
    /* Three opponent seats share 2000: 666 each. */
    assert_int_equal(make_with(c, four, "ismcts(iters=666)", 0), 0);
    assert_int_equal(make_with(c, four, "ismcts(iters=667)", 0), PROTO_E_LIMIT);
    /* Eight envs of one opponent: 250 each, and 12 ms of time_ms. */
    assert_int_equal(make_with(c, two, "ismcts(iters=250,time_ms=12)", 8), 0);
    assert_int_equal(make_with(c, two, "ismcts(iters=251)", 8), PROTO_E_LIMIT);
    assert_int_equal(make_with(c, two, "ismcts(iters=10,time_ms=13)", 8),
                     PROTO_E_LIMIT);
    assert_int_equal(client_ping(c), 0);
}

/* The report's attack: pimc on a long Casino, 2000 playouts for each of
 * up to 39056 legal actions, each to the end of the game. One sample of
 * one playout is 39056 playouts already; and a game of several deals
 * refuses horizon=game, which a game of one deal (dice) accepts. */
static void test_opponent_work_is_counted(void **state)
{
    client_t *c = connect_client(*state);
    const char *casino = "casino(target=100,max_rounds=200)";
    assert_int_equal(
        make_with(c, casino, "pimc(samples=1,playouts=2000,horizon=game)", 0),
        PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c), "most legal actions=78112000"));
    assert_int_equal(make_with(c, casino, "pimc(samples=1,playouts=1)", 0),
                     PROTO_E_LIMIT);
    assert_int_equal(make_with(c, casino, "ismcts(iters=2000,horizon=game)", 0),
                     PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c), "horizon=game is refused"));
    assert_int_equal(make_with(c, casino, "ismcts(iters=2000)", 0), 0);
    assert_int_equal(make_with(c, "dice", "ismcts(iters=10,horizon=game)", 0),
                     0);
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
    struct req q;
    req_init(&q);
    begin_req(&q, "close", 1);
    kv_uint(&q, "env", client_env_shape(e)->id);
    assert_int_equal(client_call_raw(thief, q.sb.data, q.sb.size), ERR_TIMEOUT);
    req_fini(&q);

    /* The victim's env is intact and answers it. */
    const struct client_batch *b = client_env_batch(e);
    int a = 0;
    while (!client_is_legal(b->legal, a))
        a++;
    assert_int_equal(client_step(e, a), 0);
    assert_int_equal(client_close(&e), 0);
}

/* ---- issue 12.5: bounded resources ------------------------------------ */

static struct proto_in last_in; /* the last reply recv_code decoded */

static int recv_code(void *sock, struct proto_decoder *d, size_t *len)
{
    return rig_recv_code(sock, d, &last_in, len);
}

/* A client that asks and never reads gets replies until REPLY_BUDGET
 * bytes wait for it, then LIMIT; others are served meanwhile, and once
 * it reads, it is served again. */
static void test_reply_budget(void **state)
{
    struct rig *r = *state;
    client_t *c = connect_client(r), *other = connect_client(r);
    client_env_t *e = make(c, "dice", 30, NULL, 0);
    assert_int_equal(client_reset(e, 1), 0);
    size_t req, one;
    client_sizes(c, &req, &one);
    void *greedy = connect_raw(r, ZMQ_DEALER);
    struct req q;
    req_init(&q);
    /* greedy makes its own vector env (reading that reply), then asks
     * for resets and reads nothing: ceil(budget / one) are served, the
     * next is refused (and logged, which tells the test it was). */
    begin_req(&q, "make", 2);
    kv_str(&q, "game", "dice", 4);
    kv_int(&q, "n", 30);
    rig_send(greedy, &q.sb);
    struct proto_decoder d;
    assert_int_equal(proto_decoder_init(&d, 1 << 20), 0);
    size_t len;
    assert_int_equal(recv_code(greedy, &d, &len), 0);
    uint64_t env = proto_uint(&last_in, PROTO_R_MAKE_ENV, 0);
    begin_req(&q, "reset", 2);
    kv_uint(&q, "env", env);
    kv_int(&q, "seed", 1);
    int served = (int)((REPLY_BUDGET + one - 1) / one);
    for (int i = 0; i <= served; i++)
        rig_send(greedy, &q.sb);
    rig_wait_log(r, "over its reply budget");
    /* Another client is answered, and the server holds the budget and
     * one reply and one refusal at most. */
    assert_int_equal(client_ping(other), 0);
    assert_int_equal(client_reset(e, 2), 0);
    assert_true(server_unread(r->s) <= REPLY_BUDGET + 2 * one + 512);
    for (int i = 0; i <= served; i++) {
        int code = recv_code(greedy, &d, &len);
        assert_int_equal(code, i < served ? 0 : PROTO_E_LIMIT);
        if (!code)
            assert_int_equal(len, one);
    }
    /* All read: served again. */
    rig_send(greedy, &q.sb);
    assert_int_equal(recv_code(greedy, &d, &len), 0);
    proto_decoder_fini(&d);
    req_fini(&q);
    assert_int_equal(client_close(&e), 0);
}

/* No reply is larger than MAX_REPLY: a vector env whose steps could pass
 * it is refused at make, views and names that would pass it at reset or
 * step. dice has 14 floats an observation: 30 envs reply with about
 * 4 KB, about 8.5 KB with views and names, and at most 7.7 KB when every
 * episode ends (final_obs); 40 envs could reply with 10 KB. */
static void test_reply_cap(void **state)
{
    client_t *c = connect_client(*state);
    assert_null(
        client_make(c, "dice", &(struct client_make_options){40, NULL, 0, 0}));
    assert_int_equal(client_wire_error(c), PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c), "--max-reply"));
    client_env_t *e = make(c, "dice", 30, NULL, 0);
    assert_int_equal(client_reset(e, 1), 0);
    client_want(e, true, true);
    assert_int_equal(client_reset(e, 1), ERR_RANGE);
    assert_int_equal(client_wire_error(c), PROTO_E_LIMIT);
    client_want(e, false, false);
    assert_int_equal(client_reset(e, 1), 0);
    assert_int_equal(client_close(&e), 0);
}

/* Pings keep a client's envs for idle_ms at a time, but no longer than
 * MAX_UNUSED_MS after the last request that used them. */
static void test_pings_do_not_hold_envs(void **state)
{
    struct rig *r = *state;
    client_t *idle = connect_client(r), *busy = connect_client(r);
    client_env_t *ei = make(idle, "dice", 0, NULL, 0);
    client_env_t *eb = make(busy, "dice", 0, NULL, 0);
    assert_int_equal(client_reset(ei, 1), 0);
    assert_int_equal(client_reset(eb, 1), 0);
    for (int t = 0; t < 4; t++) { /* 36 s: past MAX_UNUSED_MS */
        atomic_fetch_add(&r->now, IDLE_MS * 9 / 10);
        assert_int_equal(client_ping(idle), 0);
        assert_int_equal(client_reset(eb, (uint64_t)t), 0);
    }
    atomic_fetch_add(&r->now, IDLE_MS / 2); /* a sweep runs */
    assert_int_equal(client_ping(idle), 0);
    assert_int_equal(client_reset(ei, 1), ERR_NOTFOUND);
    assert_int_equal(client_reset(eb, 9), 0);
    client_forget(&ei);
    assert_int_equal(client_close(&eb), 0);
}

/* ---- issues 12.9 and 19: what error replies say ----------------------- */

/* The reply's msg, from the last reply of c. */
static const char *reply_msg(client_t *c, size_t *n)
{
    return proto_bytes(client_reply(c), PROTO_R_ERROR_MSG, n);
}

static bool valid_utf8(const char *s, size_t n)
{
    char in[2048], out[2048 * 3];
    assert_true(n < sizeof in);
    memcpy(in, s, n);
    in[n] = '\0';
    return proto_utf8_clean(in, out, sizeof out) == n && !memcmp(in, out, n);
}

static void test_error_msgs_are_utf8(void **state)
{
    client_t *c = connect_client(*state);
    struct req q;
    size_t n;
    req_init(&q);
    char euros[61] = "";
    for (int i = 0; i < 20; i++)
        strcat(euros, "\xe2\x82\xac");
    begin_req(&q, euros, 0);
    assert_int_equal(req_call(c, &q), PROTO_E_UNKNOWN_TYPE);
    const char *msg = reply_msg(c, &n);
    assert_true(valid_utf8(msg, n));
    assert_non_null(strstr(msg, "\xe2\x82\xac..."));
    /* A game named by invalid bytes: quoted with U+FFFD in their place. */
    begin_req(&q, "make", 1);
    kv_str(&q, "game", "dice\xff\xfe", 6);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_SPEC);
    msg = reply_msg(c, &n);
    assert_true(valid_utf8(msg, n));
    assert_non_null(memmem(msg, n, "\xef\xbf\xbd", 3));
    begin_req(&q, "describe", 1);
    kv_str(&q, "game", "\xc3", 1);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_SPEC);
    msg = reply_msg(c, &n);
    assert_true(valid_utf8(msg, n));
    req_fini(&q);
}

/* §9's order, past the decoder: values in catalogue order, then what
 * the request refers to. */
static void test_refusal_order(void **state)
{
    client_t *c = connect_client(*state);
    struct req q;
    req_init(&q);
    begin_req(&q, "make", 3);
    kv_int(&q, "n", 0);
    kv_str(&q, "seat", "x", 1);
    kv_str(&q, "game", "dice", 4);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_TYPE);
    begin_req(&q, "make", 1);
    kv_int(&q, "n", 0);
    assert_int_equal(req_call(c, &q), PROTO_E_MISSING_FIELD);
    begin_req(&q, "step", 1);
    msgpack_pack_str_with_body(&q.pk, "actions", 7);
    msgpack_pack_bin_with_body(&q.pk, "\1\2\3", 3);
    assert_int_equal(req_call(c, &q), PROTO_E_MISSING_FIELD);
    /* n = 0 (a value) before the unknown game (what make asks for), and
     * before seat without opponents (a combination of fields). */
    begin_req(&q, "make", 3);
    kv_int(&q, "seat", 1);
    kv_str(&q, "game", "nothing", 7);
    kv_int(&q, "n", 0);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_VALUE);
    assert_non_null(strstr(client_errmsg(c), "n must be"));
    /* Both action and actions, on an env that does not exist: the
     * combination first. */
    begin_req(&q, "step", 3);
    kv_int(&q, "env", 12345);
    kv_int(&q, "action", 0);
    msgpack_pack_str_with_body(&q.pk, "actions", 7);
    msgpack_pack_array(&q.pk, 0);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_VALUE);
    req_fini(&q);
}

/* The cases PROTOCOL.md left without a code (issue 19). */
static void test_stated_codes(void **state)
{
    struct rig *r = *state;
    client_t *c = connect_client(r);
    struct req q;
    req_init(&q);
    /* hello with v: 0: VERSION. */
    msgpack_sbuffer_clear(&q.sb);
    msgpack_pack_map(&q.pk, 2);
    kv_int(&q, "v", 0);
    kv_str(&q, "type", "hello", 5);
    assert_int_equal(req_call(c, &q), PROTO_E_VERSION);
    /* A negative number in a uint field: BAD_VALUE. */
    begin_req(&q, "close", 1);
    kv_int(&q, "env", -1);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_VALUE);
    /* A NUL inside make's game: BAD_VALUE. */
    begin_req(&q, "make", 1);
    kv_str(&q, "game", "dice\0x", 6);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_VALUE);
    /* seat 1 with opponents "": multi-agent, so seat is BAD_VALUE. */
    begin_req(&q, "make", 3);
    kv_str(&q, "game", "dice", 4);
    kv_str(&q, "opponents", "", 0);
    kv_int(&q, "seat", 1);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_VALUE);
    /* action 2^40: an integer that is no legal action, ILLEGAL_ACTION;
     * an actions entry beyond int32: BAD_VALUE. */
    client_env_t *e = make(c, "dice", 0, NULL, 0);
    assert_int_equal(client_reset(e, 1), 0);
    begin_req(&q, "step", 2);
    kv_uint(&q, "env", client_env_shape(e)->id);
    kv_int(&q, "action", 1ll << 40);
    assert_int_equal(req_call(c, &q), PROTO_E_ILLEGAL_ACTION);
    begin_req(&q, "step", 2);
    kv_uint(&q, "env", client_env_shape(e)->id);
    msgpack_pack_str_with_body(&q.pk, "actions", 7);
    msgpack_pack_array(&q.pk, 1);
    msgpack_pack_int64(&q.pk, 1ll << 40);
    assert_int_equal(req_call(c, &q), PROTO_E_BAD_VALUE);
    assert_int_equal(client_close(&e), 0);
    /* A lone empty frame: MALFORMED, answered in one frame. */
    void *dealer = connect_raw(r, ZMQ_DEALER);
    char reply[512];
    struct proto_decoder d;
    struct proto_in in;
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);
    assert_int_equal(zmq_send(dealer, "", 0, 0), 0);
    int n = zmq_recv(dealer, reply, sizeof reply, 0);
    assert_true(n > 0);
    int more = 1;
    size_t len = sizeof more;
    zmq_getsockopt(dealer, ZMQ_RCVMORE, &more, &len);
    assert_int_equal(more, 0);
    assert_int_equal(proto_decode(&d, PROTO_REPLY, reply, (size_t)n, &in), 0);
    assert_int_equal(proto_uint(&in, PROTO_R_ERROR_CODE, 0), PROTO_E_MALFORMED);
    proto_decoder_fini(&d);
    req_fini(&q);
}

/* describe's flags hold for the configuration described. */
static void test_describe_flags(void **state)
{
    client_t *c = connect_client(*state);
    const char *specs[2] = {"casino", "casino(players=4,partnerships=true)"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(client_describe(c, specs[i]), 0);
        const msgpack_object *f =
            proto_obj(client_reply(c), PROTO_R_DESCRIBE_FLAGS);
        bool partners = false;
        for (uint32_t k = 0; k < f->via.array.size; k++)
            partners |=
                f->via.array.ptr[k].via.str.size == 12 &&
                !memcmp(f->via.array.ptr[k].via.str.ptr, "partnerships", 12);
        assert_int_equal(partners, i == 1);
    }
}

/* ---- CURVE ------------------------------------------------------------- */

static int setup_curve(void **state)
{
    static struct curve_rig rig;
    curve_rig_start(&rig, &(struct server_options){0});
    *state = &rig;
    return 0;
}

static int teardown_curve(void **state)
{
    curve_rig_stop(*state);
    return 0;
}

/* The monitor of sock on its handshake events (inproc://name). */
static void *monitor(struct rig *r, void *sock, const char *name)
{
    assert_int_equal(
        zmq_socket_monitor(sock, name,
                           ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
                               ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |
                               ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                               ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL),
        0);
    void *m = zmq_socket(r->ctx, ZMQ_PAIR);
    int t = RIG_TIMEOUT_MS;
    zmq_setsockopt(m, ZMQ_RCVTIMEO, &t, sizeof t);
    assert_int_equal(zmq_connect(m, name), 0);
    assert_true(r->nsocks < 8);
    r->socks[r->nsocks++] = m;
    return m;
}

static int next_event(void *m)
{
    uint8_t buf[64];
    uint16_t ev;
    assert_true(zmq_recv(m, buf, sizeof buf, 0) >= 6);
    memcpy(&ev, buf, 2);
    zmq_recv(m, buf, sizeof buf, 0); /* the endpoint frame */
    return ev;
}

/* Alice (allowed) is served; mallory's key and a plain client are
 * refused in the handshake, and alice goes on being served. */
static void test_curve(void **state)
{
    struct curve_rig *k = *state;
    struct rig *r = &k->rig;
    char err[256];
    client_t *a = curve_client(k, &k->alice);
    client_env_t *e = make(a, "dice", 0, NULL, 0);
    assert_int_equal(client_reset(e, 1), 0);

    void *m = zmq_socket(r->ctx, ZMQ_DEALER);
    void *mm = monitor(r, m, "inproc://mallory-mon");
    assert_int_equal(
        auth_client(m, k->server.pub, &k->mallory, err, sizeof err), 0);
    assert_int_equal(zmq_connect(m, r->endpoint), 0);
    r->socks[r->nsocks++] = m;
    assert_int_equal(next_event(mm), ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);

    void *plain = zmq_socket(r->ctx, ZMQ_DEALER);
    void *pm = monitor(r, plain, "inproc://plain-mon");
    assert_int_equal(zmq_connect(plain, r->endpoint), 0);
    r->socks[r->nsocks++] = plain;
    int ev = next_event(pm);
    assert_true(ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL ||
                ev == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL);

    assert_int_equal(client_reset(e, 2), 0);
    assert_int_equal(client_close(&e), 0);
}

/* One peer (here every inproc client: the same "address") may hold envs
 * through max_per_peer connections, not all max_clients. */
static void test_clients_per_peer(void **state)
{
    struct rig *r = *state;
    client_t *c[3];
    client_env_t *e[2];
    for (int i = 0; i < 3; i++)
        c[i] = connect_client(r);
    e[0] = make(c[0], "dice", 0, NULL, 0);
    e[1] = make(c[1], "dice", 0, NULL, 0);
    assert_null(client_make(c[2], "dice", NULL));
    assert_int_equal(client_wire_error(c[2]), PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(c[2]), "--max-per-peer"));
    assert_int_equal(client_close(&e[0]), 0);
    e[0] = make(c[2], "dice", 0, NULL, 0);
    assert_int_equal(client_close(&e[0]), 0);
    assert_int_equal(client_close(&e[1]), 0);
}

/* A step truncated at max_steps ends the episode for the client: the
 * mask is all zero and to_move 0 (PROTOCOL.md §6.2, issue 19.5). dice
 * has one action, "roll", and a game takes far more than 3 rolls. */
static void test_truncated_timestep_has_no_moves(void **state)
{
    client_t *c = connect_client(*state);
    client_env_t *e =
        client_make(c, "dice", &(struct client_make_options){0, NULL, 0, 3});
    assert_non_null(e);
    assert_int_equal(client_reset(e, 1), 0);
    const struct client_batch *b = client_env_batch(e);
    for (int i = 0; i < 3; i++) {
        assert_false(b->truncated[0]);
        assert_int_equal(client_step(e, 0), 0);
    }
    assert_true(b->truncated[0]);
    assert_false(b->terminated[0]);
    assert_int_equal(b->to_move[0], 0);
    for (int i = 0; i < client_env_shape(e)->mask_bytes; i++)
        assert_int_equal(b->legal[i], 0);
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
        T(test_opponent_work_is_counted),
        T(test_no_session_takeover),
        T(test_error_msgs_are_utf8),
        T(test_refusal_order),
        T(test_stated_codes),
        T(test_describe_flags),
        T(test_truncated_timestep_has_no_moves),
#define TS(f) cmocka_unit_test_setup_teardown(f, setup_small, teardown)
        TS(test_reply_budget),
        TS(test_reply_cap),
        TS(test_pings_do_not_hold_envs),
        TS(test_clients_per_peer),
        cmocka_unit_test_setup_teardown(test_curve, setup_curve,
                                        teardown_curve),
#undef TS
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
