/* test_trix_pack.c — the Standard Trix pack (Read & White's general terms;
 * docs/games/README.md): composition, names, sums, doubles, prize cards, the
 * Trix-card table (300 points with 10-10), precedence, and the worked
 * like-sums and prize-card sets of the general terms.
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
#include "common/rng.h"
#include "engine/trix_pack.h"

static int card(const char *name)
{
    const char *end;
    int c = trix_card_parse(name, &end);
    assert_true(c >= 0);
    assert_int_equal(*end, '\0');
    return c;
}

/* Pack: 66 cards a-b with 10 >= a >= b >= 0, then 11-9, 12-8, 13-12,
 * 14-11, 15-15, Trixie; ids in that order. */
static void test_composition(void **state)
{
    (void)state;
    assert_int_equal(card("0-0"), 0);
    assert_int_equal(card("1-0"), 1);
    assert_int_equal(card("1-1"), 2);
    assert_int_equal(card("2-0"), 3);
    assert_int_equal(card("6-6"), 27);
    assert_int_equal(card("5-0"), 15);
    assert_int_equal(card("10-10"), 65);
    assert_int_equal(card("11-9"), 66);
    assert_int_equal(card("12-8"), 67);
    assert_int_equal(card("13-12"), 68);
    assert_int_equal(card("14-11"), 69);
    assert_int_equal(card("15-15"), 70);
    assert_int_equal(card("Trixie"), TRIX_TRIXIE);
    assert_int_equal(trix_card(11, 8), -1); /* not in the pack */
    assert_int_equal(trix_card(3, 4), -1);  /* lower above upper */
    assert_int_equal(trix_card(2, -1), -1);
    assert_int_equal(trix_card(7, 3), 31); /* 28 cards below the Sevens */
    assert_int_equal(trix_card(13, 12), 68);
    for (int c = 0; c < TRIX_TRIXIE; c++) {
        char want[TRIX_NAME_MAX], got[TRIX_NAME_MAX];
        assert_int_equal(trix_card(trix_upper(c), trix_lower(c)), c);
        snprintf(want, sizeof want, "%d-%d", trix_upper(c), trix_lower(c));
        trix_card_name(c, got, sizeof got);
        assert_string_equal(got, want); /* the name table and the numbers */
    }
    for (int c = 0; c < TRIX_CARDS; c++) {
        char buf[TRIX_NAME_MAX];
        trix_card_name(c, buf, sizeof buf);
        assert_int_equal(card(buf), c); /* names round-trip */
    }
}

/* "Take the 7-3. Seven is the suit name and three the card name." */
static void test_names_and_suits(void **state)
{
    (void)state;
    const char *end;
    int c = card("7-3");
    assert_int_equal(trix_upper(c), 7);
    assert_int_equal(trix_lower(c), 3);
    assert_int_equal(trix_sum(c), 10);
    assert_int_equal(trix_card_parse("3-7", &end), c); /* either order */
    assert_int_equal(trix_card_parse(" tx", &end), TRIX_TRIXIE);
    assert_int_equal(trix_card_parse("11-8", &end), ERR_SYNTAX);
    assert_int_equal(trix_card_parse("7", &end), ERR_SYNTAX);
    /* "The suit Threes contain the 3-0, 3-1, 3-2 and 3-3." */
    char buf[64];
    trix_hand_format(trix_suit_cards(3), buf, sizeof buf);
    assert_string_equal(buf, "3-0 3-1 3-2 3-3");
    assert_string_equal(trix_suit_name(3), "Threes");
    assert_string_equal(trix_suit_name(6), "Sixes");
    trix_hand_format(trix_suit_cards(12), buf, sizeof buf);
    assert_string_equal(buf, "12-8");
    assert_int_equal(trix_upper(TRIX_TRIXIE), TRIX_NO_SUIT);
}

/* Doubles, Prize cards (all but 5, 10, 15), Prize Trix cards. */
static void test_doubles_and_prizes(void **state)
{
    (void)state;
    int doubles = 0, prize = 0, prize_trix = 0;
    for (int c = 0; c < TRIX_CARDS; c++) {
        doubles += trix_is_double(c);
        prize += trix_is_prize(c);
        prize_trix += trix_is_prize_trix(c);
    }
    assert_int_equal(doubles, 12); /* 0-0 .. 10-10 and 15-15 */
    assert_int_equal(prize, 9);    /* 0,1,2,3,4,6,7,8,9 */
    assert_int_equal(prize_trix, 3);
    assert_true(trix_is_prize_trix(card("5-5")));
    assert_false(trix_is_prize(card("10-10")));
    assert_true(trix_is_prize(card("0-0")));
    assert_false(trix_is_double(TRIX_TRIXIE));
}

/* The Trix-card table, with 10-10 in the 20 row: 300 in all. */
static void test_trix_cards_300(void **state)
{
    (void)state;
    static const int rows[][2] = {{5, 15},  {10, 60}, {15, 45},
                                  {20, 60}, {25, 50}, {30, 30}};
    int total = 0;
    char buf[128];
    for (int i = 0; i < 6; i++) {
        trix_hand_t h = trix_sum_cards(rows[i][0]);
        int sum = 0;
        for (int c = 0; c < TRIX_CARDS; c++)
            if (trix_hand_has(h, c))
                sum += trix_points(c);
        assert_int_equal(sum, rows[i][1]);
        total += sum;
    }
    trix_hand_format(trix_sum_cards(10), buf, sizeof buf);
    assert_string_equal(buf, "5-5 6-4 7-3 8-2 9-1 10-0");
    trix_hand_format(trix_sum_cards(20), buf, sizeof buf);
    assert_string_equal(buf, "10-10 11-9 12-8");
    assert_int_equal(trix_points(TRIX_TRIXIE), 40);
    assert_int_equal(total + 40, 300);
    int all = 0;
    for (int c = 0; c < TRIX_CARDS; c++)
        all += trix_points(c);
    assert_int_equal(all, 300);
    assert_int_equal(trix_points(card("6-3")), 0); /* sum 9: not Trix */
}

/* Precedence: Trixie, 15-15, 10-10, 5-5, 9-9, 8-8, 7-7, 6-6, 4-4, 3-3,
 * 2-2, 1-1, 0-0. */
static void test_precedence(void **state)
{
    (void)state;
    static const char *const order[] = {
        "Trixie", "15-15", "10-10", "5-5", "9-9", "8-8", "7-7",
        "6-6",    "4-4",   "3-3",   "2-2", "1-1", "0-0"};
    for (int i = 0; i + 1 < 13; i++)
        assert_true(trix_precedence(card(order[i])) >
                    trix_precedence(card(order[i + 1])));
    assert_true(trix_precedence(card("0-0")) > 0);
    assert_int_equal(trix_precedence(card("10-9")), 0);
}

static int winner(const char *a, const char *b, const char *c, const char *d)
{
    uint8_t set[4] = {(uint8_t)card(a), (uint8_t)card(b), (uint8_t)card(c),
                      (uint8_t)card(d)};
    return trix_set_winner(set, 4);
}

/* The general terms' worked sets. */
static void test_worked_sets(void **state)
{
    (void)state;
    /* Like sums: 7-2, 6-3 (both 9), 3-2, 5-2 → the first 9, player 1. */
    assert_int_equal(winner("7-2", "6-3", "3-2", "5-2"), 0);
    /* Prize cards: 7-2, 6-3, 10-9, 0-0 → 0-0 beats the 19. */
    assert_int_equal(winner("7-2", "6-3", "10-9", "0-0"), 3);
    /* 7-2, 10-9, 0-0, 1-1 → 1-1, the higher Prize card. */
    assert_int_equal(winner("7-2", "10-9", "0-0", "1-1"), 3);
    /* Prize Trix: 5-5, 10-8, 9-9, 6-3 → 5-5 over the Prize 9-9. */
    assert_int_equal(winner("5-5", "10-8", "9-9", "6-3"), 0);
    /* Trix play example: 3-2, 6-2, 7-3, 10-5 → player 4 (15). */
    assert_int_equal(winner("3-2", "6-2", "7-3", "10-5"), 3);
    /* Trixie beats everything. */
    assert_int_equal(winner("15-15", "Trixie", "10-10", "14-11"), 1);
}

/* Hand bitset ops across the word boundary (ids 63 and 64). */
static void test_hand_ops(void **state)
{
    (void)state;
    trix_hand_t h = trix_hand_none();
    trix_hand_add(&h, 63);
    trix_hand_add(&h, 64);
    trix_hand_add(&h, TRIX_TRIXIE);
    trix_hand_add(&h, 3);
    assert_int_equal(trix_hand_count(h), 4);
    assert_int_equal(trix_hand_first(h), 3);
    assert_int_equal(trix_hand_nth(h, 1), 63);
    assert_int_equal(trix_hand_nth(h, 2), 64);
    assert_int_equal(trix_hand_nth(h, 3), TRIX_TRIXIE);
    trix_hand_del(&h, 3);
    trix_hand_del(&h, 63);
    assert_int_equal(trix_hand_first(h), 64);
    assert_true(trix_hand_has(h, TRIX_TRIXIE));
    assert_false(trix_hand_has(h, 65));
    h = trix_hand_minus(h, trix_hand_range(64, 71));
    assert_true(trix_hand_empty(h));
}

/* Dealing: the prefix on top, the rest of the pack shuffled below. */
/* A plane is all 72 floats: 1 at each card held, 0 elsewhere, whatever
 * the buffer held before. The hand has cards in the first and last byte
 * of the low word, both ends of the high part and Trixie (id 71). */
static void test_put_plane(void **state)
{
    (void)state;
    static const int held[] = {0, 7, 56, 63, 64, 70, 71};
    float out[TRIX_CARDS + 1];
    trix_hand_t h = trix_hand_none();
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++)
        trix_hand_add(&h, held[i]);
    for (int c = 0; c <= TRIX_CARDS; c++)
        out[c] = 9.0f;
    trix_put_plane(out, h);
    int ones = 0;
    for (int c = 0; c < TRIX_CARDS; c++) {
        assert_true(out[c] == 0.0f || out[c] == 1.0f);
        ones += out[c] == 1.0f;
    }
    assert_int_equal(ones, 7);
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++)
        assert_true(out[held[i]] == 1.0f);
    assert_true(out[TRIX_CARDS] == 9.0f); /* nothing past the plane */
}

static void test_deck_build(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 3);
    uint8_t deck[TRIX_CARDS], pre[2] = {70, 15};
    trix_hand_t pack = trix_hand_range(15, 65);
    trix_hand_add(&pack, TRIX_TRIXIE);
    /* 15-15 is not in the Fives..Tens pack. */
    assert_int_equal(trix_deck_build(deck, pack, pre, 2, &r), ERR_INVAL);
    pre[0] = TRIX_TRIXIE;
    assert_int_equal(trix_deck_build(deck, pack, pre, 2, &r), 52);
    assert_int_equal(deck[0], TRIX_TRIXIE);
    assert_int_equal(deck[1], 15);
    trix_hand_t seen = trix_hand_none();
    for (int i = 0; i < 52; i++)
        trix_hand_add(&seen, deck[i]);
    assert_true(trix_hand_eq(seen, pack));
    pre[1] = TRIX_TRIXIE; /* repeated */
    assert_int_equal(trix_deck_build(deck, pack, pre, 2, &r), ERR_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_composition),
        cmocka_unit_test(test_names_and_suits),
        cmocka_unit_test(test_doubles_and_prizes),
        cmocka_unit_test(test_trix_cards_300),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_worked_sets),
        cmocka_unit_test(test_hand_ops),
        cmocka_unit_test(test_deck_build),
        cmocka_unit_test(test_put_plane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
