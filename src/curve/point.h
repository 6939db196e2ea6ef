/* Point types of G1 (over Fp) and G2 (over Fp2).
 *
 *  affine: (x, y); the point at infinity is (0, 0), which is never on the curve
 *          (0 ≠ 0³ + b), so no flag is needed and arrays of bases stay compact.
 *  jac:    Jacobian (X, Y, Z) = (X/Z², Y/Z³); Z = 0 at infinity.
 *  xyzz:   (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²; ZZ = 0 at infinity.
 *          Bucket form for Pippenger: mixed add 8M + 2S, no special case lost.
 * All coordinates are in Montgomery form (see field/fp.h). */
#ifndef G16_CURVE_POINT_H
#define G16_CURVE_POINT_H

#include "field/fp.h"
#include "field/fp2.h"

typedef struct g16_g1_affine { g16_fp x, y; } g16_g1_affine;
typedef struct g16_g1_jac { g16_fp x, y, z; } g16_g1_jac;
typedef struct g16_g1_xyzz { g16_fp x, y, zz, zzz; } g16_g1_xyzz;

typedef struct g16_g2_affine { g16_fp2 x, y; } g16_g2_affine;
typedef struct g16_g2_jac { g16_fp2 x, y, z; } g16_g2_jac;
typedef struct g16_g2_xyzz { g16_fp2 x, y, zz, zzz; } g16_g2_xyzz;

#endif
