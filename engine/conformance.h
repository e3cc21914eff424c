/* conformance.h — the shared suite every registered game must pass.
 *
 * It plays seeded random games through the checked game_* wrappers and
 * checks the game interface's contract at every step: legal sets, refusal
 * of illegal actions with the state untouched, clone = memcpy, determinism
 * from a seed, observation bounds, the structured view's keys, returns,
 * the length bound, action names that parse back, and that determinize
 * never changes what a seat sees while really resampling what it cannot.
 * A failure stops the run with a message naming the spec, the game's seed,
 * the pass and step, the seat and the check, so a game author can replay
 * it with conformance_play:
 *   "spoil_five(players=3), game seed 0x1f..., play step 37, seat 2:
 *    legal: seat is to move (game not over) but has no legal action"
 * (seat -1 where no one seat is concerned; pass "play" is the first,
 * "replay" the second, "playout" a determinized state played out).
 * Used by tests/engine/test_conformance.c and `parlor selftest`.
 */
#ifndef PARLOR_CONFORMANCE_H
#define PARLOR_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define CONFORMANCE_MAX_COMBOS 256 /* option sets one game may ask for */
#define CONFORMANCE_REASON_MAX 200 /* why configure refused a set */

/* Where an option set in a combination list came from. */
enum conformance_kind {
    CONFORMANCE_DEFAULT,   /* every option at its default */
    CONFORMANCE_VARIANT,   /* one option moved off its default */
    CONFORMANCE_TEST_SPEC, /* named by the game in def->test_specs */
};

/* One option set worth covering. */
struct conformance_combo {
    char spec[GAME_SPEC_MAX];   /* spec for conformance_game_make */
    enum conformance_kind kind; /* where it came from */
};

/* One single-option variant that configure refused (skipped, counted). */
struct conformance_rejected {
    char spec[GAME_SPEC_MAX];            /* the refused spec */
    char reason[CONFORMANCE_REASON_MAX]; /* configure's message */
};

/* Every option set worth covering for one game; heap object. */
struct conformance_combos {
    int n; /* accepted sets; [0] is the default */
    struct conformance_combo combo[CONFORMANCE_MAX_COMBOS]; /* in order */
    int nrejected; /* variants configure refused */
    struct conformance_rejected rejected[CONFORMANCE_MAX_COMBOS];
};

/* What a run covered; every run adds to it (zero it before the first). */
struct conformance_report {
    long games;         /* random games played to the end */
    long steps;         /* apply / apply_joint calls in those games */
    long longest;       /* most steps in one game */
    long names;         /* action names checked to parse back */
    long views;         /* structured views unpacked and checked */
    long leak_checks;   /* (point, seat) pairs determinized and compared */
    long determinized;  /* determinize calls compared with the original */
    long det_points;    /* non-terminal (point, seat) pairs of a game with
                           hidden information or chance */
    long det_unchanged; /* of those, where no determinization changed the
                           state bytes */
    long hid_points;    /* non-terminal (point, seat) pairs of a game with
                           hidden information */
    long hid_unchanged; /* of those, where no determinization changed
                           another seat's tensor or the full description */
    long playouts;      /* determinized states played to the end */
    long playout_steps; /* steps in those playouts */
};

/* Lists the option sets to cover for def: the defaults; each option moved
 * alone (a boolean flipped, every other enum choice, an integer or real at
 * its min and max, and every value of "players" when it has at most ten);
 * then every spec of def->test_specs. Duplicates (same canonical spec) are
 * dropped; single-option variants that configure refuses are listed in
 * rejected. Returns a new object owned by the caller (free with
 * conformance_combos_destroy), or NULL with a message when the defaults
 * or a test spec do not configure, or the list overflows. */
struct conformance_combos *conformance_combos_new(const struct game_def *def,
                                                  char *err, size_t errlen);

/* Frees *c and sets it to NULL (NULL-safe). */
void conformance_combos_destroy(struct conformance_combos **c);

/* Like game_make, for def whether or not it is registered (test games):
 * parses spec ("name(k=v,...)", the name is not checked) against def's
 * options and configures g. Returns 0 or game_make's codes. */
int conformance_game_make(struct game *g, const struct game_def *def,
                          const char *spec, char *err, size_t errlen);

/* Checks g's static facts (dims, option table, obs_layout, view keys,
 * canonical spec), then plays games random games, game i starting from
 * seed rng_derive(seed, i), checking every rule of the contract, and adds
 * to rep. Returns 0, ERR_INVAL when a check fails (message says where and
 * which) or ERR_NOMEM. */
int conformance_run(const struct game *g, int games, uint64_t seed,
                    struct conformance_report *rep, char *err, size_t errlen);

/* conformance_run on the registered game named by spec. Also returns
 * game_make's codes when spec does not make a game. */
int conformance_run_spec(const char *spec, int games, uint64_t seed,
                         struct conformance_report *rep, char *err,
                         size_t errlen);

/* Plays and checks the one game whose init seed is game_seed (what a
 * failure message names), adding to rep: the way to replay a failure. The
 * proportion checks on determinize need many games and are made only by
 * conformance_run. Returns as conformance_run. */
int conformance_play(const struct game *g, uint64_t game_seed,
                     struct conformance_report *rep, char *err, size_t errlen);

#endif
