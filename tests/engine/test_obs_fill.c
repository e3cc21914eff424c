/* test_obs_fill.c — obs_fill.h: clearing a tensor's floats.
 *
 * obs_fill_zero must write +0.0f (all bits clear, as a memset gives) over
 * exactly the floats asked for, at any offset and length, and nothing on
 * either side.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "engine/obs_fill.h"

#define LEN 1000     /* floats in the test buffer */
#define SENTINEL 9.5f /* what the untouched floats keep */

static void fill(float *buf)
{
    for (int i = 0; i < LEN; i++)
        buf[i] = SENTINEL;
}

/* Clears [from, from + n) and checks the whole buffer. */
static void check_clear(float *buf, int from, int n)
{
    fill(buf);
    obs_fill_zero(buf + from, (size_t)n);
    for (int i = 0; i < LEN; i++) {
        uint32_t bits;
        memcpy(&bits, &buf[i], sizeof bits);
        if (i >= from && i < from + n)
            assert_int_equal(bits, 0); /* +0.0f, not -0.0f */
        else
            assert_true(buf[i] == SENTINEL);
    }
}

/* Sizes below, at and above the tensors' (208 to 766 floats), at offsets
 * that leave the start unaligned, and the empty clear. */
static void test_zero_clears_exactly_the_range(void **state)
{
    (void)state;
    static float buf[LEN];
    const int from[] = {0, 1, 3, 64, 321};
    const int n[] = {0, 1, 5, 208, 288, 556, 682};
    for (size_t a = 0; a < sizeof from / sizeof from[0]; a++)
        for (size_t b = 0; b < sizeof n / sizeof n[0]; b++)
            if (from[a] + n[b] <= LEN)
                check_clear(buf, from[a], n[b]);
}

/* Row b of the byte table is b's bits, lowest first: 0xa5 = 10100101
 * reads 1 0 1 0 0 1 0 1; every row, read back as bits, is its index; the
 * table starts on a cache line (whole-vector copies). */
static void test_byte_floats_spell_each_byte(void **state)
{
    (void)state;
    static const float a5[8] = {1, 0, 1, 0, 0, 1, 0, 1};
    assert_memory_equal(obs_byte_floats[0xa5], a5, sizeof a5);
    for (int b = 0; b < 256; b++) {
        int back = 0;
        for (int i = 0; i < 8; i++) {
            float x = obs_byte_floats[b][i];
            assert_true(x == 0.0f || x == 1.0f);
            back |= (x == 1.0f) << i;
        }
        assert_int_equal(back, b);
    }
    assert_int_equal((uintptr_t)obs_byte_floats % 64, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_clears_exactly_the_range),
        cmocka_unit_test(test_byte_floats_spell_each_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
