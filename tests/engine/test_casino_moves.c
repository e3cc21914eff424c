/* test_casino_moves.c — Casino's legal moves against a brute-force
 * reference written here from the rules in casino.c's header comment.
 *
 * casino_moves.c finds captures and builds by growing unions of groups
 * from a list of subsets; this file instead tries every set of table
 * items and asks whether it splits into groups as the rules say, then
 * sorts each block's sets in the documented canonical order (most cards
 * first, then the lower item mask) and derives the ids legal() must list
 * and the items apply() must take for each. States come from seeded
 * random play under every rule variant, with a bias towards trailing so
 * that tables grow cluttered (builds, full tables, overflow ids).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "engine/game.h"
#include "engine/games/casino.h"

#define REF_ITEMS 9    /* tables with more items are not brute-forced */
#define MAX_OPTS (1 << REF_ITEMS) /* most options of one block */
#define HAND 4         /* most cards in hand */
#define EPISODES 12    /* random episodes per spec */

/* ---- the reference ----------------------------------------------------- */

/* One table item: a loose numeral or a whole build. */
struct ref_item {
    uint64_t bit; /* its bit in an item mask */
    int value;    /* rank, or the build's value */
    bool build;   /* a build, not a loose card */
    bool multi;   /* a multiple build */
    int weight;   /* cards it holds */
};

/* What one block's search needs. */
struct ref {
    struct ref_item it[CASINO_TABLE_MAX]; /* items, ascending bit */
    int n;                                /* entries in it */
    struct casino_rules ru;               /* the rule variants */
    unsigned owned;                       /* build values the seat owns */
    unsigned after;                       /* ranks held after the play */
    int target;                           /* what each group adds up to */
    int vbuild;                           /* index of the target-build, -1 */
};

static int rank_of(int c)
{
    return c % 13 + 1;
}

static unsigned ranks_in(hand_t h)
{
    unsigned m = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++)
        if ((h >> c) & 1)
            m |= 1u << rank_of(c);
    return m;
}

static void list_ref_items(const struct casino_state *st, struct ref *R)
{
    R->n = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++)
        if (((st->loose >> c) & 1) && rank_of(c) <= 10)
            R->it[R->n++] = (struct ref_item){(uint64_t)1 << c, rank_of(c),
                                              false, false, 1};
    for (int v = 2; v <= CASINO_VMAX; v++) {
        if (!st->build[v])
            continue;
        int sum = 0, w = 0;
        for (int c = 0; c < CARDS_IN_PACK; c++)
            if ((st->build[v] >> c) & 1) {
                sum += rank_of(c);
                w++;
            }
        R->it[R->n++] =
            (struct ref_item){(uint64_t)1 << (50 + v), v, true, sum > v, w};
    }
}

/* Sum, loose count, single and multiple builds of the index set m. */
static void tally(const struct ref *R, unsigned m, int *sum, int *size,
                  int *single, int *multi)
{
    *sum = *size = *single = *multi = 0;
    for (int i = 0; i < R->n; i++) {
        if (!((m >> i) & 1))
            continue;
        *sum += R->it[i].value;
        (*size)++;
        *single += R->it[i].build && !R->it[i].multi;
        *multi += R->it[i].multi;
    }
}

enum { G_CAPTURE, G_OWN, G_OTHER };

/* May the index set g be a group of this kind? (casino.c, "Captures"
 * and "Builds"). */
static bool group_ok(const struct ref *R, unsigned g, int kind, int want)
{
    int sum, size, single, multi;
    tally(R, g, &sum, &size, &single, &multi);
    if (sum != want)
        return false;
    bool loose_only = !single && !multi;
    switch (kind) {
    case G_CAPTURE: /* loose cards, any one item of value r alone, or
                     * single builds as cards (as_card) */
        return loose_only || size == 1 || (R->ru.as_card && !multi);
    case G_OWN: /* loose cards; one single build, alone or (raise_table)
                 * with loose cards; single builds as cards (as_card) */
        if (loose_only)
            return true;
        if (multi)
            return false;
        return R->ru.as_card ||
               (single == 1 && (size == 1 || R->ru.raise_table));
    default: /* loose cards, or single builds as cards (as_card) */
        return !multi && (loose_only || R->ru.as_card);
    }
}

/* Does the index set left split into groups of kind adding to target? */
static bool splits(const struct ref *R, unsigned left, int kind)
{
    if (!left)
        return true;
    unsigned low = left & -left, rest = left ^ low;
    for (unsigned g = rest;; g = (g - 1) & rest) {
        if (group_ok(R, g | low, kind, R->target) &&
            splits(R, left & ~(g | low), kind))
            return true;
        if (!g)
            return false;
    }
}

/* The build values taken by the index set s. */
static unsigned builds_used(const struct ref *R, unsigned s)
{
    unsigned u = 0;
    for (int i = 0; i < R->n; i++)
        if (((s >> i) & 1) && R->it[i].build)
            u |= 1u << R->it[i].value;
    return u;
}

/* After the play the seat holds a card of every build it owns. */
static bool keeps(const struct ref *R, unsigned used, int made)
{
    unsigned need = (R->owned & ~used) | (made ? 1u << made : 0);
    return (need & ~R->after) == 0;
}

/* Is the index set s a legal build of value v (R->target) with a card of
 * rank r? It holds the existing v-build, the played card's group (the
 * card alone when r == v, else it with a set adding up to v - r), and
 * other groups adding up to v. */
static bool build_ok(const struct ref *R, unsigned s, int r)
{
    int v = R->target;
    unsigned forced = R->vbuild >= 0 ? 1u << R->vbuild : 0;
    if (!s || (s & forced) != forced || !keeps(R, builds_used(R, s), v))
        return false;
    unsigned rest = s & ~forced;
    if (r == v)
        return splits(R, rest, G_OTHER);
    for (unsigned o = rest; o; o = (o - 1) & rest)
        if (group_ok(R, o, G_OWN, v - r) && splits(R, rest & ~o, G_OTHER))
            return true;
    return false;
}

static uint64_t items_of(const struct ref *R, unsigned s)
{
    uint64_t m = 0;
    for (int i = 0; i < R->n; i++)
        if ((s >> i) & 1)
            m |= R->it[i].bit;
    return m;
}

static int weight_of(const struct ref *R, unsigned s)
{
    int w = 0;
    for (int i = 0; i < R->n; i++)
        if ((s >> i) & 1)
            w += R->it[i].weight;
    return w;
}

/* An option: its item mask and cards taken, for the canonical sort. */
struct opt {
    uint64_t items;
    int weight;
};

static int by_canonical(const void *a, const void *b)
{
    const struct opt *x = a, *y = b;
    if (x->weight != y->weight)
        return y->weight - x->weight;
    return x->items < y->items ? -1 : x->items > y->items;
}

/* The options of card in kind for seat, canonically sorted; how many. */
static int block(const struct casino_state *st, struct ref *R, int seat,
                 int card, int kind, struct opt *out)
{
    int r = rank_of(card), n = 0;
    R->after = ranks_in(st->hand[seat] & ~((hand_t)1 << card));
    if (r > 10) { /* a face card takes one loose card of its rank */
        if (kind || !keeps(R, 0, 0))
            return 0;
        for (int c = 0; c < CARDS_IN_PACK; c++)
            if (((st->loose >> c) & 1) && rank_of(c) == r)
                out[n++] = (struct opt){(uint64_t)1 << c, 1};
        return n;
    }
    int v = kind ? kind + 1 : 0;
    if (kind && (r > v || !((R->after >> v) & 1)))
        return 0;
    R->target = kind ? v : r;
    R->vbuild = -1;
    for (int i = 0; i < R->n; i++)
        if (kind && R->it[i].build && R->it[i].value == v)
            R->vbuild = i;
    for (unsigned s = 1; s < 1u << R->n; s++) {
        bool ok = kind ? build_ok(R, s, r)
                       : keeps(R, builds_used(R, s), 0) &&
                             splits(R, s, G_CAPTURE);
        if (ok) {
            assert_true(n < MAX_OPTS);
            out[n++] = (struct opt){items_of(R, s), weight_of(R, s)};
        }
    }
    qsort(out, (size_t)n, sizeof *out, by_canonical);
    return n;
}

/* ---- the comparison ---------------------------------------------------- */

/* Per hand card (by ascending id) and kind: its options. */
static struct opt opts[HAND][CASINO_KINDS][MAX_OPTS];
static int nopts[HAND][CASINO_KINDS];
static int card_at[HAND];
static int ids[CASINO_MAX_LEGAL];

/* The id of option j of card c in kind (casino.c, "Action ids"). */
static int stable_id(int c, int kind, int j)
{
    return CASINO_TRAILS + (c * CASINO_KINDS + kind) * CASINO_OPTS + j;
}

/* The cards seat may trail (casino.c, "Ownership" and "Table limit"). */
static hand_t ref_trails(const struct casino_state *st, const struct ref *R,
                         int seat, bool plays)
{
    hand_t t = 0, h = st->hand[seat];
    for (int c = 0; c < CARDS_IN_PACK; c++) {
        if (!((h >> c) & 1))
            continue;
        unsigned left = ranks_in(h & ~((hand_t)1 << c));
        if (!R->owned || (R->ru.owner_trail && (R->owned & ~left) == 0))
            t |= (hand_t)1 << c;
    }
    if (R->n < CASINO_TABLE_MAX)
        return t;
    if (plays || (t & ~CASINO_NUMERALS))
        return t & ~CASINO_NUMERALS;
    return t;
}

/* Checks legal() and every legal id's effect in st against the reference;
 * returns the number of overflow ids seen. */
static int check_state(const struct game *g, const struct casino_state *st,
                       const struct casino_rules *ru)
{
    int seat = st->turn, want[CASINO_MAX_LEGAL], n = 0, nover = 0;
    struct ref R = {.ru = *ru};
    list_ref_items(st, &R);
    for (int v = 2; v <= CASINO_VMAX; v++)
        if (st->build[v] && st->owner[v] == seat)
            R.owned |= 1u << v;
    bool plays = false;
    int nh = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++) {
        if (!((st->hand[seat] >> c) & 1))
            continue;
        assert_true(nh < HAND);
        card_at[nh] = c;
        for (int k = 0; k < CASINO_KINDS; k++) {
            nopts[nh][k] = block(st, &R, seat, c, k, opts[nh][k]);
            plays = plays || nopts[nh][k] > 0;
        }
        nh++;
    }
    hand_t t = ref_trails(st, &R, seat, plays);
    for (int c = 0; c < CARDS_IN_PACK; c++)
        if ((t >> c) & 1)
            want[n++] = c;
    for (int i = 0; i < nh; i++)
        for (int k = 0; k < CASINO_KINDS; k++)
            for (int j = 0; j < nopts[i][k] && j < CASINO_OPTS; j++)
                want[n++] = stable_id(card_at[i], k, j);
    for (int i = 0; i < nh; i++)
        for (int k = 0; k < CASINO_KINDS; k++)
            for (int j = CASINO_OPTS; j < nopts[i][k]; j++)
                want[n++] = CASINO_STABLE + nover++;
    int got = g->def->legal(g, st, seat, ids);
    assert_int_equal(got, n);
    assert_memory_equal(ids, want, sizeof *ids * (size_t)n);
    /* Each id takes the items of its option: seen in the history. */
    int over = 0;
    for (int i = 0; i < nh; i++)
        for (int k = 0; k < CASINO_KINDS; k++)
            for (int j = 0; j < nopts[i][k]; j++) {
                struct casino_state s2 = *st;
                int id = j < CASINO_OPTS ? stable_id(card_at[i], k, j)
                                         : CASINO_STABLE + over++;
                assert_int_equal(game_apply(g, &s2, seat, id), 0);
                if (s2.nhist != st->nhist + 1)
                    continue; /* the round ended: its history is gone */
                assert_int_equal(s2.hist_card[st->nhist], card_at[i]);
                assert_int_equal(s2.hist_kind[st->nhist], k);
                assert_true(s2.hist_items[st->nhist] == opts[i][k][j].items);
            }
    return nover;
}

/* Plays random episodes of spec, checking every state whose table the
 * reference can search; trails are favoured so that tables fill up. */
static void run_spec(const char *spec, int *checked, int *builds, int *over)
{
    struct game g;
    struct casino_state st;
    struct rng rng;
    char err[256];
    if (game_make(&g, spec, err, sizeof err))
        fail_msg("%s", err);
    struct casino_rules ru = {game_param(&g, "build_as_card") != 0,
                              game_param(&g, "raise_with_table") != 0,
                              game_param(&g, "owner_may_trail") != 0};
    rng_seed(&rng, 11);
    for (int e = 1; e <= EPISODES; e++) {
        assert_int_equal(game_init(&g, &st, (uint64_t)e, NULL, 0), 0);
        while (!game_is_terminal(&g, &st)) {
            if (casino__items(&st) <= REF_ITEMS) {
                *over += check_state(&g, &st, &ru);
                (*checked)++;
                *builds += casino__items(&st) >
                           hand_count(st.loose & CASINO_NUMERALS);
            }
            int n = g.def->legal(&g, &st, st.turn, ids);
            int trails = 0;
            while (trails < n && ids[trails] < CASINO_TRAILS)
                trails++;
            int pick = trails && rng_below(&rng, 3) ? (int)rng_below(
                                                          &rng, (uint32_t)trails)
                                                    : (int)rng_below(
                                                          &rng, (uint32_t)n);
            assert_int_equal(game_apply(&g, &st, st.turn, ids[pick]), 0);
        }
    }
}

static void test_legal_equals_brute_force(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "casino",
        "casino(build_as_card=true)",
        "casino(raise_with_table=true)",
        "casino(owner_may_trail=true)",
        "casino(players=3,build_as_card=true,raise_with_table=true)",
        "casino(players=4,partnerships=true,owner_may_trail=true)",
    };
    int checked = 0, builds = 0, over = 0;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        run_spec(specs[i], &checked, &builds, &over);
    /* The walk must reach the cases worth checking. */
    printf("# %d states checked, %d with builds, %d overflow ids\n", checked,
           builds, over);
    assert_true(checked > 5000);
    assert_true(builds > 1000);
    assert_true(over > 0);
}

/* casino__rank_sets folds a hand's suits: which ranks it holds, and which
 * twice or more, against a count per rank. */
static void test_rank_sets_fold_the_suits(void **state)
{
    (void)state;
    unsigned held, twice;
    hand_t h = card_bit(card_make(ACE, CLUBS)) |
               card_bit(card_make(ACE, SPADES)) |
               card_bit(card_make(5, HEARTS)) |
               card_bit(card_make(KING, DIAMONDS));
    casino__rank_sets(h, &held, &twice);
    assert_int_equal(held, 1u << 1 | 1u << 5 | 1u << 13);
    assert_int_equal(twice, 1u << 1);
    casino__rank_sets(0, &held, &twice);
    assert_int_equal(held | twice, 0);
    struct rng rng;
    rng_seed(&rng, 5);
    for (int i = 0; i < 20000; i++) {
        int per[KING + 1] = {0};
        unsigned want = 0;
        h = 0;
        for (int k = (int)rng_below(&rng, 9); k > 0; k--)
            h |= card_bit((int)rng_below(&rng, CARDS_IN_PACK));
        for (int c = 0; c < CARDS_IN_PACK; c++)
            per[rank_of(c)] += (int)((h >> c) & 1);
        for (int r = ACE; r <= KING; r++)
            want |= (unsigned)(per[r] >= 2) << r;
        casino__rank_sets(h, &held, &twice);
        assert_int_equal(held, ranks_in(h));
        assert_int_equal(twice, want);
        assert_int_equal(casino__ranks(h), ranks_in(h));
    }
}

/* casino__sum_pair finds two of the families casino__sum_families finds,
 * and those hold the sets adding up to their sum (checked set by set). */
static void test_sum_pair_matches_the_families(void **state)
{
    (void)state;
    struct rng rng;
    rng_seed(&rng, 9);
    for (int t = 0; t < 20000; t++) {
        uint8_t val[6] = {0};
        uint64_t fam[CASINO_SUM_MAX + 1], fa, fb;
        int n = (int)rng_below(&rng, 7);
        for (int i = 0; i < n; i++)
            val[i] = (uint8_t)(1 + rng_below(&rng, 10));
        int a = (int)rng_below(&rng, 11), b = (int)rng_below(&rng, 11);
        casino__sum_families(val, n, fam);
        casino__sum_pair(val, n, a, b, &fa, &fb);
        assert_true(fa == fam[a]);
        assert_true(fb == fam[b]);
        for (int m = 0; m < 64; m++) {
            int sum = 0;
            for (int i = 0; i < 6; i++)
                sum += (m >> i & 1) ? (i < n ? val[i] : 99) : 0;
            assert_int_equal((int)(fa >> m & 1), sum == a);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_equals_brute_force),
        cmocka_unit_test(test_rank_sets_fold_the_suits),
        cmocka_unit_test(test_sum_pair_matches_the_families),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
