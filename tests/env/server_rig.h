/* server_rig.h — shared by the server suites: one env server on a helper
 * thread over inproc://, a clock the test moves by hand, and clients and
 * raw sockets that the rig closes at the end (a failed assertion leaves
 * them open, and the context cannot end while they are).
 *
 * The server logs into a pipe the test may read (wait for a line).
 *
 * Include after cmocka.h, zmq.h, env/server.h, protocol/client.h and
 * env_test_util.h (for pennies, which make_game resolves).
 */
#ifndef PARLOR_SERVER_RIG_H
#define PARLOR_SERVER_RIG_H

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#define ENDPOINT "inproc://server"
#define RIG_TIMEOUT_MS 30000 /* bounds a hang; only a bug waits this long */

/* One server on its thread, and a clock it reads. */
struct rig {
    void *ctx;             /* shared by server and clients (inproc) */
    server_t *s;           /* the server */
    pthread_t thread;      /* runs server_run */
    atomic_ullong now;     /* the server's clock, ms */
    int run_rc;            /* what server_run returned */
    client_t *clients[12]; /* connected by the test, closed by rig_stop */
    int nclients;          /* entries in clients */
    void *socks[8];        /* raw sockets, likewise */
    int nsocks;            /* entries in socks */
    char endpoint[256];    /* where the server listens */
    int log[2];            /* a pipe: the server logs into [1] */
    FILE *logf;            /* log[1] as the server's log */
};

static inline uint64_t rig_clock(void *arg)
{
    struct rig *r = arg;
    return atomic_load(&r->now);
}

/* Resolves "pennies" (the simultaneous test game) besides the registry. */
static inline int make_game(struct game *g, const char *spec, char *err,
                            size_t errlen)
{
    if (!strcmp(spec, "pennies")) {
        pennies_game(g);
        return 0;
    }
    return game_make(g, spec, err, errlen);
}

static inline void *serve(void *arg)
{
    struct rig *r = arg;
    r->run_rc = server_run(r->s);
    return NULL;
}

/* Starts r's server with the options of o (its context, clock, games and
 * log are the rig's; its endpoint too unless o names one). */
static inline void rig_start(struct rig *r, const struct server_options *o)
{
    char err[256];
    memset(r, 0, sizeof *r);
    assert_int_equal(pipe(r->log), 0);
    fcntl(r->log[1], F_SETFL, O_NONBLOCK); /* a full pipe loses lines */
    r->logf = fdopen(r->log[1], "w");
    r->ctx = zmq_ctx_new();
    atomic_store(&r->now, 1000);
    struct server_options so = *o;
    snprintf(r->endpoint, sizeof r->endpoint, "%s",
             o->endpoint ? o->endpoint : ENDPOINT);
    so.endpoint = r->endpoint;
    so.zmq_ctx = r->ctx;
    so.clock = rig_clock;
    so.clock_arg = r;
    so.make_game = make_game;
    so.log = r->logf;
    r->s = server_new(&so, err, sizeof err);
    if (!r->s)
        fail_msg("server_new: %s", err);
    assert_int_equal(pthread_create(&r->thread, NULL, serve, r), 0);
}

static inline void rig_stop(struct rig *r)
{
    for (int i = 0; i < r->nclients; i++)
        client_destroy(&r->clients[i]);
    for (int i = 0; i < r->nsocks; i++)
        zmq_close(r->socks[i]);
    server_stop(r->s);
    pthread_join(r->thread, NULL);
    if (r->run_rc)
        fail_msg("server_run: %s", server_errmsg(r->s));
    server_destroy(&r->s);
    zmq_ctx_term(r->ctx);
    fclose(r->logf);
    close(r->log[0]);
}

/* A client on the rig's server with options o (NULL: none), which
 * rig_stop destroys. */
static inline client_t *connect_client_opts(struct rig *r,
                                            const struct client_options *o)
{
    char err[256];
    client_t *c = client_new_opts(r->endpoint, r->ctx, o, err, sizeof err);
    if (!c)
        fail_msg("client_new: %s", err);
    client_set_timeout(c, RIG_TIMEOUT_MS);
    assert_true(r->nclients < 12);
    r->clients[r->nclients++] = c;
    return c;
}

static inline client_t *connect_client(struct rig *r)
{
    return connect_client_opts(r, NULL);
}

/* A raw socket of type on the rig's server (routing id id, or libzmq's
 * when NULL), which rig_stop closes. */
static inline void *connect_raw_id(struct rig *r, int type, const char *id)
{
    void *s = zmq_socket(r->ctx, type);
    int timeout = RIG_TIMEOUT_MS, zero = 0;
    zmq_setsockopt(s, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    if (id)
        zmq_setsockopt(s, ZMQ_ROUTING_ID, id, strlen(id));
    assert_int_equal(zmq_connect(s, r->endpoint), 0);
    assert_true(r->nsocks < 8);
    r->socks[r->nsocks++] = s;
    return s;
}

static inline void *connect_raw(struct rig *r, int type)
{
    return connect_raw_id(r, type, NULL);
}

static inline client_env_t *make(client_t *c, const char *spec, int n,
                                 const char *opp, int seat)
{
    struct client_make_options o = {n, opp, seat, 0};
    client_env_t *e = client_make(c, spec, &o);
    if (!e)
        fail_msg("make %s: %s", spec, client_errmsg(c));
    return e;
}

/* Sends raw bytes; returns the wire code of the reply (0: success). */
static inline int raw(client_t *c, const void *bytes, size_t len)
{
    client_call_raw(c, bytes, len);
    return client_wire_error(c);
}

/* Packs {v:1, id:77, type, then npairs pairs the caller packs}. */
static inline void begin_raw(msgpack_packer *pk, msgpack_sbuffer *sb,
                             const char *type, int npairs)
{
    msgpack_sbuffer_clear(sb);
    msgpack_pack_map(pk, 3 + (size_t)npairs);
    msgpack_pack_str_with_body(pk, "v", 1);
    msgpack_pack_int(pk, 1);
    msgpack_pack_str_with_body(pk, "id", 2);
    msgpack_pack_int(pk, 77);
    msgpack_pack_str_with_body(pk, "type", 4);
    msgpack_pack_str_with_body(pk, type, strlen(type));
}

/* A request packed by hand: begin_req starts {v: 1, id: 77, type} and
 * npairs more pairs, which kv_* add one by one. */
struct req {
    msgpack_sbuffer sb; /* the bytes */
    msgpack_packer pk;  /* packs into sb */
};

static inline void req_init(struct req *q)
{
    msgpack_sbuffer_init(&q->sb);
    msgpack_packer_init(&q->pk, &q->sb, msgpack_sbuffer_write);
}

static inline void req_fini(struct req *q)
{
    msgpack_sbuffer_destroy(&q->sb);
}

static inline void begin_req(struct req *q, const char *type, int npairs)
{
    begin_raw(&q->pk, &q->sb, type, npairs);
}

/* A pair key: the n bytes of val as a str. */
static inline void kv_str(struct req *q, const char *key, const char *val,
                          size_t n)
{
    msgpack_pack_str_with_body(&q->pk, key, strlen(key));
    msgpack_pack_str_with_body(&q->pk, val, n);
}

static inline void kv_int(struct req *q, const char *key, int64_t val)
{
    msgpack_pack_str_with_body(&q->pk, key, strlen(key));
    msgpack_pack_int64(&q->pk, val);
}

static inline void kv_uint(struct req *q, const char *key, uint64_t val)
{
    msgpack_pack_str_with_body(&q->pk, key, strlen(key));
    msgpack_pack_uint64(&q->pk, val);
}

/* Sends q on c; the wire code of the reply (0: success). */
static inline int req_call(client_t *c, struct req *q)
{
    return raw(c, q->sb.data, q->sb.size);
}

/* Sends the request in sb on a raw DEALER without reading the reply. */
static inline void rig_send(void *sock, msgpack_sbuffer *sb)
{
    assert_int_equal(zmq_send(sock, sb->data, sb->size, 0), (int)sb->size);
}

/* Receives one reply on a raw socket into *in (it points into a buffer
 * that the next call reuses): its error code (0: success) and length. */
static inline int rig_recv_code(void *sock, struct proto_decoder *d,
                                struct proto_in *in, size_t *len)
{
    static char buf[1 << 16];
    int n = zmq_recv(sock, buf, sizeof buf, 0);
    assert_true(n > 0 && (size_t)n <= sizeof buf);
    assert_int_equal(proto_decode(d, PROTO_REPLY, buf, (size_t)n, in), 0);
    *len = (size_t)n;
    if (in->type != PROTO_MSG_ERROR)
        return 0;
    return (int)proto_uint(in, PROTO_R_ERROR_CODE, 0);
}

/* Waits (RIG_TIMEOUT_MS at most) for a line of r's server log holding
 * what; what was read with it is forgotten. */
static inline void rig_wait_log(struct rig *r, const char *what)
{
    static char seen[8192];
    static size_t len;
    while (!strstr(seen, what)) {
        struct pollfd p = {r->log[0], POLLIN, 0};
        assert_int_equal(poll(&p, 1, RIG_TIMEOUT_MS), 1);
        assert_true(len < sizeof seen - 1);
        ssize_t n = read(r->log[0], seen + len, sizeof seen - 1 - len);
        assert_true(n > 0);
        len += (size_t)n;
        seen[len] = '\0';
    }
    len = 0;
    seen[0] = '\0';
}

#endif
