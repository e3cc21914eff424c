/* test_journal.c — the results journal: lines written by the fast
 * formatter read back exactly by jansson, a torn last line ignored by
 * readers and cut off on resume, a torn header restarted, corruption and
 * other tournaments' journals refused, a second writer locked out,
 * headers that do not fit their game or the schedule's limits refused,
 * integers too wide for an int refused, not cut; a
 * committed format 1 journal read (and rewritten as format 2 and as
 * format 3 to the same records) and resumed in format 1; a format 2
 * journal read and resumed in format 2; format 3's moves written and
 * decoded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the headers it needs */

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>

#include "common/err.h"
#include "tour_test_util.h"
#include "tournament/run.h"
#include "tournament/schedule.h"

/* ---- fixture ----------------------------------------------------------- */

struct fx {
    char dir[1024];          /* scratch directory */
    char path[1200];         /* its journal */
    struct game g;           /* thirty_one(players=2) */
    struct journal_header h; /* random vs pimc, 10 deals */
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    struct roster r;
    char err[512];
    struct run_opts o = {
        .deals = 10, .max_lineups = 120, .seed = 3, .shard = 1, .nshards = 1};
    tmp_dir(f->dir, sizeof f->dir);
    snprintf(f->path, sizeof f->path, "%s/journal.jsonl", f->dir);
    if (game_make(&f->g, "thirty_one(players=2)", err, sizeof err) ||
        roster_parse(&r, "random,b=pimc(samples=2)", &f->g, err, sizeof err))
        fail_msg("%s", err);
    run_header(&f->h, &f->g, &r, &o, 1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    rm_tree(f->dir);
    free(f);
    return 0;
}

static int count_cb(void *ctx, const struct journal_header *h,
                    const struct journal_record *r, char *err, size_t errlen)
{
    (void)h;
    (void)r;
    (void)err;
    (void)errlen;
    ++*(int *)ctx;
    return 0;
}

static struct journal_record record(int64_t deal, int rotation)
{
    struct journal_record r;
    memset(&r, 0, sizeof r);
    r.deal = deal;
    r.rotation = rotation;
    r.seed = schedule_deal_seed(3, deal);
    r.agent[0] = (int8_t)rotation;
    r.agent[1] = (int8_t)(1 - rotation);
    r.res.ret[0] = 3;
    r.res.ret[1] = -3;
    r.res.rank[0] = 1;
    r.res.rank[1] = 2;
    r.res.length = 20 + (int)deal;
    r.res.wall_us = 1234;
    return r;
}

/* Writes a fresh journal holding recs. */
static void write_journal(struct fx *f, const struct journal_record *recs,
                          int n)
{
    struct journal_writer w;
    struct journal_read_info info;
    char err[512], line[JOURNAL_RECORD_MAX];
    if (journal_open(&w, f->path, &f->h, false, NULL, NULL, &info, err,
                     sizeof err))
        fail_msg("%s", err);
    for (int i = 0; i < n; i++) {
        size_t len = journal_format(&w, &f->h, &recs[i], line, sizeof line);
        assert_true(len > 0 && line[len - 1] == '\n');
        assert_int_equal(journal_append(&w, line, len, err, sizeof err), 0);
    }
    assert_int_equal(journal_close(&w), 0);
}

static void append_raw(const char *path, const char *text)
{
    FILE *fp = fopen(path, "a");
    fputs(text, fp);
    fclose(fp);
}

/* Whether the file at path holds needle. */
static bool file_has(const char *path, const char *needle)
{
    static char text[1 << 16];
    FILE *in = fopen(path, "r");
    size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    text[n] = '\0';
    if (in)
        fclose(in);
    return strstr(text, needle) != NULL;
}

/* ---- tests --------------------------------------------------------------- */

/* Returns that are not integers, a forfeit whose reason holds quotes, a
 * backslash, a line break and non-ASCII bytes: everything reads back, the
 * reason with its unprintable bytes as '?'. */
static void test_round_trip(void **state)
{
    struct fx *f = *state;
    struct journal_record in[2] = {record(0, 0), record(9, 1)};
    struct record_set got = {0};
    in[0].res.ret[0] = 0.1;
    in[0].res.ret[1] = -1.0 / 3;
    in[1].res.forfeit = 2;
    in[1].res.rank[0] = 1;
    in[1].res.rank[1] = 2;
    snprintf(in[1].res.reason, sizeof in[1].res.reason,
             "seat 1: said \"no\" \\ then\nbye \xc3\xa9");
    write_journal(f, in, 2);
    read_records(f->path, &got);
    assert_int_equal(got.n, 2);
    assert_true(got.r[0].res.ret[0] == 0.1);
    assert_true(got.r[0].res.ret[1] == -1.0 / 3);
    assert_int_equal(got.r[1].deal, 9);
    assert_int_equal(got.r[1].res.forfeit, 2);
    assert_string_equal(got.r[1].res.reason,
                        "seat 1: said \"no\" \\ then?bye ??");
    assert_true(got.r[1].seed == schedule_deal_seed(3, 9));
    assert_int_equal(got.r[1].agent[0], 1);
    assert_int_equal(got.r[1].res.length, 29);
    free(got.r);
}

/* Appends every record's moves text (borrowed during the callback). */
static int moves_cb(void *ctx, const struct journal_header *h,
                    const struct journal_record *r, char *err, size_t errlen)
{
    (void)h;
    (void)err;
    (void)errlen;
    char *out = ctx;
    size_t used = strlen(out);
    snprintf(out + used, 128 - used, "%d:%.*s;", r->digits,
             r->moves ? (int)r->moves_len : 1, r->moves ? r->moves : "-");
    return 0;
}

/* Format 2 writes moves in base 36, every id padded to the width of the
 * largest (1296 = 36^2 needs three digits: "100"), and they decode back;
 * a record without moves (older journals) reads with none. */
static void test_moves(void **state)
{
    struct fx *f = *state;
    static const int moves[] = {0, 35, 36, 1295, 1296};
    struct journal_record in[2] = {record(0, 0), record(1, 0)};
    struct journal_read_info info;
    struct journal_header h;
    char text[128] = "", err[512];
    int back[8];
    f->h.format = 2;
    in[0].res.moves = moves;
    in[0].res.nmoves = 5;
    write_journal(f, in, 2);
    assert_int_equal(journal_read(f->path, &h, moves_cb, text, &info, err,
                                  sizeof err),
                     0);
    assert_string_equal(text, "3:00000z0100zz100;0:-;");
    assert_int_equal(journal_moves_decode(text + 2, 15, 3, back, 8, err,
                                          sizeof err),
                     5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(back[i], moves[i]);
    assert_int_equal(journal_moves_decode(text + 2, 15, 3, back, 4, err,
                                          sizeof err),
                     ERR_RANGE);
    assert_int_equal(journal_moves_decode("0A", 2, 1, back, 8, err,
                                          sizeof err),
                     ERR_SYNTAX);
    assert_int_equal(journal_moves_decode("012", 3, 2, back, 8, err,
                                          sizeof err),
                     ERR_SYNTAX);
}

/* Format 3 writes an id below 64 as one character (0-9a-zA-Z-_: 35 is
 * "z", 36 "A", 63 "_"), a larger one as id / 64 in base 28 with the lead
 * characters !#$%&'()*+,./:;<=>?@[]^`{|}~ then id % 64: 64 is "#0" (lead
 * 1), 1295 = 20 * 64 + 15 is "[f" (lead 20 is '['), 1792 = 28 * 64 is
 * "#!0" (28 = "10" in base 28). No "digits" and no "ranks" are written;
 * the ranks read back worked out from the returns. Texts that end inside
 * an id, or hold other characters, are refused. */
static void test_moves_format3(void **state)
{
    struct fx *f = *state;
    static const int moves[] = {0, 35, 36, 63, 64, 1295, 1792};
    struct journal_record in[2] = {record(0, 0), record(1, 0)};
    struct journal_read_info info;
    struct journal_header h;
    struct record_set got = {0};
    char text[128] = "", err[512];
    int back[8];
    in[0].res.moves = moves;
    in[0].res.nmoves = 7;
    in[1].res.moves = moves; /* a game with no moves: empty text */
    in[1].res.nmoves = 0;
    write_journal(f, in, 2);
    assert_false(file_has(f->path, "\"digits\""));
    assert_false(file_has(f->path, "\"ranks\""));
    assert_true(file_has(f->path, "\"format\":3,"));
    assert_int_equal(journal_read(f->path, &h, moves_cb, text, &info, err,
                                  sizeof err),
                     0);
    assert_string_equal(text, "0:0zA_#0[f#!0;0:;");
    assert_int_equal(journal_moves_decode("0zA_#0[f#!0", 11, 0, back, 8, err,
                                          sizeof err),
                     7);
    for (int i = 0; i < 7; i++)
        assert_int_equal(back[i], moves[i]);
    assert_int_equal(journal_moves_decode("0zA_#0[f#!0", 11, 0, back, 6, err,
                                          sizeof err),
                     ERR_RANGE);
    assert_int_equal(journal_moves_decode("0z#", 3, 0, back, 8, err,
                                          sizeof err),
                     ERR_SYNTAX);
    assert_int_equal(journal_moves_decode("0 z", 3, 0, back, 8, err,
                                          sizeof err),
                     ERR_SYNTAX);
    read_records(f->path, &got);
    assert_int_equal(got.n, 2);
    assert_int_equal(got.r[0].res.rank[0], 1); /* returns 3, -3 */
    assert_int_equal(got.r[0].res.rank[1], 2);
    free(got.r);
}

/* Format 3 moves longer than a small buffer: the line does not fit (0,
 * for the caller to try a larger buffer), then fits and decodes back;
 * moves longer than JOURNAL_MOVES_MAX are left out of the line. */
static void test_moves_format3_long(void **state)
{
    struct fx *f = *state;
    struct journal_writer w;
    struct journal_read_info info;
    struct journal_record r = record(0, 0);
    char err[512];
    static char line[JOURNAL_RECORD_MAX];
    static int moves[JOURNAL_MOVES_MAX / 2 + 1], back[3000];
    for (int i = 0; i < JOURNAL_MOVES_MAX / 2 + 1; i++)
        moves[i] = 100 + i % 3; /* two characters each: #A #B #C */
    r.res.moves = moves;
    r.res.nmoves = 3000;
    assert_int_equal(journal_open(&w, f->path, &f->h, false, NULL, NULL,
                                  &info, err, sizeof err),
                     0);
    assert_int_equal(journal_format(&w, &f->h, &r, line, 4096), 0);
    size_t len = journal_format(&w, &f->h, &r, line, sizeof line);
    assert_true(len > 6000);
    char *text = strstr(line, "\"moves\":\"") + 9;
    assert_memory_equal(text, "#A#B#C#A", 8);
    assert_memory_equal(text + 6000, "\"}\n", 3);
    assert_int_equal(journal_moves_decode(text, 6000, 0, back, 3000, err,
                                          sizeof err),
                     3000);
    for (int i = 0; i < 3000; i++)
        assert_int_equal(back[i], moves[i]);
    r.res.nmoves = JOURNAL_MOVES_MAX / 2 + 1; /* 2 characters past it */
    len = journal_format(&w, &f->h, &r, line, sizeof line);
    assert_true(len > 0 && len < 400);
    assert_null(strstr(line, "\"moves\""));
    assert_int_equal(journal_close(&w), 0);
}

/* Format 3 moves in runs of short ids broken by a long one: the
 * characters worked out by hand (10 = 'a', 36 = 'A', 62 = '-', 63 = '_',
 * 64 = "#0"). */
static void test_moves_format3_runs(void **state)
{
    struct fx *f = *state;
    struct journal_writer w;
    struct journal_read_info info;
    struct journal_record r = record(0, 0);
    char err[512], line[1024];
    static const int moves[] = {1,  2,  3,  4,  5,  6,  7,  8,  9, 10,
                                64, 11, 12, 13, 14, 15, 63, 62, 36};
    r.res.moves = moves;
    r.res.nmoves = 19;
    assert_int_equal(journal_open(&w, f->path, &f->h, false, NULL, NULL,
                                  &info, err, sizeof err),
                     0);
    assert_true(journal_format(&w, &f->h, &r, line, sizeof line) > 0);
    assert_non_null(strstr(line, "\"moves\":\"123456789a#0bcdef_-A\"}\n"));
    r.res.nmoves = 16; /* the long id inside */
    assert_true(journal_format(&w, &f->h, &r, line, sizeof line) > 0);
    assert_non_null(strstr(line, "\"moves\":\"123456789a#0bcdef\"}\n"));
    r.res.nmoves = 8; /* short ids only */
    assert_true(journal_format(&w, &f->h, &r, line, sizeof line) > 0);
    assert_non_null(strstr(line, "\"moves\":\"12345678\"}\n"));
    assert_int_equal(journal_close(&w), 0);
}

/* The writer's quick path for the usual line (format 3, normal end,
 * integer returns) writes the same bytes as the general one, which it
 * leaves to lines with less room than the quick path asks for: records
 * with large and negative numbers, written with ample room and with room
 * for exactly their line, agree; no room for the last byte: 0. */
static void test_format_paths_agree(void **state)
{
    struct fx *f = *state;
    struct journal_writer w;
    struct journal_read_info info;
    static const int moves[] = {0, 63, 64, 5000, 7};
    struct journal_record in[3] = {record(0, 0), record(9, 1),
                                   record(123456789, 0)};
    char err[512], quick[4096], general[4096];
    in[1].res.ret[0] = -120;
    in[1].res.ret[1] = 0;
    in[1].res.moves = moves;
    in[1].res.nmoves = 5;
    in[2].lineup = 99;
    in[2].res.ret[0] = 999999999999999; /* 15 digits: still an integer */
    in[2].res.ret[1] = -999999999999999;
    in[2].res.length = 1000000;
    in[2].res.wall_us = INT64_MAX;
    in[2].res.moves = moves;
    in[2].res.nmoves = 0;
    assert_int_equal(journal_open(&w, f->path, &f->h, false, NULL, NULL,
                                  &info, err, sizeof err),
                     0);
    for (int i = 0; i < 3; i++) {
        size_t n = journal_format(&w, &f->h, &in[i], quick, sizeof quick);
        assert_true(n > 0);
        assert_int_equal(journal_format(&w, &f->h, &in[i], general, n), n);
        assert_memory_equal(quick, general, n);
        assert_int_equal(journal_format(&w, &f->h, &in[i], general, n - 1),
                         0);
    }
    assert_non_null(strstr(quick, "\"returns\":[999999999999999,"
                                  "-999999999999999],\"length\":1000000,"
                                  "\"wall_us\":9223372036854775807,"));
    assert_int_equal(journal_close(&w), 0);
}

/* A new journal's header and name are flushed by the first journal_sync
 * (a run's workers start without waiting for the disk), and a sync or
 * close after nothing new was written has nothing to flush. */
static void test_sync_deferred(void **state)
{
    struct fx *f = *state;
    struct journal_writer w;
    struct journal_read_info info;
    struct journal_record r = record(0, 0);
    struct journal_header h;
    char err[512], line[4096];
    assert_int_equal(journal_open(&w, f->path, &f->h, false, NULL, NULL,
                                  &info, err, sizeof err),
                     0);
    assert_true(w.unsynced && w.dir_unsynced);
    assert_int_equal(journal_sync(&w, err, sizeof err), 0);
    assert_false(w.unsynced || w.dir_unsynced);
    size_t n = journal_format(&w, &f->h, &r, line, sizeof line);
    assert_int_equal(journal_write(&w, line, n, err, sizeof err), 0);
    assert_true(w.unsynced);
    assert_false(w.dir_unsynced);
    assert_int_equal(journal_sync(&w, err, sizeof err), 0);
    assert_false(w.unsynced);
    assert_int_equal(journal_close(&w), 0);
    int k = 0;
    assert_int_equal(journal_read(f->path, &h, count_cb, &k, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(k, 1);
}

/* A line cut short at the end is not a record: readers skip it, resuming
 * truncates the file to the last whole line. */
static void test_torn_tail(void **state)
{
    struct fx *f = *state;
    struct journal_record in[2] = {record(1, 0), record(1, 1)};
    struct journal_header h;
    struct journal_read_info info;
    struct journal_writer w;
    struct stat sb;
    char err[512];
    int n = 0;
    write_journal(f, in, 2);
    stat(f->path, &sb);
    off_t whole = sb.st_size;
    append_raw(f->path, "{\"type\":\"game\",\"spec\":\"thirty_o");
    assert_int_equal(
        journal_read(f->path, &h, count_cb, &n, &info, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_true(info.torn);
    assert_int_equal(info.good_bytes, whole);
    n = 0;
    assert_int_equal(journal_open(&w, f->path, &f->h, true, count_cb, &n, &info,
                                  err, sizeof err),
                     0);
    assert_int_equal(n, 2);
    journal_close(&w);
    stat(f->path, &sb);
    assert_int_equal(sb.st_size, whole);
}

/* A header cut short (a crash right after creating the file): resuming
 * starts the journal again. */
static void test_torn_header(void **state)
{
    struct fx *f = *state;
    struct journal_writer w;
    struct journal_read_info info;
    struct journal_header h;
    char err[512];
    int n = 0;
    append_raw(f->path, "{\"journal\":\"parlor-tour");
    assert_int_equal(journal_open(&w, f->path, &f->h, true, count_cb, &n, &info,
                                  err, sizeof err),
                     0);
    journal_close(&w);
    assert_int_equal(
        journal_read(f->path, &h, NULL, NULL, &info, err, sizeof err), 0);
    assert_true(info.has_header);
    assert_string_equal(h.game, "thirty_one(players=2)");
    assert_int_equal(count_lines(f->path), 1);
}

/* A bad line that is not the last is corruption, reported by line. */
static void test_corrupt_middle(void **state)
{
    struct fx *f = *state;
    struct journal_record in[1] = {record(2, 0)};
    struct journal_header h;
    struct journal_read_info info;
    char err[512];
    int n = 0;
    write_journal(f, in, 1);
    append_raw(f->path, "{\"type\":\"game\"}\n");
    assert_int_equal(
        journal_read(f->path, &h, count_cb, &n, &info, err, sizeof err),
        ERR_SYNTAX);
    assert_non_null(strstr(err, "line 3"));
}

/* Results already there: refused without resume; resuming with another
 * tournament's identity is refused naming the difference; a second writer
 * is locked out. */
static void test_refusals(void **state)
{
    struct fx *f = *state;
    struct journal_record in[1] = {record(0, 0)};
    struct journal_writer w, w2;
    struct journal_read_info info;
    struct journal_header other = f->h;
    char err[512];
    write_journal(f, in, 1);
    assert_int_equal(journal_open(&w, f->path, &f->h, false, NULL, NULL, &info,
                                  err, sizeof err),
                     ERR_STATE);
    assert_non_null(strstr(err, "--resume"));
    other.deals = 11;
    other.games = 22;
    assert_int_equal(journal_open(&w, f->path, &other, true, count_cb,
                                  &(int){0}, &info, err, sizeof err),
                     ERR_INVAL);
    assert_non_null(strstr(err, "another tournament"));
    assert_non_null(strstr(err, "deals"));
    assert_int_equal(journal_open(&w, f->path, &f->h, true, count_cb, &(int){0},
                                  &info, err, sizeof err),
                     0);
    assert_int_equal(journal_open(&w2, f->path, &f->h, true, count_cb,
                                  &(int){0}, &info, err, sizeof err),
                     ERR_STATE);
    assert_non_null(strstr(err, "another parlor tournament"));
    journal_close(&w);
}

/* A game line naming an agent, deal or seed the header does not know, or
 * with moves that do not decode, is refused. */
static void test_bad_records(void **state)
{
    struct fx *f = *state;
    struct journal_header h;
    struct journal_read_info info;
    char err[512];
    static const char *const bad[] = {
        "\"seats\":[\"random\",\"nobody\"]",
        "\"deal\":10",
        "\"seed\":\"xyz\"",
        "\"digits\":1,\"moves\":\"01A\"",
        "\"digits\":2,\"moves\":\"012\"",
        "\"digits\":0,\"moves\":\"\"",
        "\"digits\":1,\"moves\":[0,1]",
        "\"moves\":\"0#\"",  /* format 3: ends inside an id */
        "\"moves\":\"0 1\"", /* format 3: not a move character */
    };
    for (int i = 0; i < 9; i++) {
        char line[1024];
        write_journal(f, NULL, 0);
        snprintf(line, sizeof line,
                 "{\"type\":\"game\",\"spec\":\"thirty_one(players=2)\","
                 "\"deal\":0,\"lineup\":0,\"rotation\":0,"
                 "\"seed\":\"0000000000000001\",\"seats\":[\"random\",\"b\"],"
                 "\"returns\":[1,-1],\"ranks\":[1,2],\"length\":3,"
                 "\"wall_us\":1,\"end\":\"normal\",%s}\n",
                 bad[i]);
        /* A repeated key's last value wins in jansson: the bad one. */
        append_raw(f->path, line);
        int rc = journal_read(f->path, &h, count_cb, &(int){0}, &info, err,
                              sizeof err);
        assert_true(rc == ERR_INVAL || rc == ERR_SYNTAX);
        assert_non_null(strstr(err, "line 2"));
        remove(f->path);
    }
}

/* Writes a journal at path whose header has game and the fields given
 * (sides, seats, teams, games, and any replacing the defaults: a
 * repeated key's last value wins in jansson), then line (may be NULL). */
static void write_header(const char *path, const char *game,
                         const char *fields, const char *line)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp,
            "{\"journal\":\"parlor-tournament\",\"format\":3,\"game\":\"%s\","
            "\"agents\":[{\"name\":\"random\",\"spec\":\"random\"},"
            "{\"name\":\"b\",\"spec\":\"random(seed=2)\"}],\"deals\":10,"
            "\"seed\":\"3\",\"max_lineups\":120,\"lineups\":1,\"shard\":1,"
            "\"shards\":1,%s}\n%s",
            game, fields, line ? line : "");
    fclose(fp);
}

/* A header is refused, saying what is wrong and what is allowed, when
 * its seats, sides or teams are not those of its game (readers size
 * their seat loops by one or the other: two seats for a six-player game
 * had `parlor replay` print labels never set), when its game is unknown,
 * when it claims more deals than `parlor tournament` plays, and when an
 * integer needs more than 32 bits (read as int, seats 2^32 + 2 passed as
 * 2 and format 2^32 + 3 as 3). */
static void test_bad_headers(void **state)
{
    struct fx *f = *state;
    static const struct {
        const char *game, *fields, *says;
    } bad[] = {
        {"thirty_one(players=6)",
         "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":20",
         "header: 2 seats in 2 sides, teams [0,1], but game "
         "thirty_one(players=6) has 6 seats in 6 sides, teams "
         "[0,1,2,3,4,5]"},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":2,\"teams\":[1,0],\"games\":20",
         "teams [1,0], but game thirty_one(players=2) has 2 seats in 2 "
         "sides, teams [0,1]"},
        {"forty_two", "\"sides\":4,\"seats\":4,\"teams\":[0,1,2,3],\"games\":40",
         "4 seats in 4 sides, teams [0,1,2,3], but game forty_two has 4 "
         "seats in 2 sides, teams [0,1,0,1]"},
        {"nosuch", "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":20",
         "header: game nosuch: "},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":4294967298,\"teams\":[0,1],\"games\":20",
         "header: seats 4294967298 is out of range: 1 to 16 allowed"},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"deals\":8589934592,"
         "\"games\":17179869184",
         "header: deals 8589934592 is out of range: 1 to 1000000000 "
         "allowed"},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":20,"
         "\"lineups\":4294967297",
         "header: lineups 4294967297 is out of range: 1 to 100000 allowed"},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":20,"
         "\"shard\":4294967297",
         "header: shard 4294967297 is out of range: 1 to 1 allowed"},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":20,"
         "\"format\":4294967299",
         "journal format 4294967299; this parlor reads formats 1 to 3"},
        {"thirty_one(players=2)",
         "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":21",
         "10 deals x 1 line-ups x 2 sides but 21 games"},
    };
    struct journal_header h;
    struct journal_read_info info;
    char err[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_header(f->path, bad[i].game, bad[i].fields, NULL);
        int rc = journal_read(f->path, &h, NULL, NULL, &info, err, sizeof err);
        if (rc != ERR_INVAL && rc != ERR_SYNTAX)
            fail_msg("case %zu: rc %d, not refused (%s)", i, rc, err);
        if (!strstr(err, bad[i].says) || !strstr(err, "line 1"))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].says);
    }
    /* The same header with its game's own seats and teams is read. */
    write_header(f->path, "forty_two",
                 "\"sides\":2,\"seats\":4,\"teams\":[0,1,0,1],\"games\":20",
                 NULL);
    assert_int_equal(journal_read(f->path, &h, NULL, NULL, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(h.seats, 4);
    assert_int_equal(h.sides, 2);
}

/* A game line's line-up, rotation or length that needs more than 32 bits
 * is refused with its value and range: read as int, line-up 2^32 passed
 * as line-up 0, a key the schedule knows. */
static void test_wide_record_ints(void **state)
{
    struct fx *f = *state;
    static const struct {
        const char *field, *says;
    } bad[] = {
        {"\"lineup\":4294967296", "lineup 4294967296 is out of range: 0 to 0 "
                                  "allowed"},
        {"\"rotation\":4294967297", "rotation 4294967297 is out of range: 0 "
                                    "to 1 allowed"},
        {"\"length\":4294967299", "length 4294967299 is out of range: 0 to "
                                  "2147483647 allowed"},
        {"\"lineup\":-1", "lineup -1 is out of range"},
    };
    struct journal_header h;
    struct journal_read_info info;
    char err[512], line[1024];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(line, sizeof line,
                 "{\"type\":\"game\",\"deal\":0,\"lineup\":0,\"rotation\":0,"
                 "\"seats\":[\"random\",\"b\"],\"returns\":[1,-1],"
                 "\"length\":3,\"wall_us\":1,\"end\":\"normal\",%s}\n",
                 bad[i].field);
        write_header(f->path, "thirty_one(players=2)",
                     "\"sides\":2,\"seats\":2,\"teams\":[0,1],\"games\":20",
                     line);
        int count = 0;
        assert_int_equal(journal_read(f->path, &h, count_cb, &count, &info,
                                      err, sizeof err),
                         ERR_INVAL);
        assert_int_equal(count, 0);
        if (!strstr(err, bad[i].says) || !strstr(err, "line 2"))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].says);
    }
}

/* ---- format 1 ------------------------------------------------------------ */

#define FORMAT1 "tests/tournament/fixtures/journal-format1.jsonl"
#define FORMAT1_GAMES 12 /* 2 deals x 3 line-ups x 2 rotations */

/* Copies the lines of from that hold keep to to; returns how many it
 * left out. */
static int copy_lines_with(const char *from, const char *to, const char *keep)
{
    char line[8192];
    int left_out = 0;
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    assert_non_null(in);
    assert_non_null(out);
    while (fgets(line, sizeof line, in)) {
        if (strstr(line, keep))
            fputs(line, out);
        else
            left_out++;
    }
    fclose(in);
    fclose(out);
    return left_out;
}

/* Writes every record read (moves decoded) to the writer ctx. */
static int rewrite_cb(void *ctx, const struct journal_header *h,
                      const struct journal_record *r, char *err, size_t errlen)
{
    struct journal_writer *w = ctx;
    struct journal_record copy = *r;
    static int moves[4096];
    static char line[1 << 16];
    int n = r->moves ? journal_moves_decode(r->moves, r->moves_len, r->digits,
                                            moves, 4096, err, errlen)
                     : 0;
    assert_true(n >= 0);
    copy.res.moves = r->moves ? moves : NULL;
    copy.res.nmoves = n;
    size_t len = journal_format(w, h, &copy, line, sizeof line);
    assert_true(len > 0);
    return journal_append(w, line, len, err, errlen);
}

/* Writes the committed format 1 journal again at path in format (a new
 * journal is written in its header's format); returns its header, which
 * the caller frees. */
static struct journal_header *rewrite_format1(const char *path, int format)
{
    struct journal_header *h = malloc(sizeof *h);
    struct journal_read_info info;
    struct journal_writer w;
    char err[512];
    assert_non_null(h);
    assert_int_equal(journal_read(FORMAT1, h, NULL, NULL, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(h->format, 1);
    h->format = format;
    assert_int_equal(journal_open(&w, path, h, false, NULL, NULL, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(journal_read(FORMAT1, h, rewrite_cb, &w, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(journal_close(&w), 0);
    return h;
}

/* A format 1 journal (written by parlor before format 2, committed)
 * still reads: written again as format 2, which leaves out the game spec
 * and the deal seeds, it reads back as the same records, the seeds
 * worked out from the header, in lines at least 50 bytes shorter (a spec
 * of 21 characters, a 16-digit seed, their keys, quotes and commas: 57). */
static void test_format1_read(void **state)
{
    struct fx *f = *state;
    struct journal_header *h = rewrite_format1(f->path, 2);
    struct journal_read_info info;
    struct record_set old = {0}, now = {0};
    struct stat a, b;
    char err[512];
    assert_int_equal(journal_read(f->path, h, NULL, NULL, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(h->format, 2);
    assert_true(file_has(f->path, "\"format\":2,"));
    assert_true(file_has(FORMAT1, "\"seed\":\"044c3cd7f43c661c\""));
    assert_false(file_has(f->path, "\"seed\":\"044c3cd7f43c661c\""));
    assert_true(file_has(f->path, "\"ranks\":[2,1]"));
    assert_false(file_has(f->path, "\"spec\":\"thirty"));
    read_records(FORMAT1, &old);
    read_records(f->path, &now);
    assert_int_equal(old.n, FORMAT1_GAMES);
    assert_same_records(&old, &now);
    /* Spot checks against the fixture's text: deal 1's seed, a forfeit
     * by seat 0 ranked last. */
    assert_true(now.r[11].seed == 0x45dd5ff6e31d6687u);
    assert_int_equal(now.r[11].res.forfeit, 1);
    assert_int_equal(now.r[11].res.rank[0], 2);
    assert_int_equal(now.r[11].res.rank[1], 1);
    stat(FORMAT1, &a);
    stat(f->path, &b);
    assert_true(a.st_size - b.st_size >= 50 * FORMAT1_GAMES);
    free(old.r);
    free(now.r);
    free(h);
}

/* Resumes the committed journal fixture, of the given format, after
 * the games of a against b are cut from it (random against random, so
 * they come out as recorded); bad, a command that never says hello, is
 * not seated again: its recorded forfeits stay as they were, and a bot
 * that cannot start would stop the run (run.h). The finished journal is
 * the committed one, line for line but for wall times (forfeits
 * included: their ranks, which the workers do not hand over, worked out
 * again by the writer), and still in its own format. */
static void resume_fixture(struct fx *f, const char *fixture, int format)
{
    struct record_set want = {0}, got = {0};
    struct run_stats st;
    char err[1024], fmt[32];
    struct run_opts o = {.game = "thirty_one(players=2)",
                         .agents = "a=random,b=random,bad=cmd:/bin/false",
                         .deals = 2,
                         .max_lineups = 120,
                         .seed = 7,
                         .jobs = 1,
                         .out_dir = f->dir,
                         .resume = true,
                         .shard = 1,
                         .nshards = 1};
    assert_int_equal(copy_lines_with(fixture, f->path, "\"bad\""), 4);
    if (run_tournament(&o, &st, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(st.already, 8);
    assert_int_equal(st.played, FORMAT1_GAMES - 8);
    assert_int_equal(count_lines(f->path), 1 + FORMAT1_GAMES);
    snprintf(fmt, sizeof fmt, "\"format\":%d,", format);
    assert_true(file_has(f->path, fmt));
    if (format == 2) /* ranks, base-36 moves with digits */
        assert_true(file_has(f->path,
                             "\"deal\":0,\"lineup\":0,\"rotation\":0,"
                             "\"seats\":[\"a\",\"b\"],\"returns\":[-3,3],"
                             "\"ranks\":[2,1]"));
    read_records(fixture, &want);
    read_records(f->path, &got);
    assert_same_records(&want, &got);
    free(want.r);
    free(got.r);
}

/* Resuming a format 1 journal goes on in format 1. */
static void test_format1_resume(void **state)
{
    resume_fixture(*state, FORMAT1, 1);
}

/* ---- formats 2 and 3 ------------------------------------------------------ */

#define FORMAT2 "tests/tournament/fixtures/journal-format2.jsonl"

/* Like collect (tour_test_util.h), but wall_us holds a hash of the moves
 * decoded, and the moves' text and digits are cleared: records of
 * journals whose moves are written differently compare equal. */
static int collect_decoded(void *ctx, const struct journal_header *h,
                           const struct journal_record *r, char *err,
                           size_t errlen)
{
    struct record_set *s = ctx;
    int moves[4096];
    int n = r->moves ? journal_moves_decode(r->moves, r->moves_len, r->digits,
                                            moves, 4096, err, errlen)
                     : -1; /* no moves: not the same as none made */
    if (r->moves && n < 0)
        return n;
    collect(ctx, h, r, err, errlen);
    struct journal_record *c = &s->r[s->n - 1];
    uint64_t hash = 14695981039346656037u ^ (uint64_t)(n + 1);
    for (int i = 0; i < n; i++)
        hash = (hash ^ (uint32_t)moves[i]) * 1099511628211u;
    c->res.wall_us = (int64_t)(hash >> 1);
    c->moves_len = 0;
    c->digits = 0;
    return 0;
}

/* read_records with collect_decoded. */
static void read_decoded(const char *path, struct record_set *s)
{
    struct journal_header *h = malloc(sizeof *h);
    struct journal_read_info info;
    char err[1024];
    if (journal_read(path, h, collect_decoded, s, &info, err, sizeof err))
        fail_msg("%s", err);
    free(h);
    qsort(s->r, (size_t)s->n, sizeof *s->r, record_cmp);
}

/* The format 1 journal written again as format 3 reads back as the same
 * records, moves and ranks included (the forfeit of seat 0 in deal 1
 * ranked last, worked out from the returns and the forfeit), in lines
 * without ranks or digits: at least 82 bytes a line shorter than format
 * 1 (57 for the spec and seed; "ranks":[2,1], is 14, "digits":2, 11),
 * and shorter still by half the moves of two-digit lines (16 of the 32
 * characters of the first line). */
static void test_format3_rewrite(void **state)
{
    struct fx *f = *state;
    struct journal_header *h = rewrite_format1(f->path, 3);
    struct record_set old = {0}, now = {0};
    struct stat a, b;
    assert_true(file_has(f->path, "\"format\":3,"));
    assert_false(file_has(f->path, "\"ranks\""));
    assert_false(file_has(f->path, "\"digits\""));
    /* deal 0's first game: "02001g010d020113010402000f02010i" in base
     * 36, 2 0 52 1 13 2 1 39 1 4 2 0 15 2 1 18 (52 is Q, 39 is D) */
    assert_true(file_has(f->path, "\"moves\":\"20Q1d21D1420f21i\""));
    read_decoded(FORMAT1, &old);
    read_decoded(f->path, &now);
    assert_int_equal(old.n, FORMAT1_GAMES);
    assert_same_records(&old, &now);
    assert_int_equal(now.r[11].res.forfeit, 1);
    assert_int_equal(now.r[11].res.rank[0], 2);
    assert_int_equal(now.r[11].res.rank[1], 1);
    stat(FORMAT1, &a);
    stat(f->path, &b);
    assert_true(a.st_size - b.st_size >= 82 * FORMAT1_GAMES + 16);
    free(old.r);
    free(now.r);
    free(h);
}

/* A format 2 journal (the committed format 1 journal as parlor wrote it
 * in format 2: no spec, no seeds) reads as the same records. */
static void test_format2_read(void **state)
{
    (void)state;
    struct journal_header *h = malloc(sizeof *h);
    struct journal_read_info info;
    struct record_set one = {0}, two = {0};
    char err[512];
    assert_int_equal(journal_read(FORMAT2, h, NULL, NULL, &info, err,
                                  sizeof err),
                     0);
    assert_int_equal(h->format, 2);
    read_records(FORMAT1, &one);
    read_records(FORMAT2, &two);
    assert_int_equal(two.n, FORMAT1_GAMES);
    assert_same_records(&one, &two);
    free(one.r);
    free(two.r);
    free(h);
}

/* Resuming a format 2 journal goes on in format 2 (ranks, base-36 moves
 * with digits). */
static void test_format2_resume(void **state)
{
    resume_fixture(*state, FORMAT2, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_torn_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_torn_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_middle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_moves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_moves_format3, setup, teardown),
        cmocka_unit_test_setup_teardown(test_moves_format3_long, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_moves_format3_runs, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_format_paths_agree, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_sync_deferred, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_records, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_headers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wide_record_ints, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_format1_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format1_resume, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format3_rewrite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format2_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_format2_resume, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
