/* test_commands.c — `parlor tournament`, `rate` and `plot` run as a user
 * would (the built binary, PARLOR_BIN): exit codes, refusals with their
 * reasons, resuming from the journal's header, the JSON and CSV outputs,
 * a format 1 journal rated, replayed and reported, a header that does not
 * fit its game refused, and the plots (or, without gnuplot, the tables and
 * what to install).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the headers it needs */

#include <jansson.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tour_test_util.h"

extern char **environ;

/* One finished run of the binary. */
struct out {
    int code;         /* exit status */
    char json[65536]; /* stdout alone */
    char text[98304]; /* stdout then stderr */
};

static char dir[1024];

/* Reads the file at path into buf (len bytes, NUL-terminated). */
static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs parlor with args (NULL-ended); env NULL keeps the environment. */
static void run(struct out *o, char **env, const char *const *args)
{
    char out_path[1200], err_path[1200], errs[32768];
    const char *argv[32] = {PARLOR_BIN};
    int n = 1, status;
    while (args[n - 1])
        argv[n] = args[n - 1], n++;
    argv[n] = NULL;
    snprintf(out_path, sizeof out_path, "%s/stdout", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
            _exit(99);
        execve(PARLOR_BIN, (char **)argv, env ? env : environ);
        _exit(98);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    o->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    slurp(out_path, o->json, sizeof o->json);
    slurp(err_path, errs, sizeof errs);
    snprintf(o->text, sizeof o->text, "%s%s", o->json, errs);
}

#define RUN(o, ...) run((o), NULL, (const char *const[]){__VA_ARGS__, NULL})

static void expect(const struct out *o, int code, const char *needle)
{
    if (o->code != code || (needle && !strstr(o->text, needle)))
        fail_msg("exit %d (want %d), output:\n%s\n(wanted '%s')", o->code, code,
                 o->text, needle ? needle : "");
}

static int group_setup(void **state)
{
    (void)state;
    tmp_dir(dir, sizeof dir);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    rm_tree(dir); /* with every test's directory in it */
    return 0;
}

/* ---- tests --------------------------------------------------------------- */

static void test_tournament_refusals(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,pimc");
    expect(o, 2, "--out DIR is required");
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,pimc", "--out", dir, "--shard", "3/2");
    expect(o, 2, "--shard wants I/N");
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,nosuch", "--out", dir);
    expect(o, 2, "nosuch");
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,random", "--out", dir);
    expect(o, 2, "label");
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,pimc", "--out", dir, "--deals", "0");
    expect(o, 2, "--deals wants");
    free(o);
}

/* A small tournament, then the refusals and resumes around its journal. */
static void test_tournament_and_resume(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char out[1200];
    snprintf(out, sizeof out, "%s/t", dir);
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,p=pimc(samples=2,playouts=1)", "--deals", "5", "--jobs", "2",
        "--out", out, "--quiet");
    expect(o, 0, "10 games played now");
    assert_non_null(strstr(o->text, "p "));
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,p=pimc(samples=2,playouts=1)", "--deals", "5", "--out", out,
        "--quiet");
    expect(o, 1, "--resume");
    /* Everything from the header: nothing left to play. */
    RUN(o, "tournament", "--out", out, "--resume", "--quiet");
    expect(o, 0, "0 games played now");
    RUN(o, "tournament", "--out", out, "--resume", "--deals", "6", "--quiet");
    expect(o, 2, "another tournament");
    /* The refusal names the agent that differs and both specs. */
    RUN(o, "tournament", "--out", out, "--resume", "--quiet", "--game",
        "thirty_one(players=2)", "--agents",
        "random,p=pimc(samples=3,playouts=1)");
    expect(o, 2, "agent 2 differs: p=pimc(samples=2,playouts=1) there, "
                 "p=pimc(samples=3,playouts=1) here");
    /* No journal: say so and how to start one, not "--game is required". */
    snprintf(out, sizeof out, "%s/none", dir);
    RUN(o, "tournament", "--out", out, "--resume", "--quiet");
    expect(o, 2, "no journal to resume at");
    assert_non_null(strstr(o->text, "--game GAME --agents"));
    free(o);
}

/* Lines in the file at path (0 if it is not there). */
static long lines_in(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = 0;
    for (int c; f && (c = getc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

/* A tournament stopped by sig once its journal holds a finished game
 * exits 128 + sig, keeps what it wrote, and says how to continue. */
static void interrupt_with(int sig, const char *name)
{
    struct out *o = malloc(sizeof *o);
    char out[1200], journal[1300], err_path[1200], want[1500];
    int status;
    snprintf(out, sizeof out, "%s/stopped", dir);
    snprintf(journal, sizeof journal, "%s/journal.jsonl", out);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    rm_tree(out);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) ||
            !freopen(err_path, "w", stderr))
            _exit(99);
        execl(PARLOR_BIN, PARLOR_BIN, "tournament", "--game", "spoil_five",
              "--agents", "random,pimc", "--deals", "100000", "--jobs", "2",
              "--out", out, (char *)NULL);
        _exit(98);
    }
    /* The event waited for: the header and a game on disk (the bounded
     * sleeps only pace the polling; 100000 deals take hours). */
    for (int i = 0; i < 60000 && lines_in(journal) < 2; i++)
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    assert_true(lines_in(journal) >= 2);
    kill(pid, sig);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 128 + sig);
    slurp(err_path, o->text, sizeof o->text);
    snprintf(want, sizeof want, "stopped by %s: ", name);
    if (!strstr(o->text, want))
        fail_msg("no '%s' in:\n%s", want, o->text);
    snprintf(want, sizeof want, "parlor tournament --resume --out '%s'\n",
             out);
    if (!strstr(o->text, want))
        fail_msg("no '%s' in:\n%s", want, o->text);
    /* What was written is whole: rate reads it. */
    RUN(o, "rate", journal);
    expect(o, 0, "pimc");
    rm_tree(out);
    free(o);
}

static void test_interrupt_says_how_to_resume(void **state)
{
    (void)state;
    interrupt_with(SIGINT, "SIGINT");
    interrupt_with(SIGTERM, "SIGTERM");
}

/* The summary's columns stay aligned under a name longer than the usual
 * column: each row's games count ends where the header's "games" does. */
static void test_summary_aligns_long_names(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char out[1200];
    const char *name = "a_very_long_agent_name_that_goes_on_and_on";
    snprintf(out, sizeof out, "%s/long", dir);
    rm_tree(out);
    RUN(o, "tournament", "--game", "dice", "--agents",
        "a_very_long_agent_name_that_goes_on_and_on=random,short=random",
        "--deals", "1", "--out", out, "--quiet");
    expect(o, 0, name);
    const char *head = strstr(o->json, "  agent ");
    const char *row1 = strstr(o->json, "  a_very_long");
    const char *row2 = strstr(o->json, "  short ");
    assert_non_null(head);
    assert_non_null(row1);
    assert_non_null(row2);
    /* the column just after the games field: where "games" ends */
    long end = strstr(head, "games") + 5 - head;
    for (const char *row = row1; row; row = row == row1 ? row2 : NULL) {
        assert_true(row[end - 1] >= '0' && row[end - 1] <= '9');
        assert_true(row[end] == ' ');
    }
    rm_tree(out);
    free(o);
}

/* A corrupt journal line is a runtime error (exit 1), as in `rate`, not a
 * command-line mistake. */
static void test_resume_corrupt_journal(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char out[1200], path[1300];
    snprintf(out, sizeof out, "%s/corrupt", dir);
    RUN(o, "tournament", "--game", "thirty_one(players=2)", "--agents",
        "random,pimc", "--deals", "1", "--out", out, "--quiet");
    expect(o, 0, "2 games played now");
    snprintf(path, sizeof path, "%s/journal.jsonl", out);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("{\"not\": a record}\n", f);
    fclose(f);
    RUN(o, "tournament", "--out", out, "--resume", "--quiet");
    expect(o, 1, "line 4");
    RUN(o, "rate", path);
    expect(o, 1, "line 4");
    free(o);
}

/* A hand-edited journal naming a cmd: agent: --resume refuses to run the
 * command unless --agents repeats it (finding 6 of issue 12). */
static void test_resume_runs_no_journal_command(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char out[1200], path[1300], mark[1300], agents[1400];
    snprintf(out, sizeof out, "%s/edited", dir);
    snprintf(mark, sizeof mark, "%s/ran", dir);
    snprintf(agents, sizeof agents, "random,x=cmd:touch %s", mark);
    assert_int_equal(mkdir(out, 0700), 0);
    snprintf(path, sizeof path, "%s/journal.jsonl", out);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"journal\":\"parlor-tournament\",\"format\":1,\"game\":"
            "\"thirty_one(players=2)\",\"agents\":[{\"name\":\"random\","
            "\"spec\":\"random\"},{\"name\":\"x\",\"spec\":\"cmd:touch %s\"}"
            "],\"deals\":1,\"seed\":\"7\",\"max_lineups\":120,\"lineups\":1,"
            "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":2,\"shard\":1,"
            "\"shards\":1}\n",
            mark);
    fclose(f);
    RUN(o, "tournament", "--out", out, "--resume", "--quiet");
    expect(o, 2, "cmd:touch");
    assert_non_null(strstr(o->text, "--agents"));
    assert_int_equal(access(mark, F_OK), -1);
    /* Named on the command line, it runs; being no bot, it never says
     * hello, and the run stops rather than record forfeits. */
    RUN(o, "tournament", "--out", out, "--resume", "--agents", agents,
        "--quiet");
    expect(o, 1, "agent x could not start (3 tries on deal 0)");
    assert_int_equal(access(mark, F_OK), 0);
    remove(mark);
    remove(path);
    rmdir(out);
    free(o);
}

static void test_rate(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char out[1200];
    json_error_t e;
    snprintf(out, sizeof out, "%s/t", dir);
    RUN(o, "rate", out, "--bootstrap", "100");
    expect(o, 0, "likelihood of superiority");
    assert_non_null(strstr(o->text, "random rated 0"));
    RUN(o, "rate", out, "--csv", "--bootstrap", "0");
    expect(o, 0, "rank,agent,elo,lo,hi,games,score\n");
    RUN(o, "rate", out, "--json", "--bootstrap", "50");
    expect(o, 0, NULL);
    json_t *root = json_loads(o->json, 0, &e);
    assert_non_null(root);
    json_t *list = json_object_get(root, "ratings");
    assert_int_equal(json_array_size(list), 2);
    assert_string_equal(json_string_value(json_object_get(root, "anchor")),
                        "random");
    assert_int_equal(json_integer_value(json_object_get(root, "games")), 10);
    for (size_t i = 0; i < 2; i++) {
        json_t *a = json_array_get(list, i);
        const char *name = json_string_value(json_object_get(a, "agent"));
        double elo = json_real_value(json_object_get(a, "elo"));
        if (!strcmp(name, "random"))
            assert_true(elo == 0);
    }
    json_decref(root);
    RUN(o, "rate", out, "--anchor", "nobody");
    expect(o, 2, "nobody");
    RUN(o, "rate", "/nonexistent/journal.jsonl");
    expect(o, 1, "No such file");
    free(o);
}

/* A format 1 journal (committed, written before format 2) is still
 * rated, replayed (a normal game, a forfeit) and reported. */
static void test_format1_journal(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char sub[1200], path[1300], html[1300];
    struct stat sb;
    snprintf(sub, sizeof sub, "%s/format1", dir);
    snprintf(path, sizeof path, "%s/journal.jsonl", sub);
    snprintf(html, sizeof html, "%s/report.html", sub);
    assert_int_equal(mkdir(sub, 0777), 0);
    FILE *in = fopen("tests/tournament/fixtures/journal-format1.jsonl", "r");
    FILE *out = fopen(path, "w");
    assert_non_null(in);
    assert_non_null(out);
    for (int c; (c = getc(in)) != EOF;)
        putc(c, out);
    fclose(in);
    fclose(out);
    RUN(o, "rate", sub, "--bootstrap", "10");
    expect(o, 0, "12 games over 2 deals");
    /* The forfeits, counted and with their reason (the bot's first one, as
     * the fixture records it: "seat N: input/output error (IO)"). */
    expect(o, 0, "8 games ended by a forfeit (the forfeiting side ranks "
                 "last): bad 8 of 8 (first: input/output error (IO))\n");
    RUN(o, "rate", sub, "--bootstrap", "10", "--json");
    expect(o, 0, NULL);
    json_t *root = json_loads(o->json, 0, NULL);
    json_t *list = json_object_get(root, "ratings");
    assert_int_equal(json_array_size(list), 3);
    for (size_t i = 0; i < 3; i++) {
        json_t *a = json_array_get(list, i);
        json_t *why = json_object_get(a, "forfeit_reason");
        if (!strcmp(json_string_value(json_object_get(a, "agent")), "bad"))
            assert_string_equal(json_string_value(why),
                                "input/output error (IO)");
        else
            assert_true(json_is_null(why));
    }
    json_decref(root);
    RUN(o, "replay", sub, "1", "0", "1");
    expect(o, 0, "replay matches the journal: 29 steps");
    RUN(o, "replay", sub, "1", "1", "1");
    expect(o, 0, "replay matches the journal: 2 steps");
    RUN(o, "report", sub, "--out", html);
    expect(o, 0, NULL);
    assert_int_equal(stat(html, &sb), 0);
    assert_true(sb.st_size > 0);
    rm_tree(sub);
    free(o);
}

/* A journal whose header gives two seats to a six-player game (one
 * record): replay and report refuse it with the mismatch and exit 1;
 * replay once printed labels of seats never set and died of SIGSEGV. */
static void test_header_not_its_game(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char sub[1200], path[1300];
    snprintf(sub, sizeof sub, "%s/six", dir);
    snprintf(path, sizeof path, "%s/journal.jsonl", sub);
    assert_int_equal(mkdir(sub, 0777), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"journal\":\"parlor-tournament\",\"format\":3,\"game\":"
          "\"thirty_one(players=6)\",\"agents\":[{\"name\":\"random\","
          "\"spec\":\"random\"},{\"name\":\"r2\",\"spec\":\"random(seed=2)\"}],"
          "\"deals\":2,\"seed\":\"1\",\"max_lineups\":120,\"lineups\":1,"
          "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":4,\"shard\":1,"
          "\"shards\":1}\n"
          "{\"type\":\"game\",\"deal\":0,\"lineup\":0,\"rotation\":0,"
          "\"seats\":[\"random\",\"r2\"],\"returns\":[3,-3],\"length\":17,"
          "\"wall_us\":6,\"end\":\"normal\",\"moves\":\"20A0R1t20R0k0y21n\"}\n",
          f);
    fclose(f);
    static const char *const says =
        "line 1: header: 2 seats in 2 sides, teams [0,1], but game "
        "thirty_one(players=6) has 6 seats in 6 sides, teams [0,1,2,3,4,5]";
    RUN(o, "replay", path, "0:0:0");
    expect(o, 1, says);
    RUN(o, "report", sub);
    expect(o, 1, says);
    RUN(o, "rate", sub);
    expect(o, 1, says);
    rm_tree(sub);
    free(o);
}

/* --shard auto under the Slurm array variables of one case: task 7 of
 * the array 5-7 is shard 3 of 3; missing or inconsistent variables are
 * refused, naming them. NULL: the variable is not set. */
static void test_shard_auto(void **state)
{
    (void)state;
    static const struct {
        const char *id, *min, *count, *max; /* SLURM_ARRAY_TASK_... */
        int code;                           /* exit status */
        const char *says;                   /* in the output */
    } cases[] = {
        {NULL, NULL, NULL, NULL, 2, "SLURM_ARRAY_TASK_ID is not set"},
        {"7", "5", NULL, NULL, 2, "SLURM_ARRAY_TASK_COUNT is not set"},
        {"8", "5", "3", NULL, 2, "do not fit together"},
        {"7", "5", "3", "9", 2, "contiguous"},
        {"seven", "5", "3", NULL, 2, "SLURM_ARRAY_TASK_ID is 'seven'"},
        {"7", "5", "3", "7", 0, "journal.shard-3-of-3.jsonl"},
    };
    struct out *o = malloc(sizeof *o);
    char out[1200], path[1300], *head = malloc(65536);
    snprintf(out, sizeof out, "%s/slurm", dir);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *vals[] = {cases[k].id, cases[k].min, cases[k].count,
                              cases[k].max};
        static const char *const names[] = {"ID", "MIN", "COUNT", "MAX"};
        char vars[4][64], *env[5];
        int n = 0;
        for (int v = 0; v < 4; v++)
            if (vals[v]) {
                snprintf(vars[n], sizeof vars[n], "SLURM_ARRAY_TASK_%s=%s",
                         names[v], vals[v]);
                env[n] = vars[n], n++;
            }
        env[n] = NULL;
        run(o, env,
            (const char *const[]){"tournament", "--game",
                                  "thirty_one(players=2)", "--agents",
                                  "random,pimc", "--deals", "2", "--out", out,
                                  "--quiet", "--shard", "auto", NULL});
        expect(o, cases[k].code, cases[k].says);
    }
    snprintf(path, sizeof path, "%s/journal.shard-3-of-3.jsonl", out);
    slurp(path, head, 65536);
    assert_non_null(strstr(head, "\"shard\":3,\"shards\":3"));
    free(head);
    free(o);
}

/* Without gnuplot on the PATH: the tables, and what to install. */
static void test_plot_without_gnuplot(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char journal[1200], plots[1200], tsv[1300], path_env[1300];
    struct stat sb;
    snprintf(journal, sizeof journal, "%s/t", dir);
    snprintf(plots, sizeof plots, "%s/bare", dir);
    snprintf(path_env, sizeof path_env, "PATH=%s", plots);
    char *env[] = {path_env, NULL};
    run(o, env,
        (const char *const[]){"plot", journal, "--out", plots, "--bootstrap",
                              "20", "--scripts", "plots", NULL});
    expect(o, 1, "gnuplot-nox");
    for (int k = 0; k < 3; k++) {
        static const char *const names[] = {"ratings", "progress", "h2h"};
        snprintf(tsv, sizeof tsv, "%s/%s.tsv", plots, names[k]);
        assert_int_equal(stat(tsv, &sb), 0);
        assert_true(sb.st_size > 0);
    }
    free(o);
}

static void test_plot(void **state)
{
    (void)state;
    struct out *o = malloc(sizeof *o);
    char journal[1200], plots[1200], file[1300];
    struct stat sb;
    if (system("command -v gnuplot >/dev/null 2>&1")) {
        free(o);
        skip();
    }
    snprintf(journal, sizeof journal, "%s/t", dir);
    snprintf(plots, sizeof plots, "%s/plots", dir);
    RUN(o, "plot", journal, "--out", plots, "--bootstrap", "50");
    expect(o, 0, "ratings.png");
    static const char *const files[] = {"ratings.png",  "ratings.svg",
                                        "progress.png", "progress.svg",
                                        "h2h.png",      "h2h.svg"};
    for (int k = 0; k < 6; k++) {
        snprintf(file, sizeof file, "%s/%s", plots, files[k]);
        assert_int_equal(stat(file, &sb), 0);
        assert_true(sb.st_size > 1000);
    }
    /* The winner is named in the ratings plot's title. */
    char *svg = malloc(1 << 20);
    snprintf(file, sizeof file, "%s/ratings.svg", plots);
    slurp(file, svg, 1 << 20);
    assert_non_null(strstr(svg, "— best: p"));
    free(svg);
    free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tournament_refusals),
        cmocka_unit_test(test_shard_auto),
        cmocka_unit_test(test_tournament_and_resume),
        cmocka_unit_test(test_resume_runs_no_journal_command),
        cmocka_unit_test(test_resume_corrupt_journal),
        cmocka_unit_test(test_interrupt_says_how_to_resume),
        cmocka_unit_test(test_summary_aligns_long_names),
        cmocka_unit_test(test_rate),
        cmocka_unit_test(test_format1_journal),
        cmocka_unit_test(test_header_not_its_game),
        cmocka_unit_test(test_plot_without_gnuplot),
        cmocka_unit_test(test_plot),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
