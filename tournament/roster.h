/* roster.h — the agents of a tournament: their names and specs.
 *
 * An agent list is comma-separated agent specs; commas inside parentheses
 * belong to the spec ("random,ismcts(iters=200,seed=2)"). An item may
 * carry a label, "name=spec", where name is letters, digits, '_', '.' and
 * '-': the label is the agent's name in the journal, the ratings and the
 * plots. Without a label the name is the canonical spec ("ismcts(iters=200)",
 * options at their defaults dropped). Names must differ, so the same spec
 * twice needs labels ("a=random,b=random(seed=9)").
 */
#ifndef PARLOR_ROSTER_H
#define PARLOR_ROSTER_H

#include <stddef.h>

#include "../engine/game.h"

#define ROSTER_MAX 64                 /* agents in one tournament */
#define ROSTER_NAME_MAX GAME_SPEC_MAX /* longest name, NUL included */
#define ROSTER_LIST_MAX 8192          /* longest agent list */

/* One agent of the tournament. */
struct roster_entry {
    char name[ROSTER_NAME_MAX]; /* label, or the canonical spec */
    char spec[GAME_SPEC_MAX];   /* canonical agent spec */
};

/* The agents, in the order given: plain data, safe to copy. */
struct roster {
    int n;                             /* agents */
    struct roster_entry a[ROSTER_MAX]; /* the agents */
};

/* Parses list for game g into r: splits it, takes labels, checks each spec
 * by creating the agent once, and checks that names differ. Returns 0, or
 * ERR_SYNTAX / ERR_INVAL / ERR_RANGE / the agent's code with a message
 * naming the culprit. */
int roster_parse(struct roster *r, const char *list, const struct game *g,
                 char *err, size_t errlen);

/* Adds one named agent without creating it (journals, tests). Returns 0,
 * or ERR_INVAL (bad or repeated name) / ERR_RANGE (too many). */
int roster_add(struct roster *r, const char *name, const char *spec, char *err,
               size_t errlen);

/* The index of the agent called name, or -1. */
int roster_find(const struct roster *r, const char *name);

#endif
