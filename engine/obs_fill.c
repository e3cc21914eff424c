/* obs_fill.c — see obs_fill.h: the clear kept out of line, so that the
 * size reaches memset as a run-time value, the table of byte bits, and
 * the writer of bit streams, built once per store width (x86-64 picks
 * the widest its CPU has at run time). */
#include "obs_fill.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define RECIP(i) ((i) ? 1.0 / (i) : 0.0)
#define RECIP4(i) RECIP(i), RECIP((i) + 1), RECIP((i) + 2), RECIP((i) + 3)
#define RECIP16(i)                                                        \
    RECIP4(i), RECIP4((i) + 4), RECIP4((i) + 8), RECIP4((i) + 12)
#define RECIP64(i)                                                        \
    RECIP16(i), RECIP16((i) + 16), RECIP16((i) + 32), RECIP16((i) + 48)
const double obs_recip[256] = {RECIP64(0), RECIP64(64), RECIP64(128),
                               RECIP64(192)};

void obs_fill_zero(float *out, size_t n)
{
    memset(out, 0, n * sizeof *out);
}

#define BITS8(b)                                                          \
    {(b) & 1,      (b) >> 1 & 1, (b) >> 2 & 1, (b) >> 3 & 1,                 \
     (b) >> 4 & 1, (b) >> 5 & 1, (b) >> 6 & 1, (b) >> 7 & 1}
#define BITS8_4(b) BITS8(b), BITS8((b) + 1), BITS8((b) + 2), BITS8((b) + 3)
#define BITS8_16(b)                                                       \
    BITS8_4(b), BITS8_4((b) + 4), BITS8_4((b) + 8), BITS8_4((b) + 12)
#define BITS8_64(b)                                                       \
    BITS8_16(b), BITS8_16((b) + 16), BITS8_16((b) + 32), BITS8_16((b) + 48)
_Alignas(64) const float obs_byte_floats[256][8] = {
    BITS8_64(0), BITS8_64(64), BITS8_64(128), BITS8_64(192)};

/* ==== bit streams ====================================================== */

/* Eight floats moved as one vector. */
typedef float f8 __attribute__((vector_size(32), aligned(4), may_alias));

/* Bits i .. i + 7 of the stream w. */
static inline unsigned bits8(const uint64_t *w, int i)
{
    int s = i & 63;
    return (unsigned)((w[i >> 6] >> s | w[(i >> 6) + 1] << 1 << (63 - s)) &
                      0xff);
}

/* Stream bit i as a float. */
static inline float bit(const uint64_t *w, int i)
{
    return (float)(w[i >> 6] >> (i & 63) & 1);
}

#if defined(__x86_64__)
/* Sixteen floats at p from the mask m, under the store mask keep. */
__attribute__((target("avx512f"), always_inline)) static inline void
put16(float *p, uint32_t m, uint32_t keep)
{
    __m512 v = _mm512_maskz_mov_ps((__mmask16)m, _mm512_set1_ps(1.0f));
    _mm512_mask_store_ps(p, (__mmask16)keep, v);
}

/* Sixty-four floats at p (aligned) from the word m. */
__attribute__((target("avx512f"), always_inline)) static inline void
put64(float *p, uint64_t m)
{
    __m512 one = _mm512_set1_ps(1.0f);
    _mm512_store_ps(p, _mm512_maskz_mov_ps((__mmask16)m, one));
    _mm512_store_ps(p + 16, _mm512_maskz_mov_ps((__mmask16)(m >> 16), one));
    _mm512_store_ps(p + 32, _mm512_maskz_mov_ps((__mmask16)(m >> 32), one));
    _mm512_store_ps(p + 48, _mm512_maskz_mov_ps((__mmask16)(m >> 48), one));
}

/* Word k of the stream w moved up by pad bits (0..63), so that its bits
 * line up with the floats of 64-byte block k of the tensor. */
static inline uint64_t word_at(const uint64_t *w, int k, int pad)
{
    uint64_t below = k > 0 ? w[k - 1] : 0;
    return w[k] << pad | below >> 1 >> (63 - pad);
}

/* Sixteen floats a store, all aligned: out[0] sits at lane pad of the
 * first, the float at the 64-byte boundary below out; store masks leave
 * out what lies outside out[0..n). Whole blocks of 64 floats in the
 * middle go four stores at a time; the first and last blocks a store at
 * a time. */
__attribute__((target("avx512f"))) static void
write_avx512(float *out, const uint64_t *w, int pad, int n)
{
    float *base = (float *)((uintptr_t)out & ~(uintptr_t)63);
    int end = pad + n; /* stream bits in use, counted from base */
    int k = 1, last = (end - 1) / 64;
    uint64_t m = word_at(w, 0, pad);
    for (int j = 0; j < 4 && 16 * j < end; j++) {
        uint32_t keep = 0xffffu;
        keep &= j == 0 ? 0xffffu << pad : keep;
        keep &= end - 16 * j < 16 ? 0xffffu >> (16 - (end - 16 * j)) : keep;
        put16(base + 16 * j, (uint32_t)(m >> 16 * j), keep);
    }
    for (; k < last; k++)
        put64(base + 64 * k, word_at(w, k, pad));
    m = word_at(w, k, pad);
    for (int j = 4 * k; k == last && 16 * j < end; j++) {
        uint32_t keep = end - 16 * j < 16 ? 0xffffu >> (16 - (end - 16 * j))
                                          : 0xffffu;
        put16(base + 16 * j, (uint32_t)(m >> 16 * (j & 3)), keep);
    }
}
#endif

/* Rows of eight floats from obs_byte_floats (one 32-byte move when wide,
 * only from a build for AVX2), floats one by one at the ends. */
static inline __attribute__((always_inline)) void
write_rows(float *out, const uint64_t *w, int pad, int n, bool wide)
{
    int i = 0;
    for (; i < n && (pad + i) % 8; i++)
        out[i] = bit(w, i);
    for (; i + 8 <= n; i += 8) {
        const float *row = obs_byte_floats[bits8(w, i)];
        if (wide)
            *(f8 *)(out + i) = *(const f8 *)row;
        else
            memcpy(out + i, row, 8 * sizeof *out);
    }
    for (; i < n; i++)
        out[i] = bit(w, i);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void
write_avx2(float *out, const uint64_t *w, int pad, int n)
{
    write_rows(out, w, pad, n, true);
}
#endif

bool obs_width_supported(enum obs_width wd)
{
#if defined(__x86_64__)
    /* VL and BMI2 too: Spoil-Five's build uses them (every CPU with
     * AVX-512F has them but the Xeon Phi, which then takes AVX2). */
    if (wd == OBS_WIDTH_64)
        return __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("bmi2");
    if (wd == OBS_WIDTH_32)
        return __builtin_cpu_supports("avx2");
#endif
    return wd == OBS_WIDTH_16;
}

void obs_bits_write_width(float *out, const uint64_t *w, int n,
                          enum obs_width wd)
{
    int pad = (int)((uintptr_t)out & 63) / (int)sizeof *out;
#if defined(__x86_64__)
    if (wd == OBS_WIDTH_64) {
        write_avx512(out, w, pad, n);
        return;
    }
    if (wd == OBS_WIDTH_32) {
        write_avx2(out, w, pad, n);
        return;
    }
#endif
    write_rows(out, w, pad, n, false);
}

enum obs_width obs__width = OBS_WIDTH_16;

void obs_width_cap(enum obs_width wd)
{
    /* The enum runs from wide to narrow. */
    while (wd < OBS_WIDTH_16 && !obs_width_supported(wd))
        wd++;
    obs__width = wd;
}

/* Runs when the program loads, before main and before any thread. */
__attribute__((constructor)) static void width_init(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init(); /* needed this early */
#endif
    obs_width_cap(OBS_WIDTH_64);
}

void obs_bits_write(float *out, const uint64_t *w, int n)
{
    obs_bits_write_width(out, w, n, obs_width_best());
}
