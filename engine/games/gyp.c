/* gyp.c — Gyp: three to five players build the Trix suits Sevens..Tens
 * (Sixes too with four, Fives too with five) down and up from a fixed
 * starter card; a point for each suit a player completes, two for going
 * out first; game ten.
 *
 * Rules: Read & White, Rules for the Games Played with the Standard Trix Cards
 * (1904), "Gyp"; docs/games/gyp.md states them as played here. Cards and names
 * ("7-4") come from engine/trix_pack.h.
 *
 * Decisions (docs/games/gyp.md explains the main ones):
 * - Pack: suits 7..10 for three players (38 cards), 6..10 for four (45),
 *   5..10 for five (51) (the book).
 * - Seats clockwise; the deal passes left after each deal. For the first the
 *   book has each player draw a card, the lowest sum dealing: the first dealer
 *   is a seeded random seat (game_first_dealer; docs/games/README.md, "First
 *   dealer"), and seat 0 when an explicit deck is given, so that deck[0] goes
 *   to seat 1.
 * - Pack order: deck[0] goes to the dealer's left, then one card at a time
 *   clockwise until the pack is out, so the extra cards of an uneven deal
 *   go to the first players from the dealer's left. Later deals are
 *   shuffled from the state RNG.
 * - Starters are 5-3, 6-3, 7-4, 8-4, 9-5, 10-5 (suit s starts at card name
 *   (s+1)/2). The player left of the dealer plays first. A starter of a
 *   suit not yet on the table may be played at any turn (the book: "he may
 *   make a new lead"); otherwise the next lower card below the lowest, or
 *   the next higher card above the highest, of a started suit.
 * - Play is compulsory: "pass" is the only action, and only legal, when a
 *   player has no playable card (the book "if a player can not play").
 * - A suit is complete when both its x-0 and x-x are down; the player who
 *   lays the last missing card scores 1. Going out first scores 2 and
 *   ends the hand at once; unfinished suits score nothing. A player
 *   who goes out with a completing card scores both (3).
 * - Someone can always play (every card of the pack is in a hand, and the
 *   next card of every open suit or the starter of every unopened one is
 *   held by somebody), so at most players-1 passes come between two plays:
 *   a hand lasts at most cards * players turns.
 * - Game: checked at the end of each hand. The highest at or past the
 *   target (option, default 10) wins; a tie for the highest → another hand.
 *   Cap: after max_deals hands the highest wins, a tie is a draw.
 *   Progressive play (the book's last line) is not modelled (as in Trix).
 * - Returns: +1 to the winner, -1/(players-1) to each other player; 0
 *   while playing and for a draw.
 * - Action ids: card id c (trix_pack.h order, 0..65) is "play c", e.g.
 *   "play 7-4"; GYP_PASS (66) is "pass".
 * - Determinization: cards on the table are public; every other card not
 *   in the seat's own hand is redealt to the other hands, keeping hand
 *   sizes. A pass reveals that the passer held none of the cards playable
 *   then (cards never enter a hand after the deal, so this stays true);
 *   the redeal retries a few shuffles to honour those voids and keeps the
 *   true hands (only reseeding the RNG) if none fits.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../trick.h"
#include "../trix_pack.h"
#include "../view.h"

#define MAXP 5
#define NCARD 66 /* ids 0..65: suits 0..10 */
#define GYP_PASS 66
#define HIST 256 /* > 51 cards * 5 players turns */
#define RETRIES 32

enum { P_PLAYERS, P_TARGET, P_MAX_DEALS, NPARAMS };

static const struct param_def params[NPARAMS] = {
    {"players", PARAM_INT, 4, 3, MAXP, NULL,
     "number of players (3: suits 7-10, 4: 6-10, 5: 5-10)"},
    {"target", PARAM_INT, 10, 1, 100, NULL, "points to win (the book: ten)"},
    {"max_deals", PARAM_INT, 40, 1, 1000, NULL,
     "hands before the game ends on the highest score"},
};

static const char *const test_specs[] = {
    "gyp(players=3,target=3)",
    "gyp(players=5,target=1,max_deals=2)",
    NULL,
};

static const char *const view_keys[] = {
    "hand", "dealer", "table", "hand_sizes", "scores", "history", NULL,
};

struct gyp_state {
    struct rng rng;
    trix_hand_t hand[MAXP];
    trix_hand_t table;         /* cards laid this hand (public) */
    trix_hand_t void_of[MAXP]; /* cards a seat showed it lacks by passing */
    int16_t score[MAXP];
    int8_t lo[11], hi[11]; /* lowest/highest card name down; -1 if none */
    uint8_t dealer, turn, over, winner, deals;
    uint16_t nhist;
    uint8_t hist[HIST][2]; /* this hand's turns: seat, action */
};

/* ==== helpers ========================================================== */

/* Lowest suit in play: 7 for three players, 6 for four, 5 for five. */
static int low_suit(const struct game *g)
{
    return 10 - trick_np(g);
}

static int starter(int suit)
{
    return trix_card(suit, (suit + 1) / 2);
}

/* The cards that may be laid now, whoever holds them. */
static trix_hand_t playable(const struct game *g, const struct gyp_state *st)
{
    trix_hand_t p = trix_hand_none();
    for (int s = low_suit(g); s <= 10; s++) {
        if (st->lo[s] < 0) {
            trix_hand_add(&p, starter(s));
            continue;
        }
        if (st->lo[s] > 0)
            trix_hand_add(&p, trix_card(s, st->lo[s] - 1));
        if (st->hi[s] < s)
            trix_hand_add(&p, trix_card(s, st->hi[s] + 1));
    }
    return p;
}

/* ==== deals ============================================================ */

static int deal(const struct game *g, struct gyp_state *st, const uint8_t *pre,
                int npre)
{
    uint8_t deck[TRIX_CARDS];
    int n = trick_np(g);
    trix_hand_t pack = trix_hand_range(trix_card(low_suit(g), 0), NCARD - 1);
    int k = trix_deck_build(deck, pack, pre, npre, &st->rng);
    if (k < 0)
        return k;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->void_of, 0, sizeof st->void_of);
    memset(st->lo, -1, sizeof st->lo);
    memset(st->hi, -1, sizeof st->hi);
    for (int i = 0; i < k; i++)
        trix_hand_add(&st->hand[(st->dealer + 1 + i) % n], deck[i]);
    st->table = trix_hand_none();
    st->turn = (uint8_t)trick_next_seat(g, st->dealer);
    st->nhist = 0;
    return 0;
}

static int init(const struct game *g, void *vst, uint64_t seed,
                const uint8_t *deck, int ndeck)
{
    struct gyp_state *st = vst;
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    st->winner = MAXP;
    st->dealer = (uint8_t)game_first_dealer(seed, trick_np(g), deck, ndeck);
    return deal(g, st, deck, ndeck);
}

static int configure(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int n = (int)p->v[P_PLAYERS];
    trick_dims(d, n, false);
    d->num_actions = GYP_PASS + 1;
    d->max_legal = 12; /* two ends of each of six suits at most */
    d->obs_size = 2 * NCARD + 4 * n;
    d->max_length = (NCARD - trix_card(10 - n, 0)) * n * (int)p->v[P_MAX_DEALS];
    return 0;
}

/* ==== rules ============================================================ */

static uint32_t to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct gyp_state *st = vst;
    return st->over ? 0 : 1u << st->turn;
}

/* Deals finished, and the one being played while the game goes on. */
static int deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct gyp_state *st = vst;
    return st->deals + (!st->over);
}

static int legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct gyp_state *st = vst;
    int n = 0;
    if (st->over || seat != st->turn)
        return 0;
    trix_hand_t h = trix_hand_and(st->hand[seat], playable(g, st));
    for (; h.lo; h.lo &= h.lo - 1)
        out[n++] = __builtin_ctzll(h.lo);
    for (; h.hi; h.hi &= h.hi - 1)
        out[n++] = 64 + __builtin_ctzll(h.hi);
    if (n == 0)
        out[n++] = GYP_PASS;
    return n;
}

/* Ends the game if someone has won or the cap is hit. */
static void check_game_end(const struct game *g, struct gyp_state *st)
{
    int score[MAXP], w;
    for (int s = 0; s < trick_np(g); s++)
        score[s] = st->score[s];
    if (!trick_game_over(score, trick_np(g), trick_opt(g, P_TARGET),
                         st->deals >= trick_opt(g, P_MAX_DEALS), &w))
        return; /* A tie for the lead → another hand */
    st->over = 1;
    st->winner = w < 0 ? MAXP : (uint8_t)w;
}

static void end_hand(const struct game *g, struct gyp_state *st)
{
    st->deals++;
    check_game_end(g, st);
    if (st->over)
        return;
    st->dealer = (uint8_t)trick_next_seat(g, st->dealer);
    deal(g, st, NULL, 0);
}

static void lay(struct gyp_state *st, int seat, int c)
{
    int s = trix_upper(c), v = trix_lower(c);
    trix_hand_del(&st->hand[seat], c);
    trix_hand_add(&st->table, c);
    if (st->lo[s] < 0 || v < st->lo[s])
        st->lo[s] = (int8_t)v;
    if (v > st->hi[s])
        st->hi[s] = (int8_t)v;
    if (st->lo[s] == 0 && st->hi[s] == s)
        st->score[seat]++; /* The last missing card completes */
}

static int apply(const struct game *g, void *vst, int a)
{
    struct gyp_state *st = vst;
    int seat = st->turn;
    if (st->nhist < HIST) {
        st->hist[st->nhist][0] = (uint8_t)seat;
        st->hist[st->nhist++][1] = (uint8_t)a;
    }
    st->turn = (uint8_t)trick_next_seat(g, seat);
    if (a == GYP_PASS) {
        st->void_of[seat] = trix_hand_or(st->void_of[seat], playable(g, st));
        return 0;
    }
    lay(st, seat, a);
    if (trix_hand_empty(st->hand[seat])) {
        st->score[seat] += 2; /* first out */
        end_hand(g, st);
    }
    return 0;
}

static void returns(const struct game *g, const void *vst, double *out)
{
    const struct gyp_state *st = vst;
    /* No partnerships: each seat is its own side (configure). */
    bool decided = st->over && st->winner != MAXP;
    game_returns_winner(g, decided ? st->winner : -1, out);
}

/* ==== what a seat sees ================================================= */

static void observe(const struct game *g, const void *vst, int seat, float *out)
{
    const struct gyp_state *st = vst;
    int n = trick_np(g), o = 2 * NCARD;
    float target = (float)trick_opt(g, P_TARGET);
    memset(out, 0, (size_t)g->dims.obs_size * sizeof *out);
    trick_put_trix(out, st->hand[seat]);
    trick_put_trix(out + NCARD, st->table);
    for (int s = 0; s < n; s++) {
        int r = trick_rel_seat(g, s, seat);
        out[o + r] = (float)trix_hand_count(st->hand[s]) / 13.0f;
        float v = (float)st->score[s] / target;
        out[o + 3 * n + r] = v > 1 ? 1 : v;
    }
    out[o + n + trick_rel_seat(g, st->dealer, seat)] = 1;
    if (!st->over)
        out[o + 2 * n + trick_rel_seat(g, st->turn, seat)] = 1;
}

static int obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = trick_np(g), o = 2 * NCARD;
    const struct obs_segment seg[] = {
        {"hand", 0, NCARD, "own cards by card id (0-0, 1-0, 1-1, 2-0, ...)"},
        {"table", NCARD, NCARD, "cards laid on the table this hand"},
        {"hand_sizes", o, n, "cards held / 13, self first"},
        {"dealer", o + n, n, "dealer, one-hot, self first"},
        {"turn", o + 2 * n, n, "seat to act, one-hot, self first"},
        {"scores", o + 3 * n, n, "score / target (capped at 1), self first"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

static int action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    if (a == GYP_PASS)
        return text_cat(buf, len, "pass", "");
    return text_cat(buf, len, "play ", trix_card_text(a));
}

/* The table as [suit, lowest card name, highest card name] per open suit. */
static void pack_table(const struct game *g, const struct gyp_state *st,
                       msgpack_packer *pk)
{
    int k = 0;
    for (int s = low_suit(g); s <= 10; s++)
        k += st->lo[s] >= 0;
    view_pack_str(pk, "table");
    view_pack_array(pk, (size_t)k);
    for (int s = low_suit(g); s <= 10; s++) {
        if (st->lo[s] < 0)
            continue;
        view_pack_array(pk, 3);
        view_pack_int(pk, s);
        view_pack_int(pk, st->lo[s]);
        view_pack_int(pk, st->hi[s]);
    }
}

static int view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct gyp_state *st = vst;
    int n = trick_np(g);
    view_pack_str(pk, "hand");
    view_pack_array(pk, (size_t)trix_hand_count(st->hand[seat]));
    for (int c = 0; c < NCARD; c++)
        if (trix_hand_has(st->hand[seat], c))
            trick_pack_trix_card(pk, c);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    pack_table(g, st, pk);
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, trix_hand_count(st->hand[s]));
    view_pack_str(pk, "scores");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->score[s]);
    view_pack_str(pk, "history");
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        /* action_name's text, from pieces */
        char name[GAME_NAME_MAX], *p = name;
        int a = st->hist[i][1];
        p = a == GYP_PASS ? view_cat(p, "pass")
                          : view_cat8(view_cat(p, "play "), trix_card_text(a));
        view_pack_entryn(pk, st->hist[i][0], name, (size_t)(p - name));
    }
    return 0;
}

/* ==== determinization ================================================== */

/* Deals pool to the seats other than seat (sizes as now) into out; false
 * if some seat would get a card it showed it lacks. */
static bool redeal(const struct game *g, const struct gyp_state *st, int seat,
                   const uint8_t *pool, trix_hand_t *out)
{
    int used = 0;
    for (int s = 0; s < trick_np(g); s++) {
        out[s] = st->hand[s];
        if (s == seat)
            continue;
        out[s] = trix_hand_none();
        for (int m = trix_hand_count(st->hand[s]); m > 0; m--)
            trix_hand_add(&out[s], pool[used++]);
        if (!trix_hand_empty(trix_hand_and(out[s], st->void_of[s])))
            return false;
    }
    return true;
}

static void determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    struct gyp_state *st = vst;
    uint8_t pool[NCARD];
    trix_hand_t hands[MAXP];
    int k = 0;
    for (int s = 0; s < trick_np(g); s++)
        if (s != seat)
            for (int c = 0; c < NCARD; c++)
                if (trix_hand_has(st->hand[s], c))
                    pool[k++] = (uint8_t)c;
    for (int t = 0; t < RETRIES; t++) {
        rng_shuffle_u8(rng, pool, k);
        if (redeal(g, st, seat, pool, hands)) {
            memcpy(st->hand, hands, sizeof hands[0] * (size_t)trick_np(g));
            break;
        }
    }
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== text ============================================================= */

static int describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    const struct gyp_state *st = vst;
    size_t k = 0;
    char cards[128];
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Dealer %d. Scores:", st->dealer);
    for (int s = 0; s < trick_np(g); s++)
        text_appendf(buf, len, &k, " %d", st->score[s]);
    text_appendf(buf, len, &k, "\nTable:");
    for (int s = low_suit(g); s <= 10; s++)
        if (st->lo[s] >= 0)
            text_appendf(buf, len, &k, " %s %d..%d", trix_suit_name(s),
                         st->lo[s], st->hi[s]);
    text_appendf(buf, len, &k, "\n");
    for (int s = 0; s < trick_np(g); s++) {
        if (seat >= 0 && s != seat)
            continue;
        trix_hand_format(st->hand[s], cards, sizeof cards);
        text_appendf(buf, len, &k, "Seat %d holds: %s\n", s, cards);
    }
    if (st->over)
        text_appendf(buf, len, &k, "Game over.\n");
    else
        text_appendf(buf, len, &k, "Seat %d to play.\n", st->turn);
    return (int)k;
}

/* The estimate op: each seat's lead in points over the best other seat, as
 * a fraction of the target. */
static void estimate(const struct game *g, const void *vst, double *out)
{
    const struct gyp_state *st = vst;
    double pts[MAXP];
    for (int s = 0; s < g->dims.players; s++)
        pts[s] = st->score[s];
    game_estimate_lead(g, pts, trick_opt(g, P_TARGET), out);
}

/* ==== the descriptor =================================================== */

const struct game_def gyp_game = {
    .name = "gyp",
    .long_name = "Gyp",
    .source = "Read & White, Rules for the Games Played with the Standard "
              "Trix Cards (1904), Gyp; see docs/games/gyp.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct gyp_state),
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
