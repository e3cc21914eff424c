/* test_plot.c — what parlor plot decides before gnuplot draws: ties at
 * the top name no winner, equal ratings still get an axis, unbounded
 * interval ends stay out of the axis range, forfeits reach the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tournament/plot.h"

static void rated(struct ratings *t, int n, const double *elo)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    for (int i = 0; i < n; i++) {
        t->elo[i] = t->lo[i] = t->hi[i] = elo[i];
        t->order[i] = i; /* the callers list elo best first */
    }
}

static void test_top_ties(void **state)
{
    (void)state;
    struct ratings t;
    rated(&t, 3, (const double[]){438.84, 438.84, 12});
    assert_int_equal(plot_top_ties(&t), 2);
    rated(&t, 3, (const double[]){0, 0, 0});
    assert_int_equal(plot_top_ties(&t), 3);
    rated(&t, 2, (const double[]){5, 3});
    assert_int_equal(plot_top_ties(&t), 1);
}

static void test_axis(void **state)
{
    (void)state;
    struct ratings t;
    double span[2] = {INFINITY, -INFINITY}, axis[2];
    plot_axis(span, axis); /* nothing rated */
    assert_true(axis[0] == -50 && axis[1] == 50);
    rated(&t, 3, (const double[]){0, 0, 0});
    plot_span(&t, span);
    plot_axis(span, axis);
    /* 100 Elo wide around 0, plus 12 % and 22 % for the labels. */
    assert_true(fabs(axis[0] + 62) < 1e-9 && fabs(axis[1] - 72) < 1e-9);
    /* Unbounded ends do not stretch the axis to infinity. */
    rated(&t, 2, (const double[]){300, -300});
    t.hi[0] = INFINITY;
    t.lo[1] = -INFINITY;
    span[0] = INFINITY, span[1] = -INFINITY;
    plot_span(&t, span);
    assert_true(span[0] == -300 && span[1] == 300);
}

static void test_forfeits_in_table(void **state)
{
    (void)state;
    struct results r;
    struct ratings t;
    memset(&r, 0, sizeof r);
    r.n = r.h.roster.n = 2;
    strcpy(r.h.roster.a[0].name, "good");
    strcpy(r.h.roster.a[1].name, "broken");
    r.agent_games[0] = r.agent_games[1] = 20;
    r.agent_forfeits[1] = 20;
    rated(&t, 2, (const double[]){100, -100});
    char path[] = "/tmp/parlor-plot-XXXXXX", err[256], line[256];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(plot_write_ratings(path, &r, &t, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line,
                        "rank\tagent\telo\tlo\thi\tgames\tscore\tforfeits\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "broken\t"));
    assert_non_null(strstr(line, "\t20\n"));
    fclose(f);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_ties),
        cmocka_unit_test(test_axis),
        cmocka_unit_test(test_forfeits_in_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
