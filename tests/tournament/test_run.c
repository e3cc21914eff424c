/* test_run.c — running tournaments: the records do not depend on the
 * number of workers; a run killed with SIGKILL at a random moment and then
 * resumed gives exactly the records of an uninterrupted run (nothing lost,
 * nothing played twice), with slow games or with quick ones written in
 * big batches, and gathers the same results as reading the journal back;
 * a torn last line is played again; shards merge into the unsharded
 * results; forfeits rank last; merging refuses another tournament's
 * journal; a stopped run (SIGINT) resumes to the same records; the
 * progress line's ETA is honest before the first game.
 *
 * The killed run is a forked child; the parent polls the journal's line
 * count or size (short bounded sleeps) and kills the child once it holds a
 * random number of records or bytes, so the kill lands between, or
 * during, batch writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the headers it needs */

#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "common/err.h"
#include "common/rng.h"
#include "tour_test_util.h"
#include "tournament/results.h"
#include "tournament/match.h"
#include "tournament/run.h"

#define GAME "thirty_one(players=2)"
#define AGENTS "random,pimc(samples=4,playouts=2),ismcts(iters=30)"
#define DEALS 120
#define TOTAL (DEALS * 3 * 2) /* 3 line-ups, 2 rotations */

/* ---- helpers ------------------------------------------------------------ */

static struct run_opts opts(const char *dir, int jobs)
{
    return (struct run_opts){.game = GAME,
                             .agents = AGENTS,
                             .deals = DEALS,
                             .max_lineups = 120,
                             .seed = 11,
                             .jobs = jobs,
                             .out_dir = dir,
                             .shard = 1,
                             .nshards = 1};
}

static void run_ok(const struct run_opts *o, struct run_stats *st)
{
    char err[1024];
    if (run_tournament(o, st, err, sizeof err))
        fail_msg("%s", err);
}

/* The uninterrupted reference run's records, computed once. */
static struct record_set reference;
static char ref_dir[1024];

static int group_setup(void **state)
{
    (void)state;
    struct run_stats st;
    char path[1200];
    tmp_dir(ref_dir, sizeof ref_dir);
    struct run_opts o = opts(ref_dir, 1);
    run_ok(&o, &st);
    snprintf(path, sizeof path, "%s/journal.jsonl", ref_dir);
    read_records(path, &reference);
    return st.played == TOTAL ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    rm_tree(ref_dir);
    free(reference.r);
    return 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* a (gathered by a run) equals b (read back from the journal). */
/* The results a run gathered (summed, without deals) against those
 * results_load reads from its journal (by deal): the same counts, the
 * same sums. */
static void assert_same_results(const struct results *a,
                                const struct results *b)
{
    double sa[4 * 4], ga[4 * 4], sb[4 * 4], gb[4 * 4];
    assert_true(a->n <= 4 && a->n == b->n);
    assert_null(a->pair); /* gathered without deals */
    assert_int_equal(a->games, b->games);
    assert_int_equal(a->forfeits, b->forfeits);
    assert_int_equal(a->ndeals, b->ndeals);
    results_table(a, a->ndeals, sa, ga);
    results_table(b, b->ndeals, sb, gb);
    for (int k = 0; k < a->n * a->n; k++) {
        assert_true(sa[k] == sb[k]);
        assert_true(ga[k] == gb[k]);
    }
    for (int i = 0; i < a->n; i++) {
        assert_int_equal(a->agent_games[i], b->agent_games[i]);
        assert_int_equal(a->agent_forfeits[i], b->agent_forfeits[i]);
        assert_int_equal(a->seats[i], b->seats[i]);
        assert_true(fabs(a->ret_sum[i] - b->ret_sum[i]) < 1e-9);
    }
}

/* ---- tests --------------------------------------------------------------- */

/* Three workers play the same games with the same results as one: agents
 * are reseeded from each game's deal seed and seat. */
static void test_jobs_do_not_matter(void **state)
{
    (void)state;
    char dir[1024], path[1200];
    struct record_set got = {0};
    struct run_stats st;
    tmp_dir(dir, sizeof dir);
    struct run_opts o = opts(dir, 3);
    run_ok(&o, &st);
    assert_int_equal(st.scheduled, TOTAL);
    assert_int_equal(st.played, TOTAL);
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    read_records(path, &got);
    assert_same_records(&got, &reference);
    /* Every record is a distinct game of the schedule. */
    for (int64_t i = 1; i < got.n; i++)
        assert_true(record_cmp(&got.r[i - 1], &got.r[i]) < 0);
    free(got.r);
    rm_tree(dir);
}

/* The size of the file at path; 0 if missing. */
static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) ? 0 : (long)sb.st_size;
}

/* Runs o in a child and kills it with SIGKILL once its journal holds k
 * records (bytes set: k bytes); returns whether the child was killed
 * before finishing. */
static bool kill_run_at(const struct run_opts *o, long k, bool bytes)
{
    char path[1200];
    int status;
    snprintf(path, sizeof path, "%s/journal.jsonl", o->out_dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct run_stats st;
        char err[1024];
        _exit(run_tournament(o, &st, err, sizeof err) ? 1 : 0);
    }
    /* Bounded poll: at most 60 s, every millisecond. */
    for (int t = 0; t < 60000 && (bytes ? file_size(path) < k
                                        : count_lines(path) < k + 1);
         t++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return false; /* it finished first */
        sleep_ms(1);
    }
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

/* One kill at about k records of the reference tournament. */
static bool kill_at(const char *dir, long k)
{
    struct run_opts o = opts(dir, 2);
    return kill_run_at(&o, k, false);
}

/* The seed of the kill points: new each run, so that runs cover more of
 * the journal, and printed, so that a failing run can be replayed with
 * PARLOR_KILL_SEED=N. */
static uint64_t kill_seed(void)
{
    const char *env = getenv("PARLOR_KILL_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    print_message("kill points from seed %llu (PARLOR_KILL_SEED)\n",
                  (unsigned long long)seed);
    return seed;
}

/* Kill -9 at a random number of records, resume: the journal then holds
 * exactly the reference records, each once; the resumed run played just
 * the missing ones. */
static void test_resume_after_kill(void **state)
{
    (void)state;
    struct rng rng;
    int kills = 0;
    rng_seed(&rng, kill_seed());
    for (int trial = 0; trial < 3; trial++) {
        char dir[1024], path[1200];
        struct record_set got = {0};
        struct run_stats st;
        long k = 1 + (long)rng_below(&rng, TOTAL / 2);
        tmp_dir(dir, sizeof dir);
        kills += kill_at(dir, k);
        snprintf(path, sizeof path, "%s/journal.jsonl", dir);
        long before = count_lines(path) - 1;
        struct run_opts o = opts(dir, 2);
        struct results gathered, loaded;
        const char *paths[] = {path};
        char err[256];
        o.resume = true;
        o.results = &gathered;
        run_ok(&o, &st);
        assert_int_equal(st.already, before);
        assert_int_equal(st.played, TOTAL - before);
        read_records(path, &got);
        assert_same_records(&got, &reference);
        /* The results the run gathered (records found, then played) are
         * those the journal holds. */
        assert_int_equal(results_load(&loaded, paths, 1, err, sizeof err), 0);
        assert_int_equal(gathered.games, TOTAL);
        assert_same_results(&gathered, &loaded);
        results_fini(&gathered);
        results_fini(&loaded);
        free(got.r);
        rm_tree(dir);
    }
    assert_true(kills >= 1);
}

/* Quick games (random agents, a few microseconds each) reach the journal
 * in batches of thousands: a run killed with SIGKILL at a random journal
 * size, whether between batches or in the middle of one, resumes to
 * exactly the records and results of an uninterrupted run, having played
 * just the games its journal lacked. */
static void test_resume_quick_games_after_kill(void **state)
{
    (void)state;
    char ref[1024], path[1200], err[256];
    struct record_set want = {0};
    struct run_stats st;
    struct rng rng;
    int mid_way = 0;
    struct run_opts o = opts(NULL, 1);
    o.agents = "a=random,b=random";
    o.deals = 20000;
    const int64_t total = 20000 * 2; /* one line-up, two rotations */
    tmp_dir(ref, sizeof ref);
    o.out_dir = ref;
    run_ok(&o, &st);
    assert_int_equal(st.played, total);
    snprintf(path, sizeof path, "%s/journal.jsonl", ref);
    long size = file_size(path);
    read_records(path, &want);
    assert_int_equal(want.n, total);
    rng_seed(&rng, kill_seed());
    for (int trial = 0; trial < 3; trial++) {
        char dir[1024];
        struct record_set got = {0};
        struct results gathered, loaded;
        const char *paths[] = {path};
        tmp_dir(dir, sizeof dir);
        o.out_dir = dir;
        o.jobs = 2;
        o.resume = false;
        o.results = NULL;
        bool killed =
            kill_run_at(&o, 1 + (long)rng_below(&rng, (uint32_t)size), true);
        snprintf(path, sizeof path, "%s/journal.jsonl", dir);
        long before = count_lines(path) - 1;
        before = before < 0 ? 0 : before;
        mid_way += killed && before > 0 && before < total;
        o.resume = true;
        o.results = &gathered;
        run_ok(&o, &st);
        assert_int_equal(st.already, before);
        assert_int_equal(st.played, total - before);
        read_records(path, &got);
        assert_same_records(&got, &want);
        assert_int_equal(results_load(&loaded, paths, 1, err, sizeof err), 0);
        assert_int_equal(gathered.games, total);
        assert_same_results(&gathered, &loaded);
        results_fini(&gathered);
        results_fini(&loaded);
        free(got.r);
        rm_tree(dir);
        snprintf(path, sizeof path, "%s/journal.jsonl", ref);
    }
    assert_true(mid_way >= 1);
    free(want.r);
    rm_tree(ref);
}

/* A last line cut in half (a write the crash interrupted) is dropped and
 * that one game is played again. */
static void test_resume_torn_line(void **state)
{
    (void)state;
    char dir[1024], path[1200];
    struct record_set got = {0};
    struct run_stats st;
    struct stat sb;
    tmp_dir(dir, sizeof dir);
    struct run_opts o = opts(dir, 2);
    run_ok(&o, &st);
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    stat(path, &sb);
    assert_int_equal(truncate(path, sb.st_size - 40), 0);
    o.resume = true;
    run_ok(&o, &st);
    assert_true(st.torn);
    assert_int_equal(st.already, TOTAL - 1);
    assert_int_equal(st.played, 1);
    read_records(path, &got);
    assert_same_records(&got, &reference);
    /* Resuming a finished journal plays nothing. */
    run_ok(&o, &st);
    assert_int_equal(st.played, 0);
    assert_int_equal(st.already, TOTAL);
    free(got.r);
    rm_tree(dir);
}

/* Three shards written into one directory merge into the unsharded
 * tournament: the same records, the same pairwise results per deal. */
static void test_shards_merge(void **state)
{
    (void)state;
    char dir[1024], path[1200], err[1024];
    struct record_set got = {0};
    struct run_stats st;
    int64_t played = 0;
    tmp_dir(dir, sizeof dir);
    for (int k = 1; k <= 3; k++) {
        struct run_opts o = opts(dir, 2);
        o.shard = k;
        o.nshards = 3;
        run_ok(&o, &st);
        played += st.played;
        assert_int_equal(st.played, st.scheduled);
        snprintf(path, sizeof path, "%s/journal.shard-%d-of-3.jsonl", dir, k);
        read_records(path, &got);
    }
    assert_int_equal(played, TOTAL);
    assert_same_records(&got, &reference);

    struct results *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    const char *sharded = dir, *whole = ref_dir;
    assert_int_equal(results_load(a, &sharded, 1, err, sizeof err), 0);
    assert_int_equal(results_load(b, &whole, 1, err, sizeof err), 0);
    assert_int_equal(a->journals, 3);
    assert_int_equal(a->games, TOTAL);
    assert_int_equal(a->ndeals, b->ndeals);
    assert_int_equal(a->start[a->ndeals], b->start[b->ndeals]);
    assert_memory_equal(a->pair, b->pair,
                        sizeof *a->pair * (size_t)a->start[a->ndeals]);
    /* Reading a shard twice counts its games once. */
    const char *twice[2] = {dir, path};
    results_fini(a);
    assert_int_equal(results_load(a, twice, 2, err, sizeof err), 0);
    assert_int_equal(a->games, TOTAL);
    assert_true(a->duplicates > 0);
    results_fini(a);
    results_fini(b);
    free(a);
    free(b);
    free(got.r);
    rm_tree(dir);
}

/* A journal of another tournament (other seed) does not merge. */
static void test_merge_refuses_other(void **state)
{
    (void)state;
    char dir[1024], err[1024];
    struct run_stats st;
    tmp_dir(dir, sizeof dir);
    struct run_opts o = opts(dir, 2);
    o.deals = 2;
    run_ok(&o, &st);
    struct results *r = calloc(1, sizeof *r);
    const char *paths[2] = {ref_dir, dir};
    assert_int_equal(results_load(r, paths, 2, err, sizeof err), ERR_INVAL);
    assert_non_null(strstr(err, "another tournament"));
    free(r);
    rm_tree(dir);
}

/* A seat whose agent could not be created forfeits: its side ranks last
 * whatever the returns, and the reason is kept. */
static void test_forfeit(void **state)
{
    (void)state;
    struct game g;
    struct match m;
    struct match_result r;
    char err[256];
    assert_int_equal(game_make(&g, "spoil_five(players=4,partnerships=true)",
                               err, sizeof err),
                     0);
    assert_int_equal(match_init(&m, &g), 0);
    agent_t *a[4];
    for (int s = 0; s < 4; s++)
        a[s] = agent_new("random", &g, err, sizeof err);
    /* seat 1 missing: it and its partner, seat 3, forfeit */
    assert_int_equal(match_play(&m, a, 1u << 1, "agent could not start: x", 5,
                                &r, err, sizeof err),
                     0);
    assert_int_equal(r.forfeit, (1u << 1) | (1u << 3));
    assert_string_equal(r.reason, "seat 1: agent could not start: x");
    assert_int_equal(r.rank[0], 1);
    assert_int_equal(r.rank[2], 1);
    assert_int_equal(r.rank[1], 3);
    assert_int_equal(r.rank[3], 3);
    assert_int_equal(r.length, 0);
    /* With every agent present the game ends normally. */
    assert_int_equal(match_play(&m, a, 0, "", 5, &r, err, sizeof err), 0);
    assert_int_equal(r.forfeit, 0);
    assert_true(r.length > 0);
    for (int s = 0; s < 4; s++)
        agent_destroy(&a[s]);
    match_fini(&m);
}

/* Before the run has written a game there is no rate: the ETA says it is
 * unknown instead of 0:00:00; after, it is left / rate. */
static void test_progress_text(void **state)
{
    (void)state;
    char line[160];
    run__progress_text(line, sizeof line, 0, 12, 0, 30.0);
    assert_string_equal(line, "parlor tournament: 0/12 games  ETA unknown "
                              "(no game finished yet)");
    /* resumed at 4, none of this run's yet */
    run__progress_text(line, sizeof line, 4, 12, 0, 2.0);
    assert_string_equal(line, "parlor tournament: 4/12 games  ETA unknown "
                              "(no game finished yet)");
    /* 6 of 12 done, 2 of them by this run in 4 s: 0.5/s, 6 left: 12 s */
    run__progress_text(line, sizeof line, 6, 12, 2, 4.0);
    assert_string_equal(line, "parlor tournament: 6/12 games  0.5 games/s  "
                              "ETA 0:00:12");
    /* 3,725 games left at 1 a second: 1 h 2 min 5 s */
    run__progress_text(line, sizeof line, 275, 4000, 100, 100.0);
    assert_string_equal(line, "parlor tournament: 275/4000 games  1.0 "
                              "games/s  ETA 1:02:05");
    run__progress_text(line, sizeof line, 12, 12, 12, 3.0);
    assert_string_equal(line, "parlor tournament: 12/12 games  4.0 games/s  "
                              "ETA 0:00:00");
}

/* A game may run exactly max_length steps: one step more is a bug in the
 * game, reported with the deal's seed, not a result. The bound is found
 * from a real game's length L, so both sides of it are tried. */
static void test_match_bounds_length(void **state)
{
    (void)state;
    struct game g;
    struct match m;
    struct match_result r;
    char err[256];
    assert_int_equal(game_make(&g, GAME, err, sizeof err), 0);
    agent_t *a[2] = {agent_new("random", &g, err, sizeof err),
                     agent_new("random", &g, err, sizeof err)};
    assert_int_equal(match_init(&m, &g), 0);
    /* written every move: on cache lines of their own (see mem.h) */
    assert_int_equal((uintptr_t)m.st % 64, 0);
    assert_int_equal((uintptr_t)m.moves % 64, 0);
    assert_int_equal(match_play(&m, a, 0, "", 5, &r, err, sizeof err), 0);
    int length = r.length;
    assert_true(length > 1);
    g.dims.max_length = length; /* the match keeps a pointer to g */
    assert_int_equal(match_play(&m, a, 0, "", 5, &r, err, sizeof err), 0);
    assert_int_equal(r.length, length);
    assert_int_equal(r.nmoves, length);
    g.dims.max_length = length - 1;
    assert_int_equal(match_play(&m, a, 0, "", 5, &r, err, sizeof err),
                     ERR_STATE);
    char want[64];
    snprintf(want, sizeof want, "runs past max_length %d", length - 1);
    assert_non_null(strstr(err, want));
    for (int s = 0; s < 2; s++)
        agent_destroy(&a[s]);
    match_fini(&m);
}

/* The game's own init, counted, failing for seed 7 (see below). */
static const struct game_def *real_def;
static int inits;

static int counted_init(const struct game *g, void *st, uint64_t seed,
                        const uint8_t *deck, int ndeck)
{
    inits++;
    if (seed == 7)
        return ERR_INVAL;
    return real_def->init(g, st, seed, deck, ndeck);
}

/* Plays seed on m and checks what it played against want (NULL: keeps
 * it there instead). */
static void play_seed(struct match *m, agent_t **a, uint64_t seed,
                      struct match_result *want, int *want_moves)
{
    struct match_result r;
    char err[256];
    assert_int_equal(match_play(m, a, 0, "", seed, &r, err, sizeof err), 0);
    if (!want->length) {
        *want = r;
        memcpy(want_moves, r.moves, sizeof *r.moves * (size_t)r.nmoves);
        return;
    }
    assert_int_equal(r.length, want->length);
    assert_int_equal(r.nmoves, want->nmoves);
    assert_memory_equal(r.moves, want_moves,
                        sizeof *r.moves * (size_t)r.nmoves);
    assert_memory_equal(r.ret, want->ret, sizeof *r.ret * 2); /* 2 seats */
}

/* A deal played again (the next seating of a tournament) is not dealt
 * again: the state init gave is kept and copied back, so init runs once a
 * seed in a row. Replayed, the game is the same move for move; another
 * seed in between deals afresh, and a deal whose init failed is not kept. */
static void test_match_deals_each_seed_once(void **state)
{
    (void)state;
    struct game g;
    struct match m;
    struct match_result r, first = {0}, other = {0};
    char err[256];
    assert_int_equal(game_make(&g, GAME, err, sizeof err), 0);
    struct game_def counted = *g.def;
    real_def = g.def;
    counted.init = counted_init;
    g.def = &counted;
    inits = 0;
    agent_t *a[2] = {agent_new("random", &g, err, sizeof err),
                     agent_new("random", &g, err, sizeof err)};
    int *first_moves = calloc((size_t)(g.dims.max_length * g.dims.players), sizeof(int));
    int *other_moves = calloc((size_t)(g.dims.max_length * g.dims.players), sizeof(int));
    assert_non_null(first_moves);
    assert_non_null(other_moves);
    assert_int_equal(match_init(&m, &g), 0);
    play_seed(&m, a, 5, &first, first_moves);
    assert_int_equal(inits, 1);
    assert_true(first.length > 0);
    play_seed(&m, a, 5, &first, first_moves); /* the next seating */
    play_seed(&m, a, 5, &first, first_moves);
    assert_int_equal(inits, 1);
    play_seed(&m, a, 6, &other, other_moves);
    assert_int_equal(inits, 2);
    play_seed(&m, a, 5, &first, first_moves); /* dealt afresh, the same */
    assert_int_equal(inits, 3);
    for (int i = 1; i <= 2; i++) { /* a failed deal is tried again */
        assert_int_equal(match_play(&m, a, 0, "", 7, &r, err, sizeof err),
                         ERR_STATE);
        assert_int_equal(inits, 3 + i);
    }
    play_seed(&m, a, 6, &other, other_moves);
    assert_int_equal(inits, 6);
    for (int s = 0; s < 2; s++)
        agent_destroy(&a[s]);
    match_fini(&m);
    free(first_moves);
    free(other_moves);
}

/* An agent that answers the first legal action until its shared count of
 * answers reaches fail_at, and fails there (as a bot that breaks off). */
struct failing {
    int asked, fail_at;
};

static int failing_act(void *self, const struct game *g, const void *st,
                       int seat, int *action)
{
    struct failing *f = self;
    int list[256];
    assert_true(g->dims.max_legal <= 256);
    if (++f->asked == f->fail_at)
        return ERR_PROTO;
    assert_true(g->def->legal(g, st, seat, list) > 0);
    *action = list[0];
    return 0;
}

static const struct agent_def failing_def = {
    .name = "failing",
    .api_version = AGENT_API_VERSION,
    .act = failing_act,
};

/* A game given up by a failing agent counts the steps applied before it:
 * the step whose agent failed was never applied (a replay of the journal
 * plays exactly that many). */
static void test_forfeit_counts_applied_steps(void **state)
{
    (void)state;
    struct game g;
    struct match m;
    struct match_result r;
    char err[256];
    assert_int_equal(game_make(&g, GAME, err, sizeof err), 0);
    struct failing f = {0, 5};
    agent_t a = {.def = &failing_def, .self = &f, .game = g};
    agent_t *seats[2] = {&a, &a};
    assert_int_equal(match_init(&m, &g), 0);
    assert_int_equal(match_play(&m, seats, 0, "", 5, &r, err, sizeof err), 0);
    assert_int_equal(f.asked, 5);
    assert_int_equal(r.length, 4);
    assert_int_equal(r.nmoves, 4);
    assert_int_not_equal(r.forfeit, 0);
    match_fini(&m);
}

/* A match whose stop flag is set gives up before its next move. */
static void test_match_stops_between_moves(void **state)
{
    (void)state;
    struct game g;
    struct match m;
    struct match_result r;
    char err[256];
    atomic_bool stop;
    atomic_init(&stop, false);
    assert_int_equal(game_make(&g, GAME, err, sizeof err), 0);
    assert_int_equal(match_init(&m, &g), 0);
    assert_null(m.stop);
    agent_t *a[2] = {agent_new("random", &g, err, sizeof err),
                     agent_new("random", &g, err, sizeof err)};
    m.stop = &stop;
    assert_int_equal(match_play(&m, a, 0, "", 5, &r, err, sizeof err), 0);
    assert_true(r.length > 0);
    atomic_store(&stop, true);
    assert_int_equal(match_play(&m, a, 0, "", 5, &r, err, sizeof err),
                     ERR_INTERRUPTED);
    for (int s = 0; s < 2; s++)
        agent_destroy(&a[s]);
    match_fini(&m);
}

/* A run told to stop (as by SIGINT) returns ERR_INTERRUPTED with a whole
 * journal, and resuming it gives exactly the uninterrupted run's
 * records. */
static void test_interrupted_run_resumes(void **state)
{
    (void)state;
    char dir[1024], path[1200], err[1024];
    struct record_set got = {0};
    struct run_stats st;
    volatile sig_atomic_t stop = SIGINT;
    tmp_dir(dir, sizeof dir);
    struct run_opts o = opts(dir, 2);
    o.interrupt = &stop;
    assert_int_equal(run_tournament(&o, &st, err, sizeof err),
                     ERR_INTERRUPTED);
    assert_true(st.played < TOTAL);
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    assert_int_equal(count_lines(path) - 1, st.played);
    stop = 0;
    o.resume = true;
    run_ok(&o, &st);
    assert_int_equal(st.already + st.played, TOTAL);
    read_records(path, &got);
    assert_same_records(&got, &reference);
    free(got.r);
    rm_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobs_do_not_matter),
        cmocka_unit_test(test_resume_after_kill),
        cmocka_unit_test(test_resume_quick_games_after_kill),
        cmocka_unit_test(test_resume_torn_line),
        cmocka_unit_test(test_shards_merge),
        cmocka_unit_test(test_merge_refuses_other),
        cmocka_unit_test(test_forfeit),
        cmocka_unit_test(test_progress_text),
        cmocka_unit_test(test_match_bounds_length),
        cmocka_unit_test(test_match_deals_each_seed_once),
        cmocka_unit_test(test_forfeit_counts_applied_steps),
        cmocka_unit_test(test_match_stops_between_moves),
        cmocka_unit_test(test_interrupted_run_resumes),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
