/* test_serve.c — `parlor serve` as a process: it announces where it
 * listens (a wildcard tcp port resolved), serves a client, and exits 0 on
 * SIGTERM and on SIGINT; bad options are refused with exit status 2.
 *
 * The test waits on the announcement line, not on a timer: the server
 * prints it once bound, and reading it blocks until then.
 */
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

#include "protocol/client.h"

#define ANNOUNCE "parlor serve: listening on "

/* A running `parlor serve`. */
struct child {
    pid_t pid;          /* its process */
    char endpoint[512]; /* what it announced */
};

/* Starts PARLOR_BIN serve --bind bind --quiet and reads its announcement. */
static void start(struct child *c, const char *bind)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (!c->pid) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execl(PARLOR_BIN, PARLOR_BIN, "serve", "--bind", bind, "--quiet",
              (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *out = fdopen(fd[0], "r");
    char line[512];
    if (!fgets(line, sizeof line, out))
        fail_msg("parlor serve --bind %s printed nothing", bind);
    fclose(out);
    line[strcspn(line, "\n")] = '\0';
    assert_int_equal(strncmp(line, ANNOUNCE, strlen(ANNOUNCE)), 0);
    snprintf(c->endpoint, sizeof c->endpoint, "%s", line + strlen(ANNOUNCE));
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
        "--max-envs 0", "--idle-timeout x", "--bind",
        "--frobnicate", "extra-word",
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tcp_wildcard_and_sigterm),
        cmocka_unit_test(test_ipc_and_sigint),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
