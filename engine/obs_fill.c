/* obs_fill.c — see obs_fill.h: the clear kept out of line, so that the
 * size reaches memset as a run-time value, and the table of byte bits. */
#include "obs_fill.h"

#include <string.h>

void obs_fill_zero(float *out, size_t n)
{
    memset(out, 0, n * sizeof *out);
}

#define BITS8(b)                                                          \
    {(b) & 1,      (b) >> 1 & 1, (b) >> 2 & 1, (b) >> 3 & 1,                 \
     (b) >> 4 & 1, (b) >> 5 & 1, (b) >> 6 & 1, (b) >> 7 & 1}
#define BITS8_4(b) BITS8(b), BITS8((b) + 1), BITS8((b) + 2), BITS8((b) + 3)
#define BITS8_16(b)                                                       \
    BITS8_4(b), BITS8_4((b) + 4), BITS8_4((b) + 8), BITS8_4((b) + 12)
#define BITS8_64(b)                                                       \
    BITS8_16(b), BITS8_16((b) + 16), BITS8_16((b) + 32), BITS8_16((b) + 48)
_Alignas(64) const float obs_byte_floats[256][8] = {
    BITS8_64(0), BITS8_64(64), BITS8_64(128), BITS8_64(192)};
