/* view.h — small helpers that games share to pack their structured views
 * (msgpack) and to document their observation tensors, so that every game
 * names cards, hands and seats the same way. */
#ifndef PARLOR_VIEW_H
#define PARLOR_VIEW_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

#include "cards.h"
#include "game.h"

/* The 52 standard cards' names after the literal prefix p, in card id
 * order (suit-major, ace first), as string literals: tables of names that
 * never change are fixed at compile time instead of formatted per call. */
#define VIEW_SUIT_NAMES(p, s)                                                  \
    p "A" s, p "2" s, p "3" s, p "4" s, p "5" s, p "6" s, p "7" s, p "8" s,    \
        p "9" s, p "10" s, p "J" s, p "Q" s, p "K" s
#define VIEW_CARD_NAMES(p)                                                     \
    VIEW_SUIT_NAMES(p, "♣"), VIEW_SUIT_NAMES(p, "♦"), VIEW_SUIT_NAMES(p, "♥"), \
        VIEW_SUIT_NAMES(p, "♠")

/* Packs a NUL-terminated string. */
void view_pack_str(msgpack_packer *pk, const char *s);

/* Packs the n bytes at s as a string. */
void view_pack_strn(msgpack_packer *pk, const char *s, size_t n);

/* Packs a history entry, the pair [seat, name] (one write when short). */
void view_pack_entry(msgpack_packer *pk, int seat, const char *name);

/* Packs a standard card as its name ("10♥"). */
void view_pack_card(msgpack_packer *pk, int c);

/* Packs a standard hand as an array of card names in id order. */
void view_pack_hand(msgpack_packer *pk, hand_t h);

/* Packs a seat number, or nil when seat is not a seat (negative or
 * GAME_MAX_PLAYERS and above: the games' "no seat" markers). */
void view_pack_seat(msgpack_packer *pk, int seat);

/* Packs n small unsigned numbers as an array of ints. */
void view_pack_u8s(msgpack_packer *pk, const uint8_t *v, int n);

/* Writes fmt into buf (len bytes) like snprintf, but knows only %s, %d
 * and %%, and so costs a fraction of it: action names and views are built
 * at every step a client asks for a view, where snprintf's machinery
 * (locale, streams, the full grammar) cost more than the rest of the view.
 * Truncates safely, keeps buf NUL-terminated (len > 0) and returns the
 * full length wanted. Any other conversion is a bug in the caller. */
int text_fmt(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends printf-style text to buf (len bytes) at *used, truncating
 * safely, and advances *used by the text's full length (so *used >= len
 * means the text was cut): the games' describe ops build text with it. */
/* The plural ending of a count in a description: "" for 1, else "s"
 * ("1 card", "2 cards"). */
static inline const char *text_s(long n)
{
    return n == 1 ? "" : "s";
}

void text_appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copies up to max of the n segments seg into out; returns how many (the
 * body of every game's obs_layout op once its table is filled in). */
int obs_layout_copy(struct obs_segment *out, int max,
                    const struct obs_segment *seg, int n);

#endif
