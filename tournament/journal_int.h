/* journal_int.h — what journal.c (files) and journal_line.c (the JSON of
 * one line) share; not part of the journal's public interface. */
#ifndef PARLOR_JOURNAL_INT_H
#define PARLOR_JOURNAL_INT_H

#include <jansson.h>

#include "journal.h"

#define JOURNAL_MAGIC "parlor-tournament" /* the header's "journal" value */

/* The line layout a new journal of h is written in: h->format when it
 * is one this parlor writes (1 to JOURNAL_FORMAT), else JOURNAL_FORMAT. */
static inline int journal__new_format(const struct journal_header *h)
{
    return h->format >= 1 && h->format <= JOURNAL_FORMAT ? h->format
                                                         : JOURNAL_FORMAT;
}

/* The header line of h as compact JSON with '\n'; the caller frees it
 * with free(). NULL when out of memory. */
char *journal__header_line(const struct journal_header *h);

/* Decodes a header line into h. Returns 0 or ERR_SYNTAX / ERR_INVAL with a
 * message (without the file name). */
int journal__parse_header(const char *line, size_t len,
                          struct journal_header *h, char *err, size_t errlen);

/* Decodes a game line of the journal of h into r; its moves text (if
 * any) is copied into moves_buf (moves_cap bytes), which r->moves then
 * borrows. Returns 0 or ERR_SYNTAX / ERR_INVAL with a message (without
 * the file name). */
int journal__parse_record(const char *line, size_t len,
                          const struct journal_header *h,
                          struct journal_record *r, char *moves_buf,
                          size_t moves_cap, char *err, size_t errlen);

/* s as a quoted, escaped JSON string (jansson's escaping); the caller
 * frees it with free(). NULL when out of memory. */
char *journal__json_string(const char *s);

#endif
