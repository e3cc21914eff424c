/* params.c — spec-string parsing for games and agents. */
#include "params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"

int spec_split(const char *spec, char *name, const char **args,
               size_t *args_len, char *err, size_t errlen)
{
    while (isspace((unsigned char)*spec))
        spec++;
    size_t n = 0;
    while (spec[n] && (isalnum((unsigned char)spec[n]) || spec[n] == '_' ||
                       spec[n] == '-'))
        n++;
    if (n == 0)
        return err_set(err, errlen, ERR_SYNTAX,
                       "expected a name at the start of '%s'", spec);
    if (n >= SPEC_NAME_MAX)
        return err_set(err, errlen, ERR_SYNTAX, "name too long in '%s'", spec);
    memcpy(name, spec, n);
    name[n] = '\0';
    const char *p = spec + n;
    while (isspace((unsigned char)*p))
        p++;
    *args = p;
    *args_len = 0;
    if (*p == '\0')
        return 0;
    const char *close = strrchr(p, ')');
    const char *tail = close ? close + 1 : NULL;
    while (tail && isspace((unsigned char)*tail))
        tail++;
    if (*p != '(' || !close || *tail)
        return err_set(err, errlen, ERR_SYNTAX,
                       "expected '%s(option=value,...)', got '%s'", name, spec);
    *args = p + 1;
    *args_len = (size_t)(close - p - 1);
    return 0;
}

void params_allowed_str(const struct param_def *d, char *buf, size_t len)
{
    size_t used = 0;
    switch (d->type) {
    case PARAM_BOOL:
        snprintf(buf, len, "true|false");
        return;
    case PARAM_INT:
        snprintf(buf, len, "%.0f..%.0f", d->min, d->max);
        return;
    case PARAM_FLOAT:
        snprintf(buf, len, "%g..%g", d->min, d->max);
        return;
    case PARAM_ENUM:
        buf[0] = '\0';
        for (int i = 0; d->choices[i] && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     i ? "|" : "", d->choices[i]);
        return;
    }
}

void params_value_str(const struct param_def *d, double v, char *buf,
                      size_t len)
{
    switch (d->type) {
    case PARAM_BOOL:
        snprintf(buf, len, "%s", v != 0 ? "true" : "false");
        return;
    case PARAM_INT:
        snprintf(buf, len, "%.0f", v);
        return;
    case PARAM_FLOAT:
        snprintf(buf, len, "%g", v);
        return;
    case PARAM_ENUM:
        snprintf(buf, len, "%s", d->choices[(int)v]);
        return;
    }
}

static int parse_bool(const char *s, double *out)
{
    static const char *const yes[] = {"true", "1", "yes", "on"};
    static const char *const no[] = {"false", "0", "no", "off"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i]))
            return *out = 1, 0;
        if (!strcasecmp(s, no[i]))
            return *out = 0, 0;
    }
    return -1;
}

bool params_parse_u64(const char *s, uint64_t *out)
{
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    /* strtoull alone would take spaces, signs and "0x" with no digits. */
    if (!*digits || strspn(digits, hex ? "0123456789abcdefABCDEF"
                                       : "0123456789") != strlen(digits))
        return false;
    errno = 0;
    unsigned long long v = strtoull(digits, NULL, hex ? 16 : 10);
    if (errno)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool params_parse_number(const char *s, bool integral, double *out)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        uint64_t u;
        if (!integral || !params_parse_u64(p, &u))
            return false;
        *out = *s == '-' ? -(double)u : (double)u;
        return true;
    }
    if (!isdigit((unsigned char)*p) && *p != '.')
        return false; /* no spaces, "inf" or "nan" */
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return false;
    if (integral && v != floor(v))
        return false;
    *out = v;
    return true;
}

static int parse_value(const struct param_def *d, const char *s, double *out)
{
    switch (d->type) {
    case PARAM_BOOL:
        return parse_bool(s, out);
    case PARAM_INT:
    case PARAM_FLOAT:
        if (!params_parse_number(s, d->type == PARAM_INT, out))
            return -1;
        return (*out < d->min || *out > d->max) ? 1 : 0;
    case PARAM_ENUM:
        for (int i = 0; d->choices[i]; i++)
            if (!strcasecmp(s, d->choices[i]))
                return *out = i, 0;
        return -1;
    }
    return -1;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t k = 0;
    while (isspace((unsigned char)s[k]))
        k++;
    memmove(s, s + k, n - k + 1);
}

static int unknown_option(const struct param_def *defs, int n, const char *key,
                          char *err, size_t errlen)
{
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 i ? ", " : "", defs[i].name);
    return err_set(err, errlen, ERR_NOTFOUND,
                   "unknown option '%s' (options: %s)", key, n ? list : "none");
}

static int parse_pair(const struct param_def *defs, int n, char *item,
                      struct param_values *out, char *err, size_t errlen)
{
    char *eq = strchr(item, '=');
    if (!eq)
        return err_set(err, errlen, ERR_SYNTAX,
                       "expected option=value, got '%s'", item);
    *eq = '\0';
    char *key = item, *val = eq + 1;
    trim(key);
    trim(val);
    int i = 0;
    while (i < n && strcmp(defs[i].name, key))
        i++;
    if (i == n)
        return unknown_option(defs, n, key, err, errlen);
    if (out->set[i])
        return err_set(err, errlen, ERR_INVAL, "option '%s' given twice", key);
    int rc = parse_value(&defs[i], val, &out->v[i]);
    if (rc) {
        char allowed[256];
        params_allowed_str(&defs[i], allowed, sizeof allowed);
        return err_set(err, errlen, rc > 0 ? ERR_RANGE : ERR_INVAL,
                       "option '%s': '%s' is %s (allowed: %s)", key, val,
                       rc > 0 ? "out of range" : "not a valid value", allowed);
    }
    out->set[i] = true;
    return 0;
}

int params_parse(const struct param_def *defs, int n, const char *args,
                 size_t args_len, struct param_values *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++)
        out->v[i] = defs[i].def;
    char buf[1024];
    if (args_len >= sizeof buf)
        return err_set(err, errlen, ERR_RANGE, "option list too long");
    memcpy(buf, args, args_len);
    buf[args_len] = '\0';
    trim(buf);
    if (!buf[0])
        return 0;
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        int rc = parse_pair(defs, n, item, out, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

int params_format(const char *name, const struct param_def *defs, int n,
                  const struct param_values *vals, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", name);
    int shown = 0;
    for (int i = 0; i < n && used < len; i++) {
        if (vals->v[i] == defs[i].def)
            continue;
        char v[64];
        params_value_str(&defs[i], vals->v[i], v, sizeof v);
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s",
                                 shown++ ? "," : "(", defs[i].name, v);
    }
    if (shown && used < len)
        used += (size_t)snprintf(buf + used, len - used, ")");
    return used < len ? 0 : ERR_RANGE;
}
