/* Poseidon circuit: neptune's legacy circuit::poseidon_hash, allocation for
 * allocation and row for row (gadgets.h), with neptune's compressed round
 * constants and sparse matrices (poseidon.c).
 *
 * Round 0: the tag's S-box is a constant; an input x gives (x + pre)² = l2,
 * l2² = l4, (x + pre)·l4 = l5 − post.  Later rounds: the S-box input (a linear
 * combination) is allocated first (lc · 1 = l), then l² = l2, l2² = l4,
 * l·l4 = l5 − post (no post-key in the last round).  The digest, element 1 after
 * the last MDS, is allocated at the end.
 *
 * State elements are linear combinations kept dense over the variables that can
 * occur in them: after a full round only that round's S-box outputs, and in the
 * partial rounds those plus one output a round, so never more than t + RP. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "filecoin/gadgets.h"

#define MAXV (G16_POSEIDON_MAX_T + 64)

typedef struct elt {
    g16_fr c[MAXV]; /* coefficient of vars[i] */
    g16_fr k;       /* constant term */
    g16_fr val;
    int var_idx;    /* >= 0: a bare allocated input, vars[var_idx] (round 0 only) */
} elt;

typedef struct pstate {
    g16_fc_cs *cs;
    const g16_poseidon *p;
    int build;
    unsigned nv;
    g16_fc_num vars[MAXV];
    elt e[G16_POSEIDON_MAX_T];
    elt scratch[G16_POSEIDON_MAX_T]; /* apply_dense's result */
} pstate;

static void elt_const(elt *x, unsigned nv, const g16_fr *k)
{
    for (unsigned i = 0; i < nv; i++) g16_fr_set_zero(&x->c[i]);
    x->k = *k;
    x->val = *k;
}

static void elt_var(elt *x, unsigned nv, unsigned idx, const g16_fr *val)
{
    for (unsigned i = 0; i < nv; i++) g16_fr_set_zero(&x->c[i]);
    g16_fr_set_one(&x->c[idx]);
    g16_fr_set_zero(&x->k);
    x->val = *val;
}

/* terms of x (constant included) into t; returns the count */
static size_t elt_terms(g16_term *t, const pstate *s, const elt *x)
{
    size_t n = 0;
    for (unsigned i = 0; i < s->nv; i++)
        if (!g16_fr_is_zero(&x->c[i])) t[n++] = (g16_term){s->vars[i].var, x->c[i]};
    if (!g16_fr_is_zero(&x->k)) t[n++] = (g16_term){G16_VAR_ONE, x->k};
    return n;
}

/* Elt::ensure_allocated: v, then lc · 1 = v. */
static g16_status ensure_allocated(pstate *s, g16_fc_num *out, const elt *x)
{
    G16_TRY(g16_fc_alloc(s->cs, out, &x->val));
    if (!s->build) return g16_fc_enforce(s->cs, NULL, 0, NULL, 0, NULL, 0);
    g16_term a[MAXV + 1], one = {G16_VAR_ONE, g16_fr_one_mont}, c = {out->var, g16_fr_one_mont};
    size_t na = elt_terms(a, s, x);
    return g16_fc_enforce(s->cs, a, na, &one, 1, &c, 1);
}

/* out = (Σ ta)·(Σ tb), allocated; row (Σ ta)·(Σ tb) = out − post (post may be NULL). */
static g16_status product(pstate *s, g16_fc_num *out, const g16_term *ta, size_t na, const g16_term *tb, size_t nb,
                          const g16_fr *va, const g16_fr *vb, const g16_fr *post)
{
    g16_fr v;
    g16_fr_mul(&v, va, vb);
    if (post) g16_fr_add(&v, &v, post);
    G16_TRY(g16_fc_alloc(s->cs, out, &v));
    if (!s->build) return g16_fc_enforce(s->cs, NULL, 0, NULL, 0, NULL, 0);
    g16_term c[2] = {{out->var, g16_fr_one_mont}};
    size_t nc = 1;
    if (post && !g16_fr_is_zero(post)) {
        g16_fr_neg(&c[1].coef, post);
        c[1].var = G16_VAR_ONE;
        nc = 2;
    }
    return g16_fc_enforce(s->cs, ta, na, tb, nb, c, nc);
}

/* The S-box of element x.  pre: round 0's pre-key (x is then an input or the
 * constant tag); post: the post-key or NULL.  Out: the output variable, or its
 * constant value when *is_const. */
static g16_status sbox(pstate *s, g16_fc_num *out, int *is_const, const elt *x, int is_tag, const g16_fr *pre,
                       const g16_fr *post)
{
    if (is_tag) {
        g16_fr v = x->val, v2, v4;
        if (pre) g16_fr_add(&v, &v, pre);
        g16_fr_sqr(&v2, &v);
        g16_fr_sqr(&v4, &v2);
        g16_fr_mul(&out->val, &v4, &v);
        if (post) g16_fr_add(&out->val, &out->val, post);
        *is_const = 1;
        return G16_OK;
    }
    *is_const = 0;
    g16_term base[2];
    size_t nb = 1;
    g16_fr bval;
    if (pre) {
        /* round 0: x is a bare input variable, squared with its pre-key added */
        base[0] = (g16_term){s->vars[x->var_idx].var, g16_fr_one_mont};
        bval = x->val;
        g16_fr_add(&bval, &bval, pre);
        if (!g16_fr_is_zero(pre)) base[nb++] = (g16_term){G16_VAR_ONE, *pre};
    } else {
        g16_fc_num l;
        G16_TRY(ensure_allocated(s, &l, x));
        base[0] = (g16_term){l.var, g16_fr_one_mont};
        bval = l.val;
    }
    g16_fc_num l2, l4;
    size_t nbb = s->build ? nb : 0;
    G16_TRY(product(s, &l2, base, nbb, base, nbb, &bval, &bval, NULL));
    g16_term t2 = {l2.var, g16_fr_one_mont};
    G16_TRY(product(s, &l4, &t2, s->build, &t2, s->build, &l2.val, &l2.val, NULL));
    g16_term t4 = {l4.var, g16_fr_one_mont};
    return product(s, out, base, nbb, &t4, s->build, &bval, &l4.val, post);
}

/* e ← e · m (dense), over the current variable list. */
static void apply_dense(pstate *s, const g16_fr m[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T])
{
    if (!s->build) return;
    unsigned t = s->p->t;
    elt *r = s->scratch;
    g16_fr q;
    for (unsigned j = 0; j < t; j++) {
        elt_const(&r[j], s->nv, &(g16_fr){{0}});
        for (unsigned i = 0; i < t; i++) {
            for (unsigned v = 0; v < s->nv; v++) {
                if (g16_fr_is_zero(&s->e[i].c[v])) continue;
                g16_fr_mul(&q, &m[i][j], &s->e[i].c[v]);
                g16_fr_add(&r[j].c[v], &r[j].c[v], &q);
            }
            g16_fr_mul(&q, &m[i][j], &s->e[i].k);
            g16_fr_add(&r[j].k, &r[j].k, &q);
            g16_fr_mul(&q, &m[i][j], &s->e[i].val);
            g16_fr_add(&r[j].val, &r[j].val, &q);
        }
    }
    for (unsigned i = 0; i < t; i++) s->e[i] = r[i];
}

/* e ← e · C'' for partial round k's sparse matrix (poseidon.c). */
static void apply_sparse(pstate *s, unsigned k)
{
    if (!s->build) return;
    unsigned t = s->p->t, nv = s->nv;
    const g16_fr *w = &s->p->w_hat[k * t], *vr = &s->p->v_rest[k * (t - 1)];
    elt y0;
    g16_fr q;
    elt_const(&y0, nv, &(g16_fr){{0}});
    for (unsigned i = 0; i < t; i++) {
        for (unsigned v = 0; v < nv; v++) {
            g16_fr_mul(&q, &w[i], &s->e[i].c[v]);
            g16_fr_add(&y0.c[v], &y0.c[v], &q);
        }
        g16_fr_mul(&q, &w[i], &s->e[i].k);
        g16_fr_add(&y0.k, &y0.k, &q);
        g16_fr_mul(&q, &w[i], &s->e[i].val);
        g16_fr_add(&y0.val, &y0.val, &q);
    }
    for (unsigned j = 1; j < t; j++) {
        elt *x = &s->e[j];
        for (unsigned v = 0; v < nv; v++) {
            g16_fr_mul(&q, &vr[j - 1], &s->e[0].c[v]);
            g16_fr_add(&x->c[v], &x->c[v], &q);
        }
        g16_fr_mul(&q, &vr[j - 1], &s->e[0].k);
        g16_fr_add(&x->k, &x->k, &q);
        g16_fr_mul(&q, &vr[j - 1], &s->e[0].val);
        g16_fr_add(&x->val, &x->val, &q);
    }
    s->e[0] = y0;
    s->e[0].var_idx = -1;
    for (unsigned j = 1; j < t; j++) s->e[j].var_idx = -1;
}

/* One full round: S-boxes (round 0 with pre-keys), post-keys, then m. */
static g16_status full_round(pstate *s, const g16_fr **keys, int first, int last,
                             const g16_fr m[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T])
{
    unsigned t = s->p->t;
    const g16_fr *pre = NULL, *post = NULL;
    if (first) {
        pre = *keys;
        *keys += t;
    }
    if (!last) {
        post = *keys;
        *keys += t;
    }
    g16_fc_num outs[G16_POSEIDON_MAX_T];
    int cst[G16_POSEIDON_MAX_T];
    for (unsigned i = 0; i < t; i++)
        G16_TRY(sbox(s, &outs[i], &cst[i], &s->e[i], first && i == 0, pre ? &pre[i] : NULL,
                     post ? &post[i] : NULL));
    /* a new epoch: the state is now these outputs only */
    s->nv = 0;
    unsigned idx[G16_POSEIDON_MAX_T];
    for (unsigned i = 0; i < t; i++)
        if (!cst[i]) {
            idx[i] = s->nv;
            s->vars[s->nv++] = outs[i];
        }
    for (unsigned i = 0; i < t; i++) {
        if (!s->build) continue;
        if (cst[i]) elt_const(&s->e[i], s->nv, &outs[i].val);
        else elt_var(&s->e[i], s->nv, idx[i], &outs[i].val);
        s->e[i].var_idx = -1; /* after the matrix every element is a combination */
    }
    apply_dense(s, m);
    return G16_OK;
}

static g16_status gadget(pstate *s, g16_fc_cs *cs, g16_fc_num *out, const g16_poseidon *p, const g16_fc_num *in);

/* Whether the batched pass already wrote this gadget's trace at waux (gadgets.h,
 * g16_fc_pretrace): the entry at this place, with the same inputs. */
static int pretraced(g16_fc_pretrace *pt, const g16_fr *waux, const g16_poseidon *p, const g16_fr *in)
{
    if (!pt || pt->next >= pt->log->n || pt->aux0 + pt->log->off[pt->next] != waux) return 0;
    size_t k = pt->next++;
    if (!pt->done[k] || pt->log->arity[k] != p->arity || memcmp(&pt->in[8 * k], in, p->arity * sizeof *in)) return 0;
    pt->hits++;
    return 1;
}

static g16_status log_gadget(g16_fc_hash_log *log, uint64_t off, unsigned arity)
{
    if (log->n == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 64;
        uint64_t *o = realloc(log->off, cap * sizeof *o);
        if (o) log->off = o;
        unsigned char *a = o ? realloc(log->arity, cap) : NULL;
        if (!a) return g16_fail(G16_ERR_NOMEM, "poseidon gadget log of %zu entries", cap);
        log->arity = a;
        log->cap = cap;
    }
    log->off[log->n] = off;
    log->arity[log->n++] = (unsigned char)arity;
    return G16_OK;
}

void g16_fc_hash_log_free(g16_fc_hash_log *log)
{
    free(log->off);
    free(log->arity);
    *log = (g16_fc_hash_log){0};
}

g16_status g16_fc_poseidon_gadget(g16_fc_cs *cs, g16_fc_num *out, const g16_poseidon *p, const g16_fc_num *in)
{
    if (g16_fc_witnessing(cs)) {
        /* witness mode: the native hash writes the gadget's values in its order */
        g16_fr in_v[G16_POSEIDON_MAX_T];
        for (unsigned i = 0; i < p->arity; i++) in_v[i] = in[i].val;
        size_t n;
        if (pretraced(cs->pre, cs->waux, p, in_v)) {
            n = g16_poseidon_trace_len(p);
            out->val = cs->waux[n - 1];
        } else {
            n = g16_poseidon_hash_trace(&out->val, p, in_v, cs->waux);
        }
        cs->waux += n;
        cs->aux += n;
        cs->constraints += n;
        out->var = 0;
        return G16_OK;
    }
    if (cs->log) G16_TRY(log_gadget(cs->log, cs->aux, p->arity));
    /* on the heap, not thread-local: 64 KB of static TLS would be zeroed, and so
     * resident, in every thread of every process linking this layer */
    pstate *sp = malloc(sizeof *sp);
    if (!sp) return g16_fail(G16_ERR_NOMEM, "poseidon gadget state");
    g16_status st = gadget(sp, cs, out, p, in);
    free(sp);
    return st;
}

static g16_status gadget(pstate *s, g16_fc_cs *cs, g16_fc_num *out, const g16_poseidon *p, const g16_fc_num *in)
{
    s->cs = cs;
    s->p = p;
    s->build = g16_fc_building(cs);
    unsigned t = p->t, half = p->rf / 2;
    s->nv = p->arity;
    for (unsigned i = 0; i < p->arity; i++) s->vars[i] = in[i];
    elt_const(&s->e[0], s->nv, &p->tag);
    s->e[0].var_idx = -1;
    for (unsigned i = 1; i < t; i++) {
        elt_var(&s->e[i], s->nv, i - 1, &in[i - 1].val);
        s->e[i].var_idx = (int)(i - 1);
    }
    const g16_fr *keys = p->crc;
    for (unsigned r = 0; r < half; r++)
        G16_TRY(full_round(s, &keys, r == 0, 0, r + 1 == half ? p->pre_sparse : p->mds));
    for (unsigned k = 0; k < p->rp; k++) {
        g16_fc_num o;
        int c;
        G16_TRY(sbox(s, &o, &c, &s->e[0], 0, NULL, keys++));
        if (s->nv == MAXV) return g16_fail(G16_ERR_INTERNAL, "poseidon gadget: more than %d live variables", MAXV);
        s->vars[s->nv] = o;
        if (s->build) {
            for (unsigned i = 0; i < t; i++) g16_fr_set_zero(&s->e[i].c[s->nv]);
            elt_var(&s->e[0], s->nv + 1, s->nv, &o.val);
        }
        s->nv++;
        apply_sparse(s, k);
    }
    for (unsigned r = 0; r < half; r++) G16_TRY(full_round(s, &keys, 0, r + 1 == half, p->mds));
    if ((size_t)(keys - p->crc) != p->n_crc)
        return g16_fail(G16_ERR_INTERNAL, "poseidon gadget: %zu of %zu round constants used",
                        (size_t)(keys - p->crc), p->n_crc);
    return ensure_allocated(s, out, &s->e[1]);
}
