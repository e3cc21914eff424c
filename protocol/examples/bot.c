/* bot.c — a parlor bot in C (PROTOCOL.md §12): plays the last legal
 * action. Spawned by the arena (cmd:build/examples/bot, endpoint in
 * PARLOR_ENDPOINT, the secret its hello must carry in PARLOR_SECRET) or
 * run as: build/examples/bot tcp://HOST:5599 NAME for a tournament with
 * --arena and the agent bot:NAME. With CURVE, PARLOR_SERVER_KEY names the
 * arena's .key file and PARLOR_KEY this bot's .key_secret (parlor keygen). */
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "protocol/auth.h"

#define str(pk, s) msgpack_pack_str_with_body(pk, s, strlen(s))
#define is(k, s) ((k).type == MSGPACK_OBJECT_STR && \
    (k).via.str.size == strlen(s) && !memcmp((k).via.str.ptr, s, strlen(s)))

/* Sends {v:1, id, type, ...}: a hello when name is set, else an action. */
static void answer(void *sock, uint64_t id, const char *name, int64_t action)
{
    msgpack_sbuffer b;
    msgpack_packer pk;
    msgpack_sbuffer_init(&b);
    msgpack_packer_init(&pk, &b, msgpack_sbuffer_write);
    const char *secret = getenv("PARLOR_SECRET");
    msgpack_pack_map(&pk, name ? 6 : 4);
    str(&pk, "v"), msgpack_pack_uint8(&pk, 1);
    str(&pk, "id"), msgpack_pack_uint64(&pk, id);
    str(&pk, "type"), str(&pk, name ? "hello" : "action");
    if (name)
        str(&pk, "name"), str(&pk, name), str(&pk, "version"), str(&pk, "1.0"),
            str(&pk, "secret"), str(&pk, secret ? secret : "");
    else
        str(&pk, "action"), msgpack_pack_int64(&pk, action);
    zmq_send(sock, b.data, b.size, 0);
    msgpack_sbuffer_destroy(&b);
}

int main(int argc, char **argv)
{
    static char buf[1 << 20];
    const char *ep = argc > 1 ? argv[1] : getenv("PARLOR_ENDPOINT");
    const char *server = getenv("PARLOR_SERVER_KEY"), *mine = getenv("PARLOR_KEY");
    char err[256], pub[AUTH_KEY_LEN + 1];
    struct auth_keypair kp;
    void *sock = zmq_socket(zmq_ctx_new(), ZMQ_DEALER);
    if (server && (auth_load_public(server, pub, err, sizeof err) || !mine ||
                   auth_load_secret(mine, &kp, err, sizeof err) ||
                   auth_client(sock, pub, &kp, err, sizeof err)))
        return fprintf(stderr, "bot: %s\n", mine ? err : "set PARLOR_KEY"), 1;
    if (!ep || zmq_connect(sock, ep))
        return 1;
    answer(sock, 0, argc > 2 ? argv[2] : "last-legal", 0);
    for (int n; (n = zmq_recv(sock, buf, sizeof buf, 0)) >= 0;) {
        msgpack_unpacked u;
        int64_t id = 0, act = -1;
        msgpack_unpacked_init(&u);
        msgpack_unpack_next(&u, buf, (size_t)n < sizeof buf ? n : 0, NULL);
        for (uint32_t i = 0; u.data.type == MSGPACK_OBJECT_MAP &&
                             i < u.data.via.map.size; i++) {
            msgpack_object k = u.data.via.map.ptr[i].key;
            msgpack_object v = u.data.via.map.ptr[i].val;
            id = is(k, "id") ? (int64_t)v.via.u64 : id;
            if (is(k, "legal") && v.via.array.size) /* only acts have it */
                act = v.via.array.ptr[v.via.array.size - 1].via.i64;
            if (is(k, "type") && is(v, "bye")) /* the tournament is over */
                return 0;
        }
        if (act >= 0) /* welcome and result messages need no answer */
            answer(sock, (uint64_t)id, NULL, act);
        msgpack_unpacked_destroy(&u);
    }
    return 0;
}
