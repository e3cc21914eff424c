/* casino_obs.c — what a Casino seat sees as a tensor: the observe and
 * obs_layout ops of casino.c's descriptor. Rules and decisions: the header
 * comment of casino.c.
 */
#include <stdbool.h>
#include <string.h>

#include "../game.h"
#include "../obs_fill.h"
#include "casino.h"

/* Offsets of the observation tensor's segments for n players. */
struct layout {
    int hand, loose, in_build, builds, multiple, owner, won, nwon, spades;
    int sweeps, score, last, dealer, capturer, actor, stock, last_deal;
    int round, dead, size;
};

static inline void layout_of(int n, struct layout *L)
{
    int o = 0, nb = CASINO_VMAX - 1;
    L->hand = o, o += CARDS_IN_PACK;
    L->loose = o, o += CARDS_IN_PACK;
    L->in_build = o, o += CARDS_IN_PACK;
    L->builds = o, o += nb;
    L->multiple = o, o += nb;
    L->owner = o, o += nb * n;
    L->won = o, o += n * CARDS_IN_PACK;
    L->nwon = o, o += n;
    L->spades = o, o += n;
    L->sweeps = o, o += n;
    L->score = o, o += n;
    L->last = o, o += n;
    L->dealer = o, o += n;
    L->capturer = o, o += n;
    L->actor = o, o += n;
    L->stock = o++;
    L->last_deal = o++;
    L->round = o++;
    L->dead = o, o += CARDS_IN_PACK;
    L->size = o;
}

int casino__obs_size(int n)
{
    struct layout L;
    layout_of(n, &L);
    return L.size;
}

static int nplayers(const struct game *g)
{
    return g->dims.players;
}

static int opt(const struct game *g, enum casino_param p)
{
    return (int)g->params.v[p];
}

static int side_of(const struct game *g, int seat)
{
    return g->dims.team[seat];
}

/* Writes the 52 card bits of h at out as floats 0 and 1, no clearing
 * needed: six rows of eight (obs_byte_floats) and the last four. No loop
 * over the cards, whose number varies (won piles hold dozens). */
static inline void plane(float *out, hand_t h)
{
#pragma GCC unroll 6
    for (int i = 0; i < 6; i++)
        memcpy(out + 8 * i, obs_byte_floats[h >> 8 * i & 0xff],
               8 * sizeof *out);
    memcpy(out + 48, obs_byte_floats[h >> 48 & 0xf], 4 * sizeof *out);
}

/* observe has a second build for AVX-512 (GCC and clang on x86-64), picked
 * at run time: there a plane is three 64-byte stores of ones under a
 * 16-bit mask of h and one of 16 bytes, with no table to read, and the
 * cleared segments take six stores; elsewhere the plain build above. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CASINO_512 1
#include <immintrin.h>

__attribute__((target("avx512f"))) static inline void plane_512(float *out,
                                                                hand_t h)
{
    __m512 one = _mm512_set1_ps(1.0f);
    _mm512_storeu_ps(out, _mm512_maskz_mov_ps((__mmask16)h, one));
    _mm512_storeu_ps(out + 16,
                     _mm512_maskz_mov_ps((__mmask16)(h >> 16), one));
    _mm512_storeu_ps(out + 32,
                     _mm512_maskz_mov_ps((__mmask16)(h >> 32), one));
    __m512 last = _mm512_maskz_mov_ps((__mmask16)(h >> 48 & 0xf), one);
    _mm_storeu_ps(out + 48, _mm512_castps512_ps128(last));
}

/* Writes out[0..n) (n <= 64) as floats 0 and 1 from the bits of m, bit
 * i for out[i]: 64-byte stores of ones under masks, the last one cut at
 * n. Clears and sets a run of flags in one pass. */
__attribute__((target("avx512f"))) static inline void bits_512(float *out,
                                                               uint64_t m,
                                                               int n)
{
    __m512 one = _mm512_set1_ps(1.0f);
    int i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(out + i, _mm512_maskz_mov_ps((__mmask16)(m >> i),
                                                      one));
    if (i < n)
        _mm512_mask_storeu_ps(out + i, (__mmask16)((1u << (n - i)) - 1),
                              _mm512_maskz_mov_ps((__mmask16)(m >> i), one));
}
#else
#define CASINO_512 0
#endif

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* The plane and the clearing of the build of observe at hand (wide: the
 * AVX-512 one). */
ALWAYS_INLINE void put_plane(float *out, hand_t h, bool wide)
{
#if CASINO_512
    if (wide) {
        plane_512(out, h);
        return;
    }
#endif
    (void)wide;
    plane(out, h);
}

static const float zero_one[2] = {0, 1};

/* out[0..n) (n <= 64) as floats 0 and 1 from the bits of m, bit i for
 * out[i]: not wide, float by float (only for short runs). */
ALWAYS_INLINE void put_bits(float *out, uint64_t m, int n, bool wide)
{
#if CASINO_512
    if (wide) {
        bits_512(out, m, n);
        return;
    }
#endif
    (void)wide;
    for (int i = 0; i < n; i++)
        out[i] = zero_one[m >> i & 1];
}

/* x, at most 1 (a minimum, not a branch: scores past the target are
 * rare and would be mispredicted). */
static inline float clamp01(double x)
{
    return (float)(x < 1 ? x : 1.0);
}

static const float won_frac[64] = OBS_FRAC64(CARDS_IN_PACK);
static const float spades_frac[64] = OBS_FRAC64(13);
static const float sweeps_frac[64] = OBS_FRAC64(CASINO_MAX_SWEEPS);
static const float last_frac[64] = OBS_FRAC64(CASINO_ROUND_POINTS + CASINO_PLAYS);
static const float stock_frac[64] =
    OBS_FRAC64(CARDS_IN_PACK - CASINO_TABLE_DEAL - 2 * CASINO_HAND);
static const float value_frac[12] = {OBS_FRAC4(CASINO_VMAX, 0),
                                     OBS_FRAC4(CASINO_VMAX, 4),
                                     OBS_FRAC4(CASINO_VMAX, 8)};

/* The flags of the build segments (builds, multiple, owner), bit i for
 * out[L.builds + i], and the in_build values over a cleared plane. */
ALWAYS_INLINE uint64_t observe_builds(const struct casino_state *st,
                                      int seat, int n, float *in_build)
{
    unsigned lie = st->builds >> 2 & 0x1ff;
    uint64_t m = lie | (uint64_t)(st->multiple >> 2 & lie) << 9;
    for (unsigned b = st->builds; b; b &= b - 1) {
        int v = __builtin_ctz(b);
        for (hand_t h = st->build[v]; h; h &= h - 1)
            in_build[hand_first(h)] = value_frac[v];
        int rel = st->owner[v] - seat; /* the owner, from the observer */
        m |= 1ull << (18 + (v - 2) * n + (rel < 0 ? rel + n : rel));
    }
    return m;
}

/* Place of seat p (a seat, else none) from seat among n, as a bit. */
static inline unsigned rel_bit(int p, int seat, int n)
{
    int r = p - seat;
    return p < n ? 1u << (r < 0 ? r + n : r) : 0;
}

/* The per-seat segments, in seat order relative to the observer, and the
 * single entries after them (to dead): their flags in one pass of
 * put_bits, then the quotients, from tables (no division, no branch). */
ALWAYS_INLINE void observe_seats(const struct game *g,
                                 const struct casino_state *st, int seat,
                                 const struct layout *L, float *out, bool wide)
{
    int n = nplayers(g);
    unsigned dealer = rel_bit(st->dealer, seat, n);
    unsigned capturer = rel_bit(st->last_capturer, seat, n);
    unsigned actor = st->over ? 0 : rel_bit(st->turn, seat, n);
    uint64_t flags = (uint64_t)(dealer | capturer << n | actor << 2 * n)
                         << (L->dealer - L->nwon) |
                     (uint64_t)(st->next == CARDS_IN_PACK)
                         << (L->last_deal - L->nwon);
    if (wide) {
        put_bits(out + L->nwon, flags, L->dead - L->nwon, wide);
    } else { /* only the flags, the seats' ones in the loop below */
        out[L->last_deal] = zero_one[st->next == CARDS_IN_PACK];
    }
    double scale = obs_recip[opt(g, CASINO_P_TARGET) + CASINO_ROUND_POINTS];
    /* Seats relative to the observer: seat + k, wrapped without a
     * division (observe runs at every env step). */
    for (int k = 0; k < n; k++) {
        int p = seat + k < n ? seat + k : seat + k - n, s = side_of(g, p);
        put_plane(out + L->won + k * CARDS_IN_PACK, st->won[p], wide);
        /* Counts at most 52, 13, CASINO_MAX_SWEEPS and 59: within the tables. */
        out[L->nwon + k] = won_frac[hand_count(st->won[p]) & 63];
        out[L->spades + k] =
            spades_frac[hand_count(st->won[p] & suit_mask(SPADES)) & 63];
        out[L->sweeps + k] = sweeps_frac[st->sweeps[p] & 63];
        out[L->score + k] = clamp01(st->score[s] * scale);
        out[L->last + k] = last_frac[st->last_points[s] & 63];
        if (!wide) {
            out[L->dealer + k] = zero_one[dealer >> k & 1];
            out[L->capturer + k] = zero_one[capturer >> k & 1];
            out[L->actor + k] = zero_one[actor >> k & 1];
        }
    }
    out[L->stock] = stock_frac[(CARDS_IN_PACK - st->next) & 63];
    out[L->round] = obs_quot(st->rounds, opt(g, CASINO_P_MAX_ROUNDS));
}

ALWAYS_INLINE void observe_body(const struct game *g,
                                const struct casino_state *st, int seat,
                                float *out, bool wide)
{
    struct layout L;
    int n = nplayers(g);
    layout_of(n, &L);
    /* Every float is written once but for in_build's values of builds
     * (written over the cleared plane) and the quotients (over the
     * cleared entries among the flags). */
    put_plane(out + L.hand, st->hand[seat], wide);
    put_plane(out + L.loose, st->loose, wide);
    if (wide) {
        put_bits(out + L.in_build, 0, CARDS_IN_PACK, wide);
        uint64_t builds = observe_builds(st, seat, n, out + L.in_build);
        put_bits(out + L.builds, builds, L.won - L.builds, wide);
    } else { /* one clearing of the build segments, then their ones */
        obs_fill_zero(out + L.in_build, (size_t)(L.won - L.in_build));
        uint64_t builds = observe_builds(st, seat, n, out + L.in_build);
        for (; builds; builds &= builds - 1)
            out[L.builds + __builtin_ctzll(builds)] = 1;
    }
    observe_seats(g, st, seat, &L, out, wide);
    put_plane(out + L.dead, st->dead, wide);
}

#if CASINO_512
__attribute__((target("avx512f"))) static void
observe_512(const struct game *g, const struct casino_state *st, int seat,
            float *out)
{
    observe_body(g, st, seat, out, true);
}

static void observe_base(const struct game *g, const struct casino_state *st,
                         int seat, float *out)
{
    observe_body(g, st, seat, out, false);
}

void casino__observe(const struct game *g, const void *vst, int seat,
                     float *out)
{
    if (obs_width_best() == OBS_WIDTH_64)
        observe_512(g, vst, seat, out);
    else
        observe_base(g, vst, seat, out);
}
#else
void casino__observe(const struct game *g, const void *vst, int seat,
                     float *out)
{
    observe_body(g, vst, seat, out, false);
}
#endif

int casino__obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    struct layout L;
    int n = nplayers(g), nb = CASINO_VMAX - 1;
    layout_of(n, &L);
    const struct obs_segment seg[] = {
        {"hand", L.hand, 52, "own cards, one per card id"},
        {"table", L.loose, 52, "loose cards on the table"},
        {"in_build", L.in_build, 52,
         "per card: value/10 of the build holding it, else 0"},
        {"builds", L.builds, nb, "per value 2..10: 1 if a build of it lies"},
        {"multiple", L.multiple, nb,
         "per value 2..10: 1 if that build is "
         "multiple (its value can no longer change)"},
        {"owner", L.owner, nb * n,
         "per value 2..10, per seat from self "
         "clockwise: 1 for the build's owner"},
        {"won", L.won, n * 52,
         "per seat from self clockwise: cards it "
         "captured this round"},
        {"won_count", L.nwon, n, "per seat: cards captured / 52"},
        {"spades", L.spades, n, "per seat: spades captured / 13"},
        {"sweeps", L.sweeps, n, "per seat: sweeps this round / 24"},
        {"score", L.score, n,
         "per seat: its side's game total / (target "
         "+ 11), at most 1"},
        {"last_round", L.last, n,
         "per seat: its side's points in the last "
         "round scored / 59"},
        {"dealer", L.dealer, n, "per seat: 1 for this round's dealer"},
        {"last_capturer", L.capturer, n,
         "per seat: 1 for the last seat to "
         "capture this round"},
        {"to_act", L.actor, n, "per seat: 1 for the seat to play"},
        {"stock", L.stock, 1, "undealt cards / 40"},
        {"last_deal", L.last_deal, 1, "1 once the last cards are dealt"},
        {"round", L.round, 1, "rounds scored / max_rounds"},
        {"dead", L.dead, 52,
         "cards lying dead on the table (trailed onto "
         "a full table)"},
    };
    int k = (int)(sizeof seg / sizeof seg[0]);
    k = k < max ? k : max;
    memcpy(out, seg, sizeof seg[0] * (size_t)k);
    return k;
}

