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
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>
#include <zmq.h>

#include "../common/err.h"
#include "../common/mem.h"

#define POLL_SLICE_MS 50 /* how often a wait checks the process is alive */

struct remote {
    char cmd[GAME_SPEC_MAX];   /* the command line */
    int move_ms;               /* per-move limit */
    void *ctx, *sock;          /* NULL until started */
    pid_t pid;                 /* the bot's process, 0 if none */
    bool broken;               /* failed once: every act fails */
    uint64_t next_id;          /* id of the next act request */
    char endpoint[128];        /* where the socket is bound */
    msgpack_sbuffer out;       /* the request being built */
    int *legal;                /* dims.max_legal entries */
    float *obs;                /* dims.obs_size floats */
};

/* ---- process and socket ------------------------------------------------ */

static bool alive(struct remote *r)
{
    int status;
    if (r->pid > 0 && waitpid(r->pid, &status, WNOHANG) == r->pid)
        r->pid = 0;
    return r->pid > 0;
}

static void stop(struct remote *r)
{
    if (r->pid > 0) {
        kill(-r->pid, SIGKILL);
        kill(r->pid, SIGKILL);
        waitpid(r->pid, NULL, 0);
        r->pid = 0;
    }
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
    r->pid = pid;
    return 0;
}

static int bind_socket(struct remote *r)
{
    int64_t max = REMOTE_MSG_MAX;
    int zero = 0;
    size_t len = sizeof r->endpoint;
    r->ctx = zmq_ctx_new();
    r->sock = r->ctx ? zmq_socket(r->ctx, ZMQ_PAIR) : NULL;
    if (!r->sock)
        return ERR_IO;
    zmq_setsockopt(r->sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(r->sock, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_bind(r->sock, "tcp://127.0.0.1:*") ||
        zmq_getsockopt(r->sock, ZMQ_LAST_ENDPOINT, r->endpoint, &len))
        return ERR_IO;
    return 0;
}

/* Waits up to ms for one message into buf (*len in: size, out: length).
 * Returns 0, ERR_TIMEOUT, ERR_IO (process gone) or ERR_PROTO (too long). */
static int receive(struct remote *r, int ms, char *buf, size_t *len)
{
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

static void pack_key(msgpack_packer *pk, const char *k)
{
    size_t n = strlen(k);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, k, n);
}

/* The value of key k in map o, or NULL. */
static const msgpack_object *lookup(const msgpack_object *o, const char *k)
{
    if (o->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object_kv *kv = &o->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR &&
            kv->key.via.str.size == strlen(k) &&
            !memcmp(kv->key.via.str.ptr, k, kv->key.via.str.size))
            return &kv->val;
    }
    return NULL;
}

static bool is_type(const msgpack_object *o, const char *type)
{
    const msgpack_object *t = lookup(o, "type");
    return t && t->type == MSGPACK_OBJECT_STR &&
           t->via.str.size == strlen(type) &&
           !memcmp(t->via.str.ptr, type, t->via.str.size);
}

static bool get_int(const msgpack_object *o, const char *k, int64_t *v)
{
    const msgpack_object *x = lookup(o, k);
    if (x && x->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
        x->via.u64 <= INT64_MAX)
        return *v = (int64_t)x->via.u64, true;
    if (x && x->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return *v = x->via.i64, true;
    return false;
}

/* Receives one message and checks it is type (with id when id >= 0);
 * *value gets its "action" for an action message. */
static int expect(struct remote *r, int ms, const char *type, int64_t id,
                  int64_t *value)
{
    char buf[REMOTE_MSG_MAX];
    size_t len = sizeof buf;
    int rc = receive(r, ms, buf, &len);
    if (rc)
        return rc;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    rc = ERR_PROTO;
    int64_t got;
    if (msgpack_unpack_next(&u, buf, len, &off) == MSGPACK_UNPACK_SUCCESS &&
        off == len && is_type(&u.data, type) &&
        (id < 0 || (get_int(&u.data, "id", &got) && got == id)) &&
        (!value || get_int(&u.data, "action", value)))
        rc = 0;
    msgpack_unpacked_destroy(&u);
    return rc;
}

/* Binds, spawns and waits for the hello. */
static int start(struct remote *r)
{
    int rc = bind_socket(r);
    if (!rc)
        rc = spawn(r);
    if (!rc)
        rc = expect(r, REMOTE_HELLO_MS, "hello", -1, NULL);
    return rc;
}

/* Builds the act request for seat in st into r->out; n legal actions. */
static void pack_act(struct remote *r, const struct game *g, const void *st,
                     int seat, int n)
{
    msgpack_packer pk;
    msgpack_sbuffer_clear(&r->out);
    msgpack_packer_init(&pk, &r->out, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 9);
    pack_key(&pk, "v");
    msgpack_pack_uint32(&pk, 1);
    pack_key(&pk, "id");
    msgpack_pack_uint64(&pk, r->next_id);
    pack_key(&pk, "type");
    pack_key(&pk, "act");
    pack_key(&pk, "game");
    pack_key(&pk, g->spec);
    pack_key(&pk, "seat");
    msgpack_pack_int(&pk, seat);
    pack_key(&pk, "view");
    game_view(g, st, seat, &pk);
    pack_key(&pk, "obs");
    g->def->observe(g, st, seat, r->obs);
    msgpack_pack_array(&pk, (size_t)g->dims.obs_size);
    for (int i = 0; i < g->dims.obs_size; i++)
        msgpack_pack_float(&pk, r->obs[i]);
    pack_key(&pk, "legal");
    msgpack_pack_array(&pk, (size_t)n);
    for (int i = 0; i < n; i++)
        msgpack_pack_int(&pk, r->legal[i]);
    pack_key(&pk, "deadline_ms");
    msgpack_pack_int(&pk, r->move_ms);
}

/* ---- agent ops --------------------------------------------------------- */

static int remote_act(void *self, const struct game *g, const void *st,
                      int seat, int *action)
{
    struct remote *r = self;
    int rc = r->broken ? ERR_IO : 0;
    if (!rc && !r->sock)
        rc = start(r);
    int n = rc ? 0 : g->def->legal(g, st, seat, r->legal);
    if (!rc) {
        pack_act(r, g, st, seat, n);
        if (zmq_send(r->sock, r->out.data, r->out.size, ZMQ_DONTWAIT) < 0)
            rc = ERR_IO;
    }
    int64_t a = -1;
    if (!rc)
        rc = expect(r, r->move_ms, "action", (int64_t)r->next_id++, &a);
    bool ok = false;
    for (int i = 0; !rc && i < n; i++)
        ok |= r->legal[i] == a;
    if (!rc && !ok)
        rc = ERR_ILLEGAL_ACTION;
    r->broken = rc != 0;
    *action = (int)a;
    return rc;
}

static void remote_destroy(void *self)
{
    struct remote *r = self;
    if (!r)
        return;
    stop(r);
    msgpack_sbuffer_destroy(&r->out);
    mem_free(r->legal);
    mem_free(r->obs);
    mem_free(r);
}

const struct agent_def remote_cmd_agent = {
    .name = "cmd",
    .doc = "an external bot run from a command (cmd:COMMAND)",
    .api_version = AGENT_API_VERSION,
    .act = remote_act,
    .destroy = remote_destroy,
};

int remote_open(const struct game *g, const char *cmd, void **self,
                char *err, size_t errlen)
{
    const char *ms = getenv(REMOTE_MOVE_ENV);
    if (!cmd[0] || strlen(cmd) >= GAME_SPEC_MAX)
        return err_set(err, errlen, ERR_INVAL,
                       "cmd: give a command, e.g. cmd:python3 bot.py");
    struct remote *r = mem_alloc(sizeof *r);
    if (!r)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    memset(r, 0, sizeof *r);
    snprintf(r->cmd, sizeof r->cmd, "%s", cmd);
    r->move_ms = ms && atoi(ms) > 0 ? atoi(ms) : REMOTE_MOVE_MS;
    msgpack_sbuffer_init(&r->out);
    r->legal = mem_alloc(sizeof *r->legal * (size_t)(g->dims.max_legal + 1));
    r->obs = mem_alloc(sizeof *r->obs * (size_t)(g->dims.obs_size + 1));
    *self = r;
    if (!r->legal || !r->obs) {
        remote_destroy(r);
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    }
    return 0;
}
