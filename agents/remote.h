/* remote.h — seating an external bot (PROTOCOL.md §12, the agent role).
 *
 * "cmd:COMMAND" is a bot the arena spawns itself, over a private channel:
 * the arena makes a directory only its user can open (mkdtemp, mode
 * 0700), binds a ZeroMQ ROUTER socket on an ipc:// path in it, and runs
 * COMMAND with /bin/sh under a supervisor (botproc.h) with the endpoint in
 * PARLOR_ENDPOINT and a fresh random secret in PARLOR_SECRET. Only a
 * hello that carries the secret is heard; from then on only that
 * connection is sent to or read from, and every other one is ignored.
 * The process starts on the first act (so checking a roster spawns
 * nothing) and is killed, with everything it started, when the agent is
 * destroyed: at once after a forfeit (the tournament then creates it
 * afresh, so a dead bot is restarted for the next game), else after a
 * bye message and up to REMOTE_BYE_MS for it to exit by itself. The
 * directory goes with it.
 *
 * act() returns ERR_TIMEOUT (no answer within the move time), ERR_IO (the
 * process died or could not start), ERR_PROTO (garbage, or a message that
 * is not the answer asked for) or ERR_ILLEGAL_ACTION (an action that is
 * not legal now); the tournament records the code as the forfeit reason.
 */
#ifndef PARLOR_REMOTE_H
#define PARLOR_REMOTE_H

#include <stddef.h>

#include "agent.h"

#define REMOTE_CMD_PREFIX "cmd:"              /* spec prefix of a spawned bot */
#define REMOTE_ENDPOINT_ENV "PARLOR_ENDPOINT" /* where the bot connects */
#define REMOTE_SECRET_ENV "PARLOR_SECRET"     /* what its hello must carry */
#define REMOTE_MOVE_ENV "PARLOR_MOVE_MS"      /* per-move limit, milliseconds */
#define REMOTE_MOVE_MS 1000                   /* per-move limit when unset */
#define REMOTE_HELLO_MS 30000 /* time a new process has to say hello */
#define REMOTE_MSG_MAX 65536  /* longest message a bot may send */
#define REMOTE_BYE_MS 1000    /* time a bot has to exit after bye */

/* The kind behind "cmd:" specs (not in agents.def: it takes a command,
 * not an option list). Its create is unused; use remote_open. */
extern const struct agent_def remote_cmd_agent;

/* The per-move limit in milliseconds: REMOTE_MOVE_ENV's value if set and
 * positive, else REMOTE_MOVE_MS. */
int remote_move_ms(void);

/* Prepares a bot running cmd for game g into *self (nothing runs yet).
 * The move time is REMOTE_MOVE_ENV's value if set, else REMOTE_MOVE_MS.
 * Returns 0 or ERR_INVAL / ERR_NOMEM with a message. */
int remote_open(const struct game *g, const char *cmd, void **self,
                char *err, size_t errlen);

#endif
