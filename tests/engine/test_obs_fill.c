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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_clears_exactly_the_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
