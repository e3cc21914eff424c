/* journal_line.c — the JSON of one journal line, both ways.
 *
 * The header is built and every line is read with jansson. Game lines are
 * written by the small formatter below instead: building and dumping a
 * jansson object costs about 5-9 µs a record here, more than a whole
 * random two-player game of Thirty-One (1 to 3 µs), and the journal must not
 * slow a tournament down. The formatter writes only numbers, the literal keys,
 * and strings escaped beforehand by jansson (agent names and the game
 * spec once per run, a forfeit's reason when it happens), and every line
 * it writes is read back by jansson in the tests.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "journal_int.h"
#include "schedule.h"

/* ---- format 3 moves --------------------------------------------------- */

/* An id is written as id / 64 in base 28 with the lead characters (none
 * when id < 64), then id % 64 as one last character: ids 0-35 read as in
 * base 36. Neither set needs escaping in JSON. */
#define MOVE_BASE 64      /* last characters */
#define MOVE_LEAD_BASE 28 /* lead characters */
#define MOVE_CHARS_MAX 8  /* characters of the largest id, and more */
static const char move_last[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
static const char move_lead[] = "!#$%&'()*+,./:;<=>?@[]^`{|}~";

/* The value of character c of a format 3 moves text: 0-63 for a last
 * character, MOVE_BASE + 0-27 for a lead one, -1 for neither. */
static int move_char(char c)
{
    const char *at = c ? strchr(move_last, c) : NULL;
    if (at)
        return (int)(at - move_last);
    at = c ? strchr(move_lead, c) : NULL;
    return at ? MOVE_BASE + (int)(at - move_lead) : -1;
}

/* ---- writing ------------------------------------------------------------ */

/* "00" to "99": two digits a step when writing numbers. */
static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324"
    "25262728293031323334353637383940414243444546474849"
    "50515253545556575859606162636465666768697071727374"
    "75767778798081828384858687888990919293949596979899";

/* A bounded output buffer; full once anything did not fit. */
struct out {
    char *p, *end; /* next byte, end of the buffer */
    bool full;     /* something did not fit */
};

/* Room for n more bytes; false (and full) when there is none. */
static inline bool room(struct out *o, size_t n)
{
    if (o->full || (size_t)(o->end - o->p) < n)
        o->full = true;
    return !o->full;
}

static inline void put(struct out *o, const char *s, size_t n)
{
    if (room(o, n)) {
        memcpy(o->p, s, n);
        o->p += n;
    }
}

/* A few bytes (a number's digits): a loop beats a call to memcpy. */
static inline void put_short(struct out *o, const char *s, size_t n)
{
    if (room(o, n))
        for (size_t i = 0; i < n; i++)
            *o->p++ = s[i];
}

static void put_s(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define PUT_LIT(o, lit) put(o, lit, sizeof lit - 1)

/* ",": before every item of a list but the first. */
static void put_sep(struct out *o, int i)
{
    if (i)
        put(o, ",", 1);
}

static void put_i64(struct out *o, int64_t v)
{
    char tmp[24], *q = tmp + sizeof tmp;
    if ((uint64_t)v < 10) { /* most of a line's numbers */
        if (room(o, 1))
            *o->p++ = (char)('0' + v);
        return;
    }
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    for (; u >= 100; u /= 100) { /* two digits a step */
        q -= 2;
        memcpy(q, digit_pairs + 2 * (u % 100), 2);
    }
    if (u >= 10) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * u, 2);
    } else
        *--q = (char)('0' + u);
    if (v < 0)
        *--q = '-';
    put_short(o, q, (size_t)(tmp + sizeof tmp - q));
}

/* Integers (most games' returns) fast; others round-trip with %.17g. */
static void put_num(struct out *o, double v)
{
    char tmp[32];
    if (v == floor(v) && fabs(v) < 1e15) {
        put_i64(o, (int64_t)v);
        return;
    }
    put(o, tmp, (size_t)snprintf(tmp, sizeof tmp, "%.17g", v));
}

static void put_hex(struct out *o, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    for (int i = 15; i >= 0; i--, v >>= 4)
        tmp[i] = digits[v & 15];
    put(o, tmp, sizeof tmp);
}

static void put_forfeit(struct out *o, const struct journal_header *h,
                        const struct journal_record *r)
{
    PUT_LIT(o, "\"forfeit\",\"forfeit\":[");
    for (int s = 0, k = 0; s < h->seats; s++) {
        if (!((r->res.forfeit >> s) & 1))
            continue;
        put_sep(o, k++);
        put_i64(o, s);
    }
    PUT_LIT(o, "],\"reason\":");
    char *reason = journal__json_string(r->res.reason);
    if (!reason)
        o->full = true;
    else
        put_s(o, reason);
    free(reason);
}

/* Characters to write every one of the n moves in base 36. */
static int move_digits(const int *moves, int n)
{
    int top = 0, d = 1;
    for (int i = 0; i < n; i++)
        top = moves[i] > top ? moves[i] : top;
    for (; top >= 36; top /= 36)
        d++;
    return d;
}

/* Formats 1 and 2: every id in base 36, padded to "digits" characters. */
static void put_moves_base36(struct out *o, const struct match_result *res)
{
    static const char digit[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    int d = move_digits(res->moves, res->nmoves);
    if ((size_t)res->nmoves * (size_t)d > JOURNAL_MOVES_MAX)
        return; /* documented: such a game is journalled without moves */
    PUT_LIT(o, ",\"digits\":");
    put_i64(o, d);
    PUT_LIT(o, ",\"moves\":\"");
    if (!room(o, (size_t)res->nmoves * (size_t)d))
        return;
    /* Written directly, one or two digits (most games) without a loop: a
     * call per move cost 9 % of a random game's whole run, the digit loop
     * another 4 %. */
    char *p = o->p;
    const int *m = res->moves, n = res->nmoves;
    if (d == 1)
        for (int i = 0; i < n; i++)
            *p++ = digit[m[i]];
    else if (d == 2)
        for (int i = 0; i < n; i++, p += 2) {
            p[0] = digit[(unsigned)m[i] / 36];
            p[1] = digit[(unsigned)m[i] % 36];
        }
    else
        for (int i = 0; i < n; i++, p += d) {
            unsigned v = (unsigned)m[i];
            for (int k = d - 1; k >= 0; k--, v /= 36)
                p[k] = digit[v % 36];
        }
    o->p = p;
    PUT_LIT(o, "\"");
}

/* Writes id v in format 3 at p, which has room for MOVE_CHARS_MAX
 * characters; returns the end. */
static char *put_long_move(char *p, unsigned v)
{
    char tmp[MOVE_CHARS_MAX], *q = tmp + sizeof tmp;
    *--q = move_last[v % MOVE_BASE];
    for (v /= MOVE_BASE; v; v /= MOVE_LEAD_BASE)
        *--q = move_lead[v % MOVE_LEAD_BASE];
    size_t n = (size_t)(tmp + sizeof tmp - q);
    memcpy(p, q, n);
    return p + n;
}

/* Format 3: one character for an id below 64 (most moves of most
 * games), a few more for a larger one (journal.h); no "digits". Moves
 * that would not fit JOURNAL_MOVES_MAX are taken back out. */
static void put_moves_short(struct out *o, const struct match_result *res)
{
    char *start = o->p;
    PUT_LIT(o, ",\"moves\":\"");
    if (o->full)
        return;
    const int *m = res->moves;
    char *p = o->p;
    size_t left = (size_t)(o->end - p);
    size_t cap = left < JOURNAL_MOVES_MAX ? left : JOURNAL_MOVES_MAX;
    char *end = p + cap;
    int i = 0, n = res->nmoves;
    /* Room is checked once for as many moves as surely fit (all of them,
     * almost always), not move by move: that check was a third of the
     * loop's cost. The last few, if any, are checked one by one. */
    for (int k; i < n; i = k) {
        size_t sure = (size_t)(end - p) / MOVE_CHARS_MAX;
        k = sure < (size_t)(n - i) ? i + (int)sure : n;
        if (k == i)
            break;
        for (; i < k; i++) {
            unsigned v = (unsigned)m[i];
            if (v < MOVE_BASE)
                *p++ = move_last[v];
            else
                p = put_long_move(p, v);
        }
    }
    for (; i < n; i++) {
        char tmp[MOVE_CHARS_MAX];
        size_t c = (size_t)(put_long_move(tmp, (unsigned)m[i]) - tmp);
        if ((size_t)(end - p) < c)
            break;
        memcpy(p, tmp, c);
        p += c;
    }
    if (i < n) {
        if (cap == JOURNAL_MOVES_MAX)
            o->p = start; /* documented: journalled without moves */
        else
            o->full = true; /* the caller tries a larger buffer */
        return;
    }
    o->p = p;
    PUT_LIT(o, "\"");
}

/* Writes v in decimal at p, which has room for 20 characters; returns
 * the end. */
static char *raw_u64(char *p, uint64_t v)
{
    if (v < 10) { /* most of a line's numbers: no digits to count */
        *p = (char)('0' + v);
        return p + 1;
    }
    if (v < 100) {
        memcpy(p, digit_pairs + 2 * v, 2);
        return p + 2;
    }
    int n = 1;
    for (uint64_t t = v; t >= 10; t /= 10)
        n++;
    char *end = p + n, *q = end;
    for (; v >= 100; v /= 100) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * (v % 100), 2);
    }
    if (v >= 10)
        memcpy(q - 2, digit_pairs + 2 * v, 2);
    else
        q[-1] = (char)('0' + v);
    return end;
}

/* A string literal at p; p moves past it. */
#define RAW_LIT(p, lit) (memcpy(p, lit, sizeof lit - 1), p += sizeof lit - 1)

/* journal_format for the usual line: format 3, a normal end, integer
 * returns of at most 15 digits (checked by the caller), and room for
 * everything but the moves (need). One check for room instead of one a
 * field: the general path's checks and calls were most of the writer's
 * formatting. Writes the same bytes as the general path (tested). */
static size_t format_usual(const struct journal_writer *w,
                           const struct journal_header *h,
                           const struct journal_record *r, char *buf,
                           size_t len)
{
    char *p = buf;
    int k = h->seats;
    RAW_LIT(p, "{\"type\":\"game\",\"deal\":");
    p = raw_u64(p, (uint64_t)r->deal);
    RAW_LIT(p, ",\"lineup\":");
    p = raw_u64(p, (uint64_t)r->lineup);
    RAW_LIT(p, ",\"rotation\":");
    p = raw_u64(p, (uint64_t)r->rotation);
    RAW_LIT(p, ",\"seats\":[");
    for (int s = 0; s < k; s++) {
        int a = r->agent[s];
        *p = ',';
        p += s > 0;
        memcpy(p, w->name_json[a], w->name_len[a]);
        p += w->name_len[a];
    }
    RAW_LIT(p, "],\"returns\":[");
    for (int s = 0; s < k; s++) {
        double v = r->res.ret[s];
        *p = ',';
        p += s > 0;
        *p = '-';
        p += v < 0;
        p = raw_u64(p, (uint64_t)(v < 0 ? -v : v));
    }
    RAW_LIT(p, "],\"length\":");
    p = raw_u64(p, (uint64_t)r->res.length);
    RAW_LIT(p, ",\"wall_us\":");
    p = raw_u64(p, (uint64_t)r->res.wall_us);
    RAW_LIT(p, ",\"end\":\"normal\"");
    struct out o = {p, buf + len, false};
    if (r->res.moves)
        put_moves_short(&o, &r->res);
    PUT_LIT(&o, "}\n");
    return o.full ? 0 : (size_t)(o.p - buf);
}

/* Whether r's line can take format_usual, with len bytes of room. */
static bool is_usual(const struct journal_writer *w,
                     const struct journal_header *h,
                     const struct journal_record *r, size_t len)
{
    /* literals 123, five numbers of at most 20 characters; per seat a
     * name and its comma, a return of at most 16 characters and its
     * comma */
    size_t need = 123 + 5 * 20 + (size_t)h->seats * 18;
    if (w->format < 3 || r->res.forfeit || r->deal < 0 || r->lineup < 0 ||
        r->rotation < 0 || r->res.length < 0 || r->res.wall_us < 0)
        return false;
    for (int s = 0; s < h->seats; s++) {
        double v = r->res.ret[s];
        if (v != floor(v) || fabs(v) >= 1e15 || (v == 0 && signbit(v)))
            return false;
        need += w->name_len[r->agent[s]];
    }
    return len >= need;
}

size_t journal_format(const struct journal_writer *w,
                      const struct journal_header *h,
                      const struct journal_record *r, char *buf, size_t len)
{
    if (is_usual(w, h, r, len))
        return format_usual(w, h, r, buf, len);
    struct out o = {buf, buf + len, false};
    int k = h->seats;
    bool v1 = w->format == 1;
    PUT_LIT(&o, "{\"type\":\"game\"");
    if (v1) {
        PUT_LIT(&o, ",\"spec\":");
        put(&o, w->game_json, w->game_len);
    }
    PUT_LIT(&o, ",\"deal\":");
    put_i64(&o, r->deal);
    PUT_LIT(&o, ",\"lineup\":");
    put_i64(&o, r->lineup);
    PUT_LIT(&o, ",\"rotation\":");
    put_i64(&o, r->rotation);
    if (v1) {
        PUT_LIT(&o, ",\"seed\":\"");
        put_hex(&o, r->seed);
        PUT_LIT(&o, "\"");
    }
    PUT_LIT(&o, ",\"seats\":[");
    for (int s = 0; s < k; s++) {
        put_sep(&o, s);
        put(&o, w->name_json[r->agent[s]], w->name_len[r->agent[s]]);
    }
    PUT_LIT(&o, "],\"returns\":[");
    for (int s = 0; s < k; s++) {
        put_sep(&o, s);
        put_num(&o, r->res.ret[s]);
    }
    if (w->format < 3) { /* format 3: readers work the ranks out */
        PUT_LIT(&o, "],\"ranks\":[");
        for (int s = 0; s < k; s++) {
            put_sep(&o, s);
            put_i64(&o, r->res.rank[s]);
        }
    }
    PUT_LIT(&o, "],\"length\":");
    put_i64(&o, r->res.length);
    PUT_LIT(&o, ",\"wall_us\":");
    put_i64(&o, r->res.wall_us);
    PUT_LIT(&o, ",\"end\":");
    if (r->res.forfeit)
        put_forfeit(&o, h, r);
    else
        PUT_LIT(&o, "\"normal\"");
    if (r->res.moves && w->format < 3)
        put_moves_base36(&o, &r->res);
    else if (r->res.moves)
        put_moves_short(&o, &r->res);
    PUT_LIT(&o, "}\n");
    return o.full ? 0 : (size_t)(o.p - buf);
}

char *journal__json_string(const char *s)
{
    /* jansson wants UTF-8; a reason may come from an external bot, so
     * anything but printable ASCII becomes '?'. */
    size_t n = strlen(s);
    char *clean = malloc(n + 1);
    if (!clean)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        clean[i] = (i == n || (s[i] >= 0x20 && s[i] < 0x7f)) ? s[i] : '?';
    json_t *j = json_string(clean);
    free(clean);
    char *out = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return out;
}

char *journal__header_line(const struct journal_header *h)
{
    char seed[24], *line = NULL;
    json_t *agents = json_array(), *teams = json_array();
    for (int i = 0; i < h->roster.n; i++)
        json_array_append_new(agents, json_pack("{s:s, s:s}", "name",
                                                h->roster.a[i].name, "spec",
                                                h->roster.a[i].spec));
    for (int s = 0; s < h->seats; s++)
        json_array_append_new(teams, json_integer(h->team[s]));
    snprintf(seed, sizeof seed, "%" PRIu64, h->seed);
    json_t *root = json_pack(
        "{s:s, s:i, s:s, s:o, s:I, s:s, s:i, s:i, s:i, s:i, s:o, s:I, s:i, "
        "s:i}",
        "journal", JOURNAL_MAGIC, "format", journal__new_format(h), "game",
        h->game,
        "agents", agents, "deals", (json_int_t)h->deals, "seed", seed,
        "max_lineups", h->max_lineups, "lineups", h->lineups, "sides", h->sides,
        "seats", h->seats, "teams", teams, "games", (json_int_t)h->games,
        "shard", h->shard, "shards", h->nshards);
    char *body =
        root ? json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (body && (line = malloc(strlen(body) + 2)))
        sprintf(line, "%s\n", body);
    free(body);
    json_decref(root);
    return line;
}

/* ---- reading ------------------------------------------------------------ */

static json_t *load(const char *line, size_t len, char *err, size_t errlen)
{
    json_error_t e;
    json_t *root = json_loadb(line, len, 0, &e);
    if (!root)
        err_set(err, errlen, ERR_SYNTAX, "not JSON: %s", e.text);
    else if (!json_is_object(root)) {
        json_decref(root);
        root = NULL;
        err_set(err, errlen, ERR_SYNTAX, "not a JSON object");
    }
    return root;
}

static bool parse_u64(const char *s, int base, uint64_t *out)
{
    char *end;
    if (!s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ')
        return false;
    unsigned long long v = strtoull(s, &end, base);
    *out = (uint64_t)v;
    return !*end;
}

static int header_roster(json_t *agents, struct journal_header *h, char *err,
                         size_t errlen)
{
    size_t i;
    json_t *a;
    if (!json_is_array(agents))
        return err_set(err, errlen, ERR_SYNTAX, "header: agents is no list");
    json_array_foreach(agents, i, a)
    {
        const char *name, *spec;
        if (json_unpack(a, "{s:s, s:s}", "name", &name, "spec", &spec))
            return err_set(err, errlen, ERR_SYNTAX,
                           "header: agent %zu lacks a name or spec", i);
        int rc = roster_add(&h->roster, name, spec, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

/* Stores v in *out when it lies in [lo, hi], else says which field it
 * is and what is allowed. Integers are read as json_int_t and checked
 * here: jansson's "i" would cut 2^32 to 0 without a word. */
static int int_in(const char *what, json_int_t v, json_int_t lo, json_int_t hi,
                  int *out, char *err, size_t errlen)
{
    if (v < lo || v > hi)
        return err_set(err, errlen, ERR_INVAL,
                       "%s %lld is out of range: %lld to %lld allowed", what,
                       (long long)v, (long long)lo, (long long)hi);
    *out = (int)v;
    return 0;
}

/* The header's integers as read, before their checks. */
struct header_ints {
    json_int_t deals, max_lineups, lineups, sides, seats, games, shard, shards;
};

/* Checks the header's integers against what `parlor tournament` can
 * write (schedule.h's limits) and stores them in h. */
static int header_ints(const struct header_ints *v, struct journal_header *h,
                       char *err, size_t errlen)
{
    int rc = v->deals < 1 || v->deals > SCHEDULE_DEALS_MAX
                 ? err_set(err, errlen, ERR_INVAL,
                           "header: deals %lld is out of range: 1 to %lld "
                           "allowed",
                           (long long)v->deals, (long long)SCHEDULE_DEALS_MAX)
                 : 0;
    /* In order: a range may end at a field checked before it. */
    const struct {
        const char *what;     /* the field */
        json_int_t v, lo, hi; /* its value and range */
        int *out;             /* where it goes */
    } f[] = {
        {"header: max_lineups", v->max_lineups, 1, SCHEDULE_LINEUPS_MAX,
         &h->max_lineups},
        {"header: lineups", v->lineups, 1, SCHEDULE_LINEUPS_MAX, &h->lineups},
        {"header: seats", v->seats, 1, GAME_MAX_PLAYERS, &h->seats},
        {"header: sides", v->sides, 2, v->seats, &h->sides},
        {"header: shards", v->shards, 1, INT32_MAX, &h->nshards},
        {"header: shard", v->shard, 1, v->shards, &h->shard},
    };
    h->deals = v->deals;
    h->games = v->games;
    for (size_t i = 0; !rc && i < sizeof f / sizeof f[0]; i++)
        rc = int_in(f[i].what, f[i].v, f[i].lo, f[i].hi, f[i].out, err, errlen);
    if (!rc && (h->roster.n < 2 || h->games > SCHEDULE_GAMES_MAX ||
                h->games != h->deals * h->lineups * h->sides))
        rc = err_set(err, errlen, ERR_INVAL,
                     "header: %d agents, %lld deals x %d line-ups x %d "
                     "sides but %lld games: wanted 2 agents or more, and "
                     "games = deals x line-ups x sides, at most %lld",
                     h->roster.n, (long long)h->deals, h->lineups, h->sides,
                     (long long)h->games, (long long)SCHEDULE_GAMES_MAX);
    return rc;
}

/* Writes n seats' sides as "[0,1,0,1]" into buf (len bytes). */
static void teams_str(const int8_t *team, int n, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "[");
    for (int s = 0; s < n && at < len; s++)
        at +=
            (size_t)snprintf(buf + at, len - at, "%s%d", s ? "," : "", team[s]);
    if (at < len)
        snprintf(buf + at, len - at, "]");
}

/* Reads the teams and checks seats, sides and teams against the header's
 * game, made from its spec: every reader sizes its seats by one or the
 * other, so they must agree (a header saying 2 seats for a six-player
 * game once had `parlor replay` print six labels of which four were
 * never set). */
static int header_teams(json_t *teams, struct journal_header *h, char *err,
                        size_t errlen)
{
    char sub[256], have[80], want[80];
    struct game g;
    if (!json_is_array(teams) || json_array_size(teams) != (size_t)h->seats)
        return err_set(err, errlen, ERR_INVAL,
                       "header: teams must list a side for each of the %d "
                       "seats",
                       h->seats);
    for (int s = 0; s < h->seats; s++) {
        json_t *t = json_array_get(teams, (size_t)s);
        json_int_t v = json_is_integer(t) ? json_integer_value(t) : -1;
        if (v < 0 || v >= h->sides)
            return err_set(err, errlen, ERR_INVAL,
                           "header: seat %d's team must be 0 to %d", s,
                           h->sides - 1);
        h->team[s] = (int8_t)v;
    }
    if (game_make(&g, h->game, sub, sizeof sub))
        return err_set(err, errlen, ERR_INVAL, "header: game %s: %s", h->game,
                       sub);
    if (h->seats == g.dims.players && h->sides == g.dims.teams &&
        !memcmp(h->team, g.dims.team, (size_t)h->seats))
        return 0;
    teams_str(h->team, h->seats, have, sizeof have);
    teams_str(g.dims.team, g.dims.players, want, sizeof want);
    return err_set(err, errlen, ERR_INVAL,
                   "header: %d seats in %d sides, teams %s, but game %s has "
                   "%d seats in %d sides, teams %s",
                   h->seats, h->sides, have, h->game, g.dims.players,
                   g.dims.teams, want);
}

int journal__parse_header(const char *line, size_t len,
                          struct journal_header *h, char *err, size_t errlen)
{
    const char *magic, *game, *seed;
    json_t *agents, *teams;
    json_int_t format;
    struct header_ints v;
    int rc = ERR_SYNTAX;
    memset(h, 0, sizeof *h);
    json_t *root = load(line, len, err, errlen);
    if (!root)
        return ERR_SYNTAX;
    if (json_unpack(root, "{s:s, s:I}", "journal", &magic, "format", &format) ||
        strcmp(magic, JOURNAL_MAGIC)) {
        err_set(err, errlen, ERR_SYNTAX, "not a parlor tournament journal");
    } else if (format < 1 || format > JOURNAL_FORMAT) {
        err_set(err, errlen, ERR_SYNTAX,
                "journal format %lld; this parlor reads formats 1 to %d",
                (long long)format, JOURNAL_FORMAT);
    } else if (json_unpack(root,
                           "{s:s, s:o, s:I, s:s, s:I, s:I, s:I, s:I, s:o, "
                           "s:I, s:I, s:I}",
                           "game", &game, "agents", &agents, "deals", &v.deals,
                           "seed", &seed, "max_lineups", &v.max_lineups,
                           "lineups", &v.lineups, "sides", &v.sides, "seats",
                           &v.seats, "teams", &teams, "games", &v.games,
                           "shard", &v.shard, "shards", &v.shards) ||
               strlen(game) >= sizeof h->game ||
               !parse_u64(seed, 10, &h->seed)) {
        err_set(err, errlen, ERR_SYNTAX, "header: missing or bad fields");
    } else {
        snprintf(h->game, sizeof h->game, "%s", game);
        h->format = (int)format;
        rc = header_roster(agents, h, err, errlen);
        rc = rc ? rc : header_ints(&v, h, err, errlen);
        rc = rc ? rc : header_teams(teams, h, err, errlen);
    }
    json_decref(root);
    return rc;
}

/* Reads the seat-indexed lists of a game line (ranks NULL: left for
 * the caller to work out). */
static int record_seats(json_t *seats, json_t *rets, json_t *ranks,
                        const struct journal_header *h,
                        struct journal_record *r, char *err, size_t errlen)
{
    size_t k = (size_t)h->seats;
    if (json_array_size(seats) != k || json_array_size(rets) != k ||
        (ranks && json_array_size(ranks) != k))
        return err_set(err, errlen, ERR_SYNTAX,
                       "seats, returns and ranks need %zu entries each", k);
    for (size_t s = 0; s < k; s++) {
        json_t *name = json_array_get(seats, s);
        json_t *ret = json_array_get(rets, s);
        json_t *rank = json_array_get(ranks, s);
        int a = json_is_string(name)
                    ? roster_find(&h->roster, json_string_value(name))
                    : -1;
        json_int_t rk = !ranks                ? 1
                        : json_is_integer(rank) ? json_integer_value(rank)
                                                : 0;
        if (a < 0)
            return err_set(err, errlen, ERR_INVAL,
                           "seat %zu: not an agent of this tournament", s);
        if (!json_is_number(ret) || rk < 1 || rk > (json_int_t)k)
            return err_set(err, errlen, ERR_SYNTAX,
                           "seat %zu: bad return or rank", s);
        r->agent[s] = (int8_t)a;
        r->res.ret[s] = json_number_value(ret);
        r->res.rank[s] = (int)rk;
    }
    return 0;
}

/* Reads how a game line ended: "normal", or "forfeit" with seats and
 * reason. */
static int record_end(const char *end, json_t *seats, const char *reason,
                      const struct journal_header *h, struct journal_record *r,
                      char *err, size_t errlen)
{
    size_t i;
    json_t *s;
    if (!strcmp(end, "normal"))
        return 0;
    if (strcmp(end, "forfeit") || !json_is_array(seats) || !reason)
        return err_set(err, errlen, ERR_SYNTAX,
                       "end must be \"normal\" or \"forfeit\" with seats "
                       "and a reason");
    json_array_foreach(seats, i, s)
    {
        json_int_t v = json_is_integer(s) ? json_integer_value(s) : -1;
        if (v < 0 || v >= h->seats)
            return err_set(err, errlen, ERR_SYNTAX, "bad forfeit seat");
        r->res.forfeit |= 1u << v;
    }
    if (!r->res.forfeit)
        return err_set(err, errlen, ERR_SYNTAX, "forfeit names no seat");
    snprintf(r->res.reason, sizeof r->res.reason, "%s", reason);
    return 0;
}

/* Checks a game line's key; spec and seed may be NULL (format 2): the
 * header's game, the deal's seed from the header's seed. */
static int record_key(const char *type, const char *spec, const char *seed,
                      const struct journal_header *h, struct journal_record *r,
                      char *err, size_t errlen)
{
    if (strcmp(type, "game"))
        return err_set(err, errlen, ERR_SYNTAX, "unknown line type '%s'", type);
    if (spec && strcmp(spec, h->game))
        return err_set(err, errlen, ERR_INVAL,
                       "game '%s' differs from the header's '%s'", spec,
                       h->game);
    if (r->deal < 0 || r->deal >= h->deals || r->lineup < 0 ||
        r->lineup >= h->lineups || r->rotation < 0 || r->rotation >= h->sides)
        return err_set(err, errlen, ERR_INVAL,
                       "deal %lld, line-up %d, rotation %d is not in the "
                       "schedule",
                       (long long)r->deal, r->lineup, r->rotation);
    if (!seed)
        r->seed = schedule_deal_seed(h->seed, r->deal);
    else if (strlen(seed) != 16 || !parse_u64(seed, 16, &r->seed))
        return err_set(err, errlen, ERR_SYNTAX, "bad seed '%s'", seed);
    return 0;
}

/* Decodes a format 3 moves text (journal.h). */
static int decode_short(const char *text, size_t len, int *out, int cap,
                        char *err, size_t errlen)
{
    int n = 0;
    int64_t lead = 0;
    bool open = false; /* lead characters read, no last one yet */
    for (size_t i = 0; i < len; i++) {
        int x = move_char(text[i]);
        if (x < 0)
            return err_set(err, errlen, ERR_SYNTAX,
                           "moves: '%c' is not a move character", text[i]);
        if (x >= MOVE_BASE) {
            lead = lead * MOVE_LEAD_BASE + (x - MOVE_BASE);
            open = true;
            if (lead > INT32_MAX / MOVE_BASE)
                return err_set(err, errlen, ERR_SYNTAX,
                               "moves: an id too large");
            continue;
        }
        if (n == cap)
            return err_set(err, errlen, ERR_RANGE,
                           "moves: more than the %d this game allows", cap);
        out[n++] = (int)(lead * MOVE_BASE + x);
        lead = 0;
        open = false;
    }
    if (open)
        return err_set(err, errlen, ERR_SYNTAX,
                       "moves: the text ends inside an id");
    return n;
}

int journal_moves_decode(const char *text, size_t len, int digits, int *out,
                         int cap, char *err, size_t errlen)
{
    if (digits == 0)
        return decode_short(text, len, out, cap, err, errlen);
    if (digits < 1 || digits > 5 || len % (size_t)digits)
        return err_set(err, errlen, ERR_SYNTAX,
                       "moves: %zu characters are not moves of %d digits",
                       len, digits);
    if (len / (size_t)digits > (size_t)cap)
        return err_set(err, errlen, ERR_RANGE,
                       "moves: %zu moves, more than the %d this game allows",
                       len / (size_t)digits, cap);
    for (size_t i = 0; i < len; i += (size_t)digits) {
        int v = 0;
        for (int k = 0; k < digits; k++) {
            char c = text[i + (size_t)k];
            int x = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'z' ? c - 'a' + 10
                                           : -1;
            if (x < 0)
                return err_set(err, errlen, ERR_SYNTAX,
                               "moves: '%c' is not a base-36 digit (0-9a-z)",
                               c);
            v = v * 36 + x;
        }
        out[i / (size_t)digits] = v;
    }
    return (int)(len / (size_t)digits);
}

/* Whether text (n characters) is a format 3 moves text: move characters,
 * ending with a last one. */
static bool short_moves_ok(const char *text, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (move_char(text[i]) < 0)
            return false;
    return !n || move_char(text[n - 1]) < MOVE_BASE;
}

/* Reads the optional moves of a game line into r (borrowing moves_buf,
 * cap bytes), checking their syntax: base 36 with "digits" (formats 1 and
 * 2, and any line that has "digits"), else format 3's characters. */
static int record_moves(json_t *moves, json_t *digits_j, int format,
                        struct journal_record *r, char *moves_buf, size_t cap,
                        char *err, size_t errlen)
{
    if (!moves)
        return 0;
    bool base36 = digits_j || format < 3;
    json_int_t digits = json_is_integer(digits_j)
                            ? json_integer_value(digits_j)
                            : 0;
    size_t n = json_is_string(moves) ? json_string_length(moves) : cap;
    if (n >= cap || (base36 && (digits < 1 || digits > 5 ||
                                n % (size_t)digits)))
        return err_set(err, errlen, ERR_SYNTAX,
                       "moves must be a string shorter than %zu: of ids "
                       "of \"digits\" (1-5) base-36 characters each, or "
                       "of format 3 without \"digits\"",
                       cap);
    memcpy(moves_buf, json_string_value(moves), n + 1);
    if (!base36 && !short_moves_ok(moves_buf, n))
        return err_set(err, errlen, ERR_SYNTAX,
                       "moves: not a format 3 moves text");
    for (size_t i = 0; base36 && i < n; i++)
        if (!(moves_buf[i] >= '0' && moves_buf[i] <= '9') &&
            !(moves_buf[i] >= 'a' && moves_buf[i] <= 'z'))
            return err_set(err, errlen, ERR_SYNTAX,
                           "moves: '%c' is not a base-36 digit (0-9a-z)",
                           moves_buf[i]);
    r->moves = moves_buf;
    r->moves_len = n;
    r->digits = base36 ? (int)digits : 0;
    return 0;
}

int journal__parse_record(const char *line, size_t len,
                          const struct journal_header *h,
                          struct journal_record *r, char *moves_buf,
                          size_t moves_cap, char *err, size_t errlen)
{
    const char *type, *spec = NULL, *seed = NULL, *end, *reason = NULL;
    json_t *seats, *rets, *ranks = NULL, *forfeit = NULL, *moves = NULL;
    json_t *digits = NULL;
    json_int_t deal, wall, lineup, rotation, length;
    int rc;
    memset(r, 0, sizeof *r);
    json_t *root = load(line, len, err, errlen);
    if (!root)
        return ERR_SYNTAX;
    if (json_unpack(root,
                    "{s:s, s?:s, s:I, s:I, s:I, s?:s, s:o, s:o, s?:o, s:I, "
                    "s:I, s:s, s?:o, s?:s, s?:o, s?:o}",
                    "type", &type, "spec", &spec, "deal", &deal, "lineup",
                    &lineup, "rotation", &rotation, "seed", &seed, "seats",
                    &seats, "returns", &rets, "ranks", &ranks, "length",
                    &length, "wall_us", &wall, "end", &end, "forfeit",
                    &forfeit, "reason", &reason, "digits", &digits, "moves",
                    &moves) ||
        (h->format == 1 && (!spec || !seed)) || (h->format < 3 && !ranks)) {
        json_decref(root);
        return err_set(err, errlen, ERR_SYNTAX, "missing or bad fields");
    }
    r->deal = deal;
    r->res.wall_us = wall;
    rc = int_in("lineup", lineup, 0, h->lineups - 1, &r->lineup, err, errlen);
    rc = rc ? rc
            : int_in("rotation", rotation, 0, h->sides - 1, &r->rotation, err,
                     errlen);
    rc = rc ? rc
            : int_in("length", length, 0, INT32_MAX, &r->res.length, err,
                     errlen);
    rc = rc ? rc : record_key(type, spec, seed, h, r, err, errlen);
    rc = rc ? rc : record_seats(seats, rets, ranks, h, r, err, errlen);
    rc = rc ? rc : record_end(end, forfeit, reason, h, r, err, errlen);
    rc = rc ? rc
            : record_moves(moves, digits, h->format, r, moves_buf, moves_cap,
                           err, errlen);
    if (!rc && !ranks) /* format 3 leaves them out: as the writer had them */
        match_rank_seats(h->seats, &r->res);
    json_decref(root);
    return rc;
}
