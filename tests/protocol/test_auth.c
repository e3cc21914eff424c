/* test_auth.c — CURVE key files and the ZAP handler: keygen writes files
 * pyzmq can read with the right modes; a secret file others may read is
 * refused; an allow directory lets in exactly its keys, each known by its
 * file's name; unknown keys and plain clients are refused at the
 * handshake (seen through the server's socket monitor, not by waiting);
 * bad directories are refused; loopback endpoints are told apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "common/err.h"
#include "protocol/auth.h"

#define HANG_MS 60000 /* bounds a wait for an event that must come */

/* ---- helpers ------------------------------------------------------------ */

struct fixture {
    char dir[64];   /* private temporary directory */
    char allow[96]; /* dir/allow: alice's public key only */
    char ep[128];   /* ipc endpoint in dir */
    struct auth_keypair server, alice, mallory;
};

static void path_in(const struct fixture *f, char *out, size_t n,
                    const char *name)
{
    snprintf(out, n, "%s/%s", f->dir, name);
}

static void keys_for(struct fixture *f, const char *name,
                     struct auth_keypair *kp)
{
    char base[128], path[160], err[256];
    path_in(f, base, sizeof base, name);
    assert_int_equal(auth_keygen(base, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s.key_secret", base);
    assert_int_equal(auth_load_secret(path, kp, err, sizeof err), 0);
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    strcpy(f->dir, "/tmp/parlor-auth-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    keys_for(f, "server", &f->server);
    keys_for(f, "alice", &f->alice);
    keys_for(f, "mallory", &f->mallory);
    snprintf(f->allow, sizeof f->allow, "%s/allow", f->dir);
    assert_int_equal(mkdir(f->allow, 0700), 0);
    char from[128], to[160];
    path_in(f, from, sizeof from, "alice.key");
    snprintf(to, sizeof to, "%s/alice.key", f->allow);
    assert_int_equal(link(from, to), 0);
    snprintf(f->ep, sizeof f->ep, "ipc://%s/sock", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

/* A CURVE server (ROUTER) with a monitor on its handshake events. */
static void *server_socket(void *ctx, struct fixture *f, void **monitor)
{
    char err[256];
    void *s = zmq_socket(ctx, ZMQ_ROUTER);
    assert_int_equal(auth_server(s, &f->server, err, sizeof err), 0);
    assert_int_equal(
        zmq_socket_monitor(s, "inproc://auth-mon",
                           ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
                               ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |
                               ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                               ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL),
        0);
    *monitor = zmq_socket(ctx, ZMQ_PAIR);
    assert_int_equal(zmq_connect(*monitor, "inproc://auth-mon"), 0);
    assert_int_equal(zmq_bind(s, f->ep), 0);
    return s;
}

/* Waits for the monitor's next event and returns its number. */
static int next_event(void *monitor)
{
    int t = HANG_MS;
    zmq_setsockopt(monitor, ZMQ_RCVTIMEO, &t, sizeof t);
    uint8_t buf[64];
    int n = zmq_recv(monitor, buf, sizeof buf, 0);
    assert_true(n >= 6);
    uint16_t ev;
    memcpy(&ev, buf, 2);
    zmq_recv(monitor, buf, sizeof buf, 0); /* the endpoint frame */
    return ev;
}

/* A DEALER connected to the server, with key pair kp (NULL: plain). */
static void *client_socket(void *ctx, struct fixture *f,
                           const struct auth_keypair *kp)
{
    char err[256];
    void *c = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(c, ZMQ_LINGER, &zero, sizeof zero);
    if (kp)
        assert_int_equal(auth_client(c, f->server.pub, kp, err, sizeof err), 0);
    assert_int_equal(zmq_connect(c, f->ep), 0);
    return c;
}

/* Receives one request at the server; copies its sender's name (or "")
 * into user. */
static void recv_request(void *s, char *user, size_t n)
{
    int t = HANG_MS;
    zmq_setsockopt(s, ZMQ_RCVTIMEO, &t, sizeof t);
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    assert_true(zmq_msg_recv(&id, s, 0) >= 0);
    assert_true(zmq_msg_recv(&body, s, 0) >= 0);
    const char *u = auth_user(&body);
    snprintf(user, n, "%s", u ? u : "");
    zmq_msg_close(&id);
    zmq_msg_close(&body);
}

static void close_all(void **socks, int n)
{
    int zero = 0;
    for (int i = 0; i < n; i++) {
        zmq_setsockopt(socks[i], ZMQ_LINGER, &zero, sizeof zero);
        zmq_close(socks[i]);
    }
}

/* ---- tests -------------------------------------------------------------- */

static void test_keygen_files(void **state)
{
    struct fixture *f = *state;
    char path[160], pub[AUTH_KEY_LEN + 1], err[256];
    struct stat st;
    path_in(f, path, sizeof path, "alice.key_secret");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    path_in(f, path, sizeof path, "alice.key");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(auth_load_public(path, pub, err, sizeof err), 0);
    assert_string_equal(pub, f->alice.pub);
    /* Never overwritten. */
    path_in(f, path, sizeof path, "alice");
    assert_int_equal(auth_keygen(path, err, sizeof err), ERR_IO);
    assert_non_null(strstr(err, "exists"));
    /* A public key file holds no secret. */
    struct auth_keypair kp;
    path_in(f, path, sizeof path, "alice.key");
    assert_int_equal(auth_load_secret(path, &kp, err, sizeof err), ERR_IO);
}

static void test_secret_file_must_be_private(void **state)
{
    struct fixture *f = *state;
    char path[160], err[256];
    struct auth_keypair kp;
    path_in(f, path, sizeof path, "mallory.key_secret");
    assert_int_equal(chmod(path, 0644), 0);
    assert_int_equal(auth_load_secret(path, &kp, err, sizeof err), ERR_IO);
    assert_non_null(strstr(err, "chmod 600"));
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(auth_load_secret(path, &kp, err, sizeof err), 0);
}

static void test_bad_key_text(void **state)
{
    struct fixture *f = *state;
    char path[160], pub[AUTH_KEY_LEN + 1], err[256];
    path_in(f, path, sizeof path, "junk.key");
    FILE *o = fopen(path, "w");
    fputs("curve\n    public-key = \"short\"\n", o);
    fclose(o);
    assert_int_equal(auth_load_public(path, pub, err, sizeof err), ERR_SYNTAX);
    assert_non_null(strstr(err, "public-key"));
}

static void test_allowed_key_is_named(void **state)
{
    struct fixture *f = *state;
    char err[256], user[128];
    void *ctx = zmq_ctx_new(), *mon;
    struct auth *a = auth_new(ctx, f->allow, err, sizeof err);
    assert_non_null(a);
    assert_int_equal(auth_keys(a), 1);
    void *s = server_socket(ctx, f, &mon);
    void *c = client_socket(ctx, f, &f->alice);
    assert_int_equal(zmq_send(c, "hi", 2, 0), 2);
    recv_request(s, user, sizeof user);
    assert_string_equal(user, "alice");
    assert_int_equal(next_event(mon), ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
    void *socks[] = {s, c, mon};
    close_all(socks, 3);
    auth_destroy(&a);
    assert_null(a);
    zmq_ctx_term(ctx);
}

static void test_unknown_and_plain_refused(void **state)
{
    struct fixture *f = *state;
    char err[256], user[128];
    void *ctx = zmq_ctx_new(), *mon;
    struct auth *a = auth_new(ctx, f->allow, err, sizeof err);
    assert_non_null(a);
    void *s = server_socket(ctx, f, &mon);
    void *evil = client_socket(ctx, f, &f->mallory);
    zmq_send(evil, "steal", 5, ZMQ_DONTWAIT);
    assert_int_equal(next_event(mon), ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    void *plain = client_socket(ctx, f, NULL);
    zmq_send(plain, "steal", 5, ZMQ_DONTWAIT);
    int ev = next_event(mon);
    assert_true(ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL ||
                ev == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL);
    /* The refused peers' messages never arrive; alice's does, and it is
     * the first message the server sees. */
    void *c = client_socket(ctx, f, &f->alice);
    zmq_send(c, "hi", 2, 0);
    recv_request(s, user, sizeof user);
    assert_string_equal(user, "alice");
    void *socks[] = {s, c, evil, plain, mon};
    close_all(socks, 5);
    auth_destroy(&a);
    zmq_ctx_term(ctx);
}

static void test_open_mode_names_the_key(void **state)
{
    struct fixture *f = *state;
    char err[256], user[128];
    void *ctx = zmq_ctx_new(), *mon;
    struct auth *a = auth_new(ctx, NULL, err, sizeof err);
    assert_non_null(a);
    assert_int_equal(auth_keys(a), 0);
    void *s = server_socket(ctx, f, &mon);
    void *c = client_socket(ctx, f, &f->mallory);
    zmq_send(c, "hi", 2, 0);
    recv_request(s, user, sizeof user);
    assert_string_equal(user, f->mallory.pub);
    void *socks[] = {s, c, mon};
    close_all(socks, 3);
    auth_destroy(&a);
    zmq_ctx_term(ctx);
}

static void test_bad_allow_dirs(void **state)
{
    struct fixture *f = *state;
    char err[256], dir[128], path[200];
    void *ctx = zmq_ctx_new();
    path_in(f, dir, sizeof dir, "missing");
    assert_null(auth_new(ctx, dir, err, sizeof err));
    assert_non_null(strstr(err, "cannot open key directory"));
    /* The same key under two names is ambiguous. */
    path_in(f, dir, sizeof dir, "dup");
    mkdir(dir, 0700);
    char from[160];
    path_in(f, from, sizeof from, "alice.key");
    snprintf(path, sizeof path, "%s/a.key", dir);
    assert_int_equal(link(from, path), 0);
    snprintf(path, sizeof path, "%s/b.key", dir);
    assert_int_equal(link(from, path), 0);
    assert_null(auth_new(ctx, dir, err, sizeof err));
    assert_non_null(strstr(err, "same key"));
    /* A name that is not letters, digits, '_', '-', '.'. */
    path_in(f, dir, sizeof dir, "badname");
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/a b.key", dir);
    assert_int_equal(link(from, path), 0);
    assert_null(auth_new(ctx, dir, err, sizeof err));
    assert_non_null(strstr(err, "NAME.key"));
    /* Two handlers cannot share a context; the first still works. */
    struct auth *a = auth_new(ctx, NULL, err, sizeof err);
    assert_non_null(a);
    assert_null(auth_new(ctx, NULL, err, sizeof err));
    assert_non_null(strstr(err, "already running"));
    auth_destroy(&a);
    auth_destroy(&a); /* NULL-safe */
    zmq_ctx_term(ctx);
}

static void test_public_endpoints(void **state)
{
    (void)state;
    assert_false(auth_endpoint_is_public("tcp://127.0.0.1:5555"));
    assert_false(auth_endpoint_is_public("tcp://127.3.2.1:*"));
    assert_false(auth_endpoint_is_public("tcp://localhost:5555"));
    assert_false(auth_endpoint_is_public("tcp://[::1]:5555"));
    assert_false(auth_endpoint_is_public("tcp://lo:5555"));
    assert_false(auth_endpoint_is_public("ipc:///tmp/x"));
    assert_false(auth_endpoint_is_public("inproc://x"));
    assert_true(auth_endpoint_is_public("tcp://0.0.0.0:5555"));
    assert_true(auth_endpoint_is_public("tcp://*:5555"));
    assert_true(auth_endpoint_is_public("tcp://10.0.0.2:5555"));
    assert_true(auth_endpoint_is_public("tcp://127.0.0.1.example.org:5555"));
    assert_true(auth_endpoint_is_public("tcp://[::]:5555"));
    assert_true(auth_endpoint_is_public("tcp://eth0:5555"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_keygen_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_secret_file_must_be_private, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bad_key_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_allowed_key_is_named, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unknown_and_plain_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_open_mode_names_the_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bad_allow_dirs, setup, teardown),
        cmocka_unit_test(test_public_endpoints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
