/* view.c — shared packing helpers for the games' structured views. */
#include "view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void view_pack_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

void view_pack_card(msgpack_packer *pk, int c)
{
    char buf[8];
    int len = card_name(c, buf, sizeof buf);
    msgpack_pack_str_with_body(pk, buf, (size_t)len);
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
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        msgpack_pack_int(pk, v[i]);
}

int obs_layout_copy(struct obs_segment *out, int max,
                    const struct obs_segment *seg, int n)
{
    int k = n < max ? n : max;
    memcpy(out, seg, sizeof *seg * (size_t)(k > 0 ? k : 0));
    return k > 0 ? k : 0;
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
