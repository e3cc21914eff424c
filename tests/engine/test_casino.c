/* test_casino.c — Casino rule facts from the family games page and
 * docs/games/casino.md.
 *
 * Every test deals from an explicit pack. Seat 0 deals first; each deal
 * gives four consecutive cards to each seat from the dealer's left (seat
 * 1) round to the dealer, then, on a round's first deal, four to the
 * table. With 2 players: seat 1, seat 0, table, then seat 1, seat 0 for
 * each later deal. Whole rounds are played from a script of plays in turn
 * order; the pack is derived from the script (each seat is dealt exactly
 * the cards it plays), so the outcome of the round can be worked out by
 * hand from the script alone. Expected legal sets, names, ids and points
 * are worked out in the comments from the rules, never read from the code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "common/rng.h"
#include "engine/game.h"
#include "engine/games/casino.h"

#include "casino_test_util.h"

/* ---- scripted rounds --------------------------------------------------- */

/* One play: "7h" trails 7♥; "7s>7h" plays 7♠ and captures what follows
 * '>' as the capture's name writes it (groups without spaces). */
static void play_text(const char *tok, char *out, size_t len)
{
    const char *gt = strchr(tok, '>');
    if (gt)
        snprintf(out, len, "play %.*s capture %s", (int)(gt - tok), tok,
                 gt + 1);
    else
        snprintf(out, len, "trail %s", tok);
}

/* The pack of a scripted round for n players (seat 0 deals): each deal,
 * each seat from seat 1 round to seat 0 gets the four cards it plays in
 * that deal; after the first deal come the four table cards. */
static int script_deck(const char *const *plays, int n, const char *table,
                       uint8_t *deck)
{
    int k = 0, per = 4 * n;
    for (int d = 0; d < CASINO_PLAYS / per; d++) {
        for (int i = 1; i <= n; i++)
            for (int j = (i - 1); j < per; j += n)
                deck[k++] = (uint8_t)card(plays[d * per + j]);
        if (d == 0) {
            const char *s = table, *end;
            for (int c = 0; c < 4; c++, s = end) {
                while (*s == ' ')
                    s++;
                deck[k++] = (uint8_t)card_parse(s, &end);
            }
        }
    }
    return k;
}

/* Starts spec on the scripted round's pack. */
static void start_script(struct tc *t, const char *spec,
                         const char *const *plays, const char *table)
{
    uint8_t deck[CARDS_IN_PACK];
    struct game g;
    char err[256];
    assert_int_equal(game_make(&g, spec, err, sizeof err), 0);
    assert_int_equal(script_deck(plays, g.dims.players, table, deck), 52);
    start_cards(t, spec, deck, CARDS_IN_PACK);
}

/* Plays plays[from..to) of the script, seats in turn from the dealer's
 * left (seat 0 deals). */
static void play_script(struct tc *t, const char *const *plays, int from,
                        int to)
{
    char text[GAME_NAME_MAX];
    int n = t->g.dims.players;
    for (int i = from; i < to; i++) {
        play_text(plays[i], text, sizeof text);
        act(t, (1 + i) % n, text);
    }
}

/* Round T1 (2 players). Pattern Y: seat 1 trails 2♣, then seven times
 * seat 0 trails a card and seat 1 takes it with its twin, then seat 0 takes
 * the 2♣ with 2♠. Pattern X (16 times): seat 1 trails, seat 0 takes it.
 * Seat 1 wins A♥A♠ 10♣10♦ and 3-7 of ♥♠ (14 cards, spades A 3 4 5 6 7:
 * 6). Seat 0 wins the other 34 cards and, capturing last, the table's
 * J♣ J♦ Q♣ Q♦: 38 cards, spades 2 8 9 10 J Q K: 7. Points: seat 0 most
 * cards 3 + most spades 1 + 2♠ 1 + A♣ A♦ 2 = 7; seat 1 10♦ 2 + A♥ A♠ 2 =
 * 4. */
static const char *const t1[] = {
    "2c",  "ah",     "as>ah",  "10c", "10d>10c", "3h",  "3s>3h",  "4h",
    "4s>4h", "5h",   "5s>5h",  "6h",  "6s>6h",   "7h",  "7s>7h",  "2s>2c",
    "ac",  "ad>ac",  "2d",     "2h>2d", "3c",    "3d>3c", "4c",   "4d>4c",
    "5c",  "5d>5c",  "6c",     "6d>6c", "7c",    "7d>7c", "8c",   "8d>8c",
    "8h",  "8s>8h",  "9c",     "9d>9c", "9h",    "9s>9h", "10h",  "10s>10h",
    "jh",  "js>jh",  "qh",     "qs>qh", "kc",    "kd>kc", "kh",   "ks>kh"};
static const char *const t1_table = "jc jd qc qd";

/* Round T2 (2 players): pattern Y with thirteen pairs to seat 1, then ten
 * X pairs to seat 0, who captures last. Seat 1: 26 cards, spades A 3-9 (8),
 * 10♦, A♥ A♠. Seat 0: 22 cards + the table's 4 = 26, spades 2 10 J Q K
 * (5), 2♠, A♣ A♦. Cards tie 26-26: nobody scores them. Seat 1: spades 1 +
 * 10♦ 2 + aces 2 = 5; seat 0: 2♠ 1 + aces 2 = 3. */
static const char *const t2[] = {
    "2c",  "ah",    "as>ah", "10c", "10d>10c", "3h",  "3s>3h",  "4h",
    "4s>4h", "5h",  "5s>5h", "6h",  "6s>6h",   "7h",  "7s>7h",  "8h",
    "8s>8h", "9h",  "9s>9h", "3c",  "3d>3c",   "4c",  "4d>4c",  "5c",
    "5d>5c", "6c",  "6d>6c", "2s>2c", "ac",    "ad>ac", "2d",   "2h>2d",
    "7c",  "7d>7c", "8c",    "8d>8c", "9c",    "9d>9c", "10h",  "10s>10h",
    "jh",  "js>jh", "qh",    "qs>qh", "kc",    "kd>kc", "kh",   "ks>kh"};

/* Round T3 (3 players, seats play 1 2 0 1 2 0 ...): pair k is a trail and
 * its twin taking it at once, so the taker cycles seat 2, seat 1, seat 0.
 * Seat 2 takes ♥♠ A 3 4 5 6 and ♣♦ 3 4 5; seat 1 ♥♠ 2 7 8 9 10 and ♣♦ 6 7
 * 8; seat 0 ♥♠ J Q K and ♣♦ A 2 9 10 K, and the table (last capture).
 * Cards: seat 0 20, seats 1 and 2 16: seat 0 3. Spades: seats 1 and 2
 * five each, seat 0 three: a tie, nobody scores. Seat 0: 3 + 10♦ 2 + A♣
 * A♦ 2 = 7; seat 1: 2♠ 1; seat 2: A♥ A♠ 2. */
static const char *const t3[] = {
    "ah",  "as>ah", "2h",  "2s>2h", "jh",  "js>jh", "3h",  "3s>3h",
    "7h",  "7s>7h", "qh",  "qs>qh", "4h",  "4s>4h", "8h",  "8s>8h",
    "kh",  "ks>kh", "5h",  "5s>5h", "9h",  "9s>9h", "ac",  "ad>ac",
    "6h",  "6s>6h", "10h", "10s>10h", "2c", "2d>2c", "3c", "3d>3c",
    "6c",  "6d>6c", "9c",  "9d>9c", "4c",  "4d>4c", "7c",  "7d>7c",
    "10c", "10d>10c", "5c", "5d>5c", "8c", "8d>8c", "kc",  "kd>kc"};

/* Round S (2 players, sweeps): seat 1 opens with 10♣ taking the whole
 * table A♣ A♦ 4♣ 4♦ (one group of 10): a sweep. Then 22 times seat 0
 * trails on the empty table and seat 1 takes the card with its twin:
 * sweeps again. At the end seat 0 trails 5♦, seat 1 trails 5♥ and seat 0's
 * 10♦ takes both, clearing the table with the round's last play: no sweep.
 * Seat 1: 49 cards, all spades, 2♠, four aces, 23 sweeps: 3 + 1 + 1 + 4 =
 * 9, plus 23 with sweeps on. Seat 0: 10♦ 5♦ 5♥, 10♦ scores 2. */
static const char *const sw[] = {
    "10c>4c4dacad", "ah", "as>ah", "2c", "2d>2c", "2h", "2s>2h", "3c",
    "3d>3c", "3h", "3s>3h", "4h", "4s>4h", "5c", "5s>5c", "6c", "6d>6c",
    "6h", "6s>6h", "7c", "7d>7c", "7h", "7s>7h", "8c", "8d>8c", "8h",
    "8s>8h", "9c", "9d>9c", "9h", "9s>9h", "10h", "10s>10h", "jc", "jd>jc",
    "jh", "js>jh", "qc", "qd>qc", "qh", "qs>qh", "kc", "kd>kc", "kh",
    "ks>kh", "5d", "5h", "10d>5d5h"};
static const char *const sw_table = "ac ad 4c 4d";

/* ---- options and dimensions --------------------------------------------- */

static void test_configure_rejects_bad_combinations(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "casino(players=3,partnerships=true)",
                               err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "partnerships"));
    assert_non_null(strstr(err, "players=4"));
    assert_int_equal(game_make(&g, "casino(players=5)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "2..4"));
    assert_int_equal(
        game_make(&g, "casino(players=4,partnerships=true)", err, sizeof err),
        0);
    /* Partners sit opposite: seats 0 and 2 against 1 and 3. */
    assert_int_equal(g.dims.teams, 2);
    assert_int_equal(g.dims.team[0], g.dims.team[2]);
    assert_int_equal(g.dims.team[1], g.dims.team[3]);
    assert_true(g.dims.team[0] != g.dims.team[1]);
    /* 52 trails + 52 cards x 10 kinds x 32 stable options, then one
     * overflow id per legal move beyond a block's 32: at most the bound
     * on legal moves (39056, proved in casino.c) less the 32 stable ids of
     * the overflowing block; 48 plays a round. */
    assert_int_equal(g.dims.max_legal, 39056);
    assert_int_equal(g.dims.num_actions, 52 + 52 * 10 * 32 + 39056 - 32);
    assert_int_equal(g.dims.max_length, 48 * 50);
}

/* ---- the deal ------------------------------------------------------------ */

static void test_deal_order_and_second_deal(void **state)
{
    (void)state;
    struct tc t;
    /* Seat 1 gets the first four, seat 0 the next four, then the table;
     * the second deal (after eight trails) gives 2♥-5♥ to seat 1. */
    start(&t, "casino", "AC 2C 3C 4C  AD 2D 3D 4D  JS QS KS JH  "
                        "2H 3H 4H 5H  6S 7S 8S 9S");
    assert_int_equal(game_current_seat(&t.g, &t.st), 1);
    cards_are(view_get(&t, 1, "hand"), "A♣ 2♣ 3♣ 4♣");
    cards_are(view_get(&t, 0, "hand"), "A♦ 2♦ 3♦ 4♦");
    cards_are(view_get(&t, 0, "table"), "J♥ J♠ Q♠ K♠");
    assert_int_equal(view_get(&t, 0, "stock")->via.i64, 40);
    static const char *const plays[] = {"ac", "ad", "2c", "2d",
                                        "3c", "3d", "4c", "4d"};
    play_script(&t, plays, 0, 8);
    assert_int_equal(game_current_seat(&t.g, &t.st), 1);
    cards_are(view_get(&t, 1, "hand"), "2♥ 3♥ 4♥ 5♥");
    cards_are(view_get(&t, 0, "hand"), "6♠ 7♠ 8♠ 9♠");
    assert_int_equal(view_get(&t, 0, "deal")->via.i64, 2);
    assert_int_equal(view_get(&t, 0, "stock")->via.i64, 32);
    view_free(&t);
}

/* ---- captures ------------------------------------------------------------ */

/* Worked example: table A 2 3 5 6 8, an 8 is played. Groups of 8:
 * {8}, {6,2}, {5,3}, {5,2,A}; {6,2} and {5,2,A} share the 2, {5,3} and
 * {5,2,A} the 5. Disjoint collections: {8} or not, times none, {6,2},
 * {5,3}, {5,2,A}, {6,2}+{5,3}: 2 x 5 - 1 = 9 captures, the biggest
 * {8,6+2,5+3} and {8,5+2+A}, never all six (they add up to 25). Order:
 * most cards first, then the lower item mask (bit = card id: A♣ 0, 6♣ 5,
 * 3♦ 15, 8♦ 20, 2♥ 27, 5♠ 43). */
static void test_eight_captures_from_a2356_8(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "6C 8S KC KD  8D QC QD JC  AC 2H 3D 5S");
    act(&t, 1, "trail 6c");
    act(&t, 0, "trail 8d");
    static const char *const want[] = {
        "play 8♠ capture 8♦ + 6♣2♥ + 5♠3♦", /* 5 cards */
        "play 8♠ capture 6♣2♥ + 5♠3♦",      /* 4: bits 43 27 15 5 */
        "play 8♠ capture 8♦ + 5♠2♥A♣",      /* 4: bits 43 27 20 0 */
        "play 8♠ capture 8♦ + 6♣2♥",        /* 3: top bit 27 */
        "play 8♠ capture 8♦ + 5♠3♦",        /* 3: 43 20 15 */
        "play 8♠ capture 5♠2♥A♣",           /* 3: 43 27 0 */
        "play 8♠ capture 6♣2♥",             /* 2: top bit 27 */
        "play 8♠ capture 5♠3♦",             /* 2: top bit 43 */
        "play 8♠ capture 8♦",
    };
    names_are(&t, "play 8♠", want, 9);
    /* 8♠ is card 46: its capture block starts at 52 + 46 * 10 * 32. */
    assert_int_equal(find(&t, 1, want[0]), 52 + 46 * 10 * 32);
    assert_int_equal(find(&t, 1, want[8]), 52 + 46 * 10 * 32 + 8);
    act(&t, 1, "play 8s capture 8d + 6c2h + 5s3d");
    cards_are(view_get(&t, 0, "table"), "A♣");
    cards_are(&view_get(&t, 0, "won")->via.array.ptr[1],
              "6♣ 3♦ 8♦ 2♥ 5♠ 8♠");
    view_free(&t);
}

/* The page: "an eight could capture one, two or three eights": with 8♣ 8♦ 8♥
 * on the table an 8 may take any non-empty set of them: 7 captures. */
static void test_one_two_or_three_eights(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "8S KC KD QC  JC JD QD QH  8C 8D 8H KS");
    static const char *const want[] = {
        "play 8♠ capture 8♣ + 8♦ + 8♥", "play 8♠ capture 8♣ + 8♦",
        "play 8♠ capture 8♣ + 8♥",      "play 8♠ capture 8♦ + 8♥",
        "play 8♠ capture 8♣",           "play 8♠ capture 8♦",
        "play 8♠ capture 8♥",
    };
    names_are(&t, "play 8♠", want, 7);
}

/* The page: Q♥ and Q♦ on the table, Q♠ played: either queen, not both. */
static void test_face_card_takes_one_match(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "QS 2C 3C 4C  AD 2D 3D 4D  QD QH 9S KH");
    static const char *const want[] = {"play Q♠ capture Q♦",
                                       "play Q♠ capture Q♥"};
    names_are(&t, "play Q♠", want, 2);
    assert_true(is_legal(&t, "trail qs"));
}

/* ---- builds -------------------------------------------------------------- */

/* Worked example: a 5 on the table, holding 3 and 8: "build 8". The
 * build is then taken only as a unit, by an 8 (stolen by seat 0 here); a 5
 * or a 3 cannot touch its cards; seat 0's 2 with its 10 may raise it. */
static void test_three_on_five_builds_eight(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "3H 8S 9C 4D  5D 8D 2C 10D  5C JD QD KD");
    static const char *const want[] = {"play 3♥ build 8 on 5♣"};
    names_are(&t, "play 3♥", want, 1);
    act(&t, 1, "play 3h build 8 on 5c");
    msgpack_object *b = view_get(&t, 0, "builds");
    assert_int_equal(b->via.array.size, 1);
    assert_int_equal(map_get(&b->via.array.ptr[0], "value")->via.i64, 8);
    cards_are(map_get(&b->via.array.ptr[0], "cards"), "5♣ 3♥");
    assert_false(map_get(&b->via.array.ptr[0], "multiple")->via.boolean);
    assert_int_equal(map_get(&b->via.array.ptr[0], "owner")->via.i64, 1);
    char none[4][GAME_NAME_MAX];
    assert_int_equal(names_with(&t, "play 5♦ capture", none, 4), 0);
    assert_int_equal(names_with(&t, "play 2♣ capture", none, 4), 0);
    assert_true(is_legal(&t, "play 2c build 10 on 8-build"));
    act(&t, 0, "play 8d capture 8-build");
    cards_are(&view_get(&t, 0, "won")->via.array.ptr[0], "5♣ 8♦ 3♥");
    assert_int_equal(view_get(&t, 0, "builds")->via.array.size, 0);
    view_free(&t);
}

/* Worked example: A and 2 on the table, holding 3 3 6: a 3 may take
 * A+2, make a single 6-build or a multiple build of 3s; building 4 (3 on
 * the A) or 5 (3 on the 2) is illegal without a 4 or 5 in hand; the 6 and
 * the king can only trail. Each 3 has the same three plays. Ids ascend:
 * trails by card id (6♣ 5, K♣ 12, 3♥ 28, 3♠ 41), then per card its
 * capture, build 3, build 6. */
static void test_ace_two_with_three_three_six(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "3H 3S 6C KC  5D 8D 2C 10D  AC 2D JH QH");
    static const char *const all[] = {
        "trail 6♣",
        "trail K♣",
        "trail 3♥",
        "trail 3♠",
        "play 3♥ capture 2♦A♣",
        "play 3♥ build 3 on 2♦A♣",
        "play 3♥ build 6 on 2♦A♣",
        "play 3♠ capture 2♦A♣",
        "play 3♠ build 3 on 2♦A♣",
        "play 3♠ build 6 on 2♦A♣",
    };
    names_are(&t, "", all, 10);
    act(&t, 1, "play 3h build 3 on 2dac");
    msgpack_object *b = view_get(&t, 0, "builds");
    assert_int_equal(map_get(&b->via.array.ptr[0], "value")->via.i64, 3);
    assert_true(map_get(&b->via.array.ptr[0], "multiple")->via.boolean);
    view_free(&t);
}

/* The page's Example A (3 players; seats play 1, 2, 0): 3+3 announced 6 is a
 * single build; seat 2 (2 and 8) raises it to 8, seat 0 (A and 9) to 9.
 * Seat 1, whose build was raised by others, owns nothing and may trail. */
static void test_example_a_raising_a_single_build(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino(players=3)", "3D 6S KC KD  2H 8C KH KS  AS 9D QC QD  "
                                   "3C JC JD JH");
    act(&t, 1, "play 3d build 6 on 3c");
    assert_true(is_legal(&t, "play 2h build 8 on 6-build"));
    act(&t, 2, "play 2h build 8 on 6-build");
    assert_true(is_legal(&t, "play as build 9 on 8-build"));
    act(&t, 0, "play as build 9 on 8-build");
    msgpack_object *b = view_get(&t, 1, "builds");
    assert_int_equal(b->via.array.size, 1);
    assert_int_equal(map_get(&b->via.array.ptr[0], "value")->via.i64, 9);
    assert_int_equal(map_get(&b->via.array.ptr[0], "owner")->via.i64, 0);
    cards_are(map_get(&b->via.array.ptr[0], "cards"), "3♣ 3♦ 2♥ A♠");
    assert_true(is_legal(&t, "trail kc"));
    view_free(&t);
}

/* The page's Example A, second part: had the 3s been announced "3s" (a
 * multiple build) it could not become 5: seat 2 with 2 and 5 may only trail
 * the 2. */
static void test_example_a_multiple_build_keeps_value(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino(players=3)", "3D 3H KC KD  2H 5C KH KS  AS 9D QC QD  "
                                   "3C JC JD JH");
    act(&t, 1, "play 3d build 3 on 3c");
    assert_false(is_legal(&t, "play 2h build 5 on 3-build"));
    /* Seat 2 owns nothing, so it may trail; nothing else is possible. */
    static const char *const want[] = {"trail 5♣", "trail 2♥", "trail K♥",
                                       "trail K♠"};
    names_are(&t, "", want, 4);
}

/* The page's Example B: A and 4 built into 5, a loose 2; holding 3 8 10, the 3
 * may raise the 5-build to 8 but not absorb the 2 to make 10 ("never a
 * table card to change the value of a single build"). The permissive
 * variants (options build_as_card, raise_with_table) allow the 10. */
static void test_example_b_no_table_card_raises(void **state)
{
    (void)state;
    static const char *const specs[] = {"casino",
                                        "casino(raise_with_table=true)",
                                        "casino(build_as_card=true)"};
    for (int i = 0; i < 3; i++) {
        struct tc t;
        start(&t, specs[i], "4C 5H KC KD  3H 8S 10C KS  AD 2S JC JD");
        act(&t, 1, "play 4c build 5 on ad");
        assert_true(is_legal(&t, "play 3h build 8 on 5-build"));
        assert_int_equal(is_legal(&t, "play 3h build 10 on 5-build2s"),
                         i > 0);
        /* Nor may the 3 and the loose 2 join the 5-build: no 5 held. */
        assert_false(is_legal(&t, "play 3h build 5 on 2s + 5-build"));
    }
}

/* The page's Example C: a 7-build (3+4) and a loose 9; holding 2 and 9, the 2
 * raises the 7 to 9 and may take in the loose 9 too: a multiple 9-build. */
static void test_example_c_raise_and_incorporate(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "4D 7C KC KD  2H 9S QS KS  3C 9D JC JD");
    act(&t, 1, "play 4d build 7 on 3c");
    static const char *const want[] = {"play 2♥ build 9 on 7-build + 9♦",
                                       "play 2♥ build 9 on 7-build"};
    names_are(&t, "play 2♥", want, 2);
    act(&t, 0, "play 2h build 9 on 7-build + 9d");
    msgpack_object *b = view_get(&t, 1, "builds");
    assert_int_equal(b->via.array.size, 1);
    assert_int_equal(map_get(&b->via.array.ptr[0], "value")->via.i64, 9);
    assert_true(map_get(&b->via.array.ptr[0], "multiple")->via.boolean);
    assert_int_equal(map_get(&b->via.array.ptr[0], "owner")->via.i64, 0);
    cards_are(map_get(&b->via.array.ptr[0], "cards"), "3♣ 4♦ 9♦ 2♥");
    view_free(&t);
}

/* The page: a 9-build (5+4) and a loose 3; holding 6 9 9: the 6 with the 3
 * joins the build (multiple 9), then a 9 is added, then the other 9 takes
 * it all. A new 9-build beside the old one is no option: it joins it. The
 * owner may not trail meanwhile, and his last 9 must take the build. */
static void test_nine_build_added_to_then_taken(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "4C 9C KC KD  6H 9S 9H QS  5D 3D JC JD");
    act(&t, 1, "play 4c build 9 on 5d");
    assert_false(is_legal(&t, "play 6h build 9 on 3d"));
    act(&t, 0, "play 6h build 9 on 3d + 9-build");
    act(&t, 1, "trail kc"); /* seat 1 no longer owns the build */
    /* Seat 0 owns it: no trail; a 9 may add to it or take it. */
    static const char *const want[] = {
        "play 9♥ capture 9-build", "play 9♥ build 9 on 9-build",
        "play 9♠ capture 9-build", "play 9♠ build 9 on 9-build"};
    names_are(&t, "", want, 4);
    act(&t, 0, "play 9s build 9 on 9-build");
    act(&t, 1, "trail kd");
    /* Only 9♥ and K♠ left: the 9 must take the build. */
    static const char *const last[] = {"play 9♥ capture 9-build"};
    names_are(&t, "", last, 1);
    act(&t, 0, "play 9h capture 9-build");
    cards_are(&view_get(&t, 0, "won")->via.array.ptr[0],
              "4♣ 3♦ 5♦ 6♥ 9♥ 9♠");
    view_free(&t);
}

/* The page: a 9-build and a loose 5; the player before plays a 4: the 9 takes
 * the build, the 5 and the 4 at once. Taking only 5+4 would leave the
 * builder's own build without a capturing card: illegal. */
static void test_nine_takes_build_and_loose_set(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "3H 9S KC KD  4D QS KS KH  6C 5C JC JD");
    act(&t, 1, "play 3h build 9 on 6c");
    act(&t, 0, "trail 4d");
    static const char *const want[] = {"play 9♠ capture 9-build + 5♣4♦",
                                       "play 9♠ capture 9-build"};
    names_are(&t, "play 9♠", want, 2);
    act(&t, 1, "play 9s capture 9-build + 5c4d");
    cards_are(&view_get(&t, 0, "won")->via.array.ptr[1],
              "5♣ 6♣ 4♦ 3♥ 9♠");
    view_free(&t);
}

/* The page: a 7-build (4+3) and a loose 2 cannot be taken by a 9; with option
 * build_as_card the single 7-build counts as a 7 and can. */
static void test_nine_cannot_take_seven_build_and_two(void **state)
{
    (void)state;
    for (int as_card = 0; as_card < 2; as_card++) {
        struct tc t;
        start(&t, as_card ? "casino(build_as_card=true)" : "casino",
              "4D 7C KC KD  9S QS KS KH  3C 2D JC JD");
        act(&t, 1, "play 4d build 7 on 3c");
        char got[4][GAME_NAME_MAX];
        int n = names_with(&t, "play 9♠ capture", got, 4);
        assert_int_equal(n, as_card);
        if (as_card)
            assert_string_equal(got[0], "play 9♠ capture 7-build2♦");
    }
}

/* ---- ownership ------------------------------------------------------------ */

/* Several builds at once when a capturing card is held for each. Seat 1
 * builds 8 (3 on 5) and then 5 (2 on 3), holding 8 and 5. Owning both, he
 * may not trail, and each capturing card, being his last of its value,
 * must take its own build: exactly two plays are left. In particular the
 * 5♥ may not go with the loose 3♣ onto the 8-build: that would leave the
 * 5-build with no 5 to take it. */
static void test_two_builds_with_a_card_for_each(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "3H 8S 2C 5H  KD 3C KS KH  5C 3D JC JD");
    act(&t, 1, "play 3h build 8 on 5c");
    act(&t, 0, "trail kd");
    act(&t, 1, "play 2c build 5 on 3d");
    act(&t, 0, "trail 3c");
    assert_false(is_legal(&t, "play 5h build 8 on 3c + 8-build"));
    static const char *const want[] = {"play 5♥ capture 5-build",
                                       "play 8♠ capture 8-build"};
    names_are(&t, "", want, 2);
}

/* The no-trailing rule and option owner_may_trail. Seat 1 builds 8 holding 8♠
 * 9♣ 4♦: by default his next play cannot be a trail; with owner_may_trail he
 * may trail 9♣ or 4♦ but not 8♠, his only card to take the build. */
static void test_owner_may_not_trail_unless_g2c(void **state)
{
    (void)state;
    for (int g2c = 0; g2c < 2; g2c++) {
        struct tc t;
        start(&t, g2c ? "casino(owner_may_trail=true)" : "casino",
              "3H 8S 9C 4D  QD KS QC KH  5C JD QH KD");
        act(&t, 1, "play 3h build 8 on 5c");
        act(&t, 0, "trail qd");
        char got[4][GAME_NAME_MAX];
        assert_int_equal(names_with(&t, "trail", got, 4), 2 * g2c);
        assert_false(is_legal(&t, "trail 8s"));
        assert_int_equal(is_legal(&t, "trail 9c"), g2c);
        assert_int_equal(is_legal(&t, "trail 4d"), g2c);
    }
}

/* Partnerships (seats play 1 2 3 0; partners 1 and 3): seat 1's build is
 * not seat 3's, so seat 3 may trail; seat 3 may not raise it to 9 without
 * a 9 of his own (partners hold their own capturing card), but with
 * his 10 he may raise it to 10, and then seat 1 owns nothing. */
static void test_partner_needs_own_capturing_card(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino(players=4,partnerships=true)",
          "3H 8S 9C 4D  QD KS QC KH  AC 2C 10S JS  JH QH 7H 7D  "
          "5C JD KD 6S");
    act(&t, 1, "play 3h build 8 on 5c");
    act(&t, 2, "trail qd");
    assert_true(is_legal(&t, "trail ac"));
    assert_false(is_legal(&t, "play ac build 9 on 8-build"));
    assert_true(is_legal(&t, "play 2c build 10 on 8-build"));
    act(&t, 3, "play 2c build 10 on 8-build");
    /* Seat 1 no longer owns it (his partner added to it): he may trail. */
    act(&t, 0, "trail jh");
    assert_true(is_legal(&t, "trail 9c"));
}

/* ---- scoring --------------------------------------------------------------- */

static struct casino_state *cs(struct tc *t)
{
    return &t->st;
}

/* T1: no ties. Seat 0 7 points, seat 1 4 (worked out above t1[]). The
 * game goes on: the deal passes to seat 1, so seat 0 leads round 2. */
static void test_round_points_without_ties(void **state)
{
    (void)state;
    struct tc t;
    start_script(&t, "casino", t1, t1_table);
    play_script(&t, t1, 0, 47);
    /* Before the last play: seat 0 has 17 captures' 32 cards... */
    assert_int_equal(hand_count(cs(&t)->won[0]), 32);
    assert_int_equal(hand_count(cs(&t)->won[1]), 14);
    play_script(&t, t1, 47, 48);
    msgpack_object *last = view_get(&t, 0, "last_round");
    assert_int_equal(int_at(last, 0), 7);
    assert_int_equal(int_at(last, 1), 4);
    msgpack_object *sc = view_get(&t, 0, "scores");
    assert_int_equal(int_at(sc, 0), 7);
    assert_int_equal(int_at(sc, 1), 4);
    assert_false(game_is_terminal(&t.g, &t.st));
    assert_int_equal(view_get(&t, 0, "dealer")->via.i64, 1);
    assert_int_equal(view_get(&t, 0, "round")->via.i64, 2);
    assert_int_equal(game_current_seat(&t.g, &t.st), 0);
    assert_int_equal(ret(&t, 0), 0);
    view_free(&t);
}

/* Most cards tied 26-26 (the table's 4 leftovers went to seat 0, the
 * last capturer, making the tie): nobody scores the 3. Seat 1 5, seat 0 3.
 * With cards_scoring=two_and_last the tie still scores nothing and seat 0
 * gets 1 for the last capture: 4 and 5. */
static void test_tied_cards_score_nothing(void **state)
{
    (void)state;
    static const char *const specs[] = {"casino",
                                        "casino(cards_scoring=two_and_last)"};
    for (int i = 0; i < 2; i++) {
        struct tc t;
        start_script(&t, specs[i], t2, t1_table);
        play_script(&t, t2, 0, 47);
        assert_int_equal(hand_count(cs(&t)->won[0]), 20);
        assert_int_equal(hand_count(cs(&t)->won[1]), 26);
        play_script(&t, t2, 47, 48);
        msgpack_object *last = view_get(&t, 0, "last_round");
        assert_int_equal(int_at(last, 0), 3 + i);
        assert_int_equal(int_at(last, 1), 5);
        view_free(&t);
    }
}

/* T1 under two_and_last: seat 0 most cards 2 + last capture 1 + spades 1 +
 * 2♠ 1 + aces 2 = 7; seat 1 unchanged, 4. */
static void test_two_for_cards_one_for_last(void **state)
{
    (void)state;
    struct tc t;
    start_script(&t, "casino(cards_scoring=two_and_last)", t1, t1_table);
    play_script(&t, t1, 0, 48);
    msgpack_object *last = view_get(&t, 0, "last_round");
    assert_int_equal(int_at(last, 0), 7);
    assert_int_equal(int_at(last, 1), 4);
    view_free(&t);
}

/* T3 (3 players): spades tied 5-5 between seats 1 and 2: nobody scores
 * them. Seat 0 7, seat 1 1, seat 2 2. */
static void test_tied_spades_score_nothing(void **state)
{
    (void)state;
    struct tc t;
    start_script(&t, "casino(players=3)", t3, t1_table);
    play_script(&t, t3, 0, 48);
    msgpack_object *last = view_get(&t, 0, "last_round");
    assert_int_equal(int_at(last, 0), 7);
    assert_int_equal(int_at(last, 1), 1);
    assert_int_equal(int_at(last, 2), 2);
    view_free(&t);
}

/* Round S: 23 sweeps for seat 1 and none for seat 0's final clearing
 * capture. Without the sweeps option they score nothing (9 and 2); with
 * it seat 1 scores 32 and, past 21, wins at once. */
static void test_sweeps_flag(void **state)
{
    (void)state;
    for (int on = 0; on < 2; on++) {
        struct tc t;
        start_script(&t, on ? "casino(sweeps=true)" : "casino", sw,
                     sw_table);
        play_script(&t, sw, 0, 47);
        assert_int_equal(cs(&t)->sweeps[1], 23);
        play_script(&t, sw, 47, 48);
        msgpack_object *last = view_get(&t, 0, "last_round");
        assert_int_equal(int_at(last, 0), 2);
        assert_int_equal(int_at(last, 1), on ? 32 : 9);
        assert_int_equal(game_is_terminal(&t.g, &t.st), on);
        if (on) {
            assert_int_equal(cs(&t)->sweeps[0], 0);
            assert_int_equal(ret(&t, 1), 1);
            assert_int_equal(ret(&t, 0), -1);
        }
        view_free(&t);
    }
}

/* Partnerships: with seats playing 1 2 3 0 and each trail taken at once by
 * the next seat, every capture is by seat 2 or seat 0: their side wins all
 * 11 points, reaches target 11, and both partners get +1. */
static void test_partnership_scores_and_returns(void **state)
{
    (void)state;
    struct tc t;
    start_script(&t, "casino(players=4,partnerships=true,target=11)", t3,
                 t1_table);
    play_script(&t, t3, 0, 48);
    assert_true(game_is_terminal(&t.g, &t.st));
    msgpack_object *sc = view_get(&t, 1, "scores");
    assert_int_equal(int_at(sc, 0), 11);
    assert_int_equal(int_at(sc, 1), 0);
    assert_int_equal(int_at(sc, 2), 11);
    assert_int_equal(int_at(sc, 3), 0);
    assert_true(ret(&t, 0) == 1 && ret(&t, 2) == 1);
    assert_true(ret(&t, 1) == -1 && ret(&t, 3) == -1);
    view_free(&t);
}

/* ---- the end of the game ---------------------------------------------------- */

/* Plays round T1 (seat 0 +7, seat 1 +4) after setting the game totals. */
static void t1_from(struct tc *t, const char *spec, int s0, int s1)
{
    start_script(t, spec, t1, t1_table);
    cs(t)->score[0] = (int16_t)s0;
    cs(t)->score[1] = (int16_t)s1;
    play_script(t, t1, 0, 48);
}

/* Game to 21: 14 + 7 = 21 reaches it, 16 + 4 = 20 does not: seat 0 wins. */
static void test_first_to_21_wins(void **state)
{
    (void)state;
    struct tc t;
    t1_from(&t, "casino", 14, 16);
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 1 && ret(&t, 1) == -1);
    /* 13 + 7 = 20 and 16 + 4 = 20: nobody has 21 yet, play on. */
    t1_from(&t, "casino", 13, 16);
    assert_false(game_is_terminal(&t.g, &t.st));
}

/* Both reach 21 in one round: the higher wins: 14 + 7 = 21 against
 * 19 + 4 = 23, seat 1 wins. */
static void test_both_reach_21_higher_wins(void **state)
{
    (void)state;
    struct tc t;
    t1_from(&t, "casino", 14, 19);
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 0) == -1);
}

/* Exact tie over 21 (16 + 7 = 19 + 4 = 23): another round is played;
 * at the round cap the episode ends drawn instead. */
static void test_exact_tie_plays_another_round(void **state)
{
    (void)state;
    struct tc t;
    t1_from(&t, "casino", 16, 19);
    assert_false(game_is_terminal(&t.g, &t.st));
    msgpack_object *sc = view_get(&t, 0, "scores");
    assert_int_equal(int_at(sc, 0), 23);
    assert_int_equal(int_at(sc, 1), 23);
    assert_int_equal(view_get(&t, 0, "round")->via.i64, 2);
    assert_int_equal(hand_count(cs(&t)->hand[0]), 4);
    assert_int_equal(hand_count(cs(&t)->loose), 4);
    view_free(&t);
    t1_from(&t, "casino(max_rounds=1)", 16, 19);
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 0 && ret(&t, 1) == 0);
}

/* ---- hidden information, tensor and view ------------------------------------ */

/* Seat 1 owns a 7-build, so his hidden hand must hold a 7: every
 * determinization for seat 0 gives him one (any of the unseen 7s), keeps
 * seat 0's hand and the public table, and changes what seat 0 cannot see. */
static void test_determinize_keeps_owner_card(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "4D 7C KC KD  2H 9S QS KS  3C 9D JC JD");
    act(&t, 1, "play 4d build 7 on 3c");
    struct rng r;
    rng_seed(&r, 5);
    bool changed = false;
    for (int i = 0; i < 200; i++) {
        struct casino_state d = t.st;
        t.g.def->determinize(&t.g, &d, 0, &r);
        assert_true(d.hand[0] == t.st.hand[0]);
        assert_true(d.loose == t.st.loose && d.build[7] == t.st.build[7]);
        assert_int_equal(hand_count(d.hand[1]), 3);
        bool seven = false;
        for (int s = 0; s < 4; s++)
            seven |= hand_has(d.hand[1], card_make(7, s));
        assert_true(seven);
        changed |= d.hand[1] != t.st.hand[1];
    }
    assert_true(changed);
}

/* The tensor shows seat 1's 8-build from seat 0's side: its cards at 8/10,
 * the build of value 8 present, single, owned by the next seat (index 1
 * in seat 0's relative order). */
static void test_observation_of_a_build(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "3H 8S 9C 4D  5D 8D 2C 10D  5C JD QD KD");
    act(&t, 1, "play 3h build 8 on 5c");
    struct obs_segment seg[GAME_OBS_SEGMENTS];
    int nseg = t.g.def->obs_layout(&t.g, seg, GAME_OBS_SEGMENTS);
    float obs[1024];
    assert_true(t.g.dims.obs_size <= 1024);
    t.g.def->observe(&t.g, &t.st, 0, obs);
    int in_build = -1, builds = -1, multiple = -1, owner = -1, hand = -1;
    for (int i = 0; i < nseg; i++) {
        if (!strcmp(seg[i].name, "in_build"))
            in_build = seg[i].offset;
        else if (!strcmp(seg[i].name, "builds"))
            builds = seg[i].offset;
        else if (!strcmp(seg[i].name, "multiple"))
            multiple = seg[i].offset;
        else if (!strcmp(seg[i].name, "owner"))
            owner = seg[i].offset;
        else if (!strcmp(seg[i].name, "hand"))
            hand = seg[i].offset;
    }
    assert_true(obs[in_build + card("5c")] == 0.8f);
    assert_true(obs[in_build + card("3h")] == 0.8f);
    assert_true(obs[builds + 8 - 2] == 1 && obs[multiple + 8 - 2] == 0);
    assert_true(obs[owner + (8 - 2) * 2 + 1] == 1);
    assert_true(obs[hand + card("10d")] == 1 && obs[hand + card("9c")] == 0);
}

/* The view's history names each play of the round as it was made. */
static void test_view_history(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "casino", "6C 8S KC KD  8D QC QD JC  AC 2H 3D 5S");
    act(&t, 1, "trail 6c");
    act(&t, 0, "trail 8d");
    act(&t, 1, "play 8s capture 8d + 5s2hac");
    msgpack_object *h = view_get(&t, 0, "history");
    assert_int_equal(h->via.array.size, 3);
    assert_int_equal(int_at(&h->via.array.ptr[2], 0), 1);
    str_is(&h->via.array.ptr[0].via.array.ptr[1], "trail 6♣");
    str_is(&h->via.array.ptr[2].via.array.ptr[1],
           "play 8♠ capture 8♦ + 5♠2♥A♣");
    assert_int_equal(view_get(&t, 0, "last_capturer")->via.i64, 1);
    view_free(&t);
}

/* An id with no option behind it in this state still has a name. */
static void test_generic_name_of_an_empty_option(void **state)
{
    (void)state;
    struct tc t;
    char name[GAME_NAME_MAX];
    start(&t, "casino", "6C 8S KC KD  8D QC QD JC  AC 2H 3D 5S");
    /* 8♠ (46), build 9 (kind 8), option 3: nothing to build on here. */
    game_action_name(&t.g, &t.st, 52 + (46 * 10 + 8) * 32 + 3, name,
                     sizeof name);
    assert_string_equal(name, "play 8♠ build 9 #3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_configure_rejects_bad_combinations),
        cmocka_unit_test(test_deal_order_and_second_deal),
        cmocka_unit_test(test_eight_captures_from_a2356_8),
        cmocka_unit_test(test_one_two_or_three_eights),
        cmocka_unit_test(test_face_card_takes_one_match),
        cmocka_unit_test(test_three_on_five_builds_eight),
        cmocka_unit_test(test_ace_two_with_three_three_six),
        cmocka_unit_test(test_example_a_raising_a_single_build),
        cmocka_unit_test(test_example_a_multiple_build_keeps_value),
        cmocka_unit_test(test_example_b_no_table_card_raises),
        cmocka_unit_test(test_example_c_raise_and_incorporate),
        cmocka_unit_test(test_nine_build_added_to_then_taken),
        cmocka_unit_test(test_nine_takes_build_and_loose_set),
        cmocka_unit_test(test_nine_cannot_take_seven_build_and_two),
        cmocka_unit_test(test_two_builds_with_a_card_for_each),
        cmocka_unit_test(test_owner_may_not_trail_unless_g2c),
        cmocka_unit_test(test_partner_needs_own_capturing_card),
        cmocka_unit_test(test_round_points_without_ties),
        cmocka_unit_test(test_tied_cards_score_nothing),
        cmocka_unit_test(test_two_for_cards_one_for_last),
        cmocka_unit_test(test_tied_spades_score_nothing),
        cmocka_unit_test(test_sweeps_flag),
        cmocka_unit_test(test_partnership_scores_and_returns),
        cmocka_unit_test(test_first_to_21_wins),
        cmocka_unit_test(test_both_reach_21_higher_wins),
        cmocka_unit_test(test_exact_tie_plays_another_round),
        cmocka_unit_test(test_determinize_keeps_owner_card),
        cmocka_unit_test(test_observation_of_a_build),
        cmocka_unit_test(test_view_history),
        cmocka_unit_test(test_generic_name_of_an_empty_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
