/* ismcts.c — single-observer information-set Monte Carlo tree search
 * (SO-ISMCTS) with UCT, for any number of seats.
 *
 * One tree over the acting seat's information sets: a node is the sequence
 * of actions from the root, whoever took them (the other seats' decisions
 * are in the tree too). Every iteration samples a fresh determinization,
 * descends through the children whose action is legal in it (the
 * "availability count" variant: a child's UCB uses how often it could have
 * been chosen), adds one node, plays out (to the horizon of search.h: by
 * default the end of the root's deal) and backs up the vector of returns:
 * each node keeps the return of the seat that took its action, which is its
 * side's (partners' returns are equal). Chance happens inside apply from the
 * sampled state's own RNG, so the tree has no chance nodes; a node's
 * children are told apart by (seat, action) since who acts next may differ
 * between worlds.
 *
 * Simultaneous moves are searched by decoupled UCT: at a node where several
 * seats act, each seat picks its own action from its own statistics (stat
 * children), and the joint action leads to a joint child found by a 64-bit
 * hash of the joint action. At such a root the move is drawn in proportion
 * to the visits, the mixed strategy decoupled UCT converges to.
 *
 * The node arena is allocated in create from the options and reset every
 * move; when it is full the tree stops growing and iterations go on with
 * playouts from its leaves. Nothing is allocated per iteration.
 */
#include <math.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "agent.h"
#include "search.h"

/* ==== options and types ================================================ */

enum {
    I_ITERS,
    I_C,
    I_DEPTH,
    I_HORIZON,
    I_ROLLOUT,
    I_TIME_MS,
    I_NODES,
    I_NORM,
    I_SEED,
    NP
};

#define NODES_MAX (1 << 24) /* largest arena: 640 MiB of nodes */

static const char *const norm_choices[] = {"bounds", "seen", NULL};

static const struct param_def ismcts_params[NP] = {
    {"iters", PARAM_INT, 1000, 1, 1e7, NULL,
     "iterations (determinization, descent, playout) per move"},
    {"c", PARAM_FLOAT, 0.7, 0, 100, NULL,
     "UCT exploration constant, on rewards scaled to [0, 1]"},
    {"depth", PARAM_INT, 0, 0, 1e6, NULL,
     "moves a playout runs before it is scored (by the returns so far, "
     "or the lead in points in a game scored at its end); 0: to the "
     "horizon"},
    {"horizon", PARAM_ENUM, SEARCH_HORIZON_DEAL, 0, 0, search_horizon_choices,
     SEARCH_HORIZON_DOC},
    {"rollout", PARAM_ENUM, 0, 0, 0, search_rollout_choices,
     "agent playing the playouts, with its default options"},
    {"time_ms", PARAM_INT, 0, 0, 3.6e6, NULL,
     "0: iters per move; else search until this many milliseconds have "
     "passed (not reproducible; the tree still holds at most nodes)"},
    {"nodes", PARAM_INT, 0, 0, NODES_MAX, NULL,
     "tree capacity in nodes; 0: one per iteration (simultaneous games: "
     "players + 1 per iteration)"},
    {"norm", PARAM_ENUM, 0, 0, 0, norm_choices,
     "rewards scaled to [0, 1] by the game's return bounds, or by the "
     "least and greatest returns this move's playouts have seen"},
    {"seed", PARAM_INT, 1, 0, 4294967295.0, NULL,
     "seed of the agent's random stream"},
};

enum node_kind {
    NODE_MOVE,  /* one seat's action at a turn-based step */
    NODE_STAT,  /* one seat's action statistics at a simultaneous step */
    NODE_JOINT, /* the step after a joint action */
};

struct node {
    uint64_t key;    /* NODE_JOINT: hash of the joint action */
    double sum;      /* returns of seat, summed over visits */
    uint32_t visits; /* iterations through this node */
    uint32_t avail;  /* iterations in which it could have been chosen */
    int32_t child;   /* first child; 0 = none (the root is no child) */
    int32_t next;    /* next sibling; 0 = none */
    int32_t action;  /* action taken; -1 for the root and joint nodes */
    int8_t seat;     /* seat that took it; -1 for the root and joint nodes */
    uint8_t kind;    /* enum node_kind */
};

struct ismcts {
    struct rng rng;             /* the agent's own stream */
    uint64_t seed;              /* the spec's seed, mixed into every reseed */
    int iters;                  /* iterations per move */
    double c;                   /* exploration constant */
    double time_ms;             /* time budget per move; 0: none */
    bool seen;                  /* norm=seen: scale by returns seen */
    double lo, hi;              /* returns mapped to 0 and 1 */
    double scale;               /* 1 / (hi - lo), or 0 */
    struct search_playout play; /* playout policy and its buffers */
    struct node *nodes;         /* the arena; nodes[0] is the root */
    int cap, used;              /* arena size and nodes in use */
    int *path;                  /* this iteration's nodes, cap entries */
    int npath;                  /* entries in path */
    unsigned char *det;         /* this iteration's world, state_size */
    int *legal;                 /* a seat's legal actions, max_legal */
    int nlegal;                 /* entries in legal */
    uint64_t *mask;             /* legal actions not yet in the tree */
    int words;                  /* 64-bit words in mask */
    int *joint;                 /* a joint action, players entries */
    double *ret;                /* one playout's returns, players */
};

/* ==== the tree ========================================================= */

/* Adds a child to parent; returns its index, 0 when the arena is full. */
static int node_new(struct ismcts *a, int parent, enum node_kind kind, int seat,
                    int action, uint64_t key)
{
    if (a->used >= a->cap)
        return 0;
    int i = a->used++;
    struct node *n = &a->nodes[i];
    memset(n, 0, sizeof *n);
    n->key = key;
    n->action = action;
    n->seat = (int8_t)seat;
    n->kind = (uint8_t)kind;
    n->next = a->nodes[parent].child;
    a->nodes[parent].child = i;
    return i;
}

static void tree_reset(struct ismcts *a)
{
    memset(&a->nodes[0], 0, sizeof a->nodes[0]);
    a->nodes[0].action = -1;
    a->nodes[0].seat = -1;
    a->used = 1;
}

static double node_mean(const struct ismcts *a, const struct node *n)
{
    return (n->sum / n->visits - a->lo) * a->scale;
}

static double node_ucb(const struct ismcts *a, const struct node *n)
{
    if (!n->visits)
        return HUGE_VAL;
    return node_mean(a, n) + a->c * sqrt(log(n->avail) / n->visits);
}

static bool mask_has(const uint64_t *m, int x)
{
    return (m[x >> 6] >> (x & 63)) & 1;
}

/* Lists seat s's legal actions in st into a->legal and a->mask. */
static void list_legal(struct ismcts *a, const struct game *g, const void *st,
                       int s)
{
    a->nlegal = g->def->legal(g, st, s, a->legal);
    memset(a->mask, 0, sizeof(uint64_t) * (size_t)a->words);
    for (int i = 0; i < a->nlegal; i++)
        a->mask[a->legal[i] >> 6] |= (uint64_t)1 << (a->legal[i] & 63);
}

/* Walks node's children of this kind and seat that are legal now: counts
 * their availability, clears them from the mask (what is left is untried)
 * and returns the best by UCB, 0 if none. */
static int scan_children(struct ismcts *a, int node, enum node_kind kind, int s)
{
    int best = 0;
    double best_ucb = -HUGE_VAL;
    for (int i = a->nodes[node].child; i; i = a->nodes[i].next) {
        struct node *ch = &a->nodes[i];
        if (ch->kind != kind || ch->seat != s || !mask_has(a->mask, ch->action))
            continue;
        a->mask[ch->action >> 6] &= ~((uint64_t)1 << (ch->action & 63));
        ch->avail++;
        double u = node_ucb(a, ch);
        if (u > best_ucb) {
            best = i;
            best_ucb = u;
        }
    }
    return best;
}

/* A uniformly drawn legal action still in the mask; -1 if none. */
static int draw_untried(struct ismcts *a)
{
    int n = 0;
    for (int i = 0; i < a->nlegal; i++)
        n += mask_has(a->mask, a->legal[i]);
    if (!n)
        return -1;
    int k = (int)rng_below(&a->rng, (uint32_t)n);
    for (int i = 0;; i++)
        if (mask_has(a->mask, a->legal[i]) && k-- == 0)
            return a->legal[i];
}

/* Seat s's action at node: a new child while the arena has room and some
 * legal action is untried, else the best available child. Sets *child (0:
 * none) and *grown; returns the action, -1 when no child is available. */
static int choose(struct ismcts *a, const struct game *g, int node,
                  enum node_kind kind, int s, int *child, bool *grown)
{
    list_legal(a, g, a->det, s);
    int best = scan_children(a, node, kind, s);
    int action = a->used < a->cap ? draw_untried(a) : -1;
    *grown = action >= 0;
    if (*grown) {
        *child = node_new(a, node, kind, s, action, 0);
        a->nodes[*child].avail = 1;
        return action;
    }
    *child = best;
    return best ? a->nodes[best].action : -1;
}

static void path_push(struct ismcts *a, int node)
{
    if (node)
        a->path[a->npath++] = node;
}

/* ==== one iteration ==================================================== */

/* A turn-based step from node: returns the child to go on from, 0 to stop
 * (a node was added, or none is available). */
static int descend_turn(struct ismcts *a, const struct game *g, int node,
                        uint32_t m)
{
    int s = __builtin_ctz(m), child;
    bool grown;
    int action = choose(a, g, node, NODE_MOVE, s, &child, &grown);
    if (action < 0)
        return 0;
    g->def->apply(g, a->det, action);
    path_push(a, child);
    return grown ? 0 : child;
}

static uint64_t joint_key(const int *joint, uint32_t m)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; m; m &= m - 1) {
        int s = __builtin_ctz(m);
        h ^= (uint64_t)s << 32 | (uint32_t)joint[s];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* The joint child of node for key, added if missing and there is room. */
static int joint_child(struct ismcts *a, int node, uint64_t key, bool *grown)
{
    for (int i = a->nodes[node].child; i; i = a->nodes[i].next)
        if (a->nodes[i].kind == NODE_JOINT && a->nodes[i].key == key)
            return i;
    int i = node_new(a, node, NODE_JOINT, -1, -1, key);
    *grown = *grown || i;
    return i;
}

/* A simultaneous step from node (decoupled UCT): each acting seat chooses
 * from its own statistics. Returns the joint child, 0 to stop. */
static int descend_joint(struct ismcts *a, const struct game *g, int node,
                         uint32_t m)
{
    bool grown = false;
    for (uint32_t r = m; r; r &= r - 1) {
        int s = __builtin_ctz(r), child;
        bool added;
        int action = choose(a, g, node, NODE_STAT, s, &child, &added);
        if (action < 0) /* arena full, nothing known: play at random */
            action = a->legal[rng_below(&a->rng, (uint32_t)a->nlegal)];
        a->joint[s] = action;
        path_push(a, child);
        grown = grown || added;
    }
    int next = joint_child(a, node, joint_key(a->joint, m), &grown);
    g->def->apply_joint(g, a->det, a->joint);
    path_push(a, next);
    return grown ? 0 : next;
}

/* Widens the seen range of returns by one playout's. */
static void widen(struct ismcts *a, int players)
{
    for (int s = 0; s < players; s++) {
        a->lo = a->ret[s] < a->lo ? a->ret[s] : a->lo;
        a->hi = a->ret[s] > a->hi ? a->ret[s] : a->hi;
    }
    a->scale = a->hi > a->lo ? 1 / (a->hi - a->lo) : 0;
}

static void backpropagate(struct ismcts *a)
{
    for (int i = 0; i < a->npath; i++) {
        struct node *n = &a->nodes[a->path[i]];
        n->visits++;
        if (n->seat >= 0)
            n->sum += a->ret[n->seat];
    }
}

static int iterate(struct ismcts *a, const struct game *g, const void *st,
                   int seat)
{
    memcpy(a->det, st, g->def->state_size);
    g->def->determinize(g, a->det, seat, &a->rng);
    a->npath = 0;
    int node = 0, deal = game_deals(g, a->det);
    do {
        uint32_t m = g->def->to_move(g, a->det);
        if (!m)
            break;
        node = m & (m - 1) ? descend_joint(a, g, node, m)
                           : descend_turn(a, g, node, m);
    } while (node);
    int rc = search_playout_run(&a->play, g, a->det, &a->rng, deal, a->ret);
    if (rc)
        return rc;
    if (a->seen)
        widen(a, g->dims.players);
    backpropagate(a);
    return 0;
}

/* ==== the move ========================================================= */

/* The most visited root child of seat that is legal in the true state
 * (ties: the better mean); the first legal action if there is none. */
static int most_visited(struct ismcts *a, const struct game *g, const void *st,
                        int seat)
{
    list_legal(a, g, st, seat);
    int best = 0;
    for (int i = a->nodes[0].child; i; i = a->nodes[i].next) {
        const struct node *n = &a->nodes[i];
        if (n->kind != NODE_MOVE || n->seat != seat ||
            !mask_has(a->mask, n->action))
            continue;
        const struct node *b = &a->nodes[best];
        if (!best || n->visits > b->visits ||
            (n->visits == b->visits && node_mean(a, n) > node_mean(a, b)))
            best = i;
    }
    return best ? a->nodes[best].action : a->legal[0];
}

/* Seat's action at a simultaneous root, drawn in proportion to the visits
 * of its legal stat children. */
static int mixed_choice(struct ismcts *a, const struct game *g, const void *st,
                        int seat)
{
    list_legal(a, g, st, seat);
    uint64_t total = 0;
    for (int i = a->nodes[0].child; i; i = a->nodes[i].next) {
        const struct node *n = &a->nodes[i];
        if (n->kind == NODE_STAT && n->seat == seat &&
            mask_has(a->mask, n->action))
            total += n->visits;
    }
    if (!total)
        return a->legal[0];
    uint64_t k = rng_next(&a->rng) % total;
    for (int i = a->nodes[0].child;; i = a->nodes[i].next) {
        const struct node *n = &a->nodes[i];
        if (n->kind != NODE_STAT || n->seat != seat ||
            !mask_has(a->mask, n->action))
            continue;
        if (k < n->visits)
            return n->action;
        k -= n->visits;
    }
}

/* Sets the reward scale for a new move. */
static void scale_reset(struct ismcts *a, const struct game *g)
{
    a->lo = a->seen ? HUGE_VAL : g->dims.ret_low;
    a->hi = a->seen ? -HUGE_VAL : g->dims.ret_high;
    a->scale = a->hi > a->lo ? 1 / (a->hi - a->lo) : 0;
}

static int ismcts_act(void *self, const struct game *g, const void *st,
                      int seat, int *action)
{
    struct ismcts *a = self;
    uint32_t m = g->def->to_move(g, st);
    list_legal(a, g, st, seat);
    if (a->nlegal <= 0)
        return ERR_STATE;
    if (a->nlegal == 1) {
        *action = a->legal[0];
        return 0;
    }
    tree_reset(a);
    scale_reset(a, g);
    double stop = a->time_ms > 0 ? search_clock_ms() + a->time_ms : 0;
    for (int i = 0; stop ? i == 0 || search_clock_ms() < stop : i < a->iters;
         i++) {
        int rc = iterate(a, g, st, seat);
        if (rc)
            return rc;
    }
    *action = m & (m - 1) ? mixed_choice(a, g, st, seat)
                          : most_visited(a, g, st, seat);
    return 0;
}

/* ==== the agent ======================================================== */

static void ismcts_destroy(void *self)
{
    struct ismcts *a = self;
    if (!a)
        return;
    search_playout_fini(&a->play);
    mem_free(a->nodes);
    mem_free(a->path);
    mem_free(a->det);
    mem_free(a->legal);
    mem_free(a->mask);
    mem_free(a->joint);
    mem_free(a->ret);
    mem_free(a);
}

/* Arena size: the nodes option, else what iters iterations can add. */
static int arena_size(const struct game *g, const struct param_values *p)
{
    if (p->v[I_NODES] > 0)
        return (int)p->v[I_NODES];
    double per = g->def->flags & GAME_SIMULTANEOUS ? g->dims.players + 1 : 1;
    double n = p->v[I_ITERS] * per + 1;
    return n < NODES_MAX ? (int)n : NODES_MAX;
}

static int alloc_buffers(struct ismcts *a, const struct game *g)
{
    a->words = (g->dims.num_actions + 63) / 64;
    a->nodes = mem_alloc(sizeof(struct node) * (size_t)a->cap);
    a->path = mem_alloc(sizeof(int) * (size_t)a->cap);
    a->det = mem_alloc(g->def->state_size);
    a->legal = mem_alloc(sizeof(int) * (size_t)g->dims.max_legal);
    a->mask = mem_alloc(sizeof(uint64_t) * (size_t)a->words);
    a->joint = mem_alloc(sizeof(int) * (size_t)g->dims.players);
    a->ret = mem_alloc(sizeof(double) * (size_t)g->dims.players);
    if (!a->nodes || !a->path || !a->det || !a->legal || !a->mask ||
        !a->joint || !a->ret)
        return ERR_NOMEM;
    return 0;
}

static int ismcts_create(const struct game *g, const struct param_values *p,
                         void **self, char *err, size_t errlen)
{
    struct ismcts *a = mem_alloc(sizeof *a);
    if (!a)
        return err_set(err, errlen, ERR_NOMEM, "out of memory");
    a->iters = (int)p->v[I_ITERS];
    a->c = p->v[I_C];
    a->time_ms = p->v[I_TIME_MS];
    a->seen = p->v[I_NORM] != 0;
    a->seed = (uint64_t)p->v[I_SEED];
    a->cap = arena_size(g, p);
    rng_seed(&a->rng, a->seed);
    int rc = search_playout_init(&a->play, g, (int)p->v[I_ROLLOUT],
                                 (int)p->v[I_DEPTH], (int)p->v[I_HORIZON],
                                 err, errlen);
    if (!rc && alloc_buffers(a, g))
        rc = err_set(err, errlen, ERR_NOMEM,
                     "out of memory for a tree of %d nodes", a->cap);
    if (rc) {
        ismcts_destroy(a);
        return rc;
    }
    *self = a;
    return 0;
}

static int ismcts_check_limits(const struct param_values *p,
                               const struct agent_limits *lim, char *err,
                               size_t errlen)
{
    if (p->v[I_ITERS] > lim->max_work)
        return agent_limit_fail("ismcts", "iters", p->v[I_ITERS], lim->max_work,
                                lim, err, errlen);
    if (p->v[I_NODES] > lim->max_work)
        return agent_limit_fail("ismcts", "nodes", p->v[I_NODES], lim->max_work,
                                lim, err, errlen);
    return search_check_limits("ismcts", (int)p->v[I_ROLLOUT],
                               (int)p->v[I_HORIZON], p->v[I_TIME_MS], lim, err,
                               errlen);
}

static void ismcts_reseed(void *self, uint64_t seed)
{
    struct ismcts *a = self;
    rng_seed(&a->rng, rng_derive(a->seed, seed));
    search_playout_reseed(&a->play, seed);
}

const struct agent_def ismcts_agent = {
    .name = "ismcts",
    .doc = "information-set Monte Carlo tree search (single observer, "
           "UCT, decoupled at simultaneous moves)",
    .api_version = AGENT_API_VERSION,
    .params = ismcts_params,
    .nparams = NP,
    .create = ismcts_create,
    .act = ismcts_act,
    .reseed = ismcts_reseed,
    .destroy = ismcts_destroy,
    .check_limits = ismcts_check_limits,
};
