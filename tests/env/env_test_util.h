/* env_test_util.h — shared by the env and venv suites: the list of specs
 * to cover (every registered game and its declared test specs), a seeded
 * action picker, and "pennies", a tiny simultaneous-move game defined here
 * because no registered game moves simultaneously yet.
 *
 * Pennies, for two seats, four rounds. Rounds 0, 1 and 3 are simultaneous:
 * both seats show 0 or 1 and seat 0 scores a point when they match, seat 1
 * when they differ. In round 1 seat 1 may only show 1. Round 2 is seat 1's
 * alone: showing 1 scores it a point, 0 scores nothing. Returns are the
 * score difference (own minus other's). The observation of a seat is
 * {round, own score, other's score, seat}. There is no chance at all.
 */
#ifndef PARLOR_ENV_TEST_UTIL_H
#define PARLOR_ENV_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

#include "common/rng.h"
#include "engine/game.h"

#define PENNIES_ROUNDS 4

struct pennies {
    int round;    /* rounds played */
    int score[2]; /* points per seat */
};

static int pennies_init(const struct game *g, void *st, uint64_t seed,
                        const uint8_t *deck, int ndeck)
{
    (void)g, (void)seed, (void)deck, (void)ndeck;
    memset(st, 0, sizeof(struct pennies));
    return 0;
}

static uint32_t pennies_to_move(const struct game *g, const void *st)
{
    const struct pennies *p = st;
    (void)g;
    if (p->round >= PENNIES_ROUNDS)
        return 0;
    return p->round == 2 ? 2u : 3u;
}

static int pennies_legal(const struct game *g, const void *st, int seat,
                         int *out)
{
    const struct pennies *p = st;
    if (!((pennies_to_move(g, st) >> seat) & 1))
        return 0;
    if (p->round == 1 && seat == 1) {
        out[0] = 1;
        return 1;
    }
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static int pennies_apply(const struct game *g, void *st, int action)
{
    struct pennies *p = st;
    (void)g;
    p->score[1] += action;
    p->round++;
    return 0;
}

static int pennies_apply_joint(const struct game *g, void *st,
                               const int *actions)
{
    struct pennies *p = st;
    (void)g;
    p->score[actions[0] == actions[1] ? 0 : 1]++;
    p->round++;
    return 0;
}

static void pennies_returns(const struct game *g, const void *st, double *out)
{
    const struct pennies *p = st;
    (void)g;
    out[0] = p->score[0] - p->score[1];
    out[1] = p->score[1] - p->score[0];
}

static void pennies_observe(const struct game *g, const void *st, int seat,
                            float *out)
{
    const struct pennies *p = st;
    (void)g;
    out[0] = (float)p->round;
    out[1] = (float)p->score[seat];
    out[2] = (float)p->score[1 - seat];
    out[3] = (float)seat;
}

static const struct game_def pennies_def = {
    .name = "pennies",
    .long_name = "Pennies (test only)",
    .api_version = GAME_API_VERSION,
    .flags = GAME_SIMULTANEOUS | GAME_ZERO_SUM,
    .state_size = sizeof(struct pennies),
    .init = pennies_init,
    .to_move = pennies_to_move,
    .legal = pennies_legal,
    .apply = pennies_apply,
    .apply_joint = pennies_apply_joint,
    .returns = pennies_returns,
    .observe = pennies_observe,
};

/* Fills g with the configured pennies game, by hand (it is not in the
 * registry, so game_make cannot build it). */
static inline void pennies_game(struct game *g)
{
    memset(g, 0, sizeof *g);
    g->def = &pennies_def;
    g->dims.players = 2;
    g->dims.teams = 2;
    g->dims.team[1] = 1;
    g->dims.num_actions = 2;
    g->dims.max_legal = 2;
    g->dims.obs_size = 4;
    g->dims.obs_high = PENNIES_ROUNDS;
    g->dims.max_length = PENNIES_ROUNDS;
    g->dims.ret_low = -PENNIES_ROUNDS;
    g->dims.ret_high = PENNIES_ROUNDS;
    strcpy(g->spec, "pennies");
}

#define MAX_SPECS 64

/* Fills out with every registered game's name (its default spec) and its
 * declared test specs; returns how many. */
static inline int registry_specs(const char **out, int max)
{
    int n = 0;
    for (int i = 0; i < game_registry_count && n < max; i++) {
        const struct game_def *d = game_registry[i];
        out[n++] = d->name;
        for (const char *const *t = d->test_specs; t && *t && n < max; t++)
            out[n++] = *t;
    }
    return n;
}

/* Picks one of the actions set in mask (words words) uniformly with r;
 * -1 if none is set. */
static inline int pick_action(struct rng *r, const uint64_t *mask, int words)
{
    return rng_pick_bit(r, mask, words);
}

#endif
