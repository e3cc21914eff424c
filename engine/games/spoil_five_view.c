/* spoil_five_view.c — what a Spoil-Five seat sees (tensor, structured
 * view, action names, text) and the determinization of what it does not.
 * Rules and decisions: see the header comment of spoil_five.c.
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../obs_fill.h"
#include "../view.h"
#include "spoil_five.h"

const char *const spoil_five__view_keys[] = {
    "hand",   "dealer", "trump",  "turn_up", "robbed",    "discard", "barred",
    "buried", "trick",  "leader", "tricks",  "scores",    "pool",    "deal",
    "deals",  "phase",  "jinker", "history", "last_deal", NULL};

static const char *const phase_names[] = {
    "five_ask", "five_answer", "dealer_rob", "rob", "play", "jink", "over"};

/* ==== API: observation ================================================= */

/* Offsets of the tensor's segments for n players. The card planes come
 * first, then the one-hot groups (dealer .. phase, trump and turn_rank),
 * then the values: observe() writes the planes and each group from bit
 * masks with 8-float copies whose tail may spill into the next segments,
 * which are written afterwards. */
struct layout {
    int hand, trick, gone, dealer, to_move, robbed, barred, jinker, phase;
    int trump, turn_rank, tricks, score, pool, reduced, deal, fived, size;
};

static inline struct layout layout_of(int n)
{
    struct layout l;
    l.hand = 0;
    l.trick = l.hand + CARDS_IN_PACK;
    l.gone = l.trick + CARDS_IN_PACK;
    l.dealer = l.gone + CARDS_IN_PACK;
    l.to_move = l.dealer + n;
    l.robbed = l.to_move + n;
    l.barred = l.robbed + n;
    l.jinker = l.barred + n;
    l.phase = l.jinker + n;
    l.trump = l.phase + NPHASES;
    l.turn_rank = l.trump + 4;
    l.tricks = l.turn_rank + 13;
    l.score = l.tricks + n;
    l.pool = l.score + n;
    l.reduced = l.pool + 1;
    l.deal = l.reduced + 1;
    l.fived = l.deal + 1;
    l.size = l.fived + 1;
    return l;
}

int spoil_five__obs_size(int n)
{
    return layout_of(n).size;
}

/* The tensor costs its stores. On x86-64 observe() has a second build for
 * AVX2 CPUs that moves 32 bytes per store where the base build moves 16;
 * each helper below takes "wide" as a constant and is inlined into both. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))
typedef float float8 __attribute__((vector_size(32), aligned(4), may_alias));

/* Copies 8 floats: one vector move when wide (only an AVX2 build passes
 * true; a base build would route the vector through the stack). */
ALWAYS_INLINE void copy8(float *o, const float *src, bool wide)
{
    if (wide)
        *(float8 *)o = *(const float8 *)src;
    else
        memcpy(o, src, 8 * sizeof *o);
}

/* Writes the first nbits (1..64) bits of m as floats, rounded up to a
 * multiple of 8: the tail spills over, so groups are written in offset
 * order. */
ALWAYS_INLINE void put_bits(float *o, uint64_t m, int nbits, bool wide)
{
    /* Written out to the most a group holds (64 bits): the tests follow
     * the player count, fixed in a game, so they predict well. */
    copy8(o, obs_byte_floats[m & 0xff], wide);
    if (nbits <= 8)
        return;
    copy8(o + 8, obs_byte_floats[m >> 8 & 0xff], wide);
    if (nbits <= 16)
        return;
    copy8(o + 16, obs_byte_floats[m >> 16 & 0xff], wide);
    if (nbits <= 24)
        return;
    copy8(o + 24, obs_byte_floats[m >> 24 & 0xff], wide);
    if (nbits <= 32)
        return;
    copy8(o + 32, obs_byte_floats[m >> 32 & 0xff], wide);
    if (nbits <= 40)
        return;
    copy8(o + 40, obs_byte_floats[m >> 40 & 0xff], wide);
    if (nbits <= 48)
        return;
    copy8(o + 48, obs_byte_floats[m >> 48 & 0xff], wide);
    if (nbits <= 56)
        return;
    copy8(o + 56, obs_byte_floats[m >> 56], wide);
}

/* Writes 156 bits, w0 w1 and the low 28 of w2, in 8-float copies; the
 * last one spills 4 floats into the next segment. */
ALWAYS_INLINE void put_stream(float *o, uint64_t w0, uint64_t w1, uint64_t w2,
                              bool wide)
{
    put_bits(o, w0, 64, wide);
    put_bits(o + 64, w1, 64, wide);
    put_bits(o + 128, w2, 32, wide);
}

/* Writes the three card planes (hand, trick, gone: 52 bits each) as one
 * stream of 156 bits. A 32-byte store across a 32-byte boundary costs two:
 * on a buffer that is 16 bytes off (malloc's usual alignment) the first 4
 * floats go alone and the rest of the stream follows aligned (spilling 8
 * floats then, which the groups written next overwrite). */
ALWAYS_INLINE void put_planes(float *o, hand_t a, hand_t b, hand_t c, bool wide)
{
    uint64_t w0 = a | b << 52, w1 = b >> 12 | c << 40, w2 = c >> 24;
    if ((uintptr_t)o & 16) {
        memcpy(o, obs_byte_floats[w0 & 0xff], 4 * sizeof *o);
        put_stream(o + 4, w0 >> 4 | w1 << 60, w1 >> 4 | w2 << 60, w2 >> 4,
                   wide);
    } else {
        put_stream(o, w0, w1, w2, wide);
    }
}

/* Bit of seat s's place relative to seat (bit 0: seat itself); 0 if none. */
static uint64_t seat_bit(int s, int seat, int n)
{
    int r = s < seat ? s - seat + n : s - seat;
    return (uint64_t)(s != NO_SEAT) << (r & 63); /* no branch */
}

void spoil_five__obs_scales(const struct game *g, const struct cfg *c,
                            struct obs_scales *o)
{
    double span = g->dims.ret_high - g->dims.ret_low;
    double pool = (double)c->deals *
                  (c->n * (c->stake + c->spoil_stake) + c->dealer_stake);
    o->score_low = c->target ? 0 : (float)g->dims.ret_low;
    o->score_scale = c->target  ? 1.0f / c->target
                     : span > 0 ? (float)(1 / span)
                                : 0; /* all stakes 0 */
    o->pool = pool > 0 ? (float)(1 / pool) : 0;
    o->deal = 1.0f / c->deals;
    o->seat = 1.0f / c->n;
}

/* Writes the values after the groups from o = out + l.tricks: tricks and
 * score by relative seat, pool, reduced, deal, fived. */
ALWAYS_INLINE void put_values(const struct spoil_five_state *st, int seat,
                              int n, float *o)
{
    float lo = st->scales.score_low, scale = st->scales.score_scale;
    for (int s = 0, r = n - seat; s < n; s++, r++) {
        r -= r >= n ? n : 0;
        float v = ((float)side_total(st, s) - lo) * scale;
        o[r] = (float)st->won[s] * (1.0f / TRICKS);
        o[n + r] = v < 1 ? v : 1.0f;
    }
    o[2 * n] = (float)st->pool * st->scales.pool;
    o[2 * n + 1] = st->reduced;
    o[2 * n + 2] = (float)st->deal_no * st->scales.deal;
    o[2 * n + 3] = st->fived;
}

/* Writes the groups dealer .. phase and trump, turn_rank, then the values
 * after them. */
ALWAYS_INLINE void observe_seats(const struct spoil_five_state *st, int seat,
                                 const struct layout *l, float *out, bool wide)
{
    int n = st->cfg.n;
    int robbed = st->barred == NO_SEAT ? st->rob_seat : NO_SEAT;
    uint64_t m = seat_bit(st->dealer, seat, n) |
                 seat_bit(st->turn, seat, n) << n |
                 seat_bit(robbed, seat, n) << 2 * n |
                 seat_bit(st->barred, seat, n) << 3 * n |
                 seat_bit(st->jinker, seat, n) << 4 * n |
                 (uint64_t)1 << (5 * n + st->phase); /* PH_OVER: past it */
    put_bits(out + l->dealer, m, 5 * n + NPHASES, wide);
    uint64_t up = (uint64_t)1 << st->trump |
                  (uint64_t)1 << (4 + card_rank(st->turnup) - 1);
    put_bits(out + l->trump, up, 4 + 13, wide);
    put_values(st, seat, n, out + l->tricks);
}

ALWAYS_INLINE void observe_body(const struct spoil_five_state *st, int seat,
                                float *out, bool wide)
{
    int n = st->cfg.n;
    struct layout l = layout_of(n);
    hand_t own = seat == st->rob_seat && st->discard != NO_CARD
                     ? card_bit(st->discard)
                     : 0;
    put_planes(out, st->hand[seat], st->table, st->gone | own, wide);
    /* The trick plane tells who played each card. */
    int r = st->leader < seat ? st->leader - seat + n : st->leader - seat;
    for (int i = 0; i < st->ntrick; i++) {
        out[l.trick + st->trick[i]] = (float)(r + 1) * st->scales.seat;
        r += r + 1 == n ? 1 - n : 1;
    }
    observe_seats(st, seat, &l, out, wide);
}

#if defined(__x86_64__)
/* ---- the AVX-512 build ---------------------------------------------- */

/* The AVX-512 build writes the tensor's 0/1 entries in aligned 64-float
 * blocks from four words of bits (no copy per byte, no clear), then the
 * trick's cards in one scatter and the values after the groups (tricks,
 * score, pool, reduced, deal, fived) in one masked store (two past six
 * players): no loop over the state's cards or seats. It is port 5
 * (masks, shuffles) that bounds it, so masks and shuffles come from
 * tables where they can.
 *
 * It also takes AVX-512VL's narrower vectors and BMI2's shifts by a
 * variable count (one instruction, where x86-64-v2's take three), which
 * every CPU with AVX-512 but the oldest Xeon Phi has: OBS_WIDTH_64 is
 * granted only with both, once when the program loads (obs_fill.c). */
#define TARGET_512 __attribute__((target("avx512f,avx512vl,bmi2")))

/* trick_value[n][i]: (i mod n + 1) / n, as (float)(r + 1) * scales.seat
 * gives it, doubled so that a rotation needs no modulo (rows of 32, so
 * that 16 floats from i <= 9 stay in the row). */
#define TV(n, i) ((float)((i) % (n) + 1) * (1.0f / (n)))
#define TV5(n, i)                                                          \
    TV(n, i), TV(n, i + 1), TV(n, i + 2), TV(n, i + 3), TV(n, i + 4)
#define TV_ROW(n) {TV5(n, 0), TV5(n, 5), TV5(n, 10), TV5(n, 15)}
static _Alignas(64) const float trick_value[MAXP + 1][32] = {
    [2] = TV_ROW(2), [3] = TV_ROW(3), [4] = TV_ROW(4),
    [5] = TV_ROW(5), [6] = TV_ROW(6), [7] = TV_ROW(7),
    [8] = TV_ROW(8), [9] = TV_ROW(9), [10] = TV_ROW(10)};

/* value_idx[n][seat][j]: where lane j of the values after the groups
 * comes from in put_values_512, relative seat j taking seat (seat + j)
 * mod n: the tricks' lane of that seat for j < n, the scores' (16 +
 * lane) for n <= j < 2n, then pool .. fived from lanes 12..15. */
#define IV(n, s, j)                                                        \
    ((j) < (n)           ? ((s) + (j)) % (n)                                \
     : (j) < 2 * (n)     ? 16 + ((s) + (j)) % (n)                           \
     : (j) < 2 * (n) + 4 ? 12 + (j) - 2 * (n)                               \
                         : 0)
#define IV4(n, s, j)                                                       \
    IV(n, s, j), IV(n, s, j + 1), IV(n, s, j + 2), IV(n, s, j + 3)
#define IV16(n, s, j)                                                      \
    IV4(n, s, j), IV4(n, s, j + 4), IV4(n, s, j + 8), IV4(n, s, j + 12)
#define IV_ROW(n, s) {IV16(n, s, 0), IV16(n, s, 16)}
#define IV_SEATS(n)                                                        \
    {IV_ROW(n, 0), IV_ROW(n, 1), IV_ROW(n, 2), IV_ROW(n, 3), IV_ROW(n, 4),  \
     IV_ROW(n, 5), IV_ROW(n, 6), IV_ROW(n, 7), IV_ROW(n, 8), IV_ROW(n, 9)}
static _Alignas(64) const uint8_t value_idx[MAXP + 1][MAXP][32] = {
    [2] = IV_SEATS(2), [3] = IV_SEATS(3), [4] = IV_SEATS(4),
    [5] = IV_SEATS(5), [6] = IV_SEATS(6), [7] = IV_SEATS(7),
    [8] = IV_SEATS(8), [9] = IV_SEATS(9), [10] = IV_SEATS(10)};

/* The vectors load 16 bytes from trick and from won. */
_Static_assert(offsetof(struct spoil_five_state, trick) + 16 <=
                   sizeof(struct spoil_five_state),
               "trick's 16-byte load stays in the state");
_Static_assert(offsetof(struct spoil_five_state, won) + 16 <=
                   sizeof(struct spoil_five_state),
               "won's 16-byte load stays in the state");

/* seat_one[s]: seat s's bit in a group by absolute seat, 0 for NO_SEAT. */
static const uint16_t seat_one[256] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};

/* turn_up_bits[c]: the groups trump and turn_rank of turn-up c (the
 * trump suit is the turn-up's), 0 past the pack. */
#define UB(c) ((uint32_t)1 << (c) / 13 | (uint32_t)1 << (4 + (c) % 13))
#define UB4(c) UB(c), UB(c + 1), UB(c + 2), UB(c + 3)
static const uint32_t turn_up_bits[64] = {
    UB4(0),  UB4(4),  UB4(8),  UB4(12), UB4(16), UB4(20), UB4(24),
    UB4(28), UB4(32), UB4(36), UB4(40), UB4(44), UB4(48)};

/* The five groups dealer .. jinker, n bits each by absolute seat in a,
 * turned to relative seats (bit 0: seat itself): each group rotated right
 * by seat, all five with the same shifts. */
ALWAYS_INLINE uint64_t groups_rel(uint64_t a, int seat, int n)
{
    uint64_t unit = 1 | 1ull << n | 1ull << 2 * n | 1ull << 3 * n |
                    1ull << 4 * n; /* the groups' first bits */
    uint64_t low = (((uint64_t)1 << (n - seat)) - 1) * unit;
    uint64_t all = (((uint64_t)1 << n) - 1) * unit;
    return (a >> seat & low) | (a << (n - seat) & (all ^ low));
}

/* The tensor's 0/1 entries up to l.tricks as four words: hand, the trick
 * plane's zeros, gone, the groups dealer .. phase, trump and turn_rank. */
ALWAYS_INLINE void stream_words(const struct spoil_five_state *st, int seat,
                                int n, uint64_t *w)
{
    hand_t own = seat == st->rob_seat && st->discard != NO_CARD
                     ? card_bit(st->discard)
                     : 0;
    hand_t gone = st->gone | own;
    int robbed = st->barred == NO_SEAT ? st->rob_seat : NO_SEAT;
    uint64_t a = seat_one[st->dealer] | (uint64_t)seat_one[st->turn] << n |
                 (uint64_t)seat_one[robbed] << 2 * n |
                 (uint64_t)seat_one[st->barred] << 3 * n |
                 (uint64_t)seat_one[st->jinker] << 4 * n;
    uint64_t m = groups_rel(a, seat, n) | (uint64_t)1 << (5 * n + st->phase);
    m &= ~(~0ull << (5 * n + NPHASES)); /* PH_OVER's bit is past the group */
    uint64_t up = turn_up_bits[st->turnup & 63];
    int q = 5 * n + NPHASES + 28; /* up's first bit in w[2]: 44..84 */
    w[0] = st->hand[seat];        /* bits 52..103, the trick plane: 0 */
    w[1] = gone << 40;            /* gone from bit 104 */
    w[2] = gone >> 24 | m << 28 | (q < 64 ? up << (q & 63) : 0);
    w[3] = m >> 36 | (q < 64 ? up >> 1 >> (63 - q) : up << ((q - 64) & 63));
}

/* Offsets from fived of the fields next to it that tail_512 reads. */
#define AT_FIVED(f)                                                        \
    (int)(offsetof(struct spoil_five_state, f) -                           \
          offsetof(struct spoil_five_state, fived))
_Static_assert(offsetof(struct spoil_five_state, scales.pool) + 16 <=
                   sizeof(struct spoil_five_state),
               "four floats from scales.pool stay in the state");
_Static_assert(offsetof(struct obs_scales, deal) ==
                   offsetof(struct obs_scales, pool) + sizeof(float),
               "scales.deal follows scales.pool");
_Static_assert(AT_FIVED(reduced) >= 0 && AT_FIVED(reduced) < 8 &&
                   AT_FIVED(deal_no) >= 0 && AT_FIVED(deal_no) + 1 < 8,
               "reduced and deal_no lie in the 8 bytes from fived");

/* pool, reduced, deal, fived as floats (see put_values): the three small
 * fields from one 8-byte load, all four converted and scaled at once
 * (by 1 for reduced and fived: exact). */
TARGET_512 ALWAYS_INLINE __m128 tail_512(const struct spoil_five_state *st)
{
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)&st->fived);
    __m128i i = _mm_shuffle_epi8(
        b, _mm_setr_epi8(-1, -1, -1, -1, AT_FIVED(reduced), -1, -1, -1,
                         AT_FIVED(deal_no), AT_FIVED(deal_no) + 1, -1, -1,
                         0, -1, -1, -1));
    i = _mm_insert_epi32(i, st->pool, 0);
    /* scales.pool, .deal, ... interleaved with ones: {pool, 1, deal, 1}. */
    __m128 k = _mm_unpacklo_ps(
        _mm_loadu_ps(&st->scales.pool), _mm_set1_ps(1.0f));
    return _mm_mul_ps(_mm_cvtepi32_ps(i), k);
}

/* Lanes row[0..16) of the values (see value_idx) from the tricks and
 * pool .. fived in t and the scores in s. */
TARGET_512 ALWAYS_INLINE __m512 values_16(__m512 t, __m512 s,
                                          const uint8_t *row)
{
    __m512i idx = _mm512_cvtepu8_epi32(
        _mm_load_si128((const __m128i *)(const void *)row));
    return _mm512_permutex2var_ps(t, idx, s);
}

/* Writes out[l.tricks .. l.size), the values after the groups (see
 * put_values), in one masked store (two past six players): the tricks
 * by seat with pool .. fived in lanes 12..15 in one vector, the scores
 * by seat in another, their lanes picked by value_idx. */
TARGET_512 ALWAYS_INLINE void
put_values_512(const struct spoil_five_state *st, int seat, int n, float *o)
{
    __m512 t = _mm512_mul_ps(
        _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(
            _mm_loadu_si128((const __m128i *)(const void *)st->won))),
        _mm512_set1_ps(1.0f / TRICKS));
    t = _mm512_insertf32x4(t, tail_512(st), 3);
    __m512i sc = _mm512_maskz_loadu_epi32((__mmask16)((1u << n) - 1),
                                          (const void *)st->score);
    if (n == 4 && st->cfg.partners) /* side_total: the same every call */
        sc = _mm512_add_epi32(
            sc, _mm512_permutexvar_epi32(
                    _mm512_setr_epi32(2, 3, 0, 1, 15, 15, 15, 15, 15, 15, 15,
                                      15, 15, 15, 15, 15),
                    sc)); /* lane 15: zero */
    __m512 s = _mm512_mul_ps(
        _mm512_sub_ps(_mm512_cvtepi32_ps(sc),
                      _mm512_set1_ps(st->scales.score_low)),
        _mm512_set1_ps(st->scales.score_scale));
    s = _mm512_min_ps(s, _mm512_set1_ps(1.0f)); /* v < 1 ? v : 1 */
    const uint8_t *row = value_idx[n][seat];
    int k = 2 * n + 4; /* lanes */
    _mm512_mask_storeu_ps(o, (__mmask16)(k >= 16 ? 0xffff : (1u << k) - 1),
                          values_16(t, s, row));
    if (k > 16)
        _mm512_mask_storeu_ps(o + 16, (__mmask16)((1u << (k - 16)) - 1),
                              values_16(t, s, row + 16));
}

/* m rotated right by k bits (0 <= k < 64): one BMI2 instruction that
 * leaves m alone, where a shift would need a copy first. */
ALWAYS_INLINE uint64_t rot(uint64_t m, int k)
{
    return m >> k | m << ((64 - k) & 63);
}

/* obs_block_512 for the first chunks (16 floats each) of a block only:
 * a constant count where n is one drops the stores that always keep no
 * lane. */
TARGET_512 ALWAYS_INLINE void
block_512(float *p, uint64_t m, uint64_t keep, int chunks)
{
    __m512 one = _mm512_set1_ps(1.0f);
#pragma GCC unroll 4
    for (int j = 0; j < chunks; j++)
        _mm512_mask_store_ps(p + 16 * j, (__mmask16)(keep >> 16 * j),
                             _mm512_maskz_mov_ps((__mmask16)rot(m, 16 * j),
                                                 one));
}

/* The trick's cards, slot i's value tv[i] at o[trick[i]], in one
 * scatter as wide as n needs, masked to the cards played. */
TARGET_512 ALWAYS_INLINE void put_trick_512(const struct spoil_five_state *st,
                                            int n, const float *tv, float *o)
{
    __m128i cards = _mm_loadu_si128((const __m128i *)(const void *)st->trick);
    __mmask16 k = (__mmask16)((1u << st->ntrick) - 1);
    if (n <= 4)
        _mm_mask_i32scatter_ps(o, (__mmask8)k, _mm_cvtepu8_epi32(cards),
                               _mm_loadu_ps(tv), 4);
    else if (n <= 8)
        _mm256_mask_i32scatter_ps(o, (__mmask8)k, _mm256_cvtepu8_epi32(cards),
                                  _mm256_loadu_ps(tv), 4);
    else
        _mm512_mask_i32scatter_ps(o, k, _mm512_cvtepu8_epi32(cards),
                                  _mm512_loadu_ps(tv), 4);
}

/* observe_body on AVX-512 for n players. Block k holds the stream's bits
 * 64k - pad .. 64k + 63 - pad, out[0] at lane pad of the first; the
 * blocks stop at l.tricks, where the values start. */
TARGET_512 ALWAYS_INLINE void
observe_512_n(const struct spoil_five_state *st, int seat, float *out, int n)
{
    struct layout l = layout_of(n);
    uint64_t w[4];
    stream_words(st, seat, n, w);
    int pad = (int)((uintptr_t)out & 63) / (int)sizeof *out;
    float *base = out - pad;
    block_512(base, w[0] << pad, ~0ull << pad, 4);
#pragma GCC unroll 3
    for (int k = 1; k < 4; k++) {
        int lim = l.tricks + pad - 64 * k; /* lanes before the values */
        int most = l.tricks + 15 - 64 * k; /* lim at the largest pad */
        uint64_t keep = lim >= 64 ? ~0ull : lim <= 0 ? 0 : ~(~0ull << lim);
        block_512(base + 64 * k, w[k] << pad | w[k - 1] >> 1 >> (63 - pad),
                  keep, most >= 64 ? 4 : most <= 0 ? 0 : (most + 15) / 16);
    }
    int r = st->leader < seat ? st->leader - seat + n : st->leader - seat;
    put_trick_512(st, n, trick_value[n] + r, out + l.trick);
    put_values_512(st, seat, n, out + l.tricks);
}

/* One build per player count: with n a constant, the layout, the shifts
 * and the masks fold. */
TARGET_512 static void
observe_512(const struct spoil_five_state *st, int seat, float *out)
{
    switch (st->cfg.n) {
    case 2:
        observe_512_n(st, seat, out, 2);
        break;
    case 3:
        observe_512_n(st, seat, out, 3);
        break;
    case 4:
        observe_512_n(st, seat, out, 4);
        break;
    case 5:
        observe_512_n(st, seat, out, 5);
        break;
    case 6:
        observe_512_n(st, seat, out, 6);
        break;
    case 7:
        observe_512_n(st, seat, out, 7);
        break;
    case 8:
        observe_512_n(st, seat, out, 8);
        break;
    case 9:
        observe_512_n(st, seat, out, 9);
        break;
    default:
        observe_512_n(st, seat, out, MAXP);
    }
}

__attribute__((target("avx2"))) static void
observe_avx2(const struct spoil_five_state *st, int seat, float *out)
{
    observe_body(st, seat, out, true);
}

static void observe_base(const struct spoil_five_state *st, int seat,
                         float *out)
{
    observe_body(st, seat, out, false);
}

void spoil_five__observe(const struct game *g, const void *st, int seat,
                         float *out)
{
    (void)g;
    if (obs_width_best() == OBS_WIDTH_64)
        observe_512(st, seat, out);
    else if (obs_width_best() == OBS_WIDTH_32)
        observe_avx2(st, seat, out);
    else
        observe_base(st, seat, out);
}
#else
void spoil_five__observe(const struct game *g, const void *st, int seat,
                         float *out)
{
    (void)g;
    observe_body(st, seat, out, false);
}
#endif

int spoil_five__obs_layout(const struct game *g, struct obs_segment *out,
                           int max)
{
    struct layout l = layout_of(g->dims.players);
    int n = g->dims.players;
    const struct obs_segment seg[] = {
        {"hand", l.hand, 52, "own cards, by card id"},
        {"trick", l.trick, 52,
         "current trick: (relative seat of its player + 1) / players"},
        {"gone", l.gone, 52,
         "out of play: finished tricks, buried by fiving, own rob discard"},
        {"dealer", l.dealer, n, "dealer, relative seat one-hot"},
        {"to_move", l.to_move, n, "seat to act, relative one-hot"},
        {"robbed", l.robbed, n, "seat holding the robbed turn-up"},
        {"barred", l.barred, n, "seat that declined to rob (barred)"},
        {"jinker", l.jinker, n, "seat that jinked"},
        {"phase", l.phase, NPHASES,
         "five_ask five_answer dealer_rob rob play jink, one-hot"},
        {"trump", l.trump, 4, "trump suit (the turn-up's), one-hot ♣ ♦ ♥ ♠"},
        {"turn_rank", l.turn_rank, 13, "the turn-up's rank, one-hot A..K"},
        {"tricks", l.tricks, n, "tricks won this deal / 5, relative seats"},
        {"score", l.score, n,
         "side's chips so far scaled to the return range (target games: "
         "points / target)"},
        {"pool", l.pool, 1,
         "pool / (deals * (players * (stake + spoil_stake) + dealer_stake))"},
        {"reduced", l.reduced, 1, "a spoilt pool stands (reduced antes)"},
        {"deal", l.deal, 1, "deals finished / deals (target games: cap)"},
        {"fived", l.fived, 1, "the dealer fived this deal"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== API: names and view ============================================== */

/* Every action's name, by id. */
static const char *const action_names[] = {VIEW_CARD_NAMES("play "),
                                           VIEW_CARD_NAMES("rob "),
                                           "decline",
                                           "ask five",
                                           "no five",
                                           "accept five",
                                           "refuse five",
                                           "jink",
                                           "claim"};

int spoil_five__action_name(const struct game *g, const void *vst, int a,
                            char *buf, size_t len)
{
    (void)g;
    (void)vst;
    return text_fmt(buf, len, "%s", action_names[a]);
}

/* This deal's actions as [seat, name]; another's rob hides its card. */
static void pack_history(const struct spoil_five_state *st, int seat,
                         msgpack_packer *pk)
{
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        int s = st->hist[i][0], a = st->hist[i][1];
        bool hidden = a >= A_ROB && a < A_DECLINE && s != seat;
        view_pack_entry(pk, s, hidden ? "rob" : action_names[a]);
    }
}

static void pack_last_deal(const struct spoil_five_state *st,
                           msgpack_packer *pk)
{
    static const char *const outcomes[] = {
        "none", "won", "spoilt", "jinked", "jink failed", "barred", "played"};
    view_pack_map(pk, 3);
    view_pack_str(pk, "outcome");
    view_pack_str(pk, outcomes[st->last_outcome]);
    view_pack_str(pk, "winner");
    view_pack_seat(pk, st->last_winner);
    view_pack_str(pk, "tricks");
    view_pack_u8s(pk, st->last_won, st->cfg.n);
}

static void pack_table(const struct spoil_five_state *st, int seat,
                       msgpack_packer *pk)
{
    static const char *const suits[] = {"♣", "♦", "♥", "♠"};
    view_pack_str(pk, "trump");
    view_pack_str(pk, suits[st->trump]);
    view_pack_str(pk, "turn_up");
    view_pack_card(pk, st->turnup);
    view_pack_str(pk, "robbed");
    view_pack_seat(pk, st->barred == NO_SEAT ? st->rob_seat : NO_SEAT);
    view_pack_str(pk, "discard");
    if (seat == st->rob_seat && st->discard != NO_CARD)
        view_pack_card(pk, st->discard);
    else
        view_pack_nil(pk);
    view_pack_str(pk, "barred");
    view_pack_seat(pk, st->barred);
    view_pack_str(pk, "buried");
    view_pack_hand(pk, st->buried);
    view_pack_str(pk, "trick");
    view_pack_array(pk, st->ntrick);
    for (int i = 0; i < st->ntrick; i++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, (st->leader + i) % st->cfg.n);
        view_pack_card(pk, st->trick[i]);
    }
    view_pack_str(pk, "leader");
    view_pack_int(pk, st->leader);
}

int spoil_five__view(const struct game *g, const void *vst, int seat,
                     msgpack_packer *pk)
{
    (void)g;
    const struct spoil_five_state *st = cst(vst);
    int n = st->cfg.n;
    view_pack_str(pk, "hand");
    view_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    pack_table(st, seat, pk);
    view_pack_str(pk, "tricks");
    view_pack_u8s(pk, st->won, n);
    view_pack_str(pk, "scores");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->score[s]);
    view_pack_str(pk, "pool");
    view_pack_int(pk, st->pool);
    view_pack_str(pk, "deal");
    view_pack_int(pk, st->deal_no + (st->phase != PH_OVER));
    view_pack_str(pk, "deals");
    view_pack_int(pk, st->cfg.deals);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phase_names[st->phase]);
    view_pack_str(pk, "jinker");
    view_pack_seat(pk, st->jinker);
    view_pack_str(pk, "history");
    pack_history(st, seat, pk);
    view_pack_str(pk, "last_deal");
    pack_last_deal(st, pk);
    return 0;
}

/* ==== API: determinization ============================================= */

/* Cards of seat j that every other seat knows. */
static hand_t public_in_hand(const struct spoil_five_state *st, int j)
{
    hand_t k = j == st->rob_seat ? st->rob_known : 0;
    if (st->phase == PH_ROB && j == st->turn)
        k |= card_bit(st->ace);
    return k & st->hand[j];
}

/* Where hidden cards may go: one bin per other seat (its seat in
 * bin_seat), and one for the stock plus another player's rob discard. */
static void bins_setup(const struct spoil_five_state *st, int seat,
                       struct card_bins *b, int *bin_seat)
{
    memset(b, 0, sizeof *b);
    for (int j = 0; j < st->cfg.n; j++) {
        if (j == seat)
            continue;
        hand_t allow = ALL_CARDS & ~st->cant[j];
        if (st->rob_open && st->rob_seat == NO_SEAT && st->phase == PH_PLAY &&
            j == st->turn)
            allow &= ~card_bit(st->ace);
        b->allow[b->nb] = allow;
        b->room[b->nb] = hand_count(st->hand[j] & ~public_in_hand(st, j));
        bin_seat[b->nb++] = j;
    }
    b->allow[b->nb] = ALL_CARDS;
    b->room[b->nb] = CARDS_IN_PACK - st->deck_pos +
                     (st->discard != NO_CARD && st->rob_seat != seat);
    b->nb++;
}

/* Writes the stock back into the undealt part of the deck. */
static void restock(struct spoil_five_state *st, hand_t stock, struct rng *rng)
{
    int lo = 0, hi = st->deck_pos;
    for (int c = 0; c < CARDS_IN_PACK; c++) {
        if (hand_has(stock, c))
            st->deck[hi++] = (uint8_t)c;
        else
            st->deck[lo++] = (uint8_t)c;
    }
    rng_shuffle_u8(rng, st->deck + st->deck_pos, CARDS_IN_PACK - st->deck_pos);
    st->deck_fixed = 0;
}

void spoil_five__determinize(const struct game *g, void *vst, int seat,
                             struct rng *rng)
{
    (void)g;
    struct spoil_five_state *st = vst;
    hand_t seen = st->hand[seat] | st->gone | st->table | card_bit(st->turnup);
    if (seat == st->rob_seat && st->discard != NO_CARD)
        seen |= card_bit(st->discard);
    for (int j = 0; j < st->cfg.n; j++)
        if (j != seat)
            seen |= public_in_hand(st, j);
    struct card_bins b;
    int bin_seat[CARD_BINS_MAX];
    bins_setup(st, seat, &b, bin_seat);
    bool ok = card_bins_fill(&b, ALL_CARDS & ~seen, rng);
    assert(ok); /* the true deal is one way to place them all */
    (void)ok;
    for (int i = 0; i + 1 < b.nb; i++)
        st->hand[bin_seat[i]] = public_in_hand(st, bin_seat[i]) | b.got[i];
    hand_t stock = b.got[b.nb - 1];
    if (st->discard != NO_CARD && st->rob_seat != seat) {
        int k = (int)rng_below(rng, (uint32_t)hand_count(stock));
        st->discard = (uint8_t)hand_nth(stock, k);
        stock &= ~card_bit(st->discard);
    }
    restock(st, stock, rng);
    if (st->rob_open && st->rob_seat == NO_SEAT)
        st->rob_holder = (uint8_t)holder_of(st, st->ace);
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== API: text ======================================================== */

/* Appends printf-style text to buf (len bytes), advancing *used; output
 * past the end is dropped but still counted, like snprintf. */
static void describe_seat(const struct spoil_five_state *st, int s, int seat,
                          char *buf, size_t len, size_t *used)
{
    char h[64] = "";
    if (seat < 0 || seat == s)
        hand_format(st->hand[s], h, sizeof h);
    else
        snprintf(h, sizeof h, "%d card%s", hand_count(st->hand[s]),
                 text_s(hand_count(st->hand[s])));
    text_appendf(buf, len, used, "seat %d%s: %s | tricks %d | %s %d%s\n", s,
                 s == st->dealer ? " (dealer)" : "", h, st->won[s],
                 st->cfg.target ? "points" : "chips", st->score[s],
                 st->phase != PH_OVER && s == st->turn ? "  <- to act" : "");
}

int spoil_five__describe(const struct game *g, const void *vst, int seat,
                         char *buf, size_t len)
{
    (void)g;
    const struct spoil_five_state *st = cst(vst);
    char c[8], t[8];
    size_t used = 0;
    card_name(st->turnup, t, sizeof t);
    text_appendf(
        buf, len, &used,
        "Spoil-Five deal %d of %d, turn-up %s%s, pool %d%s, phase %s\n",
        st->deal_no + (st->phase != PH_OVER), st->cfg.deals, t,
        st->rob_seat != NO_SEAT && st->barred == NO_SEAT ? " (robbed)" : "",
        st->pool,
        st->reduced && st->phase != PH_OVER ? " (spoilt, reduced antes)" : "",
        phase_names[st->phase]);
    for (int s = 0; s < st->cfg.n; s++)
        describe_seat(st, s, seat, buf, len, &used);
    if (st->discard != NO_CARD && (seat < 0 || seat == st->rob_seat)) {
        card_name(st->discard, c, sizeof c);
        text_appendf(buf, len, &used, "laid out by seat %d: %s\n", st->rob_seat,
                     c);
    }
    text_appendf(buf, len, &used, "trick:");
    for (int i = 0, s = st->leader; i < st->ntrick; i++) {
        card_name(st->trick[i], c, sizeof c);
        text_appendf(buf, len, &used, " %d:%s", s, c);
        s = s + 1 == st->cfg.n ? 0 : s + 1;
    }
    text_appendf(buf, len, &used, "\n");
    return (int)(used < len ? used : len - 1);
}
