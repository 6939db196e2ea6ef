#include "field/fp6.h"

void g16_fp6_set_zero(g16_fp6 *r)
{
    g16_fp2_set_zero(&r->c0);
    g16_fp2_set_zero(&r->c1);
    g16_fp2_set_zero(&r->c2);
}

void g16_fp6_set_one(g16_fp6 *r)
{
    g16_fp2_set_one(&r->c0);
    g16_fp2_set_zero(&r->c1);
    g16_fp2_set_zero(&r->c2);
}

void g16_fp6_add(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b)
{
    g16_fp2_add(&r->c0, &a->c0, &b->c0);
    g16_fp2_add(&r->c1, &a->c1, &b->c1);
    g16_fp2_add(&r->c2, &a->c2, &b->c2);
}

void g16_fp6_sub(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b)
{
    g16_fp2_sub(&r->c0, &a->c0, &b->c0);
    g16_fp2_sub(&r->c1, &a->c1, &b->c1);
    g16_fp2_sub(&r->c2, &a->c2, &b->c2);
}

void g16_fp6_dbl(g16_fp6 *r, const g16_fp6 *a)
{
    g16_fp2_dbl(&r->c0, &a->c0);
    g16_fp2_dbl(&r->c1, &a->c1);
    g16_fp2_dbl(&r->c2, &a->c2);
}

void g16_fp6_neg(g16_fp6 *r, const g16_fp6 *a)
{
    g16_fp2_neg(&r->c0, &a->c0);
    g16_fp2_neg(&r->c1, &a->c1);
    g16_fp2_neg(&r->c2, &a->c2);
}

void g16_fp6_mul(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b)
{
    /* t_i = a_i·b_i; the cross terms come from (a_i + a_j)(b_i + b_j) − t_i − t_j,
     * and v³ = ξ folds the degree-3 and degree-4 terms back down. */
    g16_fp2 t0, t1, t2, s, u, x0, x1, x2;
    g16_fp2_mul(&t0, &a->c0, &b->c0);
    g16_fp2_mul(&t1, &a->c1, &b->c1);
    g16_fp2_mul(&t2, &a->c2, &b->c2);

    g16_fp2_add(&s, &a->c1, &a->c2);
    g16_fp2_add(&u, &b->c1, &b->c2);
    g16_fp2_mul(&x0, &s, &u);
    g16_fp2_sub(&x0, &x0, &t1);
    g16_fp2_sub(&x0, &x0, &t2);
    g16_fp2_mul_by_xi(&x0, &x0);
    g16_fp2_add(&x0, &x0, &t0);

    g16_fp2_add(&s, &a->c0, &a->c1);
    g16_fp2_add(&u, &b->c0, &b->c1);
    g16_fp2_mul(&x1, &s, &u);
    g16_fp2_sub(&x1, &x1, &t0);
    g16_fp2_sub(&x1, &x1, &t1);
    g16_fp2_mul_by_xi(&s, &t2);
    g16_fp2_add(&x1, &x1, &s);

    g16_fp2_add(&s, &a->c0, &a->c2);
    g16_fp2_add(&u, &b->c0, &b->c2);
    g16_fp2_mul(&x2, &s, &u);
    g16_fp2_sub(&x2, &x2, &t0);
    g16_fp2_sub(&x2, &x2, &t2);
    g16_fp2_add(&x2, &x2, &t1);

    r->c0 = x0;
    r->c1 = x1;
    r->c2 = x2;
}

void g16_fp6_sqr(g16_fp6 *r, const g16_fp6 *a)
{
    /* Chung & Hasan, "Asymmetric squaring formulae" (ARITH 2007), SQR2:
     * s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2²;
     * c0 = s0 + ξs3, c1 = s1 + ξs4, c2 = s1 + s2 + s3 − s0 − s4. */
    g16_fp2 s0, s1, s2, s3, s4, t;
    g16_fp2_sqr(&s0, &a->c0);
    g16_fp2_mul(&s1, &a->c0, &a->c1);
    g16_fp2_dbl(&s1, &s1);
    g16_fp2_sub(&s2, &a->c0, &a->c1);
    g16_fp2_add(&s2, &s2, &a->c2);
    g16_fp2_sqr(&s2, &s2);
    g16_fp2_mul(&s3, &a->c1, &a->c2);
    g16_fp2_dbl(&s3, &s3);
    g16_fp2_sqr(&s4, &a->c2);

    g16_fp2_add(&r->c2, &s1, &s2);
    g16_fp2_add(&r->c2, &r->c2, &s3);
    g16_fp2_sub(&r->c2, &r->c2, &s0);
    g16_fp2_sub(&r->c2, &r->c2, &s4);
    g16_fp2_mul_by_xi(&t, &s3);
    g16_fp2_add(&r->c0, &s0, &t);
    g16_fp2_mul_by_xi(&t, &s4);
    g16_fp2_add(&r->c1, &s1, &t);
}

void g16_fp6_mul_by_v(g16_fp6 *r, const g16_fp6 *a)
{
    g16_fp2 t;
    g16_fp2_mul_by_xi(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

void g16_fp6_mul_by_01(g16_fp6 *r, const g16_fp6 *a, const g16_fp2 *b0, const g16_fp2 *b1)
{
    /* c0 = a0b0 + ξa2b1, c1 = a0b1 + a1b0, c2 = a1b1 + a2b0 */
    g16_fp2 t0, t1, x0, x1, x2, s, u;
    g16_fp2_mul(&t0, &a->c0, b0);
    g16_fp2_mul(&t1, &a->c1, b1);

    g16_fp2_mul(&x0, &a->c2, b1);
    g16_fp2_mul_by_xi(&x0, &x0);
    g16_fp2_add(&x0, &x0, &t0);

    g16_fp2_add(&s, &a->c0, &a->c1);
    g16_fp2_add(&u, b0, b1);
    g16_fp2_mul(&x1, &s, &u);
    g16_fp2_sub(&x1, &x1, &t0);
    g16_fp2_sub(&x1, &x1, &t1);

    g16_fp2_mul(&x2, &a->c2, b0);
    g16_fp2_add(&x2, &x2, &t1);

    r->c0 = x0;
    r->c1 = x1;
    r->c2 = x2;
}

void g16_fp6_mul_by_1(g16_fp6 *r, const g16_fp6 *a, const g16_fp2 *b1)
{
    g16_fp2 x0, x1, x2;
    g16_fp2_mul(&x0, &a->c2, b1);
    g16_fp2_mul_by_xi(&x0, &x0);
    g16_fp2_mul(&x1, &a->c0, b1);
    g16_fp2_mul(&x2, &a->c1, b1);
    r->c0 = x0;
    r->c1 = x1;
    r->c2 = x2;
}

void g16_fp6_mul_fp2(g16_fp6 *r, const g16_fp6 *a, const g16_fp2 *b)
{
    g16_fp2_mul(&r->c0, &a->c0, b);
    g16_fp2_mul(&r->c1, &a->c1, b);
    g16_fp2_mul(&r->c2, &a->c2, b);
}

void g16_fp6_inv(g16_fp6 *r, const g16_fp6 *a)
{
    /* The adjugate (A, B, C) satisfies a·(A + Bv + Cv²) = F ∈ Fp2:
     * A = a0² − ξa1a2, B = ξa2² − a0a1, C = a1² − a0a2,
     * F = a0A + ξ(a2B + a1C); then 1/a = (A, B, C)/F. */
    g16_fp2 A, B, C, F, t;
    g16_fp2_sqr(&A, &a->c0);
    g16_fp2_mul(&t, &a->c1, &a->c2);
    g16_fp2_mul_by_xi(&t, &t);
    g16_fp2_sub(&A, &A, &t);

    g16_fp2_sqr(&B, &a->c2);
    g16_fp2_mul_by_xi(&B, &B);
    g16_fp2_mul(&t, &a->c0, &a->c1);
    g16_fp2_sub(&B, &B, &t);

    g16_fp2_sqr(&C, &a->c1);
    g16_fp2_mul(&t, &a->c0, &a->c2);
    g16_fp2_sub(&C, &C, &t);

    g16_fp2_mul(&F, &a->c2, &B);
    g16_fp2_mul(&t, &a->c1, &C);
    g16_fp2_add(&F, &F, &t);
    g16_fp2_mul_by_xi(&F, &F);
    g16_fp2_mul(&t, &a->c0, &A);
    g16_fp2_add(&F, &F, &t);
    g16_fp2_inv(&F, &F);

    g16_fp2_mul(&r->c0, &A, &F);
    g16_fp2_mul(&r->c1, &B, &F);
    g16_fp2_mul(&r->c2, &C, &F);
}

int g16_fp6_eq(const g16_fp6 *a, const g16_fp6 *b)
{
    return g16_fp2_eq(&a->c0, &b->c0) & g16_fp2_eq(&a->c1, &b->c1) & g16_fp2_eq(&a->c2, &b->c2);
}

int g16_fp6_is_zero(const g16_fp6 *a)
{
    return g16_fp2_is_zero(&a->c0) & g16_fp2_is_zero(&a->c1) & g16_fp2_is_zero(&a->c2);
}

int g16_fp6_is_one(const g16_fp6 *a)
{
    return g16_fp2_is_one(&a->c0) & g16_fp2_is_zero(&a->c1) & g16_fp2_is_zero(&a->c2);
}
