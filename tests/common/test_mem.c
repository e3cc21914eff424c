/* test_mem.c — checked allocation: blocks that own their cache lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_own_their_lines),
        cmocka_unit_test(test_hook_fails_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
