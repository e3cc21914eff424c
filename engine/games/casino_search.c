/* casino_search.c — Casino's search of a build-free table of seven or
 * eight loose numerals, as families of sets held in several words.
 *
 * casino_moves.c searches a table without builds of at most six loose
 * numerals (up to the highest sum asked) as families of sets in one
 * 64-bit word: bit m of a family stands for the set of items whose
 * index mask is m. Seven or eight items need 128 or 256 bits: here a
 * family is an array of words, word h holding the sets whose index mask
 * is h * 64 + (bit index). Joining item i (i >= 6) to a family copies
 * words into words 1 << (i - 6) further on; joining a group g to the
 * unions disjoint from it never carries across a word boundary (the low
 * six bits of a union and of g share no bit), so it is a mask and a
 * shift per word, plus a move of g >> 6 words. The sets found, their
 * count and their canonical order are the ones the subset lists of the
 * general search give; only cheaper.
 *
 * It also finds the families of sums of at most six items, for the
 * one-word searches of casino_moves.c: rather than a knapsack over the
 * ten sums per item, the sum of every one of the 64 sets is one byte of
 * four 16-byte vectors (item i adds its value to the bytes of the sets
 * holding it), and the family of sum v is where those bytes equal v,
 * one comparison and one byte-mask extraction per vector. Tables of at
 * most four items need one vector. Nothing here allocates.
 */
#include "casino.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define WIDE_ITEMS 8      /* most items searched here */
#define WIDE_WORDS 4      /* words of a family of sets of 8 items */
#define NARROW_ITEMS 6    /* items a one-word family holds */

struct wide {
    uint64_t fam[CASINO_SUM_MAX + 1][WIDE_WORDS]; /* the sets adding up to v */
    uint8_t card[WIDE_ITEMS];              /* item i's card, ascending */
    int nw;                                /* words in use: 2 or 4 */
};

/* A family of sets: WIDE_WORDS words, of which nw are used. */
typedef uint64_t family[WIDE_WORDS];

/* Fills p with the loose numerals of st up to limit and the families of
 * their sums; false unless there are seven or eight of them. The first
 * six items' families are one word each (casino__sum_families); item 6
 * joins them into word 1 and item 7 words 0-1 into words 2-3: a set
 * holding item i >= 6 lies 1 << (i - 6) words further on. */
static bool wide_families(const struct casino_state *st, int limit,
                          struct wide *p)
{
    uint8_t val[WIDE_ITEMS] = {0};
    hand_t h = st->loose & CASINO_ACES * ((1ull << limit) - 1);
    int n = hand_count(h);
    if (n <= NARROW_ITEMS || n > WIDE_ITEMS)
        return false;
    p->nw = 1 << (n - NARROW_ITEMS);
    for (int i = 0; h; h &= h - 1, i++) {
        p->card[i] = (uint8_t)hand_first(h);
        val[i] = (uint8_t)card_rank(p->card[i]);
    }
    uint64_t one[CASINO_SUM_MAX + 1];
    casino__sum_families(val, NARROW_ITEMS, one);
    for (int v = 0; v <= CASINO_SUM_MAX; v++) {
        p->fam[v][0] = one[v];
        p->fam[v][1] = v >= val[6] ? one[v - val[6]] : 0;
    }
    for (int v = CASINO_SUM_MAX; v >= 0; v--) {
        bool in = n > 7 && v >= val[7];
        p->fam[v][2] = in ? p->fam[v - val[7]][0] : 0;
        p->fam[v][3] = in ? p->fam[v - val[7]][1] : 0;
    }
    return true;
}

/* found grown by the groups, one at a time: every union in found that is
 * disjoint from group g gains the union with g. A source word j has no
 * bit of g's word index, the word it is written to has them all: no
 * word is written before it is read. */
static void wide_close(uint64_t *found, const uint64_t *groups, int nw)
{
    for (int gw = 0; gw < nw; gw++) {
        for (uint64_t b = groups[gw]; b; b &= b - 1) {
            unsigned lo = (unsigned)__builtin_ctzll(b);
            uint64_t keep = casino__disjoint[lo];
            for (int j = 0; j < nw; j++)
                if (!(j & gw))
                    found[j | gw] |= (found[j] & keep) << lo;
        }
    }
}

/* The non-empty unions of a numeral of rank r's block in kind (0, or
 * k for a build of k + 1); the caller has checked the build value. */
static void wide_unions(const struct wide *p, int r, int kind, uint64_t *u)
{
    int v = kind ? kind + 1 : r;
    if (kind && r < v) {
        memcpy(u, p->fam[v - r], sizeof(family));
    } else {
        memset(u, 0, sizeof(family));
        u[0] = 1;
    }
    wide_close(u, p->fam[v], p->nw);
    u[0] &= ~(uint64_t)1;
}

static int wide_count(const uint64_t *u, int nw)
{
    int n = 0;
    for (int j = 0; j < nw; j++)
        n += __builtin_popcountll(u[j]);
    return n;
}

/* The k-th of the sets in family u in the canonical order (most items
 * first, every item being one card, then the lower mask), or -1. */
static int wide_nth(const uint64_t *u, int nw, int k)
{
    for (int w = WIDE_ITEMS; w > 0; w--) {
        for (int j = 0; j < nw; j++) {
            int low = w - __builtin_popcount((unsigned)j);
            if (low < 0 || low > NARROW_ITEMS)
                continue;
            uint64_t g = u[j] & casino__of_size[low];
            int c = __builtin_popcountll(g);
            if (k < c) {
                for (; k > 0; k--)
                    g &= g - 1;
                return j * 64 + __builtin_ctzll(g);
            }
            k -= c;
        }
    }
    return -1;
}

/* The ways a card of rank r plays in kind on wide table p. */
static int wide_count_of(const void *vp, int r, int kind, unsigned after)
{
    (void)after; /* a table without builds */
    const struct wide *p = vp;
    family u;
    wide_unions(p, r, kind, u);
    return wide_count(u, p->nw);
}

bool casino__wide_counts(const struct casino_state *st, int limit,
                         unsigned held, unsigned twice, hand_t cards,
                         struct casino_counts *out)
{
    struct wide p;
    if (!wide_families(st, limit, &p))
        return false;
    casino__fill_counts(st, held, twice, 0, cards, &p, wide_count_of, out);
    return true;
}

int casino__wide_option(const struct casino_state *st, int seat, int card,
                        int kind, int k, uint64_t *items)
{
    struct wide p;
    int r = card_rank(card), v = kind + 1;
    family u;
    if (!wide_families(st, kind ? v : r, &p))
        return -1;
    hand_t rest = st->hand[seat] & ~card_bit(card);
    /* A build of v needs a card of rank v kept in hand. */
    if (kind && (r > v || !(rest & CASINO_ACES << (v - 1))))
        return 0;
    wide_unions(&p, r, kind, u);
    int x = wide_nth(u, p.nw, k);
    if (x < 0)
        return 0;
    *items = 0;
    for (int i = 0; i < WIDE_ITEMS; i++)
        if ((x >> i) & 1)
            *items |= card_bit(p.card[i]);
    return 1;
}

/* ==== sums of at most six items ======================================== */

#ifdef __SSE2__
/* Byte j of row i is all ones when set j (of items 0..3) holds item i. */
static const uint8_t holds[4][16] __attribute__((aligned(16))) = {
    {0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255},
    {0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255},
    {0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 255, 255, 255, 255},
    {0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255},
};

/* The sets (as bits) whose sum byte in s equals v. */
static inline uint64_t equal_to(__m128i s, int v)
{
    __m128i eq = _mm_cmpeq_epi8(s, _mm_set1_epi8((char)v));
    return (uint64_t)(unsigned)_mm_movemask_epi8(eq);
}

/* The sums of the sets of items 0..3 (val[0..3]), one byte per set. */
static inline __m128i low_sums(const uint8_t *val)
{
    __m128i lo = _mm_setzero_si128();
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        __m128i row = _mm_load_si128((const __m128i *)holds[i]);
        lo = _mm_add_epi8(lo, _mm_and_si128(row, _mm_set1_epi8((char)val[i])));
    }
    return lo;
}

void casino__sum_pair(const uint8_t *val, int n, int a, int b, uint64_t *fa,
                      uint64_t *fb)
{
    /* As casino__sum_families, for two sums only. */
    uint64_t keep = n >= 6 ? ~0ull : ((uint64_t)1 << (1 << n)) - 1;
    __m128i lo = low_sums(val);
    if (n <= 4) {
        *fa = equal_to(lo, a) & keep;
        *fb = equal_to(lo, b) & keep;
        return;
    }
    __m128i v4 = _mm_set1_epi8((char)val[4]);
    __m128i v5 = _mm_set1_epi8((char)(n > 5 ? val[5] : 0));
    __m128i s1 = _mm_add_epi8(lo, v4), s2 = _mm_add_epi8(lo, v5);
    __m128i s3 = _mm_add_epi8(s1, v5);
    *fa = (equal_to(lo, a) | equal_to(s1, a) << 16 | equal_to(s2, a) << 32 |
           equal_to(s3, a) << 48) &
          keep;
    *fb = (equal_to(lo, b) | equal_to(s1, b) << 16 | equal_to(s2, b) << 32 |
           equal_to(s3, b) << 48) &
          keep;
}

/* casino__sum_families for five or six items: sets 16k..16k+15 hold
 * item 4 when bit 0 of k is set, item 5 when bit 1 is. Out of line, so
 * that the four items or fewer of most tables take a lean path. */
static __attribute__((noinline)) void sum_families_six(const uint8_t *val,
                                                       int n, uint64_t *fam)
{
    uint64_t keep = n >= 6 ? ~0ull : ((uint64_t)1 << (1 << n)) - 1;
    __m128i lo = low_sums(val); /* sets 0..15: items 0..3 */
    __m128i v4 = _mm_set1_epi8((char)val[4]);
    __m128i v5 = _mm_set1_epi8((char)(n > 5 ? val[5] : 0));
    __m128i s1 = _mm_add_epi8(lo, v4), s2 = _mm_add_epi8(lo, v5);
    __m128i s3 = _mm_add_epi8(s1, v5);
    fam[0] = 1;
#pragma GCC unroll 10
    for (int v = 1; v <= CASINO_SUM_MAX; v++)
        fam[v] = (equal_to(lo, v) | equal_to(s1, v) << 16 |
                  equal_to(s2, v) << 32 | equal_to(s3, v) << 48) &
                 keep;
}

void casino__sum_families(const uint8_t *val, int n, uint64_t *fam)
{
    /* Sets of absent items (index n and up) sum like their present part:
     * keep only the sets of index mask below 1 << n. */
    if (n > 4) {
        sum_families_six(val, n, fam);
        return;
    }
    uint64_t keep = ((uint64_t)1 << (1 << n)) - 1;
    __m128i lo = low_sums(val); /* sets 0..15: items 0..3 */
    fam[0] = 1;
#pragma GCC unroll 10
    for (int v = 1; v <= CASINO_SUM_MAX; v++)
        fam[v] = equal_to(lo, v) & keep;
}
#else
/* Without byte vectors: a knapsack, item i joining the sets of the items
 * before it for every sum downwards. */
void casino__sum_families(const uint8_t *val, int n, uint64_t *fam)
{
    uint64_t by[2 * CASINO_SUM_MAX + 1] = {0}, *f = by + CASINO_SUM_MAX;
    f[0] = 1;
    for (int i = 0; i < n; i++)
        for (int v = CASINO_SUM_MAX; v >= 1; v--)
            f[v] |= f[v - val[i]] << (1u << i);
    memcpy(fam, f, (CASINO_SUM_MAX + 1) * sizeof *fam);
}

void casino__sum_pair(const uint8_t *val, int n, int a, int b, uint64_t *fa,
                      uint64_t *fb)
{
    uint64_t fam[CASINO_SUM_MAX + 1];
    casino__sum_families(val, n, fam);
    *fa = fam[a];
    *fb = fam[b];
}
#endif
