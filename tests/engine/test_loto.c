/* test_loto.c — Loto and Keno (Peel; docs/games/loto.md): the cards' layout
 * rules against the book's Fig. 1, the four-strip box (360 = 4 x 90), the card
 * choice, the first method's quarter prizes with ties, and the second method's
 * line payouts, re-stakes, bankruptcy and refund. Balls and card order are
 * fixed through the deck argument ("card2 ... 33 ..."); every expected chip
 * count is worked by hand in the comments from the card numbers, which the
 * tests read back from the view first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "common/err.h"
#include "engine/game.h"

#define STATE_MAX 4096
#define NUMS 90
#define CARDS 24

struct table {
    struct game g;
    _Alignas(16) unsigned char st[STATE_MAX];
};

/* A card as the view shows it: rows[r][i], five numbers a row. */
struct card {
    int number; /* 1..24 */
    int rows[3][5];
};

static void start(struct table *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t ids[CARDS + NUMS];
    assert_int_equal(game_make(&t->g, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= STATE_MAX);
    int n = game_deck_parse(&t->g, deck, ids, CARDS + NUMS, err, sizeof err);
    assert_true(n >= 0);
    assert_int_equal(game_init(&t->g, t->st, 5, ids, n), 0);
}

/* The seat to act plays the action named text. */
static void act(struct table *t, const char *text)
{
    char err[256];
    int seat = game_current_seat(&t->g, t->st);
    assert_true(seat >= 0);
    int a = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    assert_true(a >= 0);
    assert_int_equal(game_apply(&t->g, t->st, seat, a), 0);
}

static void calls(struct table *t, int n)
{
    for (int i = 0; i < n; i++)
        act(t, "call");
}

static int ret(struct table *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return (int)r[seat];
}

/* ---- reading the view --------------------------------------------------- */

static const msgpack_object *map_get(const msgpack_object *m, const char *k)
{
    assert_int_equal(m->type, MSGPACK_OBJECT_MAP);
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        const msgpack_object *key = &m->via.map.ptr[i].key;
        if (key->via.str.size == strlen(k) &&
            !memcmp(key->via.str.ptr, k, key->via.str.size))
            return &m->via.map.ptr[i].val;
    }
    fail_msg("view has no key %s", k);
    return NULL;
}

/* Every card held, as the view of seat 0 lists them; returns how many. */
static int read_cards(struct table *t, struct card *out, int *owner)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    size_t off = 0;
    int n = 0;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, 0, &pk), 0);
    msgpack_unpacked_init(&u);
    assert_true(msgpack_unpack_next(&u, sb.data, sb.size, &off) > 0);
    const msgpack_object *seats = map_get(&u.data, "cards");
    for (uint32_t s = 0; s < seats->via.array.size; s++) {
        const msgpack_object *held = &seats->via.array.ptr[s];
        for (uint32_t c = 0; c < held->via.array.size; c++, n++) {
            const msgpack_object *cd = &held->via.array.ptr[c];
            const msgpack_object *rows = map_get(cd, "rows");
            out[n].number = (int)map_get(cd, "card")->via.i64;
            owner[n] = (int)s;
            assert_int_equal(rows->via.array.size, 3);
            for (int r = 0; r < 3; r++) {
                const msgpack_object *row = &rows->via.array.ptr[r];
                assert_int_equal(row->via.array.size, 5);
                for (int i = 0; i < 5; i++)
                    out[n].rows[r][i] = (int)row->via.array.ptr[i].via.i64;
            }
        }
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return n;
}

/* Deals all 24 cards (four players take six each) and reads them back,
 * indexed by card number - 1. */
static void all_cards(struct card *by_number)
{
    struct table t;
    struct card held[CARDS];
    int owner[CARDS];
    start(&t, "loto(players=4)", "");
    for (int i = 0; i < 4; i++)
        act(&t, "take 6");
    assert_int_equal(read_cards(&t, held, owner), CARDS);
    for (int i = 0; i < CARDS; i++)
        by_number[held[i].number - 1] = held[i];
}

/* ---- the layout rules --------------------------------------------------- */

/* The book: "the units are arranged in the first column, the tens in the
 * second, the twenties in the third, and so on"; 90 joins the eighties. */
static int decade_column(int n)
{
    return n == 90 ? 8 : n / 10;
}

/* A row of five numbers, each in its decade column, one per column, left
 * to right. */
static void assert_row_layout(const int *row)
{
    for (int i = 0; i < 5; i++) {
        assert_true(row[i] >= 1 && row[i] <= 90);
        if (i)
            assert_true(decade_column(row[i - 1]) < decade_column(row[i]));
    }
}

static void test_fig1_layout_rules(void **state)
{
    (void)state;
    /* Fig. 1: the book's own card. Five numbers a line, fifteen distinct
     * numbers, each in its decade column: 5 (units) in column 0, 11 in
     * column 1, 33 in column 3, 50 in 5, 76 in 7; 89 in column 8. */
    const int fig1[3][5] = {
        {5, 11, 33, 50, 76}, {17, 22, 43, 65, 89}, {2, 28, 35, 56, 74}};
    const int cols[3][5] = {{0, 1, 3, 5, 7}, {1, 2, 4, 6, 8}, {0, 2, 3, 5, 7}};
    for (int r = 0; r < 3; r++) {
        assert_row_layout(fig1[r]);
        for (int i = 0; i < 5; i++)
            assert_int_equal(decade_column(fig1[r][i]), cols[r][i]);
    }
    /* Our 24 cards follow the same rules, and (docs/games/loto.md) the numbers
     * of a column ascend down the card, which Fig. 1 does not need. */
    struct card c[CARDS];
    all_cards(c);
    for (int k = 0; k < CARDS; k++) {
        int seen[91] = {0};
        for (int r = 0; r < 3; r++) {
            assert_row_layout(c[k].rows[r]);
            for (int i = 0; i < 5; i++)
                assert_int_equal(seen[c[k].rows[r][i]]++, 0);
        }
        for (int r = 1; r < 3; r++)
            for (int i = 0; i < 5; i++)
                for (int j = 0; j < 5; j++)
                    for (int q = 0; q < r; q++)
                        if (decade_column(c[k].rows[q][j]) ==
                            decade_column(c[k].rows[r][i]))
                            assert_true(c[k].rows[q][j] < c[k].rows[r][i]);
    }
}

static void test_box_of_four_strips(void **state)
{
    (void)state;
    struct card c[CARDS];
    int total[91] = {0};
    all_cards(c);
    /* Each strip (cards 1-6, 7-12, 13-18, 19-24) uses 1..90 once, so every
     * number is on exactly four cards: 24 x 15 = 360 = 4 x 90. */
    for (int s = 0; s < 4; s++) {
        int strip[91] = {0};
        for (int k = 6 * s; k < 6 * s + 6; k++)
            for (int r = 0; r < 3; r++)
                for (int i = 0; i < 5; i++) {
                    strip[c[k].rows[r][i]]++;
                    total[c[k].rows[r][i]]++;
                }
        for (int n = 1; n <= 90; n++)
            assert_int_equal(strip[n], 1);
    }
    int sum = 0;
    for (int n = 1; n <= 90; n++) {
        assert_int_equal(total[n], 4);
        sum += total[n];
    }
    assert_int_equal(sum, 360);
    /* The cards used by the scenarios below. */
    const int card1[3][5] = {
        {13, 22, 60, 71, 84}, {34, 49, 52, 78, 86}, {8, 16, 28, 58, 66}};
    const int card2[3][5] = {
        {6, 27, 33, 45, 80}, {10, 46, 54, 74, 83}, {35, 48, 57, 62, 75}};
    const int card7[3][5] = {
        {24, 33, 43, 70, 81}, {11, 47, 57, 60, 89}, {13, 35, 63, 78, 90}};
    assert_memory_equal(c[0].rows, card1, sizeof card1);
    assert_memory_equal(c[1].rows, card2, sizeof card2);
    assert_memory_equal(c[6].rows, card7, sizeof card7);
    assert_int_equal(c[2].rows[0][0], 1); /* card 3 starts 1 24 31 67 88 */
}

/* ---- taking cards ------------------------------------------------------- */

static void test_taking_cards(void **state)
{
    (void)state;
    struct table t;
    int legal[8];
    char name[GAME_NAME_MAX];
    /* Sixteen players, 24 cards: every player must get at least one. Seat
     * 0 may take 1, 2, 4 or 6 (9 spare cards). After it takes six, seat 1
     * must leave 14: at most 4. After four more, seat 2 must leave 13 of
     * the 14: one card only. */
    start(&t, "loto(players=16)", "");
    assert_int_equal(t.g.def->legal(&t.g, t.st, 0, legal), 4);
    game_action_name(&t.g, t.st, legal[3], name, sizeof name);
    assert_string_equal(name, "take 6");
    act(&t, "take 6");
    assert_int_equal(t.g.def->legal(&t.g, t.st, 1, legal), 3);
    act(&t, "take 4");
    assert_int_equal(t.g.def->legal(&t.g, t.st, 2, legal), 1);
    game_action_name(&t.g, t.st, legal[0], name, sizeof name);
    assert_string_equal(name, "take 1");
    /* Stakes go in as cards are taken: 4 chips a card by default. */
    assert_int_equal(ret(&t, 0), -24);
    assert_int_equal(ret(&t, 1), -16);
    for (int i = 2; i < 16; i++)
        act(&t, "take 1");
    /* Then only "call", for seat 0 (standing in for the dealer). */
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    assert_int_equal(t.g.def->legal(&t.g, t.st, 0, legal), 1);
    game_action_name(&t.g, t.st, legal[0], name, sizeof name);
    assert_string_equal(name, "call");
}

/* ---- the first method --------------------------------------------------- */

static void test_quarter_prizes_and_ties(void **state)
{
    (void)state;
    struct table t;
    /* Three players take one card each, dealt card 2, card 1, card 7:
     * pool 12, so 3 for the first row, 3 for two rows, 6 for the card.
     * Balls: card 2's first row without 33 (6 27 45 80) and card 7's
     * first row without 33 (24 43 70 81) — none of them on another card
     * held — then 33, which completes both rows at once. */
    start(&t, "loto(players=3)",
          "card2 card1 card7  6 27 45 80 24 43 70 81 33 "
          "13 22 60 71 84 34 49 52 78 86 8 16 28 58 66");
    for (int i = 0; i < 3; i++)
        act(&t, "take 1");
    calls(&t, 8);
    assert_int_equal(ret(&t, 0), -4);
    calls(&t, 1);
    /* Seats 0 and 2 share the row prize: 3 / 2 = 1 each, the odd chip is
     * carried to the two-row prize, which is now worth 4. */
    assert_int_equal(ret(&t, 0), -3);
    assert_int_equal(ret(&t, 1), -4);
    assert_int_equal(ret(&t, 2), -3);
    /* Card 1's first row (13 22 60 71 84; 13, 60 also mark card 7) wins
     * nothing: the row prize is gone. Its second row (34 49 52 78 86)
     * makes two rows on one card: seat 1 takes 4. */
    calls(&t, 5);
    assert_int_equal(ret(&t, 1), -4);
    calls(&t, 5);
    assert_int_equal(ret(&t, 1), 0);
    assert_false(game_is_terminal(&t.g, t.st));
    /* Its last row (8 16 28 58 66) covers the card: the half, 6, and the
     * game ends. Seat 1: +4 +6 -4 = +6; the others 1 - 4 = -3. */
    calls(&t, 4);
    assert_false(game_is_terminal(&t.g, t.st));
    calls(&t, 1);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 0), -3);
    assert_int_equal(ret(&t, 1), 6);
    assert_int_equal(ret(&t, 2), -3);
}

static void test_two_rows_must_be_one_card(void **state)
{
    (void)state;
    struct table t;
    /* Seat 0 takes two cards (1 and 2, one strip: no number in common),
     * seat 1 one (card 3); pool 8 + 4 = 12, quarters of 3. Card 1's first
     * row wins the row prize. Card 2's first row gives seat 0 two covered
     * rows, but on two cards: no two-row prize. Card 1's second row
     * does. */
    start(&t, "loto(players=2)",
          "card1 card2 card3 13 22 60 71 84 6 27 33 45 80 34 49 52 78 86");
    act(&t, "take 2");
    act(&t, "take 1");
    calls(&t, 5);
    assert_int_equal(ret(&t, 0), 3 - 8);
    calls(&t, 5);
    assert_int_equal(ret(&t, 0), 3 - 8);
    calls(&t, 5);
    assert_int_equal(ret(&t, 0), 6 - 8);
    assert_int_equal(ret(&t, 1), -4);
}

static void test_full_card_tie_odd_chip(void **state)
{
    (void)state;
    struct table t;
    /* row_prizes=false: the whole pool (3 x 1 chip) to the first full
     * card. Cards 2 and 7 share 33, 35 and 57; every other number of both
     * is called, then 57 fills both cards at once. Card 1 (seat 1) gets
     * only 13, 60, 78 of these. The two winners get 1 each and the odd
     * chip goes to the first of them from seat 0: seat 0 +1, seat 2 0,
     * seat 1 -1. */
    start(&t, "loto(players=3,stake=1,row_prizes=false)",
          "card2 card1 card7 6 27 33 45 80 10 46 54 74 83 35 48 62 75 "
          "24 43 70 81 11 47 60 89 13 63 78 90 57");
    for (int i = 0; i < 3; i++)
        act(&t, "take 1");
    calls(&t, 26);
    assert_false(game_is_terminal(&t.g, t.st));
    calls(&t, 1);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 0), 1);
    assert_int_equal(ret(&t, 1), -1);
    assert_int_equal(ret(&t, 2), 0);
}

/* ---- the second method -------------------------------------------------- */

static void test_keno_lines_restake_bankruptcy(void **state)
{
    (void)state;
    struct table t;
    /* Two players, one card each (card 1 to seat 0, card 2 to seat 1),
     * 60 counters a card: pool 120. Drawing 1 (seat 0 draws): 13 22 on
     * card 1's first row (ambo: 2 + 5 = 7), 34 49 52 on its second (terne:
     * 3 + 25 = 28), 8 on its third (abstract: 1): seat 0 is owed 36; 10 46
     * 54 74 on card 2's second row (quaterne: 4 + 100 = 104). */
    start(&t, "loto(method=keno,players=2,drawings=2)",
          "card1 card2 13 22 34 49 52 8 10 46 54 74 "
          "8 16 28 58 66 6 1 24 31 67");
    act(&t, "take 1");
    act(&t, "take 1");
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    calls(&t, 9);
    assert_int_equal(ret(&t, 0), -60);
    calls(&t, 1);
    /* Paid from seat 0: 36 (pool 84). Seat 1's 104 is more than the pool:
     * not the last drawing, so both stake 60 again (pool 204), then 104
     * (pool 100). */
    assert_int_equal(ret(&t, 0), 36 - 120);
    assert_int_equal(ret(&t, 1), 104 - 120);
    /* Drawing 2 is seat 1's. Card 1's third row whole (8 16 28 58 66:
     * quinterne, 5 + 250 = 255), 6 on card 2 (1), four numbers of card 3.
     * The last drawing: seat 0 gets what is left, 100; seat 1 nothing
     * (bankruptcy). Seat 0: 136 - 120 = +16; seat 1: 104 - 120 = -16. */
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    calls(&t, 10);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 0), 16);
    assert_int_equal(ret(&t, 1), -16);
}

static void test_keno_refund_by_card(void **state)
{
    (void)state;
    struct table t;
    /* One drawing; seat 0 takes cards 3 and 4, seats 1 and 2 one each
     * (cards 5, 6): pool 240. Ball 1 is on card 3 (abstract: 1 to seat
     * 0); the other nine are card 1's, which nobody holds. The pool left,
     * 239, goes back by card: 59 each (4 x 59 = 236) and the 3 odd
     * counters one a card from seat 0: seat 0 gets 1 + 118 + 2 = 121 for
     * 120 paid, seat 1 60, seat 2 59. */
    start(&t, "loto(method=keno,players=3,drawings=1)",
          "card3 card4 card5 card6 1 13 22 60 71 84 34 49 52 78");
    act(&t, "take 2");
    act(&t, "take 1");
    act(&t, "take 1");
    calls(&t, 10);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 0), 1);
    assert_int_equal(ret(&t, 1), 0);
    assert_int_equal(ret(&t, 2), -1);
}

static void test_keno_bag_passes_round(void **state)
{
    (void)state;
    struct table t;
    /* The eldest draws the first ten, then the bag goes to the next
     * player: drawing d is drawn by seat d mod 3. */
    start(&t, "loto(method=keno,players=3,drawings=4)", "");
    for (int i = 0; i < 3; i++)
        act(&t, "take 2");
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 10; b++) {
            assert_int_equal(game_current_seat(&t.g, t.st), d % 3);
            act(&t, "call");
        }
    assert_true(game_is_terminal(&t.g, t.st));
    double r[GAME_MAX_PLAYERS];
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] + r[1] + r[2] == 0);
}

/* ---- options and the deck argument -------------------------------------- */

static void test_options_and_decks(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    uint8_t ids[CARDS + NUMS];
    unsigned char st[STATE_MAX];
    assert_int_equal(
        game_make(&g, "loto(method=keno,stake=5)", err, sizeof err), ERR_INVAL);
    assert_non_null(strstr(err, "stake"));
    assert_int_equal(game_make(&g, "loto(drawings=3)", err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "method=keno"));
    assert_int_equal(game_make(&g, "loto(players=17)", err, sizeof err),
                     ERR_RANGE);
    /* Cards are "cardN", balls their number. */
    assert_int_equal(game_make(&g, "loto", err, sizeof err), 0);
    assert_int_equal(
        game_deck_parse(&g, "card3 45 CARD24", ids, 8, err, sizeof err), 3);
    assert_int_equal(ids[0], 2);
    assert_int_equal(ids[1], CARDS + 44);
    assert_int_equal(ids[2], 23);
    assert_true(game_deck_parse(&g, "card25", ids, 8, err, sizeof err) < 0);
    assert_true(game_deck_parse(&g, "91", ids, 8, err, sizeof err) < 0);
    /* A card twice, or a ball twice in one game, is refused by init. */
    ids[0] = 2;
    ids[1] = 2;
    assert_int_equal(game_init(&g, st, 1, ids, 2), ERR_INVAL);
    ids[0] = CARDS + 4;
    ids[1] = CARDS + 4;
    assert_int_equal(game_init(&g, st, 1, ids, 2), ERR_INVAL);
    /* Keno puts the balls back after each drawing of ten: the same ball
     * may come again in the next drawing, not in the same one. */
    assert_int_equal(game_make(&g, "loto(method=keno)", err, sizeof err), 0);
    memset(ids, CARDS + 7, sizeof ids);
    for (int i = 0; i < 10; i++)
        ids[i] = (uint8_t)(CARDS + i);
    assert_int_equal(game_init(&g, st, 1, ids, 11), 0);
    assert_int_equal(game_init(&g, st, 1, ids, 12), ERR_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig1_layout_rules),
        cmocka_unit_test(test_box_of_four_strips),
        cmocka_unit_test(test_taking_cards),
        cmocka_unit_test(test_quarter_prizes_and_ties),
        cmocka_unit_test(test_two_rows_must_be_one_card),
        cmocka_unit_test(test_full_card_tie_odd_chip),
        cmocka_unit_test(test_keno_lines_restake_bankruptcy),
        cmocka_unit_test(test_keno_refund_by_card),
        cmocka_unit_test(test_keno_bag_passes_round),
        cmocka_unit_test(test_options_and_decks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
