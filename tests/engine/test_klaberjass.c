/* test_klaberjass.c — Klaberjass rule facts from Parlett's Penguin Book (the
 * Jack 20 / Nine 14 of the Jack-Nine games) and docs/games/klaberjass.md.
 *
 * Every deal is explicit. Seat 0 deals first, so seat 1 is the elder; the
 * pack goes 3 to the elder, 3 to the dealer, 3 and 3 again, one card is
 * turned, then 3 and 3 once trumps are fixed; start() builds that order
 * from the two 9-card hands. Expected values are worked out by hand in
 * the comments from the rule book's point table, not read off the code.
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
#include "engine/conformance.h"
#include "engine/game.h"
#include "game_steps.h"

extern const struct game_def klaberjass_game;

struct tk {
    struct game g;
    unsigned char st[1024];
};

/* Makes spec; the elder (seat 1) gets elder[0..8], the dealer (seat 0)
 * dealer[0..8] (the first six of each before the bidding), and turnup is
 * turned. The other 13 cards are shuffled into the stock. */
static void start(struct tk *t, const char *spec, const char *elder,
                  const char *dealer, const char *turnup)
{
    char err[256], e[9][8], d[9][8], text[256];
    uint8_t cards[32];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &klaberjass_game, spec, err,
                                           sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    assert_int_equal(sscanf(elder, "%7s %7s %7s %7s %7s %7s %7s %7s %7s", e[0],
                            e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8]),
                     9);
    assert_int_equal(sscanf(dealer, "%7s %7s %7s %7s %7s %7s %7s %7s %7s",
                            d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7],
                            d[8]),
                     9);
    snprintf(text, sizeof text,
             "%s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s", e[0],
             e[1], e[2], d[0], d[1], d[2], e[3], e[4], e[5], d[3], d[4], d[5],
             turnup, e[6], e[7], e[8], d[6], d[7], d[8]);
    int n = game_deck_parse(&t->g, text, cards, 32, err, sizeof err);
    assert_int_equal(n, 19);
    assert_int_equal(game_init(&t->g, t->st, 7, cards, n), 0);
}

static void act(struct tk *t, int seat, const char *text)
{
    steps_act(&t->g, t->st, seat, text);
}

static void legal_is(struct tk *t, const char *want)
{
    steps_legal_is(&t->g, t->st, want);
}

static void view_is(struct tk *t, int seat, const char *key, const char *want)
{
    steps_view_is(&t->g, t->st, seat, key, want);
}

/* A deal without sequences or bella. Elder (seat 1): J♥ 9♥ A♠ 10♣ K♦ 8♣
 * + 7♠ Q♣ A♦; dealer (seat 0): A♥ 10♥ K♠ Q♠ 9♣ 7♦ + 9♠ 8♦ J♣; Q♥ turned.
 * The stock keeps K♥ 8♥ 7♥ A♣ K♣ 7♣ 10♦ Q♦ J♦ 9♦ 10♠ J♠ 8♠, worth (table:
 * trump K 4; plain A 11, 10 10, K 4, Q 3, J 2) 4+11+4+10+3+2+10+2 = 46;
 * the turned Q♥ is worth 3. */
static const char *const ELDER1 = "J♥ 9♥ A♠ 10♣ K♦ 8♣ 7♠ Q♣ A♦";
static const char *const DEALER1 = "A♥ 10♥ K♠ Q♠ 9♣ 7♦ 9♠ 8♦ J♣";

/* Plays deal 1's nine tricks (elder leads; the comments give the points
 * each trick carries and who wins it). */
static void play_deal1(struct tk *t)
{
    act(t, 1, "play J♥");
    /* The dealer cannot beat the trump Jack: either heart may follow. */
    legal_is(t, "play A♥, play 10♥");
    act(t, 0, "play 10♥"); /* 20 + 10 to the elder: the book's Jack 20 */
    view_is(t, 0, "points", "[0, 30]");
    act(t, 1, "play 9♥");
    act(t, 0, "play A♥"); /* 14 + 11: the book's Nine 14, above the ace */
    view_is(t, 0, "points", "[0, 55]");
    act(t, 1, "play A♠");
    legal_is(t, "play 9♠, play Q♠, play K♠"); /* follow, no duty to head */
    act(t, 0, "play 9♠"); /* 11 */
    act(t, 1, "play 10♣");
    act(t, 0, "play J♣"); /* 12 */
    act(t, 1, "play 8♣");
    act(t, 0, "play 9♣"); /* 0 to the dealer, who now leads */
    act(t, 0, "play K♠");
    act(t, 1, "play 7♠"); /* 4 */
    act(t, 0, "play Q♠");
    legal_is(t, "play Q♣, play A♦, play K♦"); /* void, no trump: any */
    act(t, 1, "play Q♣"); /* 6 */
    act(t, 0, "play 7♦");
    act(t, 1, "play A♦"); /* 11 to the elder */
    act(t, 1, "play K♦");
    act(t, 0, "play 8♦"); /* 4 + last trick 10 */
}

/* The elder takes and makes: each scores his own. Elder 30+25+11+12+11+14
 * = 103, dealer 4+6 = 10; with the stock's 46 and the turn-up's 3 that is
 * the pack's 162. */
static void test_points_and_made(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass", ELDER1, DEALER1, "Q♥");
    legal_is(&t, "take, pass");
    act(&t, 1, "take");
    view_is(&t, 0, "trump", "\"hearts\"");
    /* Nobody holds the 7♥, but both are asked, so asking tells nothing. */
    legal_is(&t, "keep");
    act(&t, 1, "keep");
    act(&t, 0, "keep");
    view_is(&t, 0, "sequences", "nil");
    play_deal1(&t);
    view_is(&t, 0, "scores", "[10, 103]");
    assert_int_equal(10 + 103 + 46 + 3, 162);
    /* The deal passes: seat 1 deals, seat 0 is elder. */
    view_is(&t, 0, "dealer", "1");
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
}

/* The dealer makes hearts in round 1 and fails (10 < 103): the opponent
 * scores both totals. */
static void test_maker_fails(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass", ELDER1, DEALER1, "Q♥");
    act(&t, 1, "pass");
    act(&t, 0, "take");
    view_is(&t, 0, "maker", "0");
    act(&t, 1, "keep");
    act(&t, 0, "keep");
    play_deal1(&t);
    view_is(&t, 0, "scores", "[0, 113]");
}

/* Round 2 names another suit; all four passes annul the deal. */
static void test_round2_and_annul(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass", ELDER1, DEALER1, "Q♥");
    act(&t, 1, "pass");
    act(&t, 0, "pass");
    legal_is(&t, "pass, name clubs, name diamonds, name spades");
    act(&t, 1, "pass");
    act(&t, 0, "pass");
    view_is(&t, 0, "dealer", "1");
    view_is(&t, 0, "scores", "[0, 0]");
    view_is(&t, 0, "phase", "\"round 1\"");

    start(&t, "klaberjass", ELDER1, DEALER1, "Q♥");
    act(&t, 1, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "pass");
    act(&t, 0, "name spades"); /* not the turned suit: no exchange */
    view_is(&t, 1, "trump", "\"spades\"");
    view_is(&t, 1, "phase", "\"play\"");
    view_is(&t, 1, "maker", "0");
}

/* Schmeiss (option): annulled at the opponent's word, or the schmeisser
 * becomes maker with the turned suit. */
static void test_schmeiss(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass(schmeiss=true)", ELDER1, DEALER1, "Q♥");
    legal_is(&t, "take, pass, schmeiss");
    act(&t, 1, "schmeiss");
    legal_is(&t, "annul, refuse");
    act(&t, 0, "annul");
    view_is(&t, 0, "dealer", "1");

    start(&t, "klaberjass(schmeiss=true)", ELDER1, DEALER1, "Q♥");
    act(&t, 1, "pass");
    act(&t, 0, "schmeiss");
    act(&t, 1, "refuse");
    view_is(&t, 1, "maker", "0");
    view_is(&t, 1, "trump", "\"hearts\"");
}

/* Deal 2: exchange of the trump 7, sequences compared, bella, the play
 * duties. Elder: 7♣ A♣ K♦ 8♦ 9♠ 7♠ + 8♠ J♥ A♥; dealer: J♣ 9♣ K♣ Q♣ 8♥ 9♥
 * + 10♥ 7♦ A♠; 10♣ turned. */
static void test_exchange_sequences_bella(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass", "7♣ A♣ K♦ 8♦ 9♠ 7♠ 8♠ J♥ A♥",
          "J♣ 9♣ K♣ Q♣ 8♥ 9♥ 10♥ 7♦ A♠", "10♣");
    act(&t, 1, "take");
    legal_is(&t, "exchange 7, keep");
    act(&t, 1, "exchange 7");
    view_is(&t, 0, "turnup", "\"7♣\"");
    view_is(&t, 1, "hand",
            "[\"A♣\", \"10♣\", \"8♦\", \"K♦\", \"A♥\", \"J♥\", \"7♠\", "
            "\"8♠\", \"9♠\"]");
    /* Elder's best: 7♠ 8♠ 9♠ (20, top 9). Dealer's: J♣ Q♣ K♣ (20, top
     * K) beats it, so the dealer alone scores all his: that run and 8♥ 9♥
     * 10♥, 40, shown to both. The play goes straight on: the dealer was
     * not asked once the 7 was exchanged. */
    view_is(&t, 1, "sequences",
            "[0, 40, [\"J♣\", \"Q♣\", \"K♣\", \"8♥\", \"9♥\", \"10♥\"]]");
    act(&t, 1, "play A♣");
    legal_is(&t, "play 9♣, play J♣"); /* a trump lead must be beaten */
    act(&t, 0, "play J♣");            /* 11 + 20 */
    act(&t, 0, "play K♣");
    act(&t, 1, "play 10♣"); /* 10 + 4 to the elder: 10 is above K */
    view_is(&t, 0, "bella", "[0, 0]");
    act(&t, 1, "play 7♠");
    act(&t, 0, "play A♠"); /* 11 */
    act(&t, 0, "play Q♣"); /* the second of K♣ Q♣: bella */
    view_is(&t, 1, "bella", "[20, 0]");
    legal_is(&t, "play 8♦, play K♦, play A♥, play J♥, play 8♠, play 9♠");
    act(&t, 1, "play 8♦"); /* 3 */
    act(&t, 0, "play 8♥");
    legal_is(&t, "play A♥, play J♥");
    act(&t, 1, "play A♥"); /* 11 to the elder */
    act(&t, 1, "play 9♠");
    legal_is(&t, "play 9♣"); /* void in spades: must trump */
    act(&t, 0, "play 9♣");   /* 14 */
    act(&t, 0, "play 7♦");
    act(&t, 1, "play K♦"); /* 4 to the elder */
    act(&t, 1, "play 8♠");
    legal_is(&t, "play 9♥, play 10♥"); /* void in spades and trumps */
    act(&t, 0, "play 9♥");             /* 0 to the elder */
    act(&t, 1, "play J♥");
    act(&t, 0, "play 10♥"); /* 12 + 10 last */
    /* Dealer 31+11+3+14+22 = 81, + 40 + 20 = 141; elder (maker) 14+11+4 =
     * 29 < 141: the dealer scores both, 170. */
    view_is(&t, 0, "scores", "[170, 0]");
}

/* Equal sequences (same value and top, neither in trumps) cancel. Elder
 * 7♠ 8♠ 9♠, dealer 7♦ 8♦ 9♦; hearts turned. */
static void test_equal_sequences_cancel(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass", "7♠ 8♠ 9♠ A♣ K♣ J♥ A♥ 10♣ J♦",
          "7♦ 8♦ 9♦ A♠ K♠ 9♥ Q♦ J♣ 8♣", "Q♥");
    act(&t, 1, "take");
    act(&t, 1, "keep");
    act(&t, 0, "keep");
    view_is(&t, 0, "sequences", "nil");
    /* In trumps the same run wins: make diamonds trumps in round 2. */
    start(&t, "klaberjass", "7♠ 8♠ 9♠ A♣ K♣ J♥ A♥ 10♣ J♦",
          "7♦ 8♦ 9♦ A♠ K♠ 9♥ Q♦ J♣ 8♣", "Q♥");
    act(&t, 1, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "name diamonds");
    view_is(&t, 0, "sequences", "[0, 20, [\"7♦\", \"8♦\", \"9♦\"]]");
}

/* Equal totals (no sequences, no bella, nobody holds a trump): the
 * elder, maker, leads his spades and wins them, then gives the lead away
 * with the 7♦; each side ends with 29 (elder 3+12+3+11; dealer
 * 11+2+2+4, and 10 for the last trick). */
static void play_tie(struct tk *t, const char *spec)
{
    start(t, spec, "8♠ 9♠ J♠ Q♠ 7♦ 7♣ 8♣ J♣ K♣",
          "8♦ 9♦ J♦ A♦ 7♠ 9♣ 10♣ Q♣ A♣", "Q♥");
    act(t, 1, "take");
    act(t, 1, "keep");
    act(t, 0, "keep");
    static const char *const cards[] = {
        "Q♠", "7♠",  "J♠", "10♣", "9♠", "Q♣", "8♠", "A♣", "7♦",
        "A♦", "J♦",  "8♣", "9♦", "J♣", "8♦", "K♣", "9♣", "7♣"};
    char name[32];
    for (int i = 0; i < 18; i++) {
        snprintf(name, sizeof name, "play %s", cards[i]);
        steps_act(&t->g, t->st, game_current_seat(&t->g, t->st), name);
        if (i == 16)
            view_is(t, 0, "points", "[19, 29]");
    }
}

/* Equal: the maker scores nothing, the opponent his own 29; with
 * tie=hold_over the maker's 29 wait for the next deal's winner. */
static void test_tie(void **state)
{
    (void)state;
    struct tk t;
    play_tie(&t, "klaberjass");
    view_is(&t, 0, "scores", "[29, 0]");
    view_is(&t, 0, "held", "0");
    play_tie(&t, "klaberjass(tie=hold_over)");
    view_is(&t, 0, "scores", "[29, 0]");
    view_is(&t, 0, "held", "29");
}

/* The game ends at the target (500 by default; 100 here). */
static void test_target(void **state)
{
    (void)state;
    struct tk t;
    start(&t, "klaberjass(target=100)", ELDER1, DEALER1, "Q♥");
    act(&t, 1, "take");
    act(&t, 1, "keep");
    act(&t, 0, "keep");
    play_deal1(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(steps_ret(&t.g, t.st, 1) == 1.0);
    assert_true(steps_ret(&t.g, t.st, 0) == -1.0);
}

static void run_conformance(const char *spec)
{
    char err[512];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(
        conformance_game_make(&g, &klaberjass_game, spec, err, sizeof err), 0);
    int rc = conformance_run(&g, 60, 11, &r, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
}

static void test_conformance(void **state)
{
    (void)state;
    run_conformance("klaberjass");
    run_conformance("klaberjass(schmeiss=true,tie=hold_over)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points_and_made),
        cmocka_unit_test(test_maker_fails),
        cmocka_unit_test(test_round2_and_annul),
        cmocka_unit_test(test_schmeiss),
        cmocka_unit_test(test_exchange_sequences_bella),
        cmocka_unit_test(test_equal_sequences_cancel),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_target),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
