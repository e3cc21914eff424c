/* rover.c — Rover: three to eight players build the Trix suits in order,
 * 1-0, 1-1, 2-0 ... up to the top double; a player who cannot go on draws
 * blind from the hand on his right. Each completed suit scores 1 to its
 * completer, Rover (0-0) scores 3 to whoever holds it at the end; game 15.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "General terms" and "Rover"; docs/games/rover.md states them as
 * played here. Cards and names ("7-3") come from engine/trix_pack.h.
 *
 * Decisions (docs/games/rover.md explains the main ones):
 * - Pack: 0-0 .. 7-7 (ids 0..35) for 3–4 players, 0-0 .. 10-10 (ids
 *   0..65) for 5+ (the book). In trix_pack.h id order the building order
 *   1-0, 1-1, 2-0, 2-1, 2-2, ... is simply ids 1, 2, 3, ...: the card
 *   wanted next is the id after the last played.
 * - Seats clockwise; the deal passes left after each deal. For the first the
 *   book has each player draw a card, the lowest sum dealing: the first dealer
 *   is a seeded random seat (game_first_dealer; docs/games/README.md, "First
 *   dealer"), and seat 0 when an explicit deck is given, so that deck[0] goes
 *   to seat 1. deck[0] goes to the dealer's left, one card at a time clockwise,
 *   until the pack is out (uneven hands allowed). Later deals are shuffled from
 *   the state RNG.
 * - The holder of 1-0 acts first (the book). Every move is forced by the
 *   rules: a seat holding the wanted card must play it ("play 2-1"), a
 *   seat without it must draw ("draw"). The actions still go through the
 *   interface so that an agent steps through the deal.
 * - A draw takes one card, uniformly at random, from the nearest
 *   seat to the right that still holds cards. If it is the wanted card
 *   the drawer plays it and goes on (playing from hand, drawing again when
 *   stuck); otherwise the turn passes to the nearest seat on the left that
 *   holds cards. The completer of a suit goes on with the next one the
 *   same way. Empty hands are out of the round (the book).
 * - The drawn card is seen by drawer and victim only. Others learn who
 *   drew from whom; a seat whose draw missed is known by all to lack the
 *   wanted card until it is played. A victim knows where its card went
 *   until that hand is drawn from by a third seat.
 * - The round ends when the top double is played; every other card
 *   is then out except Rover, which scores 3 to its holder.
 * - Cap: a round with max_draws draws ends void: the suits already
 *   completed keep their points, Rover scores nothing.
 * - Sides (option sides): 4, 6 or 8 players may play as two sides of
 *   alternate seats; a side's score is the sum of its players'.
 * - Game: checked after each round; the highest player or side at or
 *   past target wins; a tie for the highest → another round. After
 *   max_deals rounds the highest wins, a tie is a draw.
 * - Returns: +1 to the winner (each player of a winning side),
 *   -1/(k-1) to each of the k-1 others; 0 while playing and for a draw.
 * - Action ids: card id c (1..65) is "play c"; 66 is "draw".
 * - History (view): the last HIST events of the round, drawn cards named
 *   only to drawer and victim ("draw 3-1 from 2" / "draw from 2").
 * - Determinization: the cards a seat has not seen in place are redealt
 *   among the other hands, keeping hand sizes, the cards it knows in a
 *   given hand (its own cards that were drawn from it), and keeping the
 *   wanted card out of the hands known to lack it.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../trick.h"
#include "../trix_pack.h"
#include "../view.h"

#define MAXP 8
#define NCARDS 66 /* the largest pack: 0-0 .. 10-10 */
#define DRAW NCARDS
#define HIST 32
#define NO_SEAT 0xff

enum { P_PLAYERS, P_SIDES, P_TARGET, P_MAX_DEALS, P_MAX_DRAWS, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 3, MAXP, NULL, "number of players"},
    {"sides", PARAM_BOOL, 0, 0, 1, NULL,
     "two sides of alternate seats (4, 6 or 8 players) scoring together"},
    {"target", PARAM_INT, 15, 1, 500, NULL,
     "points to win the game (the book: 15 or more)"},
    {"max_deals", PARAM_INT, 20, 1, 200, NULL,
     "rounds before the game ends on the highest score"},
    {"max_draws", PARAM_INT, 2000, 10, 100000, NULL,
     "draws in one round before it ends void"},
};

static const char *const test_specs[] = {
    "rover(players=4,sides=true)",
    "rover(players=6,sides=true,target=5)",
    "rover(players=8,sides=true,max_draws=50)",
    "rover(players=5,target=1,max_deals=2)",
    NULL,
};

static const char *const view_keys[] = {
    "hand",   "dealer",      "wanted", "hand_sizes", "known",
    "scores", "team_scores", "draws",  "history",    NULL,
};

struct event {
    uint8_t seat, action, victim, card; /* victim: NO_SEAT for a play */
};

struct rover_state {
    struct rng rng;
    trix_hand_t hand[MAXP];
    int32_t score[MAXP];
    uint8_t known[MAXP][NCARDS]; /* [observer][card]: holder + 1, or 0 */
    uint8_t wanted, top, dealer, turn, over, winner, deals, lacks;
    int32_t draws, nhist;
    struct event hist[HIST]; /* ring: event i at hist[i % HIST] */
    uint8_t deck[TRIX_CARDS];
};

/* ==== helpers ========================================================== */

/* Highest card id of the pack (the top double). */
static int top_card(int players)
{
    return players <= 4 ? 35 : 65;
}

/* Nearest seat from s in direction dir (+1 left, -1 right), s excluded,
 * that holds cards; NO_SEAT if none. */
static int nearest(const struct game *g, const struct rover_state *st, int s,
                   int dir)
{
    int n = trick_np(g);
    for (int i = 1; i < n; i++) {
        int t = (s + dir * i + n * n) % n;
        if (!trix_hand_empty(st->hand[t]))
            return t;
    }
    return NO_SEAT;
}

static void log_event(struct rover_state *st, int seat, int action, int victim,
                      int card)
{
    struct event e = {(uint8_t)seat, (uint8_t)action, (uint8_t)victim,
                      (uint8_t)card};
    st->hist[st->nhist % HIST] = e;
    st->nhist++;
}

/* ==== deals ============================================================ */

static int deal(const struct game *g, struct rover_state *st,
                const uint8_t *pre, int npre)
{
    int n = trick_np(g), top = top_card(n);
    int rc =
        trix_deck_build(st->deck, trix_hand_range(0, top), pre, npre, &st->rng);
    if (rc < 0)
        return rc;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->known, 0, sizeof st->known);
    for (int i = 0; i <= top; i++) {
        int s = (st->dealer + 1 + i) % n;
        trix_hand_add(&st->hand[s], st->deck[i]);
        if (st->deck[i] == 1)
            st->turn = (uint8_t)s; /* the holder of 1-0 leads */
    }
    st->wanted = 1;
    st->top = (uint8_t)top;
    st->lacks = 0;
    st->draws = st->nhist = 0;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct rover_state *st = vst;
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
    d->num_actions = NCARDS + 1;
    d->max_legal = 1;
    d->obs_size = NCARDS * (n + 1) + 5 * n;
    d->max_length = (int)p->v[P_MAX_DEALS] * (NCARDS + (int)p->v[P_MAX_DRAWS]);
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct rover_state *st = vst;
    return st->over ? 0 : 1u << st->turn;
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    (void)g;
    const struct rover_state *st = vst;
    if (st->over || seat != st->turn)
        return 0;
    out[0] = trix_hand_has(st->hand[seat], st->wanted) ? st->wanted : DRAW;
    return 1;
}

/* Ends the game if a player or side has won or the cap is hit. */
static void check_game_end(const struct game *g, struct rover_state *st)
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

/* The round is over (void when the draw cap ended it). */
static void end_round(const struct game *g, struct rover_state *st, bool void_)
{
    if (!void_)
        for (int s = 0; s < trick_np(g); s++)
            if (trix_hand_has(st->hand[s], 0))
                st->score[s] += 3; /* Rover to its holder (the book) */
    st->deals++;
    check_game_end(g, st);
    if (st->over)
        return;
    st->dealer = (uint8_t)((st->dealer + 1) % trick_np(g));
    deal(g, st, NULL, 0);
}

static void play(const struct game *g, struct rover_state *st, int seat, int c)
{
    trix_hand_del(&st->hand[seat], c);
    for (int o = 0; o < trick_np(g); o++)
        st->known[o][c] = 0;
    log_event(st, seat, c, NO_SEAT, c);
    st->lacks = 0;
    if (trix_upper(c) == trix_lower(c))
        st->score[seat]++; /* the double completes the suit */
    if (c == st->top) {
        end_round(g, st, false);
        return;
    }
    st->wanted = (uint8_t)(c + 1);
    if (trix_hand_empty(st->hand[seat]))
        st->turn = (uint8_t)nearest(g, st, seat, 1);
}

/* What each seat learns when d draws card c from v. */
static void learn_draw(const struct game *g, struct rover_state *st, int d,
                       int v, int c)
{
    for (int o = 0; o < trick_np(g); o++) {
        if (o == d || o == v) {
            st->known[o][c] = o == d ? 0 : (uint8_t)(d + 1);
            continue;
        }
        for (int x = 0; x < NCARDS; x++)
            if (st->known[o][x] == v + 1)
                st->known[o][x] = 0; /* it may be the card that moved */
    }
}

static void draw(const struct game *g, struct rover_state *st, int d)
{
    int v = nearest(g, st, d, -1);
    trix_hand_t h = st->hand[v];
    int c = trix_hand_nth(
        h, (int)rng_below(&st->rng, (uint32_t)trix_hand_count(h)));
    trix_hand_del(&st->hand[v], c);
    trix_hand_add(&st->hand[d], c);
    learn_draw(g, st, d, v, c);
    log_event(st, d, DRAW, v, c);
    st->draws++;
    if (c != st->wanted) {
        st->lacks |= (uint8_t)(1u << d);
        st->turn = (uint8_t)nearest(g, st, d, 1);
    } else {
        /* the turn staying with d tells everyone d now holds it */
        st->lacks &= (uint8_t) ~(1u << d);
        for (int o = 0; o < trick_np(g); o++)
            st->known[o][c] = o == d ? 0 : (uint8_t)(d + 1);
    }
    if (st->draws >= trick_opt(g, P_MAX_DRAWS))
        end_round(g, st, true);
}

static int apply(const struct game *g, void *vst, int a)
{
    struct rover_state *st = vst;
    if (a == DRAW)
        draw(g, st, st->turn);
    else
        play(g, st, st->turn, a);
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct rover_state *st = vst;
    bool decided = st->over && st->winner != NO_SEAT;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== what a seat sees ================================================= */

static float unit(float v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The cards seat knows in other hands, one-hot in the holder's block. Few
 * are known: eight cards are skipped at a time while they are all 0. */
static void observe_known(const struct game *g, const uint8_t *known, int seat,
                          float *out)
{
    /* Eight cards a word, the last word short; only a word's non-zero
     * bytes are visited (mostly none: few cards are known to be held). */
    for (int c0 = 0; c0 < NCARDS; c0 += 8) {
        uint64_t w = 0;
        if (c0 + 8 <= NCARDS)
            memcpy(&w, known + c0, 8);
        else
            memcpy(&w, known + c0, NCARDS % 8);
        while (w) {
            int b = __builtin_ctzll(w) / 8, c = c0 + b;
            out[NCARDS * trick_rel_seat(g, known[c] - 1, seat) + c] = 1;
            w &= ~((uint64_t)0xff << 8 * b);
        }
    }
}

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct rover_state *st = vst;
    int n = trick_np(g), o = NCARDS * (n + 1);
    float target = (float)trick_opt(g, P_TARGET);
    memset(out, 0, (size_t)g->dims.obs_size * sizeof *out);
    trick_put_bits(out, st->hand[seat].lo);
    trick_put_bits(out + 64, st->hand[seat].hi & ((1u << (NCARDS - 64)) - 1));
    observe_known(g, st->known[seat], seat, out);
    out[NCARDS * n + st->wanted] = 1; /* the "self" block: cards wanted */
    for (int s = 0; s < n; s++) {
        int r = trick_rel_seat(g, s, seat);
        out[o + r] = (float)trix_hand_count(st->hand[s]) / NCARDS;
        out[o + 3 * n + r] = unit((float)st->score[s] / target);
        out[o + 4 * n + r] = (float)((st->lacks >> s) & 1);
    }
    out[o + n + trick_rel_seat(g, st->dealer, seat)] = 1;
    if (!st->over)
        out[o + 2 * n + trick_rel_seat(g, st->turn, seat)] = 1;
}

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = trick_np(g), o = NCARDS * (n + 1);
    const struct obs_segment seg[] = {
        {"hand", 0, NCARDS, "own cards by card id (0-0, 1-0, 1-1, 2-0, ...)"},
        {"known", NCARDS, NCARDS * (n - 1),
         "cards known to be in each other hand (drawn from self, or a "
         "draw that hit the wanted card), left first, players-1 x 66"},
        {"wanted", NCARDS * n, NCARDS, "the card wanted next, one-hot"},
        {"hand_sizes", o, n, "cards held / 66, self first"},
        {"dealer", o + n, n, "dealer, one-hot, self first"},
        {"turn", o + 2 * n, n, "seat to act, one-hot, self first"},
        {"scores", o + 3 * n, n, "score / target (capped at 1), self first"},
        {"lacks", o + 4 * n, n,
         "1 where a seat's draw missed the wanted card, self first"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    if (a == DRAW)
        return text_cat(buf, len, "draw", "");
    return text_cat(buf, len, "play ", trix_card_text(a));
}

/* Per seat, the cards seat knows it holds, in one pass over the pack. */
static void pack_known(msgpack_packer *pk, const struct rover_state *st,
                       int seat, int n)
{
    uint8_t list[MAXP][NCARDS];
    int k[MAXP] = {0};
    for (int c = 0; c < NCARDS; c++) {
        int h = st->known[seat][c] - 1;
        if (h >= 0 && h < n)
            list[h][k[h]++] = (uint8_t)c;
    }
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++) {
        view_pack_array(pk, (size_t)k[s]);
        for (int i = 0; i < k[s]; i++)
            trick_pack_trix_card(pk, list[s][i]);
    }
}

/* One history event as seat may know it. */
static void pack_event(msgpack_packer *pk, const struct event *e, int seat)
{
    char name[GAME_NAME_MAX], *p;
    const char *card = trix_card_text(e->card);
    if (e->victim == NO_SEAT)
        p = view_cat8(view_cat(name, "play "), card);
    else if (seat == e->seat || seat == e->victim)
        p = view_cat_num(view_cat(view_cat8(view_cat(name, "draw "), card),
                                  " from "),
                         e->victim);
    else
        p = view_cat_num(view_cat(name, "draw from "), e->victim);
    view_pack_entryn(pk, e->seat, name, (size_t)(p - name));
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct rover_state *st = vst;
    int n = trick_np(g), first = st->nhist > HIST ? st->nhist - HIST : 0;
    view_pack_str(pk, "hand");
    view_pack_array(pk, (size_t)trix_hand_count(st->hand[seat]));
    for (int c = 0; c < NCARDS; c++)
        if (trix_hand_has(st->hand[seat], c))
            trick_pack_trix_card(pk, c);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "wanted");
    trick_pack_trix_card(pk, st->wanted);
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, trix_hand_count(st->hand[s]));
    view_pack_str(pk, "known");
    pack_known(pk, st, seat, n);
    view_pack_str(pk, "scores");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->score[s]);
    view_pack_str(pk, "team_scores");
    view_pack_array(pk, (size_t)g->dims.teams);
    for (int t = 0; t < g->dims.teams; t++)
        view_pack_int(pk, trick_side_score(g, st->score, t));
    view_pack_str(pk, "draws");
    view_pack_int(pk, st->draws);
    view_pack_str(pk, "history");
    view_pack_array(pk, (size_t)(st->nhist - first));
    for (int i = first; i < st->nhist; i++)
        pack_event(pk, &st->hist[i % HIST], seat);
    return 0;
}

/* ==== determinization ================================================== */

/* Deals pool[0..k) into the free slots of the other seats (free[s]); the
 * wanted card, if in the pool, first goes to a seat not known to lack it. */
static void redeal(const struct game *g, struct rover_state *st, int seat,
                   uint8_t *pool, int k, int *free, struct rng *rng)
{
    int n = trick_np(g), w = -1, ok = 0, order[MAXP * NCARDS];
    for (int i = 0; i < k; i++)
        if (pool[i] == st->wanted)
            w = i;
    if (w >= 0) {
        for (int s = 0; s < n; s++)
            if (s != seat && !((st->lacks >> s) & 1))
                for (int j = 0; j < free[s]; j++)
                    order[ok++] = s;
        int s = order[rng_below(rng, (uint32_t)ok)];
        trix_hand_add(&st->hand[s], st->wanted);
        free[s]--;
        pool[w] = pool[--k];
    }
    rng_shuffle_u8(rng, pool, k);
    for (int s = 0, used = 0; s < n; s++)
        for (int j = 0; s != seat && j < free[s]; j++)
            trix_hand_add(&st->hand[s], pool[used++]);
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct rover_state *st = vst;
    uint8_t pool[NCARDS];
    int n = trick_np(g), k = 0, free[MAXP] = {0};
    for (int s = 0; s < n; s++) {
        if (s == seat)
            continue;
        trix_hand_t h = st->hand[s];
        free[s] = trix_hand_count(h);
        for (int c = 0; c < NCARDS; c++) {
            if (!trix_hand_has(h, c))
                continue;
            if (st->known[seat][c] == s + 1) {
                free[s]--;
                continue;
            }
            trix_hand_del(&st->hand[s], c);
            pool[k++] = (uint8_t)c;
        }
    }
    redeal(g, st, seat, pool, k, free, rng);
    for (int o = 0; o < n; o++) /* others' knowledge of moved cards */
        for (int c = 0; c < NCARDS; c++)
            if (st->known[o][c] &&
                !trix_hand_has(st->hand[st->known[o][c] - 1], c))
                st->known[o][c] = 0;
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    const struct rover_state *st = vst;
    size_t k = 0;
    char cards[512];
    if (len)
        buf[0] = '\0';
    trix_card_name(st->wanted, cards, sizeof cards);
    text_appendf(buf, len, &k,
                 "Dealer %d, wanted %s, draws %d. Scores:", st->dealer, cards,
                 st->draws);
    for (int s = 0; s < trick_np(g); s++)
        text_appendf(buf, len, &k, " %d", st->score[s]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < trick_np(g); s++) {
        if (seat >= 0 && s != seat) {
            text_appendf(buf, len, &k, "Seat %d holds %d card%s\n", s,
                         trix_hand_count(st->hand[s]),
                         text_s(trix_hand_count(st->hand[s])));
            continue;
        }
        trix_hand_format(st->hand[s], cards, sizeof cards);
        text_appendf(buf, len, &k, "Seat %d holds: %s\n", s, cards);
    }
    if (st->over)
        text_appendf(buf, len, &k, "Game over.\n");
    else
        text_appendf(buf, len, &k, "Seat %d to act.\n", st->turn);
    return (int)k;
}

/* The estimate op: each side's lead in points over the best other side, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct rover_state *st = vst;
    trick_estimate(g, st->score, trick_opt(g, P_TARGET), out);
}

/* The deals op: rounds finished, plus the one in play. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct rover_state *st = vst;
    return st->deals + !st->over;
}

/* ==== the descriptor =================================================== */

const struct game_def rover_game = {
    .name = "rover",
    .long_name = "Rover",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Rover; see docs/games/rover.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM | GAME_PARTNERSHIPS,
    .state_size = sizeof(struct rover_state),
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
