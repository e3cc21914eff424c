/* test_hilo.c — Hilo rule facts: Read & White's Standard Trix Cards (1904),
 * "Hilo", and docs/games/hilo.md.
 *
 * Every deal comes from an explicit pack. Seat 0 deals the first hand; the
 * pack goes out one card at a time from the eldest (seat 1) round to the
 * dealer, six rounds, then the next card is turned for honors. So with 2
 * players deck[0], deck[2], ... deck[10] are seat 1's cards, deck[1], ...
 * deck[11] seat 0's, deck[12] the turn-up. Expected winners, legal sets
 * and scores are worked out by hand from the rule book in the comments,
 * then read back through the public interface (action names, returns,
 * the structured view).
 *
 * Local card order (legal sets are listed in it): the suits Fives, Sixes,
 * ..., Tens, each from a-0 up to a-a, then Trixie.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h> /* after the headers it needs */

#include "common/err.h"
#include "engine/game.h"
#include "engine/games/hilo.h"
#include "game_steps.h"

/* ---- fixture ----------------------------------------------------------- */

struct hl {
    struct game g;        /* configured game */
    struct hilo_state st; /* its state */
};

static void make(struct hl *t, const char *spec)
{
    char err[256];
    memset(t, 0, sizeof *t);
    if (game_make(&t->g, spec, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t->g.def->state_size, sizeof t->st);
}

/* Makes spec and deals from the pack prefix deck (card names). */
static void start(struct hl *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[TRIX_CARDS];
    make(t, spec);
    int n = game_deck_parse(&t->g, deck, cards, TRIX_CARDS, err, sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(game_init(&t->g, &t->st, 7, cards, n), 0);
}

static int seat_now(struct hl *t)
{
    return game_current_seat(&t->g, &t->st);
}

/* seat, which must be the one to act, takes the action named text. */
static void act(struct hl *t, int seat, const char *text)
{
    steps_act(&t->g, &t->st, seat, text);
}

/* Plays a whole set: seat leader leads, the others follow in turn. */
static void set4(struct hl *t, int leader, const char *a, const char *b,
                 const char *c, const char *d)
{
    const char *cards[4] = {a, b, c, d};
    steps_set(&t->g, &t->st, leader, cards);
}

static void set2(struct hl *t, int leader, const char *a, const char *b)
{
    set4(t, leader, a, b, NULL, NULL);
}

/* Asserts the names of the current seat's legal actions, ", "-joined. */
static void legal_is(struct hl *t, const char *want)
{
    steps_legal_is(&t->g, &t->st, want);
}

static double ret(struct hl *t, int seat)
{
    return steps_ret(&t->g, &t->st, seat);
}

/* Asserts the value under key of seat's view (msgpack's text form). */
static void view_is(struct hl *t, int seat, const char *key, const char *want)
{
    steps_view_is(&t->g, &t->st, seat, key, want);
}

/* Plays the first legal action until the game ends or the deal changes. */
static void play_out_deal(struct hl *t)
{
    int deal = t->st.deal_no, ids[64];
    while (!game_is_terminal(&t->g, &t->st) && t->st.deal_no == deal) {
        int s = seat_now(t);
        assert_true(t->g.def->legal(&t->g, &t->st, s, ids) > 0);
        assert_int_equal(game_apply(&t->g, &t->st, s, ids[0]), 0);
    }
}

/* ---- the pack ------------------------------------------------------------ */

/* Game points: sum 5 (5-0) 4; sum 10 (5-5 6-4 7-3 8-2 9-1 10-0) 1 each;
 * sum 15 (8-7 9-6 10-5) 2 each; sum 20 (10-10) 4: 4 + 6 + 6 + 4 = 20
 * (docs/games/hilo.md, Points). The 52 cards are Fives..Tens (6+7+8+9+10+11 =
 * 51) and Trixie. */
static void test_pack(void **state)
{
    (void)state;
    int total = 0, by_sum[21] = {0}, fives = 0;
    for (int c = 0; c < FT_CARDS; c++) {
        total += hilo_game_value(c);
        by_sum[ft_sum(c) <= 20 ? ft_sum(c) : 0] += hilo_game_value(c);
        fives += ft_suit(c) == 5;
        assert_int_equal(ft_local(ft_trix_id(c)), c);
    }
    assert_int_equal(total, 20);
    assert_int_equal(by_sum[5], 4);
    assert_int_equal(by_sum[10], 6);
    assert_int_equal(by_sum[15], 6);
    assert_int_equal(by_sum[20], 4);
    assert_int_equal(fives, 6);
    assert_int_equal(ft_trix_id(FT_TRIXIE), TRIX_TRIXIE);
    assert_int_equal(ft_local(trix_card(4, 1)), -1); /* not in Hilo */
}

/* A deck holding a card outside the 52 (4-1) is refused at init; so are
 * five players (the book: two, three or four). */
static void test_refusals(void **state)
{
    (void)state;
    struct hl t;
    char err[256];
    uint8_t cards[4];
    make(&t, "hilo");
    int n = game_deck_parse(&t.g, "7-3 4-1", cards, 4, err, sizeof err);
    assert_int_equal(n, 2);
    assert_int_equal(game_init(&t.g, &t.st, 1, cards, n), ERR_INVAL);
    assert_int_not_equal(game_make(&t.g, "hilo(players=5)", err, sizeof err),
                         0);
}

/* ---- the example deal ---------------------------------------------------- */

/* Seat 1 (eldest): Trixie 10-10 5-0 10-5 9-6 8-7, no Seven.
 * Seat 0 (dealer): 7-7 7-0 6-0 6-1 6-2 8-0. Turn-up 7-2: Sevens are
 * honors; the honors dealt are 7-7 (High) and 7-0 (Low), both seat 0's.
 * Play (worked below): seat 1 takes Trixie and game points 4+4+2 = 10,
 * seat 0 takes 9-6 and 8-7, 2+2 = 4: Trixie and Game to seat 1. */
static const char *const example_deck =
    "Trixie 7-7 10-10 7-0 5-0 6-0 10-5 6-1 9-6 6-2 8-7 8-0 7-2";

static void play_example(struct hl *t)
{
    /* Leading, seat 1 may lead Trixie: it holds no honor. */
    legal_is(t, "play 5-0, play 8-7, play 9-6, play 10-5, play 10-10, "
                "play Trixie");
    act(t, 1, "play Trixie");
    /* Trixie led: no suit to follow, any card; 6-0 lets Trixie win. */
    legal_is(t, "play 6-0, play 6-1, play 6-2, play 7-0, play 7-7, "
                "play 8-0");
    act(t, 0, "play 6-0");
    set2(t, 1, "10-10", "6-1"); /* Tens led, no Ten, no honor played */
    set2(t, 1, "5-0", "6-2");
    set2(t, 1, "10-5", "8-0");
    /* Seat 1 leads 9-6; seat 0, void in Nines, holds only honors. */
    act(t, 1, "play 9-6");
    act(t, 0, "play 7-0"); /* an honor takes the set */
    /* Seat 0 leads the High, seat 1 follows with its last card. */
    set2(t, 0, "7-7", "8-7");
}

/* Following: holding the suit led, a player must play it or an honor. */
static void test_follow_or_honor(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo", example_deck);
    act(&t, 1, "stand");
    act(&t, 1, "play 8-7");
    /* Seat 0 holds 8-0 (Eights) and the honors 7-0, 7-7: not the Sixes. */
    legal_is(&t, "play 7-0, play 7-7, play 8-0");
    act(&t, 0, "play 7-0");
    /* The honor wins the set (and leads next). */
    assert_int_equal(seat_now(&t), 0);
    view_is(&t, 0, "game_points", "[2, 0]"); /* 8-7 is worth 2 */
}

/* All four points in one deal: High and Low to the player dealt them
 * (seat 0), Trixie to its winner, Game (10 v 4) to seat 1. Target 10: no
 * one goes out, and the deal passes to seat 1. */
static void test_all_points(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo", example_deck);
    view_is(&t, 1, "honors", "\"Sevens\"");
    view_is(&t, 1, "turn_up", "\"7-2\"");
    act(&t, 1, "stand");
    play_example(&t);
    view_is(&t, 0, "last_deal",
            "{\"high\"=>0, \"low\"=>0, \"trixie\"=>1, \"game\"=>1}");
    view_is(&t, 0, "scores", "[2, 2]");
    view_is(&t, 0, "dealer", "1");
    assert_false(game_is_terminal(&t.g, &t.st));
}

/* Precedence (the book): at 9-9 with game 10, "he who scores High wins out
 * first". target=1 puts both one point from game, as 9-9 does at 10.
 * In the example deal seat 1 makes Trixie and Game, but seat 0's High is
 * applied first: seat 0 wins. */
static void test_nine_all_high_wins(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo(target=1)", example_deck);
    act(&t, 1, "stand");
    play_example(&t);
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 1 && ret(&t, 1) == -1);
    view_is(&t, 0, "scores", "[1, 0]"); /* nothing applied after High */
}

/* "...unless Trixie is turned up by the dealer": Trixie scores first, at
 * the turn. Seat 1 holds the only Seven, so it would make High, but the
 * dealer turned Trixie and has already won before any play. */
static void test_nine_all_trixie_turned(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo(target=1)",
          "7-7 6-0 10-10 6-1 5-0 6-2 10-5 6-3 9-6 6-4 8-7 8-0 Trixie");
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 1 && ret(&t, 1) == -1);
    view_is(&t, 1, "trixie_turned", "1");
}

/* Trixie turned at target 10: 1 to the dealer, and the next card is
 * turned for honors (7-2 here). */
static void test_trixie_turned_scores_dealer(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo",
          "7-7 6-0 10-10 6-1 5-0 6-2 10-5 6-3 9-6 6-4 8-7 8-0 Trixie 7-2");
    view_is(&t, 1, "scores", "[1, 0]");
    view_is(&t, 1, "turn_up", "\"7-2\"");
    view_is(&t, 1, "phase", "\"another_deal\"");
}

/* "If the game stood eight to nine the player with the eight would win out
 * on High and Low although the one with the nine may make Trixie and
 * Game." target=2: the eldest asks for another deal and the dealer gives
 * him a point, so seat 1 stands at 1 (needs 1, like the nine) and seat 0
 * at 0 (needs 2, like the eight). The example deal then gives seat 0 High
 * and Low, seat 1 Trixie and Game: High, Low come first, seat 0 wins. */
static void test_eight_nine_high_low(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo(target=2)", example_deck);
    act(&t, 1, "another deal");
    legal_is(&t, "give 1, deal 3");
    act(&t, 0, "give 1");
    view_is(&t, 0, "scores", "[0, 1]");
    play_example(&t);
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 1 && ret(&t, 1) == -1);
}

/* "If the player with the eight should make High and Trixie, the one with
 * the nine would win out on Low." Seat 1 (needs 1, after "give 1") is
 * dealt 7-0, the Low; seat 0 (needs 2) 7-7, the High, and Trixie.
 * Seat 1: 7-0 6-0 6-1 6-2 8-0 8-1. Seat 0: 7-7 Trixie 9-0 9-1 9-2 9-3. */
static void test_eight_nine_low(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo(target=2)",
          "7-0 7-7 6-0 Trixie 6-1 9-0 6-2 9-1 8-0 9-2 8-1 9-3 7-2");
    act(&t, 1, "another deal");
    act(&t, 0, "give 1");
    act(&t, 1, "play 6-0");
    /* Void in Sixes, holding the honor 7-7: anything but Trixie. */
    legal_is(&t, "play 7-7, play 9-0, play 9-1, play 9-2, play 9-3");
    act(&t, 0, "play 7-7");
    /* Without an honor left, seat 0 may lead Trixie; seat 1 keeps its
     * honor back and Trixie wins the set. */
    act(&t, 0, "play Trixie");
    act(&t, 1, "play 6-1");
    view_is(&t, 0, "trixie_won_by", "0");
    set2(&t, 0, "9-0", "6-2");
    set2(&t, 0, "9-1", "8-0");
    set2(&t, 0, "9-2", "8-1");
    set2(&t, 0, "9-3", "7-0"); /* the honor wins the last set */
    /* High to seat 0 (1 of 2), Low to seat 1 (reaches 2): seat 1 out. */
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 0) == -1);
    view_is(&t, 0, "scores", "[1, 2]");
}

/* One honor dealt is both High and Low. Seat 1: 10-3 6-0 6-1 6-2
 * 6-3 6-4; seat 0: 9-0 9-1 9-2 9-3 9-4 9-5; turn-up 10-2: the only Ten
 * dealt is 10-3. Seat 1 leads every set and seat 0, void in Sixes and
 * without an honor, throws a Nine: seat 1 takes 6-4 and 9-1 (sum 10, 1
 * game point each), Game 2 v 0. Three points to seat 1. */
static void test_single_honor(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo", "10-3 9-0 6-0 9-1 6-1 9-2 6-2 9-3 6-3 9-4 6-4 9-5 10-2");
    act(&t, 1, "stand");
    set2(&t, 1, "6-4", "9-0");
    set2(&t, 1, "6-0", "9-1");
    set2(&t, 1, "6-1", "9-2");
    set2(&t, 1, "6-2", "9-3");
    set2(&t, 1, "6-3", "9-4");
    set2(&t, 1, "10-3", "9-5");
    view_is(&t, 0, "last_deal",
            "{\"high\"=>1, \"low\"=>1, \"trixie\"=>nil, \"game\"=>1}");
    view_is(&t, 0, "scores", "[0, 3]");
}

/* Equal game points: no Game. Seat 1: 6-0 6-1 10-3 6-4 6-2 6-3; seat 0:
 * 6-5 7-3 7-0 7-1 7-2 7-4; Tens honors (turn-up 10-2), 10-3 the only one
 * dealt. Sets: 6-0 / 6-5 to seat 0 (higher Six); 7-3 / 6-1 to seat 0 (7-3:
 * 1 point); 7-0 / 10-3 to seat 1 (honor); 6-4 / 7-1 to seat 1 (6-4: 1);
 * 6-2 / 7-2 and 6-3 / 7-4 to seat 1. Game points 1 v 1: no Game; High
 * and Low (10-3) to seat 1. */
static void test_game_tie(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo", "6-0 6-5 6-1 7-3 10-3 7-0 6-4 7-1 6-2 7-2 6-3 7-4 10-2");
    act(&t, 1, "stand");
    set2(&t, 1, "6-0", "6-5");
    set2(&t, 0, "7-3", "6-1");
    set2(&t, 0, "7-0", "10-3");
    set2(&t, 1, "6-4", "7-1");
    set2(&t, 1, "6-2", "7-2");
    view_is(&t, 0, "game_points", "[1, 1]");
    set2(&t, 1, "6-3", "7-4");
    view_is(&t, 0, "last_deal",
            "{\"high\"=>1, \"low\"=>1, \"trixie\"=>nil, \"game\"=>nil}");
    view_is(&t, 0, "scores", "[0, 2]");
}

/* ---- another deal --------------------------------------------------- */

/* The dealer deals three more each: the turn-up 7-2 is shuffled back (below
 * the given prefix), deck[13..18] go out one at a time from seat 1, and
 * deck[19] = 9-2 is turned: a new suit, so play starts with nine cards
 * each and Nines as honors. */
static void test_deal_three_more(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo",
          "Trixie 7-7 10-10 7-0 5-0 6-0 10-5 6-1 9-6 6-2 8-7 8-0 7-2 "
          "5-1 8-1 5-2 8-2 5-3 8-3 9-2");
    act(&t, 1, "another deal");
    act(&t, 0, "deal 3");
    view_is(&t, 1, "honors", "\"Nines\"");
    view_is(&t, 1, "hand_sizes", "[9, 9]");
    view_is(&t, 1, "phase", "\"play\"");
    view_is(&t, 1, "hand",
            "[\"5-0\", \"5-1\", \"5-2\", \"5-3\", \"8-7\", \"9-6\", "
            "\"10-5\", \"10-10\", \"Trixie\"]");
    assert_int_equal(seat_now(&t), 1);
}

/* The same suit turned again (7-5 after 7-2): the dealer must choose
 * again; "give 1" scores the eldest a point and play starts in Sevens. */
static void test_same_suit_again(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo",
          "Trixie 7-7 10-10 7-0 5-0 6-0 10-5 6-1 9-6 6-2 8-7 8-0 7-2 "
          "5-1 8-1 5-2 8-2 5-3 8-3 7-5");
    act(&t, 1, "another deal");
    act(&t, 0, "deal 3");
    view_is(&t, 1, "phase", "\"dealer_choice\"");
    legal_is(&t, "give 1, deal 3");
    act(&t, 0, "give 1");
    view_is(&t, 1, "scores", "[0, 1]");
    view_is(&t, 1, "honors", "\"Sevens\"");
    view_is(&t, 1, "hand_sizes", "[9, 9]");
    assert_int_equal(seat_now(&t), 1);
}

/* Four players: the stock (28 after the deal) gives 3 each twice, with
 * Sevens turned every time (7-2, 7-3, 7-4 at deck[24], [37], [50]); the
 * third "deal 3" finds 4 cards, fewer than 12 and a turn-up, so the pack
 * is reunited and dealt as at first: six each, the eldest asks again. */
static void test_redeal_when_stock_runs_out(void **state)
{
    (void)state;
    struct hl t;
    uint8_t deck[51], others[FT_CARDS];
    int k = 0, m = 0;
    int ups[3] = {trix_card(7, 2), trix_card(7, 3), trix_card(7, 4)};
    for (int c = 0; c < FT_CARDS; c++) {
        int id = ft_trix_id(c);
        if (id != ups[0] && id != ups[1] && id != ups[2])
            others[m++] = (uint8_t)id;
    }
    for (m = 0; k < 51; k++)
        deck[k] = k == 24   ? (uint8_t)ups[0]
                  : k == 37 ? (uint8_t)ups[1]
                  : k == 50 ? (uint8_t)ups[2]
                            : others[m++];
    make(&t, "hilo(players=4)");
    assert_int_equal(game_init(&t.g, &t.st, 3, deck, 51), 0);
    act(&t, 1, "another deal");
    act(&t, 0, "deal 3");
    view_is(&t, 1, "turn_up", "\"7-3\"");
    act(&t, 0, "deal 3");
    view_is(&t, 1, "turn_up", "\"7-4\"");
    view_is(&t, 1, "hand_sizes", "[12, 12, 12, 12]");
    act(&t, 0, "deal 3");
    view_is(&t, 1, "hand_sizes", "[6, 6, 6, 6]");
    view_is(&t, 1, "phase", "\"another_deal\"");
    assert_int_equal(seat_now(&t), 1);
}

/* another_deal=false: play starts at once with the eldest. */
static void test_no_another_deal(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo(another_deal=false)", example_deck);
    view_is(&t, 1, "phase", "\"play\"");
    act(&t, 1, "play 10-10");
}

/* ---- sides --------------------------------------------------------------- */

/* Four players in two sides (default): seat 2 is dealt 10-10, the High
 * with Tens as honors (turn-up 10-2, deck[24]). With target=1 the first
 * point applied wins, and High comes first: side 0 (seats 0 and 2) wins,
 * whoever takes the sets. */
static void test_partners_share_points(void **state)
{
    (void)state;
    struct hl t;
    start(&t, "hilo(players=4,target=1,another_deal=false)",
          "6-0 10-10 6-1 6-2 6-3 6-4 6-5 6-6 7-0 7-1 7-2 7-3 7-4 7-5 7-6 7-7 "
          "8-0 8-1 8-2 8-3 8-4 8-5 8-6 8-7 10-2");
    view_is(&t, 0, "hand",
            "[\"6-2\", \"6-6\", \"7-3\", \"7-7\", \"8-3\", "
            "\"8-7\"]");
    play_out_deal(&t);
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 1 && ret(&t, 2) == 1);
    assert_true(ret(&t, 1) == -1 && ret(&t, 3) == -1);
    view_is(&t, 1, "scores", "[1, 0]");
}

/* partnerships=false: four individuals, four scores; seat 2 alone wins. */
static void test_four_individuals(void **state)
{
    (void)state;
    struct hl t;
    start(&t,
          "hilo(players=4,partnerships=false,target=1,"
          "another_deal=false)",
          "6-0 10-10 6-1 6-2 6-3 6-4 6-5 6-6 7-0 7-1 7-2 7-3 7-4 7-5 7-6 7-7 "
          "8-0 8-1 8-2 8-3 8-4 8-5 8-6 8-7 10-2");
    play_out_deal(&t);
    assert_true(ret(&t, 2) == 1);
    assert_true(ret(&t, 0) < 0 && ret(&t, 1) < 0 && ret(&t, 3) < 0);
    view_is(&t, 1, "scores", "[0, 0, 1, 0]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_follow_or_honor),
        cmocka_unit_test(test_all_points),
        cmocka_unit_test(test_nine_all_high_wins),
        cmocka_unit_test(test_nine_all_trixie_turned),
        cmocka_unit_test(test_trixie_turned_scores_dealer),
        cmocka_unit_test(test_eight_nine_high_low),
        cmocka_unit_test(test_eight_nine_low),
        cmocka_unit_test(test_single_honor),
        cmocka_unit_test(test_game_tie),
        cmocka_unit_test(test_deal_three_more),
        cmocka_unit_test(test_same_suit_again),
        cmocka_unit_test(test_redeal_when_stock_runs_out),
        cmocka_unit_test(test_no_another_deal),
        cmocka_unit_test(test_partners_share_points),
        cmocka_unit_test(test_four_individuals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
