/* env.c — the environment of env.h: episode bookkeeping around one game.
 *
 * An env is one heap block: the struct, then the game state, the legal
 * masks of every seat, one observation and a list buffer for legal(), so
 * reset and step allocate nothing. Legality is checked against the masks
 * computed for the current timestep before anything moves, which is what
 * keeps an env untouched by an illegal action (opponent agents are not
 * even consulted).
 *
 * A step costs the game's apply, legal, returns and observe, plus the
 * masks (a few instructions per legal action) and about a hundred more:
 * legal() runs once per acting seat per timestep; the usual step (live,
 * multi-agent, one seat to act) goes straight to the game's apply and,
 * when the next timestep is again one seat's turn, writes it without the
 * general cases (step_solo); masks of a few words are built in registers
 * and stored whole (over a fixed count of list entries where a game has
 * few legal actions, so no loop end is mispredicted) while larger ones
 * are written without a branch per word and cleared only where their last
 * fill set bits (Casino's are 7 KB for a few set bits); the game
 * writes its returns into a spare buffer that becomes the current one;
 * and the error text is written only on a refusal. The observation may be
 * written straight into a caller's buffer (venv's batch rows), which
 * saves copying it, else into the env's own on a cache line.
 */
#include "env.h"

#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "../agents/agent.h"
#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"

/* The helpers of one step are forced inline: with the env's fields kept
 * in registers across them a step is 4% to 8% shorter (measured on
 * Spoil-Five, Dice and Call Suit Forty-two). */
#define HOT_INLINE static inline __attribute__((always_inline))

/* Masks of up to this many words are built on the stack and stored
 * whole; larger ones (Casino: 871 words, a few bits set) are cleared only
 * where their last fill set bits. */
#define ENV_SMALL_WORDS 4

/* Masks of up to this many words are filled word by word with a branch
 * where the word changes (Binokel's five), larger ones without (Casino's
 * 871, where it was mispredicted about once a word). */
#define ENV_DENSE_WORDS 64

/* Games with two to this many legal actions at once build one-word masks
 * over a fixed count of list entries (see fixed_word). With more, reading
 * them all cost more than the mispredicted loop end it saves (Call Suit
 * Forty-two, 14 at most and about 4 on average: 1.26 -> 1.32 x decision +
 * observe); Dice's one action needs no loop. */
#define ENV_FIXED_MAX 8

/* rewards() below is unrolled for up to 16 seats. */
_Static_assert(GAME_MAX_PLAYERS <= 16, "rewards() covers 8 reward pairs");

/* The env's own observation starts on a cache line: games that write it
 * with 32-byte stores (Spoil-Five) take a slower path on the 16-byte
 * boundaries heap blocks give (12 instructions a step more in Spoil-Five,
 * and each store across a line costs two). */
#define ENV_OBS_ALIGN 64

/* Mixed into the reset seed so opponents' streams differ from the deal's. */
#define ENV_OPPONENT_SALT 0x6f70706f6e656e74ull

enum env_phase {
    ENV_FRESH,  /* never reset */
    ENV_LIVE,   /* an episode is running: the caller must act */
    ENV_OVER,   /* terminated or truncated: reset to go on */
    ENV_BROKEN, /* an opponent failed mid-step: reset to go on */
};

struct env {
    struct game game;                /* the configured rules */
    struct env_shape shape;          /* sizes reported to the caller */
    int max_steps;                   /* steps per episode, 0: no cap */
    int cap;                         /* max_steps, or INT_MAX for none */
    int pairs;                       /* (players + 1) / 2: reward pairs */
    int fixed;                       /* list entries fixed_word reads (the
                                        game's max_legal), 0: not used */
    int solo;                        /* the seat whose env_step may take
                                        the short path (live, multi-agent,
                                        alone to act), else -1 */
    agent_t *opp[GAME_MAX_PLAYERS];  /* seat's agent; NULL: caller drives */
    enum env_phase phase;            /* where the episode stands */
    uint32_t to_move;                /* seats to act at this timestep */
    uint32_t last_actors;            /* seats that acted in the last move */
    uint32_t rows_set;               /* seats whose legal row may be set */
    int dirty_lo[GAME_MAX_PLAYERS];  /* first word a row's last fill set */
    int dirty_hi[GAME_MAX_PLAYERS];  /* one past its last such word */
    int list_seat;                   /* seat whose large row holds just the
                                        actions in list, else -1 */
    int list_n;                      /* how many actions list holds */
    int seat;                        /* observing seat of the timestep */
    int steps;                       /* env steps this episode */
    bool terminated, truncated;      /* end flags of the timestep */
    double *ret;                     /* game returns at the timestep: one
                                        of rets, the other holds them at
                                        the timestep before */
    double *prev;                    /* the other one of rets */
    double rets[2][GAME_MAX_PLAYERS]; /* returns now and one step back;
                                        entries from players on stay 0 */
    double reward[GAME_MAX_PLAYERS]; /* reward of the last step per seat */
    int joint[GAME_MAX_PLAYERS];     /* actions being applied, by seat */
    uint64_t *row[GAME_MAX_PLAYERS]; /* each seat's legal row in legal */
    void *state;                     /* the game state, inside mem */
    uint64_t *legal;                 /* players x mask_words, inside mem */
    float *obs;                      /* the seat's observation: own_obs or
                                        the caller's buffer */
    float *own_obs;                  /* the env's own, inside mem */
    int *list;                       /* max_legal actions, inside mem */
    char err[320];                   /* text of the last failure */
    alignas(max_align_t) unsigned char mem[]; /* state, masks, obs */
};

/* ---- construction ------------------------------------------------------ */

static size_t round_up(size_t n)
{
    size_t a = alignof(max_align_t);
    return (n + a - 1) / a * a;
}

static size_t state_bytes(const struct game *g)
{
    return round_up(g->def->state_size);
}

static size_t legal_bytes(const struct env_shape *s)
{
    return round_up((size_t)s->players * (size_t)s->mask_words * 8);
}

static int check_options(const struct game *g, const struct env_options *o,
                         char *err, size_t errlen)
{
    if (o->max_steps < 0)
        return err_set(err, errlen, ERR_RANGE,
                       "max_steps: %d is negative (0 means no cap)",
                       o->max_steps);
    bool single = o->opponents && o->opponents[0];
    if (single && (o->learner < 0 || o->learner >= g->dims.players))
        return err_set(err, errlen, ERR_RANGE,
                       "learner: seat %d does not exist in %s (seats 0..%d)",
                       o->learner, g->spec, g->dims.players - 1);
    return 0;
}

/* Copies item [from, to) of the opponent list into out, trimmed. */
static int copy_item(const char *from, const char *to, int idx, char *out,
                     char *err, size_t errlen)
{
    while (from < to && (*from == ' ' || *from == '\t'))
        from++;
    while (to > from && (to[-1] == ' ' || to[-1] == '\t'))
        to--;
    if (from == to)
        return err_set(err, errlen, ERR_SYNTAX,
                       "opponents: spec %d of the list is empty", idx + 1);
    if (to - from >= GAME_SPEC_MAX)
        return err_set(err, errlen, ERR_RANGE,
                       "opponents: spec %d is longer than %d characters",
                       idx + 1, GAME_SPEC_MAX - 1);
    memcpy(out, from, (size_t)(to - from));
    out[to - from] = '\0';
    return 0;
}

/* Splits list at the commas outside parentheses ("a(x=1,y=2),b") into at
 * most max items. Returns their number or a negative code. */
static int split_specs(const char *list, char (*items)[GAME_SPEC_MAX], int max,
                       char *err, size_t errlen)
{
    int n = 0, depth = 0;
    const char *start = list;
    for (const char *p = list;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p && (*p != ',' || depth > 0))
            continue;
        if (n == max)
            return err_set(err, errlen, ERR_RANGE,
                           "opponents: more than %d specs in '%s'", max, list);
        int rc = copy_item(start, p, n, items[n], err, errlen);
        if (rc)
            return rc;
        n++;
        if (!*p)
            return n;
        start = p + 1;
    }
}

/* Creates one agent per seat other than the learner from opts->opponents. */
static int make_opponents(env_t *e, const char *list, char *err, size_t errlen)
{
    char items[GAME_MAX_PLAYERS][GAME_SPEC_MAX];
    char sub[256];
    int players = e->shape.players;
    int n = split_specs(list, items, GAME_MAX_PLAYERS, err, errlen);
    if (n < 0)
        return n;
    if (n != 1 && n != players - 1)
        return err_set(err, errlen, ERR_INVAL,
                       "opponents: %d specs for the %d other seats of %s "
                       "(give one per seat, or one for all)",
                       n, players - 1, e->game.spec);
    for (int s = 0, k = 0; s < players; s++) {
        if (s == e->shape.learner)
            continue;
        const char *spec = items[n == 1 ? 0 : k++];
        e->opp[s] = agent_new(spec, &e->game, sub, sizeof sub);
        if (!e->opp[s])
            return err_set(err, errlen, ERR_INVAL,
                           "opponents: seat %d ('%s'): %s", s, spec, sub);
    }
    return 0;
}

int env_check_opponents(const char *list, const struct agent_limits *lim,
                        char *err, size_t errlen)
{
    char items[GAME_MAX_PLAYERS][GAME_SPEC_MAX];
    char sub[256];
    int n = split_specs(list, items, GAME_MAX_PLAYERS, err, errlen);
    for (int i = 0; i < n; i++) {
        int rc = agent_check_bounded(items[i], lim, sub, sizeof sub);
        if (rc)
            return err_set(err, errlen, rc, "opponents: spec %d ('%s'): %s",
                           i + 1, items[i], sub);
    }
    return n < 0 ? n : 0;
}

env_t *env_new_game(const struct game *g, const struct env_options *opts,
                    char *err, size_t errlen)
{
    static const struct env_options defaults = {0, NULL, 0};
    const struct env_options *o = opts ? opts : &defaults;
    if (check_options(g, o, err, errlen))
        return NULL;
    bool single = o->opponents && o->opponents[0];
    struct env_shape shape = {
        .players = g->dims.players,
        .num_actions = g->dims.num_actions,
        .mask_words = (g->dims.num_actions + 63) / 64,
        .obs_size = g->dims.obs_size,
        .learner = single ? o->learner : -1,
        .joint = (g->def->flags & GAME_SIMULTANEOUS) != 0,
    };
    size_t sb = state_bytes(g), lb = legal_bytes(&shape);
    size_t ob = round_up((size_t)shape.obs_size * sizeof(float)) +
                ENV_OBS_ALIGN;
    env_t *e = mem_alloc(sizeof *e + sb + lb + ob +
                         (size_t)g->dims.max_legal * sizeof(int));
    if (!e) {
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    e->game = *g;
    e->shape = shape;
    e->max_steps = o->max_steps;
    e->cap = o->max_steps > 0 ? o->max_steps : INT_MAX;
    e->pairs = (shape.players + 1) / 2;
    e->fixed = g->dims.max_legal >= 2 && g->dims.max_legal <= ENV_FIXED_MAX
                   ? g->dims.max_legal
                   : 0;
    e->solo = -1;
    e->list_seat = -1;
    e->ret = e->rets[0];
    e->prev = e->rets[1];
    e->state = e->mem;
    e->legal = (uint64_t *)(void *)(e->mem + sb);
    for (int s = 0; s < shape.players; s++)
        e->row[s] = e->legal + (size_t)s * (size_t)shape.mask_words;
    uintptr_t at = (uintptr_t)(e->mem + sb + lb);
    at = (at + ENV_OBS_ALIGN - 1) & ~(uintptr_t)(ENV_OBS_ALIGN - 1);
    e->obs = e->own_obs = (float *)at;
    e->list = (int *)(void *)(e->mem + sb + lb + ob);
    if (single && make_opponents(e, o->opponents, err, errlen))
        env_destroy(&e);
    return e;
}

env_t *env_new(const char *spec, const struct env_options *opts, char *err,
               size_t errlen)
{
    struct game g;
    if (!spec)
        return err_set(err, errlen, ERR_INVAL, "no game spec given"), NULL;
    if (game_make(&g, spec, err, errlen))
        return NULL;
    return env_new_game(&g, opts, err, errlen);
}

void env_destroy(env_t **e)
{
    if (!e || !*e)
        return;
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        agent_destroy(&(*e)->opp[s]);
    mem_free(*e);
    *e = NULL;
}

/* ---- stepping ---------------------------------------------------------- */

static bool is_single(const env_t *e)
{
    return e->shape.learner >= 0;
}

static uint32_t game_to_move(const env_t *e)
{
    return e->game.def->to_move(&e->game, e->state);
}

static uint64_t *legal_row(const env_t *e, int seat)
{
    return e->row[seat];
}

/* Applies e->joint for the seats in m, all checked against this
 * timestep's masks: the game's own apply, without a second legal(). */
static int apply_checked(env_t *e, uint32_t m)
{
    const struct game *g = &e->game;
    if (m & (m - 1))
        return g->def->apply_joint(g, e->state, e->joint);
    return g->def->apply(g, e->state, e->joint[__builtin_ctz(m)]);
}

/* Asks the agents of the acting seats in m for their actions (the
 * caller's own seats are already in e->joint, checked against the masks)
 * and applies them; an agent's action is checked by game_apply. */
static int apply_with_agents(env_t *e, uint32_t m)
{
    bool agents = false;
    for (uint32_t r = m; r; r &= r - 1) {
        int s = __builtin_ctz(r);
        if (!e->opp[s])
            continue;
        agents = true;
        int rc = agent_act(e->opp[s], e->state, s, &e->joint[s]);
        if (rc)
            return err_set(e->err, sizeof e->err, rc,
                           "opponent %s at seat %d failed: %s",
                           agent_spec(e->opp[s]), s, err_str(rc));
    }
    int rc = !agents         ? apply_checked(e, m)
             : (m & (m - 1)) ? game_apply_joint(&e->game, e->state, e->joint)
                             : game_apply(&e->game, e->state, __builtin_ctz(m),
                                          e->joint[__builtin_ctz(m)]);
    if (rc)
        return err_set(e->err, sizeof e->err, rc,
                       "an opponent's move (seats 0x%x to act) was "
                       "refused: %s",
                       m, err_str(rc));
    e->last_actors = m;
    return 0;
}

/* Single-agent: plays the opponents until the learner acts or the end. */
static int play_opponents(env_t *e)
{
    uint32_t m;
    while ((m = game_to_move(e)) && !((m >> e->shape.learner) & 1)) {
        int rc = apply_with_agents(e, m);
        if (rc)
            return rc;
    }
    return 0;
}

/* bits with bit a & 63 set. On x86 that is one bts instruction, where
 * the shift of a variable count that C's form compiles to takes three
 * (and two more moves); masks are built from every legal action of every
 * step, up to 32 a step in Trix Football. */
#if defined(__GNUC__) && defined(__x86_64__)
HOT_INLINE uint64_t with_bit(uint64_t bits, int a)
{
    __asm__("btsq %1, %0" : "+r"(bits) : "r"((uint64_t)a) : "cc");
    return bits;
}
#else
HOT_INLINE uint64_t with_bit(uint64_t bits, int a)
{
    return bits | (uint64_t)1 << (a & 63);
}
#endif

/* The one-word mask of the actions list[0..n), any of 0..63, four at a
 * time into two independent words. */
HOT_INLINE uint64_t word_of(const int *list, int n)
{
    uint64_t a = 0, b = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        a = with_bit(a, list[i]);
        b = with_bit(b, list[i + 1]);
        a = with_bit(a, list[i + 2]);
        b = with_bit(b, list[i + 3]);
    }
    for (; i < n; i++)
        a = with_bit(a, list[i]);
    return a | b;
}

/* Writes the two-word mask of the actions list[0..n), any of 0..127,
 * into row. Each action's bit goes to one word or the other by a mask,
 * not by a branch: where the actions cross from the first word into the
 * second varies from step to step, and a branch there was mispredicted
 * about once a step (an eighth of Spoil-Five's env_step time). */
HOT_INLINE void two_words(uint64_t *row, const int *list, int n)
{
    uint64_t lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        uint64_t bit = with_bit(0, list[i]);
        uint64_t high = (uint64_t)0 - (uint64_t)((list[i] >> 6) & 1);
        hi |= bit & high;
        lo |= bit & ~high;
    }
    row[0] = lo;
    row[1] = hi;
}

/* The one-word mask of the actions list[0..n), 0 < n <= count, any of
 * 0..63, read over count entries: those from n on read list[n - 1] again,
 * which sets no new bit. The loop runs count times whatever n is, so its
 * end is always predicted, where a loop to n, which changes from step to
 * step (1 to 5 in Spoil-Five), was mispredicted about once a step. */
HOT_INLINE uint64_t fixed_word(const int *list, int n, int count)
{
    uint64_t a = 0, b = 0;
    int i = 0;
    for (; i + 2 <= count; i += 2) {
        a = with_bit(a, list[i < n ? i : n - 1]);
        b = with_bit(b, list[i + 1 < n ? i + 1 : n - 1]);
    }
    if (i < count)
        a = with_bit(a, list[i < n ? i : n - 1]);
    return a | b;
}

/* A small row's words when its seat does not act. */
static const uint64_t zero_words[ENV_SMALL_WORDS];

/* Stores words w[0..words) of a small mask into row, without a call. */
HOT_INLINE void store_small(uint64_t *row, const uint64_t *w, int words)
{
    row[0] = w[0];
    if (words > 1)
        row[1] = w[1];
    if (words > 2)
        row[2] = w[2];
    if (words > 3)
        row[3] = w[3];
}

/* Writes seat's small row whole from one legal() call, word by word
 * straight into the row, so nothing is cleared first. Each word's bits
 * gather in a register; as legal() lists actions in ascending order
 * (conformance checks it), a word's actions come together. (Gathering
 * into words on the stack, indexed by action, cost Spoil-Five a fifth of
 * env_step's time in loads waiting for the stores before them.) */
HOT_INLINE void fill_small(env_t *e, int seat, bool solo)
{
    const struct game *g = &e->game;
    const int *list = e->list;
    uint64_t *row = legal_row(e, seat);
    int words = e->shape.mask_words;
    int n = g->def->legal(g, e->state, seat, e->list), i = 0;
    if (solo && e->fixed && n > 0 && words <= 2 && list[n - 1] < 64) {
        /* Ascending, so all in the first word (Spoil-Five: 98% of its
         * steps). Only on the short path: in settle's loop over the seats
         * the extra case cost Trix Football (simultaneous, 32 actions at
         * most) 2% of a decision + observe. */
        row[0] = fixed_word(list, n, e->fixed);
        if (words == 2)
            row[1] = 0;
        return;
    }
    if (words == 1) {
        row[0] = word_of(list, n);
        return;
    }
    if (words == 2) {
        two_words(row, list, n);
        return;
    }
    for (int k = 0, lim = 64; k < words; k++, lim += 64) {
        uint64_t bits = 0;
        for (; i < n && list[i] < lim; i++)
            bits = with_bit(bits, list[i]);
        row[k] = bits;
    }
}

/* Zeroes the words of seat's (large) row that its last fill set: through
 * the list when it still holds that fill's actions and they are fewer
 * than the words of the span between the first and the last (a store per
 * action, where Casino's span can run to hundreds of words), else over
 * the span (Binokel's five words for up to 134 actions). */
HOT_INLINE void clear_row(env_t *e, int seat)
{
    uint64_t *row = legal_row(e, seat);
    int lo = e->dirty_lo[seat], hi = e->dirty_hi[seat];
    if (e->list_seat == seat && e->list_n < hi - lo) {
        for (int i = 0; i < e->list_n; i++)
            row[e->list[i] >> 6] = 0;
    } else if (hi > lo) {
        memset(row + lo, 0, (size_t)(hi - lo) * 8);
    }
    e->list_seat = -1;
    e->dirty_lo[seat] = e->dirty_hi[seat] = 0;
}

/* Sets row's bits for the actions list[0..n), n > 0, gathering a word's
 * bits in a register while the actions stay in it (they come in ascending
 * order; any order stays correct), and notes the span of words set. For
 * masks of a few words, where the word changes a few times a step. */
HOT_INLINE void dense_fill(env_t *e, int seat, uint64_t *row, int n)
{
    const int *list = e->list;
    int w = list[0] >> 6, lo = w, hi = w;
    uint64_t bits = 0;
    for (int i = 0; i < n; i++) {
        if (list[i] >> 6 != w) {
            row[w] |= bits;
            bits = 0;
            w = list[i] >> 6;
            lo = w < lo ? w : lo;
            hi = w > hi ? w : hi;
        }
        bits = with_bit(bits, list[i]);
    }
    row[w] |= bits;
    e->dirty_lo[seat] = lo;
    e->dirty_hi[seat] = hi + 1;
}

/* Fills seat's large row from one legal() call, after clearing what the
 * last fill set (the row is all zero elsewhere), and notes the span of
 * words this fill sets. In a sparse mask (Casino) each action stores its
 * word's bits so far, those of the actions before it in the same word
 * included: no branch where the word changes, which was mispredicted
 * about once a word there. That needs the actions in ascending order, as
 * legal() lists them; a list that goes back to an earlier word would have
 * dropped bits, so it is noted and its bits are then or-ed in one by
 * one. */
HOT_INLINE void fill_row(env_t *e, int seat)
{
    const struct game *g = &e->game;
    const int *list = e->list;
    uint64_t *row = legal_row(e, seat);
    clear_row(e, seat);
    int n = g->def->legal(g, e->state, seat, e->list);
    e->list_seat = seat;
    e->list_n = n > 0 ? n : 0;
    if (n <= 0)
        return;
    if (e->shape.mask_words <= ENV_DENSE_WORDS) {
        dense_fill(e, seat, row, n);
        return;
    }
    int w = list[0] >> 6, lo = w, hi = w;
    bool back = false;
    uint64_t bits = 0;
    for (int i = 0; i < n; i++) {
        int now = list[i] >> 6;
        bits &= (uint64_t)0 - (uint64_t)(now == w);
        bits = with_bit(bits, list[i]);
        row[now] = bits;
        back |= now < w;
        w = now;
        lo = now < lo ? now : lo;
        hi = now > hi ? now : hi;
    }
    for (int i = 0; back && i < n; i++)
        row[list[i] >> 6] |= with_bit(0, list[i]);
    e->dirty_lo[seat] = lo;
    e->dirty_hi[seat] = hi + 1;
}

/* Computes the observing seat, its observation and the legal masks, m
 * being the game's seats to act. The
 * end flags are worked out in locals and stored once, not read back from
 * the struct right after two byte stores (a wider load of two narrow
 * stores cannot be forwarded from the store buffer). */
HOT_INLINE void settle(env_t *e, uint32_t m)
{
    const struct game *g = &e->game;
    bool over = m == 0;
    bool cut = !over && e->steps >= e->cap;
    e->terminated = over;
    e->truncated = cut;
    e->phase = over || cut ? ENV_OVER : ENV_LIVE;
    if (is_single(e))
        e->seat = e->shape.learner;
    else if (m)
        e->seat = __builtin_ctz(m);
    else
        e->seat = e->last_actors ? __builtin_ctz(e->last_actors) : 0;
    /* A truncated episode is over for the caller: nobody is to act and
     * every mask is empty, although the game itself goes on (seat still
     * names the seat that would act, whose observation a learner may
     * bootstrap from). */
    if (cut)
        m = 0;
    e->to_move = m;
    e->solo = m && !(m & (m - 1)) && !is_single(e) ? e->seat : -1;
    if (is_single(e))
        m &= 1u << e->shape.learner;
    bool small = e->shape.mask_words <= ENV_SMALL_WORDS;
    for (uint32_t r = e->rows_set & ~m; r; r &= r - 1) {
        if (small)
            store_small(legal_row(e, __builtin_ctz(r)), zero_words,
                        e->shape.mask_words);
        else
            clear_row(e, __builtin_ctz(r));
    }
    e->rows_set = m;
    for (; m; m &= m - 1) {
        if (small)
            fill_small(e, __builtin_ctz(m), false);
        else
            fill_row(e, __builtin_ctz(m));
    }
    g->def->observe(g, e->state, e->seat, e->obs);
}

/* Two doubles, so that rewards are worked out two seats at a time. */
typedef double env_pair __attribute__((vector_size(16)));

/* reward[i..i+1] = now[i..i+1] - was[i..i+1]. */
HOT_INLINE void reward_pair(double *reward, const double *now,
                            const double *was, int i)
{
    env_pair x, y;
    memcpy(&x, now + i, sizeof x);
    memcpy(&y, was + i, sizeof y);
    x -= y;
    memcpy(reward + i, &x, sizeof x);
}

/* Takes the returns after a move: the game writes them straight into the
 * spare buffer, which then becomes the current one, so nothing is copied.
 * The rewards are worked out later, by rewards(). */
HOT_INLINE void take_returns(env_t *e)
{
    double *now = e->prev;
    e->prev = e->ret;
    e->ret = now;
    e->game.def->returns(&e->game, e->state, now);
}

/* The rewards of the step: the returns take_returns took minus those of
 * the timestep before, two seats at a time, unrolled (a loop re-read the
 * count after every store: 10 instructions a pair, not 4); entries past
 * the last seat are zero in both buffers. Called once the timestep is
 * settled, not right after the game stored the returns a double at a
 * time: a 16-byte load of two such fresh stores cannot be forwarded from
 * the store buffer and waits for them to reach the cache, which took a
 * quarter of env_step's time in Spoil-Five. */
HOT_INLINE void rewards(env_t *e)
{
    const double *now = e->ret, *was = e->prev;
    double *r = e->reward;
    if (e->pairs <= 2) {
        /* Most tables: seats 2 and 3 are computed whether they exist or
         * not (0 - 0 where not), which saves the jump below. */
        reward_pair(r, now, was, 0);
        reward_pair(r, now, was, 2);
        return;
    }
    switch (e->pairs) {
    case 8: reward_pair(r, now, was, 14); /* fall through */
    case 7: reward_pair(r, now, was, 12); /* fall through */
    case 6: reward_pair(r, now, was, 10); /* fall through */
    case 5: reward_pair(r, now, was, 8);  /* fall through */
    case 4: reward_pair(r, now, was, 6);  /* fall through */
    case 3: reward_pair(r, now, was, 4);  /* fall through */
    case 2: reward_pair(r, now, was, 2);  /* fall through */
    default: reward_pair(r, now, was, 0);
    }
}

static void fill(const env_t *e, struct env_timestep *ts)
{
    if (!ts)
        return;
    ts->to_move = e->to_move;
    ts->seat = e->seat;
    ts->obs = e->obs;
    ts->legal = legal_row(e, e->seat);
    ts->legal_all = e->legal;
    ts->reward = e->reward;
    ts->returns = e->ret;
    ts->terminated = e->terminated;
    ts->truncated = e->truncated;
    ts->steps = e->steps;
}

int env_reset(env_t *e, uint64_t seed, struct env_timestep *ts)
{
    e->err[0] = '\0';
    e->phase = ENV_BROKEN;
    e->solo = -1;
    int rc = game_init(&e->game, e->state, seed, NULL, 0);
    if (rc)
        return err_set(e->err, sizeof e->err, rc,
                       "%s: could not start a game: %s", e->game.spec,
                       err_str(rc));
    for (int s = 0; s < e->shape.players; s++)
        if (e->opp[s])
            agent_reseed(e->opp[s],
                         rng_derive(seed ^ ENV_OPPONENT_SALT, (uint64_t)s));
    e->steps = 0;
    e->last_actors = 0;
    if (is_single(e) && (rc = play_opponents(e)))
        return rc;
    memset(e->reward, 0, sizeof e->reward);
    memset(e->rets, 0, sizeof e->rets);
    settle(e, game_to_move(e));
    /* The episode's result starts from zero: what happened inside reset
     * (a deal that already scores, opponents' moves) is credited by the
     * first step's reward, so the rewards sum to the final returns. A deal
     * that ends the game at once has no step: it shows its result. */
    if (e->terminated)
        e->game.def->returns(&e->game, e->state, e->ret);
    fill(e, ts);
    return 0;
}

/* Refuses to step when no episode is running. */
static int check_live(env_t *e)
{
    static const char *const why[] = {
        [ENV_FRESH] = "no episode yet: call reset first",
        [ENV_OVER] = "the episode is over (terminated or truncated): reset",
        [ENV_BROKEN] = "the episode was abandoned after a failure: reset",
    };
    e->err[0] = '\0';
    if (e->phase == ENV_LIVE)
        return 0;
    return err_set(e->err, sizeof e->err, ERR_STATE, "%s", why[e->phase]);
}

/* Writes why action is refused for seat; returns ERR_ILLEGAL_ACTION. */
static int __attribute__((noinline, cold))
refuse_action(env_t *e, int seat, int action)
{
    const uint64_t *row = legal_row(e, seat);
    int n =
        snprintf(e->err, sizeof e->err,
                 "action %d is not legal for seat %d (legal:", action, seat);
    int shown = 0;
    for (int a = 0; a < e->shape.num_actions && shown < 12; a++) {
        if (!((row[a >> 6] >> (a & 63)) & 1) || n >= (int)sizeof e->err)
            continue;
        n += snprintf(e->err + n, sizeof e->err - (size_t)n, " %d", a);
        shown++;
    }
    if (n < (int)sizeof e->err)
        snprintf(e->err + n, sizeof e->err - (size_t)n, "%s)",
                 shown == 12 ? " ..." : "");
    return ERR_ILLEGAL_ACTION;
}

/* Checks action against seat's mask of the current timestep. */
static inline int check_action(env_t *e, int seat, int action)
{
    const uint64_t *row = legal_row(e, seat);
    if (action >= 0 && action < e->shape.num_actions &&
        ((row[action >> 6] >> (action & 63)) & 1))
        return 0;
    return refuse_action(e, seat, action);
}

int env_check_step(env_t *e, int action)
{
    int rc = check_live(e);
    if (rc)
        return rc;
    if (is_single(e))
        return check_action(e, e->shape.learner, action);
    if (e->to_move & (e->to_move - 1))
        return err_set(e->err, sizeof e->err, ERR_STATE,
                       "%d seats act at once (mask 0x%x): use the joint step",
                       __builtin_popcount(e->to_move), e->to_move);
    return check_action(e, __builtin_ctz(e->to_move), action);
}

int env_check_joint(env_t *e, const int *actions)
{
    if (is_single(e))
        return err_set(e->err, sizeof e->err, ERR_INVAL,
                       "single-agent env: the learner steps alone");
    int rc = check_live(e);
    for (uint32_t m = e->to_move; m && !rc; m &= m - 1)
        rc = check_action(e, __builtin_ctz(m), actions[__builtin_ctz(m)]);
    return rc;
}

/* Ends a step: a failure mid-move abandons the episode. */
HOT_INLINE int finish(env_t *e, int rc, struct env_timestep *ts)
{
    if (rc) {
        e->phase = ENV_BROKEN;
        e->solo = -1;
        return rc;
    }
    e->steps++;
    take_returns(e);
    settle(e, game_to_move(e));
    rewards(e);
    fill(e, ts);
    return 0;
}

/* Reports the game's refusal of an action it was given as legal. */
static int __attribute__((noinline, cold))
refused_by_game(env_t *e, int rc, int seat, int action)
{
    e->phase = ENV_BROKEN;
    e->solo = -1;
    return err_set(e->err, sizeof e->err, rc,
                   "seat %d's action %d was refused by the game: %s", seat,
                   action, err_str(rc));
}

/* The common step: live, multi-agent, seat alone to act. The action goes
 * straight to the game's apply, and when the next timestep is again one
 * seat's live turn (no end, no cap, no simultaneous move) it is written
 * here with what is known, without settle's general cases. */
HOT_INLINE int step_solo(env_t *e, int seat, int action,
                         struct env_timestep *ts)
{
    const struct game *g = &e->game;
    const uint64_t *row = legal_row(e, seat);
    if ((unsigned)action >= (unsigned)e->shape.num_actions ||
        !((row[action >> 6] >> (action & 63)) & 1))
        return refuse_action(e, seat, action);
    e->err[0] = '\0';
    int rc = g->def->apply(g, e->state, action);
    if (rc)
        return refused_by_game(e, rc, seat, action);
    int steps = ++e->steps;
    take_returns(e);
    uint32_t m = g->def->to_move(g, e->state);
    if (__builtin_popcount(m) != 1 || steps >= e->cap) {
        /* Only settle reads last_actors (when the game is over). */
        e->last_actors = 1u << seat;
        settle(e, m);
        rewards(e);
        fill(e, ts);
        return 0;
    }
    int next = __builtin_ctz(m);
    e->to_move = m;
    e->seat = next;
    e->solo = next;
    e->rows_set = m;
    if (e->shape.mask_words <= ENV_SMALL_WORDS) {
        if (next != seat)
            store_small(legal_row(e, seat), zero_words, e->shape.mask_words);
        fill_small(e, next, true);
    } else {
        if (next != seat)
            clear_row(e, seat);
        fill_row(e, next);
    }
    g->def->observe(g, e->state, next, e->obs);
    rewards(e);
    if (ts) {
        ts->to_move = m;
        ts->seat = next;
        ts->obs = e->obs;
        ts->legal = legal_row(e, next);
        ts->legal_all = e->legal;
        ts->reward = e->reward;
        ts->returns = e->ret;
        ts->terminated = false;
        ts->truncated = false;
        ts->steps = steps;
    }
    return 0;
}

int env_step(env_t *e, int action, struct env_timestep *ts)
{
    int seat = e->solo;
    if (seat >= 0)
        return step_solo(e, seat, action, ts);
    int rc = env_check_step(e, action);
    if (rc)
        return rc;
    seat = is_single(e) ? e->shape.learner : __builtin_ctz(e->to_move);
    e->joint[seat] = action;
    rc = apply_with_agents(e, e->to_move);
    if (!rc && is_single(e))
        rc = play_opponents(e);
    return finish(e, rc, ts);
}

/* Multi-agent only, so no agent acts: the checked actions go straight to
 * the game. */
int env_step_joint(env_t *e, const int *actions, struct env_timestep *ts)
{
    const struct game *g = &e->game;
    int rc = env_check_joint(e, actions);
    if (rc)
        return rc;
    uint32_t m = e->to_move;
    rc = m & (m - 1) ? g->def->apply_joint(g, e->state, actions)
                     : g->def->apply(g, e->state, actions[__builtin_ctz(m)]);
    if (rc)
        rc = err_set(e->err, sizeof e->err, rc,
                     "the game refused the actions of seats 0x%x: %s", m,
                     err_str(rc));
    e->last_actors = m;
    return finish(e, rc, ts);
}

/* ---- queries ----------------------------------------------------------- */

int env_observe(env_t *e, int seat, float *out)
{
    e->err[0] = '\0';
    if (seat < 0 || seat >= e->shape.players)
        return err_set(e->err, sizeof e->err, ERR_RANGE,
                       "seat %d does not exist (seats 0..%d)", seat,
                       e->shape.players - 1);
    if (e->phase == ENV_FRESH)
        return err_set(e->err, sizeof e->err, ERR_STATE,
                       "no episode yet: call reset first");
    e->game.def->observe(&e->game, e->state, seat, out);
    return 0;
}

void env_set_obs_buffer(env_t *e, float *out)
{
    float *to = out ? out : e->own_obs;
    if (to != e->obs && e->phase != ENV_FRESH)
        memcpy(to, e->obs, (size_t)e->shape.obs_size * sizeof(float));
    e->obs = to;
}

int env_timestep(const env_t *e, struct env_timestep *ts)
{
    if (e->phase == ENV_FRESH || e->phase == ENV_BROKEN)
        return ERR_STATE;
    fill(e, ts);
    return 0;
}

const struct env_shape *env_shape(const env_t *e)
{
    return &e->shape;
}

const struct game *env_game(const env_t *e)
{
    return &e->game;
}

const void *env_state(const env_t *e)
{
    return e->phase == ENV_FRESH ? NULL : e->state;
}

const char *env_opponent(const env_t *e, int seat)
{
    if (seat < 0 || seat >= e->shape.players || !e->opp[seat])
        return NULL;
    return agent_spec(e->opp[seat]);
}

const char *env_errmsg(const env_t *e)
{
    return e->err;
}
