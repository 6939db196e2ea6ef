/* The MSM tests of test_msm_g1.c with the batched field products forced onto the
 * scalar path (field/fp_batch.h): on a CPU with AVX-512 IFMA the plain test runs
 * the vector batch loop, so this keeps the fallback, which CI machines without
 * IFMA use, checked against the naive sums here too. */
#include "field/fp_batch.h"

#define main msm_tests_main
#include "test_msm_g1.c"
#undef main

int main(void)
{
    g16_fp_batch_force_scalar(1);
    return msm_tests_main();
}
