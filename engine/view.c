/* view.c — shared packing helpers for the games' structured views. */
#include "view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The standard cards' names: packing a card is one copy. */
static const char card_text[CARDS_IN_PACK][8] = {VIEW_CARD_NAMES("")};

/* Copies n bytes where n is mostly below 32: two overlapping fixed-size
 * copies, which compile to a few moves, instead of a call to memcpy. */
static inline void copy_small(char *d, const char *s, size_t n)
{
    uint64_t a, b;
    uint32_t x, y;
    if (n >= 16 && n <= 32) {
        char t[16], u[16];
        memcpy(t, s, 16);
        memcpy(u, s + n - 16, 16);
        memcpy(d, t, 16);
        memcpy(d + n - 16, u, 16);
    } else if (n >= 8 && n < 16) {
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4);
        memcpy(d + n - 4, &y, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        memcpy(d, s, n);
    }
}

static int view_buf_write(void *data, const char *p, size_t n)
{
    struct view_buf *b = data;
    if (n > sizeof b->data - b->used) {
        view_buf_flush(b);
        if (n > sizeof b->data)
            return b->out->callback(b->out->data, p, n);
    }
    copy_small(b->data + b->used, p, n);
    b->used += n;
    return 0;
}

void view_buf_init(struct view_buf *b, msgpack_packer *pk,
                   msgpack_packer *out)
{
    b->out = out;
    b->used = 0;
    msgpack_packer_init(pk, b, view_buf_write);
}

void view_buf_flush(struct view_buf *b)
{
    if (b->used)
        b->out->callback(b->out->data, b->data, b->used);
    b->used = 0;
}

void view_pack_entry(msgpack_packer *pk, int seat, const char *name)
{
    /* Histories are mostly these pairs: a fixarray of 2, a positive
     * fixint and a fixstr (the packer's own encodings) in one write. */
    char tmp[3 + 31];
    size_t n = strlen(name);
    if (seat < 0 || seat > 127 || n > 31) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_int(pk, seat);
        view_pack_strn(pk, name, n);
        return;
    }
    tmp[0] = (char)0x92;
    tmp[1] = (char)seat;
    tmp[2] = (char)(0xa0 | n);
    memcpy(tmp + 3, name, n);
    pk->callback(pk->data, tmp, n + 3);
}

void view_pack_card(msgpack_packer *pk, int c)
{
    view_pack_strn(pk, card_text[c], card_rank(c) == 10 ? 5 : 4);
}

void view_pack_hand(msgpack_packer *pk, hand_t h)
{
    msgpack_pack_array(pk, (size_t)hand_count(h));
    for (; h; h &= h - 1)
        view_pack_card(pk, hand_first(h));
}

void view_pack_seat(msgpack_packer *pk, int seat)
{
    if (seat < 0 || seat >= GAME_MAX_PLAYERS)
        msgpack_pack_nil(pk);
    else
        msgpack_pack_int(pk, seat);
}

void view_pack_u8s(msgpack_packer *pk, const uint8_t *v, int n)
{
    /* Up to 15 numbers below 128 (the usual case) are a fixarray of
     * positive fixints, exactly what the packer writes for them, sent in
     * one write instead of n + 1. */
    uint8_t tmp[16];
    int small = n < 16;
    for (int i = 0; i < n && small; i++)
        small = v[i] < 128;
    if (!small) {
        msgpack_pack_array(pk, (size_t)n);
        for (int i = 0; i < n; i++)
            msgpack_pack_int(pk, v[i]);
        return;
    }
    tmp[0] = (uint8_t)(0x90 | n);
    memcpy(tmp + 1, v, (size_t)n);
    pk->callback(pk->data, (const char *)tmp, (size_t)n + 1);
}

int obs_layout_copy(struct obs_segment *out, int max,
                    const struct obs_segment *seg, int n)
{
    int k = n < max ? n : max;
    memcpy(out, seg, sizeof *seg * (size_t)(k > 0 ? k : 0));
    return k > 0 ? k : 0;
}

/* The writer of text_fmt: bytes land while room is left (one kept for
 * the NUL); at counts every byte wanted. */
struct text_out {
    char *buf;  /* destination */
    size_t len; /* its size */
    size_t at;  /* bytes wanted so far */
};

static inline void put_c(struct text_out *o, char c)
{
    if (o->at + 1 < o->len)
        o->buf[o->at] = c;
    o->at++;
}

static void put_int(struct text_out *o, int v)
{
    char digits[12];
    int i = (int)sizeof digits;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do {
        digits[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        put_c(o, '-');
    while (i < (int)sizeof digits)
        put_c(o, digits[i++]);
}

int text_fmt(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    struct text_out o = {buf, len, 0};
    va_start(ap, fmt);
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || !p[1]) {
            put_c(&o, *p);
        } else if (*++p == 'd') {
            put_int(&o, va_arg(ap, int));
        } else if (*p == 's') {
            for (const char *s = va_arg(ap, const char *); *s; s++)
                put_c(&o, *s);
        } else {
            put_c(&o, *p); /* "%%" */
        }
    }
    va_end(ap);
    if (len)
        buf[o.at < len ? o.at : len - 1] = '\0';
    return (int)o.at;
}

void text_appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    size_t at = *used < len ? *used : len;
    va_start(ap, fmt);
    int n = vsnprintf(at < len ? buf + at : NULL, len - at, fmt, ap);
    va_end(ap);
    *used += n > 0 ? (size_t)n : 0;
}
