/* cmd_report.c — `parlor report`: a tournament as one self-contained HTML
 * page.
 *
 * The page holds the tournament's settings, the ratings with intervals and
 * forfeits, LOS and the crosstable (the very JSON `parlor rate --json`
 * prints, rendered), the forfeits with their reasons, the plots of
 * `parlor plot` as inline SVG (drawn into a private temporary directory),
 * and every game, each with its moves replayed in a collapsible block (up
 * to REPORT_REPLAYS_MAX games; past that the page says so and lists the
 * rest with their `parlor replay` command). All text is HTML-escaped; the
 * page loads nothing from elsewhere.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../engine/view.h"
#include "../tournament/journal.h"
#include "../tournament/rate.h"
#include "../tournament/run.h"
#include "cli.h"

#define CMD "report"
#define REPORT_REPLAYS_MAX 200  /* games shown move by move */
#define REPORT_GAMES_MAX 20000  /* games listed at all */
#define REPORT_SVG_MAX (8 << 20) /* largest plot embedded */

/* The page being written, and what it needs while walking the games. */
struct page {
    FILE *f;              /* the page */
    const char *dir;      /* the tournament directory */
    struct game g;        /* the game, for replays */
    int64_t listed;       /* games written so far */
    bool forfeits_only;   /* this walk lists forfeits only */
    int *moves;           /* a replay's moves, max_length * players */
};

/* ---- HTML --------------------------------------------------------------- */

static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* A JSON number as text: one decimal, or "inf" style words. */
static void num(FILE *f, json_t *v)
{
    if (json_is_number(v))
        fprintf(f, "%.1f", json_number_value(v));
    else
        fputs("&mdash;", f);
}

static void ratings_table(FILE *f, json_t *rate)
{
    size_t i;
    json_t *a;
    fputs("<h2>Ratings</h2>\n<table id=\"ratings\"><tr><th>rank</th>"
          "<th>agent</th><th>spec</th><th>elo</th><th>interval</th>"
          "<th>games</th><th>forfeits</th></tr>\n", f);
    json_array_foreach(json_object_get(rate, "ratings"), i, a)
    {
        fprintf(f, "<tr><td>%zu</td><td class=\"agent\">", i + 1);
        esc(f, json_string_value(json_object_get(a, "agent")));
        fputs("</td><td>", f);
        esc(f, json_string_value(json_object_get(a, "spec")));
        fputs("</td><td class=\"elo\">", f);
        num(f, json_object_get(a, "elo"));
        fputs("</td><td>[", f);
        num(f, json_object_get(a, "lo"));
        fputs(", ", f);
        num(f, json_object_get(a, "hi"));
        fprintf(f, "]</td><td class=\"games\">%lld</td><td>%lld</td></tr>\n",
                (long long)json_integer_value(json_object_get(a, "games")),
                (long long)json_integer_value(json_object_get(a, "forfeits")));
    }
    fputs("</table>\n", f);
}

/* One row of the crosstable: score/games against each, and LOS. */
static void cross_row(FILE *f, json_t *a, json_t *all)
{
    size_t j, k;
    json_t *b, *v;
    fputs("<tr><th>", f);
    esc(f, json_string_value(json_object_get(a, "agent")));
    fputs("</th>", f);
    json_array_foreach(all, j, b)
    {
        const char *name = json_string_value(json_object_get(b, "agent"));
        fputs("<td>", f);
        json_array_foreach(json_object_get(a, "results"), k, v)
        {
            if (strcmp(json_string_value(json_object_get(v, "opponent")),
                       name))
                continue;
            num(f, json_object_get(v, "score"));
            fputs(" / ", f);
            num(f, json_object_get(v, "games"));
        }
        json_t *los = json_object_get(json_object_get(a, "los"), name);
        if (los && json_is_number(los))
            fprintf(f, "<br><small>LOS %.2f</small>", json_number_value(los));
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
}

static void crosstable(FILE *f, json_t *rate)
{
    size_t i;
    json_t *a, *all = json_object_get(rate, "ratings");
    fputs("<h2>Crosstable</h2>\n<p>Row's points against column / pairwise "
          "results; LOS: share of resamples in which the row rates above "
          "the column.</p>\n<table id=\"crosstable\"><tr><th></th>", f);
    json_array_foreach(all, i, a)
    {
        fputs("<th>", f);
        esc(f, json_string_value(json_object_get(a, "agent")));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    json_array_foreach(all, i, a)
        cross_row(f, a, all);
    fputs("</table>\n", f);
}

/* Embeds dir/name.svg from its <svg element on. */
static int embed_svg(FILE *f, const char *dir, const char *name)
{
    char path[JOURNAL_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    FILE *in = fopen(path, "r");
    if (!in)
        return cli_fail(CMD, "%s: not drawn", path);
    char *buf = mem_alloc(REPORT_SVG_MAX + 1);
    size_t n = fread(buf, 1, REPORT_SVG_MAX, in);
    fclose(in);
    buf[n] = '\0';
    char *svg = strstr(buf, "<svg");
    fprintf(f, "<figure>%s</figure>\n", svg ? svg : "");
    mem_free(buf);
    return svg ? CLI_OK : cli_fail(CMD, "%s: no <svg> element", path);
}

/* Draws the plots into a private directory and embeds them. */
static int plots(FILE *f, const struct results *r, const struct ratings *t,
                 const struct rate_opts *o)
{
    static const char *const names[] = {"ratings", "progress", "h2h"};
    char dir[] = "/tmp/parlor-report-XXXXXX", path[sizeof dir + 32];
    if (!mkdtemp(dir))
        return cli_fail(CMD, "cannot make a temporary directory");
    fputs("<h2>Plots</h2>\n", f);
    int rc = cli_plot_all(dir, NULL, r, t, o, NULL);
    for (int k = 0; !rc && k < 3; k++)
        rc = embed_svg(f, dir, names[k]);
    static const char *const files[] = {
        "ratings.tsv", "progress.tsv", "h2h.tsv", "ratings.svg",
        "progress.svg", "h2h.svg", "ratings.png", "progress.png", "h2h.png"};
    for (int k = 0; k < 9; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    rmdir(dir);
    return rc;
}

/* ---- games -------------------------------------------------------------- */

/* Replays r into the page as preformatted text: cli_play_moves prints to
 * stdout, which is pointed at a temporary file for the while. */
static void replay_text(struct page *p, const struct journal_header *h,
                        const struct journal_record *r)
{
    const char *labels[GAME_MAX_PLAYERS];
    double ret[GAME_MAX_PLAYERS];
    char err[256];
    int steps, cap = p->g.dims.max_length * p->g.dims.players;
    int n = r->moves ? journal_moves_decode(r->moves, r->moves_len, r->digits,
                                            p->moves, cap, err, sizeof err)
                     : -1;
    if (n < 0) {
        fputs("<pre>(no moves recorded)</pre>", p->f);
        return;
    }
    /* The reader checks the header's seats against its game; "?" keeps
     * any seat it may miss from printing garbage. */
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        labels[s] = s < h->seats ? h->roster.a[r->agent[s]].name : "?";
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    fflush(stdout);
    if (!tmp || saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        fputs("<pre>(could not replay)</pre>", p->f);
    } else {
        int rc = cli_play_moves(&p->g, r->seed, labels, p->moves, n, ret,
                                &steps);
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        char line[4096];
        rewind(tmp);
        fputs("<pre>", p->f);
        while (fgets(line, sizeof line, tmp))
            esc(p->f, line);
        fputs(rc || steps != r->res.length ? "REPLAY MISMATCH</pre>"
                                           : "</pre>",
              p->f);
    }
    if (saved >= 0)
        close(saved);
    if (tmp)
        fclose(tmp);
}

static int game_row(void *ctx, const struct journal_header *h,
                    const struct journal_record *r, char *err, size_t errlen)
{
    struct page *p = ctx;
    (void)err;
    (void)errlen;
    if ((p->forfeits_only && !r->res.forfeit) || p->listed >= REPORT_GAMES_MAX)
        return 0;
    p->listed++;
    fprintf(p->f, "<details><summary>deal %lld, line-up %d, rotation %d: ",
            (long long)r->deal, r->lineup, r->rotation);
    for (int s = 0; s < h->seats; s++) {
        fprintf(p->f, "%s", s ? ", " : "");
        esc(p->f, h->roster.a[r->agent[s]].name);
        fprintf(p->f, " %g", r->res.ret[s]);
    }
    fprintf(p->f, "; %d steps", r->res.length);
    if (r->res.forfeit) {
        fputs("; forfeit: ", p->f);
        esc(p->f, r->res.reason);
    }
    fprintf(p->f, "</summary>\n<p><code>parlor replay ");
    esc(p->f, p->dir);
    fprintf(p->f, " %lld:%d:%d</code></p>", (long long)r->deal, r->lineup,
            r->rotation);
    if (!p->forfeits_only && p->listed <= REPORT_REPLAYS_MAX)
        replay_text(p, h, r);
    fputs("</details>\n", p->f);
    return 0;
}

static int games(struct page *p, const struct results *r)
{
    char err[1024];
    fprintf(p->f, "<h2>Forfeits</h2>\n<p id=\"forfeits\">%lld of %lld game%s "
                  "ended by a forfeit.</p>\n<div id=\"forfeit-games\">\n",
            (long long)r->forfeits, (long long)r->games, text_s(r->games));
    p->forfeits_only = true;
    p->listed = 0;
    if (journal_read_all(p->dir, game_row, p, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    fprintf(p->f, "</div>\n<h2>Games</h2>\n<p>Every game with its moves "
                  "replayed, up to %d games; past that, up to %d games are "
                  "listed with the command that replays them.</p>\n"
                  "<div id=\"games\">\n",
            REPORT_REPLAYS_MAX, REPORT_GAMES_MAX);
    p->forfeits_only = false;
    p->listed = 0;
    p->moves = mem_alloc(sizeof *p->moves * (size_t)p->g.dims.max_length *
                         (size_t)p->g.dims.players);
    int rc = journal_read_all(p->dir, game_row, p, err, sizeof err);
    mem_free(p->moves);
    fputs("</div>\n", p->f);
    if (rc)
        return cli_fail(CMD, "%s", err);
    if (r->games > REPORT_GAMES_MAX)
        fprintf(p->f, "<p>%lld more games are not listed.</p>\n",
                (long long)(r->games - REPORT_GAMES_MAX));
    return CLI_OK;
}

/* ---- the page ----------------------------------------------------------- */

static void head(FILE *f, const struct results *r, json_t *rate)
{
    size_t i;
    json_t *n;
    const struct journal_header *h = &r->h;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<title>parlor tournament: ", f);
    esc(f, h->game);
    fputs("</title><style>body{font-family:sans-serif;margin:2em}"
          "table{border-collapse:collapse}td,th{border:1px solid #999;"
          "padding:2px 6px}pre{background:#f4f4f4}</style></head><body>\n"
          "<h1>Tournament: ", f);
    esc(f, h->game);
    fprintf(f, "</h1>\n<p id=\"settings\">%d agents, %lld deal%s, seed %llu, "
               "%d line-up%s per deal of at most %d, %d rotation%s; "
               "%lld game%s in the schedule, %lld played.</p>\n<ul>",
            h->roster.n, (long long)h->deals, text_s(h->deals),
            (unsigned long long)h->seed, h->lineups, text_s(h->lineups),
            h->max_lineups, h->sides, text_s(h->sides), (long long)h->games,
            text_s(h->games), (long long)r->games);
    for (int a = 0; a < h->roster.n; a++) {
        fputs("<li>", f);
        esc(f, h->roster.a[a].name);
        fputs(": ", f);
        esc(f, h->roster.a[a].spec);
        fputs("</li>", f);
    }
    fputs("</ul>\n", f);
    json_array_foreach(json_object_get(rate, "notes"), i, n)
    {
        fputs("<p class=\"note\">note: ", f);
        esc(f, json_string_value(n));
        fputs("</p>\n", f);
    }
}

static int write_page(struct page *p, const struct results *r,
                      const struct ratings *t, const struct rate_opts *o)
{
    const char *anchor =
        o->anchor >= 0 ? r->h.roster.a[o->anchor].name : NULL;
    json_t *rate = cli_rate_json(r, t, anchor, o);
    if (!rate)
        return cli_fail(CMD, "out of memory");
    head(p->f, r, rate);
    ratings_table(p->f, rate);
    crosstable(p->f, rate);
    json_decref(rate);
    int rc = plots(p->f, r, t, o);
    rc = rc ? rc : games(p, r);
    fputs("</body></html>\n", p->f);
    return rc;
}

/* ---- API --------------------------------------------------------------- */

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char out[JOURNAL_PATH_MAX + 16], err[1024];
    const char *out_arg = NULL;
    int c, rc = CLI_OK;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h')
            return cli_usage(CMD, stdout), CLI_OK;
        if (c != 'o')
            return cli_bad_option(CMD, c, argv);
        out_arg = optarg;
    }
    if (argc - optind != 1)
        return cli_usage_error(CMD, "want one tournament directory");
    struct page p = {.dir = argv[optind]};
    snprintf(out, sizeof out, "%s", out_arg ? out_arg : "");
    if (!out_arg)
        snprintf(out, sizeof out, "%s/report.html", p.dir);
    struct results *r = mem_alloc(sizeof *r);
    struct ratings *t = mem_alloc(sizeof *t);
    struct rate_opts o = {1000, 1, -1, 1, 0.95}; /* parlor rate's defaults */
    const char *paths[1] = {p.dir};
    memset(r, 0, sizeof *r);
    if (results_load(r, paths, 1, err, sizeof err))
        rc = cli_fail(CMD, "%s", err);
    else if (r->games == 0)
        rc = cli_fail(CMD, "the journal has no finished games yet");
    o.anchor = rc ? -1 : rate_default_anchor(r);
    if (!rc && rate_compute(r, r->ndeals, &o, t, err, sizeof err))
        rc = cli_fail(CMD, "%s", err);
    rc = rc ? rc : cli_make_game(CMD, r->h.game, &p.g);
    if (!rc && !(p.f = fopen(out, "w")))
        rc = cli_fail(CMD, "%s: cannot write", out);
    rc = rc ? rc : write_page(&p, r, t, &o);
    if (p.f && fclose(p.f) && !rc)
        rc = cli_fail(CMD, "%s: cannot write", out);
    if (!rc)
        printf("%s\n", out);
    results_fini(r);
    mem_free(r);
    mem_free(t);
    return rc;
}
