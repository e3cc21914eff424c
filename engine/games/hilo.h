/* hilo.h — the Hilo engine's shared state and internals.
 *
 * The rules (deal, "another deal", play, scoring) live in hilo.c; the
 * seat's views (tensor, structured view, names, text) and determinization
 * in hilo_view.c. Only hilo_game (game.h registry) is public; the hilo__
 * functions here are the engine's own. Cards are the LOCAL ids 0..51 of
 * engine/trick.h (Trix ids 15..65 less 15, Trixie 51), shared with Magna,
 * so a hand fits one hand_t word; the set in play is trick.h's ft_table.
 */
#ifndef PARLOR_HILO_H
#define PARLOR_HILO_H

#include "../game.h"
#include "../trick.h"

#define HILO_MAXP 4
#define HILO_HAND 6                         /* cards dealt at first */
#define HILO_MORE 3                         /* cards of "another deal" */
#define HILO_MAX_REDEALS 3                  /* full redeals a deal allows */
#define HILO_HIST 160                       /* actions kept for views */
#define HILO_NO_SEAT 0xff
#define HILO_GAME_POINTS 20                 /* game points in the pack */

enum hilo_action {
    HILO_A_PLAY = 0,               /* + local card id */
    HILO_A_STAND = FT_CARDS,     /* eldest keeps the deal */
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

/* The four points of a deal, in precedence order. */
enum hilo_point { HILO_P_HIGH, HILO_P_LOW, HILO_P_TRIXIE, HILO_P_GAME, HILO_NPOINTS };

struct hilo_state {
    uint8_t partners;           /* four players in two sides */
    uint8_t beg_allowed;        /* option another_deal */
    uint8_t target;             /* points that win */
    uint16_t max_deals;         /* cap: deals before a draw */
    uint16_t deal_no;           /* deals finished */
    uint8_t phase;              /* enum hilo_phase */
    uint8_t dealer;             /* seat dealing */
    uint8_t turnup;             /* the card turned for honors */
    uint8_t begged_suit;        /* suit the eldest refused, or 0 */
    uint8_t redeals;            /* full redeals this deal */
    uint8_t trixie_turned;      /* Trixie turn-ups scored this deal */
    uint8_t trixie_winner;      /* seat that won Trixie, or HILO_NO_SEAT */
    uint8_t victor;             /* winning side, or HILO_NO_SEAT */
    uint8_t nhist;              /* entries in hist */
    uint8_t gpts[HILO_MAXP];    /* game points taken in sets this deal */
    uint8_t score[HILO_MAXP];   /* each side's points (index: side) */
    uint8_t last[HILO_NPOINTS]; /* last deal: seat that took each point */
    uint8_t deck_pos;           /* deck[deck_pos..] is the stock */
    uint8_t deck_fixed;         /* deck[..deck_fixed) keeps its order */
    struct ft_table tb;         /* players, hands, the set in play */
    struct rng rng;             /* shuffles and later deals */
    uint8_t deck[FT_CARDS];     /* a permutation of the local ids */
    uint8_t hist[HILO_HIST][2]; /* this deal's [seat, action] */
};

/* Game points of a card (sum 5: 4, 10: 1, 15: 2, 20: 4). */
static inline int hilo_game_value(int c)
{
    int s = ft_sum(c);
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
