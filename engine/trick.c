/* trick.c — the shared steps of the Trix-pack trick games (see trick.h):
 * view helpers, the Forty-two core and the Hilo/Magna honor set and card
 * bins. Nothing here allocates; every function works on caller storage.
 */
#include "trick.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "view.h"

/* ==== seats =========================================================== */

void trick_dims(struct game_dims *d, int n, bool sides)
{
    d->players = n;
    d->teams = sides ? 2 : n;
    for (int s = 0; s < n; s++)
        d->team[s] = (int8_t)(sides ? s % 2 : s);
    d->obs_low = 0;
    d->obs_high = 1;
    d->ret_low = -1;
    d->ret_high = 1;
}

int trick_check_sides(int n, bool sides, char *err, size_t errlen)
{
    if (sides && n != 4 && n != 6 && n != 8) {
        snprintf(err, errlen, "sides needs players = 4, 6 or 8 (got %d)", n);
        return ERR_INVAL;
    }
    return 0;
}

/* ==== views ============================================================ */

void trick_pack_trix_card(msgpack_packer *pk, int c)
{
    view_pack_name8(pk, trix_card_text(c));
}

void trick_pack_set(msgpack_packer *pk, const uint8_t *trick, int ntrick,
                    int leader, int n)
{
    view_pack_array(pk, (size_t)ntrick);
    for (int i = 0; i < ntrick; i++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, (leader + i) % n);
        trick_pack_trix_card(pk, trick[i]);
    }
}

void trick_describe_set(const uint8_t *trick, int ntrick, int leader, int n,
                        char *buf, size_t len, size_t *k)
{
    char card[TRIX_NAME_MAX];
    for (int i = 0; i < ntrick; i++) {
        trix_card_name(trick[i], card, sizeof card);
        text_appendf(buf, len, k, " %d:%s", (leader + i) % n, card);
    }
}

void trick_pack_history(const struct game *g, const void *st,
                        const uint8_t (*hist)[2], int n, msgpack_packer *pk)
{
    char name[GAME_NAME_MAX];
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        int k = g->def->action_name(g, st, hist[i][1], name, sizeof name);
        /* The returned length, when the name was not cut, saves a strlen. */
        if (k >= 0 && k < (int)sizeof name)
            view_pack_entryn(pk, hist[i][0], name, (size_t)k);
        else
            view_pack_entry(pk, hist[i][0], name);
    }
}

/* ==== the Forty-two core =============================================== */

const struct card_codec f42_cards = {
    .ncards = F42_CARDS,
    .max_copies = 1,
    .name = trix_card_name,
    .parse = trix_card_parse,
};

int f42_deal(struct f42_core *c, const uint8_t *pre, int npre)
{
    uint8_t deck[F42_CARDS];
    int rc = deck_build(deck, F42_CARDS, pre, npre, &c->rng);
    if (rc)
        return rc;
    memset(c->hand, 0, sizeof c->hand);
    memset(c->lacks, 0, sizeof c->lacks);
    memset(c->taken, 0, sizeof c->taken);
    for (int i = 0; i < F42_CARDS; i++)
        c->hand[(c->dealer + 1 + i) % F42_NP] |= 1u << deck[i];
    c->played = 0;
    c->turn = (uint8_t)((c->dealer + 1) % F42_NP);
    c->ntrick = c->sets = c->nhist = 0;
    return 0;
}

void f42_record(struct f42_core *c, int a)
{
    c->hist[c->nhist][0] = c->turn;
    c->hist[c->nhist++][1] = (uint8_t)a;
}

bool f42_place(struct f42_core *c, int x)
{
    c->hand[c->turn] &= ~(1u << x);
    c->trick[c->ntrick++] = (uint8_t)x;
    if (c->ntrick == F42_NP)
        return true;
    c->turn = (uint8_t)((c->turn + 1) % F42_NP);
    return false;
}

bool f42_close_set(struct f42_core *c, int best)
{
    int pts = 1;
    for (int i = 0; i < F42_NP; i++) {
        pts += trix_points(c->trick[i]);
        c->played |= 1u << c->trick[i];
    }
    int w = (c->leader + best) % F42_NP;
    c->taken[f42_side(w)] = (uint8_t)(c->taken[f42_side(w)] + pts);
    c->leader = c->turn = (uint8_t)w;
    c->ntrick = 0;
    return ++c->sets == F42_SETS;
}

void f42_observe_cards(const struct f42_core *c, int seat, float *out)
{
    trick_put_bits(out, c->hand[seat]);
    trick_put_bits(out + F42_CARDS, c->played);
    for (int i = 0; i < c->ntrick; i++) {
        int r = trick_rel((c->leader + i) % F42_NP, seat, F42_NP);
        out[2 * F42_CARDS + r * F42_CARDS + c->trick[i]] = 1;
    }
}

void f42_pack_hand(msgpack_packer *pk, uint32_t h)
{
    view_pack_array(pk, (size_t)__builtin_popcount(h));
    for (; h; h &= h - 1)
        trick_pack_trix_card(pk, __builtin_ctz(h));
}

void f42_pack_play(const struct game *g, const struct f42_core *c, int leader,
                   msgpack_packer *pk)
{
    view_pack_str(pk, "trick");
    trick_pack_set(pk, c->trick, c->ntrick, c->leader, F42_NP);
    view_pack_str(pk, "leader");
    view_pack_seat(pk, leader);
    view_pack_str(pk, "taken");
    view_pack_u8s(pk, c->taken, 2);
    view_pack_str(pk, "scores");
    view_pack_array(pk, 2);
    view_pack_int(pk, c->score[0]);
    view_pack_int(pk, c->score[1]);
    view_pack_str(pk, "hand_sizes");
    view_pack_array(pk, F42_NP);
    for (int s = 0; s < F42_NP; s++)
        view_pack_int(pk, __builtin_popcount(c->hand[s]));
    view_pack_str(pk, "history");
    trick_pack_history(g, c, (const uint8_t(*)[2])c->hist, c->nhist, pk);
}

void f42_describe_scores(const struct f42_core *c, char *buf, size_t len,
                         size_t *k)
{
    text_appendf(buf, len, k, "Scores: side 0+2 %d, side 1+3 %d. Dealer %d.\n",
                 c->score[0], c->score[1], c->dealer);
}

void f42_describe_hands(const struct f42_core *c, int seat, char *buf,
                        size_t len, size_t *k)
{
    char cards[160];
    for (int s = 0; s < F42_NP; s++) {
        if (seat >= 0 && s != seat)
            continue;
        trix_hand_t h = {c->hand[s], 0};
        trix_hand_format(h, cards, sizeof cards);
        text_appendf(buf, len, k, "Seat %d holds: %s\n", s, cards);
    }
}

void f42_describe_set(const struct f42_core *c, bool over, char *buf,
                      size_t len, size_t *k)
{
    text_appendf(buf, len, k, ":");
    trick_describe_set(c->trick, c->ntrick, c->leader, F42_NP, buf, len, k);
    text_appendf(buf, len, k, "\nTaken this hand: %d / %d. ", c->taken[0],
                 c->taken[1]);
    if (over)
        text_appendf(buf, len, k, "Game over.\n");
    else
        text_appendf(buf, len, k, "Seat %d to act.\n", c->turn);
}

/* ==== the honor set of Hilo and Magna ================================== */

int ft_deck_start(uint8_t *deck, const uint8_t *pre, int npre)
{
    hand_t seen = 0;
    for (int i = 0; i < npre; i++) {
        int c = ft_local(pre[i]);
        if (c < 0 || hand_has(seen, c))
            return ERR_INVAL;
        seen |= card_bit(c);
        deck[i] = (uint8_t)c;
    }
    int k = npre;
    for (int c = 0; c < FT_CARDS; c++)
        if (!hand_has(seen, c))
            deck[k++] = (uint8_t)c;
    return 0;
}

/* Rank of c in the current set: honors by sum above Trixie, above the
 * suit led by sum; anything else cannot win. */
static int ft_key(const struct ft_table *t, int c)
{
    if (c == FT_TRIXIE)
        return 40;
    int s = ft_suit(c);
    if (s == t->honor)
        return 64 + ft_sum(c);
    return s == t->lead_suit ? ft_sum(c) : 0;
}

bool ft_play(struct ft_table *t, int c)
{
    int s = t->turn;
    hand_t hon = ft_suit_mask(t->honor);
    if (t->ntrick == 0) {
        t->lead_suit = (int8_t)ft_suit(c);
        t->best = 0;
        t->best_key = (uint8_t)ft_key(t, c);
    } else {
        hand_t suit = t->lead_suit >= 0 ? ft_suit_mask(t->lead_suit) : 0;
        if (!hand_has(suit | hon, c))
            t->cant[s] |= suit; /* void in the suit led */
        int key = ft_key(t, c);
        if (key > t->best_key) {
            t->best = t->ntrick;
            t->best_key = (uint8_t)key;
        }
    }
    if (c == FT_TRIXIE)
        t->cant[s] |= hon; /* Trixie is played only without an honor */
    t->hand[s] &= ~card_bit(c);
    t->played[s] |= card_bit(c);
    t->table |= card_bit(c);
    t->trick[t->ntrick++] = (uint8_t)c;
    if (t->ntrick == t->n)
        return true;
    t->turn = (uint8_t)trick_next(s, t->n);
    return false;
}

int ft_card_name(int c, char *buf, size_t len)
{
    return trix_card_name(ft_trix_id(c), buf, len);
}

void ft_pack_card(msgpack_packer *pk, int c)
{
    view_pack_name8(pk, trix_card_text(ft_trix_id(c)));
}

void ft_pack_hand(msgpack_packer *pk, hand_t h)
{
    view_pack_array(pk, (size_t)hand_count(h));
    for (; h; h &= h - 1)
        ft_pack_card(pk, hand_first(h));
}

void ft_pack_trick(const struct ft_table *t, msgpack_packer *pk)
{
    view_pack_str(pk, "trick");
    view_pack_array(pk, t->ntrick);
    for (int i = 0; i < t->ntrick; i++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, (t->leader + i) % t->n);
        ft_pack_card(pk, t->trick[i]);
    }
    view_pack_str(pk, "leader");
    view_pack_int(pk, t->leader);
}

void ft_describe_hand(hand_t h, char *buf, size_t len)
{
    size_t used = 0;
    char c[TRIX_NAME_MAX];
    buf[0] = 0;
    for (; h; h &= h - 1) {
        ft_card_name(hand_first(h), c, sizeof c);
        text_appendf(buf, len, &used, "%s%s", used ? " " : "", c);
    }
}

void ft_describe_set(const struct ft_table *t, char *buf, size_t len,
                     size_t *used)
{
    char c[TRIX_NAME_MAX];
    text_appendf(buf, len, used, "set:");
    for (int i = 0; i < t->ntrick; i++) {
        ft_card_name(t->trick[i], c, sizeof c);
        text_appendf(buf, len, used, " %d:%s", (t->leader + i) % t->n, c);
    }
    text_appendf(buf, len, used, "\n");
}

void trick_estimate(const struct game *g, const int32_t *score, double target,
                    double *out)
{
    double pts[GAME_MAX_PLAYERS];
    for (int t = 0; t < g->dims.teams; t++)
        pts[t] = trick_side_score(g, score, t);
    game_estimate_lead(g, pts, target, out);
}
