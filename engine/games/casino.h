/* casino.h — Casino internals shared by casino.c (the game interface) and
 * casino_moves.c (capture and build enumeration, move names).
 *
 * Only the two Casino files and the Casino tests include this header; the
 * rest of parlor sees the game through casino_game alone. The state is
 * plain data: the table is a bitset of loose cards plus one card bitset per
 * build value (at most one build of each value lies on the table, see the
 * decisions in casino.c), so a move is (hand card, kind, item mask) where
 * the item mask holds loose cards as bits 0..51 and the build of value v
 * as bit 50 + v (bits 52..60). Two masks of build values (which lie,
 * which are multiple) repeat what build[] holds, kept up to date where
 * builds are laid and taken, so that searches need not look at every
 * value. The numeral items (loose numerals and builds) never exceed
 * CASINO_TABLE_MAX, which bounds every enumeration.
 */
#ifndef PARLOR_CASINO_H
#define PARLOR_CASINO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../common/rng.h"
#include "../cards.h"

#define CASINO_MAXP 4        /* most seats */
#define CASINO_HAND 4        /* cards dealt to a seat at a time: most held */
#define CASINO_TABLE_DEAL 4  /* cards dealt to the table in a round */
#define CASINO_MAX_ROUNDS 200 /* largest max_rounds option */
#define CASINO_MAX_SWEEPS 24 /* most sweeps one seat makes in a round */
#define CASINO_ROUND_POINTS 11 /* points of a round without sweeps */
#define CASINO_PLAYS 48      /* hand cards played in one round */
#define CASINO_VMAX 10       /* highest build value */
#define CASINO_KINDS 10      /* per card: capture, then build 2..10 */
#define CASINO_OPTS 32       /* stable ids per (card, kind) block */
#define CASINO_TRAILS CARDS_IN_PACK /* ids 0..51: trail card c */
#define CASINO_STABLE                                                      \
    (CASINO_TRAILS + CARDS_IN_PACK * CASINO_KINDS * CASINO_OPTS)
#define CASINO_TABLE_MAX 14  /* most numeral items on the table */
#define CASINO_MAX_LEGAL 39056 /* most legal moves (proof in casino.c) */
#define CASINO_OVERFLOW (CASINO_MAX_LEGAL - CASINO_OPTS) /* overflow ids */
#define CASINO_NUM_ACTIONS (CASINO_STABLE + CASINO_OVERFLOW)
#define CASINO_NO_SEAT 0xff
#define CASINO_TRAIL 0xff    /* history kind of a trail */
#define CASINO_BUILD_SHIFT 50
#define CASINO_BUILD_BITS (0x1ffull << 52) /* item bits of builds 2..10 */
/* Ranks A..10 of every suit: the cards that are numeral items. */
#define CASINO_NUMERALS                                                    \
    (0x3ffull | 0x3ffull << 13 | 0x3ffull << 26 | 0x3ffull << 39)

/* Item bit of the build of value v (2..10). */
static inline uint64_t casino_build_bit(int v)
{
    return (uint64_t)1 << (CASINO_BUILD_SHIFT + v);
}

/* The game's options, in the order of casino.c's parameter table. */
enum casino_param {
    CASINO_P_PLAYERS,
    CASINO_P_PARTNERS,
    CASINO_P_TARGET,
    CASINO_P_CARDS,
    CASINO_P_SWEEPS,
    CASINO_P_AS_CARD,
    CASINO_P_RAISE,
    CASINO_P_OWNER_TRAIL,
    CASINO_P_MAX_ROUNDS,
    CASINO_NPARAMS
};

/* The rule variants the move enumeration needs (options, see
 * docs/games/casino.md). */
struct casino_rules {
    bool as_card;     /* A single build acts as a card of its value */
    bool raise_table; /* Table cards may help raise a single build */
    bool owner_trail; /* A build's owner may trail */
};

struct casino_state {
    struct rng rng;                     /* later rounds' packs */
    hand_t hand[CASINO_MAXP];           /* cards held */
    hand_t won[CASINO_MAXP];            /* cards captured this round */
    hand_t loose;                       /* loose cards on the table */
    hand_t dead;                        /* cards trailed dead (table full) */
    hand_t build[CASINO_VMAX + 1];      /* cards of the build of value v */
    uint64_t hist_items[CASINO_PLAYS];  /* this round: items each play used */
    uint8_t hist_card[CASINO_PLAYS];    /* this round: card each play showed */
    uint8_t hist_kind[CASINO_PLAYS];    /* 0 capture, v-1 build v, or trail */
    uint8_t pack[CARDS_IN_PACK];        /* this round's pack, dealt in order */
    int16_t score[CASINO_MAXP];         /* game total per side */
    uint16_t builds;                    /* bit v set while build[v] lies */
    uint16_t multiple;                  /* bit v set if build[v] is multiple */
    int8_t last_points[CASINO_MAXP];    /* per side: the last round scored */
    uint8_t owner[CASINO_VMAX + 1];     /* seat that last made or added to v */
    uint8_t sweeps[CASINO_MAXP];        /* sweeps per seat this round */
    uint8_t next;                       /* index of the pack's next card */
    uint8_t nhist;                      /* plays made this round */
    uint8_t dealer;                     /* seat dealing this round */
    uint8_t turn;                       /* seat to play */
    uint8_t last_capturer;              /* seat, or CASINO_NO_SEAT */
    uint8_t rounds;                     /* rounds scored this episode */
    uint8_t over;                       /* 1 once the episode has ended */
    uint8_t winner;                     /* winning side, or CASINO_NO_SEAT */
};

/* The cards in builds on the table. */
static inline hand_t casino_build_cards(const struct casino_state *st)
{
    const hand_t *b = st->build;
    return b[2] | b[3] | b[4] | b[5] | b[6] | b[7] | b[8] | b[9] | b[10];
}

/* True if any build lies on the table (most tables hold none). */
static inline bool casino_any_build(const struct casino_state *st)
{
    return st->builds != 0;
}

/* The ranks present in h as bits 1 << rank (*held), and those present
 * twice or more (*twice). A hand is four 13-card rows, one per suit,
 * folded onto each other: no loop over the cards, whose number varies
 * from call to call (such a loop's end is mispredicted). */
static inline void casino__rank_sets(hand_t h, unsigned *held,
                                     unsigned *twice)
{
    unsigned a = (unsigned)h & 0x1fff, b = (unsigned)(h >> 13) & 0x1fff;
    unsigned c = (unsigned)(h >> 26) & 0x1fff, d = (unsigned)(h >> 39) & 0x1fff;
    *held = (a | b | c | d) << 1;
    *twice = ((a & (b | c | d)) | (b & (c | d)) | (c & d)) << 1;
}

/* The ranks present in h, as bits 1 << rank. */
static inline unsigned casino__ranks(hand_t h)
{
    unsigned held, twice;
    casino__rank_sets(h, &held, &twice);
    return held;
}

/* The build values seat owns, as bits 1 << v. */
unsigned casino__owned(const struct casino_state *st, int seat);

/* True if the build of value v is multiple: its cards add up to more. */
bool casino__multiple(const struct casino_state *st, int v);

/* Numeral items on the table: loose numerals and builds. Inline: every
 * trail asks it. */
static inline int casino__items(const struct casino_state *st)
{
    return hand_count(st->loose & CASINO_NUMERALS) +
           __builtin_popcount(st->builds);
}

/* Numbers of seat's legal captures and builds per kind, for each card of
 * cards that seat holds (the i-th card by ascending id in out[i]).
 * Returns the numeral items on the table (casino__items). */
struct casino_counts {
    uint16_t n[CASINO_KINDS]; /* kind 0 capture, k >= 1 build of k + 1 */
    unsigned kinds;           /* bit k set when n[k] > 0 */
};

int casino__counts(const struct casino_state *st,
                   const struct casino_rules *ru, int seat, hand_t cards,
                   struct casino_counts *out);

/* Sets *items to the item mask of option k, in the block's canonical order
 * (most cards first, then the lower item mask), of seat's plays of card in
 * kind. Returns false if there is no such legal option. */
bool casino__option(const struct casino_state *st,
                    const struct casino_rules *ru, int seat, int card,
                    int kind, int k, uint64_t *items);

/* Per index set m of at most six items, the family of the sets disjoint
 * from m (bit x set when x & m == 0); per number of items w, the family
 * of the sets of w items. */
extern const uint64_t casino__disjoint[64];
extern const uint64_t casino__of_size[7];

/* Sets fam[v] (v = 0..10) to the family of the sets of the n <= 6 items
 * of values val[0..3] (zero past n; val[4], val[5] read only when n
 * says so) adding up to v: bit m for the items of index mask m. */
void casino__sum_families(const uint8_t *val, int n, uint64_t *fam);

/* Sets *fa and *fb to the families casino__sum_families puts in fam[a]
 * and fam[b] (0 <= a, b <= CASINO_SUM_MAX), finding no other: one play's
 * search needs two sums at most. */
void casino__sum_pair(const uint8_t *val, int n, int a, int b, uint64_t *fa,
                      uint64_t *fb);

#define CASINO_SUM_MAX 10           /* highest capturing number */
#define CASINO_BUILD_VALUES 0x7fcu  /* bits 2..10: values a build may have */
/* The four aces; shifted left by r - 1, the four cards of rank r. */
#define CASINO_ACES (1ull | 1ull << 13 | 1ull << 26 | 1ull << 39)

/* Every card's rank (card_rank) by lookup: the searches ask it often.
 * Indices 52..63, past the cards, give 0: a loop reading a fixed number
 * of cards off a hand reads 63 once the hand is spent. */
extern const uint8_t casino__rank_of[64];

/* The count loop of casino__counts, shared by its searches: for each
 * card of cards (seat holds every rank in held, those in twice twice or
 * more, and owns builds of the values in owned), how many ways it
 * captures (kind 0) or builds v (kind v - 1, a value still held after the
 * play, r or more), with count(fam, r, kind, after) the number of ways
 * for a card of rank r on the searched table fam, after being the ranks
 * left in hand. Cards of one rank share their counts; a court card
 * captures its like only, and only while every build seat owns keeps a
 * card to take it. Inlined, so that count is a direct call. */
static inline __attribute__((always_inline)) void
casino__fill_counts(const struct casino_state *st, unsigned held,
                    unsigned twice, unsigned owned, hand_t cards,
                    const void *fam,
                    int (*count)(const void *fam, int r, int kind,
                                 unsigned after),
                    struct casino_counts *out)
{
    int first[KING + 1]; /* where each rank's counts were first put */
    unsigned done = 0;
    for (int i = 0; cards; cards &= cards - 1, i++) {
        int r = casino__rank_of[hand_first(cards)];
        if ((done >> r) & 1) {
            out[i] = out[first[r]];
            continue;
        }
        done |= 1u << r;
        first[r] = i;
        out[i] = (struct casino_counts){{0}, 0};
        unsigned after = held & ~(~twice & 1u << r);
        if (r > CASINO_SUM_MAX) {
            bool keeps = (owned & ~after) == 0;
            out[i].n[0] = (uint16_t)(keeps ? hand_count(st->loose &
                                                        CASINO_ACES << (r - 1))
                                           : 0);
            out[i].kinds = out[i].n[0] != 0;
            continue;
        }
        unsigned values = after & CASINO_BUILD_VALUES;
        values = (values & ~0u << r) | 1; /* bit 0: the capture */
        for (; values; values &= values - 1) {
            int kind = __builtin_ctz(values);
            kind = kind ? kind - 1 : 0;
            int n = count(fam, r, kind, after);
            out[i].n[kind] = (uint16_t)n;
            out[i].kinds |= (unsigned)(n != 0) << kind;
        }
    }
}

/* The id of option k of playing card in kind (k < CASINO_OPTS). */
static inline int casino__id(int card, int kind, int k)
{
    return CASINO_TRAILS + (card * CASINO_KINDS + kind) * CASINO_OPTS + k;
}

/* Writes the m ids from id on at out (m <= CASINO_OPTS); returns m. Most
 * blocks hold one to four options: four ids are written at once, so no
 * loop runs a number of times that changes from block to block (such a
 * loop's end is mispredicted); ids written past the m-th lie beyond the
 * list or are written over by the next block. out has room for them: the
 * caller checks that n + CASINO_OPTS + 4 ids fit. */
static inline int casino__put_block(int *out, int id, int m)
{
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++)
        out[k] = id + k;
    for (int k = 4; k < m; k++)
        out[k] = id + k;
    return m;
}

/* Writes the cards in t (at most CASINO_HAND) at out, as
 * casino__put_block does: four entries at once. Returns their number. */
static inline int casino__put_trails(int *out, hand_t t)
{
    int n = hand_count(t);
#pragma GCC unroll 4
    for (int k = 0; k < CASINO_HAND; k++, t &= t - 1)
        out[k] = __builtin_ctzll(t | 1ull << 63); /* past the cards: 63 */
    return n;
}

/* The legal op's list for seat (to play) on a table without builds whose
 * loose numerals up to the highest seat holds are at most six and which
 * is not full: the trails (every card), then each block's ids, then the
 * overflow ids, written straight from the searches; returns their
 * number. -1, with nothing written, for any other table. */
int casino__plain_legal(const struct casino_state *st, int seat, int *out);

/* casino__counts for a table without builds holding seven or eight loose
 * numerals up to limit (the highest numeral seat holds), held and twice
 * being the ranks seat holds and holds twice or more (casino_search.c).
 * False, with out untouched, for any other number of them. */
bool casino__wide_counts(const struct casino_state *st, int limit,
                         unsigned held, unsigned twice, hand_t cards,
                         struct casino_counts *out);

/* casino__option for a numeral card on such a table (seven or eight loose
 * numerals up to the block's number, no build): 1 with *items set, 0 if
 * there is no such option, -1 if the table is not of that kind. */
int casino__wide_option(const struct casino_state *st, int seat, int card,
                        int kind, int k, uint64_t *items);

/* Writes the readable name of playing card in kind on items ("trail 8♠",
 * "play 8♠ capture 8♦ + 6♣2♥ + 5♠3♦", "play 3♥ build 8 on 5♣").
 * Returns the length it needed, as snprintf does. */
int casino__name(int card, int kind, uint64_t items, char *buf, size_t len);

struct game;
struct obs_segment;

/* The observation (casino_obs.c): its size for n players, the observe
 * and obs_layout ops. */
int casino__obs_size(int n);
void casino__observe(const struct game *g, const void *st, int seat,
                     float *out);
int casino__obs_layout(const struct game *g, struct obs_segment *out, int max);

#endif
