/* bi_jinx.h — the Bi-Jinx engine's shared state and internals.
 *
 * The rules (deal, discard, tricks, haggling, settlement, ledger) live in
 * bi_jinx.c; what a seat sees (tensor, structured view, names, text), the
 * pack's names and the determinization of hidden cards in bi_jinx_view.c.
 * Only bi_jinx_game (game.h registry) is public; the bi_jinx__ names here
 * are the engine's own.
 */
#ifndef PARLOR_BI_JINX_H
#define PARLOR_BI_JINX_H

#include "../game.h"

#define BJ_MAXP 4
#define BJ_CARDS 50      /* card ids 0..49, see below */
#define BJ_FACES 9       /* Bi, Jinx, 0, 00, 1, 2, 3, 4, 5 */
#define BJ_INN 10        /* cards in the Jinx Inn */
#define BJ_HAND 10       /* cards in a hand after the deal */
#define BJ_TRICKS 8      /* tricks in a hand; two cards are kept */
#define BJ_HANDS_MAX 10  /* most hands in a game (option "hands") */
#define BJ_OFFERS_MAX 16 /* most proposals (option "proposals") */
#define BJ_CAP_MAX 10000 /* highest price cap (option "price_cap") */
#define BJ_STEP 10       /* prices go in steps of ten */
#define BJ_HUNDRED 100   /* a proposal names the hundreds, then the tens */
#define BJ_HIST (BJ_MAXP * (BJ_TRICKS + 1) + 2 * BJ_OFFERS_MAX + 1)
#define BJ_NO_SEAT 0xff

/* Card ids, one per physical card: the four specials, then the six 1s,
 * ten 2s, ten 3s, ten 4s and ten 5s. Copies of a face are alike; the
 * engine always moves the lowest id of a face, and names only faces. */
enum bj_card { BJ_BI, BJ_JINX, BJ_ZERO, BJ_DZERO, BJ_ONES = 4 };

enum bj_face { F_BI, F_JINX, F_ZERO, F_DZERO, F_ONE, F_TWO, F_THREE, F_FOUR,
               F_FIVE };

/* Action ids: discard face f, play face f, the two answers, the tens of
 * a price, then the proposals' first step "buy h+" and "sell h+" for the
 * hundreds h = 0, 100, .. price_cap (a proposal is two actions: the
 * hundreds, then the tens, so that no turn offers hundreds of actions). */
enum bj_action {
    A_DISCARD = 0,
    A_PLAY = BJ_FACES,
    A_REFUSE = 2 * BJ_FACES,
    A_ACCEPT,
    A_TENS,             /* + tens, 0..9 */
    A_BUY = A_TENS + 10, /* + hundreds; sells follow the buys */
};

enum bj_phase { PH_DISCARD, PH_PLAY, PH_TRADE, PH_OVER, BJ_NPHASES };

/* How a seat's hand was settled (the leaflet's settlement cases, and the
 * sale). */
enum bj_case {
    C_PLAIN,    /* (f) raw points RET */
    C_WIPE,     /* (a) final hand Bi + Jinx alone: RET wiped */
    C_BIG_FOUR, /* (b) Big Four in the Inn: 3,000 DED, raw points RET */
    C_INN_WIPE, /* (c) Bi-Jinx in the Inn: RET wiped */
    C_BOTH,     /* (d) Bi and Jinx possessed: raw points RET and DED */
    C_ONE,      /* (e) one of them: multiplier + raw points RET */
    C_SOLD,     /* sold Bi or Jinx: raw points RET, price DED */
    C_BOUGHT,   /* bought the other: raw points + price, RET and DED */
    BJ_NCASES
};

/* Option values the ops need, copied from struct game at init. */
struct bj_cfg {
    uint8_t n;         /* players */
    uint8_t sides;     /* four players in two partnerships */
    uint8_t hands;     /* hands in a game */
    uint8_t offers;    /* most proposals in a haggle */
    uint8_t margin;    /* returns: ledger margin instead of win/loss */
    uint16_t cap;      /* highest price */
    uint16_t nhundreds; /* cap / 100 + 1 */
};

/* One ledger line: what a hand wrote for a seat. */
struct bj_entry {
    int32_t ret;  /* written on the RET side */
    int32_t ded;  /* written on the DED side */
    int16_t raw;  /* points of the cards retained, whatever the case */
    uint8_t kind; /* enum bj_case */
};

struct bi_jinx_state {
    struct bj_cfg cfg;             /* copied options */
    uint8_t phase;                 /* enum bj_phase */
    uint8_t turn;                  /* seat to act */
    uint8_t dealer;                /* deals and leads every trick */
    uint8_t hand_no;               /* hands finished */
    uint8_t ntrick;                /* cards in the current trick */
    uint8_t tricks;                /* tricks finished this hand */
    uint8_t best;                  /* index in trick[] of the winning card */
    uint8_t heir;                  /* seat that inherited the Inn */
    uint8_t trick[BJ_MAXP];        /* current trick's cards from the dealer */
    uint8_t disc[BJ_MAXP];         /* each seat's discard to the Inn */
    hand_t hand[BJ_MAXP];          /* cards held */
    hand_t pend[BJ_MAXP];          /* cards still to come after the discard */
    hand_t taken[BJ_MAXP];         /* cards won in tricks this hand */
    hand_t played[BJ_MAXP];        /* cards each seat played this hand */
    hand_t inn;                    /* the Jinx Inn (discards included) */
    hand_t pend_inn;               /* the Inn's top-up, still to come */
    uint8_t bi_seat, jinx_seat;    /* haggle: who possesses Bi and Jinx */
    uint8_t offers;                /* proposals made */
    uint8_t offer_by;              /* seat of the standing proposal, or none */
    uint8_t offer_sell;            /* it offers to sell (else to buy) */
    uint8_t offer_open;            /* its tens are still to be named */
    uint16_t offer_price;          /* its price */
    uint8_t nhist;                 /* entries in hist */
    uint8_t hist_seat[BJ_HIST];    /* this hand's actions: who acted */
    uint16_t hist_act[BJ_HIST];    /* and the action id */
    int32_t ret[BJ_MAXP];          /* RET total (after wipes) */
    int32_t ded[BJ_MAXP];          /* DED total */
    float sq_ret[BJ_MAXP];         /* bi_jinx__squash(ret[s]), for the
                                      tensor */
    float sq_ded[BJ_MAXP];         /* bi_jinx__squash(ded[s]) */
    float taken_f[BJ_MAXP][BJ_FACES];  /* taken[s] as the tensor shows it
                                          (bi_jinx__put_faces) */
    float played_f[BJ_MAXP][BJ_FACES]; /* played[s] likewise */
    struct bj_entry led[BJ_HANDS_MAX][BJ_MAXP]; /* ledger lines by hand */
    struct rng rng;                /* later deals */
    uint16_t ndeck;                /* faces given in deck[] */
    uint8_t deck[BJ_HANDS_MAX * BJ_CARDS]; /* given pack orders, by hand */
};

/* Face of card c, and its points. */
extern const uint8_t bi_jinx__face[BJ_CARDS];
extern const uint8_t bi_jinx__points[BJ_FACES];
/* Every card of face f. */
extern const hand_t bi_jinx__face_mask[BJ_FACES];

/* Writes h's count of each face / 10 into out[0..BJ_FACES): a row of
 * the tensor. */
void bi_jinx__put_faces(float *out, hand_t h);

/* The pack's codec: faces named "Bi", "Jinx", "0", "00", "1".."5". */
extern const struct card_codec bi_jinx__cards;

/* The keys bi_jinx__view packs, NULL-ended. */
extern const char *const bi_jinx__view_keys[];

/* A ledger total squashed into [0, 1), as the tensor shows it. */
static inline float bi_jinx__squash(int32_t v)
{
    return v > 0 ? (float)v / ((float)v + 1000.0f) : 0;
}

/* The state behind an op's const pointer. */
static inline const struct bi_jinx_state *bj_cst(const void *p)
{
    return (const struct bi_jinx_state *)p;
}

/* Points of the cards of h. */
static inline int bi_jinx__count(hand_t h)
{
    int p = 0;
    for (int f = F_ONE; f <= F_FIVE; f++)
        p += bi_jinx__points[f] * hand_count(h & bi_jinx__face_mask[f]);
    return p;
}

/* Cards seat s possesses at the end of the play: its two cards, its
 * tricks, and the Inn if it inherited it. */
static inline hand_t bi_jinx__retained(const struct bi_jinx_state *st, int s)
{
    return st->hand[s] | st->taken[s] | (s == st->heir ? st->inn : 0);
}

/* Whether seats a and b are partners (or the same seat). */
static inline bool bi_jinx__partners(const struct bi_jinx_state *st, int a,
                                     int b)
{
    return a == b || (st->cfg.sides && (a & 1) == (b & 1));
}

/* Floats in the observation tensor of an n-player game. */
int bi_jinx__obs_size(int n);

/* The game_def ops of bi_jinx_view.c (see game.h for each contract). */
void bi_jinx__observe(const struct game *g, const void *st, int seat,
                      float *out);
int bi_jinx__obs_layout(const struct game *g, struct obs_segment *out,
                        int max);
int bi_jinx__view(const struct game *g, const void *st, int seat,
                  msgpack_packer *pk);
int bi_jinx__action_name(const struct game *g, const void *st, int a,
                         char *buf, size_t len);
void bi_jinx__determinize(const struct game *g, void *st, int seat,
                          struct rng *rng);
int bi_jinx__describe(const struct game *g, const void *st, int seat,
                      char *buf, size_t len);

#endif
