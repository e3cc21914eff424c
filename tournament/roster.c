/* roster.c — parsing a tournament's agent list into names and specs. */
#include "roster.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../agents/agent.h"
#include "../agents/arena.h"
#include "../common/err.h"

#define LABEL_MAX 47 /* longest label */

/* ---- static helpers ---------------------------------------------------- */

static bool label_char(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '-';
}

/* Trims spaces off both ends of [*s, *s + *len). */
static void trim(const char **s, size_t *len)
{
    while (*len && isspace((unsigned char)**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

/* The length of the label prefix of item ("name=") or 0 if none; a label
 * ends at the first '=', before any '(' or other non-label character. */
static size_t label_len(const char *item, size_t len)
{
    size_t i = 0;
    while (i < len && label_char((unsigned char)item[i]))
        i++;
    return i > 0 && i < len && item[i] == '=' ? i : 0;
}

/* Checks spec by creating the agent for g once; writes its canonical
 * form to canon (GAME_SPEC_MAX bytes). */
static int canonical(const char *spec, const struct game *g, char *canon,
                     char *err, size_t errlen)
{
    char sub[1024];
    size_t bot = strlen(ARENA_BOT_PREFIX);
    if (!strncmp(spec, ARENA_BOT_PREFIX, bot)) { /* its bot is not here yet */
        if (arena_check_name(spec + bot, sub, sizeof sub))
            return err_set(err, errlen, ERR_INVAL, "agent '%s': %s", spec, sub);
        snprintf(canon, GAME_SPEC_MAX, "%s", spec);
        return 0;
    }
    agent_t *a = agent_new(spec, g, sub, sizeof sub);
    if (!a)
        return err_set(err, errlen, ERR_INVAL, "agent '%s': %s", spec, sub);
    snprintf(canon, GAME_SPEC_MAX, "%s", agent_spec(a));
    agent_destroy(&a);
    return 0;
}

/* Parses one item of the list ([item, item + len)). */
static int parse_item(struct roster *r, const char *item, size_t len,
                      const struct game *g, char *err, size_t errlen)
{
    char label[LABEL_MAX + 1] = "", spec[GAME_SPEC_MAX], canon[GAME_SPEC_MAX];
    trim(&item, &len);
    size_t ll = label_len(item, len);
    if (ll > LABEL_MAX)
        return err_set(err, errlen, ERR_INVAL,
                       "label '%.*s' is longer than %d characters", (int)ll,
                       item, LABEL_MAX);
    if (ll) {
        memcpy(label, item, ll);
        label[ll] = '\0';
        item += ll + 1;
        len -= ll + 1;
        trim(&item, &len);
    }
    if (!len)
        return err_set(err, errlen, ERR_SYNTAX,
                       "empty agent in the list (two commas in a row?)");
    if (len >= sizeof spec)
        return err_set(err, errlen, ERR_RANGE,
                       "agent spec '%.40s...' is "
                       "too long",
                       item);
    memcpy(spec, item, len);
    spec[len] = '\0';
    int rc = canonical(spec, g, canon, err, errlen);
    if (rc)
        return rc;
    return roster_add(r, ll ? label : canon, canon, err, errlen);
}

/* ---- API --------------------------------------------------------------- */

int roster_find(const struct roster *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->a[i].name, name))
            return i;
    return -1;
}

int roster_add(struct roster *r, const char *name, const char *spec, char *err,
               size_t errlen)
{
    if (r->n == ROSTER_MAX)
        return err_set(err, errlen, ERR_RANGE,
                       "a tournament takes 2 to %d agents; this list has "
                       "more",
                       ROSTER_MAX);
    if (!name[0] || strlen(name) >= ROSTER_NAME_MAX ||
        strlen(spec) >= GAME_SPEC_MAX)
        return err_set(err, errlen, ERR_INVAL, "bad agent name or spec '%s'",
                       name);
    int old = roster_find(r, name);
    if (old >= 0 && strcmp(name, spec))
        return err_set(err, errlen, ERR_INVAL,
                       "label '%s' names two agents ('%s' and '%s'); give "
                       "each its own label",
                       name, r->a[old].spec, spec);
    if (old >= 0)
        return err_set(err, errlen, ERR_INVAL,
                       "agent '%s' is listed twice; give each copy a "
                       "label, e.g. a=%s,b=%s",
                       name, spec, spec);
    snprintf(r->a[r->n].name, ROSTER_NAME_MAX, "%s", name);
    snprintf(r->a[r->n].spec, GAME_SPEC_MAX, "%s", spec);
    r->n++;
    return 0;
}

int roster_parse(struct roster *r, const char *list, const struct game *g,
                 char *err, size_t errlen)
{
    int depth = 0;
    memset(r, 0, sizeof *r);
    if (strlen(list) >= ROSTER_LIST_MAX)
        return err_set(err, errlen, ERR_RANGE, "the agent list is too long");
    const char *item = list;
    for (const char *c = list;; c++) {
        depth += (*c == '(') - (*c == ')');
        if (*c && (*c != ',' || depth > 0))
            continue;
        int rc = parse_item(r, item, (size_t)(c - item), g, err, errlen);
        if (rc || !*c)
            return rc;
        item = c + 1;
    }
}
