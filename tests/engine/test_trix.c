/* test_trix.c — Trix rule facts from Read & White's Standard Trix Cards (1904)
 * and docs/games/trix.md.
 *
 * Given a pack, seat 0 deals the first deal (without one the first dealer
 * is drawn, and tests read the seat to act); pack position i goes to seat
 * (1 + i) % players for the first 4 * players cards, then the stock is
 * drawn in play order (each player right after playing). So with four
 * players the prefix "a1 a2 a3 a0 b1 b2 b3 b0 ..." gives seat 1 a1 b1 ...
 * and the 17th card is what seat 1 draws after leading. Results are read
 * through the view (deal_points, scores, team_scores) and returns, and
 * compared with the book's worked sets. Games are made with
 * conformance_game_make so these tests do not need the registry; the last
 * test runs the conformance suite on a few option sets.
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

extern const struct game_def trix_game;

struct ttx {
    struct game g;
    unsigned char st[2048];
};

static void start(struct ttx *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[TRIX_CARDS];
    memset(t, 0, sizeof *t);
    assert_int_equal(
        conformance_game_make(&t->g, &trix_game, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n =
        deck ? game_deck_parse(&t->g, deck, cards, TRIX_CARDS, err, sizeof err)
             : 0;
    assert_true(n >= 0);
    assert_int_equal(game_init(&t->g, t->st, 9, cards, n), 0);
}

/* Plays the space-separated cards in turn order, whoever is to act. */
static void plays(struct ttx *t, const char *cards)
{
    char buf[256], name[32], err[256];
    snprintf(buf, sizeof buf, "%s", cards);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        int seat = game_current_seat(&t->g, t->st);
        snprintf(name, sizeof name, "play %s", w);
        int id = game_action_parse(&t->g, t->st, seat, name, err, sizeof err);
        if (id < 0)
            fail_msg("%s: %s", name, err);
        assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
    }
}

/* Finds key in seat's view and calls back with it (the view is freed
 * after). Returns the int at idx of an int array, or for "hand" the sum
 * of the Trix points of the cards. */
static int view_query(struct ttx *t, int seat, const char *key, int idx)
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
        msgpack_object_array *a = &kv->val.via.array;
        if (strcmp(key, "hand"))
            v = (int)a->ptr[idx].via.i64;
        for (uint32_t j = 0; !strcmp(key, "hand") && j < a->size; j++) {
            char name[16];
            const char *end;
            snprintf(name, sizeof name, "%.*s", (int)a->ptr[j].via.str.size,
                     a->ptr[j].via.str.ptr);
            v = (j ? v : 0) + trix_points(trix_card_parse(name, &end));
        }
        if (!strcmp(key, "hand") && a->size == 0)
            v = 0;
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return v;
}

static double ret(struct ttx *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

/* The book's play example, sides seated alternately: 3-2 (seat 1), 6-2
 * (seat 2), 7-3 (seat 3, partner of 1), 10-5 (seat 0, partner of 2):
 * 10-5 has the highest sum and takes 5 + 10 + 15 = 30 for seats 0 and 2.
 * Seat 1 drew the 17th card, Trixie, right after leading. */
static void test_play_example_sides(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix(players=4,sides=true)",
          "3-2 6-2 7-3 10-5 0-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 4-0 4-1 4-2 "
          "4-3 Trixie");
    plays(&t, "3-2");
    assert_int_equal(view_query(&t, 1, "hand", 0), 40); /* Trixie only */
    plays(&t, "6-2 7-3 10-5");
    assert_int_equal(view_query(&t, 0, "deal_points", 0), 30);
    assert_int_equal(view_query(&t, 0, "team_scores", 0), 30);
    assert_int_equal(view_query(&t, 0, "team_scores", 1), 0);
    assert_int_equal(game_current_seat(&t.g, t.st), 0); /* winner leads */
}

/* Like sums: 7-2 and 6-3 both 9, the first played takes the set (seat 1)
 * with the 5 of the 3-2. */
static void test_like_sums(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix", "7-2 6-3 3-2 5-2");
    plays(&t, "7-2 6-3 3-2 5-2");
    assert_int_equal(view_query(&t, 0, "deal_points", 1), 5);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
}

/* Prize cards: 7-2, 6-3, 10-9, 0-0 → 0-0 (seat 0) though 19 is higher;
 * no Trix card, so no points. */
static void test_prize_card(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix", "7-2 6-3 10-9 0-0");
    plays(&t, "7-2 6-3 10-9 0-0");
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    assert_int_equal(view_query(&t, 0, "deal_points", 0), 0);
}

/* Prize Trix: 5-5, 10-8, 9-9, 6-3 → 5-5 (seat 1) over the Prize 9-9, and
 * it scores its own 10. */
static void test_prize_trix(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix", "5-5 10-8 9-9 6-3");
    plays(&t, "5-5 10-8 9-9 6-3");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    assert_int_equal(view_query(&t, 0, "deal_points", 1), 10);
}

/* Trixie takes precedence over everything and is worth 40: 10-5, Trixie,
 * 15-15, 10-10 → seat 2 scores 15 + 40 + 30 + 20 = 105. */
static void test_trixie(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix", "10-5 Trixie 15-15 10-10");
    plays(&t, "10-5 Trixie 15-15 10-10");
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    assert_int_equal(view_query(&t, 0, "deal_points", 2), 105);
    assert_int_equal(view_query(&t, 0, "scores", 2), 105);
}

/* Leftover cards with five players: 14 sets use 70 cards and two are left in
 * hand; they go to the winner of the last set. The whole deal scores 300.
 * Play: always the lowest card id held. */
static void test_five_leftovers(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix(players=5,target=1,max_deals=1)", NULL);
    int ids[8], played[72], seats[72];
    for (int k = 0; k < 69; k++) {
        int seat = game_current_seat(&t.g, t.st);
        t.g.def->legal(&t.g, t.st, seat, ids);
        played[k] = ids[0];
        seats[k] = seat;
        assert_int_equal(game_apply(&t.g, t.st, seat, ids[0]), 0);
    }
    /* Before the 70th card: 3 cards in hand, the stock empty. */
    int seat = game_current_seat(&t.g, t.st), held = 0, hand_pts = 0;
    for (int s = 0; s < 5; s++) {
        held += view_query(&t, s, "hand_sizes", s);
        hand_pts += view_query(&t, s, "hand", 0);
    }
    assert_int_equal(held, 3);
    t.g.def->legal(&t.g, t.st, seat, ids);
    played[69] = ids[0];
    seats[69] = seat;
    int leftover = hand_pts - trix_points(ids[0]);
    uint8_t set[5];
    int set_pts = 0;
    for (int i = 0; i < 5; i++) {
        set[i] = (uint8_t)played[65 + i];
        set_pts += trix_points(played[65 + i]);
    }
    int w = seats[65 + trix_set_winner(set, 5)];
    int before = view_query(&t, 0, "deal_points", w);
    assert_int_equal(game_apply(&t.g, t.st, seat, ids[0]), 0);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_query(&t, 0, "deal_points", w),
                     before + set_pts + leftover);
    int total = 0;
    for (int s = 0; s < 5; s++)
        total += view_query(&t, 0, "deal_points", s);
    assert_int_equal(total, 300);
}

/* Game: with target 1 the first deal decides; the higher score wins and
 * the others share -1 (zero-sum). */
static void test_game_end(void **state)
{
    (void)state;
    struct ttx t;
    start(&t, "trix(players=3,target=1,max_deals=1)", NULL);
    int ids[8];
    while (!game_is_terminal(&t.g, t.st)) {
        int seat = game_current_seat(&t.g, t.st);
        int n = t.g.def->legal(&t.g, t.st, seat, ids);
        assert_true(n >= 1 && n <= 4);
        assert_int_equal(game_apply(&t.g, t.st, seat, ids[n - 1]), 0);
    }
    int sc[3], best = 0;
    for (int s = 0; s < 3; s++) {
        sc[s] = view_query(&t, 0, "scores", s);
        best = sc[s] > sc[best] ? s : best;
    }
    assert_int_equal(sc[0] + sc[1] + sc[2], 300);
    int tops = 0;
    for (int s = 0; s < 3; s++)
        tops += sc[s] == sc[best];
    for (int s = 0; s < 3; s++) /* a tie for the top at the cap: drawn */
        assert_true(ret(&t, s) == (tops > 1 ? 0 : s == best ? 1.0 : -0.5));
}

/* Determinizing for seat 0 after the first set keeps seat 0's hand and
 * every hand size, and really resamples: seat 1's drawn Trixie (hidden
 * from seat 0) is not pinned to seat 1. */
static void test_determinize(void **state)
{
    (void)state;
    struct ttx t, d;
    struct rng r;
    rng_seed(&r, 5);
    start(&t, "trix(players=4)",
          "3-2 6-2 7-3 10-5 0-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 4-0 4-1 4-2 "
          "4-3 Trixie");
    plays(&t, "3-2 6-2 7-3 10-5");
    int own = view_query(&t, 0, "hand", 0);
    int changed = 0;
    for (int k = 0; k < 40; k++) {
        d = t;
        t.g.def->determinize(&d.g, d.st, 0, &r);
        assert_int_equal(view_query(&d, 0, "hand", 0), own);
        for (int s = 1; s < 4; s++)
            assert_int_equal(view_query(&d, s, "hand_sizes", s), 4);
        changed += view_query(&d, 1, "hand", 0) != 40;
    }
    assert_true(changed > 0); /* seat 1's Trixie is not pinned there */
}

static void run_conformance(const char *spec)
{
    char err[1024];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(
        conformance_game_make(&g, &trix_game, spec, err, sizeof err), 0);
    int rc = conformance_run(&g, 60, 13, &r, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
}

/* Sides need 4, 6 or 8 players; then the conformance suite. */
static void test_configure_and_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(conformance_game_make(&g, &trix_game,
                                           "trix(players=5,sides=true)", err,
                                           sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "sides"));
    run_conformance("trix(target=200)");
    run_conformance("trix(players=6,sides=true,target=200)");
    run_conformance("trix(players=7,target=100)");
    run_conformance("trix(players=2,target=300)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_example_sides),
        cmocka_unit_test(test_like_sums),
        cmocka_unit_test(test_prize_card),
        cmocka_unit_test(test_prize_trix),
        cmocka_unit_test(test_trixie),
        cmocka_unit_test(test_five_leftovers),
        cmocka_unit_test(test_game_end),
        cmocka_unit_test(test_determinize),
        cmocka_unit_test(test_configure_and_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
