/* binokel_view.c — what a Binokel seat sees: the observation tensor and
 * its layout, action names and the structured view (binokel.c has the
 * rules, binokel_draw.c the game for two). */
#include <stdio.h>
#include <string.h>

#include "../game.h"
#include "../meld.h"
#include "../obs_fill.h"
#include "../trick.h"
#include "../view.h"
#include "binokel.h"

/* Whether seat sees the card given back after a call. */
static bool sees_given(const struct binokel_state *st, int seat)
{
    return st->given != NO && (seat == st->soloist || seat == st->called_from);
}

static void observe_seats(const struct binokel_state *st, int seat, float *out)
{
    int np = st->np, tricks = (NCARDS - st->wsize) / np;
    const uint8_t *known[MAXP];
    for (int r = 0, s = seat; r < np; r++, s = trick_next(s, np)) {
        known[r] = st->known[s];
        out[O_BIDS + 2 * r] = st->bid_obs[s][0];
        out[O_BIDS + 2 * r + 1] = st->bid_obs[s][1];
        out[O_MELD + r] = st->meld_obs[s];
        out[O_TAKEN + r] = st->taken_obs[s];
        out[O_WON + r] = st->won_obs[s];
        out[O_SIZES + r] = meld_size(st->hand[s]) / (float)(tricks + 5);
    }
    meld_put_count_rows(out + O_KNOWN + 32, known + 1, np - 1, 0.5f);
    meld_observe_trick(out + O_TRICK, &st->tb, seat, np);
    out[O_DEALER + trick_rel(st->dealer, seat, np)] = 1;
    if (st->phase != PH_OVER)
        out[O_TURN + trick_rel(st->tb.turn, seat, np)] = 1;
    if (st->soloist != NO)
        out[O_SOLOIST + trick_rel(st->soloist, seat, np)] = 1;
    if (st->called_from != NO)
        out[O_FROM + trick_rel(st->called_from, seat, np)] = 1;
}

void binokel__observe(const struct game *g, const void *vst, int seat,
                      float *out)
{
    const struct binokel_state *st = vst;
    float top = (float)(trick_opt(g, P_MIN_BID) + 10 * (NBIDS - 1));
    const uint8_t *own[2] = {st->hand[seat], st->gone};
    obs_fill_zero(out + O_GONE + 32, OBS_SIZE - O_GONE - 32);
    meld_put_count_rows(out + O_HAND, own, 2, 0.5f);
    if (seat == st->soloist) {
        const uint8_t *discard[1] = {st->discard};
        meld_put_count_rows(out + O_DISCARD, discard, 1, 0.5f);
    }
    if (st->called != NO)
        out[O_CALLED + st->called] = 1;
    if (sees_given(st, seat))
        out[O_GIVEN + st->given] = 1;
    if (st->trump != NO)
        out[O_TRUMP + st->trump] = 1;
    out[O_PHASE + st->phase] = 1;
    if (st->soloist != NO || st->high)
        out[O_KIND + st->kind] = 1;
    out[O_HIGH] = meld_unit(st->high / top);
    observe_seats(st, seat, out);
    for (int r = 0, t = binokel__side(st, seat); r < st->sides; r++) {
        out[O_SCORES + r] = st->score_obs[t];
        t = trick_next(t, st->sides);
    }
    out[O_TRICKS] = st->tb.tricks / (float)((NCARDS - st->wsize) / st->np);
    out[O_STOCK] = st->nstock / 24.0f;
    if (st->turnup != NO)
        out[O_TURNUP + st->turnup] = 1;
    for (int s = 0; s < st->np && st->np == 2; s++)
        for (int k = 0; k < BK_KINDS; k++)
            out[O_DECLARED + BK_KINDS * (s != seat) + k] =
                st->declared[s][k] / 2.0f;
}

static const struct obs_segment layout[] = {
    {"hand", O_HAND, 32, "own copies/2 per face suit*8 + A 10 K Q J 9 8 7"},
    {"gone", O_GONE, 32, "copies/2 in finished tricks this deal"},
    {"trick", O_TRICK, 128, "trick in play: 4 x 32 one-hot by seat (self "
                            "first)"},
    {"known", O_KNOWN, 128, "others' cards known in hand: 4 x 32 copies/2"},
    {"discards", O_DISCARD, 32, "own discards as soloist, copies/2"},
    {"called", O_CALLED, 32, "the called card, one-hot"},
    {"given", O_GIVEN, 32, "the card given back (soloist and receiver)"},
    {"trump", O_TRUMP, 4, "trump suit, one-hot clubs..spades"},
    {"phase", O_PHASE, 8, "bidding, call, give, discard, naming, play, "
                          "meld, over"},
    {"contract", O_KIND, 3, "normal, slam, betel (once bid)"},
    {"dealer", O_DEALER, 4, "dealer, one-hot (self first)"},
    {"turn", O_TURN, 4, "seat to act, one-hot (self first)"},
    {"soloist", O_SOLOIST, 4, "soloist, one-hot (self first)"},
    {"called_from", O_FROM, 4, "who gave the called card (self first)"},
    {"high_bid", O_HIGH, 1, "high bid / (min_bid + 1300)"},
    {"bids", O_BIDS, 8, "per seat: last bid / (min_bid + 1300), passed"},
    {"melds", O_MELD, 4, "meld points / 1000, clamped (self first)"},
    {"taken", O_TAKEN, 4, "card points / 250 (self first)"},
    {"tricks_won", O_WON, 4, "tricks won / tricks a deal (self first)"},
    {"scores", O_SCORES, 4, "0.5 + score/(4*target), clamped, per side "
                            "(own first)"},
    {"tricks", O_TRICKS, 1, "finished tricks / tricks a deal"},
    {"hand_sizes", O_SIZES, 4, "cards held / (tricks a deal + 5)"},
    {"stock", O_STOCK, 1, "two players: stock cards left / 24"},
    {"turnup", O_TURNUP, 32, "two players: the turned card"},
    {"declared", O_DECLARED, 46, "two players: meld kinds declared / 2 "
                                 "(self, then opponent)"},
};

int binokel__obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    (void)g;
    return obs_layout_copy(out, max, layout,
                           (int)(sizeof layout / sizeof layout[0]));
}

/* The name of two players' meld kind k ("double family hearts"). */
static const char *kind_name(int k, char *buf, size_t len)
{
    static const char *const ranks[4] = {"aces", "kings", "queens", "jacks"};
    static const char *const suited[3] = {"marriage", "family",
                                          "double family"};
    if (k < BK_BINOKEL)
        snprintf(buf, len, "%s %s", suited[k / 4], meld_suit_word(k % 4));
    else if (k < BK_FOUR)
        snprintf(buf, len, "%s", k == BK_BINOKEL ? "binokel"
                                                 : "double binokel");
    else if (k < BK_DISS)
        snprintf(buf, len, "%s %s", k < BK_EIGHT ? "four" : "eight",
                 ranks[(k - BK_FOUR) % 4]);
    else
        snprintf(buf, len, "diss");
    return buf;
}

int binokel__action_name(const struct game *g, const void *vst, int a,
                         char *buf, size_t len)
{
    static const char *const verbs[4] = {"play", "discard", "call", "give"};
    static const char *const words[] = {"pass",    "bid slam", "bid betel",
                                        "no call", "concede"};
    (void)vst;
    char card[24];
    if (a < A_BID) {
        meld_face_name(a % 32, card, sizeof card);
        return snprintf(buf, len, "%s %s", verbs[a / 32], card);
    }
    if (a < A_PASS)
        return snprintf(buf, len, "bid %d", binokel__bid_value(g, a));
    if (a < A_NAME)
        return snprintf(buf, len, "%s", words[a - A_PASS]);
    if (a < A_DECLARE)
        return snprintf(buf, len, "name %s", meld_suit_word(a - A_NAME));
    if (a == A_NO_MELD)
        return snprintf(buf, len, "no meld");
    return snprintf(buf, len, "meld %s", kind_name(a - A_DECLARE, card,
                                                   sizeof card));
}

static void pack_i16(msgpack_packer *pk, const int16_t *v, int n)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        view_pack_int(pk, v[i]);
}

static void pack_face_or_nil(msgpack_packer *pk, int f, bool show)
{
    if (f == NO || !show)
        view_pack_nil(pk);
    else
        meld_pack_face(pk, f);
}

static void pack_auction(const struct game *g, const struct binokel_state *st,
                         int seat, msgpack_packer *pk)
{
    static const char *const kinds[3] = {"normal", "slam", "betel"};
    view_pack_str(pk, "bids");
    view_pack_array(pk, st->np);
    for (int s = 0; s < st->np; s++) {
        int a = st->bid[s] + 127;
        if (!st->bid[s])
            view_pack_nil(pk);
        else if (a >= A_PASS)
            view_pack_str(pk, a == A_PASS ? "pass" : a == A_SLAM ? "slam"
                                                                 : "betel");
        else
            view_pack_int(pk, binokel__bid_value(g, a));
    }
    view_pack_str(pk, "high_bid");
    view_pack_int(pk, st->high);
    view_pack_str(pk, "soloist");
    view_pack_seat(pk, st->soloist == NO ? -1 : st->soloist);
    view_pack_str(pk, "contract");
    if (st->soloist == NO)
        view_pack_nil(pk);
    else
        view_pack_str(pk, kinds[st->kind]);
    view_pack_str(pk, "widow");
    if (seat == st->soloist)
        meld_pack_hand(pk, st->widow);
    else
        view_pack_nil(pk);
    view_pack_str(pk, "called");
    pack_face_or_nil(pk, st->called, true);
    view_pack_str(pk, "called_from");
    view_pack_seat(pk, st->called_from == NO ? -1 : st->called_from);
    view_pack_str(pk, "given");
    pack_face_or_nil(pk, st->given, sees_given(st, seat));
    view_pack_str(pk, "discards");
    if (seat == st->soloist)
        meld_pack_hand(pk, st->discard);
    else
        view_pack_int(pk, st->discards);
}

static void pack_melds(const struct binokel_state *st, msgpack_packer *pk)
{
    view_pack_str(pk, "melds");
    view_pack_array(pk, st->np);
    for (int s = 0; s < st->np; s++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, st->meld[s]);
        meld_pack_hand(pk, st->shown[s]);
    }
}

/* Packs "stock", "turnup" and "declared" (two players). */
static void pack_draw(const struct binokel_state *st, msgpack_packer *pk)
{
    char name[24];
    int n = 0;
    view_pack_str(pk, "stock");
    view_pack_int(pk, st->nstock);
    view_pack_str(pk, "turnup");
    pack_face_or_nil(pk, st->turnup, true);
    for (int s = 0; s < st->np && st->np == 2; s++)
        for (int k = 0; k < BK_KINDS; k++)
            n += st->declared[s][k];
    view_pack_str(pk, "declared");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < st->np && st->np == 2; s++)
        for (int k = 0; k < BK_KINDS; k++)
            for (int i = 0; i < st->declared[s][k]; i++) {
                view_pack_array(pk, 2);
                view_pack_int(pk, s);
                view_pack_str(pk, kind_name(k, name, sizeof name));
            }
}

int binokel__view(const struct game *g, const void *vst, int seat,
                 msgpack_packer *pk)
{
    static const char *const phases[] = {"bidding", "call",    "give",
                                         "discard", "naming",  "playing",
                                         "meld",    "over"};
    const struct binokel_state *st = vst;
    int16_t won[MAXP], sizes[MAXP];
    view_pack_str(pk, "hand");
    meld_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    pack_auction(g, st, seat, pk);
    view_pack_str(pk, "trump");
    if (st->trump == NO)
        view_pack_nil(pk);
    else
        view_pack_str(pk, meld_suit_word(st->trump));
    pack_melds(st, pk);
    meld_pack_table(pk, &st->tb, st->np, st->phase == PH_PLAY);
    for (int s = 0; s < st->np; s++) {
        won[s] = st->won[s];
        sizes[s] = (int16_t)meld_size(st->hand[s]);
    }
    view_pack_str(pk, "taken");
    pack_i16(pk, st->taken, st->np);
    view_pack_str(pk, "tricks_won");
    pack_i16(pk, won, st->np);
    view_pack_str(pk, "scores");
    view_pack_array(pk, st->sides);
    for (int t = 0; t < st->sides; t++)
        view_pack_int(pk, st->score[t]);
    view_pack_str(pk, "hand_sizes");
    pack_i16(pk, sizes, st->np);
    pack_draw(st, pk);
    return 0;
}

