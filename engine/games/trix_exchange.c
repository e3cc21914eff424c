/* trix_exchange.c — Trix Exchange: three to eight players trade blind,
 * one to three cards of one commodity at a time, to corner a commodity
 * (hold all eight of it); two corners end a deal with a settlement on the
 * cards left in hand; game 75.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "Trix Exchange"; docs/games/trix_exchange.md states them as played
 * here.
 *
 * Decisions (docs/games/trix_exchange.md explains the main ones):
 * - Commodities Gold, Zinc, Iron, Salt, Lime, Coal, Lead, Mica, Alum
 *   are the pack-order blocks of eight (ids 0..7 Gold, 8..15 Zinc, ...);
 *   n players use the first n + 1 commodities, 8(n + 1) cards. Cards of a
 *   commodity are interchangeable, so hands are counts per commodity.
 * - The deal passes left after each deal. For the first the book has each
 *   player draw a card, the lowest sum dealing: the first dealer is a seeded
 *   random seat (game_first_dealer; docs/games/README.md, "First dealer"), and
 *   seat 0 when an explicit deck is given, so that deck[0] goes to seat 1.
 *   deck[0] goes to the dealer's left, one card at a time clockwise, all dealt
 *   (uneven for 3, 5, 6, 7 players). Later deals are shuffled from the state
 *   RNG.
 * - Simultaneous trading rounds. Every seat submits "pass" or
 *   "offer j Gold" (j = 1..3, needs j of Gold). Offers of equal j are
 *   paired at random (an odd one stays unpaired); paired seats swap their
 *   offered cards blind. Option change_number (the book: "may change the
 *   number called"): the unpaired leftovers are then paired at random too,
 *   each pair swapping the smaller number (the larger caller gives only
 *   that many).
 * - Corners are checked after every round; Several are resolved in
 *   seat order from the dealer's left (and commodity order for one seat).
 *   A cornered commodity is set aside (out of play) and scores 15 (Gold,
 *   Zinc, Coal), 10 (Iron, Lead, Mica) or 5 (Salt, Lime, Alum).
 * - After the first corner, every other seat holding more than eight
 *   cards gives the excess to the cornerer, choosing which (hidden):
 *   simultaneous giving rounds, one card ("give Gold") per such seat per
 *   round, until nobody else holds more than eight. Corners are checked
 *   again after giving. A second corner found in the same check as the
 *   first settles at once, before any giving.
 * - The second corner ends the deal with the settlement on every hand: -2 per
 *   card of Gold, Zinc, Coal; +1 per Iron, Lead, Mica; +2 per Salt, Lime,
 *   Alum. Scores never go below 0. A seat whose settlement is negative and
 *   leaves it at 0 is bankrupt: the second cornerer scores 5 per bankrupt.
 *   Option bankrupt_needs_points (an option of the book): only a seat that had
 *   at least one point can go bankrupt.
 * - A deal with no second corner within max_rounds trading rounds
 *   ends void: no settlement; corner points already scored stay.
 * - Sides (option sides, 4/6/8 players): two sides of alternate seats
 *   scoring together; partners may trade with each other.
 * - Game: checked after each deal; the highest player or side at or past
 *   target wins; a tie → another deal; after max_deals the highest wins,
 *   a tie is a draw. Returns +1 to the winner(s), -1/(k-1) to each of the
 *   k-1 other players or sides, 0 while playing and for a draw.
 * - Public: who swapped with whom and how many, the number each seat
 *   called, who gave cards to the cornerer, hand sizes, corners, scores.
 *   The commodities offered or given are private.
 * - Action ids: 0 "pass"; 1 + 3k + (j - 1) "offer j <commodity k>";
 *   28 + k "give <commodity k>".
 * - What a seat knows of other hands (kept per seat in the state): the
 *   cards it handed a partner in a swap, or the cornerer when giving, are
 *   in that hand until that hand trades or gives again. Such a later trade
 *   of j cards is public but its commodity is not, so every count the
 *   seat knows in that hand drops by j (floored at 0; the swap partner,
 *   who saw the commodity, drops only that one). A corner clears its
 *   commodity; a new deal clears everything.
 * - Determinization: the other hands keep the cards the seat knows are
 *   there; the rest of their cards are pooled and redealt keeping hand
 *   sizes. The other seats' knowledge, hidden from the seat and no longer
 *   true of the new hands, is cleared.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../trick.h"
#include "../trix_pack.h"
#include "../view.h"

#define MAXP 8
#define NCOM 9
#define CORNER 8
#define GIVE 28
#define NACTIONS (GIVE + NCOM)
#define HIST 48
#define NO_SEAT 0xff

enum {
    P_PLAYERS,
    P_SIDES,
    P_TARGET,
    P_CHANGE,
    P_BANKRUPT,
    P_MAX_ROUNDS,
    P_MAX_DEALS,
    NPARAMS
};

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 3, MAXP, NULL, "number of players"},
    {"sides", PARAM_BOOL, 0, 0, 1, NULL,
     "two sides of alternate seats (4, 6 or 8 players) scoring together"},
    {"target", PARAM_INT, 75, 1, 1000, NULL,
     "points to win the game (the book: 75 or more)"},
    {"change_number", PARAM_BOOL, 0, 0, 1, NULL,
     "unpaired callers are paired too, trading the smaller number"},
    {"bankrupt_needs_points", PARAM_BOOL, 0, 0, 1, NULL,
     "only a player with 1 or more points can go bankrupt"},
    {"max_rounds", PARAM_INT, 100, 1, 10000, NULL,
     "trading rounds before a deal without two corners ends void"},
    {"max_deals", PARAM_INT, 30, 1, 500, NULL,
     "deals before the game ends on the highest score"},
};

static const char *const test_specs[] = {
    "trix_exchange(players=4,sides=true)",
    "trix_exchange(players=6,sides=true,change_number=true)",
    "trix_exchange(players=8,sides=true,target=20)",
    "trix_exchange(players=3,change_number=true,bankrupt_needs_points=true)",
    "trix_exchange(players=5,target=1,max_deals=2,max_rounds=5)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",        "dealer",   "phase",       "round",   "hand_sizes", "scores",
    "team_scores", "cornered", "last_trades", "history", NULL,
};

static const char *const com_name[NCOM] = {
    "Gold", "Zinc", "Iron", "Salt", "Lime", "Coal", "Lead", "Mica", "Alum"};
static const int corner_value[NCOM] = {15, 15, 10, 5, 5, 15, 10, 10, 5};
static const int settle_value[NCOM] = {-2, -2, 1, 2, 2, -2, 1, 1, 2};

enum { EV_TRADE, EV_CORNER, EV_GIVE, EV_BANKRUPT };

struct event {
    uint8_t kind, seat, other, num; /* other: partner / commodity */
};

struct tx_state {
    struct rng rng;
    int32_t score[MAXP];
    uint8_t cnt[MAXP][NCOM];
    uint8_t dealer, giving, ncorners, cornerer, over, winner, deals, pad;
    uint16_t cornered, rounds; /* cornered: bit per commodity */
    uint8_t called[MAXP];      /* last round: number called, 0 pass */
    uint8_t partner[MAXP];     /* last round: swap partner or NO_SEAT */
    uint8_t swapped[MAXP];     /* last round: cards swapped */
    int32_t nhist;
    struct event hist[HIST]; /* ring: event i at hist[i % HIST] */
    uint8_t deck[TRIX_CARDS];
    uint8_t known[MAXP][MAXP][NCOM]; /* [o][h][c]: c seat o knows h holds */
};

/* ==== helpers ========================================================== */

static int opt(const struct game *g, int p)
{
    return (int)g->params.v[p];
}

static int np(const struct game *g)
{
    return g->dims.players;
}

static int held(const struct tx_state *st, int s)
{
    /* The first eight counts summed as bytes of one word (the total, at
     * most 72, never carries out of the top byte), then the ninth. */
    uint64_t w;
    memcpy(&w, st->cnt[s], sizeof w);
    return (int)((w * 0x0101010101010101ull) >> 56) + st->cnt[s][NCOM - 1];
}

static void log_event(struct tx_state *st, int kind, int seat, int other,
                      int num)
{
    struct event e = {(uint8_t)kind, (uint8_t)seat, (uint8_t)other,
                      (uint8_t)num};
    st->hist[st->nhist % HIST] = e;
    st->nhist++;
}

/* ==== deals ============================================================ */

static int deal(const struct game *g, struct tx_state *st, const uint8_t *pre,
                int npre)
{
    int n = np(g), ncards = CORNER * (n + 1);
    int rc = trix_deck_build(st->deck, trix_hand_range(0, ncards - 1), pre,
                             npre, &st->rng);
    if (rc < 0)
        return rc;
    memset(st->cnt, 0, sizeof st->cnt);
    for (int i = 0; i < ncards; i++)
        st->cnt[(st->dealer + 1 + i) % n][st->deck[i] / CORNER]++;
    st->giving = st->ncorners = 0;
    st->cornerer = NO_SEAT;
    st->cornered = st->rounds = 0;
    memset(st->called, 0, sizeof st->called);
    memset(st->partner, NO_SEAT, sizeof st->partner);
    memset(st->swapped, 0, sizeof st->swapped);
    memset(st->known, 0, sizeof st->known);
    st->nhist = 0;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct tx_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->winner = NO_SEAT;
    st->dealer = (uint8_t)game_first_dealer(seed, np(g), deck, ndeck);
    return deal(g, st, deck, ndeck);
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[P_PLAYERS];
    bool sides = p->v[P_SIDES] != 0;
    if (sides && n != 4 && n != 6 && n != 8) {
        snprintf(err, errlen, "sides needs players = 4, 6 or 8 (got %d)", n);
        return ERR_INVAL;
    }
    d->players = n;
    d->teams = sides ? 2 : n;
    for (int s = 0; s < n; s++)
        d->team[s] = (int8_t)(sides ? s % 2 : s);
    d->num_actions = NACTIONS;
    d->max_legal = GIVE;
    d->obs_size = 2 * NCOM + 2 + 6 * n + n * n;
    d->obs_low = 0;
    d->obs_high = 1;
    /* per deal: the trading rounds, plus at most one giving round per card
     * given to the first cornerer */
    d->max_length =
        (int)p->v[P_MAX_DEALS] * ((int)p->v[P_MAX_ROUNDS] + TRIX_CARDS);
    d->ret_low = -1;
    d->ret_high = 1;
    return 0;
}

/* ==== what each seat knows of the other hands ========================= */

static void lower(uint8_t *k, int j)
{
    *k = *k > j ? (uint8_t)(*k - j) : 0;
}

/* Hand h has just handed over j cards of commodity c: what the others
 * knew h holds drops by j, for c only in the eyes of seer, who took them
 * and saw c; the others saw only j and cannot tell which count fell. */
static void handed(const struct game *g, struct tx_state *st, int h, int c,
                   int j, int seer)
{
    for (int o = 0; o < np(g); o++)
        for (int k = 0; k < NCOM; k++)
            if (o == seer ? k == c : o != h)
                lower(&st->known[o][h][k], j);
}

/* Seat o has just put j cards of c in hand h. */
static void learn(struct tx_state *st, int o, int h, int c, int j)
{
    st->known[o][h][c] = (uint8_t)(st->known[o][h][c] + j);
}

/* ==== rules ============================================================ */

/* Seats other than the first cornerer holding more than eight cards. */
static uint32_t excess(const struct game *g, const struct tx_state *st)
{
    uint32_t m = 0;
    for (int s = 0; s < np(g); s++)
        if (s != st->cornerer && held(st, s) > CORNER)
            m |= 1u << s;
    return m;
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    const struct tx_state *st = vst;
    if (st->over)
        return 0;
    return st->giving ? excess(g, st) : (1u << np(g)) - 1;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct tx_state *st = vst;
    int n = 0;
    if (!((to_move(g, st) >> seat) & 1))
        return 0;
    if (st->giving) {
        for (int c = 0; c < NCOM; c++)
            if (st->cnt[seat][c])
                out[n++] = GIVE + c;
        return n;
    }
    out[n++] = 0;
    for (int c = 0; c < NCOM; c++)
        for (int j = 1; j <= 3 && j <= st->cnt[seat][c]; j++)
            out[n++] = 1 + 3 * c + j - 1;
    return n;
}

/* Ends the game if a player or side has won or the cap is hit. */
static void check_game_end(const struct game *g, struct tx_state *st)
{
    int side[MAXP], w;
    for (int t = 0; t < g->dims.teams; t++)
        side[t] = trick_side_score(g, st->score, t);
    if (!trick_game_over(side, g->dims.teams, opt(g, P_TARGET),
                         st->deals >= opt(g, P_MAX_DEALS), &w))
        return;
    st->over = 1;
    st->winner = w < 0 ? NO_SEAT : (uint8_t)w;
}

static void end_deal(const struct game *g, struct tx_state *st)
{
    st->deals++;
    check_game_end(g, st);
    if (st->over)
        return;
    st->dealer = (uint8_t)((st->dealer + 1) % np(g));
    deal(g, st, NULL, 0);
}

/* The settlement forced by the second cornerer s2. */
static void settle(const struct game *g, struct tx_state *st, int s2)
{
    bool needs = opt(g, P_BANKRUPT) != 0;
    int broken = 0; /* credited after all hands, so order does not matter */
    for (int t = 0; t < np(g); t++) {
        int v = 0, before = st->score[t];
        for (int c = 0; c < NCOM; c++)
            v += st->cnt[t][c] * settle_value[c];
        st->score[t] = before + v > 0 ? before + v : 0;
        bool broke = v < 0 && before + v <= 0 && (!needs || before >= 1);
        if (broke && t != s2) {
            broken++;
            log_event(st, EV_BANKRUPT, t, s2, 5);
        }
    }
    st->score[s2] += 5 * broken;
}

/* Seat s corners commodity c. Returns true when the deal is over. */
static bool corner(const struct game *g, struct tx_state *st, int s, int c)
{
    st->score[s] += corner_value[c];
    st->cnt[s][c] = 0; /* set aside */
    st->cornered |= (uint16_t)(1u << c);
    for (int o = 0; o < MAXP; o++)
        for (int h = 0; h < MAXP; h++)
            st->known[o][h][c] = 0;
    log_event(st, EV_CORNER, s, c, corner_value[c]);
    if (++st->ncorners == 1) {
        st->cornerer = (uint8_t)s;
        return false;
    }
    settle(g, st, s);
    end_deal(g, st);
    return true;
}

/* Corners in seat order from the dealer's left; then, after a first
 * corner, the giving phase if someone holds too many. */
static void check_corners(const struct game *g, struct tx_state *st)
{
    int n = np(g), dealer = st->dealer;
    for (int i = 0; i < n; i++) {
        int s = (dealer + 1 + i) % n;
        for (int c = 0; c < NCOM; c++)
            if (st->cnt[s][c] == CORNER && corner(g, st, s, c))
                return;
    }
    st->giving = st->ncorners == 1 && excess(g, st) != 0;
}

/* A deal still short of its second corner after max_rounds trading
 * rounds (and any giving they led to) ends void. */
static void check_cap(const struct game *g, struct tx_state *st)
{
    if (!st->over && st->ncorners < 2 && !st->giving &&
        st->rounds >= opt(g, P_MAX_ROUNDS))
        end_deal(g, st);
}

/* a and b swap: a gives j of ca, b gives j of cb. */
static void swap(const struct game *g, struct tx_state *st, int a, int ca,
                 int b, int cb, int j)
{
    handed(g, st, a, ca, j, b);
    handed(g, st, b, cb, j, a);
    learn(st, a, b, ca, j);
    learn(st, b, a, cb, j);
    st->cnt[a][ca] -= (uint8_t)j;
    st->cnt[b][cb] -= (uint8_t)j;
    st->cnt[a][cb] += (uint8_t)j;
    st->cnt[b][ca] += (uint8_t)j;
    st->partner[a] = (uint8_t)b;
    st->partner[b] = (uint8_t)a;
    st->swapped[a] = st->swapped[b] = (uint8_t)j;
    log_event(st, EV_TRADE, a, b, j);
}

/* Pairs the seats of list[0..k) in order; returns the unpaired one or -1. */
static int pair_up(const struct game *g, struct tx_state *st,
                   const uint8_t *list, int k, const int *actions)
{
    for (int i = 0; i + 1 < k; i += 2) {
        int a = list[i], b = list[i + 1];
        int ja = (actions[a] - 1) % 3 + 1, jb = (actions[b] - 1) % 3 + 1;
        swap(g, st, a, (actions[a] - 1) / 3, b, (actions[b] - 1) / 3,
             ja < jb ? ja : jb);
    }
    return k % 2 ? list[k - 1] : -1;
}

static void trade_round(const struct game *g, struct tx_state *st,
                        const int *actions)
{
    uint8_t by[3][MAXP], left[3];
    int nby[3] = {0, 0, 0}, nleft = 0;
    for (int s = 0; s < np(g); s++) {
        int j = actions[s] ? (actions[s] - 1) % 3 + 1 : 0;
        st->called[s] = (uint8_t)j;
        st->partner[s] = NO_SEAT;
        st->swapped[s] = 0;
        if (j)
            by[j - 1][nby[j - 1]++] = (uint8_t)s;
    }
    for (int j = 0; j < 3; j++) {
        rng_shuffle_u8(&st->rng, by[j], nby[j]);
        int rest = pair_up(g, st, by[j], nby[j], actions);
        if (rest >= 0)
            left[nleft++] = (uint8_t)rest;
    }
    if (opt(g, P_CHANGE)) {
        rng_shuffle_u8(&st->rng, left, nleft);
        pair_up(g, st, left, nleft, actions);
    }
    st->rounds++;
    check_corners(g, st);
    check_cap(g, st);
}

static void give_round(const struct game *g, struct tx_state *st,
                       const int *actions, uint32_t acting)
{
    for (int s = 0; s < np(g); s++) {
        if (!((acting >> s) & 1))
            continue;
        int c = actions[s] - GIVE;
        handed(g, st, s, c, 1, st->cornerer);
        learn(st, s, st->cornerer, c, 1);
        st->cnt[s][c]--;
        st->cnt[st->cornerer][c]++;
        log_event(st, EV_GIVE, s, st->cornerer, 1);
    }
    if (excess(g, st))
        return;
    st->giving = 0;
    check_corners(g, st); /* the cornerer may now hold eight of one */
    check_cap(g, st);
}

static int apply_joint(const struct game *g, void *vst, const int *actions)
{
    struct tx_state *st = vst;
    uint32_t acting = to_move(g, st);
    if (st->giving)
        give_round(g, st, actions, acting);
    else
        trade_round(g, st, actions);
    return 0;
}

/* One acting seat (a giving round with a single giver). */
static int apply(const struct game *g, void *vst, int a)
{
    int actions[MAXP];
    uint32_t m = to_move(g, vst);
    for (int s = 0; s < MAXP; s++)
        actions[s] = ((m >> s) & 1) ? a : 0;
    return apply_joint(g, vst, actions);
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct tx_state *st = vst;
    bool decided = st->over && st->winner != NO_SEAT;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== what a seat sees ================================================= */

static int rel(const struct game *g, int s, int seat)
{
    return s < seat ? s - seat + np(g) : s - seat;
}

static float unit(float v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Seats to act, as to_move, from their card counts. */
static uint32_t acting_of(const struct game *g, const struct tx_state *st,
                          const int *size)
{
    uint32_t m = 0;
    if (st->over)
        return 0;
    if (!st->giving)
        return (1u << np(g)) - 1;
    for (int s = 0; s < np(g); s++)
        m |= (uint32_t)(s != st->cornerer && size[s] > CORNER) << s;
    return m;
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    /* k / 3 for the numbers called and the cards swapped (0..3), folded
     * at compile time to the floats the division gives. */
    static const float third[4] = {0 / 3.0f, 1 / 3.0f, 2 / 3.0f, 3 / 3.0f};
    const struct tx_state *st = vst;
    int n = np(g), o = 2 * NCOM + 2, size[MAXP];
    float target = (float)opt(g, P_TARGET);
    for (int s = 0; s < n; s++)
        size[s] = held(st, s);
    uint32_t acting = acting_of(g, st, size);
    memset(out, 0, (size_t)g->dims.obs_size * sizeof *out);
    /* Eight commodities in a loop the compiler vectorises, then the ninth. */
    for (int c = 0; c < NCOM - 1; c++) {
        out[c] = (float)st->cnt[seat][c] / CORNER;
        out[NCOM + c] = (float)((st->cornered >> c) & 1);
    }
    out[NCOM - 1] = (float)st->cnt[seat][NCOM - 1] / CORNER;
    out[2 * NCOM - 1] = (float)((st->cornered >> (NCOM - 1)) & 1);
    out[2 * NCOM] = (float)st->giving;
    out[2 * NCOM + 1] = unit((float)st->rounds / opt(g, P_MAX_ROUNDS));
    for (int s = 0, r = rel(g, 0, seat); s < n;
         s++, r = r + 1 == n ? 0 : r + 1) {
        out[o + r] = (float)size[s] / TRIX_CARDS;
        out[o + n + r] = unit((float)st->score[s] / target);
        out[o + 3 * n + r] = (float)((acting >> s) & 1);
        out[o + 5 * n + r] = third[st->called[s]];
        if (st->partner[s] != NO_SEAT)
            out[o + 6 * n + r * n + rel(g, st->partner[s], seat)] =
                third[st->swapped[s]];
    }
    out[o + 2 * n + rel(g, st->dealer, seat)] = 1;
    if (st->cornerer != NO_SEAT)
        out[o + 4 * n + rel(g, st->cornerer, seat)] = 1;
}

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = np(g), o = 2 * NCOM + 2;
    const struct obs_segment seg[] = {
        {"hand", 0, NCOM, "own cards per commodity / 8 (Gold .. Alum)"},
        {"cornered", NCOM, NCOM, "1 per commodity cornered this deal"},
        {"giving", 2 * NCOM, 1, "1 while excess cards go to the cornerer"},
        {"rounds", 2 * NCOM + 1, 1, "trading rounds this deal / max_rounds"},
        {"hand_sizes", o, n, "cards held / 72, self first"},
        {"scores", o + n, n, "score / target (capped at 1), self first"},
        {"dealer", o + 2 * n, n, "dealer, one-hot, self first"},
        {"acting", o + 3 * n, n, "seats to act now, self first"},
        {"cornerer", o + 4 * n, n, "first cornerer this deal, one-hot"},
        {"called", o + 5 * n, n, "number each seat called last round / 3"},
        {"swaps", o + 6 * n, n * n,
         "last round: [seat][partner] = cards swapped / 3, self first"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    if (a == 0)
        return text_fmt(buf, len, "pass");
    if (a >= GIVE)
        return text_fmt(buf, len, "give %s", com_name[a - GIVE]);
    return text_fmt(buf, len, "offer %d %s", (a - 1) % 3 + 1,
                    com_name[(a - 1) / 3]);
}

static void pack_event(msgpack_packer *pk, const struct event *e)
{
    char name[GAME_NAME_MAX], *p;
    if (e->kind == EV_TRADE)
        p = view_cat_num(view_cat(view_cat_num(view_cat(name, "swap "),
                                               e->num),
                                  " with "),
                         e->other);
    else if (e->kind == EV_CORNER)
        p = view_cat(view_cat(name, "corner "), com_name[e->other]);
    else if (e->kind == EV_GIVE)
        p = view_cat_num(view_cat(name, "give 1 to "), e->other);
    else
        p = view_cat_num(view_cat(name, "bankrupt by "), e->other);
    view_pack_entryn(pk, e->seat, name, (size_t)(p - name));
}

static void pack_hand(msgpack_packer *pk, const struct tx_state *st, int seat)
{
    int k = 0;
    for (int c = 0; c < NCOM; c++)
        k += st->cnt[seat][c] > 0;
    view_pack_map(pk, (size_t)k);
    for (int c = 0; c < NCOM; c++)
        if (st->cnt[seat][c]) {
            view_pack_str(pk, com_name[c]);
            view_pack_int(pk, st->cnt[seat][c]);
        }
}

static void pack_public(const struct game *g, const struct tx_state *st,
                        msgpack_packer *pk)
{
    int n = np(g);
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, held(st, s));
    view_pack_str(pk, "scores");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->score[s]);
    view_pack_str(pk, "team_scores");
    view_pack_array(pk, (size_t)g->dims.teams);
    for (int t = 0; t < g->dims.teams; t++)
        view_pack_int(pk, trick_side_score(g, st->score, t));
    view_pack_str(pk, "cornered");
    view_pack_array(pk, (size_t)__builtin_popcount(st->cornered));
    for (int c = 0; c < NCOM; c++)
        if ((st->cornered >> c) & 1)
            view_pack_str(pk, com_name[c]);
    view_pack_str(pk, "last_trades");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++) {
        view_pack_array(pk, 3);
        view_pack_int(pk, st->called[s]);
        view_pack_seat(pk, st->partner[s]);
        view_pack_int(pk, st->swapped[s]);
    }
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct tx_state *st = vst;
    int first = st->nhist > HIST ? st->nhist - HIST : 0;
    view_pack_str(pk, "hand");
    pack_hand(pk, st, seat);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, st->giving ? "giving" : "trading");
    view_pack_str(pk, "round");
    view_pack_int(pk, st->rounds);
    pack_public(g, st, pk);
    view_pack_str(pk, "history");
    view_pack_array(pk, (size_t)(st->nhist - first));
    for (int i = first; i < st->nhist; i++)
        pack_event(pk, &st->hist[i % HIST]);
    return 0;
}

/* ==== determinization ================================================== */

/* Deals hand h the cards seat knows it holds, taken from the pool counts
 * left[]; returns how many more cards h must get. */
static int place_known(struct tx_state *st, int seat, int h, int *left)
{
    int room = held(st, h);
    for (int c = 0; c < NCOM; c++) {
        int k = st->known[seat][h][c];
        assert(k <= left[c] && k <= room); /* knowledge is always true */
        st->cnt[h][c] = (uint8_t)k;
        left[c] -= k;
        room -= k;
    }
    return room;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct tx_state *st = vst;
    uint8_t pool[TRIX_CARDS], known_self[MAXP][NCOM];
    int n = np(g), k = 0, room[MAXP] = {0}, left[NCOM] = {0};
    for (int h = 0; h < n; h++)
        for (int c = 0; c < NCOM && h != seat; c++)
            left[c] += st->cnt[h][c];
    for (int h = 0; h < n; h++)
        room[h] = h == seat ? 0 : place_known(st, seat, h, left);
    for (int c = 0; c < NCOM; c++)
        for (int i = 0; i < left[c]; i++)
            pool[k++] = (uint8_t)c;
    rng_shuffle_u8(rng, pool, k);
    for (int h = 0, used = 0; h < n; h++)
        for (int i = 0; i < room[h]; i++)
            st->cnt[h][pool[used++]]++;
    memcpy(known_self, st->known[seat], sizeof known_self);
    memset(st->known, 0, sizeof st->known);
    memcpy(st->known[seat], known_self, sizeof known_self);
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    const struct tx_state *st = vst;
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d, round %d, %s. Scores:", st->dealer,
                 st->rounds, st->giving ? "giving excess" : "trading");
    for (int s = 0; s < np(g); s++)
        text_appendf(buf, len, &k, " %d", st->score[s]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < np(g); s++) {
        text_appendf(buf, len, &k, "Seat %d holds %d", s, held(st, s));
        for (int c = 0; c < NCOM && (seat < 0 || s == seat); c++)
            if (st->cnt[s][c])
                text_appendf(buf, len, &k, " %s:%d", com_name[c],
                             st->cnt[s][c]);
        text_appendf(buf, len, &k, "\n");
    }
    text_appendf(buf, len, &k,
                 st->over ? "Game over.\n"
                          : "All acting seats "
                            "to move.\n");
    return (int)k;
}

/* The estimate op: each side's lead in points over the best other side, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct tx_state *st = vst;
    trick_estimate(g, st->score, opt(g, P_TARGET), out);
}

/* The deals op: deals finished, plus the one in play. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct tx_state *st = vst;
    return st->deals + !st->over;
}

/* ==== the descriptor =================================================== */

const struct game_def trix_exchange_game = {
    .name = "trix_exchange",
    .long_name = "Trix Exchange",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Trix Exchange; see "
              "docs/games/trix_exchange.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM |
             GAME_PARTNERSHIPS | GAME_SIMULTANEOUS,
    .state_size = sizeof(struct tx_state),
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
    .apply_joint = apply_joint,
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
