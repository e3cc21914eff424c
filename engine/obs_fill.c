/* obs_fill.c — see obs_fill.h: the clear kept out of line, so that the
 * size reaches memset as a run-time value. */
#include "obs_fill.h"

#include <string.h>

void obs_fill_zero(float *out, size_t n)
{
    memset(out, 0, n * sizeof *out);
}
