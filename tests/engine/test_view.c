/* test_view.c — the view helpers against hand-written expectations:
 * text_fmt, text_cat and text_put (what snprintf would write, truncation
 * included), numbered names, 8-byte name slots, and the stack buffer's
 * bytes against msgpack-c's own packer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <limits.h>
#include <string.h>

#include "engine/view.h"

static void test_fmt_strings_and_numbers(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(text_fmt(buf, sizeof buf, "play %s", "10♥"),
                     10); /* ♥ is 3 bytes */
    assert_string_equal(buf, "play 10♥");
    assert_int_equal(text_fmt(buf, sizeof buf, "bid %d", 30), 6);
    assert_string_equal(buf, "bid 30");
    text_fmt(buf, sizeof buf, "%d|%d|%d", 0, -7, INT_MIN);
    assert_string_equal(buf, "0|-7|-2147483648");
    text_fmt(buf, sizeof buf, "ask %d for %s, 100%%", 2, "Dickens");
    assert_string_equal(buf, "ask 2 for Dickens, 100%");
    assert_int_equal(text_fmt(buf, sizeof buf, "%s", ""), 0);
    assert_string_equal(buf, "");
}

/* Like snprintf: cut to len - 1 bytes, NUL-terminated, and the full
 * length returned so that the caller sees the cut. */
static void test_fmt_truncates(void **state)
{
    (void)state;
    char buf[8];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(text_fmt(buf, 6, "discard %d", 12345), 13);
    assert_string_equal(buf, "disca");
    assert_int_equal(buf[6], 'x');
    assert_int_equal(text_fmt(buf, 1, "pass"), 4);
    assert_string_equal(buf, "");
    assert_int_equal(text_fmt(NULL, 0, "take %d", 3), 6);
}

/* Numbered names: the prefix, a sign, then the digits. */
static void test_strnum(void **state)
{
    (void)state;
    char buf[64];
    size_t n = view_strnum(buf, "call ", 5, 7);
    assert_int_equal(n, 6);
    assert_memory_equal(buf, "call 7", 6);
    n = view_strnum(buf, "take ", 5, 42);
    assert_memory_equal(buf, "take 42", 7);
    assert_int_equal(n, 7);
    n = view_strnum(buf, "", 0, -5);
    assert_memory_equal(buf, "-5", 2);
    assert_int_equal(n, 2);
    n = view_strnum(buf, "x", 1, -73);
    assert_memory_equal(buf, "x-73", 4);
    assert_int_equal(n, 4);
    n = view_strnum(buf, "bid ", 4, 1250);
    assert_memory_equal(buf, "bid 1250", 8);
    assert_int_equal(n, 8);
    n = view_strnum(buf, "", 0, INT_MIN);
    assert_memory_equal(buf, "-2147483648", 11);
    assert_int_equal(n, 11);
    char *e = view_cat_num(view_cat(buf, "seat "), 0);
    assert_int_equal(e - buf, 6);
    assert_memory_equal(buf, "seat 0", 6);
}

/* Like snprintf("%s%s") and ("%.*s"): cut, NUL-terminated, full length. */
static void test_cat_and_put(void **state)
{
    (void)state;
    char buf[8];
    assert_int_equal(text_cat(buf, sizeof buf, "play ", "7-3"), 8);
    assert_string_equal(buf, "play 7-");
    assert_int_equal(text_cat(buf, sizeof buf, "pass", ""), 4);
    assert_string_equal(buf, "pass");
    assert_int_equal(text_cat(NULL, 0, "ab", "cd"), 4);
    assert_int_equal(text_put(buf, sizeof buf, "draw 10♥", 10), 10);
    assert_string_equal(buf, "draw 10");
    assert_int_equal(text_put(buf, 4, "roll", 4), 4);
    assert_string_equal(buf, "rol");
}

/* Names in 8-byte slots: the length up to the first NUL. */
static void test_len8(void **state)
{
    (void)state;
    static const char slot[][8] = {"", "A♣", "10♥", "Trixie", "1234567",
                                   {'1', '2', '3', '4', '5', '6', '7', '8'}};
    static const size_t want[] = {0, 4, 5, 6, 7, 8};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_int_equal(view_len8(slot[i]), want[i]);
    char buf[16];
    assert_int_equal(view_cat8(buf, slot[2]) - buf, 5);
    assert_memory_equal(buf, "10♥", 5);
}

/* A view packed through view_buf reaches the caller's buffer as the
 * packer itself writes it, across a flush of the stack buffer too. */
static void test_buf_same_bytes(void **state)
{
    (void)state;
    msgpack_sbuffer a, b;
    msgpack_packer pa, pb, pk;
    struct view_buf vb;
    msgpack_sbuffer_init(&a);
    msgpack_sbuffer_init(&b);
    msgpack_packer_init(&pa, &a, msgpack_sbuffer_write);
    msgpack_packer_init(&pb, &b, msgpack_sbuffer_write);
    view_buf_init(&vb, &pk, &pb);
    for (int i = 0; i < 1500; i++) {
        int v = i % 7 == 0 ? -40000 - i : i * 37 % 70000 - 200;
        msgpack_pack_array(&pa, (size_t)(i % 20));
        view_pack_array(&pk, (size_t)(i % 20));
        msgpack_pack_map(&pa, (size_t)(i % 18));
        view_pack_map(&pk, (size_t)(i % 18));
        msgpack_pack_int(&pa, v);
        view_pack_int(&pk, v);
        msgpack_pack_str_with_body(&pa, "hand_sizes", 10);
        view_pack_str(&pk, "hand_sizes");
        msgpack_pack_nil(&pa);
        view_pack_nil(&pk);
        if (i & 1)
            msgpack_pack_true(&pa);
        else
            msgpack_pack_false(&pa);
        view_pack_bool(&pk, i & 1);
        msgpack_pack_array(&pa, 2);
        msgpack_pack_int(&pa, i % 200);
        msgpack_pack_str_with_body(&pa, "call 17", 7);
        view_pack_entry_num(&pk, i % 200, "call ", 17);
        uint8_t u8[40];
        int n = i % 40;
        for (int k = 0; k < n; k++)
            u8[k] = (uint8_t)((i + k * 13) % (i % 3 ? 128 : 256));
        msgpack_pack_array(&pa, (size_t)n);
        for (int k = 0; k < n; k++)
            msgpack_pack_int(&pa, u8[k]);
        view_pack_u8s(&pk, u8, n);
    }
    view_buf_flush(&vb);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    msgpack_sbuffer_destroy(&a);
    msgpack_sbuffer_destroy(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strnum),
        cmocka_unit_test(test_cat_and_put),
        cmocka_unit_test(test_len8),
        cmocka_unit_test(test_buf_same_bytes),
        cmocka_unit_test(test_fmt_strings_and_numbers),
        cmocka_unit_test(test_fmt_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
