/* cmd_replay.c — `parlor replay`: one tournament game shown again, move by
 * move, from its journal.
 *
 * The journal keeps each game's deal seed and moves (journal.h); the game
 * is dealt again from the seed and the moves are applied, printed as
 * `parlor play` prints them. The replay must end where the game did: the
 * same number of steps and the same returns, else it says so loudly and
 * exits 1. Agents are not run again; their seeds, for anyone who wants
 * to rerun them, are printed (schedule_agent_seed of the deal and seat).
 * A game is named by its three journal keys, given apart (DEAL LINEUP
 * ROTATION) or as one id DEAL:LINEUP:ROTATION, the form this command
 * prints in its first line.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../tournament/journal.h"
#include "../tournament/schedule.h"
#include "cli.h"

/* What is looked for, and what was found. */
struct find {
    int64_t deal;                /* the game's key */
    int lineup, rotation;        /* ... */
    bool found;                  /* a record matched */
    struct journal_header h;     /* its journal's header */
    struct journal_record rec;   /* the record (moves pointer not kept) */
    char *moves;                 /* its moves text, owned; NULL: none */
};

static int find_record(void *ctx, const struct journal_header *h,
                       const struct journal_record *r, char *err,
                       size_t errlen)
{
    struct find *f = ctx;
    if (f->found || r->deal != f->deal || r->lineup != f->lineup ||
        r->rotation != f->rotation)
        return 0;
    f->found = true;
    f->h = *h;
    f->rec = *r;
    f->rec.moves = NULL;
    if (r->moves) {
        f->moves = mem_alloc(r->moves_len + 1);
        memcpy(f->moves, r->moves, r->moves_len + 1);
    }
    (void)err;
    (void)errlen;
    return 0;
}

/* Prints how the journal says the game ended, and what the agents'
 * seeds were. */
static void show_record(const struct find *f, const char *const *labels)
{
    const struct journal_record *r = &f->rec;
    printf("replay of %s, game %lld:%d:%d (deal, line-up, rotation), seed "
           "%016llx: %d steps, %s\n",
           f->h.game, (long long)r->deal, r->lineup, r->rotation,
           (unsigned long long)r->seed, r->res.length,
           r->res.forfeit ? "ended by a forfeit" : "played to the end");
    for (int s = 0; s < f->h.seats; s++)
        printf("  seat %d: %s, agent seed %016llx\n", s, labels[s],
               (unsigned long long)schedule_agent_seed(r->seed, s));
    if (r->res.forfeit)
        printf("  forfeit: %s\n", r->res.reason);
    printf("\n");
}

/* Replays f's game and checks it against the record. */
static int replay(const struct find *f)
{
    const struct journal_record *r = &f->rec;
    const char *labels[GAME_MAX_PLAYERS];
    double ret[GAME_MAX_PLAYERS];
    char err[512];
    struct game g;
    int steps = 0, rc = cli_make_game("replay", f->h.game, &g);
    if (rc)
        return rc;
    if (!f->moves)
        return cli_fail("replay",
                        "this game's record holds no moves (a journal "
                        "written before moves were recorded, or a game "
                        "too long for one line): it cannot be replayed");
    /* The reader checks the header's seats against its game; "?" keeps
     * any seat it may miss from printing garbage. */
    for (int s = 0; s < GAME_MAX_PLAYERS; s++)
        labels[s] = s < f->h.seats ? f->h.roster.a[r->agent[s]].name : "?";
    int cap = g.dims.max_length * g.dims.players;
    int *moves = mem_alloc(sizeof *moves * (size_t)cap);
    int n = journal_moves_decode(f->moves, strlen(f->moves), r->digits, moves,
                                 cap, err, sizeof err);
    show_record(f, labels);
    rc = n < 0 ? cli_fail("replay", "%s", err)
               : cli_play_moves(&g, r->seed, labels, moves, n, ret, &steps);
    mem_free(moves);
    if (rc)
        return rc;
    bool same = steps == r->res.length;
    for (int s = 0; s < f->h.seats; s++)
        same &= ret[s] == r->res.ret[s];
    if (!same)
        return cli_fail("replay",
                        "MISMATCH: the replay took %d steps where the "
                        "journal records %d, or its returns differ: this "
                        "is not the game that was played",
                        steps, r->res.length);
    printf("\nreplay matches the journal: %d steps, same returns\n", steps);
    return CLI_OK;
}

/* Reads the key from three words, or from one DEAL:LINEUP:ROTATION. */
static bool parse_key(char **argv, int argc, struct find *f)
{
    uint64_t d, l, t;
    char id[96], *part[3] = {argv[0], argc == 3 ? argv[1] : NULL,
                             argc == 3 ? argv[2] : NULL};
    if (argc == 1) {
        if (strlen(argv[0]) >= sizeof id)
            return false;
        snprintf(id, sizeof id, "%s", argv[0]);
        part[0] = id;
        for (int i = 1; i < 3; i++) {
            part[i] = part[i - 1] ? strchr(part[i - 1], ':') : NULL;
            if (part[i])
                *part[i]++ = '\0';
        }
        if (!part[2] || strchr(part[2], ':'))
            return false;
    }
    if (!cli_parse_u64(part[0], &d) || !cli_parse_u64(part[1], &l) ||
        !cli_parse_u64(part[2], &t) || d > INT64_MAX || l > 1000000 ||
        t > GAME_MAX_PLAYERS)
        return false;
    f->deal = (int64_t)d;
    f->lineup = (int)l;
    f->rotation = (int)t;
    return true;
}

int cmd_replay(int argc, char **argv)
{
    struct find *f = mem_alloc(sizeof *f);
    char err[1024];
    int rc = CLI_OK;
    memset(f, 0, sizeof *f);
    if (argc == 2 && !strcmp(argv[1], "--help"))
        cli_usage("replay", stdout);
    else if (argc != 5 && argc != 3)
        rc = cli_usage_error("replay", "want JOURNAL|DIR DEAL LINEUP "
                                       "ROTATION, or JOURNAL|DIR "
                                       "DEAL:LINEUP:ROTATION");
    else if (!parse_key(argv + 2, argc - 2, f))
        rc = cli_usage_error("replay",
                             "DEAL, LINEUP and ROTATION are numbers from 0 "
                             "(as in the journal's \"deal\", \"lineup\" and "
                             "\"rotation\"), as three words or one "
                             "DEAL:LINEUP:ROTATION");
    else if (journal_read_all(argv[1], find_record, f, err, sizeof err))
        rc = cli_fail("replay", "%s", err);
    else if (!f->found)
        rc = cli_fail("replay",
                      "%s holds no game with deal %lld, line-up %d, "
                      "rotation %d",
                      argv[1], (long long)f->deal, f->lineup, f->rotation);
    else
        rc = replay(f);
    mem_free(f->moves);
    mem_free(f);
    return rc;
}
