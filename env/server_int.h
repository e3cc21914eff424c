/* server_int.h — what the server's files share: the server, its client
 * sessions and its table of envs. Not for use outside env/server*.c.
 *
 * A session is one ZeroMQ routing id (one client connection) from one
 * peer (its CURVE key with CURVE on, else its address) that holds envs; it
 * exists from its first make until its last env is closed or it falls silent
 * for idle_ms. Envs live in a slot table: an env id is the slot index plus a
 * per-slot generation, so lookups are O(1) and a closed id does not alias the
 * next env put in the same slot.
 */
#ifndef PARLOR_SERVER_INT_H
#define PARLOR_SERVER_INT_H

#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>
#include <zmq.h>

#include "../protocol/auth.h"
#include "../protocol/codec.h"
#include "env.h"
#include "server.h"
#include "venv.h"

#define SERVER_NAME "parlor 0.1" /* what hello answers */
#define SERVER_IDENT_MAX 255     /* longest ZeroMQ routing id */
#define SERVER_TEXT_MAX 1024     /* longest spec text accepted */
#define SERVER_BUDGET_CONNS 1024 /* connections with unread replies */
#define SERVER_PEER_MAX AUTH_PEER_MAX /* a peer name kept (auth_peer) */

struct session {
    uint8_t ident[SERVER_IDENT_MAX]; /* the client's routing id */
    size_t identlen;                 /* its length */
    char peer[SERVER_PEER_MAX];      /* who sent it (server__peer) */
    uint64_t last_seen;              /* clock at its last request, ms */
    uint64_t last_used;              /* ... at its last make, reset, step
                                        or close (not ping), ms */
    int envs;                        /* envs it holds (vector: n) */
};

struct slot {
    uint64_t id;           /* the env id; 0 while the slot is free */
    uint32_t gen;          /* generation, part of the id */
    int next_free;         /* next free slot index while free, or -1 */
    struct session *owner; /* the session holding it */
    env_t *env;            /* a plain env, or NULL */
    venv_t *venv;          /* a vector env, or NULL */
    int n;                 /* envs in it: 1 for a plain env */
    int rows;              /* observation rows per env */
    int nactions;          /* actions a step takes when given "actions" */
    int *actions;          /* nactions ints, reused by every step */
    float *obs;            /* plain env with rows > 1: rows observations */
};

struct auth;

struct server {
    struct server_options o;         /* options, defaults filled in */
    char endpoint[256];              /* the endpoint bound */
    void *ctx;                       /* ZeroMQ context */
    bool own_ctx;                    /* ctx was made here */
    void *sock;                      /* the ROUTER socket */
    int wake[2];                     /* self-pipe: server_stop writes [1] */
    struct proto_decoder dec;        /* request decoder, reused */
    bool dec_ready;                  /* dec was initialised */
    struct proto_in in;              /* the request in hand */
    msgpack_sbuffer out;             /* the reply being packed, reused */
    msgpack_packer pk;               /* packs into out */
    zmq_msg_t frame;                 /* routing id and extra frames */
    zmq_msg_t payload;               /* the request's bytes */
    uint8_t ident[SERVER_IDENT_MAX]; /* the sender's routing id */
    size_t identlen;                 /* its length */
    bool delim;                      /* the sender used an empty delimiter */
    char peer[SERVER_PEER_MAX];      /* the sender: its CURVE key's name,
                                        else its IP address, else "" */
    struct auth *auth;               /* the ZAP handler with CURVE, or
                                        NULL */
    struct session *cur;             /* the sender's session, or NULL */
    struct session **sessions;       /* sessions holding envs, owned */
    int nsessions;                   /* entries in sessions */
    struct slot *slots;              /* the env table, owned */
    int nslots;                      /* slots in use or on the free list */
    int cap;                         /* slots allocated */
    int free_head;                   /* first free slot, or -1 */
    int total;                       /* envs open (vector: n) */
    uint64_t now;                    /* clock at the request in hand, ms */
    uint64_t next_sweep;             /* when to look for idle sessions */
    struct budget *budget;           /* unread reply bytes, shared with
                                        the replies libzmq holds */
    char err[PROTO_ERRMSG_MAX];      /* last failure of server_run */
};

/* Replaces the reply being packed with an error reply (code a PROTO_E_
 * value) carrying the request's id. Returns code, so that request code
 * can return what it packed: 0 for a success reply, else the wire code
 * of the error reply. */
int server__fail(struct server *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Logs "client <routing id in hex> <what>" when the server logs. */
void server__log(struct server *s, const char *what);

/* The sender's session, created if create (NULL at the client limit). */
struct session *server__session(struct server *s, bool create);

/* Closes every env of ses and forgets it. */
void server__drop_session(struct server *s, struct session *ses);

/* Frees every env in the table (shutdown). */
void server__close_all(struct server *s);

/* Frees sl's env and buffers, returns the slot to the free list and takes
 * its envs off its session's and the server's counts. */
void server__free_slot(struct server *s, struct slot *sl);

/* The sender's env with this id, or NULL after packing UNKNOWN_ENV. */
struct slot *server__slot(struct server *s, uint64_t id);

/* Packs a timestep reply for plain env sl after reset or step; 0. */
int server__pack_timestep(struct server *s, struct slot *sl,
                          const struct env_timestep *ts, bool view, bool names);

/* Packs a batch reply for vector env sl after reset or step; 0. */
int server__pack_batch(struct server *s, struct slot *sl, bool view,
                       bool names);

/* Reply accounting (server_budget.c). A new table of counts, owned by
 * the server and the replies in flight; NULL when out of memory. */
struct budget *server__budget_new(void);

/* Drops the server's hold on *b (the last reply in flight frees it) and
 * sets *b to NULL (NULL-safe). */
void server__budget_release(struct budget **b);

/* 0 when the sender may be served; else packs LIMIT (its unread replies
 * are over reply_budget, its peer's over reply_peer, all clients' over
 * reply_total while it has some, or too many connections hold unread
 * replies) and returns its wire code. */
int server__check_budget(struct server *s);

/* Sends s->out as the payload frame, counted against the sender until
 * libzmq is done with it. Returns what zmq_msg_send returns. */
int server__send_reply(struct server *s);

/* Unread reply bytes in all. */
size_t server__budget_total(const struct budget *b);

/* The request handlers, one per request type of messages.def, named
 * after it: each packs its reply into s->out and returns 0, or packs an
 * error reply and returns its wire code. */
int server__handle_hello(struct server *s);
int server__handle_describe(struct server *s);
int server__handle_make(struct server *s);
int server__handle_reset(struct server *s);
int server__handle_step(struct server *s);
int server__handle_close(struct server *s);
int server__handle_ping(struct server *s);

#endif
