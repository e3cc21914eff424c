/* meld_steps.h — test helpers for the duplicate-card games (Pinochle for
 * six or eight, Binokel): explicit decks built from the cards a test names
 * for each seat, and reading numbers out of a view. Include after
 * cmocka.h; every helper fails the test on a mismatch. */
#ifndef PARLOR_TEST_MELD_STEPS_H
#define PARLOR_TEST_MELD_STEPS_H

#include <msgpack.h>
#include <stdio.h>
#include <string.h>

#include "engine/conformance.h"
#include "engine/game.h"
#include "engine/meld.h"

#define MELD_ANY 0xffffffffu /* every face the pack has */

/* Adds the faces named in text to counts; returns how many. */
static inline int meld_steps_parse(const struct game *g, const char *text,
                                   uint8_t *counts)
{
    char err[256];
    uint8_t f[128];
    int n = game_deck_parse(g, text, f, 128, err, sizeof err);
    if (n < 0)
        fail_msg("%s: %s", text, err);
    for (int i = 0; i < n; i++)
        counts[f[i]]++;
    return n;
}

/* Fills deck (copies of each face in `places` make the pack) for seat 0
 * dealing to np seats: the block of seat 1 first, ..., seat 0's last,
 * each room[s] cards, then the tail. Seat s gets want[s] (NULL: none),
 * topped up from the cards left in face order with faces in allow[s];
 * the most restricted seats are topped up first. tail (NULL: the rest in
 * face order) closes the deck. Returns the deck's length. */
static inline int meld_steps_deck(const struct game *g, unsigned places,
                                  int copies, const char *const *want,
                                  const uint32_t *allow, const int *room,
                                  const char *tail, uint8_t *deck)
{
    uint8_t left[MELD_FACES], hands[8][MELD_FACES] = {{0}};
    uint8_t tl[MELD_FACES] = {0};
    int np = g->dims.players, n = 0, order[8];
    for (int f = 0; f < MELD_FACES; f++)
        left[f] = (uint8_t)((places >> meld_place(f) & 1) ? copies : 0);
    if (tail)
        meld_steps_parse(g, tail, tl);
    for (int s = 0; s < np; s++) {
        order[s] = s;
        if (want[s])
            meld_steps_parse(g, want[s], hands[s]);
    }
    for (int f = 0; f < MELD_FACES; f++) {
        for (int s = 0; s < np; s++)
            left[f] = (uint8_t)(left[f] - hands[s][f]);
        left[f] = (uint8_t)(left[f] - tl[f]);
    }
    for (int i = 1; i < np; i++) /* insertion sort: fewest faces first */
        for (int j = i; j > 0 && __builtin_popcount(allow[order[j]]) <
                                     __builtin_popcount(allow[order[j - 1]]);
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; i < np; i++) {
        int s = order[i], have = meld_size(hands[s]);
        for (int f = 0; f < MELD_FACES && have < room[s]; f++)
            while (left[f] && (allow[s] >> f & 1) && have < room[s]) {
                left[f]--;
                hands[s][f]++;
                have++;
            }
        assert_int_equal(have, room[s]);
    }
    for (int k = 1; k <= np; k++)
        for (int f = 0; f < MELD_FACES; f++)
            for (int i = 0; i < hands[k % np][f]; i++)
                deck[n++] = (uint8_t)f;
    for (int f = 0; f < MELD_FACES; f++)
        for (int i = 0; i < (tail ? tl[f] : left[f]); i++)
            deck[n++] = (uint8_t)f;
    return n;
}

/* Element [i][j] (j < 0: [i]) of the int array under key in seat's view
 * (-1 for nil). */
static inline int meld_steps_view_at(const struct game *g, const void *st,
                                     int seat, const char *key, int i, int j)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_unpacked u;
    int v = -99999;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(game_view(g, st, seat, &pk), 0);
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, sb.data, sb.size, NULL),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_object o = u.data;
    for (uint32_t k = 0; k < o.via.map.size; k++) {
        msgpack_object_kv *kv = &o.via.map.ptr[k];
        if (kv->key.via.str.size != strlen(key) ||
            memcmp(kv->key.via.str.ptr, key, strlen(key)))
            continue;
        msgpack_object e = kv->val.via.array.ptr[i];
        if (j >= 0)
            e = e.via.array.ptr[j];
        v = e.type == MSGPACK_OBJECT_NIL ? -1 : (int)e.via.i64;
    }
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&sb);
    return v;
}

/* Runs the conformance suite on def made with spec, over `games` games. */
static inline void meld_steps_conformance(const struct game_def *def,
                                          const char *spec, int games)
{
    char err[512];
    struct game g;
    struct conformance_report r = {0};
    assert_int_equal(conformance_game_make(&g, def, spec, err, sizeof err), 0);
    if (conformance_run(&g, games, 11, &r, err, sizeof err))
        fail_msg("%s: %s", spec, err);
}

#endif
