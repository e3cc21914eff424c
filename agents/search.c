/* search.c — playouts and the clock shared by the search agents.
 *
 * Random playouts draw straight from the caller's generator and apply the
 * legal actions they listed without a second check; a rollout agent's
 * choices go through game_apply, since another agent may err.
 */
#include "search.h"

#include <string.h>
#include <time.h>

#include "../common/err.h"
#include "../common/mem.h"

const char *const search_rollout_choices[] = {
#define AGENT(id) #id,
#include "agents.def"
#undef AGENT
    NULL,
};

const char *const search_horizon_choices[] = {"deal", "game", NULL};

int search_playout_init(struct search_playout *p, const struct game *g,
                        int rollout, int depth, int horizon, char *err,
                        size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->depth = depth;
    p->horizon = horizon;
    p->legal = mem_alloc(sizeof(int) * (size_t)g->dims.max_legal);
    p->joint = mem_alloc(sizeof(int) * (size_t)g->dims.players);
    if (!p->legal || !p->joint) {
        search_playout_fini(p);
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    }
    const char *name = search_rollout_choices[rollout];
    if (!strcmp(name, "random"))
        return 0;
    p->rollout = agent_new(name, g, err, errlen);
    if (!p->rollout) {
        search_playout_fini(p);
        return ERR_INVAL;
    }
    return 0;
}

int search_check_limits(const char *agent, int rollout, int horizon,
                        double time_ms, const struct agent_limits *lim,
                        char *err, size_t errlen)
{
    if (horizon == SEARCH_HORIZON_GAME && lim->game && lim->game->def->deals)
        return err_set(err, errlen, ERR_RANGE,
                       "%s: horizon=game is refused here: %s is played "
                       "over several deals and every playout would run to "
                       "its end (horizon=deal only)%s%s",
                       agent, lim->game->spec, lim->hint ? " " : "",
                       lim->hint ? lim->hint : "");
    if (rollout != 0)
        return err_set(err, errlen, ERR_RANGE,
                       "%s: rollout=%s is refused here: a search agent's "
                       "playouts multiply a move's work (rollout=random "
                       "only)",
                       agent, search_rollout_choices[rollout]);
    if (time_ms > lim->max_time_ms)
        return agent_limit_fail(agent, "time_ms", time_ms, lim->max_time_ms,
                                lim, err, errlen);
    return 0;
}

void search_playout_fini(struct search_playout *p)
{
    agent_destroy(&p->rollout);
    mem_free(p->legal);
    mem_free(p->joint);
    p->legal = p->joint = NULL;
}

void search_playout_reseed(struct search_playout *p, uint64_t seed)
{
    if (p->rollout)
        agent_reseed(p->rollout, seed);
}

/* The policy's action for seat s in st. */
static int policy_action(struct search_playout *p, const struct game *g,
                         const void *st, struct rng *rng, int s, int *action)
{
    if (p->rollout)
        return agent_act(p->rollout, st, s, action);
    int n = g->def->legal(g, st, s, p->legal);
    if (n <= 0)
        return ERR_STATE;
    *action = p->legal[rng_below(rng, (uint32_t)n)];
    return 0;
}

/* One step from st, whose acting seats are m (non-zero). */
static int step_movers(struct search_playout *p, const struct game *g, void *st,
                       struct rng *rng, uint32_t m, int seat, int action)
{
    bool checked = p->rollout || seat >= 0;
    if (seat >= 0 && !((m >> seat) & 1))
        return ERR_STATE;
    for (uint32_t r = m; r; r &= r - 1) {
        int s = __builtin_ctz(r);
        if (s == seat) {
            p->joint[s] = action;
            continue;
        }
        int rc = policy_action(p, g, st, rng, s, &p->joint[s]);
        if (rc)
            return rc;
    }
    int first = __builtin_ctz(m);
    if (!(m & (m - 1)))
        return checked ? game_apply(g, st, first, p->joint[first])
                       : g->def->apply(g, st, p->joint[first]);
    return checked ? game_apply_joint(g, st, p->joint)
                   : g->def->apply_joint(g, st, p->joint);
}

int search_playout_step(struct search_playout *p, const struct game *g,
                        void *st, struct rng *rng, int seat, int action)
{
    uint32_t m = g->def->to_move(g, st);
    if (!m)
        return ERR_STATE;
    return step_movers(p, g, st, rng, m, seat, action);
}

/* True when st lies past the searched deal (never for horizon=game or a
 * game without the deals op, whose count stays 1). */
static bool past_horizon(const struct search_playout *p, const struct game *g,
                         const void *st, int deal)
{
    return p->horizon == SEARCH_HORIZON_DEAL && g->def->deals &&
           g->def->deals(g, st) != deal;
}

int search_playout_run(struct search_playout *p, const struct game *g, void *st,
                       struct rng *rng, int deal, double *ret)
{
    /* max_length bounds a whole episode, so it also bounds what is left;
     * it only guards against a game that never ends. */
    int limit = p->depth > 0 ? p->depth : g->dims.max_length;
    for (int i = 0; i < limit && !past_horizon(p, g, st, deal); i++) {
        uint32_t m = g->def->to_move(g, st);
        if (!m)
            break;
        int rc = step_movers(p, g, st, rng, m, -1, 0);
        if (rc)
            return rc;
    }
    game_estimate(g, st, ret);
    return 0;
}

double search_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
