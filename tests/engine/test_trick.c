/* test_trick.c — the shared trick-game pieces (engine/trick.h): seat
 * arithmetic and sides, the Forty-two core's suits and set closing (Forty-two
 * count, Read & White 1904), the Hilo/Magna honor set and local ids. Expected
 * values are worked by hand from the rule book and the id layout of
 * engine/trix_pack.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h> /* after the headers it needs */

#include "common/err.h"
#include "common/rng.h"
#include "engine/trick.h"

static int card(const char *name)
{
    const char *end;
    int c = trix_card_parse(name, &end);
    assert_true(c >= 0);
    return c;
}

/* Seats go to the left and wrap; rel counts the seats from the viewer. */
static void test_seats(void **state)
{
    (void)state;
    assert_int_equal(trick_next(3, 5), 4);
    assert_int_equal(trick_next(4, 5), 0);
    /* From seat 3 of 5: 3 is 0, 4 is 1, 0 is 2, 1 is 3. */
    assert_int_equal(trick_rel(3, 3, 5), 0);
    assert_int_equal(trick_rel(0, 3, 5), 2);
    assert_int_equal(trick_rel(1, 3, 5), 3);
}

/* Two sides of alternate seats need 4, 6 or 8 players (as in Trix). */
static void test_sides(void **state)
{
    (void)state;
    struct game_dims d;
    char err[96];
    memset(&d, 0, sizeof d);
    trick_dims(&d, 6, true);
    assert_int_equal(d.players, 6);
    assert_int_equal(d.teams, 2);
    assert_int_equal(d.team[3], 1);
    assert_int_equal(d.team[4], 0);
    trick_dims(&d, 3, false);
    assert_int_equal(d.teams, 3);
    assert_int_equal(d.team[2], 2);
    assert_int_equal(trick_check_sides(5, true, err, sizeof err), ERR_INVAL);
    assert_int_equal(trick_check_sides(6, true, err, sizeof err), 0);
    assert_int_equal(trick_check_sides(5, false, err, sizeof err), 0);
}

/* A Forty-two suit is the cards with that upper number: Blanks is 0-0
 * alone, Threes 3-0..3-3, Sixes 6-0..6-6. */
static void test_f42_suits(void **state)
{
    (void)state;
    assert_int_equal(f42_suit(0), 1u << card("0-0"));
    uint32_t threes = 0, sixes = 0;
    for (int b = 0; b <= 3; b++)
        threes |= 1u << trix_card(3, b);
    for (int b = 0; b <= 6; b++)
        sixes |= 1u << trix_card(6, b);
    assert_int_equal(f42_suit(3), threes);
    assert_int_equal(f42_suit(6), sixes);
}

/* Seat 3 leads 5-5, then 6-4, 0-0, 1-0 (seats 0, 1, 2); the second card
 * wins, so seat 0's side (0,2) takes 1 for the set plus 10 for 5-5 and
 * 10 for 6-4 (the book's count) = 21, and seat 0 leads next. */
static void test_f42_close_set(void **state)
{
    (void)state;
    struct f42_core c;
    memset(&c, 0, sizeof c);
    c.leader = c.turn = 3;
    c.hand[3] = 1u << card("5-5");
    c.hand[0] = 1u << card("6-4");
    c.hand[1] = 1u << card("0-0");
    c.hand[2] = 1u << card("1-0");
    assert_false(f42_place(&c, card("5-5")));
    assert_int_equal(c.turn, 0);
    assert_false(f42_place(&c, card("6-4")));
    assert_false(f42_place(&c, card("0-0")));
    assert_true(f42_place(&c, card("1-0")));
    assert_false(f42_close_set(&c, 1));
    assert_int_equal(c.taken[0], 21);
    assert_int_equal(c.taken[1], 0);
    assert_int_equal(c.leader, 0);
    assert_int_equal(c.turn, 0);
    assert_int_equal(c.ntrick, 0);
    assert_int_equal(c.sets, 1);
    assert_int_equal(c.hand[3] | c.hand[0] | c.hand[1] | c.hand[2], 0);
}

/* Local ids: 5-0 is 0, 6-0 is 6, 7-0 is 13, 10-10 is 50, Trixie 51. */
static void test_ft_ids(void **state)
{
    (void)state;
    assert_int_equal(ft_local(card("5-0")), 0);
    assert_int_equal(ft_card(6, 0), 6);
    assert_int_equal(ft_card(7, 0), 13);
    assert_int_equal(ft_local(card("10-10")), 50);
    assert_int_equal(ft_local(TRIX_TRIXIE), FT_TRIXIE);
    assert_int_equal(ft_local(card("4-4")), -1);
    assert_int_equal(ft_trix_id(50), card("10-10"));
    assert_int_equal(ft_suit(ft_card(9, 4)), 9);
    assert_int_equal(ft_sum(ft_card(9, 4)), 13);
    assert_int_equal(ft_sum(FT_TRIXIE), 0);
}

/* A deck prefix goes first, the rest follow in id order; a card outside
 * Fives..Tens and Trixie, or one given twice, is refused. */
static void test_ft_deck(void **state)
{
    (void)state;
    uint8_t deck[FT_CARDS];
    uint8_t pre[2] = {TRIX_TRIXIE, (uint8_t)card("5-0")};
    assert_int_equal(ft_deck_start(deck, pre, 2), 0);
    assert_int_equal(deck[0], FT_TRIXIE);
    assert_int_equal(deck[1], 0);
    assert_int_equal(deck[2], 1);
    assert_int_equal(deck[FT_CARDS - 1], 50);
    uint8_t low[1] = {(uint8_t)card("2-0")};
    assert_int_equal(ft_deck_start(deck, low, 1), ERR_INVAL);
    uint8_t twice[2] = {TRIX_TRIXIE, TRIX_TRIXIE};
    assert_int_equal(ft_deck_start(deck, twice, 2), ERR_INVAL);
}

/* Sevens are honors; seat 0 leads 6-3, seat 1 (no Six, no honor) throws
 * 5-0 and so shows it holds no Six; seat 2 plays the honor 7-0, which
 * wins over the higher 6-3 (honors beat the suit led, as in Hilo). */
static void test_ft_play(void **state)
{
    (void)state;
    struct ft_table t;
    memset(&t, 0, sizeof t);
    t.n = 3;
    t.honor = 7;
    t.hand[0] = card_bit(ft_card(6, 3));
    t.hand[1] = card_bit(ft_card(5, 0));
    t.hand[2] = card_bit(ft_card(7, 0));
    assert_false(ft_play(&t, ft_card(6, 3)));
    assert_int_equal(t.lead_suit, 6);
    assert_false(ft_play(&t, ft_card(5, 0)));
    assert_true((t.cant[1] & ft_suit_mask(6)) == ft_suit_mask(6));
    assert_true(ft_play(&t, ft_card(7, 0)));
    assert_int_equal(t.best, 2);
    assert_int_equal(t.cant[2], 0);
    assert_int_equal(hand_count(t.table), 3);
}

/* The target rule of the Trix-pack games: a side alone in the lead with the
 * target or more wins; a shared lead plays on, and is a draw only at the deals
 * cap. */
static void test_game_over(void **state)
{
    (void)state;
    int w;
    int lead[] = {50, 71, 40}, tied[] = {75, 75, 10}, low[] = {-5, -3, -9};
    assert_false(trick_game_over(lead, 3, 75, false, &w)); /* under 75 */
    assert_int_equal(w, 1);
    assert_true(trick_game_over(lead, 3, 71, false, &w));
    assert_int_equal(w, 1);
    assert_false(trick_game_over(tied, 3, 75, false, &w)); /* play on */
    assert_true(trick_game_over(tied, 3, 75, true, &w));   /* capped */
    assert_int_equal(w, -1);
    assert_true(trick_game_over(low, 3, 75, true, &w)); /* all negative */
    assert_int_equal(w, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seats),     cmocka_unit_test(test_sides),
        cmocka_unit_test(test_f42_suits), cmocka_unit_test(test_f42_close_set),
        cmocka_unit_test(test_ft_ids),    cmocka_unit_test(test_ft_deck),
        cmocka_unit_test(test_ft_play),   cmocka_unit_test(test_game_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
