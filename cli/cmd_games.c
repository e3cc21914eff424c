/* cmd_games.c — `parlor games`: the registered games as a table, JSON or
 * bare names, and `parlor games NAME|SPEC`: one game in full.
 *
 * The full description covers the option table, the dimensions of the
 * configuration (the default one, or the one a spec gives), the layout of
 * the observation tensor, the view's keys and the action space. Action
 * names are taken from the state a seed-1 deal starts in; one seeded
 * random game is then played to find the ids whose names change with the
 * state, so the listing can say which names are only examples.
 */
#include <getopt.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"
#include "cli.h"

/* What `games NAME` shows about the action space, built once. */
struct actions_info {
    struct game g;                /* the configuration described */
    char (*names)[GAME_NAME_MAX]; /* name of each id at the start */
    bool *varies;                 /* id's name changed in a played game */
    bool *legal0;                 /* id legal for the first seat to act */
    uint32_t to_move0;            /* seats to act at the start */
};

static const char *const flag_names[] = {
    "hidden-info", "chance", "zero-sum", "simultaneous", "partnerships",
};
#define NFLAGS ((int)(sizeof flag_names / sizeof flag_names[0]))

static const char *const type_names[] = {"bool", "int", "float", "enum"};

/* ---- static helpers ---------------------------------------------------- */

static void flags_str(unsigned flags, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < NFLAGS && used < len; i++)
        if (flags & (1u << i))
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? ", " : "", flag_names[i]);
    if (!used)
        snprintf(buf, len, "-");
}

static json_t *flags_json(unsigned flags)
{
    json_t *a = json_array();
    for (int i = 0; i < NFLAGS; i++)
        if (flags & (1u << i))
            json_array_append_new(a, json_string(flag_names[i]));
    return a;
}

/* Seat counts a game allows: the range of its "players" option if it has
 * one, else the single count of its default configuration. */
static void players_range(const struct game *dflt, int *lo, int *hi)
{
    const struct game_def *d = dflt->def;
    *lo = *hi = dflt->dims.players;
    for (int i = 0; i < d->nparams; i++)
        if (!strcmp(d->params[i].name, "players") &&
            d->params[i].type == PARAM_INT) {
            *lo = (int)d->params[i].min;
            *hi = (int)d->params[i].max;
        }
}

/* Writes the ids set in set[0..n) as ranges: "0-7, 9, 12-15". */
static void ranges_str(const bool *set, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        if (!set[i])
            continue;
        int j = i;
        while (j + 1 < n && set[j + 1])
            j++;
        used += (size_t)(j > i ? snprintf(buf + used, len - used, "%s%d-%d",
                                          used ? ", " : "", i, j)
                               : snprintf(buf + used, len - used, "%s%d",
                                          used ? ", " : "", i));
        i = j;
    }
    if (!used)
        snprintf(buf, len, "none");
}

/* Terminal columns of UTF-8 text: continuation bytes take none. */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

/* The larger of w and the width of s, for sizing a column. */
static int wider(int w, const char *s)
{
    int n = text_width(s);
    return n > w ? n : w;
}

/* ---- the list ---------------------------------------------------------- */

static int list_names(bool json)
{
    json_t *a = json ? json_array() : NULL;
    for (int i = 0; i < game_registry_count; i++)
        if (json)
            json_array_append_new(a, json_string(game_registry[i]->name));
        else
            printf("%s\n", game_registry[i]->name);
    return json ? cli_json_emit("games", a) : CLI_OK;
}

static int list_text(void)
{
    int wn = 4, wl = 9; /* widths of "NAME" and "LONG NAME" at least */
    for (int i = 0; i < game_registry_count; i++) {
        wn = wider(wn, game_registry[i]->name);
        wl = wider(wl, game_registry[i]->long_name);
    }
    printf("%-*s  %-*s  %-7s  %s\n", wn, "NAME", wl, "LONG NAME", "PLAYERS",
           "FLAGS");
    for (int i = 0; i < game_registry_count; i++) {
        struct game g;
        int lo, hi, rc = cli_make_game("games", game_registry[i]->name, &g);
        if (rc)
            return rc;
        char players[32], flags[128];
        players_range(&g, &lo, &hi);
        snprintf(players, sizeof players, lo == hi ? "%d" : "%d-%d", lo, hi);
        flags_str(g.def->flags, flags, sizeof flags);
        printf("%-*s  %-*s  %-7s  %s\n", wn, g.def->name, wl, g.def->long_name,
               players, flags);
    }
    return CLI_OK;
}

static json_t *players_json(const struct game *g)
{
    int lo, hi;
    players_range(g, &lo, &hi);
    return json_pack("{s:i, s:i, s:i}", "min", lo, "max", hi, "default",
                     g->dims.players);
}

/* The configurations the game's own tests cover (its test_specs), which
 * tools such as protocol/python/check-ecosystem.sh check besides NAME. */
static json_t *test_specs_json(const struct game_def *d)
{
    json_t *a = json_array();
    for (const char *const *t = d->test_specs; t && *t; t++)
        json_array_append_new(a, cli_json_str(*t));
    return a;
}

static int list_json(void)
{
    json_t *a = json_array();
    for (int i = 0; i < game_registry_count; i++) {
        struct game g;
        int rc = cli_make_game("games", game_registry[i]->name, &g);
        if (rc) {
            json_decref(a);
            return rc;
        }
        json_array_append_new(
            a, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "name",
                         g.def->name, "long_name",
                         cli_json_str(g.def->long_name), "source",
                         cli_json_str(g.def->source), "players",
                         players_json(&g), "flags", flags_json(g.def->flags),
                         "test_specs", test_specs_json(g.def)));
    }
    return cli_json_emit("games", a);
}

/* ---- the action space -------------------------------------------------- */

/* Marks the legal ids of every acting seat whose names differ from the
 * names at the start, and picks each acting seat's random action into
 * joint for the next step (-1 when a seat has none: a game bug). */
static void note_varying(struct actions_info *ai, const void *st, int *buf,
                         int *joint, struct rng *rng)
{
    const struct game *g = &ai->g;
    char name[GAME_NAME_MAX];
    for (uint32_t m = g->def->to_move(g, st); m; m &= m - 1) {
        int s = __builtin_ctz(m);
        int n = g->def->legal(g, st, s, buf);
        for (int i = 0; i < n; i++) {
            cli_action_name(g, st, buf[i], name);
            if (strcmp(name, ai->names[buf[i]]))
                ai->varies[buf[i]] = true;
        }
        joint[s] = n > 0 ? buf[rng_below(rng, (uint32_t)n)] : -1;
    }
}

/* Plays one seeded random game (seed 1), recording varying names. */
static int find_varying(struct actions_info *ai, const void *start)
{
    const struct game *g = &ai->g;
    void *st = mem_alloc(g->def->state_size);
    int *buf = mem_alloc(sizeof(int) * (size_t)g->dims.max_legal);
    int joint[GAME_MAX_PLAYERS], rc = 0;
    struct rng rng;
    rng_seed(&rng, 1);
    memcpy(st, start, g->def->state_size);
    for (int step = 0; !game_is_terminal(g, st); step++) {
        note_varying(ai, st, buf, joint, &rng);
        rc = step < g->dims.max_length ? game_apply_joint(g, st, joint)
                                       : ERR_STATE;
        if (rc)
            break;
    }
    mem_free(buf);
    mem_free(st);
    return rc;
}

static int actions_load(struct actions_info *ai)
{
    const struct game *g = &ai->g;
    int na = g->dims.num_actions;
    void *st = mem_alloc(g->def->state_size);
    int *buf = mem_alloc(sizeof(int) * (size_t)g->dims.max_legal);
    ai->names = mem_alloc((size_t)na * sizeof *ai->names);
    ai->varies = mem_alloc((size_t)na * sizeof(bool));
    ai->legal0 = mem_alloc((size_t)na * sizeof(bool));
    int rc = game_init(g, st, 1, NULL, 0);
    if (!rc) {
        for (int a = 0; a < na; a++)
            cli_action_name(g, st, a, ai->names[a]);
        ai->to_move0 = g->def->to_move(g, st);
        int seat = ai->to_move0 ? __builtin_ctz(ai->to_move0) : 0;
        int n = ai->to_move0 ? g->def->legal(g, st, seat, buf) : 0;
        for (int i = 0; i < n; i++)
            ai->legal0[buf[i]] = true;
        rc = find_varying(ai, st);
    }
    mem_free(buf);
    mem_free(st);
    return rc;
}

static void actions_free(struct actions_info *ai)
{
    mem_free(ai->names);
    mem_free(ai->varies);
    mem_free(ai->legal0);
}

/* Length of name's prefix up to its last space (0 if none): ids whose
 * names share such a prefix are printed as one group. */
static size_t group_prefix(const char *name)
{
    const char *sp = strrchr(name, ' ');
    return sp && sp[1] ? (size_t)(sp - name) + 1 : 0;
}

#define LONG_GROUP 64 /* ids in a group past which the middle is elided */

/* Prints ids [a, b] sharing a prefix of plen bytes: "0-51  play A♣ 2♣ ...",
 * wrapped at 78 columns. */
static void print_group(const struct actions_info *ai, int a, int b,
                        size_t plen)
{
    char ids[32];
    snprintf(ids, sizeof ids, a == b ? "%d" : "%d-%d", a, b);
    printf("  %-9s %.*s", ids, (int)plen, ai->names[a]);
    int col = 12 + text_width(ai->names[a]) - text_width(ai->names[a] + plen);
    for (int i = a; i <= b; i++) {
        /* A long run (Casino's tens of thousands of overflow ids) shows its
         * first names, an ellipsis and its last name. */
        if (b - a >= LONG_GROUP && i == a + LONG_GROUP / 2) {
            printf(" …");
            col += 2;
            i = b;
        }
        const char *tail = ai->names[i] + plen;
        int w = text_width(tail);
        if (i > a && col + 1 + w > 78) {
            printf("\n%*s", 12 + (int)plen, "");
            col = 12 + (int)plen;
        } else if (i > a) {
            putchar(' ');
            col++;
        }
        printf("%s", tail);
        col += w;
    }
    putchar('\n');
}

static void print_actions(const struct actions_info *ai)
{
    int na = ai->g.dims.num_actions;
    char buf[1024];
    printf("\nactions (%d ids; names as in the seed-1 deal's first state):\n",
           na);
    for (int a = 0; a < na;) {
        size_t plen = group_prefix(ai->names[a]);
        int b = a;
        while (plen && b + 1 < na && group_prefix(ai->names[b + 1]) == plen &&
               !strncmp(ai->names[a], ai->names[b + 1], plen))
            b++;
        print_group(ai, a, b, plen);
        a = b + 1;
    }
    ranges_str(ai->varies, na, buf, sizeof buf);
    printf("ids whose names changed in a seeded random game: %s\n", buf);
    ranges_str(ai->legal0, na, buf, sizeof buf);
    if (ai->to_move0)
        printf("legal at the start (seat %d to act): %s\n",
               __builtin_ctz(ai->to_move0), buf);
}

/* ---- one game as text -------------------------------------------------- */

void cli_print_options(const char *name, const struct param_def *params, int n)
{
    char def[PARAMS_MAX][64], allowed[PARAMS_MAX][256];
    int wn = 4, wd = 7, wa = 7; /* "none", "default", "allowed" */
    for (int i = 0; i < n; i++) {
        params_value_str(&params[i], params[i].def, def[i], 64);
        params_allowed_str(&params[i], allowed[i], 256);
        wn = wider(wn, params[i].name);
        wd = wider(wd, def[i]);
        wa = wider(wa, allowed[i]);
    }
    printf("\noptions (spec: %s(option=value,...)):\n", name);
    if (!n)
        printf("  none\n");
    else
        printf("  %-*s  %-5s  %-*s  %-*s  %s\n", wn, "name", "type", wd,
               "default", wa, "allowed", "meaning");
    for (int i = 0; i < n; i++)
        printf("  %-*s  %-5s  %-*s  %-*s  %s\n", wn, params[i].name,
               type_names[params[i].type], wd, def[i], wa, allowed[i],
               params[i].doc ? params[i].doc : "");
}

static void print_options_of(const struct game *g)
{
    cli_print_options(g->def->name, g->def->params, g->def->nparams);
}

static void print_dims(const struct game *g)
{
    const struct game_dims *m = &g->dims;
    printf("\nconfiguration %s%s:\n  players %d, teams %d", g->spec,
           strchr(g->spec, '(') ? "" : " (the defaults)", m->players, m->teams);
    if (m->teams != m->players) {
        printf(" (team of each seat:");
        for (int s = 0; s < m->players; s++)
            printf(" %d", m->team[s]);
        printf(")");
    }
    printf("\n  actions %d (at most %d legal at once)\n", m->num_actions,
           m->max_legal);
    printf("  observation %d floats in [%g, %g]\n", m->obs_size,
           (double)m->obs_low, (double)m->obs_high);
    printf("  returns per seat in [%g, %g]\n", m->ret_low, m->ret_high);
    printf("  at most %d steps; state %zu bytes\n", m->max_length,
           g->def->state_size);
}

static void print_layout(const struct game *g)
{
    struct obs_segment seg[GAME_OBS_SEGMENTS];
    int n = g->def->obs_layout(g, seg, GAME_OBS_SEGMENTS);
    printf("\nobservation layout:\n  %-6s %-5s %-16s %s\n", "offset", "size",
           "name", "meaning");
    for (int i = 0; i < n && i < GAME_OBS_SEGMENTS; i++)
        printf("  %-6d %-5d %-16s %s\n", seg[i].offset, seg[i].size,
               seg[i].name ? seg[i].name : "", seg[i].doc ? seg[i].doc : "");
    printf("\nview keys:");
    for (const char *const *k = game_view_common_keys; *k; k++)
        printf(" %s", *k);
    for (const char *const *k = g->def->view_keys; *k; k++)
        printf(" %s", *k);
    putchar('\n');
}

static int describe_text(struct actions_info *ai)
{
    const struct game_def *d = ai->g.def;
    char flags[128];
    int lo, hi;
    flags_str(d->flags, flags, sizeof flags);
    players_range(&ai->g, &lo, &hi);
    printf("%s — %s\nsource:  %s\nrules:   docs/games/%s.md\n"
           "flags:   %s\nplayers: %d-%d\n",
           d->name, d->long_name, d->source ? d->source : "-", d->name, flags,
           lo, hi);
    print_options_of(&ai->g);
    print_dims(&ai->g);
    print_layout(&ai->g);
    print_actions(ai);
    return CLI_OK;
}

/* ---- one game as JSON -------------------------------------------------- */

json_t *cli_options_json(const struct param_def *params, int n,
                         const double *values)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        const struct param_def *p = &params[i];
        char def[64], val[64], allowed[256];
        params_value_str(p, p->def, def, sizeof def);
        params_value_str(p, values ? values[i] : p->def, val, sizeof val);
        params_allowed_str(p, allowed, sizeof allowed);
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "name", p->name,
                         "type", type_names[p->type], "default", def, "value",
                         val, "allowed", allowed, "doc", cli_json_str(p->doc)));
    }
    return a;
}

static json_t *dims_json(const struct game *g)
{
    const struct game_dims *m = &g->dims;
    json_t *team = json_array();
    for (int s = 0; s < m->players; s++)
        json_array_append_new(team, json_integer(m->team[s]));
    return json_pack(
        "{s:s, s:i, s:i, s:o, s:i, s:i, s:i, s:o, s:o, s:i, "
        "s:o, s:o, s:I}",
        "spec", g->spec, "players", m->players, "teams", m->teams, "team", team,
        "num_actions", m->num_actions, "max_legal", m->max_legal, "obs_size",
        m->obs_size, "obs_low", cli_json_real(m->obs_low), "obs_high",
        cli_json_real(m->obs_high), "max_length", m->max_length, "ret_low",
        cli_json_real(m->ret_low), "ret_high", cli_json_real(m->ret_high),
        "state_size", (json_int_t)g->def->state_size);
}

static json_t *layout_json(const struct game *g)
{
    struct obs_segment seg[GAME_OBS_SEGMENTS];
    int n = g->def->obs_layout(g, seg, GAME_OBS_SEGMENTS);
    json_t *a = json_array();
    for (int i = 0; i < n && i < GAME_OBS_SEGMENTS; i++)
        json_array_append_new(a, json_pack("{s:o, s:i, s:i, s:o}", "name",
                                           cli_json_str(seg[i].name), "offset",
                                           seg[i].offset, "size", seg[i].size,
                                           "doc", cli_json_str(seg[i].doc)));
    return a;
}

static json_t *view_keys_json(const struct game *g)
{
    json_t *a = json_array();
    for (const char *const *k = game_view_common_keys; *k; k++)
        json_array_append_new(a, cli_json_str(*k));
    for (const char *const *k = g->def->view_keys; *k; k++)
        json_array_append_new(a, cli_json_str(*k));
    return a;
}

static json_t *actions_json(const struct actions_info *ai)
{
    json_t *a = json_array();
    for (int i = 0; i < ai->g.dims.num_actions; i++)
        json_array_append_new(a, json_pack("{s:i, s:o, s:b, s:b}", "id", i,
                                           "name", cli_json_str(ai->names[i]),
                                           "varies", ai->varies[i],
                                           "legal_at_start", ai->legal0[i]));
    return a;
}

static int describe_json(struct actions_info *ai)
{
    const struct game *g = &ai->g;
    json_t *to_move = json_array(), *legal = json_array();
    for (uint32_t m = ai->to_move0; m; m &= m - 1)
        json_array_append_new(to_move, json_integer(__builtin_ctz(m)));
    for (int i = 0; i < g->dims.num_actions; i++)
        if (ai->legal0[i])
            json_array_append_new(legal, json_integer(i));
    json_t *root = json_pack(
        "{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name",
        g->def->name, "long_name", cli_json_str(g->def->long_name), "source",
        cli_json_str(g->def->source), "flags", flags_json(g->def->flags),
        "players", players_json(g), "options",
        cli_options_json(g->def->params, g->def->nparams, g->params.v),
        "config", dims_json(g), "obs_layout", layout_json(g), "view_keys",
        view_keys_json(g), "actions", actions_json(ai), "to_move_at_start",
        to_move, "legal_at_start", legal);
    return cli_json_emit("games", root);
}

static int describe(const char *spec, bool json)
{
    struct actions_info ai;
    memset(&ai, 0, sizeof ai);
    int rc = cli_make_game("games", spec, &ai.g);
    if (rc)
        return rc;
    if (actions_load(&ai)) {
        actions_free(&ai);
        return cli_fail("games",
                        "%s: a seeded random game failed (a bug in "
                        "the game)",
                        ai.g.spec);
    }
    rc = json ? describe_json(&ai) : describe_text(&ai);
    actions_free(&ai);
    return rc;
}

/* ---- API --------------------------------------------------------------- */

int cmd_games(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"names", no_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false, names = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h') {
            cli_usage("games", stdout);
            return CLI_OK;
        }
        if (c != 'j' && c != 'n')
            return cli_bad_option("games", c, argv);
        json |= c == 'j';
        names |= c == 'n';
    }
    if (argc - optind > 1)
        return cli_usage_error("games", "one game at a time, got '%s' too",
                               argv[optind + 1]);
    if (argc - optind == 1 && names)
        return cli_usage_error("games", "--names lists every game; drop it "
                                        "to describe one");
    if (argc - optind == 1)
        return describe(argv[optind], json);
    if (names)
        return list_names(json);
    return json ? list_json() : list_text();
}
