/* test_venv.c — the vector environment: its batch equals n independent
 * envs seeded per venv_episode_seed and stepped with the same actions,
 * auto-reset starts the next episode, an illegal action anywhere leaves
 * the whole batch untouched, and the joint shape of simultaneous games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "env/venv.h"
#include "tests/env/env_test_util.h"

#define NENV 4

static venv_t *make_venv(const char *spec, int max_steps, const char *opp,
                         int n)
{
    char err[512];
    struct env_options o = {max_steps, opp, 0};
    venv_t *v = venv_new(spec, &o, n, err, sizeof err);
    if (!v)
        fail_msg("venv_new(%s): %s", spec, err);
    return v;
}

static const uint64_t *legal_row(const struct venv_batch *b, int i)
{
    return b->legal + (size_t)i * (size_t)b->rows * (size_t)b->mask_words;
}

static const float *obs_row(const struct venv_batch *b, const float *base,
                            int i)
{
    return base + (size_t)i * (size_t)b->rows * (size_t)b->obs_size;
}

/* One legal action per env (turn-based shapes), drawn with r. */
static void pick_all(const struct venv_batch *b, struct rng *r, int *out)
{
    for (int i = 0; i < b->n; i++)
        out[i] = pick_action(r, legal_row(b, i), b->mask_words);
}

/* Checks env i's rows of the batch against a plain env's timestep. */
static void assert_rows_match(const struct venv_batch *b, int i,
                              const struct env_timestep *ts)
{
    assert_memory_equal(obs_row(b, b->obs, i), ts->obs,
                        (size_t)b->obs_size * sizeof(float));
    assert_memory_equal(legal_row(b, i), ts->legal, (size_t)b->mask_words * 8);
    assert_int_equal(b->seat[i], ts->seat);
    assert_int_equal(b->to_move[i], ts->to_move);
    assert_int_equal(b->steps[i], ts->steps);
}

/* Checks env i's step outcome against a plain env's timestep. */
static void assert_outcome_match(const struct venv_batch *b, int i,
                                 const struct env_timestep *ts, int learner)
{
    const double *r = b->reward + (size_t)i * (size_t)b->rewards;
    if (learner >= 0)
        assert_memory_equal(r, &ts->reward[learner], sizeof(double));
    else
        assert_memory_equal(r, ts->reward, sizeof(double) * (size_t)b->rewards);
    assert_int_equal(b->terminated[i], ts->terminated);
    assert_int_equal(b->truncated[i], ts->truncated);
}

/* Resets a plain env as a venv would for env i's episode *k: moving on
 * while the episode is over before any decision. */
static void reset_like_venv(env_t *e, uint64_t seed, int i, uint64_t *k,
                            struct env_timestep *ts)
{
    assert_int_equal(env_reset(e, venv_episode_seed(seed, i, *k), ts), 0);
    while (ts->terminated)
        assert_int_equal(env_reset(e, venv_episode_seed(seed, i, ++*k), ts), 0);
}

static bool all_ended(const int *ended)
{
    for (int i = 0; i < NENV; i++)
        if (!ended[i])
            return false;
    return true;
}

/* Runs a venv and NENV plain envs side by side, resetting the plain envs
 * by hand when their episodes end, and checks every row; goes on for at
 * least steps steps and until every env has ended an episode. */
static void side_by_side(const char *spec, const char *opp, int max_steps,
                         uint64_t seed, int steps)
{
    venv_t *v = make_venv(spec, max_steps, opp, NENV);
    const struct venv_batch *b = venv_batch(v);
    struct env_options o = {max_steps, opp, 0};
    env_t *e[NENV];
    struct env_timestep ts[NENV];
    uint64_t episode[NENV] = {0};
    int actions[NENV], ended[NENV] = {0}, learner = venv_shape(v)->learner;
    struct rng r = {seed};
    assert_int_equal(venv_reset(v, seed), 0);
    for (int i = 0; i < NENV; i++) {
        assert_non_null(e[i] = env_new(spec, &o, NULL, 0));
        reset_like_venv(e[i], seed, i, &episode[i], &ts[i]);
        assert_rows_match(b, i, &ts[i]);
    }
    for (int k = 0; k < steps || !all_ended(ended); k++) {
        assert_true(k < 100000);
        pick_all(b, &r, actions);
        if (venv_step(v, actions))
            fail_msg("%s step %d: %s", spec, k, venv_errmsg(v));
        for (int i = 0; i < NENV; i++) {
            assert_int_equal(env_step(e[i], actions[i], &ts[i]), 0);
            assert_outcome_match(b, i, &ts[i], learner);
            if (!ts[i].terminated && !ts[i].truncated) {
                assert_rows_match(b, i, &ts[i]);
                continue;
            }
            assert_memory_equal(obs_row(b, b->final_obs, i), ts[i].obs,
                                (size_t)b->obs_size * sizeof(float));
            assert_int_equal(b->final_seat[i], ts[i].seat);
            ended[i]++;
            episode[i]++;
            reset_like_venv(e[i], seed, i, &episode[i], &ts[i]);
            assert_rows_match(b, i, &ts[i]);
            assert_int_equal(b->steps[i], 0);
        }
    }
    for (int i = 0; i < NENV; i++)
        env_destroy(&e[i]);
    venv_destroy(&v);
}

static void test_batch_equals_independent_envs(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        side_by_side(specs[i], "random", 0, 21, 50);
        side_by_side(specs[i], NULL, 0, 22, 50);
        side_by_side(specs[i], "random", 5, 23, 20);
    }
}

/* Episode seeds: k = 0 is rng_derive(seed, i) itself (what an env reset
 * by hand with that seed gets), and later episodes differ from it. */
static void test_episode_seeds(void **state)
{
    (void)state;
    assert_true(venv_episode_seed(9, 3, 0) == rng_derive(9, 3));
    assert_true(venv_episode_seed(9, 3, 1) == rng_derive(rng_derive(9, 3), 1));
    assert_true(venv_episode_seed(9, 3, 1) != venv_episode_seed(9, 3, 2));
    assert_true(venv_episode_seed(9, 3, 0) != venv_episode_seed(9, 4, 0));
}

/* Two venvs with one seed and the same actions have identical batches. */
static void test_same_seed_same_batches(void **state)
{
    (void)state;
    const char *spec = game_registry[0]->name;
    venv_t *a = make_venv(spec, 0, "random", NENV);
    venv_t *c = make_venv(spec, 0, "random", NENV);
    const struct venv_batch *ba = venv_batch(a), *bc = venv_batch(c);
    size_t obs = (size_t)NENV * (size_t)ba->obs_size * sizeof(float);
    int actions[NENV];
    struct rng r = {4};
    assert_int_equal(venv_reset(a, 8), 0);
    assert_int_equal(venv_reset(c, 8), 0);
    for (int k = 0; k < 200; k++) {
        pick_all(ba, &r, actions);
        assert_int_equal(venv_step(a, actions), 0);
        assert_int_equal(venv_step(c, actions), 0);
        assert_memory_equal(ba->obs, bc->obs, obs);
        assert_memory_equal(ba->legal, bc->legal,
                            (size_t)NENV * (size_t)ba->mask_words * 8);
        assert_memory_equal(ba->reward, bc->reward, NENV * sizeof(double));
        assert_memory_equal(ba->terminated, bc->terminated, NENV);
        assert_memory_equal(ba->truncated, bc->truncated, NENV);
    }
    venv_destroy(&a);
    venv_destroy(&c);
}

/* Snapshot of the batch buffers that a refused step must not change. */
struct snapshot {
    unsigned char obs[1 << 16], legal[1 << 12], reward[256];
    size_t nobs, nlegal, nreward;
};

static void snap(const struct venv_batch *b, struct snapshot *s)
{
    s->nobs = (size_t)b->n * (size_t)b->rows * (size_t)b->obs_size * 4;
    s->nlegal = (size_t)b->n * (size_t)b->rows * (size_t)b->mask_words * 8;
    s->nreward = (size_t)b->n * (size_t)b->rewards * sizeof(double);
    assert_true(s->nobs <= sizeof s->obs && s->nlegal <= sizeof s->legal);
    memcpy(s->obs, b->obs, s->nobs);
    memcpy(s->legal, b->legal, s->nlegal);
    memcpy(s->reward, b->reward, s->nreward);
}

/* An illegal action for env 2 refuses the whole step: no env moves (the
 * batch is unchanged and the next steps match a twin venv that never saw
 * the bad action), and the message names env 2. */
static void test_illegal_action_refuses_whole_step(void **state)
{
    (void)state;
    const char *spec = game_registry[0]->name;
    venv_t *v = make_venv(spec, 0, "random", NENV);
    venv_t *twin = make_venv(spec, 0, "random", NENV);
    const struct venv_batch *b = venv_batch(v), *bt = venv_batch(twin);
    static struct snapshot before, after;
    int actions[NENV];
    struct rng r = {6};
    assert_int_equal(venv_reset(v, 3), 0);
    assert_int_equal(venv_reset(twin, 3), 0);
    pick_all(b, &r, actions);
    snap(b, &before);
    int good = actions[2];
    actions[2] = -1;
    assert_int_equal(venv_step(v, actions), ERR_ILLEGAL_ACTION);
    assert_non_null(strstr(venv_errmsg(v), "env 2"));
    snap(b, &after);
    assert_memory_equal(&before, &after, sizeof before);
    actions[2] = good;
    for (int k = 0; k < 50; k++) {
        assert_int_equal(venv_step(v, actions), 0);
        assert_int_equal(venv_step(twin, actions), 0);
        assert_memory_equal(b->obs, bt->obs, before.nobs);
        pick_all(b, &r, actions);
    }
    venv_destroy(&v);
    venv_destroy(&twin);
}

static void test_misuse_and_bad_arguments(void **state)
{
    (void)state;
    const char *spec = game_registry[0]->name;
    char err[512];
    int actions[NENV] = {0};
    assert_null(venv_new(spec, NULL, 0, err, sizeof err));
    assert_non_null(strstr(err, "envs"));
    assert_null(venv_new(spec, NULL, VENV_MAX + 1, err, sizeof err));
    assert_non_null(strstr(err, "envs"));
    assert_null(venv_new("no_such_game", NULL, 2, err, sizeof err));
    assert_non_null(strstr(err, "no_such_game"));
    struct env_options o = {0, "no_such_bot", 0};
    assert_null(venv_new(spec, &o, 2, err, sizeof err));
    assert_non_null(strstr(err, "no_such_bot"));
    venv_t *v = make_venv(spec, 0, NULL, NENV);
    assert_int_equal(venv_step(v, actions), ERR_STATE);
    assert_non_null(strstr(venv_errmsg(v), "reset"));
    assert_null(venv_env(v, NENV));
    assert_non_null(venv_env(v, NENV - 1));
    const struct venv_batch *b = venv_batch(v);
    assert_int_equal(b->n, NENV);
    assert_int_equal(b->rows, 1);
    assert_int_equal(b->rewards, venv_shape(v)->players);
    venv_destroy(&v);
    venv_destroy(&v);
}

/* ---- joint shape (pennies) --------------------------------------------- */

static venv_t *pennies_venv(int n)
{
    struct game g;
    char err[256];
    pennies_game(&g);
    venv_t *v = venv_new_game(&g, NULL, n, err, sizeof err);
    if (!v)
        fail_msg("pennies: %s", err);
    return v;
}

/* Two pennies envs, every seat with a row. Env 0 always shows matching
 * coins, env 1 differing ones (seat 1 showing 1, which round 1 requires).
 * After four steps both episodes end and restart: final_obs keeps round 4
 * and the score each seat saw, obs is round 0 again. */
static void test_joint_shape(void **state)
{
    (void)state;
    venv_t *v = pennies_venv(2);
    const struct venv_batch *b = venv_batch(v);
    assert_int_equal(b->rows, 2);
    assert_int_equal(b->rewards, 2);
    assert_int_equal(venv_reset(v, 1), 0);
    assert_int_equal(b->legal[0], 3); /* env 0, seat 0: 0 or 1 */
    assert_true(b->obs[4 + 3] == 1);  /* env 0's row 1 is seat 1's view */
    int actions[4] = {1, 1, 0, 1};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(venv_step(v, actions), 0);
        assert_int_equal(b->terminated[0], k == 3);
        assert_int_equal(b->terminated[1], k == 3);
    }
    /* Env 0: seat 0 took rounds 0, 1 and 3; in round 2 seat 1 showed 1 and
     * scored: 3-1. Env 1: seat 1 took every round: 0-4. */
    const float *f = b->final_obs;
    assert_true(f[0] == 4 && f[1] == 3 && f[2] == 1);
    assert_true(f[4] == 4 && f[5] == 1 && f[6] == 3);
    assert_true(f[8] == 4 && f[9] == 0 && f[10] == 4);
    /* The last step's rewards: env 0's round 3 went to seat 0. */
    assert_true(b->reward[0] == 1 && b->reward[1] == -1);
    assert_true(b->reward[2] == -1 && b->reward[3] == 1);
    assert_true(b->obs[0] == 0 && b->obs[8] == 0);
    assert_int_equal(b->steps[0], 0);
    assert_int_equal(b->to_move[1], 3);
    /* Round 1 of the next episode refuses seat 1 showing 0 in env 1. */
    assert_int_equal(venv_step(v, actions), 0);
    int bad[4] = {1, 1, 0, 0};
    assert_int_equal(venv_step(v, bad), ERR_ILLEGAL_ACTION);
    assert_non_null(strstr(venv_errmsg(v), "env 1"));
    venv_destroy(&v);
}

/* ---- episodes with nothing to decide ----------------------------------- */

/* Pennies whose deal ends the game on the spot for odd seeds. */
static int odd_over_init(const struct game *g, void *st, uint64_t seed,
                         const uint8_t *deck, int ndeck)
{
    struct pennies *p = st;
    pennies_init(g, st, seed, deck, ndeck);
    if (seed & 1)
        p->round = PENNIES_ROUNDS;
    return 0;
}

/* Pennies whose deal always ends the game on the spot. */
static int always_over_init(const struct game *g, void *st, uint64_t seed,
                            const uint8_t *deck, int ndeck)
{
    struct pennies *p = st;
    pennies_init(g, st, seed, deck, ndeck);
    p->round = PENNIES_ROUNDS;
    return 0;
}

/* An env reports an episode over at reset as terminated; a venv skips it
 * (every env starts on a live episode whatever the parity of its first
 * seed) and gives up with ERR_STATE when no episode can be played. */
static void test_episodes_without_decisions(void **state)
{
    (void)state;
    struct game g;
    struct game_def def = pennies_def;
    struct env_timestep ts;
    char err[256];
    def.init = odd_over_init;
    pennies_game(&g);
    g.def = &def;
    env_t *e = env_new_game(&g, NULL, err, sizeof err);
    assert_int_equal(env_reset(e, 1, &ts), 0);
    assert_true(ts.terminated);
    assert_int_equal(ts.steps, 0);
    assert_int_equal(env_step(e, 0, NULL), ERR_STATE);
    env_destroy(&e);
    venv_t *v = venv_new_game(&g, NULL, 8, err, sizeof err);
    int odd = 0;
    for (int i = 0; i < 8; i++)
        odd += (int)(venv_episode_seed(5, i, 0) & 1);
    assert_true(odd > 0);
    assert_int_equal(venv_reset(v, 5), 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(venv_batch(v)->to_move[i], 3);
    venv_destroy(&v);
    def.init = always_over_init;
    v = venv_new_game(&g, NULL, 2, err, sizeof err);
    assert_int_equal(venv_reset(v, 5), ERR_STATE);
    assert_non_null(strstr(venv_errmsg(v), "before any decision"));
    venv_destroy(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_equals_independent_envs),
        cmocka_unit_test(test_episode_seeds),
        cmocka_unit_test(test_same_seed_same_batches),
        cmocka_unit_test(test_illegal_action_refuses_whole_step),
        cmocka_unit_test(test_misuse_and_bad_arguments),
        cmocka_unit_test(test_joint_shape),
        cmocka_unit_test(test_episodes_without_decisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
