/* game_steps.h — test helpers that drive any game by action names and
 * check it by names and view values, for hand-worked deals. Include
 * after cmocka.h; every helper fails the test on a mismatch. */
#ifndef PARLOR_TEST_GAME_STEPS_H
#define PARLOR_TEST_GAME_STEPS_H

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"

/* seat, which must be the one to act, takes the action named text. */
static inline void steps_act(const struct game *g, void *st, int seat,
                             const char *text)
{
    char err[512];
    assert_int_equal(game_current_seat(g, st), seat);
    int id = game_action_parse(g, st, seat, text, err, sizeof err);
    if (id < 0)
        fail_msg("seat %d: %s", seat, err);
    assert_int_equal(game_apply(g, st, seat, id), 0);
}

/* Plays a whole set: seat leader plays card[0], the others follow in
 * turn with the next names ("play NAME" actions). */
static inline void steps_set(const struct game *g, void *st, int leader,
                             const char *const *card)
{
    char name[32];
    for (int i = 0; i < g->dims.players; i++) {
        snprintf(name, sizeof name, "play %s", card[i]);
        steps_act(g, st, (leader + i) % g->dims.players, name);
    }
}

/* Asserts the names of the current seat's legal actions, ", "-joined. */
static inline void steps_legal_is(const struct game *g, const void *st,
                                  const char *want)
{
    int ids[64], seat = game_current_seat(g, st);
    char got[512] = "", name[GAME_NAME_MAX];
    size_t w = 0;
    assert_true(seat >= 0);
    int n = g->def->legal(g, st, seat, ids);
    for (int i = 0; i < n; i++) {
        game_action_name(g, st, ids[i], name, sizeof name);
        w += (size_t)snprintf(got + w, sizeof got - w, "%s%s", i ? ", " : "",
                              name);
    }
    assert_string_equal(got, want);
}

/* seat's return so far. */
static inline double steps_ret(const struct game *g, const void *st, int seat)
{
    double r[GAME_MAX_PLAYERS];
    g->def->returns(g, st, r);
    return r[seat];
}

/* Writes the value under key of seat's view into got, in msgpack's text
 * form ("(missing)" when the view has no such key). */
static inline void steps_view_text(const struct game *g, const void *st,
                                   int seat, const char *key, char *got,
                                   size_t len)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    snprintf(got, len, "(missing)");
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(g, st, seat, &pk), 0);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object o = u.data;
    for (uint32_t i = 0; i < o.via.map.size; i++) {
        msgpack_object_kv *kv = &o.via.map.ptr[i];
        if (kv->key.via.str.size == strlen(key) &&
            !memcmp(kv->key.via.str.ptr, key, strlen(key)))
            msgpack_object_print_buffer(got, len, kv->val);
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
}

/* Asserts the value under key of seat's view, in msgpack's text form. */
static inline void steps_view_is(const struct game *g, const void *st, int seat,
                                 const char *key, const char *want)
{
    char got[512];
    steps_view_text(g, st, seat, key, got, sizeof got);
    assert_string_equal(got, want);
}

/* The integer under key of seat's view; fails the test if it is missing
 * or not an integer. */
static inline int steps_view_int(const struct game *g, const void *st,
                                 int seat, const char *key)
{
    char got[512], *end;
    steps_view_text(g, st, seat, key, got, sizeof got);
    long v = strtol(got, &end, 10);
    if (end == got || *end)
        fail_msg("view key %s: \"%s\" is not an integer", key, got);
    return (int)v;
}

#endif
