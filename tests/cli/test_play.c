/* test_play.c — `parlor play` and `parlor replay` as a user and a script
 * see them (PARLOR_BIN): the events printed between decisions, --json
 * driven live through pipes, ASCII card names, the --deck limit, and the
 * replay of a tournament game by its one-word id.
 *
 * Expected values come from the rules (a trick's winner leads the next;
 * what the deals pay adds up to the result) or from the library (names
 * of the journal's moves), never from the command's own output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first. */
#include <cmocka.h>

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/game.h"
#include "tournament/journal.h"
#include "tournament/schedule.h"

#include "cli_run.h"

/* ---- helpers ----------------------------------------------------------- */

static void make_game(struct game *g, const char *spec)
{
    char err[512];
    if (game_make(g, spec, err, sizeof err))
        fail_msg("game_make(%s): %s", spec, err);
}

/* ---- events ------------------------------------------------------------ */

/* Spoil-Five: the winner of a trick leads to the next one (RULES), a deal
 * has at most five tricks, numbered from 1, and what the deal ends pay
 * adds up, from the returns at the start, to the final result. */
static void check_spoil_five(uint64_t seed)
{
    const char *spec = "spoil_five(players=3)";
    struct game g;
    make_game(&g, spec);
    void *st = malloc(g.def->state_size);
    double ret[GAME_MAX_PLAYERS], sum[3];
    game_init(&g, st, seed, NULL, 0);
    g.def->returns(&g, st, ret);
    memcpy(sum, ret, sizeof sum);
    free(st);
    struct run r;
    run_cli(&r, NULL, "play '%s' --seats random,random,random --seed %llu",
            spec, (unsigned long long)seed);
    assert_int_equal(r.code, 0);
    int winner = -1, last_trick = 0, tricks = 0, deal_ends = 0;
    char *save = NULL;
    for (char *l = strtok_r(r.out, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        int n, s, d;
        double v[3];
        if (sscanf(l, "  * trick %d won by seat %d", &n, &s) == 2 ||
            sscanf(l, "  * trick %d complete", &n) == 1) {
            assert_int_equal(n, last_trick + 1);
            assert_true(n <= 5);
            last_trick = n;
            winner = strstr(l, "won by") ? s : -1;
            tricks++;
        } else if (sscanf(l, "seat %d (", &s) == 1 && winner >= 0) {
            assert_int_equal(s, winner);
            winner = -1;
        } else if (sscanf(l, "  * deal %d", &d) == 1 && strstr(l, " ends")) {
            /* A deal that paid nothing lists no seats. */
            assert_int_equal(d, ++deal_ends);
            if (sscanf(l, "  * deal %d ends: seat 0 %lf, seat 1 %lf, "
                          "seat 2 %lf",
                       &d, &v[0], &v[1], &v[2]) == 4)
                for (int i = 0; i < 3; i++)
                    sum[i] += v[i];
            last_trick = 0;
        } else if (sscanf(l, "  seat %d (random): %lf", &s, &v[0]) == 2) {
            assert_true(s >= 0 && s < 3);
            assert_true(v[0] == sum[s]);
        }
    }
    assert_true(tricks >= 3);
    assert_true(deal_ends >= 1);
    run_free(&r);
}

static void test_play_events(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++)
        check_spoil_five(seed);
}

/* ---- --json through pipes ---------------------------------------------- */

/* A parlor play --json child with its stdin and stdout on pipes. */
struct child {
    pid_t pid;
    FILE *in, *out; /* we write to in, read from out */
};

static void spawn(struct child *c, const char *args)
{
    int to[2], from[2];
    assert_int_equal(pipe(to), 0);
    assert_int_equal(pipe(from), 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "exec timeout -k 10 600 %s %s", PARLOR_BIN,
                 args);
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    c->in = fdopen(to[1], "w");
    c->out = fdopen(from[0], "r");
    assert_non_null(c->in);
    assert_non_null(c->out);
}

/* The next JSON line from c, or NULL at its end. */
static json_t *next_object(struct child *c, char **line, size_t *cap)
{
    json_error_t e;
    if (getline(line, cap, c->out) < 0)
        return NULL;
    json_t *j = json_loads(*line, 0, &e);
    if (!j)
        fail_msg("not one JSON object: %s", *line);
    return j;
}

/* Answers every prompt of a two-person Thirty-One after reading it: by
 * the last legal action's id, or its name on odd turns, with one wrong
 * answer first; each answer must come back as that seat's step. */
static void test_play_json(void **state)
{
    (void)state;
    struct child c;
    spawn(&c, "play 'thirty_one(players=2)' --seats human,human --seed 4 "
              "--json");
    char *line = NULL;
    size_t cap = 0;
    json_t *j;
    int prompts = 0, errors = 0, deal_ends = 0, want = -1, results = 0;
    bool started = false;
    signal(SIGPIPE, SIG_IGN);
    while ((j = next_object(&c, &line, &cap))) {
        const char *type = json_string_value(json_object_get(j, "type"));
        assert_non_null(type);
        if (!strcmp(type, "start")) {
            started = true;
            assert_int_equal(json_array_size(json_object_get(j, "seats")), 2);
        } else if (!strcmp(type, "prompt")) {
            json_t *legal = json_object_get(j, "legal");
            json_t *view = json_object_get(j, "view");
            size_t n = json_array_size(legal);
            /* The structured view is the prompted seat's. */
            assert_true(json_is_object(view));
            assert_int_equal(json_integer_value(json_object_get(view, "seat")),
                             json_integer_value(json_object_get(j, "seat")));
            assert_true(json_is_array(json_object_get(view, "hand")));
            assert_true(n > 0);
            json_t *a = json_array_get(legal, n - 1);
            want = (int)json_integer_value(json_object_get(a, "id"));
            if (prompts == 0)
                fprintf(c.in, "no such move\n");
            if (prompts % 2)
                fprintf(c.in, "%s\n",
                        json_string_value(json_object_get(a, "name")));
            else
                fprintf(c.in, "%d\n", want);
            fflush(c.in);
            prompts++;
        } else if (!strcmp(type, "error")) {
            errors++;
        } else if (!strcmp(type, "step")) {
            assert_int_equal(json_integer_value(json_object_get(j, "action")),
                             want);
            want = -1;
        } else if (!strcmp(type, "event")) {
            const char *ev = json_string_value(json_object_get(j, "event"));
            deal_ends += !strcmp(ev, "deal_end");
        } else if (!strcmp(type, "result")) {
            results++;
            assert_int_equal(json_array_size(json_object_get(j, "returns")),
                             2);
        }
        json_decref(j);
    }
    fclose(c.in);
    fclose(c.out);
    free(line);
    int status;
    assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(started);
    assert_true(prompts > 2);
    assert_int_equal(errors, 1);
    assert_true(deal_ends >= 1);
    assert_int_equal(results, 1);
}

/* ---- ASCII card names -------------------------------------------------- */

/* The ASCII spelling of a standard card's name ("10♥" -> "th"). */
static void ascii_card(const char *name, char *out)
{
    static const char *const sym[4] = {"♣", "♦", "♥", "♠"};
    size_t o = 0;
    if (!strncmp(name, "10", 2)) {
        out[o++] = 't';
        name += 2;
    } else {
        out[o++] = (char)(*name == 'A' || *name > '9' ? *name | 0x20 : *name);
        name++;
    }
    for (int k = 0; k < 4; k++)
        if (!strcmp(name, sym[k]))
            out[o++] = "cdhs"[k];
    out[o] = '\0';
}

/* Plays Spoil-Five from seed, always the first legal action, until some
 * "play" action names a ten; writes the "1" answers given until then and
 * the ten typed alone in ASCII ("th") to input, and the step line that
 * must follow to want. Returns false if no ten came up. */
static bool ascii_script(const struct game *g, uint64_t seed, char *input,
                         char *want)
{
    void *st = malloc(g->def->state_size);
    int *buf = malloc(sizeof(int) * (size_t)g->dims.max_legal);
    char name[GAME_NAME_MAX], typed[8] = "";
    input[0] = '\0';
    game_init(g, st, seed, NULL, 0);
    for (int steps = 0; !typed[0] && !game_is_terminal(g, st); steps++) {
        int seat = game_current_seat(g, st);
        int n = g->def->legal(g, st, seat, buf);
        for (int i = 0; i < n && !typed[0] && n > 1; i++) {
            game_action_name(g, st, buf[i], name, sizeof name);
            if (strncmp(name, "play 10", 7))
                continue;
            ascii_card(name + 5, typed);
            sprintf(want, "seat %d (human): %s\n", seat, name);
        }
        if (!typed[0]) {
            strcat(input, "1\n");
            assert_int_equal(game_apply(g, st, seat, buf[0]), 0);
        }
    }
    strcat(input, typed);
    strcat(input, "\n");
    free(buf);
    free(st);
    return typed[0];
}

/* Two people play Spoil-Five by answering "1" until a ten can be played;
 * the ten is then typed alone, in ASCII with the rank T, and must be
 * played. */
static void test_play_ascii_cards(void **state)
{
    (void)state;
    const char *spec = "spoil_five(players=2)";
    struct game g;
    char input[4096], want[128];
    make_game(&g, spec);
    uint64_t seed = 1;
    while (!ascii_script(&g, seed, input, want))
        assert_true(++seed < 50);
    struct run r;
    run_cli(&r, input, "play '%s' --seats human,human --seed %llu", spec,
            (unsigned long long)seed);
    assert_int_equal(r.code, 1); /* the input then ends */
    if (!strstr(r.out, want))
        fail_msg("wanted '%s' in:\n%s", want, r.out);
    run_free(&r);
}

/* ---- --deck limits ----------------------------------------------------- */

/* n cards: the 20 names over and over, one deal's pack after another. */
static void football_deck(char names[][16], int n, char *deck, size_t len)
{
    size_t used = 0;
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(deck + used, len - used, "%s ",
                                 names[i % 20]);
}

static void test_play_deck_limit(void **state)
{
    (void)state;
    char deck[4096];
    size_t used = 0;
    struct run r;
    /* Dice: at most 64 forced faces (docs/games/dice.md). */
    for (int i = 0; i < 65; i++)
        used += (size_t)snprintf(deck + used, sizeof deck - used, "%d ",
                                 1 + i % 6);
    run_cli(&r, NULL, "play 'dice(players=2)' --seats random,random "
                      "--quiet --deck '%s'",
            deck);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "at most 64"));
    run_free(&r);
    deck[used - 2] = '\0'; /* 64 faces: accepted */
    run_cli(&r, NULL, "play 'dice(players=2)' --seats random,random "
                      "--quiet --deck '%s'",
            deck);
    assert_int_equal(r.code, 0);
    run_free(&r);
    /* Trix Football: 20 cards a deal, scripted for up to 8 deals: a 161st
     * card is a ninth copy of some card. */
    struct game g;
    make_game(&g, "trix_football");
    void *st = malloc(g.def->state_size);
    char names[20][16];
    int nf = 0;
    for (int c = 0; c < g.def->cards->ncards; c++) {
        uint8_t one = (uint8_t)c;
        if (!game_init(&g, st, 1, &one, 1) && nf < 20)
            g.def->cards->name(c, names[nf++], sizeof names[0]);
    }
    free(st);
    assert_int_equal(nf, 20);
    football_deck(names, 161, deck, sizeof deck);
    run_cli(&r, NULL, "play trix_football --seats random,random --quiet "
                      "--deck '%s'",
            deck);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "at most 8 of each card"));
    run_free(&r);
    football_deck(names, 40, deck, sizeof deck); /* two deals: accepted */
    run_cli(&r, NULL, "play trix_football --seats random,random --quiet "
                      "--deck '%s'",
            deck);
    assert_int_equal(r.code, 0);
    run_free(&r);
}

/* ---- replay ------------------------------------------------------------ */

/* Checks that the replay of one journal line prints, step by step, the
 * names of the moves the journal recorded. */
static void check_replay(const char *dir, json_t *head, json_t *rec)
{
    struct game g;
    char err[256], id[64], name[GAME_NAME_MAX], want[256];
    json_t *seats = json_object_get(rec, "seats");
    /* lines since format 2 name neither the game nor the deal's seed:
     * both follow from the header; format 3 lines have no "digits" (read
     * as 0: format 3's moves) */
    make_game(&g, json_string_value(json_object_get(head, "game")));
    const char *text = json_string_value(json_object_get(rec, "moves"));
    int cap = g.dims.max_length, moves[cap];
    int n = journal_moves_decode(
        text, strlen(text), (int)json_integer_value(json_object_get(rec,
                                                                    "digits")),
        moves, cap, err, sizeof err);
    assert_true(n > 0);
    uint64_t seed = schedule_deal_seed(
        strtoull(json_string_value(json_object_get(head, "seed")), NULL, 16),
        json_integer_value(json_object_get(rec, "deal")));
    snprintf(id, sizeof id, "%lld:%lld:%lld",
             json_integer_value(json_object_get(rec, "deal")),
             json_integer_value(json_object_get(rec, "lineup")),
             json_integer_value(json_object_get(rec, "rotation")));
    struct run r;
    run_cli(&r, NULL, "replay %s %s", dir, id);
    assert_int_equal(r.code, 0);
    void *st = malloc(g.def->state_size);
    game_init(&g, st, seed, NULL, 0);
    char *p = r.out;
    for (int i = 0; i < n; i++) {
        int seat = game_current_seat(&g, st);
        game_action_name(&g, st, moves[i], name, sizeof name);
        snprintf(want, sizeof want, "\nseat %d (%s): ", seat,
                 json_string_value(json_array_get(seats, (size_t)seat)));
        p = strstr(p, want);
        assert_non_null(p);
        p += strlen(want);
        assert_memory_equal(p, name, strlen(name));
        assert_int_equal(p[strlen(name)], '\n');
        assert_int_equal(game_apply(&g, st, seat, moves[i]), 0);
    }
    for (size_t s = 0; s < json_array_size(seats); s++) {
        snprintf(want, sizeof want, "\nseat %zu (%s): ", s,
                 json_string_value(json_array_get(seats, s)));
        assert_null(strstr(p, want)); /* no step beyond the journal's */
    }
    assert_non_null(strstr(r.out, "replay matches the journal"));
    free(st);
    run_free(&r);
}

static void test_replay_by_id(void **state)
{
    (void)state;
    char dir[] = "/tmp/parlor-replay-XXXXXX", path[256], cmd[512];
    assert_non_null(mkdtemp(dir));
    struct run r;
    run_cli(&r, NULL,
            "tournament --game 'thirty_one(players=2)' --agents "
            "'random,p=pimc(samples=2)' --deals 2 --jobs 1 --seed 7 "
            "--out %s/t --quiet",
            dir);
    assert_int_equal(r.code, 0);
    run_free(&r);
    snprintf(path, sizeof path, "%s/t/journal.jsonl", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    int games = 0;
    json_t *head = NULL;
    snprintf(path, sizeof path, "%s/t", dir);
    while (getline(&line, &cap, f) > 0) {
        json_t *rec = json_loads(line, 0, NULL);
        assert_non_null(rec);
        if (!head) {
            head = rec;
            continue;
        }
        if (json_object_get(rec, "moves")) {
            check_replay(path, head, rec);
            games++;
        }
        json_decref(rec);
    }
    json_decref(head);
    free(line);
    fclose(f);
    assert_int_equal(games, 4);
    run_cli(&r, NULL, "replay %s 0:0", path);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "DEAL:LINEUP:ROTATION"));
    run_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_events),
        cmocka_unit_test(test_play_json),
        cmocka_unit_test(test_play_ascii_cards),
        cmocka_unit_test(test_play_deck_limit),
        cmocka_unit_test(test_replay_by_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
