/* cmd_agents.c — `parlor agents [NAME] [--json]`: the built-in agents with
 * their options (default, allowed values, meaning), and the two kinds of
 * external bot a tournament can seat. */
#include <getopt.h>
#include <string.h>

#include "../agents/agent.h"
#include "../agents/arena.h"
#include "../agents/remote.h"
#include "cli.h"

#define CMD "agents"

/* The external kinds: not in the registry (they take a command or a
 * name, not options). */
static const struct {
    const char *spec, *doc;
} externals[] = {
    {REMOTE_CMD_PREFIX "COMMAND",
     "a bot program the tournament spawns, speaking the agent role of "
     "protocol/PROTOCOL.md (tournaments only; never from the network)"},
    {ARENA_BOT_PREFIX "NAME",
     "a bot that connects by itself to the tournament's --arena and says "
     "hello as NAME (tournaments only)"},
};

#define NEXTERNALS ((int)(sizeof externals / sizeof externals[0]))

static int print_text(const struct agent_def *only)
{
    for (int i = 0; i < agent_registry_count; i++) {
        const struct agent_def *d = agent_registry[i];
        if (only && d != only)
            continue;
        printf("%s%s — %s\n", i && !only ? "\n" : "", d->name, d->doc);
        cli_print_options(d->name, d->params, d->nparams);
    }
    if (only)
        return CLI_OK;
    printf("\nexternal bots:\n");
    for (int i = 0; i < NEXTERNALS; i++)
        printf("  %-12s %s\n", externals[i].spec, externals[i].doc);
    return CLI_OK;
}

static int print_json(const struct agent_def *only)
{
    json_t *list = json_array();
    for (int i = 0; i < agent_registry_count; i++) {
        const struct agent_def *d = agent_registry[i];
        if (!only || d == only)
            json_array_append_new(
                list, json_pack("{s:s, s:s, s:b, s:o}", "name", d->name, "doc",
                                d->doc, "external", 0, "options",
                                cli_options_json(d->params, d->nparams, NULL)));
    }
    for (int i = 0; i < NEXTERNALS && !only; i++)
        json_array_append_new(
            list, json_pack("{s:s, s:s, s:b, s:[]}", "name", externals[i].spec,
                            "doc", externals[i].doc, "external", 1, "options"));
    json_t *root = json_incref(only ? json_array_get(list, 0) : list);
    json_decref(list);
    return cli_json_emit(CMD, root);
}

int cmd_agents(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    bool json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c == 'j')
            json = true;
        else if (c == 'h') {
            cli_usage(CMD, stdout);
            return CLI_OK;
        } else
            return cli_bad_option(CMD, c, argv);
    }
    if (argc - optind > 1)
        return cli_usage_error(CMD, "name at most one agent");
    const struct agent_def *only = NULL;
    if (optind < argc && !(only = agent_find(argv[optind]))) {
        char names[256] = "";
        for (int i = 0; i < agent_registry_count; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names),
                     "%s%s", i ? ", " : "", agent_registry[i]->name);
        return cli_usage_error(CMD, "no agent named '%s' (agents: %s)",
                               argv[optind], names);
    }
    return json ? print_json(only) : print_text(only);
}
