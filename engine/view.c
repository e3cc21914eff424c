/* view.c — shared packing helpers for the games' structured views. */
#include "view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char view_card_text[CARDS_IN_PACK][8] = {VIEW_CARD_NAMES("")};

void view_copy_long(char *d, const char *s, size_t n)
{
    memcpy(d, s, n);
}

int view_buf_write(void *data, const char *p, size_t n)
{
    struct view_buf *b = data;
    if (n > sizeof b->data - b->used) {
        view_buf_flush(b);
        if (n > sizeof b->data)
            return b->out->callback(b->out->data, p, n);
    }
    view_copy(b->data + b->used, p, n);
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

void view_pack_hand(msgpack_packer *pk, hand_t h)
{
    view_pack_array(pk, (size_t)hand_count(h));
    for (; h; h &= h - 1)
        view_pack_card(pk, hand_first(h));
}

/* "00" to "99": a number below 100 is one two-byte copy. */
static const char two_digits[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

size_t view_strnum(char *d, const char *prefix, size_t n, int v)
{
    char digits[11];
    int i = (int)sizeof digits;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    memcpy(d, prefix, n);
    if (v < 0)
        d[n++] = '-';
    if (u < 10) {
        d[n] = (char)('0' + u);
        return n + 1;
    }
    if (u < 100) {
        memcpy(d + n, two_digits + 2 * u, 2);
        return n + 2;
    }
    do {
        digits[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    memcpy(d + n, digits + i, sizeof digits - (size_t)i);
    return n + sizeof digits - (size_t)i;
}

void view_pack_int_wide(msgpack_packer *pk, int v)
{
    char *d = view_room(pk, 5);
    uint32_t u = (uint32_t)v;
    int n;
    if (!d) {
        msgpack_pack_int(pk, v);
        return;
    }
    if (v < -32768 || v >= 65536) {
        d[0] = (char)(v < 0 ? 0xd2 : 0xce);
        n = 4;
    } else if (v < -128 || v >= 256) {
        d[0] = (char)(v < 0 ? 0xd1 : 0xcd);
        n = 2;
    } else {
        d[0] = (char)(v < 0 ? 0xd0 : 0xcc);
        n = 1;
    }
    for (int i = 0; i < n; i++)
        d[1 + i] = (char)(u >> (8 * (n - 1 - i)));
    /* 5 bytes were taken; 1 + n are kept. */
    ((struct view_buf *)pk->data)->used -= (size_t)(4 - n);
}

void view_pack_seat(msgpack_packer *pk, int seat)
{
    if (seat < 0 || seat >= GAME_MAX_PLAYERS)
        view_pack_nil(pk);
    else
        view_pack_int(pk, seat);
}

void view_pack_u8s(msgpack_packer *pk, const uint8_t *v, int n)
{
    /* Numbers below 128 (the usual case) are positive fixints, their own
     * bytes, as the packer writes them: one copy after the header. */
    int small = n >= 0;
    for (int i = 0; i < n && small; i++)
        small = v[i] < 128;
    view_pack_array(pk, (size_t)(n > 0 ? n : 0));
    char *d = small ? view_room(pk, (size_t)n) : NULL;
    if (!d) {
        for (int i = 0; i < n; i++)
            view_pack_int(pk, v[i]);
        return;
    }
    view_copy(d, (const char *)v, (size_t)n);
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

int text_put(char *buf, size_t len, const char *s, size_t n)
{
    if (len) {
        size_t k = n < len ? n : len - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
    }
    return (int)n;
}

int text_cat(char *buf, size_t len, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na + nb < len) {
        memcpy(buf, a, na);
        memcpy(buf + na, b, nb);
        buf[na + nb] = '\0';
    } else if (len) {
        text_fmt(buf, len, "%s%s", a, b);
    }
    return (int)(na + nb);
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
