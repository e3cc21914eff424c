/* game.h — the one interface every rules engine implements.
 *
 * A game is a const struct game_def (facts + ops) registered in games.def.
 * A configured game, struct game, is the def plus validated option values
 * and the dimensions they imply (players, action space, observation size).
 * A game state is a fixed-size, pointer-free block of def->state_size bytes
 * that holds everything, its random generator included: cloning is memcpy,
 * and no op allocates. Ops receive the configured game and a state pointer.
 *
 * Turn structure: to_move() returns a bitmask of the seats that act now
 * (0 when terminal). Turn-based games always have one bit set and advance
 * with apply(); a game flagged GAME_SIMULTANEOUS may set several and then
 * advances with apply_joint(), one action per acting seat. Chance events
 * (deals, draws, rolls) happen inside apply from the state's own RNG.
 */
#ifndef PARLOR_GAME_H
#define PARLOR_GAME_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/params.h"
#include "../common/rng.h"
#include "cards.h"

#define GAME_API_VERSION 1
#define GAME_MAX_PLAYERS 16 /* seats; My Bird Sings needs 13 */
#define GAME_SPEC_MAX 256   /* longest canonical spec string */
#define GAME_NAME_MAX 96    /* longest action name, NUL included */
#define GAME_OBS_SEGMENTS 32

enum game_flags {
    GAME_HIDDEN_INFO = 1 << 0,   /* seats see different things */
    GAME_CHANCE = 1 << 1,        /* randomness beyond the initial deal */
    GAME_ZERO_SUM = 1 << 2,      /* final returns sum to zero */
    GAME_SIMULTANEOUS = 1 << 3,  /* several seats may act at once */
    GAME_PARTNERSHIPS = 1 << 4,  /* some configurations have teams */
};

/* What a configuration implies; filled by def->configure. */
struct game_dims {
    int players;                    /* seats in play */
    int teams;                      /* sides; == players when no partners */
    int8_t team[GAME_MAX_PLAYERS];  /* side of each seat, 0..teams-1 */
    int num_actions;                /* action ids are 0..num_actions-1 */
    int max_legal;                  /* most legal actions at any point */
    int obs_size;                   /* floats in one observation tensor */
    float obs_low, obs_high;        /* every observation value lies here */
    int max_length;                 /* most apply/apply_joint calls ever */
    double ret_low, ret_high;       /* every seat's return lies here */
};

/* One named slice of the observation tensor, for documentation. */
struct obs_segment {
    const char *name; /* short key, e.g. "hand" */
    int offset, size; /* position in the tensor, number of floats */
    const char *doc;  /* one line: what the floats mean */
};

struct game;

struct game_def {
    /* facts */
    const char *name;                /* registry key, e.g. "spoil_five" */
    const char *long_name;           /* e.g. "Spoil-Five" */
    const char *source;              /* the rule books (author, title, game)
                                        and the docs/games/NAME.md page */
    int api_version;                 /* GAME_API_VERSION */
    unsigned flags;                  /* enum game_flags */
    size_t state_size;               /* bytes of a state, any config */
    const struct param_def *params;  /* option table */
    int nparams;                     /* entries in params */
    const struct card_codec *cards;  /* the pack, for --deck and names */
    const char *const *view_keys;    /* keys view() packs, NULL-ended */
    const char *const *test_specs;   /* option sets conformance must also
                                        cover, NULL-ended (may be NULL) */

    /* Validates option values as a whole and fills dims. Returns 0 or
     * ERR_INVAL with a message naming the conflicting options. */
    int (*configure)(const struct param_values *p, struct game_dims *d,
                     char *err, size_t errlen);
    /* Starts a game in st (state_size bytes, any content). deck (card ids,
     * may be NULL) fixes the top of the first deal's pack in order; the
     * rest comes from the RNG seeded with seed. A game whose book draws
     * for the first deal takes its dealer from game_first_dealer: seeded
     * random, but seat 0 whenever a deck is given, so that a deck always
     * reads from seat 0's left. Returns 0 or ERR_INVAL. */
    int (*init)(const struct game *g, void *st, uint64_t seed,
                const uint8_t *deck, int ndeck);
    /* Bitmask of the seats to act; 0 once terminal. */
    uint32_t (*to_move)(const struct game *g, const void *st);
    /* Fills out (dims.max_legal entries) with seat's legal actions in
     * ascending id order; returns how many (0 if seat does not act). */
    int (*legal)(const struct game *g, const void *st, int seat, int *out);
    /* Applies the single acting seat's action, which the caller has
     * checked is legal (game_apply checks). Returns 0. */
    int (*apply)(const struct game *g, void *st, int action);
    /* Simultaneous games: applies actions[seat] for every acting seat, each
     * checked legal by the caller. NULL for turn-based games. */
    int (*apply_joint)(const struct game *g, void *st, const int *actions);
    /* Each seat's result so far into out[players]; final at terminal.
     * Step rewards are differences of returns. */
    void (*returns)(const struct game *g, const void *st, double *out);
    /* Seat's private view as dims.obs_size floats. */
    void (*observe)(const struct game *g, const void *st, int seat,
                    float *out);
    /* Documents the tensor: fills up to max segments, returns how many. */
    int (*obs_layout)(const struct game *g, struct obs_segment *out,
                      int max);
    /* Packs exactly the view_keys key/value pairs of seat's private view
     * (game_view wraps them in a map with the common keys). Returns 0. */
    int (*view)(const struct game *g, const void *st, int seat,
                msgpack_packer *pk);
    /* Names action in the state st ("play 10♥", "knock"); a name must not
     * depend on information hidden from the acting seat. Returns length. */
    int (*action_name)(const struct game *g, const void *st, int action,
                       char *buf, size_t len);
    /* Resamples everything seat cannot see, consistently with what it has
     * seen, using rng (the state's own RNG is reseeded too). */
    void (*determinize)(const struct game *g, void *st, int seat,
                        struct rng *rng);
    /* Human-readable text of the state as seat sees it (seat -1: all). */
    int (*describe)(const struct game *g, const void *st, int seat,
                    char *buf, size_t len);
    /* Deals begun in this episode so far (a terminal state: all it held).
     * Optional: NULL means one deal per episode. */
    int (*deals)(const struct game *g, const void *st);
    /* A heuristic of the returns st leads to, into out[players] within
     * [ret_low, ret_high], for searches that stop short of the end (the
     * search agents' horizon=deal): in a target game, the lead in points
     * as a fraction of the target. Optional: NULL means the returns so
     * far, which games scored as they go already give. */
    void (*estimate)(const struct game *g, const void *st, double *out);
};

/* A configured game: caller storage, plain data, safe to copy. */
struct game {
    const struct game_def *def;  /* the rules */
    struct param_values params;  /* validated option values */
    struct game_dims dims;       /* what they imply */
    char spec[GAME_SPEC_MAX];    /* canonical spec string */
};

/* The registry, in games.def order, and its length. */
extern const struct game_def *const game_registry[];
extern const int game_registry_count;

/* Checks every registered def (unique names, ops, api version).
 * Returns 0 or ERR_INVAL with a message naming the faulty game. */
int game_registry_check(char *err, size_t errlen);

/* Finds a game by name; NULL if none. */
const struct game_def *game_find(const char *name);

/* Parses spec ("thirty_one(players=4,lives=3)") into g. Returns 0, or
 * ERR_NOTFOUND (unknown game or option), ERR_SYNTAX, ERR_RANGE, ERR_INVAL
 * with a message naming the culprit and what is allowed. */
int game_make(struct game *g, const char *spec, char *err, size_t errlen);

/* The value of option name (its default if not given); asserts it exists. */
double game_param(const struct game *g, const char *name);

/* Starts a game in st from seed and an optional deck prefix. */
int game_init(const struct game *g, void *st, uint64_t seed,
              const uint8_t *deck, int ndeck);

/* The first dealer of a game whose book draws or deals cards to choose
 * one: each of the players seats equally likely, drawn from the seed's
 * own derivation rng_derive(seed, GAME_FIRST_DEALER_STREAM), so the
 * game's shuffle stream is left alone. Seat 0 when an explicit deck is
 * given (deck non-NULL, ndeck > 0): decks are written from seat 0's left,
 * as seat 0 deals them. */
#define GAME_FIRST_DEALER_STREAM 0x4445414c4552ull /* "DEALER" */
int game_first_dealer(uint64_t seed, int players, const uint8_t *deck,
                      int ndeck);

/* True once no seat acts. */
bool game_is_terminal(const struct game *g, const void *st);

/* The single seat to act, -1 when terminal, -2 when several act at once. */
int game_current_seat(const struct game *g, const void *st);

/* Checks action against seat's legal set and applies it; the state is
 * untouched on error. Returns 0, ERR_STATE (seat not to act) or
 * ERR_ILLEGAL_ACTION. */
int game_apply(const struct game *g, void *st, int seat, int action);

/* Checks and applies one action per acting seat (actions[players]); for
 * one acting seat this is game_apply. Returns 0 or ERR_ILLEGAL_ACTION. */
int game_apply_joint(const struct game *g, void *st, const int *actions);

/* Fills mask (ceil(num_actions/64) words) with seat's legal actions;
 * returns their number. */
int game_legal_mask(const struct game *g, const void *st, int seat,
                    uint64_t *mask);

/* Packs seat's structured view: a map of the common keys "game", "seat",
 * "to_move", "terminal", "returns" and then the game's own view_keys. */
int game_view(const struct game *g, const void *st, int seat,
              msgpack_packer *pk);

/* Number of keys game_view packs (common + the game's). */
int game_view_nkeys(const struct game *g);

/* The common keys game_view packs before the game's own, NULL-ended. */
extern const char *const game_view_common_keys[];

/* Fills out[players] with the usual target-game result: +1 for every seat
 * of side winner (a dims.team value), -1/(teams-1) for every other seat,
 * and 0 for all when winner is negative (undecided or drawn). */
void game_returns_winner(const struct game *g, int winner, double *out);

/* The index alone at the top of v[0..n), or -1 when two or more share
 * the top. */
int game_sole_best(const int *v, int n);

/* Deals begun in the episode of st (1 for a game without the op). */
int game_deals(const struct game *g, const void *st);

/* Each seat's estimated return from st into out[players]: the returns
 * once terminal, else the game's estimate op, else the returns so far. */
void game_estimate(const struct game *g, const void *st, double *out);

/* The usual estimate op of a target game, from each side's points
 * (pts[dims.teams], higher is better): a side's lead over the best other
 * side divided by scale (its target), clamped to [-1, 1] and scored as
 * game_returns_winner scores the end: that fraction of the winner's +1
 * when ahead, of a loser's -1/(teams-1) when behind. */
void game_estimate_lead(const struct game *g, const double *pts, double scale,
                        double *out);

/* Names action in st; returns the length. */
int game_action_name(const struct game *g, const void *st, int action,
                     char *buf, size_t len);

/* Parses text (an action name, case and spacing forgiven, or a decimal
 * action id) among seat's legal actions in st. Returns the action id, or
 * ERR_NOTFOUND with a message listing a few legal names. */
int game_action_parse(const struct game *g, const void *st, int seat,
                      const char *text, char *err, size_t errlen);

/* Parses a deck prefix for g's pack ("AS 10H QC"). Returns the number of
 * cards or a negative code with a message. */
int game_deck_parse(const struct game *g, const char *text, uint8_t *out,
                    int max, char *err, size_t errlen);

#endif
