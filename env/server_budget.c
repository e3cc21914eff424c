/* server_budget.c — the bytes of replies the server holds for clients
 * that have not read them, per connection, per peer and in all.
 *
 * A reply is handed to libzmq in a buffer of ours whose free function
 * libzmq calls once it is done with it: written to the socket (tcp, ipc)
 * or read by the peer (inproc), or dropped. Sending adds the reply's size
 * to its connection's count and to the total; the free function, on
 * libzmq's I/O thread, takes it off again. So the counts are exactly the
 * reply bytes that sit in the server's memory because a client is not
 * reading, and the server refuses to do work for a connection over its
 * budget, or of a peer over its own (server.c), until it reads. The
 * total refuses only connections that have unread replies themselves, so
 * that a few greedy peers cannot lock out a client that reads.
 *
 * The table of connections lives in a block shared with the buffers in
 * flight: it is freed by the last of the server and its buffers, so a
 * reply libzmq frees after server_destroy still finds its counts. An
 * entry (connection or peer) whose count is zero has no buffer in flight
 * and may be reused.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "../common/mem.h"
#include "server_int.h"

struct conn {
    uint8_t ident[SERVER_IDENT_MAX]; /* routing id; identlen 0: free */
    size_t identlen;                 /* its length */
    atomic_size_t queued;            /* reply bytes libzmq still holds */
    bool refused;                    /* its last request was refused for
                                        its unread replies (logged once) */
};

/* A peer (server__peer's name) with replies in flight. */
struct peer_count {
    char name[SERVER_PEER_MAX]; /* the peer; "" is local (ipc, inproc) */
    bool used;                  /* name is set */
    atomic_size_t queued;       /* reply bytes libzmq still holds for all
                                   of its connections */
};

struct budget {
    atomic_size_t total; /* reply bytes libzmq still holds, in all */
    atomic_int refs;     /* the server, plus one per buffer in flight */
    int last;            /* the entry of the last lookup, or -1 */
    int last_peer;       /* the peer of the last lookup, or -1 */
    struct conn conns[SERVER_BUDGET_CONNS];       /* connections with
                                                     replies */
    struct peer_count peers[SERVER_BUDGET_CONNS]; /* their peers */
};

/* A reply in flight: its counts, then its bytes. */
struct ticket {
    struct budget *b;        /* whose counts */
    struct conn *conn;       /* the connection's entry */
    struct peer_count *peer; /* its peer's entry */
    size_t size;             /* bytes that follow */
    unsigned char data[];    /* the reply */
};

static void release(struct budget *b)
{
    if (atomic_fetch_sub(&b->refs, 1) == 1)
        mem_free(b);
}

/* Called by libzmq, on any thread, once it is done with a reply. */
static void reply_done(void *data, void *hint)
{
    struct ticket *t = hint;
    (void)data;
    atomic_fetch_sub(&t->conn->queued, t->size);
    atomic_fetch_sub(&t->peer->queued, t->size);
    atomic_fetch_sub(&t->b->total, t->size);
    struct budget *b = t->b;
    mem_free(t);
    release(b);
}

static bool is_conn(const struct conn *c, const uint8_t *id, size_t len)
{
    return c->identlen == len && !memcmp(c->ident, id, len);
}

/* The sender's entry; created when create, reusing one with nothing in
 * flight. NULL when absent, or when every entry holds unread replies. */
static struct conn *find_conn(struct budget *b, const uint8_t *id, size_t len,
                              bool create)
{
    if (b->last >= 0 && is_conn(&b->conns[b->last], id, len))
        return &b->conns[b->last];
    int spare = -1;
    for (int i = 0; i < SERVER_BUDGET_CONNS; i++) {
        struct conn *c = &b->conns[i];
        if (c->identlen && is_conn(c, id, len))
            return &b->conns[b->last = i];
        if (spare < 0 && (!c->identlen || !atomic_load(&c->queued)))
            spare = i;
    }
    if (!create || spare < 0)
        return NULL;
    struct conn *c = &b->conns[spare];
    memcpy(c->ident, id, len);
    c->identlen = len;
    c->refused = false;
    b->last = spare;
    return c;
}

/* The entry of peer name; created when create, reusing one with nothing
 * in flight. NULL when absent, or when every entry holds unread replies
 * (there are as many entries as connections, so that needs every
 * connection to be of a different peer). */
static struct peer_count *find_peer(struct budget *b, const char *name,
                                    bool create)
{
    struct peer_count *p = b->last_peer >= 0 ? &b->peers[b->last_peer] : NULL;
    if (p && p->used && !strcmp(p->name, name))
        return p;
    int spare = -1;
    for (int i = 0; i < SERVER_BUDGET_CONNS; i++) {
        p = &b->peers[i];
        if (p->used && !strcmp(p->name, name))
            return &b->peers[b->last_peer = i];
        if (spare < 0 && (!p->used || !atomic_load(&p->queued)))
            spare = i;
    }
    if (!create || spare < 0)
        return NULL;
    p = &b->peers[spare];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->used = true;
    b->last_peer = spare;
    return p;
}

/* Logs the first refusal of connection c in a row. */
static void log_refusal(struct server *s, struct conn *c, const char *why,
                        size_t bytes)
{
    if (c->refused)
        return;
    char line[160];
    snprintf(line, sizeof line,
             "is refused until it reads: %zu bytes of replies not read "
             "are over %s",
             bytes, why);
    server__log(s, line);
    c->refused = true;
}

/* ---- cross-file --------------------------------------------------------- */

struct budget *server__budget_new(void)
{
    struct budget *b = mem_alloc(sizeof *b);
    if (!b)
        return NULL;
    atomic_init(&b->total, 0);
    atomic_init(&b->refs, 1);
    b->last = b->last_peer = -1;
    for (int i = 0; i < SERVER_BUDGET_CONNS; i++) {
        atomic_init(&b->conns[i].queued, 0);
        atomic_init(&b->peers[i].queued, 0);
    }
    return b;
}

void server__budget_release(struct budget **b)
{
    if (b && *b)
        release(*b);
    if (b)
        *b = NULL;
}

int server__check_budget(struct server *s)
{
    struct conn *c = find_conn(s->budget, s->ident, s->identlen, true);
    struct peer_count *p = find_peer(s->budget, s->peer, true);
    if (!c || !p)
        return server__fail(s, PROTO_E_LIMIT,
                            "%d connections have replies they have not "
                            "read, the server's limit: try again later",
                            SERVER_BUDGET_CONNS);
    size_t mine = atomic_load(&c->queued), peer = atomic_load(&p->queued);
    size_t total = atomic_load(&s->budget->total);
    if (mine >= s->o.reply_budget) {
        log_refusal(s, c, "its reply budget", mine);
        return server__fail(s, PROTO_E_LIMIT,
                            "this connection has not read %zu bytes of "
                            "replies, its budget is %zu (parlor serve "
                            "--reply-budget): read them first",
                            mine, s->o.reply_budget);
    }
    if (peer >= s->o.reply_peer) {
        log_refusal(s, c, "its peer's reply budget", peer);
        return server__fail(s, PROTO_E_LIMIT,
                            "the connections of this peer (%s) have not "
                            "read %zu bytes of replies, its budget is %zu "
                            "(parlor serve --reply-peer): read them first",
                            s->peer[0] ? s->peer : "local", peer,
                            s->o.reply_peer);
    }
    if (mine && total >= s->o.reply_total) {
        log_refusal(s, c, "the server's reply budget", mine);
        return server__fail(s, PROTO_E_LIMIT,
                            "clients have not read %zu bytes of replies, "
                            "the server's budget is %zu (parlor serve "
                            "--reply-total), and this connection %zu: "
                            "read them first",
                            total, s->o.reply_total, mine);
    }
    c->refused = false;
    return 0;
}

size_t server__budget_total(const struct budget *b)
{
    return atomic_load(&((struct budget *)b)->total);
}

int server__send_reply(struct server *s)
{
    struct conn *c = find_conn(s->budget, s->ident, s->identlen, true);
    struct peer_count *p = c ? find_peer(s->budget, s->peer, true) : NULL;
    struct ticket *t = p ? mem_alloc(sizeof *t + s->out.size) : NULL;
    zmq_msg_t msg;
    if (!t) /* no entry free: send untracked (only small errors get here) */
        return zmq_send(s->sock, s->out.data, s->out.size, ZMQ_DONTWAIT);
    t->b = s->budget;
    t->conn = c;
    t->peer = p;
    t->size = s->out.size;
    memcpy(t->data, s->out.data, t->size);
    atomic_fetch_add(&t->b->refs, 1);
    atomic_fetch_add(&c->queued, t->size);
    atomic_fetch_add(&p->queued, t->size);
    atomic_fetch_add(&t->b->total, t->size);
    zmq_msg_init_data(&msg, t->data, t->size, reply_done, t);
    int rc = zmq_msg_send(&msg, s->sock, ZMQ_DONTWAIT);
    if (rc < 0)
        zmq_msg_close(&msg); /* calls reply_done: the counts go back */
    return rc;
}
