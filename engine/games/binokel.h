/* binokel.h — Binokel's state and the pieces its files share: binokel.c
 * (the auction games for three or four, and the rules common to all) and
 * binokel_draw.c (the trick-and-draw game for two). Internal to the game.
 */
#ifndef PARLOR_BINOKEL_H
#define PARLOR_BINOKEL_H

#include <stdbool.h>
#include <stdint.h>

#include <msgpack.h>

#include "../../common/rng.h"
#include "../game.h"
#include "../meld.h"
#include "../trick.h"

#define MAXP 4
#define NCARDS 48
#define PLACES 0x9fu
#define A_DISCARD 32
#define A_CALL 64
#define A_GIVE 96
#define A_BID 128
#define NBIDS 131
#define A_PASS 259
#define A_SLAM 260
#define A_BETEL 261
#define A_NO_CALL 262
#define A_CONCEDE 263
#define A_NAME 264
#define A_DECLARE 268 /* two players: declare meld kind id - 268 */
#define A_NO_MELD 291
#define NUM_ACTIONS 292
#define NO MELD_NO
#define SLAM_VALUE 1000
#define SLAM_BONUS 1000

enum {
    P_PLAYERS,
    P_MIN_BID,
    P_BETEL,
    P_BETEL_VALUE,
    P_CONCESSION,
    P_TARGET,
    P_MAX_DEALS,
    NPARAMS
};
enum { PH_BID, PH_CALL, PH_GIVE, PH_DISCARD, PH_NAME, PH_PLAY, PH_MELD,
       PH_OVER };
enum { K_NORMAL, K_SLAM, K_BETEL };

/* Two players' meld kinds: marriages and families by suit, double
 * families, binokel, double binokel, four and eight of a kind (A K Q J),
 * the diss. */
enum {
    BK_MARRIAGE = 0,
    BK_FAMILY = 4,
    BK_DOUBLE = 8,
    BK_BINOKEL = 12,
    BK_DOUBLE_BINOKEL = 13,
    BK_FOUR = 14,
    BK_EIGHT = 18,
    BK_DISS = 22,
    BK_KINDS = 23,
};

struct binokel_state {
    struct rng rng;
    uint8_t hand[MAXP][MELD_FACES];   /* copies held */
    uint8_t known[MAXP][MELD_FACES];  /* copies all know are in hand */
    uint8_t shown[MAXP][MELD_FACES];  /* meld cards shown this deal */
    uint8_t played[MAXP][MELD_FACES]; /* copies each seat played */
    uint8_t widow[MELD_FACES];        /* the widow as dealt */
    uint8_t discard[MELD_FACES];      /* the soloist's discards */
    uint8_t gone[MELD_FACES];         /* cards of finished tricks */
    uint32_t lacks[MAXP];             /* faces play showed a seat lacks */
    int32_t score[MAXP];              /* per side */
    int16_t meld[MAXP];               /* each seat's meld this deal */
    int16_t taken[MAXP];              /* card points per seat this deal */
    uint8_t won[MAXP];                /* tricks won per seat this deal */
    /* The numbers below as the tensor shows them (binokel_view.c's
     * layout), kept by apply: they change a few times a deal, observe
     * reads them at every step. */
    float meld_obs[MAXP];             /* meld / 1000, clamped */
    float taken_obs[MAXP];            /* taken / 250 */
    float won_obs[MAXP];              /* won / tricks a deal */
    float score_obs[MAXP];            /* 0.5 + score / (4 target), clamped */
    float bid_obs[MAXP][2];           /* last call: bid / top, passed */
    uint16_t deals;                   /* deals begun */
    uint16_t high;                    /* high bid's value, 0 if none */
    uint8_t np, sides, wsize;         /* seats, sides, widow size */
    uint8_t phase, dealer;
    struct meld_table tb;            /* the trick in play and the last */
    uint8_t soloist, kind;            /* high bidder; K_* */
    uint8_t passed;                   /* bit per seat that passed */
    uint8_t nbids;                    /* bids and passes made */
    uint8_t bid[MAXP];                /* last call: 0 none, else action-127 */
    uint8_t given_live;               /* the receiver still holds given */
    uint8_t trump;                    /* NO until named (and in betel) */
    uint8_t called, called_from;      /* the called face and its giver */
    uint8_t given;                    /* the face given back, NO if none */
    uint8_t discards;                 /* discards made */
    uint8_t winner;                   /* side, DRAWN, NO while playing */
    uint8_t stock[24];                /* two players: stock, top first */
    uint8_t nstock;                   /* two players: stock cards left */
    uint8_t turnup;                   /* two players: the turned card */
    uint8_t declared[MAXP][BK_KINDS]; /* two players: melds declared */
};

#define DRAWN 0xfe

/* The observation tensor's segments (binokel_view.c). */
enum {
    O_HAND = 0,       /* 32 */
    O_GONE = 32,      /* 32 */
    O_TRICK = 64,     /* 4 x 32 */
    O_KNOWN = 192,    /* 4 x 32 */
    O_DISCARD = 320,  /* 32 */
    O_CALLED = 352,   /* 32 */
    O_GIVEN = 384,    /* 32 */
    O_TRUMP = 416,    /* 4 */
    O_PHASE = 420,    /* 8 */
    O_KIND = 428,     /* 3 */
    O_DEALER = 431,   /* 4 */
    O_TURN = 435,     /* 4 */
    O_SOLOIST = 439,  /* 4 */
    O_FROM = 443,     /* 4 */
    O_HIGH = 447,     /* 1 */
    O_BIDS = 448,     /* 4 x 2 */
    O_MELD = 456,     /* 4 */
    O_TAKEN = 460,    /* 4 */
    O_WON = 464,      /* 4 */
    O_SCORES = 468,   /* 4 */
    O_TRICKS = 472,   /* 1 */
    O_SIZES = 473,    /* 4 */
    O_STOCK = 477,    /* 1 */
    O_TURNUP = 478,   /* 32 */
    O_DECLARED = 510, /* 2 x 23 */
    OBS_SIZE = 556,
};

/* The side of seat: partners opposite at four, else each alone. */
static inline int binokel__side(const struct binokel_state *st, int seat)
{
    return seat % st->sides;
}

/* Keeps seat s's observed meld after its meld changed. */
static inline void binokel__keep_meld(struct binokel_state *st, int s)
{
    st->meld_obs[s] = meld_unit(st->meld[s] / 1000.0f);
}

/* What bid action a is worth in the auction. */
static inline int binokel__bid_value(const struct game *g, int a)
{
    if (a == A_SLAM)
        return SLAM_VALUE;
    if (a == A_BETEL)
        return trick_opt(g, P_BETEL_VALUE);
    return trick_opt(g, P_MIN_BID) + 10 * (a - A_BID);
}

/* The ops binokel_view.c provides to the descriptor. */
void binokel__observe(const struct game *g, const void *vst, int seat,
                      float *out);
int binokel__obs_layout(const struct game *g, struct obs_segment *out,
                        int max);
int binokel__action_name(const struct game *g, const void *vst, int a,
                         char *buf, size_t len);
int binokel__view(const struct game *g, const void *vst, int seat,
                  msgpack_packer *pk);

/* Points of meld kind k with trumps trump. */
int binokel__kind_points(int k, int trump);

/* Whether seat may declare kind k now. */
bool binokel__can_declare(const struct binokel_state *st, int seat, int k);

/* The seat to act declares kind k: points, shown and known cards. */
void binokel__declare(struct binokel_state *st, int k);

/* Deals two hands of 12 from pack (48 faces), turns the next card for
 * trumps and lays the rest as the stock with the turned card last. */
void binokel__deal_two(struct binokel_state *st, const uint8_t *pack);

/* The winner of the last trick draws, then the other; play resumes. */
void binokel__draw(struct binokel_state *st);

/* Refills the stock from cards (counts), shuffled, the turned card kept
 * last while it is there. */
void binokel__redeal_stock(struct binokel_state *st, const uint8_t *cards,
                           struct rng *rng);

#endif
