/* obs_fill.h — clearing and filling observation tensors quickly. A memset of a
 * constant size is expanded inline by the compiler, under x86-64-v2 as
 * `rep stosq` or a run of 16-byte stores, and for the hundreds of floats
 * of a tensor either costs several times the C library's memset, which
 * picks the widest stores the CPU has at run time. Routing the clear
 * through a function of its own keeps the size out of the compiler's
 * sight. Nothing here allocates.
 */
#ifndef PARLOR_OBS_FILL_H
#define PARLOR_OBS_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sets out[0..n) to 0.0f through the C library's memset. */
void obs_fill_zero(float *out, size_t n);

/* Row b holds the eight bits of b, lowest first, as floats 0 and 1: a
 * dense plane of bits is written as copies of rows, eight floats each,
 * cheaper than zeroing it and setting its ones one by one. */
extern _Alignas(64) const float obs_byte_floats[256][8];

/* A tensor's 0/1 entries as a stream of bits, bit i for out[i], built in
 * order by obs_bits_put and obs_bits_skip into an array of
 * OBS_BITS_WORDS(n) words for n floats, closed by obs_bits_end and
 * written by obs_bits_write; other values are set over it afterwards.
 * The writer is meant to stay in registers: each word is stored once,
 * never read back while building, and where the widths are constants
 * (a game's layout for a given player count) the whole build folds into
 * shifts and ORs without a branch. */
#define OBS_BITS_WORDS(n) ((n) / 64 + 2)

struct obs_bits {
    uint64_t *w;  /* next word to store */
    uint64_t acc; /* bits of the word being filled */
    int fill;     /* bits in acc, 0..63 */
};

/* Starts a stream in w. */
static inline void obs_bits_start(struct obs_bits *b, uint64_t *w)
{
    b->w = w;
    b->acc = 0;
    b->fill = 0;
}

/* Appends the k bits of v (1 <= k <= 64, v < 2^k), lowest first. */
static inline void obs_bits_put(struct obs_bits *b, uint64_t v, int k)
{
    b->acc |= v << b->fill;
    int end = b->fill + k;
    if (end >= 64) {
        *b->w++ = b->acc;
        b->acc = v >> 1 >> (63 - b->fill); /* v's bits past the word */
        end -= 64;
    }
    b->fill = end;
}

/* Appends k zeros (k >= 0). */
static inline void obs_bits_skip(struct obs_bits *b, int k)
{
    for (; k > 64; k -= 64)
        obs_bits_put(b, 0, 64);
    if (k > 0)
        obs_bits_put(b, 0, k);
}

/* Closes the stream: stores the last word and one of zeros after it. */
static inline void obs_bits_end(struct obs_bits *b)
{
    b->w[0] = b->acc;
    b->w[1] = 0;
}

/* Writes out[0..n) (n >= 1) as floats 0 and 1 from the closed stream w,
 * every float once, with stores aligned to their width (64 bytes on CPUs
 * with AVX-512, else 32 or 16 with a float at a time at the ends). A
 * tensor that is mostly ones and zeros costs about a memset of it. */
void obs_bits_write(float *out, const uint64_t *w, int n);

/* The store widths obs_bits_write picks from, widest first. */
enum obs_width {
    OBS_WIDTH_64, /* AVX-512 (F, VL) and BMI2 */
    OBS_WIDTH_32, /* AVX2 */
    OBS_WIDTH_16, /* any x86-64 (SSE2) and other CPUs */
};

/* True when this CPU runs the stores of width wd. */
bool obs_width_supported(enum obs_width wd);

/* The widest width this CPU runs, no wider than the cap: every observe
 * with builds per width picks its build by this, at each call. Set when
 * the program loads and by obs_width_cap. */
extern enum obs_width obs__width;

static inline enum obs_width obs_width_best(void)
{
    return obs__width;
}

/* Caps the widths obs_width_best returns at wd, for the whole process
 * (OBS_WIDTH_64, the default, caps nothing): so that tests run each
 * build a CPU has, not only its widest. Not for use while another thread
 * observes. */
void obs_width_cap(enum obs_width wd);

/* obs_bits_write with the stores of width wd (supported here), so that
 * tests cover each. */
void obs_bits_write_width(float *out, const uint64_t *w, int n,
                          enum obs_width wd);

/* Tables of i / d as floats, i = 0..63 (OBS_FRAC64) or a run of four from
 * i (OBS_FRAC4): the values the division gives (the compiler divides
 * correctly rounded, as the machine does), with no division at observe. */
#define OBS_FRAC4(d, i)                                                    \
    (float)(i) / (d), (float)((i) + 1) / (d), (float)((i) + 2) / (d),      \
        (float)((i) + 3) / (d)
#define OBS_FRAC16(d, i)                                                   \
    OBS_FRAC4(d, i), OBS_FRAC4(d, (i) + 4), OBS_FRAC4(d, (i) + 8),         \
        OBS_FRAC4(d, (i) + 12)
#define OBS_FRAC64(d)                                                      \
    {OBS_FRAC16(d, 0), OBS_FRAC16(d, 16), OBS_FRAC16(d, 32),               \
     OBS_FRAC16(d, 48)}

/* 1 / i as doubles for i = 1..255, 0 at 0. */
extern const double obs_recip[256];

/* a / b as the float division (float)a / (float)b gives it, for a and b in
 * 0..255 (0 when b is 0), by a multiply: a double reciprocal is close
 * enough that the product rounds to the same float (test_obs_fill checks
 * every pair; float reciprocals are not). For option values that are not
 * constants. */
static inline float obs_quot(int a, int b)
{
    return (float)(a * obs_recip[b & 255]);
}

#if defined(__x86_64__)
#include <immintrin.h>

/* Sixty-four floats at p (64-byte aligned): 1.0f where m has a bit, 0.0f
 * elsewhere, stored only in the lanes keep has a bit for (AVX-512: four
 * masked stores, no read). */
__attribute__((target("avx512f"), always_inline)) static inline void
obs_block_512(float *p, uint64_t m, uint64_t keep)
{
    __m512 one = _mm512_set1_ps(1.0f);
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        _mm512_mask_store_ps(p + 16 * j, (__mmask16)(keep >> 16 * j),
                             _mm512_maskz_mov_ps((__mmask16)(m >> 16 * j),
                                                 one));
}
#endif

#endif
