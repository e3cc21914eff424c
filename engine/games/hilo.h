/* hilo.h — the Hilo engine's shared state and internals.
 *
 * The rules (deal, "another deal", play, scoring) live in hilo.c; the
 * seat's views (tensor, structured view, names, text) and determinization
 * in hilo_view.c. Only hilo_game (game.h registry) is public; the hilo__
 * functions here are the engine's own. Cards are LOCAL ids 0..51: the
 * Trix pack ids 15..65 (5-0 .. 10-10) less 15, and 51 for Trixie, so a
 * hand fits one hand_t word.
 */
#ifndef PARLOR_HILO_H
#define PARLOR_HILO_H

#include "../game.h"
#include "../trix_pack.h"

#define HILO_MAXP 4
#define HILO_CARDS 52                       /* Fives..Tens and Trixie */
#define HILO_TRIXIE 51                      /* Trixie's local id */
#define HILO_ALL ((hand_t)0xfffffffffffffull) /* the 52 local ids */
#define HILO_HAND 6                         /* cards dealt at first */
#define HILO_MORE 3                         /* cards of "another deal" */
#define HILO_MAX_REDEALS 3                  /* full redeals a deal allows */
#define HILO_HIST 160                       /* actions kept for views */
#define HILO_NO_SEAT 0xff
#define HILO_GAME_POINTS 20                 /* game points in the pack */

enum hilo_action {
    HILO_A_PLAY = 0,               /* + local card id */
    HILO_A_STAND = HILO_CARDS,     /* eldest keeps the deal */
    HILO_A_BEG,                    /* eldest: "another deal" */
    HILO_A_GIVE,                   /* dealer: give one point */
    HILO_A_DEAL,                   /* dealer: deal three more each */
    HILO_NUM_ACTIONS,
};

enum hilo_phase {
    HILO_PH_BEG,    /* eldest: stand or ask for another deal */
    HILO_PH_DEALER, /* dealer: give a point or deal three more */
    HILO_PH_PLAY,   /* play a card */
    HILO_PH_OVER,
    HILO_NPHASES,
};

/* The four points of a deal, in precedence order (G4). */
enum hilo_point { HILO_P_HIGH, HILO_P_LOW, HILO_P_TRIXIE, HILO_P_GAME, HILO_NPOINTS };

struct hilo_state {
    uint8_t n;                  /* players */
    uint8_t partners;           /* four players in two sides */
    uint8_t beg_allowed;        /* option another_deal */
    uint8_t target;             /* points that win */
    uint16_t max_deals;         /* E7 cap: deals before a draw */
    uint16_t deal_no;           /* deals finished */
    uint8_t phase;              /* enum hilo_phase */
    uint8_t turn;               /* seat to act */
    uint8_t dealer;             /* seat dealing */
    uint8_t leader;             /* seat leading the current set */
    uint8_t ntrick;             /* cards in the current set */
    uint8_t best;               /* index in trick[] of the winning card */
    uint8_t best_key;           /* its key */
    int8_t lead_suit;           /* suit to follow, -1 after a Trixie lead */
    uint8_t honor;              /* honor suit, 5..10 */
    uint8_t turnup;             /* the card turned for honors */
    uint8_t begged_suit;        /* suit the eldest refused, or 0 */
    uint8_t redeals;            /* full redeals this deal */
    uint8_t trixie_turned;      /* Trixie turn-ups scored this deal */
    uint8_t trixie_winner;      /* seat that won Trixie, or HILO_NO_SEAT */
    uint8_t victor;             /* winning side, or HILO_NO_SEAT */
    uint8_t nhist;              /* entries in hist */
    uint8_t trick[HILO_MAXP];   /* current set's cards in play order */
    uint8_t gpts[HILO_MAXP];    /* game points taken in sets this deal */
    uint8_t score[HILO_MAXP];   /* each side's points (index: side) */
    uint8_t last[HILO_NPOINTS]; /* last deal: seat that took each point */
    uint8_t deck_pos;           /* deck[deck_pos..] is the stock */
    uint8_t deck_fixed;         /* deck[..deck_fixed) keeps its order */
    hand_t hand[HILO_MAXP];     /* cards held */
    hand_t played[HILO_MAXP];   /* cards each seat played this deal */
    hand_t cant[HILO_MAXP];     /* cards publicly known not to be held */
    hand_t table;               /* cards in the current set */
    struct rng rng;             /* shuffles and later deals */
    uint8_t deck[HILO_CARDS];   /* a permutation of the local ids */
    uint8_t hist[HILO_HIST][2]; /* this deal's [seat, action] */
};

/* Local card facts. */
static inline int hilo_suit(int c)
{
    return c < 6 ? 5 : c < 13 ? 6 : c < 21 ? 7 : c < 30 ? 8 : c < 40 ? 9
                   : c < 51   ? 10
                              : -1;
}
static inline int hilo_suit_first(int s)
{
    static const uint8_t first[11] = {0, 0, 0, 0, 0, 0, 6, 13, 21, 30, 40};
    return first[s];
}
/* Every card of suit s (5..10). */
static inline hand_t hilo_suit_mask(int s)
{
    return (((hand_t)1 << (s + 1)) - 1) << hilo_suit_first(s);
}
/* a + b of a-b; 0 for Trixie. */
static inline int hilo_sum(int c)
{
    int s = hilo_suit(c);
    return s < 0 ? 0 : s + c - hilo_suit_first(s);
}
/* The Trix pack id of local card c, and back (-1 outside the 52). */
static inline int hilo_trix_id(int c)
{
    return c == HILO_TRIXIE ? TRIX_TRIXIE : c + 15;
}
static inline int hilo_local(int id)
{
    return id == TRIX_TRIXIE ? HILO_TRIXIE : id >= 15 && id <= 65 ? id - 15
                                                                  : -1;
}
/* Game points of a card (sum 5: 4, 10: 1, 15: 2, 20: 4). */
static inline int hilo_game_value(int c)
{
    int s = hilo_sum(c);
    return s == 5 || s == 20 ? 4 : s == 10 ? 1 : s == 15 ? 2 : 0;
}
static inline int hilo_side(const struct hilo_state *st, int s)
{
    return st->partners ? s & 1 : s;
}

/* The keys hilo__view packs, NULL-ended. */
extern const char *const hilo__view_keys[];

/* Floats in the observation tensor of an n-player game. */
int hilo__obs_size(int n);

/* The game_def ops of hilo_view.c (see game.h for each contract). */
void hilo__observe(const struct game *g, const void *st, int seat,
                   float *out);
int hilo__obs_layout(const struct game *g, struct obs_segment *out, int max);
int hilo__view(const struct game *g, const void *st, int seat,
               msgpack_packer *pk);
int hilo__action_name(const struct game *g, const void *st, int a, char *buf,
                      size_t len);
void hilo__determinize(const struct game *g, void *st, int seat,
                       struct rng *rng);
int hilo__describe(const struct game *g, const void *st, int seat, char *buf,
                   size_t len);

#endif
