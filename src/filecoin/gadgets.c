/* Allocation, bits, pick/insert, packing and equality gadgets (gadgets.h). */
#include "filecoin/gadgets.h"

#include <string.h>

#include "common/error.h"

static g16_fr fr_one(void)
{
    g16_fr r;
    g16_fr_set_one(&r);
    return r;
}

static g16_fr fr_neg_one(void)
{
    g16_fr r;
    g16_fr_set_one(&r);
    g16_fr_neg(&r, &r);
    return r;
}

g16_status g16_fc_alloc(g16_fc_cs *cs, g16_fc_num *out, const g16_fr *val)
{
    cs->aux++;
    out->var = 0;
    if (val) out->val = *val;
    else g16_fr_set_zero(&out->val);
    if (cs->waux) {
        *cs->waux++ = out->val;
        return G16_OK;
    }
    if (!cs->b) return G16_OK;
    return g16_builder_alloc_aux(cs->b, &out->var, &out->val);
}

g16_status g16_fc_alloc_input(g16_fc_cs *cs, g16_fc_num *out, const g16_fr *val)
{
    cs->inputs++;
    out->var = 0;
    if (val) out->val = *val;
    else g16_fr_set_zero(&out->val);
    if (cs->wpub) {
        *cs->wpub++ = out->val;
        return G16_OK;
    }
    if (!cs->b) return G16_OK;
    return g16_builder_alloc_input(cs->b, &out->var, &out->val);
}

g16_status g16_fc_enforce(g16_fc_cs *cs, const g16_term *a, size_t na, const g16_term *b, size_t nb,
                          const g16_term *c, size_t nc)
{
    cs->constraints++;
    if (!cs->b) return G16_OK;
    return g16_builder_enforce(cs->b, a, na, b, nb, c, nc);
}

g16_status g16_fc_alloc_bit(g16_fc_cs *cs, g16_fc_num *out, int bit)
{
    g16_fr v;
    if (bit) g16_fr_set_one(&v);
    else g16_fr_set_zero(&v);
    G16_TRY(g16_fc_alloc(cs, out, &v));
    g16_term a[2] = {{G16_VAR_ONE, fr_one()}, {out->var, fr_neg_one()}};
    g16_term b[1] = {{out->var, fr_one()}};
    return g16_fc_enforce(cs, a, 2, b, 1, NULL, 0);
}

g16_status g16_fc_and(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *x, const g16_fc_num *y)
{
    g16_fr v;
    g16_fr_mul(&v, &x->val, &y->val);
    G16_TRY(g16_fc_alloc(cs, out, &v));
    g16_term a[1] = {{x->var, fr_one()}}, b[1] = {{y->var, fr_one()}}, c[1] = {{out->var, fr_one()}};
    return g16_fc_enforce(cs, a, 1, b, 1, c, 1);
}

g16_status g16_fc_nor(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *x, const g16_fc_num *y)
{
    g16_fr v, one = fr_one(), nx, ny;
    g16_fr_sub(&nx, &one, &x->val);
    g16_fr_sub(&ny, &one, &y->val);
    g16_fr_mul(&v, &nx, &ny);
    G16_TRY(g16_fc_alloc(cs, out, &v));
    g16_term a[2] = {{G16_VAR_ONE, one}, {x->var, fr_neg_one()}};
    g16_term b[2] = {{G16_VAR_ONE, one}, {y->var, fr_neg_one()}};
    g16_term c[1] = {{out->var, one}};
    return g16_fc_enforce(cs, a, 2, b, 2, c, 1);
}

g16_status g16_fc_pick(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *cond, const g16_fc_num *a,
                       const g16_fc_num *b)
{
    const g16_fr *v = g16_fr_is_zero(&cond->val) ? &b->val : &a->val;
    G16_TRY(g16_fc_alloc(cs, out, v));
    g16_term ta[2] = {{b->var, fr_one()}, {a->var, fr_neg_one()}};
    g16_term tb[1] = {{cond->var, fr_one()}};
    g16_term tc[2] = {{b->var, fr_one()}, {out->var, fr_neg_one()}};
    return g16_fc_enforce(cs, ta, 2, tb, 1, tc, 2);
}

#define PICK(dst, c, x, y) G16_TRY(g16_fc_pick(cs, &(dst), (c), (x), (y)))

g16_status g16_fc_insert(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *element, const g16_fc_num *bits,
                         const g16_fc_num *siblings, unsigned arity)
{
    const g16_fc_num *a = element, *s = siblings;
    if (arity == 2) {
        PICK(out[0], &bits[0], &s[0], a);
        PICK(out[1], &bits[0], a, &s[0]);
        return G16_OK;
    }
    if (arity == 4) {
        /* position k holds a when the index is k, the sibling before or after it otherwise */
        const g16_fc_num *b0 = &bits[0], *b1 = &bits[1];
        g16_fc_num t;
        PICK(t, b0, &s[0], a);
        PICK(out[0], b1, &s[0], &t);
        PICK(t, b0, a, &s[0]);
        PICK(out[1], b1, &s[1], &t);
        PICK(t, b0, &s[2], a);
        PICK(out[2], b1, &t, &s[1]);
        PICK(t, b0, a, &s[2]);
        PICK(out[3], b1, &t, &s[2]);
        return G16_OK;
    }
    if (arity == 8) {
        const g16_fc_num *b0 = &bits[0], *b1 = &bits[1], *b2 = &bits[2];
        g16_fc_num nor01, and01, t, u;
        G16_TRY(g16_fc_nor(cs, &nor01, b0, b1));
        G16_TRY(g16_fc_and(cs, &and01, b0, b1));
        PICK(t, &nor01, a, &s[0]);
        PICK(out[0], b2, &s[0], &t);
        PICK(t, b0, a, &s[0]);
        PICK(u, b1, &s[1], &t);
        PICK(out[1], b2, &s[1], &u);
        PICK(t, b0, &s[2], a);
        PICK(u, b1, &t, &s[1]);
        PICK(out[2], b2, &s[2], &u);
        PICK(t, &and01, a, &s[2]);
        PICK(out[3], b2, &s[3], &t);
        PICK(t, &nor01, a, &s[4]);
        PICK(out[4], b2, &t, &s[3]);
        PICK(t, b0, a, &s[4]);
        PICK(u, b1, &s[5], &t);
        PICK(out[5], b2, &u, &s[4]);
        PICK(t, b0, &s[6], a);
        PICK(u, b1, &t, &s[5]);
        PICK(out[6], b2, &u, &s[5]);
        PICK(t, &and01, a, &s[6]);
        PICK(out[7], b2, &t, &s[6]);
        return G16_OK;
    }
    return g16_fail(G16_ERR_ARG, "insert: arity %u; want 2, 4 or 8", arity);
}

#undef PICK

/* Fr holds 254 bits safely (its CAPACITY), so bellperson packs that many an input. */
#define PACK_CHUNK 254

g16_status g16_fc_pack_into_inputs(g16_fc_cs *cs, const g16_fc_num *bits, size_t n)
{
    g16_term terms[PACK_CHUNK];
    for (size_t at = 0; at < n; at += PACK_CHUNK) {
        size_t m = n - at < PACK_CHUNK ? n - at : PACK_CHUNK;
        g16_fr val, coeff = fr_one(), t;
        g16_fr_set_zero(&val);
        for (size_t i = 0; i < m; i++) {
            terms[i].var = bits[at + i].var;
            terms[i].coef = coeff;
            g16_fr_mul(&t, &coeff, &bits[at + i].val);
            g16_fr_add(&val, &val, &t);
            g16_fr_dbl(&coeff, &coeff);
        }
        g16_fc_num in;
        G16_TRY(g16_fc_alloc_input(cs, &in, &val));
        g16_term b[1] = {{G16_VAR_ONE, fr_one()}}, c[1] = {{in.var, fr_one()}};
        G16_TRY(g16_fc_enforce(cs, terms, m, b, 1, c, 1));
    }
    return G16_OK;
}

g16_status g16_fc_inputize(g16_fc_cs *cs, const g16_fc_num *x)
{
    g16_fc_num in;
    G16_TRY(g16_fc_alloc_input(cs, &in, &x->val));
    g16_term a[1] = {{in.var, fr_one()}}, b[1] = {{G16_VAR_ONE, fr_one()}}, c[1] = {{x->var, fr_one()}};
    return g16_fc_enforce(cs, a, 1, b, 1, c, 1);
}

g16_status g16_fc_equal(g16_fc_cs *cs, const g16_fc_num *x, const g16_fc_num *y)
{
    g16_term a[1] = {{x->var, fr_one()}}, b[1] = {{G16_VAR_ONE, fr_one()}}, c[1] = {{y->var, fr_one()}};
    return g16_fc_enforce(cs, a, 1, b, 1, c, 1);
}
