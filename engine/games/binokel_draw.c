/* binokel_draw.c — Binokel for two (docs/games/binokel.md, "Two players"):
 * twelve cards each, the next card turned for trumps and laid under the stock,
 * trick-and-draw with a meld by the winner of each trick while the stock
 * lasts, strict play once it is empty. The rest of the game is in binokel.c.
 *
 * Declared melds: each kind once a deal for each player (the diss once
 * for each trump 7 held), the cards staying in hand and shown. A meld may
 * not be declared once a bigger one that holds its cards has been (it
 * would be part of it): a marriage after its suit's family or double
 * family, a family after its double family, a binokel after the double
 * binokel, four of a kind after eight. The smaller may come first and the
 * bigger follow (its cards are added to). Values as binokel.c.
 */
#include <string.h>

#include "../meld.h"
#include "binokel.h"

/* Cards (copies per face) meld kind k needs, into need; false if it has
 * no cards (a diss beyond the copies held is checked by the caller). */
static void kind_cards(int k, int trump, uint8_t *need)
{
    static const uint8_t four[4] = {MELD_A, MELD_K, MELD_Q, MELD_J};
    memset(need, 0, MELD_FACES);
    if (k < BK_FAMILY) {
        need[meld_face(k, MELD_K)] = need[meld_face(k, MELD_Q)] = 1;
    } else if (k < BK_BINOKEL) {
        int s = (k - BK_FAMILY) % 4, c = k < BK_DOUBLE ? 1 : 2;
        for (int p = MELD_A; p <= MELD_J; p++)
            need[meld_face(s, p)] = (uint8_t)c;
    } else if (k <= BK_DOUBLE_BINOKEL) {
        int c = k == BK_BINOKEL ? 1 : 2;
        need[meld_face(SPADES, MELD_Q)] = need[meld_face(DIAMONDS, MELD_J)] =
            (uint8_t)c;
    } else if (k < BK_DISS) {
        int i = (k - BK_FOUR) % 4, c = k < BK_EIGHT ? 1 : 2;
        for (int s = 0; s < 4; s++)
            need[meld_face(s, four[i])] = (uint8_t)c;
    } else {
        need[meld_face(trump, MELD_7)] = 1;
    }
}

int binokel__kind_points(int k, int trump)
{
    static const int16_t four[4] = {100, 80, 60, 40};
    if (k < BK_FAMILY)
        return k == trump ? 40 : 20;
    if (k < BK_DOUBLE)
        return k - BK_FAMILY == trump ? 150 : 100;
    if (k < BK_BINOKEL)
        return 1500;
    if (k == BK_BINOKEL)
        return 40;
    if (k == BK_DOUBLE_BINOKEL)
        return 300;
    if (k < BK_EIGHT)
        return four[k - BK_FOUR];
    return k < BK_DISS ? 1000 : 10;
}

/* True when seat has declared a meld that holds kind k's cards. */
static bool inside_declared(const struct binokel_state *st, int seat, int k)
{
    const uint8_t *d = st->declared[seat];
    if (k < BK_FAMILY)
        return d[BK_FAMILY + k] || d[BK_DOUBLE + k];
    if (k < BK_DOUBLE)
        return d[BK_DOUBLE + k - BK_FAMILY];
    if (k == BK_BINOKEL)
        return d[BK_DOUBLE_BINOKEL];
    if (k >= BK_FOUR && k < BK_EIGHT)
        return d[BK_EIGHT + k - BK_FOUR];
    return false;
}

bool binokel__can_declare(const struct binokel_state *st, int seat, int k)
{
    uint8_t need[MELD_FACES];
    int done = st->declared[seat][k];
    if (k == BK_DISS) {
        int diss = meld_face(st->trump, MELD_7);
        return st->hand[seat][diss] > done;
    }
    if (done || inside_declared(st, seat, k))
        return false;
    kind_cards(k, st->trump, need);
    for (int f = 0; f < MELD_FACES; f++)
        if (st->hand[seat][f] < need[f])
            return false;
    return true;
}

void binokel__declare(struct binokel_state *st, int k)
{
    uint8_t need[MELD_FACES];
    int seat = st->tb.turn;
    kind_cards(k, st->trump, need);
    if (k == BK_DISS)
        need[meld_face(st->trump, MELD_7)] =
            (uint8_t)(st->declared[seat][k] + 1);
    st->meld[seat] += (int16_t)binokel__kind_points(k, st->trump);
    binokel__keep_meld(st, seat);
    st->declared[seat][k]++;
    for (int f = 0; f < MELD_FACES; f++) {
        meld_need(st->shown[seat], f, need[f]);
        meld_need(st->known[seat], f, need[f]);
    }
}

void binokel__deal_two(struct binokel_state *st, const uint8_t *pack)
{
    for (int i = 0; i < 24; i++)
        st->hand[(st->dealer + 1 + i / 12) % 2][pack[i]]++;
    st->turnup = pack[24];
    memcpy(st->stock, pack + 25, 23);
    st->stock[23] = st->turnup;
    st->nstock = 24;
    st->trump = (uint8_t)meld_suit(st->turnup);
    st->phase = PH_PLAY;
}

void binokel__draw(struct binokel_state *st)
{
    int w = st->tb.leader;
    for (int i = 0; i < 2 && st->nstock; i++) {
        int s = (w + i) % 2, f = st->stock[0];
        st->hand[s][f]++;
        if (st->nstock == 1) /* the turned card: all see who takes it */
            st->known[s][f]++;
        memmove(st->stock, st->stock + 1, --st->nstock);
    }
    st->phase = PH_PLAY;
    st->tb.turn = (uint8_t)w;
}

void binokel__redeal_stock(struct binokel_state *st, const uint8_t *cards,
                           struct rng *rng)
{
    int n = 0, keep = st->nstock ? 1 : 0; /* the turned card stays last */
    for (int f = 0; f < MELD_FACES; f++)
        for (int i = 0; i < cards[f]; i++)
            st->stock[n++] = (uint8_t)f;
    rng_shuffle_u8(rng, st->stock, n);
    if (keep)
        st->stock[n++] = st->turnup;
}
