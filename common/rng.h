/* rng.h — the seeded random generator every game and agent draws from.
 *
 * splitmix64: one 64-bit word of plain state, so it lives inside game
 * states and clones with them. Same seed, same stream, on every machine.
 * No function here touches global state.
 */
#ifndef PARLOR_RNG_H
#define PARLOR_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s; /* the generator's whole state */
};

/* Seeds r; any 64-bit value is a valid seed. */
static inline void rng_seed(struct rng *r, uint64_t seed)
{
    r->s = seed;
}

/* Returns the next 64 random bits. */
static inline uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Returns a uniform integer in [0, n), n >= 1 (Lemire's unbiased method). */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)rng_next(r) * n;
    if ((uint32_t)m < n) {
        uint32_t t = (uint32_t)-n % n;
        while ((uint32_t)m < t)
            m = (uint64_t)(uint32_t)rng_next(r) * n;
    }
    return (uint32_t)(m >> 32);
}

/* Returns a uniform double in [0, 1). */
static inline double rng_unit(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Derives an independent seed from a master seed and an index (match seeds). */
static inline uint64_t rng_derive(uint64_t master, uint64_t index)
{
    struct rng r = {master ^ (index * 0xd1342543de82ef95ull)};
    rng_next(&r);
    return rng_next(&r);
}

/* Returns the index of one of the bits set in mask (words 64-bit words),
 * each equally likely: a uniform choice among the legal actions of a
 * mask. -1 if no bit is set (no number is drawn then). */
static inline int rng_pick_bit(struct rng *r, const uint64_t *mask, int words)
{
    int n = 0;
    for (int w = 0; w < words; w++)
        n += __builtin_popcountll(mask[w]);
    if (!n)
        return -1;
    int k = (int)rng_below(r, (uint32_t)n);
    for (int w = 0;; w++) {
        int c = __builtin_popcountll(mask[w]);
        if (k >= c) {
            k -= c;
            continue;
        }
        uint64_t m = mask[w];
        for (; k > 0; k--)
            m &= m - 1;
        return w * 64 + __builtin_ctzll(m);
    }
}

/* Shuffles n bytes in place (Fisher-Yates). */
static inline void rng_shuffle_u8(struct rng *r, uint8_t *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

#endif
