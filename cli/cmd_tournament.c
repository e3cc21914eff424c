/* cmd_tournament.c — `parlor tournament`: a round-robin with duplicate
 * deals into a crash-safe journal, then a summary table.
 *
 * With --resume, options left out are taken from the journal's header, and
 * options given must match it. The summary is computed from the journal
 * itself (all of the shard's games, resumed ones included): per agent its
 * games, pairwise wins, draws and losses, score and mean return per seat.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../agents/botproc.h"
#include "../agents/remote.h"
#include "../common/err.h"
#include "../common/mem.h"
#include "../tournament/results.h"
#include "../tournament/run.h"
#include "../tournament/schedule.h"
#include "cli.h"

#define CMD "tournament"

/* The options, with room for what a journal header supplies. */
struct tour_args {
    struct run_opts o;            /* what run_tournament takes */
    bool has_deals, has_seed;     /* given on the command line */
    bool has_lineups;             /* likewise */
    char game[GAME_SPEC_MAX];     /* from the header */
    char agents[ROSTER_LIST_MAX]; /* from the header */
};

/* ---- options ----------------------------------------------------------- */

static bool parse_shard(const char *s, int *i, int *n)
{
    char tail;
    return sscanf(s, "%d/%d%c", i, n, &tail) == 2 && *n >= 1 && *i >= 1 &&
           *i <= *n;
}

/* Reads the Slurm array variable SLURM_ARRAY_TASK_<name> into *v; missing
 * (and optional) leaves *v alone. Returns 0, or CLI_USAGE when it is
 * required and missing, or not a number. */
static int slurm_var(const char *name, bool optional, int *v)
{
    char var[64];
    uint64_t x;
    snprintf(var, sizeof var, "SLURM_ARRAY_TASK_%s", name);
    const char *s = getenv(var);
    if (!s && optional)
        return 0;
    if (!s)
        return cli_usage_error(CMD,
                               "--shard auto reads SLURM_ARRAY_TASK_ID, _MIN "
                               "and _COUNT, which Slurm sets in the tasks of "
                               "a job array (sbatch --array=1-N); %s is not "
                               "set",
                               var);
    if (!cli_parse_u64(s, &x) || x > 4000000)
        return cli_usage_error(CMD,
                               "--shard auto: %s is '%s', not a whole number "
                               "from 0 to 4000000",
                               var, s);
    *v = (int)x;
    return 0;
}

/* --shard auto: this task's shard of a Slurm job array of contiguous task
 * ids (--array=A-B: shard ID-A+1 of B-A+1). Returns 0 or CLI_USAGE. */
static int shard_from_slurm(int *i, int *n)
{
    int id = 0, min = 0, count = 0, max = -1;
    int rc = slurm_var("ID", false, &id);
    rc = rc ? rc : slurm_var("MIN", false, &min);
    rc = rc ? rc : slurm_var("COUNT", false, &count);
    rc = rc ? rc : slurm_var("MAX", true, &max);
    if (rc)
        return rc;
    char maxs[16] = "(unset)";
    if (max >= 0)
        snprintf(maxs, sizeof maxs, "%d", max);
    if (count < 1 || id < min || id - min >= count ||
        (max >= 0 && max - min + 1 != count))
        return cli_usage_error(CMD,
                               "--shard auto wants a job array of contiguous "
                               "task ids (sbatch --array=1-N), but "
                               "SLURM_ARRAY_TASK_ID=%d, _MIN=%d, _COUNT=%d "
                               "and _MAX=%s do not fit together",
                               id, min, count, maxs);
    *i = id - min + 1;
    *n = count;
    return 0;
}

static int parse_number(int c, const char *arg, struct tour_args *a)
{
    uint64_t v;
    bool ok = cli_parse_u64(arg, &v);
    switch (c) {
    case 'd':
        a->has_deals = true;
        a->o.deals = (int64_t)v;
        return ok && v >= 1 && v <= (uint64_t)SCHEDULE_DEALS_MAX ? 0 : -1;
    case 'j':
        a->o.jobs = (int)v;
        return ok && v >= 1 && v <= RUN_JOBS_MAX ? 0 : -1;
    case 's':
        a->has_seed = true;
        a->o.seed = v;
        return ok ? 0 : -1;
    default:
        a->has_lineups = true;
        a->o.max_lineups = (int)v;
        return ok && v >= 1 && v <= SCHEDULE_LINEUPS_MAX ? 0 : -1;
    }
}

static const char *number_help(int c)
{
    switch (c) {
    case 'd':
        return "--deals wants a whole number from 1 to 1000000000";
    case 'j':
        return "--jobs wants a whole number from 1 to 256";
    case 's':
        return "--seed wants a whole number from 0 to 2^64-1";
    default:
        return "--lineups wants a whole number from 1 to 100000";
    }
}

/* Reads SECONDS (0.001 to 3600) into *ms. Returns 0 or -1. */
static int parse_seconds(const char *arg, int *ms)
{
    char *end;
    double sec = strtod(arg, &end);
    if (end == arg || *end || !(sec >= 0.001 && sec <= 3600))
        return -1;
    *ms = (int)(sec * 1000 + 0.5);
    return 0;
}

/* --move-time SECONDS: the external bots' per-move limit, handed to them
 * (agents/remote.h) through the environment. Returns 0 or -1. */
static int set_move_time(const char *arg)
{
    char ms[32];
    int v;
    if (parse_seconds(arg, &v))
        return -1;
    snprintf(ms, sizeof ms, "%d", v);
    return setenv(REMOTE_MOVE_ENV, ms, 1) ? -1 : 0;
}

/* --bot-memory MB / --bot-cpu SEC: limits of each spawned bot's
 * processes, handed to them (agents/botproc.h) through the environment.
 * Returns 0 or -1. */
static int set_bot_limit(const char *var, const char *arg, uint64_t max)
{
    uint64_t v;
    if (!cli_parse_u64(arg, &v) || v < 1 || v > max)
        return -1;
    return setenv(var, arg, 1) ? -1 : 0;
}

/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, struct tour_args *a)
{
    static const struct option opts[] = {
        {"game", required_argument, NULL, 'g'},
        {"agents", required_argument, NULL, 'a'},
        {"deals", required_argument, NULL, 'd'},
        {"jobs", required_argument, NULL, 'j'},
        {"out", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, 's'},
        {"lineups", required_argument, NULL, 'l'},
        {"shard", required_argument, NULL, 'S'},
        {"resume", no_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},
        {"move-time", required_argument, NULL, 'm'},
        {"arena", required_argument, NULL, 'A'},
        {"bot-wait", required_argument, NULL, 'w'},
        {"curve-secret", required_argument, NULL, 'C'},
        {"allow", required_argument, NULL, 'L'},
        {"bot-memory", required_argument, NULL, 'M'},
        {"bot-cpu", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            return cli_usage(CMD, stdout), -1;
        case 'g':
            a->o.game = optarg;
            break;
        case 'a':
            a->o.agents = optarg;
            break;
        case 'o':
            a->o.out_dir = optarg;
            break;
        case 'r':
            a->o.resume = true;
            break;
        case 'q':
            a->o.progress = NULL;
            break;
        case 'm':
            if (set_move_time(optarg))
                return cli_usage_error(CMD,
                                       "--move-time wants seconds "
                                       "from 0.001 to 3600, got '%s'",
                                       optarg);
            break;
        case 'A':
            if (cli_check_endpoint(CMD, "--arena", optarg))
                return CLI_USAGE;
            a->o.arena = optarg;
            break;
        case 'C':
            a->o.curve_secret = optarg;
            break;
        case 'L':
            a->o.allow_dir = optarg;
            break;
        case 'M':
            if (set_bot_limit(BOTPROC_MEMORY_ENV, optarg, 1u << 20))
                return cli_usage_error(CMD,
                                       "--bot-memory wants MiB from 1 to "
                                       "1048576, got '%s'",
                                       optarg);
            break;
        case 'P':
            if (set_bot_limit(BOTPROC_CPU_ENV, optarg, 86400))
                return cli_usage_error(CMD,
                                       "--bot-cpu wants seconds from 1 to "
                                       "86400, got '%s'",
                                       optarg);
            break;
        case 'w':
            if (parse_seconds(optarg, &a->o.bot_wait_ms))
                return cli_usage_error(CMD,
                                       "--bot-wait wants seconds from "
                                       "0.001 to 3600, got '%s'",
                                       optarg);
            break;
        case 'S':
            if (!strcmp(optarg, "auto")) {
                if (shard_from_slurm(&a->o.shard, &a->o.nshards))
                    return CLI_USAGE;
            } else if (!parse_shard(optarg, &a->o.shard, &a->o.nshards))
                return cli_usage_error(CMD,
                                       "--shard wants I/N with 1 <= I "
                                       "<= N, got '%s'",
                                       optarg);
            break;
        case 'd':
        case 'j':
        case 's':
        case 'l':
            if (parse_number(c, optarg, a))
                return cli_usage_error(CMD, "%s, got '%s'", number_help(c),
                                       optarg);
            break;
        default:
            return cli_bad_option(CMD, c, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (!a->o.out_dir)
        return cli_usage_error(CMD, "--out DIR is required");
    if (a->o.bot_wait_ms && !a->o.arena)
        return cli_usage_error(CMD, "--bot-wait is the time bots have to "
                                    "join the arena: it needs --arena "
                                    "ENDPOINT");
    return CLI_OK;
}

/* A journal is a file anyone with write access may have edited: the
 * commands of its cmd: agents run only when the command line repeats them
 * with --agents. Returns CLI_OK, or CLI_USAGE naming them. */
static int check_no_commands(const struct roster *r)
{
    size_t pre = strlen(REMOTE_CMD_PREFIX);
    int n = 0;
    for (int i = 0; i < r->n; i++)
        if (!strncmp(r->a[i].spec, REMOTE_CMD_PREFIX, pre) && !n++)
            fprintf(stderr,
                    "parlor %s: the journal names external commands, which "
                    "--resume runs only when --agents repeats them:\n",
                    CMD);
    for (int i = 0; n && i < r->n; i++)
        if (!strncmp(r->a[i].spec, REMOTE_CMD_PREFIX, pre))
            fprintf(stderr, "  %s\n", r->a[i].spec);
    if (n)
        fprintf(stderr, "(give --agents with the journal's whole agent list "
                        "to run them)\n");
    return n ? CLI_USAGE : CLI_OK;
}

/* Accepts every record: from_header reads the whole journal so that a
 * corrupt line is reported as a runtime error before the run starts. */
static int any_record(void *ctx, const struct journal_header *h,
                      const struct journal_record *r, char *err, size_t errlen)
{
    (void)ctx, (void)h, (void)r, (void)err, (void)errlen;
    return 0;
}

/* --resume: fills the options left out from the journal's header; a
 * journal with cmd: agents needs them on the command line. */
static int from_header(struct tour_args *a)
{
    char path[JOURNAL_PATH_MAX], err[1024];
    struct journal_read_info info;
    struct journal_header *h = mem_alloc(sizeof *h);
    journal_path(a->o.out_dir, a->o.shard, a->o.nshards, path, sizeof path);
    int rc = journal_read(path, h, any_record, NULL, &info, err, sizeof err);
    bool missing = rc == ERR_IO && access(path, F_OK);
    if (!rc && !info.has_header)
        missing = true;
    else if (rc && !missing) {
        mem_free(h);
        return cli_fail(CMD, "%s", err); /* a corrupt journal: runtime */
    }
    if (missing) {
        mem_free(h);
        if (a->o.game && a->o.agents)
            return CLI_OK; /* nothing to resume: a fresh start */
        return cli_usage_error(CMD,
                               "--resume: there is no journal to resume at "
                               "%s; start one with parlor %s --game GAME "
                               "--agents A,B,... --out %s",
                               path, CMD, a->o.out_dir);
    }
    rc = a->o.agents ? CLI_OK : check_no_commands(&h->roster);
    if (rc) {
        mem_free(h);
        return rc;
    }
    snprintf(a->game, sizeof a->game, "%s", h->game);
    size_t used = 0;
    for (int i = 0; i < h->roster.n && used < sizeof a->agents; i++) {
        const struct roster_entry *e = &h->roster.a[i];
        bool labelled = strcmp(e->name, e->spec) != 0;
        used += (size_t)snprintf(
            a->agents + used, sizeof a->agents - used, "%s%s%s%s", i ? "," : "",
            labelled ? e->name : "", labelled ? "=" : "", e->spec);
    }
    a->o.game = a->o.game ? a->o.game : a->game;
    a->o.agents = a->o.agents ? a->o.agents : a->agents;
    a->o.deals = a->has_deals ? a->o.deals : h->deals;
    a->o.seed = a->has_seed ? a->o.seed : h->seed;
    a->o.max_lineups = a->has_lineups ? a->o.max_lineups : h->max_lineups;
    mem_free(h);
    return CLI_OK;
}

/* ---- the summary ------------------------------------------------------- */

/* Per agent: pairwise record and mean return, best score first. */
static void print_summary(const struct results *r)
{
    int n = r->n, order[ROSTER_MAX];
    double *score = mem_alloc(sizeof *score * (size_t)(n * n));
    double *games = mem_alloc(sizeof *games * (size_t)(n * n));
    double pct[ROSTER_MAX], total[ROSTER_MAX];
    results_table(r, r->ndeals, score, games);
    for (int i = 0; i < n; i++) {
        double s = 0, g = 0;
        for (int j = 0; j < n; j++) {
            s += score[i * n + j];
            g += games[i * n + j];
        }
        pct[i] = g > 0 ? 100 * s / g : 0;
        total[i] = g;
        order[i] = i;
        for (int k = i; k > 0 && pct[order[k - 1]] < pct[order[k]]; k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    }
    printf("\n%s: %lld game%s, %lld deal%s%s\n", r->h.game,
           (long long)r->games, r->games == 1 ? "" : "s", (long long)r->ndeals,
           r->ndeals == 1 ? "" : "s", r->forfeits ? "" : ", no forfeits");
    int w = 28; /* the name column fits the longest name */
    for (int i = 0; i < n; i++)
        if ((int)strlen(r->h.roster.a[i].name) > w)
            w = (int)strlen(r->h.roster.a[i].name);
    printf("  %-*s %8s %9s %7s %11s %8s\n", w, "agent", "games", "pairwise",
           "score", "mean return", "forfeits");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        printf("  %-*s %8lld %9.0f %6.1f%% %11.3f %8lld\n", w,
               r->h.roster.a[i].name, (long long)r->agent_games[i], total[i],
               pct[i], r->seats[i] ? r->ret_sum[i] / (double)r->seats[i] : 0,
               (long long)r->agent_forfeits[i]);
    }
    mem_free(score);
    mem_free(games);
}

/* The journal's results (gathered by the run, not read back) and totals. */
static void summarize(const struct run_stats *st, const struct results *r)
{
    print_summary(r);
    printf("\njournal: %s\n  %lld game%s played now in %.2f s (%.1f "
           "games/s), %lld found there\n",
           st->journal, (long long)st->played, st->played == 1 ? "" : "s",
           st->seconds, st->seconds > 0 ? (double)st->played / st->seconds : 0,
           (long long)st->already);
    printf("ratings: parlor rate %s    plots: parlor plot %s --out DIR\n",
           st->journal, st->journal);
}

/* ---- interruption ------------------------------------------------------ */

/* The signal that asked the run to stop, 0: none (set by the handler). */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* SIGINT and SIGTERM ask the run to stop and write what is finished; the
 * handler is reset by its first call, so a second Ctrl-C ends the
 * process at once. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Writes s single-quoted for the shell. */
static void put_quoted(const char *s, FILE *f)
{
    fputc('\'', f);
    for (; *s; s++)
        fputs(*s == '\'' ? "'\\''" : (char[]){*s, '\0'}, f);
    fputc('\'', f);
}

/* Tells how far an interrupted run got and the command that finishes it:
 * --out and --shard name the journal, and cmd: agents must be repeated
 * (a journal's commands are not run on its word alone). */
static void print_resume_hint(const struct tour_args *a,
                              const struct run_stats *st)
{
    bool commands = strstr(a->o.agents, REMOTE_CMD_PREFIX) != NULL;
    fprintf(stderr,
            "\nparlor %s: stopped by %s: %lld of %lld games are in %s "
            "(%lld played now); the games in play were given up.\n"
            "Continue with:\n  parlor %s --resume --out ",
            CMD, stop_signal == SIGTERM ? "SIGTERM" : "SIGINT",
            (long long)(st->already + st->played), (long long)st->scheduled,
            st->journal, (long long)st->played, CMD);
    put_quoted(a->o.out_dir, stderr);
    if (a->o.nshards > 1)
        fprintf(stderr, " --shard %d/%d", a->o.shard, a->o.nshards);
    if (commands) {
        fputs(" --agents ", stderr);
        put_quoted(a->o.agents, stderr);
    }
    fputc('\n', stderr);
}

/* ---- API --------------------------------------------------------------- */

int cmd_tournament(int argc, char **argv)
{
    struct tour_args *a = mem_alloc(sizeof *a);
    struct run_stats st;
    char err[1024];
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a->o = (struct run_opts){.deals = 100,
                             .max_lineups = 120,
                             .seed = 1,
                             .jobs = cpus < 1    ? 1
                                     : cpus > 64 ? 64
                                                 : (int)cpus,
                             .shard = 1,
                             .nshards = 1,
                             .progress = stderr};
    int rc = parse_args(argc, argv, a);
    if (!rc && a->o.resume)
        rc = from_header(a);
    if (!rc && (!a->o.game || !a->o.agents))
        rc = cli_usage_error(CMD, "--game and --agents are required (unless "
                                  "--resume finds them in the journal)");
    if (rc) {
        mem_free(a);
        return rc < 0 ? CLI_OK : rc;
    }
    struct results *res = mem_alloc(sizeof *res);
    memset(res, 0, sizeof *res);
    a->o.results = res;
    a->o.interrupt = &stop_signal;
    catch_signals();
    rc = run_tournament(&a->o, &st, err, sizeof err);
    if (rc == ERR_INTERRUPTED)
        print_resume_hint(a, &st);
    mem_free(a);
    if (!rc) {
        if (st.torn)
            fprintf(stderr,
                    "parlor %s: the journal's last line was torn (a "
                    "write cut short) and was dropped; that game was "
                    "played again\n",
                    CMD);
        summarize(&st, res);
    }
    results_fini(res);
    mem_free(res);
    if (rc == ERR_INTERRUPTED)
        return 128 + stop_signal; /* as the shell reports a signal's end */
    if (rc == ERR_INVAL || rc == ERR_RANGE || rc == ERR_NOTFOUND ||
        rc == ERR_SYNTAX)
        return fprintf(stderr, "parlor %s: %s\n", CMD, err), CLI_USAGE;
    if (rc)
        return cli_fail(CMD, "%s%s", err,
                        st.played > 0 ? " (the journal keeps every finished "
                                        "game: --resume continues)"
                                      : "");
    return CLI_OK;
}
