/* server_envs.c — the server's env table and the requests that use it:
 * make, reset, step and close.
 *
 * Every request is checked in full (fields, limits, ownership, number of
 * actions) before anything changes; env and venv then check legality
 * themselves and leave everything untouched when they refuse. Each slot
 * keeps the buffers its steps need, so a step allocates nothing here.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "../agents/agent.h"
#include "../common/err.h"
#include "../common/mem.h"
#include "server_int.h"

/* Slot generations wrap here, so that ids stay below 2^52 and exact in a
 * double, the only number type of some client languages. */
#define GEN_MAX 0xfffffu

/* What a make request asks for, once checked. */
struct make_req {
    char spec[SERVER_TEXT_MAX]; /* the game spec */
    char opp[SERVER_TEXT_MAX];  /* the opponents' specs */
    struct env_options eo;      /* how each env runs */
    int n;                      /* envs of a vector env; 0: a plain env */
};

/* ---- static helpers: the table ------------------------------------------ */

static struct slot *alloc_slot(struct server *s)
{
    int i = s->free_head;
    if (i >= 0) {
        s->free_head = s->slots[i].next_free;
    } else {
        if (s->nslots == s->cap) {
            int cap = s->cap ? 2 * s->cap : 16;
            struct slot *grown =
                mem_realloc(s->slots, (size_t)cap * sizeof *grown);
            if (!grown)
                return NULL;
            memset(grown + s->cap, 0, (size_t)(cap - s->cap) * sizeof *grown);
            s->slots = grown;
            s->cap = cap;
        }
        i = s->nslots++;
    }
    struct slot *sl = &s->slots[i];
    uint32_t gen = sl->gen % GEN_MAX + 1;
    memset(sl, 0, sizeof *sl);
    sl->gen = gen;
    sl->id = ((uint64_t)gen << 32) | (uint64_t)(i + 1);
    return sl;
}

/* Maps an env or venv failure to its wire code. */
static int env_code(int rc)
{
    switch (rc) {
    case ERR_ILLEGAL_ACTION:
        return PROTO_E_ILLEGAL_ACTION;
    case ERR_STATE:
        return PROTO_E_STATE;
    case ERR_INVAL:
        return PROTO_E_BAD_VALUE;
    default:
        return PROTO_E_AGENT; /* only opponents fail otherwise */
    }
}

/* ---- static helpers: make ----------------------------------------------- */

/* Checks make's values in catalogue order (game, n, opponents, seat,
 * max_steps), then their combinations, then the per-client limit. */
static int read_make(struct server *s, struct make_req *r)
{
    const struct proto_in *in = &s->in;
    if (proto_str_copy(in, PROTO_Q_MAKE_GAME, r->spec, sizeof r->spec))
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "game must be a spec of less than %d bytes "
                            "without NUL bytes",
                            SERVER_TEXT_MAX);
    uint64_t n = proto_uint(in, PROTO_Q_MAKE_N, 1);
    if (n == 0)
        return server__fail(s, PROTO_E_BAD_VALUE, "n must be at least 1");
    int rc = proto_str_copy(in, PROTO_Q_MAKE_OPPONENTS, r->opp, sizeof r->opp);
    if (rc == ERR_RANGE)
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "opponents must be less than %d bytes without "
                            "NUL bytes",
                            SERVER_TEXT_MAX);
    r->eo.opponents = rc ? NULL : r->opp;
    uint64_t seat = proto_uint(in, PROTO_Q_MAKE_SEAT, 0);
    uint64_t max_steps = proto_uint(in, PROTO_Q_MAKE_MAX_STEPS, 0);
    if (seat > INT_MAX || max_steps > INT_MAX)
        return server__fail(s, PROTO_E_BAD_VALUE, "%s is beyond %d",
                            seat > INT_MAX ? "seat" : "max_steps", INT_MAX);
    if (proto_has(in, PROTO_Q_MAKE_SEAT) && !(r->eo.opponents && r->opp[0]))
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "seat is the learner's seat in single-agent "
                            "mode: give opponents too (\"\" means "
                            "multi-agent)");
    if (n > (uint64_t)s->o.max_envs)
        return server__fail(s, PROTO_E_LIMIT,
                            "n = %llu is more than the %d envs a client may "
                            "hold",
                            (unsigned long long)n, s->o.max_envs);
    r->eo.learner = (int)seat;
    r->eo.max_steps = (int)max_steps;
    r->n = proto_has(in, PROTO_Q_MAKE_N) ? (int)n : 0;
    return 0;
}

static int check_limits(struct server *s, int need)
{
    int held = s->cur ? s->cur->envs : 0;
    if (held + need > s->o.max_envs)
        return server__fail(s, PROTO_E_LIMIT,
                            "this client holds %d envs; %d more would pass "
                            "the limit of %d per client",
                            held, need, s->o.max_envs);
    if (!s->cur && s->nsessions >= s->o.max_clients)
        return server__fail(s, PROTO_E_LIMIT,
                            "%d clients hold envs, the server's limit "
                            "(parlor serve --max-clients)",
                            s->nsessions);
    int same = 0, peer_envs = 0;
    for (int i = 0; i < s->nsessions; i++)
        if (!strcmp(s->sessions[i]->peer, s->peer)) {
            same++;
            peer_envs += s->sessions[i]->envs;
        }
    const char *who = s->peer[0] ? s->peer : "local";
    if (!s->cur && same >= s->o.max_per_peer)
        return server__fail(s, PROTO_E_LIMIT,
                            "%d clients of this peer (%s) hold envs, the "
                            "limit per peer (parlor serve --max-per-peer)",
                            same, who);
    if (peer_envs + need > s->o.max_peer_envs)
        return server__fail(s, PROTO_E_LIMIT,
                            "the clients of this peer (%s) hold %d envs; %d "
                            "more would pass the limit of %d per peer "
                            "(parlor serve --max-peer-envs)",
                            who, peer_envs, need, s->o.max_peer_envs);
    if (s->total + need > s->o.max_total)
        return server__fail(s, PROTO_E_LIMIT,
                            "the server holds %d envs; %d more would pass "
                            "its limit of %d",
                            s->total, need, s->o.max_total);
    return 0;
}

/* Opponents come from the network: built-in agents only, and one move of
 * every opponent in every env of the make shares the search budgets,
 * counted as playouts of game g. Returns 0, or the wire code of the error
 * reply packed: BAD_SPEC for a spec that names no built-in agent with
 * valid options, LIMIT for one over the budgets. */
static int check_opponents(struct server *s, const struct make_req *r,
                           const struct game *g)
{
    char hint[160], err[PROTO_ERRMSG_MAX - 32];
    int seats = g->dims.players > 1 ? g->dims.players - 1 : 1;
    int agents = (r->n ? r->n : 1) * seats;
    struct agent_limits any = {HUGE_VAL, HUGE_VAL, NULL, NULL};
    struct agent_limits lim = {s->o.opp_work / agents,
                               s->o.opp_time_ms / agents, hint, g};
    snprintf(hint, sizeof hint,
             "(the server's budget, parlor serve --opp-work %d "
             "--opp-time-ms %d, shared by %d opponent seats)",
             s->o.opp_work, s->o.opp_time_ms, agents);
    if (env_check_opponents(r->eo.opponents, &any, err, sizeof err))
        return server__fail(s, PROTO_E_BAD_SPEC, "%s", err);
    if (env_check_opponents(r->eo.opponents, &lim, err, sizeof err))
        return server__fail(s, PROTO_E_LIMIT, "%s", err);
    return 0;
}

/* The most bytes a reset or step of n envs of shape sh replies with,
 * without view or names: every row twice (obs, and final_obs when every
 * episode ends), masks, rewards and the per-env columns, plus keys. */
static size_t reply_bound(const struct env_shape *sh, int rows, int n)
{
    size_t row = 2 * (size_t)sh->obs_size * sizeof(float) +
                 (size_t)sh->mask_words * sizeof(uint64_t);
    size_t per_env = (size_t)rows * row +
                     (size_t)sh->players * 2 * sizeof(double) + 2 + 5 * 4;
    return (size_t)n * per_env + 512;
}

/* Makes the env or venv of r into t with the buffers its steps need.
 * Returns 0, or the wire code of the error reply packed. */
static int create(struct server *s, const struct make_req *r, struct slot *t)
{
    char err[PROTO_ERRMSG_MAX - 32];
    struct game g;
    int rc;
    if (s->o.make_game(&g, r->spec, err, sizeof err))
        return server__fail(s, PROTO_E_BAD_SPEC, "%s", err);
    if (r->eo.opponents && r->eo.opponents[0] &&
        (rc = check_opponents(s, r, &g)))
        return rc;
    if (r->n)
        t->venv = venv_new_game(&g, &r->eo, r->n, err, sizeof err);
    else
        t->env = env_new_game(&g, &r->eo, err, sizeof err);
    if (!t->venv && !t->env)
        return server__fail(s, PROTO_E_BAD_SPEC, "%s", err);
    const struct env_shape *sh =
        t->venv ? venv_shape(t->venv) : env_shape(t->env);
    t->n = r->n ? r->n : 1;
    t->rows = sh->joint && sh->learner < 0 ? sh->players : 1;
    size_t bytes = reply_bound(sh, t->rows, t->n);
    if (bytes > s->o.max_reply)
        return server__fail(s, PROTO_E_LIMIT,
                            "its steps would reply with up to %zu bytes, "
                            "more than the server's max_reply of %zu "
                            "(parlor serve --max-reply): make fewer envs",
                            bytes, s->o.max_reply);
    t->nactions = t->venv ? t->n * t->rows : sh->players;
    t->actions = mem_alloc((size_t)t->nactions * sizeof *t->actions);
    if (!t->venv && t->rows > 1)
        t->obs = mem_alloc((size_t)(t->rows * sh->obs_size) * sizeof(float));
    if (t->actions && (t->venv || t->rows == 1 || t->obs))
        return 0;
    return server__fail(s, PROTO_E_INTERNAL, "out of memory");
}

static int pack_made(struct server *s, const struct slot *sl)
{
    msgpack_packer *pk = &s->pk;
    const env_t *e0 = sl->venv ? venv_env(sl->venv, 0) : sl->env;
    const struct env_shape *sh = env_shape(e0);
    int rewards = sl->venv ? venv_batch(sl->venv)->rewards : sh->players;
    proto_pack_head(pk, PROTO_MSG_MAKE, s->in.has_id, s->in.id, 12);
    proto_pack_key(pk, PROTO_R_MAKE_ENV);
    msgpack_pack_uint64(pk, sl->id);
    proto_pack_key(pk, PROTO_R_MAKE_SPEC);
    proto_pack_str(pk, env_game(e0)->spec);
    proto_pack_key(pk, PROTO_R_MAKE_VECTOR);
    sl->venv ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    proto_pack_key(pk, PROTO_R_MAKE_N);
    msgpack_pack_int(pk, sl->n);
    proto_pack_key(pk, PROTO_R_MAKE_PLAYERS);
    msgpack_pack_int(pk, sh->players);
    proto_pack_key(pk, PROTO_R_MAKE_NUM_ACTIONS);
    msgpack_pack_int(pk, sh->num_actions);
    proto_pack_key(pk, PROTO_R_MAKE_MASK_BYTES);
    msgpack_pack_int(pk, sh->mask_words * 8);
    proto_pack_key(pk, PROTO_R_MAKE_OBS_SIZE);
    msgpack_pack_int(pk, sh->obs_size);
    proto_pack_key(pk, PROTO_R_MAKE_ROWS);
    msgpack_pack_int(pk, sl->rows);
    proto_pack_key(pk, PROTO_R_MAKE_REWARDS);
    msgpack_pack_int(pk, rewards);
    proto_pack_key(pk, PROTO_R_MAKE_LEARNER);
    msgpack_pack_int(pk, sh->learner);
    proto_pack_key(pk, PROTO_R_MAKE_OPPONENTS);
    msgpack_pack_array(pk, (size_t)sh->players);
    for (int seat = 0; seat < sh->players; seat++)
        proto_pack_str(pk, env_opponent(e0, seat));
    return 0;
}

/* ---- static helpers: step ----------------------------------------------- */

static int step_vector(struct server *s, struct slot *sl)
{
    const struct proto_in *in = &s->in;
    if (proto_has(in, PROTO_Q_STEP_ACTION))
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "env %llu is a vector env: step it with "
                            "actions, not action",
                            (unsigned long long)sl->id);
    if (!proto_has(in, PROTO_Q_STEP_ACTIONS))
        return server__fail(s, PROTO_E_MISSING_FIELD,
                            "step needs the field actions for vector env "
                            "%llu",
                            (unsigned long long)sl->id);
    size_t k = proto_ints_len(in, PROTO_Q_STEP_ACTIONS);
    if (k != (size_t)sl->nactions)
        return server__fail(s, PROTO_E_BAD_BATCH,
                            "vector env %llu takes %d actions (%s), not %zu",
                            (unsigned long long)sl->id, sl->nactions,
                            sl->rows > 1 ? "players per env" : "one per env",
                            k);
    for (size_t i = 0; i < k; i++)
        sl->actions[i] = proto_ints_at(in, PROTO_Q_STEP_ACTIONS, i);
    int rc = venv_step(sl->venv, sl->actions);
    if (rc)
        return server__fail(s, env_code(rc), "%s", venv_errmsg(sl->venv));
    return server__pack_batch(s, sl, proto_bool(in, PROTO_Q_STEP_VIEW, false),
                              proto_bool(in, PROTO_Q_STEP_NAMES, false));
}

/* Runs the plain env step the request asks for. Returns 0, a wire code
 * (> 0) with its error reply packed, or the env's code (< 0). */
static int step_plain_env(struct server *s, struct slot *sl,
                          struct env_timestep *ts)
{
    const struct proto_in *in = &s->in;
    if (proto_has(in, PROTO_Q_STEP_ACTION)) {
        int64_t a = proto_int(in, PROTO_Q_STEP_ACTION, 0);
        if (a < INT_MIN || a > INT_MAX)
            return server__fail(s, PROTO_E_ILLEGAL_ACTION,
                                "action %lld is not an action id",
                                (long long)a);
        return env_step(sl->env, (int)a, ts);
    }
    if (!proto_has(in, PROTO_Q_STEP_ACTIONS))
        return server__fail(s, PROTO_E_MISSING_FIELD,
                            "step needs the field action (or actions, one "
                            "per seat, for several seats acting at once)");
    if (env_shape(sl->env)->learner >= 0)
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "env %llu is single-agent: step it with action, "
                            "the learner's",
                            (unsigned long long)sl->id);
    size_t k = proto_ints_len(in, PROTO_Q_STEP_ACTIONS);
    if (k != (size_t)sl->nactions)
        return server__fail(s, PROTO_E_BAD_BATCH,
                            "env %llu takes %d actions, one per seat, not "
                            "%zu",
                            (unsigned long long)sl->id, sl->nactions, k);
    for (size_t i = 0; i < k; i++)
        sl->actions[i] = proto_ints_at(in, PROTO_Q_STEP_ACTIONS, i);
    return env_step_joint(sl->env, sl->actions, ts);
}

/* ---- handlers ----------------------------------------------------------- */

int server__handle_make(struct server *s)
{
    struct make_req r;
    memset(&r, 0, sizeof r);
    int rc = read_make(s, &r);
    if (rc || (rc = check_limits(s, r.n ? r.n : 1)))
        return rc;
    struct slot t;
    memset(&t, 0, sizeof t);
    struct session *ses = NULL;
    struct slot *sl = NULL;
    rc = create(s, &r, &t);
    if (!rc && (ses = server__session(s, true)) && (sl = alloc_slot(s))) {
        t.id = sl->id;
        t.gen = sl->gen;
        t.owner = ses;
        *sl = t;
        ses->envs += t.n;
        ses->last_used = s->now;
        s->total += t.n;
        s->cur = ses;
        return pack_made(s, sl);
    }
    env_destroy(&t.env);
    venv_destroy(&t.venv);
    mem_free(t.actions);
    mem_free(t.obs);
    if (ses && !ses->envs)
        server__drop_session(s, ses);
    return rc ? rc : server__fail(s, PROTO_E_INTERNAL, "out of memory");
}

int server__handle_reset(struct server *s)
{
    const struct proto_in *in = &s->in;
    struct slot *sl = server__slot(s, proto_uint(in, PROTO_Q_RESET_ENV, 0));
    if (!sl)
        return PROTO_E_UNKNOWN_ENV;
    uint64_t seed = proto_uint(in, PROTO_Q_RESET_SEED, 0);
    bool view = proto_bool(in, PROTO_Q_RESET_VIEW, false);
    bool names = proto_bool(in, PROTO_Q_RESET_NAMES, false);
    if (sl->venv) {
        int rc = venv_reset(sl->venv, seed);
        if (rc)
            return server__fail(s, env_code(rc), "%s", venv_errmsg(sl->venv));
        return server__pack_batch(s, sl, view, names);
    }
    struct env_timestep ts;
    int rc = env_reset(sl->env, seed, &ts);
    if (rc)
        return server__fail(s, env_code(rc), "%s", env_errmsg(sl->env));
    return server__pack_timestep(s, sl, &ts, view, names);
}

int server__handle_step(struct server *s)
{
    const struct proto_in *in = &s->in;
    if (proto_has(in, PROTO_Q_STEP_ACTION) &&
        proto_has(in, PROTO_Q_STEP_ACTIONS))
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "give action or actions, not both");
    struct slot *sl = server__slot(s, proto_uint(in, PROTO_Q_STEP_ENV, 0));
    if (!sl)
        return PROTO_E_UNKNOWN_ENV;
    if (sl->venv)
        return step_vector(s, sl);
    struct env_timestep ts;
    int rc = step_plain_env(s, sl, &ts);
    if (rc > 0)
        return rc;
    if (rc)
        return server__fail(s, env_code(rc), "%s", env_errmsg(sl->env));
    return server__pack_timestep(s, sl, &ts,
                                 proto_bool(in, PROTO_Q_STEP_VIEW, false),
                                 proto_bool(in, PROTO_Q_STEP_NAMES, false));
}

int server__handle_close(struct server *s)
{
    struct slot *sl = server__slot(s, proto_uint(&s->in, PROTO_Q_CLOSE_ENV, 0));
    if (!sl)
        return PROTO_E_UNKNOWN_ENV;
    uint64_t id = sl->id;
    struct session *ses = sl->owner;
    server__free_slot(s, sl);
    if (!ses->envs)
        server__drop_session(s, ses);
    proto_pack_head(&s->pk, PROTO_MSG_CLOSE, s->in.has_id, s->in.id, 1);
    proto_pack_key(&s->pk, PROTO_R_CLOSE_ENV);
    msgpack_pack_uint64(&s->pk, id);
    return 0;
}

/* ---- cross-file --------------------------------------------------------- */

struct slot *server__slot(struct server *s, uint64_t id)
{
    uint64_t i = id & 0xffffffffu;
    if (i >= 1 && i <= (uint64_t)s->nslots) {
        struct slot *sl = &s->slots[i - 1];
        if (sl->id == id && s->cur && sl->owner == s->cur) {
            s->cur->last_used = s->now;
            return sl;
        }
    }
    server__fail(s, PROTO_E_UNKNOWN_ENV,
                 "env %llu is not open for this client: never made, closed, "
                 "closed after %.0f s of silence, or another connection's",
                 (unsigned long long)id, (double)s->o.idle_ms / 1000.0);
    return NULL;
}

void server__free_slot(struct server *s, struct slot *sl)
{
    env_destroy(&sl->env);
    venv_destroy(&sl->venv);
    mem_free(sl->actions);
    mem_free(sl->obs);
    sl->owner->envs -= sl->n;
    s->total -= sl->n;
    uint32_t gen = sl->gen;
    memset(sl, 0, sizeof *sl);
    sl->gen = gen;
    sl->next_free = s->free_head;
    s->free_head = (int)(sl - s->slots);
}

void server__close_all(struct server *s)
{
    while (s->nsessions)
        server__drop_session(s, s->sessions[s->nsessions - 1]);
    mem_free(s->sessions);
    mem_free(s->slots);
    s->sessions = NULL;
    s->slots = NULL;
    s->nslots = s->cap = 0;
    s->free_head = -1;
}
