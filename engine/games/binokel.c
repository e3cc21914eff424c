/* binokel.c — Binokel for two, three or four: 48 cards (A 10 K Q J 7, two
 * of each); with three or four an auction, the widow and a card call for
 * the soloist, melds, follow-and-head play, made or failed bids; with two,
 * trick-and-draw (binokel_draw.c); game 1,500.
 *
 * Rules: D. Parlett, The Penguin Book of Card Games, "Binokel";
 * docs/games/binokel.md states the rules as implemented. Faces, the trick
 * order and duties, and hidden deals with duplicate cards come from
 * engine/meld.h.
 *
 * Decisions (docs/games/binokel.md explains the main ones):
 * - Three players (default): 15 cards each and a widow of 3; four: fixed
 *   partners opposite, 11 each and a widow of 4. Seat 0 deals first,
 *   then the deal passes left, clockwise. Cards are dealt in one
 *   block per seat from the dealer's left, the widow last.
 * - Two players (engine/games/binokel_draw.c): 12 each from the
 *   dealer's left, the next card turned for trumps and laid under the
 *   stock (drawn last, in sight); no auction; the non-dealer leads.
 *   While the stock lasts any card may be played, and the winner of a
 *   trick may declare one meld ("meld ..." or "no meld": always asked)
 *   before drawing first; melded cards stay in hand, shown. Each meld kind
 *   once a deal per player (the diss once per trump 7 held), a marriage
 *   not after its suit's family. Once the stock is empty, strict play.
 *   Each player scores melds and cards; game 1,500.
 * - Auction: from the dealer's left, in turn, "bid N" (min_bid, then
 *   steps of 10, above the high bid) or "pass", a pass being final; the
 *   last player left wins, and must bid min_bid if nobody has. "bid slam"
 *   (all tricks) is worth 1,000 in the auction; with betel=true "bid
 *   betel" (misère) is worth betel_value (300).
 * - The soloist takes the widow unseen by the others (the book does not
 *   say it is shown; unseen keeps what the others know simple). He may then
 *   "call C" for a card of which he holds no copy: the first holder
 *   to his left gives him one copy and receives a card of his choice
 *   ("give C", seen only by the receiver; the players between are known
 *   not to hold C); or "no call"; or, with concession=true, "concede"
 *   (the option is off by default): he loses his bid, nobody else
 *   scores, the deal ends.
 * - He then discards as many cards as the widow had, face down ("discard
 *   C"; not the called card, which all know he holds), which count as his
 *   tricks for card points; then names
 *   trumps (not for betel). Melds are scored and shown when play begins;
 *   the soloist leads.
 * - Melds (the book): family (A 10 K Q J of a suit) 100, in trumps 150,
 *   double family (two families of one suit) 1,500; marriage (K Q) 20, in
 *   trumps 40, none for a K Q inside a family; diss (7 of trumps) 10 each;
 *   binokel (Q♠ J♦) 40, double binokel 300; one Ace / King / Queen / Jack
 *   of each suit 100 / 80 / 60 / 40; all eight of a rank 1,000. The
 *   roundhouse (a marriage in every suit, 240) is the sum of its four
 *   marriages (100 with the trump one), four Kings (80) and four Queens
 *   (60), so it scores through those rows. A card may serve melds of
 *   different kinds.
 * - Play: follow and head, else trump and overtrump, else any card;
 *   equal cards: the first played wins. A 11, 10 10, K 4, Q 3, J 2, 7 0,
 *   last trick 10: 250 a deal.
 * - Scoring: the soloist (with his partner at four) scores meld + cards
 *   if that reaches the bid, else loses twice the bid. An opponent (side)
 *   scores its cards, and its meld only if it won a trick. Taking every
 *   trick adds 1,000. A slam bid is made only by taking every trick
 *   (scores meld + cards + 1,000) and fails at the first trick lost
 *   (-2,000, the deal ends). Betel: no trumps, no melds; made by taking
 *   no trick (+betel_value), failed at the first trick taken (-2 x
 *   betel_value, the deal ends); the opponents score nothing.
 * - Game: after a deal a side alone at >= target (1,500) wins; equal at
 *   the top play on; after max_deals the sole best wins, else drawn.
 * - Action ids: 0..31 play face, 32..63 discard, 64..95 call, 96..127
 *   give (faces as meld.h), 128..258 bid min_bid + 10 * (id - 128), 259
 *   pass, 260 bid slam, 261 bid betel, 262 no call, 263 concede, 264..267
 *   name clubs .. spades; two players: 268..290 meld kinds (binokel.h),
 *   291 no meld.
 * - Determinize: redeals what the seat has not seen among the other
 *   hands, the unseen widow and the soloist's discards, keeping shown
 *   melds and the called card in hand, the widow's cards with the soloist
 *   (hand or discards), the lacks play showed, and each meld value.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../meld.h"
#include "../trick.h"
#include "../view.h"
#include "binokel.h"

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 3, 2, 4, NULL,
     "2 (trick-and-draw, no auction), 3 (each for himself) or 4 (partners "
     "opposite)"},
    {"min_bid", PARAM_INT, 200, 200, 300, NULL,
     "the opening bid: 200 or 300 as agreed"},
    {"betel", PARAM_BOOL, 0, 0, 1, NULL,
     "the betel (misere) bid: take no trick"},
    {"betel_value", PARAM_INT, 300, 10, 1000, NULL,
     "what betel is worth in the auction and scores"},
    {"concession", PARAM_BOOL, 0, 0, 1, NULL,
     "the soloist may concede after the widow, losing his bid once"},
    {"target", PARAM_INT, 1500, 1, 100000, NULL, "points to win the game"},
    {"max_deals", PARAM_INT, 40, 1, 500, NULL,
     "deals before the best side wins (a cap that ends games that would run on)"},
};

static const char *const test_specs[] = {
    "binokel(players=2)",
    "binokel(players=4,min_bid=300)",
    "binokel(betel=true,concession=true,target=1)",
    "binokel(players=4,betel=true,concession=true,max_deals=1)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",     "dealer",   "phase",      "bids",   "high_bid",
    "soloist",  "contract", "widow",      "called", "called_from",
    "given",    "discards", "trump",      "melds",  "trick",
    "leader",   "last_trick", "taken",    "tricks_won", "scores",
    "hand_sizes", "stock",   "turnup",     "declared", NULL,
};


/* ==== melds ============================================================ */

static int family_pts(int fam, bool trump)
{
    return fam >= 2 ? 1500 : fam ? (trump ? 150 : 100) : 0;
}

/* Families and marriages, suit by suit; shows their cards. */
static int suit_melds(const uint8_t *h, int trump, uint8_t *shown)
{
    int pts = 0;
    for (int s = 0; s < 4; s++) {
        int fam = meld_runs(h, s, 0x1fu);
        int k = meld_face(s, MELD_K), q = meld_face(s, MELD_Q);
        int m = meld_pairs(h, k, q) - fam;
        pts += family_pts(fam, s == trump) + m * (s == trump ? 40 : 20);
        for (int p = MELD_A; p <= MELD_J; p++)
            meld_need(shown, meld_face(s, p), fam);
        meld_need(shown, k, fam + m);
        meld_need(shown, q, fam + m);
    }
    return pts;
}

/* Meld points of hand h with trumps trump; shown gets the copies used. */
static int meld_value(const uint8_t *h, int trump, uint8_t *shown)
{
    static const uint8_t place[4] = {MELD_A, MELD_K, MELD_Q, MELD_J};
    static const int four[4] = {100, 80, 60, 40};
    int pts = suit_melds(h, trump, shown);
    int qs = meld_face(SPADES, MELD_Q), jd = meld_face(DIAMONDS, MELD_J);
    int bin = meld_pairs(h, qs, jd);
    pts += bin == 2 ? 300 : bin ? 40 : 0;
    meld_need(shown, qs, bin);
    meld_need(shown, jd, bin);
    for (int i = 0; i < 4; i++) {
        int k = meld_around(h, place[i]);
        pts += k == 2 ? 1000 : k ? four[i] : 0;
        for (int s = 0; s < 4; s++)
            meld_need(shown, meld_face(s, place[i]), k);
    }
    if (trump != NO) {
        int diss = meld_face(trump, MELD_7);
        pts += 10 * h[diss];
        meld_need(shown, diss, h[diss]);
    }
    return pts;
}

/* ==== deals ============================================================ */

static int next_seat(const struct binokel_state *st, int s)
{
    return trick_next(s, st->np);
}

static int deal(struct binokel_state *st, const uint8_t *pre, int npre)
{
    uint8_t pack[NCARDS];
    int n = meld_pack_build(pack, PLACES, 2, pre, npre, &st->rng);
    int per = (NCARDS - st->wsize) / st->np;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->known, 0, sizeof st->known);
    memset(st->shown, 0, sizeof st->shown);
    memset(st->played, 0, sizeof st->played);
    memset(st->widow, 0, sizeof st->widow);
    memset(st->discard, 0, sizeof st->discard);
    memset(st->gone, 0, sizeof st->gone);
    memset(st->lacks, 0, sizeof st->lacks);
    memset(st->meld, 0, sizeof st->meld);
    memset(st->taken, 0, sizeof st->taken);
    memset(st->won, 0, sizeof st->won);
    memset(st->meld_obs, 0, sizeof st->meld_obs);
    memset(st->taken_obs, 0, sizeof st->taken_obs);
    memset(st->won_obs, 0, sizeof st->won_obs);
    memset(st->bid_obs, 0, sizeof st->bid_obs);
    memset(st->bid, 0, sizeof st->bid);
    memset(st->declared, 0, sizeof st->declared);
    if (n < 0)
        return n;
    for (int i = 0; i < per * st->np && st->np > 2; i++)
        st->hand[(st->dealer + 1 + i / per) % st->np][pack[i]]++;
    for (int i = per * st->np; i < NCARDS && st->np > 2; i++)
        st->widow[pack[i]]++;
    st->high = 0;
    st->passed = st->nbids = st->discards = 0;
    st->soloist = st->trump = st->called = st->called_from = NO;
    st->given = NO;
    st->given_live = 0;
    st->kind = K_NORMAL;
    st->deals++;
    st->phase = PH_BID;
    st->nstock = 0;
    st->turnup = NO;
    meld_table_start(&st->tb, next_seat(st, st->dealer));
    if (st->np == 2)
        binokel__deal_two(st, pack);
    return 0;
}

/* Keeps the observed scores: at the start, then after each deal. */
static void keep_scores(const struct game *g, struct binokel_state *st)
{
    float target = (float)trick_opt(g, P_TARGET);
    for (int t = 0; t < st->sides; t++)
        st->score_obs[t] = meld_unit(0.5f + st->score[t] / (4 * target));
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct binokel_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->np = (uint8_t)g->dims.players;
    st->sides = st->np == 4 ? 2 : st->np;
    st->wsize = st->np == 4 ? 4 : st->np == 3 ? 3 : 0;
    st->winner = NO;
    keep_scores(g, st);
    return deal(st, deck, ndeck);
}

/* ==== options ========================================================== */


static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[P_PLAYERS], min = (int)p->v[P_MIN_BID];
    if (min != 200 && min != 300) {
        snprintf(err, errlen, "min_bid must be 200 or 300 (got %d)", min);
        return ERR_INVAL;
    }
    trick_dims(d, n, n == 4);
    d->num_actions = NUM_ACTIONS;
    d->max_legal = NBIDS + 3;
    d->obs_size = OBS_SIZE;
    d->max_length = (n == 2 ? NCARDS + 12 : NBIDS + 2 + 2 * n + 8 + NCARDS) *
                    (int)p->v[P_MAX_DEALS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct binokel_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->tb.turn;
}

static int active(const struct binokel_state *st)
{
    return st->np - __builtin_popcount(st->passed);
}

static int legal_bids(const struct game *g, const struct binokel_state *st,
                      int *out)
{
    int n = 0;
    for (int a = A_BID; a < A_BID + NBIDS; a++)
        if (binokel__bid_value(g, a) > st->high)
            out[n++] = a;
    bool forced = active(st) == 1 && !st->high;
    if (!forced)
        out[n++] = A_PASS;
    if (SLAM_VALUE > st->high)
        out[n++] = A_SLAM;
    if (trick_opt(g, P_BETEL) && binokel__bid_value(g, A_BETEL) > st->high)
        out[n++] = A_BETEL;
    return n;
}

static int legal_faces(const uint8_t *h, int base, int skip, int *out)
{
    int n = 0;
    for (int f = 0; f < MELD_FACES; f++)
        if (h[f] && f != skip)
            out[n++] = base + f;
    return n;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct binokel_state *st = vst;
    int n = 0;
    if (st->phase == PH_OVER || seat != st->tb.turn)
        return 0;
    switch (st->phase) {
    case PH_BID:
        return legal_bids(g, st, out);
    case PH_CALL:
        for (int f = 0; f < MELD_FACES; f++)
            if ((PLACES >> meld_place(f) & 1) && !st->hand[seat][f])
                out[n++] = A_CALL + f;
        out[n++] = A_NO_CALL;
        if (trick_opt(g, P_CONCESSION))
            out[n++] = A_CONCEDE;
        return n;
    case PH_GIVE:
        return legal_faces(st->hand[seat], A_GIVE, st->called, out);
    case PH_DISCARD:
        return legal_faces(st->hand[seat], A_DISCARD, st->called, out);
    case PH_NAME:
        for (int s = 0; s < 4; s++)
            out[n++] = A_NAME + s;
        return n;
    case PH_MELD:
        for (int k = 0; k < BK_KINDS; k++)
            if (binokel__can_declare(st, seat, k))
                out[n++] = A_DECLARE + k;
        out[n++] = A_NO_MELD;
        return n;
    default: {
        uint32_t m = meld_playable(st->hand[seat], st->tb.trick,
                                   st->nstock ? 0 : st->tb.ntrick, st->trump);
        for (; m; m &= m - 1)
            out[n++] = __builtin_ctz(m);
        return n;
    }
    }
}

static void check_game_end(const struct game *g, struct binokel_state *st)
{
    int w, sc[MAXP];
    for (int t = 0; t < st->sides; t++)
        sc[t] = st->score[t];
    bool capped = st->deals >= trick_opt(g, P_MAX_DEALS);
    if (!trick_game_over(sc, st->sides, trick_opt(g, P_TARGET), capped, &w))
        return;
    st->phase = PH_OVER;
    st->winner = w < 0 ? DRAWN : (uint8_t)w;
}

static void next_deal(const struct game *g, struct binokel_state *st)
{
    keep_scores(g, st);
    check_game_end(g, st);
    if (st->phase == PH_OVER)
        return;
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    deal(st, NULL, 0);
}

/* Card points of a set of counts (discards). */
static int points_of(const uint8_t *h)
{
    static const uint8_t pts[8] = {11, 10, 4, 3, 2, 0, 0, 0};
    int n = 0;
    for (int f = 0; f < MELD_FACES; f++)
        n += h[f] * pts[meld_place(f)];
    return n;
}

/* Meld + cards per side (meld only with a trick, or for the soloist's
 * side), and the tricks each side won. */
static void side_totals(const struct binokel_state *st, int *tot, int *won)
{
    int ss = binokel__side(st, st->soloist);
    memset(tot, 0, sizeof(int) * MAXP);
    memset(won, 0, sizeof(int) * MAXP);
    for (int s = 0; s < st->np; s++) {
        tot[binokel__side(st, s)] += st->taken[s];
        won[binokel__side(st, s)] += st->won[s];
    }
    tot[ss] += points_of(st->discard);
    for (int s = 0; s < st->np; s++) {
        int t = binokel__side(st, s);
        if (t == ss || won[t])
            tot[t] += st->meld[s];
    }
}

static void score_deal(const struct game *g, struct binokel_state *st)
{
    if (st->np == 2) {
        for (int s = 0; s < 2; s++)
            st->score[s] += st->meld[s] + st->taken[s];
        next_deal(g, st);
        return;
    }
    int tot[MAXP], won[MAXP], ss = binokel__side(st, st->soloist);
    int all = (NCARDS - st->wsize) / st->np;
    side_totals(st, tot, won);
    for (int t = 0; t < st->sides; t++)
        if (won[t] == all)
            tot[t] += SLAM_BONUS;
    if (st->kind == K_BETEL) {
        int v = trick_opt(g, P_BETEL_VALUE);
        st->score[ss] += won[ss] ? -2 * v : v;
    } else {
        bool made = st->kind == K_SLAM ? won[ss] == all : tot[ss] >= st->high;
        st->score[ss] += made ? tot[ss] : -2 * st->high;
        for (int t = 0; t < st->sides; t++)
            if (t != ss)
                st->score[t] += tot[t];
    }
    next_deal(g, st);
}

/* Melds are scored and shown (none in betel); the soloist leads. */
static void start_play(struct binokel_state *st)
{
    for (int s = 0; s < st->np && st->kind != K_BETEL; s++) {
        memset(st->shown[s], 0, MELD_FACES);
        st->meld[s] = (int16_t)meld_value(st->hand[s], st->trump,
                                          st->shown[s]);
        binokel__keep_meld(st, s);
        for (int f = 0; f < MELD_FACES; f++)
            meld_need(st->known[s], f, st->shown[s][f]);
    }
    st->phase = PH_PLAY;
    meld_table_start(&st->tb, st->soloist);
}

/* Whether the deal is decided before its last trick: a lost slam or a
 * betel soloist's side taking a trick. */
static bool decided_early(const struct binokel_state *st, int w)
{
    bool solo_side = binokel__side(st, w) == binokel__side(st, st->soloist);
    return (st->kind == K_SLAM && !solo_side) ||
           (st->kind == K_BETEL && solo_side);
}

static void finish_trick(const struct game *g, struct binokel_state *st)
{
    int pts, per = (NCARDS - st->wsize) / st->np;
    for (int i = 0; i < st->np; i++)
        st->gone[st->tb.trick[i]]++;
    int w = meld_table_close(&st->tb, st->np, st->trump, per, 10, &pts);
    st->taken[w] += (int16_t)pts;
    st->won[w]++;
    st->taken_obs[w] = st->taken[w] / 250.0f;
    st->won_obs[w] = st->won[w] / (float)per;
    if (st->tb.tricks == per || (st->np > 2 && decided_early(st, w)))
        score_deal(g, st);
    else if (st->nstock)
        st->phase = PH_MELD;
}

static void play(const struct game *g, struct binokel_state *st, int f)
{
    int seat = st->tb.turn;
    if (st->tb.ntrick && !st->nstock)
        st->lacks[seat] |= meld_shows_lack(st->tb.trick, st->tb.ntrick, f,
                                           st->trump);
    meld_take(st->hand[seat], st->known[seat], st->played[seat], f);
    if (seat == st->called_from && f == st->given)
        st->given_live = 0;
    if (meld_table_put(&st->tb, f, st->np))
        finish_trick(g, st);
}

/* The auction's next turn, or the soloist takes the widow. */
static void after_call(struct binokel_state *st)
{
    int s = st->tb.turn;
    if (active(st) == 1 && st->high) {
        for (s = 0; st->passed >> s & 1; s++)
            ;
        st->soloist = (uint8_t)s;
        for (int f = 0; f < MELD_FACES; f++)
            st->hand[s][f] = (uint8_t)(st->hand[s][f] + st->widow[f]);
        st->phase = PH_CALL;
        st->tb.turn = (uint8_t)s;
        return;
    }
    do
        s = next_seat(st, s);
    while (st->passed >> s & 1);
    st->tb.turn = (uint8_t)s;
}

static void bid(const struct game *g, struct binokel_state *st, int a)
{
    int seat = st->tb.turn;
    float top = (float)(trick_opt(g, P_MIN_BID) + 10 * (NBIDS - 1));
    st->bid[seat] = (uint8_t)(a - 127);
    st->bid_obs[seat][0] =
        a == A_PASS ? 0 : meld_unit(binokel__bid_value(g, a) / top);
    st->bid_obs[seat][1] = a == A_PASS;
    if (a == A_PASS) {
        st->passed |= (uint8_t)(1u << seat);
    } else {
        st->high = (uint16_t)binokel__bid_value(g, a);
        st->kind = a == A_SLAM ? K_SLAM : a == A_BETEL ? K_BETEL : K_NORMAL;
    }
    st->nbids++;
    after_call(st);
}

/* The soloist calls face f: the first holder to his left gives a copy. */
static void call(struct binokel_state *st, int f)
{
    int s = next_seat(st, st->soloist);
    while (!st->hand[s][f]) {
        st->lacks[s] |= 1u << f;
        s = next_seat(st, s);
    }
    st->hand[s][f]--;
    st->hand[st->soloist][f]++;
    st->known[st->soloist][f]++;
    st->called = (uint8_t)f;
    st->called_from = (uint8_t)s;
    st->phase = PH_GIVE;
}

static void choose(const struct game *g, struct binokel_state *st, int a)
{
    int s = st->soloist;
    if (a >= A_CALL && a < A_GIVE) {
        call(st, a - A_CALL);
    } else if (a >= A_GIVE && a < A_BID) {
        st->hand[s][a - A_GIVE]--;
        st->hand[st->called_from][a - A_GIVE]++;
        st->given = (uint8_t)(a - A_GIVE);
        st->given_live = 1;
        st->phase = PH_DISCARD;
    } else if (a == A_NO_CALL) {
        st->phase = PH_DISCARD;
    } else if (a == A_CONCEDE) {
        st->score[binokel__side(st, s)] -= st->high;
        next_deal(g, st);
    } else if (a < A_CALL) {
        int f = a - A_DISCARD;
        st->hand[s][f]--;
        st->discard[f]++;
        if (++st->discards == st->wsize) {
            st->phase = PH_NAME;
            if (st->kind == K_BETEL)
                start_play(st);
        }
    } else {
        st->trump = (uint8_t)(a - A_NAME);
        start_play(st);
    }
}

static int apply(const struct game *g, void *vst, int a)
{
    struct binokel_state *st = vst;
    if (a < A_DISCARD) {
        play(g, st, a);
    } else if (st->phase == PH_MELD) {
        if (a != A_NO_MELD)
            binokel__declare(st, a - A_DECLARE);
        binokel__draw(st);
    } else if (st->phase == PH_BID) {
        bid(g, st, a);
    } else {
        choose(g, st, a);
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct binokel_state *st = vst;
    bool decided = st->phase == PH_OVER && st->winner != DRAWN;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== determinization ================================================== */

/* A redealt hand must meld what its holder showed. */
static bool meld_fits(const void *vst, int s, const uint8_t *hidden)
{
    const struct binokel_state *st = vst;
    if (s >= st->np || st->np == 2 || st->phase != PH_PLAY ||
        st->kind == K_BETEL)
        return true; /* two players declare melds at will: no check */
    return meld_redeal_fits(st->known[s], hidden, st->played[s], st->trump,
                            st->meld[s], st->shown[s], meld_value);
}

/* What seat holds for sure of seat s's hand: the public known cards, and
 * the card it gave back while the receiver holds it. */
static void fixed_in(const struct binokel_state *st, int seat, int s,
                     uint8_t *fix)
{
    memcpy(fix, st->known[s], MELD_FACES);
    if (seat == st->soloist && s == st->called_from && st->given_live &&
        fix[st->given] < st->hand[s][st->given])
        fix[st->given]++;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct binokel_state *st = vst;
    uint8_t pool[MELD_FACES], fix[MAXP + 1][MELD_FACES] = {{0}};
    uint8_t out[MAXP + 1][MELD_FACES];
    uint8_t stock[MELD_FACES] = {0};
    uint8_t *extra = st->np == 2         ? stock
                     : st->soloist == NO ? st->widow
                                         : st->discard;
    bool hide_extra = st->soloist != seat;
    for (int i = 0; i + 1 < st->nstock; i++) /* the last is the turned card */
        stock[st->stock[i]]++;
    int room[MAXP + 1] = {0};
    uint32_t lacks[MAXP + 1] = {0};
    memcpy(lacks, st->lacks, sizeof st->lacks);
    for (int f = 0; f < MELD_FACES; f++)
        pool[f] = (uint8_t)((PLACES >> meld_place(f) & 1) ? 2 : 0);
    for (int s = 0; s <= st->np; s++) {
        uint8_t *h = s < st->np ? st->hand[s] : extra;
        if (s < st->np && s != seat)
            fixed_in(st, seat, s, fix[s]);
        else if (s == seat || !hide_extra)
            memcpy(fix[s], h, MELD_FACES);
        room[s] = meld_size(h) - meld_size(fix[s]);
    }
    for (int f = 0; f < MELD_FACES; f++) {
        pool[f] = (uint8_t)(pool[f] - st->gone[f]);
        for (int i = 0; i < st->tb.ntrick; i++)
            pool[f] = (uint8_t)(pool[f] - (st->tb.trick[i] == f));
        for (int s = 0; s <= st->np; s++)
            pool[f] = (uint8_t)(pool[f] - fix[s][f]);
    }
    if (st->np == 2 && st->nstock)
        pool[st->turnup]--;
    if (!meld_deal_hidden(pool, st->np + 1, room, lacks, meld_fits, st, rng,
                          out))
        goto out_seed;
    for (int s = 0; s <= st->np; s++) {
        uint8_t *h = s < st->np ? st->hand[s] : extra;
        for (int f = 0; f < MELD_FACES && room[s] > 0; f++)
            h[f] = (uint8_t)(fix[s][f] + out[s][f]);
    }
    if (st->np == 2)
        binokel__redeal_stock(st, stock, rng);
out_seed:
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct binokel_state *st = vst;
    char h[200];
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d, soloist %d, bid %d, trumps %s.\n",
                 st->dealer, st->soloist == NO ? -1 : st->soloist, st->high,
                 st->trump == NO ? "-" : meld_suit_word(st->trump));
    text_appendf(buf, len, &k, "Scores:");
    for (int t = 0; t < st->sides; t++)
        text_appendf(buf, len, &k, " %d", st->score[t]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < st->np; s++) {
        if (seat >= 0 && s != seat)
            continue;
        meld_format_hand(st->hand[s], h, sizeof h);
        text_appendf(buf, len, &k, "Seat %d (meld %d): %s\n", s, st->meld[s],
                     h);
    }
    if (seat < 0 && st->nstock) { /* all: the stock in drawing order */
        text_appendf(buf, len, &k, "Stock:");
        for (int i = 0; i < st->nstock; i++) {
            meld_face_name(st->stock[i], h, sizeof h);
            text_appendf(buf, len, &k, " %s", h);
        }
        text_appendf(buf, len, &k, "\n");
    }
    if (st->np > 2 && (seat < 0 || seat == st->soloist)) {
        meld_format_hand(st->soloist == NO ? st->widow : st->discard, h,
                         sizeof h);
        text_appendf(buf, len, &k, "%s: %s\n",
                     st->soloist == NO ? "Widow" : "Discards", h);
    }
    return (int)k;
}

/* The estimate op: each side's lead in points over the best other side, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct binokel_state *st = vst;
    double pts[MAXP];
    for (int t = 0; t < st->sides; t++)
        pts[t] = st->score[t];
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* The deals op: deals begun. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct binokel_state *st = vst;
    return st->deals;
}

/* ==== the descriptor =================================================== */

const struct game_def binokel_game = {
    .name = "binokel",
    .long_name = "Binokel",
    .source = "D. Parlett, The Penguin Book of Card Games, Binokel; see "
              "docs/games/binokel.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct binokel_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &meld_codec_binokel,
    .view_keys = view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = binokel__observe,
    .obs_layout = binokel__obs_layout,
    .view = binokel__view,
    .action_name = binokel__action_name,
    .determinize = determinize,
    .describe = describe,
    .deals = deals,
    .estimate = estimate,
};
