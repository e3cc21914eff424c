/* codec.h — the wire format of PROTOCOL.md: msgpack messages checked
 * against the catalogue of messages.def.
 *
 * Decoding validates a message completely before anyone acts on it: the
 * bytes are walked once to bound every container by the bytes left (so a
 * hostile header cannot make msgpack-c allocate gigabytes), then unpacked
 * into a zone the decoder keeps and reuses (no allocation per message once
 * warm), then the header and every catalogued field are type-checked. A
 * failure yields a wire error code and a sentence naming the problem.
 * Encoding helpers pack headers, keys and errors so that every key on the
 * wire comes from the catalogue.
 */
#ifndef PARLOR_CODEC_H
#define PARLOR_CODEC_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION 1     /* the highest protocol version spoken */
#define PROTO_VERSION_MIN 1 /* the lowest protocol version spoken */
#define PROTO_MAX_DEPTH 32  /* deepest nesting of containers accepted */
#define PROTO_ERRMSG_MAX 512

/* Message types, numbered as in messages.def. */
enum proto_msg {
    PROTO_MSG_NONE = 0,
#define PROTO_MSG(id, E, name, dirs, doc) PROTO_MSG_##E = (id),
#define PROTO_REQ(m, e, key, type, presence, doc)
#define PROTO_REP(m, e, key, type, presence, doc)
#define PROTO_ERR(code, e, err, doc)
#include "messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
};

/* Every field of every message: PROTO_Q_<MSG>_<FIELD> for requests,
 * PROTO_R_<MSG>_<FIELD> for replies, in catalogue order. */
enum proto_field {
#define PROTO_MSG(id, E, name, dirs, doc)
#define PROTO_REQ(m, e, key, type, presence, doc) PROTO_Q_##m##_##e,
#define PROTO_REP(m, e, key, type, presence, doc) PROTO_R_##m##_##e,
#define PROTO_ERR(code, e, err, doc)
#include "messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
    PROTO_NFIELDS
};

/* Wire error codes (PROTO_E_<NAME>), positive as sent. */
enum proto_error {
#define PROTO_MSG(id, E, name, dirs, doc)
#define PROTO_REQ(m, e, key, type, presence, doc)
#define PROTO_REP(m, e, key, type, presence, doc)
#define PROTO_ERR(code, e, err, doc) PROTO_E_##e = (code),
#include "messages.def"
#undef PROTO_MSG
#undef PROTO_REQ
#undef PROTO_REP
#undef PROTO_ERR
};

enum proto_dir {
    PROTO_REQUEST = 1, /* client to server */
    PROTO_REPLY = 2,   /* server to client */
};

/* What a field's value must be on the wire (PROTOCOL.md §3). */
enum proto_type {
    PROTO_UINT,  /* non-negative integer, 64 bits */
    PROTO_INT,   /* signed integer, 64 bits */
    PROTO_BOOL,  /* true or false */
    PROTO_F64,   /* float 32 or 64, or an integer */
    PROTO_STR,   /* UTF-8 string */
    PROTO_BIN,   /* binary blob */
    PROTO_INTS,  /* array of int32, or a bin of int32 little-endian */
    PROTO_ARRAY, /* array of anything (the field's doc says what) */
    PROTO_MAP,   /* map */
};

enum proto_presence {
    PROTO_REQUIRED, /* absent: MISSING_FIELD */
    PROTO_OPTIONAL, /* may be absent or nil */
};

struct proto_msg_def {
    enum proto_msg msg; /* its number */
    const char *name;   /* the "type" string */
    unsigned dirs;      /* enum proto_dir bits it may travel in */
    const char *doc;    /* one sentence */
};

struct proto_field_def {
    enum proto_msg msg;           /* the message it belongs to */
    enum proto_dir dir;           /* request or reply */
    const char *key;              /* the map key */
    enum proto_type type;         /* what its value must be */
    enum proto_presence presence; /* required or optional */
    const char *doc;              /* one sentence */
};

struct proto_error_def {
    int code;         /* wire code, 1.. */
    const char *name; /* e.g. "ILLEGAL_ACTION" */
    int err;          /* the err.h code a client reports for it */
    const char *doc;  /* when it is sent */
};

/* The catalogue, in messages.def order. */
extern const struct proto_msg_def proto_msgs[];
extern const int proto_nmsgs;
extern const struct proto_field_def proto_fields[PROTO_NFIELDS];
extern const struct proto_error_def proto_errors[];
extern const int proto_nerrors;

/* A decoded message. Values are borrowed: they point into the decoder's
 * zone and into the bytes decoded, valid until the decoder's next decode
 * or fini and as long as those bytes live. */
struct proto_in {
    enum proto_msg type;                      /* what it is */
    uint64_t version;                         /* its v */
    bool has_id;                              /* id was readable */
    uint64_t id;                              /* its id */
    const msgpack_object *val[PROTO_NFIELDS]; /* NULL: absent or nil */
};

/* Caller storage; reused across decodes. */
struct proto_decoder {
    msgpack_zone zone;          /* holds unpacked objects */
    size_t max_len;             /* longest message accepted */
    int code;                   /* wire code of the last failure, or 0 */
    char msg[PROTO_ERRMSG_MAX]; /* its sentence */
};

/* Prepares d to decode messages of at most max_len bytes. Returns 0 or
 * ERR_NOMEM. */
int proto_decoder_init(struct proto_decoder *d, size_t max_len);

/* Frees what d holds; call it after a successful init only. */
void proto_decoder_fini(struct proto_decoder *d);

/* Decodes one message travelling in dir from data[0..len) into in.
 * Returns 0, or ERR_PROTO with d->code (a wire code) and d->msg set; even
 * then in->has_id and in->id tell the id if it could be read. */
int proto_decode(struct proto_decoder *d, enum proto_dir dir, const void *data,
                 size_t len, struct proto_in *in);

/* Checks, without building anything, that data[0..len) is exactly one
 * msgpack object that msgpack-c can unpack without reserving more than
 * the bytes justify: no item cut short, no container claiming more items
 * than bytes remain, no nesting deeper than PROTO_MAX_DEPTH, nothing after
 * it. proto_decode runs it; run it before msgpack_unpack_next on any other
 * bytes from outside. Returns 0, or ERR_PROTO with a sentence in msg
 * (msglen bytes; NULL for none). */
int proto_scan(const void *data, size_t len, char *msg, size_t msglen);

/* ---- reading decoded values (f must belong to in->type) ----------------- */

/* True when field f was given (and not nil). */
bool proto_has(const struct proto_in *in, enum proto_field f);

/* Field f as a number, or dflt when absent. */
uint64_t proto_uint(const struct proto_in *in, enum proto_field f,
                    uint64_t dflt);
int64_t proto_int(const struct proto_in *in, enum proto_field f, int64_t dflt);
bool proto_bool(const struct proto_in *in, enum proto_field f, bool dflt);
double proto_f64(const struct proto_in *in, enum proto_field f, double dflt);

/* Field f's bytes (STR or BIN, not NUL-terminated) and their length;
 * NULL (length 0) when absent. */
const void *proto_bytes(const struct proto_in *in, enum proto_field f,
                        size_t *len);

/* Copies STR field f into buf as a C string. Returns 0, ERR_NOTFOUND when
 * absent, or ERR_RANGE when it holds a NUL byte or does not fit. */
int proto_str_copy(const struct proto_in *in, enum proto_field f, char *buf,
                   size_t len);

/* Number of entries of INTS field f (0 when absent). */
size_t proto_ints_len(const struct proto_in *in, enum proto_field f);

/* Entry i (< proto_ints_len) of INTS field f: within int32 by decoding. */
int32_t proto_ints_at(const struct proto_in *in, enum proto_field f, size_t i);

/* The raw object of field f (ARRAY, MAP...), NULL when absent. */
const msgpack_object *proto_obj(const struct proto_in *in, enum proto_field f);

/* ---- catalogue lookups -------------------------------------------------- */

/* The type string of msg ("step"); "" for PROTO_MSG_NONE. */
const char *proto_msg_name(enum proto_msg msg);

/* The name of wire error code ("ILLEGAL_ACTION"), or "UNKNOWN". */
const char *proto_error_name(int code);

/* The err.h code matching wire error code (ERR_PROTO if unknown). */
int proto_error_err(int code);

/* ---- UTF-8 -------------------------------------------------------------- */

/* The longest prefix of s[0..len) of at most max bytes that does not cut
 * a character in two (an invalid byte counts as one), for quoting input. */
size_t proto_utf8_prefix(const char *s, size_t len, size_t max);

/* Copies C string in into out (outlen bytes, NUL-terminated) as valid
 * UTF-8: every invalid byte becomes U+FFFD, a character cut short at the
 * end is left out, and the copy stops before a character that does not
 * fit. Returns the bytes written. */
size_t proto_utf8_clean(const char *in, char *out, size_t outlen);

/* ---- encoding ----------------------------------------------------------- */

/* Starts a message: a map of 3 + nfields entries and the header fields
 * v (PROTO_VERSION), id (nil when !has_id) and type. */
void proto_pack_head(msgpack_packer *pk, enum proto_msg type, bool has_id,
                     uint64_t id, int nfields);

/* Packs field f's key. */
void proto_pack_key(msgpack_packer *pk, enum proto_field f);

/* Packs s as a str (NULL as nil). */
void proto_pack_str(msgpack_packer *pk, const char *s);

/* Packs a whole error reply: code (a PROTO_E_ value), its name, and msg
 * made valid UTF-8 (proto_utf8_clean). */
void proto_pack_error(msgpack_packer *pk, bool has_id, uint64_t id, int code,
                      const char *msg);

/* ---- documentation ------------------------------------------------------ */

/* Appends PROTOCOL.md's catalogue section (markdown tables of messages,
 * fields and error codes) to buf of size len, NUL-terminated. Returns the
 * length the whole text needs (as snprintf does). */
size_t proto_doc_tables(char *buf, size_t len);

#endif
