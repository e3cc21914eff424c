/* random_agent.c — an example agent in C: plays episodes of a game on a
 * parlor env server, choosing uniformly among the legal actions, against
 * the server's built-in opponents, and prints what it scored.
 *
 *   parlor serve &
 *   build/examples/random_agent [ENDPOINT] [SPEC] [EPISODES]
 *
 * Defaults: tcp://127.0.0.1:5555, "thirty_one(players=2)", 10 episodes,
 * seat 0 against "random". Everything it needs is in protocol/client.h;
 * the legal mask is a bitset, one bit per action id.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/rng.h"
#include "protocol/client.h"

/* Picks one legal action of the mask row uniformly; -1 if none. */
static int pick(struct rng *r, const uint8_t *row, int num_actions)
{
    int legal = 0, chosen = -1;
    for (int a = 0; a < num_actions; a++) {
        /* Reservoir sampling: the k-th legal action replaces the choice
         * with probability 1/k, leaving each one chosen 1/legal. */
        if (client_is_legal(row, a) && rng_below(r, (uint32_t)++legal) == 0)
            chosen = a;
    }
    return chosen;
}

/* Plays one episode from seed; adds the learner's return to *total. */
static int episode(client_env_t *e, uint64_t seed, struct rng *r, double *total)
{
    const struct client_shape *s = client_env_shape(e);
    const struct client_batch *b = client_env_batch(e);
    int rc = client_reset(e, seed);
    while (!rc && !b->terminated[0] && !b->truncated[0]) {
        int a = pick(r, b->legal, s->num_actions);
        rc = a < 0 ? -1 : client_step(e, a);
    }
    if (!rc)
        *total += b->returns[s->learner];
    return rc;
}

int main(int argc, char **argv)
{
    const char *endpoint = argc > 1 ? argv[1] : "tcp://127.0.0.1:5555";
    const char *spec = argc > 2 ? argv[2] : "thirty_one(players=2)";
    int episodes = argc > 3 ? atoi(argv[3]) : 10;
    char err[256];
    client_t *c = client_new(endpoint, NULL, err, sizeof err);
    if (!c) {
        fprintf(stderr, "random_agent: %s\n", err);
        return 1;
    }
    client_set_timeout(c, 10000);
    struct client_make_options o = {.opponents = "random", .seat = 0};
    client_env_t *e = NULL;
    int rc = client_hello(c, "random_agent");
    if (!rc && !(e = client_make(c, spec, &o)))
        rc = -1;
    struct rng r;
    rng_seed(&r, 42);
    double total = 0;
    for (int i = 0; !rc && i < episodes; i++)
        rc = episode(e, (uint64_t)i + 1, &r, &total);
    if (rc)
        fprintf(stderr, "random_agent: %s\n", client_errmsg(c));
    else
        printf("%s: %d episodes, mean return %.3f for seat 0\n",
               client_env_shape(e)->spec, episodes,
               episodes ? total / episodes : 0.0);
    client_close(&e);
    client_destroy(&c);
    return rc ? 1 : 0;
}
