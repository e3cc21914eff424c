/* conformance_int.h — internals shared by the conformance suite's files:
 * the run context and the checks of one state (conformance_check.c), used
 * by the passes over a game (conformance.c). Not for other modules.
 */
#ifndef PARLOR_CONFORMANCE_INT_H
#define PARLOR_CONFORMANCE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "conformance.h"

#define GUARD 8            /* sentinel slots after legal and tensor buffers */
#define DESCRIBE_MAX 16384 /* describe buffer; longer text is truncated */
#define PARSE_SAMPLE 8     /* later games: names parsed back per check */
#define HASH_START 0xcbf29ce484222325ull

/* Which pass over the game a failure happened in. */
enum conformance_phase {
    CONFORMANCE_PLAY,    /* first pass: random play */
    CONFORMANCE_REPLAY,  /* second pass: the recorded actions again */
    CONFORMANCE_PLAYOUT, /* a determinized state played to the end */
};

/* Everything one run needs, allocated once by conformance.c. */
struct conformance_ctx {
    const struct game *g;          /* the game under test */
    const struct game_dims *m;     /* its dims */
    size_t ss;                     /* state bytes */
    int np;                        /* seats */
    uint64_t seed;                 /* the current game's init seed */
    long step;                     /* steps so far in the current pass */
    enum conformance_phase phase;  /* which pass, for messages */
    int det_seat;                  /* playout: seat determinized for */
    long det_step;                 /* playout: step of that point */
    bool full;                     /* check everything at every step */
    bool heavy;                    /* run the sampled checks here... */
    int heavy_seat;                /* ...for this seat (-1: every seat) */
    struct rng rng;                /* random play and probes */
    unsigned char *st;             /* the game being played */
    unsigned char *snap;           /* a copy: ops must leave st alone */
    unsigned char *work;           /* clones and determinized copies */
    unsigned char *alt;            /* the replayed game */
    unsigned char *twin;           /* a second, equal determinization */
    float *obs, *obs2, *obs3;      /* obs_size + GUARD floats each */
    int *legal, *legal2;           /* num_actions + GUARD ints each */
    uint64_t *bits;                /* a legal set as a bitmap */
    char (*names)[GAME_NAME_MAX];  /* names of a legal set */
    const char **sorted;           /* the same names, sorted */
    char *text, *text2;            /* DESCRIBE_MAX bytes each */
    msgpack_sbuffer sb, sb2;       /* packed views */
    long cap;                      /* steps the records can hold */
    int *acts;                     /* recorded actions, np a step, -1 idle */
    uint64_t *shash, *ohash;       /* per step: state, tensors hashes */
    struct conformance_report rep; /* this run's counts */
    char *err;                     /* caller's message buffer */
    size_t errlen;                 /* its size */
};

/* The seats to move in st. */
static inline uint32_t conformance__to_move(const struct conformance_ctx *c,
                                            const void *st)
{
    return c->g->def->to_move(c->g, st);
}

/* Formats a failure at the current game, pass, step and seat (-1: none in
 * particular) into c->err. Returns ERR_INVAL. */
int conformance__fail(struct conformance_ctx *c, int seat, const char *check,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Continues hash h over n bytes at p (start from HASH_START). */
uint64_t conformance__hash(uint64_t h, const void *p, size_t n);

/* The name of the tensor segment holding index i, for messages. */
const char *conformance__segment_of(const struct conformance_ctx *c, int i);

/* The key game_view must pack in position i. */
const char *conformance__view_key(const struct conformance_ctx *c, int i);

/* Reads seat's legal set into out (num_actions + GUARD ints) and checks
 * it: for an acting seat 1..max_legal ids, ascending, in range; for any
 * other seat none. Returns 0 or ERR_INVAL (message in c->err). */
int conformance__check_legal(struct conformance_ctx *c, const void *st,
                             int seat, bool acting, int *out, int *n);

/* Observes seat into out (obs_size + GUARD floats): values finite, in
 * bounds, nothing written past obs_size. Returns 0 or ERR_INVAL. */
int conformance__check_obs(struct conformance_ctx *c, const void *st, int seat,
                           float *out);

/* Returns finite and in bounds; at terminal, zero-sum when declared and
 * equal for partners. Returns 0 or ERR_INVAL. */
int conformance__check_returns(struct conformance_ctx *c, const void *st,
                               bool terminal);

/* Packs seat's view into sb: exactly one map of the common keys, then
 * view_keys, in order. Returns 0 or ERR_INVAL. */
int conformance__check_view(struct conformance_ctx *c, const void *st, int seat,
                            msgpack_sbuffer *sb);

/* Names seat's legal actions into c->names: non-empty, fitting, distinct,
 * parsing back to their ids. Returns 0 or ERR_INVAL. */
int conformance__check_names(struct conformance_ctx *c, const void *st,
                             int seat, const int *legal, int n);

/* Describes st for seat into c->text: non-empty, NUL-terminated, length
 * reported. Returns 0 or ERR_INVAL. */
int conformance__check_describe(struct conformance_ctx *c, const void *st,
                                int seat);

/* Checks g's static facts (conformance_static.c). Returns 0 or ERR_INVAL
 * with a message. */
int conformance__check_static(const struct game *g, char *err, size_t errlen);

#endif
