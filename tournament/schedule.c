/* schedule.c — line-ups (all combinations, covering multisets, or a
 * balanced sample per deal), rotations and shards; see schedule.h. */
#include "schedule.h"

#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"
#include "roster.h"

#define SAMPLE_SALT 0x6c696e6575707321ull /* separates sample from deals */

/* ---- counting and enumerating ----------------------------------------- */

/* C(n, k), or -1 once it exceeds limit. */
static int64_t choose(int n, int k, int64_t limit)
{
    int64_t c = 1;
    for (int i = 1; i <= k; i++) {
        c = c * (n - k + i) / i; /* exact: c * (n-k+i) is divisible by i */
        if (c > limit)
            return -1;
    }
    return c;
}

/* The number of line-ups a full enumeration has, or -1 above limit:
 * combinations for n >= m, covering sequences (C(m-1, n-1)) for n < m. */
static int64_t full_count(int n, int m, int64_t limit)
{
    return n >= m ? choose(n, m, limit) : choose(m - 1, n - 1, limit);
}

/* Writes the next combination of m out of n after cur (ascending);
 * returns false after the last. */
static bool next_combination(int8_t *cur, int n, int m)
{
    int i = m - 1;
    while (i >= 0 && cur[i] == n - m + i)
        i--;
    if (i < 0)
        return false;
    cur[i]++;
    for (int j = i + 1; j < m; j++)
        cur[j] = (int8_t)(cur[j - 1] + 1);
    return true;
}

/* Writes the next non-decreasing sequence of m that starts at 0, steps
 * by 0 or 1 and ends at n-1 (that is, uses all n agents); false after the
 * last. Such a sequence is fixed by the places where it steps up. */
static bool next_covering(int8_t *cur, int n, int m)
{
    /* Walk the step positions as a combination of n-1 out of m-1. */
    int8_t steps[GAME_MAX_PLAYERS];
    int k = 0;
    for (int i = 1; i < m; i++)
        if (cur[i] != cur[i - 1])
            steps[k++] = (int8_t)(i - 1);
    if (!next_combination(steps, m - 1, n - 1))
        return false;
    for (int i = 1, s = 0; i < m; i++) {
        bool up = s < n - 1 && steps[s] == i - 1;
        cur[i] = (int8_t)(cur[i - 1] + up);
        s += up;
    }
    return true;
}

/* The first line-up: 0 1 2 ... (m of n), or 0 1 ... n-1 n-1 ... (n < m:
 * steps at the first places, the first combination of step places). */
static void first_lineup(int8_t *cur, int n, int m)
{
    for (int i = 0; i < m; i++)
        cur[i] = (int8_t)(i < n ? i : n - 1);
}

static void enumerate(struct schedule *s)
{
    int n = s->agents, m = s->sides;
    int8_t *cur = s->lineup;
    first_lineup(cur, n, m);
    for (int l = 1; l < s->lineups; l++) {
        memcpy(cur + m, cur, (size_t)m);
        cur += m;
        if (n >= m)
            next_combination(cur, n, m);
        else
            next_covering(cur, n, m);
    }
}

/* ---- sampling ---------------------------------------------------------- */

static bool in_block(const int8_t *block, int len, int8_t a)
{
    for (int i = 0; i < len; i++)
        if (block[i] == a)
            return true;
    return false;
}

/* Fills out with L line-ups of m different agents out of n > m for one
 * deal: consecutive blocks of a stream of random permutations. A block
 * that runs into a fresh permutation swaps an agent it already holds for
 * a later one of that permutation, which keeps every permutation whole
 * (so places stay balanced) and the block free of repeats. */
static void sample_deal(const struct schedule *s, int64_t deal, int8_t *out)
{
    int n = s->agents, m = s->sides, p = n;
    int8_t perm[256];
    struct rng rng;
    rng_seed(&rng, rng_derive(s->seed ^ SAMPLE_SALT, (uint64_t)deal));
    for (int l = 0; l < s->lineups; l++) {
        int8_t *block = out + (size_t)l * (size_t)m;
        for (int k = 0; k < m; k++, p++) {
            if (p == n) {
                for (int i = 0; i < n; i++)
                    perm[i] = (int8_t)i;
                rng_shuffle_u8(&rng, (uint8_t *)perm, n);
                p = 0;
            }
            int q = p;
            while (in_block(block, k, perm[q]))
                q++; /* n - p > k - p entries remain, not all in block */
            int8_t t = perm[q];
            perm[q] = perm[p];
            perm[p] = t;
            block[k] = t;
        }
    }
}

/* ---- API --------------------------------------------------------------- */

uint64_t schedule_deal_seed(uint64_t master, int64_t deal)
{
    return rng_derive(master, (uint64_t)deal);
}

uint64_t schedule_agent_seed(uint64_t deal_seed, int seat)
{
    return rng_derive(deal_seed, (uint64_t)seat + 1);
}

static int check_args(const struct game *g, int agents, int64_t deals,
                      int max_lineups, char *err, size_t errlen)
{
    if (agents < 2 || agents > ROSTER_MAX)
        return err_set(err, errlen, ERR_RANGE,
                       "a tournament takes 2 to %d agents, got %d", ROSTER_MAX,
                       agents);
    if (deals < 1 || deals > SCHEDULE_DEALS_MAX)
        return err_set(err, errlen, ERR_RANGE,
                       "deals must be 1 to %lld, got %lld",
                       (long long)SCHEDULE_DEALS_MAX, (long long)deals);
    if (max_lineups < 1 || max_lineups > SCHEDULE_LINEUPS_MAX)
        return err_set(err, errlen, ERR_RANGE,
                       "line-ups per deal must be 1 to %d, got %d",
                       SCHEDULE_LINEUPS_MAX, max_lineups);
    if (g->dims.teams < 2)
        return err_set(err, errlen, ERR_INVAL,
                       "%s has fewer than two sides: nothing to rate", g->spec);
    return 0;
}

int schedule_init(struct schedule *s, const struct game *g, int agents,
                  int64_t deals, int max_lineups, uint64_t seed, char *err,
                  size_t errlen)
{
    memset(s, 0, sizeof *s);
    int rc = check_args(g, agents, deals, max_lineups, err, errlen);
    if (rc)
        return rc;
    s->agents = agents;
    s->seats = g->dims.players;
    s->sides = g->dims.teams;
    memcpy(s->side_of, g->dims.team, sizeof s->side_of);
    s->deals = deals;
    s->seed = seed;
    int64_t full = full_count(agents, s->sides, max_lineups);
    s->sampled = full < 0;
    s->lineups = s->sampled ? max_lineups : (int)full;
    if ((double)deals * s->lineups * s->sides > (double)SCHEDULE_GAMES_MAX)
        return err_set(err, errlen, ERR_RANGE,
                       "too many games: %lld deals x %d line-ups x %d "
                       "rotations is over %lld",
                       (long long)deals, s->lineups, s->sides,
                       (long long)SCHEDULE_GAMES_MAX);
    s->games = deals * s->lineups * s->sides;
    if (s->sampled)
        return 0;
    s->lineup = mem_alloc((size_t)s->lineups * (size_t)s->sides);
    if (!s->lineup)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    enumerate(s);
    return 0;
}

void schedule_fini(struct schedule *s)
{
    mem_free(s->lineup);
    s->lineup = NULL;
}

int schedule_cursor_init(struct schedule_cursor *c, const struct schedule *s)
{
    memset(c, 0, sizeof *c);
    c->deal = -1;
    c->after = -1;
    if (!s->sampled)
        return 0;
    c->lineup = mem_alloc((size_t)s->lineups * (size_t)s->sides);
    return c->lineup ? 0 : ERR_NOMEM;
}

void schedule_cursor_fini(struct schedule_cursor *c)
{
    mem_free(c->lineup);
    c->lineup = NULL;
}

/* Fills out's index, deal, line-up, rotation and seed. The game after
 * the cursor's last one is counted on from it: the divisions (64-bit,
 * tens of cycles each) were a fifth of a worker's own cost per quick
 * game, and workers claim runs of consecutive indexes. */
static void locate(const struct schedule *s, struct schedule_cursor *c,
                   int64_t index, struct schedule_game *out)
{
    out->index = index;
    if (c && index == c->after) {
        out->deal = c->last_deal;
        out->lineup = c->last_lineup;
        out->rotation = c->last_rotation + 1;
        out->seed = c->last_seed;
        if (out->rotation == s->sides) {
            out->rotation = 0;
            out->lineup++;
        }
        if (out->lineup == s->lineups) {
            out->lineup = 0;
            out->deal++;
            out->seed = schedule_deal_seed(s->seed, out->deal);
        }
    } else {
        int64_t set = index / s->sides;
        out->rotation = (int)(index % s->sides);
        out->lineup = (int)(set % s->lineups);
        out->deal = set / s->lineups;
        out->seed = schedule_deal_seed(s->seed, out->deal);
    }
    if (c) {
        c->after = index + 1;
        c->last_deal = out->deal;
        c->last_lineup = out->lineup;
        c->last_rotation = out->rotation;
        c->last_seed = out->seed;
    }
}

void schedule_game(const struct schedule *s, struct schedule_cursor *c,
                   int64_t index, struct schedule_game *out)
{
    int m = s->sides;
    locate(s, c, index, out);
    const int8_t *lineups = s->lineup;
    if (s->sampled) {
        if (c->deal != out->deal)
            sample_deal(s, out->deal, c->lineup);
        c->deal = out->deal;
        lineups = c->lineup;
    }
    const int8_t *place = lineups + (size_t)out->lineup * (size_t)m;
    for (int seat = 0; seat < s->seats; seat++) {
        /* (side - rotation) mod m, both in 0..m-1 */
        int k = s->side_of[seat] - out->rotation;
        out->agent[seat] = place[k < 0 ? k + m : k];
    }
}

int64_t schedule_index(const struct schedule *s, int64_t deal, int lineup,
                       int rotation)
{
    if (deal < 0 || deal >= s->deals || lineup < 0 || lineup >= s->lineups ||
        rotation < 0 || rotation >= s->sides)
        return -1;
    return (deal * s->lineups + lineup) * s->sides + rotation;
}

bool schedule_in_shard(const struct schedule *s, int64_t index, int shard,
                       int nshards)
{
    if (nshards == 1) /* no division for the usual run */
        return shard == 1;
    return (index / s->sides) % nshards == shard - 1;
}
