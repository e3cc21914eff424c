/* test_binokel.c — Binokel rule facts: every row of the meld table in
 * Parlett's Penguin Book, the auction and widow, the card call with duplicate
 * cards (docs/games/binokel.md), the soloist's discards counting as his, the
 * 250 card points, made / failed / slam / betel scoring and concession.
 *
 * Decks are explicit (tests/engine/meld_steps.h): seat 0 deals, blocks of
 * 15 (11 for four) go from the dealer's left, the widow last. Seat 1 is
 * the eldest and bids first. Meld values are the book's table rows.
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
#include "engine/meld.h"
#include "game_steps.h"
#include "meld_steps.h"

extern const struct game_def binokel_game;

#define ANY MELD_ANY
/* 10s and the 7s of clubs, diamonds, spades: no meld with hearts trumps */
#define DEAD 0x82028282u

struct tb {
    struct game g;
    unsigned char st[2048];
};

/* Makes spec and deals: seat s gets want[s] topped up with faces in
 * allow[s]; widow (NULL: what is left) is dealt last. */
static void build(struct tb *t, const char *spec, const char *const *want,
                  const uint32_t *allow, const char *widow)
{
    char err[256];
    uint8_t deck[48];
    int room[4];
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &binokel_game, spec, err,
                                           sizeof err),
                     0);
    assert_true(t->g.def->state_size <= sizeof t->st);
    int np = t->g.dims.players;
    for (int s = 0; s < np; s++)
        room[s] = np == 4 ? 11 : 15;
    int n = meld_steps_deck(&t->g, 0x9f, 2, want, allow, room, widow, deck);
    assert_int_equal(n, 48);
    assert_int_equal(game_init(&t->g, t->st, 3, deck, n), 0);
}

static void act(struct tb *t, int seat, const char *text)
{
    steps_act(&t->g, t->st, seat, text);
}

static int view_at(struct tb *t, const char *key, int i, int j)
{
    return meld_steps_view_at(&t->g, t->st, 0, key, i, j);
}

/* Takes the first legal action n times. */
static void first_legal(struct tb *t, int n)
{
    int ids[160];
    for (int i = 0; i < n; i++) {
        int seat = game_current_seat(&t->g, t->st);
        assert_true(t->g.def->legal(&t->g, t->st, seat, ids) > 0);
        assert_int_equal(game_apply(&t->g, t->st, seat, ids[0]), 0);
    }
}

/* Seat 1 wins the auction at 200, calls nothing, discards its first
 * three cards and names trumps. */
static void to_play(struct tb *t, const char *trump)
{
    char name[32];
    act(t, 1, "bid 200");
    act(t, 2, "pass");
    act(t, 0, "pass");
    act(t, 1, "no call");
    first_legal(t, 3);
    snprintf(name, sizeof name, "name %s", trump);
    act(t, 1, name);
}

/* Seat 2's meld (hearts trumps) holding `hand` topped up with dead
 * cards. */
static int meld_of(const char *hand)
{
    struct tb t;
    const char *want[3] = {NULL, NULL, hand};
    const uint32_t allow[3] = {ANY, ANY, DEAD};
    build(&t, "binokel", want, allow, NULL);
    to_play(&t, "hearts");
    return view_at(&t, "melds", 2, 0);
}

/* Every row of the book's table. */
static void test_meld_table(void **state)
{
    (void)state;
    assert_int_equal(meld_of("A♣ 10♣ K♣ Q♣ J♣"), 100);      /* family */
    assert_int_equal(meld_of("A♥ 10♥ K♥ Q♥ J♥"), 150);      /* trump family */
    assert_int_equal(meld_of("A♣ 10♣ K♣ Q♣ J♣ A♣ 10♣ K♣ Q♣ J♣"), 1500);
    assert_int_equal(meld_of("K♣ Q♣"), 20);                 /* marriage */
    assert_int_equal(meld_of("K♥ Q♥"), 40);                 /* trump marriage */
    assert_int_equal(meld_of("7♥"), 10);                    /* diss */
    assert_int_equal(meld_of("7♥ 7♥"), 20);
    assert_int_equal(meld_of("Q♠ J♦"), 40);                 /* binokel */
    assert_int_equal(meld_of("Q♠ J♦ Q♠ J♦"), 300);          /* double */
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠"), 100);          /* four Aces */
    assert_int_equal(meld_of("K♣ K♦ K♥ K♠"), 80);
    assert_int_equal(meld_of("Q♣ Q♦ Q♥ Q♠"), 60);
    assert_int_equal(meld_of("J♣ J♦ J♥ J♠"), 40);
    assert_int_equal(meld_of("A♣ A♦ A♥ A♠ A♣ A♦ A♥ A♠"), 1000); /* eight */
    assert_int_equal(meld_of("J♣ J♦ J♥ J♠ J♣ J♦ J♥ J♠"), 1000);
    /* Roundhouse: a marriage in each suit, 240 (20+20+40+20 + 80 + 60). */
    assert_int_equal(meld_of("K♣ Q♣ K♦ Q♦ K♥ Q♥ K♠ Q♠"), 240);
    /* A marriage inside a family is not scored again; a second one is. */
    assert_int_equal(meld_of("A♣ 10♣ K♣ Q♣ J♣ K♣"), 100);
    assert_int_equal(meld_of("A♣ 10♣ K♣ Q♣ J♣ K♣ Q♣"), 120);
}

/* English auction from the dealer's left, a pass is final; the last in
 * must bid if nobody has. */
static void test_auction(void **state)
{
    (void)state;
    struct tb t;
    const char *want[3] = {NULL};
    const uint32_t allow[3] = {ANY, ANY, ANY};
    build(&t, "binokel", want, allow, NULL);
    act(&t, 1, "bid 200");
    act(&t, 2, "bid 210");
    act(&t, 0, "pass");
    act(&t, 1, "bid 250");
    act(&t, 2, "pass");
    steps_view_is(&t.g, t.st, 0, "soloist", "1");
    steps_view_is(&t.g, t.st, 0, "high_bid", "250");
    steps_view_is(&t.g, t.st, 0, "phase", "\"call\"");

    build(&t, "binokel(min_bid=300)", want, allow, NULL);
    act(&t, 1, "pass");
    act(&t, 2, "pass");
    int ids[160], n = t.g.def->legal(&t.g, t.st, 0, ids);
    assert_int_equal(n, 131 + 1); /* bids 300..1600 and slam, no pass */
    char name[GAME_NAME_MAX];
    game_action_name(&t.g, t.st, ids[0], name, sizeof name);
    assert_string_equal(name, "bid 300");
    act(&t, 0, "bid 300");
    steps_view_is(&t.g, t.st, 0, "soloist", "0");
}

/* The card call with duplicates: seat 1 holds no A♠; seat 2 holds
 * none either, so seat 0, the first holder to seat 1's left, gives one and
 * receives the card seat 1 chooses, which only the two of them see. */
static void test_card_call(void **state)
{
    (void)state;
    struct tb t;
    const uint32_t spade_a = 1u << 24;
    const char *want[3] = {"A♠", NULL, NULL};
    const uint32_t allow[3] = {ANY, ANY & ~spade_a, ANY & ~spade_a};
    build(&t, "binokel", want, allow, "7♣ 7♣ 7♠");
    act(&t, 1, "bid 200");
    act(&t, 2, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "call A♠");
    steps_view_is(&t.g, t.st, 2, "called", "\"A♠\"");
    steps_view_is(&t.g, t.st, 2, "called_from", "0");
    act(&t, 1, "give 7♣");
    steps_view_is(&t.g, t.st, 0, "given", "\"7♣\"");
    steps_view_is(&t.g, t.st, 1, "given", "\"7♣\"");
    steps_view_is(&t.g, t.st, 2, "given", "nil");
    steps_view_is(&t.g, t.st, 2, "phase", "\"discard\"");
    /* 15 + the widow's 3; seat 0 gave one card and got one back. */
    assert_int_equal(view_at(&t, "hand_sizes", 1, -1), 18);
    assert_int_equal(view_at(&t, "hand_sizes", 0, -1), 15);
}

/* Points of the discards by the book's card values. */
static int discard_points(const char *cards)
{
    int pts = 0;
    char copy[64];
    snprintf(copy, sizeof copy, "%s", cards);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        pts += w[0] == 'A' ? 11 : w[0] == '1' ? 10 : w[0] == 'K' ? 4
             : w[0] == 'Q' ? 3 : w[0] == 'J' ? 2 : 0;
    return pts;
}

/* A whole deal played out. Before the last trick, the cards taken, the
 * last trick's cards and 10, and the soloist's discards (A♠ 10♠ K♠: 25)
 * make 250. Then exactly one winner of the last trick explains every
 * score: the soloist scores meld + cards if that reaches his bid (200),
 * else -400; an opponent scores its cards, and its meld if it won a trick;
 * all tricks would add 1,000. */
static void test_deal_scoring(void **state)
{
    (void)state;
    struct tb t;
    const char *want[3] = {NULL};
    const uint32_t allow[3] = {ANY, ANY, ANY};
    char name[8];
    int meld[3], taken[3], won[3], sc[3], last = 10, fits = 0;
    build(&t, "binokel", want, allow, "A♠ 10♠ K♠");
    act(&t, 1, "bid 200");
    act(&t, 2, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "no call");
    act(&t, 1, "discard A♠");
    act(&t, 1, "discard 10♠");
    act(&t, 1, "discard K♠");
    act(&t, 1, "name clubs");
    for (int s = 0; s < 3; s++)
        meld[s] = view_at(&t, "melds", s, 0);
    first_legal(&t, 42);
    int ids[160], sum = discard_points("A♠ 10♠ K♠");
    for (int s = 0; s < 3; s++) {
        taken[s] = view_at(&t, "taken", s, -1);
        won[s] = view_at(&t, "tricks_won", s, -1);
        sum += taken[s];
        assert_int_equal(t.g.def->legal(&t.g, t.st, s, ids) <= 1, 1);
    }
    for (int i = 0; i < 3; i++) {
        int seat = game_current_seat(&t.g, t.st);
        assert_int_equal(t.g.def->legal(&t.g, t.st, seat, ids), 1);
        meld_face_name(ids[0], name, sizeof name);
        last += discard_points(name);
        assert_int_equal(game_apply(&t.g, t.st, seat, ids[0]), 0);
    }
    assert_int_equal(sum + last, 250);
    for (int s = 0; s < 3; s++)
        sc[s] = view_at(&t, "scores", s, -1);
    for (int w = 0; w < 3; w++) {
        bool ok = true;
        for (int s = 0; s < 3; s++) {
            int c = taken[s] + (s == w ? last : 0), n = won[s] + (s == w);
            int want_sc = c + (n == 15 ? 1000 : 0);
            if (s == 1)
                want_sc = meld[1] + c + 25 >= 200 ? want_sc + meld[1] + 25
                                                  : -400;
            else if (n)
                want_sc += meld[s];
            ok = ok && sc[s] == want_sc;
        }
        fits += ok;
    }
    assert_int_equal(fits, 1);
}

/* A slam bid fails at the first trick the other side wins: -2000 at
 * once, and a new deal begins. Seat 2 holds all eight Aces and no other
 * club, so it must head seat 1's 7♣ with the A♣. */
static void test_slam_failed(void **state)
{
    (void)state;
    struct tb t;
    const uint32_t aces = 0x01010101u, clubs = 0xffu;
    const char *want[3] = {NULL, "7♣ 10♦ 10♦ 10♥",
                           "A♣ A♣ A♦ A♦ A♥ A♥ A♠ A♠"};
    const uint32_t allow[3] = {ANY, ANY & ~aces, ANY & ~aces & ~clubs};
    build(&t, "binokel", want, allow, NULL);
    act(&t, 1, "bid slam");
    act(&t, 2, "pass");
    act(&t, 0, "pass");
    steps_view_is(&t.g, t.st, 0, "contract", "\"slam\"");
    act(&t, 1, "no call");
    act(&t, 1, "discard 10♦");
    act(&t, 1, "discard 10♦");
    act(&t, 1, "discard 10♥");
    act(&t, 1, "name spades");
    act(&t, 1, "play 7♣");
    steps_legal_is(&t.g, t.st, "play A♣");
    act(&t, 2, "play A♣");
    first_legal(&t, 1);
    assert_int_equal(view_at(&t, "scores", 1, -1), -2000);
    steps_view_is(&t.g, t.st, 0, "phase", "\"bidding\"");
}

/* Betel (option): the soloist must take no trick; no trumps, no melds.
 * Taking one costs twice its value (300) at once. */
static void test_betel(void **state)
{
    (void)state;
    struct tb t;
    const uint32_t clubs = 0xffu;
    const char *want[3] = {NULL, "A♣ A♣", "K♣ K♣"};
    const uint32_t allow[3] = {ANY, ANY & ~clubs, ANY & ~clubs};
    build(&t, "binokel(betel=true)", want, allow, NULL);
    act(&t, 1, "bid betel");
    act(&t, 2, "pass");
    act(&t, 0, "pass");
    act(&t, 1, "no call");
    /* the widow is what the fill left: J♠ 7♠ 7♠ */
    act(&t, 1, "discard J♠");
    act(&t, 1, "discard 7♠");
    act(&t, 1, "discard 7♠");
    steps_view_is(&t.g, t.st, 0, "phase", "\"playing\"");
    steps_view_is(&t.g, t.st, 0, "trump", "nil");
    assert_int_equal(view_at(&t, "melds", 1, 0), 0);
    act(&t, 1, "play A♣");
    act(&t, 2, "play K♣");
    first_legal(&t, 1);
    assert_int_equal(view_at(&t, "scores", 1, -1), -600);
}

/* Concession (option): the soloist loses his bid once. */
static void test_concession(void **state)
{
    (void)state;
    struct tb t;
    const char *want[3] = {NULL};
    const uint32_t allow[3] = {ANY, ANY, ANY};
    build(&t, "binokel(concession=true)", want, allow, NULL);
    act(&t, 1, "bid 200");
    act(&t, 2, "bid 230");
    act(&t, 0, "pass");
    act(&t, 1, "pass");
    act(&t, 2, "concede");
    assert_int_equal(view_at(&t, "scores", 2, -1), -230);
    assert_int_equal(view_at(&t, "scores", 1, -1), 0);
    steps_view_is(&t.g, t.st, 0, "dealer", "1");
}

/* Two players: 12 each, the next card turned for trumps and laid
 * last under the stock; the winner of each trick may declare one meld
 * while the stock lasts, then draws first. Seat 1 (non-dealer): K♣ Q♣
 * A♠ 10♠ K♠ Q♠ J♠ J♦ 7♥ 7♦ 7♦ A♦; seat 0: 7♣ 7♣ and cards that meld
 * nothing;
 * 10♥ turned: hearts are trumps. */
static void start_two(struct tb *t)
{
    const char *want[2] = {"7♣ 7♣", "K♣ Q♣ A♠ 10♠ K♠ Q♠ J♠ J♦ 7♥ 7♦ 7♦ A♦"};
    /* seat 0's fill: A♣ 10♣ J♣ 10♦ 10♠ 7♠, no meld among them */
    const uint32_t allow[2] = {0x82000213u, 0};
    char err[256];
    uint8_t deck[48];
    int room[2] = {12, 12};
    memset(t, 0, sizeof *t);
    assert_int_equal(conformance_game_make(&t->g, &binokel_game,
                                           "binokel(players=2)", err,
                                           sizeof err),
                     0);
    /* the tail: the turned 10♥, then the stock from its top */
    int n = meld_steps_deck(&t->g, 0x9f, 2, want, allow, room, NULL, deck);
    assert_int_equal(n, 48);
    for (int i = 24; i < 48; i++) /* move the 10♥ to the turn-up place */
        if (deck[i] == meld_face(HEARTS, MELD_T)) {
            deck[i] = deck[24];
            deck[24] = (uint8_t)meld_face(HEARTS, MELD_T);
            break;
        }
    assert_int_equal(game_init(&t->g, t->st, 3, deck, n), 0);
}

/* Seat's legal actions name neither a nor b. */
static void offers_neither(struct tb *t, int seat, const char *a,
                           const char *b)
{
    int ids[64], n = t->g.def->legal(&t->g, t->st, seat, ids);
    char name[GAME_NAME_MAX];
    for (int i = 0; i < n; i++) {
        game_action_name(&t->g, t->st, ids[i], name, sizeof name);
        assert_string_not_equal(name, a);
        assert_string_not_equal(name, b);
    }
}

static void test_two_players(void **state)
{
    (void)state;
    struct tb t;
    start_two(&t);
    steps_view_is(&t.g, t.st, 0, "turnup", "\"10♥\"");
    steps_view_is(&t.g, t.st, 0, "trump", "\"hearts\"");
    steps_view_is(&t.g, t.st, 0, "stock", "24");
    /* No duty to follow while the stock lasts: seat 0 throws a club. */
    act(&t, 1, "play 7♦");
    act(&t, 0, "play 7♣");
    steps_legal_is(&t.g, t.st,
                   "meld marriage clubs, meld marriage spades, meld family "
                   "spades, meld binokel, meld diss, no meld");
    act(&t, 1, "meld family spades"); /* 100 */
    steps_view_is(&t.g, t.st, 0, "stock", "22");
    act(&t, 1, "play 7♦");
    act(&t, 0, "play 7♣");
    /* The spade marriage is part of the declared family now. */
    offers_neither(&t, 1, "meld marriage spades", "meld family spades");
    act(&t, 1, "meld diss"); /* 10 */
    assert_int_equal(view_at(&t, "melds", 1, 0), 110);
    steps_view_is(&t.g, t.st, 0, "declared",
                  "[[1, \"family spades\"], [1, \"diss\"]]");
}

/* Two players: a meld inside a bigger one already declared is not
 * offered. Seat 1 (non-dealer, first block) holds a double family of
 * hearts (trumps: the 7♥ is turned) and wins two tricks: after the
 * double family neither the heart marriage nor the heart family may be
 * declared (the book: a marriage in a family is not scored apart). */
static void test_two_players_no_meld_inside(void **state)
{
    (void)state;
    static const char *const deck_text =
        "A♠ A♥ A♥ 10♥ 10♥ K♥ K♥ Q♥ Q♥ J♥ J♥ K♣ "
        "7♠ 7♠ 7♣ 7♣ 7♦ 7♦ J♣ J♣ J♦ J♦ 10♣ 10♣ 7♥ A♣ A♣ K♣ Q♣ "
        "A♦ A♦ 10♦ 10♦ K♦ K♦ Q♦ Q♦ 10♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ Q♣ A♠ 7♥";
    struct tb t;
    char err[256];
    uint8_t deck[64];
    memset(&t, 0, sizeof t);
    assert_int_equal(conformance_game_make(&t.g, &binokel_game,
                                           "binokel(players=2)", err,
                                           sizeof err),
                     0);
    int n = game_deck_parse(&t.g, deck_text, deck, 64, err, sizeof err);
    assert_int_equal(n, 48);
    assert_int_equal(game_init(&t.g, t.st, 3, deck, n), 0);
    steps_view_is(&t.g, t.st, 0, "trump", "\"hearts\"");
    act(&t, 1, "play A♠");
    act(&t, 0, "play 7♠");
    act(&t, 1, "meld double family hearts"); /* 1,500 */
    act(&t, 1, "play K♣");
    act(&t, 0, "play 7♣");
    offers_neither(&t, 1, "meld marriage hearts", "meld family hearts");
    act(&t, 1, "no meld");
    assert_int_equal(view_at(&t, "melds", 1, 0), 1500);
}

/* Offset of the tensor segment named name. */
static int segment(const struct game *g, const char *name)
{
    struct obs_segment seg[32];
    int n = g->def->obs_layout(g, seg, 32);
    for (int i = 0; i < n; i++)
        if (!strcmp(seg[i].name, name))
            return seg[i].offset;
    fail_msg("no segment %s", name);
    return -1;
}

/* Seat i's last call in the view: its value (slam, betel and a bid by
 * their worth, 0 none or passed) and whether it passed. */
static int view_bid(struct tb *t, int i, int betel, bool *passed)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    int v = -1;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, 0, &pk), 0);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    *passed = false;
    for (uint32_t k = 0; k < u.data.via.map.size; k++) {
        msgpack_object_kv *kv = &u.data.via.map.ptr[k];
        if (kv->key.via.str.size != 4 || memcmp(kv->key.via.str.ptr, "bids", 4))
            continue;
        msgpack_object e = kv->val.via.array.ptr[i];
        if (e.type == MSGPACK_OBJECT_NIL)
            v = 0;
        else if (e.type == MSGPACK_OBJECT_POSITIVE_INTEGER)
            v = (int)e.via.u64;
        else if (e.via.str.size == 4 && !memcmp(e.via.str.ptr, "pass", 4))
            v = 0, *passed = true;
        else
            v = e.via.str.ptr[0] == 's' ? 1000 : betel;
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    assert_true(v >= 0);
    return v;
}

/* Seat's tensor shows the calls, melds, card points, tricks won and scores
 * of the view (what the state holds), scaled as the layout says: apply
 * keeps them in their observed form, and this is what it must keep. */
static void check_numbers(struct tb *t, int seat, const double *opt)
{
    float out[556];
    int np = t->g.dims.players, sides = np == 4 ? 2 : np;
    float tricks = (float)((48 - (np == 4 ? 4 : np == 3 ? 3 : 0)) / np);
    float top = (float)(opt[0] + 1300), target = (float)opt[1];
    const struct game *g = &t->g;
    t->g.def->observe(g, t->st, seat, out);
    for (int r = 0; r < np; r++) {
        int s = (seat + r) % np;
        bool passed;
        int bid = view_bid(t, s, (int)opt[2], &passed);
        float want = bid ? meld_unit(bid / top) : 0.0f;
        int m = meld_steps_view_at(g, t->st, 0, "melds", s, 0);
        int taken = meld_steps_view_at(g, t->st, 0, "taken", s, -1);
        int won = meld_steps_view_at(g, t->st, 0, "tricks_won", s, -1);
        assert_true(out[segment(g, "bids") + 2 * r] == want);
        assert_true(out[segment(g, "bids") + 2 * r + 1] == (passed ? 1 : 0));
        assert_true(out[segment(g, "melds") + r] == meld_unit(m / 1000.0f));
        assert_true(out[segment(g, "taken") + r] == taken / 250.0f);
        assert_true(out[segment(g, "tricks_won") + r] == won / tricks);
    }
    for (int r = 0; r < sides; r++) {
        int score = meld_steps_view_at(g, t->st, 0, "scores",
                                       (seat % sides + r) % sides, -1);
        assert_true(out[segment(g, "scores") + r] ==
                    meld_unit(0.5f + score / (4 * target)));
    }
}

/* Seeded random games of each size, checked at every step. */
static void test_observed_numbers_follow_play(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "binokel(target=1500)", "binokel(players=4,target=1200)",
        "binokel(players=2,target=1000)"};
    static const double opts[][3] = {
        {200, 1500, 300}, {200, 1200, 300}, {200, 1000, 300}};
    char err[256];
    int legal[512];
    struct rng rng;
    rng_seed(&rng, 23);
    for (int i = 0; i < 3; i++) {
        struct tb t;
        memset(&t, 0, sizeof t);
        assert_int_equal(conformance_game_make(&t.g, &binokel_game, specs[i],
                                               err, sizeof err),
                         0);
        assert_true(t.g.def->state_size <= sizeof t.st);
        assert_int_equal(game_init(&t.g, t.st, 9 + (uint64_t)i, NULL, 0), 0);
        while (!game_is_terminal(&t.g, t.st)) {
            int seat = game_current_seat(&t.g, t.st);
            check_numbers(&t, seat, opts[i]);
            int n = t.g.def->legal(&t.g, t.st, seat, legal);
            int a = legal[rng_below(&rng, (uint32_t)n)];
            assert_int_equal(game_apply(&t.g, t.st, seat, a), 0);
        }
        check_numbers(&t, 0, opts[i]);
    }
}

static void run_conformance(const char *spec)
{
    meld_steps_conformance(&binokel_game, spec, 12);
}

static void test_conformance(void **state)
{
    (void)state;
    char err[256];
    struct game g;
    assert_int_equal(conformance_game_make(&g, &binokel_game,
                                           "binokel(min_bid=250)", err,
                                           sizeof err),
                     ERR_INVAL);
    run_conformance("binokel");
    run_conformance("binokel(players=4,betel=true,concession=true)");
    run_conformance("binokel(players=2)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meld_table),
        cmocka_unit_test(test_auction),
        cmocka_unit_test(test_card_call),
        cmocka_unit_test(test_deal_scoring),
        cmocka_unit_test(test_slam_failed),
        cmocka_unit_test(test_betel),
        cmocka_unit_test(test_concession),
        cmocka_unit_test(test_two_players),
        cmocka_unit_test(test_two_players_no_meld_inside),
        cmocka_unit_test(test_observed_numbers_follow_play),
        cmocka_unit_test(test_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
