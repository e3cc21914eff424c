/* agent.c — the agent registry and the handle wrapping one agent. */
#include "agent.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "arena.h"
#include "remote.h"

#define AGENT(id) extern const struct agent_def id##_agent;
#include "agents.def"
#undef AGENT

const struct agent_def *const agent_registry[] = {
#define AGENT(id) &id##_agent,
#include "agents.def"
#undef AGENT
};

const int agent_registry_count =
    (int)(sizeof agent_registry / sizeof agent_registry[0]);

const struct agent_def *agent_find(const char *name)
{
    for (int i = 0; i < agent_registry_count; i++)
        if (!strcmp(agent_registry[i]->name, name))
            return agent_registry[i];
    return NULL;
}

/* The built-in agents' names, comma-separated, into list. */
static void agent_names(char *list, size_t len)
{
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < agent_registry_count && used < len; i++)
        used += (size_t)snprintf(list + used, len - used, "%s%s", i ? ", " : "",
                                 agent_registry[i]->name);
}

static void unknown_agent(const char *name, char *err, size_t errlen)
{
    char list[512];
    agent_names(list, sizeof list);
    err_set(err, errlen, ERR_NOTFOUND, "unknown agent '%s' (agents: %s)", name,
            list);
}

/* An external bot, "cmd:COMMAND" (remote.h) or "bot:NAME" (arena.h); its
 * spec is kept as given. */
static agent_t *external_new(const char *spec, const struct game *g,
                             struct arena *arena, char *err, size_t errlen)
{
    bool cmd = !strncmp(spec, REMOTE_CMD_PREFIX, strlen(REMOTE_CMD_PREFIX));
    agent_t *a = mem_alloc(sizeof *a);
    if (!a) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    a->def = cmd ? &remote_cmd_agent : &arena_bot_agent;
    a->game = *g;
    snprintf(a->spec, sizeof a->spec, "%s", spec);
    int rc =
        cmd ? remote_open(&a->game, spec + strlen(REMOTE_CMD_PREFIX), &a->self,
                          err, errlen)
            : arena_bot_open(arena, &a->game, spec + strlen(ARENA_BOT_PREFIX),
                             &a->self, err, errlen);
    if (rc) {
        mem_free(a);
        return NULL;
    }
    return a;
}

agent_t *agent_new(const char *spec, const struct game *g, char *err,
                   size_t errlen)
{
    return agent_new_at(spec, g, NULL, err, errlen);
}

/* Parses a built-in agent's spec into *def and vals. */
static int parse_builtin(const char *spec, const struct agent_def **def,
                         struct param_values *vals, char *err, size_t errlen)
{
    char name[SPEC_NAME_MAX], sub[512];
    const char *args;
    size_t args_len;
    int rc = spec_split(spec, name, &args, &args_len, err, errlen);
    if (rc)
        return rc;
    *def = agent_find(name);
    if (!*def)
        return unknown_agent(name, err, errlen), ERR_NOTFOUND;
    if (params_parse((*def)->params, (*def)->nparams, args, args_len, vals, sub,
                     sizeof sub))
        return err_set(err, errlen, ERR_INVAL, "%s: %s", name, sub);
    return 0;
}

static bool is_external(const char *spec)
{
    return !strncmp(spec, REMOTE_CMD_PREFIX, strlen(REMOTE_CMD_PREFIX)) ||
           !strncmp(spec, ARENA_BOT_PREFIX, strlen(ARENA_BOT_PREFIX));
}

agent_t *agent_new_at(const char *spec, const struct game *g,
                      struct arena *arena, char *err, size_t errlen)
{
    const struct agent_def *def;
    struct param_values vals;
    if (is_external(spec))
        return external_new(spec, g, arena, err, errlen);
    if (parse_builtin(spec, &def, &vals, err, errlen))
        return NULL;
    agent_t *a = mem_alloc(sizeof *a);
    if (!a) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    a->def = def;
    a->game = *g;
    params_format(def->name, def->params, def->nparams, &vals, a->spec,
                  sizeof a->spec);
    if (def->create(&a->game, &vals, &a->self, err, errlen)) {
        mem_free(a);
        return NULL;
    }
    return a;
}

int agent_check_bounded(const char *spec, const struct agent_limits *lim,
                        char *err, size_t errlen)
{
    const struct agent_def *def;
    struct param_values vals;
    if (is_external(spec)) {
        char list[512];
        agent_names(list, sizeof list);
        return err_set(err, errlen, ERR_INVAL,
                       "only built-in agents may play here, not external "
                       "bots (%s... or %s...): built-in agents are %s",
                       REMOTE_CMD_PREFIX, ARENA_BOT_PREFIX, list);
    }
    int rc = parse_builtin(spec, &def, &vals, err, errlen);
    if (rc || !def->check_limits)
        return rc;
    return def->check_limits(&vals, lim, err, errlen);
}

int agent_limit_fail(const char *agent, const char *name, double value,
                     double max, const struct agent_limits *lim, char *err,
                     size_t errlen)
{
    return err_set(err, errlen, ERR_RANGE,
                   "%s: %s=%.0f is more than the limit of %.0f per move%s%s",
                   agent, name, value, max, lim->hint ? " " : "",
                   lim->hint ? lim->hint : "");
}

void agent_game_over(agent_t *a, const void *st, int seat,
                     const struct agent_outcome *o)
{
    if (a->def->game_over)
        a->def->game_over(a->self, &a->game, st, seat, o);
}

const char *agent_failure(const agent_t *a, bool *never_started)
{
    *never_started = false;
    return a->def->failure ? a->def->failure(a->self, never_started) : NULL;
}

void agent_reseed(agent_t *a, uint64_t seed)
{
    if (a->def->reseed)
        a->def->reseed(a->self, seed);
}

const char *agent_spec(const agent_t *a)
{
    return a->spec;
}

void agent_destroy(agent_t **a)
{
    if (!a || !*a)
        return;
    (*a)->def->destroy((*a)->self);
    mem_free(*a);
    *a = NULL;
}
