/* test_spoil_five.c — Spoil-Five rule facts: Peel's Round Games with Cards and
 * docs/games/spoil_five.md.
 *
 * Every deal below comes from an explicit pack. Seat 0 deals the first
 * hand and the eldest hand is seat 1. The pack goes out in blocks of five:
 * deck[0..4] to seat 1, the next five to seat 2, ..., the dealer's five
 * last, then one card turned up for trumps (and, with fiving, the cards
 * turned after it). So with 2 players: s1 s1 s1 s1 s1 s0 s0 s0 s0 s0 up;
 * with 3: s1 x5, s2 x5, s0 x5, up; with 4: s1, s2, s3, s0, up.
 * Expected winners, legal sets and chip counts are worked out by hand
 * from the rule book in the comments, then read back through the game's
 * public interface (legal action names, current seat, returns, view).
 * Legal sets are listed in action-id order: plays by card id, that is
 * suits ♣ ♦ ♥ ♠ and within a suit A 2 .. 10 J Q K.
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

/* ---- fixture ----------------------------------------------------------- */

struct sf {
    struct game g;          /* configured game */
    unsigned char st[2048]; /* its state */
};

static void make(struct sf *t, const char *spec)
{
    char err[256];
    memset(t, 0, sizeof *t);
    if (game_make(&t->g, spec, err, sizeof err))
        fail_msg("%s", err);
    assert_true(t->g.def->state_size <= sizeof t->st);
}

/* Makes spec and deals from the pack prefix deck (card names). */
static void start(struct sf *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[CARDS_IN_PACK];
    make(t, spec);
    int n = game_deck_parse(&t->g, deck, cards, CARDS_IN_PACK, err, sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    assert_int_equal(game_init(&t->g, t->st, 7, cards, n), 0);
}

static int seat_now(struct sf *t)
{
    return game_current_seat(&t->g, t->st);
}

/* seat, which must be the one to act, takes the action named text. */
static void act(struct sf *t, int seat, const char *text)
{
    char err[512];
    assert_int_equal(seat_now(t), seat);
    int id = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (id < 0)
        fail_msg("seat %d: %s", seat, err);
    assert_int_equal(game_apply(&t->g, t->st, seat, id), 0);
}

/* Asserts the names of the current seat's legal actions, ", "-joined. */
static void legal_is(struct sf *t, const char *want)
{
    int ids[64], seat = seat_now(t);
    char got[512] = "", name[GAME_NAME_MAX];
    size_t w = 0;
    assert_true(seat >= 0);
    int n = t->g.def->legal(&t->g, t->st, seat, ids);
    for (int i = 0; i < n; i++) {
        game_action_name(&t->g, t->st, ids[i], name, sizeof name);
        w += (size_t)snprintf(got + w, sizeof got - w, "%s%s", i ? ", " : "",
                              name);
    }
    assert_string_equal(got, want);
}

static double ret(struct sf *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return r[seat];
}

/* Packs seat's view into sb (caller destroys it). */
static void pack_view(struct sf *t, int seat, msgpack_sbuffer *sb)
{
    msgpack_packer pk;
    msgpack_sbuffer_init(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
}

/* Writes the value under key (then sub-key sub, if any) of seat's view as
 * msgpack's text form, e.g. 14, "7♦", ["2♠", "7♠"], nil. */
static void view_text(struct sf *t, int seat, const char *key, const char *sub,
                      char *buf, size_t len)
{
    msgpack_sbuffer sb;
    msgpack_unpacked u;
    pack_view(t, seat, &sb);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object o = u.data;
    snprintf(buf, len, "(missing)");
    for (int depth = 0; depth < (sub ? 2 : 1); depth++) {
        const char *k = depth ? sub : key;
        bool found = false;
        for (uint32_t i = 0;
             o.type == MSGPACK_OBJECT_MAP && i < o.via.map.size && !found;
             i++) {
            msgpack_object_kv *kv = &o.via.map.ptr[i];
            found = kv->key.via.str.size == strlen(k) &&
                    !memcmp(kv->key.via.str.ptr, k, strlen(k));
            if (found)
                o = kv->val;
        }
        if (!found)
            fail_msg("view has no key %s", k);
    }
    msgpack_object_print_buffer(buf, len, o);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

static void view_is(struct sf *t, int seat, const char *key, const char *sub,
                    const char *want)
{
    char got[512];
    view_text(t, seat, key, sub, got, sizeof got);
    assert_string_equal(got, want);
}

/* True when the packed view of seat holds the bytes of text anywhere. */
static bool view_mentions(struct sf *t, int seat, const char *text)
{
    msgpack_sbuffer sb;
    size_t n = strlen(text);
    bool hit = false;
    pack_view(t, seat, &sb);
    for (size_t i = 0; i + n <= sb.size && !hit; i++)
        hit = !memcmp(sb.data + i, text, n);
    msgpack_sbuffer_destroy(&sb);
    return hit;
}

/* The value for card c in seat's observation segment named seg. */
static float obs_card(struct sf *t, int seat, const char *seg, int c)
{
    struct obs_segment segs[GAME_OBS_SEGMENTS];
    float obs[1024];
    assert_true(t->g.dims.obs_size <= 1024);
    int n = t->g.def->obs_layout(&t->g, segs, GAME_OBS_SEGMENTS);
    t->g.def->observe(&t->g, t->st, seat, obs);
    for (int i = 0; i < n; i++)
        if (!strcmp(segs[i].name, seg))
            return obs[segs[i].offset + c];
    fail_msg("no observation segment %s", seg);
    return -1;
}

static int card(const char *name)
{
    const char *end;
    int c = card_parse(name, &end);
    assert_true(c >= 0);
    return c;
}

/* ---- ranking lists (the table in docs/games/spoil_five.md) -------------- */

/* Two hands with robbing off: seat 1 (eldest) leads lead, seat 0 (dealer)
 * answers with reply, trumps are the suit of up. Fillers are cards that
 * are neither trumps nor in play. Returns the trick's winner, who is the
 * seat to lead next. */
static int duel(const char *spec, int up, int lead, int reply)
{
    struct sf t;
    uint8_t deck[11];
    char name[16];
    make(&t, spec);
    int trump = card_suit(up), filler = 0;
    deck[0] = (uint8_t)lead;
    deck[5] = (uint8_t)reply;
    deck[10] = (uint8_t)up;
    for (int i = 1; i < 10; i++) {
        if (i == 5)
            continue;
        while (card_suit(filler) == trump || filler == lead ||
               filler == reply || filler == card_make(ACE, HEARTS))
            filler++;
        deck[i] = (uint8_t)filler++;
    }
    assert_int_equal(game_init(&t.g, t.st, 1, deck, 11), 0);
    card_name(lead, name, sizeof name);
    char text[32];
    snprintf(text, sizeof text, "play %s", name);
    act(&t, 1, text);
    card_name(reply, name, sizeof name);
    snprintf(text, sizeof text, "play %s", name);
    act(&t, 0, text);
    return seat_now(&t);
}

/* Checks a ranking list (names high to low) card by card: for each
 * neighbouring pair the higher card wins whether it is led or follows. */
static void ranks_are(const char *spec, const char *up, const char *order)
{
    int cards[16], n = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", order);
    for (char *save, *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save))
        cards[n++] = card(tok);
    for (int i = 0; i + 1 < n; i++) {
        int hi = cards[i], lo = cards[i + 1];
        /* The turn-up is out of play: pick one of the trump suit that
         * is not in this pair. */
        int u = card(up);
        for (int r = 1; u == hi || u == lo; r++)
            u = card_make(r, card_suit(card(up)));
        if (duel(spec, u, lo, hi) != 0 || duel(spec, u, hi, lo) != 1)
            fail_msg("%s: %s should beat the next card (pair %d)", spec, order,
                     i);
    }
}

static void test_plain_red_ranks(void **state)
{
    (void)state;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Red suits not trumps: K Q J 10 .. 2, and the A♦ lowest; the A♥ is
     * never a heart (so the hearts list stops at the 2). */
    ranks_are(spec, "9C", "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD");
    ranks_are(spec, "9S", "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H");
}

static void test_plain_black_ranks(void **state)
{
    (void)state;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Black suits not trumps: K Q J A 2 3 .. 10 ("down to" 10). */
    ranks_are(spec, "9D", "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C");
    ranks_are(spec, "9H", "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S");
}

static void test_diamond_trump_ranks(void **state)
{
    (void)state;
    /* Diamonds trumps: 14 trumps, the A♥ third, the A♦ fourth. */
    ranks_are("spoil_five(players=2,robbing=none)", "9D",
              "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D");
}

static void test_heart_trump_ranks(void **state)
{
    (void)state;
    /* Hearts trumps: 13 trumps, the A♥ is the only ace among them. */
    ranks_are("spoil_five(players=2,robbing=none)", "9H",
              "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H");
}

static void test_black_trump_ranks(void **state)
{
    (void)state;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Black trumps: 5 J A♥ A K Q, then 2 3 4 6 .. 10 (lowest the 10). */
    ranks_are(spec, "9C", "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C");
    ranks_are(spec, "9S", "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S");
}

static void test_ordinary_sequence_ranks(void **state)
{
    (void)state;
    const char *spec =
        "spoil_five(players=2,robbing=none,ordinary_sequence=true)";
    /* Every suit A K Q .. 2, trumps too, and the A♥ a plain heart. */
    ranks_are(spec, "9C", "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C");
    ranks_are(spec, "9C", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H");
    ranks_are(spec, "9C", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S");
}

static void test_trumps_beat_plain_and_off_suit_never_wins(void **state)
{
    (void)state;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* The lowest trump (10♠, spades trumps) beats the best plain card. */
    assert_int_equal(duel(spec, card("9S"), card("KH"), card("10S")), 0);
    /* A card of another plain suit never wins, however high: the K♣ on
     * a led 2♥ loses (clubs not led, not trumps). */
    assert_int_equal(duel(spec, card("9S"), card("2H"), card("KC")), 1);
    /* The A♥ is a trump whatever the trump suit: it beats the K♠ led
     * with clubs trumps. */
    assert_int_equal(duel(spec, card("9C"), card("KS"), card("AH")), 0);
}

/* ---- following and reneging -------------------------------- */

static void test_plain_lead_follow_or_trump(void **state)
{
    (void)state;
    struct sf t;
    /* Spades trumps (9♠ up). Seat 1 leads 7♥; seat 0 holds 2♥, the 3♠
     * trump, 4♦, 5♣ and K♣: he must play a heart or a trump. */
    start(&t, "spoil_five(players=2)", "7H 2C 3C 4C 6C  2H 3S 4D 5C KC  9S");
    act(&t, 1, "play 7♥");
    legal_is(&t, "play 2♥, play 3♠");
    /* Without a heart, anything: the A♥ is a trump, never a heart, so a
     * holder of A♥ and no other heart is void in hearts. */
    start(&t, "spoil_five(players=2)", "7H 2C 3C 4C 6C  AH 3D 4D 5C KC  9S");
    act(&t, 1, "play 7♥");
    legal_is(&t, "play 5♣, play K♣, play 3♦, play 4♦, play A♥");
}

static void test_jack_led_forces_lone_ace_of_hearts(void **state)
{
    (void)state;
    struct sf t;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Worked example: spades trumps; J♠ led; seat 0's only trump is the
     * A♥, which ranks below the J, so he must play it (Peel: "if the knave
     * be led, the holder of the ace of hearts is obliged to play it"). */
    start(&t, spec, "JS 2C 3C 6C 7C  AH 2D 3D 4C 5C  9S");
    act(&t, 1, "play J♠");
    legal_is(&t, "play A♥");
    /* The K♠ led ranks below the A♥: now he may keep it back, and as it
     * is his only trump he may play any card. */
    start(&t, spec, "KS 2C 3C 6C 7C  AH 2D 3D 4C 5C  9S");
    act(&t, 1, "play K♠");
    legal_is(&t, "play 4♣, play 5♣, play 2♦, play 3♦, play A♥");
}

static void test_five_led_no_reneging(void **state)
{
    (void)state;
    struct sf t;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Worked example: the 5 of trumps is the highest card, so nothing
     * ranks above it and nothing may be withheld: J♠ and A♥ must come. */
    start(&t, spec, "5S 2C 3C 6C 7C  JS AH 2D 3D 4C  9S");
    act(&t, 1, "play 5♠");
    legal_is(&t, "play A♥, play J♠");
    /* A lone J♠ must be played too. */
    start(&t, spec, "5S 2C 3C 6C 7C  JS 2H 2D 3D 4C  9S");
    act(&t, 1, "play 5♠");
    legal_is(&t, "play J♠");
}

static void test_reneging_each_privileged_trump(void **state)
{
    (void)state;
    struct sf t;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Spades trumps throughout. Seat 0 holds one privileged trump and
     * four plain cards (4♣ 5♣ 2♦ 3♦). */
    /* 5♠, lower trump led (K♠, then even the J♠, next below it): kept
     * back, any card. No trump ranks above the 5, so the "higher trump
     * led" case cannot arise for it. */
    start(&t, spec, "KS 2C 3C 6C 7C  5S 2D 3D 4C 5C  9S");
    act(&t, 1, "play K♠");
    legal_is(&t, "play 4♣, play 5♣, play 2♦, play 3♦, play 5♠");
    start(&t, spec, "JS 2C 3C 6C 7C  5S 2D 3D 4C 5C  9S");
    act(&t, 1, "play J♠");
    legal_is(&t, "play 4♣, play 5♣, play 2♦, play 3♦, play 5♠");
    /* J♠: lower trump led (A♠) — may renege; higher (5♠) — must play. */
    start(&t, spec, "AS 2C 3C 6C 7C  JS 2D 3D 4C 5C  9S");
    act(&t, 1, "play A♠");
    legal_is(&t, "play 4♣, play 5♣, play 2♦, play 3♦, play J♠");
    start(&t, spec, "5S 2C 3C 6C 7C  JS 2D 3D 4C 5C  9S");
    act(&t, 1, "play 5♠");
    legal_is(&t, "play J♠");
    /* A♥: lower trump led (A♠, just below it) — may renege; higher
     * (J♠, and the 5♠) — must play. */
    start(&t, spec, "AS 2C 3C 6C 7C  AH 2D 3D 4C 5C  9S");
    act(&t, 1, "play A♠");
    legal_is(&t, "play 4♣, play 5♣, play 2♦, play 3♦, play A♥");
    start(&t, spec, "5S 2C 3C 6C 7C  AH 2D 3D 4C 5C  9S");
    act(&t, 1, "play 5♠");
    legal_is(&t, "play A♥");
    /* With hearts trumps the A♥ is also the ace of trumps and keeps its
     * privilege: K♥ led, it may be kept back. */
    start(&t, spec, "KH 2C 3C 6C 7C  AH 2D 3D 4C 5C  9H");
    act(&t, 1, "play K♥");
    legal_is(&t, "play 4♣, play 5♣, play 2♦, play 3♦, play A♥");
    /* A privileged card beside an ordinary trump does not free the
     * hand: K♠ led, 5♠ + 2♠ held: a trump must come, either one. */
    start(&t, spec, "KS 2C 3C 6C 7C  5S 2S 2D 3D 4C  9S");
    act(&t, 1, "play K♠");
    legal_is(&t, "play 2♠, play 5♠");
}

static void test_ace_of_hearts_lead(void **state)
{
    (void)state;
    struct sf t;
    const char *spec = "spoil_five(players=2,robbing=none)";
    /* Spades trumps, the A♥ led counts as a heart lead:
     * seat 0 with K♥ and the 2♠ trump plays a heart or a trump. */
    start(&t, spec, "AH 2C 3C 6C 7C  KH 2S 4D 4C 5C  9S");
    act(&t, 1, "play A♥");
    legal_is(&t, "play K♥, play 2♠");
    /* It still wins as the third trump: over the K♥ ... */
    act(&t, 0, "play K♥");
    assert_int_equal(seat_now(&t), 1);
    /* ... and over a low trump, but not over the J of trumps. */
    start(&t, spec, "AH 2C 3C 6C 7C  KH 2S 4D 4C 5C  9S");
    act(&t, 1, "play A♥");
    act(&t, 0, "play 2♠");
    assert_int_equal(seat_now(&t), 1);
    start(&t, spec, "AH 2C 3C 6C 7C  KH JS 4D 4C 5C  9S");
    act(&t, 1, "play A♥");
    act(&t, 0, "play J♠");
    assert_int_equal(seat_now(&t), 0);
    /* Flag ace_hearts_lead_is_trump_lead: now a trump lead. The 2♠
     * holder must play a trump; the K♥ no longer answers it. */
    spec = "spoil_five(players=2,robbing=none,"
           "ace_hearts_lead_is_trump_lead=true)";
    start(&t, spec, "AH 2C 3C 6C 7C  KH 2S 4D 4C 5C  9S");
    act(&t, 1, "play A♥");
    legal_is(&t, "play 2♠");
    /* ... and a J♠ (above the A♥) may be withheld: anything goes. */
    start(&t, spec, "AH 2C 3C 6C 7C  KH JS 4D 4C 5C  9S");
    act(&t, 1, "play A♥");
    legal_is(&t, "play 4♣, play 5♣, play 4♦, play K♥, play J♠");
}

static void test_ordinary_sequence_no_reneging(void **state)
{
    (void)state;
    struct sf t;
    /* In the ordinary sequence the 5 of trumps is a low trump with no
     * privilege: K♣ led, the lone 5♣ must be played. */
    start(&t, "spoil_five(players=2,robbing=none,ordinary_sequence=true)",
          "KC 2D 3D 6D 7D  5C 2H 3H 4S 5S  9C");
    act(&t, 1, "play K♣");
    legal_is(&t, "play 5♣");
}

/* ---- robbing --------------------------------------------------- */

static void test_dealer_robs_turned_ace(void **state)
{
    (void)state;
    struct sf t;
    /* Four players, the A♠ turned: the dealer (seat 0) may rob before the
     * first lead, laying out any of his cards, or decline. */
    const char *deck = "2H 3H 4H 5H 6H  2D 3D 4D 5D 6D  7H 8H 9H 10H JH"
                       "  2C 3C 4C 5C 7D  AS";
    start(&t, "spoil_five", deck);
    view_is(&t, 1, "phase", NULL, "\"dealer_rob\"");
    legal_is(&t, "rob 2♣, rob 3♣, rob 4♣, rob 5♣, rob 7♦, decline");
    act(&t, 0, "rob 7♦");
    /* The ace is in his hand, the 7♦ face down; the eldest leads. */
    assert_int_equal(seat_now(&t), 1);
    view_is(&t, 0, "hand", NULL, "[\"2♣\", \"3♣\", \"4♣\", \"5♣\", \"A♠\"]");
    view_is(&t, 0, "discard", NULL, "\"7♦\"");
    view_is(&t, 1, "robbed", NULL, "0");
    /* Nobody else may see the card laid out: not in their view (the
     * history shows a bare "rob") nor in their observation. */
    for (int s = 1; s < 4; s++) {
        assert_false(view_mentions(&t, s, "7♦"));
        view_is(&t, s, "discard", NULL, "nil");
        view_is(&t, s, "history", NULL, "[[0, \"rob\"]]");
        assert_true(obs_card(&t, s, "gone", card("7D")) == 0);
    }
    view_is(&t, 0, "history", NULL, "[[0, \"rob 7♦\"]]");
    assert_true(obs_card(&t, 0, "gone", card("7D")) == 1);
    /* Declining keeps his hand; the ace stays out of play. */
    start(&t, "spoil_five", deck);
    act(&t, 0, "decline");
    view_is(&t, 0, "hand", NULL, "[\"2♣\", \"3♣\", \"4♣\", \"5♣\", \"7♦\"]");
    view_is(&t, 1, "robbed", NULL, "nil");
    legal_is(&t, "play 2♥, play 3♥, play 4♥, play 5♥, play 6♥");
}

static void test_ace_holder_robs_at_first_turn(void **state)
{
    (void)state;
    struct sf t;
    /* 9♠ turned; seat 2 holds the A♠. Seat 1 leads without any rob; at
     * seat 2's first turn he must rob first (compulsory default), laying
     * out any card but the ace itself. */
    const char *deck = "2H 7C 8C 9C 10C  AS 3D 4H 5C 6C  5H 6H 7H 8H 9H"
                       "  10H JH QH KH 2D  9S";
    start(&t, "spoil_five", deck);
    legal_is(&t, "play 7♣, play 8♣, play 9♣, play 10♣, play 2♥");
    act(&t, 1, "play 2♥");
    legal_is(&t, "rob 5♣, rob 6♣, rob 3♦, rob 4♥");
    act(&t, 2, "rob 3♦");
    /* Still his turn, now to play: 2♥ led, so the 4♥ or a trump (both
     * the A♠ and the robbed 9♠ are now his). */
    legal_is(&t, "play 4♥, play A♠, play 9♠");
    view_is(&t, 2, "discard", NULL, "\"3♦\"");
    for (int s = 0; s < 4; s++) {
        if (s == 2)
            continue;
        assert_false(view_mentions(&t, s, "3♦"));
        view_is(&t, s, "history", NULL, "[[1, \"play 2♥\"], [2, \"rob\"]]");
        assert_true(obs_card(&t, s, "gone", card("3D")) == 0);
    }
    /* robbing=optional adds "decline"; robbing=none: no rob at all. */
    start(&t, "spoil_five(robbing=optional)", deck);
    act(&t, 1, "play 2♥");
    legal_is(&t, "rob 5♣, rob 6♣, rob 3♦, rob 4♥, decline");
    start(&t, "spoil_five(robbing=none)", deck);
    act(&t, 1, "play 2♥");
    legal_is(&t, "play 4♥, play A♠");
    /* The eldest holding the ace robs before he leads. */
    start(&t, "spoil_five",
          "AS 7C 8C 9C 10C  2H 3D 4H 5C 6C  5H 6H 7H 8H 9H"
          "  10H JH QH KH 2D  9S");
    legal_is(&t, "rob 7♣, rob 8♣, rob 9♣, rob 10♣");
}

static void test_declining_to_rob_bars_the_pool(void **state)
{
    (void)state;
    struct sf t;
    /* Three players, robbing optional, 3♣ turned. Seat 1 holds A♣ with
     * 5♣ J♣ Q♣ K♣, declines to rob and is barred. He then takes the
     * first three tricks with the 5, J and A (the others hold no trump),
     * which spoils the deal: the pool of 2+2+2+1 = 7 stays. */
    start(&t, "spoil_five(players=3,robbing=optional)",
          "AC 5C JC QC KC  2H 3H 4H 5H 6H  2D 3D 4D 5D 6D  3C");
    legal_is(&t, "rob 5♣, rob J♣, rob Q♣, rob K♣, decline");
    act(&t, 1, "decline");
    view_is(&t, 2, "barred", NULL, "1");
    const char *lead[3] = {"play 5♣", "play J♣", "play A♣"};
    const char *s2[3] = {"play 2♥", "play 3♥", "play 4♥"};
    const char *s0[3] = {"play 2♦", "play 3♦", "play 4♦"};
    for (int i = 0; i < 3; i++) {
        act(&t, 1, lead[i]);
        act(&t, 2, s2[i]);
        act(&t, 0, s0[i]);
    }
    view_is(&t, 0, "last_deal", "outcome", "\"barred\"");
    view_is(&t, 0, "deal", NULL, "2");
    /* Deal 2 (dealer seat 1) adds the reduced stakes, 1 each and 1 more
     * for the dealer: 7 + 4 = 11. Nobody has won or lost a chip yet:
     * stakes in a standing pool still count as their payers'. */
    view_is(&t, 0, "pool", NULL, "11");
    for (int s = 0; s < 3; s++)
        assert_true(ret(&t, s) == 0);
}

/* ---- pools and spoils ------------------------------------ */

/* Plays the first legal action until the deal number changes or the game
 * ends. */
static void finish_deal(struct sf *t)
{
    char before[32], now[32];
    view_text(t, 0, "deal", NULL, before, sizeof before);
    do {
        int ids[64], seat = seat_now(t);
        assert_true(t->g.def->legal(&t->g, t->st, seat, ids) > 0);
        assert_int_equal(game_apply(&t->g, t->st, seat, ids[0]), 0);
        view_text(t, 0, "deal", NULL, now, sizeof now);
    } while (!game_is_terminal(&t->g, t->st) && !strcmp(before, now));
}

/* Four players, 2 + 1 stakes: plays the first legal actions deal after
 * deal from a standing pool (pool chips, paid[] of them from each seat,
 * dealer dealing). Every further spoil adds 1 each and 1 for the dealer;
 * when a player takes three tricks he takes the whole pool, so his return
 * is pool - paid and the others' -paid, and the next deal starts a new
 * pool at the full stakes (4 x 2 + 1). */
static void play_until_pool_won(struct sf *t, int pool, int *paid, int dealer)
{
    for (;;) {
        finish_deal(t);
        assert_false(game_is_terminal(&t->g, t->st));
        dealer = (dealer + 1) % 4;
        if (ret(t, 0) != 0 || ret(t, 1) != 0 || ret(t, 2) != 0 ||
            ret(t, 3) != 0)
            break;
        char want[16];
        pool += 4 + 1;
        for (int s = 0; s < 4; s++)
            paid[s] += 1 + (s == dealer);
        snprintf(want, sizeof want, "%d", pool);
        view_is(t, 0, "pool", NULL, want);
    }
    int w = -1;
    for (int s = 0; s < 4; s++)
        if (ret(t, s) > 0)
            w = s;
    assert_true(w >= 0);
    for (int s = 0; s < 4; s++)
        assert_true(ret(t, s) == (s == w ? pool : 0) - paid[s]);
    view_is(t, 0, "pool", NULL, "9");
}

static void test_spoilt_pool_carried_over(void **state)
{
    (void)state;
    struct sf t;
    /* Four players, clubs trumps (3♣ up), nobody holds a trump. Tricks:
     * 1 hearts: K♥ (s1) over 2♥ 3♥ 4♥;  2 diamonds: K♦ (s2) over 2♦ 3♦
     * 4♦;  3 spades led by s2: K♠ (s3) over 10♠ 9♠ 8♠ (black: K high, 10
     * low);  4 hearts led by s3: Q♥ (s0) over 5♥ 6♥ 7♥;  5 diamonds led
     * by s0: Q♦ (s1) over 5♦ 6♦ 7♦. Tricks s1 2, s2 1, s3 1, s0 1:
     * nobody has three, the deal is spoilt. */
    start(&t, "spoil_five(deals=40)",
          "KH 2D 8S 6H QD  2H KD 10S 7H 6D  3H 3D KS 5H 7D"
          "  4H 4D 9S QH 5D  3C");
    /* Pool: 2 from each player and 1 more from the dealer. */
    view_is(&t, 2, "pool", NULL, "9");
    const char *plays[20] = {
        "play K♥",  "play 2♥", "play 3♥", "play 4♥",  /* s1 s2 s3 s0 */
        "play 2♦",  "play K♦", "play 3♦", "play 4♦",  /* s1 s2 s3 s0 */
        "play 10♠", "play K♠", "play 9♠", "play 8♠",  /* s2 s3 s0 s1 */
        "play 5♥",  "play Q♥", "play 6♥", "play 7♥",  /* s3 s0 s1 s2 */
        "play 5♦",  "play Q♦", "play 6♦", "play 7♦"}; /* s0 s1 s2 s3 */
    const int first[5] = {1, 1, 2, 3, 0};
    for (int k = 0; k < 20; k++)
        act(&t, (first[k / 4] + k % 4) % 4, plays[k]);
    view_is(&t, 0, "last_deal", "outcome", "\"spoilt\"");
    view_is(&t, 0, "last_deal", "tricks", "[1, 2, 1, 1]");
    /* Deal 2, dealer seat 1: each adds 1, the dealer 1 more: 9 + 5. */
    view_is(&t, 0, "deal", NULL, "2");
    view_is(&t, 0, "dealer", NULL, "1");
    view_is(&t, 0, "pool", NULL, "14");
    /* Paid so far: deal 1 s0 2+1, others 2; deal 2 s1 1+1, others 1. */
    int paid[4] = {4, 4, 3, 3};
    play_until_pool_won(&t, 14, paid, 1);
}

static void test_partnership_side_takes_pool(void **state)
{
    (void)state;
    struct sf t;
    /* Partnerships: seats 0+2 against 1+3. Clubs trumps, no trump held.
     * Tricks: 1 hearts K♥ (s1); 2 diamonds K♦ (s1); 3 spades led 10♠ by
     * s1, K♠ (s3) wins. Side 1+3 has three tricks (no player has): the
     * deal ends and the side takes the pool of 2+2+2+2+1 = 9. */
    start(&t, "spoil_five(partnerships=true)",
          "KH KD 10S QH QD  2H 2D 9S 5H 5D  3H 3D KS 6H 6D"
          "  4H 4D 8S 7H 7D  3C");
    assert_int_equal(t.g.dims.teams, 2);
    assert_int_equal(t.g.dims.team[0], t.g.dims.team[2]);
    assert_int_equal(t.g.dims.team[1], t.g.dims.team[3]);
    assert_true(t.g.dims.team[0] != t.g.dims.team[1]);
    const char *plays[12] = {"play K♥",  "play 2♥", "play 3♥", "play 4♥",
                             "play K♦",  "play 2♦", "play 3♦", "play 4♦",
                             "play 10♠", "play 9♠", "play K♠", "play 8♠"};
    for (int k = 0; k < 12; k++)
        act(&t, (1 + k % 4) % 4, plays[k]);
    view_is(&t, 0, "last_deal", "outcome", "\"won\"");
    view_is(&t, 0, "deal", NULL, "2");
    /* Each partner's return is the side's net: side 1+3 paid 4 and
     * took 9, +5; side 0+2 paid 3 + 2, -5. */
    assert_true(ret(&t, 1) == 5 && ret(&t, 3) == 5);
    assert_true(ret(&t, 0) == -5 && ret(&t, 2) == -5);
}

static void test_two_tricks_win(void **state)
{
    (void)state;
    struct sf t;
    /* Five players, clubs trumps; seat 1 holds 5♣ J♣ and nobody else a
     * trump: he takes the first two tricks. */
    const char *deck = "5C JC 2H 3H 4H  2D 3D 4D 5D 6D  2S 3S 4S 5S 6S"
                       "  7D 8D 9D 10D JD  7S 8S 9S 10S JS  3C";
    start(&t, "spoil_five(players=5,two_tricks_win=true)", deck);
    const char *plays[10] = {"play 5♣", "play 2♦", "play 2♠", "play 7♦",
                             "play 7♠", "play J♣", "play 3♦", "play 3♠",
                             "play 8♦", "play 8♠"};
    for (int k = 0; k < 10; k++)
        act(&t, (1 + k % 5) % 5, plays[k]);
    /* Two tricks win: pool 5 x 2 + 1 = 11 to seat 1, net +9; the
     * dealer lost 3, the others 2 each. */
    view_is(&t, 0, "last_deal", "outcome", "\"won\"");
    assert_true(ret(&t, 1) == 9 && ret(&t, 0) == -3);
    assert_true(ret(&t, 2) == -2 && ret(&t, 3) == -2 && ret(&t, 4) == -2);
    /* Without the variant two tricks are not enough: play goes on. */
    start(&t, "spoil_five(players=5)", deck);
    for (int k = 0; k < 10; k++)
        act(&t, (1 + k % 5) % 5, plays[k]);
    view_is(&t, 0, "deal", NULL, "1");
    assert_int_equal(seat_now(&t), 1);
    assert_true(ret(&t, 1) == 0);
}

/* ---- jinking ------------------------------------------------------ */

/* Three players, clubs trumps: seat 1 leads the trumps in order; seats 2
 * and 0, without trumps, discard in order. */
static void three_trump_tricks(struct sf *t, const char *const *s1,
                               const char *const *s2, const char *const *s0)
{
    for (int i = 0; i < 3; i++) {
        act(t, 1, s1[i]);
        act(t, 2, s2[i]);
        act(t, 0, s0[i]);
    }
}

static void test_jinking_won(void **state)
{
    (void)state;
    struct sf t;
    const char *s1[] = {"play 5♣", "play J♣", "play K♣", "play Q♣", "play 2♣"};
    const char *s2[] = {"play 2♥", "play 3♥", "play 4♥", "play 5♥", "play 6♥"};
    const char *s0[] = {"play 2♦", "play 3♦", "play 4♦", "play 5♦", "play 6♦"};
    const char *deck = "5C JC KC QC 2C  2H 3H 4H 5H 6H  2D 3D 4D 5D 6D  3C";
    start(&t, "spoil_five(players=3,jinking=true)", deck);
    three_trump_tricks(&t, s1, s2, s0);
    /* Three tricks out of three: jink or claim. */
    legal_is(&t, "jink, claim");
    act(&t, 1, "jink");
    for (int i = 3; i < 5; i++) {
        act(&t, 1, s1[i]);
        act(&t, 2, s2[i]);
        act(&t, 0, s0[i]);
    }
    /* All five: the pool (2+2+2+1 = 7) and 2 (the full stake) from each
     * other player: seat 1 +7 +4 -2 = +9; seat 2 -2 -2; dealer -3 -2. */
    view_is(&t, 0, "last_deal", "outcome", "\"jinked\"");
    assert_true(ret(&t, 1) == 9 && ret(&t, 2) == -4 && ret(&t, 0) == -5);
    /* Claiming instead takes the pool at once: +5, -2, -3. */
    start(&t, "spoil_five(players=3,jinking=true)", deck);
    three_trump_tricks(&t, s1, s2, s0);
    act(&t, 1, "claim");
    view_is(&t, 0, "last_deal", "outcome", "\"won\"");
    assert_true(ret(&t, 1) == 5 && ret(&t, 2) == -2 && ret(&t, 0) == -3);
}

static void test_jinking_lost(void **state)
{
    (void)state;
    struct sf t;
    /* Seat 1: 5♣ J♣ K♣ 2♥ 3♥; seat 2 keeps K♥ Q♥; seat 0 spades. After
     * three trump tricks seat 1 jinks, leads 2♥, and seat 2's K♥ takes
     * the fourth trick: the jink fails and the pool stays (spoilt). */
    start(&t, "spoil_five(players=3,jinking=true)",
          "5C JC KC 2H 3H  KH QH 2D 3D 4D  2S 3S 4S 5S 6S  3C");
    const char *s1[] = {"play 5♣", "play J♣", "play K♣"};
    const char *s2[] = {"play 2♦", "play 3♦", "play 4♦"};
    const char *s0[] = {"play 2♠", "play 3♠", "play 4♠"};
    three_trump_tricks(&t, s1, s2, s0);
    act(&t, 1, "jink");
    act(&t, 1, "play 2♥");
    legal_is(&t, "play Q♥, play K♥"); /* hearts led: follow */
    act(&t, 2, "play K♥");
    act(&t, 0, "play 5♠");
    view_is(&t, 0, "last_deal", "outcome", "\"jink failed\"");
    /* Nobody won: pool 7 carried, plus reduced stakes 1+1+1 and 1 for
     * the new dealer, seat 1: 11. */
    view_is(&t, 0, "pool", NULL, "11");
    assert_true(ret(&t, 0) == 0 && ret(&t, 1) == 0 && ret(&t, 2) == 0);
}

static void test_jink_offered_only_with_every_trick(void **state)
{
    (void)state;
    struct sf t;
    /* Seat 1 loses the first trick (2♦ to seat 2's K♦), then trumps the
     * 3♥ lead and wins twice more: three tricks out of four cannot make
     * a jink, so the pool is taken without the choice (+7 -2 = +5). */
    start(&t, "spoil_five(players=3,jinking=true)",
          "2D 5C JC KC QC  KD 3H 2S 3S 4S  3D 4H 5H 6H 4D  3C");
    act(&t, 1, "play 2♦");
    act(&t, 2, "play K♦");
    act(&t, 0, "play 3♦");
    act(&t, 2, "play 3♥");
    act(&t, 0, "play 4♥");
    act(&t, 1, "play 5♣");
    act(&t, 1, "play J♣");
    act(&t, 2, "play 2♠");
    act(&t, 0, "play 5♥");
    act(&t, 1, "play K♣");
    act(&t, 2, "play 3♠");
    act(&t, 0, "play 6♥");
    view_is(&t, 0, "last_deal", "outcome", "\"won\"");
    view_is(&t, 0, "deal", NULL, "2");
    assert_true(ret(&t, 1) == 5);
}

/* ---- fiving ------------------------------------------------------- */

static void test_fiving(void **state)
{
    (void)state;
    struct sf t;
    /* Two players. Turn-up 7♠, then 9♠ 2♠ 4♦ in the pack. Seat 1 (the
     * non-dealer) holds the A♦. */
    const char *deck = "AD 2C 3C 4C 5H  6H 7H 8H 9H 10H  7S 9S 2S 4D";
    const char *spec = "spoil_five(players=2,fiving=true)";
    start(&t, spec, deck);
    legal_is(&t, "ask five, no five");
    act(&t, 1, "ask five");
    legal_is(&t, "accept five, refuse five");
    act(&t, 0, "accept five");
    /* The 7♠ is buried, and the 9♠ and 2♠ after it (same suit); the 4♦
     * is the new turn-up: diamonds are trumps. */
    view_is(&t, 0, "buried", NULL, "[\"2♠\", \"7♠\", \"9♠\"]");
    view_is(&t, 1, "turn_up", NULL, "\"4♦\"");
    view_is(&t, 1, "trump", NULL, "\"♦\"");
    /* Robbing applies to the new turn-up: seat 1 holds the A♦ and must
     * rob before he leads; fiving is not offered again. */
    legal_is(&t, "rob 2♣, rob 3♣, rob 4♣, rob 5♥");
    act(&t, 1, "rob 5♥");
    legal_is(&t, "play 2♣, play 3♣, play 4♣, play A♦, play 4♦");
    /* Refused: the 7♠ stays, spades trumps, nothing buried, and as
     * nobody holds the A♠ the eldest simply leads. */
    start(&t, spec, deck);
    act(&t, 1, "ask five");
    act(&t, 0, "refuse five");
    view_is(&t, 1, "turn_up", NULL, "\"7♠\"");
    view_is(&t, 1, "buried", NULL, "[]");
    legal_is(&t, "play 2♣, play 3♣, play 4♣, play A♦, play 5♥");
    /* Not asked: the same. */
    start(&t, spec, deck);
    act(&t, 1, "no five");
    view_is(&t, 1, "trump", NULL, "\"♠\"");
    assert_int_equal(seat_now(&t), 1);
    /* Two sides: the eldest (seat 1) asks, the dealer answers. */
    start(&t, "spoil_five(partnerships=true,fiving=true)",
          "2H 3H 4H 5H 6H  2D 3D 4D 5D 6D  7H 8H 9H 10H JH"
          "  2C 3C 4C 5C 7D  9S");
    act(&t, 1, "ask five");
    assert_int_equal(seat_now(&t), 0);
}

/* ---- target games ------------------------------------------------- */

static void test_twenty_five_all_tricks(void **state)
{
    (void)state;
    struct sf t;
    /* Target 25, two players, clubs trumps; seat 1 holds five trumps and
     * leads them. There is no pool: all five tricks are played even after
     * three (15 points), 5 points a trick; five tricks make 25 and also
     * win outright. Returns: +1 and -1. */
    start(&t, "spoil_five(players=2,target=25)",
          "5C JC KC QC 2C  2H 3H 4H 5H 6H  3C");
    const char *s1[] = {"play 5♣", "play J♣", "play K♣", "play Q♣", "play 2♣"};
    const char *s0[] = {"play 2♥", "play 3♥", "play 4♥", "play 5♥", "play 6♥"};
    for (int i = 0; i < 5; i++) {
        if (i == 3)
            view_is(&t, 0, "scores", NULL, "[0, 15]");
        act(&t, 1, s1[i]);
        act(&t, 0, s0[i]);
    }
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 0) == -1);
    /* The game ended in its first deal, which counts as played. */
    assert_int_equal(t.g.def->deals(&t.g, t.st), 1);
    /* In a game to 45 the same five tricks (only 25 points) still win
     * the game outright. */
    start(&t, "spoil_five(players=2,target=45)",
          "5C JC KC QC 2C  2H 3H 4H 5H 6H  3C");
    for (int i = 0; i < 5; i++) {
        act(&t, 1, s1[i]);
        act(&t, 0, s0[i]);
    }
    assert_true(game_is_terminal(&t.g, t.st));
    assert_true(ret(&t, 1) == 1 && ret(&t, 0) == -1);
}

static void test_forty_five_accumulates(void **state)
{
    (void)state;
    struct sf t;
    /* Target 45, three players. Deal 1: seat 1 takes four trump tricks,
     * then leads 2♥ and seat 2's K♥ takes the fifth: 20 and 5 points. */
    start(&t, "spoil_five(players=3,target=45)",
          "5C JC KC QC 2H  KH 2D 3D 4D 5D  2S 3S 4S 5S 6S  3C");
    const char *s1[] = {"play 5♣", "play J♣", "play K♣", "play Q♣", "play 2♥"};
    const char *s2[] = {"play 2♦", "play 3♦", "play 4♦", "play 5♦", "play K♥"};
    const char *s0[] = {"play 2♠", "play 3♠", "play 4♠", "play 5♠", "play 6♠"};
    for (int i = 0; i < 5; i++) {
        act(&t, 1, s1[i]);
        act(&t, 2, s2[i]);
        act(&t, 0, s0[i]);
    }
    view_is(&t, 0, "scores", NULL, "[0, 20, 5]");
    view_is(&t, 0, "deal", NULL, "2");
    assert_false(game_is_terminal(&t.g, t.st));
    /* Play on to the end: the winner is the first to 45 (or one who took
     * all five tricks of a deal); +1 to him, -1/2 to the others. */
    while (!game_is_terminal(&t.g, t.st))
        finish_deal(&t);
    int w = -1;
    for (int s = 0; s < 3; s++)
        if (ret(&t, s) == 1)
            w = s;
    assert_true(w >= 0);
    for (int s = 0; s < 3; s++)
        assert_true(s == w || ret(&t, s) == -0.5);
    char sc[64], tr[64];
    int score[3], tricks[3];
    view_text(&t, 0, "scores", NULL, sc, sizeof sc);
    view_text(&t, 0, "last_deal", "tricks", tr, sizeof tr);
    assert_int_equal(
        sscanf(sc, "[%d, %d, %d]", &score[0], &score[1], &score[2]), 3);
    assert_int_equal(
        sscanf(tr, "[%d, %d, %d]", &tricks[0], &tricks[1], &tricks[2]), 3);
    assert_true(score[w] >= 45 || tricks[w] == 5);
    for (int s = 0; s < 3; s++)
        assert_true(s == w || score[s] < 45);
}

/* ---- options ------------------------------------------------------------ */

static void rejects(const char *spec, int code, const char *words)
{
    struct game g;
    char err[256];
    assert_int_equal(game_make(&g, spec, err, sizeof err), code);
    if (!strstr(err, words))
        fail_msg("'%s' gave '%s', expected it to mention '%s'", spec, err,
                 words);
}

static void test_configure(void **state)
{
    (void)state;
    rejects("spoil_five(players=3,partnerships=true)", ERR_INVAL,
            "partnerships needs players=4");
    rejects("spoil_five(two_tricks_win=true)", ERR_INVAL,
            "two_tricks_win needs players >= 5");
    rejects("spoil_five(players=3,fiving=true)", ERR_INVAL,
            "fiving needs players=2 or partnerships=true");
    rejects("spoil_five(target=25,jinking=true)", ERR_INVAL,
            "jinking needs target=none");
    rejects("spoil_five(players=5,target=45,two_tricks_win=true)", ERR_INVAL,
            "two_tricks_win needs target=none");
    rejects("spoil_five(ordinary_sequence=true,"
            "ace_hearts_lead_is_trump_lead=true)",
            ERR_INVAL, "ordinary_sequence=false");
    rejects("spoil_five(players=11)", ERR_RANGE, "players");
    rejects("spoil_five(robbing=sometimes)", ERR_INVAL, "robbing");
    struct sf t;
    make(&t, "spoil_five");
    assert_int_equal(t.g.dims.players, 4);
    assert_int_equal(t.g.dims.teams, 4);
    make(&t, "spoil_five(players=2,fiving=true)");
    make(&t, "spoil_five(players=10,two_tricks_win=true,jinking=true)");
    /* The defaults, spelt out. */
    assert_true(game_param(&t.g, "stake") == 2);
    assert_true(game_param(&t.g, "dealer_stake") == 1);
    assert_true(game_param(&t.g, "spoil_stake") == 1);
    assert_true(game_param(&t.g, "deals") == 10);
    assert_true(game_param(&t.g, "robbing") == 0); /* compulsory */
}

static void test_stakes_are_options(void **state)
{
    (void)state;
    struct sf t;
    /* stake=3, dealer_stake=2: the two-tricks deal of five players gives
     * a pool of 5 x 3 + 2 = 17, seat 1 nets 17 - 3 = 14. */
    start(&t,
          "spoil_five(players=5,two_tricks_win=true,stake=3,"
          "dealer_stake=2)",
          "5C JC 2H 3H 4H  2D 3D 4D 5D 6D  2S 3S 4S 5S 6S"
          "  7D 8D 9D 10D JD  7S 8S 9S 10S JS  3C");
    view_is(&t, 0, "pool", NULL, "17");
    const char *plays[10] = {"play 5♣", "play 2♦", "play 2♠", "play 7♦",
                             "play 7♠", "play J♣", "play 3♦", "play 3♠",
                             "play 8♦", "play 8♠"};
    for (int k = 0; k < 10; k++)
        act(&t, (1 + k % 5) % 5, plays[k]);
    assert_true(ret(&t, 1) == 14 && ret(&t, 0) == -5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_red_ranks),
        cmocka_unit_test(test_plain_black_ranks),
        cmocka_unit_test(test_diamond_trump_ranks),
        cmocka_unit_test(test_heart_trump_ranks),
        cmocka_unit_test(test_black_trump_ranks),
        cmocka_unit_test(test_ordinary_sequence_ranks),
        cmocka_unit_test(test_trumps_beat_plain_and_off_suit_never_wins),
        cmocka_unit_test(test_plain_lead_follow_or_trump),
        cmocka_unit_test(test_jack_led_forces_lone_ace_of_hearts),
        cmocka_unit_test(test_five_led_no_reneging),
        cmocka_unit_test(test_reneging_each_privileged_trump),
        cmocka_unit_test(test_ace_of_hearts_lead),
        cmocka_unit_test(test_ordinary_sequence_no_reneging),
        cmocka_unit_test(test_dealer_robs_turned_ace),
        cmocka_unit_test(test_ace_holder_robs_at_first_turn),
        cmocka_unit_test(test_declining_to_rob_bars_the_pool),
        cmocka_unit_test(test_spoilt_pool_carried_over),
        cmocka_unit_test(test_partnership_side_takes_pool),
        cmocka_unit_test(test_two_tricks_win),
        cmocka_unit_test(test_jinking_won),
        cmocka_unit_test(test_jinking_lost),
        cmocka_unit_test(test_jink_offered_only_with_every_trick),
        cmocka_unit_test(test_fiving),
        cmocka_unit_test(test_twenty_five_all_tricks),
        cmocka_unit_test(test_forty_five_accumulates),
        cmocka_unit_test(test_configure),
        cmocka_unit_test(test_stakes_are_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
