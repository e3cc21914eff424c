/* test_deals.c — the deals op (game_deals): deals begun so far, and at
 * the end all the game held; and the estimate that scores a search cut at
 * a deal's end (game_estimate).
 *
 * Every multi-deal game has an option that fixes how many deals a game
 * holds: a cap (max_deals, max_hands) with a target no game reaches in so
 * few deals, or an exact count (deals, hands, holes, drawings). The rules
 * then say how many deals a game has, whatever is played: with the cap at
 * 3 the count must read 1 from the first move, rise by one at each new
 * deal and read 3 at the end. Ninety-Nine has no such option: every hand
 * puts one seat's penny in the pot, so with one penny each and k players
 * a game is k - 1 hands. Moves are drawn at random from a fixed seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h> /* after the headers it needs */

#include "common/rng.h"
#include "engine/game.h"
#include "game_steps.h"

/* One case: a spec and the deals its games must hold. */
struct deals_case {
    const char *spec; /* game and options */
    int deals;        /* deals every game of spec holds, from the rules */
};

static const struct deals_case cases[] = {
    {"trix(target=5000,max_deals=3)", 3},
    {"trix(players=6,target=5000,max_deals=2)", 2},
    {"trix_exchange(target=1000,max_deals=3)", 3},
    {"trix_exchange(players=6,sides=true,target=1000,max_deals=2)", 2},
    {"rover(target=500,max_deals=3)", 3},
    {"binocle(target=100000,max_deals=3)", 3},
    {"binocle(players=4,soloist=false)", 1},
    {"binokel(target=100000,max_deals=3)", 3},
    {"binokel(players=2,target=100000,max_deals=2)", 2},
    {"klaberjass(target=10000,max_deals=3)", 3},
    {"pinochle(target=100000,max_deals=3)", 3},
    {"bi_jinx(hands=3)", 3},
    {"my_bird_sings(deals=3)", 3},
    {"forty_two(target=1000,max_hands=3)", 3},
    {"call_suit_forty_two(target=1000,max_hands=3)", 3},
    {"nine_card_golf(holes=3)", 3},
    {"nine_card_golf(players=2,holes=1)", 1},
    {"ninety_nine(players=3,pennies=1)", 2},
    {"ninety_nine(players=5,pennies=1)", 4},
    {"loto(method=keno,drawings=3)", 3},
    {"loto", 1},
    {"gyp(target=100,max_deals=3)", 3},
    {"hilo(target=50,max_deals=3)", 3},
};

/* One random step: a legal action for every acting seat. */
static void random_step(const struct game *g, void *st, struct rng *r)
{
    static int legal[1 << 16];
    int joint[GAME_MAX_PLAYERS];
    assert_true(g->dims.max_legal <= 1 << 16);
    uint32_t m = g->def->to_move(g, st);
    for (uint32_t b = m; b; b &= b - 1) {
        int s = __builtin_ctz(b);
        int n = g->def->legal(g, st, s, legal);
        assert_true(n > 0);
        joint[s] = legal[rng_below(r, (uint32_t)n)];
    }
    assert_int_equal(game_apply_joint(g, st, joint), 0);
}

/* Plays seeded random games of c->spec, checking the count at each step
 * and at the end. */
static void check_case(const struct deals_case *c, uint64_t seed)
{
    char err[256];
    struct game g;
    if (game_make(&g, c->spec, err, sizeof err))
        fail_msg("%s: %s", c->spec, err);
    void *st = malloc(g.def->state_size);
    assert_non_null(st);
    struct rng r;
    rng_seed(&r, seed);
    assert_int_equal(game_init(&g, st, seed, NULL, 0), 0);
    assert_int_equal(game_deals(&g, st), 1);
    int rises = 0, steps = 0;
    while (!game_is_terminal(&g, st)) {
        int before = game_deals(&g, st);
        random_step(&g, st, &r);
        int after = game_deals(&g, st);
        if (after < before || after > before + 1)
            fail_msg("%s seed %llu step %d: deals %d -> %d", c->spec,
                     (unsigned long long)seed, steps, before, after);
        rises += after - before;
        assert_true(++steps <= g.dims.max_length);
    }
    if (game_deals(&g, st) != c->deals)
        fail_msg("%s seed %llu: %d deals at the end, %d by the rules",
                 c->spec, (unsigned long long)seed, game_deals(&g, st),
                 c->deals);
    assert_int_equal(rises, c->deals - 1);
    free(st);
}

static void test_counts_follow_the_rules(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint64_t seed = 1; seed <= 4; seed++)
            check_case(&cases[i], seed);
}

/* A one-deal game reads 1 throughout, terminal included. */
static void test_one_deal_game(void **state)
{
    (void)state;
    static const struct deals_case one[] = {
        {"trix_authors", 1},
        {"dice", 1},
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
        check_case(&one[i], 7);
}

/* Starts spec in st (caller storage of state_size bytes) with the pack
 * prefix deck, given by card names. */
static void *start_deck(struct game *g, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[2 * CARDS_IN_PACK];
    if (game_make(g, spec, err, sizeof err))
        fail_msg("%s", err);
    int n = game_deck_parse(g, deck, cards, 2 * CARDS_IN_PACK, err,
                            sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    void *st = malloc(g->def->state_size);
    assert_non_null(st);
    assert_int_equal(game_init(g, st, 1, cards, n), 0);
    return st;
}

/* Ninety-Nine, hands worked by hand (the deals of test_ninety_nine).
 * Four players: s1 plays 4C, s0 kings to 99, s3 cannot play and lays
 * down: the first hand is over and the second dealt, so 2 deals. Two
 * players with one penny: s1 kings, s0 lays down his only penny and the
 * game ends after its one hand. */
static void test_ninety_nine_by_hand(void **state)
{
    (void)state;
    struct game g;
    void *st = start_deck(&g, "ninety_nine(players=4)",
                          "4C 6D 2S KD 7C 6H 3S 8D 8C 7H 5S 8S 2H 3H 4H");
    assert_int_equal(game_deals(&g, st), 1);
    steps_act(&g, st, 1, "play 4♣");
    steps_act(&g, st, 0, "play K♦");
    assert_int_equal(game_deals(&g, st), 1);
    steps_act(&g, st, 3, "lay down");
    assert_int_equal(game_deals(&g, st), 2);
    assert_false(game_is_terminal(&g, st));
    free(st);

    st = start_deck(&g, "ninety_nine(players=2,pennies=1)",
                    "KS 2C 6S 3C 7S 5C 8S");
    steps_act(&g, st, 1, "play K♠");
    steps_act(&g, st, 0, "lay down");
    assert_true(game_is_terminal(&g, st));
    assert_int_equal(game_deals(&g, st), 1);
    free(st);
}

/* game_estimate_lead by hand. Trix Exchange, four players without
 * sides: a won game returns 1 to the winner and -1/3 to the others.
 * Points 30, 10, 0, 10 with scale 75: seat 0 leads the best other (10) by
 * 20, 20/75 of 1 = 0.2667; seats 1 and 3 trail 30 by 20, 20/75 of -1/3 =
 * -20/225 = -0.0889; seat 2 trails by 30: -30/225 = -0.1333. A lead past
 * the scale counts as the scale: 200 ahead of 0 is 1, 0 behind 200 is
 * -1/3. With two sides a loser's return is -1. */
static void test_estimate_lead(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    double out[GAME_MAX_PLAYERS];
    assert_int_equal(game_make(&g, "trix_exchange", err, sizeof err), 0);
    double pts[4] = {30, 10, 0, 10};
    game_estimate_lead(&g, pts, 75, out);
    assert_float_equal(out[0], 20.0 / 75, 1e-12);
    assert_float_equal(out[1], -20.0 / 225, 1e-12);
    assert_float_equal(out[2], -30.0 / 225, 1e-12);
    assert_float_equal(out[3], -20.0 / 225, 1e-12);
    double far[4] = {200, 0, 0, 0};
    game_estimate_lead(&g, far, 75, out);
    assert_float_equal(out[0], 1, 1e-12);
    assert_float_equal(out[1], -1.0 / 3, 1e-12);

    /* Two sides of alternate seats (sides=true): partners share. */
    assert_int_equal(
        game_make(&g, "trix_exchange(sides=true)", err, sizeof err), 0);
    double two[2] = {10, 40};
    game_estimate_lead(&g, two, 75, out);
    assert_float_equal(out[0], -30.0 / 75, 1e-12);
    assert_float_equal(out[2], -30.0 / 75, 1e-12);
    assert_float_equal(out[1], 30.0 / 75, 1e-12);
    assert_float_equal(out[3], 30.0 / 75, 1e-12);
}

/* Games with an estimate op beyond those of cases[]. */
static const char *const more_estimates[] = {
    "magna",
    "magna(players=4)",
    "spoil_five(target=45)",
    "spoil_five(target=25,players=5)",
    "spoil_five",
    "casino",
};

/* The spec of estimate case i: cases[] then more_estimates[]. */
static const char *estimate_spec(size_t i)
{
    size_t n = sizeof cases / sizeof cases[0];
    if (i < n)
        return cases[i].spec;
    i -= n;
    return i < sizeof more_estimates / sizeof more_estimates[0]
               ? more_estimates[i]
               : NULL;
}

/* At the end the estimate is the returns, and mid-game it lies in the
 * returns' bounds. */
static void test_estimate_bounds_and_end(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    struct rng r;
    double est[GAME_MAX_PLAYERS], ret[GAME_MAX_PLAYERS];
    const char *spec;
    for (size_t i = 0; (spec = estimate_spec(i)) != NULL; i++) {
        if (game_make(&g, spec, err, sizeof err))
            fail_msg("%s", err);
        void *st = malloc(g.def->state_size);
        assert_non_null(st);
        rng_seed(&r, 5);
        assert_int_equal(game_init(&g, st, 5, NULL, 0), 0);
        while (!game_is_terminal(&g, st)) {
            game_estimate(&g, st, est);
            for (int s = 0; s < g.dims.players; s++)
                assert_true(est[s] >= g.dims.ret_low &&
                            est[s] <= g.dims.ret_high);
            random_step(&g, st, &r);
        }
        game_estimate(&g, st, est);
        g.def->returns(&g, st, ret);
        assert_memory_equal(est, ret, sizeof(double) * (size_t)g.dims.players);
        free(st);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_follow_the_rules),
        cmocka_unit_test(test_one_deal_game),
        cmocka_unit_test(test_ninety_nine_by_hand),
        cmocka_unit_test(test_estimate_lead),
        cmocka_unit_test(test_estimate_bounds_and_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
