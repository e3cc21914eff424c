/* test_env.c — the environment API over every registered game (and the
 * test-only simultaneous game "pennies"): determinism, reward accounting
 * in both modes, truncation, refusal of illegal actions, and errors that
 * name their culprit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "env/env.h"
#include "tests/env/env_test_util.h"

#define EPS 1e-9

/* ---- helpers ----------------------------------------------------------- */

static env_t *make_env(const char *spec, int max_steps, const char *opp,
                       int learner)
{
    char err[512];
    struct env_options o = {max_steps, opp, learner};
    env_t *e = env_new(spec, &o, err, sizeof err);
    if (!e)
        fail_msg("env_new(%s, opponents=%s): %s", spec, opp ? opp : "-", err);
    return e;
}

/* Steps e with actions drawn by r from the timestep's masks: one action
 * for a single acting seat, one per acting seat when several act. */
static int random_step(env_t *e, const struct env_timestep *ts, struct rng *r,
                       struct env_timestep *out)
{
    const struct env_shape *s = env_shape(e);
    uint32_t m = s->learner >= 0 ? 0 : ts->to_move;
    if (!(m & (m - 1)))
        return env_step(e, pick_action(r, ts->legal, s->mask_words), out);
    int actions[GAME_MAX_PLAYERS];
    for (int seat = 0; seat < s->players; seat++)
        actions[seat] =
            pick_action(r, ts->legal_all + (size_t)seat * (size_t)s->mask_words,
                        s->mask_words);
    return env_step_joint(e, actions, out);
}

static void assert_ts_equal(const struct env_shape *s,
                            const struct env_timestep *a,
                            const struct env_timestep *b)
{
    assert_int_equal(a->to_move, b->to_move);
    assert_int_equal(a->seat, b->seat);
    assert_int_equal(a->terminated, b->terminated);
    assert_int_equal(a->truncated, b->truncated);
    assert_int_equal(a->steps, b->steps);
    assert_memory_equal(a->obs, b->obs, (size_t)s->obs_size * sizeof(float));
    assert_memory_equal(a->legal_all, b->legal_all,
                        (size_t)s->players * (size_t)s->mask_words * 8);
    assert_memory_equal(a->reward, b->reward,
                        (size_t)s->players * sizeof(double));
    assert_memory_equal(a->returns, b->returns,
                        (size_t)s->players * sizeof(double));
}

static bool done(const struct env_timestep *ts)
{
    return ts->terminated || ts->truncated;
}

static bool mask_empty(const uint64_t *m, int words)
{
    for (int w = 0; w < words; w++)
        if (m[w])
            return false;
    return true;
}

/* A live reset timestep: nothing earned yet, whatever happened inside
 * reset (PROTOCOL.md section 6.5). */
static void assert_zero_start(const struct env_shape *s,
                              const struct env_timestep *ts)
{
    for (int seat = 0; seat < s->players; seat++) {
        assert_true(ts->returns[seat] == 0.0);
        assert_true(ts->reward[seat] == 0.0);
    }
}

/* ---- determinism ------------------------------------------------------- */

/* Plays a and b in lockstep from seed with the same actions and checks
 * every timestep byte for byte. a has already played an episode from
 * another seed, so this also checks that reset reseeds the opponents. */
static void lockstep(const char *spec, const char *opp, uint64_t seed)
{
    env_t *a = make_env(spec, 0, opp, 0), *b = make_env(spec, 0, opp, 0);
    const struct env_shape *s = env_shape(a);
    struct env_timestep ta, tb;
    struct rng ra = {seed}, rb = {seed};
    assert_int_equal(env_reset(a, seed + 1000, &ta), 0);
    while (!done(&ta))
        assert_int_equal(random_step(a, &ta, &ra, &ta), 0);
    rng_seed(&ra, seed);
    assert_int_equal(env_reset(a, seed, &ta), 0);
    assert_int_equal(env_reset(b, seed, &tb), 0);
    assert_ts_equal(s, &ta, &tb);
    while (!done(&ta)) {
        assert_int_equal(random_step(a, &ta, &ra, &ta), 0);
        assert_int_equal(random_step(b, &tb, &rb, &tb), 0);
        assert_ts_equal(s, &ta, &tb);
        assert_memory_equal(env_state(a), env_state(b),
                            env_game(a)->def->state_size);
    }
    env_destroy(&a);
    env_destroy(&b);
}

static void test_same_seed_same_trajectory(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            lockstep(specs[i], NULL, seed);
            lockstep(specs[i], "random", seed);
        }
}

/* True when some seat's observation differs between a and b. */
static bool views_differ(env_t *a, env_t *b)
{
    const struct env_shape *s = env_shape(a);
    float oa[s->obs_size], ob[s->obs_size];
    for (int seat = 0; seat < s->players; seat++) {
        assert_int_equal(env_observe(a, seat, oa), 0);
        assert_int_equal(env_observe(b, seat, ob), 0);
        if (memcmp(oa, ob, sizeof oa))
            return true;
    }
    return false;
}

/* Every registered game has chance (a deal, a roll), so two seeds must
 * part ways: played with the same actions for as long as both agree, some
 * seat's view must differ at some point (otherwise the seed is not
 * reaching the game). */
static void test_different_seeds_differ(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS);
    for (int i = 0; i < n; i++) {
        env_t *a = make_env(specs[i], 0, NULL, 0);
        env_t *b = make_env(specs[i], 0, NULL, 0);
        const struct env_shape *s = env_shape(a);
        struct env_timestep ta, tb;
        struct rng ra = {1}, rb = {1};
        assert_int_equal(env_reset(a, 1, &ta), 0);
        assert_int_equal(env_reset(b, 2, &tb), 0);
        bool differ = false;
        while (!differ && !ta.terminated) {
            differ = views_differ(a, b) || ta.to_move != tb.to_move ||
                     memcmp(ta.legal_all, tb.legal_all,
                            (size_t)s->players * (size_t)s->mask_words * 8);
            if (differ || tb.terminated)
                break;
            assert_int_equal(random_step(a, &ta, &ra, &ta), 0);
            assert_int_equal(random_step(b, &tb, &rb, &tb), 0);
        }
        if (!differ)
            fail_msg("%s: seeds 1 and 2 play out identically", specs[i]);
        env_destroy(&a);
        env_destroy(&b);
    }
}

/* ---- rewards ----------------------------------------------------------- */

/* Single-agent: the learner is asked to act at every timestep until the
 * end, reset reports zero returns, and the rewards add up to the final
 * return (the game's own returns at the terminal state), including what
 * the deal and the opponents' moves inside reset scored. */
static void single_agent_episode(const char *spec, int learner, uint64_t seed)
{
    env_t *e = make_env(spec, 0, "random", learner);
    const struct env_shape *s = env_shape(e);
    const struct game *g = env_game(e);
    struct env_timestep ts;
    struct rng r = {seed};
    assert_int_equal(env_reset(e, seed, &ts), 0);
    if (!ts.terminated)
        assert_zero_start(s, &ts);
    double sum = 0;
    int steps = 0;
    while (!ts.terminated) {
        assert_int_equal(ts.seat, learner);
        assert_true((ts.to_move >> learner) & 1);
        assert_false(mask_empty(ts.legal, s->mask_words));
        assert_int_equal(random_step(e, &ts, &r, &ts), 0);
        assert_int_equal(ts.steps, ++steps);
        assert_false(ts.truncated);
        assert_true(steps <= g->dims.max_length);
        sum += ts.reward[learner];
    }
    double final[GAME_MAX_PLAYERS];
    g->def->returns(g, env_state(e), final);
    if (steps)
        assert_true(fabs(sum - final[learner]) < EPS);
    else /* over at reset: the reset shows the result */
        assert_true(fabs(ts.returns[learner] - final[learner]) < EPS);
    assert_true(mask_empty(ts.legal, s->mask_words));
    assert_int_equal(ts.to_move, 0);
    env_destroy(&e);
}

static void test_single_agent_rewards_sum_to_return(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS);
    for (int i = 0; i < n; i++) {
        env_t *e = make_env(specs[i], 0, NULL, 0);
        int players = env_shape(e)->players;
        env_destroy(&e);
        for (int learner = 0; learner < players; learner++)
            for (uint64_t seed = 1; seed <= 2; seed++)
                single_agent_episode(specs[i], learner, seed);
    }
}

/* Multi-agent: every timestep reports every seat's reward, and each
 * seat's sum equals its final return (returns at reset are zero even where
 * the deal scores, as in My Bird Sings). Along the way the timestep must
 * describe the seat to act. */
static void multi_agent_episode(const char *spec, uint64_t seed)
{
    env_t *e = make_env(spec, 0, NULL, 0);
    const struct env_shape *s = env_shape(e);
    const struct game *g = env_game(e);
    struct env_timestep ts;
    struct rng r = {seed};
    double sum[GAME_MAX_PLAYERS] = {0};
    float obs[s->obs_size];
    int last = -1;
    assert_int_equal(env_reset(e, seed, &ts), 0);
    if (!ts.terminated)
        assert_zero_start(s, &ts);
    else
        memcpy(sum, ts.returns, sizeof(double) * (size_t)s->players);
    while (!ts.terminated) {
        last = ts.seat;
        assert_int_equal(ts.seat, __builtin_ctz(ts.to_move));
        assert_int_equal(env_observe(e, ts.seat, obs), 0);
        assert_memory_equal(obs, ts.obs, sizeof obs);
        for (int seat = 0; seat < s->players; seat++)
            assert_int_equal(
                mask_empty(ts.legal_all + seat * s->mask_words, s->mask_words),
                !((ts.to_move >> seat) & 1));
        assert_int_equal(random_step(e, &ts, &r, &ts), 0);
        assert_true(ts.steps <= g->dims.max_length);
        for (int seat = 0; seat < s->players; seat++)
            sum[seat] += ts.reward[seat];
    }
    /* The terminal timestep is seen by the seat that moved last. */
    if (last >= 0)
        assert_int_equal(ts.seat, last);
    double final[GAME_MAX_PLAYERS];
    g->def->returns(g, env_state(e), final);
    for (int seat = 0; seat < s->players; seat++)
        assert_true(fabs(sum[seat] - final[seat]) < EPS);
    env_destroy(&e);
}

static void test_multi_agent_rewards_sum_to_returns(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS);
    for (int i = 0; i < n; i++)
        for (uint64_t seed = 1; seed <= 4; seed++)
            multi_agent_episode(specs[i], seed);
}

/* ---- truncation and refusals ------------------------------------------ */

/* Plays spec with max_steps = 3: the third step truncates (unless the
 * game ended first) and the episode is then over for the caller, with
 * nobody to act and every mask empty (PROTOCOL.md section 6.2); a further
 * step is refused, and reset starts afresh. Returns whether it truncated. */
static bool truncate_after_3(const char *spec, const char *opp)
{
    env_t *e = make_env(spec, 3, opp, 0);
    const struct env_shape *s = env_shape(e);
    struct env_timestep ts;
    struct rng r = {7};
    assert_int_equal(env_reset(e, 7, &ts), 0);
    for (int k = 1; k <= 3 && !ts.terminated; k++) {
        assert_int_equal(random_step(e, &ts, &r, &ts), 0);
        assert_int_equal(ts.truncated, k == 3 && !ts.terminated);
    }
    bool truncated = ts.truncated;
    if (truncated) {
        assert_int_equal(ts.to_move, 0);
        assert_true(mask_empty(ts.legal_all, s->players * s->mask_words));
        assert_true(mask_empty(ts.legal, s->mask_words));
    }
    assert_int_equal(env_step(e, 0, NULL), ERR_STATE);
    assert_non_null(strstr(env_errmsg(e), "reset"));
    assert_int_equal(env_reset(e, 7, &ts), 0);
    assert_int_equal(ts.steps, 0);
    assert_false(ts.truncated);
    env_destroy(&e);
    return truncated;
}

static void test_truncation_at_max_steps(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS), truncated = 0;
    for (int i = 0; i < n; i++) {
        truncated += truncate_after_3(specs[i], "random");
        truncated += truncate_after_3(specs[i], NULL);
    }
    assert_true(truncated > 0); /* no card game here ends in 3 decisions */
}

/* The lowest action id the seat may not take. */
static int illegal_action(const struct env_shape *s, const uint64_t *mask)
{
    for (int a = 0; a < s->num_actions; a++)
        if (!((mask[a >> 6] >> (a & 63)) & 1))
            return a;
    return s->num_actions;
}

/* An illegal action returns ERR_ILLEGAL_ACTION, names itself, and leaves
 * the env exactly as it was: its state, its timestep, and (single-agent)
 * its opponents, which is checked by finishing the episode in lockstep with
 * a twin that never saw the illegal action. */
static void illegal_in(const char *spec, const char *opp)
{
    env_t *e = make_env(spec, 0, opp, 0), *twin = make_env(spec, 0, opp, 0);
    const struct env_shape *s = env_shape(e);
    size_t size = env_game(e)->def->state_size;
    struct env_timestep ts, tt, again;
    struct rng r = {11}, rt = {11};
    /* Some deals end at once (a bird that sings on the deal): take the
     * first seed from 5 whose episode needs a decision. */
    uint64_t seed = 5;
    do
        assert_int_equal(env_reset(e, seed++, &ts), 0);
    while (ts.terminated);
    assert_int_equal(env_reset(twin, seed - 1, &tt), 0);
    unsigned char before[size];
    memcpy(before, env_state(e), size);
    int bad[] = {illegal_action(s, ts.legal), -1, s->num_actions};
    for (int k = 0; k < 3; k++) {
        char want[32];
        if (env_step(e, bad[k], NULL) != ERR_ILLEGAL_ACTION)
            fail_msg("%s: action %d: %s", spec, bad[k], env_errmsg(e));
        snprintf(want, sizeof want, "action %d ", bad[k]);
        assert_non_null(strstr(env_errmsg(e), want));
    }
    assert_memory_equal(before, env_state(e), size);
    assert_int_equal(env_timestep(e, &again), 0);
    assert_ts_equal(s, &ts, &again);
    while (!ts.terminated) {
        assert_int_equal(random_step(e, &ts, &r, &ts), 0);
        assert_int_equal(random_step(twin, &tt, &rt, &tt), 0);
        assert_ts_equal(s, &ts, &tt);
    }
    env_destroy(&e);
    env_destroy(&twin);
}

static void test_illegal_action_leaves_env_untouched(void **state)
{
    (void)state;
    const char *specs[MAX_SPECS];
    int n = registry_specs(specs, MAX_SPECS);
    for (int i = 0; i < n; i++) {
        illegal_in(specs[i], NULL);
        illegal_in(specs[i], "random");
    }
}

static void test_misuse_is_refused(void **state)
{
    (void)state;
    const char *spec = game_registry[0]->name;
    env_t *e = make_env(spec, 0, NULL, 0);
    float obs[env_shape(e)->obs_size];
    int actions[GAME_MAX_PLAYERS] = {0};
    struct env_timestep ts;
    assert_int_equal(env_step(e, 0, NULL), ERR_STATE);
    assert_non_null(strstr(env_errmsg(e), "reset"));
    assert_int_equal(env_timestep(e, &ts), ERR_STATE);
    assert_null(env_state(e));
    assert_int_equal(env_observe(e, 0, obs), ERR_STATE);
    assert_int_equal(env_reset(e, 1, &ts), 0);
    assert_string_equal(env_errmsg(e), "");
    assert_int_equal(env_observe(e, -1, obs), ERR_RANGE);
    assert_int_equal(env_observe(e, env_shape(e)->players, obs), ERR_RANGE);
    assert_null(env_opponent(e, 1));
    env_destroy(&e);
    e = make_env(spec, 0, "random", 0);
    assert_int_equal(env_reset(e, 1, &ts), 0);
    assert_int_equal(env_step_joint(e, actions, NULL), ERR_INVAL);
    assert_non_null(strstr(env_errmsg(e), "single-agent"));
    env_destroy(&e);
    env_destroy(&e); /* NULL-safe */
    env_destroy(NULL);
}

/* ---- construction errors ----------------------------------------------- */

static void expect_error(const char *spec, int max_steps, const char *opp,
                         int learner, const char *culprit)
{
    char err[512] = "";
    struct env_options o = {max_steps, opp, learner};
    env_t *e = env_new(spec, &o, err, sizeof err);
    assert_null(e);
    if (!strstr(err, culprit))
        fail_msg("error for %s/%s lacks '%s': %s", spec, opp ? opp : "-",
                 culprit, err);
}

static void test_bad_spec_and_options_name_culprit(void **state)
{
    (void)state;
    const char *g = game_registry[0]->name;
    char spec[128];
    expect_error("no_such_game", 0, NULL, 0, "no_such_game");
    snprintf(spec, sizeof spec, "%s(no_such_option=1)", g);
    expect_error(spec, 0, NULL, 0, "no_such_option");
    expect_error(g, -1, NULL, 0, "max_steps");
    expect_error(g, 0, "random", -1, "learner");
    expect_error(g, 0, "random", GAME_MAX_PLAYERS, "learner");
    expect_error(g, 0, "no_such_bot", 0, "no_such_bot");
    expect_error(g, 0, "random(no_such_knob=2)", 0, "no_such_knob");
    expect_error(g, 0, "random,,random", 0, "empty");
    /* The learner's seat is only checked in single-agent mode. */
    struct env_options o = {0, "", 99};
    env_t *e = env_new(g, &o, NULL, 0);
    assert_non_null(e);
    assert_int_equal(env_shape(e)->learner, -1);
    env_destroy(&e);
}

/* Opponent lists: one spec per other seat in seat order (commas inside
 * parentheses belong to the spec), one spec for all, and a wrong count
 * or a bad spec named with its seat. */
static void test_opponent_lists(void **state)
{
    (void)state;
    const char *g = game_registry[0]->name;
    env_t *e = make_env(g, 0, NULL, 0);
    int players = env_shape(e)->players;
    env_destroy(&e);
    char list[1024] = "", want[64];
    size_t used = 0;
    for (int k = 0; k < players - 1; k++)
        used +=
            (size_t)snprintf(list + used, sizeof list - used,
                             "%s random ( seed = %d )", k ? "," : "", k + 10);
    e = make_env(g, 0, list, 1);
    assert_null(env_opponent(e, 1));
    for (int seat = 0, k = 0; seat < players; seat++) {
        if (seat == 1)
            continue;
        snprintf(want, sizeof want, "random(seed=%d)", 10 + k++);
        assert_string_equal(env_opponent(e, seat), want);
    }
    env_destroy(&e);
    e = make_env(g, 0, "random(seed=3)", 0);
    for (int seat = 1; seat < players; seat++)
        assert_string_equal(env_opponent(e, seat), "random(seed=3)");
    env_destroy(&e);
    /* players specs is one too many for players - 1 seats (and not 1). */
    strcat(list, ",random");
    expect_error(g, 0, list, 0, "opponents");
    /* A bad last spec is reported with the last opponent's seat. */
    used = 0;
    for (int k = 0; k < players - 1; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 k ? "," : "",
                                 k == players - 2 ? "no_such_bot" : "random");
    snprintf(want, sizeof want, "seat %d", players - 1);
    expect_error(g, 0, list, 0, want);
    expect_error(g, 0, list, 0, "no_such_bot");
}

/* ---- simultaneous moves (pennies) ------------------------------------- */

static env_t *pennies_env(const char *opp)
{
    struct game g;
    char err[256];
    pennies_game(&g);
    struct env_options o = {0, opp, 0};
    env_t *e = env_new_game(&g, &o, err, sizeof err);
    if (!e)
        fail_msg("pennies: %s", err);
    return e;
}

static void assert_pair(const double *v, double a, double b)
{
    assert_true(v[0] == a && v[1] == b);
}

/* The rounds worked by hand from the rules in env_test_util.h. */
/* The legal() calls of the game under test, counted by counting_legal. */
static const struct game_def *counted_def;
static int legal_calls;

static int counting_legal(const struct game *g, const void *st, int seat,
                          int *out)
{
    legal_calls++;
    return counted_def->legal(g, st, seat, out);
}

/* A step checks the caller's action against the masks it already holds:
 * legal() runs once per acting seat, for the next timestep's mask, and not
 * again inside the apply (it used to run twice per seat). An illegal
 * action is still refused, and the env left as it was. */
static void test_step_computes_legal_once(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(game_make(&g, "spoil_five", err, sizeof err), 0);
    counted_def = g.def;
    struct game_def def = *g.def;
    def.legal = counting_legal;
    g.def = &def;
    env_t *e = env_new_game(&g, NULL, err, sizeof err);
    assert_non_null(e);
    struct env_timestep ts;
    struct rng r;
    rng_seed(&r, 5);
    assert_int_equal(env_reset(e, 1, &ts), 0);
    int bad = 0;
    while ((ts.legal[bad >> 6] >> (bad & 63)) & 1)
        bad++;
    assert_int_equal(env_step(e, bad, NULL), ERR_ILLEGAL_ACTION);
    for (int i = 0; i < 20 && !ts.terminated; i++) {
        legal_calls = 0;
        assert_int_equal(
            env_step(e, pick_action(&r, ts.legal, env_shape(e)->mask_words),
                     &ts),
            0);
        assert_int_equal(legal_calls, ts.terminated ? 0 : 1);
    }
    env_destroy(&e);
}

static void test_joint_actions_multi_agent(void **state)
{
    (void)state;
    env_t *e = pennies_env(NULL);
    struct env_timestep ts;
    assert_true(env_shape(e)->joint);
    assert_int_equal(env_reset(e, 0, &ts), 0);
    assert_int_equal(ts.to_move, 3);
    assert_int_equal(ts.seat, 0);
    assert_int_equal(ts.legal_all[0], 3); /* both show 0 or 1 */
    assert_int_equal(ts.legal_all[1], 3);
    assert_int_equal(env_step(e, 0, NULL), ERR_STATE);
    assert_non_null(strstr(env_errmsg(e), "joint"));
    /* Round 0: 1 and 1 match, seat 0 scores. */
    assert_int_equal(env_step_joint(e, (int[]){1, 1}, &ts), 0);
    assert_pair(ts.reward, 1, -1);
    /* Round 1: seat 1 may only show 1; showing 0 is refused, unapplied. */
    assert_int_equal(ts.legal_all[1], 2);
    assert_int_equal(env_step_joint(e, (int[]){0, 0}, NULL),
                     ERR_ILLEGAL_ACTION);
    assert_non_null(strstr(env_errmsg(e), "seat 1"));
    assert_int_equal(env_timestep(e, &ts), 0);
    assert_int_equal(ts.steps, 1);
    /* 0 against 1 differ: seat 1 scores, back to level. */
    assert_int_equal(env_step_joint(e, (int[]){0, 1}, &ts), 0);
    assert_pair(ts.reward, -1, 1);
    assert_pair(ts.returns, 0, 0);
    /* Round 2 is seat 1's alone: the single-seat step works, and a joint
     * step reads only the acting seat's entry. */
    assert_int_equal(ts.to_move, 2);
    assert_int_equal(ts.seat, 1);
    assert_int_equal(ts.legal_all[0], 0);
    float obs[4];
    assert_int_equal(env_observe(e, 0, obs), 0);
    assert_true(obs[0] == 2 && obs[1] == 1 && obs[2] == 1 && obs[3] == 0);
    assert_int_equal(env_step_joint(e, (int[]){-5, 1}, &ts), 0);
    assert_pair(ts.reward, -1, 1);
    /* Round 3: 1 against 0 differ, seat 1 wins 3-1. */
    assert_int_equal(env_step_joint(e, (int[]){1, 0}, &ts), 0);
    assert_true(ts.terminated);
    assert_int_equal(ts.to_move, 0);
    assert_int_equal(ts.seat, 0); /* lowest of the seats that acted last */
    assert_pair(ts.returns, -2, 2);
    assert_true(ts.obs[0] == 4 && ts.obs[1] == 1 && ts.obs[2] == 3);
    assert_int_equal(ts.steps, 4);
    assert_int_equal(env_step_joint(e, (int[]){0, 0}, NULL), ERR_STATE);
    env_destroy(&e);
}

/* Single-agent pennies: the learner (seat 0) acts in rounds 0, 1 and 3
 * while its opponent's moves are supplied by the agent, and round 2 (seat
 * 1 alone) is played without asking the learner: three steps in all. */
static void test_joint_actions_single_agent(void **state)
{
    (void)state;
    env_t *e = pennies_env("random");
    struct env_timestep ts;
    double sum = 0;
    assert_int_equal(env_reset(e, 3, &ts), 0);
    for (int k = 0; !ts.terminated; k++) {
        assert_int_equal(ts.seat, 0);
        assert_int_equal(ts.to_move, 3);
        assert_int_equal(ts.legal_all[1], 0); /* only the learner's row */
        assert_int_equal(env_step(e, k & 1, &ts), 0);
        sum += ts.reward[0];
    }
    assert_int_equal(ts.steps, 3);
    assert_true(ts.obs[0] == PENNIES_ROUNDS);
    assert_true(sum == ts.returns[0]);
    env_destroy(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_trajectory),
        cmocka_unit_test(test_different_seeds_differ),
        cmocka_unit_test(test_single_agent_rewards_sum_to_return),
        cmocka_unit_test(test_multi_agent_rewards_sum_to_returns),
        cmocka_unit_test(test_truncation_at_max_steps),
        cmocka_unit_test(test_illegal_action_leaves_env_untouched),
        cmocka_unit_test(test_misuse_is_refused),
        cmocka_unit_test(test_bad_spec_and_options_name_culprit),
        cmocka_unit_test(test_opponent_lists),
        cmocka_unit_test(test_step_computes_legal_once),
        cmocka_unit_test(test_joint_actions_multi_agent),
        cmocka_unit_test(test_joint_actions_single_agent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
