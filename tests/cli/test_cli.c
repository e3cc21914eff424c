/* test_cli.c — runs the built parlor binary (PARLOR_BIN) as a user would
 * and checks exit codes and output: the game list and descriptions (text
 * and JSON), the errors for unknown games, options and agents, bots-only
 * and scripted human play, and bench's JSON.
 *
 * Expected facts come from the library's own tables (registry, option
 * tables, configured dimensions), never from the CLI's output; the binary
 * and this test link the same library, so they must agree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first. */
#include <cmocka.h>

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agents/agent.h"
#include "engine/game.h"

#include "cli_run.h"

/* ---- helpers ----------------------------------------------------------- */

static void make_game(struct game *g, const char *spec)
{
    char err[512];
    int rc = game_make(g, spec, err, sizeof err);
    if (rc)
        fail_msg("game_make(%s): %s", spec, err);
}

/* "random,random,..." for every seat of spec. */
static void all_random(const char *spec, char *buf, size_t len)
{
    struct game g;
    make_game(&g, spec);
    size_t used = 0;
    for (int s = 0; s < g.dims.players; s++)
        used +=
            (size_t)snprintf(buf + used, len - used, "%srandom", s ? "," : "");
}

static json_t *parse_json(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j)
        fail_msg("not JSON (%s at line %d): %.200s", e.text, e.line, text);
    return j;
}

/* Counts the occurrences of needle in hay. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Expects a usage failure: exit 2, stderr naming culprit. */
static void expect_usage(const char *culprit, const char *args)
{
    struct run r;
    run_cli(&r, NULL, "%s", args);
    if (r.code != 2 || !strstr(r.err, culprit))
        fail_msg("parlor %s: exit %d, stderr '%s' (wanted 2 naming '%s')", args,
                 r.code, r.err, culprit);
    run_free(&r);
}

/* ---- help and the list ------------------------------------------------- */

static void test_help(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "help");
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "games"));
    assert_non_null(strstr(r.out, "play"));
    assert_non_null(strstr(r.out, "bench"));
    run_free(&r);
    run_cli(&r, NULL, "--help");
    assert_int_equal(r.code, 0);
    run_free(&r);
    run_cli(&r, NULL, "play --help");
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "--seats"));
    run_free(&r);
    run_cli(&r, NULL, "");
    assert_int_equal(r.code, 2);
    run_free(&r);
    expect_usage("frobnicate", "frobnicate");
    expect_usage("--bogus", "games --bogus");
    expect_usage("--seed", "play thirty_one --seed");
}

/* --version names the version, the protocol and the games' count. */
static void test_version(void **state)
{
    (void)state;
    struct run r;
    char want[64];
    run_cli(&r, NULL, "--version");
    assert_int_equal(r.code, 0);
    snprintf(want, sizeof want, "protocol 1, %d games", game_registry_count);
    assert_non_null(strstr(r.out, "parlor "));
    assert_non_null(strstr(r.out, want));
    run_free(&r);
}

/* Numbers have one syntax everywhere: a seed in hex (as journals print
 * seeds) plays the same game as its decimal value, and a leading zero is
 * decimal in a game option too. */
static void test_number_syntax(void **state)
{
    (void)state;
    struct run hex, dec;
    run_cli(&hex, NULL,
            "play 'thirty_one(players=02)' --seats random,random --seed 0x1f");
    run_cli(&dec, NULL,
            "play 'thirty_one(players=2)' --seats random,random --seed 31");
    assert_int_equal(hex.code, 0);
    assert_int_equal(dec.code, 0);
    assert_string_equal(hex.out, dec.out);
    run_free(&hex);
    run_free(&dec);
    expect_usage("--seed", "play thirty_one --seed -1");
    expect_usage("--seed", "play thirty_one --seed 0x");
}

/* parlor agents lists every registered agent with every option, in
 * text and JSON, and the two external kinds. */
static void test_agents(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "agents");
    assert_int_equal(r.code, 0);
    for (int i = 0; i < agent_registry_count; i++) {
        const struct agent_def *d = agent_registry[i];
        assert_non_null(strstr(r.out, d->name));
        for (int k = 0; k < d->nparams; k++)
            assert_non_null(strstr(r.out, d->params[k].doc));
    }
    assert_non_null(strstr(r.out, "cmd:COMMAND"));
    assert_non_null(strstr(r.out, "bot:NAME"));
    run_free(&r);
    run_cli(&r, NULL, "agents ismcts --json");
    assert_int_equal(r.code, 0);
    json_t *j = parse_json(r.out);
    assert_string_equal(json_string_value(json_object_get(j, "name")),
                        "ismcts");
    json_t *opt = json_array_get(json_object_get(j, "options"), 0);
    assert_string_equal(json_string_value(json_object_get(opt, "name")),
                        "iters");
    assert_string_equal(json_string_value(json_object_get(opt, "default")),
                        "1000");
    json_decref(j);
    run_free(&r);
    expect_usage("nope", "agents nope");
}

/* Flags that used to be ignored or silently overridden are honoured or
 * refused: games --names --json is a JSON list; rate --csv --json is a
 * usage error; a label naming two agents says so. */
static void test_flag_combinations(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "games --names --json");
    assert_int_equal(r.code, 0);
    json_t *j = parse_json(r.out);
    assert_int_equal(json_array_size(j), game_registry_count);
    assert_string_equal(json_string_value(json_array_get(j, 0)),
                        game_registry[0]->name);
    json_decref(j);
    run_free(&r);
    expect_usage("--json", "rate nowhere --csv --json");
    run_cli(
        &r, NULL,
        "tournament --game dice --agents a=random,a=pimc --out /nonexistent");
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "label 'a' names two agents"));
    run_free(&r);
}

/* ZeroMQ takes a tcp port modulo 65536 (99999 listens on 34463): ports
 * outside 1..65535 and non-numeric ones other than '*' are refused. */
static void test_endpoint_ports(void **state)
{
    (void)state;
    static const char *const bad[] = {"99999", "65536", "0", "http", "",
                                      "12a"};
    char args[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "serve --bind tcp://127.0.0.1:%s", bad[i]);
        expect_usage("1 to 65535", args);
        snprintf(args, sizeof args,
                 "tournament --game dice --agents random,random --out "
                 "/nonexistent --arena tcp://127.0.0.1:%s",
                 bad[i]);
        expect_usage("1 to 65535", args);
    }
    expect_usage("needs --arena", "tournament --game dice --agents "
                                  "random,random --out /nonexistent "
                                  "--bot-wait 5");
}

static void test_games_list(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "games");
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "spoil_five"));
    assert_non_null(strstr(r.out, "thirty_one"));
    run_free(&r);

    /* --names: exactly the registry, in order, one a line. */
    char want[1024] = "";
    for (int i = 0; i < game_registry_count; i++)
        strcat(strcat(want, game_registry[i]->name), "\n");
    run_cli(&r, NULL, "games --names");
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, want);
    run_free(&r);
}

static void test_games_list_json(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "games --json");
    assert_int_equal(r.code, 0);
    json_t *j = parse_json(r.out);
    assert_true(json_is_array(j));
    assert_int_equal(json_array_size(j), game_registry_count);
    for (int i = 0; i < game_registry_count; i++) {
        json_t *e = json_array_get(j, (size_t)i);
        assert_string_equal(json_string_value(json_object_get(e, "name")),
                            game_registry[i]->name);
    }
    json_decref(j);
    run_free(&r);
}

/* The option table has a line "  NAME  TYPE  DEFAULT  ALLOWED  DOC". */
static void expect_option_line(const char *out, const struct param_def *p)
{
    char head[128], def[64], allowed[256];
    snprintf(head, sizeof head, "\n  %s ", p->name);
    params_value_str(p, p->def, def, sizeof def);
    params_allowed_str(p, allowed, sizeof allowed);
    const char *line = strstr(out, head);
    if (!line)
        fail_msg("option %s is not listed", p->name);
    char *text = strndup(line + 1, strcspn(line + 1, "\n"));
    char *words = strtok(text + strlen(head) - 1, " ");
    /* After the name: the type, then the default, then the range. */
    assert_non_null(words);
    words = strtok(NULL, " ");
    assert_non_null(words);
    assert_string_equal(words, def);
    words = strtok(NULL, " ");
    assert_non_null(words);
    assert_string_equal(words, allowed);
    free(text);
}

/* Every option of every game is listed with its default and range. */
static void test_games_describe(void **state)
{
    (void)state;
    for (int i = 0; i < game_registry_count; i++) {
        const struct game_def *d = game_registry[i];
        struct run r;
        run_cli(&r, NULL, "games %s", d->name);
        assert_int_equal(r.code, 0);
        assert_non_null(strstr(r.out, d->long_name));
        for (int k = 0; k < d->nparams; k++)
            expect_option_line(r.out, &d->params[k]);
        assert_non_null(strstr(r.out, "observation layout"));
        assert_non_null(strstr(r.out, "actions"));
        run_free(&r);
    }
}

/* Whether an option's help cites the developers' rule notes rather than
 * explaining: "RULES.md", "seed" (a rule book by file) or a note label
 * such as "G7", "E7" or "S4" standing alone. */
static bool cites_notes(const char *doc)
{
    if (strstr(doc, "RULES.md") || strstr(doc, "seed"))
        return true;
    for (const char *p = doc; *p; p++)
        if (strchr("GES", p[0]) && p[1] >= '0' && p[1] <= '9' &&
            (p == doc || !isalnum((unsigned char)p[-1])))
            return true;
    return false;
}

/* Every registered game carries its rules reference in the repository:
 * docs/games/NAME.md exists (the test runs from the repository's top, as
 * make test does), parlor games NAME points there, and the source line
 * names real books and pages, never files outside the repository. */
static void test_games_rules_docs(void **state)
{
    (void)state;
    for (int i = 0; i < game_registry_count; i++) {
        const struct game_def *d = game_registry[i];
        char path[256], line[300];
        snprintf(path, sizeof path, "docs/games/%s.md", d->name);
        snprintf(line, sizeof line, "rules:   %s\n", path);
        if (access(path, R_OK) != 0)
            fail_msg("%s: no rules reference %s", d->name, path);
        struct run r;
        run_cli(&r, NULL, "games %s", d->name);
        assert_int_equal(r.code, 0);
        assert_non_null(strstr(r.out, line));
        run_free(&r);
        assert_non_null(d->source);
        assert_null(strstr(d->source, "RULES.md"));
        assert_null(strstr(d->source, "shared"));
        assert_null(strstr(d->source, "seed"));
        assert_non_null(strstr(d->source, path));
        for (int k = 0; k < d->nparams; k++)
            if (cites_notes(d->params[k].doc))
                fail_msg("%s: option %s cites notes users do not have: %s",
                         d->name, d->params[k].name, d->params[k].doc);
    }
}

/* A spec instead of a name describes that configuration: the players
 * asked for, and the dimensions the library computes for it. */
static void test_games_describe_json(void **state)
{
    (void)state;
    struct game g;
    struct run r;
    make_game(&g, "thirty_one(players=2)");
    run_cli(&r, NULL, "games 'thirty_one(players=2)' --json");
    assert_int_equal(r.code, 0);
    json_t *j = parse_json(r.out);
    json_t *cfg = json_object_get(j, "config");
    assert_int_equal(json_integer_value(json_object_get(cfg, "players")), 2);
    assert_int_equal(json_integer_value(json_object_get(cfg, "num_actions")),
                     g.dims.num_actions);
    assert_int_equal(json_integer_value(json_object_get(cfg, "obs_size")),
                     g.dims.obs_size);
    assert_int_equal(json_array_size(json_object_get(j, "actions")),
                     g.dims.num_actions);
    assert_int_equal(json_array_size(json_object_get(j, "options")),
                     g.def->nparams);
    assert_true(json_array_size(json_object_get(j, "obs_layout")) > 0);
    assert_true(json_array_size(json_object_get(j, "legal_at_start")) > 0);
    json_decref(j);
    run_free(&r);
}

/* ---- bad input --------------------------------------------------------- */

static void test_unknown_names(void **state)
{
    (void)state;
    expect_usage("nosuchgame", "games nosuchgame");
    expect_usage("bogus", "games 'thirty_one(bogus=1)'");
    expect_usage("99", "games 'thirty_one(players=99)'");
    expect_usage("players", "bench 'spoil_five(players=99)'");
    expect_usage("nosuchgame", "play nosuchgame --seats random,random");
    expect_usage("nobot", "play 'thirty_one(players=2)' --seats random,nobot");
    expect_usage("abc", "bench thirty_one --seconds abc");
    expect_usage("ZZ", "play 'thirty_one(players=2)' --seats random,random "
                       "--deck 'AS ZZ'");
}

/* Malformed input is refused with exit 2, never a crash. */
static void test_bad_input(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "games '('",
        "games 'thirty_one(players=)'",
        "games 'thirty_one(players=2'",
        "games a b",
        "play",
        "play 'thirty_one(players=2)' --seats ,",
        "play 'thirty_one(players=2)' --seats 'random(seed=-1),random'",
        "play 'thirty_one(players=2)' --seats random,random,random",
        "play 'thirty_one(players=2)' --seats random,random --seed -3",
        "play 'thirty_one(players=2)' --seats random,random --deck 'AS AS'",
        "bench",
        "bench thirty_one --seconds -1",
        "bench thirty_one --seconds nan",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct run r;
        run_cli(&r, NULL, "%s", bad[i]);
        if (r.code != 2)
            fail_msg("parlor %s: exit %d (wanted 2), stderr: %s", bad[i],
                     r.code, r.err);
        run_free(&r);
    }
}

/* ---- play -------------------------------------------------------------- */

static void test_play_bots(void **state)
{
    (void)state;
    for (int i = 0; i < game_registry_count; i++) {
        char seats[256];
        const char *name = game_registry[i]->name;
        all_random(name, seats, sizeof seats);
        struct run r, again;
        run_cli(&r, NULL, "play %s --seats %s --seed 5", name, seats);
        if (r.code != 0)
            fail_msg("play %s: exit %d: %s", name, r.code, r.err);
        assert_non_null(strstr(r.out, "result"));
        assert_non_null(strstr(r.out, "seat 0 (random)"));
        /* Same seed, same game: the agents are reseeded from --seed. */
        run_cli(&again, NULL, "play %s --seats %s --seed 5", name, seats);
        assert_string_equal(r.out, again.out);
        run_free(&again);
        run_free(&r);
    }
}

/* Enough "1" lines (always the first legal action) to finish a short game;
 * the game is seeded, so the count needed never changes. */
static char *scripted(const char *head)
{
    size_t len = strlen(head);
    char *s = malloc(len + 2 * 5000 + 1);
    assert_non_null(s);
    memcpy(s, head, len);
    for (int i = 0; i < 5000; i++)
        memcpy(s + len + 2 * (size_t)i, "1\n", 2);
    s[len + 2 * 5000] = '\0';
    return s;
}

static void test_play_human(void **state)
{
    (void)state;
    char *input = scripted("zzz\n99\n?\n");
    struct run r;
    run_cli(&r, input,
            "play 'thirty_one(players=2,lives=1)' "
            "--seats human,random --seed 3");
    free(input);
    if (r.code != 0)
        fail_msg("exit %d: %s", r.code, r.err);
    /* The name is refused naming it, the index is out of range, "?"
     * shows the list again: the first move needed four prompts. */
    const char *first = strstr(r.out, "seat 0 (human):");
    assert_non_null(first);
    assert_non_null(strstr(r.out, "'zzz'"));
    assert_non_null(strstr(r.out, "no action 99"));
    char *head = strndup(r.out, (size_t)(first - r.out));
    assert_int_equal(count(head, "seat 0>"), 4);
    assert_int_equal(count(head, "your move"), 2);
    free(head);
    assert_non_null(strstr(r.out, "result"));
    run_free(&r);
}

/* A typed name is accepted; end of input abandons the game with exit 1. */
static void test_play_human_eof(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, "draw\n", "play 'thirty_one(players=2)' --seats human,random");
    assert_int_equal(r.code, 1);
    assert_non_null(strstr(r.out, "seat 0 (human): draw"));
    assert_non_null(strstr(r.err, "input ended"));
    run_free(&r);
}

/* ---- bench ------------------------------------------------------------- */

static void test_bench_json(void **state)
{
    (void)state;
    static const char *const keys[] = {
        "decisions_per_sec", "steps_per_sec",  "deals_per_sec",
        "ns_per_decision",   "obs_ns",         "view_ns",
        "clone_ns",          "determinize_ns", "episodes_per_sec",
        "env_step_ns",       "env_step_ratio", "decision_observe_ns",
        "env_step_overhead", "decision_observe_returns_ns",
        "env_step_own_overhead",
    };
    for (int i = 0; i < game_registry_count; i++) {
        struct run r;
        run_cli(&r, NULL, "bench %s --seconds 0.2 --json",
                game_registry[i]->name);
        if (r.code != 0)
            fail_msg("bench %s: exit %d: %s", game_registry[i]->name, r.code,
                     r.err);
        json_t *j = parse_json(r.out);
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            json_t *v = json_object_get(j, keys[k]);
            if (!json_is_number(v) || !(json_number_value(v) > 0))
                fail_msg("bench %s: %s missing or not positive",
                         game_registry[i]->name, keys[k]);
        }
        const char *hash =
            json_string_value(json_object_get(j, "actions_hash"));
        assert_non_null(hash);
        assert_int_equal(strlen(hash), 16);
        /* 0.2 s of playouts is enough to time */
        assert_true(json_is_false(json_object_get(j, "too_short")));
        json_decref(j);
        run_free(&r);
    }
}

/* --seconds 0 measures one episode: the output says its rates are too
 * short to mean anything, in text and in JSON. */
static void test_bench_too_short(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "bench spoil_five --seconds 0 --json");
    assert_int_equal(r.code, 0);
    json_t *j = parse_json(r.out);
    assert_true(json_is_true(json_object_get(j, "too_short")));
    json_decref(j);
    run_free(&r);
    run_cli(&r, NULL, "bench spoil_five --seconds 0");
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "note: too short to time: "));
    run_free(&r);
}

/* Deals are deals, not episodes: a default Spoil-Five episode plays ten
 * (rule book: the game runs for the agreed number of deals), a Dice
 * episode is one. */
static void test_bench_counts_deals(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int per_episode;
    } cases[] = {{"spoil_five", 10}, {"dice", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct run r;
        run_cli(&r, NULL, "bench %s --seconds 0.05 --json", cases[i].spec);
        assert_int_equal(r.code, 0);
        json_t *j = parse_json(r.out);
        json_int_t ep = json_integer_value(json_object_get(j, "episodes"));
        json_int_t deals = json_integer_value(json_object_get(j, "deals"));
        assert_true(ep > 0);
        assert_int_equal(deals, ep * cases[i].per_episode);
        json_decref(j);
        run_free(&r);
    }
}

/* "bench all" prints a header and one row per registered game, each row
 * ending with that game's actions hash. */
static void test_bench_all_table(void **state)
{
    (void)state;
    struct run r;
    run_cli(&r, NULL, "bench all --seconds 0");
    assert_int_equal(r.code, 0);
    const char *line = r.out;
    assert_non_null(strstr(line, "bench hash"));
    for (int i = 0; i < game_registry_count; i++) {
        line = strchr(line, '\n');
        assert_non_null(line);
        line++;
        size_t n = strlen(game_registry[i]->name);
        if (strncmp(line, game_registry[i]->name, n) || line[n] != ' ')
            fail_msg("row %d is not %s: %.40s", i, game_registry[i]->name,
                     line);
    }
    assert_string_equal(strchr(line, '\n'), "\n");
    run_free(&r);
}

/* The actions hash depends on the seeds alone, not on how long the timed
 * run lasts, and the text output ends with it as "Bench: <hash>". */
static void test_bench_hash_repeats(void **state)
{
    (void)state;
    struct run a, b;
    run_cli(&a, NULL, "bench 'thirty_one(players=3)' --seconds 0 --json");
    run_cli(&b, NULL, "bench 'thirty_one(players=3)' --seconds 0.05");
    assert_int_equal(a.code, 0);
    assert_int_equal(b.code, 0);
    json_t *j = parse_json(a.out);
    char line[64];
    snprintf(line, sizeof line, "Bench: %s\n",
             json_string_value(json_object_get(j, "actions_hash")));
    const char *tail = strstr(b.out, "Bench: ");
    assert_non_null(tail);
    assert_string_equal(tail, line);
    json_decref(j);
    run_free(&a);
    run_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_agents),
        cmocka_unit_test(test_flag_combinations),
        cmocka_unit_test(test_number_syntax),
        cmocka_unit_test(test_endpoint_ports),
        cmocka_unit_test(test_games_list),
        cmocka_unit_test(test_games_list_json),
        cmocka_unit_test(test_games_describe),
        cmocka_unit_test(test_games_describe_json),
        cmocka_unit_test(test_games_rules_docs),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_play_bots),
        cmocka_unit_test(test_play_human),
        cmocka_unit_test(test_play_human_eof),
        cmocka_unit_test(test_bench_json),
        cmocka_unit_test(test_bench_too_short),
        cmocka_unit_test(test_bench_counts_deals),
        cmocka_unit_test(test_bench_all_table),
        cmocka_unit_test(test_bench_hash_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
