/* Backends by curve: a table computes over one curve's types, so a BN254 proof (a
 * bn128 zkey) needs the BN254 compile of the backend sources
 * (src/bn254/backend_sources.txt, docs/curve.md).  Not in that list itself: it is
 * the one place that names both compiles. */
#include "backend/backend.h"
#include "common/error.h"

#if G16_WITH_BN254_BACKEND
g16_status g16_bn254_backend_open(g16_backend **out, g16_backend_kind kind, int device);
#endif

g16_status g16_backend_open_curve(g16_backend **out, g16_curve_id curve, g16_backend_kind kind,
                                  int device)
{
    *out = NULL;
    switch (curve) {
    case G16_CURVE_ID_BLS12_381:
        return g16_backend_open(out, kind, device);
    case G16_CURVE_ID_BN254:
#if G16_WITH_BN254_BACKEND
        return g16_bn254_backend_open(out, kind, device);
#else
        return g16_fail(G16_ERR_BACKEND, "backend: this build has no BN254 backends (configured with "
                                         "G16_BN254_SNARKJS=OFF)");
#endif
    }
    return g16_fail(G16_ERR_ARG, "backend: unknown curve %d", (int)curve);
}

g16_curve_id g16_backend_curve(const g16_backend *be)
{
    return be ? (g16_curve_id)g16_backend_curve_of(be) : G16_CURVE_ID_BLS12_381;
}
