/* dice.c — the dice game of the Morris family page, a Left-Centre-Right
 * relative: roll one die per unit held, 1-3 keep, 4 pass left, 5 pass
 * right, 6 to the pot; the holder of the last unit outside the pot wins it.
 *
 * Source: The Adventures of BJ and Tony Morris, family games page, "Dice
 * Game"; docs/games/dice.md states it as played here. Decisions:
 * - Chance only: the one action is "roll" (id 0) for the seat to roll;
 *   the dice are thrown from the state RNG inside apply.
 * - Every player starts with 3 units, as the page says; units are chips.
 * - One die per unit held; with max_dice=true at most three (default
 *   false as in the page). Dice are counted when the roll starts.
 * - Seat 0 rolls first, then the turn passes clockwise (to seat + 1),
 *   skipping players with no units; they stay in and may receive.
 *   "Left" is seat + 1 and "right" seat - 1 (play is clockwise); with
 *   two players both are the other seat.
 * - Dice resolve one at a time in the order thrown and the game stops as
 *   soon as exactly one unit is outside the pot; the rest of that roll
 *   is not used (it is still shown in the history, marked unused).
 * - Turn cap max_turns (default 1000 rolls): reaching it voids the
 *   game and every player takes back his 3 units (all returns 0).
 * - Returns: units held minus 3 while playing (the pot counts as nobody's);
 *   at the end the winner also takes the pot, so returns sum to zero.
 * - Fixed dice for tests and replays: the deck argument of init is a list
 *   of faces, ids 0..5 for faces 1..6 (codec names "1".."6", repeats
 *   allowed, at most DICE_FORCED_MAX); they are used in order before the
 *   RNG. determinize drops the faces not yet used (the future is unseen).
 * - Nothing is hidden: observe and view show every seat's units and the
 *   pot; the view's history keeps the last four rolls with their faces.
 * - Action id: 0 "roll", the only one.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../game.h"
#include "../view.h"

/* ---- types ------------------------------------------------------------- */

#define DICE_UNITS 3                                   /* units per player */
#define DICE_TOTAL_MAX (DICE_UNITS * GAME_MAX_PLAYERS) /* units in play */
#define DICE_FORCED_MAX 64 /* fixed faces init accepts */
#define DICE_HIST 4        /* rolls kept for the view */

enum { OPT_PLAYERS, OPT_MAX_DICE, OPT_MAX_TURNS, OPT_COUNT };
enum { ACT_ROLL, ACT_COUNT };
enum { PLAYING, WON, VOID };

/* One roll as shown in the history. */
struct dice_roll {
    uint8_t seat;                 /* who rolled */
    uint8_t n;                    /* dice thrown */
    uint8_t used;                 /* dice resolved before the game ended */
    uint8_t face[DICE_TOTAL_MAX]; /* faces 1..6 in throwing order */
};

struct dice_state {
    struct rng rng;                   /* all chance after init */
    uint16_t turns;                   /* rolls made so far */
    uint8_t units[GAME_MAX_PLAYERS];  /* units each seat holds */
    uint8_t pot;                      /* units in the pot */
    uint8_t roller;                   /* seat to roll next */
    uint8_t over;                     /* PLAYING, WON or VOID */
    uint8_t winner;                   /* seat that took the pot */
    uint8_t nforced, next_forced;     /* fixed faces given, used */
    uint8_t forced[DICE_FORCED_MAX];  /* fixed faces 1..6 */
    struct dice_roll hist[DICE_HIST]; /* ring; newest (turns-1)%HIST */
};

/* ---- the face codec ---------------------------------------------------- */

static int face_name(int id, char *buf, size_t len)
{
    return text_fmt(buf, len, "%d", id + 1);
}

static int face_parse(const char *s, const char **end)
{
    if (*s < '1' || *s > '6')
        return ERR_SYNTAX;
    *end = s + 1;
    return *s - '1';
}

static const struct card_codec dice_faces = {6, 255, face_name, face_parse};

/* ---- static helpers ---------------------------------------------------- */

static int players_of(const struct game *g)
{
    return g->dims.players;
}

static int left_of(const struct game *g, int seat)
{
    return (seat + 1) % players_of(g);
}

static int right_of(const struct game *g, int seat)
{
    return (seat + players_of(g) - 1) % players_of(g);
}

static int next_face(struct dice_state *s)
{
    if (s->next_forced < s->nforced)
        return s->forced[s->next_forced++];
    return 1 + (int)rng_below(&s->rng, 6);
}

static int dice_for(const struct game *g, const struct dice_state *s)
{
    int n = s->units[s->roller];
    if (g->params.v[OPT_MAX_DICE] != 0 && n > 3)
        n = 3;
    return n;
}

/* Moves one unit of the roller according to face; returns true when only
 * one unit is left outside the pot. */
static bool resolve_die(const struct game *g, struct dice_state *s, int face)
{
    int r = s->roller;
    if (face <= 3)
        return false;
    s->units[r]--;
    if (face == 4)
        s->units[left_of(g, r)]++;
    else if (face == 5)
        s->units[right_of(g, r)]++;
    else
        s->pot++;
    return s->pot == DICE_UNITS * players_of(g) - 1;
}

static void finish_win(const struct game *g, struct dice_state *s)
{
    s->over = WON;
    for (int i = 0; i < players_of(g); i++)
        if (s->units[i])
            s->winner = (uint8_t)i;
}

/* The next seat clockwise after the roller that holds a unit. */
static int next_roller(const struct game *g, const struct dice_state *s)
{
    int seat = s->roller;
    do
        seat = left_of(g, seat);
    while (!s->units[seat]);
    return seat;
}

/* ---- API --------------------------------------------------------------- */

static const struct param_def dice_params[OPT_COUNT] = {
    {"players", PARAM_INT, 6, 2, GAME_MAX_PLAYERS, NULL,
     "number of players (the page: best with 6 or more)"},
    {"max_dice", PARAM_BOOL, 0, 0, 1, NULL,
     "roll at most three dice, as commercial Left Centre Right"},
    {"max_turns", PARAM_INT, 1000, 1, 30000, NULL,
     "rolls before the game is void and stakes return"},
};

static int dice_configure(const struct param_values *p, struct game_dims *d,
                          char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int n = (int)p->v[OPT_PLAYERS];
    d->players = n;
    d->teams = n;
    for (int i = 0; i < n; i++)
        d->team[i] = (int8_t)i;
    d->num_actions = ACT_COUNT;
    d->max_legal = 1;
    d->obs_size = 2 * n + 2;
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = (int)p->v[OPT_MAX_TURNS];
    d->ret_low = -DICE_UNITS;
    d->ret_high = DICE_UNITS * (n - 1);
    return 0;
}

static int dice_init(const struct game *g, void *st, uint64_t seed,
                     const uint8_t *deck, int ndeck)
{
    struct dice_state *s = st;
    memset(s, 0, sizeof *s);
    rng_seed(&s->rng, seed);
    if (ndeck < 0 || ndeck > DICE_FORCED_MAX)
        return ERR_INVAL;
    for (int i = 0; i < ndeck; i++) {
        if (deck[i] >= 6)
            return ERR_INVAL;
        s->forced[i] = (uint8_t)(deck[i] + 1);
    }
    s->nforced = (uint8_t)ndeck;
    for (int i = 0; i < players_of(g); i++)
        s->units[i] = DICE_UNITS;
    return 0;
}

static uint32_t dice_to_move(const struct game *g, const void *st)
{
    (void)g;
    const struct dice_state *s = st;
    return s->over == PLAYING ? 1u << s->roller : 0;
}

static int dice_legal(const struct game *g, const void *st, int seat, int *out)
{
    if (!(dice_to_move(g, st) >> seat & 1))
        return 0;
    out[0] = ACT_ROLL;
    return 1;
}

static int dice_apply(const struct game *g, void *st, int action)
{
    (void)action;
    struct dice_state *s = st;
    struct dice_roll *h = &s->hist[s->turns % DICE_HIST];
    int n = dice_for(g, s);
    h->seat = s->roller;
    h->n = (uint8_t)n;
    h->used = (uint8_t)n;
    for (int i = 0; i < n; i++)
        h->face[i] = (uint8_t)next_face(s);
    s->turns++;
    for (int i = 0; i < n; i++) {
        if (resolve_die(g, s, h->face[i])) {
            h->used = (uint8_t)(i + 1);
            finish_win(g, s);
            return 0;
        }
    }
    if (s->turns >= (int)g->params.v[OPT_MAX_TURNS])
        s->over = VOID;
    else
        s->roller = (uint8_t)next_roller(g, s);
    return 0;
}

static void dice_returns(const struct game *g, const void *st, double *out)
{
    const struct dice_state *s = st;
    for (int i = 0; i < players_of(g); i++) {
        int held = s->units[i];
        if (s->over == WON && i == s->winner)
            held += s->pot;
        out[i] = s->over == VOID ? 0 : held - DICE_UNITS;
    }
}

static void dice_observe(const struct game *g, const void *st, int seat,
                         float *out)
{
    const struct dice_state *s = st;
    int n = players_of(g);
    float total = (float)(DICE_UNITS * n);
    bool acting = s->over == PLAYING;
    for (int k = 0; k < n; k++) {
        int i = (seat + k) % n;
        out[k] = (float)s->units[i] / total;
        out[n + k] = acting && i == s->roller ? 1.0f : 0.0f;
    }
    out[2 * n] = (float)s->pot / total;
    out[2 * n + 1] = (float)s->turns / (float)g->dims.max_length;
}

static int dice_obs_layout(const struct game *g, struct obs_segment *out,
                           int max)
{
    int n = players_of(g);
    const struct obs_segment seg[] = {
        {"units", 0, n,
         "units held / (3 x players), own seat first, then clockwise"},
        {"to_roll", n, n, "1 for the seat to roll (same order)"},
        {"pot", 2 * n, 1, "units in the pot / (3 x players)"},
        {"turns", 2 * n + 1, 1, "rolls made / max_turns"},
    };
    int k = 0;
    for (; k < (int)(sizeof seg / sizeof seg[0]) && k < max; k++)
        out[k] = seg[k];
    return k;
}

/* ---- view, names, text ------------------------------------------------- */

/* Writes "roll 2 4 6" (unused dice after the end in brackets). */
static int roll_text(const struct dice_roll *h, char *buf, size_t len)
{
    char text[16 * DICE_TOTAL_MAX + 8], *p = view_cat(text, "roll");
    for (int i = 0; i < h->n; i++) {
        if (i < h->used) {
            p = view_cat_num(view_cat(p, " "), h->face[i]);
        } else {
            p = view_cat(view_cat_num(view_cat(p, " ("), h->face[i]), ")");
        }
    }
    return text_put(buf, len, text, (size_t)(p - text));
}

static void pack_history(const struct dice_state *s, msgpack_packer *pk)
{
    int k = s->turns < DICE_HIST ? s->turns : DICE_HIST;
    char buf[4 * DICE_TOTAL_MAX + 8];
    view_pack_array(pk, (size_t)k);
    for (int j = s->turns - k; j < s->turns; j++) {
        const struct dice_roll *h = &s->hist[j % DICE_HIST];
        roll_text(h, buf, sizeof buf);
        view_pack_entry(pk, h->seat, buf);
    }
}

static const char *const dice_view_keys[] = {"units", "pot", "turns", "history",
                                             NULL};

static int dice_view(const struct game *g, const void *st, int seat,
                     msgpack_packer *pk)
{
    (void)seat;
    const struct dice_state *s = st;
    view_pack_str(pk, "units");
    view_pack_array(pk, (size_t)players_of(g));
    for (int i = 0; i < players_of(g); i++)
        view_pack_int(pk, s->units[i]);
    view_pack_str(pk, "pot");
    view_pack_int(pk, s->pot);
    view_pack_str(pk, "turns");
    view_pack_int(pk, s->turns);
    view_pack_str(pk, "history");
    pack_history(s, pk);
    return 0;
}

static int dice_action_name(const struct game *g, const void *st, int action,
                            char *buf, size_t len)
{
    (void)g;
    (void)st;
    (void)action;
    return text_fmt(buf, len, "roll");
}

static void dice_determinize(const struct game *g, void *st, int seat,
                             struct rng *rng)
{
    (void)g;
    (void)seat;
    struct dice_state *s = st;
    s->next_forced = s->nforced;
    rng_seed(&s->rng, rng_next(rng));
}

static int dice_describe(const struct game *g, const void *st, int seat,
                         char *buf, size_t len)
{
    (void)seat;
    const struct dice_state *s = st;
    char roll[4 * DICE_TOTAL_MAX + 8];
    size_t used = 0;
    for (int i = 0; i < players_of(g) && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "seat %d: %d\n", i,
                                 s->units[i]);
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, "pot: %d, rolls: %d\n",
                                 s->pot, s->turns);
    if (s->turns && used < len) {
        const struct dice_roll *h = &s->hist[(s->turns - 1) % DICE_HIST];
        roll_text(h, roll, sizeof roll);
        used += (size_t)snprintf(buf + used, len - used, "seat %d: %s\n",
                                 h->seat, roll);
    }
    if (used < len && s->over == PLAYING)
        used += (size_t)snprintf(buf + used, len - used, "seat %d to roll\n",
                                 s->roller);
    else if (used < len)
        used += (size_t)snprintf(buf + used, len - used,
                                 s->over == WON ? "seat %d takes the pot\n"
                                                : "void after %d rolls\n",
                                 s->over == WON ? s->winner : s->turns);
    return (int)(used < len ? used : len - 1);
}

static const char *const dice_test_specs[] = {
    "dice(players=2)",
    "dice(players=16,max_dice=true)",
    "dice(players=3,max_turns=5)",
    NULL,
};

const struct game_def dice_game = {
    .name = "dice",
    .long_name = "Dice game (Left-Centre-Right-like)",
    .source = "The Adventures of BJ and Tony Morris, family games page, Dice "
              "Game; see docs/games/dice.md",
    .api_version = GAME_API_VERSION,
    .flags = GAME_CHANCE | GAME_ZERO_SUM,
    .state_size = sizeof(struct dice_state),
    .params = dice_params,
    .nparams = OPT_COUNT,
    .cards = &dice_faces,
    .view_keys = dice_view_keys,
    .test_specs = dice_test_specs,
    .configure = dice_configure,
    .init = dice_init,
    .to_move = dice_to_move,
    .legal = dice_legal,
    .apply = dice_apply,
    .returns = dice_returns,
    .observe = dice_observe,
    .obs_layout = dice_obs_layout,
    .view = dice_view,
    .action_name = dice_action_name,
    .determinize = dice_determinize,
    .describe = dice_describe,
};
