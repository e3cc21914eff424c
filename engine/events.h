/* events.h — what happened between two decisions, for people and scripts.
 *
 * A game's ops say only whose turn it is and what is legal; a person at
 * the table also wants to hear that a trick was won, a deal ended or the
 * scores moved. events_next() compares what it saw before a step with the
 * state after it and reports those changes, for every game alike: deals
 * come from game_deals(), money and points from returns(), and tricks and
 * scores from the structured view's common keys ("trick", "leader",
 * "scores"). A game without those keys simply reports fewer events.
 *
 * Decoding a view allocates, so this is for tools (play, replay), never
 * for a game step or a playout. struct events is caller storage.
 */
#ifndef PARLOR_EVENTS_H
#define PARLOR_EVENTS_H

#include "game.h"

#define EVENTS_SCORES_MAX 16 /* score entries followed ("scores" key) */
#define EVENTS_MAX 8         /* events one step can produce */

enum event_kind {
    EVENT_TRICK,      /* a trick was completed: trick, seat (winner) */
    EVENT_DEAL_END,   /* a deal ended: deal, delta[] (returns change) */
    EVENT_DEAL_BEGIN, /* a new deal began: deal, seat (its dealer or -1) */
    EVENT_SCORES,     /* the view's "scores" changed: value[], delta[] */
    EVENT_RETURNS,    /* returns changed within a deal: value[], delta[] */
};

/* One thing that happened. */
struct event {
    enum event_kind kind;              /* what */
    int deal;                          /* 1-based deal it belongs to */
    int trick;                         /* EVENT_TRICK: 1-based in the deal */
    int seat;                          /* winner or dealer; -1: unknown */
    int n;                             /* entries in value and delta */
    double value[EVENTS_SCORES_MAX];   /* scores or returns after */
    double delta[EVENTS_SCORES_MAX];   /* their change */
};

/* What was seen after the previous step. */
struct events {
    int seat;                          /* whose view is decoded */
    int deals;                         /* game_deals() */
    int tricks;                        /* tricks completed this deal */
    int trick_len;                     /* cards in the view's trick; -1 */
    int nscores;                       /* entries in scores; 0: none */
    double scores[EVENTS_SCORES_MAX];  /* the view's "scores" */
    double ret[GAME_MAX_PLAYERS];      /* returns() */
    double deal_ret[GAME_MAX_PLAYERS]; /* returns() when the deal began */
};

/* Starts following st (a fresh game) through seat's view. */
void events_init(struct events *e, const struct game *g, const void *st,
                 int seat);

/* Compares st (the state after a step) with what e saw last, fills out
 * (EVENTS_MAX entries) with what changed, in the order it happened (trick,
 * deal end, deal begin, scores, returns) and remembers st. Returns how
 * many events were written. */
int events_next(struct events *e, const struct game *g, const void *st,
                struct event *out);

/* Writes ev as one line of text ("trick 3 won by seat 2",
 * "deal 2 ends: seat 0 +3, seat 1 -3") into buf; returns its length. */
int events_format(const struct event *ev, char *buf, size_t len);

/* The event's kind as a short word ("trick", "deal_end", ...). */
const char *events_kind_name(enum event_kind kind);

#endif
