/* results.c — reading journals into pairwise results per deal; see
 * results.h. Games are deduplicated by their schedule index in a set that
 * grows with the games read (idset.h); the pairwise results are summed
 * into totals as they come and, by deal, also gathered raw, then sorted
 * by deal and pair, and summed. */
#include "results.h"

#include <assert.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "schedule.h"

/* Pairwise results of one deal and pair before summing: one result, or
 * several that arrived one after the other. */
struct results_raw {
    int64_t deal;  /* deal number */
    int16_t i, j;  /* agents, i < j */
    int32_t games; /* results gathered here */
    double score;  /* i's points in them */
};

/* ---- per record -------------------------------------------------------- */

/* Adds a's result against b. A result for the deal and pair of the last
 * one joins it: a deal's games mostly arrive together (a worker plays a
 * run of game indexes), so this halves the raw results of a two-sided
 * game, and the memory and sorting at the end with them. Scores are
 * multiples of 0.5 and counts are integers, so the sums come out the same
 * in any order. */
static int push(struct results_builder *l, int64_t deal, int a, int b,
                double score)
{
    int16_t i = (int16_t)(a < b ? a : b), j = (int16_t)(a < b ? b : a);
    int n = l->r->n;
    double *total = l->r->total;
    score = a < b ? score : 1 - score;
    /* Multiples of 0.5 and counts: the sums are exact in any order, the
     * same as results_table's deal by deal. */
    total[i * n + j] += score;
    total[j * n + i] += 1 - score;
    total[n * n + i * n + j] += 1;
    total[n * n + j * n + i] += 1;
    if (!l->by_deal)
        return 0;
    struct results_raw *last = l->nraw ? &l->raw[l->nraw - 1] : NULL;
    if (last && last->deal == deal && last->i == i && last->j == j &&
        last->games < INT32_MAX) {
        last->games++;
        last->score += score;
        return 0;
    }
    if (l->nraw == l->cap) {
        int64_t cap = l->cap ? 2 * l->cap : 1024;
        struct results_raw *p =
            mem_try_realloc(l->raw, (size_t)cap * sizeof *p);
        if (!p)
            return ERR_NOMEM;
        l->raw = p;
        l->cap = cap;
    }
    l->raw[l->nraw++] = (struct results_raw){deal, i, j, 1, score};
    return 0;
}

static void tally_agents(struct results *r, const struct journal_header *h,
                         const struct journal_record *rec)
{
    /* An agent's game and forfeit count once, at its first seat: a walk
     * over the game's few seats, not over the roster. */
    for (int s = 0; s < h->seats; s++) {
        int a = rec->agent[s], t = 0;
        uint32_t out = 0;
        r->seats[a]++;
        r->ret_sum[a] += rec->res.ret[s];
        while (rec->agent[t] != a)
            t++;
        if (t < s)
            continue; /* counted at seat t */
        for (t = s; t < h->seats; t++)
            out |= rec->agent[t] == a ? rec->res.forfeit >> t & 1 : 0;
        r->agent_games[a]++;
        r->agent_forfeits[a] += out;
    }
    r->games++;
    r->forfeits += rec->res.forfeit != 0;
    /* A forfeit's reason names the seat it is about: "seat 1: ..." */
    int s, at = 0;
    if (rec->res.forfeit &&
        sscanf(rec->res.reason, "seat %d: %n", &s, &at) == 1 && at > 0 &&
        s >= 0 && s < h->seats && !r->forfeit_reason[rec->agent[s]][0])
        snprintf(r->forfeit_reason[rec->agent[s]], MATCH_REASON_MAX, "%s",
                 rec->res.reason + at);
}

int results_add(struct results_builder *l, const struct journal_header *h,
                const struct journal_record *rec, char *err, size_t errlen)
{
    const int8_t *first = l->first;
    int64_t i =
        (rec->deal * h->lineups + rec->lineup) * h->sides + rec->rotation;
    bool fresh, pushed = false;
    if (idset_add(&l->seen, i, &fresh))
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    if (!fresh) {
        l->r->duplicates++;
        return 0;
    }
    tally_agents(l->r, h, rec);
    for (int a = 0; a < h->sides; a++)
        for (int b = a + 1; b < h->sides; b++) {
            int sa = first[a], sb = first[b];
            int ra = rec->res.rank[sa], rb = rec->res.rank[sb];
            if (rec->agent[sa] == rec->agent[sb])
                continue;
            pushed = true;
            if (push(l, rec->deal, rec->agent[sa], rec->agent[sb],
                     ra < rb    ? 1
                     : ra == rb ? 0.5
                                : 0))
                return err_set(err, errlen, ERR_NOMEM, "out of memory");
        }
    if (l->by_deal || !pushed)
        return 0;
    if (idset_add(&l->deal_seen, rec->deal, &fresh))
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    l->r->ndeals += fresh; /* a deal counts once it has a result */
    return 0;
}

static int add_record(void *ctx, const struct journal_header *h,
                      const struct journal_record *rec, char *err,
                      size_t errlen)
{
    return results_add(ctx, h, rec, err, errlen);
}

/* ---- files --------------------------------------------------------------- */

static int load_file(void *ctx, const char *path, char *err, size_t errlen)
{
    struct results_builder *l = ctx;
    struct results *r = l->r;
    struct journal_header *h = malloc(sizeof *h);
    struct journal_read_info info;
    if (!h)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    int rc = journal_read(path, h, NULL, NULL, &info, err, errlen);
    if (!rc && !info.has_header)
        rc = err_set(err, errlen, ERR_INVAL,
                     "%s: no journal header (empty "
                     "file?)",
                     path);
    if (!rc && r->journals > 0)
        rc = journal_same(h, &r->h, path, err, errlen);
    if (!rc && r->journals == 0)
        rc = results_begin(l, r, h, true, err, errlen);
    rc = rc ? rc : journal_read(path, h, add_record, l, &info, err, errlen);
    r->journals += !rc;
    r->torn += !rc && info.torn;
    free(h);
    return rc;
}

/* ---- summing ------------------------------------------------------------- */

static int pair_cmp(const struct results_raw *a, const struct results_raw *b)
{
    return a->i != b->i ? a->i - b->i : a->j - b->j;
}

/* Whether the n results at raw are in deal and pair order already. */
static bool is_sorted(const struct results_raw *raw, int64_t n)
{
    for (int64_t k = 1; k < n; k++)
        if (raw[k - 1].deal > raw[k].deal ||
            (raw[k - 1].deal == raw[k].deal &&
             pair_cmp(&raw[k - 1], &raw[k]) > 0))
            return false;
    return true;
}

/* qsort's order of raw results: by deal, then by pair. */
static int raw_cmp(const void *pa, const void *pb)
{
    const struct results_raw *a = pa, *b = pb;
    return a->deal != b->deal ? (a->deal > b->deal) - (a->deal < b->deal)
                              : pair_cmp(a, b);
}

/* Counting-sorts the n results of raw by deal, the deals lying in
 * [lo, lo + span), into out, and each deal's few results by pair with an
 * insertion sort. at has span + 1 zeroed entries. */
static void count_sort(const struct results_raw *raw, int64_t n, int64_t lo,
                       int64_t span, int64_t *at, struct results_raw *out)
{
    for (int64_t k = 0; k < n; k++)
        at[raw[k].deal - lo + 1]++;
    for (int64_t d = 0; d < span; d++)
        at[d + 1] += at[d];
    for (int64_t k = 0; k < n; k++) {
        int64_t j = at[raw[k].deal - lo]++;
        out[j] = raw[k];
        for (; j > 0 && out[j - 1].deal == out[j].deal &&
               pair_cmp(&out[j - 1], &out[j]) > 0;
             j--) {
            struct results_raw x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    }
}

/* Sorts raw by deal and pair. Where the deals that occur span no more
 * than about twice the results (every whole journal, a shard, a run cut
 * short), a counting sort over that span does it in linear time: two
 * workers' results arrive interleaved, and the comparison sort they
 * needed took 3 % of a two-job random tournament's CPU time. Scattered
 * deals (a header that claims many more deals than the file holds) are
 * sorted by qsort: the memory follows the results, never the header. */
static int sort_raw(struct results_builder *l)
{
    int64_t n = l->nraw, lo = INT64_MAX, hi = -1;
    if (is_sorted(l->raw, n))
        return 0; /* one worker's run, read in order: nothing to move */
    for (int64_t k = 0; k < n; k++) {
        lo = l->raw[k].deal < lo ? l->raw[k].deal : lo;
        hi = l->raw[k].deal > hi ? l->raw[k].deal : hi;
    }
    if (hi - lo >= 2 * n + 1024) {
        qsort(l->raw, (size_t)n, sizeof *l->raw, raw_cmp);
        return 0;
    }
    int64_t *at = mem_try_alloc(sizeof *at * (size_t)(hi - lo + 2));
    struct results_raw *out = mem_try_alloc(sizeof *out * (size_t)(n + 1));
    if (at && out)
        count_sort(l->raw, n, lo, hi - lo + 1, at, out);
    mem_free(at);
    if (!at || !out) {
        mem_free(out);
        return ERR_NOMEM;
    }
    mem_free(l->raw);
    l->raw = out;
    l->cap = n + 1;
    return 0;
}

/* Sorts the raw results and sums them per deal and pair. The pairs are
 * written over the raw results they sum (a pair is never further on than
 * the first raw result it holds, and the two are the same size), so the
 * end of a run maps and faults in no second array of that size: the
 * pages of a new one were half of sum_pairs's time. The elements go in
 * and out by memcpy: the buffer holds raw results and pairs at once. */
static int sum_pairs(struct results_builder *l, char *err, size_t errlen)
{
    _Static_assert(sizeof(struct results_raw) == sizeof(struct results_pair),
                   "pairs are written over raw results");
    struct results *r = l->r;
    if (sort_raw(l))
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    r->deal = mem_try_alloc(sizeof *r->deal * (size_t)(l->nraw + 1));
    r->start = mem_try_alloc(sizeof *r->start * (size_t)(l->nraw + 2));
    if (!r->deal || !r->start)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    char *buf = (char *)l->raw;
    struct results_pair cur = {0, 0, 0, 0};
    int64_t np = 0, last = -1;
    for (int64_t k = 0; k < l->nraw; k++) {
        struct results_raw x;
        memcpy(&x, buf + k * (int64_t)sizeof x, sizeof x);
        bool new_deal = !k || x.deal != last;
        if (new_deal) {
            r->deal[r->ndeals] = x.deal;
            r->start[r->ndeals++] = np;
        }
        if (new_deal || x.i != cur.i || x.j != cur.j) {
            if (np) /* the last pair is done: at or before raw k */
                memcpy(buf + (np - 1) * (int64_t)sizeof cur, &cur,
                       sizeof cur);
            cur = (struct results_pair){x.i, x.j, 0, 0};
            np++;
        }
        cur.score += x.score;
        cur.games += x.games;
        last = x.deal;
    }
    if (np)
        memcpy(buf + (np - 1) * (int64_t)sizeof cur, &cur, sizeof cur);
    r->start[r->ndeals] = np;
    /* The buffer becomes the pairs (at least one element: never NULL). */
    r->pair = mem_try_realloc(buf, sizeof *r->pair * (size_t)(np + 1));
    if (!r->pair && !buf)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    if (!r->pair)
        r->pair = (struct results_pair *)(void *)buf; /* keeps it all */
    l->raw = NULL;
    l->nraw = l->cap = 0;
    return 0;
}

/* ---- API --------------------------------------------------------------- */

int results_begin(struct results_builder *b, struct results *r,
                  const struct journal_header *h, bool by_deal, char *err,
                  size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->r = r;
    b->by_deal = by_deal;
    if (h->games > SCHEDULE_GAMES_MAX)
        return err_set(err, errlen, ERR_RANGE, "%lld games: too many",
                       (long long)h->games);
    r->h = *h;
    r->n = h->roster.n;
    /* Each side's first seat, once (the journals of one tournament agree
     * on the teams): a side's rank is that seat's. */
    for (int t = 0; t < h->sides; t++)
        for (int s = h->seats - 1; s >= 0; s--)
            b->first[t] = h->team[s] == t ? (int8_t)s : b->first[t];
    r->total = mem_try_alloc(sizeof *r->total * 2 * (size_t)(r->n * r->n));
    if (!r->total)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    return 0; /* zeroed */
}

int results_end(struct results_builder *b, char *err, size_t errlen)
{
    int rc = b->r && b->by_deal ? sum_pairs(b, err, errlen) : 0;
    results_builder_fini(b);
    return rc;
}

void results_builder_fini(struct results_builder *b)
{
    idset_fini(&b->seen);
    idset_fini(&b->deal_seen);
    mem_free(b->raw);
    memset(b, 0, sizeof *b);
}

int results_load(struct results *r, const char *const *paths, int npaths,
                 char *err, size_t errlen)
{
    struct results_builder l = {0};
    memset(r, 0, sizeof *r);
    l.r = r;
    int rc = npaths > 0 ? 0 : err_set(err, errlen, ERR_INVAL, "no journal");
    for (int i = 0; !rc && i < npaths; i++)
        rc = journal_each_file(paths[i], load_file, &l, err, errlen);
    rc = rc ? rc : results_end(&l, err, errlen);
    results_builder_fini(&l);
    if (rc)
        results_fini(r);
    return rc;
}

void results_fini(struct results *r)
{
    mem_free(r->deal);
    mem_free(r->start);
    mem_free(r->pair);
    mem_free(r->total);
    r->deal = r->start = NULL;
    r->pair = NULL;
    r->total = NULL;
}

void results_add_deal(const struct results *r, int64_t k, double *score,
                      double *games)
{
    int n = r->n;
    for (int64_t p = r->start[k]; p < r->start[k + 1]; p++) {
        const struct results_pair *x = &r->pair[p];
        score[x->i * n + x->j] += x->score;
        score[x->j * n + x->i] += x->games - x->score;
        games[x->i * n + x->j] += x->games;
        games[x->j * n + x->i] += x->games;
    }
}

void results_table(const struct results *r, int64_t ndeals, double *score,
                   double *games)
{
    size_t nn = (size_t)r->n * (size_t)r->n;
    assert(r->pair || ndeals >= r->ndeals);
    if (ndeals >= r->ndeals && r->total) { /* every deal: kept summed */
        memcpy(score, r->total, nn * sizeof *score);
        memcpy(games, r->total + nn, nn * sizeof *games);
        return;
    }
    memset(score, 0, nn * sizeof *score);
    memset(games, 0, nn * sizeof *games);
    for (int64_t k = 0; k < ndeals && k < r->ndeals; k++)
        results_add_deal(r, k, score, games);
}
