/* test_registry.c — the registry, game spec strings and their errors, and
 * the generic action-name parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "common/err.h"
#include "engine/game.h"

static void test_registry_is_valid(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(game_registry_check(err, sizeof err), 0);
    assert_true(game_registry_count >= 2);
    assert_non_null(game_find("spoil_five"));
    assert_non_null(game_find("thirty_one"));
    assert_null(game_find("hearts"));
}

static void test_unknown_game_lists_games(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "hearts(players=4)", err, sizeof err),
                     ERR_NOTFOUND);
    assert_non_null(strstr(err, "hearts"));
    assert_non_null(strstr(err, "spoil_five"));
    assert_non_null(strstr(err, "thirty_one"));
}

static void test_bad_options_name_culprit(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(game_make(&g, "thirty_one(players=1)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "players"));
    assert_non_null(strstr(err, "2..9"));
    assert_int_equal(game_make(&g, "thirty_one(colour=1)", err, sizeof err),
                     ERR_NOTFOUND);
    assert_non_null(strstr(err, "colour"));
    assert_non_null(strstr(err, "lives"));
    assert_int_equal(game_make(&g, "spoil_five(players=11)", err, sizeof err),
                     ERR_RANGE);
    assert_non_null(strstr(err, "2..10"));
}

static void test_spec_is_canonical(void **state)
{
    (void)state;
    struct game g;
    char err[512];
    assert_int_equal(
        game_make(&g, " thirty_one ( lives = 3, players=5 ) ", err, sizeof err),
        0);
    assert_string_equal(g.spec, "thirty_one(players=5)");
    assert_int_equal(g.dims.players, 5);
    assert_true(game_param(&g, "lives") == 3);
}

static void test_action_parse_forgives_typing(void **state)
{
    (void)state;
    struct game g;
    char err[512], name[GAME_NAME_MAX];
    assert_int_equal(game_make(&g, "thirty_one", err, sizeof err), 0);
    unsigned char st[g.def->state_size];
    assert_int_equal(game_init(&g, st, 3, NULL, 0), 0);
    int seat = game_current_seat(&g, st);
    int legal[g.dims.max_legal];
    int n = g.def->legal(&g, st, seat, legal);
    assert_true(n > 0);
    game_action_name(&g, st, legal[0], name, sizeof name);
    /* Upper case and doubled spaces are forgiven. */
    char typed[GAME_NAME_MAX + 8];
    size_t k = 0;
    for (const char *p = name; *p && k + 2 < sizeof typed; p++) {
        typed[k++] = (*p >= 'a' && *p <= 'z') ? (char)(*p - 32) : *p;
        if (*p == ' ')
            typed[k++] = ' ';
    }
    typed[k] = '\0';
    assert_int_equal(game_action_parse(&g, st, seat, typed, err, sizeof err),
                     legal[0]);
    assert_int_equal(
        game_action_parse(&g, st, seat, "fly away", err, sizeof err),
        ERR_NOTFOUND);
    assert_non_null(strstr(err, "fly away"));
    assert_non_null(strstr(err, name));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_is_valid),
        cmocka_unit_test(test_unknown_game_lists_games),
        cmocka_unit_test(test_bad_options_name_culprit),
        cmocka_unit_test(test_spec_is_canonical),
        cmocka_unit_test(test_action_parse_forgives_typing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
