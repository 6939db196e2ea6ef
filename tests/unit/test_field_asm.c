/* The x86-64 mulx/adx Montgomery multiplication and modular add/sub against
 * the portable C core (mont.h) and against a reference that shares no code
 * with either: for r = mont(a, b) it checks r < p and r·2^(64n) ≡ a·b (mod p)
 * by binary long division, for r = a ± b that r < p and r ≡ a ± b (mod p).  Inputs: edge values (0, 1, p-1, p-2, values of all-ones limbs
 * below p, ...), random values from a fixed seed, long chains x = x·y and
 * x = x², aliasing of r with a and b, and besides BLS12-381's p and r other
 * odd moduli up to the largest allowed, 2^(64n-1) - 1, whose all-ones limbs
 * drive every carry chain to its limit. */
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/mont.h"
#include "field/mont_x86_64.h"
#if defined(__x86_64__) && defined(G16_HAVE_MULX)
#include "field/x86_64/add_mod.h"
#endif

static g16_rng rng;
static int have_asm;

#define CHAIN_LEN 1000000L

/* ---- reference arithmetic: schoolbook product and bitwise remainder ---- */

static void ref_mul(uint64_t *out, const uint64_t *a, const uint64_t *b, size_t n)
{
    memset(out, 0, 2 * n * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < n; j++) {
            g16_u128 v = (g16_u128)a[j] * b[i] + out[i + j] + carry;
            out[i + j] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        out[i + n] = carry;
    }
}

/* rem = x mod p, x of xn limbs, p of n limbs with its top bit clear. */
static void ref_mod(uint64_t *rem, const uint64_t *x, size_t xn, const uint64_t *p, size_t n)
{
    memset(rem, 0, n * sizeof *rem);
    for (size_t bit = 64 * xn; bit-- > 0;) {
        /* rem = 2·rem + bit: fits in n limbs because rem < p < 2^(64n-1) */
        for (size_t i = n; i-- > 1;) rem[i] = (rem[i] << 1) | (rem[i - 1] >> 63);
        rem[0] = (rem[0] << 1) | ((x[bit / 64] >> (bit % 64)) & 1);
        if (!g16_mont_geq(rem, p, n)) continue;
        uint64_t borrow = 0;
        for (size_t i = 0; i < n; i++) {
            g16_u128 v = (g16_u128)rem[i] - p[i] - borrow;
            rem[i] = (uint64_t)v;
            borrow = (uint64_t)(v >> 64) & 1;
        }
    }
}

/* 1 when r < p and r·2^(64n) ≡ a·b (mod p). */
static int ref_check(const uint64_t *r, const uint64_t *a, const uint64_t *b,
                     const uint64_t *p, size_t n)
{
    uint64_t prod[2 * G16_MAX_LIMBS], shifted[2 * G16_MAX_LIMBS];
    uint64_t lhs[G16_MAX_LIMBS], rhs[G16_MAX_LIMBS];
    if (g16_mont_geq(r, p, n)) return 0;
    ref_mul(prod, a, b, n);
    memset(shifted, 0, n * sizeof *shifted);
    memcpy(shifted + n, r, n * sizeof *r);
    ref_mod(lhs, shifted, 2 * n, p, n);
    ref_mod(rhs, prod, 2 * n, p, n);
    return memcmp(lhs, rhs, n * sizeof *lhs) == 0;
}

/* ---- moduli under test ---- */

typedef struct modulus {
    const char *name;
    size_t n;
    uint64_t p[G16_MAX_LIMBS];
    uint64_t n0;
} modulus;

/* -p^-1 mod 2^64 by Newton's iteration (each step doubles the correct bits). */
static uint64_t neg_inv64(uint64_t p0)
{
    uint64_t x = p0; /* correct to 3 bits for odd p0 */
    for (int i = 0; i < 6; i++) x *= 2 - p0 * x;
    return (uint64_t)0 - x;
}

/* Without the assembly in the build these are never called (have_asm is 0),
 * but the test still links and checks the portable core. */
#if defined(__x86_64__) && defined(G16_HAVE_MULX)
static void asm_mul(const modulus *m, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    if (m->n == 6) g16_mulx_mont_384(r, a, b, m->p, m->n0);
    else g16_mulx_mont_256(r, a, b, m->p, m->n0);
}

static void asm_sqr(const modulus *m, uint64_t *r, const uint64_t *a)
{
    if (m->n == 6) g16_mulx_sqr_mont_384(r, a, m->p, m->n0);
    else g16_mulx_sqr_mont_256(r, a, m->p, m->n0);
}

static void asm_add(const modulus *m, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    if (m->n == 6) g16_add_mod_384(r, a, b, m->p);
    else g16_add_mod_256(r, a, b, m->p);
}

static void asm_sub(const modulus *m, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    if (m->n == 6) g16_sub_mod_384(r, a, b, m->p);
    else g16_sub_mod_256(r, a, b, m->p);
}

static void asm_neg(const modulus *m, uint64_t *r, const uint64_t *a)
{
    if (m->n == 6) g16_neg_mod_384(r, a, m->p);
    else g16_neg_mod_256(r, a, m->p);
}

#else
static void asm_mul(const modulus *m, uint64_t *r, const uint64_t *a, const uint64_t *b) {}
static void asm_sqr(const modulus *m, uint64_t *r, const uint64_t *a) {}
static void asm_add(const modulus *m, uint64_t *r, const uint64_t *a, const uint64_t *b) {}
static void asm_sub(const modulus *m, uint64_t *r, const uint64_t *a, const uint64_t *b) {}
static void asm_neg(const modulus *m, uint64_t *r, const uint64_t *a) {}
#endif

static int limbs_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* A uniformly random value below p (rejection sampling on p's bit length). */
static void rand_below(uint64_t *r, const modulus *m)
{
    int top_bits = 64 - __builtin_clzll(m->p[m->n - 1]);
    uint64_t mask = top_bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << top_bits) - 1);
    do {
        for (size_t i = 0; i < m->n; i++) r[i] = g16_rng_u64(&rng);
        r[m->n - 1] &= mask;
    } while (g16_mont_geq(r, m->p, m->n));
}

/* Edge values below p; returns how many were written (at most 16). */
static int edge_values(uint64_t out[][G16_MAX_LIMBS], const modulus *m)
{
    size_t n = m->n;
    int k = 0;
    memset(out, 0, 16 * sizeof out[0]);
    k++;                                                  /* 0 */
    out[k++][0] = 1;                                      /* 1 */
    out[k++][0] = 2;                                      /* 2 */
    out[k][0] = ~(uint64_t)0; k++;                        /* 2^64 - 1 */
    for (int d = 1; d <= 3; d++, k++) {                   /* p-1, p-2, p-3 */
        memcpy(out[k], m->p, n * sizeof(uint64_t));
        out[k][0] -= (uint64_t)d; /* p[0] is odd and large: no borrow */
    }
    /* all-ones limbs under p's top limb: p[n-1]-1 on top, every other limb 2^64-1 */
    for (size_t i = 0; i < n - 1; i++) out[k][i] = ~(uint64_t)0;
    out[k][n - 1] = m->p[n - 1] - 1;
    k++;
    /* the same with only the low half of the limbs all ones */
    for (size_t i = 0; i < n / 2; i++) out[k][i] = ~(uint64_t)0;
    out[k][n - 1] = m->p[n - 1] - 1;
    k++;
    /* 2^(64(n-1)) - 1 and 2^(64(n-1)): a full carry ripple into the top limb */
    for (size_t i = 0; i < n - 1; i++) out[k][i] = ~(uint64_t)0;
    k++;
    out[k++][n - 1] = 1;
    /* (p-1)/2 and (p+1)/2 */
    for (size_t i = 0; i < n; i++)
        out[k][i] = (m->p[i] >> 1) | (i + 1 < n ? m->p[i + 1] << 63 : 0);
    memcpy(out[k + 1], out[k], n * sizeof(uint64_t));
    out[k + 1][0] += 1; /* (p+1)/2 = (p-1)/2 + 1, with the carry rippled up */
    for (size_t i = 0; i + 1 < n && out[k + 1][i] == 0; i++) out[k + 1][i + 1]++;
    k += 2;
    /* p - 2^64 and p - 2^(64(n-1)): one limb short of p */
    memcpy(out[k], m->p, n * sizeof(uint64_t));
    out[k][1] -= 1;
    k++;
    memcpy(out[k], m->p, n * sizeof(uint64_t));
    out[k][n - 1] -= 1;
    k++;
    return k;
}

/* Every pair of edge values and random pairs: asm = portable = reference. */
static void test_pairs(const modulus *m)
{
    uint64_t e[16][G16_MAX_LIMBS];
    int ne = edge_values(e, m);
    size_t n = m->n;
    for (int i = 0; i < ne; i++) CHECK(!g16_mont_geq(e[i], m->p, n), "%s edge %d below p", m->name, i);
    for (int it = 0; it < ne * ne + 2000; it++) {
        uint64_t a[G16_MAX_LIMBS], b[G16_MAX_LIMBS], x[G16_MAX_LIMBS], y[G16_MAX_LIMBS];
        if (it < ne * ne) {
            memcpy(a, e[it / ne], sizeof a);
            memcpy(b, e[it % ne], sizeof b);
        } else {
            rand_below(a, m);
            if (it % 3 == 0) memcpy(b, e[it % ne], sizeof b);
            else rand_below(b, m);
        }
        g16_mont_mul(x, a, b, m->p, m->n0, n);
        CHECK(ref_check(x, a, b, m->p, n), "%s portable mul vs reference, pair %d", m->name, it);
        if (!have_asm) continue;
        asm_mul(m, y, a, b);
        CHECK(limbs_eq(x, y, n), "%s mul asm vs portable, pair %d", m->name, it);
        asm_sqr(m, y, a);
        g16_mont_mul(x, a, a, m->p, m->n0, n);
        CHECK(limbs_eq(x, y, n), "%s sqr asm vs portable, pair %d", m->name, it);
        CHECK(ref_check(y, a, a, m->p, n), "%s sqr asm vs reference, pair %d", m->name, it);
        /* r aliasing a, b, and both */
        memcpy(y, a, sizeof y);
        asm_mul(m, y, y, b);
        g16_mont_mul(x, a, b, m->p, m->n0, n);
        CHECK(limbs_eq(x, y, n), "%s mul r=a, pair %d", m->name, it);
        memcpy(y, b, sizeof y);
        asm_mul(m, y, a, y);
        CHECK(limbs_eq(x, y, n), "%s mul r=b, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_mul(m, y, y, y);
        g16_mont_mul(x, a, a, m->p, m->n0, n);
        CHECK(limbs_eq(x, y, n), "%s mul r=a=b, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_sqr(m, y, y);
        CHECK(limbs_eq(x, y, n), "%s sqr r=a, pair %d", m->name, it);
    }
}

/* 1 when r < p and r ≡ a + b (mod p); a subtraction r = a - b is checked as
 * a ≡ r + b. */
static int ref_check_add(const uint64_t *r, const uint64_t *a, const uint64_t *b,
                         const uint64_t *p, size_t n)
{
    uint64_t sum[G16_MAX_LIMBS + 1], lhs[G16_MAX_LIMBS], rhs[G16_MAX_LIMBS];
    uint64_t carry = 0;
    if (g16_mont_geq(r, p, n)) return 0;
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)a[i] + b[i] + carry;
        sum[i] = (uint64_t)v;
        carry = (uint64_t)(v >> 64);
    }
    sum[n] = carry;
    ref_mod(lhs, r, n, p, n);
    ref_mod(rhs, sum, n + 1, p, n);
    return memcmp(lhs, rhs, n * sizeof *lhs) == 0;
}

/* Every pair of edge values and random pairs, with aliasing, and negation of
 * each; then a chain x = x + y, x = x - z, every other step x = -x, of
 * CHAIN_LEN steps on both paths in lockstep. */
static void test_addsub(const modulus *m)
{
    uint64_t e[16][G16_MAX_LIMBS];
    int ne = edge_values(e, m);
    size_t n = m->n;
    for (int it = 0; it < ne * ne + 2000; it++) {
        uint64_t a[G16_MAX_LIMBS], b[G16_MAX_LIMBS], x[G16_MAX_LIMBS], y[G16_MAX_LIMBS];
        if (it < ne * ne) {
            memcpy(a, e[it / ne], sizeof a);
            memcpy(b, e[it % ne], sizeof b);
        } else {
            rand_below(a, m);
            if (it % 3 == 0) memcpy(b, e[it % ne], sizeof b);
            else rand_below(b, m);
        }
        g16_mont_add(x, a, b, m->p, n);
        CHECK(ref_check_add(x, a, b, m->p, n), "%s portable add vs reference, pair %d", m->name, it);
        g16_mont_sub(x, a, b, m->p, n);
        CHECK(ref_check_add(a, x, b, m->p, n), "%s portable sub vs reference, pair %d", m->name, it);
        if (!have_asm) continue;
        asm_add(m, y, a, b);
        CHECK(ref_check_add(y, a, b, m->p, n), "%s add asm vs reference, pair %d", m->name, it);
        g16_mont_add(x, a, b, m->p, n);
        CHECK(limbs_eq(x, y, n), "%s add asm vs portable, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_add(m, y, y, b);
        CHECK(limbs_eq(x, y, n), "%s add r=a, pair %d", m->name, it);
        memcpy(y, b, sizeof y);
        asm_add(m, y, a, y);
        CHECK(limbs_eq(x, y, n), "%s add r=b, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_add(m, y, y, y);
        g16_mont_add(x, a, a, m->p, n);
        CHECK(limbs_eq(x, y, n), "%s add r=a=b, pair %d", m->name, it);

        asm_sub(m, y, a, b);
        CHECK(ref_check_add(a, y, b, m->p, n), "%s sub asm vs reference, pair %d", m->name, it);
        g16_mont_sub(x, a, b, m->p, n);
        CHECK(limbs_eq(x, y, n), "%s sub asm vs portable, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_sub(m, y, y, b);
        CHECK(limbs_eq(x, y, n), "%s sub r=a, pair %d", m->name, it);
        memcpy(y, b, sizeof y);
        asm_sub(m, y, a, y);
        CHECK(limbs_eq(x, y, n), "%s sub r=b, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_sub(m, y, y, y);
        CHECK(g16_limbs_is_zero(y, n), "%s sub r=a=b is zero, pair %d", m->name, it);

        if (it % ne != 0) continue; /* each a once is enough for the one-input negation */
        static const uint64_t zero[G16_MAX_LIMBS];
        asm_neg(m, y, a);
        CHECK(ref_check_add(zero, y, a, m->p, n) && !g16_mont_geq(y, m->p, n),
              "%s neg asm vs reference, pair %d", m->name, it);
        g16_mont_neg(x, a, m->p, n);
        CHECK(limbs_eq(x, y, n), "%s neg asm vs portable, pair %d", m->name, it);
        memcpy(y, a, sizeof y);
        asm_neg(m, y, y);
        CHECK(limbs_eq(x, y, n), "%s neg r=a, pair %d", m->name, it);
    }
    if (!have_asm) return;
    uint64_t xa[G16_MAX_LIMBS], xp[G16_MAX_LIMBS], y[G16_MAX_LIMBS], z[G16_MAX_LIMBS];
    rand_below(xa, m);
    memcpy(xp, xa, sizeof xp);
    long bad = 0;
    for (long it = 0; it < CHAIN_LEN; it++) {
        if ((it & 1023) == 0) {
            rand_below(y, m);
            rand_below(z, m);
        }
        asm_add(m, xa, xa, y);
        g16_mont_add(xp, xp, y, m->p, n);
        asm_sub(m, xa, xa, z);
        g16_mont_sub(xp, xp, z, m->p, n);
        if (it & 1) {
            asm_neg(m, xa, xa);
            g16_mont_neg(xp, xp, m->p, n);
        }
        if (!limbs_eq(xa, xp, n)) {
            if (bad++ == 0) CHECK(0, "%s add/sub chain diverges at step %ld", m->name, it);
            memcpy(xa, xp, sizeof xa);
        }
    }
    CHECK(bad == 0, "%s add/sub chain: %ld of %ld steps differ", m->name, bad, CHAIN_LEN);
}

/* x = x·y and x = x² for CHAIN_LEN steps on both paths in lockstep; y is
 * replaced by a fresh random value every 4096 steps, and the chains start
 * from p-1.  Every 65536th step is also checked against the reference. */
static void test_chains(const modulus *m)
{
    size_t n = m->n;
    uint64_t xa[G16_MAX_LIMBS], xp[G16_MAX_LIMBS], sa[G16_MAX_LIMBS], sp[G16_MAX_LIMBS];
    uint64_t y[G16_MAX_LIMBS], prev[G16_MAX_LIMBS];
    memcpy(xa, m->p, sizeof xa);
    xa[0] -= 1;
    memcpy(xp, xa, sizeof xp);
    rand_below(sa, m);
    memcpy(sp, sa, sizeof sp);
    long mul_bad = 0, sqr_bad = 0;
    for (long it = 0; it < CHAIN_LEN; it++) {
        if ((it & 4095) == 0) rand_below(y, m);
        if ((it & 65535) == 0) memcpy(prev, xa, sizeof prev);
        asm_mul(m, xa, xa, y);
        g16_mont_mul(xp, xp, y, m->p, m->n0, n);
        asm_sqr(m, sa, sa);
        g16_mont_mul(sp, sp, sp, m->p, m->n0, n);
        if (!limbs_eq(xa, xp, n)) {
            if (mul_bad++ == 0) CHECK(0, "%s mul chain diverges at step %ld", m->name, it);
            memcpy(xa, xp, sizeof xa); /* resynchronise to keep testing */
        }
        if (!limbs_eq(sa, sp, n)) {
            if (sqr_bad++ == 0) CHECK(0, "%s sqr chain diverges at step %ld", m->name, it);
            memcpy(sa, sp, sizeof sa);
        }
        if ((it & 65535) == 0) CHECK(ref_check(xa, prev, y, m->p, n), "%s chain step %ld vs reference", m->name, it);
    }
    CHECK(mul_bad == 0, "%s mul chain: %ld of %ld steps differ", m->name, mul_bad, CHAIN_LEN);
    CHECK(sqr_bad == 0, "%s sqr chain: %ld of %ld steps differ", m->name, sqr_bad, CHAIN_LEN);
}

/* The exported g16_fp_* / g16_fr_* mul, sqr, add, dbl, sub and neg on both paths, through the
 * run-time switch, so the dispatch itself is covered. */
static void test_dispatch(void)
{
    g16_fp a, b, x, y;
    g16_fr c, d, u, v;
    g16_fp_from_u64(&a, 3);
    g16_fp_inv(&a, &a);
    g16_fp_from_u64(&b, 5);
    g16_fr_from_u64(&c, 7);
    g16_fr_inv(&c, &c);
    g16_fr_from_u64(&d, 11);
    x = y = a;
    u = v = c;
    for (int it = 0; it < 20000; it++) {
        g16_field_force_portable(1);
        g16_fp_mul(&x, &x, &b);
        g16_fp_sqr(&x, &x);
        g16_fp_add(&x, &x, &a);
        g16_fp_dbl(&x, &x);
        g16_fp_sub(&x, &x, &b);
        g16_fp_neg(&x, &x);
        g16_fr_mul(&u, &u, &d);
        g16_fr_sqr(&u, &u);
        g16_fr_add(&u, &u, &c);
        g16_fr_dbl(&u, &u);
        g16_fr_sub(&u, &u, &d);
        g16_fr_neg(&u, &u);
        g16_field_force_portable(0);
        g16_fp_mul(&y, &y, &b);
        g16_fp_sqr(&y, &y);
        g16_fp_add(&y, &y, &a);
        g16_fp_dbl(&y, &y);
        g16_fp_sub(&y, &y, &b);
        g16_fp_neg(&y, &y);
        g16_fr_mul(&v, &v, &d);
        g16_fr_sqr(&v, &v);
        g16_fr_add(&v, &v, &c);
        g16_fr_dbl(&v, &v);
        g16_fr_sub(&v, &v, &d);
        g16_fr_neg(&v, &v);
    }
    CHECK(g16_fp_eq(&x, &y), "g16_fp_mul/sqr/add/dbl/sub/neg chain: paths differ");
    CHECK(g16_fr_eq(&u, &v), "g16_fr_mul/sqr/add/dbl/sub/neg chain: paths differ");
    CHECK(g16_use_mulx == have_asm, "g16_use_mulx after force_portable(0) is %d, expected %d",
          g16_use_mulx, have_asm);
}

static void init_modulus(modulus *m, const char *name, size_t n, const uint64_t *p)
{
    m->name = name;
    m->n = n;
    memcpy(m->p, p, n * sizeof *p);
    m->n0 = neg_inv64(p[0]);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x61736d));
    have_asm = g16_cpu_can_mulx();
    printf("assembly path %s\n", have_asm ? "available: comparing it with the portable core"
                                          : "NOT available: checking the portable core only");

    modulus mods[6];
    int nm = 0;
    init_modulus(&mods[nm++], "Fp", G16_FP_LIMBS, g16_fp_modulus);
    init_modulus(&mods[nm++], "Fr", G16_FR_LIMBS, g16_fr_modulus);
    /* the largest moduli the contract allows: 2^(64n-1) - 1 (odd, all-ones limbs) */
    uint64_t big[G16_MAX_LIMBS];
    for (int i = 0; i < G16_MAX_LIMBS; i++) big[i] = ~(uint64_t)0;
    big[5] >>= 1;
    init_modulus(&mods[nm++], "2^383-1", 6, big);
    big[3] >>= 1;
    init_modulus(&mods[nm++], "2^255-1", 4, big);
    /* random odd moduli with the top bit clear and a full-width top limb */
    for (int w = 6; w >= 4; w -= 2) {
        uint64_t p[G16_MAX_LIMBS];
        for (int i = 0; i < w; i++) p[i] = g16_rng_u64(&rng);
        p[0] |= 1;
        p[w - 1] = (p[w - 1] >> 1) | ((uint64_t)1 << 62);
        init_modulus(&mods[nm++], w == 6 ? "random 383-bit" : "random 255-bit", (size_t)w, p);
    }
    for (int i = 0; i < nm; i++) {
        CHECK(mods[i].p[0] * mods[i].n0 == ~(uint64_t)0, "%s: n0 is -p^-1 mod 2^64", mods[i].name);
        test_pairs(&mods[i]);
        test_addsub(&mods[i]);
    }
    /* long chains on the two curve moduli and the all-ones ones */
    if (have_asm) {
        for (int i = 0; i < 4; i++) test_chains(&mods[i]);
    }
    test_dispatch();
    return g16_test_finish("test_field_asm");
}
