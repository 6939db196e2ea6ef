/* Batched Fp multiplication (fp_batch.h) with AVX-512 IFMA.
 *
 * Why: the scalar mulx kernel needs ~98 cycles per product at throughput (its
 * 168 carry-flag instructions alone occupy two ports for ~84 cycles).  IFMA
 * (vpmadd52luq/huq) multiplies eight 52-bit limb pairs per instruction and
 * accumulates without carry flags, so eight independent products in a radix
 * 2^52 need ~270 multiply-adds for all eight (fp_ifma.h).  Elements come in and
 * go out in the library's 6×64-bit form: gathers and scatters with a 48-byte
 * stride do the transposition, shifts the re-radixing. */
#include "field/fp_batch.h"

#include <stdlib.h>
#include <string.h>

#include "field/cpu.h"

#include "field/fp_ifma.h"

#ifdef G16_IFMA_BUILD
#define HAVE_IFMA_BUILD 1

static IFMA void mul_n_ifma(g16_fp *r, size_t rs, const g16_fp *a, size_t as, const g16_fp *b, size_t bs,
                            size_t n)
{
    v8 x[2], y[2], o[2];
    const __m512i ir = offsets(rs), ia = offsets(as), ib = offsets(bs);
    size_t i = 0;
    int sq = b == a && bs == as;
    for (; i + 16 <= n; i += 16, a += 16 * as, b += 16 * bs, r += 16 * rs) {
        load8(&x[0], a, 0xff, ia);
        load8(&x[1], a + 8 * as, 0xff, ia);
        if (sq) {
            y[0] = x[0], y[1] = x[1];
        } else {
            load8(&y[0], b, 0xff, ib);
            load8(&y[1], b + 8 * bs, 0xff, ib);
        }
        mont8_2(o, x, y);
        store8(r, &o[0], 0xff, ir);
        store8(r + 8 * rs, &o[1], 0xff, ir);
    }
    for (; i < n; i += 8, a += 8 * as, b += 8 * bs, r += 8 * rs) {
        __mmask8 k = n - i >= 8 ? 0xff : (__mmask8)((1u << (n - i)) - 1);
        load8(&x[0], a, k, ia);
        load8(&y[0], b, k, ib);
        mont8_1(o, x, y);
        store8(r, &o[0], k, ir);
    }
}

static int probe(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl");
}
#else
static int probe(void) { return 0; }
#endif

int g16_use_ifma;

/* G16_NO_IFMA=1 (measurements only, docs/perf-notes.md): start on the scalar path,
 * so one binary gives both sides of an A/B comparison. */
__attribute__((constructor)) static void fp_ifma_init(void)
{
    const char *e = getenv("G16_NO_IFMA");
    g16_use_ifma = e && atoi(e) > 0 ? 0 : probe();
}

int g16_cpu_can_ifma(void) { return probe(); }

void g16_fp_batch_force_scalar(int on) { g16_use_ifma = on ? 0 : probe(); }

void g16_fp_mul_s(g16_fp *r, size_t rs, const g16_fp *a, size_t as, const g16_fp *b, size_t bs, size_t n)
{
#ifdef HAVE_IFMA_BUILD
    if (g16_use_ifma) {
        mul_n_ifma(r, rs, a, as, b, bs, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) g16_fp_mul(&r[i * rs], &a[i * as], &b[i * bs]);
}

void g16_fp_mul_n(g16_fp *r, const g16_fp *a, const g16_fp *b, size_t n) { g16_fp_mul_s(r, 1, a, 1, b, 1, n); }

void g16_fp_sqr_n(g16_fp *r, const g16_fp *a, size_t n)
{
#ifdef HAVE_IFMA_BUILD
    if (g16_use_ifma) {
        mul_n_ifma(r, 1, a, 1, a, 1, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) g16_fp_sqr(&r[i], &a[i]);
}
