/* journal.c — the journal's files: reading with a torn tail tolerated,
 * creating, resuming and appending durably (see journal.h). The JSON of a
 * line is journal_line.c's. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "journal_int.h"

/* ---- reading ------------------------------------------------------------ */

/* Handles line number lineno (terminator dropped) of the file being read. */
static int read_line(const char *line, size_t len, int64_t lineno,
                     struct journal_header *h, journal_record_fn fn, void *ctx,
                     struct journal_read_info *info, char *err, size_t errlen)
{
    struct journal_record r;
    if (lineno == 1) {
        int rc = journal__parse_header(line, len, h, err, errlen);
        info->has_header = !rc;
        return rc;
    }
    /* The moves are shorter than their line, which getline sized. */
    char *moves = mem_try_alloc(len + 1);
    if (!moves)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    int rc = journal__parse_record(line, len, h, &r, moves, len + 1, err,
                                   errlen);
    if (!rc) {
        info->records++;
        rc = fn(ctx, h, &r, err, errlen);
    }
    mem_free(moves);
    return rc;
}

int journal_read(const char *path, struct journal_header *h,
                 journal_record_fn fn, void *ctx,
                 struct journal_read_info *info, char *err, size_t errlen)
{
    char sub[512];
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int64_t lineno = 0;
    int rc = 0;
    memset(info, 0, sizeof *info);
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(err, errlen, ERR_IO, "%s: %s", path, strerror(errno));
    while (!rc && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] != '\n') {
            info->torn = true; /* a write cut short: not a record */
            break;
        }
        rc = read_line(line, (size_t)n - 1, ++lineno, h, fn, ctx, info, sub,
                       sizeof sub);
        if (rc)
            err_set(err, errlen, rc, "%s, line %lld: %s", path,
                    (long long)lineno, sub);
        else
            info->good_bytes += n;
        if (!fn && lineno == 1)
            break;
    }
    if (!rc && ferror(f))
        rc = err_set(err, errlen, ERR_IO, "%s: %s", path, strerror(errno));
    free(line);
    fclose(f);
    return rc;
}

int journal_each_file(const char *path, journal_file_fn fn, void *ctx,
                      char *err, size_t errlen)
{
    struct stat sb;
    char pattern[JOURNAL_PATH_MAX];
    glob_t g;
    if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
        return fn(ctx, path, err, errlen);
    snprintf(pattern, sizeof pattern, "%s/journal*.jsonl", path);
    if (glob(pattern, 0, NULL, &g))
        return err_set(err, errlen, ERR_INVAL,
                       "%s: no journal*.jsonl in this directory", path);
    int rc = 0;
    for (size_t i = 0; !rc && i < g.gl_pathc; i++)
        rc = fn(ctx, g.gl_pathv[i], err, errlen);
    globfree(&g);
    return rc;
}

/* journal_read_all's walk: the callback and its context. */
struct read_all {
    journal_record_fn fn; /* called per record */
    void *ctx;            /* its context */
};

static int read_one(void *ctx, const char *file, char *err, size_t errlen)
{
    struct read_all *ra = ctx;
    struct journal_read_info info;
    struct journal_header *h = mem_alloc(sizeof *h);
    int rc = journal_read(file, h, ra->fn, ra->ctx, &info, err, errlen);
    mem_free(h);
    return rc;
}

int journal_read_all(const char *path, journal_record_fn fn, void *ctx,
                     char *err, size_t errlen)
{
    struct read_all ra = {fn, ctx};
    return journal_each_file(path, read_one, &ra, err, errlen);
}

int journal_same(const struct journal_header *a, const struct journal_header *b,
                 const char *path, char *err, size_t errlen)
{
    const char *what = NULL;
    if (strcmp(a->game, b->game))
        what = "game";
    else if (a->roster.n != b->roster.n)
        what = "number of agents";
    for (int i = 0; !what && i < a->roster.n; i++) {
        const struct roster_entry *x = &a->roster.a[i], *y = &b->roster.a[i];
        if (strcmp(x->name, y->name) || strcmp(x->spec, y->spec))
            return err_set(err, errlen, ERR_INVAL,
                           "%s belongs to another tournament (its agent %d "
                           "differs: %s=%s there, %s=%s here)",
                           path, i + 1, x->name, x->spec, y->name, y->spec);
    }
    if (!what && a->deals != b->deals)
        what = "number of deals";
    else if (!what && a->seed != b->seed)
        what = "seed";
    else if (!what && a->max_lineups != b->max_lineups)
        what = "line-up limit";
    else if (!what && (a->lineups != b->lineups || a->sides != b->sides ||
                       a->seats != b->seats))
        what = "schedule";
    if (!what)
        return 0;
    return err_set(err, errlen, ERR_INVAL,
                   "%s belongs to another tournament (its %s differs): "
                   "game %s, %d agents, %lld deals, seed %llu there; "
                   "game %s, %d agents, %lld deals, seed %llu here",
                   path, what, a->game, a->roster.n, (long long)a->deals,
                   (unsigned long long)a->seed, b->game, b->roster.n,
                   (long long)b->deals, (unsigned long long)b->seed);
}

int journal_path(const char *dir, int shard, int nshards, char *buf, size_t len)
{
    int n = nshards > 1 ? snprintf(buf, len, "%s/journal.shard-%d-of-%d.jsonl",
                                   dir, shard, nshards)
                        : snprintf(buf, len, "%s/journal.jsonl", dir);
    return n < 0 || (size_t)n >= len ? ERR_RANGE : 0;
}

/* ---- writing ------------------------------------------------------------ */

static int write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ERR_IO;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Makes a new file's name durable too. */
static int sync_dir(const char *path)
{
    char copy[JOURNAL_PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return ERR_IO;
    int rc = fsync(fd) ? ERR_IO : 0;
    close(fd);
    return rc;
}

static int start_file(struct journal_writer *w, const struct journal_header *h,
                      char *err, size_t errlen)
{
    char *line = journal__header_line(h);
    if (!line)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    int rc = ftruncate(w->fd, 0) ? ERR_IO : 0;
    w->format = journal__new_format(h);
    rc = rc ? rc : write_all(w->fd, line, strlen(line));
    /* Made durable, with the file's name, by the first journal_sync (or
     * journal_close): a run's workers need not wait for the disk. */
    w->unsynced = true;
    w->dir_unsynced = true;
    free(line);
    if (rc)
        return err_set(err, errlen, ERR_IO, "%s: %s", w->path, strerror(errno));
    return 0;
}

/* Takes up an existing journal: same tournament, torn tail cut off. */
static int resume_file(struct journal_writer *w, const struct journal_header *h,
                       journal_record_fn fn, void *ctx,
                       struct journal_read_info *info, char *err, size_t errlen)
{
    struct journal_header *old = malloc(sizeof *old);
    if (!old)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    int rc = journal_read(w->path, old, NULL, NULL, info, err, errlen);
    if (!rc && info->has_header)
        rc = journal_same(old, h, w->path, err, errlen);
    if (!rc && info->has_header)
        rc = journal_read(w->path, old, fn, ctx, info, err, errlen);
    w->format = old->format; /* lines go on in the file's layout */
    free(old);
    if (rc)
        return rc;
    if (!info->has_header)
        return start_file(w, h, err, errlen);
    if (info->torn &&
        (ftruncate(w->fd, (off_t)info->good_bytes) || fdatasync(w->fd)))
        return err_set(err, errlen, ERR_IO,
                       "%s: cutting the torn last "
                       "line: %s",
                       w->path, strerror(errno));
    return 0;
}

static int escape_names(struct journal_writer *w,
                        const struct journal_header *h)
{
    w->game_json = journal__json_string(h->game);
    for (int i = 0; i < h->roster.n; i++) {
        if (!(w->name_json[i] = journal__json_string(h->roster.a[i].name)))
            return ERR_NOMEM;
        w->name_len[i] = strlen(w->name_json[i]);
    }
    w->game_len = w->game_json ? strlen(w->game_json) : 0;
    return w->game_json ? 0 : ERR_NOMEM;
}

static int open_locked(struct journal_writer *w, const char *path, char *err,
                       size_t errlen)
{
    if (strlen(path) >= sizeof w->path)
        return err_set(err, errlen, ERR_RANGE, "path too long: %s", path);
    snprintf(w->path, sizeof w->path, "%s", path);
    w->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (w->fd < 0)
        return err_set(err, errlen, ERR_IO, "%s: %s", path, strerror(errno));
    if (flock(w->fd, LOCK_EX | LOCK_NB))
        return err_set(err, errlen, ERR_STATE,
                       "%s is being written by another parlor tournament",
                       path);
    return 0;
}

int journal_open(struct journal_writer *w, const char *path,
                 const struct journal_header *h, bool resume,
                 journal_record_fn fn, void *ctx,
                 struct journal_read_info *info, char *err, size_t errlen)
{
    struct stat sb;
    memset(w, 0, sizeof *w);
    memset(info, 0, sizeof *info);
    int rc = open_locked(w, path, err, errlen);
    if (!rc && escape_names(w, h))
        rc = err_set(err, errlen, ERR_NOMEM, "out of memory");
    if (!rc && fstat(w->fd, &sb))
        rc = err_set(err, errlen, ERR_IO, "%s: %s", path, strerror(errno));
    if (!rc && sb.st_size > 0 && !resume)
        rc = err_set(err, errlen, ERR_STATE,
                     "%s already holds results: add --resume to finish that "
                     "tournament, or choose another --out",
                     path);
    if (!rc)
        rc = sb.st_size > 0 ? resume_file(w, h, fn, ctx, info, err, errlen)
                            : start_file(w, h, err, errlen);
    if (rc)
        journal_close(w);
    return rc;
}

int journal_write(struct journal_writer *w, const char *buf, size_t len,
                  char *err, size_t errlen)
{
    w->unsynced = true;
    if (write_all(w->fd, buf, len))
        return err_set(err, errlen, ERR_IO, "%s: %s", w->path, strerror(errno));
    return 0;
}

int journal_sync(struct journal_writer *w, char *err, size_t errlen)
{
    if ((w->unsynced && fdatasync(w->fd)) ||
        (w->dir_unsynced && sync_dir(w->path)))
        return err_set(err, errlen, ERR_IO, "%s: %s", w->path, strerror(errno));
    w->unsynced = false;
    w->dir_unsynced = false;
    return 0;
}

int journal_append(struct journal_writer *w, const char *buf, size_t len,
                   char *err, size_t errlen)
{
    int rc = journal_write(w, buf, len, err, errlen);
    return rc ? rc : journal_sync(w, err, errlen);
}

int journal_close(struct journal_writer *w)
{
    int rc = 0;
    if (w->fd >= 0 && w->path[0]) {
        /* nothing to flush after the last journal_sync: a flush then
         * could still wait for the disk (up to 8 ms measured) */
        char err[16];
        rc = journal_sync(w, err, sizeof err);
        close(w->fd); /* releases the lock */
    }
    w->fd = -1;
    free(w->game_json);
    w->game_json = NULL;
    for (int i = 0; i < ROSTER_MAX; i++) {
        free(w->name_json[i]);
        w->name_json[i] = NULL;
    }
    return rc;
}
