/* conformance_static.c — the conformance suite's part that needs no play:
 * which option sets to cover, making a game from an unregistered def, and
 * the checks on a configured game's facts (dims, option table, tensor
 * layout, view keys, canonical spec). The random-play checks live in
 * conformance.c.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "conformance_int.h"

/* ---- making games and listing option sets ------------------------------ */

int conformance_game_make(struct game *g, const struct game_def *def,
                          const char *spec, char *err, size_t errlen)
{
    char name[SPEC_NAME_MAX], sub[512];
    const char *args;
    size_t args_len;
    memset(g, 0, sizeof *g);
    g->def = def;
    int rc = spec_split(spec, name, &args, &args_len, err, errlen);
    if (rc)
        return rc;
    rc = params_parse(def->params, def->nparams, args, args_len, &g->params,
                      sub, sizeof sub);
    if (!rc)
        rc = def->configure(&g->params, &g->dims, sub, sizeof sub);
    if (rc)
        return err_set(err, errlen, rc, "%s: %s", def->name, sub);
    return params_format(def->name, def->params, def->nparams, &g->params,
                         g->spec, sizeof g->spec);
}

/* Adds spec to c unless its canonical form is already there. A variant
 * that configure refuses is recorded as rejected; any other failure (a
 * test spec that does not configure, a full list) is an error. */
static int combos_add(struct conformance_combos *c, const struct game_def *d,
                      const char *spec, enum conformance_kind kind, char *err,
                      size_t errlen)
{
    struct game g, seen;
    char why[CONFORMANCE_REASON_MAX];
    int rc = conformance_game_make(&g, d, spec, why, sizeof why);
    if (rc && kind == CONFORMANCE_VARIANT && rc == ERR_INVAL &&
        c->nrejected < CONFORMANCE_MAX_COMBOS) {
        struct conformance_rejected *r = &c->rejected[c->nrejected++];
        snprintf(r->spec, sizeof r->spec, "%s", spec);
        snprintf(r->reason, sizeof r->reason, "%s", why);
        return 0;
    }
    if (rc)
        return err_set(err, errlen, ERR_INVAL,
                       "%s: option set '%s' does not configure: %s", d->name,
                       spec, why);
    for (int i = 0; i < c->n; i++) {
        conformance_game_make(&seen, d, c->combo[i].spec, NULL, 0);
        if (!strcmp(seen.spec, g.spec))
            return 0;
    }
    if (c->n == CONFORMANCE_MAX_COMBOS)
        return err_set(err, errlen, ERR_INVAL,
                       "%s: more than %d option sets to cover", d->name,
                       CONFORMANCE_MAX_COMBOS);
    snprintf(c->combo[c->n].spec, GAME_SPEC_MAX, "%s", spec);
    c->combo[c->n++].kind = kind;
    return 0;
}

/* Adds the variant "name(option=v)"; v is written exactly, so a real
 * bound survives the round trip through text. */
static int add_value(struct conformance_combos *c, const struct game_def *d,
                     int i, double v, char *err, size_t errlen)
{
    const struct param_def *p = &d->params[i];
    char val[64], spec[GAME_SPEC_MAX];
    if (v == p->def)
        return 0;
    if (p->type == PARAM_FLOAT)
        snprintf(val, sizeof val, "%.17g", v);
    else
        params_value_str(p, v, val, sizeof val);
    snprintf(spec, sizeof spec, "%s(%s=%s)", d->name, p->name, val);
    return combos_add(c, d, spec, CONFORMANCE_VARIANT, err, errlen);
}

/* Adds the variants of option i moved alone off its default. */
static int add_option(struct conformance_combos *c, const struct game_def *d,
                      int i, char *err, size_t errlen)
{
    const struct param_def *p = &d->params[i];
    int rc = 0;
    switch (p->type) {
    case PARAM_BOOL:
        return add_value(c, d, i, p->def != 0 ? 0 : 1, err, errlen);
    case PARAM_ENUM:
        for (int k = 0; p->choices[k] && !rc; k++)
            rc = add_value(c, d, i, k, err, errlen);
        return rc;
    case PARAM_INT:
    case PARAM_FLOAT:
        break;
    }
    /* A small player range is worth covering at every value; any other
     * number is covered at its two bounds. */
    if (!strcmp(p->name, "players") && p->type == PARAM_INT &&
        p->max - p->min < 10) {
        for (double v = p->min; v <= p->max && !rc; v++)
            rc = add_value(c, d, i, v, err, errlen);
        return rc;
    }
    rc = add_value(c, d, i, p->min, err, errlen);
    return rc ? rc : add_value(c, d, i, p->max, err, errlen);
}

struct conformance_combos *conformance_combos_new(const struct game_def *def,
                                                  char *err, size_t errlen)
{
    struct conformance_combos *c = mem_alloc(sizeof *c);
    if (!c) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    int rc = combos_add(c, def, def->name, CONFORMANCE_DEFAULT, err, errlen);
    for (int i = 0; i < def->nparams && !rc; i++)
        rc = add_option(c, def, i, err, errlen);
    for (int i = 0; def->test_specs && def->test_specs[i] && !rc; i++)
        rc = combos_add(c, def, def->test_specs[i], CONFORMANCE_TEST_SPEC, err,
                        errlen);
    if (rc)
        conformance_combos_destroy(&c);
    return c;
}

void conformance_combos_destroy(struct conformance_combos **c)
{
    if (!c)
        return;
    mem_free(*c);
    *c = NULL;
}

/* ---- static checks ----------------------------------------------------- */

static int check_param(const struct game_def *d, int i, char *err,
                       size_t errlen)
{
    const struct param_def *p = &d->params[i];
    int nchoices = 0;
    if (!p->name || !*p->name || !p->doc || !*p->doc)
        return err_set(err, errlen, ERR_INVAL,
                       "%s: option %d has no name or no doc", d->name, i);
    for (int j = 0; j < i; j++)
        if (!strcmp(d->params[j].name, p->name))
            return err_set(err, errlen, ERR_INVAL,
                           "%s: option '%s' declared twice", d->name, p->name);
    if (p->type == PARAM_ENUM)
        while (p->choices && p->choices[nchoices])
            nchoices++;
    bool ok = true;
    if (p->type == PARAM_BOOL)
        ok = p->def == 0 || p->def == 1;
    else if (p->type == PARAM_ENUM)
        ok = nchoices > 0 && p->def >= 0 && p->def < nchoices &&
             p->def == floor(p->def);
    else
        ok = p->min <= p->def && p->def <= p->max &&
             (p->type == PARAM_FLOAT || p->def == floor(p->def));
    if (!ok)
        return err_set(err, errlen, ERR_INVAL,
                       "%s: option '%s': default not allowed", d->name,
                       p->name);
    return 0;
}

static int check_dims(const struct game *g, char *err, size_t errlen)
{
    const struct game_dims *m = &g->dims;
    bool used[GAME_MAX_PLAYERS] = {false};
    const char *bad = NULL;
    if (m->players < 1 || m->players > GAME_MAX_PLAYERS)
        bad = "players outside 1..GAME_MAX_PLAYERS";
    else if (m->teams < 1 || m->teams > m->players)
        bad = "teams outside 1..players";
    else if (m->num_actions < 1 || m->max_legal < 1 ||
             m->max_legal > m->num_actions)
        bad = "num_actions < 1 or max_legal outside 1..num_actions";
    else if (m->obs_size < 1 || !isfinite(m->obs_low) ||
             !isfinite(m->obs_high) || m->obs_low > m->obs_high)
        bad = "obs_size < 1 or obs_low..obs_high not a finite range";
    else if (m->max_length < 1)
        bad = "max_length < 1";
    else if (!isfinite(m->ret_low) || !isfinite(m->ret_high) ||
             m->ret_low > m->ret_high)
        bad = "ret_low..ret_high not a finite range";
    else if ((g->def->flags & GAME_ZERO_SUM) &&
             (m->ret_low > 0 || m->ret_high < 0))
        bad = "zero-sum but 0 is outside ret_low..ret_high";
    for (int s = 0; !bad && s < m->players; s++) {
        if (m->team[s] < 0 || m->team[s] >= m->teams)
            bad = "a seat's team is outside 0..teams-1";
        else
            used[m->team[s]] = true;
    }
    for (int t = 0; !bad && t < m->teams; t++)
        if (!used[t])
            bad = "a team has no seat";
    if (!bad && m->teams < m->players && !(g->def->flags & GAME_PARTNERSHIPS))
        bad = "teams < players but GAME_PARTNERSHIPS is not set";
    if (bad)
        return err_set(err, errlen, ERR_INVAL, "%s: dims: %s", g->spec, bad);
    return 0;
}

static int cmp_segment(const void *a, const void *b)
{
    const struct obs_segment *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* The layout's segments, in offset order, must tile [0, obs_size). */
static int check_layout(const struct game *g, char *err, size_t errlen)
{
    struct obs_segment seg[GAME_OBS_SEGMENTS];
    int n = g->def->obs_layout(g, seg, GAME_OBS_SEGMENTS);
    if (n < 1 || n > GAME_OBS_SEGMENTS)
        return err_set(err, errlen, ERR_INVAL,
                       "%s: obs_layout returned %d segments", g->spec, n);
    qsort(seg, (size_t)n, sizeof seg[0], cmp_segment);
    int end = 0;
    for (int i = 0; i < n; i++) {
        if (!seg[i].name || !*seg[i].name || !seg[i].doc)
            return err_set(err, errlen, ERR_INVAL,
                           "%s: obs_layout segment at %d has no name or doc",
                           g->spec, seg[i].offset);
        if (seg[i].offset != end || seg[i].size < 1)
            return err_set(err, errlen, ERR_INVAL,
                           "%s: obs_layout segment '%s' is at %d+%d, expected "
                           "to start at %d (gap or overlap)",
                           g->spec, seg[i].name, seg[i].offset, seg[i].size,
                           end);
        end = seg[i].offset + seg[i].size;
    }
    if (end != g->dims.obs_size)
        return err_set(err, errlen, ERR_INVAL,
                       "%s: obs_layout covers [0, %d), obs_size is %d", g->spec,
                       end, g->dims.obs_size);
    return 0;
}

static int check_view_keys(const struct game *g, char *err, size_t errlen)
{
    const char *const *k = g->def->view_keys;
    for (int i = 0; k[i]; i++) {
        bool dup = !*k[i];
        for (int j = 0; j < i; j++)
            dup = dup || !strcmp(k[i], k[j]);
        for (int j = 0; game_view_common_keys[j]; j++)
            dup = dup || !strcmp(k[i], game_view_common_keys[j]);
        if (dup)
            return err_set(err, errlen, ERR_INVAL,
                           "%s: view key '%s' is empty, repeated or common",
                           g->spec, k[i]);
    }
    return 0;
}

/* The canonical spec must make the same game again (results logs name
 * games by it). */
static int check_canonical(const struct game *g, char *err, size_t errlen)
{
    struct game again;
    char why[256];
    if (conformance_game_make(&again, g->def, g->spec, why, sizeof why))
        return err_set(err, errlen, ERR_INVAL,
                       "canonical spec '%s' does not make a game: %s", g->spec,
                       why);
    if (memcmp(&again.dims, &g->dims, sizeof g->dims) ||
        strcmp(again.spec, g->spec))
        return err_set(err, errlen, ERR_INVAL,
                       "canonical spec '%s' makes a different game", g->spec);
    return 0;
}

int conformance__check_static(const struct game *g, char *err, size_t errlen)
{
    const struct game_def *d = g->def;
    if (!d->source || !*d->source)
        return err_set(err, errlen, ERR_INVAL, "%s: def->source is empty",
                       d->name);
    for (int i = 0; i < d->nparams; i++) {
        int rc = check_param(d, i, err, errlen);
        if (rc)
            return rc;
    }
    int rc = check_dims(g, err, errlen);
    if (!rc)
        rc = check_layout(g, err, errlen);
    if (!rc)
        rc = check_view_keys(g, err, errlen);
    if (!rc)
        rc = check_canonical(g, err, errlen);
    return rc;
}
