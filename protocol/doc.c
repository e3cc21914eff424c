/* doc.c — the catalogue section of PROTOCOL.md, printed from
 * messages.def so that the document cannot drift from the code:
 * `make protodoc` splices it into the file and test_codec compares.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "../common/err.h"
#include "codec.h"

/* A growing text in caller storage; counts what it could not store. */
struct text {
    char *buf;   /* destination */
    size_t len;  /* its size */
    size_t used; /* characters the whole text needs so far */
};

static const char *const type_doc[] = {
    [PROTO_UINT] = "uint", [PROTO_INT] = "int",     [PROTO_BOOL] = "bool",
    [PROTO_F64] = "float", [PROTO_STR] = "str",     [PROTO_BIN] = "bin",
    [PROTO_INTS] = "ints", [PROTO_ARRAY] = "array", [PROTO_MAP] = "map",
};

static void put(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->used < t->len ? t->len - t->used : 0;
    int n = vsnprintf(room ? t->buf + t->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->used += (size_t)n;
}

static const char *dirs_doc(unsigned dirs)
{
    if (dirs == (PROTO_REQUEST | PROTO_REPLY))
        return "request, reply";
    return dirs == PROTO_REQUEST ? "request" : "reply";
}

static void fields_table(struct text *t, enum proto_msg msg, enum proto_dir dir)
{
    const char *what = dir == PROTO_REQUEST ? "Request" : "Reply";
    int n = 0;
    for (int f = 0; f < PROTO_NFIELDS; f++) {
        const struct proto_field_def *d = &proto_fields[f];
        if (d->msg != msg || d->dir != dir)
            continue;
        if (!n++)
            put(t,
                "%s fields:\n\n| key | type | presence | meaning |\n"
                "| --- | --- | --- | --- |\n",
                what);
        bool always = d->presence == PROTO_REQUIRED;
        put(t, "| `%s` | %s | %s | %s |\n", d->key, type_doc[d->type],
            dir == PROTO_REQUEST ? (always ? "required" : "optional")
                                 : (always ? "always" : "optional"),
            d->doc);
    }
    put(t, n ? "\n" : "%s fields: none beyond the header.\n\n", what);
}

size_t proto_doc_tables(char *buf, size_t len)
{
    struct text t = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    put(&t, "| type | number | travels as | what it is |\n"
            "| --- | --- | --- | --- |\n");
    for (int i = 0; i < proto_nmsgs; i++)
        put(&t, "| `%s` | %d | %s | %s |\n", proto_msgs[i].name,
            (int)proto_msgs[i].msg, dirs_doc(proto_msgs[i].dirs),
            proto_msgs[i].doc);
    put(&t, "\n");
    for (int i = 0; i < proto_nmsgs; i++) {
        const struct proto_msg_def *m = &proto_msgs[i];
        put(&t, "#### `%s`\n\n%s\n\n", m->name, m->doc);
        if (m->dirs & PROTO_REQUEST)
            fields_table(&t, m->msg, PROTO_REQUEST);
        if (m->dirs & PROTO_REPLY)
            fields_table(&t, m->msg, PROTO_REPLY);
    }
    put(&t, "#### Error codes\n\n| code | name | C client returns | "
            "when |\n| --- | --- | --- | --- |\n");
    for (int i = 0; i < proto_nerrors; i++)
        put(&t, "| %d | `%s` | `ERR_%s` | %s |\n", proto_errors[i].code,
            proto_errors[i].name, err_name(proto_errors[i].err),
            proto_errors[i].doc);
    return t.used;
}
