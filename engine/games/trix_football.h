/* trix_football.h — what trix_football.c (rules) and trix_football_view.c
 * (observations, views, determinization, text) share: the state, its
 * constants and the hand classifier. See trix_football.c for the sources
 * and every decision. */
#ifndef PARLOR_TRIX_FOOTBALL_H
#define PARLOR_TRIX_FOOTBALL_H

#include <msgpack.h>
#include <stdint.h>

#include "../game.h"

#define NCARD 20
#define HANDN 5
#define FIELD 220 /* half-yards goal to goal */
#define CENTER 110
#define SCRIPT_DEALS 8
#define A_DISCARD 6
#define NACT (A_DISCARD + 32)
#define NHIST 4

enum { P_PLAYERS, P_PLAYS, P_SUDDEN, NPARAMS };

enum { PH_CHOOSE, PH_CALL, PH_DISCARD, PH_DEAL };
enum { PL_KICK, PL_RUSH, PL_PUNT, PL_FG, PL_TRY, PL_PUNT_FG, NPLAY };
enum { A_KICK, A_RECEIVE, A_RUSH, A_PUNT, A_FG, A_YIELD };
enum {
    C_NONE,
    C_PAIR,
    C_FLUSH,
    C_THREES,
    C_STRAIGHT4,
    C_FULL,
    C_STRAIGHT5,
    C_FOURS,
    C_STRAIGHT6,
    C_ROYAL,
    NCAT
};
enum {
    R_NONE,
    R_NO_GAIN,
    R_GAIN,
    R_LOSS,
    R_TURNOVER,
    R_TOUCHDOWN,
    R_SAFETY,
    R_FIELD_GOAL,
    R_BLOCKED,
    R_MISSED,
    R_GOAL,
    R_NO_GOAL,
    R_KICK,
    R_RECOVERED,
    R_PUNT,
    R_PUNT_KEPT,
    R_YIELD,
    NRES
};

struct tf_state {
    struct rng rng;
    uint32_t hand[2];  /* bit = trix id (< 28) */
    uint32_t shown[2]; /* final hands of the last play (public) */
    uint8_t deck[NCARD];
    uint8_t script[SCRIPT_DEALS * NCARD];
    uint8_t nscript, used; /* script length; next script offset */
    int16_t pos, need;     /* ball; half-yards to a 1st down */
    int16_t last_yards;
    uint16_t score[2];
    uint8_t phase, play, off, down, period, plays, over;
    uint8_t chooser, first_kicker, last_cat[2], last_res;
    uint8_t nhist, hist[NHIST][2];
};

/* The 20 cards (Twos to Sixes, no blanks) as a trix-id bitset: ids 4-5,
 * 7-9, 11-14, 16-20 and 22-27 (s-n is s(s+1)/2 + n). A constant, as it is
 * asked for at every deal. */
static inline uint32_t trix_football__pack(void)
{
    return 0x0fdf7bb0u;
}

/* Highest category (C_*) of a five-card hand. */
int trix_football__classify(uint32_t h);

/* Ball position in half-yards from side s's own goal line. */
int trix_football__rel(const struct tf_state *st, int s);

/* The seat choosing, calling or dealing now. */
int trix_football__actor(const struct tf_state *st);

void trix_football__observe(const struct game *g, const void *st, int seat,
                            float *out);
int trix_football__obs_layout(const struct game *g, struct obs_segment *out,
                              int max);
int trix_football__action_name(const struct game *g, const void *st, int a,
                               char *buf, size_t len);
int trix_football__view(const struct game *g, const void *st, int seat,
                        msgpack_packer *pk);
void trix_football__determinize(const struct game *g, void *st, int seat,
                                struct rng *rng);
int trix_football__describe(const struct game *g, const void *st, int seat,
                            char *buf, size_t len);

#endif
