/* bi_jinx.c — Bi-Jinx (O. D. Hopkins, 1922): a special 50-card pack, a
 * hidden "Jinx Inn" fed by the deal, eight tricks led by the dealer, a
 * haggle over Bi and Jinx, and a RET/DED ledger over five hands in which
 * the lowest RET − DED wins.
 *
 * Rules: the Bi-Jinx rule leaflet (1922) and its sample game.
 * docs/games/bi_jinx.md restates them in full; the decisions in short:
 * - Pack: Bi, Jinx, 0, 00 (no points), six 1s, ten each of 2..5: 50 cards,
 *   146 points, four players. Three players drop five 4s and five 5s (40
 *   cards, 101 points); two drop five each of 2..5 (30 cards, 76 points).
 * - Seats clockwise; seat 0 deals first, the deal passes left each hand.
 *   Four players are two partnerships, 0+2 against 1+3 (option).
 * - Deal, in pack order: one card to the Inn; three to each player from the
 *   dealer's left (dealer last); each player in that order discards to the
 *   Inn (forced to a card of the highest point value he holds, the
 *   choice his only when all three are specials); three more each; 7, 6 or
 *   5 to the Inn (2, 3, 4 players); five more each: ten in the Inn, ten in
 *   each hand. A deck given to init fixes one pack order per hand, in
 *   faces: hand k takes faces [k*P, (k+1)*P) of it (P = pack size), the
 *   part of a pack not given is shuffled from the state's RNG.
 * - Play: the dealer leads all eight tricks, then clockwise; any
 *   card may be played; the highest points win, among equal highest the
 *   last played (specials count 0). The winner takes the cards; the last
 *   trick's winner inherits the Inn. Two cards stay in each hand.
 * - Haggle: when Bi and Jinx are possessed (final hand,
 *   tricks, inherited Inn) by two players who are not partners, the Bi
 *   possessor speaks first: a proposal to buy the other's card or to sell
 *   his own at a price, or "refuse". Each proposal may be answered
 *   "accept", "refuse" (ends the haggle) or a counter-proposal, turns
 *   alternating, at most `proposals` (4) in all; prices 0, 10, ..
 *   price_cap (3,000). A proposal takes two actions of its maker, "buy
 *   1000+" (or "sell 1000+": the hundreds) then "+50" (the tens), so that
 *   no decision has more than 2 + 2 * (cap / 100 + 1) choices. Other hands
 *   and the Inn stay hidden until it ends.
 * - Settlement, each seat in the leaflet's order (bi_jinx__settle below): the
 *   wipe; Big Four; Inn Bi-Jinx; both; one, with 0/00 multipliers; plain. A
 *   seller books his raw points RET and the price DED; the buyer his raw
 *   points plus the price on both sides (the leaflet's stated rule; the sample
 *   score's 2,014|2,014 line nets to zero the same way). The notes "Jinx" and
 *   "D. Jinx" are labels only.
 * - Game: `hands` hands (5). Returns: the side with the lowest RET − DED
 *   (partners summed) gets +1 and every other side −1/(sides−1); sides
 *   sharing the lowest share +1 and the rest share −1 (a shared
 *   win; all 0 when every side ties). returns=margin: a side's return is
 *   the mean net of the other sides less its own, at every step.
 * - Action ids: 0..8 discard face, 9..17 play face (Bi, Jinx, 0, 00, 1..5),
 *   18 refuse, 19 accept, 20..29 the tens +0 .. +90, 30.. "buy h+" for
 *   h = 0, 100, .. cap, then "sell h+".
 */
#include <string.h>

#include "../../common/err.h"
#include "../trick.h"
#include "bi_jinx.h"

/* ==== options and tables =============================================== */

enum opt { O_PLAYERS, O_SIDES, O_HANDS, O_CAP, O_OFFERS, O_RETURNS, NPARAMS };

static const char *const returns_choices[] = {"result", "margin", NULL};

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 2, BJ_MAXP, NULL,
     "number of players: 2 (30 cards), 3 (40) or 4 (50)"},
    {"partnerships", PARAM_BOOL, 1, 0, 1, NULL,
     "four players as two sides, 0+2 against 1+3; no effect with "
     "two or three"},
    {"hands", PARAM_INT, 5, 1, BJ_HANDS_MAX, NULL,
     "hands in a game (the book plays five)"},
    {"price_cap", PARAM_INT, 3000, 0, BJ_CAP_MAX, NULL,
     "highest price in the haggle, a multiple of 10"},
    {"proposals", PARAM_INT, 4, 0, BJ_OFFERS_MAX, NULL,
     "most proposals in a haggle; 0: no buying or selling"},
    {"returns", PARAM_ENUM, 0, 0, 0, returns_choices,
     "result: +1 lowest net, -1/(sides-1) others; margin: the ledger "
     "margin in points"},
};

static const char *const test_specs[] = {
    "bi_jinx(players=4,partnerships=false,hands=2)",
    "bi_jinx(players=3,returns=margin,price_cap=100)",
    "bi_jinx(players=2,proposals=1,hands=3)",
    NULL,
};

const uint8_t bi_jinx__points[BJ_FACES] = {0, 0, 0, 0, 1, 2, 3, 4, 5};

#define R6(f) f, f, f, f, f, f
#define R10(f) R6(f), f, f, f, f
const uint8_t bi_jinx__face[BJ_CARDS] = {
    F_BI,      F_JINX,     F_ZERO,     F_DZERO,    R6(F_ONE),
    R10(F_TWO), R10(F_THREE), R10(F_FOUR), R10(F_FIVE)};

#define RUN(lo, k) ((((hand_t)1 << (k)) - 1) << (lo))
const hand_t bi_jinx__face_mask[BJ_FACES] = {
    RUN(0, 1),  RUN(1, 1),  RUN(2, 1),  RUN(3, 1), RUN(4, 6),
    RUN(10, 10), RUN(20, 10), RUN(30, 10), RUN(40, 10)};

/* The pack for n players: three drop five 4s and 5s, two five of 2..5. */
static hand_t pack_of(int n)
{
    hand_t all = RUN(0, BJ_CARDS);
    if (n == 3)
        return all & ~RUN(35, 5) & ~RUN(45, 5);
    if (n == 2)
        return all & ~RUN(15, 5) & ~RUN(25, 5) & ~RUN(35, 5) & ~RUN(45, 5);
    return all;
}

static const hand_t TWO = RUN(BJ_BI, 2);  /* Bi and Jinx */
static const hand_t FOUR = RUN(BJ_BI, 4); /* with 0 and 00: Big Four */

/* ==== static helpers: the deal ========================================= */

static int next_seat(const struct bi_jinx_state *st, int s)
{
    return s + 1 == st->cfg.n ? 0 : s + 1;
}

/* Pack order of hand number h into o: the faces given for it, each as its
 * lowest unused copy, then the rest shuffled (rng may be NULL to check a
 * given deck only). Returns 0 or ERR_INVAL (a face given too often). */
static int pack_order(const struct bi_jinx_state *st, int h, uint8_t *o,
                      struct rng *rng)
{
    hand_t left = pack_of(st->cfg.n);
    int size = hand_count(left), k = 0;
    for (int i = h * size; i < st->ndeck && i < (h + 1) * size; i++) {
        hand_t m = left & bi_jinx__face_mask[st->deck[i]];
        if (!m)
            return ERR_INVAL;
        o[k++] = (uint8_t)hand_first(m);
        left &= ~card_bit(o[k - 1]);
    }
    int fixed = k;
    for (; left; left &= left - 1)
        o[k++] = (uint8_t)hand_first(left);
    if (rng)
        rng_shuffle_u8(rng, o + fixed, k - fixed);
    return 0;
}

/* The next k cards of o from *p. */
static hand_t packet(const uint8_t *o, int *p, int k)
{
    hand_t h = 0;
    while (k--)
        h |= card_bit(o[(*p)++]);
    return h;
}

static void deal(struct bi_jinx_state *st)
{
    uint8_t o[BJ_CARDS];
    int n = st->cfg.n, p = 0, s;
    pack_order(st, st->hand_no, o, &st->rng); /* checked at init */
    memset(st->hand, 0, sizeof st->hand);
    memset(st->pend, 0, sizeof st->pend);
    memset(st->taken, 0, sizeof st->taken);
    memset(st->played, 0, sizeof st->played);
    memset(st->taken_f, 0, sizeof st->taken_f);
    memset(st->played_f, 0, sizeof st->played_f);
    memset(st->disc, NO_CARD, sizeof st->disc);
    st->inn = packet(o, &p, 1);
    for (int k = 1; k <= n; k++)
        st->hand[(st->dealer + k) % n] = packet(o, &p, 3);
    for (int k = 1; k <= n; k++)
        st->pend[(st->dealer + k) % n] = packet(o, &p, 3);
    st->pend_inn = packet(o, &p, BJ_INN - 1 - n);
    for (int k = 1; k <= n; k++) {
        s = (st->dealer + k) % n;
        st->pend[s] |= packet(o, &p, 5);
    }
    st->phase = PH_DISCARD;
    st->turn = (uint8_t)next_seat(st, st->dealer);
    st->ntrick = st->tricks = st->nhist = st->offers = st->offer_open = 0;
    st->heir = st->bi_seat = st->jinx_seat = st->offer_by = BJ_NO_SEAT;
}

/* The dealer has discarded: the rest of the deal, then the first lead. */
static void finish_deal(struct bi_jinx_state *st)
{
    for (int s = 0; s < st->cfg.n; s++) {
        st->hand[s] |= st->pend[s];
        st->pend[s] = 0;
    }
    st->inn |= st->pend_inn;
    st->pend_inn = 0;
    st->phase = PH_PLAY;
    st->turn = st->dealer;
}

/* ==== static helpers: settlement ======================================= */

/* The multiplier of a lone Bi (1) or Jinx (2) possessed in r: "1" or "2"
 * before the 0, the 00 or both ("When in the hand"). */
static int multiplier(hand_t r)
{
    int base = hand_has(r, BJ_BI) ? 1 : 2;
    bool z = hand_has(r, BJ_ZERO), zz = hand_has(r, BJ_DZERO);
    return base * (z && zz ? 1000 : zz ? 100 : z ? 10 : 0);
}

static struct bj_entry entry(int ret, int ded, int kind)
{
    struct bj_entry e = {ret, ded, 0, (uint8_t)kind};
    return e;
}

/* What seat s writes for this hand, given a sale (seller and buyer
 * are BJ_NO_SEAT when there was none). */
static struct bj_entry settle_seat(const struct bi_jinx_state *st, int s,
                                   int seller, int buyer, int price)
{
    hand_t r = bi_jinx__retained(st, s);
    int raw = bi_jinx__count(r);
    bool heir = s == st->heir;
    if (s == seller)
        return entry(raw, price, C_SOLD);
    if (s == buyer)
        return entry(raw + price, raw + price, C_BOUGHT);
    if (st->hand[s] == TWO && !st->taken[s] && !heir)
        return entry(0, 0, C_WIPE);
    if (heir && (st->inn & FOUR) == FOUR)
        return entry(raw, 3000, C_BIG_FOUR);
    if (heir && (st->inn & TWO) == TWO)
        return entry(0, 0, C_INN_WIPE);
    if ((r & TWO) == TWO)
        return entry(raw, raw, C_BOTH);
    if (r & TWO)
        return entry(raw + multiplier(r), 0, C_ONE);
    return entry(raw, 0, C_PLAIN);
}

/* Writes every seat's line, then deals the next hand or ends the game. */
static void settle(struct bi_jinx_state *st, int seller, int buyer, int price)
{
    for (int s = 0; s < st->cfg.n; s++) {
        struct bj_entry e = settle_seat(st, s, seller, buyer, price);
        e.raw = (int16_t)bi_jinx__count(bi_jinx__retained(st, s));
        st->led[st->hand_no][s] = e;
        if (e.kind == C_WIPE || e.kind == C_INN_WIPE)
            st->ret[s] = 0; /* every RET entry above is struck */
        st->ret[s] += e.ret;
        st->ded[s] += e.ded;
        st->sq_ret[s] = bi_jinx__squash(st->ret[s]);
        st->sq_ded[s] = bi_jinx__squash(st->ded[s]);
    }
    if (++st->hand_no >= st->cfg.hands) {
        st->phase = PH_OVER;
        st->turn = BJ_NO_SEAT;
        return;
    }
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    deal(st);
}

/* Possessor of card c at the end of the play. */
static int possessor(const struct bi_jinx_state *st, int c)
{
    for (int s = 0; s < st->cfg.n; s++)
        if (hand_has(bi_jinx__retained(st, s), c))
            return s;
    return BJ_NO_SEAT; /* not reached: every card is retained */
}

/* After the eighth trick: the haggle, or the settlement at once. */
static void end_play(struct bi_jinx_state *st)
{
    st->bi_seat = (uint8_t)possessor(st, BJ_BI);
    st->jinx_seat = (uint8_t)possessor(st, BJ_JINX);
    if (st->cfg.offers == 0 ||
        bi_jinx__partners(st, st->bi_seat, st->jinx_seat)) {
        settle(st, BJ_NO_SEAT, BJ_NO_SEAT, 0);
        return;
    }
    st->phase = PH_TRADE;
    st->turn = st->bi_seat;
}

/* ==== static helpers: play ============================================= */

static void end_trick(struct bi_jinx_state *st)
{
    int w = (st->dealer + st->best) % st->cfg.n;
    for (int i = 0; i < st->ntrick; i++)
        st->taken[w] |= card_bit(st->trick[i]);
    bi_jinx__put_faces(st->taken_f[w], st->taken[w]);
    st->ntrick = 0;
    st->turn = st->dealer;
    if (++st->tricks < BJ_TRICKS)
        return;
    st->heir = (uint8_t)w;
    end_play(st);
}

static void play(struct bi_jinx_state *st, int c)
{
    int s = st->turn;
    st->hand[s] &= ~card_bit(c);
    st->played[s] |= card_bit(c);
    bi_jinx__put_faces(st->played_f[s], st->played[s]);
    int pts = bi_jinx__points[bi_jinx__face[c]];
    /* The last of the equal highest wins: >= lets a later card take over. */
    if (st->ntrick == 0 ||
        pts >= bi_jinx__points[bi_jinx__face[st->trick[st->best]]])
        st->best = st->ntrick;
    st->trick[st->ntrick++] = (uint8_t)c;
    if (st->ntrick < st->cfg.n)
        st->turn = (uint8_t)next_seat(st, s);
    else
        end_trick(st);
}

static void discard(struct bi_jinx_state *st, int c)
{
    int s = st->turn;
    st->hand[s] &= ~card_bit(c);
    st->inn |= card_bit(c);
    st->disc[s] = (uint8_t)c;
    if (s == st->dealer)
        finish_deal(st);
    else
        st->turn = (uint8_t)next_seat(st, s);
}

/* The other party to the haggle. */
static int counterpart(const struct bi_jinx_state *st)
{
    return st->turn == st->bi_seat ? st->jinx_seat : st->bi_seat;
}

static void trade(struct bi_jinx_state *st, int a)
{
    int nh = st->cfg.nhundreds;
    if (a == A_REFUSE) {
        settle(st, BJ_NO_SEAT, BJ_NO_SEAT, 0);
    } else if (a == A_ACCEPT) {
        int by = st->offer_by, other = st->turn;
        if (st->offer_sell)
            settle(st, by, other, st->offer_price);
        else
            settle(st, other, by, st->offer_price);
    } else if (a < A_BUY) {
        st->offer_price = (uint16_t)(st->offer_price + (a - A_TENS) * BJ_STEP);
        st->offer_open = 0;
        st->turn = (uint8_t)counterpart(st);
    } else {
        st->offer_by = st->turn;
        st->offer_sell = a >= A_BUY + nh;
        st->offer_price =
            (uint16_t)((a - A_BUY - st->offer_sell * nh) * BJ_HUNDRED);
        st->offer_open = 1;
        st->offers++;
    }
}

/* Faces of h as actions base + face, into out. */
static int list_faces(hand_t h, int base, int *out)
{
    int k = 0;
    for (int f = 0; f < BJ_FACES; f++)
        if (h & bi_jinx__face_mask[f])
            out[k++] = base + f;
    return k;
}

/* The cards of h of the highest point value (all its specials when
 * it holds nothing else). */
static hand_t largest(hand_t h)
{
    for (int f = F_FIVE; f >= F_ONE; f--)
        if (h & bi_jinx__face_mask[f])
            return h & bi_jinx__face_mask[f];
    return h;
}

/* ==== API: configuration and play ====================================== */

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[O_PLAYERS], cap = (int)p->v[O_CAP];
    int hands = (int)p->v[O_HANDS], offers = (int)p->v[O_OFFERS];
    bool sides = n == 4 && p->v[O_SIDES] != 0;
    if (cap % BJ_STEP)
        return err_set(err, errlen, ERR_INVAL,
                       "price_cap must be a multiple of %d (got %d)", BJ_STEP,
                       cap);
    trick_dims(d, n, sides);
    int nh = cap / BJ_HUNDRED + 1;
    d->num_actions = A_BUY + 2 * nh;
    d->max_legal = 2 + 2 * nh > 10 ? 2 + 2 * nh : 10;
    d->obs_size = bi_jinx__obs_size(n);
    d->max_length = hands * (n * (BJ_TRICKS + 1) + 2 * offers + 1);
    if (p->v[O_RETURNS] != 0) {
        /* A seat's net moves by at most 2,146 up (2,000 + 146) and the
         * largest DED down each hand; a side holds one or two seats. */
        int ded = cap + 146 > 3000 ? cap + 146 : 3000;
        d->ret_high = (double)hands * (sides ? 2 : 1) * (2146 + ded);
        d->ret_low = -d->ret_high;
    }
    return 0;
}

static void load_cfg(const struct game *g, struct bj_cfg *c)
{
    const double *v = g->params.v;
    c->n = (uint8_t)v[O_PLAYERS];
    c->sides = g->dims.teams == 2 && c->n == 4;
    c->hands = (uint8_t)v[O_HANDS];
    c->offers = (uint8_t)v[O_OFFERS];
    c->margin = v[O_RETURNS] != 0;
    c->cap = (uint16_t)v[O_CAP];
    c->nhundreds = (uint16_t)(c->cap / BJ_HUNDRED + 1);
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct bi_jinx_state *st = vst;
    uint8_t o[BJ_CARDS];
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    load_cfg(g, &st->cfg);
    int size = hand_count(pack_of(st->cfg.n));
    if (ndeck < 0 || ndeck > size * st->cfg.hands)
        return ERR_INVAL;
    for (int i = 0; i < ndeck; i++)
        if (deck[i] >= BJ_FACES)
            return ERR_INVAL;
    if (ndeck > 0)
        memcpy(st->deck, deck, (size_t)ndeck);
    st->ndeck = (uint16_t)ndeck;
    for (int h = 0; h < st->cfg.hands; h++)
        if (pack_order(st, h, o, NULL))
            return ERR_INVAL;
    deal(st);
    return 0;
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct bi_jinx_state *st = bj_cst(vst);
    return st->phase == PH_OVER ? 0 : 1u << st->turn;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct bi_jinx_state *st = bj_cst(vst);
    if (st->phase == PH_OVER || seat != st->turn)
        return 0;
    if (st->phase == PH_DISCARD)
        return list_faces(largest(st->hand[seat]), A_DISCARD, out);
    if (st->phase == PH_PLAY)
        return list_faces(st->hand[seat], A_PLAY, out);
    int k = 0;
    if (st->offer_open) {
        for (int j = 0; j < 10 && st->offer_price + j * BJ_STEP <= st->cfg.cap;
             j++)
            out[k++] = A_TENS + j;
        return k;
    }
    out[k++] = A_REFUSE;
    if (st->offer_by != BJ_NO_SEAT)
        out[k++] = A_ACCEPT;
    if (st->offers < st->cfg.offers)
        for (int i = 0; i < 2 * st->cfg.nhundreds; i++)
            out[k++] = A_BUY + i;
    return k;
}

static int apply(const struct game *g, void *vst, int a)
{
    (void)g;
    struct bi_jinx_state *st = vst;
    int s = st->turn;
    if (st->nhist < BJ_HIST) {
        st->hist_seat[st->nhist] = (uint8_t)s;
        st->hist_act[st->nhist++] = (uint16_t)a;
    }
    if (st->phase == PH_DISCARD)
        discard(st, hand_first(st->hand[s] & bi_jinx__face_mask[a]));
    else if (st->phase == PH_PLAY)
        play(st, hand_first(st->hand[s] & bi_jinx__face_mask[a - A_PLAY]));
    else
        trade(st, a);
    return 0;
}

/* Net (RET − DED) of each side: seats alone, or partners summed. */
static int side_nets(const struct game *g, const struct bi_jinx_state *st,
                     int64_t *net)
{
    int k = g->dims.teams;
    memset(net, 0, sizeof *net * (size_t)k);
    for (int s = 0; s < st->cfg.n; s++)
        net[g->dims.team[s]] += (int64_t)st->ret[s] - st->ded[s];
    return k;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct bi_jinx_state *st = bj_cst(vst);
    int64_t net[BJ_MAXP], sum = 0, best;
    if (!st->cfg.margin && st->phase != PH_OVER) {
        /* The result is known only at the end: no nets to work out (the
         * env asks for returns after every step). */
        game_returns_winner(g, -1, out);
        return;
    }
    int k = side_nets(g, st, net), w = 0, n = st->cfg.n;
    if (st->cfg.margin) {
        for (int t = 0; t < k; t++)
            sum += net[t];
        for (int s = 0; s < n; s++) {
            int64_t own = net[g->dims.team[s]];
            out[s] = (double)(sum - own) / (k - 1) - (double)own;
        }
        return;
    }
    best = net[0];
    for (int t = 1; t < k; t++)
        best = net[t] < best ? net[t] : best;
    for (int t = 0; t < k; t++)
        w += net[t] == best;
    if (w == 1) {
        int t = 0;
        while (net[t] != best)
            t++;
        game_returns_winner(g, t, out);
        return;
    }
    /* Sides sharing the lowest net share the win: +1 split among
     * them, -1 among the rest; all 0 when every side ties. */
    for (int s = 0; s < n; s++)
        out[s] = w == k                          ? 0
                 : net[g->dims.team[s]] == best ? 1.0 / w
                                                 : -1.0 / (k - w);
}

/* The deals op: hands finished, plus the one in play. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct bi_jinx_state *st = vst;
    return st->hand_no + (st->phase != PH_OVER);
}

/* ==== the descriptor =================================================== */

const struct game_def bi_jinx_game = {
    .name = "bi_jinx",
    .long_name = "Bi-Jinx",
    .source = "the Bi-Jinx rule leaflet (1922) and its sample game; see "
              "docs/games/bi_jinx.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct bi_jinx_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &bi_jinx__cards,
    .view_keys = bi_jinx__view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = bi_jinx__observe,
    .obs_layout = bi_jinx__obs_layout,
    .view = bi_jinx__view,
    .action_name = bi_jinx__action_name,
    .determinize = bi_jinx__determinize,
    .describe = bi_jinx__describe,
    .deals = deals,
};
