/* Differential: the AVX-512 IFMA batch products (g16_fp_mul_n / _s / sqr_n) against
 * g16_fp_mul one at a time.  Input: up to 20 pairs of Fp elements (big-endian,
 * reduced like fuzz_field_diff); a flag byte per pair adds p to an input, since
 * the batch contract takes lazy values below 2p.  Sizes 1-20 cover whole and
 * partial 8-lane vectors.  Without IFMA the batch calls run their scalar loop and
 * the harness says so once on stderr. */
#include <string.h>

#include "field/fp.h"
#include "field/fp_batch.h"
#include "fuzz_util.h"

#define MAXN 20
#define REC (1 + 2 * G16_FP_BYTES)

static void get_fp(g16_fp *r, const uint8_t in[G16_FP_BYTES])
{
    uint8_t b[G16_FP_BYTES];
    memcpy(b, in, sizeof b);
    if (g16_fp_from_be(r, b) != G16_OK) {
        b[0] &= 0x0f;
        FUZZ_CHECK(g16_fp_from_be(r, b) == G16_OK, "masked Fp refused");
    }
}

/* r = a + p in raw limbs (a < p, so the sum is < 2p < 2^384): the same residue, unreduced */
static void add_p(g16_fp *r)
{
    unsigned __int128 c = 0;
    for (int i = 0; i < G16_FP_LIMBS; i++) {
        c += (unsigned __int128)r->l[i] + g16_fp_modulus[i];
        r->l[i] = (uint64_t)c;
        c >>= 64;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int said;
    if (!said) {
        said = 1;
        if (!g16_cpu_can_ifma())
            fprintf(stderr, "fuzz-ifma_diff: no AVX-512 IFMA on this CPU: the scalar batch loop is checked\n");
    }
    size_t n = size / REC;
    if (n == 0) return 0;
    if (n > MAXN) n = MAXN;
    g16_fp a[MAXN], b[MAXN], lazy_a[MAXN], lazy_b[MAXN], want[MAXN], sq[MAXN], got[MAXN];
    for (size_t i = 0; i < n; i++) {
        const uint8_t *d = data + i * REC;
        get_fp(&a[i], d + 1);
        get_fp(&b[i], d + 1 + G16_FP_BYTES);
        lazy_a[i] = a[i];
        lazy_b[i] = b[i];
        if (d[0] & 1) add_p(&lazy_a[i]);
        if (d[0] & 2) add_p(&lazy_b[i]);
        g16_fp_mul(&want[i], &a[i], &b[i]);
        g16_fp_sqr(&sq[i], &a[i]);
    }
    g16_fp_mul_n(got, lazy_a, lazy_b, n);
    for (size_t i = 0; i < n; i++) FUZZ_CHECK(!memcmp(&got[i], &want[i], sizeof(g16_fp)), "mul_n lane %zu of %zu", i, n);
    g16_fp_sqr_n(got, lazy_a, n);
    for (size_t i = 0; i < n; i++) FUZZ_CHECK(!memcmp(&got[i], &sq[i], sizeof(g16_fp)), "sqr_n lane %zu of %zu", i, n);
    /* strided, in place: r == a element for element (an Fp2-like interleaving of stride 2) */
    g16_fp inter[2 * MAXN];
    for (size_t i = 0; i < n; i++) { inter[2 * i] = lazy_a[i]; inter[2 * i + 1] = lazy_b[i]; }
    g16_fp_mul_s(inter, 2, inter, 2, inter + 1, 2, n);
    for (size_t i = 0; i < n; i++) FUZZ_CHECK(!memcmp(&inter[2 * i], &want[i], sizeof(g16_fp)), "mul_s lane %zu of %zu", i, n);
    return 0;
}
