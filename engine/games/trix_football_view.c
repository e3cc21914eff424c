/* trix_football_view.c — Trix Football as a seat sees it: the observation
 * tensor, the structured view, action names, determinization and text.
 * Rules and decisions: trix_football.c. */
#include <stdio.h>
#include <string.h>

#include "../trix_pack.h"
#include "../view.h"
#include "trix_football.h"

static const char *const cat_names[NCAT] = {
    "nothing",   "pair",          "flush", "threes",       "straight fours",
    "full hand", "straight five", "fours", "straight six", "royal hand",
};
static const char *const res_names[NRES] = {
    "",       "no gain",    "gain",    "loss",      "turnover", "touchdown",
    "safety", "field goal", "blocked", "missed",    "goal",     "no goal",
    "kick",   "recovered",  "punt",    "punt kept", "yield",
};
static const char *const play_names[NPLAY] = {
    "kick-off", "rush", "punt", "field goal", "try", "punt field goal",
};
static const char *const phase_names[3] = {"choose", "call", "discard"};

static int plays_per_half(const struct game *g)
{
    return (int)g->params.v[P_PLAYS];
}

/* ==== what a seat sees ================================================= */

static float unit(float v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void put_bits(float *out, uint32_t h)
{
    for (; h; h &= h - 1)
        out[__builtin_ctz(h)] = 1;
}

void trix_football__observe(const struct game *g, const void *vst, int seat,
                            float *out)
{
    const struct tf_state *st = vst;
    memset(out, 0, (size_t)g->dims.obs_size * sizeof *out);
    put_bits(out, st->hand[seat]);
    put_bits(out + 28, st->shown[seat]);
    put_bits(out + 56, st->shown[1 - seat]);
    out[84 + (st->phase == PH_DEAL ? PH_DISCARD : st->phase)] = 1;
    out[87 + st->play] = 1;
    out[93] = trix_football__actor(st) == seat;
    out[94] = unit((float)trix_football__rel(st, seat) / FIELD);
    if (st->down >= 1 && st->down <= 3)
        out[94 + st->down] = 1;
    out[98] = unit((float)st->need / 60);
    out[99] = unit((float)st->score[seat] / 50);
    out[100] = unit((float)st->score[1 - seat] / 50);
    out[101 + st->period] = 1;
    out[104] = unit(1.0f - (float)st->plays / (float)plays_per_half(g));
}

int trix_football__obs_layout(const struct game *g, struct obs_segment *out,
                              int max)
{
    (void)g;
    static const struct obs_segment seg[] = {
        {"hand", 0, 28, "own cards by trix id (2-1 = 4 ... 6-6 = 27)"},
        {"last_hands", 28, 56, "final hands of the last play, self first"},
        {"phase", 84, 3, "choose kick/receive, play call, discard"},
        {"play", 87, 6,
         "kick-off, rush, punt, field goal, try, punt field goal"},
        {"acting", 93, 1, "1 if self has the ball / the choice"},
        {"ball", 94, 1, "ball from own goal line / 110 yards"},
        {"down", 95, 3, "down 1-3, one-hot"},
        {"to_go", 98, 1, "yards to a 1st down / 30 (capped)"},
        {"score", 99, 2, "points / 50 (capped), self first"},
        {"period", 101, 3, "first half, second half, sudden death"},
        {"plays_left", 104, 1, "plays left in the period / plays_per_half"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

int trix_football__action_name(const struct game *g, const void *vst, int a,
                               char *buf, size_t len)
{
    (void)g;
    (void)vst;
    static const char *const calls[A_DISCARD] = {
        "kick", "receive", "rush", "punt", "field goal", "yield 20",
    };
    if (a < A_DISCARD)
        return text_fmt(buf, len, "%s", calls[a]);
    int m = a - A_DISCARD, n = 0;
    if (m == 0)
        return text_fmt(buf, len, "stand");
    n = text_fmt(buf, len, "discard");
    for (int k = 0; k < HANDN && n >= 0 && (size_t)n < len; k++)
        if (m & (1 << k))
            n += text_fmt(buf + n, len - (size_t)n, " %d", k + 1);
    return n;
}

static void pack_hand_bits(msgpack_packer *pk, uint32_t h)
{
    char name[TRIX_NAME_MAX];
    view_pack_array(pk, (size_t)__builtin_popcount(h));
    for (; h; h &= h - 1) {
        trix_card_name(__builtin_ctz(h), name, sizeof name);
        view_pack_str(pk, name);
    }
}

/* A discard is shown to everyone only as the number of cards drawn. */
static void pack_history(const struct tf_state *st, msgpack_packer *pk)
{
    char name[GAME_NAME_MAX];
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        int a = st->hist[i][1];
        if (a >= A_DISCARD)
            text_fmt(name, sizeof name, "draws %d",
                     __builtin_popcount((unsigned)(a - A_DISCARD)));
        else
            trix_football__action_name(NULL, st, a, name, sizeof name);
        view_pack_entry(pk, st->hist[i][0], name);
    }
}

static void pack_kv_int(msgpack_packer *pk, const char *k, int v)
{
    view_pack_str(pk, k);
    view_pack_int(pk, v);
}

int trix_football__view(const struct game *g, const void *vst, int seat,
                        msgpack_packer *pk)
{
    const struct tf_state *st = vst;
    view_pack_str(pk, "hand");
    pack_hand_bits(pk, st->phase == PH_DISCARD ? st->hand[seat] : 0);
    view_pack_str(pk, "dealer");
    view_pack_seat(pk, st->phase == PH_DISCARD ? st->off : -1);
    view_pack_str(pk, "phase");
    view_pack_str(pk, st->over ? "over" : phase_names[st->phase % 3]);
    view_pack_str(pk, "play");
    view_pack_str(pk, play_names[st->play]);
    view_pack_str(pk, "possession");
    view_pack_seat(pk, trix_football__actor(st));
    pack_kv_int(pk, "ball", st->pos);
    pack_kv_int(pk, "down", st->down);
    pack_kv_int(pk, "to_go", st->need);
    view_pack_str(pk, "score");
    view_pack_array(pk, 2);
    view_pack_int(pk, st->score[0]);
    view_pack_int(pk, st->score[1]);
    pack_kv_int(pk, "period", st->period);
    pack_kv_int(pk, "plays_left", plays_per_half(g) - st->plays);
    view_pack_str(pk, "last_hands");
    view_pack_array(pk, 2);
    pack_hand_bits(pk, st->shown[0]);
    pack_hand_bits(pk, st->shown[1]);
    view_pack_str(pk, "last_categories");
    view_pack_array(pk, 2);
    view_pack_str(pk, cat_names[st->last_cat[0]]);
    view_pack_str(pk, cat_names[st->last_cat[1]]);
    view_pack_str(pk, "last_result");
    view_pack_str(pk, res_names[st->last_res]);
    pack_kv_int(pk, "last_half_yards", st->last_yards);
    view_pack_str(pk, "history");
    pack_history(st, pk);
    return 0;
}

/* Hidden: the opponent's hand and the reserve's order during the discard;
 * later scripted deals are dropped (they would be future chance). */
void trix_football__determinize(const struct game *g, void *vst, int seat,
                                struct rng *rng)
{
    (void)g;
    struct tf_state *st = vst;
    st->nscript = st->used = 0;
    if (st->phase == PH_DISCARD) {
        uint8_t pool[NCARD];
        int n = 0;
        for (uint32_t b = trix_football__pack() & ~st->hand[seat]; b;
             b &= b - 1)
            pool[n++] = (uint8_t)__builtin_ctz(b);
        rng_shuffle_u8(rng, pool, n);
        st->hand[1 - seat] = 0;
        for (int i = 0; i < HANDN; i++)
            st->hand[1 - seat] |= 1u << pool[i];
        memcpy(st->deck + 2 * HANDN, pool + HANDN, (size_t)(n - HANDN));
    }
    rng_seed(&st->rng, rng_next(rng));
}

int trix_football__describe(const struct game *g, const void *vst, int seat,
                            char *buf, size_t len)
{
    const struct tf_state *st = vst;
    char h[64];
    int n = snprintf(buf, len,
                     "score %d-%d, period %d, %d plays left; %s, %s\n"
                     "ball on seat 0's %.1f yard line, seat %d acting, "
                     "down %d, %.1f to go\n",
                     st->score[0], st->score[1], st->period + 1,
                     plays_per_half(g) - st->plays,
                     st->over ? "over" : phase_names[st->phase % 3],
                     play_names[st->play], st->pos / 2.0,
                     trix_football__actor(st), st->down, st->need / 2.0);
    for (int s = 0; s < 2 && n >= 0 && (size_t)n < len; s++) {
        bool see = st->phase == PH_DISCARD && (seat < 0 || seat == s);
        uint32_t b = see ? st->hand[s] : st->shown[s];
        trix_hand_t t = {b, 0};
        trix_hand_format(t, h, sizeof h);
        n += snprintf(buf + n, len - (size_t)n, "seat %d %s: %s (%s)\n", s,
                      see ? "hand" : "last shown", h,
                      see ? cat_names[trix_football__classify(b)]
                          : cat_names[st->last_cat[s]]);
    }
    if (n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "last: %s\n",
                      res_names[st->last_res]);
    return n;
}
