/* server_info.c — the requests that need no env: hello (server, versions,
 * games, limits), describe (one game configuration in full) and ping.
 *
 * describe says what `parlor games SPEC --json` says, in msgpack, so that
 * a client can size its buffers and read the observation without the
 * command line. None of these is on a hot path.
 */
#include <stdio.h>
#include <string.h>

#include "../common/params.h"
#include "server_int.h"

static const char *const flag_names[] = {
    "hidden-info", "chance", "zero-sum", "simultaneous", "partnerships",
};
#define NFLAGS ((int)(sizeof flag_names / sizeof flag_names[0]))

static const char *const type_names[] = {"bool", "int", "float", "enum"};

/* ---- static helpers ----------------------------------------------------- */

static void pack_uint_key(msgpack_packer *pk, enum proto_field f, int v)
{
    proto_pack_key(pk, f);
    msgpack_pack_int(pk, v);
}

static void pack_f64_key(msgpack_packer *pk, enum proto_field f, double v)
{
    proto_pack_key(pk, f);
    msgpack_pack_double(pk, v);
}

static void pack_kv(msgpack_packer *pk, const char *k, const char *v)
{
    proto_pack_str(pk, k);
    proto_pack_str(pk, v);
}

static void pack_flags(msgpack_packer *pk, unsigned flags)
{
    int n = 0;
    for (int i = 0; i < NFLAGS; i++)
        n += (flags >> i) & 1;
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < NFLAGS; i++)
        if ((flags >> i) & 1)
            proto_pack_str(pk, flag_names[i]);
}

/* The game's flags as they hold for this configuration: partnerships
 * only when some seats share a side. */
static unsigned config_flags(const struct game *g)
{
    unsigned flags = g->def->flags;
    if (g->dims.teams == g->dims.players)
        flags &= ~(unsigned)GAME_PARTNERSHIPS;
    return flags;
}

/* Seat counts the game allows: the range of its "players" option, or the
 * configuration's own count when it has none. */
static void players_range(const struct game *g, int *lo, int *hi)
{
    const struct game_def *d = g->def;
    *lo = *hi = g->dims.players;
    for (int i = 0; d->params && i < d->nparams; i++)
        if (!strcmp(d->params[i].name, "players")) {
            *lo = (int)d->params[i].min;
            *hi = (int)d->params[i].max;
        }
}

static void pack_options(msgpack_packer *pk, const struct game *g)
{
    const struct game_def *d = g->def;
    int n = d->params ? d->nparams : 0;
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        const struct param_def *p = &d->params[i];
        char dflt[64], value[64], allowed[256];
        params_value_str(p, p->def, dflt, sizeof dflt);
        params_value_str(p, g->params.v[i], value, sizeof value);
        params_allowed_str(p, allowed, sizeof allowed);
        msgpack_pack_map(pk, 6);
        pack_kv(pk, "name", p->name);
        pack_kv(pk, "type", type_names[p->type]);
        pack_kv(pk, "default", dflt);
        pack_kv(pk, "value", value);
        pack_kv(pk, "allowed", allowed);
        pack_kv(pk, "doc", p->doc);
    }
}

static void pack_layout(msgpack_packer *pk, const struct game *g)
{
    struct obs_segment seg[GAME_OBS_SEGMENTS];
    int n =
        g->def->obs_layout ? g->def->obs_layout(g, seg, GAME_OBS_SEGMENTS) : 0;
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_map(pk, 4);
        pack_kv(pk, "name", seg[i].name);
        proto_pack_str(pk, "offset");
        msgpack_pack_int(pk, seg[i].offset);
        proto_pack_str(pk, "size");
        msgpack_pack_int(pk, seg[i].size);
        pack_kv(pk, "doc", seg[i].doc);
    }
}

static void pack_view_keys(msgpack_packer *pk, const struct game *g)
{
    const char *const *own = g->def->view_keys;
    int n = 0, m = 0;
    while (game_view_common_keys[n])
        n++;
    while (own && own[m])
        m++;
    msgpack_pack_array(pk, (size_t)(n + m));
    for (int i = 0; i < n; i++)
        proto_pack_str(pk, game_view_common_keys[i]);
    for (int i = 0; i < m; i++)
        proto_pack_str(pk, own[i]);
}

/* The shape fields of describe, after its names. */
static void pack_dims(msgpack_packer *pk, const struct game *g)
{
    const struct game_dims *d = &g->dims;
    int lo, hi;
    players_range(g, &lo, &hi);
    pack_uint_key(pk, PROTO_R_DESCRIBE_MIN_PLAYERS, lo);
    pack_uint_key(pk, PROTO_R_DESCRIBE_MAX_PLAYERS, hi);
    pack_uint_key(pk, PROTO_R_DESCRIBE_PLAYERS, d->players);
    pack_uint_key(pk, PROTO_R_DESCRIBE_TEAMS, d->teams);
    proto_pack_key(pk, PROTO_R_DESCRIBE_TEAM);
    msgpack_pack_array(pk, (size_t)d->players);
    for (int i = 0; i < d->players; i++)
        msgpack_pack_int(pk, d->team[i]);
    pack_uint_key(pk, PROTO_R_DESCRIBE_NUM_ACTIONS, d->num_actions);
    pack_uint_key(pk, PROTO_R_DESCRIBE_MASK_BYTES,
                  8 * ((d->num_actions + 63) / 64));
    pack_uint_key(pk, PROTO_R_DESCRIBE_OBS_SIZE, d->obs_size);
    pack_f64_key(pk, PROTO_R_DESCRIBE_OBS_LOW, d->obs_low);
    pack_f64_key(pk, PROTO_R_DESCRIBE_OBS_HIGH, d->obs_high);
    pack_f64_key(pk, PROTO_R_DESCRIBE_RET_LOW, d->ret_low);
    pack_f64_key(pk, PROTO_R_DESCRIBE_RET_HIGH, d->ret_high);
    pack_uint_key(pk, PROTO_R_DESCRIBE_MAX_LENGTH, d->max_length);
}

/* ---- handlers ----------------------------------------------------------- */

int server__handle_hello(struct server *s)
{
    msgpack_packer *pk = &s->pk;
    char name[128], line[160];
    if (!proto_str_copy(&s->in, PROTO_Q_HELLO_CLIENT, name, sizeof name)) {
        for (char *p = name; *p; p++) /* one log line, whatever was sent */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        snprintf(line, sizeof line, "says hello: %s", name);
        server__log(s, line);
    }
    proto_pack_head(pk, PROTO_MSG_HELLO, s->in.has_id, s->in.id, 6);
    proto_pack_key(pk, PROTO_R_HELLO_SERVER);
    proto_pack_str(pk, SERVER_NAME);
    proto_pack_key(pk, PROTO_R_HELLO_VERSIONS);
    msgpack_pack_array(pk, 2);
    msgpack_pack_int(pk, PROTO_VERSION_MIN);
    msgpack_pack_int(pk, PROTO_VERSION);
    proto_pack_key(pk, PROTO_R_HELLO_GAMES);
    msgpack_pack_array(pk, (size_t)game_registry_count);
    for (int i = 0; i < game_registry_count; i++)
        proto_pack_str(pk, game_registry[i]->name);
    proto_pack_key(pk, PROTO_R_HELLO_MAX_MSG);
    msgpack_pack_uint64(pk, s->o.max_msg);
    pack_uint_key(pk, PROTO_R_HELLO_MAX_ENVS, s->o.max_envs);
    pack_f64_key(pk, PROTO_R_HELLO_IDLE_TIMEOUT, (double)s->o.idle_ms / 1000.0);
    return 0;
}

int server__handle_describe(struct server *s)
{
    char spec[SERVER_TEXT_MAX], err[PROTO_ERRMSG_MAX - 32];
    struct game g;
    if (proto_str_copy(&s->in, PROTO_Q_DESCRIBE_GAME, spec, sizeof spec))
        return server__fail(s, PROTO_E_BAD_VALUE,
                            "game must be a spec of less than %d bytes "
                            "without NUL bytes",
                            SERVER_TEXT_MAX);
    if (s->o.make_game(&g, spec, err, sizeof err))
        return server__fail(s, PROTO_E_BAD_SPEC, "%s", err);
    msgpack_packer *pk = &s->pk;
    proto_pack_head(pk, PROTO_MSG_DESCRIBE, s->in.has_id, s->in.id, 21);
    proto_pack_key(pk, PROTO_R_DESCRIBE_SPEC);
    proto_pack_str(pk, g.spec);
    proto_pack_key(pk, PROTO_R_DESCRIBE_NAME);
    proto_pack_str(pk, g.def->name);
    proto_pack_key(pk, PROTO_R_DESCRIBE_LONG_NAME);
    proto_pack_str(pk, g.def->long_name ? g.def->long_name : g.def->name);
    proto_pack_key(pk, PROTO_R_DESCRIBE_SOURCE);
    proto_pack_str(pk, g.def->source ? g.def->source : "");
    proto_pack_key(pk, PROTO_R_DESCRIBE_FLAGS);
    pack_flags(pk, config_flags(&g));
    pack_dims(pk, &g);
    proto_pack_key(pk, PROTO_R_DESCRIBE_OPTIONS);
    pack_options(pk, &g);
    proto_pack_key(pk, PROTO_R_DESCRIBE_OBS_LAYOUT);
    pack_layout(pk, &g);
    proto_pack_key(pk, PROTO_R_DESCRIBE_VIEW_KEYS);
    pack_view_keys(pk, &g);
    return 0;
}

int server__handle_ping(struct server *s)
{
    proto_pack_head(&s->pk, PROTO_MSG_PING, s->in.has_id, s->in.id, 0);
    return 0;
}
