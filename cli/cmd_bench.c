/* cmd_bench.c — `parlor bench`: how fast a game runs, on one thread.
 *
 * Playouts pick uniformly among the legal actions with the bench's own
 * generator and call the game's legal/apply ops directly: the engine's
 * own cost, legality holding by construction. A decision is one seat's
 * choice; a step is one apply (a joint step counts once); an episode runs
 * from init to terminal, and ns per decision includes the inits. The path
 * a user calls is timed too: env_step in one process (legality checked
 * against the mask, then the next mask, rewards and observation), per
 * decision with the resets included. Only env_reset and env_step run in
 * that timing: the random choices are drawn beforehand and replayed, as a
 * user's policy is the user's cost. It is reported as a ratio to a
 * decision (env_step_ratio) and, since every env step must also observe,
 * which the engine's decision does not, as a ratio to a decision plus one
 * observe (env_step_overhead): where observe alone costs as much as a
 * decision the first ratio cannot come near 1, while the second shows
 * what the env adds around the game's own ops (the mask, the rewards, the
 * checks). That "decision + observe" is timed by replaying the env's
 * recorded episodes through the game's ops (legal for every acting seat,
 * apply, one observe a step), so both sides play the same episodes with
 * the same actions and neither pays for choosing; it is not taken as
 * ns_per_decision + obs_ns: obs_ns repeats the same few hundred states,
 * whose branches the CPU's predictor learns, and in play observe costs
 * more (Nine-Card Golf: about 117 ns over the samples, 226 ns in play, on
 * the machine this was written on). A third replay also asks the game's
 * returns after every apply, which the env's rewards need: env_step over
 * that (env_step_own_overhead) is what the env's own code adds, the masks,
 * the reward differences, the checks and the bookkeeping, where the game's
 * returns op, which the env cannot make cheaper, can cost a fifth of a
 * decision + observe (Dice, Bi-Jinx). The observation, view, clone and
 * determinize are timed apart over states sampled from playouts. The actions hash is FNV-1a 64
 * over the actions (32-bit little-endian) of episodes dealt with seeds
 * 1..1000, choices drawn from one generator seeded 1: it changes when
 * behaviour does.
 *
 * Every time is the thread's CPU time, so that other processes' slices do
 * not count (--seconds is CPU seconds too, and the rates are per CPU
 * second). These machines are noisy all the same (caches and cores are
 * shared), so absolute times do not compare across runs. Each run
 * therefore also times a fixed reference workload (a Fisher-Yates shuffle
 * of a 52-card pack), before and after the rest, and reports every figure
 * as well as a ratio to it: ratios compare across runs and machines.
 */
#include <getopt.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"
#include "../env/env.h"
#include "cli.h"

#define CHECK_EVERY 1024   /* decisions between two looks at the clock */
#define SAMPLES 256        /* states the per-op timings run over */
#define HASH_EPISODES 1000 /* episodes the actions hash covers */
#define SHORT_SECS 0.1     /* playouts shorter than this give rates that are
                            * mostly start-up noise: marked too short */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* The game and the buffers the runs share. */
struct bench {
    struct game g;              /* the configuration timed */
    const struct game_def *def; /* g.def, for the ops */
    size_t size;                /* bytes of a state */
    void *st;                   /* the playout state */
    int *buf;                   /* legal actions, max_legal */
    struct rng rng;             /* the playouts' choices */
    uint8_t *samples;           /* SAMPLES states for the per-op timings */
    uint8_t *work;              /* SAMPLES scratch states */
    int seat[SAMPLES];          /* a seat to act in each sample */
    int nsamples;               /* samples gathered */
    float *obs;                 /* one observation */
};

/* What a run measured. */
struct bench_result {
    double secs;               /* length of the timed playouts */
    double env_ns;             /* per decision through env_step */
    double dec_obs_ns;         /* per decision of observing playouts */
    double dec_ret_ns;         /* the same, asking returns every step */
    uint64_t decisions, steps; /* seat choices, apply calls */
    uint64_t episodes;         /* episodes played to the end */
    uint64_t deals;            /* deals those episodes held */
    double obs_ns, view_ns;    /* per observe / game_view call */
    double clone_ns, det_ns;   /* per memcpy clone / determinize */
    double view_bytes;         /* average packed view size */
    double base_ns;            /* per reference shuffle (the baseline) */
    uint64_t hash;             /* the actions hash */
};

/* ---- static helpers ---------------------------------------------------- */

/* Seconds of CPU time this thread has used: every figure of the bench is
 * timed on this clock. On a loaded machine the wall clock also counts the
 * slices other processes ran in, which fell on one side or the other of a
 * ratio by chance (the shuffle baseline alone swung from 70 to 267 ns
 * between runs at a load of 5 on 2 cores). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Makes the compiler assume the memory at p is read here, so that the
 * work being timed cannot be dropped as dead. */
static inline void keep(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

static inline uint64_t fnv_action(uint64_t h, int action)
{
    uint32_t v = (uint32_t)action;
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= FNV_PRIME;
    }
    return h;
}

static uint8_t *sample(const struct bench *b, int i)
{
    return b->samples + (size_t)i * b->size;
}

/* Several seats act: one uniform choice each, applied jointly. */
static int joint_step(struct bench *b, uint32_t m, uint64_t *hash)
{
    int joint[GAME_MAX_PLAYERS], d = 0;
    for (; m; m &= m - 1, d++) {
        int s = __builtin_ctz(m);
        int n = b->def->legal(&b->g, b->st, s, b->buf);
        if (n <= 0)
            return 0;
        joint[s] = b->buf[rng_below(&b->rng, (uint32_t)n)];
        if (hash)
            *hash = fnv_action(*hash, joint[s]);
    }
    b->def->apply_joint(&b->g, b->st, joint);
    return d;
}

/* One random step for the seats in m; returns the decisions taken, 0 when
 * an acting seat has no legal action (a bug in the game). */
static inline int random_step(struct bench *b, uint32_t m, uint64_t *hash)
{
    if (m & (m - 1))
        return joint_step(b, m, hash);
    int n = b->def->legal(&b->g, b->st, __builtin_ctz(m), b->buf);
    if (n <= 0)
        return 0;
    int a = b->buf[rng_below(&b->rng, (uint32_t)n)];
    if (hash)
        *hash = fnv_action(*hash, a);
    b->def->apply(&b->g, b->st, a);
    return 1;
}

/* Plays one episode from seed to the end (hash may be NULL). */
static int episode(struct bench *b, uint64_t seed, uint64_t *hash)
{
    uint32_t m;
    if (b->def->init(&b->g, b->st, seed, NULL, 0))
        return ERR_STATE;
    for (int n = 0; (m = b->def->to_move(&b->g, b->st)); n++)
        if (n >= b->g.dims.max_length || !random_step(b, m, hash))
            return ERR_STATE;
    return 0;
}

/* ---- the runs ---------------------------------------------------------- */

/* True when secs have passed since t0 and an episode has ended. */
static bool time_up(int *check, double t0, double secs,
                    const struct bench_result *r)
{
    *check = CHECK_EVERY;
    return r->episodes > 0 && now() - t0 >= secs;
}

/* Random playouts for secs seconds (at least one whole episode). */
static int playouts(struct bench *b, double secs, struct bench_result *r)
{
    int check = CHECK_EVERY;
    double t0 = now();
    bool done = false;
    uint32_t m;
    r->decisions = r->steps = r->episodes = r->deals = 0;
    for (uint64_t seed = 1; !done; seed++) {
        if (b->def->init(&b->g, b->st, seed, NULL, 0))
            return ERR_STATE;
        for (int n = 0; (m = b->def->to_move(&b->g, b->st)) && !done; n++) {
            int d = n < b->g.dims.max_length ? random_step(b, m, NULL) : 0;
            if (!d)
                return ERR_STATE;
            r->decisions += (uint64_t)d;
            r->steps++;
            if ((check -= d) <= 0)
                done = time_up(&check, t0, secs, r);
        }
        if (!m) {
            r->episodes++;
            r->deals += (uint64_t)game_deals(&b->g, b->st);
        }
        if (!done && --check <= 0)
            done = time_up(&check, t0, secs, r);
    }
    r->secs = now() - t0;
    return 0;
}

static int actions_hash(struct bench *b, uint64_t *hash)
{
    *hash = FNV_OFFSET;
    rng_seed(&b->rng, 1);
    for (uint64_t seed = 1; seed <= HASH_EPISODES; seed++)
        if (episode(b, seed, hash))
            return ERR_STATE;
    return 0;
}

/* Keeps about one state in four of random episodes as samples. */
static int gather_samples(struct bench *b)
{
    uint32_t m;
    uint64_t first = 1u << 20;
    for (uint64_t seed = first; b->nsamples < SAMPLES; seed++) {
        if (seed - first > 100000)
            return 0; /* episodes end at once: keep what there is */
        if (b->def->init(&b->g, b->st, seed, NULL, 0))
            return ERR_STATE;
        for (int n = 0; (m = b->def->to_move(&b->g, b->st)); n++) {
            if (b->nsamples < SAMPLES && !rng_below(&b->rng, 4)) {
                memcpy(sample(b, b->nsamples), b->st, b->size);
                b->seat[b->nsamples++] = __builtin_ctz(m);
            }
            if (n >= b->g.dims.max_length || !random_step(b, m, NULL))
                return ERR_STATE;
        }
    }
    return 0;
}

/* Random env episodes recorded untimed and replayed timed, so that the
 * replay calls env_reset and env_step and nothing else: drawing an action
 * from a mask (a scan of 7 KB in Casino) is the caller's policy, not the
 * env's cost. The env's determinism makes the replay take the same path. */
struct env_script {
    env_t *e;         /* a multi-agent env of the game */
    struct rng rng;   /* the recorded choices */
    int *act;         /* actions in play order, the seats of a joint step
                         by ascending seat */
    size_t n, cap;    /* actions recorded, room */
    uint64_t seed;    /* the first episode's reset seed */
    uint64_t seeds;   /* whole episodes recorded */
};

/* Plays episode seed with random choices, appending its actions; returns
 * 0, 1 when it would not fit (the script keeps the episodes before it) or
 * -1 when a step failed. */
static int record_episode(struct env_script *sc, uint64_t seed)
{
    struct env_timestep ts;
    const struct env_shape *sh = env_shape(sc->e);
    size_t start = sc->n;
    int joint[GAME_MAX_PLAYERS] = {0};
    if (env_reset(sc->e, seed, &ts))
        return -1;
    while (!ts.terminated) {
        uint32_t m = ts.to_move;
        if (sc->n + (size_t)__builtin_popcount(m) > sc->cap) {
            sc->n = start;
            return 1;
        }
        for (uint32_t r = m; r; r &= r - 1) {
            int s = __builtin_ctz(r);
            const uint64_t *row = ts.legal_all + (size_t)s * sh->mask_words;
            joint[s] = rng_pick_bit(&sc->rng, row, sh->mask_words);
            sc->act[sc->n++] = joint[s];
        }
        int rc = m & (m - 1) ? env_step_joint(sc->e, joint, &ts)
                             : env_step(sc->e, joint[__builtin_ctz(m)], &ts);
        if (rc)
            return -1;
    }
    return 0;
}

/* Records whole episodes from seed on until the script is full (at least
 * one). Returns 0 or -1. */
static int record(struct env_script *sc, uint64_t seed)
{
    int rc = 0;
    sc->n = 0;
    sc->seed = seed;
    sc->seeds = 0;
    while (!(rc = record_episode(sc, seed + sc->seeds)))
        sc->seeds++;
    return rc < 0 || !sc->seeds ? -1 : 0;
}

/* Replays the script; returns the decisions it took, 0 on a failure (a
 * step refused, or a replay that strays from the recording). */
static uint64_t replay(struct env_script *sc)
{
    struct env_timestep ts;
    const int *a = sc->act, *end = sc->act + sc->n;
    int joint[GAME_MAX_PLAYERS];
    for (uint64_t k = 0; k < sc->seeds; k++) {
        if (env_reset(sc->e, sc->seed + k, &ts))
            return 0;
        while (!ts.terminated) {
            uint32_t m = ts.to_move;
            int rc;
            if (end - a < __builtin_popcount(m))
                return 0;
            if (m & (m - 1)) {
                for (; m; m &= m - 1)
                    joint[__builtin_ctz(m)] = *a++;
                rc = env_step_joint(sc->e, joint, &ts);
            } else {
                rc = env_step(sc->e, *a++, &ts);
            }
            if (rc)
                return 0;
        }
    }
    return a == end ? (uint64_t)(a - sc->act) : 0;
}

/* Replays the script through the game's own ops, doing what the game
 * alone must do for env_step's timestep: init, then per step legal() for
 * every acting seat (the env builds its masks from it), the apply, and
 * one observe of the seat env_step would observe (after init too, as
 * env_reset does). With ret, also the game's returns after every apply
 * (the env's rewards are differences of them), into ret. Returns the
 * decisions, 0 on a failure. */
static uint64_t replay_observed(struct bench *b, const struct env_script *sc,
                                float *obs, double *ret)
{
    const struct game_def *def = b->def;
    const int *a = sc->act, *end = sc->act + sc->n;
    int joint[GAME_MAX_PLAYERS];
    for (uint64_t k = 0; k < sc->seeds; k++) {
        if (def->init(&b->g, b->st, sc->seed + k, NULL, 0))
            return 0;
        uint32_t m = def->to_move(&b->g, b->st);
        def->observe(&b->g, b->st, m ? __builtin_ctz(m) : 0, obs);
        keep(obs);
        while (m) {
            if (end - a < __builtin_popcount(m))
                return 0;
            for (uint32_t r = m; r; r &= r - 1) {
                int s = __builtin_ctz(r);
                if (def->legal(&b->g, b->st, s, b->buf) <= 0)
                    return 0;
                joint[s] = *a++;
            }
            if (m & (m - 1))
                def->apply_joint(&b->g, b->st, joint);
            else
                def->apply(&b->g, b->st, joint[__builtin_ctz(m)]);
            if (ret) {
                def->returns(&b->g, b->st, ret);
                keep(ret);
            }
            uint32_t next = def->to_move(&b->g, b->st);
            def->observe(&b->g, b->st, __builtin_ctz(next ? next : m), obs);
            keep(obs);
            m = next;
        }
    }
    return a == end ? (uint64_t)(a - sc->act) : 0;
}

/* The three ways time_env replays a script. */
enum replay_side {
    SIDE_ENV, /* env_reset and env_step */
    SIDE_OBS, /* the game's ops: decisions and observe */
    SIDE_RET, /* the same and returns */
    SIDES
};

/* What time_env measured, summed over its calls. */
struct env_timing {
    uint64_t n[SIDES]; /* decisions replayed, by side */
    double s[SIDES];   /* seconds they took */
};

/* Times one replay of the script by side (the ops observe into obs and
 * take returns into ret); adds the decisions and seconds to t (the ratio
 * swung from 0.8 to 2.1 between runs of one build at a load of 5 on 2
 * cores when it was timed on the wall clock). Returns 0 or -1. */
static int time_replay(struct bench *b, struct env_script *sc, float *obs,
                       double *ret, enum replay_side side,
                       struct env_timing *t)
{
    double t0 = now();
    uint64_t d = side == SIDE_ENV ? replay(sc)
                 : replay_observed(b, sc, obs, side == SIDE_RET ? ret : NULL);
    t->s[side] += now() - t0;
    t->n[side] += d;
    return d ? 0 : -1;
}

/* Times env_reset + env_step (multi-agent, in process: what a user's
 * env_step costs, choosing excluded) against the game's own share of it
 * (replay_observed), with and without the returns, for about secs seconds
 * of each. All replay the same recorded episodes with the same actions,
 * script by script, taking turns at going first, so that they play alike
 * and a change of load hits every side. Adds the decisions and seconds to
 * t. Returns 0 or -1. */
static int time_env(struct bench *b, double secs, struct env_timing *t)
{
    char err[256];
    struct env_script sc = {0};
    struct env_timing here = {0};
    uint64_t seed = 1 + t->n[SIDE_ENV];
    double ret[GAME_MAX_PLAYERS];
    /* The ops observe into a buffer on a cache line, as the env's own. */
    size_t line = 64;
    unsigned char *raw = mem_alloc((size_t)b->g.dims.obs_size *
                                   sizeof(float) + line);
    float *obs = (float *)(void *)(raw + (line - (uintptr_t)raw % line));
    sc.e = env_new_game(&b->g, NULL, err, sizeof err);
    sc.cap = (size_t)b->g.dims.max_length * (size_t)b->g.dims.players;
    sc.cap = sc.cap > (1u << 16) ? sc.cap : (1u << 16);
    sc.act = mem_alloc(sc.cap * sizeof *sc.act);
    rng_seed(&sc.rng, 4 + t->n[SIDE_ENV]);
    int rc = sc.e ? 0 : -1;
    for (int first = 0;
         !rc &&
         (here.s[SIDE_ENV] < secs || here.s[SIDE_OBS] < secs ||
          here.s[SIDE_RET] < secs) &&
         !(rc = record(&sc, seed));
         first = (first + 1) % SIDES) {
        for (int k = 0; k < SIDES && !rc; k++)
            rc = time_replay(b, &sc, obs, ret,
                             (enum replay_side)((first + k) % SIDES), &here);
        seed += sc.seeds;
    }
    env_destroy(&sc.e);
    mem_free(sc.act);
    mem_free(raw);
    for (int k = 0; k < SIDES; k++) {
        t->n[k] += here.n[k];
        t->s[k] += here.s[k];
    }
    return rc;
}

/* ---- the per-op timings ------------------------------------------------ */

static double time_obs(struct bench *b, double budget)
{
    uint64_t ops = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < b->nsamples; i++) {
            b->def->observe(&b->g, sample(b, i), b->seat[i], b->obs);
            keep(b->obs);
        }
        ops += (uint64_t)b->nsamples;
    } while ((t = now()) - t0 < budget);
    return (t - t0) * 1e9 / (double)ops;
}

static double time_view(struct bench *b, double budget, double *bytes)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    uint64_t ops = 0, total = 0;
    double t0 = now(), t;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    do {
        for (int i = 0; i < b->nsamples; i++) {
            msgpack_sbuffer_clear(&sb);
            game_view(&b->g, sample(b, i), b->seat[i], &pk);
            keep(sb.data);
            total += sb.size;
        }
        ops += (uint64_t)b->nsamples;
    } while ((t = now()) - t0 < budget);
    msgpack_sbuffer_destroy(&sb);
    *bytes = (double)total / (double)ops;
    return (t - t0) * 1e9 / (double)ops;
}

/* Times the reference workload: shuffling a 52-card pack. */
static double time_baseline(double budget)
{
    uint8_t pack[52];
    struct rng rng;
    uint64_t ops = 0;
    double t0 = now(), t;
    rng_seed(&rng, 3);
    for (int i = 0; i < 52; i++)
        pack[i] = (uint8_t)i;
    do {
        for (int i = 0; i < 256; i++) {
            rng_shuffle_u8(&rng, pack, 52);
            keep(pack);
        }
        ops += 256;
    } while ((t = now()) - t0 < budget);
    return (t - t0) * 1e9 / (double)ops;
}

static double time_clone(struct bench *b, double budget)
{
    uint64_t ops = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < b->nsamples; i++) {
            memcpy(b->work, sample(b, i), b->size);
            keep(b->work);
        }
        ops += (uint64_t)b->nsamples;
    } while ((t = now()) - t0 < budget);
    return (t - t0) * 1e9 / (double)ops;
}

/* Determinizes copies of the samples; the copying is not timed. */
static double time_determinize(struct bench *b, double budget)
{
    struct rng rng;
    uint64_t ops = 0;
    double spent = 0;
    rng_seed(&rng, 7);
    do {
        memcpy(b->work, b->samples, (size_t)b->nsamples * b->size);
        double t0 = now();
        for (int i = 0; i < b->nsamples; i++)
            b->def->determinize(&b->g, b->work + (size_t)i * b->size,
                                b->seat[i], &rng);
        keep(b->work);
        spent += now() - t0;
        ops += (uint64_t)b->nsamples;
    } while (spent < budget);
    return spent * 1e9 / (double)ops;
}

static int run(struct bench *b, double secs, struct bench_result *r)
{
    struct bench_result warm = {0};
    double budget = fmin(fmax(secs / 10, 0.02), 1.0);
    if (actions_hash(b, &r->hash))
        return cli_fail("bench",
                        "%s: a random episode went wrong (no legal "
                        "action, or longer than max_length)",
                        b->g.spec);
    /* Like the baseline, the env runs in two halves around the playouts,
     * so that a change of load hits both sides of their ratio alike. */
    struct env_timing et = {0};
    double env_secs = fmax(secs / 8, 0.01);
    rng_seed(&b->rng, 2);
    r->base_ns = time_baseline(budget / 2);
    if (gather_samples(b) || playouts(b, fmin(secs / 10, 0.2), &warm))
        return cli_fail("bench", "%s: a random episode went wrong", b->g.spec);
    if (time_env(b, env_secs, &et))
        return cli_fail("bench", "%s: an env_step went wrong", b->g.spec);
    if (playouts(b, secs, r))
        return cli_fail("bench", "%s: a random episode went wrong", b->g.spec);
    if (time_env(b, env_secs, &et))
        return cli_fail("bench", "%s: an env_step went wrong", b->g.spec);
    r->env_ns = et.s[SIDE_ENV] * 1e9 / (double)et.n[SIDE_ENV];
    r->dec_obs_ns = et.s[SIDE_OBS] * 1e9 / (double)et.n[SIDE_OBS];
    r->dec_ret_ns = et.s[SIDE_RET] * 1e9 / (double)et.n[SIDE_RET];
    r->obs_ns = time_obs(b, budget);
    r->view_ns = time_view(b, budget, &r->view_bytes);
    r->clone_ns = time_clone(b, budget);
    r->det_ns = time_determinize(b, budget);
    r->base_ns = (r->base_ns + time_baseline(budget / 2)) / 2;
    return CLI_OK;
}

/* ---- output ------------------------------------------------------------ */

/* Writes a rate with an SI prefix: "15.48 M". */
static const char *si(double v, char *buf, size_t len)
{
    static const char prefix[] = " kMGT";
    int k = 0;
    while (v >= 1000 && k < 4) {
        v /= 1000;
        k++;
    }
    snprintf(buf, len, "%7.2f %c", v, prefix[k]);
    return buf;
}

static int print_text(const struct bench *b, const struct bench_result *r)
{
    double s = r->secs, base = r->base_ns;
    double per = s * 1e9 / (double)r->decisions;
    char rate[32];
    printf("bench %s: %.2f s of uniform random playouts, one thread\n",
           b->g.spec, s);
    if (s < SHORT_SECS)
        printf("  note: too short to time: %.3f s and %llu episodes; rates "
               "below are mostly noise (use --seconds 1 or more)\n",
               s, (unsigned long long)r->episodes);
    printf("  baseline    %10.1f ns  (52-card shuffle; x = ratio to it)\n",
           base);
    printf("  decisions   %12llu  %s/s  %8.1f ns each (deal included) "
           "%6.3fx\n",
           (unsigned long long)r->decisions,
           si((double)r->decisions / s, rate, sizeof rate), per, per / base);
    printf("  steps       %12llu  %s/s\n", (unsigned long long)r->steps,
           si((double)r->steps / s, rate, sizeof rate));
    printf("  episodes    %12llu  %s/s  (init to end)\n",
           (unsigned long long)r->episodes,
           si((double)r->episodes / s, rate, sizeof rate));
    printf("  deals       %12llu  %s/s\n", (unsigned long long)r->deals,
           si((double)r->deals / s, rate, sizeof rate));
    printf("  env_step    %10.1f ns  %6.3fx  (%.2f x a decision, %.2f x a "
           "decision + observe, %.2f x one + returns)\n",
           r->env_ns, r->env_ns / base, r->env_ns / per,
           r->env_ns / r->dec_obs_ns, r->env_ns / r->dec_ret_ns);
    printf("  observe     %10.1f ns  %6.3fx  (%d floats)\n", r->obs_ns,
           r->obs_ns / base, b->g.dims.obs_size);
    printf("  view        %10.1f ns  %6.3fx  (msgpack, %.0f bytes on "
           "average)\n",
           r->view_ns, r->view_ns / base, r->view_bytes);
    printf("  clone       %10.1f ns  %6.3fx  (memcpy of %zu bytes)\n",
           r->clone_ns, r->clone_ns / base, b->size);
    printf("  determinize %10.1f ns  %6.3fx\n", r->det_ns, r->det_ns / base);
    printf("Bench: %016llx\n", (unsigned long long)r->hash);
    return CLI_OK;
}

static int print_json(const struct bench *b, const struct bench_result *r)
{
    char hash[32];
    double s = r->secs, per = s * 1e9 / (double)r->decisions;
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)r->hash);
    return cli_json_emit(
        "bench",
        json_pack(
            "{s:s, s:o, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, "
            "s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
            "s:I, s:i, s:i, s:s, s:o, s:b}",
            "game", b->g.spec, "seconds", cli_json_real(s), "decisions",
            (json_int_t)r->decisions, "steps", (json_int_t)r->steps, "episodes",
            (json_int_t)r->episodes, "deals", (json_int_t)r->deals,
            "decisions_per_sec", cli_json_real((double)r->decisions / s),
            "steps_per_sec", cli_json_real((double)r->steps / s),
            "episodes_per_sec", cli_json_real((double)r->episodes / s),
            "deals_per_sec", cli_json_real((double)r->deals / s),
            "ns_per_decision", cli_json_real(per), "env_step_ns",
            cli_json_real(r->env_ns), "env_step_ratio",
            cli_json_real(r->env_ns / per), "decision_observe_ns",
            cli_json_real(r->dec_obs_ns), "env_step_overhead",
            cli_json_real(r->env_ns / r->dec_obs_ns),
            "decision_observe_returns_ns", cli_json_real(r->dec_ret_ns),
            "env_step_own_overhead", cli_json_real(r->env_ns / r->dec_ret_ns),
            "obs_ns",
            cli_json_real(r->obs_ns),
            "view_ns", cli_json_real(r->view_ns), "clone_ns",
            cli_json_real(r->clone_ns), "determinize_ns",
            cli_json_real(r->det_ns), "view_bytes",
            cli_json_real(r->view_bytes), "state_size", (json_int_t)b->size,
            "obs_size", b->g.dims.obs_size, "samples", b->nsamples,
            "actions_hash", hash, "baseline_ns", cli_json_real(r->base_ns),
            "too_short", s < SHORT_SECS));
}

/* One row of the "all" table; the header first when head is set. */
static int print_row(const struct bench *b, const struct bench_result *r,
                     bool head)
{
    double s = r->secs, base = r->base_ns;
    double per = s * 1e9 / (double)r->decisions;
    if (head)
        printf("%-20s %8s %6s %8s %6s %6s %8s %6s %7s %6s %10s  %s\n",
               "game", "ns/dec", "x", "env_step", "/dec", "/d+o", "view ns",
               "x", "obs ns", "x", "deals/s", "bench hash");
    printf("%-20s %8.1f %6.3f %8.1f %6.2f %6.2f %8.1f %6.2f %7.1f %6.3f "
           "%10.0f  %016llx%s\n",
           b->g.spec, per, per / base, r->env_ns, r->env_ns / per,
           r->env_ns / r->dec_obs_ns, r->view_ns, r->view_ns / base,
           r->obs_ns, r->obs_ns / base, (double)r->deals / s,
           (unsigned long long)r->hash,
           s < SHORT_SECS ? "  (too short to time)" : "");
    return fflush(stdout), CLI_OK;
}

/* Benchmarks one game spec; row >= 0 prints it as table row number row. */
static int bench_one(const char *spec, double secs, bool json, int row)
{
    struct bench b;
    struct bench_result r = {0};
    memset(&b, 0, sizeof b);
    int rc = cli_make_game("bench", spec, &b.g);
    if (rc)
        return rc;
    b.def = b.g.def;
    b.size = b.def->state_size;
    b.st = mem_alloc(b.size);
    b.buf = mem_alloc(sizeof(int) * (size_t)b.g.dims.max_legal);
    b.samples = mem_alloc(SAMPLES * b.size);
    b.work = mem_alloc(SAMPLES * b.size);
    b.obs = mem_alloc(sizeof(float) * (size_t)(b.g.dims.obs_size + 1));
    rc = run(&b, secs, &r);
    if (!rc)
        rc = json       ? print_json(&b, &r)
             : row >= 0 ? print_row(&b, &r, row == 0)
                        : print_text(&b, &r);
    mem_free(b.obs);
    mem_free(b.work);
    mem_free(b.samples);
    mem_free(b.buf);
    mem_free(b.st);
    return rc;
}

/* ---- API --------------------------------------------------------------- */

/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, const char **spec, double *secs,
                      bool *json)
{
    static const struct option opts[] = {
        {"seconds", required_argument, NULL, 's'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h')
            return cli_usage("bench", stdout), -1;
        else if (c == 'j')
            *json = true;
        else if (c != 's')
            return cli_bad_option("bench", c, argv);
        else if (!cli_parse_double(optarg, 0, 86400, secs))
            return cli_usage_error("bench",
                                   "--seconds wants a number from 0 "
                                   "to 86400, got '%s'",
                                   optarg);
    }
    if (argc - optind != 1)
        return cli_usage_error("bench", argc == optind ? "which game?"
                                                       : "one game at a time");
    *spec = argv[optind];
    return CLI_OK;
}

int cmd_bench(int argc, char **argv)
{
    const char *spec = NULL;
    double secs = 3;
    bool json = false;
    int rc = parse_args(argc, argv, &spec, &secs, &json);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (strcmp(spec, "all"))
        return bench_one(spec, secs, json, -1);
    for (int i = 0; i < game_registry_count && !rc; i++)
        rc = bench_one(game_registry[i]->name, secs, json, i);
    return rc;
}
