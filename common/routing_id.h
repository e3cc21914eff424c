/* routing_id.h — unpredictable ZeroMQ routing ids, for the sockets that
 * listen (ROUTER) and for parlor's own clients (DEALER).
 *
 * libzmq 4.3 gives a connection that brings no routing id the id 0x00
 * followed by a 32-bit counter that starts at glibc rand(), and it aborts
 * when that id is already held by a peer that chose it (an assertion in
 * the ROUTER). Nothing seeds rand(), so every process hands out
 * 00 6b 8b 45 67 first: anyone could claim it and crash the server.
 * routing_id_seed makes the start random; clients that choose their own
 * random ids (never starting with 0x00, which libzmq reserves) do not
 * depend on the counter at all.
 */
#ifndef PARLOR_ROUTING_ID_H
#define PARLOR_ROUTING_ID_H

#include <stddef.h>
#include <stdint.h>

/* Seeds rand(), which libzmq reads when a ROUTER socket is created, from
 * the kernel's random source. Call it before every zmq_socket(ZMQ_ROUTER)
 * of a socket that others connect to (calling it again is harmless: each
 * call draws a fresh seed). */
void routing_id_seed(void);

/* Fills id[0..len) (len >= 1) with a routing id of our own: tag (a
 * non-zero byte naming the kind of client) and len - 1 random bytes. */
void routing_id_new(uint8_t *id, size_t len, uint8_t tag);

#endif
