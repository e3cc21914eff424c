/* casino_moves.c — Casino's combinatorial moves: which table items a card
 * may capture or build on, in a canonical order, and their readable names.
 *
 * Key idea: a capture or build is a union of disjoint "groups" of table
 * items, each group summing to the capturing number (RULES.md §7.4 G8).
 * Every subset of table items summing to at most 10 is listed once per
 * call; a block (one hand card, one kind) filters the subsets that may
 * serve as groups, enumerates the distinct unions of disjoint groups
 * (different partitions of one set of items are one move: only the items
 * taken matter), and keeps, of those that leave the player holding a
 * capturing card for every build he owns, the first CASINO_OPTS in the
 * block's order (most cards first). The rules themselves (what may form a
 * group) are explained in casino.c's header comment. Nothing here
 * allocates; work is bounded by the limits below, which random play never
 * came near (at most 153 subsets and 7946 union steps seen).
 */
#include "casino.h"

#include <stdio.h>
#include <string.h>

#define ITEMS_MAX 64   /* table items: at most 52 loose cards + 9 builds */
#define SUBS_MAX 1024  /* subsets of sum <= 10 examined per card */
#define NODES_MAX 50000 /* union search steps per block */
#define SUM_MAX 10      /* highest capturing number */

/* ==== types ============================================================ */

/* One table item: a loose numeral card or a whole build. */
struct item {
    uint64_t bit; /* its bit in an item mask */
    int value;    /* rank, or the build's announced value */
    int kind;     /* IT_LOOSE, IT_SINGLE or IT_MULTI */
};

enum { IT_LOOSE, IT_SINGLE, IT_MULTI };

/* A subset of items summing to at most 10, with what it holds. */
struct subset {
    uint64_t mask; /* the items */
    uint8_t sum;   /* their values added */
    uint8_t size;  /* number of items */
    uint8_t nsingle; /* single builds among them */
    uint8_t nmulti;  /* multiple builds among them */
};

/* The work of one call: the table's subsets, then one block at a time. */
struct search {
    const struct casino_state *st; /* the state searched */
    struct item it[ITEMS_MAX];   /* table items, ascending bit order */
    int nit;                     /* entries in it */
    struct subset sub[SUBS_MAX]; /* subsets with sum <= SUM_MAX */
    int nsub;                    /* entries in sub */
    uint64_t grp[SUBS_MAX];      /* groups usable beside the forced items */
    int ngrp;                    /* entries in grp */
    uint64_t own[SUBS_MAX];      /* table parts of the played card's group */
    int nown;                    /* entries in own */
    uint64_t cand[CASINO_OPTS];  /* the best legal unions found, in order */
    int weight[CASINO_OPTS];     /* their numbers of cards */
    int ncand;                   /* entries in cand */
    int nodes;                   /* union search steps taken */
    unsigned owned;              /* build values the player owns */
    unsigned ranks_after;        /* ranks held after playing the card */
    int build_value;             /* value announced, 0 for a capture */
};

/* ==== static helpers: items and subsets ================================ */

/* Lists the loose numeral cards and the builds of st as items. */
static void list_items(struct search *s)
{
    const struct casino_state *st = s->st;
    s->nit = 0;
    for (hand_t h = st->loose; h; h &= h - 1) {
        int c = hand_first(h);
        if (card_rank(c) <= SUM_MAX)
            s->it[s->nit++] = (struct item){card_bit(c), card_rank(c),
                                            IT_LOOSE};
    }
    for (int v = 2; v <= CASINO_VMAX; v++)
        if (st->build[v])
            s->it[s->nit++] = (struct item){
                casino_build_bit(v), v,
                casino__multiple(st, v) ? IT_MULTI : IT_SINGLE};
}

/* Records every subset of items from index i on, added to *cur. */
static void subsets_from(struct search *s, int i, struct subset cur)
{
    for (; i < s->nit && s->nsub < SUBS_MAX; i++) {
        const struct item *t = &s->it[i];
        if (cur.sum + t->value > SUM_MAX)
            continue;
        struct subset next = cur;
        next.mask |= t->bit;
        next.sum = (uint8_t)(next.sum + t->value);
        next.size++;
        next.nsingle = (uint8_t)(next.nsingle + (t->kind == IT_SINGLE));
        next.nmulti = (uint8_t)(next.nmulti + (t->kind == IT_MULTI));
        s->sub[s->nsub++] = next;
        subsets_from(s, i + 1, next);
    }
}

/* ==== static helpers: which subsets may be groups ======================= */

/* A group a capturing card of rank r may take: loose cards, the r-build
 * alone, or (G2 a) single builds counted as cards. */
static bool capture_group(const struct subset *u, int r,
                          const struct casino_rules *ru)
{
    if (u->sum != r)
        return false;
    if (!u->nsingle && !u->nmulti)
        return true;
    if (u->size == 1)
        return true; /* the build of value r itself */
    return ru->as_card && !u->nmulti;
}

/* The table part of the group holding the played card (sum v - r): loose
 * cards; one single build alone (raising it, way 1); that build with
 * loose cards (G2 b); single builds as cards (G2 a). */
static bool own_group(const struct subset *u, const struct casino_rules *ru)
{
    if (!u->nsingle && !u->nmulti)
        return true;
    if (u->nmulti)
        return false;
    if (ru->as_card)
        return true;
    return u->nsingle == 1 && (u->size == 1 || ru->raise_table);
}

/* Another group of a build of value v: loose cards, or single builds as
 * cards (G2 a). The v-build itself is forced in, not listed. */
static bool other_group(const struct subset *u, int v,
                        const struct casino_rules *ru)
{
    if (u->sum != v || u->nmulti)
        return false;
    return !u->nsingle || ru->as_card;
}

/* ==== static helpers: unions =========================================== */

int casino__weight(const struct casino_state *st, uint64_t items)
{
    int w = hand_count(items & ~CASINO_BUILD_BITS);
    for (int v = 2; v <= CASINO_VMAX; v++)
        if (items & casino_build_bit(v))
            w += hand_count(st->build[v]);
    return w;
}

/* True if after this play the player still holds a card of the value of
 * every build he owns (which includes a build he makes now). */
static bool keeps_capturers(const struct search *s, uint64_t items)
{
    unsigned used = (unsigned)(items >> CASINO_BUILD_SHIFT);
    unsigned after = s->owned & ~used;
    if (s->build_value)
        after |= 1u << s->build_value;
    return (after & ~s->ranks_after) == 0;
}

/* True if a union of w cards and mask a comes before one of (wb, b) in a
 * block's order: most cards first, then the lower mask. */
static bool before(int w, uint64_t a, int wb, uint64_t b)
{
    return w > wb || (w == wb && a < b);
}

/* Keeps items among the block's first CASINO_OPTS legal unions. */
static void record(struct search *s, uint64_t items)
{
    if (!items || !keeps_capturers(s, items))
        return;
    int w = casino__weight(s->st, items), i = s->ncand;
    for (int j = 0; j < s->ncand; j++)
        if (s->cand[j] == items)
            return;
    if (s->ncand < CASINO_OPTS)
        s->ncand++;
    else if (before(w, items, s->weight[i - 1], s->cand[i - 1]))
        i--;
    else
        return;
    for (; i > 0 && before(w, items, s->weight[i - 1], s->cand[i - 1]); i--) {
        s->cand[i] = s->cand[i - 1];
        s->weight[i] = s->weight[i - 1];
    }
    s->cand[i] = items;
    s->weight[i] = w;
}

/* Adds, to the union u, every collection of disjoint groups from index i
 * on, recording each union. */
static void unions_from(struct search *s, int i, uint64_t u)
{
    for (; i < s->ngrp; i++) {
        if (++s->nodes > NODES_MAX)
            return;
        if (s->grp[i] & u)
            continue;
        record(s, u | s->grp[i]);
        unions_from(s, i + 1, u | s->grp[i]);
    }
}

/* ==== static helpers: the kinds ======================================== */

/* A face card takes one loose face card of its rank, nothing else. */
static void face_capture(struct search *s, int rank)
{
    for (hand_t h = s->st->loose; h; h &= h - 1)
        if (card_rank(hand_first(h)) == rank)
            record(s, card_bit(hand_first(h)));
}

static void numeral_capture(struct search *s, int r,
                            const struct casino_rules *ru)
{
    uint64_t forced = 0;
    /* Playing the only card that can take one's own r-build must take
     * it: start every union with it. */
    if (s->st->build[r] && ((s->owned >> r) & 1) &&
        !((s->ranks_after >> r) & 1))
        forced = casino_build_bit(r);
    for (int i = 0; i < s->nsub; i++)
        if (capture_group(&s->sub[i], r, ru))
            s->grp[s->ngrp++] = s->sub[i].mask;
    record(s, forced);
    unions_from(s, 0, forced);
}

/* A build of value v with a card of rank r: the played card's group
 * (r alone when r == v), other groups of v, and the existing v-build,
 * which a new build of the same value always joins. */
static void build(struct search *s, int r, int v,
                  const struct casino_rules *ru)
{
    uint64_t forced = s->st->build[v] ? casino_build_bit(v) : 0;
    s->nown = 0;
    if (r == v)
        s->own[s->nown++] = 0;
    for (int i = 0; i < s->nsub; i++) {
        const struct subset *u = &s->sub[i];
        if (r < v && u->sum == v - r && own_group(u, ru))
            s->own[s->nown++] = u->mask;
        else if (other_group(u, v, ru) && !(u->mask & forced))
            s->grp[s->ngrp++] = u->mask;
    }
    for (int k = 0; k < s->nown; k++) {
        uint64_t base = forced | s->own[k];
        record(s, base);
        unions_from(s, 0, base);
    }
}

/* ==== API ============================================================== */

unsigned casino__ranks(hand_t h)
{
    unsigned r = 0;
    for (; h; h &= h - 1)
        r |= 1u << card_rank(hand_first(h));
    return r;
}

bool casino__multiple(const struct casino_state *st, int v)
{
    int sum = 0;
    for (hand_t h = st->build[v]; h; h &= h - 1)
        sum += card_rank(hand_first(h));
    return sum > v;
}

unsigned casino__owned(const struct casino_state *st, int seat)
{
    unsigned m = 0;
    for (int v = 2; v <= CASINO_VMAX; v++)
        if (st->build[v] && st->owner[v] == seat)
            m |= 1u << v;
    return m;
}

bool casino__may_trail(const struct casino_state *st,
                       const struct casino_rules *ru, int seat, int card)
{
    unsigned owned = casino__owned(st, seat);
    if (!owned)
        return true;
    if (!ru->owner_trail)
        return false;
    return (owned & ~casino__ranks(st->hand[seat] & ~card_bit(card))) == 0;
}

/* Runs one kind on a prepared search; copies the kept unions to out. */
static int run_kind(struct search *s, int r, int kind,
                    const struct casino_rules *ru, uint64_t *out)
{
    s->ngrp = s->ncand = s->nodes = 0;
    s->build_value = kind ? kind + 1 : 0;
    if (kind && (r > SUM_MAX || r > s->build_value ||
                 !((s->ranks_after >> s->build_value) & 1)))
        return 0;
    if (!kind && r > SUM_MAX)
        face_capture(s, r);
    else if (!kind)
        numeral_capture(s, r, ru);
    else
        build(s, r, s->build_value, ru);
    memcpy(out, s->cand, sizeof *out * (size_t)s->ncand);
    return s->ncand;
}

void casino__blocks(const struct casino_state *st,
                    const struct casino_rules *ru, int seat, hand_t cards,
                    unsigned kinds, struct casino_blocks *out)
{
    struct search s;
    cards &= st->hand[seat];
    s.st = st;
    s.owned = casino__owned(st, seat);
    s.nsub = 0;
    list_items(&s);
    subsets_from(&s, 0, (struct subset){0, 0, 0, 0, 0});
    for (int i = 0; cards; cards &= cards - 1, i++) {
        int c = hand_first(cards);
        s.ranks_after = casino__ranks(st->hand[seat] & ~card_bit(c));
        for (int k = 0; k < CASINO_KINDS; k++)
            out[i].n[k] = (uint8_t)((kinds >> k) & 1
                                        ? run_kind(&s, card_rank(c), k, ru,
                                                   out[i].items[k])
                                        : 0);
    }
}

/* ==== names ============================================================ */

#define PLAYED_BIT ((uint64_t)1 << 63) /* the played card among the parts */
#define NAME_NODES 20000               /* partition search steps per name */

/* The parts of a named move split into groups of the capturing number. */
struct namer {
    uint64_t bit[ITEMS_MAX + 1]; /* item bit, or PLAYED_BIT */
    int val[ITEMS_MAX + 1];      /* rank or build value */
    int group[ITEMS_MAX + 1];    /* group of each part once split */
    int n;                       /* parts, value descending */
    int target;                  /* what every group adds up to */
    int nodes;                   /* search steps taken */
};

static void add_part(struct namer *m, uint64_t bit, int val)
{
    int j = m->n++;
    while (j > 0 && (m->val[j - 1] < val ||
                     (m->val[j - 1] == val && m->bit[j - 1] > bit))) {
        m->bit[j] = m->bit[j - 1];
        m->val[j] = m->val[j - 1];
        j--;
    }
    m->bit[j] = bit;
    m->val[j] = val;
}

static bool split(struct namer *m, uint64_t left, int g);

/* Grows group g (parts grp, adding to sum) with parts from index j on,
 * then splits what is left; marks the group's parts on success. */
static bool grow(struct namer *m, uint64_t left, uint64_t grp, int sum,
                 int j, int g)
{
    if (sum == m->target) {
        if (!split(m, left & ~grp, g + 1))
            return false;
        for (int i = 0; i < m->n; i++)
            if ((grp >> i) & 1)
                m->group[i] = g;
        return true;
    }
    for (; j < m->n && m->nodes < NAME_NODES; j++) {
        if (!((left >> j) & 1) || sum + m->val[j] > m->target)
            continue;
        m->nodes++;
        if (grow(m, left, grp | (uint64_t)1 << j, sum + m->val[j], j + 1, g))
            return true;
    }
    return false;
}

/* Splits the parts in left (index bits) into groups; the group holding
 * the highest part left is grown first, so groups come out in order of
 * their highest part. */
static bool split(struct namer *m, uint64_t left, int g)
{
    if (!left)
        return true;
    int i = __builtin_ctzll(left);
    return grow(m, left, (uint64_t)1 << i, m->val[i], i + 1, g);
}

/* Appends fmt to buf (len bytes) at *w, counting what was wanted. */
static void put(char *buf, size_t len, size_t *w, const char *fmt,
                const char *s)
{
    size_t at = *w < len ? *w : len;
    int k = snprintf(buf + at, len - at, fmt, s);
    *w += k > 0 ? (size_t)k : 0;
}

static void put_part(char *buf, size_t len, size_t *w, uint64_t bit)
{
    char tok[16];
    if (bit & CASINO_BUILD_BITS)
        snprintf(tok, sizeof tok, "%d-build",
                 __builtin_ctzll(bit) - CASINO_BUILD_SHIFT);
    else
        card_name(__builtin_ctzll(bit), tok, sizeof tok);
    put(buf, len, w, "%s", tok);
}

/* Writes group g's parts (the played card left out) and returns how many
 * it wrote. */
static int put_group(const struct namer *m, int g, char *buf, size_t len,
                     size_t *w)
{
    int k = 0;
    for (int i = 0; i < m->n; i++)
        if (m->group[i] == g && m->bit[i] != PLAYED_BIT) {
            put_part(buf, len, w, m->bit[i]);
            k++;
        }
    return k;
}

/* Writes the groups, the played card's group first, " + " between. */
static void put_groups(struct namer *m, char *buf, size_t len, size_t *w)
{
    uint64_t all = m->n == 64 ? ~0ull : ((uint64_t)1 << m->n) - 1;
    int first = -1, ngroups = 0;
    if (!split(m, all, 0)) {
        for (int i = 0; i < m->n; i++)
            if (m->bit[i] != PLAYED_BIT) {
                put(buf, len, w, "%s", i ? " " : "");
                put_part(buf, len, w, m->bit[i]);
            }
        return;
    }
    for (int i = 0; i < m->n; i++) {
        ngroups = m->group[i] + 1 > ngroups ? m->group[i] + 1 : ngroups;
        if (m->bit[i] == PLAYED_BIT)
            first = m->group[i];
    }
    bool any = first >= 0 && put_group(m, first, buf, len, w) > 0;
    for (int g = 0; g < ngroups; g++) {
        if (g == first)
            continue;
        put(buf, len, w, "%s", any ? " + " : "");
        any = put_group(m, g, buf, len, w) > 0 || any;
    }
}

int casino__name(int card, int kind, uint64_t items, char *buf, size_t len)
{
    struct namer m;
    char c[8], v[16];
    size_t w = 0;
    card_name(card, c, sizeof c);
    if (kind == CASINO_TRAIL)
        return snprintf(buf, len, "trail %s", c);
    m.n = m.nodes = 0;
    m.target = kind ? kind + 1 : card_rank(card);
    for (uint64_t h = items; h; h &= h - 1) {
        uint64_t bit = h & -h;
        int b = __builtin_ctzll(h);
        add_part(&m, bit, bit & CASINO_BUILD_BITS ? b - CASINO_BUILD_SHIFT
                                                  : card_rank(b));
    }
    if (kind)
        add_part(&m, PLAYED_BIT, card_rank(card));
    put(buf, len, &w, "play %s", c);
    if (kind) {
        snprintf(v, sizeof v, "%d", kind + 1);
        put(buf, len, &w, " build %s on ", v);
    } else {
        put(buf, len, &w, " capture %s", "");
    }
    put_groups(&m, buf, len, &w);
    return (int)w;
}
