/* trix_pack.h — the 72-card Standard Trix pack (Read & White, 1904).
 *
 * Source: Read & White, "General terms for all games played with Standard
 * Trix cards"; docs/games/README.md, "The Standard Trix pack", restates
 * it. Every card shows two numbers, upper >= lower.
 * The upper number is the card's SUIT name, the lower its CARD name; a card
 * belongs to one suit only. Its SUM is upper + lower. The pack holds every
 * a-b with 10 >= a >= b >= 0 (66 cards), then 11-9, 12-8, 13-12, 14-11,
 * 15-15 and Trixie (72 cards).
 *
 * Card ids follow pack order (as that page numbers them): 0-0, 1-0, 1-1,
 * 2-0, 2-1, 2-2, ..., 10-10 are ids 0..65 (a-b is a*(a+1)/2 + b, so each
 * suit a <= 10 is the contiguous run of ids a*(a+1)/2 .. a*(a+1)/2 + a),
 * then 11-9 = 66, 12-8 = 67, 13-12 = 68, 14-11 = 69, 15-15 = 70,
 * Trixie = 71. Consequences the games rely on: Forty-two's 0-0..6-6 are
 * ids 0..27; Hilo and Magna's Fives..Tens are ids 15..65, plus Trixie.
 *
 * Names (struct card_codec trix_cards): "7-3" (upper first, as the book
 * writes cards), "Trixie". The parser also takes the numbers the other way
 * round ("3-7" is 7-3), any case of "trixie" and "tx", so names are easy to
 * type.
 *
 * Trixie has no numbers: its suit and card name are TRIX_NO_SUIT, its sum
 * 0; its scoring value (Trix) is 40, from trix_points().
 *
 * A hand is trix_hand_t, a 72-bit set as two words (lo: ids 0..63, hi:
 * ids 64..71) passed by value; the inline ops below are branch-light.
 */
#ifndef PARLOR_TRIX_PACK_H
#define PARLOR_TRIX_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/rng.h"
#include "cards.h"
#include "obs_fill.h"

#define TRIX_CARDS 72     /* ids 0..71 */
#define TRIX_TRIXIE 71    /* the Trixie card's id */
#define TRIX_TRIANGLE 66  /* ids 0..65 are 0-0 .. 10-10 in order */
#define TRIX_NO_SUIT (-1) /* Trixie's suit and card name */
#define TRIX_SUITS 16     /* suit names 0 (Blanks) .. 15 (Fifteens) */
#define TRIX_MAX_SUM 30   /* 15-15 */
#define TRIX_TRIXIE_VALUE 40
#define TRIX_NAME_MAX 8 /* "Trixie" + NUL, "10-10" + NUL */

extern const struct card_codec trix_cards; /* the full 72-card pack */

/* ---- the hand bitset ---------------------------------------------------- */

typedef struct {
    uint64_t lo; /* ids 0..63 */
    uint64_t hi; /* ids 64..71 in bits 0..7 */
} trix_hand_t;

static inline trix_hand_t trix_hand_none(void)
{
    trix_hand_t h = {0, 0};
    return h;
}
static inline trix_hand_t trix_hand_bit(int c)
{
    trix_hand_t h = {c < 64 ? (uint64_t)1 << c : 0,
                     c >= 64 ? (uint64_t)1 << (c - 64) : 0};
    return h;
}
static inline bool trix_hand_has(trix_hand_t h, int c)
{
    return c < 64 ? (h.lo >> c) & 1 : (h.hi >> (c - 64)) & 1;
}
static inline trix_hand_t trix_hand_or(trix_hand_t a, trix_hand_t b)
{
    trix_hand_t h = {a.lo | b.lo, a.hi | b.hi};
    return h;
}
static inline trix_hand_t trix_hand_and(trix_hand_t a, trix_hand_t b)
{
    trix_hand_t h = {a.lo & b.lo, a.hi & b.hi};
    return h;
}
/* a without the cards of b. */
static inline trix_hand_t trix_hand_minus(trix_hand_t a, trix_hand_t b)
{
    trix_hand_t h = {a.lo & ~b.lo, a.hi & ~b.hi};
    return h;
}
static inline void trix_hand_add(trix_hand_t *h, int c)
{
    *h = trix_hand_or(*h, trix_hand_bit(c));
}
static inline void trix_hand_del(trix_hand_t *h, int c)
{
    *h = trix_hand_minus(*h, trix_hand_bit(c));
}
static inline bool trix_hand_empty(trix_hand_t h)
{
    return (h.lo | h.hi) == 0;
}
static inline bool trix_hand_eq(trix_hand_t a, trix_hand_t b)
{
    return a.lo == b.lo && a.hi == b.hi;
}
static inline int trix_hand_count(trix_hand_t h)
{
    return __builtin_popcountll(h.lo) + __builtin_popcountll(h.hi);
}
/* Lowest id in a non-empty hand. */
static inline int trix_hand_first(trix_hand_t h)
{
    return h.lo ? __builtin_ctzll(h.lo) : 64 + __builtin_ctzll(h.hi);
}
/* The n-th (0-based) id of h in id order; h must hold more than n cards. */
static inline int trix_hand_nth(trix_hand_t h, int n)
{
    int k = __builtin_popcountll(h.lo);
    if (n >= k)
        return 64 + hand_nth(h.hi, n - k);
    return hand_nth(h.lo, n);
}
/* Every id from first to last inclusive (0 <= first <= last < 72). */
static inline trix_hand_t trix_hand_range(int first, int last)
{
    trix_hand_t h = trix_hand_none();
    for (int c = first; c <= last; c++)
        trix_hand_add(&h, c);
    return h;
}

/* ---- observation planes ------------------------------------------------ */

/* Writes all 72 floats out[c] = (c in h), eight at a time from a table:
 * for dense planes, where setting the ones one by one after zeroing
 * costs a store a card. */
static inline void trix_put_plane(float *out, trix_hand_t h)
{
    for (int i = 0; i < 8; i++)
        memcpy(out + 8 * i, obs_byte_floats[h.lo >> 8 * i & 0xff],
               8 * sizeof *out);
    memcpy(out + 64, obs_byte_floats[h.hi & 0xff], 8 * sizeof *out);
}

/* ---- card facts ---------------------------------------------------------- */

/* The card a-b off the triangle (ids TRIX_TRIANGLE..70), or -1 if the
 * pack has no such card: trix_card's lookup. */
int trix__card_high(int upper, int lower);

/* The card a-b (upper a >= lower b), or -1 if the pack has no such card.
 * Inline and closed form on the triangle, where games that build suits
 * ask at every decision (and where constant arguments fold away). */
static inline int trix_card(int upper, int lower)
{
    if (lower >= 0 && lower <= upper && upper <= 10)
        return upper * (upper + 1) / 2 + lower;
    return trix__card_high(upper, lower);
}

/* Suit name (upper number) of c; TRIX_NO_SUIT for Trixie. */
int trix_upper(int c);

/* Card name (lower number) of c; TRIX_NO_SUIT for Trixie. */
int trix_lower(int c);

/* upper + lower; 0 for Trixie. */
int trix_sum(int c);

/* True for the doubles 0-0 .. 10-10 and 15-15. */
bool trix_is_double(int c);

/* Prize cards: the doubles except 5-5, 10-10, 15-15. */
bool trix_is_prize(int c);

/* Prize Trix cards: 5-5, 10-10, 15-15. */
bool trix_is_prize_trix(int c);

/* Trix cards: sums 5, 10, 15, 20, 25, 30 (and Trixie, which also scores). */
bool trix_is_trix_card(int c);

/* What c scores in Trix: its sum for a Trix card, 40 for Trixie, else 0.
 * The whole pack scores 300 (docs/games/README.md). */
int trix_points(int c);

/* Precedence in winning sets (general terms, "Of Trixie"): Trixie 13,
 * 15-15 12, 10-10 11, 5-5 10, 9-9 9, 8-8 8, 7-7 7, 6-6 6, 4-4 5, 3-3 4,
 * 2-2 3, 1-1 2, 0-0 1; every other card 0. */
int trix_precedence(int c);

/* Every card of suit s (0..15): the cards whose upper number is s. */
trix_hand_t trix_suit_cards(int s);

/* Every card whose sum is s (0..30): a like-sums set. */
trix_hand_t trix_sum_cards(int s);

/* The plural suit name as the book says it: "Blanks", "Ones", ..., "Sixes",
 * ..., "Fifteens"; "" if s is out of range. */
const char *trix_suit_name(int s);

/* Winner (index into cards[0..n), cards[0] led) of a set by the general
 * terms with no honors (Trix): highest precedence (Trixie, Prize Trix,
 * Prize cards) wins; without any, the highest sum, and among like sums
 * the first played. */
int trix_set_winner(const uint8_t *cards, int n);

/* ---- names and dealing --------------------------------------------------- */

/* Writes "7-3" or "Trixie"; returns the length written. */
int trix_card_name(int c, char *buf, size_t len);

/* The name of card c (0..TRIX_CARDS-1) itself: static text, NUL-padded
 * to TRIX_NAME_MAX (8) bytes, so that views may copy it at a fixed size
 * (view_pack_name8, view_cat8). */
const char *trix_card_text(int c);

/* Parses a card at s ("7-3", "3-7", "trixie", "tx"), skipping leading
 * spaces; sets *end past it. Returns the id or ERR_SYNTAX. */
int trix_card_parse(const char *s, const char **end);

/* Writes the cards of h in id order, space-separated; returns the length. */
int trix_hand_format(trix_hand_t h, char *buf, size_t len);

/* Fills deck with the cards of pack for a deal: pre[0..npre) on top in
 * that order, then every other card of pack, uniformly shuffled from rng.
 * Returns the number of cards (trix_hand_count(pack)), or ERR_INVAL when
 * pre repeats a card or holds one outside pack. deck needs TRIX_CARDS. */
int trix_deck_build(uint8_t *deck, trix_hand_t pack, const uint8_t *pre,
                    int npre, struct rng *rng);

#endif
