/* test_rate.c — Bradley–Terry ratings against cases solved by hand, the
 * prior, refusals, intervals from the deal bootstrap, ratings
 * recovered from results simulated with known true ratings, and ratings
 * of a journal whose header claims far more deals than it holds.
 *
 * The hand cases use the fact that the maximum-likelihood strengths g
 * solve W_i = sum_j N_ij g_i / (g_i + g_j): when every pair's observed
 * share equals g_i / (g_i + g_j) for some g, that g is the answer, and
 * the Elo difference is 400 log10(g_i / g_j).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the headers it needs */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/mem.h"
#include "common/rng.h"
#include "tour_test_util.h"
#include "tournament/rate.h"
#include "tournament/schedule.h"

/* ---- helpers ------------------------------------------------------------ */

/* cmocka's assert_float_equal compares floats; ratings need doubles. */
#define assert_near(a, b, eps) near((a), (b), (eps), __FILE__, __LINE__)

static void near(double a, double b, double eps, const char *file, int line)
{
    if (fabs(a - b) <= eps)
        return;
    print_error("%.12g != %.12g (tolerance %g)\n", a, b, eps);
    _fail(file, line);
}

/* Sets i's points against j (and j's against i) over games. */
static void set(int n, double *score, double *games, int i, int j, double pts,
                double g)
{
    score[i * n + j] = pts;
    score[j * n + i] = g - pts;
    games[i * n + j] = games[j * n + i] = g;
}

static void fit(int n, const double *score, const double *games, double prior,
                double *elo)
{
    char err[256];
    if (rate_fit(n, score, games, prior, NULL, elo, err, sizeof err))
        fail_msg("%s", err);
}

/* Results of n agents over ndeals deals, each deal's pairs given by fill
 * (one results_pair per pair that met, i < j). */
static struct results *results_new(int n, int64_t ndeals, int per_deal)
{
    struct results *r = calloc(1, sizeof *r);
    r->n = n;
    r->h.roster.n = n;
    r->ndeals = ndeals;
    r->deal = calloc((size_t)ndeals, sizeof *r->deal);
    r->start = calloc((size_t)ndeals + 1, sizeof *r->start);
    r->pair = calloc((size_t)(ndeals * per_deal), sizeof *r->pair);
    for (int64_t d = 0; d <= ndeals; d++) {
        if (d < ndeals)
            r->deal[d] = d;
        r->start[d] = d * per_deal;
    }
    return r;
}

static void results_free(struct results *r)
{
    results_fini(r);
    free(r);
}

/* ---- hand-solved fits ---------------------------------------------------- */

/* A beats B 3 times in 4: g_A / g_B = 3, so A - B = 400 log10 3 = 190.85
 * Elo, and with the mean at 0, A = +95.42 and B = -95.42. */
static void test_three_of_four(void **state)
{
    (void)state;
    double score[4] = {0}, games[4] = {0}, elo[2];
    set(2, score, games, 0, 1, 3, 4);
    fit(2, score, games, 0, elo);
    assert_near(elo[0] - elo[1], 400 * log10(3.0), 1e-6);
    assert_near(elo[0], 200 * log10(3.0), 1e-6);
    assert_near(elo[0] + elo[1], 0, 1e-9);
}

/* One win, two draws, one loss: 2 points of 4, an even score, equal
 * ratings (a draw is half a win each). */
static void test_draws_count_half(void **state)
{
    (void)state;
    double score[4] = {0}, games[4] = {0}, elo[2];
    set(2, score, games, 0, 1, 1 + 2 * 0.5, 4);
    fit(2, score, games, 0, elo);
    assert_near(elo[0], 0, 1e-6);
    assert_near(elo[1], 0, 1e-6);
}

/* Strengths 4 : 2 : 1 fit these results exactly: A-B 4 of 6 (4/6 =
 * 4/(4+2)), A-C 4 of 5 (4/(4+1)), B-C 2 of 3 (2/(2+1)). So A - C =
 * 400 log10 4 = 240.82 and B - C = 400 log10 2 = 120.41. */
static void test_three_agents(void **state)
{
    (void)state;
    double score[9] = {0}, games[9] = {0}, elo[3];
    set(3, score, games, 0, 1, 4, 6);
    set(3, score, games, 0, 2, 4, 5);
    set(3, score, games, 1, 2, 2, 3);
    fit(3, score, games, 0, elo);
    assert_near(elo[0] - elo[2], 400 * log10(4.0), 1e-6);
    assert_near(elo[1] - elo[2], 400 * log10(2.0), 1e-6);
}

/* A beats B 2-1, B beats C 2-1, C beats A 2-1: every agent is in the same
 * position, so all ratings are equal (0 with the mean at 0). */
static void test_cycle(void **state)
{
    (void)state;
    double score[9] = {0}, games[9] = {0}, elo[3];
    set(3, score, games, 0, 1, 2, 3);
    set(3, score, games, 1, 2, 2, 3);
    set(3, score, games, 2, 0, 2, 3);
    fit(3, score, games, 0, elo);
    for (int i = 0; i < 3; i++)
        assert_near(elo[i], 0, 1e-6);
}

/* A wins 4 of 4. Without a prior its rating is infinite: refused. With
 * one virtual draw the pair has 5 games and A 4.5 points, so g_A / g_B =
 * 4.5 / 0.5 = 9 and A - B = 400 log10 9 = 381.70. */
static void test_prior(void **state)
{
    (void)state;
    double score[4] = {0}, games[4] = {0}, elo[2];
    char err[256];
    set(2, score, games, 0, 1, 4, 4);
    assert_int_equal(rate_fit(2, score, games, 0, NULL, elo, err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "prior"));
    fit(2, score, games, 1, elo);
    assert_near(elo[0] - elo[1], 400 * log10(9.0), 1e-6);
}

/* A-B and C-D met, but neither of A, B ever met C or D: the two groups'
 * ratings are not tied together, whatever the prior. */
static void test_disconnected(void **state)
{
    (void)state;
    double score[16] = {0}, games[16] = {0}, elo[4];
    char err[256];
    set(4, score, games, 0, 1, 3, 5);
    set(4, score, games, 2, 3, 1, 5);
    assert_int_equal(rate_fit(4, score, games, 1, NULL, elo, err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "never met"));
}

/* ---- intervals ------------------------------------------------------------
 */

/* 40 deals with the same result each (A 3 of 4 against B): resampling
 * whole deals always gives the same totals, so the interval is the point
 * (had single games been resampled it would be wide). The anchor, B,
 * rates exactly 0. */
static void test_bootstrap_by_deal(void **state)
{
    (void)state;
    struct results *r = results_new(2, 40, 1);
    struct ratings t;
    struct rate_opts o = {200, 0, 1, 5, 0.95};
    char err[256];
    for (int d = 0; d < 40; d++)
        r->pair[d] = (struct results_pair){0, 1, 3, 4};
    assert_int_equal(rate_compute(r, 40, &o, &t, err, sizeof err), 0);
    assert_near(t.elo[0], 400 * log10(3.0), 1e-6);
    assert_near(t.lo[0], t.elo[0], 1e-6);
    assert_near(t.hi[0], t.elo[0], 1e-6);
    assert_near(t.elo[1], 0, 1e-9);
    assert_int_equal(t.order[0], 0);
    assert_near(t.los[0 * 2 + 1], 1, 1e-12);
    assert_int_equal(t.resamples, 200);
    results_free(r);
}

/* Four agents with true ratings 0, 60, 150, 300; every deal each pair
 * plays twice, win probability 1 / (1 + 10^(-d/400)). The fitted
 * ratings (anchored at agent 0, as the truth is) must hold each true
 * rating inside its 95% interval, keep the true order, and the LOS of the
 * best over the worst must be near certain. Seeds are fixed, so this is
 * one fixed draw, checked once by hand to be typical. */
static void test_simulated(void **state)
{
    (void)state;
    static const double truth[4] = {0, 60, 150, 300};
    int64_t nd = 500;
    struct results *r = results_new(4, nd, 6);
    struct ratings t;
    struct rate_opts o = {400, 1, 0, 9, 0.95};
    struct rng rng;
    char err[256];
    rng_seed(&rng, 2024);
    for (int64_t d = 0, p = 0; d < nd; d++)
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++, p++) {
                double pij = 1 / (1 + pow(10, (truth[j] - truth[i]) / 400));
                double s = (rng_unit(&rng) < pij) + (rng_unit(&rng) < pij);
                r->pair[p] =
                    (struct results_pair){(int16_t)i, (int16_t)j, s, 2};
            }
    assert_int_equal(rate_compute(r, nd, &o, &t, err, sizeof err), 0);
    for (int i = 0; i < 4; i++) {
        assert_true(t.lo[i] <= truth[i] && truth[i] <= t.hi[i]);
        assert_true(t.lo[i] <= t.elo[i] && t.elo[i] <= t.hi[i]);
        assert_int_equal(t.order[i], 3 - i);
    }
    assert_true(t.hi[1] - t.lo[1] < 120); /* 3000 games: tight enough */
    assert_true(t.los[3 * 4 + 0] > 0.99);
    assert_near(t.los[3 * 4 + 0] + t.los[0 * 4 + 3], 1, 1e-12);
    results_free(r);
}

/* Without an anchor the ratings average 0. */
static void test_mean_anchor(void **state)
{
    (void)state;
    struct results *r = results_new(3, 1, 3);
    struct ratings t;
    struct rate_opts o = {0, 0, -1, 1, 0.95};
    char err[256];
    r->pair[0] = (struct results_pair){0, 1, 4, 6};
    r->pair[1] = (struct results_pair){0, 2, 4, 5};
    r->pair[2] = (struct results_pair){1, 2, 2, 3};
    assert_int_equal(rate_compute(r, 1, &o, &t, err, sizeof err), 0);
    assert_near(t.elo[0] + t.elo[1] + t.elo[2], 0, 1e-9);
    /* strengths 4:2:1, log-mean 2^(1/3): A = 400 log10(4 / 2) = 120.41 */
    assert_near(t.elo[0], 400 * log10(2.0), 1e-6);
    assert_near(t.games[0 * 3 + 1], 6, 0);
    assert_near(t.score[1 * 3 + 0], 2, 0);
    results_free(r);
}

/* A wins 100 of 100 against B with a prior of 1e-6 virtual draws: A has
 * 100 + 0.5e-6 points of 100 + 1e-6 games, so g_A / g_B = (100 + 5e-7) /
 * 5e-7 and A - B = 400 log10(2e8 + 1) = 3320.41 Elo. The fit must reach it
 * (the old MM iteration stopped near 2440 after 200,000 sweeps). */
static void test_near_separation_converges(void **state)
{
    (void)state;
    double score[4] = {0}, games[4] = {0}, elo[2];
    set(2, score, games, 0, 1, 100, 100);
    fit(2, score, games, 1e-6, elo);
    assert_near(elo[0] - elo[1], 400 * log10(2e8 + 1), 1e-5);
}

/* The same with a third agent between them: A beats C 100 of 100, C
 * beats B 100 of 100, A and B never meet. With prior p every pair that
 * met splits p/2 each way, so both pairs are fixed by the two-agent
 * formula: A - C = C - B = 400 log10((100 + p/2) / (p/2)). */
static void test_near_separation_chain(void **state)
{
    (void)state;
    double score[9] = {0}, games[9] = {0}, elo[3], p = 1e-4;
    set(3, score, games, 0, 2, 100, 100);
    set(3, score, games, 2, 1, 100, 100);
    fit(3, score, games, p, elo);
    double step = 400 * log10((100 + p / 2) / (p / 2));
    assert_near(elo[0] - elo[2], step, 1e-6);
    assert_near(elo[2] - elo[1], step, 1e-6);
}

/* Ten deals of one game, A winning nine, with no prior: the estimate is
 * A - B = 400 log10 9 = 381.7. A resample that misses the one lost deal
 * (probability 0.9^10 = 0.35) has A unbeaten, infinitely better: those
 * resamples must widen A's interval to +inf, not be dropped (dropping
 * them gave [147, 381.7], an interval ending at the estimate). */
static void test_separated_resamples_widen(void **state)
{
    (void)state;
    struct results *r = results_new(2, 10, 1);
    struct ratings t;
    struct rate_opts o = {1000, 0, 1, 3, 0.95};
    char err[256];
    for (int d = 0; d < 10; d++)
        r->pair[d] = (struct results_pair){0, 1, d < 9 ? 1 : 0, 1};
    assert_int_equal(rate_compute(r, 10, &o, &t, err, sizeof err), 0);
    assert_near(t.elo[0], 400 * log10(9.0), 1e-6);
    assert_true(t.failed > 250 && t.failed < 450); /* ~349 expected */
    assert_int_equal(t.resamples + t.failed, 1000);
    assert_true(isinf(t.hi[0]) && t.hi[0] > 0);
    assert_true(isfinite(t.lo[0]) && t.lo[0] < t.elo[0]);
    assert_near(t.elo[1], 0, 1e-9);
    assert_true(t.los[0 * 2 + 1] > 0.95);
    results_free(r);
}

/* Ten deals, A winning every one, anchored at A: B never won, so B is
 * -inf in every resample and the interval of B is unbounded below, while
 * the estimate with a prior stays finite. */
static void test_unbeaten_anchor(void **state)
{
    (void)state;
    struct results *r = results_new(2, 10, 1);
    struct ratings t;
    struct rate_opts o = {200, 0, 0, 3, 0.95};
    char err[256];
    for (int d = 0; d < 10; d++)
        r->pair[d] = (struct results_pair){0, 1, 1, 1};
    assert_int_equal(rate_compute(r, 10, &o, &t, err, sizeof err), ERR_INVAL);
    o.prior = 1;
    assert_int_equal(rate_compute(r, 10, &o, &t, err, sizeof err), 0);
    assert_near(t.elo[1], -400 * log10(10.5 / 0.5), 1e-6);
    /* Every resample is the same ten wins: the interval is the point,
     * with lo <= elo <= hi exactly. */
    assert_true(t.lo[1] <= t.elo[1] && t.elo[1] <= t.hi[1]);
    assert_int_equal(t.failed, 0);
    results_free(r);
}

/* What a reader must be told: few deals, unfittable resamples (blaming
 * the missing prior, not connectivity), and who forfeited how often. */
static void test_notes(void **state)
{
    (void)state;
    struct results *r = results_new(2, 10, 1);
    struct ratings t;
    struct rate_opts o = {400, 0, 1, 3, 0.95};
    char err[256], note[RATE_NOTES][RATE_NOTE_MAX];
    for (int d = 0; d < 10; d++)
        r->pair[d] = (struct results_pair){0, 1, d < 9 ? 1 : 0, 1};
    strcpy(r->h.roster.a[0].name, "alice");
    strcpy(r->h.roster.a[1].name, "bob");
    r->forfeits = 3;
    r->agent_forfeits[1] = 3;
    r->agent_games[0] = r->agent_games[1] = 10;
    assert_int_equal(rate_compute(r, 10, &o, &t, err, sizeof err), 0);
    assert_int_equal(rate_notes(r, &t, &o, note), 2);
    assert_non_null(strstr(note[0], "never lost or never won"));
    assert_non_null(strstr(note[0], "--prior"));
    assert_non_null(strstr(note[1], "3 games ended by a forfeit"));
    assert_non_null(strstr(note[1], "bob 3 of 10"));
    assert_null(strstr(note[1], "alice"));
    /* Three deals: the small-sample warning comes first. */
    o.prior = 1;
    assert_int_equal(rate_compute(r, 3, &o, &t, err, sizeof err), 0);
    assert_int_equal(rate_notes(r, &t, &o, note), 2);
    assert_non_null(strstr(note[0], "only 3 deals"));
    results_free(r);
}

/* ---- ratings from journals --------------------------------------------- */

/* Writes a journal of two games of random against r2 at path, claiming
 * deals (and 2 x deals games): random wins deal `late`, read first, and
 * draws deal 0. */
static void write_two_games(const char *path, int64_t deals, int64_t late)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"journal\":\"parlor-tournament\",\"format\":3,"
            "\"game\":\"thirty_one(players=2)\",\"agents\":[{\"name\":"
            "\"random\",\"spec\":\"random\"},{\"name\":\"r2\",\"spec\":"
            "\"random(seed=2)\"}],\"deals\":%lld,\"seed\":\"1\","
            "\"max_lineups\":120,\"lineups\":1,\"sides\":2,\"seats\":2,"
            "\"teams\":[0,1],\"games\":%lld,\"shard\":1,\"shards\":1}\n",
            (long long)deals, 2 * (long long)deals);
    for (int k = 0; k < 2; k++)
        fprintf(f,
                "{\"type\":\"game\",\"deal\":%lld,\"lineup\":0,"
                "\"rotation\":0,\"seats\":[\"random\",\"r2\"],"
                "\"returns\":[%d,%d],\"length\":1,\"wall_us\":1,"
                "\"end\":\"normal\"}\n",
                k ? 0 : (long long)late, k ? 0 : 3, k ? 0 : -3);
    fclose(f);
}

/* Two games in a journal whose header claims SCHEDULE_DEALS_MAX deals
 * (the most a tournament plays) rate as the same two games under a
 * truthful header, with every block over 1 MiB refused: a header once
 * made `parlor rate` set aside 8 bytes a claimed deal, 16 GiB at 2^31.
 * By hand: random has a win and a draw, 1.5 of 2, and the prior's
 * virtual draw makes it 2 of 3, so r2 rates 400 log10 2 = 120.41 Elo
 * below random (rated 0). A resample of two deals holds two wins (2.5 of
 * 3: -400 log10 5 = -279.59), a win and a draw (-120.41) or two draws
 * (0): those bound the interval. */
static void test_journal_claims_many_deals(void **state)
{
    (void)state;
    char dir[1024], path[2][1100], err[512];
    struct rate_opts o = {200, 1, 0, 7, 0.95};
    struct ratings t[2];
    memset(t, 0, sizeof t); /* padding too: compared whole */
    tmp_dir(dir, sizeof dir);
    snprintf(path[0], sizeof path[0], "%s/claims.jsonl", dir);
    snprintf(path[1], sizeof path[1], "%s/truthful.jsonl", dir);
    write_two_games(path[0], SCHEDULE_DEALS_MAX, SCHEDULE_DEALS_MAX - 1);
    write_two_games(path[1], 2, 1);
    mem_fail_over(1 << 20);
    for (int k = 0; k < 2; k++) {
        struct results r;
        const char *one[] = {path[k]};
        if (results_load(&r, one, 1, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(r.ndeals, 2);
        assert_int_equal(r.deal[0], 0);
        assert_int_equal(r.deal[1], k ? 1 : SCHEDULE_DEALS_MAX - 1);
        assert_int_equal(rate_compute(&r, r.ndeals, &o, &t[k], err, sizeof err),
                         0);
        results_fini(&r);
    }
    mem_fail_over(0);
    assert_near(t[0].elo[0], 0, 1e-9);
    assert_near(t[0].elo[1], -400 * log10(2), 1e-6);
    assert_near(t[0].lo[1], -400 * log10(5), 1e-6);
    assert_near(t[0].hi[1], 0, 1e-6);
    assert_memory_equal(&t[0], &t[1], sizeof t[0]);
    rm_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_of_four),
        cmocka_unit_test(test_draws_count_half),
        cmocka_unit_test(test_three_agents),
        cmocka_unit_test(test_cycle),
        cmocka_unit_test(test_prior),
        cmocka_unit_test(test_disconnected),
        cmocka_unit_test(test_bootstrap_by_deal),
        cmocka_unit_test(test_simulated),
        cmocka_unit_test(test_near_separation_converges),
        cmocka_unit_test(test_near_separation_chain),
        cmocka_unit_test(test_separated_resamples_widen),
        cmocka_unit_test(test_unbeaten_anchor),
        cmocka_unit_test(test_notes),
        cmocka_unit_test(test_mean_anchor),
        cmocka_unit_test(test_journal_claims_many_deals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
