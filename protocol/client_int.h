/* client_int.h — what client_venv.c uses of client.c: a reset or step
 * split into its send and its receive, so that one request can be in
 * flight on each of several connections at once, and the batch buffers.
 */
#ifndef PARLOR_CLIENT_INT_H
#define PARLOR_CLIENT_INT_H

#include "client.h"

/* Sends the reset of e from seed without waiting. Returns 0 or a code. */
int client__reset_send(client_env_t *e, uint64_t seed);

/* Sends the step of e with count actions (as client_step_many) without
 * waiting. Returns 0 or a code. */
int client__step_send(client_env_t *e, const int32_t *actions, int count);

/* Waits for the reply to e's request sent last and takes it into e's
 * batch. Returns 0 or a code (the reason in client_errmsg). */
int client__env_receive(client_env_t *e);

/* Allocates b's buffers for an env of shape s (zeroed first by the
 * caller). Returns false when out of memory (free what was made with
 * client__free_batch). */
bool client__alloc_batch(struct client_batch *b, const struct client_shape *s);

/* Frees b's buffers. */
void client__free_batch(struct client_batch *b);

#endif
