/* BLS12-381's four-way split on G2 (curve.h): the base-|x| digits of a scalar and
 * the images |x|^j·P of affine points that the G2 MSM's split adds instead.
 * BLS12-381 only: not compiled for BN254 (src/bn254/sources.txt), whose G2
 * endomorphism acts as 6x² instead. */
#include "curve/curve.h"
#include "curve/g2_psi.h"
#include "field/fp_batch.h"
#include "field/mont.h"

static const g16_fp2 psi_cx = G16_BLS_PSI_CX;
static const g16_fp2 psi_cy = G16_BLS_PSI_CY;
static const g16_fp psi2_cx = G16_BLS_PSI2_CX;

/* −ψ(x, y) = (conj(x)·cx, −conj(y)·cy) with cx = c·u, so conj(x)·cx = x1·c + x0·c·u;
 * ψ²(x, y) = (x·c2, −y), c2 in Fp.  Ten products by constants a point, each as one
 * batched call over the n points (stride 4: an affine G2 point is four Fp
 * elements x0, x1, y0, y1), so they run eight at a time on the IFMA path. */
void g16_g2_affine_x_powers(g16_g2_affine *r1, g16_g2_affine *r2, g16_g2_affine *r3,
                            const g16_g2_affine *p, size_t n)
{
    const g16_fp *P = (const g16_fp *)p;
    g16_fp *R1 = (g16_fp *)r1, *R2 = (g16_fp *)r2, *R3 = (g16_fp *)r3;
    const g16_fp *c = &psi_cx.c1, *a = &psi_cy.c0, *b = &psi_cy.c1, *c2 = &psi2_cx;
    g16_fp_mul_s(R1, 4, P + 1, 4, c, 0, n); /* |x|·P: x */
    g16_fp_mul_s(R1 + 1, 4, P, 4, c, 0, n);
    g16_fp_mul_s(R2, 4, P, 4, c2, 0, n);    /* x²·P: x */
    g16_fp_mul_s(R2 + 1, 4, P + 1, 4, c2, 0, n);
    g16_fp_mul_s(R3, 4, R1, 4, c2, 0, n);   /* |x|³·P = x²·(|x|·P): x */
    g16_fp_mul_s(R3 + 1, 4, R1 + 1, 4, c2, 0, n);
    /* conj(y)·(a + b·u) = (y0·a + y1·b) + (y0·b − y1·a)·u, its four products kept
     * in the y slots of r2 and r3 until they are combined */
    g16_fp_mul_s(R2 + 2, 4, P + 2, 4, a, 0, n);
    g16_fp_mul_s(R2 + 3, 4, P + 3, 4, b, 0, n);
    g16_fp_mul_s(R3 + 2, 4, P + 2, 4, b, 0, n);
    g16_fp_mul_s(R3 + 3, 4, P + 3, 4, a, 0, n);
    for (size_t i = 0; i < n; i++) {
        g16_fp t;
        g16_fp_add(&t, &r2[i].y.c0, &r2[i].y.c1);
        g16_fp_neg(&r1[i].y.c0, &t);
        g16_fp_sub(&r1[i].y.c1, &r3[i].y.c1, &r3[i].y.c0);
        g16_fp2_neg(&r2[i].y, &p[i].y);
        g16_fp2_neg(&r3[i].y, &r1[i].y);
    }
}

/* (hi·2^64 + lo) / d and the remainder, for hi < d (so the quotient fits): one
 * divq on x86-64, where the compiler would call a 128-bit division routine. */
static inline uint64_t div_2by1(uint64_t *rem, uint64_t hi, uint64_t lo, uint64_t d)
{
#if defined(__x86_64__)
    uint64_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
    *rem = r;
    return q;
#else
    g16_u128 v = ((g16_u128)hi << 64) | lo;
    *rem = (uint64_t)(v % d);
    return (uint64_t)(v / d);
#endif
}

/* Schoolbook long division by the one-limb |x|, three times.  k < |x|^4 keeps each
 * quotient a limb shorter than its dividend (|x|^3 < 2^192, |x|^2 < 2^128), so
 * 4 + 3 + 2 divisions, and the last quotient is below |x|. */
void g16_bls_x_digits(uint64_t d[4], const uint64_t k[4])
{
    uint64_t t[4] = {k[0], k[1], k[2], k[3]};
    for (int j = 0; j < 3; j++) {
        uint64_t r = 0;
        for (int i = 3 - j; i >= 0; i--) t[i] = div_2by1(&r, r, t[i], G16_BLS_X_ABS);
        d[j] = r;
    }
    d[3] = t[0];
}
