/* venv.c — the vector environment of venv.h.
 *
 * The venv holds n independent envs and copies each one's timestep into
 * its rows of the batch after every reset and step, except the
 * observation of a one-row env, which the env writes straight into its
 * row; everything is allocated in venv_new, so stepping allocates
 * nothing. Actions are all
 * checked before any env moves, which keeps the venv all-or-nothing.
 */
#include "venv.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"

/* Most episodes in a row that may end before any decision. */
#define VENV_SKIP_MAX 1000

struct venv {
    int n;                  /* envs */
    bool joint;             /* multi-agent over a simultaneous game */
    bool live;              /* reset done and no failure since */
    uint64_t seed;          /* master seed of the last venv_reset */
    struct env_shape shape; /* the envs' sizes */
    struct venv_batch b;    /* the caller-visible buffers, owned */
    env_t **envs;           /* n envs, owned */
    uint64_t *episode;      /* per env: auto-resets since venv_reset */
    char err[400];          /* text of the last failure */
};

/* ---- construction ------------------------------------------------------ */

/* Env i's rows in a batch buffer of observations (obs or final_obs). */
static float *obs_rows(const venv_t *v, float *base, int i)
{
    return base + (size_t)i * (size_t)v->b.rows * (size_t)v->b.obs_size;
}

/* Allocates every batch buffer; returns 0 or ERR_NOMEM. */
static int alloc_batch(struct venv_batch *b)
{
    size_t n = (size_t)b->n, rows = n * (size_t)b->rows;
    b->obs = mem_alloc(rows * (size_t)b->obs_size * sizeof(float));
    b->final_obs = mem_alloc(rows * (size_t)b->obs_size * sizeof(float));
    b->legal = mem_alloc(rows * (size_t)b->mask_words * sizeof(uint64_t));
    b->reward = mem_alloc(n * (size_t)b->rewards * sizeof(double));
    b->terminated = mem_alloc(n);
    b->truncated = mem_alloc(n);
    b->seat = mem_alloc(n * sizeof(int32_t));
    b->final_seat = mem_alloc(n * sizeof(int32_t));
    b->to_move = mem_alloc(n * sizeof(uint32_t));
    b->steps = mem_alloc(n * sizeof(int32_t));
    bool ok = b->obs && b->final_obs && b->legal && b->reward &&
              b->terminated && b->truncated && b->seat && b->final_seat &&
              b->to_move && b->steps;
    return ok ? 0 : ERR_NOMEM;
}

static void free_batch(struct venv_batch *b)
{
    mem_free(b->obs);
    mem_free(b->final_obs);
    mem_free(b->legal);
    mem_free(b->reward);
    mem_free(b->terminated);
    mem_free(b->truncated);
    mem_free(b->seat);
    mem_free(b->final_seat);
    mem_free(b->to_move);
    mem_free(b->steps);
}

/* Sets the venv's shape and batch sizes from its first env. */
static void take_shape(venv_t *v)
{
    const struct env_shape *s = env_shape(v->envs[0]);
    v->shape = *s;
    v->joint = s->joint && s->learner < 0;
    v->b.n = v->n;
    v->b.rows = v->joint ? s->players : 1;
    v->b.rewards = s->learner < 0 ? s->players : 1;
    v->b.obs_size = s->obs_size;
    v->b.mask_words = s->mask_words;
}

venv_t *venv_new_game(const struct game *g, const struct env_options *opts,
                      int n, char *err, size_t errlen)
{
    if (n < 1 || n > VENV_MAX) {
        err_set(err, errlen, ERR_RANGE, "envs: %d is outside 1..%d", n,
                VENV_MAX);
        return NULL;
    }
    venv_t *v = mem_alloc(sizeof *v);
    if (!v) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    v->n = n;
    v->envs = mem_alloc((size_t)n * sizeof *v->envs);
    v->episode = mem_alloc((size_t)n * sizeof *v->episode);
    if (!v->envs || !v->episode)
        goto out_nomem;
    for (int i = 0; i < n; i++)
        if (!(v->envs[i] = env_new_game(g, opts, err, errlen)))
            goto out_destroy;
    take_shape(v);
    if (alloc_batch(&v->b))
        goto out_nomem;
    for (int i = 0; i < n && !v->joint; i++)
        env_set_obs_buffer(v->envs[i], obs_rows(v, v->b.obs, i));
    return v;
out_nomem:
    err_set(err, errlen, ERR_NOMEM, "out of memory");
out_destroy:
    venv_destroy(&v);
    return NULL;
}

venv_t *venv_new(const char *spec, const struct env_options *opts, int n,
                 char *err, size_t errlen)
{
    struct game g;
    if (!spec)
        return err_set(err, errlen, ERR_INVAL, "no game spec given"), NULL;
    if (game_make(&g, spec, err, errlen))
        return NULL;
    return venv_new_game(&g, opts, n, err, errlen);
}

void venv_destroy(venv_t **v)
{
    if (!v || !*v)
        return;
    venv_t *p = *v;
    for (int i = 0; p->envs && i < p->n; i++)
        env_destroy(&p->envs[i]);
    mem_free(p->envs);
    mem_free(p->episode);
    free_batch(&p->b);
    mem_free(p);
    *v = NULL;
}

/* ---- batch writing ----------------------------------------------------- */

/* Copies env i's current observation and mask rows, seat, to_move and
 * step count into the batch. */
static void write_rows(venv_t *v, int i, const struct env_timestep *ts)
{
    struct venv_batch *b = &v->b;
    size_t words = (size_t)b->rows * (size_t)b->mask_words;
    float *obs = obs_rows(v, b->obs, i);
    if (v->joint) {
        for (int s = 0; s < b->rows; s++)
            env_observe(v->envs[i], s, obs + (size_t)s * (size_t)b->obs_size);
        memcpy(b->legal + (size_t)i * words, ts->legal_all, words * 8);
    } else {
        if (ts->obs != obs) /* the env writes it there itself */
            memcpy(obs, ts->obs, (size_t)b->obs_size * sizeof(float));
        memcpy(b->legal + (size_t)i * words, ts->legal, words * 8);
    }
    b->seat[i] = ts->seat;
    b->to_move[i] = ts->to_move;
    b->steps[i] = ts->steps;
}

/* Copies env i's step outcome: rewards and end flags. */
static void write_outcome(venv_t *v, int i, const struct env_timestep *ts)
{
    struct venv_batch *b = &v->b;
    double *r = b->reward + (size_t)i * (size_t)b->rewards;
    if (b->rewards == 1)
        r[0] = ts->reward[v->shape.learner];
    else
        memcpy(r, ts->reward, (size_t)b->rewards * sizeof(double));
    b->terminated[i] = ts->terminated;
    b->truncated[i] = ts->truncated;
}

static int env_failed(venv_t *v, int i, int rc)
{
    v->live = false;
    return err_set(v->err, sizeof v->err, rc, "env %d: %s", i,
                   env_errmsg(v->envs[i]));
}

/* ---- API --------------------------------------------------------------- */

uint64_t venv_episode_seed(uint64_t seed, int i, uint64_t k)
{
    uint64_t first = rng_derive(seed, (uint64_t)i);
    return k ? rng_derive(first, k) : first;
}

/* Starts env i's episode v->episode[i], moving on to the next seed while
 * an episode is over before its first decision. Returns 0 or a code. */
static int start_episode(venv_t *v, int i, struct env_timestep *ts)
{
    for (int tries = 0; tries < VENV_SKIP_MAX; tries++) {
        uint64_t seed = venv_episode_seed(v->seed, i, v->episode[i]);
        int rc = env_reset(v->envs[i], seed, ts);
        if (rc)
            return env_failed(v, i, rc);
        if (!ts->terminated)
            return 0;
        v->episode[i]++;
    }
    v->live = false;
    return err_set(v->err, sizeof v->err, ERR_STATE,
                   "env %d: %d episodes in a row ended before any decision", i,
                   VENV_SKIP_MAX);
}

int venv_reset(venv_t *v, uint64_t seed)
{
    struct env_timestep ts;
    v->err[0] = '\0';
    v->seed = seed;
    v->live = false;
    for (int i = 0; i < v->n; i++) {
        v->episode[i] = 0;
        int rc = start_episode(v, i, &ts);
        if (rc)
            return rc;
        write_rows(v, i, &ts);
        write_outcome(v, i, &ts);
    }
    v->live = true;
    return 0;
}

/* Checks every env's action(s) before any env moves. */
static int check_all(venv_t *v, const int *actions)
{
    size_t per = v->joint ? (size_t)v->shape.players : 1;
    for (int i = 0; i < v->n; i++) {
        const int *a = actions + (size_t)i * per;
        int rc = v->joint ? env_check_joint(v->envs[i], a)
                          : env_check_step(v->envs[i], *a);
        if (rc)
            return err_set(v->err, sizeof v->err, rc, "env %d: %s", i,
                           env_errmsg(v->envs[i]));
    }
    return 0;
}

/* Env i's episode ended: keeps its final rows, starts the next episode. */
static int auto_reset(venv_t *v, int i)
{
    struct env_timestep ts;
    size_t floats = (size_t)v->b.rows * (size_t)v->b.obs_size;
    memcpy(obs_rows(v, v->b.final_obs, i), obs_rows(v, v->b.obs, i),
           floats * sizeof(float));
    v->b.final_seat[i] = v->b.seat[i];
    v->episode[i]++;
    int rc = start_episode(v, i, &ts);
    if (!rc)
        write_rows(v, i, &ts);
    return rc;
}

int venv_step(venv_t *v, const int *actions)
{
    struct env_timestep ts;
    v->err[0] = '\0';
    if (!v->live)
        return err_set(v->err, sizeof v->err, ERR_STATE,
                       "no running batch: call reset first");
    int rc = check_all(v, actions);
    if (rc)
        return rc;
    size_t per = v->joint ? (size_t)v->shape.players : 1;
    for (int i = 0; i < v->n; i++) {
        const int *a = actions + (size_t)i * per;
        rc = v->joint ? env_step_joint(v->envs[i], a, &ts)
                      : env_step(v->envs[i], *a, &ts);
        if (rc)
            return env_failed(v, i, rc);
        write_rows(v, i, &ts);
        write_outcome(v, i, &ts);
        if ((ts.terminated || ts.truncated) && (rc = auto_reset(v, i)))
            return rc;
    }
    return 0;
}

const struct venv_batch *venv_batch(const venv_t *v)
{
    return &v->b;
}

const env_t *venv_env(const venv_t *v, int i)
{
    return i >= 0 && i < v->n ? v->envs[i] : NULL;
}

const struct env_shape *venv_shape(const venv_t *v)
{
    return &v->shape;
}

const char *venv_errmsg(const venv_t *v)
{
    return v->err;
}
