/* rate.c — the Bradley–Terry fit, the deal bootstrap and LOS; see rate.h. */
#include "rate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"

#define MM_ITER_MAX 200000 /* iterations before giving up on more digits */
#define MM_TOL 1e-11       /* largest change of a log-strength at the end */

/* ---- the fit ----------------------------------------------------------- */

/* Points i took from j, the prior's half-games included. */
static double pts(int n, const double *score, const double *games, double prior,
                  int i, int j)
{
    return score[i * n + j] + (games[i * n + j] > 0 ? prior / 2 : 0);
}

/* True when every agent can be reached from agent 0 along "scored
 * against" edges (reverse: against the edges). */
static bool reaches_all(int n, const double *score, const double *games,
                        double prior, bool reverse)
{
    bool seen[ROSTER_MAX] = {true};
    int stack[ROSTER_MAX], top = 0, count = 1;
    stack[top++] = 0;
    while (top) {
        int i = stack[--top];
        for (int j = 0; j < n; j++) {
            double p = reverse ? pts(n, score, games, prior, j, i)
                               : pts(n, score, games, prior, i, j);
            if (p > 0 && !seen[j]) {
                seen[j] = true;
                stack[top++] = j;
                count++;
            }
        }
    }
    return count == n;
}

/* Cyclic MM updates of the log-strengths x until they settle; the mean
 * of x is kept at 0. */
static void mm(int n, const double *w, const double *nn, double *x)
{
    double g[ROSTER_MAX];
    for (int i = 0; i < n; i++)
        g[i] = exp(x[i]);
    for (int it = 0; it < MM_ITER_MAX; it++) {
        double delta = 0, mean = 0;
        for (int i = 0; i < n; i++) {
            double d = 0;
            for (int j = 0; j < n; j++)
                d += j != i && nn[i * n + j] > 0 ? nn[i * n + j] / (g[i] + g[j])
                                                 : 0;
            double x1 = log(w[i] / d);
            delta = fmax(delta, fabs(x1 - x[i]));
            x[i] = x1;
            g[i] = exp(x1);
        }
        for (int i = 0; i < n; i++)
            mean += x[i] / n;
        for (int i = 0; i < n; i++) {
            x[i] -= mean;
            g[i] = exp(x[i]);
        }
        if (delta < MM_TOL)
            return;
    }
}

int rate_fit(int n, const double *score, const double *games, double prior,
             const double *start, double *elo, char *err, size_t errlen)
{
    double w[ROSTER_MAX], x[ROSTER_MAX];
    double *nn = mem_alloc(sizeof *nn * (size_t)n * (size_t)n);
    if (!nn)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    if (!reaches_all(n, score, games, prior, false) ||
        !reaches_all(n, score, games, prior, true)) {
        mem_free(nn);
        return err_set(err, errlen, ERR_INVAL,
                       prior > 0 ? "some agents never met the others, "
                                   "directly or through others"
                                 : "some agents never met, never lost or "
                                   "never won against the others: their "
                                   "ratings are infinite without a prior");
    }
    for (int i = 0; i < n; i++) {
        w[i] = 0;
        x[i] = start ? start[i] / RATE_ELO_PER_LOGIT : 0;
        for (int j = 0; j < n; j++) {
            double gij = games[i * n + j];
            nn[i * n + j] = gij > 0 ? gij + prior : 0;
            w[i] += j != i ? pts(n, score, games, prior, i, j) : 0;
        }
    }
    mm(n, w, nn, x);
    for (int i = 0; i < n; i++)
        elo[i] = x[i] * RATE_ELO_PER_LOGIT;
    mem_free(nn);
    return 0;
}

/* ---- intervals ----------------------------------------------------------- */

static void anchor(int n, int a, double *elo)
{
    double shift = 0;
    for (int i = 0; i < n; i++)
        shift += a < 0 ? elo[i] / n : 0;
    shift = a < 0 ? shift : elo[a];
    for (int i = 0; i < n; i++)
        elo[i] -= shift;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The q-quantile of sorted v[0..m-1], interpolating between neighbours. */
static double quantile(const double *v, int m, double q)
{
    double pos = q * (m - 1);
    int k = (int)floor(pos);
    return k + 1 < m ? v[k] + (pos - k) * (v[k + 1] - v[k]) : v[m - 1];
}

/* Refits on one resample of the deals into elo (anchored). */
static int resample(const struct results *res, int64_t nd,
                    const struct rate_opts *o, struct rng *rng,
                    const double *start, double *buf, double *elo)
{
    int n = res->n;
    double *score = buf, *games = buf + n * n;
    memset(buf, 0, sizeof *buf * 2 * (size_t)n * (size_t)n);
    for (int64_t k = 0; k < nd; k++)
        results_add_deal(res, (int64_t)(rng_unit(rng) * (double)nd), score,
                         games);
    int rc = rate_fit(n, score, games, o->prior, start, elo, NULL, 0);
    if (!rc)
        anchor(n, o->anchor, elo);
    return rc;
}

/* Bootstrap: intervals and LOS into out (elo already there). */
static int bootstrap(const struct results *res, int64_t nd,
                     const struct rate_opts *o, const double *start,
                     struct ratings *out)
{
    int n = res->n, b = o->bootstrap, ok = 0;
    double *buf = mem_alloc(sizeof *buf * 2 * (size_t)n * (size_t)n);
    double *all = mem_alloc(sizeof *all * (size_t)n * (size_t)b);
    double elo[ROSTER_MAX];
    struct rng rng;
    if (!buf || !all)
        return mem_free(buf), mem_free(all), ERR_NOMEM;
    rng_seed(&rng, o->seed);
    for (int r = 0; r < b; r++) {
        if (resample(res, nd, o, &rng, start, buf, elo))
            continue;
        for (int i = 0; i < n; i++) {
            all[(size_t)i * (size_t)b + (size_t)ok] = elo[i];
            for (int j = 0; j < n; j++)
                out->los[i * n + j] += elo[i] > elo[j]    ? 1
                                       : elo[i] == elo[j] ? 0.5
                                                          : 0;
        }
        ok++;
    }
    out->resamples = ok;
    out->failed = b - ok;
    for (int i = 0; i < n * n; i++)
        out->los[i] = ok ? out->los[i] / ok : 0.5;
    for (int i = 0; i < n && ok; i++) {
        double *v = all + (size_t)i * (size_t)b;
        qsort(v, (size_t)ok, sizeof *v, cmp_double);
        out->lo[i] = quantile(v, ok, (1 - o->level) / 2);
        out->hi[i] = quantile(v, ok, 1 - (1 - o->level) / 2);
    }
    mem_free(buf);
    mem_free(all);
    return 0;
}

/* ---- API --------------------------------------------------------------- */

static void sort_order(struct ratings *out)
{
    for (int i = 0; i < out->n; i++)
        out->order[i] = i;
    for (int i = 1; i < out->n; i++)
        for (int k = i; k > 0; k--) {
            int a = out->order[k - 1], b = out->order[k];
            if (out->elo[a] >= out->elo[b])
                break;
            out->order[k - 1] = b;
            out->order[k] = a;
        }
}

int rate_default_anchor(const struct results *res)
{
    int a = roster_find(&res->h.roster, "random");
    for (int i = 0; i < res->n && a < 0; i++)
        if (!strcmp(res->h.roster.a[i].spec, "random"))
            a = i;
    return a;
}

int rate_compute(const struct results *res, int64_t ndeals,
                 const struct rate_opts *o, struct ratings *out, char *err,
                 size_t errlen)
{
    int n = res->n;
    double start[ROSTER_MAX];
    memset(out, 0, sizeof *out);
    out->n = n;
    out->deals = ndeals < res->ndeals ? ndeals : res->ndeals;
    results_table(res, out->deals, out->score, out->games);
    int rc = rate_fit(n, out->score, out->games, o->prior, NULL, out->elo, err,
                      errlen);
    if (rc)
        return rc;
    memcpy(start, out->elo, sizeof start);
    anchor(n, o->anchor, out->elo);
    memcpy(out->lo, out->elo, sizeof out->lo);
    memcpy(out->hi, out->elo, sizeof out->hi);
    sort_order(out);
    if (o->bootstrap > 0 && bootstrap(res, out->deals, o, start, out))
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    return 0;
}
