/* test_cards.c — card encoding, names, deck parsing and deck building. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/err.h"
#include "common/rng.h"
#include "engine/cards.h"

static void test_encoding(void **state)
{
    (void)state;
    int c = card_make(QUEEN, HEARTS);
    assert_int_equal(card_rank(c), 12);
    assert_int_equal(card_suit(c), HEARTS);
    assert_int_equal(card_make(ACE, CLUBS), 0);
    assert_int_equal(card_make(KING, SPADES), 51);
    hand_t h = card_bit(c) | card_bit(card_make(2, HEARTS));
    assert_int_equal(hand_count(h), 2);
    assert_int_equal(hand_count(h & suit_mask(HEARTS)), 2);
    assert_int_equal(hand_count(h & suit_mask(SPADES)), 0);
    assert_int_equal(hand_first(h), card_make(2, HEARTS));
    assert_int_equal(hand_nth(h, 1), c);
}

static void test_names_round_trip(void **state)
{
    (void)state;
    char buf[16];
    card_name(card_make(10, HEARTS), buf, sizeof buf);
    assert_string_equal(buf, "10♥");
    card_name_ascii(card_make(ACE, SPADES), buf, sizeof buf);
    assert_string_equal(buf, "AS");
    for (int c = 0; c < CARDS_IN_PACK; c++) {
        const char *end;
        card_name(c, buf, sizeof buf);
        assert_int_equal(card_parse(buf, &end), c);
        assert_int_equal(*end, '\0');
        card_name_ascii(c, buf, sizeof buf);
        assert_int_equal(card_parse(buf, &end), c);
    }
    const char *end;
    assert_int_equal(card_parse("td", &end), card_make(10, DIAMONDS));
    assert_int_equal(card_parse("qh", &end), card_make(QUEEN, HEARTS));
    assert_int_equal(card_parse("1h", &end), ERR_SYNTAX);
    assert_int_equal(card_parse("QX", &end), ERR_SYNTAX);
}

static void test_deck_parse(void **state)
{
    (void)state;
    uint8_t d[52];
    char err[128];
    int n = deck_parse(&cards_standard, "AS, 10h Q♦", d, 52, err, sizeof err);
    assert_int_equal(n, 3);
    assert_int_equal(d[0], card_make(ACE, SPADES));
    assert_int_equal(d[1], card_make(10, HEARTS));
    assert_int_equal(d[2], card_make(QUEEN, DIAMONDS));
    assert_int_equal(deck_parse(&cards_standard, "AS ZZ", d, 52, err,
                                sizeof err),
                     ERR_SYNTAX);
    assert_non_null(strstr(err, "ZZ"));
    assert_int_equal(deck_parse(&cards_standard, "AS as", d, 52, err,
                                sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "too often"));
    assert_int_equal(deck_parse(&cards_standard, "AS10H", d, 52, err,
                                sizeof err),
                     ERR_SYNTAX);
}

static void test_deck_build_keeps_prefix(void **state)
{
    (void)state;
    uint8_t deck[52], pre[3] = {51, 0, 17};
    struct rng r;
    rng_seed(&r, 9);
    assert_int_equal(deck_build(deck, 52, pre, 3, &r), 0);
    assert_memory_equal(deck, pre, 3);
    hand_t all = 0;
    for (int i = 0; i < 52; i++)
        all |= card_bit(deck[i]);
    assert_int_equal(hand_count(all), 52);
    uint8_t dup[2] = {4, 4};
    assert_int_equal(deck_build(deck, 52, dup, 2, &r), ERR_INVAL);
    uint8_t big[1] = {52};
    assert_int_equal(deck_build(deck, 52, big, 1, &r), ERR_INVAL);
}

/* A bin that may only take cards 0 and 1 gets exactly them, whatever the
 * random order: the matching moves cards out of its way. Bins that
 * cannot hold the pool report it. */
static void test_bins(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct card_bins b;
        struct rng r;
        memset(&b, 0, sizeof b);
        rng_seed(&r, seed);
        b.nb = 2;
        b.allow[0] = card_bit(0) | card_bit(1);
        b.room[0] = 2;
        b.allow[1] = 0xff; /* any of the first eight */
        b.room[1] = 2;
        assert_true(card_bins_fill(&b, 0xf, &r));
        assert_int_equal(b.got[0], 0x3);
        assert_int_equal(b.got[1], 0xc);
        /* Both bins refuse card 3: it finds no place. */
        memset(&b, 0, sizeof b);
        b.nb = 2;
        b.allow[0] = b.allow[1] = 0x7;
        b.room[0] = b.room[1] = 2;
        assert_false(card_bins_fill(&b, 0xf, &r));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoding),
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_deck_parse),
        cmocka_unit_test(test_deck_build_keeps_prefix),
        cmocka_unit_test(test_bins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
