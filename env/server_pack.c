/* server_pack.c — the replies that carry observations: a timestep for a
 * plain env, a batch for a vector env.
 *
 * A batch is packed as columns (DESIGN.md §3): each field of the whole
 * batch is one bin copied straight from the venv's buffers, which already
 * hold the wire layout (row-major, little-endian), so packing is a few
 * memcpys into the reused reply buffer whatever n is. The structured view
 * and action names, which cost far more, are packed only when asked.
 */
#include <stdio.h>
#include <string.h>

#include "server_int.h"

/* ---- static helpers ----------------------------------------------------- */

static void pack_bin(msgpack_packer *pk, const void *p, size_t n)
{
    msgpack_pack_bin(pk, n);
    msgpack_pack_bin_body(pk, p, n);
}

static void pack_bool(msgpack_packer *pk, bool b)
{
    if (b)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}

/* Packs seat's structured view of st (nil for a game without views, which
 * only tests register). */
static void pack_view(msgpack_packer *pk, const struct game *g, const void *st,
                      int seat)
{
    if (!g->def->view || !st) {
        msgpack_pack_nil(pk);
        return;
    }
    game_view(g, st, seat, pk);
}

static int count_bits(const uint64_t *mask, int words)
{
    int n = 0;
    for (int w = 0; w < words; w++)
        n += __builtin_popcountll(mask[w]);
    return n;
}

static void pack_ids(msgpack_packer *pk, const uint64_t *mask, int words)
{
    msgpack_pack_array(pk, (size_t)count_bits(mask, words));
    for (int w = 0; w < words; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1)
            msgpack_pack_int(pk, w * 64 + __builtin_ctzll(m));
}

static void pack_names(msgpack_packer *pk, const struct game *g, const void *st,
                       const uint64_t *mask, int words)
{
    char name[GAME_NAME_MAX];
    msgpack_pack_array(pk, (size_t)count_bits(mask, words));
    for (int w = 0; w < words; w++) {
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int a = w * 64 + __builtin_ctzll(m);
            name[0] = '\0';
            if (g->def->action_name && st)
                game_action_name(g, st, a, name, sizeof name);
            else
                snprintf(name, sizeof name, "%d", a);
            name[sizeof name - 1] = '\0';
            proto_pack_str(pk, name);
        }
    }
}

/* The legal row of env i's observing seat in batch b. */
static const uint64_t *seat_row(const struct venv_batch *b, int i)
{
    int row = b->rows > 1 ? b->seat[i] : 0;
    return b->legal +
           ((size_t)i * (size_t)b->rows + (size_t)row) * (size_t)b->mask_words;
}

/* Packs the final rows and seats of the envs whose episode ended. */
static void pack_finals(msgpack_packer *pk, const struct venv_batch *b)
{
    size_t k = 0, rowbytes = (size_t)b->rows * (size_t)b->obs_size * 4;
    for (int i = 0; i < b->n; i++)
        k += b->terminated[i] || b->truncated[i];
    proto_pack_key(pk, PROTO_R_BATCH_FINAL_OBS);
    msgpack_pack_bin(pk, k * rowbytes);
    for (int i = 0; i < b->n; i++)
        if (b->terminated[i] || b->truncated[i])
            msgpack_pack_bin_body(
                pk, (const char *)b->final_obs + (size_t)i * rowbytes,
                rowbytes);
    proto_pack_key(pk, PROTO_R_BATCH_FINAL_SEAT);
    msgpack_pack_bin(pk, k * 4);
    for (int i = 0; i < b->n; i++)
        if (b->terminated[i] || b->truncated[i])
            msgpack_pack_bin_body(pk, &b->final_seat[i], 4);
}

/* Packs the optional views and names of every env of a batch. */
static void pack_batch_extras(msgpack_packer *pk, const venv_t *v, bool view,
                              bool names)
{
    const struct venv_batch *b = venv_batch(v);
    if (view) {
        proto_pack_key(pk, PROTO_R_BATCH_VIEWS);
        msgpack_pack_array(pk, (size_t)b->n);
        for (int i = 0; i < b->n; i++)
            pack_view(pk, env_game(venv_env(v, i)), env_state(venv_env(v, i)),
                      b->seat[i]);
    }
    if (!names)
        return;
    proto_pack_key(pk, PROTO_R_BATCH_LEGAL_IDS);
    msgpack_pack_array(pk, (size_t)b->n);
    for (int i = 0; i < b->n; i++)
        pack_ids(pk, seat_row(b, i), b->mask_words);
    proto_pack_key(pk, PROTO_R_BATCH_LEGAL_NAMES);
    msgpack_pack_array(pk, (size_t)b->n);
    for (int i = 0; i < b->n; i++)
        pack_names(pk, env_game(venv_env(v, i)), env_state(venv_env(v, i)),
                   seat_row(b, i), b->mask_words);
}

/* ---- cross-file --------------------------------------------------------- */

int server__pack_timestep(struct server *s, struct slot *sl,
                          const struct env_timestep *ts, bool view, bool names)
{
    msgpack_packer *pk = &s->pk;
    const struct env_shape *sh = env_shape(sl->env);
    const struct game *g = env_game(sl->env);
    size_t obs = (size_t)sh->obs_size * sizeof(float);
    size_t mask = (size_t)sh->mask_words * sizeof(uint64_t);
    size_t seats = (size_t)sh->players * sizeof(double);
    proto_pack_head(pk, PROTO_MSG_TIMESTEP, s->in.has_id, s->in.id,
                    9 + (view ? 1 : 0) + (names ? 2 : 0));
    proto_pack_key(pk, PROTO_R_TIMESTEP_TO_MOVE);
    msgpack_pack_uint32(pk, ts->to_move);
    proto_pack_key(pk, PROTO_R_TIMESTEP_SEAT);
    msgpack_pack_int(pk, ts->seat);
    proto_pack_key(pk, PROTO_R_TIMESTEP_STEPS);
    msgpack_pack_int(pk, ts->steps);
    proto_pack_key(pk, PROTO_R_TIMESTEP_TERMINATED);
    pack_bool(pk, ts->terminated);
    proto_pack_key(pk, PROTO_R_TIMESTEP_TRUNCATED);
    pack_bool(pk, ts->truncated);
    proto_pack_key(pk, PROTO_R_TIMESTEP_OBS);
    if (sl->rows > 1) { /* every seat's row, as a joint venv has them */
        for (int seat = 0; seat < sl->rows; seat++)
            env_observe(sl->env, seat, sl->obs + seat * sh->obs_size);
        pack_bin(pk, sl->obs, (size_t)sl->rows * obs);
    } else {
        pack_bin(pk, ts->obs, obs);
    }
    proto_pack_key(pk, PROTO_R_TIMESTEP_LEGAL);
    pack_bin(pk, sl->rows > 1 ? ts->legal_all : ts->legal,
             (size_t)sl->rows * mask);
    proto_pack_key(pk, PROTO_R_TIMESTEP_REWARD);
    pack_bin(pk, ts->reward, seats);
    proto_pack_key(pk, PROTO_R_TIMESTEP_RETURNS);
    pack_bin(pk, ts->returns, seats);
    if (view) {
        proto_pack_key(pk, PROTO_R_TIMESTEP_VIEW);
        pack_view(pk, g, env_state(sl->env), ts->seat);
    }
    if (names) {
        proto_pack_key(pk, PROTO_R_TIMESTEP_LEGAL_IDS);
        pack_ids(pk, ts->legal, sh->mask_words);
        proto_pack_key(pk, PROTO_R_TIMESTEP_LEGAL_NAMES);
        pack_names(pk, g, env_state(sl->env), ts->legal, sh->mask_words);
    }
    return 0;
}

int server__pack_batch(struct server *s, struct slot *sl, bool view, bool names)
{
    msgpack_packer *pk = &s->pk;
    const struct venv_batch *b = venv_batch(sl->venv);
    size_t n = (size_t)b->n, rows = n * (size_t)b->rows;
    proto_pack_head(pk, PROTO_MSG_BATCH, s->in.has_id, s->in.id,
                    11 + (view ? 1 : 0) + (names ? 2 : 0));
    proto_pack_key(pk, PROTO_R_BATCH_N);
    msgpack_pack_int(pk, b->n);
    proto_pack_key(pk, PROTO_R_BATCH_OBS);
    pack_bin(pk, b->obs, rows * (size_t)b->obs_size * sizeof(float));
    proto_pack_key(pk, PROTO_R_BATCH_LEGAL);
    pack_bin(pk, b->legal, rows * (size_t)b->mask_words * sizeof(uint64_t));
    proto_pack_key(pk, PROTO_R_BATCH_REWARD);
    pack_bin(pk, b->reward, n * (size_t)b->rewards * sizeof(double));
    proto_pack_key(pk, PROTO_R_BATCH_TERMINATED);
    pack_bin(pk, b->terminated, n);
    proto_pack_key(pk, PROTO_R_BATCH_TRUNCATED);
    pack_bin(pk, b->truncated, n);
    proto_pack_key(pk, PROTO_R_BATCH_SEAT);
    pack_bin(pk, b->seat, n * sizeof(int32_t));
    proto_pack_key(pk, PROTO_R_BATCH_TO_MOVE);
    pack_bin(pk, b->to_move, n * sizeof(uint32_t));
    proto_pack_key(pk, PROTO_R_BATCH_STEPS);
    pack_bin(pk, b->steps, n * sizeof(int32_t));
    pack_finals(pk, b);
    pack_batch_extras(pk, sl->venv, view, names);
    return 0;
}
