/* test_thirty_one.c — Thirty-One rule facts from the family games page and
 * docs/games/thirty_one.md.
 *
 * Every test deals from an explicit pack. Seat 0 deals first and cards go
 * one at a time clockwise from the dealer's left (seat 1), three rounds,
 * then one card is turned up to start the discard pile and the rest is
 * the stock. With 3 players the pack order is s1 s2 s0 s1 s2 s0 s1 s2 s0,
 * upcard, stock...; with 2 players s1 s0 s1 s0 s1 s0, upcard, stock...
 * Hand values, lives and outcomes are read through the game (its view and
 * returns) and compared with values worked out by hand in the comments.
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
#include "engine/game.h"
#include "engine/games/thirty_one.h"

/* ---- fixture ----------------------------------------------------------- */

struct t31 {
    struct game g;          /* configured game */
    unsigned char st[4096]; /* its state */
    msgpack_sbuffer sb;     /* the last view packed */
    msgpack_unpacked u;     /* the last view unpacked */
    bool open;              /* sb and u hold a view */
};

static void view_free(struct t31 *t)
{
    if (!t->open)
        return;
    msgpack_unpacked_destroy(&t->u);
    msgpack_sbuffer_destroy(&t->sb);
    t->open = false;
}

/* Makes spec and starts it from the pack prefix deck (card names). */
static void start(struct t31 *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[CARDS_IN_PACK];
    memset(t, 0, sizeof *t);
    assert_int_equal(game_make(&t->g, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int n = game_deck_parse(&t->g, deck, cards, CARDS_IN_PACK, err, sizeof err);
    assert_true(n > 0);
    assert_int_equal(game_init(&t->g, t->st, 7, cards, n), 0);
}

/* The current seat plays the action named text; asserts it was legal. */
static void act(struct t31 *t, int seat, const char *text)
{
    char err[256];
    assert_int_equal(game_current_seat(&t->g, t->st), seat);
    int id = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (id < 0)
        fail_msg("%s", err);
    assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
}

static double ret(struct t31 *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

static msgpack_object *map_get(msgpack_object *m, const char *key)
{
    assert_int_equal(m->type, MSGPACK_OBJECT_MAP);
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            return &kv->val;
    }
    fail_msg("view has no key %s", key);
    return NULL;
}

/* seat's view value under key (and sub-key sub of that map, if given). */
static msgpack_object *view_get(struct t31 *t, int seat, const char *key,
                                const char *sub)
{
    msgpack_packer pk;
    view_free(t);
    msgpack_sbuffer_init(&t->sb);
    msgpack_unpacked_init(&t->u);
    t->open = true;
    msgpack_packer_init(&pk, &t->sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&t->u, t->sb.data, t->sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object *o = map_get(&t->u.data, key);
    return sub ? map_get(o, sub) : o;
}

static int obj_int(const msgpack_object *o)
{
    assert_true(o->type == MSGPACK_OBJECT_POSITIVE_INTEGER ||
                o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER);
    return (int)o->via.i64;
}

static int view_int(struct t31 *t, int seat, const char *key)
{
    return obj_int(view_get(t, seat, key, NULL));
}

/* Element idx of the int array under key/sub. */
static int view_int_at(struct t31 *t, int seat, const char *key,
                       const char *sub, int idx)
{
    msgpack_object *o = view_get(t, seat, key, sub);
    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    return obj_int(&o->via.array.ptr[idx]);
}

/* Asserts the string under key/sub (element idx of an array if idx >= 0). */
static void view_str_is(struct t31 *t, int seat, const char *key,
                        const char *sub, int idx, const char *want)
{
    msgpack_object *o = view_get(t, seat, key, sub);
    if (idx >= 0)
        o = &o->via.array.ptr[idx];
    assert_int_equal(o->type, MSGPACK_OBJECT_STR);
    char got[128];
    snprintf(got, sizeof got, "%.*s", (int)o->via.str.size, o->via.str.ptr);
    assert_string_equal(got, want);
}

/* Asserts the card list under key/sub (list idx of a list of lists if idx
 * >= 0), joined with spaces, in card id order (♣ ♦ ♥ ♠, A..K). */
static void view_cards_are(struct t31 *t, int seat, const char *key,
                           const char *sub, int idx, const char *want)
{
    msgpack_object *o = view_get(t, seat, key, sub);
    if (idx >= 0)
        o = &o->via.array.ptr[idx];
    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    char got[512] = "";
    size_t w = 0;
    for (uint32_t i = 0; i < o->via.array.size; i++) {
        msgpack_object *s = &o->via.array.ptr[i];
        w += (size_t)snprintf(got + w, sizeof got - w, "%s%.*s", i ? " " : "",
                              (int)s->via.str.size, s->via.str.ptr);
    }
    assert_string_equal(got, want);
}

/* True if the action named text is legal for seat now. */
static bool is_legal(struct t31 *t, int seat, const char *text)
{
    char err[256];
    return game_action_parse(&t->g, t->st, seat, text, err, sizeof err) >= 0;
}

/* True if the card list under key in seat's view holds the card name. */
static bool list_has(struct t31 *t, int seat, const char *key, const char *card)
{
    msgpack_object *o = view_get(t, seat, key, NULL);
    for (uint32_t i = 0; i < o->via.array.size; i++) {
        msgpack_object *s = &o->via.array.ptr[i];
        if (s->via.str.size == strlen(card) &&
            !memcmp(s->via.str.ptr, card, strlen(card)))
            return true;
    }
    return false;
}

/* ---- hand values (the page's examples) ---------------------------------- */

static void test_hand_values_from_rule_book(void **state)
{
    (void)state;
    struct t31 t;
    /* Three players: s1 K♥8♥5♥, s2 A♦6♠4♠, s0 J♣7♦4♥; up 2♣; stock 3♣ 2♦. */
    start(&t, "thirty_one(players=3)", "KH AD JC 8H 6S 7D 5H 4S 4H 2C 3C 2D");
    /* K-8-5 all hearts: 10 + 8 + 5 = 23. */
    assert_int_equal(view_int(&t, 1, "value"), 23);
    /* A-6-4 with 6-4 in spades: the lone ace (11) beats 6 + 4 = 10. */
    assert_int_equal(view_int(&t, 2, "value"), 11);
    /* J-7-4 in three suits: the highest card, the jack, 10. */
    assert_int_equal(view_int(&t, 0, "value"), 10);
    /* The same order decides a showdown: s1 knocks, s2 and s0 draw and
     * throw the card drawn, so the hands stay as dealt; 10 is lowest and
     * s0 alone loses a life (one penny). */
    act(&t, 1, "knock");
    act(&t, 2, "draw");
    act(&t, 2, "discard 3♣");
    act(&t, 0, "draw");
    act(&t, 0, "discard 2♦");
    assert_true(ret(&t, 0) == -1);
    assert_true(ret(&t, 1) == 0);
    assert_true(ret(&t, 2) == 0);
    view_str_is(&t, 0, "last_round", "end", -1, "knock");
    view_free(&t);
}

static void test_q98_and_thirty_one(void **state)
{
    (void)state;
    struct t31 t;
    /* Two players: s1 Q♣9♥8♥, s0 A♠10♠2♣; up 3♦; stock 4♦ K♠. */
    start(&t, "thirty_one(players=2)", "QC AS 9H 10S 8H 2C 3D 4D KS");
    /* Q-9-8 with 9-8 in hearts: 9 + 8 = 17 beats the queen's 10. */
    assert_int_equal(view_int(&t, 1, "value"), 17);
    /* A-10 of spades: 21. */
    assert_int_equal(view_int(&t, 0, "value"), 21);
    act(&t, 1, "draw");
    act(&t, 1, "discard 4♦");
    act(&t, 0, "draw");
    /* Holding A♠10♠K♠2♣ the four cards' best suit is 31 already. */
    assert_int_equal(view_int(&t, 0, "value"), 31);
    /* Throwing 2♣ leaves A + two ten-point cards of one suit: 31, the
     * maximum, declared at once; the other player loses a life. */
    act(&t, 0, "discard 2♣");
    view_str_is(&t, 0, "last_round", "end", -1, "31");
    view_cards_are(&t, 1, "last_round", "shown", 0, "A♠ 10♠ K♠");
    assert_true(ret(&t, 1) == -1);
    assert_true(ret(&t, 0) == 0);
    view_free(&t);
}

/* ---- knocking ---------------------------------------------------------- */

static void test_knocker_tied_for_lowest_is_safe(void **state)
{
    (void)state;
    struct t31 t;
    /* Four players, order s1 s2 s3 s0: s1 7♣5♣2♦ = 12 (clubs), s2 9♥3♥4♣ =
     * 12 (hearts), s3 Q♠2♠3♦ = 12 (spades), s0 K♦9♦6♦ = 25; up A♥; stock
     * 2♥ 3♣ 4♠, each thrown straight back so no hand changes. */
    start(&t, "thirty_one", "7C 9H QS KD 5C 3H 2S 9D 2D 4C 3D 6D AH 2H 3C 4S");
    act(&t, 1, "knock");
    /* One knock per round: the others may only draw or take. */
    assert_false(is_legal(&t, 2, "knock"));
    act(&t, 2, "draw");
    /* A card drawn from the stock may be thrown at once. */
    act(&t, 2, "discard 2♥");
    act(&t, 3, "draw");
    act(&t, 3, "discard 3♣");
    act(&t, 0, "draw");
    act(&t, 0, "discard 4♠");
    /* Lowest is 12, held by s1 (the knocker), s2 and s3: the knocker is
     * safe and each other player tied for lowest loses a life. */
    assert_true(ret(&t, 1) == 0);
    assert_true(ret(&t, 2) == -1);
    assert_true(ret(&t, 3) == -1);
    assert_true(ret(&t, 0) == 0);
    assert_int_equal(view_int_at(&t, 0, "last_round", "lost", 2), 1);
    assert_int_equal(view_int_at(&t, 0, "last_round", "lost", 1), 0);
    view_cards_are(&t, 0, "last_round", "shown", 0, "6♦ 9♦ K♦");
    /* The deal passes left: seat 1 deals round 2 and seat 2 acts. */
    assert_int_equal(view_int(&t, 0, "dealer"), 1);
    assert_int_equal(game_current_seat(&t.g, t.st), 2);
    view_free(&t);
}

static void test_ties_below_knocker_all_lose(void **state)
{
    (void)state;
    struct t31 t;
    /* Three players: s1 K♥Q♥2♣ = 20 knocks; s2 5♣3♦2♥ = 5; s0 5♥3♠2♦ = 5;
     * up 4♦; stock 6♣ 7♣. Both 5s tie for lowest and both lose a life. */
    start(&t, "thirty_one(players=3)", "KH 5C 5H QH 3D 3S 2C 2H 2D 4D 6C 7C");
    act(&t, 1, "knock");
    act(&t, 2, "draw");
    act(&t, 2, "discard 6♣");
    act(&t, 0, "draw");
    act(&t, 0, "discard 7♣");
    assert_true(ret(&t, 1) == 0);
    assert_true(ret(&t, 2) == -1);
    assert_true(ret(&t, 0) == -1);
    view_free(&t);
}

/* Three players: s1 5♣3♦2♥ = 5 knocks; s2 K♥Q♥2♣ = 20; s0 A♠9♠3♣ = 20;
 * up 4♦; stock 6♣ 7♣ (thrown back). s1 is the sole lowest. */
#define SOLE_LOW_KNOCKER "5C KH AS 3D QH 9S 2H 2C 3C 4D 6C 7C"

static void knock_and_pass(struct t31 *t)
{
    act(t, 1, "knock");
    act(t, 2, "draw");
    act(t, 2, "discard 6♣");
    act(t, 0, "draw");
    act(t, 0, "discard 7♣");
}

static void test_sole_lowest_knocker_pays_two(void **state)
{
    (void)state;
    struct t31 t;
    start(&t, "thirty_one(players=3)", SOLE_LOW_KNOCKER);
    knock_and_pass(&t);
    /* A knocker with the sole lowest hand pays two pennies: 3 -> 1. */
    assert_true(ret(&t, 1) == -2);
    assert_true(ret(&t, 2) == 0 && ret(&t, 0) == 0);
    assert_int_equal(view_int_at(&t, 0, "pennies", NULL, 1), 1);
    view_str_is(&t, 0, "status", NULL, 1, "in");
    assert_int_equal(view_int(&t, 0, "kitty"), 2);
    view_free(&t);
}

static void test_knocker_with_one_penny_goes_on_county(void **state)
{
    (void)state;
    struct t31 t;
    start(&t, "thirty_one(players=3,lives=1)", SOLE_LOW_KNOCKER);
    knock_and_pass(&t);
    /* He owes two but has one: he pays it and is "on the county", still
     * in the game and dealt into the next round. */
    assert_true(ret(&t, 1) == -1);
    view_str_is(&t, 1, "status", NULL, 1, "county");
    assert_false(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_get(&t, 1, "hand", NULL)->via.array.size, 3);
    view_free(&t);
}

static void test_losing_on_the_county_is_out(void **state)
{
    (void)state;
    struct t31 t;
    /* lives=0: everyone starts on the county. */
    start(&t, "thirty_one(players=3,lives=0)", SOLE_LOW_KNOCKER);
    view_str_is(&t, 1, "status", NULL, 1, "county");
    knock_and_pass(&t);
    /* The knocker loses while on the county: he is out, and no penny
     * changes hands. */
    view_str_is(&t, 0, "status", NULL, 1, "out");
    assert_int_equal(view_int(&t, 0, "kitty"), 0);
    assert_false(game_is_terminal(&t.g, t.st));
    /* The deal passes to the next player still in left of seat 0: seat 1
     * is out, so seat 2 deals and seat 0 acts; seat 1 gets no cards. */
    assert_int_equal(view_int(&t, 0, "dealer"), 2);
    assert_int_equal(game_current_seat(&t.g, t.st), 0);
    assert_int_equal(view_get(&t, 1, "hand", NULL)->via.array.size, 0);
    view_free(&t);
}

static void test_thirty_one_after_knock_knocker_pays_one(void **state)
{
    (void)state;
    struct t31 t;
    /* The sole-lowest knocker's deal again, but the stock now starts with
     * A♥: s2 (K♥Q♥2♣) draws it, throws 2♣ and holds A♥K♥Q♥ = 31. */
    start(&t, "thirty_one(players=3)", "5C KH AS 3D QH 9S 2H 2C 3C 4D AH");
    act(&t, 1, "knock");
    act(&t, 2, "draw");
    act(&t, 2, "discard 2♣");
    /* 31 ends the round at once (s0 gets no final turn): everyone else
     * pays one penny, the knocker only one though he was lowest. */
    view_str_is(&t, 0, "last_round", "end", -1, "31");
    assert_true(ret(&t, 1) == -1);
    assert_true(ret(&t, 0) == -1);
    assert_true(ret(&t, 2) == 0);
    view_free(&t);
}

/* ---- 31 at the deal ---------------------------------------------------- */

static void test_thirty_one_on_the_deal(void **state)
{
    (void)state;
    struct t31 t;
    /* Three players: s2 is dealt A♠K♠Q♠ = 31; s1 2♣4♦6♥, s0 3♣5♦7♥. */
    start(&t, "thirty_one(players=3)", "2C AS 3C 4D KS 5D 6H QS 7H");
    /* Declared at once: both others lose a life; a new round is dealt by
     * the next dealer, seat 1. */
    view_str_is(&t, 0, "last_round", "end", -1, "31 at deal");
    view_cards_are(&t, 0, "last_round", "shown", 2, "A♠ Q♠ K♠");
    assert_true(ret(&t, 0) == -1);
    assert_true(ret(&t, 1) == -1);
    assert_true(ret(&t, 2) == 0);
    assert_int_equal(view_int(&t, 0, "dealer"), 1);
    assert_int_equal(view_int(&t, 0, "round"), 2);
    view_free(&t);
}

static void test_several_thirty_ones_on_the_deal(void **state)
{
    (void)state;
    struct t31 t;
    /* Four players: s1 A♠K♠Q♠ and s3 A♥K♥J♥ both hold 31; s2 2♣4♣6♦,
     * s0 3♣5♣7♦. All players other than those with 31 lose. */
    start(&t, "thirty_one", "AS 2C AH 3C KS 4C KH 5C QS 6D JH 7D");
    assert_true(ret(&t, 0) == -1);
    assert_true(ret(&t, 1) == 0);
    assert_true(ret(&t, 2) == -1);
    assert_true(ret(&t, 3) == 0);
    view_free(&t);
}

/* ---- taking from the discard pile -------------------------------------- */

static void test_taken_card_cannot_be_thrown(void **state)
{
    (void)state;
    struct t31 t;
    /* Three players: s1 2♣4♦6♥, s2 3♣5♦7♥, s0 8♣9♦10♥; up K♣. */
    start(&t, "thirty_one(players=3)", "2C 3C 8C 4D 5D 9D 6H 7H 10H KC");
    act(&t, 1, "take K♣");
    /* K♣ must be kept: the three old cards are the only discards. */
    assert_false(is_legal(&t, 1, "discard K♣"));
    assert_int_equal(game_apply(&t.g, t.st, 1, 3 + 12), ERR_ILLEGAL_ACTION);
    assert_true(is_legal(&t, 1, "discard 2♣"));
    assert_true(is_legal(&t, 1, "discard 4♦"));
    assert_true(is_legal(&t, 1, "discard 6♥"));
    /* The take is public: everyone sees K♣ in seat 1's hand. */
    view_cards_are(&t, 0, "known", NULL, 1, "K♣");
    act(&t, 1, "discard 4♦");
    /* Seat 2 now sees 4♦ on top; K♣ stays known, 4♦ is no longer. */
    assert_true(is_legal(&t, 2, "take 4♦"));
    view_cards_are(&t, 2, "known", NULL, 1, "K♣");
    view_free(&t);
}

static void test_two_players_own_discard_after_knock(void **state)
{
    (void)state;
    struct t31 t;
    /* Two players: s1 2♣7♥9♠, s0 K♦Q♦5♦ = 25; up 3♣; stock 4♠. */
    start(&t, "thirty_one(players=2)", "2C KD 7H QD 9S 5D 3C 4S");
    act(&t, 1, "draw");
    act(&t, 1, "discard 9♠"); /* s1 breaks up his spades */
    act(&t, 0, "knock");
    /* The page's one case: with two players and the opponent knocking,
     * the top card is s1's own discard and he may take it back... */
    assert_true(is_legal(&t, 1, "take 9♠"));
    act(&t, 1, "take 9♠");
    /* ...but like any card taken from the pile he must keep it. */
    assert_false(is_legal(&t, 1, "discard 9♠"));
    assert_int_equal(game_apply(&t.g, t.st, 1, 3 + 47), ERR_ILLEGAL_ACTION);
    act(&t, 1, "discard 2♣");
    /* s1 holds 7♥ 4♠ 9♠ = 13 < 25: he loses a life, the knocker is safe. */
    assert_true(ret(&t, 1) == -1);
    assert_true(ret(&t, 0) == 0);
    view_free(&t);
}

/* ---- stock, caps, options ---------------------------------------------- */

/* A full pack: s1 2♣3♦4♥, s0 5♣6♦7♥, then every other card in id order
 * (A♣ turned up, the stock 3♣ 4♣ 6♣ ... K♠). */
static int full_pack(uint8_t *deck)
{
    static const int hands[6][2] = {{2, CLUBS},    {5, CLUBS},  {3, DIAMONDS},
                                    {6, DIAMONDS}, {4, HEARTS}, {7, HEARTS}};
    hand_t used = 0;
    int n = 0;
    for (int i = 0; i < 6; i++) {
        deck[n] = (uint8_t)card_make(hands[i][0], hands[i][1]);
        used |= card_bit(deck[n++]);
    }
    for (int c = 0; c < CARDS_IN_PACK; c++)
        if (!hand_has(used, c))
            deck[n++] = (uint8_t)c;
    return n;
}

/* Plays "draw" and throws the card drawn (the pack's next stock card). */
static void draw_and_throw(struct t31 *t, int seat, int card)
{
    char name[32], cn[8];
    card_name(card, cn, sizeof cn);
    snprintf(name, sizeof name, "discard %s", cn);
    act(t, seat, "draw");
    act(t, seat, name);
}

static void test_stock_exhausted_reshuffles_discards(void **state)
{
    (void)state;
    struct t31 t;
    char err[256];
    uint8_t deck[CARDS_IN_PACK];
    int n = full_pack(deck);
    memset(&t, 0, sizeof t);
    assert_int_equal(game_make(&t.g, "thirty_one(players=2)", err, sizeof err),
                     0);
    assert_int_equal(game_init(&t.g, t.st, 7, deck, n), 0);
    /* 52 - 6 dealt - 1 up = 45 stock cards, drawn and thrown one by one
     * (hands unchanged, no 31, nobody knocks): s1, s0, s1, ... */
    for (int i = 0; i < 45; i++)
        draw_and_throw(&t, i % 2 ? 0 : 1, deck[7 + i]);
    assert_int_equal(view_int(&t, 0, "stock"), 0);
    assert_int_equal(view_get(&t, 0, "pile", NULL)->via.array.size, 46);
    /* s0 draws from the empty stock: the 45 discards below the top (K♠,
     * the last thrown) are shuffled into a new stock and he draws one. */
    act(&t, 0, "draw");
    assert_int_equal(view_int(&t, 0, "stock"), 44);
    view_cards_are(&t, 0, "pile", NULL, -1, "K♠");
    msgpack_object *re = view_get(&t, 0, "reshuffled", NULL);
    assert_int_equal(re->via.array.size, 45);
    /* The new stock holds neither hand's cards nor the top card. */
    view_cards_are(&t, 0, "reshuffled", NULL, -1,
                   "A♣ 3♣ 4♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ "
                   "A♦ 2♦ 4♦ 5♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ "
                   "A♥ 2♥ 3♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ "
                   "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠");
    assert_int_equal(view_get(&t, 0, "hand", NULL)->via.array.size, 4);
    view_free(&t);
}

static void test_determinize_after_reshuffle_keeps_old_hand(void **state)
{
    (void)state;
    struct t31 t;
    char err[256];
    uint8_t deck[CARDS_IN_PACK];
    int n = full_pack(deck);
    memset(&t, 0, sizeof t);
    assert_int_equal(game_make(&t.g, "thirty_one(players=2)", err, sizeof err),
                     0);
    assert_int_equal(game_init(&t.g, t.st, 7, deck, n), 0);
    for (int i = 0; i < 45; i++)
        draw_and_throw(&t, i % 2 ? 0 : 1, deck[7 + i]);
    act(&t, 0, "draw");
    /* After the reshuffle the stock is a public set, and s1 has not drawn
     * since, so s0 knows s1 still holds his three other cards: 2♣ 3♦ 4♥.
     * A determinization from s0's side must keep them there. */
    struct rng r;
    rng_seed(&r, 99);
    t.g.def->determinize(&t.g, t.st, 0, &r);
    view_cards_are(&t, 1, "hand", NULL, -1, "2♣ 3♦ 4♥");
    /* From s1's side: s0 drew once since the reshuffle, so exactly one of
     * his four cards can come from the new stock; his dealt 5♣ 6♦ 7♥ are
     * outside it and stay in his hand. */
    rng_seed(&r, 5);
    t.g.def->determinize(&t.g, t.st, 1, &r);
    assert_int_equal(view_get(&t, 0, "hand", NULL)->via.array.size, 4);
    assert_true(list_has(&t, 0, "hand", "5♣"));
    assert_true(list_has(&t, 0, "hand", "6♦"));
    assert_true(list_has(&t, 0, "hand", "7♥"));
    view_free(&t);
}

/* Long rounds (always drawing, never knocking) run through reshuffles; at
 * every decision a determinization from each seat must leave that seat's
 * tensor unchanged and keep every card in exactly one place, and play goes
 * on from the determinized state (as a search playout would). */
static void test_determinize_through_reshuffles(void **state)
{
    (void)state;
    struct t31 t;
    struct rng r;
    int reshuffled = 0, legal[8];
    float a[2048], b[2048];
    start(&t, "thirty_one(players=3,max_turns=200)", "2C");
    rng_seed(&r, 11);
    assert_true(t.g.dims.obs_size <= 2048);
    for (int step = 0; step < 3000 && !game_is_terminal(&t.g, t.st); step++) {
        int seat = game_current_seat(&t.g, t.st);
        for (int p = 0; p < 3; p++) {
            t.g.def->observe(&t.g, t.st, p, a);
            t.g.def->determinize(&t.g, t.st, p, &r);
            t.g.def->observe(&t.g, t.st, p, b);
            assert_memory_equal(a, b, sizeof a[0] * (size_t)t.g.dims.obs_size);
        }
        /* Hands, pile and stock still make one whole pack. */
        int cards = view_int(&t, 0, "stock");
        cards += (int)view_get(&t, 0, "pile", NULL)->via.array.size;
        for (int p = 0; p < 3; p++)
            cards += (int)view_get(&t, p, "hand", NULL)->via.array.size;
        assert_int_equal(cards, CARDS_IN_PACK);
        reshuffled += view_get(&t, 0, "reshuffled", NULL)->via.array.size > 0;
        int n = t.g.def->legal(&t.g, t.st, seat, legal);
        int pick = legal[n > 1 ? (int)rng_below(&r, (uint32_t)n) : 0];
        if (legal[0] == 0)
            pick = 0; /* always draw from the stock */
        assert_int_equal(game_apply(&t.g, t.st, seat, pick), 0);
    }
    assert_true(reshuffled > 0);
    view_free(&t);
}

/* The best one-suit total of h, card by card: A 11, 2..10 their pips,
 * J Q K 10 (the rule book's count). */
static int value_by_hand(hand_t h)
{
    int sum[4] = {0}, best = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++) {
        int r = card_rank(c);
        if (hand_has(h, c))
            sum[card_suit(c)] += r == 1 ? 11 : r > 10 ? 10 : r;
    }
    for (int s = 0; s < 4; s++)
        best = sum[s] > best ? sum[s] : best;
    return best;
}

/* Facts the state keeps up to date as play goes (the cards of the
 * discard pile), and the hand value's lookups, match a count from scratch
 * at every step of random play (never knocking, so that rounds run
 * through reshuffles), for 2 to 9 players. */
static void test_kept_facts_match_random_play(void **state)
{
    (void)state;
    struct rng r;
    int legal[T31_NUM_ACTIONS], reshuffles = 0, takes = 0;
    rng_seed(&r, 23);
    for (int players = 2; players <= 9; players++) {
        struct t31 t;
        char spec[64];
        snprintf(spec, sizeof spec, "thirty_one(players=%d,max_turns=200)",
                 players);
        start(&t, spec, "2C");
        const struct thirty_one_state *st = (const void *)t.st;
        for (int step = 0; step < 4000 && !game_is_terminal(&t.g, t.st);
             step++) {
            int seat = game_current_seat(&t.g, t.st);
            hand_t pile = 0;
            for (int i = 0; i < st->npile; i++)
                pile |= card_bit(st->pile[i]);
            assert_true(st->piled == pile);
            for (int p = 0; p < players; p++)
                assert_int_equal(thirty_one__hand_value(st->hand[p]),
                                 value_by_hand(st->hand[p]));
            reshuffles += st->restock != 0;
            int n = t.g.def->legal(&t.g, t.st, seat, legal);
            int pick = legal[(int)rng_below(&r, (uint32_t)n)];
            if (pick == T31_KNOCK)
                pick = T31_DRAW; /* long rounds: through reshuffles */
            takes += pick == T31_TAKE;
            assert_int_equal(game_apply(&t.g, t.st, seat, pick), 0);
        }
    }
    assert_true(reshuffles > 0 && takes > 0);
}

static void test_turn_cap_voids_round(void **state)
{
    (void)state;
    struct t31 t;
    /* max_turns=3: three plain turns and the round ends void. */
    start(&t, "thirty_one(players=3,max_turns=3)",
          "2C 3C 8C 4D 5D 9D 6H 7H 10H KC AS 2S 3S");
    draw_and_throw(&t, 1, card_make(ACE, SPADES));
    draw_and_throw(&t, 2, card_make(2, SPADES));
    draw_and_throw(&t, 0, card_make(3, SPADES));
    /* Nobody pays; the deal passes to seat 1 for round 2. */
    view_str_is(&t, 0, "last_round", "end", -1, "void");
    for (int p = 0; p < 3; p++)
        assert_true(ret(&t, p) == 0);
    assert_int_equal(view_int(&t, 0, "dealer"), 1);
    assert_int_equal(view_int(&t, 0, "round"), 2);
    view_free(&t);
}

static void test_no_knock_on_first_turn_option(void **state)
{
    (void)state;
    struct t31 t;
    start(&t, "thirty_one(players=3,knock_first_turn=false)",
          "2C 3C 8C 4D 5D 9D 6H 7H 10H KC AS 2S 3S");
    /* Until every player has had a turn this round, no knock. */
    assert_false(is_legal(&t, 1, "knock"));
    draw_and_throw(&t, 1, card_make(ACE, SPADES));
    assert_false(is_legal(&t, 2, "knock"));
    draw_and_throw(&t, 2, card_make(2, SPADES));
    assert_false(is_legal(&t, 0, "knock"));
    draw_and_throw(&t, 0, card_make(3, SPADES));
    assert_true(is_legal(&t, 1, "knock"));
    view_free(&t);
    /* By default the very first player may knock. */
    start(&t, "thirty_one(players=3)", "2C 3C 8C 4D 5D 9D 6H 7H 10H KC");
    assert_true(is_legal(&t, 1, "knock"));
    view_free(&t);
}

static void test_last_survivor_takes_the_kitty(void **state)
{
    (void)state;
    struct t31 t;
    /* lives=1, county=false: s2's 31 on the deal costs s1 and s0 their
     * only penny, which puts them out. s2 is the last one left and takes
     * the kitty of 2: returns +2, -1, -1, summing to zero. */
    start(&t, "thirty_one(players=3,lives=1,county=false)",
          "2C AS 3C 4D KS 5D 6H QS 7H");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(ret(&t, 2) == 2);
    assert_true(ret(&t, 1) == -1);
    assert_true(ret(&t, 0) == -1);
    view_str_is(&t, 2, "status", NULL, 0, "out");
    view_free(&t);
}

static void test_history_and_names(void **state)
{
    (void)state;
    struct t31 t;
    char name[GAME_NAME_MAX];
    start(&t, "thirty_one(players=3)", "2C 3C 8C 4D 5D 9D 6H 7H 10H KC AS");
    /* Fixed ids: 0 draw, 1 take, 2 knock, 3 + card discard. */
    game_action_name(&t.g, t.st, 0, name, sizeof name);
    assert_string_equal(name, "draw");
    game_action_name(&t.g, t.st, 1, name, sizeof name);
    assert_string_equal(name, "take K♣");
    game_action_name(&t.g, t.st, 2, name, sizeof name);
    assert_string_equal(name, "knock");
    game_action_name(&t.g, t.st, 3 + card_make(7, HEARTS), name, sizeof name);
    assert_string_equal(name, "discard 7♥");
    act(&t, 1, "take kc");
    act(&t, 1, "discard 2c");
    act(&t, 2, "draw");
    /* History: [seat, name] pairs, the drawn card not shown. */
    static const int seats[3] = {1, 1, 2};
    static const char *const names[3] = {"take K♣", "discard 2♣", "draw"};
    msgpack_object *h = view_get(&t, 0, "history", NULL);
    assert_int_equal(h->via.array.size, 3);
    for (int i = 0; i < 3; i++) {
        msgpack_object *e = h->via.array.ptr[i].via.array.ptr;
        assert_int_equal(obj_int(&e[0]), seats[i]);
        assert_int_equal(e[1].via.str.size, strlen(names[i]));
        assert_memory_equal(e[1].via.str.ptr, names[i], strlen(names[i]));
    }
    view_free(&t);
}

static void test_configure_rejects_bad_combinations(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g,
                               "thirty_one(knock_first_turn=false,"
                               "max_turns=4)",
                               err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "knock_first_turn"));
    assert_non_null(strstr(err, "max_turns"));
    assert_int_equal(
        game_make(&g, "thirty_one(lives=0,county=false)", err, sizeof err),
        ERR_INVAL);
    assert_non_null(strstr(err, "lives=0"));
    assert_non_null(strstr(err, "county"));
    assert_int_equal(game_make(&g, "thirty_one(players=10)", err, sizeof err),
                     ERR_RANGE);
    /* A deck that repeats a card is refused at init. */
    assert_int_equal(game_make(&g, "thirty_one", err, sizeof err), 0);
    unsigned char st[4096];
    uint8_t deck[3] = {5, 9, 5};
    assert_int_equal(game_init(&g, st, 1, deck, 3), ERR_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_values_from_rule_book),
        cmocka_unit_test(test_q98_and_thirty_one),
        cmocka_unit_test(test_knocker_tied_for_lowest_is_safe),
        cmocka_unit_test(test_ties_below_knocker_all_lose),
        cmocka_unit_test(test_sole_lowest_knocker_pays_two),
        cmocka_unit_test(test_knocker_with_one_penny_goes_on_county),
        cmocka_unit_test(test_losing_on_the_county_is_out),
        cmocka_unit_test(test_thirty_one_after_knock_knocker_pays_one),
        cmocka_unit_test(test_thirty_one_on_the_deal),
        cmocka_unit_test(test_several_thirty_ones_on_the_deal),
        cmocka_unit_test(test_taken_card_cannot_be_thrown),
        cmocka_unit_test(test_two_players_own_discard_after_knock),
        cmocka_unit_test(test_stock_exhausted_reshuffles_discards),
        cmocka_unit_test(test_determinize_after_reshuffle_keeps_old_hand),
        cmocka_unit_test(test_determinize_through_reshuffles),
        cmocka_unit_test(test_kept_facts_match_random_play),
        cmocka_unit_test(test_turn_cap_voids_round),
        cmocka_unit_test(test_no_knock_on_first_turn_option),
        cmocka_unit_test(test_last_survivor_takes_the_kitty),
        cmocka_unit_test(test_history_and_names),
        cmocka_unit_test(test_configure_rejects_bad_combinations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
