/* trick.h — pieces the Trix-pack trick games share, written once.
 *
 * Five small parts: seat arithmetic, sides and option lookup (inline, for
 * Trix, Gyp, Rover, Trix Football, Hilo, Magna and Forty-two); view
 * helpers (a Trix card, a set, an action history); the Forty-two core,
 * the state and steps Forty-two and Call Suit Forty-two have in common
 * (28 cards 0-0..6-6 as a 28-bit word, four seats in two sides); the
 * honor set of Hilo and Magna (Fives..Tens and Trixie as local ids
 * 0..51). Every struct here
 * is plain data that a game embeds in its state, so clones stay a memcpy.
 */
#ifndef PARLOR_TRICK_H
#define PARLOR_TRICK_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "trix_pack.h"

/* ==== seats and options ================================================ */

/* Integer value of option p of g. */
static inline int trick_opt(const struct game *g, int p)
{
    return (int)g->params.v[p];
}

/* Seats in play. */
static inline int trick_np(const struct game *g)
{
    return g->dims.players;
}

/* The seat after s (to its left) among n. */
static inline int trick_next(int s, int n)
{
    return s + 1 == n ? 0 : s + 1;
}

/* Place of seat s as seen from seat, among n (0: seat itself). */
static inline int trick_rel(int s, int seat, int n)
{
    return s < seat ? s - seat + n : s - seat;
}

/* The seat after s in g. */
static inline int trick_next_seat(const struct game *g, int s)
{
    return trick_next(s, g->dims.players);
}

/* Place of seat s as seen from seat in g (0: seat itself). */
static inline int trick_rel_seat(const struct game *g, int s, int seat)
{
    return trick_rel(s, seat, g->dims.players);
}

/* Sets out[c] = 1 for every card c of a one-word hand. */
static inline void trick_put_bits(float *out, uint64_t h)
{
    for (; h; h &= h - 1)
        out[__builtin_ctzll(h)] = 1;
}

/* Sets out[c] = 1 for every card c of a Trix hand. */
static inline void trick_put_trix(float *out, trix_hand_t h)
{
    trick_put_bits(out, h.lo);
    trick_put_bits(out + 64, h.hi);
}

/* Fills d's seats for n players, in two alternating sides (seats 0,2,..
 * v 1,3,..) when sides is true, else each alone, with a [0,1] tensor and
 * returns in [-1,1]; the caller sets actions, sizes and length. */
void trick_dims(struct game_dims *d, int n, bool sides);

/* Checks that sides (two alternating sides) has 4, 6 or 8 players.
 * Returns 0 or ERR_INVAL with a message. */
int trick_check_sides(int n, bool sides, char *err, size_t errlen);

/* Side t's score: the scores of its seats (dims.team) summed. */
static inline int trick_side_score(const struct game *g, const int32_t *score,
                                   int t)
{
    int sum = 0;
    for (int s = 0; s < g->dims.players; s++)
        if (g->dims.team[s] == t)
            sum += score[s];
    return sum;
}

/* The estimate op of a game whose sides race to target points: each
 * side's score (its seats' summed) as a lead over the best other side,
 * a fraction of target (game_estimate_lead) into out[players]. */
void trick_estimate(const struct game *g, const int32_t *score, double target,
                    double *out);

/* Whether a target-score game ends now (the rule of the Trix-pack games
 * raced to a target, e.g. docs/games/trix.md): when one side alone leads
 * side[0..n) with target or more, or anyway at the deals cap (capped).
 * *winner gets the leading side, or -1 when the lead is shared (a draw at
 * the cap). */
static inline bool trick_game_over(const int *side, int n, int target,
                                   bool capped, int *winner)
{
    *winner = game_sole_best(side, n);
    return capped || (*winner >= 0 && side[*winner] >= target);
}

/* ==== views ============================================================ */

/* Packs Trix card c by name ("7-3", "Trixie"). */
void trick_pack_trix_card(msgpack_packer *pk, int c);

/* Packs a set of Trix cards, trick[0..ntrick) played from seat leader on
 * among n seats, as [[seat, name], ...]. */
void trick_pack_set(msgpack_packer *pk, const uint8_t *trick, int ntrick,
                    int leader, int n);

/* Appends the same set as " seat:name" items to buf (text_appendf). */
void trick_describe_set(const uint8_t *trick, int ntrick, int leader, int n,
                        char *buf, size_t len, size_t *k);

/* Packs hist[0..n) ([seat, action] pairs) as [[seat, name], ...], each
 * action named by g's action_name in st. */
void trick_pack_history(const struct game *g, const void *st,
                        const uint8_t (*hist)[2], int n, msgpack_packer *pk);

/* ==== the Forty-two core =============================================== */

#define F42_NP 4
#define F42_CARDS 28
#define F42_SETS 7
#define F42_HIST 33 /* a hand's steps: 4 bids, a naming, 28 cards */

/* What both Forty-two games keep; each embeds it as its state's first
 * member and adds its own bidding or calling fields. */
struct f42_core {
    struct rng rng;
    uint32_t hand[F42_NP];
    uint32_t played;        /* cards of finished sets this hand (public) */
    uint32_t lacks[F42_NP]; /* cards each seat was seen not to hold */
    int32_t score[2];       /* per side: seats 0,2 and 1,3 */
    uint8_t dealer, turn, leader, ntrick, sets, winner, hands, nhist;
    uint8_t taken[2];          /* points taken this hand, per side */
    uint8_t trick[F42_NP];     /* the set in play, from its leader */
    uint8_t hist[F42_HIST][2]; /* this hand's [seat, action] */
};

/* The 28-card pack's codec (names and parsing as the Trix pack's). */
extern const struct card_codec f42_cards;

/* Side of seat: partners sit opposite. */
static inline int f42_side(int seat)
{
    return seat & 1;
}

/* Cards whose upper number (suit name) is n: a contiguous run of ids. */
static inline uint32_t f42_suit(int n)
{
    return ((1u << (n + 1)) - 1) << (n * (n + 1) / 2);
}

/* Deals a new hand from the dealer's left (deck[0] first, pre[] on top,
 * the rest from the core's RNG) and clears the hand's records; the
 * dealer's left is to act. Returns 0 or ERR_INVAL for a bad prefix. */
int f42_deal(struct f42_core *c, const uint8_t *pre, int npre);

/* Records action a by the seat to act in the hand's history. */
void f42_record(struct f42_core *c, int a);

/* Moves card x from the hand of the seat to act into the set; passes the
 * turn on and returns false, or returns true once all four have played. */
bool f42_place(struct f42_core *c, int x);

/* Closes a full set won by trick[best]: its points (1 a set plus the
 * count cards) to the winner's side, the winner to lead. Returns true
 * when that was the hand's seventh set. */
bool f42_close_set(struct f42_core *c, int best);

/* Fills the cards part of a tensor: hand (28), played (28), the set by
 * relative seat (4 x 28), 168 floats. */
void f42_observe_cards(const struct f42_core *c, int seat, float *out);

/* Packs a seat's hand as a list of names. */
void f42_pack_hand(msgpack_packer *pk, uint32_t h);

/* Packs "trick", "leader" (shown as given, -1 nil), "taken", "scores",
 * "hand_sizes" and "history" with their values. */
void f42_pack_play(const struct game *g, const struct f42_core *c, int leader,
                   msgpack_packer *pk);

/* Appends the scores and dealer line to buf (text_appendf rules). */
void f42_describe_scores(const struct f42_core *c, char *buf, size_t len,
                         size_t *k);

/* Appends the hands seat may see (seat -1: all). */
void f42_describe_hands(const struct f42_core *c, int seat, char *buf,
                        size_t len, size_t *k);

/* Appends ": " and the set in play, the points taken and who acts. */
void f42_describe_set(const struct f42_core *c, bool over, char *buf,
                      size_t len, size_t *k);

/* ==== the honor set of Hilo and Magna ================================== */

#define FT_MAXP 5
#define FT_CARDS 52 /* local ids: Trix 5-0..10-10 less 15, Trixie 51 */
#define FT_TRIXIE 51
#define FT_ALL ((hand_t)0xfffffffffffffull)

/* The set in play and the hands, which both games embed as "tb". */
struct ft_table {
    uint8_t n;              /* players */
    uint8_t turn;           /* seat to act */
    uint8_t leader;         /* seat leading the current set */
    uint8_t ntrick;         /* cards in the current set */
    uint8_t best;           /* index in trick[] of the winning card */
    uint8_t best_key;       /* its key */
    int8_t lead_suit;       /* suit to follow, -1 after a Trixie lead */
    uint8_t honor;          /* honor suit 5..10 (0: not named yet) */
    uint8_t trick[FT_MAXP]; /* current set's cards in play order */
    hand_t hand[FT_MAXP];   /* cards held */
    hand_t played[FT_MAXP]; /* cards each seat played this deal */
    hand_t cant[FT_MAXP];   /* cards publicly known not to be held */
    hand_t table;           /* cards in the current set */
};

/* Suit (upper number, 5..10) of local card c; -1 for Trixie. */
static inline int ft_suit(int c)
{
    return c < 6    ? 5
           : c < 13 ? 6
           : c < 21 ? 7
           : c < 30 ? 8
           : c < 40 ? 9
           : c < 51 ? 10
                    : -1;
}

/* Local id of the first card of suit s (5..10). */
static inline int ft_suit_first(int s)
{
    static const uint8_t first[11] = {0, 0, 0, 0, 0, 0, 6, 13, 21, 30, 40};
    return first[s];
}

/* Every card of suit s (5..10). */
static inline hand_t ft_suit_mask(int s)
{
    return (((hand_t)1 << (s + 1)) - 1) << ft_suit_first(s);
}

/* a + b of a-b; 0 for Trixie. */
static inline int ft_sum(int c)
{
    int s = ft_suit(c);
    return s < 0 ? 0 : s + c - ft_suit_first(s);
}

/* The local id of a-b. */
static inline int ft_card(int a, int b)
{
    return ft_suit_first(a) + b;
}

/* The Trix pack id of local card c, and back (-1 outside the 52). */
static inline int ft_trix_id(int c)
{
    return c == FT_TRIXIE ? TRIX_TRIXIE : c + 15;
}
static inline int ft_local(int id)
{
    return id == TRIX_TRIXIE ? FT_TRIXIE : id >= 15 && id <= 65 ? id - 15 : -1;
}

/* Fills deck with the 52 local ids for a first deal: the Trix ids
 * pre[0..npre) first, then the rest in id order. Returns 0 or ERR_INVAL
 * (a card outside Fives..Tens and Trixie, or one given twice). */
int ft_deck_start(uint8_t *deck, const uint8_t *pre, int npre);

/* Plays local card c for the seat to act, noting a shown void; passes
 * the turn on and returns false, or returns true when all have played
 * (trick[best] wins: the highest honor, else Trixie, else the highest of
 * the suit led). */
bool ft_play(struct ft_table *t, int c);

/* Writes local card c's name ("7-3", "Trixie"); returns its length. */
int ft_card_name(int c, char *buf, size_t len);

/* Packs local card c, and a hand, by name. */
void ft_pack_card(msgpack_packer *pk, int c);
void ft_pack_hand(msgpack_packer *pk, hand_t h);

/* Packs "trick" (as [seat, card] pairs) and "leader". */
void ft_pack_trick(const struct ft_table *t, msgpack_packer *pk);

/* Writes h's card names, space-separated, into buf. */
void ft_describe_hand(hand_t h, char *buf, size_t len);

/* Appends "set:" and the set in play as " seat:card" to buf. */
void ft_describe_set(const struct ft_table *t, char *buf, size_t len,
                     size_t *used);

#endif
