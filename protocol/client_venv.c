/* client_venv.c — the vector env over several servers of client_venv.h.
 *
 * Each server holds one part: a client_t and the vector env made through
 * it, whose own buffers take that server's reply; a reset or step sends
 * every part's request, then receives every reply (all of them, even
 * after an error, so none is left in flight) and copies the columns into
 * the venv's batch at the part's first env.
 */
#include "client_venv.h"

#include <stdio.h>
#include <string.h>

#include "../common/err.h"
#include "../common/mem.h"
#include "../common/rng.h"
#include "client_int.h"

#define CLOSE_WAIT_MS 5000 /* destroy waits this long for each close */

/* One server's share. */
struct part {
    client_t *c;     /* its connection */
    client_env_t *e; /* its vector env */
    int first;       /* index of its first env in the venv */
};

struct client_venv {
    int k;                      /* servers */
    struct part *p;             /* k parts */
    struct client_shape shape;  /* all n envs */
    struct client_batch b;      /* the joined batch */
    bool ready;                 /* b holds a reset or step */
    char err[PROTO_ERRMSG_MAX]; /* sentence of the last failure */
};

/* ---- static helpers ------------------------------------------------------ */

/* Connects part j to endpoint and makes its n envs. Returns 0 or a code. */
static int make_part(client_venv_t *v, int j, const char *endpoint,
                     const struct client_options *conn, void *ctx,
                     const char *spec, struct client_make_options o)
{
    struct part *p = &v->p[j];
    char err[PROTO_ERRMSG_MAX];
    p->c = client_new_opts(endpoint, ctx, conn, err, sizeof err);
    if (!p->c)
        return err_set(v->err, sizeof v->err, ERR_IO, "server %d (%s): %s", j,
                       endpoint, err);
    p->e = client_make(p->c, spec, &o);
    if (!p->e)
        return err_set(v->err, sizeof v->err, ERR_PROTO, "server %d (%s): %s",
                       j, endpoint, client_errmsg(p->c));
    const struct client_shape *a = client_env_shape(v->p[0].e);
    const struct client_shape *s = client_env_shape(p->e);
    if (!s->vector || s->n != o.n || s->obs_size != a->obs_size ||
        s->rows != a->rows || s->mask_bytes != a->mask_bytes ||
        s->rewards != a->rewards || strcmp(s->spec, a->spec))
        return err_set(v->err, sizeof v->err, ERR_PROTO,
                       "server %d (%s) makes %s with other sizes than server "
                       "0's %s (another parlor version?)",
                       j, endpoint, s->spec, a->spec);
    return 0;
}

/* Copies part p's n envs' entries of per bytes each from src into dst. */
static void put(void *dst, const void *src, const struct part *p, int n,
                size_t per)
{
    memcpy((char *)dst + (size_t)p->first * per, src, (size_t)n * per);
}

/* Copies part p's batch into the venv's at its first env. */
static void join_part(client_venv_t *v, const struct part *p)
{
    const struct client_shape *s = client_env_shape(p->e);
    const struct client_batch *pb = client_env_batch(p->e);
    struct client_batch *b = &v->b;
    size_t rows = (size_t)s->rows, row = rows * (size_t)s->obs_size * 4;
    put(b->obs, pb->obs, p, s->n, row);
    put(b->legal, pb->legal, p, s->n, rows * (size_t)s->mask_bytes);
    put(b->reward, pb->reward, p, s->n, (size_t)s->rewards * 8);
    put(b->terminated, pb->terminated, p, s->n, 1);
    put(b->truncated, pb->truncated, p, s->n, 1);
    put(b->seat, pb->seat, p, s->n, 4);
    put(b->to_move, pb->to_move, p, s->n, 4);
    put(b->steps, pb->steps, p, s->n, 4);
    memcpy((char *)b->final_obs + (size_t)b->nfinal * row, pb->final_obs,
           (size_t)pb->nfinal * row);
    memcpy(b->final_seat + b->nfinal, pb->final_seat, (size_t)pb->nfinal * 4);
    b->nfinal += pb->nfinal;
}

/* Receives the replies of the first sent parts (all of them, so that none
 * stays in flight) and joins them; sent_rc is the failed send's code.
 * Returns 0 or the first error. */
static int gather(client_venv_t *v, int sent, int sent_rc)
{
    int rc = sent_rc;
    v->b.nfinal = 0;
    for (int j = 0; j < sent; j++) {
        int prc = client__env_receive(v->p[j].e);
        if (prc && !rc)
            rc = err_set(v->err, sizeof v->err, prc, "server %d: %s", j,
                         client_errmsg(v->p[j].c));
        if (!rc)
            join_part(v, &v->p[j]);
    }
    v->ready = !rc;
    return rc;
}

/* Finds the first action that is not legal in its row of the last masks
 * (rows without a legal action belong to seats not to act: the server's
 * call). Returns its index, or -1. */
static int first_illegal(const client_venv_t *v, const int32_t *actions,
                         int count)
{
    int mb = v->shape.mask_bytes;
    for (int r = 0; r < count; r++) {
        const uint8_t *row = v->b.legal + (size_t)r * (size_t)mb;
        bool any = false;
        for (int i = 0; i < mb && !any; i++)
            any = row[i] != 0;
        if (any && (actions[r] < 0 || actions[r] >= v->shape.num_actions ||
                    !client_is_legal(row, actions[r])))
            return r;
    }
    return -1;
}

/* ---- API ----------------------------------------------------------------- */

client_venv_t *client_venv_new(const char *const *endpoints, int nendpoints,
                               const struct client_options *conn, void *ctx,
                               const char *spec,
                               const struct client_make_options *o, char *err,
                               size_t errlen)
{
    if (nendpoints < 1 || nendpoints > CLIENT_VENV_SERVERS_MAX || !o ||
        o->n < nendpoints) {
        err_set(err, errlen, ERR_INVAL,
                "a venv over %d servers wants 1 to %d servers and at least "
                "one env each, got %d envs",
                nendpoints, CLIENT_VENV_SERVERS_MAX, o ? o->n : 0);
        return NULL;
    }
    client_venv_t *v = mem_alloc(sizeof *v);
    v->p = v ? mem_alloc(sizeof *v->p * (size_t)nendpoints) : NULL;
    if (!v || !v->p) {
        mem_free(v);
        err_set(err, errlen, ERR_NOMEM, "out of memory");
        return NULL;
    }
    v->k = nendpoints;
    int rc = 0, first = 0;
    for (int j = 0; j < v->k && !rc; j++) {
        struct client_make_options po = *o;
        po.n = o->n / v->k + (j < o->n % v->k);
        v->p[j].first = first;
        first += po.n;
        rc = make_part(v, j, endpoints[j], conn ? &conn[j] : NULL, ctx, spec,
                       po);
    }
    if (!rc) {
        v->shape = *client_env_shape(v->p[0].e);
        v->shape.n = o->n;
        if (!client__alloc_batch(&v->b, &v->shape))
            rc = err_set(v->err, sizeof v->err, ERR_NOMEM, "out of memory");
    }
    if (rc) {
        err_set(err, errlen, rc, "%s", v->err);
        client_venv_destroy(&v);
    }
    return v;
}

int client_venv_reset(client_venv_t *v, uint64_t seed)
{
    int j = 0, rc = 0;
    v->err[0] = '\0';
    for (; j < v->k && !rc; j++) {
        uint64_t s =
            j ? rng_derive(seed, (uint64_t)v->shape.n + (uint64_t)j) : seed;
        rc = client__reset_send(v->p[j].e, s);
        if (rc)
            err_set(v->err, sizeof v->err, rc, "server %d: %s", j,
                    client_errmsg(v->p[j].c));
    }
    return gather(v, rc ? j - 1 : j, rc);
}

int client_venv_step(client_venv_t *v, const int32_t *actions, int count)
{
    int want = v->shape.n * v->shape.rows, j = 0, rc = 0;
    v->err[0] = '\0';
    if (!v->ready)
        return err_set(v->err, sizeof v->err, ERR_INVAL,
                       "step before a reset (or after a failure)");
    if (count != want)
        return err_set(v->err, sizeof v->err, ERR_INVAL,
                       "%d actions for %d envs of %d rows: want %d", count,
                       v->shape.n, v->shape.rows, want);
    int bad = first_illegal(v, actions, count);
    if (bad >= 0)
        return err_set(v->err, sizeof v->err, ERR_ILLEGAL_ACTION,
                       "env %d: action %d is not legal there; no env moved",
                       bad / v->shape.rows, (int)actions[bad]);
    for (; j < v->k && !rc; j++) {
        const struct part *p = &v->p[j];
        int n = client_env_shape(p->e)->n * v->shape.rows;
        rc = client__step_send(p->e, actions + p->first * v->shape.rows, n);
        if (rc)
            err_set(v->err, sizeof v->err, rc, "server %d: %s", j,
                    client_errmsg(p->c));
    }
    return gather(v, rc ? j - 1 : j, rc);
}

const struct client_shape *client_venv_shape(const client_venv_t *v)
{
    return &v->shape;
}

const struct client_batch *client_venv_batch(const client_venv_t *v)
{
    return &v->b;
}

const char *client_venv_errmsg(const client_venv_t *v)
{
    return v->err;
}

void client_venv_set_timeout(client_venv_t *v, int ms)
{
    for (int j = 0; j < v->k; j++)
        client_set_timeout(v->p[j].c, ms);
}

void client_venv_destroy(client_venv_t **vp)
{
    if (!vp || !*vp)
        return;
    client_venv_t *v = *vp;
    for (int j = 0; j < v->k; j++) {
        if (v->p[j].c) /* a server that is gone: do not wait long */
            client_set_timeout(v->p[j].c, CLOSE_WAIT_MS);
        client_close(&v->p[j].e);
        client_destroy(&v->p[j].c);
    }
    client__free_batch(&v->b);
    mem_free(v->p);
    mem_free(v);
    *vp = NULL;
}
