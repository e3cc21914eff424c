/* magna.h — the Magna engine's shared state and internals.
 *
 * The rules (deal, bidding, naming, discards, play, scoring) live in
 * magna.c; the seat's views (tensor, structured view, names, text) and
 * determinization in magna_view.c. Only magna_game (game.h registry) is
 * public; the magna__ functions here are the engine's own. Cards are the
 * LOCAL ids 0..51 of engine/trick.h (Trix ids 15..65 less 15, Trixie 51),
 * shared with Hilo, so a hand fits one hand_t word; the set in play is
 * trick.h's ft_table.
 */
#ifndef PARLOR_MAGNA_H
#define PARLOR_MAGNA_H

#include "../game.h"
#include "../trick.h"

#define MAGNA_MAXP 5
#define MAGNA_DEALT 10                         /* cards dealt to each */
#define MAGNA_DISCARDS 4                       /* laid aside face up */
#define MAGNA_SETS 6                           /* sets played */
#define MAGNA_MAX_BID 9
#define MAGNA_HIST (MAGNA_MAXP * 11 + 1)       /* a deal's actions */
#define MAGNA_NO_SEAT 0xff

enum magna_action {
    MAGNA_A_PLAY = 0,                       /* + local card id */
    MAGNA_A_DISCARD = FT_CARDS,          /* + local card id */
    MAGNA_A_PASS = 2 * FT_CARDS,         /* "I'll not bid" */
    MAGNA_A_BID,                            /* + bid - 1 (bids 1..9) */
    MAGNA_A_NAME = MAGNA_A_BID + MAGNA_MAX_BID, /* + suit - 5 */
    MAGNA_NUM_ACTIONS = MAGNA_A_NAME + 6,
};

enum magna_phase {
    MAGNA_PH_BID,     /* one bid or pass each, from the eldest */
    MAGNA_PH_NAME,    /* the bidder names the honor suit */
    MAGNA_PH_DISCARD, /* each lays aside four cards, hidden till all have */
    MAGNA_PH_PLAY,    /* six sets */
    MAGNA_PH_OVER,
    MAGNA_NPHASES,
};

/* The points of a deal, in precedence order. */
enum magna_point {
    MAGNA_P_HIGH,
    MAGNA_P_LOW,
    MAGNA_P_TRIXIE,
    MAGNA_P_GAME,
    MAGNA_P_HIGH_GAME,
    MAGNA_P_LOW_GAME,
    MAGNA_P_SANTA,
    MAGNA_P_MAGNA,
    MAGNA_NPOINTS,
};

struct magna_state {
    uint8_t partners;                /* four players in two sides */
    uint8_t teams;                   /* sides */
    uint8_t variation;               /* the book's Variation in Scoring */
    uint8_t target;                  /* each side's starting score */
    uint16_t max_deals;              /* cap: deals before a draw */
    uint16_t deal_no;                /* deals finished */
    uint8_t phase;                   /* enum magna_phase */
    uint8_t dealer;                  /* seat dealing */
    uint8_t bidder;                  /* highest bidder, or MAGNA_NO_SEAT */
    uint8_t bid;                     /* the highest bid, 0 if none */
    uint8_t nsets;                   /* sets finished */
    uint8_t trixie_winner;           /* seat that won Trixie, or none */
    uint8_t game_winner;             /* seat that won the Game card */
    uint8_t victor;                  /* winning side, or MAGNA_NO_SEAT */
    uint8_t nhist;                   /* entries in hist */
    uint8_t last_made;               /* last deal: 1 bid made, 0 failed */
    uint8_t deck_fixed;              /* deck[..deck_fixed) is a given prefix */
    int8_t bids[MAGNA_MAXP];         /* each seat's bid, 0 pass, -1 none */
    uint8_t last[MAGNA_NPOINTS][MAGNA_MAXP]; /* last deal: points by side */
    int16_t score[MAGNA_MAXP];       /* each side's score (index: side) */
    /* Kept by apply for the tensor; the seats' hold seat s's at s and at
     * s + players, so that a seat's view of them all is one copy: */
    uint16_t passed;                 /* bits of the seats that passed */
    float deal_f;                    /* deal_no / max_deals */
    float bid_f[2 * MAGNA_MAXP];     /* a seat's bid / 9 (0: none, pass) */
    float score_f[2 * MAGNA_MAXP];   /* its side's score / (2 target),
                                        clipped to [0, 1] */
    struct ft_table tb;              /* players, hands, the set in play */
    hand_t discard[MAGNA_MAXP];      /* cards laid aside */
    hand_t won[MAGNA_MAXP];          /* cards in the sets each seat won */
    struct rng rng;                  /* later deals */
    uint8_t deck[FT_CARDS];       /* a permutation of the local ids */
    uint8_t hist[MAGNA_HIST][2];     /* this deal's [seat, action] */
};

static inline int magna_side(const struct magna_state *st, int s)
{
    return st->partners ? s & 1 : s;
}
/* True while others' discards are still face down. */
static inline bool magna_discards_hidden(const struct magna_state *st)
{
    return st->phase <= MAGNA_PH_DISCARD;
}

/* The keys magna__view packs, NULL-ended. */
extern const char *const magna__view_keys[];

/* Floats in the observation tensor of an n-player game. */
int magna__obs_size(int n);

/* The game_def ops of magna_view.c (see game.h for each contract). */
void magna__observe(const struct game *g, const void *st, int seat,
                    float *out);
int magna__obs_layout(const struct game *g, struct obs_segment *out, int max);
int magna__view(const struct game *g, const void *st, int seat,
                msgpack_packer *pk);
int magna__action_name(const struct game *g, const void *st, int a,
                       char *buf, size_t len);
void magna__determinize(const struct game *g, void *st, int seat,
                        struct rng *rng);
int magna__describe(const struct game *g, const void *st, int seat,
                    char *buf, size_t len);

#endif
