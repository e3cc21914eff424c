/* remote.c — the agent kind that seats an external bot spawned from a
 * command (remote.h; wire format in PROTOCOL.md §12). ZeroMQ lives here
 * and in env/, never in the games. */
#include "remote.h"

#include <msgpack.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "botmsg.h"
#include "botproc.h"

#define POLL_SLICE_MS 50 /* how often a wait checks the process is alive */
#define ID_MAX 256       /* a ZeroMQ routing id */
#define SECRET_BYTES 16  /* random bytes of a bot's secret */
#define DIR_MAX 80       /* the channel's directory (sun_path is 108) */

struct remote {
    char cmd[GAME_SPEC_MAX];     /* the command line */
    void *ctx, *sock;            /* NULL until started */
    struct botproc proc;         /* the bot's processes */
    bool broken;                 /* failed once: every act fails */
    uint64_t next_id;            /* id of the next act request */
    char dir[DIR_MAX];           /* the channel's private directory, or "" */
    char endpoint[DIR_MAX + 16]; /* ipc://dir/bot */
    char secret[2 * SECRET_BYTES + 1]; /* the bot must say it in hello */
    uint8_t bot[ID_MAX];   /* the bot's routing id, once it said hello */
    size_t botlen;         /* bytes of bot; 0 before the hello */
    msgpack_sbuffer out;   /* the message being built */
    struct botmsg_req req; /* the act request's buffers, move limit */
    char failure[192];     /* why the last act failed, or "" */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the private channel ----------------------------------------------- */

/* Makes the channel's directory (mode 0700: only this user may connect)
 * and the bot's secret. */
static int make_channel(struct remote *r)
{
    uint8_t raw[SECRET_BYTES];
    const char *base = getenv("TMPDIR");
    if (!base || strlen(base) > DIR_MAX - 24)
        base = "/tmp";
    snprintf(r->dir, sizeof r->dir, "%s/parlor-bot-XXXXXX", base);
    if (!mkdtemp(r->dir)) {
        r->dir[0] = '\0';
        return ERR_IO;
    }
    snprintf(r->endpoint, sizeof r->endpoint, "ipc://%s/bot", r->dir);
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return ERR_IO;
    for (int i = 0; i < SECRET_BYTES; i++)
        snprintf(r->secret + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* Ends the bot's processes, closes the socket, removes the directory. */
static void stop(struct remote *r)
{
    char path[sizeof r->dir + 8];
    botproc_stop(&r->proc);
    if (r->sock)
        zmq_close(r->sock);
    if (r->ctx)
        zmq_ctx_term(r->ctx);
    r->sock = r->ctx = NULL;
    if (r->dir[0]) {
        snprintf(path, sizeof path, "%s/bot", r->dir);
        unlink(path);
        rmdir(r->dir);
        r->dir[0] = '\0';
    }
}

static int bind_socket(struct remote *r)
{
    int64_t max = REMOTE_MSG_MAX;
    int zero = 0, one = 1;
    r->ctx = zmq_ctx_new();
    r->sock = r->ctx ? zmq_socket(r->ctx, ZMQ_ROUTER) : NULL;
    if (!r->sock)
        return ERR_IO;
    zmq_setsockopt(r->sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(r->sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(r->sock, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    return zmq_bind(r->sock, r->endpoint) ? ERR_IO : 0;
}

/* Runs the command under its supervisor with the endpoint and secret in
 * its environment (through env(1): the child of a threaded process must
 * not setenv). */
static int spawn(struct remote *r)
{
    char ep[sizeof r->endpoint + 32], sec[sizeof r->secret + 32];
    struct botproc_limits lim;
    snprintf(ep, sizeof ep, "%s=%s", REMOTE_ENDPOINT_ENV, r->endpoint);
    snprintf(sec, sizeof sec, "%s=%s", REMOTE_SECRET_ENV, r->secret);
    botproc_limits_from_env(&lim);
    return botproc_start(&r->proc, r->cmd, (const char *const[]){ep, sec}, 2,
                         &lim);
}

/* Reads one message: its sender's routing id into from (ID_MAX), the
 * message into buf (REMOTE_MSG_MAX, *len its length). Returns true when
 * it has exactly those two frames. */
static bool read_one(struct remote *r, uint8_t *from, size_t *fromlen,
                     char *buf, size_t *len)
{
    char scratch[1];
    int more = 0, n = zmq_recv(r->sock, from, ID_MAX, ZMQ_DONTWAIT), parts = 1;
    size_t sz = sizeof more;
    *fromlen = n > 0 && n <= ID_MAX ? (size_t)n : 0;
    *len = 0;
    for (zmq_getsockopt(r->sock, ZMQ_RCVMORE, &more, &sz); more;
         zmq_getsockopt(r->sock, ZMQ_RCVMORE, &more, &sz)) {
        n = zmq_recv(r->sock, parts == 1 ? buf : scratch,
                     parts == 1 ? REMOTE_MSG_MAX : 0, ZMQ_DONTWAIT);
        if (n < 0)
            return false;
        if (parts++ == 1)
            *len = (size_t)n < REMOTE_MSG_MAX ? (size_t)n : REMOTE_MSG_MAX;
    }
    return *fromlen && parts == 2;
}

/* Whether a message from `from` is the bot's: once it said hello, only
 * its connection is; before, only a hello that carries the secret (whose
 * sender then is the bot). Anyone else is ignored. */
static bool from_bot(struct remote *r, const uint8_t *from, size_t fromlen,
                     const char *buf, size_t len)
{
    char name[BOTMSG_NAME_MAX];
    if (r->botlen)
        return fromlen == r->botlen && !memcmp(from, r->bot, fromlen);
    if (botmsg_read_hello(buf, len, name) ||
        !botmsg_hello_has_secret(buf, len, r->secret))
        return false;
    memcpy(r->bot, from, fromlen);
    r->botlen = fromlen;
    return true;
}

/* Waits up to ms for the bot's next message into buf (REMOTE_MSG_MAX
 * bytes); *len gets its length. Returns 0, ERR_TIMEOUT or ERR_IO (the
 * process is gone). */
static int receive(struct remote *r, int ms, char *buf, size_t *len)
{
    uint8_t from[ID_MAX];
    size_t fromlen;
    int64_t end = now_ms() + ms;
    zmq_pollitem_t it = {.socket = r->sock, .events = ZMQ_POLLIN};
    for (int64_t left = ms; left > 0; left = end - now_ms()) {
        int n = zmq_poll(&it, 1, left < POLL_SLICE_MS ? left : POLL_SLICE_MS);
        if (n > 0 && read_one(r, from, &fromlen, buf, len) &&
            from_bot(r, from, fromlen, buf, *len))
            return 0;
        if (n < 0 || !botproc_alive(&r->proc))
            return ERR_IO;
    }
    return ERR_TIMEOUT;
}

/* ---- messages ---------------------------------------------------------- */

static int send_out(struct remote *r)
{
    return zmq_send(r->sock, r->bot, r->botlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) <
                       0 ||
                   zmq_send(r->sock, r->out.data, r->out.size, ZMQ_DONTWAIT) < 0
               ? ERR_IO
               : 0;
}

/* Puts into r->failure why the bot's process is gone, with what before
 * (e.g. "exited before saying hello"). */
static void gone(struct remote *r, const char *what)
{
    int st = r->proc.status;
    if (st < 0) {
        snprintf(r->failure, sizeof r->failure,
                 "the bot's connection failed");
        return;
    }
    snprintf(r->failure, sizeof r->failure, "the bot %s (exit status %d%s)",
             what, st,
             st == 127   ? ": the shell found no such command"
             : st == 128 ? ": killed by a signal"
                         : "");
}

/* Makes the channel, spawns, waits for the hello and welcomes the bot. */
static int start(struct remote *r, const struct game *g)
{
    char buf[REMOTE_MSG_MAX];
    size_t len;
    int rc = make_channel(r);
    rc = rc ? rc : bind_socket(r);
    if (rc) {
        snprintf(r->failure, sizeof r->failure,
                 "could not open the bot's channel in %s", r->dir);
        return rc;
    }
    if ((rc = spawn(r))) {
        snprintf(r->failure, sizeof r->failure, "could not fork the bot");
        return rc;
    }
    rc = receive(r, REMOTE_HELLO_MS, buf, &len);
    if (rc == ERR_IO)
        gone(r, "exited before saying hello");
    else if (rc)
        snprintf(r->failure, sizeof r->failure,
                 "the bot did not say hello within %d s",
                 REMOTE_HELLO_MS / 1000);
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
    else if (!rc)
        r->failure[0] = '\0';
    if (!rc) {
        r->req.id = r->next_id++;
        botmsg_act(&r->out, &r->req, g, st, seat);
        rc = send_out(r);
    }
    rc = rc ? rc : receive(r, r->req.deadline_ms, buf, &len);
    if (rc == ERR_IO && !r->failure[0] && !botproc_alive(&r->proc))
        gone(r, "exited");
    else if (rc == ERR_TIMEOUT && !r->failure[0])
        snprintf(r->failure, sizeof r->failure,
                 "the bot did not answer within %d ms", r->req.deadline_ms);
    rc = rc ? rc : botmsg_read_answer(&r->req, buf, len, action);
    r->broken = rc != 0;
    return rc;
}

static const char *remote_failure(void *self, bool *never_started)
{
    struct remote *r = self;
    *never_started = r->botlen == 0;
    return r->failure[0] ? r->failure : NULL;
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
    for (int ms = 0; ms < REMOTE_BYE_MS && botproc_alive(&r->proc);
         ms += POLL_SLICE_MS / 5)
        nanosleep(&(struct timespec){0, POLL_SLICE_MS / 5 * 1000000L}, NULL);
}

static void remote_destroy(void *self)
{
    struct remote *r = self;
    if (!r)
        return;
    if (!r->broken && r->botlen && botproc_alive(&r->proc))
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
    .failure = remote_failure,
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
