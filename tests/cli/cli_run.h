/* cli_run.h — running the built parlor binary (PARLOR_BIN) as a user
 * would, for the CLI test programs: its exit status, stdout and stderr.
 * Header-only (static functions) so each test binary stays one file;
 * include it after cmocka.h.
 */
#ifndef PARLOR_TESTS_CLI_RUN_H
#define PARLOR_TESTS_CLI_RUN_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* One finished run of the binary. */
struct run {
    int code;  /* exit status; 128 + signal when killed */
    char *out; /* all of stdout, NUL-terminated, malloc'd */
    char *err; /* all of stderr, NUL-terminated, malloc'd */
};

static char *slurp(FILE *f)
{
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    buf[len] = '\0';
    return buf;
}

static void temp_file(char *path, const char *content)
{
    strcpy(path, "/tmp/parlor-cli-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = content ? strlen(content) : 0;
    assert_int_equal(write(fd, content ? content : "", len), (ssize_t)len);
    close(fd);
}

/* Runs PARLOR_BIN with args (shell words, quoted by the caller) and input
 * on stdin (NULL: empty). */
static void run_cli(struct run *r, const char *input, const char *fmt, ...)
{
    char args[4096], cmd[8192], in[64], err[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    temp_file(in, input);
    temp_file(err, NULL);
    /* timeout(1) only bounds a hang (a server that listens instead of
     * refusing its arguments): 124 fails the test instead of stalling it. */
    snprintf(cmd, sizeof cmd, "timeout -k 10 600 %s %s <%s 2>%s", PARLOR_BIN,
             args, in, err);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    r->out = slurp(p);
    int status = pclose(p);
    r->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    FILE *e = fopen(err, "r");
    assert_non_null(e);
    r->err = slurp(e);
    fclose(e);
    unlink(in);
    unlink(err);
}

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

#endif
