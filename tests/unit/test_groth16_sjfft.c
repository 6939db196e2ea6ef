/* snarkjs-convention NTT (src/groth16/snarkjs_fft.c) at sizes past its
 * in-block stages (2^10): outputs at random positions and at 0, 1, n/2, n − 1
 * against Horner evaluation of the input polynomial at ω^j (ω = g16_sj_root),
 * and the inverse transform's round trip, for 2^11..2^13; 2^10 and 2^1 too (only
 * in-block stages).  Also: g16_sj_root(k) is a primitive 2^k-th root of unity for every
 * k up to the curve's 2-adicity (compiled for both curves: test_bn254_groth16_sjfft). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/fr.h"
#include "groth16/snarkjs_prove.h"

static g16_rng rng;

static void rand_fr(g16_fr *r)
{
    uint64_t c[4];
    for (int i = 0; i < 4; i++) c[i] = g16_rng_u64(&rng);
    c[3] &= (1ull << 60) - 1;
    CHECK(g16_fr_from_canonical(r, c) == G16_OK, "random value");
}

/* Σ x_i·w^i by Horner */
static void eval(g16_fr *out, const g16_fr *x, size_t n, const g16_fr *w)
{
    g16_fr acc;
    g16_fr_set_zero(&acc);
    for (size_t i = n; i-- > 0;) {
        g16_fr_mul(&acc, &acc, w);
        g16_fr_add(&acc, &acc, &x[i]);
    }
    *out = acc;
}

static void check_size(unsigned lg)
{
    size_t n = (size_t)1 << lg;
    g16_fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), w, wj, want;
    CHECK(x && y, "alloc");
    if (!x || !y) return;
    for (size_t i = 0; i < n; i++) rand_fr(&x[i]);
    memcpy(y, x, n * sizeof *y);
    CHECK(g16_sj_ntt(y, lg, 0) == G16_OK, "ntt 2^%u", lg);
    g16_sj_root(&w, lg);
    size_t pos[36] = {0, 1, n / 2, n - 1};
    for (int k = 4; k < 36; k++) pos[k] = (size_t)(g16_rng_u64(&rng) % n);
    for (int k = 0; k < 36; k++) {
        uint64_t e = pos[k];
        g16_fr_pow(&wj, &w, &e, 1);
        eval(&want, x, n, &wj);
        CHECK(g16_fr_eq(&want, &y[pos[k]]), "2^%u: ntt[%zu]", lg, pos[k]);
    }
    CHECK(g16_sj_ntt(y, lg, 1) == G16_OK, "intt 2^%u", lg);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += !g16_fr_eq(&x[i], &y[i]);
    CHECK(bad == 0, "2^%u: round trip differs at %zu positions", lg, bad);
    free(x);
    free(y);
}

/* ω^(2^(k−1)) = −1 (so ω has order exactly 2^k), and the roots nest: root(k)² = root(k − 1) */
static void check_roots(void)
{
    g16_fr w, t, minus_one, prev;
    g16_fr_set_one(&minus_one);
    g16_fr_neg(&minus_one, &minus_one);
    g16_fr_set_one(&prev);
    for (unsigned k = 1; k <= G16_SJ_TWO_ADICITY; k++) {
        g16_sj_root(&w, k);
        t = w;
        for (unsigned i = 1; i < k; i++) g16_fr_sqr(&t, &t);
        CHECK(g16_fr_eq(&t, &minus_one), "root(%u)^(2^%u) is not -1", k, k - 1);
        g16_fr_sqr(&t, &w);
        if (k > 1) CHECK(g16_fr_eq(&t, &prev), "root(%u)^2 is not root(%u)", k, k - 1);
        prev = w;
    }
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0xff7));
    check_roots();
    check_size(1);
    check_size(10);
    for (unsigned lg = 11; lg <= 13; lg++) check_size(lg);
    return g16_test_finish("groth16_sjfft");
}
