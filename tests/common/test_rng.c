/* test_rng.c — rng_pick_bit, the uniform choice among a mask's set bits
 * that the bench, the env tests and the remote bench draw actions with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/rng.h"

/* Only set bits come out, across word boundaries, each about equally
 * often (3000 draws over 3 bits: each expected 1000, far from 800). */
static void test_pick_bit_uniform_over_set_bits(void **state)
{
    (void)state;
    uint64_t mask[2] = {(uint64_t)1 << 3, (uint64_t)1 << 6 | (uint64_t)1 << 63};
    int seen[128] = {0};
    struct rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < 3000; i++) {
        int a = rng_pick_bit(&r, mask, 2);
        assert_true(a == 3 || a == 70 || a == 127);
        seen[a]++;
    }
    assert_true(seen[3] > 800 && seen[70] > 800 && seen[127] > 800);
}

/* An empty mask has nothing to pick, and draws no number. */
static void test_pick_bit_empty(void **state)
{
    (void)state;
    uint64_t mask[3] = {0, 0, 0};
    struct rng r, copy;
    rng_seed(&r, 5);
    copy = r;
    assert_int_equal(rng_pick_bit(&r, mask, 3), -1);
    assert_int_equal(rng_next(&r), rng_next(&copy));
}

/* A single set bit is always the pick. */
static void test_pick_bit_single(void **state)
{
    (void)state;
    uint64_t mask[2] = {0, (uint64_t)1 << 5};
    struct rng r;
    rng_seed(&r, 2);
    for (int i = 0; i < 10; i++)
        assert_int_equal(rng_pick_bit(&r, mask, 2), 69);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_bit_uniform_over_set_bits),
        cmocka_unit_test(test_pick_bit_empty),
        cmocka_unit_test(test_pick_bit_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
