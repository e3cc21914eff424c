/* casino_test_util.h — the fixture the Casino test files share: a game
 * started from an explicit pack, plays by name, and reading the view.
 */
#ifndef PARLOR_CASINO_TEST_UTIL_H
#define PARLOR_CASINO_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/game.h"
#include "engine/games/casino.h"

/* ---- fixture ----------------------------------------------------------- */

struct tc {
    struct game g;             /* configured game */
    struct casino_state st;    /* its state */
    msgpack_sbuffer sb;        /* the last view packed */
    msgpack_unpacked u;        /* the last view unpacked */
    bool open;                 /* sb and u hold a view */
};

static inline void view_free(struct tc *t)
{
    if (!t->open)
        return;
    msgpack_unpacked_destroy(&t->u);
    msgpack_sbuffer_destroy(&t->sb);
    t->open = false;
}

static inline void start_cards(struct tc *t, const char *spec, const uint8_t *deck,
                        int n)
{
    char err[256];
    memset(t, 0, sizeof *t);
    if (game_make(&t->g, spec, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t->g.def->state_size, sizeof t->st);
    assert_int_equal(game_init(&t->g, &t->st, 7, deck, n), 0);
}

/* Makes spec and starts it from the pack prefix deck (card names). */
static inline void start(struct tc *t, const char *spec, const char *deck)
{
    char err[256];
    uint8_t cards[CARDS_IN_PACK];
    struct game g;
    assert_int_equal(game_make(&g, spec, err, sizeof err), 0);
    int n = game_deck_parse(&g, deck, cards, CARDS_IN_PACK, err, sizeof err);
    if (n <= 0)
        fail_msg("%s", err);
    start_cards(t, spec, cards, n);
}

static inline int card(const char *name)
{
    const char *end;
    int c = card_parse(name, &end);
    assert_true(c >= 0);
    return c;
}

/* The id of the legal action named text for seat, or a negative code. */
static inline int find(struct tc *t, int seat, const char *text)
{
    return game_action_parse(&t->g, &t->st, seat, text, NULL, 0);
}

static inline bool is_legal(struct tc *t, const char *text)
{
    return find(t, game_current_seat(&t->g, &t->st), text) >= 0;
}

/* The current seat, which must be seat, plays the action named text. */
static inline void act(struct tc *t, int seat, const char *text)
{
    char err[512];
    assert_int_equal(game_current_seat(&t->g, &t->st), seat);
    int id = game_action_parse(&t->g, &t->st, seat, text, err, sizeof err);
    if (id < 0)
        fail_msg("%s", err);
    assert_int_equal(game_apply(&t->g, &t->st, seat, id), 0);
}

/* Fills names with the current seat's legal action names starting with
 * prefix, in id order; returns how many. */
static inline int names_with(struct tc *t, const char *prefix,
                      char names[][GAME_NAME_MAX], int max)
{
    int seat = game_current_seat(&t->g, &t->st), ids[CASINO_MAX_LEGAL];
    int k = 0;
    assert_int_equal(t->g.dims.max_legal, CASINO_MAX_LEGAL);
    int n = t->g.def->legal(&t->g, &t->st, seat, ids);
    for (int i = 0; i < n; i++) {
        char name[GAME_NAME_MAX];
        game_action_name(&t->g, &t->st, ids[i], name, sizeof name);
        if (strncmp(name, prefix, strlen(prefix)))
            continue;
        assert_true(k < max);
        snprintf(names[k++], GAME_NAME_MAX, "%s", name);
    }
    return k;
}

/* Asserts the legal names starting with prefix are exactly want[], in
 * this order (id order). */
static inline void names_are(struct tc *t, const char *prefix,
                      const char *const *want, int nwant)
{
    char got[64][GAME_NAME_MAX];
    int n = names_with(t, prefix, got, 64);
    for (int i = 0; i < n && i < nwant; i++)
        assert_string_equal(got[i], want[i]);
    assert_int_equal(n, nwant);
}

static inline double ret(struct tc *t, int seat)
{
    double r[GAME_MAX_PLAYERS];
    t->g.def->returns(&t->g, &t->st, r);
    return r[seat];
}

/* ---- views ------------------------------------------------------------- */

static inline msgpack_object *map_get(msgpack_object *m, const char *key)
{
    assert_int_equal(m->type, MSGPACK_OBJECT_MAP);
    for (uint32_t i = 0; i < m->via.map.size; i++) {
        msgpack_object_kv *kv = &m->via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            return &kv->val;
    }
    fail_msg("map has no key %s", key);
    return NULL;
}

static inline msgpack_object *view_get(struct tc *t, int seat, const char *key)
{
    msgpack_packer pk;
    view_free(t);
    msgpack_sbuffer_init(&t->sb);
    msgpack_unpacked_init(&t->u);
    t->open = true;
    msgpack_packer_init(&pk, &t->sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(&t->g, &t->st, seat, &pk), 0);
    assert_int_equal(msgpack_unpack_next(&t->u, t->sb.data, t->sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    return map_get(&t->u.data, key);
}

static inline void str_is(const msgpack_object *o, const char *want)
{
    char got[128];
    assert_int_equal(o->type, MSGPACK_OBJECT_STR);
    snprintf(got, sizeof got, "%.*s", (int)o->via.str.size, o->via.str.ptr);
    assert_string_equal(got, want);
}

/* Asserts a list of card names joined by spaces. */
static inline void cards_are(const msgpack_object *o, const char *want)
{
    char got[256] = "";
    size_t used = 0;
    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    for (uint32_t i = 0; i < o->via.array.size; i++) {
        const msgpack_object *s = &o->via.array.ptr[i];
        used += (size_t)snprintf(got + used, sizeof got - used, "%s%.*s",
                                 i ? " " : "", (int)s->via.str.size,
                                 s->via.str.ptr);
    }
    assert_string_equal(got, want);
}

static inline int int_at(const msgpack_object *o, int i)
{
    assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
    return (int)o->via.array.ptr[i].via.i64;
}

#endif
