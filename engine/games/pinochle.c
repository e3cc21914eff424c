/* pinochle.c — Pinochle for six or eight: two pinochle packs (96 cards,
 * A 10 K Q J 9, four of each), three or four partnerships, melds shown
 * before the first lead, turned trump with the dix exchange, a one-bid or a
 * free auction, follow-and-head play, game 3,000 / 4,500 / 6,000.
 *
 * Rules: D. Parlett, The Penguin Book of Card Games (the tail of "Pinochle for
 * six or eight": the lower meld rows, dealing, trumps, last trick, game);
 * docs/games/pinochle.md states the rules as implemented. Faces, trick order
 * and the duty to follow and head come from engine/meld.h, shared with the
 * other Bezique-family games.
 *
 * Decisions (docs/games/pinochle.md explains the main ones):
 * - Seats 0..n-1 clockwise, partners opposite: six players in three
 *   teams {s, s+3}, eight in four teams {s, s+4}; team of seat s is
 *   s mod (n/2). Seat 0 deals first, then the deal passes left.
 * - Pack order: all 96 cards are dealt, 16 (or 12) each in one block per
 *   seat from the dealer's left, the dealer last; a shuffled pack makes
 *   every packet order the same deal, and blocks keep test decks readable.
 * - Turned trump (default): the dealer's last card is turned and fixes
 *   trumps. The first holder of the 9 of trumps (dix) from the dealer's
 *   left round to the dealer gives it to the dealer for the turned card and
 *   scores 10 for it; the exchange is public and automatic (the book says
 *   he exchanges). A turned dix scores the dealer 10, once, in his meld, as
 *   does his own dix when nobody before him holds one (he exchanges with
 *   himself). The dix given to the dealer by another seat does not count
 *   again as his meld. Eldest leads.
 * - One-bid auction (trump=auction): from the dealer's left each player
 *   once bids min_bid, min_bid+10, ... above the high bid, or passes; if
 *   all others pass the dealer must bid min_bid. The high bidder names
 *   trumps and leads. His team scores its meld and cards if they reach the
 *   bid, else loses the bid; the other teams score theirs.
 * - Free auction (trump=free; the book names it without rules): as above,
 *   but the bidding goes round, passed seats skipped, until all but the
 *   high bidder have passed (a pass is final); all passing leaves the last
 *   seat the forced min_bid. Bids stop at min_bid + 990 (a fixed action
 *   space, far above any hand).
 * - Melds (the book's rows, and the upper rows docs/games/pinochle.md adds):
 *   trump flush (A 10 K Q J) 150 / double 1,500 / triple 3,000; royal marriage
 *   (K Q of trumps outside a flush) 40; marriage 20; pinochle (Q♠ J♦) 40 / 300
 *   / 600 / 1,200; Aces around 100 / 1,000 / 2,000 / 3,000, Kings 80 / 800 /
 *   1,600 / 2,400, Queens 60 / 600 / 1,200 / 1,800, Jacks 40 / 400 / 800 /
 *   1,200 for one, two, three, four of each suit (footnote b); dix 10 each.
 *   Eight players: "quadruple melds cannot be made", so no row counts a
 *   fourth copy (four pinochles 600, four dixes 30; the book gives no
 *   other value, and the table never scores a multiple as singles). A
 *   card may serve melds of different classes. All melds are scored and their
 *   cards shown when play begins, and the team's meld always counts.
 * - Play (meld.h): follow suit and head the trick if possible; void,
 *   trump (overtrumping the best trump if possible); else any card. Equal
 *   cards: the first played wins. Card points A 11, 10 10, K 4, Q 3, J 2;
 *   last trick 10 (option 20): 490 (500) a deal.
 * - Game: after a deal, a team alone with >= target wins (the book offers
 *   3,000, 4,500 or 6,000); teams equal at the top play on; after
 *   max_deals deals the sole best team wins, else drawn. Returns +1 to
 *   the winners, -1/(teams-1) to the others, 0 for a draw.
 * - Action ids: 0..31 play face f (meld.h faces; only A..9 occur), 32..131
 *   "bid N" (N = min_bid + 10 * (id - 32)), 132 pass, 133..136 name clubs,
 *   diamonds, hearts, spades.
 * - Determinize: redeals the unknown cards among the other seats keeping
 *   their sizes, shown meld cards and an exchanged card in hand, the lacks
 *   shown in play, and each seat's meld value (a redealt hand must meld
 *   exactly what was shown); the true deal is kept if no fit is found.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../meld.h"
#include "../obs_fill.h"
#include "../trick.h"
#include "../view.h"

#define MAXP 8
#define NCARDS 96
#define A_BID 32
#define NBIDS 100
#define A_PASS 132
#define A_NAME 133
#define NUM_ACTIONS 137
#define NO MELD_NO
#define PACK_PLACES 0x3fu
#define FLUSH_PLACES 0x1fu
#define DIX_POINTS 10

enum { P_PLAYERS, P_TRUMP, P_LAST, P_TARGET, P_MIN_BID, P_MAX_DEALS, NPARAMS };
enum { PH_BID, PH_NAME, PH_PLAY, PH_OVER };
enum { TRUMP_TURNED, TRUMP_AUCTION, TRUMP_FREE };

static const char *const trump_choices[] = {"turned", "auction", "free",
                                            NULL};

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 6, 6, 8, NULL,
     "6 (three teams of two) or 8 (four teams of two)"},
    {"trump", PARAM_ENUM, TRUMP_TURNED, 0, 0, trump_choices,
     "turned: the dealer's last card fixes trumps, dix exchange; auction: "
     "one-bid auction, the high bidder names trumps; free: free auction, "
     "bidding goes round until all but one have passed"},
    {"last_trick", PARAM_INT, 10, 10, 20, NULL,
     "points for the last trick: 10 (490 a deal) or 20 (500)"},
    {"target", PARAM_INT, 3000, 1, 100000, NULL,
     "points to win the game (the book: 3000, 4500 or 6000)"},
    {"min_bid", PARAM_INT, 500, 10, 5000, NULL,
     "auction: the lowest bid, forced on the dealer when all pass"},
    {"max_deals", PARAM_INT, 30, 1, 500, NULL,
     "deals before the best team wins (a cap that ends games that would run on)"},
};

static const char *const test_specs[] = {
    "pinochle(players=8,last_trick=20)",
    "pinochle(trump=auction,target=1)",
    "pinochle(players=8,trump=auction,max_deals=1)",
    "pinochle(trump=free,min_bid=300)",
    "pinochle(players=8,trump=free,max_deals=2)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",      "dealer",     "phase",  "trump",      "turned",
    "dix_exchange", "bids",    "high_bid", "bidder",   "melds",
    "team_meld", "hand_sizes", "trick",  "leader",     "last_trick",
    "taken",     "scores",     NULL,
};

struct pinochle_state {
    struct rng rng;
    uint8_t hand[MAXP][MELD_FACES];  /* copies held */
    uint8_t known[MAXP][MELD_FACES]; /* copies all know are held */
    uint8_t shown[MAXP][MELD_FACES]; /* meld cards shown this deal */
    uint8_t played[MAXP][MELD_FACES]; /* copies each seat played */
    uint8_t gone[MELD_FACES];        /* cards of finished tricks */
    uint32_t lacks[MAXP];            /* faces play showed a seat lacks */
    int32_t score[MAXP / 2];         /* per team */
    int16_t meld[MAXP];              /* each seat's meld this deal */
    int16_t raw[MAXP];               /* its table value, before the dix
                                        exchange's adjustments */
    int16_t taken[MAXP / 2];         /* card points per team this deal */
    float meld_obs[MAXP];            /* meld[s] as observed (clamped
                                        meld / 1000), kept by apply */
    float taken_obs[MAXP / 2];       /* taken[t] as observed (/ 500) */
    float score_obs[MAXP / 2];       /* score[t] as observed (0.5 +
                                        score / (4 target), clamped) */
    uint16_t deals;                  /* deals begun */
    uint8_t np, teams;               /* seats, teams */
    uint8_t phase, dealer;
    struct meld_table tb;            /* the trick in play and the last */
    uint8_t trump;                   /* trump suit, NO before it is fixed */
    uint8_t turned;                  /* the turned face, NO in auction */
    uint8_t dix_seat;                /* who exchanged or scored the dix */
    uint8_t bidder, high;            /* high bidder, bid index + 1 (0 none) */
    uint8_t nbids;                   /* bids and passes made */
    uint8_t bid[MAXP];               /* 0 not yet, 255 passed, else idx+1 */
    uint8_t winner;                  /* team, 0xfe drawn, NO playing */
};

#define PASSED 0xff
#define DRAWN 0xfe

/* ==== melds ============================================================ */

/* The value of k of a meld (one to four: a to d). Callers cap k at the
 * most that count first (meld_value_most), as the cards shown follow it. */
static int table4(int k, int a, int b, int c, int d)
{
    const int v[5] = {0, a, b, c, d};
    return v[k > 4 ? 4 : k];
}

/* Marriages: royal (outside flushes) 40, plain 20; shows their K and Q. */
static int marriages(const uint8_t *h, int trump, int flushes, uint8_t *shown)
{
    int pts = 0;
    for (int s = 0; s < 4; s++) {
        int k = meld_face(s, MELD_K), q = meld_face(s, MELD_Q);
        int m = meld_pairs(h, k, q);
        int extra = s == trump ? m - flushes : m;
        if (extra <= 0)
            continue;
        pts += extra * (s == trump ? 40 : 20);
        meld_need(shown, k, m);
        meld_need(shown, q, m);
    }
    return pts;
}

/* Four, eight, twelve, sixteen of a kind: one to four of each suit
 * (footnote b). Aces 100, Kings 80, Queens 60, Jacks 40 for four; eight
 * count ten times that, twelve twenty times, sixteen thirty times. */
static int arounds(const uint8_t *h, int most, uint8_t *shown)
{
    static const uint8_t place[4] = {MELD_A, MELD_K, MELD_Q, MELD_J};
    static const int base[4] = {100, 80, 60, 40};
    int pts = 0;
    for (int i = 0; i < 4; i++) {
        int k = meld_around(h, place[i]);
        k = k < most ? k : most;
        if (!k)
            continue;
        pts += table4(k, base[i], base[i] * 10, base[i] * 20, base[i] * 30);
        for (int s = 0; s < 4; s++)
            meld_need(shown, meld_face(s, place[i]), k);
    }
    return pts;
}

/* Meld points of hand h with trumps trump, counting at most `most` of
 * each row of the meld table; shown (zeroed by the caller) gets the
 * copies the melds use. */
static int meld_value_most(const uint8_t *h, int trump, int most,
                           uint8_t *shown)
{
    int flushes = meld_runs(h, trump, FLUSH_PLACES), pts = 0;
    flushes = flushes < most ? flushes : most;
    if (flushes) {
        pts += table4(flushes, 150, 1500, 3000, 3000);
        for (int p = MELD_A; p <= MELD_J; p++)
            meld_need(shown, meld_face(trump, p), flushes);
    }
    pts += marriages(h, trump, flushes, shown);
    int qs = meld_face(SPADES, MELD_Q), jd = meld_face(DIAMONDS, MELD_J);
    int pin = meld_pairs(h, qs, jd);
    pin = pin < most ? pin : most;
    if (pin) {
        pts += table4(pin, 40, 300, 600, 1200);
        meld_need(shown, qs, pin);
        meld_need(shown, jd, pin);
    }
    pts += arounds(h, most, shown);
    int dix = meld_face(trump, MELD_9), dixes = h[dix] < most ? h[dix] : most;
    pts += DIX_POINTS * dixes;
    meld_need(shown, dix, dixes);
    return pts;
}

/* meld_value_most for six players (every row to four) and for eight
 * (three at most), in the form meld_redeal_fits takes. */
static int meld_value6(const uint8_t *h, int trump, uint8_t *shown)
{
    return meld_value_most(h, trump, 4, shown);
}

static int meld_value8(const uint8_t *h, int trump, uint8_t *shown)
{
    return meld_value_most(h, trump, 3, shown);
}

static int meld_value(const struct pinochle_state *st, const uint8_t *h,
                      uint8_t *shown)
{
    return (st->np == 8 ? meld_value8 : meld_value6)(h, st->trump, shown);
}

/* ==== deals ============================================================ */

/* The observed forms of meld, taken and score, which change a few times a
 * deal while observe reads them at every step: kept beside them here. */
static float meld_obs(int meld)
{
    return meld_unit(meld / 1000.0f);
}

static float taken_obs(int taken)
{
    return taken / 500.0f;
}

static float score_obs(const struct game *g, int32_t score)
{
    return meld_unit(0.5f + score / (4 * (float)trick_opt(g, P_TARGET)));
}

static int team_of(const struct pinochle_state *st, int seat)
{
    return seat % st->teams;
}

static int next_seat(const struct pinochle_state *st, int s)
{
    return trick_next(s, st->np);
}

/* The automatic dix exchange of turned trump. */
static void dix_exchange(struct pinochle_state *st)
{
    int d = st->dealer, dix = meld_face(st->trump, MELD_9);
    if (st->turned == dix) {
        st->dix_seat = (uint8_t)d;
        st->known[d][dix]++;
        return;
    }
    int s = next_seat(st, d);
    while (!st->hand[s][dix]) {
        st->lacks[s] |= 1u << dix;
        s = next_seat(st, s);
    }
    st->dix_seat = (uint8_t)s;
    st->hand[s][dix]--;
    st->hand[s][st->turned]++;
    st->hand[d][st->turned]--;
    st->hand[d][dix]++;
    st->known[s][st->turned]++;
    st->known[d][dix]++;
}

/* Melds are scored and shown; play begins with leader. */
static void start_play(struct pinochle_state *st, int leader)
{
    for (int s = 0; s < st->np; s++) {
        memset(st->shown[s], 0, MELD_FACES);
        int v = meld_value(st, st->hand[s], st->shown[s]);
        st->raw[s] = (int16_t)v;
        /* The dix that went from a giver to the dealer counts 10 for the
         * giver, not for the dealer who now holds it. A dix the dealer
         * kept (one turned, or his own when nobody before him had one)
         * counts once, in his hand's meld. */
        bool given = st->turned != NO && st->dix_seat != st->dealer;
        if (given && s == st->dealer)
            v -= DIX_POINTS;
        if (given && s == st->dix_seat)
            v += DIX_POINTS;
        st->meld[s] = (int16_t)v;
        st->meld_obs[s] = meld_obs(v);
        for (int f = 0; f < MELD_FACES; f++)
            meld_need(st->known[s], f, st->shown[s][f]);
    }
    st->phase = PH_PLAY;
    meld_table_start(&st->tb, leader);
}

static int deal(const struct game *g, struct pinochle_state *st,
                const uint8_t *pre, int npre)
{
    uint8_t pack[NCARDS];
    int n = meld_pack_build(pack, PACK_PLACES, 4, pre, npre, &st->rng);
    int per = NCARDS / st->np;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->known, 0, sizeof st->known);
    memset(st->shown, 0, sizeof st->shown);
    memset(st->gone, 0, sizeof st->gone);
    memset(st->played, 0, sizeof st->played);
    memset(st->lacks, 0, sizeof st->lacks);
    memset(st->meld, 0, sizeof st->meld);
    memset(st->meld_obs, 0, sizeof st->meld_obs);
    memset(st->taken, 0, sizeof st->taken);
    memset(st->taken_obs, 0, sizeof st->taken_obs);
    memset(st->bid, 0, sizeof st->bid);
    if (n < 0)
        return n;
    for (int i = 0; i < NCARDS; i++)
        st->hand[(st->dealer + 1 + i / per) % st->np][pack[i]]++;
    st->nbids = st->high = 0;
    st->bidder = st->dix_seat = st->trump = NO;
    meld_table_start(&st->tb, next_seat(st, st->dealer));
    st->turned = NO;
    st->deals++;
    st->phase = PH_BID;
    if (trick_opt(g, P_TRUMP) == TRUMP_TURNED) {
        st->turned = pack[NCARDS - 1];
        st->trump = (uint8_t)meld_suit(st->turned);
        dix_exchange(st);
        start_play(st, st->tb.turn);
    }
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct pinochle_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->np = (uint8_t)g->dims.players;
    st->teams = (uint8_t)(st->np / 2);
    st->winner = NO;
    for (int t = 0; t < st->teams; t++)
        st->score_obs[t] = score_obs(g, 0);
    return deal(g, st, deck, ndeck);
}

/* ==== options ========================================================== */

enum {
    O_HAND = 0,                   /* 32 */
    O_GONE = 32,                  /* 32 */
    O_TRICK = 64,                 /* 8 x 32 */
    O_KNOWN = 320,                /* 8 x 32 */
    O_TURNED = 576,               /* 32 */
    O_TRUMP = 608,                /* 4 */
    O_PHASE = 612,                /* 4 */
    O_DEALER = 616,               /* 8 */
    O_TURN = 624,                 /* 8 */
    O_BIDDER = 632,               /* 8 */
    O_HIGH = 640,                 /* 1 */
    O_BIDS = 641,                 /* 8 x 2 */
    O_MELD = 657,                 /* 8 */
    O_TAKEN = 665,                /* 4 */
    O_SCORES = 669,               /* 4 */
    O_TRICKS = 673,               /* 1 */
    O_SIZES = 674,                /* 8 */
    OBS_SIZE = 682,
};

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[P_PLAYERS], last = (int)p->v[P_LAST];
    if (n != 6 && n != 8) {
        snprintf(err, errlen, "players must be 6 or 8 (got %d)", n);
        return ERR_INVAL;
    }
    if (last != 10 && last != 20) {
        snprintf(err, errlen, "last_trick must be 10 or 20 (got %d)", last);
        return ERR_INVAL;
    }
    trick_dims(d, n, false);
    d->teams = n / 2;
    for (int s = 0; s < n; s++)
        d->team[s] = (int8_t)(s % (n / 2));
    d->num_actions = NUM_ACTIONS;
    d->max_legal = NBIDS + 1;
    d->obs_size = OBS_SIZE;
    /* A deal's bidding: one turn each in the one-bid auction; in the free
     * auction a bid raises the high bid (at most NBIDS bids) and a pass
     * is final (at most n - 1). Then a trump named and every card. */
    int bidding = p->v[P_TRUMP] == TRUMP_FREE ? NBIDS + n - 1 : n;
    d->max_length = (bidding + 1 + NCARDS) * (int)p->v[P_MAX_DEALS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct pinochle_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->tb.turn;
}

/* Seats that have passed this deal. */
static int passes(const struct pinochle_state *st)
{
    int n = 0;
    for (int s = 0; s < st->np; s++)
        n += st->bid[s] == PASSED;
    return n;
}

static int legal_bids(const struct pinochle_state *st, int *out)
{
    int n = 0;
    if (passes(st) == st->np - 1 && !st->high) {
        out[0] = A_BID; /* all others passed: the forced minimum bid */
        return 1;
    }
    for (int i = st->high; i < NBIDS; i++)
        out[n++] = A_BID + i;
    out[n++] = A_PASS;
    return n;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct pinochle_state *st = vst;
    int n = 0;
    if (st->phase == PH_OVER || seat != st->tb.turn)
        return 0;
    if (st->phase == PH_BID)
        return legal_bids(st, out);
    if (st->phase == PH_NAME) {
        for (int s = 0; s < 4; s++)
            out[n++] = A_NAME + s;
        return n;
    }
    uint32_t m = meld_playable(st->hand[seat], st->tb.trick, st->tb.ntrick,
                               st->trump);
    for (; m; m &= m - 1)
        out[n++] = __builtin_ctz(m);
    return n;
}

static void check_game_end(const struct game *g, struct pinochle_state *st)
{
    int w, sc[MAXP / 2];
    for (int t = 0; t < st->teams; t++)
        sc[t] = st->score[t];
    bool capped = st->deals >= trick_opt(g, P_MAX_DEALS);
    if (!trick_game_over(sc, st->teams, trick_opt(g, P_TARGET), capped, &w))
        return;
    st->phase = PH_OVER;
    st->winner = w < 0 ? DRAWN : (uint8_t)w;
}

/* Meld plus cards for every team; the bidder's team must make its bid. */
static void score_deal(const struct game *g, struct pinochle_state *st)
{
    int total[MAXP / 2] = {0};
    for (int s = 0; s < st->np; s++)
        total[team_of(st, s)] += st->meld[s];
    for (int t = 0; t < st->teams; t++) {
        total[t] += st->taken[t];
        int bid = trick_opt(g, P_MIN_BID) + 10 * (st->high - 1);
        bool bidding = st->bidder != NO && team_of(st, st->bidder) == t;
        st->score[t] += bidding && total[t] < bid ? -bid : total[t];
        st->score_obs[t] = score_obs(g, st->score[t]);
    }
    check_game_end(g, st);
    if (st->phase == PH_OVER)
        return;
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    deal(g, st, NULL, 0);
}

static void finish_trick(const struct game *g, struct pinochle_state *st)
{
    int pts, per = NCARDS / st->np;
    for (int i = 0; i < st->np; i++)
        st->gone[st->tb.trick[i]]++;
    int w = meld_table_close(&st->tb, st->np, st->trump, per,
                             trick_opt(g, P_LAST), &pts);
    st->taken[team_of(st, w)] += (int16_t)pts;
    st->taken_obs[team_of(st, w)] = taken_obs(st->taken[team_of(st, w)]);
    if (st->tb.tricks == per)
        score_deal(g, st);
}

static void play(const struct game *g, struct pinochle_state *st, int f)
{
    int seat = st->tb.turn;
    if (st->tb.ntrick)
        st->lacks[seat] |= meld_shows_lack(st->tb.trick, st->tb.ntrick, f,
                                           st->trump);
    meld_take(st->hand[seat], st->known[seat], st->played[seat], f);
    if (meld_table_put(&st->tb, f, st->np))
        finish_trick(g, st);
}

/* A bid or a pass. The one-bid auction ends after every seat's turn;
 * the free auction goes round, skipping those who passed, until all but
 * the high bidder have passed (a seat left alone without a bid must bid
 * the minimum: legal_bids). */
static void bid(const struct game *g, struct pinochle_state *st, int a)
{
    int seat = st->tb.turn;
    st->bid[seat] = (uint8_t)(a == A_PASS ? PASSED : a - A_BID + 1);
    if (a != A_PASS) {
        st->high = (uint8_t)(a - A_BID + 1);
        st->bidder = (uint8_t)seat;
    }
    st->nbids++;
    bool over = trick_opt(g, P_TRUMP) == TRUMP_FREE
                    ? st->high && passes(st) == st->np - 1
                    : st->nbids == st->np;
    if (over) {
        st->phase = PH_NAME;
        st->tb.turn = st->bidder;
        return;
    }
    int next = next_seat(st, seat);
    while (st->bid[next] == PASSED)
        next = next_seat(st, next);
    st->tb.turn = (uint8_t)next;
}

static int apply(const struct game *g, void *vst, int a)
{
    struct pinochle_state *st = vst;
    if (a < MELD_FACES) {
        play(g, st, a);
    } else if (a <= A_PASS) {
        bid(g, st, a);
    } else {
        st->trump = (uint8_t)(a - A_NAME);
        start_play(st, st->bidder);
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct pinochle_state *st = vst;
    bool decided = st->phase == PH_OVER && st->winner != DRAWN;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== what a seat sees ================================================= */

/* The values from O_HIGH on, into tail = out + O_HIGH, which holds zeros:
 * the high bid and each seat's bid (the high bidder's one-hot apart). */
static MELD_INLINE void observe_bid_values(const struct game *g,
                                           const struct pinochle_state *st,
                                           int seat, float *tail)
{
    float top = (float)(trick_opt(g, P_MIN_BID) + 10 * (NBIDS - 1));
    int min = trick_opt(g, P_MIN_BID);
    if (st->high)
        tail[O_HIGH - O_HIGH] = (float)(min + 10 * (st->high - 1)) / top;
    if (trick_opt(g, P_TRUMP) == TRUMP_TURNED)
        return; /* no bids: the turned card fixes trumps */
    for (int r = 0, s = seat; r < st->np; r++, s = trick_next(s, st->np)) {
        if (st->bid[s] == PASSED)
            tail[O_BIDS - O_HIGH + 2 * r + 1] = 1;
        else if (st->bid[s])
            tail[O_BIDS - O_HIGH + 2 * r] =
                (float)(min + 10 * (st->bid[s] - 1)) / top;
    }
}

/* Tricks in a deal: every card is dealt, 16 each to six, 12 to eight. */
static int tricks_per_deal(const struct pinochle_state *st)
{
    return st->np == 6 ? NCARDS / 6 : NCARDS / 8;
}

/* Per seat, self first: melds and hand sizes; the tricks played (into
 * tail = out + O_HIGH). */
static MELD_INLINE void observe_seat_values(const struct pinochle_state *st,
                                            int seat, float *tail)
{
    int np = st->np, left = tricks_per_deal(st) - st->tb.tricks;
    double per = np == 6 ? 1.0 / (NCARDS / 6) : 1.0 / (NCARDS / 8);
    /* Every seat holds the cards of the tricks still to play, less one
     * for the seats that have played to the trick in progress: bit r of
     * played, r counted from seat, the trick's first ntrick places from
     * the leader's. */
    const float size[2] = {meld_quot(left, per), meld_quot(left - 1, per)};
    unsigned played = ((1u << st->tb.ntrick) - 1)
                      << trick_rel(st->tb.leader, seat, np);
    played |= played >> np;
    for (int r = 0, s = seat; r < np; r++) {
        tail[O_MELD - O_HIGH + r] = st->meld_obs[s];
        tail[O_SIZES - O_HIGH + r] = size[played >> r & 1];
        s = s + 1 == np ? 0 : s + 1;
    }
    tail[O_TRICKS - O_HIGH] = meld_quot(st->tb.tricks, per);
}

/* The taken card points and scores per team, own first (into tail). */
static MELD_INLINE void observe_team_values(const struct pinochle_state *st,
                                            int seat, float *tail)
{
    int teams = st->teams;
    for (int r = 0, t = seat < teams ? seat : seat - teams; r < teams; r++) {
        tail[O_TAKEN - O_HIGH + r] = st->taken_obs[t];
        tail[O_SCORES - O_HIGH + r] = st->score_obs[t];
        t = t + 1 == teams ? 0 : t + 1;
    }
}

#if MELD_HAVE_512
_Static_assert(O_TURNED == 36 * 16 && O_TRUMP == 38 * 16 &&
                   O_PHASE == O_TRUMP + 4 && O_DEALER == O_TRUMP + 8 &&
                   O_TURN == 39 * 16 && O_BIDDER == O_TURN + 8 &&
                   O_HIGH == 40 * 16 && O_BIDS == O_HIGH + 1 &&
                   O_MELD == O_BIDS + 16 && O_TAKEN == O_MELD + 8 &&
                   O_SCORES == O_TAKEN + 4 && O_TRICKS == O_SCORES + 4 &&
                   O_SIZES == O_TRICKS + 1 && OBS_SIZE == O_SIZES + 8,
               "observe_512 writes the tensor in these 16-float blocks");
_Static_assert(offsetof(struct pinochle_state, taken_obs) ==
                       offsetof(struct pinochle_state, meld_obs) + 32 &&
                   offsetof(struct pinochle_state, score_obs) ==
                       offsetof(struct pinochle_state, meld_obs) + 48,
               "observe_512 loads meld_obs, taken_obs and score_obs whole");

/* The permutes that rotate meld_obs, taken_obs and score_obs (floats 0,
 * 8 and 12 on from meld_obs) to a seat, by [8 players][seat]: the 16
 * floats from O_MELD on, melds per seat, then card points and scores per
 * team, each from seat's own (lanes past the seats or teams are masked
 * off where the table is used). */
#define PL(n, s, r) (((s) + (r)) % (n))
#define TM(np, s, r) PL((np) / 2, (s) % ((np) / 2), r)
#define ROW(np, s)                                                        \
    {PL(np, s, 0),      PL(np, s, 1),      PL(np, s, 2),                  \
     PL(np, s, 3),      PL(np, s, 4),      PL(np, s, 5),                  \
     PL(np, s, 6),      PL(np, s, 7),      8 + TM(np, s, 0),              \
     8 + TM(np, s, 1),  8 + TM(np, s, 2),  8 + TM(np, s, 3),              \
     12 + TM(np, s, 0), 12 + TM(np, s, 1), 12 + TM(np, s, 2),             \
     12 + TM(np, s, 3)}
#define ROWS(np)                                                          \
    {ROW(np, 0), ROW(np, 1), ROW(np, 2), ROW(np, 3),                      \
     ROW(np, 4), ROW(np, 5), ROW(np, 6), ROW(np, 7)}
static const _Alignas(64) int32_t rotate[2][MAXP][16] = {ROWS(6), ROWS(8)};
#undef PL
#undef TM
#undef ROW
#undef ROWS

/* The tensor block by block in aligned 64-byte stores (meld_writer) for
 * np players (a constant in each build): count rows widened, one-hots as
 * lane masks, structural zeros as plain stores, the values of the last
 * three blocks joined in registers, the trick's cards set over zeros at
 * the end. Stores bound this work, so it makes as few as it can: one per
 * 64 bytes of tensor and nothing on the stack (short of auction bids). */
MELD_512 static MELD_INLINE void observe_512_body(
    const struct game *g, const struct pinochle_state *st, int seat,
    float *out, bool shifted, int np)
{
    int lead = trick_rel(st->tb.leader, seat, np);
    __m512 quarter = meld_w_scale(0.25f);
    struct meld_writer w;
    meld_w_head(&w, out, OBS_SIZE, shifted, st->hand, st->known, st->gone,
                seat, np, MAXP, quarter);
    uint32_t turned = st->turned != NO ? 1u << st->turned : 0;
    meld_w_put(&w, meld_w_bits(turned & 0xffffu));
    meld_w_put(&w, meld_w_bits(turned >> 16));
    unsigned b = 1u << (O_PHASE - O_TRUMP + st->phase) |
                 1u << (O_DEALER - O_TRUMP + trick_rel(st->dealer, seat, np));
    if (st->trump != NO)
        b |= 1u << st->trump;
    meld_w_put(&w, meld_w_bits(b));
    b = st->phase != PH_OVER ? 1u << trick_rel(st->tb.turn, seat, np) : 0;
    if (st->bidder != NO)
        b |= 1u << (O_BIDDER - O_TURN + trick_rel(st->bidder, seat, np));
    meld_w_put(&w, meld_w_bits(b));

    /* O_HIGH (lane 15 of nums, taken by the first join), the bids, the
     * seat and team values, the tricks and hand sizes. */
    __m512 bid = _mm512_setzero_ps(); /* no bids: turned trumps */
    if (trick_opt(g, P_TRUMP) != TRUMP_TURNED) {
        _Alignas(64) float bids[32] = {0}; /* bids[15] takes O_HIGH */
        observe_bid_values(g, st, seat, bids + 16 - (O_BIDS - O_HIGH));
        bid = _mm512_load_ps(bids + 16);
    }
    __m512 vals = _mm512_maskz_permutexvar_ps(
        np == MAXP ? 0xffffu : 0x773fu,
        _mm512_load_si512(rotate[np == MAXP][seat]),
        _mm512_loadu_ps(st->meld_obs));
    /* In one division, each lane rounding as the float division does:
     * lane 0 the tricks, lanes 1..np the hand sizes (every seat holds
     * the cards of the tricks still to play, less one for the seats that
     * have played to the trick in progress: bit r of played, r counted
     * from seat, the trick's first ntrick places from the leader's), all
     * over the tricks a deal; lane 15 the high bid over the top bid. */
    int min = trick_opt(g, P_MIN_BID), per = NCARDS / np;
    int left = per - st->tb.tricks;
    unsigned played = ((1u << st->tb.ntrick) - 1) << lead;
    played |= played >> np;
    __m512i ints = _mm512_mask_sub_epi32(
        _mm512_set1_epi32(left), (__mmask16)(played << 1),
        _mm512_set1_epi32(left), _mm512_set1_epi32(1));
    ints = _mm512_mask_set1_epi32(ints, 1, st->tb.tricks);
    ints = _mm512_mask_set1_epi32(ints, 1u << 15,
                                  st->high ? min + 10 * (st->high - 1) : 0);
    __m512 nums = _mm512_maskz_div_ps(
        (__mmask16)(0x8000u | ((2u << np) - 1)), _mm512_cvtepi32_ps(ints),
        _mm512_mask_mov_ps(_mm512_set1_ps((float)per), 1u << 15,
                           _mm512_set1_ps((float)(min + 10 * (NBIDS - 1)))));
    meld_w_put(&w, _mm512_castsi512_ps(_mm512_alignr_epi32(
                       _mm512_castps_si512(bid), _mm512_castps_si512(nums),
                       15)));
    meld_w_put(&w, _mm512_castsi512_ps(_mm512_alignr_epi32(
                       _mm512_castps_si512(vals), _mm512_castps_si512(bid),
                       15)));
    meld_w_last(&w, _mm512_castsi512_ps(_mm512_alignr_epi32(
                        _mm512_castps_si512(nums),
                        _mm512_castps_si512(vals), 15)));
    meld_trick_ones(out + O_TRICK, &st->tb, lead, np);
}

MELD_512 static void observe_512(const struct game *g,
                                 const struct pinochle_state *st, int seat,
                                 float *out)
{
    bool shifted = meld_w_shifted(out);
    if (st->np == MAXP) {
        if (shifted)
            observe_512_body(g, st, seat, out, true, MAXP);
        else
            observe_512_body(g, st, seat, out, false, MAXP);
    } else {
        if (shifted)
            observe_512_body(g, st, seat, out, true, 6);
        else
            observe_512_body(g, st, seat, out, false, 6);
    }
}
#endif

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct pinochle_state *st = vst;
    int np = st->np;
#if MELD_HAVE_512
    if (obs_width_best() == OBS_WIDTH_64) {
        observe_512(g, st, seat, out);
        return;
    }
#endif
    /* Hand, gone and the others' known cards are written whole, the rest
     * (the own known row included) is mostly zeros. */
    obs_fill_zero(out + O_TRICK, O_KNOWN + 32 - O_TRICK);
    obs_fill_zero(out + O_KNOWN + 32 * np,
                  (size_t)(OBS_SIZE - O_KNOWN - 32 * np));
    const uint8_t *rows[MAXP + 1] = {st->hand[seat], st->gone};
    meld_put_count_rows(out + O_HAND, rows, 2, 0.25f);
    for (int r = 1, s = trick_next(seat, np); r < np; r++) {
        rows[r] = st->known[s];
        s = trick_next(s, np);
    }
    meld_put_count_rows(out + O_KNOWN + 32, rows + 1, np - 1, 0.25f);
    meld_observe_trick(out + O_TRICK, &st->tb, seat, np);
    if (st->turned != NO)
        out[O_TURNED + st->turned] = 1;
    if (st->trump != NO)
        out[O_TRUMP + st->trump] = 1;
    out[O_PHASE + st->phase] = 1;
    out[O_DEALER + trick_rel(st->dealer, seat, np)] = 1;
    if (st->phase != PH_OVER)
        out[O_TURN + trick_rel(st->tb.turn, seat, np)] = 1;
    if (st->bidder != NO)
        out[O_BIDDER + trick_rel(st->bidder, seat, np)] = 1;
    observe_bid_values(g, st, seat, out + O_HIGH);
    observe_seat_values(st, seat, out + O_HIGH);
    observe_team_values(st, seat, out + O_HIGH);
}

static const struct obs_segment layout[] = {
    {"hand", O_HAND, 32, "own copies/4 per face suit*8 + A 10 K Q J 9 8 7"},
    {"gone", O_GONE, 32, "copies/4 in finished tricks this deal"},
    {"trick", O_TRICK, 256, "trick in play: 8 x 32 one-hot, by seat (self "
                            "first)"},
    {"known", O_KNOWN, 256, "others' cards known in hand (shown melds, "
                            "exchange): 8 x 32 copies/4, self first"},
    {"turned", O_TURNED, 32, "the turned card (turned trump)"},
    {"trump", O_TRUMP, 4, "trump suit, one-hot clubs..spades"},
    {"phase", O_PHASE, 4, "bidding, naming, playing, over"},
    {"dealer", O_DEALER, 8, "dealer, one-hot (self first)"},
    {"turn", O_TURN, 8, "seat to act, one-hot (self first)"},
    {"bidder", O_BIDDER, 8, "high bidder, one-hot (self first)"},
    {"high_bid", O_HIGH, 1, "high bid / (min_bid + 990)"},
    {"bids", O_BIDS, 16, "per seat (self first): bid / (min_bid + 990), "
                         "passed"},
    {"melds", O_MELD, 8, "meld points / 1000, clamped (self first)"},
    {"taken", O_TAKEN, 4, "card points / 500 per team (own first)"},
    {"scores", O_SCORES, 4, "0.5 + score/(4*target), clamped, per team "
                            "(own first)"},
    {"tricks", O_TRICKS, 1, "finished tricks / tricks per deal"},
    {"hand_sizes", O_SIZES, 8, "cards held / tricks per deal (self first)"},
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
    (void)vst;
    char card[8];
    if (a < MELD_FACES) {
        meld_face_name(a, card, sizeof card);
        return snprintf(buf, len, "play %s", card);
    }
    if (a < A_PASS)
        return snprintf(buf, len, "bid %d",
                        trick_opt(g, P_MIN_BID) + 10 * (a - A_BID));
    if (a == A_PASS)
        return snprintf(buf, len, "pass");
    return snprintf(buf, len, "name %s", meld_suit_word(a - A_NAME));
}

static void pack_ints(msgpack_packer *pk, const int32_t *v, int n)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        view_pack_int(pk, v[i]);
}

static void pack_bidding(const struct game *g, const struct pinochle_state *st,
                         msgpack_packer *pk)
{
    int min = trick_opt(g, P_MIN_BID);
    view_pack_str(pk, "bids");
    view_pack_array(pk, st->np);
    for (int s = 0; s < st->np; s++) {
        if (!st->bid[s])
            view_pack_nil(pk);
        else if (st->bid[s] == PASSED)
            view_pack_str(pk, "pass");
        else
            view_pack_int(pk, min + 10 * (st->bid[s] - 1));
    }
    view_pack_str(pk, "high_bid");
    view_pack_int(pk, st->high ? min + 10 * (st->high - 1) : 0);
    view_pack_str(pk, "bidder");
    view_pack_seat(pk, st->bidder == NO ? -1 : st->bidder);
}

static void pack_melds(const struct pinochle_state *st, msgpack_packer *pk)
{
    int32_t team[MAXP / 2] = {0}, sizes[MAXP];
    view_pack_str(pk, "melds");
    view_pack_array(pk, st->np);
    for (int s = 0; s < st->np; s++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, st->meld[s]);
        meld_pack_hand(pk, st->shown[s]);
        team[team_of(st, s)] += st->meld[s];
        sizes[s] = meld_size(st->hand[s]);
    }
    view_pack_str(pk, "team_meld");
    pack_ints(pk, team, st->teams);
    view_pack_str(pk, "hand_sizes");
    pack_ints(pk, sizes, st->np);
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    static const char *const phases[] = {"bidding", "naming", "playing",
                                         "over"};
    const struct pinochle_state *st = vst;
    int32_t taken[MAXP / 2];
    view_pack_str(pk, "hand");
    meld_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    view_pack_str(pk, "trump");
    if (st->trump == NO)
        view_pack_nil(pk);
    else
        view_pack_str(pk, meld_suit_word(st->trump));
    view_pack_str(pk, "turned");
    if (st->turned == NO)
        view_pack_nil(pk);
    else
        meld_pack_face(pk, st->turned);
    view_pack_str(pk, "dix_exchange");
    view_pack_seat(pk, st->dix_seat == NO ? -1 : st->dix_seat);
    pack_bidding(g, st, pk);
    pack_melds(st, pk);
    meld_pack_table(pk, &st->tb, st->np, st->phase == PH_PLAY);
    for (int t = 0; t < st->teams; t++)
        taken[t] = st->taken[t];
    view_pack_str(pk, "taken");
    pack_ints(pk, taken, st->teams);
    view_pack_str(pk, "scores");
    pack_ints(pk, st->score, st->teams);
    return 0;
}

/* ==== determinization ================================================== */

/* A redealt hand must meld what its holder showed. */
static bool meld_fits(const void *vst, int s, const uint8_t *hidden)
{
    const struct pinochle_state *st = vst;
    return meld_redeal_fits(st->known[s], hidden, st->played[s], st->trump,
                            st->raw[s], st->shown[s],
                            st->np == 8 ? meld_value8 : meld_value6);
}

/* The faces of pool that seat s cannot hold beside what all know of its
 * hand: one copy of such a face would already make the redealt hand meld
 * more than was shown (melds only grow as cards are added, so no draw
 * holding it can fit). Drawing without them changes no fitting draw's
 * chance; it only spares the draws bound to fail. */
static uint32_t unfit_faces(const struct pinochle_state *st, int s,
                            const uint8_t *pool)
{
    uint8_t one[MELD_FACES] = {0};
    uint32_t out = 0;
    for (int f = 0; f < MELD_FACES; f++) {
        if (!pool[f] || (st->lacks[s] >> f & 1))
            continue;
        one[f] = 1;
        if (!meld_fits(st, s, one))
            out |= 1u << f;
        one[f] = 0;
    }
    return out;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct pinochle_state *st = vst;
    uint8_t pool[MELD_FACES], out[MAXP][MELD_FACES];
    uint32_t lacks[MAXP];
    int room[MAXP] = {0};
    for (int f = 0; f < MELD_FACES; f++) {
        int n = (meld_place(f) <= MELD_9 ? 4 : 0) - st->gone[f] -
                st->hand[seat][f];
        for (int i = 0; i < st->tb.ntrick; i++)
            n -= st->tb.trick[i] == f;
        for (int s = 0; s < st->np; s++)
            if (s != seat)
                n -= st->known[s][f];
        pool[f] = (uint8_t)n;
    }
    meld_accept_fn fits = st->phase == PH_PLAY ? meld_fits : NULL;
    for (int s = 0; s < st->np; s++) {
        lacks[s] = st->lacks[s];
        if (s == seat)
            continue;
        room[s] = meld_size(st->hand[s]) - meld_size(st->known[s]);
        if (fits && room[s] > 0)
            lacks[s] |= unfit_faces(st, s, pool);
    }
    if (meld_deal_hidden(pool, st->np, room, lacks, fits, st, rng, out))
        for (int s = 0; s < st->np; s++)
            if (s != seat)
                for (int f = 0; f < MELD_FACES; f++)
                    st->hand[s][f] = (uint8_t)(st->known[s][f] + out[s][f]);
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct pinochle_state *st = vst;
    char h[400];
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d, trumps %s.\nScores:", st->dealer,
                 st->trump == NO ? "-" : meld_suit_word(st->trump));
    for (int t = 0; t < st->teams; t++)
        text_appendf(buf, len, &k, " %d", st->score[t]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < st->np; s++) {
        if (seat >= 0 && s != seat)
            continue;
        meld_format_hand(st->hand[s], h, sizeof h);
        text_appendf(buf, len, &k, "Seat %d (meld %d): %s\n", s, st->meld[s],
                     h);
    }
    text_appendf(buf, len, &k, "Trick %d, %d card%s led by %d.\n",
                 st->tb.tricks, st->tb.ntrick, text_s(st->tb.ntrick),
                 st->tb.leader);
    return (int)k;
}

/* The estimate op: each team's lead in points over the best other team, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct pinochle_state *st = vst;
    double pts[MAXP / 2];
    for (int t = 0; t < st->teams; t++)
        pts[t] = st->score[t];
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* The deals op: deals begun. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct pinochle_state *st = vst;
    return st->deals;
}

/* ==== the descriptor =================================================== */

const struct game_def pinochle_game = {
    .name = "pinochle",
    .long_name = "Pinochle for six or eight",
    .source = "D. Parlett, The Penguin Book of Card Games, Pinochle for six "
              "or eight; see docs/games/pinochle.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct pinochle_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &meld_codec_pinochle,
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
