/* test_obs_fill.c — obs_fill.h: clearing a tensor's floats and writing
 * it from a stream of bits.
 *
 * obs_fill_zero must write +0.0f (all bits clear, as a memset gives) over
 * exactly the floats asked for, at any offset and length, and nothing on
 * either side. obs_bits_write, at each store width the CPU has, must
 * write each float of the range as its bit of the stream (built piece by
 * piece with obs_bits_put and obs_bits_skip), and nothing on either side.
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

/* A small generator of its own, so the test needs nothing else. */
static uint64_t next(uint64_t *x)
{
    *x = *x * 6364136223846793005u + 1442695040888963407u;
    return *x ^ *x >> 29;
}

/* Builds an n-bit stream of random pieces (some skipped) in w, and the
 * same bits one by one in want. */
static void build_stream(uint64_t *w, float *want, int n, uint64_t *x)
{
    struct obs_bits b;
    obs_bits_start(&b, w);
    for (int at = 0; at < n;) {
        int k = 1 + (int)(next(x) % 64);
        k = k < n - at ? k : n - at;
        uint64_t v = next(x) & (k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1);
        if (next(x) % 4 == 0) {
            v = 0;
            obs_bits_skip(&b, k);
        } else {
            obs_bits_put(&b, v, k);
        }
        for (int i = 0; i < k; i++)
            want[at + i] = (float)(v >> i & 1);
        at += k;
    }
    obs_bits_end(&b);
}

/* Writes n bits at buf + from with stores of width wd; checks the whole
 * buffer. */
static void check_bits(float *buf, int from, int n, enum obs_width wd,
                       uint64_t *x)
{
    uint64_t w[OBS_BITS_WORDS(LEN)];
    float want[LEN];
    build_stream(w, want, n, x);
    fill(buf);
    obs_bits_write_width(buf + from, w, n, wd);
    for (int i = 0; i < LEN; i++) {
        if (i >= from && i < from + n)
            assert_true(buf[i] == want[i - from]);
        else
            assert_true(buf[i] == SENTINEL);
    }
}

/* Every start within a cache line (and one line on), lengths around the
 * store widths and the tensors' sizes, at each width the CPU runs (the
 * 16-byte one always). */
static void test_bits_write_exactly_the_stream(void **state)
{
    (void)state;
    static _Alignas(64) float buf[LEN];
    const int n[] = {1,  2,  7,   8,   9,   15,  16,  17,  31,  48, 63,
                     64, 65, 100, 127, 128, 129, 177, 202, 641, 766, 928};
    uint64_t x = 1;
    int widths = 0;
    for (int wd = OBS_WIDTH_64; wd <= OBS_WIDTH_16; wd++) {
        if (!obs_width_supported((enum obs_width)wd))
            continue;
        widths++;
        for (int from = 0; from < 20; from++)
            for (size_t b = 0; b < sizeof n / sizeof n[0]; b++)
                if (from + n[b] <= LEN)
                    check_bits(buf, from, n[b], (enum obs_width)wd, &x);
    }
    assert_true(widths >= 1);
}

/* obs_quot, a product by a double reciprocal, is the float division for
 * every count and divisor up to 255 (2 / 3, 200 / 199, ...), and 0 for
 * divisor 0. A float reciprocal fails this (5 / 3 first). */
static void test_quot_matches_division(void **state)
{
    (void)state;
    assert_true(obs_quot(2, 3) == 2.0f / 3.0f);
    assert_true(obs_quot(0, 0) == 0.0f && obs_quot(7, 0) == 0.0f);
    for (int b = 1; b <= 255; b++)
        for (int a = 0; a <= 255; a++) {
            volatile float fa = (float)a, fb = (float)b; /* divide at run time */
            if (obs_quot(a, b) != fa / fb)
                fail_msg("%d / %d", a, b);
        }
}

/* OBS_FRAC64(d)[i] is i / d as the division gives it. */
static void test_frac_tables(void **state)
{
    (void)state;
    static const float third[64] = OBS_FRAC64(3), big[64] = OBS_FRAC64(52);
    for (int i = 0; i < 64; i++) {
        volatile float fi = (float)i, f3 = 3, f52 = 52;
        assert_true(third[i] == fi / f3);
        assert_true(big[i] == fi / f52);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_clears_exactly_the_range),
        cmocka_unit_test(test_byte_floats_spell_each_byte),
        cmocka_unit_test(test_bits_write_exactly_the_stream),
        cmocka_unit_test(test_quot_matches_division),
        cmocka_unit_test(test_frac_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
