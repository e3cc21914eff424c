/* test_nine_card_golf.c — Square 9 (Nine-Card Golf) rule facts from the
 * family games page and docs/games/nine_card_golf.md, on hand-built deals.
 *
 * Seat 0 deals the first hole; cards go one at a time clockwise from the
 * dealer's left, nine rounds, a player's k-th card at position k (1..9,
 * row by row: 1 2 3 / 4 5 6 / 7 8 9). With two players the pack reads
 * s1:1 s0:1 s1:2 s0:2 ... s1:9 s0:9, then the first discard, then the
 * stock from its top. Points are read through the view and returns and
 * compared with totals worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "engine/game.h"
#include "engine/games/nine_card_golf.h"

/* Action ids (the game's header comment). */
enum { EXPOSE = 0, REPLACE = 9, DRAW = 18, TAKE = 19, DISCARD = 20 };

/* ---- fixture ------------------------------------------------------------- */

struct golf {
    struct game g;          /* configured game */
    unsigned char st[4096]; /* its state */
};

static void start(struct golf *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[300];
    memset(t, 0, sizeof *t);
    assert_int_equal(game_make(&t->g, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n =
        deck ? game_deck_parse(&t->g, deck, cards, 300, err, sizeof err) : 0;
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(game_init(&t->g, t->st, 5, cards, n), 0);
}

/* seat (who must be to act) takes the action named text. */
static void act(struct golf *t, int seat, const char *text)
{
    char err[512];
    assert_int_equal(game_current_seat(&t->g, t->st), seat);
    int a = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (a < 0)
        fail_msg("%s", err);
    assert_int_equal(game_apply(&t->g, t->st, seat, a), 0);
}

static void act_id(struct golf *t, int seat, int action)
{
    assert_int_equal(game_current_seat(&t->g, t->st), seat);
    assert_int_equal(game_apply(&t->g, t->st, seat, action), 0);
}

/* Asserts the seat to act has exactly the legal ids want[0..n). */
static void legal_is(struct golf *t, const int *want, int n)
{
    int l[16];
    int seat = game_current_seat(&t->g, t->st);
    int k = t->g.def->legal(&t->g, t->st, seat, l);
    assert_int_equal(k, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(l[i], want[i]);
}

static double ret(struct golf *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

/* Packs seat's view into sb (initialised here; caller destroys). */
static void view_pack(struct golf *t, int seat, msgpack_sbuffer *sb)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
}

/* Finds key in seat's view and writes it as text: an int as decimal, a
 * string as is, nil as "nil", an array as its items space-joined (nested
 * arrays in brackets). */
static void text_of(const msgpack_object *o, char *buf, size_t len)
{
    size_t u = 0;
    switch (o->type) {
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        snprintf(buf, len, "%llu", (unsigned long long)o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        snprintf(buf, len, "%lld", (long long)o->via.i64);
        break;
    case MSGPACK_OBJECT_STR:
        snprintf(buf, len, "%.*s", (int)o->via.str.size, o->via.str.ptr);
        break;
    case MSGPACK_OBJECT_ARRAY:
        buf[0] = '\0';
        for (uint32_t i = 0; i < o->via.array.size && u + 2 < len; i++) {
            bool nest = o->via.array.ptr[i].type == MSGPACK_OBJECT_ARRAY;
            u += (size_t)snprintf(buf + u, len - u, "%s%s", i ? " " : "",
                                  nest ? "[" : "");
            text_of(&o->via.array.ptr[i], buf + u, len - u);
            u += strlen(buf + u);
            u += (size_t)snprintf(buf + u, len - u, "%s", nest ? "]" : "");
        }
        break;
    default:
        snprintf(buf, len, "nil");
    }
}

static void view_is(struct golf *t, int seat, const char *key, const char *want)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    char got[1024] = "?";
    view_pack(t, seat, &sb);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    const msgpack_object_map *m = &u.data.via.map;
    bool found = false;
    for (uint32_t i = 0; i < m->size; i++) {
        const msgpack_object_str *k = &m->ptr[i].key.via.str;
        if (k->size == strlen(key) && !memcmp(k->ptr, key, k->size)) {
            text_of(&m->ptr[i].val, got, sizeof got);
            found = true;
        }
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    assert_true(found);
    assert_string_equal(got, want);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The stock of state st (from the full description) as its card names
 * sorted: the stock's contents without its order. */
static void stock_set(struct golf *t, const unsigned char *st, char *out,
                      size_t len)
{
    char full[8192];
    char *tok[300];
    int n = 0;
    t->g.def->describe(&t->g, st, -1, full, sizeof full);
    char *line = strstr(full, "stock (top first):");
    assert_non_null(line);
    line += strlen("stock (top first):");
    line[strcspn(line, "\n")] = '\0';
    for (char *w = strtok(line, " "); w && n < 300; w = strtok(NULL, " "))
        tok[n++] = w;
    qsort(tok, (size_t)n, sizeof tok[0], cmp_str);
    size_t u = 0;
    out[0] = '\0';
    for (int i = 0; i < n && u < len; i++)
        u += (size_t)snprintf(out + u, len - u, "%s ", tok[i]);
}

/* Determinizes copies of t's state for seat 0 with ten seeds; returns how
 * many changed the stock's contents. */
static int stock_changes(struct golf *t)
{
    char before[2048], after[2048];
    unsigned char copy[4096];
    int changed = 0;
    stock_set(t, t->st, before, sizeof before);
    for (int i = 0; i < 10; i++) {
        struct rng r;
        rng_seed(&r, 7 + (uint64_t)i);
        memcpy(copy, t->st, t->g.def->state_size);
        t->g.def->determinize(&t->g, copy, 0, &r);
        stock_set(t, copy, after, sizeof after);
        changed += strcmp(before, after) != 0;
    }
    return changed;
}

/* ---- a whole hole worked by hand ----------------------------------------- */

/* Two players, one hole. Deal (position: seat 1 / seat 0):
 *   1: 3♣/2♣  2: 4♣/6♦  3: 6♣/8♦  4: 8♣/2♦  5: 5♠/2♥
 *   6: 9♣/3♥  7: 10♣/2♠ 8: 10♦/A♦ 9: J♦/2♣   (two decks: 2♣ twice)
 * First discard 9♥; stock 7♣ 7♦ 7♥ K♣ Q♣ Joker Joker Joker.
 * Seat 1 exposes its centre (5♠) and replaces its eight face-down cards
 * from the stock in position order; seat 0 exposes position 6 (3♥) and
 * each turn takes seat 1's discard onto that sideways card. */
#define HOLE_DECK                                                              \
    "3C 2C 4C 6D 6C 8D 8C 2D 5S 2H 9C 3H 10C 2S 10D AD JD 2C 9H "              \
    "7C 7D 7H KC QC Joker JK joker"

/* Seat 1's dealt cards, discarded in turn as it replaces them, and the
 * positions it replaces. */
static const char *const out1[8] = {"3♣", "4♣",  "6♣",  "8♣",
                                    "9♣", "10♣", "10♦", "J♦"};
static const int pos1[8] = {1, 2, 3, 4, 6, 7, 8, 9};

/* Seat 1's k-th turn in the worked hole: draw, replace pos1[k]. */
static void worked_turn_seat1(struct golf *t, int k)
{
    char rep[16];
    act(t, 1, "draw");
    if (k == 0) {
        /* The drawn 7♣ is seen by its drawer only. All eight face-down
         * cards and the sideways card may be replaced, or the card
         * discarded: ids 9..17 and 20. */
        static const int first[] = {9, 10, 11, 12, 13, 14, 15, 16, 17, 20};
        legal_is(t, first, 10);
        view_is(t, 1, "held", "7♣");
        view_is(t, 0, "held", "?");
    }
    if (k == 1) {
        /* Position 1 took a face-down card's place: fixed now. */
        static const int second[] = {10, 11, 12, 13, 14, 15, 16, 17, 20};
        legal_is(t, second, 9);
    }
    snprintf(rep, sizeof rep, "replace %d", pos1[k]);
    act(t, 1, rep);
    view_is(t, 0, "discard", out1[k]);
    view_is(t, 0, "finisher", k < 7 ? "-1" : "1");
}

/* Seat 0's turn: take seat 1's discard; a taken card must be placed:
 * no discard action, only the nine open positions. The sideways card may
 * be replaced again and again. */
static void worked_turn_seat0(struct golf *t, int k)
{
    char take[32];
    static const int placed[] = {9, 10, 11, 12, 13, 14, 15, 16, 17};
    snprintf(take, sizeof take, "take %s", out1[k]);
    act(t, 0, take);
    legal_is(t, placed, 9);
    view_is(t, 1, "held", out1[k]);
    act(t, 0, "replace 6");
}

static void test_worked_hole(void **state)
{
    (void)state;
    struct golf t;
    static const int expose_all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    start(&t, "nine_card_golf(players=2,holes=1)", HOLE_DECK);
    /* Each player chooses which card to expose; any position. */
    legal_is(&t, expose_all, 9);
    act(&t, 1, "expose 5");
    act(&t, 0, "expose 6");
    view_is(&t, 1, "sideways", "6 5");
    /* Face-down cards are hidden from their owner too. */
    view_is(&t, 1, "grids", "[? ? ? ? ? 3♥ ? ? ?] [? ? ? ? 5♠ ? ? ? ?]");
    view_is(&t, 1, "discard", "9♥");
    for (int k = 0; k < 8; k++) {
        worked_turn_seat1(&t, k);
        worked_turn_seat0(&t, k);
    }
    /* Seat 1 exposed its last face-down card on its eighth turn; seat 0
     * had its one more turn, and the hole is scored.
     * Seat 1: 7♣ 7♦ 7♥ / K♣ 5♠ Q♣ / Joker Joker Joker. The top row
     * matches: 0. Jokers never match: -2 each = -6. K 0, 5, Q 10.
     * Total 9.
     * Seat 0, its face-down cards turned up: 2♣ 6♦ 8♦ / 2♦ 2♥ J♦ /
     * 2♠ A♦ 2♣. Column 1 (2♣ 2♦ 2♠) and the diagonal 1-5-9 (2♣ 2♥ 2♣)
     * match; the 2♣ at position 1 lies in both and scores 0 once. Left:
     * 6 + 8 + J 10 + A 1 = 25. */
    assert_true(game_is_terminal(&t.g, t.st));
    view_is(&t, 0, "grids",
            "[2♣ 6♦ 8♦ 2♦ 2♥ J♦ 2♠ A♦ 2♣] "
            "[7♣ 7♦ 7♥ K♣ 5♠ Q♣ Joker Joker Joker]");
    view_is(&t, 0, "last_scores", "25 9");
    view_is(&t, 0, "totals", "25 9");
    /* Score difference: seat 1 is 16 points better. */
    assert_true(ret(&t, 1) == 16 && ret(&t, 0) == -16);
}

/* Three players, one hole, random cards. Seat 1 replaces a face-down card
 * every turn; seats 2 and 0 draw and throw the drawn card away. After
 * seat 1's eighth turn, seats 2 and 0 have one more turn each, in order,
 * and then the hole is over. Returns are the others' mean total less
 * one's own. */
static void test_last_round_gives_each_other_one_turn(void **state)
{
    (void)state;
    struct golf t;
    start(&t, "nine_card_golf(players=3,holes=1)", NULL);
    act(&t, 1, "expose 1");
    act(&t, 2, "expose 5");
    act(&t, 0, "expose 9");
    for (int k = 0; k < 8; k++) {
        act_id(&t, 1, DRAW);
        act_id(&t, 1, REPLACE + 1 + k); /* positions 2..9 */
        view_is(&t, 0, "finisher", k < 7 ? "-1" : "1");
        act_id(&t, 2, DRAW);
        act_id(&t, 2, DISCARD);
        if (k < 7) {
            act_id(&t, 0, DRAW);
            act_id(&t, 0, DISCARD);
        }
    }
    assert_false(game_is_terminal(&t.g, t.st));
    act_id(&t, 0, DRAW);
    act_id(&t, 0, DISCARD);
    assert_true(game_is_terminal(&t.g, t.st));
    /* Seats 2 and 0 kept eight face-down cards each; all were scored. */
    view_is(&t, 0, "void_holes", "0");
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    view_pack(&t, 0, &sb);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    int tot[3] = {0, 0, 0};
    const msgpack_object_map *m = &u.data.via.map;
    for (uint32_t i = 0; i < m->size; i++)
        if (m->ptr[i].key.via.str.size == 6 &&
            !memcmp(m->ptr[i].key.via.str.ptr, "totals", 6))
            for (int k = 0; k < 3; k++)
                tot[k] = (int)m->ptr[i].val.via.array.ptr[k].via.i64;
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    for (int k = 0; k < 3; k++) {
        double want = (tot[(k + 1) % 3] + tot[(k + 2) % 3]) / 2.0 - tot[k];
        assert_true(ret(&t, k) > want - 1e-9 && ret(&t, k) < want + 1e-9);
    }
}

/* ---- the stock, the cap, the next hole ----------------------------------- */

/* One deck for two players: 54 - 18 - 1 = 35 stock cards. Both players
 * draw and throw away; after the 35th turn the stock is empty and the
 * discards below the top card become the stock: 35 cards, the top
 * discard stays. With max_rounds=30 nobody finishes in 60 turns: the hole
 * is void, nobody scores, and seat 1 deals the second hole, seat 0
 * (on its left) exposing first.
 * Determinization: before the rebuild the stock and the face-down cards
 * are one unknown pool, so the stock's contents change; after it the
 * stock is the known set of reshuffled discards, and stays that set. */
static void test_reshuffle_cap_and_next_hole(void **state)
{
    (void)state;
    struct golf t;
    start(&t, "nine_card_golf(players=2,decks=1,holes=2,max_rounds=30)", NULL);
    act(&t, 1, "expose 1");
    act(&t, 0, "expose 9");
    view_is(&t, 0, "stock", "35");
    for (int turn = 1; turn <= 60; turn++) {
        int seat = turn % 2; /* seat 1 moves first */
        char held[32], want[32];
        act_id(&t, seat, DRAW);
        game_action_name(&t.g, t.st, DISCARD, held, sizeof held);
        act_id(&t, seat, DISCARD);
        if (turn == 10)
            assert_true(stock_changes(&t) > 0);
        if (turn == 34)
            view_is(&t, 0, "stock", "1");
        if (turn == 35) {
            view_is(&t, 0, "stock", "35");
            view_is(&t, 0, "discards", "1");
            snprintf(want, sizeof want, "%s", held + strlen("discard "));
            view_is(&t, 0, "discard", want);
            assert_int_equal(stock_changes(&t), 0);
        }
        if (turn < 60)
            view_is(&t, 0, "hole", "1");
    }
    view_is(&t, 0, "void_holes", "1");
    view_is(&t, 0, "last_scores", "0 0");
    view_is(&t, 0, "hole", "2");
    view_is(&t, 0, "dealer", "1");
    view_is(&t, 0, "phase", "expose");
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    assert_true(ret(&t, 0) == 0 && ret(&t, 1) == 0);
}

/* ---- hidden information -------------------------------------------------- */

/* A seat's own face-down cards are as unknown to it as anyone's, so
 * determinize redeals them too, while the seat's tensor and view stay
 * byte-identical. The full description (seat -1) shows the cards. */
static void test_determinize_resamples_own_face_down(void **state)
{
    (void)state;
    struct golf t;
    start(&t, "nine_card_golf(players=2)", NULL);
    act(&t, 1, "expose 5");
    act(&t, 0, "expose 5");
    act(&t, 1, "draw"); /* seat 1 holds a card seat 0 has not seen */
    float a[2048], b[2048];
    assert_true(t.g.dims.obs_size <= 2048);
    t.g.def->observe(&t.g, t.st, 0, a);
    msgpack_sbuffer va, vb;
    view_pack(&t, 0, &va);
    char full[4096], own_before[1024];
    t.g.def->describe(&t.g, t.st, -1, full, sizeof full);
    /* Seat 0's rows come between "seat 0" and "seat 1". */
    const char *s0 = strstr(full, "seat 0"), *s1 = strstr(full, "seat 1");
    snprintf(own_before, sizeof own_before, "%.*s", (int)(s1 - s0), s0);
    int own_changed = 0;
    unsigned char keep[4096];
    memcpy(keep, t.st, t.g.def->state_size);
    for (int i = 0; i < 10; i++) {
        struct rng r;
        rng_seed(&r, 100 + (uint64_t)i);
        memcpy(t.st, keep, t.g.def->state_size);
        t.g.def->determinize(&t.g, t.st, 0, &r);
        t.g.def->observe(&t.g, t.st, 0, b);
        assert_memory_equal(a, b, sizeof(float) * (size_t)t.g.dims.obs_size);
        view_pack(&t, 0, &vb);
        assert_int_equal(va.size, vb.size);
        assert_memory_equal(va.data, vb.data, va.size);
        msgpack_sbuffer_destroy(&vb);
        t.g.def->describe(&t.g, t.st, -1, full, sizeof full);
        s0 = strstr(full, "seat 0");
        s1 = strstr(full, "seat 1");
        own_changed += strncmp(own_before, s0, (size_t)(s1 - s0)) != 0;
    }
    msgpack_sbuffer_destroy(&va);
    assert_true(own_changed > 0);
}

/* ---- packs and options --------------------------------------------------- */

/* Two decks (with two jokers each) for 2-3 players, three for 4-5,
 * one more per two more players. A deck prefix may not ask for more
 * copies than that. */
static void test_deck_counts(void **state)
{
    (void)state;
    struct game g;
    unsigned char st[4096];
    char err[256];
    uint8_t d[16];
    assert_int_equal(
        game_make(&g, "nine_card_golf(players=2)", err, sizeof err), 0);
    int n = game_deck_parse(&g, "7C 7C", d, 16, err, sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), 0);
    n = game_deck_parse(&g, "7C 7C 7C", d, 16, err, sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), ERR_INVAL);
    n = game_deck_parse(&g, "JK JK JK JK", d, 16, err, sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), 0);
    n = game_deck_parse(&g, "JK JK JK JK JK", d, 16, err, sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), ERR_INVAL);
    assert_int_equal(
        game_make(&g, "nine_card_golf(players=5)", err, sizeof err), 0);
    n = game_deck_parse(&g, "7C 7C 7C JK JK JK JK JK JK", d, 16, err,
                        sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), 0);
    assert_int_equal(
        game_make(&g, "nine_card_golf(players=6)", err, sizeof err), 0);
    n = game_deck_parse(&g, "7C 7C 7C 7C", d, 16, err, sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), 0);
    n = game_deck_parse(&g, "7C 7C 7C 7C 7C", d, 16, err, sizeof err);
    assert_int_equal(game_init(&g, st, 1, d, n), ERR_INVAL);
}

static void test_options_and_bounds(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "nine_card_golf", err, sizeof err), 0);
    assert_int_equal(g.dims.num_actions, 21);
    /* Nine holes: a hole scores -18..90 a player. */
    assert_true(g.dims.ret_high == 108 * 9 && g.dims.ret_low == -108 * 9);
    assert_int_equal(game_make(&g, "nine_card_golf(holes=18)", err, sizeof err),
                     0);
    assert_true(g.dims.ret_high == 108 * 18);
    /* Six players need 54 + 2 cards: one deck of 54 is too few. */
    assert_int_equal(
        game_make(&g, "nine_card_golf(players=6,decks=1)", err, sizeof err),
        ERR_INVAL);
    assert_non_null(strstr(err, "decks=1"));
    assert_non_null(strstr(err, "players=6"));
    assert_int_equal(
        game_make(&g, "nine_card_golf(players=5,decks=1)", err, sizeof err), 0);
    assert_int_equal(
        game_make(&g, "nine_card_golf(players=9)", err, sizeof err), ERR_RANGE);
}

static void test_action_names(void **state)
{
    (void)state;
    struct golf t;
    char name[GAME_NAME_MAX];
    start(&t, "nine_card_golf(players=2)", HOLE_DECK);
    const struct {
        int a;
        const char *name;
    } want[] = {
        {EXPOSE, "expose 1"},
        {EXPOSE + 8, "expose 9"},
        {REPLACE, "replace 1"},
        {REPLACE + 4, "replace 5"},
        {DRAW, "draw"},
        {TAKE, "take 9♥"},
        {DISCARD, "discard drawn"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        game_action_name(&t.g, t.st, want[i].a, name, sizeof name);
        assert_string_equal(name, want[i].name);
    }
    act(&t, 1, "expose 5");
    act(&t, 0, "expose 5");
    act(&t, 1, "draw"); /* 7♣ */
    game_action_name(&t.g, t.st, DISCARD, name, sizeof name);
    assert_string_equal(name, "discard 7♣");
    act(&t, 1, "discard 7c");
    /* The history shows what the others may know: the draw unnamed. */
    view_is(&t, 0, "history",
            "[1 expose 5] [0 expose 5] [1 draw] [1 discard 7♣]");
}

/* ---- facts kept in the state -------------------------------------------- */

/* Asserts the facts apply keeps for the tensor (struct g9_state) equal
 * their count from the layouts, the discards and the totals. */
static void facts_match(const struct game *g, const struct g9_state *st)
{
    int n = g->dims.players, holes = (int)game_param(g, "holes");
    int decks = (int)game_param(g, "decks");
    decks = decks ? decks : 1 + n / 2; /* the pack rule */
    int cap = (int)game_param(g, "max_rounds") * n;
    for (int s = 0; s < n; s++) {
        for (int p = 0; p < 9; p++) {
            int f = st->grid[s][p];
            int rank = f == 52 ? 13 : f % 13; /* the joker is face 52 */
            /* Bits 0..13 rank, 14 face down, 15 sideways. */
            unsigned want = st->down[s] >> p & 1 ? 1u << 14 : 1u << rank;
            want |= st->side[s] == p ? 1u << 15 : 0;
            assert_int_equal(st->lay[s][p], want);
            assert_int_equal(st->lay[s + n][p], want);
        }
        float tot = (float)(st->total[s] + 18 * holes) / (float)(108 * holes);
        assert_true(st->totf[s] == tot && st->totf[s + n] == tot);
    }
    int top = st->ndisc ? st->disc[st->ndisc - 1] : -1;
    unsigned want_top = top < 0 ? 0 : 1u << (top == 52 ? 13 : top % 13);
    assert_int_equal(st->top, want_top);
    assert_true(st->counts[0] == (float)st->nstock / (float)(54 * decks));
    assert_true(st->counts[1] == (float)st->hole / (float)holes);
    assert_true(st->counts[2] == (float)st->turns / (float)(cap + n));
}

/* The facts hold after every step of random games, across player counts,
 * reshuffles, capped holes and game ends. */
static void test_kept_facts_match_scratch(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "nine_card_golf",
        "nine_card_golf(players=2,holes=3)",
        "nine_card_golf(players=5,decks=1,holes=2)",
        "nine_card_golf(players=8,holes=1,max_rounds=10)",
        "nine_card_golf(players=3,decks=5,holes=2,max_rounds=10)",
        "nine_card_golf(players=7,holes=1)",
    };
    struct rng r;
    rng_seed(&r, 11);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        struct golf t;
        start(&t, specs[i], NULL);
        for (uint64_t seed = 1; seed <= 6; seed++) {
            assert_int_equal(game_init(&t.g, t.st, seed, NULL, 0), 0);
            const struct g9_state *st = (const void *)t.st;
            int steps = 0, seat, l[16];
            facts_match(&t.g, st);
            while ((seat = game_current_seat(&t.g, t.st)) >= 0) {
                int k = t.g.def->legal(&t.g, t.st, seat, l);
                int a = l[rng_below(&r, (uint32_t)k)];
                assert_int_equal(game_apply(&t.g, t.st, seat, a), 0);
                facts_match(&t.g, st);
                steps++;
            }
            assert_true(steps > 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_hole),
        cmocka_unit_test(test_last_round_gives_each_other_one_turn),
        cmocka_unit_test(test_reshuffle_cap_and_next_hole),
        cmocka_unit_test(test_determinize_resamples_own_face_down),
        cmocka_unit_test(test_deck_counts),
        cmocka_unit_test(test_options_and_bounds),
        cmocka_unit_test(test_action_names),
        cmocka_unit_test(test_kept_facts_match_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
