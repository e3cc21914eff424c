/* plot.c — the TSV tables the gnuplot scripts read; see plot.h. */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"

/* ---- static helpers ---------------------------------------------------- */

/* Writes s with tabs and line breaks turned into spaces. */
static void cell(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static FILE *open_out(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        err_set(err, errlen, ERR_IO, "%s: %s", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path, char *err, size_t errlen)
{
    bool bad = ferror(f) != 0;
    if (fclose(f) || bad)
        return err_set(err, errlen, ERR_IO, "%s: could not write", path);
    return 0;
}

/* ---- API --------------------------------------------------------------- */

int plot_write_ratings(const char *path, const struct results *r,
                       const struct ratings *t, char *err, size_t errlen)
{
    int n = t->n;
    FILE *f = open_out(path, err, errlen);
    if (!f)
        return ERR_IO;
    fprintf(f, "rank\tagent\telo\tlo\thi\tgames\tscore\tforfeits\n");
    for (int k = 0; k < n; k++) {
        int i = t->order[k];
        double s = 0, g = 0;
        for (int j = 0; j < n; j++) {
            s += t->score[i * n + j];
            g += t->games[i * n + j];
        }
        fprintf(f, "%d\t", k + 1);
        cell(f, r->h.roster.a[i].name);
        fprintf(f, "\t%.2f\t%.2f\t%.2f\t%lld\t%.4f\t%lld\n", t->elo[i],
                t->lo[i], t->hi[i], (long long)r->agent_games[i],
                g > 0 ? s / g : 0, (long long)r->agent_forfeits[i]);
    }
    return close_out(f, path, err, errlen);
}

int plot_write_h2h(const char *path, const struct results *r,
                   const struct ratings *t, char *err, size_t errlen)
{
    int n = t->n;
    FILE *f = open_out(path, err, errlen);
    if (!f)
        return ERR_IO;
    fprintf(f, "row\tcol\tagent\topponent\tscore\tgames\n");
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int i = t->order[a], j = t->order[b];
            double g = t->games[i * n + j];
            if (i == j || g <= 0)
                continue;
            fprintf(f, "%d\t%d\t", a + 1, b + 1);
            cell(f, r->h.roster.a[i].name);
            fputc('\t', f);
            cell(f, r->h.roster.a[j].name);
            fprintf(f, "\t%.4f\t%.0f\n", t->score[i * n + j] / g, g);
        }
    return close_out(f, path, err, errlen);
}

static void progress_header(FILE *f, const struct results *r,
                            const struct ratings *final)
{
    fprintf(f, "deals");
    for (int k = 0; k < final->n; k++) {
        const char *name = r->h.roster.a[final->order[k]].name;
        fputc('\t', f);
        cell(f, name);
        fputc('\t', f);
        cell(f, name);
        fprintf(f, " lo\t");
        cell(f, name);
        fprintf(f, " hi");
    }
    fputc('\n', f);
}

void plot_span(const struct ratings *t, double span[2])
{
    for (int i = 0; i < t->n; i++) {
        const double v[3] = {t->elo[i], t->lo[i], t->hi[i]};
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k])) {
                span[0] = fmin(span[0], v[k]);
                span[1] = fmax(span[1], v[k]);
            }
    }
}

void plot_axis(const double span[2], double axis[2])
{
    if (span[0] > span[1]) {
        axis[0] = -50, axis[1] = 50;
        return;
    }
    double mid = (span[0] + span[1]) / 2;
    double w = fmax(span[1] - span[0], 100);
    axis[0] = mid - w / 2 - 0.12 * w;
    axis[1] = mid + w / 2 + 0.22 * w;
}

int plot_top_ties(const struct ratings *t)
{
    int k = 1;
    while (k < t->n && fabs(t->elo[t->order[k]] - t->elo[t->order[0]]) < 0.005)
        k++;
    return k;
}

int plot_write_progress(const char *path, const struct results *r,
                        const struct ratings *final, const struct rate_opts *o,
                        double span[2], char *err, size_t errlen)
{
    struct ratings *t = mem_alloc(sizeof *t);
    int cps = r->ndeals < PLOT_CHECKPOINTS ? (int)r->ndeals : PLOT_CHECKPOINTS;
    int rc = t ? 0 : err_set(err, errlen, ERR_NOMEM, "out of memory");
    FILE *f = rc ? NULL : open_out(path, err, errlen);
    rc = f || rc ? rc : ERR_IO;
    if (f)
        progress_header(f, r, final);
    for (int c = 1; !rc && c <= cps; c++) {
        int64_t nd = (r->ndeals * c + cps - 1) / cps;
        int fit = rate_compute(r, nd, o, t, err, errlen);
        if (fit == ERR_NOMEM)
            rc = fit;
        fprintf(f, "%lld", (long long)nd);
        for (int k = 0; k < final->n; k++) {
            int i = final->order[k];
            if (fit)
                fprintf(f, "\tNaN\tNaN\tNaN");
            else
                fprintf(f, "\t%.2f\t%.2f\t%.2f", t->elo[i], t->lo[i], t->hi[i]);
        }
        if (!fit)
            plot_span(t, span);
        fputc('\n', f);
    }
    if (f && close_out(f, path, err, errlen) && !rc)
        rc = ERR_IO;
    mem_free(t);
    return rc;
}
