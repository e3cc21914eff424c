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

/* The small helpers below are forced inline: with a literal's length
 * known, a key packs as a few moves, which the compiler's size heuristics
 * would otherwise trade for a call. */
#define VIEW_INLINE static inline __attribute__((always_inline))

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

/* view_buf's writer (the packer callback that view_buf_init installs). */
int view_buf_write(void *data, const char *p, size_t n);

/* memcpy, out of line: view_copy's rare long copies. */
void view_copy_long(char *d, const char *s, size_t n);

/* Copies n bytes, n mostly below 32: two overlapping fixed-size copies,
 * a few moves, instead of a call to memcpy. */
VIEW_INLINE void view_copy(char *d, const char *s, size_t n)
{
    if (n >= 16 && n <= 32) {
        char t[16], u[16];
        memcpy(t, s, 16);
        memcpy(u, s + n - 16, 16);
        memcpy(d, t, 16);
        memcpy(d + n - 16, u, 16);
    } else if (n >= 8 && n < 16) {
        uint64_t x, y;
        memcpy(&x, s, 8);
        memcpy(&y, s + n - 8, 8);
        memcpy(d, &x, 8);
        memcpy(d + n - 8, &y, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4);
        memcpy(d + n - 4, &y, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        view_copy_long(d, s, n);
    }
}

/* Room for n bytes straight in the view_buf behind pk, taken; NULL when
 * pk writes elsewhere or the buffer is full (then the caller goes through
 * the packer). The helpers below write through it: a view is mostly
 * one- to six-byte items, where a call per item would cost the most. */
VIEW_INLINE char *view_room(msgpack_packer *pk, size_t n)
{
    struct view_buf *b = pk->data;
    if (pk->callback != view_buf_write || n > VIEW_BUF_SIZE - b->used)
        return NULL;
    b->used += n;
    return b->data + b->used - n;
}

/* Sends the n bytes at p through pk's writer. */
VIEW_INLINE void view_put(msgpack_packer *pk, const void *p, size_t n)
{
    char *d = view_room(pk, n);
    if (d)
        view_copy(d, p, n);
    else
        pk->callback(pk->data, (const char *)p, n);
}

/* Packs one byte that is a whole msgpack item (fixint, nil, bool...). */
VIEW_INLINE void view_pack_byte(msgpack_packer *pk, unsigned c)
{
    char *d = view_room(pk, 1);
    char b = (char)c;
    if (d)
        *d = b;
    else
        pk->callback(pk->data, &b, 1);
}

/* Packs v, outside -32..127, as msgpack_pack_int does (int8/16/32 or
 * uint8/16/32, whichever is smallest). */
void view_pack_int_wide(msgpack_packer *pk, int v);

/* The msgpack_pack_* calls the views make, writing the same bytes: small
 * values, the usual case, are one byte. */
VIEW_INLINE void view_pack_int(msgpack_packer *pk, int v)
{
    if (v >= -32 && v < 128)
        view_pack_byte(pk, (unsigned)v & 0xff);
    else
        view_pack_int_wide(pk, v);
}

VIEW_INLINE void view_pack_array(msgpack_packer *pk, size_t n)
{
    if (n < 16)
        view_pack_byte(pk, 0x90 | (unsigned)n);
    else
        msgpack_pack_array(pk, n);
}

VIEW_INLINE void view_pack_map(msgpack_packer *pk, size_t n)
{
    if (n < 16)
        view_pack_byte(pk, 0x80 | (unsigned)n);
    else
        msgpack_pack_map(pk, n);
}

static inline void view_pack_nil(msgpack_packer *pk)
{
    view_pack_byte(pk, 0xc0);
}

static inline void view_pack_bool(msgpack_packer *pk, int b)
{
    view_pack_byte(pk, b ? 0xc3 : 0xc2);
}

/* Packs the n bytes at s as a string; inline so that a literal's length
 * and copy are fixed when built. */
VIEW_INLINE void view_pack_strn(msgpack_packer *pk, const char *s, size_t n)
{
    char *d = n < 32 ? view_room(pk, n + 1) : NULL;
    if (!d) {
        msgpack_pack_str_with_body(pk, s, n);
        return;
    }
    d[0] = (char)(0xa0 | n);
    view_copy(d + 1, s, n);
}

/* Packs a NUL-terminated string (a literal's length is known when
 * built). */
VIEW_INLINE void view_pack_str(msgpack_packer *pk, const char *s)
{
    view_pack_strn(pk, s, strlen(s));
}

/* Packs a history entry, the pair [seat, the n bytes at name]. */
VIEW_INLINE void view_pack_entryn(msgpack_packer *pk, int seat,
                                    const char *name, size_t n)
{
    char *d = seat >= 0 && seat < 128 && n < 32 ? view_room(pk, n + 3) : NULL;
    if (!d) {
        view_pack_array(pk, 2);
        view_pack_int(pk, seat);
        view_pack_strn(pk, name, n);
        return;
    }
    d[0] = (char)0x92;
    d[1] = (char)seat;
    d[2] = (char)(0xa0 | n);
    view_copy(d + 3, name, n);
}

/* Packs a history entry, the pair [seat, name]. */
VIEW_INLINE void view_pack_entry(msgpack_packer *pk, int seat,
                                   const char *name)
{
    view_pack_entryn(pk, seat, name, strlen(name));
}

/* Writes the n bytes at prefix and then v's decimal digits at d (room
 * for n + 11 bytes) and returns the length: the names of numbered
 * actions ("call 17") without a formatter. */
size_t view_strnum(char *d, const char *prefix, size_t n, int v);

/* Copies s to d and returns the end: names built from pieces, where a
 * literal's length is known when built. No NUL is written. */
VIEW_INLINE char *view_cat(char *d, const char *s)
{
    size_t n = strlen(s);
    memcpy(d, s, n);
    return d + n;
}

/* Writes v's decimal digits at d (room for 11) and returns the end. */
VIEW_INLINE char *view_cat_num(char *d, int v)
{
    if ((unsigned)v < 10) {
        *d = (char)('0' + v);
        return d + 1;
    }
    if ((unsigned)v < 100) {
        d[0] = (char)('0' + v / 10);
        d[1] = (char)('0' + v % 10);
        return d + 2;
    }
    return d + view_strnum(d, "", 0, v);
}

/* Packs the entry [seat, prefix followed by v's digits]. */
VIEW_INLINE void view_pack_entry_num(msgpack_packer *pk, int seat,
                                     const char *prefix, int v)
{
    char tmp[64];
    size_t n = strlen(prefix);
    if (n > sizeof tmp - 11)
        n = sizeof tmp - 11;
    memcpy(tmp, prefix, n);
    view_pack_entryn(pk, seat, tmp, (size_t)(view_cat_num(tmp + n, v) - tmp));
}

/* The length of the NUL-terminated name in the 8 bytes at s (names
 * stored NUL-padded in 8-byte slots; 8 when no NUL): one load and a few
 * bit operations instead of strlen. */
VIEW_INLINE size_t view_len8(const char *s)
{
    uint64_t x, z;
    memcpy(&x, s, 8);
    /* A byte's high bit is set in z where the byte is zero (and maybe in
     * higher bytes after the first zero, which the scan never reaches). */
    z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
    if (!z)
        return 8;
    if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
        return (size_t)__builtin_ctzll(z) / 8;
    return strnlen(s, 8);
}

/* Packs the name in the 8-byte slot s (see view_len8) as a string. */
VIEW_INLINE void view_pack_name8(msgpack_packer *pk, const char *s)
{
    size_t n = view_len8(s);
    char *d = view_room(pk, 9);
    if (!d) {
        msgpack_pack_str_with_body(pk, s, n);
        return;
    }
    /* 9 bytes taken, n + 1 kept. */
    ((struct view_buf *)pk->data)->used -= 8 - n;
    d[0] = (char)(0xa0 | n);
    memcpy(d + 1, s, 8);
}

/* Copies the name in the 8-byte slot s to d (room for 8) and returns
 * its end. */
VIEW_INLINE char *view_cat8(char *d, const char *s)
{
    memcpy(d, s, 8);
    return d + view_len8(s);
}

/* The standard cards' names in card id order, each NUL-padded to 8
 * bytes: packing a card is a header byte and one fixed 8-byte copy. */
extern const char view_card_text[CARDS_IN_PACK][8];

/* Packs a standard card as its name ("10♥"). */
VIEW_INLINE void view_pack_card(msgpack_packer *pk, int c)
{
    view_pack_name8(pk, view_card_text[c]);
}

/* Writes standard card c's name at d (room for 8 bytes, which may all
 * be written) and returns the end of the name. */
VIEW_INLINE char *view_cat_card(char *d, int c)
{
    return view_cat8(d, view_card_text[c]);
}

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

/* Writes the n bytes at s into buf (len bytes) as snprintf(buf, len,
 * "%.*s", n, s) would: names built from pieces (view_cat) handed to an
 * action_name caller. Returns n. */
int text_put(char *buf, size_t len, const char *s, size_t n);

/* Writes a then b into buf (len bytes) as snprintf(buf, len, "%s%s", a,
 * b) would, without a format: the names of actions made of a word and a
 * card ("play " and "10♥"). Returns the full length wanted. */
int text_cat(char *buf, size_t len, const char *a, const char *b);

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
