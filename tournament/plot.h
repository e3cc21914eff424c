/* plot.h — the tables behind the tournament plots, as TSV with a header
 * row (the gnuplot scripts in plots/ read them; no drawing happens in C).
 *
 * ratings.tsv   rank agent elo lo hi games score, best first
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
 * agents in final's order. Returns 0, rate_compute's code or ERR_IO. */
int plot_write_progress(const char *path, const struct results *r,
                        const struct ratings *final, const struct rate_opts *o,
                        char *err, size_t errlen);

#endif
