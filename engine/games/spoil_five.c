/* spoil_five.c — Spoil-Five: five-card hands, three tricks take the pool,
 * a pool nobody takes is "spoilt" and carried over; with the variants Two
 * Tricks Win, Fiving, Jinking and Twenty-Five/Forty-Five.
 *
 * Rules: W. H. Peel, Round Games with Cards (1891): Spoil-Five and the
 * variants after it; docs/games/spoil_five.md states them as played here.
 * Card order: the ranking table of that page (A♥ always the third trump).
 *
 * Decisions where the sources are silent or leave a choice:
 * - Seats are numbered clockwise; play and the deal pass to seat + 1. Peel
 *   deals round until a knave falls, its receiver dealing: the first dealer is
 *   a seeded random seat (game_first_dealer; docs/games/README.md, "First
 *   dealer"), and seat 0 when an explicit deck is given, so that deck[0..4] go
 *   to seat 1.
 * - Pack order: deck[0..4] go to the eldest hand (left of the dealer),
 *   the next five to the seat after, ..., the dealer's five last; deck[5n]
 *   is turned up; fiving turns deck[5n+1], deck[5n+2], ... Peel deals 2+3 or
 *   3+2; from a shuffled pack every packet order gives the same deal, and
 *   blocks of five keep explicit test decks readable. Later deals draw
 *   only the cards they need by a partial Fisher–Yates shuffle.
 * - Following: to a plain lead a player holding that suit plays it or
 *   a trump; a void player plays anything. The A♥ is never a heart.
 * - Reneging is judged against the card led: 5, J of trumps and A♥
 *   may be withheld only when the led trump ranks below them; if every
 *   trump held may be withheld any card may be played, otherwise any trump.
 * - A♥ led when hearts are not trumps: a heart lead for following
 *   duty, won as the third trump; option ace_hearts_lead_is_trump_lead
 *   makes it a trump lead (5 and J of trumps may then be withheld).
 * - Ordinary sequence: every suit runs A K Q J 10 .. 2, trumps above
 *   the rest; the A♥ is a plain heart, and nothing may be withheld from a
 *   trump lead (the reneging privilege belongs to the special top three).
 * - Robbing: "rob c" lays c face down (out of play, seen only by the robber)
 *   and takes the turn-up into the hand at once. A turned ace of trumps may be
 *   robbed by the dealer before the first lead (after fiving); the turned ace
 *   joins his hand at once, which is the same as Peel's rule since he plays
 *   last to the first trick. Otherwise the holder of the ace of trumps robs at
 *   his first turn in the first trick, before playing (also when he leads). He
 *   may not lay out the ace itself: holding it is his title to rob, and
 *   everybody may then know he holds it. With robbing=optional he may
 *   "decline" instead, publicly, and is barred: if he (or his side) reaches
 *   the winning count the deal is spoilt; in a target game his tricks that
 *   deal score nothing. The dealer's refusal of a turned ace ("decline") costs
 *   nothing. robbing=none: nobody robs.
 * - Everybody who plays to the first trick without robbing is thereby known
 *   not to hold the ace of trumps (robbing is public); determinize uses it.
 * - Stakes: each player antes stake (2), the dealer dealer_stake (1)
 *   more; after a spoil the ante is spoil_stake (1) until the pool is won;
 *   the dealer's extra is paid every deal.
 * - Jinking: after the trick that gives a player (side) the winning
 *   count, "jink" or "claim" is offered only if he has taken every trick
 *   so far (otherwise a jink cannot succeed). Success: the pool plus stake
 *   from each other player; failure ends the deal at the first trick lost
 *   and the pool stands as a spoil.
 * - Partnerships: seats 0,2 against 1,3; a side with the winning count wins
 *   the pool (paid to the seat taking the deciding trick). Each partner's
 *   return is the side's total (a side scores its players' sum). The one spoil
 *   left to sides: a side whose player declined to rob is barred.
 * - Two Tricks Win: the winning count is two (and a jink is offered
 *   after two tricks out of two).
 * - Fiving: the eldest hand (the non-dealer, or the non-dealing
 *   side's first player) may "ask five"; the dealer may "accept five". The
 *   turn-up and every card turned after it of the same suit are buried,
 *   face up (public), and the first card of another suit is the turn-up.
 * - Target games (target=25|45): no pool or stakes; all five tricks
 *   are played; a trick scores 5 to its winner (his side). The first to
 *   reach the target wins at once, as does a side taking all five tricks of
 *   a deal. Returns: +1 to the winner's side, -1/(sides-1) to the others; a
 *   game not decided after target_cap deals is drawn, all 0.
 * - Episode: deals deals. A seat's return so far is its chips
 *   outside the pool plus its own chips still in a standing pool (a stake
 *   is lost only when somebody takes the pool); a pool still standing at
 *   the end goes back to those who paid it in, so returns sum to zero.
 * - Action ids: 0..51 play card c (c = suit*13 + rank-1, cards.h);
 *   52..103 rob, laying out card c-52; 104 decline; 105 ask five; 106 no
 *   five; 107 accept five; 108 refuse five; 109 jink; 110 claim.
 * - Views: others see a rob as "rob" without its card; "last_deal" tells
 *   how the previous deal ended. The tensor (obs_layout) is rebuilt from
 *   bit masks by wide copies; on x86-64 an AVX2 build of it is chosen at
 *   run time (the observation is bound by its stores).
 * - Determinize: resamples other hands, the undealt stock and another
 *   player's hidden rob discard, keeping public facts: cards played and
 *   buried, the turn-up and ace known in a robber's hand, revealed voids
 *   (and trumps a reneging player cannot hold), the ace's absence from
 *   everyone who played to trick one without robbing; hand sizes kept.
 */
#include <string.h>

#include "../../common/err.h"
#include "spoil_five.h"

/* ==== options and tables =============================================== */

enum opt {
    O_PLAYERS,
    O_PARTNERSHIPS,
    O_TWO_TRICKS,
    O_FIVING,
    O_JINKING,
    O_TARGET,
    O_ROBBING,
    O_AH_TRUMP,
    O_ORDINARY,
    O_STAKE,
    O_DEALER_STAKE,
    O_SPOIL_STAKE,
    O_DEALS,
    O_TARGET_CAP,
    NPARAMS
};

static const char *const target_choices[] = {"none", "25", "45", NULL};
static const char *const robbing_choices[] = {"compulsory", "optional", "none",
                                              NULL};

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 2, MAXP, NULL, "number of players (2..10)"},
    {"partnerships", PARAM_BOOL, 0, 0, 1, NULL,
     "four players as two fixed sides, 0+2 against 1+3"},
    {"two_tricks_win", PARAM_BOOL, 0, 0, 1, NULL,
     "Two Tricks Win: two tricks take the pool, five or more players"},
    {"fiving", PARAM_BOOL, 0, 0, 1, NULL,
     "Fiving: eldest may ask the dealer to turn a new trump suit, two "
     "players or two sides"},
    {"jinking", PARAM_BOOL, 0, 0, 1, NULL,
     "Jinking: play on for all five tricks after three, for the pool and "
     "each player's stake"},
    {"target", PARAM_ENUM, 0, 0, 0, target_choices,
     "Twenty-Five/Forty-Five: play to 25 or 45 points, 5 a trick, no "
     "pool"},
    {"robbing", PARAM_ENUM, ROB_COMPULSORY, 0, 0, robbing_choices,
     "ace holder must rob, may decline (and is barred), or nobody robs"},
    {"ace_hearts_lead_is_trump_lead", PARAM_BOOL, 0, 0, 1, NULL,
     "the A♥ led is a trump lead, not a heart lead"},
    {"ordinary_sequence", PARAM_BOOL, 0, 0, 1, NULL,
     "family variant: every suit A K Q J 10..2, A♥ a plain heart"},
    {"stake", PARAM_INT, 2, 0, 100, NULL, "each player's ante"},
    {"dealer_stake", PARAM_INT, 1, 0, 100, NULL,
     "the dealer's extra stake, every deal"},
    {"spoil_stake", PARAM_INT, 1, 0, 100, NULL,
     "each player's ante while a spoilt pool stands"},
    {"deals", PARAM_INT, 10, 1, 1000, NULL,
     "deals in an episode, net chips the result"},
    {"target_cap", PARAM_INT, 50, 1, 1000, NULL,
     "target games: deals after which an undecided game is drawn"},
};

/* Combinations of variants that single-option changes do not reach. */
static const char *const test_specs[] = {
    "spoil_five(players=2,fiving=true)",
    "spoil_five(partnerships=true,fiving=true,jinking=true)",
    "spoil_five(players=5,two_tricks_win=true)",
    "spoil_five(players=7,two_tricks_win=true,jinking=true,"
    "robbing=optional)",
    "spoil_five(players=10,target=45,robbing=optional)",
    "spoil_five(partnerships=true,target=25,fiving=true)",
    "spoil_five(players=3,jinking=true,ace_hearts_lead_is_trump_lead=true)",
    "spoil_five(players=6,ordinary_sequence=true,jinking=true,deals=3)",
    "spoil_five(players=3,stake=0,dealer_stake=0,spoil_stake=0)",
    NULL};

/* Trick keys: key_table[ordinary * 4 + trump][card]. A trump's key is
 * TRUMP_KEY + its place among the trumps (1 lowest, 14 the 5); a plain
 * card's key is its place in its suit, counted only when that suit is led.
 * Rows are suits in card order, A 2 .. 10 J Q K (docs/games/spoil_five.md). */
#define AH_KEY 28 /* the A♥, third trump whatever the trump suit */
#define PLAIN_RED 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
#define PLAIN_HEARTS AH_KEY, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
#define PLAIN_BLACK 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12, 13
#define TRUMP_RED 27, 17, 18, 19, 30, 20, 21, 22, 23, 24, 29, 25, 26
#define TRUMP_HEARTS AH_KEY, 17, 18, 19, 30, 20, 21, 22, 23, 24, 29, 25, 26
#define TRUMP_BLACK 27, 24, 23, 22, 30, 21, 20, 19, 18, 17, 29, 25, 26
#define PLAIN_ORD 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
#define TRUMP_ORD 30, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29

static const uint8_t key_table[8][CARDS_IN_PACK] = {
    {TRUMP_BLACK, PLAIN_RED, PLAIN_HEARTS, PLAIN_BLACK},
    {PLAIN_BLACK, TRUMP_RED, PLAIN_HEARTS, PLAIN_BLACK},
    {PLAIN_BLACK, PLAIN_RED, TRUMP_HEARTS, PLAIN_BLACK},
    {PLAIN_BLACK, PLAIN_RED, PLAIN_HEARTS, TRUMP_BLACK},
    {TRUMP_ORD, PLAIN_ORD, PLAIN_ORD, PLAIN_ORD},
    {PLAIN_ORD, TRUMP_ORD, PLAIN_ORD, PLAIN_ORD},
    {PLAIN_ORD, PLAIN_ORD, TRUMP_ORD, PLAIN_ORD},
    {PLAIN_ORD, PLAIN_ORD, PLAIN_ORD, TRUMP_ORD},
};

/* ==== static helpers: seats, sides, cards ============================== */

static int next_seat(const struct spoil_five_state *st, int s)
{
    return s + 1 == st->cfg.n ? 0 : s + 1;
}

/* Tricks of s's side this deal. */
static int side_tricks(const struct spoil_five_state *st, int s)
{
    return st->won[s] + (st->cfg.partners ? st->won[(s + 2) & 3] : 0);
}

static bool is_barred(const struct spoil_five_state *st, int s)
{
    return st->barred != NO_SEAT && same_side(st, st->barred, s);
}

/* Ranking key of c in the current trick: trumps above the suit led, which
 * is above everything else (0). */
static int card_key(const struct spoil_five_state *st, int c)
{
    int k = key_table[st->keys][c];
    return k & -((k > TRUMP_KEY) | (card_suit(c) == st->lead_suit));
}

/* The privileged trumps (5, J of trumps, A♥) ranking above lead. */
static hand_t renege_mask(const struct spoil_five_state *st, int lead)
{
    if (st->cfg.ordinary)
        return 0;
    int five = card_make(5, st->trump), jack = card_make(JACK, st->trump);
    if (lead == five)
        return 0;
    if (lead == jack)
        return card_bit(five);
    hand_t m = card_bit(five) | card_bit(jack);
    return lead == ACE_HEARTS ? m : m | card_bit(ACE_HEARTS);
}

/* Cards of h that may be played to the current trick: holding
 * a binding card, one of those or a trump; else anything. */
static hand_t play_mask(const struct spoil_five_state *st, hand_t h)
{
    hand_t x = h & st->bind;
    hand_t bound = -(hand_t)(x != 0); /* all ones when bound (no branch) */
    return (((h & st->trumps) | x) & bound) | (h & ~bound);
}

/* Swaps into deck[i] a card drawn uniformly from deck[i..52), using the
 * 32 random bits x (Lemire's multiply-shift, unbiased by rejection). */
static inline void pick_card(struct spoil_five_state *st, int i, uint32_t x)
{
    uint32_t n = (uint32_t)(CARDS_IN_PACK - i);
    uint64_t m = (uint64_t)x * n;
    if ((uint32_t)m < n && (uint32_t)m < (uint32_t)-n % n)
        m = (uint64_t)rng_below(&st->rng, n) << 32;
    int j = i + (int)(m >> 32);
    uint8_t t = st->deck[i];
    st->deck[i] = st->deck[j];
    st->deck[j] = t;
}

/* Partial Fisher–Yates: settles the next k cards of the pack (those not
 * already in fixed order), two picks from each 64-bit draw. */
static void shuffle_next(struct spoil_five_state *st, int k)
{
    int end = st->deck_pos + k;
    int i = st->deck_fixed > st->deck_pos ? st->deck_fixed : st->deck_pos;
    for (; i < end; i += 2) {
        uint64_t r = rng_next(&st->rng);
        pick_card(st, i, (uint32_t)r);
        if (i + 1 < end)
            pick_card(st, i + 1, (uint32_t)(r >> 32));
    }
    if (end > st->deck_fixed)
        st->deck_fixed = (uint8_t)end;
}

/* Next card of the pack. */
static int draw(struct spoil_five_state *st)
{
    if (st->deck_pos >= st->deck_fixed)
        shuffle_next(st, 1);
    return st->deck[st->deck_pos++];
}

static void set_trump(struct spoil_five_state *st, int c)
{
    st->turnup = (uint8_t)c;
    st->trump = (uint8_t)card_suit(c);
    st->ace = (uint8_t)card_make(ACE, st->trump);
    st->keys = (uint8_t)(st->cfg.ordinary * 4 + st->trump);
    st->trumps =
        suit_mask(st->trump) | (st->cfg.ordinary ? 0 : card_bit(ACE_HEARTS));
}

/* Gives s the turn; the ace holder's first turn starts with his rob. */
static void set_turn(struct spoil_five_state *st, int s)
{
    st->turn = (uint8_t)s;
    st->phase = s == st->rob_holder ? PH_ROB : PH_PLAY;
}

/* ==== static helpers: deals and chips ================================== */

/* A stake goes into the pool but still counts as its payer's until the
 * pool is taken, so paying it leaves the score alone. */
static void pay(struct spoil_five_state *st, int s, int amount)
{
    st->paid[s] += amount;
    st->pool += amount;
}

static void pay_antes(struct spoil_five_state *st)
{
    if (st->cfg.target)
        return;
    int ante = st->reduced ? st->cfg.spoil_stake : st->cfg.stake;
    for (int s = 0; s < st->cfg.n; s++)
        pay(st, s, ante + (s == st->dealer ? st->cfg.dealer_stake : 0));
}

static void take_pool(struct spoil_five_state *st, int s)
{
    for (int p = 0; p < st->cfg.n; p++)
        st->score[p] -= st->paid[p];
    st->score[s] += st->pool;
    st->pool = 0;
    memset(st->paid, 0, sizeof st->paid);
    st->reduced = 0;
}

/* After the deal and any fiving: robbing, then the first lead. */
static void open_play(struct spoil_five_state *st)
{
    int eldest = next_seat(st, st->dealer);
    st->leader = (uint8_t)eldest;
    if (st->cfg.robbing != ROB_NONE) {
        if (st->turnup == st->ace) {
            st->phase = PH_DEALER_ROB;
            st->turn = st->dealer;
            return;
        }
        st->rob_open = 1;
        st->rob_holder = (uint8_t)holder_of(st, st->ace);
    }
    set_turn(st, eldest);
}

static void start_deal(struct spoil_five_state *st)
{
    pay_antes(st);
    memset(st->cant, 0, sizeof st->cant);
    memset(st->won, 0, sizeof st->won);
    st->gone = st->buried = st->table = st->rob_known = st->bind = 0;
    st->nhist = st->ntrick = st->ntricks = st->fived = st->rob_open = 0;
    st->rob_holder = st->rob_seat = st->barred = st->jinker = NO_SEAT;
    st->discard = NO_CARD;
    st->deck_pos = 0;
    shuffle_next(st, TRICKS * st->cfg.n + 1);
    const uint8_t *d = st->deck;
    int s = st->dealer;
    for (int k = 0; k < st->cfg.n; k++, d += TRICKS) {
        s = next_seat(st, s);
        st->hand[s] = card_bit(d[0]) | card_bit(d[1]) | card_bit(d[2]) |
                      card_bit(d[3]) | card_bit(d[4]);
    }
    st->deck_pos = (uint8_t)(TRICKS * st->cfg.n);
    set_trump(st, draw(st));
    if (st->cfg.fiving) {
        st->phase = PH_FIVE_ASK;
        st->turn = (uint8_t)next_seat(st, st->dealer);
    } else {
        open_play(st);
    }
}

static void finish(struct spoil_five_state *st)
{
    memset(st->paid, 0, sizeof st->paid); /* an unwon pool goes back */
    st->pool = 0;
    st->phase = PH_OVER;
    st->turn = NO_SEAT;
}

static void end_deal(struct spoil_five_state *st, int outcome, int seat)
{
    if (outcome == OUT_WON || outcome == OUT_JINKED)
        take_pool(st, seat);
    else if (outcome != OUT_PLAYED)
        st->reduced = 1;
    if (outcome == OUT_JINKED) {
        for (int s = 0; s < st->cfg.n; s++)
            st->score[s] -= st->cfg.stake;
        st->score[seat] += st->cfg.stake * st->cfg.n;
    }
    st->last_outcome = (uint8_t)outcome;
    st->last_winner =
        outcome == OUT_WON || outcome == OUT_JINKED ? seat : NO_SEAT;
    memcpy(st->last_won, st->won, sizeof st->won);
    if (++st->deal_no >= st->cfg.deals) {
        finish(st);
        return;
    }
    st->dealer = (uint8_t)next_seat(st, st->dealer);
    st->deck_fixed = 0;
    start_deal(st);
}

/* ==== static helpers: play ============================================= */

/* Chip games after trick w won it: jink, pool, spoil or play on. */
static void judge_trick(struct spoil_five_state *st, int w)
{
    int t = side_tricks(st, w);
    if (st->jinker != NO_SEAT) {
        if (!same_side(st, w, st->jinker))
            end_deal(st, OUT_FAILED, st->jinker);
        else if (st->ntricks == TRICKS)
            end_deal(st, OUT_JINKED, st->jinker);
        else
            set_turn(st, w);
    } else if (t >= st->cfg.need && is_barred(st, w)) {
        end_deal(st, OUT_BARRED, w);
    } else if (t >= st->cfg.need && st->cfg.jinking && t == st->ntricks &&
               st->ntricks < TRICKS) {
        st->phase = PH_JINK;
        st->turn = (uint8_t)w;
    } else if (t >= st->cfg.need) {
        end_deal(st, OUT_WON, w);
    } else if (st->ntricks == TRICKS) {
        end_deal(st, OUT_SPOILT, NO_SEAT);
    } else {
        set_turn(st, w);
    }
}

/* Target games: 5 points a trick; target or all five tricks win. */
static void score_trick(struct spoil_five_state *st, int w)
{
    if (!is_barred(st, w))
        st->score[w] += POINTS_PER_TRICK;
    bool slam = side_tricks(st, w) == TRICKS && !is_barred(st, w);
    if (side_total(st, w) >= st->cfg.target || slam) {
        st->deal_no++; /* this deal is finished too (deals() counts it) */
        st->victor = (uint8_t)w;
        memcpy(st->last_won, st->won, sizeof st->won);
        st->last_outcome = OUT_PLAYED;
        st->last_winner = (uint8_t)w;
        finish(st);
    } else if (st->ntricks == TRICKS) {
        end_deal(st, OUT_PLAYED, NO_SEAT);
    } else {
        set_turn(st, w);
    }
}

static void end_trick(struct spoil_five_state *st)
{
    int w = st->leader + st->best;
    w -= w >= st->cfg.n ? st->cfg.n : 0;
    st->won[w]++;
    st->ntricks++;
    st->gone |= st->table;
    st->table = st->bind = 0;
    st->ntrick = 0;
    st->leader = (uint8_t)w;
    st->rob_open = 0;
    if (st->cfg.target)
        score_trick(st, w);
    else
        judge_trick(st, w);
}

static void lead(struct spoil_five_state *st, int c)
{
    st->trump_lead =
        hand_has(st->trumps, c) &&
        (c != ACE_HEARTS || st->trump == HEARTS || st->cfg.ah_trump);
    st->lead_suit = (uint8_t)(st->trump_lead ? st->trump : card_suit(c));
    /* A plain lead binds its suit's plain cards; a trump lead the trumps
     * that may not be withheld from it. */
    st->bind = st->trump_lead ? st->trumps & ~renege_mask(st, c)
                              : suit_mask(st->lead_suit) & ~st->trumps;
    st->best = 0;
    st->best_key = (uint8_t)card_key(st, c);
}

/* A card that does not follow tells what its player cannot hold. */
static void follow(struct spoil_five_state *st, int s, int c)
{
    /* Branch-free: random play makes these outcomes unpredictable. */
    hand_t off = ((st->trumps | st->bind) >> c & 1) - 1; /* ones if off */
    st->cant[s] |= st->bind & off;
    int key = card_key(st, c);
    int better = -(key > st->best_key);
    st->best = (uint8_t)((st->ntrick & better) | (st->best & ~better));
    st->best_key = (uint8_t)((key & better) | (st->best_key & ~better));
}

static void play_card(struct spoil_five_state *st, int c)
{
    int s = st->turn;
    st->hand[s] &= ~card_bit(c);
    if (st->rob_open && s != st->rob_seat)
        st->cant[s] |= card_bit(st->ace);
    if (st->ntrick == 0)
        lead(st, c);
    else
        follow(st, s, c);
    st->table |= card_bit(c);
    st->trick[st->ntrick++] = (uint8_t)c;
    if (st->ntrick < st->cfg.n)
        set_turn(st, next_seat(st, s));
    else
        end_trick(st);
}

static void rob(struct spoil_five_state *st, int c)
{
    int s = st->turn;
    st->hand[s] = (st->hand[s] & ~card_bit(c)) | card_bit(st->turnup);
    st->discard = (uint8_t)c;
    st->rob_seat = (uint8_t)s;
    st->rob_known = card_bit(st->turnup);
    if (st->phase == PH_DEALER_ROB) {
        set_turn(st, st->leader);
        return;
    }
    st->rob_known |= card_bit(st->ace);
    st->rob_holder = NO_SEAT;
    st->phase = PH_PLAY;
}

static void decline(struct spoil_five_state *st)
{
    if (st->phase == PH_DEALER_ROB) {
        set_turn(st, st->leader);
        return;
    }
    st->barred = st->rob_seat = st->turn;
    st->rob_known = card_bit(st->ace);
    st->rob_holder = NO_SEAT;
    st->phase = PH_PLAY;
}

/* Accepted fiving: bury the turn-up and its suit until a new suit. */
static void five(struct spoil_five_state *st)
{
    int suit = st->trump, c;
    hand_t b = card_bit(st->turnup);
    while (card_suit(c = draw(st)) == suit)
        b |= card_bit(c);
    st->buried = b;
    st->gone |= b;
    st->fived = 1;
    set_trump(st, c);
    open_play(st);
}

/* Puts the cards of h (at most five), as actions base + card, into out.
 * Branch-free: a random playout's hand sizes would defeat the predictor.
 * A slot past the last card may receive a junk id; callers ignore it. */
static int list_cards(hand_t h, int base, int *out)
{
    int k = 0;
    for (int i = 0; i < TRICKS; i++) {
        out[k] = base + __builtin_ctzll(h | (hand_t)1 << 63);
        k += h != 0;
        h &= h - 1;
    }
    return k;
}

/* ==== API: configuration and play ====================================== */

/* Refuses option values that contradict each other. */
static int check_options(const double *v, char *err, size_t errlen)
{
    int n = (int)v[O_PLAYERS];
    bool part = v[O_PARTNERSHIPS] != 0, target = v[O_TARGET] != 0;
    if (part && n != 4)
        return err_set(err, errlen, ERR_INVAL,
                       "partnerships needs players=4 (two sides of two)");
    if (v[O_TWO_TRICKS] != 0 && n < 5)
        return err_set(err, errlen, ERR_INVAL,
                       "two_tricks_win needs players >= 5");
    if (v[O_FIVING] != 0 && n != 2 && !part)
        return err_set(err, errlen, ERR_INVAL,
                       "fiving needs players=2 or partnerships=true");
    if (target && v[O_JINKING] != 0)
        return err_set(err, errlen, ERR_INVAL,
                       "jinking needs target=none (in a target game all "
                       "five tricks already win outright)");
    if (target && v[O_TWO_TRICKS] != 0)
        return err_set(err, errlen, ERR_INVAL,
                       "two_tricks_win needs target=none (a target game "
                       "plays all five tricks)");
    if (v[O_ORDINARY] != 0 && v[O_AH_TRUMP] != 0)
        return err_set(err, errlen, ERR_INVAL,
                       "ace_hearts_lead_is_trump_lead needs "
                       "ordinary_sequence=false (there the A♥ is a heart)");
    return 0;
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int rc = check_options(p->v, err, errlen);
    if (rc)
        return rc;
    int n = (int)p->v[O_PLAYERS];
    bool part = p->v[O_PARTNERSHIPS] != 0, target = p->v[O_TARGET] != 0;
    d->players = n;
    d->teams = part ? 2 : n;
    for (int s = 0; s < n; s++)
        d->team[s] = (int8_t)(part ? s & 1 : s);
    d->num_actions = NUM_ACTIONS;
    d->max_legal = TRICKS + 1;
    d->obs_size = spoil_five__obs_size(n);
    d->obs_low = 0;
    d->obs_high = 1;
    int deals = (int)p->v[target ? O_TARGET_CAP : O_DEALS];
    d->max_length = deals * (TRICKS * n + 4);
    if (target) {
        d->ret_low = -1;
        d->ret_high = 1;
        return 0;
    }
    double ante = p->v[O_STAKE] > p->v[O_SPOIL_STAKE] ? p->v[O_STAKE]
                                                      : p->v[O_SPOIL_STAKE];
    double loss = ante + p->v[O_DEALER_STAKE] +
                  (p->v[O_JINKING] != 0 ? p->v[O_STAKE] : 0);
    /* A seat loses at most its stakes (and a jink's payment) each deal;
     * a side gains at most what the others lose. */
    d->ret_low = -deals * loss * (part ? 2 : 1);
    d->ret_high = deals * loss * (part ? 2 : n - 1);
    return 0;
}

static void load_cfg(const struct game *g, struct cfg *c)
{
    const double *v = g->params.v;
    static const uint8_t targets[] = {0, 25, 45};
    c->n = (uint8_t)v[O_PLAYERS];
    c->partners = v[O_PARTNERSHIPS] != 0;
    c->need = v[O_TWO_TRICKS] != 0 ? 2 : 3;
    c->fiving = v[O_FIVING] != 0;
    c->jinking = v[O_JINKING] != 0;
    c->target = targets[(int)v[O_TARGET]];
    c->robbing = (uint8_t)v[O_ROBBING];
    c->ah_trump = v[O_AH_TRUMP] != 0;
    c->ordinary = v[O_ORDINARY] != 0;
    c->stake = (uint16_t)v[O_STAKE];
    c->dealer_stake = (uint16_t)v[O_DEALER_STAKE];
    c->spoil_stake = (uint16_t)v[O_SPOIL_STAKE];
    c->deals = (uint16_t)v[c->target ? O_TARGET_CAP : O_DEALS];
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct spoil_five_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    load_cfg(g, &st->cfg);
    spoil_five__obs_scales(g, &st->cfg, &st->scales);
    if (ndeck > 0) {
        if (deck_build(st->deck, CARDS_IN_PACK, deck, ndeck, &st->rng))
            return ERR_INVAL;
        st->deck_fixed = CARDS_IN_PACK;
    } else {
        /* Any order will do: each deal shuffles the cards it draws. */
        for (int c = 0; c < CARDS_IN_PACK; c++)
            st->deck[c] = (uint8_t)c;
    }
    st->victor = st->last_winner = NO_SEAT;
    st->dealer = (uint8_t)game_first_dealer(seed, st->cfg.n, deck, ndeck);
    start_deal(st);
    return 0;
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct spoil_five_state *st = cst(vst);
    return st->phase == PH_OVER ? 0 : 1u << st->turn;
}

/* Deals finished, and the one being played while the game goes on. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct spoil_five_state *st = vst;
    return st->deal_no + (st->phase != PH_OVER);
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct spoil_five_state *st = cst(vst);
    if (st->phase == PH_OVER || seat != st->turn)
        return 0;
    hand_t h = st->hand[seat];
    int k;
    if (st->phase == PH_PLAY)
        return list_cards(play_mask(st, h), A_PLAY, out);
    switch (st->phase) {
    case PH_ROB:
        k = list_cards(h & ~card_bit(st->ace), A_ROB, out);
        if (st->cfg.robbing == ROB_OPTIONAL)
            out[k++] = A_DECLINE;
        return k;
    case PH_DEALER_ROB:
        k = list_cards(h, A_ROB, out);
        out[k++] = A_DECLINE;
        return k;
    case PH_FIVE_ASK:
        out[0] = A_ASK_FIVE;
        out[1] = A_NO_FIVE;
        return 2;
    case PH_FIVE_ANSWER:
        out[0] = A_ACCEPT_FIVE;
        out[1] = A_REFUSE_FIVE;
        return 2;
    default: /* PH_JINK */
        out[0] = A_JINK;
        out[1] = A_CLAIM;
        return 2;
    }
}

static int apply(const struct game *g, void *vst, int a)
{
    (void)g;
    struct spoil_five_state *st = vst;
    st->hist[st->nhist][0] = st->turn;
    st->hist[st->nhist++][1] = (uint8_t)a;
    if (a < A_ROB) {
        play_card(st, a);
        return 0;
    }
    if (a < A_DECLINE) {
        rob(st, a - A_ROB);
        return 0;
    }
    switch (a) {
    case A_DECLINE:
        decline(st);
        break;
    case A_ASK_FIVE:
        st->phase = PH_FIVE_ANSWER;
        st->turn = st->dealer;
        break;
    case A_ACCEPT_FIVE:
        five(st);
        break;
    case A_NO_FIVE:
    case A_REFUSE_FIVE:
        open_play(st);
        break;
    case A_JINK:
        st->jinker = st->turn;
        set_turn(st, st->turn);
        break;
    default: /* A_CLAIM */
        end_deal(st, OUT_WON, st->turn);
        break;
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct spoil_five_state *st = cst(vst);
    int n = st->cfg.n;
    if (!st->cfg.target) {
        for (int s = 0; s < n; s++)
            out[s] = side_total(st, s);
        return;
    }
    for (int s = 0; s < n; s++) {
        if (st->victor == NO_SEAT)
            out[s] = 0;
        else if (same_side(st, s, st->victor))
            out[s] = 1;
        else
            out[s] = -1.0 / (g->dims.teams - 1);
    }
}

/* The estimate op: target games, each side's lead in points as a fraction
 * of the target; a game of pools pays as it goes, so its returns. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct spoil_five_state *st = cst(vst);
    double pts[MAXP];
    if (!st->cfg.target) {
        returns(g, vst, out);
        return;
    }
    for (int s = 0; s < st->cfg.n; s++)
        pts[g->dims.team[s]] = side_total(st, s);
    game_estimate_lead(g, pts, st->cfg.target, out);
}

/* ==== the descriptor =================================================== */

const struct game_def spoil_five_game = {
    .name = "spoil_five",
    .long_name = "Spoil-Five",
    .source = "W. H. Peel, Round Games with Cards (1891), Spoil-Five, Two "
              "Tricks Win, Fiving, Jinking, Twenty-Five; see "
              "docs/games/spoil_five.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct spoil_five_state),
    .params = params,
    .nparams = NPARAMS,
    .cards = &cards_standard,
    .view_keys = spoil_five__view_keys,
    .test_specs = test_specs,
    .configure = configure,
    .init = init,
    .to_move = to_move,
    .legal = legal,
    .apply = apply,
    .apply_joint = NULL,
    .returns = returns,
    .observe = spoil_five__observe,
    .obs_layout = spoil_five__obs_layout,
    .view = spoil_five__view,
    .action_name = spoil_five__action_name,
    .determinize = spoil_five__determinize,
    .describe = spoil_five__describe,
    .deals = deals,
    .estimate = estimate,
};
