/* rate.h — Bradley–Terry ratings on the Elo scale, bootstrap intervals,
 * likelihood of superiority.
 *
 * Model: agent i beats j with probability g_i / (g_i + g_j); a draw is
 * half a win for each. The maximum-likelihood g solves
 * W_i = sum_j N_ij g_i / (g_i + g_j); the fit finds it by Newton's method
 * on the (concave) log-likelihood of log g, with step halving, until a
 * step moves no rating by 1e-9 Elo: a few steps even where the old MM
 * (Zermelo) iteration needed hundreds of thousands. Ratings are
 * 400 log10 g_i, so 400/ln 10 Elo per logit: a 3:1 score is 190.8 Elo.
 *
 * The prior: every pair of agents that met gets `prior` virtual drawn
 * games (default 1). Without it an agent that won every game would rate
 * infinitely high; with it ratings stay finite and an unbeaten agent's
 * upper bound just grows with its record. One virtual game weighs little
 * against the hundreds a pair usually plays.
 *
 * Intervals: the deals are resampled with replacement (each deal with all
 * of its line-ups and rotations, which share its luck), the model refitted,
 * and the 2.5 % and 97.5 % quantiles of each rating taken. LOS[i][j] is
 * the share of resamples in which i rates above j (ties count half).
 * With prior 0 a resample can leave an agent that never lost (or never
 * won): its rating there is +inf (-inf), not dropped, so an interval can
 * be unbounded. An agent whose rating is unknown in more than a tail's
 * share of the resamples gets (-inf, +inf).
 */
#ifndef PARLOR_RATE_H
#define PARLOR_RATE_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"

#define RATE_ELO_PER_LOGIT 173.71779276130073 /* 400 / ln 10 */

/* How to rate. */
struct rate_opts {
    int bootstrap; /* resamples; 0: no intervals, no LOS */
    double prior;  /* virtual drawn games per pair that met, >= 0 */
    int anchor;    /* agent rated 0; -1: ratings average 0 */
    uint64_t seed; /* the resampling's seed */
    double level;  /* interval coverage, e.g. 0.95 */
};

/* Ratings of n agents with their table. Matrices are n x n, row-major. */
struct ratings {
    int n;                                 /* agents */
    int64_t deals;                         /* deals rated */
    double elo[ROSTER_MAX];                /* ratings */
    double lo[ROSTER_MAX], hi[ROSTER_MAX]; /* interval (= elo if none) */
    int order[ROSTER_MAX];                 /* agents, best first */
    double score[ROSTER_MAX * ROSTER_MAX]; /* i's points against j */
    double games[ROSTER_MAX * ROSTER_MAX]; /* pairwise results i, j */
    double los[ROSTER_MAX * ROSTER_MAX];   /* P(i rates above j) */
    int resamples;                         /* fitted resamples */
    int failed; /* resamples not fittable (prior 0: an agent that never
                   lost or never won); they count with infinite ratings
                   for those agents, so intervals widen, not shrink */
};

/* Fits the model to n agents' score and games matrices (see struct
 * ratings) with prior virtual draws per pair that met, writing ratings
 * averaging 0 to elo. start (may be NULL) is a first guess in Elo.
 * Returns 0, or ERR_INVAL with a message when the results do not fix
 * every rating: agents that never met, directly or through others, or
 * (prior 0) an agent or group that never lost or never won. */
int rate_fit(int n, const double *score, const double *games, double prior,
             const double *start, double *elo, char *err, size_t errlen);

/* The default anchor of res: the agent named "random", else the first
 * whose spec is random; -1 when there is none (ratings then average 0). */
int rate_default_anchor(const struct results *res);

/* Rates the agents of res over its first ndeals deals: point ratings,
 * bootstrap intervals and LOS, crosstable, anchored as o says, into out.
 * Returns 0, or rate_fit's error, or ERR_NOMEM. */
int rate_compute(const struct results *res, int64_t ndeals,
                 const struct rate_opts *o, struct ratings *out, char *err,
                 size_t errlen);

#define RATE_NOTES 3      /* notes rate_notes writes at most */
#define RATE_NOTE_MAX 512 /* bytes of one note, NUL included */
#define RATE_FEW_DEALS 10 /* deals below which intervals under-cover */

/* Writes into note what a reader must know before trusting out (rated
 * from res as o says): too few deals for honest intervals, resamples
 * that could not be fitted, forfeits. Returns the number of notes. */
int rate_notes(const struct results *res, const struct ratings *out,
               const struct rate_opts *o, char note[][RATE_NOTE_MAX]);

#endif
