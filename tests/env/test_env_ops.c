/* test_env_ops.c — what env_step reports against the game's own ops.
 *
 * The env keeps its masks up to date by clearing only the words the last
 * fill set, and takes a short path for the usual multi-agent turn step;
 * these tests hold every timestep of random play to what the game's ops
 * say directly about the same state: the legal masks of every seat, the
 * observation, the rewards and returns, the seats to act. In multi-agent
 * mode a shadow state stepped with game_apply must also equal the env's.
 * Refusals are checked word for word, with the legal list taken from the
 * game's legal() op, and a caller's observation buffer (what venv uses to
 * skip a copy) is checked to be written in place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "env/env.h"
#include "tests/env/env_test_util.h"

/* Steps played per spec and mode by test_timesteps_match_game_ops. */
#define OPS_STEPS 300

/* What the game's ops say a timestep must hold, and the shadow state. */
struct expect {
    const struct game *g;  /* the env's game */
    void *shadow;          /* stepped with game_apply (multi-agent) */
    double ret[GAME_MAX_PLAYERS]; /* returns at the last timestep */
    uint64_t *mask;        /* one seat's mask, from game_legal_mask */
    float *obs;            /* one observation, from observe */
};

static env_t *make_env(const struct game *g, const char *opp)
{
    char err[512];
    struct env_options o = {0, opp, 0};
    env_t *e = env_new_game(g, &o, err, sizeof err);
    if (!e)
        fail_msg("env_new(%s, opponents=%s): %s", g->spec, opp ? opp : "-",
                 err);
    return e;
}

/* Checks ts against the ops applied to the env's current state st: every
 * acting seat's mask (zero rows elsewhere), the observation of ts->seat,
 * and the rewards as differences of returns (from zero after a reset that
 * leaves the game running). */
static void check_timestep(env_t *e, struct expect *x,
                           const struct env_timestep *ts, bool reset)
{
    const struct env_shape *s = env_shape(e);
    const struct game *g = x->g;
    const void *st = env_state(e);
    size_t words = (size_t)s->mask_words;
    uint32_t m = g->def->to_move(g, st);
    double now[GAME_MAX_PLAYERS];
    assert_int_equal(ts->to_move, m);
    assert_int_equal(ts->terminated, m == 0);
    if (s->learner >= 0)
        m &= 1u << s->learner;
    for (int seat = 0; seat < s->players; seat++) {
        memset(x->mask, 0, words * 8);
        if ((m >> seat) & 1)
            game_legal_mask(g, st, seat, x->mask);
        if (memcmp(x->mask, ts->legal_all + (size_t)seat * words, words * 8))
            fail_msg("%s: seat %d's mask differs from legal()", g->spec,
                     seat);
    }
    assert_memory_equal(ts->legal, ts->legal_all + (size_t)ts->seat * words,
                        words * 8);
    g->def->observe(g, st, ts->seat, x->obs);
    assert_memory_equal(ts->obs, x->obs, (size_t)s->obs_size * sizeof(float));
    g->def->returns(g, st, now);
    for (int seat = 0; seat < s->players; seat++) {
        double ret = reset && !ts->terminated ? 0 : now[seat];
        double reward = reset ? 0 : now[seat] - x->ret[seat];
        if (ts->reward[seat] != reward || ts->returns[seat] != ret)
            fail_msg("%s: seat %d: reward %g returns %g, want %g and %g",
                     g->spec, seat, ts->reward[seat], ts->returns[seat],
                     reward, ret);
        x->ret[seat] = ret;
    }
}

/* Draws one action per acting seat of ts into actions; returns the mask
 * of the seats the caller drives. */
static uint32_t draw(env_t *e, const struct env_timestep *ts, struct rng *r,
                     int *actions)
{
    const struct env_shape *s = env_shape(e);
    uint32_t m = s->learner >= 0 ? 1u << s->learner : ts->to_move;
    for (uint32_t k = m; k; k &= k - 1) {
        int seat = __builtin_ctz(k);
        actions[seat] = pick_action(
            r, ts->legal_all + (size_t)seat * (size_t)s->mask_words,
            s->mask_words);
    }
    return m;
}

/* Plays OPS_STEPS random steps of g (resetting when an episode ends),
 * checking every timestep; opp NULL: multi-agent, with a shadow state. */
static void play_checked(const struct game *g, const char *opp)
{
    env_t *e = make_env(g, opp);
    struct expect x = {g, NULL, {0}, NULL, NULL};
    const struct env_shape *s = env_shape(e);
    struct env_timestep ts;
    struct rng r;
    int actions[GAME_MAX_PLAYERS] = {0};
    uint64_t seed = 11;
    x.shadow = malloc(g->def->state_size);
    x.mask = malloc((size_t)s->mask_words * 8);
    x.obs = malloc((size_t)s->obs_size * sizeof(float));
    rng_seed(&r, 3);
    for (int k = 0; k < OPS_STEPS; k++) {
        bool reset = k == 0 || ts.terminated;
        if (reset) {
            assert_int_equal(env_reset(e, seed, &ts), 0);
            assert_int_equal(game_init(g, x.shadow, seed++, NULL, 0), 0);
        } else {
            uint32_t m = draw(e, &ts, &r, actions);
            bool joint = (m & (m - 1)) != 0;
            assert_int_equal(joint ? env_step_joint(e, actions, &ts)
                                   : env_step(e, actions[__builtin_ctz(m)],
                                              &ts),
                             0);
            if (!opp)
                assert_int_equal(
                    joint ? game_apply_joint(g, x.shadow, actions)
                          : game_apply(g, x.shadow, __builtin_ctz(m),
                                       actions[__builtin_ctz(m)]),
                    0);
        }
        if (!opp)
            assert_memory_equal(x.shadow, env_state(e), g->def->state_size);
        check_timestep(e, &x, &ts, reset);
    }
    free(x.obs);
    free(x.mask);
    free(x.shadow);
    env_destroy(&e);
}

/* Games with one-word masks, several words (Binokel 292 actions, Pinochle
 * 137) and 871 words with a few bits set (Casino), plus the simultaneous
 * ones: a few hundred random steps each, both modes, every timestep equal
 * to the ops' own answer. The rewards are worked out two seats at a time,
 * so odd tables (3, 5, 9 and 13 seats) and the largest (16) are here too,
 * as are one-word masks with more than four legal actions (Trix Authors,
 * up to 27) and with fewer (Dice, one). */
static void test_timesteps_match_game_ops(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "spoil_five",    "nine_card_golf", "casino",        "binokel",
        "pinochle",      "magna",          "trix_exchange", "trix_football",
        "loto(players=3)", "dice(players=16)", "dice(players=5)",
        "thirty_one(players=9)", "my_bird_sings(players=13)",
        "trix_authors(players=3)",
    };
    char err[256];
    struct game g;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        if (game_make(&g, specs[i], err, sizeof err))
            fail_msg("%s: %s", specs[i], err);
        play_checked(&g, NULL);
        play_checked(&g, "random");
    }
    pennies_game(&g);
    play_checked(&g, NULL);
}

/* ---- the observation buffer -------------------------------------------- */

/* A caller's observation buffer receives the current observation at once
 * and every later one (Nine-Card Golf's 641 floats, as observe writes
 * them), timesteps point at it, and once the env is given back its own
 * buffer the caller's is left alone. */
static void test_obs_buffer_is_written_in_place(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    struct env_timestep ts, again;
    struct rng r;
    assert_int_equal(game_make(&g, "nine_card_golf", err, sizeof err), 0);
    env_t *e = make_env(&g, NULL);
    size_t bytes = (size_t)g.dims.obs_size * sizeof(float);
    float *mine = malloc(bytes), *want = malloc(bytes);
    int words = env_shape(e)->mask_words;
    rng_seed(&r, 9);
    assert_int_equal(env_reset(e, 3, &ts), 0);
    assert_int_equal(env_step(e, pick_action(&r, ts.legal, words), &ts), 0);
    memset(mine, 0xff, bytes);
    env_set_obs_buffer(e, mine);
    assert_memory_equal(mine, ts.obs, bytes);
    assert_int_equal(env_timestep(e, &again), 0);
    assert_ptr_equal(again.obs, mine);
    for (int k = 0; k < 30 && !ts.terminated; k++) {
        assert_int_equal(env_step(e, pick_action(&r, ts.legal, words), &ts),
                         0);
        assert_ptr_equal(ts.obs, mine);
        g.def->observe(&g, env_state(e), ts.seat, want);
        assert_memory_equal(mine, want, bytes);
    }
    env_set_obs_buffer(e, NULL);
    assert_int_equal(env_timestep(e, &again), 0);
    assert_true(again.obs != mine);
    assert_memory_equal(again.obs, mine, bytes);
    memset(mine, 0xff, bytes);
    memcpy(want, mine, bytes);
    assert_int_equal(env_reset(e, 4, &ts), 0);
    assert_memory_equal(mine, want, bytes);
    free(want);
    free(mine);
    env_destroy(&e);
}

/* ---- refusals ---------------------------------------------------------- */

/* The refusal text for action when seat's legal actions are those the
 * game's legal() lists for st: the first twelve, then "...". */
static void expected_refusal(const struct game *g, const void *st, int seat,
                             int action, char *out, size_t len)
{
    int *list = malloc(sizeof(int) * (size_t)g->dims.max_legal);
    int n = g->def->legal(g, st, seat, list);
    size_t k = (size_t)snprintf(out, len,
                                "action %d is not legal for seat %d (legal:",
                                action, seat);
    for (int i = 0; i < n && i < 12; i++)
        k += (size_t)snprintf(out + k, len - k, " %d", list[i]);
    snprintf(out + k, len - k, "%s)", n > 12 ? " ..." : "");
    free(list);
}

/* An action outside seat's legal list. */
static int an_illegal_action(const struct game *g, const void *st, int seat)
{
    uint64_t *mask = calloc((size_t)(g->dims.num_actions + 63) / 64, 8);
    game_legal_mask(g, st, seat, mask);
    int a = 0;
    while ((mask[a >> 6] >> (a & 63)) & 1)
        a++;
    free(mask);
    return a;
}

/* Refuses three illegal actions at the first decision of spec (opp as in
 * env_options) with ERR_ILLEGAL_ACTION and the exact text, leaving the
 * state and the timestep as they were, then plays a legal step. */
static void refuses_in(const char *spec, const char *opp)
{
    char err[512], want[512];
    struct game g;
    struct env_timestep ts, again;
    assert_int_equal(game_make(&g, spec, err, sizeof err), 0);
    env_t *e = make_env(&g, opp);
    const struct env_shape *s = env_shape(e);
    /* Zeroed so that the padding compares equal too. */
    memset(&ts, 0, sizeof ts);
    memset(&again, 0, sizeof again);
    assert_int_equal(env_reset(e, 5, &ts), 0);
    unsigned char *before = malloc(g.def->state_size);
    memcpy(before, env_state(e), g.def->state_size);
    int bad[] = {an_illegal_action(&g, before, ts.seat), -1, s->num_actions};
    for (int k = 0; k < 3; k++) {
        expected_refusal(&g, before, ts.seat, bad[k], want, sizeof want);
        assert_int_equal(env_check_step(e, bad[k]), ERR_ILLEGAL_ACTION);
        assert_string_equal(env_errmsg(e), want);
        assert_int_equal(env_step(e, bad[k], NULL), ERR_ILLEGAL_ACTION);
        assert_string_equal(env_errmsg(e), want);
        assert_memory_equal(before, env_state(e), g.def->state_size);
    }
    assert_int_equal(env_timestep(e, &again), 0);
    assert_memory_equal(&ts, &again, sizeof ts);
    int *list = malloc(sizeof(int) * (size_t)g.dims.max_legal);
    assert_true(g.def->legal(&g, before, ts.seat, list) > 0);
    assert_int_equal(env_step(e, list[0], &ts), 0);
    assert_string_equal(env_errmsg(e), "");
    free(list);
    free(before);
    env_destroy(&e);
}

/* The env's own observation starts on a 64-byte cache line in every
 * game, whatever the sizes of the state and masks before it in the env's
 * block: games that write it with 32-byte stores take their fast path. */
static void test_own_obs_is_line_aligned(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    struct env_timestep ts;
    for (int i = 0; i < game_registry_count; i++) {
        if (game_make(&g, game_registry[i]->name, err, sizeof err))
            fail_msg("%s: %s", game_registry[i]->name, err);
        env_t *e = make_env(&g, NULL);
        assert_int_equal(env_reset(e, 1, &ts), 0);
        if ((uintptr_t)ts.obs % 64)
            fail_msg("%s: observation at %p, not on a 64-byte line",
                     g.spec, (const void *)ts.obs);
        env_destroy(&e);
    }
}

/* Both stepping paths (multi-agent turn step, single-agent step) refuse
 * an illegal action before anything moves, in the words they always
 * used; Casino's first decision has more than twelve legal actions. */
static void test_illegal_action_refused_word_for_word(void **state)
{
    (void)state;
    static const char *const specs[] = {"spoil_five", "casino", "binokel",
                                        "thirty_one(players=3)"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        refuses_in(specs[i], NULL);
        refuses_in(specs[i], "random");
    }
}

/* Simultaneous steps: in pennies' second round seat 1 may show only 1;
 * a joint step showing 0 is refused naming seat 1 and its one legal
 * action, a lone env_step is refused as several seats act, and the
 * round then plays. */
static void test_joint_refusal_word_for_word(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    struct env_timestep ts;
    pennies_game(&g);
    env_t *e = env_new_game(&g, NULL, err, sizeof err);
    assert_non_null(e);
    assert_int_equal(env_reset(e, 1, &ts), 0);
    int actions[GAME_MAX_PLAYERS] = {1, 0};
    assert_int_equal(env_step_joint(e, actions, &ts), 0);
    assert_int_equal(env_step_joint(e, actions, &ts), ERR_ILLEGAL_ACTION);
    assert_string_equal(env_errmsg(e),
                        "action 0 is not legal for seat 1 (legal: 1)");
    assert_int_equal(env_step(e, 1, &ts), ERR_STATE);
    assert_string_equal(env_errmsg(e),
                        "2 seats act at once (mask 0x3): use the joint step");
    actions[1] = 1;
    assert_int_equal(env_step_joint(e, actions, &ts), 0);
    assert_int_equal(ts.to_move, 2u);
    env_destroy(&e);
}

/* ---- large masks, any order -------------------------------------------- */

/* "Spread", a test game with masks of 4 s + 1 words (num_actions is
 * 64 (4 s + 1)), for SPREAD_ROUNDS rounds: in even rounds seat 0 acts
 * alone, in odd ones both seats act at once. In round r a seat may play
 * r + 64 s k + seat for k = 0..4, one action in each of the words 0, s,
 * 2 s, 3 s and 4 s, and r + 32 + seat, a second one in word 0; seat 0
 * lists them in ascending order, seat 1 goes back to word 0 after word
 * 4 s (which legal() must not do, but which must not fool an env).
 * Nothing is scored. */
#define SPREAD_ROUNDS 6

static int spread_stride(const struct game *g)
{
    return (g->dims.num_actions / 64 - 1) / 4;
}

static uint32_t spread_to_move(const struct game *g, const void *st)
{
    int round = *(const int *)st;
    (void)g;
    if (round >= SPREAD_ROUNDS)
        return 0;
    return round % 2 ? 3u : 1u;
}

static int spread_legal(const struct game *g, const void *st, int seat,
                        int *out)
{
    /* word (in strides) * 64 + bit, in listing order */
    static const int order[2][6] = {{0, 32, 64, 128, 192, 256},
                                    {128, 0, 256, 32, 64, 192}};
    int round = *(const int *)st, s = spread_stride(g);
    if (!((spread_to_move(g, st) >> seat) & 1))
        return 0;
    for (int k = 0; k < 6; k++) {
        int o = order[seat][k];
        out[k] = round + (o / 64) * s * 64 + o % 64 + seat;
    }
    return 6;
}

static int spread_init(const struct game *g, void *st, uint64_t seed,
                       const uint8_t *deck, int ndeck)
{
    (void)g, (void)seed, (void)deck, (void)ndeck;
    *(int *)st = 0;
    return 0;
}

static int spread_apply(const struct game *g, void *st, int action)
{
    (void)g, (void)action;
    ++*(int *)st;
    return 0;
}

static int spread_apply_joint(const struct game *g, void *st,
                              const int *actions)
{
    (void)g, (void)actions;
    ++*(int *)st;
    return 0;
}

static void spread_returns(const struct game *g, const void *st, double *out)
{
    (void)g, (void)st;
    out[0] = out[1] = 0;
}

static void spread_observe(const struct game *g, const void *st, int seat,
                           float *out)
{
    (void)g, (void)seat;
    out[0] = (float)*(const int *)st;
}

static const struct game_def spread_def = {
    .name = "spread",
    .long_name = "Spread (test only)",
    .api_version = GAME_API_VERSION,
    .flags = GAME_SIMULTANEOUS | GAME_ZERO_SUM,
    .state_size = sizeof(int),
    .init = spread_init,
    .to_move = spread_to_move,
    .legal = spread_legal,
    .apply = spread_apply,
    .apply_joint = spread_apply_joint,
    .returns = spread_returns,
    .observe = spread_observe,
};

/* Plays Spread with stride s, checking that every timestep holds, for
 * each seat to act, exactly the six actions of the round (whatever order
 * legal() gave them in), and all zero rows for the others: no bit of an
 * earlier round's mask is left behind, whether the row was filled alone
 * or with the other seat's. */
static void play_spread(int s)
{
    struct game g;
    char err[256];
    struct env_timestep ts;
    int words = 4 * s + 1;
    memset(&g, 0, sizeof g);
    g.def = &spread_def;
    g.dims.players = 2;
    g.dims.teams = 2;
    g.dims.team[1] = 1;
    g.dims.num_actions = 64 * words;
    g.dims.max_legal = 6;
    g.dims.obs_size = 1;
    g.dims.obs_high = SPREAD_ROUNDS;
    g.dims.max_length = SPREAD_ROUNDS;
    strcpy(g.spec, "spread");
    env_t *e = env_new_game(&g, NULL, err, sizeof err);
    assert_non_null(e);
    assert_int_equal(env_shape(e)->mask_words, words);
    assert_int_equal(env_reset(e, 1, &ts), 0);
    for (int round = 0; round < SPREAD_ROUNDS; round++) {
        uint32_t acting = round % 2 ? 3u : 1u;
        int actions[GAME_MAX_PLAYERS] = {0};
        assert_int_equal(ts.to_move, acting);
        for (int seat = 0; seat < 2; seat++) {
            const uint64_t *row = ts.legal_all + (size_t)seat * words;
            for (int k = 0; k < words; k++) {
                uint64_t want = 0;
                if ((acting >> seat) & 1 && k % s == 0)
                    want = (uint64_t)1 << (round + seat);
                if ((acting >> seat) & 1 && k == 0)
                    want |= (uint64_t)1 << (round + 32 + seat);
                if (row[k] != want)
                    fail_msg("stride %d, round %d, seat %d, word %d: %#llx, "
                             "want %#llx",
                             s, round, seat, k, (unsigned long long)row[k],
                             (unsigned long long)want);
            }
            actions[seat] = round + seat;
        }
        assert_int_equal(round % 2 ? env_step_joint(e, actions, &ts)
                                   : env_step(e, actions[0], &ts),
                         0);
    }
    assert_true(ts.terminated);
    for (int k = 0; k < 2 * words; k++)
        assert_true(ts.legal_all[k] == 0);
    env_destroy(&e);
}

/* Five words (filled word by word, as Binokel's) and 69 (filled without
 * a branch per word, as Casino's). */
static void test_large_masks_in_any_order(void **state)
{
    (void)state;
    play_spread(1);
    play_spread(17);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timesteps_match_game_ops),
        cmocka_unit_test(test_obs_buffer_is_written_in_place),
        cmocka_unit_test(test_own_obs_is_line_aligned),
        cmocka_unit_test(test_illegal_action_refused_word_for_word),
        cmocka_unit_test(test_joint_refusal_word_for_word),
        cmocka_unit_test(test_large_masks_in_any_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
