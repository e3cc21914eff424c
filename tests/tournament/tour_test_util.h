/* tour_test_util.h — what the tournament tests share: scratch
 * directories (the remote agents' tests use them too), line counts, and
 * a journal's records as a sorted set.
 * Header-only (static inline functions) so each test binary stays one file. */
#ifndef PARLOR_TOUR_TEST_UTIL_H
#define PARLOR_TOUR_TEST_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tournament/journal.h"

/* A journal's game records, sorted by key, wall times zeroed. */
struct record_set {
    struct journal_record *r; /* records, malloc'd */
    int64_t n, cap;           /* used, allocated */
};

/* Makes a fresh scratch directory into buf (PATH_MAX). */
static inline void tmp_dir(char *buf, size_t len)
{
    const char *base = getenv("TMPDIR");
    snprintf(buf, len, "%s/parlor-tour-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(buf))
        fail_msg("mkdtemp failed");
}

/* Removes dir and everything in it (a test's journals, plots, and the
 * directories of the commands it ran). */
static inline void rm_tree(const char *dir)
{
    char path[4096];
    struct dirent *e;
    DIR *d = opendir(dir);
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%.3800s/%.255s", dir, e->d_name);
            if (remove(path))
                rm_tree(path); /* a directory with things in it */
        }
    if (d)
        closedir(d);
    remove(dir);
}

/* Lines (newline-terminated) in the file at path; 0 if missing. */
static inline long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = 0;
    int c;
    if (!f)
        return 0;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static inline int collect(void *ctx, const struct journal_header *h,
                          const struct journal_record *r, char *err,
                          size_t errlen)
{
    struct record_set *s = ctx;
    (void)h;
    (void)err;
    (void)errlen;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->r = realloc(s->r, (size_t)s->cap * sizeof *s->r);
    }
    memcpy(&s->r[s->n], r, sizeof *r); /* padding included: memcmp later */
    /* wall_us, the one field that may differ, holds a hash of the moves
     * instead, whose text is borrowed only during this call. */
    uint64_t hash = 14695981039346656037u;
    for (size_t i = 0; r->moves && i < r->moves_len; i++)
        hash = (hash ^ (uint8_t)r->moves[i]) * 1099511628211u;
    s->r[s->n].res.wall_us = (int64_t)(hash >> 1);
    s->r[s->n++].moves = NULL;
    return 0;
}

static inline int record_cmp(const void *pa, const void *pb)
{
    const struct journal_record *a = pa, *b = pb;
    if (a->deal != b->deal)
        return a->deal < b->deal ? -1 : 1;
    if (a->lineup != b->lineup)
        return a->lineup - b->lineup;
    return a->rotation - b->rotation;
}

/* Adds the records of the journal at path to s (kept sorted). */
static inline void read_records(const char *path, struct record_set *s)
{
    struct journal_header *h = malloc(sizeof *h);
    struct journal_read_info info;
    char err[1024];
    if (journal_read(path, h, collect, s, &info, err, sizeof err))
        fail_msg("%s", err);
    free(h);
    qsort(s->r, (size_t)s->n, sizeof *s->r, record_cmp);
}

/* Asserts a and b hold the same records. */
static inline void assert_same_records(const struct record_set *a,
                                       const struct record_set *b)
{
    assert_int_equal(a->n, b->n);
    for (int64_t i = 0; i < a->n; i++)
        assert_memory_equal(&a->r[i], &b->r[i], sizeof a->r[i]);
}

#endif
