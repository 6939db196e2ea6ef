/* NTT at large sizes (2^16..2^20): transform values checked against Horner
 * evaluation of the coefficient vector at a few points ω^i and g·ω^i, round
 * trips, several threads at once on separate arrays, and the Groth16 H step
 * checked at a random point with barycentric evaluation (no NTT involved). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "common/pool.h"
#include "ntt/ntt.h"

/* Unoptimised sanitizer builds are ~10x slower: they run the same checks with the
 * largest sizes capped, so that the whole unit suite stays within seconds. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
#define BIG 17
#else
#define BIG 20
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static g16_rng rng;

static size_t rev(size_t i, int bits)
{
    size_t r = 0;
    for (int b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
}

static void horner(g16_fr *out, const g16_fr *c, size_t n, const g16_fr *x)
{
    g16_fr acc;
    g16_fr_set_zero(&acc);
    for (size_t i = n; i-- > 0;) {
        g16_fr_mul(&acc, &acc, x);
        g16_fr_add(&acc, &acc, &c[i]);
    }
    *out = acc;
}

static void pow_u64(g16_fr *r, const g16_fr *a, uint64_t e) { g16_fr_pow(r, a, &e, 1); }

/* forward_nr (or coset_forward_nr) of random coefficients, checked at `points` indices */
static void test_eval(int log_n, int coset, int points)
{
    const g16_domain *d;
    if (g16_domain_get(&d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    size_t n = d->n;
    g16_fr *c = malloc(n * sizeof *c), *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &c[i]);
    memcpy(v, c, n * sizeof *v);
    if (coset)
        g16_ntt_coset_forward_nr(d, v);
    else
        g16_ntt_forward_nr(d, v);
    for (int k = 0; k < points; k++) {
        /* the ends, the middle, and random indices */
        size_t i = k == 0 ? 0 : k == 1 ? n - 1 : k == 2 ? n / 2 : g16_rng_u64(&rng) % n;
        g16_fr x, want;
        pow_u64(&x, &d->omega, i);
        if (coset) g16_fr_mul(&x, &x, &d->g);
        horner(&want, c, n, &x);
        CHECK(g16_fr_eq(&v[rev(i, log_n)], &want), "2^%d %s: value %zu differs from Horner", log_n,
              coset ? "coset_forward_nr" : "forward_nr", i);
    }
    free(c);
    free(v);
}

static void test_round_trip(int log_n)
{
    const g16_domain *d;
    if (g16_domain_get(&d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    size_t n = d->n;
    g16_fr *c = malloc(n * sizeof *c), *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &c[i]);
    memcpy(v, c, n * sizeof *v);
    g16_ntt_forward_nr(d, v);
    CHECK(memcmp(v, c, n * sizeof *v) != 0, "2^%d forward changed nothing", log_n);
    g16_ntt_inverse_rn(d, v);
    CHECK(memcmp(v, c, n * sizeof *v) == 0, "2^%d forward_nr/inverse_rn round trip", log_n);
    g16_ntt_coset_forward_nr(d, v);
    g16_ntt_coset_inverse_rn(d, v);
    CHECK(memcmp(v, c, n * sizeof *v) == 0, "2^%d coset round trip", log_n);
    g16_ntt_inverse_nr(d, v);
    g16_ntt_forward_rn(d, v);
    CHECK(memcmp(v, c, n * sizeof *v) == 0, "2^%d inverse_nr/forward_rn round trip", log_n);
    free(c);
    free(v);
}

/* Several threads transform their own arrays at once on the shared pool and domain. */
typedef struct conc_arg {
    int log_n;
    uint64_t seed;
    int ok;
} conc_arg;

static void *conc_main(void *p)
{
    conc_arg *a = p;
    const g16_domain *d;
    a->ok = 0;
    if (g16_domain_get(&d, a->log_n) != G16_OK) return NULL;
    g16_rng r;
    g16_rng_seed(&r, a->seed);
    g16_fr *c = malloc(d->n * sizeof *c), *v = malloc(d->n * sizeof *v);
    for (size_t i = 0; i < d->n; i++) g16_test_rand_fr(&r, &c[i]);
    memcpy(v, c, d->n * sizeof *v);
    g16_ntt_coset_forward_nr(d, v);
    /* one spot check keeps this honest without Horner on every thread */
    g16_fr x = d->g, want;
    horner(&want, c, d->n, &x);
    int ok = g16_fr_eq(&v[0], &want);
    g16_ntt_coset_inverse_rn(d, v);
    a->ok = ok && memcmp(v, c, d->n * sizeof *v) == 0;
    free(c);
    free(v);
    return NULL;
}

static void test_concurrent(void)
{
    enum { T = 3 };
    pthread_t th[T];
    conc_arg args[T];
    for (int t = 0; t < T; t++) {
        args[t] = (conc_arg){13 + t, 1000 + (uint64_t)t, 0};
        pthread_create(&th[t], NULL, conc_main, &args[t]);
    }
    for (int t = 0; t < T; t++) {
        pthread_join(th[t], NULL);
        CHECK(args[t].ok, "concurrent transform of 2^%d on thread %d", args[t].log_n, t);
    }
}

/* Transforms called from inside pool callbacks run inline on the calling
 * thread (pool.h): each task round-trips its own vector and spot-checks it. */
typedef struct nested_ctx {
    g16_fr *v[4];
    const g16_fr *c[4];
    const g16_domain *d;
    int ok[4];
} nested_ctx;

static void nested_task(void *arg, size_t t, unsigned worker)
{
    nested_ctx *c = arg;
    g16_ntt_forward_nr(c->d, c->v[t]);
    g16_fr want, x = g16_fr_one_mont;
    horner(&want, c->c[t], c->d->n, &x); /* value at ω^0 sits at index 0 */
    int ok = g16_fr_eq(&c->v[t][0], &want);
    g16_ntt_inverse_rn(c->d, c->v[t]);
    c->ok[t] = ok && memcmp(c->v[t], c->c[t], c->d->n * sizeof(g16_fr)) == 0;
}

static void test_nested(int log_n)
{
    nested_ctx c;
    if (g16_domain_get(&c.d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    g16_fr *orig[4];
    for (int t = 0; t < 4; t++) {
        orig[t] = malloc(c.d->n * sizeof(g16_fr));
        c.v[t] = malloc(c.d->n * sizeof(g16_fr));
        for (size_t i = 0; i < c.d->n; i++) g16_test_rand_fr(&rng, &orig[t][i]);
        memcpy(c.v[t], orig[t], c.d->n * sizeof(g16_fr));
        c.c[t] = orig[t];
        c.ok[t] = 0;
    }
    g16_pool_tasks(NULL, 4, nested_task, &c);
    for (int t = 0; t < 4; t++) {
        CHECK(c.ok[t], "2^%d transform nested in pool task %d", log_n, t);
        free(orig[t]);
        free(c.v[t]);
    }
}

/* P(x) from its values on H by the barycentric formula:
 * P(x) = (x^n - 1)/n · sum_i v_i ω^i / (x - ω^i). */
static void bary(g16_fr *out, const g16_domain *d, const g16_fr *v, const g16_fr *x)
{
    /* all 1/(x - ω^i) with one inversion (Montgomery's trick) */
    size_t n = d->n;
    if (n == 0) return;
    g16_fr *den = malloc(n * sizeof *den), *pre = malloc(n * sizeof *pre);
    g16_fr acc, w = g16_fr_one_mont, t, inv;
    for (size_t i = 0; i < n; i++) {
        g16_fr_sub(&den[i], x, &w);
        pre[i] = i ? pre[i - 1] : g16_fr_one_mont;
        g16_fr_mul(&pre[i], &pre[i], &den[i]);
        g16_fr_mul(&w, &w, &d->omega);
    }
    g16_fr_inv(&inv, &pre[n - 1]); /* n >= 1 */
    for (size_t i = n; i-- > 0;) {
        g16_fr di = inv;
        if (i) g16_fr_mul(&di, &di, &pre[i - 1]);
        g16_fr_mul(&inv, &inv, &den[i]);
        den[i] = di;
    }
    g16_fr_set_zero(&acc);
    w = g16_fr_one_mont;
    for (size_t i = 0; i < n; i++) {
        g16_fr_mul(&t, &v[i], &w);
        g16_fr_mul(&t, &t, &den[i]);
        g16_fr_add(&acc, &acc, &t);
        g16_fr_mul(&w, &w, &d->omega);
    }
    pow_u64(&t, x, n);
    g16_fr_sub(&t, &t, &g16_fr_one_mont);
    g16_fr_mul(&acc, &acc, &t);
    g16_fr_mul(out, &acc, &d->n_inv);
    free(den);
    free(pre);
}

static void test_h_step(int log_n, int bitrev_in, int broken)
{
    const g16_domain *d;
    if (g16_domain_get(&d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    size_t n = d->n;
    g16_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    g16_fr *a0 = malloc(n * sizeof *a0), *b0 = malloc(n * sizeof *b0), *c0 = malloc(n * sizeof *c0);
    /* a valid witness: c = a·b on every point of H.  When `broken`, one point
     * is off by one: Z_H no longer divides A·B - C and the identity must fail,
     * which shows the check below can fail. */
    for (size_t i = 0; i < n; i++) {
        g16_test_rand_fr(&rng, &a0[i]);
        g16_test_rand_fr(&rng, &b0[i]);
        g16_fr_mul(&c0[i], &a0[i], &b0[i]);
    }
    if (broken) g16_fr_add(&c0[n / 2], &c0[n / 2], &g16_fr_one_mont);
    for (size_t i = 0; i < n; i++) {
        size_t j = bitrev_in ? rev(i, log_n) : i;
        a[j] = a0[i], b[j] = b0[i], c[j] = c0[i];
    }
    CHECK(g16_ntt_h_step(d, a, b, c, bitrev_in) == G16_OK, "h_step 2^%d", log_n);
    g16_fr x, pa, pb, pc, ph, z, lhs, rhs;
    g16_test_rand_fr(&rng, &x);
    bary(&pa, d, a0, &x);
    bary(&pb, d, b0, &x);
    bary(&pc, d, c0, &x);
    horner(&ph, a, n, &x);
    pow_u64(&z, &x, n);
    g16_fr_sub(&z, &z, &g16_fr_one_mont);
    g16_fr_mul(&lhs, &pa, &pb);
    g16_fr_sub(&lhs, &lhs, &pc);
    g16_fr_mul(&rhs, &ph, &z);
    if (broken) {
        CHECK(!g16_fr_eq(&lhs, &rhs), "2^%d h_step: identity holds for a broken witness", log_n);
    } else {
        CHECK(g16_fr_eq(&lhs, &rhs), "2^%d h_step (bitrev_in %d): A·B - C != h·Z at a random point",
              log_n, bitrev_in);
        /* deg(A·B - C) <= 2n - 2, so deg h <= n - 2 */
        CHECK(n < 2 || g16_fr_is_zero(&a[n - 1]), "2^%d h_step: h has degree n-1", log_n);
    }
    free(a), free(b), free(c), free(a0), free(b0), free(c0);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x6e74742));
    g16_set_threads(2);
    for (int k = 1; k <= 11; k += 5) {
        test_h_step(k, 0, 0);
        test_h_step(k, 1, 0);
    }
    test_h_step(13, 1, 0);
    test_h_step(8, 1, 1);
    test_eval(16, 0, 6);
    test_eval(16, 1, 6);
    test_eval(MIN(18, BIG), 0, 4);
    test_round_trip(MIN(18, BIG));
    test_eval(17, 1, 4);
    test_eval(BIG, 0, 3);
    test_round_trip(16);
    g16_set_threads(3);
    test_eval(MIN(17, BIG), 0, 3);
    test_round_trip(MIN(17, BIG) - 1);
    test_concurrent();
    test_nested(16);
    g16_set_threads(0);
    return g16_test_finish("test_ntt_large");
}
