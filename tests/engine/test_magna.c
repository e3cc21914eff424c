/* test_magna.c — Magna rule facts: Read & White's Standard Trix Cards (1904),
 * "Magna", and docs/games/magna.md.
 *
 * Every deal comes from an explicit pack, built by start_hands() from the
 * ten cards each seat is to get: seat 0 deals, the pack goes out one card
 * at a time from seat 1, and cards not named are not dealt (with four
 * players, twelve stay out; with two, thirty-two). Points, scores and
 * winners are worked out by hand from the rule book in the comments, then
 * read back through the public interface (action names, returns, the
 * structured view). Scores count down from the target (15 by default).
 * "last_deal" lists, for each point, what each side made (sides: seats
 * 0,2 and 1,3 with four players in partnership; else each seat).
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
#include "engine/games/magna.h"
#include "game_steps.h"

/* ---- fixture ----------------------------------------------------------- */

struct mg {
    struct game g;         /* configured game */
    struct magna_state st; /* its state */
};

static void make(struct mg *t, const char *spec)
{
    char err[256];
    memset(t, 0, sizeof *t);
    if (game_make(&t->g, spec, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t->g.def->state_size, sizeof t->st);
}

static int seat_now(struct mg *t)
{
    return game_current_seat(&t->g, &t->st);
}

/* seat, which must be the one to act, takes the action named text. */
static void act(struct mg *t, int seat, const char *text)
{
    steps_act(&t->g, &t->st, seat, text);
}

/* Plays a whole set: seat leader leads, the others follow in turn. */
static void set4(struct mg *t, int leader, const char *a, const char *b,
                 const char *c, const char *d)
{
    const char *cards[4] = {a, b, c, d};
    steps_set(&t->g, &t->st, leader, cards);
}

static void set2(struct mg *t, int leader, const char *a, const char *b)
{
    set4(t, leader, a, b, NULL, NULL);
}

/* Deals hands[s] (ten names each) to seat s: the pack is built in deal
 * order, one card at a time from seat 1 (left of the dealer, seat 0). */
static void start_hands(struct mg *t, const char *spec,
                        const char *const *hands)
{
    char deck[1024] = "", names[MAGNA_MAXP][10][8];
    size_t w = 0;
    make(t, spec);
    int n = t->g.dims.players;
    for (int s = 0; s < n; s++) {
        const char *p = hands[s];
        for (int i = 0; i < 10; i++) {
            int len = 0;
            while (*p == ' ')
                p++;
            while (p[len] && p[len] != ' ')
                len++;
            snprintf(names[s][i], sizeof names[s][i], "%.*s", len, p);
            p += len;
        }
    }
    for (int r = 0; r < 10; r++)
        for (int k = 0; k < n; k++)
            w += (size_t)snprintf(deck + w, sizeof deck - w, "%s ",
                                  names[(1 + k) % n][r]);
    char err[256];
    uint8_t cards[TRIX_CARDS];
    int m = game_deck_parse(&t->g, deck, cards, TRIX_CARDS, err, sizeof err);
    if (m < 0)
        fail_msg("%s", err);
    assert_int_equal(game_init(&t->g, &t->st, 7, cards, m), 0);
}

/* Seat s lays aside the four cards named in text (space-separated). */
static void lay_aside(struct mg *t, int s, const char *a, const char *b,
                      const char *c, const char *d)
{
    const char *cards[4] = {a, b, c, d};
    char name[32];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "discard %s", cards[i]);
        act(t, s, name);
    }
}

/* Asserts the names of the current seat's legal actions, ", "-joined. */
static void legal_is(struct mg *t, const char *want)
{
    steps_legal_is(&t->g, &t->st, want);
}

static double ret(struct mg *t, int seat)
{
    return steps_ret(&t->g, &t->st, seat);
}

/* Asserts the value under key of seat's view (msgpack's text form). */
static void view_is(struct mg *t, int seat, const char *key, const char *want)
{
    steps_view_is(&t->g, &t->st, seat, key, want);
}

/* ---- the bid illustration -------------------------------------------- */

/* "If a player has the Double-five, Five-blank and one or more Fives, he
 * could make a bid of not less than four and name the Fives": 5-5 is
 * High, Game and High-Game, 5-0 is Low. Two players; seat 1 holds 5-5 5-0
 * 5-1 and plain cards, seat 0 Nines and Tens without a double or a card
 * of sum ten (no Santa, no Magna), Trixie is not dealt. Seat 1 bids 4,
 * names Fives and takes every set: High, Low, Game, High-Game = 4, made;
 * 15 - 4 = 11. */
static void test_bid_illustration(void **state)
{
    (void)state;
    struct mg t;
    const char *hands[] = {
        "9-0 9-2 9-3 9-4 9-5 9-6 9-7 9-8 10-1 10-2",
        "5-5 5-0 5-1 6-0 6-1 6-2 7-0 7-1 7-2 8-0",
    };
    start_hands(&t, "magna(players=2)", hands);
    legal_is(&t, "pass, bid 1, bid 2, bid 3, bid 4, bid 5, bid 6, bid 7, "
                 "bid 8, bid 9");
    act(&t, 1, "bid 4");
    legal_is(&t, "pass, bid 5, bid 6, bid 7, bid 8, bid 9"); /* above 4 */
    act(&t, 0, "pass");
    /* He may name only a suit he holds. */
    legal_is(&t, "name Fives, name Sixes, name Sevens, name Eights");
    act(&t, 1, "name Fives");
    lay_aside(&t, 1, "7-0", "7-1", "7-2", "8-0");
    /* Seat 0's view shows seat 1's discards as a number until all are
     * down, then face up. */
    view_is(&t, 0, "discards", "[[], 4]");
    lay_aside(&t, 0, "10-1", "10-2", "9-8", "9-7");
    view_is(&t, 0, "discards",
            "[[\"9-7\", \"9-8\", \"10-1\", \"10-2\"], "
            "[\"7-0\", \"7-1\", \"7-2\", \"8-0\"]]");
    /* The bidder leads an honor. */
    legal_is(&t, "play 5-0, play 5-1, play 5-5");
    set2(&t, 1, "5-5", "9-0");
    set2(&t, 1, "5-0", "9-2");
    set2(&t, 1, "5-1", "9-3");
    set2(&t, 1, "6-0", "9-4");
    set2(&t, 1, "6-1", "9-5");
    set2(&t, 1, "6-2", "9-6");
    view_is(&t, 0, "last_deal",
            "{\"high\"=>[0, 1], \"low\"=>[0, 1], \"trixie\"=>[0, 0], "
            "\"game\"=>[0, 1], \"high_game\"=>[0, 1], \"low_game\"=>[0, 0], "
            "\"santa\"=>[0, 0], \"magna\"=>[0, 0], \"bid_made\"=>1}");
    view_is(&t, 0, "scores", "[15, 11]");
    view_is(&t, 0, "dealer", "1");
}

/* ---- the playing illustration (Tens named) --------------------------- */

/* Four players, seats 0,2 v 1,3. Seat 1 bids and names Tens; the Tens
 * dealt are 10-10 (seat 1), 10-7 (seat 2), 10-4 (seat 3), 10-0 (seat 0).
 * Set 1: 10-10 10-7 10-4 10-0, won by 10-10. Set 2: 9-6 9-4 9-1 and
 * Trixie from seat 0, holding no Nine and no honor: Trixie wins. Sets 3-6:
 * seat 0 leads its Fives, which nobody can follow or trump. The doubles
 * and sum-ten cards other than these are laid aside (captured by
 * nobody). Points: High (10-10) to side 1; Low (10-0, dealt to seat 0) to
 * side 0; Trixie to side 0; Game and Low-Game (10-0, the lowest Ten dealt,
 * won by seat 1) to side 1; no High-Game; side 0's only sum-ten card won
 * is 9-1: no Magna; no double won but the honor's: no Santa. Side 1: 3,
 * side 0: 2. */
static const char *const tens_hands[] = {
    "10-0 Trixie 5-0 5-1 5-2 5-3 8-5 8-6 8-7 9-0",
    "10-10 9-6 6-0 6-1 6-2 6-3 5-5 6-4 6-6 7-3",
    "10-7 9-4 7-0 7-1 7-2 7-4 7-7 8-2 8-8 9-9",
    "10-4 9-1 8-0 8-1 8-3 8-4 5-4 6-5 7-5 7-6",
};

static void tens_deal(struct mg *t, const char *spec, const char *bid)
{
    start_hands(t, spec, tens_hands);
    act(t, 1, bid);
    act(t, 2, "pass");
    act(t, 3, "pass");
    act(t, 0, "pass");
    act(t, 1, "name Tens");
    lay_aside(t, 1, "5-5", "6-4", "6-6", "7-3");
    lay_aside(t, 2, "7-7", "8-2", "8-8", "9-9");
    lay_aside(t, 3, "5-4", "6-5", "7-5", "7-6");
    lay_aside(t, 0, "8-5", "8-6", "8-7", "9-0");
    set4(t, 1, "10-10", "10-7", "10-4", "10-0");
    assert_int_equal(seat_now(t), 1); /* 10-10 won the set */
    act(t, 1, "play 9-6");
    act(t, 2, "play 9-4");
    act(t, 3, "play 9-1");
    legal_is(t, "play 5-0, play 5-1, play 5-2, play 5-3, play Trixie");
    act(t, 0, "play Trixie");
    assert_int_equal(seat_now(t), 0); /* Trixie won: no honor in it */
    view_is(t, 1, "sets_won", "[1, 1, 0, 0]");
}

static void finish_tens(struct mg *t)
{
    set4(t, 0, "5-0", "6-0", "7-0", "8-0");
    set4(t, 0, "5-1", "6-1", "7-1", "8-1");
    set4(t, 0, "5-2", "6-2", "7-2", "8-3");
}

static const char *const tens_points =
    "{\"high\"=>[0, 1], \"low\"=>[1, 0], \"trixie\"=>[1, 0], "
    "\"game\"=>[0, 1], \"high_game\"=>[0, 0], \"low_game\"=>[0, 1], "
    "\"santa\"=>[0, 0], \"magna\"=>[0, 0], \"bid_made\"=>1}";

/* Bid 3, made: both sides deduct their points: 15 - 2, 15 - 3. */
static void test_tens_bid_made(void **state)
{
    (void)state;
    struct mg t;
    tens_deal(&t, "magna", "bid 3");
    finish_tens(&t);
    set4(&t, 0, "5-3", "6-3", "7-4", "8-4");
    view_is(&t, 0, "last_deal", tens_points);
    view_is(&t, 0, "scores", "[13, 12]");
}

/* The Variation in Scoring: the bid made, the opponents score nothing. */
static void test_tens_variation_blocks(void **state)
{
    (void)state;
    struct mg t;
    tens_deal(&t, "magna(variation=true)", "bid 3");
    finish_tens(&t);
    set4(&t, 0, "5-3", "6-3", "7-4", "8-4");
    view_is(&t, 0, "scores", "[15, 12]");
}

/* Bid 4, failed (3 made): the bidders' points are not deducted and the
 * bid is added, 15 + 4; the opponents deduct theirs, 15 - 2 (with or
 * without the variation). */
static void test_tens_bid_failed(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        struct mg t;
        tens_deal(&t, v ? "magna(variation=true)" : "magna", "bid 4");
        finish_tens(&t);
        set4(&t, 0, "5-3", "6-3", "7-4", "8-4");
        view_is(&t, 0, "last_deal",
                "{\"high\"=>[0, 1], \"low\"=>[1, 0], \"trixie\"=>[1, 0], "
                "\"game\"=>[0, 1], \"high_game\"=>[0, 0], "
                "\"low_game\"=>[0, 1], \"santa\"=>[0, 0], "
                "\"magna\"=>[0, 0], \"bid_made\"=>0}");
        view_is(&t, 0, "scores", "[13, 19]");
    }
}

/* Precedence (the book): "If two players or sides having reduced their score
 * to two, and one of them has made High and Game, the other side would
 * go out on Low and Trixie." target=2 starts both sides at 2. In the Tens
 * deal side 1 makes High and Game (and Low-Game), side 0 Low and Trixie:
 * High (side 1: 1), Low (side 0: 1), Trixie (side 0: 0): side 0 is out
 * before side 1's Game is counted. */
static void test_precedence_going_out(void **state)
{
    (void)state;
    struct mg t;
    tens_deal(&t, "magna(target=2)", "bid 3");
    finish_tens(&t);
    set4(&t, 0, "5-3", "6-3", "7-4", "8-4");
    assert_true(game_is_terminal(&t.g, &t.st));
    assert_true(ret(&t, 0) == 1 && ret(&t, 2) == 1);
    assert_true(ret(&t, 1) == -1 && ret(&t, 3) == -1);
    view_is(&t, 0, "scores", "[0, 1]");
}

/* ---- Santa and Magna ------------------------------------------------- */

/* Two players, Nines named by seat 1, who leads Nines to every set; seat 0
 * (no Nine, no honor) must throw: seat 1 wins 6-6 7-7 (doubles), 6-4 7-3
 * (sum ten), 5-5 (both), 8-0, and its own 9-9 (the honor double, which
 * does not count). Doubles 2, tens 2, and 5-5 for one of them: Santa
 * 3 → 2 and Magna 2 → 1, or Santa 2 → 1 and Magna 3 → 2; 3 either way,
 * Santa first. High 9-9 and Low 9-4 (9-0..9-3 not dealt) are seat 1's; no
 * Game (9-1 not dealt), no Trixie. Seat 1: 1 + 1 + 2 + 1 = 5. */
static void test_santa_magna(void **state)
{
    (void)state;
    struct mg t;
    const char *hands[] = {
        "6-6 7-7 6-4 7-3 5-5 8-0 8-1 8-3 8-4 8-5",
        "9-9 9-8 9-7 9-6 9-5 9-4 10-1 10-2 10-3 10-5",
    };
    start_hands(&t, "magna(players=2)", hands);
    act(&t, 1, "bid 5");
    act(&t, 0, "pass");
    act(&t, 1, "name Nines");
    lay_aside(&t, 1, "10-1", "10-2", "10-3", "10-5");
    lay_aside(&t, 0, "8-1", "8-3", "8-4", "8-5");
    set2(&t, 1, "9-9", "6-6");
    set2(&t, 1, "9-8", "7-7");
    set2(&t, 1, "9-7", "6-4");
    set2(&t, 1, "9-6", "7-3");
    set2(&t, 1, "9-5", "5-5");
    set2(&t, 1, "9-4", "8-0");
    view_is(&t, 0, "last_deal",
            "{\"high\"=>[0, 1], \"low\"=>[0, 1], \"trixie\"=>[0, 0], "
            "\"game\"=>[0, 0], \"high_game\"=>[0, 0], \"low_game\"=>[0, 0], "
            "\"santa\"=>[0, 2], \"magna\"=>[0, 1], \"bid_made\"=>1}");
    view_is(&t, 0, "scores", "[15, 10]");
}

/* As above without the doubles: tens 6-4 7-3 8-2 and 5-5. Santa would
 * take 5-5 for nothing (one double), Magna gets it: 4 sum-ten cards → 2.
 * Seat 1: High, Low, Magna 2 = 4. */
static void test_five_five_goes_to_magna(void **state)
{
    (void)state;
    struct mg t;
    const char *hands[] = {
        "6-0 7-0 6-4 7-3 5-5 8-2 8-1 8-3 8-4 8-5",
        "9-9 9-8 9-7 9-6 9-5 9-4 10-1 10-2 10-3 10-5",
    };
    start_hands(&t, "magna(players=2)", hands);
    act(&t, 1, "bid 4");
    act(&t, 0, "pass");
    act(&t, 1, "name Nines");
    lay_aside(&t, 1, "10-1", "10-2", "10-3", "10-5");
    lay_aside(&t, 0, "8-1", "8-3", "8-4", "8-5");
    set2(&t, 1, "9-9", "6-0");
    set2(&t, 1, "9-8", "7-0");
    set2(&t, 1, "9-7", "6-4");
    set2(&t, 1, "9-6", "7-3");
    set2(&t, 1, "9-5", "5-5");
    set2(&t, 1, "9-4", "8-2");
    view_is(&t, 0, "last_deal",
            "{\"high\"=>[0, 1], \"low\"=>[0, 1], \"trixie\"=>[0, 0], "
            "\"game\"=>[0, 0], \"high_game\"=>[0, 0], \"low_game\"=>[0, 0], "
            "\"santa\"=>[0, 0], \"magna\"=>[0, 2], \"bid_made\"=>1}");
    view_is(&t, 0, "scores", "[15, 11]");
}

/* ---- bidding and discards -------------------------------------------- */

/* Nobody bids: the dealer must bid (no "pass"), at least 1. The bidder
 * holding a single honor may not lay it aside. Seat 0 (dealer) holds
 * one Ten, 10-0. */
static void test_dealer_forced_and_keeps_honor(void **state)
{
    (void)state;
    struct mg t;
    const char *hands[] = {
        "10-0 5-0 5-1 5-2 5-3 5-4 6-0 6-1 6-2 6-3",
        "9-9 9-8 9-7 9-6 9-5 9-4 10-1 10-2 10-3 10-5",
    };
    start_hands(&t, "magna(players=2)", hands);
    act(&t, 1, "pass");
    legal_is(&t, "bid 1, bid 2, bid 3, bid 4, bid 5, bid 6, bid 7, bid 8, "
                 "bid 9");
    act(&t, 0, "bid 1");
    act(&t, 0, "name Tens");
    lay_aside(&t, 1, "9-9", "9-8", "9-7", "9-6");
    legal_is(&t, "discard 5-0, discard 5-1, discard 5-2, discard 5-3, "
                 "discard 5-4, discard 6-0, discard 6-1, discard 6-2, "
                 "discard 6-3");
    lay_aside(&t, 0, "5-0", "5-1", "5-2", "5-3");
    legal_is(&t, "play 10-0");
}

/* Five players is allowed, six is not; a card outside the 52 is refused. */
static void test_refusals(void **state)
{
    (void)state;
    struct mg t;
    char err[256];
    uint8_t cards[4];
    assert_int_not_equal(game_make(&t.g, "magna(players=6)", err, sizeof err),
                         0);
    make(&t, "magna(players=5)");
    int n = game_deck_parse(&t.g, "7-3 2-1", cards, 4, err, sizeof err);
    assert_int_equal(n, 2);
    assert_int_equal(game_init(&t.g, &t.st, 1, cards, n), ERR_INVAL);
}

/* ---- facts kept in the state ------------------------------------------ */

/* Asserts the values apply keeps for the tensor equal their count from
 * the bids, the scores and the deals (each seat's twice: s and s + n). */
static void facts_match(const struct magna_state *st)
{
    int n = st->tb.n;
    for (int s = 0; s < n; s++) {
        int side = st->partners ? s & 1 : s;
        int sc = st->score[side];
        sc = sc < 0 ? 0 : sc > 2 * st->target ? 2 * st->target : sc;
        float score = (float)sc / (float)(2 * st->target);
        float bid = st->bids[s] > 0 ? (float)st->bids[s] / 9.0f : 0.0f;
        bool passed = st->bids[s] == 0;
        for (int k = s; k < 2 * n; k += n) {
            assert_true(st->score_f[k] == score);
            assert_true(st->bid_f[k] == bid);
            assert_int_equal(st->passed >> k & 1, passed);
        }
    }
    assert_int_equal(st->passed >> 2 * n, 0);
    assert_true(st->deal_f == (float)st->deal_no / (float)st->max_deals);
}

/* The facts hold after every step of random games, of every player count
 * and both scorings, through game ends and drawn games. */
static void test_kept_facts_match_scratch(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "magna",
        "magna(players=2,variation=true)",
        "magna(players=3,target=30)",
        "magna(players=5,target=5)",
        "magna(partnerships=false,variation=true,target=4)",
        "magna(target=50,max_deals=2)",
    };
    struct rng r;
    rng_seed(&r, 5);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct mg t;
        int l[64];
        make(&t, specs[i]);
        for (uint64_t seed = 1; seed <= 8; seed++) {
            assert_int_equal(game_init(&t.g, &t.st, seed, NULL, 0), 0);
            facts_match(&t.st);
            for (int seat; (seat = seat_now(&t)) >= 0;) {
                int k = t.g.def->legal(&t.g, &t.st, seat, l);
                int a = l[rng_below(&r, (uint32_t)k)];
                assert_int_equal(game_apply(&t.g, &t.st, seat, a), 0);
                facts_match(&t.st);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bid_illustration),
        cmocka_unit_test(test_tens_bid_made),
        cmocka_unit_test(test_tens_variation_blocks),
        cmocka_unit_test(test_tens_bid_failed),
        cmocka_unit_test(test_precedence_going_out),
        cmocka_unit_test(test_santa_magna),
        cmocka_unit_test(test_five_five_goes_to_magna),
        cmocka_unit_test(test_dealer_forced_and_keeps_honor),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_kept_facts_match_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
