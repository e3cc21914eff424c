/* test_meld.c — the follow-and-head duty and the meld counts of meld.h
 * against a reference written here from meld.h's words, over random
 * hands and tricks.
 *
 * meld.c finds the faces held with word-wide bit tricks and the faces
 * that beat a card in closed form, and counts melds without branches;
 * this file does all of it the slow way: face by face, with meld_beats
 * for the order of two cards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>

#include "common/rng.h"
#include "engine/meld.h"

#define ROUNDS 200000 /* random hands and tricks tried */

/* ---- the reference ----------------------------------------------------- */

static uint32_t ref_held(const uint8_t *hand)
{
    uint32_t h = 0;
    for (int f = 0; f < MELD_FACES; f++)
        if (hand[f] > 0)
            h |= 1u << f;
    return h;
}

/* The faces of suit s in set that beat card w. */
static uint32_t ref_beating(uint32_t set, int s, int w, int trump)
{
    uint32_t out = 0;
    for (int f = 8 * s; f < 8 * s + 8; f++)
        if ((set >> f & 1) && meld_beats(f, w, trump))
            out |= 1u << f;
    return out;
}

/* meld.h: any face when leading; else follow suit and beat the winning
 * card if possible; void, trump, beating the winning trump if possible;
 * else any. */
static uint32_t ref_playable(const uint8_t *hand, const uint8_t *trick, int n,
                             int trump)
{
    uint32_t h = ref_held(hand);
    if (n == 0)
        return h;
    int w = trick[meld_best(trick, n, trump)], led = trick[0] / 8;
    uint32_t follow = h & (0xffu << (8 * led));
    int s = led;
    if (!follow && trump != MELD_NO) {
        s = trump;
        follow = h & (0xffu << (8 * trump));
    }
    if (!follow)
        return h;
    uint32_t head = ref_beating(follow, s, w, trump);
    return head ? head : follow;
}

/* meld.h: what playing c shows the player lacks: the led suit when he
 * did not follow, trumps when he neither followed nor trumped, and the
 * faces of the suit he played that would have beaten the winner when
 * he followed or trumped without beating it. */
static uint32_t ref_lack(const uint8_t *trick, int n, int c, int trump)
{
    int w = trick[meld_best(trick, n, trump)], led = trick[0] / 8, s = c / 8;
    uint32_t lack = 0;
    if (s != led)
        lack |= 0xffu << (8 * led);
    if (s != led && trump != MELD_NO && s != trump)
        lack |= 0xffu << (8 * trump);
    if ((s == led || s == trump) && !meld_beats(c, w, trump))
        lack |= ref_beating(0xffffffffu, s, w, trump);
    return lack;
}

/* ---- tests ------------------------------------------------------------- */

/* Random hands hold 0..4 copies of each face, often none (sparse hands
 * reach the "void" cases); a few hold large counts. Tricks hold 0..7
 * faces; trumps are a suit or none. */
static void random_case(struct rng *r, uint8_t *hand, uint8_t *trick, int *n,
                        int *trump)
{
    int density = (int)rng_below(r, 8) + 1;
    for (int f = 0; f < MELD_FACES; f++)
        hand[f] = rng_below(r, (uint32_t)density * 2) == 0
                      ? (uint8_t)(1 + rng_below(r, 4))
                      : 0;
    if (rng_below(r, 50) == 0)
        hand[rng_below(r, MELD_FACES)] = (uint8_t)(128 + rng_below(r, 128));
    *n = (int)rng_below(r, 8);
    for (int i = 0; i < *n; i++)
        trick[i] = (uint8_t)rng_below(r, MELD_FACES);
    *trump = rng_below(r, 5) == 4 ? MELD_NO : (int)rng_below(r, 4);
}

static void test_playable_matches_reference(void **state)
{
    (void)state;
    struct rng r;
    uint8_t hand[MELD_FACES], trick[MELD_MAXP];
    int n, trump;
    rng_seed(&r, 5);
    for (int k = 0; k < ROUNDS; k++) {
        random_case(&r, hand, trick, &n, &trump);
        assert_int_equal(meld_playable(hand, trick, n, trump),
                         ref_playable(hand, trick, n, trump));
    }
}

static void test_shows_lack_matches_reference(void **state)
{
    (void)state;
    struct rng r;
    uint8_t hand[MELD_FACES], trick[MELD_MAXP];
    int n, trump;
    rng_seed(&r, 6);
    for (int k = 0; k < ROUNDS; k++) {
        random_case(&r, hand, trick, &n, &trump);
        if (!n)
            continue;
        int c = (int)rng_below(&r, MELD_FACES);
        assert_int_equal(meld_shows_lack(trick, n, c, trump),
                         ref_lack(trick, n, c, trump));
    }
}

/* meld.h: sets of one face of each suit at a place (the least count
 * of the four), runs of a suit's faces at some places (the least count
 * among them). */
static void test_around_and_runs_match_reference(void **state)
{
    (void)state;
    struct rng r;
    uint8_t hand[MELD_FACES], trick[MELD_MAXP];
    int n, trump;
    rng_seed(&r, 7);
    for (int k = 0; k < ROUNDS; k++) {
        random_case(&r, hand, trick, &n, &trump);
        int place = (int)rng_below(&r, 8), s = (int)rng_below(&r, 4);
        unsigned places = 1 + rng_below(&r, 255);
        int around = 255, runs = 255;
        for (int su = 0; su < 4; su++)
            if (hand[su * 8 + place] < around)
                around = hand[su * 8 + place];
        for (int p = 0; p < 8; p++)
            if ((places >> p & 1) && hand[s * 8 + p] < runs)
                runs = hand[s * 8 + p];
        assert_int_equal(meld_around(hand, place), around);
        assert_int_equal(meld_runs(hand, s, places), runs);
    }
}

/* The hidden deal's test accepts seat 1's cards only without face 0. */
static bool no_face_zero(const void *ctx, int seat, const uint8_t *hidden)
{
    (void)ctx;
    return seat != 1 || hidden[0] == 0;
}

/* meld_deal_hidden: each seat gets its room, outside its lacks, passing
 * the test, and the pool is shared out exactly. The one copy of face 0
 * must go to seat 0 (one card; seat 1 takes 38 and refuses it): a deal
 * that gives the last seat only what is left must deal seat 1 first,
 * the seat with more cards (seat 0 first fits one round in 39; seat 1
 * first fits one draw in 39, with many draws a round). */
static void test_hidden_deal_keeps_its_contract(void **state)
{
    (void)state;
    uint8_t pool[MELD_FACES] = {1}, out[MELD_MAXP][MELD_FACES];
    int room[MELD_MAXP] = {1, 38};
    uint32_t lacks[MELD_MAXP] = {0, 1u << 31};
    for (int f = 1; f < 20; f++)
        pool[f] = 2;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct rng r;
        rng_seed(&r, seed);
        assert_true(meld_deal_hidden(pool, 2, room, lacks, no_face_zero, NULL,
                                     &r, out));
        assert_int_equal(out[0][0], 1);
        for (int f = 0; f < MELD_FACES; f++)
            assert_int_equal(out[0][f] + out[1][f], pool[f]);
        assert_int_equal(out[1][31], 0);
    }
}

static bool refuse_all(const void *ctx, int seat, const uint8_t *hand)
{
    (void)ctx, (void)seat, (void)hand;
    return false;
}

/* No deal passes the test: meld_deal_hidden still deals the pool out
 * (keeping the voids while it can, then not), and never leaves the
 * caller with its true hands. */
static void test_hidden_deal_never_gives_up(void **state)
{
    (void)state;
    uint8_t pool[MELD_FACES] = {0}, out[MELD_MAXP][MELD_FACES];
    int room[MELD_MAXP] = {0, 5, 5};
    uint32_t lacks[MELD_MAXP] = {0, 1u << 3, 0};
    pool[2] = 5;
    pool[3] = 5;
    struct rng r;
    rng_seed(&r, 7);
    /* the voids can be kept: face 3 all goes to seat 2 */
    assert_true(meld_deal_hidden(pool, 3, room, lacks, refuse_all, NULL, &r,
                                 out));
    assert_int_equal(out[1][2], 5);
    assert_int_equal(out[2][3], 5);
    /* they cannot: seat 1 lacks face 3, seat 2 face 2, 10 cards of face 3 */
    memset(pool, 0, sizeof pool);
    pool[3] = 10;
    lacks[2] = 1u << 3;
    assert_true(meld_deal_hidden(pool, 3, room, lacks, refuse_all, NULL, &r,
                                 out));
    assert_int_equal(out[1][3], 5);
    assert_int_equal(out[2][3], 5);
    assert_int_equal(out[0][3], 0);
}

/* A hand of one face held: every face alone, as the lead's choice. */
static void test_each_single_face_is_held(void **state)
{
    (void)state;
    uint8_t hand[MELD_FACES];
    for (int f = 0; f < MELD_FACES; f++) {
        memset(hand, 0, sizeof hand);
        hand[f] = 1;
        assert_int_equal(meld_playable(hand, NULL, 0, MELD_NO), 1u << f);
        hand[f] = 255;
        assert_int_equal(meld_playable(hand, NULL, 0, MELD_NO), 1u << f);
    }
}

/* Count rows: copies over the scale (Pinochle's four copies: 0, 1/4, 1/2,
 * 3/4, 1), row i at 32 * i, every float of the rows written, nothing past
 * them; the second row takes another hand, not the first one again. */
static void test_count_rows_scale_each_face(void **state)
{
    (void)state;
    uint8_t a[MELD_FACES] = {0}, b[MELD_FACES] = {0};
    float out[3 * MELD_FACES];
    for (int f = 0; f < MELD_FACES; f++)
        a[f] = (uint8_t)(f % 5);
    b[MELD_FACES - 1] = 2;
    const uint8_t *rows[2] = {a, b};
    for (int i = 0; i < 3 * MELD_FACES; i++)
        out[i] = -7.0f;
    meld_put_count_rows(out, rows, 2, 0.25f);
    const float want[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    for (int f = 0; f < MELD_FACES; f++) {
        assert_true(out[f] == want[f % 5]);
        assert_true(out[MELD_FACES + f] == (f == MELD_FACES - 1 ? 0.5f : 0));
        assert_true(out[2 * MELD_FACES + f] == -7.0f);
    }
    meld_put_count_rows(out + 2 * MELD_FACES, rows, 0, 0.25f);
    assert_true(out[2 * MELD_FACES] == -7.0f);
}

/* meld_quot rounds as the division it replaces, over every numerator a
 * tensor can meet for the divisors the games use (meld 1000 and 500, card
 * points 500 and 250, tricks 6 to 16, four or two times a target) and
 * odd divisors near the limit, where the margin to a midpoint is least. */
static void test_quot_rounds_as_division(void **state)
{
    (void)state;
    static const int divisors[] = {1000, 500, 250, 24, 16, 15, 13, 12, 8,
                                   6,    4 * 3000, 2 * 1000, 4 * 100000,
                                   2 * 99999, 1990, 2300, 999983};
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        int d = divisors[i];
        double inv = 1.0 / d;
        for (int x = -(1 << 17); x <= 1 << 17; x++)
            if (meld_quot(x, inv) != (float)x / (float)d)
                fail_msg("%d / %d: %a, not %a", x, d, meld_quot(x, inv),
                         (float)x / (float)d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_rows_scale_each_face),
        cmocka_unit_test(test_quot_rounds_as_division),
        cmocka_unit_test(test_each_single_face_is_held),
        cmocka_unit_test(test_playable_matches_reference),
        cmocka_unit_test(test_shows_lack_matches_reference),
        cmocka_unit_test(test_around_and_runs_match_reference),
        cmocka_unit_test(test_hidden_deal_keeps_its_contract),
        cmocka_unit_test(test_hidden_deal_never_gives_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
