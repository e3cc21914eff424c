/* botproc.h — a spawned bot's processes: the command runs under a small
 * supervisor of its own, so that every process the bot starts dies with
 * it, whatever it forks, and when the tournament dies (PROTOCOL.md §12).
 *
 * The supervisor is a forked copy of the tournament that execs nothing:
 * it becomes a child subreaper (orphans of the bot's tree are re-parented
 * to it, setsid() or not), starts `/bin/sh -c COMMAND` in a process group
 * of its own with the resource limits asked for, and waits. When the bot
 * exits, when botproc_stop asks, or when the thread that started it dies
 * (PR_SET_PDEATHSIG, which kill -9 of the tournament triggers too), it
 * kills the bot's process group, then every child it has until none is
 * left, and exits. What it does not cover: a bot that kills its
 * supervisor first (its strays then go to init), or one that leaves
 * through another service (at, systemd-run); use a container for bots
 * that are hostile on purpose. Linux only (prctl).
 */
#ifndef PARLOR_BOTPROC_H
#define PARLOR_BOTPROC_H

#include <stdbool.h>
#include <sys/types.h>

#define BOTPROC_MEMORY_ENV "PARLOR_BOT_MEMORY_MB" /* address space limit */
#define BOTPROC_CPU_ENV "PARLOR_BOT_CPU_S"        /* CPU time limit */
#define BOTPROC_ENV_MAX 4                         /* variables set */

/* Resource limits of a bot's processes (each, not summed); 0: none. */
struct botproc_limits {
    long memory_mb; /* RLIMIT_AS, MiB: allocations past it fail */
    long cpu_s;     /* RLIMIT_CPU, seconds: past it the bot is killed */
};

/* A running bot. pid 0: none. */
struct botproc {
    pid_t pid;  /* the supervisor, 0 once reaped */
    int status; /* once reaped by botproc_alive: the bot's exit status
                 * (the shell's 127: command not found; 128: killed by a
                 * signal); -1 before */
};

/* The limits set in BOTPROC_MEMORY_ENV and BOTPROC_CPU_ENV (whole
 * positive numbers; anything else: none) into *l. */
void botproc_limits_from_env(struct botproc_limits *l);

/* Starts cmd with /bin/sh -c under a supervisor, with the nenv
 * (<= BOTPROC_ENV_MAX) "NAME=VALUE" strings env added to its environment
 * and limits l. Returns 0 or ERR_IO (fork failed). */
int botproc_start(struct botproc *p, const char *cmd, const char *const *env,
                  int nenv, const struct botproc_limits *l);

/* Whether the bot still runs (its supervisor exits when it does). */
bool botproc_alive(struct botproc *p);

/* Kills the bot and every process it started, and waits until they are
 * gone. Safe on a stopped or never started p. */
void botproc_stop(struct botproc *p);

#endif
