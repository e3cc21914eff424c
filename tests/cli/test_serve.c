/* test_serve.c — `parlor serve` as a process: it announces where it
 * listens (a wildcard tcp port resolved), serves a client, and exits 0 on
 * SIGTERM and on SIGINT; bad options are refused with exit status 2.
 *
 * The test waits on the announcement line, not on a timer: the server
 * prints it once bound, and reading it blocks until then.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "protocol/auth.h"
#include "protocol/client.h"

#define ANNOUNCE "parlor serve: listening on "

/* A running `parlor serve`. */
struct child {
    pid_t pid;          /* its process */
    char endpoint[512]; /* what it announced */
};

/* Starts PARLOR_BIN serve --bind bind [more...] --quiet (more: NULL or
 * up to 4 more words) and reads its announcement; its stderr goes to
 * *err when err is given (read it after stop). */
static void start_with(struct child *c, const char *bind,
                       const char *const *more, FILE **err)
{
    int fd[2], ef[2];
    const char *argv[12] = {PARLOR_BIN, "serve", "--bind", bind};
    int n = 4;
    while (more && *more && n < 9)
        argv[n++] = *more++;
    argv[n++] = "--quiet";
    assert_int_equal(pipe(fd), 0);
    assert_int_equal(pipe(ef), 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (!c->pid) {
        dup2(fd[1], STDOUT_FILENO);
        if (err)
            dup2(ef[1], STDERR_FILENO);
        close(fd[0]);
        close(fd[1]);
        close(ef[0]);
        close(ef[1]);
        execv(PARLOR_BIN, (char *const *)argv);
        _exit(127);
    }
    close(fd[1]);
    close(ef[1]);
    if (err)
        *err = fdopen(ef[0], "r");
    else
        close(ef[0]);
    FILE *out = fdopen(fd[0], "r");
    char line[512];
    if (!fgets(line, sizeof line, out))
        fail_msg("parlor serve --bind %s printed nothing", bind);
    fclose(out);
    line[strcspn(line, "\n")] = '\0';
    assert_int_equal(strncmp(line, ANNOUNCE, strlen(ANNOUNCE)), 0);
    snprintf(c->endpoint, sizeof c->endpoint, "%s", line + strlen(ANNOUNCE));
}

static void start(struct child *c, const char *bind)
{
    start_with(c, bind, NULL, NULL);
}

/* Sends sig and returns the exit status (-1 if it did not exit). */
static int stop(struct child *c, int sig)
{
    int status;
    kill(c->pid, sig);
    assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Plays a few steps on the server at endpoint, leaving an env open. */
static void use(const char *endpoint)
{
    char err[256];
    client_t *cl = client_new(endpoint, NULL, err, sizeof err);
    assert_non_null(cl);
    client_set_timeout(cl, 20000);
    assert_int_equal(client_hello(cl, "test_serve"), 0);
    client_env_t *e = client_make(cl, "dice(players=3)", NULL);
    assert_non_null(e);
    assert_int_equal(client_reset(e, 4), 0);
    assert_int_equal(client_step(e, 0), 0); /* dice: 0 is "roll" */
    client_forget(&e); /* left open on purpose: stopping must close it */
    client_destroy(&cl);
}

static void test_tcp_wildcard_and_sigterm(void **state)
{
    (void)state;
    struct child c;
    start(&c, "tcp://127.0.0.1:*");
    /* The port is resolved: the endpoint ends in digits, not "*". */
    const char *colon = strrchr(c.endpoint, ':');
    assert_non_null(colon);
    assert_true(atoi(colon + 1) > 0);
    use(c.endpoint);
    assert_int_equal(stop(&c, SIGTERM), 0);
}

static void test_ipc_and_sigint(void **state)
{
    (void)state;
    char bind[128];
    snprintf(bind, sizeof bind, "ipc:///tmp/parlor-test-serve-%d.sock",
             (int)getpid());
    struct child c;
    start(&c, bind);
    assert_string_equal(c.endpoint, bind);
    use(c.endpoint);
    assert_int_equal(stop(&c, SIGINT), 0);
    unlink(bind + strlen("ipc://"));
}

static void test_bad_options(void **state)
{
    (void)state;
    char cmd[512];
    static const char *const bad[] = {
        "--max-envs 0", "--idle-timeout x", "--bind",       "--frobnicate",
        "extra-word",   "--opp-work 0",     "--allow /tmp",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s serve %s 2>/dev/null", PARLOR_BIN,
                 bad[i]);
        int status = system(cmd);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 2)
            fail_msg("parlor serve %s: status %d, expected 2", bad[i], status);
    }
    /* An endpoint ZeroMQ refuses is a runtime failure, status 1. */
    snprintf(cmd, sizeof cmd, "%s serve --bind nowhere://x 2>/dev/null",
             PARLOR_BIN);
    int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
}

/* Whether stream err (read to its end) holds what. */
static bool says(FILE *err, const char *what)
{
    char line[1024];
    bool found = false;
    while (fgets(line, sizeof line, err))
        found = found || strstr(line, what);
    fclose(err);
    return found;
}

/* Plain TCP on a non-loopback address is served, with a warning. */
static void test_public_plain_warns(void **state)
{
    (void)state;
    struct child c;
    FILE *err;
    start_with(&c, "tcp://0.0.0.0:*", NULL, &err);
    assert_int_equal(stop(&c, SIGTERM), 0);
    assert_true(says(err, "WARNING"));
    start_with(&c, "tcp://127.0.0.1:*", NULL, &err);
    assert_int_equal(stop(&c, SIGTERM), 0);
    assert_false(says(err, "WARNING"));
}

/* --curve-secret and --allow: a client with an allowed key is served
 * (parlor keygen writes the keys). */
static void test_curve(void **state)
{
    (void)state;
    char dir[] = "/tmp/parlor-serve-curve-XXXXXX", cmd[512], path[128];
    char allow[96], secret[128], err[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "mkdir %s/allow && %s keygen %s/server >/dev/null && "
             "%s keygen %s/alice >/dev/null && cp %s/alice.key %s/allow/",
             dir, PARLOR_BIN, dir, PARLOR_BIN, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(allow, sizeof allow, "%s/allow", dir);
    snprintf(secret, sizeof secret, "%s/server.key_secret", dir);
    const char *more[] = {"--curve-secret", secret, "--allow", allow, NULL};
    struct child c;
    FILE *errs;
    start_with(&c, "tcp://0.0.0.0:*", more, &errs);
    struct auth_keypair server, alice;
    snprintf(path, sizeof path, "%s/server.key", dir);
    assert_int_equal(auth_load_public(path, server.pub, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/alice.key_secret", dir);
    assert_int_equal(auth_load_secret(path, &alice, err, sizeof err), 0);
    const char *port = strrchr(c.endpoint, ':');
    char ep[64];
    snprintf(ep, sizeof ep, "tcp://127.0.0.1%s", port);
    client_t *cl = client_new_opts(
        ep, NULL,
        &(struct client_options){.server_key = server.pub, .keys = &alice}, err,
        sizeof err);
    assert_non_null(cl);
    client_set_timeout(cl, 30000);
    assert_int_equal(client_ping(cl), 0);
    client_destroy(&cl);
    assert_int_equal(stop(&c, SIGTERM), 0);
    assert_false(says(errs, "WARNING")); /* CURVE: no warning */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* {v: 1, id: 1, type: "ping"} packed by hand. */
static const unsigned char PING[] = {0x83, 0xa1, 'v',  0x01, 0xa2, 'i',
                                     'd',  0x01, 0xa4, 't',  'y',  'p',
                                     'e',  0xa4, 'p',  'i',  'n',  'g'};

/* A DEALER on endpoint with routing id id (idlen 0: libzmq's), which
 * pings and says whether a ping reply came (30 s bound a hang). */
static bool pings(void *ctx, const char *endpoint, void **sock, const void *id,
                  size_t idlen)
{
    char reply[256];
    int timeout = 30000, zero = 0;
    if (!*sock) {
        *sock = zmq_socket(ctx, ZMQ_DEALER);
        zmq_setsockopt(*sock, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
        zmq_setsockopt(*sock, ZMQ_LINGER, &zero, sizeof zero);
        if (idlen)
            zmq_setsockopt(*sock, ZMQ_ROUTING_ID, id, idlen);
        assert_int_equal(zmq_connect(*sock, endpoint), 0);
    }
    assert_int_equal(zmq_send(*sock, PING, sizeof PING, 0), (int)sizeof PING);
    int n = zmq_recv(*sock, reply, sizeof reply, 0);
    return n > 4 && memmem(reply, (size_t)n, "ping", 4);
}

/* libzmq 4.3 names a connection without a routing id 0x00 + a counter
 * started from rand(); unseeded, the first is 00 6b 8b 45 67, and a
 * client that has claimed it made the next anonymous connection abort
 * the server (an assertion in libzmq's ROUTER). The server seeds the
 * counter, so both connections are served and it exits cleanly. */
static void test_claimed_first_routing_id(void **state)
{
    (void)state;
    static const unsigned char first[] = {0x00, 0x6b, 0x8b, 0x45, 0x67};
    struct child c;
    start(&c, "tcp://127.0.0.1:*");
    void *ctx = zmq_ctx_new(), *claim = NULL, *anon = NULL;
    assert_true(pings(ctx, c.endpoint, &claim, first, sizeof first));
    assert_true(pings(ctx, c.endpoint, &anon, NULL, 0));
    assert_true(pings(ctx, c.endpoint, &claim, NULL, 0));
    zmq_close(claim);
    zmq_close(anon);
    zmq_ctx_term(ctx);
    assert_int_equal(stop(&c, SIGTERM), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tcp_wildcard_and_sigterm),
        cmocka_unit_test(test_ipc_and_sigint),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_public_plain_warns),
        cmocka_unit_test(test_curve),
        cmocka_unit_test(test_claimed_first_routing_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
