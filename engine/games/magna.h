/* magna.h — the Magna engine's shared state and internals.
 *
 * The rules (deal, bidding, naming, discards, play, scoring) live in
 * magna.c; the seat's views (tensor, structured view, names, text) and
 * determinization in magna_view.c. Only magna_game (game.h registry) is
 * public; the magna__ functions here are the engine's own. Cards are
 * LOCAL ids 0..51: the Trix pack ids 15..65 (5-0 .. 10-10) less 15, and
 * 51 for Trixie, so a hand fits one hand_t word.
 */
#ifndef PARLOR_MAGNA_H
#define PARLOR_MAGNA_H

#include "../game.h"
#include "../trix_pack.h"

#define MAGNA_MAXP 5
#define MAGNA_CARDS 52                         /* Fives..Tens and Trixie */
#define MAGNA_TRIXIE 51                        /* Trixie's local id */
#define MAGNA_ALL ((hand_t)0xfffffffffffffull) /* the 52 local ids */
#define MAGNA_DEALT 10                         /* cards dealt to each */
#define MAGNA_DISCARDS 4                       /* laid aside face up */
#define MAGNA_SETS 6                           /* sets played */
#define MAGNA_MAX_BID 9
#define MAGNA_HIST (MAGNA_MAXP * 11 + 1)       /* a deal's actions */
#define MAGNA_NO_SEAT 0xff

enum magna_action {
    MAGNA_A_PLAY = 0,                       /* + local card id */
    MAGNA_A_DISCARD = MAGNA_CARDS,          /* + local card id */
    MAGNA_A_PASS = 2 * MAGNA_CARDS,         /* "I'll not bid" */
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

/* The points of a deal, in precedence order (G7). */
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
    uint8_t n;                       /* players */
    uint8_t partners;                /* four players in two sides */
    uint8_t teams;                   /* sides */
    uint8_t variation;               /* the book's Variation in Scoring */
    uint8_t target;                  /* each side's starting score */
    uint16_t max_deals;              /* E7 cap: deals before a draw */
    uint16_t deal_no;                /* deals finished */
    uint8_t phase;                   /* enum magna_phase */
    uint8_t turn;                    /* seat to act */
    uint8_t dealer;                  /* seat dealing */
    uint8_t bidder;                  /* highest bidder, or MAGNA_NO_SEAT */
    uint8_t bid;                     /* the highest bid, 0 if none */
    uint8_t honor;                   /* honor suit 5..10, 0 before naming */
    uint8_t leader;                  /* seat leading the current set */
    uint8_t ntrick;                  /* cards in the current set */
    uint8_t nsets;                   /* sets finished */
    uint8_t best;                    /* index in trick[] of the winner */
    uint8_t best_key;                /* its key */
    int8_t lead_suit;                /* suit to follow, -1 after Trixie */
    uint8_t trixie_winner;           /* seat that won Trixie, or none */
    uint8_t game_winner;             /* seat that won the Game card */
    uint8_t victor;                  /* winning side, or MAGNA_NO_SEAT */
    uint8_t nhist;                   /* entries in hist */
    uint8_t last_made;               /* last deal: 1 bid made, 0 failed */
    uint8_t deck_fixed;              /* deck[..deck_fixed) is a given prefix */
    uint8_t trick[MAGNA_MAXP];       /* current set's cards in play order */
    int8_t bids[MAGNA_MAXP];         /* each seat's bid, 0 pass, -1 none */
    uint8_t last[MAGNA_NPOINTS][MAGNA_MAXP]; /* last deal: points by side */
    int16_t score[MAGNA_MAXP];       /* each side's score (index: side) */
    hand_t hand[MAGNA_MAXP];         /* cards held */
    hand_t discard[MAGNA_MAXP];      /* cards laid aside */
    hand_t played[MAGNA_MAXP];       /* cards each seat played this deal */
    hand_t won[MAGNA_MAXP];          /* cards in the sets each seat won */
    hand_t cant[MAGNA_MAXP];         /* cards publicly known not held */
    hand_t table;                    /* cards in the current set */
    struct rng rng;                  /* later deals */
    uint8_t deck[MAGNA_CARDS];       /* a permutation of the local ids */
    uint8_t hist[MAGNA_HIST][2];     /* this deal's [seat, action] */
};

/* Local card facts. */
static inline int magna_suit(int c)
{
    return c < 6 ? 5 : c < 13 ? 6 : c < 21 ? 7 : c < 30 ? 8 : c < 40 ? 9
                   : c < 51   ? 10
                              : -1;
}
static inline int magna_suit_first(int s)
{
    static const uint8_t first[11] = {0, 0, 0, 0, 0, 0, 6, 13, 21, 30, 40};
    return first[s];
}
/* Every card of suit s (5..10). */
static inline hand_t magna_suit_mask(int s)
{
    return (((hand_t)1 << (s + 1)) - 1) << magna_suit_first(s);
}
/* a + b of a-b; 0 for Trixie. */
static inline int magna_sum(int c)
{
    int s = magna_suit(c);
    return s < 0 ? 0 : s + c - magna_suit_first(s);
}
/* The local id of a-b. */
static inline int magna_card(int a, int b)
{
    return magna_suit_first(a) + b;
}
static inline int magna_trix_id(int c)
{
    return c == MAGNA_TRIXIE ? TRIX_TRIXIE : c + 15;
}
static inline int magna_local(int id)
{
    return id == TRIX_TRIXIE ? MAGNA_TRIXIE : id >= 15 && id <= 65 ? id - 15
                                                                   : -1;
}
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
