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

static int parse_limit(const char *opt, const char *arg, double max,
                       double *out)
{
    if (cli_parse_double(arg, 1, max, out) && *out == (double)(long)*out)
        return CLI_OK;
    return cli_usage_error("serve",
                           "%s wants a whole number from 1 to %.0f, "
                           "got '%s'",
                           opt, max, arg);
}

/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, struct server_options *o,
                      bool *quiet)
{
    static const struct option opts[] = {
        {"bind", required_argument, NULL, 'b'},
        {"max-msg", required_argument, NULL, 'm'},
        {"max-envs", required_argument, NULL, 'e'},
        {"max-clients", required_argument, NULL, 'c'},
        {"max-total", required_argument, NULL, 't'},
        {"idle-timeout", required_argument, NULL, 'i'},
        {"opp-work", required_argument, NULL, 'w'},
        {"opp-time-ms", required_argument, NULL, 'T'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c, rc = CLI_OK;
    double v = 0;
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, ":hq", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            return cli_usage("serve", stdout), -1;
        case 'q':
            *quiet = true;
            break;
        case 'b':
            o->endpoint = optarg;
            break;
        case 'm':
            rc = parse_limit("--max-msg", optarg, 1 << 30, &v);
            o->max_msg = (size_t)v;
            break;
        case 'e':
            rc = parse_limit("--max-envs", optarg, 1 << 20, &v);
            o->max_envs = (int)v;
            break;
        case 'c':
            rc = parse_limit("--max-clients", optarg, 1 << 16, &v);
            o->max_clients = (int)v;
            break;
        case 't':
            rc = parse_limit("--max-total", optarg, 1 << 24, &v);
            o->max_total = (int)v;
            break;
        case 'i':
            rc = parse_limit("--idle-timeout", optarg, 1e7, &v);
            o->idle_ms = (uint64_t)v * 1000u;
            break;
        case 'w':
            rc = parse_limit("--opp-work", optarg, 1e9, &v);
            o->opp_work = (int)v;
            break;
        case 'T':
            rc = parse_limit("--opp-time-ms", optarg, 3.6e6, &v);
            o->opp_time_ms = (int)v;
            break;
        default:
            return cli_bad_option("serve", c, argv);
        }
    }
    if (!rc && optind < argc)
        return cli_usage_error("serve", "unexpected argument '%s'",
                               argv[optind]);
    return rc;
}

int cmd_serve(int argc, char **argv)
{
    struct server_options o;
    bool quiet = false;
    char err[512];
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o, &quiet);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    o.log = quiet ? NULL : stderr;
    server_t *s = server_new(&o, err, sizeof err);
    if (!s)
        return cli_fail("serve", "%s", err);
    printf("parlor serve: listening on %s\n", server_endpoint(s));
    fflush(stdout);
    serving = s;
    set_handlers(on_signal);
    rc = server_run(s);
    set_handlers(SIG_DFL);
    serving = NULL;
    if (rc)
        fprintf(stderr, "parlor serve: %s\n", server_errmsg(s));
    else if (!quiet)
        fprintf(stderr,
                "parlor serve: stopped; closing %d envs of %d "
                "clients\n",
                server_envs(s), server_clients(s));
    server_destroy(&s);
    return rc ? CLI_FAIL : CLI_OK;
}
