/* magna_view.c — what a Magna seat sees (tensor, structured view, action
 * names, text) and the determinization of what it does not.
 * Rules and decisions: see the header comment of magna.c.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../obs_fill.h"
#include "../view.h"
#include "magna.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

const char *const magna__view_keys[] = {
    "hand",     "dealer", "bids",    "bidder",    "bid",    "honors",
    "discards", "trick",  "leader",  "sets_won",  "scores", "target",
    "phase",    "deal",   "history", "last_deal", NULL};

static const char *const phase_names[] = {"bid", "name", "discard", "play",
                                          "over"};
static const char *const point_names[] = {
    "high", "low", "trixie", "game", "high_game", "low_game", "santa", "magna"};

/* ==== API: observation ================================================= */

/* Floats in the largest tensor (five players): checked in
 * magna__obs_size. */
#define MAGNA_OBS_MAX 928

struct layout {
    int hand, trick, played, won, discards, honor, dealer, to_move, bidder;
    int bid, bids, passed, phase, score, sets, deal, size;
};

static inline struct layout layout_of(int n)
{
    struct layout l;
    l.hand = 0;
    l.trick = l.hand + FT_CARDS;
    l.played = l.trick + FT_CARDS;
    l.won = l.played + n * FT_CARDS;
    l.discards = l.won + n * FT_CARDS;
    l.honor = l.discards + n * FT_CARDS;
    l.dealer = l.honor + 6;
    l.to_move = l.dealer + n;
    l.bidder = l.to_move + n;
    l.bid = l.bidder + n;
    l.bids = l.bid + 1;
    l.passed = l.bids + n;
    l.phase = l.passed + n;
    l.score = l.phase + MAGNA_NPHASES;
    l.sets = l.score + n;
    l.deal = l.sets + 1;
    l.size = l.deal + 1;
    return l;
}

int magna__obs_size(int n)
{
    assert(layout_of(n).size <= MAGNA_OBS_MAX);
    return layout_of(n).size;
}

/* (r + 1) / n for relative seat r of n players: a set's plane. */
static const float trick_value[MAGNA_MAXP + 1][MAGNA_MAXP] = {
#define TV(n) {1.0f / n, 2.0f / n, 3.0f / n, 4.0f / n, 5.0f / n}
    {0}, TV(1), TV(2), TV(3), TV(4), TV(5),
#undef TV
};

/* A bid of b (1..9) / 9, 0 for no bid (b = 0). */
static const float bid_value[MAGNA_MAX_BID + 1] = {
    0,        1 / 9.0f, 2 / 9.0f, 3 / 9.0f, 4 / 9.0f,
    5 / 9.0f, 6 / 9.0f, 7 / 9.0f, 8 / 9.0f, 9 / 9.0f};

/* Relative seat s as seen from seat among n, as a one-hot of n bits
 * (none for MAGNA_NO_SEAT). */
static inline uint64_t seat_bit(int s, int seat, int n)
{
    return s == MAGNA_NO_SEAT ? 0 : (uint64_t)1 << trick_rel(s, seat, n);
}

/* sets / 6 for the sets finished. */
static const float sets_value[MAGNA_SETS + 1] = {
    0, 1 / 6.0f, 2 / 6.0f, 3 / 6.0f, 4 / 6.0f, 5 / 6.0f, 6 / 6.0f};

/* Streams the 0/1 entries of the tensor, in layout order (the other
 * values are zeros here, set later). Inlined for each player count n, so
 * that every width and place in the stream is a constant. */
static inline __attribute__((always_inline)) void
observe_bits(const struct magna_state *st, int seat, uint64_t *w, int n)
{
    struct obs_bits bits, *b = &bits;
    obs_bits_start(b, w);
    /* Others' discards are face down at first: only seat's own row. */
    int shown = magna_discards_hidden(st) ? 1 : n;
    obs_bits_put(b, st->tb.hand[seat], FT_CARDS);
    obs_bits_skip(b, FT_CARDS); /* the set */
#pragma GCC unroll 5
    for (int r = 0, s = seat; r < n; r++, s = trick_next(s, n))
        obs_bits_put(b, st->tb.played[s], FT_CARDS);
#pragma GCC unroll 5
    for (int r = 0, s = seat; r < n; r++, s = trick_next(s, n))
        obs_bits_put(b, st->won[s], FT_CARDS);
#pragma GCC unroll 5
    for (int r = 0, s = seat; r < n; r++, s = trick_next(s, n))
        obs_bits_put(b, r < shown ? st->discard[s] : 0, FT_CARDS);
    obs_bits_put(b, st->tb.honor ? 1u << (st->tb.honor - 5) : 0, 6);
    obs_bits_put(b, seat_bit(st->dealer, seat, n), n);
    obs_bits_put(b, st->phase == MAGNA_PH_OVER
                        ? 0 : seat_bit(st->tb.turn, seat, n), n);
    obs_bits_put(b, seat_bit(st->bidder, seat, n), n);
    obs_bits_skip(b, 1 + n); /* bid, bids */
    obs_bits_put(b, st->passed >> seat & ((1u << n) - 1), n);
    obs_bits_put(b, 1u << st->phase, MAGNA_NPHASES);
    obs_bits_skip(b, n + 2); /* score, sets, deal */
    obs_bits_end(b);
}

/* The values other than 0 and 1, over the bits already written. */
static inline __attribute__((always_inline)) void
observe_values(const struct magna_state *st, int seat, float *out, int n)
{
    struct layout l = layout_of(n);
    int r = trick_rel(st->tb.leader, seat, n);
    for (int i = 0; i < st->tb.ntrick; i++, r = trick_next(r, n))
        out[l.trick + st->tb.trick[i]] = trick_value[n][r];
    out[l.bid] = bid_value[st->bid];
    memcpy(out + l.bids, st->bid_f + seat, sizeof(float) * (size_t)n);
    memcpy(out + l.score, st->score_f + seat, sizeof(float) * (size_t)n);
    out[l.sets] = sets_value[st->nsets];
    out[l.deal] = st->deal_f;
}

/* The whole tensor for n players: the bits, then the other values over
 * them, most read from the state as they are. */
static inline __attribute__((always_inline)) void
observe_n(const struct magna_state *st, int seat, float *out, int n)
{
    uint64_t w[OBS_BITS_WORDS(MAGNA_OBS_MAX)];
    observe_bits(st, seat, w, n);
    obs_bits_write(out, w, layout_of(n).size);
    observe_values(st, seat, out, n);
}

#if defined(__x86_64__)
/* observe_n on AVX-512: the stream's words, kept in registers, go
 * straight to the tensor, 64 floats a block aligned to 64 bytes (out[0]
 * at lane pad of the first; lanes outside out[0..size) masked), so no
 * word is stored and read back, and no call is made. */
__attribute__((target("avx512f"), always_inline)) static inline void
observe_512_n(const struct magna_state *st, int seat, float *out, int n)
{
    int size = layout_of(n).size, words = (size + 63) / 64;
    uint64_t w[OBS_BITS_WORDS(MAGNA_OBS_MAX)];
    observe_bits(st, seat, w, n);
    int pad = (int)((uintptr_t)out & 63) / (int)sizeof *out;
    float *base = out - pad;
    /* Block k holds stream bits 64k - pad .. 64k + 63 - pad. */
    obs_block_512(base, w[0] << pad, ~0ull << pad);
#pragma GCC unroll 16
    for (int k = 1; k < words - 1; k++)
        obs_block_512(base + 64 * k, w[k] << pad | w[k - 1] >> 1 >> (63 - pad),
                  ~0ull);
#pragma GCC unroll 2
    for (int k = words - 1; k <= words; k++) {
        int lim = size + pad - 64 * k; /* lanes in out, at most */
        if (k == 0 || lim <= 0)
            continue; /* the first block, or no float of out */
        obs_block_512(base + 64 * k, w[k] << pad | w[k - 1] >> 1 >> (63 - pad),
                  lim >= 64 ? ~0ull : ~(~0ull << lim));
    }
    observe_values(st, seat, out, n);
}

__attribute__((target("avx512f"))) static void
observe_512(const struct magna_state *st, int seat, float *out)
{
    switch (st->tb.n) {
    case 2:
        observe_512_n(st, seat, out, 2);
        break;
    case 3:
        observe_512_n(st, seat, out, 3);
        break;
    case 4:
        observe_512_n(st, seat, out, 4);
        break;
    default:
        observe_512_n(st, seat, out, MAGNA_MAXP);
    }
}
#endif

void magna__observe(const struct game *g, const void *vst, int seat, float *out)
{
    (void)g;
    const struct magna_state *st = vst;
#if defined(__x86_64__)
    if (obs_width_best() == OBS_WIDTH_64) {
        observe_512(st, seat, out);
        return;
    }
#endif
    switch (st->tb.n) {
    case 2:
        observe_n(st, seat, out, 2);
        break;
    case 3:
        observe_n(st, seat, out, 3);
        break;
    case 4:
        observe_n(st, seat, out, 4);
        break;
    default:
        observe_n(st, seat, out, MAGNA_MAXP);
    }
}

int magna__obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = g->dims.players;
    struct layout l = layout_of(n);
    const struct obs_segment seg[] = {
        {"hand", l.hand, FT_CARDS,
         "own cards by local id (Trix id - 15; 51 Trixie)"},
        {"trick", l.trick, FT_CARDS,
         "current set: (relative seat of its player + 1) / players"},
        {"played", l.played, n * FT_CARDS,
         "cards each relative seat played this deal, 52 per seat"},
        {"won", l.won, n * FT_CARDS,
         "cards in the sets each relative seat won, 52 per seat"},
        {"discards", l.discards, n * FT_CARDS,
         "cards each relative seat laid aside (others' once all are face "
         "up), 52 per seat"},
        {"honor", l.honor, 6, "honor suit one-hot, Fives..Tens"},
        {"dealer", l.dealer, n, "dealer, relative seat one-hot"},
        {"to_move", l.to_move, n, "seat to act, relative one-hot"},
        {"bidder", l.bidder, n, "highest bidder, relative one-hot"},
        {"bid", l.bid, 1, "highest bid / 9"},
        {"bids", l.bids, n, "each relative seat's bid / 9 (0: none)"},
        {"passed", l.passed, n, "relative seats that said \"pass\""},
        {"phase", l.phase, MAGNA_NPHASES,
         "bid name discard play over, one-hot"},
        {"score", l.score, n,
         "each relative seat's side's score / (2 target), clipped to [0,1]"},
        {"sets", l.sets, 1, "sets finished / 6"},
        {"deal", l.deal, 1, "deals finished / max_deals"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== API: names and view ============================================== */

int magna__action_name(const struct game *g, const void *vst, int a, char *buf,
                       size_t len)
{
    (void)g;
    (void)vst;
    char name[16];
    if (a < MAGNA_A_PASS)
        return text_cat(buf, len, a < MAGNA_A_DISCARD ? "play " : "discard ",
                        trix_card_text(ft_trix_id(a % FT_CARDS)));
    if (a == MAGNA_A_PASS)
        return text_cat(buf, len, "pass", "");
    if (a < MAGNA_A_NAME)
        return text_put(buf, len, name,
                        (size_t)(view_cat_num(view_cat(name, "bid "),
                                              a - MAGNA_A_BID + 1) -
                                 name));
    return text_cat(buf, len, "name ", trix_suit_name(a - MAGNA_A_NAME + 5));
}

/* This deal's actions as [seat, name]; another's discard while the
 * discards are face down is shown as "discard". */
static void pack_history(const struct game *g, const struct magna_state *st,
                         int seat, msgpack_packer *pk)
{
    char name[GAME_NAME_MAX];
    bool hidden = magna_discards_hidden(st);
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        int s = st->hist[i][0], a = st->hist[i][1];
        char *p = name;
        if (a >= MAGNA_A_PASS) {
            magna__action_name(g, st, a, name, sizeof name);
            p += strlen(name);
        } else if (a >= MAGNA_A_DISCARD && s != seat && hidden) {
            p = view_cat(p, "discard");
        } else {
            /* magna__action_name's text for a card, from pieces */
            p = view_cat(p, a < MAGNA_A_DISCARD ? "play " : "discard ");
            p = view_cat8(p, trix_card_text(ft_trix_id(a % FT_CARDS)));
        }
        view_pack_entryn(pk, s, name, (size_t)(p - name));
    }
}

static void pack_bidding(const struct magna_state *st, msgpack_packer *pk)
{
    view_pack_str(pk, "bids");
    view_pack_array(pk, st->tb.n);
    for (int s = 0; s < st->tb.n; s++) {
        if (st->bids[s] < 0)
            view_pack_nil(pk);
        else if (st->bids[s] == 0)
            view_pack_str(pk, "pass");
        else
            view_pack_int(pk, st->bids[s]);
    }
    view_pack_str(pk, "bidder");
    view_pack_seat(pk, st->bidder);
    view_pack_str(pk, "bid");
    view_pack_int(pk, st->bid);
    view_pack_str(pk, "honors");
    if (st->tb.honor)
        view_pack_str(pk, trix_suit_name(st->tb.honor));
    else
        view_pack_nil(pk);
}

/* Own discards always; others' once face up, else their number. */
static void pack_table(const struct magna_state *st, int seat,
                       msgpack_packer *pk)
{
    view_pack_str(pk, "discards");
    view_pack_array(pk, st->tb.n);
    for (int s = 0; s < st->tb.n; s++) {
        if (s == seat || !magna_discards_hidden(st))
            ft_pack_hand(pk, st->discard[s]);
        else
            view_pack_int(pk, hand_count(st->discard[s]));
    }
    ft_pack_trick(&st->tb, pk);
    view_pack_str(pk, "sets_won");
    view_pack_array(pk, st->tb.n);
    for (int s = 0; s < st->tb.n; s++)
        view_pack_int(pk, hand_count(st->won[s]) / st->tb.n);
}

/* Points each side made in the last finished deal, and the bid's fate. */
static void pack_last(const struct magna_state *st, msgpack_packer *pk)
{
    view_pack_str(pk, "last_deal");
    view_pack_map(pk, MAGNA_NPOINTS + 1);
    for (int i = 0; i < MAGNA_NPOINTS; i++) {
        view_pack_str(pk, point_names[i]);
        view_pack_u8s(pk, st->last[i], st->teams);
    }
    view_pack_str(pk, "bid_made");
    view_pack_int(pk, st->last_made);
}

int magna__view(const struct game *g, const void *vst, int seat,
                msgpack_packer *pk)
{
    const struct magna_state *st = vst;
    view_pack_str(pk, "hand");
    ft_pack_hand(pk, st->tb.hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    pack_bidding(st, pk);
    pack_table(st, seat, pk);
    view_pack_str(pk, "scores");
    view_pack_array(pk, st->teams);
    for (int t = 0; t < st->teams; t++)
        view_pack_int(pk, st->score[t]);
    view_pack_str(pk, "target");
    view_pack_int(pk, st->target);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phase_names[st->phase]);
    view_pack_str(pk, "deal");
    view_pack_int(pk, st->deal_no + (st->phase != MAGNA_PH_OVER));
    view_pack_str(pk, "history");
    pack_history(g, st, seat, pk);
    pack_last(st, pk);
    return 0;
}

/* ==== API: determinization ============================================= */

/* The bidder must keep an honor until he has led: while that matters
 * and another seat resamples his hand, one unseen honor is put in it
 * first. Returns that card's bit (0 if none is needed). */
static hand_t bidder_honor(const struct magna_state *st, int seat, hand_t pool,
                           struct rng *rng)
{
    bool before_lead =
        st->phase == MAGNA_PH_DISCARD ||
        (st->phase == MAGNA_PH_PLAY && st->nsets == 0 && st->tb.ntrick == 0);
    hand_t hon = pool & ft_suit_mask(st->tb.honor);
    if (!before_lead || st->bidder == seat || !hon)
        return 0;
    return card_bit(
        hand_nth(hon, (int)rng_below(rng, (uint32_t)hand_count(hon))));
}

void magna__determinize(const struct game *g, void *vst, int seat,
                        struct rng *rng)
{
    (void)g;
    struct magna_state *st = vst;
    bool hidden = magna_discards_hidden(st);
    hand_t seen = st->tb.hand[seat] | st->discard[seat];
    for (int s = 0; s < st->tb.n; s++)
        seen |= st->tb.played[s] | (hidden ? 0 : st->discard[s]);
    hand_t pool = FT_ALL & ~seen;
    hand_t keep = bidder_honor(st, seat, pool, rng);
    struct card_bins b;
    memset(&b, 0, sizeof b);
    int hb[MAGNA_MAXP], db[MAGNA_MAXP];
    for (int s = 0; s < st->tb.n; s++) {
        if (s == seat)
            continue;
        hb[s] = b.nb;
        b.allow[b.nb] = FT_ALL & ~st->tb.cant[s];
        b.room[b.nb++] = hand_count(st->tb.hand[s]) - (s == st->bidder && keep);
        db[s] = b.nb;
        b.allow[b.nb] = FT_ALL;
        b.room[b.nb++] = hidden ? hand_count(st->discard[s]) : 0;
    }
    b.allow[b.nb] = FT_ALL;
    b.room[b.nb++] = FT_CARDS - MAGNA_DEALT * st->tb.n;
    bool ok = card_bins_fill(&b, pool & ~keep, rng);
    assert(ok); /* the true deal is one way to place them all */
    (void)ok;
    for (int s = 0; s < st->tb.n; s++) {
        if (s == seat)
            continue;
        st->tb.hand[s] = b.got[hb[s]] | (s == st->bidder ? keep : 0);
        if (hidden)
            st->discard[s] = b.got[db[s]];
    }
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== API: text ======================================================== */

int magna__describe(const struct game *g, const void *vst, int seat, char *buf,
                    size_t len)
{
    (void)g;
    const struct magna_state *st = vst;
    char h[128], d[64];
    size_t used = 0;
    text_appendf(
        buf, len, &used, "Magna deal %d, bid %d by %d, honors %s, %s\n",
        st->deal_no + 1, st->bid, st->bidder == MAGNA_NO_SEAT ? -1 : st->bidder,
        st->tb.honor ? trix_suit_name(st->tb.honor) : "-",
        phase_names[st->phase]);
    for (int s = 0; s < st->tb.n; s++) {
        bool mine = seat < 0 || seat == s;
        if (mine)
            ft_describe_hand(st->tb.hand[s], h, sizeof h);
        else
            snprintf(h, sizeof h, "%d card%s", hand_count(st->tb.hand[s]),
                     text_s(hand_count(st->tb.hand[s])));
        if (mine || !magna_discards_hidden(st))
            ft_describe_hand(st->discard[s], d, sizeof d);
        else
            snprintf(d, sizeof d, "%d face down", hand_count(st->discard[s]));
        text_appendf(
            buf, len, &used, "seat %d%s: %s | aside %s | side %d at %d%s\n", s,
            s == st->dealer ? " (dealer)" : "", h, d, magna_side(st, s),
            st->score[magna_side(st, s)],
            st->phase != MAGNA_PH_OVER && s == st->tb.turn ? "  <- to act"
                                                           : "");
    }
    ft_describe_set(&st->tb, buf, len, &used);
    return (int)(used < len ? used : len - 1);
}
