/* test_agent.c — the agent registry, agent spec strings and the random
 * agent: legal, reproducible, and uniform over the legal actions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "agents/agent.h"
#include "common/err.h"

static void test_specs_and_errors(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "thirty_one", err, sizeof err), 0);
    agent_t *a = agent_new("random(seed=3)", &g, err, sizeof err);
    assert_non_null(a);
    assert_string_equal(agent_spec(a), "random(seed=3)");
    agent_destroy(&a);
    assert_null(a);
    agent_destroy(&a); /* NULL-safe */
    assert_null(agent_new("genius", &g, err, sizeof err));
    assert_non_null(strstr(err, "genius"));
    assert_non_null(strstr(err, "random"));
    assert_null(agent_new("random(seed=-1)", &g, err, sizeof err));
    assert_non_null(strstr(err, "seed"));
    assert_null(agent_new("random(depth=2)", &g, err, sizeof err));
    assert_non_null(strstr(err, "depth"));
}

/* Plays the first n decisions of a seeded game with one agent in every
 * seat, writing the chosen actions to out. */
static void play(agent_t *a, const struct game *g, uint64_t seed, int *out,
                 int n)
{
    unsigned char st[g->def->state_size];
    assert_int_equal(game_init(g, st, seed, NULL, 0), 0);
    agent_reseed(a, seed);
    for (int i = 0; i < n; i++) {
        int seat = game_current_seat(g, st);
        assert_true(seat >= 0);
        assert_int_equal(agent_act(a, st, seat, &out[i]), 0);
        assert_int_equal(game_apply(g, st, seat, out[i]), 0);
    }
}

static void test_random_is_reproducible(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "spoil_five", err, sizeof err), 0);
    agent_t *a = agent_new("random", &g, err, sizeof err);
    agent_t *b = agent_new("random", &g, err, sizeof err);
    agent_t *c = agent_new("random(seed=2)", &g, err, sizeof err);
    int xa[12], xb[12], xc[12];
    play(a, &g, 5, xa, 12);
    play(b, &g, 5, xb, 12);
    play(c, &g, 5, xc, 12);
    assert_memory_equal(xa, xb, sizeof xa);
    /* A different agent seed gives a different line of play here. */
    assert_memory_not_equal(xa, xc, sizeof xa);
    agent_destroy(&a);
    agent_destroy(&b);
    agent_destroy(&c);
}

static void test_random_is_uniform(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "thirty_one", err, sizeof err), 0);
    unsigned char st[g.def->state_size];
    assert_int_equal(game_init(&g, st, 1, NULL, 0), 0);
    int seat = game_current_seat(&g, st);
    int legal[g.dims.max_legal];
    int n = g.def->legal(&g, st, seat, legal);
    assert_true(n >= 2);
    agent_t *a = agent_new("random(seed=7)", &g, err, sizeof err);
    int counts[64] = {0}, draws = 2000 * n;
    for (int i = 0; i < draws; i++) {
        int act, k = 0;
        assert_int_equal(agent_act(a, st, seat, &act), 0);
        while (k < n && legal[k] != act)
            k++;
        assert_true(k < n); /* always legal */
        counts[k]++;
    }
    for (int k = 0; k < n; k++)
        assert_in_range(counts[k], 1800, 2200);
    agent_destroy(&a);
}

/* Random agents' generators, written every move, sit on cache lines of
 * their own: tournament workers each hold agents, and two of them on one
 * line slowed two-job tournaments by a third. */
static void test_random_agents_own_their_lines(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    agent_t *a[8];
    assert_int_equal(game_make(&g, "thirty_one(players=2)", err, sizeof err),
                     0);
    for (int i = 0; i < 8; i++) {
        a[i] = agent_new("random", &g, err, sizeof err);
        assert_non_null(a[i]);
        assert_int_equal((uintptr_t)a[i]->self % 64, 0);
    }
    for (int i = 0; i < 8; i++)
        agent_destroy(&a[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs_and_errors),
        cmocka_unit_test(test_random_is_reproducible),
        cmocka_unit_test(test_random_is_uniform),
        cmocka_unit_test(test_random_agents_own_their_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
