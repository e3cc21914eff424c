/* search.h — what the search agents (pimc.c, ismcts.c) share: the playout
 * policy that plays a determinized state on to its horizon, and the clock
 * of the opt-in time budgets.
 *
 * The horizon is the end of the game, or (horizon=deal, the default) the
 * end of the deal being searched, where game_deals rises: a game of many
 * deals (Trix Exchange: thousands of moves) is then searched one deal at a
 * time, and a game of one deal is searched to its end either way. A
 * playout stopped short of the end is scored by game_estimate: the
 * returns so far, or for a game scored only at its end (a race to a
 * target), each side's lead in points as a fraction of the target.
 *
 * A playout is uniform random from the searcher's own generator, or any
 * registered agent (its default options) acting for every seat. The state
 * is a determinization, so the game's own RNG, reseeded by determinize,
 * supplies the chance events. Nothing here allocates after init.
 */
#ifndef PARLOR_SEARCH_H
#define PARLOR_SEARCH_H

#include <stdint.h>

#include "agent.h"

/* Choices of the "rollout" option: every registered agent, in agents.def
 * order, NULL-ended. Index 0 is "random" (the first line of agents.def),
 * which playouts run inline. */
extern const char *const search_rollout_choices[];

/* Choices of the "horizon" option, NULL-ended, in enum search_horizon
 * order. */
extern const char *const search_horizon_choices[];

enum search_horizon {
    SEARCH_HORIZON_DEAL, /* stop where the searched deal ends */
    SEARCH_HORIZON_GAME, /* play on to the end of the game */
};

/* The doc line of the horizon option, shared by both agents. */
#define SEARCH_HORIZON_DOC                                                     \
    "where playouts stop: the end of the deal being searched (a one-deal "     \
    "game: its end), scored by the lead in points or the returns so "          \
    "far, or the end of the game"

struct search_playout {
    agent_t *rollout; /* agent playing every seat, owned; NULL: random */
    int depth;        /* moves before the state is scored by its estimate;
                         0: to the horizon */
    int horizon;      /* enum search_horizon */
    int *legal;       /* dims.max_legal entries, owned */
    int *joint;       /* dims.players entries, owned */
};

/* Prepares p for game g: rollout indexes search_rollout_choices, depth and
 * horizon as in the struct. Returns 0 or ERR_NOMEM / the rollout agent's
 * code, with a message. */
int search_playout_init(struct search_playout *p, const struct game *g,
                        int rollout, int depth, int horizon, char *err,
                        size_t errlen);

/* Frees what p owns (safe on a zeroed p). */
void search_playout_fini(struct search_playout *p);

/* Restarts the rollout agent's randomness (random playouts draw from the
 * caller's generator instead). */
void search_playout_reseed(struct search_playout *p, uint64_t seed);

/* Advances st by one step: seat plays action (seat -1: nobody is fixed)
 * and every other acting seat follows the policy. Returns 0, or
 * ERR_ILLEGAL_ACTION / ERR_STATE when action or the rollout agent's choice
 * is refused (st is then untouched). */
int search_playout_step(struct search_playout *p, const struct game *g,
                        void *st, struct rng *rng, int seat, int action);

/* Plays st on to the horizon, or p->depth steps if fewer, and writes
 * every seat's game_estimate (players entries) to ret. deal is the
 * game_deals count of the deal searched (the state the search began
 * from): with horizon=deal the playout stops as soon as the count differs,
 * at once if st is already past that deal. Returns 0 or a code from
 * search_playout_step. */
int search_playout_run(struct search_playout *p, const struct game *g, void *st,
                       struct rng *rng, int deal, double *ret);

/* The bounds both search agents share (check_limits): playouts by random
 * (index 0) only, since a search rollout multiplies a move's work;
 * time_ms within lim; and in a game of several deals (lim->game has the
 * deals op) horizon=deal, so that no playout runs on for the rest of the
 * game. Returns 0 or ERR_RANGE with a message. */
int search_check_limits(const char *agent, int rollout, int horizon,
                        double time_ms, const struct agent_limits *lim,
                        char *err, size_t errlen);

/* Milliseconds on a monotonic clock, for time budgets only. */
double search_clock_ms(void);

#endif
