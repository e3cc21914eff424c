/* venv.h — N environments of one game stepped together, with auto-reset.
 *
 * A venv_t owns N envs (env.h) made from one spec and one set of options,
 * and one batch of contiguous buffers that every reset and step rewrites in
 * place: the buffers never move, so a caller (or the server) may wrap them
 * once, e.g. as numpy arrays, and read each step without copying.
 *
 * Rows. Most configurations have one row per env: the observing seat's
 * observation and legal mask (the learner in single-agent mode, the seat to
 * act in multi-agent mode). A multi-agent venv over a simultaneous-move game
 * ("joint" shape) has one row per seat instead: row s of env i is seat s's
 * observation and legal mask (zero mask when s does not act), and each env
 * takes players actions.
 *
 * Auto-reset. When env i's episode ends in a step, that step's reward,
 * terminated and truncated are reported for it as usual; its last rows go to
 * final_obs (and its observing seat to final_seat); obs, legal, seat,
 * to_move and steps already describe the first timestep of env i's next
 * episode. Seeds: venv_reset(seed) starts env i with venv_episode_seed(seed,
 * i, 0) and its k-th auto-reset uses venv_episode_seed(seed, i, k), so any
 * episode can be replayed alone with a plain env.
 *
 * Episodes with nothing to decide. Some deals end the game before the
 * caller's first decision (a Thirty-One hand dealt at 31; in single-agent
 * mode, opponents that finish the game first). env_reset reports those as
 * terminated at once; a venv skips them, at reset and at auto-reset, by
 * moving on to the env's next episode seed (k advances): no reward of such
 * an episode is reported, as the caller had no action to credit it to.
 */
#ifndef PARLOR_VENV_H
#define PARLOR_VENV_H

#include <stdint.h>

#include "env.h"

#define VENV_MAX 65536 /* most envs in one venv */

typedef struct venv venv_t;

/* The batch buffers (owned by the venv, fixed for its lifetime). Row-major:
 * env i's rows come after env i-1's. */
struct venv_batch {
    int n;               /* envs */
    int rows;            /* rows per env: players if joint, else 1 */
    int rewards;         /* rewards per env: 1 single-agent, else players */
    int obs_size;        /* floats per row */
    int mask_words;      /* uint64_t words per legal-mask row */
    float *obs;          /* n x rows x obs_size: current observations */
    float *final_obs;    /* n x rows x obs_size: where env i ended its
                            episode in the last step (terminated[i] or
                            truncated[i]), its final rows; other envs' rows
                            keep older contents */
    uint64_t *legal;     /* n x rows x mask_words: current legal masks */
    double *reward;      /* n x rewards: the last step's reward (the
                            learner's, or every seat's) */
    uint8_t *terminated; /* n: 1 where the last step ended the game */
    uint8_t *truncated;  /* n: 1 where the last step hit max_steps */
    int32_t *seat;       /* n: observing seat of the current timestep */
    int32_t *final_seat; /* n: observing seat of final_obs, where ended */
    uint32_t *to_move;   /* n: seats to act now (bitmask) */
    int32_t *steps;      /* n: steps taken in the current episode */
};

/* Creates n (1..VENV_MAX) envs of spec run as opts says (NULL: defaults) and
 * their batch. Returns a new venv owned by the caller (free with
 * venv_destroy), or NULL with a message in err naming the culprit. */
venv_t *venv_new(const char *spec, const struct env_options *opts, int n,
                 char *err, size_t errlen);

/* As venv_new for a game already configured (g is copied). */
venv_t *venv_new_game(const struct game *g, const struct env_options *opts,
                      int n, char *err, size_t errlen);

/* Frees *v with its envs and buffers, sets *v to NULL (NULL-safe). */
void venv_destroy(venv_t **v);

/* Resets every env (env i from venv_episode_seed(seed, i, 0), skipping
 * episodes over before any decision) and fills the batch with zero rewards
 * and flags. Returns 0 or an env's code (the venv must then be reset
 * again), ERR_STATE if 1000 episodes in a row end before any decision. */
int venv_reset(venv_t *v, uint64_t seed);

/* Steps every env: actions holds one action per env (the learner's, or the
 * seat to act's), or n x players in the joint shape (entries of seats not
 * acting are ignored). Every action is checked first, so an illegal one
 * leaves the whole venv untouched and returns ERR_ILLEGAL_ACTION (or
 * ERR_STATE) with a message naming the env. Ended episodes auto-reset.
 * An opponent's failure returns its code; the venv must then be reset. */
int venv_step(venv_t *v, const int *actions);

/* The seed of env i's k-th episode (k = 0 from venv_reset) under master
 * seed: rng_derive(seed, i) for k = 0, else rng_derive(of that, k). */
uint64_t venv_episode_seed(uint64_t seed, int i, uint64_t k);

/* The batch buffers (borrowed, valid as long as v). */
const struct venv_batch *venv_batch(const venv_t *v);

/* Env i, for its game, state and opponents (borrowed; do not reset or step
 * it directly). NULL if i is out of range. */
const env_t *venv_env(const venv_t *v, int i);

/* The envs' common sizes (borrowed, lives as long as v). */
const struct env_shape *venv_shape(const venv_t *v);

/* Text of the last failure on v ("" after a success; borrowed). */
const char *venv_errmsg(const venv_t *v);

#endif
