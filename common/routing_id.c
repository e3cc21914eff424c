/* routing_id.c — random bytes from getrandom() for routing ids.
 *
 * Should the kernel's source fail (a kernel without getrandom, a seccomp
 * filter), the bytes come from the monotonic and real-time clocks and
 * the process id, mixed: weaker, but still not the fixed sequence of an
 * unseeded rand().
 */
#include "routing_id.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "rng.h"

static void random_bytes(void *buf, size_t len)
{
    ssize_t n = getrandom(buf, len, GRND_NONBLOCK);
    if (n == (ssize_t)len)
        return;
    struct timespec m, r;
    clock_gettime(CLOCK_MONOTONIC, &m);
    clock_gettime(CLOCK_REALTIME, &r);
    struct rng g;
    rng_seed(&g, (uint64_t)m.tv_nsec ^ ((uint64_t)r.tv_nsec << 20) ^
                     ((uint64_t)r.tv_sec << 32) ^ (uint64_t)getpid());
    for (size_t i = 0; i < len; i++)
        ((uint8_t *)buf)[i] = (uint8_t)rng_next(&g);
}

void routing_id_seed(void)
{
    unsigned seed;
    random_bytes(&seed, sizeof seed);
    srand(seed);
}

void routing_id_new(uint8_t *id, size_t len, uint8_t tag)
{
    id[0] = tag ? tag : 'p';
    random_bytes(id + 1, len - 1);
}
