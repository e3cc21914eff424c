/* err.h — the one list of error codes used across parlor.
 *
 * Functions that do something return 0 (ERR_OK) or one of these negative
 * codes; detail text travels in a caller's message buffer, never in a global.
 */
#ifndef PARLOR_ERR_H
#define PARLOR_ERR_H

#include <stddef.h>

#define ERR_MAP(XX)                                                        \
    XX(OK, 0, "success")                                                   \
    XX(INVAL, -1, "invalid argument")                                      \
    XX(ILLEGAL_ACTION, -2, "illegal action")                               \
    XX(PROTO, -3, "protocol error")                                        \
    XX(NOMEM, -4, "out of memory")                                         \
    XX(NOTFOUND, -5, "not found")                                          \
    XX(RANGE, -6, "value out of range")                                    \
    XX(STATE, -7, "operation not allowed in this state")                   \
    XX(IO, -8, "input/output error")                                       \
    XX(TIMEOUT, -9, "timed out")                                           \
    XX(SYNTAX, -10, "syntax error")                                        \
    XX(INTERRUPTED, -11, "interrupted")

enum err_code {
#define XX(name, val, text) ERR_##name = (val),
    ERR_MAP(XX)
#undef XX
};

/* Returns a sentence describing code (a static string). */
const char *err_str(int code);

/* Returns the code's name without prefix, e.g. "ILLEGAL_ACTION". */
const char *err_name(int code);

/* Formats into buf (if non-NULL) and returns code, for one-line error exits. */
int err_set(char *buf, size_t len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
