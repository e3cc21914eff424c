/* test_horizon.c — the search agents' playout horizon (issue 16): with
 * horizon=deal a playout stops on the very step where a new deal begins,
 * depth bounds it further, horizon=game plays on to the end, and a
 * tournament of search agents on Trix Exchange (thousands of moves a
 * game) finishes its games.
 *
 * The boundary is checked against a reference walk that takes the same
 * random steps one at a time and looks at game_deals after each: the
 * playout must end in exactly the state where that count first moved.
 * The tournament runs the built binary under timeout(1), which only bounds
 * a hang; nothing here measures speed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h> /* after the headers it needs */

#include "agents/search.h"
#include "engine/game.h"

/* Three deals unless a seat reaches 1000 points, which no seat can. */
#define TX_SPEC "trix_exchange(target=1000,max_deals=3)"

struct walk {
    struct game g;          /* configured game */
    unsigned char *st;      /* the state played on */
    unsigned char *ref;     /* the reference walk's state */
    struct search_playout p; /* random playouts */
};

static void walk_start(struct walk *w, const char *spec, int depth,
                       int horizon)
{
    char err[256];
    memset(w, 0, sizeof *w);
    if (game_make(&w->g, spec, err, sizeof err))
        fail_msg("%s", err);
    w->st = malloc(w->g.def->state_size);
    w->ref = malloc(w->g.def->state_size);
    assert_non_null(w->st);
    assert_non_null(w->ref);
    assert_int_equal(game_init(&w->g, w->st, 3, NULL, 0), 0);
    memcpy(w->ref, w->st, w->g.def->state_size);
    assert_int_equal(search_playout_init(&w->p, &w->g, 0, depth, horizon, err,
                                         sizeof err),
                     0);
}

static void walk_end(struct walk *w)
{
    search_playout_fini(&w->p);
    free(w->st);
    free(w->ref);
}

/* Steps the reference state at random from seed until game_deals leaves
 * deal (or max steps are taken); returns the steps taken. */
static int reference_walk(struct walk *w, uint64_t seed, int deal, int max)
{
    struct rng r;
    rng_seed(&r, seed);
    int n = 0;
    while (n < max && game_deals(&w->g, w->ref) == deal &&
           !game_is_terminal(&w->g, w->ref)) {
        assert_int_equal(search_playout_step(&w->p, &w->g, w->ref, &r, -1, 0),
                         0);
        n++;
    }
    return n;
}

/* The playout from the first deal's start stops where deal 2 begins. */
static void test_stops_at_deal_end(void **state)
{
    (void)state;
    struct walk w;
    double ret[GAME_MAX_PLAYERS];
    walk_start(&w, TX_SPEC, 0, SEARCH_HORIZON_DEAL);
    assert_int_equal(game_deals(&w.g, w.st), 1);
    int steps = reference_walk(&w, 9, 1, w.g.dims.max_length);
    assert_int_equal(game_deals(&w.g, w.ref), 2);
    assert_false(game_is_terminal(&w.g, w.ref));
    assert_true(steps > 1);

    struct rng r;
    rng_seed(&r, 9);
    assert_int_equal(search_playout_run(&w.p, &w.g, w.st, &r, 1, ret), 0);
    assert_memory_equal(w.st, w.ref, w.g.def->state_size);
    /* Trix Exchange scores a game only at its end (returns 0 while
     * playing), so the cut is scored by its estimate: the lead in points. */
    double est[GAME_MAX_PLAYERS];
    game_estimate(&w.g, w.ref, est);
    assert_memory_equal(ret, est, sizeof(double) * (size_t)w.g.dims.players);

    /* From a state already past the searched deal nothing is played. */
    assert_int_equal(search_playout_run(&w.p, &w.g, w.st, &r, 1, ret), 0);
    assert_memory_equal(w.st, w.ref, w.g.def->state_size);
    walk_end(&w);
}

/* depth below the deal's length stops the playout after depth steps. */
static void test_depth_inside_the_deal(void **state)
{
    (void)state;
    struct walk w;
    double ret[GAME_MAX_PLAYERS];
    walk_start(&w, TX_SPEC, 5, SEARCH_HORIZON_DEAL);
    assert_int_equal(reference_walk(&w, 4, 1, 5), 5);
    assert_int_equal(game_deals(&w.g, w.ref), 1);
    struct rng r;
    rng_seed(&r, 4);
    assert_int_equal(search_playout_run(&w.p, &w.g, w.st, &r, 1, ret), 0);
    assert_memory_equal(w.st, w.ref, w.g.def->state_size);
    walk_end(&w);
}

/* horizon=game plays through every deal: three by the cap. */
static void test_game_horizon_plays_to_the_end(void **state)
{
    (void)state;
    struct walk w;
    double ret[GAME_MAX_PLAYERS];
    walk_start(&w, TX_SPEC, 0, SEARCH_HORIZON_GAME);
    struct rng r;
    rng_seed(&r, 9);
    assert_int_equal(search_playout_run(&w.p, &w.g, w.st, &r, 1, ret), 0);
    assert_true(game_is_terminal(&w.g, w.st));
    assert_int_equal(game_deals(&w.g, w.st), 3);
    walk_end(&w);
}

/* A game of one deal is played to its end under horizon=deal too. */
static void test_one_deal_game_to_the_end(void **state)
{
    (void)state;
    struct walk w;
    double ret[GAME_MAX_PLAYERS];
    walk_start(&w, "trix_authors", 0, SEARCH_HORIZON_DEAL);
    struct rng r;
    rng_seed(&r, 2);
    assert_int_equal(search_playout_run(&w.p, &w.g, w.st, &r, 1, ret), 0);
    assert_true(game_is_terminal(&w.g, w.st));
    walk_end(&w);
}

/* Counts the lines of path holding needle. */
static int count_lines(const char *path, const char *needle)
{
    char line[65536];
    int n = 0;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

/* The tournament: search agents with small budgets and random on
 * Trix Exchange (default options: 4 seats, 30 deals at most) play all 12
 * games of one deal (3 line-ups x 4 rotations). */
static void test_tournament_finishes(void **state)
{
    (void)state;
    char dir[] = "/tmp/parlor_horizon_XXXXXX", cmd[1024], path[256];
    assert_non_null(mkdtemp(dir));
    /* timeout(1) only bounds a hang: 124 fails the test. */
    snprintf(cmd, sizeof cmd,
             "timeout -k 10 3000 %s tournament --game trix_exchange "
             "--agents 'pimc(samples=2,playouts=1),ismcts(iters=20),random' "
             "--deals 1 --jobs 2 --quiet --out %s >/dev/null 2>&1",
             PARLOR_BIN, dir);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    snprintf(path, sizeof path, "%s/journal.jsonl", dir);
    assert_int_equal(count_lines(path, "\"type\":\"game\""), 12);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stops_at_deal_end),
        cmocka_unit_test(test_depth_inside_the_deal),
        cmocka_unit_test(test_game_horizon_plays_to_the_end),
        cmocka_unit_test(test_one_deal_game_to_the_end),
        cmocka_unit_test(test_tournament_finishes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
