/* casino_moves.c — Casino's combinatorial moves: which table items a card
 * may capture or build on, how many there are, and the k-th of them in a
 * canonical order (their readable names: casino_names.c).
 *
 * Key idea: a capture or build is a union of disjoint "groups" of table
 * items, each group summing to the capturing number (docs/games/casino.md).
 * The table never holds more than CASINO_TABLE_MAX = 14 numeral items
 * (casino.c keeps it so), so a set of items is a 16-bit index mask and
 * every search below is exact and bounded by 2^14 sets. Every subset of
 * items summing to at most 10 is listed once per call; a block (one hand
 * card, one kind) filters the subsets that may serve as groups and grows
 * the distinct unions of disjoint groups, a bitmap dropping the repeats
 * that different partitions of one set give (only the items taken
 * matter). Only the set of unions counts, never the order in which they
 * were found, so nothing is sorted. Tables are small in play (four items
 * and eight subsets on average), so the per-call overheads are kept
 * down: no pass over all 2^items sets unless many unions call for it.
 * A table of at most 6 items (nine decisions in ten) is searched another
 * way that finds the same sets: a family of sets of items is one 64-bit
 * word (bit m for the set of index mask m), the sets of each sum come
 * from the sums of all the sets at once, and joining a group to every
 * union disjoint from it is a mask and a shift. Such a table without builds
 * (seven decisions in ten) skips the item list too: no rule option and
 * no ownership matters there. The legal options are the unions that
 * leave the player holding a capturing card for every build he owns.
 * What may form a group is explained in casino.c's header comment.
 * Nothing here allocates.
 */
#include "casino.h"

#include <assert.h>
#include <string.h>

#define ITEMS_MAX CASINO_TABLE_MAX /* numeral items on the table */
#define SETS (1 << ITEMS_MAX)      /* sets of items */
/* Subsets of sum <= 10 among 14 items: at most 2811 and the empty one,
 * with 4 aces and five items of value 2 and of 3 (four loose cards and a
 * build each), found by trying every multiset of 14 values. */
#define SUBS_MAX 2816
#define NO_SET 0xffffffffu /* "no such union" */
#define FEW_UNIONS 64      /* most unions nth_union compares pairwise */
#define SMALL_ITEMS 6      /* tables searched as families in one word */

/* ==== types ============================================================ */

/* One table item: a loose numeral card or a whole build. */
struct item {
    uint64_t bit;    /* its bit in an item mask */
    uint64_t packed; /* what it adds to a packed subset (see struct subset) */
    unsigned build;  /* 1 << v for the build of value v, 0 for a card */
    int weight;      /* cards it stands for */
};

enum { IT_LOOSE, IT_SINGLE, IT_MULTI };

#define SUB_SUM 16     /* shift of a packed subset's sum */
#define SUB_SIZE 24    /* ... of its number of items */
#define SUB_SINGLE 32  /* ... of its single builds */
#define SUB_MULTI 40   /* ... of its multiple builds (mask: bits 0..15) */

/* A subset of items summing to at most 10, with what it holds. The
 * search lists subsets packed in one word, a field a byte or two wide
 * (none overflows: sums stay under 21, counts under 15), so that adding
 * an item to a subset is one addition. */
struct subset {
    uint16_t mask;   /* the items, as bits of their indices */
    uint8_t sum;     /* their values added */
    uint8_t size;    /* number of items */
    uint8_t nsingle; /* single builds among them */
    uint8_t nmulti;  /* multiple builds among them */
};

/* A small table's families of sets of items (bit x of a family: the set
 * of index mask x): per sum, the sets adding up to it, and the sets the
 * group rules test. */
struct fams {
    uint64_t fam[CASINO_SUM_MAX + 1]; /* the sets adding up to v */
    uint64_t loose_only;              /* the sets of loose cards */
    uint64_t no_multi;                /* the sets without multiple builds */
    uint64_t one_single;              /* one single build, loose cards */
};

/* The work of one call: the table's subsets, then one block at a time. */
struct search {
    /* What every search uses, first, so that a small table's search
     * touches few cache lines. */
    const struct casino_state *st; /* the state searched */
    int nit;                       /* entries in it */
    unsigned builds;               /* index bits of the builds among it */
    unsigned owned;                /* build values the player owns */
    unsigned ranks_after;          /* ranks held after playing the card */
    int build_value;               /* value announced, 0 for a capture */
    bool small;                    /* nit <= SMALL_ITEMS: families, below */
    int nsub;                      /* entries in sub */
    int ngrp;                      /* entries in grp */
    int nuni;                      /* entries in uni */
    struct fams f;                 /* small: the families */
    uint64_t found;                /* small: the block's unions */
    struct item it[ITEMS_MAX];     /* items up to limit, ascending bits */
    int table_items;               /* numeral items on the table, all */
    /* Larger tables: lists of subsets and unions. */
    uint16_t head[CASINO_SUM_MAX + 1];    /* first subset adding up to v, or 0 */
    uint64_t sub[SUBS_MAX];        /* packed subsets, sum <= CASINO_SUM_MAX */
    uint16_t next[SUBS_MAX];       /* next subset of the same sum, or 0 */
    uint16_t grp[SUBS_MAX];        /* groups usable beside the start sets */
    uint64_t seen[SETS / 64];      /* the unions in uni, as a bitmap */
    uint16_t uni[SETS];            /* the block's distinct unions */
};

/* ==== static helpers: items and subsets ================================ */

const uint8_t casino__rank_of[64] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};


static inline void add_item(struct search *s, uint64_t bit, int v, int kind,
                            int weight)
{
    /* casino.c refuses the trail that would pass ITEMS_MAX. */
    assert(s->nit < ITEMS_MAX);
    if (kind != IT_LOOSE)
        s->builds |= 1u << s->nit;
    uint64_t packed = (uint64_t)1 << s->nit | (uint64_t)v << SUB_SUM |
                      (uint64_t)1 << SUB_SIZE |
                      (uint64_t)(kind == IT_SINGLE) << SUB_SINGLE |
                      (uint64_t)(kind == IT_MULTI) << SUB_MULTI;
    s->it[s->nit++] =
        (struct item){bit, packed, kind == IT_LOOSE ? 0 : 1u << v, weight};
}

/* Lists the loose numeral cards and the builds of st of value at most
 * limit as items; notes the build values seat owns and counts every
 * item. An item above limit is in no group of a sum up to limit, and
 * leaving it out keeps the order of the others' masks (items stay in
 * ascending bit order); the one build a play may be forced to take has
 * the capturing number's value, within limit. */
static void list_items(struct search *s, int seat, int limit)
{
    const struct casino_state *st = s->st;
    s->nit = 0;
    s->builds = 0;
    s->owned = 0;
    s->table_items = hand_count(st->loose & CASINO_NUMERALS);
    for (hand_t h = st->loose & CASINO_ACES * ((1ull << limit) - 1); h; h &= h - 1) {
        int c = hand_first(h);
        add_item(s, card_bit(c), casino__rank_of[c], IT_LOOSE, 1);
    }
    for (unsigned b = st->builds; b; b &= b - 1) {
        int v = __builtin_ctz(b);
        s->table_items++;
        if (st->owner[v] == seat)
            s->owned |= 1u << v;
        if (v <= limit)
            add_item(s, casino_build_bit(v), v,
                     casino__multiple(st, v) ? IT_MULTI : IT_SINGLE,
                     hand_count(st->build[v]));
    }
}

/* Lists every subset of items summing to at most limit (<= CASINO_SUM_MAX: the
 * largest sum the caller's blocks look up), the empty one first (index
 * 0, which therefore ends every chain): each item extends the subsets
 * listed before it. Each non-empty subset is chained to the others of its
 * sum, so that a block walks only the sums it can use. The bound on n
 * only guards memory: SUBS_MAX is never reached. */
static void list_subsets(struct search *s, unsigned limit)
{
    uint64_t *sub = s->sub;
    int n = 1;
    sub[0] = 0;
    for (int v = 0; v <= CASINO_SUM_MAX; v++)
        s->head[v] = 0;
    for (int i = 0; i < s->nit; i++) {
        uint64_t add = s->it[i].packed;
        for (int j = 0, end = n; j < end && n < SUBS_MAX; j++) {
            uint64_t p = sub[j] + add;
            unsigned sum = (unsigned)(p >> SUB_SUM) & 0xff;
            if (sum > limit)
                continue;
            sub[n] = p;
            s->next[n] = s->head[sum];
            s->head[sum] = (uint16_t)n++;
        }
    }
    s->nsub = n;
}

/* The subset listed at position i, unpacked. */
static struct subset sub_at(const struct search *s, int i)
{
    uint64_t p = s->sub[i];
    return (struct subset){(uint16_t)p, (uint8_t)(p >> SUB_SUM),
                           (uint8_t)(p >> SUB_SIZE), (uint8_t)(p >> SUB_SINGLE),
                           (uint8_t)(p >> SUB_MULTI)};
}

/* The index bit of the build of value v, 0 if there is none. */
static unsigned build_item(const struct search *s, int v)
{
    for (unsigned b = s->builds; b; b &= b - 1)
        if (s->it[__builtin_ctz(b)].build == 1u << v)
            return b & -b;
    return 0;
}

/* ==== static helpers: which subsets may be groups ======================= */

/* A group a capturing card of rank r may take: loose cards, the r-build
 * alone, or (option build_as_card) single builds counted as cards. */
static bool capture_group(const struct subset *u, int r,
                          const struct casino_rules *ru)
{
    if (u->sum != r)
        return false;
    if (!u->nsingle && !u->nmulti)
        return true;
    if (u->size == 1)
        return true; /* the build of value r itself */
    return ru->as_card && !u->nmulti;
}

/* The table part of the group holding the played card (sum v - r): loose
 * cards; one single build alone (raising it, way 1); that build with
 * loose cards (option raise_with_table); single builds as cards
 * (option build_as_card). */
static bool own_group(const struct subset *u, const struct casino_rules *ru)
{
    if (!u->nsingle && !u->nmulti)
        return true;
    if (u->nmulti)
        return false;
    if (ru->as_card)
        return true;
    return u->nsingle == 1 && (u->size == 1 || ru->raise_table);
}

/* Another group of a build of value v: loose cards, or single builds as cards
 * (option build_as_card). The v-build itself is forced in, not listed. */
static bool other_group(const struct subset *u, int v,
                        const struct casino_rules *ru)
{
    if (u->sum != v || u->nmulti)
        return false;
    return !u->nsingle || ru->as_card;
}

/* ==== static helpers: unions =========================================== */

/* Adds the union u to the block's unions unless it is there already. */
static void add_union(struct search *s, unsigned u)
{
    if ((s->seen[u >> 6] >> (u & 63)) & 1)
        return;
    s->seen[u >> 6] |= (uint64_t)1 << (u & 63);
    s->uni[s->nuni++] = (uint16_t)u;
}

/* Adds the groups one at a time to every union disjoint from them: then
 * uni holds each distinct union of a start set and disjoint groups. */
static void grow_unions(struct search *s)
{
    for (int g = 0; g < s->ngrp; g++) {
        int n = s->nuni;
        for (int j = 0; j < n; j++)
            if (!(s->uni[j] & s->grp[g]))
                add_union(s, s->uni[j] | s->grp[g]);
    }
}

/* Forgets the last block's unions (zeroing the words that hold them). */
static void clear_unions(struct search *s)
{
    for (int j = 0; j < s->nuni; j++)
        s->seen[s->uni[j] >> 6] = 0;
    s->nuni = 0;
    s->ngrp = 0;
}

static uint64_t items_of(const struct search *s, unsigned u)
{
    uint64_t m = 0;
    for (; u; u &= u - 1)
        m |= s->it[__builtin_ctz(u)].bit;
    return m;
}

static int weight_of(const struct search *s, unsigned u)
{
    int w = 0;
    for (; u; u &= u - 1)
        w += s->it[__builtin_ctz(u)].weight;
    return w;
}

/* True if after this play, taking the builds in used (bits 1 << v), the
 * player still holds a card of the value of every build he owns (which
 * includes a build he makes now). */
static bool keeps_capturers(const struct search *s, unsigned used)
{
    unsigned after = s->owned & ~used;
    if (s->build_value)
        after |= 1u << s->build_value;
    return (after & ~s->ranks_after) == 0;
}

/* True if the union u is a legal option of the block. */
static bool union_legal(const struct search *s, unsigned u)
{
    unsigned used = 0;
    for (unsigned b = u & s->builds; b; b &= b - 1)
        used |= s->it[__builtin_ctz(b)].build;
    return u && keeps_capturers(s, used);
}

/* ==== static helpers: small tables as families ========================= */

/* The sets of one item: bits 1, 2, 4, 8, 16 and 32. */
#define ALONE 0x100010116ull

/* Per index set m of at most SMALL_ITEMS items, the family of the sets
 * disjoint from m (bit x set when x & m == 0), looked up rather than
 * built from m's items: a loop over them is mispredicted once a call. */
const uint64_t casino__disjoint[1 << SMALL_ITEMS] = {
    0xffffffffffffffffull, 0x5555555555555555ull, 0x3333333333333333ull,
    0x1111111111111111ull, 0x0f0f0f0f0f0f0f0full, 0x0505050505050505ull,
    0x0303030303030303ull, 0x0101010101010101ull, 0x00ff00ff00ff00ffull,
    0x0055005500550055ull, 0x0033003300330033ull, 0x0011001100110011ull,
    0x000f000f000f000full, 0x0005000500050005ull, 0x0003000300030003ull,
    0x0001000100010001ull, 0x0000ffff0000ffffull, 0x0000555500005555ull,
    0x0000333300003333ull, 0x0000111100001111ull, 0x00000f0f00000f0full,
    0x0000050500000505ull, 0x0000030300000303ull, 0x0000010100000101ull,
    0x000000ff000000ffull, 0x0000005500000055ull, 0x0000003300000033ull,
    0x0000001100000011ull, 0x0000000f0000000full, 0x0000000500000005ull,
    0x0000000300000003ull, 0x0000000100000001ull, 0x00000000ffffffffull,
    0x0000000055555555ull, 0x0000000033333333ull, 0x0000000011111111ull,
    0x000000000f0f0f0full, 0x0000000005050505ull, 0x0000000003030303ull,
    0x0000000001010101ull, 0x0000000000ff00ffull, 0x0000000000550055ull,
    0x0000000000330033ull, 0x0000000000110011ull, 0x00000000000f000full,
    0x0000000000050005ull, 0x0000000000030003ull, 0x0000000000010001ull,
    0x000000000000ffffull, 0x0000000000005555ull, 0x0000000000003333ull,
    0x0000000000001111ull, 0x0000000000000f0full, 0x0000000000000505ull,
    0x0000000000000303ull, 0x0000000000000101ull, 0x00000000000000ffull,
    0x0000000000000055ull, 0x0000000000000033ull, 0x0000000000000011ull,
    0x000000000000000full, 0x0000000000000005ull, 0x0000000000000003ull,
    0x0000000000000001ull,
};

/* The family of the sets disjoint from the index set m. */
static uint64_t disjoint(unsigned m)
{
    assert(m < 1u << SMALL_ITEMS);
    return casino__disjoint[m];
}

/* Fills the families the group rules test in f, builds and multi being
 * the index bits of the builds and of the multiple ones. */
static void rule_families(struct fams *f, unsigned builds, unsigned multi)
{
    /* These families hold sets of absent items too (index nit and up):
     * no sum family does, and every use meets one. */
    f->loose_only = disjoint(builds);
    f->no_multi = disjoint(multi);
    f->one_single = 0;
    for (unsigned b = builds & ~multi; b; b &= b - 1)
        f->one_single |= f->loose_only << (b & -b);
}

/* Lists, for a small table, the families of sets adding up to each v
 * (casino__sum_families) and the families the group rules test. Sums
 * above list_items' limit miss the items it left out; no block asks
 * them. */
static void list_families(struct search *s)
{
    uint8_t val[SMALL_ITEMS] = {0};
    unsigned multi = 0;
    for (int i = 0; i < s->nit; i++) {
        val[i] = (uint8_t)(s->it[i].packed >> SUB_SUM);
        multi |= (unsigned)(s->it[i].packed >> SUB_MULTI & 1) << i;
    }
    casino__sum_families(val, s->nit, s->f.fam);
    rule_families(&s->f, s->builds, multi);
}

/* found grown by the groups, one at a time: every union in found that is
 * disjoint from group g gains the union with g (as grow_unions does).
 * Nine calls in ten have at most two groups (half have none): the first
 * two steps are taken always, the step past the last group (g = 63, the
 * sentinel) masked off, so that no loop end is mispredicted there. */
static inline __attribute__((always_inline)) uint64_t
close_over(uint64_t found, uint64_t groups)
{
#pragma GCC unroll 2
    for (int j = 0; j < 2; j++, groups &= groups - 1) {
        unsigned g = (unsigned)__builtin_ctzll(groups | 1ull << 63);
        uint64_t any = -(uint64_t)(groups != 0);
        found |= (found & casino__disjoint[g]) << g & any;
    }
    for (; groups; groups &= groups - 1) {
        unsigned g = (unsigned)__builtin_ctzll(groups);
        found |= (found & disjoint(g)) << g;
    }
    return found;
}

/* numeral_capture's unions on a small table's families f; the same
 * groups (capture_group). Only fam[r] is read. */
static uint64_t capture_sets(const struct fams *f, int r, unsigned forced,
                             const struct casino_rules *ru)
{
    uint64_t ok = f->loose_only | ALONE | (ru->as_card ? f->no_multi : 0);
    uint64_t groups = f->fam[r] & ok & disjoint(forced);
    return close_over((uint64_t)1 << forced, groups);
}

/* build's unions on a small table's families f; the same groups
 * (own_group, other_group). The played card's group never holds the
 * v-build (it adds up to less). Only fam[v] and fam[v - r] are read. */
static uint64_t build_sets(const struct fams *f, int r, int v,
                           unsigned forced, const struct casino_rules *ru)
{
    uint64_t own = f->loose_only | (ru->as_card ? f->no_multi : 0) |
                   (f->one_single & (ru->raise_table ? ~0ull : ALONE));
    uint64_t other = f->no_multi & (ru->as_card ? ~0ull : f->loose_only);
    uint64_t found = r == v ? (uint64_t)1 << forced : 0;
    if (r < v)
        found |= (f->fam[v - r] & own) << forced;
    return close_over(found, f->fam[v] & other & disjoint(forced));
}

/* numeral_capture for a small table. */
static void small_capture(struct search *s, int r, unsigned forced,
                          const struct casino_rules *ru)
{
    s->found = capture_sets(&s->f, r, forced, ru);
}

/* build for a small table. */
static void small_build(struct search *s, int r, int v, unsigned forced,
                        const struct casino_rules *ru)
{
    s->found = build_sets(&s->f, r, v, forced, ru);
}

/* The legal ones of the unions found (union_legal): not empty, and
 * holding the builds of index bits need (those their owner will hold no
 * card for after the play). */
static uint64_t legal_sets(uint64_t found, unsigned need)
{
    return found & disjoint(need) << need & ~(uint64_t)1;
}

/* The legal unions of a small table's block. */
static uint64_t legal_family(const struct search *s)
{
    unsigned must = s->owned & ~s->ranks_after, need = 0;
    for (unsigned b = must ? s->builds : 0; b; b &= b - 1)
        if (s->it[__builtin_ctz(b)].build & must)
            need |= b & -b;
    return legal_sets(s->found, need);
}

/* The ranks held in hand once a card of rank r is played from it, given
 * the ranks held and those held twice or more. */
static unsigned ranks_without(unsigned held, unsigned twice, int r)
{
    return held & ~(~twice & 1u << r); /* no branch: a coin toss */
}

/* ==== static helpers: tables without builds ============================ */

/* Most tables (four decisions in five) hold no build. Then no rule
 * option and no ownership matters: every group is a set of loose cards
 * adding up to the capturing number, and the played card's group is the
 * card alone or with loose cards. Such a table of at most SMALL_ITEMS
 * loose numerals up to the highest sum asked is searched here, straight
 * from the cards, without the item list the general search builds. */
struct plain {
    uint64_t fam[CASINO_SUM_MAX + 1];  /* the sets of items adding up to v */
};

/* Per number of items w, the family of the sets of w items. */
const uint64_t casino__of_size[SMALL_ITEMS + 1] = {
    0x1ull,
    0x100010116ull,
    0x1011601161668ull,
    0x116166816686880ull,
    0x1668688068808000ull,
    0x6880800080000000ull,
    0x8000000000000000ull};

/* Fills p with the loose numerals of st up to limit and the families of
 * their sums (casino__sum_families); false if there are more than
 * SMALL_ITEMS of them. */
static bool plain_families(const struct casino_state *st, int limit,
                           struct plain *p)
{
    uint8_t val[SMALL_ITEMS];
    hand_t h = st->loose & CASINO_ACES * ((1ull << limit) - 1);
    int n = hand_count(h);
    if (n > SMALL_ITEMS)
        return false;
    /* Always six reads (value 0 past the cards), as casino__put_trails
     * does: no loop end that changes from table to table. */
#pragma GCC unroll 6
    for (int i = 0; i < SMALL_ITEMS; i++, h &= h - 1)
        val[i] = casino__rank_of[__builtin_ctzll(h | 1ull << 63)];
    casino__sum_families(val, n, p->fam);
    return true;
}

/* The non-empty unions of a numeral of rank r's block in kind (0, or
 * k for a build of k + 1); the caller has checked the build value. */
static uint64_t plain_unions(const struct plain *p, int r, int kind)
{
    int v = kind + 1 + ((r - 1) & -(kind == 0)); /* kind 0: v = r */
    /* fam[0] is the empty set alone: the start of a capture and of a
     * build of the card's own rank (v - r = 0), with no branch. */
    return close_over(p->fam[v - r], p->fam[v]) & ~(uint64_t)1;
}

/* The ways a card of rank r plays in kind on plain table p. */
static int plain_count(const void *p, int r, int kind, unsigned after)
{
    (void)after; /* a table without builds */
    return __builtin_popcountll(plain_unions(p, r, kind));
}

/* casino__counts on a plain table (one searched by plain_families). */
static void plain_counts(const struct casino_state *st, const struct plain *p,
                         unsigned held, unsigned twice, hand_t cards,
                         struct casino_counts *out)
{
    casino__fill_counts(st, held, twice, 0, cards, p, plain_count, out);
}

/* The k-th of the sets in family f in the canonical order (most items
 * first, every item being one card, then the lower mask), or NO_SET. */
static unsigned plain_nth(uint64_t f, int k)
{
    /* Three plays in five have one option: no order to find. */
    if (!(f & (f - 1)))
        return f && !k ? (unsigned)__builtin_ctzll(f) : NO_SET;
    for (int w = SMALL_ITEMS; w > 0; w--) {
        uint64_t g = f & casino__of_size[w];
        int c = __builtin_popcountll(g);
        if (k < c) {
            for (; k > 0; k--)
                g &= g - 1;
            return (unsigned)__builtin_ctzll(g);
        }
        k -= c;
    }
    return NO_SET;
}

/* casino__option for a numeral on a table without builds: 1 with *items
 * set, 0 if there is no such option, -1 if more than SMALL_ITEMS loose
 * numerals lie up to the block's number. The cards are read as
 * plain_families reads them, but only the two sums the block asks are
 * found (casino__sum_pair): the number, and what the played card's
 * group takes from the table (0, the empty set alone, for a capture or
 * a build of the card's own rank). */
static int plain_option(const struct casino_state *st, int seat, int card,
                        int kind, int k, uint64_t *items)
{
    int r = casino__rank_of[card], v = kind ? kind + 1 : r;
    uint8_t val[SMALL_ITEMS], at[SMALL_ITEMS];
    uint64_t fam, start;
    hand_t h = st->loose & CASINO_ACES * ((1ull << v) - 1);
    hand_t rest = st->hand[seat] & ~card_bit(card);
    int n = hand_count(h);
    if (n > SMALL_ITEMS)
        return -1;
    /* A build of v needs a card of rank v kept in hand. */
    if (kind && (r > v || !(rest & CASINO_ACES << (v - 1))))
        return 0;
#pragma GCC unroll 6
    for (int i = 0; i < SMALL_ITEMS; i++, h &= h - 1) {
        int c = __builtin_ctzll(h | 1ull << 63);
        val[i] = casino__rank_of[c];
        at[i] = (uint8_t)c;
    }
    casino__sum_pair(val, n, v, kind && r < v ? v - r : 0, &fam, &start);
    unsigned u = plain_nth(close_over(start, fam) & ~(uint64_t)1, k);
    if (u == NO_SET)
        return 0;
    *items = 0;
    for (; u; u &= u - 1)
        *items |= card_bit(at[__builtin_ctz(u)]);
    return 1;
}

/* ==== static helpers: the kinds ======================================== */

/* A face card takes one loose face card of its rank, nothing else: its
 * legal options as card bits (in canonical order: ascending). */
static hand_t face_options(const struct search *s, int rank)
{
    if (!keeps_capturers(s, 0))
        return 0;
    return s->st->loose & CASINO_ACES << (rank - 1);
}

static void numeral_capture(struct search *s, int r,
                            const struct casino_rules *ru)
{
    unsigned forced = 0;
    /* Playing the only card that can take one's own r-build must take
     * it: start every union with it. */
    if (((s->owned >> r) & 1) && !((s->ranks_after >> r) & 1))
        forced = build_item(s, r);
    if (s->small) {
        small_capture(s, r, forced, ru);
        return;
    }
    for (int i = s->head[r]; i; i = s->next[i]) {
        struct subset sub = sub_at(s, i), *u = &sub;
        if (capture_group(u, r, ru) && !(u->mask & forced))
            s->grp[s->ngrp++] = u->mask;
    }
    add_union(s, forced);
    grow_unions(s);
}

/* A build of value v with a card of rank r: the played card's group
 * (r alone when r == v), other groups of v, and the existing v-build,
 * which a new build of the same value always joins. */
static void build(struct search *s, int r, int v, const struct casino_rules *ru)
{
    unsigned forced = build_item(s, v);
    if (s->small) {
        small_build(s, r, v, forced, ru);
        return;
    }
    if (r == v)
        add_union(s, forced);
    for (int i = r < v ? s->head[v - r] : 0; i; i = s->next[i]) {
        struct subset sub = sub_at(s, i), *u = &sub;
        if (own_group(u, ru))
            add_union(s, forced | u->mask);
    }
    for (int i = s->head[v]; i; i = s->next[i]) {
        struct subset sub = sub_at(s, i), *u = &sub;
        if (other_group(u, v, ru) && !(u->mask & forced))
            s->grp[s->ngrp++] = u->mask;
    }
    grow_unions(s);
}

/* True if a non-empty subset of the items adds up to v. */
static inline bool has_sum(const struct search *s, int v)
{
    return s->small ? s->f.fam[v] != 0 : s->head[v] != 0;
}

/* Fills uni with the unions (legal or not) of a numeral of rank r in
 * kind; false if that kind is impossible for the card. */
static bool run_kind(struct search *s, int r, int kind,
                     const struct casino_rules *ru)
{
    s->build_value = kind ? kind + 1 : 0;
    if (kind &&
        (r > s->build_value || !((s->ranks_after >> s->build_value) & 1)))
        return false;
    clear_unions(s);
    s->found = 0;
    /* Every option holds a group of the capturing number (a capture) or
     * the played card's group (a build): none without a subset adding up
     * to it. The forced build is such a subset too. */
    if (!has_sum(s, !kind ? r : r < s->build_value ? s->build_value - r : r))
        return true;
    if (!kind)
        numeral_capture(s, r, ru);
    else
        build(s, r, s->build_value, ru);
    return true;
}

/* Number of legal options of rank r's card in kind. */
static int count_block(struct search *s, int r, int kind,
                       const struct casino_rules *ru)
{
    int n = 0, v = kind + 1;
    if (r > CASINO_SUM_MAX) {
        s->build_value = 0;
        return kind ? 0 : hand_count(face_options(s, r));
    }
    /* run_kind's first test, without the call: most blocks stop here. */
    if (!has_sum(s, !kind ? r : r < v ? v - r : r))
        return 0;
    if (!run_kind(s, r, kind, ru))
        return 0;
    if (s->small)
        return __builtin_popcountll(legal_family(s));
    for (int j = 0; j < s->nuni; j++)
        n += union_legal(s, s->uni[j]);
    return n;
}

/* Where union u comes in the canonical order: most cards first, then the
 * lower index mask (index masks order like item masks, since items are
 * listed by ascending bit). Smaller keys come first. */
static uint32_t order_key(const struct search *s, unsigned u)
{
    return (uint32_t)(CARDS_IN_PACK - weight_of(s, u)) << ITEMS_MAX | u;
}

/* The union whose key has exactly k of the n keys before it (keys are
 * distinct), by comparing every pair: cheap for the few a table holds. */
static unsigned kth_key(const uint32_t *key, int n, int k)
{
    for (int i = 0; i < n; i++) {
        int before = 0;
        for (int j = 0; j < n; j++)
            before += key[j] < key[i];
        if (before == k)
            return key[i] & (SETS - 1);
    }
    return NO_SET;
}

/* nth_union for a few unions: the legal union with exactly k legal unions
 * before it, by comparing every pair. */
static unsigned nth_of_few(const struct search *s, int k)
{
    uint32_t key[FEW_UNIONS];
    int n = 0;
    for (int j = 0; j < s->nuni; j++)
        if (union_legal(s, s->uni[j]))
            key[n++] = order_key(s, s->uni[j]);
    return kth_key(key, n, k);
}

/* nth_union for a small table: the same pairwise comparison over the
 * legal family's (at most 64) sets. */
static unsigned nth_of_family(const struct search *s, int k)
{
    uint32_t key[64];
    int n = 0;
    for (uint64_t f = legal_family(s); f; f &= f - 1)
        key[n++] = order_key(s, (unsigned)__builtin_ctzll(f));
    return kth_key(key, n, k);
}

/* The k-th legal union in uni in the canonical order, or NO_SET. Many
 * unions: counted by number of cards, then within the right number of
 * cards an upward scan of the bitmap gives the order. */
static unsigned nth_union(const struct search *s, int k)
{
    if (s->small)
        return nth_of_family(s, k);
    if (s->nuni <= FEW_UNIONS)
        return nth_of_few(s, k);
    int count[CARDS_IN_PACK + 1] = {0}, w = CARDS_IN_PACK;
    for (int j = 0; j < s->nuni; j++)
        if (union_legal(s, s->uni[j]))
            count[weight_of(s, s->uni[j])]++;
    for (; w > 0 && k >= count[w]; w--)
        k -= count[w];
    for (unsigned u = 1; w > 0 && u < 1u << s->nit; u++) {
        if (!((s->seen[u >> 6] >> (u & 63)) & 1) || !union_legal(s, u))
            continue;
        if (weight_of(s, u) == w && k-- == 0)
            return u;
    }
    return NO_SET;
}

/* ==== static helpers: small tables with builds ========================= */

/* About a decision in five sees a build on the table, and most such
 * tables hold at most SMALL_ITEMS items up to the highest sum asked. They
 * are searched here with the families of the general search (the same
 * sets, rules and order) but straight from the state: the items in a few
 * small arrays rather than the search's item list, the index bit of each
 * build value looked up rather than searched for, each block's families
 * found at once with no union lists to clear, and an option finding only
 * the two sums its block asks (casino__sum_pair). */
struct few {
    int nit;                      /* items: loose cards, then builds */
    unsigned owned;               /* build values the player owns */
    uint8_t at[CASINO_VMAX + 1];  /* index bit of the build of v, or 0 */
    uint8_t val[SMALL_ITEMS];     /* each item's value, 0 past them */
    uint8_t weight[SMALL_ITEMS];  /* cards it stands for */
    uint64_t bit[SMALL_ITEMS];    /* its item bit */
    struct fams f;                /* the families */
};

/* Lists st's items of value at most limit as list_items does (loose
 * cards by ascending card, then builds by ascending value) with the
 * families the rules test; false if there are more than SMALL_ITEMS. The
 * sum families are left to the caller. */
static bool few_items(const struct casino_state *st, int seat, int limit,
                      struct few *w)
{
    hand_t h = st->loose & CASINO_ACES * ((1ull << limit) - 1);
    unsigned bl = st->builds & ((2u << limit) - 1), multi = 0;
    int nl = hand_count(h), n = nl + __builtin_popcount(bl);
    if (n > SMALL_ITEMS)
        return false;
    memset(w->at, 0, sizeof w->at);
    w->nit = n;
    w->owned = casino__owned(st, seat);
    /* Always six reads, value 0 past the cards (the builds follow), as
     * plain_families reads them: no loop end that varies per table. */
#pragma GCC unroll 6
    for (int i = 0; i < SMALL_ITEMS; i++, h &= h - 1) {
        int c = __builtin_ctzll(h | 1ull << 63);
        w->val[i] = casino__rank_of[c];
        w->weight[i] = 1;
        w->bit[i] = card_bit(c);
    }
    for (int i = nl; bl; bl &= bl - 1, i++) {
        int v = __builtin_ctz(bl);
        w->val[i] = (uint8_t)v;
        w->weight[i] = (uint8_t)hand_count(st->build[v]);
        w->bit[i] = casino_build_bit(v);
        w->at[v] = (uint8_t)(1u << i);
        multi |= (unsigned)casino__multiple(st, v) << i;
    }
    rule_families(&w->f, ((1u << n) - 1) & ~((1u << nl) - 1), multi);
    return true;
}

/* The legal unions of the block of a numeral of rank r in kind on w, as
 * count_block and nth_union see them; after: the ranks held once the
 * card is played. A build's value must be r or more and in after. */
static inline __attribute__((always_inline)) uint64_t
few_family(const struct few *w, int r, int kind, unsigned after,
           const struct casino_rules *ru)
{
    int v = kind ? kind + 1 : r;
    unsigned must = w->owned & ~after, need = 0;
    uint64_t found;
    /* No option without a set adding up to the number (a capture) or
     * to what the played card's group takes (a build): most blocks. */
    if (!w->f.fam[!kind ? r : r < v ? v - r : r])
        return 0;
    if (!kind) {
        /* Playing the only card that can take one's own r-build must
         * take it (numeral_capture). */
        unsigned forced = ((w->owned >> r) & 1) && !((after >> r) & 1)
                              ? w->at[r]
                              : 0;
        found = capture_sets(&w->f, r, forced, ru);
    } else {
        found = build_sets(&w->f, r, v, w->at[v], ru);
    }
    for (; must; must &= must - 1)
        need |= w->at[__builtin_ctz(must)];
    return legal_sets(found, need);
}

/* What few_count counts on. */
struct few_table {
    const struct few *w;
    const struct casino_rules *ru;
};

/* The ways a card of rank r plays in kind on table t (casino__fill_counts'
 * count). */
static int few_count(const void *t, int r, int kind, unsigned after)
{
    const struct few_table *f = t;
    return __builtin_popcountll(few_family(f->w, r, kind, after, f->ru));
}

/* casino__counts on a table with builds through few_family: the table's
 * items up to limit (the highest numeral held) are at most SMALL_ITEMS;
 * false, with out untouched, if not. */
static bool few_counts(const struct casino_state *st,
                       const struct casino_rules *ru, int seat, unsigned held,
                       unsigned twice, int limit, hand_t cards,
                       struct casino_counts *out)
{
    struct few w;
    if (!few_items(st, seat, limit, &w))
        return false;
    casino__sum_families(w.val, w.nit, w.f.fam);
    const struct few_table t = {&w, ru};
    casino__fill_counts(st, held, twice, w.owned, cards, &t, few_count, out);
    return true;
}

/* casino__option for a numeral on a table with builds through
 * few_family: 1 with *items set, 0 if there is no such option, -1 if more
 * than SMALL_ITEMS items lie up to the block's number. */
static int few_option(const struct casino_state *st,
                      const struct casino_rules *ru, int seat, int card,
                      int kind, int k, uint64_t *items)
{
    struct few w;
    uint32_t key[64];
    int r = casino__rank_of[card], v = kind ? kind + 1 : r, n = 0;
    unsigned after = casino__ranks(st->hand[seat] & ~card_bit(card));
    if (!few_items(st, seat, v, &w))
        return -1;
    /* A build of v needs a card of rank v kept in hand (run_kind). */
    if (kind && (r > v || !((after >> v) & 1)))
        return 0;
    /* The two sums few_family reads; fam[v] is the number itself. */
    casino__sum_pair(w.val, w.nit, v, r < v ? v - r : v, &w.f.fam[v],
                     &w.f.fam[r < v ? v - r : v]);
    /* nth_of_family: the k-th legal union, most cards first, then the
     * lower index mask. Three plays in five have one option: no order
     * to find. */
    uint64_t f = few_family(&w, r, kind, after, ru);
    unsigned u = NO_SET;
    if (!(f & (f - 1))) {
        if (f && !k)
            u = (unsigned)__builtin_ctzll(f);
    } else {
        for (; f; f &= f - 1) {
            unsigned x = (unsigned)__builtin_ctzll(f);
            int weight = 0;
            for (unsigned b = x; b; b &= b - 1)
                weight += w.weight[__builtin_ctz(b)];
            key[n++] = (uint32_t)(CARDS_IN_PACK - weight) << ITEMS_MAX | x;
        }
        u = kth_key(key, n, k);
    }
    if (u == NO_SET)
        return 0;
    *items = 0;
    for (; u; u &= u - 1)
        *items |= w.bit[__builtin_ctz(u)];
    return 1;
}

/* ==== API ============================================================== */

bool casino__multiple(const struct casino_state *st, int v)
{
    return (st->multiple >> v) & 1;
}

unsigned casino__owned(const struct casino_state *st, int seat)
{
    unsigned m = 0;
    /* Whose build it is: a coin toss for a branch. */
    for (unsigned b = st->builds; b; b &= b - 1)
        m |= b & -b & -(unsigned)(st->owner[__builtin_ctz(b)] == seat);
    return m;
}

/* Lists st's items and their subsets adding up to at most limit for
 * seat: no block of a capturing number above limit is looked at. */
static void prepare(struct search *s, const struct casino_state *st, int seat,
                    int limit)
{
    s->st = st;
    s->nsub = 0;
    s->nuni = 0;
    s->ngrp = 0;
    list_items(s, seat, limit);
    s->small = s->nit <= SMALL_ITEMS;
    if (s->small) {
        list_families(s);
        return;
    }
    for (unsigned w = 0; w < ((1u << s->nit) + 63) / 64; w++)
        s->seen[w] = 0;
    list_subsets(s, (unsigned)limit);
}

/* Legal options on a table without builds, per casino__counts and the
 * legal op's order, with no count array between them: most decisions
 * see such a table, and the array, its copies between cards of a rank
 * and the second pass over it cost as much as the searches. A court card
 * takes one loose card of its rank; no rule option or ownership matters
 * without builds, so every card may trail (the table is not full). Cards
 * of one rank are searched again each (their counts are the same). */
int casino__plain_legal(const struct casino_state *st, int seat, int *out)
{
    struct plain p;
    unsigned held, twice;
    hand_t hand = st->hand[seat], cards = hand;
    int n, over = 0;
    if (casino_any_build(st) ||
        hand_count(st->loose & CASINO_NUMERALS) >= CASINO_TABLE_MAX)
        return -1;
    casino__rank_sets(hand, &held, &twice);
    unsigned numerals = held & 0x7feu;
    int limit = numerals ? 31 - __builtin_clz(numerals) : 0;
    /* No loose numeral up to the highest held (a decision in five): no
     * numeral has a capture or a build, and no sum is asked. */
    if (!(st->loose & CASINO_ACES * ((1ull << limit) - 1)))
        cards &= ~CASINO_NUMERALS;
    else if (!plain_families(st, limit, &p))
        return -1;
    /* At most 4 trails and 4 x 10 blocks of CASINO_OPTS ids, and 4 more
     * written past a block: far below CASINO_MAX_LEGAL. */
    n = casino__put_trails(out, hand);
    for (hand_t h = cards; h; h &= h - 1) {
        int c = hand_first(h), r = casino__rank_of[c];
        if (r > CASINO_SUM_MAX) {
            n += casino__put_block(out + n, casino__id(c, 0, 0),
                                   hand_count(st->loose &
                                              CASINO_ACES << (r - 1)));
            continue;
        }
        unsigned after = ranks_without(held, twice, r);
        /* bit 0: the capture; bit v - 1: the build of v, v >= r */
        unsigned kinds = ((after & CASINO_BUILD_VALUES & ~0u << r) >> 1) | 1;
        for (; kinds; kinds &= kinds - 1) {
            int kind = __builtin_ctz(kinds);
            int m = plain_count(&p, r, kind, after);
            int fit = m < CASINO_OPTS ? m : CASINO_OPTS;
            n += casino__put_block(out + n, casino__id(c, kind, 0), fit);
            over += m - fit;
        }
    }
    for (int k = 0; k < over; k++)
        out[n++] = CASINO_STABLE + k;
    return n;
}

/* casino__counts on any table, through the item list (prepare). Kept
 * out of casino__counts: its search state is tens of kilobytes, and the
 * build-free tables most calls see need a small stack frame only. */
static __attribute__((noinline)) int
general_counts(const struct casino_state *st, const struct casino_rules *ru,
               int seat, unsigned held, unsigned twice, int limit,
               hand_t cards, struct casino_counts *out)
{
    struct search s;
    int first[KING + 1]; /* where each rank's counts were first put */
    unsigned done = 0;
    prepare(&s, st, seat, limit);
    for (int i = 0; cards; cards &= cards - 1, i++) {
        int c = hand_first(cards), r = casino__rank_of[c];
        /* Cards of one rank leave the same ranks in hand: same counts. */
        if ((done >> r) & 1) {
            out[i] = out[first[r]];
            continue;
        }
        done |= 1u << r;
        first[r] = i;
        s.ranks_after = ranks_without(held, twice, r);
        out[i] = (struct casino_counts){{0}, 0};
        out[i].n[0] = (uint16_t)count_block(&s, r, 0, ru);
        out[i].kinds = out[i].n[0] ? 1u : 0;
        /* A build's value is one the player still holds, r or more. */
        unsigned values =
            r > CASINO_SUM_MAX ? 0 : s.ranks_after & CASINO_BUILD_VALUES;
        for (values &= ~0u << r; values; values &= values - 1) {
            int kind = __builtin_ctz(values) - 1;
            out[i].n[kind] = (uint16_t)count_block(&s, r, kind, ru);
            out[i].kinds |= (unsigned)(out[i].n[kind] != 0) << kind;
        }
    }
    return s.table_items;
}

int casino__counts(const struct casino_state *st,
                   const struct casino_rules *ru, int seat, hand_t cards,
                   struct casino_counts *out)
{
    struct plain p;
    unsigned held, twice;
    casino__rank_sets(st->hand[seat], &held, &twice);
    /* Every sum looked up (a rank held, or a value held) is at most the
     * highest numeral held. */
    unsigned numerals = held & 0x7feu;
    int limit = numerals ? 31 - __builtin_clz(numerals) : 0;
    cards &= st->hand[seat];
    if (!casino_any_build(st)) {
        if (plain_families(st, limit, &p))
            plain_counts(st, &p, held, twice, cards, out);
        else if (!casino__wide_counts(st, limit, held, twice, cards, out))
            return general_counts(st, ru, seat, held, twice, limit, cards,
                                  out);
        return hand_count(st->loose & CASINO_NUMERALS);
    }
    if (few_counts(st, ru, seat, held, twice, limit, cards, out))
        return casino__items(st);
    return general_counts(st, ru, seat, held, twice, limit, cards, out);
}

/* casino__option for a numeral on any table, through the item list; out
 * of line for the reason general_counts is. */
static __attribute__((noinline)) bool
general_option(const struct casino_state *st, const struct casino_rules *ru,
               int seat, int card, int kind, int k, uint64_t *items)
{
    struct search s;
    int r = card_rank(card);
    prepare(&s, st, seat, kind ? kind + 1 : r);
    s.ranks_after = casino__ranks(st->hand[seat] & ~card_bit(card));
    if (!run_kind(&s, r, kind, ru))
        return false;
    unsigned u = nth_union(&s, k);
    if (u == NO_SET)
        return false;
    *items = items_of(&s, u);
    return true;
}

bool casino__option(const struct casino_state *st,
                    const struct casino_rules *ru, int seat, int card, int kind,
                    int k, uint64_t *items)
{
    int r = card_rank(card), found;
    hand_t rest = st->hand[seat] & ~card_bit(card);
    if (!hand_has(st->hand[seat], card) || k < 0)
        return false;
    if (r > CASINO_SUM_MAX) {
        /* face_options, without the item list: one loose card of the
         * rank, if every build seat owns keeps a card to take it. */
        hand_t h = kind ? 0 : st->loose & CASINO_ACES << (r - 1);
        if (casino__owned(st, seat) & ~casino__ranks(rest))
            h = 0;
        if (k >= hand_count(h))
            return false;
        *items = card_bit(hand_nth(h, k));
        return true;
    }
    if (!casino_any_build(st)) {
        found = plain_option(st, seat, card, kind, k, items);
        if (found < 0)
            found = casino__wide_option(st, seat, card, kind, k, items);
        if (found >= 0)
            return found;
    } else {
        found = few_option(st, ru, seat, card, kind, k, items);
        if (found >= 0)
            return found;
    }
    return general_option(st, ru, seat, card, kind, k, items);
}
