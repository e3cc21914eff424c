/* client_venv.h — one vector env spread over several env servers, so that
 * a learner on one machine steps envs served by `parlor serve` on many.
 *
 * client_venv_new connects to every endpoint and makes one vector env on
 * each, the n envs spread in endpoint order as evenly as they go (the
 * first n % k of k servers hold one more). A reset or step sends one
 * batched request to every server before it waits for any reply, then
 * copies the replies into one batch in env order, laid out as for a
 * single server's vector env (client.h). Seeds: the first server's envs
 * start from seed exactly as one server's vector env would, server k's
 * (k >= 1) as if reset with rng_derive(seed, n + k). Actions are checked
 * against the last legal masks before anything is sent, so an illegal
 * action moves no env on any server. Not thread-safe.
 */
#ifndef PARLOR_CLIENT_VENV_H
#define PARLOR_CLIENT_VENV_H

#include "client.h"

#define CLIENT_VENV_SERVERS_MAX 1024 /* endpoints one venv may spread over */

typedef struct client_venv client_venv_t;

/* Makes a vector env of o->n envs (o->n >= nendpoints; the other options
 * as for client_make) of spec over the nendpoints endpoints, connecting to
 * endpoints[j] with conn[j] (conn NULL: plain connections; CURVE keys go
 * there, client.h) and ctx (NULL: a context per connection). Waits for
 * every server. Returns the venv (owned by the caller:
 * client_venv_destroy) or NULL with a message naming the server at fault
 * in err. */
client_venv_t *client_venv_new(const char *const *endpoints, int nendpoints,
                               const struct client_options *conn, void *ctx,
                               const char *spec,
                               const struct client_make_options *o, char *err,
                               size_t errlen);

/* Starts new episodes from seed on every server. Returns 0 or a code. */
int client_venv_reset(client_venv_t *v, uint64_t seed);

/* Steps every env: count = n x rows actions in env order. Returns 0,
 * ERR_INVAL (count, or no reset yet), ERR_ILLEGAL_ACTION (nothing was
 * sent) or the first server's error once every server has answered. */
int client_venv_step(client_venv_t *v, const int32_t *actions, int count);

/* The sizes (n: all envs; id: the first server's env) and the last reset
 * or step, borrowed for the venv's life. */
const struct client_shape *client_venv_shape(const client_venv_t *v);
const struct client_batch *client_venv_batch(const client_venv_t *v);

/* Sentence of the last failure ("" after a success; borrowed). */
const char *client_venv_errmsg(const client_venv_t *v);

/* Sets how long each server's reply is waited for, in ms (-1: for ever). */
void client_venv_set_timeout(client_venv_t *v, int ms);

/* Closes the envs on their servers (waiting 5 s at most for each) and the
 * connections, frees *v and sets it to NULL (NULL-safe). */
void client_venv_destroy(client_venv_t **v);

#endif
