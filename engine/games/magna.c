/* magna.c — Magna: ten cards each from the Fives..Tens of a Trix pack and
 * Trixie; one bid each for the right to name the honor suit, four cards
 * laid aside face up, six sets played; High, Low, Trixie, Game, High-Game,
 * Low-Game, Santa and Magna count down from 15, first side to 0 wins.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), general terms and "Magna"; docs/games/magna.md states them as played
 * here.
 *
 * Decisions where the sources are silent or leave a choice:
 * - Seats are numbered to the left; play and the deal pass to seat + 1. The
 *   book has each player draw a card, the lowest sum dealing: the first dealer
 *   is a seeded random seat (game_first_dealer; docs/games/README.md, "First
 *   dealer"), and seat 0 when an explicit deck is given, so that deck[0] goes
 *   to seat 1. Ten cards go one at a time from deck[0] to the seat left of the
 *   dealer (the eldest), round by round, the dealer last; the 52 - 10n cards
 *   left are not used. Later deals draw only what they deal (lazy
 *   Fisher–Yates).
 * - Sides: with players=4 and partnerships=true (default) seats
 *   0,2 play 1,3; 2, 3 and 5 players (and partnerships=false) play alone.
 * - Bidding: from the eldest to the dealer, each once: "pass" or "bid k" above
 *   the highest bid so far (1..9: the book sets no limit and parlor stops at
 *   nine, a side's most in almost every deal, ten only when the Game card is
 *   the only honor dealt, and so all five of High, Low, Game, High-Game and
 *   Low-Game). The dealer, when all before him passed, must bid (at least 1:
 *   the book's forced bid of one). The highest bidder then names a suit he
 *   holds a card of ("name Sevens").
 * - Discards: every seat lays aside four cards, one action per
 *   card, from the eldest round; the cards stay face down until all have
 *   discarded (the book's simultaneous discard), then all are face up.
 *   The bidder must keep at least one honor. Discarded cards count for
 *   High and Low (the player dealt them) but are captured by nobody.
 * - Play: the bidder leads an honor to the first set. Afterwards any
 *   lead; a player holding the suit led plays it or an honor (an honor is
 *   always allowed); void, any card. Trixie may be played, or led, only
 *   by a player holding neither the suit led nor an honor; led, there is
 *   no suit to follow and the highest honor wins, else Trixie. The
 *   highest honor wins a set, else Trixie, else the highest of the suit
 *   led.
 * - Points: High and Low are the highest and lowest honors dealt out
 *   (discards included), to the side of the player dealt them; Trixie and
 *   Game (the honor of sum 10) to the side winning the set holding them.
 *   High-Game (Low-Game) when the Game card is also the highest (lowest)
 *   honor dealt, to the side winning the Game card. Santa: doubles
 *   won in sets, the honor double excluded, 2 → 1 point, 3 or more → 2;
 *   Magna the same for sum-10 cards, the Game card excluded. 5-5 counts
 *   for one of them only, the one that gives the side more, Santa on a
 *   tie. Every side scores its own Santa and Magna.
 * - Scoring: each side starts at target (default 15). The bid is made
 *   when the bidder's side's points reach it. All points are deducted one
 *   item at a time in precedence order (within an item, sides from the
 *   eldest's round), except a failed bidder's, whose side then adds the
 *   bid; the first side to reach 0 wins at once. variation=true (the
 *   book's "Variation in Scoring"): when the bid is made the opponents'
 *   points are not deducted.
 * - Episode: one game. Returns +1 to the winning side and -1/(sides-1) to
 *   each other; a game not decided in max_deals deals
 *   (default 30: a 15-point game takes a handful of deals) is
 *   drawn, all 0.
 * - Action ids: 0..51 play local card c (Trix id c + 15, Trixie 51);
 *   52..103 discard card c - 52; 104 pass; 105..113 bid 1..9; 114..119
 *   name Fives..Tens.
 */
#include <string.h>

#include "../../common/err.h"
#include "magna.h"

/* ==== options ========================================================== */

enum opt { O_PLAYERS, O_PARTNERS, O_VARIATION, O_TARGET, O_MAX_DEALS, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 2, MAGNA_MAXP, NULL,
     "number of players (the book: two to five)"},
    {"partnerships", PARAM_BOOL, 1, 0, 1, NULL,
     "with players=4, partners sit opposite: seats 0,2 v 1,3 (the book); "
     "ignored with 2, 3 or 5 players"},
    {"variation", PARAM_BOOL, 0, 0, 1, NULL,
     "the book's Variation in Scoring: a side that makes its bid blocks "
     "the opponents' points"},
    {"target", PARAM_INT, 15, 1, 50, NULL,
     "each side's starting score; the first to reduce it to 0 wins"},
    {"max_deals", PARAM_INT, 30, 1, 200, NULL,
     "deals before an undecided game is drawn"},
};

static const char *const test_specs[] = {
    "magna(players=2,variation=true)",
    "magna(players=5,target=5)",
    "magna(partnerships=false,variation=true,target=4)",
    NULL,
};

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int n = (int)p->v[O_PLAYERS];
    bool part = n == 4 && p->v[O_PARTNERS] != 0;
    trick_dims(d, n, part);
    d->num_actions = MAGNA_NUM_ACTIONS;
    d->max_legal = MAGNA_DEALT; /* ten cards to discard from, or 10 bids */
    d->obs_size = magna__obs_size(n);
    /* A deal: one bid each, a naming, four discards and six cards each. */
    d->max_length = (int)p->v[O_MAX_DEALS] * (11 * n + 1);
    return 0;
}

/* ==== static helpers: deal and bidding ================================= */

static int next_seat(const struct magna_state *st, int s)
{
    return trick_next(s, st->tb.n);
}

static int draw(struct magna_state *st, int p)
{
    if (p >= st->deck_fixed) {
        int j = p + (int)rng_below(&st->rng, (uint32_t)(FT_CARDS - p));
        uint8_t t = st->deck[j];
        st->deck[j] = st->deck[p];
        st->deck[p] = t;
    }
    return st->deck[p];
}

static void start_deal(struct magna_state *st)
{
    memset(st->tb.hand, 0, sizeof st->tb.hand);
    memset(st->discard, 0, sizeof st->discard);
    memset(st->tb.played, 0, sizeof st->tb.played);
    memset(st->won, 0, sizeof st->won);
    memset(st->tb.cant, 0, sizeof st->tb.cant);
    memset(st->bids, -1, sizeof st->bids);
    memset(st->bid_f, 0, sizeof st->bid_f);
    st->passed = 0;
    st->tb.table = 0;
    st->tb.ntrick = st->nsets = st->nhist = st->bid = st->tb.honor = 0;
    st->bidder = st->trixie_winner = st->game_winner = MAGNA_NO_SEAT;
    int p = 0;
    for (int r = 0; r < MAGNA_DEALT; r++) {
        int s = st->dealer;
        for (int i = 0; i < st->tb.n; i++, p++) {
            s = next_seat(st, s);
            st->tb.hand[s] |= card_bit(draw(st, p));
        }
    }
    st->deck_fixed = 0; /* a given prefix serves the first deal only */
    st->phase = MAGNA_PH_BID;
    st->tb.turn = (uint8_t)next_seat(st, st->dealer);
}

static void bid_or_pass(struct magna_state *st, int a)
{
    int s = st->tb.turn, n = st->tb.n;
    if (a == MAGNA_A_PASS) {
        st->bids[s] = 0;
        st->passed |= (uint16_t)(1u << s | 1u << (s + n));
    } else {
        st->bid = (uint8_t)(a - MAGNA_A_BID + 1);
        st->bids[s] = (int8_t)st->bid;
        st->bid_f[s] = st->bid_f[s + n] = (float)st->bid / 9.0f;
        st->bidder = (uint8_t)s;
    }
    if (s != st->dealer) {
        st->tb.turn = (uint8_t)next_seat(st, s);
        return;
    }
    st->phase = MAGNA_PH_NAME;
    st->tb.turn = st->bidder;
}

static void lay_aside(struct magna_state *st, int c)
{
    int s = st->tb.turn;
    st->tb.hand[s] &= ~card_bit(c);
    st->discard[s] |= card_bit(c);
    if (hand_count(st->discard[s]) < MAGNA_DISCARDS)
        return;
    st->tb.turn = (uint8_t)next_seat(st, s);
    if (s == st->dealer) {
        st->phase = MAGNA_PH_PLAY;
        st->tb.leader = st->tb.turn = st->bidder;
    }
}

/* ==== static helpers: scoring ========================================== */

/* Sets each seat's score_f from the scores. */
static void rescore(struct magna_state *st)
{
    int n = st->tb.n, top = 2 * st->target;
    float scale = 2.0f * st->target;
    for (int s = 0; s < n; s++) {
        /* Clipped as an integer (no branch on a float): 0 / scale and
         * top / scale are exactly 0 and 1. */
        int sc = st->score[magna_side(st, s)];
        sc = sc < 0 ? 0 : sc;
        st->score_f[s] = st->score_f[s + n] = (float)(sc < top ? sc : top) /
                                              scale;
    }
}

static int seat_dealt(const struct magna_state *st, int c)
{
    for (int s = 0; s < st->tb.n; s++)
        if (hand_has(st->tb.played[s] | st->discard[s], c))
            return s;
    return -1;
}

static int santa_value(int k)
{
    return k >= 3 ? 2 : k == 2 ? 1 : 0;
}

/* Santa and Magna of the cards cap won by one side (the 5-5 rule of
 * docs/games/magna.md). */
static void santa_magna(const struct magna_state *st, hand_t cap, int *santa,
                        int *magna)
{
    hand_t doubles = 0, tens = 0, b55 = card_bit(ft_card(5, 5));
    for (int s = 5; s <= 10; s++) {
        if (s == st->tb.honor)
            continue; /* the honor double and the honors' ten */
        doubles |= card_bit(ft_card(s, s));
        tens |= card_bit(ft_card(s, 10 - s));
    }
    int d = hand_count(cap & doubles & ~b55);
    int m = hand_count(cap & tens & ~b55);
    bool flex = (cap & doubles & b55) != 0;
    int a = santa_value(d + flex) + santa_value(m);
    int b = santa_value(d) + santa_value(m + flex);
    *santa = santa_value(d + (flex && a >= b));
    *magna = santa_value(m + (flex && a < b));
}

/* Fills pts[item][side] for the finished deal. */
static void count_points(const struct magna_state *st,
                         uint8_t pts[MAGNA_NPOINTS][MAGNA_MAXP])
{
    memset(pts, 0, sizeof(uint8_t) * MAGNA_NPOINTS * MAGNA_MAXP);
    hand_t dealt = 0;
    for (int s = 0; s < st->tb.n; s++)
        dealt |= st->tb.played[s] | st->discard[s];
    hand_t hon = dealt & ft_suit_mask(st->tb.honor);
    int hi = hon ? 63 - __builtin_clzll(hon) : -1;
    int lo = hon ? hand_first(hon) : -1;
    int gc = ft_card(st->tb.honor, 10 - st->tb.honor);
    if (hon) {
        pts[MAGNA_P_HIGH][magna_side(st, seat_dealt(st, hi))] = 1;
        pts[MAGNA_P_LOW][magna_side(st, seat_dealt(st, lo))] = 1;
    }
    if (st->trixie_winner != MAGNA_NO_SEAT)
        pts[MAGNA_P_TRIXIE][magna_side(st, st->trixie_winner)] = 1;
    if (st->game_winner != MAGNA_NO_SEAT) {
        int g = magna_side(st, st->game_winner);
        pts[MAGNA_P_GAME][g] = 1;
        pts[MAGNA_P_HIGH_GAME][g] = gc == hi;
        pts[MAGNA_P_LOW_GAME][g] = gc == lo;
    }
    for (int t = 0; t < st->teams; t++) {
        hand_t cap = 0;
        for (int s = 0; s < st->tb.n; s++)
            cap |= magna_side(st, s) == t ? st->won[s] : 0;
        int santa, magna;
        santa_magna(st, cap, &santa, &magna);
        pts[MAGNA_P_SANTA][t] = (uint8_t)santa;
        pts[MAGNA_P_MAGNA][t] = (uint8_t)magna;
    }
}

/* Deducts the points in precedence order; true when a side goes out. */
static bool deduct(struct magna_state *st, bool made)
{
    int bside = magna_side(st, st->bidder);
    for (int i = 0; i < MAGNA_NPOINTS; i++) {
        for (int k = 0; k < st->teams; k++) {
            int t = magna_side(st, (st->dealer + 1 + k) % st->tb.n);
            if (!st->last[i][t] || (t == bside && !made) ||
                (t != bside && made && st->variation))
                continue;
            st->score[t] = (int16_t)(st->score[t] - st->last[i][t]);
            if (st->score[t] <= 0) {
                st->victor = (uint8_t)t;
                st->phase = MAGNA_PH_OVER;
                return true;
            }
        }
    }
    return false;
}

static void score_deal(struct magna_state *st)
{
    count_points(st, st->last);
    int bside = magna_side(st, st->bidder), made = 0;
    for (int i = 0; i < MAGNA_NPOINTS; i++)
        made += st->last[i][bside];
    st->last_made = made >= st->bid;
    bool out = deduct(st, st->last_made);
    if (!out && !st->last_made)
        st->score[bside] = (int16_t)(st->score[bside] + st->bid);
    rescore(st);
    if (out)
        return;
    st->deal_no++;
    st->deal_f = (float)st->deal_no / (float)st->max_deals;
    if (st->deal_no >= st->max_deals) {
        st->phase = MAGNA_PH_OVER; /* drawn */
        return;
    }
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    start_deal(st);
}

/* ==== static helpers: play ============================================= */

/* Cards seat s may play now. */
static hand_t play_mask(const struct magna_state *st, int s)
{
    hand_t h = st->tb.hand[s], hon = ft_suit_mask(st->tb.honor);
    if (st->tb.ntrick == 0 && st->nsets == 0)
        return h & hon; /* the bidder's opening honor lead */
    if (st->tb.ntrick > 0 && st->tb.lead_suit >= 0) {
        hand_t suit = h & ft_suit_mask(st->tb.lead_suit);
        if (suit)
            return suit | (h & hon);
    }
    return h & hon ? h & ~card_bit(FT_TRIXIE) : h;
}

/* Discards seat s may make: the bidder keeps his last honor. */
static hand_t discard_mask(const struct magna_state *st, int s)
{
    hand_t h = st->tb.hand[s], hon = h & ft_suit_mask(st->tb.honor);
    return s == st->bidder && hand_count(hon) == 1 ? h & ~hon : h;
}

static void end_trick(struct magna_state *st)
{
    int w = (st->tb.leader + st->tb.best) % st->tb.n;
    st->won[w] |= st->tb.table;
    if (hand_has(st->tb.table, FT_TRIXIE))
        st->trixie_winner = (uint8_t)w;
    if (hand_has(st->tb.table, ft_card(st->tb.honor, 10 - st->tb.honor)))
        st->game_winner = (uint8_t)w;
    st->tb.table = 0;
    st->tb.ntrick = 0;
    st->tb.leader = st->tb.turn = (uint8_t)w;
    if (++st->nsets == MAGNA_SETS)
        score_deal(st);
}

static void play_card(struct magna_state *st, int c)
{
    if (ft_play(&st->tb, c))
        end_trick(st);
}

/* ==== API ============================================================== */

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct magna_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->tb.n = (uint8_t)g->dims.players;
    st->teams = (uint8_t)g->dims.teams;
    st->partners = st->teams == 2 && st->tb.n == 4;
    st->variation = game_param(g, "variation") != 0;
    st->target = (uint8_t)game_param(g, "target");
    st->max_deals = (uint16_t)game_param(g, "max_deals");
    st->victor = MAGNA_NO_SEAT;
    for (int t = 0; t < st->teams; t++)
        st->score[t] = st->target;
    rescore(st);
    if (ft_deck_start(st->deck, deck, ndeck))
        return ERR_INVAL; /* outside Fives..Tens + Trixie, or twice */
    st->deck_fixed = (uint8_t)ndeck;
    st->dealer = (uint8_t)game_first_dealer(seed, st->tb.n, deck, ndeck);
    start_deal(st);
    return 0;
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct magna_state *st = vst;
    return st->phase == MAGNA_PH_OVER ? 0 : 1u << st->tb.turn;
}

/* Deals finished, and the one being played while the game goes on. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct magna_state *st = vst;
    return st->deal_no + (st->phase != MAGNA_PH_OVER);
}

static int list(hand_t h, int base, int *out)
{
    int k = 0;
    for (; h; h &= h - 1)
        out[k++] = base + hand_first(h);
    return k;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct magna_state *st = vst;
    if (st->phase == MAGNA_PH_OVER || seat != st->tb.turn)
        return 0;
    int k = 0;
    switch (st->phase) {
    case MAGNA_PH_BID:
        if (seat != st->dealer || st->bid > 0)
            out[k++] = MAGNA_A_PASS;
        for (int b = st->bid + 1; b <= MAGNA_MAX_BID; b++)
            out[k++] = MAGNA_A_BID + b - 1;
        return k;
    case MAGNA_PH_NAME:
        for (int s = 5; s <= 10; s++)
            if (st->tb.hand[seat] & ft_suit_mask(s))
                out[k++] = MAGNA_A_NAME + s - 5;
        return k;
    case MAGNA_PH_DISCARD:
        return list(discard_mask(st, seat), MAGNA_A_DISCARD, out);
    default:
        return list(play_mask(st, seat), MAGNA_A_PLAY, out);
    }
}

static int apply(const struct game *g, void *vst, int a)
{
    (void)g;
    struct magna_state *st = vst;
    if (st->nhist < MAGNA_HIST) {
        st->hist[st->nhist][0] = st->tb.turn;
        st->hist[st->nhist++][1] = (uint8_t)a;
    }
    if (a < MAGNA_A_DISCARD) {
        play_card(st, a);
    } else if (a < MAGNA_A_PASS) {
        lay_aside(st, a - MAGNA_A_DISCARD);
    } else if (a < MAGNA_A_NAME) {
        bid_or_pass(st, a);
    } else {
        st->tb.honor = (uint8_t)(a - MAGNA_A_NAME + 5);
        st->phase = MAGNA_PH_DISCARD;
        st->tb.turn = (uint8_t)next_seat(st, st->dealer);
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    /* The victor is a side index and magna_side() numbers sides as
     * dims.team does. */
    const struct magna_state *st = vst;
    game_returns_winner(g, st->victor == MAGNA_NO_SEAT ? -1 : st->victor, out);
}

/* The estimate op: sides count down from the target to 0, so a side's
 * points are its score negated, and its lead a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct magna_state *st = vst;
    double pts[MAGNA_MAXP];
    for (int t = 0; t < st->teams; t++)
        pts[t] = -st->score[t];
    game_estimate_lead(g, pts, st->target, out);
}

/* ==== the descriptor =================================================== */

const struct game_def magna_game = {
    .name = "magna",
    .long_name = "Magna",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Magna; see docs/games/magna.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct magna_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &trix_cards,
    .view_keys = magna__view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = magna__observe,
    .obs_layout = magna__obs_layout,
    .view = magna__view,
    .action_name = magna__action_name,
    .determinize = magna__determinize,
    .describe = magna__describe,
    .deals = deals,
    .estimate = estimate,
};
