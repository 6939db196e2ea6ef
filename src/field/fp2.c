#include "field/fp2.h"

void g16_fp2_set_zero(g16_fp2 *r) { g16_fp_set_zero(&r->c0); g16_fp_set_zero(&r->c1); }
void g16_fp2_set_one(g16_fp2 *r) { g16_fp_set_one(&r->c0); g16_fp_set_zero(&r->c1); }

void g16_fp2_add(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b)
{
    g16_fp_add(&r->c0, &a->c0, &b->c0);
    g16_fp_add(&r->c1, &a->c1, &b->c1);
}

void g16_fp2_sub(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b)
{
    g16_fp_sub(&r->c0, &a->c0, &b->c0);
    g16_fp_sub(&r->c1, &a->c1, &b->c1);
}

void g16_fp2_dbl(g16_fp2 *r, const g16_fp2 *a)
{
    g16_fp_dbl(&r->c0, &a->c0);
    g16_fp_dbl(&r->c1, &a->c1);
}

void g16_fp2_neg(g16_fp2 *r, const g16_fp2 *a)
{
    g16_fp_neg(&r->c0, &a->c0);
    g16_fp_neg(&r->c1, &a->c1);
}

void g16_fp2_conj(g16_fp2 *r, const g16_fp2 *a)
{
    r->c0 = a->c0;
    g16_fp_neg(&r->c1, &a->c1);
}

void g16_fp2_mul(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b)
{
    /* Karatsuba: 3 Fp multiplications */
    g16_fp t0, t1, s0, s1;
    g16_fp_mul(&t0, &a->c0, &b->c0);
    g16_fp_mul(&t1, &a->c1, &b->c1);
    g16_fp_add(&s0, &a->c0, &a->c1);
    g16_fp_add(&s1, &b->c0, &b->c1);
    g16_fp_mul(&s0, &s0, &s1);
    g16_fp_sub(&r->c0, &t0, &t1);
    g16_fp_sub(&s0, &s0, &t0);
    g16_fp_sub(&r->c1, &s0, &t1);
}

void g16_fp2_sqr(g16_fp2 *r, const g16_fp2 *a)
{
    /* (c0 + c1 u)² = (c0+c1)(c0-c1) + 2 c0 c1 u */
    g16_fp s, d, m;
    g16_fp_add(&s, &a->c0, &a->c1);
    g16_fp_sub(&d, &a->c0, &a->c1);
    g16_fp_mul(&m, &a->c0, &a->c1);
    g16_fp_mul(&r->c0, &s, &d);
    g16_fp_dbl(&r->c1, &m);
}

void g16_fp2_mul_fp(g16_fp2 *r, const g16_fp2 *a, const g16_fp *b)
{
    g16_fp_mul(&r->c0, &a->c0, b);
    g16_fp_mul(&r->c1, &a->c1, b);
}

void g16_fp2_mul_by_xi(g16_fp2 *r, const g16_fp2 *a)
{
#if G16_CURVE_BN254
    /* (c0 + c1 u)(9 + u) = (9c0 - c1) + (c0 + 9c1) u, 9a as 8a + a */
    g16_fp n0, n1;
    g16_fp_dbl(&n0, &a->c0);
    g16_fp_dbl(&n0, &n0);
    g16_fp_dbl(&n0, &n0);
    g16_fp_add(&n0, &n0, &a->c0);
    g16_fp_dbl(&n1, &a->c1);
    g16_fp_dbl(&n1, &n1);
    g16_fp_dbl(&n1, &n1);
    g16_fp_add(&n1, &n1, &a->c1);
    g16_fp_sub(&n0, &n0, &a->c1);
    g16_fp_add(&r->c1, &n1, &a->c0);
    r->c0 = n0;
    return;
#endif
    /* (c0 + c1 u)(1 + u) = (c0 - c1) + (c0 + c1) u */
    g16_fp t;
    g16_fp_sub(&t, &a->c0, &a->c1);
    g16_fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

void g16_fp2_inv(g16_fp2 *r, const g16_fp2 *a)
{
    /* 1/(c0 + c1 u) = (c0 - c1 u) / (c0² + c1²) */
    g16_fp n, t;
    g16_fp_sqr(&n, &a->c0);
    g16_fp_sqr(&t, &a->c1);
    g16_fp_add(&n, &n, &t);
    g16_fp_inv(&n, &n);
    g16_fp_mul(&r->c0, &a->c0, &n);
    g16_fp_mul(&t, &a->c1, &n);
    g16_fp_neg(&r->c1, &t);
}

void g16_fp2_pow(g16_fp2 *r, const g16_fp2 *a, const uint64_t *e, size_t e_limbs)
{
    g16_fp2 acc, base = *a;
    g16_fp2_set_one(&acc);
    for (size_t i = 0; i < e_limbs; i++) {
        uint64_t w = e[i];
        for (int b = 0; b < 64; b++) {
            if (w & 1) g16_fp2_mul(&acc, &acc, &base);
            w >>= 1;
            if (!w && i + 1 == e_limbs) break;
            g16_fp2_sqr(&base, &base);
        }
    }
    *r = acc;
}

int g16_fp2_eq(const g16_fp2 *a, const g16_fp2 *b)
{
    return g16_fp_eq(&a->c0, &b->c0) & g16_fp_eq(&a->c1, &b->c1);
}

int g16_fp2_is_zero(const g16_fp2 *a) { return g16_fp_is_zero(&a->c0) & g16_fp_is_zero(&a->c1); }

int g16_fp2_is_one(const g16_fp2 *a) { return g16_fp_is_one(&a->c0) & g16_fp_is_zero(&a->c1); }

int g16_fp2_is_lex_largest(const g16_fp2 *a)
{
    if (!g16_fp_is_zero(&a->c1)) return g16_fp_is_lex_largest(&a->c1);
    return g16_fp_is_lex_largest(&a->c0);
}

/* (p-3)/4 and (p-1)/2 */
#if G16_CURVE_BN254
#include "bn254/consts.h"
static const uint64_t exp_p_minus_3_div_4[G16_FP_LIMBS] = G16_BN254_FP_P_MINUS_3_DIV_4;
static const uint64_t exp_p_minus_1_div_2[G16_FP_LIMBS] = G16_BN254_FP_HALF;
#else
static const uint64_t exp_p_minus_3_div_4[G16_FP_LIMBS] = {
    0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL, 0xd9cc34a83dac3d89ULL,
    0xd91dd2e13ce144afULL, 0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
static const uint64_t exp_p_minus_1_div_2[G16_FP_LIMBS] = {
    0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL,
    0xb23ba5c279c2895fULL, 0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
#endif

int g16_fp2_sqrt(g16_fp2 *r, const g16_fp2 *a)
{
    /* Adj & Rodríguez-Henríquez, "Square root computation over even extension
     * fields", algorithm 9 (p ≡ 3 mod 4); the result is checked by squaring. */
    g16_fp2 a1, alpha, x0, x, chk, minus_one;
    if (g16_fp2_is_zero(a)) {
        g16_fp2_set_zero(r);
        return 1;
    }
    g16_fp2_pow(&a1, a, exp_p_minus_3_div_4, G16_FP_LIMBS);
    g16_fp2_mul(&x0, &a1, a);
    g16_fp2_mul(&alpha, &a1, &x0);
    g16_fp2_set_one(&minus_one);
    g16_fp2_neg(&minus_one, &minus_one);
    if (g16_fp2_eq(&alpha, &minus_one)) {
        /* x = u·x0 */
        g16_fp t = x0.c0;
        g16_fp_neg(&x.c0, &x0.c1);
        x.c1 = t;
    } else {
        g16_fp2 b, one;
        g16_fp2_set_one(&one);
        g16_fp2_add(&b, &alpha, &one);
        g16_fp2_pow(&b, &b, exp_p_minus_1_div_2, G16_FP_LIMBS);
        g16_fp2_mul(&x, &b, &x0);
    }
    g16_fp2_sqr(&chk, &x);
    if (!g16_fp2_eq(&chk, a)) return 0;
    *r = x;
    return 1;
}
