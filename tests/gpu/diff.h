/* The differential test's parts (g16_gpu_diff): diff.c has the driver, the field,
 * NTT and H-step sets and their CPU references; diff_msm.c the MSM sets (G1, folded
 * G1, G2, the H-query MSM, the rows < n H step and resident scalars, the H step's prefetched inputs). */
#ifndef G16_TESTS_GPU_DIFF_H
#define G16_TESTS_GPU_DIFF_H

#include <stddef.h>

#include "backend/cuda_ops.h"
#include "check.h"
#include "field/fr.h"

extern g16_rng diff_rng; /* seeded once by main */
void diff_rand_fr(g16_fr *r);
/* Index of the first element where a and b differ, n when none does. */
size_t diff_first_diff(const g16_fr *a, const g16_fr *b, size_t n);

void diff_test_msm_g1(g16_cuda_ctx *ctx, size_t max_n);
void diff_test_msm_g1_fold(g16_cuda_ctx *ctx, size_t max_n);
void diff_test_msm_g2(g16_cuda_ctx *ctx, size_t max_n);
void diff_test_msm_g2_edges(g16_cuda_ctx *ctx);
void diff_test_h_msm(g16_cuda_ctx *ctx);
void diff_test_rows_resident(g16_cuda_ctx *ctx);
void diff_test_z_split(g16_cuda_ctx *ctx);
void diff_test_h_prefetch(g16_cuda_ctx *ctx);

#endif
