/* klaberjass.c — Klaberjass (Clob, Clobiosh, Bela): two players, 32 cards,
 * two bidding rounds for trumps, the trump Jack (20) and Nine (14) on top,
 * sequences and bella, the maker's score rule, game 500.
 *
 * Rules: D. Parlett, The Penguin Book of Card Games, "Jack-Nine games"
 * and "Klaberjass" (the Jack 20 / Nine 14 promotion), with the standard
 * Klaberjass of the encyclopedias; docs/games/klaberjass.md states the
 * rules as implemented.
 *
 * Decisions (docs/games/klaberjass.md explains the main ones):
 * - Seats 0 and 1; seat 0 deals first, then the deal alternates (a fixed first
 *   dealer, as in docs/games/README.md, lets tests know who deals). The elder
 *   is the non-dealer.
 * - Pack order: deck[0..2] to the elder, [3..5] to the dealer, [6..8]
 *   elder, [9..11] dealer, deck[12] is turned up; once trumps are fixed
 *   [13..15] go to the elder and [16..18] to the dealer; the other 13 stay
 *   as the stock, never played, and its bottom card deck[31] is then shown
 *   to both (the books' "may be shown": option show_bottom, on).
 * - Bidding: round 1 elder then dealer "take" (the turned suit) or
 *   "pass"; round 2 elder then dealer "name S" (another suit) or "pass";
 *   all pass: the deal is annulled, nobody scores, the deal passes.
 * - Schmeiss (option, off): in round 1 instead of take or pass a player may
 *   "schmeiss": the opponent either "annul"s the deal or "refuse"s, and then
 *   the schmeisser is the maker with the turned suit (the Wikipedia
 *   reading; sources disagree; see docs/games/klaberjass.md).
 * - Exchange: when the turned suit is trumps and the turn-up is not the 7,
 *   the elder and then the dealer are each asked "exchange 7" (if holding
 *   the trump 7) or "keep"; both are asked so that being asked tells
 *   nothing. An exchange is public; the 7 lies face up in the turn-up's
 *   place (out of play), the turn-up joins the hand. The dealer is not
 *   asked once the elder has exchanged.
 * - Sequences (natural order 7 8 9 10 J Q K A): 3 cards 20, 4 or more 50.
 *   Declaring is not a choice: when play starts the best sequence of each
 *   9-card hand is compared (value, then top card, then trump beats
 *   plain); its holder alone scores all his sequences and they are shown
 *   to both; still equal, nobody scores and nothing is shown.
 * - Bella: King and Queen of trumps held by one player score 20 when he
 *   plays the second of them.
 * - Play: elder leads; follow suit; void, trump if possible; on a
 *   trump lead beat it if possible. Trick ranks: trumps J 9 A 10 K Q 8 7,
 *   plain A 10 K Q J 9 8 7. Last trick 10: 152 + 10 = 162 card points.
 * - Score: each side's total is cards + sequences + bella. Maker
 *   higher: both score their own; lower: the opponent scores both; equal:
 *   the maker scores nothing, the opponent his own, or with tie=hold_over
 *   the maker's total is held over to the winner of the next deal that is
 *   not equal.
 * - Game: after a deal, one player alone with >= target (500) wins; equal
 *   scores at or past the target play on. Cap: after max_deals deals
 *   (annulled ones included) the higher score wins; equal, drawn.
 * - Returns: +1 winner, -1 loser, 0 while playing and for a draw.
 * - Action ids: 0..51 play card c (cards.h ids; 32 used); 52 take; 53 pass;
 *   54..57 name clubs/diamonds/hearts/spades; 58 schmeiss; 59 annul; 60
 *   refuse; 61 exchange 7; 62 keep.
 * - Determinize: redeals the opponent's unknown cards and the stock (all
 *   but the shown bottom), keeping shown sequence cards and an exchanged
 *   turn-up in hand, the voids and failures to beat that play showed, and
 *   the sequence comparison's public outcome (retried a bounded number of
 *   times; the true deal is kept if no retry fits).
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../obs_fill.h"
#include "../trick.h"
#include "../view.h"

#define NP 2
#define NCARDS 32
#define HAND 9
#define TRICKS 9
#define A_TAKE 52
#define A_PASS 53
#define A_NAME 54
#define A_SCHMEISS 58
#define A_ANNUL 59
#define A_REFUSE 60
#define A_EXCHANGE 61
#define A_KEEP 62
#define NUM_ACTIONS 63
#define NO_SEAT 0xff
#define HIST_MAX 8
#define DEAL_POINTS 162
#define DET_TRIES 64

/* Ace, 7..King of every suit. */
#define PACK_SUIT ((hand_t)0x1fc1)
#define PACK                                                                   \
    (PACK_SUIT | PACK_SUIT << 13 | PACK_SUIT << 26 | PACK_SUIT << 39)

enum { P_TARGET, P_SCHMEISS, P_TIE, P_SHOW_BOTTOM, P_MAX_DEALS, NPARAMS };
enum { PH_BID1, PH_BID2, PH_SCHMEISS, PH_EXCHANGE, PH_PLAY, PH_OVER };
enum { TIE_OPPONENT, TIE_HOLD_OVER };

static const char *const tie_choices[] = {"opponent", "hold_over", NULL};

enum {
    O_HAND = 0,        /* 32 */
    O_GONE = 32,       /* 32 */
    O_TRICK = 64,      /* 32 */
    O_KNOWN = 96,      /* 32 */
    O_TURNUP = 128,    /* 32 */
    O_BOTTOM = 160,    /* 32 */
    O_TRUMP = 192,     /* 4 */
    O_PHASE = 196,     /* 6 */
    O_MAKER = 202,     /* 2 */
    O_DEALER = 204,    /* 2 */
    O_TURN = 206,      /* 2 */
    O_SEQ = 208,       /* 2: sequence points /100, self first */
    O_BELLA = 210,     /* 2 */
    O_POINTS = 212,    /* 2 */
    O_SCORES = 214,    /* 2 */
    O_PASSES = 216,    /* 4: round 1 and 2 passes, self first */
    O_SCHMEISS = 220,  /* 2 */
    O_HELD = 222,      /* 1 */
    O_TRICKS = 223,    /* 1 */
    O_SEQ_NONE = 224,  /* 1: sequences compared, nobody scores */
    O_EXCHANGED = 225, /* 1: the turn-up was exchanged */
    OBS_SIZE = 226,
};

static const struct param_def params[NPARAMS] = {
    {"target", PARAM_INT, 500, 1, 10000, NULL, "points to win the game"},
    {"schmeiss", PARAM_BOOL, 0, 0, 1, NULL,
     "round-1 schmeiss: the opponent annuls the deal or makes the "
     "schmeisser maker with the turned suit"},
    {"tie", PARAM_ENUM, TIE_OPPONENT, 0, 0, tie_choices,
     "maker's total equal to the opponent's: maker scores nothing "
     "(opponent) or his points are held over to the next deal's winner "
     "(hold_over)"},
    {"show_bottom", PARAM_BOOL, 1, 0, 1, NULL,
     "the bottom card of the stock is shown to both once trumps are fixed"},
    {"max_deals", PARAM_INT, 60, 1, 1000, NULL,
     "deals (annulled ones too) before the higher score wins (a cap that ends games that would run on)"},
};

static const char *const test_specs[] = {
    "klaberjass(schmeiss=true,tie=hold_over)",
    "klaberjass(show_bottom=false,target=1,max_deals=2)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",      "dealer", "phase",  "turnup", "bottom",
    "trump",     "maker",  "bids",   "trick",  "leader",
    "last_trick", "sequences", "bella", "points", "scores",
    "held",      NULL,
};

struct klaberjass_state {
    struct rng rng;
    hand_t hand[NP];       /* cards held */
    hand_t known[NP];      /* cards in hand that both players know of */
    hand_t cant[NP];       /* cards play showed a seat not to hold */
    hand_t played[NP];     /* cards each seat played this deal */
    hand_t gone;           /* cards of finished tricks this deal */
    hand_t shown;          /* the sequence winner's scoring cards */
    int32_t score[NP];     /* game scores */
    int32_t held;          /* points held over (tie=hold_over) */
    int16_t points[NP];    /* card points taken this deal */
    int16_t seq[NP];       /* sequence points this deal */
    int16_t bella[NP];     /* bella points this deal */
    uint8_t deck[NCARDS];  /* this deal's pack; deck[pos..] is the stock */
    uint8_t pos;           /* next stock card */
    uint8_t phase;         /* PH_* */
    uint8_t dealer, turn;  /* seats */
    uint8_t leader;        /* who led the trick in play */
    uint8_t turnup;        /* the face-up card out of play (the 7 after an
                              exchange) */
    uint8_t trump;         /* trump suit, NO_SEAT before it is fixed */
    uint8_t maker;         /* who fixed trumps, NO_SEAT before */
    uint8_t schmeisser;    /* who offered schmeiss, NO_SEAT if none */
    uint8_t seq_winner;    /* who scores sequences, NO_SEAT if nobody */
    uint8_t trick[NP];     /* the trick in play, from its leader */
    uint8_t ntrick;        /* cards in it */
    uint8_t last[NP];      /* the last finished trick, from its leader */
    uint8_t last_leader;   /* its leader, NO_SEAT before the first */
    uint8_t tricks;        /* finished tricks this deal */
    uint8_t bottom_shown;  /* deck[31] is public */
    uint16_t deals;        /* deals begun, annulled ones included */
    uint8_t winner;        /* 0/1, 2 drawn, NO_SEAT while playing */
    uint8_t nhist;         /* entries in hist */
    uint8_t hist[HIST_MAX][2]; /* this deal's [seat, action] before play */
};

/* ==== card facts ====================================================== */

/* Place of card c in the natural order 7 8 9 10 J Q K A (0..7). */
static int natural(int c)
{
    int r = card_rank(c);
    return r == ACE ? 7 : r - 7;
}

/* Card of suit s at natural place k. */
static int card_at(int s, int k)
{
    return card_make(k == 7 ? ACE : k + 7, s);
}

/* Trick strength of c within its suit: trumps J 9 A 10 K Q 8 7, plain
 * A 10 K Q J 9 8 7 (indexed by natural place). */
static int strength(int c, int trump)
{
    static const uint8_t plain[8] = {0, 1, 2, 6, 3, 4, 5, 7};
    static const uint8_t trumps[8] = {0, 1, 6, 4, 7, 2, 3, 5};
    return card_suit(c) == trump ? 8 + trumps[natural(c)] : plain[natural(c)];
}

/* Card points: trumps J 20, 9 14; otherwise A 11, 10 10, K 4, Q 3, J 2. */
static int card_points(int c, int trump)
{
    static const uint8_t pts[8] = {0, 0, 0, 10, 2, 3, 4, 11};
    int k = natural(c);
    if (card_suit(c) == trump && (k == 4 || k == 2))
        return k == 4 ? 20 : 14;
    return pts[k];
}

static hand_t suit_of(int s)
{
    return PACK & suit_mask(s);
}

/* The sequences of h: their points, the best one's key (value, top,
 * trump; 0 if none) and their cards. */
static int sequences(hand_t h, int trump, int *key, hand_t *cards)
{
    int pts = 0;
    *key = 0;
    *cards = 0;
    for (int s = 0; s < 4; s++) {
        for (int k = 0; k < 8;) {
            int len = 0;
            hand_t run = 0;
            while (k + len < 8 && hand_has(h, card_at(s, k + len)))
                run |= card_bit(card_at(s, k + len)), len++;
            if (len < 3) {
                k += len + 1;
                continue;
            }
            int v = len >= 4 ? 50 : 20;
            int kk = v * 32 + (k + len - 1) * 2 + (s == trump);
            pts += v;
            *cards |= run;
            if (kk > *key)
                *key = kk;
            k += len;
        }
    }
    return pts;
}

/* Who alone holds the best sequence of hands h[] (NO_SEAT if nobody);
 * his points and cards go to *pts and *cards. */
static int seq_compare(const hand_t *h, int trump, int *pts, hand_t *cards)
{
    int key[NP], p[NP];
    hand_t c[NP];
    for (int s = 0; s < NP; s++)
        p[s] = sequences(h[s], trump, &key[s], &c[s]);
    *pts = 0;
    *cards = 0;
    if (key[0] == key[1])
        return NO_SEAT;
    int w = key[1] > key[0];
    *pts = p[w];
    *cards = c[w];
    return w;
}

/* ==== deals ============================================================ */

/* The pack for a deal: pre[0..npre) on top (pack cards, distinct), the
 * rest shuffled. Returns 0 or ERR_INVAL. */
static int build_deck(struct klaberjass_state *st, const uint8_t *pre,
                      int npre)
{
    hand_t left = PACK;
    int n = 0;
    if (npre > NCARDS)
        return ERR_INVAL;
    for (int i = 0; i < npre; i++) {
        if (pre[i] >= CARDS_IN_PACK || !hand_has(left, pre[i]))
            return ERR_INVAL;
        left &= ~card_bit(pre[i]);
        st->deck[n++] = pre[i];
    }
    for (int i = n; left; left &= left - 1)
        st->deck[i++] = (uint8_t)hand_first(left);
    rng_shuffle_u8(&st->rng, st->deck + n, NCARDS - n);
    return 0;
}

/* Gives the next k stock cards to seat. */
static void give(struct klaberjass_state *st, int seat, int k)
{
    while (k--)
        st->hand[seat] |= card_bit(st->deck[st->pos++]);
}

static int deal(struct klaberjass_state *st, const uint8_t *pre, int npre)
{
    int rc = build_deck(st, pre, npre), elder = !st->dealer;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->known, 0, sizeof st->known);
    memset(st->cant, 0, sizeof st->cant);
    memset(st->played, 0, sizeof st->played);
    memset(st->points, 0, sizeof st->points);
    memset(st->seq, 0, sizeof st->seq);
    memset(st->bella, 0, sizeof st->bella);
    st->gone = st->shown = 0;
    st->pos = 0;
    give(st, elder, 3);
    give(st, st->dealer, 3);
    give(st, elder, 3);
    give(st, st->dealer, 3);
    st->turnup = st->deck[st->pos++];
    st->phase = PH_BID1;
    st->turn = (uint8_t)elder;
    st->trump = st->maker = st->schmeisser = st->seq_winner = NO_SEAT;
    st->ntrick = st->tricks = st->nhist = st->bottom_shown = 0;
    st->last_leader = NO_SEAT;
    st->deals++;
    return rc;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    (void)g;
    struct klaberjass_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->winner = NO_SEAT;
    return deal(st, deck, ndeck);
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    trick_dims(d, NP, false);
    d->num_actions = NUM_ACTIONS;
    d->max_legal = HAND;
    d->obs_size = OBS_SIZE;
    /* a deal: 4 bids, a schmeiss answer, 2 exchanges, 18 cards */
    d->max_length = 25 * (int)p->v[P_MAX_DEALS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct klaberjass_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->turn;
}

/* The cards the seat to act may play (the Play rule above). */
static hand_t playable(const struct klaberjass_state *st)
{
    hand_t h = st->hand[st->turn];
    if (st->ntrick == 0)
        return h;
    int led = st->trick[0], ls = card_suit(led);
    hand_t follow = h & suit_mask(ls), trumps = h & suit_mask(st->trump);
    if (!follow)
        return trumps ? trumps : h;
    if (ls != st->trump)
        return follow;
    hand_t higher = 0;
    for (hand_t f = follow; f; f &= f - 1)
        if (strength(hand_first(f), st->trump) > strength(led, st->trump))
            higher |= card_bit(hand_first(f));
    return higher ? higher : follow;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct klaberjass_state *st = vst;
    int n = 0, ts = card_suit(st->turnup);
    if (st->phase == PH_OVER || seat != st->turn)
        return 0;
    switch (st->phase) {
    case PH_BID1:
        out[n++] = A_TAKE;
        out[n++] = A_PASS;
        if (trick_opt(g, P_SCHMEISS))
            out[n++] = A_SCHMEISS;
        return n;
    case PH_BID2:
        out[n++] = A_PASS;
        for (int s = 0; s < 4; s++)
            if (s != ts)
                out[n++] = A_NAME + s;
        return n;
    case PH_SCHMEISS:
        out[0] = A_ANNUL;
        out[1] = A_REFUSE;
        return 2;
    case PH_EXCHANGE:
        if (hand_has(st->hand[seat], card_make(7, st->trump)))
            out[n++] = A_EXCHANGE;
        out[n++] = A_KEEP;
        return n;
    default:
        for (hand_t h = playable(st); h; h &= h - 1)
            out[n++] = hand_first(h);
        return n;
    }
}

/* Ends the game when a player alone has reached the target, or at the
 * deals cap. */
static void check_game_end(const struct game *g, struct klaberjass_state *st)
{
    int w, sc[NP] = {st->score[0], st->score[1]};
    bool capped = st->deals >= trick_opt(g, P_MAX_DEALS);
    if (!trick_game_over(sc, NP, trick_opt(g, P_TARGET), capped, &w))
        return;
    st->phase = PH_OVER;
    st->winner = w < 0 ? 2 : (uint8_t)w;
}

static void next_deal(const struct game *g, struct klaberjass_state *st)
{
    check_game_end(g, st);
    if (st->phase == PH_OVER)
        return;
    st->dealer = (uint8_t)!st->dealer;
    deal(st, NULL, 0);
}

/* The maker's rule (the Score rule above) at the end of a deal. */
static void score_deal(const struct game *g, struct klaberjass_state *st)
{
    int m = st->maker, o = !m, tot[NP];
    for (int s = 0; s < NP; s++)
        tot[s] = st->points[s] + st->seq[s] + st->bella[s];
    if (tot[m] == tot[o]) {
        st->score[o] += tot[o];
        if (trick_opt(g, P_TIE) == TIE_HOLD_OVER)
            st->held += tot[m];
        return;
    }
    int w = tot[m] > tot[o] ? m : o;
    if (w == m) {
        st->score[m] += tot[m];
        st->score[o] += tot[o];
    } else {
        st->score[o] += tot[m] + tot[o];
    }
    st->score[w] += st->held;
    st->held = 0;
}

/* Trumps are fixed: the second deal, the bottom card, the exchange. */
static void fix_trump(const struct game *g, struct klaberjass_state *st,
                      int maker, int suit)
{
    int elder = !st->dealer;
    st->maker = (uint8_t)maker;
    st->trump = (uint8_t)suit;
    give(st, elder, 3);
    give(st, st->dealer, 3);
    st->bottom_shown = (uint8_t)trick_opt(g, P_SHOW_BOTTOM);
    st->turn = (uint8_t)elder;
    st->phase = PH_EXCHANGE;
    if (card_suit(st->turnup) != suit || card_rank(st->turnup) == 7)
        st->phase = PH_PLAY;
}

/* Play begins: sequences are compared and the best holder's shown. */
static void start_play(struct klaberjass_state *st)
{
    int pts;
    hand_t cards;
    st->seq_winner = (uint8_t)seq_compare(st->hand, st->trump, &pts, &cards);
    if (st->seq_winner != NO_SEAT) {
        st->seq[st->seq_winner] = (int16_t)pts;
        st->known[st->seq_winner] |= cards;
        st->shown = cards;
    }
    st->phase = PH_PLAY;
    st->leader = st->turn = (uint8_t)!st->dealer;
}

static void bid(const struct game *g, struct klaberjass_state *st, int a)
{
    int seat = st->turn, elder = !st->dealer;
    if (a == A_TAKE || a == A_REFUSE) {
        int maker = a == A_TAKE ? seat : st->schmeisser;
        fix_trump(g, st, maker, card_suit(st->turnup));
    } else if (a >= A_NAME && a < A_NAME + 4) {
        fix_trump(g, st, seat, a - A_NAME);
    } else if (a == A_SCHMEISS) {
        st->schmeisser = (uint8_t)seat;
        st->phase = PH_SCHMEISS;
        st->turn = (uint8_t)!seat;
        return;
    } else if (a == A_ANNUL || (a == A_PASS && seat != elder &&
                                st->phase == PH_BID2)) {
        next_deal(g, st);
        return;
    } else { /* a pass */
        if (seat != elder)
            st->phase = PH_BID2;
        st->turn = (uint8_t)!seat;
        return;
    }
    if (st->phase == PH_PLAY)
        start_play(st);
}

static void exchange(struct klaberjass_state *st, int a)
{
    int seat = st->turn;
    if (a == A_EXCHANGE) {
        int seven = card_make(7, st->trump);
        st->hand[seat] = (st->hand[seat] & ~card_bit(seven)) |
                         card_bit(st->turnup);
        st->known[seat] |= card_bit(st->turnup);
        st->turnup = (uint8_t)seven;
    }
    if (seat == st->dealer || a == A_EXCHANGE)
        start_play(st);
    else
        st->turn = st->dealer;
}

/* Notes what the card c played to a lead shows about the player's hand. */
static void note_follow(struct klaberjass_state *st, int seat, int c)
{
    int led = st->trick[0], ls = card_suit(led), t = st->trump;
    if (card_suit(c) != ls) {
        st->cant[seat] |= suit_mask(ls);
        if (card_suit(c) != t)
            st->cant[seat] |= suit_mask(t);
    } else if (ls == t && strength(c, t) < strength(led, t)) {
        for (hand_t h = suit_of(t); h; h &= h - 1)
            if (strength(hand_first(h), t) > strength(led, t))
                st->cant[seat] |= card_bit(hand_first(h));
    }
}

static void finish_trick(const struct game *g, struct klaberjass_state *st)
{
    int a = st->trick[0], b = st->trick[1], t = st->trump;
    bool second = card_suit(b) == card_suit(a)
                      ? strength(b, t) > strength(a, t)
                      : card_suit(b) == t;
    int w = second ? !st->leader : st->leader;
    st->points[w] += (int16_t)(card_points(a, t) + card_points(b, t));
    st->gone |= card_bit(a) | card_bit(b);
    memcpy(st->last, st->trick, sizeof st->last);
    st->last_leader = st->leader;
    st->ntrick = 0;
    st->leader = st->turn = (uint8_t)w;
    if (++st->tricks < TRICKS)
        return;
    st->points[w] += 10;
    score_deal(g, st);
    next_deal(g, st);
}

static void play(const struct game *g, struct klaberjass_state *st, int c)
{
    int seat = st->turn, t = st->trump;
    int king = card_make(KING, t), queen = card_make(QUEEN, t);
    if (st->ntrick)
        note_follow(st, seat, c);
    st->hand[seat] &= ~card_bit(c);
    st->known[seat] &= ~card_bit(c);
    st->played[seat] |= card_bit(c);
    if ((c == king || c == queen) && hand_has(st->played[seat], king) &&
        hand_has(st->played[seat], queen))
        st->bella[seat] = 20;
    st->trick[st->ntrick++] = (uint8_t)c;
    if (st->ntrick < NP)
        st->turn = (uint8_t)!seat;
    else
        finish_trick(g, st);
}

static int apply(const struct game *g, void *vst, int a)
{
    struct klaberjass_state *st = vst;
    if (a < CARDS_IN_PACK) {
        play(g, st, a);
        return 0;
    }
    if (st->nhist < HIST_MAX) {
        st->hist[st->nhist][0] = st->turn;
        st->hist[st->nhist++][1] = (uint8_t)a;
    }
    if (st->phase == PH_EXCHANGE)
        exchange(st, a);
    else
        bid(g, st, a);
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct klaberjass_state *st = vst;
    bool decided = st->phase == PH_OVER && st->winner != 2;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== what a seat sees ================================================= */

/* Tensor slot of card c: suit * 8 + natural place (the pack's cards
 * only; 2..6, never held, are 0). A table: observe places every card. */
#define SLOTS(s) 8 * (s) + 7, 0, 0, 0, 0, 0, 8 * (s), 8 * (s) + 1, \
                 8 * (s) + 2, 8 * (s) + 3, 8 * (s) + 4, 8 * (s) + 5, 8 * (s) + 6
static const uint8_t slot_of[CARDS_IN_PACK] = {SLOTS(0), SLOTS(1), SLOTS(2),
                                               SLOTS(3)};
#undef SLOTS

static void put(float *out, hand_t h)
{
    for (; h; h &= h - 1)
        out[slot_of[hand_first(h)]] = 1;
}

static float clamp01(float v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void observe_history(const struct klaberjass_state *st, int seat,
                            float *out)
{
    int round = 0;
    for (int i = 0; i < st->nhist; i++) {
        int s = st->hist[i][0], a = st->hist[i][1], r = s != seat;
        if (a == A_PASS)
            out[O_PASSES + 2 * round + r] = 1;
        if (a == A_SCHMEISS)
            out[O_SCHMEISS + r] = 1;
        if (a == A_EXCHANGE)
            out[O_EXCHANGED] = 1;
        if (a == A_PASS && s == st->dealer)
            round = 1;
    }
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct klaberjass_state *st = vst;
    int opp = !seat;
    float target = (float)trick_opt(g, P_TARGET);
    obs_fill_zero(out, OBS_SIZE);
    put(out + O_HAND, st->hand[seat]);
    put(out + O_GONE, st->gone);
    if (st->ntrick)
        out[O_TRICK + slot_of[st->trick[0]]] = 1;
    put(out + O_KNOWN, st->known[opp]);
    out[O_TURNUP + slot_of[st->turnup]] = 1;
    if (st->bottom_shown)
        out[O_BOTTOM + slot_of[st->deck[NCARDS - 1]]] = 1;
    if (st->trump != NO_SEAT)
        out[O_TRUMP + st->trump] = 1;
    out[O_PHASE + st->phase] = 1;
    if (st->maker != NO_SEAT)
        out[O_MAKER + (st->maker != seat)] = 1;
    out[O_DEALER + (st->dealer != seat)] = 1;
    if (st->phase != PH_OVER)
        out[O_TURN + (st->turn != seat)] = 1;
    for (int s = 0; s < NP; s++) {
        int r = s != seat;
        out[O_SEQ + r] = clamp01(st->seq[s] / 100.0f);
        out[O_BELLA + r] = st->bella[s] / 20.0f;
        out[O_POINTS + r] = st->points[s] / (float)DEAL_POINTS;
        out[O_SCORES + r] = clamp01(st->score[s] / (2 * target));
    }
    observe_history(st, seat, out);
    out[O_HELD] = clamp01(st->held / (2.0f * DEAL_POINTS));
    out[O_TRICKS] = st->tricks / (float)TRICKS;
    out[O_SEQ_NONE] = st->phase == PH_PLAY && st->seq_winner == NO_SEAT;
}

static const struct obs_segment layout[] = {
    {"hand", O_HAND, 32, "own cards: suit*8 + place in 7 8 9 10 J Q K A"},
    {"gone", O_GONE, 32, "cards of finished tricks this deal"},
    {"trick", O_TRICK, 32, "the card led to the trick in play"},
    {"known", O_KNOWN, 32, "opponent's cards known to be in his hand"},
    {"turnup", O_TURNUP, 32, "the face-up card out of play"},
    {"bottom", O_BOTTOM, 32, "the stock's shown bottom card"},
    {"trump", O_TRUMP, 4, "trump suit, one-hot clubs..spades"},
    {"phase", O_PHASE, 6, "round 1, round 2, schmeiss, exchange, play, over"},
    {"maker", O_MAKER, 2, "maker (self, opponent)"},
    {"dealer", O_DEALER, 2, "dealer (self, opponent)"},
    {"turn", O_TURN, 2, "seat to act (self, opponent)"},
    {"sequences", O_SEQ, 2, "sequence points /100 (self, opponent)"},
    {"bella", O_BELLA, 2, "bella scored (self, opponent)"},
    {"points", O_POINTS, 2, "card points this deal /162 (self, opponent)"},
    {"scores", O_SCORES, 2, "score/(2*target), clamped (self, opponent)"},
    {"passes", O_PASSES, 4, "passed in round 1 (self, opp), round 2"},
    {"schmeiss", O_SCHMEISS, 2, "offered schmeiss (self, opponent)"},
    {"held", O_HELD, 1, "points held over /324, clamped"},
    {"tricks", O_TRICKS, 1, "finished tricks /9"},
    {"no_sequence", O_SEQ_NONE, 1, "in play and nobody scores sequences"},
    {"exchanged", O_EXCHANGED, 1, "the trump 7 was exchanged"},
};

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    (void)g;
    return obs_layout_copy(out, max, layout,
                           (int)(sizeof layout / sizeof layout[0]));
}

static const char *const suit_words[4] = {"clubs", "diamonds", "hearts",
                                          "spades"};

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    static const char *const words[] = {"take",   "pass",  NULL,
                                        NULL,     NULL,    NULL,
                                        "schmeiss", "annul", "refuse",
                                        "exchange 7", "keep"};
    char card[8];
    (void)g;
    (void)vst;
    if (a < CARDS_IN_PACK) {
        *view_cat_card(card, a) = '\0';
        return text_cat(buf, len, "play ", card);
    }
    if (a >= A_NAME && a < A_NAME + 4)
        return text_cat(buf, len, "name ", suit_words[a - A_NAME]);
    return text_cat(buf, len, words[a - A_TAKE], "");
}

static void pack_pair(msgpack_packer *pk, int a, int b)
{
    view_pack_array(pk, 2);
    view_pack_int(pk, a);
    view_pack_int(pk, b);
}

/* Packs cards trick[0..n) led by leader as [[seat, card], ...]. */
static void pack_trick(msgpack_packer *pk, const uint8_t *trick, int n,
                       int leader)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, (leader + i) % NP);
        view_pack_card(pk, trick[i]);
    }
}

static void pack_sequences(const struct klaberjass_state *st,
                           msgpack_packer *pk)
{
    if (st->seq_winner == NO_SEAT) {
        view_pack_nil(pk);
        return;
    }
    view_pack_array(pk, 3);
    view_pack_int(pk, st->seq_winner);
    view_pack_int(pk, st->seq[st->seq_winner]);
    view_pack_hand(pk, st->shown);
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    static const char *const phases[] = {"round 1", "round 2", "schmeiss",
                                         "exchange", "play", "over"};
    const struct klaberjass_state *st = vst;
    view_pack_str(pk, "hand");
    view_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    view_pack_str(pk, "turnup");
    view_pack_card(pk, st->turnup);
    view_pack_str(pk, "bottom");
    if (st->bottom_shown)
        view_pack_card(pk, st->deck[NCARDS - 1]);
    else
        view_pack_nil(pk);
    view_pack_str(pk, "trump");
    if (st->trump == NO_SEAT)
        view_pack_nil(pk);
    else
        view_pack_str(pk, suit_words[st->trump]);
    view_pack_str(pk, "maker");
    view_pack_seat(pk, st->maker);
    view_pack_str(pk, "bids");
    trick_pack_history(g, st, (const uint8_t(*)[2])st->hist, st->nhist, pk);
    view_pack_str(pk, "trick");
    pack_trick(pk, st->trick, st->ntrick, st->leader);
    view_pack_str(pk, "leader");
    view_pack_seat(pk, st->phase == PH_PLAY ? st->leader : -1);
    view_pack_str(pk, "last_trick");
    pack_trick(pk, st->last, st->last_leader == NO_SEAT ? 0 : NP,
               st->last_leader);
    view_pack_str(pk, "sequences");
    pack_sequences(st, pk);
    view_pack_str(pk, "bella");
    pack_pair(pk, st->bella[0], st->bella[1]);
    view_pack_str(pk, "points");
    pack_pair(pk, st->points[0], st->points[1]);
    view_pack_str(pk, "scores");
    pack_pair(pk, st->score[0], st->score[1]);
    view_pack_str(pk, "held");
    view_pack_int(pk, st->held);
    return 0;
}

/* ==== determinization ================================================== */

/* Whether the redealt hands give the public sequence outcome again. */
static bool same_sequences(const struct klaberjass_state *st)
{
    hand_t h[NP], cards;
    int pts;
    if (st->phase != PH_PLAY)
        return true;
    for (int s = 0; s < NP; s++)
        h[s] = st->hand[s] | st->played[s];
    int w = seq_compare(h, st->trump, &pts, &cards);
    if (w != st->seq_winner)
        return false;
    return w == NO_SEAT || cards == st->shown;
}

/* One redeal of the opponent's unknown cards and the stock. */
static bool redeal(struct klaberjass_state *st, int seat, struct rng *rng)
{
    int opp = !seat, nstock = NCARDS - st->pos;
    hand_t fixed = st->bottom_shown ? card_bit(st->deck[NCARDS - 1]) : 0;
    struct card_bins b = {0};
    b.nb = 2;
    b.allow[0] = PACK & ~st->cant[opp];
    b.room[0] = hand_count(st->hand[opp] & ~st->known[opp]);
    b.allow[1] = PACK;
    b.room[1] = nstock - hand_count(fixed);
    hand_t pool = (st->hand[opp] & ~st->known[opp]);
    for (int i = st->pos; i < NCARDS; i++)
        pool |= card_bit(st->deck[i]);
    pool &= ~fixed;
    if (!card_bins_fill(&b, pool, rng))
        return false;
    st->hand[opp] = st->known[opp] | b.got[0];
    int i = st->pos;
    for (hand_t h = b.got[1]; h; h &= h - 1)
        st->deck[i++] = (uint8_t)hand_first(h);
    rng_shuffle_u8(rng, st->deck + st->pos, i - st->pos);
    return same_sequences(st);
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct klaberjass_state *st = vst, saved = *st;
    for (int k = 0; k < DET_TRIES; k++) {
        if (redeal(st, seat, rng))
            break;
        *st = saved;
    }
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct klaberjass_state *st = vst;
    char h[160], c[8];
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Scores %d-%d (held %d), dealer %d.\n",
                 st->score[0], st->score[1], st->held, st->dealer);
    card_name(st->turnup, c, sizeof c);
    text_appendf(buf, len, &k, "Turn-up %s, trumps %s, maker %d.\n", c,
                 st->trump == NO_SEAT ? "-" : suit_words[st->trump],
                 st->maker == NO_SEAT ? -1 : st->maker);
    for (int s = 0; s < NP; s++) {
        if (seat >= 0 && s != seat)
            continue;
        hand_format(st->hand[s], h, sizeof h);
        text_appendf(buf, len, &k, "Seat %d: %s\n", s, h);
    }
    text_appendf(buf, len, &k, "Points %d-%d, sequences %d-%d, bella %d-%d.\n",
                 st->points[0], st->points[1], st->seq[0], st->seq[1],
                 st->bella[0], st->bella[1]);
    if (st->ntrick) {
        card_name(st->trick[0], c, sizeof c);
        text_appendf(buf, len, &k, "Led by %d: %s\n", st->leader, c);
    }
    return (int)k;
}

/* The estimate op: each player's lead in points, as a fraction of the
 * target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct klaberjass_state *st = vst;
    double pts[NP] = {st->score[0], st->score[1]};
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* The deals op: deals begun, annulled ones included. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct klaberjass_state *st = vst;
    return st->deals;
}

/* ==== the descriptor =================================================== */

const struct game_def klaberjass_game = {
    .name = "klaberjass",
    .long_name = "Klaberjass",
    .source = "D. Parlett, The Penguin Book of Card Games, Jack-Nine games "
              "and Klaberjass; see docs/games/klaberjass.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct klaberjass_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &cards_standard,
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
