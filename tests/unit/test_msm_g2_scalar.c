/* The G2 MSM tests (test_msm_g2.c) on the scalar batch path; see
 * test_msm_g1_scalar.c. */
#include "field/fp_batch.h"

#define main msm_tests_main
#include "test_msm_g2.c"
#undef main

int main(void)
{
    g16_fp_batch_force_scalar(1);
    return msm_tests_main();
}
