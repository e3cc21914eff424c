/* test_server_peer.c — the env server's limits per peer: one peer (a
 * CURVE key, or an IP address without CURVE) cannot take every env of
 * the server, nor lock the others out by leaving replies unread
 * (PROTOCOL.md §13); and parlor's C client takes a routing id of its own.
 *
 * The env tests run CURVE with two admitted keys, alice and bob: two
 * peers. The reply tests run over inproc, where a reply stays unread
 * until the client takes it, so every count is exact; there the rig
 * names peers after routing ids.
 */
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

/* The server's envs: 64, so 64 / 8 = 8 for one peer by default. */
#define MAX_TOTAL 64

/* Unread reply bytes: 64 KiB a connection, 128 KiB a peer and in all. A
 * vector env of N_DICE dice envs replies to reset with about 3 KB, so
 * SENDS resets pass a connection's budget. */
#define REPLY_BUDGET (64 << 10)
#define REPLY_PEER (128 << 10)
#define N_DICE 20
#define SENDS 40

static int setup_envs(void **state)
{
    static struct curve_rig rig;
    curve_rig_start(&rig, &(struct server_options){.max_total = MAX_TOTAL});
    *state = &rig;
    return 0;
}

static int teardown(void **state)
{
    curve_rig_stop(*state);
    return 0;
}

/* ---- envs per peer ------------------------------------------------------ */

/* Alice holds the 8 envs of a peer through two connections; a ninth is
 * refused on either, while bob makes his own 8. */
static void test_envs_per_peer(void **state)
{
    struct curve_rig *k = *state;
    client_t *a1 = curve_client(k, &k->alice), *a2 = curve_client(k, &k->alice);
    client_t *b = curve_client(k, &k->bob);
    client_env_t *e1 = make(a1, "dice", 5, NULL, 0);
    client_env_t *e2 = make(a2, "dice", 3, NULL, 0);
    assert_null(client_make(a1, "dice", NULL));
    assert_int_equal(client_wire_error(a1), PROTO_E_LIMIT);
    assert_non_null(strstr(client_errmsg(a1), "hold 8 envs"));
    assert_non_null(strstr(client_errmsg(a1), "--max-peer-envs"));
    assert_null(client_make(a2, "dice", NULL));
    assert_int_equal(client_wire_error(a2), PROTO_E_LIMIT);
    client_env_t *f = make(b, "dice", 8, NULL, 0);
    assert_int_equal(client_reset(f, 1), 0);
    assert_int_equal(client_close(&e2), 0);
    e2 = make(a2, "dice", 0, NULL, 0); /* 5 + 1: room again */
    assert_int_equal(client_close(&e1), 0);
    assert_int_equal(client_close(&e2), 0);
    assert_int_equal(client_close(&f), 0);
}

/* ---- unread replies per peer -------------------------------------------- */

/* inproc has no addresses: here a client's peer is its routing id up to
 * '/' (alice/1 and alice/2 are one peer). A reply over inproc stays
 * unread until the client takes it, so the counts are exact. */
static void peer_by_id(const uint8_t *id, size_t idlen, char *peer, size_t len)
{
    const uint8_t *slash = memchr(id, '/', idlen);
    size_t n = slash ? (size_t)(slash - id) : idlen;
    snprintf(peer, len, "%.*s", (int)(n < len ? n : len - 1), id);
}

static int setup_replies(void **state)
{
    static struct rig rig;
    rig_start(&rig, &(struct server_options){.reply_budget = REPLY_BUDGET,
                                             .reply_peer = REPLY_PEER,
                                             .reply_total = REPLY_PEER,
                                             .name_peer = peer_by_id});
    *state = &rig;
    return 0;
}

static int teardown_replies(void **state)
{
    rig_stop(*state);
    return 0;
}

/* Sends type on raw socket s (make: of N_DICE dice; env: a reset of env
 * with seed 1; else no fields) and returns the reply's code, the reply
 * in *in. */
static int call(void *s, struct proto_decoder *d, struct proto_in *in,
                const char *type, uint64_t env)
{
    struct req q;
    size_t len;
    req_init(&q);
    begin_req(&q, type, env ? 2 : (strcmp(type, "make") ? 0 : 2));
    if (env) {
        kv_uint(&q, "env", env);
        kv_int(&q, "seed", 1);
    }
    if (!strcmp(type, "make")) {
        kv_str(&q, "game", "dice", 4);
        kv_int(&q, "n", N_DICE);
    }
    rig_send(s, &q.sb);
    req_fini(&q);
    return rig_recv_code(s, d, in, &len);
}

/* Raw connection id makes a vector env of N_DICE and sends sends resets
 * of it without reading their replies. */
static void *flood(struct rig *r, struct proto_decoder *d, const char *id,
                   int sends)
{
    void *s = connect_raw_id(r, ZMQ_DEALER, id);
    struct proto_in in;
    struct req q;
    assert_int_equal(call(s, d, &in, "make", 0), 0);
    req_init(&q);
    begin_req(&q, "reset", 2);
    kv_uint(&q, "env", proto_uint(&in, PROTO_R_MAKE_ENV, 0));
    kv_int(&q, "seed", 1);
    for (int i = 0; i < sends; i++)
        rig_send(s, &q.sb);
    req_fini(&q);
    return s;
}

/* The error message of reply in. */
static const char *msg_of(const struct proto_in *in)
{
    static char msg[PROTO_ERRMSG_MAX];
    assert_int_equal(proto_str_copy(in, PROTO_R_ERROR_MSG, msg, sizeof msg), 0);
    return msg;
}

/* Alice fills her peer's budget, and with it the server's total, from
 * two connections that do not read: each takes replies until it or the
 * peer passes its budget, so together they pass REPLY_PEER. A third
 * connection of hers is refused, naming --reply-peer. Bob, with nothing
 * unread, is served all the while; once he leaves a reply unread, the
 * total refuses him too. */
static void test_unread_replies_per_peer(void **state)
{
    struct rig *r = *state;
    struct proto_decoder d;
    struct proto_in in;
    assert_int_equal(proto_decoder_init(&d, 1 << 20), 0);
    void *bob = connect_raw_id(r, ZMQ_DEALER, "bob/1");
    assert_int_equal(call(bob, &d, &in, "ping", 0), 0);
    flood(r, &d, "alice/1", SENDS);
    rig_wait_log(r, "over its reply budget");
    flood(r, &d, "alice/2", SENDS);
    rig_wait_log(r, "reply budget");
    assert_true(server_unread(r->s) >= REPLY_PEER);

    void *a3 = connect_raw_id(r, ZMQ_DEALER, "alice/3");
    assert_int_equal(call(a3, &d, &in, "ping", 0), PROTO_E_LIMIT);
    assert_non_null(strstr(msg_of(&in), "--reply-peer"));

    assert_int_equal(call(bob, &d, &in, "ping", 0), 0);
    assert_int_equal(call(bob, &d, &in, "make", 0), 0);
    uint64_t env = proto_uint(&in, PROTO_R_MAKE_ENV, 0);
    assert_int_equal(call(bob, &d, &in, "reset", env), 0);

    /* Bob leaves one reply unread: his next request meets the total. */
    void *bob2 = flood(r, &d, "bob/2", 2);
    rig_wait_log(r, "over the server's reply budget");
    size_t len;
    assert_int_equal(rig_recv_code(bob2, &d, &in, &len), 0);
    assert_int_equal(rig_recv_code(bob2, &d, &in, &len), PROTO_E_LIMIT);
    assert_non_null(strstr(msg_of(&in), "--reply-total"));
    proto_decoder_fini(&d);
}

/* ---- routing ids -------------------------------------------------------- */

/* The C client takes a random routing id of its own, 'c' (63) and 15
 * bytes, never one of libzmq's (00 and a counter): the server's log
 * names the client by it. */
static void test_client_routing_id(void **state)
{
    struct curve_rig *k = *state;
    client_t *a = curve_client(k, &k->alice);
    client_env_t *e = make(a, "dice", 0, NULL, 0);
    rig_wait_log(&k->rig, "client 63");
    assert_int_equal(client_close(&e), 0);
}

int main(void)
{
    if (getenv("TEST_FILTER"))
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_envs_per_peer, setup_envs,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_client_routing_id, setup_envs,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unread_replies_per_peer,
                                        setup_replies, teardown_replies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
