/* trix_pack.c — facts, names and dealing for the 72-card Standard Trix pack.
 *
 * The id layout is explained in trix_pack.h. Each card's two numbers come
 * from two constant tables; every other fact is derived from them.
 */
#include "trix_pack.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "view.h"

/* Upper and lower numbers of ids 0..70 (Trixie, 71, has none): the
 * triangle 0-0 .. 10-10, then 11-9, 12-8, 13-12, 14-11, 15-15. Tables,
 * because set winners ask for them on every play. */
static const uint8_t upper_of[TRIX_TRIXIE] = {
    0, 1,  1,  2,  2,  2,  3,  3,  3,  3,  4,  4,  4,  4,  4,  5,  5,  5,
    5, 5,  5,  6,  6,  6,  6,  6,  6,  6,  7,  7,  7,  7,  7,  7,  7,  7,
    8, 8,  8,  8,  8,  8,  8,  8,  8,  9,  9,  9,  9,  9,  9,  9,  9,  9,
    9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 11, 12, 13, 14, 15,
};
static const uint8_t lower_of[TRIX_TRIXIE] = {
    0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 2,  3, 4, 5,  0,  1,  2,
    3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5,  6, 7, 8,  0,  1,  2,
    3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 12, 11, 15,
};

static const char *const suit_names[TRIX_SUITS] = {
    "Blanks",  "Ones",      "Twos",      "Threes",   "Fours", "Fives",
    "Sixes",   "Sevens",    "Eights",    "Nines",    "Tens",  "Elevens",
    "Twelves", "Thirteens", "Fourteens", "Fifteens",
};

int trix__card_high(int upper, int lower)
{
    for (int c = TRIX_TRIANGLE; c < TRIX_TRIXIE; c++)
        if (upper_of[c] == upper && lower_of[c] == lower)
            return c;
    return -1;
}

int trix_upper(int c)
{
    return c == TRIX_TRIXIE ? TRIX_NO_SUIT : upper_of[c];
}

int trix_lower(int c)
{
    return c == TRIX_TRIXIE ? TRIX_NO_SUIT : lower_of[c];
}

int trix_sum(int c)
{
    if (c == TRIX_TRIXIE)
        return 0;
    return trix_upper(c) + trix_lower(c);
}

bool trix_is_double(int c)
{
    return c != TRIX_TRIXIE && trix_upper(c) == trix_lower(c);
}

bool trix_is_prize_trix(int c)
{
    return trix_is_double(c) && trix_upper(c) % 5 == 0 && trix_upper(c) > 0;
}

bool trix_is_prize(int c)
{
    return trix_is_double(c) && !trix_is_prize_trix(c);
}

bool trix_is_trix_card(int c)
{
    int s = trix_sum(c);
    return c == TRIX_TRIXIE || (s > 0 && s % 5 == 0);
}

int trix_points(int c)
{
    if (c == TRIX_TRIXIE)
        return TRIX_TRIXIE_VALUE;
    return trix_is_trix_card(c) ? trix_sum(c) : 0;
}

int trix_precedence(int c)
{
    if (c == TRIX_TRIXIE)
        return 13;
    if (!trix_is_double(c))
        return 0;
    switch (trix_upper(c)) {
    case 15:
        return 12;
    case 10:
        return 11;
    case 5:
        return 10;
    default: /* 9-9 is 9 ... 6-6 is 6; 4-4 is 5 ... 0-0 is 1 */
        return trix_upper(c) > 5 ? trix_upper(c) : trix_upper(c) + 1;
    }
}

trix_hand_t trix_suit_cards(int s)
{
    if (s < 0 || s >= TRIX_SUITS)
        return trix_hand_none();
    if (s <= 10)
        return trix_hand_range(s * (s + 1) / 2, s * (s + 1) / 2 + s);
    return trix_hand_bit(66 + s - 11);
}

trix_hand_t trix_sum_cards(int s)
{
    trix_hand_t h = trix_hand_none();
    for (int c = 0; c < TRIX_TRIXIE; c++)
        if (trix_sum(c) == s)
            trix_hand_add(&h, c);
    return h;
}

const char *trix_suit_name(int s)
{
    return s >= 0 && s < TRIX_SUITS ? suit_names[s] : "";
}

int trix_set_winner(const uint8_t *cards, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++) {
        int pb = trix_precedence(cards[best]), pi = trix_precedence(cards[i]);
        if (pi > pb ||
            (pi == 0 && pb == 0 && trix_sum(cards[i]) > trix_sum(cards[best])))
            best = i;
    }
    return best;
}

/* Every card's name, upper number first: views name cards at every
 * history entry, so the names are data rather than formatted per call
 * (test_trix_pack checks them against the two tables above). */
static const char card_names[TRIX_CARDS][TRIX_NAME_MAX] = {
    "0-0",  "1-0",   "1-1",  "2-0",  "2-1",   "2-2",   "3-0",   "3-1",
    "3-2",  "3-3",   "4-0",  "4-1",  "4-2",   "4-3",   "4-4",   "5-0",
    "5-1",  "5-2",   "5-3",  "5-4",  "5-5",   "6-0",   "6-1",   "6-2",
    "6-3",  "6-4",   "6-5",  "6-6",  "7-0",   "7-1",   "7-2",   "7-3",
    "7-4",  "7-5",   "7-6",  "7-7",  "8-0",   "8-1",   "8-2",   "8-3",
    "8-4",  "8-5",   "8-6",  "8-7",  "8-8",   "9-0",   "9-1",   "9-2",
    "9-3",  "9-4",   "9-5",  "9-6",  "9-7",   "9-8",   "9-9",   "10-0",
    "10-1", "10-2",  "10-3", "10-4", "10-5",  "10-6",  "10-7",  "10-8",
    "10-9", "10-10", "11-9", "12-8", "13-12", "14-11", "15-15", "Trixie",
};

const char *trix_card_text(int c)
{
    return card_names[c];
}

int trix_card_name(int c, char *buf, size_t len)
{
    return text_fmt(buf, len, "%s", card_names[c]);
}

/* Reads a decimal number of one or two digits at *s; -1 if none. */
static int read_number(const char **s)
{
    if (!isdigit((unsigned char)**s))
        return -1;
    int v = 0;
    for (int i = 0; i < 2 && isdigit((unsigned char)**s); i++)
        v = v * 10 + (*(*s)++ - '0');
    return v;
}

/* Length of the word w matched case-insensitively at s, or 0. */
static size_t match_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != w[i])
            return 0;
    return isalnum((unsigned char)s[n]) ? 0 : n;
}

int trix_card_parse(const char *s, const char **end)
{
    while (*s == ' ')
        s++;
    size_t n = match_word(s, "trixie");
    if (!n)
        n = match_word(s, "tx");
    if (n) {
        *end = s + n;
        return TRIX_TRIXIE;
    }
    const char *p = s;
    int a = read_number(&p);
    if (a < 0 || *p != '-')
        return ERR_SYNTAX;
    p++;
    int b = read_number(&p);
    if (b < 0 || isalnum((unsigned char)*p))
        return ERR_SYNTAX;
    int c = a >= b ? trix_card(a, b) : trix_card(b, a);
    if (c < 0)
        return ERR_SYNTAX;
    *end = p;
    return c;
}

int trix_hand_format(trix_hand_t h, char *buf, size_t len)
{
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    for (int c = 0; c < TRIX_CARDS; c++) {
        if (!trix_hand_has(h, c))
            continue;
        char name[TRIX_NAME_MAX];
        trix_card_name(c, name, sizeof name);
        char *at = k < len ? buf + k : NULL;
        int w = snprintf(at, at ? len - k : 0, "%s%s", k ? " " : "", name);
        k += (size_t)w;
    }
    return (int)k;
}

int trix_deck_build(uint8_t *deck, trix_hand_t pack, const uint8_t *pre,
                    int npre, struct rng *rng)
{
    trix_hand_t rest = pack;
    for (int i = 0; i < npre; i++) {
        if (pre[i] >= TRIX_CARDS || !trix_hand_has(rest, pre[i]))
            return ERR_INVAL;
        trix_hand_del(&rest, pre[i]);
        deck[i] = pre[i];
    }
    int k = npre;
    for (int c = 0; c < TRIX_CARDS; c++)
        if (trix_hand_has(rest, c))
            deck[k++] = (uint8_t)c;
    rng_shuffle_u8(rng, deck + npre, k - npre);
    return k;
}

const struct card_codec trix_cards = {
    .ncards = TRIX_CARDS,
    .max_copies = 1,
    .name = trix_card_name,
    .parse = trix_card_parse,
};
