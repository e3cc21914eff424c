/* test_describe.c — every game's text description counts in good
 * English: one card, one penny, one sweep, never "1 cards" or
 * "1 pennies". Random play through every game (as every seat sees it and
 * as an onlooker sees everything) reaches the states with one card left
 * in a hand, one penny left, one card in a trick.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the headers it needs */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "engine/game.h"

#define EPISODES 40
#define TEXT_MAX 16384

/* Nouns the descriptions count. */
static const char *const plurals[] = {"cards",  "pennies", "sweeps",
                                      "chips",  "tricks",  "points",
                                      "deals",  "games",   NULL};

/* The first "1 NOUNS" in text with no digit before the 1, or NULL. */
static const char *bad_plural(const char *text)
{
    for (const char *p = text; (p = strstr(p, "1 ")); p++) {
        if (p > text && p[-1] >= '0' && p[-1] <= '9')
            continue;
        if (p > text && (p[-1] == '-' || p[-1] == '.'))
            continue; /* "-1 points", "0.1 ..." are not counts of one */
        for (int i = 0; plurals[i]; i++) {
            size_t n = strlen(plurals[i]);
            if (!strncmp(p + 2, plurals[i], n) &&
                !(p[2 + n] >= 'a' && p[2 + n] <= 'z'))
                return p;
        }
    }
    return NULL;
}

/* A random legal action of seat in st. */
static int random_action(const struct game *g, const void *st, int seat,
                         struct rng *rng)
{
    uint64_t *mask = calloc((size_t)(g->dims.num_actions + 63) / 64, 8);
    int n = game_legal_mask(g, st, seat, mask);
    assert_true(n > 0);
    int k = (int)rng_below(rng, (uint32_t)n);
    for (int w = 0;; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1)
            if (!k--) {
                free(mask);
                return w * 64 + __builtin_ctzll(m);
            }
}

static void check_text(const struct game *g, const void *st, int seat,
                       char *text)
{
    g->def->describe(g, st, seat, text, TEXT_MAX);
    const char *bad = bad_plural(text);
    if (bad)
        fail_msg("%s, seat %d: '%.20s' in:\n%s", g->spec, seat, bad, text);
}

static void play_through(const char *spec)
{
    struct game g;
    char err[512], *text = malloc(TEXT_MAX);
    struct rng rng;
    int joint[GAME_MAX_PLAYERS];
    assert_int_equal(game_make(&g, spec, err, sizeof err), 0);
    void *st = malloc(g.def->state_size);
    rng_seed(&rng, 99);
    for (int e = 0; e < EPISODES; e++) {
        assert_int_equal(game_init(&g, st, 1000 + (uint64_t)e, NULL, 0), 0);
        for (int steps = 0; !game_is_terminal(&g, st); steps++) {
            assert_true(steps < g.dims.max_length);
            for (int s = -1; s < g.dims.players; s++)
                check_text(&g, st, s, text);
            int seat = game_current_seat(&g, st);
            if (seat >= 0) {
                assert_int_equal(
                    game_apply(&g, st, seat, random_action(&g, st, seat, &rng)),
                    0);
                continue;
            }
            uint32_t acting = g.def->to_move(&g, st);
            for (int s = 0; s < g.dims.players; s++)
                joint[s] = (acting >> s) & 1 ? random_action(&g, st, s, &rng)
                                             : -1;
            assert_int_equal(game_apply_joint(&g, st, joint), 0);
        }
        for (int s = -1; s < g.dims.players; s++)
            check_text(&g, st, s, text);
    }
    free(st);
    free(text);
}

static void test_every_game(void **state)
{
    (void)state;
    for (int i = 0; i < game_registry_count; i++)
        play_through(game_registry[i]->name);
}

/* Options under which a count of one comes up often. */
static void test_small_counts(void **state)
{
    (void)state;
    play_through("ninety_nine(pennies=1)");
    play_through("thirty_one(players=2)");
    play_through("spoil_five(players=2)");
}

/* The checker itself: it must catch the mistakes and pass the rest. */
static void test_checker(void **state)
{
    (void)state;
    assert_non_null(bad_plural("seat 1: 1 cards | tricks 0"));
    assert_non_null(bad_plural("seat 0: 1 pennies, in"));
    assert_non_null(bad_plural("(1 cards), kitty 0"));
    assert_null(bad_plural("seat 1: 11 cards | 21 pennies"));
    assert_null(bad_plural("seat 1: 1 card | 1 penny | 2 cards"));
    assert_null(bad_plural("score -1 points"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker),
        cmocka_unit_test(test_every_game),
        cmocka_unit_test(test_small_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
