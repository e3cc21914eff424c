/* hilo.c — Hilo: six cards each from the Fives..Tens of a Trix pack and
 * Trixie, a turned card names the honor (trump) suit; High, Low, Trixie
 * and Game score one point each, first to the target wins.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), general terms and "Hilo"; docs/games/hilo.md states them as played
 * here.
 *
 * Decisions where the sources are silent or leave a choice:
 * - Seats are numbered to the left; play and the deal pass to seat + 1. The
 *   book has each player draw a card, the lowest sum dealing: the first dealer
 *   is a seeded random seat (game_first_dealer; docs/games/README.md, "First
 *   dealer"), and seat 0 when an explicit deck is given, so that deck[0] goes
 *   to seat 1.
 * - Pack order: cards go one at a time from deck[0] to the seat left of
 *   the dealer (the eldest), round by round, the dealer last; the card
 *   after the last round is turned up. "Another deal" deals three more
 *   rounds the same way and turns the next card. A card shuffled back (a
 *   refused turn-up, a turned Trixie) goes to a random place below what is
 *   left of an explicit deck prefix, so a given prefix is dealt exactly;
 *   with no prefix this is the book's shuffle. Cards are drawn by a lazy
 *   Fisher–Yates, so a deal shuffles only what it uses.
 * - Sides: with players=4 and partnerships=true (default) seats 0,2
 *   play 1,3; each point goes to the side of the seat earning it.
 *   partnerships=false plays four individuals; 2 and 3 players always do.
 * - High and Low are the highest and lowest honors dealt, wherever
 *   they are when play starts (cards dealt by "another deal" included;
 *   the turn-up is not dealt); one honor dealt is both. No honor dealt:
 *   neither is scored.
 * - Trixie: it may be played, led or not, only by a player holding
 *   neither the suit led nor an honor (a leader: no honor). Led, there is
 *   no suit to follow: any card may follow, the highest honor wins, else
 *   Trixie. The point "to the player holding it at the end" goes to the
 *   winner of the set holding it; undealt, nobody scores it.
 * - Game: game points (sum 5: 4, 10: 1, 15: 2, 20: 4; 20 in the pack)
 *   taken in sets, per side; the strict maximum scores, a tie nobody.
 * - Another deal (option another_deal, default true): after the turn
 *   the eldest says "stand" or "another deal"; the dealer then says "give
 *   1" (the eldest's side scores 1, play starts) or "deal 3". The turn-up
 *   is shuffled back, three more go to each, a new card is turned; if its
 *   suit is the one refused the dealer chooses again, else play starts.
 *   When the stock cannot give 3 each and a turn-up (or holds only
 *   Trixie) the whole pack is shuffled and dealt afresh as at first, the
 *   eldest asking again; after three such redeals in a deal the
 *   eldest may no longer ask, so a deal always ends.
 * - Trixie turned up (and turned again): 1 to the dealer's side at once,
 *   shuffled back, another card turned.
 * - Going out: the dealer's Trixie turn-ups score when turned; after
 *   the last set High, Low, Trixie, Game are applied in that order and the
 *   first side to reach the target (default 10) wins at once.
 * - Episode: one game to the target. Returns +1 to the winning side and
 *   -1/(sides-1) to each other side; a game not decided in max_deals deals
 *   (default 100) is drawn, all 0.
 * - Action ids: 0..51 play local card c (Trix pack id c + 15, Trixie 51);
 *   52 stand, 53 another deal, 54 give 1, 55 deal 3.
 * - Information: every action is public. A player who does not follow
 *   the suit led and plays no honor shows a void in that suit; Trixie
 *   played shows no honor either. determinize keeps these facts.
 */
#include <string.h>

#include "../../common/err.h"
#include "hilo.h"

/* ==== options ========================================================== */

enum opt { O_PLAYERS, O_PARTNERS, O_BEG, O_TARGET, O_MAX_DEALS, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 2, 2, HILO_MAXP, NULL,
     "number of players (the book: two, three or four)"},
    {"partnerships", PARAM_BOOL, 1, 0, 1, NULL,
     "with players=4, two sides of partners, seats 0,2 v 1,3; "
     "ignored with 2 or 3 players"},
    {"another_deal", PARAM_BOOL, 1, 0, 1, NULL,
     "the eldest may ask for \"another deal\""},
    {"target", PARAM_INT, 10, 1, 50, NULL, "points that win the game"},
    {"max_deals", PARAM_INT, 100, 1, 1000, NULL,
     "deals before an undecided game is drawn"},
};

static const char *const test_specs[] = {
    "hilo(players=4,another_deal=false)",
    "hilo(players=4,partnerships=false,target=3)",
    "hilo(players=3,target=2)",
    NULL,
};

/* Largest hand: six, and three more for every "another deal" the stock
 * can give (it must keep a card to turn). */
static int max_hand(int n)
{
    return HILO_HAND +
           HILO_MORE * ((FT_CARDS - HILO_HAND * n - 1) / (HILO_MORE * n));
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int n = (int)p->v[O_PLAYERS];
    bool part = n == 4 && p->v[O_PARTNERS] != 0;
    trick_dims(d, n, part);
    d->num_actions = HILO_NUM_ACTIONS;
    d->max_legal = max_hand(n);
    d->obs_size = hilo__obs_size(n);
    int more = (max_hand(n) - HILO_HAND) / HILO_MORE;
    /* Each asking round: the request, then at most one dealer choice per
     * extra deal and one that runs out; then every card played. */
    int per_deal = HILO_MAX_REDEALS * (more + 2) + n * max_hand(n);
    d->max_length = (int)p->v[O_MAX_DEALS] * per_deal;
    return 0;
}

/* ==== static helpers: the pack ========================================= */

static int next_seat(const struct hilo_state *st, int s)
{
    return trick_next(s, st->tb.n);
}

/* The next stock card: the given prefix in order, then a uniform pick. */
static int draw(struct hilo_state *st)
{
    int p = st->deck_pos;
    if (p >= st->deck_fixed) {
        int j = p + (int)rng_below(&st->rng, (uint32_t)(FT_CARDS - p));
        uint8_t t = st->deck[j];
        st->deck[j] = st->deck[p];
        st->deck[p] = t;
    }
    st->deck_pos++;
    return st->deck[p];
}

/* Shuffles the last card drawn back into the stock, below any prefix. */
static void put_back(struct hilo_state *st)
{
    int p = st->deck_pos - 1;
    uint8_t c = st->deck[p];
    if (st->deck_fixed > p) {
        memmove(st->deck + p, st->deck + p + 1, st->deck_fixed - 1 - p);
        st->deck[st->deck_fixed - 1] = c;
        st->deck_fixed--;
    }
    st->deck_pos--;
}

/* k rounds of one card each, from the eldest to the dealer. */
static void deal_rounds(struct hilo_state *st, int k)
{
    for (int r = 0; r < k; r++) {
        int s = st->dealer;
        for (int i = 0; i < st->tb.n; i++) {
            s = next_seat(st, s);
            st->tb.hand[s] |= card_bit(draw(st));
        }
    }
}

/* Scores pts to seat s's side; true when that wins the game. */
static bool award(struct hilo_state *st, int s, int pts)
{
    int side = hilo_side(st, s);
    st->score[side] = (uint8_t)(st->score[side] + pts);
    if (st->score[side] < st->target)
        return false;
    st->victor = (uint8_t)side;
    st->phase = HILO_PH_OVER;
    return true;
}

/* Turns a card for honors, scoring and shuffling back every Trixie.
 * Returns false if the stock has no card but Trixie to turn. */
static bool turn_up(struct hilo_state *st)
{
    for (;;) {
        int left = FT_CARDS - st->deck_pos;
        if (left == 0 || (left == 1 && st->deck[st->deck_pos] == FT_TRIXIE))
            return false;
        int c = draw(st);
        if (c != FT_TRIXIE) {
            st->turnup = (uint8_t)c;
            st->tb.honor = (uint8_t)ft_suit(c);
            return true;
        }
        st->trixie_turned++;
        if (award(st, st->dealer, 1)) {
            st->turnup = FT_TRIXIE; /* it lies turned when the game ends */
            return true;
        }
        put_back(st);
    }
}

static void start_play(struct hilo_state *st)
{
    st->phase = HILO_PH_PLAY;
    st->tb.leader = st->tb.turn = (uint8_t)next_seat(st, st->dealer);
    st->tb.ntrick = 0;
}

/* Deals six each from the whole pack and turns up (also a redeal). */
static void deal_fresh(struct hilo_state *st)
{
    memset(st->tb.hand, 0, sizeof st->tb.hand);
    deal_rounds(st, HILO_HAND);
    turn_up(st); /* the stock holds 28 cards or more: never runs out */
    if (st->phase == HILO_PH_OVER)
        return;
    if (st->beg_allowed && st->redeals < HILO_MAX_REDEALS) {
        st->phase = HILO_PH_BEG;
        st->tb.turn = (uint8_t)next_seat(st, st->dealer);
    } else {
        start_play(st);
    }
}

static void start_deal(struct hilo_state *st)
{
    memset(st->tb.played, 0, sizeof st->tb.played);
    memset(st->tb.cant, 0, sizeof st->tb.cant);
    memset(st->gpts, 0, sizeof st->gpts);
    st->tb.table = 0;
    st->tb.ntrick = st->nhist = st->redeals = st->trixie_turned = 0;
    st->begged_suit = 0;
    st->trixie_winner = HILO_NO_SEAT;
    st->deck_pos = 0;
    deal_fresh(st);
}

/* The whole pack shuffled and dealt again as at first. */
static void redeal(struct hilo_state *st)
{
    st->redeals++;
    st->deck_pos = 0;
    st->deck_fixed = 0;
    deal_fresh(st);
}

/* Dealer's "deal 3": turn-up back, three more each, a new turn-up. */
static void deal_more(struct hilo_state *st)
{
    put_back(st);
    if (FT_CARDS - st->deck_pos < HILO_MORE * st->tb.n + 1) {
        redeal(st);
        return;
    }
    deal_rounds(st, HILO_MORE);
    if (!turn_up(st)) {
        redeal(st);
        return;
    }
    if (st->phase == HILO_PH_OVER)
        return;
    if (st->tb.honor == st->begged_suit) {
        st->phase = HILO_PH_DEALER;
        st->tb.turn = st->dealer;
    } else {
        start_play(st);
    }
}

/* ==== static helpers: play and scoring ================================= */

/* Cards seat s may play now (Trixie as docs/games/hilo.md says). */
static hand_t play_mask(const struct hilo_state *st, int s)
{
    hand_t h = st->tb.hand[s], hon = ft_suit_mask(st->tb.honor);
    hand_t no_trixie = h & ~card_bit(FT_TRIXIE);
    if (st->tb.ntrick > 0 && st->tb.lead_suit >= 0) {
        hand_t suit = h & ft_suit_mask(st->tb.lead_suit);
        if (suit)
            return suit | (h & hon);
    }
    return h & hon ? no_trixie : h;
}

/* Side holding the most game points alone, or -1 on a tie. */
static int game_side(const struct hilo_state *st)
{
    int pts[HILO_MAXP] = {0}, best = -1, top = -1;
    for (int s = 0; s < st->tb.n; s++)
        pts[hilo_side(st, s)] += st->gpts[s];
    for (int t = 0; t < st->tb.n; t++) {
        if (pts[t] > top) {
            top = pts[t];
            best = t;
        } else if (pts[t] == top) {
            best = -1;
        }
    }
    return best;
}

static int holder(const struct hilo_state *st, int c)
{
    for (int s = 0; s < st->tb.n; s++)
        if (hand_has(st->tb.played[s], c))
            return s;
    return -1;
}

/* After the last set: High, Low, Trixie, Game in precedence order. */
static void score_deal(struct hilo_state *st)
{
    hand_t dealt = 0;
    for (int s = 0; s < st->tb.n; s++)
        dealt |= st->tb.played[s];
    hand_t hon = dealt & ft_suit_mask(st->tb.honor);
    int seat[HILO_NPOINTS] = {-1, -1, -1, -1};
    if (hon) {
        seat[HILO_P_HIGH] = holder(st, 63 - __builtin_clzll(hon));
        seat[HILO_P_LOW] = holder(st, hand_first(hon));
    }
    if (st->trixie_winner != HILO_NO_SEAT)
        seat[HILO_P_TRIXIE] = st->trixie_winner;
    /* A side's index is also one of its seats (sides are 0,2 and 1,3). */
    seat[HILO_P_GAME] = game_side(st);
    for (int i = 0; i < HILO_NPOINTS; i++)
        st->last[i] =
            seat[i] < 0 ? HILO_NO_SEAT : (uint8_t)hilo_side(st, seat[i]);
    for (int i = 0; i < HILO_NPOINTS; i++)
        if (seat[i] >= 0 && award(st, seat[i], 1))
            return;
    if (++st->deal_no >= st->max_deals) {
        st->phase = HILO_PH_OVER; /* drawn */
        return;
    }
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    start_deal(st);
}

static void end_trick(struct hilo_state *st)
{
    int w = (st->tb.leader + st->tb.best) % st->tb.n;
    for (hand_t t = st->tb.table; t; t &= t - 1)
        st->gpts[w] = (uint8_t)(st->gpts[w] + hilo_game_value(hand_first(t)));
    if (hand_has(st->tb.table, FT_TRIXIE))
        st->trixie_winner = (uint8_t)w;
    st->tb.table = 0;
    st->tb.ntrick = 0;
    st->tb.leader = st->tb.turn = (uint8_t)w;
    if (st->tb.hand[w] == 0)
        score_deal(st);
}

static void play_card(struct hilo_state *st, int c)
{
    if (ft_play(&st->tb, c))
        end_trick(st);
}

/* ==== API ============================================================== */

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct hilo_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->tb.n = (uint8_t)g->dims.players;
    st->partners = g->dims.teams == 2 && st->tb.n == 4;
    st->beg_allowed = game_param(g, "another_deal") != 0;
    st->target = (uint8_t)game_param(g, "target");
    st->max_deals = (uint16_t)game_param(g, "max_deals");
    st->victor = HILO_NO_SEAT;
    memset(st->last, HILO_NO_SEAT, sizeof st->last);
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
    const struct hilo_state *st = vst;
    return st->phase == HILO_PH_OVER ? 0 : 1u << st->tb.turn;
}

/* Deals finished, and the one being played while the game goes on. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct hilo_state *st = vst;
    return st->deal_no + (st->phase != HILO_PH_OVER);
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct hilo_state *st = vst;
    if (st->phase == HILO_PH_OVER || seat != st->tb.turn)
        return 0;
    if (st->phase == HILO_PH_BEG) {
        out[0] = HILO_A_STAND;
        out[1] = HILO_A_BEG;
        return 2;
    }
    if (st->phase == HILO_PH_DEALER) {
        out[0] = HILO_A_GIVE;
        out[1] = HILO_A_DEAL;
        return 2;
    }
    int k = 0;
    for (hand_t h = play_mask(st, seat); h; h &= h - 1)
        out[k++] = HILO_A_PLAY + hand_first(h);
    return k;
}

static int apply(const struct game *g, void *vst, int a)
{
    (void)g;
    struct hilo_state *st = vst;
    if (st->nhist < HILO_HIST) {
        st->hist[st->nhist][0] = st->tb.turn;
        st->hist[st->nhist++][1] = (uint8_t)a;
    }
    switch (a) {
    case HILO_A_STAND:
        start_play(st);
        break;
    case HILO_A_BEG:
        st->begged_suit = st->tb.honor;
        st->phase = HILO_PH_DEALER;
        st->tb.turn = st->dealer;
        break;
    case HILO_A_GIVE:
        if (!award(st, next_seat(st, st->dealer), 1))
            start_play(st);
        break;
    case HILO_A_DEAL:
        deal_more(st);
        break;
    default:
        play_card(st, a - HILO_A_PLAY);
        break;
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    /* The victor is a side index and hilo_side() numbers sides as
     * dims.team does. */
    const struct hilo_state *st = vst;
    game_returns_winner(g, st->victor == HILO_NO_SEAT ? -1 : st->victor, out);
}

/* The estimate op: each side's lead in points over the best other side, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct hilo_state *st = vst;
    double pts[HILO_MAXP];
    for (int t = 0; t < g->dims.teams; t++)
        pts[t] = st->score[t];
    game_estimate_lead(g, pts, st->target, out);
}

/* ==== the descriptor =================================================== */

const struct game_def hilo_game = {
    .name = "hilo",
    .long_name = "Hilo",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Hilo; see docs/games/hilo.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct hilo_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &trix_cards,
    .view_keys = hilo__view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = hilo__observe,
    .obs_layout = hilo__obs_layout,
    .view = hilo__view,
    .action_name = hilo__action_name,
    .determinize = hilo__determinize,
    .describe = hilo__describe,
    .deals = deals,
    .estimate = estimate,
};
