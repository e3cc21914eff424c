/* server.c — the server's life and loop: binding, receiving a request's
 * frames, dispatching it to its handler, sending the reply, and closing
 * the envs of clients that fell silent.
 *
 * The loop polls the ROUTER socket and a self-pipe; server_stop writes
 * one byte to the pipe, which is all a signal handler may safely do. A
 * reply goes back with the sender's routing id (and its empty delimiter
 * when it used one, as REQ sockets do); sends never block, so a client
 * that stops reading cannot stall the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/routing_id.h"
#include "../protocol/auth.h"
#include "server_int.h"

#define POLL_MAX_MS 1000 /* longest poll, so sweeps run on time */
/* The transport drops unread any request this many times over max_msg,
 * which bounds the memory a client can make the server hold. */
#define HARD_CAP_FACTOR 4
#define RCV_HWM 64 /* requests queued per connection before libzmq waits */

typedef int (*handler_fn)(struct server *s);

/* The dispatch table: every request type of messages.def and its handler
 * server__handle_<type>, generated so that none can be forgotten. */
#define HANDLER_Q(E, name) {PROTO_MSG_##E, server__handle_##name},
#define HANDLER_QR(E, name) HANDLER_Q(E, name)
#define HANDLER_R(E, name)
static const struct {
    enum proto_msg type; /* request type */
    handler_fn fn;       /* what serves it */
} handlers[] = {
#define PROTO_MSG(id, E, name, dirs, doc) HANDLER_##dirs(E, name)
#define PROTO_REQ(m, e, key, type, presence, doc)
#define PROTO_REP(m, e, key, type, presence, doc)
#define PROTO_ERR(code, e, err, doc)
#include "../protocol/messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
};
#define NHANDLERS ((int)(sizeof handlers / sizeof handlers[0]))

/* ---- static helpers: clock and options ---------------------------------- */

static uint64_t monotonic_ms(void *arg)
{
    struct timespec ts;
    (void)arg;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int fill_defaults(struct server_options *o, char *err, size_t errlen)
{
    if (!o->endpoint)
        o->endpoint = SERVER_ENDPOINT;
    if (!o->max_msg)
        o->max_msg = SERVER_MAX_MSG;
    if (!o->max_envs)
        o->max_envs = SERVER_MAX_ENVS;
    if (!o->max_clients)
        o->max_clients = SERVER_MAX_CLIENTS;
    if (!o->max_per_peer)
        o->max_per_peer = SERVER_MAX_PER_PEER;
    if (!o->max_total)
        o->max_total = SERVER_MAX_TOTAL;
    if (!o->max_peer_envs)
        o->max_peer_envs = o->max_total / SERVER_PEER_SHARE
                               ? o->max_total / SERVER_PEER_SHARE
                               : 1;
    if (!o->idle_ms)
        o->idle_ms = SERVER_IDLE_MS;
    if (!o->max_unused_ms)
        o->max_unused_ms = SERVER_MAX_UNUSED_MS;
    if (!o->max_reply)
        o->max_reply = SERVER_MAX_REPLY;
    if (!o->reply_budget)
        o->reply_budget = SERVER_REPLY_BUDGET;
    if (!o->reply_total)
        o->reply_total = SERVER_REPLY_TOTAL;
    if (!o->reply_peer)
        o->reply_peer = o->reply_total / SERVER_PEER_SHARE
                            ? o->reply_total / SERVER_PEER_SHARE
                            : 1;
    if (!o->opp_work)
        o->opp_work = SERVER_OPP_WORK;
    if (!o->opp_time_ms)
        o->opp_time_ms = SERVER_OPP_TIME_MS;
    if (!o->clock)
        o->clock = monotonic_ms;
    if (!o->make_game)
        o->make_game = game_make;
    if (o->max_envs < 0 || o->max_clients < 0 || o->max_total < 0 ||
        o->max_per_peer < 0 || o->max_peer_envs < 0 || o->opp_work < 0 ||
        o->opp_time_ms < 0 || o->max_msg > ((size_t)1 << 30))
        return err_set(err, errlen, ERR_RANGE,
                       "server limits must be positive and max_msg at most "
                       "1 GiB");
    return 0;
}

/* ---- static helpers: sessions and sweeping ------------------------------ */

static bool is_sender(const struct server *s, const struct session *ses)
{
    return ses->identlen == s->identlen &&
           !memcmp(ses->ident, s->ident, s->identlen) &&
           !strcmp(ses->peer, s->peer);
}

static void log_ident(const struct server *s, const char *what,
                      const uint8_t *id, size_t len)
{
    if (!s->o.log)
        return;
    fprintf(s->o.log, "parlor serve: client ");
    for (size_t i = 0; i < len; i++)
        fprintf(s->o.log, "%02x", id[i]);
    fprintf(s->o.log, " %s\n", what);
    fflush(s->o.log);
}

/* Closes the envs of sessions silent for idle_ms, or whose envs were not
 * used (made, reset, stepped, closed) for max_unused_ms, looking at most
 * every quarter of idle_ms (and every POLL_MAX_MS), so a client is
 * reclaimed between idle_ms and 1.25 * idle_ms. */
static void sweep(struct server *s)
{
    if (s->now < s->next_sweep)
        return;
    uint64_t every = s->o.idle_ms / 4 ? s->o.idle_ms / 4 : 1;
    s->next_sweep = s->now + (every < POLL_MAX_MS ? every : POLL_MAX_MS);
    for (int i = 0; i < s->nsessions;) {
        struct session *ses = s->sessions[i];
        bool silent = ses->last_seen + s->o.idle_ms <= s->now;
        if (!silent && ses->last_used + s->o.max_unused_ms > s->now) {
            i++;
            continue;
        }
        log_ident(s,
                  silent ? "was silent too long: its envs are closed"
                         : "left its envs unused too long: they are closed",
                  ses->ident, ses->identlen);
        server__drop_session(s, ses); /* moves the last one to i */
    }
}

/* ---- static helpers: frames --------------------------------------------- */

/* Receives the next frame of a message already arriving (ZeroMQ delivers
 * a message's frames together, so this does not wait; a signal can still
 * interrupt it, hence the retry). */
static int recv_frame(struct server *s, zmq_msg_t *m)
{
    int rc;
    while ((rc = zmq_msg_recv(m, s->sock, 0)) < 0 && errno == EINTR)
        continue;
    return rc;
}

/* Who sent the payload: the name of its CURVE key when CURVE is on (the
 * ZAP handler authenticated it), else its IP address, else "" (ipc,
 * inproc). Sessions are bound to it, so a routing id alone opens no
 * one's envs. */
static void read_peer(struct server *s)
{
    if (s->o.name_peer) {
        s->o.name_peer(s->ident, s->identlen, s->peer, sizeof s->peer);
        return;
    }
    auth_peer(&s->payload, s->auth != NULL, s->peer, sizeof s->peer);
}

/* Receives one request's frames without waiting. Returns 1 with the
 * payload in s->payload (frames left over in *extra), 0 when nothing is
 * waiting, or -1 on a socket failure. */
static int recv_request(struct server *s, int *extra)
{
    if (zmq_msg_recv(&s->frame, s->sock, ZMQ_DONTWAIT) < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -1;
    s->identlen = zmq_msg_size(&s->frame);
    if (s->identlen > SERVER_IDENT_MAX)
        s->identlen = SERVER_IDENT_MAX; /* ZeroMQ caps ids at 255 bytes */
    memcpy(s->ident, zmq_msg_data(&s->frame), s->identlen);
    s->delim = false;
    s->peer[0] = '\0';
    *extra = 0;
    if (!zmq_msg_more(&s->frame)) { /* no body at all: an empty payload */
        zmq_msg_close(&s->payload);
        zmq_msg_init(&s->payload);
        return 1;
    }
    if (recv_frame(s, &s->payload) < 0)
        return -1;
    if (!zmq_msg_size(&s->payload) && zmq_msg_more(&s->payload)) {
        s->delim = true;
        if (recv_frame(s, &s->payload) < 0)
            return -1;
    }
    read_peer(s);
    for (bool more = zmq_msg_more(&s->payload); more;
         more = zmq_msg_more(&s->frame)) {
        if (recv_frame(s, &s->frame) < 0)
            return -1;
        (*extra)++;
    }
    return 1;
}

static void send_reply(struct server *s)
{
    /* Failures mean the client is gone or not reading: ROUTER drops the
     * reply, which is all that can be done for it. */
    if (s->out.size > s->o.max_reply)
        server__fail(s, PROTO_E_LIMIT,
                     "the reply would be %zu bytes, more than the server's "
                     "max_reply of %zu (parlor serve --max-reply): ask for "
                     "view or names of fewer envs",
                     s->out.size, s->o.max_reply);
    zmq_send(s->sock, s->ident, s->identlen, ZMQ_SNDMORE | ZMQ_DONTWAIT);
    if (s->delim)
        zmq_send(s->sock, "", 0, ZMQ_SNDMORE | ZMQ_DONTWAIT);
    server__send_reply(s);
}

static void dispatch(struct server *s)
{
    s->cur = server__session(s, false);
    if (s->cur)
        s->cur->last_seen = s->now;
    for (int i = 0; i < NHANDLERS; i++)
        if (handlers[i].type == s->in.type) {
            handlers[i].fn(s);
            return;
        }
    /* The decoder accepts request types only, and each has a handler. */
    server__fail(s, PROTO_E_INTERNAL, "no handler for %s",
                 proto_msg_name(s->in.type));
}

/* Serves one waiting request. Returns 1 if one was served, 0 if none was
 * waiting, -1 on a socket failure. */
static int serve_one(struct server *s)
{
    int extra;
    int rc = recv_request(s, &extra);
    if (rc <= 0)
        return rc;
    s->now = s->o.clock(s->o.clock_arg);
    sweep(s);
    msgpack_sbuffer_clear(&s->out);
    const void *data = zmq_msg_data(&s->payload);
    size_t len = zmq_msg_size(&s->payload);
    if (proto_decode(&s->dec, PROTO_REQUEST, data, len, &s->in))
        proto_pack_error(&s->pk, s->in.has_id, s->in.id, s->dec.code,
                         s->dec.msg);
    else if (extra)
        server__fail(s, PROTO_E_MALFORMED,
                     "a request is one frame (after an optional empty "
                     "delimiter); %d more followed",
                     extra);
    else if (!server__check_budget(s))
        dispatch(s);
    send_reply(s);
    return 1;
}

static int bind_socket(struct server *s, char *err, size_t errlen)
{
    int zero = 0, rcvhwm = RCV_HWM, ivl = SERVER_HEARTBEAT_MS,
        dead = SERVER_HEARTBEAT_DEAD;
    int64_t cap = (int64_t)s->o.max_msg * HARD_CAP_FACTOR;
    routing_id_seed(); /* else a client claiming libzmq's next id crashes it */
    s->sock = zmq_socket(s->ctx, ZMQ_ROUTER);
    if (!s->sock)
        return err_set(err, errlen, ERR_IO, "zmq_socket: %s",
                       zmq_strerror(errno));
    zmq_setsockopt(s->sock, ZMQ_LINGER, &zero, sizeof zero);
    if (s->o.curve) {
        s->auth = auth_new(s->ctx, s->o.allow_dir, err, errlen);
        if (!s->auth || auth_server(s->sock, s->o.curve, err, errlen))
            return ERR_INVAL;
    }
    /* No ZMQ_ROUTER_HANDOVER: a connection claiming the routing id of one
     * still connected is ignored by libzmq, so it cannot take over that
     * client's envs. */
    zmq_setsockopt(s->sock, ZMQ_MAXMSGSIZE, &cap, sizeof cap);
    /* Requests waiting per connection: past this libzmq stops reading
     * from it, which bounds what a flooding client makes the server
     * hold (replies are bounded by the reply budget). */
    zmq_setsockopt(s->sock, ZMQ_RCVHWM, &rcvhwm, sizeof rcvhwm);
    /* A connection that answers no ZMTP ping for a minute (a dead peer,
     * or one that reads nothing at all) is dropped, and with it the
     * replies libzmq held for it. */
    zmq_setsockopt(s->sock, ZMQ_HEARTBEAT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(s->sock, ZMQ_HEARTBEAT_TIMEOUT, &dead, sizeof dead);
    if (zmq_bind(s->sock, s->o.endpoint))
        return err_set(err, errlen, ERR_IO, "cannot bind %s: %s", s->o.endpoint,
                       zmq_strerror(errno));
    size_t n = sizeof s->endpoint;
    if (zmq_getsockopt(s->sock, ZMQ_LAST_ENDPOINT, s->endpoint, &n))
        snprintf(s->endpoint, sizeof s->endpoint, "%s", s->o.endpoint);
    return 0;
}

static int open_pipe(struct server *s, char *err, size_t errlen)
{
    if (pipe(s->wake))
        return err_set(err, errlen, ERR_IO, "pipe: %s", strerror(errno));
    for (int i = 0; i < 2; i++)
        fcntl(s->wake[i], F_SETFL, fcntl(s->wake[i], F_GETFL) | O_NONBLOCK);
    return 0;
}

/* ---- API ---------------------------------------------------------------- */

server_t *server_new(const struct server_options *opts, char *err,
                     size_t errlen)
{
    server_t *s = mem_alloc(sizeof *s);
    if (!s)
        return err_set(err, errlen, ERR_NOMEM, "out of memory"), NULL;
    s->wake[0] = s->wake[1] = -1;
    s->free_head = -1;
    zmq_msg_init(&s->frame);
    zmq_msg_init(&s->payload);
    msgpack_sbuffer_init(&s->out);
    msgpack_packer_init(&s->pk, &s->out, msgpack_sbuffer_write);
    if (opts)
        s->o = *opts;
    if (fill_defaults(&s->o, err, errlen))
        goto out_fail;
    snprintf(s->endpoint, sizeof s->endpoint, "%s", s->o.endpoint);
    s->o.endpoint = s->endpoint; /* the caller's string may not outlive s */
    s->dec_ready = !proto_decoder_init(&s->dec, s->o.max_msg);
    s->budget = server__budget_new();
    s->ctx = s->o.zmq_ctx;
    if (!s->ctx) {
        s->ctx = zmq_ctx_new();
        s->own_ctx = true;
    }
    if (!s->dec_ready || !s->ctx || !s->budget) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        goto out_fail;
    }
    if (open_pipe(s, err, errlen) || bind_socket(s, err, errlen))
        goto out_fail;
    return s;
out_fail:
    server_destroy(&s);
    return NULL;
}

int server_run(server_t *s)
{
    zmq_pollitem_t items[2] = {{s->sock, 0, ZMQ_POLLIN, 0},
                               {NULL, s->wake[0], ZMQ_POLLIN, 0}};
    for (;;) {
        s->now = s->o.clock(s->o.clock_arg);
        sweep(s);
        int rc = zmq_poll(items, 2, POLL_MAX_MS);
        if (rc < 0 && errno == EINTR)
            continue; /* a signal: its handler wrote to the pipe */
        if (rc < 0)
            return err_set(s->err, sizeof s->err, ERR_IO, "zmq_poll: %s",
                           zmq_strerror(errno));
        if (items[1].revents & ZMQ_POLLIN) {
            char drain[16];
            while (read(s->wake[0], drain, sizeof drain) > 0)
                continue;
            return 0;
        }
        /* One request per poll: a synchronous client's next request comes
         * after the reply, so trying for another here would only cost a
         * failed receive; a queue is served just as well by polling. */
        if (rc > 0)
            rc = serve_one(s);
        if (rc < 0)
            return err_set(s->err, sizeof s->err, ERR_IO, "zmq recv: %s",
                           zmq_strerror(errno));
    }
}

void server_stop(server_t *s)
{
    /* write() is async-signal-safe; a full pipe already holds a stop. */
    ssize_t n = write(s->wake[1], "x", 1);
    (void)n;
}

const char *server_endpoint(const server_t *s)
{
    return s->endpoint;
}

int server_envs(const server_t *s)
{
    return s->total;
}

int server_clients(const server_t *s)
{
    return s->nsessions;
}

size_t server_unread(const server_t *s)
{
    return server__budget_total(s->budget);
}

const char *server_errmsg(const server_t *s)
{
    return s->err;
}

void server_destroy(server_t **sp)
{
    if (!sp || !*sp)
        return;
    server_t *s = *sp;
    server__close_all(s);
    if (s->sock)
        zmq_close(s->sock);
    auth_destroy(&s->auth);
    if (s->own_ctx && s->ctx)
        zmq_ctx_term(s->ctx);
    for (int i = 0; i < 2; i++)
        if (s->wake[i] >= 0)
            close(s->wake[i]);
    zmq_msg_close(&s->frame);
    zmq_msg_close(&s->payload);
    msgpack_sbuffer_destroy(&s->out);
    server__budget_release(&s->budget);
    if (s->dec_ready)
        proto_decoder_fini(&s->dec);
    mem_free(s);
    *sp = NULL;
}

/* ---- cross-file --------------------------------------------------------- */

void server__log(struct server *s, const char *what)
{
    log_ident(s, what, s->ident, s->identlen);
}

int server__fail(struct server *s, int code, const char *fmt, ...)
{
    char msg[PROTO_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    msgpack_sbuffer_clear(&s->out);
    proto_pack_error(&s->pk, s->in.has_id, s->in.id, code, msg);
    return code;
}

struct session *server__session(struct server *s, bool create)
{
    /* A linear search over at most max_clients entries; the hot path
     * (reset, step) finds the session through its env instead. The
     * previous sender is checked first: clients send in bursts. */
    if (s->cur && is_sender(s, s->cur))
        return s->cur;
    for (int i = 0; i < s->nsessions; i++)
        if (is_sender(s, s->sessions[i]))
            return s->sessions[i];
    if (!create || s->nsessions >= s->o.max_clients)
        return NULL;
    struct session **grown =
        mem_realloc(s->sessions, (size_t)(s->nsessions + 1) * sizeof *grown);
    struct session *ses = grown ? mem_alloc(sizeof *ses) : NULL;
    if (grown)
        s->sessions = grown;
    if (!ses)
        return NULL;
    memcpy(ses->ident, s->ident, s->identlen);
    ses->identlen = s->identlen;
    memcpy(ses->peer, s->peer, sizeof ses->peer);
    ses->last_seen = ses->last_used = s->now;
    s->sessions[s->nsessions++] = ses;
    log_ident(s, "made its first env", ses->ident, ses->identlen);
    return ses;
}

void server__drop_session(struct server *s, struct session *ses)
{
    for (int i = 0; i < s->nslots; i++)
        if (s->slots[i].id && s->slots[i].owner == ses)
            server__free_slot(s, &s->slots[i]);
    for (int i = 0; i < s->nsessions; i++)
        if (s->sessions[i] == ses) {
            s->sessions[i] = s->sessions[--s->nsessions];
            break;
        }
    if (s->cur == ses)
        s->cur = NULL;
    mem_free(ses);
}
