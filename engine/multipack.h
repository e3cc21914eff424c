/* multipack.h — packs made of several standard decks, jokers optional.
 *
 * Games that shuffle two or more decks together (Ninety-Nine above four
 * players, Nine-Card Golf) deal and hold FACES: a card id is a face, 0..51
 * as in cards.h and MULTIPACK_JOKER for the joker, and a pack holds several
 * copies of each. Copies are indistinguishable in play, so an action that
 * names a face keeps one meaning whichever copy is held. Used by
 * engine/games/ninety_nine.c and engine/games/nine_card_golf.c.
 */
#ifndef PARLOR_MULTIPACK_H
#define PARLOR_MULTIPACK_H

#include <stddef.h>
#include <stdint.h>

#include "../common/rng.h"

#define MULTIPACK_JOKER 52 /* the joker's face id */
#define MULTIPACK_FACES 53 /* faces with the joker: 0..52 */

/* Writes face c as card_name() does, or "Joker"; returns the length. */
int multipack_name(int c, char *buf, size_t len);

/* Parses a face at s: a card name as card_parse() takes it, or "Joker" /
 * "JK" (any case); sets *end past it. Returns the face or ERR_SYNTAX. */
int multipack_parse(const char *s, const char **end);

/* Writes the faces of `decks` standard decks plus `jokers` jokers per deck
 * into pack (room for decks * (52 + jokers)), in face order; returns the
 * number written. */
int multipack_fill(uint8_t *pack, int decks, int jokers);

/* Orders pack[0..n) (which holds the whole pack on entry, any order) for a
 * deal: the faces pre[0..npre) on top in that order, each taking one copy,
 * then the remaining copies uniformly shuffled from rng. Returns 0, or
 * ERR_INVAL (pack untouched) if pre asks for more copies of a face than
 * the pack holds. */
int multipack_build(uint8_t *pack, int n, const uint8_t *pre, int npre,
                    struct rng *rng);

#endif
