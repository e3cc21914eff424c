/* journal.h — a tournament's results log: JSON lines, one per game,
 * appended so that a crash (kill -9, power loss) loses at most the games
 * not yet written and never leaves a half record that counts.
 *
 * Line 1 is the header: the tournament's identity (game, agents, deals,
 * seed, line-up limit) and the schedule's shape:
 *   {"journal":"parlor-tournament","format":3,"game":"thirty_one(players=2)",
 *    "agents":[{"name":"random","spec":"random"},{"name":"pimc",
 *    "spec":"pimc"}],"deals":100,"seed":"1","max_lineups":120,"lineups":1,
 *    "sides":2,"seats":2,"teams":[0,1],"games":200,"shard":1,"shards":1}
 * Readers refuse a header that parlor tournament could not have written:
 * seats, sides and teams other than its game's (made from the spec), more
 * than SCHEDULE_DEALS_MAX deals (1e9) or SCHEDULE_LINEUPS_MAX line-ups
 * (100000), games other than deals x line-ups x sides or over
 * SCHEDULE_GAMES_MAX (2^34), and integers outside their ranges (never cut
 * to int). What readers keep grows with the lines read, never with what
 * the header claims.
 * Every later line is one finished game:
 *   {"type":"game","deal":3,"lineup":0,"rotation":1,
 *    "seats":["random","pimc"],"returns":[-3,3],"length":57,
 *    "wall_us":812,"end":"normal","moves":"0bLr02..."}
 * "moves" holds one or more characters per action id: id / 64 written in
 * base 28 with the lead characters !#$%&'()*+,./:;<=>?@[]^`{|}~ (in that
 * order, '!' = 0; nothing when the id is below 64), then id % 64 as one of
 * 0-9a-zA-Z-_ (0-9 = 0-9, a-z = 10-35, A-Z = 36-61, '-' = 62, '_' = 63).
 * So an id below 64 (every move of most games) is one character, and ids
 * 0-35 read as in base 36; 100 is "#A" (1 * 64 + 36).
 * Older layouts, still read and resumed (a resumed journal goes on in its
 * own layout):
 * - format 2 lines also hold "ranks" (worked out from the returns and the
 *   forfeit: see match_rank) and write "moves" in base 36 (0-9a-z), every
 *   id padded to "digits" characters ("digits":2,"moves":"0b1r0002...");
 *   format 3 leaves out the ranks and "digits" (45 of the 227 bytes of a
 *   random two-player Thirty-One line, 200 of a Spoil-Five line's 570);
 *   readers work the ranks out. A format 3 line with "digits" is read
 *   with base-36 moves, one with "ranks" with those ranks.
 * - format 1 lines also hold "spec" (the header's game) and "seed" (the
 *   deal's seed, 16 hex digits): format 2 leaves them out, and readers
 *   work them out from the header (the game; schedule_deal_seed of its
 *   seed and the deal). A later line that carries either field is read
 *   with it, as format 1.
 * A forfeit ends with "end":"forfeit","forfeit":[1],"reason":"seat 1: ...",
 * the seats that forfeited (with their partners) and why; returns are
 * then those at the moment of the forfeit. "moves" holds every action id
 * applied (up to a forfeit): one id a step, one per acting seat in seat
 * order for a joint step of a simultaneous game. Every default game fits
 * (the longest, Rover's 41,320 steps, took 83 kB of the 1 MiB line in
 * format 2); moves that would not fit JOURNAL_MOVES_MAX (options far
 * past the defaults) are left out, as in journals written before moves
 * were recorded, and such a game cannot be replayed. The agents' seeds are not written: each is
 * schedule_agent_seed(seed, seat), derived from the deal's seed.
 * (deal, lineup, rotation) is the game's key: a journal holds each key at
 * most once.
 *
 * Appending is write()s of whole lines followed by one fdatasync(), on a
 * file opened O_APPEND and locked with flock() against a second writer.
 * A tournament appends what its workers finished about every 50 ms
 * (run.h), not game by game: a power cut may lose the last ~50 ms of
 * games, which --resume plays again, while a crash of the process itself
 * (kill -9) loses nothing that was written, and a game counts as done
 * (progress line, summary) only once written.
 * Only the last line can be torn (a write cut short): readers ignore an
 * unterminated last line and resuming truncates it away. Any other bad line
 * is corruption and is refused with its line number.
 */
#ifndef PARLOR_JOURNAL_H
#define PARLOR_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "roster.h"

#define JOURNAL_FORMAT 3         /* version of the line layout written */
#define JOURNAL_PATH_MAX 4096    /* longest journal path */
#define JOURNAL_RECORD_MAX (1 << 20) /* longest record line */
#define JOURNAL_MOVES_MAX (JOURNAL_RECORD_MAX - 8192) /* longest moves text */

/* The first line: who plays what. Identity is game, roster, deals, seed
 * and max_lineups; the rest follows from them, except the shard. */
struct journal_header {
    int format;                    /* line layout: 1 to JOURNAL_FORMAT; a
                                    * new journal is written in it */
    char game[GAME_SPEC_MAX];      /* canonical game spec */
    struct roster roster;          /* agents: names and specs */
    int64_t deals;                 /* deals in the tournament */
    uint64_t seed;                 /* master seed */
    int max_lineups;               /* line-up limit per deal */
    int lineups;                   /* line-ups per deal (schedule) */
    int sides;                     /* sides, = rotations per line-up */
    int seats;                     /* seats of the game */
    int8_t team[GAME_MAX_PLAYERS]; /* seat -> side */
    int64_t games;                 /* games in the whole tournament */
    int shard, nshards;            /* which shard wrote it (1/1: all) */
};

/* One game line. */
struct journal_record {
    int64_t deal;                   /* deal number */
    int lineup, rotation;           /* its line-up and rotation */
    uint64_t seed;                  /* the deal's seed */
    int8_t agent[GAME_MAX_PLAYERS]; /* seat -> roster index */
    struct match_result res;        /* the outcome; res.moves unused */
    const char *moves; /* read: the moves text, NULL if none; borrowed,
                        * valid during the callback only */
    size_t moves_len;  /* its length */
    int digits;        /* read: characters per move in base 36; 0:
                        * format 3's moves (journal_moves_decode) */
};

/* Called for every game line read; a non-zero return (with a message in
 * err) stops the reading and is passed on with the file and line. */
typedef int (*journal_record_fn)(void *ctx, const struct journal_header *h,
                                 const struct journal_record *r, char *err,
                                 size_t errlen);

/* What reading found. */
struct journal_read_info {
    int64_t records;    /* game lines passed to the callback */
    int64_t good_bytes; /* length up to the end of the last whole line */
    bool torn;          /* an unterminated last line was ignored */
    bool has_header;    /* false: the file is empty or its header torn */
};

/* An open journal being appended to. */
struct journal_writer {
    int fd;                      /* O_APPEND, flock()ed; -1: closed */
    int format;                  /* the file's line layout (1 to 3) */
    bool unsynced;               /* written since the last flush */
    bool dir_unsynced;           /* the file's name is not yet flushed */
    char path[JOURNAL_PATH_MAX]; /* where */
    char *name_json[ROSTER_MAX]; /* agent names as JSON strings, owned */
    size_t name_len[ROSTER_MAX]; /* their lengths */
    char *game_json;             /* game spec as a JSON string, owned */
    size_t game_len;             /* its length */
};

/* Writes the journal path for shard/nshards in dir into buf (len bytes):
 * DIR/journal.jsonl, or DIR/journal.shard-I-of-N.jsonl. Returns 0 or
 * ERR_RANGE when it does not fit. */
int journal_path(const char *dir, int shard, int nshards, char *buf,
                 size_t len);

/* Reads the journal at path: the header into h, then every game line to fn
 * (fn NULL: the header only). Returns 0 (see info for a torn tail or a
 * missing header), or ERR_IO / ERR_SYNTAX / ERR_INVAL / ERR_NOMEM / fn's
 * code with a message naming the file and line. */
int journal_read(const char *path, struct journal_header *h,
                 journal_record_fn fn, void *ctx,
                 struct journal_read_info *info, char *err, size_t errlen);

/* Called with each journal file of a path; a non-zero return stops. */
typedef int (*journal_file_fn)(void *ctx, const char *file, char *err,
                               size_t errlen);

/* Calls fn with path, or with every journal*.jsonl in it when it is a
 * directory (shards, resumed runs). Returns 0, ERR_INVAL (a directory
 * without journals) or fn's code. */
int journal_each_file(const char *path, journal_file_fn fn, void *ctx,
                      char *err, size_t errlen);

/* Reads every game line of path (a journal, or a directory's journals)
 * to fn, each with its file's header. Returns 0 or journal_read's or
 * journal_each_file's code with a message. */
int journal_read_all(const char *path, journal_record_fn fn, void *ctx,
                     char *err, size_t errlen);

/* Checks that a (read from a journal named path) and b describe the same
 * tournament. Returns 0 or ERR_INVAL naming the first difference. */
int journal_same(const struct journal_header *a, const struct journal_header *b,
                 const char *path, char *err, size_t errlen);

/* Opens path for appending games of tournament h. A missing or empty file
 * (or one whose header was torn) is started with h's header, flushed to
 * disk with the file's name by the first journal_sync or journal_close
 * (until then a crash may leave the file empty, or not there). An existing
 * journal is refused unless resume; with resume its header must match h,
 * its torn tail is cut off and every whole record goes to fn. Returns 0,
 * or ERR_STATE (exists without resume, locked by another run), ERR_INVAL
 * (another tournament), ERR_IO with a message. */
int journal_open(struct journal_writer *w, const char *path,
                 const struct journal_header *h, bool resume,
                 journal_record_fn fn, void *ctx,
                 struct journal_read_info *info, char *err, size_t errlen);

/* Formats r as one line ('\n' included, in w's format) into buf (len
 * bytes); returns its length, or 0 when it does not fit. */
size_t journal_format(const struct journal_writer *w,
                      const struct journal_header *h,
                      const struct journal_record *r, char *buf, size_t len);

/* Decodes the moves text of a record (digits base-36 characters each, or
 * format 3's when digits is 0) into out (cap entries). Returns the number
 * of moves, or ERR_SYNTAX / ERR_RANGE (more than cap) with a message. */
int journal_moves_decode(const char *text, size_t len, int digits, int *out,
                         int cap, char *err, size_t errlen);

/* Appends len bytes of whole lines with one write() (continued only if the
 * kernel takes less) and flushes them to disk. Returns 0 or ERR_IO. */
int journal_append(struct journal_writer *w, const char *buf, size_t len,
                   char *err, size_t errlen);

/* journal_append in two halves, for a writer with lines in several
 * buffers: journal_write hands len bytes of whole lines to the kernel
 * (one write(), continued only if it takes less), journal_sync flushes
 * everything written to disk (a new journal's name too; nothing when
 * nothing was written since the last). Each returns 0 or ERR_IO. */
int journal_write(struct journal_writer *w, const char *buf, size_t len,
                  char *err, size_t errlen);
int journal_sync(struct journal_writer *w, char *err, size_t errlen);

/* Flushes what is not yet flushed, unlocks and closes w, freeing what it
 * owns (safe when closed). Returns 0 or ERR_IO. */
int journal_close(struct journal_writer *w);

#endif
