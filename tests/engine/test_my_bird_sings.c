/* test_my_bird_sings.c — My Bird Sings (Peel; docs/games/my_bird_sings.md):
 * song detection (flush, rainbow, 2+1+1, three-card flushes), priority at the
 * deal, both passing methods, the leader's stock exchange, the cap and the
 * carried pool, the play-until-exhausted tricks with ties, the short pack, and
 * the knowledge determinize must keep. Hands are dealt from explicit card
 * orders: seat 0 deals first, so deck[0] goes to seat 1 and the cards go round
 * one at a time; the stock follows. Chips: one each into the pool, the dealer
 * one more. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "engine/game.h"

#define STATE_MAX 4096

struct table {
    struct game g;
    _Alignas(16) unsigned char st[STATE_MAX];
};

/* Deals hands[seat] (k cards each, as text) with seat 0 dealing, then the
 * stock's first cards. */
static void start(struct table *t, const char *spec, const char *const *hands,
                  const char *stock)
{
    char err[256];
    uint8_t h[16][8], deck[64];
    int n, k = 0, m = 0;
    assert_int_equal(game_make(&t->g, spec, err, sizeof err), 0);
    assert_true(t->g.def->state_size <= STATE_MAX);
    n = t->g.dims.players;
    for (int s = 0; s < n; s++)
        k = game_deck_parse(&t->g, hands[s], h[s], 8, err, sizeof err);
    assert_true(k == 3 || k == 4);
    for (int r = 0; r < k; r++)
        for (int j = 1; j <= n; j++)
            deck[m++] = h[j % n][r];
    int extra =
        game_deck_parse(&t->g, stock, deck + m, 64 - m, err, sizeof err);
    assert_true(extra >= 0);
    assert_int_equal(game_init(&t->g, t->st, 11, deck, m + extra), 0);
}

static int seat_to_act(struct table *t)
{
    return game_current_seat(&t->g, t->st);
}

/* Seat (must be the one to act) plays the action named text. */
static void act(struct table *t, int seat, const char *text)
{
    char err[512];
    assert_int_equal(seat_to_act(t), seat);
    int a = game_action_parse(&t->g, t->st, seat, text, err, sizeof err);
    if (a < 0)
        fail_msg("%s", err);
    assert_int_equal(game_apply(&t->g, t->st, seat, a), 0);
}

/* The legal action names of the seat to act, joined by commas. */
static void legal_names(struct table *t, char *out, size_t len)
{
    int legal[16], seat = seat_to_act(t);
    int n = t->g.def->legal(&t->g, t->st, seat, legal);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char name[GAME_NAME_MAX];
        game_action_name(&t->g, t->st, legal[i], name, sizeof name);
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "",
                                 name);
    }
}

static void assert_legal(struct table *t, const char *want)
{
    char got[512];
    legal_names(t, got, sizeof got);
    assert_string_equal(got, want);
}

static int ret(struct table *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, t->st, r);
    return (int)r[seat];
}

/* ---- the view ----------------------------------------------------------- */

struct view {
    msgpack_sbuffer sb;
    msgpack_unpacked u;
};

static const msgpack_object *view_get(struct view *v, struct table *t, int seat,
                                      const char *key)
{
    msgpack_packer pk;
    size_t off = 0;
    msgpack_sbuffer_init(&v->sb);
    msgpack_packer_init(&pk, &v->sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, t->st, seat, &pk), 0);
    msgpack_unpacked_init(&v->u);
    assert_true(msgpack_unpack_next(&v->u, v->sb.data, v->sb.size, &off) > 0);
    const msgpack_object_map *m = &v->u.data.via.map;
    for (uint32_t i = 0; i < m->size; i++)
        if (m->ptr[i].key.via.str.size == strlen(key) &&
            !memcmp(m->ptr[i].key.via.str.ptr, key, strlen(key)))
            return &m->ptr[i].val;
    fail_msg("no view key %s", key);
    return NULL;
}

static void view_done(struct view *v)
{
    msgpack_unpacked_destroy(&v->u);
    msgpack_sbuffer_destroy(&v->sb);
}

/* An integer view value. */
static int view_int(struct table *t, int seat, const char *key)
{
    struct view v;
    int x = (int)view_get(&v, t, seat, key)->via.i64;
    view_done(&v);
    return x;
}

/* A list of strings in the view (a hand), joined by spaces. */
static void view_cards(struct table *t, int seat, const char *key, char *out,
                       size_t len)
{
    struct view v;
    const msgpack_object *a = view_get(&v, t, seat, key);
    size_t used = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < a->via.array.size; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%.*s", i ? " " : "",
                                 (int)a->via.array.ptr[i].via.str.size,
                                 a->via.array.ptr[i].via.str.ptr);
    view_done(&v);
}

/* The name of the last history entry as seat sees it. */
static void last_history(struct table *t, int seat, char *out, size_t len)
{
    struct view v;
    const msgpack_object *a = view_get(&v, t, seat, "history");
    const msgpack_object *e = &a->via.array.ptr[a->via.array.size - 1];
    const msgpack_object *s = &e->via.array.ptr[1];
    snprintf(out, len, "%.*s", (int)s->via.str.size, s->via.str.ptr);
    view_done(&v);
}

/* ---- song detection ----------------------------------------------------- */

static void test_flush_sings_at_the_deal(void **state)
{
    (void)state;
    struct table t;
    /* Seat 1 (the dealer's left) holds four spades: a flush. Pool: 1 + 1
     * + 1 + 2 (dealer) = 5; seat 1 takes it, net +4. */
    const char *hands[4] = {"2C 5D 9H KC", "2S 7S 10S QS", "3C 4D 8H JC",
                            "4C 6D 10H QC"};
    start(&t, "my_bird_sings", hands, "");
    assert_int_equal(seat_to_act(&t), 1);
    assert_legal(&t, "sing");
    act(&t, 1, "sing");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 1), 4);
    assert_int_equal(ret(&t, 0), -2);
    assert_int_equal(ret(&t, 2), -1);
    assert_int_equal(ret(&t, 3), -1);
}

static void test_rainbow_sings_and_priority(void **state)
{
    (void)state;
    struct table t;
    /* Seat 2 holds one card of each suit (a rainbow), seat 3 a flush of
     * hearts; seat 1 has 2+1+1 suits (no song). Hands are checked from the
     * dealer's left: seat 2 sings first and wins. */
    const char *hands[4] = {"2C 5D 9D KC", "2H 7H 10S QC", "3C 4D 8H JS",
                            "4H 6H 9H QH"};
    start(&t, "my_bird_sings", hands, "");
    assert_int_equal(seat_to_act(&t), 2);
    act(&t, 2, "sing");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 2), 4);
    assert_int_equal(ret(&t, 3), -1);
}

static void test_two_one_one_does_not_sing(void **state)
{
    (void)state;
    struct table t;
    /* 2+1+1 suits everywhere: nobody sings, the leader (seat 1) throws. */
    const char *hands[4] = {"2C 5D 9D KS", "2H 7H 10S QC", "3C 4C 8H JS",
                            "4H 6D 8D QS"};
    start(&t, "my_bird_sings", hands, "");
    assert_int_equal(seat_to_act(&t), 1);
    assert_legal(&t, "throw Q♣, throw 2♥, throw 7♥, throw 10♠");
}

static void test_flushes_only_ignores_rainbows(void **state)
{
    (void)state;
    struct table t;
    /* The rainbow of seat 2 does not sing with flushes_only; seat 3's
     * flush does. */
    const char *hands[4] = {"2C 5D 9D KC", "2H 7H 10S QC", "3C 4D 8H JS",
                            "4H 6H 9H QH"};
    start(&t, "my_bird_sings(flushes_only=true)", hands, "");
    assert_int_equal(seat_to_act(&t), 3);
    act(&t, 3, "sing");
    assert_int_equal(ret(&t, 3), 4);
}

static void test_three_card_flushes(void **state)
{
    (void)state;
    struct table t;
    /* Three cards each; only three of a suit sings. Seat 1's three suits
     * and seat 2's 2+1 do not; seat 3's three diamonds do. */
    const char *hands[3] = {"2C 5D 9S", "2H 7C 10S", "3C 4C 8H"};
    const char *four[4] = {"2C 5D 9S", "2H 7C 10S", "3C 4C 8H", "3D 6D QD"};
    start(&t, "my_bird_sings(players=4,three_cards=true)", four, "");
    assert_int_equal(seat_to_act(&t), 3);
    act(&t, 3, "sing");
    assert_int_equal(ret(&t, 3), 4);
    /* In play: seat 2 (two clubs and a heart) receives a club from the
     * leader and holds three clubs among four: it sings. */
    start(&t, "my_bird_sings(players=3,three_cards=true)", hands, "");
    assert_int_equal(seat_to_act(&t), 1);
    act(&t, 1, "throw 7C");
    assert_int_equal(seat_to_act(&t), 2);
    assert_legal(&t, "sing");
    act(&t, 2, "sing");
    /* Pool 1 + 1 + 2 = 4: seat 2 nets +3. */
    assert_int_equal(ret(&t, 2), 3);
}

/* ---- passing ------------------------------------------------------------ */

static void test_throw_and_sing_with_five(void **state)
{
    (void)state;
    struct table t;
    char h[128];
    /* The leader throws 10♠ face down to seat 2, whose 3♥ 4♥ 7♣ J♦ (three
     * suits) becomes five cards holding a rainbow (any four of the five):
     * it sings. Only seats 1 and 2 learn the card thrown. */
    const char *hands[4] = {"2C 5D 9D KS", "2H 5H 10S QC", "3H 4H 7C JD",
                            "4C 6D 9C QS"};
    start(&t, "my_bird_sings", hands, "");
    act(&t, 1, "throw 10S");
    last_history(&t, 1, h, sizeof h);
    assert_string_equal(h, "throw 10♠");
    last_history(&t, 2, h, sizeof h);
    assert_string_equal(h, "throw 10♠");
    last_history(&t, 3, h, sizeof h);
    assert_string_equal(h, "throw");
    view_cards(&t, 2, "hand", h, sizeof h);
    assert_string_equal(h, "7♣ J♦ 3♥ 4♥ 10♠");
    assert_int_equal(seat_to_act(&t), 2);
    act(&t, 2, "sing");
    assert_int_equal(ret(&t, 2), 4);
}

static void test_throw_goes_round(void **state)
{
    (void)state;
    struct table t;
    /* Without a song the card goes on (flushes only; 2♥ makes no flush
     * anywhere): seat 2 holds five and throws, then seat 3, then the
     * dealer, and the leader has it again: one circuit. Everyone is back
     * to four cards. */
    const char *hands[4] = {"2C 5D 9D KS", "2H 5H 10S QC", "3H 3C 7C JD",
                            "4C 6D 9C QS"};
    start(&t, "my_bird_sings(flushes_only=true)", hands, "");
    act(&t, 1, "throw 2H");
    act(&t, 2, "throw 2H");
    act(&t, 3, "throw 2H");
    act(&t, 0, "throw 2H");
    assert_int_equal(seat_to_act(&t), 1);
    assert_int_equal(view_int(&t, 1, "circuit"), 2);
    struct view v;
    const msgpack_object *sizes = view_get(&v, &t, 0, "hand_sizes");
    for (int s = 0; s < 4; s++)
        assert_int_equal(sizes->via.array.ptr[s].via.i64, 4);
    view_done(&v);
}

static void test_blind_draw(void **state)
{
    (void)state;
    struct table t;
    char h[128], lost[16];
    /* method=draw: seat 2 draws one of the leader's four cards blind (a
     * chance event); its one action is "draw", the leader has none. The
     * leader learns which card went (it left his hand), seat 3 does not. */
    const char *hands[4] = {"2C 5D 9D KS", "2H 5H 10S QC", "3H 3C 7C JD",
                            "4C 6D 9C QS"};
    start(&t, "my_bird_sings(method=draw,flushes_only=true)", hands, "");
    assert_int_equal(seat_to_act(&t), 2);
    assert_legal(&t, "draw");
    act(&t, 2, "draw");
    view_cards(&t, 1, "hand", h, sizeof h);
    /* The card drawn is the one of Q♣ 2♥ 5♥ 10♠ the leader lacks now. */
    const char *orig[4] = {"Q♣", "2♥", "5♥", "10♠"};
    int missing = -1;
    for (int i = 0; i < 4; i++)
        if (!strstr(h, orig[i]))
            missing = i;
    assert_true(missing >= 0);
    snprintf(lost, sizeof lost, "draw %s", orig[missing]);
    last_history(&t, 1, h, sizeof h);
    assert_string_equal(h, lost);
    last_history(&t, 3, h, sizeof h);
    assert_string_equal(h, "draw");
    struct view v;
    const msgpack_object *sent = view_get(&v, &t, 1, "sent");
    assert_int_equal(sent->type, MSGPACK_OBJECT_STR);
    view_done(&v);
    /* Then seat 3 draws from seat 2 (five cards). */
    assert_int_equal(seat_to_act(&t), 3);
    assert_legal(&t, "draw");
}

/* ---- the exchange, the cap, the carried pool ----------------------------- */

/* Two players, flushes only; A♣ shuttles between them, no song. */
static const char *const shuttle[2] = {"5C 6D 7H 8S", "AC 2D 3H 4S"};

static void shuttle_circuits(struct table *t, int n)
{
    for (int i = 0; i < n; i++) {
        act(t, 1, "throw AC");
        act(t, 0, "throw AC");
    }
}

static void test_exchange_after_three_circuits(void **state)
{
    (void)state;
    struct table t;
    char h[128];
    /* After two circuits the leader just throws; after the third he may
     * exchange. He puts A♣ out: K♣ and Q♣ come next from the stock, the
     * suit he put out, so they go out too; J♥ is his. */
    start(&t, "my_bird_sings(players=2,flushes_only=true)", shuttle,
          "KC QC JH 9S");
    shuttle_circuits(&t, 2);
    assert_legal(&t, "throw A♣, throw 2♦, throw 3♥, throw 4♠");
    shuttle_circuits(&t, 1);
    assert_legal(&t, "exchange A♣, exchange 2♦, exchange 3♥, exchange 4♠, "
                     "no exchange");
    int stock = view_int(&t, 0, "stock");
    act(&t, 1, "exchange AC");
    view_cards(&t, 1, "hand", h, sizeof h);
    assert_string_equal(h, "2♦ 3♥ J♥ 4♠");
    view_cards(&t, 0, "dead", h, sizeof h);
    assert_string_equal(h, "A♣ Q♣ K♣");
    assert_int_equal(view_int(&t, 0, "stock"), stock - 3);
    assert_legal(&t, "throw 2♦, throw 3♥, throw J♥, throw 4♠");
}

static void test_no_exchange_and_next_circuit(void **state)
{
    (void)state;
    struct table t;
    /* Declining keeps the hand; the option comes back each circuit. Only
     * the original leader has it. With exchange=false it never comes. */
    start(&t, "my_bird_sings(players=2,flushes_only=true)", shuttle, "");
    shuttle_circuits(&t, 3);
    act(&t, 1, "no exchange");
    assert_legal(&t, "throw A♣, throw 2♦, throw 3♥, throw 4♠");
    act(&t, 1, "throw AC");
    assert_legal(&t, "throw A♣, throw 5♣, throw 6♦, throw 7♥, throw 8♠");
    act(&t, 0, "throw AC");
    assert_legal(&t, "exchange A♣, exchange 2♦, exchange 3♥, exchange 4♠, "
                     "no exchange");
    start(&t, "my_bird_sings(players=2,flushes_only=true,exchange=false)",
          shuttle, "");
    shuttle_circuits(&t, 3);
    assert_legal(&t, "throw A♣, throw 2♦, throw 3♥, throw 4♠");
}

static void test_exchange_song(void **state)
{
    (void)state;
    struct table t;
    /* Flushes only. The leader's 2♥ 3♥ 5♥ 4♠ and the dealer's two clubs
     * never sing while 4♠ shuttles. At the fourth circuit the leader puts
     * 4♠ out and draws 6♥: four hearts, he sings at once. */
    const char *hands[2] = {"5C 6D 7C 8S", "2H 3H 5H 4S"};
    start(&t, "my_bird_sings(players=2,flushes_only=true)", hands, "6H");
    for (int i = 0; i < 3; i++) {
        act(&t, 1, "throw 4S");
        act(&t, 0, "throw 4S");
    }
    act(&t, 1, "exchange 4S");
    assert_legal(&t, "sing");
    act(&t, 1, "sing");
    /* Pool 1 + 2 = 3: the leader nets +2. */
    assert_int_equal(ret(&t, 1), 2);
}

static void test_no_stock_no_exchange(void **state)
{
    (void)state;
    struct table t;
    /* Thirteen players take the whole pack: seat s holds its rank
     * s+1 in every suit, so with flushes only nobody sings while the
     * leader's 2♣ goes round. After three circuits there is no stock to
     * exchange with: the leader just throws. */
    char buf[13][32];
    const char *hands[13];
    const char *ranks[13] = {"A", "2", "3",  "4", "5", "6", "7",
                             "8", "9", "10", "J", "Q", "K"};
    for (int s = 0; s < 13; s++) {
        snprintf(buf[s], sizeof buf[s], "%sC %sD %sH %sS", ranks[s], ranks[s],
                 ranks[s], ranks[s]);
        hands[s] = buf[s];
    }
    start(&t, "my_bird_sings(players=13,flushes_only=true)", hands, "");
    assert_int_equal(view_int(&t, 0, "stock"), 0);
    for (int i = 0; i < 3 * 13; i++)
        act(&t, (1 + i) % 13, "throw 2C");
    assert_int_equal(seat_to_act(&t), 1);
    assert_legal(&t, "throw 2♣, throw 2♦, throw 2♥, throw 2♠");
}

static void test_exchange_stock_runs_out(void **state)
{
    (void)state;
    struct table t;
    char h[128];
    /* Short pack, seven players: 28 cards dealt, the stock is the four
     * small spades. Flushes only; every hand is two and two suits (seat 6
     * and the dealer three hearts and a spade), so 7♣ goes round three
     * times without a song. The leader puts J♠ out: 7♠ 8♠ 9♠ are spades
     * and go out too; 10♠ is a spade but the last card of the stock, so he
     * keeps it. */
    const char *hands[7] = {"QH KH AH AS",  "JS QS 7C 8C", "9C 10C 7D 8D",
                            "JC QC 9D 10D", "KC AC JD QD", "KD AD 7H 8H",
                            "9H 10H JH KS"};
    start(&t, "my_bird_sings(players=7,pack=short,flushes_only=true)", hands,
          "7S 8S 9S 10S");
    assert_int_equal(view_int(&t, 0, "stock"), 4);
    for (int i = 0; i < 3 * 7; i++)
        act(&t, (1 + i) % 7, "throw 7C");
    act(&t, 1, "exchange JS");
    view_cards(&t, 1, "hand", h, sizeof h);
    assert_string_equal(h, "7♣ 8♣ 10♠ Q♠");
    view_cards(&t, 0, "dead", h, sizeof h);
    assert_string_equal(h, "7♠ 8♠ 9♠ J♠");
    assert_int_equal(view_int(&t, 0, "stock"), 0);
    /* With the stock empty the exchange is not offered again. */
    act(&t, 1, "throw 7C");
    for (int i = 1; i < 7; i++)
        act(&t, (1 + i) % 7, "throw 7C");
    assert_legal(&t, "throw 7♣, throw 8♣, throw 10♠, throw Q♠");
}

static void test_cap_voids_and_pool_carries(void **state)
{
    (void)state;
    struct table t;
    /* max_circuits=1: when the turn comes back to the leader without a
     * song the hand is void. With one deal the stakes go back: all 0. */
    start(&t, "my_bird_sings(players=2,flushes_only=true,max_circuits=1)",
          shuttle, "");
    shuttle_circuits(&t, 1);
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 0), 0);
    assert_int_equal(ret(&t, 1), 0);
    /* With two deals the pool (3) carries: seat 1 deals the second and
     * pays 2, seat 0 pays 1; pool 6, both have paid 3. */
    start(&t,
          "my_bird_sings(players=2,flushes_only=true,max_circuits=1,deals=2)",
          shuttle, "");
    shuttle_circuits(&t, 1);
    assert_false(game_is_terminal(&t.g, t.st));
    assert_int_equal(view_int(&t, 0, "pool"), 6);
    assert_int_equal(view_int(&t, 0, "dealer"), 1);
    assert_int_equal(ret(&t, 0), -3);
    assert_int_equal(ret(&t, 1), -3);
}

/* ---- playing until the pack is exhausted -------------------------------- */

static void test_tricks_and_singing_again(void **state)
{
    (void)state;
    struct table t;
    char h[128];
    /* until_exhausted, three players, one circuit. Seat 1's four spades
     * sing at the deal: a trick, laid face up out of play; he draws 2♥ 5♥
     * 9♥ K♥ from the stock, a flush again: a second trick; then A♦ 2♣ 3♦
     * 5♣ (no song). Seat 2 and the dealer do not sing (A♦ passed round
     * makes none); the circuit ends at the cap and seat 1 takes the pool
     * of 4 with two tricks: +3. */
    const char *hands[3] = {"4C 6D 8H 10C", "2S 7S 10S QS", "3C 4D 9C JC"};
    start(&t, "my_bird_sings(players=3,until_exhausted=true,max_circuits=1)",
          hands, "2H 5H 9H KH AD 2C 3D 5C");
    act(&t, 1, "sing");
    assert_int_equal(view_int(&t, 0, "stock"), 52 - 12 - 4);
    view_cards(&t, 2, "dead", h, sizeof h);
    assert_string_equal(h, "2♠ 7♠ 10♠ Q♠");
    act(&t, 1, "sing");
    view_cards(&t, 1, "hand", h, sizeof h);
    assert_string_equal(h, "2♣ 5♣ A♦ 3♦");
    act(&t, 1, "throw AD");
    act(&t, 2, "throw AD");
    act(&t, 0, "throw AD");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 1), 3);
    assert_int_equal(ret(&t, 2), -1);
    assert_int_equal(ret(&t, 0), -2);
}

static void test_tricks_tie_splits(void **state)
{
    (void)state;
    struct table t;
    /* Four players: seats 1 and 2 each sing once at the deal (a flush, a
     * rainbow) and refill without a song; one circuit, no more songs. Pool
     * 5 split between them: 2 each, the odd chip to the first from the
     * dealer's left (seat 1): seat 1 +2, seat 2 +1, seat 3 -1, seat 0 -2. */
    const char *hands[4] = {"4C 6D 8C 10C", "2S 7S 10S QS", "3C 4D 9H JS",
                            "5C 6C 9D JD"};
    start(&t, "my_bird_sings(until_exhausted=true,max_circuits=1)", hands,
          "2H 3H 4S 5D 6H 7H 8S 9C");
    act(&t, 1, "sing");
    act(&t, 2, "sing");
    act(&t, 1, "throw 2H");
    act(&t, 2, "throw 2H");
    act(&t, 3, "throw 2H");
    act(&t, 0, "throw 2H");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 1), 2);
    assert_int_equal(ret(&t, 2), 1);
    assert_int_equal(ret(&t, 3), -1);
    assert_int_equal(ret(&t, 0), -2);
}

static void test_tricks_end_when_stock_cannot_refill(void **state)
{
    (void)state;
    struct table t;
    /* Thirteen players: no stock, so the first song's trick cannot be
     * refilled and the hand ends: seat 1 takes the pool of 14, +13. */
    char buf[13][32];
    const char *hands[13];
    const char *ranks[13] = {"A", "2", "3",  "4", "5", "6", "7",
                             "8", "9", "10", "J", "Q", "K"};
    for (int s = 0; s < 13; s++) {
        snprintf(buf[s], sizeof buf[s], "%sC %sD %sH %sS", ranks[s], ranks[s],
                 ranks[s], ranks[s]);
        hands[s] = buf[s];
    }
    start(&t, "my_bird_sings(players=13,until_exhausted=true)", hands, "");
    act(&t, 1, "sing");
    assert_true(game_is_terminal(&t.g, t.st));
    assert_int_equal(ret(&t, 1), 13);
    assert_int_equal(ret(&t, 0), -2);
}

/* ---- the short pack, options -------------------------------------------- */

static void test_short_pack(void **state)
{
    (void)state;
    struct table t;
    struct game g;
    char err[256];
    unsigned char st[STATE_MAX];
    /* 7 to ace only: eight players take all 32 cards, no stock. */
    const char *hands[8] = {"7C 7D 7H 7S",     "8C 8D 8H 8S", "9C 9D 9H 9S",
                            "10C 10D 10H 10S", "JC JD JH JS", "QC QD QH QS",
                            "KC KD KH KS",     "AC AD AH AS"};
    start(&t, "my_bird_sings(players=8,pack=short)", hands, "");
    assert_int_equal(view_int(&t, 0, "stock"), 0);
    /* Everyone holds a rainbow: the dealer's left sings first. */
    act(&t, 1, "sing");
    assert_int_equal(ret(&t, 1), 8);
    /* A 2 is not in the short pack. */
    assert_int_equal(
        game_make(&g, "my_bird_sings(pack=short)", err, sizeof err), 0);
    uint8_t deck[1] = {(uint8_t)card_make(2, CLUBS)};
    assert_int_equal(game_init(&g, st, 1, deck, 1), ERR_INVAL);
}

static void test_options_checked(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    assert_int_equal(
        game_make(&g, "my_bird_sings(players=9,pack=short)", err, sizeof err),
        ERR_INVAL);
    assert_non_null(strstr(err, "pack=short"));
    assert_int_equal(game_make(&g,
                               "my_bird_sings(three_cards=true,"
                               "flushes_only=false)",
                               err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "flushes_only"));
    assert_int_equal(
        game_make(&g, "my_bird_sings(players=14)", err, sizeof err), ERR_RANGE);
    assert_int_equal(
        game_make(&g, "my_bird_sings(players=13)", err, sizeof err), 0);
    assert_int_equal(
        game_make(&g, "my_bird_sings(three_cards=true)", err, sizeof err), 0);
}

/* ---- determinize -------------------------------------------------------- */

static void test_determinize_keeps_knowledge(void **state)
{
    (void)state;
    struct table t;
    unsigned char copy[STATE_MAX];
    char before[256], after[256], h[128];
    /* Seat 1 throws 10♠ to seat 2, which does not sing and throws 3♠ on:
     * seat 1 no longer knows where 10♠ is (seat 2 parted with a card) but
     * it is in some hand, never the stock. Seat 3 has just thrown 3♠ to
     * the dealer, who surely holds it still. */
    const char *hands[4] = {"2C 5D 9D KS", "2H 5H 10S QC", "3H 3S 7C 7D",
                            "4C 6D 9C QS"};
    start(&t, "my_bird_sings(flushes_only=true)", hands, "");
    act(&t, 1, "throw 10S");
    act(&t, 2, "throw 3S");
    act(&t, 3, "throw 3S");
    t.g.def->describe(&t.g, t.st, 3, before, sizeof before);
    for (int k = 0; k < 20; k++) {
        struct rng r;
        rng_seed(&r, (uint64_t)k);
        memcpy(copy, t.st, t.g.def->state_size);
        t.g.def->determinize(&t.g, copy, 3, &r);
        struct table d = t;
        memcpy(d.st, copy, t.g.def->state_size);
        view_cards(&d, 0, "hand", h, sizeof h);
        assert_non_null(strstr(h, "3♠"));
        t.g.def->describe(&t.g, copy, 3, after, sizeof after);
        assert_string_equal(before, after);
        /* 10♠, passed by seat 1: in a hand after determinizing for 1. */
        memcpy(copy, t.st, t.g.def->state_size);
        t.g.def->determinize(&t.g, copy, 1, &r);
        memcpy(d.st, copy, t.g.def->state_size);
        int holders = 0;
        for (int s = 0; s < 4; s++) {
            view_cards(&d, s, "hand", h, sizeof h);
            holders += strstr(h, "10♠") != NULL;
        }
        assert_int_equal(holders, 1);
        view_cards(&d, 1, "hand", h, sizeof h);
        assert_string_equal(h, "Q♣ 2♥ 5♥");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_sings_at_the_deal),
        cmocka_unit_test(test_rainbow_sings_and_priority),
        cmocka_unit_test(test_two_one_one_does_not_sing),
        cmocka_unit_test(test_flushes_only_ignores_rainbows),
        cmocka_unit_test(test_three_card_flushes),
        cmocka_unit_test(test_throw_and_sing_with_five),
        cmocka_unit_test(test_throw_goes_round),
        cmocka_unit_test(test_blind_draw),
        cmocka_unit_test(test_exchange_after_three_circuits),
        cmocka_unit_test(test_no_exchange_and_next_circuit),
        cmocka_unit_test(test_exchange_song),
        cmocka_unit_test(test_no_stock_no_exchange),
        cmocka_unit_test(test_exchange_stock_runs_out),
        cmocka_unit_test(test_cap_voids_and_pool_carries),
        cmocka_unit_test(test_tricks_and_singing_again),
        cmocka_unit_test(test_tricks_tie_splits),
        cmocka_unit_test(test_tricks_end_when_stock_cannot_refill),
        cmocka_unit_test(test_short_pack),
        cmocka_unit_test(test_options_checked),
        cmocka_unit_test(test_determinize_keeps_knowledge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
