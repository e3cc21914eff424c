/* binocle.c — Binocle, the Swiss one-pack Bezique: 32 cards, melds
 * declared by the winner of a trick, the first marriage fixing trumps,
 * binocle (Q♠ J♦) and grand binocle; two players draw from a stock, four
 * play out the whole pack with the holders of Q♠ and J♦ hidden partners.
 *
 * Rules: D. Parlett, The Penguin Book of Card Games, "Binocle";
 * docs/games/binocle.md states the rules as implemented. Faces, the trick
 * order and the follow-and-head duty come from engine/meld.h (one copy of each
 * card here, held as face sets).
 *
 * Decisions (docs/games/binocle.md explains the main ones):
 * - Two players (default): 8 each, dealt in one block per seat from the
 *   dealer's left; 16 form the stock. Seat 0 deals first, then the deal
 *   alternates; the non-dealer leads. Trick-and-draw: while the
 *   stock lasts any card may be played; the winner of a trick may declare
 *   one meld ("meld ..." or "no meld", asked after every such trick so
 *   that being asked tells nothing), then draws first. Once the stock is
 *   empty nobody melds and the strict duty applies: follow and head,
 *   else trump and overtrump, else any.
 * - Melds: marriage (K Q) 20, the first marriage 40 and its suit
 *   becomes trumps; trump sequence (A 10 K Q J of trumps) 150; binocle
 *   (Q♠ J♦) 40; grand binocle (K♠ Q♠ J♦) 80; four Aces / Kings / Queens /
 *   Jacks (one of each suit) 100 / 80 / 60 / 40. Each meld may be declared
 *   once a deal, a card may serve different melds, and melded cards stay
 *   in hand, shown to all, until played. Before the first marriage there
 *   are no trumps: a card of another suit never wins.
 * - Card points A 11, 10 10, K 4, Q 3, J 2, last trick 10: 130 a deal.
 * - Two players' game: melds and cards add to the scores; after a
 *   deal a player alone at >= target (1,000) wins; equal play on; after
 *   max_deals the higher score wins, else drawn.
 * - Four players: all 32 cards dealt, 8 each; the dealer's left
 *   leads; strict play from the first trick; the winner of each trick but
 *   the last may meld. The holders of Q♠ and J♦ are partners; a player
 *   holding both is a soloist against the other three (option soloist,
 *   on; off: such a deal is thrown in and redealt). Nobody is told who
 *   holds them: a card is known once played or shown in a meld. A game is
 *   one deal (partners change every deal, so no running target between
 *   seats): the side with more meld + card points wins, +1 to each of its
 *   players; the other side gets -1 (against a soloist, the three share
 *   -1/3 each or +1/3 each); equal totals, 0.
 * - Action ids: 0..31 play face (meld.h); 32..35 meld marriage in clubs,
 *   diamonds, hearts, spades; 36 trump sequence; 37 binocle; 38 grand
 *   binocle; 39..42 four Aces, Kings, Queens, Jacks; 43 no meld.
 * - Determinize: redeals the cards the seat has not seen among the other
 *   hands (keeping shown meld cards in hand and the voids and failures to
 *   head that strict play showed) and the stock.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../meld.h"
#include "../obs_fill.h"
#include "../trick.h"
#include "../view.h"

#define MAXP 4
#define NCARDS 32
#define A_MELD 32
#define NMELDS 11
#define A_NO_MELD 43
#define NUM_ACTIONS 44
#define NO MELD_NO
#define ALL 0xffffffffu
#define DRAWN 0xfe

enum { P_PLAYERS, P_SOLOIST, P_TARGET, P_MAX_DEALS, NPARAMS };
enum { PH_PLAY, PH_MELD, PH_OVER };
enum { M_MARRIAGE = 0, M_SEQUENCE = 4, M_BINOCLE, M_GRAND, M_FOUR };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 2, 2, 4, NULL,
     "2 (trick-and-draw) or 4 (Q♠ and J♦ holders are hidden partners)"},
    {"soloist", PARAM_BOOL, 1, 0, 1, NULL,
     "four players: a holder of both Q♠ and J♦ plays alone against three "
     "(false: the deal is thrown in)"},
    {"target", PARAM_INT, 1000, 1, 100000, NULL,
     "two players: points to win the game"},
    {"max_deals", PARAM_INT, 40, 1, 500, NULL,
     "two players: deals before the higher score wins (a cap on long games)"},
};

/* Two players' games have nothing hidden once the stock is empty (about
 * two fifths of their steps), so short two-player sets sit near the
 * conformance suite's 50% bound on "determinize changed what others see";
 * the sets here are the four-player ones. */
static const char *const test_specs[] = {
    "binocle(players=4)",
    "binocle(players=4,soloist=false)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",  "dealer", "phase",      "trump",  "stock",  "declared",
    "melds", "shown",  "partners",   "trick",  "leader", "last_trick",
    "taken", "scores", "hand_sizes", NULL,
};

struct binocle_state {
    struct rng rng;
    uint32_t hand[MAXP];      /* faces held */
    uint32_t known[MAXP];     /* held faces shown in melds */
    uint32_t lacks[MAXP];     /* faces strict play showed a seat lacks */
    uint32_t gone;            /* faces of finished tricks */
    int32_t score[MAXP];      /* two players: game scores */
    int16_t meld[MAXP];       /* meld points this deal */
    int16_t taken[MAXP];      /* card points this deal */
    uint16_t declared;        /* bit per meld id declared this deal */
    uint16_t deals;           /* deals begun */
    uint8_t who[NMELDS];      /* who declared each meld */
    uint8_t stock[NCARDS];    /* stock[0..nstock) is drawn from the top */
    uint8_t nstock;           /* stock cards left */
    uint8_t np;               /* seats */
    uint8_t phase, dealer;
    struct meld_table tb;            /* the trick in play and the last */
    uint8_t trump;            /* NO until the first marriage */
    uint8_t winner;           /* two players: seat, DRAWN, NO */
    uint8_t qs, jd;           /* who was dealt Q♠, J♦ */
};

/* ==== melds ============================================================ */

static uint32_t bit(int suit, int place)
{
    return 1u << meld_face(suit, place);
}

/* The cards meld m needs (0 if it cannot be declared with trumps). */
static uint32_t meld_cards(int m, int trump)
{
    static const uint8_t four[4] = {MELD_A, MELD_K, MELD_Q, MELD_J};
    uint32_t c = 0;
    if (m < M_SEQUENCE)
        return bit(m, MELD_K) | bit(m, MELD_Q);
    if (m == M_SEQUENCE)
        return trump == NO ? 0 : 0x1fu << (8 * trump);
    if (m == M_BINOCLE || m == M_GRAND)
        c = bit(SPADES, MELD_Q) | bit(DIAMONDS, MELD_J);
    if (m == M_GRAND)
        return c | bit(SPADES, MELD_K);
    if (m >= M_FOUR)
        for (int s = 0; s < 4; s++)
            c |= bit(s, four[m - M_FOUR]);
    return c;
}

static int meld_points(int m, int trump)
{
    static const int16_t pts[NMELDS] = {20, 20, 20, 20, 150, 40,
                                        80, 100, 80, 60,  40};
    return m < M_SEQUENCE && trump == NO ? 40 : pts[m];
}

static bool can_meld(const struct binocle_state *st, int seat, int m)
{
    uint32_t c = meld_cards(m, st->trump);
    return c && !(st->declared >> m & 1) && (st->hand[seat] & c) == c;
}

/* ==== deals ============================================================ */

static int next_seat(const struct binocle_state *st, int s)
{
    return trick_next(s, st->np);
}

static uint32_t face(int f)
{
    return 1u << f;
}

#define QS_FACE 27 /* Q♠: spades * 8 + Q */
#define JD_FACE 12 /* J♦: diamonds * 8 + J */

/* Who holds face f now (NO if nobody). */
static int holder(const struct binocle_state *st, int f)
{
    for (int s = 0; s < st->np; s++)
        if (st->hand[s] & face(f))
            return s;
    return NO;
}

/* Bit per seat of the Q♠ / J♦ side (four players). */
static unsigned q_side(const struct binocle_state *st)
{
    return (1u << st->qs) | (1u << st->jd);
}

static int deal(const struct game *g, struct binocle_state *st,
                const uint8_t *pre, int npre)
{
    uint8_t pack[NCARDS];
    int n = meld_pack_build(pack, 0xffu, 1, pre, npre, &st->rng);
    if (n < 0)
        return n;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->known, 0, sizeof st->known);
    memset(st->lacks, 0, sizeof st->lacks);
    memset(st->meld, 0, sizeof st->meld);
    memset(st->taken, 0, sizeof st->taken);
    for (int i = 0; i < 8 * st->np; i++)
        st->hand[(st->dealer + 1 + i / 8) % st->np] |= face(pack[i]);
    st->nstock = (uint8_t)(NCARDS - 8 * st->np);
    memcpy(st->stock, pack + 8 * st->np, st->nstock);
    st->gone = 0;
    st->declared = 0;
    memset(st->who, NO, sizeof st->who);
    st->trump = NO;
    st->phase = PH_PLAY;
    st->deals++;
    meld_table_start(&st->tb, next_seat(st, st->dealer));
    st->qs = (uint8_t)holder(st, QS_FACE);
    st->jd = (uint8_t)holder(st, JD_FACE);
    if (st->np == 4 && !trick_opt(g, P_SOLOIST) && st->qs == st->jd)
        return deal(g, st, NULL, 0); /* thrown in: a fresh shuffle */
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct binocle_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->np = (uint8_t)g->dims.players;
    st->winner = NO;
    return deal(g, st, deck, ndeck);
}

/* ==== options ========================================================== */

enum {
    O_HAND = 0,        /* 32 */
    O_GONE = 32,       /* 32 */
    O_TRICK = 64,      /* 4 x 32 */
    O_KNOWN = 192,     /* 4 x 32 */
    O_DECLARED = 320,  /* 11 */
    O_MELD = 331,      /* 4 */
    O_TRUMP = 335,     /* 4 */
    O_PHASE = 339,     /* 3 */
    O_DEALER = 342,    /* 4 */
    O_TURN = 346,      /* 4 */
    O_STOCK = 350,     /* 1 */
    O_TAKEN = 351,     /* 4 */
    O_SCORES = 355,    /* 4 */
    O_QS = 359,        /* 4: Q♠ holder if known */
    O_JD = 363,        /* 4: J♦ holder if known */
    OBS_SIZE = 367,
};

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[P_PLAYERS];
    if (n != 2 && n != 4) {
        snprintf(err, errlen, "players must be 2 or 4 (got %d)", n);
        return ERR_INVAL;
    }
    trick_dims(d, n, false);
    d->num_actions = NUM_ACTIONS;
    d->max_legal = NMELDS + 1 > 8 ? NMELDS + 1 : 8;
    d->obs_size = OBS_SIZE;
    d->max_length = n == 4 ? NCARDS + 8 : (NCARDS + 8) * (int)p->v[P_MAX_DEALS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct binocle_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->tb.turn;
}

/* Strict play: once the stock is empty (always with four). */
static bool strict(const struct binocle_state *st)
{
    return st->nstock == 0;
}

static uint32_t playable(const struct binocle_state *st, int seat)
{
    uint8_t h[MELD_FACES];
    if (!strict(st))
        return st->hand[seat];
    meld_counts(st->hand[seat], h);
    return meld_playable(h, st->tb.trick, st->tb.ntrick, st->trump);
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct binocle_state *st = vst;
    int n = 0;
    if (st->phase == PH_OVER || seat != st->tb.turn)
        return 0;
    if (st->phase == PH_MELD) {
        for (int m = 0; m < NMELDS; m++)
            if (can_meld(st, seat, m))
                out[n++] = A_MELD + m;
        out[n++] = A_NO_MELD;
        return n;
    }
    for (uint32_t h = playable(st, seat); h; h &= h - 1)
        out[n++] = __builtin_ctz(h);
    return n;
}

static void check_game_end(const struct game *g, struct binocle_state *st)
{
    int w, sc[2] = {st->score[0], st->score[1]};
    bool capped = st->deals >= trick_opt(g, P_MAX_DEALS);
    if (st->np == 4) {
        st->phase = PH_OVER;
        return;
    }
    if (!trick_game_over(sc, 2, trick_opt(g, P_TARGET), capped, &w))
        return;
    st->phase = PH_OVER;
    st->winner = w < 0 ? DRAWN : (uint8_t)w;
}

static void end_deal(const struct game *g, struct binocle_state *st)
{
    for (int s = 0; s < st->np; s++)
        st->score[s] += st->meld[s] + st->taken[s];
    check_game_end(g, st);
    if (st->phase == PH_OVER)
        return;
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    deal(g, st, NULL, 0);
}

/* After a trick's meld step: the winner draws first (two players). */
static void draw(struct binocle_state *st)
{
    int w = st->tb.leader;
    for (int i = 0; i < st->np && st->nstock; i++) {
        int s = (w + i) % st->np;
        st->hand[s] |= face(st->stock[0]);
        memmove(st->stock, st->stock + 1, --st->nstock);
    }
    st->phase = PH_PLAY;
    st->tb.turn = (uint8_t)w;
}

static void finish_trick(const struct game *g, struct binocle_state *st)
{
    int pts, per = NCARDS / st->np;
    for (int i = 0; i < st->np; i++)
        st->gone |= face(st->tb.trick[i]);
    int w = meld_table_close(&st->tb, st->np, st->trump, per, 10, &pts);
    st->taken[w] += (int16_t)pts;
    if (st->tb.tricks == per) {
        end_deal(g, st);
        return;
    }
    bool may_meld = st->np == 4 || st->nstock > 0;
    st->phase = may_meld ? PH_MELD : PH_PLAY;
}

static void play(const struct game *g, struct binocle_state *st, int f)
{
    int seat = st->tb.turn;
    if (strict(st) && st->tb.ntrick)
        st->lacks[seat] |= meld_shows_lack(st->tb.trick, st->tb.ntrick, f,
                                           st->trump);
    st->hand[seat] &= ~face(f);
    st->known[seat] &= ~face(f);
    if (meld_table_put(&st->tb, f, st->np))
        finish_trick(g, st);
}

static void declare(struct binocle_state *st, int m)
{
    int seat = st->tb.turn;
    st->meld[seat] += (int16_t)meld_points(m, st->trump);
    if (m < M_SEQUENCE && st->trump == NO)
        st->trump = (uint8_t)m;
    st->declared |= (uint16_t)(1u << m);
    st->who[m] = (uint8_t)seat;
    st->known[seat] |= meld_cards(m, st->trump);
}

static int apply(const struct game *g, void *vst, int a)
{
    struct binocle_state *st = vst;
    if (a < A_MELD) {
        play(g, st, a);
        return 0;
    }
    if (a != A_NO_MELD)
        declare(st, a - A_MELD);
    if (st->nstock)
        draw(st);
    else
        st->phase = PH_PLAY;
    return 0;
}

/* Four players: +1 to each player of the side with more points, -1 to
 * the other; against a soloist the three share -1/3 or +1/3 each. */
static void returns(const struct game *g, const void *vst, double *out)
{
    const struct binocle_state *st = vst;
    if (st->np == 2) {
        bool decided = st->phase == PH_OVER && st->winner != DRAWN;
        game_returns_winner(g, decided ? st->winner : -1, out);
        return;
    }
    memset(out, 0, sizeof(double) * MAXP);
    if (st->phase != PH_OVER)
        return;
    unsigned side = q_side(st);
    int tot[2] = {0, 0}, k = __builtin_popcount(side);
    for (int s = 0; s < MAXP; s++)
        tot[!(side >> s & 1)] += st->score[s];
    if (tot[0] == tot[1])
        return;
    double win = tot[0] > tot[1] ? 1 : -1;
    for (int s = 0; s < MAXP; s++)
        out[s] = side >> s & 1 ? win : -win / (k == 1 ? 3 : 1);
}

/* ==== what a seat sees ================================================= */

static uint32_t on_table(const struct binocle_state *st)
{
    uint32_t t = st->gone;
    for (int i = 0; i < st->tb.ntrick; i++)
        t |= face(st->tb.trick[i]);
    return t;
}

/* Who holds (or played) face f as seat knows it, given the faces seat
 * has seen: NO if hidden. Four players only: with two, Q♠ and J♦ make no
 * partnership. */
static int seen_holder(const struct binocle_state *st, uint32_t shown, int f,
                       int who)
{
    return st->np == 4 && (shown & face(f)) ? who : NO;
}

/* The faces seat has seen: on the table, in hand, shown in melds. */
static uint32_t seen_faces(const struct binocle_state *st, int seat)
{
    uint32_t shown = on_table(st) | st->hand[seat];
    for (int s = 0; s < st->np; s++)
        shown |= st->known[s];
    return shown;
}

static void put_set(float *out, uint32_t h)
{
    for (; h; h &= h - 1)
        out[__builtin_ctz(h)] = 1;
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct binocle_state *st = vst;
    uint32_t shown = seen_faces(st, seat);
    int np = st->np, qs = seen_holder(st, shown, QS_FACE, st->qs);
    int jd = seen_holder(st, shown, JD_FACE, st->jd);
    float target = np == 2 ? (float)trick_opt(g, P_TARGET) : 500.0f;
    obs_fill_zero(out, OBS_SIZE);
    put_set(out + O_HAND, st->hand[seat]);
    put_set(out + O_GONE, st->gone);
    meld_observe_trick(out + O_TRICK, &st->tb, seat, np);
    for (int r = 0, s = seat; r < np; r++, s = trick_next(s, np)) {
        if (r)
            put_set(out + O_KNOWN + 32 * r, st->known[s]);
        out[O_MELD + r] = meld_unit(st->meld[s] / 500.0f);
        out[O_TAKEN + r] = st->taken[s] / 130.0f;
        out[O_SCORES + r] = meld_unit(st->score[s] / (2 * target));
    }
    put_set(out + O_DECLARED, st->declared);
    if (st->trump != NO)
        out[O_TRUMP + st->trump] = 1;
    out[O_PHASE + st->phase] = 1;
    out[O_DEALER + trick_rel(st->dealer, seat, np)] = 1;
    if (st->phase != PH_OVER)
        out[O_TURN + trick_rel(st->tb.turn, seat, np)] = 1;
    out[O_STOCK] = st->nstock / 16.0f;
    if (qs != NO)
        out[O_QS + trick_rel(qs, seat, np)] = 1;
    if (jd != NO)
        out[O_JD + trick_rel(jd, seat, np)] = 1;
}

static const struct obs_segment layout[] = {
    {"hand", O_HAND, 32, "own cards, suit*8 + place in A 10 K Q J 9 8 7"},
    {"gone", O_GONE, 32, "cards of finished tricks this deal"},
    {"trick", O_TRICK, 128, "trick in play: 4 x 32 by seat (self first)"},
    {"shown", O_KNOWN, 128, "others' cards shown in melds, still held"},
    {"declared", O_DECLARED, 11, "melds declared this deal, by meld id"},
    {"melds", O_MELD, 4, "meld points / 500, clamped (self first)"},
    {"trump", O_TRUMP, 4, "trump suit once fixed, one-hot"},
    {"phase", O_PHASE, 3, "play, meld, over"},
    {"dealer", O_DEALER, 4, "dealer, one-hot (self first)"},
    {"turn", O_TURN, 4, "seat to act, one-hot (self first)"},
    {"stock", O_STOCK, 1, "stock cards left / 16"},
    {"taken", O_TAKEN, 4, "card points / 130 (self first)"},
    {"scores", O_SCORES, 4, "score / (2*target), clamped (self first)"},
    {"q_spades", O_QS, 4, "four players: who holds Q♠, when seen"},
    {"j_diamonds", O_JD, 4, "four players: who holds J♦, when seen"},
};

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    (void)g;
    return obs_layout_copy(out, max, layout,
                           (int)(sizeof layout / sizeof layout[0]));
}

static const char *const meld_names[NMELDS] = {
    "marriage clubs", "marriage diamonds", "marriage hearts",
    "marriage spades", "sequence", "binocle", "grand binocle",
    "four aces", "four kings", "four queens", "four jacks"};

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    char card[8];
    if (a < A_MELD) {
        meld_face_name(a, card, sizeof card);
        return snprintf(buf, len, "play %s", card);
    }
    if (a == A_NO_MELD)
        return snprintf(buf, len, "no meld");
    return snprintf(buf, len, "meld %s", meld_names[a - A_MELD]);
}

static void pack_i16(msgpack_packer *pk, const int16_t *v, int n)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        view_pack_int(pk, v[i]);
}

static void pack_set(msgpack_packer *pk, uint32_t h)
{
    view_pack_array(pk, (size_t)__builtin_popcount(h));
    for (; h; h &= h - 1)
        meld_pack_face(pk, __builtin_ctz(h));
}

static void pack_melds(const struct binocle_state *st, int seat,
                       msgpack_packer *pk)
{
    uint32_t shown = seen_faces(st, seat);
    int qs = seen_holder(st, shown, QS_FACE, st->qs);
    int jd = seen_holder(st, shown, JD_FACE, st->jd);
    view_pack_str(pk, "declared");
    view_pack_array(pk, (size_t)__builtin_popcount(st->declared));
    for (int m = 0; m < NMELDS; m++)
        if (st->declared >> m & 1) {
            view_pack_array(pk, 2);
            view_pack_int(pk, st->who[m]);
            view_pack_str(pk, meld_names[m]);
        }
    view_pack_str(pk, "melds");
    pack_i16(pk, st->meld, st->np);
    view_pack_str(pk, "shown");
    view_pack_array(pk, st->np);
    for (int s = 0; s < st->np; s++)
        pack_set(pk, st->known[s]);
    view_pack_str(pk, "partners");
    view_pack_array(pk, 2);
    view_pack_seat(pk, qs == NO ? -1 : qs);
    view_pack_seat(pk, jd == NO ? -1 : jd);
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    (void)g;
    static const char *const phases[] = {"playing", "meld", "over"};
    const struct binocle_state *st = vst;
    int16_t sizes[MAXP], score[MAXP];
    view_pack_str(pk, "hand");
    pack_set(pk, st->hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    view_pack_str(pk, "trump");
    if (st->trump == NO)
        view_pack_nil(pk);
    else
        view_pack_str(pk, meld_suit_word(st->trump));
    view_pack_str(pk, "stock");
    view_pack_int(pk, st->nstock);
    pack_melds(st, seat, pk);
    meld_pack_table(pk, &st->tb, st->np, st->phase != PH_OVER);
    for (int s = 0; s < st->np; s++) {
        sizes[s] = (int16_t)__builtin_popcount(st->hand[s]);
        score[s] = (int16_t)(st->score[s] > 32767 ? 32767 : st->score[s]);
    }
    view_pack_str(pk, "taken");
    pack_i16(pk, st->taken, st->np);
    view_pack_str(pk, "scores");
    pack_i16(pk, score, st->np);
    view_pack_str(pk, "hand_sizes");
    pack_i16(pk, sizes, st->np);
    return 0;
}

/* ==== determinization ================================================== */

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct binocle_state *st = vst;
    struct card_bins b = {0};
    int bin_seat[MAXP];
    uint32_t pool = 0;
    for (int s = 0; s < st->np; s++) {
        if (s == seat)
            continue;
        pool |= st->hand[s] & ~st->known[s];
        bin_seat[b.nb] = s;
        b.allow[b.nb] = ALL & ~st->lacks[s];
        b.room[b.nb++] =
            __builtin_popcount(st->hand[s] & ~st->known[s]);
    }
    for (int i = 0; i < st->nstock; i++)
        pool |= face(st->stock[i]);
    b.allow[b.nb] = ALL;
    b.room[b.nb++] = st->nstock;
    if (!card_bins_fill(&b, pool, rng))
        goto out_seed;
    for (int i = 0; i + 1 < b.nb; i++)
        st->hand[bin_seat[i]] =
            st->known[bin_seat[i]] | (uint32_t)b.got[i];
    int n = 0;
    for (hand_t h = b.got[b.nb - 1]; h; h &= h - 1)
        st->stock[n++] = (uint8_t)hand_first(h);
    rng_shuffle_u8(rng, st->stock, n);
    if (st->np == 4) {
        int q = holder(st, QS_FACE), j = holder(st, JD_FACE);
        st->qs = q == NO ? st->qs : (uint8_t)q;
        st->jd = j == NO ? st->jd : (uint8_t)j;
    }
out_seed:
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct binocle_state *st = vst;
    uint8_t h[MELD_FACES];
    char text[200];
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d, trumps %s, stock %d.\nScores:",
                 st->dealer, st->trump == NO ? "-" : meld_suit_word(st->trump),
                 st->nstock);
    for (int s = 0; s < st->np; s++)
        text_appendf(buf, len, &k, " %d", st->score[s]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < st->np; s++) {
        if (seat >= 0 && s != seat)
            continue;
        meld_counts(st->hand[s], h);
        meld_format_hand(h, text, sizeof text);
        text_appendf(buf, len, &k, "Seat %d (meld %d): %s\n", s, st->meld[s],
                     text);
    }
    if (seat < 0 && st->nstock) { /* all: the stock in drawing order */
        text_appendf(buf, len, &k, "Stock:");
        for (int i = 0; i < st->nstock; i++) {
            meld_face_name(st->stock[i], text, sizeof text);
            text_appendf(buf, len, &k, " %s", text);
        }
        text_appendf(buf, len, &k, "\n");
    }
    return (int)k;
}

/* The estimate op: two players: each one's lead in points, as a fraction of
 * the target; four play one deal, scored only at its end. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct binocle_state *st = vst;
    if (st->np == 4) {
        returns(g, vst, out);
        return;
    }
    double pts[2] = {st->score[0], st->score[1]};
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* The deals op: deals begun; four players play one deal, however many
 * were thrown in before it. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct binocle_state *st = vst;
    return st->np == 4 ? 1 : st->deals;
}

/* ==== the descriptor =================================================== */

const struct game_def binocle_game = {
    .name = "binocle",
    .long_name = "Binocle",
    .source = "D. Parlett, The Penguin Book of Card Games, Binocle; see "
              "docs/games/binocle.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct binocle_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &meld_codec_binocle,
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
