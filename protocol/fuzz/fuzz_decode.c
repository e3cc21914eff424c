/* fuzz_decode.c — libFuzzer target for the message decoder: any bytes,
 * decoded as a request and as a reply, must give 0 or a wire error code
 * with a sentence, never a crash, a leak or an out-of-bounds read (built
 * with ASan and UBSan by `make fuzz`). Every field a decode accepts is
 * read back through the accessors, as the server and clients read it.
 *
 * It lives in protocol/fuzz/ rather than protocol/ because the Makefile
 * puts every .c file of protocol/ into libparlor.a.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_MSG 4096 /* so that TOO_BIG is reached too */

/* Reads every accepted field the way its type says it is read. */
static void touch(const struct proto_in *in)
{
    volatile uint64_t sink = 0;
    char buf[64];
    for (int f = 0; f < PROTO_NFIELDS; f++) {
        if (!proto_has(in, (enum proto_field)f))
            continue;
        size_t n;
        switch (proto_fields[f].type) {
        case PROTO_UINT:
            sink += proto_uint(in, (enum proto_field)f, 0);
            break;
        case PROTO_INT:
            sink += (uint64_t)proto_int(in, (enum proto_field)f, 0);
            break;
        case PROTO_BOOL:
            sink += proto_bool(in, (enum proto_field)f, false);
            break;
        case PROTO_F64:
            sink += proto_f64(in, (enum proto_field)f, 0) > 0;
            break;
        case PROTO_STR:
            sink += (uint64_t)proto_str_copy(in, (enum proto_field)f, buf,
                                             sizeof buf);
            break;
        case PROTO_BIN:
            sink += proto_bytes(in, (enum proto_field)f, &n) != NULL;
            break;
        case PROTO_INTS:
            for (size_t i = 0; i < proto_ints_len(in, (enum proto_field)f); i++)
                sink += (uint64_t)proto_ints_at(in, (enum proto_field)f, i);
            break;
        default:
            sink += proto_obj(in, (enum proto_field)f)->type;
            break;
        }
    }
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum proto_dir dirs[2] = {PROTO_REQUEST, PROTO_REPLY};
    struct proto_decoder d;
    struct proto_in in;
    if (proto_decoder_init(&d, FUZZ_MAX_MSG))
        return 0;
    for (int i = 0; i < 2; i++) {
        if (proto_decode(&d, dirs[i], data, size, &in) == 0)
            touch(&in);
        else if (!d.code || !d.msg[0] || !strlen(proto_error_name(d.code)))
            __builtin_trap(); /* a refusal must say why */
    }
    proto_decoder_fini(&d);
    return 0;
}
