/* ninety_nine.c — Ninety-Nine: play cards onto a running total, never
 * past 99; whoever cannot lays down and pays a penny; last one in wins.
 *
 * Sources: The Adventures of BJ and Tony Morris, family games page,
 * "Ninety-Nine"; docs/games/ninety_nine.md states them as played here. The
 * page lost its table of special cards; we restore the usual one: ace +1 or
 * +11 and ten +10 or -10 (the player chooses: distinct actions), 4 reverses
 * the direction and 9 holds (total unchanged), king makes the total 99, J/Q
 * +10, other pips. Three pennies each (option pennies, the original's 5 too),
 * two decks shuffled together above four players, the played pile reshuffled
 * into a new stock when the stock runs out, total carrying on, no lower bound
 * for the total, with two players a 4 acts as a hold (reversing leaves the
 * other player next anyway). Penniless players drop out; the last player with
 * pennies wins. New hand: the deal passes to the next surviving seat on the
 * old dealer's left, the total restarts at 0, the seat on the new dealer's
 * left plays first, clockwise. Forgetting to draw (the page's warning) is not
 * modelled: every play draws.
 *
 * Decisions where the sources are silent:
 * - Two to sixteen players (the page: "2 to 9 or more"; two decks deal 3 cards
 *   to sixteen with a stock to spare); one to nine pennies.
 * - Seat 0 deals the first hand (docs/games/README.md, "First dealer": a fixed
 *   one lets tests and replays name seats). Clockwise = seat + 1.
 * - Deal order: deck[0] to the first surviving seat on the dealer's left,
 *   one card at a time clockwise to the surviving seats, three rounds; the
 *   next deck card is the top of the stock, drawn in deck order.
 * - Laying down is an action, "lay down", legal exactly when no card held
 *   keeps the total at or below 99 (then it is the only one): the player
 *   pays his penny, the hand ends and the next is dealt. Making it a move
 *   (rather than resolving it inside the previous play) keeps a seat's
 *   legal set a function of its own hand, which determinize resamples for
 *   other seats, and shows the loss in the history. The view names the
 *   last hand's loser.
 * - The number of decks is fixed by the starting number of players (option
 *   decks, 0 = the page's rule) and does not change as players drop out.
 * - Returns are net pennies: each penny paid is -1 when paid, and the
 *   winner takes the pot at the end, so the winner finishes at
 *   +(players-1)*pennies and every other seat at -pennies (zero-sum).
 * - Cap: option max_turns bounds the moves (plays and lay-downs) of the
 *   whole episode; when it is reached the game ends and the surviving
 *   players share the pot equally (a draw between them). Tens and kings
 *   can keep a hand going for ever, so the cap is needed for a true bound.
 * - The view's history holds the current hand's last 64 plays.
 * - Determinization is exact up to inference from the players' choices,
 *   except after a rebuild of the stock with two decks (see
 *   nn_determinize).
 *
 * Action ids (fixed across states; a face, not a physical copy, so two
 * copies of one face held with two decks are one action):
 *   0..51   play face c (cards.h id); an ace counts 1, a ten +10
 *   52..55  play the ace of suit id-52 as 11
 *   56..59  play the ten of suit id-56 as -10
 *   60      lay down (no card can be played)
 * Names: "play 7♣", "play A♠ as 1", "play A♠ as 11", "play 10♥ +10",
 * "play 10♥ -10", "lay down".
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../multipack.h"
#include "../view.h"

/* ---- types --------------------------------------------------------------- */

#define NN_SEATS 16                  /* most players */
#define NN_CARDS (2 * CARDS_IN_PACK) /* two decks at most */
#define NN_HAND 3                    /* cards held */
#define NN_HIST 64                   /* plays kept for the view */
#define NN_ACE_HIGH 52               /* first "ace as 11" action */
#define NN_TEN_DOWN 56               /* first "ten as -10" action */
#define NN_LAY_DOWN 60               /* the lay-down action */
#define NN_ACTIONS 61
#define NN_MAX_LEGAL (2 * NN_HAND)

enum { OPT_PLAYERS, OPT_PENNIES, OPT_DECKS, OPT_MAX_TURNS };

struct nn_state {
    struct rng rng;                  /* every shuffle after init */
    uint32_t moves;                  /* apply calls this episode (cap) */
    uint32_t hand_plays;             /* plays this hand */
    int32_t total;                   /* running total (no lower bound) */
    int8_t dir;                      /* +1 clockwise, -1 reversed */
    int8_t last_loser;               /* seat that laid down last, -1 none */
    uint8_t seat;                    /* seat to play */
    uint8_t dealer;                  /* dealer of this hand */
    uint8_t alive;                   /* seats still holding pennies */
    uint8_t pot;                     /* pennies paid into the centre */
    uint8_t over;                    /* 1 once the game has ended */
    uint8_t nstock;                  /* cards in the stock */
    uint8_t npile;                   /* cards in the played pile */
    uint8_t reshuffled;              /* 1 once this hand's stock was rebuilt */
    uint8_t fresh[NN_SEATS];         /* slots drawn since the last rebuild */
    uint8_t pennies[NN_SEATS];       /* pennies left; 0 = out */
    uint8_t hand[NN_SEATS][NN_HAND]; /* faces held, NO_CARD when out */
    uint8_t pile[CARDS_IN_PACK];     /* copies of each face played this hand */
    uint8_t stock[NN_CARDS];         /* faces; the top is stock[nstock-1] */
    uint8_t hist[NN_HIST][2];        /* ring of plays: seat, action */
};

static const struct param_def nn_params[] = {
    {"players", PARAM_INT, 4, 2, NN_SEATS, NULL, "number of players"},
    {"pennies", PARAM_INT, 3, 1, 9, NULL, "pennies each at the start"},
    {"decks", PARAM_INT, 0, 0, 2, NULL,
     "decks shuffled together; 0 = one up to 4 players, two above"},
    {"max_turns", PARAM_INT, 10000, 10, 1000000, NULL,
     "moves before the game stops and survivors share the pot"},
};

/* ---- static helpers ------------------------------------------------------ */

static int nplayers(const struct game *g)
{
    return g->dims.players;
}

static int ndecks(const struct game *g)
{
    int d = (int)g->params.v[OPT_DECKS];
    if (d)
        return d;
    return nplayers(g) > 4 ? 2 : 1;
}

/* The face an action plays. */
static int action_face(int a)
{
    if (a >= NN_TEN_DOWN)
        return card_make(10, a - NN_TEN_DOWN);
    if (a >= NN_ACE_HIGH)
        return card_make(ACE, a - NN_ACE_HIGH);
    return a;
}

/* The running total after action a (the special cards of the header). */
static int play_total(int a, int total)
{
    if (a >= NN_TEN_DOWN)
        return total - 10;
    if (a >= NN_ACE_HIGH)
        return total + 11;
    int r = card_rank(a);
    if (r == 4 || r == 9)
        return total;
    if (r == KING)
        return 99;
    return total + (r > 10 ? 10 : r);
}

/* The next seat in direction dir from s that still has pennies. */
static int next_alive(const struct nn_state *st, int n, int s, int dir)
{
    do
        s = (s + dir + n) % n;
    while (!st->pennies[s]);
    return s;
}

/* Lists seat's playable actions into out, ascending; returns the count. */
static int playable(const struct nn_state *st, int seat, int *out)
{
    int k = 0;
    const uint8_t *h = st->hand[seat];
    for (int i = 0; i < NN_HAND; i++) {
        int f = h[i];
        if (f == NO_CARD || (i > 0 && h[0] == f) || (i > 1 && h[1] == f))
            continue;
        int cand[2] = {f, -1};
        if (card_rank(f) == ACE)
            cand[1] = NN_ACE_HIGH + card_suit(f);
        if (card_rank(f) == 10)
            cand[1] = NN_TEN_DOWN + card_suit(f);
        for (int j = 0; j < 2; j++)
            if (cand[j] >= 0 && play_total(cand[j], st->total) <= 99)
                out[k++] = cand[j];
    }
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

/* Shuffles a fresh pack (with the deck prefix on the first deal) and deals
 * three cards to each surviving seat from the dealer's left. */
static int deal(const struct game *g, struct nn_state *st, const uint8_t *pre,
                int npre)
{
    int n = nplayers(g);
    uint8_t pack[NN_CARDS];
    int size = multipack_fill(pack, ndecks(g), 0);
    if (multipack_build(pack, size, pre, npre, &st->rng))
        return ERR_INVAL;
    memset(st->hand, NO_CARD, sizeof st->hand);
    memset(st->pile, 0, sizeof st->pile);
    memset(st->fresh, 0, sizeof st->fresh);
    st->reshuffled = 0;
    int k = 0, first = next_alive(st, n, st->dealer, 1);
    for (int r = 0; r < NN_HAND; r++) {
        int s = first;
        for (int i = 0; i < st->alive; i++, s = next_alive(st, n, s, 1))
            st->hand[s][r] = pack[k++];
    }
    st->nstock = (uint8_t)(size - k);
    for (int i = 0; i < st->nstock; i++)
        st->stock[i] = pack[size - 1 - i];
    st->npile = 0;
    st->total = 0;
    st->dir = 1;
    st->hand_plays = 0;
    st->seat = (uint8_t)first;
    return 0;
}

/* The played pile, shuffled, becomes the stock; the total carries on. */
static void reshuffle(struct nn_state *st)
{
    int k = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++)
        for (; st->pile[c]; st->pile[c]--)
            st->stock[k++] = (uint8_t)c;
    rng_shuffle_u8(&st->rng, st->stock, k);
    st->nstock = (uint8_t)k;
    st->npile = 0;
    st->reshuffled = 1;
    memset(st->fresh, 0, sizeof st->fresh);
}

/* Seat s lays down: pays a penny, maybe drops out; then the next hand is
 * dealt, or the game ends with one seat left. */
static void lay_down(const struct game *g, struct nn_state *st, int s)
{
    st->pennies[s]--;
    st->pot++;
    st->last_loser = (int8_t)s;
    if (!st->pennies[s])
        st->alive--;
    if (st->alive == 1) {
        st->over = 1;
        return;
    }
    st->dealer = (uint8_t)next_alive(st, nplayers(g), st->dealer, 1);
    deal(g, st, NULL, 0);
}

/* Replaces the card played from slot i with the top of the stock. */
static void draw(struct nn_state *st, int seat, int i)
{
    if (!st->nstock)
        reshuffle(st);
    st->hand[seat][i] = st->stock[--st->nstock];
    st->fresh[seat] |= (uint8_t)(1u << i);
}

/* ---- API ----------------------------------------------------------------- */

static int nn_configure(const struct param_values *p, struct game_dims *d,
                        char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int n = (int)p->v[OPT_PLAYERS];
    double pennies = p->v[OPT_PENNIES];
    d->players = n;
    d->teams = n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)i;
    d->num_actions = NN_ACTIONS;
    d->max_legal = NN_MAX_LEGAL; /* lay down only when nothing else */
    d->obs_size = 2 * CARDS_IN_PACK + 4 + 3 * n;
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = (int)p->v[OPT_MAX_TURNS];
    d->ret_low = -pennies;
    d->ret_high = (n - 1) * pennies;
    return 0;
}

static int nn_init(const struct game *g, void *vst, uint64_t seed,
                   const uint8_t *deck, int ndeck)
{
    struct nn_state *st = vst;
    int n = nplayers(g);
    memset(st, 0, sizeof *st);
    rng_seed(&st->rng, seed);
    for (int s = 0; s < n; s++)
        st->pennies[s] = (uint8_t)g->params.v[OPT_PENNIES];
    st->alive = (uint8_t)n;
    st->last_loser = -1;
    return deal(g, st, deck, ndeck);
}

static uint32_t nn_to_move(const struct game *g, const void *vst)
{
    (void)g;
    const struct nn_state *st = vst;
    return st->over ? 0 : 1u << st->seat;
}

static int nn_legal(const struct game *g, const void *vst, int seat, int *out)
{
    const struct nn_state *st = vst;
    if (!((nn_to_move(g, st) >> seat) & 1))
        return 0;
    int k = playable(st, seat, out);
    if (!k)
        out[k++] = NN_LAY_DOWN;
    return k;
}

/* Plays action's card from seat's hand and draws its replacement. */
static void play(struct nn_state *st, int seat, int action)
{
    int face = action_face(action), i = 0;
    st->total = play_total(action, st->total);
    if (card_rank(face) == 4)
        st->dir = (int8_t)-st->dir;
    uint8_t *e = st->hist[st->hand_plays++ % NN_HIST];
    e[0] = (uint8_t)seat;
    e[1] = (uint8_t)action;
    while (st->hand[seat][i] != face)
        i++;
    st->pile[face]++;
    st->npile++;
    draw(st, seat, i);
}

static int nn_apply(const struct game *g, void *vst, int action)
{
    struct nn_state *st = vst;
    if (action == NN_LAY_DOWN) {
        lay_down(g, st, st->seat);
    } else {
        play(st, st->seat, action);
        st->seat = (uint8_t)next_alive(st, nplayers(g), st->seat, st->dir);
    }
    if (++st->moves >= (uint32_t)g->dims.max_length)
        st->over = 1;
    return 0;
}

static void nn_returns(const struct game *g, const void *vst, double *out)
{
    const struct nn_state *st = vst;
    int n = nplayers(g);
    double start = g->params.v[OPT_PENNIES];
    for (int s = 0; s < n; s++) {
        out[s] = st->pennies[s] - start;
        if (st->over && st->pennies[s])
            out[s] += (double)st->pot / st->alive;
    }
}

/* Writes value into out[rel] where rel is s seen from seat. */
static void put_rel(float *out, int n, int seat, int s, float value)
{
    out[(s - seat + n) % n] = value;
}

static float clamp01(float x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The pile's copies / decks. For one or two decks the division is an
 * exact scaling, the same float as multiplying by the reciprocal, and a
 * multiply lets the compiler do four faces at a time (restrict: the
 * pointers cannot overlap); other counts divide face by face. */
static void put_pile(float *restrict o, const uint8_t *restrict pile,
                     int decks)
{
    float inv = 1.0f / (float)decks;
    if (decks == 1 || decks == 2) {
        /* whole blocks of 16 faces first: the compiler vectorizes a loop
         * only when no remainder is left over */
        int c = 0;
        for (; c < CARDS_IN_PACK / 16 * 16; c++)
            o[c] = pile[c] * inv;
        for (; c < CARDS_IN_PACK; c++)
            o[c] = pile[c] * inv;
        return;
    }
    for (int c = 0; c < CARDS_IN_PACK; c++)
        o[c] = pile[c] / (float)decks;
}

static void nn_observe(const struct game *g, const void *vst, int seat,
                       float *out)
{
    const struct nn_state *st = vst;
    int n = nplayers(g);
    float decks = (float)ndecks(g);
    memset(out, 0, sizeof(float) * (size_t)g->dims.obs_size);
    for (int i = 0; i < NN_HAND; i++)
        if (st->hand[seat][i] != NO_CARD)
            out[st->hand[seat][i]] += 1 / decks;
    put_pile(out + CARDS_IN_PACK, st->pile, ndecks(g));
    float *o = out + 2 * CARDS_IN_PACK;
    o[0] = clamp01(st->total / 99.0f);
    o[1] = clamp01(-st->total / 99.0f);
    o[2] = st->dir > 0;
    o[3] = st->nstock / (CARDS_IN_PACK * decks);
    o += 4;
    for (int s = 0; s < n; s++)
        put_rel(o, n, seat, s,
                st->pennies[s] / (float)g->params.v[OPT_PENNIES]);
    if (!st->over)
        put_rel(o + n, n, seat, st->seat, 1);
    put_rel(o + 2 * n, n, seat, st->dealer, 1);
}

static int nn_obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = nplayers(g), c = CARDS_IN_PACK;
    const struct obs_segment seg[] = {
        {"hand", 0, c, "copies of each face held / decks (cards.h order)"},
        {"pile", c, c, "copies of each face in the played pile / decks"},
        {"total", 2 * c, 1, "running total / 99 (0 when below zero)"},
        {"below_zero", 2 * c + 1, 1, "-total / 99 when the total is < 0"},
        {"clockwise", 2 * c + 2, 1, "1 while play runs clockwise"},
        {"stock", 2 * c + 3, 1, "cards in the stock / cards in the pack"},
        {"pennies", 2 * c + 4, n,
         "pennies left / starting pennies, by "
         "seat relative to the observer"},
        {"to_move", 2 * c + 4 + n, n, "1 at the seat to play (relative)"},
        {"dealer", 2 * c + 4 + 2 * n, n, "1 at the dealer (relative)"},
    };
    int k = (int)(sizeof seg / sizeof seg[0]);
    for (int i = 0; i < k && i < max; i++)
        out[i] = seg[i];
    return k < max ? k : max;
}

static int nn_action_name(const struct game *g, const void *vst, int action,
                          char *buf, size_t len)
{
    (void)g;
    (void)vst;
    if (action == NN_LAY_DOWN)
        return text_cat(buf, len, "lay down", "");
    char name[32], *p = name;
    int face = action_face(action);
    const char *how = "";
    if (action >= NN_TEN_DOWN)
        how = " -10";
    else if (action >= NN_ACE_HIGH)
        how = " as 11";
    else if (card_rank(face) == ACE)
        how = " as 1";
    else if (card_rank(face) == 10)
        how = " +10";
    p = view_cat(view_cat_card(view_cat(p, "play "), face), how);
    return text_put(buf, len, name, (size_t)(p - name));
}

static void pack_hand(const struct nn_state *st, int seat, msgpack_packer *pk)
{
    uint8_t h[NN_HAND];
    int k = 0;
    for (int i = 0; i < NN_HAND; i++)
        if (st->hand[seat][i] != NO_CARD)
            h[k++] = st->hand[seat][i];
    /* Slot order follows the draws, which others never see; sort it. */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && h[j - 1] > h[j]; j--) {
            uint8_t t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }
    view_pack_array(pk, (size_t)k);
    for (int i = 0; i < k; i++)
        view_pack_card(pk, h[i]);
}

static void pack_history(const struct game *g, const struct nn_state *st,
                         msgpack_packer *pk)
{
    uint32_t k = st->hand_plays < NN_HIST ? st->hand_plays : NN_HIST;
    char name[GAME_NAME_MAX];
    view_pack_array(pk, k);
    for (uint32_t i = st->hand_plays - k; i < st->hand_plays; i++) {
        const uint8_t *e = st->hist[i % NN_HIST];
        nn_action_name(g, st, e[1], name, sizeof name);
        view_pack_entry(pk, e[0], name);
    }
}

static const char *const nn_view_keys[] = {
    "hand",  "total", "direction",  "dealer",  "pennies", "pot",
    "stock", "pile",  "last_loser", "history", NULL};

static int nn_view(const struct game *g, const void *vst, int seat,
                   msgpack_packer *pk)
{
    const struct nn_state *st = vst;
    int n = nplayers(g);
    view_pack_str(pk, "hand");
    pack_hand(st, seat, pk);
    view_pack_str(pk, "total");
    view_pack_int(pk, st->total);
    view_pack_str(pk, "direction");
    view_pack_str(pk, st->dir > 0 ? "clockwise" : "anticlockwise");
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "pennies");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->pennies[s]);
    view_pack_str(pk, "pot");
    view_pack_int(pk, st->pot);
    view_pack_str(pk, "stock");
    view_pack_int(pk, st->nstock);
    view_pack_str(pk, "pile");
    view_pack_array(pk, st->npile);
    for (int c = 0; c < CARDS_IN_PACK; c++)
        for (int k = 0; k < st->pile[c]; k++)
            view_pack_card(pk, c);
    view_pack_str(pk, "last_loser");
    view_pack_int(pk, st->last_loser);
    view_pack_str(pk, "history");
    pack_history(g, st, pk);
    return 0;
}

/* Copies the cards of the hands other than seat's, in the slots whose
 * kind is in kinds (1 held since the last rebuild of the stock, 2 drawn
 * since), into pool (put false) or back from it (put true). Returns the
 * number of cards passed. */
static int pass_hands(struct nn_state *st, int n, int seat, int kinds,
                      uint8_t *pool, bool put)
{
    int k = 0;
    for (int s = 0; s < n; s++) {
        for (int i = 0; s != seat && i < NN_HAND; i++) {
            int kind = (st->fresh[s] >> i & 1) ? 2 : 1;
            if (st->hand[s][i] == NO_CARD || !(kinds & kind))
                continue;
            if (put)
                st->hand[s][i] = pool[k++];
            else
                pool[k++] = st->hand[s][i];
        }
    }
    return k;
}

/* Other hands and the stock are unseen by seat: their cards are dealt
 * again at random into the same places, keeping every hand size and every
 * card seat has seen (its hand, the played pile). After a rebuild of the
 * stock within the hand, with one deck, the new stock and the cards drawn
 * since come from the reshuffled pile, a public set, and the cards held
 * from before from the rest: the two groups are shuffled apart. (With two
 * decks a played face may have come from either group, so the split is
 * not public and both are shuffled together.) */
static void nn_determinize(const struct game *g, void *vst, int seat,
                           struct rng *rng)
{
    struct nn_state *st = vst;
    int n = nplayers(g);
    bool split = st->reshuffled && ndecks(g) == 1;
    int drawn = split ? 2 : 3;
    uint8_t a[NN_CARDS], b[NN_CARDS];
    int ka = pass_hands(st, n, seat, drawn, a, false);
    memcpy(a + ka, st->stock, st->nstock);
    rng_shuffle_u8(rng, a, ka + st->nstock);
    int kb = split ? pass_hands(st, n, seat, 1, b, false) : 0;
    rng_shuffle_u8(rng, b, kb);
    pass_hands(st, n, seat, drawn, a, true);
    memcpy(st->stock, a + ka, st->nstock);
    if (split)
        pass_hands(st, n, seat, 1, b, true);
    rng_seed(&st->rng, rng_next(rng));
}

/* Writes seat s's cards, space-separated, into buf. */
static void hand_text(const struct nn_state *st, int s, char *buf, size_t len)
{
    size_t u = 0;
    buf[0] = '\0';
    for (int i = 0; i < NN_HAND && u + 1 < len; i++) {
        if (st->hand[s][i] == NO_CARD)
            continue;
        u += (size_t)snprintf(buf + u, len - u, "%s", u ? " " : "");
        u += (size_t)card_name(st->hand[s][i], buf + u, len - u);
    }
}

/* Writes the stock, top first, as one line. */
static size_t stock_text(const struct nn_state *st, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len, "stock (top first):");
    for (int i = st->nstock - 1; i >= 0 && u < len; i--) {
        u += (size_t)snprintf(buf + u, len - u, " ");
        if (u < len)
            u += (size_t)card_name(st->stock[i], buf + u, len - u);
    }
    if (u < len)
        u += (size_t)snprintf(buf + u, len - u, "\n");
    return u;
}

static int nn_describe(const struct game *g, const void *vst, int seat,
                       char *buf, size_t len)
{
    const struct nn_state *st = vst;
    size_t u =
        (size_t)snprintf(buf, len,
                         "total %d, play runs %s, stock %d, "
                         "pot %d\n",
                         st->total, st->dir > 0 ? "clockwise" : "anticlockwise",
                         st->nstock, st->pot);
    for (int s = 0; s < nplayers(g) && u < len; s++) {
        char h[64] = "";
        if (seat < 0 || seat == s)
            hand_text(st, s, h, sizeof h);
        u +=
            (size_t)snprintf(buf + u, len - u, "seat %d%s: %d %s%s %s%s\n",
                             s, s == st->dealer ? " (dealer)" : "",
                             st->pennies[s],
                             st->pennies[s] == 1 ? "penny" : "pennies",
                             st->pennies[s] ? "" : " (out)", h,
                             !st->over && s == st->seat ? " <- to play" : "");
    }
    if (seat < 0 && u < len)
        u += stock_text(st, buf + u, len - u);
    if (st->over && u < len)
        u += (size_t)snprintf(buf + u, len - u, "game over\n");
    return (int)(u < len ? u : len - 1);
}

/* ---- the descriptor ------------------------------------------------------ */

static const char *const nn_test_specs[] = {
    "ninety_nine(players=2,pennies=1)",
    "ninety_nine(players=6,pennies=5)",
    "ninety_nine(players=3,decks=2)",
    "ninety_nine(players=16,decks=1,pennies=2)",
    "ninety_nine(players=5,max_turns=30)",
    NULL};

static const struct card_codec nn_cards = {CARDS_IN_PACK, 2, card_name,
                                           card_parse};

/* The deals op: every finished hand put one penny in the pot; the hand in
 * play (or the one the move cap stopped) counts while two seats live. */
static int nn_deals(const struct game *g, const void *vst)
{
    (void)g;
    const struct nn_state *st = vst;
    return st->pot + (st->alive > 1);
}

const struct game_def ninety_nine_game = {
    .name = "ninety_nine",
    .long_name = "Ninety-Nine",
    .source = "The Adventures of BJ and Tony Morris, family games page, "
              "Ninety-Nine; see docs/games/ninety_nine.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct nn_state),
    .params = nn_params,
    .nparams = (int)(sizeof nn_params / sizeof nn_params[0]),
    .cards = &nn_cards,
    .view_keys = nn_view_keys,
    .test_specs = nn_test_specs,
    .configure = nn_configure,
    .init = nn_init,
    .to_move = nn_to_move,
    .legal = nn_legal,
    .apply = nn_apply,
    .returns = nn_returns,
    .observe = nn_observe,
    .obs_layout = nn_obs_layout,
    .view = nn_view,
    .action_name = nn_action_name,
    .determinize = nn_determinize,
    .describe = nn_describe,
    .deals = nn_deals,
};
