/* obs_fill.h — clearing and filling observation tensors quickly. A memset of a
 * constant size is expanded inline by the compiler, under x86-64-v2 as
 * `rep stosq` or a run of 16-byte stores, and for the hundreds of floats
 * of a tensor either costs several times the C library's memset, which
 * picks the widest stores the CPU has at run time. Routing the clear
 * through a function of its own keeps the size out of the compiler's
 * sight. Nothing here allocates.
 */
#ifndef PARLOR_OBS_FILL_H
#define PARLOR_OBS_FILL_H

#include <stddef.h>

/* Sets out[0..n) to 0.0f through the C library's memset. */
void obs_fill_zero(float *out, size_t n);

/* Row b holds the eight bits of b, lowest first, as floats 0 and 1: a
 * dense plane of bits is written as copies of rows, eight floats each,
 * cheaper than zeroing it and setting its ones one by one. */
extern _Alignas(64) const float obs_byte_floats[256][8];

#endif
