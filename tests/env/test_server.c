/* test_server.c — the env server over inproc://, run by a helper thread,
 * driven through the C client and through raw sockets.
 *
 * The truth each reply is checked against is a local env or venv made
 * with the same spec, seed and actions: the server must report exactly
 * what the library computes. Every refusal of the protocol is provoked
 * and must come back with its code while the server goes on serving, and
 * other clients never notice. Time is a clock the test moves by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "common/err.h"
#include "env/server.h"
#include "env/venv.h"
#include "protocol/client.h"
#include "tests/env/env_test_util.h"
#include "tests/env/server_rig.h"

#define IDLE_MS 10000
#define MAX_ENVS 16
#define MAX_MSG 4096
#define SPEC "thirty_one(players=2,lives=1)"

static int setup(void **state)
{
    static struct rig rig;
    struct server_options o = {
        .max_msg = MAX_MSG,
        .max_envs = MAX_ENVS,
        .max_clients = 3,
        .max_total = 40,
        .max_peer_envs = 40, /* every inproc client is one peer */
        .idle_ms = IDLE_MS,
    };
    rig_start(&rig, &o);
    *state = &rig;
    return 0;
}

static int teardown(void **state)
{
    rig_stop(*state);
    return 0;
}

/* ---- comparisons with the library --------------------------------------- */

static void assert_matches_env(const client_env_t *ce, env_t *e,
                               const struct env_timestep *ts)
{
    const struct client_shape *s = client_env_shape(ce);
    const struct client_batch *b = client_env_batch(ce);
    const struct env_shape *sh = env_shape(e);
    assert_int_equal(b->to_move[0], ts->to_move);
    assert_int_equal(b->seat[0], ts->seat);
    assert_int_equal(b->steps[0], ts->steps);
    assert_int_equal(b->terminated[0], ts->terminated);
    assert_int_equal(b->truncated[0], ts->truncated);
    assert_memory_equal(b->obs, ts->obs, (size_t)sh->obs_size * 4);
    assert_memory_equal(b->legal, ts->legal, (size_t)s->mask_bytes);
    assert_memory_equal(b->reward, ts->reward, (size_t)sh->players * 8);
    assert_memory_equal(b->returns, ts->returns, (size_t)sh->players * 8);
}

static int pick(struct rng *r, const uint8_t *row, int mask_bytes)
{
    uint64_t mask[8];
    memcpy(mask, row, (size_t)mask_bytes);
    return pick_action(r, mask, mask_bytes / 8);
}

/* Plays a remote and a local env side by side with the same seeded
 * random actions, over several episodes. */
static void play_side_by_side(client_env_t *ce, env_t *e)
{
    struct rng r;
    struct env_timestep ts;
    rng_seed(&r, 11);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        assert_int_equal(client_reset(ce, seed), 0);
        assert_int_equal(env_reset(e, seed, &ts), 0);
        assert_matches_env(ce, e, &ts);
        while (!ts.terminated && !ts.truncated) {
            int a = pick(&r, client_env_batch(ce)->legal,
                         client_env_shape(ce)->mask_bytes);
            assert_int_equal(client_step(ce, a), 0);
            assert_int_equal(env_step(e, a, &ts), 0);
            assert_matches_env(ce, e, &ts);
        }
    }
}

static void assert_matches_venv(const client_env_t *ce, const venv_t *v)
{
    const struct client_batch *b = client_env_batch(ce);
    const struct venv_batch *vb = venv_batch(v);
    size_t n = (size_t)vb->n, rows = n * (size_t)vb->rows;
    size_t row = (size_t)vb->rows * (size_t)vb->obs_size * 4;
    assert_memory_equal(b->obs, vb->obs, rows * (size_t)vb->obs_size * 4);
    assert_memory_equal(b->legal, vb->legal, rows * (size_t)vb->mask_words * 8);
    assert_memory_equal(b->reward, vb->reward, n * (size_t)vb->rewards * 8);
    assert_memory_equal(b->terminated, vb->terminated, n);
    assert_memory_equal(b->truncated, vb->truncated, n);
    assert_memory_equal(b->seat, vb->seat, n * 4);
    assert_memory_equal(b->to_move, vb->to_move, n * 4);
    assert_memory_equal(b->steps, vb->steps, n * 4);
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!vb->terminated[i] && !vb->truncated[i])
            continue;
        assert_memory_equal((const char *)b->final_obs + (size_t)k * row,
                            (const char *)vb->final_obs + i * row, row);
        assert_int_equal(b->final_seat[k], vb->final_seat[i]);
        k++;
    }
    assert_int_equal(b->nfinal, k);
}

/* ---- plain, single-agent and vector envs -------------------------------- */

static void test_hello_ping_describe(void **state)
{
    client_t *c = connect_client(*state);
    assert_int_equal(client_hello(c, "test"), 0);
    const struct proto_in *in = client_reply(c);
    const msgpack_object *games = proto_obj(in, PROTO_R_HELLO_GAMES);
    assert_int_equal(games->via.array.size, game_registry_count);
    for (int i = 0; i < game_registry_count; i++) {
        const msgpack_object_str *s = &games->via.array.ptr[i].via.str;
        assert_int_equal(s->size, strlen(game_registry[i]->name));
        assert_memory_equal(s->ptr, game_registry[i]->name, s->size);
    }
    assert_int_equal(proto_uint(in, PROTO_R_HELLO_MAX_MSG, 0), MAX_MSG);
    assert_int_equal(proto_uint(in, PROTO_R_HELLO_MAX_ENVS, 0), MAX_ENVS);
    assert_true(proto_f64(in, PROTO_R_HELLO_IDLE_TIMEOUT, 0) == 10.0);
    assert_int_equal(client_ping(c), 0);

    struct game g;
    char err[256];
    assert_int_equal(game_make(&g, SPEC, err, sizeof err), 0);
    assert_int_equal(client_describe(c, SPEC), 0);
    in = client_reply(c);
    assert_int_equal(proto_uint(in, PROTO_R_DESCRIBE_OBS_SIZE, 0),
                     g.dims.obs_size);
    assert_int_equal(proto_uint(in, PROTO_R_DESCRIBE_NUM_ACTIONS, 0),
                     g.dims.num_actions);
    assert_int_equal(proto_obj(in, PROTO_R_DESCRIBE_OPTIONS)->via.array.size,
                     g.def->nparams);
    assert_int_equal(client_describe(c, "thirty_one(players=99)"), ERR_INVAL);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_SPEC);
}

static void test_plain_env_matches_library(void **state)
{
    client_t *c = connect_client(*state);
    char err[256];
    client_env_t *ce = make(c, SPEC, 0, NULL, 0);
    env_t *e = env_new(SPEC, NULL, err, sizeof err);
    assert_non_null(e);
    assert_false(client_env_shape(ce)->vector);
    assert_int_equal(client_env_shape(ce)->learner, -1);
    play_side_by_side(ce, e);
    env_destroy(&e);
    assert_int_equal(client_close(&ce), 0);
}

static void test_single_agent_matches_library(void **state)
{
    client_t *c = connect_client(*state);
    char err[256];
    const char *spec = "spoil_five(players=3,deals=1)";
    client_env_t *ce = make(c, spec, 0, "random", 1);
    struct env_options o = {0, "random", 1};
    env_t *e = env_new(spec, &o, err, sizeof err);
    if (!e)
        fail_msg("%s", err);
    assert_int_equal(client_env_shape(ce)->learner, 1);
    const msgpack_object *opp =
        proto_obj(client_reply(c), PROTO_R_MAKE_OPPONENTS);
    assert_int_equal(opp->via.array.size, 3);
    assert_int_equal(opp->via.array.ptr[1].type, MSGPACK_OBJECT_NIL);
    assert_int_equal(opp->via.array.ptr[0].type, MSGPACK_OBJECT_STR);
    play_side_by_side(ce, e);
    env_destroy(&e);
    /* Joint actions are for multi-agent envs only. */
    int32_t joint[3] = {0, 0, 0};
    assert_int_equal(client_reset(ce, 1), 0);
    assert_int_equal(client_step_many(ce, joint, 3), ERR_RANGE);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_VALUE);
    assert_int_equal(client_close(&ce), 0);
}

static void test_vector_matches_library(void **state)
{
    client_t *c = connect_client(*state);
    char err[256];
    enum { N = 8 };
    client_env_t *ce = make(c, SPEC, N, NULL, 0);
    venv_t *v = venv_new(SPEC, NULL, N, err, sizeof err);
    assert_non_null(v);
    assert_true(client_env_shape(ce)->vector);
    assert_int_equal(client_reset(ce, 21), 0);
    assert_int_equal(venv_reset(v, 21), 0);
    assert_matches_venv(ce, v);
    struct rng r;
    rng_seed(&r, 5);
    int32_t actions[N];
    int ended = 0;
    for (int step = 0; step < 300; step++) {
        const struct client_batch *b = client_env_batch(ce);
        for (int i = 0; i < N; i++)
            actions[i] = pick(&r, b->legal + i * 8, 8);
        assert_int_equal(client_step_many(ce, actions, N), 0);
        assert_int_equal(venv_step(v, (const int *)actions), 0);
        assert_matches_venv(ce, v);
        ended += b->nfinal;
    }
    assert_true(ended > 0); /* auto-reset and final rows were exercised */
    venv_destroy(&v);
    assert_int_equal(client_close(&ce), 0);
}

/* Pennies: both seats act at once in rounds 0, 1 and 3 (env_test_util.h),
 * so a multi-agent env has one row per seat and takes joint actions. */
static void test_joint_actions(void **state)
{
    client_t *c = connect_client(*state);
    client_env_t *ce = make(c, "pennies", 0, NULL, 0);
    const struct client_batch *b = client_env_batch(ce);
    assert_int_equal(client_env_shape(ce)->rows, 2);
    assert_int_equal(client_reset(ce, 1), 0);
    assert_int_equal(b->to_move[0], 3);
    /* Row s is seat s's observation {round, own, other's, seat}. */
    assert_true(b->obs[3] == 0.0f && b->obs[4 + 3] == 1.0f);
    assert_int_equal(client_step(ce, 0), ERR_STATE);
    int32_t both[2] = {1, 1}; /* they match: a point to seat 0 */
    assert_int_equal(client_step_many(ce, both, 1), ERR_INVAL);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_BATCH);
    assert_int_equal(client_step_many(ce, both, 2), 0);
    assert_true(b->reward[0] == 1.0 && b->reward[1] == -1.0);
    /* Round 1: seat 1 may only show 1. */
    int32_t bad[2] = {0, 0};
    assert_int_equal(client_step_many(ce, bad, 2), ERR_ILLEGAL_ACTION);
    assert_int_equal(client_close(&ce), 0);

    /* A vector of 3 takes 3 x 2 actions. */
    ce = make(c, "pennies", 3, NULL, 0);
    assert_int_equal(client_reset(ce, 1), 0);
    int32_t six[6] = {0, 1, 0, 1, 1, 1};
    assert_int_equal(client_step_many(ce, six, 3), ERR_INVAL);
    assert_int_equal(client_step_many(ce, six, 6), 0);
    b = client_env_batch(ce);
    /* Env 0 and 1 differed (seat 1 scores), env 2 matched (seat 0). */
    assert_true(b->reward[0] == -1.0 && b->reward[2 * 2] == 1.0);
    assert_int_equal(client_close(&ce), 0);
}

static void test_views_and_names(void **state)
{
    client_t *c = connect_client(*state);
    char err[256], name[GAME_NAME_MAX];
    client_env_t *ce = make(c, SPEC, 0, NULL, 0);
    env_t *e = env_new(SPEC, NULL, err, sizeof err);
    struct env_timestep ts;
    client_want(ce, true, true);
    assert_int_equal(client_reset(ce, 3), 0);
    assert_int_equal(env_reset(e, 3, &ts), 0);
    const struct proto_in *in = client_reply(c);
    const msgpack_object *ids = proto_obj(in, PROTO_R_TIMESTEP_LEGAL_IDS);
    const msgpack_object *names = proto_obj(in, PROTO_R_TIMESTEP_LEGAL_NAMES);
    assert_non_null(ids);
    assert_int_equal(ids->via.array.size, names->via.array.size);
    for (uint32_t i = 0; i < ids->via.array.size; i++) {
        int a = (int)ids->via.array.ptr[i].via.u64;
        assert_true((ts.legal[a >> 6] >> (a & 63)) & 1);
        game_action_name(env_game(e), env_state(e), a, name, sizeof name);
        const msgpack_object_str *s = &names->via.array.ptr[i].via.str;
        assert_int_equal(s->size, strlen(name));
        assert_memory_equal(s->ptr, name, s->size);
    }
    const msgpack_object *view = proto_obj(in, PROTO_R_TIMESTEP_VIEW);
    assert_int_equal(view->type, MSGPACK_OBJECT_MAP);
    assert_int_equal(view->via.map.size, game_view_nkeys(env_game(e)));
    env_destroy(&e);
    assert_int_equal(client_close(&ce), 0);

    ce = make(c, SPEC, 3, NULL, 0);
    client_want(ce, true, true);
    assert_int_equal(client_reset(ce, 3), 0);
    in = client_reply(c);
    assert_int_equal(proto_obj(in, PROTO_R_BATCH_VIEWS)->via.array.size, 3);
    assert_int_equal(proto_obj(in, PROTO_R_BATCH_LEGAL_NAMES)->via.array.size,
                     3);
    assert_int_equal(client_close(&ce), 0);
}

/* ---- refusals ----------------------------------------------------------- */

static void test_protocol_refusals(void **state)
{
    client_t *c = connect_client(*state);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);

    assert_int_equal(raw(c, "\xc1", 1), PROTO_E_MALFORMED);
    assert_int_equal(raw(c, "", 0), PROTO_E_MALFORMED);
    begin_raw(&pk, &sb, "dance", 0);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_UNKNOWN_TYPE);
    assert_true(client_reply(c)->has_id && client_reply(c)->id == 77);
    begin_raw(&pk, &sb, "reset", 1);
    msgpack_pack_str_with_body(&pk, "env", 3);
    msgpack_pack_int(&pk, 1);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_MISSING_FIELD);
    begin_raw(&pk, &sb, "close", 1);
    msgpack_pack_str_with_body(&pk, "env", 3);
    msgpack_pack_str_with_body(&pk, "1", 1);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_BAD_TYPE);

    /* Over max_msg: refused with the id, and the server goes on. */
    begin_raw(&pk, &sb, "hello", 1);
    char big[MAX_MSG];
    memset(big, 'x', sizeof big);
    msgpack_pack_str_with_body(&pk, "client", 6);
    msgpack_pack_str_with_body(&pk, big, sizeof big);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_TOO_BIG);
    assert_true(client_reply(c)->has_id && client_reply(c)->id == 77);

    /* Version 2 of a step (only hello may offer another version). */
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_map(&pk, 2);
    msgpack_pack_str_with_body(&pk, "v", 1);
    msgpack_pack_int(&pk, 2);
    msgpack_pack_str_with_body(&pk, "type", 4);
    msgpack_pack_str_with_body(&pk, "ping", 4);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_VERSION);
    assert_int_equal(client_ping(c), 0);
    msgpack_sbuffer_destroy(&sb);
}

static void test_env_refusals(void **state)
{
    client_t *c = connect_client(*state), *other = connect_client(*state);
    client_env_t *ce = make(c, SPEC, 0, NULL, 0);
    assert_int_equal(client_step(ce, 0), ERR_STATE); /* never reset */
    assert_int_equal(client_wire_error(c), PROTO_E_STATE);
    assert_int_equal(client_reset(ce, 1), 0);
    /* An illegal action moves nothing: the timestep is the reset's. */
    const struct client_batch *b = client_env_batch(ce);
    int illegal = 0;
    while (client_is_legal(b->legal, illegal))
        illegal++;
    assert_int_equal(client_step(ce, illegal), ERR_ILLEGAL_ACTION);
    assert_int_equal(client_step(ce, 1 << 20), ERR_ILLEGAL_ACTION);
    assert_int_equal(client_step(ce, -1), ERR_ILLEGAL_ACTION);
    char err[256];
    env_t *e = env_new(SPEC, NULL, err, sizeof err);
    struct env_timestep ts;
    env_reset(e, 1, &ts);
    int a = pick_action(&(struct rng){3}, ts.legal, 1);
    assert_int_equal(client_step(ce, a), 0);
    env_step(e, a, &ts);
    assert_matches_env(ce, e, &ts);
    /* A plain multi-agent env takes one action per seat as well (the
     * seat not acting gets -1, ignored), but not a wrong number. */
    int32_t three[3] = {-1, -1, -1};
    three[__builtin_ctz(ts.to_move)] =
        pick_action(&(struct rng){5}, ts.legal, 1);
    assert_int_equal(client_step_many(ce, three, 3), ERR_INVAL);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_BATCH);
    assert_int_equal(client_step_many(ce, three, 2), 0);
    assert_int_equal(env_step_joint(e, (const int *)three, &ts), 0);
    assert_matches_env(ce, e, &ts);
    env_destroy(&e);

    /* Another client cannot see or touch the env; its owner still can. */
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    begin_raw(&pk, &sb, "close", 1);
    msgpack_pack_str_with_body(&pk, "env", 3);
    msgpack_pack_uint64(&pk, client_env_shape(ce)->id);
    assert_int_equal(raw(other, sb.data, sb.size), PROTO_E_UNKNOWN_ENV);
    assert_int_equal(client_step(ce, pick(&(struct rng){4}, b->legal, 8)), 0);

    /* Closed: the id is dead, for close too. */
    assert_int_equal(raw(c, sb.data, sb.size), 0);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_UNKNOWN_ENV);
    assert_int_equal(client_reset(ce, 1), ERR_NOTFOUND);
    assert_int_equal(client_close(&ce), ERR_NOTFOUND); /* frees it anyway */
    assert_null(ce);
    msgpack_sbuffer_destroy(&sb);
}

static void test_make_refusals(void **state)
{
    client_t *c = connect_client(*state);
    assert_null(client_make(c, "no_such_game", NULL));
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_SPEC);
    assert_null(client_make(c, "thirty_one(players=1)", NULL));
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_SPEC);
    assert_null(
        client_make(c, SPEC, &(struct client_make_options){0, "nobody", 0, 0}));
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_SPEC);
    assert_null(
        client_make(c, SPEC, &(struct client_make_options){0, "random", 5, 0}));
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_SPEC);
    /* client_make only sends seat with opponents: send it raw. */
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    begin_raw(&pk, &sb, "make", 2);
    msgpack_pack_str_with_body(&pk, "game", 4);
    msgpack_pack_str_with_body(&pk, "dice", 4);
    msgpack_pack_str_with_body(&pk, "seat", 4);
    msgpack_pack_int(&pk, 1);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_BAD_VALUE);
    begin_raw(&pk, &sb, "make", 2);
    msgpack_pack_str_with_body(&pk, "game", 4);
    msgpack_pack_str_with_body(&pk, "dice", 4);
    msgpack_pack_str_with_body(&pk, "n", 1);
    msgpack_pack_int(&pk, 0);
    assert_int_equal(raw(c, sb.data, sb.size), PROTO_E_BAD_VALUE);
    msgpack_sbuffer_destroy(&sb);
}

/* Limits: MAX_ENVS per client, 40 envs on the server, 3 clients. */
static void test_limits(void **state)
{
    client_t *c = connect_client(*state);
    client_env_t *v = make(c, "dice", MAX_ENVS - 1, NULL, 0);
    client_env_t *one = make(c, "dice", 0, NULL, 0);
    assert_null(client_make(c, "dice", NULL));
    assert_int_equal(client_wire_error(c), PROTO_E_LIMIT);
    assert_int_equal(client_close(&one), 0);
    one = make(c, "dice", 0, NULL, 0);
    client_t *more[3];
    client_env_t *theirs[3];
    for (int i = 0; i < 3; i++)
        more[i] = connect_client(*state);
    /* 16 held by c, 12 more make 28; 13 more would pass the server's 40. */
    theirs[0] = make(more[0], "dice", 12, NULL, 0);
    assert_null(client_make(more[1], "dice",
                            &(struct client_make_options){13, NULL, 0, 0}));
    assert_int_equal(client_wire_error(more[1]), PROTO_E_LIMIT);
    /* A third client holding envs is the limit: a fourth must wait until
     * one of them holds none. */
    theirs[2] = make(more[2], "dice", 0, NULL, 0);
    assert_null(client_make(more[1], "dice", NULL));
    assert_int_equal(client_wire_error(more[1]), PROTO_E_LIMIT);
    assert_int_equal(client_close(&theirs[2]), 0);
    theirs[1] = make(more[1], "dice", 0, NULL, 0);
    for (int i = 0; i < 3; i++) {
        client_close(&theirs[i]);
    }
    assert_int_equal(client_close(&one), 0);
    assert_int_equal(client_close(&v), 0);
}

static void test_vector_refusals(void **state)
{
    client_t *c = connect_client(*state);
    client_env_t *ce = make(c, SPEC, 4, NULL, 0);
    int32_t four[4] = {0, 0, 0, 0};
    assert_int_equal(client_step_many(ce, four, 4), ERR_STATE);
    assert_int_equal(client_reset(ce, 9), 0);
    assert_int_equal(client_step_many(ce, four, 3), ERR_INVAL);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_BATCH);
    assert_int_equal(client_step(ce, 0), ERR_RANGE);
    assert_int_equal(client_wire_error(c), PROTO_E_BAD_VALUE);
    /* One illegal action in the batch refuses the whole step: afterwards
     * the batch steps exactly as a local venv fresh from the same reset. */
    char err[256];
    venv_t *v = venv_new(SPEC, NULL, 4, err, sizeof err);
    assert_int_equal(venv_reset(v, 9), 0);
    const struct client_batch *b = client_env_batch(ce);
    for (int i = 0; i < 4; i++)
        four[i] = pick(&(struct rng){(uint64_t)i}, b->legal + 8 * i, 8);
    int keep = four[2];
    four[2] = 54; /* the highest id; no discard is legal before a draw */
    while (client_is_legal(b->legal + 16, four[2]))
        four[2]--;
    assert_int_equal(client_step_many(ce, four, 4), ERR_ILLEGAL_ACTION);
    assert_non_null(strstr(client_errmsg(c), "env 2"));
    assert_int_equal(client_step_many(ce, four, 0), ERR_INVAL);
    four[2] = keep;
    assert_int_equal(client_step_many(ce, four, 4), 0);
    assert_int_equal(venv_step(v, (const int *)four), 0);
    assert_matches_venv(ce, v);
    venv_destroy(&v);
    assert_int_equal(client_close(&ce), 0);
}

/* ---- transport ---------------------------------------------------------- */

static void test_frames(void **state)
{
    struct rig *r = *state;
    char reply[256];
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    begin_raw(&pk, &sb, "ping", 0);
    struct proto_decoder d;
    struct proto_in in;
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);

    /* A REQ socket adds the empty delimiter; the reply must carry it. */
    void *req = connect_raw(r, ZMQ_REQ);
    assert_int_equal(zmq_send(req, sb.data, sb.size, 0), (int)sb.size);
    int n = zmq_recv(req, reply, sizeof reply, 0);
    assert_true(n > 0);
    assert_int_equal(proto_decode(&d, PROTO_REPLY, reply, (size_t)n, &in), 0);
    assert_int_equal(in.type, PROTO_MSG_PING);
    assert_int_equal(in.id, 77);

    /* Two payload frames in one message. */
    void *dealer = connect_raw(r, ZMQ_DEALER);
    zmq_send(dealer, sb.data, sb.size, ZMQ_SNDMORE);
    zmq_send(dealer, sb.data, sb.size, 0);
    n = zmq_recv(dealer, reply, sizeof reply, 0);
    assert_int_equal(proto_decode(&d, PROTO_REPLY, reply, (size_t)n, &in), 0);
    assert_int_equal(in.type, PROTO_MSG_ERROR);
    assert_int_equal(proto_uint(&in, PROTO_R_ERROR_CODE, 0), PROTO_E_MALFORMED);
    proto_decoder_fini(&d);
    msgpack_sbuffer_destroy(&sb);
}

/* ---- sessions ----------------------------------------------------------- */

static void test_idle_clients_are_reclaimed(void **state)
{
    struct rig *r = *state;
    client_t *a = connect_client(r), *b = connect_client(r);
    client_env_t *ea = make(a, SPEC, 0, NULL, 0);
    client_env_t *eb = make(b, SPEC, 0, NULL, 0);
    assert_int_equal(client_reset(ea, 1), 0);
    assert_int_equal(client_reset(eb, 1), 0);
    /* b speaks at 0.9 idle, a does not: at 1.5 idle a's env is gone, b's
     * lives (silent only 0.6 idle). */
    atomic_fetch_add(&r->now, IDLE_MS * 9 / 10);
    assert_int_equal(client_ping(b), 0);
    atomic_fetch_add(&r->now, IDLE_MS * 6 / 10);
    assert_int_equal(client_ping(b), 0);
    assert_int_equal(client_reset(ea, 1), ERR_NOTFOUND);
    assert_int_equal(client_reset(eb, 2), 0);
    /* a may start again: its session was forgotten, not barred. */
    client_env_t *again = make(a, SPEC, 0, NULL, 0);
    assert_int_equal(client_reset(again, 1), 0);
    client_close(&ea);
    client_close(&again);
    client_close(&eb);
}

/* Interleaved clients each see exactly their own env's trajectory. */
static void test_clients_interleaved(void **state)
{
    enum { K = 3 };
    client_t *c[K];
    client_env_t *ce[K];
    env_t *e[K];
    struct env_timestep ts[K];
    char err[256];
    struct rng r;
    rng_seed(&r, 8);
    for (int i = 0; i < K; i++) {
        c[i] = connect_client(*state);
        ce[i] = make(c[i], SPEC, 0, NULL, 0);
        e[i] = env_new(SPEC, NULL, err, sizeof err);
        assert_int_equal(client_reset(ce[i], (uint64_t)i), 0);
        env_reset(e[i], (uint64_t)i, &ts[i]);
    }
    for (int step = 0; step < 60; step++) {
        int i = step % K;
        if (ts[i].terminated || ts[i].truncated)
            continue;
        int a = pick_action(&r, ts[i].legal, 1);
        assert_int_equal(client_step(ce[i], a), 0);
        env_step(e[i], a, &ts[i]);
        assert_matches_env(ce[i], e[i], &ts[i]);
    }
    for (int i = 0; i < K; i++) {
        env_destroy(&e[i]);
        client_close(&ce[i]);
    }
}

/* Stopping with envs open closes them (ASan checks that nothing leaks). */
static void test_stop_with_envs_open(void **state)
{
    client_t *c = connect_client(*state);
    client_env_t *ce = make(c, SPEC, 4, NULL, 0);
    assert_int_equal(client_reset(ce, 1), 0);
    client_forget(&ce);
}

int main(void)
{
    if (getenv("TEST_FILTER")) /* e.g. TEST_FILTER=test_frames */
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_hello_ping_describe),
        T(test_plain_env_matches_library),
        T(test_single_agent_matches_library),
        T(test_vector_matches_library),
        T(test_joint_actions),
        T(test_views_and_names),
        T(test_protocol_refusals),
        T(test_env_refusals),
        T(test_make_refusals),
        T(test_limits),
        T(test_vector_refusals),
        T(test_frames),
        T(test_idle_clients_are_reclaimed),
        T(test_clients_interleaved),
        T(test_stop_with_envs_open),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
