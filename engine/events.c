/* events.c — tricks, deals, scores and returns between two decisions.
 *
 * The view is packed, unpacked (msgpack-c) and read for three common keys;
 * each call allocates a buffer and a zone, which is why tools call this and
 * game steps never do. See events.h.
 */
#include "events.h"

#include <stdio.h>
#include <string.h>

#include "view.h"

/* What one view shows of the keys followed. */
struct snap {
    int trick_len;                    /* cards in "trick"; -1: no key */
    int leader;                       /* "leader"; -1: none */
    int dealer;                       /* "dealer"; -1: none */
    int nscores;                      /* entries of "scores"; 0: none */
    double scores[EVENTS_SCORES_MAX]; /* "scores", when all numbers */
};

/* ---- static helpers ---------------------------------------------------- */

static bool key_is(const msgpack_object *k, const char *name)
{
    size_t n = strlen(name);
    return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
           !memcmp(k->via.str.ptr, name, n);
}

static bool number_of(const msgpack_object *o, double *v)
{
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        *v = (double)o->via.u64;
    else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        *v = (double)o->via.i64;
    else if (o->type == MSGPACK_OBJECT_FLOAT32 ||
             o->type == MSGPACK_OBJECT_FLOAT64)
        *v = o->via.f64;
    else
        return false;
    return true;
}

static int seat_of(const msgpack_object *o)
{
    double v;
    return number_of(o, &v) && v >= 0 && v < GAME_MAX_PLAYERS ? (int)v : -1;
}

static void read_scores(const msgpack_object *o, struct snap *s)
{
    if (o->type != MSGPACK_OBJECT_ARRAY ||
        o->via.array.size > EVENTS_SCORES_MAX)
        return;
    for (uint32_t i = 0; i < o->via.array.size; i++)
        if (!number_of(&o->via.array.ptr[i], &s->scores[i]))
            return;
    s->nscores = (int)o->via.array.size;
}

static void read_view(const msgpack_object_map *m, struct snap *s)
{
    for (uint32_t i = 0; i < m->size; i++) {
        const msgpack_object *k = &m->ptr[i].key, *v = &m->ptr[i].val;
        if (key_is(k, "trick") && v->type == MSGPACK_OBJECT_ARRAY)
            s->trick_len = (int)v->via.array.size;
        else if (key_is(k, "leader"))
            s->leader = seat_of(v);
        else if (key_is(k, "dealer"))
            s->dealer = seat_of(v);
        else if (key_is(k, "scores"))
            read_scores(v, s);
    }
}

static void snap_take(const struct game *g, const void *st, int seat,
                      struct snap *s)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    memset(s, 0, sizeof *s);
    s->trick_len = s->leader = s->dealer = -1;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_unpacked_init(&u);
    if (!game_view(g, st, seat, &pk) &&
        msgpack_unpack_next(&u, sb.data, sb.size, NULL) ==
            MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_MAP)
        read_view(&u.data.via.map, s);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

/* Fills ev's values and deltas with now[] against was[]; returns whether
 * any changed. */
static bool diff(struct event *ev, const double *now, const double *was,
                 int n)
{
    bool moved = false;
    ev->n = n;
    for (int i = 0; i < n; i++) {
        ev->value[i] = now[i];
        ev->delta[i] = now[i] - was[i];
        moved |= ev->delta[i] != 0;
    }
    return moved;
}

static struct event *add(struct event *out, int *n, enum event_kind kind,
                         int deal)
{
    struct event *ev = &out[(*n)++];
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->deal = deal;
    ev->seat = -1;
    return ev;
}

static bool any_change(const struct event *ev)
{
    for (int i = 0; i < ev->n; i++)
        if (ev->delta[i])
            return true;
    return false;
}

/* ---- API --------------------------------------------------------------- */

void events_init(struct events *e, const struct game *g, const void *st,
                 int seat)
{
    struct snap s;
    memset(e, 0, sizeof *e);
    e->seat = seat;
    e->deals = game_deals(g, st);
    snap_take(g, st, seat, &s);
    e->trick_len = s.trick_len;
    e->nscores = s.nscores;
    memcpy(e->scores, s.scores, sizeof e->scores);
    g->def->returns(g, st, e->ret);
    memcpy(e->deal_ret, e->ret, sizeof e->ret);
}

int events_next(struct events *e, const struct game *g, const void *st,
                struct event *out)
{
    int n = 0, players = g->dims.players, deals = game_deals(g, st);
    double ret[GAME_MAX_PLAYERS];
    struct snap s;
    snap_take(g, st, e->seat, &s);
    g->def->returns(g, st, ret);
    bool new_deal = deals > e->deals, end = game_is_terminal(g, st);
    bool over = end && g->def->deals;
    if (e->trick_len > 0 && s.trick_len >= 0 && s.trick_len < e->trick_len) {
        struct event *ev = add(out, &n, EVENT_TRICK, e->deals);
        ev->trick = ++e->tricks;
        /* Once the deal or game is over, "leader" need not be the winner. */
        ev->seat = new_deal || end ? -1 : s.leader;
    }
    if (new_deal || over) {
        struct event *ev = add(out, &n, EVENT_DEAL_END, e->deals);
        diff(ev, ret, e->deal_ret, players);
        memcpy(e->deal_ret, ret, sizeof ret);
        e->tricks = 0;
    }
    if (new_deal && !over)
        add(out, &n, EVENT_DEAL_BEGIN, deals)->seat = s.dealer;
    struct event *ev = add(out, &n, EVENT_SCORES, deals);
    double was[EVENTS_SCORES_MAX] = {0};
    memcpy(was, e->scores, sizeof(double) * (size_t)e->nscores);
    bool moved = diff(ev, s.scores, was, s.nscores);
    if (!s.nscores || (!moved && s.nscores == e->nscores))
        n--; /* no scores shown, or none changed */
    ev = add(out, &n, EVENT_RETURNS, deals);
    if (new_deal || over || !diff(ev, ret, e->ret, players))
        n--;
    e->deals = deals;
    e->trick_len = s.trick_len;
    e->nscores = s.nscores;
    memcpy(e->scores, s.scores, sizeof e->scores);
    memcpy(e->ret, ret, sizeof ret);
    return n;
}

const char *events_kind_name(enum event_kind kind)
{
    static const char *const names[] = {"trick", "deal_end", "deal_begin",
                                        "scores", "returns"};
    return names[kind];
}

int events_format(const struct event *ev, char *buf, size_t len)
{
    size_t used = 0;
    switch (ev->kind) {
    case EVENT_TRICK:
        if (ev->seat >= 0)
            text_appendf(buf, len, &used, "trick %d won by seat %d",
                         ev->trick, ev->seat);
        else
            text_appendf(buf, len, &used, "trick %d complete", ev->trick);
        break;
    case EVENT_DEAL_BEGIN:
        text_appendf(buf, len, &used, "deal %d begins", ev->deal);
        if (ev->seat >= 0)
            text_appendf(buf, len, &used, ", seat %d deals", ev->seat);
        break;
    case EVENT_SCORES:
        text_appendf(buf, len, &used, "scores:");
        for (int i = 0; i < ev->n; i++)
            if (ev->delta[i])
                text_appendf(buf, len, &used, " %g (%+g)", ev->value[i],
                             ev->delta[i]);
            else
                text_appendf(buf, len, &used, " %g", ev->value[i]);
        break;
    case EVENT_DEAL_END:
        text_appendf(buf, len, &used, "deal %d ends", ev->deal);
        for (int i = 0; i < ev->n && any_change(ev); i++)
            text_appendf(buf, len, &used, "%s seat %d %+g", i ? "," : ":", i,
                         ev->delta[i]);
        break;
    case EVENT_RETURNS:
        text_appendf(buf, len, &used, "results so far:");
        for (int i = 0; i < ev->n; i++)
            text_appendf(buf, len, &used, "%s seat %d %g (%+g)",
                         i ? "," : "", i, ev->value[i], ev->delta[i]);
        break;
    }
    return (int)used;
}
