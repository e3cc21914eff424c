/* game.c — registry checks, spec parsing and the checked wrappers that
 * every caller (env, agents, CLI, tests) uses around a game's ops. */
#include "game.h"

#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "view.h"

const char *const game_view_common_keys[] = {"game",     "seat",
                                             "to_move",  "terminal",
                                             "returns",  NULL};
#define COMMON_VIEW_KEYS 5

/* ---- registry ---------------------------------------------------------- */

static int check_def(const struct game_def *d, char *err, size_t errlen)
{
    const char *nm = d->name ? d->name : "(unnamed)";
    if (d->api_version != GAME_API_VERSION)
        return err_set(err, errlen, ERR_INVAL,
                       "game %s: api_version %d, this build supports %d", nm,
                       d->api_version, GAME_API_VERSION);
    if (!d->name || !d->long_name || !d->params || !d->cards ||
        !d->view_keys || !d->state_size || d->nparams > PARAMS_MAX)
        return err_set(err, errlen, ERR_INVAL,
                       "game %s: missing facts (names, params, cards, view "
                       "keys, state size)", nm);
    if (!d->configure || !d->init || !d->to_move || !d->legal ||
        !d->apply || !d->returns || !d->observe || !d->obs_layout ||
        !d->view || !d->action_name || !d->determinize || !d->describe)
        return err_set(err, errlen, ERR_INVAL, "game %s: a required op is "
                       "NULL", nm);
    if ((d->flags & GAME_SIMULTANEOUS) && !d->apply_joint)
        return err_set(err, errlen, ERR_INVAL,
                       "game %s: simultaneous but no apply_joint", nm);
    return 0;
}

int game_registry_check(char *err, size_t errlen)
{
    for (int i = 0; i < game_registry_count; i++) {
        int rc = check_def(game_registry[i], err, errlen);
        if (rc)
            return rc;
        for (int j = 0; j < i; j++)
            if (!strcmp(game_registry[i]->name, game_registry[j]->name))
                return err_set(err, errlen, ERR_INVAL,
                               "game name %s registered twice",
                               game_registry[i]->name);
    }
    return 0;
}

const struct game_def *game_find(const char *name)
{
    for (int i = 0; i < game_registry_count; i++)
        if (!strcmp(game_registry[i]->name, name))
            return game_registry[i];
    return NULL;
}

static int unknown_game(const char *name, char *err, size_t errlen)
{
    char list[1024] = "";
    size_t used = 0;
    for (int i = 0; i < game_registry_count && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 i ? ", " : "", game_registry[i]->name);
    return err_set(err, errlen, ERR_NOTFOUND,
                   "unknown game '%s' (games: %s)", name, list);
}

int game_make(struct game *g, const char *spec, char *err, size_t errlen)
{
    char name[SPEC_NAME_MAX];
    const char *args;
    size_t args_len;
    memset(g, 0, sizeof *g);
    int rc = spec_split(spec, name, &args, &args_len, err, errlen);
    if (rc)
        return rc;
    g->def = game_find(name);
    if (!g->def)
        return unknown_game(name, err, errlen);
    char sub[512];
    rc = params_parse(g->def->params, g->def->nparams, args, args_len,
                      &g->params, sub, sizeof sub);
    if (rc)
        return err_set(err, errlen, rc, "%s: %s", name, sub);
    rc = g->def->configure(&g->params, &g->dims, sub, sizeof sub);
    if (rc)
        return err_set(err, errlen, rc, "%s: %s", name, sub);
    assert(g->dims.players >= 1 && g->dims.players <= GAME_MAX_PLAYERS);
    return params_format(name, g->def->params, g->def->nparams, &g->params,
                         g->spec, sizeof g->spec);
}

double game_param(const struct game *g, const char *name)
{
    for (int i = 0; i < g->def->nparams; i++)
        if (!strcmp(g->def->params[i].name, name))
            return g->params.v[i];
    assert(!"game_param: no such option");
    return 0;
}

/* ---- play -------------------------------------------------------------- */

int game_init(const struct game *g, void *st, uint64_t seed,
              const uint8_t *deck, int ndeck)
{
    return g->def->init(g, st, seed, deck, ndeck);
}

int game_first_dealer(uint64_t seed, int players, const uint8_t *deck,
                      int ndeck)
{
    if (deck && ndeck > 0)
        return 0;
    struct rng r;
    rng_seed(&r, rng_derive(seed, GAME_FIRST_DEALER_STREAM));
    return (int)rng_below(&r, (uint32_t)players);
}

bool game_is_terminal(const struct game *g, const void *st)
{
    return g->def->to_move(g, st) == 0;
}

int game_current_seat(const struct game *g, const void *st)
{
    uint32_t m = g->def->to_move(g, st);
    if (!m)
        return -1;
    if (m & (m - 1))
        return -2;
    return __builtin_ctz(m);
}

static bool is_legal(const struct game *g, const void *st, int seat,
                     int action)
{
    int buf[g->dims.max_legal];
    int n = g->def->legal(g, st, seat, buf);
    for (int i = 0; i < n; i++)
        if (buf[i] == action)
            return true;
    return false;
}

int game_apply(const struct game *g, void *st, int seat, int action)
{
    uint32_t m = g->def->to_move(g, st);
    if (seat < 0 || seat >= g->dims.players || !((m >> seat) & 1))
        return ERR_STATE;
    if (m & (m - 1))
        return ERR_STATE; /* several seats act: use game_apply_joint */
    if (action < 0 || action >= g->dims.num_actions ||
        !is_legal(g, st, seat, action))
        return ERR_ILLEGAL_ACTION;
    return g->def->apply(g, st, action);
}

int game_apply_joint(const struct game *g, void *st, const int *actions)
{
    uint32_t m = g->def->to_move(g, st);
    if (!m)
        return ERR_STATE;
    if (!(m & (m - 1)))
        return game_apply(g, st, __builtin_ctz(m), actions[__builtin_ctz(m)]);
    for (uint32_t r = m; r; r &= r - 1) {
        int s = __builtin_ctz(r);
        if (actions[s] < 0 || actions[s] >= g->dims.num_actions ||
            !is_legal(g, st, s, actions[s]))
            return ERR_ILLEGAL_ACTION;
    }
    return g->def->apply_joint(g, st, actions);
}

int game_legal_mask(const struct game *g, const void *st, int seat,
                    uint64_t *mask)
{
    int buf[g->dims.max_legal];
    int n = g->def->legal(g, st, seat, buf);
    memset(mask, 0, (size_t)(g->dims.num_actions + 63) / 64 * 8);
    for (int i = 0; i < n; i++)
        mask[buf[i] >> 6] |= (uint64_t)1 << (buf[i] & 63);
    return n;
}

void game_returns_winner(const struct game *g, int winner, double *out)
{
    double lose = g->dims.teams > 1 ? -1.0 / (g->dims.teams - 1) : 0;
    for (int s = 0; s < g->dims.players; s++)
        out[s] = winner < 0 ? 0 : g->dims.team[s] == winner ? 1 : lose;
}

int game_sole_best(const int *v, int n)
{
    int who = 0, ties = 0;
    for (int i = 1; i < n; i++) {
        if (v[i] > v[who]) {
            who = i;
            ties = 0;
        } else if (v[i] == v[who]) {
            ties++;
        }
    }
    return ties ? -1 : who;
}

/* ---- views and names --------------------------------------------------- */

int game_view_nkeys(const struct game *g)
{
    int n = COMMON_VIEW_KEYS;
    for (const char *const *k = g->def->view_keys; *k; k++)
        n++;
    return n;
}

/* The common keys' pairs are packed into a stack buffer (view_buf) with
 * the game's own, and the whole view reaches pk in one write. */
int game_view(const struct game *g, const void *st, int seat,
              msgpack_packer *out)
{
    double ret[GAME_MAX_PLAYERS];
    struct view_buf vb;
    msgpack_packer pk_, *pk = &pk_;
    uint32_t m = g->def->to_move(g, st);
    g->def->returns(g, st, ret);
    view_buf_init(&vb, pk, out);
    view_pack_map(pk, (size_t)game_view_nkeys(g));
    view_pack_str(pk, "game");
    view_pack_str(pk, g->spec);
    view_pack_str(pk, "seat");
    view_pack_int(pk, seat);
    view_pack_str(pk, "to_move");
    view_pack_array(pk, (size_t)__builtin_popcount(m));
    for (uint32_t k = m; k; k &= k - 1)
        view_pack_int(pk, __builtin_ctz(k));
    view_pack_str(pk, "terminal");
    if (!m)
        view_pack_bool(pk, 1);
    else
        view_pack_bool(pk, 0);
    view_pack_str(pk, "returns");
    view_pack_array(pk, (size_t)g->dims.players);
    for (int i = 0; i < g->dims.players; i++)
        msgpack_pack_double(pk, ret[i]);
    int rc = g->def->view(g, st, seat, pk);
    view_buf_flush(&vb);
    return rc;
}

int game_deals(const struct game *g, const void *st)
{
    return g->def->deals ? g->def->deals(g, st) : 1;
}

void game_estimate(const struct game *g, const void *st, double *out)
{
    if (g->def->estimate && g->def->to_move(g, st))
        g->def->estimate(g, st, out);
    else
        g->def->returns(g, st, out);
}

void game_estimate_lead(const struct game *g, const double *pts, double scale,
                        double *out)
{
    double v[GAME_MAX_PLAYERS];
    int k = g->dims.teams;
    for (int t = 0; t < k; t++) {
        double other = -HUGE_VAL;
        for (int u = 0; u < k; u++)
            if (u != t && pts[u] > other)
                other = pts[u];
        double x = scale > 0 ? (pts[t] - other) / scale : 0;
        x = x > 1 ? 1 : x < -1 ? -1 : x;
        v[t] = x >= 0 || k < 2 ? x : x / (k - 1);
    }
    for (int s = 0; s < g->dims.players; s++)
        out[s] = v[g->dims.team[s]];
}

int game_action_name(const struct game *g, const void *st, int action,
                     char *buf, size_t len)
{
    return g->def->action_name(g, st, action, buf, len);
}

/* Folds text for matching: lower case, single spaces, suit symbols as
 * letters, "t" rank as "10" is left to card parsing (names use "10"). */
static void fold(const char *s, char *out, size_t len)
{
    static const char *const sym[4] = {"♣", "♦", "♥", "♠"};
    static const char let[4] = {'c', 'd', 'h', 's'};
    size_t o = 0;
    bool space = false;
    while (*s && o + 1 < len) {
        int k = 0;
        while (k < 4 && strncmp(s, sym[k], strlen(sym[k])))
            k++;
        if (k < 4) {
            s += strlen(sym[k]);
            out[o++] = let[k];
            space = false;
            continue;
        }
        unsigned char c = (unsigned char)*s++;
        if (isspace(c)) {
            space = o > 0;
            continue;
        }
        if (space && o + 2 < len)
            out[o++] = ' ';
        space = false;
        out[o++] = (char)tolower(c);
    }
    out[o] = '\0';
}

static bool parse_id(const char *text, int *id)
{
    int n = 0, v = 0;
    while (isspace((unsigned char)*text))
        text++;
    for (; isdigit((unsigned char)text[n]) && n < 9; n++)
        v = v * 10 + (text[n] - '0');
    while (isspace((unsigned char)text[n]))
        n++;
    *id = v;
    return n > 0 && isdigit((unsigned char)text[0]) && text[n] == '\0';
}

int game_action_parse(const struct game *g, const void *st, int seat,
                      const char *text, char *err, size_t errlen)
{
    int buf[g->dims.max_legal];
    int n = g->def->legal(g, st, seat, buf);
    char want[GAME_NAME_MAX], name[GAME_NAME_MAX], have[GAME_NAME_MAX];
    int id;
    if (parse_id(text, &id)) {
        for (int i = 0; i < n; i++)
            if (buf[i] == id)
                return id;
    }
    fold(text, want, sizeof want);
    for (int i = 0; i < n; i++) {
        g->def->action_name(g, st, buf[i], name, sizeof name);
        fold(name, have, sizeof have);
        if (!strcmp(want, have))
            return buf[i];
    }
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; i < n && i < 12 && used < sizeof list; i++) {
        g->def->action_name(g, st, buf[i], name, sizeof name);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                                 i ? ", " : "", name);
    }
    return err_set(err, errlen, ERR_NOTFOUND,
                   "'%s' is not a legal action here (legal: %s%s)", text,
                   n ? list : "none", n > 12 ? ", ..." : "");
}

int game_deck_parse(const struct game *g, const char *text, uint8_t *out,
                    int max, char *err, size_t errlen)
{
    return deck_parse(g->def->cards, text, out, max, err, errlen);
}
