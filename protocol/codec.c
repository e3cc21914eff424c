/* codec.c — decoding and encoding of the messages of messages.def.
 *
 * A message is decoded in three passes, each one refusing what the next
 * could not survive: scan() walks the raw bytes and bounds every
 * container by the bytes left (msgpack-c sizes a container's items from
 * its header before it reads them, so an unchecked header could ask for
 * gigabytes); msgpack_unpack() builds the objects in the decoder's zone;
 * decode_map() checks the header and every catalogued field. Values are
 * left in place (pointers to objects), never copied.
 */
#include "codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the wire's little-endian blobs are copied as they lie in "
               "memory: port the blob code before building big-endian");

#define ZONE_CHUNK (64 * 1024) /* zone kept between decodes */

/* ---- the catalogue ------------------------------------------------------ */

#define DIRS_Q PROTO_REQUEST
#define DIRS_R PROTO_REPLY
#define DIRS_QR (PROTO_REQUEST | PROTO_REPLY)

const struct proto_msg_def proto_msgs[] = {
#define PROTO_MSG(id, E, name, dirs, doc)                                      \
    {PROTO_MSG_##E, #name, DIRS_##dirs, doc},
#define PROTO_REQ(m, e, key, type, presence, doc)
#define PROTO_REP(m, e, key, type, presence, doc)
#define PROTO_ERR(code, e, err, doc)
#include "messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
};
const int proto_nmsgs = (int)(sizeof proto_msgs / sizeof proto_msgs[0]);

const struct proto_field_def proto_fields[PROTO_NFIELDS] = {
#define PROTO_MSG(id, E, name, dirs, doc)
#define PROTO_REQ(m, e, key, type, presence, doc)                              \
    {PROTO_MSG_##m, PROTO_REQUEST, #key, PROTO_##type, PROTO_##presence, doc},
#define PROTO_REP(m, e, key, type, presence, doc)                              \
    {PROTO_MSG_##m, PROTO_REPLY, #key, PROTO_##type, PROTO_##presence, doc},
#define PROTO_ERR(code, e, err, doc)
#include "messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
};

const struct proto_error_def proto_errors[] = {
#define PROTO_MSG(id, E, name, dirs, doc)
#define PROTO_REQ(m, e, key, type, presence, doc)
#define PROTO_REP(m, e, key, type, presence, doc)
#define PROTO_ERR(code, e, err, doc) {code, #e, err, doc},
#include "messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
};
const int proto_nerrors = (int)(sizeof proto_errors / sizeof proto_errors[0]);

/* What each type must be, as error sentences say it. */
static const char *const type_wanted[] = {
    [PROTO_UINT] = "a non-negative integer",
    [PROTO_INT] = "an integer",
    [PROTO_BOOL] = "a boolean",
    [PROTO_F64] = "a number",
    [PROTO_STR] = "a str",
    [PROTO_BIN] = "a bin",
    [PROTO_INTS] = "an array of integers or a bin of int32",
    [PROTO_ARRAY] = "an array",
    [PROTO_MAP] = "a map",
};

/* ---- static helpers ----------------------------------------------------- */

static int fail(struct proto_decoder *d, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct proto_decoder *d, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    d->code = code;
    return ERR_PROTO;
}

/* What o is, with its article, for error sentences. */
static const char *object_kind(const msgpack_object *o)
{
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        return "nil";
    case MSGPACK_OBJECT_BOOLEAN:
        return "a boolean";
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return "a non-negative integer";
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return "a negative integer";
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        return "a float";
    case MSGPACK_OBJECT_STR:
        return "a str";
    case MSGPACK_OBJECT_ARRAY:
        return "an array";
    case MSGPACK_OBJECT_MAP:
        return "a map";
    case MSGPACK_OBJECT_BIN:
        return "a bin";
    default:
        return "an ext";
    }
}

/* msgpack-c leaves an empty str's or bin's pointer unset: null when no
 * sized item came before it in the message (as in {"": 1, "": 1}), else a
 * stale pointer. Every empty value reads as "" through this. */
static const char *nonnull(const char *p)
{
    return p ? p : "";
}

static bool str_is(const msgpack_object *o, const char *s)
{
    size_t n = strlen(s);
    return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
           !memcmp(o->via.str.ptr, s, n);
}

/* ---- scan: bounds before unpacking -------------------------------------- */

/* One item's header: how long it is and what follows it. */
struct head {
    size_t len;         /* bytes of the header itself (type byte included) */
    uint64_t body;      /* bytes of payload after it (str, bin, ext, numbers) */
    uint64_t kids;      /* items inside it (2 per pair for a map) */
    bool is_box;        /* an array or a map, even an empty one */
    bool is_map;        /* a map */
    bool is_uint;       /* a non-negative integer, value in u */
    uint64_t u;         /* that value */
    const uint8_t *str; /* a str's bytes (body of them), else NULL */
};

static uint64_t big_endian(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

/* Fills h for a header whose fixed part is n bytes of length/count after
 * the type byte; returns false when fewer than that many bytes remain. */
static bool sized(struct head *h, const uint8_t *p, size_t avail, int n)
{
    if (avail < (size_t)n + 1)
        return false;
    h->len = (size_t)n + 1;
    h->body = big_endian(p + 1, n);
    return true;
}

/* Integers: the value follows in n bytes; signed ones count as uints when
 * non-negative, as msgpack-c reads them. */
static bool number(struct head *h, const uint8_t *p, size_t avail, int n,
                   bool is_signed)
{
    if (avail < (size_t)n + 1)
        return false;
    h->len = (size_t)n + 1;
    uint64_t v = big_endian(p + 1, n);
    bool neg = is_signed && (v >> (8 * n - 1)) & 1;
    h->is_uint = !neg;
    h->u = v;
    return true;
}

/* Headers whose type byte is 0xc1..0xdf: sized strs, bins, exts,
 * numbers, arrays and maps. */
static bool read_long_head(const uint8_t *p, size_t avail, struct head *h)
{
    uint8_t b = p[0];
    if (b >= 0xc4 && b <= 0xc6) /* bin 8/16/32 */
        return sized(h, p, avail, 1 << (b - 0xc4));
    if (b >= 0xc7 && b <= 0xc9) { /* ext 8/16/32: length, type, data */
        if (!sized(h, p, avail, 1 << (b - 0xc7)))
            return false;
        h->body += 1;
        return true;
    }
    if (b == 0xca || b == 0xcb) { /* float 32/64 */
        h->body = b == 0xca ? 4 : 8;
        return true;
    }
    if (b >= 0xcc && b <= 0xcf)
        return number(h, p, avail, 1 << (b - 0xcc), false);
    if (b >= 0xd0 && b <= 0xd3)
        return number(h, p, avail, 1 << (b - 0xd0), true);
    if (b >= 0xd4 && b <= 0xd8) { /* fixext 1..16: type, data */
        h->body = 1 + (1u << (b - 0xd4));
        return true;
    }
    if (b >= 0xd9 && b <= 0xdb) { /* str 8/16/32 */
        if (!sized(h, p, avail, 1 << (b - 0xd9)))
            return false;
        h->str = p + h->len;
        return true;
    }
    if (b >= 0xdc) { /* array 16/32, map 16/32 */
        h->is_map = b >= 0xde;
        h->is_box = true;
        if (!sized(h, p, avail, 2 << ((b - 0xdc) & 1)))
            return false;
        h->kids = h->is_map ? 2 * h->body : h->body;
        h->body = 0;
        return true;
    }
    return false; /* 0xc1, never used */
}

/* Reads the header at p (avail bytes); false if cut short or invalid. */
static bool read_head(const uint8_t *p, size_t avail, struct head *h)
{
    memset(h, 0, sizeof *h);
    if (!avail)
        return false;
    uint8_t b = p[0];
    h->len = 1;
    if (b <= 0x7f) {
        h->is_uint = true;
        h->u = b;
    } else if (b <= 0x8f) {
        h->kids = 2u * (b & 0x0fu);
        h->is_map = h->is_box = true;
    } else if (b <= 0x9f) {
        h->kids = b & 0x0fu;
        h->is_box = true;
    } else if (b <= 0xbf) {
        h->body = b & 0x1fu;
        h->str = p + 1;
    } else if (b < 0xe0 && b != 0xc0 && b != 0xc2 && b != 0xc3) {
        return read_long_head(p, avail, h);
    }
    return true; /* the rest: negative fixint, nil, false, true */
}

/* Called for each item directly inside a top-level map, left being the
 * items of that map not yet read (this one included): keys come when it
 * is even. Remembers the value of an "id" key when it is a uint, so that
 * even a message refused later can be answered with its id. */
static void note_id(const struct head *h, uint64_t left, bool *id_next,
                    struct proto_in *in)
{
    if (left % 2 == 0) {
        *id_next = h->str && h->body == 2 && !memcmp(h->str, "id", 2);
        return;
    }
    if (*id_next && h->is_uint) {
        in->has_id = true;
        in->id = h->u;
    }
    *id_next = false;
}

static int scan_fail(struct proto_decoder *d, const uint8_t *p, size_t pos,
                     size_t len)
{
    if (!len)
        return fail(d, PROTO_E_MALFORMED, "the message is empty");
    if (pos < len && p[pos] == 0xc1)
        return fail(d, PROTO_E_MALFORMED,
                    "byte %zu is 0xc1, which msgpack never uses", pos);
    return fail(d, PROTO_E_MALFORMED,
                "the message ends inside the msgpack item at byte %zu", pos);
}

/* Walks the msgpack object at the start of p[0..len) without building it
 * and sets *used to its length. Refuses items cut short, containers that
 * claim more items than bytes remain (each item takes at least one byte)
 * and nesting deeper than PROTO_MAX_DEPTH. */
static int scan(struct proto_decoder *d, const uint8_t *p, size_t len,
                struct proto_in *in, size_t *used)
{
    uint64_t left[PROTO_MAX_DEPTH + 1]; /* items still to read per level */
    int depth = 0;
    size_t pos = 0;
    bool root_map = false, id_next = false;
    left[0] = 1;
    while (depth >= 0) {
        if (!left[depth]) {
            depth--;
            continue;
        }
        struct head h;
        if (!read_head(p + pos, len - pos, &h) || h.body > len - pos - h.len)
            return scan_fail(d, p, pos, len);
        if (root_map && depth == 1)
            note_id(&h, left[1], &id_next, in);
        left[depth]--;
        pos += h.len + (size_t)h.body;
        /* Counted as msgpack-c counts: an empty container is refused too
         * when PROTO_MAX_DEPTH containers are open around it. */
        if (h.is_box && depth == PROTO_MAX_DEPTH)
            return fail(d, PROTO_E_MALFORMED, "containers nest deeper than %d",
                        PROTO_MAX_DEPTH);
        if (!h.kids)
            continue;
        if (h.kids > len - pos)
            return fail(d, PROTO_E_MALFORMED,
                        "a container claims %llu items but only %zu bytes "
                        "follow it",
                        (unsigned long long)h.kids, len - pos);
        root_map = root_map || (depth == 0 && h.is_map);
        left[++depth] = h.kids;
    }
    *used = pos;
    return 0;
}

/* Refuses bytes after the object that scan() found used bytes long. */
static int check_rest(struct proto_decoder *d, size_t used, size_t len)
{
    return used < len ? fail(d, PROTO_E_MALFORMED,
                             "%zu bytes follow the message's msgpack object",
                             len - used)
                      : 0;
}

/* ---- decode: header and fields ------------------------------------------ */

static enum proto_msg find_msg(enum proto_dir dir, const msgpack_object *o)
{
    for (int i = 0; i < proto_nmsgs; i++)
        if ((proto_msgs[i].dirs & dir) && str_is(o, proto_msgs[i].name))
            return proto_msgs[i].msg;
    return PROTO_MSG_NONE;
}

static int find_field(enum proto_msg msg, enum proto_dir dir,
                      const msgpack_object *key)
{
    for (int f = 0; f < PROTO_NFIELDS; f++)
        if (proto_fields[f].msg == msg && proto_fields[f].dir == dir &&
            str_is(key, proto_fields[f].key))
            return f;
    return -1;
}

static int unknown_type(struct proto_decoder *d, enum proto_dir dir,
                        const msgpack_object *o)
{
    char list[256];
    size_t n = 0;
    list[0] = '\0';
    for (int i = 0; i < proto_nmsgs && n < sizeof list; i++)
        if (proto_msgs[i].dirs & dir)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s",
                                  n ? ", " : "", proto_msgs[i].name);
    const char *type = nonnull(o->via.str.ptr);
    int shown = (int)proto_utf8_prefix(type, o->via.str.size, 40);
    return fail(d, PROTO_E_UNKNOWN_TYPE, "\"%.*s%s\" is not a %s type (%s)",
                shown, type,
                shown < (int)o->via.str.size ? "..." : "",
                dir == PROTO_REQUEST ? "request" : "reply", list);
}

static int check_version(struct proto_decoder *d, enum proto_dir dir,
                         const struct proto_in *in)
{
    /* A hello request may offer a newer version: the reply says which one
     * the server speaks (PROTOCOL.md §4). */
    bool offer = dir == PROTO_REQUEST && in->type == PROTO_MSG_HELLO;
    if (in->version >= PROTO_VERSION_MIN &&
        (offer || in->version <= PROTO_VERSION))
        return 0;
    return fail(d, PROTO_E_VERSION,
                "protocol version %llu is not spoken here (versions %d to "
                "%d; hello negotiates)",
                (unsigned long long)in->version, PROTO_VERSION_MIN,
                PROTO_VERSION);
}

static int cmp_keys(const void *a, const void *b)
{
    const msgpack_object_str *x = *(const msgpack_object_str *const *)a;
    const msgpack_object_str *y = *(const msgpack_object_str *const *)b;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return memcmp(nonnull(x->ptr), nonnull(y->ptr), x->size);
}

/* Refuses keys that are not strs and any key given twice, known or not
 * (sorting copies of the keys: a map may hold a hundred thousand). */
static int check_keys(struct proto_decoder *d, const msgpack_object_map *m)
{
    const msgpack_object_str **keys =
        msgpack_zone_malloc(&d->zone, (m->size + 1) * sizeof *keys);
    if (!keys)
        return fail(d, PROTO_E_INTERNAL, "out of memory for %u keys", m->size);
    for (uint32_t i = 0; i < m->size; i++) {
        const msgpack_object *k = &m->ptr[i].key;
        if (k->type != MSGPACK_OBJECT_STR)
            return fail(d, PROTO_E_MALFORMED,
                        "key %u of the message is %s; keys are strs", i,
                        object_kind(k));
        keys[i] = &k->via.str;
    }
    qsort(keys, m->size, sizeof *keys, cmp_keys);
    for (uint32_t i = 1; i < m->size; i++)
        if (!cmp_keys(&keys[i - 1], &keys[i])) {
            size_t n = proto_utf8_prefix(keys[i]->ptr, keys[i]->size, 40);
            return fail(d, PROTO_E_MALFORMED,
                        "the key \"%.*s%s\" appears twice", (int)n,
                        keys[i]->ptr, n < keys[i]->size ? "..." : "");
        }
    return 0;
}

/* Finds the header keys (check_keys has run). */
static void find_header(const msgpack_object_map *m,
                        const msgpack_object *hdr[3])
{
    static const char *const names[3] = {"v", "id", "type"};
    for (uint32_t i = 0; i < m->size; i++)
        for (int h = 0; h < 3; h++)
            if (str_is(&m->ptr[i].key, names[h]))
                hdr[h] = &m->ptr[i].val;
}

static int read_header(struct proto_decoder *d, enum proto_dir dir,
                       const msgpack_object_map *m, struct proto_in *in)
{
    const msgpack_object *hdr[3] = {NULL, NULL, NULL}; /* v, id, type */
    int rc = check_keys(d, m);
    if (rc)
        return rc;
    find_header(m, hdr);
    in->has_id = hdr[1] && hdr[1]->type == MSGPACK_OBJECT_POSITIVE_INTEGER;
    in->id = in->has_id ? hdr[1]->via.u64 : 0;
    if (hdr[1] && hdr[1]->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return fail(d, PROTO_E_BAD_VALUE, "id must not be negative, got %lld",
                    (long long)hdr[1]->via.i64);
    if (hdr[1] && !in->has_id && hdr[1]->type != MSGPACK_OBJECT_NIL)
        return fail(d, PROTO_E_BAD_TYPE,
                    "id must be a non-negative integer, got %s",
                    object_kind(hdr[1]));
    if (!hdr[0])
        return fail(d, PROTO_E_MISSING_FIELD,
                    "the message has no v (protocol version)");
    if (hdr[0]->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return fail(d, PROTO_E_VERSION,
                    "protocol version %lld is not spoken here (versions %d "
                    "to %d; hello negotiates)",
                    (long long)hdr[0]->via.i64, PROTO_VERSION_MIN,
                    PROTO_VERSION);
    if (hdr[0]->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return fail(d, PROTO_E_BAD_TYPE,
                    "v must be a non-negative integer, got %s",
                    object_kind(hdr[0]));
    in->version = hdr[0]->via.u64;
    if (!hdr[2])
        return fail(d, PROTO_E_MISSING_FIELD, "the message has no type");
    if (hdr[2]->type != MSGPACK_OBJECT_STR)
        return fail(d, PROTO_E_BAD_TYPE, "type must be a str, got %s",
                    object_kind(hdr[2]));
    in->type = find_msg(dir, hdr[2]);
    if (in->type == PROTO_MSG_NONE)
        return unknown_type(d, dir, hdr[2]);
    return check_version(d, dir, in);
}

static bool is_integer(const msgpack_object *o)
{
    return o->type == MSGPACK_OBJECT_POSITIVE_INTEGER ||
           o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER;
}

/* The msgpack family of o against f's type (PROTOCOL.md §3): BAD_TYPE. */
static int check_type(struct proto_decoder *d, const struct proto_field_def *f,
                      const msgpack_object *o)
{
    bool ok;
    switch (f->type) {
    case PROTO_UINT:
    case PROTO_INT:
        ok = is_integer(o);
        break;
    case PROTO_F64:
        ok = is_integer(o) || o->type == MSGPACK_OBJECT_FLOAT32 ||
             o->type == MSGPACK_OBJECT_FLOAT64;
        break;
    case PROTO_INTS:
        ok = o->type == MSGPACK_OBJECT_BIN || o->type == MSGPACK_OBJECT_ARRAY;
        for (uint32_t i = 0;
             ok && o->type == MSGPACK_OBJECT_ARRAY && i < o->via.array.size;
             i++)
            if (!is_integer(&o->via.array.ptr[i]))
                return fail(d, PROTO_E_BAD_TYPE,
                            "entry %u of %s must be an integer, got %s", i,
                            f->key, object_kind(&o->via.array.ptr[i]));
        break;
    case PROTO_BOOL:
        ok = o->type == MSGPACK_OBJECT_BOOLEAN;
        break;
    case PROTO_STR:
        ok = o->type == MSGPACK_OBJECT_STR;
        break;
    case PROTO_BIN:
        ok = o->type == MSGPACK_OBJECT_BIN;
        break;
    case PROTO_ARRAY:
        ok = o->type == MSGPACK_OBJECT_ARRAY;
        break;
    default:
        ok = o->type == MSGPACK_OBJECT_MAP;
        break;
    }
    if (ok)
        return 0;
    return fail(d, PROTO_E_BAD_TYPE, "%s of %s must be %s, got %s", f->key,
                proto_msg_name(f->msg), type_wanted[f->type], object_kind(o));
}

/* The value of o against the range of f's type (§3): BAD_VALUE. */
static int check_range(struct proto_decoder *d, const struct proto_field_def *f,
                       const msgpack_object *o)
{
    const char *msg = proto_msg_name(f->msg);
    if (f->type == PROTO_UINT && o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return fail(d, PROTO_E_BAD_VALUE,
                    "%s of %s must not be negative, got %lld", f->key, msg,
                    (long long)o->via.i64);
    if (f->type == PROTO_INT && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
        o->via.u64 > INT64_MAX)
        return fail(d, PROTO_E_BAD_VALUE, "%s of %s is beyond int64", f->key,
                    msg);
    if (f->type != PROTO_INTS)
        return 0;
    if (o->type == MSGPACK_OBJECT_BIN)
        return o->via.bin.size % 4 == 0
                   ? 0
                   : fail(d, PROTO_E_BAD_VALUE,
                          "the bin %s holds %u bytes, not a whole number of "
                          "int32",
                          f->key, o->via.bin.size);
    for (uint32_t i = 0; i < o->via.array.size; i++) {
        const msgpack_object *e = &o->via.array.ptr[i];
        if (e->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? e->via.u64 > INT32_MAX
                                                       : e->via.i64 < INT32_MIN)
            return fail(d, PROTO_E_BAD_VALUE, "entry %u of %s is outside int32",
                        i, f->key);
    }
    return 0;
}

/* The fields: types in map order, then absent required fields, then
 * values in catalogue order (PROTOCOL.md §9). */
static int read_fields(struct proto_decoder *d, enum proto_dir dir,
                       const msgpack_object_map *m, struct proto_in *in)
{
    for (uint32_t i = 0; i < m->size; i++) {
        int f = find_field(in->type, dir, &m->ptr[i].key);
        const msgpack_object *v = &m->ptr[i].val;
        if (f < 0)
            continue; /* unknown keys are ignored (PROTOCOL.md §3) */
        const struct proto_field_def *def = &proto_fields[f];
        if (v->type == MSGPACK_OBJECT_NIL && def->presence == PROTO_OPTIONAL)
            continue;
        int rc = check_type(d, def, v);
        if (rc)
            return rc;
        in->val[f] = v;
    }
    for (int f = 0; f < PROTO_NFIELDS; f++)
        if (proto_fields[f].msg == in->type && proto_fields[f].dir == dir &&
            proto_fields[f].presence == PROTO_REQUIRED && !in->val[f])
            return fail(d, PROTO_E_MISSING_FIELD, "%s needs the field %s",
                        proto_msg_name(in->type), proto_fields[f].key);
    for (int f = 0; f < PROTO_NFIELDS; f++) {
        int rc = in->val[f] ? check_range(d, &proto_fields[f], in->val[f]) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- API: decoding ------------------------------------------------------ */

int proto_decoder_init(struct proto_decoder *d, size_t max_len)
{
    memset(d, 0, sizeof *d);
    d->max_len = max_len;
    return msgpack_zone_init(&d->zone, ZONE_CHUNK) ? 0 : ERR_NOMEM;
}

void proto_decoder_fini(struct proto_decoder *d)
{
    msgpack_zone_destroy(&d->zone);
}

int proto_decode(struct proto_decoder *d, enum proto_dir dir, const void *data,
                 size_t len, struct proto_in *in)
{
    memset(in, 0, sizeof *in);
    d->code = 0;
    d->msg[0] = '\0';
    size_t used = 0;
    int rc = scan(d, data, len, in, &used);
    if (len > d->max_len) /* scanned anyway, to answer with the id */
        return fail(d, PROTO_E_TOO_BIG,
                    "the message has %zu bytes, more than the limit of %zu",
                    len, d->max_len);
    rc = rc ? rc : check_rest(d, used, len);
    if (rc)
        return rc;
    msgpack_zone_clear(&d->zone);
    msgpack_object root;
    size_t off = 0;
    if (msgpack_unpack(data, len, &off, &d->zone, &root) !=
        MSGPACK_UNPACK_SUCCESS)
        return fail(d, PROTO_E_MALFORMED, "msgpack-c could not unpack it");
    if (root.type != MSGPACK_OBJECT_MAP)
        return fail(d, PROTO_E_MALFORMED,
                    "a message is a msgpack map, this is %s",
                    object_kind(&root));
    rc = read_header(d, dir, &root.via.map, in);
    return rc ? rc : read_fields(d, dir, &root.via.map, in);
}

int proto_scan(const void *data, size_t len, char *msg, size_t msglen)
{
    struct proto_decoder d; /* only its code and msg are used */
    struct proto_in in;
    size_t used = 0;
    memset(&in, 0, sizeof in);
    d.msg[0] = '\0';
    int rc = scan(&d, data, len, &in, &used);
    rc = rc ? rc : check_rest(&d, used, len);
    if (rc && msg && msglen)
        snprintf(msg, msglen, "%s", d.msg);
    return rc;
}

/* ---- API: reading values ------------------------------------------------ */

bool proto_has(const struct proto_in *in, enum proto_field f)
{
    return in->val[f] != NULL;
}

uint64_t proto_uint(const struct proto_in *in, enum proto_field f,
                    uint64_t dflt)
{
    return in->val[f] ? in->val[f]->via.u64 : dflt;
}

int64_t proto_int(const struct proto_in *in, enum proto_field f, int64_t dflt)
{
    const msgpack_object *o = in->val[f];
    if (!o)
        return dflt;
    return o->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (int64_t)o->via.u64
                                                      : o->via.i64;
}

bool proto_bool(const struct proto_in *in, enum proto_field f, bool dflt)
{
    return in->val[f] ? in->val[f]->via.boolean : dflt;
}

double proto_f64(const struct proto_in *in, enum proto_field f, double dflt)
{
    const msgpack_object *o = in->val[f];
    if (!o)
        return dflt;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        return (double)o->via.u64;
    if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return (double)o->via.i64;
    return o->via.f64;
}

const void *proto_bytes(const struct proto_in *in, enum proto_field f,
                        size_t *len)
{
    const msgpack_object *o = in->val[f];
    *len = 0;
    if (!o)
        return NULL;
    /* str and bin share their layout in msgpack_object's union, but the
     * members are read by name to stay within the standard. */
    const char *p;
    if (o->type == MSGPACK_OBJECT_STR) {
        *len = o->via.str.size;
        p = o->via.str.ptr;
    } else {
        *len = o->via.bin.size;
        p = o->via.bin.ptr;
    }
    return nonnull(p); /* an empty value is present, not absent */
}

int proto_str_copy(const struct proto_in *in, enum proto_field f, char *buf,
                   size_t len)
{
    size_t n;
    const char *s = proto_bytes(in, f, &n);
    if (!s)
        return ERR_NOTFOUND;
    if (n >= len || memchr(s, '\0', n))
        return ERR_RANGE;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return 0;
}

size_t proto_ints_len(const struct proto_in *in, enum proto_field f)
{
    const msgpack_object *o = in->val[f];
    if (!o)
        return 0;
    return o->type == MSGPACK_OBJECT_BIN ? o->via.bin.size / 4
                                         : o->via.array.size;
}

int32_t proto_ints_at(const struct proto_in *in, enum proto_field f, size_t i)
{
    const msgpack_object *o = in->val[f];
    if (o->type == MSGPACK_OBJECT_BIN) {
        int32_t v;
        memcpy(&v, o->via.bin.ptr + 4 * i, sizeof v);
        return v;
    }
    const msgpack_object *e = &o->via.array.ptr[i];
    return e->type == MSGPACK_OBJECT_POSITIVE_INTEGER ? (int32_t)e->via.u64
                                                      : (int32_t)e->via.i64;
}

const msgpack_object *proto_obj(const struct proto_in *in, enum proto_field f)
{
    return in->val[f];
}

/* ---- API: catalogue ----------------------------------------------------- */

const char *proto_msg_name(enum proto_msg msg)
{
    for (int i = 0; i < proto_nmsgs; i++)
        if (proto_msgs[i].msg == msg)
            return proto_msgs[i].name;
    return "";
}

const char *proto_error_name(int code)
{
    for (int i = 0; i < proto_nerrors; i++)
        if (proto_errors[i].code == code)
            return proto_errors[i].name;
    return "UNKNOWN";
}

int proto_error_err(int code)
{
    for (int i = 0; i < proto_nerrors; i++)
        if (proto_errors[i].code == code)
            return proto_errors[i].err;
    return ERR_PROTO;
}

/* ---- API: UTF-8 --------------------------------------------------------- */

/* Length of the valid UTF-8 character at p (n bytes left), or 0 when the
 * bytes there are not one (RFC 3629: no overlongs, surrogates, or code
 * points above U+10FFFF); *cut is set when they are a character's start
 * cut short by the end. */
static size_t utf8_char(const unsigned char *p, size_t n, bool *cut)
{
    unsigned char b = p[0];
    size_t len = b < 0x80   ? 1
                 : b < 0xc2 ? 0
                 : b < 0xe0 ? 2
                 : b < 0xf0 ? 3
                 : b < 0xf5 ? 4
                            : 0;
    *cut = false;
    if (len <= 1)
        return len;
    /* The second byte's range is narrower after e0, ed, f0 and f4. */
    unsigned char min = b == 0xe0 ? 0xa0 : b == 0xf0 ? 0x90 : 0x80;
    unsigned char max = b == 0xed ? 0x9f : b == 0xf4 ? 0x8f : 0xbf;
    for (size_t i = 1; i < len; i++) {
        if (i == n) {
            *cut = true;
            return 0;
        }
        unsigned char c = p[i];
        if (c < (i == 1 ? min : 0x80) || c > (i == 1 ? max : 0xbf))
            return 0;
    }
    return len;
}

size_t proto_utf8_prefix(const char *s, size_t len, size_t max)
{
    size_t n = 0;
    bool cut;
    while (n < len && n < max) {
        size_t c = utf8_char((const unsigned char *)s + n, len - n, &cut);
        c = c ? c : 1; /* an invalid byte is replaced later: count it */
        if (n + c > max)
            break;
        n += c;
    }
    return n;
}

size_t proto_utf8_clean(const char *in, char *out, size_t outlen)
{
    size_t len = strlen(in), o = 0;
    bool cut;
    for (size_t i = 0; i < len;) {
        size_t c = utf8_char((const unsigned char *)in + i, len - i, &cut);
        if (cut)
            break; /* a character cut by a byte limit: leave it out */
        const char *src = c ? in + i : "\xef\xbf\xbd"; /* U+FFFD */
        size_t w = c ? c : 3;
        if (o + w >= outlen)
            break;
        memcpy(out + o, src, w);
        o += w;
        i += c ? c : 1;
    }
    if (outlen)
        out[o] = '\0';
    return o;
}

/* ---- API: encoding ------------------------------------------------------ */

void proto_pack_str(msgpack_packer *pk, const char *s)
{
    if (!s) {
        msgpack_pack_nil(pk);
        return;
    }
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

void proto_pack_head(msgpack_packer *pk, enum proto_msg type, bool has_id,
                     uint64_t id, int nfields)
{
    msgpack_pack_map(pk, 3 + (size_t)nfields);
    proto_pack_str(pk, "v");
    msgpack_pack_uint64(pk, PROTO_VERSION);
    proto_pack_str(pk, "id");
    if (has_id)
        msgpack_pack_uint64(pk, id);
    else
        msgpack_pack_nil(pk);
    proto_pack_str(pk, "type");
    proto_pack_str(pk, proto_msg_name(type));
}

void proto_pack_key(msgpack_packer *pk, enum proto_field f)
{
    proto_pack_str(pk, proto_fields[f].key);
}

void proto_pack_error(msgpack_packer *pk, bool has_id, uint64_t id, int code,
                      const char *msg)
{
    proto_pack_head(pk, PROTO_MSG_ERROR, has_id, id, 3);
    proto_pack_key(pk, PROTO_R_ERROR_CODE);
    msgpack_pack_uint64(pk, (uint64_t)code);
    proto_pack_key(pk, PROTO_R_ERROR_NAME);
    proto_pack_str(pk, proto_error_name(code));
    proto_pack_key(pk, PROTO_R_ERROR_MSG);
    char clean[3 * PROTO_ERRMSG_MAX];
    proto_utf8_clean(msg, clean, sizeof clean);
    proto_pack_str(pk, clean);
}
