/* Differential: the mulx/adcx/adox assembly against the portable C core, for Fp
 * and Fr add, sub, mul and sqr on the same reduced inputs (same limbs expected).
 * Input: 2 Fp and 2 Fr elements, big-endian; values >= the modulus have their top
 * bits cleared, so edge values near the modulus are still reachable as themselves.
 * On a CPU without BMI2/ADX only the portable path runs (said once on stderr). */
#include <string.h>

#include "field/cpu.h"
#include "field/fp.h"
#include "field/fr.h"
#include "fuzz_util.h"

#define DIFF(F, T)                                                                               \
    static void diff_##F(const T *a, const T *b)                                                 \
    {                                                                                            \
        T r[2][4];                                                                               \
        for (int path = 0; path < 2; path++) {                                                   \
            g16_field_force_portable(path);                                                      \
            g16_##F##_add(&r[path][0], a, b);                                                    \
            g16_##F##_sub(&r[path][1], a, b);                                                    \
            g16_##F##_mul(&r[path][2], a, b);                                                    \
            g16_##F##_sqr(&r[path][3], a);                                                       \
        }                                                                                        \
        g16_field_force_portable(0);                                                             \
        static const char *op[4] = {"add", "sub", "mul", "sqr"};                                 \
        for (int i = 0; i < 4; i++)                                                              \
            FUZZ_CHECK(!memcmp(&r[0][i], &r[1][i], sizeof(T)), #F " %s: mulx and portable differ", op[i]); \
        T s;                                                                                     \
        g16_##F##_mul(&s, a, a); /* sqr is mul by itself on either path */                      \
        FUZZ_CHECK(!memcmp(&s, &r[0][3], sizeof(T)), #F " sqr differs from mul");                \
    }
DIFF(fp, g16_fp)
DIFF(fr, g16_fr)

static void get_fp(g16_fp *r, const uint8_t in[G16_FP_BYTES])
{
    uint8_t b[G16_FP_BYTES];
    memcpy(b, in, sizeof b);
    if (g16_fp_from_be(r, b) != G16_OK) {
        b[0] &= 0x0f; /* < 2^380 < p */
        FUZZ_CHECK(g16_fp_from_be(r, b) == G16_OK, "masked Fp refused");
    }
}

static void get_fr(g16_fr *r, const uint8_t in[G16_FR_BYTES])
{
    uint8_t b[G16_FR_BYTES];
    memcpy(b, in, sizeof b);
    if (g16_fr_from_be(r, b) != G16_OK) {
        b[0] &= 0x3f; /* < 2^254 < r */
        FUZZ_CHECK(g16_fr_from_be(r, b) == G16_OK, "masked Fr refused");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int said;
    if (!said) {
        said = 1;
        if (!g16_cpu_can_mulx())
            fprintf(stderr, "fuzz-field_diff: no mulx path on this build/CPU: portable against itself\n");
    }
    if (size < 2 * G16_FP_BYTES + 2 * G16_FR_BYTES) return 0;
    g16_fp a, b;
    g16_fr x, y;
    get_fp(&a, data);
    get_fp(&b, data + G16_FP_BYTES);
    get_fr(&x, data + 2 * G16_FP_BYTES);
    get_fr(&y, data + 2 * G16_FP_BYTES + G16_FR_BYTES);
    diff_fp(&a, &b);
    diff_fr(&x, &y);
    return 0;
}
