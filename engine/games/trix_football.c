/* trix_football.c — Trix Football: two captains play draw-poker hands with
 * twenty Standard Trix cards to move an imaginary ball up a 110-yard field.
 *
 * Sources: Read & White, Rules for the Games Played with the Standard Trix
 * Cards (1904), "Trix Football" (its sections A-L);
 * docs/games/trix_football.md states the rules as played here, and this file
 * follows it point by point.
 *
 * Pack: the Twos to Sixes without blanks (2-1 .. 6-6, 20 cards; trix ids
 * below 28). Hands: Royal = five doubles; Straight Six = five
 * consecutive Sixes (6-6..6-2 or 6-5..6-1); Fours = four doubles; Straight
 * Five = all five Fives; Full Hand = three doubles + two non-doubles of one
 * suit; Straight Fours = all four Fours + any card; Threes = three doubles;
 * Flush = five Sixes not consecutive; Pair = two doubles. A hand is worth its
 * highest matching category. Only Pair vs Pair can tie on category; the
 * non-doubles are compared from the highest by (suit, card name), i.e. by
 * trix id. Neither side with a Pair: nobody is "better".
 *
 * Field: positions are half-yards from seat 0's goal line, 0..220;
 * seat 0 attacks towards 220. A touchdown needs the ball strictly beyond
 * the goal line, a safety strictly behind one's own.
 *
 * Deal: the dealer is the side putting the ball in play (kicker,
 * side in possession, side trying for goal). deck[0] goes to the
 * non-dealer, deck[1] to the dealer, alternately, five each; deck[10..19]
 * is the reserve, drawn from deck[10] on, non-dealer first. Discards are
 * simultaneous and hidden (GAME_SIMULTANEOUS, apply_joint); the final hands
 * are then shown. Every deal shuffles afresh; for scripted tests the deck
 * prefix may hold several deals of 20 cards (codec max_copies = 8): deal k
 * uses deck[20k..20k+20) when given (a shorter last chunk is completed at
 * random). ERR_INVAL when a chunk repeats a card or holds a card outside
 * the 20.
 *
 * Decisions where the sources are silent (besides those
 * docs/games/trix_football.md lists):
 * - First chooser (kick or receive): the captains draw, the lowest sum
 *   choosing; here a seeded random seat (game_first_dealer, not the shuffle
 *   stream), and seat 0 when an explicit deck is given. Tests read it from
 *   to_move.
 * - Kick-offs, free kicks, safety kicks, tries and punt-return field-goal
 *   tries have no play call: the deal is dealt at once.
 * - "yield 20" is offered only on 2nd or 3rd down (on 1st down it
 *   would only lose ground); it moves the ball back 20 yards and restarts
 *   at 1st down, 5 yards to gain. Yielding behind one's own goal line is a
 *   safety.
 * - A punt that would land beyond the receiver's goal line is brought out
 *   to the receiver's 25 (a touchback; the book never says). A punt the
 *   punters keep (J.4: they "go forward twenty-five yards and hold the
 *   ball") over the goal line is a touchdown, as a rush that far is.
 * - Punt kept with Threes / Straight Fours (J.4) and every change of
 *   possession start a 1st down with 5 yards to gain.
 * - The punt-return field-goal try (K.3) is a deal of its own dealt by the
 *   trier; it succeeds with Threes or better, is not blocked, and counts on
 *   the clock. A failed try leaves the punter's ball at the landing spot.
 * - Field goal range (K.1, K.2) is measured to the opponent's goal line:
 *   within 25 yards needs Threes+, within 45 yards Full Hand+; the call is
 *   offered only within 45 yards.
 * - Clock: plays_per_half deals per half, tries excluded; a try owed at
 *   the whistle is still taken. The second half kicks off at once (no
 *   choice) by the side that did not kick off first (H.4).
 * - sudden_death (option): a tie at full time plays an extra period of
 *   plays_per_half deals kicked off by the first kicker; the first score
 *   ends the game; still tied after it → draw.
 * - Returns: +1 win, -1 loss, 0 draw, 0 until the end.
 * - A field-goal try is blocked by any better defending hand (K.1), even
 *   when the kicker holds no Pair; a punt is blocked only by a better
 *   Straight Four or more (J.5).
 * - View: "ball" and "to_go" are in half-yards ("ball" from seat 0's goal
 *   line); "history" holds the current play's public actions (kick or
 *   receive, yield, call); the discards resolve the deal at once, so what
 *   is public of them (the hands shown) is in "last_hands",
 *   "last_categories", "last_result" and "last_half_yards". Only the own
 *   hand is shown while discarding.
 * - Determinization resamples the opponent's hand and the reserve's order
 *   from the fifteen cards the seat does not hold (nothing else is hidden:
 *   every deal is shuffled afresh) and drops any scripted later deals.
 *
 * Action ids: 0 "kick", 1 "receive", 2 "rush", 3 "punt", 4 "field goal",
 * 5 "yield 20", 6+m discard the cards at the 1-based slots of mask m of the
 * hand sorted by card id ("stand" for m = 0, "discard 1 3" for m = 5); the
 * discard names do not show cards because both captains act at once.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../trick.h"
#include "../trix_pack.h"
#include "../view.h"
#include "trix_football.h"

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 2, 2, 2, NULL,
     "the two captains (sides' other members only watch)"},
    {"plays_per_half", PARAM_INT, 35, 1, 200, NULL,
     "deals per half, tries excluded"},
    {"sudden_death", PARAM_BOOL, 0, 0, 1, NULL,
     "a tie at full time plays one more period; first score wins"},
};

static const char *const test_specs[] = {
    "trix_football(plays_per_half=3,sudden_death=true)",
    "trix_football(plays_per_half=1,sudden_death=true)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",
    "dealer",
    "phase",
    "play",
    "possession",
    "ball",
    "down",
    "to_go",
    "score",
    "period",
    "plays_left",
    "last_hands",
    "last_categories",
    "last_result",
    "last_half_yards",
    "history",
    NULL,
};

/* Yards gained by the better offensive hand (I.3), in half-yards; -1 is an
 * end run for a touchdown. */
static const int16_t gain_tab[NCAT] = {0, 10, 15, 20, 30, 50, 60, 70, -1, -1};

/* ==== helpers ========================================================== */

/* Ball position measured from side s's own goal line. */
int trix_football__rel(const struct tf_state *st, int s)
{
    return s == 0 ? st->pos : FIELD - st->pos;
}

static void set_rel(struct tf_state *st, int s, int x)
{
    st->pos = (int16_t)(s == 0 ? x : FIELD - x);
}

static void note(struct tf_state *st, int seat, int action)
{
    if (st->nhist >= NHIST)
        return;
    st->hist[st->nhist][0] = (uint8_t)seat;
    st->hist[st->nhist++][1] = (uint8_t)action;
}

/* ==== hands ============================================================ */

static uint32_t cards_of_suit(int s)
{
    uint32_t b = 0;
    for (int n = 1; n <= s; n++)
        b |= 1u << trix_card(s, n);
    return b;
}

static uint32_t doubles_bits(void)
{
    uint32_t b = 0;
    for (int s = 2; s <= 6; s++)
        b |= 1u << trix_card(s, s);
    return b;
}

/* Highest category of a five-card hand. */
int trix_football__classify(uint32_t h)
{
    int nd = __builtin_popcount(h & doubles_bits());
    uint32_t sixes = h & cards_of_suit(6), rest = h & ~doubles_bits();
    if (nd == 5)
        return C_ROYAL;
    if (__builtin_popcount(sixes) == 5) {
        bool ends =
            !(h & (1u << trix_card(6, 1))) || !(h & (1u << trix_card(6, 6)));
        return ends ? C_STRAIGHT6 : C_FLUSH;
    }
    if (nd == 4)
        return C_FOURS;
    if ((h & cards_of_suit(5)) == cards_of_suit(5))
        return C_STRAIGHT5;
    if (nd == 3) {
        int a = trix_upper(__builtin_ctz(rest));
        int b = trix_upper(31 - __builtin_clz(rest));
        return a == b ? C_FULL : C_THREES;
    }
    if ((h & cards_of_suit(4)) == cards_of_suit(4))
        return C_STRAIGHT4;
    return nd == 2 ? C_PAIR : C_NONE;
}

/* >0 if hand a is better, <0 if b is, 0 if neither holds a Pair. */
static int compare(uint32_t a, uint32_t b)
{
    int ca = trix_football__classify(a), cb = trix_football__classify(b);
    if (ca != cb)
        return ca - cb;
    if (ca == C_NONE)
        return 0;
    /* Pair vs Pair: non-doubles from the highest id down. */
    uint32_t ra = a & ~doubles_bits(), rb = b & ~doubles_bits();
    while (ra && rb) {
        int ha = 31 - __builtin_clz(ra), hb = 31 - __builtin_clz(rb);
        if (ha != hb)
            return ha - hb;
        ra &= ~(1u << ha);
        rb &= ~(1u << hb);
    }
    return 0;
}

/* ==== deals ============================================================ */

/* Checks one scripted chunk: no repeats, only cards of the 20. */
static bool chunk_ok(const uint8_t *c, int n)
{
    uint32_t seen = 0, pack = trix_football__pack();
    for (int i = 0; i < n; i++) {
        if (c[i] >= 32 || !(pack & (1u << c[i])) || (seen & (1u << c[i])))
            return false;
        seen |= 1u << c[i];
    }
    return true;
}

/* Deals a fresh hand; the dealer is the side putting the ball in play. */
static void deal(struct tf_state *st)
{
    uint32_t pack = trix_football__pack();
    int npre = 0;
    if (st->used < st->nscript) {
        npre = st->nscript - st->used < NCARD ? st->nscript - st->used : NCARD;
        memcpy(st->deck, st->script + st->used, (size_t)npre);
        st->used = (uint8_t)(st->used + NCARD);
        for (int i = 0; i < npre; i++)
            pack &= ~(1u << st->deck[i]);
    }
    int n = npre;
    for (; pack; pack &= pack - 1)
        st->deck[n++] = (uint8_t)__builtin_ctz(pack);
    for (int i = NCARD - 1; i > npre; i--) {
        int j = npre + (int)rng_below(&st->rng, (uint32_t)(i - npre + 1));
        uint8_t t = st->deck[i];
        st->deck[i] = st->deck[j];
        st->deck[j] = t;
    }
    int nd = 1 - st->off;
    st->hand[0] = st->hand[1] = 0;
    for (int i = 0; i < 2 * HANDN; i++)
        st->hand[i % 2 == 0 ? nd : st->off] |= 1u << st->deck[i];
    st->phase = PH_DISCARD;
}

/* Discards the slots of mask m (hand sorted by id) and draws from *top. */
static void draw(struct tf_state *st, int seat, int m, int *top)
{
    uint32_t h = st->hand[seat], out = 0;
    for (int k = 0; h; k++, h &= h - 1)
        if (m & (1 << k))
            out |= h & -h;
    st->hand[seat] &= ~out;
    for (int k = __builtin_popcount(out); k > 0; k--)
        st->hand[seat] |= 1u << st->deck[(*top)++];
}

/* ==== flow ============================================================= */

static void begin_kick(struct tf_state *st, int kicker, int spot)
{
    st->play = PL_KICK;
    st->off = (uint8_t)kicker;
    set_rel(st, kicker, spot);
    st->nhist = 0;
    deal(st);
}

static void begin_choose(struct tf_state *st, int chooser)
{
    st->phase = PH_CHOOSE;
    st->chooser = (uint8_t)chooser;
    st->nhist = 0;
}

/* Side s gets the ball at the current spot: 1st down, 5 yards to gain. */
static void possession(struct tf_state *st, int s)
{
    st->off = (uint8_t)s;
    st->down = 1;
    st->need = 10;
    st->play = PL_RUSH;
    st->phase = PH_CALL;
    st->nhist = 0;
}

/* Scores points for s; in sudden death any score ends the game. */
static bool score(struct tf_state *st, int s, int pts)
{
    st->score[s] = (uint16_t)(st->score[s] + pts);
    if (st->period == 2)
        st->over = 1;
    return st->over;
}

static void touchdown(struct tf_state *st, int s)
{
    st->last_res = R_TOUCHDOWN;
    if (score(st, s, 5))
        return;
    st->play = PL_TRY;
    st->off = (uint8_t)s;
    st->nhist = 0;
    st->phase = PH_DEAL; /* dealt after the clock check */
}

/* Side c was driven behind its own goal line (D.5, D.6). */
static void safety(struct tf_state *st, int c)
{
    st->last_res = R_SAFETY;
    if (score(st, 1 - c, 2))
        return;
    st->play = PL_KICK;
    st->off = (uint8_t)c;
    set_rel(st, c, 50);
    st->phase = PH_DEAL;
}

static void field_goal(struct tf_state *st, int s)
{
    st->last_res = R_FIELD_GOAL;
    if (!score(st, s, 5))
        begin_choose(st, 1 - s);
}

/* Moves the ball y half-yards forward for side s (negative: back); scores
 * a touchdown or safety when it leaves the field. Returns true if so. */
static bool carry(struct tf_state *st, int s, int y)
{
    set_rel(st, s, trix_football__rel(st, s) + y);
    if (trix_football__rel(st, s) > FIELD) {
        touchdown(st, s);
        return true;
    }
    if (trix_football__rel(st, s) < 0) {
        safety(st, s);
        return true;
    }
    return false;
}

/* A down without a 1st down: the 4th one hands the ball over (I.1). */
static void next_down(struct tf_state *st)
{
    st->phase = PH_CALL;
    st->nhist = 0;
    if (++st->down > 3)
        possession(st, 1 - st->off);
}

/* Rushing (I.1-I.4); c compares offence to defence. */
static void resolve_rush(struct tf_state *st, int c, int co, int cd)
{
    int o = st->off, d = 1 - o;
    if (c == 0) {
        st->last_res = R_NO_GAIN;
        next_down(st);
    } else if (c > 0) {
        int y = gain_tab[co];
        st->last_res = R_GAIN;
        st->last_yards = (int16_t)y;
        if (y < 0) {
            st->last_yards = 0;
            touchdown(st, o);
            return;
        }
        if (carry(st, o, y))
            return;
        st->need = (int16_t)(st->need - y);
        if (st->need <= 0) {
            possession(st, o);
            return;
        }
        next_down(st);
    } else if (cd >= C_FOURS) {
        touchdown(st, d);
    } else if (cd >= C_STRAIGHT4) {
        int y = cd == C_STRAIGHT4 ? 0 : cd == C_FULL ? 10 : 20;
        st->last_res = R_TURNOVER;
        st->last_yards = (int16_t)y;
        if (!carry(st, d, y))
            possession(st, d);
    } else {
        int y = cd == C_THREES ? 20 : cd == C_FLUSH || st->down == 1 ? 15 : 10;
        st->last_res = R_LOSS;
        st->last_yards = (int16_t)y;
        if (carry(st, o, -y))
            return;
        st->need = (int16_t)(st->need + y);
        next_down(st);
    }
}

/* Kick-off or free kick (H.1): 45 yards if the kicker is better. */
static void resolve_kick(struct tf_state *st, int c, int ck)
{
    int k = st->off;
    int y = c > 0 ? 90 : 60;
    st->last_res = R_KICK;
    st->last_yards = (int16_t)y;
    set_rel(st, k, trix_football__rel(st, k) + y);
    if (c > 0 && ck >= C_FULL) {
        st->last_res = R_RECOVERED;
        possession(st, k);
    } else {
        possession(st, 1 - k);
    }
}

/* Punting in the order docs/games/trix_football.md gives. */
static void resolve_punt(struct tf_state *st, int c, int cp, int cd)
{
    int p = st->off, d = 1 - p;
    if (c < 0 && cd >= C_STRAIGHT4) {
        st->last_res = R_BLOCKED;
        possession(st, d);
        return;
    }
    bool keep = cp == C_THREES || cp == C_STRAIGHT4;
    int y = keep ? 50 : cp >= C_FULL ? 90 : c > 0 ? 40 : 30;
    st->last_res = keep ? R_PUNT_KEPT : R_PUNT;
    st->last_yards = (int16_t)y;
    int land = trix_football__rel(st, p) + y;
    if (keep && land > FIELD) {
        /* J.4: the punters "go forward twenty-five yards and hold the
         * ball": past the goal line that is a touchdown, as a rush would
         * be (a touchback is for a ball the other side receives). */
        carry(st, p, y);
        return;
    }
    set_rel(st, p, land > FIELD ? FIELD - 50 : land);
    if (land <= CENTER) { /* K.3: the opponent may try a goal */
        st->play = PL_PUNT_FG;
        st->off = (uint8_t)d;
        st->nhist = 0;
        st->phase = PH_DEAL;
        return;
    }
    possession(st, keep ? p : d);
}

/* Field goal (K.1, K.2, K.4). */
static void resolve_fg(struct tf_state *st, int c, int co)
{
    int o = st->off, d = 1 - o;
    int need = FIELD - trix_football__rel(st, o) <= 50 ? C_THREES : C_FULL;
    if (c < 0) {
        st->last_res = R_BLOCKED;
        possession(st, d);
    } else if (co >= need) {
        field_goal(st, o);
    } else {
        st->last_res = R_MISSED;
        st->play = PL_KICK;
        st->off = (uint8_t)d;
        set_rel(st, d, 50);
        st->phase = PH_DEAL;
    }
}

/* Try after touchdown (D.4) and the punt-return goal try (K.3). */
static void resolve_goal_try(struct tf_state *st, int c, int co)
{
    int o = st->off;
    if (st->play == PL_TRY) {
        st->last_res = c > 0 ? R_GOAL : R_NO_GOAL;
        if (c > 0 && score(st, o, 1))
            return;
        begin_choose(st, 1 - o);
    } else if (co >= C_THREES) {
        field_goal(st, o);
    } else {
        st->last_res = R_MISSED;
        possession(st, 1 - o); /* the punter keeps the ball */
    }
}

/* Ends a period (C, H.4). */
static void end_period(const struct game *g, struct tf_state *st)
{
    st->plays = 0;
    if (st->period == 0) {
        st->period = 1;
        begin_kick(st, 1 - st->first_kicker, CENTER);
        return;
    }
    if (st->period == 1 && trick_opt(g, P_SUDDEN) &&
        st->score[0] == st->score[1]) {
        st->period = 2;
        begin_kick(st, st->first_kicker, CENTER);
        return;
    }
    st->over = 1;
}

/* After a resolved deal: the clock, then any deal owed. */
static void after_play(const struct game *g, struct tf_state *st, int played)
{
    if (st->over)
        return;
    if (played != PL_TRY)
        st->plays++;
    bool owed_try = st->phase == PH_DEAL && st->play == PL_TRY;
    if (st->plays >= trick_opt(g, P_PLAYS) && !owed_try) {
        end_period(g, st);
        return;
    }
    if (st->phase == PH_DEAL)
        deal(st);
}

static int apply(const struct game *g, void *vst, int a)
{
    (void)g;
    struct tf_state *st = vst;
    if (st->phase == PH_CHOOSE) {
        int k = a == A_KICK ? st->chooser : 1 - st->chooser;
        if (st->period == 0 && st->plays == 0)
            st->first_kicker = (uint8_t)k;
        begin_kick(st, k, CENTER);
        note(st, st->chooser, a);
        return 0;
    }
    note(st, st->off, a);
    if (a == A_YIELD) {
        st->last_res = R_YIELD;
        st->last_yards = 40;
        st->down = 1;
        st->need = 10;
        if (carry(st, st->off, -40))
            after_play(g, st, PL_TRY); /* the safety kick, off the clock */
        return 0;
    }
    st->play = a == A_RUSH ? PL_RUSH : a == A_PUNT ? PL_PUNT : PL_FG;
    deal(st);
    return 0;
}

static int apply_joint(const struct game *g, void *vst, const int *actions)
{
    struct tf_state *st = vst;
    int o = st->off, d = 1 - o, top = 2 * HANDN;
    draw(st, d, actions[d] - A_DISCARD, &top); /* non-dealer first */
    draw(st, o, actions[o] - A_DISCARD, &top);
    st->nhist = 0;
    int co = trix_football__classify(st->hand[o]),
        cd = trix_football__classify(st->hand[d]);
    int c = compare(st->hand[o], st->hand[d]);
    st->shown[0] = st->hand[0];
    st->shown[1] = st->hand[1];
    st->last_cat[o] = (uint8_t)co;
    st->last_cat[d] = (uint8_t)cd;
    st->last_yards = 0;
    int played = st->play;
    switch (played) {
    case PL_KICK:
        resolve_kick(st, c, co);
        break;
    case PL_RUSH:
        resolve_rush(st, c, co, cd);
        break;
    case PL_PUNT:
        resolve_punt(st, c, co, cd);
        break;
    case PL_FG:
        resolve_fg(st, c, co);
        break;
    default:
        resolve_goal_try(st, c, co);
    }
    after_play(g, st, played);
    return 0;
}

/* ==== interface ======================================================== */

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int plays = (int)p->v[P_PLAYS];
    trick_dims(d, 2, false);
    d->num_actions = NACT;
    d->max_legal = 32;
    d->obs_size = 105;
    /* Deals: three periods of plays, plus one try per touchdown at most;
     * each deal costs a choice, a yield, a call and the joint discard. */
    d->max_length = 4 * 2 * 3 * plays + 8;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    (void)g;
    struct tf_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    if (ndeck > SCRIPT_DEALS * NCARD)
        return ERR_INVAL;
    for (int i = 0; i < ndeck; i += NCARD)
        if (!chunk_ok(deck + i, ndeck - i < NCARD ? ndeck - i : NCARD))
            return ERR_INVAL;
    if (ndeck > 0)
        memcpy(st->script, deck, (size_t)ndeck);
    st->nscript = (uint8_t)ndeck;
    begin_choose(st, game_first_dealer(seed, 2, deck, ndeck));
    return 0;
}

int trix_football__actor(const struct tf_state *st)
{
    return st->phase == PH_CHOOSE ? st->chooser : st->off;
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct tf_state *st = vst;
    if (st->over)
        return 0;
    return st->phase == PH_DISCARD ? 3u : 1u << trix_football__actor(st);
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct tf_state *st = vst;
    int n = 0;
    if (!(to_move(g, vst) & (1u << seat)))
        return 0;
    if (st->phase == PH_CHOOSE) {
        out[n++] = A_KICK;
        out[n++] = A_RECEIVE;
    } else if (st->phase == PH_CALL) {
        out[n++] = A_RUSH;
        out[n++] = A_PUNT;
        if (FIELD - trix_football__rel(st, st->off) <= 90)
            out[n++] = A_FG;
        if (st->down > 1)
            out[n++] = A_YIELD;
    } else {
        for (int m = 0; m < 32; m++)
            out[n++] = A_DISCARD + m;
    }
    return n;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    (void)g;
    const struct tf_state *st = vst;
    int diff = st->score[0] - st->score[1];
    double r = !st->over || diff == 0 ? 0 : diff > 0 ? 1 : -1;
    out[0] = r;
    out[1] = -r;
}

static const struct card_codec tf_cards = {
    .ncards = TRIX_CARDS,
    .max_copies = SCRIPT_DEALS,
    .name = trix_card_name,
    .parse = trix_card_parse,
};

const struct game_def trix_football_game = {
    .name = "trix_football",
    .long_name = "Trix Football",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Trix Football; see "
              "docs/games/trix_football.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_SIMULTANEOUS,
    .state_size = sizeof(struct tf_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &tf_cards,
    .view_keys = view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = apply_joint,
    .returns = returns,
    .observe = trix_football__observe,
    .obs_layout = trix_football__obs_layout,
    .view = trix_football__view,
    .action_name = trix_football__action_name,
    .determinize = trix_football__determinize,
    .describe = trix_football__describe,
};
