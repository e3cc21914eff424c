/* rate.c — the Bradley–Terry fit, the deal bootstrap and LOS; see rate.h. */
#include "rate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"

#define NEWTON_MAX 1000 /* Newton steps before the fit gives up */
#define HALVINGS 60     /* step halvings a Newton step may take */
#define STEP_TOL 1e-11  /* Newton step (log-strength) that ends the fit */

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

/* log(1 / (1 + e^-t)), the log-probability of winning by t logits,
 * without overflow or loss of the small end. */
static double log_sigmoid(double t)
{
    return t >= 0 ? -log1p(exp(-t)) : t - log1p(exp(t));
}

/* 1 / (1 + e^-t) */
static double sigmoid(double t)
{
    return t >= 0 ? 1 / (1 + exp(-t)) : exp(t) / (1 + exp(t));
}

/* The log-likelihood of log-strengths x given the points matrix w (w_ij:
 * i's points against j, the prior's included). */
static double loglik(int n, const double *w, const double *x)
{
    double l = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            l += j != i && w[i * n + j] > 0
                     ? w[i * n + j] * log_sigmoid(x[i] - x[j])
                     : 0;
    return l;
}

/* The gradient into grad and the negated Hessian plus the all-ones matrix
 * over n (which fixes the free shift of x) into h. Each pair's gradient
 * term w_ij - N_ij p_ij is taken from its losing side's small numbers, so
 * it keeps its digits when one agent all but never loses. */
static void derivatives(int n, const double *w, const double *x, double *grad,
                        double *h)
{
    for (int i = 0; i < n; i++) {
        grad[i] = 0;
        h[i * n + i] = 1.0 / n;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double wij = w[i * n + j], wji = w[j * n + i], m = wij + wji;
            double q = sigmoid(x[j] - x[i]); /* P(j beats i) */
            grad[i] += q <= 0.5 ? wij - m * (1 - q) : m * q - wji;
            h[i * n + i] += m * q * (1 - q);
            h[i * n + j] = 1.0 / n - m * q * (1 - q);
        }
    }
}

/* Solves h d = g for symmetric positive definite h (Cholesky, in place).
 * Returns false when h is not positive definite. */
static bool solve(int n, double *h, const double *g, double *d)
{
    for (int j = 0; j < n; j++) {
        for (int k = 0; k < j; k++)
            for (int i = j; i < n; i++)
                h[i * n + j] -= h[i * n + k] * h[j * n + k];
        if (h[j * n + j] <= 0)
            return false;
        double r = sqrt(h[j * n + j]);
        for (int i = j; i < n; i++)
            h[i * n + j] /= r;
    }
    for (int i = 0; i < n; i++) {
        double v = g[i];
        for (int k = 0; k < i; k++)
            v -= h[i * n + k] * d[k];
        d[i] = v / h[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double v = d[i];
        for (int k = i + 1; k < n; k++)
            v -= h[k * n + i] * d[k];
        d[i] = v / h[i * n + i];
    }
    return true;
}

/* Newton's method with step halving on the concave log-likelihood, from
 * x, until a step moves no log-strength by STEP_TOL; the mean of x ends
 * at 0. Returns 0, or ERR_RANGE with a message when it does not settle
 * (results that pass reaches_all always do: this guards against a bug). */
static int newton(int n, const double *w, double *x, char *err, size_t errlen)
{
    double grad[ROSTER_MAX], d[ROSTER_MAX], y[ROSTER_MAX], big = INFINITY;
    double *h = mem_alloc(sizeof *h * (size_t)n * (size_t)n);
    if (!h)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    double l = loglik(n, w, x);
    int it;
    for (it = 0; it < NEWTON_MAX && big >= STEP_TOL; it++) {
        derivatives(n, w, x, grad, h);
        if (!solve(n, h, grad, d))
            break;
        double step = 1, l1 = l;
        for (int k = 0; k < HALVINGS; k++, step /= 2) {
            for (int i = 0; i < n; i++)
                y[i] = x[i] + step * d[i];
            if ((l1 = loglik(n, w, y)) >= l)
                break;
        }
        big = 0;
        for (int i = 0; i < n; i++)
            big = fmax(big, fabs(y[i] - x[i]));
        if (l1 < l)
            break; /* no step gains: the optimum, to rounding */
        memcpy(x, y, sizeof *x * (size_t)n);
        l = l1;
    }
    mem_free(h);
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += x[i] / n;
    for (int i = 0; i < n; i++)
        x[i] -= mean;
    if (big < STEP_TOL * 1e4)
        return 0;
    return err_set(err, errlen, ERR_RANGE,
                   "the rating fit did not settle after %d Newton steps "
                   "(last step %.3g); please report this journal",
                   it, big);
}

int rate_fit(int n, const double *score, const double *games, double prior,
             const double *start, double *elo, char *err, size_t errlen)
{
    double x[ROSTER_MAX];
    if (!reaches_all(n, score, games, prior, false) ||
        !reaches_all(n, score, games, prior, true))
        return err_set(err, errlen, ERR_INVAL,
                       prior > 0 ? "some agents never met the others, "
                                   "directly or through others"
                                 : "some agents never met, never lost or "
                                   "never won against the others: their "
                                   "ratings are infinite without a prior");
    double *w = mem_alloc(sizeof *w * (size_t)n * (size_t)n);
    if (!w)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        x[i] = start ? start[i] / RATE_ELO_PER_LOGIT : 0;
        for (int j = 0; j < n; j++)
            w[i * n + j] = j != i ? pts(n, score, games, prior, i, j) : 0;
    }
    int rc = newton(n, w, x, err, errlen);
    for (int i = 0; i < n; i++)
        elo[i] = x[i] * RATE_ELO_PER_LOGIT;
    mem_free(w);
    return rc;
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
    if (k + 1 >= m || v[k] == v[k + 1])
        return v[k < m ? k : m - 1];
    if (isinf(v[k]) || isinf(v[k + 1])) /* no interpolating to infinity */
        return pos - k < 0.5 ? v[k] : v[k + 1];
    return v[k] + (pos - k) * (v[k + 1] - v[k]);
}

/* Where a resample cannot be fitted (prior 0), rates what can be said:
 * an agent that scored against nobody it met is -inf, one that nobody
 * scored against is +inf, the rest unknown (NaN); then anchored, an
 * infinite anchor sends everyone not level with it to the other end. */
static void separated(int n, const double *score, const double *games,
                      double prior, int a, double *elo)
{
    for (int i = 0; i < n; i++) {
        bool won = false, lost = false;
        for (int j = 0; j < n; j++) {
            won |= j != i && pts(n, score, games, prior, i, j) > 0;
            lost |= j != i && pts(n, score, games, prior, j, i) > 0;
        }
        elo[i] = won == lost ? NAN : won ? INFINITY : -INFINITY;
    }
    double at = a < 0 ? NAN : elo[a];
    for (int i = 0; i < n && !isnan(at); i++)
        elo[i] = elo[i] == at ? NAN : -at;
    if (a >= 0 && !isnan(at))
        elo[a] = 0;
}

/* Refits on one resample of the deals into elo (anchored); returns false
 * when it could not be fitted (elo then as separated() says). */
static bool resample(const struct results *res, int64_t nd,
                     const struct rate_opts *o, struct rng *rng,
                     const double *start, double *buf, double *elo)
{
    int n = res->n;
    double *score = buf, *games = buf + n * n;
    memset(buf, 0, sizeof *buf * 2 * (size_t)n * (size_t)n);
    for (int64_t k = 0; k < nd; k++)
        results_add_deal(res, (int64_t)(rng_unit(rng) * (double)nd), score,
                         games);
    if (rate_fit(n, score, games, o->prior, start, elo, NULL, 0)) {
        separated(n, score, games, o->prior, o->anchor, elo);
        return false;
    }
    anchor(n, o->anchor, elo);
    return true;
}

/* Adds one resample's ratings to the LOS counts (pairs where both are
 * known; equal ratings, infinities included, count half). */
static void count_los(int n, const double *elo, double *los, double *pairs)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (isnan(elo[i]) || isnan(elo[j]))
                continue;
            los[i * n + j] += elo[i] > elo[j] ? 1 : elo[i] == elo[j] ? 0.5 : 0;
            pairs[i * n + j]++;
        }
}

/* One agent's interval from its m known resample values v (sorted here)
 * out of b: unbounded on both sides when it was unknown in more than the
 * interval's tail share of the resamples. */
static void interval(double *v, int m, int b, double level, double *lo,
                     double *hi)
{
    double tail = (1 - level) / 2;
    if (m == 0 || b - m > tail * b) {
        *lo = -INFINITY;
        *hi = INFINITY;
        return;
    }
    qsort(v, (size_t)m, sizeof *v, cmp_double);
    *lo = quantile(v, m, tail);
    *hi = quantile(v, m, 1 - tail);
}

/* Bootstrap: intervals and LOS into out (elo already there). */
static int bootstrap(const struct results *res, int64_t nd,
                     const struct rate_opts *o, const double *start,
                     struct ratings *out)
{
    int n = res->n, b = o->bootstrap, known[ROSTER_MAX] = {0};
    double *buf = mem_alloc(sizeof *buf * 3 * (size_t)n * (size_t)n);
    double *all = mem_alloc(sizeof *all * (size_t)n * (size_t)b);
    double elo[ROSTER_MAX], *pairs = buf + 2 * n * n;
    struct rng rng;
    if (!buf || !all)
        return mem_free(buf), mem_free(all), ERR_NOMEM;
    rng_seed(&rng, o->seed);
    memset(pairs, 0, sizeof *pairs * (size_t)n * (size_t)n);
    for (int r = 0; r < b; r++) {
        out->failed += !resample(res, nd, o, &rng, start, buf, elo);
        count_los(n, elo, out->los, pairs);
        for (int i = 0; i < n; i++)
            if (!isnan(elo[i]))
                all[(size_t)i * (size_t)b + (size_t)known[i]++] = elo[i];
    }
    out->resamples = b - out->failed;
    for (int i = 0; i < n * n; i++)
        out->los[i] = pairs[i] > 0 ? out->los[i] / pairs[i] : 0.5;
    for (int i = 0; i < n; i++) {
        interval(all + (size_t)i * (size_t)b, known[i], b, o->level,
                 &out->lo[i], &out->hi[i]);
        /* Resamples equal to the data refit to the estimate but for
         * rounding: keep lo <= elo <= hi then. */
        if (fabs(out->lo[i] - out->elo[i]) < 1e-6)
            out->lo[i] = fmin(out->lo[i], out->elo[i]);
        if (fabs(out->hi[i] - out->elo[i]) < 1e-6)
            out->hi[i] = fmax(out->hi[i], out->elo[i]);
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

int rate_notes(const struct results *res, const struct ratings *out,
               const struct rate_opts *o, char note[][RATE_NOTE_MAX])
{
    int k = 0;
    if (o->bootstrap > 0 && out->deals < RATE_FEW_DEALS)
        snprintf(note[k++], RATE_NOTE_MAX,
                 "only %lld deal%s: intervals from fewer than %d deals "
                 "cover the true rating less often than they claim (about "
                 "3 times in 4 at 3 deals); play more deals",
                 (long long)out->deals, out->deals == 1 ? "" : "s",
                 RATE_FEW_DEALS);
    if (out->failed > 0)
        snprintf(note[k++], RATE_NOTE_MAX,
                 o->prior > 0
                     ? "in %d of %d resamples some agents never met: their "
                       "ratings there are unknown, and an agent unknown in "
                       "too many has an unbounded interval"
                     : "in %d of %d resamples an agent never lost or never "
                       "won: without a prior its rating there is infinite, "
                       "so intervals can reach inf (--prior 1 keeps ratings "
                       "finite)",
                 out->failed, out->failed + out->resamples);
    if (res->forfeits > 0) {
        int len =
            snprintf(note[k], RATE_NOTE_MAX,
                     "%lld game%s ended by a forfeit (the forfeiting "
                     "side ranks last):",
                     (long long)res->forfeits, res->forfeits == 1 ? "" : "s");
        for (int i = 0; i < res->n && len < RATE_NOTE_MAX; i++)
            if (res->agent_forfeits[i] > 0)
                len += snprintf(note[k] + len, (size_t)(RATE_NOTE_MAX - len),
                                " %s %lld of %lld%s%.100s%s,",
                                res->h.roster.a[i].name,
                                (long long)res->agent_forfeits[i],
                                (long long)res->agent_games[i],
                                res->forfeit_reason[i][0] ? " (first: " : "",
                                res->forfeit_reason[i],
                                res->forfeit_reason[i][0] ? ")" : "");
        if (len < RATE_NOTE_MAX)
            note[k][len - 1] = '\0'; /* the last comma */
        k++;
    }
    return k;
}
