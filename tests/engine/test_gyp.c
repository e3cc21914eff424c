/* test_gyp.c — Gyp rule facts from Read & White's Standard Trix Cards (1904)
 * and docs/games/gyp.md.
 *
 * Given a pack, seat 0 deals the first hand (without one the first dealer
 * is drawn and read from the view); pack position i goes to seat
 * (1 + i) % players until the pack is out. With three players the prefix
 * "a1 a2 a0 b1 b2 b0 ..." gives seat 1 a1 b1 ..., seat 2 a2 b2 ..., seat 0
 * a0 b0 ..., and seat 1 plays first, so a prefix in play order is dealt
 * round the table in play order. Scores are read through the view and
 * returns. Games are made with conformance_game_make so these tests do
 * not need the registry; the last test runs the conformance suite.
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
#include "engine/trix_pack.h"

extern const struct game_def gyp_game;

struct tg {
    struct game g;
    unsigned char st[4096];
};

static void start(struct tg *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[TRIX_CARDS];
    memset(t, 0, sizeof *t);
    assert_int_equal(
        conformance_game_make(&t->g, &gyp_game, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n =
        deck ? game_deck_parse(&t->g, deck, cards, TRIX_CARDS, err, sizeof err)
             : 0;
    if (n < 0)
        fail_msg("deck: %s", err);
    assert_int_equal(game_init(&t->g, t->st, 5, cards, n), 0);
}

/* Plays the space-separated actions ("7-4" = play 7-4, "pass") in turn. */
static void plays(struct tg *t, const char *acts)
{
    char buf[512], name[32], err[256];
    snprintf(buf, sizeof buf, "%s", acts);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        int seat = game_current_seat(&t->g, t->st);
        if (strcmp(w, "pass"))
            snprintf(name, sizeof name, "play %s", w);
        else
            snprintf(name, sizeof name, "pass");
        int id = game_action_parse(&t->g, t->st, seat, name, err, sizeof err);
        if (id < 0)
            fail_msg("%s: %s", name, err);
        assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
    }
}

/* The legal actions of the seat to act, as names joined by spaces. */
static void legal_names(struct tg *t, char *out, size_t len)
{
    int acts[64];
    int seat = game_current_seat(&t->g, t->st);
    int n = t->g.def->legal(&t->g, t->st, seat, acts);
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char name[GAME_NAME_MAX];
        game_action_name(&t->g, t->st, acts[i], name, sizeof name);
        k += (size_t)snprintf(out + k, len - k, "%s%s", i ? "," : "", name);
    }
}

/* The int at idx of the int array under key in seat's view (or the int
 * itself when the value is not an array). */
static int view_int(struct tg *t, int seat, const char *key, int idx)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    msgpack_packer pk;
    int v = -9999;
    msgpack_sbuffer_init(&sb);
    msgpack_unpacked_init(&u);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object *m = &u.data;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size != strlen(key) ||
            memcmp(kv->key.via.str.ptr, key, strlen(key)))
            continue;
        if (kv->val.type == MSGPACK_OBJECT_ARRAY)
            v = (int)kv->val.via.array.ptr[idx].via.i64;
        else
            v = (int)kv->val.via.i64;
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return v;
}

/* The book's play-through with three players (suits 7..10): first player
 * (seat 1) 7-4, second (seat 2) 7-3 to the left, third (seat 0) 7-5 to
 * the right, then 7-6, 7-2, 7-1, 7-0, the second player cannot follow
 * with a Seven and leads 10-5, and the third completes the Sevens with
 * 7-7: one point to seat 0. The prefix is in play order, which is
 * the dealing order. */
static void test_play_example(void **state)
{
    (void)state;
    struct tg t;
    char names[256];
    start(&t, "gyp(players=3)",
          "7-4 7-3 7-5 7-6 7-2 7-1 7-0 10-5 7-7");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    plays(&t, "7-4 7-3 7-5 7-6 7-2 7-1 7-0");
    /* Seat 2 holds 10-5 but not 7-7 (seat 0 does): no Seven to lay. */
    legal_names(&t, names, sizeof names);
    assert_null(strstr(names, "7-7"));
    assert_non_null(strstr(names, "play 10-5"));
    plays(&t, "10-5");
    /* Seat 0 may lay 7-7 on the 7-6: the only Seven left. */
    legal_names(&t, names, sizeof names);
    assert_non_null(strstr(names, "play 7-7"));
    assert_int_equal(view_int(&t, 0, "scores", 0), 0);
    plays(&t, "7-7");
    assert_int_equal(view_int(&t, 1, "scores", 0), 1);
    assert_int_equal(view_int(&t, 1, "scores", 1), 0);
    assert_int_equal(view_int(&t, 1, "scores", 2), 0);
}

/* Only the six starters open a hand: with nothing on the table the first
 * player may lay 7-4, 8-4, 9-5 or 10-5 (three players) if held, and
 * nothing else. Seat 1 below holds Sevens and Eights without their
 * starters, so it must pass; seat 2 then opens. */
static void test_starters_and_pass(void **state)
{
    (void)state;
    struct tg t;
    char names[256];
    /* Seat 1 gets 7-0 7-1 7-2 7-3 7-5 7-6 7-7 8-0 8-1 8-2 8-3 8-5 8-6;
     * seat 2 gets 7-4 8-4 ...; seat 0 the rest. */
    start(&t, "gyp(players=3)",
          "7-0 7-4 9-0 7-1 8-4 9-1 7-2 9-5 9-2 7-3 10-5 9-3 7-5 8-7 9-4 "
          "7-6 8-8 9-6 7-7 10-0 9-7 8-0 10-1 9-8 8-1 10-2 9-9 8-2 10-3 10-4 "
          "8-3 10-6 10-7 8-5 10-8 10-9 8-6 10-10");
    legal_names(&t, names, sizeof names);
    assert_string_equal(names, "pass");
    plays(&t, "pass");
    legal_names(&t, names, sizeof names);
    assert_string_equal(names, "play 7-4,play 8-4,play 9-5,play 10-5");
    plays(&t, "8-4");
    /* Seat 0 holds 9-0..9-4, 9-6..9-8 but not 9-5 nor 8-5: pass. */
    legal_names(&t, names, sizeof names);
    assert_string_equal(names, "pass");
    plays(&t, "pass");
    /* Seat 1 may now lay 8-3 (down) or 8-5 (up). */
    legal_names(&t, names, sizeof names);
    assert_string_equal(names, "play 8-3,play 8-5");
}

/* A hand-worked deal to the end of the hand, three players.
 * Seat 1: all eleven Tens, 8-8, 9-9. Seat 2: 7-0..7-7, 8-0..8-4.
 * Seat 0: 8-5, 8-6, 8-7, 9-0..9-8 (twelve cards).
 * Play (seats 1, 2, 0 in turn, every play checked legal by the parser):
 *  10-5 8-4 8-5 | 10-4 8-3 8-6 | 10-3 8-2 8-7 | 8-8 8-1 9-5 |
 *  10-2 8-0 (Eights 0..8 complete: seat 2 scores 1) 9-6 | 10-1 7-4 9-7 |
 *  10-0 7-5 9-8 | 9-9 7-6 9-4 | 10-6 7-7 9-3 | 10-7 7-3 9-2 |
 *  10-8 7-2 9-1 | 10-9 7-1 9-0: Nines complete and seat 0's last card,
 *  so seat 0 scores 1 + 2 = 3 and the hand ends with Tens and
 *  Sevens unfinished (nothing for them). */
static const char *const worked_deck =
    "10-0 7-0 8-5 10-1 7-1 8-6 10-2 7-2 8-7 10-3 7-3 9-0 10-4 7-4 9-1 "
    "10-5 7-5 9-2 10-6 7-6 9-3 10-7 7-7 9-4 10-8 8-0 9-5 10-9 8-1 9-6 "
    "10-10 8-2 9-7 8-8 8-3 9-8 9-9 8-4";
static const char *const worked_play =
    "10-5 8-4 8-5 10-4 8-3 8-6 10-3 8-2 8-7 8-8 8-1 9-5 10-2 8-0 9-6 "
    "10-1 7-4 9-7 10-0 7-5 9-8 9-9 7-6 9-4 10-6 7-7 9-3 10-7 7-3 9-2 "
    "10-8 7-2 9-1 10-9 7-1";

static void test_worked_hand(void **state)
{
    (void)state;
    struct tg t;
    start(&t, "gyp(players=3)", worked_deck);
    plays(&t, worked_play);
    /* Eights done by seat 2 (its 8-0). */
    assert_int_equal(view_int(&t, 0, "scores", 2), 1);
    assert_int_equal(view_int(&t, 0, "scores", 0), 0);
    plays(&t, "9-0");
    assert_int_equal(view_int(&t, 0, "scores", 0), 3);
    assert_int_equal(view_int(&t, 0, "scores", 1), 0);
    assert_int_equal(view_int(&t, 0, "scores", 2), 1);
    /* A new hand: seat 1 deals, seat 2 plays first, 38 cards dealt
     * 13, 13, 12 from seat 2. */
    assert_false(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int(&t, 0, "dealer", 0), 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 2), 13);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 0), 13);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 1), 12);
}

/* The same hand with target 3: seat 0 reaches 3 and wins the game at the
 * end of the hand; returns +1 to it and -1/2 to the two others. With
 * target 1 both seat 0 (3) and seat 2 (1) pass the target: the higher,
 * seat 0, wins. */
static void test_game_end(void **state)
{
    (void)state;
    const char *specs[] = {"gyp(players=3,target=3)",
                           "gyp(players=3,target=1)"};
    for (int i = 0; i < 2; i++) {
        struct tg t;
        double r[3];
        start(&t, specs[i], worked_deck);
        plays(&t, worked_play);
        assert_false(game_is_terminal(&t.g, t.st));
        plays(&t, "9-0");
        assert_true(game_is_terminal(&t.g, t.st));
        t.g.def->returns(&t.g, t.st, r);
        assert_true(r[0] == 1.0);
        assert_true(r[1] == -0.5 && r[2] == -0.5);
    }
}

/* A tie at the target is not a win: another hand follows. Three
 * players, target 2. Seat 1: 7-5 7-6 7-7 8-3 8-5 8-7 8-8 9-1 9-3 9-6 9-8
 * 10-7 10-9; seat 2: 7-0 7-1 8-1 8-2 9-0 9-5 9-7 9-9 10-1 10-2 10-3 10-4
 * 10-10; seat 0: 7-2 7-3 7-4 8-0 8-4 8-6 9-2 9-4 10-0 10-5 10-6 10-8.
 * Seat 1 holds no starter and passes; then (seats 2, 0, 1, ...) play as
 * listed. Passes: seat 2 at its 8th turn (playable were 7-2, 9-1, 10-8,
 * 8-4: none held) and 9th (8-3, 8-6), seat 0 twice at the end (only 8-0
 * left, Eights down to 8-2). Seat 2 completes the Nines with 9-0 (9-9 was
 * down) and the Sevens with 7-0 (7-7 was down): 2 points. Seat 1 goes out
 * with 10-9 (its 13th card; Tens still lack 10-10): 2 points. 0, 2, 2:
 * both at the target but tied → a new hand, dealt by seat 1. */
static void test_tie_at_target(void **state)
{
    (void)state;
    struct tg t;
    start(&t, "gyp(players=3,target=2)",
          "7-5 7-0 7-2 7-6 7-1 7-3 7-7 8-1 7-4 8-3 8-2 8-0 8-5 9-0 8-4 8-7 "
          "9-5 8-6 8-8 9-7 9-2 9-1 9-9 9-4 9-3 10-1 10-0 9-6 10-2 10-5 9-8 "
          "10-3 10-6 10-7 10-4 10-8 10-9 10-10");
    plays(&t,
          "pass 9-5 10-5 9-6 10-4 7-4 7-5 9-7 9-4 9-3 10-3 7-3 7-6 10-2 "
          "9-2 9-8 10-1 10-6 7-7 9-9 10-0 10-7 pass 8-4 8-5 pass 8-6 8-3 "
          "8-2 7-2 9-1 9-0 10-8 8-7 7-1 pass 8-8 7-0 pass 10-9");
    assert_int_equal(view_int(&t, 0, "scores", 0), 0);
    assert_int_equal(view_int(&t, 0, "scores", 1), 2);
    assert_int_equal(view_int(&t, 0, "scores", 2), 2);
    assert_false(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int(&t, 0, "dealer", 0), 1);
}

/* Target 4 with the cap of one hand: nobody reached 4, the cap ends the
 * game and the highest (seat 0, 3 points) wins. */
static void test_cap(void **state)
{
    (void)state;
    struct tg t;
    double r[3];
    start(&t, "gyp(players=3,target=4,max_deals=1)", worked_deck);
    plays(&t, worked_play);
    plays(&t, "9-0");
    assert_true(game_is_terminal(&t.g, t.st));
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == 1.0 && r[1] == -0.5);
}

/* Five players use the Fives too (51 cards: 11 to the first player, 10 to
 * the rest) and 5-3 is a starter; four players 45 cards (12 to the
 * dealer's left, 11 to each other seat; without a deck the first dealer
 * is drawn, so it is read from the view). */
static void test_packs(void **state)
{
    (void)state;
    struct tg t;
    start(&t, "gyp(players=5)", "5-3");
    assert_int_equal(view_int(&t, 0, "hand_sizes", 1), 11);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 2), 10);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 0), 10);
    char names[256];
    legal_names(&t, names, sizeof names);
    assert_non_null(strstr(names, "play 5-3"));
    start(&t, "gyp(players=4)", NULL);
    int d = view_int(&t, 0, "dealer", 0);
    assert_true(d >= 0 && d < 4);
    for (int s = 0; s < 4; s++)
        assert_int_equal(view_int(&t, 0, "hand_sizes", s),
                         s == (d + 1) % 4 ? 12 : 11);
    /* A Four is not in the four-player pack. */
    char err[256];
    uint8_t cards[4];
    int n = game_deck_parse(&t.g, "4-2", cards, 4, err, sizeof err);
    assert_true(n != 1 || game_init(&t.g, t.st, 1, cards, n) == ERR_INVAL);
}

static void run_conformance(const char *spec)
{
    char err[512];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(
        conformance_game_make(&g, &gyp_game, spec, err, sizeof err), 0);
    if (conformance_run(&g, 40, 17, &r, err, sizeof err))
        fail_msg("%s: %s", spec, err);
}

/* Two to six players are out of range; then the conformance suite. */
static void test_configure_and_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_true(conformance_game_make(&g, &gyp_game, "gyp(players=6)", err,
                                      sizeof err) < 0);
    assert_true(conformance_game_make(&g, &gyp_game, "gyp(players=2)", err,
                                      sizeof err) < 0);
    run_conformance("gyp");
    run_conformance("gyp(players=3,target=3)");
    run_conformance("gyp(players=5,target=2)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_example),
        cmocka_unit_test(test_starters_and_pass),
        cmocka_unit_test(test_worked_hand),
        cmocka_unit_test(test_game_end),
        cmocka_unit_test(test_tie_at_target),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_packs),
        cmocka_unit_test(test_configure_and_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
