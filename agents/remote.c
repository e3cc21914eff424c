/* remote.c — the agent kind that seats an external bot spawned from a
 * command (remote.h; wire format in PROTOCOL.md §12). ZeroMQ lives here
 * and in env/, never in the games. */
#include "remote.h"

#include <msgpack.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>
#include <zmq.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "botmsg.h"

#define POLL_SLICE_MS 50 /* how often a wait checks the process is alive */

struct remote {
    char cmd[GAME_SPEC_MAX];   /* the command line */
    void *ctx, *sock;          /* NULL until started */
    pid_t pid;                 /* the bot's process, 0 if none or reaped */
    pid_t pgid;                /* its process group, 0 if none */
    bool broken;               /* failed once: every act fails */
    uint64_t next_id;          /* id of the next act request */
    char endpoint[128];        /* where the socket is bound */
    msgpack_sbuffer out;       /* the message being built */
    struct botmsg_req req;     /* the act request's buffers, move limit */
};

/* ---- process and socket ------------------------------------------------ */

static bool alive(struct remote *r)
{
    int status;
    if (r->pid > 0 && waitpid(r->pid, &status, WNOHANG) == r->pid)
        r->pid = 0;
    return r->pid > 0;
}

/* Kills the whole process group: the shell may have forked the bot and
 * died first, leaving it behind. */
static void stop(struct remote *r)
{
    if (r->pgid > 0)
        kill(-r->pgid, SIGKILL);
    if (r->pid > 0)
        waitpid(r->pid, NULL, 0);
    r->pid = r->pgid = 0;
    if (r->sock)
        zmq_close(r->sock);
    if (r->ctx)
        zmq_ctx_term(r->ctx);
    r->sock = r->ctx = NULL;
}

/* Runs the command in its own process group with the endpoint set
 * (through env(1): the child of a threaded process must not setenv). */
static int spawn(struct remote *r)
{
    char env[sizeof r->endpoint + 32];
    snprintf(env, sizeof env, "PARLOR_ENDPOINT=%s", r->endpoint);
    pid_t pid = fork();
    if (pid < 0)
        return ERR_IO;
    if (pid == 0) { /* only async-signal-safe calls until exec */
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* no orphans if the arena dies */
#endif
        execl("/usr/bin/env", "env", env, "/bin/sh", "-c", r->cmd,
              (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no race with the kill in stop() */
    r->pid = r->pgid = pid;
    return 0;
}

static int bind_socket(struct remote *r)
{
    int64_t max = REMOTE_MSG_MAX;
    int zero = 0;
    size_t len = sizeof r->endpoint;
    r->ctx = zmq_ctx_new();
    r->sock = r->ctx ? zmq_socket(r->ctx, ZMQ_DEALER) : NULL;
    if (!r->sock)
        return ERR_IO;
    zmq_setsockopt(r->sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(r->sock, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_bind(r->sock, "tcp://127.0.0.1:*") ||
        zmq_getsockopt(r->sock, ZMQ_LAST_ENDPOINT, r->endpoint, &len))
        return ERR_IO;
    return 0;
}

/* Waits up to ms for one message into buf (REMOTE_MSG_MAX bytes); *len
 * gets its length. Returns 0, ERR_TIMEOUT, ERR_IO (process gone) or
 * ERR_PROTO (too long). */
static int receive(struct remote *r, int ms, char *buf, size_t *len)
{
    *len = REMOTE_MSG_MAX;
    zmq_pollitem_t it = {.socket = r->sock, .events = ZMQ_POLLIN};
    for (int left = ms; left > 0; left -= POLL_SLICE_MS) {
        int n = zmq_poll(&it, 1, left < POLL_SLICE_MS ? left : POLL_SLICE_MS);
        if (n > 0) {
            int got = zmq_recv(r->sock, buf, *len, ZMQ_DONTWAIT);
            if (got < 0)
                return ERR_IO;
            if ((size_t)got > *len)
                return ERR_PROTO;
            *len = (size_t)got;
            return 0;
        }
        if (n < 0 || !alive(r))
            return ERR_IO;
    }
    return ERR_TIMEOUT;
}

/* ---- messages ---------------------------------------------------------- */

static int send_out(struct remote *r)
{
    return zmq_send(r->sock, r->out.data, r->out.size, ZMQ_DONTWAIT) < 0
               ? ERR_IO
               : 0;
}

/* Binds, spawns, waits for the hello and welcomes the bot. */
static int start(struct remote *r, const struct game *g)
{
    char buf[REMOTE_MSG_MAX], name[BOTMSG_NAME_MAX];
    size_t len;
    int rc = bind_socket(r);
    rc = rc ? rc : spawn(r);
    rc = rc ? rc : receive(r, REMOTE_HELLO_MS, buf, &len);
    rc = rc ? rc : botmsg_read_hello(buf, len, name);
    if (!rc)
        botmsg_welcome(&r->out, g->spec);
    return rc ? rc : send_out(r);
}

/* ---- agent ops --------------------------------------------------------- */

static int remote_act(void *self, const struct game *g, const void *st,
                      int seat, int *action)
{
    struct remote *r = self;
    char buf[REMOTE_MSG_MAX];
    size_t len;
    int rc = r->broken ? ERR_IO : 0;
    if (!rc && !r->sock)
        rc = start(r, g);
    if (!rc) {
        r->req.id = r->next_id++;
        botmsg_act(&r->out, &r->req, g, st, seat);
        rc = send_out(r);
    }
    rc = rc ? rc : receive(r, r->req.deadline_ms, buf, &len);
    rc = rc ? rc : botmsg_read_answer(&r->req, buf, len, action);
    r->broken = rc != 0;
    return rc;
}

/* Tells a running bot the result; no answer is awaited. */
static void remote_game_over(void *self, const struct game *g, const void *st,
                             int seat, const struct agent_outcome *o)
{
    struct remote *r = self;
    if (r->broken || !r->sock)
        return;
    r->req.id = r->next_id++;
    botmsg_result(&r->out, &r->req, g, st, seat, o);
    r->broken = send_out(r) != 0;
}

/* Says goodbye to a bot in good standing and gives it REMOTE_BYE_MS to
 * read what is still queued (the last result) and exit. */
static void say_bye(struct remote *r)
{
    botmsg_bye(&r->out);
    if (send_out(r))
        return;
    for (int ms = 0; ms < REMOTE_BYE_MS && alive(r); ms += POLL_SLICE_MS / 5)
        nanosleep(&(struct timespec){0, POLL_SLICE_MS / 5 * 1000000L}, NULL);
}

static void remote_destroy(void *self)
{
    struct remote *r = self;
    if (!r)
        return;
    if (!r->broken && r->sock && alive(r))
        say_bye(r);
    stop(r);
    msgpack_sbuffer_destroy(&r->out);
    botmsg_req_fini(&r->req);
    mem_free(r);
}

const struct agent_def remote_cmd_agent = {
    .name = "cmd",
    .doc = "an external bot run from a command (cmd:COMMAND)",
    .api_version = AGENT_API_VERSION,
    .act = remote_act,
    .game_over = remote_game_over,
    .destroy = remote_destroy,
};

int remote_move_ms(void)
{
    const char *ms = getenv(REMOTE_MOVE_ENV);
    return ms && atoi(ms) > 0 ? atoi(ms) : REMOTE_MOVE_MS;
}

int remote_open(const struct game *g, const char *cmd, void **self,
                char *err, size_t errlen)
{
    if (!cmd[0] || strlen(cmd) >= GAME_SPEC_MAX)
        return err_set(err, errlen, ERR_INVAL,
                       "cmd: give a command, e.g. cmd:python3 bot.py");
    struct remote *r = mem_alloc(sizeof *r);
    if (!r)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    memset(r, 0, sizeof *r);
    snprintf(r->cmd, sizeof r->cmd, "%s", cmd);
    msgpack_sbuffer_init(&r->out);
    *self = r;
    if (botmsg_req_init(&r->req, g, remote_move_ms())) {
        remote_destroy(r);
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    }
    return 0;
}
