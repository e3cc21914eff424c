/* botmsg.h — the agent role's messages (PROTOCOL.md §12), built and read
 * here once for both ways of seating an external bot: cmd: (remote.c, a
 * process the arena spawns) and bot: (arena.c, a bot that connects by
 * itself). Every message is one msgpack map with the header fields v, id
 * and type. Nothing here touches a socket.
 */
#ifndef PARLOR_BOTMSG_H
#define PARLOR_BOTMSG_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent.h"

#define BOTMSG_NAME_MAX 64 /* a bot's name, NUL included */

/* What an act request carries besides the state (buffers sized by the
 * caller: legal has g->dims.max_legal entries, obs g->dims.obs_size). */
struct botmsg_req {
    uint64_t id;     /* the request's id, answered back */
    uint64_t table;  /* which of the bot's seats this is (stable per agent) */
    int deadline_ms; /* time the bot has to answer */
    int *legal;      /* the legal actions of the last act request */
    int nlegal;      /* how many */
    float *obs;      /* scratch for the observation */
};

/* Builds into out (cleared first) the act request for seat in st; the
 * legal actions sent are kept in q. */
void botmsg_act(msgpack_sbuffer *out, struct botmsg_req *q,
                const struct game *g, const void *st, int seat);

/* Allocates q's buffers for game g and sets its deadline. Returns 0 or
 * ERR_NOMEM; botmsg_req_fini frees them (safe on a zeroed q). */
int botmsg_req_init(struct botmsg_req *q, const struct game *g,
                    int deadline_ms);
void botmsg_req_fini(struct botmsg_req *q);

/* Builds into out (cleared first) the result message telling seat how the
 * game in st ended (q's id and table; legal, obs, deadline unused). */
void botmsg_result(msgpack_sbuffer *out, const struct botmsg_req *q,
                   const struct game *g, const void *st, int seat,
                   const struct agent_outcome *o);

/* Builds into out (cleared first) the arena's goodbye: no more requests
 * will come. */
void botmsg_bye(msgpack_sbuffer *out);

/* Builds into out (cleared first) the arena's refusal of a hello, with
 * message saying what was wrong and what is allowed. */
void botmsg_error(msgpack_sbuffer *out, const char *message);

/* Builds into out (cleared first) the arena's answer to a hello. */
void botmsg_welcome(msgpack_sbuffer *out, const char *game);

/* Reads the answer to q's last act request from buf: *action gets its
 * action. Returns 0, ERR_PROTO when buf is not one msgpack map of type
 * "action" with q's id and an integer action, or ERR_ILLEGAL_ACTION when
 * that action was not among the legal ones sent. */
int botmsg_read_answer(const struct botmsg_req *q, const char *buf,
                       size_t len, int *action);

/* Reads a hello: name gets the bot's name (BOTMSG_NAME_MAX bytes).
 * Returns 0, or ERR_PROTO when buf is not a hello with a name of 1 to
 * BOTMSG_NAME_MAX - 1 characters. */
int botmsg_read_hello(const char *buf, size_t len, char *name);

/* Whether the hello in buf carries the field secret equal to secret. */
bool botmsg_hello_has_secret(const char *buf, size_t len, const char *secret);

/* Reads the id of any message. Returns 0 or ERR_PROTO. */
int botmsg_read_id(const char *buf, size_t len, uint64_t *id);

#endif
