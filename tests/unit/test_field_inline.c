/* The inline Fp add/sub of field/x86_64/inline.h against the portable C core
 * (mont.h) and the exported functions on both paths: edge values (0, 1, p-1,
 * p-2, 2^k below p), random values from a fixed seed, every pair of them, and
 * aliasing of r with a and b.  Also that the header's copy of p is fp.c's.
 * The Fr pair (4 limbs) the same way on edge and random values.
 * And the lazy mulx multiplication (g16_mulx_mont_384_lazy): inputs below 2p
 * (the edge values and their + p, up to 2p - 1), result below 2p and equal to
 * the portable product of the reduced inputs once reduced; the fully reducing
 * multiplication and the squaring on the same inputs (canonical results). */
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/mont.h"
#include "field/mont_x86_64.h"
#include "field/x86_64/inline.h"

#if G16_FP_INLINE
static g16_rng rng;

static void rand_fp(g16_fp *r)
{
    do {
        for (int i = 0; i < 6; i++) r->l[i] = g16_rng_u64(&rng);
        r->l[5] &= (1ull << 61) - 1;
    } while (g16_mont_geq(r->l, g16_fp_modulus, 6));
}

/* r = p - k (k small) */
static void p_minus(g16_fp *r, uint64_t k)
{
    memcpy(r->l, g16_fp_modulus, sizeof r->l);
    r->l[0] -= k; /* p's low limb is far above k */
}

static void check_pair(const g16_fp *a, const g16_fp *b)
{
    g16_fp want, got, al;
    g16_mont_add(want.l, a->l, b->l, g16_fp_modulus, 6);
    g16_fp_add_inl(&got, a, b);
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "add %016llx.. + %016llx..",
          (unsigned long long)a->l[5], (unsigned long long)b->l[5]);
    g16_fp_add(&got, a, b); /* the exported function, whichever path is on */
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "exported add");
    al = *a;
    g16_fp_add_inl(&al, &al, b);
    CHECK(!memcmp(want.l, al.l, sizeof al.l), "add with r = a");
    al = *b;
    g16_fp_add_inl(&al, a, &al);
    CHECK(!memcmp(want.l, al.l, sizeof al.l), "add with r = b");

    g16_mont_sub(want.l, a->l, b->l, g16_fp_modulus, 6);
    g16_fp_sub_inl(&got, a, b);
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "sub %016llx.. - %016llx..",
          (unsigned long long)a->l[5], (unsigned long long)b->l[5]);
    al = *a;
    g16_fp_sub_inl(&al, &al, b);
    CHECK(!memcmp(want.l, al.l, sizeof al.l), "sub with r = a");
    al = *b;
    g16_fp_sub_inl(&al, a, &al);
    CHECK(!memcmp(want.l, al.l, sizeof al.l), "sub with r = b");
    /* the non-reducing addition: the integer sum, below 2p */
    g16_fp_add_nr_inl(&got, a, b);
    g16_u128 c = 0;
    for (int i = 0; i < 6; i++) {
        c += (g16_u128)a->l[i] + b->l[i];
        CHECK(got.l[i] == (uint64_t)c, "add_nr limb %d", i);
        c >>= 64;
    }
    CHECK(c == 0, "add_nr carried out");
    /* a - b + b = a, a + b - b = a through the inline ops only */
    g16_fp_sub_inl(&got, a, b);
    g16_fp_add_inl(&got, &got, b);
    CHECK(!memcmp(a->l, got.l, sizeof got.l), "(a - b) + b != a");
}

#if defined(G16_HAVE_MULX)
#define FP_N0 G16_FP_N0

/* r = a + p without reduction (a < p, so r < 2p < 2^382) */
static void plus_p(g16_fp *r, const g16_fp *a)
{
    g16_u128 c = 0;
    for (int i = 0; i < 6; i++) {
        c += (g16_u128)a->l[i] + g16_fp_modulus[i];
        r->l[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* 1 when x < 2p */
static int below_2p(const g16_fp *x)
{
    g16_fp two_p;
    memcpy(two_p.l, g16_fp_modulus, sizeof two_p.l);
    plus_p(&two_p, &two_p);
    return !g16_mont_geq(x->l, two_p.l, 6);
}

/* x mod p for x < 2p */
static void reduce_2p(g16_fp *r, const g16_fp *x)
{
    *r = *x;
    if (!g16_mont_geq(x->l, g16_fp_modulus, 6)) return;
    uint64_t borrow = 0;
    for (int i = 0; i < 6; i++) {
        g16_u128 v = (g16_u128)x->l[i] - g16_fp_modulus[i] - borrow;
        r->l[i] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
}

static void check_lazy(const g16_fp *a, const g16_fp *b)
{
    g16_fp want, got, ar, br;
    reduce_2p(&ar, a);
    reduce_2p(&br, b);
    g16_mont_mul(want.l, ar.l, br.l, g16_fp_modulus, FP_N0, 6);
    g16_mulx_mont_384_lazy(got.l, a->l, b->l, g16_fp_modulus, FP_N0);
    CHECK(below_2p(&got), "lazy product not below 2p");
    reduce_2p(&got, &got);
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "lazy product %016llx.. * %016llx..",
          (unsigned long long)a->l[5], (unsigned long long)b->l[5]);
    /* the fully reducing kernel accepts the same inputs and gives the canonical value */
    g16_mulx_mont_384(got.l, a->l, b->l, g16_fp_modulus, FP_N0);
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "full product of inputs below 2p");
    /* the squaring kernel on the same inputs (below 2p) */
    g16_fp sq_want;
    g16_mont_mul(sq_want.l, ar.l, ar.l, g16_fp_modulus, FP_N0, 6);
    g16_mulx_sqr_mont_384(got.l, a->l, g16_fp_modulus, FP_N0);
    CHECK(!memcmp(sq_want.l, got.l, sizeof got.l), "square of an input below 2p");
    got = *a;
    g16_mulx_mont_384_lazy(got.l, got.l, b->l, g16_fp_modulus, FP_N0);
    reduce_2p(&got, &got);
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "lazy product with r = a");
}

/* chains of lazy products against the portable chain (the batch inversion's use) */
static void check_lazy_chain(const g16_fp *x0, const g16_fp *y, long len)
{
    g16_fp lz = *x0, ref = *x0, t;
    for (long i = 0; i < len; i++) {
        g16_mulx_mont_384_lazy(lz.l, lz.l, y->l, g16_fp_modulus, FP_N0);
        g16_mont_mul(ref.l, ref.l, y->l, g16_fp_modulus, FP_N0, 6);
    }
    CHECK(below_2p(&lz), "lazy chain left [0, 2p)");
    reduce_2p(&t, &lz);
    CHECK(!memcmp(ref.l, t.l, sizeof t.l), "lazy chain of %ld differs", len);
}
#endif

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x1a11e));
    const uint64_t hp[6] = {G16_FP_P0, G16_FP_P1, G16_FP_P2, G16_FP_P3, G16_FP_P4, G16_FP_P5};
    CHECK(!memcmp(hp, g16_fp_modulus, sizeof hp), "inline.h's p differs from fp.c's");
    CHECK(G16_FP_N0 * G16_FP_P0 == ~0ull, "G16_FP_N0 is not -1/p mod 2^64");

    enum { NE = 12, NR = 200 };
    g16_fp v[NE + NR];
    memset(v, 0, sizeof v);
    v[1].l[0] = 1;
    p_minus(&v[2], 1);
    p_minus(&v[3], 2);
    v[4].l[5] = 1ull << 59;
    v[5].l[5] = G16_FP_P5 >> 1; /* about p/2: sums near p */
    memcpy(v[6].l, g16_fp_modulus, sizeof v[6].l);
    v[6].l[5] >>= 1, v[6].l[0] |= 1;
    p_minus(&v[7], 0x1234);
    for (int i = 0; i < 5; i++) v[8].l[i] = ~0ull; /* all-ones low limbs */
    v[9] = g16_fp_one_mont;
    for (int i = 0; i < 6; i++) v[10].l[i] = g16_fp_modulus[i] >> 1 | (g16_fp_modulus[i + (i < 5)] << 63);
    v[10].l[5] = g16_fp_modulus[5] >> 1; /* (p-1)/2 */
    memcpy(v[11].l, v[10].l, sizeof v[11].l);
    v[11].l[0] += 1; /* (p+1)/2: (p-1)/2 + (p+1)/2 = p -> 0 */
    for (int i = NE; i < NE + NR; i++) rand_fp(&v[i]);
    for (int i = 0; i < NE; i++) CHECK(!g16_mont_geq(v[i].l, g16_fp_modulus, 6), "edge value %d not < p", i);

    for (int path = 0; path < 2; path++) {
        g16_field_force_portable(path);
        for (int i = 0; i < NE + NR; i++)
            for (int j = 0; j < NE + NR; j++) check_pair(&v[i], &v[j]);
    }
    g16_field_force_portable(0);
#if defined(G16_HAVE_MULX)
    if (g16_cpu_can_mulx()) {
        g16_fp w[2 * (NE + NR)];
        for (int i = 0; i < NE + NR; i++) {
            w[2 * i] = v[i];
            plus_p(&w[2 * i + 1], &v[i]); /* up to 2p - 1 */
        }
        for (int i = 0; i < 2 * (NE + NR); i++)
            for (int j = 0; j < 2 * (NE + NR); j++) check_lazy(&w[i], &w[j]);
        check_lazy_chain(&w[5], &w[2 * NE + 1], 100000);
        check_lazy_chain(&w[2 * 2 + 1], &w[2 * 2 + 1], 1000); /* (2p - 1)^k */
    }
#endif
    /* Fr: the 4-limb pair against mont.h on edge and random values */
    {
        g16_fr fv[40];
        memset(fv, 0, sizeof fv);
        fv[1].l[0] = 1;
        memcpy(fv[2].l, g16_fr_modulus, sizeof fv[2].l);
        fv[2].l[0] -= 1; /* r - 1 */
        memcpy(fv[3].l, g16_fr_modulus, sizeof fv[3].l);
        fv[3].l[0] -= 2;
        for (int i = 0; i < 4; i++) fv[4].l[i] = g16_fr_modulus[i] >> 1 | (i < 3 ? g16_fr_modulus[i + 1] << 63 : 0);
        fv[5] = fv[4];
        fv[5].l[0] += 1; /* (r-1)/2 and (r+1)/2 */
        fv[6] = g16_fr_one_mont;
        for (int k = 7; k < 40; k++) {
            do {
                for (int i = 0; i < 4; i++) fv[k].l[i] = g16_rng_u64(&rng);
                fv[k].l[3] &= (1ull << 63) - 1;
            } while (g16_mont_geq(fv[k].l, g16_fr_modulus, 4));
        }
        for (int i = 0; i < 40; i++) {
            for (int j = 0; j < 40; j++) {
                g16_fr want, got, al;
                g16_mont_add(want.l, fv[i].l, fv[j].l, g16_fr_modulus, 4);
                g16_fr_add_inl(&got, &fv[i], &fv[j]);
                CHECK(!memcmp(want.l, got.l, sizeof got.l), "fr add %d %d", i, j);
                al = fv[i];
                g16_fr_add_inl(&al, &al, &fv[j]);
                CHECK(!memcmp(want.l, al.l, sizeof al.l), "fr add r = a %d %d", i, j);
                g16_mont_sub(want.l, fv[i].l, fv[j].l, g16_fr_modulus, 4);
                g16_fr_sub_inl(&got, &fv[i], &fv[j]);
                CHECK(!memcmp(want.l, got.l, sizeof got.l), "fr sub %d %d", i, j);
                al = fv[j];
                g16_fr_sub_inl(&al, &fv[i], &al);
                CHECK(!memcmp(want.l, al.l, sizeof al.l), "fr sub r = b %d %d", i, j);
            }
        }
    }
    g16_fp z;
    g16_fp_add_inl(&z, &v[10], &v[11]);
    CHECK(g16_fp_is_zero(&z), "(p-1)/2 + (p+1)/2 is not 0");
    g16_fp_sub_inl(&z, &v[0], &v[1]);
    CHECK(!memcmp(z.l, v[2].l, sizeof z.l), "0 - 1 is not p - 1");
    return g16_test_finish("field_inline");
}
#else
int main(void)
{
    /* no inline path on this target: nothing uses it */
    return g16_test_finish("field_inline");
}
#endif
