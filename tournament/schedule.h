/* schedule.h — which games a tournament plays: line-ups, duplicate deals,
 * rotations, shards.
 *
 * A game has `sides`: its teams (dims.teams), one per seat when there are no
 * partnerships. A line-up is one agent per side; in a partnership game the
 * side's agent sits in every seat of that team. With n agents and m sides:
 *  - n >= m: every combination of m different agents (in ascending agent
 *    order); when there are more than max_lineups, each deal plays a
 *    balanced sample of max_lineups instead, drawn from the deal's own seed:
 *    a stream of random permutations of the agents cut into blocks of m, so
 *    that within a deal every agent gets the same number of places, give or
 *    take one, and no agent appears twice in a line-up;
 *  - n < m: every non-decreasing sequence of m agents that uses all n (for
 *    2 agents and 4 seats: AAAB AABB ABBB); agents fill several seats.
 * Every line-up plays every deal (a deal is a seed) m times, rotated: in
 * rotation r, side t is played by line-up place (t - r) mod m, so every
 * place meets every side's cards (both seats for two players, every cyclic
 * rotation for m sides, the team swap for two partnerships).
 *
 * Game index = ((deal * lineups) + lineup) * sides + rotation. Shard i of n
 * (1-based) plays the line-up sets with (index / sides) mod n == i - 1, so a
 * deal's rotations of one line-up stay together.
 */
#ifndef PARLOR_SCHEDULE_H
#define PARLOR_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/game.h"

#define SCHEDULE_DEALS_MAX 1000000000LL /* deals in one tournament */
#define SCHEDULE_LINEUPS_MAX 100000     /* line-ups per deal */
#define SCHEDULE_GAMES_MAX (1LL << 34)  /* games (a bit each to track) */

struct schedule {
    int agents;                       /* n */
    int seats;                        /* dims.players */
    int sides;                        /* m: dims.teams */
    int8_t side_of[GAME_MAX_PLAYERS]; /* seat -> side (dims.team) */
    int64_t deals;                    /* deals (seeds 0..deals-1) */
    int lineups;                      /* line-ups per deal */
    bool sampled;                     /* a fresh sample per deal */
    int8_t *lineup;                   /* !sampled: lineups x sides agents,
                                         owned */
    uint64_t seed;                    /* the tournament's master seed */
    int64_t games;                    /* deals * lineups * sides */
};

/* What each reader keeps between calls: a sampled schedule's line-ups
 * of one deal, and where the last game it asked for is (the next index is
 * then worked out by counting on, without dividing). */
struct schedule_cursor {
    int64_t deal;          /* deal whose line-ups lineup holds; -1: none */
    int8_t *lineup;        /* lineups x sides agents, owned */
    int64_t after;         /* index after the last game asked for; -1 */
    int64_t last_deal;     /* that game's deal, */
    int last_lineup;       /* line-up, */
    int last_rotation;     /* rotation */
    uint64_t last_seed;    /* and deal seed */
};

/* One game of the schedule. */
struct schedule_game {
    int64_t index;                  /* its game index */
    int64_t deal;                   /* deal number */
    int lineup, rotation;           /* line-up in the deal, rotation */
    uint64_t seed;                  /* the deal's seed */
    int8_t agent[GAME_MAX_PLAYERS]; /* seat -> agent index */
};

/* Builds the schedule of n agents over deals deals of game g, at most
 * max_lineups line-ups per deal. Returns 0, or ERR_INVAL / ERR_RANGE /
 * ERR_NOMEM with a message. */
int schedule_init(struct schedule *s, const struct game *g, int agents,
                  int64_t deals, int max_lineups, uint64_t seed, char *err,
                  size_t errlen);

/* Frees what s owns (safe on a zeroed s). */
void schedule_fini(struct schedule *s);

/* Prepares c for s. Returns 0 or ERR_NOMEM. */
int schedule_cursor_init(struct schedule_cursor *c, const struct schedule *s);

/* Frees what c owns (safe on a zeroed c). */
void schedule_cursor_fini(struct schedule_cursor *c);

/* Describes game index (0 <= index < s->games) into out; c caches a
 * sampled deal's line-ups and the last game asked for (it may be NULL
 * when !s->sampled; games asked for in index order are found fastest). */
void schedule_game(const struct schedule *s, struct schedule_cursor *c,
                   int64_t index, struct schedule_game *out);

/* The game index of (deal, lineup, rotation), or -1 if out of range. */
int64_t schedule_index(const struct schedule *s, int64_t deal, int lineup,
                       int rotation);

/* True when game index belongs to shard (1..nshards) of nshards. */
bool schedule_in_shard(const struct schedule *s, int64_t index, int shard,
                       int nshards);

/* The seed of deal number deal. */
uint64_t schedule_deal_seed(uint64_t master, int64_t deal);

/* The seed an agent sitting in seat is reseeded with in a game whose deal
 * seed is deal_seed (so results do not depend on the worker). */
uint64_t schedule_agent_seed(uint64_t deal_seed, int seat);

#endif
