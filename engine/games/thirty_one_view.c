/* thirty_one_view.c — what a Thirty-One seat sees: the observation tensor,
 * the structured view, action names and the text description.
 *
 * Everything here reads the state (thirty_one.h) and shows only the seat's
 * own hand and public facts: the discard pile, cards seen taken into hands,
 * the reshuffled set, pennies, who deals, knocks and acts, and the cards
 * shown at the last round's end. Rules and decisions: thirty_one.c.
 */
#include <stdio.h>
#include <string.h>

#include "../obs_fill.h"
#include "../view.h"
#include "thirty_one.h"

/* ==== types ============================================================ */

#define MAX_VALUE4 41 /* A K Q J of one suit: the most four cards count */

/* Offsets of the observation tensor's segments for n players. */
struct layout {
    int hand, taken, top, pile, restock, known, pennies, county, out;
    int dealer, knocker, actor, phase, stock, value, turns, size;
};

const char *const thirty_one__view_keys[] = {
    "hand",   "value",      "taken",      "discard", "pile",
    "stock",  "reshuffled", "known",      "pennies", "status",
    "dealer", "knocker",    "phase",      "round",   "turns",
    "kitty",  "history",    "last_round", NULL};

/* ==== observation ====================================================== */

static inline void layout_of(int n, struct layout *L)
{
    int o = 0;
    L->hand = o, o += CARDS_IN_PACK;
    L->taken = o, o += CARDS_IN_PACK;
    L->top = o, o += CARDS_IN_PACK;
    L->pile = o, o += CARDS_IN_PACK;
    L->restock = o, o += CARDS_IN_PACK;
    L->known = o, o += n * CARDS_IN_PACK;
    L->pennies = o, o += n;
    L->county = o, o += n;
    L->out = o, o += n;
    L->dealer = o, o += n;
    L->knocker = o, o += n;
    L->actor = o, o += n;
    L->phase = o++;
    L->stock = o++;
    L->value = o++;
    L->turns = o++;
    L->size = o;
}

int thirty_one__obs_size(int players)
{
    struct layout L;
    layout_of(players, &L);
    return L.size;
}

static const float stock_frac[64] = OBS_FRAC64(CARDS_IN_PACK);
static const float zero_one[2] = {0, 1};

/* pennies_frac[l][p] = p / l (0 for l = 0): pennies left of l lives (at
 * most 10, the option's limit), as the float division gives it. */
#define PEN(l, p) ((l) ? (float)(p) / (l) : 0.0f)
#define PEN4(l, p) PEN(l, p), PEN(l, (p) + 1), PEN(l, (p) + 2), PEN(l, (p) + 3)
#define PEN_ROW(l) {PEN4(l, 0), PEN4(l, 4), PEN4(l, 8), PEN4(l, 12)}
static const float pennies_frac[T31_LIVES_MAX + 1][16] = {
    PEN_ROW(0), PEN_ROW(1), PEN_ROW(2), PEN_ROW(3), PEN_ROW(4), PEN_ROW(5),
    PEN_ROW(6), PEN_ROW(7), PEN_ROW(8), PEN_ROW(9), PEN_ROW(10)};
static const float value_frac[64] = OBS_FRAC64(MAX_VALUE4);

static void plane(float *out, hand_t h)
{
    for (; h; h &= h - 1)
        out[hand_first(h)] = 1;
}

/* The per-seat segments, in seat order relative to the observer. */
/* Place of seat s seen from seat, among n (0: seat itself). */
static int rel(int s, int seat, int n)
{
    return s < seat ? s - seat + n : s - seat;
}

static void observe_seats(const struct game *g,
                          const struct thirty_one_state *st, int seat,
                          const struct layout *L, float *out)
{
    int n = g->dims.players, lives = (int)g->params.v[T31_P_LIVES];
    const float *pen = pennies_frac[lives]; /* lives <= T31_LIVES_MAX */
    for (int k = 0, p = seat; k < n; k++, p = p + 1 == n ? 0 : p + 1) {
        bool out_p = thirty_one__is_out(st, p);
        plane(out + L->known + k * CARDS_IN_PACK, st->known[p]);
        out[L->pennies + k] = pen[st->pennies[p] & 15];
        out[L->county + k] = zero_one[!out_p && st->pennies[p] == 0];
        out[L->out + k] = zero_one[out_p];
    }
    /* The one-hots: only their ones are written. */
    out[L->dealer + rel(st->dealer, seat, n)] = 1;
    if (st->knocker != T31_NO_SEAT)
        out[L->knocker + rel(st->knocker, seat, n)] = 1;
    if (st->phase != T31_PH_OVER)
        out[L->actor + rel(st->turn, seat, n)] = 1;
}

void thirty_one__observe(const struct game *g, const void *vst, int seat,
                         float *out)
{
    const struct thirty_one_state *st = vst;
    struct layout L;
    layout_of(g->dims.players, &L);
    memset(out, 0, sizeof *out * (size_t)L.size);
    plane(out + L.hand, st->hand[seat]);
    if (st->taken != NO_CARD)
        out[L.taken + st->taken] = 1;
    if (st->npile)
        out[L.top + st->pile[st->npile - 1]] = 1;
    plane(out + L.pile, st->piled);
    plane(out + L.restock, st->restock);
    observe_seats(g, st, seat, &L, out);
    out[L.phase] = zero_one[st->phase == T31_PH_DISCARD];
    out[L.stock] = stock_frac[(CARDS_IN_PACK - st->top) & 63];
    out[L.value] = value_frac[thirty_one__hand_value(st->hand[seat]) & 63];
    out[L.turns] =
        obs_quot(st->turns, (int)g->params.v[T31_P_MAX_TURNS]);
}

int thirty_one__obs_layout(const struct game *g, struct obs_segment *out,
                           int max)
{
    struct layout L;
    layout_of(g->dims.players, &L);
    int n = g->dims.players;
    const struct obs_segment seg[] = {
        {"hand", L.hand, 52, "own cards, one per card id"},
        {"taken", L.taken, 52, "card taken from the pile this turn (kept)"},
        {"top", L.top, 52, "face-up top card of the discard pile"},
        {"pile", L.pile, 52, "every card in the discard pile"},
        {"reshuffled", L.restock, 52,
         "cards reshuffled into the stock this round"},
        {"known", L.known, n * 52,
         "per seat from self clockwise: cards seen taken into its hand"},
        {"pennies", L.pennies, n, "per seat: pennies left / lives"},
        {"county", L.county, n, "per seat: 1 if on the county"},
        {"out", L.out, n, "per seat: 1 if out of the game"},
        {"dealer", L.dealer, n, "per seat: 1 for this round's dealer"},
        {"knocker", L.knocker, n, "per seat: 1 for the knocker"},
        {"to_act", L.actor, n, "per seat: 1 for the seat to act"},
        {"phase", L.phase, 1, "1 when the actor must discard"},
        {"stock", L.stock, 1, "cards in the stock / 52"},
        {"value", L.value, 1, "own hand's best one-suit total / 41"},
        {"turns", L.turns, 1, "turns this round / max_turns"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== structured view and action names ================================= */

static const char *status_name(const struct thirty_one_state *st, int p)
{
    return thirty_one__is_out(st, p) ? "out" : st->pennies[p] ? "in" : "county";
}

/* Names of the history codes (actions, then "take" with its card); a
 * plain T31_TAKE never enters the history (it is recorded with its card). */
static const char *const hist_names[] = {"draw", "knock", "knock",
                                         VIEW_CARD_NAMES("discard "),
                                         VIEW_CARD_NAMES("take ")};

/* Writes the name of a history code. */
static int hist_name(int code, char *buf, size_t len)
{
    return text_fmt(buf, len, "%s", hist_names[code]);
}

/* This round's actions as [seat, name]; seats follow the turn order. */
static void pack_history(const struct game *g,
                         const struct thirty_one_state *st, msgpack_packer *pk)
{
    int seat = thirty_one__next_live(st, st->dealer, g->dims.players);
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        int code = st->hist[i];
        view_pack_entry(pk, seat, hist_names[code]);
        if (code == T31_KNOCK || (code >= T31_DISCARD && code < T31_H_TAKE))
            seat = thirty_one__next_live(st, seat, g->dims.players);
    }
}

static void pack_last_round(const struct game *g,
                            const struct thirty_one_state *st,
                            msgpack_packer *pk)
{
    static const char *const ends[] = {"none", "knock", "31", "31 at deal",
                                       "void"};
    int n = g->dims.players;
    view_pack_map(pk, 3);
    view_pack_str(pk, "end");
    view_pack_str(pk, ends[st->last_end]);
    view_pack_str(pk, "shown");
    view_pack_array(pk, (size_t)n);
    for (int p = 0; p < n; p++)
        view_pack_hand(pk, st->shown[p]);
    view_pack_str(pk, "lost");
    view_pack_array(pk, (size_t)n);
    for (int p = 0; p < n; p++)
        view_pack_int(pk, st->lost[p]);
}

static void pack_seats(const struct game *g, const struct thirty_one_state *st,
                       msgpack_packer *pk)
{
    int n = g->dims.players;
    view_pack_str(pk, "known");
    view_pack_array(pk, (size_t)n);
    for (int p = 0; p < n; p++)
        view_pack_hand(pk, st->known[p]);
    view_pack_str(pk, "pennies");
    view_pack_array(pk, (size_t)n);
    for (int p = 0; p < n; p++)
        view_pack_int(pk, st->pennies[p]);
    view_pack_str(pk, "status");
    view_pack_array(pk, (size_t)n);
    for (int p = 0; p < n; p++)
        view_pack_str(pk, status_name(st, p));
}

int thirty_one__view(const struct game *g, const void *vst, int seat,
                     msgpack_packer *pk)
{
    static const char *const phases[] = {"draw", "discard", "over"};
    const struct thirty_one_state *st = vst;
    view_pack_str(pk, "hand");
    view_pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "value");
    view_pack_int(pk, thirty_one__hand_value(st->hand[seat]));
    view_pack_str(pk, "taken");
    if (st->taken == NO_CARD)
        view_pack_nil(pk);
    else
        view_pack_card(pk, st->taken);
    view_pack_str(pk, "discard");
    if (st->npile)
        view_pack_card(pk, st->pile[st->npile - 1]);
    else
        view_pack_nil(pk);
    view_pack_str(pk, "pile");
    view_pack_array(pk, st->npile);
    for (int i = 0; i < st->npile; i++)
        view_pack_card(pk, st->pile[i]);
    view_pack_str(pk, "stock");
    view_pack_int(pk, CARDS_IN_PACK - st->top);
    view_pack_str(pk, "reshuffled");
    view_pack_hand(pk, st->restock);
    pack_seats(g, st, pk);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "knocker");
    view_pack_seat(pk, st->knocker);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phases[st->phase]);
    view_pack_str(pk, "round");
    view_pack_int(pk, st->rounds + (st->phase != T31_PH_OVER));
    view_pack_str(pk, "turns");
    view_pack_int(pk, st->turns);
    view_pack_str(pk, "kitty");
    view_pack_int(pk, thirty_one__kitty(g, st));
    view_pack_str(pk, "history");
    pack_history(g, st, pk);
    view_pack_str(pk, "last_round");
    pack_last_round(g, st, pk);
    return 0;
}

int thirty_one__action_name(const struct game *g, const void *vst, int action,
                            char *buf, size_t len)
{
    const struct thirty_one_state *st = vst;
    (void)g;
    if (action == T31_TAKE && st->phase == T31_PH_DRAW && st->npile)
        return hist_name(T31_H_TAKE + st->pile[st->npile - 1], buf, len);
    if (action == T31_TAKE)
        return text_fmt(buf, len, "take");
    return hist_name(action, buf, len);
}

/* ==== description ===================================================== */

/* Appends to buf (len bytes) at *w; *w counts what was wanted, as
 * snprintf does, so truncation is detected once at the end. */
int thirty_one__describe(const struct game *g, const void *vst, int seat,
                         char *buf, size_t len)
{
    const struct thirty_one_state *st = vst;
    char top[8] = "-", cards[64];
    size_t w = 0;
    if (st->npile)
        card_name(st->pile[st->npile - 1], top, sizeof top);
    text_appendf(buf, len, &w,
                 "Thirty-One round %d: stock %d, discard %s "
                 "(%d card%s), kitty %d\n",
                 st->rounds + 1, CARDS_IN_PACK - st->top, top, st->npile,
                 text_s(st->npile),
                 thirty_one__kitty(g, st));
    for (int p = 0; p < g->dims.players; p++) {
        bool mine = seat < 0 || seat == p;
        hand_t h = mine ? st->hand[p] : st->known[p]; /* 0 once out */
        hand_format(h, cards, sizeof cards);
        text_appendf(buf, len, &w, "seat %d%s: %d %s, %s", p,
                     p == st->dealer ? " (dealer)" : "", st->pennies[p],
                     st->pennies[p] == 1 ? "penny" : "pennies",
                     status_name(st, p));
        if (h && mine)
            text_appendf(buf, len, &w, "; hand %s (value %d)", cards,
                         thirty_one__hand_value(h));
        else if (h)
            text_appendf(buf, len, &w, "; holds %s", cards);
        text_appendf(buf, len, &w, "\n");
    }
    if (st->phase == T31_PH_OVER)
        text_appendf(buf, len, &w, "game over\n");
    else if (st->knocker != T31_NO_SEAT)
        text_appendf(buf, len, &w, "seat %d knocked; ", st->knocker);
    if (st->phase != T31_PH_OVER)
        text_appendf(buf, len, &w, "seat %d to %s\n", st->turn,
                     st->phase == T31_PH_DRAW ? "draw, take or knock"
                                              : "discard");
    return (int)w;
}
