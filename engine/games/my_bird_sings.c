/* my_bird_sings.c — My Bird Sings: four cards each, one card passed round
 * to the left each turn, and the first hand holding four of a suit (a
 * flush) or one card of each suit (a rainbow) sings and takes the pool.
 *
 * Source: W. H. Peel, Round Games with Cards (1891), "My Bird Sings";
 * docs/games/my_bird_sings.md states it as played here. Decisions, with their
 * reasons:
 * - Seats are numbered clockwise; "left" is seat + 1. Seat 0 deals first,
 *   then the deal passes left; the original leader is the dealer's
 *   left. Pool: one chip from each player, one more from the dealer.
 * - Pack order: deck[0] goes to the dealer's left, then one card at a time
 *   clockwise until each holds four (three with three_cards=true); the
 *   rest is the stock, drawn from its top (the next card) onwards. With
 *   pack=short (7-A, 32 cards, up to 8 players) card ids stay the standard
 *   ones, so "7♠" names the same card in both packs.
 * - When one sings: after the deal, every hand is checked from the
 *   dealer's left; in play, a player checks on receiving a card, with any
 *   four of the five held (three of four with three_cards: flushes only).
 *   Singing is never worse than not, so it is forced: the seat's one legal
 *   action is "sing". In the ordinary game the first song ends the hand.
 * - Passing: method=throw (default), the player throws a card face down to
 *   his left neighbour ("throw 7♥"). method=draw, the left neighbour draws
 *   a card blind from the player's hand: a chance event, so the
 *   drawer's one action is "draw". The leader starts with four cards and
 *   passes first, so he holds four, the others five, when they check.
 * - Stock exchange (option exchange, default on): when the turn comes
 *   back to the leader after three full circuits, and at each later
 *   circuit, he may ("no exchange") put one card out of play and take the
 *   top card of the stock, putting out of play also any card drawn of the
 *   suit he put out until another suit comes; if the stock ends first he
 *   keeps the last card drawn. Only while the stock has a card. Cards out of
 *   play lie face up (the suit rule must be checkable). Then he checks for
 *   a song and passes as usual. With 13 players (8 with the short pack)
 *   there is no stock and no exchange.
 * - Cap: when the turn comes back to the leader for the
 *   max_circuits-th time (default 20) and nobody sings, the hand is void
 *   and the pool carries to the next deal, where everyone stakes again.
 *   After the last deal (option deals, default 1) an unwon pool goes back
 *   to those who staked it, so the game stays zero-sum.
 * - until_exhausted: a song is a trick: the singer lays the four
 *   cards face up out of play (three with three_cards), takes as many from
 *   the stock, may sing again, and finishes his turn by passing. The hand
 *   ends when the stock cannot refill a singer (or at the cap); most tricks
 *   takes the pool, ties split it and the odd chips go one each to the tied
 *   players from the dealer's left; no trick at all is a void hand. Which
 *   cards make the trick when five could: the lowest card ids of the suit
 *   (flush) or of each suit (rainbow).
 * - three_cards deals three each and recognises only three of a suit, so
 *   it implies flushes only (flushes_only=false with it is refused).
 * - Hidden information: own hand. Public: the cards out of play, and a
 *   song from the moment it is due (the hand that must sing shows the
 *   song's cards; the view's "last_song"). A seat remembers the cards it has
 * held and passed on (they are in some hand, never the stock) and the last card
 * it passed while its left neighbour has not parted with a card since (surely
 * still there). determinize keeps those, resamples the other hands and the
 * stock.
 * - History (view) keeps the deal's last 32 actions; a throw or blind draw
 *   names its card only to the two seats involved.
 * - Action ids: 0-51 "throw c", 52-103 "exchange c" (c = suit*13+rank-1,
 *   cards.h), 104 "no exchange", 105 "draw", 106 "sing".
 * What a seat sees (tensor, view, names, text) is in my_bird_sings_view.c;
 * the state and shared helpers in my_bird_sings.h.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "my_bird_sings.h"

/* ==== constants ======================================================== */

#define SUITS 4
#define SHORT_SUIT 0x1fc1ull /* ace and 7 to king of clubs (bits 0, 6-12) */

enum { PACK_FULL, PACK_SHORT };
enum { M_THROW, M_DRAW };
enum resume { R_DEAL, R_TURN }; /* what a song interrupted */

/* ==== options =========================================================== */

static const char *const packs[] = {"full", "short", NULL};
static const char *const methods[] = {"throw", "draw", NULL};

static const struct param_def mbs_params[MBS_P_COUNT] = {
    {"players", PARAM_INT, 4, 2, MBS_MAXP, NULL,
     "number of players (up to 13 with the full pack, 8 with the short)"},
    {"pack", PARAM_ENUM, PACK_FULL, 0, 0, packs,
     "full: 52 cards; short: the 32 cards 7 to ace"},
    {"method", PARAM_ENUM, M_THROW, 0, 0, methods,
     "throw: pass a card face down to the left; draw: the left neighbour "
     "draws one blind from your hand"},
    {"flushes_only", PARAM_BOOL, 0, 0, 1, NULL,
     "only four of a suit sings (variation)"},
    {"three_cards", PARAM_BOOL, 0, 0, 1, NULL,
     "deal three cards; three of a suit sings (variation)"},
    {"until_exhausted", PARAM_BOOL, 0, 0, 1, NULL,
     "play until the stock is exhausted, each song a trick (variation)"},
    {"exchange", PARAM_BOOL, 1, 0, 1, NULL,
     "the original leader may exchange with the stock after three circuits"},
    {"max_circuits", PARAM_INT, 20, 1, 200, NULL,
     "circuits before a hand without a song is void"},
    {"deals", PARAM_INT, 1, 1, 100, NULL,
     "deals per game; an unwon pool carries to the next deal"},
};

/* ==== static helpers: rules ============================================= */

/* Cards a hand is dealt and a song needs. */
static int song_size(const struct game *g)
{
    return mbs_opt(g, MBS_P_THREE_CARDS) ? 3 : 4;
}

/* The cards of the pack in play: all 52, or ace and 7 to king. */
static hand_t pack_mask(const struct game *g)
{
    hand_t m = 0;
    for (int s = 0; s < SUITS; s++)
        m |= mbs_opt(g, MBS_P_PACK) == PACK_FULL ? suit_mask(s)
                                                 : SHORT_SUIT << (13 * s);
    return m;
}

/* The cards of h that make a song, or 0: a flush (the lowest ids of a suit
 * holding enough) or, unless flushes only, one of each suit (the lowest of
 * each). */
static hand_t song_cards(const struct game *g, hand_t h)
{
    int k = song_size(g);
    hand_t rainbow = 0;
    for (int s = 0; s < SUITS; s++) {
        hand_t in = h & suit_mask(s);
        if (hand_count(in) >= k) {
            while (hand_count(in) > k)
                in &= ~card_bit(63 - __builtin_clzll(in));
            return in;
        }
        if (in)
            rainbow |= card_bit(hand_first(in));
    }
    bool flushes =
        mbs_opt(g, MBS_P_FLUSHES_ONLY) || mbs_opt(g, MBS_P_THREE_CARDS);
    return !flushes && hand_count(rainbow) == SUITS ? rainbow : 0;
}

static void record(struct mbs_state *st, int seat, int action, int card)
{
    struct mbs_hist_entry *e = &st->hist[st->nhist++ % MBS_HIST];
    e->seat = (uint8_t)seat;
    e->action = (uint8_t)action;
    e->card = (uint8_t)card;
}

/* Seat t gives up a card: what its right neighbour sent it is no longer
 * surely there (unless the card that left is public and another one). */
static void lose_card(const struct game *g, struct mbs_state *st, int t,
                      int card, bool public)
{
    int from = mbs_prev(g, t);
    st->hand[t] &= ~card_bit(card);
    if (!public || st->sent[from] == card)
        st->sent[from] = NO_CARD;
}

static void gain_card(struct mbs_state *st, int t, int card)
{
    st->hand[t] |= card_bit(card);
    st->seen[t] |= card_bit(card);
}

/* ==== static helpers: deals and chips =================================== */

static void stake(struct mbs_state *st, int seat, int chips)
{
    st->chips[seat] -= (int16_t)chips;
    st->staked[seat] += (int16_t)chips;
    st->pool += (int16_t)chips;
}

static void clear_pool(struct mbs_state *st)
{
    st->pool = 0;
    memset(st->staked, 0, sizeof st->staked);
}

/* Splits the pool among the seats in mask, odd chips one each from the
 * dealer's left. */
static void share_pool(const struct game *g, struct mbs_state *st,
                       unsigned mask)
{
    int k = __builtin_popcount(mask), each = st->pool / k;
    int odd = st->pool - each * k;
    for (int j = 1; j <= mbs_players(g); j++) {
        int s = (st->dealer + j) % mbs_players(g);
        if (!(mask >> s & 1))
            continue;
        st->chips[s] += (int16_t)(each + (odd > 0));
        odd -= odd > 0;
    }
    clear_pool(st);
}

/* Fills the stock for a deal: prefix pre (card ids of this pack) on top,
 * the rest shuffled. Returns 0 or ERR_INVAL. */
static int build_pack(const struct game *g, struct mbs_state *st,
                      const uint8_t *pre, int npre)
{
    uint8_t ids[CARDS_IN_PACK], index[CARDS_IN_PACK], local[CARDS_IN_PACK];
    int n = 0;
    memset(index, 0xff, sizeof index);
    for (hand_t h = pack_mask(g); h; h &= h - 1) {
        index[hand_first(h)] = (uint8_t)n;
        ids[n++] = (uint8_t)hand_first(h);
    }
    if (npre > n)
        return ERR_INVAL;
    for (int i = 0; i < npre; i++) {
        if (pre[i] >= CARDS_IN_PACK || index[pre[i]] == 0xff)
            return ERR_INVAL;
        local[i] = index[pre[i]];
    }
    int rc = deck_build(st->stock, n, local, npre, &st->rng);
    for (int i = 0; i < n && !rc; i++)
        st->stock[i] = ids[st->stock[i]];
    st->npack = (uint8_t)n;
    st->top = 0;
    return rc;
}

static void reset_deal(struct mbs_state *st)
{
    memset(st->hand, 0, sizeof st->hand);
    memset(st->seen, 0, sizeof st->seen);
    memset(st->sent, NO_CARD, sizeof st->sent);
    memset(st->tricks, 0, sizeof st->tricks);
    st->dead = 0;
    st->scan = 0;
    st->circuits = 0;
    st->exchanged = 0;
    st->nhist = 0;
}

static void scan_deal(const struct game *g, struct mbs_state *st);

/* Stakes, shuffles (prefix only for the first deal), deals and checks the
 * hands. Returns 0 or ERR_INVAL for a bad prefix. */
static int start_deal(const struct game *g, struct mbs_state *st,
                      const uint8_t *pre, int npre)
{
    int n = mbs_players(g);
    reset_deal(st);
    int rc = build_pack(g, st, pre, npre);
    if (rc)
        return rc;
    for (int s = 0; s < n; s++)
        stake(st, s, s == st->dealer ? 2 : 1);
    for (int r = 0; r < song_size(g); r++)
        for (int j = 1; j <= n; j++)
            gain_card(st, (st->dealer + j) % n, st->stock[st->top++]);
    scan_deal(g, st);
    return 0;
}

/* The deal is over (the pool won, shared or carried): next deal, or the
 * end, where an unwon pool goes back to its stakers. */
static void end_deal(const struct game *g, struct mbs_state *st)
{
    if (++st->deals < mbs_opt(g, MBS_P_DEALS)) {
        st->dealer = (uint8_t)mbs_next(g, st->dealer);
        start_deal(g, st, NULL, 0);
        return;
    }
    for (int s = 0; s < mbs_players(g); s++)
        st->chips[s] += st->staked[s];
    clear_pool(st);
    st->phase = MBS_PH_OVER;
}

/* until_exhausted: most tricks takes the pool; none at all is void. */
static void tally_tricks(const struct game *g, struct mbs_state *st)
{
    int best = 0;
    unsigned mask = 0;
    for (int s = 0; s < mbs_players(g); s++)
        best = st->tricks[s] > best ? st->tricks[s] : best;
    for (int s = 0; s < mbs_players(g) && best; s++)
        if (st->tricks[s] == best)
            mask |= 1u << s;
    if (mask)
        share_pool(g, st, mask);
    end_deal(g, st);
}

/* ==== static helpers: the turn ========================================== */

static void continue_turn(const struct game *g, struct mbs_state *st, int seat);

/* If seat's hand sings, it must sing next and shows the song's cards
 * (public from now on); returns whether it sings. */
static bool enter_sing(const struct game *g, struct mbs_state *st, int seat,
                       enum resume resume)
{
    hand_t song = song_cards(g, st->hand[seat]);
    if (!song)
        return false;
    st->phase = MBS_PH_SING;
    st->actor = (uint8_t)seat;
    st->resume = (uint8_t)resume;
    st->song = song;
    st->song_seat = (int8_t)seat;
    return true;
}

/* Checks after the deal, from the dealer's left, then play starts. */
static void scan_deal(const struct game *g, struct mbs_state *st)
{
    while (st->scan < mbs_players(g)) {
        int s = (st->dealer + 1 + st->scan++) % mbs_players(g);
        if (enter_sing(g, st, s, R_DEAL))
            return;
    }
    continue_turn(g, st, mbs_leader(g, st));
}

/* Seat has just received a card (or the stock's): sing or play on. */
static void check_song(const struct game *g, struct mbs_state *st, int seat)
{
    if (!enter_sing(g, st, seat, R_TURN))
        continue_turn(g, st, seat);
}

/* Seat's turn goes on after any song: the cap and the exchange for the
 * leader, then the pass. */
static void continue_turn(const struct game *g, struct mbs_state *st, int seat)
{
    if (seat == mbs_leader(g, st)) {
        if (st->circuits >= mbs_opt(g, MBS_P_MAX_CIRCUITS)) {
            if (mbs_opt(g, MBS_P_UNTIL_EXHAUSTED))
                tally_tricks(g, st);
            else
                end_deal(g, st);
            return;
        }
        if (mbs_opt(g, MBS_P_EXCHANGE) && st->circuits >= 3 && !st->exchanged &&
            mbs_stock_left(st) > 0) {
            st->phase = MBS_PH_EXCHANGE;
            st->actor = (uint8_t)seat;
            return;
        }
    }
    bool throw = mbs_opt(g, MBS_P_METHOD) == M_THROW;
    st->phase = throw ? MBS_PH_THROW : MBS_PH_DRAW;
    st->actor = (uint8_t)(throw ? seat : mbs_next(g, seat));
}

/* A card reaches seat to from its right neighbour. */
static void receive(const struct game *g, struct mbs_state *st, int to,
                    int card)
{
    gain_card(st, to, card);
    if (to == mbs_leader(g, st)) {
        st->circuits++;
        st->exchanged = 0;
    }
    check_song(g, st, to);
}

static void apply_throw(const struct game *g, struct mbs_state *st, int card)
{
    int from = st->actor;
    record(st, from, MBS_A_THROW + card, NO_CARD);
    lose_card(g, st, from, card, false);
    st->sent[from] = (uint8_t)card;
    receive(g, st, mbs_next(g, from), card);
}

/* The actor draws blind from his right neighbour, uniformly (the holder
 * could have shuffled: docs/games/README.md, "Blind draws"). */
static void apply_draw(const struct game *g, struct mbs_state *st)
{
    int to = st->actor, from = mbs_prev(g, to);
    hand_t h = st->hand[from];
    int card = hand_nth(h, (int)rng_below(&st->rng, (uint32_t)hand_count(h)));
    record(st, to, MBS_A_DRAW, card);
    lose_card(g, st, from, card, false);
    st->sent[from] = (uint8_t)card;
    receive(g, st, to, card);
}

/* Out goes `card`, then stock cards of its suit until another suit
 * (or the last stock card) comes, which the leader keeps. */
static void apply_exchange(const struct game *g, struct mbs_state *st, int card)
{
    int seat = st->actor, c;
    record(st, seat, MBS_A_EXCHANGE + card, NO_CARD);
    lose_card(g, st, seat, card, true);
    st->dead |= card_bit(card);
    st->exchanged = 1;
    for (;;) {
        c = st->stock[st->top++];
        if (card_suit(c) != card_suit(card) || mbs_stock_left(st) == 0)
            break;
        st->dead |= card_bit(c);
    }
    gain_card(st, seat, c);
    check_song(g, st, seat);
}

/* Sets the song's cards aside as a trick and refills from the stock; the
 * hand ends when the stock cannot. */
static void take_trick(const struct game *g, struct mbs_state *st, int seat)
{
    int k = song_size(g);
    for (hand_t h = st->song; h; h &= h - 1)
        lose_card(g, st, seat, hand_first(h), true);
    st->dead |= st->song;
    st->tricks[seat]++;
    if (mbs_stock_left(st) < k) {
        tally_tricks(g, st);
        return;
    }
    for (int i = 0; i < k; i++)
        gain_card(st, seat, st->stock[st->top++]);
    if (enter_sing(g, st, seat, (enum resume)st->resume))
        return; /* sings again before play goes on */
    if (st->resume == R_DEAL)
        scan_deal(g, st);
    else
        continue_turn(g, st, seat);
}

static void apply_sing(const struct game *g, struct mbs_state *st)
{
    int seat = st->actor;
    record(st, seat, MBS_A_SING, NO_CARD);
    if (mbs_opt(g, MBS_P_UNTIL_EXHAUSTED)) {
        take_trick(g, st, seat);
        return;
    }
    share_pool(g, st, 1u << seat);
    end_deal(g, st);
}

/* ==== API: setup and play =============================================== */

static int mbs_configure(const struct param_values *p, struct game_dims *d,
                         char *err, size_t errlen)
{
    int n = (int)p->v[MBS_P_PLAYERS], cap = (int)p->v[MBS_P_MAX_CIRCUITS];
    int deals = (int)p->v[MBS_P_DEALS];
    if (p->v[MBS_P_PACK] == PACK_SHORT && n > 8)
        return err_set(err, errlen, ERR_INVAL,
                       "pack=short allows at most 8 players (players=%d)", n);
    if (p->v[MBS_P_THREE_CARDS] && p->set[MBS_P_FLUSHES_ONLY] &&
        !p->v[MBS_P_FLUSHES_ONLY])
        return err_set(err, errlen, ERR_INVAL,
                       "three_cards recognises "
                       "flushes only: flushes_only=false conflicts");
    d->players = n;
    d->teams = n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)i;
    d->num_actions = MBS_NUM_ACTIONS;
    d->max_legal = 6;
    d->obs_size = 4 * CARDS_IN_PACK + 5 * n + 8;
    d->obs_low = 0;
    d->obs_high = 1;
    /* Per deal: n passes a circuit, one exchange decision, the songs. */
    d->max_length = deals * ((cap + 1) * (n + 1) + MBS_MAX_SONGS + n);
    d->ret_low = -2.0 * deals;
    d->ret_high = (double)deals * n;
    return 0;
}

static int mbs_init(const struct game *g, void *vst, uint64_t seed,
                    const uint8_t *deck, int ndeck)
{
    struct mbs_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->song_seat = -1;
    if (ndeck < 0)
        return ERR_INVAL;
    return start_deal(g, st, deck, ndeck);
}

static uint32_t mbs_to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct mbs_state *st = vst;
    return st->phase == MBS_PH_OVER ? 0 : 1u << st->actor;
}

static int mbs_legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct mbs_state *st = vst;
    int n = 0;
    if (!(mbs_to_move(g, vst) >> seat & 1))
        return 0;
    switch (st->phase) {
    case MBS_PH_SING:
        out[n++] = MBS_A_SING;
        break;
    case MBS_PH_DRAW:
        out[n++] = MBS_A_DRAW;
        break;
    case MBS_PH_EXCHANGE:
        for (hand_t h = st->hand[seat]; h; h &= h - 1)
            out[n++] = MBS_A_EXCHANGE + hand_first(h);
        out[n++] = MBS_A_NO_EXCHANGE;
        break;
    default:
        for (hand_t h = st->hand[seat]; h; h &= h - 1)
            out[n++] = MBS_A_THROW + hand_first(h);
        break;
    }
    return n;
}

static int mbs_apply(const struct game *g, void *vst, int action)
{
    struct mbs_state *st = vst;
    if (action < MBS_A_EXCHANGE) {
        apply_throw(g, st, action - MBS_A_THROW);
    } else if (action < MBS_A_NO_EXCHANGE) {
        apply_exchange(g, st, action - MBS_A_EXCHANGE);
    } else if (action == MBS_A_NO_EXCHANGE) {
        record(st, st->actor, action, NO_CARD);
        st->exchanged = 1;
        continue_turn(g, st, st->actor);
    } else if (action == MBS_A_DRAW) {
        apply_draw(g, st);
    } else {
        apply_sing(g, st);
    }
    return 0;
}

static void mbs_returns(const struct game *g, const void *vst, double *out)
{
    const struct mbs_state *st = vst;
    for (int s = 0; s < mbs_players(g); s++)
        out[s] = st->chips[s];
}

/* ==== API: determinize ================================================== */

/* Moves the cards of h into a[] (in id order); returns how many. */
static int to_list(hand_t h, uint8_t *a)
{
    int n = 0;
    for (; h; h &= h - 1)
        a[n++] = (uint8_t)hand_first(h);
    return n;
}

/* Hand slots of the other seats, one entry per card they hold that is
 * not pinned to them, in a random order. */
static int other_slots(const struct game *g, const struct mbs_state *st,
                       int seat, const hand_t *pin, uint8_t *slot,
                       struct rng *r)
{
    int n = 0;
    for (int s = 0; s < mbs_players(g); s++) {
        if (s == seat)
            continue;
        int k = hand_count(st->hand[s] & ~pin[s]);
        while (k--)
            slot[n++] = (uint8_t)s;
    }
    rng_shuffle_u8(r, slot, n);
    return n;
}

/* Cards seat knows to be in another given hand: the one it passed that
 * its neighbour surely holds, and a song shown but not yet sung. */
static hand_t pinned_cards(const struct game *g, const struct mbs_state *st,
                           int seat, hand_t *pin)
{
    memset(pin, 0, sizeof(hand_t) * MBS_MAXP);
    if (st->sent[seat] != NO_CARD)
        pin[mbs_next(g, seat)] |= card_bit(st->sent[seat]);
    if (st->phase == MBS_PH_SING)
        pin[st->actor] |= st->song;
    pin[seat] = 0;
    hand_t all = 0;
    for (int s = 0; s < mbs_players(g); s++)
        all |= pin[s];
    return all;
}

/* Other hands and the stock are dealt again from the cards seat cannot
 * place: those it passed on go to hands only, pinned cards stay, hand
 * sizes are kept. */
static void mbs_determinize(const struct game *g, void *vst, int seat,
                            struct rng *rng)
{
    struct mbs_state *st = vst;
    uint8_t must[CARDS_IN_PACK], any[CARDS_IN_PACK], slot[CARDS_IN_PACK];
    hand_t pin[MBS_MAXP], pinned = pinned_cards(g, st, seat, pin);
    hand_t hidden = pack_mask(g) & ~st->hand[seat] & ~st->dead & ~pinned;
    hand_t gone = mbs_passed_on(st, seat) & ~pinned;
    int nmust = to_list(gone, must), nany = to_list(hidden & ~gone, any);
    rng_seed(&st->rng, rng_next(rng));
    int nslot = other_slots(g, st, seat, pin, slot, &st->rng);
    rng_shuffle_u8(&st->rng, must, nmust);
    rng_shuffle_u8(&st->rng, any, nany);
    for (int s = 0; s < mbs_players(g); s++)
        if (s != seat)
            st->hand[s] &= pin[s];
    for (int i = 0; i < nslot; i++)
        gain_card(st, slot[i], i < nmust ? must[i] : any[i - nmust]);
    for (int i = nslot - nmust; i < nany; i++)
        st->stock[st->top + i - (nslot - nmust)] = any[i];
    for (int s = 0; s < mbs_players(g); s++)
        if (s != seat && st->sent[s] != NO_CARD &&
            !hand_has(st->hand[mbs_next(g, s)], st->sent[s]))
            st->sent[s] = NO_CARD;
}

/* ==== the definition ==================================================== */

static const char *const mbs_test_specs[] = {
    "my_bird_sings(players=13)",
    "my_bird_sings(players=8,pack=short)",
    "my_bird_sings(players=3,method=draw,until_exhausted=true)",
    "my_bird_sings(players=5,three_cards=true,until_exhausted=true)",
    "my_bird_sings(players=2,flushes_only=true,max_circuits=40)",
    "my_bird_sings(players=6,pack=short,method=draw,deals=3)",
    "my_bird_sings(players=13,until_exhausted=true,method=draw)",
    "my_bird_sings(players=4,exchange=false,flushes_only=true,deals=4)",
    NULL,
};

/* The deals op: deals finished, plus the one in play. */
static int mbs_deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct mbs_state *st = vst;
    return st->deals + (st->phase != MBS_PH_OVER);
}

const struct game_def my_bird_sings_game = {
    .name = "my_bird_sings",
    .long_name = "My Bird Sings",
    .source = "W. H. Peel, Round Games with Cards (1891), My Bird Sings; see "
              "docs/games/my_bird_sings.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct mbs_state),
    .params = mbs_params,
    .nparams = MBS_P_COUNT,
    .cards = &cards_standard,
    .view_keys = my_bird_sings__view_keys,
    .test_specs = mbs_test_specs,
    .configure = mbs_configure,
    .init = mbs_init,
    .to_move = mbs_to_move,
    .legal = mbs_legal,
    .apply = mbs_apply,
    .returns = mbs_returns,
    .observe = my_bird_sings__observe,
    .obs_layout = my_bird_sings__obs_layout,
    .view = my_bird_sings__view,
    .action_name = my_bird_sings__action_name,
    .determinize = mbs_determinize,
    .describe = my_bird_sings__describe,
    .deals = mbs_deals,
};
