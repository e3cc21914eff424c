/* results.h — a tournament's journals turned into what ratings need:
 * pairwise results per deal, and per-agent totals.
 *
 * Journals of one tournament (shards, a resumed run, copies) merge: their
 * headers must agree, and a game found twice counts once. Every game yields
 * one pairwise result for each two sides held by different agents, from the
 * final standings: the better rank scores 1, the worse 0, equal ranks 0.5
 * each. Partners share their side's rank, so a partnership game gives one
 * result per pair of sides, not per pair of seats. A forfeiting side ranks
 * last (match.h).
 */
#ifndef PARLOR_RESULTS_H
#define PARLOR_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "idset.h"
#include "journal.h"

/* One deal's results between agents i < j. */
struct results_pair {
    int16_t i, j; /* agents, i < j */
    double score; /* i's points against j: 1 a win, 0.5 a draw */
    double games; /* pairwise results in the deal */
};

struct results {
    struct journal_header h;            /* the tournament */
    int n;                              /* agents (h.roster.n) */
    int64_t games;                      /* distinct games read */
    int64_t forfeits;                   /* of those, ended by a forfeit */
    int64_t duplicates;                 /* games read again, ignored */
    int journals;                       /* files read */
    int torn;                           /* of those, with a torn tail */
    int64_t ndeals;                     /* deals with results */
    int64_t *deal;                      /* their numbers, ascending */
    int64_t *start;                     /* ndeals + 1 offsets into pair */
    struct results_pair *pair;          /* by deal, then (i, j); deal,
                                         * start and pair are NULL when
                                         * gathered without deals */
    double *total;                      /* every deal's results summed:
                                         * n x n scores, then n x n games
                                         * (as results_table) */
    int64_t agent_games[ROSTER_MAX];    /* games each agent played */
    int64_t agent_forfeits[ROSTER_MAX]; /* games it forfeited */
    char forfeit_reason[ROSTER_MAX][MATCH_REASON_MAX]; /* why it forfeited
                                           * the first time it was the cause
                                           * (without "seat N: "); "" none */
    int64_t seats[ROSTER_MAX];          /* seats it held, all games */
    double ret_sum[ROSTER_MAX];         /* returns over those seats */
};

/* Gathers results game by game (what results_load does per record, for
 * a run that has its records in hand). Caller storage; the fields are
 * private. */
struct results_builder {
    struct results *r;      /* being filled */
    bool by_deal;           /* keeps each deal's results, not only totals */
    struct idset seen;      /* game indexes added */
    struct idset deal_seen; /* without deals: deals with a result */
    struct results_raw *raw; /* pairwise results, growing */
    int64_t nraw, cap;      /* used, allocated */
    int8_t first[GAME_MAX_PLAYERS]; /* side -> its first seat */
};

/* Starts r (zeroed by the caller) for the tournament of header h, with
 * each deal's results (by_deal, what ratings' error bars and plots need)
 * or only their totals (what a tournament's summary prints: memory that
 * does not grow with the games, and no sorting at the end, which took
 * 3 % of a two-million-game run). What the builder keeps grows with the
 * games added, never with the number h claims (a journal's header is
 * input). Returns 0, ERR_RANGE or ERR_NOMEM with a message. */
int results_begin(struct results_builder *b, struct results *r,
                  const struct journal_header *h, bool by_deal, char *err,
                  size_t errlen);

/* Adds one game of h's tournament (a game seen before counts once).
 * Returns 0 or ERR_NOMEM with a message. */
int results_add(struct results_builder *b, const struct journal_header *h,
                const struct journal_record *rec, char *err, size_t errlen);

/* Sums what was added into b's results and frees b's scratch (the results
 * stay, for results_fini). Returns 0 or ERR_NOMEM with a message. */
int results_end(struct results_builder *b, char *err, size_t errlen);

/* Frees b's scratch (safe on a zeroed or ended b). */
void results_builder_fini(struct results_builder *b);

/* Reads the journals at paths (a directory stands for its journal*.jsonl
 * files) into r, which the caller frees with results_fini. Returns 0, or
 * ERR_IO / ERR_SYNTAX / ERR_INVAL (another tournament, no journal) /
 * ERR_NOMEM with a message naming the file. */
int results_load(struct results *r, const char *const *paths, int npaths,
                 char *err, size_t errlen);

/* Frees what r owns (safe on a zeroed r). */
void results_fini(struct results *r);

/* Sums the first ndeals deals into n x n matrices: score[i*n+j] is i's
 * points against j, games[i*n+j] their pairwise results (symmetric).
 * Results gathered without deals have only their totals: ndeals must then
 * be r->ndeals or more. */
void results_table(const struct results *r, int64_t ndeals, double *score,
                   double *games);

/* Adds deal number k's (k-th in r->deal) results into score and games. */
void results_add_deal(const struct results *r, int64_t k, double *score,
                      double *games);

#endif
