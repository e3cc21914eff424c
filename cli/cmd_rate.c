/* cmd_rate.c — `parlor rate`: ratings with intervals, LOS and crosstable
 * from one tournament's journals, as text, CSV or JSON.
 *
 * The model and its choices (prior, bootstrap by deals, LOS from the
 * resamples) are tournament/rate.h's. The default anchor is the agent named
 * "random", or else the one agent whose spec is random; without one the
 * ratings average 0.
 */
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../tournament/rate.h"
#include "cli.h"

#define CMD "rate"

enum rate_format { FMT_TEXT, FMT_CSV, FMT_JSON };

/* ---- options ----------------------------------------------------------- */

struct rate_args {
    const char *anchor;      /* --anchor NAME; NULL: default */
    int bootstrap;           /* --bootstrap */
    double prior;            /* --prior */
    enum rate_format format; /* --csv / --json */
};

/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, struct rate_args *a)
{
    static const struct option opts[] = {
        {"anchor", required_argument, NULL, 'a'},
        {"bootstrap", required_argument, NULL, 'b'},
        {"prior", required_argument, NULL, 'p'},
        {"csv", no_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    double v;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h')
            return cli_usage(CMD, stdout), -1;
        else if (c == 'a')
            a->anchor = optarg;
        else if ((c == 'c' || c == 'j') && a->format != FMT_TEXT &&
                 a->format != (c == 'c' ? FMT_CSV : FMT_JSON))
            return cli_usage_error(CMD, "--csv and --json: choose one");
        else if (c == 'c' || c == 'j')
            a->format = c == 'c' ? FMT_CSV : FMT_JSON;
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
    return CLI_OK;
}

/* ---- text -------------------------------------------------------------- */

static const char *agent_name(const struct results *r, int i)
{
    return r->h.roster.a[i].name;
}

/* The agent column's width: the longest name, at least 28. */
static int name_width(const struct results *r)
{
    int w = 28;
    for (int i = 0; i < r->n; i++)
        w = strlen(agent_name(r, i)) > (size_t)w ? (int)strlen(agent_name(r, i))
                                                 : w;
    return w;
}

static void text_ratings(const struct results *r, const struct ratings *t,
                         const char *anchor, const struct rate_opts *o)
{
    int bootstrap = o->bootstrap;
    int n = r->n;
    printf("Elo ratings of %s: %d agents, %lld games over %lld deals\n",
           r->h.game, n, (long long)r->games, (long long)t->deals);
    printf("Bradley-Terry fit; %s%s rated 0; ", anchor ? anchor : "the mean",
           anchor ? "" : " is");
    if (bootstrap)
        printf("95%% intervals from %d resamples of the deals\n",
               t->resamples + t->failed);
    else
        printf("no intervals (--bootstrap 0)\n");
    char note[RATE_NOTES][RATE_NOTE_MAX];
    int nnotes = rate_notes(r, t, o, note);
    for (int k = 0; k < nnotes; k++)
        printf("note: %s\n", note[k]);
    int w = name_width(r);
    printf("\n%4s  %-*s %8s  %17s %8s %7s %8s\n", "rank", w, "agent", "elo",
           "95% interval", "games", "score", "forfeits");
    for (int k = 0; k < n; k++) {
        int i = t->order[k];
        double s = 0, g = 0;
        for (int j = 0; j < n; j++) {
            s += t->score[i * n + j];
            g += t->games[i * n + j];
        }
        printf("%4d  %-*s %8.1f  [%7.1f, %7.1f] %8lld %6.1f%% %8lld\n", k + 1,
               w, agent_name(r, i), t->elo[i], t->lo[i], t->hi[i],
               (long long)r->agent_games[i], g > 0 ? 100 * s / g : 0,
               (long long)r->agent_forfeits[i]);
    }
}

/* A matrix over the agents in rating order; columns are ranks. */
static void text_matrix(const struct ratings *t, const struct results *r,
                        const char *title, bool los)
{
    int n = t->n;
    int w = name_width(r);
    printf("\n%s\n%4s  %-*s", title, "", w, "");
    for (int k = 0; k < n; k++)
        printf(los ? " %6d" : " %13d", k + 1);
    putchar('\n');
    for (int a = 0; a < n; a++) {
        int i = t->order[a];
        printf("%4d  %-*s", a + 1, w, agent_name(r, i));
        for (int b = 0; b < n; b++) {
            int j = t->order[b];
            double g = t->games[i * n + j];
            if (i == j)
                printf(los ? " %6s" : " %13s", "-");
            else if (los)
                printf(" %6.3f", t->los[i * n + j]);
            else if (g > 0)
                printf(" %5.1f%% %6.0f", 100 * t->score[i * n + j] / g, g);
            else
                printf(" %13s", "");
        }
        putchar('\n');
    }
}

/* ---- CSV and JSON -------------------------------------------------------- */

/* Writes s as a CSV field, quoted when it holds a comma or a quote. */
static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static int print_csv(const struct results *r, const struct ratings *t)
{
    int n = r->n;
    printf("rank,agent,elo,lo,hi,games,score\n");
    for (int k = 0; k < n; k++) {
        int i = t->order[k];
        double s = 0, g = 0;
        for (int j = 0; j < n; j++) {
            s += t->score[i * n + j];
            g += t->games[i * n + j];
        }
        printf("%d,", k + 1);
        csv_field(agent_name(r, i));
        printf(",%.2f,%.2f,%.2f,%lld,%.4f\n", t->elo[i], t->lo[i], t->hi[i],
               (long long)r->agent_games[i], g > 0 ? s / g : 0);
    }
    return fflush(stdout) ? cli_fail(CMD, "could not write") : CLI_OK;
}

static json_t *json_ratings(const struct results *r, const struct ratings *t)
{
    json_t *list = json_array();
    for (int k = 0; k < t->n; k++) {
        int i = t->order[k];
        json_t *los = json_object(), *vs = json_array();
        for (int j = 0; j < t->n; j++) {
            double g = t->games[i * t->n + j];
            if (j != i)
                json_object_set_new(los, agent_name(r, j),
                                    cli_json_real(t->los[i * t->n + j]));
            if (j != i && g > 0)
                json_array_append_new(
                    vs,
                    json_pack("{s:s, s:o, s:o}", "opponent", agent_name(r, j),
                              "score", cli_json_real(t->score[i * t->n + j]),
                              "games", cli_json_real(g)));
        }
        json_array_append_new(
            list,
            json_pack(
                "{s:i, s:s, s:s, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o}",
                "rank", k + 1, "agent", agent_name(r, i), "spec",
                r->h.roster.a[i].spec, "elo", cli_json_real(t->elo[i]), "lo",
                cli_json_real(t->lo[i]), "hi", cli_json_real(t->hi[i]),
                "games", (json_int_t)r->agent_games[i], "forfeits",
                (json_int_t)r->agent_forfeits[i], "forfeit_reason",
                r->forfeit_reason[i][0] ? cli_json_str(r->forfeit_reason[i])
                                        : json_null(),
                "los", los, "results", vs));
    }
    return list;
}

json_t *cli_rate_json(const struct results *r, const struct ratings *t,
                      const char *anchor, const struct rate_opts *o)
{
    char note[RATE_NOTES][RATE_NOTE_MAX];
    int nnotes = rate_notes(r, t, o, note);
    json_t *notes = json_array();
    for (int k = 0; k < nnotes; k++)
        json_array_append_new(notes, json_string(note[k]));
    return json_pack("{s:s, s:I, s:I, s:I, s:o, s:i, s:i, s:o, s:o, s:o, s:o}",
                  "game", r->h.game, "games", (json_int_t)r->games, "deals",
                  (json_int_t)t->deals, "forfeits", (json_int_t)r->forfeits,
                  "anchor", cli_json_str(anchor), "bootstrap",
                  t->resamples + t->failed, "unfittable_resamples", t->failed,
                  "prior", cli_json_real(o->prior), "level",
                  cli_json_real(o->level), "notes", notes, "ratings",
                  json_ratings(r, t));
}

/* ---- API --------------------------------------------------------------- */

/* The anchor's index: NAME, else rate_default_anchor's. Returns
 * CLI_USAGE if NAME is not an agent of the journal. */
static int find_anchor(const struct results *r, const char *name, int *out)
{
    *out = name ? roster_find(&r->h.roster, name) : rate_default_anchor(r);
    if (name && *out < 0)
        return cli_usage_error(CMD,
                               "--anchor: no agent named '%s' in the "
                               "journal",
                               name);
    return CLI_OK;
}

int cmd_rate(int argc, char **argv)
{
    struct rate_args a = {NULL, 1000, 1, FMT_TEXT};
    char err[1024];
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    struct results *r = mem_alloc(sizeof *r);
    struct ratings *t = mem_alloc(sizeof *t);
    struct rate_opts o = {a.bootstrap, a.prior, -1, 1, 0.95};
    rc = results_load(r, (const char *const *)argv + optind, argc - optind, err,
                      sizeof err)
             ? cli_fail(CMD, "%s", err)
             : find_anchor(r, a.anchor, &o.anchor);
    if (!rc && r->games == 0)
        rc = cli_fail(CMD, "the journal has no finished games yet");
    if (!rc && rate_compute(r, r->ndeals, &o, t, err, sizeof err))
        rc = cli_fail(CMD, "%s", err);
    const char *anchor = o.anchor >= 0 ? agent_name(r, o.anchor) : NULL;
    if (!rc && a.format == FMT_CSV)
        rc = print_csv(r, t);
    else if (!rc && a.format == FMT_JSON)
        rc = cli_json_emit(CMD, cli_rate_json(r, t, anchor, &o));
    else if (!rc) {
        text_ratings(r, t, anchor, &o);
        if (a.bootstrap)
            text_matrix(t, r,
                        "likelihood of superiority (row rates above "
                        "column, share of resamples)",
                        true);
        text_matrix(t, r,
                    "crosstable (row's score against column, "
                    "pairwise results)",
                    false);
    }
    results_fini(r);
    mem_free(r);
    mem_free(t);
    return rc;
}
