/* curve_rig.h — a server_rig.h server with CURVE, on an ipc endpoint in
 * a private directory that holds the keys: the server's, alice's and
 * bob's (admitted: in allow/) and mallory's (not). Alice and bob are two
 * peers, which the per-peer limits tell apart (inproc clients are all
 * one peer).
 *
 * Include after server_rig.h, protocol/auth.h and sys/stat.h.
 */
#ifndef PARLOR_CURVE_RIG_H
#define PARLOR_CURVE_RIG_H

#include <stdlib.h>

struct curve_rig {
    struct rig rig; /* first: a curve_rig is a rig to the tests */
    char dir[64];   /* the private directory */
    char allow[96]; /* dir/allow */
    char ep[128];   /* ipc://dir/sock */
    struct auth_keypair server, alice, bob, mallory; /* the key pairs */
};

/* Writes the key pair name into c's directory and reads it into kp;
 * allowed: also admits it. */
static inline void curve_keypair(struct curve_rig *c, const char *name,
                                 struct auth_keypair *kp, bool allowed)
{
    char base[128], path[160], to[192], err[256];
    snprintf(base, sizeof base, "%s/%s", c->dir, name);
    assert_int_equal(auth_keygen(base, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s.key_secret", base);
    assert_int_equal(auth_load_secret(path, kp, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s.key", base);
    snprintf(to, sizeof to, "%s/%s.key", c->allow, name);
    if (allowed)
        assert_int_equal(link(path, to), 0);
}

/* Starts c's server with the limits of o (its endpoint and CURVE are the
 * rig's). */
static inline void curve_rig_start(struct curve_rig *c,
                                   const struct server_options *o)
{
    strcpy(c->dir, "/tmp/parlor-serve-XXXXXX");
    assert_non_null(mkdtemp(c->dir));
    snprintf(c->allow, sizeof c->allow, "%s/allow", c->dir);
    assert_int_equal(mkdir(c->allow, 0700), 0);
    curve_keypair(c, "server", &c->server, false);
    curve_keypair(c, "alice", &c->alice, true);
    curve_keypair(c, "bob", &c->bob, true);
    curve_keypair(c, "mallory", &c->mallory, false);
    snprintf(c->ep, sizeof c->ep, "ipc://%s/sock", c->dir);
    struct server_options so = *o;
    so.endpoint = c->ep;
    so.curve = &c->server;
    so.allow_dir = c->allow;
    rig_start(&c->rig, &so);
}

static inline void curve_rig_stop(struct curve_rig *c)
{
    char cmd[96];
    rig_stop(&c->rig);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->dir);
    assert_int_equal(system(cmd), 0);
}

/* A client of c's server with key pair kp, which rig_stop destroys. */
static inline client_t *curve_client(struct curve_rig *c,
                                     const struct auth_keypair *kp)
{
    struct client_options o = {.server_key = c->server.pub, .keys = kp};
    return connect_client_opts(&c->rig, &o);
}

/* A raw DEALER of c's server with key pair kp, taking in at most rcvhwm
 * replies before it leaves them with the server (0: libzmq's 1000),
 * which rig_stop closes. */
static inline void *curve_raw(struct curve_rig *c,
                              const struct auth_keypair *kp, int rcvhwm)
{
    char err[256];
    void *s = zmq_socket(c->rig.ctx, ZMQ_DEALER);
    int timeout = RIG_TIMEOUT_MS, zero = 0;
    zmq_setsockopt(s, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    if (rcvhwm)
        zmq_setsockopt(s, ZMQ_RCVHWM, &rcvhwm, sizeof rcvhwm);
    assert_int_equal(auth_client(s, c->server.pub, kp, err, sizeof err), 0);
    assert_int_equal(zmq_connect(s, c->ep), 0);
    assert_true(c->rig.nsocks < 8);
    c->rig.socks[c->rig.nsocks++] = s;
    return s;
}

#endif
