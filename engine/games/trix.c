/* trix.c — Trix: two to eight players with the full 72-card Standard Trix
 * pack; four cards in hand, any card to any set, the highest card (Trixie,
 * then the Prize Trix and Prize doubles, then the highest sum) takes the
 * set and the Trix cards in it; game 500.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "General terms" and "Trix";
 * docs/games/trix.md states them as played here. Cards,
 * names ("7-3", "Trixie"), set winners and card points come from
 * engine/trix_pack.h.
 *
 * Decisions (docs/games/trix.md explains the main ones):
 * - Seats clockwise; the deal passes left after each deal. For the first the
 *   book has each player draw a card, the lowest sum dealing: the first dealer
 *   is a seeded random seat (game_first_dealer; docs/games/README.md, "First
 *   dealer"), and seat 0 when an explicit deck is given, so that deck[0] goes
 *   to seat 1.
 * - Pack order: deck[0] goes to the dealer's left, one card at a time
 *   clockwise, four each; the rest is a single face-down stock drawn
 *   from the next card on. Later deals are shuffled from the state RNG.
 * - The player left of the dealer leads the first set; a set's winner
 *   leads the next. Any card may be played (the book: "any card he may
 *   choose"; beating the sum is only needed to take the set).
 * - Each player draws one card right after playing while the stock lasts.
 * - A set is won by trix_set_winner: Trixie, 15-15, 10-10, 5-5, 9-9 ...
 *   0-0, else the highest sum, like sums to the first played (the book).
 * - The winner scores the Trix points of the set's cards: sums 5..30 score
 *   their sum, Trixie 40 (300 per deal).
 * - The deal ends after a set when some player's hand is empty. With 5 or
 *   7 players two cards are then left in hand; their points go to the last
 *   set's winner. With 2, 3, 4, 6, 8 every hand empties together.
 * - Sides (option sides): with 4, 6 or 8 players, two sides of
 *   alternate seats; a side's score is its players' sum.
 * - Game: checked at the end of each deal (the book's "both sides
 *   past 500 in the same deal" needs a deal-end check). The highest player
 *   or side at or past target wins; a tie for the highest → another deal.
 *   Cap: after max_deals deals the highest wins, a tie is a draw.
 *   Progressive scoring is not modelled.
 * - Returns: +1 to the winner (each player of a winning side), -1/(k-1)
 *   to each of the k-1 other players or sides; 0 while playing and for a
 *   draw.
 * - Action ids: card id c (0..71, trix_pack.h order) is "play c", e.g.
 *   "play 7-3", "play Trixie".
 * - Determinization: the other hands and the stock order are redealt from
 *   the cards this seat has not seen (no card is ever known to sit in a
 *   given hand: draws are hidden and any card may be played), keeping the
 *   hand sizes.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../trick.h"
#include "../trix_pack.h"
#include "../view.h"

#define MAXP 8
#define HAND 4
#define NO_SEAT 0xff

enum { P_PLAYERS, P_SIDES, P_TARGET, P_MAX_DEALS, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 2, MAXP, NULL, "number of players"},
    {"sides", PARAM_BOOL, 0, 0, 1, NULL,
     "two sides of alternate seats (4, 6 or 8 players) scoring together"},
    {"target", PARAM_INT, 500, 1, 5000, NULL,
     "points to win the game (the book: 500 or more)"},
    {"max_deals", PARAM_INT, 50, 1, 1000, NULL,
     "deals before the game ends on the highest score"},
};

static const char *const test_specs[] = {
    "trix(players=4,sides=true)",
    "trix(players=6,sides=true)",
    "trix(players=8,sides=true,target=300)",
    "trix(players=5,target=100)",
    "trix(players=7,target=1,max_deals=2)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",   "dealer",      "trick",       "leader",  "stock", "hand_sizes",
    "scores", "team_scores", "deal_points", "history", NULL,
};

struct trix_state {
    struct rng rng;
    trix_hand_t hand[MAXP];
    trix_hand_t gone; /* cards of finished sets this deal (public) */
    int32_t score[MAXP];
    int32_t deal_pts[MAXP];
    uint8_t deck[TRIX_CARDS]; /* the stock is deck[top..72) */
    uint8_t top, dealer, turn, leader, ntrick, over, winner, deals, nhist;
    uint8_t trick[MAXP];
    uint8_t hist[TRIX_CARDS][2]; /* this deal's plays: seat, card */
};

/* ==== helpers ========================================================== */

/* ==== deals ============================================================ */

static int deal(const struct game *g, struct trix_state *st, const uint8_t *pre,
                int npre)
{
    int n = trick_np(g);
    trix_hand_t all = trix_hand_range(0, TRIX_CARDS - 1);
    int rc = trix_deck_build(st->deck, all, pre, npre, &st->rng);
    if (rc < 0)
        return rc;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->deal_pts, 0, sizeof st->deal_pts);
    for (int i = 0; i < HAND * n; i++)
        trix_hand_add(&st->hand[(st->dealer + 1 + i) % n], st->deck[i]);
    st->top = (uint8_t)(HAND * n);
    st->gone = trix_hand_none();
    st->leader = st->turn = (uint8_t)trick_next_seat(g, st->dealer);
    st->ntrick = st->nhist = 0;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct trix_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->winner = NO_SEAT;
    st->dealer = (uint8_t)game_first_dealer(seed, trick_np(g), deck, ndeck);
    return deal(g, st, deck, ndeck);
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    int n = (int)p->v[P_PLAYERS];
    bool sides = p->v[P_SIDES] != 0;
    if (trick_check_sides(n, sides, err, errlen))
        return ERR_INVAL;
    trick_dims(d, n, sides);
    d->num_actions = TRIX_CARDS;
    d->max_legal = HAND;
    d->obs_size = 145 + 78 * n;
    d->max_length = TRIX_CARDS * (int)p->v[P_MAX_DEALS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct trix_state *st = vst;
    return st->over ? 0 : 1u << st->turn;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct trix_state *st = vst;
    int n = 0;
    if (st->over || seat != st->turn)
        return 0;
    trix_hand_t h = st->hand[seat];
    for (; h.lo; h.lo &= h.lo - 1)
        out[n++] = __builtin_ctzll(h.lo);
    for (; h.hi; h.hi &= h.hi - 1)
        out[n++] = 64 + __builtin_ctzll(h.hi);
    return n;
}

/* Ends the game if a player or side has won or the cap is hit. */
static void check_game_end(const struct game *g, struct trix_state *st)
{
    int side[MAXP], w;
    for (int t = 0; t < g->dims.teams; t++)
        side[t] = trick_side_score(g, st->score, t);
    if (!trick_game_over(side, g->dims.teams, trick_opt(g, P_TARGET),
                         st->deals >= trick_opt(g, P_MAX_DEALS), &w))
        return;
    st->over = 1;
    st->winner = w < 0 ? NO_SEAT : (uint8_t)w;
}

/* After the last set: leftover cards go to its winner w. */
static void end_deal(const struct game *g, struct trix_state *st, int w)
{
    for (int s = 0; s < trick_np(g); s++) {
        trix_hand_t h = st->hand[s];
        for (int k = trix_hand_count(h); k > 0; k--) {
            int c = trix_hand_first(h);
            trix_hand_del(&h, c);
            st->deal_pts[w] += trix_points(c);
            st->score[w] += trix_points(c);
            trix_hand_add(&st->gone, c);
        }
        st->hand[s] = h;
    }
    st->deals++;
    check_game_end(g, st);
    if (st->over)
        return;
    st->dealer = (uint8_t)trick_next_seat(g, st->dealer);
    deal(g, st, NULL, 0);
}

static void finish_set(const struct game *g, struct trix_state *st)
{
    int n = trick_np(g), pts = 0;
    int w = (st->leader + trix_set_winner(st->trick, n)) % n;
    for (int i = 0; i < n; i++) {
        pts += trix_points(st->trick[i]);
        trix_hand_add(&st->gone, st->trick[i]);
    }
    st->deal_pts[w] += pts;
    st->score[w] += pts;
    st->ntrick = 0;
    st->leader = st->turn = (uint8_t)w;
    for (int s = 0; s < n; s++)
        if (trix_hand_empty(st->hand[s])) {
            end_deal(g, st, w);
            return;
        }
}

static int apply(const struct game *g, void *vst, int c)
{
    struct trix_state *st = vst;
    int seat = st->turn;
    st->hist[st->nhist][0] = (uint8_t)seat;
    st->hist[st->nhist++][1] = (uint8_t)c;
    trix_hand_del(&st->hand[seat], c);
    if (st->top < TRIX_CARDS)
        trix_hand_add(&st->hand[seat], st->deck[st->top++]);
    st->trick[st->ntrick++] = (uint8_t)c;
    if (st->ntrick < trick_np(g))
        st->turn = (uint8_t)trick_next_seat(g, seat);
    else
        finish_set(g, st);
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct trix_state *st = vst;
    bool decided = st->over && st->winner != NO_SEAT;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== what a seat sees ================================================= */

static float unit(float v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct trix_state *st = vst;
    int n = trick_np(g), o = 145 + TRIX_CARDS * n;
    float target = (float)trick_opt(g, P_TARGET);
    memset(out, 0, (size_t)g->dims.obs_size * sizeof *out);
    trick_put_trix(out, st->hand[seat]);
    trix_put_plane(out + 72, st->gone); /* dense late in a deal */
    for (int i = 0; i < st->ntrick; i++) {
        int r = trick_rel_seat(g, (st->leader + i) % n, seat);
        out[144 + r * TRIX_CARDS + st->trick[i]] = 1;
    }
    out[o - 1] = (float)(TRIX_CARDS - st->top) / TRIX_CARDS;
    for (int s = 0; s < n; s++) {
        int r = trick_rel_seat(g, s, seat);
        out[o + r] = (float)trix_hand_count(st->hand[s]) / HAND;
        out[o + 4 * n + r] = unit((float)st->score[s] / target);
        out[o + 5 * n + r] = (float)st->deal_pts[s] / 300.0f;
    }
    out[o + n + trick_rel_seat(g, st->dealer, seat)] = 1;
    out[o + 2 * n + trick_rel_seat(g, st->leader, seat)] = 1;
    if (!st->over)
        out[o + 3 * n + trick_rel_seat(g, st->turn, seat)] = 1;
}

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = trick_np(g), o = 145 + TRIX_CARDS * n;
    const struct obs_segment seg[] = {
        {"hand", 0, 72, "own cards by card id (0-0, 1-0, 1-1, 2-0, ...)"},
        {"gone", 72, 72, "cards of finished sets this deal"},
        {"trick", 144, 72 * n, "current set: players x 72, self first"},
        {"stock", o - 1, 1, "cards left in the stock / 72"},
        {"hand_sizes", o, n, "cards held / 4, self first"},
        {"dealer", o + n, n, "dealer, one-hot, self first"},
        {"leader", o + 2 * n, n, "leader of the set, one-hot, self first"},
        {"turn", o + 3 * n, n, "seat to act, one-hot, self first"},
        {"scores", o + 4 * n, n, "score / target (capped at 1), self first"},
        {"deal_points", o + 5 * n, n, "points this deal / 300, self first"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    return text_cat(buf, len, "play ", trix_card_text(a));
}

static void pack_i32s(msgpack_packer *pk, const int32_t *v, int n)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        view_pack_int(pk, v[i]);
}

static void pack_table(const struct game *g, const struct trix_state *st,
                       msgpack_packer *pk)
{
    int n = trick_np(g);
    view_pack_str(pk, "trick");
    trick_pack_set(pk, st->trick, st->ntrick, st->leader, n);
    view_pack_str(pk, "leader");
    view_pack_int(pk, st->leader);
    view_pack_str(pk, "stock");
    view_pack_int(pk, TRIX_CARDS - st->top);
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, trix_hand_count(st->hand[s]));
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct trix_state *st = vst;
    int n = trick_np(g);
    view_pack_str(pk, "hand");
    view_pack_array(pk, (size_t)trix_hand_count(st->hand[seat]));
    for (int c = 0; c < TRIX_CARDS; c++)
        if (trix_hand_has(st->hand[seat], c))
            trick_pack_trix_card(pk, c);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    pack_table(g, st, pk);
    view_pack_str(pk, "scores");
    pack_i32s(pk, st->score, n);
    view_pack_str(pk, "team_scores");
    view_pack_array(pk, (size_t)g->dims.teams);
    for (int t = 0; t < g->dims.teams; t++)
        view_pack_int(pk, trick_side_score(g, st->score, t));
    view_pack_str(pk, "deal_points");
    pack_i32s(pk, st->deal_pts, n);
    view_pack_str(pk, "history");
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        /* action_name's text, from pieces */
        char name[GAME_NAME_MAX];
        char *p = view_cat8(view_cat(name, "play "),
                            trix_card_text(st->hist[i][1]));
        view_pack_entryn(pk, st->hist[i][0], name, (size_t)(p - name));
    }
    return 0;
}

/* ==== determinization ================================================== */

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct trix_state *st = vst;
    uint8_t pool[TRIX_CARDS];
    int n = trick_np(g), k = 0;
    trix_hand_t seen = trix_hand_or(st->gone, st->hand[seat]);
    for (int i = 0; i < st->ntrick; i++)
        trix_hand_add(&seen, st->trick[i]);
    for (int c = 0; c < TRIX_CARDS; c++)
        if (!trix_hand_has(seen, c))
            pool[k++] = (uint8_t)c;
    rng_shuffle_u8(rng, pool, k);
    int used = 0;
    for (int s = 0; s < n; s++) {
        if (s == seat)
            continue;
        int m = trix_hand_count(st->hand[s]);
        st->hand[s] = trix_hand_none();
        for (int i = 0; i < m; i++)
            trix_hand_add(&st->hand[s], pool[used++]);
    }
    memcpy(st->deck + st->top, pool + used, (size_t)(k - used));
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    const struct trix_state *st = vst;
    size_t k = 0;
    char cards[64];
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d, stock %d. Scores:", st->dealer,
                 TRIX_CARDS - st->top);
    for (int s = 0; s < trick_np(g); s++)
        text_appendf(buf, len, &k, " %d", st->score[s]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < trick_np(g); s++) {
        if (seat >= 0 && s != seat)
            continue;
        trix_hand_format(st->hand[s], cards, sizeof cards);
        text_appendf(buf, len, &k, "Seat %d holds: %s\n", s, cards);
    }
    text_appendf(buf, len, &k, "Set:");
    trick_describe_set(st->trick, st->ntrick, st->leader, trick_np(g), buf, len,
                       &k);
    if (st->over)
        text_appendf(buf, len, &k, "\nGame over.\n");
    else
        text_appendf(buf, len, &k, "\nSeat %d to play.\n", st->turn);
    return (int)k;
}

/* The estimate op: each side's lead in points over the best other side, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct trix_state *st = vst;
    trick_estimate(g, st->score, trick_opt(g, P_TARGET), out);
}

/* The deals op: deals finished, plus the one in play. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct trix_state *st = vst;
    return st->deals + !st->over;
}

/* ==== the descriptor =================================================== */

const struct game_def trix_game = {
    .name = "trix",
    .long_name = "Trix",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Trix; see docs/games/trix.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct trix_state),
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
