/* test_botmsg.c — reading the agent role's messages from bots
 * (agents/botmsg.h): a hello and an answer are read, and a message whose
 * container headers claim far more items than its bytes could hold is
 * refused before msgpack-c reserves memory for them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "agents/botmsg.h"
#include "common/err.h"

#define BOMB_LEVELS 31
#define BOMB_ITEMS (1u << 28)
/* 3 bytes of {"x": then BOMB_LEVELS array32 headers of 5 bytes. */
#define BOMB_LEN (3 + 5 * BOMB_LEVELS)

/* The security review's message: {"x": [[[... with BOMB_LEVELS nested
 * array32 headers, each claiming BOMB_ITEMS items, and nothing else. An
 * unchecked msgpack-c reserves 24 bytes per claimed item at every level
 * before it finds the bytes missing: 6 GiB a level, 186 GiB in all. */
static void make_bomb(uint8_t *buf)
{
    memcpy(buf, "\x81\xa1x", 3);
    for (int i = 0; i < BOMB_LEVELS; i++) {
        uint8_t *p = buf + 3 + 5 * i;
        p[0] = 0xdd;
        p[1] = (uint8_t)(BOMB_ITEMS >> 24);
        p[2] = p[3] = p[4] = 0;
    }
}

/* This process's peak address space (VmPeak), in KiB. */
static long vm_peak_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmPeak: %ld kB", &kib) == 1)
            break;
    fclose(f);
    assert_true(kib > 0);
    return kib;
}

static void test_reads_hello_and_answer(void **state)
{
    (void)state;
    char name[BOTMSG_NAME_MAX];
    int legal[2] = {3, 7}, action = -1;
    struct botmsg_req q = {.id = 9, .legal = legal, .nlegal = 2};
    /* {"v":1,"id":0,"type":"hello","name":"alice"} */
    static const char hello[] = "\x84\xa1v\x01\xa2id\x00\xa4type\xa5hello"
                                "\xa4name\xa5\x61lice";
    /* {"v":1,"id":9,"type":"action","action":7} */
    static const char answer[] = "\x84\xa1v\x01\xa2id\x09\xa4type\xa6\x61"
                                 "ction\xa6\x61\x63tion\x07";
    assert_int_equal(botmsg_read_hello(hello, sizeof hello - 1, name), 0);
    assert_string_equal(name, "alice");
    int rc = botmsg_read_answer(&q, answer, sizeof answer - 1, &action);
    assert_int_equal(rc, 0);
    assert_int_equal(action, 7);
    /* One byte more after the map: not one message. */
    assert_int_equal(botmsg_read_hello(hello, sizeof hello, name), ERR_PROTO);
}

static void test_bomb_refused_without_reserving(void **state)
{
    (void)state;
    uint8_t bomb[BOMB_LEN];
    char name[BOTMSG_NAME_MAX];
    int legal[1] = {0}, action;
    uint64_t id;
    struct botmsg_req q = {.id = 1, .legal = legal, .nlegal = 1};
    make_bomb(bomb);
    assert_int_equal(BOMB_LEN, 158);
    long before = vm_peak_kib();
    const char *b = (const char *)bomb;
    assert_int_equal(botmsg_read_hello(b, BOMB_LEN, name), ERR_PROTO);
    assert_int_equal(botmsg_read_id(b, BOMB_LEN, &id), ERR_PROTO);
    assert_int_equal(botmsg_read_answer(&q, b, BOMB_LEN, &action), ERR_PROTO);
    assert_false(botmsg_hello_has_secret(b, BOMB_LEN, "s"));
    /* Unchecked, the first level alone would reserve 6 GiB; reading four
     * 158-byte messages may not grow the peak by even 64 MiB. */
    long grew = vm_peak_kib() - before;
    if (grew >= 64 * 1024)
        fail_msg("reading the bomb grew VmPeak by %ld KiB", grew);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_hello_and_answer),
        cmocka_unit_test(test_bomb_refused_without_reserving),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
