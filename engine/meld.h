/* meld.h — what the Bezique-family games (Pinochle for six or eight, and
 * the Binokel and Binocle to come) share: packs with duplicate cards held
 * as counts of faces, the A 10 K Q J 9 8 7 trick order, the follow-and-
 * head duty, meld counting helpers, and dealing hidden duplicate cards
 * consistently for determinization.
 *
 * A face is suit * 8 + place, places 0..7 being A 10 K Q J 9 8 7 (the
 * trick order, highest first) and suits clubs, diamonds, hearts, spades
 * as in cards.h. A hand is uint8_t n[MELD_FACES], the copies held of
 * each face; a face set is a uint32_t with bit f for face f. Plain data.
 */
#ifndef PARLOR_MELD_H
#define PARLOR_MELD_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/rng.h"
#include "cards.h"

#define MELD_FACES 32
#define MELD_MAXP 8
#define MELD_NO 0xff /* "no face" / "no seat" in uint8_t slots */

enum { MELD_A, MELD_T, MELD_K, MELD_Q, MELD_J, MELD_9, MELD_8, MELD_7 };

static inline int meld_face(int suit, int place)
{
    return suit * 8 + place;
}
static inline int meld_suit(int f)
{
    return f >> 3;
}
static inline int meld_place(int f)
{
    return f & 7;
}
/* Every face of suit s. */
static inline uint32_t meld_suit_set(int s)
{
    return 0xffu << (8 * s);
}

/* Card codecs for the faces of a pack: names as cards.h ("10♥"), parse
 * refusing faces the pack lacks. */
extern const struct card_codec meld_codec_pinochle; /* A..9, 4 copies */
extern const struct card_codec meld_codec_binokel;  /* A..J, 7; 2 copies */
extern const struct card_codec meld_codec_binocle;  /* A..7, one pack */

/* The counts of a one-pack hand held as a face set. */
void meld_counts(uint32_t set, uint8_t *hand);

/* Writes face f's name ("A♠"); returns its length. */
int meld_face_name(int f, char *buf, size_t len);

/* Fills pack with `copies` of every face whose place is in `places`, in
 * face order; pre[0..npre) (faces) first, in that order, the rest shuffled
 * from rng. Returns the pack's size, or ERR_INVAL if pre asks for a face
 * outside the pack or more copies than there are. */
int meld_pack_build(uint8_t *pack, unsigned places, int copies,
                    const uint8_t *pre, int npre, struct rng *rng);

/* Whether card a, played after b, beats it (equal cards: the first
 * played wins). trump may be MELD_NO. */
bool meld_beats(int a, int b, int trump);

/* Index in trick[0..n) of the card winning it so far (n >= 1). */
int meld_best(const uint8_t *trick, int n, int trump);

/* The faces a hand may play to trick[0..n) under the follow-and-head duty
 * of Pinochle, Binocle and Binokel (the play rules in docs/games/
 * pinochle.md, binocle.md and binokel.md): any face when leading; else
 * follow suit and beat the winning card if possible; void, trump, beating
 * the winning trump if possible; else any. */
uint32_t meld_playable(const uint8_t *hand, const uint8_t *trick, int n,
                       int trump);

/* The faces the card c played to trick[0..n) shows the player not to hold
 * (all copies): a suit he did not follow, trumps he did not play when void,
 * the cards that would have beaten the winner when he did not. */
uint32_t meld_shows_lack(const uint8_t *trick, int n, int c, int trump);

/* How many sets of one face of each suit at place p ("four Aces" is one,
 * "eight Aces" two when each suit is held twice). Inline: determinizing
 * counts melds for every hand it draws. */
static inline int meld_around(const uint8_t *hand, int place)
{
    int a = hand[place], b = hand[8 + place];
    int c = hand[16 + place], d = hand[24 + place];
    int ab = a < b ? a : b, cd = c < d ? c : d;
    return ab < cd ? ab : cd;
}

/* How many runs of the faces of suit s at the places in `places`. */
static inline int meld_runs(const uint8_t *hand, int s, unsigned places)
{
    int k = 255;
    for (; places; places &= places - 1) {
        int n = hand[meld_face(s, __builtin_ctz(places))];
        k = n < k ? n : k;
    }
    return k;
}

/* min(a, b), for pairs such as marriages and pinochles. */
static inline int meld_pairs(const uint8_t *hand, int a, int b)
{
    return hand[a] < hand[b] ? hand[a] : hand[b];
}

/* Cards in a hand of counts. */
static inline int meld_size(const uint8_t *hand)
{
    /* A face has at most four copies, so the four words add bytewise
     * without carries, and the multiply sums the bytes (under 256) into
     * the top one: cheaper than 32 loads, and observe counts every seat. */
    uint64_t w[MELD_FACES / 8];
    memcpy(w, hand, sizeof w);
    return (int)(((w[0] + w[1] + w[2] + w[3]) * 0x0101010101010101ull) >> 56);
}

/* Raises shown[f] to k: a meld needs k copies of face f on show. */
static inline void meld_need(uint8_t *shown, int f, int k)
{
    if (k > shown[f])
        shown[f] = (uint8_t)k;
}

/* Card points of face f: A 11, 10 10, K 4, Q 3, J 2, others 0. */
static inline int meld_card_points(int f)
{
    static const uint8_t pts[8] = {11, 10, 4, 3, 2, 0, 0, 0};
    return pts[meld_place(f)];
}

/* v clamped to [0, 1], for observation tensors. */
static inline float meld_unit(float v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* x / d as a float, rounded exactly as (float)x / (float)d is, for inv =
 * 1.0 / d, d a positive integer below 2^24 and |x| below 2^24: a multiply
 * where observe would divide (a division costs several multiplies). The
 * double product is within 2^-52 of x / d relatively, while x / d is never
 * a float rounding midpoint and lies relatively at least 2^-26 / d away
 * from each, so both round to the same float (test_meld checks it over
 * whole ranges). */
static inline float meld_quot(int x, double inv)
{
    return (float)(x * inv);
}

/* "clubs", "diamonds", "hearts", "spades". */
const char *meld_suit_word(int s);

/* ---- the trick in play ------------------------------------------------ */

/* The trick in play and the last one; games embed it as "tb". */
struct meld_table {
    uint8_t turn;                /* seat to act */
    uint8_t leader;              /* who led the trick in play */
    uint8_t ntrick;              /* cards in it */
    uint8_t tricks;              /* finished tricks this deal */
    uint8_t last_leader;         /* who led the last trick, MELD_NO before */
    uint8_t trick[MELD_MAXP];    /* the trick in play, from its leader */
    uint8_t last[MELD_MAXP];     /* the last finished trick */
};

/* Starts a deal's play: no tricks yet, seat leads. */
void meld_table_start(struct meld_table *t, int seat);

/* Adds face f, played by the seat to act, to the trick among np seats;
 * passes the turn on and returns false, or returns true once it is full. */
bool meld_table_put(struct meld_table *t, int f, int np);

/* Closes a full trick: the winner (first of equal cards) leads next.
 * *points gets its card points, plus last_bonus when it was trick
 * number `per_deal`. Returns the winner's seat. */
int meld_table_close(struct meld_table *t, int np, int trump, int per_deal,
                     int last_bonus, int *points);

/* Takes one copy of face f out of a counts hand that a seat plays, noting
 * it in played; known (what all know is held) loses a copy too, since the
 * copy played may be the one shown. */
void meld_take(uint8_t *hand, uint8_t *known, uint8_t *played, int f);

/* Packs the keys "trick", "leader" (nil unless show_leader) and
 * "last_trick" with their values. */
void meld_pack_table(msgpack_packer *pk, const struct meld_table *t, int np,
                     bool show_leader);

/* Sets the trick in play into out (np x 32 floats, seat first). */
void meld_observe_trick(float *out, const struct meld_table *t, int seat,
                        int np);

/* Sets the trick in play over out, a trick section of np rows of 32
 * floats (seat first) that holds zeros; lead is the leader's row. Every
 * place i < np is written, without a branch: one past the trick's cards
 * writes a zero into its row, which holds no card. (A branch on the
 * trick's size, which differs from one state to the next, would be
 * mispredicted about once a call.) */
static inline void meld_trick_ones(float *out, const struct meld_table *t,
                                   int lead, int np)
{
    static const float value[2] = {0.0f, 1.0f};
    int n = t->ntrick;
#pragma GCC unroll 8
    for (int i = 0, r = lead; i < np; i++) {
        out[32 * r + (t->trick[i] & 31)] = value[i < n];
        r = r + 1 == np ? 0 : r + 1;
    }
}

/* Whether a redealt hand (known + hidden + played) melds exactly value
 * and shows exactly shown under value_fn (a game's meld table). */
bool meld_redeal_fits(const uint8_t *known, const uint8_t *hidden,
                      const uint8_t *played, int trump, int value,
                      const uint8_t *shown,
                      int (*value_fn)(const uint8_t *h, int trump,
                                      uint8_t *shown));

/* Packs face f by name. */
void meld_pack_face(msgpack_packer *pk, int f);

/* Packs trick[0..n), led by seat leader among np, as [[seat, card], ...]. */
void meld_pack_trick(msgpack_packer *pk, const uint8_t *trick, int n,
                     int leader, int np);

/* Packs a hand of counts as an array of face names, duplicates repeated. */
void meld_pack_hand(msgpack_packer *pk, const uint8_t *hand);

/* Writes the hand's names space-separated into buf. */
void meld_format_hand(const uint8_t *hand, char *buf, size_t len);

/* Sets out[32 * i + f] = rows[i][f] * inv for every face of rows i < n:
 * the count rows of a tensor (a hand, the cards gone, each seat's known
 * cards) in one call. inv is 1 / a power of two, so each product equals
 * the quotient exactly. On x86-64 a row is two 64-byte stores where the
 * CPU has AVX-512F (obs_width_best), else four of 32 bytes under AVX2
 * (chosen at load time), else the plain loop. */
void meld_put_count_rows(float *restrict out, const uint8_t *const *rows,
                         int n, float inv);

/* ---- whole tensors in aligned 64-byte stores (x86-64, AVX-512F) ------ */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MELD_HAVE_512 1
#include <immintrin.h>
#define MELD_512 __attribute__((target("avx512f")))
/* For small helpers called from a MELD_512 function and from a plain one:
 * each caller gets its own build. Called out of line, the plain build's
 * SSE code would run after AVX-512 instructions with the registers' upper
 * halves in use, which costs it dearly. */
#define MELD_INLINE inline __attribute__((always_inline))

/* Writes a tensor of n > 16 floats as a sequence of 16-float blocks,
 * block j holding tensor[16 j .. 16 j + 16): meld_w_first, meld_w_put for
 * each middle block, meld_w_last. One store per 64 bytes, each aligned:
 * where out is not on a 64-byte boundary, each store joins the end of the
 * previous block with the start of the new one (one two-source permute)
 * and the first and last stores are masked to the tensor, since a store
 * straddling two cache lines costs about two. Nothing outside out[0..n)
 * is written. An observe made so has no memset, writes no float twice and
 * keeps its scattered values in registers: stores and instructions bound
 * it, not arithmetic. Only for functions built with MELD_512, on a CPU
 * with AVX-512F. */
struct meld_writer {
    float *at;     /* next aligned store */
    float *out;    /* the tensor */
    int n;         /* floats in the tensor */
    bool shifted;  /* out is not aligned: each store joins two blocks */
    __m512 prev;   /* the block put last */
    __m512i shift; /* permute indices: lane i takes joined lane i + 16 - k */
};

/* Whether out needs the shifted writer: not on a 64-byte boundary. */
static inline bool meld_w_shifted(const float *out)
{
    return (uintptr_t)out & 63;
}

/* Starts the tensor with its first block v; shifted is
 * meld_w_shifted(out), best a constant in each of two builds of the
 * caller, so that the aligned one has no permutes at all. */
MELD_512 static inline void meld_w_first(struct meld_writer *w, float *out,
                                         int n, __m512 v, bool shifted)
{
    int k = shifted ? (int)((uintptr_t)out >> 2 & 15) : 0;
    w->shifted = shifted;
    w->at = (float *)((uintptr_t)out - (uintptr_t)(4 * k));
    w->out = out;
    w->n = n;
    w->shift = _mm512_add_epi32(
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
        _mm512_set1_epi32(16 - k));
    if (shifted)
        _mm512_mask_store_ps(
            w->at, (__mmask16)(0xffffu << k),
            _mm512_permutex2var_ps(_mm512_setzero_ps(), w->shift, v));
    else
        _mm512_store_ps(w->at, v);
    w->at += 16;
    w->prev = v;
}

/* Puts the next block, one that is neither the first nor the last: its
 * store lies wholly inside the tensor. */
MELD_512 static inline void meld_w_put(struct meld_writer *w, __m512 v)
{
    _mm512_store_ps(w->at, w->shifted ? _mm512_permutex2var_ps(
                                            w->prev, w->shift, v)
                                      : v);
    w->at += 16;
    w->prev = v;
}

/* Puts n >= 1 blocks of zeros, none of them the first or the last. Only
 * the first store joins the block before; the others are plain stores of
 * a zero register, with nothing to compute: a run of structural zeros
 * costs its stores alone. */
MELD_512 static inline void meld_w_zeros(struct meld_writer *w, int n)
{
    __m512 zero = _mm512_setzero_ps();
    meld_w_put(w, zero);
    /* Unrolled whole (n is a constant where it is called): left a loop,
     * the compiler would make it a memset call (rep stos). */
#pragma GCC unroll 32
    for (int i = 1; i < n; i++, w->at += 16)
        _mm512_store_ps(w->at, zero);
}

/* Puts the last block, v (its lanes past the tensor ignored), and ends
 * the tensor, which must span more than one block. */
MELD_512 static inline void meld_w_last(struct meld_writer *w, __m512 v)
{
    int rest = w->n - (int)(w->at - w->out); /* 1..31 floats */
    __m512 joined =
        w->shifted ? _mm512_permutex2var_ps(w->prev, w->shift, v) : v;
    unsigned m = rest >= 16 ? 0xffffu : (1u << rest) - 1;
    _mm512_mask_store_ps(w->at, (__mmask16)m, joined);
    if (rest > 16) {
        joined = _mm512_permutex2var_ps(v, w->shift, _mm512_setzero_ps());
        _mm512_mask_store_ps(w->at + 16, (__mmask16)((1u << (rest - 16)) - 1),
                             joined);
    }
}

/* The table of count scales: lane i holds i * scale, as a count i
 * converted and multiplied gives it (exactly, for scale a power of two).
 * Made once per observe and kept in a register. */
MELD_512 static inline __m512 meld_w_scale(float scale)
{
    __m512i i = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
                                 2, 1, 0);
    return _mm512_mul_ps(_mm512_cvtepi32_ps(i), _mm512_set1_ps(scale));
}

/* The block of 16 counts src[0..16) (each below 16) times the scale of
 * table (meld_w_scale): widened and looked up, one instruction fewer
 * than converting and multiplying. */
MELD_512 static inline __m512 meld_w_counts(const uint8_t *src, __m512 table)
{
    __m128i b = _mm_loadu_si128((const __m128i *)src);
    return _mm512_permutexvar_ps(_mm512_cvtepu8_epi32(b), table);
}

/* The block with 1 at lane i for each bit i of bits, else 0. */
MELD_512 static inline __m512 meld_w_bits(unsigned bits)
{
    return _mm512_maskz_mov_ps((__mmask16)bits, _mm512_set1_ps(1.0f));
}
/* Starts a meld game's tensor with the rows Pinochle and Binokel share,
 * each row two blocks of 16 faces' counts times table: the seat's hand,
 * the cards gone in finished tricks, then zeros for the trick's rows
 * (2 * maxp + 2 blocks: its cards are set over them at the end, and the
 * seat's own known row is all in its hand row), then the others' known
 * rows in seat order from seat + 1 and zeros for seats past np. */
MELD_512 static MELD_INLINE void
meld_w_head(struct meld_writer *w, float *out, int n, bool shifted,
            const uint8_t (*hand)[MELD_FACES],
            const uint8_t (*known)[MELD_FACES], const uint8_t *gone,
            int seat, int np, int maxp, __m512 table)
{
    meld_w_first(w, out, n, meld_w_counts(hand[seat], table), shifted);
    meld_w_put(w, meld_w_counts(hand[seat] + 16, table));
    meld_w_put(w, meld_w_counts(gone, table));
    meld_w_put(w, meld_w_counts(gone + 16, table));
    meld_w_zeros(w, 2 * maxp + 2);
#pragma GCC unroll 8
    for (int r = 1; r < np; r++) {
        int s = seat + r < np ? seat + r : seat + r - np;
        meld_w_put(w, meld_w_counts(known[s], table));
        meld_w_put(w, meld_w_counts(known[s] + 16, table));
    }
    if (np < maxp)
        meld_w_zeros(w, 2 * (maxp - np));
}
#else
#define MELD_HAVE_512 0
#define MELD_INLINE inline
#endif

/* ---- dealing hidden duplicate cards (determinization) ---------------- */

/* Accepts or refuses the hidden cards drawn for seat (counts per face);
 * ctx is the caller's. */
typedef bool (*meld_accept_fn)(const void *ctx, int seat,
                               const uint8_t *hidden);

/* Deals pool (counts per face) among the seats with room[s] > 0: each
 * seat gets room[s] cards, none of the faces in lacks[s], and each seat's
 * draw must pass accept (NULL: any). Seats are drawn one at a time, the
 * most hidden cards first, with a bounded number of retries, the last
 * seat taking what is left. When no fitting deal turns up within the
 * retries, the deal drops accept, then the lacks: a sample that is a
 * little off is better than the true hands, which a determinizing search
 * must never see. Fills out[s][face]; returns false only when the pool
 * cannot fill the rooms (a caller's bug). */
bool meld_deal_hidden(const uint8_t *pool, int np, const int *room,
                      const uint32_t *lacks, meld_accept_fn accept,
                      const void *ctx, struct rng *rng,
                      uint8_t (*out)[MELD_FACES]);

#endif
