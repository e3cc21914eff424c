/* test_results.c — the results builder against tallies worked out by
 * hand: pairwise scores per deal and pair, per-agent counts, games read
 * twice, games out of order, and how much the builder keeps while it
 * gathers (a deal's results that arrive together share one entry; a
 * header's claim of many more games than arrive costs nothing).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/mem.h"
#include "tournament/results.h"
#include "tournament/schedule.h"

/* A two-seat game (seat s is side s), three agents, one line-up a deal
 * in these tests (the line-up is not checked by the builder). */
static void header(struct journal_header *h, int deals)
{
    memset(h, 0, sizeof *h);
    h->format = JOURNAL_FORMAT;
    h->roster.n = 3;
    h->deals = deals;
    h->lineups = 1;
    h->sides = 2;
    h->seats = 2;
    h->team[0] = 0;
    h->team[1] = 1;
    h->games = (int64_t)deals * h->lineups * h->sides;
    h->shard = h->nshards = 1;
}

/* A game of deal d, rotation rot: agent a in seat 0 with return ra,
 * agent b in seat 1 with return rb; ranks from the returns. */
static struct journal_record game(int64_t d, int rot, int a, int b,
                                  double ra, double rb)
{
    struct journal_record r;
    memset(&r, 0, sizeof r);
    r.deal = d;
    r.rotation = rot;
    r.agent[0] = (int8_t)a;
    r.agent[1] = (int8_t)b;
    r.res.ret[0] = ra;
    r.res.ret[1] = rb;
    r.res.rank[0] = ra > rb ? 1 : ra < rb ? 2 : 1;
    r.res.rank[1] = rb > ra ? 1 : rb < ra ? 2 : 1;
    r.res.culprit = -1;
    return r;
}

static void add(struct results_builder *b, const struct journal_header *h,
                struct journal_record r)
{
    char err[256];
    assert_int_equal(results_add(b, h, &r, err, sizeof err), 0);
}

/* Deal k's pair p is (i, j) with score and games. */
static void assert_pair(const struct results *r, int64_t k, int p, int i,
                        int j, double score, double games)
{
    const struct results_pair *x = &r->pair[r->start[k] + p];
    assert_true(r->start[k] + p < r->start[k + 1]);
    assert_int_equal(x->i, i);
    assert_int_equal(x->j, j);
    assert_true(x->score == score);
    assert_true(x->games == games);
}

/* Games read in order: each deal's two games of one pair are one entry
 * in the builder, and the sums are the hand tallies. */
static void test_in_order(void **state)
{
    (void)state;
    struct journal_header h;
    struct results r = {0};
    struct results_builder b;
    char err[256];
    header(&h, 3);
    assert_int_equal(results_begin(&b, &r, &h, true, err, sizeof err), 0);
    /* deal 0: agent 0 beats 1 in seat 0, ties in seat 1: 1.5 of 2 */
    add(&b, &h, game(0, 0, 0, 1, 5, -5));
    add(&b, &h, game(0, 1, 1, 0, 2, 2));
    /* deal 1: agent 2 against 0; 0 wins both: 2's points 0, so 0 has
     * 2 of 2 against 2 (the pair is written 0 < 2) */
    add(&b, &h, game(1, 0, 2, 0, -1, 1));
    add(&b, &h, game(1, 1, 0, 2, 3, -3));
    /* deal 2: 1 against 2, 1 loses both */
    add(&b, &h, game(2, 0, 1, 2, 0, 4));
    add(&b, &h, game(2, 1, 2, 1, 4, 0));
    assert_int_equal(b.nraw, 3); /* one a deal */
    assert_int_equal(results_end(&b, err, sizeof err), 0);
    assert_int_equal(r.games, 6);
    assert_int_equal(r.ndeals, 3);
    for (int k = 0; k < 3; k++)
        assert_int_equal(r.deal[k], k);
    assert_pair(&r, 0, 0, 0, 1, 1.5, 2);
    assert_pair(&r, 1, 0, 0, 2, 2, 2);
    assert_pair(&r, 2, 0, 1, 2, 0, 2);
    assert_int_equal(r.start[3], 3);
    assert_int_equal(r.agent_games[0], 4);
    assert_int_equal(r.agent_games[1], 4);
    assert_int_equal(r.agent_games[2], 4);
    assert_true(r.ret_sum[0] == 5 + 2 + 1 + 3);
    results_fini(&r);
}

/* Games out of order, one read twice, and two pairs in one deal (its
 * games of one pair not together): the same sums as in order, the deals
 * ascending, a deal's pairs in (i, j) order. */
static void test_out_of_order(void **state)
{
    (void)state;
    struct journal_header h;
    struct results r = {0};
    struct results_builder b;
    char err[256];
    header(&h, 3);
    h.lineups = 2; /* deal 1 has line-ups 0 (agents 1, 2) and 1 (0, 1) */
    h.games = 3 * 2 * 2;
    assert_int_equal(results_begin(&b, &r, &h, true, err, sizeof err), 0);
    struct journal_record g[] = {
        game(2, 0, 0, 2, 1, 0),  game(1, 0, 1, 2, 0, 0),
        game(0, 0, 0, 1, 0, 1),  game(1, 0, 0, 1, 1, 0),
        game(1, 1, 2, 1, 1, 0),  game(1, 1, 1, 0, 7, 0),
        game(0, 1, 1, 0, 0, 1),
    };
    g[1].lineup = g[4].lineup = 0;
    g[3].lineup = g[5].lineup = 1;
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
        add(&b, &h, g[i]);
    add(&b, &h, g[2]); /* read again: counts once */
    assert_int_equal(results_end(&b, err, sizeof err), 0);
    assert_int_equal(r.games, 7);
    assert_int_equal(r.duplicates, 1);
    assert_int_equal(r.ndeals, 3);
    /* deal 0: seat 1 wins both games, 1 the first, 0 the second: 1 of 2 */
    assert_pair(&r, 0, 0, 0, 1, 1, 2);
    /* deal 1: (0, 1): 0 wins as seat 0, loses as seat 1: 1 of 2;
     * (1, 2): a tie (0.5) and a loss for 1 (0): 0.5 of 2 */
    assert_pair(&r, 1, 0, 0, 1, 1, 2);
    assert_pair(&r, 1, 1, 1, 2, 0.5, 2);
    assert_int_equal(r.start[2] - r.start[1], 2);
    assert_pair(&r, 2, 0, 0, 2, 1, 1);
    results_fini(&r);
}

/* test_out_of_order's games summed without deals (what a tournament's
 * summary keeps): no raw results, the deals counted, and the hand tallies
 * of its pairs summed; with deals, the table of every deal is the same
 * and the table of the first deal holds deal 0 alone. */
static void test_totals_without_deals(void **state)
{
    (void)state;
    struct journal_header h;
    char err[256];
    header(&h, 3);
    h.lineups = 2;
    h.games = 3 * 2 * 2;
    struct journal_record g[] = {
        game(2, 0, 0, 2, 1, 0),  game(1, 0, 1, 2, 0, 0),
        game(0, 0, 0, 1, 0, 1),  game(1, 0, 0, 1, 1, 0),
        game(1, 1, 2, 1, 1, 0),  game(1, 1, 1, 0, 7, 0),
        game(0, 1, 1, 0, 0, 1),  game(0, 0, 0, 1, 0, 1),
    };
    g[1].lineup = g[4].lineup = 0;
    g[3].lineup = g[5].lineup = 1;
    /* (0, 1): 1 of 2 in deals 0 and 1; (1, 2): 0.5 of 2; (0, 2): 1 of 1 */
    static const double score[9] = {0, 2, 1, 2, 0, 0.5, 0, 1.5, 0};
    static const double games[9] = {0, 4, 1, 4, 0, 2, 1, 2, 0};
    static const double deal0[9] = {0, 1, 0, 1, 0, 0, 0, 0, 0};
    for (int by_deal = 0; by_deal < 2; by_deal++) {
        struct results r = {0};
        struct results_builder b;
        double s[9], n[9];
        assert_int_equal(results_begin(&b, &r, &h, by_deal, err, sizeof err),
                         0);
        for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
            add(&b, &h, g[i]);
        assert_int_equal(b.nraw, by_deal ? 7 : 0); /* none follow their like */
        assert_int_equal(results_end(&b, err, sizeof err), 0);
        assert_int_equal(r.games, 7);
        assert_int_equal(r.duplicates, 1);
        assert_int_equal(r.ndeals, 3);
        assert_int_equal(r.pair != NULL, by_deal);
        results_table(&r, r.ndeals, s, n);
        for (int k = 0; k < 9; k++) {
            assert_true(s[k] == score[k]);
            assert_true(n[k] == games[k]);
        }
        if (by_deal) {
            results_table(&r, 1, s, n);
            for (int k = 0; k < 9; k++) {
                assert_true(s[k] == deal0[k]);
                assert_true(n[k] == 2 * deal0[k]);
            }
        }
        results_fini(&r);
    }
}

/* An agent that holds both seats of a game plays one game there, and
 * gives no pairwise result; a forfeit counts once for it. */
static void test_agent_in_two_seats(void **state)
{
    (void)state;
    struct journal_header h;
    struct results r = {0};
    struct results_builder b;
    char err[256];
    header(&h, 1);
    assert_int_equal(results_begin(&b, &r, &h, true, err, sizeof err), 0);
    struct journal_record g = game(0, 0, 2, 2, 1, -1);
    g.res.forfeit = 3; /* both seats: one agent's forfeit */
    add(&b, &h, g);
    assert_int_equal(results_end(&b, err, sizeof err), 0);
    assert_int_equal(r.games, 1);
    assert_int_equal(r.forfeits, 1);
    assert_int_equal(r.agent_games[2], 1);
    assert_int_equal(r.agent_forfeits[2], 1);
    assert_int_equal(r.seats[2], 2);
    assert_int_equal(r.agent_games[0], 0);
    assert_int_equal(r.ndeals, 0);
    results_fini(&r);
}

/* A header may claim many more games than are read (it is input): the
 * builder's memory follows the games added. With every block over 1 MiB
 * refused (a bitmap of the claimed 1.6e10 games would be 2 GB), games
 * of deals 0, 5e8 and 1e9 - 1, one read twice, arriving out of order,
 * are summed by the hand tallies, with or without deals. */
static void test_scattered_deals(void **state)
{
    (void)state;
    struct journal_header h;
    char err[256];
    int64_t last = SCHEDULE_DEALS_MAX - 1, mid = 500000000;
    header(&h, 1);
    h.deals = SCHEDULE_DEALS_MAX;
    h.lineups = 8;
    h.games = h.deals * h.lineups * h.sides;
    struct journal_record g[] = {
        game(last, 1, 1, 0, 0, 5), /* 0 beats 1 */
        game(0, 0, 0, 2, 2, 2),    /* 0 and 2 draw */
        game(mid, 0, 2, 1, 1, 0),  /* 2 beats 1 */
        game(last, 1, 1, 0, 0, 5), /* read again */
        game(0, 1, 2, 0, 3, 1),    /* 2 beats 0 */
    };
    g[0].lineup = g[3].lineup = 7;
    g[2].lineup = 3;
    mem_fail_over(1 << 20);
    for (int by_deal = 0; by_deal < 2; by_deal++) {
        struct results r = {0};
        struct results_builder b;
        assert_int_equal(results_begin(&b, &r, &h, by_deal, err, sizeof err),
                         0);
        for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
            add(&b, &h, g[i]);
        assert_int_equal(results_end(&b, err, sizeof err), 0);
        assert_int_equal(r.games, 4);
        assert_int_equal(r.duplicates, 1);
        assert_int_equal(r.ndeals, 3);
        if (by_deal) {
            assert_int_equal(r.deal[0], 0);
            assert_int_equal(r.deal[1], mid);
            assert_int_equal(r.deal[2], last);
            assert_pair(&r, 0, 0, 0, 2, 0.5, 2);
            assert_pair(&r, 1, 0, 1, 2, 0, 1);
            assert_pair(&r, 2, 0, 0, 1, 1, 1);
            assert_int_equal(r.start[3], 3);
        }
        results_fini(&r);
    }
    mem_fail_over(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_order),
        cmocka_unit_test(test_out_of_order),
        cmocka_unit_test(test_agent_in_two_seats),
        cmocka_unit_test(test_totals_without_deals),
        cmocka_unit_test(test_scattered_deals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
