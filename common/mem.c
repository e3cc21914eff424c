/* mem.c — checked allocation with failure-injection hooks for tests. */
#include "mem.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The test hooks are the only process-wide settings here; they are atomic
 * so that threaded tests can use them, and they are never set outside
 * tests. */
static atomic_long fail_countdown;
static atomic_size_t fail_size; /* 0: off */

static int hook_fires(size_t size)
{
    size_t over = atomic_load(&fail_size);
    if (over && size > over)
        return 1;
    long n = atomic_load(&fail_countdown);
    if (n <= 0)
        return 0;
    return atomic_fetch_sub(&fail_countdown, 1) == 1;
}

static void *checked(void *p, size_t n)
{
    if (!p && n) {
        fprintf(stderr, "parlor: out of memory allocating %zu bytes\n", n);
        abort();
    }
    return p;
}

void *mem_alloc(size_t n)
{
    if (hook_fires(n))
        return NULL;
    return checked(calloc(1, n ? n : 1), n);
}

void *mem_try_alloc(size_t n)
{
    if (hook_fires(n))
        return NULL;
    return calloc(1, n ? n : 1);
}

void *mem_alloc_lines(size_t n)
{
    if (hook_fires(n))
        return NULL;
    size_t size = (n + 63) / 64 * 64;
    void *p = aligned_alloc(64, size ? size : 64);
    if (p)
        memset(p, 0, size);
    return checked(p, n);
}

void *mem_realloc(void *p, size_t n)
{
    if (hook_fires(n))
        return NULL;
    return checked(realloc(p, n ? n : 1), n);
}

void *mem_try_realloc(void *p, size_t n)
{
    if (hook_fires(n))
        return NULL;
    return realloc(p, n ? n : 1);
}

char *mem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mem_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void mem_free(void *p)
{
    free(p);
}

void mem_fail_after(long n)
{
    atomic_store(&fail_countdown, n);
}

void mem_fail_over(size_t n)
{
    atomic_store(&fail_size, n);
}
