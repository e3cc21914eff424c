/* thirty_one.c — Thirty-One: three-card hands counted in one suit, knocking,
 * lives paid in pennies until one player is left.
 *
 * Rules: The Adventures of BJ and Tony Morris, family games page,
 * "Thirty-One"; docs/games/thirty_one.md states them as played here.
 * Hand value: the
 * best total of the cards held in one suit, A = 11, J/Q/K = 10.
 *
 * Decisions where the sources are silent or leave a choice:
 * - Seats are numbered clockwise; "left" is the next seat up. Seat 0 deals
 *   first (the page: "in any manner you desire"; a fixed seat lets tests
 *   know who deals, and tournaments rotate seats anyway). The deal passes
 *   to the next surviving seat left of the last dealer, even if that
 *   dealer has just gone out.
 * - Pack order: deck[0] goes to the first surviving seat left of the
 *   dealer, then one card at a time clockwise round the surviving seats
 *   until each has three; the next card is turned up to start the discard
 *   pile; the rest is the stock, drawn from the next card onwards.
 * - A turn is "draw" (stock) or "take" (top discard) then one discard, or a
 *   knock instead of drawing. The card taken from the pile must be kept that
 *   turn (the page). One knock per round; knocking is allowed from the first
 *   turn (option knock_first_turn; when false nobody may knock until
 *   every surviving player has had a turn this round).
 * - Taking one's own discard needs no rule of its own: the top card can only
 *   be one's own when two play and the opponent knocks (the page's case), and
 *   then it may be taken like any top card — and, like any card taken from
 *   the pile, not thrown back the same turn ("you must keep the card").
 * - After a knock every other surviving player has one turn; when the turn
 *   comes back to the knocker the hands are shown. Lowest value loses a
 *   life; every non-knocker tied for lowest loses one and a knocker tied for
 *   lowest is safe; a sole-lowest knocker pays two pennies, or what he has
 *   (going on the county), or goes out if already on the county.
 * - 31 is declared automatically (declaring can never cost its holder): at
 *   the deal, every surviving player without 31 loses a life (several 31s:
 *   all the others lose); after any discard, even in the final turns after
 *   a knock, all the others lose one life, the knocker only one.
 * - Losing a life: one penny into the kitty; with no penny left the player
 *   is "on the county"; losing on the county puts him out. Option
 *   county=false: out when the last penny is paid. lives=0 starts everyone
 *   on the county (needs county=true).
 * - Stock exhausted: when a player draws from an empty stock, the discards
 *   below the top card become a new stock, shuffled from the state RNG
 *   (a chance event inside "draw"). Shuffles after the first deal are
 *   lazy: only the cards dealt are shuffled, and each stock draw takes one
 *   remaining card uniformly at random (the same law, far fewer draws).
 * - Caps: a round that reaches max_turns turns (a draw or take plus its
 *   discard, or a knock, is one turn) ends void: nobody pays and the deal
 *   passes. The episode ends when one player is left, or after max_rounds
 *   rounds (then the survivors share the kitty).
 * - Returns (a pool game: pennies are chips): every penny paid goes to
 *   the kitty and the last survivor takes it, so a seat's return is chips
 *   won minus chips paid; during play it is minus the pennies paid so far.
 *   Chosen over +1/-1 because the page plays for the pennies, so a loser
 *   who kept some is better off; it is zero-sum at the end. Bounds: -lives
 *   and (players-1)*lives.
 * - Action ids: 0 draw, 1 take (named "take 7♥" after the top card),
 *   2 knock, 3 + c discard card c (c = suit*13 + rank-1, cards.h); 55 ids.
 * - The view's "value" of a four-card hand (mid-turn) is the best one-suit
 *   total of all four cards held.
 * - Determinization: the stock order and the cards of other hands not seen
 *   taken from the pile are resampled. After a reshuffle the stock's cards
 *   are a public set; cards outside it must sit in hands, and a hand holds
 *   at most as many of them as it drew since (less those it was seen to
 *   throw); constraints from an earlier reshuffle in the same round are not
 *   kept (rare: it needs two exhausted stocks in one round).
 *
 * This file holds the rules and the descriptor; thirty_one_view.c what a
 * seat sees; thirty_one.h the state they share.
 */
#include <string.h>

#include "../../common/err.h"
#include "thirty_one.h"

/* ==== options ========================================================== */

#define SUITS 4

static const struct param_def params[T31_NPARAMS] = {
    {"players", PARAM_INT, 4, 2, T31_MAXP, NULL, "number of players"},
    {"lives", PARAM_INT, 3, 0, T31_LIVES_MAX, NULL,
     "pennies each player starts with (the book: 3; 0 = all on the county)"},
    {"county", PARAM_BOOL, 1, 0, 1, NULL,
     "a player with no pennies stays in 'on the county' until he loses "
     "again; false: out with the last penny"},
    {"knock_first_turn", PARAM_BOOL, 1, 0, 1, NULL,
     "knocking allowed from the first turn; false: only once every "
     "player has had a turn this round"},
    {"max_turns", PARAM_INT, 100, 1, T31_TURNS_MAX, NULL,
     "turns in a round before it ends void, nobody paying"},
    {"max_rounds", PARAM_INT, 200, 1, 1000, NULL,
     "rounds before the episode ends, survivors sharing the kitty"},
};

/* Beyond the one-option variants: sudden death for two, a full table
 * with the late-knock rule, and a short game with no county. */
static const char *const test_specs[] = {
    "thirty_one(players=2,lives=0)",
    "thirty_one(players=9,knock_first_turn=false,max_turns=40)",
    "thirty_one(players=5,lives=1,county=false,max_rounds=20)",
    NULL,
};

/* ==== static helpers: values, seats, lives ============================= */

static int nplayers(const struct game *g)
{
    return g->dims.players;
}

static int opt(const struct game *g, int p)
{
    return (int)g->params.v[p];
}

/* Card points: A 11, pips their number, J Q K 10. The points of a suit's
 * cards from the bits of its ranks: row_lo by its A..7 (bits 0..6),
 * row_hi by its 8..K (bits 7..12). */
#define B(x, i) ((x) >> (i) & 1)
#define LO(x)                                                              \
    (11 * B(x, 0) + 2 * B(x, 1) + 3 * B(x, 2) + 4 * B(x, 3) + 5 * B(x, 4) +  \
     6 * B(x, 5) + 7 * B(x, 6))
#define HI(x)                                                              \
    (8 * B(x, 0) + 9 * B(x, 1) + 10 * (B(x, 2) + B(x, 3) + B(x, 4) + B(x, 5)))
#define ROW4(F, i) F(i), F((i) + 1), F((i) + 2), F((i) + 3)
#define ROW16(F, i)                                                        \
    ROW4(F, i), ROW4(F, (i) + 4), ROW4(F, (i) + 8), ROW4(F, (i) + 12)
#define ROW64(F, i)                                                        \
    ROW16(F, i), ROW16(F, (i) + 16), ROW16(F, (i) + 32), ROW16(F, (i) + 48)
static const uint8_t row_lo[128] = {ROW64(LO, 0), ROW64(LO, 64)};
static const uint8_t row_hi[64] = {ROW64(HI, 0)};

/* Without a loop over the cards (whose number varies: its end would be
 * mispredicted): two lookups per suit. */
int thirty_one__hand_value(hand_t h)
{
    int best = 0;
#pragma GCC unroll 4
    for (int s = 0; s < SUITS; s++) {
        unsigned r = (unsigned)(h >> 13 * s) & 0x1fff;
        int v = row_lo[r & 127] + row_hi[r >> 7];
        best = v > best ? v : best;
    }
    return best;
}

static int live_count(const struct game *g, const struct thirty_one_state *st)
{
    return nplayers(g) - __builtin_popcount(st->out);
}

int thirty_one__kitty(const struct game *g, const struct thirty_one_state *st)
{
    int k = 0;
    for (int p = 0; p < nplayers(g); p++)
        k += opt(g, T31_P_LIVES) - st->pennies[p];
    return k;
}

/* seat loses a life worth `pay` pennies (2 for a sole-lowest knocker):
 * pays what he can, and goes out if already on the county. */
static void lose_life(const struct game *g, struct thirty_one_state *st,
                      int seat, int pay)
{
    if (st->pennies[seat] == 0) {
        st->out |= (uint16_t)(1u << seat);
        st->lost[seat] = 1;
        return;
    }
    if (pay > st->pennies[seat])
        pay = st->pennies[seat];
    st->pennies[seat] = (int8_t)(st->pennies[seat] - pay);
    st->lost[seat] = (int8_t)pay;
    if (st->pennies[seat] == 0 && !opt(g, T31_P_COUNTY))
        st->out |= (uint16_t)(1u << seat);
}

/* ==== static helpers: deals and round ends ============================= */

/* Orders the pack for a deal: the first deal puts the deck prefix on top
 * and shuffles the rest; later deals shuffle only the k cards dealt (the
 * stock is drawn at random, see stock_draw). Returns 0 or ERR_INVAL. */
static int shuffle_pack(struct thirty_one_state *st, bool first,
                        const uint8_t *pre, int npre, int k)
{
    st->fixed = first ? CARDS_IN_PACK : (uint8_t)k;
    if (first)
        return deck_build(st->stock, CARDS_IN_PACK, pre, npre, &st->rng);
    for (int i = 0; i < CARDS_IN_PACK; i++)
        st->stock[i] = (uint8_t)i;
    for (int i = 0; i < k; i++) {
        int j = i + (int)rng_below(&st->rng, (uint32_t)(CARDS_IN_PACK - i));
        uint8_t t = st->stock[i];
        st->stock[i] = st->stock[j];
        st->stock[j] = t;
    }
    return 0;
}

/* Deals a round from dealer st->dealer (the first deal from the deck
 * prefix pre). Returns 0 or ERR_INVAL. */
static int deal(const struct game *g, struct thirty_one_state *st, bool first,
                const uint8_t *pre, int npre)
{
    int n = nplayers(g), m = live_count(g, st), k = 0;
    uint8_t order[T31_MAXP];
    int rc = shuffle_pack(st, first, pre, npre, 3 * m + 1);
    if (rc)
        return rc;
    order[0] = (uint8_t)thirty_one__next_live(st, st->dealer, n);
    for (int i = 1; i < m; i++)
        order[i] = (uint8_t)thirty_one__next_live(st, order[i - 1], n);
    memset(st->hand, 0, sizeof st->hand);
    memset(st->known, 0, sizeof st->known);
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < m; i++)
            st->hand[order[i]] |= card_bit(st->stock[k++]);
    st->pile[0] = st->stock[k++];
    st->npile = 1;
    st->piled = card_bit(st->pile[0]);
    st->top = (uint8_t)k;
    st->restock = 0;
    st->nhist = 0;
    st->turns = 0;
    st->knocker = T31_NO_SEAT;
    st->taken = NO_CARD;
    st->phase = T31_PH_DRAW;
    st->turn = order[0];
    return 0;
}

/* Clears the record of the round's end before a settlement fills it. */
static void begin_settle(struct thirty_one_state *st, int end)
{
    memset(st->shown, 0, sizeof st->shown);
    memset(st->lost, 0, sizeof st->lost);
    st->last_end = (uint8_t)end;
}

/* Settles 31s in the hands just dealt; true if any (the round is over). */
static bool settle_deal_31s(const struct game *g, struct thirty_one_state *st)
{
    uint32_t w = 0;
    for (int p = 0; p < nplayers(g); p++)
        if (!thirty_one__is_out(st, p) &&
            thirty_one__hand_value(st->hand[p]) == 31)
            w |= 1u << p;
    if (!w)
        return false;
    begin_settle(st, T31_END_31_DEAL);
    for (int p = 0; p < nplayers(g); p++) {
        if ((w >> p) & 1)
            st->shown[p] = st->hand[p];
        else if (!thirty_one__is_out(st, p))
            lose_life(g, st, p, 1);
    }
    return true;
}

/* Counts the finished round; true (and terminal) if the episode is over. */
static bool close_round(const struct game *g, struct thirty_one_state *st)
{
    st->rounds++;
    if (live_count(g, st) > 1 && st->rounds < opt(g, T31_P_MAX_ROUNDS))
        return false;
    st->phase = T31_PH_OVER;
    return true;
}

/* After a settled round: passes the deal and deals until a round needs a
 * decision (31s at the deal settle at once) or the episode is over. */
static void end_round(const struct game *g, struct thirty_one_state *st)
{
    while (!close_round(g, st)) {
        st->dealer =
            (uint8_t)thirty_one__next_live(st, st->dealer, nplayers(g));
        deal(g, st, false, NULL, 0);
        if (!settle_deal_31s(g, st))
            return;
    }
}

/* The knocker's round ends: lowest value loses, with the knocker's rules. */
static void showdown(const struct game *g, struct thirty_one_state *st)
{
    int v[T31_MAXP] = {0}, low = 99, nlow = 0, k = st->knocker;
    begin_settle(st, T31_END_KNOCK);
    for (int p = 0; p < nplayers(g); p++) {
        if (thirty_one__is_out(st, p))
            continue;
        st->shown[p] = st->hand[p];
        v[p] = thirty_one__hand_value(st->hand[p]);
        low = v[p] < low ? v[p] : low;
    }
    for (int p = 0; p < nplayers(g); p++)
        nlow += !thirty_one__is_out(st, p) && v[p] == low;
    if (v[k] == low && nlow == 1) {
        lose_life(g, st, k, 2);
    } else {
        for (int p = 0; p < nplayers(g); p++)
            if (p != k && !thirty_one__is_out(st, p) && v[p] == low)
                lose_life(g, st, p, 1);
    }
    end_round(g, st);
}

/* seat has 31 after a discard: every other player loses one life. */
static void declare_31(const struct game *g, struct thirty_one_state *st,
                       int seat)
{
    begin_settle(st, T31_END_31);
    st->shown[seat] = st->hand[seat];
    for (int p = 0; p < nplayers(g); p++)
        if (p != seat && !thirty_one__is_out(st, p))
            lose_life(g, st, p, 1);
    end_round(g, st);
}

/* ==== static helpers: turns ============================================ */

/* Turns the discards below the top card into a new stock; it is
 * shuffled lazily, each draw taking one of its cards at random. */
static void reshuffle(struct thirty_one_state *st)
{
    int m = st->npile - 1;
    uint8_t *dst = st->stock + CARDS_IN_PACK - m;
    memcpy(dst, st->pile, (size_t)m);
    st->top = st->fixed = (uint8_t)(CARDS_IN_PACK - m);
    st->pile[0] = st->pile[m];
    st->npile = 1;
    st->piled = card_bit(st->pile[0]);
    st->restock = thirty_one__cards_of(dst, m);
    memset(st->cap, 0, sizeof st->cap);
}

static bool may_knock(const struct game *g, const struct thirty_one_state *st)
{
    if (st->knocker != T31_NO_SEAT)
        return false;
    return opt(g, T31_P_KNOCK_FIRST) || st->turns >= live_count(g, st);
}

/* A turn is over: showdown, void round, or the next player's turn. */
static void finish_turn(const struct game *g, struct thirty_one_state *st)
{
    st->turns++;
    st->phase = T31_PH_DRAW;
    st->taken = NO_CARD;
    st->turn = (uint8_t)thirty_one__next_live(st, st->turn, nplayers(g));
    if (st->turn == st->knocker) {
        showdown(g, st);
    } else if (st->turns >= opt(g, T31_P_MAX_TURNS)) {
        begin_settle(st, T31_END_VOID);
        end_round(g, st);
    }
}

/* The next stock card: in order within the fixed part, else one of the
 * remaining cards at random (a Fisher-Yates step done when needed). */
static int stock_draw(struct thirty_one_state *st)
{
    if (st->top >= st->fixed) {
        uint32_t left = (uint32_t)(CARDS_IN_PACK - st->top);
        int j = st->top + (int)rng_below(&st->rng, left);
        uint8_t t = st->stock[j];
        st->stock[j] = st->stock[st->top];
        st->stock[st->top] = t;
    }
    return st->stock[st->top++];
}

static void do_draw(struct thirty_one_state *st)
{
    if (st->top == CARDS_IN_PACK)
        reshuffle(st);
    st->hand[st->turn] |= card_bit(stock_draw(st));
    if (st->restock)
        st->cap[st->turn]++;
    st->phase = T31_PH_DISCARD;
}

static void do_take(struct thirty_one_state *st)
{
    int c = st->pile[--st->npile];
    st->piled &= ~card_bit(c);
    st->hand[st->turn] |= card_bit(c);
    st->known[st->turn] |= card_bit(c);
    st->taken = (uint8_t)c;
    st->phase = T31_PH_DISCARD;
}

static void do_discard(const struct game *g, struct thirty_one_state *st, int c)
{
    int seat = st->turn;
    hand_t b = card_bit(c);
    st->hand[seat] &= ~b;
    if (st->known[seat] & b)
        st->known[seat] &= ~b;
    else if (st->restock & b)
        st->cap[seat]--;
    st->pile[st->npile++] = (uint8_t)c;
    st->piled |= b;
    if (thirty_one__hand_value(st->hand[seat]) == 31)
        declare_31(g, st, seat);
    else
        finish_turn(g, st);
}

/* ==== API: configure, init, play ======================================= */

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[T31_P_PLAYERS], lives = (int)p->v[T31_P_LIVES];
    int turns = (int)p->v[T31_P_MAX_TURNS];
    if (!p->v[T31_P_KNOCK_FIRST] && turns <= n)
        return err_set(err, errlen, ERR_INVAL,
                       "knock_first_turn=false needs max_turns > players "
                       "(%d), or nobody could ever knock",
                       n);
    if (lives == 0 && !p->v[T31_P_COUNTY])
        return err_set(err, errlen, ERR_INVAL,
                       "lives=0 needs county=true (with no pennies and no "
                       "county everyone would be out)");
    d->players = d->teams = n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)i;
    d->num_actions = T31_NUM_ACTIONS;
    d->max_legal = 4;
    d->obs_size = thirty_one__obs_size(n);
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = (int)p->v[T31_P_MAX_ROUNDS] * 2 * turns;
    d->ret_low = -lives;
    d->ret_high = (double)(n - 1) * lives;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct thirty_one_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    for (int p = 0; p < nplayers(g); p++)
        st->pennies[p] = (int8_t)opt(g, T31_P_LIVES);
    st->dealer = 0;
    int rc = deal(g, st, true, deck, ndeck);
    if (rc)
        return rc;
    if (settle_deal_31s(g, st))
        end_round(g, st);
    return 0;
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    const struct thirty_one_state *st = vst;
    (void)g;
    return st->phase == T31_PH_OVER ? 0 : 1u << st->turn;
}

/* Deals finished, and the one being played while the game goes on. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct thirty_one_state *st = vst;
    return st->rounds + (st->phase != T31_PH_OVER);
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct thirty_one_state *st = vst;
    int n = 0;
    if (st->phase == T31_PH_OVER || seat != st->turn)
        return 0;
    if (st->phase == T31_PH_DRAW) {
        if (st->top < CARDS_IN_PACK || st->npile > 1)
            out[n++] = T31_DRAW;
        out[n++] = T31_TAKE;
        if (may_knock(g, st))
            out[n++] = T31_KNOCK;
        return n;
    }
    for (hand_t h = st->hand[seat]; h; h &= h - 1)
        if (hand_first(h) != st->taken)
            out[n++] = T31_DISCARD + hand_first(h);
    return n;
}

static int apply(const struct game *g, void *vst, int action)
{
    struct thirty_one_state *st = vst;
    int code =
        action == T31_TAKE ? T31_H_TAKE + st->pile[st->npile - 1] : action;
    /* max_turns <= T31_TURNS_MAX keeps a round within T31_HIST_MAX entries. */
    if (st->nhist < T31_HIST_MAX)
        st->hist[st->nhist++] = (uint8_t)code;
    switch (action) {
    case T31_DRAW:
        do_draw(st);
        break;
    case T31_TAKE:
        do_take(st);
        break;
    case T31_KNOCK:
        st->knocker = st->turn;
        finish_turn(g, st);
        break;
    default:
        do_discard(g, st, action - T31_DISCARD);
        break;
    }
    return 0;
}

/* Chips won minus chips paid; the survivors share the kitty at the end. */
static void returns(const struct game *g, const void *vst, double *out)
{
    const struct thirty_one_state *st = vst;
    int n = nplayers(g), lives = opt(g, T31_P_LIVES);
    double share = 0;
    if (st->phase == T31_PH_OVER)
        share = (double)thirty_one__kitty(g, st) / live_count(g, st);
    for (int p = 0; p < n; p++)
        out[p] =
            st->pennies[p] - lives + (thirty_one__is_out(st, p) ? 0 : share);
}

/* ==== API: determinization ============================================= */

/* Cards seat cannot place: the stock and the unseen cards of other hands,
 * split into those outside (a) and inside (b) the reshuffled set. */
static void unseen(const struct game *g, const struct thirty_one_state *st,
                   int seat, uint8_t *a, int *na, uint8_t *b, int *nb)
{
    hand_t h =
        thirty_one__cards_of(st->stock + st->top, CARDS_IN_PACK - st->top);
    for (int p = 0; p < nplayers(g); p++)
        if (p != seat && !thirty_one__is_out(st, p))
            h |= st->hand[p] & ~st->known[p];
    *na = *nb = 0;
    for (; h; h &= h - 1) {
        int c = hand_first(h);
        if (st->restock & card_bit(c))
            b[(*nb)++] = (uint8_t)c;
        else
            a[(*na)++] = (uint8_t)c;
    }
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct thirty_one_state *st = vst;
    uint8_t a[CARDS_IN_PACK], b[CARDS_IN_PACK], slot[CARDS_IN_PACK];
    int na, nb, ai = 0, bi = 0, ns = 0;
    unseen(g, st, seat, a, &na, b, &nb);
    rng_shuffle_u8(rng, a, na);
    rng_shuffle_u8(rng, b, nb);
    /* Each hand first gets the cards that cannot have come from the
     * reshuffled stock (all its unseen cards when there was none). */
    for (int p = 0; p < nplayers(g); p++) {
        if (p == seat || thirty_one__is_out(st, p))
            continue;
        int hid = hand_count(st->hand[p] & ~st->known[p]);
        int need = st->restock ? hid - st->cap[p] : hid;
        need = need < 0 ? 0 : need;
        st->hand[p] = st->known[p];
        for (int i = 0; i < need; i++)
            st->hand[p] |= card_bit(a[ai++]);
        for (int i = need; i < hid; i++)
            slot[ns++] = (uint8_t)p;
    }
    /* Free slots take the rest of a (which must be in hands), then b. */
    rng_shuffle_u8(rng, slot, ns);
    for (int i = 0; i < ns; i++)
        st->hand[slot[i]] |= card_bit(ai < na ? a[ai++] : b[bi++]);
    int k = st->top;
    while (ai < na)
        st->stock[k++] = a[ai++];
    while (bi < nb)
        st->stock[k++] = b[bi++];
    st->fixed = st->top; /* the new stock order is drawn at random */
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== the descriptor =================================================== */

const struct game_def thirty_one_game = {
    .name = "thirty_one",
    .long_name = "Thirty-One",
    .source = "The Adventures of BJ and Tony Morris, family games page, "
              "Thirty-One; see docs/games/thirty_one.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct thirty_one_state),
    .params = params,
    .nparams = T31_NPARAMS,
    .cards = &cards_standard,
    .view_keys = thirty_one__view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = thirty_one__observe,
    .obs_layout = thirty_one__obs_layout,
    .view = thirty_one__view,
    .action_name = thirty_one__action_name,
    .determinize = determinize,
    .describe = thirty_one__describe,
    .deals = deals,
};
