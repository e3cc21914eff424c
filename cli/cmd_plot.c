/* cmd_plot.c — `parlor plot`: the tournament's plots through gnuplot.
 *
 * parlor rates the journals, writes the tables (tournament/plot.h) to
 * --out and runs one script of plots/ per table: ratings with intervals,
 * rating progression, head-to-head matrix, each as PNG and SVG. Without
 * gnuplot the tables are still written and the message says what to
 * install.
 */
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../tournament/gnuplot.h"
#include "../tournament/plot.h"
#include "../tournament/run.h"
#include "cli.h"

#define CMD "plot"
#define ASSIGN_MAX 16384 /* gnuplot -e text */

/* The plots: table, script and output share one name. */
static const char *const plot_names[] = {"ratings", "progress", "h2h"};
#define NPLOTS 3

struct plot_args {
    const char *out;     /* --out DIR */
    const char *scripts; /* --scripts DIR; NULL: found */
    const char *anchor;  /* --anchor NAME; NULL: default */
    int bootstrap;       /* --bootstrap */
    double prior;        /* --prior */
};

/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, struct plot_args *a)
{
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"scripts", required_argument, NULL, 's'},
        {"anchor", required_argument, NULL, 'a'},
        {"bootstrap", required_argument, NULL, 'b'},
        {"prior", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    double v;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h')
            return cli_usage(CMD, stdout), -1;
        else if (c == 'o' || c == 's' || c == 'a')
            *(c == 'o'   ? &a->out
              : c == 's' ? &a->scripts
                         : &a->anchor) = optarg;
        else if (c == 'b' && cli_parse_double(optarg, 0, 100000, &v) &&
                 v == floor(v))
            a->bootstrap = (int)v;
        else if (c == 'p' && cli_parse_double(optarg, 0, 1e6, &v))
            a->prior = v;
        else if (c == 'b' || c == 'p')
            return cli_usage_error(CMD, "%s wants %s, got '%s'",
                                   c == 'b' ? "--bootstrap" : "--prior",
                                   c == 'b' ? "a whole number from 0 to 100000"
                                            : "a number from 0 to 1000000",
                                   optarg);
        else
            return cli_bad_option(CMD, c, argv);
    }
    if (optind == argc)
        return cli_usage_error(CMD, "which journal?");
    if (!a->out)
        return cli_usage_error(CMD, "--out DIR is required");
    return CLI_OK;
}

/* ---- tables and plots --------------------------------------------------- */

/* What the scripts are told besides the data: the axis ranges (set here,
 * so that equal or unbounded ratings still get a sensible axis) and the
 * verdict of the titles. */
struct plot_frame {
    double ratings_axis[2];  /* Elo axis of ratings.gp */
    double progress_axis[2]; /* Elo axis of progress.gp */
    int top;                 /* agents sharing the top rating */
};

static int write_tables(const char *out, const struct results *r,
                        const struct ratings *t, const struct rate_opts *o,
                        struct plot_frame *fr, FILE *log, char *err,
                        size_t errlen)
{
    char path[JOURNAL_PATH_MAX + 32];
    double span[2] = {INFINITY, -INFINITY}, pspan[2] = {INFINITY, -INFINITY};
    int rc = run_make_dirs(out, err, errlen);
    plot_span(t, span);
    plot_axis(span, fr->ratings_axis);
    fr->top = plot_top_ties(t);
    for (int k = 0; !rc && k < NPLOTS; k++) {
        snprintf(path, sizeof path, "%s/%s.tsv", out, plot_names[k]);
        rc = k == 0   ? plot_write_ratings(path, r, t, err, errlen)
             : k == 1 ? plot_write_progress(path, r, t, o, pspan, err, errlen)
                      : plot_write_h2h(path, r, t, err, errlen);
        if (!rc && log)
            fprintf(log, "%s\n", path);
    }
    plot_axis(pspan, fr->progress_axis);
    return rc;
}

/* The titles' verdict: "best: NAME", or the agents tied at the top. */
static void verdict(const struct results *r, const struct ratings *t, int top,
                    char *buf, size_t len)
{
    if (top == 1) {
        snprintf(buf, len, "best: %s", r->h.roster.a[t->order[0]].name);
        return;
    }
    int n =
        snprintf(buf, len, "%s", top == t->n ? "all tied" : "tied at the top:");
    for (int k = 0; k < top && top < t->n && (size_t)n < len; k++)
        n += snprintf(buf + n, len - (size_t)n, "%s %s", k ? "," : "",
                      r->h.roster.a[t->order[k]].name);
}

/* Assigns the numbers v[0], v[1] to gnuplot variables lo and hi. */
static int assign_range(char *buf, size_t len, const char *lo, const char *hi,
                        const double v[2])
{
    char num[32];
    snprintf(num, sizeof num, "%.2f", v[0]);
    int rc = gnuplot_assign(buf, len, lo, num);
    snprintf(num, sizeof num, "%.2f", v[1]);
    return rc ? rc : gnuplot_assign(buf, len, hi, num);
}

/* The gnuplot -e text for plot k. */
static int assignments(const char *out, const struct results *r,
                       const struct ratings *t, const struct plot_frame *fr,
                       int anchor, int k, char *buf, size_t len)
{
    char path[JOURNAL_PATH_MAX + 32], num[32];
    char best[ROSTER_MAX * (ROSTER_NAME_MAX + 2) + 32];
    int rc;
    buf[0] = '\0';
    snprintf(path, sizeof path, "%s/%s.tsv", out, plot_names[k]);
    rc = gnuplot_assign(buf, len, "data", path);
    snprintf(path, sizeof path, "%s/%s", out, plot_names[k]);
    rc = rc ? rc : gnuplot_assign(buf, len, "out", path);
    verdict(r, t, fr->top, best, sizeof best);
    rc = rc ? rc : gnuplot_assign(buf, len, "best", best);
    snprintf(num, sizeof num, "%d", fr->top);
    rc = rc ? rc : gnuplot_assign(buf, len, "top", num);
    rc = rc ? rc : assign_range(buf, len, "xlo", "xhi", fr->ratings_axis);
    rc = rc ? rc : assign_range(buf, len, "ylo", "yhi", fr->progress_axis);
    rc = rc ? rc : gnuplot_assign(buf, len, "game", r->h.game);
    snprintf(num, sizeof num, "%d", t->n);
    rc = rc ? rc : gnuplot_assign(buf, len, "n", num);
    snprintf(num, sizeof num, "%lld", (long long)r->games);
    rc = rc ? rc : gnuplot_assign(buf, len, "games", num);
    snprintf(path, sizeof path, "%s = 0",
             anchor >= 0 ? r->h.roster.a[anchor].name : "mean");
    return rc ? rc : gnuplot_assign(buf, len, "anchor", path);
}

static int draw(const char *out, const char *scripts, const struct results *r,
                const struct ratings *t, const struct plot_frame *fr,
                int anchor, FILE *log)
{
    char dir[JOURNAL_PATH_MAX], script[JOURNAL_PATH_MAX + 32], err[1024];
    char *buf = mem_alloc(ASSIGN_MAX);
    int rc = gnuplot_scripts(scripts, dir, sizeof dir, err, sizeof err);
    for (int k = 0; !rc && k < NPLOTS; k++) {
        snprintf(script, sizeof script, "%s/%s.gp", dir, plot_names[k]);
        if (assignments(out, r, t, fr, anchor, k, buf, ASSIGN_MAX))
            rc = err_set(err, sizeof err, ERR_INVAL,
                         "a path or name holds a control character or is "
                         "too long for gnuplot");
        rc = rc ? rc : gnuplot_run(script, buf, err, sizeof err);
        if (!rc && log)
            fprintf(log, "%s/%s.png\n%s/%s.svg\n", out, plot_names[k], out,
                    plot_names[k]);
    }
    mem_free(buf);
    if (rc)
        return cli_fail(CMD, "%s (the tables are written in %s)", err, out);
    return CLI_OK;
}

int cli_plot_all(const char *out, const char *scripts,
                 const struct results *r, const struct ratings *t,
                 const struct rate_opts *o, FILE *log)
{
    char err[1024];
    struct plot_frame fr;
    if (write_tables(out, r, t, o, &fr, log, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    return draw(out, scripts, r, t, &fr, o->anchor, log);
}

/* ---- API --------------------------------------------------------------- */

int cmd_plot(int argc, char **argv)
{
    struct plot_args a = {NULL, NULL, NULL, 1000, 1};
    char err[1024];
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    struct results *r = mem_alloc(sizeof *r);
    struct ratings *t = mem_alloc(sizeof *t);
    struct rate_opts o = {a.bootstrap, a.prior, -1, 1, 0.95};
    if (results_load(r, (const char *const *)argv + optind, argc - optind, err,
                     sizeof err))
        rc = cli_fail(CMD, "%s", err);
    o.anchor =
        a.anchor ? roster_find(&r->h.roster, a.anchor) : rate_default_anchor(r);
    if (!rc && a.anchor && o.anchor < 0)
        rc = cli_usage_error(CMD,
                             "--anchor: no agent named '%s' in the "
                             "journal",
                             a.anchor);
    if (!rc && rate_compute(r, r->ndeals, &o, t, err, sizeof err))
        rc = cli_fail(CMD, "%s", err);
    rc = rc ? rc : cli_plot_all(a.out, a.scripts, r, t, &o, stdout);
    results_fini(r);
    mem_free(r);
    mem_free(t);
    return rc;
}
