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
    if (!r->forfeit) {
        /* the seat's words are cut to fit after "seat N: " */
        snprintf(r->reason, sizeof r->reason, "seat %d: %.*s", seat,
                 (int)sizeof r->reason - 16, why);
        r->culprit = seat;
    }
    r->forfeit |= side_seats(g, seat);
}

/* Records why seat's agent failed: its code rc (with the agent's own
 * words when it has them), or action a out of range. */
static void failed(const struct game *g, agent_t *agent,
                   struct match_result *r, int seat, int rc, int a)
{
    char why[MATCH_REASON_MAX];
    bool never = false;
    const char *words = rc ? agent_failure(agent, &never) : NULL;
    if (never)
        r->never_started |= 1u << seat;
    if (words)
        snprintf(why, sizeof why, "%s (%s)", words, err_name(rc));
    else if (rc)
        snprintf(why, sizeof why, "%s (%s)", err_str(rc), err_name(rc));
    else
        snprintf(why, sizeof why, "action %d out of range (%s)", a,
                 err_name(ERR_ILLEGAL_ACTION));
    forfeit(g, r, seat, why);
}

/* Asks seat's agent for its action into *a; false (and a forfeit) when
 * it fails or answers an action id the game does not have. */
static inline bool ask(const struct game *g, const void *st, agent_t *agent,
                       int seat, int *a, struct match_result *r)
{
    *a = -1; /* what a failing agent is reported to have answered */
    int rc = agent_act(agent, st, seat, a);
    if (!rc && (unsigned)*a < (unsigned)g->dims.num_actions)
        return true;
    failed(g, agent, r, seat, rc, *a);
    return false;
}

/* Asks every seat in acting for its action into joint. Returns false if
 * one of them forfeited. */
static bool choose(const struct game *g, const void *st,
                   agent_t *const *agent, uint32_t acting, int *joint,
                   struct match_result *r)
{
    bool ok = true;
    for (; acting; acting &= acting - 1) {
        int seat = __builtin_ctz(acting);
        ok &= ask(g, st, agent[seat], seat, &joint[seat], r);
    }
    return ok;
}

/* Plays st to its end, or to a forfeit; returns the steps applied, -1
 * past the game's max_length (a bug in the game), or -2 when stop is set
 * (checked before each move). Kept tight: with a random agent, a move
 * costs little more than this loop. */
static int play(const struct game *g, void *st, agent_t *const *agent,
                const atomic_bool *stop, int *moves, struct match_result *r)
{
    static const atomic_bool never = false;
    const struct game_def *def = g->def;
    const atomic_bool *halt = stop ? stop : &never;
    int *out = moves, joint[GAME_MAX_PLAYERS];
    int max = g->dims.max_length, left = max;
    uint32_t acting;
    while ((acting = def->to_move(g, st))) {
        if (left <= 0)
            return -1;
        if (atomic_load_explicit(halt, memory_order_relaxed))
            return -2;
        if (!(acting & (acting - 1))) { /* one seat: the usual case */
            int seat = __builtin_ctz(acting), a;
            if (!ask(g, st, agent[seat], seat, &a, r))
                break;
            def->apply(g, st, a);
            *out++ = a;
        } else {
            if (!choose(g, st, agent, acting, joint, r))
                break;
            def->apply_joint(g, st, joint);
            for (; acting; acting &= acting - 1)
                *out++ = joint[__builtin_ctz(acting)];
        }
        left--; /* a step is counted once applied, not on a forfeit */
    }
    r->nmoves = (int)(out - moves);
    return max - left;
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
    m->clock_us = now_us();
    r->wall_us = m->clock_us - t0;
}

/* Starts the game of seed in m->st. A tournament plays each deal once per
 * seating, one after the other (game indexes vary rotation fastest, then
 * line-up: schedule.c), and init gives the same state for the same seed,
 * whatever the buffer held (game.h: a state is plain data; the conformance
 * suite checks it). So the state of the last seed dealt is kept and
 * copied back: each deal is shuffled and dealt once, not once a seating
 * (Thirty-One for two: 6 % fewer instructions a game in a tournament). */
static int deal(struct match *m, uint64_t seed)
{
    const struct game *g = m->g;
    size_t n = g->def->state_size;
    if (m->have_dealt && m->dealt_seed == seed) {
        memcpy(m->st, m->dealt, n);
        return 0;
    }
    m->have_dealt = false;
    if (g->def->init(g, m->st, seed, NULL, 0))
        return ERR_STATE;
    memcpy(m->dealt, m->st, n);
    m->dealt_seed = seed;
    m->have_dealt = true;
    return 0;
}

/* ---- API --------------------------------------------------------------- */

int match_init(struct match *m, const struct game *g)
{
    m->g = g;
    m->stop = NULL;
    /* Written every move: on cache lines no other worker's data shares. */
    m->st = mem_alloc_lines(g->def->state_size);
    m->dealt = mem_alloc_lines(g->def->state_size);
    m->have_dealt = false;
    m->moves_cap = g->dims.max_length * g->dims.players;
    m->moves = mem_alloc_lines(sizeof *m->moves * (size_t)m->moves_cap);
    m->clock_us = 0;
    return m->st && m->dealt && m->moves ? 0 : ERR_NOMEM;
}

void match_fini(struct match *m)
{
    mem_free(m->st);
    mem_free(m->dealt);
    mem_free(m->moves);
    m->st = NULL;
    m->dealt = NULL;
    m->moves = NULL;
}

void match_rank(const struct game *g, struct match_result *r)
{
    match_rank_seats(g->dims.players, r);
}

void match_rank_seats(int p, struct match_result *r)
{
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
    int64_t t0 = m->clock_us ? m->clock_us : now_us();
    r->length = 0; /* ret and rank are filled at the end */
    r->moves = m->moves;
    r->nmoves = 0;
    r->forfeit = 0;
    r->never_started = missing;
    r->culprit = -1;
    r->reason[0] = '\0';
    if (deal(m, seed))
        return err_set(err, errlen, ERR_STATE, "%s: init failed", g->spec);
    for (uint32_t s = missing; s; s &= s - 1)
        forfeit(g, r, __builtin_ctz(s), missing_reason);
    for (int s = 0; s < g->dims.players && !missing; s++)
        agent_reseed(agent[s], schedule_agent_seed(seed, s));
    if (!missing) {
        r->length = play(g, m->st, agent, m->stop, m->moves, r);
        if (r->length == -2)
            return err_set(err, errlen, ERR_INTERRUPTED, "stopped");
    }
    if (r->length < 0)
        return err_set(err, errlen, ERR_STATE,
                       "%s: deal seed %016llx runs past max_length %d "
                       "(a bug in the game)",
                       g->spec, (unsigned long long)seed, g->dims.max_length);
    finish(m, agent, missing, r, t0);
    return 0;
}
