/* thirty_one.h — internals shared by the two files of the Thirty-One engine.
 *
 * thirty_one.c holds the rules (deals, turns, knocks, lives, returns,
 * determinization) and the game descriptor; thirty_one_view.c holds what a
 * seat sees (observation tensor, structured view, action names, text).
 * Not a public header: only those two files and the Thirty-One tests
 * include it. The rules, their sources and every decision are in
 * thirty_one.c's header comment.
 */
#ifndef PARLOR_THIRTY_ONE_H
#define PARLOR_THIRTY_ONE_H

#include <stdbool.h>
#include <stdint.h>

#include "../game.h"

#define T31_MAXP 9                       /* most players (thirty_one.md) */
#define T31_TURNS_MAX 200                /* largest max_turns option */
#define T31_HIST_MAX (2 * T31_TURNS_MAX) /* a turn is at most two actions */
#define T31_NO_SEAT 0xff                 /* "nobody" in seat fields */
#define T31_LIVES_MAX 10                 /* largest lives option */

/* Action ids, fixed across states; history codes add T31_H_TAKE + c. */
enum t31_action {
    T31_DRAW,    /* top card of the stock */
    T31_TAKE,    /* top card of the discard pile */
    T31_KNOCK,   /* end the round after one more turn each */
    T31_DISCARD, /* + card id: throw that card */
    T31_NUM_ACTIONS = T31_DISCARD + CARDS_IN_PACK,
    T31_H_TAKE = T31_NUM_ACTIONS, /* history code of "take c" is this + c */
};

/* Option indices, in the order of the option table. */
enum t31_param {
    T31_P_PLAYERS,
    T31_P_LIVES,
    T31_P_COUNTY,
    T31_P_KNOCK_FIRST,
    T31_P_MAX_TURNS,
    T31_P_MAX_ROUNDS,
    T31_NPARAMS,
};

enum t31_phase { T31_PH_DRAW, T31_PH_DISCARD, T31_PH_OVER };

/* How the last round ended (shown in the view's "last_round"). */
enum t31_end {
    T31_END_NONE,
    T31_END_KNOCK,
    T31_END_31,
    T31_END_31_DEAL,
    T31_END_VOID,
};

struct thirty_one_state {
    struct rng rng;               /* deals and reshuffles */
    hand_t hand[T31_MAXP];        /* cards held */
    hand_t known[T31_MAXP];       /* cards seen going from the pile to a hand */
    hand_t shown[T31_MAXP];       /* hands shown at the last round's end */
    hand_t restock;               /* cards reshuffled into the stock, 0: none */
    hand_t piled;                 /* the cards of pile[0..npile) */
    uint8_t stock[CARDS_IN_PACK]; /* the stock is stock[top..52) */
    uint8_t pile[CARDS_IN_PACK];  /* discard pile, pile[npile-1] face up */
    uint8_t hist[T31_HIST_MAX];   /* this round's actions (history codes) */
    int8_t pennies[T31_MAXP];     /* pennies left */
    int8_t lost[T31_MAXP];        /* lives lost at the last round's end */
    uint8_t cap[T31_MAXP];        /* most restock cards hidden in each hand */
    uint16_t nhist;               /* entries in hist */
    uint16_t rounds;              /* rounds finished this episode */
    uint16_t out;                 /* bit per seat out of the game */
    uint8_t top;                  /* index of the stock's next card */
    uint8_t fixed;                /* stock[top..fixed) is drawn in order, the
                                     rest is drawn at random (lazy shuffle) */
    uint8_t npile;                /* cards in the discard pile */
    uint8_t dealer;               /* seat dealing this round */
    uint8_t turn;                 /* seat to act */
    uint8_t phase;                /* enum t31_phase */
    uint8_t knocker;              /* seat that knocked, T31_NO_SEAT if none */
    uint8_t taken;                /* card taken from the pile, else NO_CARD */
    uint8_t turns;                /* turns finished this round */
    uint8_t last_end;             /* enum t31_end of the last round */
};

/* True once seat is out of the game. */
static inline bool thirty_one__is_out(const struct thirty_one_state *st,
                                      int seat)
{
    return (st->out >> seat) & 1;
}

/* The next seat clockwise (up) from seat, of n, still in the game. */
static inline int thirty_one__next_live(const struct thirty_one_state *st,
                                        int seat, int n)
{
    do
        seat = (seat + 1) % n;
    while (thirty_one__is_out(st, seat));
    return seat;
}

/* The set of the n cards in a. */
static inline hand_t thirty_one__cards_of(const uint8_t *a, int n)
{
    hand_t h = 0;
    for (int i = 0; i < n; i++)
        h |= card_bit(a[i]);
    return h;
}

/* The best one-suit total of the cards in h (A 11, J Q K 10, pips). */
int thirty_one__hand_value(hand_t h);

/* Pennies paid into the kitty so far this episode. */
int thirty_one__kitty(const struct game *g, const struct thirty_one_state *st);

/* Floats in the observation tensor for that many players. */
int thirty_one__obs_size(int players);

/* The descriptor's view ops (thirty_one_view.c); see engine/game.h. */
void thirty_one__observe(const struct game *g, const void *st, int seat,
                         float *out);
int thirty_one__obs_layout(const struct game *g, struct obs_segment *out,
                           int max);
int thirty_one__view(const struct game *g, const void *st, int seat,
                     msgpack_packer *pk);
int thirty_one__action_name(const struct game *g, const void *st, int action,
                            char *buf, size_t len);
int thirty_one__describe(const struct game *g, const void *st, int seat,
                         char *buf, size_t len);

/* The keys thirty_one__view packs, NULL-ended. */
extern const char *const thirty_one__view_keys[];

#endif
