/* test_conformance.c — the shared conformance suite over every registered
 * game, and proof that the suite can fail.
 *
 * The registry walk plays every option set conformance_combos_new lists for
 * each game (thousands of games for the defaults, fewer for variants;
 * PARLOR_CONFORMANCE_SCALE multiplies the counts). A small test-local game,
 * "toy" (high card, simultaneous or in turn), is played the same way, and
 * then copies of it with one op broken on purpose — a tensor or view that
 * leaks, a bound too short, a determinize that does nothing — must each be
 * reported by the suite with the check that caught it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#include "engine/conformance.h"

/* ==== the toy game ======================================================= */

/* High card: 2-4 seats each get `hand` cards from the full pack or the
 * short one (the sixteen aces and court cards). Every round each seat
 * plays one card, all at once (default) or in turn with the cards face up
 * (sequential=true); the highest card (ace high, then suit in bridge
 * order) scores a point. Returns are points minus the mean, so zero-sum.
 * Hidden: the other hands. */

#define TOY_MAXP 4
#define TOY_HAND_MAX 5

enum { TOY_PLAYERS, TOY_HAND, TOY_SEQUENTIAL, TOY_PACK, TOY_NPARAMS };

struct toy_state {
    struct rng rng;          /* the deal's generator, kept for determinize */
    hand_t hand[TOY_MAXP];   /* cards held */
    hand_t played;           /* cards of finished rounds */
    uint8_t table[TOY_MAXP]; /* this round's cards in turn, NO_CARD if none */
    int8_t score[TOY_MAXP];  /* rounds won */
    int8_t round;            /* rounds finished */
    int8_t turn;             /* sequential: the seat to play */
};

static const char *const toy_packs[] = {"full", "short", NULL};

static const struct param_def toy_params[TOY_NPARAMS] = {
    {"players", PARAM_INT, 2, 2, TOY_MAXP, NULL, "number of seats"},
    {"hand", PARAM_INT, TOY_HAND_MAX, 1, TOY_HAND_MAX, NULL,
     "cards dealt to each seat"},
    {"sequential", PARAM_BOOL, 0, 0, 1, NULL, "play in turn, face up"},
    {"pack", PARAM_ENUM, 1, 0, 0, toy_packs, "52 cards or aces and courts"},
};

static const char *const toy_view_keys[] = {"hand", "played", "table", "scores",
                                            NULL};

/* players=4 with sequential=true in the full pack, and hand=1 with three
 * seats; the last repeats a single-option variant (dropped as a repeat). */
static const char *const toy_test_specs[] = {
    "toy(players=4,pack=full,sequential=true)", "toy(players=3,hand=1)",
    "toy(sequential=true)", NULL};

static hand_t toy_pack(const struct game *g)
{
    hand_t courts = 0;
    for (int s = 0; s < 4; s++)
        courts |= card_bit(card_make(ACE, s)) | card_bit(card_make(JACK, s)) |
                  card_bit(card_make(QUEEN, s)) | card_bit(card_make(KING, s));
    return game_param(g, "pack") == 1 ? courts : ~0ull >> 12;
}

static int toy_configure(const struct param_values *p, struct game_dims *d,
                         char *err, size_t errlen)
{
    int np = (int)p->v[TOY_PLAYERS], hand = (int)p->v[TOY_HAND];
    int cards = p->v[TOY_PACK] == 1 ? 16 : 52;
    if (np * hand > cards)
        return err_set(err, errlen, ERR_INVAL,
                       "players=%d times hand=%d is more than the %d cards of "
                       "pack",
                       np, hand, cards);
    memset(d, 0, sizeof *d);
    d->players = d->teams = np;
    for (int s = 0; s < np; s++)
        d->team[s] = (int8_t)s;
    d->num_actions = 52;
    d->max_legal = hand;
    d->obs_size = 3 * 52 + 2 * TOY_MAXP;
    d->obs_low = 0;
    d->obs_high = 1;
    d->max_length = p->v[TOY_SEQUENTIAL] ? hand * np : hand;
    d->ret_low = -hand;
    d->ret_high = hand;
    return 0;
}

static int toy_init(const struct game *g, void *st, uint64_t seed,
                    const uint8_t *deck, int ndeck)
{
    struct toy_state *s = st;
    uint8_t order[52];
    hand_t pack = toy_pack(g);
    int np = g->dims.players, hand = g->dims.max_legal, dealt = 0;
    memset(s, 0, sizeof *s);
    rng_seed(&s->rng, seed);
    if (deck_build(order, 52, deck, ndeck, &s->rng))
        return ERR_INVAL;
    for (int i = 0; i < 52 && dealt < np * hand; i++)
        if (hand_has(pack, order[i]))
            s->hand[dealt++ % np] |= card_bit(order[i]);
    memset(s->table, NO_CARD, sizeof s->table);
    return 0;
}

static uint32_t toy_to_move(const struct game *g, const void *st)
{
    const struct toy_state *s = st;
    if (s->round == g->dims.max_legal)
        return 0;
    if (game_param(g, "sequential") != 0)
        return 1u << s->turn;
    return (1u << g->dims.players) - 1;
}

static int toy_legal(const struct game *g, const void *st, int seat, int *out)
{
    const struct toy_state *s = st;
    int n = 0;
    if (!((toy_to_move(g, st) >> seat) & 1))
        return 0;
    for (hand_t h = s->hand[seat]; h; h &= h - 1)
        out[n++] = hand_first(h);
    return n;
}

static int toy_strength(int c)
{
    int r = card_rank(c) == ACE ? 14 : card_rank(c);
    return r * 4 + card_suit(c);
}

static void toy_end_round(const struct game *g, struct toy_state *s)
{
    int best = 0;
    for (int p = 1; p < g->dims.players; p++)
        if (toy_strength(s->table[p]) > toy_strength(s->table[best]))
            best = p;
    s->score[best]++;
    for (int p = 0; p < g->dims.players; p++)
        s->played |= card_bit(s->table[p]);
    memset(s->table, NO_CARD, sizeof s->table);
    s->round++;
    s->turn = 0;
}

static int toy_apply(const struct game *g, void *st, int action)
{
    struct toy_state *s = st;
    s->hand[s->turn] &= ~card_bit(action);
    s->table[s->turn++] = (uint8_t)action;
    if (s->turn == g->dims.players)
        toy_end_round(g, s);
    return 0;
}

static int toy_apply_joint(const struct game *g, void *st, const int *acts)
{
    struct toy_state *s = st;
    for (int p = 0; p < g->dims.players; p++) {
        s->hand[p] &= ~card_bit(acts[p]);
        s->table[p] = (uint8_t)acts[p];
    }
    toy_end_round(g, s);
    return 0;
}

static void toy_returns(const struct game *g, const void *st, double *out)
{
    const struct toy_state *s = st;
    double mean = 0;
    for (int p = 0; p < g->dims.players; p++)
        mean += s->score[p];
    mean /= g->dims.players;
    for (int p = 0; p < g->dims.players; p++)
        out[p] = s->score[p] - mean;
}

static void toy_observe(const struct game *g, const void *st, int seat,
                        float *out)
{
    const struct toy_state *s = st;
    memset(out, 0, sizeof(float) * (size_t)g->dims.obs_size);
    for (int c = 0; c < 52; c++) {
        out[c] = hand_has(s->hand[seat], c);
        out[52 + c] = hand_has(s->played, c);
    }
    for (int p = 0; p < g->dims.players; p++) {
        if (s->table[p] != NO_CARD)
            out[104 + s->table[p]] = 1;
        out[156 + p] = (float)s->score[p] / (float)g->dims.max_legal;
    }
    out[156 + TOY_MAXP + seat] = 1;
}

static int toy_obs_layout(const struct game *g, struct obs_segment *out,
                          int max)
{
    static const struct obs_segment seg[] = {
        {"hand", 0, 52, "1 for each card held"},
        {"played", 52, 52, "1 for each card of a finished round"},
        {"table", 104, 52, "1 for each card played this round"},
        {"scores", 156, TOY_MAXP, "rounds won / hand size, by seat"},
        {"seat", 156 + TOY_MAXP, TOY_MAXP, "one-hot: the observing seat"},
    };
    (void)g;
    int n = (int)(sizeof seg / sizeof seg[0]);
    memcpy(out, seg, sizeof(seg[0]) * (size_t)(n < max ? n : max));
    return n;
}

static void toy_pack_cards(msgpack_packer *pk, hand_t h)
{
    msgpack_pack_array(pk, (size_t)hand_count(h));
    for (; h; h &= h - 1)
        msgpack_pack_int(pk, hand_first(h));
}

static void toy_pack_key(msgpack_packer *pk, const char *k)
{
    msgpack_pack_str_with_body(pk, k, strlen(k));
}

static int toy_view(const struct game *g, const void *st, int seat,
                    msgpack_packer *pk)
{
    const struct toy_state *s = st;
    int np = g->dims.players;
    toy_pack_key(pk, "hand");
    toy_pack_cards(pk, s->hand[seat]);
    toy_pack_key(pk, "played");
    toy_pack_cards(pk, s->played);
    toy_pack_key(pk, "table");
    msgpack_pack_array(pk, (size_t)np);
    for (int p = 0; p < np; p++)
        msgpack_pack_int(pk, s->table[p] == NO_CARD ? -1 : s->table[p]);
    toy_pack_key(pk, "scores");
    msgpack_pack_array(pk, (size_t)np);
    for (int p = 0; p < np; p++)
        msgpack_pack_int(pk, s->score[p]);
    return 0;
}

static int toy_action_name(const struct game *g, const void *st, int action,
                           char *buf, size_t len)
{
    char card[16];
    (void)g;
    (void)st;
    card_name(action, card, sizeof card);
    return snprintf(buf, len, "play %s", card);
}

/* Deals the cards seat has not seen to the other hands, sizes kept. */
static void toy_determinize(const struct game *g, void *st, int seat,
                            struct rng *rng)
{
    struct toy_state *s = st;
    uint8_t pool[52];
    int n = 0, k = 0;
    hand_t table = 0;
    for (int p = 0; p < g->dims.players; p++)
        if (s->table[p] != NO_CARD)
            table |= card_bit(s->table[p]);
    hand_t unseen = toy_pack(g) & ~s->hand[seat] & ~s->played & ~table;
    for (hand_t h = unseen; h; h &= h - 1)
        pool[n++] = (uint8_t)hand_first(h);
    rng_shuffle_u8(rng, pool, n);
    for (int p = 0; p < g->dims.players; p++) {
        if (p == seat)
            continue;
        int want = hand_count(s->hand[p]);
        s->hand[p] = 0;
        while (want--)
            s->hand[p] |= card_bit(pool[k++]);
    }
    rng_seed(&s->rng, rng_next(rng));
}

static int toy_describe(const struct game *g, const void *st, int seat,
                        char *buf, size_t len)
{
    const struct toy_state *s = st;
    char cards[200];
    size_t used = 0;
    for (int p = 0; p < g->dims.players && used < len; p++) {
        if (seat < 0 || seat == p)
            hand_format(s->hand[p], cards, sizeof cards);
        else
            snprintf(cards, sizeof cards, "%d cards", hand_count(s->hand[p]));
        used +=
            (size_t)snprintf(buf + used, len - used, "seat %d: %s, %d points\n",
                             p, cards, s->score[p]);
    }
    return (int)used;
}

static const struct game_def toy_game = {
    .name = "toy",
    .long_name = "High card (test game)",
    .source = "tests/engine/test_conformance.c",
    .api_version = GAME_API_VERSION,
    .flags = GAME_HIDDEN_INFO | GAME_ZERO_SUM | GAME_SIMULTANEOUS,
    .state_size = sizeof(struct toy_state),
    .params = toy_params,
    .nparams = TOY_NPARAMS,
    .cards = &cards_standard,
    .view_keys = toy_view_keys,
    .test_specs = toy_test_specs,
    .configure = toy_configure,
    .init = toy_init,
    .to_move = toy_to_move,
    .legal = toy_legal,
    .apply = toy_apply,
    .apply_joint = toy_apply_joint,
    .returns = toy_returns,
    .observe = toy_observe,
    .obs_layout = toy_obs_layout,
    .view = toy_view,
    .action_name = toy_action_name,
    .determinize = toy_determinize,
    .describe = toy_describe,
};

/* ==== the toy, broken on purpose ======================================== */

/* Each breaks one op of a copy of toy_game; the suite must name the check
 * (and the words) given beside it in the table further down. */

static void leaky_observe(const struct game *g, const void *st, int seat,
                          float *out)
{
    const struct toy_state *s = st;
    hand_t next = s->hand[(seat + 1) % g->dims.players];
    toy_observe(g, st, seat, out);
    if (next) /* the next seat's lowest card, shown as if played */
        out[52 + hand_first(next)] = 1;
}

static int leaky_view(const struct game *g, const void *st, int seat,
                      msgpack_packer *pk)
{
    struct toy_state s = *(const struct toy_state *)st;
    s.hand[seat] |= s.hand[(seat + 1) % g->dims.players];
    return toy_view(g, &s, seat, pk);
}

static int short_configure(const struct param_values *p, struct game_dims *d,
                           char *err, size_t errlen)
{
    int rc = toy_configure(p, d, err, errlen);
    d->max_length--; /* one step too few: the bound must catch it */
    return rc;
}

static void idle_determinize(const struct game *g, void *st, int seat,
                             struct rng *rng)
{
    (void)g, (void)st, (void)seat, (void)rng;
}

static void reseed_determinize(const struct game *g, void *st, int seat,
                               struct rng *rng)
{
    struct toy_state *s = st;
    (void)g, (void)seat;
    rng_seed(&s->rng, rng_next(rng));
}

/* Resamples, but leaves the other hands a card short: the game goes on
 * with a seat that cannot play. */
static void losing_determinize(const struct game *g, void *st, int seat,
                               struct rng *rng)
{
    struct toy_state *s = st;
    toy_determinize(g, st, seat, rng);
    for (int p = 0; p < g->dims.players; p++)
        if (p != seat && s->hand[p])
            s->hand[p] &= s->hand[p] - 1;
}

static void plain_returns(const struct game *g, const void *st, double *out)
{
    const struct toy_state *s = st;
    for (int p = 0; p < g->dims.players; p++)
        out[p] = s->score[p];
}

static int vague_name(const struct game *g, const void *st, int action,
                      char *buf, size_t len)
{
    (void)g, (void)st, (void)action;
    return snprintf(buf, len, "play");
}

static int descending_legal(const struct game *g, const void *st, int seat,
                            int *out)
{
    int n = toy_legal(g, st, seat, out);
    for (int i = 0; i < n / 2; i++) {
        int t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

static void raw_observe(const struct game *g, const void *st, int seat,
                        float *out)
{
    const struct toy_state *s = st;
    toy_observe(g, st, seat, out);
    for (int p = 0; p < g->dims.players; p++)
        out[156 + p] = s->score[p]; /* not divided: above obs_high */
}

/* Sets fields one by one: the unused table slots keep the buffer's bytes. */
static int dirty_init(const struct game *g, void *st, uint64_t seed,
                      const uint8_t *deck, int ndeck)
{
    struct toy_state *s = st, clean;
    toy_init(g, &clean, seed, deck, ndeck);
    s->rng = clean.rng;
    memcpy(s->hand, clean.hand, sizeof s->hand);
    s->played = clean.played;
    memcpy(s->table, clean.table, (size_t)g->dims.players);
    memcpy(s->score, clean.score, sizeof s->score);
    s->round = clean.round;
    s->turn = clean.turn;
    return 0;
}

static int gap_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = toy_obs_layout(g, out, max);
    out[1].size--; /* leaves index 103 undocumented */
    return n;
}

static int mute_describe(const struct game *g, const void *st, int seat,
                         char *buf, size_t len)
{
    (void)g, (void)st, (void)seat;
    buf[0] = '\0';
    (void)len;
    return 0;
}

static const char *const toy_extra_keys[] = {"hand",   "played", "table",
                                             "scores", "extra",  NULL};

struct broken {
    const char *what;    /* what is broken */
    const char *expect;  /* words the suite's message must contain */
    const char *expect2; /* more words, or NULL */
};

static const struct broken broken_cases[] = {
    {"observe leaks", "leak: determinization", "tensor"},
    {"view leaks", "leak: determinization", "view at key 'hand'"},
    {"bound short", "bound: not over after max_length", NULL},
    {"determinize idle", "left the state unchanged", NULL},
    {"determinize reseeds only", "changed nothing another seat sees", NULL},
    {"determinize loses cards", "playout", "legal: seat is to move"},
    {"returns not zero-sum", "returns: zero-sum", NULL},
    {"names repeat", "names: actions", "both named 'play'"},
    {"legal descending", "legal: ids not strictly ascending", NULL},
    {"observe out of bounds", "observe: value", "segment 'scores'"},
    {"init leaves bytes", "determinism: init", NULL},
    {"simultaneous unflagged", "to_move: several seats act", NULL},
    {"layout gap", "obs_layout segment 'table'", NULL},
    {"describe empty", "describe: empty", NULL},
    {"view keys extra", "view: not one complete msgpack object", NULL},
};

/* The toy with the index-th break applied. */
static struct game_def broken_def(int index)
{
    struct game_def d = toy_game;
    switch (index) {
    case 0:
        d.observe = leaky_observe;
        break;
    case 1:
        d.view = leaky_view;
        break;
    case 2:
        d.configure = short_configure;
        break;
    case 3:
        d.determinize = idle_determinize;
        break;
    case 4:
        d.determinize = reseed_determinize;
        break;
    case 5:
        d.determinize = losing_determinize;
        break;
    case 6:
        d.returns = plain_returns;
        break;
    case 7:
        d.action_name = vague_name;
        break;
    case 8:
        d.legal = descending_legal;
        break;
    case 9:
        d.observe = raw_observe;
        break;
    case 10:
        d.init = dirty_init;
        break;
    case 11:
        d.flags &= ~(unsigned)GAME_SIMULTANEOUS;
        break;
    case 12:
        d.obs_layout = gap_layout;
        break;
    case 13:
        d.describe = mute_describe;
        break;
    case 14:
        d.view_keys = toy_extra_keys;
        break;
    }
    return d;
}

/* ==== helpers ============================================================ */

/* Registered games that share out the full budget; past that many, each
 * game's counts shrink so that the whole run keeps about the same length
 * (about 6 s of CPU per game at -O2 with the factor 1). */
#define BUDGET_GAMES 24

/* The factor on every count: PARLOR_CONFORMANCE_SCALE (default 1), times
 * BUDGET_GAMES / registered games when more are registered. */
static double scale(void)
{
    const char *s = getenv("PARLOR_CONFORMANCE_SCALE");
    double v = s && atof(s) > 0 ? atof(s) : 1.0;
    if (game_registry_count > BUDGET_GAMES)
        v *= (double)BUDGET_GAMES / game_registry_count;
    return v;
}

static int scaled(int n)
{
    int v = (int)(n * scale() + 0.5);
    return v < 1 ? 1 : v;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "97.5% of 400", or "-" when there was nothing to count. */
static void share_str(long unchanged, long points, char *buf, size_t len)
{
    if (points)
        snprintf(buf, len, "%.1f%% of %ld",
                 100.0 * (double)(points - unchanged) / (double)points, points);
    else
        snprintf(buf, len, "-");
}

static void print_report(const char *spec, const struct conformance_report *r,
                         double secs)
{
    char det[48], hid[48];
    share_str(r->det_unchanged, r->det_points, det, sizeof det);
    share_str(r->hid_unchanged, r->hid_points, hid, sizeof hid);
    printf("  %-40s %5ld games %7ld steps (longest %5ld) %6.2fs; "
           "determinize changed: state %s, others' view %s\n",
           spec, r->games, r->steps, r->longest, secs, det, hid);
}

/* Games per option set: thousands for the defaults, fewer for the rest;
 * but a set whose games are long stops at a step budget. */
#define GAMES_DEFAULT 2000
#define GAMES_VARIANT 40
#define GAMES_TEST_SPEC 80
#define STEPS_DEFAULT 400000
#define STEPS_VARIANT 8000
#define STEPS_TEST_SPEC 16000
#define PROBE_GAMES 2 /* games played first to learn the average length */

static void report_sum(struct conformance_report *to,
                       const struct conformance_report *r)
{
    to->games += r->games;
    to->steps += r->steps;
    to->det_points += r->det_points;
    to->det_unchanged += r->det_unchanged;
    to->hid_points += r->hid_points;
    to->hid_unchanged += r->hid_unchanged;
}

/* Plays a few games of the option set, then as many more as the count and
 * the step budget allow. Returns 0 or the failure's code, message in err. */
static int run_combo(const struct game_def *def,
                     const struct conformance_combo *co, uint64_t seed,
                     struct conformance_report *total, char *err, size_t errlen)
{
    static const int games_of[] = {GAMES_DEFAULT, GAMES_VARIANT,
                                   GAMES_TEST_SPEC};
    static const long steps_of[] = {STEPS_DEFAULT, STEPS_VARIANT,
                                    STEPS_TEST_SPEC};
    struct game g;
    struct conformance_report r = {0};
    int games = scaled(games_of[co->kind]);
    double budget = steps_of[co->kind] * scale(), t0 = seconds();
    int first = games < PROBE_GAMES ? games : PROBE_GAMES;
    int rc = conformance_game_make(&g, def, co->spec, err, errlen);
    if (!rc)
        rc = conformance_run(&g, first, seed, &r, err, errlen);
    if (!rc && games > first) {
        double mean = (double)r.steps / (double)r.games + 1;
        double more = fmin(games - first, (budget - (double)r.steps) / mean);
        if (more >= 1)
            rc = conformance_run(&g, (int)more, rng_derive(seed, 1), &r, err,
                                 errlen);
    }
    print_report(co->spec, &r, seconds() - t0);
    report_sum(total, &r);
    return rc;
}

/* Runs every option set of def; prints and counts each failure. */
static int run_def(const struct game_def *def, uint64_t seed)
{
    char err[1024];
    int failures = 0;
    struct conformance_report total = {0};
    struct conformance_combos *c = conformance_combos_new(def, err, sizeof err);
    if (!c) {
        printf("FAIL %s: %s\n", def->name, err);
        return 1;
    }
    printf("%s: %d option sets, %d single-option variants refused by "
           "configure\n",
           def->name, c->n, c->nrejected);
    for (int i = 0; i < c->nrejected; i++)
        printf("  refused %s: %s\n", c->rejected[i].spec,
               c->rejected[i].reason);
    for (int i = 0; i < c->n; i++)
        if (run_combo(def, &c->combo[i], seed, &total, err, sizeof err)) {
            printf("FAIL %s\n", err);
            failures++;
        }
    char det[48], hid[48];
    share_str(total.det_unchanged, total.det_points, det, sizeof det);
    share_str(total.hid_unchanged, total.hid_points, hid, sizeof hid);
    printf("%s: %ld games, %ld steps; determinize changed, at non-terminal "
           "(point, seat) pairs: the state at %s, another seat's view at %s\n",
           def->name, total.games, total.steps, det, hid);
    conformance_combos_destroy(&c);
    return failures;
}

/* ==== tests ============================================================== */

static void test_registry_is_valid(void **state)
{
    char err[256] = "";
    (void)state;
    assert_true(game_registry_count > 0);
    assert_int_equal(game_registry_check(err, sizeof err), 0);
}

/* The toy's option sets, worked out by hand from its table: players 3 and
 * 4 (4 x 5 cards is more than the 16 of the short pack: refused), hand=1,
 * sequential=true, pack=full, then two test specs (the third repeats
 * sequential=true and is dropped). */
static void test_combos_of_toy(void **state)
{
    char err[256] = "";
    (void)state;
    struct conformance_combos *c =
        conformance_combos_new(&toy_game, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(c->n, 7);
    assert_int_equal(c->combo[0].kind, CONFORMANCE_DEFAULT);
    assert_string_equal(c->combo[0].spec, "toy");
    assert_string_equal(c->combo[1].spec, "toy(players=3)");
    assert_string_equal(c->combo[2].spec, "toy(hand=1)");
    assert_string_equal(c->combo[3].spec, "toy(sequential=true)");
    assert_string_equal(c->combo[4].spec, "toy(pack=full)");
    assert_int_equal(c->combo[5].kind, CONFORMANCE_TEST_SPEC);
    assert_int_equal(c->nrejected, 1);
    assert_string_equal(c->rejected[0].spec, "toy(players=4)");
    assert_non_null(strstr(c->rejected[0].reason, "players=4"));
    conformance_combos_destroy(&c);
    assert_null(c);
}

/* A correct game passes every option set: no false alarms. */
static void test_toy_conforms(void **state)
{
    (void)state;
    assert_int_equal(run_def(&toy_game, 11), 0);
}

/* Every registered game, every option set worth covering. */
static void test_registered_games_conform(void **state)
{
    int failures = 0;
    (void)state;
    printf("%d games registered; counts scaled by %g\n", game_registry_count,
           scale());
    for (int i = 0; i < game_registry_count; i++)
        failures += run_def(game_registry[i], 2024 + (uint64_t)i);
    assert_int_equal(failures, 0);
}

/* A broken toy must fail with the check that catches it; and the game
 * seed in the message must replay the same failure on its own. */
static void test_broken_is_caught(void **state)
{
    int index = (int)(intptr_t)*state;
    const struct broken *b = &broken_cases[index];
    struct game_def d = broken_def(index);
    struct game g;
    struct conformance_report r = {0};
    char err[1024] = "", again[1024] = "";
    assert_int_equal(conformance_game_make(&g, &d, "toy", err, sizeof err), 0);
    int rc = conformance_run(&g, 40, 7, &r, err, sizeof err);
    printf("  %-26s -> %s\n", b->what, err);
    assert_int_equal(rc, ERR_INVAL);
    assert_non_null(strstr(err, b->expect));
    if (b->expect2)
        assert_non_null(strstr(err, b->expect2));
    const char *at = strstr(err, "game seed 0x");
    if (!at)
        return; /* a static or whole-run check: no single game to replay */
    uint64_t seed = strtoull(at + 10, NULL, 16);
    assert_int_equal(conformance_play(&g, seed, &r, again, sizeof again),
                     ERR_INVAL);
    assert_string_equal(again, err);
}

#define BROKEN(i)                                                              \
    cmocka_unit_test_prestate(test_broken_is_caught, (void *)(intptr_t)(i))

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_is_valid),
        cmocka_unit_test(test_combos_of_toy),
        BROKEN(0),
        BROKEN(1),
        BROKEN(2),
        BROKEN(3),
        BROKEN(4),
        BROKEN(5),
        BROKEN(6),
        BROKEN(7),
        BROKEN(8),
        BROKEN(9),
        BROKEN(10),
        BROKEN(11),
        BROKEN(12),
        BROKEN(13),
        BROKEN(14),
        cmocka_unit_test(test_toy_conforms),
        cmocka_unit_test(test_registered_games_conform),
    };
    _Static_assert(sizeof broken_cases / sizeof broken_cases[0] == 15,
                   "one BROKEN() line per broken case");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
