/* botproc.c — the supervisor of a spawned bot (botproc.h).
 *
 * The supervisor is forked from a threaded process and never execs, so
 * it may only make async-signal-safe calls: no stdio, no malloc, no
 * opendir. It finds its children by reading /proc with getdents64 and
 * each /proc/PID/stat with read(). Everything it needs (argv, limits) is
 * prepared before the fork.
 */
#include "botproc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/err.h"

#define ARGV_MAX (BOTPROC_ENV_MAX + 6) /* env, vars, sh, -c, cmd, NULL */

/* What the supervisor and the bot are given, ready before the fork. */
struct plan {
    const char *argv[ARGV_MAX];   /* /usr/bin/env VAR=... /bin/sh -c cmd */
    struct botproc_limits limits; /* for the bot */
    pid_t parent;                 /* the tournament's pid */
};

/* One entry of getdents64's output. */
struct dent64 {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* ---- the supervisor (async-signal-safe only) --------------------------- */

static volatile sig_atomic_t bot_pgid; /* the bot's group, once started */

/* SIGTERM (botproc_stop, or the tournament's death): end the bot now;
 * the supervisor's wait then returns and it cleans up. */
static void on_stop(int sig)
{
    (void)sig;
    if (bot_pgid > 0)
        kill(-(pid_t)bot_pgid, SIGKILL);
}

/* The number at s (digits only), or -1. */
static long parse_pid(const char *s)
{
    long v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++)
        v = v * 10 + (*s - '0');
    return *s ? -1 : v;
}

/* The parent of process name (a /proc entry), or -1. stat reads
 * "pid (comm) state ppid ...", and comm may hold spaces and ')'. */
static long parent_of(const char *name)
{
    char path[64] = "/proc/", buf[512];
    size_t n = strlen(name);
    if (n > 20)
        return -1;
    memcpy(path + 6, name, n);
    memcpy(path + 6 + n, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    if (got <= 0)
        return -1;
    buf[got] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || strlen(p) < 5)
        return -1;
    long v = 0;
    for (p += 4; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (*p - '0');
    return v;
}

/* Sends SIGKILL to every child of this process. */
static void kill_children(void)
{
    char buf[4096] __attribute__((aligned(8)));
    long self = getpid(), n;
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return;
    while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
        for (long off = 0; off < n;) {
            struct dent64 *d = (struct dent64 *)(buf + off);
            long pid = parse_pid(d->name);
            off += d->reclen;
            if (pid > 0 && parent_of(d->name) == self)
                kill((pid_t)pid, SIGKILL);
        }
    close(dir);
}

/* Runs in the bot's process: limits, then the command. */
static void run_bot(const struct plan *pl, pid_t supervisor)
{
    sigset_t none;
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the supervisor died: so do we */
    if (getppid() != supervisor)
        _exit(127);
    if (pl->limits.memory_mb > 0) {
        rlim_t b = (rlim_t)pl->limits.memory_mb << 20;
        setrlimit(RLIMIT_AS, &(struct rlimit){b, b});
    }
    if (pl->limits.cpu_s > 0) {
        rlim_t s = (rlim_t)pl->limits.cpu_s;
        setrlimit(RLIMIT_CPU, &(struct rlimit){s, s + 1});
    }
    signal(SIGTERM, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execv(pl->argv[0], (char *const *)pl->argv);
    _exit(127);
}

/* Kills the bot's group and then every child this subreaper has, over
 * and over (killing one re-parents its children here), until none. */
static void kill_tree(pid_t bot)
{
    kill(-bot, SIGKILL);
    for (;;) {
        kill_children();
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

/* The supervisor: starts the bot, waits for it or for SIGTERM, cleans
 * up, and exits with the bot's status. SIGTERM is blocked on entry. */
static void supervise(const struct plan *pl)
{
    struct sigaction sa;
    sigset_t term;
    int st = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop; /* no SA_RESTART: waitpid returns */
    sigaction(SIGTERM, &sa, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != pl->parent) /* the tournament died before prctl */
        _exit(127);
    setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    pid_t self = getpid(), bot = fork();
    if (bot == 0)
        run_bot(pl, self);
    if (bot > 0) {
        setpgid(bot, bot); /* also here: no race with on_stop's kill */
        bot_pgid = bot;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigprocmask(SIG_UNBLOCK, &term, NULL);
        while (waitpid(bot, &st, 0) < 0 && errno == EINTR)
            ;
        kill_tree(bot);
    }
    _exit(bot < 0 ? 127 : WIFEXITED(st) ? WEXITSTATUS(st) : 128);
}

/* ---- API --------------------------------------------------------------- */

/* A whole positive number from variable name, or 0. */
static long env_long(const char *name)
{
    const char *s = getenv(name);
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    return s && !*end && v > 0 ? v : 0;
}

void botproc_limits_from_env(struct botproc_limits *l)
{
    l->memory_mb = env_long(BOTPROC_MEMORY_ENV);
    l->cpu_s = env_long(BOTPROC_CPU_ENV);
}

int botproc_start(struct botproc *p, const char *cmd, const char *const *env,
                  int nenv, const struct botproc_limits *l)
{
    struct plan pl = {.argv = {"/usr/bin/env"}, .parent = getpid()};
    sigset_t term, old;
    int n = 1;
    for (int i = 0; i < nenv && i < BOTPROC_ENV_MAX; i++)
        pl.argv[n++] = env[i];
    pl.argv[n++] = "/bin/sh";
    pl.argv[n++] = "-c";
    pl.argv[n++] = cmd;
    pl.argv[n] = NULL;
    pl.limits = *l;
    /* Blocked across the fork: a stop before the supervisor's handler is
     * in place must wait for it, not kill it uncleaned. */
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, &old);
    pid_t pid = fork();
    if (pid == 0)
        supervise(&pl);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    p->pid = pid > 0 ? pid : 0;
    p->status = -1;
    return pid > 0 ? 0 : ERR_IO;
}

bool botproc_alive(struct botproc *p)
{
    int st;
    if (p->pid > 0 && waitpid(p->pid, &st, WNOHANG) == p->pid) {
        p->pid = 0;
        p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    }
    return p->pid > 0;
}

void botproc_stop(struct botproc *p)
{
    if (p->pid <= 0)
        return;
    kill(p->pid, SIGTERM);
    while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    p->pid = 0;
}
