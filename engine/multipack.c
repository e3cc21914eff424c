/* multipack.c — names, parsing and deal order for multi-deck packs. */
#include "multipack.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "cards.h"
#include "view.h"

int multipack_name(int c, char *buf, size_t len)
{
    if (c == MULTIPACK_JOKER)
        return text_fmt(buf, len, "Joker");
    return card_name(c, buf, len);
}

/* True when s starts with word, ignoring case, and the word ends there. */
static bool starts_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != word[i])
            return false;
    return !isalnum((unsigned char)s[n]);
}

int multipack_parse(const char *s, const char **end)
{
    static const char *const joker[] = {"joker", "jk"};
    for (int i = 0; i < 2; i++) {
        if (starts_word(s, joker[i])) {
            if (end)
                *end = s + strlen(joker[i]);
            return MULTIPACK_JOKER;
        }
    }
    return card_parse(s, end);
}

int multipack_fill(uint8_t *pack, int decks, int jokers)
{
    int n = 0;
    for (int c = 0; c < CARDS_IN_PACK; c++)
        for (int d = 0; d < decks; d++)
            pack[n++] = (uint8_t)c;
    for (int j = 0; j < decks * jokers; j++)
        pack[n++] = MULTIPACK_JOKER;
    return n;
}

int multipack_build(uint8_t *pack, int n, const uint8_t *pre, int npre,
                    struct rng *rng)
{
    if (!npre) {
        /* Any order of the whole pack shuffles to a uniform deal. */
        rng_shuffle_u8(rng, pack, n);
        return 0;
    }
    uint16_t left[256] = {0};
    if (npre > n)
        return ERR_INVAL;
    for (int i = 0; i < n; i++)
        left[pack[i]]++;
    for (int i = 0; i < npre; i++) {
        if (!left[pre[i]])
            return ERR_INVAL;
        left[pre[i]]--;
    }
    int k = 0;
    for (int i = 0; i < npre; i++)
        pack[k++] = pre[i];
    for (int c = 0; c < 256 && k < n; c++)
        for (; left[c]; left[c]--)
            pack[k++] = (uint8_t)c;
    rng_shuffle_u8(rng, pack + npre, n - npre);
    return 0;
}
