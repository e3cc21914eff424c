/* idset.c — a sparse bitmap in a hash table of 64-bit words; see idset.h.
 * Linear probing from a Fibonacci hash of the word number: consecutive
 * word numbers (a tournament's games) land far apart. */
#include "idset.h"

#include <assert.h>

#include "../common/err.h"
#include "../common/mem.h"

#define FIRST_BITS 6 /* 64 slots (1 KiB) at the first number */

static uint64_t slot_of(uint64_t key, int bits)
{
    return (key * 0x9E3779B97F4A7C15u) >> (64 - bits);
}

/* The slot holding key, or the free slot where it goes. */
static struct idset_word *find(struct idset_word *slot, int bits, uint64_t key)
{
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t i = slot_of(key, bits);
    while (slot[i].key && slot[i].key != key)
        i = (i + 1) & mask;
    return &slot[i];
}

/* Doubles the table (or makes the first one). */
static int grow(struct idset *s)
{
    int bits = s->slot ? s->bits + 1 : FIRST_BITS;
    struct idset_word *slot = mem_try_alloc(sizeof *slot * ((size_t)1 << bits));
    if (!slot)
        return ERR_NOMEM;
    for (int64_t i = 0; s->slot && i < (int64_t)1 << s->bits; i++)
        if (s->slot[i].key)
            *find(slot, bits, s->slot[i].key) = s->slot[i];
    mem_free(s->slot);
    s->slot = slot;
    s->bits = bits;
    s->last = NULL;
    return 0;
}

void idset_init(struct idset *s)
{
    s->slot = NULL;
    s->bits = 0;
    s->used = 0;
    s->last = NULL;
}

void idset_fini(struct idset *s)
{
    mem_free(s->slot);
    idset_init(s);
}

int idset__word(struct idset *s, uint64_t key)
{
    assert(key > 0 && key <= ((uint64_t)1 << 56));
    if ((!s->slot || 2 * (s->used + 1) > (int64_t)1 << s->bits) && grow(s))
        return ERR_NOMEM;
    struct idset_word *w = find(s->slot, s->bits, key);
    s->used += !w->key;
    w->key = key;
    s->last = w;
    return 0;
}
