/* view.h — small helpers that games share to pack their structured views
 * (msgpack) and to document their observation tensors, so that every game
 * names cards, hands and seats the same way. */
#ifndef PARLOR_VIEW_H
#define PARLOR_VIEW_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* A packer's destination that gathers a whole view on the stack and hands
 * it to the caller's packer in one write at view_buf_flush: the views are
 * made of many writes of a few bytes, each of which would otherwise cost
 * a call into the caller's buffer (bounds check, memcpy). */
#define VIEW_BUF_SIZE 4096

struct view_buf {
    msgpack_packer *out;      /* the caller's packer, borrowed */
    size_t used;              /* bytes gathered in data */
    char data[VIEW_BUF_SIZE]; /* the gathered bytes */
};

/* Points pk at b, which forwards to out; flush before b goes out of
 * scope. */
void view_buf_init(struct view_buf *b, msgpack_packer *pk,
                   msgpack_packer *out);

/* Writes what b gathered to its packer and empties b. */
void view_buf_flush(struct view_buf *b);

/* Sends the n bytes at p through pk's writer. */
static inline void view_put(msgpack_packer *pk, const void *p, size_t n)
{
    pk->callback(pk->data, (const char *)p, n);
}

/* Packs the n bytes at s as a string. A short one (the usual case) goes
 * out in one write, fixstr header and body, rather than the packer's
 * two; inline so that a literal's length and copy are fixed when built. */
static inline void view_pack_strn(msgpack_packer *pk, const char *s, size_t n)
{
    char tmp[32];
    if (n >= sizeof tmp) {
        msgpack_pack_str_with_body(pk, s, n);
        return;
    }
    tmp[0] = (char)(0xa0 | n);
    memcpy(tmp + 1, s, n);
    view_put(pk, tmp, n + 1);
}

/* Packs a NUL-terminated string (a literal's length is known when
 * built). */
static inline void view_pack_str(msgpack_packer *pk, const char *s)
{
    view_pack_strn(pk, s, strlen(s));
}

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
void text_appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copies up to max of the n segments seg into out; returns how many (the
 * body of every game's obs_layout op once its table is filled in). */
int obs_layout_copy(struct obs_segment *out, int max,
                    const struct obs_segment *seg, int n);

#endif
