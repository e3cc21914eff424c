/* client.c — the C client of client.h.
 *
 * Each call packs one request with a fresh id, sends it on the DEALER
 * socket, and reads replies until the one carrying that id arrives
 * (earlier ones are late answers to requests that timed out). Replies are
 * decoded with the same codec as the server uses, then every blob is
 * checked against the sizes the make reply announced before it is copied
 * into the env's own aligned buffers: a confused server cannot make the
 * client write out of bounds.
 */
#include "client.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zmq.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/routing_id.h"
#include "auth.h"
#include "client_int.h"

/* Largest sizes a make reply may announce; beyond them the reply is taken
 * for garbage rather than allocated for. */
#define SHAPE_MAX_N (1 << 20)
#define SHAPE_MAX_OBS (1 << 24)
#define SHAPE_MAX_ROWS 64
#define SHAPE_MAX_MASK (1 << 16)

struct client {
    void *ctx;                  /* ZeroMQ context */
    bool own_ctx;               /* ctx was made here */
    void *sock;                 /* DEALER connected to the server */
    uint64_t next_id;           /* id of the last request sent */
    struct proto_decoder dec;   /* reply decoder */
    bool dec_ready;             /* dec was initialised */
    struct proto_in in;         /* the last reply */
    zmq_msg_t reply;            /* its bytes (in points into them) */
    msgpack_sbuffer out;        /* the request being packed */
    msgpack_packer pk;          /* packs into out */
    int wire;                   /* wire code of the last error reply */
    char err[PROTO_ERRMSG_MAX]; /* sentence of the last failure */
};

struct client_env {
    client_t *c;               /* the connection it was made on */
    struct client_shape shape; /* its sizes */
    struct client_batch b;     /* its buffers */
    bool view, names;          /* ask for views, names */
};

/* ---- static helpers: requests ------------------------------------------- */

static int fail(client_t *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(client_t *c, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return code;
}

static void begin(client_t *c, enum proto_msg type, int nfields)
{
    msgpack_sbuffer_clear(&c->out);
    proto_pack_head(&c->pk, type, true, ++c->next_id, nfields);
}

/* Receives one reply frame into c->reply and decodes it. */
static int receive(client_t *c)
{
    if (zmq_msg_recv(&c->reply, c->sock, 0) < 0)
        return errno == EAGAIN
                   ? fail(c, ERR_TIMEOUT, "no reply from the server in time")
                   : fail(c, ERR_IO, "receiving: %s", zmq_strerror(errno));
    if (zmq_msg_more(&c->reply)) {
        zmq_msg_t extra;
        zmq_msg_init(&extra);
        while (zmq_msg_more(&c->reply) &&
               zmq_msg_recv(&extra, c->sock, 0) >= 0 && zmq_msg_more(&extra))
            continue;
        zmq_msg_close(&extra);
        return fail(c, ERR_PROTO, "the reply has several frames");
    }
    if (proto_decode(&c->dec, PROTO_REPLY, zmq_msg_data(&c->reply),
                     zmq_msg_size(&c->reply), &c->in))
        return fail(c, ERR_PROTO, "unreadable reply: %s", c->dec.msg);
    return 0;
}

/* Sends the packed request. */
static int send_packed(client_t *c)
{
    c->wire = 0;
    c->err[0] = '\0';
    if (zmq_send(c->sock, c->out.data, c->out.size, 0) < 0)
        return fail(c, ERR_IO, "sending: %s", zmq_strerror(errno));
    return 0;
}

/* Waits for the reply to the request sent last; check_id skips replies to
 * other (earlier) requests. */
static int await_reply(client_t *c, bool check_id)
{
    int rc;
    do
        rc = receive(c);
    while (!rc && check_id && c->in.has_id && c->in.id != c->next_id);
    if (rc)
        return rc;
    if (c->in.type != PROTO_MSG_ERROR)
        return 0;
    c->wire = (int)proto_uint(&c->in, PROTO_R_ERROR_CODE, 0);
    size_t n;
    const char *msg = proto_bytes(&c->in, PROTO_R_ERROR_MSG, &n);
    return fail(c, proto_error_err(c->wire), "%s: %.*s",
                proto_error_name(c->wire), (int)n, msg);
}

/* Sends the packed request and waits for its reply. */
static int transact(client_t *c, bool check_id)
{
    int rc = send_packed(c);
    return rc ? rc : await_reply(c, check_id);
}

/* Checks that the reply is of type want. */
static int check_type(client_t *c, enum proto_msg want)
{
    if (c->in.type == want)
        return 0;
    return fail(c, ERR_PROTO, "expected a %s reply, got %s",
                proto_msg_name(want), proto_msg_name(c->in.type));
}

/* Runs the packed request and checks the reply's type. */
static int call(client_t *c, enum proto_msg want)
{
    int rc = transact(c, true);
    return rc ? rc : check_type(c, want);
}

static void pack_key_str(client_t *c, enum proto_field f, const char *s)
{
    proto_pack_key(&c->pk, f);
    proto_pack_str(&c->pk, s);
}

static void pack_key_uint(client_t *c, enum proto_field f, uint64_t v)
{
    proto_pack_key(&c->pk, f);
    msgpack_pack_uint64(&c->pk, v);
}

static void pack_flags(client_env_t *e, enum proto_field view,
                       enum proto_field names)
{
    if (e->view) {
        proto_pack_key(&e->c->pk, view);
        msgpack_pack_true(&e->c->pk);
    }
    if (e->names) {
        proto_pack_key(&e->c->pk, names);
        msgpack_pack_true(&e->c->pk);
    }
}

/* ---- static helpers: env buffers ---------------------------------------- */

static int read_shape(client_t *c, struct client_shape *s)
{
    const struct proto_in *in = &c->in;
    s->id = proto_uint(in, PROTO_R_MAKE_ENV, 0);
    s->vector = proto_bool(in, PROTO_R_MAKE_VECTOR, false);
    s->n = (int)proto_uint(in, PROTO_R_MAKE_N, 0);
    s->players = (int)proto_uint(in, PROTO_R_MAKE_PLAYERS, 0);
    s->num_actions = (int)proto_uint(in, PROTO_R_MAKE_NUM_ACTIONS, 0);
    s->mask_bytes = (int)proto_uint(in, PROTO_R_MAKE_MASK_BYTES, 0);
    s->obs_size = (int)proto_uint(in, PROTO_R_MAKE_OBS_SIZE, 0);
    s->rows = (int)proto_uint(in, PROTO_R_MAKE_ROWS, 0);
    s->rewards = (int)proto_uint(in, PROTO_R_MAKE_REWARDS, 0);
    s->learner = (int)proto_int(in, PROTO_R_MAKE_LEARNER, -1);
    if (proto_str_copy(in, PROTO_R_MAKE_SPEC, s->spec, sizeof s->spec))
        s->spec[0] = '\0';
    bool ok = s->n >= 1 && s->n <= SHAPE_MAX_N && (s->vector || s->n == 1) &&
              s->players >= 1 && s->players <= SHAPE_MAX_ROWS && s->rows >= 1 &&
              s->rows <= s->players && s->obs_size >= 0 &&
              s->obs_size <= SHAPE_MAX_OBS && s->mask_bytes >= 8 &&
              s->mask_bytes <= SHAPE_MAX_MASK && s->rewards >= 1 &&
              s->rewards <= s->players;
    return ok ? 0 : fail(c, ERR_PROTO, "the make reply's sizes make no sense");
}

void client__free_batch(struct client_batch *b)
{
    mem_free(b->obs);
    mem_free(b->legal);
    mem_free(b->reward);
    mem_free(b->returns);
    mem_free(b->terminated);
    mem_free(b->truncated);
    mem_free(b->seat);
    mem_free(b->to_move);
    mem_free(b->steps);
    mem_free(b->final_obs);
    mem_free(b->final_seat);
}

bool client__alloc_batch(struct client_batch *b, const struct client_shape *s)
{
    size_t n = (size_t)s->n, rows = n * (size_t)s->rows;
    b->obs = mem_alloc(rows * (size_t)s->obs_size * sizeof(float) + 1);
    b->final_obs = mem_alloc(rows * (size_t)s->obs_size * sizeof(float) + 1);
    b->legal = mem_alloc(rows * (size_t)s->mask_bytes);
    b->reward = mem_alloc(n * (size_t)s->rewards * sizeof(double));
    b->returns = s->vector ? NULL : mem_alloc((size_t)s->players * 8);
    b->terminated = mem_alloc(n);
    b->truncated = mem_alloc(n);
    b->seat = mem_alloc(n * sizeof(int32_t));
    b->final_seat = mem_alloc(n * sizeof(int32_t));
    b->to_move = mem_alloc(n * sizeof(uint32_t));
    b->steps = mem_alloc(n * sizeof(int32_t));
    return b->obs && b->final_obs && b->legal && b->reward &&
           (s->vector || b->returns) && b->terminated && b->truncated &&
           b->seat && b->final_seat && b->to_move && b->steps;
}

/* Copies bin field f into dst if it holds exactly want bytes. */
static int take(client_t *c, enum proto_field f, void *dst, size_t want)
{
    size_t n;
    const void *p = proto_bytes(&c->in, f, &n);
    if (n != want)
        return fail(c, ERR_PROTO, "%s holds %zu bytes, expected %zu",
                    proto_fields[f].key, n, want);
    if (n)
        memcpy(dst, p, n);
    return 0;
}

static int take_timestep(client_env_t *e)
{
    client_t *c = e->c;
    const struct proto_in *in = &c->in;
    const struct client_shape *s = &e->shape;
    struct client_batch *b = &e->b;
    size_t rows = (size_t)s->rows, seats = (size_t)s->players * 8;
    b->to_move[0] = (uint32_t)proto_uint(in, PROTO_R_TIMESTEP_TO_MOVE, 0);
    b->seat[0] = (int32_t)proto_int(in, PROTO_R_TIMESTEP_SEAT, 0);
    b->steps[0] = (int32_t)proto_uint(in, PROTO_R_TIMESTEP_STEPS, 0);
    b->terminated[0] = proto_bool(in, PROTO_R_TIMESTEP_TERMINATED, false);
    b->truncated[0] = proto_bool(in, PROTO_R_TIMESTEP_TRUNCATED, false);
    b->nfinal = 0;
    int rc =
        take(c, PROTO_R_TIMESTEP_OBS, b->obs, rows * (size_t)s->obs_size * 4);
    if (!rc)
        rc = take(c, PROTO_R_TIMESTEP_LEGAL, b->legal,
                  rows * (size_t)s->mask_bytes);
    if (!rc)
        rc = take(c, PROTO_R_TIMESTEP_REWARD, b->reward, seats);
    if (!rc)
        rc = take(c, PROTO_R_TIMESTEP_RETURNS, b->returns, seats);
    return rc;
}

static int take_finals(client_env_t *e)
{
    client_t *c = e->c;
    size_t row = (size_t)e->shape.rows * (size_t)e->shape.obs_size * 4, n;
    proto_bytes(&c->in, PROTO_R_BATCH_FINAL_OBS, &n);
    size_t k = row ? n / row : 0;
    if ((row && n % row) || k > (size_t)e->shape.n)
        return fail(c, ERR_PROTO, "final_obs holds %zu bytes", n);
    e->b.nfinal = (int)k;
    int rc = take(c, PROTO_R_BATCH_FINAL_OBS, e->b.final_obs, k * row);
    return rc ? rc : take(c, PROTO_R_BATCH_FINAL_SEAT, e->b.final_seat, k * 4);
}

static int take_batch(client_env_t *e)
{
    client_t *c = e->c;
    const struct client_shape *s = &e->shape;
    struct client_batch *b = &e->b;
    size_t n = (size_t)s->n, rows = n * (size_t)s->rows;
    if (proto_uint(&c->in, PROTO_R_BATCH_N, 0) != n)
        return fail(c, ERR_PROTO, "the batch's n is not the env's");
    const struct {
        enum proto_field f; /* column */
        void *dst;          /* buffer */
        size_t bytes;       /* its size */
    } cols[] = {
        {PROTO_R_BATCH_OBS, b->obs, rows * (size_t)s->obs_size * 4},
        {PROTO_R_BATCH_LEGAL, b->legal, rows * (size_t)s->mask_bytes},
        {PROTO_R_BATCH_REWARD, b->reward, n * (size_t)s->rewards * 8},
        {PROTO_R_BATCH_TERMINATED, b->terminated, n},
        {PROTO_R_BATCH_TRUNCATED, b->truncated, n},
        {PROTO_R_BATCH_SEAT, b->seat, n * 4},
        {PROTO_R_BATCH_TO_MOVE, b->to_move, n * 4},
        {PROTO_R_BATCH_STEPS, b->steps, n * 4},
    };
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        int rc = take(c, cols[i].f, cols[i].dst, cols[i].bytes);
        if (rc)
            return rc;
    }
    return take_finals(e);
}

/* Runs the packed reset or step of e and takes its reply. */
static int run_env(client_env_t *e)
{
    int rc = send_packed(e->c);
    return rc ? rc : client__env_receive(e);
}

/* Packs the step of e with count actions. */
static void pack_step_many(client_env_t *e, const int32_t *actions, int count)
{
    /* int32 in memory are the wire's little-endian int32 (codec.c
     * refuses to build elsewhere), so the array goes out as it is. */
    size_t bytes = (size_t)(count > 0 ? count : 0) * sizeof(int32_t);
    begin(e->c, PROTO_MSG_STEP, 2 + e->view + e->names);
    pack_key_uint(e->c, PROTO_Q_STEP_ENV, e->shape.id);
    proto_pack_key(&e->c->pk, PROTO_Q_STEP_ACTIONS);
    msgpack_pack_bin(&e->c->pk, bytes);
    msgpack_pack_bin_body(&e->c->pk, actions, bytes);
    pack_flags(e, PROTO_Q_STEP_VIEW, PROTO_Q_STEP_NAMES);
}

static void pack_reset(client_env_t *e, uint64_t seed)
{
    begin(e->c, PROTO_MSG_RESET, 2 + e->view + e->names);
    pack_key_uint(e->c, PROTO_Q_RESET_ENV, e->shape.id);
    pack_key_uint(e->c, PROTO_Q_RESET_SEED, seed);
    pack_flags(e, PROTO_Q_RESET_VIEW, PROTO_Q_RESET_NAMES);
}

/* ---- internals (client_int.h) ------------------------------------------- */

int client__reset_send(client_env_t *e, uint64_t seed)
{
    pack_reset(e, seed);
    return send_packed(e->c);
}

int client__step_send(client_env_t *e, const int32_t *actions, int count)
{
    pack_step_many(e, actions, count);
    return send_packed(e->c);
}

int client__env_receive(client_env_t *e)
{
    enum proto_msg want =
        e->shape.vector ? PROTO_MSG_BATCH : PROTO_MSG_TIMESTEP;
    int rc = await_reply(e->c, true);
    rc = rc ? rc : check_type(e->c, want);
    if (rc)
        return rc;
    return e->shape.vector ? take_batch(e) : take_timestep(e);
}

/* ---- API ---------------------------------------------------------------- */

client_t *client_new(const char *endpoint, void *ctx, char *err, size_t errlen)
{
    return client_new_opts(endpoint, ctx, NULL, err, errlen);
}

/* Applies o to c's socket before it connects. Without o->routing_id the
 * client takes a random one of its own ('c' and 15 random bytes), so that
 * it never depends on the ids libzmq hands out (common/routing_id.h) and
 * the server knows it again after a reconnection. */
static int set_options(client_t *c, const struct client_options *o, char *err,
                       size_t errlen)
{
    uint8_t mine[CLIENT_ID_BYTES];
    routing_id_new(mine, sizeof mine, 'c');
    const void *id = o && o->routing_id ? (const void *)o->routing_id : mine;
    size_t idlen = o && o->routing_id ? strlen(o->routing_id) : sizeof mine;
    if (zmq_setsockopt(c->sock, ZMQ_ROUTING_ID, id, idlen))
        return err_set(err, errlen, ERR_INVAL, "routing id: %s",
                       zmq_strerror(errno));
    if (!o || !o->server_key)
        return 0;
    struct auth_keypair fresh;
    if (!o->keys && zmq_curve_keypair(fresh.pub, fresh.sec))
        return err_set(err, errlen, ERR_INVAL, "no CURVE in this libzmq: %s",
                       zmq_strerror(errno));
    return auth_client(c->sock, o->server_key, o->keys ? o->keys : &fresh, err,
                       errlen);
}

client_t *client_new_opts(const char *endpoint, void *ctx,
                          const struct client_options *o, char *err,
                          size_t errlen)
{
    client_t *c = mem_alloc(sizeof *c);
    if (!c)
        return err_set(err, errlen, ERR_NOMEM, "out of memory"), NULL;
    zmq_msg_init(&c->reply);
    msgpack_sbuffer_init(&c->out);
    msgpack_packer_init(&c->pk, &c->out, msgpack_sbuffer_write);
    c->dec_ready = !proto_decoder_init(&c->dec, SIZE_MAX);
    c->ctx = ctx;
    if (!c->ctx) {
        c->ctx = zmq_ctx_new();
        c->own_ctx = true;
    }
    c->sock = c->ctx ? zmq_socket(c->ctx, ZMQ_DEALER) : NULL;
    if (!c->dec_ready || !c->sock) {
        err_set(err, errlen, ERR_NOMEM, "cannot make a socket: %s",
                zmq_strerror(errno));
        client_destroy(&c);
        return NULL;
    }
    int zero = 0;
    zmq_setsockopt(c->sock, ZMQ_LINGER, &zero, sizeof zero);
    client_set_timeout(c, CLIENT_TIMEOUT_MS);
    if (set_options(c, o, err, errlen)) {
        client_destroy(&c);
        return NULL;
    }
    if (zmq_connect(c->sock, endpoint)) {
        err_set(err, errlen, ERR_IO, "cannot connect to %s: %s", endpoint,
                zmq_strerror(errno));
        client_destroy(&c);
    }
    return c;
}

void client_destroy(client_t **cp)
{
    if (!cp || !*cp)
        return;
    client_t *c = *cp;
    if (c->sock)
        zmq_close(c->sock);
    if (c->own_ctx && c->ctx)
        zmq_ctx_term(c->ctx);
    zmq_msg_close(&c->reply);
    msgpack_sbuffer_destroy(&c->out);
    if (c->dec_ready)
        proto_decoder_fini(&c->dec);
    mem_free(c);
    *cp = NULL;
}

void client_set_timeout(client_t *c, int ms)
{
    zmq_setsockopt(c->sock, ZMQ_RCVTIMEO, &ms, sizeof ms);
}

int client_hello(client_t *c, const char *name)
{
    begin(c, PROTO_MSG_HELLO, name ? 1 : 0);
    if (name)
        pack_key_str(c, PROTO_Q_HELLO_CLIENT, name);
    return call(c, PROTO_MSG_HELLO);
}

int client_ping(client_t *c)
{
    begin(c, PROTO_MSG_PING, 0);
    return call(c, PROTO_MSG_PING);
}

int client_describe(client_t *c, const char *spec)
{
    begin(c, PROTO_MSG_DESCRIBE, 1);
    pack_key_str(c, PROTO_Q_DESCRIBE_GAME, spec);
    return call(c, PROTO_MSG_DESCRIBE);
}

int client_call_raw(client_t *c, const void *req, size_t len)
{
    msgpack_sbuffer_clear(&c->out);
    msgpack_sbuffer_write(&c->out, req, len);
    return transact(c, false);
}

const struct proto_in *client_reply(const client_t *c)
{
    return &c->in;
}

void client_sizes(const client_t *c, size_t *req, size_t *rep)
{
    *req = c->out.size;
    *rep = zmq_msg_size(&c->reply);
}

client_env_t *client_make(client_t *c, const char *spec,
                          const struct client_make_options *o)
{
    static const struct client_make_options none;
    o = o ? o : &none;
    bool single = o->opponents && o->opponents[0];
    begin(c, PROTO_MSG_MAKE, 1 + (o->n > 0) + 2 * single + (o->max_steps > 0));
    pack_key_str(c, PROTO_Q_MAKE_GAME, spec);
    if (o->n > 0)
        pack_key_uint(c, PROTO_Q_MAKE_N, (uint64_t)o->n);
    if (single) {
        pack_key_str(c, PROTO_Q_MAKE_OPPONENTS, o->opponents);
        pack_key_uint(c, PROTO_Q_MAKE_SEAT, (uint64_t)o->seat);
    }
    if (o->max_steps > 0)
        pack_key_uint(c, PROTO_Q_MAKE_MAX_STEPS, (uint64_t)o->max_steps);
    client_env_t *e = mem_alloc(sizeof *e);
    if (!e || call(c, PROTO_MSG_MAKE) || read_shape(c, &e->shape)) {
        mem_free(e);
        return NULL;
    }
    e->c = c;
    if (!client__alloc_batch(&e->b, &e->shape)) {
        fail(c, ERR_NOMEM, "out of memory");
        client_close(&e);
    }
    return e;
}

void client_want(client_env_t *e, bool view, bool names)
{
    e->view = view;
    e->names = names;
}

int client_reset(client_env_t *e, uint64_t seed)
{
    pack_reset(e, seed);
    return run_env(e);
}

int client_step(client_env_t *e, int action)
{
    begin(e->c, PROTO_MSG_STEP, 2 + e->view + e->names);
    pack_key_uint(e->c, PROTO_Q_STEP_ENV, e->shape.id);
    proto_pack_key(&e->c->pk, PROTO_Q_STEP_ACTION);
    msgpack_pack_int(&e->c->pk, action);
    pack_flags(e, PROTO_Q_STEP_VIEW, PROTO_Q_STEP_NAMES);
    return run_env(e);
}

int client_step_many(client_env_t *e, const int32_t *actions, int count)
{
    pack_step_many(e, actions, count);
    return run_env(e);
}

const struct client_shape *client_env_shape(const client_env_t *e)
{
    return &e->shape;
}

const struct client_batch *client_env_batch(const client_env_t *e)
{
    return &e->b;
}

int client_close(client_env_t **ep)
{
    if (!ep || !*ep)
        return 0;
    client_env_t *e = *ep;
    begin(e->c, PROTO_MSG_CLOSE, 1);
    pack_key_uint(e->c, PROTO_Q_CLOSE_ENV, e->shape.id);
    int rc = call(e->c, PROTO_MSG_CLOSE);
    client_forget(ep);
    return rc;
}

void client_forget(client_env_t **ep)
{
    if (!ep || !*ep)
        return;
    client__free_batch(&(*ep)->b);
    mem_free(*ep);
    *ep = NULL;
}

int client_wire_error(const client_t *c)
{
    return c->wire;
}

const char *client_errmsg(const client_t *c)
{
    return c->err;
}
