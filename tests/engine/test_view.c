/* test_view.c — the view helpers: text_fmt, the printf-free formatter that
 * builds action names on the view path, against hand-written expectations
 * (what snprintf would write), truncation included. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_strings_and_numbers),
        cmocka_unit_test(test_fmt_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
