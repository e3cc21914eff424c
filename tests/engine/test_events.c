/* test_events.c — engine/events: the lines people read, and what a whole
 * game of Spoil-Five reports checked against its rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first. */
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "engine/events.h"

static void expect_text(const struct event *ev, const char *want)
{
    char buf[256];
    int n = events_format(ev, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));
}

static void test_format(void **state)
{
    (void)state;
    struct event ev = {.kind = EVENT_TRICK, .deal = 1, .trick = 3, .seat = 2};
    expect_text(&ev, "trick 3 won by seat 2");
    ev.seat = -1;
    expect_text(&ev, "trick 3 complete");
    ev = (struct event){.kind = EVENT_DEAL_END, .deal = 2, .n = 2,
                        .value = {5, -5}, .delta = {3, -3}};
    expect_text(&ev, "deal 2 ends: seat 0 +3, seat 1 -3");
    ev.delta[0] = ev.delta[1] = 0; /* nothing paid: no list of zeros */
    expect_text(&ev, "deal 2 ends");
    ev.delta[0] = 3;
    ev.delta[1] = -3;
    ev.kind = EVENT_RETURNS;
    expect_text(&ev, "results so far: seat 0 5 (+3), seat 1 -5 (-3)");
    ev = (struct event){.kind = EVENT_SCORES, .n = 3, .value = {12, 7, 0.5},
                        .delta = {3, 0, -0.5}};
    expect_text(&ev, "scores: 12 (+3) 7 0.5 (-0.5)");
    ev = (struct event){.kind = EVENT_DEAL_BEGIN, .deal = 4, .seat = 1};
    expect_text(&ev, "deal 4 begins, seat 1 deals");
    assert_string_equal(events_kind_name(EVENT_DEAL_END), "deal_end");
}

/* Random games of three-hand Spoil-Five: tricks are numbered 1 to at most
 * five within a deal, the winner of a trick leads to the next (the rule),
 * a new deal follows every deal end but the last, and what the deals pay
 * adds up, from the returns at the start, to the final returns. */
static void test_spoil_five_rules(void **state)
{
    (void)state;
    struct game g;
    char err[256];
    assert_int_equal(game_make(&g, "spoil_five(players=3)", err, sizeof err),
                     0);
    void *st = malloc(g.def->state_size);
    int *buf = malloc(sizeof(int) * (size_t)g.dims.max_legal);
    struct rng rng;
    rng_seed(&rng, 11);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct events e;
        struct event ev[EVENTS_MAX];
        double sum[3], ret[GAME_MAX_PLAYERS];
        int leader = -1, tricks = 0, ends = 0, begins = 0;
        assert_int_equal(game_init(&g, st, seed, NULL, 0), 0);
        g.def->returns(&g, st, sum);
        events_init(&e, &g, st, 0);
        while (!game_is_terminal(&g, st)) {
            int seat = game_current_seat(&g, st);
            if (leader >= 0)
                assert_int_equal(seat, leader);
            leader = -1;
            int n = g.def->legal(&g, st, seat, buf);
            int a = buf[rng_below(&rng, (uint32_t)n)];
            assert_int_equal(game_apply(&g, st, seat, a), 0);
            n = events_next(&e, &g, st, ev);
            for (int i = 0; i < n; i++) {
                if (ev[i].kind == EVENT_TRICK) {
                    assert_int_equal(ev[i].trick, ++tricks);
                    assert_true(tricks <= 5);
                    leader = ev[i].seat;
                } else if (ev[i].kind == EVENT_DEAL_END) {
                    assert_int_equal(ev[i].deal, ++ends);
                    for (int s = 0; s < 3; s++)
                        sum[s] += ev[i].delta[s];
                    tricks = 0;
                } else if (ev[i].kind == EVENT_DEAL_BEGIN) {
                    assert_int_equal(ev[i].deal, ++begins + 1);
                }
            }
        }
        g.def->returns(&g, st, ret);
        for (int s = 0; s < 3; s++)
            assert_true(sum[s] == ret[s]);
        assert_true(ends >= 1);
        assert_int_equal(begins, ends - 1);
    }
    free(buf);
    free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_spoil_five_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
