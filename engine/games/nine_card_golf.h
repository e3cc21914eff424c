/* nine_card_golf.h — the Square 9 (Nine-Card Golf) engine's state and
 * constants, shared by nine_card_golf.c and the tests that check the facts
 * apply keeps in the state against a count from scratch. Only
 * nine_card_golf_game (game.h registry) is public.
 * Rules and decisions: see the header comment of nine_card_golf.c.
 */
#ifndef PARLOR_NINE_CARD_GOLF_H
#define PARLOR_NINE_CARD_GOLF_H

#include <stdint.h>

#include "../cards.h"
#include "../multipack.h"

#define G9_SEATS 8  /* most players */
#define G9_DECKS 5  /* most decks (G1 gives 5 for 8) */
#define G9_JOKERS 2 /* jokers in each deck */
#define G9_DECK (CARDS_IN_PACK + G9_JOKERS)
#define G9_CARDS (G9_DECKS * G9_DECK)
#define G9_POS 9          /* layout positions */
#define G9_ALL_DOWN 0x1ff /* all nine positions face down */
#define G9_NONE 0xff      /* no sideways card yet */
#define G9_HIST 48        /* actions kept for the view */
#define G9_RANKS 14       /* A..K, then the joker */
#define G9_MIN_HOLE (-18) /* nine jokers */
#define G9_MAX_HOLE 90    /* nine ten-point cards, no line */

/* A position's 16 tensor entries as bits: the rank one-hot (bits 0..13),
 * face down (bit 14), sideways (bit 15). */
#define G9_DOWN_BIT (1u << G9_RANKS)
#define G9_SIDE_BIT (1u << (G9_RANKS + 1))

enum {
    ACT_EXPOSE = 0,
    ACT_REPLACE = 9,
    ACT_DRAW = 18,
    ACT_TAKE = 19,
    ACT_DISCARD = 20,
    G9_ACTIONS = 21
};

enum { PH_EXPOSE, PH_SOURCE, PH_PLACE_DRAWN, PH_PLACE_TAKEN, PH_OVER };

/* What observe reads comes first, so that it shares a few cache lines. */
struct g9_state {
    uint8_t held;                   /* card in the mover's hand, NO_CARD */
    uint8_t phase;                  /* PH_* */
    uint8_t seat;                   /* seat to act */
    uint8_t dealer;                 /* dealer of this hole */
    int8_t finisher;                /* seat that exposed all, -1 none */
    uint8_t hole;                   /* holes finished (scored or void) */
    uint16_t nstock;                /* cards in the stock */
    uint16_t turns;                 /* turns finished this hole */
    uint16_t top;                   /* one-hot of the top discard's rank,
                                       0 when the pile is empty */
    float counts[3];                /* stock, holes and turns as the
                                       tensor shows them */
    float drank[G9_RANKS];          /* ndrank[r] steps (1/copies of r in
                                       the pack) added one by one, as the
                                       tensor shows them */
    float totf[2 * G9_SEATS];       /* seat s's total as the tensor shows
                                       it, at s and s + players */
    uint16_t lay[2 * G9_SEATS][G9_POS]; /* each position's tensor bits
                                       (G9_DOWN_BIT ...), kept by apply:
                                       seat s's at s and s + players */
    struct rng rng;                 /* every shuffle after init */
    int16_t total[G9_SEATS];        /* points over the holes scored */
    int16_t last[G9_SEATS];         /* points of the last hole scored */
    uint16_t down[G9_SEATS];        /* bit p: position p is face down */
    uint16_t ndisc;                 /* cards in the discard pile */
    uint16_t nhist;                 /* actions this hole */
    uint8_t grid[G9_SEATS][G9_POS]; /* faces in each layout */
    uint8_t side[G9_SEATS];         /* sideways position, G9_NONE before */
    uint8_t left;                   /* last-round turns still to play */
    uint8_t voids;                  /* holes voided by the cap */
    uint8_t reshuffled;             /* 1 once this hole's stock was rebuilt */
    uint8_t ndrank[G9_RANKS];       /* discards of each rank */
    uint8_t stock[G9_CARDS];        /* faces; the top is stock[nstock-1] */
    uint8_t disc[G9_CARDS];         /* faces; the top is disc[ndisc-1] */
    uint8_t hist[G9_HIST][3];       /* ring: seat, action, card named */
};

/* Rank index 0..12 (ace..king), 13 for the joker. */
static inline int g9_face_rank(int f)
{
    return f == MULTIPACK_JOKER ? 13 : f % 13;
}

#endif
