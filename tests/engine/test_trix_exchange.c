/* test_trix_exchange.c — Trix Exchange rule facts from Read & White's Standard
 * Trix Cards (1904) and docs/games/trix_exchange.md, and its simultaneous
 * rounds through env and venv.
 *
 * Given a pack, seat 0 deals the first deal (without one the first dealer
 * is drawn); pack position i goes to seat
 * (1 + i) % players, all dealt. Commodities are the pack-order blocks of
 * eight: ids 0..7 Gold, 8..15 Zinc, 16..23 Iron, 24..31 Salt, ...
 * build_deck turns wanted counts per seat into such a deck. Every round
 * all seats act at once (game_apply_joint); a giving round with one giver
 * goes through game_apply.
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
#include "env/env.h"
#include "env/venv.h"

extern const struct game_def trix_exchange_game;

enum { GOLD, ZINC, IRON, SALT };

struct ttx {
    struct game g;
    unsigned char st[4096];
};

/* cnt[s][c]: cards of commodity c seat s must get; returns the deck. */
static int build_deck(int n, int cnt[][9], uint8_t *deck)
{
    int used[9] = {0}, left[8][9], ncards = 8 * (n + 1);
    memcpy(left, cnt, sizeof(int) * 9 * (size_t)n);
    for (int i = 0; i < ncards; i++) {
        int s = (1 + i) % n, c = 0;
        while (c < n + 1 && left[s][c] == 0)
            c++;
        assert_true(c < n + 1); /* the counts must fit the deal */
        left[s][c]--;
        deck[i] = (uint8_t)(8 * c + used[c]++);
    }
    return ncards;
}

static void start(struct ttx *t, const char *spec, int cnt[][9])
{
    char err[256];
    uint8_t deck[TRIX_CARDS];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &trix_exchange_game, spec,
                                           err, sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int k = cnt ? build_deck(t->g.dims.players, cnt, deck) : 0;
    assert_int_equal(game_init(&t->g, t->st, 7, deck, k), 0);
}

/* One round: names[s] for every acting seat (NULL for seats not acting). */
static void round_of(struct ttx *t, const char *const *names)
{
    char err[256];
    int actions[GAME_MAX_PLAYERS] = {0};
    uint32_t m = t->g.def->to_move(&t->g, t->st);
    for (int s = 0; s < t->g.dims.players; s++) {
        assert_int_equal((m >> s) & 1, names[s] != NULL);
        if (!names[s])
            continue;
        actions[s] =
            game_action_parse(&t->g, t->st, s, names[s], err, sizeof err);
        if (actions[s] < 0)
            fail_msg("seat %d %s: %s", s, names[s], err);
    }
    assert_int_equal(game_apply_joint(&t->g, t->st, actions), 0);
}

struct vq {
    msgpack_sbuffer sb;
    msgpack_unpacked u;
};

static msgpack_object *vq_get(struct ttx *t, struct vq *q, int seat,
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

static int view_int(struct ttx *t, int seat, const char *key, int idx)
{
    struct vq q;
    int v = (int)vq_get(t, &q, seat, key)->via.array.ptr[idx].via.i64;
    vq_done(&q);
    return v;
}

/* How many cards of commodity name seat's own view shows. */
static int holding(struct ttx *t, int seat, const char *name)
{
    struct vq q;
    msgpack_object *h = vq_get(t, &q, seat, "hand");
    int v = 0;
    for (uint32_t i = 0; i < h->via.map.size; i++) {
        msgpack_object_kv *kv = &h->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(name) &&
            !memcmp(kv->key.via.str.ptr, name, strlen(name)))
            v = (int)kv->val.via.i64;
    }
    vq_done(&q);
    return v;
}

/* The book's settlement, three players (Gold, Zinc, Iron, Salt):
 * seat 1 holds Zinc 7, Gold 3, Salt 1; seat 2 Iron 7, Zinc 1, Salt 3;
 * seat 0 Iron 1, Gold 5, Salt 4 (11, 11, 10 cards as dealt).
 * Round 1: seat 1 offers 1 Salt, seat 2 offers 1 Zinc: the only two
 * callers of one swap; seat 1 holds all eight Zinc — a corner, 15.
 * Zinc is set aside; seats 2 (11 cards) and 0 (10) give their excess to
 * seat 1: three and two cards, all Salt here. Seat 1 then holds 3 Gold +
 * 5 Salt. Then seat 0 trades one Iron for one of seat 2's Salt: seat 0
 * holds 5 Gold + 3 Salt and seat 2 all eight Iron, the second corner, 10.
 * Settlement: seat 1 -6 + 10 = +4 (19); seat 0 -10 + 6 = -4 from 0: nothing
 * left, bankrupt, so seat 2 scores 5 more (15). */
static void play_settlement(struct ttx *t, const char *spec)
{
    int cnt[3][9] = {{5, 0, 1, 4}, {3, 7, 0, 1}, {0, 1, 7, 3}};
    start(t, spec, cnt);
    const char *r1[3] = {"pass", "offer 1 Salt", "offer 1 Zinc"};
    round_of(t, r1);
    assert_int_equal(view_int(t, 0, "scores", 1), 15);
    assert_int_equal(holding(t, 1, "Zinc"), 0); /* set aside */
    const char *give2[3] = {"give Salt", NULL, "give Salt"};
    round_of(t, give2);
    round_of(t, give2);
    const char *give1[3] = {NULL, NULL, "give Salt"};
    round_of(t, give1); /* one giver: the turn-based path */
    for (int s = 0; s < 3; s++)
        assert_int_equal(view_int(t, 0, "hand_sizes", s), 8);
    assert_int_equal(holding(t, 1, "Gold"), 3);
    assert_int_equal(holding(t, 1, "Salt"), 5);
    const char *r2[3] = {"offer 1 Iron", "pass", "offer 1 Salt"};
    round_of(t, r2);
}

static void test_settlement_example(void **state)
{
    (void)state;
    struct ttx t;
    play_settlement(&t, "trix_exchange(players=3)");
    assert_int_equal(view_int(&t, 0, "scores", 1), 19);
    assert_int_equal(view_int(&t, 0, "scores", 0), 0);
    assert_int_equal(view_int(&t, 0, "scores", 2), 15);
    /* a new deal has started: dealer 1, all 32 cards dealt again */
    struct vq q;
    assert_int_equal(vq_get(&t, &q, 0, "dealer")->via.i64, 1);
    vq_done(&q);
}

/* An option of the book: bankruptcy needs a point to lose; seat 0 had none, so
 * the second cornerer scores only the Iron corner, 10. */
static void test_bankrupt_needs_points(void **state)
{
    (void)state;
    struct ttx t;
    play_settlement(&t, "trix_exchange(players=3,bankrupt_needs_points=true)");
    assert_int_equal(view_int(&t, 0, "scores", 1), 19);
    assert_int_equal(view_int(&t, 0, "scores", 0), 0);
    assert_int_equal(view_int(&t, 0, "scores", 2), 10);
}

/* Offers pair only with the same number called: a 2 and a 1 do not trade
 * by default; with change_number the pair trades the smaller number, one
 * card each way. An offer needs that many of the commodity. */
static void test_numbers_called(void **state)
{
    (void)state;
    int cnt[3][9] = {{2, 2, 2, 4}, {3, 3, 3, 2}, {3, 3, 3, 2}};
    const char *r[3] = {"pass", "offer 2 Gold", "offer 1 Zinc"};
    struct ttx t;
    char err[256];
    start(&t, "trix_exchange(players=3)", cnt);
    assert_true(game_action_parse(&t.g, t.st, 0, "offer 3 Gold", err,
                                  sizeof err) < 0); /* only two Gold */
    round_of(&t, r);
    assert_int_equal(holding(&t, 1, "Gold"), 3);
    assert_int_equal(view_int(&t, 1, "hand_sizes", 1), 11);
    start(&t, "trix_exchange(players=3,change_number=true)", cnt);
    round_of(&t, r);
    assert_int_equal(holding(&t, 1, "Gold"), 2);
    assert_int_equal(holding(&t, 1, "Zinc"), 4);
    assert_int_equal(holding(&t, 2, "Gold"), 4);
    assert_int_equal(holding(&t, 2, "Zinc"), 2);
    assert_int_equal(view_int(&t, 1, "hand_sizes", 1), 11);
}

/* Corner values Gold 15, Salt 5, and two corners in one round, taken in
 * seat order from the dealer's left. Seat 1 holds 7 Gold, 3 Iron,
 * 1 Salt; seat 2 1 Gold, 3 Iron, 7 Salt; seat 0 8 Zinc, 2 Iron — a Zinc
 * corner already dealt. Round 1: seat 1 swaps its Salt for seat 2's Gold.
 * Checking from seat 1: seat 1 corners Gold (15), seat 2 then holds 8
 * Salt, the second corner (5), which settles at once: seat 0's Zinc is
 * never reached. Settlement: seat 1 3 Iron +3 → 18; seat 0 8 Zinc -16,
 * 2 Iron +2 → -14 from 0: 0 and bankrupt, +5 to seat 2; seat 2 3 Iron
 * +3 → 5 + 3 + 5 = 13. */
static void test_corner_order_and_values(void **state)
{
    (void)state;
    int cnt[3][9] = {{0, 8, 2, 0}, {7, 0, 3, 1}, {1, 0, 3, 7}};
    struct ttx t;
    start(&t, "trix_exchange(players=3)", cnt);
    const char *r1[3] = {"pass", "offer 1 Salt", "offer 1 Gold"};
    round_of(&t, r1);
    assert_int_equal(view_int(&t, 0, "scores", 1), 18);
    assert_int_equal(view_int(&t, 0, "scores", 2), 13);
    assert_int_equal(view_int(&t, 0, "scores", 0), 0);
}

/* No second corner within max_rounds → the deal is void and the
 * next dealer deals. */
static void test_round_cap(void **state)
{
    (void)state;
    struct ttx t;
    int cnt[3][9] = {{2, 2, 2, 4}, {3, 3, 3, 2}, {3, 3, 3, 2}};
    start(&t, "trix_exchange(players=3,max_rounds=2)", cnt);
    const char *pass[3] = {"pass", "pass", "pass"};
    round_of(&t, pass);
    round_of(&t, pass);
    struct vq q;
    assert_int_equal(vq_get(&t, &q, 0, "dealer")->via.i64, 1);
    vq_done(&q);
    for (int s = 0; s < 3; s++)
        assert_int_equal(view_int(&t, 0, "scores", s), 0);
}

/* The least and greatest number of commodity name that seat h holds over
 * many determinizations of t for seat; each keeps h's hand size. */
static void det_range(struct ttx *t, int seat, int h, const char *name,
                      int *lo, int *hi)
{
    struct rng r;
    rng_seed(&r, 99);
    int size = view_int(t, 0, "hand_sizes", h);
    *lo = 99;
    *hi = -1;
    for (int i = 0; i < 1000; i++) {
        struct ttx d = *t;
        t->g.def->determinize(&d.g, d.st, seat, &r);
        assert_int_equal(view_int(&d, 0, "hand_sizes", h), size);
        int k = holding(&d, h, name);
        *lo = k < *lo ? k : *lo;
        *hi = k > *hi ? k : *hi;
    }
}

/* What a seat learns in its own swaps (who swapped with whom and how
 * many is public, the commodities are not). Three players: seat 0 holds
 * Gold 2, Zinc 2, Iron 2, Salt 4; seats 1 and 2 Gold 3, Zinc 3, Iron 3,
 * Salt 2 each.
 * Round 1: seat 0 offers 2 Salt, seat 1 2 Gold, seat 2 passes: seats 0
 * and 1 swap two. Seat 0 handed seat 1 two Salt, so in every world seat 0
 * can imagine seat 1 holds at least 2 Salt (it holds 4: its 2 and
 * seat 0's), and at most the 6 Salt seat 0 does not hold; seat 1
 * likewise knows seat 0 holds at least 2 Gold. Seat 2 saw only the swap
 * and may imagine seat 1 with fewer than 2 Salt (seats 0 and 1 hold 6
 * Salt in 21 cards: about one world in twenty).
 * Round 2: seat 1 offers 1 Zinc, seat 2 1 Iron: they swap one. Seat 0
 * cannot tell which commodity seat 1 gave, perhaps a Salt, so it now
 * knows only one Salt in seat 1, and one is possible. Seat 1 knows it
 * gave Zinc, so its knowledge of seat 0 is untouched and seat 2 now holds
 * at least one Zinc. */
static void test_determinize_keeps_own_swaps(void **state)
{
    (void)state;
    int cnt[3][9] = {{2, 2, 2, 4}, {3, 3, 3, 2}, {3, 3, 3, 2}};
    struct ttx t;
    int lo, hi;
    start(&t, "trix_exchange(players=3)", cnt);
    const char *r1[3] = {"offer 2 Salt", "offer 2 Gold", "pass"};
    round_of(&t, r1);
    assert_int_equal(holding(&t, 1, "Salt"), 4);
    det_range(&t, 0, 1, "Salt", &lo, &hi);
    assert_int_equal(lo, 2);
    assert_int_equal(hi, 6); /* all six Salt seat 0 does not hold */
    det_range(&t, 1, 0, "Gold", &lo, &hi);
    assert_int_equal(lo, 2);
    det_range(&t, 2, 1, "Salt", &lo, &hi);
    assert_true(lo < 2);
    const char *r2[3] = {"pass", "offer 1 Zinc", "offer 1 Iron"};
    round_of(&t, r2);
    det_range(&t, 0, 1, "Salt", &lo, &hi);
    assert_int_equal(lo, 1);
    det_range(&t, 1, 0, "Gold", &lo, &hi);
    assert_int_equal(lo, 2);
    det_range(&t, 1, 2, "Zinc", &lo, &hi);
    assert_true(lo >= 1);
}

/* Cards given to the cornerer (the giver chooses, hidden from the
 * others) stay with him in the giver's determinizations. In the book's
 * settlement deal (play_settlement) seat 0 gives seat 1 two Salt and
 * seat 2 three, after seat 1's Zinc corner; seat 1 then holds 3 Gold and
 * 5 Salt. */
static void test_determinize_keeps_given(void **state)
{
    (void)state;
    int cnt[3][9] = {{5, 0, 1, 4}, {3, 7, 0, 1}, {0, 1, 7, 3}};
    struct ttx t;
    int lo, hi;
    start(&t, "trix_exchange(players=3)", cnt);
    const char *r1[3] = {"pass", "offer 1 Salt", "offer 1 Zinc"};
    round_of(&t, r1);
    const char *give2[3] = {"give Salt", NULL, "give Salt"};
    round_of(&t, give2);
    round_of(&t, give2);
    const char *give1[3] = {NULL, NULL, "give Salt"};
    round_of(&t, give1);
    det_range(&t, 0, 1, "Salt", &lo, &hi);
    assert_int_equal(lo, 2);
    det_range(&t, 2, 1, "Salt", &lo, &hi);
    assert_int_equal(lo, 3);
}

/* A uniformly random legal action in a legal mask row. */
static int pick(const uint64_t *mask, int words, struct rng *r)
{
    int ids[64 * 4], k = 0;
    for (int w = 0; w < words; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1)
            ids[k++] = 64 * w + __builtin_ctzll(m);
    assert_true(k > 0);
    return ids[rng_below(r, (uint32_t)k)];
}

/* The environment API in multi-agent mode: every acting seat gives an
 * action to env_step_joint; rewards summed over the episode equal the
 * final returns. */
static void test_env_joint(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    struct rng r;
    rng_seed(&r, 3);
    assert_int_equal(
        conformance_game_make(&g, &trix_exchange_game,
                              "trix_exchange(players=4,target=20,max_deals=3,"
                              "max_rounds=40)",
                              err, sizeof err),
        0);
    env_t *e = env_new_game(&g, NULL, err, sizeof err);
    assert_non_null(e);
    const struct env_shape *sh = env_shape(e);
    assert_true(sh->joint);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct env_timestep ts;
        double sum[4] = {0};
        assert_int_equal(env_reset(e, seed, &ts), 0);
        while (!ts.terminated) {
            int actions[4] = {0};
            for (int s = 0; s < 4; s++)
                if ((ts.to_move >> s) & 1)
                    actions[s] = pick(ts.legal_all + s * sh->mask_words,
                                      sh->mask_words, &r);
            assert_int_equal(env_step_joint(e, actions, &ts), 0);
            for (int s = 0; s < 4; s++)
                sum[s] += ts.reward[s];
        }
        for (int s = 0; s < 4; s++)
            assert_true(sum[s] - ts.returns[s] < 1e-9 &&
                        ts.returns[s] - sum[s] < 1e-9);
    }
    env_destroy(&e);
}

/* The vector env: one row per seat, n x players actions per step. */
static void test_venv_joint(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    struct rng r;
    int ended = 0;
    rng_seed(&r, 5);
    assert_int_equal(
        conformance_game_make(&g, &trix_exchange_game,
                              "trix_exchange(players=3,target=10,max_deals=2,"
                              "max_rounds=20)",
                              err, sizeof err),
        0);
    venv_t *v = venv_new_game(&g, NULL, 3, err, sizeof err);
    assert_non_null(v);
    const struct venv_batch *b = venv_batch(v);
    assert_int_equal(b->rows, 3);
    assert_int_equal(venv_reset(v, 11), 0);
    for (int step = 0; step < 400; step++) {
        int actions[9] = {0};
        for (int i = 0; i < 3; i++)
            for (int s = 0; s < 3; s++)
                if ((b->to_move[i] >> s) & 1)
                    actions[i * 3 + s] =
                        pick(b->legal + (size_t)(i * 3 + s) * b->mask_words,
                             b->mask_words, &r);
        assert_int_equal(venv_step(v, actions), 0);
        for (int i = 0; i < 3; i++)
            ended += b->terminated[i];
    }
    assert_true(ended > 0);
    venv_destroy(&v);
}

static void run_conformance(const char *spec)
{
    char err[1024];
    struct game g;
    struct conformance_report rep = {0};
    assert_int_equal(
        conformance_game_make(&g, &trix_exchange_game, spec, err, sizeof err),
        0);
    int rc = conformance_run(&g, 20, 13, &rep, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", spec, err);
}

static void test_configure_and_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(conformance_game_make(&g, &trix_exchange_game,
                                           "trix_exchange(players=5,sides="
                                           "true)",
                                           err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "sides"));
    run_conformance("trix_exchange(target=20,max_rounds=30)");
    run_conformance("trix_exchange(players=6,sides=true,target=20,"
                    "change_number=true,max_rounds=30)");
    run_conformance("trix_exchange(players=3,target=10,max_rounds=30)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settlement_example),
        cmocka_unit_test(test_bankrupt_needs_points),
        cmocka_unit_test(test_numbers_called),
        cmocka_unit_test(test_corner_order_and_values),
        cmocka_unit_test(test_round_cap),
        cmocka_unit_test(test_determinize_keeps_own_swaps),
        cmocka_unit_test(test_determinize_keeps_given),
        cmocka_unit_test(test_env_joint),
        cmocka_unit_test(test_venv_joint),
        cmocka_unit_test(test_configure_and_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
