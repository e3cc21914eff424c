/* test_client_venv.c — one vector env spread over two env servers
 * (inproc://, each run by a helper thread), checked against the library:
 * the first server's 3 envs must step exactly as a local venv of 3 reset
 * with the seed, the second's 2 as a local venv of 2 reset with
 * rng_derive(seed, 5 + 1) (client_venv.h), column by column, final rows
 * included; an illegal action or a wrong count moves no env anywhere.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <string.h>
#include <zmq.h>

#include "common/err.h"
#include "common/rng.h"
#include "env/server.h"
#include "env/venv.h"
#include "protocol/client_venv.h"
#include "tests/env/env_test_util.h"

#define SPEC "thirty_one(players=2,lives=1)"
#define N 5 /* envs: 3 on the first server, 2 on the second */

/* Two servers on their threads. */
struct rig {
    void *ctx;           /* shared (inproc) */
    server_t *s[2];      /* the servers */
    pthread_t thread[2]; /* each runs server_run */
};

static const char *const endpoints[2] = {"inproc://venv-a", "inproc://venv-b"};

static void *serve(void *arg)
{
    server_run(arg);
    return NULL;
}

static int setup(void **state)
{
    static struct rig rig;
    char err[256];
    rig.ctx = zmq_ctx_new();
    for (int j = 0; j < 2; j++) {
        struct server_options o = {.endpoint = endpoints[j],
                                   .zmq_ctx = rig.ctx};
        rig.s[j] = server_new(&o, err, sizeof err);
        if (!rig.s[j])
            fail_msg("server_new: %s", err);
        assert_int_equal(pthread_create(&rig.thread[j], NULL, serve, rig.s[j]),
                         0);
    }
    *state = &rig;
    return 0;
}

static int teardown(void **state)
{
    struct rig *r = *state;
    for (int j = 0; j < 2; j++) {
        server_stop(r->s[j]);
        pthread_join(r->thread[j], NULL);
        server_destroy(&r->s[j]);
    }
    zmq_ctx_term(r->ctx);
    return 0;
}

static client_venv_t *spread(struct rig *r)
{
    char err[256];
    struct client_make_options o = {.n = N};
    client_venv_t *v =
        client_venv_new(endpoints, 2, NULL, r->ctx, SPEC, &o, err, sizeof err);
    if (!v)
        fail_msg("client_venv_new: %s", err);
    client_venv_set_timeout(v, 20000); /* only a bug would wait this long */
    return v;
}

/* Env columns of the joined batch from env first on match local venv l;
 * *k counts the final rows seen so far. */
static void assert_share(const struct client_batch *b, int first,
                         const venv_t *l, int *k)
{
    const struct venv_batch *lb = venv_batch(l);
    size_t n = (size_t)lb->n, f = (size_t)first;
    size_t row = (size_t)lb->rows * (size_t)lb->obs_size * 4;
    size_t mask = (size_t)lb->rows * (size_t)lb->mask_words * 8;
    assert_memory_equal((char *)b->obs + f * row, lb->obs, n * row);
    assert_memory_equal(b->legal + f * mask, lb->legal, n * mask);
    assert_memory_equal(b->reward + f * (size_t)lb->rewards, lb->reward,
                        n * (size_t)lb->rewards * 8);
    assert_memory_equal(b->terminated + f, lb->terminated, n);
    assert_memory_equal(b->truncated + f, lb->truncated, n);
    assert_memory_equal(b->seat + f, lb->seat, n * 4);
    assert_memory_equal(b->to_move + f, lb->to_move, n * 4);
    assert_memory_equal(b->steps + f, lb->steps, n * 4);
    for (size_t i = 0; i < n; i++) {
        if (!lb->terminated[i] && !lb->truncated[i])
            continue;
        assert_true(*k < b->nfinal);
        assert_memory_equal((char *)b->final_obs + (size_t)*k * row,
                            (char *)lb->final_obs + i * row, row);
        assert_int_equal(b->final_seat[*k], lb->final_seat[i]);
        ++*k;
    }
}

static void assert_joined(const client_venv_t *v, const venv_t *a,
                          const venv_t *b)
{
    const struct client_batch *cb = client_venv_batch(v);
    int k = 0;
    assert_share(cb, 0, a, &k);
    assert_share(cb, 3, b, &k);
    assert_int_equal(cb->nfinal, k);
}

/* Random legal actions for the venv's last batch. */
static void pick_all(const client_venv_t *v, struct rng *r, int32_t *out)
{
    const struct client_shape *s = client_venv_shape(v);
    for (int i = 0; i < s->n; i++) {
        uint64_t mask[8];
        memcpy(mask, client_venv_batch(v)->legal + i * s->mask_bytes,
               (size_t)s->mask_bytes);
        out[i] = pick_action(r, mask, s->mask_bytes / 8);
    }
}

/* ---- tests ----------------------------------------------------------------
 */

static void test_shares_match_library(void **state)
{
    struct rig *rig = *state;
    char err[256];
    client_venv_t *v = spread(rig);
    assert_int_equal(client_venv_shape(v)->n, N);
    assert_int_equal(server_envs(rig->s[0]), 3);
    assert_int_equal(server_envs(rig->s[1]), 2);
    venv_t *a = venv_new(SPEC, NULL, 3, err, sizeof err);
    venv_t *b = venv_new(SPEC, NULL, 2, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(client_venv_reset(v, 21), 0);
    assert_int_equal(venv_reset(a, 21), 0);
    assert_int_equal(venv_reset(b, rng_derive(21, N + 1)), 0);
    assert_joined(v, a, b);
    struct rng r;
    rng_seed(&r, 5);
    int32_t act[N];
    int ended = 0;
    for (int step = 0; step < 300; step++) {
        pick_all(v, &r, act);
        assert_int_equal(client_venv_step(v, act, N), 0);
        assert_int_equal(venv_step(a, (const int *)act), 0);
        assert_int_equal(venv_step(b, (const int *)act + 3), 0);
        assert_joined(v, a, b);
        ended += client_venv_batch(v)->nfinal;
    }
    assert_true(ended > N); /* auto-resets and final rows were exercised */
    venv_destroy(&a);
    venv_destroy(&b);
    client_venv_destroy(&v);
    assert_null(v);
    assert_int_equal(server_envs(rig->s[0]) + server_envs(rig->s[1]), 0);
}

static void test_refusals_move_nothing(void **state)
{
    struct rig *rig = *state;
    char err[256];
    struct client_make_options one = {.n = 1};
    assert_null(client_venv_new(endpoints, 2, NULL, rig->ctx, SPEC, &one, err,
                                sizeof err));
    assert_non_null(strstr(err, "at least one env each"));
    client_venv_t *v = spread(rig);
    int32_t act[N] = {0};
    assert_int_equal(client_venv_step(v, act, N), ERR_INVAL); /* no reset */
    venv_t *a = venv_new(SPEC, NULL, 3, err, sizeof err);
    venv_t *b = venv_new(SPEC, NULL, 2, err, sizeof err);
    assert_int_equal(client_venv_reset(v, 8), 0);
    assert_int_equal(venv_reset(a, 8), 0);
    assert_int_equal(venv_reset(b, rng_derive(8, N + 1)), 0);
    struct rng r;
    rng_seed(&r, 6);
    pick_all(v, &r, act);
    assert_int_equal(client_venv_step(v, act, N - 1), ERR_INVAL);
    int32_t bad[N];
    memcpy(bad, act, sizeof bad);
    const uint8_t *row =
        client_venv_batch(v)->legal + 4 * client_venv_shape(v)->mask_bytes;
    bad[4] = 0;
    while (client_is_legal(row, bad[4]))
        bad[4]++;
    assert_int_equal(client_venv_step(v, bad, N), ERR_ILLEGAL_ACTION);
    assert_non_null(strstr(client_venv_errmsg(v), "env 4"));
    assert_int_equal(client_venv_step(v, act, N), 0);
    assert_int_equal(venv_step(a, (const int *)act), 0);
    assert_int_equal(venv_step(b, (const int *)act + 3), 0);
    assert_joined(v, a, b);
    venv_destroy(&a);
    venv_destroy(&b);
    client_venv_destroy(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shares_match_library),
        cmocka_unit_test(test_refusals_move_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
