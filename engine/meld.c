/* meld.c — faces, trick order, the follow-and-head duty, meld counting and
 * hidden deals for the Bezique-family games (see meld.h). */
#include "meld.h"

#include <string.h>

#include "../common/err.h"
#include "obs_fill.h"
#include "view.h"

#define PINOCHLE_PLACES 0x3fu /* A 10 K Q J 9 */
#define BINOKEL_PLACES 0x9fu  /* A 10 K Q J 7 */
#define BINOCLE_PLACES 0xffu  /* A 10 K Q J 9 8 7 */
#define DEAL_TRIES 48         /* draws per seat before starting over */
#define DEAL_ROUNDS 24        /* start-overs before giving up */

/* Functions worth a second build for AVX2 (GCC and clang on x86-64 pick
 * the build at load time); elsewhere one plain build. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MELD_X86_64 1
#define MELD_WIDE __attribute__((target_clones("avx2", "default")))
#include <immintrin.h>
#else
#define MELD_X86_64 0
#define MELD_WIDE
#endif

/* ==== names ============================================================ */

static const uint8_t place_rank[8] = {ACE, 10, KING, QUEEN, JACK, 9, 8, 7};

int meld_face_name(int f, char *buf, size_t len)
{
    return card_name(card_make(place_rank[meld_place(f)], meld_suit(f)), buf,
                     len);
}

/* The face of a standard card, or -1 when its rank has no place. */
static int face_of(int card)
{
    for (int p = 0; p < 8; p++)
        if (place_rank[p] == card_rank(card))
            return meld_face(card_suit(card), p);
    return -1;
}

static int parse_in(const char *s, const char **end, unsigned places)
{
    int c = card_parse(s, end);
    if (c < 0)
        return c;
    int f = face_of(c);
    return f >= 0 && (places >> meld_place(f) & 1) ? f : ERR_SYNTAX;
}

static int parse_pinochle(const char *s, const char **end)
{
    return parse_in(s, end, PINOCHLE_PLACES);
}

const struct card_codec meld_codec_pinochle = {MELD_FACES, 4, meld_face_name,
                                               parse_pinochle};

static int parse_binokel(const char *s, const char **end)
{
    return parse_in(s, end, BINOKEL_PLACES);
}

const struct card_codec meld_codec_binokel = {MELD_FACES, 2, meld_face_name,
                                              parse_binokel};

static int parse_binocle(const char *s, const char **end)
{
    return parse_in(s, end, BINOCLE_PLACES);
}

const struct card_codec meld_codec_binocle = {MELD_FACES, 1, meld_face_name,
                                              parse_binocle};

void meld_counts(uint32_t set, uint8_t *hand)
{
    for (int f = 0; f < MELD_FACES; f++)
        hand[f] = (uint8_t)(set >> f & 1);
}

int meld_pack_build(uint8_t *pack, unsigned places, int copies,
                    const uint8_t *pre, int npre, struct rng *rng)
{
    uint8_t left[MELD_FACES] = {0};
    int n = 0, k = 0;
    for (int f = 0; f < MELD_FACES; f++)
        if (places >> meld_place(f) & 1)
            left[f] = (uint8_t)copies;
    for (int i = 0; i < npre; i++) {
        if (pre[i] >= MELD_FACES || !left[pre[i]])
            return ERR_INVAL;
        left[pre[i]]--;
        pack[n++] = pre[i];
    }
    k = n;
    for (int f = 0; f < MELD_FACES; f++)
        while (left[f]--)
            pack[n++] = (uint8_t)f;
    rng_shuffle_u8(rng, pack + k, n - k);
    return n;
}

/* ==== tricks =========================================================== */

bool meld_beats(int a, int b, int trump)
{
    if (meld_suit(a) == meld_suit(b))
        return meld_place(a) < meld_place(b);
    return meld_suit(a) == trump;
}

int meld_best(const uint8_t *trick, int n, int trump)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (meld_beats(trick[i], trick[best], trump))
            best = i;
    return best;
}

/* Faces of suit s that beat card w (as meld_beats says): in w's suit the
 * places above w's, in trumps led against another suit every face. */
static uint32_t beaters(int s, int w, int trump)
{
    if (s == meld_suit(w))
        return ((1u << meld_place(w)) - 1) << (8 * s);
    return s == trump ? meld_suit_set(s) : 0;
}

/* The faces of hand[0..8) held, as bits 0..7: the eight counts read as
 * one word, each byte's "non-zero" folded into its top bit, and the top
 * bits gathered by one multiplication (each lands in a bit of its own).
 * hand[0] must be the word's low byte: swapped on big-endian machines. */
static uint32_t held8(const uint8_t *hand)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t x;
    memcpy(&x, hand, sizeof x);
    if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
        x = __builtin_bswap64(x);
    uint64_t top = (((x & low7) + low7) | x) & ~low7;
    return (uint32_t)(((top >> 7) * 0x0102040810204080ull) >> 56);
}

static uint32_t held(const uint8_t *hand)
{
    return held8(hand) | held8(hand + 8) << 8 | held8(hand + 16) << 16 |
           held8(hand + 24) << 24;
}

uint32_t meld_playable(const uint8_t *hand, const uint8_t *trick, int n,
                       int trump)
{
    uint32_t h = held(hand);
    if (n == 0)
        return h;
    int led = meld_suit(trick[0]), w = trick[meld_best(trick, n, trump)];
    uint32_t follow = h & meld_suit_set(led);
    if (!follow && trump != MELD_NO)
        follow = h & meld_suit_set(trump);
    if (!follow)
        return h;
    int s = meld_suit(__builtin_ctz(follow));
    uint32_t head = follow & beaters(s, w, trump);
    return head ? head : follow;
}

uint32_t meld_shows_lack(const uint8_t *trick, int n, int c, int trump)
{
    int led = meld_suit(trick[0]), s = meld_suit(c);
    int w = trick[meld_best(trick, n, trump)];
    uint32_t lack = 0;
    if (s != led) {
        lack |= meld_suit_set(led);
        if (trump != MELD_NO && s != trump)
            lack |= meld_suit_set(trump);
    }
    if ((s == led || s == trump) && !meld_beats(c, w, trump))
        lack |= beaters(s, w, trump);
    return lack;
}

/* ==== melds ============================================================ */


/* ==== views ============================================================ */

void meld_pack_face(msgpack_packer *pk, int f)
{
    view_pack_card(pk, card_make(place_rank[meld_place(f)], meld_suit(f)));
}

void meld_pack_trick(msgpack_packer *pk, const uint8_t *trick, int n,
                     int leader, int np)
{
    view_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        view_pack_array(pk, 2);
        view_pack_int(pk, (leader + i) % np);
        meld_pack_face(pk, trick[i]);
    }
}

void meld_pack_hand(msgpack_packer *pk, const uint8_t *hand)
{
    view_pack_array(pk, (size_t)meld_size(hand));
    /* Faces go eight at a time: a hand holds few of the 32. */
    _Static_assert(MELD_FACES % 8 == 0, "faces in whole words");
    for (int w = 0; w < MELD_FACES; w += 8) {
        uint64_t any;
        memcpy(&any, hand + w, 8);
        for (int f = w; any && f < w + 8; f++)
            for (int i = 0; i < hand[f]; i++)
                meld_pack_face(pk, f);
    }
}

void meld_format_hand(const uint8_t *hand, char *buf, size_t len)
{
    char name[8];
    size_t k = 0;
    if (len)
        buf[0] = '\0';
    for (int f = 0; f < MELD_FACES; f++)
        for (int i = 0; i < hand[f]; i++) {
            meld_face_name(f, name, sizeof name);
            text_appendf(buf, len, &k, "%s%s", k ? " " : "", name);
        }
}

/* ==== hidden deals ===================================================== */

#define DRAW_MAX (MELD_FACES * 4) /* copies a seat's draw lists */

/* Lists the copies in pool a seat may draw (faces outside lacks) into
 * cards; returns how many. */
static int drawable(const uint8_t *pool, uint32_t lacks, uint8_t *cards)
{
    int n = 0;
    for (int f = 0; f < MELD_FACES; f++) {
        int k = lacks >> f & 1 ? 0 : pool[f];
        k = k < DRAW_MAX - n ? k : DRAW_MAX - n;
        while (k-- > 0)
            cards[n++] = (uint8_t)f;
    }
    return n;
}

/* Draws room of the n cards uniformly into got (counts per face), by a
 * partial shuffle of cards. The shuffle only moves cards about, so the
 * same list serves the next draw: a partial shuffle of any order of it
 * is a uniform draw again. */
static void draw(uint8_t *cards, int n, int room, struct rng *rng,
                 uint8_t *got)
{
    memset(got, 0, MELD_FACES);
    for (int i = 0; i < room; i++) {
        int j = i + (int)rng_below(rng, (uint32_t)(n - i));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
        got[cards[i]]++;
    }
}

/* One attempt at the whole deal: the seats in order[0..n), the last one
 * taking what is left in a single draw. */
static bool deal_round(const uint8_t *pool, const int *order, int n,
                       const int *room, const uint32_t *lacks,
                       meld_accept_fn accept, const void *ctx,
                       struct rng *rng, uint8_t (*out)[MELD_FACES])
{
    uint8_t left[MELD_FACES];
    memcpy(left, pool, sizeof left);
    for (int i = 0; i < n; i++) {
        uint8_t cards[DRAW_MAX];
        int s = order[i], tries = i == n - 1 ? 1 : DEAL_TRIES;
        int m = drawable(left, lacks[s], cards);
        bool ok = false;
        for (int t = 0; t < tries && !ok && m >= room[s]; t++) {
            draw(cards, m, room[s], rng, out[s]);
            ok = !accept || accept(ctx, s, out[s]);
        }
        if (!ok)
            return false;
        for (int f = 0; f < MELD_FACES; f++)
            left[f] = (uint8_t)(left[f] - out[s][f]);
    }
    return true;
}

bool meld_deal_hidden(const uint8_t *pool, int np, const int *room,
                      const uint32_t *lacks, meld_accept_fn accept,
                      const void *ctx, struct rng *rng,
                      uint8_t (*out)[MELD_FACES])
{
    int order[MELD_MAXP + 1], n = 0;
    /* Most cards first: the last seat's hand is forced, and the fewer
     * hidden cards it has, the likelier it fits. */
    for (int s = 0; s < np; s++) {
        memset(out[s], 0, MELD_FACES);
        if (room[s] <= 0)
            continue;
        int j = n++;
        for (; j > 0 && room[order[j - 1]] < room[s]; j--)
            order[j] = order[j - 1];
        order[j] = s;
    }
    for (int r = 0; r < DEAL_ROUNDS; r++)
        if (deal_round(pool, order, n, room, lacks, accept, ctx, rng, out))
            return true;
    /* None fitted: rather than leave the caller the true hands (which a
     * searcher must never see), relax the meld test, then the voids; the
     * last draw always succeeds when the pool holds every seat's room. */
    static const uint32_t none[MELD_MAXP + 1];
    for (int r = 0; r < DEAL_ROUNDS; r++)
        if (deal_round(pool, order, n, room, lacks, NULL, NULL, rng, out))
            return true;
    return deal_round(pool, order, n, room, none, NULL, NULL, rng, out);
}

/* ==== the trick in play ================================================ */

const char *meld_suit_word(int s)
{
    static const char *const words[4] = {"clubs", "diamonds", "hearts",
                                         "spades"};
    return words[s];
}

void meld_table_start(struct meld_table *t, int seat)
{
    t->turn = t->leader = (uint8_t)seat;
    t->ntrick = t->tricks = 0;
    t->last_leader = MELD_NO;
}

bool meld_table_put(struct meld_table *t, int f, int np)
{
    t->trick[t->ntrick++] = (uint8_t)f;
    if (t->ntrick == np)
        return true;
    t->turn = (uint8_t)(t->turn + 1 == np ? 0 : t->turn + 1);
    return false;
}

int meld_table_close(struct meld_table *t, int np, int trump, int per_deal,
                     int last_bonus, int *points)
{
    int w = (t->leader + meld_best(t->trick, np, trump)) % np;
    *points = 0;
    for (int i = 0; i < np; i++)
        *points += meld_card_points(t->trick[i]);
    if (++t->tricks == per_deal)
        *points += last_bonus;
    memcpy(t->last, t->trick, sizeof t->last);
    t->last_leader = t->leader;
    t->ntrick = 0;
    t->leader = t->turn = (uint8_t)w;
    return w;
}

void meld_take(uint8_t *hand, uint8_t *known, uint8_t *played, int f)
{
    hand[f]--;
    played[f]++;
    if (known[f]) /* all saw one copy go: any of them may be the shown one */
        known[f]--;
}

void meld_pack_table(msgpack_packer *pk, const struct meld_table *t, int np,
                     bool show_leader)
{
    view_pack_str(pk, "trick");
    meld_pack_trick(pk, t->trick, t->ntrick, t->leader, np);
    view_pack_str(pk, "leader");
    view_pack_seat(pk, show_leader ? t->leader : -1);
    view_pack_str(pk, "last_trick");
    meld_pack_trick(pk, t->last, t->last_leader == MELD_NO ? 0 : np,
                    t->last_leader, np);
}

void meld_observe_trick(float *out, const struct meld_table *t, int seat,
                        int np)
{
    /* Relative seats step by one from the leader's, wrapping at np: no
     * division per card. */
    int r = t->leader < seat ? t->leader - seat + np : t->leader - seat;
    for (int i = 0; i < t->ntrick; i++) {
        out[32 * r + t->trick[i]] = 1;
        r = r + 1 == np ? 0 : r + 1;
    }
}

MELD_WIDE
static void put_count_rows(float *restrict out, const uint8_t *const *rows,
                           int n, float inv)
{
    for (int i = 0; i < n; i++, out += MELD_FACES) {
        const uint8_t *restrict row = rows[i];
        for (int f = 0; f < MELD_FACES; f++)
            out[f] = row[f] * inv;
    }
}

#if MELD_X86_64
/* A row in two 64-byte stores, each sixteen bytes widened, converted and
 * scaled in three instructions. The compilers' vectorizers stay at 32
 * bytes even for AVX-512, hence the intrinsics; stores bound this work,
 * and half as many stores take well under half the time here. */
__attribute__((target("avx512f")))
static void put_count_rows_512(float *out, const uint8_t *const *rows, int n,
                               float inv)
{
    __m512 scale = _mm512_set1_ps(inv);
    for (int i = 0; i < n; i++, out += MELD_FACES) {
        for (int h = 0; h < MELD_FACES; h += 16) {
            __m128i b = _mm_loadu_si128((const __m128i *)(rows[i] + h));
            __m512 v = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(b));
            _mm512_storeu_ps(out + h, _mm512_mul_ps(v, scale));
        }
    }
}

void meld_put_count_rows(float *restrict out, const uint8_t *const *rows,
                         int n, float inv)
{
    if (obs_width_best() == OBS_WIDTH_64)
        put_count_rows_512(out, rows, n, inv);
    else
        put_count_rows(out, rows, n, inv);
}
#else
void meld_put_count_rows(float *restrict out, const uint8_t *const *rows,
                         int n, float inv)
{
    put_count_rows(out, rows, n, inv);
}
#endif

bool meld_redeal_fits(const uint8_t *known, const uint8_t *hidden,
                      const uint8_t *played, int trump, int value,
                      const uint8_t *shown,
                      int (*value_fn)(const uint8_t *h, int trump,
                                      uint8_t *shown))
{
    uint8_t h[MELD_FACES], got[MELD_FACES] = {0};
    for (int f = 0; f < MELD_FACES; f++)
        h[f] = (uint8_t)(known[f] + hidden[f] + played[f]);
    return value_fn(h, trump, got) == value &&
           !memcmp(got, shown, sizeof got);
}
