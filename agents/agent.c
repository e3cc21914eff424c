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

static void unknown_agent(const char *name, char *err, size_t errlen)
{
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; i < agent_registry_count && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 i ? ", " : "", agent_registry[i]->name);
    err_set(err, errlen, ERR_NOTFOUND, "unknown agent '%s' (agents: %s)",
            name, list);
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
    int rc = cmd ? remote_open(&a->game, spec + strlen(REMOTE_CMD_PREFIX),
                               &a->self, err, errlen)
                 : arena_bot_open(arena, &a->game,
                                  spec + strlen(ARENA_BOT_PREFIX), &a->self,
                                  err, errlen);
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

agent_t *agent_new_at(const char *spec, const struct game *g,
                      struct arena *arena, char *err, size_t errlen)
{
    char name[SPEC_NAME_MAX], sub[512];
    const char *args;
    size_t args_len;
    struct param_values vals;
    if (!strncmp(spec, REMOTE_CMD_PREFIX, strlen(REMOTE_CMD_PREFIX)) ||
        !strncmp(spec, ARENA_BOT_PREFIX, strlen(ARENA_BOT_PREFIX)))
        return external_new(spec, g, arena, err, errlen);
    if (spec_split(spec, name, &args, &args_len, err, errlen))
        return NULL;
    const struct agent_def *def = agent_find(name);
    if (!def)
        return unknown_agent(name, err, errlen), NULL;
    if (params_parse(def->params, def->nparams, args, args_len, &vals, sub,
                     sizeof sub)) {
        err_set(err, errlen, ERR_INVAL, "%s: %s", name, sub);
        return NULL;
    }
    agent_t *a = mem_alloc(sizeof *a);
    if (!a) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    a->def = def;
    a->game = *g;
    params_format(name, def->params, def->nparams, &vals, a->spec,
                  sizeof a->spec);
    if (def->create(&a->game, &vals, &a->self, err, errlen)) {
        mem_free(a);
        return NULL;
    }
    return a;
}

void agent_game_over(agent_t *a, const void *st, int seat,
                     const struct agent_outcome *o)
{
    if (a->def->game_over)
        a->def->game_over(a->self, &a->game, st, seat, o);
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
