/* gnuplot.c — finding the plot scripts and running gnuplot on them. */
#include "gnuplot.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/err.h"

extern char **environ;

#define PROBE "ratings.gp" /* a script that must be in the directory */

int gnuplot_assign(char *buf, size_t len, const char *name, const char *value)
{
    size_t used = strlen(buf);
    int n = snprintf(buf + used, len - used, "%s='", name);
    if (n < 0 || (size_t)n >= len - used)
        return ERR_RANGE;
    used += (size_t)n;
    for (const char *c = value; *c; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return ERR_INVAL;
        if (used + 3 >= len)
            return ERR_RANGE;
        if (*c == '\'')
            buf[used++] = '\'';
        buf[used++] = *c;
    }
    n = snprintf(buf + used, len - used, "'; ");
    return n < 0 || (size_t)n >= len - used ? ERR_RANGE : 0;
}

int gnuplot_run(const char *script, const char *assignments, char *err,
                size_t errlen)
{
    char prog[] = "gnuplot", opt[] = "-e";
    char *argv[] = {prog, opt, (char *)assignments, (char *)script, NULL};
    pid_t pid;
    int status;
    int rc = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (rc == ENOENT)
        return err_set(err, errlen, ERR_NOTFOUND,
                       "gnuplot is not installed; install it (Debian or "
                       "Ubuntu: %s) and run parlor plot again",
                       GNUPLOT_INSTALL);
    if (rc)
        return err_set(err, errlen, ERR_IO, "cannot start gnuplot: %s",
                       strerror(rc));
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return err_set(err, errlen, ERR_IO, "waiting for gnuplot: %s",
                           strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status))
        return err_set(err, errlen, ERR_IO, "gnuplot failed on %s", script);
    return 0;
}

static bool has_scripts(const char *dir)
{
    char probe[PATH_MAX + sizeof PROBE + 1];
    struct stat sb;
    int n = snprintf(probe, sizeof probe, "%s/%s", dir, PROBE);
    return n > 0 && (size_t)n < sizeof probe && !stat(probe, &sb) &&
           S_ISREG(sb.st_mode);
}

int gnuplot_scripts(const char *given, char *buf, size_t len, char *err,
                    size_t errlen)
{
    char exe[PATH_MAX], cand[PATH_MAX];
    const char *env = getenv("PARLOR_PLOTS");
    const char *pick = given ? given : env;
    ssize_t n = pick ? -1 : readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(cand, sizeof cand, "%s/../plots", dirname(exe));
        pick = has_scripts(cand) ? cand : "plots";
    }
    if (!pick || !has_scripts(pick))
        return err_set(err, errlen, ERR_NOTFOUND,
                       "no gnuplot scripts (%s) in %s; give --scripts DIR "
                       "or set PARLOR_PLOTS",
                       PROBE, pick ? pick : "plots");
    if (snprintf(buf, len, "%s", pick) >= (int)len)
        return err_set(err, errlen, ERR_RANGE, "path too long: %s", pick);
    return 0;
}
