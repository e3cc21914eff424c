/* spoil_five.h — the Spoil-Five engine's shared state and internals.
 *
 * The rules (deal, robbing, play, pools, scores) live in spoil_five.c; the
 * seat's views (tensor, structured view, names, text) and determinization
 * in spoil_five_view.c. Only spoil_five_game (game.h registry) is public;
 * the spoil_five__ functions here are the engine's own.
 */
#ifndef PARLOR_SPOIL_FIVE_H
#define PARLOR_SPOIL_FIVE_H

#include "../game.h"

#define MAXP 10                 /* most players (Peel: "not exceeding ten") */
#define HIST_MAX (4 + 5 * MAXP) /* five, answer, rob, jink and the plays */
#define NO_SEAT 0xff
#define TRICKS 5           /* tricks in a deal */
#define TRUMP_KEY 16       /* trick keys: trumps rank above all else */
#define POINTS_PER_TRICK 5 /* target games */
#define ALL_CARDS ((hand_t)0xfffffffffffffull)

enum action {
    A_PLAY = 0,                    /* + card */
    A_ROB = CARDS_IN_PACK,         /* + card laid out */
    A_DECLINE = 2 * CARDS_IN_PACK, /* no rob */
    A_ASK_FIVE,
    A_NO_FIVE,
    A_ACCEPT_FIVE,
    A_REFUSE_FIVE,
    A_JINK,
    A_CLAIM,
    NUM_ACTIONS,
};

enum phase {
    PH_FIVE_ASK,    /* eldest: ask the dealer to five, or not */
    PH_FIVE_ANSWER, /* dealer: accept or refuse */
    PH_DEALER_ROB,  /* dealer: rob the turned ace, or decline */
    PH_ROB,         /* ace holder's first turn: rob (or decline) */
    PH_PLAY,        /* play a card */
    PH_JINK,        /* winning count reached with every trick: jink/claim */
    PH_OVER,
    NPHASES = PH_OVER,
};

enum robbing { ROB_COMPULSORY, ROB_OPTIONAL, ROB_NONE };

enum outcome {
    OUT_NONE,   /* no deal finished yet */
    OUT_WON,    /* pool taken with the winning count */
    OUT_SPOILT, /* nobody reached the winning count */
    OUT_JINKED, /* all five tricks after a jink */
    OUT_FAILED, /* jink failed: the pool stands */
    OUT_BARRED, /* a barred player (side) reached the count: spoilt */
    OUT_PLAYED, /* target game: five tricks scored */
};

/* Option values the ops need, copied from struct game at init. */
struct cfg {
    uint8_t n;             /* players */
    uint8_t partners;      /* two fixed sides: 0,2 against 1,3 */
    uint8_t need;          /* tricks that win the pool: 3, or 2 */
    uint8_t fiving;        /* option fiving (Peel's Fiving) */
    uint8_t jinking;       /* option jinking (Peel's Jinking) */
    uint8_t target;        /* 0, or the points that win */
    uint8_t robbing;       /* enum robbing */
    uint8_t ah_trump;      /* A♥ lead is a trump lead (option flag) */
    uint8_t ordinary;      /* ordinary sequence */
    uint16_t stake;        /* full ante */
    uint16_t dealer_stake; /* dealer's extra each deal */
    uint16_t spoil_stake;  /* ante while a spoilt pool stands */
    uint16_t deals;        /* deals per episode; target games: the cap */
};

/* Factors of the observation tensor, fixed by the configuration and kept
 * in the state so that observe() needs no division. */
struct obs_scales {
    float score_low;   /* return (or points) that maps to 0 */
    float score_scale; /* 1 / the range mapped onto [0, 1] */
    float pool;        /* 1 / the largest possible pool, or 0 */
    float deal;        /* 1 / deals (target games: the cap) */
    float seat;        /* 1 / players */
};

/* Fields every op reads come first, so that a decision or an observation
 * touches few cache lines; what only deals, views and determinize need
 * follows. */
struct spoil_five_state {
    struct cfg cfg;              /* copied options */
    struct obs_scales scales;    /* observation factors */
    uint8_t phase;               /* enum phase */
    uint8_t turn;                /* seat to act */
    uint8_t dealer;              /* seat dealing */
    uint8_t leader;              /* seat leading the current trick */
    uint8_t ntrick;              /* cards in the current trick */
    uint8_t ntricks;             /* tricks finished this deal */
    uint8_t best;                /* index in trick[] of the winning card */
    uint8_t best_key;            /* its key (card_key) */
    uint8_t lead_suit;           /* suit to follow */
    uint8_t turnup;              /* the turned card */
    uint8_t trump;               /* trump suit */
    uint8_t ace;                 /* ace of trumps */
    uint8_t keys;                /* row of key_table in use */
    uint8_t rob_open;            /* first trick, ace holder may rob */
    uint8_t rob_holder;          /* holder of the ace still to rob */
    uint8_t rob_seat;            /* seat that robbed or declined */
    uint8_t discard;             /* the robber's hidden card, or NO_CARD */
    uint8_t barred;              /* seat that declined to rob, or NO_SEAT */
    uint8_t jinker;              /* seat that jinked, or NO_SEAT */
    uint8_t fived;               /* the dealer accepted to five this deal */
    uint8_t reduced;             /* a spoilt pool stands: reduced antes */
    uint8_t nhist;               /* entries in hist */
    uint16_t deal_no;            /* deals finished */
    uint8_t trick[MAXP];         /* current trick's cards in play order */
    uint8_t won[MAXP];           /* tricks won this deal */
    hand_t hand[MAXP];           /* cards held */
    hand_t trumps;               /* trump suit, plus A♥ unless ordinary */
    hand_t bind;                 /* cards that oblige to follow this lead */
    hand_t gone;                 /* played in finished tricks, and buried */
    hand_t table;                /* cards in the current trick */
    int32_t score[MAXP];         /* return so far: chips won less chips lost
                                    (stakes in a standing pool still count
                                    as their payer's); target games: points */
    int32_t paid[MAXP];          /* each seat's chips in the standing pool */
    int32_t pool;                /* chips in the pool */
    struct rng rng;              /* the later deals and fiving turns */
    hand_t cant[MAXP];           /* cards publicly known not to be held */
    hand_t buried;               /* turned and buried by fiving (public) */
    hand_t rob_known;            /* cards rob_seat publicly holds */
    uint8_t deck[CARDS_IN_PACK]; /* a permutation; deck[deck_pos..] undealt */
    uint8_t deck_pos;            /* next card to draw */
    uint8_t deck_fixed;          /* deck[0..deck_fixed) is settled */
    uint8_t trump_lead;          /* the lead is a trump lead */
    uint8_t last_outcome;        /* enum outcome of the last finished deal */
    uint8_t last_winner;         /* its winner, or NO_SEAT */
    uint8_t victor;              /* target game winner, or NO_SEAT */
    uint8_t last_won[MAXP];      /* tricks won in the last finished deal */
    uint8_t hist[HIST_MAX][2];   /* this deal's [seat, action] */
};

#define ACE_HEARTS (HEARTS * 13) /* card_make(ACE, HEARTS) */

/* The state behind an op's const pointer. */
static inline const struct spoil_five_state *cst(const void *p)
{
    return (const struct spoil_five_state *)p;
}

static inline bool same_side(const struct spoil_five_state *st, int a, int b)
{
    return st->cfg.partners ? (a & 1) == (b & 1) : a == b;
}

/* Return so far (target games: points) of s's side. */
static inline int32_t side_total(const struct spoil_five_state *st, int s)
{
    return st->score[s] + (st->cfg.partners ? st->score[(s + 2) & 3] : 0);
}

/* Seat holding card c, or NO_SEAT. */
static inline int holder_of(const struct spoil_five_state *st, int c)
{
    for (int s = 0; s < st->cfg.n; s++)
        if (hand_has(st->hand[s], c))
            return s;
    return NO_SEAT;
}

/* The keys spoil_five__view packs, NULL-ended. */
extern const char *const spoil_five__view_keys[];

/* Floats in the observation tensor of an n-player game. */
int spoil_five__obs_size(int n);

/* Fills the observation factors of g (c: its copied options). */
void spoil_five__obs_scales(const struct game *g, const struct cfg *c,
                            struct obs_scales *o);

/* The game_def ops of spoil_five_view.c (see game.h for each contract). */
void spoil_five__observe(const struct game *g, const void *st, int seat,
                         float *out);
int spoil_five__obs_layout(const struct game *g, struct obs_segment *out,
                           int max);
int spoil_five__view(const struct game *g, const void *st, int seat,
                     msgpack_packer *pk);
int spoil_five__action_name(const struct game *g, const void *st, int a,
                            char *buf, size_t len);
void spoil_five__determinize(const struct game *g, void *st, int seat,
                             struct rng *rng);
int spoil_five__describe(const struct game *g, const void *st, int seat,
                         char *buf, size_t len);

#endif
