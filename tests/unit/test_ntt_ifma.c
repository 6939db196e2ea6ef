/* The NTT's 8-lane IFMA passes (ntt/ntt_ifma.c) against its scalar butterflies: every
 * transform of ntt.h, the H step and its pointwise part, sizes 2^1..2^MAXLOG, block sizes
 * 2^3..2^6 and the default (so the vector path meets outer radix-2 and radix-4 passes, fused scaling, the
 * in-block stages and the scalar small stages beside it), random inputs with 0, 1 and
 * r − 1 sprinkled in; results must be equal bit for bit.  Also r in radix 2^52 (the
 * vectors' modulus) against g16_fr_modulus.  On a CPU without IFMA both sides run the
 * scalar code: the test says so and checks only that the path switch holds. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "field/fp_batch.h"
#include "ntt/ntt.h"
#include "ntt/ntt_internal.h"
#define G16_IFMA_FR 1
#include "field/fp_ifma.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__OPTIMIZE__)
#define MAXLOG 13
#else
#define MAXLOG 16
#endif

static g16_rng rng;

static void fill(g16_fr *v, size_t n) { g16_test_fill_fr_edges(&rng, v, n, 16); }

typedef void (*xform)(const g16_domain *, g16_fr *);
static const struct {
    const char *name;
    xform f;
} xforms[] = {
    {"forward_nr", g16_ntt_forward_nr},           {"forward_rn", g16_ntt_forward_rn},
    {"forward_nn", g16_ntt_forward_nn},           {"inverse_nr", g16_ntt_inverse_nr},
    {"inverse_rn", g16_ntt_inverse_rn},           {"inverse_nn", g16_ntt_inverse_nn},
    {"coset_forward_nr", g16_ntt_coset_forward_nr}, {"coset_forward_nn", g16_ntt_coset_forward_nn},
    {"coset_inverse_rn", g16_ntt_coset_inverse_rn}, {"coset_inverse_nn", g16_ntt_coset_inverse_nn},
};

/* every transform and the H step on both paths, from copies of one input */
static void compare(int block_log, int log_n, int can)
{
    const g16_domain *d;
    if (g16_domain_get(&d, log_n) != G16_OK) {
        CHECK(0, "domain 2^%d: %s", log_n, g16_last_error());
        return;
    }
    size_t n = d->n;
    g16_fr *in = malloc(3 * n * sizeof *in), *x = malloc(3 * n * sizeof *x), *y = malloc(3 * n * sizeof *y);
    if (!in || !x || !y) {
        CHECK(0, "out of memory");
        free(in), free(x), free(y);
        return;
    }
    fill(in, 3 * n);
    for (size_t t = 0; t < sizeof xforms / sizeof xforms[0]; t++) {
        memcpy(x, in, n * sizeof *x);
        memcpy(y, in, n * sizeof *y);
        g16_fp_batch_force_scalar(0);
        CHECK(g16_use_ifma == can, "IFMA path on");
        xforms[t].f(d, x);
        g16_fp_batch_force_scalar(1);
        xforms[t].f(d, y);
        CHECK(!memcmp(x, y, n * sizeof *x), "%s, 2^%d, block 2^%d: the IFMA and scalar paths differ",
              xforms[t].name, log_n, block_log);
    }
    for (int br = 0; br < 2; br++) {
        memcpy(x, in, 3 * n * sizeof *x);
        memcpy(y, in, 3 * n * sizeof *y);
        g16_fp_batch_force_scalar(0);
        g16_status s1 = g16_ntt_h_step(d, x, x + n, x + 2 * n, br);
        g16_fp_batch_force_scalar(1);
        g16_status s2 = g16_ntt_h_step(d, y, y + n, y + 2 * n, br);
        CHECK(s1 == G16_OK && s2 == G16_OK, "h_step status");
        CHECK(!memcmp(x, y, n * sizeof *x), "h_step (bit-reversed in: %d), 2^%d, block 2^%d: paths differ", br,
              log_n, block_log);
    }
    /* the pointwise step alone, every combination of its optional operands */
    for (int m = 0; m < 8; m++) {
        const g16_fr *z = &in[2 * n + 1];
        memcpy(x, in, n * sizeof *x);
        memcpy(y, in, n * sizeof *y);
        for (int path = 0; path < 2; path++) {
            g16_fp_batch_force_scalar(path);
            g16_ntt_pointwise(path ? y : x, m & 1 ? in + n : NULL, m & 2 ? in + 2 * n : NULL, m & 4 ? z : NULL, n);
        }
        CHECK(!memcmp(x, y, n * sizeof *x), "pointwise (b %d, c %d, z %d), 2^%d: paths differ", m & 1, !!(m & 2),
              !!(m & 4), log_n);
    }
    g16_fp_batch_force_scalar(0);
    free(in), free(x), free(y);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x7e57));
    int can = g16_cpu_can_ifma();
    printf("ntt_ifma: this CPU %s AVX-512 IFMA%s\n", can ? "has" : "lacks",
           can ? "" : ": both sides run the scalar butterflies");
#ifdef G16_IFMA_BUILD
    /* r in radix 2^52 (the vector products' modulus) */
    CHECK(g16_test_limbs52_eq(g16_r52, FP_NL, g16_fr_modulus, G16_FR_LIMBS), "g16_r52 is not r");
#endif
    const int saved = g16_ntt_block_log, blocks[] = {3, 4, 5, 6, saved};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        g16_ntt_block_log = blocks[b];
        g16_ntt_domain_cache_clear();
        for (int log_n = 1; log_n <= MAXLOG; log_n++) compare(blocks[b], log_n, can);
    }
    g16_ntt_block_log = saved;
    g16_ntt_domain_cache_clear();
    return g16_test_finish("ntt_ifma");
}
