/* arena.h — named bots that connect by themselves ("bot:NAME"), the
 * second way of seating an external bot (PROTOCOL.md §12; the first is
 * "cmd:", remote.h).
 *
 * A tournament run with --arena ENDPOINT opens one arena: it binds a
 * ZeroMQ ROUTER socket there, and a thread of its own (the hub) serves it.
 * A bot anywhere connects a DEALER socket to the endpoint and says hello
 * with its name; the hub answers with a welcome, or with an error when the
 * hello is refused: with CURVE and an allow directory a hello as NAME is
 * accepted only from the key NAME.key, and when ARENA_BOTS_MAX bots are
 * connected a newcomer is refused (a connected bot is never pushed out by
 * another; a hello as NAME from the key, or address, of the bot already
 * known as NAME takes over its slot). A bot is its connection, not its
 * routing id: only the connection that said hello is heard for it, and
 * once libzmq reports that connection closed nothing more is sent to it.
 * Every "bot:NAME" agent of the tournament (one instance per worker and
 * seat, as for every agent) then sends its act requests and results to the
 * connected bot that most recently said hello as NAME, through the hub:
 * the agent talks to the hub over an inproc DEALER socket, so no socket is
 * shared between threads. One bot connection thus serves many tables at
 * once; requests carry a table number (stable per agent instance) and an
 * id unique in the arena, and the hub routes each answer back by its id.
 *
 * Failures forfeit the game like a spawned bot's: no answer within the
 * move time is ERR_TIMEOUT; a bot whose connection is gone is ERR_IO; an
 * answer that is not the action asked for (garbage, or an id the arena
 * never issued: it goes to that bot's oldest open request) is ERR_PROTO,
 * while a late answer (an id issued but no longer open) is dropped, never
 * charged to a later request; an illegal action is ERR_ILLEGAL_ACTION; and
 * a name no bot has said hello with is ERR_NOTFOUND, once the arena has
 * been open for its wait time (until then the request waits for the bot to
 * come).
 */
#ifndef PARLOR_ARENA_H
#define PARLOR_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "agent.h"

#define ARENA_BOT_PREFIX "bot:" /* spec prefix of a named bot */
#define ARENA_BOTS_MAX 64       /* bot connections remembered at once */
#define ARENA_WAIT_MS 10000     /* default time bots have to connect */

/* How bots prove who they are (protocol/auth.h). */
struct arena_auth {
    const char *curve_secret; /* the arena's .key_secret; NULL: no CURVE */
    const char *allow_dir;    /* NAME.key per bot; NULL: any key, and
                               * names are not bound to keys */
};

/* Opens an arena for game (a canonical spec, told to bots in the
 * welcome) bound at endpoint (a ZeroMQ endpoint such as tcp://0.0.0.0:5599 or
 * ipc:///tmp/arena); named bots not connected after wait_ms are absent.
 * auth (NULL: none) turns on CURVE; with an allow directory a hello as
 * NAME is accepted only from the key NAME.key. Returns a new arena (free
 * with arena_destroy, after every agent using it) or NULL with a
 * message. */
struct arena *arena_new(const char *endpoint, const char *game, int wait_ms,
                        const struct arena_auth *auth, char *err,
                        size_t errlen);

/* What the arena leaves open (names not authenticated, plain traffic on a
 * public address) as one sentence for the operator, or NULL; borrowed. */
const char *arena_warning(const struct arena *a);

/* Stops the hub and frees *a; sets it to NULL (NULL-safe). */
void arena_destroy(struct arena **a);

/* The endpoint actually bound (a wildcard port resolved), borrowed. */
const char *arena_endpoint(const struct arena *a);

/* Checks that name can name a bot: 1 to 63 characters, none of them a
 * comma, parenthesis or control character. Returns 0 or ERR_INVAL with a
 * message. */
int arena_check_name(const char *name, char *err, size_t errlen);

/* The kind behind "bot:" specs (not in agents.def; use arena_bot_open). */
extern const struct agent_def arena_bot_agent;

/* Prepares an agent for game g that plays through the bot called name in
 * arena (borrowed; NULL is refused with a message saying how to open
 * one). Nothing is sent until it first acts. Returns 0 or ERR_INVAL /
 * ERR_NOMEM with a message. */
int arena_bot_open(struct arena *arena, const struct game *g,
                   const char *name, void **self, char *err, size_t errlen);

/* ---- for arena_bot.c ---------------------------------------------------- */

/* Frames between an agent and the hub: the agent sends [kind][bot name]
 * [request id, 8 bytes little-endian][message] with kind "act", "result"
 * or "cancel" (give up on an act); the hub answers an act with ["answer"]
 * [the bot's message], ["wait"] (no such bot yet: ask again soon),
 * ["absent"] (no such bot) or ["gone"] (its connection is lost). */
void *arena__ctx(struct arena *a);           /* the ZeroMQ context */
const char *arena__inproc(const struct arena *a); /* the hub's agent side */
uint64_t arena__next_id(struct arena *a);    /* a fresh request id */
uint64_t arena__next_table(struct arena *a); /* a fresh table number */

#endif
