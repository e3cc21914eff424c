/* random.c — the uniform random agent: every legal action equally likely,
 * from its own seeded generator, so tournaments replay exactly. */
#include <stdint.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"
#include "agent.h"

struct random_agent {
    struct rng rng; /* the agent's own stream */
    uint64_t seed;  /* the spec's seed, mixed into every reseed */
    int *buf;       /* legal-action buffer, dims.max_legal entries */
};

static const struct param_def random_params[] = {
    {"seed", PARAM_INT, 1, 0, 4294967295.0, NULL,
     "seed of the agent's random stream"},
};

static int random_create(const struct game *g, const struct param_values *p,
                         void **self, char *err, size_t errlen)
{
    /* The generator is written every move: on lines of its own, apart from
     * the other workers' agents. */
    struct random_agent *a = mem_alloc_lines(sizeof *a);
    int *buf = mem_alloc(sizeof(int) * (size_t)g->dims.max_legal);
    if (!a || !buf) {
        mem_free(a);
        mem_free(buf);
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    }
    a->seed = (uint64_t)p->v[0];
    a->buf = buf;
    rng_seed(&a->rng, a->seed);
    *self = a;
    return 0;
}

static int random_act(void *self, const struct game *g, const void *st,
                      int seat, int *action)
{
    struct random_agent *a = self;
    int n = g->def->legal(g, st, seat, a->buf);
    if (n <= 0)
        return ERR_STATE;
    *action = a->buf[rng_below(&a->rng, (uint32_t)n)];
    return 0;
}

static void random_reseed(void *self, uint64_t seed)
{
    struct random_agent *a = self;
    rng_seed(&a->rng, rng_derive(a->seed, seed));
}

static void random_destroy(void *self)
{
    struct random_agent *a = self;
    if (a)
        mem_free(a->buf);
    mem_free(a);
}

const struct agent_def random_agent = {
    .name = "random",
    .doc = "chooses uniformly among the legal actions",
    .api_version = AGENT_API_VERSION,
    .params = random_params,
    .nparams = 1,
    .create = random_create,
    .act = random_act,
    .reseed = random_reseed,
    .destroy = random_destroy,
};
