/* test_mem.c — checked allocation: blocks that own their cache lines, the
 * test hooks, and the calls that return NULL instead of aborting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/mem.h"

/* Blocks of any size start on a 64-byte line and own whole lines: the
 * rest of the last line is theirs (zeroed, writable), so no two blocks
 * share a line. */
static void test_blocks_own_their_lines(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 24, 63, 64, 65, 792, 4096};
    unsigned char *p[16];
    for (int i = 0; i < 16; i++) {
        size_t n = sizes[i % 7], whole = (n + 63) / 64 * 64;
        p[i] = mem_alloc_lines(n);
        assert_non_null(p[i]);
        assert_int_equal((uintptr_t)p[i] % 64, 0);
        for (size_t k = 0; k < whole; k++)
            assert_int_equal(p[i][k], 0);
        p[i][whole - 1] = 1; /* the last line is the block's own */
    }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < i; j++) {
            size_t ni = (sizes[i % 7] + 63) / 64 * 64;
            size_t nj = (sizes[j % 7] + 63) / 64 * 64;
            assert_true(p[i] + ni <= p[j] || p[j] + nj <= p[i]);
        }
    for (int i = 0; i < 16; i++)
        mem_free(p[i]);
}

/* The test hook fails it like any allocation. */
static void test_hook_fails_it(void **state)
{
    (void)state;
    mem_fail_after(1);
    assert_null(mem_alloc_lines(24));
    void *p = mem_alloc_lines(24);
    assert_non_null(p);
    mem_free(p);
}

/* Under AddressSanitizer a request no allocator can meet must return
 * NULL, as it does in libc, not stop the program (test_try_returns_null);
 * the sanitizer reads this hook at start-up, other builds ignore it. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

/* mem_fail_over fails every call for more than its bytes, from every
 * function, and lets the others through; 0 disarms it. */
static void test_fail_over(void **state)
{
    (void)state;
    void *p;
    mem_fail_over(100);
    assert_null(mem_alloc(101));
    assert_null(mem_try_alloc(101));
    assert_null(mem_alloc_lines(101));
    assert_non_null(p = mem_try_alloc(100));
    assert_null(mem_try_realloc(p, 101)); /* p is kept */
    assert_null(mem_realloc(p, 4096));
    p = mem_realloc(p, 50);
    assert_non_null(p);
    mem_fail_over(0);
    p = mem_realloc(p, 4096);
    assert_non_null(p);
    mem_free(p);
}

/* What no allocator can give: mem_try_alloc and mem_try_realloc say so
 * with NULL (mem_alloc would abort), and the block kept stays whole. */
static void test_try_returns_null(void **state)
{
    (void)state;
    char *p = mem_try_alloc(16);
    assert_non_null(p);
    memcpy(p, "kept", 5);
    assert_null(mem_try_alloc(SIZE_MAX / 2));
    assert_null(mem_try_realloc(p, SIZE_MAX / 2));
    assert_string_equal(p, "kept");
    mem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_own_their_lines),
        cmocka_unit_test(test_hook_fails_it),
        cmocka_unit_test(test_fail_over),
        cmocka_unit_test(test_try_returns_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
