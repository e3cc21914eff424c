/* botmsg.c — building and reading the agent role's messages; see botmsg.h
 * and PROTOCOL.md §12. */
#include "botmsg.h"

#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../protocol/codec.h"

/* ---- building ---------------------------------------------------------- */

static void pack_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

/* Starts a map of n entries (header included) with v, id and type. */
static void pack_header(msgpack_sbuffer *out, msgpack_packer *pk, size_t n,
                        uint64_t id, const char *type)
{
    msgpack_sbuffer_clear(out);
    msgpack_packer_init(pk, out, msgpack_sbuffer_write);
    msgpack_pack_map(pk, n);
    pack_str(pk, "v");
    msgpack_pack_uint32(pk, 1);
    pack_str(pk, "id");
    msgpack_pack_uint64(pk, id);
    pack_str(pk, "type");
    pack_str(pk, type);
}

/* The fields every message about one seat of one game has. */
static void pack_seat(msgpack_packer *pk, const struct botmsg_req *q,
                      const struct game *g, const void *st, int seat)
{
    pack_str(pk, "table");
    msgpack_pack_uint64(pk, q->table);
    pack_str(pk, "game");
    pack_str(pk, g->spec);
    pack_str(pk, "seat");
    msgpack_pack_int(pk, seat);
    pack_str(pk, "view");
    game_view(g, st, seat, pk);
}

int botmsg_req_init(struct botmsg_req *q, const struct game *g,
                    int deadline_ms)
{
    memset(q, 0, sizeof *q);
    q->deadline_ms = deadline_ms;
    q->legal = mem_alloc(sizeof *q->legal * (size_t)(g->dims.max_legal + 1));
    q->obs = mem_alloc(sizeof *q->obs * (size_t)(g->dims.obs_size + 1));
    if (q->legal && q->obs)
        return 0;
    botmsg_req_fini(q);
    return ERR_NOMEM;
}

void botmsg_req_fini(struct botmsg_req *q)
{
    mem_free(q->legal);
    mem_free(q->obs);
    q->legal = NULL;
    q->obs = NULL;
}

static bool is_legal(const struct botmsg_req *q, int64_t action)
{
    for (int i = 0; i < q->nlegal; i++)
        if (q->legal[i] == action)
            return true;
    return false;
}

void botmsg_act(msgpack_sbuffer *out, struct botmsg_req *q,
                const struct game *g, const void *st, int seat)
{
    msgpack_packer pk;
    int n = q->nlegal = g->def->legal(g, st, seat, q->legal);
    pack_header(out, &pk, 10, q->id, "act");
    pack_seat(&pk, q, g, st, seat);
    pack_str(&pk, "obs");
    g->def->observe(g, st, seat, q->obs);
    msgpack_pack_array(&pk, (size_t)g->dims.obs_size);
    for (int i = 0; i < g->dims.obs_size; i++)
        msgpack_pack_float(&pk, q->obs[i]);
    pack_str(&pk, "legal");
    msgpack_pack_array(&pk, (size_t)n);
    for (int i = 0; i < n; i++)
        msgpack_pack_int(&pk, q->legal[i]);
    pack_str(&pk, "deadline_ms");
    msgpack_pack_int(&pk, q->deadline_ms);
}

void botmsg_result(msgpack_sbuffer *out, const struct botmsg_req *q,
                   const struct game *g, const void *st, int seat,
                   const struct agent_outcome *o)
{
    msgpack_packer pk;
    int p = g->dims.players;
    pack_header(out, &pk, 11, q->id, "result");
    pack_seat(&pk, q, g, st, seat);
    pack_str(&pk, "returns");
    msgpack_pack_array(&pk, (size_t)p);
    for (int s = 0; s < p; s++)
        msgpack_pack_double(&pk, o->ret[s]);
    pack_str(&pk, "ranks");
    msgpack_pack_array(&pk, (size_t)p);
    for (int s = 0; s < p; s++)
        msgpack_pack_int(&pk, o->rank[s]);
    pack_str(&pk, "forfeit");
    msgpack_pack_array(&pk, (size_t)__builtin_popcount(o->forfeit));
    for (uint32_t m = o->forfeit; m; m &= m - 1)
        msgpack_pack_int(&pk, __builtin_ctz(m));
    pack_str(&pk, "reason");
    pack_str(&pk, o->reason ? o->reason : "");
}

void botmsg_bye(msgpack_sbuffer *out)
{
    msgpack_packer pk;
    pack_header(out, &pk, 3, 0, "bye");
}

void botmsg_error(msgpack_sbuffer *out, const char *message)
{
    msgpack_packer pk;
    pack_header(out, &pk, 4, 0, "error");
    pack_str(&pk, "message");
    pack_str(&pk, message);
}

void botmsg_welcome(msgpack_sbuffer *out, const char *game)
{
    msgpack_packer pk;
    pack_header(out, &pk, 5, 0, "welcome");
    pack_str(&pk, "arena");
    pack_str(&pk, "parlor");
    pack_str(&pk, "game");
    pack_str(&pk, game);
}

/* ---- reading ----------------------------------------------------------- */

/* The value of key k in map o, or NULL. */
static const msgpack_object *lookup(const msgpack_object *o, const char *k)
{
    if (o->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object_kv *kv = &o->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR &&
            kv->key.via.str.size == strlen(k) &&
            !memcmp(kv->key.via.str.ptr, k, kv->key.via.str.size))
            return &kv->val;
    }
    return NULL;
}

static bool is_str(const msgpack_object *x, const char *s)
{
    return x && x->type == MSGPACK_OBJECT_STR &&
           x->via.str.size == strlen(s) &&
           !memcmp(x->via.str.ptr, s, x->via.str.size);
}

static bool get_int(const msgpack_object *o, const char *k, int64_t *v)
{
    const msgpack_object *x = lookup(o, k);
    if (x && x->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
        x->via.u64 <= INT64_MAX)
        return *v = (int64_t)x->via.u64, true;
    if (x && x->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return *v = x->via.i64, true;
    return false;
}

/* Unpacks buf, which must hold exactly one msgpack map. The bytes come
 * from a bot: proto_scan bounds them first, since msgpack-c reserves a
 * container's items from its header before it reads them. */
static bool unpack_map(msgpack_unpacked *u, const char *buf, size_t len)
{
    size_t off = 0;
    msgpack_unpacked_init(u);
    return !proto_scan(buf, len, NULL, 0) &&
           msgpack_unpack_next(u, buf, len, &off) == MSGPACK_UNPACK_SUCCESS &&
           off == len && u->data.type == MSGPACK_OBJECT_MAP;
}

int botmsg_read_answer(const struct botmsg_req *q, const char *buf,
                       size_t len, int *action)
{
    msgpack_unpacked u;
    int64_t got, a = -1;
    bool ok = unpack_map(&u, buf, len) &&
              is_str(lookup(&u.data, "type"), "action") &&
              get_int(&u.data, "id", &got) && (uint64_t)got == q->id &&
              get_int(&u.data, "action", &a);
    msgpack_unpacked_destroy(&u);
    *action = (int)a;
    return !ok ? ERR_PROTO : is_legal(q, a) ? 0 : ERR_ILLEGAL_ACTION;
}

int botmsg_read_hello(const char *buf, size_t len, char *name)
{
    msgpack_unpacked u;
    bool ok = unpack_map(&u, buf, len) &&
              is_str(lookup(&u.data, "type"), "hello");
    const msgpack_object *n = ok ? lookup(&u.data, "name") : NULL;
    ok = n && n->type == MSGPACK_OBJECT_STR && n->via.str.size > 0 &&
         n->via.str.size < BOTMSG_NAME_MAX &&
         !memchr(n->via.str.ptr, '\0', n->via.str.size);
    if (ok) {
        memcpy(name, n->via.str.ptr, n->via.str.size);
        name[n->via.str.size] = '\0';
    }
    msgpack_unpacked_destroy(&u);
    return ok ? 0 : ERR_PROTO;
}

bool botmsg_hello_has_secret(const char *buf, size_t len, const char *secret)
{
    msgpack_unpacked u;
    bool ok =
        unpack_map(&u, buf, len) && is_str(lookup(&u.data, "secret"), secret);
    msgpack_unpacked_destroy(&u);
    return ok;
}

int botmsg_read_id(const char *buf, size_t len, uint64_t *id)
{
    msgpack_unpacked u;
    int64_t got = 0;
    bool ok = unpack_map(&u, buf, len) && get_int(&u.data, "id", &got) &&
              got >= 0;
    msgpack_unpacked_destroy(&u);
    *id = (uint64_t)got;
    return ok ? 0 : ERR_PROTO;
}
