/* my_bird_sings_view.c — what a seat sees in My Bird Sings: the
 * observation tensor and its layout, the structured view, action names and
 * the text description. Rules and decisions: my_bird_sings.c. */
#include <stdio.h>
#include <string.h>

#include "../view.h"
#include "my_bird_sings.h"

/* ==== API: observation ================================================== */

/* Offsets of the tensor's segments for n players. */
struct layout {
    int hand, dead, passed, sent, sizes, tricks, chips, to_move, dealer;
    int pool, stock, circuit, phase, deal;
};

static struct layout layout_of(int n)
{
    struct layout L;
    L.hand = 0;
    L.dead = CARDS_IN_PACK;
    L.passed = 2 * CARDS_IN_PACK;
    L.sent = 3 * CARDS_IN_PACK;
    L.sizes = 4 * CARDS_IN_PACK;
    L.tricks = L.sizes + n;
    L.chips = L.tricks + n;
    L.to_move = L.chips + n;
    L.dealer = L.to_move + n;
    L.pool = L.dealer + n;
    L.stock = L.pool + 1;
    L.circuit = L.stock + 1;
    L.phase = L.circuit + 1;
    L.deal = L.phase + 4;
    return L;
}

static void plane(float *out, hand_t h)
{
    for (; h; h &= h - 1)
        out[hand_first(h)] = 1;
}

static void observe_seats(const struct game *g, const struct mbs_state *st,
                          int seat, const struct layout *L, float *out)
{
    int n = mbs_players(g);
    double lo = g->dims.ret_low, span = g->dims.ret_high - lo;
    for (int k = 0, s = seat; k < n; k++, s = s + 1 == n ? 0 : s + 1) {
        out[L->sizes + k] = (float)hand_count(st->hand[s]) / 5;
        out[L->tricks + k] = (float)st->tricks[s] / MBS_MAX_SONGS;
        out[L->chips + k] = (float)((st->chips[s] - lo) / span);
    }
    /* One-hot over the cleared tensor: relative seats of actor, dealer. */
    if (st->phase != MBS_PH_OVER)
        out[L->to_move + (st->actor - seat + n) % n] = 1;
    out[L->dealer + (st->dealer - seat + n) % n] = 1;
}

void my_bird_sings__observe(const struct game *g, const void *vst, int seat,
                            float *out)
{
    const struct mbs_state *st = vst;
    struct layout L = layout_of(mbs_players(g));
    memset(out, 0, sizeof(float) * (size_t)g->dims.obs_size);
    plane(out + L.hand, st->hand[seat]);
    plane(out + L.dead, st->dead);
    plane(out + L.passed, mbs_passed_on(st, seat));
    if (st->sent[seat] != NO_CARD)
        out[L.sent + st->sent[seat]] = 1;
    observe_seats(g, st, seat, &L, out);
    out[L.pool] = (float)st->pool /
                  (float)(mbs_opt(g, MBS_P_DEALS) * (mbs_players(g) + 1));
    out[L.stock] = (float)mbs_stock_left(st) / CARDS_IN_PACK;
    out[L.circuit] =
        (float)st->circuits / (float)mbs_opt(g, MBS_P_MAX_CIRCUITS);
    if (st->phase != MBS_PH_OVER)
        out[L.phase + st->phase] = 1;
    out[L.deal] = (float)st->deals / (float)mbs_opt(g, MBS_P_DEALS);
}

int my_bird_sings__obs_layout(const struct game *g, struct obs_segment *out,
                              int max)
{
    int n = mbs_players(g);
    struct layout L = layout_of(n);
    const struct obs_segment seg[] = {
        {"hand", L.hand, 52, "own cards, one per card id"},
        {"dead", L.dead, 52, "cards out of play, face up (exchanges, tricks)"},
        {"passed", L.passed, 52, "cards held this deal and passed on"},
        {"sent", L.sent, 52,
         "the card passed left that the neighbour surely still holds"},
        {"hand_sizes", L.sizes, n,
         "per seat, own first then clockwise: cards held / 5"},
        {"tricks", L.tricks, n, "per seat: songs this deal / 18"},
        {"chips", L.chips, n,
         "per seat: net chips, scaled from [ret_low, ret_high] to [0, 1]"},
        {"to_move", L.to_move, n, "per seat: 1 for the seat to act"},
        {"dealer", L.dealer, n, "per seat: 1 for the dealer"},
        {"pool", L.pool, 1, "chips in the pool / (deals x (players + 1))"},
        {"stock", L.stock, 1, "cards left in the stock / 52"},
        {"circuit", L.circuit, 1, "circuits completed / max_circuits"},
        {"phase", L.phase, 4, "1 for the phase: sing, exchange, throw, draw"},
        {"deal", L.deal, 1, "deals finished / deals"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== API: view, names, text ============================================ */

int my_bird_sings__action_name(const struct game *g, const void *vst,
                               int action, char *buf, size_t len)
{
    (void)g;
    (void)vst;
    char c[8];
    if (action < MBS_A_NO_EXCHANGE) {
        card_name(action % MBS_A_EXCHANGE, c, sizeof c);
        return text_fmt(buf, len, "%s %s",
                        action < MBS_A_EXCHANGE ? "throw" : "exchange", c);
    }
    return text_fmt(buf, len, "%s",
                    action == MBS_A_NO_EXCHANGE ? "no exchange"
                    : action == MBS_A_DRAW      ? "draw"
                                                : "sing");
}

/* A history entry as seat may know it: the card of a throw or blind draw
 * only for the two seats it passed between. */
static void entry_name(const struct game *g, const struct mbs_hist_entry *e,
                       int seat, char *buf, size_t len)
{
    char c[8];
    int a = e->action;
    bool thrown = a < MBS_A_EXCHANGE, drawn = a == MBS_A_DRAW;
    int other = thrown ? mbs_next(g, e->seat) : mbs_prev(g, e->seat);
    bool knows = seat == e->seat || seat == other;
    if (thrown && !knows) {
        text_fmt(buf, len, "throw");
    } else if (drawn && knows) {
        card_name(e->card, c, sizeof c);
        text_fmt(buf, len, "draw %s", c);
    } else {
        my_bird_sings__action_name(g, NULL, a, buf, len);
    }
}

static void pack_history(const struct game *g, const struct mbs_state *st,
                         int seat, msgpack_packer *pk)
{
    int k = st->nhist < MBS_HIST ? st->nhist : MBS_HIST;
    char name[GAME_NAME_MAX];
    view_pack_array(pk, (size_t)k);
    for (int i = st->nhist - k; i < st->nhist; i++) {
        const struct mbs_hist_entry *e = &st->hist[i % MBS_HIST];
        entry_name(g, e, seat, name, sizeof name);
        view_pack_entry(pk, e->seat, name);
    }
}

static void pack_seats(const struct game *g, const struct mbs_state *st,
                       msgpack_packer *pk)
{
    int n = mbs_players(g);
    uint8_t sizes[MBS_MAXP];
    for (int s = 0; s < n; s++)
        sizes[s] = (uint8_t)hand_count(st->hand[s]);
    view_pack_str(pk, "hand_sizes");
    view_pack_u8s(pk, sizes, n);
    view_pack_str(pk, "tricks");
    view_pack_u8s(pk, st->tricks, n);
    view_pack_str(pk, "chips");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, st->chips[s]);
}

const char *const my_bird_sings__view_keys[] = {
    "hand",   "sent",  "passed",    "dead",    "stock",  "hand_sizes",
    "tricks", "chips", "pool",      "dealer",  "leader", "circuit",
    "phase",  "deal",  "last_song", "history", NULL};

int my_bird_sings__view(const struct game *g, const void *vst, int seat,
                        msgpack_packer *pk)
{
    static const char *const phases[] = {"sing", "exchange", "throw", "draw",
                                         "over"};
    const struct mbs_state *st = vst;
    view_pack_str(pk, "hand");
    view_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "sent");
    if (st->sent[seat] == NO_CARD)
        view_pack_nil(pk);
    else
        view_pack_card(pk, st->sent[seat]);
    view_pack_str(pk, "passed");
    view_pack_hand(pk, mbs_passed_on(st, seat));
    view_pack_str(pk, "dead");
    view_pack_hand(pk, st->dead);
    view_pack_str(pk, "stock");
    view_pack_int(pk, mbs_stock_left(st));
    pack_seats(g, st, pk);
    view_pack_str(pk, "pool");
    view_pack_int(pk, st->pool);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "leader");
    view_pack_int(pk, mbs_leader(g, st));
    view_pack_str(pk, "circuit");
    view_pack_int(pk, st->circuits + 1);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    view_pack_str(pk, "deal");
    view_pack_int(pk, st->deals + (st->phase != MBS_PH_OVER));
    view_pack_str(pk, "last_song");
    if (st->song_seat < 0) {
        view_pack_nil(pk);
    } else {
        view_pack_array(pk, 2);
        view_pack_int(pk, st->song_seat);
        view_pack_hand(pk, st->song);
    }
    view_pack_str(pk, "history");
    pack_history(g, st, seat, pk);
    return 0;
}

int my_bird_sings__describe(const struct game *g, const void *vst, int seat,
                            char *buf, size_t len)
{
    const struct mbs_state *st = vst;
    static const char *const doing[] = {"sing", "exchange or not", "throw",
                                        "draw", ""};
    char h[160];
    size_t used = (size_t)snprintf(buf, len,
                                   "deal %d, dealer %d, circuit "
                                   "%d, stock %d, pool %d\n",
                                   st->deals + 1, st->dealer, st->circuits + 1,
                                   mbs_stock_left(st), st->pool);
    for (int s = 0; s < mbs_players(g) && used < len; s++) {
        bool show = seat < 0 || seat == s;
        hand_format(st->hand[s], h, sizeof h);
        used += (size_t)snprintf(buf + used, len - used,
                                 "seat %d: chips %d, tricks %d, %d card%s%s%s\n",
                                 s, st->chips[s], st->tricks[s],
                                 hand_count(st->hand[s]),
                                 text_s(hand_count(st->hand[s])),
                                 show ? ": " : "",
                                 show ? h : "");
    }
    hand_format(st->dead, h, sizeof h);
    if (used < len && st->dead)
        used +=
            (size_t)snprintf(buf + used, len - used, "out of play: %s\n", h);
    if (used < len && st->phase != MBS_PH_OVER)
        used += (size_t)snprintf(buf + used, len - used, "seat %d to %s\n",
                                 st->actor, doing[st->phase]);
    return (int)(used < len ? used : len - 1);
}
