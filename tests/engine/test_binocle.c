/* test_binocle.c — Binocle rule facts from Parlett's Penguin Book and
 * docs/games/binocle.md: trick-and-draw with melding by the trick winner, the
 * first marriage fixing trumps (40), the trump sequence, binocle and grand
 * binocle, four of a kind, the strict duty once the stock is empty, and the
 * four-player hidden partnership of Q♠ and J♦ with its soloist.
 *
 * Decks are explicit: seat 0 deals; with two players seat 1 gets the
 * first 8 cards, seat 0 the next 8, and the stock is the rest, top first;
 * with four, blocks of 8 from seat 1 round to seat 0.
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
#include "engine/meld.h"
#include "game_steps.h"
#include "meld_steps.h"

extern const struct game_def binocle_game;

struct tc {
    struct game g;
    unsigned char st[1024];
};

/* Makes spec and deals the named cards in pack order. */
static void start(struct tc *t, const char *spec, const char *cards)
{
    char err[256];
    uint8_t deck[32];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &binocle_game, spec, err,
                                           sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n = game_deck_parse(&t->g, cards, deck, 32, err, sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(game_init(&t->g, t->st, 3, deck, n), 0);
}

static void act(struct tc *t, int seat, const char *text)
{
    steps_act(&t->g, t->st, seat, text);
}

static void legal_is(struct tc *t, const char *want)
{
    steps_legal_is(&t->g, t->st, want);
}

static int view_at(struct tc *t, const char *key, int i)
{
    return meld_steps_view_at(&t->g, t->st, 0, key, i, -1);
}

/* Two players. Seat 1: K♥ Q♥ A♥ 10♥ J♥ Q♠ J♦ 9♣; seat 0: 7♣ 8♣ 7♦ 8♦
 * 9♦ 7♠ 8♠ K♠; stock from the top: A♣ 10♣ K♣ Q♣ J♣ A♦ 10♦ K♦ Q♦ A♠ 10♠
 * J♠ 9♠ 7♥ 8♥ 9♥. */
static const char *const DEAL2 =
    "K♥ Q♥ A♥ 10♥ J♥ Q♠ J♦ 9♣ 7♣ 8♣ 7♦ 8♦ 9♦ 7♠ 8♠ K♠ "
    "A♣ 10♣ K♣ Q♣ J♣ A♦ 10♦ K♦ Q♦ A♠ 10♠ J♠ 9♠ 7♥ 8♥ 9♥";

static void test_melds_two_players(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "binocle", DEAL2);
    /* No trumps yet, no duty to follow: the K♠ does not win a club lead. */
    act(&t, 1, "play 9♣");
    act(&t, 0, "play K♠"); /* 4 to seat 1 */
    legal_is(&t, "meld marriage hearts, meld binocle, no meld");
    act(&t, 1, "meld marriage hearts"); /* the first marriage: 40, trumps */
    steps_view_is(&t.g, t.st, 0, "trump", "\"hearts\"");
    steps_view_is(&t.g, t.st, 0, "melds", "[0, 40]");
    /* The winner drew A♣ first, seat 0 the 10♣. */
    steps_view_is(&t.g, t.st, 0, "stock", "14");
    act(&t, 1, "play A♣");
    act(&t, 0, "play 10♣"); /* 21 to seat 1 */
    legal_is(&t, "meld sequence, meld binocle, no meld");
    act(&t, 1, "meld sequence"); /* 150 */
    act(&t, 1, "play K♣");       /* drew K♣; seat 0 drew Q♣ */
    act(&t, 0, "play Q♣");       /* 7 */
    act(&t, 1, "meld binocle");  /* 40 */
    steps_view_is(&t.g, t.st, 0, "melds", "[0, 230]");
    /* Shown cards stay in hand and are public. */
    steps_view_is(&t.g, t.st, 0, "shown",
                  "[[], [\"J♦\", \"A♥\", \"10♥\", \"K♥\", \"Q♥\", \"J♥\", "
                  "\"Q♠\"]]");
    act(&t, 1, "play J♣"); /* drew J♣; seat 0 drew A♦ */
    act(&t, 0, "play A♦"); /* off suit: 13 to seat 1 */
    legal_is(&t, "no meld");
    steps_view_is(&t.g, t.st, 0, "taken", "[0, 45]"); /* 4+21+7+13 */
}

/* Marriages after the first score 20; a winner who melds nothing still
 * draws first. Grand binocle 80 after binocle 40. */
static void test_marriage_and_grand_binocle(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "binocle",
          "K♣ Q♣ K♦ Q♦ K♠ Q♠ J♦ A♣ 7♣ 8♣ 7♦ 8♦ 9♦ 7♠ 8♠ 9♠ "
          "A♦ 10♦ A♥ 10♥ K♥ Q♥ J♥ 9♥ 8♥ 7♥ A♠ 10♠ J♠ 10♣ J♣ 9♣");
    act(&t, 1, "play A♣");
    act(&t, 0, "play 7♣");
    act(&t, 1, "meld marriage clubs"); /* 40, clubs trumps */
    act(&t, 1, "play A♦");             /* drew A♦ */
    act(&t, 0, "play 7♦");
    act(&t, 1, "meld marriage diamonds"); /* 20 */
    act(&t, 1, "play A♥"); /* drew A♥; seat 0 drew 10♥ */
    act(&t, 0, "play 8♦");
    act(&t, 1, "meld grand binocle"); /* 80 */
    act(&t, 1, "play K♥");            /* drew K♥; seat 0 drew Q♥ */
    act(&t, 0, "play 7♠");
    legal_is(&t, "meld marriage spades, meld binocle, no meld");
    act(&t, 1, "meld binocle"); /* 40 */
    steps_view_is(&t.g, t.st, 0, "melds", "[0, 180]");
}

/* Four of a kind: one of each suit; melded cards stay playable. */
static void test_four_of_a_kind(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "binocle",
          "A♣ A♦ A♥ A♠ K♣ K♦ K♥ 9♣ 7♣ 8♣ 7♦ 8♦ 9♦ 7♠ 8♠ 9♠ "
          "K♠ Q♣ Q♦ Q♥ Q♠ J♣ J♦ J♥ J♠ 10♣ 10♦ 10♥ 10♠ 9♥ 8♥ 7♥");
    act(&t, 1, "play 9♣");
    act(&t, 0, "play 7♣");
    legal_is(&t, "meld four aces, no meld");
    act(&t, 1, "meld four aces"); /* 100; seat 1 draws K♠ */
    act(&t, 1, "play A♣");
    act(&t, 0, "play 8♣");
    legal_is(&t, "meld four kings, no meld");
    act(&t, 1, "meld four kings"); /* 80 */
    steps_view_is(&t.g, t.st, 0, "melds", "[0, 180]");
}

/* Four players: all dealt; seat 1 leads; strict play from the first
 * trick. Seat 1 holds Q♠, seat 3 J♦: partners, which nobody is told. */
static void test_four_hidden_partners(void **state)
{
    (void)state;
    struct tc t;
    start(&t, "binocle(players=4)",
          "Q♠ A♣ 7♣ K♥ Q♥ 7♦ 8♦ 9♦ "   /* seat 1 */
          "K♣ 10♣ 8♥ 9♥ 7♠ 8♠ 9♠ 10♠ " /* seat 2 */
          "J♦ 8♣ A♦ 10♦ K♦ Q♦ A♠ K♠ "  /* seat 3 */
          "9♣ Q♣ J♣ A♥ 10♥ J♥ 7♥ J♠"); /* seat 0 */
    steps_view_is(&t.g, t.st, 1, "partners", "[1, nil]");
    steps_view_is(&t.g, t.st, 3, "partners", "[nil, 3]");
    steps_view_is(&t.g, t.st, 2, "partners", "[nil, nil]");
    act(&t, 1, "play 7♣");
    /* Seat 2 must follow and head: K♣ or 10♣ (both beat the 7♣). */
    legal_is(&t, "play 10♣, play K♣");
    act(&t, 2, "play K♣");
    /* Seat 3 must follow: 8♣ cannot head the K♣, it is the only club. */
    legal_is(&t, "play 8♣");
    act(&t, 3, "play 8♣");
    /* Seat 0 can head with nothing above the K♣ but plays a club. */
    legal_is(&t, "play Q♣, play J♣, play 9♣");
    act(&t, 0, "play Q♣");
    /* Seat 2 won (K♣): it may meld before leading. */
    legal_is(&t, "no meld");
    act(&t, 2, "no meld");
    act(&t, 2, "play 7♠");
    legal_is(&t, "play A♠, play K♠");
    act(&t, 3, "play A♠");
    act(&t, 0, "play J♠");
    legal_is(&t, "play Q♠"); /* seat 1's only spade: now everyone knows */
    act(&t, 1, "play Q♠");
    steps_view_is(&t.g, t.st, 2, "partners", "[1, nil]");
    act(&t, 3, "no meld");
    act(&t, 3, "play J♦");
    steps_view_is(&t.g, t.st, 2, "partners", "[1, 3]");
}

/* A player dealt Q♠ and J♦ plays alone; his result is +1 or -1 and each
 * opponent's -1/3 or +1/3. With soloist=false the deal is thrown in. */
static void test_soloist(void **state)
{
    (void)state;
    struct tc t;
    const char *deal =
        "Q♠ J♦ 7♣ K♥ Q♥ 7♦ 8♦ 9♦ K♣ 10♣ 8♥ 9♥ 7♠ 8♠ 9♠ 10♠ "
        "A♣ 8♣ A♦ 10♦ K♦ Q♦ A♠ K♠ 9♣ Q♣ J♣ A♥ 10♥ J♥ 7♥ J♠";
    int ids[16];
    start(&t, "binocle(players=4)", deal);
    while (!game_is_terminal(&t.g, t.st)) {
        int seat = game_current_seat(&t.g, t.st);
        assert_true(t.g.def->legal(&t.g, t.st, seat, ids) > 0);
        assert_int_equal(game_apply(&t.g, t.st, seat, ids[0]), 0);
    }
    int solo = view_at(&t, "scores", 1), others = 0;
    for (int s = 0; s < 4; s++)
        others += s == 1 ? 0 : view_at(&t, "scores", s);
    double r1 = steps_ret(&t.g, t.st, 1), r2 = steps_ret(&t.g, t.st, 2);
    assert_true(solo != others);
    assert_true(r1 == (solo > others ? 1.0 : -1.0));
    assert_true(r2 == -r1 / 3);
    /* 130 card points in the deal. */
    int taken = 0;
    for (int s = 0; s < 4; s++)
        taken += view_at(&t, "taken", s);
    assert_int_equal(taken, 130);

    start(&t, "binocle(players=4,soloist=false)", deal);
    int qs = -1, jd = -1; /* each seat sees its own Q♠ / J♦ */
    for (int s = 0; s < 4; s++) {
        if (meld_steps_view_at(&t.g, t.st, s, "partners", 0, -1) == s)
            qs = s;
        if (meld_steps_view_at(&t.g, t.st, s, "partners", 1, -1) == s)
            jd = s;
    }
    assert_true(qs >= 0 && jd >= 0 && qs != jd);
}

static void run_conformance(const char *spec)
{
    meld_steps_conformance(&binocle_game, spec, 30);
}

static void test_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(conformance_game_make(&g, &binocle_game,
                                           "binocle(players=3)", err,
                                           sizeof err),
                     ERR_INVAL);
    run_conformance("binocle");
    run_conformance("binocle(players=4)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_melds_two_players),
        cmocka_unit_test(test_marriage_and_grand_binocle),
        cmocka_unit_test(test_four_of_a_kind),
        cmocka_unit_test(test_four_hidden_partners),
        cmocka_unit_test(test_soloist),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
