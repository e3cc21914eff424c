/* call_suit_forty_two.c — Call Suit Forty-two: Forty-two without bidding
 * or Honors; whoever leads a set may "call" the led card's lower number
 * (its card name) as the suit to follow instead of its upper number.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "General terms", "Forty-two" (count, partners, deal, game) and "Call
 * Suit Forty-two"; docs/games/call_suit_forty_two.md states them as played
 * here. Cards, names ("6-2") and ids come from engine/trix_pack.h: the 28
 * cards 0-0 .. 6-6 are ids 0..27, so a hand is a 28-bit uint32_t here.
 *
 * Decisions (docs/games/call_suit_forty_two.md explains the main ones):
 * - Seats 0..3 clockwise, partners opposite: sides {0,2} and {1,3}. The deal
 *   passes left after each hand. For the first the book has each player draw a
 *   card, the lowest sum dealing: the first dealer is a seeded random seat
 *   (game_first_dealer; docs/games/README.md, "First dealer"), and seat 0 when
 *   an explicit deck is given, so that deck[0] goes to seat 1.
 * - Pack order: deck[0] goes to the dealer's left, one card at a time
 *   clockwise, the dealer last, seven each (Forty-two's deal). Later hands
 *   are shuffled from the state RNG.
 * - The dealer's left leads the first set (the book); a set's winner leads the
 *   next (Forty-two).
 * - Calls: every lead may call, not just the first; the option
 *   first_lead_only keeps the literal reading (only the opening lead of a
 *   hand). A lead without a call follows the upper number (the book: "the
 *   suit Six must be played unless he names the 2"). A led double offers
 *   both: "play 3-3" leads the Threes 3-0..3-3, "play 3-3 call 3" the card
 *   name 3: 3-3, 4-3, 5-3, 6-3. Calling 0 is allowed: x-0 cards.
 * - Following: a player holding a card of the declared suit must play
 *   one; void, any card. There are no Honors (the book), so only cards of the
 *   declared suit can win.
 * - Ranking (the book's orders 2-2 > 6-2 > 5-2 > 4-2 > 3-2 and
 *   3-3 > 6-3 > 5-3 > 4-3): the double of the declared suit is highest,
 *   then the others by sum. For a suit-name suit the double is also the
 *   highest sum, so one rule covers both; no two cards tie.
 * - Scoring: as Forty-two without bids: each set is 1 point, 3-2,
 *   4-1, 5-0 count 5 and 5-5, 6-4 count 10; each side scores all it takes,
 *   42 a hand. Game at target (100).
 * - Game end: at the end of a hand a side at or past target with more
 *   points than the other wins. Both past target and exactly level (the
 *   book is silent; Forty-two's bidding-side tie-break has no bidder here)
 *   → another hand is played. Cap: after max_hands hands the higher
 *   score wins; level → drawn.
 * - Returns: +1 to the winning side, -1 to the other, 0 each while playing
 *   and for a draw (a target-score game).
 * - Action ids: 0..27 "play 6-2" (card id: follow, or lead the upper
 *   number); 28..55 "play 6-2 call 2" (28 + card id: lead calling the
 *   lower number). Every action keeps its meaning in every state.
 * - Determinization: the three other hands are redealt from the cards this
 *   seat has not seen, keeping their sizes and never giving a seat a card
 *   of a suit it was seen not to follow (a suit is a set of cards here:
 *   upper-number or lower-number). Every played card and call is public.
 *   Should 64 random attempts all dead-end, the hands are left as they
 *   are (they are consistent with what the seat saw).
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
#define SETS F42_SETS
#define A_CALL 28 /* "play c call n" is A_CALL + c */
#define NUM_ACTIONS 56
#define STEPS_PER_HAND NCARDS
#define NO_SEAT 0xff
#define NO_SUIT 0xff
#define OBS_SIZE 198
#define DRAWN 2

enum { P_PLAYERS, P_TARGET, P_MAX_HANDS, P_FIRST_LEAD_ONLY, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 4, 4, NULL, "number of players (always 4)"},
    {"target", PARAM_INT, 100, 1, 1000, NULL,
     "points to win the game (Forty-two's 100)"},
    {"max_hands", PARAM_INT, 60, 1, 1000, NULL,
     "hands before the game ends on the higher score"},
    {"first_lead_only", PARAM_BOOL, 0, 0, 1, NULL,
     "only the opening lead of a hand may call a suit (the book's literal "
     "reading; default: every lead may)"},
};

static const char *const test_specs[] = {
    "call_suit_forty_two(first_lead_only=true,target=1,max_hands=1)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",  "dealer", "suit",       "trick",   "leader",
    "taken", "scores", "hand_sizes", "history", NULL,
};

struct call_suit_forty_two_state {
    struct f42_core c; /* hands, sets, scores, history (trick.h) */
    uint32_t suit;     /* the cards of the current set's declared suit */
    uint8_t over;      /* 1 once the game has ended */
    uint8_t number;    /* declared suit's number, NO_SUIT before a lead */
    uint8_t called;    /* 1 when the leader called the lower number */
};

/* ==== card facts ====================================================== */

/* Cards whose lower number is n: n-n, (n+1)-n, ..., 6-n. */
static uint32_t lower_bits(int n)
{
    uint32_t h = 0;
    for (int u = n; u <= 6; u++)
        h |= 1u << (u * (u + 1) / 2 + n);
    return h;
}

/* Rank of card c in a set whose declared suit is `suit`: the suit's double
 * above all, then by sum; -1 outside the suit. */
static int rank(int c, uint32_t suit)
{
    if (!(suit >> c & 1))
        return -1;
    return trix_is_double(c) ? 100 : trix_sum(c);
}

/* ==== deals ============================================================ */

static void new_set(struct call_suit_forty_two_state *st)
{
    st->c.ntrick = 0;
    st->suit = 0;
    st->number = NO_SUIT;
    st->called = 0;
}

static int deal(struct call_suit_forty_two_state *st, const uint8_t *pre,
                int npre)
{
    int rc = f42_deal(&st->c, pre, npre);
    st->c.leader = st->c.turn; /* the dealer's left leads (the book) */
    new_set(st);
    return rc;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    (void)g;
    struct call_suit_forty_two_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->c.rng, seed);
    st->c.winner = NO_SEAT;
    st->c.dealer = (uint8_t)game_first_dealer(seed, NP, deck, ndeck);
    return deal(st, deck, ndeck);
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    trick_dims(d, NP, true);
    d->num_actions = NUM_ACTIONS;
    d->max_legal = 2 * SETS; /* a leader's 7 cards, each with a call */
    d->obs_size = OBS_SIZE;
    d->max_length = STEPS_PER_HAND * (int)p->v[P_MAX_HANDS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct call_suit_forty_two_state *st = vst;
    return st->over ? 0 : 1u << st->c.turn;
}

static bool may_call(const struct game *g,
                     const struct call_suit_forty_two_state *st)
{
    return !trick_opt(g, P_FIRST_LEAD_ONLY) || st->c.sets == 0;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct call_suit_forty_two_state *st = vst;
    uint32_t h = st->c.hand[seat];
    int n = 0;
    if (st->over || seat != st->c.turn)
        return 0;
    if (st->c.ntrick > 0 && (h & st->suit))
        h &= st->suit; /* must follow the declared suit */
    for (uint32_t r = h; r; r &= r - 1)
        out[n++] = __builtin_ctz(r);
    if (st->c.ntrick == 0 && may_call(g, st))
        for (uint32_t r = h; r; r &= r - 1)
            out[n++] = A_CALL + __builtin_ctz(r);
    return n;
}

/* Ends the game when a side has won or the cap is reached. */
static void check_game_end(const struct game *g,
                           struct call_suit_forty_two_state *st)
{
    int t = trick_opt(g, P_TARGET), a = st->c.score[0], b = st->c.score[1];
    bool capped = st->c.hands >= trick_opt(g, P_MAX_HANDS);
    if (!capped && (a == b || (a < t && b < t)))
        return; /* no one past target, or level: play another hand */
    st->over = 1;
    st->c.winner = a == b ? DRAWN : a > b ? 0 : 1;
}

static void end_hand(const struct game *g, struct call_suit_forty_two_state *st)
{
    st->c.score[0] += st->c.taken[0];
    st->c.score[1] += st->c.taken[1];
    st->c.hands++;
    check_game_end(g, st);
    if (st->over)
        return;
    st->c.dealer = (uint8_t)((st->c.dealer + 1) % NP);
    deal(st, NULL, 0);
}

static void finish_set(const struct game *g,
                       struct call_suit_forty_two_state *st)
{
    int best = 0;
    for (int i = 1; i < NP; i++)
        if (rank(st->c.trick[i], st->suit) > rank(st->c.trick[best], st->suit))
            best = i;
    bool hand_over = f42_close_set(&st->c, best);
    new_set(st);
    if (hand_over)
        end_hand(g, st);
}

static void declare(struct call_suit_forty_two_state *st, int c, bool call)
{
    st->called = call;
    st->number = (uint8_t)(call ? trix_lower(c) : trix_upper(c));
    st->suit = call ? lower_bits(st->number) : f42_suit(st->number);
}

static int apply(const struct game *g, void *vst, int a)
{
    struct call_suit_forty_two_state *st = vst;
    int seat = st->c.turn, c = a % A_CALL;
    f42_record(&st->c, a);
    if (st->c.ntrick == 0)
        declare(st, c, a >= A_CALL);
    else if (!(st->suit >> c & 1))
        st->c.lacks[seat] |= st->suit; /* void in the declared suit */
    if (f42_place(&st->c, c))
        finish_set(g, st);
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct call_suit_forty_two_state *st = vst;
    bool decided = st->over && st->c.winner != DRAWN;
    game_returns_winner(g, decided ? st->c.winner : -1, out);
}

/* ==== what a seat sees ================================================= */

static int rel(int s, int seat)
{
    return trick_rel(s, seat, NP);
}

static float score_scale(const struct game *g, int score)
{
    float v = (float)score / (float)(trick_opt(g, P_TARGET) + 42);
    return v > 1 ? 1 : v;
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct call_suit_forty_two_state *st = vst;
    obs_fill_zero(out, OBS_SIZE);
    f42_observe_cards(&st->c, seat, out);
    if (st->number != NO_SUIT)
        out[(st->called ? 175 : 168) + st->number] = 1;
    out[182 + rel(st->c.dealer, seat)] = 1;
    if (!st->over)
        out[186 + rel(st->c.turn, seat)] = 1;
    out[190] = st->c.taken[f42_side(seat)] / 42.0f;
    out[191] = st->c.taken[!f42_side(seat)] / 42.0f;
    out[192] = score_scale(g, st->c.score[f42_side(seat)]);
    out[193] = score_scale(g, st->c.score[!f42_side(seat)]);
    for (int s = 0; s < NP; s++)
        out[194 + rel(s, seat)] =
            (float)__builtin_popcount(st->c.hand[s]) / SETS;
}

static const struct obs_segment layout[] = {
    {"hand", 0, 28, "own cards, by card id (0-0=0, 1-0=1, 1-1=2, ...)"},
    {"played", 28, 28, "cards of finished sets this hand"},
    {"trick", 56, 112, "current set: 4 x 28, by who played (self first)"},
    {"suit", 168, 7, "set led without a call: its suit name 0..6, one-hot"},
    {"call", 175, 7, "set led with a call: the called card name 0..6"},
    {"dealer", 182, 4, "dealer, one-hot (self first)"},
    {"turn", 186, 4, "seat to act, one-hot (self first)"},
    {"taken", 190, 2, "points taken this hand /42: own side, other"},
    {"scores", 192, 2, "score/(target+42), capped at 1: own side, other"},
    {"hand_sizes", 194, 4, "cards held /7 (self first)"},
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
    int c = a % A_CALL;
    const char *card = trix_card_text(c);
    if (a < A_CALL)
        return text_cat(buf, len, "play ", card);
    char name[32];
    char *p = view_cat_num(view_cat(view_cat8(view_cat(name, "play "), card),
                                    " call "),
                           trix_lower(c));
    return text_put(buf, len, name, (size_t)(p - name));
}

static void pack_suit(const struct call_suit_forty_two_state *st,
                      msgpack_packer *pk)
{
    char text[32];
    view_pack_str(pk, "suit");
    if (st->number == NO_SUIT) {
        view_pack_nil(pk);
        return;
    }
    if (st->called)
        text_fmt(text, sizeof text, "call %d", st->number);
    else
        text_fmt(text, sizeof text, "%s", trix_suit_name(st->number));
    view_pack_str(pk, text);
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct call_suit_forty_two_state *st = vst;
    view_pack_str(pk, "hand");
    f42_pack_hand(pk, st->c.hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->c.dealer);
    pack_suit(st, pk);
    f42_pack_play(g, &st->c, st->over ? -1 : st->c.leader, pk);
    return 0;
}

/* ==== determinization ================================================== */

/* Seats other than `seat` that may still take card c. */
static int takers(const struct call_suit_forty_two_state *st, int seat,
                  const int *room, int c, int *who)
{
    int k = 0;
    for (int s = 0; s < NP; s++)
        if (s != seat && room[s] > 0 && !(st->c.lacks[s] >> c & 1))
            who[k++] = s;
    return k;
}

/* One attempt: the unseen cards in random order, those with fewest
 * possible holders first, each to a random seat with room that may hold
 * it. Fills out[]; false when some card has nowhere to go. */
static bool redeal(const struct call_suit_forty_two_state *st, int seat,
                   uint32_t pool, uint32_t *out, struct rng *rng)
{
    uint8_t cards[NCARDS];
    int n = 0, room[NP], who[NP];
    for (int s = 0; s < NP; s++)
        room[s] = __builtin_popcount(st->c.hand[s]);
    for (uint32_t h = pool; h; h &= h - 1)
        cards[n++] = (uint8_t)__builtin_ctz(h);
    rng_shuffle_u8(rng, cards, n);
    for (int limit = 1; limit <= NP - 1; limit++) {
        for (int i = 0; i < n; i++) {
            if (cards[i] == NO_SEAT ||
                takers(st, seat, room, cards[i], who) > limit)
                continue;
            int k = takers(st, seat, room, cards[i], who);
            if (k == 0)
                return false;
            int s = who[rng_below(rng, (uint32_t)k)];
            out[s] |= 1u << cards[i];
            room[s]--;
            cards[i] = NO_SEAT;
        }
    }
    return true;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct call_suit_forty_two_state *st = vst;
    uint32_t pool = 0;
    for (int s = 0; s < NP; s++)
        if (s != seat)
            pool |= st->c.hand[s];
    for (int tries = 0; tries < 64; tries++) {
        uint32_t out[NP] = {0};
        if (!redeal(st, seat, pool, out, rng))
            continue;
        for (int s = 0; s < NP; s++)
            if (s != seat)
                st->c.hand[s] = out[s];
        break;
    }
    rng_seed(&st->c.rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct call_suit_forty_two_state *st = vst;
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    f42_describe_scores(&st->c, buf, len, &k);
    f42_describe_hands(&st->c, seat, buf, len, &k);
    text_appendf(buf, len, &k, "Set");
    if (st->number != NO_SUIT)
        text_appendf(buf, len, &k, " (%s %d)", st->called ? "call" : "suit",
                     st->number);
    f42_describe_set(&st->c, st->over, buf, len, &k);
    return (int)k;
}

/* The estimate op: each side's lead in points, as a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct call_suit_forty_two_state *st = vst;
    double pts[2] = {st->c.score[0], st->c.score[1]};
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* The deals op: hands finished, plus the one in play. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct call_suit_forty_two_state *st = vst;
    return st->c.hands + !st->over;
}

/* ==== the descriptor =================================================== */

const struct game_def call_suit_forty_two_game = {
    .name = "call_suit_forty_two",
    .long_name = "Call Suit Forty-two",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Call Suit Forty-two; see "
              "docs/games/call_suit_forty_two.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct call_suit_forty_two_state),
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
