/* The MSM tests of test_msm_g1.c, run on G2. */
#define TG g2
#define TF fp2
#define TAFF g16_g2_affine
#define TJAC g16_g2_jac
#define TNAME "msm_g2"
#define TDIV 4 /* G2 operations cost about 3x those of G1 */
#include "test_msm_g1.c"
