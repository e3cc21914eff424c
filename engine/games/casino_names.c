/* casino_names.c — the readable names of Casino's plays (casino__name):
 * the parts a move takes, split into groups of the capturing number as a
 * player would say them. Nothing here allocates.
 */
#include "casino.h"

#include <stdio.h>
#include <string.h>

#include "../view.h"

#define PLAYED_BIT ((uint64_t)1 << 63) /* the played card among the parts */
#define NAME_NODES 20000               /* partition search steps per name */

/* The parts of a named move split into groups of the capturing number. */
struct namer {
    uint64_t bit[CASINO_TABLE_MAX + 1]; /* item bit, or PLAYED_BIT */
    int val[CASINO_TABLE_MAX + 1];      /* rank or build value */
    int group[CASINO_TABLE_MAX + 1];    /* group of each part once split */
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
static bool grow(struct namer *m, uint64_t left, uint64_t grp, int sum, int j,
                 int g)
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

/* Room for any name: the longest, "play 10♥ build 10 on " and fifteen
 * parts of at most eight bytes with " + " between, is under 200 bytes;
 * 8 more for the last 8-byte copy of a card name. */
#define NAME_ROOM 256

/* Writes part bit ("5♠", "7-build") at p and returns the end. */
static char *cat_part(char *p, uint64_t bit)
{
    if (bit & CASINO_BUILD_BITS)
        return view_cat(
            view_cat_num(p, __builtin_ctzll(bit) - CASINO_BUILD_SHIFT),
            "-build");
    return view_cat_card(p, __builtin_ctzll(bit));
}

/* Writes group g's parts (the played card left out) at p; returns the
 * end, *k set to how many it wrote. */
static char *cat_group(const struct namer *m, int g, char *p, int *k)
{
    *k = 0;
    for (int i = 0; i < m->n; i++)
        if (m->group[i] == g && m->bit[i] != PLAYED_BIT) {
            p = cat_part(p, m->bit[i]);
            (*k)++;
        }
    return p;
}

/* Splits the parts into groups (split), or answers at once the two
 * splits most names have: parts adding up to the target are one group,
 * and parts each of the target's value are a group each (both are the
 * only split there is, and the one split finds). */
static bool group_parts(struct namer *m)
{
    uint64_t all = m->n == 64 ? ~0ull : ((uint64_t)1 << m->n) - 1;
    int total = 0, singles = 1;
    for (int i = 0; i < m->n; i++) {
        total += m->val[i];
        singles &= m->val[i] == m->target;
    }
    if (total == m->target || singles) {
        for (int i = 0; i < m->n; i++)
            m->group[i] = singles ? i : 0;
        return true;
    }
    return split(m, all, 0);
}

/* Writes the groups at p, the played card's group first, " + " between;
 * returns the end. */
static char *cat_groups(struct namer *m, char *p)
{
    int first = -1, ngroups = 0, k;
    if (!group_parts(m)) {
        for (int i = 0; i < m->n; i++)
            if (m->bit[i] != PLAYED_BIT) {
                p = i ? view_cat(p, " ") : p;
                p = cat_part(p, m->bit[i]);
            }
        return p;
    }
    for (int i = 0; i < m->n; i++) {
        ngroups = m->group[i] + 1 > ngroups ? m->group[i] + 1 : ngroups;
        if (m->bit[i] == PLAYED_BIT)
            first = m->group[i];
    }
    bool any = false;
    if (first >= 0) {
        p = cat_group(m, first, p, &k);
        any = k > 0;
    }
    for (int g = 0; g < ngroups; g++) {
        if (g == first)
            continue;
        p = any ? view_cat(p, " + ") : p;
        p = cat_group(m, g, p, &k);
        any = k > 0 || any;
    }
    return p;
}

/* The name is written whole into a local buffer from pieces (no
 * formatter), then copied to buf, cut as snprintf cuts. */
int casino__name(int card, int kind, uint64_t items, char *buf, size_t len)
{
    struct namer m;
    char c[8], tmp[NAME_ROOM], *p;
    *view_cat_card(c, card) = '\0';
    if (kind == CASINO_TRAIL)
        return text_cat(buf, len, "trail ", c);
    m.n = m.nodes = 0;
    m.target = kind ? kind + 1 : card_rank(card);
    for (uint64_t h = items; h; h &= h - 1) {
        uint64_t bit = h & -h;
        int b = __builtin_ctzll(h);
        add_part(&m, bit,
                 bit & CASINO_BUILD_BITS ? b - CASINO_BUILD_SHIFT
                                         : card_rank(b));
    }
    if (kind)
        add_part(&m, PLAYED_BIT, card_rank(card));
    p = view_cat_card(view_cat(tmp, "play "), card);
    if (kind)
        p = view_cat(view_cat_num(view_cat(p, " build "), kind + 1), " on ");
    else
        p = view_cat(p, " capture ");
    p = cat_groups(&m, p);
    return text_put(buf, len, tmp, (size_t)(p - tmp));
}
