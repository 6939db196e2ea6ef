/* The batched Fp multiplication (field/fp_batch.h) on both paths (IFMA when the
 * CPU has it, the scalar loop) against the portable Montgomery product of
 * mont.h: edge values 0, 1, 2, p-1, p-2, (p±1)/2, 2^k, every pair of them; the
 * same values plus p (the lazy bound: inputs up to 2p-1); random values; every
 * length 0..40 (the 8-lane groups and the masked tail) and 1000; aliasing
 * r = a, r = b, a = b; the squaring entry point; strided forms (Fp2 components, mixed strides).
 * fp_ifma.h's vector pieces used by the MSM directly: p in radix 2^52, the
 * addition, subtraction and masked negation against g16_fp_add / _sub / _neg (0 included), the
 * lazy product (inputs below 2p, result below 1.5p and the same residue), the gathers and
 * scatters through addresses. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "field/fp.h"
#include "field/fp_batch.h"
#include "field/fp_ifma.h"
#include "field/mont.h"

/* also built for BN254 (docs/curve.md): limb counts, sizes and n0 from the curve */
#if G16_CURVE_BN254
#include "bn254/consts.h"
#define FP_N0 G16_BN254_FP_N0
#define PBITS 254
#else
#define FP_N0 0x89f3fffcfffcfffdULL
#define PBITS 381
#endif
#define NW G16_FP_LIMBS
#define NB (8 * G16_FP_LIMBS) /* bytes of an element */

static g16_rng rng;

static void rand_fp(g16_fp *r)
{
    g16_test_rand_fp(&rng, r);
}

/* r = a + p (no reduction): the same residue, at or above p, below 2p */
static void plus_p(g16_fp *r, const g16_fp *a)
{
    unsigned __int128 c = 0;
    for (int i = 0; i < NW; i++) {
        c += (unsigned __int128)a->l[i] + g16_fp_modulus[i];
        r->l[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* the canonical residue of a value below 2p */
static void reduce(g16_fp *r, const g16_fp *a)
{
    *r = *a;
    if (g16_mont_geq(r->l, g16_fp_modulus, NW)) {
        unsigned __int128 b = 0;
        for (int i = 0; i < NW; i++) {
            unsigned __int128 v = (unsigned __int128)r->l[i] - g16_fp_modulus[i] - (uint64_t)b;
            r->l[i] = (uint64_t)v;
            b = (v >> 64) & 1;
        }
    }
}

static void ref_mul(g16_fp *r, const g16_fp *a, const g16_fp *b)
{
    g16_fp x, y;
    reduce(&x, a);
    reduce(&y, b);
    g16_mont_mul(r->l, x.l, y.l, g16_fp_modulus, FP_N0, NW);
}

/* a, b of n elements through every entry point and aliasing; 'what' names the run */
static void check_arrays(const g16_fp *a, const g16_fp *b, size_t n, const char *what)
{
    g16_fp *want = malloc((n + 1) * sizeof *want), *got = malloc((n + 1) * sizeof *got);
    g16_fp *al = malloc((n + 1) * sizeof *al);
    for (size_t i = 0; i < n; i++) ref_mul(&want[i], &a[i], &b[i]);
    /* a sentinel after the end: the masked tail must not write past n */
    memset(&got[n], 0xa5, sizeof got[n]);
    g16_fp_mul_n(got, a, b, n);
    for (size_t i = 0; i < n; i++)
        CHECK(!memcmp(got[i].l, want[i].l, sizeof got[i].l), "%s: mul n=%zu i=%zu", what, n, i);
    CHECK(got[n].l[0] == 0xa5a5a5a5a5a5a5a5ULL && got[n].l[NW - 1] == 0xa5a5a5a5a5a5a5a5ULL,
          "%s: wrote past n=%zu", what, n);
    if (n) memcpy(al, a, n * sizeof *al);
    g16_fp_mul_n(al, al, b, n);
    for (size_t i = 0; i < n; i++) CHECK(!memcmp(al[i].l, want[i].l, sizeof al[i].l), "%s: r = a, i=%zu", what, i);
    if (n) memcpy(al, b, n * sizeof *al);
    g16_fp_mul_n(al, a, al, n);
    for (size_t i = 0; i < n; i++) CHECK(!memcmp(al[i].l, want[i].l, sizeof al[i].l), "%s: r = b, i=%zu", what, i);
    for (size_t i = 0; i < n; i++) ref_mul(&want[i], &a[i], &a[i]);
    g16_fp_sqr_n(got, a, n);
    for (size_t i = 0; i < n; i++) CHECK(!memcmp(got[i].l, want[i].l, sizeof got[i].l), "%s: sqr i=%zu", what, i);
    g16_fp_mul_n(got, a, a, n);
    for (size_t i = 0; i < n; i++) CHECK(!memcmp(got[i].l, want[i].l, sizeof got[i].l), "%s: a = b i=%zu", what, i);
    if (n) memcpy(al, a, n * sizeof *al);
    g16_fp_sqr_n(al, al, n);
    for (size_t i = 0; i < n; i++) CHECK(!memcmp(al[i].l, want[i].l, sizeof al[i].l), "%s: sqr r = a i=%zu", what, i);
    free(want);
    free(got);
    free(al);
}

static void run_all(const char *path)
{
    enum { NE = 80 };
    g16_fp e[NE];
    int ne = 0;
    memset(e, 0, sizeof e);
    ne = 1;                                            /* 0 */
    e[ne++].l[0] = 1;                                  /* 1 (an integer, not 1 in Montgomery form) */
    e[ne++].l[0] = 2;
    e[ne++] = g16_fp_one_mont;                         /* Montgomery 1 */
    memcpy(e[ne].l, g16_fp_modulus, NB), e[ne++].l[0] -= 1; /* p-1 */
    memcpy(e[ne].l, g16_fp_modulus, NB), e[ne++].l[0] -= 2; /* p-2 */
    { /* (p-1)/2, (p+1)/2 */
        g16_fp h;
        for (int i = 0; i < NW; i++) h.l[i] = (g16_fp_modulus[i] >> 1) | (i < NW - 1 ? g16_fp_modulus[i + 1] << 63 : 0);
        e[ne++] = h;
        h.l[0] += 1;
        e[ne++] = h;
    }
    for (int k = 0; k < PBITS; k += 29) { /* 2^k and 2^k - 1 */
        e[ne].l[k / 64] = 1ull << (k % 64), ne++;
        for (int i = 0; i < k / 64; i++) e[ne].l[i] = ~0ull;
        if (k % 64) e[ne].l[k / 64] = (1ull << (k % 64)) - 1;
        ne++;
    }
    /* limb patterns at the 52-bit boundaries of the vector radix */
    for (int k = 52; k < PBITS; k += 52) e[ne].l[k / 64] = 1ull << (k % 64), ne++;
    int nr = ne;
    for (int i = 0; i < nr && ne < NE; i++) plus_p(&e[ne++], &e[i]); /* the same residues, in [p, 2p) */
    /* every pair of edge values, as arrays of all lengths' worth */
    size_t np = (size_t)ne * ne;
    g16_fp *a = malloc(np * sizeof *a), *b = malloc(np * sizeof *b);
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++) a[i * ne + j] = e[i], b[i * ne + j] = e[j];
    check_arrays(a, b, np, path);
    /* random values, every length 0..40 and 1000 */
    for (size_t n = 0; n <= 40; n++) {
        for (size_t i = 0; i < n; i++) {
            rand_fp(&a[i]);
            rand_fp(&b[i]);
            if (g16_rng_u64(&rng) & 1) plus_p(&a[i], &a[i]);
            if (g16_rng_u64(&rng) & 1) plus_p(&b[i], &b[i]);
        }
        check_arrays(a, b, n, path);
    }
    for (size_t i = 0; i < 1000; i++) rand_fp(&a[i]), rand_fp(&b[i]);
    check_arrays(a, b, 1000, path);
    /* the batched product agrees with g16_fp_mul (whichever scalar path is on) */
    for (size_t i = 0; i < 64; i++) {
        g16_fp w, g;
        g16_fp_mul(&w, &a[i], &b[i]);
        g16_fp_mul_n(&g, &a[i], &b[i], 1);
        CHECK(!memcmp(w.l, g.l, NB), "%s: g16_fp_mul i=%zu", path, i);
    }
    /* stride 2 (one component of Fp2 arrays): the other component untouched */
    for (size_t n = 0; n <= 19; n++) {
        g16_fp *r = malloc((2 * n + 1) * sizeof *r);
        for (size_t i = 0; i < 2 * n; i++) rand_fp(&a[i]), rand_fp(&b[i]), r[i] = a[i];
        for (int c = 0; c < 2; c++) {
            g16_fp_mul_s(r + c, 2, a + c, 2, b + c, 2, n);
            for (size_t i = 0; i < n; i++) {
                g16_fp w;
                ref_mul(&w, &a[2 * i + c], &b[2 * i + c]);
                CHECK(!memcmp(w.l, r[2 * i + c].l, NB), "%s: stride 2 c%d n=%zu i=%zu", path, c, n, i);
                if (!c) CHECK(!memcmp(a[2 * i + 1].l, r[2 * i + 1].l, NB), "%s: stride 2 wrote c1", path);
            }
        }
        free(r);
    }
    /* mixed strides: r contiguous, a stride 2, b stride 3 */
    for (size_t n = 0; n <= 19; n++) {
        g16_fp r[20];
        for (size_t i = 0; i < 3 * n; i++) rand_fp(&a[i]), rand_fp(&b[i]);
        g16_fp_mul_s(r, 1, a + 1, 2, b, 3, n);
        for (size_t i = 0; i < n; i++) {
            g16_fp w;
            ref_mul(&w, &a[2 * i + 1], &b[3 * i]);
            CHECK(!memcmp(w.l, r[i].l, NB), "%s: strides 1/2/3 n=%zu i=%zu", path, n, i);
        }
    }
    free(a);
    free(b);
}

#ifdef G16_IFMA_BUILD
static IFMA_TARGET void check_v8_pieces(void)
{
    CHECK(g16_test_limbs52_eq(g16_p52, FP_NL, g16_fp_modulus, NW), "g16_p52 is not p");
    /* 8 pairs per round: edge values (0, 1, p-1, p-2) and random ones */
    g16_fp a[8], b[8], r[8], want;
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 8; i++) {
            rand_fp(&a[i]);
            rand_fp(&b[i]);
            if (round < 16) {
                int e = (round + i) % 4;
                memcpy(a[i].l, g16_fp_modulus, NB);
                if (e == 0) memset(&a[i], 0, NB);
                if (e == 1) memset(&a[i], 0, NB), a[i].l[0] = 1;
                if (e == 2) a[i].l[0] -= 1;
                if (e == 3) a[i].l[0] -= 2;
                if (round & 1) { g16_fp t = a[i]; a[i] = b[i]; b[i] = t; }
                if (round & 2) b[i] = a[i];
            }
        }
        v8 x, y, z;
        load8(&x, a, 0xff, offsets(1));
        load8(&y, b, 0xff, offsets(1));
        v8_sub(&z, &x, &y);
        store8(r, &z, 0xff, offsets(1));
        for (int i = 0; i < 8; i++) {
            g16_fp_sub(&want, &a[i], &b[i]);
            CHECK(!memcmp(want.l, r[i].l, NB), "v8_sub round %d lane %d", round, i);
        }
        v8_add(&z, &x, &y);
        store8(r, &z, 0xff, offsets(1));
        for (int i = 0; i < 8; i++) {
            g16_fp_add(&want, &a[i], &b[i]);
            CHECK(!memcmp(want.l, r[i].l, NB), "v8_add round %d lane %d", round, i);
        }
        __mmask8 k = (__mmask8)(g16_rng_u64(&rng) & 0xff);
        v8_neg_mask(&z, &x, k);
        store8(r, &z, 0xff, offsets(1));
        for (int i = 0; i < 8; i++) {
            if ((k >> i) & 1)
                g16_fp_neg(&want, &a[i]);
            else
                want = a[i];
            CHECK(!memcmp(want.l, r[i].l, NB), "v8_neg_mask round %d lane %d", round, i);
        }
        /* the lazy product: inputs up to 2p - 1, result below 1.5p, the same residue */
        g16_fp la[8], lb[8];
        for (int i = 0; i < 8; i++) {
            la[i] = a[i], lb[i] = b[i];
            if ((round + i) & 1) plus_p(&la[i], &la[i]);
            if ((round + i) & 2) plus_p(&lb[i], &lb[i]);
        }
        load8(&x, la, 0xff, offsets(1));
        load8(&y, lb, 0xff, offsets(1));
        mont8_1_lazy(&z, &x, &y);
        store8(r, &z, 0xff, offsets(1));
        for (int i = 0; i < 8; i++) {
            g16_fp red, three_half; /* 1.5p = p + (p >> 1) + 1 > the bound */
            ref_mul(&want, &a[i], &b[i]);
            reduce(&red, &r[i]);
            CHECK(!memcmp(want.l, red.l, NB), "mont8_1_lazy round %d lane %d", round, i);
            unsigned __int128 c = 1;
            for (int w = 0; w < NW; w++) {
#if G16_CURVE_BN254 /* 4p²/2^256 < 0.76p: the lazy bound is 2p (still a valid input) */
                uint64_t h = g16_fp_modulus[w] - (w == 0);
#else
                uint64_t h = (g16_fp_modulus[w] >> 1) | (w < NW - 1 ? g16_fp_modulus[w + 1] << 63 : 0);
#endif
                c += (unsigned __int128)g16_fp_modulus[w] + h;
                three_half.l[w] = (uint64_t)c;
                c >>= 64;
            }
            CHECK(!g16_mont_geq(r[i].l, three_half.l, NW), "mont8_1_lazy round %d lane %d: not below 1.5p", round, i);
        }
        /* through addresses: lane i reads b[7 - i] at offset 0, writes r[i] */
        uint64_t ad[8], ar[8];
        for (int i = 0; i < 8; i++) ad[i] = (uint64_t)(uintptr_t)&b[7 - i], ar[i] = (uint64_t)(uintptr_t)&r[i];
        memset(r, 0, sizeof r);
        v8_gather_at(&z, _mm512_loadu_si512(ad), 0, 0x7f);
        v8_scatter_at(_mm512_loadu_si512(ar), 0, &z, 0x7f);
        for (int i = 0; i < 7; i++) CHECK(!memcmp(b[7 - i].l, r[i].l, NB), "gather/scatter lane %d", i);
        CHECK(g16_fp_is_zero(&r[7]), "masked lane written");
    }
}
#endif

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x1f3a));
    int can = g16_cpu_can_ifma();
    printf("field_ifma: this CPU %s AVX-512 IFMA\n", can ? "has" : "lacks");
    CHECK(g16_use_ifma == can, "default path is not the best available");
    if (can) run_all("ifma");
#ifdef G16_IFMA_BUILD
    if (can) check_v8_pieces();
#endif
    g16_fp_batch_force_scalar(1);
    CHECK(!g16_use_ifma, "forcing the scalar path");
    run_all("scalar");
    g16_fp_batch_force_scalar(0);
    CHECK(g16_use_ifma == can, "back to the best path");
    return g16_test_finish("field_ifma");
}
