/* test_first_dealer.c — the first dealer of the games whose books draw or
 * deal cards for the deal (game_first_dealer).
 *
 * Peel's Spoil-Five deals round until a knave falls; the Standard Trix
 * book has each player draw a card, the lowest sum dealing (in Trix
 * Football the captains draw and the lowest sum chooses to kick or to
 * receive). parlor makes that draw a seeded random seat, from its own
 * derivation of the seed, and lets seat 0 deal when a deck is given (decks
 * read from seat 0's left). Over seeds 1..64 every seat must deal first
 * at least once (a fixed seat 0, or any seat missed, fails), never a seat
 * outside the table; the seat to act first is the one the rules name
 * relative to the dealer; and a one-card deck puts the deal on seat 0.
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

#include "engine/game.h"
#include "game_steps.h"

#define SEEDS 64

/* Who acts first, relative to the first dealer, as the rules say. */
enum first_actor {
    LEFT,   /* the dealer's left: eldest hand, first bidder, leader */
    SELF,   /* the drawn seat itself (Trix Football's chooser) */
    EVERY,  /* every seat at once (simultaneous trading) */
    HOLDER, /* the holder of 1-0 (Rover), wherever the dealer sits */
};

/* One case: a spec, one card of its pack and who acts first. */
struct dealer_case {
    const char *spec;     /* game and options */
    const char *card;     /* a card of the pack, for a one-card deck */
    enum first_actor who; /* the first actor, relative to the dealer */
    const char *dealer_phase; /* a phase in which the dealer acts first
                                 instead (Spoil-Five's turned ace), or
                                 NULL */
    bool uneven; /* the pack does not divide evenly: the dealer, dealt
                    last, holds fewer cards than his left */
};

static const struct dealer_case cases[] = {
    {"spoil_five", "AS", LEFT, "\"dealer_rob\"", false},
    {"spoil_five(players=7)", "AS", LEFT, "\"dealer_rob\"", false},
    {"spoil_five(players=2,fiving=true)", "AS", LEFT, NULL, false},
    {"spoil_five(partnerships=true)", "AS", LEFT, "\"dealer_rob\"", false},
    {"trix", "7-3", LEFT, NULL, false},
    {"trix(players=7)", "7-3", LEFT, NULL, false},
    {"forty_two", "3-1", LEFT, NULL, false},
    {"call_suit_forty_two", "3-1", LEFT, NULL, false},
    {"gyp", "7-3", LEFT, NULL, false},
    {"gyp(players=5)", "7-3", LEFT, NULL, false},
    {"hilo", "7-5", LEFT, NULL, false},
    {"hilo(players=4)", "7-5", LEFT, NULL, false},
    {"magna", "7-5", LEFT, NULL, false},
    {"magna(players=3)", "7-5", LEFT, NULL, false},
    {"rover", "7-3", HOLDER, NULL, false},
    {"rover(players=8)", "7-3", HOLDER, NULL, true},
    {"trix_authors", "7-3", LEFT, NULL, false},
    {"trix_authors(players=6)", "7-3", LEFT, NULL, false},
    {"trix_exchange(players=3)", "3-1", EVERY, NULL, true},
    {"trix_exchange(players=7)", "3-1", EVERY, NULL, true},
    {"trix_football", "3-1", SELF, NULL, false},
};

/* The seat that dealt st's first deal (the chooser in Trix Football). */
static int dealer_of(const struct dealer_case *c, const struct game *g,
                     const void *st)
{
    if (c->who == SELF)
        return game_current_seat(g, st);
    return steps_view_int(g, st, 0, "dealer");
}

/* The hand sizes of the view, seat by seat, into out[players]. */
static void hand_sizes(const struct game *g, const void *st, int *out)
{
    char text[512];
    steps_view_text(g, st, 0, "hand_sizes", text, sizeof text);
    const char *p = text;
    assert_true(*p == '[');
    for (int s = 0; s < g->dims.players; s++) {
        char *end;
        out[s] = (int)strtol(p + 1, &end, 10);
        assert_true(end != p + 1);
        p = end;
        if (*p == ',')
            p++;
    }
    assert_true(*p == ']');
}

/* Asserts that the first seat to act is the one the rules name, and
 * that an uneven deal left the dealer short. */
static void check_first_actor(const struct dealer_case *c,
                              const struct game *g, const void *st,
                              int dealer)
{
    int n = g->dims.players, seat = game_current_seat(g, st), want;
    char text[512];
    if (c->uneven) {
        int size[GAME_MAX_PLAYERS];
        hand_sizes(g, st, size);
        for (int s = 0; s < n; s++)
            assert_true(size[dealer] <= size[s]);
        assert_true(size[dealer] < size[(dealer + 1) % n]);
    }
    switch (c->who) {
    case EVERY:
        assert_int_equal(g->def->to_move(g, st), (1u << n) - 1);
        return;
    case HOLDER:
        steps_view_text(g, st, seat, "hand", text, sizeof text);
        if (!strstr(text, "\"1-0\""))
            fail_msg("%s: seat %d acts first holding %s", c->spec, seat,
                     text);
        return;
    case SELF:
        want = dealer;
        break;
    default:
        steps_view_text(g, st, 0, "phase", text, sizeof text);
        want = c->dealer_phase && !strcmp(text, c->dealer_phase)
                   ? dealer
                   : (dealer + 1) % n;
    }
    if (seat != want)
        fail_msg("%s: dealer %d: seat %d acts first, not %d", c->spec,
                 dealer, seat, want);
}

static void start(const struct dealer_case *c, struct game *g, void **st)
{
    char err[256];
    if (game_make(g, c->spec, err, sizeof err))
        fail_msg("%s: %s", c->spec, err);
    *st = malloc(g->def->state_size);
    assert_non_null(*st);
}

/* Seeds 1..64 without a deck: a seat in range each time, every seat at
 * least once, and the first actor named by the rules. */
static void test_seeded_dealer(void **state)
{
    (void)state;
    int missed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct dealer_case *c = &cases[i];
        struct game g;
        void *st;
        int seen[GAME_MAX_PLAYERS] = {0};
        start(c, &g, &st);
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            assert_int_equal(game_init(&g, st, seed, NULL, 0), 0);
            int d = dealer_of(c, &g, st);
            if (d < 0 || d >= g.dims.players)
                fail_msg("%s seed %llu: dealer %d", c->spec,
                         (unsigned long long)seed, d);
            seen[d]++;
            check_first_actor(c, &g, st, d);
        }
        for (int s = 0; s < g.dims.players; s++)
            if (!seen[s]) {
                print_error("%s: seat %d never dealt first in %d seeds\n",
                            c->spec, s, SEEDS);
                missed++;
            }
        free(st);
    }
    assert_int_equal(missed, 0);
}

/* A one-card deck: seat 0 deals, whatever the seed. */
static void test_deck_means_seat_zero(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct dealer_case *c = &cases[i];
        struct game g;
        void *st;
        uint8_t deck[4];
        char err[256];
        start(c, &g, &st);
        int nd = game_deck_parse(&g, c->card, deck, 4, err, sizeof err);
        if (nd != 1)
            fail_msg("%s: deck %s: %s", c->spec, c->card, err);
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            assert_int_equal(game_init(&g, st, seed, deck, nd), 0);
            assert_int_equal(dealer_of(c, &g, st), 0);
            check_first_actor(c, &g, st, 0);
        }
        free(st);
    }
}

/* The draw itself: uniform over the seats (6,400 seeds, four seats: each
 * count 1,600 on average with a standard deviation of about 35, so 1,400
 * to 1,800 is more than five deviations either way); seat 0 with a deck;
 * no deck when the pointer is given without cards. */
static void test_draw_is_uniform(void **state)
{
    (void)state;
    int count[4] = {0};
    uint8_t card = 0;
    for (uint64_t seed = 0; seed < 6400; seed++) {
        int d = game_first_dealer(seed, 4, NULL, 0);
        assert_true(d >= 0 && d < 4);
        count[d]++;
        assert_int_equal(game_first_dealer(seed, 4, &card, 1), 0);
        assert_int_equal(game_first_dealer(seed, 4, &card, 0), d);
    }
    for (int s = 0; s < 4; s++)
        assert_true(count[s] >= 1400 && count[s] <= 1800);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeded_dealer),
        cmocka_unit_test(test_deck_means_seat_zero),
        cmocka_unit_test(test_draw_is_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
