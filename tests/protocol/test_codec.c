/* test_codec.c — the wire codec: the golden fixtures of
 * tests/protocol/fixtures (written by python3-msgpack, a second msgpack
 * implementation) decode as MANIFEST says and the valid ones re-encode
 * byte for byte; every refusal has its code; the limits hold; the
 * catalogue is consistent; PROTOCOL.md carries the catalogue's tables.
 *
 * Run with --doc it prints the catalogue tables instead (make protodoc).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "protocol/codec.h"

#define FIXTURES "tests/protocol/fixtures/"
#define DOC "protocol/PROTOCOL.md"
#define ENV1 ((1ull << 32) | 1) /* the env id the fixtures use */

/* ---- helpers ------------------------------------------------------------ */

/* Reads a whole file into a new buffer (free it); fails the test if the
 * file cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (tests run from the repository root)", path);
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static int decode_file(struct proto_decoder *d, const char *name,
                       enum proto_dir dir, struct proto_in *in, char **keep)
{
    char path[256];
    size_t len;
    snprintf(path, sizeof path, FIXTURES "%s.msgpack", name);
    *keep = slurp(path, &len);
    return proto_decode(d, dir, *keep, len, in);
}

static int error_code(const char *name)
{
    for (int i = 0; i < proto_nerrors; i++)
        if (!strcmp(proto_errors[i].name, name))
            return proto_errors[i].code;
    fail_msg("MANIFEST names an unknown error %s", name);
    return 0;
}

static void pk_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

/* A request {v:1, id:1, type:type, <extra pairs packed by the caller>}:
 * opens the map for 3 + extra pairs. */
static void start(msgpack_packer *pk, msgpack_sbuffer *sb, const char *type,
                  int extra)
{
    msgpack_sbuffer_clear(sb);
    msgpack_pack_map(pk, 3 + (size_t)extra);
    pk_str(pk, "v");
    msgpack_pack_int(pk, 1);
    pk_str(pk, "id");
    msgpack_pack_int(pk, 1);
    pk_str(pk, "type");
    pk_str(pk, type);
}

/* Decodes sb as a request; returns 0 or the wire code. */
static int decode_sb(struct proto_decoder *d, msgpack_sbuffer *sb,
                     struct proto_in *in)
{
    return proto_decode(d, PROTO_REQUEST, sb->data, sb->size, in) ? d->code : 0;
}

/* ---- fixtures ----------------------------------------------------------- */

static void test_manifest(void **state)
{
    (void)state;
    size_t len;
    char *man = slurp(FIXTURES "MANIFEST", &len);
    struct proto_decoder d;
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);
    int checked = 0;
    for (char *line = strtok(man, "\n"); line; line = strtok(NULL, "\n")) {
        char name[64], dir[16], expect[32];
        if (line[0] == '#' ||
            sscanf(line, "%63s %15s %31s", name, dir, expect) != 3)
            continue;
        struct proto_in in;
        char *bytes;
        enum proto_dir dn = strcmp(dir, "reply") ? PROTO_REQUEST : PROTO_REPLY;
        int rc = decode_file(&d, name, dn, &in, &bytes);
        if (!strcmp(expect, "ok") && rc)
            fail_msg("%s: refused: %s", name, d.msg);
        if (strcmp(expect, "ok") && d.code != error_code(expect))
            fail_msg("%s: got code %d (%s), expected %s", name, d.code, d.msg,
                     expect);
        if (rc)
            assert_true(strlen(d.msg) > 10); /* a sentence, not a code */
        free(bytes);
        checked++;
    }
    assert_int_equal(checked, 36);
    proto_decoder_fini(&d);
    free(man);
}

/* Ids are answered even when the rest of the message is refused: the
 * fixtures number their messages, so the expected id is known by name. */
static void test_ids_of_refused_messages(void **state)
{
    static const struct {
        const char *name; /* fixture */
        bool has_id;      /* id readable */
        uint64_t id;      /* its value */
    } cases[] = {
        {"bad_truncated", true, 11},
        {"bad_array_bomb", true, 12},
        {"bad_trailing", true, 13},
        {"bad_no_version", true, 14},
        {"bad_version", true, 15},
        {"bad_unknown_type", true, 16},
        {"bad_seed_type", true, 18},
        {"bad_missing_seed", true, 19},
        {"bad_actions_bin", true, 20},
        {"bad_id_type", false, 0},
        {"bad_c1", false, 0},
        {"bad_not_a_map", false, 0},
        {"bad_repeated_unknown_key", true, 21},
        {"bad_order_type_first", true, 22},
        {"bad_order_missing_game", true, 23},
        {"bad_order_missing_env", true, 24},
        {"bad_negative_uint", true, 25},
        {"bad_actions_int32", true, 26},
        {"bad_hello_v0", true, 27},
        {"bad_empty", false, 0},
    };
    (void)state;
    struct proto_decoder d;
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct proto_in in;
        char *bytes;
        assert_int_equal(
            decode_file(&d, cases[i].name, PROTO_REQUEST, &in, &bytes),
            ERR_PROTO);
        if (in.has_id != cases[i].has_id || in.id != cases[i].id)
            fail_msg("%s: id %d/%llu", cases[i].name, in.has_id,
                     (unsigned long long)in.id);
        free(bytes);
    }
    proto_decoder_fini(&d);
}

static void test_request_values(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    char *b, spec[64];
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);
    /* make_request: {game "thirty_one(players=2)", n 4, opponents
     * "random", seat 1, max_steps 200}, as make_fixtures.py wrote it. */
    assert_int_equal(decode_file(&d, "make_request", PROTO_REQUEST, &in, &b),
                     0);
    assert_int_equal(in.type, PROTO_MSG_MAKE);
    assert_int_equal(in.id, 3);
    assert_int_equal(proto_str_copy(&in, PROTO_Q_MAKE_GAME, spec, sizeof spec),
                     0);
    assert_string_equal(spec, "thirty_one(players=2)");
    assert_int_equal(proto_uint(&in, PROTO_Q_MAKE_N, 0), 4);
    assert_int_equal(proto_uint(&in, PROTO_Q_MAKE_SEAT, 0), 1);
    assert_int_equal(proto_uint(&in, PROTO_Q_MAKE_MAX_STEPS, 0), 200);
    free(b);
    /* An empty str is present and empty, not absent: make {game "",
     * opponents ""}. (The null-pointer case msgpack-c makes of an empty
     * key with nothing sized before it is the fixture bad_empty_key_twice.) */
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    start(&pk, &sb, "make", 2);
    pk_str(&pk, "game");
    pk_str(&pk, "");
    pk_str(&pk, "opponents");
    pk_str(&pk, "");
    assert_int_equal(decode_sb(&d, &sb, &in), 0);
    spec[0] = 'x';
    assert_int_equal(proto_str_copy(&in, PROTO_Q_MAKE_GAME, spec, sizeof spec),
                     0);
    assert_string_equal(spec, "");
    assert_int_equal(
        proto_str_copy(&in, PROTO_Q_MAKE_OPPONENTS, spec, sizeof spec), 0);
    msgpack_sbuffer_destroy(&sb);
    /* The actions [0, 2, -1, 54] arrive alike as a bin and as an array. */
    const char *forms[2] = {"step_actions_bin_request",
                            "step_actions_array_request"};
    for (int f = 0; f < 2; f++) {
        assert_int_equal(decode_file(&d, forms[f], PROTO_REQUEST, &in, &b), 0);
        assert_int_equal(proto_uint(&in, PROTO_Q_STEP_ENV, 0), ENV1);
        assert_int_equal(proto_ints_len(&in, PROTO_Q_STEP_ACTIONS), 4);
        assert_int_equal(proto_ints_at(&in, PROTO_Q_STEP_ACTIONS, 0), 0);
        assert_int_equal(proto_ints_at(&in, PROTO_Q_STEP_ACTIONS, 1), 2);
        assert_int_equal(proto_ints_at(&in, PROTO_Q_STEP_ACTIONS, 2), -1);
        assert_int_equal(proto_ints_at(&in, PROTO_Q_STEP_ACTIONS, 3), 54);
        assert_false(proto_has(&in, PROTO_Q_STEP_ACTION));
        free(b);
    }
    /* reset_request: seed 7, view true, names false (given, not absent). */
    assert_int_equal(decode_file(&d, "reset_request", PROTO_REQUEST, &in, &b),
                     0);
    assert_int_equal(proto_uint(&in, PROTO_Q_RESET_SEED, 0), 7);
    assert_true(proto_bool(&in, PROTO_Q_RESET_VIEW, false));
    assert_false(proto_bool(&in, PROTO_Q_RESET_NAMES, true));
    free(b);
    /* A hello may offer a newer version (7): accepted, to be answered in
     * the server's own. */
    assert_int_equal(
        decode_file(&d, "hello_newer_request", PROTO_REQUEST, &in, &b), 0);
    assert_int_equal(in.version, 7);
    free(b);
    proto_decoder_fini(&d);
}

static void test_reply_values(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    char *b;
    size_t n;
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);
    /* timestep_reply: obs float32 [0, 1, 0.5, -2]; legal 0x05 = actions 0
     * and 2; rewards float64 [1, -1]. */
    assert_int_equal(decode_file(&d, "timestep_reply", PROTO_REPLY, &in, &b),
                     0);
    const uint8_t *obs = proto_bytes(&in, PROTO_R_TIMESTEP_OBS, &n);
    float f[4];
    assert_int_equal(n, 16);
    memcpy(f, obs, 16);
    assert_true(f[0] == 0.0f && f[1] == 1.0f && f[2] == 0.5f && f[3] == -2.0f);
    const uint8_t *legal = proto_bytes(&in, PROTO_R_TIMESTEP_LEGAL, &n);
    assert_int_equal(n, 8);
    assert_int_equal(legal[0], 0x05);
    double r[2];
    memcpy(r, proto_bytes(&in, PROTO_R_TIMESTEP_REWARD, &n), 16);
    assert_true(r[0] == 1.0 && r[1] == -1.0);
    free(b);
    /* batch_reply: env 1 ended (terminated [0, 1]); its final rows are
     * the one float32 pair [5, 6]. */
    assert_int_equal(decode_file(&d, "batch_reply", PROTO_REPLY, &in, &b), 0);
    assert_int_equal(proto_uint(&in, PROTO_R_BATCH_N, 0), 2);
    const uint8_t *term = proto_bytes(&in, PROTO_R_BATCH_TERMINATED, &n);
    assert_true(n == 2 && term[0] == 0 && term[1] == 1);
    memcpy(f, proto_bytes(&in, PROTO_R_BATCH_FINAL_OBS, &n), 8);
    assert_true(n == 8 && f[0] == 5.0f && f[1] == 6.0f);
    free(b);
    assert_int_equal(decode_file(&d, "error_reply", PROTO_REPLY, &in, &b), 0);
    assert_int_equal(in.type, PROTO_MSG_ERROR);
    assert_int_equal(proto_uint(&in, PROTO_R_ERROR_CODE, 0),
                     PROTO_E_ILLEGAL_ACTION);
    free(b);
    proto_decoder_fini(&d);
}

/* The codec's packing gives python3-msgpack's bytes for the same map. */
static void test_encoding_matches_fixtures(void **state)
{
    (void)state;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    char *want;
    size_t len;

    proto_pack_head(&pk, PROTO_MSG_STEP, true, 5, 2);
    proto_pack_key(&pk, PROTO_Q_STEP_ENV);
    msgpack_pack_uint64(&pk, ENV1);
    proto_pack_key(&pk, PROTO_Q_STEP_ACTION);
    msgpack_pack_int(&pk, 3);
    want = slurp(FIXTURES "step_action_request.msgpack", &len);
    assert_int_equal(sb.size, len);
    assert_memory_equal(sb.data, want, len);
    free(want);

    msgpack_sbuffer_clear(&sb);
    proto_pack_head(&pk, PROTO_MSG_PING, true, 9, 0);
    want = slurp(FIXTURES "ping_request.msgpack", &len);
    assert_int_equal(sb.size, len);
    assert_memory_equal(sb.data, want, len);
    free(want);

    msgpack_sbuffer_clear(&sb);
    proto_pack_error(&pk, true, 5, PROTO_E_ILLEGAL_ACTION,
                     "action 3 is not legal for seat 0 (legal: 0 2)");
    want = slurp(FIXTURES "error_reply.msgpack", &len);
    assert_int_equal(sb.size, len);
    assert_memory_equal(sb.data, want, len);
    free(want);
    msgpack_sbuffer_destroy(&sb);
}

/* ---- refusals and limits ------------------------------------------------ */

static void test_field_refusals(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);

    /* An optional field given as nil counts as absent; unknown keys are
     * ignored. */
    start(&pk, &sb, "step", 3);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 9);
    pk_str(&pk, "action");
    msgpack_pack_nil(&pk);
    pk_str(&pk, "colour");
    pk_str(&pk, "blue");
    assert_int_equal(decode_sb(&d, &sb, &in), 0);
    assert_false(proto_has(&in, PROTO_Q_STEP_ACTION));

    /* A required field given as nil is of the wrong type. */
    start(&pk, &sb, "close", 1);
    pk_str(&pk, "env");
    msgpack_pack_nil(&pk);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_TYPE);

    /* A field twice. */
    start(&pk, &sb, "close", 2);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 2);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_MALFORMED);

    proto_decoder_fini(&d);
    msgpack_sbuffer_destroy(&sb);
}

static void test_number_refusals(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);

    /* An int field (action) given a float (wrong type); a uint field
     * given -1 (an integer, out of the uint range: a value). */
    start(&pk, &sb, "step", 2);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "action");
    msgpack_pack_double(&pk, 1.0);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_TYPE);
    start(&pk, &sb, "close", 1);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, -1);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_VALUE);
    /* An int field beyond int64. */
    start(&pk, &sb, "step", 2);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "action");
    msgpack_pack_uint64(&pk, 1ull << 63);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_VALUE);

    /* actions: an entry beyond int32, then an entry that is a str. */
    start(&pk, &sb, "step", 2);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "actions");
    msgpack_pack_array(&pk, 2);
    msgpack_pack_int(&pk, 0);
    msgpack_pack_int64(&pk, 1ll << 31);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_VALUE);
    start(&pk, &sb, "step", 2);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "actions");
    msgpack_pack_array(&pk, 1);
    pk_str(&pk, "3");
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_TYPE);

    proto_decoder_fini(&d);
    msgpack_sbuffer_destroy(&sb);
}

/* PROTOCOL.md §9's order: repeated keys, header, field types in map
 * order, absent required fields, values in catalogue order. */
static void test_refusal_order(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);

    /* An unknown key twice is as malformed as a known one. */
    start(&pk, &sb, "ping", 2);
    pk_str(&pk, "zz");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "zz");
    msgpack_pack_int(&pk, 2);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_MALFORMED);
    assert_non_null(strstr(d.msg, "\"zz\" appears twice"));
    /* make {n: 0, seat: "x", game: "dice"}: seat's type first (n = 0 is
     * the server's value check, later still). */
    start(&pk, &sb, "make", 3);
    pk_str(&pk, "n");
    msgpack_pack_int(&pk, 0);
    pk_str(&pk, "seat");
    pk_str(&pk, "x");
    pk_str(&pk, "game");
    pk_str(&pk, "dice");
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_TYPE);
    assert_non_null(strstr(d.msg, "seat"));
    /* make {n: 0}: game is missing. */
    start(&pk, &sb, "make", 1);
    pk_str(&pk, "n");
    msgpack_pack_int(&pk, 0);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_MISSING_FIELD);
    /* step {actions: a 3-byte bin}: env is missing, before the value. */
    start(&pk, &sb, "step", 1);
    pk_str(&pk, "actions");
    msgpack_pack_bin_with_body(&pk, "\1\2\3", 3);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_MISSING_FIELD);
    /* Two bad values: the first in catalogue order (env before actions),
     * whatever the map order. */
    start(&pk, &sb, "step", 2);
    pk_str(&pk, "actions");
    msgpack_pack_bin_with_body(&pk, "\1\2\3", 3);
    pk_str(&pk, "env");
    msgpack_pack_int(&pk, -4);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_VALUE);
    assert_non_null(strstr(d.msg, "env of step"));
    /* A negative id is a bad value, a negative v an unspoken version. */
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_map(&pk, 3);
    pk_str(&pk, "v");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "id");
    msgpack_pack_int(&pk, -1);
    pk_str(&pk, "type");
    pk_str(&pk, "ping");
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_VALUE);
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_map(&pk, 2);
    pk_str(&pk, "v");
    msgpack_pack_int(&pk, -1);
    pk_str(&pk, "type");
    pk_str(&pk, "hello");
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_VERSION);

    proto_decoder_fini(&d);
    msgpack_sbuffer_destroy(&sb);
}

/* Error sentences are valid UTF-8 whatever they quote (issue 19.2). */
static void test_utf8(void **state)
{
    (void)state;
    char out[64];
    /* "€" is e2 82 ac: a cut after 40 bytes falls inside the 14th. */
    char euros[61] = "";
    for (int i = 0; i < 20; i++)
        strcat(euros, "\xe2\x82\xac");
    assert_int_equal(proto_utf8_prefix(euros, 60, 40), 39);
    assert_int_equal(proto_utf8_prefix("ab\xff", 3, 40), 3);
    /* A character cut at the end is left out; invalid bytes become
     * U+FFFD; overlongs and surrogates are invalid. */
    assert_int_equal(proto_utf8_clean("x\xe2\x82", out, sizeof out), 1);
    assert_string_equal(out, "x");
    proto_utf8_clean("a\xff"
                     "b",
                     out, sizeof out);
    assert_string_equal(out, "a\xef\xbf\xbd"
                             "b");
    proto_utf8_clean("\xc0\xaf\xed\xa0\x80", out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                             "\xef\xbf\xbd\xef\xbf\xbd");
    proto_utf8_clean("\xf0\x9f\x82\xa1 ok \xc3\xa9", out, sizeof out);
    assert_string_equal(out, "\xf0\x9f\x82\xa1 ok \xc3\xa9");
    /* The copy stops before a character that does not fit. */
    assert_int_equal(proto_utf8_clean(euros, out, 8), 6);
}

static void test_header_refusals(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);

    /* A key that is not a str. */
    start(&pk, &sb, "ping", 1);
    msgpack_pack_int(&pk, 4);
    msgpack_pack_int(&pk, 4);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_MALFORMED);
    /* A type that is not a str; a reply type sent as a request. */
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_map(&pk, 2);
    pk_str(&pk, "v");
    msgpack_pack_int(&pk, 1);
    pk_str(&pk, "type");
    msgpack_pack_int(&pk, 5);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_BAD_TYPE);
    start(&pk, &sb, "batch", 0);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_UNKNOWN_TYPE);
    /* Version 0 is never spoken, not even in a hello. */
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_map(&pk, 2);
    pk_str(&pk, "v");
    msgpack_pack_int(&pk, 0);
    pk_str(&pk, "type");
    pk_str(&pk, "hello");
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_VERSION);

    proto_decoder_fini(&d);
    msgpack_sbuffer_destroy(&sb);
}

/* Packs {v, id, type: "ping", "deep": k nested arrays} into sb. */
static void nested(msgpack_packer *pk, msgpack_sbuffer *sb, int k)
{
    start(pk, sb, "ping", 1);
    pk_str(pk, "deep");
    for (int i = 0; i < k; i++)
        msgpack_pack_array(pk, i + 1 < k ? 1 : 0);
}

static void test_limits(void **state)
{
    (void)state;
    struct proto_decoder d;
    struct proto_in in;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(proto_decoder_init(&d, 64), 0);

    /* 64 bytes are accepted, 65 are not; the id is still read. */
    start(&pk, &sb, "hello", 1);
    pk_str(&pk, "client");
    char name[64];
    memset(name, 'a', sizeof name);
    size_t head = sb.size + 2; /* the str8 header of the name */
    msgpack_pack_str_with_body(&pk, name, 64 - head);
    assert_int_equal(sb.size, 64);
    assert_int_equal(decode_sb(&d, &sb, &in), 0);
    start(&pk, &sb, "hello", 1);
    pk_str(&pk, "client");
    msgpack_pack_str_with_body(&pk, name, 65 - head);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_TOO_BIG);
    assert_true(in.has_id && in.id == 1);
    proto_decoder_fini(&d);

    /* Nesting: the message map and 31 arrays inside it make 32 open
     * containers, the most msgpack-c itself unpacks; one more is
     * refused before msgpack-c sees it. */
    assert_int_equal(proto_decoder_init(&d, 1 << 16), 0);
    nested(&pk, &sb, PROTO_MAX_DEPTH - 1);
    assert_int_equal(decode_sb(&d, &sb, &in), 0);
    nested(&pk, &sb, PROTO_MAX_DEPTH);
    assert_int_equal(decode_sb(&d, &sb, &in), PROTO_E_MALFORMED);
    assert_non_null(strstr(d.msg, "deeper"));

    /* A map claiming 2^32-1 pairs with 3 bytes left. */
    const uint8_t bomb[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 'v', 0x01};
    assert_int_equal(proto_decode(&d, PROTO_REQUEST, bomb, sizeof bomb, &in),
                     ERR_PROTO);
    assert_int_equal(d.code, PROTO_E_MALFORMED);
    assert_int_equal(proto_decode(&d, PROTO_REQUEST, "", 0, &in), ERR_PROTO);
    assert_int_equal(d.code, PROTO_E_MALFORMED);
    proto_decoder_fini(&d);
    msgpack_sbuffer_destroy(&sb);
}

/* proto_scan alone, as botmsg.c uses it on bots' messages: the bounds of
 * proto_decode, each refusal with its sentence, and nothing else checked
 * (any one object passes, map or not). */
static void test_scan(void **state)
{
    (void)state;
    char msg[PROTO_ERRMSG_MAX] = "";
    /* {"x": [ with an array32 header claiming 2^28 items, then 5 bytes. */
    const uint8_t claim[] = {0x81, 0xa1, 'x',  0xdd, 0x10, 0x00, 0x00,
                             0x00, 0x90, 0x90, 0x90, 0x90, 0x90};
    assert_int_equal(proto_scan(claim, sizeof claim, msg, sizeof msg),
                     ERR_PROTO);
    assert_string_equal(msg, "a container claims 268435456 items but only 5 "
                             "bytes follow it");
    const uint8_t two[] = {0x01, 0x02};
    assert_int_equal(proto_scan(two, 1, msg, sizeof msg), 0);
    assert_int_equal(proto_scan(two, 2, msg, sizeof msg), ERR_PROTO);
    assert_string_equal(msg, "1 bytes follow the message's msgpack object");
    assert_int_equal(proto_scan(claim, 2, NULL, 0), ERR_PROTO);
    /* 33 nested arrays of one item: one deeper than msgpack-c goes. */
    uint8_t deep[PROTO_MAX_DEPTH + 2];
    memset(deep, 0x91, sizeof deep);
    deep[PROTO_MAX_DEPTH + 1] = 0x00;
    assert_int_equal(proto_scan(deep + 1, sizeof deep - 1, msg, sizeof msg), 0);
    assert_int_equal(proto_scan(deep, sizeof deep, msg, sizeof msg), ERR_PROTO);
    assert_string_equal(msg, "containers nest deeper than 32");
}

/* ---- the catalogue and its document ------------------------------------- */

static void test_catalogue(void **state)
{
    (void)state;
    for (int i = 0; i < proto_nmsgs; i++)
        for (int j = 0; j < i; j++) {
            assert_int_not_equal(proto_msgs[i].msg, proto_msgs[j].msg);
            assert_string_not_equal(proto_msgs[i].name, proto_msgs[j].name);
        }
    for (int f = 0; f < PROTO_NFIELDS; f++) {
        const struct proto_field_def *a = &proto_fields[f];
        unsigned dirs = 0;
        for (int i = 0; i < proto_nmsgs; i++)
            if (proto_msgs[i].msg == a->msg)
                dirs = proto_msgs[i].dirs;
        if (!(dirs & a->dir))
            fail_msg("field %s of %s travels where its message does not",
                     a->key, proto_msg_name(a->msg));
        assert_string_not_equal(a->key, "v");
        assert_string_not_equal(a->key, "id");
        assert_string_not_equal(a->key, "type");
        for (int g = 0; g < f; g++)
            if (proto_fields[g].msg == a->msg && proto_fields[g].dir == a->dir)
                assert_string_not_equal(proto_fields[g].key, a->key);
    }
    /* Error codes run 1..n with unique names, each mapped to an err.h
     * code (negative). */
    for (int i = 0; i < proto_nerrors; i++) {
        assert_int_equal(proto_errors[i].code, i + 1);
        assert_true(proto_errors[i].err < 0);
        assert_string_equal(proto_error_name(i + 1), proto_errors[i].name);
    }
    assert_string_equal(proto_error_name(999), "UNKNOWN");
    assert_int_equal(proto_error_err(999), ERR_PROTO);
}

static void test_doc_has_catalogue(void **state)
{
    (void)state;
    size_t len, need = proto_doc_tables(NULL, 0);
    char *tables = malloc(need + 1);
    assert_int_equal(proto_doc_tables(tables, need + 1), need);
    char *doc = slurp(DOC, &len);
    bool found = strstr(doc, tables) != NULL;
    free(doc);
    free(tables);
    if (!found)
        fail_msg("%s lacks the catalogue tables of messages.def: run "
                 "`make protodoc`",
                 DOC);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--doc")) {
        size_t need = proto_doc_tables(NULL, 0);
        char *tables = malloc(need + 1);
        proto_doc_tables(tables, need + 1);
        fputs(tables, stdout);
        free(tables);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest),
        cmocka_unit_test(test_ids_of_refused_messages),
        cmocka_unit_test(test_request_values),
        cmocka_unit_test(test_reply_values),
        cmocka_unit_test(test_encoding_matches_fixtures),
        cmocka_unit_test(test_refusal_order),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_field_refusals),
        cmocka_unit_test(test_number_refusals),
        cmocka_unit_test(test_header_refusals),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_doc_has_catalogue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
