/* hilo_view.c — what a Hilo seat sees (tensor, structured view, action
 * names, text) and the determinization of what it does not.
 * Rules and decisions: see the header comment of hilo.c.
 */
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
    l.trick = l.hand + HILO_CARDS;
    l.played = l.trick + HILO_CARDS;
    l.turn_up = l.played + n * HILO_CARDS;
    l.honor = l.turn_up + HILO_CARDS;
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

static void put_cards(float *o, hand_t h, float v)
{
    for (; h; h &= h - 1)
        o[hand_first(h)] = v;
}

/* Relative place of seat s as seen from seat (0: seat itself). */
static int rel(const struct hilo_state *st, int s, int seat)
{
    return s < seat ? s - seat + st->n : s - seat;
}

void hilo__observe(const struct game *g, const void *vst, int seat, float *out)
{
    (void)g;
    const struct hilo_state *st = vst;
    int n = st->n;
    struct layout l = layout_of(n);
    memset(out, 0, sizeof *out * (size_t)l.size);
    put_cards(out + l.hand, st->hand[seat], 1);
    for (int i = 0; i < st->ntrick; i++) {
        int r = rel(st, (st->leader + i) % n, seat);
        out[l.trick + st->trick[i]] = (float)(r + 1) / (float)n;
    }
    for (int s = 0; s < n; s++) {
        int r = rel(st, s, seat);
        put_cards(out + l.played + r * HILO_CARDS, st->played[s], 1);
        float sc = (float)st->score[hilo_side(st, s)] / (float)st->target;
        out[l.score + r] = sc < 1 ? sc : 1;
        out[l.gpts + r] = (float)st->gpts[s] / HILO_GAME_POINTS;
        out[l.trixie + r] = st->trixie_winner == s;
    }
    out[l.turn_up + st->turnup] = 1;
    out[l.honor + st->honor - 5] = 1;
    out[l.dealer + rel(st, st->dealer, seat)] = 1;
    if (st->phase != HILO_PH_OVER)
        out[l.to_move + rel(st, st->turn, seat)] = 1;
    out[l.phase + st->phase] = 1;
    out[l.begged] = st->begged_suit != 0;
    out[l.deal] = (float)st->deal_no / (float)st->max_deals;
}

int hilo__obs_layout(const struct game *g, struct obs_segment *out, int max)
{
    int n = g->dims.players;
    struct layout l = layout_of(n);
    const struct obs_segment seg[] = {
        {"hand", l.hand, HILO_CARDS,
         "own cards by local id (Trix id - 15; 51 Trixie)"},
        {"trick", l.trick, HILO_CARDS,
         "current set: (relative seat of its player + 1) / players"},
        {"played", l.played, n * HILO_CARDS,
         "cards each relative seat played this deal, 52 per seat"},
        {"turn_up", l.turn_up, HILO_CARDS, "the card turned for honors"},
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

static int local_name(int c, char *buf, size_t len)
{
    return trix_card_name(hilo_trix_id(c), buf, len);
}

int hilo__action_name(const struct game *g, const void *vst, int a, char *buf,
                      size_t len)
{
    (void)g;
    (void)vst;
    static const char *const names[] = {"stand", "another deal", "give 1",
                                        "deal 3"};
    char c[TRIX_NAME_MAX];
    if (a < HILO_A_STAND) {
        local_name(a, c, sizeof c);
        return snprintf(buf, len, "play %s", c);
    }
    return snprintf(buf, len, "%s", names[a - HILO_A_STAND]);
}

static void pack_card(msgpack_packer *pk, int c)
{
    char buf[TRIX_NAME_MAX];
    int len = local_name(c, buf, sizeof buf);
    msgpack_pack_str_with_body(pk, buf, (size_t)len);
}

static void pack_hand(msgpack_packer *pk, hand_t h)
{
    msgpack_pack_array(pk, (size_t)hand_count(h));
    for (; h; h &= h - 1)
        pack_card(pk, hand_first(h));
}

static void pack_history(const struct game *g, const struct hilo_state *st,
                         msgpack_packer *pk)
{
    char name[GAME_NAME_MAX];
    msgpack_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_int(pk, st->hist[i][0]);
        hilo__action_name(g, st, st->hist[i][1], name, sizeof name);
        view_pack_str(pk, name);
    }
}

static void pack_table(const struct hilo_state *st, msgpack_packer *pk)
{
    view_pack_str(pk, "honors");
    view_pack_str(pk, trix_suit_name(st->honor));
    view_pack_str(pk, "turn_up");
    pack_card(pk, st->turnup);
    view_pack_str(pk, "trick");
    msgpack_pack_array(pk, st->ntrick);
    for (int i = 0; i < st->ntrick; i++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_int(pk, (st->leader + i) % st->n);
        pack_card(pk, st->trick[i]);
    }
    view_pack_str(pk, "leader");
    msgpack_pack_int(pk, st->leader);
}

static void pack_counts(const struct hilo_state *st, msgpack_packer *pk)
{
    int n = st->n, teams = st->partners ? 2 : n;
    view_pack_str(pk, "hand_sizes");
    msgpack_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        msgpack_pack_int(pk, hand_count(st->hand[s]));
    view_pack_str(pk, "game_points");
    view_pack_u8s(pk, st->gpts, n);
    view_pack_str(pk, "trixie_won_by");
    view_pack_seat(pk, st->trixie_winner);
    view_pack_str(pk, "scores");
    view_pack_u8s(pk, st->score, teams);
    view_pack_str(pk, "target");
    msgpack_pack_int(pk, st->target);
    view_pack_str(pk, "trixie_turned");
    msgpack_pack_int(pk, st->trixie_turned);
}

int hilo__view(const struct game *g, const void *vst, int seat,
               msgpack_packer *pk)
{
    const struct hilo_state *st = vst;
    view_pack_str(pk, "hand");
    pack_hand(pk, st->hand[seat]);
    view_pack_str(pk, "dealer");
    msgpack_pack_int(pk, st->dealer);
    pack_table(st, pk);
    pack_counts(st, pk);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phase_names[st->phase]);
    view_pack_str(pk, "deal");
    msgpack_pack_int(pk, st->deal_no + (st->phase != HILO_PH_OVER));
    view_pack_str(pk, "history");
    pack_history(g, st, pk);
    /* Side that took each point of the last finished deal. */
    view_pack_str(pk, "last_deal");
    msgpack_pack_map(pk, HILO_NPOINTS);
    for (int i = 0; i < HILO_NPOINTS; i++) {
        view_pack_str(pk, point_names[i]);
        view_pack_seat(pk, st->last[i]);
    }
    return 0;
}

/* ==== API: determinization ============================================= */

/* Where hidden cards may go: one bin per other seat, one for the stock. */
struct bins {
    int nb;                      /* bins in use */
    hand_t allow[HILO_MAXP + 1]; /* cards each bin may take */
    hand_t got[HILO_MAXP + 1];   /* cards placed */
    int room[HILO_MAXP + 1];     /* places left */
};

/* Places c, moving placed cards along an augmenting path if needed
 * (Kuhn's matching); visited marks bins tried on this path. */
static bool bins_place(struct bins *b, int c, unsigned *visited, int start)
{
    for (int k = 0; k < b->nb; k++) {
        int i = (start + k) % b->nb;
        if (!hand_has(b->allow[i], c) || ((*visited >> i) & 1))
            continue;
        *visited |= 1u << i;
        if (b->room[i] > 0) {
            b->got[i] |= card_bit(c);
            b->room[i]--;
            return true;
        }
        for (hand_t h = b->got[i]; h; h &= h - 1) {
            int d = hand_first(h);
            if (bins_place(b, d, visited, start)) {
                b->got[i] = (b->got[i] & ~card_bit(d)) | card_bit(c);
                return true;
            }
        }
    }
    return false;
}

/* Puts the pool's cards into bins, each first tried in a bin drawn in
 * proportion to its free places, as a random deal would. */
static void bins_fill(struct bins *b, hand_t pool, struct rng *rng)
{
    uint8_t cards[HILO_CARDS];
    int n = 0, left = hand_count(pool);
    for (; pool; pool &= pool - 1)
        cards[n++] = (uint8_t)hand_first(pool);
    rng_shuffle_u8(rng, cards, n);
    for (int k = 0; k < n; k++, left--) {
        int x = (int)rng_below(rng, (uint32_t)left), i = 0;
        while (x >= b->room[i])
            x -= b->room[i++];
        unsigned visited = 0;
        bins_place(b, cards[k], &visited, i); /* the true deal is a way */
    }
}

void hilo__determinize(const struct game *g, void *vst, int seat,
                       struct rng *rng)
{
    (void)g;
    struct hilo_state *st = vst;
    hand_t seen = st->hand[seat] | card_bit(st->turnup);
    for (int s = 0; s < st->n; s++)
        seen |= st->played[s];
    struct bins b;
    memset(&b, 0, sizeof b);
    int seats[HILO_MAXP];
    for (int s = 0; s < st->n; s++) {
        if (s == seat)
            continue;
        seats[b.nb] = s;
        b.allow[b.nb] = HILO_ALL & ~st->cant[s];
        b.room[b.nb++] = hand_count(st->hand[s]);
    }
    b.allow[b.nb] = HILO_ALL;
    b.room[b.nb++] = HILO_CARDS - st->deck_pos;
    bins_fill(&b, HILO_ALL & ~seen, rng);
    for (int i = 0; i + 1 < b.nb; i++)
        st->hand[seats[i]] = b.got[i];
    /* The deck stays a permutation: the stock last, the turn-up just
     * before it (a refused turn-up is put back from there), the rest
     * first. */
    hand_t stock = b.got[b.nb - 1], up = card_bit(st->turnup);
    int lo = 0, hi = st->deck_pos;
    for (int c = 0; c < HILO_CARDS; c++)
        if (!hand_has(up, c))
            st->deck[hand_has(stock, c) ? hi++ : lo++] = (uint8_t)c;
    st->deck[lo] = st->turnup;
    st->deck_fixed = 0; /* the stock is drawn at random from now on */
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== API: text ======================================================== */

/* Appends printf-style text to buf (len bytes), advancing *used; output
 * past the end is dropped but still counted, like snprintf. */
static void describe_hand(hand_t h, char *buf, size_t len)
{
    size_t used = 0;
    char c[TRIX_NAME_MAX];
    buf[0] = 0;
    for (; h; h &= h - 1) {
        local_name(hand_first(h), c, sizeof c);
        text_appendf(buf, len, &used, "%s%s", used ? " " : "", c);
    }
}

int hilo__describe(const struct game *g, const void *vst, int seat, char *buf,
                   size_t len)
{
    (void)g;
    const struct hilo_state *st = vst;
    char h[160], c[TRIX_NAME_MAX];
    size_t used = 0;
    local_name(st->turnup, c, sizeof c);
    text_appendf(buf, len, &used, "Hilo deal %d, turn-up %s, honors %s, %s\n",
                 st->deal_no + 1, c, trix_suit_name(st->honor),
                 phase_names[st->phase]);
    for (int s = 0; s < st->n; s++) {
        if (seat < 0 || seat == s)
            describe_hand(st->hand[s], h, sizeof h);
        else
            snprintf(h, sizeof h, "%d cards", hand_count(st->hand[s]));
        text_appendf(buf, len, &used,
                     "seat %d%s: %s | game points %d | side %d "
                     "has %d%s\n",
                     s, s == st->dealer ? " (dealer)" : "", h, st->gpts[s],
                     hilo_side(st, s), st->score[hilo_side(st, s)],
                     st->phase != HILO_PH_OVER && s == st->turn ? "  <- to act"
                                                                : "");
    }
    text_appendf(buf, len, &used, "set:");
    for (int i = 0; i < st->ntrick; i++) {
        local_name(st->trick[i], c, sizeof c);
        text_appendf(buf, len, &used, " %d:%s", (st->leader + i) % st->n, c);
    }
    text_appendf(buf, len, &used, "\n");
    return (int)(used < len ? used : len - 1);
}
