/* env.h — one game as a Gymnasium-style environment: make, reset, step.
 *
 * An env_t wraps a configured game and one fixed-size state held inline, so
 * reset and step never allocate. Two modes:
 *  - multi-agent (no opponents): the caller drives every seat. A turn-based
 *    step is env_step(action) for the single seat to act; when several seats
 *    act at once (GAME_SIMULTANEOUS games) the caller gives one action per
 *    acting seat with env_step_joint(actions[players]).
 *  - single-agent (opponents set): the caller drives the learner's seat and
 *    the env plays every other seat with built-in agents. After reset and
 *    after each learner step the env applies opponent moves until the
 *    learner must act or the game ends.
 *
 * Rewards are differences of the game's returns() ("result so far"): the
 * reward of a step is returns after it (opponent moves included) minus
 * returns at the previous timestep, for every seat. A reset timestep
 * reports zero rewards and zero returns, whatever the deal or the
 * opponents' moves inside reset scored: the first step's reward credits
 * that too, so summed over an episode's steps the rewards equal the final
 * returns in every game. (A reset that ends the game at once reports the
 * final returns; it has no step to carry them.)
 *
 * An episode is over for the caller once terminated or truncated: to_move
 * is then 0 and every legal mask all zero, even when max_steps cut a game
 * that would go on.
 *
 * Determinism: the game is seeded with the reset seed and opponent agents
 * with seeds derived from it, so the same seed and the same actions give
 * the same trajectory, byte for byte, on every machine. Envs share no
 * mutable data, so different envs may run on different threads; one env
 * is used by one thread at a time.
 */
#ifndef PARLOR_ENV_H
#define PARLOR_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/game.h"

typedef struct env env_t;

/* How an env is run; zero-initialised means multi-agent, no step cap. */
struct env_options {
    int max_steps;         /* cap on env steps per episode: the step that
                              reaches it reports truncated (0: no cap) */
    const char *opponents; /* NULL or "": multi-agent. Else agent specs for
                              the non-learner seats, comma-separated, in
                              seat order ("random,random(seed=4)"), or one
                              spec used for every one of them */
    int learner;           /* single-agent mode: the caller's seat */
};

struct agent_limits;

/* Checks an opponents list (as in env_options) from an untrusted peer,
 * spec by spec, with agent_check_bounded: built-in agents only, each move
 * within lim. Returns 0, or a code with a message naming the spec. */
int env_check_opponents(const char *list, const struct agent_limits *lim,
                        char *err, size_t errlen);

/* The sizes a caller needs to allocate for or interpret a timestep. */
struct env_shape {
    int players;     /* seats in play */
    int num_actions; /* action ids are 0..num_actions-1 */
    int mask_words;  /* uint64_t words in one legal mask */
    int obs_size;    /* floats in one observation */
    int learner;     /* the learner's seat; -1 in multi-agent mode */
    bool joint;      /* several seats may act at once (simultaneous game) */
};

/* What reset and step report. The pointers point into buffers owned by
 * the env; they stay valid and unchanged until its next reset or step.
 *
 * seat is the observing seat: in single-agent mode always the learner; in
 * multi-agent mode the lowest seat to act (after a truncation: that would
 * act), or once the game is over the lowest seat that acted last. When several seats act at once, legal_all
 * holds each one's mask and env_observe gives each one's observation. */
struct env_timestep {
    uint32_t to_move;          /* seats to act (bitmask), 0 once over
                                  (terminated or truncated); in single-
                                  agent mode it holds the learner */
    int seat;                  /* the observing seat, see above */
    const float *obs;          /* seat's observation, obs_size floats */
    const uint64_t *legal;     /* seat's legal actions, mask_words words
                                  (all zero when seat does not act) */
    const uint64_t *legal_all; /* players rows of mask_words: seat s's legal
                                  actions when s acts, else zero (single-
                                  agent: only the learner's row is set) */
    const double *reward;      /* players entries: the last step's reward
                                  per seat (zero after reset) */
    const double *returns;     /* players entries: the game's returns so
                                  far, i.e. the episode's result so far
                                  (zero at reset, see above) */
    bool terminated;           /* the game is over */
    bool truncated;            /* max_steps reached before the game ended */
    int steps;                 /* env steps this episode (0 after reset);
                                  opponent moves are not counted */
};

/* Creates an env for the game spec ("spoil_five(players=4)") run as opts
 * says (NULL: defaults). Returns a new env owned by the caller (free with
 * env_destroy), or NULL with a message in err naming the culprit: the game
 * spec or option, max_steps, learner, or the opponent spec and its seat. */
env_t *env_new(const char *spec, const struct env_options *opts, char *err,
               size_t errlen);

/* As env_new for a game already configured (g is copied); lets tests and
 * callers holding a struct game skip the spec string. */
env_t *env_new_game(const struct game *g, const struct env_options *opts,
                    char *err, size_t errlen);

/* Frees *e and its opponent agents, sets *e to NULL (NULL-safe). */
void env_destroy(env_t **e);

/* Starts an episode from seed; in single-agent mode also reseeds the
 * opponents and plays their moves up to the learner's first decision.
 * Fills ts (may be NULL); ts may already be terminated when the deal ends
 * the game before any decision (single-agent: before the learner's
 * first), and the caller then resets again. Returns 0 or the code of a
 * failing opponent. */
int env_reset(env_t *e, uint64_t seed, struct env_timestep *ts);

/* Applies action for the one seat to act (single-agent: the learner, whose
 * simultaneous co-actors are played by their agents), then in single-agent
 * mode the opponents' moves. Fills ts (may be NULL). Returns 0,
 * ERR_ILLEGAL_ACTION (env untouched), ERR_STATE (no reset yet, episode
 * over, or several seats act: use env_step_joint) or an opponent's code
 * (the episode is then abandoned: reset to go on). */
int env_step(env_t *e, int action, struct env_timestep *ts);

/* Multi-agent only: applies actions[s] for every acting seat s (players
 * entries; entries of seats not acting are ignored). Works for one acting
 * seat too. Returns as env_step; ERR_INVAL in single-agent mode. */
int env_step_joint(env_t *e, const int *actions, struct env_timestep *ts);

/* Checks what env_step(action) would return without stepping: 0,
 * ERR_ILLEGAL_ACTION or ERR_STATE, with a message in env_errmsg. */
int env_check_step(env_t *e, int action);

/* Checks what env_step_joint(actions) would return without stepping. */
int env_check_joint(env_t *e, const int *actions);

/* Writes seat's observation of the current state into out (obs_size
 * floats). Returns 0, ERR_RANGE (no such seat) or ERR_STATE (no reset). */
int env_observe(env_t *e, int seat, float *out);

/* Makes e write each timestep's observation into out (obs_size floats,
 * borrowed: it must stay valid while e may write it) instead of its own
 * buffer, so that a caller gathering observations (venv's batch) need not
 * copy them; timesteps then point obs at out, and the current observation
 * is copied there at once. NULL goes back to the env's own buffer. */
void env_set_obs_buffer(env_t *e, float *out);

/* Fills ts with the current timestep again (as the last reset or step
 * reported it). Returns 0, or ERR_STATE before the first reset or after
 * a failure abandoned the episode. */
int env_timestep(const env_t *e, struct env_timestep *ts);

/* The env's sizes (borrowed, lives as long as e). */
const struct env_shape *env_shape(const env_t *e);

/* The configured game (borrowed, lives as long as e): dims, spec, def. */
const struct game *env_game(const env_t *e);

/* The current state (borrowed; valid until the next reset or step), for
 * views, action names and renderers. NULL before the first reset. */
const void *env_state(const env_t *e);

/* Canonical spec of the agent playing seat (borrowed), or NULL when the
 * caller drives that seat. */
const char *env_opponent(const env_t *e, int seat);

/* Text of the last failure on e ("" after a success; borrowed). */
const char *env_errmsg(const env_t *e);

#endif
