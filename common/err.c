/* err.c — names and sentences for the codes of err.h. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

const char *err_str(int code)
{
    switch (code) {
#define XX(name, val, text)                                                \
    case val:                                                              \
        return text;
        ERR_MAP(XX)
#undef XX
    }
    return "unknown error";
}

const char *err_name(int code)
{
    switch (code) {
#define XX(name, val, text)                                                \
    case val:                                                              \
        return #name;
        ERR_MAP(XX)
#undef XX
    }
    return "UNKNOWN";
}

int err_set(char *buf, size_t len, int code, const char *fmt, ...)
{
    if (buf && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, len, fmt, ap);
        va_end(ap);
    }
    return code;
}
