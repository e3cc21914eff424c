/* my_bird_sings.h — internals shared by the two files of the My Bird Sings
 * engine.
 *
 * my_bird_sings.c holds the rules (deals, songs, passing, the exchange,
 * chips, determinization) and the game descriptor; my_bird_sings_view.c
 * holds what a seat sees (observation tensor, structured view, action
 * names, text). Not a public header: only those two files include it. The
 * rules, their sources and every decision are in my_bird_sings.c's header
 * comment.
 */
#ifndef PARLOR_MY_BIRD_SINGS_H
#define PARLOR_MY_BIRD_SINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "../game.h"

#define MBS_MAXP 13      /* most players (full pack) */
#define MBS_HIST 32      /* actions of the deal kept for the view */
#define MBS_MAX_SONGS 18 /* tricks a deal can hold: 52 / 3, rounded up */

/* Option indices, in the order of the option table. */
enum mbs_opt {
    MBS_P_PLAYERS,
    MBS_P_PACK,
    MBS_P_METHOD,
    MBS_P_FLUSHES_ONLY,
    MBS_P_THREE_CARDS,
    MBS_P_UNTIL_EXHAUSTED,
    MBS_P_EXCHANGE,
    MBS_P_MAX_CIRCUITS,
    MBS_P_DEALS,
    MBS_P_COUNT
};

/* Action ids, fixed across states. */
enum mbs_action {
    MBS_A_THROW = 0,         /* + card: pass it to the left */
    MBS_A_EXCHANGE = 52,     /* + card: put it out, draw from the stock */
    MBS_A_NO_EXCHANGE = 104, /* the leader declines the exchange */
    MBS_A_DRAW = 105,        /* draw blind from the right neighbour */
    MBS_A_SING = 106,        /* "My Bird sings" */
    MBS_NUM_ACTIONS = 107
};

/* What the seat to act does (the order of the tensor's phase segment). */
enum mbs_phase {
    MBS_PH_SING,
    MBS_PH_EXCHANGE,
    MBS_PH_THROW,
    MBS_PH_DRAW,
    MBS_PH_OVER
};

/* One action of the deal, for the view. */
struct mbs_hist_entry {
    uint8_t seat;   /* who acted */
    uint8_t action; /* action id (throw and exchange with their card) */
    uint8_t card;   /* card drawn blind, NO_CARD otherwise */
};

struct mbs_state {
    struct rng rng;               /* deals and blind draws */
    hand_t hand[MBS_MAXP];        /* cards held */
    hand_t seen[MBS_MAXP];        /* cards each seat has held this deal */
    hand_t dead;                  /* out of play, face up */
    hand_t song;                  /* the last song's cards (public) */
    uint8_t stock[CARDS_IN_PACK]; /* the pack after the deal */
    uint8_t top, npack;           /* next stock card; cards in the pack */
    uint8_t sent[MBS_MAXP];       /* card passed left and surely still
                                     held there, NO_CARD if none */
    uint8_t tricks[MBS_MAXP];     /* songs this deal (until_exhausted) */
    int16_t chips[MBS_MAXP];      /* net chips so far */
    int16_t staked[MBS_MAXP];     /* chips each seat has in the pool */
    int16_t pool;                 /* chips in the pool */
    uint8_t dealer, actor;        /* this deal's dealer; seat to act */
    uint8_t phase, resume;        /* enum mbs_phase; what a song
                                     interrupted (my_bird_sings.c) */
    uint8_t scan;                 /* hands checked after the deal */
    uint8_t circuits;             /* times the turn came back to the
                                     leader this deal */
    uint8_t exchanged;            /* leader decided this circuit */
    uint8_t deals;                /* deals finished */
    int8_t song_seat;             /* who sang last, -1 if nobody */
    uint16_t nhist;               /* actions this deal */
    struct mbs_hist_entry hist[MBS_HIST]; /* ring: entry i at i % MBS_HIST */
};

static inline int mbs_players(const struct game *g)
{
    return g->dims.players;
}

static inline int mbs_opt(const struct game *g, enum mbs_opt o)
{
    return (int)g->params.v[o];
}

/* The seat to the left (clockwise). */
static inline int mbs_next(const struct game *g, int s)
{
    return (s + 1) % mbs_players(g);
}

/* The seat to the right. */
static inline int mbs_prev(const struct game *g, int s)
{
    return (s + mbs_players(g) - 1) % mbs_players(g);
}

/* The original leader: the dealer's left. */
static inline int mbs_leader(const struct game *g, const struct mbs_state *st)
{
    return mbs_next(g, st->dealer);
}

static inline int mbs_stock_left(const struct mbs_state *st)
{
    return st->npack - st->top;
}

/* Cards seat has held this deal and passed on (they are in other hands). */
static inline hand_t mbs_passed_on(const struct mbs_state *st, int seat)
{
    return st->seen[seat] & ~st->hand[seat] & ~st->dead;
}

/* ---- my_bird_sings_view.c: the game_def ops of what a seat sees -------- */

extern const char *const my_bird_sings__view_keys[];

void my_bird_sings__observe(const struct game *g, const void *st, int seat,
                            float *out);
int my_bird_sings__obs_layout(const struct game *g, struct obs_segment *out,
                              int max);
int my_bird_sings__view(const struct game *g, const void *st, int seat,
                        msgpack_packer *pk);
int my_bird_sings__action_name(const struct game *g, const void *st, int action,
                               char *buf, size_t len);
int my_bird_sings__describe(const struct game *g, const void *st, int seat,
                            char *buf, size_t len);

#endif
