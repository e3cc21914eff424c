/* idset.h — a set of game or deal numbers whose memory grows with the
 * numbers it holds, not with the largest of them.
 *
 * A journal's header may claim up to SCHEDULE_GAMES_MAX games while the
 * file holds two records, so a bitmap sized by the claim (what results.c
 * kept before) lets 550 bytes of input reserve gigabytes. Here the bitmap
 * is kept in 64-bit words, each found by its number (value / 64) in an
 * open-addressing hash table that doubles when half full: a tournament's
 * dense numbers cost 0.5 to 1 byte each, scattered ones 32 to 64 bytes
 * each. The word added to last is kept at hand: a tournament's games and
 * deals arrive mostly in order, 64 to a word, so most additions are a
 * comparison and an OR, as in a plain bitmap. None of the libraries
 * parlor uses offers an integer set (libc's tsearch is a tree of one
 * malloc a key, several times slower).
 */
#ifndef PARLOR_IDSET_H
#define PARLOR_IDSET_H

#include <stdbool.h>
#include <stdint.h>

/* One word of the bitmap: values (key - 1) * 64 to (key - 1) * 64 + 63. */
struct idset_word {
    uint64_t key;  /* word number + 1; 0: a free slot */
    uint64_t bits; /* bit k: value (key - 1) * 64 + k is in the set */
};

/* Caller storage; zeroed (or idset_init) is an empty set. */
struct idset {
    struct idset_word *slot; /* 2^bits slots, NULL while empty; owned */
    int bits;                /* log2 of the slots */
    int64_t used;            /* slots in use */
    struct idset_word *last; /* the slot added to last; NULL: none */
};

/* Starts an empty set (the same as zeroing it). */
void idset_init(struct idset *s);

/* Frees what s owns; s is empty afterwards. */
void idset_fini(struct idset *s);

/* idset_add's slow path: points s->last at the slot of word key, taking
 * a free one (and growing the table) if needed. Returns 0 or ERR_NOMEM. */
int idset__word(struct idset *s, uint64_t key);

/* Adds v (0 <= v < 2^62) to s; *added tells whether it was new. Returns 0,
 * or ERR_NOMEM when growing fails (s is unchanged, and usable). Inline:
 * a tournament adds two numbers a game, and a call cost more than the
 * addition (callgrind: 37 instructions a number, 12 of them the call). */
static inline int idset_add(struct idset *s, int64_t v, bool *added)
{
    uint64_t key = (uint64_t)v / 64 + 1,
             bit = (uint64_t)1 << ((uint64_t)v % 64);
    if (!s->last || s->last->key != key) {
        int rc = idset__word(s, key);
        if (rc)
            return rc;
    }
    *added = !(s->last->bits & bit);
    s->last->bits |= bit;
    return 0;
}

#endif
