/* bi_jinx_view.c — what a Bi-Jinx seat sees (tensor, structured view,
 * action names, text), the pack's names, and the determinization of what
 * it does not see. Rules and decisions: the header comment of bi_jinx.c.
 *
 * Hidden from a seat: the other hands, the cards still to be dealt, the
 * other players' discards and the rest of the Inn (all of the Inn to all
 * but its heir, also during the haggle). Public: every card played, each
 * seat's tricks, who inherited the Inn, who haggles over Bi and Jinx, the
 * proposals and the ledger.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../trick.h"
#include "../view.h"
#include "bi_jinx.h"

#define RETRIES 32 /* redeals tried to honour the forced discards */

const char *const bi_jinx__view_keys[] = {
    "hand",   "discard", "phase",  "dealer", "trick",   "tricks",
    "taken",  "inn",     "heir",   "hand_sizes", "haggle", "ret",
    "ded",    "ledger",  "hand_no", "history", NULL};

static const char *const phase_names[BJ_NPHASES] = {"discard", "play",
                                                    "haggle", "over"};
static const char *const case_names[BJ_NCASES] = {
    "plain", "bi-jinx wipe", "big four", "inn bi-jinx", "bi-jinx",
    "one",   "sold",         "bought"};
/* NUL-padded to 8 bytes: the view packs and copies them at a fixed size
 * (view_pack_name8, view_cat8). */
static const char face_names[BJ_FACES][8] = {"Bi", "Jinx", "0", "00", "1",
                                              "2",  "3",    "4", "5"};

/* ==== the pack's names ================================================= */

static int face_name(int f, char *buf, size_t len)
{
    return snprintf(buf, len, "%s", f >= 0 && f < BJ_FACES ? face_names[f]
                                                           : "?");
}

/* Parses "Bi", "Jinx", "00", "0", "1".."5" (any case). */
static int face_parse(const char *s, const char **end)
{
    static const char *const order[] = {"jinx", "bi", "00", "0",  "1",
                                        "2",    "3",  "4",  "5"};
    static const uint8_t faces[] = {F_JINX, F_BI,  F_DZERO, F_ZERO, F_ONE,
                                    F_TWO,  F_THREE, F_FOUR, F_FIVE};
    for (int i = 0; i < BJ_FACES; i++) {
        size_t k = strlen(order[i]), j = 0;
        while (j < k && tolower((unsigned char)s[j]) == order[i][j])
            j++;
        if (j == k) {
            *end = s + k;
            return faces[i];
        }
    }
    *end = s;
    return -1;
}

const struct card_codec bi_jinx__cards = {BJ_FACES, 10, face_name,
                                          face_parse};

/* ==== API: observation ================================================= */

/* Offsets of the tensor's segments for n players. */
struct layout {
    int hand, disc, trick, taken, played, inn, heir, dealer, turn, phase;
    int tricks, hand_no, bi, jinx, offer_by, offer, ret, ded, size;
};

static inline struct layout layout_of(int n)
{
    struct layout l;
    l.hand = 0;
    l.disc = l.hand + BJ_FACES;
    l.trick = l.disc + BJ_FACES;
    l.taken = l.trick + n * BJ_FACES;
    l.played = l.taken + n * BJ_FACES;
    l.inn = l.played + n * BJ_FACES;
    l.heir = l.inn + BJ_FACES;
    l.dealer = l.heir + n;
    l.turn = l.dealer + n;
    l.phase = l.turn + n;
    l.tricks = l.phase + BJ_NPHASES;
    l.hand_no = l.tricks + 1;
    l.bi = l.hand_no + 1;
    l.jinx = l.bi + n;
    l.offer_by = l.jinx + n;
    l.offer = l.offer_by + n;
    l.ret = l.offer + 4;
    l.ded = l.ret + n;
    l.size = l.ded + n;
    return l;
}

int bi_jinx__obs_size(int n)
{
    return layout_of(n).size;
}

/* Counts of h's faces / 10 into out[0..9). The faces are runs of card
 * ids (enum bj_card): the four specials alone, six 1s, then ten of each
 * of 2..5, so each count is one shift, mask and popcount. */
static inline void put_faces(float *out, hand_t h)
{
    /* k / 10 for the ten copies a face has at most, folded at compile time
     * to the floats the division gives: a row costs no division. */
    static const float tenth[11] = {0 / 10.0f, 1 / 10.0f, 2 / 10.0f,
                                    3 / 10.0f, 4 / 10.0f, 5 / 10.0f,
                                    6 / 10.0f, 7 / 10.0f, 8 / 10.0f,
                                    9 / 10.0f, 10 / 10.0f};
    /* The four specials as tenths of their one copy, from a 4-bit key. */
#define BJ_NIB(b)                                                         \
    {(b) & 1 ? 1 / 10.0f : 0, (b) & 2 ? 1 / 10.0f : 0,                    \
     (b) & 4 ? 1 / 10.0f : 0, (b) & 8 ? 1 / 10.0f : 0}
    static const float specials[16][4] = {
        BJ_NIB(0),  BJ_NIB(1),  BJ_NIB(2),  BJ_NIB(3), BJ_NIB(4),  BJ_NIB(5),
        BJ_NIB(6),  BJ_NIB(7),  BJ_NIB(8),  BJ_NIB(9), BJ_NIB(10), BJ_NIB(11),
        BJ_NIB(12), BJ_NIB(13), BJ_NIB(14), BJ_NIB(15)};
#undef BJ_NIB
    memcpy(out + F_BI, specials[h & 15], sizeof specials[0]);
    out[F_ONE] = tenth[hand_count(h >> 4 & 0x3f)];
    out[F_TWO] = tenth[hand_count(h >> 10 & 0x3ff)];
    out[F_THREE] = tenth[hand_count(h >> 20 & 0x3ff)];
    out[F_FOUR] = tenth[hand_count(h >> 30 & 0x3ff)];
    out[F_FIVE] = tenth[hand_count(h >> 40 & 0x3ff)];
}

void bi_jinx__put_faces(float *out, hand_t h)
{
    put_faces(out, h);
}

/* One-hot of seat s relative to seat (nothing for no seat). */
static void put_seat(float *out, int s, int seat, int n)
{
    if (s < n)
        out[trick_rel(s, seat, n)] = 1;
}

static void observe_offer(const struct bi_jinx_state *st, int seat,
                          const struct layout *l, float *out)
{
    int n = st->cfg.n;
    if (st->phase != PH_TRADE)
        return;
    put_seat(out + l->bi, st->bi_seat, seat, n);
    put_seat(out + l->jinx, st->jinx_seat, seat, n);
    out[l->offer + 2] = (float)st->offers / st->cfg.offers;
    out[l->offer + 3] = st->offer_open;
    if (st->offer_by == BJ_NO_SEAT)
        return;
    put_seat(out + l->offer_by, st->offer_by, seat, n);
    out[l->offer] = st->offer_sell;
    out[l->offer + 1] =
        st->cfg.cap ? (float)st->offer_price / st->cfg.cap : 0;
}

void bi_jinx__observe(const struct game *g, const void *vst, int seat,
                      float *out)
{
    const struct bi_jinx_state *st = bj_cst(vst);
    int n = st->cfg.n;
    struct layout l = layout_of(n);
    memset(out, 0, (size_t)g->dims.obs_size * sizeof *out);
    put_faces(out + l.hand, st->hand[seat]);
    if (st->disc[seat] != NO_CARD)
        out[l.disc + bi_jinx__face[st->disc[seat]]] = 1;
    for (int i = 0, s = st->dealer; i < st->ntrick;
         i++, s = s + 1 == n ? 0 : s + 1) {
        int r = trick_rel(s, seat, n);
        out[l.trick + r * BJ_FACES + bi_jinx__face[st->trick[i]]] = 1;
    }
    for (int s = 0; s < n; s++) {
        int r = trick_rel(s, seat, n);
        /* The rows the state keeps (apply writes them once a change). */
        memcpy(out + l.taken + r * BJ_FACES, st->taken_f[s],
               sizeof st->taken_f[s]);
        memcpy(out + l.played + r * BJ_FACES, st->played_f[s],
               sizeof st->played_f[s]);
        out[l.ret + r] = st->sq_ret[s];
        out[l.ded + r] = st->sq_ded[s];
    }
    if (seat == st->heir)
        put_faces(out + l.inn, st->inn);
    put_seat(out + l.heir, st->heir, seat, n);
    put_seat(out + l.dealer, st->dealer, seat, n);
    if (st->phase != PH_OVER)
        put_seat(out + l.turn, st->turn, seat, n);
    out[l.phase + st->phase] = 1;
    out[l.tricks] = (float)st->tricks / BJ_TRICKS;
    out[l.hand_no] = (float)st->hand_no / st->cfg.hands;
    observe_offer(st, seat, &l, out);
}

int bi_jinx__obs_layout(const struct game *g, struct obs_segment *out,
                        int max)
{
    int n = g->dims.players, f = BJ_FACES;
    struct layout l = layout_of(n);
    const struct obs_segment seg[] = {
        {"hand", l.hand, f,
         "own cards: count of each face / 10 (Bi, Jinx, 0, 00, 1..5)"},
        {"discard", l.disc, f, "own discard to the Inn, one-hot face"},
        {"trick", l.trick, n * f,
         "current trick: face played by each seat, self first"},
        {"taken", l.taken, n * f,
         "cards won in tricks this hand, face counts / 10, self first"},
        {"played", l.played, n * f,
         "cards each seat played this hand, face counts / 10, self first"},
        {"inn", l.inn, f, "the Inn's face counts / 10, to its heir only"},
        {"heir", l.heir, n, "seat that inherited the Inn, self first"},
        {"dealer", l.dealer, n, "dealer (leads every trick), self first"},
        {"turn", l.turn, n, "seat to act, self first"},
        {"phase", l.phase, BJ_NPHASES, "discard, play, haggle, over"},
        {"tricks", l.tricks, 1, "tricks finished this hand / 8"},
        {"hand_no", l.hand_no, 1, "hands finished / hands"},
        {"bi", l.bi, n, "haggle: possessor of Bi, self first"},
        {"jinx", l.jinx, n, "haggle: possessor of Jinx, self first"},
        {"offer_by", l.offer_by, n, "haggle: seat of the standing proposal"},
        {"offer", l.offer, 4,
         "haggle: it sells (1) or buys (0), price / cap, proposals / most, "
         "tens still to name (1)"},
        {"ret", l.ret, n, "RET total v as v / (v + 1000), self first"},
        {"ded", l.ded, n, "DED total v as v / (v + 1000), self first"},
    };
    return obs_layout_copy(out, max, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* ==== API: names and views ============================================= */

int bi_jinx__action_name(const struct game *g, const void *vst, int a,
                         char *buf, size_t len)
{
    (void)g;
    const struct bi_jinx_state *st = bj_cst(vst);
    int nh = st->cfg.nhundreds;
    if (a < A_PLAY)
        return snprintf(buf, len, "discard %s", face_names[a]);
    if (a < A_REFUSE)
        return snprintf(buf, len, "play %s", face_names[a - A_PLAY]);
    if (a == A_REFUSE)
        return snprintf(buf, len, "refuse");
    if (a == A_ACCEPT)
        return snprintf(buf, len, "accept");
    if (a < A_BUY)
        return snprintf(buf, len, "+%d", (a - A_TENS) * BJ_STEP);
    a -= A_BUY;
    return snprintf(buf, len, "%s %d+", a < nh ? "buy" : "sell",
                    (a % nh) * BJ_HUNDRED);
}

/* Packs h as face names in id order. */
static void pack_cards(msgpack_packer *pk, hand_t h)
{
    view_pack_array(pk, (size_t)hand_count(h));
    for (; h; h &= h - 1)
        view_pack_name8(pk, face_names[bi_jinx__face[hand_first(h)]]);
}

static void pack_i32s(msgpack_packer *pk, const int32_t *v, int n)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        view_pack_int(pk, v[i]);
}

static void pack_haggle(const struct bi_jinx_state *st, msgpack_packer *pk)
{
    if (st->phase != PH_TRADE) {
        view_pack_nil(pk);
        return;
    }
    view_pack_map(pk, 4);
    view_pack_str(pk, "bi");
    view_pack_int(pk, st->bi_seat);
    view_pack_str(pk, "jinx");
    view_pack_int(pk, st->jinx_seat);
    view_pack_str(pk, "proposals");
    view_pack_int(pk, st->offers);
    view_pack_str(pk, "offer");
    if (st->offer_by == BJ_NO_SEAT) {
        view_pack_nil(pk);
        return;
    }
    view_pack_array(pk, 4);
    view_pack_int(pk, st->offer_by);
    view_pack_str(pk, st->offer_sell ? "sell" : "buy");
    view_pack_int(pk, st->offer_price);
    if (st->offer_open)
        view_pack_bool(pk, 0);
    else
        view_pack_bool(pk, 1);
}

/* Per seat, the ledger lines so far as [ret, ded, raw points, case]. */
static void pack_ledger(const struct bi_jinx_state *st, msgpack_packer *pk)
{
    view_pack_array(pk, st->cfg.n);
    for (int s = 0; s < st->cfg.n; s++) {
        view_pack_array(pk, st->hand_no);
        for (int h = 0; h < st->hand_no; h++) {
            const struct bj_entry *e = &st->led[h][s];
            view_pack_array(pk, 4);
            view_pack_int(pk, e->ret);
            view_pack_int(pk, e->ded);
            view_pack_int(pk, e->raw);
            view_pack_str(pk, case_names[e->kind]);
        }
    }
}

/* Writes action a's name at p (as bi_jinx__action_name, without a
 * formatter: the history names every action in each view); returns the
 * end. */
static char *cat_action(char *p, const struct bi_jinx_state *st, int a)
{
    int nh = st->cfg.nhundreds;
    if (a < A_PLAY)
        return view_cat8(view_cat(p, "discard "), face_names[a]);
    if (a < A_REFUSE)
        return view_cat8(view_cat(p, "play "), face_names[a - A_PLAY]);
    if (a == A_REFUSE)
        return view_cat(p, "refuse");
    if (a == A_ACCEPT)
        return view_cat(p, "accept");
    if (a < A_BUY)
        return view_cat_num(view_cat(p, "+"), (a - A_TENS) * BJ_STEP);
    a -= A_BUY;
    p = view_cat(p, a < nh ? "buy " : "sell ");
    return view_cat(view_cat_num(p, (a % nh) * BJ_HUNDRED), "+");
}

/* This hand's actions; another seat's discard is named only "discard". */
static void pack_history(const struct bi_jinx_state *st, int seat,
                         msgpack_packer *pk)
{
    char name[GAME_NAME_MAX];
    view_pack_array(pk, st->nhist);
    for (int i = 0; i < st->nhist; i++) {
        int s = st->hist_seat[i], a = st->hist_act[i];
        char *end = a < A_PLAY && s != seat ? view_cat(name, "discard")
                                            : cat_action(name, st, a);
        view_pack_entryn(pk, s, name, (size_t)(end - name));
    }
}

int bi_jinx__view(const struct game *g, const void *vst, int seat,
                  msgpack_packer *pk)
{
    (void)g;
    const struct bi_jinx_state *st = bj_cst(vst);
    int n = st->cfg.n;
    view_pack_str(pk, "hand");
    pack_cards(pk, st->hand[seat]);
    view_pack_str(pk, "discard");
    if (st->disc[seat] == NO_CARD)
        view_pack_nil(pk);
    else
        view_pack_name8(pk, face_names[bi_jinx__face[st->disc[seat]]]);
    view_pack_str(pk, "phase");
    view_pack_str(pk, phase_names[st->phase]);
    view_pack_str(pk, "dealer");
    view_pack_int(pk, st->dealer);
    view_pack_str(pk, "trick");
    view_pack_array(pk, st->ntrick);
    for (int i = 0; i < st->ntrick; i++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, (st->dealer + i) % n);
        view_pack_name8(pk, face_names[bi_jinx__face[st->trick[i]]]);
    }
    view_pack_str(pk, "tricks");
    view_pack_int(pk, st->tricks);
    view_pack_str(pk, "taken");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        pack_cards(pk, st->taken[s]);
    view_pack_str(pk, "inn");
    if (seat == st->heir)
        pack_cards(pk, st->inn);
    else
        view_pack_nil(pk);
    view_pack_str(pk, "heir");
    view_pack_seat(pk, st->heir);
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, (size_t)n);
    for (int s = 0; s < n; s++)
        view_pack_int(pk, hand_count(st->hand[s]));
    view_pack_str(pk, "haggle");
    pack_haggle(st, pk);
    view_pack_str(pk, "ret");
    pack_i32s(pk, st->ret, n);
    view_pack_str(pk, "ded");
    pack_i32s(pk, st->ded, n);
    view_pack_str(pk, "ledger");
    pack_ledger(st, pk);
    view_pack_str(pk, "hand_no");
    view_pack_int(pk, st->hand_no);
    view_pack_str(pk, "history");
    pack_history(st, seat, pk);
    return 0;
}

/* ==== API: determinization ============================================= */

/* Whether every seat but seat could have made its discard: its kept
 * cards include two no higher than the discard (its first three). */
static bool discards_fit(const struct bi_jinx_state *st, int seat)
{
    for (int s = 0; s < st->cfg.n; s++) {
        if (s == seat || st->disc[s] == NO_CARD)
            continue;
        int v = bi_jinx__points[bi_jinx__face[st->disc[s]]], low = 0;
        for (hand_t h = st->hand[s] | st->played[s]; h; h &= h - 1)
            low += bi_jinx__points[bi_jinx__face[hand_first(h)]] <= v;
        if (low < 2)
            return false;
    }
    return true;
}

/* Where each bin's cards go back: a field of the state, or a discard
 * slot (whose card also lies in the Inn). */
struct slots {
    hand_t *where[3 * BJ_MAXP + 2]; /* the field for each bin, or NULL */
    uint8_t *disc_of[3 * BJ_MAXP + 2]; /* the discard slot, or NULL */
};

static void add_bin(struct card_bins *b, struct slots *sl, hand_t *where,
                    uint8_t *disc, hand_t have, hand_t allow)
{
    if (!have)
        return;
    sl->where[b->nb] = where;
    sl->disc_of[b->nb] = disc;
    b->allow[b->nb] = allow;
    b->room[b->nb++] = hand_count(have);
}

/* Cards a bin of seat s (the heir for the Inn's bins) may take: in the
 * haggle Bi and Jinx are known to lie with their possessors. */
static hand_t allowed(const struct bi_jinx_state *st, int s)
{
    hand_t a = ~(hand_t)0;
    if (st->phase != PH_TRADE)
        return a;
    if (st->bi_seat != s)
        a &= ~card_bit(BJ_BI);
    if (st->jinx_seat != s)
        a &= ~card_bit(BJ_JINX);
    return a;
}

/* Fills the bins of what seat cannot see; returns the pool. */
static hand_t make_bins(struct bi_jinx_state *st, int seat,
                        struct card_bins *b, struct slots *sl)
{
    hand_t pool = st->pend_inn, discs = 0;
    bool inn_open = seat == st->heir;
    memset(b, 0, sizeof *b);
    for (int s = 0; s < st->cfg.n; s++)
        if (st->disc[s] != NO_CARD)
            discs |= card_bit(st->disc[s]);
    for (int s = 0; s < st->cfg.n; s++) {
        add_bin(b, sl, &st->pend[s], NULL, st->pend[s], allowed(st, -1));
        pool |= st->pend[s];
        if (s == seat)
            continue;
        add_bin(b, sl, &st->hand[s], NULL, st->hand[s], allowed(st, s));
        pool |= st->hand[s];
        if (!inn_open && st->disc[s] != NO_CARD)
            add_bin(b, sl, NULL, &st->disc[s], card_bit(st->disc[s]),
                    allowed(st, st->heir));
    }
    add_bin(b, sl, &st->pend_inn, NULL, st->pend_inn, allowed(st, -1));
    if (!inn_open) {
        hand_t own = st->disc[seat] != NO_CARD ? card_bit(st->disc[seat]) : 0;
        add_bin(b, sl, &st->inn, NULL, st->inn & ~discs,
                allowed(st, st->heir));
        pool |= st->inn & ~own;
    }
    return pool;
}

/* Takes the pool out of the state and puts each bin's cards back. */
static void place(struct bi_jinx_state *st, const struct card_bins *b,
                  const struct slots *sl, hand_t pool)
{
    for (int s = 0; s < st->cfg.n; s++) {
        st->hand[s] &= ~pool;
        st->pend[s] &= ~pool;
    }
    st->inn &= ~pool;
    st->pend_inn &= ~pool;
    for (int i = 0; i < b->nb; i++) {
        if (sl->where[i])
            *sl->where[i] |= b->got[i];
        if (sl->disc_of[i]) {
            *sl->disc_of[i] = (uint8_t)hand_first(b->got[i]);
            st->inn |= b->got[i];
        }
    }
}

void bi_jinx__determinize(const struct game *g, void *vst, int seat,
                          struct rng *rng)
{
    (void)g;
    struct bi_jinx_state *st = vst;
    struct bi_jinx_state work, *w = &work;
    struct card_bins b;
    struct slots sl;
    for (int t = 0; t < RETRIES; t++) {
        *w = *st;
        hand_t pool = make_bins(w, seat, &b, &sl);
        if (!card_bins_fill(&b, pool, rng))
            break; /* cannot happen: the true deal fits the bins */
        place(w, &b, &sl, pool);
        if (discards_fit(w, seat)) {
            *st = *w;
            break;
        }
    }
    st->ndeck = 0; /* later hands' given orders are not seat's to know */
    rng_seed(&st->rng, rng_next(rng));
}

/* ==== API: text ======================================================== */

static void describe_cards(hand_t h, char *buf, size_t len, size_t *k)
{
    for (; h; h &= h - 1)
        text_appendf(buf, len, k, " %s",
                     face_names[bi_jinx__face[hand_first(h)]]);
}

int bi_jinx__describe(const struct game *g, const void *vst, int seat,
                      char *buf, size_t len)
{
    (void)g;
    const struct bi_jinx_state *st = bj_cst(vst);
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    text_appendf(buf, len, &k, "Bi-Jinx hand %d of %d, dealer %d, %s, "
                 "tricks %d\n", st->hand_no + 1, st->cfg.hands, st->dealer,
                 phase_names[st->phase], st->tricks);
    for (int s = 0; s < st->cfg.n; s++) {
        text_appendf(buf, len, &k, "seat %d RET %d DED %d |", s, st->ret[s],
                     st->ded[s]);
        if (seat < 0 || seat == s)
            describe_cards(st->hand[s], buf, len, &k);
        else
            text_appendf(buf, len, &k, " %d card%s", hand_count(st->hand[s]),
                         text_s(hand_count(st->hand[s])));
        text_appendf(buf, len, &k, " | tricks:");
        describe_cards(st->taken[s], buf, len, &k);
        text_appendf(buf, len, &k, "\n");
    }
    text_appendf(buf, len, &k, "Inn:");
    if (seat < 0 || seat == st->heir)
        describe_cards(st->inn, buf, len, &k);
    else
        text_appendf(buf, len, &k, " %d card%s hidden",
                     hand_count(st->inn | st->pend_inn),
                     text_s(hand_count(st->inn | st->pend_inn)));
    text_appendf(buf, len, &k, "\nTrick:");
    for (int i = 0; i < st->ntrick; i++)
        text_appendf(buf, len, &k, " %d:%s", (st->dealer + i) % st->cfg.n,
                     face_names[bi_jinx__face[st->trick[i]]]);
    text_appendf(buf, len, &k, "\n");
    if (st->phase == PH_TRADE && st->offer_by != BJ_NO_SEAT)
        text_appendf(buf, len, &k, "Seat %d offers to %s for %d.\n",
                     st->offer_by, st->offer_sell ? "sell" : "buy",
                     st->offer_price);
    if (st->phase != PH_OVER)
        text_appendf(buf, len, &k, "Seat %d to act.\n", st->turn);
    return (int)k;
}
