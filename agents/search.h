/* search.h — what the search agents (pimc.c, ismcts.c) share: the playout
 * policy that plays a determinized state on to its end, and the clock of
 * the opt-in time budgets.
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

struct search_playout {
    agent_t *rollout; /* agent playing every seat, owned; NULL: random */
    int depth;        /* moves before the returns so far are scored; 0: to
                         the end */
    int *legal;       /* dims.max_legal entries, owned */
    int *joint;       /* dims.players entries, owned */
};

/* Prepares p for game g: rollout indexes search_rollout_choices, depth as
 * in the struct. Returns 0 or ERR_NOMEM / the rollout agent's code, with a
 * message. */
int search_playout_init(struct search_playout *p, const struct game *g,
                        int rollout, int depth, char *err, size_t errlen);

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

/* Plays st on to its end, or p->depth steps, and writes every seat's
 * returns (players entries) to ret. Returns 0 or a code from
 * search_playout_step. */
int search_playout_run(struct search_playout *p, const struct game *g, void *st,
                       struct rng *rng, double *ret);

/* The bounds both search agents share (check_limits): playouts by random
 * (index 0) only, since a search rollout multiplies a move's work, and
 * time_ms within lim. Returns 0 or ERR_RANGE with a message. */
int search_check_limits(const char *agent, int rollout, double time_ms,
                        const struct agent_limits *lim, char *err,
                        size_t errlen);

/* Milliseconds on a monotonic clock, for time budgets only. */
double search_clock_ms(void);

#endif
