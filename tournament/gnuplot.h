/* gnuplot.h — running the plot scripts (plots/NAME.gp) through gnuplot.
 *
 * gnuplot is started with posix_spawnp and an argument vector, never
 * through a shell: `gnuplot -e "ASSIGNMENTS" SCRIPT`. Values travel as
 * gnuplot single-quoted strings (a quote doubled inside), so a file name
 * or an agent's name cannot run gnuplot code.
 */
#ifndef PARLOR_GNUPLOT_H
#define PARLOR_GNUPLOT_H

#include <stddef.h>

#define GNUPLOT_INSTALL "sudo apt-get install gnuplot-nox" /* Debian */

/* Appends "name='value'; " to buf (len bytes, NUL-terminated). Returns 0,
 * ERR_INVAL (value holds a control character) or ERR_RANGE (no room). */
int gnuplot_assign(char *buf, size_t len, const char *name, const char *value);

/* Runs gnuplot on script after assignments and waits for it. Returns 0,
 * ERR_NOTFOUND when gnuplot is not installed (the message says what to
 * install), or ERR_IO when it could not start or failed. */
int gnuplot_run(const char *script, const char *assignments, char *err,
                size_t errlen);

/* Finds the directory of the gnuplot scripts into buf: given if not NULL,
 * else $PARLOR_PLOTS, else plots/ beside the directory of the running
 * program (build/parlor -> plots/), else ./plots. Returns 0 or
 * ERR_NOTFOUND with a message. */
int gnuplot_scripts(const char *given, char *buf, size_t len, char *err,
                    size_t errlen);

#endif
