/* match.c — playing one tournament game, forfeits included.
 *
 * The loop relies on the agent contract (match.h): an action an agent
 * returns without error is legal. Only its range is checked here, which
 * keeps a broken agent from indexing past a game's tables; checking it
 * against the legal actions as well would call the game's legal() a second
 * time per move, which measured 25-60 % of a random game's whole cost.
 */
#include "match.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "schedule.h"

/* ---- static helpers ---------------------------------------------------- */

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The seats of seat's side (itself and its partners). */
static uint32_t side_seats(const struct game *g, int seat)
{
    uint32_t m = 0;
    for (int s = 0; s < g->dims.players; s++)
        if (g->dims.team[s] == g->dims.team[seat])
            m |= 1u << s;
    return m;
}

/* Records that seat forfeits, and why (the first reason is kept). */
static void forfeit(const struct game *g, struct match_result *r, int seat,
                    const char *why)
{
    if (!r->forfeit)
        snprintf(r->reason, sizeof r->reason, "seat %d: %s", seat, why);
    r->forfeit |= side_seats(g, seat);
}

/* Asks every seat in acting for its action into joint; an agent that
 * fails, or answers an action id the game does not have, forfeits. */
static void choose(struct match *m, agent_t *const *agent, uint32_t acting,
                   int *joint, struct match_result *r)
{
    char why[MATCH_REASON_MAX];
    for (; acting; acting &= acting - 1) {
        int seat = __builtin_ctz(acting);
        int rc = agent_act(agent[seat], m->st, seat, &joint[seat]);
        if (!rc && joint[seat] >= 0 && joint[seat] < m->g->dims.num_actions)
            continue;
        if (rc)
            snprintf(why, sizeof why, "%s (%s)", err_str(rc), err_name(rc));
        else
            snprintf(why, sizeof why, "action %d out of range (%s)",
                     joint[seat], err_name(ERR_ILLEGAL_ACTION));
        forfeit(m->g, r, seat, why);
    }
}

/* Scores the game and tells every seated agent how it ended. */
static void finish(struct match *m, agent_t *const *agent, uint32_t missing,
                   struct match_result *r, int64_t t0)
{
    m->g->def->returns(m->g, m->st, r->ret);
    match_rank(m->g, r);
    struct agent_outcome o = {r->ret, r->rank, r->forfeit, r->reason};
    for (int s = 0; s < m->g->dims.players; s++)
        if (!((missing >> s) & 1))
            agent_game_over(agent[s], m->st, s, &o);
    r->wall_us = now_us() - t0;
}

/* ---- API --------------------------------------------------------------- */

int match_init(struct match *m, const struct game *g)
{
    m->g = g;
    m->st = mem_alloc(g->def->state_size);
    return m->st ? 0 : ERR_NOMEM;
}

void match_fini(struct match *m)
{
    mem_free(m->st);
    m->st = NULL;
}

void match_rank(const struct game *g, struct match_result *r)
{
    int p = g->dims.players;
    for (int s = 0; s < p; s++) {
        bool out = (r->forfeit >> s) & 1;
        int ahead = 0;
        for (int t = 0; t < p; t++) {
            bool t_out = (r->forfeit >> t) & 1;
            ahead += out ? !t_out : (!t_out && r->ret[t] > r->ret[s]);
        }
        r->rank[s] = 1 + ahead;
    }
}

int match_play(struct match *m, agent_t *const *agent, uint32_t missing,
               const char *missing_reason, uint64_t seed,
               struct match_result *r, char *err, size_t errlen)
{
    const struct game *g = m->g;
    int joint[GAME_MAX_PLAYERS];
    int64_t t0 = now_us();
    memset(r, 0, sizeof *r);
    if (g->def->init(g, m->st, seed, NULL, 0))
        return err_set(err, errlen, ERR_STATE, "%s: init failed", g->spec);
    for (uint32_t s = missing; s; s &= s - 1)
        forfeit(g, r, __builtin_ctz(s), missing_reason);
    for (int s = 0; s < g->dims.players && !missing; s++)
        agent_reseed(agent[s], schedule_agent_seed(seed, s));
    uint32_t acting;
    while (!r->forfeit && (acting = g->def->to_move(g, m->st))) {
        if (r->length >= g->dims.max_length)
            return err_set(err, errlen, ERR_STATE,
                           "%s: deal seed %016llx runs past max_length %d "
                           "(a bug in the game)",
                           g->spec, (unsigned long long)seed,
                           g->dims.max_length);
        choose(m, agent, acting, joint, r);
        if (r->forfeit)
            break;
        if (acting & (acting - 1))
            g->def->apply_joint(g, m->st, joint);
        else
            g->def->apply(g, m->st, joint[__builtin_ctz(acting)]);
        r->length++;
    }
    finish(m, agent, missing, r, t0);
    return 0;
}
