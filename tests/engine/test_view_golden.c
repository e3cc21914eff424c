/* test_view_golden.c — the structured views, byte for byte, against
 * checksums recorded from the code before the view path was made fast
 * (issue 17): every option set conformance covers plays a few seeded
 * random games, and every seat's packed view at every point feeds one
 * FNV-1a 64 hash per spec. A faster view must send the same bytes.
 *
 * PARLOR_VIEW_GOLDEN=print prints the table for the current code (the way
 * it was recorded); review any change to it as a change of the protocol. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "engine/conformance.h"
#include "engine/game.h"

#define GAMES_PER_SPEC 3
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

struct golden {
    const char *spec; /* canonical spec */
    uint64_t hash;    /* FNV-1a 64 of all its views */
};

/* Recorded with PARLOR_VIEW_GOLDEN=print before issue 17's changes;
 * NULL-ended. */
static const struct golden golden[] = {
#include "view_golden.inc"
    {NULL, 0},
};

static uint64_t fnv(uint64_t h, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (uint8_t)p[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* Hashes every seat's view of st into *h. */
static void hash_views(const struct game *g, const void *st,
                       msgpack_sbuffer *sb, msgpack_packer *pk, uint64_t *h)
{
    for (int s = 0; s < g->dims.players; s++) {
        msgpack_sbuffer_clear(sb);
        assert_int_equal(game_view(g, st, s, pk), 0);
        *h = fnv(*h, sb->data, sb->size);
    }
}

/* Plays one random game from seed, hashing the views of every point. */
static void play(const struct game *g, uint64_t seed, msgpack_sbuffer *sb,
                 msgpack_packer *pk, uint64_t *h)
{
    const struct game_def *d = g->def;
    void *st = malloc(d->state_size);
    int *buf = malloc(sizeof(int) * (size_t)g->dims.max_legal);
    int act[GAME_MAX_PLAYERS];
    struct rng r;
    uint32_t m;
    assert_non_null(st);
    assert_non_null(buf);
    rng_seed(&r, seed ^ 0x5eed);
    assert_int_equal(game_init(g, st, seed, NULL, 0), 0);
    for (int step = 0;; step++) {
        hash_views(g, st, sb, pk, h);
        if (!(m = d->to_move(g, st)))
            break;
        assert_true(step <= g->dims.max_length);
        for (uint32_t k = m; k; k &= k - 1) {
            int s = __builtin_ctz(k);
            int n = d->legal(g, st, s, buf);
            assert_true(n > 0);
            act[s] = buf[rng_below(&r, (uint32_t)n)];
        }
        if (m & (m - 1))
            assert_int_equal(d->apply_joint(g, st, act), 0);
        else
            assert_int_equal(d->apply(g, st, act[__builtin_ctz(m)]), 0);
    }
    free(buf);
    free(st);
}

static uint64_t spec_hash(const char *spec)
{
    struct game g;
    char err[256];
    msgpack_sbuffer sb;
    msgpack_packer pk;
    uint64_t h = FNV_OFFSET;
    if (game_make(&g, spec, err, sizeof err)) {
        print_error("%s: %s\n", spec, err);
        fail();
    }
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    for (int i = 0; i < GAMES_PER_SPEC; i++)
        play(&g, rng_derive(17, (uint64_t)i), &sb, &pk, &h);
    msgpack_sbuffer_destroy(&sb);
    return h;
}

/* Prints the table for the current code, one line per covered spec. */
static void print_table(void)
{
    char err[256];
    for (int i = 0; i < game_registry_count; i++) {
        struct conformance_combos *c =
            conformance_combos_new(game_registry[i], err, sizeof err);
        assert_non_null(c);
        for (int k = 0; k < c->n; k++)
            printf("    {\"%s\", 0x%016llxull},\n", c->combo[k].spec,
                   (unsigned long long)spec_hash(c->combo[k].spec));
        conformance_combos_destroy(&c);
    }
}

static void test_views_match_golden(void **state)
{
    (void)state;
    const char *mode = getenv("PARLOR_VIEW_GOLDEN");
    int bad = 0;
    if (mode && !strcmp(mode, "print")) {
        print_table();
        return;
    }
    for (size_t i = 0; golden[i].spec; i++) {
        uint64_t h = spec_hash(golden[i].spec);
        if (h != golden[i].hash) {
            print_error("%s: views hash 0x%016llx, recorded 0x%016llx\n",
                        golden[i].spec, (unsigned long long)h,
                        (unsigned long long)golden[i].hash);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Every registered game is covered by at least its defaults. */
static void test_every_game_has_a_golden(void **state)
{
    (void)state;
    for (int i = 0; i < game_registry_count; i++) {
        struct game g;
        char err[256];
        int found = 0;
        assert_int_equal(game_make(&g, game_registry[i]->name, err,
                                   sizeof err),
                         0);
        for (size_t k = 0; golden[k].spec; k++)
            found |= !strcmp(golden[k].spec, g.spec);
        if (!found)
            print_error("%s: no recorded view hash\n", g.spec);
        assert_true(found);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game_has_a_golden),
        cmocka_unit_test(test_views_match_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
