/* test_rover.c — Rover rule facts from Read & White's Standard Trix Cards
 * (1904) and docs/games/rover.md.
 *
 * Given a pack, seat 0 deals the first round (without one the first
 * dealer is drawn and read from the view); pack position i goes to seat
 * (1 + i) % players, all cards dealt. Decks are built here from the hand
 * each seat should hold (build_deck interleaves them in dealing order).
 * Card ids follow trix_pack.h, so ids 1, 2, 3, ... are 1-0, 1-1, 2-0 ...,
 * the building order; id 0 is Rover (0-0); with three or four players the
 * pack ends at 7-7 = id 35. Results are read through the view and returns.
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

extern const struct game_def rover_game;

struct trv {
    struct game g;
    unsigned char st[8192];
};

/* holder[c] is the seat that must get card c (ids 0..ncards-1); returns
 * the deck in dealing order (position i to seat (1 + i) % n). */
static int build_deck(const int *holder, int ncards, int n, uint8_t *deck)
{
    int next[8] = {0};
    for (int i = 0; i < ncards; i++) {
        int s = (1 + i) % n, c = next[s];
        while (c < ncards && holder[c] != s)
            c++;
        assert_true(c < ncards); /* the seat must hold enough cards */
        deck[i] = (uint8_t)c;
        next[s] = c + 1;
    }
    return ncards;
}

static void start(struct trv *t, const char *spec, const int *holder,
                  int ncards, uint64_t seed)
{
    char err[256];
    uint8_t deck[TRIX_CARDS];
    memset(t, 0, sizeof *t);
    assert_int_equal(
        conformance_game_make(&t->g, &rover_game, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n = holder ? build_deck(holder, ncards, t->g.dims.players, deck) : 0;
    assert_int_equal(game_init(&t->g, t->st, seed, deck, n), 0);
}

static void act(struct trv *t, const char *name)
{
    char err[256];
    int seat = game_current_seat(&t->g, t->st);
    assert_true(seat >= 0);
    int id = game_action_parse(&t->g, t->st, seat, name, err, sizeof err);
    if (id < 0)
        fail_msg("%s: %s", name, err);
    assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
}

/* Plays cards first..last (ids) in order, whoever is to act. */
static void play_run(struct trv *t, int first, int last)
{
    char card[TRIX_NAME_MAX], name[32];
    for (int c = first; c <= last; c++) {
        trix_card_name(c, card, sizeof card);
        snprintf(name, sizeof name, "play %s", card);
        act(t, name);
    }
}

struct vq {
    msgpack_sbuffer sb;
    msgpack_unpacked u;
};

/* seat's view value under key (valid until vq_done). */
static msgpack_object *vq_get(struct trv *t, struct vq *q, int seat,
                              const char *key)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(&q->sb);
    msgpack_unpacked_init(&q->u);
    msgpack_packer_init(&pk, &q->sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&q->u, q->sb.data, q->sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object *m = &q->u.data;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            return &kv->val;
    }
    fail_msg("no key %s", key);
    return NULL;
}

static void vq_done(struct vq *q)
{
    msgpack_unpacked_destroy(&q->u);
    msgpack_sbuffer_destroy(&q->sb);
}

/* The int at idx of the array under key in seat's view. */
static int view_int(struct trv *t, int seat, const char *key, int idx)
{
    struct vq q;
    int v = (int)vq_get(t, &q, seat, key)->via.array.ptr[idx].via.i64;
    vq_done(&q);
    return v;
}

/* The last history entry's name as seat sees it, into buf. */
static void last_history(struct trv *t, int seat, char *buf, size_t len)
{
    struct vq q;
    msgpack_object *h = vq_get(t, &q, seat, "history");
    msgpack_object *e = &h->via.array.ptr[h->via.array.size - 1];
    msgpack_object *s = &e->via.array.ptr[1];
    snprintf(buf, len, "%.*s", (int)s->via.str.size, s->via.str.ptr);
    vq_done(&q);
}

/* The names of the cards seat's view says are known in holder's hand,
 * space separated. */
static void known_in(struct trv *t, int seat, int holder, char *buf, size_t len)
{
    struct vq q;
    msgpack_object *a = &vq_get(t, &q, seat, "known")->via.array.ptr[holder];
    size_t k = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < a->via.array.size && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%.*s", i ? " " : "",
                              (int)a->via.array.ptr[i].via.str.size,
                              a->via.array.ptr[i].via.str.ptr);
    vq_done(&q);
}

/* Three players, no draws needed: seat 1 holds 1-0 .. 4-2 (ids 1..12),
 * seat 2 holds 4-3 .. 6-3 (ids 13..24), seat 0 holds 6-4 .. 7-7 (ids
 * 25..35) and Rover. The holder of 1-0 leads (seat 1) and plays on while
 * he can: 1-1, 2-2, 3-3 complete three suits → 3 points, then his hand is
 * empty and he is out; the turn passes left to seat 2 (4-4, 5-5 → 2),
 * then seat 0 (6-6, 7-7 → 2) ends the round and keeps Rover: 2 + 3 = 5.
 * With target 1 the game ends: seat 0 wins (+1), the others -1/2 each. */
static void test_round_without_draws(void **state)
{
    (void)state;
    int holder[36];
    struct trv t;
    for (int c = 0; c < 36; c++)
        holder[c] = c == 0 ? 0 : c <= 12 ? 1 : c <= 24 ? 2 : 0;
    start(&t, "rover(players=3,target=1)", holder, 36, 5);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    play_run(&t, 1, 12);
    assert_int_equal(view_int(&t, 0, "scores", 1), 3);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 1), 0);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    play_run(&t, 13, 24);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    play_run(&t, 25, 35);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int(&t, 0, "scores", 0), 5);
    assert_int_equal(view_int(&t, 0, "scores", 1), 3);
    assert_int_equal(view_int(&t, 0, "scores", 2), 2);
    double r[GAME_MAX_PLAYERS];
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == 1.0 && r[1] == -0.5 && r[2] == -0.5);
}

/* A forced miss: seat 1 holds 1-0 .. 4-1 (ids 1..11) and 7-2 (id 30);
 * 4-2 (id 12) is with seat 2. After 4-1 seat 1 holds only 7-2 and must
 * draw from his right, seat 0, who cannot have 4-2: the draw misses and
 * the turn passes left to seat 2, who plays 4-2. The drawn card is named
 * to seat 1 and seat 0 only; seat 0 knows it is now in seat 1's hand,
 * seat 2 does not. */
static void test_draw_from_right_misses(void **state)
{
    (void)state;
    int holder[36];
    struct trv t;
    char h1[64], h0[64], h2[64], k0[64], k2[64];
    for (int c = 0; c < 36; c++)
        holder[c] = c >= 1 && c <= 11 ? 1 : c == 30 ? 1 : c == 12 ? 2 : 0;
    /* seat 0 then has ids 0, 13..29, 31..35 minus what seat 2 needs:
     * give seat 2 ids 12 and 13..23 (12 cards), seat 0 the rest (12). */
    for (int c = 13; c <= 23; c++)
        holder[c] = 2;
    start(&t, "rover(players=3)", holder, 36, 11);
    play_run(&t, 1, 11);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    act(&t, "draw");
    assert_int_equal(view_int(&t, 0, "hand_sizes", 0), 11);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 1), 2);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    last_history(&t, 1, h1, sizeof h1);
    last_history(&t, 0, h0, sizeof h0);
    last_history(&t, 2, h2, sizeof h2);
    assert_string_equal(h1, h0);
    assert_non_null(strstr(h1, " from 0"));
    assert_string_equal(h2, "draw from 0");
    assert_true(strcmp(h1, "draw from 0") != 0); /* the card is named */
    known_in(&t, 0, 1, k0, sizeof k0);
    known_in(&t, 2, 1, k2, sizeof k2);
    assert_true(strlen(k0) > 0 && strstr(h1, k0) != NULL);
    assert_string_equal(k2, "");
    act(&t, "play 4-2");
}

/* Empty hands are out: seat 1 holds ids 1..12 and goes out; seat 2
 * (ids 14..24, Rover) wants 4-3, which seat 0 holds. Seat 2's right
 * neighbour, seat 1, is empty, so the draw comes from seat 0. On a hit
 * seat 2 keeps the turn and must play 4-3; on a miss the turn passes
 * left to seat 0, who holds 4-3 and plays it. Over many seeds both
 * happen (4-3 is one of seat 0's twelve cards). */
static void test_draw_skips_empty_hands(void **state)
{
    (void)state;
    int holder[36], hits = 0, misses = 0;
    for (int c = 0; c < 36; c++)
        holder[c] = c >= 1 && c <= 12                  ? 1
                    : (c == 0 || (c >= 14 && c <= 24)) ? 2
                                                       : 0;
    for (uint64_t seed = 1; seed <= 120; seed++) {
        struct trv t;
        start(&t, "rover(players=3)", holder, 36, seed);
        play_run(&t, 1, 12);
        assert_int_equal(game_current_seat(&t.g, t.st), 2);
        act(&t, "draw");
        assert_int_equal(view_int(&t, 2, "hand_sizes", 1), 0);
        assert_int_equal(view_int(&t, 2, "hand_sizes", 0), 11);
        assert_int_equal(view_int(&t, 2, "hand_sizes", 2), 13);
        int seat = game_current_seat(&t.g, t.st);
        assert_true(seat == 2 || seat == 0);
        hits += seat == 2;
        misses += seat == 0;
        act(&t, "play 4-3"); /* whoever holds it now must play it */
    }
    assert_true(hits > 0 && misses > 0);
}

/* Five or more players use 0-0 .. 10-10 (66 cards): the dealer's left
 * gets the 1st, 6th, ... 66th card (14), the others 13 each. Without a
 * deck the first dealer is drawn, so it is read from the view. */
static void test_five_players_pack(void **state)
{
    (void)state;
    struct trv t;
    struct vq q;
    start(&t, "rover(players=5)", NULL, 0, 3);
    int d = (int)vq_get(&t, &q, 0, "dealer")->via.i64;
    vq_done(&q);
    assert_true(d >= 0 && d < 5);
    for (int s = 0; s < 5; s++)
        assert_int_equal(view_int(&t, 0, "hand_sizes", s),
                         s == (d + 1) % 5 ? 14 : 13);
}

/* Whole random one-round games: a round that ends normally scores the
 * seven suits 1-x .. 7-x plus Rover's 3 (10 in all, three players); one
 * ended by the draw cap scores only the suits done, no Rover. */
static void test_round_totals_and_cap(void **state)
{
    (void)state;
    int capped = 0, full = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        struct trv t;
        start(&t, "rover(players=3,max_deals=1,max_draws=40)", NULL, 0, seed);
        int a[1];
        while (!game_is_terminal(&t.g, t.st)) {
            int seat = game_current_seat(&t.g, t.st);
            assert_int_equal(t.g.def->legal(&t.g, t.st, seat, a), 1);
            assert_int_equal(game_apply(&t.g, t.st, seat, a[0]), 0);
        }
        int sum = 0, draws = 0;
        for (int s = 0; s < 3; s++)
            sum += view_int(&t, 0, "scores", s);
        struct vq q;
        draws = (int)vq_get(&t, &q, 0, "draws")->via.i64;
        vq_done(&q);
        if (draws >= 40) {
            capped++;
            assert_true(sum < 7);
        } else {
            full++;
            assert_int_equal(sum, 10);
        }
    }
    assert_true(capped > 0 && full > 0);
}

static void run_conformance(const char *spec)
{
    char err[1024];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(
        conformance_game_make(&g, &rover_game, spec, err, sizeof err), 0);
    int rc = conformance_run(&g, 30, 13, &r, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
}

/* Sides need 4, 6 or 8 players; then the conformance suite. */
static void test_configure_and_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(conformance_game_make(&g, &rover_game,
                                           "rover(players=5,sides=true)", err,
                                           sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "sides"));
    run_conformance("rover(target=5)");
    run_conformance("rover(players=6,sides=true,target=5)");
    run_conformance("rover(players=3,target=3,max_draws=30)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_without_draws),
        cmocka_unit_test(test_draw_from_right_misses),
        cmocka_unit_test(test_draw_skips_empty_hands),
        cmocka_unit_test(test_five_players_pack),
        cmocka_unit_test(test_round_totals_and_cap),
        cmocka_unit_test(test_configure_and_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
