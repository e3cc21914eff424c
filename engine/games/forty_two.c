/* forty_two.c — Forty-two: four players in partnerships with the 28 cards
 * 0-0 .. 6-6 of a Standard Trix pack; bid for the right to name the Honor
 * (trump) suit, then seven sets; count cards and sets make 42 a hand.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "General terms" and "Forty-two"; docs/games/forty_two.md states them
 * as played here. Cards, names ("6-5") and ids come from engine/trix_pack.h:
 * the 28 cards are ids 0..27, so a hand is a 28-bit uint32_t here.
 *
 * Decisions (docs/games/forty_two.md explains the main ones):
 * - Seats 0..3 clockwise, partners opposite: sides {0,2} and {1,3}. The deal
 *   passes left after each hand. For the first the book has each player draw a
 *   card, the lowest sum dealing: the first dealer is a seeded random seat
 *   (game_first_dealer; docs/games/README.md, "First dealer"), and seat 0 when
 *   an explicit deck is given, so that deck[0] goes to seat 1.
 * - Pack order: deck[0] goes to the dealer's left, one card at a time
 *   clockwise, the dealer last, seven each (the book). Later hands are
 *   shuffled from the state RNG.
 * - Bidding: one chance each from the dealer's left, "bid N" with
 *   min_bid <= N <= 42 above the current high, or "pass". If all four
 *   would pass, the dealer may not pass and must bid exactly min_bid
 *   (our reading of the book; since each side scores what it takes and only a
 *   failed bid costs, a low forced bid is never worse for him).
 * - Naming: the high bidder names a suit (Blanks .. Sixes) of which he
 *   holds a card, "name Sixes"; he then leads and the first lead must be of
 *   that suit (the book).
 * - Following: a set's suit is the upper number of the card led (a led
 *   double leads its own suit). A player holding that suit plays it or any
 *   Honor (a card of the named suit or any double); void, any card.
 * - Winning a set: the highest card of the named suit by sum; else the
 *   highest double by sum; else the highest sum of the suit led. Sums within
 *   one suit, and among doubles, are distinct, so there are no ties.
 * - Scoring: each set is 1 point, 3-2 / 4-1 / 5-0 are 5 and 5-5 / 6-4
 *   are 10. A bidding side that takes at least its bid scores what it took;
 *   otherwise it scores -(bid - taken), or -bid with full_bid_penalty
 *   (the book's alternative). The opponents always score what they took.
 *   Scores may go negative.
 * - Game: at the end of a hand, a side with >= target (100) wins; both
 *   → the higher; an exact tie → the bidding side. Cap: after
 *   max_hands hands without a winner the higher score wins; equal → drawn.
 * - Returns: +1 to the winning side, -1 to the other, 0 each while playing
 *   and for a draw (a target-score game).
 * - Action ids: 0..27 "play 6-5" (card id); 28..69 "bid N" (27 + N);
 *   70 "pass"; 71..77 "name Blanks" .. "name Sixes" (71 + suit).
 * - Determinization: the three other hands are redealt from the cards this
 *   seat has not seen, keeping their sizes and the suits each was seen to
 *   lack (a set not followed with neither the suit nor an Honor), and,
 *   before the first lead, the bidder keeps a card of the named suit.
 *   Nothing else is hidden: every played card is public.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../obs_fill.h"
#include "../trick.h"
#include "../trix_pack.h"
#include "../view.h"

#define NP F42_NP
#define NCARDS F42_CARDS
#define TRICKS F42_SETS
#define A_BID 27 /* bid N is A_BID + N */
#define A_PASS 70
#define A_NAME 71
#define NUM_ACTIONS 78
#define STEPS_PER_HAND (NP + 1 + NCARDS)
#define NO_SEAT 0xff
#define OBS_SIZE 208
#define DOUBLES 0x8104225u /* ids 0, 2, 5, 9, 14, 20, 27 */

enum { P_PLAYERS, P_MIN_BID, P_FULL_PENALTY, P_TARGET, P_MAX_HANDS, NPARAMS };
enum { PH_BID, PH_NAME, PH_PLAY, PH_OVER };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 4, 4, NULL, "number of players (always 4)"},
    {"min_bid", PARAM_INT, 1, 1, 42, NULL,
     "lowest bid; the dealer must bid it when all others pass"},
    {"full_bid_penalty", PARAM_BOOL, 0, 0, 1, NULL,
     "a failing bidding side loses its whole bid instead of the shortfall "
     "(the book's alternative)"},
    {"target", PARAM_INT, 100, 1, 1000, NULL, "points to win the game"},
    {"max_hands", PARAM_INT, 60, 1, 1000, NULL,
     "hands before the game ends on the higher score"},
};

static const char *const test_specs[] = {
    "forty_two(min_bid=30,full_bid_penalty=true)",
    "forty_two(target=1,max_hands=1)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",  "dealer", "phase", "bids",   "high_bid",   "bidder",  "honors",
    "trick", "leader", "taken", "scores", "hand_sizes", "history", NULL,
};

struct forty_two_state {
    struct f42_core c; /* hands, sets, scores, history (trick.h) */
    uint8_t phase;     /* PH_BID .. PH_OVER */
    uint8_t high;      /* the highest bid, 0 if none */
    uint8_t bidder;    /* its seat, NO_SEAT if none */
    uint8_t trump;     /* the named Honor suit, NO_SEAT before naming */
    uint8_t nbids;     /* bids and passes made this hand */
    uint8_t bid[NP];   /* 0 not yet, A_PASS passed, else the bid */
};

/* ==== card facts ====================================================== */

static uint32_t honors(int trump)
{
    return f42_suit(trump) | DOUBLES;
}

/* Strength of card c in a set led in suit led: higher wins. */
static int strength(int c, int led, int trump)
{
    int u = trix_upper(c), s = trix_sum(c);
    if (u == trump)
        return 200 + s;
    if (trix_lower(c) == u)
        return 100 + s;
    return u == led ? s : -1;
}

/* ==== deals ============================================================ */

static int deal(struct forty_two_state *st, const uint8_t *pre, int npre)
{
    int rc = f42_deal(&st->c, pre, npre);
    memset(st->bid, 0, sizeof st->bid);
    st->phase = PH_BID;
    st->high = 0;
    st->bidder = NO_SEAT;
    st->trump = NO_SEAT;
    st->nbids = 0;
    return rc;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    (void)g;
    struct forty_two_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->c.rng, seed);
    st->c.winner = NO_SEAT;
    st->c.dealer = (uint8_t)game_first_dealer(seed, NP, deck, ndeck);
    return deal(st, deck, ndeck);
}

/* ==== options ========================================================== */

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    trick_dims(d, NP, true);
    d->num_actions = NUM_ACTIONS;
    d->max_legal = 43; /* bids 1..42 and pass */
    d->obs_size = OBS_SIZE;
    d->max_length = STEPS_PER_HAND * (int)p->v[P_MAX_HANDS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct forty_two_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->c.turn;
}

static int legal_bids(const struct game *g, const struct forty_two_state *st,
                      int *out)
{
    int lo = trick_opt(g, P_MIN_BID), n = 0;
    if (st->nbids == NP - 1 && st->high == 0) {
        out[0] = A_BID + lo; /* the dealer's forced bid */
        return 1;
    }
    if (st->high >= lo)
        lo = st->high + 1;
    for (int b = lo; b <= 42; b++)
        out[n++] = A_BID + b;
    out[n++] = A_PASS;
    return n;
}

/* The cards seat may play now. */
static uint32_t playable(const struct forty_two_state *st)
{
    uint32_t h = st->c.hand[st->c.turn];
    if (st->c.ntrick == 0)
        return st->c.sets == 0 ? h & f42_suit(st->trump) : h;
    uint32_t follow = h & f42_suit(trix_upper(st->c.trick[0]));
    return follow ? follow | (h & honors(st->trump)) : h;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct forty_two_state *st = vst;
    int n = 0;
    if (st->phase == PH_OVER || seat != st->c.turn)
        return 0;
    if (st->phase == PH_BID)
        return legal_bids(g, st, out);
    if (st->phase == PH_NAME) {
        for (int s = 0; s <= 6; s++)
            if (st->c.hand[seat] & f42_suit(s))
                out[n++] = A_NAME + s;
        return n;
    }
    for (uint32_t h = playable(st); h; h &= h - 1)
        out[n++] = __builtin_ctz(h);
    return n;
}

/* Ends the game if a side has won or the cap is reached. */
static void check_game_end(const struct game *g, struct forty_two_state *st,
                           int bidding_side)
{
    int t = trick_opt(g, P_TARGET), a = st->c.score[0], b = st->c.score[1];
    bool over = a >= t || b >= t;
    if (!over && st->c.hands < trick_opt(g, P_MAX_HANDS))
        return;
    st->phase = PH_OVER;
    if (a != b)
        st->c.winner = a > b ? 0 : 1;
    else
        st->c.winner = over ? (uint8_t)bidding_side : 2; /* 2: drawn */
}

static void end_hand(const struct game *g, struct forty_two_state *st)
{
    int bs = f42_side(st->bidder), made = st->c.taken[bs];
    if (made >= st->high)
        st->c.score[bs] += made;
    else if (trick_opt(g, P_FULL_PENALTY))
        st->c.score[bs] -= st->high;
    else
        st->c.score[bs] -= st->high - made;
    st->c.score[!bs] += st->c.taken[!bs];
    st->c.hands++;
    check_game_end(g, st, bs);
    if (st->phase == PH_OVER)
        return;
    st->c.dealer = (uint8_t)((st->c.dealer + 1) % NP);
    deal(st, NULL, 0);
}

static void finish_set(const struct game *g, struct forty_two_state *st)
{
    int led = trix_upper(st->c.trick[0]), best = 0;
    for (int i = 1; i < NP; i++)
        if (strength(st->c.trick[i], led, st->trump) >
            strength(st->c.trick[best], led, st->trump))
            best = i;
    if (f42_close_set(&st->c, best))
        end_hand(g, st);
}

static void play(const struct game *g, struct forty_two_state *st, int c)
{
    int seat = st->c.turn;
    if (st->c.ntrick > 0) {
        int led = trix_upper(st->c.trick[0]);
        uint32_t bit = 1u << c;
        if (!(bit & (f42_suit(led) | honors(st->trump))))
            st->c.lacks[seat] |= f42_suit(led);
    }
    if (f42_place(&st->c, c))
        finish_set(g, st);
}

static void bid(struct forty_two_state *st, int a)
{
    int seat = st->c.turn;
    st->bid[seat] = (uint8_t)(a == A_PASS ? A_PASS : a - A_BID);
    if (a != A_PASS) {
        st->high = (uint8_t)(a - A_BID);
        st->bidder = (uint8_t)seat;
    }
    if (++st->nbids < NP) {
        st->c.turn = (uint8_t)((seat + 1) % NP);
        return;
    }
    st->phase = PH_NAME;
    st->c.turn = st->bidder;
}

static int apply(const struct game *g, void *vst, int a)
{
    struct forty_two_state *st = vst;
    f42_record(&st->c, a);
    if (a < NCARDS) {
        play(g, st, a);
    } else if (a <= A_PASS) {
        bid(st, a);
    } else {
        st->trump = (uint8_t)(a - A_NAME);
        st->phase = PH_PLAY;
        st->c.leader = st->bidder;
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct forty_two_state *st = vst;
    bool decided = st->phase == PH_OVER && st->c.winner != 2;
    game_returns_winner(g, decided ? st->c.winner : -1, out);
}

/* ==== what a seat sees ================================================= */

static int rel(int s, int seat)
{
    return trick_rel(s, seat, NP);
}

static float score_scale(const struct game *g, int score)
{
    float v = 0.5f + (float)score / (4.0f * (float)trick_opt(g, P_TARGET));
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct forty_two_state *st = vst;
    obs_fill_zero(out, OBS_SIZE);
    f42_observe_cards(&st->c, seat, out);
    for (int s = 0; s < NP; s++) {
        int r = rel(s, seat);
        if (st->bid[s] == A_PASS)
            out[169 + 2 * r] = 1;
        else
            out[168 + 2 * r] = st->bid[s] / 42.0f;
        out[204 + r] = (float)__builtin_popcount(st->c.hand[s]) / TRICKS;
    }
    out[176] = st->high / 42.0f;
    if (st->bidder != NO_SEAT)
        out[177 + rel(st->bidder, seat)] = 1;
    if (st->trump != NO_SEAT)
        out[181 + st->trump] = 1;
    out[188 + st->phase] = 1;
    out[192 + rel(st->c.dealer, seat)] = 1;
    if (st->phase != PH_OVER)
        out[196 + rel(st->c.turn, seat)] = 1;
    out[200] = st->c.taken[f42_side(seat)] / 42.0f;
    out[201] = st->c.taken[!f42_side(seat)] / 42.0f;
    out[202] = score_scale(g, st->c.score[f42_side(seat)]);
    out[203] = score_scale(g, st->c.score[!f42_side(seat)]);
}

static const struct obs_segment layout[] = {
    {"hand", 0, 28, "own cards, by card id (0-0=0, 1-0=1, 1-1=2, ...)"},
    {"played", 28, 28, "cards of finished sets this hand"},
    {"trick", 56, 112, "current set: 4 x 28, by who played (self first)"},
    {"bids", 168, 8, "per seat (self first): bid/42, passed"},
    {"high_bid", 176, 1, "highest bid/42"},
    {"bidder", 177, 4, "high bidder, one-hot (self first)"},
    {"honors", 181, 7, "named Honor suit, one-hot Blanks..Sixes"},
    {"phase", 188, 4, "bidding, naming, playing, over"},
    {"dealer", 192, 4, "dealer, one-hot (self first)"},
    {"turn", 196, 4, "seat to act, one-hot (self first)"},
    {"taken", 200, 2, "points taken this hand /42: own side, other"},
    {"scores", 202, 2, "0.5 + score/(4*target), clamped: own side, other"},
    {"hand_sizes", 204, 4, "cards held /7 (self first)"},
};

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    (void)g;
    return obs_layout_copy(out, max, layout,
                           (int)(sizeof layout / sizeof layout[0]));
}

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    char name[32], *p = name;
    if (a < NCARDS)
        p = view_cat8(view_cat(p, "play "), trix_card_text(a));
    else if (a < A_PASS)
        p = view_cat_num(view_cat(p, "bid "), a - A_BID);
    else if (a == A_PASS)
        p = view_cat(p, "pass");
    else
        return text_cat(buf, len, "name ", trix_suit_name(a - A_NAME));
    return text_put(buf, len, name, (size_t)(p - name));
}

static void pack_bids(const struct forty_two_state *st, msgpack_packer *pk)
{
    view_pack_array(pk, NP);
    for (int s = 0; s < NP; s++) {
        if (st->bid[s] == 0)
            view_pack_nil(pk);
        else if (st->bid[s] == A_PASS)
            view_pack_str(pk, "pass");
        else
            view_pack_int(pk, st->bid[s]);
    }
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    static const char *const phases[] = {"bidding", "naming", "playing",
                                         "over"};
    const struct forty_two_state *st = vst;
    view_pack_str(pk, "hand");
    f42_pack_hand(pk, st->c.hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->c.dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    view_pack_str(pk, "bids");
    pack_bids(st, pk);
    view_pack_str(pk, "high_bid");
    view_pack_int(pk, st->high);
    view_pack_str(pk, "bidder");
    view_pack_seat(pk, st->bidder == NO_SEAT ? -1 : st->bidder);
    view_pack_str(pk, "honors");
    if (st->trump == NO_SEAT)
        view_pack_nil(pk);
    else
        view_pack_str(pk, trix_suit_name(st->trump));
    f42_pack_play(g, &st->c, st->phase == PH_PLAY ? st->c.leader : -1, pk);
    return 0;
}

/* ==== determinization ================================================== */

/* Deals pool to the seats in `who` (their sizes in need[]), each card to a
 * seat whose lacks[] allow it, most constrained cards first; false if a
 * card finds no room (the caller retries). */
static bool try_deal(struct forty_two_state *st, uint32_t pool, int seat,
                     const int *need, struct rng *rng)
{
    uint8_t cards[NCARDS];
    int n = 0, left[NP];
    uint32_t out[NP] = {0};
    for (uint32_t h = pool; h; h &= h - 1)
        cards[n++] = (uint8_t)__builtin_ctz(h);
    rng_shuffle_u8(rng, cards, n);
    memcpy(left, need, sizeof left);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            int c = cards[i], opts[NP], k = 0;
            if (c == NO_SEAT)
                continue;
            for (int s = 0; s < NP; s++)
                if (s != seat && left[s] && !(st->c.lacks[s] >> c & 1))
                    opts[k++] = s;
            if (k == 0)
                return false;
            if (k > 1 && pass == 0)
                continue; /* constrained cards go first */
            int s = opts[rng_below(rng, (uint32_t)k)];
            out[s] |= 1u << c;
            left[s]--;
            cards[i] = NO_SEAT;
        }
    }
    for (int s = 0; s < NP; s++)
        if (s != seat)
            st->c.hand[s] = out[s];
    return true;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct forty_two_state *st = vst;
    uint32_t pool = 0;
    int need[NP];
    for (int s = 0; s < NP; s++) {
        need[s] = __builtin_popcount(st->c.hand[s]);
        if (s != seat)
            pool |= st->c.hand[s];
    }
    /* Before the first lead the bidder is known to hold the named suit. */
    bool lead_due = st->phase == PH_PLAY && st->c.sets == 0 &&
                    st->c.ntrick == 0 && st->bidder != seat;
    uint32_t saved[NP];
    memcpy(saved, st->c.hand, sizeof saved);
    for (int tries = 0; tries < 64; tries++) {
        if (try_deal(st, pool, seat, need, rng) &&
            (!lead_due || st->c.hand[st->bidder] & f42_suit(st->trump)))
            break;
        memcpy(st->c.hand, saved, sizeof saved);
    }
    rng_seed(&st->c.rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct forty_two_state *st = vst;
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    f42_describe_scores(&st->c, buf, len, &k);
    if (st->bidder != NO_SEAT)
        text_appendf(buf, len, &k, "High bid %d by seat %d. Honors: %s.\n",
                     st->high, st->bidder,
                     st->trump == NO_SEAT ? "-" : trix_suit_name(st->trump));
    f42_describe_hands(&st->c, seat, buf, len, &k);
    text_appendf(buf, len, &k, "Set");
    f42_describe_set(&st->c, st->phase == PH_OVER, buf, len, &k);
    return (int)k;
}

/* The estimate op: each side's lead in points, as a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct forty_two_state *st = vst;
    double pts[2] = {st->c.score[0], st->c.score[1]};
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* The deals op: hands finished, plus the one in play. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct forty_two_state *st = vst;
    return st->c.hands + (st->phase != PH_OVER);
}

/* ==== the descriptor =================================================== */

const struct game_def forty_two_game = {
    .name = "forty_two",
    .long_name = "Forty-two",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Forty-two; see docs/games/forty_two.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct forty_two_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &f42_cards,
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
    .deals = deals,
    .estimate = estimate,
};
