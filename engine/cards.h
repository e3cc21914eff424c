/* cards.h — the standard 52-card pack: encoding, names, hand bitsets.
 *
 * A card is a small integer, suit * 13 + (rank - 1), with ranks 1 (ace) to
 * 13 (king) and suits in bridge order (clubs, diamonds, hearts, spades). A
 * hand is a uint64_t with bit c set when card c is held, so membership,
 * suit masks and counts are single instructions. Other packs (the Trix
 * cards) provide their own struct card_codec with the same shape.
 */
#ifndef PARLOR_CARDS_H
#define PARLOR_CARDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { CLUBS, DIAMONDS, HEARTS, SPADES };
enum { ACE = 1, JACK = 11, QUEEN = 12, KING = 13 };
#define CARDS_IN_PACK 52
#define NO_CARD 0xff /* "no card" in uint8_t slots */

typedef uint64_t hand_t; /* bit c set when card c is held */

/* How a game names its cards: used by spec decks, action names and views. */
struct card_codec {
    int ncards;                                    /* distinct card ids */
    int max_copies; /* most times one id may appear in a deck (0 means 1):
                       multi-pack games name faces and map copies at init */
    int (*name)(int card, char *buf, size_t len);  /* "10♥"; returns length */
    int (*parse)(const char *s, const char **end); /* id or negative code */
};

extern const struct card_codec cards_standard; /* the 52-card pack */

static inline int card_make(int rank, int suit)
{
    return suit * 13 + rank - 1;
}
static inline int card_rank(int c)
{
    return c % 13 + 1;
}
static inline int card_suit(int c)
{
    return c / 13;
}
static inline hand_t card_bit(int c)
{
    return (hand_t)1 << c;
}
/* All thirteen cards of a suit. */
static inline hand_t suit_mask(int suit)
{
    return (hand_t)0x1fff << (suit * 13);
}
static inline int hand_count(hand_t h)
{
    return __builtin_popcountll(h);
}
static inline bool hand_has(hand_t h, int c)
{
    return (h >> c) & 1;
}
/* Lowest card id in a non-empty hand. */
static inline int hand_first(hand_t h)
{
    return __builtin_ctzll(h);
}
/* The n-th (0-based) card of h in id order; h must hold more than n cards. */
static inline int hand_nth(hand_t h, int n)
{
    while (n--)
        h &= h - 1;
    return __builtin_ctzll(h);
}

/* Writes card c as "A♠", "10♥"; returns the length written. */
int card_name(int c, char *buf, size_t len);

/* Writes card c in ASCII ("AS", "10H"); returns the length written. */
int card_name_ascii(int c, char *buf, size_t len);

/* Parses a card name at s ("Q♥", "qh", "10d", "Td"); sets *end past it.
 * Returns the card id or ERR_SYNTAX. */
int card_parse(const char *s, const char **end);

/* Writes the cards of h in id order, space-separated, into buf. */
int hand_format(hand_t h, char *buf, size_t len);

/* Parses a list of card names separated by spaces or commas using codec,
 * into out (at most max). An id repeated more than codec->max_copies times
 * is refused. Returns the number of
 * cards or a negative code with a message naming the bad token. */
int deck_parse(const struct card_codec *codec, const char *text,
               uint8_t *out, int max, char *err, size_t errlen);

/* Fills deck[0..n) for a deal: the given prefix (pre[0..npre), distinct ids
 * below n) on top in that order, then every other id 0..n-1 in a uniformly
 * shuffled order. Returns 0 or ERR_INVAL if pre repeats or is out of range. */
struct rng;
int deck_build(uint8_t *deck, int n, const uint8_t *pre, int npre,
               struct rng *rng);

/* ---- card bins: dealing hidden cards consistently (determinization) -- */

#define CARD_BINS_MAX 17 /* bins: a hand per seat and a stock, or more */

struct rng;

/* Where hidden cards may go (hands, face-down piles, the stock), and what
 * each may take. Caller storage, plain data; zero it, then fill nb bins. */
struct card_bins {
    int nb;                      /* bins in use */
    hand_t allow[CARD_BINS_MAX]; /* cards each bin may take */
    hand_t got[CARD_BINS_MAX];   /* cards placed */
    int room[CARD_BINS_MAX];     /* places left */
};

/* Puts pool's cards into the bins (whose rooms must add up to its size),
 * each first tried in a bin drawn in proportion to its free places, as a
 * random deal would, and fitted by augmenting paths (Kuhn's matching)
 * when that bin may not take it. The true deal must be one way to fill
 * them; returns false if some card found no place (a bug in the caller's
 * bins). */
bool card_bins_fill(struct card_bins *b, hand_t pool, struct rng *rng);

#endif
