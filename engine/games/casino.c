/* casino.c — Casino: a fishing game of captures and builds, 2-4 players
 * (four may play as two partnerships), rounds scored to a target of 21.
 *
 * Rules: The Adventures of BJ and Tony Morris, family games page, Casino;
 * docs/games/casino.md states them as played here. Move
 * enumeration and names live in casino_moves.c; the state in casino.h.
 *
 * Decisions where the sources are silent or leave a choice:
 * - Seats are clockwise; seat 0 deals first (docs/games/README.md, "First
 *   dealer": a fixed one lets tests know who deals, tournaments rotate seats)
 *   and the deal passes left (seat + 1) each round. The dealer's left leads.
 * - Pack order: each deal gives four consecutive pack cards to each seat in
 *   turn, from the dealer's left round to the dealer; on a round's first
 *   deal the next four go face up to the table. With 2 players: deck[0..3]
 *   seat 1, [4..7] seat 0, [8..11] table, [12..15] seat 1, and so on. The
 *   explicit deck prefix orders the whole first round's pack; later rounds
 *   are shuffled from the state RNG. (Dealing in fours instead of twos
 *   changes nothing but makes test decks readable.)
 * - Captures. A face card takes one loose face card of its rank, never two
 *   (the page). A numeral of rank r takes any non-empty union of disjoint
 *   groups of table items, each group adding up to r: loose numerals, and
 *   the r-build as a whole. The player chooses the groups: the page says a
 *   card "can" capture them and lets a capturing card trail, so taking
 *   only some is allowed. One move per set of items taken, however it
 *   splits into groups (the split changes nothing). Builds of another value
 *   cannot be taken (the page: a 9 cannot take a 7-build + 2) unless option
 *   build_as_card lets a single build count as a card of its value.
 * - Builds. A build of value v (2..10) is the played numeral plus table items
 *   that split into groups adding up to v, the played card in one of them; the
 *   player must still hold a card of rank v. The played card's group is the
 *   card alone (rank v), or the card with loose cards, or the card with
 *   exactly one single build (raising it, "way 1"; option raise_with_table
 *   lets loose cards join that group too). The other groups are loose cards
 *   adding up to v ("incorporate cards equal to the new number", way 1; way
 *   2's "alone or with loose cards"; the page's 9-build of 6-3 + 5-4 + 9).
 *   A multiple build never changes value: it only joins a build of its own
 *   value, whole. Option build_as_card lets single builds serve as cards in
 *   any group; it allows everything raise_with_table does.
 * - At most one build of each value lies on the table: a new build of
 *   value v absorbs the existing v-build (two v-builds side by side are a
 *   multiple build by the page's definition, and joining it is way 2). So a
 *   build is named by its value ("7-build"). A build is multiple when its
 *   cards add up to more than its value.
 * - Ownership: the seat that made a build or last added to it owns it
 *   ("created or added to yourself, and no other player has added to it
 *   since"); a partner's build is not one's own. An owner may not
 *   trail (the page) unless option owner_may_trail.
 * - The capturing card: after any play a player must still hold a card of
 *   the value of every build he owns. The page asks it of a new build and
 *   says an owner can "always" capture, and allows several builds if a
 *   capturing card is held for each; pagat.com's wording asks it of
 *   every play. So an owner's last card of a value must take his build,
 *   every seat always has a legal play, and no build outlives its deal.
 * - Sweeps: a capture that leaves the table empty, except the round's last
 *   play; counted always, scored (1 each) only with sweeps=true.
 * - Round end: the table, dead cards included, goes to the last
 *   capturer's side (to nobody if nobody captured). Points: most
 *   cards 3, most spades 1, 10♦ 2, 2♠ 1, each ace 1; ties for most cards
 *   or spades score nothing.
 *   cards_scoring=two_and_last: most cards 2, the round's last capture 1.
 * - Game end: a side at or above target and alone at the top wins;
 *   both over with equal top scores: another round. After max_rounds
 *   rounds without a winner the episode ends drawn.
 * - Returns: 0 until the end; then the winning side's seats +1 and every
 *   other seat -1/(sides-1) (zero-sum; partners equal); a draw is 0.
 * - Table limit (an engine limit; the rules set none): the table holds at
 *   most 14 numeral items (loose A-10 and builds). Why: by trailing, a
 *   table can grow to 51 cards, where one 10 has millions of captures
 *   (every set of small cards adding up to a multiple of 10 that splits
 *   into tens; 19 million legal moves were counted in one state reached
 *   by trailing often), and no action space lists that exactly. Only a
 *   trail adds an item (a build turns the played card and at least one
 *   item into one; captures remove items; face cards are no items), so on
 *   a full table a numeral may be trailed only by a seat with no capture,
 *   build or face trail at all; that numeral then lies dead: face up, out
 *   of play, going with the table to the last capturer at the round's end
 *   (a capture leaves it lying, so it is no sweep). Such a seat owns no
 *   build (an owner can always take his). 14 is far above play: in 10^5
 *   uniform random 2-player episodes (17M decisions) the table was full at
 *   279 decisions and a card went dead 12 times.
 * - Action ids, three ranges. 0..51: trail card c. 52..16691: stable ids
 *   52 + (c*10 + kind)*32 + k: card c captures (kind 0) or builds value
 *   kind+1 (kinds 1..9) on the k-th (k < 32) legal set of table items for
 *   that card and kind, in the block's canonical order: most cards first,
 *   then by item mask (loose cards by id, then builds by value). So "which
 *   card, capture or which build value" is stable (by card id, not hand
 *   position: a card keeps its ids while held), k = 0 is the biggest
 *   option, and only k depends on the table. 16692..55715: overflow slot
 *   i (id 16692 + i) is the i-th legal move, in the canonical order (card,
 *   kind, rank), that did not fit its block's 32 slots (rank >= 32). Its
 *   meaning depends on the state, unlike the other ids; only cluttered
 *   tables have such moves (uniform random play: 1 decision in 1150, at
 *   most 5261 legal moves). legal() lists trails, stable ids, then overflow
 *   ids; every legal move is named by what it does, so names parse.
 * - The bound max_legal = 39056 (so 39056 - 32 overflow slots: a block
 *   with overflow moves also fills its 32 stable ids). Proof sketch: the
 *   options of one block are distinct non-empty sets S of the <= 14
 *   items; every group adds up to g <= 10 (g = r for a capture with rank
 *   r, g = v for a build of v), so S holds only items of value <= g, and
 *   the values in S add up to a multiple of r (capture), or to a multiple
 *   of v less r (build). A numeral has a non-empty block only for its
 *   capture and for each distinct build value v >= r held on another
 *   card; a face card has at most 3 options (the other cards of its
 *   rank); there are at most 4 trails. So the legal moves are at most 4
 *   plus, per hand card and block, the number of such sets. Counting
 *   subsets by their sum (the product of (1 + x^value) over the items of
 *   value <= g) and trying every table of <= 14 items (values 1..10, at
 *   most four loose cards of a rank less the copies held, and one build of
 *   each value 2..10) with every 4-card hand gives at most 39056, reached
 *   with five items of value 2, five of 4, four of 6 and the hand 6 8 8
 *   10 (an exhaustive search of two minutes; the true maximum is lower,
 *   since not every such set splits into groups). The same search bounds
 *   the subsets of sum <= 10 that casino_moves.c lists.
 * - Hidden: other hands and the undealt pack. Public: the table, builds and
 *   owners, every capture (piles are face down but were seen taken), scores.
 *   The tensor (see obs_layout; seats relative to the observer, clockwise):
 *   own hand, loose table cards, per card the value/10 of its build, per
 *   build value 2..10 present / multiple / owner, per seat its captures
 *   this round (52 each), counts of cards, spades and sweeps, its side's
 *   score and last round's points, dealer, last capturer, seat to act;
 *   then undealt cards, the "last" announcement, rounds played and
 *   dead cards. The view adds the round's history as [seat, name] pairs.
 *   Determinization resamples the hidden cards so that every build owner
 *   holds a card of its value (rejection sampling, exact; after 64 misses a
 *   constructive fallback that is consistent but not uniform).
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../view.h"
#include "casino.h"

/* ==== types and constants ============================================== */

#define DET_TRIES 64 /* rejection sampling attempts */

enum { CARDS_THREE, CARDS_TWO_AND_LAST };

static const char *const cards_choices[] = {"three", "two_and_last", NULL};

static const struct param_def params[CASINO_NPARAMS] = {
    {"players", PARAM_INT, 2, 2, CASINO_MAXP, NULL, "number of players"},
    {"partnerships", PARAM_BOOL, 0, 0, 1, NULL,
     "four players as two partnerships, partners opposite (needs "
     "players=4)"},
    {"target", PARAM_INT, 21, 1, 100, NULL,
     "points that win the game (the book: 21; some play 11 or 50)"},
    {"cards_scoring", PARAM_ENUM, CARDS_THREE, 0, 0, cards_choices,
     "three: 3 for most cards; two_and_last: 2 for most cards and 1 for "
     "the round's last capture (a variant in the book)"},
    {"sweeps", PARAM_BOOL, 0, 0, 1, NULL,
     "a sweep (taking the whole table) scores 1 (a variant in the book)"},
    {"build_as_card", PARAM_BOOL, 0, 0, 1, NULL,
     "a single build counts as a card of its value for captures and builds"},
    {"raise_with_table", PARAM_BOOL, 0, 0, 1, NULL,
     "loose table cards may help a hand card raise a single build"},
    {"owner_may_trail", PARAM_BOOL, 0, 0, 1, NULL,
     "a build's owner may trail, keeping a card of its value"},
    {"max_rounds", PARAM_INT, 50, 1, CASINO_MAX_ROUNDS, NULL,
     "rounds before the episode ends drawn"},
};

static const char *const test_specs[] = {
    "casino(players=4,partnerships=true)",
    "casino(players=4,partnerships=true,sweeps=true,build_as_card=true,"
    "owner_may_trail=true)",
    "casino(players=3,raise_with_table=true,owner_may_trail=true,"
    "cards_scoring=two_and_last)",
    "casino(players=3,build_as_card=true,sweeps=true,target=11)",
    "casino(players=4,raise_with_table=true,sweeps=true)",
    NULL};

static const char *const view_keys[] = {
    "hand",   "table",         "builds",  "dead",
    "won",    "sweeps",        "scores",  "last_round",
    "dealer", "last_capturer", "round",   "deal",
    "stock",  "last_deal",     "history", NULL};

/* ==== static helpers: options and seats ================================ */

static int nplayers(const struct game *g)
{
    return g->dims.players;
}

static int opt(const struct game *g, int p)
{
    return (int)g->params.v[p];
}

static struct casino_rules rules_of(const struct game *g)
{
    return (struct casino_rules){opt(g, CASINO_P_AS_CARD) != 0, opt(g, CASINO_P_RAISE) != 0,
                                 opt(g, CASINO_P_OWNER_TRAIL) != 0};
}

static int side_of(const struct game *g, int seat)
{
    return g->dims.team[seat];
}

/* Every card on the table: loose, dead and in builds. */
static hand_t table_cards(const struct casino_state *st)
{
    return st->loose | st->dead | casino_build_cards(st);
}

/* True if no seat holds a card. Seats past the players never do, so all
 * CASINO_MAXP hands are looked at at once, without a loop. */
static bool hands_empty(const struct game *g, const struct casino_state *st)
{
    _Static_assert(CASINO_MAXP == 4, "hands_empty reads four hands");
    (void)g;
    return !(st->hand[0] | st->hand[1] | st->hand[2] | st->hand[3]);
}

/* ==== static helpers: deals and scoring ================================ */

/* Gives four pack cards to each seat from the dealer's left. */
static void deal_hands(const struct game *g, struct casino_state *st)
{
    int n = nplayers(g);
    for (int i = 1, seat = st->dealer; i <= n; i++) {
        seat = seat + 1 < n ? seat + 1 : 0; /* dealer + i, mod n */
        for (int k = 0; k < CASINO_HAND; k++)
            st->hand[seat] |= card_bit(st->pack[st->next++]);
    }
}

/* Starts a round: a new pack (prefix pre on top), hands, the table. */
static int start_round(const struct game *g, struct casino_state *st,
                       const uint8_t *pre, int npre)
{
    int rc = deck_build(st->pack, CARDS_IN_PACK, pre, npre, &st->rng);
    if (rc)
        return rc;
    memset(st->won, 0, sizeof st->won);
    memset(st->build, 0, sizeof st->build);
    st->builds = st->multiple = 0;
    memset(st->owner, CASINO_NO_SEAT, sizeof st->owner);
    memset(st->sweeps, 0, sizeof st->sweeps);
    st->loose = 0;
    st->dead = 0;
    st->next = 0;
    st->nhist = 0;
    st->last_capturer = CASINO_NO_SEAT;
    deal_hands(g, st);
    for (int k = 0; k < CASINO_TABLE_DEAL; k++)
        st->loose |= card_bit(st->pack[st->next++]);
    st->turn = (uint8_t)((st->dealer + 1) % nplayers(g));
    return 0;
}

/* Cards and spades won per side; each side's points from single cards. */
static void count_sides(const struct game *g, const struct casino_state *st,
                        int *ncards, int *nspades, int *pts)
{
    for (int p = 0; p < nplayers(g); p++) {
        int s = side_of(g, p);
        hand_t w = st->won[p];
        ncards[s] += hand_count(w);
        nspades[s] += hand_count(w & suit_mask(SPADES));
        pts[s] += hand_has(w, card_make(10, DIAMONDS)) ? 2 : 0;
        pts[s] += hand_has(w, card_make(2, SPADES));
        for (int su = 0; su < 4; su++)
            pts[s] += hand_has(w, card_make(ACE, su));
        if (opt(g, CASINO_P_SWEEPS))
            pts[s] += st->sweeps[p];
    }
}

/* Scores the round's piles into last_points and the game totals. */
static void score_round(const struct game *g, struct casino_state *st)
{
    int n = g->dims.teams, ncards[CASINO_MAXP] = {0};
    int nspades[CASINO_MAXP] = {0}, pts[CASINO_MAXP] = {0};
    bool two = opt(g, CASINO_P_CARDS) == CARDS_TWO_AND_LAST;
    count_sides(g, st, ncards, nspades, pts);
    int most = game_sole_best(ncards, n), spades = game_sole_best(nspades, n);
    if (most >= 0)
        pts[most] += two ? 2 : 3;
    if (spades >= 0)
        pts[spades] += 1;
    if (two && st->last_capturer != CASINO_NO_SEAT)
        pts[side_of(g, st->last_capturer)] += 1;
    for (int s = 0; s < n; s++) {
        st->last_points[s] = (int8_t)pts[s];
        st->score[s] = (int16_t)(st->score[s] + pts[s]);
    }
}

/* After scoring: the winner, a drawn end at the cap, or another round. */
static void close_round(const struct game *g, struct casino_state *st)
{
    int n = g->dims.teams, best[CASINO_MAXP];
    st->rounds++;
    for (int s = 0; s < n; s++)
        best[s] = st->score[s];
    int top = game_sole_best(best, n);
    if (top >= 0 && st->score[top] >= opt(g, CASINO_P_TARGET)) {
        st->over = 1;
        st->winner = (uint8_t)top;
    } else if (st->rounds >= opt(g, CASINO_P_MAX_ROUNDS)) {
        st->over = 1;
    } else {
        st->dealer = (uint8_t)((st->dealer + 1) % nplayers(g));
        start_round(g, st, NULL, 0);
    }
}

/* Out of line: once a round, and apply's frame is kept small. */
static __attribute__((noinline)) void end_round(const struct game *g,
                                                struct casino_state *st)
{
    if (st->last_capturer != CASINO_NO_SEAT)
        st->won[st->last_capturer] |= table_cards(st);
    st->loose = 0;
    st->dead = 0;
    memset(st->build, 0, sizeof st->build);
    st->builds = st->multiple = 0;
    score_round(g, st);
    close_round(g, st);
}

/* ==== static helpers: plays ============================================ */

static int encode(int card, int kind, int k)
{
    return casino__id(card, kind, k);
}

static void decode(int action, int *card, int *kind, int *k)
{
    int a = action - CASINO_TRAILS;
    *k = a % CASINO_OPTS;
    a /= CASINO_OPTS;
    *kind = a % CASINO_KINDS;
    *card = a / CASINO_KINDS;
}

/* The items of option k of (card, kind) for the seat to play; false if
 * there is no such legal option. */
static bool block_items(const struct game *g, const struct casino_state *st,
                        int card, int kind, int k, uint64_t *items)
{
    struct casino_rules ru = rules_of(g);
    return !st->over && casino__option(st, &ru, st->turn, card, kind, k, items);
}

/* The block and rank of overflow slot i for the seat to play: the i-th
 * option, in (card, kind, rank) order, beyond its block's first
 * CASINO_OPTS. False if this state has fewer overflow options. */
static bool overflow_move(const struct game *g, const struct casino_state *st,
                          int i, int *card, int *kind, int *k)
{
    struct casino_rules ru = rules_of(g);
    struct casino_counts n[CASINO_HAND];
    hand_t h = st->hand[st->turn];
    if (st->over)
        return false;
    casino__counts(st, &ru, st->turn, h, n);
    for (int j = 0; h; h &= h - 1, j++) {
        for (int kd = 0; kd < CASINO_KINDS; kd++) {
            int extra = n[j].n[kd] - CASINO_OPTS;
            if (extra > 0 && i < extra) {
                *card = hand_first(h);
                *kind = kd;
                *k = CASINO_OPTS + i;
                return true;
            }
            i -= extra > 0 ? extra : 0;
        }
    }
    return false;
}

/* Where action points for the seat to play: its card, kind (CASINO_TRAIL
 * for a trail) and rank k in its block. False for an overflow slot beyond
 * this state's overflow options. */
static bool locate(const struct game *g, const struct casino_state *st,
                   int action, int *card, int *kind, int *k)
{
    if (action < CASINO_TRAILS) {
        *card = action;
        *kind = CASINO_TRAIL;
        *k = 0;
        return true;
    }
    if (action < CASINO_STABLE) {
        decode(action, card, kind, k);
        return true;
    }
    return overflow_move(g, st, action - CASINO_STABLE, card, kind, k);
}

/* The cards seat may trail. Ownership and option owner_may_trail aside, any
 * card; but on a full table (CASINO_TABLE_MAX numeral items: the table holds
 * items) a numeral only when the seat has no other play at all (plays is
 * nonzero if it has a capture or a build). */
static hand_t trail_cards(const struct game *g, const struct casino_state *st,
                          int seat, int items, int plays)
{
    hand_t t = st->hand[seat];
    unsigned owned = casino__owned(st, seat), held, twice;
    /* A seat owning no build may trail any card (the common case); an
     * owner only with owner_may_trail, and only a card after which he
     * holds one of each owned build's value. */
    if (owned && !opt(g, CASINO_P_OWNER_TRAIL))
        t = 0;
    casino__rank_sets(t, &held, &twice);
    for (hand_t h = owned ? t : 0; h; h &= h - 1) {
        int r = card_rank(hand_first(h));
        unsigned after = held & ~(~twice & 1u << r);
        t &= ~(h & -h & -(hand_t)((owned & ~after) != 0));
    }
    if (items < CASINO_TABLE_MAX)
        return t;
    if (plays > 0 || (t & ~CASINO_NUMERALS))
        return t & ~CASINO_NUMERALS;
    return t;
}

/* Puts card on the table. A numeral trailed onto a full table (by a seat
 * with no other play) lies dead instead: out of play until the round's
 * end, when it goes with the table to the last capturer. */
static void trail(struct casino_state *st, int card)
{
    /* Bitwise, not logical, operators: whether the card is a numeral is
     * a coin toss a branch would often mispredict. */
    hand_t bit = card_bit(card);
    hand_t dead = -(hand_t)((hand_has(CASINO_NUMERALS, card) &
                             (casino__items(st) >= CASINO_TABLE_MAX)));
    st->dead |= bit & dead;
    st->loose |= bit & ~dead;
}

/* Takes the items off the table; returns their cards. */
static hand_t lift(struct casino_state *st, uint64_t items)
{
    hand_t h = items & ~CASINO_BUILD_BITS;
    st->loose &= ~h;
    for (uint64_t b = items & CASINO_BUILD_BITS; b; b &= b - 1) {
        int v = __builtin_ctzll(b) - CASINO_BUILD_SHIFT;
        h |= st->build[v];
        st->build[v] = 0;
        st->builds &= (uint16_t)~(1u << v);
        st->multiple &= (uint16_t)~(1u << v);
        st->owner[v] = CASINO_NO_SEAT;
    }
    return h;
}

static void capture(const struct game *g, struct casino_state *st, int card,
                    uint64_t items)
{
    int seat = st->turn;
    st->won[seat] |= lift(st, items) | card_bit(card);
    st->last_capturer = (uint8_t)seat;
    /* Clearing the table with the round's very last play is no sweep. */
    if (!table_cards(st) && !(st->next == CARDS_IN_PACK && hands_empty(g, st)))
        st->sweeps[seat]++;
}

/* Lays the build of v. Whether it is multiple (its cards add up to more
 * than v) is worked out here once and kept in the state with the values
 * of the builds lying, since every search and observation asks. */
static void make_build(struct casino_state *st, int card, int v, uint64_t items)
{
    int sum = 0;
    st->build[v] = lift(st, items) | card_bit(card);
    st->owner[v] = st->turn;
    for (hand_t h = st->build[v]; h; h &= h - 1)
        sum += card_rank(hand_first(h));
    st->builds |= (uint16_t)(1u << v);
    st->multiple |= (uint16_t)((sum > v) << v);
}

/* Passes the turn; deals again, or ends the round, when hands are empty. */
static void next_turn(const struct game *g, struct casino_state *st)
{
    int next = st->turn + 1;
    /* A compare, not a division: a trail's whole apply is short. */
    st->turn = (uint8_t)(next < nplayers(g) ? next : 0);
    if (!hands_empty(g, st))
        return;
    if (st->next < CARDS_IN_PACK)
        deal_hands(g, st);
    else
        end_round(g, st);
}

/* ==== API: configure, init, play ======================================= */

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[CASINO_P_PLAYERS];
    bool partners = p->v[CASINO_P_PARTNERS] != 0;
    if (partners && n != 4)
        return err_set(err, errlen, ERR_INVAL,
                       "partnerships=true needs players=4 (two sides of "
                       "two, partners opposite), not players=%d",
                       n);
    d->players = n;
    d->teams = partners ? 2 : n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)(partners ? i % 2 : i);
    d->num_actions = CASINO_NUM_ACTIONS;
    d->max_legal = CASINO_MAX_LEGAL;
    d->obs_size = casino__obs_size(n);
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = CASINO_PLAYS * (int)p->v[CASINO_P_MAX_ROUNDS];
    d->ret_low = -1;
    d->ret_high = 1;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct casino_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->winner = CASINO_NO_SEAT;
    return start_round(g, st, deck, ndeck);
}

static uint32_t to_move(const struct game *g, const void *vst)
{
    const struct casino_state *st = vst;
    (void)g;
    return st->over ? 0 : 1u << st->turn;
}

/* Deals finished, and the one being played while the game goes on. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct casino_state *st = vst;
    return st->rounds + (!st->over);
}

/* legal's list on any table (casino__counts): trails, then each block's
 * stable ids, then the overflow ids: the ids ascend because every block
 * id lies below CASINO_STABLE. The blocks holding options are gathered
 * into one mask, bit 16 i + kind for the i-th card's block of kind, in
 * the order of their ids, and walked in one loop: one loop end to
 * mispredict rather than one per card. Out of line: its frame (the
 * counts, the registers it saves) would cost every call of legal,
 * most of which casino__plain_legal answers. */
static __attribute__((noinline)) int
counted_legal(const struct game *g, const struct casino_state *st, int seat,
              int *out)
{
    struct casino_rules ru = rules_of(g);
    struct casino_counts b[CASINO_HAND];
    int n = 0, over = 0, items, card[CASINO_HAND];
    uint64_t blocks = 0;
    hand_t h = st->hand[seat];
    items = casino__counts(st, &ru, seat, h, b);
#pragma GCC unroll 4
    for (int j = 0; j < CASINO_HAND; j++, h &= h - 1) {
        card[j] = __builtin_ctzll(h | 1ull << 63); /* past the cards: 63 */
        blocks |= (uint64_t)(h ? b[j].kinds : 0) << 16 * j;
    }
    /* Only a full table asks whether the seat has other plays. */
    n = casino__put_trails(out, trail_cards(g, st, seat, items, blocks != 0));
    for (; blocks; blocks &= blocks - 1) {
        int bit = __builtin_ctzll(blocks), kind = bit & 15;
        int m = b[bit >> 4].n[kind], id = encode(card[bit >> 4], kind, 0);
        int fit = m < CASINO_OPTS ? m : CASINO_OPTS;
        if (n + CASINO_OPTS + 4 <= CASINO_MAX_LEGAL)
            n += casino__put_block(out + n, id, fit);
        else
            for (int k = 0; k < fit; k++)
                out[n++] = id + k;
        over += m - fit;
    }
    for (int k = 0; k < over; k++)
        out[n++] = CASINO_STABLE + k;
    return n;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct casino_state *st = vst;
    if (st->over || seat != st->turn)
        return 0;
    /* A table with builds (a decision in five) skips casino__plain_legal,
     * its frame and its tests, at once. */
    int n = casino_any_build(st) ? -1 : casino__plain_legal(st, seat, out);
    return n >= 0 ? n : counted_legal(g, st, seat, out);
}

/* Writes the play into the round's history and takes its card from the
 * hand of the seat to play. */
static void record(struct casino_state *st, int card, int kind,
                   uint64_t items)
{
    st->hist_card[st->nhist] = (uint8_t)card;
    st->hist_kind[st->nhist] = (uint8_t)kind;
    st->hist_items[st->nhist++] = items;
    st->hand[st->turn] &= ~card_bit(card);
}

/* apply for a capture or a build: its items found again (casino__option).
 * Out of line, so that a trail (six plays in ten) needs no frame for the
 * search's call. */
static __attribute__((noinline)) void play(const struct game *g,
                                           struct casino_state *st,
                                           int action)
{
    int card, kind, k;
    uint64_t items = 0;
    /* game_apply has checked that action is legal: it is found. */
    locate(g, st, action, &card, &kind, &k);
    block_items(g, st, card, kind, k, &items);
    record(st, card, kind, items);
    if (kind == 0)
        capture(g, st, card, items);
    else
        make_build(st, card, kind + 1, items);
}

static int apply(const struct game *g, void *vst, int action)
{
    struct casino_state *st = vst;
    if (action >= CASINO_TRAILS) {
        play(g, st, action);
    } else {
        record(st, action, CASINO_TRAIL, 0);
        trail(st, action);
    }
    next_turn(g, st);
    return 0;
}

/* 0 until the end; then +1 for the winning side, the rest share -1. */
static void returns(const struct game *g, const void *vst, double *out)
{
    const struct casino_state *st = vst;
    bool decided = st->over && st->winner != CASINO_NO_SEAT;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== API: view and names ============================================== */

static void pack_builds(const struct casino_state *st, msgpack_packer *pk)
{
    int nb = 0;
    for (int v = 2; v <= CASINO_VMAX; v++)
        nb += st->build[v] != 0;
    view_pack_array(pk, (size_t)nb);
    for (int v = 2; v <= CASINO_VMAX; v++) {
        if (!st->build[v])
            continue;
        view_pack_map(pk, 4);
        view_pack_str(pk, "value");
        view_pack_int(pk, v);
        view_pack_str(pk, "cards");
        view_pack_hand(pk, st->build[v]);
        view_pack_str(pk, "multiple");
        if (casino__multiple(st, v))
            view_pack_bool(pk, 1);
        else
            view_pack_bool(pk, 0);
        view_pack_str(pk, "owner");
        view_pack_int(pk, st->owner[v]);
    }
}

/* The name of the round's play i; one too long for GAME_NAME_MAX is cut to
 * its card, kind and number of cards taken (never mid-character). Returns
 * its length. */
static size_t history_name(const struct casino_state *st, int i, char *buf,
                           size_t len)
{
    int card = st->hist_card[i], kind = st->hist_kind[i];
    uint64_t items = st->hist_items[i];
    char c[8];
    /* The usual plays, a trail and the capture of one item, are written
     * here from pieces as casino__name writes them (one part needs no
     * grouping); the rest go through casino__name. */
    if ((kind == CASINO_TRAIL || (!kind && hand_count(items) == 1)) &&
        len >= 40) {
        char *p = kind ? view_cat(buf, "trail ")
                       : view_cat(buf, "play ");
        p = view_cat_card(p, card);
        if (!kind) {
            int b = __builtin_ctzll(items); /* the one item */
            p = view_cat(p, " capture ");
            p = items & CASINO_BUILD_BITS
                    ? view_cat(view_cat_num(p, b - CASINO_BUILD_SHIFT),
                               "-build")
                    : view_cat_card(p, b);
        }
        *p = '\0';
        return (size_t)(p - buf);
    }
    int n = casino__name(card, kind, items, buf, len);
    if (n < (int)len)
        return (size_t)n;
    card_name(card, c, sizeof c);
    if (kind)
        text_fmt(buf, len, "play %s build %d on %d items", c, kind + 1,
                 hand_count(items));
    else
        text_fmt(buf, len, "play %s capture %d items", c, hand_count(items));
    return strlen(buf);
}

/* This round's plays as [seat, name]; seats follow the turn order. */
static void pack_history(const struct game *g, const struct casino_state *st,
                         msgpack_packer *pk)
{
    char name[GAME_NAME_MAX];
    view_pack_array(pk, st->nhist);
    for (int i = 0, seat = st->dealer; i < st->nhist; i++) {
        size_t n = history_name(st, i, name, sizeof name);
        seat = (seat + 1) & -(seat + 1 < nplayers(g)); /* dealer + 1 + i, mod n */
        view_pack_entryn(pk, seat, name, n);
    }
}

static void pack_ints(msgpack_packer *pk, const int *v, int n)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        view_pack_int(pk, v[i]);
}

/* Per seat: sweeps, its side's score, its side's last round points. */
static void pack_counts(const struct game *g, const struct casino_state *st,
                        msgpack_packer *pk)
{
    int n = nplayers(g), sw[CASINO_MAXP], sc[CASINO_MAXP], last[CASINO_MAXP];
    for (int p = 0; p < n; p++) {
        sw[p] = st->sweeps[p];
        sc[p] = st->score[side_of(g, p)];
        last[p] = st->last_points[side_of(g, p)];
    }
    view_pack_str(pk, "sweeps");
    pack_ints(pk, sw, n);
    view_pack_str(pk, "scores");
    pack_ints(pk, sc, n);
    view_pack_str(pk, "last_round");
    pack_ints(pk, last, n);
}

static int deal_number(const struct game *g, const struct casino_state *st)
{
    return (st->next - CASINO_TABLE_DEAL) / (CASINO_HAND * nplayers(g));
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct casino_state *st = vst;
    view_pack_str(pk, "hand");
    view_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "table");
    view_pack_hand(pk, st->loose);
    view_pack_str(pk, "builds");
    pack_builds(st, pk);
    view_pack_str(pk, "dead");
    view_pack_hand(pk, st->dead);
    view_pack_str(pk, "won");
    view_pack_array(pk, (size_t)nplayers(g));
    for (int p = 0; p < nplayers(g); p++)
        view_pack_hand(pk, st->won[p]);
    pack_counts(g, st, pk);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "last_capturer");
    if (st->last_capturer == CASINO_NO_SEAT)
        view_pack_nil(pk);
    else
        view_pack_int(pk, st->last_capturer);
    view_pack_str(pk, "round");
    view_pack_int(pk, st->rounds + !st->over);
    view_pack_str(pk, "deal");
    view_pack_int(pk, deal_number(g, st));
    view_pack_str(pk, "stock");
    view_pack_int(pk, CARDS_IN_PACK - st->next);
    view_pack_str(pk, "last_deal");
    if (st->next == CARDS_IN_PACK)
        view_pack_bool(pk, 1);
    else
        view_pack_bool(pk, 0);
    view_pack_str(pk, "history");
    pack_history(g, st, pk);
    return 0;
}

static int action_name(const struct game *g, const void *vst, int action,
                       char *buf, size_t len)
{
    const struct casino_state *st = vst;
    char name[GAME_NAME_MAX], c[8], what[24] = " capture";
    int card, kind, k;
    uint64_t items;
    if (!locate(g, st, action, &card, &kind, &k))
        return text_fmt(buf, len, "play overflow #%d", action - CASINO_STABLE);
    if (kind == CASINO_TRAIL)
        return casino__name(card, CASINO_TRAIL, 0, buf, len);
    if (block_items(g, st, card, kind, k, &items) &&
        casino__name(card, kind, items, name, sizeof name) < (int)sizeof name)
        return text_fmt(buf, len, "%s", name);
    /* No such option here, or a name too long: the id's generic name. */
    card_name(card, c, sizeof c);
    if (kind)
        text_fmt(what, sizeof what, " build %d", kind + 1);
    return text_fmt(buf, len, "play %s%s #%d", c, what, k);
}

/* ==== API: determinization ============================================= */

/* True if every build's owner holds a card of its value. */
static bool owners_hold(const struct game *g, const struct casino_state *st)
{
    for (int p = 0; p < nplayers(g); p++)
        if (casino__owned(st, p) & ~casino__ranks(st->hand[p]))
            return false;
    return true;
}

/* Deals pool to the hands of every seat but seat (size[p] cards each) and
 * the rest to the undealt pack. */
static void place(const struct game *g, struct casino_state *st, int seat,
                  const int *size, const uint8_t *pool, int np)
{
    int k = 0;
    for (int p = 0; p < nplayers(g); p++) {
        if (p == seat)
            continue;
        st->hand[p] = 0;
        for (int i = 0; i < size[p]; i++)
            st->hand[p] |= card_bit(pool[k++]);
    }
    memcpy(st->pack + st->next, pool + k, (size_t)(np - k));
}

/* Moves into each owner's first slots of the shuffled pool a card of the
 * value of each build it owns (consistent, not uniform: the fallback). */
static void force_owners(const struct game *g, const struct casino_state *st,
                         int seat, const int *size, uint8_t *pool, int np)
{
    uint64_t fixed = 0;
    int slot = 0;
    for (int p = 0; p < nplayers(g); p++) {
        if (p == seat)
            continue;
        unsigned need = casino__owned(st, p);
        for (int j = 0, at = slot; j < np && need; j++) {
            unsigned r = 1u << card_rank(pool[j]);
            if ((fixed >> j) & 1 || !(need & r))
                continue;
            uint8_t t = pool[at];
            pool[at] = pool[j];
            pool[j] = t;
            fixed |= (uint64_t)1 << at++;
            need &= ~r;
            j = -1; /* the swap moved an unfixed card: look again */
        }
        slot += size[p];
    }
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct casino_state *st = vst;
    int size[CASINO_MAXP] = {0}, np = 0, tries = 0;
    uint8_t pool[CARDS_IN_PACK];
    hand_t seen = st->hand[seat] | table_cards(st);
    for (int p = 0; p < nplayers(g); p++) {
        seen |= st->won[p];
        if (p != seat)
            size[p] = hand_count(st->hand[p]);
    }
    for (int c = 0; c < CARDS_IN_PACK; c++)
        if (!hand_has(seen, c))
            pool[np++] = (uint8_t)c;
    do {
        rng_shuffle_u8(rng, pool, np);
        if (++tries == DET_TRIES)
            force_owners(g, st, seat, size, pool, np);
        place(g, st, seat, size, pool, np);
    } while (!owners_hold(g, st) && tries < DET_TRIES);
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== API: description ================================================= */

/* Appends to buf (len bytes) at *w; *w counts what was wanted, as
 * snprintf does, so truncation is detected once at the end. */
static void describe_table(const struct casino_state *st, char *buf, size_t len,
                           size_t *w)
{
    char cards[CARDS_IN_PACK * 8];
    hand_format(st->loose, cards, sizeof cards);
    text_appendf(buf, len, w, "table: %s\n", st->loose ? cards : "(empty)");
    if (st->dead) {
        hand_format(st->dead, cards, sizeof cards);
        text_appendf(buf, len, w, "  dead: %s\n", cards);
    }
    for (int v = 2; v <= CASINO_VMAX; v++) {
        if (!st->build[v])
            continue;
        hand_format(st->build[v], cards, sizeof cards);
        text_appendf(buf, len, w, "  %d-build (%s, seat %d's): %s\n", v,
                     casino__multiple(st, v) ? "multiple" : "single",
                     st->owner[v], cards);
    }
}

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    const struct casino_state *st = vst;
    char cards[64];
    size_t w = 0;
    text_appendf(buf, len, &w, "Casino round %d, deal %d%s, %d card%s undealt\n",
                 st->rounds + !st->over, deal_number(g, st),
                 st->next == CARDS_IN_PACK ? " (last)" : "",
                 CARDS_IN_PACK - st->next, text_s(CARDS_IN_PACK - st->next));
    describe_table(st, buf, len, &w);
    for (int p = 0; p < nplayers(g); p++) {
        hand_format(st->hand[p], cards, sizeof cards);
        text_appendf(buf, len, &w,
                     "seat %d%s: side %d score %d; won %d card%s, "
                     "%d sweep%s; ",
                     p, p == st->dealer ? " (dealer)" : "", side_of(g, p),
                     st->score[side_of(g, p)], hand_count(st->won[p]),
                     text_s(hand_count(st->won[p])), st->sweeps[p],
                     text_s(st->sweeps[p]));
        if (seat < 0 || seat == p)
            text_appendf(buf, len, &w, "hand %s\n", st->hand[p] ? cards : "-");
        else
            text_appendf(buf, len, &w, "%d in hand\n", hand_count(st->hand[p]));
    }
    if (!st->over)
        text_appendf(buf, len, &w, "seat %d to play\n", st->turn);
    else if (st->winner == CASINO_NO_SEAT)
        text_appendf(buf, len, &w, "game over: drawn\n");
    else
        text_appendf(buf, len, &w, "game over: side %d wins\n", st->winner);
    return (int)w;
}

/* The estimate op: each side's lead in points over the best other side, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct casino_state *st = vst;
    double pts[CASINO_MAXP];
    for (int t = 0; t < g->dims.teams; t++)
        pts[t] = st->score[t];
    game_estimate_lead(g, pts, opt(g, CASINO_P_TARGET), out);
}

/* ==== the descriptor =================================================== */

const struct game_def casino_game = {
    .name = "casino",
    .long_name = "Casino",
    .source = "The Adventures of BJ and Tony Morris, family games page, "
              "Casino; see docs/games/casino.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct casino_state),
    .params = params,
    .nparams = CASINO_NPARAMS,
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
    .observe = casino__observe,
    .obs_layout = casino__obs_layout,
    .view = view,
    .action_name = action_name,
    .determinize = determinize,
    .describe = describe,
    .deals = deals,
    .estimate = estimate,
};
