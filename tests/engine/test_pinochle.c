/* test_pinochle.c — Pinochle for six or eight: the meld rows of Parlett's
 * Penguin Book, the upper rows docs/games/pinochle.md adds, the dix exchange,
 * the play duties (follow and head, trump and overtrump, equal cards), the 490
 * card points of a deal and the scoring.
 *
 * Decks are explicit: seat 0 deals, cards go in blocks of 16 (12 for
 * eight) from the dealer's left, and the dealer's last card is turned.
 * build() places the cards a test names and fills each hand from the rest
 * of the pack in face order, only with faces the test allows that seat
 * (tests/engine/meld_steps.h), so every hand is known. Meld values are the rule book's table rows.
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
#include "engine/meld.h"
#include "game_steps.h"
#include "meld_steps.h"

extern const struct game_def pinochle_game;

#define ANY MELD_ANY

struct tp {
    struct game g;
    unsigned char st[4096];
};

/* Makes spec and deals: seat s gets want[s] (may be NULL) topped up from
 * the rest of the pack with faces in allow[s]; seat 0 deals and its last
 * card is turned (NULL: auction, the dealer's block is full). */
static void build(struct tp *t, const char *spec, const char *const *want,
                  const uint32_t *allow, const char *turned)
{
    char err[256];
    uint8_t deck[96];
    int room[8];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &pinochle_game, spec, err,
                                           sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    for (int s = 0; s < t->g.dims.players; s++)
        room[s] = 96 / t->g.dims.players - (s == 0 && turned);
    int n = meld_steps_deck(&t->g, 0x3f, 4, want, allow, room, turned, deck);
    assert_int_equal(n, 96);
    assert_int_equal(game_init(&t->g, t->st, 3, deck, n), 0);
}

static int view_at(struct tp *t, const char *key, int i, int j)
{
    return meld_steps_view_at(&t->g, t->st, 0, key, i, j);
}

/* Seat's meld in spec when it holds `hand`, topped up to its share of the
 * pack with dead cards (10s and non-trump 9s), hearts turned with the
 * card `turned` (seat 0, the dealer, holds it as its last card); seat
 * holds no 9♥ unless the hand names it. */
static int meld_in(const char *spec, int seat, const char *hand,
                   const char *turned)
{
    static const char *const dead[] = {"10♣", "10♦", "10♠", "9♣", "9♦", "9♠"};
    struct tp t;
    char text[256], copy[256];
    const char *want[8] = {NULL};
    uint32_t only[8] = {ANY, ANY, ANY, ANY, ANY, ANY, ANY, ANY};
    int n = 0, per = 0;
    snprintf(text, sizeof text, "%s", hand);
    snprintf(copy, sizeof copy, "%s", hand);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        n++;
    /* the pack's share of each seat: 16 of 96 for six, 12 for eight */
    per = strstr(spec, "players=8") ? 12 : 16;
    per -= seat == 0; /* the dealer's last card is the turned one */
    for (int i = 0; n < per; i++, n++) {
        strcat(text, " ");
        strcat(text, dead[i / 4]);
    }
    want[seat] = text[0] == ' ' ? text + 1 : text;
    only[seat] = 0;
    build(&t, spec, want, only, turned);
    return view_at(&t, "melds", seat, 0);
}

static int meld_of(const char *hand)
{
    return meld_in("pinochle", 1, hand, "10♥");
}

/* The book's rows: pinochles, four to sixteen of a kind, dixes. */
static void test_seed_meld_rows(void **state)
{
    (void)state;
    assert_int_equal(meld_of("Q♠ J♦"), 40);
    assert_int_equal(meld_of("Q♠ Q♠ J♦ J♦"), 300);
    assert_int_equal(meld_of("Q♠ Q♠ Q♠ J♦ J♦ J♦"), 600);
    assert_int_equal(meld_of("Q♠ Q♠ Q♠ Q♠ J♦ J♦ J♦ J♦"), 1200);
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠"), 100);
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠"), 1000);
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠"), 2000);
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠ "
                             "A♣ A♦ A♥ A♠"),
                     3000);
    assert_int_equal(meld_of("K♣ K♦ K♥ K♠"), 80);
    assert_int_equal(meld_of("K♣ K♦ K♥ K♠ K♣ K♦ K♥ K♠"), 800);
    assert_int_equal(meld_of("K♣ K♦ K♥ K♠ K♣ K♦ K♥ K♠ K♣ K♦ K♥ K♠"), 1600);
    assert_int_equal(meld_of("K♣ K♦ K♥ K♠ K♣ K♦ K♥ K♠ K♣ K♦ K♥ K♠ "
                             "K♣ K♦ K♥ K♠"),
                     2400);
    /* Queens and Jacks without the other half of a pinochle. */
    assert_int_equal(meld_of("Q♣ Q♦ Q♥ Q♠"), 60);
    assert_int_equal(meld_of("Q♣ Q♦ Q♥ Q♠ Q♣ Q♦ Q♥ Q♠"), 600);
    assert_int_equal(meld_of("Q♣ Q♦ Q♥ Q♠ Q♣ Q♦ Q♥ Q♠ Q♣ Q♦ Q♥ Q♠"), 1200);
    assert_int_equal(meld_of("Q♣ Q♦ Q♥ Q♠ Q♣ Q♦ Q♥ Q♠ Q♣ Q♦ Q♥ Q♠ "
                             "Q♣ Q♦ Q♥ Q♠"),
                     1800);
    assert_int_equal(meld_of("J♣ J♦ J♥ J♠"), 40);
    assert_int_equal(meld_of("J♣ J♦ J♥ J♠ J♣ J♦ J♥ J♠"), 400);
    assert_int_equal(meld_of("J♣ J♦ J♥ J♠ J♣ J♦ J♥ J♠ J♣ J♦ J♥ J♠"), 800);
    assert_int_equal(meld_of("J♣ J♦ J♥ J♠ J♣ J♦ J♥ J♠ J♣ J♦ J♥ J♠ "
                             "J♣ J♦ J♥ J♠"),
                     1200);
    /* Three Aces of each suit and one King of each: 2000 + 80. */
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠ "
                             "K♣ K♦ K♠ K♥"),
                     2000 + 80);
}

/* Dixes: seat 1, first dix holder left of the dealer, gives one 9♥ for
 * the turned 10♥ and counts 10 for it; each dix kept counts 10 more. */
static void test_dixes(void **state)
{
    (void)state;
    assert_int_equal(meld_of("9♥"), 10);
    assert_int_equal(meld_of("9♥ 9♥"), 20);
    assert_int_equal(meld_of("9♥ 9♥ 9♥"), 30);
    assert_int_equal(meld_of("9♥ 9♥ 9♥ 9♥"), 40);
}

/* The dealer's dixes: a turned dix is his and counts 10 once (the book:
 * "counts 10 for it"); a dix that came to him in the exchange counts for
 * its giver only; when nobody before him holds a dix he exchanges with
 * himself, and each of his dixes counts 10 once. */
static void test_dealer_dixes(void **state)
{
    (void)state;
    assert_int_equal(meld_in("pinochle", 0, "", "9♥"), 10);
    assert_int_equal(meld_in("pinochle", 0, "9♥", "9♥"), 20);
    assert_int_equal(meld_in("pinochle", 0, "", "10♥"), 0);
    assert_int_equal(meld_in("pinochle", 0, "9♥ 9♥ 9♥ 9♥", "10♥"), 40);
    assert_int_equal(meld_in("pinochle(players=8)", 0, "", "9♥"), 10);
}

/* Eight players: "Quadruple melds cannot be made." No row of the meld
 * table counts a fourth time: four pinochles score as three; with six
 * players they are a quadruple. */
static void test_eight_no_quadruple(void **state)
{
    (void)state;
    const char *four = "Q♠ Q♠ Q♠ Q♠ J♦ J♦ J♦ J♦";
    assert_int_equal(meld_in("pinochle(players=8)", 1, four, "10♥"), 600);
    assert_int_equal(meld_in("pinochle(players=8)", 1,
                             "Q♠ Q♠ Q♠ J♦ J♦ J♦", "10♥"),
                     600);
    assert_int_equal(meld_in("pinochle", 1, four, "10♥"), 1200);
    /* Four dixes held after the exchange (auction: trumps named, no
     * exchange) count as three. */
    struct tp t;
    const char *want[8] = {NULL, "9♥ 9♥ 9♥ 9♥ 10♣ 10♣ 10♣ 10♣ 10♦ 10♦ 10♦ 10♦"};
    const uint32_t allow[8] = {ANY, 0, ANY, ANY, ANY, ANY, ANY, ANY};
    build(&t, "pinochle(players=8,trump=auction)", want, allow, NULL);
    for (int s = 1; s < 8; s++)
        steps_act(&t.g, t.st, s, "pass");
    steps_act(&t.g, t.st, 0, "bid 500");
    steps_act(&t.g, t.st, 0, "name hearts");
    assert_int_equal(view_at(&t, "melds", 1, 0), 30);
}

/* The upper rows of docs/games/pinochle.md: flushes, royal marriage, marriage,
 * additive. */
static void test_upper_meld_rows(void **state)
{
    (void)state;
    assert_int_equal(meld_of("A♥ 10♥ K♥ Q♥ J♥"), 150);
    assert_int_equal(meld_of("A♥ 10♥ K♥ Q♥ J♥ A♥ 10♥ K♥ Q♥ J♥"), 1500);
    assert_int_equal(meld_of("A♥ 10♥ K♥ Q♥ J♥ A♥ 10♥ K♥ Q♥ J♥ "
                             "A♥ 10♥ K♥ Q♥ J♥"),
                     3000);
    /* One 10♥ short of a triple: a double flush and a royal marriage. */
    assert_int_equal(meld_of("A♥ 10♥ K♥ Q♥ J♥ A♥ 10♥ K♥ Q♥ J♥ "
                             "A♥ K♥ Q♥ J♥"),
                     1500 + 40);
    assert_int_equal(meld_of("K♥ Q♥"), 40);
    assert_int_equal(meld_of("K♣ Q♣"), 20);
    assert_int_equal(meld_of("K♣ Q♣ K♣ Q♣ K♦ Q♦"), 60);
    /* A flush with a second K♥ Q♥: 150 + a royal marriage. */
    assert_int_equal(meld_of("A♥ 10♥ K♥ Q♥ J♥ K♥ Q♥"), 190);
    /* Marriage and pinochle share the Q♠: 20 + 40. */
    assert_int_equal(meld_of("K♠ Q♠ J♦"), 60);
}

/* The dix exchange is public: the holder gets the turned card, the
 * dealer the dix; seats before the holder are known to lack the dix. */
static void test_dix_exchange(void **state)
{
    (void)state;
    struct tp t;
    const char *want[6] = {NULL, "A♠", "9♥ K♣", NULL, NULL, NULL};
    /* seats 1 and 2 hold no other heart */
    const uint32_t allow[6] = {ANY, ANY & ~0xff0000u, ANY & ~0xff0000u, ANY,
                               ANY, ANY};
    build(&t, "pinochle", want, allow, "A♥");
    steps_view_is(&t.g, t.st, 0, "dix_exchange", "2");
    steps_view_is(&t.g, t.st, 0, "turned", "\"A♥\"");
    steps_view_is(&t.g, t.st, 0, "trump", "\"hearts\"");
    steps_view_is(&t.g, t.st, 0, "leader", "1");
}

/* One trick: K♣ led; seat 2 must head (A♣ or 10♣, not Q♣); seat 3,
 * void, must trump; seat 4 must overtrump; seat 5 cannot overtrump the
 * J♥ with its J♥ (equal: the first wins) and must still trump. */
static void test_play_duties(void **state)
{
    (void)state;
    struct tp t;
    const uint32_t clubs = 0xffu, hearts = 0xff0000u, nine_h = 1u << 21;
    const char *want[6] = {"10♣", "K♣", "A♣ 10♣ Q♣", "9♥ 9♥ Q♥", "10♥ J♥",
                           "J♥ 9♥"};
    const uint32_t allow[6] = {ANY, ANY & ~hearts, hearts & ~nine_h,
                               ANY & ~clubs & ~hearts, ANY & ~clubs & ~hearts,
                               ANY & ~clubs & ~hearts};
    build(&t, "pinochle", want, allow, "K♥");
    /* Seat 3 is the first holder of a dix: it gets the K♥. */
    steps_view_is(&t.g, t.st, 0, "dix_exchange", "3");
    steps_act(&t.g, t.st, 1, "play K♣");
    steps_legal_is(&t.g, t.st, "play A♣, play 10♣");
    steps_act(&t.g, t.st, 2, "play 10♣");
    steps_legal_is(&t.g, t.st, "play K♥, play Q♥, play 9♥");
    steps_act(&t.g, t.st, 3, "play 9♥");
    steps_legal_is(&t.g, t.st, "play 10♥, play J♥");
    steps_act(&t.g, t.st, 4, "play J♥");
    steps_legal_is(&t.g, t.st, "play J♥, play 9♥");
    steps_act(&t.g, t.st, 5, "play J♥");
    /* The dealer follows clubs; nothing of his can head a trumped trick. */
    int ids[64], n = t.g.def->legal(&t.g, t.st, 0, ids);
    assert_true(n >= 1);
    for (int i = 0; i < n; i++)
        assert_int_equal(meld_suit(ids[i]), CLUBS);
    steps_act(&t.g, t.st, 0, "play 10♣");
    /* Seat 4's J♥ was first: it wins 10+4+2+2+0+10 = 28 for team 1. */
    assert_int_equal(game_current_seat(&t.g, t.st), 4);
    steps_view_is(&t.g, t.st, 0, "taken", "[0, 28, 0]");
}

/* Plays the 96 cards of a deal, each seat its first legal card. */
static void play_out(struct tp *t)
{
    int ids[160];
    for (int i = 0; i < 96; i++) {
        int seat = game_current_seat(&t->g, t->st);
        assert_true(t->g.def->legal(&t->g, t->st, seat, ids) > 0);
        assert_int_equal(game_apply(&t->g, t->st, seat, ids[0]), 0);
    }
}

/* A deal's card points: 4 copies x 4 suits x (11+10+4+3+2) = 480 plus
 * the last trick, 490 (500 with last_trick=20). Each team scores its meld
 * and its cards (turned trump), so the scores less the team melds (read
 * before the last card: the next deal melds anew) add up to that. */
static void check_deal_total(const char *spec, int total)
{
    struct tp t;
    int ids[160], meld[4], sum = 0;
    const char *want[8] = {NULL};
    const uint32_t allow[8] = {ANY, ANY, ANY, ANY, ANY, ANY, ANY, ANY};
    build(&t, spec, want, allow, "A♥");
    int teams = t.g.dims.players / 2;
    for (int i = 0; i < 95; i++) {
        int seat = game_current_seat(&t.g, t.st);
        assert_true(t.g.def->legal(&t.g, t.st, seat, ids) > 0);
        assert_int_equal(game_apply(&t.g, t.st, seat, ids[0]), 0);
    }
    for (int k = 0; k < teams; k++)
        meld[k] = view_at(&t, "team_meld", k, -1);
    int seat = game_current_seat(&t.g, t.st);
    assert_int_equal(t.g.def->legal(&t.g, t.st, seat, ids), 1);
    assert_int_equal(game_apply(&t.g, t.st, seat, ids[0]), 0);
    for (int k = 0; k < teams; k++)
        sum += view_at(&t, "scores", k, -1) - meld[k];
    assert_int_equal(sum, total);
}

static void test_card_points_490(void **state)
{
    (void)state;
    check_deal_total("pinochle", 490);
    check_deal_total("pinochle(players=8)", 490);
    check_deal_total("pinochle(last_trick=20)", 500);
}

/* Deals spec (six players, an auction) and every seat from the dealer's
 * left passes: the dealer may only bid the minimum, 500. */
static void all_pass_to_dealer(struct tp *t, const char *spec)
{
    const char *want[6] = {NULL};
    const uint32_t allow[6] = {ANY, ANY, ANY, ANY, ANY, ANY};
    build(t, spec, want, allow, NULL);
    for (int s = 1; s <= 5; s++)
        steps_act(&t->g, t->st, s, "pass");
    steps_legal_is(&t->g, t->st, "bid 500");
}

/* One-bid auction: each bids once; all pass to the dealer, who must bid
 * the minimum; the bidder names trumps and leads. */
static void test_auction(void **state)
{
    (void)state;
    struct tp t;
    const char *want[6] = {NULL};
    const uint32_t allow[6] = {ANY, ANY, ANY, ANY, ANY, ANY};
    build(&t, "pinochle(trump=auction)", want, allow, NULL);
    steps_view_is(&t.g, t.st, 0, "turned", "nil");
    steps_act(&t.g, t.st, 1, "bid 520");
    steps_act(&t.g, t.st, 2, "pass");
    steps_act(&t.g, t.st, 3, "bid 600");
    steps_act(&t.g, t.st, 4, "pass");
    steps_act(&t.g, t.st, 5, "pass");
    steps_act(&t.g, t.st, 0, "pass");
    steps_legal_is(&t.g, t.st,
                   "name clubs, name diamonds, name hearts, name spades");
    steps_act(&t.g, t.st, 3, "name spades");
    steps_view_is(&t.g, t.st, 0, "leader", "3");
    steps_view_is(&t.g, t.st, 0, "high_bid", "600");

    all_pass_to_dealer(&t, "pinochle(trump=auction)");
}

/* A failed bid loses the bid; the other teams score meld and cards. */
static void test_auction_failed(void **state)
{
    (void)state;
    struct tp t;
    const char *want[6] = {NULL};
    const uint32_t allow[6] = {ANY, ANY, ANY, ANY, ANY, ANY};
    build(&t, "pinochle(trump=auction,min_bid=4000)", want, allow, NULL);
    for (int s = 1; s <= 5; s++)
        steps_act(&t.g, t.st, s, "pass");
    steps_act(&t.g, t.st, 0, "bid 4000");
    steps_act(&t.g, t.st, 0, "name clubs");
    int meld0 = view_at(&t, "team_meld", 0, -1);
    assert_true(meld0 + 490 < 4000);
    play_out(&t);
    assert_int_equal(view_at(&t, "scores", 0, -1), -4000);
}

/* Free auction: bidding goes round from the dealer's left, a pass is
 * final, passed seats are skipped, and it ends when all but the high
 * bidder have passed; the high bidder names trumps and leads. All pass:
 * the dealer must bid the minimum. */
static void test_free_auction(void **state)
{
    (void)state;
    struct tp t;
    const char *want[6] = {NULL};
    const uint32_t allow[6] = {ANY, ANY, ANY, ANY, ANY, ANY};
    build(&t, "pinochle(trump=free)", want, allow, NULL);
    steps_act(&t.g, t.st, 1, "bid 500");
    steps_act(&t.g, t.st, 2, "bid 520");
    steps_act(&t.g, t.st, 3, "pass");
    steps_act(&t.g, t.st, 4, "pass");
    steps_act(&t.g, t.st, 5, "pass");
    steps_act(&t.g, t.st, 0, "bid 550");
    /* round again: 1 may raise; 3, 4 and 5 have passed for good */
    steps_act(&t.g, t.st, 1, "bid 600");
    steps_view_is(&t.g, t.st, 0, "bids", "[550, 600, 520, \"pass\", "
                                         "\"pass\", \"pass\"]");
    steps_act(&t.g, t.st, 2, "pass");
    steps_act(&t.g, t.st, 0, "bid 610");
    steps_act(&t.g, t.st, 1, "pass");
    steps_legal_is(&t.g, t.st,
                   "name clubs, name diamonds, name hearts, name spades");
    steps_act(&t.g, t.st, 0, "name clubs");
    steps_view_is(&t.g, t.st, 0, "leader", "0");
    steps_view_is(&t.g, t.st, 0, "high_bid", "610");
    steps_view_is(&t.g, t.st, 0, "bidder", "0");

    all_pass_to_dealer(&t, "pinochle(trump=free)");
    steps_act(&t.g, t.st, 0, "bid 500");
    steps_act(&t.g, t.st, 0, "name spades");
    steps_view_is(&t.g, t.st, 0, "high_bid", "500");

    /* The top bid ends the bidding for the others: they may only pass. */
    build(&t, "pinochle(trump=free)", want, allow, NULL);
    steps_act(&t.g, t.st, 1, "bid 1490");
    steps_legal_is(&t.g, t.st, "pass");
}

/* Offset of the tensor segment named name. */
static int segment(const struct game *g, const char *name)
{
    struct obs_segment seg[32];
    int n = g->def->obs_layout(g, seg, 32);
    for (int i = 0; i < n; i++)
        if (!strcmp(seg[i].name, name))
            return seg[i].offset;
    fail_msg("no segment %s", name);
    return -1;
}

/* Seat's tensor shows the melds, card points and scores of the view (what
 * the state holds), scaled as the layout says: apply keeps them in their
 * observed form, and this is what it must keep. */
static void check_numbers(struct tp *t, int seat, double target)
{
    float out[682];
    int np = t->g.dims.players, teams = np / 2;
    t->g.def->observe(&t->g, t->st, seat, out);
    for (int r = 0; r < np; r++) {
        int m = meld_steps_view_at(&t->g, t->st, seat, "melds",
                                   (seat + r) % np, 0);
        assert_true(out[segment(&t->g, "melds") + r] ==
                    meld_unit(m / 1000.0f));
    }
    for (int r = 0; r < teams; r++) {
        int k = (seat + r) % teams;
        int taken = meld_steps_view_at(&t->g, t->st, seat, "taken", k, -1);
        int score = meld_steps_view_at(&t->g, t->st, seat, "scores", k, -1);
        assert_true(out[segment(&t->g, "taken") + r] == taken / 500.0f);
        assert_true(out[segment(&t->g, "scores") + r] ==
                    meld_unit(0.5f + score / (4 * (float)target)));
    }
}

/* Seeded random games, checked at every step. */
static void test_observed_numbers_follow_play(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "pinochle(target=1500)", "pinochle(players=8,target=800)",
        "pinochle(trump=auction,target=1200,min_bid=200)"};
    static const double targets[] = {1500, 800, 1200};
    char err[256];
    int legal[256];
    struct rng rng;
    rng_seed(&rng, 17);
    for (int i = 0; i < 3; i++) {
        struct tp t;
        memset(&t, 0, sizeof t);
        assert_int_equal(conformance_game_make(&t.g, &pinochle_game, specs[i],
                                               err, sizeof err),
                         0);
        assert_int_equal(game_init(&t.g, t.st, 5 + (uint64_t)i, NULL, 0), 0);
        while (!game_is_terminal(&t.g, t.st)) {
            int seat = game_current_seat(&t.g, t.st);
            check_numbers(&t, seat, targets[i]);
            int n = t.g.def->legal(&t.g, t.st, seat, legal);
            int a = legal[rng_below(&rng, (uint32_t)n)];
            assert_int_equal(game_apply(&t.g, t.st, seat, a), 0);
        }
        check_numbers(&t, 0, targets[i]);
    }
}

static void run_conformance(const char *spec)
{
    meld_steps_conformance(&pinochle_game, spec, 12);
}

static void test_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(conformance_game_make(&g, &pinochle_game,
                                           "pinochle(players=7)", err,
                                           sizeof err),
                     ERR_INVAL);
    run_conformance("pinochle");
    run_conformance("pinochle(players=8,trump=auction)");
    run_conformance("pinochle(trump=free)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_meld_rows),
        cmocka_unit_test(test_dixes),
        cmocka_unit_test(test_dealer_dixes),
        cmocka_unit_test(test_eight_no_quadruple),
        cmocka_unit_test(test_upper_meld_rows),
        cmocka_unit_test(test_dix_exchange),
        cmocka_unit_test(test_play_duties),
        cmocka_unit_test(test_card_points_490),
        cmocka_unit_test(test_auction),
        cmocka_unit_test(test_auction_failed),
        cmocka_unit_test(test_free_auction),
        cmocka_unit_test(test_observed_numbers_follow_play),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
