/* auth.h — who may talk to a parlor socket: ZeroMQ CURVE keys and a ZAP
 * handler (libzmq's own encryption and authentication; no CZMQ).
 *
 * Key files use the certificate text format that pyzmq's
 * zmq.auth.load_certificate and CZMQ's zcert read: NAME.key holds a public
 * key, NAME.key_secret the public and the secret key. An "allow" directory
 * holds the NAME.key files of the clients a server accepts; a client that
 * passes the handshake is known by NAME (the User-Id of its messages), so a
 * bot's name can be bound to its key. The ZAP handler runs in a thread of
 * its own, one per ZeroMQ context, and owns its sockets.
 */
#ifndef PARLOR_AUTH_H
#define PARLOR_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <zmq.h>

#define AUTH_KEY_LEN 40      /* Z85 text of a 32-byte CURVE key */
#define AUTH_ALLOW_MAX 1024  /* most keys an allow directory may hold */
#define AUTH_NAME_MAX 64     /* longest key name (file name less ".key") */
#define AUTH_PEER_MAX 72     /* a peer (auth_peer), NUL included */
#define AUTH_FILE_MAX 4096   /* largest key file read, bytes */
#define AUTH_DOMAIN "parlor" /* the ZAP domain of parlor's CURVE servers */

/* A CURVE key pair as Z85 text. */
struct auth_keypair {
    char pub[AUTH_KEY_LEN + 1]; /* public key */
    char sec[AUTH_KEY_LEN + 1]; /* secret key */
};

/* Generates a key pair and writes BASE.key (public key, mode 0644) and
 * BASE.key_secret (both keys, mode 0600). Refuses to overwrite either.
 * Returns 0, or ERR_IO / ERR_INVAL with a message. */
int auth_keygen(const char *base, char *err, size_t errlen);

/* Reads a key pair from a .key_secret file; refuses a file that its group
 * or others may read. Returns 0, or ERR_IO / ERR_SYNTAX with a message. */
int auth_load_secret(const char *path, struct auth_keypair *kp, char *err,
                     size_t errlen);

/* Reads the public key of a .key or .key_secret file into pub (41 bytes).
 * Returns 0, or ERR_IO / ERR_SYNTAX with a message. */
int auth_load_public(const char *path, char *pub, char *err, size_t errlen);

/* Starts the ZAP handler of ctx. allow_dir: every NAME.key in it is an
 * authorised client whose messages carry User-Id NAME; other keys are
 * refused. NULL: every client key is accepted (traffic is encrypted but
 * clients are not authenticated) and User-Id is the client's Z85 key.
 * Returns a handler (stop it with auth_destroy after closing the sockets
 * that use it) or NULL with a message: an unreadable directory or key
 * file, a bad name, a key listed twice, more than AUTH_ALLOW_MAX keys. */
struct auth *auth_new(void *ctx, const char *allow_dir, char *err,
                      size_t errlen);

/* Stops the handler and frees *a; sets it to NULL (NULL-safe). */
void auth_destroy(struct auth **a);

/* Number of keys loaded from the allow directory (0 without one). */
int auth_keys(const struct auth *a);

/* Makes sock a CURVE server with kp's secret key, in AUTH_DOMAIN; call
 * before bind. Returns 0 or ERR_INVAL with a message. */
int auth_server(void *sock, const struct auth_keypair *kp, char *err,
                size_t errlen);

/* Makes sock a CURVE client with key pair kp of the server whose public
 * key is server_pub (Z85); call before connect. Returns 0 or ERR_INVAL. */
int auth_client(void *sock, const char *server_pub,
                const struct auth_keypair *kp, char *err, size_t errlen);

/* The name the peer that sent msg authenticated as (borrowed, lives as
 * long as msg), or NULL on a socket without CURVE. msg must be a frame
 * the peer sent, not the routing-id frame a ROUTER socket adds. */
const char *auth_user(zmq_msg_t *msg);

/* Who sent msg (a frame the peer sent, as for auth_user), for binding what
 * a server keeps to it: with curve, the name its key authenticated as;
 * else its IP address (Peer-Address); else "" (ipc, inproc). Copied into
 * peer (len bytes, NUL-terminated; AUTH_PEER_MAX holds any). */
void auth_peer(zmq_msg_t *msg, bool curve, char *peer, size_t len);

/* True when endpoint is tcp:// on an address other than loopback
 * (127.0.0.0/8, ::1, localhost, lo), where plain traffic can be read or
 * forged by others on the network. */
bool auth_endpoint_is_public(const char *endpoint);

#endif
