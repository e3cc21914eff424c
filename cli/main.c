/* main.c — the parlor command: a table of subcommands {name, fn, help}
 * and the small helpers they share (usage, errors, numbers, JSON).
 *
 * main() checks the game registry, finds the subcommand named by argv[1]
 * and hands it the rest of the command line. Exit codes: 0 success,
 * 1 runtime error, 2 bad usage.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/mem.h"
#include "../common/params.h"
#include "../protocol/codec.h"
#include "cli.h"

static int cmd_help(int argc, char **argv);

/* ---- the dispatch table ------------------------------------------------ */

static const struct cli_cmd commands[] = {
    {"games", cmd_games, "[NAME|SPEC] [--json] [--names]",
     "list the games, or describe one: options, sizes, observation, actions",
     "  --json     print JSON instead of text\n"
     "  --names    print only the game names, one a line\n"},
    {"play", cmd_play,
     "SPEC [--seats S0,S1,...] [--seed N] [--deck CARDS] [--quiet] [--json]",
     "play a game at the terminal against bots, or watch bots play",
     "  --seats LIST  one agent spec or \"human\" per seat, comma-separated\n"
     "                (default: human in seat 0, random elsewhere)\n"
     "  --seed N      seed of the deal and of the agents (default 1)\n"
     "  --deck CARDS  cards on top of the pack in order, e.g. \"AS 10H QC\":\n"
     "                as many as the game's init takes (one pack for most\n"
     "                games; Dice 64 faces; Trix Football 20 a deal, 8\n"
     "                deals); beyond that the limit is named and refused.\n"
     "                Seat 0 then deals first; without one, games whose\n"
     "                books draw for the first dealer draw a seeded seat\n"
     "  --quiet       print only the result, not every step\n"
     "  --json        one JSON object a line: start, step, event, prompt\n"
     "                (state text, view, legal actions with ids and names),\n"
     "                error, result; a person answers with an action id\n"
     "                or name\n"
     "After each step lines starting \"  * \" tell what it caused: tricks\n"
     "won, deals ended (each seat's gain) and begun, scores and results.\n"
     "At your turn type a number from the list or an action's name;\n"
     "cards may be typed in ASCII (\"play TH\", \"10h\", \"Qs\": rank A 2-10\n"
     "T J Q K, suit C D H S, any case), and a card alone picks the one\n"
     "legal action naming it. ? shows the table again; end of input\n"
     "(Ctrl-D) quits.\n"},
    {"bench", cmd_bench, "SPEC|all [--seconds S] [--json]",
     "time random playouts, env_step and the observation, view, clone, "
     "determinize",
     "  --seconds S  length of the playout run (default 3)\n"
     "  --json       print JSON instead of text (one object per game)\n"
     "SPEC \"all\" runs every game with its defaults, one table row each.\n"
     "The last line, \"Bench: HASH\", fingerprints the actions of 1000\n"
     "seeded random episodes, so behaviour changes show.\n"},
    {"serve", cmd_serve,
     "[--bind ENDPOINT] [--curve-secret FILE [--allow DIR]] [LIMITS] "
     "[--quiet]",
     "serve environments over ZeroMQ (protocol/PROTOCOL.md)",
     "  --bind ENDPOINT       where to listen (default tcp://127.0.0.1:5555;\n"
     "                        tcp://HOST:* picks a free port, ipc://PATH)\n"
     "  --curve-secret FILE   CURVE: the server's key pair (parlor keygen);\n"
     "                        clients then need its public key\n"
     "  --allow DIR           with CURVE, admit only the clients whose\n"
     "                        NAME.key is in DIR (else any key: encrypted\n"
     "                        but not authenticated)\n"
     "  --quiet               log nothing to stderr\n"
     "Limits (PROTOCOL.md, Security):\n"
     "  --max-msg BYTES       largest request answered (default 1048576)\n"
     "  --max-envs N          most envs one client holds (default 4096)\n"
     "  --max-clients N       most clients holding envs (default 256)\n"
     "  --max-per-peer N      most of them from one key or address (32)\n"
     "  --max-total N         most envs on the server (default 65536)\n"
     "  --max-peer-envs N     most envs of one key or address, all its\n"
     "                        clients together (default max-total / 8)\n"
     "  --idle-timeout S      close a silent client's envs after S seconds\n"
     "                        (default 600)\n"
     "  --max-unused S        ... and envs not made, reset, stepped or\n"
     "                        closed for S seconds, pings or not (3600)\n"
     "  --max-reply BYTES     largest reply (default 16777216)\n"
     "  --reply-budget BYTES  unread reply bytes a connection may have\n"
     "                        before it is refused (default 67108864)\n"
     "  --reply-peer BYTES    the same for all connections of one key or\n"
     "                        address (default reply-total / 8)\n"
     "  --reply-total BYTES   the same for all together, refusing only\n"
     "                        connections with unread replies (1073741824)\n"
     "  --opp-work N          playouts a move of every opponent of one make\n"
     "                        may start, shared among them (default 2000;\n"
     "                        pimc: samples x playouts x most legal actions)\n"
     "  --opp-time-ms MS      search time likewise (default 100)\n"
     "The first line on stdout is \"parlor serve: listening on ENDPOINT\".\n"
     "SIGINT or SIGTERM stops the server and closes every env.\n"},
    {"tournament", cmd_tournament,
     "--game SPEC --agents LIST --out DIR [--deals N] [--jobs J] [--seed S] "
     "[--lineups N] [--shard I/N|auto] [--resume] [--move-time SEC] "
     "[--arena ENDPOINT [--bot-wait SEC] [--curve-secret FILE --allow DIR]] "
     "[--bot-memory MB] [--bot-cpu SEC] [--quiet]",
     "round-robin of agents over duplicate deals, into a crash-safe journal",
     "  --game SPEC     the game, e.g. 'thirty_one(players=2)'\n"
     "  --agents LIST   agent specs, comma-separated (commas inside\n"
     "                  parentheses belong to the spec); NAME=SPEC labels\n"
     "                  one, needed for the same spec twice (a control:\n"
     "                  equal agents should rate equal): "
     "'random,a=pimc,b=pimc';\n"
     "                  cmd:COMMAND spawns an external bot, bot:NAME plays\n"
     "                  through the bot that connects to --arena as NAME\n"
     "  --out DIR       where the journal goes: DIR/journal.jsonl, or\n"
     "                  DIR/journal.shard-I-of-N.jsonl for a shard\n"
     "  --deals N       deals (seeds) every line-up plays (default 100)\n"
     "  --jobs J        worker threads (default: the number of CPUs)\n"
     "  --seed S        master seed of the deals (default 1)\n"
     "  --lineups N     line-ups per deal: all combinations of agents when\n"
     "                  there are at most N, else a balanced sample of N\n"
     "                  per deal (default 120)\n"
     "  --move-time SEC seconds an external bot (cmd:COMMAND, spawned with\n"
     "                  its endpoint in PARLOR_ENDPOINT) has per move; a\n"
     "                  bot that is late, dies, answers garbage or an\n"
     "                  illegal action forfeits the game (default 1)\n"
     "  --arena ENDPOINT where bots that connect by themselves (agents\n"
     "                  bot:NAME, matched by the name in their hello) find\n"
     "                  the tournament, e.g. tcp://0.0.0.0:5599\n"
     "  --bot-wait SEC  how long after the start a bot:NAME agent waits\n"
     "                  for its bot to connect before forfeiting (default 10)\n"
     "  --curve-secret FILE  the arena's key pair (parlor keygen): CURVE\n"
     "                  encryption for the bots' connections\n"
     "  --allow DIR     with --curve-secret: only the keys DIR/NAME.key may\n"
     "                  connect, each only as bot NAME (without: names are\n"
     "                  not authenticated, and a warning says so)\n"
     "  --bot-memory MB address space of each process of a cmd: bot\n"
     "                  (default: no limit); past it allocations fail\n"
     "  --bot-cpu SEC   CPU time of each process of a cmd: bot (default: no\n"
     "                  limit); past it the bot is killed and forfeits\n"
     "  --shard I/N     play only shard I of N (1 <= I <= N); the shards'\n"
     "                  journals merge in parlor rate and parlor plot;\n"
     "                  auto: this Slurm array task's shard (task ID-MIN+1\n"
     "                  of COUNT, from SLURM_ARRAY_TASK_ID/_MIN/_COUNT)\n"
     "  --resume        finish the journal in DIR: exactly the games it\n"
     "                  lacks; options left out come from its header\n"
     "  --quiet         no progress line\n"
     "Every line-up of agents plays every deal once per rotation of its\n"
     "agents through the seats (teams in partnership games). With fewer\n"
     "agents than sides, agents fill several seats.\n"},
    {"rate", cmd_rate,
     "JOURNAL|DIR... [--anchor NAME] [--bootstrap N] [--prior G] "
     "[--csv|--json]",
     "ratings (Bradley-Terry, Elo scale) with intervals, LOS, crosstable",
     "  --anchor NAME   agent rated 0 (default: random if playing, else the\n"
     "                  ratings average 0)\n"
     "  --bootstrap N   resamples of the deals for the 95% intervals and\n"
     "                  LOS (default 1000; 0: none)\n"
     "  --prior G       virtual drawn games added to every pair that met,\n"
     "                  so unbeaten agents stay finite (default 1)\n"
     "  --csv           the ratings table as CSV\n"
     "  --json          everything as one JSON object\n"
     "A directory stands for its journal*.jsonl files (all shards). A\n"
     "journal is read (here, and by plot, replay and report) only if its\n"
     "header is one parlor tournament writes: its game's seats and teams,\n"
     "1 to 1000000000 deals, 1 to 100000 line-ups, at most 2^34 games.\n"},
    {"plot", cmd_plot,
     "JOURNAL|DIR... --out DIR [--anchor NAME] [--bootstrap N] [--prior G] "
     "[--scripts DIR]",
     "plots through gnuplot: ratings, rating progression, head-to-head",
     "  --out DIR       where the TSV tables and PNG/SVG plots go\n"
     "  --scripts DIR   the gnuplot scripts (default: plots/ beside the\n"
     "                  build directory, or $PARLOR_PLOTS)\n"
     "  --anchor, --bootstrap, --prior  as for parlor rate\n"
     "Writes ratings.tsv, progress.tsv, h2h.tsv and ratings, progress,\n"
     "h2h as .png and .svg. Needs gnuplot (Debian: gnuplot-nox).\n"},
    {"replay", cmd_replay,
     "JOURNAL|DIR DEAL LINEUP ROTATION | JOURNAL|DIR DEAL:LINEUP:ROTATION",
     "show a tournament game again, move by move, and check it",
     "The game is the journal line with those \"deal\", \"lineup\" and\n"
     "\"rotation\" values, given as three numbers or as one id \"0:1:2\";\n"
     "it is dealt again from its seed and its recorded moves are applied\n"
     "and printed as parlor play prints them, with what each caused.\n"
     "Exits 1 if the replay does not reach the journal's steps and returns.\n"},
    {"report", cmd_report, "DIR [--out FILE]",
     "one self-contained HTML page of a tournament (default DIR/report.html)",
     "The page shows the settings, the ratings with intervals and forfeits\n"
     "(as parlor rate --json, its defaults), LOS and the crosstable, the\n"
     "forfeits with their reasons, the plots of parlor plot as inline SVG,\n"
     "and every game with its replay (the first 200 in full). Needs gnuplot.\n"},
    {"agents", cmd_agents, "[NAME] [--json]",
     "list the built-in agents and their options, and the external bots",
     "  --json     print JSON instead of text\n"
     "An agent is named by a spec like a game: 'ismcts(iters=2000,c=1)'.\n"},
    {"keygen", cmd_keygen, "BASE",
     "write a CURVE key pair: BASE.key (public), BASE.key_secret (private)",
     "The key pair authenticates and encrypts ZeroMQ traffic: a server\n"
     "(parlor serve, parlor tournament --arena) takes its BASE.key_secret\n"
     "with --curve-secret and accepts the clients whose NAME.key files are\n"
     "in its --allow directory; a client or bot is known by that NAME.\n"
     "Existing files are never overwritten.\n"},
    {"help", cmd_help, "[COMMAND]", "show this help, or a command's", ""},
};

#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const struct cli_cmd *find_cmd(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

static void print_overview(FILE *out)
{
    fprintf(out, "usage: parlor COMMAND [ARGS]\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(out,
            "\nA game is named by a spec: NAME or NAME(option=value,...),\n"
            "e.g. 'spoil_five(players=4)'; `parlor games NAME` lists its\n"
            "options. `parlor COMMAND --help` shows a command's options.\n"
            "Exit status: 0 success, 1 runtime error, 2 bad usage.\n");
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stdout);
        return CLI_OK;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        cmd = "help";
    if (!find_cmd(cmd))
        return cli_usage_error("help", "unknown command '%s'", cmd);
    cli_usage(cmd, stdout);
    return CLI_OK;
}

int main(int argc, char **argv)
{
    char err[512];
    if (game_registry_check(err, sizeof err)) {
        fprintf(stderr, "parlor: %s\n", err);
        return CLI_FAIL;
    }
    if (argc < 2) {
        print_overview(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_overview(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("parlor %s (protocol %d, %d games)\n", PARLOR_VERSION,
               PROTO_VERSION, game_registry_count);
        return CLI_OK;
    }
    const struct cli_cmd *c = find_cmd(argv[1]);
    if (!c) {
        fprintf(stderr, "parlor: unknown command '%s'\n", argv[1]);
        print_overview(stderr);
        return CLI_USAGE;
    }
    return c->fn(argc - 1, argv + 1);
}

/* ---- usage and errors -------------------------------------------------- */

void cli_usage(const char *cmd, FILE *out)
{
    const struct cli_cmd *c = find_cmd(cmd);
    if (!c)
        return;
    fprintf(out, "usage: parlor %s %s\n  %s\n", c->name, c->args, c->help);
    if (c->detail[0])
        fprintf(out, "\n%s", c->detail);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "parlor %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    const struct cli_cmd *c = find_cmd(cmd);
    fprintf(stderr, "\nusage: parlor %s %s\n", cmd, c ? c->args : "");
    fprintf(stderr, "(parlor %s --help for more)\n", cmd);
    return CLI_USAGE;
}

int cli_bad_option(const char *cmd, int code, char **argv)
{
    const char *arg = argv[optind - 1];
    if (code == ':')
        return cli_usage_error(cmd, "option '%s' needs a value", arg);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "parlor %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_FAIL;
}

int cli_make_game(const char *cmd, const char *spec, struct game *g)
{
    char err[1024];
    if (game_make(g, spec, err, sizeof err)) {
        fprintf(stderr, "parlor %s: %s\n", cmd, err);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* ---- values ------------------------------------------------------------ */

bool cli_parse_double(const char *s, double min, double max, double *out)
{
    double v;
    if (!params_parse_number(s, false, &v) || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
    return params_parse_u64(s, out);
}

int cli_check_endpoint(const char *cmd, const char *opt, const char *endpoint)
{
    if (strncmp(endpoint, "tcp://", 6))
        return CLI_OK;
    const char *port = strrchr(endpoint + 6, ':');
    if (port && !strcmp(port + 1, "*"))
        return CLI_OK;
    long v = 0;
    size_t n = port ? strspn(port + 1, "0123456789") : 0;
    if (n && n <= 5 && !port[1 + n])
        v = strtol(port + 1, NULL, 10);
    if (v >= 1 && v <= 65535)
        return CLI_OK;
    return cli_usage_error(cmd,
                           "%s %s: a tcp:// endpoint ends in :PORT, a port "
                           "from 1 to 65535 or '*' for any free one",
                           opt, endpoint);
}

char *cli_describe(const struct game *g, const void *st, int seat)
{
    size_t len = 4096;
    char *buf = mem_alloc(len);
    int n = g->def->describe(g, st, seat, buf, len);
    if (n >= (int)len) {
        /* The game tells how long the whole text is: one retry fits. */
        len = (size_t)n + 1;
        mem_free(buf);
        buf = mem_alloc(len);
        g->def->describe(g, st, seat, buf, len);
    }
    buf[len - 1] = '\0';
    if (n < 0)
        buf[0] = '\0';
    return buf;
}

void cli_action_name(const struct game *g, const void *st, int action,
                     char *buf)
{
    buf[0] = '\0';
    game_action_name(g, st, action, buf, GAME_NAME_MAX);
    buf[GAME_NAME_MAX - 1] = '\0';
}

/* ---- JSON -------------------------------------------------------------- */

json_t *cli_json_str(const char *s)
{
    json_t *j = s ? json_string(s) : NULL;
    return j ? j : json_null();
}

json_t *cli_json_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

int cli_json_emit(const char *cmd, json_t *root)
{
    if (!root)
        return cli_fail(cmd, "could not build the JSON output");
    int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc || fputc('\n', stdout) == EOF || fflush(stdout))
        return cli_fail(cmd, "could not write the output");
    return CLI_OK;
}
