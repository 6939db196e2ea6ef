/* Curve names for the run-time choice of curve (g16_curve_id in g16.h). */
#include <string.h>

#include "common/error.h"
#include "g16.h"

const char *g16_curve_name(g16_curve_id c)
{
    switch (c) {
    case G16_CURVE_ID_BLS12_381: return "bls12-381";
    case G16_CURVE_ID_BN254: return "bn254";
    }
    return "?";
}

g16_status g16_curve_parse(const char *name, g16_curve_id *out)
{
    static const struct { const char *name; g16_curve_id id; } names[] = {
        {"bls12-381", G16_CURVE_ID_BLS12_381}, {"bls12_381", G16_CURVE_ID_BLS12_381},
        {"bls12381", G16_CURVE_ID_BLS12_381},  {"bn254", G16_CURVE_ID_BN254},
        {"bn128", G16_CURVE_ID_BN254},         {"alt_bn128", G16_CURVE_ID_BN254},
    };
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++) {
        if (!strcmp(name, names[i].name)) {
            *out = names[i].id;
            return G16_OK;
        }
    }
    return g16_fail(G16_ERR_ARG, "unknown curve '%s' (expected bls12-381 or bn254; bn128 and "
                    "alt_bn128 are names of bn254)", name ? name : "(null)");
}
