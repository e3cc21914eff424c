/* binokel_view.c — what a Binokel seat sees: the observation tensor and
 * its layout, action names and the structured view (binokel.c has the
 * rules, binokel_draw.c the game for two). */
#include <stddef.h>
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

#if MELD_HAVE_512
_Static_assert(O_CALLED == 22 * 16 && O_GIVEN == 24 * 16 &&
                   O_TRUMP == 26 * 16 && O_PHASE == O_TRUMP + 4 &&
                   O_KIND == O_TRUMP + 12 && O_DEALER == O_TRUMP + 15 &&
                   O_TURN == O_TRUMP + 19 && O_SOLOIST == O_TRUMP + 23 &&
                   O_FROM == O_TRUMP + 27 && O_HIGH == 27 * 16 + 15 &&
                   O_BIDS == 28 * 16 && O_MELD == O_BIDS + 8 &&
                   O_TAKEN == O_BIDS + 12 && O_WON == 29 * 16 &&
                   O_SCORES == O_WON + 4 && O_TRICKS == O_WON + 8 &&
                   O_SIZES == O_WON + 9 && O_STOCK == O_WON + 13 &&
                   O_TURNUP == O_WON + 14 && O_DECLARED == 31 * 16 + 14 &&
                   OBS_SIZE == O_DECLARED + 2 * BK_KINDS,
               "observe_512 writes the tensor in these 16-float blocks");
_Static_assert(offsetof(struct binokel_state, taken_obs) ==
                       offsetof(struct binokel_state, meld_obs) + 16 &&
                   offsetof(struct binokel_state, won_obs) ==
                       offsetof(struct binokel_state, meld_obs) + 32 &&
                   offsetof(struct binokel_state, score_obs) ==
                       offsetof(struct binokel_state, meld_obs) + 48 &&
                   offsetof(struct binokel_state, bid_obs) ==
                       offsetof(struct binokel_state, meld_obs) + 64 &&
                   offsetof(struct binokel_state, declared) >= 14 &&
                   sizeof(struct binokel_state) >=
                       offsetof(struct binokel_state, bid_obs) + 64 &&
                   sizeof(struct binokel_state) >=
                       offsetof(struct binokel_state, declared) + 2 * 23 +
                           16,
               "observe_512 loads the kept values and the declared rows "
               "16 at a time, inside the state");

/* No copies: the discard row of a seat other than the soloist. */
static const uint8_t no_copies[MELD_FACES];

/* Tricks a deal for np players: 48 less the widow, dealt out. */
static const uint8_t tricks_of[MAXP + 1] = {0, 0, 24, 15, 11};

/* The permutes that rotate the kept values (meld_obs, taken_obs, won_obs,
 * score_obs, then bid_obs: floats 0..31 from meld_obs) to a seat, for np
 * players and seat: block 28 takes the bids (two floats a seat), melds
 * and card points, block 29 the tricks won, scores by side, and from the
 * numbers worked out in observe (16 on: hand sizes by seat, the tricks,
 * the stock) the tricks, hand sizes and stock. Lanes for places at or
 * past the players (or sides) are zero, by the masks below. */
#define PL(np, seat, r) (((seat) + (r)) % (np))
#define SIDES(np) ((np) == 4 ? 2 : (np))
#define SC(np, seat, r) PL(SIDES(np), (seat) % SIDES(np), r)
#define ROW28(np, s)                                                      \
    {16 + 2 * PL(np, s, 0), 17 + 2 * PL(np, s, 0), 16 + 2 * PL(np, s, 1), \
     17 + 2 * PL(np, s, 1), 16 + 2 * PL(np, s, 2), 17 + 2 * PL(np, s, 2), \
     16 + 2 * PL(np, s, 3), 17 + 2 * PL(np, s, 3), PL(np, s, 0),          \
     PL(np, s, 1),          PL(np, s, 2),          PL(np, s, 3),          \
     4 + PL(np, s, 0),      4 + PL(np, s, 1),      4 + PL(np, s, 2),      \
     4 + PL(np, s, 3)}
#define ROW29(np, s)                                                      \
    {8 + PL(np, s, 0),  8 + PL(np, s, 1),  8 + PL(np, s, 2),              \
     8 + PL(np, s, 3),  12 + SC(np, s, 0), 12 + SC(np, s, 1),             \
     12 + SC(np, s, 2), 12 + SC(np, s, 3), 20,                            \
     16 + PL(np, s, 0), 16 + PL(np, s, 1), 16 + PL(np, s, 2),             \
     16 + PL(np, s, 3), 21,                0,                 0}
#define ROWS(row, np) {row(np, 0), row(np, 1), row(np, 2), row(np, 3)}
static const _Alignas(64) int32_t idx28[3][MAXP][16] = {
    ROWS(ROW28, 2), ROWS(ROW28, 3), ROWS(ROW28, 4)};
static const _Alignas(64) int32_t idx29[3][MAXP][16] = {
    ROWS(ROW29, 2), ROWS(ROW29, 3), ROWS(ROW29, 4)};
/* Lanes in use: places below np (below the sides for scores). */
static const uint16_t used28[3] = {0x330f, 0x773f, 0xffff};
static const uint16_t used29[3] = {0x2733, 0x2f77, 0x3f3f};
#undef PL
#undef SIDES
#undef SC
#undef ROW28
#undef ROW29
#undef ROWS

/* The tensor in aligned 64-byte stores (meld_writer) for np players (a
 * constant in each build): count rows widened, one-hots as lane masks,
 * the kept values rotated to the seat by permutes from tables, the
 * trick's cards set over zeros at the end. */
MELD_512 static MELD_INLINE void observe_512_body(
    const struct game *g, const struct binokel_state *st, int seat,
    float *out, bool shifted, int np)
{
    int lead = trick_rel(st->tb.leader, seat, np);
    __m512 half = meld_w_scale(0.5f), one = _mm512_set1_ps(1.0f);
    struct meld_writer w;
    meld_w_head(&w, out, OBS_SIZE, shifted, st->hand, st->known, st->gone,
                seat, np, MAXP, half);
    const uint8_t *disc = seat == st->soloist ? st->discard : no_copies;
    meld_w_put(&w, meld_w_counts(disc, half));
    meld_w_put(&w, meld_w_counts(disc + 16, half));
    uint32_t b = st->called != NO ? 1u << st->called : 0;
    meld_w_put(&w, meld_w_bits(b & 0xffffu));
    meld_w_put(&w, meld_w_bits(b >> 16));
    b = sees_given(st, seat) ? 1u << st->given : 0;
    meld_w_put(&w, meld_w_bits(b & 0xffffu));
    meld_w_put(&w, meld_w_bits(b >> 16));

    /* Trump to called_from, bits from O_TRUMP; the high bid in lane 15
     * of the second block. */
    b = 1u << (O_PHASE - O_TRUMP + st->phase) |
        1u << (O_DEALER - O_TRUMP + trick_rel(st->dealer, seat, np));
    if (st->trump != NO)
        b |= 1u << st->trump;
    if (st->soloist != NO || st->high)
        b |= 1u << (O_KIND - O_TRUMP + st->kind);
    if (st->phase != PH_OVER)
        b |= 1u << (O_TURN - O_TRUMP + trick_rel(st->tb.turn, seat, np));
    if (st->soloist != NO)
        b |= 1u << (O_SOLOIST - O_TRUMP + trick_rel(st->soloist, seat, np));
    if (st->called_from != NO)
        b |= 1u << (O_FROM - O_TRUMP +
                     trick_rel(st->called_from, seat, np));
    /* The numbers the tensor shows as quotients, in one division:
     * lanes 0..3 each seat's hand size / (tricks a deal + 5), 4 the
     * tricks / tricks a deal, 5 the stock / 24, 6 the high bid / top,
     * clamped to 1. Each lane rounds as the float division does. */
    int per = tricks_of[np];
    float top = (float)(trick_opt(g, P_MIN_BID) + 10 * (NBIDS - 1));
    uint64_t counts = (uint64_t)meld_size(st->hand[0]) |
                      (uint64_t)meld_size(st->hand[1]) << 8 |
                      (uint64_t)meld_size(st->hand[2]) << 16 |
                      (uint64_t)meld_size(st->hand[3]) << 24 |
                      (uint64_t)st->tb.tricks << 32 |
                      (uint64_t)st->nstock << 40;
    __m512i ints = _mm512_cvtepu8_epi32(_mm_cvtsi64_si128((long long)counts));
    ints = _mm512_mask_set1_epi32(ints, 1u << 6, st->high);
    float d5 = (float)(per + 5);
    __m512 nums = _mm512_div_ps(
        _mm512_cvtepi32_ps(ints),
        _mm512_set_ps(1, 1, 1, 1, 1, 1, 1, 1, 1, top, 24, (float)per, d5, d5,
                      d5, d5));
    nums = _mm512_mask_min_ps(nums, 1u << 6, nums, one);
    meld_w_put(&w, meld_w_bits(b & 0xffffu));
    meld_w_put(&w, _mm512_mask_permutexvar_ps(meld_w_bits(b >> 16), 1u << 15,
                                              _mm512_set1_epi32(6), nums));

    /* Bids, melds and card points; tricks won, scores, the tricks, hand
     * sizes and the stock. */
    const float *kept = st->meld_obs;
    __m512 lo = _mm512_loadu_ps(kept);
    __m512 v28 = _mm512_maskz_permutex2var_ps(
        used28[np - 2], lo, _mm512_load_si512(idx28[np - 2][seat]),
        _mm512_loadu_ps(kept + 16));
    __m512 v29 = _mm512_maskz_permutex2var_ps(
        used29[np - 2], lo, _mm512_load_si512(idx29[np - 2][seat]), nums);
    meld_w_put(&w, v28);
    if (np != 2) {
        /* No stock, turned card or meld kinds declared. */
        meld_w_put(&w, v29);
        meld_w_zeros(&w, 4);
        meld_w_last(&w, _mm512_setzero_ps());
    } else {
        uint64_t tu = st->turnup != NO ? 1ull << (st->turnup + 14) : 0;
        meld_w_put(&w, _mm512_mask_mov_ps(v29, (__mmask16)(tu & 0xc000u),
                                          one));
        meld_w_put(&w, meld_w_bits((unsigned)(tu >> 16) & 0xffffu));
        /* The meld kinds declared, own row then the other's. */
        const uint8_t *own = st->declared[seat & 1];
        const uint8_t *other = st->declared[(seat & 1) ^ 1];
        meld_w_put(&w, _mm512_mask_mov_ps(
                           meld_w_bits((unsigned)(tu >> 32) & 0x3fffu),
                           0xc000u, meld_w_counts(own - 14, half)));
        meld_w_put(&w, meld_w_counts(own + 2, half));
        meld_w_put(&w, _mm512_mask_blend_ps(0xffe0u,
                                            meld_w_counts(own + 18, half),
                                            meld_w_counts(other - 5, half)));
        meld_w_last(&w, meld_w_counts(other + 11, half));
    }
    meld_trick_ones(out + O_TRICK, &st->tb, lead, np);
}

MELD_512 static void observe_512(const struct game *g,
                                 const struct binokel_state *st, int seat,
                                 float *out)
{
    bool shifted = meld_w_shifted(out);
    switch (st->np) {
    case 2:
        if (shifted)
            observe_512_body(g, st, seat, out, true, 2);
        else
            observe_512_body(g, st, seat, out, false, 2);
        break;
    case 3:
        if (shifted)
            observe_512_body(g, st, seat, out, true, 3);
        else
            observe_512_body(g, st, seat, out, false, 3);
        break;
    default:
        if (shifted)
            observe_512_body(g, st, seat, out, true, MAXP);
        else
            observe_512_body(g, st, seat, out, false, MAXP);
        break;
    }
}
#endif

void binokel__observe(const struct game *g, const void *vst, int seat,
                      float *out)
{
    const struct binokel_state *st = vst;
#if MELD_HAVE_512
    if (obs_width_best() == OBS_WIDTH_64) {
        observe_512(g, st, seat, out);
        return;
    }
#endif
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

