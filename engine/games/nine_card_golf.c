/* nine_card_golf.c — Square 9 (Nine-Card Golf): improve a face-down 3x3
 * layout one card a turn; lines of three matching ranks score nothing;
 * lowest total over the holes wins.
 *
 * Sources: The Adventures of BJ and Tony Morris, family games page, "Square
 * 9"; docs/games/nine_card_golf.md states them as played here. Packs: 2 decks
 * for 2–3 players, 3 for 4–5, one more per two more players, each with its two
 * jokers. Nine cards face down per player, one card turned up to start the
 * discard pile, each player exposes one card turned sideways. A turn: draw the
 * stock top or take the top discard, then replace a layout card with it,
 * without looking; the replaced card is discarded face up. A drawn stock card
 * may instead be discarded; a taken discard must be placed. The sideways card
 * may be replaced any number of times (the new card stays sideways); a
 * face-down card once (the new card is face up and fixed); a fixed card never.
 * After a player's last face-down card is exposed, each other player has one
 * more turn. Scoring: every line of three (3 rows, 3 columns, 2 diagonals)
 * whose cards share a rank scores 0; a card in two such lines counts once;
 * jokers never match. Other cards: A 1, 2–10 face value, J/Q 10, K 0, joker
 * -2. Face-down cards are hidden from everyone, their owner included. Nine
 * holes, lowest total wins (option holes, 18 for a full round). An empty stock
 * is refilled from the discards below the top card, shuffled.
 *
 * Decisions where the sources are silent:
 * - Two to eight players (the page: "two or more"; eight takes five decks by
 *   the pack rule above and keeps the state small). Option decks overrides
 *   that count; configure refuses a pack too small to deal nine cards each,
 *   start the discards and leave a stock card.
 * - Seat 0 deals the first hole (docs/games/README.md, "First dealer": a fixed
 *   one lets tests name seats); the deal passes to the left (seat + 1) each
 *   hole and the seat on the dealer's left starts. Clockwise = seat + 1.
 * - Deal order: deck[0] to the dealer's left, one card at a time clockwise,
 *   nine rounds; a player's k-th card (k = 0..8) lies at position k+1,
 *   positions numbered row by row (1 2 3 / 4 5 6 / 7 8 9). The next deck
 *   card starts the discard pile; the one after is the stock's top.
 * - The exposure is each player's choice of position, an action ("expose
 *   5"), taken in turn from the dealer's left before the first turn: the
 *   position matters (the centre lies in four lines, a corner in three, an
 *   edge in two) though no one knows the card before it is turned. Later
 *   players see the earlier exposures (the table sees them anyway).
 * - "Matching" means the same rank, suits ignored: J and Q both score 10
 *   but do not match each other.
 * - The stock is rebuilt at the end of the turn that emptied it, so
 *   drawing from the stock is always possible.
 * - The last-turn round starts when a player ends a turn with no face-down
 *   card (the sideways card is exposed, so it does not count).
 * - A hole in which nobody has exposed his whole layout after
 *   max_rounds turns per player is void: no one scores it, it counts as
 *   played. A last-turn round already started always finishes.
 * - Returns: score difference (zero-sum), each seat's return is the
 *   average total of the other players minus its own total over the holes
 *   scored so far; lower totals mean higher returns, and with two players
 *   it is simply the opponent's total minus one's own. Bounds: a hole
 *   scores between -18 and 90 per player, so returns lie within
 *   +-108 * holes.
 * - Suits play no part in the rules, but cards keep their names ("7♥") and
 *   the pack is face-based (53 faces: 52 cards, then the joker) so that
 *   deck prefixes and the view read naturally.
 * - The view's history holds the current hole's last 48 actions; a drawn
 *   stock card is not named there ("draw"); it shows once discarded or
 *   placed face up.
 * - Determinization is exact up to inference from the players' choices
 *   (see g9_determinize).
 *
 * Action ids (fixed across states): 0..8 "expose p" (p = id+1), 9..17
 * "replace p" (p = id-8) with the card held, 18 "draw" (stock), 19 "take
 * 7♥" (the top discard, named after it), 20 "discard 7♥" (the drawn stock
 * card, named after it).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../multipack.h"
#include "../obs_fill.h"
#include "../view.h"
#include "nine_card_golf.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* ---- types --------------------------------------------------------------- */

enum { OPT_PLAYERS, OPT_DECKS, OPT_HOLES, OPT_MAX_ROUNDS };

static const struct param_def g9_params[] = {
    {"players", PARAM_INT, 4, 2, G9_SEATS, NULL, "number of players"},
    {"decks", PARAM_INT, 0, 0, G9_DECKS, NULL,
     "decks with two jokers each; 0 = 2 for 2-3 players, +1 per 2 more"},
    {"holes", PARAM_INT, 9, 1, 18, NULL,
     "holes (deals) in a game: 9; 18 for a full round"},
    {"max_rounds", PARAM_INT, 30, 10, 100, NULL,
     "turns per player before an unfinished hole is void"},
};

static const uint8_t lines[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

/* ---- static helpers ------------------------------------------------------ */

static int nplayers(const struct game *g)
{
    return g->dims.players;
}

static int decks_for(const struct param_values *p)
{
    int d = (int)p->v[OPT_DECKS];
    return d ? d : 1 + (int)p->v[OPT_PLAYERS] / 2;
}

static int holes(const struct game *g)
{
    return (int)g->params.v[OPT_HOLES];
}

static int turn_cap(const struct game *g)
{
    return (int)g->params.v[OPT_MAX_ROUNDS] * nplayers(g);
}

/* The page's card points: A 1, 2-10 face value, J/Q 10, K 0, joker -2. */
static int face_points(int f)
{
    int r = g9_face_rank(f);
    if (r == 13)
        return -2;
    if (r == 12)
        return 0;
    return r >= 9 ? 10 : r + 1;
}

/* Recomputes the tensor bits of seat s's position p after it changed,
 * both copies (n players). */
static void recode_at(struct g9_state *st, int n, int s, int p)
{
    unsigned one = st->down[s] >> p & 1 ? G9_DOWN_BIT
                                        : 1u << g9_face_rank(st->grid[s][p]);
    one |= st->side[s] == p ? G9_SIDE_BIT : 0;
    st->lay[s][p] = st->lay[s + n][p] = (uint16_t)one;
}

/* Recomputes the tensor bits of all seat s's positions (a deal, a hole's
 * end). */
static void recode(struct g9_state *st, int n, int s)
{
    for (int p = 0; p < G9_POS; p++)
        recode_at(st, n, s, p);
}

/* 1.0f / n for the copies of a rank there can be (folded at compile
 * time to the same floats as the division, which is exactly rounded). */
#define G9_INV(n) [n] = 1.0f / (float)(n)
static const float inv_copies[4 * G9_DECKS + 1] = {
    G9_INV(1),  G9_INV(2),  G9_INV(3),  G9_INV(4),  G9_INV(5),
    G9_INV(6),  G9_INV(7),  G9_INV(8),  G9_INV(9),  G9_INV(10),
    G9_INV(11), G9_INV(12), G9_INV(13), G9_INV(14), G9_INV(15),
    G9_INV(16), G9_INV(17), G9_INV(18), G9_INV(19), G9_INV(20),
};
#undef G9_INV

/* 1 / copies of rank r in the pack: the discard tensor's step. */
static float rank_step(const struct game *g, int r)
{
    int d = decks_for(&g->params);
    return inv_copies[r == 13 ? G9_JOKERS * d : 4 * d];
}

/* Puts face f on the discards, keeping the per-rank sums. */
static void push_discard(const struct game *g, struct g9_state *st, int f)
{
    int r = g9_face_rank(f);
    st->disc[st->ndisc++] = (uint8_t)f;
    st->ndrank[r]++;
    st->drank[r] += rank_step(g, r);
    st->top = (uint16_t)(1u << r);
}

/* Takes the top discard. Its rank's sum is added up again from zero: a
 * float sum less one step is not always the shorter sum. */
static int pop_discard(const struct game *g, struct g9_state *st)
{
    int f = st->disc[--st->ndisc], r = g9_face_rank(f);
    float step = rank_step(g, r), sum = 0;
    st->ndrank[r]--;
    for (int i = 0; i < st->ndrank[r]; i++)
        sum += step;
    st->drank[r] = sum;
    st->top = st->ndisc ? (uint16_t)(1u << g9_face_rank(st->disc[st->ndisc - 1]))
                        : 0;
    return f;
}

/* Leaves the discard pile empty. */
static void clear_discards(struct g9_state *st)
{
    st->ndisc = 0;
    memset(st->ndrank, 0, sizeof st->ndrank);
    memset(st->drank, 0, sizeof st->drank);
    st->top = 0;
}

/* Sets the stock's count and its tensor value. */
static void set_stock(const struct game *g, struct g9_state *st, int k)
{
    st->nstock = (uint16_t)k;
    st->counts[0] = (float)k / (float)(G9_DECK * decks_for(&g->params));
}

/* Sets the turns finished this hole and their tensor value. */
static void set_turns(const struct game *g, struct g9_state *st, int k)
{
    st->turns = (uint16_t)k;
    st->counts[2] = (float)k / (float)(turn_cap(g) + nplayers(g));
}

/* Sets the totals' tensor values, twice over (see struct g9_state). */
static void retotal(const struct game *g, struct g9_state *st)
{
    int n = nplayers(g);
    float span = (float)((G9_MAX_HOLE - G9_MIN_HOLE) * holes(g));
    for (int s = 0; s < n; s++) {
        float v = (float)(st->total[s] - G9_MIN_HOLE * holes(g)) / span;
        st->totf[s] = st->totf[s + n] = v;
    }
}

/* A layout's points with every card face up (the header's scoring lines). */
static int layout_points(const uint8_t *g)
{
    unsigned zero = 0;
    for (int l = 0; l < 8; l++) {
        int r = g9_face_rank(g[lines[l][0]]);
        if (r == 13 || g9_face_rank(g[lines[l][1]]) != r ||
            g9_face_rank(g[lines[l][2]]) != r)
            continue;
        zero |= 1u << lines[l][0] | 1u << lines[l][1] | 1u << lines[l][2];
    }
    int sum = 0;
    for (int p = 0; p < G9_POS; p++)
        if (!(zero >> p & 1))
            sum += face_points(g[p]);
    return sum;
}

/* Shuffles a fresh pack (the deck prefix on the first deal), deals the
 * layouts, turns up the first discard and starts the exposures. */
static int deal(const struct game *g, struct g9_state *st, const uint8_t *pre,
                int npre)
{
    int n = nplayers(g);
    uint8_t pack[G9_CARDS];
    int size = multipack_fill(pack, decks_for(&g->params), G9_JOKERS);
    if (multipack_build(pack, size, pre, npre, &st->rng))
        return ERR_INVAL;
    for (int k = 0; k < G9_POS * n; k++)
        st->grid[(st->dealer + 1 + k % n) % n][k / n] = pack[k];
    for (int s = 0; s < n; s++) {
        st->down[s] = G9_ALL_DOWN;
        st->side[s] = G9_NONE;
        recode(st, n, s);
    }
    clear_discards(st);
    push_discard(g, st, pack[G9_POS * n]);
    set_stock(g, st, size - G9_POS * n - 1);
    for (int i = 0; i < st->nstock; i++)
        st->stock[i] = pack[size - 1 - i];
    st->held = NO_CARD;
    st->phase = PH_EXPOSE;
    st->seat = (uint8_t)((st->dealer + 1) % n);
    st->finisher = -1;
    set_turns(g, st, 0);
    st->nhist = 0;
    st->reshuffled = 0;
    return 0;
}

/* The discards below the top card, shuffled, become the stock. */
static void reshuffle(const struct game *g, struct g9_state *st)
{
    int k = st->ndisc - 1, top = st->disc[k];
    memcpy(st->stock, st->disc, (size_t)k);
    rng_shuffle_u8(&st->rng, st->stock, k);
    set_stock(g, st, k);
    clear_discards(st);
    push_discard(g, st, top);
    st->reshuffled = 1;
}

/* Ends the hole (scored, or void under the cap), then deals the next
 * or ends the game (the last layouts stay on view, all face up). */
static void end_hole(const struct game *g, struct g9_state *st, bool scored)
{
    int n = nplayers(g);
    for (int s = 0; s < n; s++) {
        st->down[s] = 0; /* The face-down cards are turned up */
        recode(st, n, s);
        st->last[s] = (int16_t)(scored ? layout_points(st->grid[s]) : 0);
        st->total[s] = (int16_t)(st->total[s] + st->last[s]);
    }
    retotal(g, st);
    st->voids = (uint8_t)(st->voids + !scored);
    st->hole++;
    st->counts[1] = (float)st->hole / (float)holes(g);
    if (st->hole == holes(g)) {
        st->phase = PH_OVER;
        return;
    }
    st->dealer = (uint8_t)((st->dealer + 1) % n);
    deal(g, st, NULL, 0);
}

/* After a turn: the last-turn round, the cap, the stock. */
static void end_turn(const struct game *g, struct g9_state *st)
{
    int n = nplayers(g);
    set_turns(g, st, st->turns + 1);
    st->held = NO_CARD;
    if (st->finisher < 0 && !st->down[st->seat]) {
        st->finisher = (int8_t)st->seat;
        st->left = (uint8_t)(n - 1);
    } else if (st->finisher >= 0) {
        st->left--;
    }
    if (st->finisher >= 0 && !st->left) {
        end_hole(g, st, true);
        return;
    }
    if (st->finisher < 0 && st->turns >= turn_cap(g)) {
        end_hole(g, st, false);
        return;
    }
    if (!st->nstock)
        reshuffle(g, st);
    st->seat = (uint8_t)((st->seat + 1) % n);
    st->phase = PH_SOURCE;
}

static void record(struct g9_state *st, int action, int card)
{
    uint8_t *e = st->hist[st->nhist++ % G9_HIST];
    e[0] = st->seat;
    e[1] = (uint8_t)action;
    e[2] = (uint8_t)card;
}

/* Places the held card at position p; the old card goes to the discards. */
static void replace(const struct game *g, struct g9_state *st, int p)
{
    uint8_t *cell = &st->grid[st->seat][p];
    push_discard(g, st, *cell);
    *cell = st->held;
    st->down[st->seat] &= (uint16_t) ~(1u << p);
    recode_at(st, nplayers(g), st->seat, p);
}

/* Writes the action's name; card names take/discard (NO_CARD: unnamed). */
static int name_action(int a, int card, char *buf, size_t len)
{
    char c[16] = "";
    if (card != NO_CARD)
        multipack_name(card, c, sizeof c);
    if (a < ACT_REPLACE)
        return text_fmt(buf, len, "expose %d", a - ACT_EXPOSE + 1);
    if (a < ACT_DRAW)
        return text_fmt(buf, len, "replace %d", a - ACT_REPLACE + 1);
    if (a == ACT_DRAW)
        return text_fmt(buf, len, "draw");
    if (a == ACT_TAKE)
        return text_fmt(buf, len, card == NO_CARD ? "take discard" : "take %s",
                        c);
    return text_fmt(buf, len, card == NO_CARD ? "discard drawn" : "discard %s",
                    c);
}

/* ---- API ----------------------------------------------------------------- */

static int g9_configure(const struct param_values *p, struct game_dims *d,
                        char *err, size_t errlen)
{
    int n = (int)p->v[OPT_PLAYERS], h = (int)p->v[OPT_HOLES];
    int cap = (int)p->v[OPT_MAX_ROUNDS] * n;
    if (decks_for(p) * G9_DECK < G9_POS * n + 2)
        return err_set(err, errlen, ERR_INVAL,
                       "decks=%d is too few for players=%d: a hole needs "
                       "9 cards a player, a discard and a stock card",
                       decks_for(p), n);
    d->players = n;
    d->teams = n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)i;
    d->num_actions = G9_ACTIONS;
    d->max_legal = G9_POS + 1;
    d->obs_size = (16 * G9_POS + 4) * n + 3 * G9_RANKS + 4 + 3;
    d->obs_low = 0;
    d->obs_high = 1;
    /* Per hole: n exposures, at most cap + n - 1 turns of two moves. */
    d->max_length = h * (n + 2 * (cap + n - 1));
    d->ret_low = -(double)(G9_MAX_HOLE - G9_MIN_HOLE) * h;
    d->ret_high = (double)(G9_MAX_HOLE - G9_MIN_HOLE) * h;
    return 0;
}

static int g9_init(const struct game *g, void *vst, uint64_t seed,
                   const uint8_t *deck, int ndeck)
{
    struct g9_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    retotal(g, st);
    return deal(g, st, deck, ndeck);
}

static uint32_t g9_to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct g9_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->seat;
}

static int g9_legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct g9_state *st = vst;
    int k = 0;
    if (!((g9_to_move(g, st) >> seat) & 1))
        return 0;
    if (st->phase == PH_EXPOSE) {
        for (int p = 0; p < G9_POS; p++)
            out[k++] = ACT_EXPOSE + p;
        return k;
    }
    if (st->phase == PH_SOURCE) {
        if (st->nstock)
            out[k++] = ACT_DRAW;
        if (st->ndisc)
            out[k++] = ACT_TAKE;
        return k;
    }
    unsigned open = st->down[seat] | 1u << st->side[seat];
    for (int p = 0; p < G9_POS; p++)
        if (open >> p & 1)
            out[k++] = ACT_REPLACE + p;
    if (st->phase == PH_PLACE_DRAWN)
        out[k++] = ACT_DISCARD;
    return k;
}

/* The exposure phase: the sideways card, then the next seat or play. */
static void expose(const struct game *g, struct g9_state *st, int p)
{
    st->side[st->seat] = (uint8_t)p;
    st->down[st->seat] &= (uint16_t) ~(1u << p);
    recode_at(st, nplayers(g), st->seat, p);
    if (st->seat == st->dealer)
        st->phase = PH_SOURCE;
    st->seat = (uint8_t)((st->seat + 1) % nplayers(g));
}

static int g9_apply(const struct game *g, void *vst, int action)
{
    struct g9_state *st = vst;
    if (action < ACT_REPLACE) {
        record(st, action, NO_CARD);
        expose(g, st, action - ACT_EXPOSE);
    } else if (action < ACT_DRAW) {
        record(st, action, NO_CARD);
        replace(g, st, action - ACT_REPLACE);
        end_turn(g, st);
    } else if (action == ACT_DRAW) {
        record(st, action, NO_CARD);
        set_stock(g, st, st->nstock - 1);
        st->held = st->stock[st->nstock];
        st->phase = PH_PLACE_DRAWN;
    } else if (action == ACT_TAKE) {
        st->held = (uint8_t)pop_discard(g, st);
        record(st, action, st->held);
        st->phase = PH_PLACE_TAKEN;
    } else {
        record(st, action, st->held);
        push_discard(g, st, st->held);
        end_turn(g, st);
    }
    return 0;
}

static void g9_returns(const struct game *g, const void *vst, double *out)
{
    const struct g9_state *st = vst;
    int n = nplayers(g);
    double sum = 0;
    for (int s = 0; s < n; s++)
        sum += st->total[s];
    for (int s = 0; s < n; s++)
        out[s] = (sum - st->total[s]) / (n - 1) - st->total[s];
}

/* True when seat may see the card held by the player to act. */
static bool held_visible(const struct g9_state *st, int seat)
{
    return st->held != NO_CARD &&
           (st->phase == PH_PLACE_TAKEN || seat == st->seat);
}

/* Rank index of each face (face_rank as a table, for the tensor). */
#define G9_SUIT_RANKS 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
static const uint8_t rank_of[MULTIPACK_JOKER + 1] = {
    G9_SUIT_RANKS, G9_SUIT_RANKS, G9_SUIT_RANKS, G9_SUIT_RANKS, 13};

/* Floats in the largest tensor (eight players). */
#define G9_OBS_MAX ((16 * G9_POS + 4) * G9_SEATS + 3 * G9_RANKS + 4 + 3)

/* Place of seat s seen from seat, among n (0: seat itself). */
static int rel(int s, int seat, int n)
{
    return s < seat ? s - seat + n : s - seat;
}

/* The tensor's 0/1 entries past the layouts as a bit stream into t,
 * from the stream's word at bit 144 n on (first: that word's bits from
 * the layouts, the rest ignored). Inlined for each player count n, so
 * that every width and place in the stream is a constant. */
static inline __attribute__((always_inline)) void
tail_bits(const struct g9_state *st, int seat, int n, uint64_t first,
          uint64_t *t)
{
    int fill = 16 * G9_POS * n % 64;
    struct obs_bits bits, *o = &bits;
    obs_bits_start(o, t);
    if (fill)
        obs_bits_put(o, first & ~(~0ull << fill), fill);
    uint64_t held = held_visible(st, seat) ? 1u << rank_of[st->held] : 0;
    obs_bits_put(o, held | (uint64_t)st->top << G9_RANKS, 2 * G9_RANKS);
    obs_bits_skip(o, G9_RANKS); /* the discards' sums */
    obs_bits_put(o, 1u << st->phase & 15, 4); /* none when over */
    obs_bits_skip(o, 3 + n); /* stock, hole, turns, totals */
    uint64_t seats = st->phase != PH_OVER ? 1u << rel(st->seat, seat, n) : 0;
    seats |= 1u << (n + rel(st->dealer, seat, n));
    if (st->finisher >= 0)
        seats |= 1u << (2 * n + rel(st->finisher, seat, n));
    obs_bits_put(o, seats, 3 * n);
    obs_bits_end(o);
}

/* The values other than 0 and 1, over the bits already written: all
 * kept in the state. */
static inline __attribute__((always_inline)) void
observe_values(const struct g9_state *st, int seat, int n, float *out)
{
    float *o = out + 16 * G9_POS * n + 2 * G9_RANKS;
    memcpy(o, st->drank, sizeof st->drank);
    o += G9_RANKS + 4;
    memcpy(o, st->counts, sizeof st->counts);
    memcpy(o + 3, st->totf + seat, sizeof(float) * (size_t)n);
}

/* The whole tensor for n players through obs_bits_write: the stream's
 * layouts are the bits kept in the state, 144 a seat, copied from the
 * observer's on in one piece (a fixed 144 bytes; what is copied past
 * them is written over by the rest). */
static inline __attribute__((always_inline)) void
observe_n(const struct g9_state *st, int seat, int n, int size, float *out)
{
    uint64_t w[OBS_BITS_WORDS(G9_OBS_MAX)];
    int at = 16 * G9_POS * n / 64;
    memcpy(w, st->lay[seat], sizeof st->lay[0] * G9_SEATS);
    tail_bits(st, seat, n, w[at], w + at);
    obs_bits_write(out, w, size);
    observe_values(st, seat, n, out);
}

#if defined(__x86_64__)
/* Word k of the stream: the layouts' words are read from the state as
 * they are, the others from the tail t. */
static inline __attribute__((always_inline)) uint64_t
stream_word(const char *lay, const uint64_t *t, int at, int k)
{
    uint64_t v;
    if (k >= at)
        return t[k - at];
    memcpy(&v, lay + 8 * k, sizeof v);
    return v;
}

/* observe_n on AVX-512: no stream is stored and read back; its words go
 * from the state and registers straight to the tensor, 64 floats a block
 * aligned to 64 bytes (out[0] at lane pad of the first; lanes outside
 * out[0..size) masked), and no call is made. */
__attribute__((target("avx512f"), always_inline)) static inline void
observe_512_n(const struct g9_state *st, int seat, int n, int size,
              float *out)
{
    const char *lay = (const char *)st->lay[seat];
    int at = 16 * G9_POS * n / 64, words = (size + 63) / 64;
    uint64_t t[OBS_BITS_WORDS(64 + 3 * G9_RANKS + 7 + 4 * G9_SEATS)], first;
    memcpy(&first, lay + 8 * at, sizeof first);
    tail_bits(st, seat, n, first, t);
    int pad = (int)((uintptr_t)out & 63) / (int)sizeof *out;
    float *base = out - pad;
    /* Block k holds stream bits 64k - pad .. 64k + 63 - pad. */
    obs_block_512(base, stream_word(lay, t, at, 0) << pad, ~0ull << pad);
#pragma GCC unroll 20
    for (int k = 1; k < words - 1; k++)
        obs_block_512(base + 64 * k,
                  stream_word(lay, t, at, k) << pad |
                      stream_word(lay, t, at, k - 1) >> 1 >> (63 - pad),
                  ~0ull);
#pragma GCC unroll 2
    for (int k = words - 1; k <= words; k++) {
        int lim = size + pad - 64 * k; /* lanes in out, at most */
        if (k == 0 || lim <= 0)
            continue; /* the first block, or no float of out */
        obs_block_512(base + 64 * k,
                  stream_word(lay, t, at, k) << pad |
                      stream_word(lay, t, at, k - 1) >> 1 >> (63 - pad),
                  lim >= 64 ? ~0ull : ~(~0ull << lim));
    }
    observe_values(st, seat, n, out);
}

__attribute__((target("avx512f"))) static void
observe_512(const struct g9_state *st, int seat, int n, int size, float *out)
{
    switch (n) {
    case 2:
        observe_512_n(st, seat, 2, size, out);
        break;
    case 3:
        observe_512_n(st, seat, 3, size, out);
        break;
    case 4:
        observe_512_n(st, seat, 4, size, out);
        break;
    case 5:
        observe_512_n(st, seat, 5, size, out);
        break;
    case 6:
        observe_512_n(st, seat, 6, size, out);
        break;
    case 7:
        observe_512_n(st, seat, 7, size, out);
        break;
    default:
        observe_512_n(st, seat, G9_SEATS, size, out);
    }
}
#endif

static void g9_observe(const struct game *g, const void *vst, int seat,
                       float *out)
{
    const struct g9_state *st = vst;
    int size = g->dims.obs_size;
#if defined(__x86_64__)
    if (obs_width_best() == OBS_WIDTH_64) {
        observe_512(st, seat, nplayers(g), size, out);
        return;
    }
#endif
    switch (nplayers(g)) {
    case 2:
        observe_n(st, seat, 2, size, out);
        break;
    case 3:
        observe_n(st, seat, 3, size, out);
        break;
    case 4:
        observe_n(st, seat, 4, size, out);
        break;
    case 5:
        observe_n(st, seat, 5, size, out);
        break;
    case 6:
        observe_n(st, seat, 6, size, out);
        break;
    case 7:
        observe_n(st, seat, 7, size, out);
        break;
    default:
        observe_n(st, seat, G9_SEATS, size, out);
    }
}

static int g9_obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = nplayers(g), L = 16 * G9_POS * n, R = G9_RANKS;
    const struct obs_segment seg[] = {
        {"layouts", 0, L,
         "per seat (observer first), per position 1-9: "
         "14 rank one-hot A..K,joker if face up; face-down "
         "flag; sideways flag"},
        {"held", L, R,
         "rank one-hot of the card held, if the observer may "
         "see it (own draw, or a taken discard)"},
        {"discard", L + R, R, "rank one-hot of the top discard"},
        {"discards", L + 2 * R, R,
         "discard pile count by rank / copies of "
         "that rank in the pack"},
        {"phase", L + 3 * R, 4,
         "one-hot: expose, draw or take, place the "
         "drawn card, place the taken card"},
        {"stock", L + 3 * R + 4, 1, "cards in the stock / pack size"},
        {"hole", L + 3 * R + 5, 1, "holes finished / holes"},
        {"turns", L + 3 * R + 6, 1, "turns this hole / (cap + players)"},
        {"totals", L + 3 * R + 7, n,
         "total points, (t + 18 holes) / (108 "
         "holes), by relative seat"},
        {"to_move", L + 3 * R + 7 + n, n, "1 at the seat to act (relative)"},
        {"dealer", L + 3 * R + 7 + 2 * n, n, "1 at the dealer (relative)"},
        {"finisher", L + 3 * R + 7 + 3 * n, n,
         "1 at the seat whose layout "
         "is all exposed (last round)"},
    };
    int k = (int)(sizeof seg / sizeof seg[0]);
    for (int i = 0; i < k && i < max; i++)
        out[i] = seg[i];
    return k < max ? k : max;
}

static int g9_action_name(const struct game *g, const void *vst, int action,
                          char *buf, size_t len)
{
    (void)g;
    const struct g9_state *st = vst;
    int card = NO_CARD;
    if (action == ACT_TAKE && st->ndisc)
        card = st->disc[st->ndisc - 1];
    if (action == ACT_DISCARD)
        card = st->held;
    return name_action(action, card, buf, len);
}

static void pack_card(msgpack_packer *pk, int face)
{
    if (face == MULTIPACK_JOKER)
        view_pack_str(pk, "Joker");
    else
        view_pack_card(pk, face);
}

/* Writes face's name at p (room for 8) as multipack_name does; returns
 * the end. */
static char *cat_face(char *p, int face)
{
    return face == MULTIPACK_JOKER ? view_cat(p, "Joker")
                                   : view_cat_card(p, face);
}

/* Writes the name of action a (card as in name_action) at p; returns the
 * end: name_action without a formatter, for the history. */
static char *cat_action(char *p, int a, int card)
{
    if (a < ACT_REPLACE)
        return view_cat_num(view_cat(p, "expose "), a - ACT_EXPOSE + 1);
    if (a < ACT_DRAW)
        return view_cat_num(view_cat(p, "replace "), a - ACT_REPLACE + 1);
    if (a == ACT_DRAW)
        return view_cat(p, "draw");
    if (a == ACT_TAKE)
        return card == NO_CARD ? view_cat(p, "take discard")
                               : cat_face(view_cat(p, "take "), card);
    return card == NO_CARD ? view_cat(p, "discard drawn")
                           : cat_face(view_cat(p, "discard "), card);
}

static void pack_layouts(const struct game *g, const struct g9_state *st,
                         msgpack_packer *pk)
{
    int n = nplayers(g);
    view_pack_str(pk, "grids");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++) {
        view_pack_array(pk, G9_POS);
        for (int p = 0; p < G9_POS; p++) {
            if (st->down[s] >> p & 1)
                view_pack_str(pk, "?");
            else
                pack_card(pk, st->grid[s][p]);
        }
    }
    view_pack_str(pk, "sideways");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->side[s] == G9_NONE ? 0 : st->side[s] + 1);
}

static void pack_ints(msgpack_packer *pk, const char *key, const int16_t *v,
                      int n)
{
    view_pack_str(pk, key);
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, v[s]);
}

static void pack_history(const struct g9_state *st, msgpack_packer *pk)
{
    int k = st->nhist < G9_HIST ? st->nhist : G9_HIST;
    char name[GAME_NAME_MAX];
    view_pack_str(pk, "history");
    view_pack_array(pk, (size_t)k);
    for (int i = st->nhist - k; i < st->nhist; i++) {
        const uint8_t *e = st->hist[i % G9_HIST];
        char *end = cat_action(name, e[1], e[2]);
        view_pack_entryn(pk, e[0], name, (size_t)(end - name));
    }
}

static const char *const phase_names[] = {"expose", "draw or take",
                                          "place drawn", "place taken", "over"};

static const char *const g9_view_keys[] = {
    "hole",        "holes",      "dealer",  "phase", "grids",    "sideways",
    "discard",     "discards",   "stock",   "held",  "finisher", "totals",
    "last_scores", "void_holes", "history", NULL};

static int g9_view(const struct game *g, const void *vst, int seat,
                   msgpack_packer *pk)
{
    const struct g9_state *st = vst;
    view_pack_str(pk, "hole");
    view_pack_int(pk, st->hole + (st->phase != PH_OVER));
    view_pack_str(pk, "holes");
    view_pack_int(pk, holes(g));
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phase_names[st->phase]);
    pack_layouts(g, st, pk);
    view_pack_str(pk, "discard");
    if (st->ndisc)
        pack_card(pk, st->disc[st->ndisc - 1]);
    else
        view_pack_nil(pk);
    view_pack_str(pk, "discards");
    view_pack_int(pk, st->ndisc);
    view_pack_str(pk, "stock");
    view_pack_int(pk, st->nstock);
    view_pack_str(pk, "held");
    if (held_visible(st, seat))
        pack_card(pk, st->held);
    else if (st->held != NO_CARD)
        view_pack_str(pk, "?");
    else
        view_pack_nil(pk);
    view_pack_str(pk, "finisher");
    view_pack_int(pk, st->finisher);
    pack_ints(pk, "totals", st->total, nplayers(g));
    pack_ints(pk, "last_scores", st->last, nplayers(g));
    view_pack_str(pk, "void_holes");
    view_pack_int(pk, st->voids);
    pack_history(st, pk);
    return 0;
}

/* Copies the face-down cards of every layout into pool (put false) or
 * back from it (put true); returns how many. */
static int pass_face_down(struct g9_state *st, int n, uint8_t *pool, bool put)
{
    int k = 0;
    for (int s = 0; s < n; s++) {
        for (int p = 0; p < G9_POS; p++) {
            if (!(st->down[s] >> p & 1))
                continue;
            if (put)
                st->grid[s][p] = pool[k++];
            else
                pool[k++] = st->grid[s][p];
        }
    }
    return k;
}

/* Face-down cards (every layout, seat's own too: nobody may look at them), the
 * stock and a stock card another player holds are unseen by seat; they are
 * dealt again at random into the same places. Face-up cards, the discards and
 * seat's own drawn card stay. Once the stock has been rebuilt from the
 * discards its cards are a public set (every card drawn since was shown when
 * placed or thrown, but a hidden one in hand), so from then on the stock and a
 * hidden drawn card are shuffled among themselves and the face-down cards
 * among themselves. */
static void g9_determinize(const struct game *g, void *vst, int seat,
                           struct rng *rng)
{
    struct g9_state *st = vst;
    int n = nplayers(g);
    bool held = st->held != NO_CARD && !held_visible(st, seat);
    uint8_t down[G9_CARDS + 1], rest[G9_CARDS + 1];
    int kd = pass_face_down(st, n, down, false);
    uint8_t *pool = st->reshuffled ? rest : down; /* the stock's group */
    int k = st->reshuffled ? 0 : kd;
    memcpy(pool + k, st->stock, st->nstock);
    if (held)
        pool[k + st->nstock] = st->held;
    rng_shuffle_u8(rng, pool, k + st->nstock + held);
    if (st->reshuffled)
        rng_shuffle_u8(rng, down, kd);
    pass_face_down(st, n, down, true);
    memcpy(st->stock, pool + k, st->nstock);
    if (held)
        st->held = pool[k + st->nstock];
    rng_seed(&st->rng, rng_next(rng));
}

/* Writes row r of s's layout: "5:7♥" a position and its card, "?" face
 * down unless shown ("?K♠" when shown), "~" after the sideways card. */
static size_t row_text(const struct g9_state *st, int s, int r, bool show,
                       char *buf, size_t len)
{
    size_t u = 0;
    for (int p = 3 * r; p < 3 * r + 3 && u < len; p++) {
        bool down = st->down[s] >> p & 1;
        char c[16] = "";
        if (show || !down)
            multipack_name(st->grid[s][p], c, sizeof c);
        u += (size_t)snprintf(buf + u, len - u, " %d:%s%s%s", p + 1,
                              down ? "?" : "", c, st->side[s] == p ? "~" : "");
    }
    return u;
}

/* Writes the stock, top first, as one line. */
static size_t stock_text(const struct g9_state *st, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len, "stock (top first):");
    for (int i = st->nstock - 1; i >= 0 && u < len; i--) {
        u += (size_t)snprintf(buf + u, len - u, " ");
        if (u < len)
            u += (size_t)multipack_name(st->stock[i], buf + u, len - u);
    }
    if (u < len)
        u += (size_t)snprintf(buf + u, len - u, "\n");
    return u;
}

static int g9_describe(const struct game *g, const void *vst, int seat,
                       char *buf, size_t len)
{
    const struct g9_state *st = vst;
    char top[16] = "none", held[16] = "none";
    if (st->ndisc)
        multipack_name(st->disc[st->ndisc - 1], top, sizeof top);
    if (st->held != NO_CARD)
        snprintf(held, sizeof held, "?");
    if (st->held != NO_CARD && (seat < 0 || held_visible(st, seat)))
        multipack_name(st->held, held, sizeof held);
    size_t u = (size_t)snprintf(buf, len,
                                "hole %d of %d, %s; discard %s, "
                                "stock %d, held %s\n",
                                st->hole + 1, holes(g), phase_names[st->phase],
                                top, st->nstock, held);
    for (int s = 0; s < nplayers(g) && u < len; s++) {
        u += (size_t)snprintf(
            buf + u, len - u, "seat %d%s: total %d%s\n", s,
            s == st->dealer ? " (dealer)" : "", st->total[s],
            st->phase != PH_OVER && s == st->seat ? " <- to act" : "");
        for (int r = 0; r < 3 && u < len; r++) {
            u += row_text(st, s, r, seat < 0, buf + u, len - u);
            if (u < len)
                u += (size_t)snprintf(buf + u, len - u, "\n");
        }
    }
    if (seat < 0 && u < len)
        u += stock_text(st, buf + u, len - u);
    return (int)(u < len ? u : len - 1);
}

/* ---- the descriptor ------------------------------------------------------ */

static const char *const g9_test_specs[] = {
    "nine_card_golf(players=2,holes=2)",
    "nine_card_golf(players=5,decks=1,holes=1)",
    "nine_card_golf(players=8,holes=1,max_rounds=10)",
    "nine_card_golf(players=3,decks=5,holes=3)", NULL};

static const struct card_codec g9_cards = {MULTIPACK_FACES, G9_JOKERS *G9_DECKS,
                                           multipack_name, multipack_parse};

/* The deals op: holes finished (void ones too), plus the one in play. */
static int g9_deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct g9_state *st = vst;
    return st->hole + (st->phase != PH_OVER);
}

const struct game_def nine_card_golf_game = {
    .name = "nine_card_golf",
    .long_name = "Square 9 (Nine-Card Golf)",
    .source = "The Adventures of BJ and Tony Morris, family games page, "
              "Square 9; see docs/games/nine_card_golf.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct g9_state),
    .params = g9_params,
    .nparams = (int)(sizeof g9_params / sizeof g9_params[0]),
    .cards = &g9_cards,
    .view_keys = g9_view_keys,
    .test_specs = g9_test_specs,
    .configure = g9_configure,
    .init = g9_init,
    .to_move = g9_to_move,
    .legal = g9_legal,
    .apply = g9_apply,
    .returns = g9_returns,
    .observe = g9_observe,
    .obs_layout = g9_obs_layout,
    .view = g9_view,
    .action_name = g9_action_name,
    .determinize = g9_determinize,
    .describe = g9_describe,
    .deals = g9_deals,
};
