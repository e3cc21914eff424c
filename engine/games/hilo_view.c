/* hilo_view.c — what a Hilo seat sees (tensor, structured view, action
 * names, text) and the determinization of what it does not.
 * Rules and decisions: see the header comment of hilo.c.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../view.h"
#include "hilo.h"

const char *const hilo__view_keys[] = {
    "hand",       "dealer",      "honors",
    "turn_up",    "trick",       "leader",
    "hand_sizes", "game_points", "trixie_won_by",
    "scores",     "target",      "trixie_turned",
    "phase",      "deal",        "history",
    "last_deal",  NULL};

static const char *const phase_names[] = {"another_deal", "dealer_choice",
                                          "play", "over"};
static const char *const point_names[] = {"high", "low", "trixie", "game"};

/* ==== API: observation ================================================= */

struct layout {
    int hand, trick, played, turn_up, honor, dealer, to_move, phase, score;
    int gpts, trixie, begged, deal, size;
};

static struct layout layout_of(int n)
{
    struct layout l;
    l.hand = 0;
    l.trick = l.hand + FT_CARDS;
    l.played = l.trick + FT_CARDS;
    l.turn_up = l.played + n * FT_CARDS;
    l.honor = l.turn_up + FT_CARDS;
    l.dealer = l.honor + 6;
    l.to_move = l.dealer + n;
    l.phase = l.to_move + n;
    l.score = l.phase + HILO_NPHASES;
    l.gpts = l.score + n;
    l.trixie = l.gpts + n;
    l.begged = l.trixie + n;
    l.deal = l.begged + 1;
    l.size = l.deal + 1;
    return l;
}

int hilo__obs_size(int n)
{
    return layout_of(n).size;
}

void hilo__observe(const struct game *g, const void *vst, int seat, float *out)
{
    (void)g;
    const struct hilo_state *st = vst;
    int n = st->tb.n;
    struct layout l = layout_of(n);
    memset(out, 0, sizeof *out * (size_t)l.size);
    trick_put_bits(out + l.hand, st->tb.hand[seat]);
    for (int i = 0; i < st->tb.ntrick; i++) {
        int r = trick_rel((st->tb.leader + i) % n, seat, n);
        out[l.trick + st->tb.trick[i]] = (float)(r + 1) / (float)n;
    }
    for (int s = 0; s < n; s++) {
        int r = trick_rel(s, seat, st->tb.n);
        trick_put_bits(out + l.played + r * FT_CARDS, st->tb.played[s]);
        float sc = (float)st->score[hilo_side(st, s)] / (float)st->target;
        out[l.score + r] = sc < 1 ? sc : 1;
        out[l.gpts + r] = (float)st->gpts[s] / HILO_GAME_POINTS;
        out[l.trixie + r] = st->trixie_winner == s;
    }
    out[l.turn_up + st->turnup] = 1;
    out[l.honor + st->tb.honor - 5] = 1;
    out[l.dealer + trick_rel(st->dealer, seat, st->tb.n)] = 1;
    if (st->phase != HILO_PH_OVER)
        out[l.to_move + trick_rel(st->tb.turn, seat, st->tb.n)] = 1;
    out[l.phase + st->phase] = 1;
    out[l.begged] = st->begged_suit != 0;
    out[l.deal] = (float)st->deal_no / (float)st->max_deals;
}

int hilo__obs_layout(const struct game *g, struct obs_segment *out, int max)
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
        {"turn_up", l.turn_up, FT_CARDS, "the card turned for honors"},
        {"honor", l.honor, 6, "honor suit one-hot, Fives..Tens"},
        {"dealer", l.dealer, n, "dealer, relative seat one-hot"},
        {"to_move", l.to_move, n, "seat to act, relative one-hot"},
        {"phase", l.phase, HILO_NPHASES,
         "another_deal dealer_choice play over, one-hot"},
        {"score", l.score, n, "each relative seat's side's points / target"},
        {"game_points", l.gpts, n,
         "game points taken in sets this deal / 20, relative seats"},
        {"trixie_won", l.trixie, n, "relative seat that won Trixie"},
        {"begged", l.begged, 1, "the eldest asked for another deal"},
        {"deal", l.deal, 1, "deals finished / max_deals"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== API: names and view ============================================== */

int hilo__action_name(const struct game *g, const void *vst, int a, char *buf,
                      size_t len)
{
    (void)g;
    (void)vst;
    static const char *const names[] = {"stand", "another deal", "give 1",
                                        "deal 3"};
    char name[16];
    if (a < HILO_A_STAND)
        return text_put(buf, len, name,
                        (size_t)(view_cat8(view_cat(name, "play "),
                                           trix_card_text(ft_trix_id(a))) -
                                 name));
    return text_cat(buf, len, names[a - HILO_A_STAND], "");
}

static void pack_table(const struct hilo_state *st, msgpack_packer *pk)
{
    view_pack_str(pk, "honors");
    view_pack_str(pk, trix_suit_name(st->tb.honor));
    view_pack_str(pk, "turn_up");
    ft_pack_card(pk, st->turnup);
    ft_pack_trick(&st->tb, pk);
}

static void pack_counts(const struct hilo_state *st, msgpack_packer *pk)
{
    int n = st->tb.n, teams = st->partners ? 2 : n;
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, hand_count(st->tb.hand[s]));
    view_pack_str(pk, "game_points");
    view_pack_u8s(pk, st->gpts, n);
    view_pack_str(pk, "trixie_won_by");
    view_pack_seat(pk, st->trixie_winner);
    view_pack_str(pk, "scores");
    view_pack_u8s(pk, st->score, teams);
    view_pack_str(pk, "target");
    view_pack_int(pk, st->target);
    view_pack_str(pk, "trixie_turned");
    view_pack_int(pk, st->trixie_turned);
}

int hilo__view(const struct game *g, const void *vst, int seat,
               msgpack_packer *pk)
{
    const struct hilo_state *st = vst;
    view_pack_str(pk, "hand");
    ft_pack_hand(pk, st->tb.hand[seat]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    pack_table(st, pk);
    pack_counts(st, pk);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phase_names[st->phase]);
    view_pack_str(pk, "deal");
    view_pack_int(pk, st->deal_no + (st->phase != HILO_PH_OVER));
    view_pack_str(pk, "history");
    trick_pack_history(g, st, (const uint8_t(*)[2])st->hist, st->nhist, pk);
    /* Side that took each point of the last finished deal. */
    view_pack_str(pk, "last_deal");
    view_pack_map(pk, HILO_NPOINTS);
    for (int i = 0; i < HILO_NPOINTS; i++) {
        view_pack_str(pk, point_names[i]);
        view_pack_seat(pk, st->last[i]);
    }
    return 0;
}

/* ==== API: determinization ============================================= */

void hilo__determinize(const struct game *g, void *vst, int seat,
                       struct rng *rng)
{
    (void)g;
    struct hilo_state *st = vst;
    hand_t seen = st->tb.hand[seat] | card_bit(st->turnup);
    for (int s = 0; s < st->tb.n; s++)
        seen |= st->tb.played[s];
    struct card_bins b;
    memset(&b, 0, sizeof b);
    int seats[HILO_MAXP];
    for (int s = 0; s < st->tb.n; s++) {
        if (s == seat)
            continue;
        seats[b.nb] = s;
        b.allow[b.nb] = FT_ALL & ~st->tb.cant[s];
        b.room[b.nb++] = hand_count(st->tb.hand[s]);
    }
    b.allow[b.nb] = FT_ALL;
    b.room[b.nb++] = FT_CARDS - st->deck_pos;
    bool ok = card_bins_fill(&b, FT_ALL & ~seen, rng);
    assert(ok); /* the true deal is one way to place them all */
    (void)ok;
    for (int i = 0; i + 1 < b.nb; i++)
        st->tb.hand[seats[i]] = b.got[i];
    /* The deck stays a permutation: the stock last, the turn-up just
     * before it (a refused turn-up is put back from there), the rest
     * first. */
    hand_t stock = b.got[b.nb - 1], up = card_bit(st->turnup);
    int lo = 0, hi = st->deck_pos;
    for (int c = 0; c < FT_CARDS; c++)
        if (!hand_has(up, c))
            st->deck[hand_has(stock, c) ? hi++ : lo++] = (uint8_t)c;
    st->deck[lo] = st->turnup;
    st->deck_fixed = 0; /* the stock is drawn at random from now on */
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== API: text ======================================================== */

int hilo__describe(const struct game *g, const void *vst, int seat, char *buf,
                   size_t len)
{
    (void)g;
    const struct hilo_state *st = vst;
    char h[160], c[TRIX_NAME_MAX];
    size_t used = 0;
    ft_card_name(st->turnup, c, sizeof c);
    text_appendf(buf, len, &used, "Hilo deal %d, turn-up %s, honors %s, %s\n",
                 st->deal_no + 1, c, trix_suit_name(st->tb.honor),
                 phase_names[st->phase]);
    for (int s = 0; s < st->tb.n; s++) {
        if (seat < 0 || seat == s)
            ft_describe_hand(st->tb.hand[s], h, sizeof h);
        else
            snprintf(h, sizeof h, "%d card%s", hand_count(st->tb.hand[s]),
                     text_s(hand_count(st->tb.hand[s])));
        text_appendf(
            buf, len, &used,
            "seat %d%s: %s | game points %d | side %d "
            "has %d%s\n",
            s, s == st->dealer ? " (dealer)" : "", h, st->gpts[s],
            hilo_side(st, s), st->score[hilo_side(st, s)],
            st->phase != HILO_PH_OVER && s == st->tb.turn ? "  <- to act" : "");
    }
    ft_describe_set(&st->tb, buf, len, &used);
    return (int)(used < len ? used : len - 1);
}
