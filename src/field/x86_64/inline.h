/* Fp addition and subtraction as GNU extended asm, for hot loops that cannot
 * afford a call per operation (the MSM's batch-affine additions do six of them
 * per point).  Contract as g16_fp_add / g16_fp_sub: inputs fully reduced (< p),
 * output fully reduced, r may alias a or b.  Branch-free.
 *
 * Only base x86-64 instructions (add/adc, sub/sbb, cmov, and): unlike
 * add_mod.S, which shares the mulx path's ADX requirement, these are safe on
 * any x86-64 CPU, so callers need no g16_use_mulx test for them.
 *
 * Why asm and not C: the portable C body (mont.h) compiles to 128-bit
 * arithmetic with setc/movzx chains and vector selects; intrinsics
 * (_addcarry_u64) are better but GCC still spills around them.  The out-of-line
 * assembly versions cost a call and the argument set-up around it; here p's
 * limbs are constants (immediates or RIP-relative loads) and the compiler keeps
 * the operands in whatever registers it likes.
 *
 * G16_FP_INLINE is 1 when these (and the Fr pair below) exist (x86-64 with GNU
 * C); otherwise callers use the exported functions. */
#ifndef G16_FIELD_X86_64_INLINE_H
#define G16_FIELD_X86_64_INLINE_H

#include "field/fp.h"
#include "field/fr.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define G16_FP_INLINE 1

/* Four-limb a − b and a + b mod m for any m < 2^255 (Fr of both curves, BN254's Fp): a + b
 * < 2m never carries out of four words.  Inlined where the modulus is a global array, so the
 * memory operands below address it directly. */
static inline __attribute__((always_inline)) void g16_sub4_inl(uint64_t *r, const uint64_t *a,
                                                               const uint64_t *b, const uint64_t *mod)
{
    uint64_t t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3], m;
    __asm__("subq %[b0], %[t0]\n\t"
            "sbbq %[b1], %[t1]\n\t"
            "sbbq %[b2], %[t2]\n\t"
            "sbbq %[b3], %[t3]\n\t"
            "sbbq %[m], %[m]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [m] "=r"(m)
            : [b0] "m"(b[0]), [b1] "m"(b[1]), [b2] "m"(b[2]), [b3] "m"(b[3])
            : "cc");
    uint64_t q0 = mod[0] & m, q1 = mod[1] & m, q2 = mod[2] & m, q3 = mod[3] & m;
    __asm__("addq %[q0], %[t0]\n\t"
            "adcq %[q1], %[t1]\n\t"
            "adcq %[q2], %[t2]\n\t"
            "adcq %[q3], %[t3]"
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3)
            : [q0] "r"(q0), [q1] "r"(q1), [q2] "r"(q2), [q3] "r"(q3)
            : "cc");
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

static inline __attribute__((always_inline)) void g16_add4_inl(uint64_t *r, const uint64_t *a,
                                                               const uint64_t *b, const uint64_t *mod)
{
    uint64_t t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3];
    __asm__("addq %[b0], %[t0]\n\t"
            "adcq %[b1], %[t1]\n\t"
            "adcq %[b2], %[t2]\n\t"
            "adcq %[b3], %[t3]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3)
            : [b0] "m"(b[0]), [b1] "m"(b[1]), [b2] "m"(b[2]), [b3] "m"(b[3])
            : "cc");
    uint64_t s0 = t0, s1 = t1, s2 = t2, s3 = t3;
    __asm__("subq %[p0], %[s0]\n\t"
            "sbbq %[p1], %[s1]\n\t"
            "sbbq %[p2], %[s2]\n\t"
            "sbbq %[p3], %[s3]\n\t"
            "cmovcq %[t0], %[s0]\n\t"
            "cmovcq %[t1], %[s1]\n\t"
            "cmovcq %[t2], %[s2]\n\t"
            "cmovcq %[t3], %[s3]"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3)
            : [t0] "r"(t0), [t1] "r"(t1), [t2] "r"(t2), [t3] "r"(t3),
              [p0] "m"(mod[0]), [p1] "m"(mod[1]), [p2] "m"(mod[2]), [p3] "m"(mod[3])
            : "cc");
    r[0] = s0, r[1] = s1, r[2] = s2, r[3] = s3;
}

#if G16_CURVE_BN254
/* BN254's 4-limb Fp (docs/curve.md): p < 2^254, the four-limb pair above. */
static inline __attribute__((always_inline)) void g16_fp_sub_inl(g16_fp *r, const g16_fp *a,
                                                                 const g16_fp *b)
{
    g16_sub4_inl(r->l, a->l, b->l, g16_fp_modulus);
}

static inline __attribute__((always_inline)) void g16_fp_add_inl(g16_fp *r, const g16_fp *a,
                                                                 const g16_fp *b)
{
    g16_add4_inl(r->l, a->l, b->l, g16_fp_modulus);
}
#else /* BLS12-381: six limbs */

/* p's limbs, as in fp.c (tests/unit/test_field_inline.c checks them against g16_fp_modulus). */
#define G16_FP_P0 0xb9feffffffffaaabULL
#define G16_FP_P1 0x1eabfffeb153ffffULL
#define G16_FP_P2 0x6730d2a0f6b0f624ULL
#define G16_FP_P3 0x64774b84f38512bfULL
#define G16_FP_P4 0x4b1ba7b6434bacd7ULL
#define G16_FP_P5 0x1a0111ea397fe69aULL
/* -1/p mod 2^64, the Montgomery constant */
#define G16_FP_N0 0x89f3fffcfffcfffdULL

/* r = a - b mod p: t = a - b; on a borrow add p back (p's limbs masked by the
 * borrow, so there is no branch). */
static inline __attribute__((always_inline)) void g16_fp_sub_inl(g16_fp *r, const g16_fp *a,
                                                                 const g16_fp *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5];
    uint64_t m;
    __asm__("subq %[b0], %[t0]\n\t"
            "sbbq %[b1], %[t1]\n\t"
            "sbbq %[b2], %[t2]\n\t"
            "sbbq %[b3], %[t3]\n\t"
            "sbbq %[b4], %[t4]\n\t"
            "sbbq %[b5], %[t5]\n\t"
            "sbbq %[m], %[m]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
              [t5] "+&r"(t5), [m] "=r"(m)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [b4] "m"(b->l[4]), [b5] "m"(b->l[5])
            : "cc");
    uint64_t q0 = G16_FP_P0 & m, q1 = G16_FP_P1 & m, q2 = G16_FP_P2 & m, q3 = G16_FP_P3 & m,
             q4 = G16_FP_P4 & m, q5 = G16_FP_P5 & m;
    __asm__("addq %[q0], %[t0]\n\t"
            "adcq %[q1], %[t1]\n\t"
            "adcq %[q2], %[t2]\n\t"
            "adcq %[q3], %[t3]\n\t"
            "adcq %[q4], %[t4]\n\t"
            "adcq %[q5], %[t5]"
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4),
              [t5] "+r"(t5)
            : [q0] "r"(q0), [q1] "r"(q1), [q2] "r"(q2), [q3] "r"(q3), [q4] "r"(q4), [q5] "r"(q5)
            : "cc");
    r->l[0] = t0, r->l[1] = t1, r->l[2] = t2, r->l[3] = t3, r->l[4] = t4, r->l[5] = t5;
}

/* r = a + b as integers, NOT reduced: r < 2p when a, b < p.  Only for values
 * that go straight into a multiplication accepting inputs below 2p
 * (g16_mulx_mont_384 does; see mont_x86_64.h). */
static inline __attribute__((always_inline)) void g16_fp_add_nr_inl(g16_fp *r, const g16_fp *a,
                                                                    const g16_fp *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5];
    __asm__("addq %[b0], %[t0]\n\t"
            "adcq %[b1], %[t1]\n\t"
            "adcq %[b2], %[t2]\n\t"
            "adcq %[b3], %[t3]\n\t"
            "adcq %[b4], %[t4]\n\t"
            "adcq %[b5], %[t5]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "+&r"(t4),
              [t5] "+&r"(t5)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]),
              [b4] "m"(b->l[4]), [b5] "m"(b->l[5])
            : "cc");
    r->l[0] = t0, r->l[1] = t1, r->l[2] = t2, r->l[3] = t3, r->l[4] = t4, r->l[5] = t5;
}

/* r = a + b mod p: t = a + b (< 2p < 2^384, no carry out), s = t - p; keep t
 * when that borrowed.  The subtraction works on copies, and cmov picks. */
static inline __attribute__((always_inline)) void g16_fp_add_inl(g16_fp *r, const g16_fp *a,
                                                                 const g16_fp *b)
{
    g16_fp t;
    g16_fp_add_nr_inl(&t, a, b);
    uint64_t t0 = t.l[0], t1 = t.l[1], t2 = t.l[2], t3 = t.l[3], t4 = t.l[4], t5 = t.l[5];
    uint64_t s0 = t0, s1 = t1, s2 = t2, s3 = t3, s4 = t4, s5 = t5;
    __asm__("subq %[p0], %[s0]\n\t"
            "sbbq %[p1], %[s1]\n\t"
            "sbbq %[p2], %[s2]\n\t"
            "sbbq %[p3], %[s3]\n\t"
            "sbbq %[p4], %[s4]\n\t"
            "sbbq %[p5], %[s5]\n\t"
            "cmovcq %[t0], %[s0]\n\t"
            "cmovcq %[t1], %[s1]\n\t"
            "cmovcq %[t2], %[s2]\n\t"
            "cmovcq %[t3], %[s3]\n\t"
            "cmovcq %[t4], %[s4]\n\t"
            "cmovcq %[t5], %[s5]"
            : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [s4] "+&r"(s4),
              [s5] "+&r"(s5)
            : [t0] "r"(t0), [t1] "r"(t1), [t2] "r"(t2), [t3] "r"(t3), [t4] "r"(t4), [t5] "r"(t5),
              [p0] "m"(g16_fp_modulus[0]), [p1] "m"(g16_fp_modulus[1]),
              [p2] "m"(g16_fp_modulus[2]), [p3] "m"(g16_fp_modulus[3]),
              [p4] "m"(g16_fp_modulus[4]), [p5] "m"(g16_fp_modulus[5])
            : "cc");
    r->l[0] = s0, r->l[1] = s1, r->l[2] = s2, r->l[3] = s3, r->l[4] = s4, r->l[5] = s5;
}
#endif /* G16_CURVE_BN254 */

/* Fr (4 limbs, r < 2^255): the same two operations, for NTT butterflies. */
static inline __attribute__((always_inline)) void g16_fr_sub_inl(g16_fr *r, const g16_fr *a,
                                                                 const g16_fr *b)
{
    g16_sub4_inl(r->l, a->l, b->l, g16_fr_modulus);
}

static inline __attribute__((always_inline)) void g16_fr_add_inl(g16_fr *r, const g16_fr *a,
                                                                 const g16_fr *b)
{
    g16_add4_inl(r->l, a->l, b->l, g16_fr_modulus);
}

#else
#define G16_FP_INLINE 0
#endif

#if defined(__x86_64__) && defined(G16_HAVE_MULX) && !G16_CURVE_BN254
#include "field/cpu.h"
#include "field/mont_x86_64.h"
/* r ≡ a·b: on the mulx path r < 2p (lazy, g16_mulx_mont_384_lazy; a, b < 2p
 * allowed), on the portable path the canonical g16_fp_mul (a, b < p).  For
 * values that only feed further multiplications (a batch inversion's running
 * products); g16_fp_mul on the mulx path accepts such lazy inputs too and
 * returns a canonical result. */
static inline void g16_fp_mul_lazy(g16_fp *r, const g16_fp *a, const g16_fp *b)
{
    if (g16_use_mulx)
        g16_mulx_mont_384_lazy(r->l, a->l, b->l, g16_fp_modulus, G16_FP_N0);
    else
        g16_fp_mul(r, a, b);
}
#else
static inline void g16_fp_mul_lazy(g16_fp *r, const g16_fp *a, const g16_fp *b)
{
    g16_fp_mul(r, a, b);
}
#endif

#endif
