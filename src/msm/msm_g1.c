/* G1 instance of the Pippenger template (msm_impl.h). */
#include "curve/point.h"

#define MSM_G g1
#define MSM_F fp
#define MSM_FE g16_fp
#define MSM_AFF g16_g1_affine
#define MSM_JAC g16_g1_jac
#define MSM_XYZZ g16_g1_xyzz
#define MSM_GROUP 1
#include "msm/msm_impl.h"
