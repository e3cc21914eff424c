/* match.h — one tournament game: agents in their seats play a deal to the
 * end, or until one of them fails.
 *
 * The agents are reseeded from the deal seed and their seat before the
 * game (schedule_agent_seed), so a result depends only on the deal, the
 * seating and the agents, never on which worker played it. The moves are
 * kept in a buffer made once per match (no allocation per step), so the
 * journal can record them and any game can be replayed.
 *
 * The agent contract: act returns 0 with a legal action, or an error code.
 * Built-in agents choose among the game's legal actions; the proxy of an
 * external bot must check its bot's answer against the legal actions it
 * sent, and return ERR_ILLEGAL_ACTION (or ERR_TIMEOUT, ERR_IO, ...) when it
 * is not one. An agent that returns an error, or an action id outside the
 * game's range, forfeits: the game stops there and that seat's side ranks
 * last; the other seats keep the order of their returns so far.
 */
#ifndef PARLOR_MATCH_H
#define PARLOR_MATCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "../agents/agent.h"
#include "../engine/game.h"

#define MATCH_REASON_MAX 256 /* forfeit reason, NUL included */

/* A game's outcome. */
struct match_result {
    double ret[GAME_MAX_PLAYERS];  /* returns per seat (so far, on forfeit) */
    int rank[GAME_MAX_PLAYERS];    /* 1 = best; equal returns, equal rank */
    int length;                    /* steps applied */
    int64_t wall_us;               /* wall time of the game (from the
                                    * previous game's end on the same
                                    * match: one clock read a game) */
    uint32_t forfeit;              /* seats that forfeited; 0: normal end */
    uint32_t never_started;        /* seats whose agent never got going:
                                    * missing, or a bot with no hello */
    char reason[MATCH_REASON_MAX]; /* why, when forfeit != 0 */
    int culprit;                   /* the seat reason is about */
    const int *moves; /* action ids applied, borrowed from the match */
    int nmoves;       /* how many: one per step, one per acting seat of a
                       * joint step (in seat order) */
};

/* A worker's table: the game and its buffers. */
struct match {
    const struct game *g; /* borrowed, outlives the match */
    void *st;             /* state, owned */
    int *moves;           /* moves of the game being played, owned */
    int moves_cap;        /* max_length * players entries */
    const atomic_bool *stop; /* when set, match_play gives up between
                              * moves; NULL: never (borrowed) */
    int64_t clock_us;     /* when the last game ended; 0: read afresh */
    void *dealt;          /* the state init gave for dealt_seed, owned */
    uint64_t dealt_seed;  /* its seed */
    bool have_dealt;      /* dealt holds a state */
};

/* Prepares m for g. Returns 0 or ERR_NOMEM. */
int match_init(struct match *m, const struct game *g);

/* Frees what m owns (safe on a zeroed m). */
void match_fini(struct match *m);

/* Plays the deal seeded with seed, agent[seat] acting for each seat (one
 * instance per seat). Seats in missing (bitmask) have no agent (it could
 * not be created; why is in missing_reason) and forfeit at once. Returns 0
 * with *r filled, or ERR_STATE with a message when the game itself goes
 * wrong (init fails, longer than max_length): a bug, not a forfeit, or
 * ERR_INTERRUPTED when m->stop was set before the game ended (the game
 * counts for nothing: it is played again on resume).
 * r->moves lists the moves applied (up to a forfeit) and stays valid until
 * the next match_play on m. The clock is read once per game: r->wall_us
 * runs from the end of m's previous game (so it includes the caller's
 * work in between) unless m->clock_us was set to 0 since. */
int match_play(struct match *m, agent_t *const *agent, uint32_t missing,
               const char *missing_reason, uint64_t seed,
               struct match_result *r, char *err, size_t errlen);

/* Fills r->rank from r->ret and r->forfeit for g's seats (competition
 * ranking: 1 + the number of seats strictly ahead; forfeiting seats and
 * their partners behind all others). */
void match_rank(const struct game *g, struct match_result *r);

/* match_rank for a game of players seats (what a journal reader knows). */
void match_rank_seats(int players, struct match_result *r);

#endif
