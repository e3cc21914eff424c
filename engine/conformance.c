/* conformance.c — the conformance suite's passes over random games.
 *
 * Each game is played twice from its seed. The first pass picks random
 * legal actions and checks every step (legal sets, refusals, clone,
 * tensors, returns, the bound; names, views and descriptions on sampled
 * steps), recording the actions and a hash of the state and tensors after
 * each step. The second pass replays the record into a buffer holding
 * other bytes and must meet the same hashes; at a few of its steps it
 * determinizes the state for every seat several times and requires that
 * seat's tensor, view, legal set and action names to stay byte-identical,
 * and plays one determinized state out to the end. The checks of one
 * state are in conformance_check.c; the static checks and the option sets
 * to cover in conformance_static.c.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "conformance_int.h"

/* How much each game is checked. A run's first game checks everything at
 * every step; later games check names, and one seat's view and
 * description, at one step in HEAVY_EVERY, drawn at random. */
#define LEAK_POINTS 3       /* steps per game where determinize is checked */
#define DETERMINIZE_TIMES 6 /* determinizations per (point, seat) */
#define FULL_GAMES 1        /* games per run checked fully */
#define HEAVY_EVERY 4       /* later games: one step in this many sampled */
#define MIN_POINTS 50       /* points needed before proportions are judged */
#define MAX_UNCHANGED 0.10  /* share of points determinize may leave as is */
#define MAX_UNSEEN 0.50     /* share where it may change nothing others see */

/* ---- refusals ---------------------------------------------------------- */

static int expect_refused(struct conformance_ctx *c, int seat, int rc, int want,
                          const char *what)
{
    if (rc != want)
        return conformance__fail(c, seat, "refusal", "%s: got %s, want %s",
                                 what, err_name(rc), err_name(want));
    if (memcmp(c->st, c->snap, c->ss))
        return conformance__fail(c, seat, "refusal",
                                 "%s: refused but the state changed", what);
    return 0;
}

/* An id in range that is not in the legal set (bitmap c->bits), or -1. */
static int illegal_id(struct conformance_ctx *c, const int *legal, int n)
{
    int na = c->m->num_actions;
    if (n >= na)
        return -1;
    memset(c->bits, 0, (size_t)(na + 63) / 64 * 8);
    for (int i = 0; i < n; i++)
        c->bits[legal[i] >> 6] |= 1ull << (legal[i] & 63);
    for (int tries = 0; tries < 64; tries++) {
        int a = (int)rng_below(&c->rng, (uint32_t)na);
        if (!((c->bits[a >> 6] >> (a & 63)) & 1))
            return a;
    }
    for (int a = 0; a < na; a++)
        if (!((c->bits[a >> 6] >> (a & 63)) & 1))
            return a;
    return -1;
}

/* One seat acts: out-of-range and unlisted ids, and seats not to move. */
static int refuse_single(struct conformance_ctx *c, int seat)
{
    const struct game *g = c->g;
    int n, rc, bad, other = (seat + 1) % c->np;
    if ((rc = conformance__check_legal(c, c->st, seat, true, c->legal, &n)))
        return rc;
    rc = expect_refused(c, seat, game_apply(g, c->st, seat, -1),
                        ERR_ILLEGAL_ACTION, "action -1");
    if (!rc)
        rc = expect_refused(c, seat,
                            game_apply(g, c->st, seat, c->m->num_actions),
                            ERR_ILLEGAL_ACTION, "action num_actions");
    if (!rc && (bad = illegal_id(c, c->legal, n)) >= 0)
        rc = expect_refused(c, seat, game_apply(g, c->st, seat, bad),
                            ERR_ILLEGAL_ACTION, "an id not in the legal set");
    if (!rc && other != seat)
        rc = expect_refused(c, other, game_apply(g, c->st, other, c->legal[0]),
                            ERR_STATE, "a seat not to move");
    if (!rc)
        rc = expect_refused(c, -1, game_apply(g, c->st, -1, c->legal[0]),
                            ERR_STATE, "seat -1");
    if (!rc)
        rc = expect_refused(c, c->np, game_apply(g, c->st, c->np, c->legal[0]),
                            ERR_STATE, "seat = players");
    return rc;
}

/* Several seats act: apply alone is refused, and so is a joint move
 * with one illegal action among legal ones. */
static int refuse_joint(struct conformance_ctx *c, uint32_t m)
{
    int acts[GAME_MAX_PLAYERS], n, rc, last = -1;
    for (int s = 0; s < c->np; s++) {
        acts[s] = -1;
        if (!((m >> s) & 1))
            continue;
        if ((rc = conformance__check_legal(c, c->st, s, true, c->legal, &n)))
            return rc;
        acts[s] = c->legal[0];
        last = s;
    }
    rc = expect_refused(c, last, game_apply(c->g, c->st, last, acts[last]),
                        ERR_STATE, "game_apply while several seats act");
    if (rc)
        return rc;
    acts[last] = -1;
    return expect_refused(c, last, game_apply_joint(c->g, c->st, acts),
                          ERR_ILLEGAL_ACTION, "a joint move with action -1");
}

static int refuse_terminal(struct conformance_ctx *c)
{
    int acts[GAME_MAX_PLAYERS] = {0};
    int rc = expect_refused(c, 0, game_apply(c->g, c->st, 0, 0), ERR_STATE,
                            "game_apply after the end");
    return rc ? rc
              : expect_refused(c, -1, game_apply_joint(c->g, c->st, acts),
                               ERR_STATE, "game_apply_joint after the end");
}

/* ---- first pass: play and check every step ----------------------------- */

/* True when seat's view and description are checked at this step (seat
 * -1, the full description, whenever any is). */
static bool sampled(const struct conformance_ctx *c, int seat)
{
    return c->heavy && (c->heavy_seat < 0 || seat < 0 || seat == c->heavy_seat);
}

/* Checks the current state for every seat; stores the tensors' hash. */
static int check_point(struct conformance_ctx *c)
{
    const void *st = c->st;
    uint32_t m = conformance__to_move(c, st);
    uint64_t h = HASH_START;
    int n, rc = 0;
    if (m >> c->np)
        return conformance__fail(
            c, -1, "to_move", "mask 0x%x names seats beyond %d", m, c->np - 1);
    if ((m & (m - 1)) && !(c->g->def->flags & GAME_SIMULTANEOUS))
        return conformance__fail(c, -1, "to_move",
                                 "several seats act (0x%x) but the game is "
                                 "not GAME_SIMULTANEOUS",
                                 m);
    memcpy(c->snap, st, c->ss);
    for (int s = 0; s < c->np && !rc; s++) {
        bool acting = (m >> s) & 1;
        rc = conformance__check_legal(c, st, s, acting, c->legal, &n);
        if (!rc && c->heavy && acting)
            rc = conformance__check_names(c, st, s, c->legal, n);
        if (!rc)
            rc = conformance__check_obs(c, st, s, c->obs);
        h = conformance__hash(h, c->obs,
                              sizeof(float) * (size_t)c->m->obs_size);
        if (!rc && sampled(c, s))
            rc = conformance__check_view(c, st, s, &c->sb);
    }
    for (int s = -1; s < c->np && !rc; s++)
        if (sampled(c, s))
            rc = conformance__check_describe(c, st, s);
    if (!rc)
        rc = conformance__check_returns(c, st, m == 0);
    if (!rc && memcmp(st, c->snap, c->ss))
        rc = conformance__fail(c, -1, "read-only",
                               "legal, observe, view, action_name, describe "
                               "or returns changed the state");
    if (!rc && m)
        rc = (m & (m - 1)) ? refuse_joint(c, m)
                           : refuse_single(c, __builtin_ctz(m));
    if (!rc && !m)
        rc = refuse_terminal(c);
    c->ohash[c->step] = h;
    return rc;
}

/* Picks a uniform legal action for every acting seat (-1 elsewhere). */
static int choose(struct conformance_ctx *c, const void *st, uint32_t m,
                  int *acts)
{
    int n, rc;
    for (int s = 0; s < c->np; s++) {
        acts[s] = -1;
        if (!((m >> s) & 1))
            continue;
        if ((rc = conformance__check_legal(c, st, s, true, c->legal, &n)))
            return rc;
        acts[s] = c->legal[rng_below(&c->rng, (uint32_t)n)];
    }
    return 0;
}

static int apply_acts(struct conformance_ctx *c, void *st, uint32_t m,
                      const int *acts)
{
    if (m & (m - 1))
        return game_apply_joint(c->g, st, acts);
    int s = __builtin_ctz(m);
    return game_apply(c->g, st, s, acts[s]);
}

static int grow_records(struct conformance_ctx *c)
{
    long cap = c->cap ? c->cap * 2 : 256;
    int *acts = mem_realloc(c->acts, sizeof(int) * (size_t)(cap * c->np));
    uint64_t *sh = acts ? mem_realloc(c->shash, 8 * (size_t)(cap + 1)) : NULL;
    uint64_t *oh = sh ? mem_realloc(c->ohash, 8 * (size_t)(cap + 1)) : NULL;
    c->acts = acts ? acts : c->acts;
    c->shash = sh ? sh : c->shash;
    c->ohash = oh ? oh : c->ohash;
    if (!oh)
        return err_set(c->err, c->errlen, ERR_NOMEM, "out of memory");
    c->cap = cap;
    return 0;
}

/* Applies a random joint choice to the state and to a memcpy clone. */
static int play_step(struct conformance_ctx *c)
{
    uint32_t m = conformance__to_move(c, c->st);
    int rc, *acts;
    if (c->step == c->cap && (rc = grow_records(c)))
        return rc;
    acts = c->acts + c->step * c->np;
    if ((rc = choose(c, c->st, m, acts)))
        return rc;
    memcpy(c->work, c->st, c->ss);
    if ((rc = apply_acts(c, c->st, m, acts)))
        return conformance__fail(c, __builtin_ctz(m), "apply",
                                 "a legal action was refused with %s",
                                 err_name(rc));
    apply_acts(c, c->work, m, acts);
    if (memcmp(c->work, c->st, c->ss))
        return conformance__fail(c, __builtin_ctz(m), "clone",
                                 "the same action applied to a memcpy clone "
                                 "gives different bytes");
    c->step++;
    c->shash[c->step] = conformance__hash(HASH_START, c->st, c->ss);
    return 0;
}

static int play_pass(struct conformance_ctx *c)
{
    int rc;
    c->phase = CONFORMANCE_PLAY;
    c->step = 0;
    memset(c->st, 0, c->ss);
    if ((rc = game_init(c->g, c->st, c->seed, NULL, 0)))
        return conformance__fail(c, -1, "init", "returned %s", err_name(rc));
    if (!c->cap && (rc = grow_records(c)))
        return rc;
    c->shash[0] = conformance__hash(HASH_START, c->st, c->ss);
    for (;;) {
        /* Drawn from the seed, not c->rng, so that the actions do not
         * depend on which steps are checked; not periodic, so that a
         * game with a fixed cycle (a trick of four) is sampled evenly. */
        uint64_t h = rng_derive(c->seed, (uint64_t)c->step);
        c->heavy = c->full || h % HEAVY_EVERY == 0;
        c->heavy_seat = c->full ? -1 : (int)((h >> 32) % (uint64_t)c->np);
        if ((rc = check_point(c)))
            return rc;
        if (!conformance__to_move(c, c->st))
            return 0;
        if (c->step >= c->m->max_length)
            return conformance__fail(c, -1, "bound",
                                     "not over after max_length = %d steps",
                                     c->m->max_length);
        if ((rc = play_step(c)))
            return rc;
    }
}

/* ---- determinize: leaks, resampling, playouts -------------------------- */

/* Plays the determinized state q (step t) to the end, checking legal sets,
 * applies, the bound and the final returns. */
static int playout(struct conformance_ctx *c, void *q, long t, int seat)
{
    int acts[GAME_MAX_PLAYERS], rc = 0;
    long saved = c->step;
    enum conformance_phase ph = c->phase;
    c->phase = CONFORMANCE_PLAYOUT;
    c->det_seat = seat;
    c->det_step = t;
    for (c->step = t; !rc; c->step++) {
        uint32_t m = conformance__to_move(c, q);
        if (!m) {
            rc = conformance__check_returns(c, q, true);
            break;
        }
        if (c->step >= c->m->max_length)
            rc = conformance__fail(c, -1, "bound",
                                   "not over after max_length = %d steps",
                                   c->m->max_length);
        if (!rc)
            rc = conformance__check_obs(c, q, __builtin_ctz(m), c->obs2);
        if (!rc)
            rc = choose(c, q, m, acts);
        if (!rc && (rc = apply_acts(c, q, m, acts)))
            rc = conformance__fail(c, __builtin_ctz(m), "apply",
                                   "a legal action was refused with %s",
                                   err_name(rc));
    }
    c->rep.playouts++;
    c->rep.playout_steps += c->step - t;
    c->step = saved;
    c->phase = ph;
    return rc;
}

/* The first view key whose value differs between sb and sb2. */
static const char *view_diff(struct conformance_ctx *c)
{
    msgpack_unpacked a, b;
    size_t oa = 0, ob = 0;
    const char *key = "(map layout)";
    msgpack_unpacked_init(&a);
    msgpack_unpacked_init(&b);
    if (msgpack_unpack_next(&a, c->sb.data, c->sb.size, &oa) > 0 &&
        msgpack_unpack_next(&b, c->sb2.data, c->sb2.size, &ob) > 0 &&
        a.data.type == MSGPACK_OBJECT_MAP &&
        b.data.type == MSGPACK_OBJECT_MAP &&
        a.data.via.map.size == b.data.via.map.size) {
        for (uint32_t i = 0; i < a.data.via.map.size; i++)
            if (!msgpack_object_equal(a.data.via.map.ptr[i].val,
                                      b.data.via.map.ptr[i].val)) {
                key = conformance__view_key(c, (int)i);
                break;
            }
    }
    msgpack_unpacked_destroy(&a);
    msgpack_unpacked_destroy(&b);
    return key;
}

/* The seat's tensor (c->obs), view (c->sb), legal set (c->legal2, n0)
 * and names (c->names) in p must be unchanged in the determinized q. */
static int compare_seat(struct conformance_ctx *c, const void *q, int seat,
                        int k, int n0)
{
    int n, rc, size = c->m->obs_size;
    if ((rc = conformance__check_obs(c, q, seat, c->obs2)))
        return rc;
    for (int i = 0; i < size; i++)
        if (memcmp(&c->obs[i], &c->obs2[i], sizeof(float)))
            return conformance__fail(
                c, seat, "leak",
                "determinization %d changes the seat's tensor at index %d "
                "(segment '%s'): %g, then %g",
                k, i, conformance__segment_of(c, i), (double)c->obs[i],
                (double)c->obs2[i]);
    if ((rc = conformance__check_view(c, q, seat, &c->sb2)))
        return rc;
    if (c->sb.size != c->sb2.size ||
        memcmp(c->sb.data, c->sb2.data, c->sb.size))
        return conformance__fail(c, seat, "leak",
                                 "determinization %d changes the seat's view "
                                 "at key '%s'",
                                 k, view_diff(c));
    if ((rc = conformance__check_legal(c, q, seat, n0 > 0, c->legal, &n)))
        return rc;
    if (n != n0 || memcmp(c->legal, c->legal2, sizeof(int) * (size_t)n))
        return conformance__fail(c, seat, "leak",
                                 "determinization %d changes the legal set", k);
    for (int i = 0; i < n; i++) {
        char nm[GAME_NAME_MAX];
        game_action_name(c->g, q, c->legal[i], nm, sizeof nm);
        if (strcmp(nm, c->names[i]))
            return conformance__fail(c, seat, "leak",
                                     "determinization %d renames action %d "
                                     "from '%s' to '%s'",
                                     k, c->legal[i], c->names[i], nm);
    }
    return 0;
}

/* True when q differs from p in what some other seat sees, or in the
 * full description (p's is in c->text2); also checks the other seats'
 * tensors in q. */
static int others_differ(struct conformance_ctx *c, const void *p,
                         const void *q, int seat, bool *differ)
{
    int rc, size = c->m->obs_size;
    for (int t = 0; t < c->np && !*differ; t++) {
        if (t == seat)
            continue;
        if ((rc = conformance__check_obs(c, q, t, c->obs2)))
            return rc;
        c->g->def->observe(c->g, p, t, c->obs3);
        *differ = memcmp(c->obs2, c->obs3, sizeof(float) * (size_t)size);
    }
    if (*differ)
        return 0;
    if ((rc = conformance__check_describe(c, q, -1)))
        return rc;
    *differ = strcmp(c->text, c->text2) != 0;
    return 0;
}

/* Records the seat's view of p: tensor, view, legal set and names. */
static int reference(struct conformance_ctx *c, const void *p, int seat,
                     bool acting, int *n0)
{
    int rc = conformance__check_obs(c, p, seat, c->obs);
    if (!rc)
        rc = conformance__check_view(c, p, seat, &c->sb);
    if (!rc)
        rc = conformance__check_legal(c, p, seat, acting, c->legal2, n0);
    for (int i = 0; i < *n0 && !rc; i++)
        game_action_name(c->g, p, c->legal2[i], c->names[i], GAME_NAME_MAX);
    return rc;
}

static int determinize_once(struct conformance_ctx *c, const void *p, long t,
                            int seat, int k)
{
    struct rng r, r2;
    rng_seed(&r, rng_derive(c->seed ^ 0x5eedull,
                            (uint64_t)(t * 1000 + seat * 50 + k)));
    r2 = r;
    memcpy(c->work, p, c->ss);
    c->g->def->determinize(c->g, c->work, seat, &r);
    c->rep.determinized++;
    if (k)
        return 0;
    memcpy(c->twin, p, c->ss);
    c->g->def->determinize(c->g, c->twin, seat, &r2);
    if (memcmp(c->work, c->twin, c->ss))
        return conformance__fail(c, seat, "determinize",
                                 "two calls with equal rngs give different "
                                 "states");
    return 0;
}

/* Determinizes p (step t) for seat several times; see the file comment. */
static int leak_seat(struct conformance_ctx *c, const void *p, long t, int seat,
                     bool play)
{
    uint32_t m = conformance__to_move(c, p);
    unsigned flags = c->g->def->flags;
    bool hidden = m && (flags & GAME_HIDDEN_INFO);
    bool changed = false, seen = !hidden; /* others' views: hidden only */
    int n0 = 0, rc = reference(c, p, seat, (m >> seat) & 1, &n0);
    if (hidden)
        c->g->def->describe(c->g, p, -1, c->text2, DESCRIBE_MAX);
    for (int k = 0; k < DETERMINIZE_TIMES && !rc; k++) {
        if ((rc = determinize_once(c, p, t, seat, k)))
            break;
        if ((rc = compare_seat(c, c->work, seat, k, n0)))
            break;
        changed = changed || memcmp(c->work, p, c->ss);
        if (!seen)
            rc = others_differ(c, p, c->work, seat, &seen);
        if (!rc && k == 0 && play)
            rc = playout(c, c->work, t, seat);
    }
    c->rep.leak_checks++;
    if (!m || !(flags & (GAME_HIDDEN_INFO | GAME_CHANCE)))
        return rc;
    c->rep.det_points++;
    c->rep.det_unchanged += !changed;
    if (hidden) {
        c->rep.hid_points++;
        c->rep.hid_unchanged += !seen;
    }
    return rc;
}

/* ---- second pass: replay, determinism, leaks --------------------------- */

static uint64_t tensors_hash(struct conformance_ctx *c, const void *st)
{
    uint64_t h = HASH_START;
    for (int s = 0; s < c->np; s++) {
        c->g->def->observe(c->g, st, s, c->obs2);
        h = conformance__hash(h, c->obs2,
                              sizeof(float) * (size_t)c->m->obs_size);
    }
    return h;
}

/* At a leak point: the tensors must match the first pass, and every seat
 * is determinized; if play, one seat's determinized state is played out. */
static int leak_point(struct conformance_ctx *c, long t, bool play)
{
    int rc = 0, player = (int)rng_below(&c->rng, (uint32_t)c->np);
    player = play ? player : -1;
    if (tensors_hash(c, c->alt) != c->ohash[t])
        return conformance__fail(c, -1, "determinism",
                                 "tensors differ on replay");
    for (int s = 0; s < c->np && !rc; s++)
        rc = leak_seat(c, c->alt, t, s, s == player);
    return rc;
}

/* The two passes' final states, tensors and views must be identical. */
static int compare_finals(struct conformance_ctx *c)
{
    if (memcmp(c->st, c->alt, c->ss))
        return conformance__fail(c, -1, "determinism",
                                 "final states differ on replay");
    for (int s = 0; s < c->np; s++) {
        c->g->def->observe(c->g, c->st, s, c->obs);
        c->g->def->observe(c->g, c->alt, s, c->obs2);
        if (memcmp(c->obs, c->obs2, sizeof(float) * (size_t)c->m->obs_size))
            return conformance__fail(c, s, "determinism",
                                     "final tensors differ");
        int rc = conformance__check_view(c, c->st, s, &c->sb);
        if (!rc)
            rc = conformance__check_view(c, c->alt, s, &c->sb2);
        if (rc)
            return rc;
        if (c->sb.size != c->sb2.size ||
            memcmp(c->sb.data, c->sb2.data, c->sb.size))
            return conformance__fail(c, s, "determinism", "final views differ");
    }
    return 0;
}

/* Picks LEAK_POINTS steps in [0, len], ascending (repeats allowed). */
static void pick_points(struct conformance_ctx *c, long len, long *pts)
{
    for (int i = 0; i < LEAK_POINTS; i++)
        pts[i] = (long)rng_below(&c->rng, (uint32_t)len + 1);
    for (int i = 1; i < LEAK_POINTS; i++)
        for (int j = i; j > 0 && pts[j] < pts[j - 1]; j--) {
            long x = pts[j];
            pts[j] = pts[j - 1];
            pts[j - 1] = x;
        }
}

static int replay_pass(struct conformance_ctx *c, long len)
{
    long pts[LEAK_POINTS];
    int rc, next = 0;
    int play = (int)rng_below(&c->rng, LEAK_POINTS); /* one playout a game */
    c->phase = CONFORMANCE_REPLAY;
    c->step = 0;
    pick_points(c, len, pts);
    memset(c->alt, 0xa5, c->ss);
    game_init(c->g, c->alt, c->seed, NULL, 0);
    if (conformance__hash(HASH_START, c->alt, c->ss) != c->shash[0])
        return conformance__fail(
            c, -1, "determinism",
            "init from the same seed into a buffer holding other bytes gives "
            "another state (init must set every byte, padding included)");
    for (; c->step <= len; c->step++) {
        for (; next < LEAK_POINTS && pts[next] == c->step; next++)
            if ((rc = leak_point(c, c->step, next == play)))
                return rc;
        if (c->step == len)
            break;
        uint32_t m = conformance__to_move(c, c->alt);
        if ((rc = apply_acts(c, c->alt, m, c->acts + c->step * c->np)))
            return conformance__fail(c, -1, "determinism",
                                     "recorded action refused on replay (%s)",
                                     err_name(rc));
        if (conformance__hash(HASH_START, c->alt, c->ss) !=
            c->shash[c->step + 1])
            return conformance__fail(
                c, -1, "determinism",
                "replaying the same seed and actions gives another state "
                "after this step");
    }
    return compare_finals(c);
}

/* ---- API --------------------------------------------------------------- */

static int ctx_init(struct conformance_ctx *c, const struct game *g, char *err,
                    size_t errlen)
{
    size_t nobs = (size_t)g->dims.obs_size + GUARD;
    size_t nleg =
        (size_t)(g->dims.num_actions > g->dims.max_legal ? g->dims.num_actions
                                                         : g->dims.max_legal) +
        GUARD;
    memset(c, 0, sizeof *c);
    c->g = g;
    c->m = &g->dims;
    c->ss = g->def->state_size;
    c->np = g->dims.players;
    c->err = err;
    c->errlen = errlen;
    unsigned char *states = mem_alloc(c->ss * 5);
    c->obs = mem_alloc(sizeof(float) * nobs * 3);
    c->legal = mem_alloc(sizeof(int) * nleg * 2);
    c->bits = mem_alloc(8 * (size_t)(g->dims.num_actions + 63) / 64);
    c->names = mem_alloc(GAME_NAME_MAX * (size_t)g->dims.max_legal);
    c->sorted = mem_alloc(sizeof(char *) * (size_t)g->dims.max_legal);
    c->text = mem_alloc(2 * DESCRIBE_MAX);
    msgpack_sbuffer_init(&c->sb);
    msgpack_sbuffer_init(&c->sb2);
    c->st = states;
    if (!states || !c->obs || !c->legal || !c->bits || !c->names ||
        !c->sorted || !c->text)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    c->snap = states + c->ss;
    c->work = states + 2 * c->ss;
    c->alt = states + 3 * c->ss;
    c->twin = states + 4 * c->ss;
    c->obs2 = c->obs + nobs;
    c->obs3 = c->obs + 2 * nobs;
    c->legal2 = c->legal + nleg;
    c->text2 = c->text + DESCRIBE_MAX;
    return 0;
}

static void ctx_fini(struct conformance_ctx *c)
{
    mem_free(c->st);
    mem_free(c->obs);
    mem_free(c->legal);
    mem_free(c->bits);
    mem_free(c->names);
    mem_free(c->sorted);
    mem_free(c->text);
    mem_free(c->acts);
    mem_free(c->shash);
    mem_free(c->ohash);
    msgpack_sbuffer_destroy(&c->sb);
    msgpack_sbuffer_destroy(&c->sb2);
}

static void report_add(struct conformance_report *to,
                       const struct conformance_report *r)
{
    to->games += r->games;
    to->steps += r->steps;
    to->longest = r->longest > to->longest ? r->longest : to->longest;
    to->names += r->names;
    to->views += r->views;
    to->leak_checks += r->leak_checks;
    to->determinized += r->determinized;
    to->det_points += r->det_points;
    to->det_unchanged += r->det_unchanged;
    to->hid_points += r->hid_points;
    to->hid_unchanged += r->hid_unchanged;
    to->playouts += r->playouts;
    to->playout_steps += r->playout_steps;
}

static int play_one(struct conformance_ctx *c, uint64_t game_seed, bool full)
{
    c->seed = game_seed;
    c->full = full;
    rng_seed(&c->rng, rng_derive(game_seed, 1));
    int rc = play_pass(c);
    long len = c->step;
    if (!rc)
        rc = replay_pass(c, len);
    c->rep.games++;
    c->rep.steps += len;
    c->rep.longest = len > c->rep.longest ? len : c->rep.longest;
    return rc;
}

/* Determinize must really resample: judged over a whole run. */
static int check_proportions(struct conformance_ctx *c)
{
    const struct conformance_report *r = &c->rep;
    if (r->det_points >= MIN_POINTS &&
        r->det_unchanged > MAX_UNCHANGED * (double)r->det_points)
        return err_set(c->err, c->errlen, ERR_INVAL,
                       "%s: determinize: left the state unchanged at %ld of "
                       "%ld non-terminal points (more than %.0f%%)",
                       c->g->spec, r->det_unchanged, r->det_points,
                       100 * MAX_UNCHANGED);
    if (r->hid_points >= MIN_POINTS &&
        r->hid_unchanged > MAX_UNSEEN * (double)r->hid_points)
        return err_set(c->err, c->errlen, ERR_INVAL,
                       "%s: determinize: changed nothing another seat sees at "
                       "%ld of %ld non-terminal points (more than %.0f%%)",
                       c->g->spec, r->hid_unchanged, r->hid_points,
                       100 * MAX_UNSEEN);
    return 0;
}

int conformance_run(const struct game *g, int games, uint64_t seed,
                    struct conformance_report *rep, char *err, size_t errlen)
{
    struct conformance_ctx c;
    int rc = conformance__check_static(g, err, errlen);
    if (rc)
        return rc;
    rc = ctx_init(&c, g, err, errlen);
    for (int i = 0; i < games && !rc; i++)
        rc = play_one(&c, rng_derive(seed, (uint64_t)i), i < FULL_GAMES);
    if (!rc)
        rc = check_proportions(&c);
    report_add(rep, &c.rep);
    ctx_fini(&c);
    return rc;
}

int conformance_run_spec(const char *spec, int games, uint64_t seed,
                         struct conformance_report *rep, char *err,
                         size_t errlen)
{
    struct game g;
    int rc = game_make(&g, spec, err, errlen);
    return rc ? rc : conformance_run(&g, games, seed, rep, err, errlen);
}

int conformance_play(const struct game *g, uint64_t game_seed,
                     struct conformance_report *rep, char *err, size_t errlen)
{
    struct conformance_ctx c;
    int rc = conformance__check_static(g, err, errlen);
    if (rc)
        return rc;
    rc = ctx_init(&c, g, err, errlen);
    if (!rc)
        rc = play_one(&c, game_seed, true);
    report_add(rep, &c.rep);
    ctx_fini(&c);
    return rc;
}
