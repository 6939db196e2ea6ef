/* NTT against the O(n^2) DFT at sizes 2^0..2^9 in every order, cosets against
 * direct evaluation at g·ω^i, round trips at 2^0..2^12, and the roots of unity
 * against zkcrypto/bls12_381's published ROOT_OF_UNITY. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "common/pool.h"
#include "ntt/ntt.h"
#include "ntt/ntt_internal.h"

static g16_rng rng;

static size_t rev(size_t i, int bits)
{
    size_t r = 0;
    for (int b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
}

static void permute(g16_fr *out, const g16_fr *in, int log_n)
{
    size_t n = (size_t)1 << log_n;
    for (size_t i = 0; i < n; i++) out[rev(i, log_n)] = in[i];
}

/* out_i = sum_j (scale^j c_j) x^(ij), x = ω or ω^-1: the textbook sum */
static void dft(g16_fr *out, const g16_fr *c, size_t n, const g16_fr *x, const g16_fr *scale)
{
    g16_fr xi = g16_fr_one_mont; /* x^i */
    for (size_t i = 0; i < n; i++) {
        g16_fr acc, p = g16_fr_one_mont, s = g16_fr_one_mont, t;
        g16_fr_set_zero(&acc);
        for (size_t j = 0; j < n; j++) {
            g16_fr_mul(&t, &c[j], &p);
            g16_fr_mul(&t, &t, &s);
            g16_fr_add(&acc, &acc, &t);
            g16_fr_mul(&p, &p, &xi);
            if (scale) g16_fr_mul(&s, &s, scale);
        }
        out[i] = acc;
        g16_fr_mul(&xi, &xi, x);
    }
}

static int same(const g16_fr *a, const g16_fr *b, size_t n, size_t *where)
{
    for (size_t i = 0; i < n; i++)
        if (!g16_fr_eq(&a[i], &b[i])) {
            *where = i;
            return 0;
        }
    return 1;
}

static void test_roots(void)
{
    g16_fr w;
#if G16_CURVE_BN254
    /* ffjavascript's bn128 Fr w[28] = 5^((r-1)/2^28) (the root snarkjs's FFTs use),
     * canonical: 19103219067921713944291392827692070036145651957329286315305642004821462161904 */
    static const uint64_t sj[4] = {0x9bd61b6e725b19f0ULL, 0x402d111e41112ed4ULL,
                                   0x00e0a7eb8ef62abcULL, 0x2a3c09f0a58a7e85ULL};
    g16_fr want;
    CHECK(g16_fr_from_canonical(&want, sj) == G16_OK, "%s", "root constant");
    g16_fr_root_of_unity(&w, 28);
    CHECK(g16_fr_eq(&w, &want), "2^28-th root of unity differs from snarkjs's");
    const uint64_t coset_gen = 5;
#else
    /* zkcrypto bls12_381 scalar.rs ROOT_OF_UNITY (Montgomery form, R = 2^256):
     * 7^((r-1)/2^32); our Montgomery form uses the same R, so limbs compare directly */
    static const g16_fr zk = {{0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL,
                               0x5bf3adda19e9b27bULL}};
    g16_fr_root_of_unity(&w, 32);
    CHECK(g16_fr_eq(&w, &zk), "2^32-th root of unity differs from zkcrypto's");
    const uint64_t coset_gen = 7;
#endif
    for (int k = 0; k <= G16_NTT_MAX_LOG; k++) {
        g16_fr_root_of_unity(&w, k);
        g16_fr t = w;
        for (int i = 0; i < k; i++) g16_fr_sqr(&t, &t);
        CHECK(g16_fr_is_one(&t), "ω_{2^%d}^(2^%d) != 1", k, k);
        if (k > 0) {
            t = w;
            for (int i = 0; i + 1 < k; i++) g16_fr_sqr(&t, &t);
            g16_fr m1;
            g16_fr_neg(&m1, &g16_fr_one_mont);
            CHECK(g16_fr_eq(&t, &m1), "ω_{2^%d}^(2^%d) != -1: order too small", k, k - 1);
        }
    }
    const g16_domain *d;
    CHECK(g16_domain_get(&d, G16_NTT_MAX_LOG + 1) == G16_ERR_ARG, "domain 2^29 refused");
    CHECK(g16_domain_get(&d, -1) == G16_ERR_ARG, "domain 2^-1 refused");
    const g16_domain *d1, *d2;
    CHECK(g16_domain_get(&d1, 5) == G16_OK && g16_domain_get(&d2, 5) == G16_OK && d1 == d2,
          "domains are cached");
    g16_fr t;
    g16_fr_mul(&t, &d1->g, &d1->g_inv);
    CHECK(g16_fr_is_one(&t), "g·g^-1 != 1");
    g16_fr gen;
    g16_fr_from_u64(&gen, coset_gen);
    CHECK(g16_fr_eq(&d1->g, &gen), "coset generator is not %d", (int)coset_gen);
}

typedef void (*xform)(const g16_domain *, g16_fr *);

static void test_dft(int log_n)
{
    const g16_domain *d;
    if (g16_domain_get(&d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    size_t n = d->n, at = 0;
    g16_fr *c = malloc(n * sizeof *c), *v = malloc(n * sizeof *v), *vc = malloc(n * sizeof *vc);
    g16_fr *ci = malloc(n * sizeof *ci), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &c[i]);
    dft(v, c, n, &d->omega, NULL);       /* values on H */
    dft(vc, c, n, &d->omega, &d->g);     /* values on g·H */
    g16_fr ninv;
    g16_fr_from_u64(&ninv, n);
    g16_fr_inv(&ninv, &ninv);
    dft(ci, v, n, &d->omega_inv, NULL);  /* inverse DFT of v, times n */
    for (size_t i = 0; i < n; i++) g16_fr_mul(&ci[i], &ci[i], &ninv);
    CHECK(same(ci, c, n, &at), "2^%d: textbook inverse DFT is not the inverse (at %zu)", log_n, at);

    memcpy(x, c, n * sizeof *x);
    g16_ntt_forward_nn(d, x);
    CHECK(same(x, v, n, &at), "2^%d forward_nn != DFT at %zu", log_n, at);
    memcpy(x, c, n * sizeof *x);
    g16_ntt_forward_nr(d, x);
    permute(y, v, log_n);
    CHECK(same(x, y, n, &at), "2^%d forward_nr != bit-reversed DFT at %zu", log_n, at);
    permute(x, c, log_n);
    g16_ntt_forward_rn(d, x);
    CHECK(same(x, v, n, &at), "2^%d forward_rn != DFT at %zu", log_n, at);

    memcpy(x, v, n * sizeof *x);
    g16_ntt_inverse_nn(d, x);
    CHECK(same(x, c, n, &at), "2^%d inverse_nn != coefficients at %zu", log_n, at);
    permute(x, v, log_n);
    g16_ntt_inverse_rn(d, x);
    CHECK(same(x, c, n, &at), "2^%d inverse_rn != coefficients at %zu", log_n, at);
    memcpy(x, v, n * sizeof *x);
    g16_ntt_inverse_nr(d, x);
    permute(y, c, log_n);
    CHECK(same(x, y, n, &at), "2^%d inverse_nr != bit-reversed coefficients at %zu", log_n, at);

    memcpy(x, c, n * sizeof *x);
    g16_ntt_coset_forward_nn(d, x);
    CHECK(same(x, vc, n, &at), "2^%d coset_forward_nn != evaluation on g·H at %zu", log_n, at);
    memcpy(x, c, n * sizeof *x);
    g16_ntt_coset_forward_nr(d, x);
    permute(y, vc, log_n);
    CHECK(same(x, y, n, &at), "2^%d coset_forward_nr != bit-reversed evaluation at %zu", log_n, at);
    permute(x, vc, log_n);
    g16_ntt_coset_inverse_rn(d, x);
    CHECK(same(x, c, n, &at), "2^%d coset_inverse_rn != coefficients at %zu", log_n, at);
    memcpy(x, vc, n * sizeof *x);
    g16_ntt_coset_inverse_nn(d, x);
    CHECK(same(x, c, n, &at), "2^%d coset_inverse_nn != coefficients at %zu", log_n, at);

    memcpy(x, c, n * sizeof *x);
    g16_ntt_bit_reverse(d, x);
    permute(y, c, log_n);
    CHECK(same(x, y, n, &at), "2^%d bit_reverse wrong at %zu", log_n, at);
    free(c), free(v), free(vc), free(ci), free(x), free(y);
}

/* Round trips in every order, with no reordering pass between the two halves. */
static void test_round_trips(int log_n)
{
    const g16_domain *d;
    if (g16_domain_get(&d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    size_t n = d->n, at = 0;
    g16_fr *c = malloc(n * sizeof *c), *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &c[i]);
    static const struct { xform f, g; const char *name; } pairs[] = {
        {g16_ntt_forward_nr, g16_ntt_inverse_rn, "forward_nr/inverse_rn"},
        {g16_ntt_inverse_nr, g16_ntt_forward_rn, "inverse_nr/forward_rn"},
        {g16_ntt_forward_rn, g16_ntt_inverse_nr, "forward_rn/inverse_nr"},
        {g16_ntt_forward_nn, g16_ntt_inverse_nn, "forward_nn/inverse_nn"},
        {g16_ntt_coset_forward_nr, g16_ntt_coset_inverse_rn, "coset_forward_nr/coset_inverse_rn"},
        {g16_ntt_coset_forward_nn, g16_ntt_coset_inverse_nn, "coset_forward_nn/coset_inverse_nn"},
    };
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
        memcpy(x, c, n * sizeof *x);
        pairs[p].f(d, x);
        pairs[p].g(d, x);
        CHECK(same(x, c, n, &at), "2^%d %s round trip differs at %zu", log_n, pairs[p].name, at);
    }
    /* a transform that did nothing would pass the round trips: the forward
     * transform of a nonzero constant is a single spike */
    for (size_t i = 0; i < n; i++) x[i] = c[0];
    g16_ntt_inverse_nn(d, x);
    int spike = g16_fr_eq(&x[0], &c[0]);
    for (size_t i = 1; i < n; i++) spike &= g16_fr_is_zero(&x[i]);
    CHECK(spike, "2^%d: inverse of a constant is not a spike", log_n);
    free(c), free(x);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x6e7474));
    test_roots();
    /* small blocks make even these sizes run the outer (radix-2 and radix-4)
     * passes with fused scaling; the default block size is checked too */
    int saved = g16_ntt_block_log;
    int blocks[] = {1, 2, 3, saved};
    unsigned threads[] = {1, 3, 2, 2};
    for (int t = 0; t < 4; t++) {
        g16_ntt_domain_cache_clear();
        g16_ntt_block_log = blocks[t];
        g16_set_threads(threads[t]);
        for (int k = 0; k <= 9; k++) test_dft(k);
        for (int k = 0; k <= 12; k++) test_round_trips(k);
    }
    g16_ntt_domain_cache_clear();
    g16_ntt_block_log = saved;
    g16_set_threads(0);
    return g16_test_finish("test_ntt_dft");
}
