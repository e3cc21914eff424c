/* test_call_suit_forty_two.c — Call Suit Forty-two rule facts from Read &
 * White's Standard Trix Cards (1904) and docs/games/call_suit_forty_two.md
 * (with Forty-two's count).
 *
 * Every deal is explicit: seat 0 deals the first hand and cards go one at a
 * time from the dealer's left, so pack position i goes to seat (1 + i) % 4
 * and seat 1 leads the first set. start() interleaves four 7-card hands
 * into that order. Results are read through the game (legal names, whose
 * turn, view, returns) and compared with values worked out by hand in the
 * comments. The game is made with conformance_game_make so these tests do
 * not need the registry; the last test runs the conformance suite too.
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

extern const struct game_def call_suit_forty_two_game;

struct tc {
    struct game g;
    unsigned char st[1024];
};

static void make(struct tc *t, const char *spec)
{
    char err[256];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &call_suit_forty_two_game,
                                           spec, err, sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
}

/* Deals hand[s][0..7) (card ids) to seat s, seat 0 dealing. */
static void start_ids(struct tc *t, const char *spec, int hand[4][7])
{
    uint8_t deck[28];
    make(t, spec);
    for (int i = 0; i < 28; i++)
        deck[i] = (uint8_t)hand[(1 + i) % 4][i / 4];
    assert_int_equal(game_init(&t->g, t->st, 5, deck, 28), 0);
}

/* Deals hands[s] (7 card names each) to seat s. */
static void start(struct tc *t, const char *spec, const char *const *hands)
{
    int ids[4][7];
    for (int s = 0; s < 4; s++) {
        const char *p = hands[s];
        for (int k = 0; k < 7; k++) {
            ids[s][k] = trix_card_parse(p, &p);
            assert_true(ids[s][k] >= 0 && ids[s][k] < 28);
        }
    }
    start_ids(t, spec, ids);
}

static void act(struct tc *t, int seat, const char *text)
{
    char err[256];
    assert_int_equal(game_current_seat(&t->g, t->st), seat);
    int id = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (id < 0)
        fail_msg("%s: %s", text, err);
    assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
}

/* Plays the comma-separated actions ("6-2 call 2, 3-2") in turn order. */
static void plays(struct tc *t, const char *actions)
{
    char buf[512], name[32];
    snprintf(buf, sizeof buf, "%s", actions);
    for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
        while (*w == ' ')
            w++;
        snprintf(name, sizeof name, "play %s", w);
        act(t, game_current_seat(&t->g, t->st), name);
    }
}

/* The names of seat's legal actions joined with ", ". */
static void legal_are(struct tc *t, int seat, const char *want)
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

/* Seat's view, packed into sb and unpacked into u (the caller frees
 * both); the value under key. */
static const msgpack_object *view_get(struct tc *t, int seat,
                                      msgpack_sbuffer *sb, msgpack_unpacked *u,
                                      const char *key)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    msgpack_unpacked_init(u);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(u, sb->data, sb->size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    const msgpack_object *m = &u->data;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        const msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            return &kv->val;
    }
    fail_msg("no key %s", key);
    return NULL;
}

/* Element idx of the int array under key in seat 0's view. */
static int view_int_at(struct tc *t, const char *key, int idx)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    int v = (int)view_get(t, 0, &sb, &u, key)->via.array.ptr[idx].via.i64;
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return v;
}

/* Seat's own hand, read from its view, as a bitset of card ids. */
static uint32_t view_hand(struct tc *t, int seat)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    uint32_t h = 0;
    const msgpack_object *a = view_get(t, seat, &sb, &u, "hand");
    for (uint32_t j = 0; j < a->via.array.size; j++) {
        char name[16];
        const char *end;
        const msgpack_object_str *str = &a->via.array.ptr[j].via.str;
        snprintf(name, sizeof name, "%.*s", (int)str->size, str->ptr);
        h |= 1u << trix_card_parse(name, &end);
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return h;
}

static double ret(struct tc *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

/* Deal A: the book's call-suit illustration opens it (seat 1 leads 6-2
 * calling 2, seat 2 holds 3-2, seat 3 5-2, seat 0 no card named 2). */
static const char *const deal_a[4] = {
    "4-3 4-4 4-1 4-0 6-3 1-1 0-0", /* seat 0, dealer */
    "6-2 6-6 6-5 6-4 6-1 6-0 5-5", /* seat 1, leads */
    "3-2 3-3 3-1 3-0 2-1 2-0 1-0", /* seat 2 */
    "5-2 4-2 2-2 5-4 5-3 5-1 5-0", /* seat 3 */
};

/* The leader may lead any card plainly (suit = upper number) or calling
 * its card name (lower number); ids 20..27 are 5-5, 6-0 .. 6-6. */
static void test_lead_actions(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two", deal_a);
    assert_int_equal(game_current_seat(&t.g, t.st), 1); /* dealer's left */
    legal_are(&t, 1,
              "play 5-5, play 6-0, play 6-1, play 6-2, play 6-4, play 6-5, "
              "play 6-6, play 5-5 call 5, play 6-0 call 0, play 6-1 call 1, "
              "play 6-2 call 2, play 6-4 call 4, play 6-5 call 5, "
              "play 6-6 call 6");
    legal_are(&t, 0, ""); /* not seat 0's turn */
}

/* The book's illustration: lead 6-2 calling 2; 3-2, 5-2,
 * 4-3 follow; 6-2 wins and scores 5 for the 3-2 (+1 for the set). */
static void test_seed_example(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two", deal_a);
    act(&t, 1, "play 6-2 call 2");
    legal_are(&t, 2, "play 3-2"); /* his only card named 2 */
    act(&t, 2, "play 3-2");
    legal_are(&t, 3, "play 2-2, play 4-2, play 5-2"); /* must follow */
    act(&t, 3, "play 5-2");
    /* Seat 0 has no 2: any card, and no calls while following. */
    legal_are(&t, 0,
              "play 0-0, play 1-1, play 4-0, play 4-1, play 4-3, play 4-4, "
              "play 6-3");
    act(&t, 0, "play 4-3");
    assert_int_equal(game_current_seat(&t.g, t.st), 1); /* 6-2 won */
    assert_int_equal(view_int_at(&t, "taken", 1), 6);
    assert_int_equal(view_int_at(&t, "taken", 0), 0);
}

/* Deal A played out, every set worked by hand:
 *  1. seat 1 6-2 call 2; 3-2, 5-2, 4-3: 6-2 wins, 1+5 → side 1: 6.
 *  2. seat 1 6-4 (Sixes); seats 2, 3 hold no Six (1-0, 5-0); seat 0 must
 *     play its 6-3. 6-4 (sum 10) beats 6-3 (9): 1+10+5 → side 1: 22.
 *  3. seat 1 5-5 call 5 (5-5, 6-5: both his); 3-0, 5-1, 0-0: 5-5 wins,
 *     1+10 → side 1: 33.
 *  4. seat 1 6-1 call 1; seat 2 2-1, seat 3 (no 1 left) 5-4, seat 0 1-1:
 *     the called suit's double ranks first though its sum is the lowest,
 *     1 → side 0: 1; seat 0 leads.
 *  5. seat 0 4-1 call 1; seat 1 6-0, seat 2 must play 3-1, seat 3 2-2:
 *     4-1 (5) beats 3-1 (4): 1+5 → side 0: 7.
 *  6. seat 0 4-0 call 0; 6-5, seat 2 must play 2-0, 5-3: 4-0 wins, 1 →
 *     side 0: 8.
 *  7. seat 0 4-4 (Fours); 6-6, 3-3, seat 3 must play 4-2: the double 4-4
 *     wins, 1 → side 0: 9.
 * Totals 33 + 9 = 42. */
static void play_deal_a(struct tc *t)
{
    plays(t, "6-2 call 2, 3-2, 5-2, 4-3");
    act(t, 1, "play 6-4");
    act(t, 2, "play 1-0");
    act(t, 3, "play 5-0");
    legal_are(t, 0, "play 6-3");
    act(t, 0, "play 6-3");
    plays(t, "5-5 call 5, 3-0, 5-1, 0-0");
    act(t, 1, "play 6-1 call 1");
    legal_are(t, 2, "play 2-1, play 3-1");
    plays(t, "2-1, 5-4, 1-1");
    assert_int_equal(game_current_seat(&t->g, t->st), 0);
    assert_int_equal(view_int_at(t, "taken", 0), 1);
    assert_int_equal(view_int_at(t, "taken", 1), 33);
    plays(t, "4-1 call 1, 6-0, 3-1, 2-2");
    plays(t, "4-0 call 0, 6-5, 2-0, 5-3");
    legal_are(t, 3, "");
    plays(t, "4-4, 6-6, 3-3");
    legal_are(t, 3, "play 4-2");
    act(t, 3, "play 4-2");
}

static void test_full_hand(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two", deal_a);
    play_deal_a(&t);
    /* Neither side has 100: a new hand, dealt by seat 1; seat 2 leads. */
    assert_false(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int_at(&t, "scores", 0), 9);
    assert_int_equal(view_int_at(&t, "scores", 1), 33);
    assert_int_equal(view_int_at(&t, "taken", 0), 0);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    assert_int_equal(__builtin_popcount(view_hand(&t, 0)), 7);
    assert_int_equal(ret(&t, 0), 0);
}

/* target=30: side 1 (33) passes it at the end of deal A and wins. */
static void test_game_won(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two(target=30)", deal_a);
    play_deal_a(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 1), 1);
    assert_int_equal(ret(&t, 3), 1);
    assert_int_equal(ret(&t, 0), -1);
    assert_int_equal(ret(&t, 2), -1);
}

/* target=5: both sides pass it (9 and 33) in one hand; the higher wins. */
static void test_both_past_target(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two(target=5)", deal_a);
    play_deal_a(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 1), 1);
    assert_int_equal(ret(&t, 0), -1);
}

/* max_hands=1: the game stops after deal A on the higher score. */
static void test_cap(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two(max_hands=1)", deal_a);
    play_deal_a(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 3), 1);
    assert_int_equal(ret(&t, 2), -1);
}

/* Deal D splits a hand 21-21: side 1 takes one set holding both tens,
 * side 0 the six others with the three fives.
 *  1. seat 1 6-6 (Sixes); seat 2 (no Six) 5-5, seat 3 6-4, seat 0 1-0:
 *     6-6 wins, 1+10+10 → side 1: 21.
 *  2. seat 1 2-0 (Twos); seat 2 must play 2-1, seat 3 (no Two) 5-3, seat 0
 *     must play 2-2, the highest Two: 1 → side 0: 1; seat 0 leads.
 *  3. 0-0, the only Blank, wins: 6-0, 3-0, 4-2 → 2.
 *  4. 1-1, the highest One (1-0 is out): 6-1, 3-1, 4-3 → 3.
 *  5. 3-3; seat 2 must play 3-2: 6-2, 3-2, 5-2 → 1+5 → 9.
 *  6. 4-4; 6-3, seat 2 4-1 (a Four), seat 3 5-1 → 1+5 → 15.
 *  7. 5-4, the highest Five left; 6-5, 4-0, seat 3 must play 5-0 (sum 5
 *     under 9) → 1+5 → 21. */
static const char *const deal_d[4] = {
    "1-0 2-2 0-0 1-1 3-3 4-4 5-4", /* seat 0 */
    "6-6 2-0 6-0 6-1 6-2 6-3 6-5", /* seat 1 */
    "5-5 2-1 3-0 3-1 3-2 4-0 4-1", /* seat 2 */
    "6-4 4-2 4-3 5-0 5-1 5-2 5-3", /* seat 3 */
};

static void play_deal_d(struct tc *t)
{
    plays(t, "6-6, 5-5, 6-4, 1-0");
    assert_int_equal(view_int_at(t, "taken", 1), 21);
    plays(t, "2-0, 2-1, 5-3, 2-2");
    plays(t, "0-0, 6-0, 3-0, 4-2");
    plays(t, "1-1, 6-1, 3-1, 4-3");
    plays(t, "3-3, 6-2, 3-2, 5-2");
    plays(t, "4-4, 6-3, 4-1, 5-1");
    plays(t, "5-4, 6-5, 4-0");
    legal_are(t, 3, "play 5-0");
    act(t, 3, "play 5-0");
}

/* Both sides past target=1 and level at 21: no winner yet, another hand
 * (our rule); with max_hands=1 the level game is drawn. */
static void test_level_scores(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two(target=1)", deal_d);
    play_deal_d(&t);
    assert_false(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int_at(&t, "scores", 0), 21);
    assert_int_equal(view_int_at(&t, "scores", 1), 21);
    start(&t, "call_suit_forty_two(target=1,max_hands=1)", deal_d);
    play_deal_d(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    for (int s = 0; s < 4; s++)
        assert_int_equal(ret(&t, s), 0);
}

/* first_lead_only: only the opening lead of a hand may call. */
static void test_first_lead_only(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two(first_lead_only=true)", deal_a);
    act(&t, 1, "play 6-2 call 2"); /* the opening lead may */
    plays(&t, "3-2, 5-2, 4-3");
    legal_are(&t, 1,
              "play 5-5, play 6-0, play 6-1, play 6-4, play 6-5, play 6-6");
}

/* A lead without a call follows the upper number: 6-2 led plainly asks
 * for Sixes, so seat 2 (no Six) may play anything, even its 3-2, and the
 * card named 2 cannot win: seat 0's 6-3 (a Six, sum 9) beats 6-2. */
static void test_plain_lead(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two", deal_a);
    act(&t, 1, "play 6-2");
    legal_are(&t, 2,
              "play 1-0, play 2-0, play 2-1, play 3-0, play 3-1, play 3-2, "
              "play 3-3");
    plays(&t, "3-2, 5-2");
    legal_are(&t, 0, "play 6-3");
    act(&t, 0, "play 6-3");
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    assert_int_equal(view_int_at(&t, "taken", 0), 6); /* 1 + 3-2's 5 */
}

/* A led double offers both suits: 3-3 plainly leads the Threes (3-0,
 * 3-1, 3-2, 3-3), "call 3" the card name 3 (3-3, 4-3, 5-3, 6-3). Seat 1
 * of deal B holds 3-3; seat 2 holds 3-2 and 4-3. */
static const char *const deal_b[4] = {
    "0-0 1-0 1-1 2-0 2-1 2-2 3-0", /* seat 0 */
    "3-3 3-1 4-0 4-1 4-2 4-4 5-0", /* seat 1 */
    "3-2 4-3 5-1 5-2 5-4 5-5 6-0", /* seat 2 */
    "5-3 6-1 6-2 6-3 6-4 6-5 6-6", /* seat 3 */
};

static void test_double_lead(void **state)
{
    (void)state;
    struct tc t, u;
    start(&t, "call_suit_forty_two", deal_b);
    u = t;
    act(&t, 1, "play 3-3");
    legal_are(&t, 2, "play 3-2");
    act(&u, 1, "play 3-3 call 3");
    legal_are(&u, 2, "play 4-3");
    /* Calling 0: 5-0 led calling 0 asks for x-0 cards. */
    start(&t, "call_suit_forty_two", deal_b);
    act(&t, 1, "play 5-0 call 0");
    legal_are(&t, 2, "play 6-0");
}

/* One set: seat 1 leads `lead` (calling its card name when call), seat 2
 * plays `follow`; every other card of that suit sits with seat 1, so
 * seats 3 and 0 are void and throw their first legal card. Returns the
 * seat that won the set. */
static int one_set(const char *lead, const char *follow, bool call)
{
    struct tc t;
    const char *end;
    int l = trix_card_parse(lead, &end), f = trix_card_parse(follow, &end);
    int n = call ? trix_lower(l) : trix_upper(l), hand[4][7], k[4] = {0};
    bool used[28] = {false};
    hand[1][k[1]++] = l;
    hand[2][k[2]++] = f;
    used[l] = used[f] = true;
    for (int c = 0; c < 28; c++) {
        bool in = (call ? trix_lower(c) : trix_upper(c)) == n;
        if (in && !used[c]) {
            hand[1][k[1]++] = c;
            used[c] = true;
        }
    }
    for (int c = 0, s = 1; c < 28; c++) {
        if (used[c])
            continue;
        while (k[s] == 7)
            s = (s + 1) % 4;
        hand[s][k[s]++] = c;
    }
    start_ids(&t, "call_suit_forty_two", hand);
    int a = l + (call ? 28 : 0), ids[16];
    assert_int_equal(game_apply(&t.g, t.st, 1, a), 0);
    assert_int_equal(game_apply(&t.g, t.st, 2, f), 0);
    for (int s = 3; s <= 4; s++) {
        assert_true(t.g.def->legal(&t.g, t.st, s % 4, ids) > 0);
        assert_int_equal(game_apply(&t.g, t.st, s % 4, ids[0]), 0);
    }
    return game_current_seat(&t.g, t.st);
}

/* The book's orders, highest first: 2-2, 6-2, 5-2, 4-2, 3-2 and 3-3, 6-3,
 * 5-3, 4-3. Each adjacent pair is played both ways
 * round: the higher card wins whether led (seat 1) or followed (seat 2). */
static void check_order(const char *const *order, int n)
{
    for (int i = 0; i + 1 < n; i++) {
        assert_int_equal(one_set(order[i + 1], order[i], true), 2);
        assert_int_equal(one_set(order[i], order[i + 1], true), 1);
    }
}

static void test_call_orders(void **state)
{
    (void)state;
    static const char *const twos[] = {"2-2", "6-2", "5-2", "4-2", "3-2"};
    static const char *const threes[] = {"3-3", "6-3", "5-3", "4-3"};
    check_order(twos, 5);
    check_order(threes, 4);
    /* Without a call the Sixes rank by sum, the double 6-6 highest. */
    assert_int_equal(one_set("6-5", "6-6", false), 2);
    assert_int_equal(one_set("6-4", "6-5", false), 2);
    assert_int_equal(one_set("6-5", "6-4", false), 1);
}

/* A card outside the declared suit never wins, even a double with a
 * higher sum: 4-0 led calling 0 (sum 4) against 6-6 (sum 12) thrown by
 * a void seat 0. Deal C: seat 0 holds no card named 0 but holds 6-6. */
static const char *const deal_c[4] = {
    "6-6 1-1 2-1 3-1 3-2 4-3 5-5", /* seat 0 */
    "4-0 0-0 1-0 2-0 3-0 5-0 6-0", /* seat 1: every card named 0 */
    "2-2 3-3 4-1 4-2 4-4 5-1 5-2", /* seat 2 */
    "5-3 5-4 6-1 6-2 6-3 6-4 6-5", /* seat 3 */
};

static void test_off_suit_never_wins(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "call_suit_forty_two", deal_c);
    plays(&t, "4-0 call 0, 4-4, 6-5, 6-6");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    /* 1 for the set; 4-0, 4-4, 6-5, 6-6 count nothing. */
    assert_int_equal(view_int_at(&t, "taken", 1), 1);
}

/* Determinizing for seat 1 after set 1 of deal A keeps what seat 1 saw:
 * seat 0 threw 4-3 on the call of 2, so it holds no card named 2 (the
 * unseen 2-2 and 4-2 go to seats 2 and 3); sizes stay 6. */
static void test_determinize_keeps_voids(void **state)
{
    (void)state;
    struct tc t, d;
    struct rng r;
    uint32_t twos = 0;
    rng_seed(&r, 7);
    for (int u = 2; u <= 6; u++)
        twos |= 1u << trix_card(u, 2);
    start(&t, "call_suit_forty_two", deal_a);
    plays(&t, "6-2 call 2, 3-2, 5-2, 4-3");
    bool moved = false;
    for (int k = 0; k < 50; k++) {
        d = t;
        t.g.def->determinize(&d.g, d.st, 1, &r);
        assert_int_equal(view_hand(&d, 0) & twos, 0);
        assert_int_equal(view_hand(&d, 1), view_hand(&t, 1));
        for (int s = 0; s < 4; s++)
            assert_int_equal(__builtin_popcount(view_hand(&d, s)), 6);
        moved |= view_hand(&d, 2) != view_hand(&t, 2);
    }
    assert_true(moved);
}

static void run_conformance(const char *spec)
{
    char err[1024];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(conformance_game_make(&g, &call_suit_forty_two_game, spec,
                                           err, sizeof err),
                     0);
    int rc = conformance_run(&g, 60, 13, &r, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
}

/* Forty-two is for four players only: other counts are refused. */
static void test_options(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_not_equal(conformance_game_make(&g, &call_suit_forty_two_game,
                                               "call_suit_forty_two(players=3)",
                                               err, sizeof err),
                         0);
    run_conformance("call_suit_forty_two");
    run_conformance("call_suit_forty_two(first_lead_only=true)");
    run_conformance("call_suit_forty_two(target=1,max_hands=1)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lead_actions),
        cmocka_unit_test(test_seed_example),
        cmocka_unit_test(test_full_hand),
        cmocka_unit_test(test_game_won),
        cmocka_unit_test(test_both_past_target),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_level_scores),
        cmocka_unit_test(test_first_lead_only),
        cmocka_unit_test(test_plain_lead),
        cmocka_unit_test(test_double_lead),
        cmocka_unit_test(test_call_orders),
        cmocka_unit_test(test_off_suit_never_wins),
        cmocka_unit_test(test_determinize_keeps_voids),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
