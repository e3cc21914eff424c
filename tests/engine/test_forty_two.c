/* test_forty_two.c — Forty-two rule facts from Read & White's Standard Trix
 * Cards (1904) and docs/games/forty_two.md.
 *
 * Every deal is explicit: seat 0 deals the first hand and cards go one at a
 * time from the dealer's left, so pack position i goes to seat (1 + i) % 4;
 * deal() below interleaves four 7-card hands into that order. Results are
 * read through the game (legal names, view, returns) and compared with
 * values worked out by hand in the comments. The game is made with
 * conformance_game_make so that these tests do not need the registry; the
 * last test also runs the conformance suite on a few option sets.
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
#include "engine/conformance.h"
#include "engine/game.h"
#include "engine/trix_pack.h"

extern const struct game_def forty_two_game;

struct t42 {
    struct game g;
    unsigned char st[1024];
};

/* Makes spec and deals hands[s] (7 card names each) to seat s. */
static void start(struct t42 *t, const char *spec, const char *const *hands)
{
    char err[256], text[512] = "";
    char words[4][7][8];
    uint8_t cards[28];
    memset(t, 0, sizeof *t);
    assert_int_equal(
        conformance_game_make(&t->g, &forty_two_game, spec, err, sizeof err),
        0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    for (int s = 0; s < 4; s++)
        assert_int_equal(sscanf(hands[s], "%7s %7s %7s %7s %7s %7s %7s",
                                words[s][0], words[s][1], words[s][2],
                                words[s][3], words[s][4], words[s][5],
                                words[s][6]),
                         7);
    for (int i = 0; i < 28; i++) {
        strcat(text, words[(1 + i) % 4][i / 4]);
        strcat(text, " ");
    }
    int n = game_deck_parse(&t->g, text, cards, 28, err, sizeof err);
    assert_int_equal(n, 28);
    assert_int_equal(game_init(&t->g, t->st, 5, cards, n), 0);
}

static void act(struct t42 *t, int seat, const char *text)
{
    char err[256];
    assert_int_equal(game_current_seat(&t->g, t->st), seat);
    int id = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (id < 0)
        fail_msg("%s: %s", text, err);
    assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
}

/* Plays the space-separated cards in turn order, whoever is to act. */
static void plays(struct t42 *t, const char *cards)
{
    char buf[512], name[32];
    snprintf(buf, sizeof buf, "%s", cards);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        snprintf(name, sizeof name, "play %s", w);
        act(t, game_current_seat(&t->g, t->st), name);
    }
}

/* The names of seat's legal actions joined with ", ". */
static void legal_are(struct t42 *t, int seat, const char *want)
{
    int ids[128], n = t->g.def->legal(&t->g, t->st, seat, ids);
    char got[2048] = "", name[GAME_NAME_MAX];
    for (int i = 0; i < n; i++) {
        game_action_name(&t->g, t->st, ids[i], name, sizeof name);
        if (i)
            strcat(got, ", ");
        strcat(got, name);
    }
    assert_string_equal(got, want);
}

/* Element idx of the int array under key in seat 0's view. */
static int view_int_at(struct t42 *t, const char *key, int idx)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    msgpack_packer pk;
    int v = -9999;
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, 0, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object *m = &u.data;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            v = (int)kv->val.via.array.ptr[idx].via.i64;
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return v;
}

/* Seat's own hand, read from its view, as a bitset of card ids. */
static uint32_t view_hand(struct t42 *t, int seat)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    msgpack_packer pk;
    uint32_t h = 0;
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object *m = &u.data;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size != 4 || memcmp(kv->key.via.str.ptr, "hand", 4))
            continue;
        for (uint32_t j = 0; j < kv->val.via.array.size; j++) {
            char name[16];
            const char *end;
            msgpack_object_str *str = &kv->val.via.array.ptr[j].via.str;
            snprintf(name, sizeof name, "%.*s", (int)str->size, str->ptr);
            h |= 1u << trix_card_parse(name, &end);
        }
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return h;
}

static double ret(struct t42 *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

/* Deal A (Fours example). Seat 1 bids and names Fours. */
static const char *const deal_a[4] = {
    "4-0 4-3 5-4 6-1 6-3 6-4 6-5", /* seat 0, dealer */
    "4-4 6-2 1-0 2-0 3-0 2-1 0-0", /* seat 1 */
    "5-5 4-1 1-1 3-1 2-2 5-0 5-1", /* seat 2 */
    "6-6 4-2 3-2 3-3 5-2 5-3 6-0", /* seat 3 */
};

/* Deal B (the book's Sixes examples). Seat 0 holds no Six. */
static const char *const deal_b[4] = {
    "5-3 1-1 4-2 4-4 5-2 5-4 5-5",
    "6-5 4-3 6-6 6-4 6-2 0-0 1-0",
    "6-3 4-0 6-0 2-0 2-1 3-0 3-1",
    "6-1 4-1 2-2 3-2 3-3 5-0 5-1",
};

/* The book: 3-2, 4-1, 5-0 count 5, 5-5 and 6-4 count 10: 35, plus 7 sets. */
static void test_total_42(void **state)
{
    (void)state;
    int count = 0;
    for (int c = 0; c < 28; c++) {
        int s = trix_sum(c);
        count += s > 0 && s % 5 == 0 ? s : 0;
    }
    assert_int_equal(count, 35);
    assert_int_equal(count + 7, 42);
    /* Bid illustration: two 5s (3-2, 4-1), one 10 (6-4) and three Sixes
     * expected to win three sets → "not less than 23". */
    const char *const held[] = {"3-2", "4-1", "6-4"};
    int bid = 3;
    for (int i = 0; i < 3; i++) {
        const char *end;
        bid += trix_points(trix_card_parse(held[i], &end));
    }
    assert_int_equal(bid, 23);
}

/* One chance each from the dealer's left, bids must rise; the book's
 * illustration (two 5s, one 10, three Sixes) makes 23 a sound bid. */
static void test_bidding(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two(min_bid=20)", deal_a);
    act(&t, 1, "bid 23");
    legal_are(&t, 2,
              "bid 24, bid 25, bid 26, bid 27, bid 28, bid 29, "
              "bid 30, bid 31, bid 32, bid 33, bid 34, bid 35, "
              "bid 36, bid 37, bid 38, bid 39, bid 40, bid 41, "
              "bid 42, pass");
    act(&t, 2, "pass");
    act(&t, 3, "bid 42");
    legal_are(&t, 0, "pass"); /* nothing above 42 */
    act(&t, 0, "pass");
    /* Seat 3 names: only suits he holds: 3-2 3-3 5-2 5-3 6-0 6-6
     * 4-2 → Threes, Fours, Fives, Sixes. */
    legal_are(&t, 3, "name Threes, name Fours, name Fives, name Sixes");
}

/* All pass → the dealer must bid the minimum. */
static void test_dealer_forced(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two(min_bid=30)", deal_a);
    act(&t, 1, "pass");
    act(&t, 2, "pass");
    act(&t, 3, "pass");
    legal_are(&t, 0, "bid 30");
    act(&t, 0, "bid 30");
    assert_int_equal(game_current_seat(&t.g, t.st), 0); /* he names */
}

/* The book: Fours named, 6-2 5-5 6-6 4-0 → 4-0 wins (any Four beats any
 * double). */
static void test_fours_example(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two", deal_a);
    act(&t, 1, "bid 10");
    act(&t, 2, "pass");
    act(&t, 3, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "name Fours");
    /* The bidder must lead a Four: his only Four is 4-4. */
    legal_are(&t, 1, "play 4-4");
    act(&t, 1, "play 4-4");
    /* Seat 2 holds 4-1: a Four or any Honor (Fours, doubles). */
    legal_are(&t, 2, "play 1-1, play 2-2, play 4-1, play 5-5");
    /* 4-4 > 4-3 > 4-2 among Fours (sums 8, 7, 6); 1-1 is only a double. */
    plays(&t, "1-1 4-2 4-3");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    assert_int_equal(view_int_at(&t, "taken", 1), 1);
    /* Seat 2 has no Six: any card. Seat 3 must play a Six or an Honor. */
    plays(&t, "6-2 5-5");
    legal_are(&t, 3, "play 3-3, play 6-0, play 6-6");
    plays(&t, "6-6 4-0");
    /* 4-0 wins: seat 0's side takes 1 set + 10 for 5-5. */
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    assert_int_equal(view_int_at(&t, "taken", 0), 11);
    assert_int_equal(view_int_at(&t, "taken", 1), 1);
}

/* Deal B to the end: bidder seat 1 names Sixes. Worked set by set:
 * 1: s1 6-5, s2 6-3, s3 6-1, s0 5-3 → 6-5 (the book), side 1 +1.
 * 2: s1 4-3, s2 4-0, s3 4-1, s0 1-1 (holding 4-2) → 1-1 (the book), side 0
 *    +1 +5 (4-1) = 6.
 * 3: s0 5-5, s1 6-6 (no Five), s2 2-0, s3 5-0 → 6-6 (a Six beats any
 *    double), side 1 +1 +10 +5 = 16 → 17.
 * 4: s1 6-4, s2 6-0, s3 5-1, s0 4-4 → 6-4, side 1 +1 +10 → 28.
 * 5: s1 6-2, s2 2-1, s3 3-2, s0 4-2 → 6-2, side 1 +1 +5 → 34.
 * 6: s1 0-0, s2 3-0, s3 2-2, s0 5-2 → 2-2 (doubles by sum), side 1 → 35.
 * 7: s3 3-3, s0 5-4, s1 1-0, s2 3-1 → 3-3, side 1 → 36.
 * Side 0 took 6, side 1 took 36: 42 in all. */
static void play_deal_b(struct t42 *t, int bid)
{
    char b[16];
    snprintf(b, sizeof b, "bid %d", bid);
    act(t, 1, b);
    act(t, 2, "pass");
    act(t, 3, "pass");
    act(t, 0, "pass");
    act(t, 1, "name Sixes");
    plays(t, "6-5 6-3");
    legal_are(t, 3, "play 2-2, play 3-3, play 6-1");
    plays(t, "6-1");
    legal_are(t, 0,
              "play 1-1, play 4-2, play 4-4, play 5-2, play 5-3, "
              "play 5-4, play 5-5"); /* no Six: anything */
    plays(t, "5-3");
    plays(t, "4-3 4-0 4-1 1-1");
    assert_int_equal(view_int_at(t, "taken", 0), 6);
    plays(t, "5-5 6-6 2-0 5-0");
    plays(t, "6-4 6-0 5-1 4-4");
    plays(t, "6-2 2-1 3-2 4-2");
    plays(t, "0-0 3-0 2-2 5-2");
    plays(t, "3-3 5-4 1-0 3-1");
}

/* Bid 30 made (36 >= 30): each side scores what it took. */
static void test_bid_made(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two", deal_b);
    play_deal_b(&t, 30);
    assert_int_equal(view_int_at(&t, "scores", 0), 6);
    assert_int_equal(view_int_at(&t, "scores", 1), 36);
    assert_false(game_is_terminal(&t.g, t.st));         /* nobody has 100 */
    assert_int_equal(game_current_seat(&t.g, t.st), 2); /* dealer 1's left */
}

/* Bid 42 failed by 6: the bidders lose the shortfall (default). */
static void test_bid_failed(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two", deal_b);
    play_deal_b(&t, 42);
    assert_int_equal(view_int_at(&t, "scores", 0), 6);
    assert_int_equal(view_int_at(&t, "scores", 1), -6);
}

/* full_bid_penalty: the bidders lose the whole bid. */
static void test_bid_failed_full(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two(full_bid_penalty=true)", deal_b);
    play_deal_b(&t, 42);
    assert_int_equal(view_int_at(&t, "scores", 0), 6);
    assert_int_equal(view_int_at(&t, "scores", 1), -42);
}

/* Game to 30: side 1 reaches 36 and wins; partners share the result. */
static void test_game_won(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two(target=30)", deal_b);
    play_deal_b(&t, 30);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 3) == 1);
    assert_true(ret(&t, 0) == -1 && ret(&t, 2) == -1);
}

/* Both sides past the target → the higher; here target 6 is reached
 * by both (6 and 36). */
static void test_both_past_target(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two(target=6)", deal_b);
    play_deal_b(&t, 30);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 0) == -1);
}

/* The whole hand, whatever is played, distributes exactly 42. */
static void test_hand_totals_42(void **state)
{
    (void)state;
    struct t42 t;
    start(&t, "forty_two(target=1,max_hands=1)", deal_a);
    int ids[64];
    while (!game_is_terminal(&t.g, t.st)) {
        int seat = game_current_seat(&t.g, t.st);
        int n = t.g.def->legal(&t.g, t.st, seat, ids);
        assert_int_equal(game_apply(&t.g, t.st, seat, ids[n - 1]), 0);
    }
    assert_int_equal(view_int_at(&t, "taken", 0) + view_int_at(&t, "taken", 1),
                     42);
}

/* Determinizing for seat 0 keeps what seat 0 has seen: before the first
 * lead the bidder (seat 1) holds a card of the named suit (he had to to
 * name it); after set 3 (5-5 led, seat 2 threw 2-0: neither a Five nor an
 * Honor) seat 2 holds no Five. Hand sizes are kept. */
static void test_determinize_keeps_inferences(void **state)
{
    (void)state;
    struct t42 t, d;
    struct rng r;
    rng_seed(&r, 99);
    uint32_t sixes = 0, fives = 0;
    for (int c = 0; c < 28; c++) {
        sixes |= (uint32_t)(trix_upper(c) == 6) << c;
        fives |= (uint32_t)(trix_upper(c) == 5) << c;
    }
    start(&t, "forty_two", deal_b);
    act(&t, 1, "bid 30");
    act(&t, 2, "pass");
    act(&t, 3, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "name Sixes");
    for (int k = 0; k < 50; k++) {
        d = t;
        t.g.def->determinize(&d.g, d.st, 0, &r);
        assert_true(view_hand(&d, 1) & sixes);
        assert_int_equal(__builtin_popcount(view_hand(&d, 2)), 7);
    }
    plays(&t, "6-5 6-3 6-1 5-3 4-3 4-0 4-1 1-1 5-5 6-6 2-0 5-0");
    for (int k = 0; k < 50; k++) {
        d = t;
        t.g.def->determinize(&d.g, d.st, 0, &r);
        assert_int_equal(view_hand(&d, 2) & fives, 0);
        assert_int_equal(view_hand(&d, 0), view_hand(&t, 0));
        assert_int_equal(__builtin_popcount(view_hand(&d, 3)), 4);
    }
}

static void run_conformance(const char *spec)
{
    char err[1024];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(
        conformance_game_make(&g, &forty_two_game, spec, err, sizeof err), 0);
    int rc = conformance_run(&g, 80, 11, &r, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
}

static void test_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_not_equal(conformance_game_make(&g, &forty_two_game,
                                               "forty_two(players=5)", err,
                                               sizeof err),
                         0);
    run_conformance("forty_two");
    run_conformance("forty_two(min_bid=30,full_bid_penalty=true)");
    run_conformance("forty_two(target=1,max_hands=1)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_total_42),
        cmocka_unit_test(test_bidding),
        cmocka_unit_test(test_dealer_forced),
        cmocka_unit_test(test_fours_example),
        cmocka_unit_test(test_bid_made),
        cmocka_unit_test(test_bid_failed),
        cmocka_unit_test(test_bid_failed_full),
        cmocka_unit_test(test_game_won),
        cmocka_unit_test(test_both_past_target),
        cmocka_unit_test(test_hand_totals_42),
        cmocka_unit_test(test_determinize_keeps_inferences),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
