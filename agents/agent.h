/* agent.h — the interface every bot implements: built-in ones (random,
 * later search agents) and the proxy that seats an external bot.
 *
 * An agent is named by a spec string like a game ("random(seed=3)") and is
 * created for one configured game. It is asked to act for a seat given the
 * true state; it must use only what that seat may know (search agents call
 * the game's determinize first). Agents are registered in agents.def.
 */
#ifndef PARLOR_AGENT_H
#define PARLOR_AGENT_H

#include <stdint.h>

#include "../common/params.h"
#include "../engine/game.h"

#define AGENT_API_VERSION 1

struct arena; /* where named bots connect (arena.h) */

/* How a game ended, as told to every seat's agent (game_over). */
struct agent_outcome {
    const double *ret;  /* returns per seat (so far, on a forfeit) */
    const int *rank;    /* 1 = best, per seat */
    uint32_t forfeit;   /* seats that forfeited (bitmask); 0: normal end */
    const char *reason; /* why, when forfeit != 0; else "" */
};

/* Bounds on one move of a built-in agent named by an untrusted peer (the env
 * server's opponents): agent_new_bounded refuses a spec that could pass
 * them, naming the option and the bound. */
struct agent_limits {
    double max_work;         /* most playouts (or search iterations) a move
                                may start, and the tree nodes it may hold */
    double max_time_ms;      /* most milliseconds a move may search
                                (time_ms) */
    const char *hint;        /* appended to refusals: how to raise the
                                bounds */
    const struct game *game; /* the game to be played, whose most legal
                                actions and deals bound what a playout
                                costs; NULL: not known, not counted */
};

struct agent_def {
    const char *name;               /* registry key, e.g. "random" */
    const char *doc;                /* one line: how it plays */
    int api_version;                /* AGENT_API_VERSION */
    const struct param_def *params; /* option table */
    int nparams;                    /* entries in params */
    /* Creates private data for game g into *self. Returns 0 or a code
     * with a message. */
    int (*create)(const struct game *g, const struct param_values *p,
                  void **self, char *err, size_t errlen);
    /* Chooses seat's action in st (seat is to act). Returns 0 or a code
     * (an external bot that fails forfeits). */
    int (*act)(void *self, const struct game *g, const void *st, int seat,
               int *action);
    /* Tells the agent how the game in st it played as seat ended
     * (optional: built-in agents learn nothing from it). */
    void (*game_over)(void *self, const struct game *g, const void *st,
                      int seat, const struct agent_outcome *o);
    /* Restarts the agent's randomness from seed (each episode/deal set). */
    void (*reseed)(void *self, uint64_t seed);
    /* Frees self (NULL-safe). */
    void (*destroy)(void *self);
    /* Checks that options p keep a move within lim; returns 0, or
     * ERR_RANGE with a message naming the option (optional: an agent
     * whose move costs a bounded, small amount of work has none). */
    int (*check_limits)(const struct param_values *p,
                        const struct agent_limits *lim, char *err,
                        size_t errlen);
    /* Why the last act failed, in words (a bot's exit status, a missed
     * hello), or NULL; *never_started is set when the agent never got
     * going at all (an external bot that has not said hello). Optional:
     * agents whose act cannot fail have none. */
    const char *(*failure)(void *self, bool *never_started);
};

/* An agent: its kind, private data and the game it plays. The fields are
 * private (use the functions below); the struct is visible only so that
 * agent_act inlines into the tournament's move loop, where a random
 * agent's whole move costs about as much as the call. */
typedef struct agent {
    const struct agent_def *def; /* the kind */
    void *self;                  /* its private data, owned */
    struct game game;            /* a copy of the game it plays */
    char spec[GAME_SPEC_MAX];    /* canonical spec string */
} agent_t;

/* The registry, in agents.def order, and its length. */
extern const struct agent_def *const agent_registry[];
extern const int agent_registry_count;

/* Finds an agent kind by name; NULL if none. */
const struct agent_def *agent_find(const char *name);

/* Creates the agent named by spec for game g (copied). Returns a new agent
 * owned by the caller (free with agent_destroy) or NULL with a message naming
 * the unknown agent, option or value and what is allowed. */
agent_t *agent_new(const char *spec, const struct game *g, char *err,
                   size_t errlen);

/* agent_new, where "bot:NAME" specs take their bot from arena (borrowed,
 * must outlive the agent; NULL: such specs are refused). */
agent_t *agent_new_at(const char *spec, const struct game *g,
                      struct arena *arena, char *err, size_t errlen);

/* Checks a spec from an untrusted peer without creating the agent: only
 * built-in agents (never "cmd:" or "bot:", which start processes or wait
 * for connections), with options within lim. Returns 0, or a code with a
 * message naming what was refused and what is allowed. */
int agent_check_bounded(const char *spec, const struct agent_limits *lim,
                        char *err, size_t errlen);

/* Formats the refusal of option name = value above max (ERR_RANGE), for
 * check_limits: "ismcts: iters=5000 is more than 2000 per move (hint)". */
int agent_limit_fail(const char *agent, const char *name, double value,
                     double max, const struct agent_limits *lim, char *err,
                     size_t errlen);

/* Asks a for seat's action in st. Returns 0 or a negative code. */
static inline int agent_act(agent_t *a, const void *st, int seat, int *action)
{
    return a->def->act(a->self, &a->game, st, seat, action);
}

/* Tells a how the game in st, where it sat in seat, ended. */
/* Why a's last agent_act failed, in words, or NULL when its code says
 * all there is; *never_started tells whether a never got going (an
 * external bot that could not be started or never said hello). The
 * string lives until a's next call. */
const char *agent_failure(const agent_t *a, bool *never_started);

void agent_game_over(agent_t *a, const void *st, int seat,
                     const struct agent_outcome *o);

/* Reseeds a's randomness, combining seed with the spec's own seed. */
void agent_reseed(agent_t *a, uint64_t seed);

/* The agent's canonical spec string (borrowed, lives as long as a). */
const char *agent_spec(const agent_t *a);

/* Frees *a and sets it to NULL (NULL-safe). */
void agent_destroy(agent_t **a);

#endif
