/* server.h — the environment server behind `parlor serve`.
 *
 * One ZeroMQ ROUTER socket serves many clients at once, each holding many
 * envs and vector envs (env.h, venv.h), with the protocol of
 * protocol/PROTOCOL.md. The server is one thread running one loop; every
 * request is validated before it is acted on, and anything wrong gets an
 * error reply naming the problem while the server goes on. A client's
 * envs are closed when it has been silent for idle_timeout, or has not
 * used them for max_unused. Nothing a request says starts a process or
 * names a file; every resource has a limit below (PROTOCOL.md §13): the
 * replies a connection (and a peer) has not read, the search of the
 * built-in opponents, clients and envs per peer. With a CURVE key pair, only clients that
 * pass CURVE (and the allow directory) are heard.
 *
 * Threads: server_run blocks the thread that calls it. server_stop may be
 * called from any thread and from a signal handler; everything else must
 * be called from one thread at a time.
 */
#ifndef PARLOR_SERVER_H
#define PARLOR_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/game.h"

#define SERVER_ENDPOINT "tcp://127.0.0.1:5555" /* `parlor serve` default */
#define SERVER_MAX_MSG (1u << 20)              /* default request limit */
#define SERVER_MAX_ENVS 4096                   /* default envs per client */
#define SERVER_MAX_CLIENTS 256 /* default clients holding envs */
#define SERVER_MAX_PER_PEER                                                    \
    32                         /* default clients of one peer (a key or an     \
                                  address) holding envs */
#define SERVER_MAX_TOTAL 65536 /* default envs on the server */
#define SERVER_PEER_SHARE 8    /* per peer by default: 1/8 of envs, bytes */
#define SERVER_IDLE_MS 600000  /* default idle timeout, ms */
#define SERVER_MAX_REPLY (16u << 20)    /* default largest reply */
#define SERVER_REPLY_BUDGET (64u << 20) /* default unread bytes a client */
#define SERVER_REPLY_TOTAL (1u << 30)   /* default unread bytes in all */
#define SERVER_MAX_UNUSED_MS 3600000    /* default session life unused */
#define SERVER_OPP_WORK 2000        /* default opponents' playouts per move */
#define SERVER_OPP_TIME_MS 100      /* default opponents' search ms per move */
#define SERVER_HEARTBEAT_MS 10000   /* ZMTP pings to each connection */
#define SERVER_HEARTBEAT_DEAD 60000 /* no answer for so long: dropped */

typedef struct server server_t;
struct auth_keypair;

/* How a server runs; zero or NULL members take the defaults above. */
struct server_options {
    const char *endpoint;   /* where to bind: tcp://host:port (port * picks
                               a free one), ipc://path, inproc://name */
    void *zmq_ctx;          /* a ZeroMQ context to share (inproc needs the
                               clients' one); NULL: the server makes its own */
    size_t max_msg;         /* largest request answered, bytes */
    int max_envs;           /* most envs one client holds (vector: its n) */
    int max_clients;        /* most clients holding envs at once */
    int max_per_peer;       /* most of them from one peer: one CURVE key,
                               or one IP address (ipc, inproc: one peer) */
    int max_total;          /* most envs on the server */
    int max_peer_envs;      /* most envs of one peer, summed over its
                               clients; 0: max_total / SERVER_PEER_SHARE */
    uint64_t idle_ms;       /* silence after which a client's envs close */
    uint64_t max_unused_ms; /* time after a client's last make, reset,
                               step or close after which its envs close,
                               pings or not */
    size_t max_reply;       /* largest reply sent, bytes (LIMIT beyond) */
    size_t reply_budget;    /* reply bytes one connection may leave unread
                               before its requests are refused (LIMIT) */
    size_t reply_peer;      /* the same for all connections of one peer
                               together; 0: reply_total / SERVER_PEER_SHARE */
    size_t reply_total;     /* the same for all connections together, for
                               the connections that have unread replies
                               (one that has none is always served) */
    int opp_work;           /* playouts (search iterations) the opponents of
                               one make may start for one move in each of
                               its envs, shared equally among them */
    int opp_time_ms;        /* search milliseconds likewise (time_ms) */
    uint64_t (*clock)(void *arg); /* milliseconds, monotonic; NULL: the
                                     system's monotonic clock (tests pass
                                     a clock they move by hand) */
    void *clock_arg;              /* passed to clock */
    void (*name_peer)(const uint8_t *id, size_t idlen, char *peer,
                      size_t len); /* names the sender's peer after its
                                      routing id (tests: inproc has no
                                      addresses); NULL: its CURVE key's
                                      name, else its IP address */
    int (*make_game)(struct game *g, const char *spec, char *err,
                     size_t errlen); /* resolves game specs; NULL:
                                        game_make (tests add games) */
    FILE *log; /* one line per client arriving or reclaimed;
                  NULL: silent */
    const struct auth_keypair *curve; /* the server's CURVE key pair:
                                         clients must use CURVE; NULL:
                                         plain ZeroMQ */
    const char *allow_dir;            /* with curve: the NAME.key files of the
                                         clients admitted; NULL: any client key
                                         (encrypted, not authenticated) */
};

/* Creates a server bound to opts->endpoint (NULL opts: all defaults).
 * Returns a new server owned by the caller (free with server_destroy), or
 * NULL with a message in err: a bad option or why binding failed. */
server_t *server_new(const struct server_options *opts, char *err,
                     size_t errlen);

/* Serves requests until server_stop is called. Returns 0, or ERR_IO with
 * a message in server_errmsg if the socket fails. */
int server_run(server_t *s);

/* Asks server_run to return after the request in hand. Safe from any
 * thread and from a signal handler (it only writes to a pipe). */
void server_stop(server_t *s);

/* The endpoint actually bound, with any wildcard port resolved
 * (borrowed, lives as long as s). */
const char *server_endpoint(const server_t *s);

/* Envs open now (a vector env counts its n) and clients holding them. */
int server_envs(const server_t *s);
int server_clients(const server_t *s);

/* Bytes of replies that clients have not read yet and the server holds
 * (any thread). */
size_t server_unread(const server_t *s);

/* Text of the last failure of server_run (borrowed). */
const char *server_errmsg(const server_t *s);

/* Closes every env, the socket and the context if the server made it;
 * frees *s and sets it to NULL (NULL-safe). */
void server_destroy(server_t **s);

#endif
