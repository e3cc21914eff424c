/* arena_bot.c — the agent kind behind "bot:NAME": asks the named bot,
 * through the arena's hub, to act, and tells it each game's result
 * (arena.h). Its socket is opened on first use, in the thread that plays
 * it. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "arena.h"
#include "botmsg.h"
#include "remote.h"

#define RETRY_MS 50 /* pause before asking again for a bot not yet there */

struct bot {
    struct arena *arena;        /* borrowed */
    char name[BOTMSG_NAME_MAX]; /* the bot's name */
    void *sock;                 /* DEALER to the hub; NULL until used */
    bool broken;                /* failed once: every act fails */
    msgpack_sbuffer out;        /* the message being built */
    struct botmsg_req req;      /* buffers, table, move limit */
};

/* Its socket lingers: a result sent just before the agent is dropped
 * still reaches the hub, which drains it when the arena closes. */
static int connect_hub(struct bot *b)
{
    int linger = 1000;
    b->sock = zmq_socket(arena__ctx(b->arena), ZMQ_DEALER);
    if (!b->sock)
        return ERR_IO;
    zmq_setsockopt(b->sock, ZMQ_LINGER, &linger, sizeof linger);
    return zmq_connect(b->sock, arena__inproc(b->arena)) ? ERR_IO : 0;
}

/* Sends [kind][name][id][the message built in out] to the hub. */
static int send_hub(struct bot *b, const char *kind)
{
    uint64_t id = b->req.id;
    bool body = strcmp(kind, "cancel") != 0;
    int rc = zmq_send(b->sock, kind, strlen(kind), ZMQ_SNDMORE);
    rc = rc < 0 ? rc : zmq_send(b->sock, b->name, strlen(b->name), ZMQ_SNDMORE);
    rc = rc < 0 ? rc : zmq_send(b->sock, &id, sizeof id, ZMQ_SNDMORE);
    rc = rc < 0 ? rc
                : zmq_send(b->sock, body ? b->out.data : "",
                           body ? b->out.size : 0, 0);
    return rc < 0 ? ERR_IO : 0;
}

/* Waits up to ms for the hub's reply: kind (8 bytes) gets its first frame,
 * buf (REMOTE_MSG_MAX) and *len the second if any. */
static int await_hub(struct bot *b, int ms, char *kind, char *buf, size_t *len)
{
    zmq_pollitem_t it = {.socket = b->sock, .events = ZMQ_POLLIN};
    int more = 0, n = zmq_poll(&it, 1, ms);
    size_t sz = sizeof more;
    if (n == 0)
        return ERR_TIMEOUT;
    n = n < 0 ? n : zmq_recv(b->sock, kind, 7, 0);
    if (n < 0)
        return ERR_IO;
    kind[n < 7 ? n : 7] = '\0';
    *len = 0;
    zmq_getsockopt(b->sock, ZMQ_RCVMORE, &more, &sz);
    if (more && (n = zmq_recv(b->sock, buf, REMOTE_MSG_MAX, 0)) >= 0)
        *len = (size_t)n < REMOTE_MSG_MAX ? (size_t)n : REMOTE_MSG_MAX;
    return 0;
}

/* Sends the act request in out until the hub forwards it, then waits for
 * the answer into buf / *len. */
static int ask(struct bot *b, char *buf, size_t *len)
{
    char kind[8];
    int rc;
    do {
        rc = send_hub(b, "act");
        rc = rc ? rc : await_hub(b, b->req.deadline_ms, kind, buf, len);
        if (!rc && !strcmp(kind, "wait"))
            nanosleep(&(struct timespec){0, RETRY_MS * 1000000L}, NULL);
    } while (!rc && !strcmp(kind, "wait"));
    if (rc == ERR_TIMEOUT)
        send_hub(b, "cancel");
    if (!rc && strcmp(kind, "answer"))
        rc = !strcmp(kind, "absent") ? ERR_NOTFOUND : ERR_IO;
    return rc;
}

static int bot_act(void *self, const struct game *g, const void *st, int seat,
                   int *action)
{
    struct bot *b = self;
    char buf[REMOTE_MSG_MAX];
    size_t len = 0;
    int rc = b->broken ? ERR_IO : 0;
    if (!rc && !b->sock)
        rc = connect_hub(b);
    if (!rc) {
        b->req.id = arena__next_id(b->arena);
        botmsg_act(&b->out, &b->req, g, st, seat);
        rc = ask(b, buf, &len);
    }
    rc = rc ? rc : botmsg_read_answer(&b->req, buf, len, action);
    b->broken = rc != 0;
    return rc;
}

/* Tells the bot how the game ended; no answer is awaited. A bot that
 * forfeited is told too: it stays connected for its other games. */
static void bot_game_over(void *self, const struct game *g, const void *st,
                          int seat, const struct agent_outcome *o)
{
    struct bot *b = self;
    if (!b->sock)
        return;
    b->req.id = arena__next_id(b->arena);
    botmsg_result(&b->out, &b->req, g, st, seat, o);
    send_hub(b, "result");
}

static void bot_destroy(void *self)
{
    struct bot *b = self;
    if (!b)
        return;
    if (b->sock)
        zmq_close(b->sock);
    msgpack_sbuffer_destroy(&b->out);
    botmsg_req_fini(&b->req);
    mem_free(b);
}

const struct agent_def arena_bot_agent = {
    .name = "bot",
    .doc = "a named bot that connects to the arena by itself (bot:NAME)",
    .api_version = AGENT_API_VERSION,
    .act = bot_act,
    .game_over = bot_game_over,
    .destroy = bot_destroy,
};

int arena_bot_open(struct arena *arena, const struct game *g,
                   const char *name, void **self, char *err, size_t errlen)
{
    int rc = arena_check_name(name, err, errlen);
    if (rc)
        return rc;
    if (!arena)
        return err_set(err, errlen, ERR_INVAL,
                       "bot:%s needs an arena for bots to connect to: run "
                       "the tournament with --arena ENDPOINT",
                       name);
    struct bot *b = mem_alloc(sizeof *b);
    if (!b)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    memset(b, 0, sizeof *b);
    b->arena = arena;
    snprintf(b->name, sizeof b->name, "%s", name);
    msgpack_sbuffer_init(&b->out);
    *self = b;
    if (botmsg_req_init(&b->req, g, remote_move_ms())) {
        bot_destroy(b);
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    }
    b->req.table = arena__next_table(arena);
    return 0;
}
