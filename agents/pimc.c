/* pimc.c — perfect-information Monte Carlo: sample what the seat cannot
 * see, score every legal action by playouts in each sampled world, and play
 * the best on average.
 *
 * Each determinization is scored with common random numbers: every action
 * is tried from the same sampled state (the game's RNG included) and its
 * j-th playout draws from the same stream, so actions are compared on the
 * same luck. A score is the acting seat's estimated return where the
 * playout stopped (its horizon, search.h), which is its side's (partners'
 * returns are equal). Buffers are allocated in create; a move allocates
 * nothing.
 */
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "agent.h"
#include "search.h"

enum {
    P_SAMPLES,
    P_PLAYOUTS,
    P_DEPTH,
    P_HORIZON,
    P_ROLLOUT,
    P_TIME_MS,
    P_SEED,
    NP
};

static const struct param_def pimc_params[NP] = {
    {"samples", PARAM_INT, 20, 1, 1e6, NULL,
     "determinizations sampled per move"},
    {"playouts", PARAM_INT, 4, 1, 1e5, NULL,
     "playouts per legal action and determinization"},
    {"depth", PARAM_INT, 0, 0, 1e6, NULL,
     "moves a playout runs before it is scored (by the returns so far, "
     "or the lead in points in a game scored at its end); 0: to the "
     "horizon"},
    {"horizon", PARAM_ENUM, SEARCH_HORIZON_DEAL, 0, 0, search_horizon_choices,
     SEARCH_HORIZON_DOC},
    {"rollout", PARAM_ENUM, 0, 0, 0, search_rollout_choices,
     "agent playing the playouts, with its default options"},
    {"time_ms", PARAM_INT, 0, 0, 3.6e6, NULL,
     "0: samples per move; else sample until this many milliseconds have "
     "passed (not reproducible)"},
    {"seed", PARAM_INT, 1, 0, 4294967295.0, NULL,
     "seed of the agent's random stream"},
};

struct pimc {
    struct rng rng;             /* the agent's own stream */
    uint64_t seed;              /* the spec's seed, mixed into every reseed */
    int samples;                /* determinizations per move */
    int playouts;               /* playouts per action and determinization */
    double time_ms;             /* time budget per move; 0: none */
    struct search_playout play; /* playout policy and its buffers */
    unsigned char *det;         /* the sampled world, state_size bytes */
    unsigned char *work;        /* one playout's state, state_size bytes */
    int *acts;                  /* the seat's legal actions, max_legal */
    double *sum;                /* summed returns per legal action */
    int *count;                 /* playouts scored per legal action */
    double *ret;                /* one playout's returns, players */
};

/* ==== static helpers =================================================== */

static void pimc_destroy(void *self)
{
    struct pimc *a = self;
    if (!a)
        return;
    search_playout_fini(&a->play);
    mem_free(a->det);
    mem_free(a->work);
    mem_free(a->acts);
    mem_free(a->sum);
    mem_free(a->count);
    mem_free(a->ret);
    mem_free(a);
}

static int alloc_buffers(struct pimc *a, const struct game *g)
{
    size_t nl = (size_t)g->dims.max_legal;
    a->det = mem_alloc(g->def->state_size);
    a->work = mem_alloc(g->def->state_size);
    a->acts = mem_alloc(sizeof(int) * nl);
    a->sum = mem_alloc(sizeof(double) * nl);
    a->count = mem_alloc(sizeof(int) * nl);
    a->ret = mem_alloc(sizeof(double) * (size_t)g->dims.players);
    if (!a->det || !a->work || !a->acts || !a->sum || !a->count || !a->ret)
        return ERR_NOMEM;
    return 0;
}

/* Plays action k from the sampled world with playout stream seed; the
 * horizon is that of deal, the sampled world's. */
static int score(struct pimc *a, const struct game *g, int seat, int k,
                 uint64_t seed, int deal)
{
    struct rng r;
    rng_seed(&r, seed);
    memcpy(a->work, a->det, g->def->state_size);
    int rc = search_playout_step(&a->play, g, a->work, &r, seat, a->acts[k]);
    if (!rc)
        rc = search_playout_run(&a->play, g, a->work, &r, deal, a->ret);
    if (rc)
        return rc;
    a->sum[k] += a->ret[seat];
    a->count[k]++;
    return 0;
}

/* Samples one world and scores each of the n actions in it. */
static int sample(struct pimc *a, const struct game *g, const void *st,
                  int seat, int n)
{
    memcpy(a->det, st, g->def->state_size);
    g->def->determinize(g, a->det, seat, &a->rng);
    uint64_t base = rng_next(&a->rng);
    int deal = game_deals(g, a->det);
    for (int j = 0; j < a->playouts; j++) {
        uint64_t seed = rng_derive(base, (uint64_t)j);
        for (int k = 0; k < n; k++) {
            int rc = score(a, g, seat, k, seed, deal);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* The best mean return among the n actions; ties go to the first. */
static int best_action(const struct pimc *a, int n)
{
    int best = 0;
    double best_mean = 0;
    for (int k = 0; k < n; k++) {
        if (!a->count[k])
            continue;
        double mean = a->sum[k] / a->count[k];
        if (!a->count[best] || mean > best_mean) {
            best = k;
            best_mean = mean;
        }
    }
    return a->acts[best];
}

/* ==== the agent ======================================================== */

static int pimc_create(const struct game *g, const struct param_values *p,
                       void **self, char *err, size_t errlen)
{
    struct pimc *a = mem_alloc(sizeof *a);
    if (!a)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    a->samples = (int)p->v[P_SAMPLES];
    a->playouts = (int)p->v[P_PLAYOUTS];
    a->time_ms = p->v[P_TIME_MS];
    a->seed = (uint64_t)p->v[P_SEED];
    rng_seed(&a->rng, a->seed);
    int rc = search_playout_init(&a->play, g, (int)p->v[P_ROLLOUT],
                                 (int)p->v[P_DEPTH], (int)p->v[P_HORIZON], err,
                                 errlen);
    if (!rc && alloc_buffers(a, g))
        rc = err_set(err, errlen, ERR_NOMEM, "out of memory");
    if (rc) {
        pimc_destroy(a);
        return rc;
    }
    *self = a;
    return 0;
}

static int pimc_act(void *self, const struct game *g, const void *st, int seat,
                    int *action)
{
    struct pimc *a = self;
    int n = g->def->legal(g, st, seat, a->acts);
    if (n <= 0)
        return ERR_STATE;
    if (n == 1) {
        *action = a->acts[0];
        return 0;
    }
    memset(a->sum, 0, sizeof(double) * (size_t)n);
    memset(a->count, 0, sizeof(int) * (size_t)n);
    double stop = a->time_ms > 0 ? search_clock_ms() + a->time_ms : 0;
    for (int i = 0; stop ? i == 0 || search_clock_ms() < stop : i < a->samples;
         i++) {
        int rc = sample(a, g, st, seat, n);
        if (rc)
            return rc;
    }
    *action = best_action(a, n);
    return 0;
}

static void pimc_reseed(void *self, uint64_t seed)
{
    struct pimc *a = self;
    rng_seed(&a->rng, rng_derive(a->seed, seed));
    search_playout_reseed(&a->play, seed);
}

static int pimc_check_limits(const struct param_values *p,
                             const struct agent_limits *lim, char *err,
                             size_t errlen)
{
    /* Every legal action gets its playouts in every sample. */
    double legal = lim->game ? lim->game->dims.max_legal : 1;
    double work = p->v[P_SAMPLES] * p->v[P_PLAYOUTS] * legal;
    if (work > lim->max_work)
        return agent_limit_fail("pimc",
                                lim->game ? "samples x playouts x the "
                                            "game's most legal actions"
                                          : "samples x playouts",
                                work, lim->max_work, lim, err, errlen);
    return search_check_limits("pimc", (int)p->v[P_ROLLOUT],
                               (int)p->v[P_HORIZON], p->v[P_TIME_MS], lim, err,
                               errlen);
}

const struct agent_def pimc_agent = {
    .name = "pimc",
    .doc = "perfect-information Monte Carlo: playouts in sampled worlds, "
           "best mean return",
    .api_version = AGENT_API_VERSION,
    .params = pimc_params,
    .nparams = NP,
    .create = pimc_create,
    .act = pimc_act,
    .reseed = pimc_reseed,
    .destroy = pimc_destroy,
    .check_limits = pimc_check_limits,
};
