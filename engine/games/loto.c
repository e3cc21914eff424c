/* loto.c — Loto (and Keno, "American Loto"): 24 cards of fifteen numbers,
 * ninety balls drawn from a bag, and the two methods of play in the book.
 *
 * Source: W. H. Peel, Round Games with Cards (1891), "Loto";
 * docs/games/loto.md states it as played here. Decisions, with their reasons:
 * - One game, option method. The book describes one game, Loto, and "the
 *   two principal" methods of playing it; its Keno remark is the same game
 *   played for stakes. method=loto (default) is the First Method: a race to
 *   cover a row, two rows, then a whole card. method=keno is the Second
 *   Method, "purely a game of luck" played for stakes: drawings of ten
 *   balls paying for every line.
 * - The cards are a fixed table, the same 24 every game: four strips
 *   of six cards, each strip using 1-90 exactly once (so every number is
 *   on four cards, one per strip: 360 = 4 x 90); a card has 3 rows of five
 *   numbers in 9 columns, column c holding c*10..c*10+9 (1-9 in the first,
 *   80-90 in the last, as Fig. 1); numbers ascend down each column of a
 *   card. The table was generated once, offline, from rng seed 1891
 *   (common/rng.h): for each strip, each of its 18 rows in turn takes the
 *   five columns still needing the most numbers (ties broken by a random
 *   16-bit key; this greedy choice always completes), then each column's
 *   numbers are shuffled into the rows using it and sorted down each card.
 *   Cards are numbered 1-24 strip by strip. A table rather than generation
 *   at init: generating cost more than a whole game. (Fig. 1 itself does
 *   not ascend in its first and eighth columns; the order within a column
 *   only decides which row a number sits in.)
 * - Players 2..16 (the book allows up to 24; GAME_MAX_PLAYERS is 16). In
 *   the first method the dealer stands out: he is not a seat.
 * - The one decision: in seat order from seat 0 (the eldest), each
 *   player takes 1, 2, 4 or 6 cards ("take 2"), dealt from the shuffled
 *   24; a choice is legal only when enough cards remain for every later
 *   player to take one. Stake per card: the option stake (default 4, so the
 *   pool divides into quarters) in the first method; 60 counters in
 *   the second. Stakes go into the pool when the cards are taken.
 * - After that every step is the action "call" (covering is automatic:
 *   real-time play becomes turns, docs/games/README.md): one ball drawn from
 *   the state RNG, marked on every card holding it. First method: seat 0 calls
 *   for the standing-out dealer. Second method: drawing d is drawn by seat d
 *   mod players (the book: the eldest first, then the bag passes round).
 * - First method prizes (row_prizes=true, default): a quarter of the pool
 *   to the first to cover one horizontal row of a card, a quarter to the
 *   first to cover two rows of one card, the rest (half) to the first to
 *   cover a whole card, which ends the game. row_prizes=false: the whole
 *   pool to the first full card ("the player who first succeeds in covering
 *   all the numbers on his card"). A player wins a prize with any one of
 *   his cards; "card or cards" is read as one card. Several players on the
 *   same ball split the prize equally; the remainder is carried to the
 *   next prize, and the last prize's remainder is given one chip each to
 *   its winners from seat 0 on (there is no next game to carry it to).
 * - Second method: drawings (default 10) of ten balls each; the balls
 *   go back in the bag after each. After a drawing every line of every
 *   card with k marked numbers pays k counters plus 0 / 5 / 25 / 100 / 250
 *   (abstract, ambo, terne, quaterne, quinterne), paid from the pool seat
 *   by seat from seat 0. If the pool cannot pay a seat, every player pays
 *   60 per card again (as often as needed), except in the last drawing,
 *   where payment stops when the pool is empty (bankruptcy; the seat at the
 *   edge gets what is left). What remains in the pool after the last
 *   drawing goes back to the players by cards taken (an equal share per
 *   card, the odd counters one per card from seat 0 on).
 * - Returns: chips received minus chips paid; zero-sum at the end. The book's
 *   putting knobs aside does not arise: only drawn numbers are marked.
 * - Fixed order for tests and replays: the deck argument mixes card ids
 *   ("card1".."card24", ids 0-23) and balls ("1".."90", ids 24-113). Cards
 *   are dealt in the given order, the rest shuffled; balls are drawn in the
 *   given order before the RNG (at most 90; in the second method the first
 *   ten go to the first drawing and so on, distinct within a drawing).
 *   determinize drops the fixed balls not yet drawn, reshuffles the cards
 *   not yet dealt and reseeds the RNG: nothing else is hidden.
 * - Action ids: 0 "call", 1-4 "take 1", "take 2", "take 4", "take 6".
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "../../common/err.h"
#include "../game.h"
#include "../obs_fill.h"
#include "../view.h"

/* ==== types and constants ============================================== */

#define NUMS 90  /* balls 1..90 */
#define CARDS 24 /* cards in the box */
#define STRIPS 4 /* strips of six cards, each using 1..90 once */
#define STRIP_CARDS 6
#define ROWS 3    /* rows per card */
#define COLS 9    /* decade columns */
#define ROW_LEN 5 /* numbers per row */
#define CARD_LEN (ROWS * ROW_LEN)
#define DRAW_LEN 10   /* balls per drawing, second method */
#define KENO_STAKE 60 /* counters per card, second method */
#define MAX_TAKE 6
#define NO_SEAT (-1)

enum {
    OPT_PLAYERS,
    OPT_METHOD,
    OPT_STAKE,
    OPT_ROW_PRIZES,
    OPT_DRAWINGS,
    OPT_COUNT
};
enum { M_LOTO, M_KENO };
enum { A_CALL, A_TAKE1, A_TAKE2, A_TAKE4, A_TAKE6, NUM_ACTIONS };
enum { PH_TAKE, PH_CALL, PH_OVER };
enum { P_ROW, P_TWO_ROWS, P_FULL, PRIZES };

struct loto_state {
    struct rng rng;                   /* deals and balls after init */
    uint8_t at[NUMS][STRIPS];         /* card*3+row holding number n+1, by
                                         strip (from the table, at init) */
    uint8_t deck[CARDS];              /* card deal order */
    uint8_t dealt;                    /* cards dealt so far */
    int8_t owner[CARDS];              /* seat holding each card, NO_SEAT */
    uint8_t ncards[GAME_MAX_PLAYERS]; /* cards each seat took */
    uint8_t marks[CARDS * ROWS];      /* numbers marked per card row */
    uint8_t bag[NUMS];                /* balls 0..89; [0, ndrawn) drawn */
    uint8_t ndrawn;                   /* balls drawn (this drawing) */
    uint64_t drawn[2];                /* bit b: ball b in bag[0, ndrawn) */
    uint8_t nforced, next_forced;     /* fixed balls given, used */
    uint8_t forced[NUMS];             /* fixed balls 0..89 in order */
    uint8_t phase;                    /* PH_TAKE, PH_CALL or PH_OVER */
    uint8_t actor;                    /* seat to act */
    uint8_t drawings;                 /* second method: drawings settled */
    uint8_t claimed;                  /* first method: prizes won, bits */
    uint16_t winners[PRIZES];         /* first method: seats per prize */
    int32_t pool;                     /* chips in the pool */
    int32_t carry;                    /* remainder carried to next prize */
    int32_t paid[GAME_MAX_PLAYERS];   /* chips each seat put in */
    int32_t got[GAME_MAX_PLAYERS];    /* chips each seat received */
    uint32_t held[GAME_MAX_PLAYERS];  /* bit c: the seat holds card c */
    uint8_t best_row[GAME_MAX_PLAYERS];  /* most marks in one row of a
                                            card the seat holds */
    uint8_t best_card[GAME_MAX_PLAYERS]; /* most marks on one such card */
};

static const int take_count[NUM_ACTIONS] = {0, 1, 2, 4, 6};
static const int line_bonus[ROW_LEN + 1] = {0, 0, 5, 25, 100, 250};

/* ==== options =========================================================== */

static const char *const methods[] = {"loto", "keno", NULL};

static const struct param_def loto_params[OPT_COUNT] = {
    {"players", PARAM_INT, 4, 2, GAME_MAX_PLAYERS, NULL,
     "number of players (the book: up to 24; the dealer stands out)"},
    {"method", PARAM_ENUM, M_LOTO, 0, 0, methods,
     "loto: the book's First Method (rows, two rows, full card); keno: the "
     "Second Method (drawings of ten balls paying per line)"},
    {"stake", PARAM_INT, 4, 1, 1000, NULL,
     "method=loto: chips per card taken (4 divides the pool in quarters)"},
    {"row_prizes", PARAM_BOOL, 1, 0, 1, NULL,
     "method=loto: a quarter of the pool for the first row, a quarter for "
     "two rows, half for the full card; false: all for the full card"},
    {"drawings", PARAM_INT, 10, 1, 100, NULL,
     "method=keno: drawings of ten balls before the game ends"},
};

/* ==== the cards ========================================================= */

/* The 24 cards, strip by strip (cards 1-6, 7-12, 13-18, 19-24 each
 * use 1..90 once), each as three rows of five numbers in column order.
 * Generated once, offline, by the procedure in the file comment. An
 * X-macro, so that the rows and the cards' rows of the tensor below are
 * both expanded from this one list. */
#define LOTO_CARDS(X)                                                     \
    X(13, 22, 60, 71, 84, 34, 49, 52, 78, 86, 8, 16, 28, 58, 66) /* 1 */  \
    X(6, 27, 33, 45, 80, 10, 46, 54, 74, 83, 35, 48, 57, 62, 75) /* 2 */  \
    X(1, 24, 31, 67, 88, 9, 12, 25, 42, 68, 17, 32, 50, 70, 89) /* 3 */   \
    X(3, 18, 20, 47, 81, 30, 53, 65, 73, 87, 19, 21, 39, 55, 69) /* 4 */  \
    X(2, 23, 40, 59, 72, 4, 36, 43, 79, 85, 7, 11, 37, 44, 63) /* 5 */    \
    X(14, 51, 61, 76, 82, 5, 15, 26, 38, 64, 29, 41, 56, 77, 90) /* 6 */  \
    X(24, 33, 43, 70, 81, 11, 47, 57, 60, 89, 13, 35, 63, 78, 90) /* 7 */ \
    X(3, 22, 36, 51, 76, 7, 26, 42, 61, 84, 17, 39, 46, 52, 66) /* 8 */   \
    X(4, 16, 50, 74, 87, 9, 21, 53, 65, 79, 18, 27, 37, 41, 88) /* 9 */   \
    X(1, 15, 32, 54, 71, 8, 25, 45, 64, 82, 38, 49, 58, 68, 83) /* 10 */  \
    X(6, 10, 23, 59, 72, 19, 28, 31, 62, 80, 34, 44, 69, 75, 85) /* 11 */ \
    X(2, 12, 20, 40, 55, 29, 48, 56, 73, 86, 5, 14, 30, 67, 77) /* 12 */  \
    X(27, 32, 49, 54, 81, 12, 55, 68, 78, 84, 5, 36, 69, 79, 86) /* 13 */ \
    X(13, 20, 42, 56, 72, 15, 25, 47, 60, 80, 6, 17, 33, 64, 85) /* 14 */ \
    X(2, 30, 44, 52, 71, 8, 24, 48, 59, 74, 14, 28, 35, 61, 89) /* 15 */  \
    X(38, 53, 62, 76, 83, 4, 10, 22, 40, 67, 9, 29, 46, 58, 88) /* 16 */  \
    X(7, 11, 31, 41, 70, 18, 21, 50, 63, 73, 39, 45, 57, 77, 90) /* 17 */ \
    X(1, 16, 23, 34, 82, 26, 37, 43, 51, 65, 3, 19, 66, 75, 87) /* 18 */  \
    X(14, 33, 54, 74, 81, 26, 34, 47, 62, 83, 7, 18, 65, 77, 90) /* 19 */ \
    X(3, 22, 45, 51, 82, 10, 28, 49, 53, 76, 9, 11, 39, 66, 85) /* 20 */  \
    X(21, 30, 42, 56, 64, 4, 15, 48, 58, 71, 27, 36, 67, 79, 84) /* 21 */ \
    X(13, 20, 35, 55, 80, 2, 24, 40, 68, 75, 5, 19, 37, 69, 89) /* 22 */  \
    X(1, 25, 43, 50, 73, 12, 32, 52, 78, 87, 17, 38, 46, 59, 61) /* 23 */ \
    X(6, 23, 41, 60, 86, 44, 57, 63, 70, 88, 8, 16, 29, 31, 72) /* 24 */

#define LOTO_ROWS(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o)            \
    {{a, b, c, d, e}, {f, g, h, i, j}, {k, l, m, n, o}},
static const uint8_t loto_cards[CARDS][ROWS][ROW_LEN] = {LOTO_CARDS(LOTO_ROWS)};

/* 1/STRIPS if number x is one of the card's fifteen, else 0. */
#define LOTO_ON(x, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o)            \
    ((x) == (a) || (x) == (b) || (x) == (c) || (x) == (d) ||              \
     (x) == (e) || (x) == (f) || (x) == (g) || (x) == (h) ||              \
     (x) == (i) || (x) == (j) || (x) == (k) || (x) == (l) ||              \
     (x) == (m) || (x) == (n) || (x) == (o)                               \
         ? 1.0f / STRIPS                                                   \
         : 0.0f)
#define LOTO_TEN(t, ...)                                                  \
    LOTO_ON(t + 1, __VA_ARGS__), LOTO_ON(t + 2, __VA_ARGS__),             \
        LOTO_ON(t + 3, __VA_ARGS__), LOTO_ON(t + 4, __VA_ARGS__),         \
        LOTO_ON(t + 5, __VA_ARGS__), LOTO_ON(t + 6, __VA_ARGS__),         \
        LOTO_ON(t + 7, __VA_ARGS__), LOTO_ON(t + 8, __VA_ARGS__),         \
        LOTO_ON(t + 9, __VA_ARGS__), LOTO_ON(t + 10, __VA_ARGS__)
#define LOTO_MINE(...)                                                    \
    {LOTO_TEN(0, __VA_ARGS__),  LOTO_TEN(10, __VA_ARGS__),                \
     LOTO_TEN(20, __VA_ARGS__), LOTO_TEN(30, __VA_ARGS__),                \
     LOTO_TEN(40, __VA_ARGS__), LOTO_TEN(50, __VA_ARGS__),                \
     LOTO_TEN(60, __VA_ARGS__), LOTO_TEN(70, __VA_ARGS__),                \
     LOTO_TEN(80, __VA_ARGS__)},
/* Each card as the tensor's "mine" segment would show it alone (1/STRIPS
 * at its numbers), padded to whole 64-byte vectors with zeros. */
#define LOTO_MINE_LEN 96
static _Alignas(64) const float loto_mine[CARDS][LOTO_MINE_LEN] = {
    LOTO_CARDS(LOTO_MINE)};

/* Column of number n (1..90): 1-9, 10-19, ..., 80-90. */
static int column_of(int n)
{
    return n == NUMS ? COLS - 1 : n / 10;
}

/* Fills st->at from the table: where each number sits on each strip. */
static void index_cards(struct loto_state *st)
{
    for (int card = 0; card < CARDS; card++)
        for (int r = 0; r < ROWS; r++)
            for (int i = 0; i < ROW_LEN; i++)
                st->at[loto_cards[card][r][i] - 1][card / STRIP_CARDS] =
                    (uint8_t)(card * ROWS + r);
}

/* ==== static helpers: play ============================================== */

static int nplayers(const struct game *g)
{
    return g->dims.players;
}

static int method(const struct game *g)
{
    return (int)g->params.v[OPT_METHOD];
}

static int stake_per_card(const struct game *g)
{
    return method(g) == M_KENO ? KENO_STAKE : (int)g->params.v[OPT_STAKE];
}

static int caller(const struct game *g, const struct loto_state *st)
{
    return method(g) == M_KENO ? st->drawings % nplayers(g) : 0;
}

static void pay_in(struct loto_state *st, int seat, int chips)
{
    st->paid[seat] += chips;
    st->pool += chips;
}

static void pay_out(struct loto_state *st, int seat, int chips)
{
    st->got[seat] += chips;
    st->pool -= chips;
}

static void take_cards(const struct game *g, struct loto_state *st, int k)
{
    int seat = st->actor;
    for (int i = 0; i < k; i++) {
        int c = st->deck[st->dealt++];
        st->owner[c] = (int8_t)seat;
        st->held[seat] |= 1u << c;
    }
    st->ncards[seat] = (uint8_t)k;
    pay_in(st, seat, k * stake_per_card(g));
    if (++st->actor == nplayers(g)) {
        st->phase = PH_CALL;
        st->actor = (uint8_t)caller(g, st);
    }
}

/* Draws the next ball (0..89): a fixed one if any is left, else at random
 * from those still in the bag (a partial Fisher-Yates step). */
static int draw_ball(struct loto_state *st)
{
    int pos = st->ndrawn, j = pos;
    if (st->next_forced < st->nforced) {
        int b = st->forced[st->next_forced++];
        while (st->bag[j] != b)
            j++;
    } else {
        j = pos + (int)rng_below(&st->rng, (uint32_t)(NUMS - pos));
    }
    uint8_t b = st->bag[j];
    st->bag[j] = st->bag[pos];
    st->bag[pos] = b;
    st->ndrawn++;
    st->drawn[b >> 6] |= (uint64_t)1 << (b & 63);
    return b;
}

/* Marks card row cr (of card), held by seat, keeping the seat's best row
 * and card up to date for the tensor. */
static inline void mark(struct loto_state *st, int cr, int card, int seat)
{
    const uint8_t *m = &st->marks[card * ROWS];
    int row = ++st->marks[cr], sum = m[0] + m[1] + m[2];
    if (row > st->best_row[seat])
        st->best_row[seat] = (uint8_t)row;
    if (sum > st->best_card[seat])
        st->best_card[seat] = (uint8_t)sum;
}

static int full_rows(const struct loto_state *st, int card)
{
    const uint8_t *m = &st->marks[card * ROWS];
    return (m[0] == ROW_LEN) + (m[1] == ROW_LEN) + (m[2] == ROW_LEN);
}

/* Chips prize p is worth before carries: quarters of everything staked,
 * or the whole pool for the full card when row_prizes=false. */
static int prize_value(const struct game *g, const struct loto_state *st, int p)
{
    int total = 0;
    for (int i = 0; i < nplayers(g); i++)
        total += st->paid[i];
    if (!g->params.v[OPT_ROW_PRIZES])
        return total;
    return p == P_FULL ? total - 2 * (total / 4) : total / 4;
}

/* Splits prize p among the seats in mask. */
static void award(const struct game *g, struct loto_state *st, int p,
                  unsigned mask)
{
    int amount = prize_value(g, st, p) + st->carry;
    int k = __builtin_popcount(mask), rest = amount % k;
    st->carry = 0;
    for (int i = 0; i < nplayers(g); i++) {
        if (!(mask >> i & 1))
            continue;
        int extra = p == P_FULL && rest > 0;
        rest -= extra;
        pay_out(st, i, amount / k + extra);
    }
    st->carry = rest;
    st->claimed |= (uint8_t)(1u << p);
    st->winners[p] = (uint16_t)mask;
}

/* First method: marks ball b and pays every prize it wins. */
static void loto_mark(const struct game *g, struct loto_state *st, int b)
{
    unsigned won[PRIZES] = {0};
    int first = g->params.v[OPT_ROW_PRIZES] ? P_ROW : P_FULL;
    for (int s = 0; s < STRIPS; s++) {
        int cr = st->at[b][s], card = cr / ROWS, seat = st->owner[card];
        if (seat == NO_SEAT)
            continue;
        mark(st, cr, card, seat);
        int full = full_rows(st, card);
        for (int p = first; p < PRIZES; p++)
            if (!(st->claimed >> p & 1) && full > p)
                won[p] |= 1u << seat;
    }
    for (int p = first; p < PRIZES; p++)
        if (won[p])
            award(g, st, p, won[p]);
    if (st->claimed >> P_FULL & 1)
        st->phase = PH_OVER;
}

/* Second method: what each seat's lines pay after a drawing. */
static void keno_owed(const struct loto_state *st, int *owed)
{
    for (int card = 0; card < CARDS; card++) {
        if (st->owner[card] == NO_SEAT)
            continue;
        for (int r = 0; r < ROWS; r++) {
            int k = st->marks[card * ROWS + r];
            owed[st->owner[card]] += k + line_bonus[k];
        }
    }
}

/* Everyone pays the stake for his cards again (the pool ran dry). */
static void recontribute(const struct game *g, struct loto_state *st)
{
    for (int i = 0; i < nplayers(g); i++)
        pay_in(st, i, KENO_STAKE * st->ncards[i]);
}

/* After the last drawing: the pool goes back per card taken. */
static void keno_refund(const struct game *g, struct loto_state *st)
{
    int cards = st->dealt, share = st->pool / cards;
    int rest = st->pool - share * cards;
    for (int i = 0; i < nplayers(g); i++) {
        int extra = rest < st->ncards[i] ? rest : st->ncards[i];
        rest -= extra;
        pay_out(st, i, share * st->ncards[i] + extra);
    }
}

static void keno_settle(const struct game *g, struct loto_state *st)
{
    int owed[GAME_MAX_PLAYERS] = {0};
    bool last = st->drawings + 1 == (int)g->params.v[OPT_DRAWINGS];
    keno_owed(st, owed);
    for (int i = 0; i < nplayers(g); i++) {
        while (!last && st->pool < owed[i])
            recontribute(g, st);
        pay_out(st, i, owed[i] < st->pool ? owed[i] : st->pool);
    }
    st->drawings++;
    if (last) {
        keno_refund(g, st);
        st->phase = PH_OVER;
    } else {
        st->actor = (uint8_t)caller(g, st);
    }
}

/* Second method: one ball of the current drawing, settled at the tenth;
 * the board is cleared when the next drawing starts. */
static void keno_call(const struct game *g, struct loto_state *st)
{
    if (st->ndrawn == DRAW_LEN) {
        st->ndrawn = 0;
        st->drawn[0] = st->drawn[1] = 0;
        memset(st->marks, 0, sizeof st->marks);
        memset(st->best_row, 0, sizeof st->best_row);
        memset(st->best_card, 0, sizeof st->best_card);
    }
    int b = draw_ball(st);
    for (int s = 0; s < STRIPS; s++) {
        int cr = st->at[b][s], card = cr / ROWS, seat = st->owner[card];
        if (seat != NO_SEAT)
            mark(st, cr, card, seat);
    }
    if (st->ndrawn == DRAW_LEN)
        keno_settle(g, st);
}

/* ==== API: setup ======================================================== */

static int loto_configure(const struct param_values *p, struct game_dims *d,
                          char *err, size_t errlen)
{
    int n = (int)p->v[OPT_PLAYERS], draws = (int)p->v[OPT_DRAWINGS];
    bool keno = p->v[OPT_METHOD] == M_KENO;
    if (keno && (p->set[OPT_STAKE] || p->set[OPT_ROW_PRIZES]))
        return err_set(err, errlen, ERR_INVAL,
                       "stake and row_prizes belong "
                       "to method=loto (method=keno stakes 60 per card)");
    if (!keno && p->set[OPT_DRAWINGS])
        return err_set(err, errlen, ERR_INVAL, "drawings needs method=keno");
    d->players = n;
    d->teams = n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)i;
    d->num_actions = NUM_ACTIONS;
    d->max_legal = 4;
    d->obs_size = 4 * n + 2 + 2 * NUMS + 1 + (keno ? 2 : 3);
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = n + (keno ? draws * DRAW_LEN : NUMS);
    /* Second method: one initial stake plus at most 13 more per drawing
     * (a drawing owes at most 765 per card, a round of stakes brings 60). */
    double rounds = keno ? 1 + 13.0 * draws : 1;
    double stake = keno ? KENO_STAKE : p->v[OPT_STAKE];
    d->ret_low = -MAX_TAKE * stake * rounds;
    d->ret_high = (CARDS - 1) * stake * rounds;
    return 0;
}

/* Splits the deck argument into cards to deal first and balls to draw
 * first; refuses repeats (balls: within one drawing). */
static int split_deck(const struct game *g, struct loto_state *st,
                      const uint8_t *deck, int ndeck, uint8_t *cards,
                      int *ncards)
{
    int span = method(g) == M_KENO ? DRAW_LEN : NUMS;
    *ncards = 0;
    for (int i = 0; i < ndeck; i++) {
        if (deck[i] < CARDS) {
            cards[(*ncards)++] = deck[i];
            continue;
        }
        int b = deck[i] - CARDS;
        if (b >= NUMS || st->nforced == NUMS)
            return ERR_INVAL;
        for (int j = st->nforced - st->nforced % span; j < st->nforced; j++)
            if (st->forced[j] == b)
                return ERR_INVAL;
        st->forced[st->nforced++] = (uint8_t)b;
    }
    return 0;
}

static int loto_init(const struct game *g, void *vst, uint64_t seed,
                     const uint8_t *deck, int ndeck)
{
    struct loto_state *st = vst;
    uint8_t cards[NUMS + CARDS];
    int ncards;
    memset(st, 0, sizeof *st);
    index_cards(st);
    for (int i = 0; i < NUMS; i++)
        st->bag[i] = (uint8_t)i;
    memset(st->owner, NO_SEAT, sizeof st->owner);
    rng_seed(&st->rng, seed);
    if (ndeck < 0 || ndeck > NUMS + CARDS)
        return ERR_INVAL;
    int rc = split_deck(g, st, deck, ndeck, cards, &ncards);
    if (rc)
        return rc;
    return deck_build(st->deck, CARDS, cards, ncards, &st->rng);
}

/* ==== API: play ========================================================= */

static uint32_t loto_to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct loto_state *st = vst;
    return st->phase == PH_OVER ? 0 : 1u << st->actor;
}

static int loto_legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct loto_state *st = vst;
    if (!(loto_to_move(g, vst) >> seat & 1))
        return 0;
    if (st->phase == PH_CALL) {
        out[0] = A_CALL;
        return 1;
    }
    /* Leave at least one card for every player still to take. */
    int room = CARDS - st->dealt - (nplayers(g) - 1 - seat), n = 0;
    for (int a = A_TAKE1; a <= A_TAKE6; a++)
        if (take_count[a] <= room)
            out[n++] = a;
    return n;
}

static int loto_apply(const struct game *g, void *vst, int action)
{
    struct loto_state *st = vst;
    if (action != A_CALL)
        take_cards(g, st, take_count[action]);
    else if (method(g) == M_KENO)
        keno_call(g, st);
    else
        loto_mark(g, st, draw_ball(st));
    return 0;
}

static void loto_returns(const struct game *g, const void *vst, double *out)
{
    const struct loto_state *st = vst;
    for (int i = 0; i < nplayers(g); i++)
        out[i] = st->got[i] - st->paid[i];
}

/* ==== API: observation ================================================== */

/* Offsets of the tensor's segments for n players. */
struct layout {
    int to_move, cards, phase, drawn, mine, best_row, best_card, pool, tail;
};

static struct layout layout_of(int n)
{
    struct layout L;
    L.to_move = 0;
    L.cards = n;
    L.phase = 2 * n;
    L.drawn = L.phase + 2;
    L.mine = L.drawn + NUMS;
    L.best_row = L.mine + NUMS;
    L.best_card = L.best_row + n;
    L.pool = L.best_card + n;
    L.tail = L.pool + 1;
    return L;
}

/* k / MAX_TAKE, k / ROW_LEN and k / CARD_LEN for every count they divide,
 * folded at compile time to the floats the divisions give. */
#define LOTO_Q(k, d) ((float)(k) / (d))
#define LOTO_Q5(k, d)                                                     \
    LOTO_Q(k, d), LOTO_Q((k) + 1, d), LOTO_Q((k) + 2, d),                 \
        LOTO_Q((k) + 3, d), LOTO_Q((k) + 4, d)
static const float sixths[MAX_TAKE + 1] = {LOTO_Q5(0, MAX_TAKE),
                                           LOTO_Q(5, MAX_TAKE),
                                           LOTO_Q(6, MAX_TAKE)};
static const float fifths[ROW_LEN + 1] = {LOTO_Q5(0, ROW_LEN),
                                          LOTO_Q(5, ROW_LEN)};
static const float fifteenths[CARD_LEN + 1] = {
    LOTO_Q5(0, CARD_LEN), LOTO_Q5(5, CARD_LEN), LOTO_Q5(10, CARD_LEN),
    LOTO_Q(15, CARD_LEN)};

static void observe_seats(const struct game *g, const struct loto_state *st,
                          int seat, const struct layout *L, float *out)
{
    int n = nplayers(g);
    if (st->phase != PH_OVER) /* a one-hot: only its one is written */
        out[L->to_move + (st->actor < seat ? st->actor - seat + n
                                           : st->actor - seat)] = 1;
    for (int k = 0, i = seat; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
        out[L->cards + k] = sixths[st->ncards[i]];
        out[L->best_row + k] = fifths[st->best_row[i]];
        out[L->best_card + k] = fifteenths[st->best_card[i]];
    }
}

/* Adds 1/STRIPS at a card row's five numbers, written out: no loop
 * overhead (observe runs at every step). */
static inline void add_row(float *out, const uint8_t *row)
{
    out[row[0] - 1] += 1.0f / STRIPS;
    out[row[1] - 1] += 1.0f / STRIPS;
    out[row[2] - 1] += 1.0f / STRIPS;
    out[row[3] - 1] += 1.0f / STRIPS;
    out[row[4] - 1] += 1.0f / STRIPS;
}

/* Per number, the seat's cards that hold it / STRIPS. Each card adds
 * 1/STRIPS, a power of two, so any order of the sums gives the same. */
static void mine_base(const struct loto_state *st, int seat, float *out)
{
    for (uint32_t mine = st->held[seat]; mine; mine &= mine - 1) {
        int c = __builtin_ctz(mine);
        add_row(out, loto_cards[c][0]);
        add_row(out, loto_cards[c][1]);
        add_row(out, loto_cards[c][2]);
    }
}

#if defined(__x86_64__)
/* The same sums, the cards' rows of loto_mine added sixteen numbers at a
 * time in registers, then stored once. */
__attribute__((target("avx512f"))) static void
mine_avx512(const struct loto_state *st, int seat, float *out)
{
    __m512 v[LOTO_MINE_LEN / 16];
#pragma GCC unroll 6
    for (int k = 0; k < LOTO_MINE_LEN / 16; k++)
        v[k] = _mm512_setzero_ps();
    for (uint32_t mine = st->held[seat]; mine; mine &= mine - 1) {
        const float *row = loto_mine[__builtin_ctz(mine)];
#pragma GCC unroll 6
        for (int k = 0; k < LOTO_MINE_LEN / 16; k++)
            v[k] = _mm512_add_ps(v[k], _mm512_load_ps(row + 16 * k));
    }
#pragma GCC unroll 6
    for (int k = 0; k < NUMS / 16; k++)
        _mm512_storeu_ps(out + 16 * k, v[k]);
    _mm512_mask_storeu_ps(out + NUMS / 16 * 16,
                          (__mmask16)((1u << NUMS % 16) - 1), v[NUMS / 16]);
}

static void observe_mine(const struct loto_state *st, int seat, float *out)
{
    if (obs_width_best() == OBS_WIDTH_64)
        mine_avx512(st, seat, out);
    else
        mine_base(st, seat, out);
}
#else
static void observe_mine(const struct loto_state *st, int seat, float *out)
{
    mine_base(st, seat, out);
}
#endif

static void loto_observe(const struct game *g, const void *vst, int seat,
                         float *out)
{
    const struct loto_state *st = vst;
    struct layout L = layout_of(nplayers(g));
    memset(out, 0, sizeof(float) * (size_t)g->dims.obs_size);
    observe_seats(g, st, seat, &L, out);
    out[L.phase] = st->phase == PH_TAKE;
    out[L.phase + 1] = st->phase == PH_CALL;
    const uint64_t drawn[OBS_BITS_WORDS(NUMS)] = {st->drawn[0], st->drawn[1]};
    obs_bits_write(out + L.drawn, drawn, NUMS);
    observe_mine(st, seat, out + L.mine);
    if (method(g) == M_KENO) {
        out[L.pool] = (float)st->pool / (float)(st->pool + CARDS * KENO_STAKE);
        out[L.tail] = (float)st->drawings / (float)g->params.v[OPT_DRAWINGS];
        out[L.tail + 1] = (float)st->ndrawn / DRAW_LEN;
        return;
    }
    out[L.pool] = (float)st->pool / (float)(CARDS * stake_per_card(g));
    out[L.tail + P_ROW] = st->claimed >> P_ROW & 1;
    out[L.tail + P_TWO_ROWS] = st->claimed >> P_TWO_ROWS & 1;
    out[L.tail + P_FULL] = st->claimed >> P_FULL & 1;
}

static int loto_obs_layout(const struct game *g, struct obs_segment *out,
                           int max)
{
    int n = nplayers(g);
    struct layout L = layout_of(n);
    bool keno = method(g) == M_KENO;
    const struct obs_segment seg[] = {
        {"to_move", L.to_move, n,
         "1 for the seat to act; own seat first, "
         "then clockwise (all per-seat segments)"},
        {"cards", L.cards, n, "per seat: cards taken / 6"},
        {"phase", L.phase, 2, "1 while taking cards; 1 while calling"},
        {"drawn", L.drawn, NUMS,
         keno ? "1 for each number drawn in the "
                "current (or last settled) drawing"
              : "1 for each number called"},
        {"mine", L.mine, NUMS, "per number: own cards holding it / 4"},
        {"best_row", L.best_row, n,
         "per seat: most numbers marked in one row of its cards / 5"},
        {"best_card", L.best_card, n,
         "per seat: most numbers marked on one of its cards / 15"},
        {"pool", L.pool, 1,
         keno ? "pool / (pool + 1440)" : "pool / (24 x stake)"},
        keno ? (struct obs_segment){"drawing", L.tail, 2,
                                    "drawings settled / drawings; balls of "
                                    "this drawing / 10"}
             : (struct obs_segment){"prizes", L.tail, 3,
                                    "1 once won: first row, two rows, full "
                                    "card"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== API: view, names, text ============================================ */

/* One card as {"card": 1..24, "rows": [[5 numbers] x 3]}: 32 bytes
 * written at once (numbers 1..90 and card ids are positive fixints). */
static void pack_card(msgpack_packer *pk, int card)
{
    static const char head[] = "\x82\xa4" "card";
    static const char rows[] = "\xa4" "rows\x93";
    char b[13 + ROWS * (ROW_LEN + 1)], *d = b;
    memcpy(d, head, 6);
    d[6] = (char)(card + 1);
    memcpy(d + 7, rows, 6);
    d += 13;
    for (int r = 0; r < ROWS; r++, d += ROW_LEN + 1) {
        d[0] = (char)(0x90 | ROW_LEN);
        memcpy(d + 1, loto_cards[card][r], ROW_LEN);
    }
    view_put(pk, b, (size_t)(d - b));
}

static void pack_cards(const struct game *g, const struct loto_state *st,
                       msgpack_packer *pk)
{
    view_pack_array(pk, (size_t)nplayers(g));
    for (int i = 0; i < nplayers(g); i++) {
        view_pack_array(pk, st->ncards[i]);
        for (int c = 0; c < CARDS; c++)
            if (st->owner[c] == i)
                pack_card(pk, c);
    }
}

static void pack_prizes(const struct loto_state *st, msgpack_packer *pk)
{
    static const char *const names[PRIZES] = {"row", "two rows", "full card"};
    view_pack_array(pk, (size_t)__builtin_popcount(st->claimed));
    for (int p = 0; p < PRIZES; p++) {
        if (!(st->claimed >> p & 1))
            continue;
        view_pack_array(pk, 2);
        view_pack_str(pk, names[p]);
        view_pack_array(pk, (size_t)__builtin_popcount(st->winners[p]));
        for (int i = 0; i < GAME_MAX_PLAYERS; i++)
            if (st->winners[p] >> i & 1)
                view_pack_int(pk, i);
    }
}

/* Takes in seat order, then this drawing's calls with the ball called. */
static void pack_history(const struct game *g, const struct loto_state *st,
                         msgpack_packer *pk)
{
    int takes = 0;
    while (takes < nplayers(g) && st->ncards[takes])
        takes++;
    int who = method(g) == M_KENO && st->ndrawn == DRAW_LEN
                  ? (st->drawings + nplayers(g) - 1) % nplayers(g)
                  : caller(g, st);
    view_pack_array(pk, (size_t)(takes + st->ndrawn));
    for (int i = 0; i < takes; i++)
        view_pack_entry_num(pk, i, "take ", st->ncards[i]);
    if (who >= 128) {
        for (int i = 0; i < st->ndrawn; i++)
            view_pack_entry_num(pk, who, "call ", st->bag[i] + 1);
        return;
    }
    /* The calls, up to 90 entries [who, "call N"], written as the entry
     * helper would (fixarray, fixint, fixstr) and sent in one write. */
    char buf[NUMS * 10], *d = buf;
    for (int i = 0; i < st->ndrawn; i++) {
        int v = st->bag[i] + 1;
        d[0] = (char)0x92;
        d[1] = (char)who;
        d[2] = (char)(0xa0 | (v < 10 ? 6 : 7));
        memcpy(d + 3, "call ", 5);
        d = view_cat_num(d + 8, v);
    }
    view_put(pk, buf, (size_t)(d - buf));
}

static const char *const loto_view_keys[] = {
    "method", "cards", "drawn", "pool", "drawing", "prizes", "history", NULL};

static int loto_view(const struct game *g, const void *vst, int seat,
                     msgpack_packer *pk)
{
    (void)seat;
    const struct loto_state *st = vst;
    view_pack_str(pk, "method");
    view_pack_str(pk, methods[method(g)]);
    view_pack_str(pk, "cards");
    pack_cards(g, st, pk);
    view_pack_str(pk, "drawn");
    uint8_t drawn[NUMS];
    for (int i = 0; i < st->ndrawn; i++)
        drawn[i] = (uint8_t)(st->bag[i] + 1);
    view_pack_u8s(pk, drawn, st->ndrawn);
    view_pack_str(pk, "pool");
    view_pack_int(pk, st->pool);
    view_pack_str(pk, "drawing");
    view_pack_int(pk, st->drawings);
    view_pack_str(pk, "prizes");
    pack_prizes(st, pk);
    view_pack_str(pk, "history");
    pack_history(g, st, pk);
    return 0;
}

static int loto_action_name(const struct game *g, const void *vst, int action,
                            char *buf, size_t len)
{
    (void)g;
    (void)vst;
    if (action == A_CALL)
        return text_fmt(buf, len, "call");
    return text_fmt(buf, len, "take %d", take_count[action]);
}

static void loto_determinize(const struct game *g, void *vst, int seat,
                             struct rng *rng)
{
    (void)g;
    (void)seat;
    struct loto_state *st = vst;
    rng_seed(&st->rng, rng_next(rng));
    st->next_forced = st->nforced;
    rng_shuffle_u8(&st->rng, st->deck + st->dealt, CARDS - st->dealt);
}

/* Writes one card row as nine columns, "." where a column is empty and
 * "*" after a drawn number. */
static void describe_row(const uint8_t *nums, const bool *drawn, char *line,
                         size_t len)
{
    int j = 0;
    size_t used = 0;
    for (int c = 0; c < COLS && used < len; c++) {
        if (j < ROW_LEN && column_of(nums[j]) == c) {
            used += (size_t)snprintf(line + used, len - used, " %3d%c", nums[j],
                                     drawn[nums[j]] ? '*' : ' ');
            j++;
        } else {
            used += (size_t)snprintf(line + used, len - used, "    . ");
        }
    }
}

static size_t describe_card(const struct loto_state *st, int card, char *buf,
                            size_t len)
{
    bool drawn[NUMS + 1] = {false};
    char line[COLS * 6 + 1];
    size_t used = (size_t)snprintf(buf, len, "  card %d:\n", card + 1);
    for (int i = 0; i < st->ndrawn; i++)
        drawn[st->bag[i] + 1] = true;
    for (int r = 0; r < ROWS && used < len; r++) {
        describe_row(loto_cards[card][r], drawn, line, sizeof line);
        used += (size_t)snprintf(buf + used, len - used, "%s\n", line);
    }
    return used;
}

static int loto_describe(const struct game *g, const void *vst, int seat,
                         char *buf, size_t len)
{
    (void)seat;
    const struct loto_state *st = vst;
    size_t used = (size_t)snprintf(
        buf, len, "%s, pool %d, drawings %d, balls %d\n", methods[method(g)],
        st->pool, st->drawings, st->ndrawn);
    for (int i = 0; i < nplayers(g) && used < len; i++) {
        used += (size_t)snprintf(buf + used, len - used,
                                 "seat %d: %d card%s, net %d\n", i,
                                 st->ncards[i], text_s(st->ncards[i]),
                                 st->got[i] - st->paid[i]);
        for (int c = 0; c < CARDS && used < len; c++)
            if (st->owner[c] == i)
                used += describe_card(st, c, buf + used, len - used);
    }
    if (used < len && st->phase != PH_OVER)
        used += (size_t)snprintf(buf + used, len - used, "seat %d to %s\n",
                                 st->actor,
                                 st->phase == PH_TAKE ? "take cards" : "call");
    return (int)(used < len ? used : len - 1);
}

/* ==== the card/ball codec =============================================== */

static int item_name(int id, char *buf, size_t len)
{
    if (id < CARDS)
        return text_fmt(buf, len, "card%d", id + 1);
    return text_fmt(buf, len, "%d", id - CARDS + 1);
}

/* Reads a decimal number of at most two digits at s. */
static int read_small(const char *s, const char **end)
{
    int v = 0, k = 0;
    for (; k < 2 && s[k] >= '0' && s[k] <= '9'; k++)
        v = v * 10 + (s[k] - '0');
    *end = s + k;
    return k ? v : -1;
}

static int item_parse(const char *s, const char **end)
{
    bool card = !strncasecmp(s, "card", 4);
    int v = read_small(card ? s + 4 : s, end);
    if (card)
        return v >= 1 && v <= CARDS ? v - 1 : ERR_SYNTAX;
    return v >= 1 && v <= NUMS ? CARDS + v - 1 : ERR_SYNTAX;
}

static const struct card_codec loto_items = {CARDS + NUMS, 255, item_name,
                                             item_parse};

/* ==== the definition ==================================================== */

static const char *const loto_test_specs[] = {
    "loto(players=16)",
    "loto(players=2,stake=1,row_prizes=false)",
    "loto(method=keno,drawings=1)",
    "loto(method=keno,players=16,drawings=3)",
    "loto(method=keno,players=2)",
    NULL,
};

/* The deals op: the second method's drawings settled, plus the one in
 * play; the first method is one deal. */
static int loto_deals(const struct game *g, const void *vst)
{
    const struct loto_state *st = vst;
    if (method(g) != M_KENO)
        return 1;
    return st->drawings + (st->phase != PH_OVER);
}

const struct game_def loto_game = {
    .name = "loto",
    .long_name = "Loto and Keno",
    .source = "W. H. Peel, Round Games with Cards (1891), Loto; see "
              "docs/games/loto.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct loto_state),
    .params = loto_params,
    .nparams = OPT_COUNT,
    .cards = &loto_items,
    .view_keys = loto_view_keys,
    .test_specs = loto_test_specs,
    .configure = loto_configure,
    .init = loto_init,
    .to_move = loto_to_move,
    .legal = loto_legal,
    .apply = loto_apply,
    .returns = loto_returns,
    .observe = loto_observe,
    .obs_layout = loto_obs_layout,
    .view = loto_view,
    .action_name = loto_action_name,
    .determinize = loto_determinize,
    .describe = loto_describe,
    .deals = loto_deals,
};
