/* random.h — what the tournament's move loop may do in a random agent's
 * place.
 *
 * A random agent's act lists the legal actions with the game's legal op
 * and draws one with rng_below from its own generator. The loop that plays
 * a tournament game may make that same choice itself, from the same
 * generator: the same move, without the call through act, which cost
 * about as much as the rest of a random agent's move (match.c).
 */
#ifndef PARLOR_RANDOM_H
#define PARLOR_RANDOM_H

#include "../common/rng.h"
#include "agent.h"

/* The generator agent a draws its choices from when a is a random agent:
 * its act(st, seat) is exactly n = legal(st, seat, list), ERR_STATE when
 * n <= 0, else list[rng_below(rng, n)]. NULL for any other agent. The
 * pointer lives as long as a; the agent's reseed restarts it. */
struct rng *random_agent_rng(agent_t *a);

#endif
