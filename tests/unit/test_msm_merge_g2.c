/* The merged-MSM tests of test_msm_merge.c, run on G2. */
#define TG g2
#define TAFF g16_g2_affine
#define TJAC g16_g2_jac
#define TNAME "msm_merge_g2"
#include "test_msm_merge.c"
