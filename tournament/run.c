/* run.c — worker threads, the journal writer and the progress line; see
 * run.h. Each worker packs its finished games (a fixed part, the moves,
 * a forfeit's reason: memcpy only) into a buffer of its own, and hands
 * them over in batches (HAND_GAMES quick games, or HAND_US of them) into
 * a second buffer, guarded by its own mutex, which only the writer also
 * takes (once a tick, to swap the buffer for an empty one): a batch costs
 * one uncontended lock, not a game (the lock's atomic instructions wait
 * for the game's packed bytes to be stored: 3 % of a random game). The
 * writer formats the journal lines and gathers the results, off the
 * workers' path (with one job, beside the worker).
 * run.mu guards workers_left, urgent and the first error; next and stop
 * are atomics read without it. A worker never holds its own mutex while
 * taking run.mu, nor the reverse. */
#include "run.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../agents/arena.h"
#include "../common/err.h"
#include "../common/mem.h"
#include "results.h"
#include "schedule.h"

#define TICK_MS 50                 /* longest a finished game waits */
#define QUEUE_FLUSH (1u << 20)     /* a worker's bytes that wake the writer */
#define QUEUE_BUDGET (64u << 20)   /* bytes all workers may hold back */
#define QUEUE_LIMIT_MIN (4u << 20) /* a worker's limit, at least */
#define CHUNK 16                   /* indexes claimed at once, quick games */
#define QUICK_US 200               /* a game this short is quick */
#define HAND_GAMES 64              /* games a worker hands over at once */
#define HAND_US 2000               /* .. or those of this long, at most */
#define TEXT_FLUSH (128u << 10)    /* journal bytes the writer writes at once */
#define PREFETCH_AHEAD 1024        /* packed bytes the writer reads ahead */

/* ---- types ------------------------------------------------------------- */

struct worker;

/* The state every thread shares. */
struct run {
    const struct run_opts *o;   /* the options */
    struct game g;              /* the game */
    struct roster roster;       /* the agents */
    struct arena *arena;        /* for bot:NAME agents; NULL: none */
    struct schedule sched;      /* the games */
    struct schedule_cursor cur; /* for checking resumed records */
    struct journal_header h;    /* the journal's identity */
    struct journal_writer w;    /* the journal */
    struct results_builder rb;  /* gathers o->results; the writer's */
    uint8_t *done;              /* bit per game index: in the journal */
    atomic_bool started[ROSTER_MAX]; /* agent got going in this run */
    bool warned[ROSTER_MAX];    /* its first forfeit reported (writer's) */
    char warn[2048];            /* reports the writer prints (writer's) */
    size_t warn_len;            /* bytes in warn */
    struct worker *wk;          /* the workers; NULL before they exist */
    int nwk;                    /* how many */
    atomic_llong next;          /* next game index to claim */
    atomic_bool stop;           /* an error happened: stop playing */
    pthread_mutex_t mu;         /* guards what follows */
    pthread_cond_t wake;        /* the writer has work */
    bool urgent;                /* a worker's buffer passed QUEUE_FLUSH */
    int workers_left;           /* workers still running */
    int error;                  /* first error; 0: none */
    char errmsg[1024];          /* its message */
};

/* A growing buffer of packed games, or of journal lines. */
struct lines {
    char *buf;     /* the bytes */
    size_t len;    /* bytes used */
    size_t cap;    /* bytes allocated */
    int64_t count; /* games */
};

/* A finished game as a worker packs it: this, then the returns (double,
 * one a seat), the moves (int), the seats' agents and ranks (int8_t each)
 * and the forfeit's reason, padded to 8 bytes. The ranks match_play
 * worked out travel with the game: the writer does not work them out
 * again. */
struct packed {
    int64_t deal;                 /* the record's fields, as in */
    uint64_t seed;                /* struct journal_record */
    int64_t wall_us;              /* .. */
    int32_t lineup, rotation;     /* .. */
    int32_t length, nmoves;       /* .. */
    uint32_t forfeit, reason_len; /* .. */
    int32_t culprit, unused;      /* .. (the seat reason is about) */
};

/* One worker thread's own things. */
struct worker {
    struct run *run;                             /* shared state */
    pthread_t tid;                               /* the thread */
    struct match m;                              /* state, buffers */
    struct schedule_cursor cur;                  /* sampled line-ups */
    agent_t *inst[ROSTER_MAX][GAME_MAX_PLAYERS]; /* agent, copy -> it */
    int64_t next, end;                           /* claimed indexes left */
    size_t limit;                                /* bytes that hold it back */
    bool quick;                                  /* the last game was */
    pthread_mutex_t mu;                          /* guards out */
    pthread_cond_t space;                        /* out was taken */
    struct lines mine;                           /* games not handed over */
    int64_t handed_us;                           /* when mine last was */
    int64_t hand_at;                             /* games in mine that
                                                  * are handed over */
    struct lines out;                            /* games not yet taken */
    struct lines spare;                          /* the writer's, swapped */
};

/* ---- shared state ------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wakes the workers waiting for their buffers to be taken. */
static void wake_workers(struct run *run)
{
    for (int i = 0; i < run->nwk; i++) {
        pthread_mutex_lock(&run->wk[i].mu);
        pthread_cond_broadcast(&run->wk[i].space);
        pthread_mutex_unlock(&run->wk[i].mu);
    }
}

/* Records the first error and stops everyone. Called without any lock. */
static void fail(struct run *run, int code, const char *msg)
{
    pthread_mutex_lock(&run->mu);
    if (!run->error) {
        run->error = code;
        snprintf(run->errmsg, sizeof run->errmsg, "%s", msg);
    }
    atomic_store(&run->stop, true);
    pthread_cond_signal(&run->wake);
    pthread_mutex_unlock(&run->mu);
    wake_workers(run);
}

static bool is_done(const struct run *run, int64_t i)
{
    return (run->done[i >> 3] >> (i & 7)) & 1;
}

/* Makes room for n more bytes. Returns false when out of memory. */
static bool lines_room(struct lines *l, size_t n)
{
    size_t want = l->len + n;
    if (want <= l->cap)
        return true;
    size_t cap = want > 2 * l->cap ? want : 2 * l->cap;
    char *p = mem_realloc(l->buf, cap);
    if (!p)
        return false;
    l->buf = p;
    l->cap = cap;
    return true;
}

/* Bytes a packed game takes. */
static size_t packed_size(int seats, int nmoves, size_t reason_len)
{
    size_t n = sizeof(struct packed) + (sizeof(double) + 2) * (size_t)seats +
               sizeof(int) * (size_t)nmoves + reason_len;
    return (n + 7) & ~(size_t)7;
}

/* Packs one game's record of a seats-seat game into l, which has room. */
static void pack(struct lines *l, int seats, const struct journal_record *r,
                 size_t reason_len)
{
    struct packed p = {r->deal,        r->seed,        r->res.wall_us,
                       r->lineup,      r->rotation,    r->res.length,
                       r->res.nmoves,  r->res.forfeit, (uint32_t)reason_len,
                       r->res.culprit, 0};
    char *at = l->buf + l->len;
    size_t moves = sizeof(int) * (size_t)p.nmoves;
    memcpy(at, &p, sizeof p);
    at += sizeof p;
    /* The seats' few values one by one: a call to memcpy for each short
     * field cost more than the copying. */
    for (int s = 0; s < seats; s++, at += sizeof(double))
        memcpy(at, &r->res.ret[s], sizeof(double));
    if (moves)
        memcpy(at, r->res.moves, moves);
    at += moves;
    for (int s = 0; s < seats; s++) {
        at[s] = (char)r->agent[s];
        at[seats + s] = (char)r->res.rank[s]; /* 1 to seats */
    }
    if (reason_len)
        memcpy(at + 2 * seats, r->res.reason, reason_len);
    l->len += packed_size(seats, p.nmoves, reason_len);
    l->count++;
}

/* Unpacks the game of a seats-seat game at at into r (moves borrowed from
 * at; entries past the seats left as they were); returns the bytes it
 * took. */
static size_t unpack(const char *at, int seats, struct journal_record *r)
{
    struct packed p;
    memcpy(&p, at, sizeof p);
    r->moves = NULL; /* the reader's fields */
    r->moves_len = 0;
    r->digits = 0;
    r->deal = p.deal;
    r->seed = p.seed;
    r->lineup = p.lineup;
    r->rotation = p.rotation;
    r->res.length = p.length;
    r->res.wall_us = p.wall_us;
    r->res.forfeit = p.forfeit;
    r->res.culprit = p.culprit;
    r->res.nmoves = p.nmoves;
    const char *q = at + sizeof p;
    for (int s = 0; s < seats; s++, q += sizeof(double))
        memcpy(&r->res.ret[s], q, sizeof(double));
    r->res.moves = (const int *)(const void *)q; /* 8-byte aligned */
    q += sizeof(int) * (size_t)p.nmoves;
    for (int s = 0; s < seats; s++) {
        r->agent[s] = (int8_t)q[s];
        r->res.rank[s] = (signed char)q[seats + s];
    }
    if (p.reason_len)
        memcpy(r->res.reason, q + 2 * seats, p.reason_len);
    r->res.reason[p.reason_len] = '\0';
    return packed_size(seats, p.nmoves, p.reason_len);
}

/* Hands the worker's packed games over to the writer, waiting while its
 * buffer is over the limit; wakes the writer early when that buffer
 * passes QUEUE_FLUSH (once: the writer's urgent flag stays set). Unless
 * now is set, games are not appended to a buffer the writer has not
 * taken yet: they stay in the worker's own, which changes places with
 * the writer's once that is taken (appending copied every quick game a
 * second time), or is appended when it passes QUEUE_FLUSH. */
static int hand_over(struct worker *wk, bool now, char *err, size_t errlen)
{
    struct run *run = wk->run;
    struct lines *l = &wk->out, *mine = &wk->mine;
    bool ok = true, urgent = false;
    if (!mine->count)
        return 0;
    pthread_mutex_lock(&wk->mu);
    if (l->len && !now && mine->len < QUEUE_FLUSH) {
        pthread_mutex_unlock(&wk->mu);
        wk->hand_at = mine->count + HAND_GAMES; /* try again later */
        wk->handed_us = wk->m.clock_us;
        return 0;
    }
    while (l->len >= wk->limit && !atomic_load(&run->stop))
        pthread_cond_wait(&wk->space, &wk->mu);
    size_t before = l->len;
    if (!l->len) { /* the usual case: the buffers change places */
        struct lines empty = *l;
        *l = *mine;
        *mine = empty;
    } else if ((ok = lines_room(l, mine->len))) {
        memcpy(l->buf + l->len, mine->buf, mine->len);
        l->len += mine->len;
        l->count += mine->count;
    }
    urgent = ok && l->len >= QUEUE_FLUSH && before < QUEUE_FLUSH;
    pthread_mutex_unlock(&wk->mu);
    mine->len = 0;
    mine->count = 0;
    wk->hand_at = HAND_GAMES;
    wk->handed_us = wk->m.clock_us;
    if (!ok)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    if (urgent) {
        pthread_mutex_lock(&run->mu);
        run->urgent = true;
        pthread_cond_signal(&run->wake);
        pthread_mutex_unlock(&run->mu);
    }
    return 0;
}

/* Packs one game's record into the worker's own buffer; offers the games
 * there to the writer after HAND_GAMES of them, or once HAND_US have
 * passed since the last offer (hands them over at once after a game that
 * is not quick). */
static int put_game(struct worker *wk, const struct journal_record *rec,
                    char *err, size_t errlen)
{
    struct lines *mine = &wk->mine;
    size_t reason_len = rec->res.forfeit ? strlen(rec->res.reason) : 0;
    int seats = wk->run->g.dims.players;
    size_t n = packed_size(seats, rec->res.nmoves, reason_len);
    if (!lines_room(mine, n))
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    pack(mine, seats, rec, reason_len);
    if (!wk->quick) /* the writer gets it without delay */
        return hand_over(wk, true, err, errlen);
    if (mine->count >= wk->hand_at ||
        wk->m.clock_us - wk->handed_us >= HAND_US)
        return hand_over(wk, false, err, errlen);
    return 0;
}

/* ---- workers ----------------------------------------------------------- */

/* Which copy of its agent seat s holds: how many seats before it hold
 * the same agent (a walk over the few seats, where a count per roster
 * entry cost a clearing of ROSTER_MAX counters a game). */
static int copy_of(const struct schedule_game *sg, int s)
{
    int c = 0;
    for (int t = 0; t < s; t++)
        c += sg->agent[t] == sg->agent[s];
    return c;
}

/* Seats the game's agents, creating missing instances; a seat whose agent
 * cannot be created is marked in *missing with the reason in why. */
static void seat_agents(struct worker *wk, const struct schedule_game *sg,
                        agent_t **seat, uint32_t *missing, char *why,
                        size_t whylen)
{
    struct run *run = wk->run;
    char sub[768];
    *missing = 0;
    for (int s = 0; s < run->g.dims.players; s++) {
        int a = sg->agent[s];
        agent_t **slot = &wk->inst[a][copy_of(sg, s)];
        if (!*slot) {
            *slot = agent_new_at(run->roster.a[a].spec, &run->g, run->arena,
                                 sub, sizeof sub);
            wk->m.clock_us = 0; /* the game's time starts after this */
        }
        if (!*slot && !*missing)
            snprintf(why, whylen, "agent could not start: %.200s", sub);
        *missing |= *slot ? 0 : 1u << s;
        seat[s] = *slot;
    }
}

/* An agent that forfeited starts afresh next game (a bot that hung or
 * crashed gets a new process). */
static void drop_forfeiters(struct worker *wk, const struct schedule_game *sg,
                            uint32_t forfeit)
{
    for (int s = 0; s < wk->run->g.dims.players; s++)
        if ((forfeit >> s) & 1)
            agent_destroy(&wk->inst[sg->agent[s]][copy_of(sg, s)]);
}

/* The agent of a seat in r that never got going, if no instance of it
 * has got going in this run either; -1 when there is none. */
static int never_started(struct run *run, const struct schedule_game *sg,
                         const struct match_result *r)
{
    for (uint32_t s = r->never_started; s; s &= s - 1) {
        int a = sg->agent[__builtin_ctz(s)];
        if (!atomic_load_explicit(&run->started[a], memory_order_relaxed))
            return a;
    }
    return -1;
}

/* Notes the agents of the game's seats that have got going (a bot that
 * said hello, any built-in agent), whether or not they forfeited since.
 * Read before written: the flags stay shared, not bounced, between
 * workers. */
static void mark_started(struct run *run, const struct schedule_game *sg,
                         agent_t *const *seat)
{
    for (int s = 0; s < run->g.dims.players; s++) {
        bool never;
        atomic_bool *f = &run->started[sg->agent[s]];
        if (!seat[s] || atomic_load_explicit(f, memory_order_relaxed))
            continue;
        agent_failure(seat[s], &never);
        if (!never)
            atomic_store_explicit(f, true, memory_order_relaxed);
    }
}

/* Plays game index and packs its record. A game in which an agent that
 * has not yet got going in this run cannot start (a command that is not
 * there, a bot that dies before its hello) is played again with a fresh
 * instance, up to RUN_START_TRIES times; then the run stops rather than
 * fill the journal with forfeits nobody played. */
static int play_one(struct worker *wk, int64_t index, char *err, size_t errlen)
{
    struct run *run = wk->run;
    struct schedule_game sg;
    struct journal_record rec;
    agent_t *seat[GAME_MAX_PLAYERS];
    char why[MATCH_REASON_MAX];
    uint32_t missing;
    why[0] = '\0'; /* not the whole buffer: it is rarely written */
    schedule_game(&run->sched, &wk->cur, index, &sg);
    for (int tries = 1;; tries++) {
        seat_agents(wk, &sg, seat, &missing, why, sizeof why);
        int rc = match_play(&wk->m, seat, missing, why, sg.seed, &rec.res,
                            err, errlen);
        if (rc)
            return rc;
        mark_started(run, &sg, seat);
        if (rec.res.forfeit)
            drop_forfeiters(wk, &sg, rec.res.forfeit);
        int a = never_started(run, &sg, &rec.res);
        if (a < 0)
            break;
        if (tries == RUN_START_TRIES)
            return err_set(err, errlen, ERR_STATE,
                           "agent %s could not start (%d tries on deal "
                           "%lld): %s. Nothing was recorded for those "
                           "tries; check that it runs by hand, then run "
                           "again (--resume keeps what is done)",
                           run->roster.a[a].name, tries, (long long)sg.deal,
                           rec.res.reason);
    }
    wk->quick = rec.res.wall_us < QUICK_US;
    rec.deal = sg.deal;
    rec.lineup = sg.lineup;
    rec.rotation = sg.rotation;
    rec.seed = sg.seed;
    memcpy(rec.agent, sg.agent, sizeof rec.agent);
    return put_game(wk, &rec, err, errlen);
}

/* The next game index for wk, or -1 when none is left. Quick games are
 * claimed CHUNK at a time: one shared counter bumped per game costs more
 * than a random game's moves when two workers bounce its cache line. */
static int64_t claim(struct worker *wk)
{
    struct run *run = wk->run;
    if (wk->next == wk->end) {
        int64_t c = wk->quick ? CHUNK : 1;
        wk->next = atomic_fetch_add(&run->next, c);
        wk->end = wk->next + c;
        wk->end = wk->end < run->sched.games ? wk->end : run->sched.games;
    }
    return wk->next < wk->end && !atomic_load(&run->stop) ? wk->next++ : -1;
}

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    struct run *run = wk->run;
    const struct run_opts *o = run->o;
    char err[1024];
    int64_t i;
    while ((i = claim(wk)) >= 0) {
        if (!schedule_in_shard(&run->sched, i, o->shard, o->nshards) ||
            is_done(run, i))
            continue;
        int rc = play_one(wk, i, err, sizeof err);
        if (rc)
            fail(run, rc, err);
    }
    /* What is finished is written, after an error or signal too. */
    int rc = hand_over(wk, true, err, sizeof err);
    if (rc)
        fail(run, rc, err);
    /* Agents end in the thread that made them: a spawned bot is told
     * goodbye before this thread's exit kills it (remote.h). */
    for (int a = 0; a < ROSTER_MAX; a++)
        for (int c = 0; c < GAME_MAX_PLAYERS; c++)
            agent_destroy(&wk->inst[a][c]);
    pthread_mutex_lock(&run->mu);
    run->workers_left--;
    pthread_cond_signal(&run->wake);
    pthread_mutex_unlock(&run->mu);
    return NULL;
}

static int worker_init(struct worker *wk, struct run *run)
{
    memset(wk, 0, sizeof *wk);
    wk->run = run;
    wk->quick = true;
    wk->hand_at = HAND_GAMES;
    /* A disk that stalls for a moment (a slow fdatasync) should not stop
     * the workers: each may run ahead by its share of the budget. */
    wk->limit = QUEUE_BUDGET / (size_t)run->o->jobs;
    wk->limit = wk->limit > QUEUE_LIMIT_MIN ? wk->limit : QUEUE_LIMIT_MIN;
    if (pthread_mutex_init(&wk->mu, NULL))
        return ERR_NOMEM;
    if (pthread_cond_init(&wk->space, NULL)) {
        pthread_mutex_destroy(&wk->mu);
        return ERR_NOMEM;
    }
    int rc = match_init(&wk->m, &run->g);
    wk->m.stop = &run->stop; /* games in play end on an error or signal */
    return rc ? rc : schedule_cursor_init(&wk->cur, &run->sched);
}

static void worker_fini(struct worker *wk)
{
    for (int a = 0; a < ROSTER_MAX; a++) /* a worker that never started */
        for (int c = 0; c < GAME_MAX_PLAYERS; c++)
            agent_destroy(&wk->inst[a][c]);
    schedule_cursor_fini(&wk->cur);
    match_fini(&wk->m);
    mem_free(wk->mine.buf);
    mem_free(wk->out.buf);
    mem_free(wk->spare.buf);
    pthread_cond_destroy(&wk->space);
    pthread_mutex_destroy(&wk->mu);
}

/* ---- the writer and the progress line ---------------------------------- */

/* Where the run stands, for the progress line. */
struct progress {
    FILE *out;       /* NULL: no progress line */
    bool tty;        /* redraw in place */
    double t0, last; /* start, last drawn */
    int64_t total;   /* games of the shard */
    int64_t before;  /* done before this run */
    int64_t written; /* written by this run */
};

size_t run__progress_text(char *buf, size_t len, int64_t done, int64_t total,
                          int64_t written, double elapsed)
{
    double rate = elapsed > 0 ? (double)written / elapsed : 0;
    int64_t left = total - done;
    int n;
    if (left > 0 && rate <= 0) /* nothing finished yet: no rate to go by */
        n = snprintf(buf, len,
                     "parlor tournament: %lld/%lld games  ETA unknown (no "
                     "game finished yet)",
                     (long long)done, (long long)total);
    else {
        double eta = left > 0 ? (double)left / rate : 0;
        n = snprintf(buf, len,
                     "parlor tournament: %lld/%lld games  %.1f games/s  "
                     "ETA %d:%02d:%02d",
                     (long long)done, (long long)total, rate,
                     (int)(eta / 3600), (int)(eta / 60) % 60, (int)eta % 60);
    }
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static void progress_draw(struct progress *p, bool final)
{
    double t = now_s();
    char line[160];
    if (!p->out || (!final && t - p->last < (p->tty ? 0.25 : 10)))
        return;
    p->last = t;
    run__progress_text(line, sizeof line, p->before + p->written, p->total,
                       p->written, t - p->t0);
    /* On a terminal the line is redrawn in place; "\033[K" clears what a
     * longer line left behind. */
    fprintf(p->out, "%s%s%s", p->tty ? "\r" : "", line,
            p->tty && !final ? "\033[K" : "\n");
    fflush(p->out);
}

/* Prints the forfeit reports the workers left (taken under the lock). */
static void print_warnings(struct run *run, struct progress *p, char *text)
{
    if (!text[0])
        return;
    FILE *f = run->o->warnings ? run->o->warnings : stderr;
    if (p->tty && f == p->out)
        fputs("\r\033[K", f); /* over the progress line */
    fputs(text, f);
    fflush(f);
    p->last = 0; /* redraw the progress line below */
}

/* Waits a tick, or less when woken; returns whether workers still run.
 * A false return comes after the last worker left, so one more sweep of
 * their buffers takes everything. */
static bool wait_tick(struct run *run)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += TICK_MS * 1000000L;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&run->mu);
    if (run->workers_left > 0 && !run->urgent)
        pthread_cond_timedwait(&run->wake, &run->mu, &ts);
    run->urgent = false;
    bool more = run->workers_left > 0;
    pthread_mutex_unlock(&run->mu);
    return more;
}

/* Keeps the report of an agent's first forfeit for the writer to print. */
static void note_forfeit(struct run *run, const struct journal_record *rec)
{
    int a = rec->res.forfeit ? rec->agent[rec->res.culprit] : -1;
    if (a < 0 || run->warned[a])
        return;
    run->warned[a] = true;
    size_t room = sizeof run->warn - run->warn_len;
    int n = snprintf(run->warn + run->warn_len, room,
                     "parlor tournament: warning: %s forfeited deal %lld: "
                     "%s (its further forfeits are counted in the "
                     "results)\n",
                     run->roster.a[a].name, (long long)rec->deal,
                     rec->res.reason);
    if (n > 0 && (size_t)n < room)
        run->warn_len += (size_t)n;
    else
        run->warn[run->warn_len] = '\0'; /* no room: dropped */
}

/* Formats the packed games of in as journal lines into text, adding
 * them to the results if asked for, and writes them to the journal every
 * TEXT_FLUSH bytes: the write() copies the lines while they are still in
 * the cache (a tick's worth of lines is megabytes). Returns 0, or
 * ERR_RANGE / ERR_NOMEM / ERR_IO with a message in err. */
static int write_games(struct run *run, const struct lines *in,
                       struct lines *text, char *err, size_t errlen)
{
    struct journal_record rec = {0};
    int rc = 0;
    size_t ahead = 0; /* bytes of in asked for so far */
    text->len = 0;
    for (size_t at = 0; at < in->len && !rc;) {
        /* The games were packed on another core: ask for every line of
         * the bytes a few games on while this one is formatted (their
         * first read was a tenth of the writer's time; asking for one
         * line a game left two in three of a Thirty-One game's lines
         * to be missed). */
        for (; ahead < in->len && ahead < at + PREFETCH_AHEAD; ahead += 64)
            __builtin_prefetch(in->buf + ahead);
        at += unpack(in->buf + at, run->g.dims.players, &rec);
        note_forfeit(run, &rec);
        rc = run->o->results
                 ? results_add(&run->rb, &run->h, &rec, err, errlen)
                 : 0;
        size_t n = 0;
        if (!rc && lines_room(text, 4096))
            n = journal_format(&run->w, &run->h, &rec, text->buf + text->len,
                               text->cap - text->len);
        if (!rc && !n && lines_room(text, JOURNAL_RECORD_MAX))
            n = journal_format(&run->w, &run->h, &rec, text->buf + text->len,
                               text->cap - text->len);
        if (!rc && !n)
            rc = err_set(err, errlen, ERR_RANGE,
                         "a record is too long, or out of memory");
        text->len += n;
        if (!rc && (text->len >= TEXT_FLUSH || at >= in->len)) {
            rc = journal_write(&run->w, text->buf, text->len, err, errlen);
            text->len = 0;
        }
    }
    return rc;
}

/* Takes every worker's games (swapping in its spare buffer), writes them
 * as lines (text is the writer's buffer) with one fdatasync. Returns the
 * games written, or -1 after an error (reported through fail). */
static int64_t sweep(struct run *run, struct lines *text)
{
    char err[1024];
    int64_t games = 0;
    int rc = 0;
    for (int i = 0; i < run->nwk; i++) {
        struct worker *wk = &run->wk[i];
        struct lines taken;
        pthread_mutex_lock(&wk->mu);
        taken = wk->out;
        wk->out = wk->spare;
        wk->out.len = 0;
        wk->out.count = 0;
        pthread_cond_broadcast(&wk->space);
        pthread_mutex_unlock(&wk->mu);
        if (taken.len && !rc)
            rc = write_games(run, &taken, text, err, sizeof err);
        games += taken.count;
        wk->spare = taken; /* only the writer touches spare */
    }
    if (!rc && games)
        rc = journal_sync(&run->w, err, sizeof err);
    if (rc)
        fail(run, rc, err);
    return rc ? -1 : games;
}

/* Writes the workers' games to the journal until they are done. */
static void writer_loop(struct run *run, struct progress *p)
{
    struct lines text = {0};
    const volatile sig_atomic_t *interrupt = run->o->interrupt;
    bool more = true, asked = false;
    while (more) {
        more = wait_tick(run);
        if (interrupt && *interrupt && !asked) {
            asked = true; /* the workers stop; what they finished is kept */
            fail(run, ERR_INTERRUPTED,
                 "interrupted: the games in play were given up");
        }
        int64_t n = sweep(run, &text);
        if (n < 0)
            break; /* nothing more reaches the journal */
        p->written += n;
        print_warnings(run, p, run->warn);
        run->warn_len = 0;
        run->warn[0] = '\0';
        progress_draw(p, false);
    }
    mem_free(text.buf);
}

/* ---- setting up -------------------------------------------------------- */

int run_make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[JOURNAL_PATH_MAX];
    if (!dir[0])
        return err_set(err, errlen, ERR_INVAL, "empty directory name");
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return err_set(err, errlen, ERR_RANGE, "path too long: %s", dir);
    for (char *p = path + 1;; p++) {
        if (*p && *p != '/')
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(path, 0777) && errno != EEXIST)
            return err_set(err, errlen, ERR_IO, "%s: %s", path,
                           strerror(errno));
        if (!(*p = c))
            return 0;
    }
}

void run_header(struct journal_header *h, const struct game *g,
                const struct roster *r, const struct run_opts *o, int lineups)
{
    memset(h, 0, sizeof *h);
    h->format = JOURNAL_FORMAT;
    snprintf(h->game, sizeof h->game, "%s", g->spec);
    h->roster = *r;
    h->deals = o->deals;
    h->seed = o->seed;
    h->max_lineups = o->max_lineups;
    h->lineups = lineups;
    h->sides = g->dims.teams;
    h->seats = g->dims.players;
    memcpy(h->team, g->dims.team, sizeof h->team);
    h->games = o->deals * lineups * h->sides;
    h->shard = o->shard;
    h->nshards = o->nshards;
}

/* Resume: marks a journal record done after checking it against the
 * schedule (a journal from another version of the schedule is refused). */
static int mark_done(void *ctx, const struct journal_header *h,
                     const struct journal_record *r, char *err, size_t errlen)
{
    struct run *run = ctx;
    struct schedule_game sg;
    int64_t i = schedule_index(&run->sched, r->deal, r->lineup, r->rotation);
    schedule_game(&run->sched, &run->cur, i, &sg);
    if (memcmp(sg.agent, r->agent, (size_t)run->g.dims.players) ||
        sg.seed != r->seed)
        return err_set(err, errlen, ERR_INVAL,
                       "deal %lld line-up %d rotation %d seats other "
                       "agents than this schedule does",
                       (long long)r->deal, r->lineup, r->rotation);
    if (!schedule_in_shard(&run->sched, i, run->o->shard, run->o->nshards))
        return err_set(err, errlen, ERR_INVAL,
                       "deal %lld belongs to another shard",
                       (long long)r->deal);
    if (is_done(run, i))
        return err_set(err, errlen, ERR_INVAL,
                       "deal %lld line-up %d rotation %d is recorded twice",
                       (long long)r->deal, r->lineup, r->rotation);
    run->done[i >> 3] |= (uint8_t)(1u << (i & 7));
    return run->o->results ? results_add(&run->rb, h, r, err, errlen) : 0;
}

static int check_opts(const struct run_opts *o, char *err, size_t errlen)
{
    if (o->jobs < 1 || o->jobs > RUN_JOBS_MAX)
        return err_set(err, errlen, ERR_RANGE, "jobs must be 1 to %d, got %d",
                       RUN_JOBS_MAX, o->jobs);
    if (o->nshards < 1 || o->shard < 1 || o->shard > o->nshards)
        return err_set(err, errlen, ERR_RANGE,
                       "shard must be I/N with 1 <= I <= N, got %d/%d",
                       o->shard, o->nshards);
    if ((o->curve_secret || o->allow_dir) && !o->arena)
        return err_set(err, errlen, ERR_INVAL,
                       "--curve-secret and --allow secure the arena: give "
                       "--arena ENDPOINT too");
    if (o->allow_dir && !o->curve_secret)
        return err_set(err, errlen, ERR_INVAL,
                       "--allow needs --curve-secret FILE (the arena's key "
                       "pair, from parlor keygen)");
    return 0;
}

/* Opens the arena when asked for, or when a bot:NAME agent needs one. */
static int open_arena(struct run *run, char *err, size_t errlen)
{
    const struct run_opts *o = run->o;
    int i = 0;
    while (i < run->roster.n && strncmp(run->roster.a[i].spec,
                                        ARENA_BOT_PREFIX,
                                        strlen(ARENA_BOT_PREFIX)))
        i++;
    if (!o->arena && i < run->roster.n)
        return err_set(err, errlen, ERR_INVAL,
                       "agent %s is a bot that connects by itself: give "
                       "--arena ENDPOINT (e.g. tcp://0.0.0.0:5599) for it "
                       "to connect to",
                       run->roster.a[i].spec);
    if (!o->arena)
        return 0;
    struct arena_auth auth = {o->curve_secret, o->allow_dir};
    run->arena = arena_new(o->arena, run->g.spec,
                           o->bot_wait_ms > 0 ? o->bot_wait_ms : ARENA_WAIT_MS,
                           &auth, err, errlen);
    if (!run->arena)
        return ERR_IO;
    if (arena_warning(run->arena))
        fprintf(stderr, "parlor tournament: warning: %s\n",
                arena_warning(run->arena));
    if (o->progress)
        fprintf(o->progress, "parlor tournament: bots connect to %s\n",
                arena_endpoint(run->arena));
    return 0;
}

/* Everything before the threads: game, agents, schedule, journal. */
static int setup(struct run *run, struct run_stats *st, char *err,
                 size_t errlen)
{
    const struct run_opts *o = run->o;
    struct journal_read_info info;
    int rc = check_opts(o, err, errlen);
    rc = rc ? rc : game_make(&run->g, o->game, err, errlen);
    rc = rc ? rc : roster_parse(&run->roster, o->agents, &run->g, err, errlen);
    rc = rc ? rc : open_arena(run, err, errlen);
    rc = rc ? rc
            : schedule_init(&run->sched, &run->g, run->roster.n, o->deals,
                            o->max_lineups, o->seed, err, errlen);
    rc = rc ? rc : schedule_cursor_init(&run->cur, &run->sched);
    if (rc)
        return rc;
    run_header(&run->h, &run->g, &run->roster, o, run->sched.lineups);
    if (o->results) {
        memset(o->results, 0, sizeof *o->results);
        rc = results_begin(&run->rb, o->results, &run->h, false, err,
                           errlen);
        if (rc)
            return rc;
    }
    run->done = mem_alloc((size_t)(run->sched.games / 8 + 1));
    if (!run->done)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    rc = run_make_dirs(o->out_dir, err, errlen);
    if (!rc && journal_path(o->out_dir, o->shard, o->nshards, st->journal,
                            sizeof st->journal))
        rc = err_set(err, errlen, ERR_RANGE, "--out path too long");
    rc = rc ? rc
            : journal_open(&run->w, st->journal, &run->h, o->resume, mark_done,
                           run, &info, err, errlen);
    st->already = info.records;
    st->torn = info.torn;
    int64_t units = run->sched.deals * run->sched.lineups;
    st->scheduled = (units / o->nshards + (units % o->nshards >= o->shard)) *
                    run->sched.sides;
    return rc;
}

/* Prepares the workers; on failure the ones made are finished. */
static int workers_new(struct run *run)
{
    int n = run->o->jobs, made = 0, rc = 0;
    struct worker *wk = mem_alloc(sizeof *wk * (size_t)n);
    if (!wk)
        return ERR_NOMEM;
    for (; made < n && !rc; made++)
        rc = worker_init(&wk[made], run);
    if (rc) {
        for (int i = 0; i < made; i++)
            worker_fini(&wk[i]);
        mem_free(wk);
        return rc;
    }
    run->wk = wk;
    run->nwk = n;
    return 0;
}

/* Frees the workers. */
static void workers_end(struct run *run)
{
    for (int i = 0; i < run->nwk; i++)
        worker_fini(&run->wk[i]);
    mem_free(run->wk);
    run->wk = NULL;
    run->nwk = 0;
}

/* Starts the workers, writes until they are done, joins them. */
static int play(struct run *run, struct run_stats *st)
{
    const struct run_opts *o = run->o;
    struct progress p = {o->progress,
                         o->progress && isatty(fileno(o->progress)),
                         now_s(),
                         0,
                         st->scheduled,
                         st->already,
                         0};
    p.last = p.t0 - 3600; /* the first line comes at once */
    int started = 0;
    if (workers_new(run))
        return fail(run, ERR_NOMEM, "out of memory"), ERR_NOMEM;
    /* Counted before any starts: a worker with nothing to do may finish
     * before the next one is created. */
    pthread_mutex_lock(&run->mu);
    run->workers_left = o->jobs;
    pthread_mutex_unlock(&run->mu);
    for (; started < o->jobs; started++)
        if (pthread_create(&run->wk[started].tid, NULL, worker_main,
                           &run->wk[started]))
            break;
    if (started < o->jobs) {
        fail(run, ERR_NOMEM, "could not start the worker threads");
        pthread_mutex_lock(&run->mu);
        run->workers_left -= o->jobs - started;
        pthread_mutex_unlock(&run->mu);
    }
    writer_loop(run, &p);
    for (int i = 0; i < started; i++)
        pthread_join(run->wk[i].tid, NULL);
    workers_end(run);
    st->seconds = now_s() - p.t0;
    st->played = p.written;
    progress_draw(&p, true);
    return run->error;
}

static int run_init(struct run *run, const struct run_opts *o)
{
    pthread_condattr_t ca;
    memset(run, 0, sizeof *run);
    run->o = o;
    run->w.fd = -1;
    atomic_init(&run->next, 0);
    atomic_init(&run->stop, false);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_mutex_init(&run->mu, NULL) ||
             pthread_cond_init(&run->wake, &ca);
    pthread_condattr_destroy(&ca);
    return rc ? ERR_NOMEM : 0;
}

static void run_fini(struct run *run)
{
    arena_destroy(&run->arena);
    results_builder_fini(&run->rb);
    schedule_cursor_fini(&run->cur);
    schedule_fini(&run->sched);
    mem_free(run->done);
    pthread_cond_destroy(&run->wake);
    pthread_mutex_destroy(&run->mu);
}

int run_tournament(const struct run_opts *o, struct run_stats *st, char *err,
                   size_t errlen)
{
    struct run *run = mem_alloc(sizeof *run);
    memset(st, 0, sizeof *st);
    if (!run || run_init(run, o)) {
        mem_free(run);
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    }
    int rc = setup(run, st, err, errlen);
    if (!rc) {
        rc = play(run, st);
        if (rc)
            err_set(err, errlen, rc, "%s", run->errmsg);
    }
    if (!rc && o->results)
        rc = results_end(&run->rb, err, errlen);
    if (journal_close(&run->w) && !rc)
        rc = err_set(err, errlen, ERR_IO, "%s: %s", st->journal,
                     strerror(errno));
    run_fini(run);
    mem_free(run);
    return rc;
}
