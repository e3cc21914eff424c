/* test_dice.c — the dice game's rules (the family games page;
 * docs/games/dice.md) played with fixed dice: the deck argument of init
 * carries the faces ("1".."6") used in order before the state's RNG. Every
 * expected number below is worked out by hand from the page's rule: 1-3 keep,
 * 4 left (seat + 1), 5 right (seat - 1), 6 to the pot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "common/err.h"
#include "engine/game.h"

#define STATE_MAX 4096

struct table {
    struct game g;
    _Alignas(16) unsigned char st[STATE_MAX];
};

/* Makes spec and starts it with the faces given as text. */
static void start(struct table *t, const char *spec, const char *faces)
{
    char err[256];
    uint8_t deck[64];
    assert_int_equal(game_make(&t->g, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= STATE_MAX);
    int n = game_deck_parse(&t->g, faces, deck, 64, err, sizeof err);
    assert_true(n >= 0);
    assert_int_equal(game_init(&t->g, t->st, 99, deck, n), 0);
}

/* The seat to roll rolls (through the checked wrapper and the parser). */
static void roll(struct table *t)
{
    char err[256];
    int seat = game_current_seat(&t->g, t->st);
    assert_true(seat >= 0);
    int a = game_action_parse(&t->g, t->st, seat, "roll", err, sizeof err);
    assert_int_equal(a, 0);
    assert_int_equal(game_apply(&t->g, t->st, seat, a), 0);
}

/* Units held by each seat: returns are units - 3 while the game runs. */
static void assert_units(struct table *t, const int *want)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    for (int i = 0; i < t->g.dims.players; i++)
        assert_int_equal((int)r[i] + 3, want[i]);
}

static void test_start(void **state)
{
    (void)state;
    struct table t;
    start(&t, "dice", "");
    /* Default six players, seat 0 rolls first, one action "roll". */
    assert_int_equal(t.g.dims.players, 6);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    int legal[4];
    assert_int_equal(t.g.def->legal(&t.g, t.st, 0, legal), 1);
    assert_int_equal(legal[0], 0);
    assert_int_equal(t.g.def->legal(&t.g, t.st, 1, legal), 0);
    char name[GAME_NAME_MAX];
    game_action_name(&t.g, t.st, 0, name, sizeof name);
    assert_string_equal(name, "roll");
    const int three[6] = {3, 3, 3, 3, 3, 3};
    assert_units(&t, three);
}

static void test_faces_move_units(void **state)
{
    (void)state;
    struct table t;
    /* Four players. Seat 0 rolls three dice 1 4 5: keeps one, passes one
     * left to seat 1 and one right to seat 3. */
    start(&t, "dice(players=4)", "1 4 5  6 6 2 3");
    roll(&t);
    const int a[4] = {1, 4, 3, 4};
    assert_units(&t, a);
    /* Seat 1 now holds four units, so throws four dice: 6 6 2 3 sends two
     * to the pot and keeps two. */
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    roll(&t);
    const int b[4] = {1, 2, 3, 4};
    assert_units(&t, b);
    /* The pot is nobody's: returns sum to minus the pot mid-game. */
    double r[GAME_MAX_PLAYERS], sum = 0;
    t.g.def->returns(&t.g, t.st, r);
    for (int i = 0; i < 4; i++)
        sum += r[i];
    assert_true(sum == -2);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
}

static void test_max_dice_caps_at_three(void **state)
{
    (void)state;
    struct table t;
    /* Three players. Seat 0: 1 4 5 -> units 1 4 4. Seat 1 holds four but
     * with max_dice=true throws only three: 6 6 6 -> 1 1 4, pot 3. Seat 2
     * throws three of its four: 4 4 4 -> all three go left to seat 0:
     * 4 1 1. Then seat 0 throws three (not four): 1 2 3 keeps all. If
     * seat 1 had thrown a fourth die it would have used the first 4 and
     * every later count would differ. */
    start(&t, "dice(players=3,max_dice=true)", "1 4 5 6 6 6 4 4 4 1 2 3 5");
    roll(&t);
    roll(&t);
    const int a[3] = {1, 1, 4};
    assert_units(&t, a);
    roll(&t);
    const int b[3] = {4, 1, 1};
    assert_units(&t, b);
    roll(&t);
    assert_units(&t, b);
    /* Seat 1 (one unit) throws the next face, 5: right, to seat 0. */
    roll(&t);
    const int c[3] = {5, 0, 1};
    assert_units(&t, c);
}

static void test_without_cap_all_dice_roll(void **state)
{
    (void)state;
    struct table t;
    /* The same faces with the default (no cap): seat 1 throws four dice
     * 6 6 6 4 -> three to the pot, one left to seat 2: units 1 0 5. */
    start(&t, "dice(players=3)", "1 4 5 6 6 6 4");
    roll(&t);
    roll(&t);
    const int a[3] = {1, 0, 5};
    assert_units(&t, a);
}

static void test_empty_seats_are_skipped(void **state)
{
    (void)state;
    struct table t;
    /* Three players. Seat 0: 6 6 6, all to the pot, seat 0 is empty. Seat
     * 1: 4 4 4, all left: seat 1 empty, seat 2 holds six. Seat 2 throws
     * six dice 5 1 1 1 1 1: one unit goes right to seat 1, which is back
     * in the game (the page: "a unit might get passed to you"). The next
     * roller after seat 2 would be seat 0, but it holds nothing and is
     * skipped: seat 1 rolls. */
    start(&t, "dice(players=3)", "6 6 6 4 4 4 5 1 1 1 1 1");
    roll(&t);
    const int a[3] = {0, 3, 3};
    assert_units(&t, a);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    roll(&t);
    const int b[3] = {0, 0, 6};
    assert_units(&t, b);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    roll(&t);
    const int c[3] = {0, 1, 5};
    assert_units(&t, c);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
}

static void test_stop_at_last_unit(void **state)
{
    (void)state;
    struct table t;
    /* Two players, six units. Seat 0: 6 6 4 -> pot 2, one unit to seat 1
     * (4 units). Seat 1: 6 6 1 1 -> pot 4, seat 1 keeps 2. Seat 0 is empty
     * and skipped, seat 1 rolls two dice 6 6: after the first six only one
     * unit is outside the pot, so the game stops there and the second
     * six, which would have left nobody, is not used. Seat 1 takes the pot
     * of 5 with its last unit: +3 net, seat 0 -3. */
    start(&t, "dice(players=2)", "6 6 4 6 6 1 1 6 6");
    roll(&t);
    roll(&t);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    roll(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    double r[GAME_MAX_PLAYERS];
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == -3 && r[1] == 3);
    char text[1024];
    t.g.def->describe(&t.g, t.st, -1, text, sizeof text);
    /* The unused die is shown in brackets. */
    assert_non_null(strstr(text, "roll 6 (6)"));
    assert_non_null(strstr(text, "seat 1 takes the pot"));
}

static void test_winner_need_not_be_roller(void **state)
{
    (void)state;
    struct table t;
    /* Three players, nine units. Seat 0: 6 6 6 (pot 3). Seat 1: 6 6 6
     * (pot 6). Seat 2 holds the last three: 6 6 then 4: after the second
     * six the pot holds 8 and the one unit left is still seat 2's, so seat
     * 2 wins (+6); the 4 is not used. */
    start(&t, "dice(players=3)", "6 6 6 6 6 6 6 6 4");
    roll(&t);
    roll(&t);
    roll(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    double r[GAME_MAX_PLAYERS];
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == -3 && r[1] == -3 && r[2] == 6);
    /* Passing can also hand the last unit to someone else: seat 0 sends
     * its three away 4 5 6 (one left, one right, one pot); seat 1 (4
     * units) 6 6 6 5: pot 4 and the fifth face sends one right to seat 0.
     * Seat 2 (4 units): 6 6 6 4 -> after three sixes pot 7, two units
     * outside (seat 0, seat 2); the 4 passes seat 2's last unit left to
     * seat 0; the game goes on with seat 0 alone holding two. */
    start(&t, "dice(players=3)", "4 5 6 6 6 6 5 6 6 6 4 6");
    roll(&t);
    roll(&t);
    roll(&t);
    const int a[3] = {2, 0, 0};
    assert_units(&t, a);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    /* Seat 0 throws two dice; the first, 6, makes the pot 8 with one unit
     * left outside, its own: the second (from the RNG) is not needed. */
    roll(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == 6 && r[1] == -3 && r[2] == -3);
}

static void test_turn_cap_voids(void **state)
{
    (void)state;
    struct table t;
    /* max_turns=2: after two rolls the game is void and every stake
     * returns, whatever moved. */
    start(&t, "dice(players=3,max_turns=2)", "6 6 6 4 4 4");
    roll(&t);
    const int a[3] = {0, 3, 3};
    assert_units(&t, a);
    roll(&t);
    assert_true(game_is_terminal(&t.g, t.st));
    double r[GAME_MAX_PLAYERS];
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == 0 && r[1] == 0 && r[2] == 0);
    assert_int_equal(t.g.dims.max_length, 2);
}

static void test_faces_codec_and_bad_decks(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    uint8_t deck[80];
    assert_int_equal(game_make(&g, "dice", err, sizeof err), 0);
    /* Faces repeat freely; ids are face - 1. */
    assert_int_equal(game_deck_parse(&g, "1 6 6 3", deck, 80, err, sizeof err),
                     4);
    assert_int_equal(deck[0], 0);
    assert_int_equal(deck[1], 5);
    assert_int_equal(deck[3], 2);
    assert_true(game_deck_parse(&g, "7", deck, 80, err, sizeof err) < 0);
    unsigned char st[STATE_MAX];
    memset(deck, 0, sizeof deck);
    assert_int_equal(game_init(&g, st, 1, deck, 65), ERR_INVAL);
    deck[0] = 6;
    assert_int_equal(game_init(&g, st, 1, deck, 1), ERR_INVAL);
}

static void test_options_checked(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    assert_int_equal(game_make(&g, "dice(players=1)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "2..16"));
    assert_int_equal(game_make(&g, "dice(players=16)", err, sizeof err), 0);
    /* Bounds: a seat loses at most its 3 units, wins the other 45. */
    assert_true(g.dims.ret_low == -3 && g.dims.ret_high == 45);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_faces_move_units),
        cmocka_unit_test(test_max_dice_caps_at_three),
        cmocka_unit_test(test_without_cap_all_dice_roll),
        cmocka_unit_test(test_empty_seats_are_skipped),
        cmocka_unit_test(test_stop_at_last_unit),
        cmocka_unit_test(test_winner_need_not_be_roller),
        cmocka_unit_test(test_turn_cap_voids),
        cmocka_unit_test(test_faces_codec_and_bad_decks),
        cmocka_unit_test(test_options_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
