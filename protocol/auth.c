/* auth.c — CURVE key files and the ZAP handler (auth.h).
 *
 * The handler speaks ZAP 1.0 (ZeroMQ RFC 27) on inproc://zeromq.zap.01 of
 * its context: libzmq asks it about every CURVE handshake, with the
 * client's 32-byte public key, and the answer's User-Id becomes the
 * metadata of that connection's messages. Allowed keys are kept sorted so
 * a handshake costs one binary search.
 */
#include "auth.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/mem.h"

#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define ZAP_FRAMES 8 /* frames of a ZAP request we read at most */

/* ---- types ------------------------------------------------------------- */

struct allowed {
    uint8_t key[32];              /* binary public key */
    char name[AUTH_NAME_MAX + 1]; /* the key file's name less ".key" */
};

struct auth {
    void *ctx;            /* the context served (borrowed) */
    void *zap;            /* REP socket on ZAP_ENDPOINT (handler thread) */
    void *ctl;            /* PAIR: auth_destroy's stop signal (caller) */
    void *ctl_peer;       /* PAIR: the handler's end of it */
    pthread_t tid;        /* the handler thread */
    struct allowed *keys; /* sorted by key */
    int nkeys;            /* entries in keys */
    bool open;            /* no allow directory: any key passes */
    char ctl_ep[64];      /* inproc endpoint of the stop pair */
};

/* ---- key files --------------------------------------------------------- */

static bool z85_key(const char *s)
{
    uint8_t bin[32];
    return strlen(s) == AUTH_KEY_LEN && zmq_z85_decode(bin, s) != NULL;
}

/* Finds "NAME = "VALUE"" in text (one key per line, as zcert writes it)
 * and copies VALUE (a Z85 key) to out. Returns true when found and valid. */
static bool find_key(const char *text, const char *name, char *out)
{
    size_t nlen = strlen(name);
    for (const char *line = text; line && *line;) {
        line += strspn(line, " \t");
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        if (len > nlen && !strncmp(line, name, nlen)) {
            const char *p = line + nlen;
            p += strspn(p, " \t");
            if (*p == '=') {
                p++;
                p += strspn(p, " \t\"'");
                if ((size_t)(p - line) + AUTH_KEY_LEN <= len) {
                    memcpy(out, p, AUTH_KEY_LEN);
                    out[AUTH_KEY_LEN] = '\0';
                    return z85_key(out);
                }
            }
        }
        line = eol ? eol + 1 : NULL;
    }
    return false;
}

/* Reads a whole key file (at most AUTH_FILE_MAX bytes) into buf. When
 * private, refuses a file its group or others can read. */
static int read_key_file(const char *path, char *buf, bool private, char *err,
                         size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, errlen, ERR_IO, "cannot open key file %s: %s", path,
                       strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode))
        rc = err_set(err, errlen, ERR_IO, "%s is not a regular file", path);
    else if (st.st_size > AUTH_FILE_MAX)
        rc = err_set(err, errlen, ERR_IO, "%s is larger than %d bytes", path,
                     AUTH_FILE_MAX);
    else if (private && (st.st_mode & 077))
        rc = err_set(err, errlen, ERR_IO,
                     "%s holds a secret key but others may read it "
                     "(mode %03o); chmod 600 it",
                     path, (unsigned)(st.st_mode & 0777));
    ssize_t n = rc ? -1 : read(fd, buf, AUTH_FILE_MAX);
    if (!rc && n < 0)
        rc = err_set(err, errlen, ERR_IO, "cannot read %s: %s", path,
                     strerror(errno));
    close(fd);
    if (!rc)
        buf[n] = '\0';
    return rc;
}

int auth_load_public(const char *path, char *pub, char *err, size_t errlen)
{
    char buf[AUTH_FILE_MAX + 1];
    int rc = read_key_file(path, buf, false, err, errlen);
    if (!rc && !find_key(buf, "public-key", pub))
        rc = err_set(err, errlen, ERR_SYNTAX,
                     "%s has no public-key = \"...\" line with a %d-character "
                     "Z85 key (make one with parlor keygen)",
                     path, AUTH_KEY_LEN);
    return rc;
}

int auth_load_secret(const char *path, struct auth_keypair *kp, char *err,
                     size_t errlen)
{
    char buf[AUTH_FILE_MAX + 1];
    int rc = read_key_file(path, buf, true, err, errlen);
    if (!rc && (!find_key(buf, "public-key", kp->pub) ||
                !find_key(buf, "secret-key", kp->sec)))
        rc = err_set(err, errlen, ERR_SYNTAX,
                     "%s needs public-key and secret-key lines with "
                     "%d-character Z85 keys (make one with parlor keygen)",
                     path, AUTH_KEY_LEN);
    return rc;
}

/* Writes one certificate file, failing if it exists. */
static int write_cert(const char *path, mode_t mode,
                      const struct auth_keypair *kp, bool secret, char *err,
                      size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        return err_set(err, errlen, ERR_IO, "cannot create %s: %s", path,
                       strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return err_set(err, errlen, ERR_IO, "cannot write %s", path);
    }
    fprintf(f,
            "#   ZeroMQ CURVE %s certificate, written by parlor keygen\n"
            "%s\n"
            "metadata\n"
            "curve\n"
            "    public-key = \"%s\"\n",
            secret ? "**Secret**" : "Public",
            secret ? "#   Keep this file private: do not share it or "
                     "loosen its mode."
                   : "#   Give this file to the peers that should accept "
                     "this key.",
            kp->pub);
    if (secret)
        fprintf(f, "    secret-key = \"%s\"\n", kp->sec);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return err_set(err, errlen, ERR_IO, "cannot write %s", path);
    return 0;
}

int auth_keygen(const char *base, char *err, size_t errlen)
{
    size_t n = strlen(base);
    if (n == 0 || n > 4000)
        return err_set(err, errlen, ERR_INVAL,
                       "keygen: give a file name base (1 to 4000 bytes)");
    struct auth_keypair kp;
    if (zmq_curve_keypair(kp.pub, kp.sec))
        return err_set(err, errlen, ERR_IO,
                       "keygen: this libzmq has no CURVE support (%s)",
                       zmq_strerror(zmq_errno()));
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s.key_secret", base);
    int rc = write_cert(path, 0600, &kp, true, err, errlen);
    if (!rc) {
        snprintf(path, sizeof path, "%s.key", base);
        if ((rc = write_cert(path, 0644, &kp, false, err, errlen))) {
            snprintf(path, sizeof path, "%s.key_secret", base);
            unlink(path);
        }
    }
    return rc;
}

/* ---- the allow directory ----------------------------------------------- */

static int cmp_allowed(const void *a, const void *b)
{
    return memcmp(((const struct allowed *)a)->key,
                  ((const struct allowed *)b)->key, 32);
}

/* The name of a NAME.key file (letters, digits, '_', '-', '.'), or false
 * for files that are no public key files. */
static bool key_name(const char *file, char *name)
{
    size_t n = strlen(file);
    if (n <= 4 || strcmp(file + n - 4, ".key") || file[0] == '.')
        return false;
    n -= 4;
    if (n > AUTH_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789_-.",
                    file[i]))
            return false;
    memcpy(name, file, n);
    name[n] = '\0';
    return true;
}

static int load_one(struct auth *a, const char *dir, const char *file,
                    char *err, size_t errlen)
{
    struct allowed *k = &a->keys[a->nkeys];
    if (!key_name(file, k->name))
        return err_set(err, errlen, ERR_INVAL,
                       "%s/%s: a key file's name must be NAME.key with NAME "
                       "of 1 to %d letters, digits, '_', '-' or '.'",
                       dir, file, AUTH_NAME_MAX);
    if (a->nkeys == AUTH_ALLOW_MAX)
        return err_set(err, errlen, ERR_RANGE, "%s holds more than %d keys",
                       dir, AUTH_ALLOW_MAX);
    char path[8192], pub[AUTH_KEY_LEN + 1];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int rc = auth_load_public(path, pub, err, errlen);
    if (rc)
        return rc;
    zmq_z85_decode(k->key, pub);
    a->nkeys++;
    return 0;
}

static int load_dir(struct auth *a, const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d)
        return err_set(err, errlen, ERR_IO, "cannot open key directory %s: %s",
                       dir, strerror(errno));
    a->keys = mem_alloc(sizeof *a->keys * AUTH_ALLOW_MAX);
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".key"))
            rc = load_one(a, dir, e->d_name, err, errlen);
    }
    closedir(d);
    if (rc)
        return rc;
    qsort(a->keys, (size_t)a->nkeys, sizeof *a->keys, cmp_allowed);
    for (int i = 1; i < a->nkeys; i++)
        if (!cmp_allowed(&a->keys[i - 1], &a->keys[i]))
            return err_set(err, errlen, ERR_INVAL,
                           "%s: %s.key and %s.key hold the same key; a key "
                           "must have one name",
                           dir, a->keys[i - 1].name, a->keys[i].name);
    return 0;
}

/* ---- the handler ------------------------------------------------------- */

static void send_str(void *sock, const char *s, size_t n, int more)
{
    zmq_send(sock, s, n, more ? ZMQ_SNDMORE : 0);
}

/* Answers one ZAP request made of the frames f[0..n). */
static void answer(struct auth *a, zmq_msg_t *f, int n)
{
    const char *status = "400", *text = "unknown key";
    char user[AUTH_NAME_MAX + 1] = ""; /* a name, or a Z85 key (40) */
    if (n < 6 || zmq_msg_size(&f[0]) != 3 ||
        memcmp(zmq_msg_data(&f[0]), "1.0", 3)) {
        status = "500", text = "bad ZAP request";
    } else if (zmq_msg_size(&f[5]) != 5 ||
               memcmp(zmq_msg_data(&f[5]), "CURVE", 5) || n != 7 ||
               zmq_msg_size(&f[6]) != 32) {
        text = "only CURVE clients are served";
    } else if (a->open) {
        zmq_z85_encode(user, zmq_msg_data(&f[6]), 32);
        status = "200", text = "OK";
    } else {
        struct allowed probe;
        memcpy(probe.key, zmq_msg_data(&f[6]), 32);
        const struct allowed *k = bsearch(&probe, a->keys, (size_t)a->nkeys,
                                          sizeof *a->keys, cmp_allowed);
        if (k) {
            snprintf(user, sizeof user, "%s", k->name);
            status = "200", text = "OK";
        }
    }
    send_str(a->zap, "1.0", 3, 1);
    if (n >= 2)
        zmq_send(a->zap, zmq_msg_data(&f[1]), zmq_msg_size(&f[1]), ZMQ_SNDMORE);
    else
        send_str(a->zap, "", 0, 1);
    send_str(a->zap, status, 3, 1);
    send_str(a->zap, text, strlen(text), 1);
    send_str(a->zap, user, strlen(user), 1);
    send_str(a->zap, "", 0, 0);
}

/* Reads one request (dropping frames past ZAP_FRAMES) and answers it. */
static void serve_one(struct auth *a)
{
    zmq_msg_t f[ZAP_FRAMES];
    int n = 0, more = 1;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, a->zap, 0) < 0) {
            zmq_msg_close(&m);
            break;
        }
        more = zmq_msg_more(&m);
        if (n < ZAP_FRAMES)
            f[n++] = m;
        else
            zmq_msg_close(&m);
    }
    answer(a, f, n);
    for (int i = 0; i < n; i++)
        zmq_msg_close(&f[i]);
}

static void *handler_main(void *arg)
{
    struct auth *a = arg;
    zmq_pollitem_t items[2] = {{a->zap, 0, ZMQ_POLLIN, 0},
                               {a->ctl_peer, 0, ZMQ_POLLIN, 0}};
    for (;;) {
        if (zmq_poll(items, 2, -1) < 0) {
            if (zmq_errno() == EINTR)
                continue;
            break;
        }
        if (items[1].revents & ZMQ_POLLIN)
            break;
        if (items[0].revents & ZMQ_POLLIN)
            serve_one(a);
    }
    return NULL;
}

/* ---- API --------------------------------------------------------------- */

static void close_sockets(struct auth *a)
{
    int zero = 0;
    void *socks[3] = {a->zap, a->ctl, a->ctl_peer};
    for (int i = 0; i < 3; i++)
        if (socks[i]) {
            zmq_setsockopt(socks[i], ZMQ_LINGER, &zero, sizeof zero);
            zmq_close(socks[i]);
        }
}

struct auth *auth_new(void *ctx, const char *allow_dir, char *err,
                      size_t errlen)
{
    struct auth *a = mem_alloc(sizeof *a);
    memset(a, 0, sizeof *a);
    a->ctx = ctx;
    a->open = allow_dir == NULL;
    if (allow_dir && load_dir(a, allow_dir, err, errlen))
        goto out_free;
    snprintf(a->ctl_ep, sizeof a->ctl_ep, "inproc://parlor-auth-%p", (void *)a);
    a->zap = zmq_socket(ctx, ZMQ_REP);
    a->ctl = zmq_socket(ctx, ZMQ_PAIR);
    a->ctl_peer = zmq_socket(ctx, ZMQ_PAIR);
    if (!a->zap || !a->ctl || !a->ctl_peer ||
        zmq_bind(a->ctl_peer, a->ctl_ep) || zmq_connect(a->ctl, a->ctl_ep)) {
        err_set(err, errlen, ERR_IO, "cannot set up the ZAP handler: %s",
                zmq_strerror(zmq_errno()));
        goto out_close;
    }
    if (zmq_bind(a->zap, ZAP_ENDPOINT)) {
        err_set(err, errlen, ERR_IO,
                "cannot start the ZAP handler (%s): one is already running "
                "in this ZeroMQ context",
                zmq_strerror(zmq_errno()));
        goto out_close;
    }
    if (pthread_create(&a->tid, NULL, handler_main, a)) {
        err_set(err, errlen, ERR_IO, "cannot start the ZAP handler thread");
        goto out_close;
    }
    return a;
out_close:
    close_sockets(a);
out_free:
    mem_free(a->keys);
    mem_free(a);
    return NULL;
}

void auth_destroy(struct auth **ap)
{
    struct auth *a = ap ? *ap : NULL;
    if (!a)
        return;
    zmq_send(a->ctl, "", 0, 0);
    pthread_join(a->tid, NULL);
    close_sockets(a);
    mem_free(a->keys);
    mem_free(a);
    *ap = NULL;
}

int auth_keys(const struct auth *a)
{
    return a ? a->nkeys : 0;
}

int auth_server(void *sock, const struct auth_keypair *kp, char *err,
                size_t errlen)
{
    int one = 1;
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVER, &one, sizeof one) ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, kp->sec, AUTH_KEY_LEN) ||
        zmq_setsockopt(sock, ZMQ_ZAP_DOMAIN, AUTH_DOMAIN, strlen(AUTH_DOMAIN)))
        return err_set(err, errlen, ERR_INVAL, "cannot make a CURVE server: %s",
                       zmq_strerror(zmq_errno()));
    return 0;
}

int auth_client(void *sock, const char *server_pub,
                const struct auth_keypair *kp, char *err, size_t errlen)
{
    if (!z85_key(server_pub))
        return err_set(err, errlen, ERR_INVAL,
                       "the server key must be %d characters of Z85 text",
                       AUTH_KEY_LEN);
    if (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, server_pub, AUTH_KEY_LEN) ||
        zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, kp->pub, AUTH_KEY_LEN) ||
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, kp->sec, AUTH_KEY_LEN))
        return err_set(err, errlen, ERR_INVAL, "cannot make a CURVE client: %s",
                       zmq_strerror(zmq_errno()));
    return 0;
}

const char *auth_user(zmq_msg_t *msg)
{
    const char *u = zmq_msg_gets(msg, "User-Id");
    return u && *u ? u : NULL;
}

void auth_peer(zmq_msg_t *msg, bool curve, char *peer, size_t len)
{
    const char *who =
        curve ? auth_user(msg) : zmq_msg_gets(msg, "Peer-Address");
    snprintf(peer, len, "%s", who ? who : "");
}

bool auth_endpoint_is_public(const char *endpoint)
{
    if (strncmp(endpoint, "tcp://", 6))
        return false;
    const char *host = endpoint + 6;
    const char *semi = strchr(host, ';'); /* source;destination form */
    if (semi)
        host = semi + 1;
    const char *colon = strrchr(host, ':');
    size_t n = colon ? (size_t)(colon - host) : strlen(host);
    char h[256];
    if (n >= sizeof h)
        return true;
    memcpy(h, host, n);
    h[n] = '\0';
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        memmove(h, h + 1, n - 2);
        h[n - 2] = '\0';
    }
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, h, &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) != 127;
    if (inet_pton(AF_INET6, h, &v6) == 1)
        return !IN6_IS_ADDR_LOOPBACK(&v6);
    return strcmp(h, "localhost") && strcmp(h, "lo");
}
