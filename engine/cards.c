/* cards.c — names, parsing and deck building for the standard pack. */
#include "cards.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../common/rng.h"

static const char *const rank_names[14] = {"?", "A", "2", "3", "4",  "5",
                                           "6", "7", "8", "9", "10", "J",
                                           "Q", "K"};
static const char *const suit_symbols[4] = {"♣", "♦", "♥", "♠"};
static const char suit_letters[4] = {'C', 'D', 'H', 'S'};

const struct card_codec cards_standard = {CARDS_IN_PACK, 1, card_name,
                                          card_parse};

/* Joins rank and suit text into buf without printf: names are written in
 * every view and action list, so this is on the structured-view path. */
static int join_name(const char *rank, const char *suit, char *buf,
                     size_t len)
{
    size_t a = strlen(rank), b = strlen(suit);
    if (len == 0)
        return (int)(a + b);
    size_t n = a + b < len ? a + b : len - 1;
    size_t ka = a < n ? a : n;
    memcpy(buf, rank, ka);
    memcpy(buf + ka, suit, n - ka);
    buf[n] = '\0';
    return (int)(a + b);
}

int card_name(int c, char *buf, size_t len)
{
    return join_name(rank_names[card_rank(c)], suit_symbols[card_suit(c)],
                     buf, len);
}

int card_name_ascii(int c, char *buf, size_t len)
{
    char suit[2] = {suit_letters[card_suit(c)], '\0'};
    return join_name(rank_names[card_rank(c)], suit, buf, len);
}

static int parse_rank(const char *s, const char **end)
{
    int c = toupper((unsigned char)*s);
    if (c == '1' && s[1] == '0')
        return *end = s + 2, 10;
    if (c >= '2' && c <= '9')
        return *end = s + 1, c - '0';
    static const char letters[] = "A23456789TJQK";
    const char *p = strchr(letters, c);
    if (!c || !p)
        return -1;
    *end = s + 1;
    return (int)(p - letters) + 1;
}

static int parse_suit(const char *s, const char **end)
{
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(suit_symbols[i]);
        if (!strncmp(s, suit_symbols[i], n))
            return *end = s + n, i;
        if (toupper((unsigned char)*s) == suit_letters[i])
            return *end = s + 1, i;
    }
    return -1;
}

int card_parse(const char *s, const char **end)
{
    const char *p;
    int rank = parse_rank(s, &p);
    if (rank < 0)
        return ERR_SYNTAX;
    int suit = parse_suit(p, &p);
    if (suit < 0)
        return ERR_SYNTAX;
    if (end)
        *end = p;
    return card_make(rank, suit);
}

int hand_format(hand_t h, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; h && used < len; h &= h - 1) {
        used += (size_t)snprintf(buf + used, len - used, "%s",
                                 used ? " " : "");
        if (used < len)
            used += (size_t)card_name(hand_first(h), buf + used, len - used);
    }
    return (int)used;
}

static const char *skip_separators(const char *s)
{
    while (*s && (isspace((unsigned char)*s) || *s == ','))
        s++;
    return s;
}

int deck_parse(const struct card_codec *codec, const char *text,
               uint8_t *out, int max, char *err, size_t errlen)
{
    uint8_t seen[256] = {0};
    int n = 0;
    for (const char *s = skip_separators(text); *s; s = skip_separators(s)) {
        const char *end = s;
        int c = codec->parse(s, &end);
        size_t toklen = strcspn(s, " \t\n,");
        if (c < 0 || (end != s + toklen))
            return err_set(err, errlen, ERR_SYNTAX,
                           "'%.*s' is not a card name (e.g. 10H, QS, A♦)",
                           (int)toklen, s);
        if (seen[c] >= (codec->max_copies > 1 ? codec->max_copies : 1))
            return err_set(err, errlen, ERR_INVAL,
                           "card '%.*s' appears too often in the deck",
                           (int)toklen, s);
        if (n == max)
            return err_set(err, errlen, ERR_RANGE,
                           "deck has more than %d cards", max);
        seen[c]++;
        out[n++] = (uint8_t)c;
        s = end;
    }
    return n;
}

int deck_build(uint8_t *deck, int n, const uint8_t *pre, int npre,
               struct rng *rng)
{
    uint8_t used[256] = {0};
    if (npre > n)
        return ERR_INVAL;
    for (int i = 0; i < npre; i++) {
        if (pre[i] >= n || used[pre[i]])
            return ERR_INVAL;
        used[pre[i]] = 1;
        deck[i] = pre[i];
    }
    int k = npre;
    for (int c = 0; c < n; c++)
        if (!used[c])
            deck[k++] = (uint8_t)c;
    rng_shuffle_u8(rng, deck + npre, n - npre);
    return 0;
}

/* ---- card bins ---------------------------------------------------------- */

/* Places c, moving placed cards along an augmenting path if needed
 * (Kuhn's matching); visited marks bins tried on this path. */
static bool bins_place(struct card_bins *b, int c, unsigned *visited,
                       int start)
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

bool card_bins_fill(struct card_bins *b, hand_t pool, struct rng *rng)
{
    uint8_t cards[64];
    int n = 0, left = hand_count(pool);
    bool ok = true;
    for (; pool; pool &= pool - 1)
        cards[n++] = (uint8_t)hand_first(pool);
    rng_shuffle_u8(rng, cards, n);
    for (int k = 0; k < n; k++, left--) {
        int x = (int)rng_below(rng, (uint32_t)left), i = 0;
        while (x >= b->room[i])
            x -= b->room[i++];
        unsigned visited = 0;
        ok &= bins_place(b, cards[k], &visited, i);
    }
    return ok;
}
