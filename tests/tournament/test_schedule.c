/* test_schedule.c — the schedule is exactly the promised set of games:
 * line-ups (all combinations, covering sequences when agents are fewer
 * than sides, balanced samples), every deal for every line-up, every
 * rotation; partnerships seat one agent per team; shards partition the
 * games; and the agent list's syntax (labels, commas in parentheses).
 *
 * Expected counts are worked out by hand in the comments: C(n, m) line-ups
 * for n agents and m sides, C(m-1, n-1) when n < m, times m rotations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the headers it needs */

#include <string.h>

#include "common/err.h"
#include "tournament/roster.h"
#include "tournament/schedule.h"

/* ---- helpers ------------------------------------------------------------ */

static void make(struct game *g, const char *spec)
{
    char err[256];
    if (game_make(g, spec, err, sizeof err))
        fail_msg("%s", err);
}

static void build(struct schedule *s, const struct game *g, int n,
                  int64_t deals, int max)
{
    char err[256];
    if (schedule_init(s, g, n, deals, max, 7, err, sizeof err))
        fail_msg("%s", err);
}

/* Encodes a seating (seat -> agent) as a base-16 number. */
static uint64_t seating_key(const struct schedule_game *sg, int seats)
{
    uint64_t k = 0;
    for (int s = 0; s < seats; s++)
        k = k * 16 + (uint64_t)sg->agent[s];
    return k;
}

/* Every game of deal d, as seating keys, into keys; returns how many. */
static int deal_seatings(const struct schedule *s, int64_t d, uint64_t *keys)
{
    struct schedule_cursor c;
    struct schedule_game sg;
    int n = 0;
    assert_int_equal(schedule_cursor_init(&c, s), 0);
    for (int64_t i = 0; i < s->games; i++) {
        schedule_game(s, &c, i, &sg);
        assert_int_equal(sg.index, i);
        assert_int_equal(schedule_index(s, sg.deal, sg.lineup, sg.rotation), i);
        assert_true(sg.seed == schedule_deal_seed(7, sg.deal));
        if (sg.deal == d)
            keys[n++] = seating_key(&sg, s->seats);
    }
    schedule_cursor_fini(&c);
    return n;
}

static bool contains(const uint64_t *keys, int n, uint64_t k)
{
    for (int i = 0; i < n; i++)
        if (keys[i] == k)
            return true;
    return false;
}

static bool all_distinct(const uint64_t *keys, int n)
{
    for (int i = 0; i < n; i++)
        if (contains(keys + i + 1, n - i - 1, keys[i]))
            return false;
    return true;
}

/* ---- two seats ----------------------------------------------------------- */

/* 3 agents, 2 seats: C(3,2) = 3 line-ups, 2 rotations each, so each deal
 * has 6 games: exactly the 6 ordered pairs (a in seat 0, b in seat 1),
 * a != b — every pair meets in both seats on the same cards. */
static void test_two_seats(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    uint64_t keys[64];
    make(&g, "thirty_one(players=2)");
    build(&s, &g, 3, 5, 120);
    assert_false(s.sampled);
    assert_int_equal(s.lineups, 3);
    assert_int_equal(s.games, 5 * 3 * 2);
    for (int64_t d = 0; d < 5; d++) {
        assert_int_equal(deal_seatings(&s, d, keys), 6);
        assert_true(all_distinct(keys, 6));
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                assert_int_equal(contains(keys, 6, (uint64_t)(a * 16 + b)),
                                 a != b);
    }
    schedule_fini(&s);
}

/* ---- three and four seats ------------------------------------------------ */

/* 4 agents, 3 seats: C(4,3) = 4 line-ups x 3 cyclic rotations = 12 games a
 * deal. For the line-up {0,1,2} the rotations are 012, 201, 120: every
 * agent in every seat once, the cyclic order kept (1 always follows 0). */
static void test_three_seats(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    uint64_t keys[64];
    static const int combos[4][3] = {
        {0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    make(&g, "thirty_one(players=3)");
    build(&s, &g, 4, 2, 120);
    assert_int_equal(s.lineups, 4);
    assert_int_equal(s.games, 2 * 4 * 3);
    assert_int_equal(deal_seatings(&s, 1, keys), 12);
    assert_true(all_distinct(keys, 12));
    for (int c = 0; c < 4; c++) {
        const int *x = combos[c];
        for (int r = 0; r < 3; r++) {
            /* rotation r: seat t holds place (t - r) mod 3 */
            uint64_t k = 0;
            for (int t = 0; t < 3; t++)
                k = k * 16 + (uint64_t)x[(t - r + 3) % 3];
            assert_true(contains(keys, 12, k));
        }
    }
    schedule_fini(&s);
}

/* 5 agents, 4 seats: C(5,4) = 5 line-ups x 4 rotations = 20 games a deal,
 * each leaving one agent out; every agent sits in each seat 4 times a deal
 * (in the 4 line-ups that include it, once per line-up). */
static void test_four_seats(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    uint64_t keys[64];
    make(&g, "spoil_five(players=4)");
    build(&s, &g, 5, 3, 120);
    assert_int_equal(s.lineups, 5);
    assert_int_equal(s.games, 3 * 5 * 4);
    assert_int_equal(deal_seatings(&s, 2, keys), 20);
    assert_true(all_distinct(keys, 20));
    for (int a = 0; a < 5; a++)
        for (int seat = 0; seat < 4; seat++) {
            int count = 0;
            for (int i = 0; i < 20; i++)
                count += (int)((keys[i] >> (4 * (3 - seat))) & 15) == a;
            assert_int_equal(count, 4);
        }
    schedule_fini(&s);
}

/* 2 agents, 4 seats: agents fill several seats. The covering sequences of
 * length 4 over {A, B} are ABBB, AABB, AAAB (C(3,1) = 3), each rotated 4
 * ways: 12 games a deal, all different, A and B each in 24 of the 48
 * seat-places. */
static void test_fewer_agents_than_seats(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    uint64_t keys[64];
    make(&g, "spoil_five(players=4)");
    build(&s, &g, 2, 2, 120);
    assert_int_equal(s.lineups, 3);
    assert_int_equal(s.games, 2 * 3 * 4);
    assert_int_equal(deal_seatings(&s, 0, keys), 12);
    assert_true(all_distinct(keys, 12));
    /* base-16 keys, seat 0 first: AAAB = 0x0001, AABB = 0x0011, ... */
    static const uint64_t expect[12] = {0x0111, 0x1011, 0x1101, 0x1110,
                                        0x0011, 0x1001, 0x1100, 0x0110,
                                        0x0001, 0x1000, 0x0100, 0x0010};
    for (int i = 0; i < 12; i++)
        assert_true(contains(keys, 12, expect[i]));
    schedule_fini(&s);
}

/* Partnerships: spoil_five(players=4,partnerships=true) has two sides,
 * seats 0+2 and 1+3. 3 agents: C(3,2) = 3 line-ups, 2 rotations (the team
 * swap): 6 games a deal, a team always one agent in both its seats. */
static void test_partnerships(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    uint64_t keys[64];
    make(&g, "spoil_five(players=4,partnerships=true)");
    assert_int_equal(g.dims.teams, 2);
    build(&s, &g, 3, 4, 120);
    assert_int_equal(s.sides, 2);
    assert_int_equal(s.lineups, 3);
    assert_int_equal(s.games, 4 * 3 * 2);
    assert_int_equal(deal_seatings(&s, 3, keys), 6);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            uint64_t k = (uint64_t)(a * 0x1010 + b * 0x0101);
            assert_int_equal(contains(keys, 6, k), a != b);
        }
    schedule_fini(&s);
}

/* ---- sampling ------------------------------------------------------------ */

/* 7 agents, 2 seats, at most 4 line-ups: C(7,2) = 21 > 4, so each deal
 * samples 4 line-ups of 2 different agents: 8 places for 7 agents, so
 * every agent gets 1 or 2 places a deal, and the games are 4 x 2. */
static void test_sampled(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    struct schedule_cursor c;
    struct schedule_game sg;
    make(&g, "thirty_one(players=2)");
    build(&s, &g, 7, 50, 4);
    assert_true(s.sampled);
    assert_int_equal(s.lineups, 4);
    assert_int_equal(s.games, 50 * 4 * 2);
    assert_int_equal(schedule_cursor_init(&c, &s), 0);
    for (int64_t d = 0; d < 50; d++) {
        int places[7] = {0};
        for (int l = 0; l < 4; l++) {
            schedule_game(&s, &c, schedule_index(&s, d, l, 0), &sg);
            assert_int_not_equal(sg.agent[0], sg.agent[1]);
            places[sg.agent[0]]++;
            places[sg.agent[1]]++;
            /* rotation 1 swaps the seats */
            struct schedule_game sw;
            schedule_game(&s, &c, schedule_index(&s, d, l, 1), &sw);
            assert_int_equal(sw.agent[0], sg.agent[1]);
            assert_int_equal(sw.agent[1], sg.agent[0]);
        }
        for (int a = 0; a < 7; a++)
            assert_true(places[a] == 1 || places[a] == 2);
    }
    /* The sample depends on the deal only: asking again, in another order,
     * with a fresh cursor, gives the same seating. */
    struct schedule_cursor c2;
    struct schedule_game again;
    assert_int_equal(schedule_cursor_init(&c2, &s), 0);
    schedule_game(&s, &c2, schedule_index(&s, 3, 2, 0), &again);
    schedule_game(&s, &c, schedule_index(&s, 3, 2, 0), &sg);
    assert_memory_equal(again.agent, sg.agent, 2);
    schedule_cursor_fini(&c2);
    schedule_cursor_fini(&c);
    schedule_fini(&s);
}

/* Game i of s as a fresh reader sees it: the divisions, nothing cached. */
static void fresh_game(const struct schedule *s, int64_t i,
                       struct schedule_game *out)
{
    struct schedule_cursor c;
    assert_int_equal(schedule_cursor_init(&c, s), 0);
    schedule_game(s, &c, i, out);
    schedule_cursor_fini(&c);
}

/* The same game, whatever was asked before: one cursor walks the games
 * in index order (counting on from the last one), then backwards, then
 * by jumps; each answer matches a fresh reader's. Three sides and 2 or 3
 * line-ups a deal, so every carry (rotation into line-up, line-up into
 * deal) happens many times; sampled and enumerated schedules. */
static void check_walks(const char *spec, int n, int max)
{
    struct game g;
    struct schedule s;
    struct schedule_cursor c;
    struct schedule_game a, b;
    make(&g, spec);
    build(&s, &g, n, 9, max);
    assert_int_equal(schedule_cursor_init(&c, &s), 0);
    for (int pass = 0; pass < 3; pass++)
        for (int64_t k = 0; k < s.games; k++) {
            int64_t i = pass == 0   ? k
                        : pass == 1 ? s.games - 1 - k
                                    : (k * 7) % s.games;
            schedule_game(&s, &c, i, &a);
            fresh_game(&s, i, &b);
            assert_int_equal(a.index, i);
            assert_int_equal(a.deal, b.deal);
            assert_int_equal(a.lineup, b.lineup);
            assert_int_equal(a.rotation, b.rotation);
            assert_true(a.seed == b.seed);
            assert_true(a.seed == schedule_deal_seed(7, a.deal));
            assert_memory_equal(a.agent, b.agent, (size_t)s.seats);
            assert_int_equal(schedule_index(&s, a.deal, a.lineup,
                                            a.rotation), i);
        }
    schedule_cursor_fini(&c);
    schedule_fini(&s);
}

static void test_walk_orders(void **state)
{
    (void)state;
    check_walks("thirty_one(players=3)", 4, 120); /* C(4, 3) = 4 */
    check_walks("thirty_one(players=3)", 3, 120); /* 1 line-up */
    check_walks("thirty_one(players=3)", 6, 2);   /* sampled, 2 */
    check_walks("spoil_five(players=4,partnerships=true)", 3, 120);
}

/* One shard of one: every game, with or without counting. */
static void test_one_shard(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    make(&g, "thirty_one(players=3)");
    build(&s, &g, 3, 5, 120);
    for (int64_t i = 0; i < s.games; i++) {
        assert_true(schedule_in_shard(&s, i, 1, 1));
        assert_false(schedule_in_shard(&s, i, 2, 1));
    }
    schedule_fini(&s);
}

/* ---- shards -------------------------------------------------------------- */

/* Every game is in exactly one of 3 shards, and a line-up's rotations in
 * one deal stay in the same shard. */
static void test_shards(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    make(&g, "thirty_one(players=3)");
    build(&s, &g, 4, 7, 120);
    for (int64_t i = 0; i < s.games; i++) {
        int in = 0, where = 0;
        for (int k = 1; k <= 3; k++)
            if (schedule_in_shard(&s, i, k, 3)) {
                in++;
                where = k;
            }
        assert_int_equal(in, 1);
        int64_t first = i - i % s.sides; /* rotation 0 of this line-up */
        assert_true(schedule_in_shard(&s, first, where, 3));
        assert_true(schedule_in_shard(&s, i, 1, 1));
    }
    schedule_fini(&s);
}

static void test_refusals(void **state)
{
    (void)state;
    struct game g;
    struct schedule s;
    char err[256];
    make(&g, "thirty_one(players=2)");
    assert_int_equal(schedule_init(&s, &g, 1, 10, 120, 1, err, sizeof err),
                     ERR_RANGE);
    assert_int_equal(schedule_init(&s, &g, 3, 0, 120, 1, err, sizeof err),
                     ERR_RANGE);
    assert_int_equal(schedule_init(&s, &g, 3, 10, 0, 1, err, sizeof err),
                     ERR_RANGE);
    assert_int_equal(
        schedule_index(&(struct schedule){.deals = 2, .lineups = 3, .sides = 2},
                       2, 0, 0),
        -1);
}

/* ---- the agent list ------------------------------------------------------ */

static void test_roster(void **state)
{
    (void)state;
    struct game g;
    struct roster r;
    char err[512];
    make(&g, "thirty_one(players=2)");
    /* Commas inside parentheses belong to the spec; defaults drop out of
     * the canonical spec (random's seed is 1 by default). */
    assert_int_equal(roster_parse(&r,
                                  "random(seed=1), ismcts(iters=20,c=0.5),"
                                  "strong=pimc(samples=3)",
                                  &g, err, sizeof err),
                     0);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.a[0].name, "random");
    assert_string_equal(r.a[0].spec, "random");
    assert_string_equal(r.a[1].name, "ismcts(iters=20,c=0.5)");
    assert_string_equal(r.a[2].name, "strong");
    assert_string_equal(r.a[2].spec, "pimc(samples=3)");
    assert_int_equal(roster_find(&r, "strong"), 2);
    /* The same spec twice needs labels; with them it is allowed. */
    assert_int_equal(roster_parse(&r, "random,random", &g, err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "label"));
    assert_int_equal(roster_parse(&r, "a=random,b=random", &g, err, sizeof err),
                     0);
    assert_int_equal(r.n, 2);
    assert_int_equal(roster_parse(&r, "random,,pimc", &g, err, sizeof err),
                     ERR_SYNTAX);
    assert_int_equal(roster_parse(&r, "random,nosuch", &g, err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "nosuch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_seats),
        cmocka_unit_test(test_three_seats),
        cmocka_unit_test(test_four_seats),
        cmocka_unit_test(test_fewer_agents_than_seats),
        cmocka_unit_test(test_partnerships),
        cmocka_unit_test(test_sampled),
        cmocka_unit_test(test_walk_orders),
        cmocka_unit_test(test_one_shard),
        cmocka_unit_test(test_shards),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_roster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
