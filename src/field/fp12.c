#include "field/fp12.h"

#include <pthread.h>
#include <string.h>

#include "common/error.h"
#include "field/mont.h"

void g16_fp12_set_zero(g16_fp12 *r)
{
    g16_fp6_set_zero(&r->c0);
    g16_fp6_set_zero(&r->c1);
}

void g16_fp12_set_one(g16_fp12 *r)
{
    g16_fp6_set_one(&r->c0);
    g16_fp6_set_zero(&r->c1);
}

void g16_fp12_add(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b)
{
    g16_fp6_add(&r->c0, &a->c0, &b->c0);
    g16_fp6_add(&r->c1, &a->c1, &b->c1);
}

void g16_fp12_sub(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b)
{
    g16_fp6_sub(&r->c0, &a->c0, &b->c0);
    g16_fp6_sub(&r->c1, &a->c1, &b->c1);
}

void g16_fp12_neg(g16_fp12 *r, const g16_fp12 *a)
{
    g16_fp6_neg(&r->c0, &a->c0);
    g16_fp6_neg(&r->c1, &a->c1);
}

void g16_fp12_mul(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b)
{
    /* (a0 + a1w)(b0 + b1w) = a0b0 + a1b1·v + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·w */
    g16_fp6 t0, t1, s, u;
    g16_fp6_mul(&t0, &a->c0, &b->c0);
    g16_fp6_mul(&t1, &a->c1, &b->c1);
    g16_fp6_add(&s, &a->c0, &a->c1);
    g16_fp6_add(&u, &b->c0, &b->c1);
    g16_fp6_mul(&s, &s, &u);
    g16_fp6_sub(&s, &s, &t0);
    g16_fp6_sub(&r->c1, &s, &t1);
    g16_fp6_mul_by_v(&t1, &t1);
    g16_fp6_add(&r->c0, &t0, &t1);
}

void g16_fp12_sqr(g16_fp12 *r, const g16_fp12 *a)
{
    /* (a0 + a1w)² = (a0 + a1)(a0 + v·a1) − t − v·t + 2t·w with t = a0a1 */
    g16_fp6 t, s, u;
    g16_fp6_mul(&t, &a->c0, &a->c1);
    g16_fp6_add(&s, &a->c0, &a->c1);
    g16_fp6_mul_by_v(&u, &a->c1);
    g16_fp6_add(&u, &u, &a->c0);
    g16_fp6_mul(&s, &s, &u);
    g16_fp6_sub(&s, &s, &t);
    g16_fp6_mul_by_v(&u, &t);
    g16_fp6_sub(&r->c0, &s, &u);
    g16_fp6_dbl(&r->c1, &t);
}

void g16_fp12_mul_by_w(g16_fp12 *r, const g16_fp12 *a)
{
    g16_fp6 t;
    g16_fp6_mul_by_v(&t, &a->c1);
    r->c1 = a->c0;
    r->c0 = t;
}

#if G16_CURVE_BN254
void g16_fp12_mul_by_034(g16_fp12 *f, const g16_fp2 *c0, const g16_fp2 *c3, const g16_fp2 *c4)
{
    /* (a0 + a1·w)(c0 + B·w), B = c3 + c4·v, w² = v:
     *   t0 = a0·c0, t1 = a1·B, r0 = t0 + t1·v, r1 = (a0 + a1)(c0 + B) − t0 − t1 */
    g16_fp6 t0, t1, s;
    g16_fp2 c03;
    g16_fp6_mul_fp2(&t0, &f->c0, c0);
    g16_fp6_mul_by_01(&t1, &f->c1, c3, c4);
    g16_fp6_add(&s, &f->c0, &f->c1);
    g16_fp2_add(&c03, c0, c3);
    g16_fp6_mul_by_01(&s, &s, &c03, c4);
    g16_fp6_sub(&s, &s, &t0);
    g16_fp6_sub(&f->c1, &s, &t1);
    g16_fp6_mul_by_v(&t1, &t1);
    g16_fp6_add(&f->c0, &t0, &t1);
}
#endif

void g16_fp12_mul_by_014(g16_fp12 *f, const g16_fp2 *c0, const g16_fp2 *c1, const g16_fp2 *c4)
{
    /* Karatsuba with l0 = c0 + c1·v and l1 = c4·v: both halves stay sparse. */
    g16_fp6 t0, t1, s;
    g16_fp2 c14;
    g16_fp6_mul_by_01(&t0, &f->c0, c0, c1);
    g16_fp6_mul_by_1(&t1, &f->c1, c4);
    g16_fp2_add(&c14, c1, c4);
    g16_fp6_add(&s, &f->c0, &f->c1);
    g16_fp6_mul_by_01(&s, &s, c0, &c14);
    g16_fp6_sub(&s, &s, &t0);
    g16_fp6_sub(&f->c1, &s, &t1);
    g16_fp6_mul_by_v(&t1, &t1);
    g16_fp6_add(&f->c0, &t0, &t1);
}

void g16_fp12_conj(g16_fp12 *r, const g16_fp12 *a)
{
    r->c0 = a->c0;
    g16_fp6_neg(&r->c1, &a->c1);
}

void g16_fp12_inv(g16_fp12 *r, const g16_fp12 *a)
{
    /* 1/(a0 + a1w) = (a0 − a1w)/(a0² − v·a1²), the denominator in Fp6 */
    g16_fp6 t, u;
    g16_fp6_sqr(&t, &a->c0);
    g16_fp6_sqr(&u, &a->c1);
    g16_fp6_mul_by_v(&u, &u);
    g16_fp6_sub(&t, &t, &u);
    g16_fp6_inv(&t, &t);
    g16_fp6_mul(&r->c0, &a->c0, &t);
    g16_fp6_mul(&u, &a->c1, &t);
    g16_fp6_neg(&r->c1, &u);
}

/* Frobenius constants.  For the basis element w^j, (w^j)^(p^k) = w^j·γ[k][j] with
 * γ[k][j] = ξ^(j(p^k − 1)/6), since w⁶ = ξ.  Derived once at first use from
 * g = ξ^((p−1)/6): ξ^((p^k−1)/6) = g^(1 + p + … + p^(k−1)), and g^p = conj(g)
 * because g ∈ Fp2.  The test compares every map against a^(p^k) by pow. */
static g16_fp2 frob_gamma[4][6];
static pthread_once_t frob_once = PTHREAD_ONCE_INIT;

static void frob_init(void)
{
    /* (p − 1)/6 by long division; p ≡ 1 (mod 6), so it is exact */
    uint64_t e[G16_FP_LIMBS];
    memcpy(e, g16_fp_modulus, sizeof e);
    e[0] -= 1;
    g16_u128 rem = 0;
    for (int i = G16_FP_LIMBS - 1; i >= 0; i--) {
        g16_u128 cur = (rem << 64) | e[i];
        e[i] = (uint64_t)(cur / 6);
        rem = cur % 6;
    }
    g16_fp2 xi, g, gc;
    g16_fp2_set_one(&xi);
#if G16_CURVE_BN254
    g16_fp2_mul_by_xi(&xi, &xi); /* ξ = 9 + u */
#else
    g16_fp_set_one(&xi.c1); /* ξ = 1 + u */
#endif
    g16_fp2_pow(&g, &xi, e, G16_FP_LIMBS);
    g16_fp2_conj(&gc, &g);

    g16_fp2 base[4];
    g16_fp2_set_one(&base[0]);
    base[1] = g;                        /* g */
    g16_fp2_mul(&base[2], &g, &gc);     /* g^(1+p) */
    g16_fp2_mul(&base[3], &base[2], &g); /* g^(1+p+p²), g^(p²) = g */
    for (int k = 0; k < 4; k++) {
        g16_fp2_set_one(&frob_gamma[k][0]);
        for (int j = 1; j < 6; j++) g16_fp2_mul(&frob_gamma[k][j], &frob_gamma[k][j - 1], &base[k]);
    }
}

void g16_fp12_frob(g16_fp12 *r, const g16_fp12 *a, unsigned k)
{
    pthread_once(&frob_once, frob_init);
    k %= 12;
    if (k > 3) {
        /* rare: compose the cheaper maps */
        g16_fp12 t = *a;
        while (k > 3) {
            g16_fp12_frob(&t, &t, 3);
            k -= 3;
        }
        g16_fp12_frob(r, &t, k);
        return;
    }
    if (k == 0) {
        *r = *a;
        return;
    }
    /* positions of w^j: c0.c0 = w⁰, c0.c1 = w², c0.c2 = w⁴, c1.c0 = w¹, c1.c1 = w³, c1.c2 = w⁵ */
    const g16_fp2 *in[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    g16_fp2 *out[6] = {&r->c0.c0, &r->c1.c0, &r->c0.c1, &r->c1.c1, &r->c0.c2, &r->c1.c2};
    const g16_fp2 *gam = frob_gamma[k];
    for (int j = 0; j < 6; j++) {
        g16_fp2 t;
        if (k & 1) g16_fp2_conj(&t, in[j]);
        else t = *in[j];
        if (j) g16_fp2_mul(out[j], &t, &gam[j]);
        else *out[j] = t;
    }
}

/* (x + y·t)² in Fp4 = Fp2[t]/(t² − ξ): returns x² + ξy² and 2xy, 3 squarings. */
static void fp4_sqr(g16_fp2 *r0, g16_fp2 *r1, const g16_fp2 *x, const g16_fp2 *y)
{
    g16_fp2 x2, y2, s;
    g16_fp2_sqr(&x2, x);
    g16_fp2_sqr(&y2, y);
    g16_fp2_add(&s, x, y);
    g16_fp2_sqr(&s, &s);
    g16_fp2_sub(&s, &s, &x2);
    g16_fp2_sub(r1, &s, &y2);
    g16_fp2_mul_by_xi(&y2, &y2);
    g16_fp2_add(r0, &x2, &y2);
}

/* r = 3x − 2y and r = 3x + 2y, as 2(x ∓ y) + x */
static void three_minus_two(g16_fp2 *r, const g16_fp2 *x, const g16_fp2 *y)
{
    g16_fp2 t;
    g16_fp2_sub(&t, x, y);
    g16_fp2_dbl(&t, &t);
    g16_fp2_add(r, &t, x);
}

static void three_plus_two(g16_fp2 *r, const g16_fp2 *x, const g16_fp2 *y)
{
    g16_fp2 t;
    g16_fp2_add(&t, x, y);
    g16_fp2_dbl(&t, &t);
    g16_fp2_add(r, &t, x);
}

void g16_fp12_cyclotomic_sqr(g16_fp12 *r, const g16_fp12 *a)
{
    /* Granger & Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
     * extensions" (PKC 2010).  Seen over Fp4 = Fp2[t], t = w³, the element is
     * A + B·w + C·w² with A = c0.c0 + c1.c1·t, B = c1.c0 + c0.c2·t,
     * C = c0.c1 + c1.c2·t, and in the cyclotomic subgroup its square is
     * (3A² − 2Ā) + (3t·C² + 2B̄)·w + (3B² − 2C̄)·w², where ¯ negates the t part. */
    g16_fp2 a0, a1, b0, b1, c0, c1;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1);
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2);
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2);
    g16_fp2_mul_by_xi(&c1, &c1); /* t·C² = ξ·C²₁ + C²₀·t */

    three_minus_two(&r->c0.c0, &a0, &a->c0.c0);
    three_plus_two(&r->c1.c1, &a1, &a->c1.c1);
    three_plus_two(&r->c1.c0, &c1, &a->c1.c0);
    three_minus_two(&r->c0.c2, &c0, &a->c0.c2);
    three_minus_two(&r->c0.c1, &b0, &a->c0.c1);
    three_plus_two(&r->c1.c2, &b1, &a->c1.c2);
}

void g16_fp12_pow(g16_fp12 *r, const g16_fp12 *a, const uint64_t *e, size_t e_limbs)
{
    g16_fp12 acc;
    int started = 0;
    g16_fp12_set_one(&acc);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            if (started) g16_fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1) {
                if (started) g16_fp12_mul(&acc, &acc, a);
                else acc = *a;
                started = 1;
            }
        }
    }
    *r = acc;
}

int g16_fp12_eq(const g16_fp12 *a, const g16_fp12 *b)
{
    return g16_fp6_eq(&a->c0, &b->c0) & g16_fp6_eq(&a->c1, &b->c1);
}

int g16_fp12_is_zero(const g16_fp12 *a) { return g16_fp6_is_zero(&a->c0) & g16_fp6_is_zero(&a->c1); }

int g16_fp12_is_one(const g16_fp12 *a) { return g16_fp6_is_one(&a->c0) & g16_fp6_is_zero(&a->c1); }

/* The struct holds its twelve Fp coefficients contiguously in exactly the
 * serialisation order (c0.c0.c0, c0.c0.c1, c0.c1.c0, …), so index i is the i-th. */
_Static_assert(sizeof(g16_fp12) == 12 * sizeof(g16_fp), "g16_fp12 must be 12 packed Fp");

void g16_fp12_to_bytes(uint8_t out[G16_FP12_BYTES], const g16_fp12 *a)
{
    const g16_fp *c = &a->c0.c0.c0;
    for (int i = 0; i < 12; i++) g16_fp_to_be(out + G16_FP_BYTES * i, &c[i]);
}

g16_status g16_fp12_from_bytes(g16_fp12 *r, const uint8_t in[G16_FP12_BYTES])
{
    g16_fp12 t;
    g16_fp *c = &t.c0.c0.c0;
    for (int i = 0; i < 12; i++) G16_TRY(g16_fp_from_be(&c[i], in + G16_FP_BYTES * i));
    *r = t;
    return G16_OK;
}
