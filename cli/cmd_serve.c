/* cmd_serve.c — `parlor serve`: the environment server of env/server.h
 * on an endpoint, until SIGINT or SIGTERM.
 *
 * Once bound it prints one line to stdout, "parlor serve: listening on
 * ENDPOINT", with any wildcard port resolved, so that a script can start
 * it on tcp://127.0.0.1:* and read where it went. A signal asks the
 * server loop to return; the envs are then closed and the exit is 0.
 */
#include <getopt.h>
#include <signal.h>
#include <string.h>

#include "../env/server.h"
#include "../protocol/auth.h"
#include "cli.h"

/* The server the signal handler stops. A handler can reach nothing else:
 * this is the one mutable file-scope variable, set before the handlers
 * are installed and cleared after they are removed. */
static server_t *volatile serving;

static void on_signal(int sig)
{
    (void)sig;
    if (serving)
        server_stop(serving);
}

static void set_handlers(void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* The numeric options, in the order of their getopt values (LIMIT0 + i),
 * with the largest value each takes. */
enum { OPT_BIND = 256, OPT_CURVE, OPT_ALLOW, OPT_LIMIT0 };
static const struct {
    const char *name; /* the option, without "--" */
    double max;       /* its largest value (the smallest is 1) */
} limits[] = {
    {"max-msg", 1 << 30},       {"max-envs", 1 << 20},
    {"max-clients", 1 << 16},   {"max-per-peer", 1 << 16},
    {"max-total", 1 << 24},     {"idle-timeout", 1e7},
    {"max-unused", 1e7},        {"max-reply", 1 << 30},
    {"reply-budget", 1 << 30},  {"reply-total", 1ull << 40},
    {"opp-work", 1e9},          {"opp-time-ms", 3.6e6},
    {"max-peer-envs", 1 << 24}, {"reply-peer", 1ull << 40},
};
#define NLIMITS ((int)(sizeof limits / sizeof limits[0]))

/* Sets numeric option i of limits[] to v. */
static void set_limit(struct server_options *o, int i, double v)
{
    switch (i) {
    case 0:
        o->max_msg = (size_t)v;
        break;
    case 1:
        o->max_envs = (int)v;
        break;
    case 2:
        o->max_clients = (int)v;
        break;
    case 3:
        o->max_per_peer = (int)v;
        break;
    case 4:
        o->max_total = (int)v;
        break;
    case 5:
        o->idle_ms = (uint64_t)v * 1000u;
        break;
    case 6:
        o->max_unused_ms = (uint64_t)v * 1000u;
        break;
    case 7:
        o->max_reply = (size_t)v;
        break;
    case 8:
        o->reply_budget = (size_t)v;
        break;
    case 9:
        o->reply_total = (size_t)v;
        break;
    case 10:
        o->opp_work = (int)v;
        break;
    case 11:
        o->opp_time_ms = (int)v;
        break;
    case 12:
        o->max_peer_envs = (int)v;
        break;
    default:
        o->reply_peer = (size_t)v;
        break;
    }
}

static int parse_limit(struct server_options *o, int i, const char *arg)
{
    double v;
    if (cli_parse_double(arg, 1, limits[i].max, &v) && v == (double)(long)v) {
        set_limit(o, i, v);
        return CLI_OK;
    }
    return cli_usage_error("serve",
                           "--%s wants a whole number from 1 to %.0f, "
                           "got '%s'",
                           limits[i].name, limits[i].max, arg);
}

/* What the command line says besides the server's options. */
struct serve_args {
    bool quiet;               /* --quiet */
    const char *curve_secret; /* --curve-secret FILE, or NULL */
    struct auth_keypair keys; /* read from it */
};

/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, struct server_options *o,
                      struct serve_args *a)
{
    struct option opts[NLIMITS + 6] = {
        {"bind", required_argument, NULL, OPT_BIND},
        {"curve-secret", required_argument, NULL, OPT_CURVE},
        {"allow", required_argument, NULL, OPT_ALLOW},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
    };
    for (int i = 0; i < NLIMITS; i++)
        opts[5 + i] = (struct option){limits[i].name, required_argument, NULL,
                                      OPT_LIMIT0 + i};
    int c, rc = CLI_OK;
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, ":hq", opts, NULL)) != -1) {
        if (c == 'h')
            return cli_usage("serve", stdout), -1;
        else if (c == 'q')
            a->quiet = true;
        else if (c == OPT_BIND)
            rc = cli_check_endpoint("serve", "--bind", o->endpoint = optarg);
        else if (c == OPT_CURVE)
            a->curve_secret = optarg;
        else if (c == OPT_ALLOW)
            o->allow_dir = optarg;
        else if (c >= OPT_LIMIT0 && c < OPT_LIMIT0 + NLIMITS)
            rc = parse_limit(o, c - OPT_LIMIT0, optarg);
        else
            return cli_bad_option("serve", c, argv);
    }
    if (!rc && optind < argc)
        return cli_usage_error("serve", "unexpected argument '%s'",
                               argv[optind]);
    if (!rc && o->allow_dir && !a->curve_secret)
        return cli_usage_error("serve", "--allow needs --curve-secret (the "
                                        "server's key pair)");
    return rc;
}

/* Plain ZeroMQ where others can reach it: say so, once, at start. */
static void warn_if_open(const struct server_options *o, const char *endpoint)
{
    if (o->curve)
        return;
    if (auth_endpoint_is_public(endpoint))
        fprintf(stderr,
                "parlor serve: WARNING: %s is not a loopback address and "
                "the server runs without CURVE: anyone who can reach it "
                "may use it, and its traffic can be read and forged. "
                "Use --curve-secret FILE --allow DIR (parlor keygen).\n",
                endpoint);
}

int cmd_serve(int argc, char **argv)
{
    struct server_options o;
    struct serve_args a;
    char err[512];
    memset(&o, 0, sizeof o);
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &o, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (a.curve_secret &&
        auth_load_secret(a.curve_secret, &a.keys, err, sizeof err))
        return cli_fail("serve", "%s", err);
    o.curve = a.curve_secret ? &a.keys : NULL;
    o.log = a.quiet ? NULL : stderr;
    server_t *s = server_new(&o, err, sizeof err);
    if (!s)
        return cli_fail("serve", "%s", err);
    warn_if_open(&o, server_endpoint(s));
    /* Handlers first: whoever reads the announcement may signal at once. */
    serving = s;
    set_handlers(on_signal);
    printf("parlor serve: listening on %s\n", server_endpoint(s));
    fflush(stdout);
    rc = server_run(s);
    set_handlers(SIG_DFL);
    serving = NULL;
    if (rc)
        fprintf(stderr, "parlor serve: %s\n", server_errmsg(s));
    else if (!a.quiet)
        fprintf(stderr,
                "parlor serve: stopped; closing %d envs of %d "
                "clients\n",
                server_envs(s), server_clients(s));
    server_destroy(&s);
    return rc ? CLI_FAIL : CLI_OK;
}
