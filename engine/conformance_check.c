/* conformance_check.c — the conformance suite's checks of one state:
 * legal sets, tensors, returns, structured views, action names and
 * descriptions, each failing with a message that says where. The passes
 * that call them are in conformance.c.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "conformance_int.h"

#define SENTINEL_INT INT_MIN
#define SENTINEL_OBS (-7.25e30f)

static const char *const phase_name[] = {"play", "replay", "playout"};

int conformance__fail(struct conformance_ctx *c, int seat, const char *check,
                      const char *fmt, ...)
{
    char what[600], where[128] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (c->phase == CONFORMANCE_PLAYOUT)
        snprintf(where, sizeof where,
                 " (after determinizing for seat %d at step %ld)", c->det_seat,
                 c->det_step);
    return err_set(c->err, c->errlen, ERR_INVAL,
                   "%s, game seed 0x%016llx, %s step %ld, seat %d%s: %s: %s",
                   c->g->spec, (unsigned long long)c->seed,
                   phase_name[c->phase], c->step, seat, where, check, what);
}

/* A word-at-a-time multiplicative hash: states and tensors are hashed at
 * every step, so byte-wise FNV would dominate the run. */
uint64_t conformance__hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t w;
    for (; n >= 8; n -= 8, b += 8) {
        memcpy(&w, b, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    for (; n; n--)
        h = (h ^ *b++) * 0x100000001b3ull;
    return h;
}

/* The name of the tensor segment holding index i, for messages. */
const char *conformance__segment_of(const struct conformance_ctx *c, int i)
{
    struct obs_segment seg[GAME_OBS_SEGMENTS];
    int n = c->g->def->obs_layout(c->g, seg, GAME_OBS_SEGMENTS);
    for (int k = 0; k < n && k < GAME_OBS_SEGMENTS; k++)
        if (i >= seg[k].offset && i < seg[k].offset + seg[k].size)
            return seg[k].name;
    return "?";
}

/* ---- one state's checks ------------------------------------------------ */

/* Reads seat's legal set into out and checks it: for an acting seat
 * 1..max_legal ids, ascending, in range; for any other seat none. */
int conformance__check_legal(struct conformance_ctx *c, const void *st,
                             int seat, bool acting, int *out, int *n)
{
    int max = c->m->max_legal;
    for (int i = 0; i < GUARD; i++)
        out[max + i] = SENTINEL_INT;
    *n = c->g->def->legal(c->g, st, seat, out);
    if (*n > max || out[max] != SENTINEL_INT)
        return conformance__fail(
            c, seat, "legal", "%d actions written, max_legal is %d", *n, max);
    if (!acting && *n != 0)
        return conformance__fail(c, seat, "legal",
                                 "seat not to move has %d legal actions", *n);
    if (acting && *n < 1)
        return conformance__fail(c, seat, "legal",
                                 "seat is to move (game not over) but has no "
                                 "legal action");
    for (int i = 0; i < *n; i++) {
        if (out[i] < 0 || out[i] >= c->m->num_actions)
            return conformance__fail(c, seat, "legal",
                                     "action %d outside 0..%d", out[i],
                                     c->m->num_actions - 1);
        if (i && out[i] <= out[i - 1])
            return conformance__fail(c, seat, "legal",
                                     "ids not strictly ascending: %d after %d",
                                     out[i], out[i - 1]);
    }
    return 0;
}

/* Observes seat into out and checks every value is finite, in bounds,
 * and that nothing was written past obs_size. */
int conformance__check_obs(struct conformance_ctx *c, const void *st, int seat,
                           float *out)
{
    int size = c->m->obs_size;
    for (int i = 0; i < GUARD; i++)
        out[size + i] = SENTINEL_OBS;
    c->g->def->observe(c->g, st, seat, out);
    if (out[size] != SENTINEL_OBS)
        return conformance__fail(c, seat, "observe", "wrote past obs_size %d",
                                 size);
    for (int i = 0; i < size; i++)
        if (!isfinite(out[i]) || out[i] < c->m->obs_low ||
            out[i] > c->m->obs_high)
            return conformance__fail(
                c, seat, "observe",
                "value %g at %d (segment '%s') not finite or outside [%g, %g]",
                (double)out[i], i, conformance__segment_of(c, i),
                (double)c->m->obs_low, (double)c->m->obs_high);
    return 0;
}

int conformance__check_returns(struct conformance_ctx *c, const void *st,
                               bool terminal)
{
    double r[GAME_MAX_PLAYERS], sum = 0, big = 1;
    double lo = c->m->ret_low, hi = c->m->ret_high;
    double eps = 1e-9 * fmax(1, fmax(fabs(lo), fabs(hi)));
    c->g->def->returns(c->g, st, r);
    for (int s = 0; s < c->np; s++) {
        if (!isfinite(r[s]) || r[s] < lo - eps || r[s] > hi + eps)
            return conformance__fail(c, s, "returns",
                                     "%g is not finite or outside [%g, %g]",
                                     r[s], lo, hi);
        sum += r[s];
        big = fmax(big, fabs(r[s]));
    }
    if (!terminal)
        return 0;
    if ((c->g->def->flags & GAME_ZERO_SUM) && fabs(sum) > 1e-9 * big)
        return conformance__fail(
            c, -1, "returns", "zero-sum game's final returns sum to %g", sum);
    for (int s = 0; s < c->np; s++)
        for (int t = 0; t < s; t++)
            if (c->m->team[s] == c->m->team[t] &&
                fabs(r[s] - r[t]) > 1e-9 * big)
                return conformance__fail(c, s, "returns",
                                         "partner of seat %d but final return "
                                         "%g differs from %g",
                                         t, r[s], r[t]);
    return 0;
}

/* The key game_view must pack in position i. */
const char *conformance__view_key(const struct conformance_ctx *c, int i)
{
    int ncommon = 0;
    while (game_view_common_keys[ncommon])
        ncommon++;
    return i < ncommon ? game_view_common_keys[i]
                       : c->g->def->view_keys[i - ncommon];
}

static int check_view_map(struct conformance_ctx *c, const msgpack_object *o,
                          int seat)
{
    int nkeys = game_view_nkeys(c->g);
    if (o->type != MSGPACK_OBJECT_MAP || (int)o->via.map.size != nkeys)
        return conformance__fail(c, seat, "view",
                                 "not a map of %d keys (type %d)", nkeys,
                                 (int)o->type);
    for (int i = 0; i < nkeys; i++) {
        const msgpack_object *k = &o->via.map.ptr[i].key;
        const char *want = conformance__view_key(c, i);
        if (k->type != MSGPACK_OBJECT_STR || k->via.str.size != strlen(want) ||
            memcmp(k->via.str.ptr, want, k->via.str.size))
            return conformance__fail(
                c, seat, "view",
                "key %d is not '%s' (keys must be the common keys, then "
                "view_keys, in order)",
                i, want);
    }
    const msgpack_object *s = &o->via.map.ptr[1].val;
    if (s->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        s->via.u64 != (uint64_t)seat)
        return conformance__fail(c, seat, "view", "'seat' is not %d", seat);
    return 0;
}

/* Packs seat's view into sb and checks it is exactly one map with the
 * documented keys. */
int conformance__check_view(struct conformance_ctx *c, const void *st, int seat,
                            msgpack_sbuffer *sb)
{
    msgpack_packer pk;
    msgpack_unpacked u;
    size_t off = 0;
    msgpack_sbuffer_clear(sb);
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    int rc = game_view(c->g, st, seat, &pk);
    if (rc)
        return conformance__fail(c, seat, "view", "game_view returned %s",
                                 err_name(rc));
    msgpack_unpacked_init(&u);
    int ret = msgpack_unpack_next(&u, sb->data, sb->size, &off);
    if (ret != MSGPACK_UNPACK_SUCCESS || off != sb->size)
        rc = conformance__fail(c, seat, "view",
                               "not one complete msgpack object (unpack %d, "
                               "%zu of %zu bytes used)",
                               ret, off, sb->size);
    else
        rc = check_view_map(c, &u.data, seat);
    msgpack_unpacked_destroy(&u);
    c->rep.views++;
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names seat's legal actions into c->names; each must be non-empty, fit,
 * report its length, and differ from the others (found by sorting). */
static int name_all(struct conformance_ctx *c, const void *st, int seat,
                    const int *legal, int n)
{
    for (int i = 0; i < n; i++) {
        char *nm = c->names[i];
        memset(nm, 0x7f, GAME_NAME_MAX);
        int len = game_action_name(c->g, st, legal[i], nm, GAME_NAME_MAX);
        if (!memchr(nm, 0, GAME_NAME_MAX) || !*nm || len != (int)strlen(nm))
            return conformance__fail(c, seat, "names",
                                     "action %d: name empty, longer than %d "
                                     "or length %d misreported",
                                     legal[i], GAME_NAME_MAX - 1, len);
        c->sorted[i] = nm;
    }
    qsort(c->sorted, (size_t)n, sizeof c->sorted[0], cmp_names);
    for (int i = 1; i < n; i++)
        if (!strcmp(c->sorted[i - 1], c->sorted[i])) {
            int a = (int)((c->sorted[i - 1] - c->names[0]) / GAME_NAME_MAX);
            int b = (int)((c->sorted[i] - c->names[0]) / GAME_NAME_MAX);
            return conformance__fail(
                c, seat, "names", "actions %d and %d are both named '%s'",
                legal[a < b ? a : b], legal[a < b ? b : a], c->sorted[i]);
        }
    return 0;
}

/* Every name must parse back to its action; parsing is linear in the
 * legal set, so a long set is sampled outside fully checked games. */
int conformance__check_names(struct conformance_ctx *c, const void *st,
                             int seat, const int *legal, int n)
{
    char why[256];
    int rc = name_all(c, st, seat, legal, n);
    bool all = c->full || n <= PARSE_SAMPLE;
    uint64_t h = rng_derive(c->seed ^ 0xa11ull, (uint64_t)c->step);
    for (int k = 0; k < (all ? n : PARSE_SAMPLE) && !rc; k++) {
        int i = all ? k : (int)((h >> (k * 7)) % (uint64_t)n);
        int back =
            game_action_parse(c->g, st, seat, c->names[i], why, sizeof why);
        if (back != legal[i])
            rc = conformance__fail(c, seat, "names",
                                   "'%s' (action %d) parses back to %d",
                                   c->names[i], legal[i], back);
    }
    c->rep.names += n;
    return rc;
}

int conformance__check_describe(struct conformance_ctx *c, const void *st,
                                int seat)
{
    memset(c->text, 0x7f, DESCRIBE_MAX);
    int len = c->g->def->describe(c->g, st, seat, c->text, DESCRIBE_MAX);
    const char *nul = memchr(c->text, 0, DESCRIBE_MAX);
    if (!nul || nul == c->text)
        return conformance__fail(c, seat, "describe",
                                 "empty or not NUL-terminated in %d bytes",
                                 DESCRIBE_MAX);
    int got = (int)(nul - c->text);
    if (got < DESCRIBE_MAX - 1 && len != got)
        return conformance__fail(c, seat, "describe",
                                 "returned %d for %d characters", len, got);
    return 0;
}
