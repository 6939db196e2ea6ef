/* Poseidon circuit with the allocation and row sequence of neptune's legacy
 * circuit::poseidon_hash (gadgets.h).
 *
 * State elements are linear combinations kept dense over the variables that can
 * occur in them: after a full round only that round's t S-box outputs, and in the
 * partial rounds those plus one S-box output a round, so a combination never has
 * more than t + RP terms.  The round constants and matrices are the optimized
 * schedule of poseidon.c (constants added before the S-box, sparse partial
 * matrices); neptune compresses its constants the other way round (added after
 * the S-box), which changes coefficients but not one allocation or row. */
#include <string.h>

#include "common/error.h"
#include "filecoin/gadgets.h"

#define MAXV (G16_POSEIDON_MAX_T + 64)

typedef struct elt {
    g16_fr c[MAXV]; /* coefficient of vars[i] */
    g16_fr k;       /* constant term */
    g16_fr val;
} elt;

typedef struct pstate {
    g16_fc_cs *cs;
    const g16_poseidon *p;
    int build;
    unsigned nv;
    g16_fc_num vars[MAXV];
    elt e[G16_POSEIDON_MAX_T];
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

static int elt_is_const(const elt *x, unsigned nv)
{
    for (unsigned i = 0; i < nv; i++)
        if (!g16_fr_is_zero(&x->c[i])) return 0;
    return 1;
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

/* y = v² as one allocation and one row, where v is the combination b (terms tb). */
static g16_status square_of(pstate *s, g16_fc_num *out, const g16_term *tb, size_t nb, const g16_fr *vb)
{
    g16_fr v;
    g16_fr_sqr(&v, vb);
    G16_TRY(g16_fc_alloc(s->cs, out, &v));
    g16_term c = {out->var, g16_fr_one_mont};
    return g16_fc_enforce(s->cs, tb, nb, tb, nb, &c, s->build ? 1 : 0);
}

/* The S-box of element i: returns the output's value (a fresh variable's, or the
 * constant's when the input is a constant).  first: neptune's first round, where
 * an input is a bare allocated number plus its round constant and is squared
 * as it is (square_sum / mul_sum with a pre-added key) rather than allocated. */
static g16_status sbox(pstate *s, g16_fc_num *out, int *is_const, const elt *x, int first)
{
    if (s->build ? elt_is_const(x, s->nv) : (first && x == &s->e[0])) {
        g16_fr v = x->val, v2, v4;
        g16_fr_sqr(&v2, &v);
        g16_fr_sqr(&v4, &v2);
        g16_fr_mul(&out->val, &v4, &v);
        *is_const = 1;
        return G16_OK;
    }
    *is_const = 0;
    g16_term base[MAXV + 1];
    size_t nbase = 0;
    if (first) {
        if (s->build) nbase = elt_terms(base, s, x);
    } else {
        g16_fc_num l;
        G16_TRY(ensure_allocated(s, &l, x));
        base[0] = (g16_term){l.var, g16_fr_one_mont};
        nbase = 1;
    }
    g16_fc_num l2, l4;
    G16_TRY(square_of(s, &l2, base, s->build ? nbase : 0, &x->val));
    g16_term t2 = {l2.var, g16_fr_one_mont};
    G16_TRY(square_of(s, &l4, &t2, s->build ? 1 : 0, &l2.val));
    g16_fr v5;
    g16_fr_mul(&v5, &l4.val, &x->val);
    G16_TRY(g16_fc_alloc(s->cs, out, &v5));
    g16_term a = {l4.var, g16_fr_one_mont}, c = {out->var, g16_fr_one_mont};
    return g16_fc_enforce(s->cs, &a, s->build ? 1 : 0, base, s->build ? nbase : 0, &c, s->build ? 1 : 0);
}

/* e ← m · e (dense), over the current variable list. */
static void apply_dense(pstate *s, const g16_fr m[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T])
{
    if (!s->build) return;
    unsigned t = s->p->t;
    static _Thread_local elt r[G16_POSEIDON_MAX_T];
    g16_fr q;
    for (unsigned i = 0; i < t; i++) {
        elt_const(&r[i], s->nv, &(g16_fr){{0}});
        for (unsigned j = 0; j < t; j++) {
            for (unsigned v = 0; v < s->nv; v++) {
                if (g16_fr_is_zero(&s->e[j].c[v])) continue;
                g16_fr_mul(&q, &m[i][j], &s->e[j].c[v]);
                g16_fr_add(&r[i].c[v], &r[i].c[v], &q);
            }
            g16_fr_mul(&q, &m[i][j], &s->e[j].k);
            g16_fr_add(&r[i].k, &r[i].k, &q);
            g16_fr_mul(&q, &m[i][j], &s->e[j].val);
            g16_fr_add(&r[i].val, &r[i].val, &q);
        }
    }
    for (unsigned i = 0; i < t; i++) s->e[i] = r[i];
}

/* e ← S · e for the sparse matrix of partial round k (poseidon.c). */
static void apply_sparse(pstate *s, unsigned k)
{
    if (!s->build) return;
    unsigned t = s->p->t, nv = s->nv;
    const g16_fr *row = &s->p->sp_row[k * t], *col = &s->p->sp_col[k * (t - 1)];
    elt y0;
    g16_fr q;
    elt_const(&y0, nv, &(g16_fr){{0}});
    for (unsigned j = 0; j < t; j++) {
        for (unsigned v = 0; v < nv; v++) {
            g16_fr_mul(&q, &row[j], &s->e[j].c[v]);
            g16_fr_add(&y0.c[v], &y0.c[v], &q);
        }
        g16_fr_mul(&q, &row[j], &s->e[j].k);
        g16_fr_add(&y0.k, &y0.k, &q);
        g16_fr_mul(&q, &row[j], &s->e[j].val);
        g16_fr_add(&y0.val, &y0.val, &q);
    }
    for (unsigned j = 1; j < t; j++) {
        elt *x = &s->e[j];
        for (unsigned v = 0; v < nv; v++) {
            g16_fr_mul(&q, &col[j - 1], &s->e[0].c[v]);
            g16_fr_add(&x->c[v], &x->c[v], &q);
        }
        g16_fr_mul(&q, &col[j - 1], &s->e[0].k);
        g16_fr_add(&x->k, &x->k, &q);
        g16_fr_mul(&q, &col[j - 1], &s->e[0].val);
        g16_fr_add(&x->val, &x->val, &q);
    }
    s->e[0] = y0;
}

static void add_const(pstate *s, unsigned i, const g16_fr *c)
{
    g16_fr_add(&s->e[i].k, &s->e[i].k, c);
    g16_fr_add(&s->e[i].val, &s->e[i].val, c);
}

static g16_status full_round(pstate *s, unsigned r, int first)
{
    unsigned t = s->p->t;
    g16_fc_num outs[G16_POSEIDON_MAX_T];
    int cst[G16_POSEIDON_MAX_T];
    for (unsigned i = 0; i < t; i++) {
        add_const(s, i, &s->p->orc[r * t + i]);
        G16_TRY(sbox(s, &outs[i], &cst[i], &s->e[i], first));
    }
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
    }
    apply_dense(s, s->p->mds);
    return G16_OK;
}

g16_status g16_fc_poseidon_gadget(g16_fc_cs *cs, g16_fc_num *out, const g16_poseidon *p, const g16_fc_num *in)
{
    static _Thread_local pstate s;
    s.cs = cs;
    s.p = p;
    s.build = g16_fc_building(cs);
    unsigned t = p->t, half = p->rf / 2;
    s.nv = p->arity;
    for (unsigned i = 0; i < p->arity; i++) s.vars[i] = in[i];
    if (s.build) {
        elt_const(&s.e[0], s.nv, &p->tag);
        for (unsigned i = 1; i < t; i++) elt_var(&s.e[i], s.nv, i - 1, &in[i - 1].val);
    }
    for (unsigned r = 0; r < half; r++) G16_TRY(full_round(&s, r, r == 0));
    for (unsigned k = 0; k < p->rp; k++) {
        unsigned r = half + k;
        add_const(&s, 0, &p->orc[r * t]);
        g16_fc_num o;
        int c;
        G16_TRY(sbox(&s, &o, &c, &s.e[0], 0));
        if (s.nv == MAXV) return g16_fail(G16_ERR_INTERNAL, "poseidon gadget: more than %d live variables", MAXV);
        s.vars[s.nv] = o;
        if (s.build) {
            for (unsigned i = 0; i < t; i++) g16_fr_set_zero(&s.e[i].c[s.nv]);
            elt_var(&s.e[0], s.nv + 1, s.nv, &o.val);
        }
        s.nv++;
        if (k + 1 == p->rp) apply_dense(&s, p->last);
        else apply_sparse(&s, k);
    }
    for (unsigned r = half + p->rp; r < p->rf + p->rp; r++) G16_TRY(full_round(&s, r, 0));
    return ensure_allocated(&s, out, &s.e[1]);
}
