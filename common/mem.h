/* mem.h — checked allocation.
 *
 * Every heap allocation in parlor goes through these. A real out-of-memory
 * aborts with a message (there is nothing sensible to continue with); the
 * test hook mem_fail_after() makes the Nth later call return NULL instead so
 * that error paths can be exercised.
 */
#ifndef PARLOR_MEM_H
#define PARLOR_MEM_H

#include <stddef.h>

/* Allocates n bytes (zeroed); NULL only when the test hook fires. */
void *mem_alloc(size_t n);

/* Resizes p to n bytes; NULL only when the test hook fires (p is kept). */
void *mem_realloc(void *p, size_t n);

/* Duplicates a string; NULL only when the test hook fires. */
char *mem_strdup(const char *s);

/* Frees p (NULL-safe). */
void mem_free(void *p);

/* Test hook: the n-th allocation from now (1 = next) fails; 0 disarms. */
void mem_fail_after(long n);

#endif
