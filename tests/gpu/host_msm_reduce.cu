// The device MSM's bucket reduction (src/backend/cuda/msm_reduce.cuh) run on the
// HOST, step by step as the kernels cut it (segments of L buckets, chunks of q
// segments, the chunks summed), against Σ (b + 1)·k_b·G computed by the CPU curve
// code, for buckets S_b = k_b·G.  Segment and chunk counts that do not divide
// evenly, one segment, empty buckets and equal neighbours (doublings in the
// running sums) are among the cases.
#include <stdio.h>
#include <string.h>

#include "backend/cuda/msm_reduce.cuh"

extern "C" {
#include "curve/curve.h"
#include "check.h"
}

typedef g16_dxyzz<g16_dfp> X;

static X to_dev(const g16_g1_jac *p)
{
    g16_g1_xyzz x;
    g16_g1_jac_to_xyzz(&x, p);
    X d;
    static_assert(sizeof d == sizeof x, "layout");
    memcpy(&d, &x, sizeof d);
    return d;
}

// One window of B buckets reduced with segments of L and chunks of q segments.
static void check_window(g16_rng *rng, uint32_t B, uint32_t L, uint32_t q, int pattern)
{
    g16_g1_jac g;
    g16_g1_jac_generator(&g);
    X *bk = new X[B];
    uint64_t total = 0;
    for (uint32_t b = 0; b < B; b++) {
        uint64_t k = g16_rng_u64(rng) % 1000;
        if (pattern == 1 && b % 3 == 0) k = 0;                 // empty buckets
        if (pattern == 2 && b > 0 && b % 2 == 1) k = 0;        // every other one empty
        if (pattern == 3) k = 7;                                // all equal
        uint64_t kk[4] = {k, 0, 0, 0};
        g16_g1_jac p;
        g16_g1_mul(&p, &g, kk);
        bk[b] = to_dev(&p);
        total += (b + 1) * k;
    }
    const uint32_t S = B / L, nt = (S + q - 1) / q;
    unsigned lg_l = 0;
    while ((1u << lg_l) < L) lg_l++;
    X *sacc = new X[S], *srun = new X[S];
    for (uint32_t j = 0; j < S; j++) msm_seg_sums<g16_dfp>(&sacc[j], &srun[j], bk + (size_t)j * L, L);
    X sum = X::inf();
    for (uint32_t u = 0; u < nt; u++) {
        uint32_t j0 = u * q, j1 = j0 + q < S ? j0 + q : S;
        sum = padd<g16_dfp>(sum, msm_seg_combine<g16_dfp>(sacc, srun, j0, j1, lg_l));
    }
    uint64_t kt[4] = {total, 0, 0, 0};
    g16_g1_jac want, got;
    g16_g1_mul(&want, &g, kt);
    g16_djac<g16_dfp> gj = sum.to_jac();
    memcpy(&got, &gj, sizeof got);
    CHECK(g16_g1_jac_eq(&want, &got), "reduction of %u buckets (L = %u, q = %u, pattern %d) != %llu G", B, L,
          q, pattern, (unsigned long long)total);
    delete[] bk;
    delete[] sacc;
    delete[] srun;
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, 6);
    // B, L, q: chunks that divide S and chunks that do not, one segment (S = 1), one
    // chunk, one segment per chunk, and L = 1.
    static const uint32_t cases[][3] = {{64, 8, 3},  {64, 8, 16}, {32, 32, 16}, {128, 4, 5},
                                        {128, 16, 1}, {16, 1, 4},  {256, 2, 7},  {512, 32, 16}};
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int pattern = 0; pattern < 4; pattern++)
            check_window(&rng, cases[i][0], cases[i][1], cases[i][2], pattern);
    return g16_test_finish("test_cuda_host_msm_reduce");
}
