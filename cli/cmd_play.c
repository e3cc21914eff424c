/* cmd_play.c — `parlor play`: one game at the terminal, people and bots.
 *
 * Each seat is a person ("human") or an agent spec. A person sees the
 * game's description from their seat and a numbered list of the legal
 * actions, and answers with a number or an action's name; a wrong entry
 * is explained and asked again. Card names may be typed in ASCII ("TH",
 * "10h", "qs"), and a bare card picks the one legal action that names it.
 * Every step is printed ("seat 2 (random): play 10♥"), then what it caused
 * (tricks won, deals ended, scores: engine/events.h), and at the end the
 * final state and each seat's return. With --json every one of those is a
 * JSON object on its own line and a person answers with action ids or
 * names, for scripts. The deal and the agents are seeded from --seed, so
 * a game replays exactly.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../agents/agent.h"
#include "../common/err.h"
#include "../common/mem.h"
#include "../engine/events.h"
#include "cli.h"

#define LABEL_MAX GAME_SPEC_MAX /* a seat's label: "human" or a spec */
#define DECK_MAX 4096           /* most --deck cards parsed */

/* What the command line asked for. */
struct play_opts {
    const char *spec;  /* the game */
    const char *seats; /* comma list of agent specs and "human"; NULL */
    const char *deck;  /* deck prefix text; NULL for none */
    uint64_t seed;     /* deal and agent seed */
    bool quiet;        /* no step trace */
    bool json;         /* one JSON object a line */
};

/* One game in progress. */
struct play {
    struct game g;                           /* the configured game */
    void *st;                                /* its state, owned */
    int *buf;                                /* legal actions, max_legal */
    agent_t *agent[GAME_MAX_PLAYERS];        /* NULL for a person */
    char label[GAME_MAX_PLAYERS][LABEL_MAX]; /* "human" or agent spec */
    bool quiet;                              /* no step trace */
    bool json;                               /* JSON lines, not text */
    struct events ev;                        /* what the last step showed */
    char *line;                              /* a person's input, getline's */
    size_t cap;                              /* bytes allocated for line */
    const int *moves;                        /* replaying these; NULL: play */
    int nmoves, next;                        /* their count, the next one */
    int steps;                               /* steps applied so far */
};

/* Why read_choice() did not return an action. */
enum { CHOICE_OK, CHOICE_SHOW, CHOICE_WRONG };

/* ---- seats ------------------------------------------------------------- */

/* Cuts list at its top-level commas (agent specs may hold commas inside
 * parentheses) into item[], NUL-terminating in place; returns the count
 * or -1 when there are more than max. */
static int split_seats(char *list, char **item, int max)
{
    int n = 0, depth = 0;
    item[n++] = list;
    for (char *c = list; *c; c++) {
        depth += (*c == '(') - (*c == ')');
        if (*c != ',' || depth > 0)
            continue;
        if (n == max)
            return -1;
        *c = '\0';
        item[n++] = c + 1;
    }
    return n;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int seat_setup(struct play *p, int seat, char *spec, uint64_t seed)
{
    char err[1024];
    spec = trim(spec);
    if (!strcmp(spec, "human")) {
        snprintf(p->label[seat], sizeof p->label[seat], "human");
        return CLI_OK;
    }
    p->agent[seat] = agent_new(spec, &p->g, err, sizeof err);
    if (!p->agent[seat]) {
        fprintf(stderr, "parlor play: seat %d: %s\n", seat, err);
        return CLI_USAGE;
    }
    /* The seat is mixed in so that equal agents do not play alike. */
    agent_reseed(p->agent[seat], rng_derive(seed, (uint64_t)seat));
    snprintf(p->label[seat], sizeof p->label[seat], "%s",
             agent_spec(p->agent[seat]));
    return CLI_OK;
}

static int seats_setup(struct play *p, const char *seats, uint64_t seed)
{
    char list[4096], *item[GAME_MAX_PLAYERS];
    int players = p->g.dims.players;
    if (seats && strlen(seats) >= sizeof list)
        return cli_usage_error("play", "--seats is too long");
    if (seats) {
        snprintf(list, sizeof list, "%s", seats);
    } else {
        size_t used = (size_t)snprintf(list, sizeof list, "human");
        for (int s = 1; s < players; s++)
            used +=
                (size_t)snprintf(list + used, sizeof list - used, ",random");
    }
    int n = split_seats(list, item, GAME_MAX_PLAYERS);
    if (n != players)
        return cli_usage_error(
            "play", "--seats names %s%d seat%s; %s has %d",
            n < 0 ? "more than " : "", n < 0 ? GAME_MAX_PLAYERS : n,
            n == 1 ? "" : "s", p->g.spec, players);
    for (int s = 0; s < players; s++) {
        int rc = seat_setup(p, s, item[s], seed);
        if (rc)
            return rc;
    }
    return CLI_OK;
}

/* ---- output ------------------------------------------------------------ */

/* Prints o (stolen) as one line and flushes: a script waits on each. */
static void emit(json_t *o)
{
    if (o && !json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER))
        putchar('\n');
    json_decref(o);
    fflush(stdout);
}

static void show_text(const char *text)
{
    size_t len = strlen(text);
    printf("\n%s%s", text, len && text[len - 1] == '\n' ? "" : "\n");
}

static json_t *json_doubles(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, cli_json_real(v[i]));
    return a;
}

static json_t *event_json(const struct event *ev, const char *text)
{
    json_t *o = json_pack("{s:s, s:s, s:o, s:i}", "type", "event", "event",
                          events_kind_name(ev->kind), "text",
                          cli_json_str(text), "deal", ev->deal);
    if (ev->kind == EVENT_TRICK)
        json_object_set_new(o, "trick", json_integer(ev->trick));
    if (ev->kind == EVENT_TRICK || ev->kind == EVENT_DEAL_BEGIN)
        json_object_set_new(o, "seat",
                            ev->seat < 0 ? json_null()
                                         : json_integer(ev->seat));
    if (ev->kind != EVENT_TRICK && ev->kind != EVENT_DEAL_BEGIN) {
        json_object_set_new(o, "values", json_doubles(ev->value, ev->n));
        json_object_set_new(o, "changes", json_doubles(ev->delta, ev->n));
    }
    return o;
}

/* Shows what the step just applied caused. */
static void show_events(struct play *p)
{
    struct event ev[EVENTS_MAX];
    char text[512];
    if (p->quiet)
        return;
    int n = events_next(&p->ev, &p->g, p->st, ev);
    for (int i = 0; i < n; i++) {
        events_format(&ev[i], text, sizeof text);
        if (p->json)
            emit(event_json(&ev[i], text));
        else
            printf("  * %s\n", text);
    }
}

static void show_step(struct play *p, int seat, int action)
{
    char name[GAME_NAME_MAX];
    cli_action_name(&p->g, p->st, action, name);
    if (p->json)
        emit(json_pack("{s:s, s:i, s:o, s:i, s:o}", "type", "step", "seat",
                       seat, "label", cli_json_str(p->label[seat]), "action",
                       action, "name", cli_json_str(name)));
    else
        printf("seat %d (%s): %s\n", seat, p->label[seat], name);
}

/* o as JSON: maps with string keys become objects, binary data null. */
static json_t *object_json(const msgpack_object *o)
{
    json_t *j;
    switch (o->type) {
    case MSGPACK_OBJECT_BOOLEAN:
        return json_boolean(o->via.boolean);
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return json_integer((json_int_t)o->via.u64);
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return json_integer((json_int_t)o->via.i64);
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        return cli_json_real(o->via.f64);
    case MSGPACK_OBJECT_STR:
        j = json_stringn(o->via.str.ptr, o->via.str.size);
        return j ? j : json_null();
    case MSGPACK_OBJECT_ARRAY:
        j = json_array();
        for (uint32_t i = 0; i < o->via.array.size; i++)
            json_array_append_new(j, object_json(&o->via.array.ptr[i]));
        return j;
    case MSGPACK_OBJECT_MAP:
        j = json_object();
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object *k = &o->via.map.ptr[i].key;
            if (k->type == MSGPACK_OBJECT_STR)
                json_object_setn_new(j, k->via.str.ptr, k->via.str.size,
                                     object_json(&o->via.map.ptr[i].val));
        }
        return j;
    default:
        return json_null();
    }
}

/* seat's structured view (game_view) as a JSON object; null if the game
 * could not pack it. */
static json_t *view_json(const struct play *p, int seat)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    json_t *j = NULL;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_unpacked_init(&u);
    if (!game_view(&p->g, p->st, seat, &pk) &&
        msgpack_unpack_next(&u, sb.data, sb.size, NULL) ==
            MSGPACK_UNPACK_SUCCESS)
        j = object_json(&u.data);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return j ? j : json_null();
}

/* ---- a person's turn --------------------------------------------------- */

static void show_turn(struct play *p, int seat, int n)
{
    char name[GAME_NAME_MAX];
    char *text = cli_describe(&p->g, p->st, seat);
    if (p->json) {
        json_t *legal = json_array();
        for (int i = 0; i < n; i++) {
            cli_action_name(&p->g, p->st, p->buf[i], name);
            json_array_append_new(legal,
                                  json_pack("{s:i, s:o}", "id", p->buf[i],
                                            "name", cli_json_str(name)));
        }
        emit(json_pack("{s:s, s:i, s:o, s:o, s:o}", "type", "prompt", "seat",
                       seat, "state", cli_json_str(text), "view",
                       view_json(p, seat), "legal", legal));
        mem_free(text);
        return;
    }
    show_text(text);
    mem_free(text);
    printf("seat %d, your move:\n", seat);
    for (int i = 0; i < n; i++) {
        cli_action_name(&p->g, p->st, p->buf[i], name);
        printf("  %2d: %s\n", i + 1, name);
    }
}

/* Writes text into out with every word the game's pack reads as a card
 * ("TH", "qs", "10h") replaced by the card's own name ("10♥"), the way
 * action names spell it. */
static void canonical_cards(const struct card_codec *cc, const char *text,
                            char *out, size_t len)
{
    char copy[GAME_NAME_MAX], card[32], *save = NULL;
    size_t used = 0;
    snprintf(copy, sizeof copy, "%s", text);
    out[0] = '\0';
    for (char *w = strtok_r(copy, " \t", &save); w && used < len;
         w = strtok_r(NULL, " \t", &save)) {
        const char *end = w;
        int c = cc ? cc->parse(w, &end) : -1;
        if (c >= 0 && !*end && cc->name(c, card, sizeof card) > 0)
            w = card;
        used += (size_t)snprintf(out + used, len - used, "%s%s",
                                 used ? " " : "", w);
    }
}

/* The one legal action whose name holds card (a canonical name) as a
 * word, or -1 when none or several do. */
static int action_naming(struct play *p, int n, const char *card)
{
    char name[GAME_NAME_MAX], *save = NULL;
    int found = -1;
    for (int i = 0; i < n; i++) {
        cli_action_name(&p->g, p->st, p->buf[i], name);
        for (char *w = strtok_r(name, " \t", &save); w;
             w = strtok_r(NULL, " \t", &save)) {
            if (strcmp(w, card))
                continue;
            if (found >= 0)
                return -1;
            found = p->buf[i];
            break;
        }
    }
    return found;
}

/* Parses an action's name or id as game_action_parse() does, then with
 * ASCII card names read as the game's own, then as a bare card. */
static int parse_action(struct play *p, int seat, int n, const char *text,
                        char *err, size_t errlen)
{
    char fixed[GAME_NAME_MAX];
    int a = game_action_parse(&p->g, p->st, seat, text, err, errlen);
    if (a >= 0 || strlen(text) >= sizeof fixed)
        return a;
    canonical_cards(p->g.def->cards, text, fixed, sizeof fixed);
    int b = game_action_parse(&p->g, p->st, seat, fixed, NULL, 0);
    if (b < 0 && !strchr(fixed, ' '))
        b = action_naming(p, n, fixed);
    return b >= 0 ? b : a;
}

static int read_choice(struct play *p, int seat, int n, const char *text,
                       int *action)
{
    char err[1024];
    uint64_t k;
    if (!strcmp(text, "?"))
        return CHOICE_SHOW;
    if (!text[0]) {
        if (p->json)
            snprintf(err, sizeof err, "type a legal action's id or name");
        else
            snprintf(err, sizeof err,
                     "type a number from 1 to %d or an action's name "
                     "(? shows the list again)",
                     n);
        goto wrong;
    }
    if (!p->json && cli_parse_u64(text, &k)) {
        if (k >= 1 && k <= (uint64_t)n) {
            *action = p->buf[k - 1];
            return CHOICE_OK;
        }
        snprintf(err, sizeof err,
                 "there is no action %s: choose 1 to %d, or type a name",
                 text, n);
        goto wrong;
    }
    int a = parse_action(p, seat, n, text, err, sizeof err);
    if (a >= 0) {
        *action = a;
        return CHOICE_OK;
    }
wrong:
    if (p->json)
        emit(json_pack("{s:s, s:o}", "type", "error", "message",
                       cli_json_str(err)));
    else
        printf("%s\n", err);
    return CHOICE_WRONG;
}

static int human_turn(struct play *p, int seat, int *action)
{
    int n = p->g.def->legal(&p->g, p->st, seat, p->buf);
    if (n <= 0)
        return cli_fail("play",
                        "seat %d is to act but has no legal action "
                        "(a bug in %s)",
                        seat, p->g.def->name);
    show_turn(p, seat, n);
    for (;;) {
        if (!p->json) {
            printf("seat %d> ", seat);
            fflush(stdout);
        }
        if (getline(&p->line, &p->cap, stdin) < 0) {
            if (!p->json)
                putchar('\n');
            return cli_fail("play", "input ended; game abandoned");
        }
        char *text = trim(p->line);
        if (!p->json && !isatty(STDIN_FILENO))
            printf("%s\n", text); /* a scripted game reads as typed */
        int rc = read_choice(p, seat, n, text, action);
        if (rc == CHOICE_OK)
            return CLI_OK;
        if (rc == CHOICE_SHOW)
            show_turn(p, seat, n);
    }
}

/* ---- the game ---------------------------------------------------------- */

static int choose(struct play *p, int seat, int *action)
{
    if (p->moves) {
        *action = p->moves[p->next++];
        return CLI_OK;
    }
    if (!p->agent[seat])
        return human_turn(p, seat, action);
    int rc = agent_act(p->agent[seat], p->st, seat, action);
    if (rc)
        return cli_fail("play", "seat %d (%s) could not act: %s", seat,
                        p->label[seat], err_str(rc));
    return CLI_OK;
}

/* Chooses an action for every acting seat, prints the step, applies it
 * and prints what it caused. */
static int step(struct play *p, uint32_t acting)
{
    int joint[GAME_MAX_PLAYERS];
    for (uint32_t m = acting; m; m &= m - 1) {
        int rc = choose(p, __builtin_ctz(m), &joint[__builtin_ctz(m)]);
        if (rc)
            return rc;
    }
    for (uint32_t m = acting; m && !p->quiet; m &= m - 1)
        show_step(p, __builtin_ctz(m), joint[__builtin_ctz(m)]);
    int rc = game_apply_joint(&p->g, p->st, joint);
    if (rc)
        return cli_fail("play", "the game refused a move: %s", err_str(rc));
    show_events(p);
    return CLI_OK;
}

static void report(const struct play *p, uint64_t seed)
{
    double ret[GAME_MAX_PLAYERS];
    char *text = cli_describe(&p->g, p->st, -1);
    p->g.def->returns(&p->g, p->st, ret);
    if (p->json) {
        char num[24];
        snprintf(num, sizeof num, "%llu", (unsigned long long)seed);
        emit(json_pack("{s:s, s:s, s:s, s:o, s:o, s:i, s:b}", "type",
                       "result", "game", p->g.spec, "seed", num, "state",
                       cli_json_str(text),
                       "returns", json_doubles(ret, p->g.dims.players),
                       "steps", p->steps, "finished",
                       game_is_terminal(&p->g, p->st)));
        mem_free(text);
        return;
    }
    show_text(text);
    mem_free(text);
    printf("\nresult of %s, seed %llu:\n", p->g.spec, (unsigned long long)seed);
    for (int s = 0; s < p->g.dims.players; s++)
        printf("  seat %d (%s): %g\n", s, p->label[s], ret[s]);
}

/* How many forced cards g's init takes: a deck is built one card at a
 * time, each the next id (cyclically) that init still accepts, up to
 * limit. Used only to explain a refused --deck. */
static int deck_capacity(const struct game *g, void *st, uint64_t seed,
                         int limit)
{
    const struct card_codec *cc = g->def->cards;
    uint8_t *deck = mem_alloc((size_t)limit + 1);
    int n = 0, next = 0;
    while (n <= limit) {
        int k = 0;
        for (; k < cc->ncards; k++) {
            deck[n] = (uint8_t)((next + k) % cc->ncards);
            if (!game_init(g, st, seed, deck, n + 1))
                break;
        }
        if (k == cc->ncards)
            break;
        next = deck[n++] + 1;
    }
    mem_free(deck);
    return n;
}

static int start(struct play *p, const struct play_opts *o)
{
    char err[1024];
    int ndeck = 0, rc = CLI_OK;
    uint8_t *deck = mem_alloc(DECK_MAX);
    if (o->deck) {
        ndeck = game_deck_parse(&p->g, o->deck, deck, DECK_MAX, err,
                                sizeof err);
        int copies = p->g.def->cards->max_copies;
        if (ndeck == ERR_INVAL) /* an id given more often than allowed */
            rc = cli_usage_error("play",
                                 "--deck: %s (%s holds at most %d of each "
                                 "card)",
                                 err, p->g.spec, copies > 1 ? copies : 1);
        else if (ndeck < 0)
            rc = cli_usage_error("play", "--deck: %s", err);
    }
    if (!rc && game_init(&p->g, p->st, o->seed, ndeck ? deck : NULL, ndeck)) {
        int cap = ndeck ? deck_capacity(&p->g, p->st, o->seed, ndeck) : 0;
        if (ndeck > cap)
            rc = cli_usage_error("play",
                                 "--deck: %s takes at most %d forced cards "
                                 "(its deals' packs in order); %d given",
                                 p->g.spec, cap, ndeck);
        else
            rc = cli_usage_error("play",
                                 "--deck: %s cannot start with that deck "
                                 "(a card repeated within one deal, or one "
                                 "this configuration leaves out)",
                                 p->g.spec);
    }
    mem_free(deck);
    return rc;
}

/* Announces the game (--json) and starts following its events. */
static void begin(struct play *p, const struct play_opts *o)
{
    int seat = 0;
    while (seat < p->g.dims.players - 1 && p->agent[seat])
        seat++;
    events_init(&p->ev, &p->g, p->st, p->agent[seat] ? 0 : seat);
    if (!p->json)
        return;
    char num[24];
    json_t *labels = json_array();
    for (int s = 0; s < p->g.dims.players; s++)
        json_array_append_new(labels, cli_json_str(p->label[s]));
    snprintf(num, sizeof num, "%llu", (unsigned long long)o->seed);
    emit(json_pack("{s:s, s:s, s:s, s:i, s:o}", "type", "start", "game",
                   p->g.spec, "seed", num, "players", p->g.dims.players,
                   "seats", labels));
}

static int run(struct play *p, const struct play_opts *o)
{
    int rc = start(p, o);
    if (!rc)
        begin(p, o);
    for (int n = 0; !rc; n++) {
        uint32_t acting = p->g.def->to_move(&p->g, p->st);
        p->steps = n;
        if (!acting) {
            report(p, o->seed);
            return CLI_OK;
        }
        if (p->moves && p->nmoves - p->next < __builtin_popcount(acting)) {
            printf("\nthe recorded moves end here, after %d steps\n", n);
            report(p, o->seed);
            return CLI_OK;
        }
        if (n >= p->g.dims.max_length)
            return cli_fail("play", "%s did not end within its %d steps",
                            p->g.spec, p->g.dims.max_length);
        rc = step(p, acting);
    }
    return rc;
}

/* ---- API --------------------------------------------------------------- */

int cli_play_moves(const struct game *g, uint64_t seed,
                   const char *const *labels, const int *moves, int nmoves,
                   double *ret, int *steps)
{
    struct play_opts o = {.spec = g->spec, .seed = seed};
    struct play *p = mem_alloc(sizeof *p);
    p->g = *g;
    p->st = mem_alloc(g->def->state_size);
    p->moves = moves;
    p->nmoves = nmoves;
    for (int s = 0; s < g->dims.players; s++)
        snprintf(p->label[s], sizeof p->label[s], "%s", labels[s]);
    int rc = run(p, &o);
    if (!rc && p->next < nmoves)
        rc = cli_fail("replay",
                      "the game ended after %d of the %d recorded moves",
                      p->next, nmoves);
    if (!rc) {
        g->def->returns(&p->g, p->st, ret);
        *steps = p->steps;
    }
    mem_free(p->st);
    mem_free(p);
    return rc;
}


/* Returns CLI_OK, CLI_USAGE, or -1 when --help was printed. */
static int parse_args(int argc, char **argv, struct play_opts *o)
{
    static const struct option opts[] = {
        {"seats", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'r'},
        {"deck", required_argument, NULL, 'd'},
        {"quiet", no_argument, NULL, 'q'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hq", opts, NULL)) != -1) {
        if (c == 'h')
            return cli_usage("play", stdout), -1;
        else if (c == 's')
            o->seats = optarg;
        else if (c == 'd')
            o->deck = optarg;
        else if (c == 'q')
            o->quiet = true;
        else if (c == 'j')
            o->json = true;
        else if (c != 'r')
            return cli_bad_option("play", c, argv);
        else if (!cli_parse_u64(optarg, &o->seed))
            return cli_usage_error("play",
                                   "--seed wants a number from 0 to "
                                   "2^64-1, got '%s'",
                                   optarg);
    }
    if (argc - optind != 1)
        return cli_usage_error("play", argc == optind ? "which game?"
                                                      : "one game at a time");
    o->spec = argv[optind];
    return CLI_OK;
}

int cmd_play(int argc, char **argv)
{
    struct play_opts o = {.seed = 1};
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    struct play *p = mem_alloc(sizeof *p);
    p->quiet = o.quiet;
    p->json = o.json;
    rc = cli_make_game("play", o.spec, &p->g);
    if (!rc) {
        p->st = mem_alloc(p->g.def->state_size);
        p->buf = mem_alloc(sizeof(int) * (size_t)p->g.dims.max_legal);
        rc = seats_setup(p, o.seats, o.seed);
    }
    if (!rc)
        rc = run(p, &o);
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        agent_destroy(&p->agent[s]);
    free(p->line); /* getline's buffer comes from malloc */
    mem_free(p->buf);
    mem_free(p->st);
    mem_free(p);
    return rc;
}
