/* client.h — a C client of the env server (PROTOCOL.md): connect, make
 * envs, reset and step them, read observations from plain buffers.
 *
 * A client_t is one DEALER connection; a client_env_t is one env (plain or
 * vector) made through it, with buffers of its own that every reset and
 * step overwrites in place (the server's blobs are copied there, aligned).
 * A plain env looks like a vector env of n = 1, so one struct serves both.
 * Calls wait for their reply (timeout: client_set_timeout); a late reply
 * to a request that timed out is recognised by its id and dropped.
 *
 * Errors: calls return 0 or a negative err.h code; the server's wire
 * code and sentence are kept on the client (client_wire_error,
 * client_errmsg). Not thread-safe: one thread per client.
 */
#ifndef PARLOR_CLIENT_H
#define PARLOR_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

#define CLIENT_TIMEOUT_MS 60000 /* default wait for a reply */
#define CLIENT_ID_BYTES 16      /* the random routing id a client takes */

typedef struct client client_t;
typedef struct client_env client_env_t;

/* What to make; zero-initialised: one plain multi-agent env. */
struct client_make_options {
    int n;                 /* > 0: a vector env of n envs; 0: a plain env */
    const char *opponents; /* NULL: multi-agent; else single-agent with
                              these built-in agents in the other seats */
    int seat;              /* single-agent: the learner's seat */
    int max_steps;         /* truncate episodes after this many (0: never) */
};

/* An env's sizes, from the make reply. */
struct client_shape {
    uint64_t id;     /* the server's env id */
    bool vector;     /* a vector env */
    int n;           /* envs: 1 for a plain env */
    int players;     /* seats */
    int num_actions; /* action ids 0..num_actions-1 */
    int mask_bytes;  /* bytes of one legal-mask row */
    int obs_size;    /* floats of one observation row */
    int rows;        /* observation and mask rows per env */
    int rewards;     /* rewards per env */
    int learner;     /* the learner's seat, -1 in multi-agent mode */
    char spec[256];  /* canonical game spec */
};

/* The last reset or step, as columns of n entries (n = 1 for a plain
 * env). Buffers are owned by the env and live as long as it. */
struct client_batch {
    float *obs;          /* n x rows x obs_size */
    uint8_t *legal;      /* n x rows x mask_bytes: bit a of row r is
                            legal[r * mask_bytes + a / 8] >> (a % 8) & 1 */
    double *reward;      /* n x rewards */
    double *returns;     /* plain env: players results so far; else NULL */
    uint8_t *terminated; /* n flags */
    uint8_t *truncated;  /* n flags */
    int32_t *seat;       /* n observing seats */
    uint32_t *to_move;   /* n bitmasks of seats to act */
    int32_t *steps;      /* n step counts */
    int nfinal;          /* vector: envs whose episode ended this step */
    float *final_obs;    /* nfinal x rows x obs_size, in env order */
    int32_t *final_seat; /* nfinal observing seats of those rows */
};

struct auth_keypair;

/* How a client connects; zero-initialised: as client_new does. */
struct client_options {
    const char *routing_id; /* ZMQ_ROUTING_ID (1..255 bytes, not starting
                               with a zero byte); NULL: CLIENT_ID_BYTES
                               random ones, kept across reconnections */
    const char *server_key; /* the server's CURVE public key (Z85, e.g.
                               from auth_load_public): talk CURVE; NULL:
                               plain ZeroMQ */
    const struct auth_keypair *keys; /* with server_key: this client's
                                        key pair (auth_load_secret);
                                        NULL: a fresh one, for a server
                                        that admits any key */
};

/* Connects to endpoint ("tcp://127.0.0.1:5555") with ctx (NULL: a context
 * of its own). Returns a client owned by the caller (free with
 * client_destroy) or NULL with a message in err. Connecting does not
 * wait for the server: the first request does. */
client_t *client_new(const char *endpoint, void *ctx, char *err, size_t errlen);

/* client_new with options o (NULL: none). */
client_t *client_new_opts(const char *endpoint, void *ctx,
                          const struct client_options *o, char *err,
                          size_t errlen);

/* Closes the connection (not the envs: close them first, or the server
 * reclaims them after its idle timeout); frees *c, sets it to NULL. */
void client_destroy(client_t **c);

/* Sets how long calls wait for a reply, in ms (-1: for ever). */
void client_set_timeout(client_t *c, int ms);

/* Says hello as name (may be NULL). Returns 0 or a negative code; the
 * reply (server, versions, games, limits) is client_reply(c). */
int client_hello(client_t *c, const char *name);

/* Pings the server (keeps its envs alive). Returns 0 or a code. */
int client_ping(client_t *c);

/* Describes the configuration spec; the reply is client_reply(c). */
int client_describe(client_t *c, const char *spec);

/* Sends raw request bytes (one msgpack map, whose id the client does not
 * check) and waits for one reply. Returns 0, or the code of an error
 * reply or of the transport. For tests and tools. */
int client_call_raw(client_t *c, const void *req, size_t len);

/* The last reply, decoded (borrowed, valid until the next call on c). */
const struct proto_in *client_reply(const client_t *c);

/* Sizes in bytes of the last request sent and the last reply received,
 * for benchmarks and logs. */
void client_sizes(const client_t *c, size_t *req, size_t *rep);

/* Makes an env of spec. Returns it (owned by the caller: free with
 * client_close) or NULL with the reason in client_errmsg. */
client_env_t *client_make(client_t *c, const char *spec,
                          const struct client_make_options *o);

/* Asks for the structured view and/or the legal action names in the
 * replies to later resets and steps (read them from client_reply). */
void client_want(client_env_t *e, bool view, bool names);

/* Starts new episodes from seed. Returns 0 or a negative code. */
int client_reset(client_env_t *e, uint64_t seed);

/* Plain env: plays action for the one seat to act. */
int client_step(client_env_t *e, int action);

/* Plain env with several seats acting: one action per seat (players).
 * Vector env: n actions, or n x players when rows > 1. count is the
 * number of actions given. */
int client_step_many(client_env_t *e, const int32_t *actions, int count);

/* The env's sizes and its last reset or step (borrowed, live as long as
 * e; contents change with every reset and step). */
const struct client_shape *client_env_shape(const client_env_t *e);
const struct client_batch *client_env_batch(const client_env_t *e);

/* Closes the env on the server, frees *e and sets it to NULL (NULL-safe).
 * Returns 0 or the code of the close request (*e is freed anyway). */
int client_close(client_env_t **e);

/* Frees *e without telling the server (when the connection or the
 * server is gone) and sets it to NULL (NULL-safe). */
void client_forget(client_env_t **e);

/* True when action a is set in a legal-mask row. */
static inline bool client_is_legal(const uint8_t *row, int a)
{
    return (row[a >> 3] >> (a & 7)) & 1;
}

/* Wire code of the last error reply (PROTO_E_...), or 0 when the last
 * call failed without one (transport, timeout) or succeeded. */
int client_wire_error(const client_t *c);

/* Sentence of the last failure ("" after a success; borrowed). */
const char *client_errmsg(const client_t *c);

#endif
