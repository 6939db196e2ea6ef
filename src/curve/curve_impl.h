/* The one body of point code for G1 and G2 (a template, included once by g1.c
 * and once by g2.c).  The includer defines, before including:
 *   CV(name)    the exported name, e.g. g16_g1_##name
 *   FE(name)    the field function, e.g. g16_fp_##name
 *   FE_T, AFF, JAC, XYZZ     the field and point types
 *   FE_BYTES    bytes of one serialised field element; G_NAME "G1" / "G2"
 *   curve_b, gen_x, gen_y    static const FE_T: b and the generator (Montgomery form)
 *   cofactor[]  static const uint64_t: the full cofactor h, little-endian limbs
 *   ENDO_ABS_X  (optional, G2) split scalars four ways with endo_abs_x
 * and after including defines the group-specific statics declared below
 * (fe_to_bytes/fe_from_bytes, endo_mu [and endo_abs_x], subgroup_check).
 * Contracts are in curve.h; formulas and sources in docs/curve.md. */
#include <string.h>

#include "common/error.h"
#include "curve/curve.h"

/* ------------------------------------------------------------------ basics */

static inline int fe_zero(const FE_T *a) { return FE(is_zero)(a); }

void CV(affine_set_infinity)(AFF *r) { memset(r, 0, sizeof *r); }
void CV(jac_set_infinity)(JAC *r) { memset(r, 0, sizeof *r); }
void CV(xyzz_set_infinity)(XYZZ *r) { memset(r, 0, sizeof *r); }
int CV(affine_is_infinity)(const AFF *p) { return fe_zero(&p->x) & fe_zero(&p->y); }
int CV(jac_is_infinity)(const JAC *p) { return fe_zero(&p->z); }
int CV(xyzz_is_infinity)(const XYZZ *p) { return fe_zero(&p->zz); }

void CV(affine_generator)(AFF *r) { r->x = gen_x; r->y = gen_y; }

void CV(jac_from_affine)(JAC *r, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    r->x = p->x;
    r->y = p->y;
    FE(set_one)(&r->z);
}

void CV(xyzz_from_affine)(XYZZ *r, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) { CV(xyzz_set_infinity)(r); return; }
    r->x = p->x;
    r->y = p->y;
    FE(set_one)(&r->zz);
    FE(set_one)(&r->zzz);
}

void CV(jac_generator)(JAC *r)
{
    AFF g = {gen_x, gen_y};
    CV(jac_from_affine)(r, &g);
}

/* x = X/Z² = X/ZZ and y = Y/Z³ = Y/ZZZ: only ZZ = Z², ZZZ = Z³ are new. */
void CV(jac_to_xyzz)(XYZZ *r, const JAC *p)
{
    FE_T zz;
    FE(sqr)(&zz, &p->z);
    FE(mul)(&r->zzz, &zz, &p->z);
    r->zz = zz;
    r->x = p->x;
    r->y = p->y;
}

/* Uses the XYZZ invariant ZZ³ = ZZZ² (kept by every formula here; see point.h):
 * with Z = ZZZ, x·Z² = (X/ZZ)·ZZ³ = X·ZZ² and y·Z³ = (Y/ZZZ)·ZZZ³ = Y·ZZZ². */
void CV(xyzz_to_jac)(JAC *r, const XYZZ *p)
{
    FE_T t;
    FE(sqr)(&t, &p->zz);
    FE(mul)(&r->x, &p->x, &t);
    FE(sqr)(&t, &p->zzz);
    FE(mul)(&r->y, &p->y, &t);
    r->z = p->zzz;
}

/* --------------------------------------------------------- negation, equality */

void CV(affine_neg)(AFF *r, const AFF *p) { r->x = p->x; FE(neg)(&r->y, &p->y); }
void CV(jac_neg)(JAC *r, const JAC *p) { r->x = p->x; FE(neg)(&r->y, &p->y); r->z = p->z; }
void CV(xyzz_neg)(XYZZ *r, const XYZZ *p)
{
    r->x = p->x;
    FE(neg)(&r->y, &p->y);
    r->zz = p->zz;
    r->zzz = p->zzz;
}

int CV(affine_eq)(const AFF *a, const AFF *b)
{
    return FE(eq)(&a->x, &b->x) & FE(eq)(&a->y, &b->y);
}

int CV(jac_eq)(const JAC *a, const JAC *b)
{
    int ia = CV(jac_is_infinity)(a), ib = CV(jac_is_infinity)(b);
    if (ia | ib) return ia & ib;
    FE_T za2, zb2, t0, t1;
    FE(sqr)(&za2, &a->z);
    FE(sqr)(&zb2, &b->z);
    FE(mul)(&t0, &a->x, &zb2);
    FE(mul)(&t1, &b->x, &za2);
    if (!FE(eq)(&t0, &t1)) return 0;
    FE(mul)(&za2, &za2, &a->z);
    FE(mul)(&zb2, &zb2, &b->z);
    FE(mul)(&t0, &a->y, &zb2);
    FE(mul)(&t1, &b->y, &za2);
    return FE(eq)(&t0, &t1);
}

int CV(jac_eq_affine)(const JAC *a, const AFF *b)
{
    JAC bj;
    CV(jac_from_affine)(&bj, b);
    return CV(jac_eq)(a, &bj);
}

int CV(xyzz_eq)(const XYZZ *a, const XYZZ *b)
{
    int ia = CV(xyzz_is_infinity)(a), ib = CV(xyzz_is_infinity)(b);
    if (ia | ib) return ia & ib;
    FE_T t0, t1;
    FE(mul)(&t0, &a->x, &b->zz);
    FE(mul)(&t1, &b->x, &a->zz);
    if (!FE(eq)(&t0, &t1)) return 0;
    FE(mul)(&t0, &a->y, &b->zzz);
    FE(mul)(&t1, &b->y, &a->zzz);
    return FE(eq)(&t0, &t1);
}

/* --------------------------------------------------------- Jacobian formulas */

/* dbl-2009-l (EFD, a = 0): 2M + 5S.  Z = 0 stays 0 (Z3 = 2·Y·Z), and no point of
 * E or E' has Y = 0 (both cofactors are odd), so no special case is needed. */
void CV(jac_dbl)(JAC *r, const JAC *p)
{
    FE_T a, b, c, d, e, f, t;
    FE(sqr)(&a, &p->x);
    FE(sqr)(&b, &p->y);
    FE(sqr)(&c, &b);
    FE(add)(&d, &p->x, &b);
    FE(sqr)(&d, &d);
    FE(sub)(&d, &d, &a);
    FE(sub)(&d, &d, &c);
    FE(dbl)(&d, &d);
    FE(dbl)(&e, &a);
    FE(add)(&e, &e, &a);
    FE(sqr)(&f, &e);
    FE(mul)(&t, &p->y, &p->z);      /* before r->y is overwritten (aliasing) */
    FE(dbl)(&r->z, &t);
    FE(sub)(&r->x, &f, &d);
    FE(sub)(&r->x, &r->x, &d);
    FE(sub)(&t, &d, &r->x);
    FE(mul)(&t, &e, &t);
    FE(dbl)(&c, &c);
    FE(dbl)(&c, &c);
    FE(dbl)(&c, &c);
    FE(sub)(&r->y, &t, &c);
}

/* add-2007-bl: 11M + 5S.  H = 0 means equal x: P = Q (double) or P = −Q (O). */
void CV(jac_add)(JAC *r, const JAC *p, const JAC *q)
{
    if (CV(jac_is_infinity)(p)) { *r = *q; return; }
    if (CV(jac_is_infinity)(q)) { *r = *p; return; }
    FE_T z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    FE(sqr)(&z1z1, &p->z);
    FE(sqr)(&z2z2, &q->z);
    FE(mul)(&u1, &p->x, &z2z2);
    FE(mul)(&u2, &q->x, &z1z1);
    FE(mul)(&s1, &p->y, &q->z);
    FE(mul)(&s1, &s1, &z2z2);
    FE(mul)(&s2, &q->y, &p->z);
    FE(mul)(&s2, &s2, &z1z1);
    FE(sub)(&h, &u2, &u1);
    FE(sub)(&rr, &s2, &s1);
    if (fe_zero(&h)) {
        if (fe_zero(&rr)) CV(jac_dbl)(r, p);
        else CV(jac_set_infinity)(r);
        return;
    }
    FE(dbl)(&i, &h);
    FE(sqr)(&i, &i);
    FE(mul)(&j, &h, &i);
    FE(dbl)(&rr, &rr);
    FE(mul)(&v, &u1, &i);
    FE(add)(&t, &p->z, &q->z);      /* Z3 first: p, q may alias r */
    FE(sqr)(&t, &t);
    FE(sub)(&t, &t, &z1z1);
    FE(sub)(&t, &t, &z2z2);
    FE(mul)(&r->z, &t, &h);
    FE(sqr)(&r->x, &rr);
    FE(sub)(&r->x, &r->x, &j);
    FE(sub)(&r->x, &r->x, &v);
    FE(sub)(&r->x, &r->x, &v);
    FE(sub)(&t, &v, &r->x);
    FE(mul)(&t, &rr, &t);
    FE(mul)(&s1, &s1, &j);
    FE(dbl)(&s1, &s1);
    FE(sub)(&r->y, &t, &s1);
}

/* madd-2007-bl: 7M + 4S. */
void CV(jac_add_affine)(JAC *r, const JAC *p, const AFF *q)
{
    if (CV(affine_is_infinity)(q)) { *r = *p; return; }
    if (CV(jac_is_infinity)(p)) { CV(jac_from_affine)(r, q); return; }
    FE_T z1z1, u2, s2, h, hh, i, j, rr, v, t;
    FE(sqr)(&z1z1, &p->z);
    FE(mul)(&u2, &q->x, &z1z1);
    FE(mul)(&s2, &q->y, &p->z);
    FE(mul)(&s2, &s2, &z1z1);
    FE(sub)(&h, &u2, &p->x);
    FE(sub)(&rr, &s2, &p->y);
    if (fe_zero(&h)) {
        if (fe_zero(&rr)) CV(jac_dbl)(r, p);
        else CV(jac_set_infinity)(r);
        return;
    }
    FE(sqr)(&hh, &h);
    FE(dbl)(&i, &hh);
    FE(dbl)(&i, &i);
    FE(mul)(&j, &h, &i);
    FE(dbl)(&rr, &rr);
    FE(mul)(&v, &p->x, &i);
    FE(mul)(&s2, &p->y, &j);        /* Y1·J, read before r->y is written */
    FE(add)(&t, &p->z, &h);
    FE(sqr)(&t, &t);
    FE(sub)(&t, &t, &z1z1);
    FE(sub)(&r->z, &t, &hh);
    FE(sqr)(&r->x, &rr);
    FE(sub)(&r->x, &r->x, &j);
    FE(sub)(&r->x, &r->x, &v);
    FE(sub)(&r->x, &r->x, &v);
    FE(sub)(&t, &v, &r->x);
    FE(mul)(&t, &rr, &t);
    FE(dbl)(&s2, &s2);
    FE(sub)(&r->y, &t, &s2);
}

/* ------------------------------------------------------------ XYZZ formulas */

/* dbl-2008-s-1 (a = 0): 6M + 3S; ZZ = 0 stays 0. */
void CV(xyzz_dbl)(XYZZ *r, const XYZZ *p)
{
    FE_T u, v, w, s, m, t;
    FE(dbl)(&u, &p->y);
    FE(sqr)(&v, &u);
    FE(mul)(&w, &u, &v);
    FE(mul)(&s, &p->x, &v);
    FE(sqr)(&m, &p->x);
    FE(dbl)(&t, &m);
    FE(add)(&m, &m, &t);
    FE(mul)(&r->zz, &v, &p->zz);
    FE(mul)(&r->zzz, &w, &p->zzz);
    FE(mul)(&w, &w, &p->y);
    FE(sqr)(&r->x, &m);
    FE(sub)(&r->x, &r->x, &s);
    FE(sub)(&r->x, &r->x, &s);
    FE(sub)(&t, &s, &r->x);
    FE(mul)(&t, &m, &t);
    FE(sub)(&r->y, &t, &w);
}

/* mdbl-2008-s-1: 2·(x, y) for an affine point (ZZ = ZZZ = 1), 3M + 2S. */
static void xyzz_dbl_affine(XYZZ *r, const FE_T *x, const FE_T *y)
{
    FE_T u, v, w, s, m, t;
    FE(dbl)(&u, y);
    FE(sqr)(&v, &u);
    FE(mul)(&w, &u, &v);
    FE(mul)(&s, x, &v);
    FE(sqr)(&m, x);
    FE(dbl)(&t, &m);
    FE(add)(&m, &m, &t);
    r->zz = v;
    r->zzz = w;
    FE(mul)(&w, &w, y);
    FE(sqr)(&r->x, &m);
    FE(sub)(&r->x, &r->x, &s);
    FE(sub)(&r->x, &r->x, &s);
    FE(sub)(&t, &s, &r->x);
    FE(mul)(&t, &m, &t);
    FE(sub)(&r->y, &t, &w);
}

/* madd-2008-s: 8M + 2S.  qy is y or −y of the affine operand, so add and sub
 * share it.  P = 0 means equal x: doubling when R = 0, else O. */
static inline void xyzz_madd(XYZZ *r, const XYZZ *p, const FE_T *qx, const FE_T *qy)
{
    if (CV(xyzz_is_infinity)(p)) {
        r->x = *qx;
        r->y = *qy;
        FE(set_one)(&r->zz);
        FE(set_one)(&r->zzz);
        return;
    }
    FE_T u2, s2, pp, ppp, q, rr, t;
    FE(mul)(&u2, qx, &p->zz);
    FE(mul)(&s2, qy, &p->zzz);
    FE(sub)(&u2, &u2, &p->x);       /* P */
    FE(sub)(&rr, &s2, &p->y);       /* R */
    if (fe_zero(&u2)) {
        if (fe_zero(&rr)) xyzz_dbl_affine(r, qx, qy);
        else CV(xyzz_set_infinity)(r);
        return;
    }
    FE(sqr)(&pp, &u2);
    FE(mul)(&ppp, &u2, &pp);
    FE(mul)(&q, &p->x, &pp);
    FE(mul)(&r->zz, &p->zz, &pp);
    FE(mul)(&r->zzz, &p->zzz, &ppp);
    FE(mul)(&s2, &p->y, &ppp);      /* Y1·PPP, read before r->y is written */
    FE(sqr)(&t, &rr);
    FE(sub)(&t, &t, &ppp);
    FE(sub)(&t, &t, &q);
    FE(sub)(&r->x, &t, &q);
    FE(sub)(&t, &q, &r->x);
    FE(mul)(&t, &rr, &t);
    FE(sub)(&r->y, &t, &s2);
}

void CV(xyzz_add_affine)(XYZZ *r, const XYZZ *p, const AFF *q)
{
    if (CV(affine_is_infinity)(q)) { *r = *p; return; }
    xyzz_madd(r, p, &q->x, &q->y);
}

void CV(xyzz_sub_affine)(XYZZ *r, const XYZZ *p, const AFF *q)
{
    if (CV(affine_is_infinity)(q)) { *r = *p; return; }
    FE_T ny;
    FE(neg)(&ny, &q->y);
    xyzz_madd(r, p, &q->x, &ny);
}

/* add-2008-s: 12M + 2S. */
void CV(xyzz_add)(XYZZ *r, const XYZZ *p, const XYZZ *q)
{
    if (CV(xyzz_is_infinity)(p)) { *r = *q; return; }
    if (CV(xyzz_is_infinity)(q)) { *r = *p; return; }
    FE_T u1, u2, s1, s2, pp, ppp, qq, rr, t;
    FE(mul)(&u1, &p->x, &q->zz);
    FE(mul)(&u2, &q->x, &p->zz);
    FE(mul)(&s1, &p->y, &q->zzz);
    FE(mul)(&s2, &q->y, &p->zzz);
    FE(sub)(&u2, &u2, &u1);         /* P */
    FE(sub)(&rr, &s2, &s1);         /* R */
    if (fe_zero(&u2)) {
        if (fe_zero(&rr)) CV(xyzz_dbl)(r, p);
        else CV(xyzz_set_infinity)(r);
        return;
    }
    FE(sqr)(&pp, &u2);
    FE(mul)(&ppp, &u2, &pp);
    FE(mul)(&qq, &u1, &pp);
    FE(mul)(&t, &p->zz, &q->zz);
    FE(mul)(&r->zz, &t, &pp);
    FE(mul)(&t, &p->zzz, &q->zzz);
    FE(mul)(&r->zzz, &t, &ppp);
    FE(mul)(&s1, &s1, &ppp);
    FE(sqr)(&t, &rr);
    FE(sub)(&t, &t, &ppp);
    FE(sub)(&t, &t, &qq);
    FE(sub)(&r->x, &t, &qq);
    FE(sub)(&t, &qq, &r->x);
    FE(mul)(&t, &rr, &t);
    FE(sub)(&r->y, &t, &s1);
}

/* ------------------------------------------------------ affine normalisation */

void CV(jac_to_affine)(AFF *r, const JAC *p)
{
    if (CV(jac_is_infinity)(p)) { CV(affine_set_infinity)(r); return; }
    FE_T zi, zi2, t;
    FE(inv)(&zi, &p->z);
    FE(sqr)(&zi2, &zi);
    FE(mul)(&r->x, &p->x, &zi2);
    FE(mul)(&t, &zi2, &zi);
    FE(mul)(&r->y, &p->y, &t);
}

/* 1/ZZ = (ZZ/ZZZ)² by the invariant ZZ³ = ZZZ², so one inversion of ZZZ serves both. */
static inline void xyzz_unscale(AFF *r, const XYZZ *p, const FE_T *izzz)
{
    FE_T t;
    FE(mul)(&t, &p->zz, izzz);
    FE(sqr)(&t, &t);
    FE(mul)(&r->x, &p->x, &t);
    FE(mul)(&r->y, &p->y, izzz);
}

void CV(xyzz_to_affine)(AFF *r, const XYZZ *p)
{
    if (CV(xyzz_is_infinity)(p)) { CV(affine_set_infinity)(r); return; }
    FE_T izzz;
    FE(inv)(&izzz, &p->zzz);
    xyzz_unscale(r, p, &izzz);
}

/* Montgomery's trick: out[i].x holds the product of the nonzero denominators
 * before i, so no scratch beyond out is needed; zero denominators (O) are skipped. */
#define BATCH_TO_AFFINE(out, in, n, DEN, IS_INF, UNSCALE_JAC)                      \
    do {                                                                           \
        FE_T acc, inv, t;                                                          \
        FE(set_one)(&acc);                                                         \
        for (size_t i = 0; i < (n); i++) {                                         \
            (out)[i].x = acc;                                                      \
            if (!IS_INF(&(in)[i])) FE(mul)(&acc, &acc, &(in)[i].DEN);              \
        }                                                                          \
        FE(inv)(&inv, &acc);                                                       \
        for (size_t i = (n); i-- > 0;) {                                           \
            if (IS_INF(&(in)[i])) { CV(affine_set_infinity)(&(out)[i]); continue; } \
            FE(mul)(&t, &inv, &(out)[i].x);  /* 1/den_i */                         \
            FE(mul)(&inv, &inv, &(in)[i].DEN);                                     \
            UNSCALE_JAC(&(out)[i], &(in)[i], &t);                                  \
        }                                                                          \
    } while (0)

static inline void jac_unscale(AFF *r, const JAC *p, const FE_T *zi)
{
    FE_T zi2, t;
    FE(sqr)(&zi2, zi);
    FE(mul)(&r->x, &p->x, &zi2);
    FE(mul)(&t, &zi2, zi);
    FE(mul)(&r->y, &p->y, &t);
}

void CV(jac_batch_to_affine)(AFF *out, const JAC *in, size_t n)
{
    BATCH_TO_AFFINE(out, in, n, z, CV(jac_is_infinity), jac_unscale);
}

void CV(xyzz_batch_to_affine)(AFF *out, const XYZZ *in, size_t n)
{
    BATCH_TO_AFFINE(out, in, n, zzz, CV(xyzz_is_infinity), xyzz_unscale);
}
#undef BATCH_TO_AFFINE

/* ----------------------------------------------------------------- checks */

int CV(affine_on_curve)(const AFF *p)
{
    if (CV(affine_is_infinity)(p)) return 1;
    FE_T l, rr;
    FE(sqr)(&l, &p->y);
    FE(sqr)(&rr, &p->x);
    FE(mul)(&rr, &rr, &p->x);
    FE(add)(&rr, &rr, &curve_b);
    return FE(eq)(&l, &rr);
}

/* Y² = X³ + b·Z⁶ */
int CV(jac_on_curve)(const JAC *p)
{
    if (CV(jac_is_infinity)(p)) return 1;
    FE_T l, rr, z6;
    FE(sqr)(&l, &p->y);
    FE(sqr)(&rr, &p->x);
    FE(mul)(&rr, &rr, &p->x);
    FE(sqr)(&z6, &p->z);
    FE(mul)(&z6, &z6, &p->z);
    FE(sqr)(&z6, &z6);
    FE(mul)(&z6, &z6, &curve_b);
    FE(add)(&rr, &rr, &z6);
    return FE(eq)(&l, &rr);
}

/* ------------------------------------------------------ scalar multiplication */

#define WNAF_W 5
#define WNAF_TABLE (1 << (WNAF_W - 2)) /* odd multiples P, 3P, ..., 15P */

/* Signed width-5 NAF of k (n limbs): digits odd in [−15, 15] or 0, at most one
 * nonzero in any 5 consecutive.  Returns the number of digits (≤ 64n + 1). */
static size_t wnaf(int8_t *d, const uint64_t *k, size_t n)
{
    uint64_t t[G16_CURVE_MAX_SCALAR_LIMBS + 1];
    size_t m = n, len = 0;
    memcpy(t, k, n * sizeof *k);
    t[n] = 0;
    while (m > 0 && t[m - 1] == 0) m--;
    while (m > 0) {
        int8_t digit = 0;
        if (t[0] & 1) {
            int v = (int)(t[0] & ((1u << WNAF_W) - 1));
            if (v >= 1 << (WNAF_W - 1)) v -= 1 << WNAF_W;
            digit = (int8_t)v;
            if (v > 0) {
                t[0] -= (uint64_t)v;        /* low bits equal v: no borrow */
            } else {
                uint64_t c = (uint64_t)-v;  /* t − v = t + |v| */
                for (size_t i = 0; i <= m && c; i++) {
                    t[i] += c;
                    c = t[i] < c;
                }
                if (t[m]) m++;
            }
        }
        d[len++] = digit;
        /* t is even now: shift right by one (skipping ahead is not worth it at w = 5) */
        for (size_t i = 0; i < m; i++) t[i] = (t[i] >> 1) | (i + 1 < m ? t[i + 1] << 63 : 0);
        while (m > 0 && t[m - 1] == 0) m--;
    }
    return len;
}

static void odd_multiples(JAC tab[WNAF_TABLE], const JAC *p)
{
    JAC p2;
    CV(jac_dbl)(&p2, p);
    tab[0] = *p;
    for (int i = 1; i < WNAF_TABLE; i++) CV(jac_add)(&tab[i], &tab[i - 1], &p2);
}

static inline void add_digit(JAC *acc, const JAC tab[WNAF_TABLE], int digit)
{
    if (digit > 0) {
        CV(jac_add)(acc, acc, &tab[digit >> 1]);
    } else {
        JAC n;
        CV(jac_neg)(&n, &tab[(-digit) >> 1]);
        CV(jac_add)(acc, acc, &n);
    }
}

/* acc = Σ k_j·P_j over m (table, digits) pairs, interleaved (Straus): the
 * doublings are shared, so their number is the longest digit string. */
static void wnaf_eval(JAC *r, JAC tabs[][WNAF_TABLE], int8_t digits[][130], const size_t *lens, int m)
{
    JAC acc;
    CV(jac_set_infinity)(&acc);
    size_t len = 0;
    for (int j = 0; j < m; j++) len = lens[j] > len ? lens[j] : len;
    int started = 0;
    for (size_t i = len; i-- > 0;) {
        if (started) CV(jac_dbl)(&acc, &acc);
        for (int j = 0; j < m; j++) {
            if (i < lens[j] && digits[j][i]) {
                add_digit(&acc, tabs[j], digits[j][i]);
                started = 1;
            }
        }
    }
    *r = acc;
}

void CV(mul_limbs)(JAC *r, const JAC *p, const uint64_t *k, size_t n)
{
    int8_t d[64 * G16_CURVE_MAX_SCALAR_LIMBS + 1];
    JAC tab[WNAF_TABLE], acc;
    if (n > G16_CURVE_MAX_SCALAR_LIMBS) n = G16_CURVE_MAX_SCALAR_LIMBS;
    size_t len = wnaf(d, k, n);
    if (len == 0 || CV(jac_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    odd_multiples(tab, p);
    acc = tab[(d[len - 1] > 0 ? d[len - 1] : -d[len - 1]) >> 1]; /* top digit is positive */
    for (size_t i = len - 1; i-- > 0;) {
        CV(jac_dbl)(&acc, &acc);
        if (d[i]) add_digit(&acc, tab, d[i]);
    }
    *r = acc;
}

#if G16_CURVE_BN254
#define REDUCE_PASSES 5 /* BN254: 2^256 < 6r */
#else
#define REDUCE_PASSES 2
#endif

/* k mod r for any 256-bit k (k < 2^256 < 3r, so at most two subtractions; five for
 * BN254's 254-bit r). */
static void reduce_mod_r(uint64_t out[4], const uint64_t k[4])
{
    memcpy(out, k, 4 * sizeof *k);
    for (int pass = 0; pass < REDUCE_PASSES; pass++) {
        uint64_t t[4], borrow = 0;
        for (int i = 0; i < 4; i++) {
            g16_u128 v = (g16_u128)out[i] - g16_curve_order[i] - borrow;
            t[i] = (uint64_t)v;
            borrow = (uint64_t)(v >> 64) & 1;
        }
        if (borrow) break;
        memcpy(out, t, sizeof t);
    }
}

#if G16_CURVE_BN254 && defined(BN254_GLV)
/* out (n + m limbs) = a (n limbs) · b (m limbs) */
static void glv_mul(uint64_t *out, const uint64_t *a, size_t n, const uint64_t *b, size_t m)
{
    memset(out, 0, (n + m) * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        g16_u128 c = 0;
        for (size_t j = 0; j < m; j++) {
            c += (g16_u128)a[i] * b[j] + out[i + j];
            out[i + j] = (uint64_t)c;
            c >>= 64;
        }
        out[i + m] = (uint64_t)c;
    }
}

/* acc −= x (4 limbs, mod 2^256) */
static void glv_sub4(uint64_t acc[4], const uint64_t *x)
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        g16_u128 v = (g16_u128)acc[i] - x[i] - borrow;
        acc[i] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
}

/* v (4 limbs, two's complement) → |v| in two limbs and its sign; 0 when |v| ≥ 2^128 */
static int glv_abs128(uint64_t out[2], int *neg, const uint64_t v[4])
{
    uint64_t t[4];
    memcpy(t, v, sizeof t);
    *neg = (int)(t[3] >> 63);
    if (*neg) {
        uint64_t z[4] = {0};
        glv_sub4(z, t);
        memcpy(t, z, sizeof t);
    }
    out[0] = t[0], out[1] = t[1];
    return !t[2] && !t[3];
}

/* GLV on BN254's G1 (Gallant–Lambert–Vanstone 2001; Guide to ECC alg. 3.74): k mod r
 * = k1 + k2·λ with |k1|, |k2| < 2^128 from the short basis (a1, b1), (a2, b2) of
 * src/curve/gen_consts_bn254.py (Babai rounding by the precomputed g1, g2; the script
 * checks the bound), then k·P = k1·P + k2·φ(P) by a joint width-5 NAF: 128
 * doublings instead of 254.  Should a piece not fit (it cannot), the plain NAF runs. */
void CV(mul)(JAC *r, const JAC *p, const uint64_t k[4])
{
    static const uint64_t a1[1] = G16_BN254_GLV_A1, b1[2] = G16_BN254_GLV_B1_ABS,
                          a2[2] = G16_BN254_GLV_A2, b2[1] = G16_BN254_GLV_B2,
                          g1[2] = G16_BN254_GLV_G1, g2[3] = G16_BN254_GLV_G2;
    uint64_t kr[4], t[7], c1[2], c2[2], k1[4], k2[4], pieces[2][2];
    int neg[2];
    if (CV(jac_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    reduce_mod_r(kr, k);
    glv_mul(t, kr, 4, g1, 2); /* c1 = k·g1 >> 256 < 2^64 */
    c1[0] = t[4], c1[1] = t[5];
    glv_mul(t, kr, 4, g2, 3); /* c2 = k·g2 >> 256 < 2^128 */
    c2[0] = t[4], c2[1] = t[5];
    memcpy(k1, kr, sizeof k1); /* k1 = k − c1·a1 − c2·a2 */
    glv_mul(t, c1, 2, a1, 1);
    t[3] = 0;
    glv_sub4(k1, t);
    glv_mul(t, c2, 2, a2, 2);
    glv_sub4(k1, t);
    glv_mul(k2, c1, 2, b1, 2); /* k2 = c1·|b1| − c2·b2 */
    glv_mul(t, c2, 2, b2, 1);
    t[3] = 0;
    glv_sub4(k2, t);
    if (!glv_abs128(pieces[0], &neg[0], k1) || !glv_abs128(pieces[1], &neg[1], k2)) {
        CV(mul_limbs)(r, p, kr, 4);
        return;
    }
    JAC tabs[2][WNAF_TABLE];
    int8_t d[2][130];
    size_t lens[2];
    JAC base = *p;
    if (neg[0]) CV(jac_neg)(&base, p);
    odd_multiples(tabs[0], &base);
    for (int i = 0; i < WNAF_TABLE; i++) {
        g16_g1_jac_phi(&tabs[1][i], &tabs[0][i]); /* φ(±(2i+1)P) */
        if (neg[0] != neg[1]) CV(jac_neg)(&tabs[1][i], &tabs[1][i]);
    }
    for (int j = 0; j < 2; j++) lens[j] = wnaf(d[j], pieces[j], 2);
    wnaf_eval(r, tabs, d, lens, 2);
}
#else
#if G16_CURVE_BN254
/* BN254's G2 (GLS): ψ acts as μ = 6x² = p − r (128 bits) on G2, and k < r < μ·2^127,
 * so the same split k = q·μ + k1 gives two halves below 2^128 */
static const uint64_t mu_z2[2] = G16_BN254_SIX_X2;
#else
static const uint64_t mu_z2[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL}; /* x² */
#endif

/* k (< r = μ² − μ + 1, μ = x²) = q·μ + k1 with q, k1 < μ < 2^128 (BN254's G2: μ = 6x²,
 * k < r < 2^127·μ, so q < 2^127 and k1 < μ < 2^128): shift-and-subtract
 * long division, 128 steps of 4-limb arithmetic (about 1% of a multiplication). */
static void split_mu(uint64_t q[2], uint64_t k1[2], const uint64_t k[4])
{
    uint64_t rem[4], dv[4];
    memcpy(rem, k, sizeof rem);
    /* dv = μ << 127 */
    dv[0] = 0;
    dv[1] = mu_z2[0] << 63;
    dv[2] = (mu_z2[0] >> 1) | (mu_z2[1] << 63);
    dv[3] = mu_z2[1] >> 1;
    q[0] = q[1] = 0;
    for (int bit = 127; bit >= 0; bit--) {
        int ge = 1;
        for (int i = 3; i >= 0; i--) {
            if (rem[i] != dv[i]) { ge = rem[i] > dv[i]; break; }
        }
        if (ge) {
            uint64_t borrow = 0;
            for (int i = 0; i < 4; i++) {
                g16_u128 v = (g16_u128)rem[i] - dv[i] - borrow;
                rem[i] = (uint64_t)v;
                borrow = (uint64_t)(v >> 64) & 1;
            }
            q[bit >> 6] |= 1ULL << (bit & 63);
        }
        for (int i = 0; i < 3; i++) dv[i] = (dv[i] >> 1) | (dv[i + 1] << 63);
        dv[3] >>= 1;
    }
    k1[0] = rem[0];
    k1[1] = rem[1];
}

/* Group-specific: r = μ·p = x²·p for p in the subgroup, by an endomorphism
 * (G1: −φ, G2: ψ²), a few field multiplications.  Defined by the includer.
 * With ENDO_ABS_X defined (G2) the includer also defines endo_abs_x: r = |x|·p
 * (−ψ), and the scalar is split four ways instead of two. */
static void endo_mu(JAC *r, const JAC *p);
#ifdef ENDO_ABS_X
static void endo_abs_x(JAC *r, const JAC *p);
#define ENDO_DIMS 4
#else
#define ENDO_DIMS 2
#endif

/* GLV / GLS: k·P = Σ k_j·(B^j·P) with 128-bit (2 dims, B = x²) or 64-bit (4 dims,
 * B = |x|) pieces, so the doublings drop from 255 to 128 or 64. */
void CV(mul)(JAC *r, const JAC *p, const uint64_t k[4])
{
    uint64_t kr[4], q[2], k1[2], pieces[ENDO_DIMS][2];
    int8_t d[ENDO_DIMS][130];
    size_t lens[ENDO_DIMS];
    JAC tabs[ENDO_DIMS][WNAF_TABLE];
    if (CV(jac_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    reduce_mod_r(kr, k);
    split_mu(q, k1, kr);
    odd_multiples(tabs[0], p);
#ifdef ENDO_ABS_X
    /* k1 = a1·|x| + a0, q = b1·|x| + b0: k = a0 + a1|x| + b0|x|² + b1|x|³ */
    const uint64_t *halves[2] = {k1, q};
    for (int h = 0; h < 2; h++) {
        g16_u128 v = ((g16_u128)halves[h][1] << 64) | halves[h][0];
        pieces[2 * h][0] = (uint64_t)(v % G16_BLS_X_ABS);
        pieces[2 * h + 1][0] = (uint64_t)(v / G16_BLS_X_ABS); /* v < x²: fits */
        pieces[2 * h][1] = pieces[2 * h + 1][1] = 0;
    }
    for (int i = 0; i < WNAF_TABLE; i++) {
        endo_abs_x(&tabs[1][i], &tabs[0][i]);
        endo_mu(&tabs[2][i], &tabs[0][i]);
        endo_abs_x(&tabs[3][i], &tabs[2][i]);
    }
#else
    memcpy(pieces[0], k1, sizeof k1);
    memcpy(pieces[1], q, sizeof q);
    for (int i = 0; i < WNAF_TABLE; i++) endo_mu(&tabs[1][i], &tabs[0][i]);
#endif
    for (int j = 0; j < ENDO_DIMS; j++) lens[j] = wnaf(d[j], pieces[j], 2);
    wnaf_eval(r, tabs, d, lens, ENDO_DIMS);
}
#undef ENDO_DIMS
#endif /* G16_CURVE_BN254 && BN254_GLV */

void CV(mul_fr)(JAC *r, const JAC *p, const g16_fr *k)
{
    uint64_t l[4];
    g16_fr_to_canonical(l, k);
    CV(mul)(r, p, l);
}

void CV(clear_cofactor)(JAC *r, const JAC *p)
{
    CV(mul_limbs)(r, p, cofactor, sizeof cofactor / sizeof cofactor[0]);
}

#if !G16_CURVE_BN254
/* r = |x|·p by double-and-add over the six set bits of |x| (63 doublings). */
static void mul_abs_x(JAC *r, const JAC *p)
{
    JAC acc = *p;
    for (int bit = 62; bit >= 0; bit--) {
        CV(jac_dbl)(&acc, &acc);
        if ((G16_BLS_X_ABS >> bit) & 1) CV(jac_add)(&acc, &acc, p);
    }
    *r = acc;
}
#endif

static int subgroup_check(const JAC *p);

int CV(jac_in_subgroup)(const JAC *p)
{
    if (CV(jac_is_infinity)(p)) return 1;
    return subgroup_check(p);
}

int CV(affine_in_subgroup)(const AFF *p)
{
    JAC j;
    CV(jac_from_affine)(&j, p);
    return CV(jac_in_subgroup)(&j);
}

/* --------------------------------------------------------------- encodings */

/* Field element ↔ big-endian bytes (G2: c1 then c0).  fe_from_bytes reports
 * G16_ERR_NONCANONICAL naming the coordinate ("x", "y") in its message. */
static void fe_to_bytes(uint8_t *out, const FE_T *a);
static g16_status fe_from_bytes(FE_T *r, const uint8_t *in, const char *form, const char *coord);

#if G16_CURVE_BN254
/* BN254 (docs/curve.md): uncompressed is the Ethereum/snarkjs form, x then y
 * big-endian (G2 c1 first, as EIP-197), no flags, infinity = all zeros.  Compressed
 * is gnark's form: the top two bits of byte 0 (always clear in a value < p < 2^254)
 * are 0b10 (y ≤ (p−1)/2), 0b11 (y larger) or 0b01 (infinity, all other bits 0). */
#define FLAG_MASK 0xc0u
#define FLAG_SMALL 0x80u
#define FLAG_LARGE 0xc0u
#define FLAG_INF 0x40u

void CV(encode_compressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, FE_BYTES);
        out[0] = FLAG_INF;
        return;
    }
    fe_to_bytes(out, &p->x);
    out[0] |= (uint8_t)(FE(is_lex_largest)(&p->y) ? FLAG_LARGE : FLAG_SMALL);
}

void CV(encode_uncompressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, 2 * FE_BYTES);
        return;
    }
    fe_to_bytes(out, &p->x);
    fe_to_bytes(out + FE_BYTES, &p->y);
}

g16_status CV(decode)(AFF *out, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != FE_BYTES && len != 2 * FE_BYTES)
        return g16_fail(G16_ERR_LENGTH, G_NAME ": %zu bytes is neither %d (compressed) nor %d (uncompressed)",
                        len, FE_BYTES, 2 * FE_BYTES);
    int compressed = len == FE_BYTES;
    const char *form = compressed ? G_NAME " compressed" : G_NAME " uncompressed";
    unsigned top = in[0] & FLAG_MASK;
    unsigned acc = in[0] & ~FLAG_MASK & 0xffu;
    for (size_t i = 1; i < len; i++) acc |= in[i];
    if (!compressed && top)
        return g16_fail(G16_ERR_FLAGS, "%s: top bits 0x%02x set (uncompressed BN254 points have no flags)",
                        form, top);
    if (compressed && !top)
        return g16_fail(G16_ERR_FLAGS, "%s: no compression flag in the top two bits of byte 0", form);
    if ((compressed && top == FLAG_INF) || (!compressed && !acc)) {
        if (compressed && acc)
            return g16_fail(G16_ERR_INFINITY, "%s: infinity flag set but other bits are not zero", form);
        CV(affine_set_infinity)(out);
        return G16_OK;
    }
    uint8_t buf[FE_BYTES];
    memcpy(buf, in, FE_BYTES);
    buf[0] &= (uint8_t)~FLAG_MASK;
    AFF p;
    G16_TRY(fe_from_bytes(&p.x, buf, form, "x"));
    if (compressed) {
        FE_T rhs;
        FE(sqr)(&rhs, &p.x);
        FE(mul)(&rhs, &rhs, &p.x);
        FE(add)(&rhs, &rhs, &curve_b);
        if (!FE(sqrt)(&p.y, &rhs))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: x³ + b has no square root (no point with this x)", form);
        if (FE(is_lex_largest)(&p.y) != (top == FLAG_LARGE)) FE(neg)(&p.y, &p.y);
    } else {
        G16_TRY(fe_from_bytes(&p.y, in + FE_BYTES, form, "y"));
        if (!CV(affine_on_curve)(&p))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: (x, y) is not on the curve", form);
    }
    if (!(flags & G16_CURVE_NO_SUBGROUP_CHECK) && !CV(affine_in_subgroup)(&p))
        return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "%s: point is not in the order-r subgroup", form);
    *out = p;
    return G16_OK;
}
#undef FLAG_MASK
#undef FLAG_SMALL
#undef FLAG_LARGE
#undef FLAG_INF
#else
#define FLAG_C 0x80u
#define FLAG_I 0x40u
#define FLAG_S 0x20u

void CV(encode_compressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, FE_BYTES);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    fe_to_bytes(out, &p->x);
    out[0] |= (uint8_t)(FLAG_C | (FE(is_lex_largest)(&p->y) ? FLAG_S : 0));
}

void CV(encode_uncompressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, 2 * FE_BYTES);
        out[0] = FLAG_I;
        return;
    }
    fe_to_bytes(out, &p->x);
    fe_to_bytes(out + FE_BYTES, &p->y);
}

g16_status CV(decode)(AFF *out, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != FE_BYTES && len != 2 * FE_BYTES)
        return g16_fail(G16_ERR_LENGTH, G_NAME ": %zu bytes is neither %d (compressed) nor %d (uncompressed)",
                        len, FE_BYTES, 2 * FE_BYTES);
    int compressed = len == FE_BYTES;
    const char *form = compressed ? G_NAME " compressed" : G_NAME " uncompressed";
    unsigned top = in[0];
    if (!!(top & FLAG_C) != compressed)
        return g16_fail(G16_ERR_FLAGS, "%s: compression bit is %s on a %zu-byte encoding", form,
                        compressed ? "clear" : "set", len);
    if (top & FLAG_I) {
        if (top & FLAG_S) return g16_fail(G16_ERR_FLAGS, "%s: sign bit set on infinity", form);
        unsigned acc = top & 0x1fu;
        for (size_t i = 1; i < len; i++) acc |= in[i];
        if (acc) return g16_fail(G16_ERR_INFINITY, "%s: infinity bit set but other bits are not zero", form);
        CV(affine_set_infinity)(out);
        return G16_OK;
    }
    if (!compressed && (top & FLAG_S))
        return g16_fail(G16_ERR_FLAGS, "%s: sign bit set on an uncompressed encoding", form);
    uint8_t buf[FE_BYTES];
    memcpy(buf, in, FE_BYTES);
    buf[0] &= 0x1f;
    AFF p;
    G16_TRY(fe_from_bytes(&p.x, buf, form, "x"));
    if (compressed) {
        FE_T rhs;
        FE(sqr)(&rhs, &p.x);
        FE(mul)(&rhs, &rhs, &p.x);
        FE(add)(&rhs, &rhs, &curve_b);
        if (!FE(sqrt)(&p.y, &rhs))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: x³ + b has no square root (no point with this x)", form);
        if (FE(is_lex_largest)(&p.y) != !!(top & FLAG_S)) FE(neg)(&p.y, &p.y);
    } else {
        G16_TRY(fe_from_bytes(&p.y, in + FE_BYTES, form, "y"));
        /* (0,0) is our infinity and is never on the curve, so this also refuses it */
        if (CV(affine_is_infinity)(&p) || !CV(affine_on_curve)(&p))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: (x, y) is not on the curve", form);
    }
    if (!(flags & G16_CURVE_NO_SUBGROUP_CHECK) && !CV(affine_in_subgroup)(&p))
        return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "%s: point is not in the order-r subgroup", form);
    *out = p;
    return G16_OK;
}
#undef FLAG_C
#undef FLAG_I
#undef FLAG_S
#endif /* G16_CURVE_BN254 */
#undef WNAF_W
#undef WNAF_TABLE
