/* `g16 bench field`: ns/op of the arithmetic core.  Each op runs as a dependent
 * chain (the output feeds the next input) so the figure is latency, the way the
 * curve and pairing code consume it; the reported value is the median over
 * repeated runs. */
#include <string.h>

#include "common/error.h"
#include "curve/curve.h"
#include "diag/timing.h"
#include "field/fp.h"
#include "field/fr.h"
#include "pairing/pairing.h"

typedef struct bench_state {
    g16_fp a, b;
    g16_fr fa, fb;
    g16_g1_jac j1, j2;
    g16_g1_affine a1;
    g16_g2_jac k1;
    g16_g2_affine a2;
    g16_g2_affine q2;
    g16_fp12 f;
    uint64_t scalar[4];
} bench_state;

typedef void (*bench_fn)(bench_state *s, uint64_t iters);

static void b_fp_mul(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_fp_mul(&s->a, &s->a, &s->b); }
static void b_fp_sqr(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_fp_sqr(&s->a, &s->a); }
static void b_fp_inv(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_fp_inv(&s->a, &s->a); }
static void b_fr_mul(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_fr_mul(&s->fa, &s->fa, &s->fb); }
static void b_g1_add(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_g1_jac_add(&s->j1, &s->j1, &s->j2); }
static void b_g1_dbl(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_g1_jac_dbl(&s->j1, &s->j1); }
static void b_g1_madd(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_g1_jac_add_affine(&s->j1, &s->j1, &s->a1); }
static void b_g2_madd(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_g2_jac_add_affine(&s->k1, &s->k1, &s->a2); }
static void b_g1_mul(bench_state *s, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        g16_g1_mul(&s->j1, &s->j1, s->scalar);
        s->scalar[0] ^= i;
    }
}
static void b_g2_mul(bench_state *s, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        g16_g2_mul(&s->k1, &s->k1, s->scalar);
        s->scalar[0] ^= i;
    }
}
static void b_miller(bench_state *s, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        g16_fp12 t;
        g16_miller_loop(&t, &s->a1, &s->q2, 1);
        g16_fp12_mul(&s->f, &s->f, &t);
    }
}
static void b_final_exp(bench_state *s, uint64_t n) { for (uint64_t i = 0; i < n; i++) g16_final_exp(&s->f, &s->f); }

static const struct {
    const char *op;
    bench_fn fn;
    uint64_t iters;
} ops[] = {
    {"fp_mul", b_fp_mul, 200000},     {"fp_sqr", b_fp_sqr, 200000},
    {"fp_inverse", b_fp_inv, 2000},   {"fr_mul", b_fr_mul, 400000},
    {"g1_add", b_g1_add, 40000},      {"g1_double", b_g1_dbl, 60000},
    {"g1_mixed_add", b_g1_madd, 50000}, {"g2_mixed_add", b_g2_madd, 20000},
    {"g1_scalar_mul", b_g1_mul, 200}, {"g2_scalar_mul", b_g2_mul, 80},
    {"miller_loop", b_miller, 60},    {"final_exponentiation", b_final_exp, 40},
};

static void init_state(bench_state *s)
{
    memset(s, 0, sizeof *s);
    g16_fp_from_u64(&s->a, 0x1234567);
    g16_fp_from_u64(&s->b, 0x89abcdef);
    g16_fp_inv(&s->b, &s->b); /* a full-width value */
    g16_fr_from_u64(&s->fa, 3);
    g16_fr_from_u64(&s->fb, 5);
    g16_fr_inv(&s->fb, &s->fb);
    s->scalar[0] = 0x9e3779b97f4a7c15ULL;
    s->scalar[1] = 0xbf58476d1ce4e5b9ULL;
    s->scalar[2] = 0x94d049bb133111ebULL;
    s->scalar[3] = 0x3c6ef372fe94f82bULL; /* 254 bits, below r */
    g16_g1_jac g;
    g16_g1_jac_generator(&g);
    g16_g1_mul(&s->j1, &g, s->scalar);
    g16_g1_jac_dbl(&s->j2, &s->j1);
    g16_g1_jac_add(&s->j2, &s->j2, &g);
    g16_g1_jac_to_affine(&s->a1, &s->j2);
    g16_g2_jac h, t;
    g16_g2_jac_generator(&h);
    g16_g2_mul(&s->k1, &h, s->scalar);
    g16_g2_jac_dbl(&t, &s->k1);
    g16_g2_jac_to_affine(&s->a2, &t);
    g16_g2_jac_to_affine(&s->q2, &s->k1);
    g16_fp12_set_one(&s->f);
    g16_miller_loop(&s->f, &s->a1, &s->q2, 1);
}

g16_status g16_bench_field(g16_bench_result *results, size_t cap, size_t *count, int quick)
{
    if (!count || (!results && cap)) return g16_fail(G16_ERR_ARG, "bench field: null argument");
    bench_state s;
    init_state(&s);
    const int runs = quick ? 3 : 9;
    size_t nops = sizeof ops / sizeof ops[0];
    for (size_t k = 0; k < nops; k++) {
        uint64_t iters = ops[k].iters / (quick ? 10 : 1);
        if (!iters) iters = 1;
        double t[9];
        ops[k].fn(&s, iters / 10 + 1); /* warm caches and clocks */
        for (int r = 0; r < runs; r++) {
            double t0 = g16_now_seconds();
            ops[k].fn(&s, iters);
            t[r] = g16_now_seconds() - t0;
        }
        if (k < cap) {
            results[k].op = ops[k].op;
            results[k].ns = g16_median(t, (size_t)runs) * 1e9 / (double)iters;
            results[k].iters = iters;
        }
    }
    /* Keep the chains observable so the compiler cannot drop them. */
    volatile uint64_t sink = s.a.l[0] ^ s.fa.l[0] ^ s.j1.x.l[0] ^ s.k1.x.c0.l[0] ^ s.f.c0.c0.c0.l[0];
    (void)sink;
    *count = nops;
    return G16_OK;
}
