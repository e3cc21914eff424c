/* test_casino_table.c — Casino on cluttered tables: more than 32 options
 * of one card and kind (overflow ids), the table limit of 14 numeral items,
 * and the state's build masks, on packs dealt as in test_casino.c and on
 * hand-made tables. Expected sets, counts and names are worked out in the
 * comments from the rules (docs/games/casino.md), never read from the code.
 */
#include "casino_test_util.h"

#include "common/err.h"
#include "common/rng.h"

/* ---- cluttered tables: overflow ids and the table limit ----------------- */

/* The current seat's legal ids, ascending; returns how many. */
static int legal_ids(struct tc *t, int *ids)
{
    int seat = game_current_seat(&t->g, &t->st);
    return t->g.def->legal(&t->g, &t->st, seat, ids);
}

static void name_is(struct tc *t, int id, const char *want)
{
    char name[GAME_NAME_MAX];
    game_action_name(&t->g, &t->st, id, name, sizeof name);
    assert_string_equal(name, want);
}

/* Table 5♣5♦5♥5♠ and the trailed 10♣10♦10♥; seat 0 holds 10♠ K♣ Q♣.
 * 10♠ takes any union of disjoint groups adding up to 10: each 10 alone
 * and each pair of 5s (nothing else adds up to 10). So a capture is any
 * subset of the three 10s (8) with an even number of 5s (none, one of the
 * C(4,2) = 6 pairs, or all four: 8), not empty: 8 * 8 - 1 = 63. 10♠
 * builds nothing (a build of 10 needs another 10 held), K♣ and Q♣ take
 * nothing (no loose K or Q), all three may trail: 66 legal moves. By size
 * (10s + 5s): 7 cards: 1; 6: 2+4, 3; 5: 3+2 or 1+4, 6 + 3 = 9; 4: 2+2 or
 * 0+4, 18 + 1 = 19: these 32 fill the stable ids k = 0..31. The 31 others
 * (3 cards: 1+2 or 3+0, 18 + 1 = 19; 2: 6 + 3 = 9; 1: 3) are overflow
 * slots 0..30, in the same order (most cards, then lowest item mask). */
static void test_overflow_beyond_32_options(void **state)
{
    (void)state;
    struct tc t;
    static int ids[CASINO_MAX_LEGAL];
    start(&t, "casino", "10C 10H JD JH  10D 10S KC QC  5C 5D 5H 5S");
    act(&t, 1, "trail 10c");
    act(&t, 0, "trail 10d");
    act(&t, 1, "trail 10h");
    assert_int_equal(legal_ids(&t, ids), 66);
    /* Trails by card id: Q♣ 11, K♣ 12, 10♠ 3 * 13 + 9 = 48. */
    assert_int_equal(ids[0], 11);
    assert_int_equal(ids[1], 12);
    assert_int_equal(ids[2], 48);
    /* 10♠'s capture block: 52 + (48 * 10 + 0) * 32 + k = 15412 + k. */
    for (int k = 0; k < 32; k++)
        assert_int_equal(ids[3 + k], 15412 + k);
    /* Overflow ids follow every stable id: 52 + 52 * 10 * 32 = 16692. */
    for (int i = 0; i < 31; i++)
        assert_int_equal(ids[35 + i], 16692 + i);
    name_is(&t, 15412, "play 10♠ capture 10♣ + 10♦ + 10♥ + 5♣5♦ + 5♥5♠");
    /* k = 31, the last 4-card option: the highest item mask (bits: 5♣ 4,
     * 10♣ 9, 5♦ 17, 10♦ 22, 5♥ 30, 10♥ 35, 5♠ 43) holds 5♠, 10♥, 5♥,
     * then 10♦. */
    name_is(&t, 15443, "play 10♠ capture 10♦ + 10♥ + 5♥5♠");
    /* Rank 32, overflow slot 0: the 3-card option of lowest mask, the
     * three lowest items 5♣ 10♣ 5♦. Rank 62, slot 30: the last single 10. */
    name_is(&t, 16692, "play 10♠ capture 10♣ + 5♣5♦");
    name_is(&t, 16722, "play 10♠ capture 10♥");
    assert_int_equal(find(&t, 0, "play 10s capture 10h"), 16722);
    assert_int_equal(find(&t, 0, "play 10s capture 10c + 5c5d"), 16692);
    act(&t, 0, "play 10s capture 10c + 5c5d");
    assert_true(t.st.won[0] == (card_bit(card("10s")) | card_bit(card("10c")) |
                                card_bit(card("5c")) | card_bit(card("5d"))));
    assert_true(t.st.loose == (card_bit(card("10d")) | card_bit(card("10h")) |
                               card_bit(card("5h")) | card_bit(card("5s"))));
    assert_int_equal(view_get(&t, 0, "last_capturer")->via.i64, 0);
    view_free(&t);
    /* Seat 1 (J♦ J♥) has no overflow move: the id is refused and has its
     * generic name. */
    assert_int_equal(game_apply(&t.g, &t.st, 1, 16692), ERR_ILLEGAL_ACTION);
    name_is(&t, 16692, "play overflow #0");
}

/* The table limit: 14 numeral items. The 10s start on the table, the
 * seats trail the 9s and 8s (12 items), then 7♣ and 7♦: full. Seat 1
 * holds A♣ 2♣ 3♣: no loose card or set adds up to 1, 2 or 3 (the table
 * holds only 7s to 10s), and no build is possible (a build of 2 or 3
 * would need a table card below 3), so it has no capture, build or face
 * trail: it may trail a numeral, which lies dead. Seat 0 holds 3♦ K♣ 7♥:
 * 7♥ takes 7♣, 7♦ or both, 3♦ neither takes nor builds (a 7-build would
 * need a table 4): so it may trail only its face card, not 3♦ or 7♥. */
static void test_full_table_limits_trails(void **state)
{
    (void)state;
    struct tc t;
    static const char *const stuck[] = {"trail A♣", "trail 2♣", "trail 3♣"};
    static const char *const seat0[] = {
        "trail K♣", "play 7♥ capture 7♣ + 7♦", "play 7♥ capture 7♣",
        "play 7♥ capture 7♦"};
    start(&t, "casino",
          "9C 9D 8C 8D  9H 9S 8H 8S  10C 10D 10H 10S  7C AC 2C 3C"
          "  7D 3D KC 7H");
    const char *const trails[] = {"9c", "9h", "9d", "9s", "8c",
                                  "8h", "8d", "8s", "7c", "7d"};
    for (int i = 0; i < 10; i++) {
        char text[32];
        snprintf(text, sizeof text, "trail %s", trails[i]);
        act(&t, (1 + i) % 2, text);
    }
    assert_int_equal(hand_count(t.st.loose), 14);
    names_are(&t, "", stuck, 3);
    act(&t, 1, "trail 2c");
    assert_true(t.st.dead == card_bit(card("2c")));
    assert_int_equal(hand_count(t.st.loose), 14);
    cards_are(view_get(&t, 0, "dead"), "2♣");
    view_free(&t);
    names_are(&t, "", seat0, 4);
    assert_false(is_legal(&t, "trail 7h"));
    assert_false(is_legal(&t, "trail 3d"));
    /* After a capture the table has room: seat 1's ace goes loose. */
    act(&t, 0, "play 7h capture 7c + 7d");
    act(&t, 1, "trail ac");
    assert_true(hand_has(t.st.loose, card("ac")));
    assert_true(t.st.dead == card_bit(card("2c")));
}

/* The state's masks of build values repeat build[]: bit v of builds is
 * set exactly while a v-build lies, and bit v of multiple exactly while
 * its cards add up to more than v (worked out here from the cards).
 * Checked after every play of random episodes under every variant, with
 * builds made, raised, joined and taken, and at round ends. */
static void test_build_masks_follow_the_builds(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "casino", "casino(players=3,build_as_card=true)",
        "casino(players=4,raise_with_table=true,owner_may_trail=true)"};
    int made = 0, multiple = 0;
    for (int k = 0; k < 3; k++) {
        struct tc t;
        struct rng r;
        static int acts[CASINO_MAX_LEGAL];
        start_cards(&t, specs[k], NULL, 0);
        rng_seed(&r, 11 + (uint64_t)k);
        for (int step = 0; step < 3000 && !t.st.over; step++) {
            int n = t.g.def->legal(&t.g, &t.st, t.st.turn, acts);
            int pick = (int)rng_below(&r, (uint32_t)n);
            /* Three times in four a play from the list's later half, where
             * captures and builds follow the trails: builds often lie. */
            if (n > 4 && rng_below(&r, 4))
                pick = n / 2 + (int)rng_below(&r, (uint32_t)(n - n / 2));
            assert_int_equal(game_apply(&t.g, &t.st, t.st.turn, acts[pick]),
                             0);
            unsigned lying = 0, multi = 0;
            for (int v = 2; v <= CASINO_VMAX; v++) {
                int sum = 0;
                for (hand_t h = t.st.build[v]; h; h &= h - 1)
                    sum += card_rank(hand_first(h));
                lying |= (unsigned)(t.st.build[v] != 0) << v;
                multi |= (unsigned)(sum > v) << v;
            }
            assert_int_equal(t.st.builds, lying);
            assert_int_equal(t.st.multiple, multi);
            made += lying != 0;
            multiple += multi != 0;
        }
    }
    /* The episodes did lay builds, multiple ones among them. */
    assert_true(made > 100 && multiple > 10);
}

/* A court card's option, found without the item list (casino__option),
 * holds for the seat only while every build it owns keeps a capturing
 * card, as the general search (casino__counts) says: here a hand-made
 * state whose seat owns a 7-build and holds no 7. */
static void test_court_option_needs_owner_card(void **state)
{
    (void)state;
    struct tc t;
    struct casino_rules ru = {false, false, false};
    struct casino_counts n[4];
    uint64_t items = 0;
    start_cards(&t, "casino", NULL, 0);
    int seat = t.st.turn;
    t.st.hand[seat] = card_bit(card("Ks")) | card_bit(card("3d"));
    t.st.loose = card_bit(card("Kh")) | card_bit(card("4c"));
    t.st.build[7] = card_bit(card("5c")) | card_bit(card("2d"));
    t.st.builds = 1u << 7;
    t.st.owner[7] = (uint8_t)seat;
    assert_false(casino__option(&t.st, &ru, seat, card("Ks"), 0, 0, &items));
    casino__counts(&t.st, &ru, seat, t.st.hand[seat], n);
    assert_int_equal(n[1].n[0], 0); /* Ks: the second card by id */
    t.st.owner[7] = (uint8_t)(1 - seat);
    assert_true(casino__option(&t.st, &ru, seat, card("Ks"), 0, 0, &items));
    assert_true(items == card_bit(card("Kh")));
    assert_false(casino__option(&t.st, &ru, seat, card("Ks"), 0, 1, &items));
    casino__counts(&t.st, &ru, seat, t.st.hand[seat], n);
    assert_int_equal(n[1].n[0], 1);
}

/* A full table that holds a build (13 loose numerals and a 7-build: 14
 * items), searched by the build-table path for few items (the hand's
 * highest numeral is 2: four aces lie up to it): the count is 14, so the
 * 2, which can take two aces, may not be trailed; the king may. With one
 * loose numeral fewer the table has room and the 2 may trail. */
static void test_full_table_with_a_build(void **state)
{
    (void)state;
    struct tc t;
    struct casino_rules ru = {false, false, false};
    struct casino_counts n[4];
    static const char *const loose[] = {"Ac", "Ad", "Ah", "As", "4c",
                                        "4h", "4s", "6c", "6d", "6h",
                                        "6s", "9c", "9d"};
    start_cards(&t, "casino", NULL, 0);
    int seat = t.st.turn;
    t.st.hand[seat] = card_bit(card("2h")) | card_bit(card("Kd"));
    t.st.loose = 0;
    for (int i = 0; i < 13; i++)
        t.st.loose |= card_bit(card(loose[i]));
    t.st.build[7] = card_bit(card("5c")) | card_bit(card("2d"));
    t.st.builds = 1u << 7;
    t.st.owner[7] = (uint8_t)(1 - seat);
    assert_int_equal(casino__items(&t.st), 14);
    assert_int_equal(casino__counts(&t.st, &ru, seat, t.st.hand[seat], n),
                     14);
    /* Kd (card 25) first, then 2h (27): it takes any two of the four
     * aces (6 sets) or all four (1); the king finds no king. */
    assert_int_equal(n[0].n[0], 0);
    assert_int_equal(n[1].n[0], 7);
    assert_true(is_legal(&t, "trail Kd"));
    assert_false(is_legal(&t, "trail 2h"));
    t.st.loose &= ~card_bit(card("9d"));
    assert_int_equal(casino__counts(&t.st, &ru, seat, t.st.hand[seat], n),
                     13);
    assert_true(is_legal(&t, "trail 2h"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overflow_beyond_32_options),
        cmocka_unit_test(test_full_table_limits_trails),
        cmocka_unit_test(test_build_masks_follow_the_builds),
        cmocka_unit_test(test_court_option_needs_owner_card),
        cmocka_unit_test(test_full_table_with_a_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
