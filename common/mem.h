/* mem.h — checked allocation.
 *
 * Every heap allocation in parlor goes through these. A real out-of-memory
 * aborts with a message (there is nothing sensible to continue with),
 * except in the mem_try_ calls, meant for sizes that come from input (a
 * journal's records): those return NULL for the caller to report. The
 * test hooks make the Nth later call (mem_fail_after) or any call for more
 * than a number of bytes (mem_fail_over) return NULL instead, so that
 * error paths can be exercised and memory bounds checked.
 */
#ifndef PARLOR_MEM_H
#define PARLOR_MEM_H

#include <stddef.h>

/* Allocates n bytes (zeroed); NULL only when the test hook fires. */
void *mem_alloc(size_t n);

/* mem_alloc for data one thread writes often while other threads run (a
 * worker's game state, an agent's random generator): the block starts on
 * a 64-byte cache line and owns whole lines, so no other allocation
 * shares one. Two small blocks of two threads on one line make their
 * caches pass it back and forth on every write (two tournament workers'
 * random agents, 24 bytes each, once cost a third of the games per
 * second). Freed with mem_free. */
void *mem_alloc_lines(size_t n);

/* Resizes p to n bytes; NULL only when the test hook fires (p is kept). */
void *mem_realloc(void *p, size_t n);

/* mem_alloc and mem_realloc that return NULL when memory runs out
 * instead of aborting (p is then kept). */
void *mem_try_alloc(size_t n);
void *mem_try_realloc(void *p, size_t n);

/* Duplicates a string; NULL only when the test hook fires. */
char *mem_strdup(const char *s);

/* Frees p (NULL-safe). */
void mem_free(void *p);

/* Test hook: the n-th allocation from now (1 = next) fails; 0 disarms. */
void mem_fail_after(long n);

/* Test hook: every later allocation of more than n bytes fails; 0 disarms.
 * A test bounds what input may make parlor allocate in one block. */
void mem_fail_over(size_t n);

#endif
