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

/* Scalar multiplication and the subgroup test, then the encodings: the same template,
 * in two files so that each stays readable. */
#include "curve/curve_mul_impl.h"
#include "curve/curve_encode_impl.h"
