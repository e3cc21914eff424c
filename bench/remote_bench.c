/* remote_bench.c — what serving envs over ZeroMQ costs: steps per second
 * of a C client against the env server (run here on a thread, as
 * `parlor serve` runs it), each beside a raw ZeroMQ ping-pong that moves
 * messages of exactly the same sizes over the same transport.
 *
 *   build/bench/remote_bench [--game SPEC] [--seconds S] [--transport T]
 *
 * For each transport (tcp and ipc loopback) it times unbatched steps on a
 * plain env and batched steps on vector envs of 64 and 256. The server
 * and the ping-pong echo run side by side and are timed in alternating
 * slices of 50 ms, so that both see the same machine even when other work
 * comes and goes. Ratios: the server's round trips over raw round trips
 * (the protocol's overhead; target >= 0.8 unbatched) and batched steps/s
 * over unbatched steps/s (the gain of batching; target >= 30 at 64).
 * "srv us/step" is the CPU time of the server's own thread (decoding,
 * stepping, encoding, its socket calls) per env step; ZeroMQ's I/O
 * threads are not in it.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "common/rng.h"
#include "env/server.h"
#include "protocol/client.h"

#define SLICE 0.04 /* seconds of one side before the other's turn */

/* What one mode measured. */
struct rate {
    double trips, secs;   /* server round trips and the time they took */
    double steps;         /* env steps in them */
    double cpu;           /* server thread CPU seconds in them */
    double raw, raw_secs; /* raw round trips and their time */
    size_t req, rep;      /* message sizes, bytes */
};

/* The client side of the server's timing, kept across slices. */
struct runner {
    client_env_t *e;  /* the env stepped */
    int n;            /* 0: plain env; else envs in the vector */
    int32_t *actions; /* one per env */
    struct rng rng;   /* picks the actions */
    uint64_t seed;    /* next reset seed */
};

/* ---- helpers ------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *why)
{
    fprintf(stderr, "remote_bench: %s: %s\n", what, why);
    exit(1);
}

/* A uniformly random legal action of a mask row (mask_bytes bytes, whole
 * little-endian words), cheap enough not to weigh on the timings. */
static int pick(struct rng *r, const uint8_t *row, int mask_bytes)
{
    uint64_t w[64];
    int words = mask_bytes / 8 < 64 ? mask_bytes / 8 : 64;
    memcpy(w, row, (size_t)words * 8);
    int a = rng_pick_bit(r, w, words);
    return a < 0 ? 0 : a;
}

/* ---- the raw ping-pong -------------------------------------------------- */

/* A ROUTER answering every request with rep bytes until an empty one. */
struct echo {
    void *ctx, *sock;   /* its own context, as a server process has */
    size_t rep;         /* reply size */
    char endpoint[256]; /* where it listens */
    pthread_t thread;   /* runs echo_loop */
    void *cctx, *c;     /* the client's context and DEALER */
    char *out, *in;     /* request and reply buffers */
    size_t req;         /* request size */
};

static void *echo_loop(void *arg)
{
    struct echo *e = arg;
    char *reply = calloc(1, e->rep);
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    for (;;) {
        if (zmq_msg_recv(&id, e->sock, 0) < 0 ||
            zmq_msg_recv(&body, e->sock, 0) < 0 || !zmq_msg_size(&body))
            break;
        zmq_send(e->sock, zmq_msg_data(&id), zmq_msg_size(&id), ZMQ_SNDMORE);
        zmq_send(e->sock, reply, e->rep, 0);
    }
    zmq_msg_close(&id);
    zmq_msg_close(&body);
    free(reply);
    return NULL;
}

static void echo_start(struct echo *e, const char *bind, size_t req, size_t rep)
{
    memset(e, 0, sizeof *e);
    e->req = req;
    e->rep = rep;
    e->ctx = zmq_ctx_new();
    e->sock = zmq_socket(e->ctx, ZMQ_ROUTER);
    size_t n = sizeof e->endpoint;
    if (zmq_bind(e->sock, bind) ||
        zmq_getsockopt(e->sock, ZMQ_LAST_ENDPOINT, e->endpoint, &n))
        die("ping-pong bind", zmq_strerror(zmq_errno()));
    pthread_create(&e->thread, NULL, echo_loop, e);
    e->cctx = zmq_ctx_new();
    e->c = zmq_socket(e->cctx, ZMQ_DEALER);
    zmq_connect(e->c, e->endpoint);
    e->out = calloc(1, req);
    e->in = malloc(rep + 1);
}

/* Round trips for about dur seconds; adds them and the time to r. */
static void echo_slice(struct echo *e, double dur, struct rate *r)
{
    long trips = 0;
    double t0 = now(), t = t0;
    for (; t - t0 < dur; trips++) {
        zmq_send(e->c, e->out, e->req, 0);
        zmq_recv(e->c, e->in, e->rep + 1, 0);
        if ((trips & 7) == 0)
            t = now();
    }
    r->raw += (double)trips;
    r->raw_secs += now() - t0;
}

static void echo_stop(struct echo *e)
{
    zmq_send(e->c, "", 0, 0);
    pthread_join(e->thread, NULL);
    zmq_close(e->c);
    zmq_ctx_term(e->cctx);
    zmq_close(e->sock);
    zmq_ctx_term(e->ctx);
    free(e->out);
    free(e->in);
}

/* ---- the env server ----------------------------------------------------- */

static void *serve(void *arg)
{
    server_run(arg);
    return NULL;
}

/* One step (or reset) of the runner's env. */
static void step_once(struct runner *ru, struct rate *r)
{
    const struct client_shape *s = client_env_shape(ru->e);
    const struct client_batch *b = client_env_batch(ru->e);
    size_t mb = (size_t)s->mask_bytes;
    int rc;
    if (!ru->n && (b->terminated[0] || b->truncated[0])) {
        rc = client_reset(ru->e, ru->seed++);
    } else if (!ru->n) {
        rc = client_step(ru->e, pick(&ru->rng, b->legal, s->mask_bytes));
        r->steps++;
    } else {
        for (int i = 0; i < ru->n; i++)
            ru->actions[i] =
                pick(&ru->rng, b->legal + (size_t)i * mb, s->mask_bytes);
        rc = client_step_many(ru->e, ru->actions, ru->n);
        r->steps += ru->n;
    }
    if (rc)
        die("step", "refused");
}

static double cpu_now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Steps for about dur seconds; adds trips, steps, time and the server
 * thread's CPU time (clock) to r. */
static void server_slice(struct runner *ru, double dur, clockid_t clock,
                         struct rate *r)
{
    long trips = 0;
    double t0 = now(), t = t0, c0 = cpu_now(clock);
    for (; t - t0 < dur; trips++) {
        step_once(ru, r);
        if ((trips & 7) == 0)
            t = now();
    }
    r->trips += (double)trips;
    r->secs += now() - t0;
    r->cpu += cpu_now(clock) - c0;
}

#define MODES 3
static const int mode_n[MODES] = {0, 64, 256};

/* One transport: a server with a plain env and vector envs of 64 and 256,
 * and one ping-pong echo per mode sized like that mode's messages. */
struct rig {
    server_t *s;              /* the env server */
    pthread_t thread;         /* runs it */
    clockid_t cpu;            /* its thread's CPU clock */
    client_t *c;              /* the client */
    struct runner ru[MODES];  /* an env per mode */
    struct echo echo[MODES];  /* a ping-pong per mode */
    struct rate total[MODES]; /* sums over all rounds */
};

static void rig_start(struct rig *g, const char *game, const char *net)
{
    char err[256], bind[128];
    bool ipc = !strcmp(net, "ipc");
    snprintf(bind, sizeof bind,
             ipc ? "ipc:///tmp/parlor-bench-%d-s" : "tcp://127.0.0.1:*",
             (int)getpid());
    struct server_options o = {.endpoint = bind, .max_msg = 1u << 24};
    memset(g, 0, sizeof *g);
    if (!(g->s = server_new(&o, err, sizeof err)))
        die("server", err);
    pthread_create(&g->thread, NULL, serve, g->s);
    if (pthread_getcpuclockid(g->thread, &g->cpu))
        die("server", "no CPU clock for its thread");
    if (!(g->c = client_new(server_endpoint(g->s), NULL, err, sizeof err)))
        die("client", err);
    for (int m = 0; m < MODES; m++) {
        struct client_make_options mo = {mode_n[m], NULL, 0, 0};
        struct runner *ru = &g->ru[m];
        struct rate *r = &g->total[m];
        *ru = (struct runner){
            client_make(g->c, game, &mo), mode_n[m], NULL, {1}, 2};
        if (!ru->e || client_reset(ru->e, 1))
            die("make", client_errmsg(g->c));
        ru->actions = calloc((size_t)(mode_n[m] ? mode_n[m] : 1), 4);
        step_once(ru, r); /* the sizes of a step and its reply */
        client_sizes(g->c, &r->req, &r->rep);
        r->steps = 0;
        snprintf(bind, sizeof bind,
                 ipc ? "ipc:///tmp/parlor-bench-%d-e%d" : "tcp://127.0.0.1:*",
                 (int)getpid(), m);
        echo_start(&g->echo[m], bind, r->req, r->rep);
    }
}

static void rig_stop(struct rig *g)
{
    for (int m = 0; m < MODES; m++) {
        echo_stop(&g->echo[m]);
        free(g->ru[m].actions);
        client_close(&g->ru[m].e);
    }
    client_destroy(&g->c);
    server_stop(g->s);
    pthread_join(g->thread, NULL);
    server_destroy(&g->s);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Rounds of one slice per side per mode; the ratios of each round, taken
 * over a fraction of a second, see one state of the machine. */
static void report(const char *net, const char *game, double seconds)
{
    struct rig g;
    int rounds = (int)(seconds / (2 * MODES * SLICE)) + 1;
    double *vs_raw = calloc((size_t)(rounds * MODES), sizeof(double));
    double *vs_unb = calloc((size_t)(rounds * MODES), sizeof(double));
    rig_start(&g, game, net);
    for (int k = 0; k < rounds; k++) {
        struct rate r[MODES];
        for (int m = 0; m < MODES; m++) {
            memset(&r[m], 0, sizeof r[m]);
            echo_slice(&g.echo[m], SLICE, &r[m]);
            server_slice(&g.ru[m], SLICE, g.cpu, &r[m]);
            struct rate *t = &g.total[m];
            t->trips += r[m].trips;
            t->secs += r[m].secs;
            t->steps += r[m].steps;
            t->cpu += r[m].cpu;
            t->raw += r[m].raw;
            t->raw_secs += r[m].raw_secs;
            vs_raw[m * rounds + k] =
                (r[m].trips / r[m].secs) / (r[m].raw / r[m].raw_secs);
            vs_unb[m * rounds + k] =
                (r[m].steps / r[m].secs) / (r[0].steps / r[0].secs);
        }
    }
    for (int m = 0; m < MODES; m++) {
        const struct rate *t = &g.total[m];
        char mode[16];
        snprintf(mode, sizeof mode, m ? "batch %d" : "unbatched", mode_n[m]);
        printf("%-4s %-10s %8zu %8zu %12.0f %10.0f %10.0f %7.2f %8.1f "
               "%11.2f\n",
               net, mode, t->req, t->rep, t->steps / t->secs,
               t->trips / t->secs, t->raw / t->raw_secs,
               median(vs_raw + m * rounds, rounds),
               median(vs_unb + m * rounds, rounds), t->cpu * 1e6 / t->steps);
    }
    fflush(stdout);
    rig_stop(&g);
    free(vs_raw);
    free(vs_unb);
    if (!strcmp(net, "ipc")) {
        char path[128];
        snprintf(path, sizeof path, "/tmp/parlor-bench-%d-s", (int)getpid());
        unlink(path);
        for (int m = 0; m < MODES; m++) {
            snprintf(path, sizeof path, "/tmp/parlor-bench-%d-e%d",
                     (int)getpid(), m);
            unlink(path);
        }
    }
}

int main(int argc, char **argv)
{
    const char *game = "thirty_one(players=2)", *only = NULL;
    double seconds = 4.0;
    static const struct option opts[] = {
        {"game", required_argument, NULL, 'g'},
        {"seconds", required_argument, NULL, 's'},
        {"transport", required_argument, NULL, 't'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (ch == 'g')
            game = optarg;
        else if (ch == 's')
            seconds = atof(optarg);
        else if (ch == 't')
            only = optarg;
        else
            return 2;
    }
    printf("game %s; %.1f s per transport in rounds of %.0f ms slices: "
           "raw and server alternate per mode;\nrates are totals, ratios "
           "the medians of the per-round ratios\n",
           game, seconds, SLICE * 1000);
    printf("%-4s %-10s %8s %8s %12s %10s %10s %7s %8s %11s\n", "net", "mode",
           "req B", "rep B", "steps/s", "trips/s", "raw/s", "vs raw", "vs unb.",
           "srv us/step");
    if (!only || !strcmp(only, "tcp"))
        report("tcp", game, seconds);
    if (!only || !strcmp(only, "ipc"))
        report("ipc", game, seconds);
    return 0;
}
