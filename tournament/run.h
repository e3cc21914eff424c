/* run.h — running a tournament (or one shard of it) into its journal.
 *
 * Worker threads take games from the schedule in index order (quick
 * games 16 indexes at a claim), skipping those of other shards and those
 * the journal already holds; each worker has its own game state and its
 * own agents (created on first use with agent_new, one instance per agent
 * and seat it holds in a game, created afresh after that agent forfeits).
 * A worker packs its finished games into its own buffer (plain copies)
 * and hands them over in batches (64 quick games, or 2 ms of them; a
 * slow game at once); the calling thread takes what every worker handed
 * over about every 50 ms
 * (sooner when one passes 1 MiB), formats the journal lines, gathers the
 * results, writes the lines with one fdatasync() and draws the progress
 * line. A game is done once its line is written: whatever a worker still
 * held when the process died is played again by --resume, and nothing is
 * played twice. A power cut may also lose what was written but not yet
 * flushed, the last ~50 ms of games.
 */
#ifndef PARLOR_RUN_H
#define PARLOR_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "journal.h"
#include "results.h"

#define RUN_JOBS_MAX 256 /* worker threads */
#define RUN_START_TRIES 3 /* plays of a game before an agent that never
                           * got going in this run stops it */

/* What to run. */
struct run_opts {
    const char *game;    /* game spec */
    const char *agents;  /* agent list (roster.h) */
    int64_t deals;       /* deals (seeds) */
    int max_lineups;     /* line-ups per deal before sampling */
    uint64_t seed;       /* master seed */
    int jobs;            /* worker threads, 1..RUN_JOBS_MAX */
    const char *out_dir; /* where the journal goes (created if missing) */
    bool resume;         /* finish an existing journal */
    int shard, nshards;  /* this shard, 1-based, of nshards (1/1: all) */
    FILE *progress;      /* progress line goes here; NULL: none */
    FILE *warnings;      /* an agent's first forfeit is reported here;
                          * NULL: stderr */
    const volatile sig_atomic_t *interrupt; /* once nonzero (a signal
                          * handler sets it), games in play are given up
                          * (resume plays them), finished ones written,
                          * and the run returns ERR_INTERRUPTED; NULL:
                          * never */
    const char *arena;   /* where bot:NAME agents connect; NULL: none */
    int bot_wait_ms;     /* their time to connect (0: ARENA_WAIT_MS) */
    const char *curve_secret; /* the arena's CURVE key pair; NULL: none */
    const char *allow_dir; /* bots' public keys (NAME.key); NULL: any key */
    struct results *results; /* if set, gets every game of the journal
                              * (those found there and those played) as
                              * results_load would read it, but summed:
                              * without each deal's results (results.h),
                              * which ratings read from the journal; the
                              * caller frees it with results_fini */
};

/* What a run did. */
struct run_stats {
    int64_t scheduled;              /* games of this shard */
    int64_t already;                /* in the journal before the run */
    int64_t played;                 /* played and written now */
    double seconds;                 /* wall time of the playing */
    bool torn;                      /* a torn last line was cut off */
    char journal[JOURNAL_PATH_MAX]; /* the journal's path */
};

/* Runs the tournament o describes until every game of its shard is in
 * the journal. Returns 0, ERR_INVAL / ERR_RANGE / ERR_NOTFOUND /
 * ERR_SYNTAX (bad game, agents, numbers: the caller's fault), ERR_STATE
 * (journal exists without resume, locked, a game misbehaved, or an agent
 * that never got going in this run failed to start RUN_START_TRIES times
 * in a row on one game: those tries are not recorded), ERR_INTERRUPTED
 * (o->interrupt), ERR_IO, ERR_NOMEM, with a message.
 *
 * An agent's first forfeit of the run is reported on o->warnings with
 * its reason; later ones are counted in the results. */
int run_tournament(const struct run_opts *o, struct run_stats *st, char *err,
                   size_t errlen);

/* The progress line's text (no line end) into buf: done of total games,
 * written of them in elapsed seconds by this run. Before any game of the
 * run is written, there is no rate to go by and the ETA says so. Returns
 * its length. (For run.c and its tests.) */
size_t run__progress_text(char *buf, size_t len, int64_t done, int64_t total,
                          int64_t written, double elapsed);

/* Creates dir and its missing parents. Returns 0, ERR_RANGE or ERR_IO
 * with a message. */
int run_make_dirs(const char *dir, char *err, size_t errlen);

/* Builds the journal header of the tournament of game g, roster r and
 * o's numbers (lineups per deal as scheduled). */
void run_header(struct journal_header *h, const struct game *g,
                const struct roster *r, const struct run_opts *o, int lineups);

#endif
