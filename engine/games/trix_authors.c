/* trix_authors.c — Trix Authors: three to six players collect the nine
 * Books (commodities) of eight cards by asking each other for "one card
 * Gold" and drawing from a face-down pack; a completed Book is one point;
 * the most Books wins.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "Trix Authors"; docs/games/trix_authors.md states them as played
 * here.
 *
 * Decisions (docs/games/trix_authors.md explains the main ones):
 * - Commodities: the 72 cards in pack order (trix_pack.h ids) in
 *   blocks of eight are Gold, Zinc, Iron, Salt, Lime, Coal, Lead, Mica,
 *   Alum: commodity = card id / 8. Only the commodity matters, so
 *   hands are counts per commodity.
 * - Seats clockwise; one deal. The book has each player draw a card, the lowest
 *   sum dealing: the first dealer is a seeded random seat (game_first_dealer;
 *   docs/games/README.md, "First dealer"), and seat 0 when an explicit deck is
 *   given, so that deck[0] goes to seat 1. Pack order: deck[0] goes to the
 *   dealer's left, one card at a time clockwise, six each; the rest is the
 *   pack, drawn from the next card on. The player left of the dealer asks
 *   first.
 * - An ask names another player who holds at least one card (asking an
 *   empty hand could only miss) and a commodity the asker holds. A
 *   hit hands over exactly one card, shown to all, and the asker asks
 *   again. A miss: the asker draws the pack's top card; if it is the
 *   commodity asked he shows it and asks again, otherwise it stays hidden
 *   and the turn passes left. A miss with the pack empty passes the
 *   turn.
 * - Chance: there is no blind draw from another hand here — a hit has
 *   one outcome, since cards of one commodity are interchangeable.
 *   The one chance event is the pack draw, uniform because the pack is
 *   shuffled from the state RNG (determinize reshuffles every card the
 *   seat has not seen). The drawer learns the card; the others learn only
 *   that a card was drawn, unless it matches the ask and is shown.
 * - A completed Book (all eight in one hand) is laid down at once for a
 *   point, publicly, and does not end the turn.
 * - Empty hand: a player to act with no card draws one from the pack
 *   (hidden) and then asks; with the pack empty his turn is skipped. This
 *   also applies when his hand empties during his turn by laying a Book
 *   (the book is silent; the same reason holds).
 * - If no other player holds a card, nobody can be asked: the player draws
 *   one card (hidden) and the turn passes left, as after a miss (our
 *   choice; with the pack empty this cannot happen, since he would then
 *   hold whole Books and have laid them).
 * - End: when all nine Books are down. Cap: after max_asks asks
 *   the game ends as a draw (with an empty pack, misses can repeat).
 * - Returns: at the end, the k players with the most Books share the win:
 *   +1/k each, and the n-k others -1/(n-k) each (zero-sum; all tied → 0);
 *   0 while playing and for a capped game.
 * - Action ids: seat t (absolute) and commodity c give id t * 9 + c,
 *   named "ask t for Gold".
 * - Public knowledge kept in the state (and shown to every seat): for each
 *   seat and commodity the number of cards known to be in that hand
 *   (asked for, received, shown on a draw) and whether the hand is known
 *   to hold none (a miss, a laid Book; a hidden draw clears it).
 *   Determinization keeps those known cards in place and redeals every
 *   other unseen card: the unknown part of each other hand is filled at
 *   random with commodities that hand is not known to lack, never
 *   reaching eight of one (a whole Book is always laid at once, so a
 *   world holding one could never lay it and would deadlock), the hands
 *   lacking most first; the rest becomes the pack in random order. After
 *   RETRIES dead ends it keeps the true hands (they fit) and reshuffles
 *   only the pack.
 * - The view's history keeps the last HIST events of the game.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../trix_pack.h"
#include "../view.h"

#define MAXP 6
#define NCOM 9   /* commodities (Books) */
#define COPIES 8 /* cards per Book */
#define DEAL 6
#define HIST 64
#define RETRIES 16
#define NO_SEAT 0xff

enum { P_PLAYERS, P_MAX_ASKS, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 3, MAXP, NULL, "number of players"},
    {"max_asks", PARAM_INT, 1000, 10, 100000, NULL,
     "asks before the game ends as a draw"},
};

static const char *const test_specs[] = {
    "trix_authors(players=6,max_asks=200)",
    "trix_authors(players=3,max_asks=30)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",  "dealer", "hand_sizes", "pack",    "books",
    "owner", "known",  "voids",      "history", NULL,
};

/* Every name is COM_LEN letters: the view copies them at a fixed size. */
#define COM_LEN 4
static const char com_name[NCOM][COM_LEN + 1] = {
    "Gold", "Zinc", "Iron", "Salt", "Lime", "Coal", "Lead", "Mica", "Alum",
};

/* History events: what everyone saw. */
enum { EV_ASK, EV_HIT, EV_MISS, EV_SHOWN, EV_DRAW, EV_BOOK, EV_SKIP };

struct authors_state {
    struct rng rng;
    uint8_t hand[MAXP][NCOM];  /* cards held per commodity */
    uint8_t known[MAXP][NCOM]; /* publicly known to be held (<= hand) */
    uint16_t voids[MAXP];      /* bit c: known to hold no c */
    uint8_t size[MAXP];        /* cards held */
    uint8_t books[MAXP];
    uint8_t owner[NCOM];      /* who laid the Book, NO_SEAT while open */
    uint16_t laid;            /* bit c: owner[c] != NO_SEAT */
    uint8_t pack[TRIX_CARDS]; /* commodities; the pack is pack[top..72) */
    uint8_t top, dealer, turn, over, nlaid;
    uint32_t asks;
    uint32_t nhist;        /* events so far (a ring of the last HIST) */
    uint8_t hist[HIST][4]; /* seat, event, arg (seat/com), com */
};

/* ==== helpers ========================================================== */

static int np(const struct game *g)
{
    return g->dims.players;
}

static int next(const struct game *g, int s)
{
    return (s + 1) % np(g);
}

static void event(struct authors_state *st, int seat, int ev, int a, int c)
{
    uint8_t *e = st->hist[st->nhist % HIST];
    e[0] = (uint8_t)seat;
    e[1] = (uint8_t)ev;
    e[2] = (uint8_t)a;
    e[3] = (uint8_t)c;
    st->nhist++;
}

static int pack_left(const struct authors_state *st)
{
    return TRIX_CARDS - st->top;
}

/* Lays down seat's Book of c if complete. */
static void check_book(struct authors_state *st, int seat, int c)
{
    if (st->hand[seat][c] < COPIES)
        return;
    st->hand[seat][c] = 0;
    st->size[seat] -= COPIES;
    st->books[seat]++;
    st->owner[c] = (uint8_t)seat;
    st->laid |= (uint16_t)(1u << c);
    st->nlaid++;
    for (int s = 0; s < MAXP; s++) {
        st->known[s][c] = 0;
        st->voids[s] |= (uint16_t)(1u << c);
    }
    event(st, seat, EV_BOOK, c, c);
    if (st->nlaid == NCOM)
        st->over = 1;
}

/* seat takes the pack's top card; returns its commodity. Unless shown,
 * the others no longer know which commodities seat lacks. */
static int draw(struct authors_state *st, int seat, bool shown)
{
    int c = st->pack[st->top++];
    st->hand[seat][c]++;
    st->size[seat]++;
    if (shown) {
        st->known[seat][c]++;
        st->voids[seat] &= (uint16_t) ~(1u << c);
        event(st, seat, EV_SHOWN, c, c);
    } else {
        st->voids[seat] = 0;
        for (int k = 0; k < NCOM; k++)
            if (st->owner[k] != NO_SEAT)
                st->voids[seat] |= (uint16_t)(1u << k);
        event(st, seat, EV_DRAW, 0, 0);
    }
    check_book(st, seat, c);
    return c;
}

static bool others_hold(const struct game *g, const struct authors_state *st,
                        int seat)
{
    for (int s = 0; s < np(g); s++)
        if (s != seat && st->size[s])
            return true;
    return false;
}

/* Runs the automatic steps (draws from the pack, skips) until someone can
 * ask or the game is over. Each pass either draws a card or skips an empty
 * hand, and n skips in a row mean every hand and the pack are empty: all
 * Books down. */
static void settle(const struct game *g, struct authors_state *st)
{
    for (int guard = 0; !st->over && guard < 4 * TRIX_CARDS; guard++) {
        int p = st->turn;
        if (st->size[p] && others_hold(g, st, p))
            return;
        if (pack_left(st) == 0) {
            event(st, p, EV_SKIP, 0, 0);
            st->turn = (uint8_t)next(g, p);
            continue;
        }
        bool had = st->size[p] != 0;
        draw(st, p, false);
        if (had)
            st->turn = (uint8_t)next(g, p); /* no one to ask */
    }
    if (!st->over && st->size[st->turn] == 0)
        st->over = 1; /* unreachable by the counting argument above */
}

/* ==== setup ============================================================ */

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct authors_state *st = vst;
    uint8_t cards[TRIX_CARDS];
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    memset(st->owner, NO_SEAT, sizeof st->owner);
    int k = trix_deck_build(cards, trix_hand_range(0, TRIX_CARDS - 1), deck,
                            ndeck, &st->rng);
    if (k < 0)
        return k;
    for (int i = 0; i < TRIX_CARDS; i++)
        st->pack[i] = (uint8_t)(cards[i] / COPIES);
    int n = np(g);
    st->dealer = (uint8_t)game_first_dealer(seed, n, deck, ndeck);
    for (int i = 0; i < DEAL * n; i++) {
        int s = (st->dealer + 1 + i) % n;
        st->hand[s][st->pack[i]]++;
        st->size[s]++;
    }
    st->top = (uint8_t)(DEAL * n);
    st->turn = (uint8_t)next(g, st->dealer);
    return 0;
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int n = (int)p->v[P_PLAYERS];
    d->players = n;
    d->teams = n;
    for (int s = 0; s < n; s++)
        d->team[s] = (int8_t)s;
    d->num_actions = n * NCOM;
    d->max_legal = (n - 1) * NCOM;
    d->obs_size = 2 * NCOM + 1 + 22 * n;
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = (int)p->v[P_MAX_ASKS];
    d->ret_low = -1;
    d->ret_high = 1;
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct authors_state *st = vst;
    return st->over ? 0 : 1u << st->turn;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct authors_state *st = vst;
    int n = 0;
    if (st->over || seat != st->turn)
        return 0;
    for (int t = 0; t < np(g); t++) {
        if (t == seat || st->size[t] == 0)
            continue;
        for (int c = 0; c < NCOM; c++)
            if (st->hand[seat][c])
                out[n++] = t * NCOM + c;
    }
    return n;
}

/* t hands one c to p. */
static void hit(struct authors_state *st, int p, int t, int c)
{
    st->hand[t][c]--;
    st->size[t]--;
    if (st->known[t][c])
        st->known[t][c]--;
    st->hand[p][c]++;
    st->size[p]++;
    st->known[p][c]++;
    event(st, t, EV_HIT, p, c);
    check_book(st, p, c);
}

static int apply(const struct game *g, void *vst, int a)
{
    struct authors_state *st = vst;
    int p = st->turn, t = a / NCOM, c = a % NCOM;
    st->asks++;
    event(st, p, EV_ASK, t, c);
    if (st->known[p][c] == 0)
        st->known[p][c] = 1; /* asking shows he holds one */
    if (st->hand[t][c]) {
        hit(st, p, t, c);
    } else {
        st->voids[t] |= (uint16_t)(1u << c);
        event(st, t, EV_MISS, p, c);
        if (pack_left(st) == 0 || st->pack[st->top] != c) {
            if (pack_left(st))
                draw(st, p, false);
            st->turn = (uint8_t)next(g, p);
        } else {
            draw(st, p, true); /* The asked card, shown; ask again */
        }
    }
    settle(g, st);
    if (!st->over && st->asks >= (uint32_t)g->params.v[P_MAX_ASKS])
        st->over = 2; /* Capped, a draw */
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct authors_state *st = vst;
    int n = np(g), best = 0, k = 0;
    for (int s = 0; s < n; s++)
        best = st->books[s] > best ? st->books[s] : best;
    for (int s = 0; s < n; s++)
        k += st->books[s] == best;
    for (int s = 0; s < n; s++) {
        if (st->over != 1 || k == n)
            out[s] = 0;
        else if (st->books[s] == best)
            out[s] = 1.0 / k;
        else
            out[s] = -1.0 / (n - k);
    }
}

/* ==== what a seat sees ================================================= */

static int rel(const struct game *g, int s, int seat)
{
    return s < seat ? s - seat + np(g) : s - seat;
}

/* Counts c (/ COPIES) into o and bits b into o + step: eight commodities
 * in a loop the compiler vectorises (the counts copied first, so that the
 * stores cannot alias them), then the ninth. */
static inline void put_counts(float *o, int step, const uint8_t *c,
                              unsigned b)
{
    static const unsigned bit[NCOM - 1] = {1, 2, 4, 8, 16, 32, 64, 128};
    uint8_t v[NCOM - 1];
    memcpy(v, c, sizeof v);
    for (int k = 0; k < NCOM - 1; k++)
        o[k] = (float)v[k] / COPIES;
    for (int k = 0; k < NCOM - 1; k++)
        o[step + k] = b & bit[k] ? 1.0f : 0.0f;
    o[NCOM - 1] = (float)c[NCOM - 1] / COPIES;
    o[step + NCOM - 1] = (b & 1u << (NCOM - 1)) != 0;
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    /* k / NCOM for the Books laid (0..NCOM), folded at compile time to
     * the floats the division gives. */
    static const float ninth[NCOM + 1] = {
        0 / (float)NCOM, 1 / (float)NCOM, 2 / (float)NCOM, 3 / (float)NCOM,
        4 / (float)NCOM, 5 / (float)NCOM, 6 / (float)NCOM, 7 / (float)NCOM,
        8 / (float)NCOM, 9 / (float)NCOM};
    const struct authors_state *st = vst;
    int n = np(g), o = 2 * NCOM + 1;
    /* The known counts and void bits, from o + 4n to the end, are all
     * written below; only what comes before starts at 0. */
    memset(out, 0, (size_t)(o + 4 * n) * sizeof *out);
    put_counts(out, NCOM, st->hand[seat], st->laid);
    out[2 * NCOM] = (float)pack_left(st) / TRIX_CARDS;
    for (int s = 0, r = rel(g, 0, seat); s < n;
         s++, r = r + 1 == n ? 0 : r + 1) {
        out[o + r] = (float)st->size[s] / TRIX_CARDS;
        out[o + n + r] = ninth[st->books[s]];
        put_counts(out + o + 4 * n + r * NCOM, 9 * n, st->known[s],
                   st->voids[s]);
    }
    out[o + 2 * n + rel(g, st->dealer, seat)] = 1;
    if (!st->over)
        out[o + 3 * n + rel(g, st->turn, seat)] = 1;
}

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = np(g), o = 2 * NCOM + 1;
    const struct obs_segment seg[] = {
        {"hand", 0, NCOM, "own cards per commodity (Gold..Alum) / 8"},
        {"laid", NCOM, NCOM, "Book of each commodity laid down"},
        {"pack", 2 * NCOM, 1, "cards left in the pack / 72"},
        {"hand_sizes", o, n, "cards held / 72, self first"},
        {"books", o + n, n, "Books laid / 9, self first"},
        {"dealer", o + 2 * n, n, "dealer, one-hot, self first"},
        {"turn", o + 3 * n, n, "seat to act, one-hot, self first"},
        {"known", o + 4 * n, NCOM * n,
         "cards publicly known in each hand / 8: seats (self first) x 9"},
        {"voids", o + 13 * n, NCOM * n,
         "hand publicly known to hold none: seats (self first) x 9"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    return text_fmt(buf, len, "ask %d for %s", a / NCOM, com_name[a % NCOM]);
}

/* Writes the name of event e's commodity at p; returns the end. */
static char *cat_com(char *p, const uint8_t *e)
{
    memcpy(p, com_name[e[3] % NCOM], COM_LEN);
    return p + COM_LEN;
}

/* Packs the history event e as [seat, its text]. */
static void pack_event(msgpack_packer *pk, const uint8_t *e)
{
    char buf[GAME_NAME_MAX], *p = buf;
    switch (e[1]) {
    case EV_ASK:
        p = view_cat(view_cat_num(view_cat(p, "ask "), e[2]), " for ");
        p = cat_com(p, e);
        break;
    case EV_HIT:
        p = view_cat(cat_com(view_cat(p, "gives "), e), " to ");
        p = view_cat_num(p, e[2]);
        break;
    case EV_MISS:
        p = cat_com(view_cat(p, "has no "), e);
        break;
    case EV_SHOWN:
        p = view_cat(cat_com(view_cat(p, "draws "), e), ", shown");
        break;
    case EV_DRAW:
        p = view_cat(p, "draws a card");
        break;
    case EV_BOOK:
        p = cat_com(view_cat(p, "lays the Book "), e);
        break;
    default:
        p = view_cat(p, "skips, empty hand");
    }
    view_pack_entryn(pk, e[0], buf, (size_t)(p - buf));
}

static void pack_history(const struct authors_state *st, msgpack_packer *pk)
{
    uint32_t first = st->nhist > HIST ? st->nhist - HIST : 0;
    view_pack_str(pk, "history");
    view_pack_array(pk, (size_t)(st->nhist - first));
    for (uint32_t i = first; i < st->nhist; i++)
        pack_event(pk, st->hist[i % HIST]);
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct authors_state *st = vst;
    int n = np(g);
    view_pack_str(pk, "hand");
    view_pack_array(pk, st->size[seat]);
    for (int c = 0; c < NCOM; c++)
        for (int k = 0; k < st->hand[seat][c]; k++)
            view_pack_strn(pk, com_name[c], COM_LEN);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "hand_sizes");
    view_pack_u8s(pk, st->size, n);
    view_pack_str(pk, "pack");
    view_pack_int(pk, pack_left(st));
    view_pack_str(pk, "books");
    view_pack_u8s(pk, st->books, n);
    view_pack_str(pk, "owner");
    view_pack_array(pk, NCOM);
    for (int c = 0; c < NCOM; c++)
        view_pack_seat(pk, st->owner[c] == NO_SEAT ? -1 : st->owner[c]);
    view_pack_str(pk, "known");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_u8s(pk, st->known[s], NCOM);
    view_pack_str(pk, "voids");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->voids[s]);
    pack_history(st, pk);
    return 0;
}

/* ==== determinization ================================================== */

/* True if a hand holding have[] may get one more c: not a commodity the
 * hand is known to lack, and never an eighth card, since a whole Book is
 * laid down at once and so is never held. */
static bool fits(uint16_t voids, const uint8_t *have, int c)
{
    return !((voids >> c) & 1) && have[c] < COPIES - 1;
}

/* Takes one card at random from pool[0..*k) that seat s, holding have[],
 * may get (fits), removing it; -1 if there is none. */
static int take(const struct authors_state *st, int s, const uint8_t *have,
                uint8_t *pool, int *k, struct rng *rng)
{
    int fit = 0;
    for (int i = 0; i < *k; i++)
        fit += fits(st->voids[s], have, pool[i]);
    if (fit == 0)
        return -1;
    int j = (int)rng_below(rng, (uint32_t)fit);
    for (int i = 0; i < *k; i++) {
        if (!fits(st->voids[s], have, pool[i]) || j-- > 0)
            continue;
        int c = pool[i];
        pool[i] = pool[--*k];
        return c;
    }
    return -1;
}

/* Fills the unknown part of the other hands (their size less their known
 * cards) from the unseen cards pool[0..k), the seats that lack the most
 * commodities first; what is left becomes the pack, reshuffled. False
 * (state untouched) on a dead end. */
static bool redeal(const struct game *g, struct authors_state *st, int seat,
                   uint8_t *pool, int k, struct rng *rng)
{
    uint8_t hands[MAXP][NCOM];
    int order[MAXP], m = 0;
    memcpy(hands, st->known, sizeof hands);
    memcpy(hands[seat], st->hand[seat], NCOM);
    for (int s = 0; s < np(g); s++) {
        int i = m++;
        for (; i > 0 && __builtin_popcount(st->voids[order[i - 1]]) <
                            __builtin_popcount(st->voids[s]);
             i--)
            order[i] = order[i - 1];
        order[i] = s;
    }
    for (int i = 0; i < m; i++) {
        int s = order[i], room = st->size[s];
        if (s == seat)
            continue;
        for (int c = 0; c < NCOM; c++)
            room -= st->known[s][c];
        for (; room > 0; room--) {
            int c = take(st, s, hands[s], pool, &k, rng);
            if (c < 0)
                return false;
            hands[s][c]++;
        }
    }
    if (k != pack_left(st))
        return false;
    rng_shuffle_u8(rng, pool, k);
    memcpy(st->hand, hands, sizeof hands);
    memcpy(st->pack + st->top, pool, (size_t)k);
    return true;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct authors_state *st = vst;
    uint8_t pool[TRIX_CARDS], keep[TRIX_CARDS];
    int k = 0;
    for (int c = 0; c < NCOM; c++) {
        if (st->owner[c] != NO_SEAT)
            continue;
        int u = COPIES - st->hand[seat][c];
        for (int s = 0; s < np(g); s++)
            u -= s == seat ? 0 : st->known[s][c];
        for (; u > 0; u--)
            pool[k++] = (uint8_t)c;
    }
    bool done = false;
    for (int t = 0; t < RETRIES && !done; t++) {
        memcpy(keep, pool, (size_t)k);
        done = redeal(g, st, seat, keep, k, rng);
    }
    if (!done) /* the true hands fit; only the pack order is unseen */
        rng_shuffle_u8(rng, st->pack + st->top, pack_left(st));
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    const struct authors_state *st = vst;
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d, pack %d. Books:", st->dealer,
                 pack_left(st));
    for (int s = 0; s < np(g); s++)
        text_appendf(buf, len, &k, " %d", st->books[s]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < np(g); s++) {
        text_appendf(buf, len, &k, "Seat %d holds %d card(s)", s, st->size[s]);
        for (int c = 0; c < NCOM && (seat < 0 || s == seat); c++)
            if (st->hand[s][c])
                text_appendf(buf, len, &k, " %s x%d", com_name[c],
                             st->hand[s][c]);
        text_appendf(buf, len, &k, "\n");
    }
    if (st->over)
        text_appendf(buf, len, &k, "Game over.\n");
    else
        text_appendf(buf, len, &k, "Seat %d to ask.\n", st->turn);
    return (int)k;
}

/* ==== the descriptor =================================================== */

const struct game_def trix_authors_game = {
    .name = "trix_authors",
    .long_name = "Trix Authors",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Trix Authors; see "
              "docs/games/trix_authors.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct authors_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &trix_cards,
    .view_keys = view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = observe,
    .obs_layout = obs_layout,
    .view = view,
    .action_name = action_name,
    .determinize = determinize,
    .describe = describe,
};
