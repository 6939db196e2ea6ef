/* G2 instance of the Pippenger template (msm_impl.h). */
#include "curve/point.h"

#define MSM_G g2
#define MSM_F fp2
#define MSM_FE g16_fp2
#define MSM_AFF g16_g2_affine
#define MSM_JAC g16_g2_jac
#define MSM_XYZZ g16_g2_xyzz
#define MSM_GROUP 2
#include "msm/msm_impl.h"
