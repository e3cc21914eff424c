/* params.h — typed options and spec strings such as "spoil_five(players=4)".
 *
 * Games and agents each declare a table of struct param_def; spec_parse()
 * splits a spec string into its name and validated values, one double per
 * declared option (booleans 0/1, enums the index of the choice). Every error
 * names the culprit and lists what is allowed.
 */
#ifndef PARLOR_PARAMS_H
#define PARLOR_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PARAMS_MAX 24    /* most options one game or agent may declare */
#define SPEC_NAME_MAX 48 /* longest game or agent name */

enum param_type {
    PARAM_BOOL,  /* true/false (also 1/0, yes/no, on/off) */
    PARAM_INT,   /* integer in [min, max] */
    PARAM_FLOAT, /* real number in [min, max] */
    PARAM_ENUM,  /* one of choices[], stored as its index */
};

struct param_def {
    const char *name;           /* option name as typed in a spec */
    enum param_type type;       /* how the value is parsed */
    double def;                 /* default (enum: index into choices) */
    double min, max;            /* allowed range (INT and FLOAT) */
    const char *const *choices; /* ENUM: NULL-terminated names */
    const char *doc;            /* one line: what it does, which variant */
};

struct param_values {
    double v[PARAMS_MAX]; /* one value per declared option, in table order */
    bool set[PARAMS_MAX]; /* true where the spec gave the option explicitly */
};

/* Splits spec into name (at most SPEC_NAME_MAX-1 chars) and the text inside
 * its parentheses (args points into spec, args_len its length; 0 if none).
 * Returns 0 or ERR_SYNTAX with a message. */
/* The one number syntax of parlor, for options, command-line numbers and
 * seeds alike: an integer is decimal digits ("010" is ten) or "0x" and hex
 * digits ("0x1f"); a real number is decimal, with an optional sign,
 * fraction and exponent ("-1.5e3"). No spaces, no "inf" or "nan", no hex
 * fractions. */

/* Parses the whole of s as an unsigned 64-bit integer in that syntax. */
bool params_parse_u64(const char *s, uint64_t *out);

/* Parses the whole of s as a finite number in that syntax; integral:
 * refuse a fraction. */
bool params_parse_number(const char *s, bool integral, double *out);

int spec_split(const char *spec, char *name, const char **args,
               size_t *args_len, char *err, size_t errlen);

/* Parses "k=v,k=v" against defs (n entries) into out, defaults first.
 * Returns 0, or ERR_SYNTAX / ERR_NOTFOUND (unknown option) / ERR_RANGE /
 * ERR_INVAL with a message naming the option and what it allows. */
int params_parse(const struct param_def *defs, int n, const char *args,
                 size_t args_len, struct param_values *out, char *err,
                 size_t errlen);

/* Writes the canonical "name(k=v,...)" form, options in table order, only
 * those differing from the default. Returns 0 or ERR_RANGE if too long. */
int params_format(const char *name, const struct param_def *defs, int n,
                  const struct param_values *vals, char *buf, size_t len);

/* Writes one value as it would be typed ("true", "4", "0.7", "sum"). */
void params_value_str(const struct param_def *d, double v, char *buf,
                      size_t len);

/* Writes the allowed values of d ("2..10", "true|false", "a|b|c"). */
void params_allowed_str(const struct param_def *d, char *buf, size_t len);

#endif
