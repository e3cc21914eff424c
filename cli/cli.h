/* cli.h — what the parlor command's files share: the subcommand table
 * entry, the exit codes and the helpers that report errors alike.
 *
 * Every subcommand is a function taking (argc, argv) with argv[0] its own
 * name and returning an exit code. Messages go to stderr as one line that
 * starts "parlor CMD:"; library messages are passed on unchanged because
 * they already name the culprit and what is allowed.
 */
#ifndef PARLOR_CLI_H
#define PARLOR_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/game.h"

#define PARLOR_VERSION "0.4.0" /* `parlor --version` */

enum cli_exit {
    CLI_OK = 0,    /* success */
    CLI_FAIL = 1,  /* runtime error, or a player quit */
    CLI_USAGE = 2, /* bad command line: unknown game, option, agent... */
};

/* One subcommand, as listed in main.c's dispatch table. */
struct cli_cmd {
    const char *name;                 /* as typed: "games" */
    int (*fn)(int argc, char **argv); /* argv[0] is name; returns exit */
    const char *args;                 /* synopsis of the arguments */
    const char *help;                 /* one line for `parlor help` */
    const char *detail;               /* options, for `parlor CMD --help` */
};

/* The subcommands (cmd_*.c). */
int cmd_games(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_agents(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_report(int argc, char **argv);

struct results;
struct ratings;
struct rate_opts;

/* Everything `parlor rate --json` prints about r rated as t (anchor: the
 * anchor's name, NULL for none); the caller owns the result. */
json_t *cli_rate_json(const struct results *r, const struct ratings *t,
                      const char *anchor, const struct rate_opts *o);

/* Writes the plot tables of r rated as t into out and draws them with the
 * gnuplot scripts in scripts (NULL: found as parlor plot finds them),
 * listing each file written to log (NULL: silent). Returns CLI_OK or
 * CLI_FAIL (message printed). */
int cli_plot_all(const char *out, const char *scripts,
                 const struct results *r, const struct ratings *t,
                 const struct rate_opts *o, FILE *log);

/* Replays g from deal seed with the recorded moves (one per step, one per
 * acting seat of a joint step), printing every step and the result as
 * `parlor play` does, labels[seat] naming the seats. A record that stops
 * before the end (a forfeit) is played up to there. Fills ret (returns
 * per seat where it stopped) and *steps. Returns CLI_OK, or CLI_FAIL when
 * the game refuses a move or moves are left over (message printed). */
int cli_play_moves(const struct game *g, uint64_t seed,
                   const char *const *labels, const int *moves, int nmoves,
                   double *ret, int *steps);

/* Prints an option table (a game's or an agent's; spec NAME(...)). */
void cli_print_options(const char *name, const struct param_def *params, int n);

/* An option table as a JSON array; values: the values in force (NULL:
 * the defaults). */
json_t *cli_options_json(const struct param_def *params, int n,
                         const double *values);

/* Prints the synopsis and options of subcommand cmd to out. */
void cli_usage(const char *cmd, FILE *out);

/* Prints "parlor CMD: message" and cmd's synopsis to stderr; returns
 * CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports what getopt_long refused (code ':' missing value, else unknown
 * option) at argv[optind - 1]; returns CLI_USAGE. */
int cli_bad_option(const char *cmd, int code, char **argv);

/* Prints "parlor CMD: message" to stderr; returns CLI_FAIL. */
int cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Configures g from spec; on error prints the library's message and
 * returns CLI_USAGE, else CLI_OK. */
int cli_make_game(const char *cmd, const char *spec, struct game *g);

/* Parses the whole of s as a finite number in [min, max], in the syntax
 * of params.h. */
bool cli_parse_double(const char *s, double min, double max, double *out);

/* Parses the whole of s as an unsigned 64-bit integer, decimal or 0x
 * hex (params_parse_u64): seeds print in hex in journals and paste back. */
bool cli_parse_u64(const char *s, uint64_t *out);

/* Checks the port of a tcp:// endpoint given to cmd's option opt: it must
 * be a decimal number from 1 to 65535 or '*' (ZeroMQ would silently wrap
 * a larger one). Other transports pass. Returns CLI_OK, or prints a usage
 * error naming the allowed ports and returns CLI_USAGE. */
int cli_check_endpoint(const char *cmd, const char *opt, const char *endpoint);

/* Returns the game's description of st for seat (-1: everything) as a
 * string the caller frees with mem_free. */
char *cli_describe(const struct game *g, const void *st, int seat);

/* Names action in st into buf (GAME_NAME_MAX bytes), always terminated. */
void cli_action_name(const struct game *g, const void *st, int action,
                     char *buf);

/* A JSON string of s, or null when s is NULL or not valid UTF-8. */
json_t *cli_json_str(const char *s);

/* A JSON number of v, or null when v is not finite. */
json_t *cli_json_real(double v);

/* Prints root (stolen) to stdout with a newline; returns CLI_OK, or
 * CLI_FAIL when root is NULL or cannot be written. */
int cli_json_emit(const char *cmd, json_t *root);

#endif
