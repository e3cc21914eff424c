/* test_ninety_nine.c — Ninety-Nine rule facts from the family games page
 * and docs/games/ninety_nine.md, on hand-built deals.
 *
 * Seat 0 deals the first hand; cards go one at a time clockwise from the
 * dealer's left, three rounds, so with four players the pack reads
 * s1 s2 s3 s0 s1 s2 s3 s0 s1 s2 s3 s0, then the stock from its top (each
 * play draws the next card). With three players: s1 s2 s0 x3; two: s1 s0
 * x3. Totals, pennies and hands are read through the game's view and
 * compared with values worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "engine/game.h"

/* ---- fixture ------------------------------------------------------------- */

struct nn {
    struct game g;          /* configured game */
    unsigned char st[2048]; /* its state */
};

/* Makes spec and starts it with the pack prefix deck (card names). */
static void start(struct nn *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[104];
    memset(t, 0, sizeof *t);
    assert_int_equal(game_make(&t->g, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n =
        deck ? game_deck_parse(&t->g, deck, cards, 104, err, sizeof err) : 0;
    assert_true(n >= 0);
    assert_int_equal(game_init(&t->g, t->st, 11, cards, n), 0);
}

/* seat (who must be to act) takes the action named text. */
static void act(struct nn *t, int seat, const char *text)
{
    char err[512];
    assert_int_equal(game_current_seat(&t->g, t->st), seat);
    int a = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (a < 0)
        fail_msg("%s", err);
    assert_int_equal(game_apply(&t->g, t->st, seat, a), 0);
}

/* The legal action ids of the seat to act, into out; returns the count. */
static int legal(struct nn *t, int *out)
{
    int seat = game_current_seat(&t->g, t->st);
    return t->g.def->legal(&t->g, t->st, seat, out);
}

static double ret(struct nn *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

/* A view of one seat, unpacked; close with view_close. */
struct view {
    msgpack_sbuffer sb;
    msgpack_unpacked u;
};

static void view_open(struct view *v, struct nn *t, int seat)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(&v->sb);
    msgpack_packer_init(&pk, &v->sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    msgpack_unpacked_init(&v->u);
    assert_int_equal(msgpack_unpack_next(&v->u, v->sb.data, v->sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
}

static void view_close(struct view *v)
{
    msgpack_unpacked_destroy(&v->u);
    msgpack_sbuffer_destroy(&v->sb);
}

static const msgpack_object *view_get(struct view *v, const char *key)
{
    const msgpack_object_map *m = &v->u.data.via.map;
    for (uint32_t i = 0; i < m->size; i++) {
        const msgpack_object_str *k = &m->ptr[i].key.via.str;
        if (k->size == strlen(key) && !memcmp(k->ptr, key, k->size))
            return &m->ptr[i].val;
    }
    fail_msg("view has no key %s", key);
    return NULL;
}

static int obj_int(const msgpack_object *o)
{
    return o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER ? (int)o->via.i64
                                                      : (int)o->via.u64;
}

static int view_int(struct nn *t, int seat, const char *key)
{
    struct view v;
    view_open(&v, t, seat);
    int x = obj_int(view_get(&v, key));
    view_close(&v);
    return x;
}

static int view_int_at(struct nn *t, int seat, const char *key, int i)
{
    struct view v;
    view_open(&v, t, seat);
    int x = obj_int(&view_get(&v, key)->via.array.ptr[i]);
    view_close(&v);
    return x;
}

/* Asserts the view's string (or list of strings, space-joined) at key. */
static void view_is(struct nn *t, int seat, const char *key, const char *want)
{
    struct view v;
    char got[512] = "";
    view_open(&v, t, seat);
    const msgpack_object *o = view_get(&v, key);
    if (o->type == MSGPACK_OBJECT_STR) {
        snprintf(got, sizeof got, "%.*s", (int)o->via.str.size, o->via.str.ptr);
    } else {
        size_t u = 0;
        for (uint32_t i = 0; i < o->via.array.size && u < sizeof got; i++) {
            const msgpack_object_str *s = &o->via.array.ptr[i].via.str;
            u += (size_t)snprintf(got + u, sizeof got - u, "%s%.*s",
                                  i ? " " : "", (int)s->size, s->ptr);
        }
    }
    view_close(&v);
    assert_string_equal(got, want);
}

static int id(int rank, int suit)
{
    return card_make(rank, suit);
}

/* ---- the page's worked example ------------------------------------------ */

/* The page's four-player sequence, play running clockwise. The page's P1..P4
 * sit at seats 1, 2, 3, 0: seat 0 deals, so P1 (seat 1) leads.
 * Hands: s1 K♠ 8♣ 2♦; s2 9♥ 10♥ 3♣; s3 4♦ 5♣ 6♣; s0 4♠ 7♦ 2♣.
 * Stock from the top: 5♥ 6♥ 7♥ 8♥ 9♦. */
static void test_seed_sequence(void **state)
{
    (void)state;
    struct nn t;
    int l[8];
    start(&t, "ninety_nine(players=4)",
          "KS 9H 4D 4S 8C 10H 5C 7D 2D 3C 6C 2C 5H 6H 7H 8H 9D");
    /* "Player 1 plays a King and says 99." */
    act(&t, 1, "play K♠");
    assert_int_equal(view_int(&t, 1, "total"), 99);
    /* At 99 P2 (9♥ 10♥ 3♣) may only hold with the 9 or take 10 off:
     * 3 would make 102 and the ten as +10 109. */
    assert_int_equal(legal(&t, l), 2);
    assert_int_equal(l[0], id(9, HEARTS));
    assert_int_equal(l[1], 56 + HEARTS); /* 10♥ as -10 */
    /* "Player 2 plays a nine and says hold 99": next is P3. */
    act(&t, 2, "play 9♥");
    assert_int_equal(view_int(&t, 2, "total"), 99);
    /* "Player 3 plays a four ... reverse 99": play runs anticlockwise,
     * so P2 is next again. */
    act(&t, 3, "play 4♦");
    assert_int_equal(view_int(&t, 3, "total"), 99);
    view_is(&t, 3, "direction", "anticlockwise");
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    /* "Player 2 plays a ten and says 89." */
    act(&t, 2, "play 10♥ -10");
    assert_int_equal(view_int(&t, 2, "total"), 89);
    /* "Player 1 plays an eight and says 97." */
    act(&t, 1, "play 8♣");
    assert_int_equal(view_int(&t, 1, "total"), 97);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    /* "Player 4 plays a four ... reverse 97 (now we're back to
     * clockwise)": next is P1. */
    act(&t, 0, "play 4♠");
    assert_int_equal(view_int(&t, 0, "total"), 97);
    view_is(&t, 0, "direction", "clockwise");
    assert_int_equal(game_current_seat(&t.g, t.st), 1);
    /* P1 drew 5♥ after the king and 9♦ after the eight: 2♦ 9♦ 5♥. At 97
     * only the 2 (99) and the 9 (hold) fit; 5 would make 102. */
    view_is(&t, 1, "hand", "2♦ 9♦ 5♥");
    assert_int_equal(legal(&t, l), 2);
    assert_int_equal(l[0], id(2, DIAMONDS));
    assert_int_equal(l[1], id(9, DIAMONDS));
    /* The history lists the six plays with their seats. */
    struct view v;
    view_open(&v, &t, 3);
    const msgpack_object *h = view_get(&v, "history");
    assert_int_equal(h->via.array.size, 6);
    const msgpack_object *e = h->via.array.ptr[3].via.array.ptr;
    assert_int_equal(obj_int(&e[0]), 2);
    assert_int_equal(e[1].via.str.size, strlen("play 10♥ -10"));
    assert_memory_equal(e[1].via.str.ptr, "play 10♥ -10", e[1].via.str.size);
    view_close(&v);
}

/* ---- special cards ------------------------------------------------------- */

/* Three players, pack s1 s2 s0 x3. s1 A♠ K♣ 2♠; s2 10♦ 3♥ 6♥;
 * s0 A♦ 5♦ 6♦; stock 7♣ 8♣ 9♣ J♣ Q♣. */
static void test_ace_one_or_eleven(void **state)
{
    (void)state;
    struct nn t;
    int l[8];
    start(&t, "ninety_nine(players=3)",
          "AS 10D AD KC 3H 5D 2S 6H 6D "
          "7C 8C 9C JC QC");
    /* At 0 the ace may count 1 or 11: both are offered, with the
     * king and the 2: ids K♣ 12, A♠ 39, 2♠ 40, A♠-as-11 52+3. */
    assert_int_equal(legal(&t, l), 4);
    assert_int_equal(l[0], id(KING, CLUBS));
    assert_int_equal(l[1], id(ACE, SPADES));
    assert_int_equal(l[2], id(2, SPADES));
    assert_int_equal(l[3], 52 + SPADES);
    act(&t, 1, "play K♣"); /* 99 */
    /* s2 at 99 holds 10♦ 3♥ 6♥: only the ten taken off. */
    assert_int_equal(legal(&t, l), 1);
    assert_int_equal(l[0], 56 + DIAMONDS);
    act(&t, 2, "play 10♦ -10");
    assert_int_equal(view_int(&t, 2, "total"), 89);
    /* s0 at 89: A♦ as 1 makes 90, as 11 would make 100 and is not
     * offered; 5♦ (94) and 6♦ (95) fit. */
    assert_int_equal(legal(&t, l), 3);
    assert_int_equal(l[0], id(ACE, DIAMONDS));
    assert_int_equal(l[1], id(5, DIAMONDS));
    assert_int_equal(l[2], id(6, DIAMONDS));
    act(&t, 0, "play A♦ as 1");
    assert_int_equal(view_int(&t, 0, "total"), 90);
}

/* The ace as 11 from the start, the ten as +10, J and Q as 10. Three
 * players: s1 A♠ 2♠ 3♠; s2 10♥ 2♥ 3♥; s0 J♣ Q♣ 7♣; stock 8♦ 8♥ 8♠. */
static void test_ace_eleven_and_ten_up(void **state)
{
    (void)state;
    struct nn t;
    start(&t, "ninety_nine(players=3)", "AS 10H JC 2S 2H QC 3S 3H 7C 8D 8H 8S");
    act(&t, 1, "play a♠ as 11");
    assert_int_equal(view_int(&t, 1, "total"), 11);
    act(&t, 2, "play 10h +10");
    assert_int_equal(view_int(&t, 2, "total"), 21);
    act(&t, 0, "play Q♣");
    assert_int_equal(view_int(&t, 0, "total"), 31);
    act(&t, 1, "play 2♠");
    act(&t, 2, "play 3♥");
    assert_int_equal(view_int(&t, 2, "total"), 36);
    act(&t, 0, "play J♣");
    assert_int_equal(view_int(&t, 0, "total"), 46);
}

/* The ten as -10 may take the total below zero, and a king makes it
 * 99 from anywhere. Three players: s1 10♣ 2♠ 3♠; s2 K♥ 2♥ 3♥;
 * s0 5♦ 6♦ 7♦; stock 8♣ 8♦ 8♥. */
static void test_ten_below_zero_and_king(void **state)
{
    (void)state;
    struct nn t;
    int l[8];
    float obs[512];
    start(&t, "ninety_nine(players=3)", "10C KH 5D 2S 2H 6D 3S 3H 7D 8C 8D 8H");
    /* At 0 the ten may add or take off ten: ids 10♣ 9, 2♠ 40, 3♠ 41,
     * 10♣-as-minus-ten 56. */
    assert_int_equal(legal(&t, l), 4);
    assert_int_equal(l[0], id(10, CLUBS));
    assert_int_equal(l[1], id(2, SPADES));
    assert_int_equal(l[2], id(3, SPADES));
    assert_int_equal(l[3], 56 + CLUBS);
    act(&t, 1, "play 10♣ -10");
    assert_int_equal(view_int(&t, 1, "total"), -10);
    /* The tensor's total is 0 and below_zero 10/99 (offsets 104, 105). */
    assert_true(t.g.dims.obs_size <= 512);
    t.g.def->observe(&t.g, t.st, 2, obs);
    assert_true(obs[104] == 0.0f);
    assert_true(obs[105] > 10 / 99.0f - 1e-6f && obs[105] < 10 / 99.0f + 1e-6f);
    act(&t, 2, "play K♥");
    assert_int_equal(view_int(&t, 2, "total"), 99);
}

/* With two players a 4 reverses the direction but the other player is
 * next either way. s1 4♣ 6♣ 8♣; s0 5♦ 7♦ 9♦; stock 2♥ 3♥ 5♥. */
static void test_two_players_four_is_a_hold(void **state)
{
    (void)state;
    struct nn t;
    start(&t, "ninety_nine(players=2)", "4C 5D 6C 7D 8C 9D 2H 3H 5H");
    act(&t, 1, "play 4♣");
    view_is(&t, 1, "direction", "anticlockwise");
    assert_int_equal(view_int(&t, 1, "total"), 0);
    act(&t, 0, "play 5♦");
    act(&t, 1, "play 6♣");
    assert_int_equal(view_int(&t, 1, "total"), 11);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
}

/* ---- laying down, pennies, elimination ----------------------------------- */

/* Four players. s1 4♣ 7♣ 8♣; s2 6♦ 6♥ 7♥; s3 2♠ 3♠ 5♠; s0 K♦ 8♦ 8♠;
 * stock 2♥ ... s1 reverses at 0, s0 kings to 99, and s3 (next
 * anticlockwise) holds nothing that fits: he lays down and pays. */
static void test_lay_down_pays_and_next_hand(void **state)
{
    (void)state;
    struct nn t;
    int l[8];
    start(&t, "ninety_nine(players=4)",
          "4C 6D 2S KD 7C 6H 3S 8D 8C 7H 5S 8S 2H 3H 4H");
    act(&t, 1, "play 4♣");
    act(&t, 0, "play K♦");
    assert_int_equal(game_current_seat(&t.g, t.st), 3);
    assert_int_equal(legal(&t, l), 1);
    assert_int_equal(l[0], 60);
    act(&t, 3, "lay down");
    /* One penny paid into the pot: 2 left, return -1 so far. */
    assert_int_equal(view_int_at(&t, 0, "pennies", 3), 2);
    assert_int_equal(view_int(&t, 0, "pot"), 1);
    assert_int_equal(view_int(&t, 0, "last_loser"), 3);
    assert_true(ret(&t, 3) == -1 && ret(&t, 0) == 0);
    /* The deal passes left to seat 1, seat 2 leads, the total starts
     * at 0 and play runs clockwise again. */
    assert_int_equal(view_int(&t, 0, "dealer"), 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    assert_int_equal(view_int(&t, 0, "total"), 0);
    view_is(&t, 0, "direction", "clockwise");
    view_is(&t, 0, "pile", "");
}

/* Picks the lowest legal id for the seat to act (a fixed, simple bot). */
static void play_lowest(struct nn *t)
{
    int l[8];
    int seat = game_current_seat(&t->g, t->st);
    assert_true(legal(t, l) > 0);
    assert_int_equal(game_apply(&t->g, t->st, seat, l[0]), 0);
}

/* Three players, one penny each. s1 kings to 99; s2 (2♠ 3♠ 5♠) lays down
 * and drops out. The deal passes to seat 1 and, seat 2 being out, seat 0
 * leads; seat 2 never acts again and the survivor of seats 0 and 1 wins
 * the pot: +2 for him, -1 for each other seat. */
static void test_elimination_and_last_survivor(void **state)
{
    (void)state;
    struct nn t;
    start(&t, "ninety_nine(players=3,pennies=1)",
          "KC 2S 5D 7C 3S 6D 8C 5S 7D 9C 9D");
    act(&t, 1, "play K♣");
    act(&t, 2, "lay down");
    assert_int_equal(view_int_at(&t, 0, "pennies", 2), 0);
    assert_int_equal(view_int(&t, 0, "dealer"), 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    view_is(&t, 2, "hand", "");
    assert_true(ret(&t, 2) == -1);
    while (!game_is_terminal(&t.g, t.st)) {
        assert_int_not_equal(game_current_seat(&t.g, t.st), 2);
        play_lowest(&t);
    }
    int winner = view_int_at(&t, 0, "pennies", 0) ? 0 : 1;
    assert_int_equal(view_int_at(&t, 0, "pennies", 1 - winner), 0);
    assert_true(ret(&t, winner) == 2);
    assert_true(ret(&t, 1 - winner) == -1);
    assert_true(ret(&t, 2) == -1);
}

/* Two players, one penny: s1 kings, s0 (2♣ 3♣ 5♣) lays down and the game
 * is over at once: +1 / -1. */
static void test_two_player_game_ends_with_last_penny(void **state)
{
    (void)state;
    struct nn t;
    start(&t, "ninety_nine(players=2,pennies=1)", "KS 2C 6S 3C 7S 5C 8S");
    act(&t, 1, "play K♠");
    act(&t, 0, "lay down");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 0) == -1);
}

/* ---- two decks, reshuffles, the cap -------------------------------------- */

/* Above four players two decks are used, and one player may hold the
 * same face twice: the action names the face, so 7♣ is one action, and
 * after playing one copy the other is still held. Five players: pack
 * s1 s2 s3 s4 s0 x3; s1 7♣ 7♣ 2♦. */
static void test_two_decks_same_face(void **state)
{
    (void)state;
    struct nn t;
    int l[8];
    start(&t, "ninety_nine(players=5)",
          "7C 2S 3S 5S 6S 7C 2H 3H 5H 6H 2D 8S 8H 8C 8D JD QD");
    assert_int_equal(legal(&t, l), 2);
    assert_int_equal(l[0], id(7, CLUBS));
    assert_int_equal(l[1], id(2, DIAMONDS));
    act(&t, 1, "play 7♣");
    view_is(&t, 1, "hand", "7♣ 2♦ J♦");
    /* A third 7♣ is more than two decks hold. */
    char err[256];
    uint8_t cards[8];
    assert_true(game_deck_parse(&t.g, "7C 7C 7C", cards, 8, err, sizeof err) <
                0);
    /* With four players (one deck) a second 7♣ is refused at init. */
    struct game g4;
    unsigned char st[2048];
    assert_int_equal(game_make(&g4, "ninety_nine(players=4)", err, sizeof err),
                     0);
    uint8_t two[2] = {(uint8_t)id(7, CLUBS), (uint8_t)id(7, CLUBS)};
    assert_int_equal(game_init(&g4, st, 1, two, 2), ERR_INVAL);
    /* decks=2 forces two decks for four players. */
    assert_int_equal(
        game_make(&g4, "ninety_nine(players=4,decks=2)", err, sizeof err), 0);
    assert_int_equal(game_init(&g4, st, 1, two, 2), 0);
}

/* Sixteen players, one deck, the pack in id order (A♣..K♣, A♦..K♦, ...):
 * seat s >= 1 holds ids s-1, s+15, s+31 and the stock is 10♠ J♠ Q♠ K♠.
 * Seats 1-4 play A♣ (as 1), 2♣, 3♣ and 7♦: total 13 and the stock is
 * empty. */
static void start_sixteen(struct nn *t)
{
    char deck[512] = "";
    size_t u = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++) {
        u += (size_t)card_name_ascii(c, deck + u, sizeof deck - u);
        deck[u++] = ' ';
    }
    deck[u] = '\0';
    start(t, "ninety_nine(players=16,decks=1)", deck);
    assert_int_equal(view_int(t, 0, "stock"), 4);
    act(t, 1, "play A♣ as 1"); /* 1 */
    act(t, 2, "play 2♣");      /* 3 */
    act(t, 3, "play 3♣");      /* 6 */
    act(t, 4, "play 7♦");      /* 13: the fourth draw empties the stock */
}

static const char *const five[] = {"A♣", "2♣", "3♣", "7♦", "5♣"};

/* When the stock runs out the played pile is shuffled into a new
 * stock and the total carries on. */
static void test_stock_runs_out_pile_reshuffled(void **state)
{
    (void)state;
    struct nn t;
    start_sixteen(&t);
    assert_int_equal(view_int(&t, 0, "stock"), 0);
    view_is(&t, 0, "pile", "A♣ 2♣ 3♣ 7♦");
    act(&t, 5, "play 5♣"); /* 18; five played cards reshuffled, one drawn */
    assert_int_equal(view_int(&t, 0, "stock"), 4);
    view_is(&t, 0, "pile", "");
    assert_int_equal(view_int(&t, 0, "total"), 18);
    /* Seat 5 kept 8♦ J♥ and drew one of the five reshuffled cards. */
    struct view v;
    view_open(&v, &t, 5);
    const msgpack_object *h = view_get(&v, "hand");
    assert_int_equal(h->via.array.size, 3);
    int found = 0;
    for (uint32_t i = 0; i < 3; i++)
        for (int k = 0; k < 5; k++)
            found += h->via.array.ptr[i].via.str.size == strlen(five[k]) &&
                     !memcmp(h->via.array.ptr[i].via.str.ptr, five[k],
                             strlen(five[k]));
    assert_int_equal(found, 1);
    view_close(&v);
}

/* After that rebuild everyone saw the five cards go into the new stock:
 * however seat 0 redeals what it cannot see, the stock holds four of them
 * and seat 5 (the only one to draw since) the fifth; no other hand can
 * hold one. The full description (seat -1) shows hands and stock. */
static void test_determinize_after_rebuild(void **state)
{
    (void)state;
    struct nn t;
    start_sixteen(&t);
    act(&t, 5, "play 5♣");
    for (int i = 0; i < 10; i++) {
        unsigned char copy[2048];
        char full[4096];
        struct rng r;
        rng_seed(&r, 40 + (uint64_t)i);
        memcpy(copy, t.st, t.g.def->state_size);
        t.g.def->determinize(&t.g, copy, 0, &r);
        t.g.def->describe(&t.g, copy, -1, full, sizeof full);
        const char *stock = strstr(full, "stock (top first):");
        const char *seat5 = strstr(full, "seat 5"),
                   *seat6 = strstr(full, "seat 6");
        assert_non_null(stock);
        int in_stock = 0, in_seat5 = 0;
        for (int k = 0; k < 5; k++) {
            in_stock += strstr(stock, five[k]) != NULL;
            const char *at = strstr(full, five[k]);
            in_seat5 += at && at > seat5 && at < seat6;
        }
        assert_int_equal(in_stock, 4);
        assert_int_equal(in_seat5, 1);
    }
}

/* Max_turns bounds the moves; at the cap the survivors share the pot.
 * Three players; s1 kings and s2 (2♠ 3♠ 5♠) lays down (two moves), then
 * the lowest ids are played until the tenth move ends the game. A hand
 * needs a play before its lay-down, so ten moves hold at most five
 * lay-downs, too few to put two players out (six): the cap is what ends
 * it. Each return is pennies - 3, plus pot / survivors for a survivor. */
static void test_cap_survivors_share_pot(void **state)
{
    (void)state;
    struct nn t;
    start(&t, "ninety_nine(players=3,max_turns=10)",
          "KC 2S 5D 7C 3S 6D 8C 5S 7D 9C 9D");
    assert_int_equal(t.g.dims.max_length, 10);
    act(&t, 1, "play K♣");
    act(&t, 2, "lay down");
    for (int m = 2; m < 10; m++) {
        assert_false(game_is_terminal(&t.g, t.st));
        play_lowest(&t);
    }
    assert_true(game_is_terminal(&t.g, t.st));
    int pot = view_int(&t, 0, "pot"), alive = 0;
    assert_true(pot >= 1);
    for (int s = 0; s < 3; s++)
        alive += view_int_at(&t, 0, "pennies", s) > 0;
    assert_true(alive >= 2);
    double sum = 0;
    for (int s = 0; s < 3; s++) {
        int p = view_int_at(&t, 0, "pennies", s);
        double want = p - 3 + (p ? (double)pot / alive : 0);
        assert_true(ret(&t, s) > want - 1e-9 && ret(&t, s) < want + 1e-9);
        sum += ret(&t, s);
    }
    assert_true(sum > -1e-9 && sum < 1e-9);
}

/* ---- names, options, hidden information ---------------------------------- */

static void test_action_names(void **state)
{
    (void)state;
    struct nn t;
    char name[GAME_NAME_MAX];
    start(&t, "ninety_nine", NULL);
    const struct {
        int a;
        const char *name;
    } want[] = {
        {id(ACE, SPADES), "play A♠ as 1"},
        {52 + SPADES, "play A♠ as 11"},
        {id(10, HEARTS), "play 10♥ +10"},
        {56 + HEARTS, "play 10♥ -10"},
        {id(7, CLUBS), "play 7♣"},
        {id(KING, DIAMONDS), "play K♦"},
        {60, "lay down"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        game_action_name(&t.g, t.st, want[i].a, name, sizeof name);
        assert_string_equal(name, want[i].name);
    }
    assert_int_equal(t.g.dims.num_actions, 61);
}

static void test_options_and_bounds(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    /* Defaults: 4 players, 3 pennies: returns within -3 .. +9. */
    assert_int_equal(game_make(&g, "ninety_nine", err, sizeof err), 0);
    assert_int_equal(g.dims.players, 4);
    assert_true(g.dims.ret_low == -3 && g.dims.ret_high == 9);
    /* The original's five pennies: -5 .. +5 with two players. */
    assert_int_equal(
        game_make(&g, "ninety_nine(players=2,pennies=5)", err, sizeof err), 0);
    assert_true(g.dims.ret_low == -5 && g.dims.ret_high == 5);
    assert_int_equal(game_make(&g, "ninety_nine(players=1)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "players"));
    assert_int_equal(game_make(&g, "ninety_nine(decks=3)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "decks"));
    assert_int_equal(game_make(&g, "ninety_nine(pennies=0)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "pennies"));
}

/* Determinizing for seat 2 in the page example keeps what seat 2 sees:
 * its tensor, its view, its own hand; the other hands are redealt. */
static void test_determinize_keeps_own_view(void **state)
{
    (void)state;
    struct nn t;
    start(&t, "ninety_nine(players=4)",
          "KS 9H 4D 4S 8C 10H 5C 7D 2D 3C 6C 2C 5H 6H 7H 8H 9D");
    act(&t, 1, "play K♠");
    float a[512], b[512];
    char before[2048], after[2048];
    int changed = 0;
    t.g.def->observe(&t.g, t.st, 2, a);
    t.g.def->describe(&t.g, t.st, 2, before, sizeof before);
    for (int i = 0; i < 20; i++) {
        unsigned char copy[2048];
        struct rng r;
        rng_seed(&r, (uint64_t)i + 1);
        memcpy(copy, t.st, t.g.def->state_size);
        t.g.def->determinize(&t.g, copy, 2, &r);
        t.g.def->observe(&t.g, copy, 2, b);
        assert_memory_equal(a, b, sizeof(float) * (size_t)t.g.dims.obs_size);
        t.g.def->describe(&t.g, copy, 2, after, sizeof after);
        assert_string_equal(before, after);
        changed += memcmp(copy, t.st, t.g.def->state_size) != 0;
    }
    assert_true(changed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_sequence),
        cmocka_unit_test(test_ace_one_or_eleven),
        cmocka_unit_test(test_ace_eleven_and_ten_up),
        cmocka_unit_test(test_ten_below_zero_and_king),
        cmocka_unit_test(test_two_players_four_is_a_hold),
        cmocka_unit_test(test_lay_down_pays_and_next_hand),
        cmocka_unit_test(test_elimination_and_last_survivor),
        cmocka_unit_test(test_two_player_game_ends_with_last_penny),
        cmocka_unit_test(test_two_decks_same_face),
        cmocka_unit_test(test_stock_runs_out_pile_reshuffled),
        cmocka_unit_test(test_determinize_after_rebuild),
        cmocka_unit_test(test_cap_survivors_share_pot),
        cmocka_unit_test(test_action_names),
        cmocka_unit_test(test_options_and_bounds),
        cmocka_unit_test(test_determinize_keeps_own_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
