/* plot.h — the tables behind the tournament plots, as TSV with a header
 * row (the gnuplot scripts in plots/ read them; no drawing happens in C).
 *
 * ratings.tsv   rank agent elo lo hi games score forfeits, best first
 * progress.tsv  deals, then per agent (best first) three columns: its
 *               rating, interval low, interval high; one row per
 *               checkpoint (every tenth of the deals)
 *               (NaN where the deals so far do not fix the ratings)
 * h2h.tsv       row col agent opponent score games: row's share of the
 *               points against col, rows and columns by rank
 * Agent names lose any tab or line break (they become spaces).
 */
#ifndef PARLOR_PLOT_H
#define PARLOR_PLOT_H

#include <stddef.h>

#include "rate.h"

#define PLOT_CHECKPOINTS 10 /* rating refits along the deals */

/* Writes ratings.tsv's table of t to path. Returns 0 or ERR_IO. */
int plot_write_ratings(const char *path, const struct results *r,
                       const struct ratings *t, char *err, size_t errlen);

/* Writes the head-to-head table of t to path. Returns 0 or ERR_IO. */
int plot_write_h2h(const char *path, const struct results *r,
                   const struct ratings *t, char *err, size_t errlen);

/* Refits the ratings after every tenth of r's deals (fewer checkpoints
 * when there are fewer deals) and writes progress.tsv's table to path,
 * agents in final's order; widens span (see plot_span) by every finite
 * value of the table. Returns 0, rate_compute's code or ERR_IO. */
int plot_write_progress(const char *path, const struct results *r,
                        const struct ratings *final, const struct rate_opts *o,
                        double span[2], char *err, size_t errlen);

/* Widens span ({lo, hi}; start with {INFINITY, -INFINITY}) by the finite
 * ratings and interval ends of t (unbounded ends are left out). */
void plot_span(const struct ratings *t, double span[2]);

/* The axis range to draw span on: at least 100 Elo wide (equal ratings
 * have no range of their own), with room for labels; {-50, 50} for an
 * empty span. */
void plot_axis(const double span[2], double axis[2]);

/* How many agents share the top rating of t (to the table's 0.01 Elo). */
int plot_top_ties(const struct ratings *t);

#endif
