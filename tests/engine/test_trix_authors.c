/* test_trix_authors.c — Trix Authors rule facts from Read & White's Standard
 * Trix Cards (1904) and docs/games/trix_authors.md, with its commodities (card
 * id / 8: Gold = ids 0..7, Zinc 8..15, ..., Alum 64..71).
 *
 * Given a pack, seat 0 deals (without one the dealer is drawn); pack
 * position i goes to seat (1 + i) % players for the
 * first 6 * players cards, and the pack is drawn from the next card on.
 * Decks are built here as commodities (deal_deck) and turned into distinct
 * card ids. Results are read through the views and returns. Games are made
 * with conformance_game_make so these tests do not need the registry; the
 * last test runs the conformance suite.
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

extern const struct game_def trix_authors_game;

enum { GOLD, ZINC, IRON, SALT, LIME, COAL, LEAD, MICA, ALUM };

struct ta {
    struct game g;
    unsigned char st[4096];
};

/* Three players. Deal, seat 1 first: seat 1 Gold x6; seat 2 Gold x2 and
 * Zinc x4; seat 0 Zinc x4 and Iron x2. Pack: Iron x6, then eight each of
 * Salt, Lime, Coal, Lead, Mica, Alum. */
/* Turns a list of commodities into distinct card ids. */
static void to_cards(const int *seq, int n, uint8_t *deck)
{
    int used[9] = {0};
    for (int i = 0; i < n; i++)
        deck[i] = (uint8_t)(seq[i] * 8 + used[seq[i]]++);
}

static int deck_a(uint8_t *deck)
{
    int n = 0;
    int seq[72];
    for (int r = 0; r < 6; r++) {
        seq[n++] = GOLD;
        seq[n++] = r < 2 ? GOLD : ZINC;
        seq[n++] = r < 4 ? ZINC : IRON;
    }
    for (int i = 0; i < 6; i++)
        seq[n++] = IRON;
    for (int c = SALT; c <= ALUM; c++)
        for (int i = 0; i < 8; i++)
            seq[n++] = c;
    to_cards(seq, n, deck);
    return n;
}

/* Three players. Deal, seat 1 first: seat 1 Gold, Iron, Salt, Lime, Zinc,
 * Alum; seat 2 Gold x6; seat 0 Alum x6. Pack: Gold, Iron x7, Salt x7,
 * Lime x7, Alum, Zinc x7, Coal x8, Lead x8, Mica x8. */
static int deck_tie(uint8_t *deck)
{
    const int mine[6] = {GOLD, IRON, SALT, LIME, ZINC, ALUM};
    const int tail[9][2] = {{GOLD, 1}, {IRON, 7}, {SALT, 7},
                            {LIME, 7}, {ALUM, 1}, {ZINC, 7},
                            {COAL, 8}, {LEAD, 8}, {MICA, 8}};
    int seq[72], n = 0;
    for (int r = 0; r < 6; r++) {
        seq[n++] = mine[r];
        seq[n++] = GOLD;
        seq[n++] = ALUM;
    }
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < tail[i][1]; k++)
            seq[n++] = tail[i][0];
    to_cards(seq, n, deck);
    return n;
}

static void start_deck(struct ta *t, const char *spec,
                       int (*build)(uint8_t *))
{
    char err[256];
    uint8_t deck[TRIX_CARDS];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &trix_authors_game, spec,
                                           err, sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n = build(deck);
    assert_int_equal(n, 72);
    assert_int_equal(game_init(&t->g, t->st, 3, deck, n), 0);
}

static void start(struct ta *t, const char *spec)
{
    start_deck(t, spec, deck_a);
}

static void ask(struct ta *t, const char *name, int times)
{
    char err[256];
    for (int i = 0; i < times; i++) {
        int seat = game_current_seat(&t->g, t->st);
        int id = game_action_parse(&t->g, t->st, seat, name, err, sizeof err);
        if (id < 0)
            fail_msg("%s: %s", name, err);
        assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
    }
}

/* A seat's unpacked view; its strings point into sb, so both live
 * until view_done. */
struct vw {
    msgpack_sbuffer sb;
    msgpack_unpacked u;
};

/* Unpacks seat's view into w (release with view_done) and returns the
 * value of key. */
static msgpack_object *view_get(struct ta *t, int seat, const char *key,
                                struct vw *w)
{
    msgpack_packer pk;
    msgpack_object *v = NULL;
    msgpack_sbuffer_init(&w->sb);
    msgpack_unpacked_init(&w->u);
    msgpack_packer_init(&pk, &w->sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&w->u, w->sb.data, w->sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object *m = &w->u.data;
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            v = &kv->val;
    }
    assert_non_null(v);
    return v;
}

static void view_done(struct vw *w)
{
    msgpack_unpacked_destroy(&w->u);
    msgpack_sbuffer_destroy(&w->sb);
}

/* Int at idx of an int array (idx < 0: the int itself). */
static int view_int(struct ta *t, int seat, const char *key, int idx)
{
    struct vw u;
    msgpack_object *v = view_get(t, seat, key, &u);
    int r = (int)(idx < 0 ? v->via.i64 : v->via.array.ptr[idx].via.i64);
    view_done(&u);
    return r;
}

/* How many of seat's own cards are of commodity name. */
static int held(struct ta *t, int seat, const char *name)
{
    struct vw u;
    msgpack_object *v = view_get(t, seat, "hand", &u);
    int k = 0;
    for (uint32_t i = 0; i < v->via.array.size; i++)
        k += v->via.array.ptr[i].via.str.size == strlen(name) &&
             !memcmp(v->via.array.ptr[i].via.str.ptr, name, strlen(name));
    view_done(&u);
    return k;
}

/* The last history entry's text as seat sees it. */
static void last_event(struct ta *t, int seat, char *buf, size_t len)
{
    struct vw u;
    msgpack_object *v = view_get(t, seat, "history", &u);
    msgpack_object *e = &v->via.array.ptr[v->via.array.size - 1];
    msgpack_object *s = &e->via.array.ptr[1];
    snprintf(buf, len, "%.*s", (int)s->via.str.size, s->via.str.ptr);
    view_done(&u);
}

/* Seat 1 (left of dealer) asks first; it holds only Gold, so it may ask
 * seat 0 or seat 2 for Gold and nothing else. */
static void test_first_legal(void **state)
{
    (void)state;
    struct ta t;
    int acts[64];
    char name[GAME_NAME_MAX];
    start(&t, "trix_authors(players=3)");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    int n = t.g.def->legal(&t.g, t.st, 1, acts);
    assert_int_equal(n, 2);
    game_action_name(&t.g, t.st, acts[0], name, sizeof name);
    assert_string_equal(name, "ask 0 for Gold");
    game_action_name(&t.g, t.st, acts[1], name, sizeof name);
    assert_string_equal(name, "ask 2 for Gold");
    assert_int_equal(held(&t, 1, "Gold"), 6);
}

/* A miss with a non-matching draw: seat 1 asks seat 0 for Gold; seat 0
 * has none, so seat 1 draws the pack's top card, an Iron, keeps it
 * hidden and the turn passes to seat 2. Seat 1 sees its Iron; the
 * others see only "draws a card", seat 1's hand size 7, that seat 1 holds
 * Gold (it asked) and that seat 0 holds none. */
static void test_miss_hidden_draw(void **state)
{
    (void)state;
    struct ta t;
    char ev[64];
    start(&t, "trix_authors(players=3)");
    ask(&t, "ask 0 for Gold", 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    assert_int_equal(held(&t, 1, "Iron"), 1);
    assert_int_equal(held(&t, 1, "Gold"), 6);
    last_event(&t, 2, ev, sizeof ev);
    assert_string_equal(ev, "draws a card");
    assert_int_equal(view_int(&t, 2, "hand_sizes", 1), 7);
    assert_int_equal(view_int(&t, 2, "pack", -1), 53);
    assert_int_equal(view_int(&t, 2, "voids", 0), 1 << GOLD);
    /* Determinizing for seat 2 keeps the known facts: seat 0 never gets
     * a Gold, seat 1 always keeps at least one. */
    struct rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < 50; i++) {
        struct ta d = t;
        t.g.def->determinize(&d.g, d.st, 2, &r);
        assert_int_equal(held(&d, 0, "Gold"), 0);
        assert_true(held(&d, 1, "Gold") >= 1);
        assert_int_equal(view_int(&d, 1, "hand_sizes", 1), 7);
        assert_int_equal(held(&d, 2, "Gold"), 2);
    }
}

/* The whole game from deck A, hand-worked:
 * - seat 1 asks seat 2 for Gold twice: two hits, it asks again each time
 *   and its eighth Gold is a Book, laid at once: 1 point. Its
 *   hand is empty, so it draws: the first Iron.
 * - it asks seat 0 for Iron twice (hits: 3 Iron), then seat 2 five times: each
 *   a miss, but each draw is an Iron, shown, so it asks again: 8 Iron, Book 2.
 *   Salt, Lime, Coal, Lead, Mica and Alum follow the same way from the pack (a
 *   draw when the hand is empty, then seven misses each answered by the
 *   matching card): Books 3..8.
 * - with its hand and the pack empty seat 1 is skipped; seat 2 asks
 *   seat 0 for Zinc four times: Book 9 to seat 2. All nine Books down:
 *   the game ends with seat 1 on 8, seat 2 on 1, seat 0 on 0: seat 1
 *   wins, +1, the two others -1/2 each. */
static void test_whole_game(void **state)
{
    (void)state;
    struct ta t;
    char ev[64];
    double r[3];
    start(&t, "trix_authors(players=3)");
    ask(&t, "ask 2 for Gold", 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 1), 7);
    assert_int_equal(view_int(&t, 0, "hand_sizes", 2), 5);
    ask(&t, "ask 2 for Gold", 1);
    assert_int_equal(view_int(&t, 0, "books", 1), 1);
    assert_int_equal(view_int(&t, 0, "owner", GOLD), 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    assert_int_equal(held(&t, 1, "Iron"), 1); /* the empty-hand draw */
    ask(&t, "ask 0 for Iron", 2);
    ask(&t, "ask 2 for Iron", 1);
    last_event(&t, 0, ev, sizeof ev);
    assert_string_equal(ev, "draws Iron, shown");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    ask(&t, "ask 2 for Iron", 4);
    assert_int_equal(view_int(&t, 0, "books", 1), 2);
    const char *rest[] = {"Salt", "Lime", "Coal", "Lead", "Mica", "Alum"};
    for (int i = 0; i < 6; i++) {
        char name[32];
        snprintf(name, sizeof name, "ask 2 for %s", rest[i]);
        ask(&t, name, 7);
        assert_int_equal(view_int(&t, 0, "books", 1), 3 + i);
    }
    assert_int_equal(view_int(&t, 0, "pack", -1), 0);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    ask(&t, "ask 0 for Zinc", 3);
    assert_false(game_is_terminal(&t.g, t.st));
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == 0 && r[1] == 0 && r[2] == 0);
    ask(&t, "ask 0 for Zinc", 1);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int(&t, 0, "books", 2), 1);
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[1] == 1.0);
    assert_true(r[0] == -0.5 && r[2] == -0.5);
}

/* Ties are shared, hand-worked from deck_tie:
 * - seat 1 asks seat 2 for Gold six times (hits; seat 2 is then empty and
 *   seat 0 the only one to ask), then seat 0 for Gold: a miss, but the
 *   drawn card is the last Gold, shown: Book 1. Iron, Salt and Lime the
 *   same way from the pack (seven shown draws each): Books 2..4.
 * - it asks seat 0 for Zinc: a miss, and the draw is an Alum, hidden: the
 *   turn passes. Seat 1 holds Zinc and two Alum.
 * - seat 2, empty, draws a Zinc, takes seat 1's Zinc, and draws the six others
 *   shown on misses: Book 1; Coal, Lead, Mica likewise (an empty-hand draw and
 *   seven shown draws each): Books 2..4. The pack is out.
 * - seat 2 is skipped; seat 0 takes seat 1's two Alum: Book 1.
 * Final 4, 4, 1: seats 1 and 2 share the win, +1/2 each; seat 0 -1. */
static void test_tie(void **state)
{
    (void)state;
    struct ta t;
    double r[3];
    start_deck(&t, "trix_authors(players=3)", deck_tie);
    ask(&t, "ask 2 for Gold", 6);
    ask(&t, "ask 0 for Gold", 1);
    ask(&t, "ask 0 for Iron", 7);
    ask(&t, "ask 0 for Salt", 7);
    ask(&t, "ask 0 for Lime", 7);
    assert_int_equal(view_int(&t, 0, "books", 1), 4);
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    ask(&t, "ask 0 for Zinc", 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    assert_int_equal(held(&t, 1, "Alum"), 2);
    ask(&t, "ask 1 for Zinc", 1);
    ask(&t, "ask 0 for Zinc", 6);
    ask(&t, "ask 0 for Coal", 7);
    ask(&t, "ask 0 for Lead", 7);
    ask(&t, "ask 0 for Mica", 7);
    assert_int_equal(view_int(&t, 0, "books", 2), 4);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    ask(&t, "ask 1 for Alum", 2);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int(&t, 1, "books", 0), 1);
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[1] == 0.5 && r[2] == 0.5 && r[0] == -1.0);
}

/* The cap: with max_asks=10 the game ends after the tenth ask as a
 * draw, every return 0. */
static void test_cap(void **state)
{
    (void)state;
    struct ta t;
    double r[3];
    start(&t, "trix_authors(players=3,max_asks=10)");
    ask(&t, "ask 2 for Gold", 2);
    ask(&t, "ask 0 for Iron", 2);
    ask(&t, "ask 2 for Iron", 5);
    assert_false(game_is_terminal(&t.g, t.st));
    ask(&t, "ask 2 for Salt", 1);
    assert_true(game_is_terminal(&t.g, t.st));
    t.g.def->returns(&t.g, t.st, r);
    assert_true(r[0] == 0 && r[1] == 0 && r[2] == 0);
}

/* Counts seat's own cards per commodity (Gold..Alum) from its view. */
static void held_all(struct ta *t, int seat, int *out)
{
    static const char *const names[9] = {"Gold", "Zinc", "Iron",
                                         "Salt", "Lime", "Coal",
                                         "Lead", "Mica", "Alum"};
    for (int c = 0; c < 9; c++)
        out[c] = held(t, seat, names[c]);
}

/* No hand of d holds a whole Book: the rules lay eight of a commodity down the
 * moment one hand has them, so no reachable state shows eight in a hand,
 * and a determinization must be a state the seat could be in. */
static void assert_no_book_in_hand(struct ta *d, int players)
{
    int k[9];
    for (int s = 0; s < players; s++) {
        held_all(d, s, k);
        for (int c = 0; c < 9; c++)
            if (k[c] >= 8)
                fail_msg("determinized seat %d holds %d of commodity %d", s,
                         k[c], c);
    }
}

/* Plays d out at random; every seat to act must have a legal action (a
 * search agent's playout that meets a seat with none forfeits). */
static void assert_playout_ends(struct ta *d, struct rng *r)
{
    int acts[64];
    for (int i = 0; i < 2000 && !game_is_terminal(&d->g, d->st); i++) {
        int s = game_current_seat(&d->g, d->st);
        int n = d->g.def->legal(&d->g, d->st, s, acts);
        if (n <= 0)
            fail_msg("seat %d to act with no legal action", s);
        assert_int_equal(
            game_apply(&d->g, d->st, s, acts[rng_below(r, (uint32_t)n)]), 0);
    }
    assert_true(game_is_terminal(&d->g, d->st));
}

/* Determinizations over seeded random games, for every seat at every
 * step: no hand holds eight of a commodity, and a random playout
 * from one of them ends. The unseen cards are often eight of one
 * commodity (no one has asked for it), and a large hand may take them
 * all unless determinize caps each commodity at seven; such a world can
 * never lay that Book, and once the other hands and the pack run out its
 * holder is to act with nobody to ask. */
static void test_determinize_no_whole_book(void **state)
{
    (void)state;
    const char *specs[] = {"trix_authors(players=3)", "trix_authors"};
    struct rng r;
    rng_seed(&r, 2024);
    for (int i = 0; i < 2; i++) {
        struct ta t;
        start(&t, specs[i]);
        int players = t.g.dims.players, acts[64];
        assert_int_equal(game_init(&t.g, t.st, 40 + (uint64_t)i, NULL, 0), 0);
        while (!game_is_terminal(&t.g, t.st)) {
            for (int s = 0; s < players; s++)
                for (int k = 0; k < 4; k++) {
                    struct ta d = t;
                    t.g.def->determinize(&d.g, d.st, s, &r);
                    assert_no_book_in_hand(&d, players);
                    if (k == 0 && s == 0)
                        assert_playout_ends(&d, &r);
                }
            int p = game_current_seat(&t.g, t.st);
            int n = t.g.def->legal(&t.g, t.st, p, acts);
            assert_int_equal(game_apply(&t.g, t.st, p,
                                        acts[rng_below(&r, (uint32_t)n)]),
                             0);
        }
    }
}

static void run_conformance(const char *spec)
{
    char err[512];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(conformance_game_make(&g, &trix_authors_game, spec, err,
                                           sizeof err),
                     0);
    if (conformance_run(&g, 20, 19, &r, err, sizeof err))
        fail_msg("%s: %s", spec, err);
}

/* Two or seven players are out of range; then the conformance suite. */
static void test_configure_and_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_true(conformance_game_make(&g, &trix_authors_game,
                                      "trix_authors(players=2)", err,
                                      sizeof err) < 0);
    assert_true(conformance_game_make(&g, &trix_authors_game,
                                      "trix_authors(players=7)", err,
                                      sizeof err) < 0);
    run_conformance("trix_authors");
    run_conformance("trix_authors(players=3)");
    run_conformance("trix_authors(players=6)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_legal),
        cmocka_unit_test(test_miss_hidden_draw),
        cmocka_unit_test(test_whole_game),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_determinize_no_whole_book),
        cmocka_unit_test(test_configure_and_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
