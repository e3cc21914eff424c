/* test_obs_align.c — every game's observe at every placement of the
 * tensor in memory.
 *
 * Some observes build one way when the tensor starts on a 64-byte
 * boundary and another when it does not (Pinochle, Binokel, Magna,
 * Nine-Card Golf and Spoil-Five write theirs in aligned 64-byte stores on
 * AVX-512: each store joins two blocks and the first and last are masked
 * to the tensor, a different join for each of the 16 float offsets), and
 * test_obs_golden sees one offset only, the one malloc gives. Here every
 * state of a few random games of every game (and of the player counts
 * of those five) is observed for each seat at each offset 0..15 from a
 * boundary, and must equal the observe of the 16-byte build (no 64-byte
 * stores at all) and leave the floats on either side of the tensor alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "engine/game.h"
#include "engine/obs_fill.h"

#define GAMES 4          /* random games per spec */
#define SENTINEL 1234.5f /* what no observe writes */
#define MARGIN 32        /* floats checked on either side */

/* Specs beyond each game's default: the variants and player counts that
 * the whole-tensor builds have a build of their own for. */
static const char *const specs[] = {
    "pinochle(players=8,last_trick=20)",
    "pinochle(trump=auction,target=1)",
    "pinochle(players=8,trump=auction,max_deals=1)",
    "binokel(players=2)",
    "binokel(players=4,min_bid=300)",
    "binokel(betel=true,concession=true,target=1)",
    "magna(players=2,target=8)",
    "magna(players=3,target=8)",
    "magna(players=4,target=8)",
    "magna(players=5,target=8)",
    "nine_card_golf(players=2,holes=2)",
    "nine_card_golf(players=3,holes=2)",
    "nine_card_golf(players=5,holes=2)",
    "nine_card_golf(players=6,holes=2)",
    "nine_card_golf(players=7,holes=2)",
    "nine_card_golf(players=8,holes=2)",
    "spoil_five(players=2,fiving=true)",
    "spoil_five(players=3,jinking=true)",
    "spoil_five(partnerships=true,fiving=true,jinking=true)",
    "spoil_five(players=6,jinking=true,deals=3)",
    "spoil_five(players=7,two_tricks_win=true,jinking=true)",
    "spoil_five(players=10,target=45,robbing=optional)",
};

/* Observes st for seat at every offset into buf (64-byte aligned, room
 * for MARGIN + 16 + n + MARGIN floats); fails on the first difference
 * from ref or write outside the tensor. */
static void check_offsets(const struct game *g, const void *st, int seat,
                          const float *ref, float *buf)
{
    int n = g->dims.obs_size, total = 2 * MARGIN + 16 + n;
    for (int k = 0; k < 16; k++) {
        for (int i = 0; i < total; i++)
            buf[i] = SENTINEL;
        float *out = buf + MARGIN + k;
        g->def->observe(g, st, seat, out);
        if (memcmp(out, ref, sizeof *ref * (size_t)n) != 0) {
            int i = 0;
            while (out[i] == ref[i])
                i++;
            fail_msg("%s seat %d at offset %d: float %d is %g, not %g",
                     g->spec, seat, k, i, (double)out[i], (double)ref[i]);
        }
        for (int i = 0; i < total; i++)
            if ((i < MARGIN + k || i >= MARGIN + k + n) &&
                buf[i] != SENTINEL)
                fail_msg("%s seat %d at offset %d: float %d outside the "
                         "tensor written",
                         g->spec, seat, k, i - MARGIN - k);
    }
}

static void check_spec(const char *spec)
{
    struct game g;
    char err[256];
    if (game_make(&g, spec, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    int n = g.dims.obs_size;
    void *st = malloc(g.def->state_size);
    float *ref = malloc(sizeof *ref * (size_t)n);
    size_t bytes = sizeof(float) * (size_t)(2 * MARGIN + 16 + n);
    float *buf = aligned_alloc(64, (bytes + 63) / 64 * 64);
    int *legal = malloc(sizeof *legal * (size_t)g.dims.max_legal);
    assert_non_null(st);
    assert_non_null(ref);
    assert_non_null(buf);
    assert_non_null(legal);
    struct rng rng;
    rng_seed(&rng, 5);
    long states = 0;
    for (int e = 0; e < GAMES; e++) {
        assert_int_equal(game_init(&g, st, (uint64_t)e + 1, NULL, 0), 0);
        for (uint32_t m = 1; m; states++) {
            for (int s = 0; s < g.dims.players; s++) {
                obs_width_cap(OBS_WIDTH_16);
                g.def->observe(&g, st, s, ref);
                obs_width_cap(OBS_WIDTH_64);
                check_offsets(&g, st, s, ref, buf);
            }
            if ((m = g.def->to_move(&g, st)) == 0)
                break;
            int joint[GAME_MAX_PLAYERS];
            for (uint32_t r = m; r; r &= r - 1) {
                int s = __builtin_ctz(r);
                int k = g.def->legal(&g, st, s, legal);
                assert_true(k > 0);
                joint[s] = legal[rng_below(&rng, (uint32_t)k)];
            }
            if (m & (m - 1))
                g.def->apply_joint(&g, st, joint); /* a simultaneous step */
            else
                g.def->apply(&g, st, joint[__builtin_ctz(m)]);
        }
    }
    assert_true(states > GAMES); /* play went on past the inits */
    free(legal);
    free(buf);
    free(ref);
    free(st);
}

static void test_every_offset_matches_the_narrow_build(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        check_spec(specs[i]);
}

static void test_every_game_at_every_offset(void **state)
{
    (void)state;
    for (int i = 0; i < game_registry_count; i++)
        check_spec(game_registry[i]->name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game_at_every_offset),
        cmocka_unit_test(test_every_offset_matches_the_narrow_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
