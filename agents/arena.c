/* arena.c — the hub of named bots: binding, hellos, and routing requests
 * from the agents to the bots and answers back (arena.h). Only the hub
 * thread touches the two ROUTER sockets once it runs.
 *
 * A routing id alone does not name a bot: a bot's connection may close and
 * another take its id. So a slot keeps who said hello (CURVE key or
 * address) and the connection's socket, believes a message only when all
 * three match, and hears from libzmq's socket monitor when a connection
 * closes; a closed one is sent nothing more. */
#include "arena.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/routing_id.h"
#include "../protocol/auth.h"
#include "botmsg.h"
#include "remote.h"

#define ID_MAX 256        /* a ZeroMQ routing id */
#define PENDING_MAX 1024  /* act requests awaiting answers */
#define FRAMES_MAX 5      /* frames kept of one message */
#define HUB_TICK_MS 100   /* how often the hub checks it must stop */
#define HEARTBEAT_MS 1000 /* pings to bots; silence for 3 of them: gone */
#define LINGER_MS 1000    /* time the last messages have to leave */

/* Who sent a message to the front socket. */
struct sender {
    const uint8_t *id;        /* its routing id (borrowed from the frame) */
    size_t idlen;             /* bytes of id */
    char peer[AUTH_PEER_MAX]; /* its CURVE key's name, else its address */
    int fd;                   /* its connection's socket; -1: unknown */
};

/* A connection that said hello. seq 0: free slot. A gone one keeps its
 * name (its agents then fail at once) until a newcomer needs the slot. */
struct conn {
    uint8_t id[ID_MAX];         /* its routing id */
    size_t idlen;               /* bytes of id */
    char peer[AUTH_PEER_MAX];   /* who said hello (struct sender) */
    int fd;                     /* its socket, to hear that it closed */
    char name[BOTMSG_NAME_MAX]; /* the name it said hello with */
    uint64_t seq;               /* hello order: the latest wins */
    uint64_t gen;               /* which connection holds the slot */
    bool gone;                  /* closed, or replaced: sent nothing */
};

/* An act request forwarded to a bot. used false: free slot. */
struct pending {
    bool used;
    uint64_t id, seq;     /* request id; forwarding order */
    uint64_t gen;         /* the connection asked (its struct conn's gen) */
    uint8_t inst[ID_MAX]; /* the agent's routing id */
    size_t instlen;       /* bytes of inst */
};

struct arena {
    void *ctx;                /* ZeroMQ context, shared with the agents */
    void *front, *back;       /* ROUTERs: bots, agents (hub thread's) */
    void *mon;                /* PAIR: front's closed connections */
    char endpoint[256];       /* bound endpoint, port resolved */
    char inproc[64];          /* the agents' endpoint */
    char game[GAME_SPEC_MAX]; /* told in the welcome */
    int wait_ms;              /* bots' time to connect */
    int64_t t0_ms;            /* when the arena opened */
    struct auth *auth;        /* ZAP handler; NULL without CURVE */
    bool bind_names;          /* hello only as the name of one's key */
    char warning[512];        /* what the set-up leaves open; "": none */
    pthread_t tid;            /* the hub */
    bool running;             /* tid is valid */
    atomic_bool stop;         /* the hub must stop */
    atomic_uint_fast64_t ids, tables; /* request ids, table numbers */
    struct conn conn[ARENA_BOTS_MAX];
    struct pending pend[PENDING_MAX];
    uint64_t seq;              /* last hello or forward */
};

/* One received message's frames (the first FRAMES_MAX). */
struct frames {
    zmq_msg_t m[FRAMES_MAX];
    int n;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- frames ------------------------------------------------------------ */

static void frames_recv(void *sock, struct frames *f)
{
    int more = 1;
    size_t sz = sizeof more;
    f->n = 0;
    while (more) {
        zmq_msg_t tmp, *m = f->n < FRAMES_MAX ? &f->m[f->n] : &tmp;
        zmq_msg_init(m);
        if (zmq_msg_recv(m, sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(m);
            return;
        }
        zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &sz);
        if (m == &tmp)
            zmq_msg_close(m);
        else
            f->n++;
    }
}

static void frames_close(struct frames *f)
{
    for (int i = 0; i < f->n; i++)
        zmq_msg_close(&f->m[i]);
    f->n = 0;
}

static const void *fdata(struct frames *f, int i)
{
    return zmq_msg_data(&f->m[i]);
}

static size_t fsize(struct frames *f, int i)
{
    return zmq_msg_size(&f->m[i]);
}

static bool fis(struct frames *f, int i, const char *s)
{
    return fsize(f, i) == strlen(s) && !memcmp(fdata(f, i), s, strlen(s));
}

/* Sends [to][kind][body] on a ROUTER; body may be NULL. Returns 0 or -1
 * (with ROUTER_MANDATORY: the peer is gone). */
static int route(void *sock, const void *to, size_t tolen, const char *kind,
                 const void *body, size_t len)
{
    int more = body ? ZMQ_SNDMORE : 0;
    if (zmq_send(sock, to, tolen, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
        return -1;
    if (kind && zmq_send(sock, kind, strlen(kind), more | ZMQ_DONTWAIT) < 0)
        return -1;
    return body && zmq_send(sock, body, len, ZMQ_DONTWAIT) < 0 ? -1 : 0;
}

/* ---- bots -------------------------------------------------------------- */

static bool holds_id(const struct conn *c, const struct sender *s)
{
    return c->idlen == s->idlen && !memcmp(c->id, s->id, s->idlen);
}

/* Whether s is the connection that said hello in c. */
static bool is_conn(const struct conn *c, const struct sender *s)
{
    return holds_id(c, s) && c->fd == s->fd && !strcmp(c->peer, s->peer);
}

/* The connected bot that said hello as name most recently, from peer
 * when peer is not NULL; else a gone one of that name; else NULL. */
static struct conn *conn_by_name(struct arena *a, const void *name, size_t len,
                                 const char *peer)
{
    struct conn *best = NULL;
    for (int i = 0; i < ARENA_BOTS_MAX; i++) {
        struct conn *c = &a->conn[i];
        if (c->seq && strlen(c->name) == len && !memcmp(c->name, name, len) &&
            (!peer || !strcmp(c->peer, peer)) &&
            (!best || (best->gone && !c->gone) ||
             (best->gone == c->gone && c->seq > best->seq)))
            best = c;
    }
    return best;
}

/* A slot for a newcomer: a free one, else the oldest gone one, else NULL
 * (a connected bot is never pushed out). */
static struct conn *conn_free(struct arena *a)
{
    struct conn *best = NULL;
    for (int i = 0; i < ARENA_BOTS_MAX; i++) {
        struct conn *c = &a->conn[i];
        if (!c->seq)
            return c;
        if (c->gone && (!best || c->seq < best->seq))
            best = c;
    }
    return best;
}

/* Connection c is gone (closed, or its routing id or slot taken by
 * another connection): nothing more is sent to it, and its open requests
 * fail now, as gone, rather than at their deadlines. */
static void conn_lost(struct arena *a, struct conn *c)
{
    c->gone = true;
    for (int i = 0; i < PENDING_MAX; i++) {
        struct pending *p = &a->pend[i];
        if (p->used && p->gen == c->gen) {
            route(a->back, p->inst, p->instlen, "gone", NULL, 0);
            p->used = false;
        }
    }
}

/* The slot of the connection that sent s's message, or NULL. A slot that
 * holds s's routing id for another connection has lost it (libzmq gives
 * an id to one connection at a time): it is gone. */
static struct conn *conn_of(struct arena *a, const struct sender *s)
{
    struct conn *found = NULL;
    for (int i = 0; i < ARENA_BOTS_MAX; i++) {
        struct conn *c = &a->conn[i];
        if (!c->seq || c->gone || !holds_id(c, s))
            continue;
        if (is_conn(c, s))
            found = c;
        else
            conn_lost(a, c);
    }
    return found;
}

/* The connection whose socket was fd has closed: its slot is gone. */
static void closed(struct arena *a, int fd)
{
    for (int i = 0; fd >= 0 && i < ARENA_BOTS_MAX; i++)
        if (a->conn[i].seq && !a->conn[i].gone && a->conn[i].fd == fd)
            conn_lost(a, &a->conn[i]);
}

/* Reads the front socket's monitor: a slot whose connection closed is
 * gone. libzmq reports a close before the socket is freed, hence before a
 * later connection can reuse its fd or take its routing id: so this runs
 * after a bot's message is received and before it is believed, and before
 * anything is sent to a bot (once front has taken in libzmq's news). */
static void watch(struct arena *a)
{
    int ev = 0;
    size_t sz = sizeof ev;
    zmq_getsockopt(a->front, ZMQ_EVENTS, &ev, &sz);
    for (;;) {
        struct frames f;
        uint16_t what;
        int32_t fd;
        sz = sizeof ev;
        if (zmq_getsockopt(a->mon, ZMQ_EVENTS, &ev, &sz) || !(ev & ZMQ_POLLIN))
            return;
        frames_recv(a->mon, &f);
        if (f.n && fsize(&f, 0) == sizeof what + sizeof fd) {
            memcpy(&what, fdata(&f, 0), sizeof what);
            memcpy(&fd, (const char *)fdata(&f, 0) + sizeof what, sizeof fd);
            if (what == ZMQ_EVENT_DISCONNECTED)
                closed(a, fd);
        }
        frames_close(&f);
    }
}

/* Sends the message built in out to the bot at id. */
static void reply(struct arena *a, const void *id, size_t idlen,
                  msgpack_sbuffer *out)
{
    route(a->front, id, idlen, NULL, out->data, out->size);
    msgpack_sbuffer_destroy(out);
}

/* Gives slot c to the connection s, as name. Another connection that held
 * it has lost it; the same one is only renamed. */
static void conn_take(struct arena *a, struct conn *c, const struct sender *s,
                      const char *name)
{
    if (!c->seq || !is_conn(c, s)) {
        if (c->seq && !c->gone)
            conn_lost(a, c);
        memcpy(c->id, s->id, s->idlen);
        c->idlen = s->idlen;
        memcpy(c->peer, s->peer, sizeof c->peer);
        c->fd = s->fd;
        c->gen = ++a->seq;
    }
    snprintf(c->name, sizeof c->name, "%s", name);
    c->seq = ++a->seq;
    c->gone = false;
}

/* Registers (or renames) the connection s (c, if it said hello before) as
 * name, and welcomes it: in the slot of name that the same peer holds, if
 * any (a restarted bot), else in a free one. With names bound to keys,
 * s's key must be name. A refused hello gets an error message. */
static void hello(struct arena *a, struct conn *c, const struct sender *s,
                  const char *name)
{
    char why[256];
    msgpack_sbuffer out;
    msgpack_sbuffer_init(&out);
    c = c ? c : conn_by_name(a, name, strlen(name), s->peer);
    c = c ? c : conn_free(a);
    if (a->bind_names && strcmp(s->peer, name)) {
        snprintf(why, sizeof why,
                 "hello as '%s' refused: this connection's key is '%s'; a "
                 "bot may only use the name of its key",
                 name, s->peer[0] ? s->peer : "(none)");
        botmsg_error(&out, why);
    } else if (!c) {
        snprintf(why, sizeof why,
                 "hello as '%s' refused: the arena has %d bots connected, "
                 "its limit; try again when one leaves",
                 name, ARENA_BOTS_MAX);
        botmsg_error(&out, why);
    } else {
        conn_take(a, c, s, name);
        botmsg_welcome(&out, a->game);
    }
    reply(a, s->id, s->idlen, &out);
}

/* The oldest open request of connection c, or NULL. */
static struct pending *oldest(struct arena *a, const struct conn *c)
{
    struct pending *best = NULL;
    for (int i = 0; i < PENDING_MAX; i++) {
        struct pending *p = &a->pend[i];
        if (p->used && p->gen == c->gen && (!best || p->seq < best->seq))
            best = p;
    }
    return best;
}

static struct pending *pending_by_id(struct arena *a, uint64_t id)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (a->pend[i].used && a->pend[i].id == id)
            return &a->pend[i];
    return NULL;
}

/* The open request of connection c that the message in buf answers: the
 * one with its id; NULL for a late answer (an id the arena has issued but
 * is no longer open for c: its agent has given up, and the next game must
 * not be charged); else (garbage, an id never issued) c's oldest open
 * request, whose agent then forfeits it. */
static struct pending *answered(struct arena *a, const struct conn *c,
                                const char *buf, size_t len)
{
    uint64_t id;
    if (botmsg_read_id(buf, len, &id))
        return oldest(a, c);
    struct pending *p = pending_by_id(a, id);
    if (p && p->gen == c->gen)
        return p;
    return id < atomic_load(&a->ids) ? NULL : oldest(a, c);
}

/* Who sent the message in f (at least its routing id and one frame). */
static void read_sender(struct arena *a, struct frames *f, struct sender *s)
{
    s->id = fdata(f, 0);
    s->idlen = fsize(f, 0) < ID_MAX ? fsize(f, 0) : ID_MAX;
    auth_peer(&f->m[1], a->auth != NULL, s->peer, sizeof s->peer);
    s->fd = zmq_msg_get(&f->m[1], ZMQ_SRCFD);
}

/* A message from a bot: a hello, or an answer. Only the connection that
 * said hello is heard for its slot: a message from another on the same
 * routing id is dropped, or, a hello, taken as a newcomer's. */
static void from_bot(struct arena *a)
{
    struct frames f;
    struct sender s;
    char name[BOTMSG_NAME_MAX];
    frames_recv(a->front, &f);
    watch(a);
    if (f.n < 2) {
        frames_close(&f);
        return;
    }
    const char *buf = f.n == 2 ? fdata(&f, 1) : "";
    size_t len = f.n == 2 ? fsize(&f, 1) : 0;
    read_sender(a, &f, &s);
    struct conn *c = conn_of(a, &s);
    if (f.n == 2 && !botmsg_read_hello(buf, len, name))
        hello(a, c, &s, name);
    else if (c) {
        struct pending *p = answered(a, c, buf, len);
        if (p) {
            route(a->back, p->inst, p->instlen, "answer", buf, len);
            p->used = false;
        }
    }
    frames_close(&f);
}

/* ---- agents ------------------------------------------------------------ */

static struct pending *pending_new(struct arena *a)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (!a->pend[i].used)
            return &a->pend[i];
    return NULL;
}

/* Forwards agent inst's act request to bot c and remembers it. */
static void forward_act(struct arena *a, struct frames *f, struct conn *c)
{
    struct pending *p = pending_new(a);
    uint64_t id = 0;
    memcpy(&id, fdata(f, 3), sizeof id);
    if (!p ||
        route(a->front, c->id, c->idlen, NULL, fdata(f, 4), fsize(f, 4))) {
        if (p && zmq_errno() == EHOSTUNREACH) /* the bot is gone */
            conn_lost(a, c);
        route(a->back, fdata(f, 0), fsize(f, 0), "gone", NULL, 0);
        return;
    }
    *p = (struct pending){.used = true, .id = id, .seq = ++a->seq,
                          .gen = c->gen, .instlen = fsize(f, 0)};
    memcpy(p->inst, fdata(f, 0), fsize(f, 0));
}

/* A message from an agent: [inst][kind][name][id][body]. */
static void from_agent(struct arena *a)
{
    struct frames f;
    frames_recv(a->back, &f);
    if (f.n != 5 || fsize(&f, 0) > ID_MAX || fsize(&f, 3) != 8) {
        frames_close(&f);
        return;
    }
    watch(a);
    struct conn *c = conn_by_name(a, fdata(&f, 2), fsize(&f, 2), NULL);
    uint64_t id = 0;
    memcpy(&id, fdata(&f, 3), sizeof id);
    struct pending *p = pending_by_id(a, id);
    if (fis(&f, 1, "cancel") && p)
        p->used = false;
    else if (fis(&f, 1, "result") && c && !c->gone &&
             route(a->front, c->id, c->idlen, NULL, fdata(&f, 4),
                   fsize(&f, 4)) &&
             zmq_errno() == EHOSTUNREACH)
        conn_lost(a, c);
    else if (fis(&f, 1, "act") && c && c->gone)
        route(a->back, fdata(&f, 0), fsize(&f, 0), "gone", NULL, 0);
    else if (fis(&f, 1, "act") && c)
        forward_act(a, &f, c);
    else if (fis(&f, 1, "act"))
        route(a->back, fdata(&f, 0), fsize(&f, 0),
              now_ms() - a->t0_ms < a->wait_ms ? "wait" : "absent", NULL, 0);
    frames_close(&f);
}

/* At the end: forwards what the agents still sent (the last results),
 * then says goodbye to every bot; the front socket lingers so that all
 * of it leaves. */
static void closing(struct arena *a)
{
    zmq_pollitem_t it = {.socket = a->back, .events = ZMQ_POLLIN};
    int linger = LINGER_MS;
    while (zmq_poll(&it, 1, 0) > 0)
        from_agent(a);
    watch(a);
    msgpack_sbuffer out;
    msgpack_sbuffer_init(&out);
    botmsg_bye(&out);
    for (int i = 0; i < ARENA_BOTS_MAX; i++)
        if (a->conn[i].seq && !a->conn[i].gone)
            route(a->front, a->conn[i].id, a->conn[i].idlen, NULL, out.data,
                  out.size);
    msgpack_sbuffer_destroy(&out);
    zmq_setsockopt(a->front, ZMQ_LINGER, &linger, sizeof linger);
}

static void *hub_main(void *arg)
{
    struct arena *a = arg;
    zmq_pollitem_t it[3] = {{.socket = a->front, .events = ZMQ_POLLIN},
                            {.socket = a->back, .events = ZMQ_POLLIN},
                            {.socket = a->mon, .events = ZMQ_POLLIN}};
    while (!atomic_load(&a->stop)) {
        if (zmq_poll(it, 3, HUB_TICK_MS) < 0 && zmq_errno() != EINTR)
            break;
        if (it[2].revents & ZMQ_POLLIN)
            watch(a);
        if (it[0].revents & ZMQ_POLLIN)
            from_bot(a);
        if (it[1].revents & ZMQ_POLLIN)
            from_agent(a);
    }
    closing(a);
    return NULL;
}

/* ---- API --------------------------------------------------------------- */

/* Turns on CURVE for the front socket as au asks (before its bind). */
static int secure_front(struct arena *a, const struct arena_auth *au, char *err,
                        size_t errlen)
{
    struct auth_keypair kp;
    if (!au || !au->curve_secret)
        return au && au->allow_dir
                   ? err_set(err, errlen, ERR_INVAL,
                             "--allow needs --curve-secret FILE (the "
                             "arena's key pair, from parlor keygen)")
                   : 0;
    int rc = auth_load_secret(au->curve_secret, &kp, err, errlen);
    rc = rc ? rc : auth_server(a->front, &kp, err, errlen);
    if (!rc && !(a->auth = auth_new(a->ctx, au->allow_dir, err, errlen)))
        rc = ERR_IO;
    a->bind_names = !rc && au->allow_dir;
    return rc;
}

/* What the arena's set-up leaves open, for arena_warning. */
static void set_warning(struct arena *a)
{
    size_t n = 0;
    if (!a->auth)
        n = (size_t)snprintf(a->warning, sizeof a->warning,
                             "bot names are not authenticated: anyone who "
                             "can connect to %s may say hello as any bot "
                             "(use --curve-secret FILE --allow DIR)",
                             a->endpoint);
    else if (!a->bind_names)
        n = (size_t)snprintf(a->warning, sizeof a->warning,
                             "CURVE without --allow DIR accepts any key: "
                             "bot names are not bound to keys");
    if (!a->auth && auth_endpoint_is_public(a->endpoint))
        snprintf(a->warning + n, sizeof a->warning - n,
                 "; %s is a public address and the traffic is plain: "
                 "others on the network can read the hands and answer "
                 "for the bots",
                 a->endpoint);
}

static int bind_front(struct arena *a, const char *endpoint,
                      const struct arena_auth *au, char *err, size_t errlen)
{
    int one = 1, zero = 0, ivl = HEARTBEAT_MS, dead = 3 * HEARTBEAT_MS;
    int64_t max = REMOTE_MSG_MAX;
    size_t len = sizeof a->endpoint;
    routing_id_seed(); /* else a bot claiming libzmq's next id crashes it */
    a->front = zmq_socket(a->ctx, ZMQ_ROUTER);
    if (!a->front)
        return err_set(err, errlen, ERR_IO, "arena: no socket: %s",
                       zmq_strerror(zmq_errno()));
    int rc = secure_front(a, au, err, errlen);
    if (rc)
        return rc;
    zmq_setsockopt(a->front, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(a->front, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(a->front, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(a->front, ZMQ_HEARTBEAT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(a->front, ZMQ_HEARTBEAT_TIMEOUT, &dead, sizeof dead);
    if (zmq_bind(a->front, endpoint) ||
        zmq_getsockopt(a->front, ZMQ_LAST_ENDPOINT, a->endpoint, &len))
        return err_set(err, errlen, ERR_IO,
                       "arena: cannot bind %s: %s (give an endpoint such as "
                       "tcp://*:5599 or ipc:///tmp/arena)",
                       endpoint, zmq_strerror(zmq_errno()));
    set_warning(a);
    return 0;
}

static int bind_back(struct arena *a)
{
    int zero = 0;
    snprintf(a->inproc, sizeof a->inproc, "inproc://parlor-arena-%p",
             (void *)a);
    a->back = zmq_socket(a->ctx, ZMQ_ROUTER);
    if (!a->back)
        return -1;
    zmq_setsockopt(a->back, ZMQ_LINGER, &zero, sizeof zero);
    return zmq_bind(a->back, a->inproc) ? -1 : 0;
}

/* Connects a->mon to a monitor of the front socket that reports closed
 * connections (the hub reads it: libzmq's I/O thread waits when it
 * falls 1000 reports behind). */
static int watch_front(struct arena *a)
{
    char ep[64];
    snprintf(ep, sizeof ep, "inproc://parlor-arena-mon-%p", (void *)a);
    if (zmq_socket_monitor(a->front, ep, ZMQ_EVENT_DISCONNECTED))
        return -1;
    a->mon = zmq_socket(a->ctx, ZMQ_PAIR);
    return a->mon && !zmq_connect(a->mon, ep) ? 0 : -1;
}

struct arena *arena_new(const char *endpoint, const char *game, int wait_ms,
                        const struct arena_auth *auth, char *err, size_t errlen)
{
    struct arena *a = mem_alloc(sizeof *a);
    if (!a)
        return err_set(err, errlen, ERR_NOMEM, "out of memory"), NULL;
    memset(a, 0, sizeof *a);
    snprintf(a->game, sizeof a->game, "%s", game);
    a->wait_ms = wait_ms;
    a->t0_ms = now_ms();
    atomic_init(&a->stop, false);
    atomic_init(&a->ids, 1);
    atomic_init(&a->tables, 0);
    a->ctx = zmq_ctx_new();
    if (!a->ctx)
        err_set(err, errlen, ERR_IO, "arena: no ZeroMQ context");
    if (!a->ctx || bind_front(a, endpoint, auth, err, errlen)) {
        arena_destroy(&a);
        return NULL;
    }
    if (bind_back(a) || watch_front(a) ||
        pthread_create(&a->tid, NULL, hub_main, a)) {
        err_set(err, errlen, ERR_IO, "arena: cannot start its hub");
        arena_destroy(&a);
        return NULL;
    }
    a->running = true;
    return a;
}

void arena_destroy(struct arena **ap)
{
    struct arena *a = ap ? *ap : NULL;
    if (!a)
        return;
    atomic_store(&a->stop, true);
    if (a->running)
        pthread_join(a->tid, NULL);
    if (a->front) /* its monitor first: it must not report to no one */
        zmq_socket_monitor(a->front, NULL, 0);
    if (a->mon)
        zmq_close(a->mon);
    if (a->front)
        zmq_close(a->front);
    if (a->back)
        zmq_close(a->back);
    auth_destroy(&a->auth);
    if (a->ctx)
        zmq_ctx_term(a->ctx);
    mem_free(a);
    *ap = NULL;
}

const char *arena_endpoint(const struct arena *a)
{
    return a->endpoint;
}

const char *arena_warning(const struct arena *a)
{
    return a->warning[0] ? a->warning : NULL;
}

int arena_check_name(const char *name, char *err, size_t errlen)
{
    size_t n = strlen(name);
    bool ok = n > 0 && n < BOTMSG_NAME_MAX;
    for (size_t i = 0; ok && i < n; i++)
        ok = (unsigned char)name[i] > ' ' && !strchr(",()", name[i]);
    return ok ? 0
              : err_set(err, errlen, ERR_INVAL,
                        "bot name '%s': give 1 to %d characters, no spaces, "
                        "commas or parentheses",
                        name, BOTMSG_NAME_MAX - 1);
}

void *arena__ctx(struct arena *a)
{
    return a->ctx;
}

const char *arena__inproc(const struct arena *a)
{
    return a->inproc;
}

uint64_t arena__next_id(struct arena *a)
{
    return atomic_fetch_add(&a->ids, 1);
}

uint64_t arena__next_table(struct arena *a)
{
    return atomic_fetch_add(&a->tables, 1);
}
