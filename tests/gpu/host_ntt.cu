// Runs the NTT passes' exact schedule (ntt_step.cuh: pass plan, tiles, radix-2
// and radix-4 steps, twiddle indices) on the HOST, block by block and step by
// step as the kernel does, and compares with the CPU NTT (src/ntt/), so the
// index arithmetic is checked on machines without a GPU.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/ntt_step.cuh"

extern "C" {
#include "check.h"
#include "field/fr.h"
#include "ntt/ntt.h"
}

// One whole transform as ntt.cu's run_passes launches it.
static void emu_passes(g16_dfr *x, unsigned log_n, const g16_dfr *tw, bool dit, unsigned lgr,
                       unsigned high, unsigned low)
{
    const ntt_plan plan = ntt_make_plan(log_n, high, low);
    static g16_dfr s[NTT_TILE];
    for (unsigned i = 0; i < plan.np; i++) {
        unsigned p = dit ? i : plan.np - 1 - i, lo = plan.lo[p], k = plan.k[p], lc = plan.log_c[p];
        uint32_t C = 1u << lc, tile = 1u << (k + lc), nb_low = 1u << (lo - lc);
        size_t blocks = ((size_t)1 << log_n) / tile;
        for (size_t blk = 0; blk < blocks; blk++) {
            uint32_t lg = (uint32_t)(blk & (nb_low - 1)), hi = (uint32_t)(blk >> (lo - lc));
            size_t base = ((size_t)hi << (lo + k)) + (size_t)lg * C;
            for (uint32_t t = 0; t < tile; t++)
                s[t] = x[base + ((size_t)(t >> lc) << lo) + (t & (C - 1))];
            for (unsigned st = 0, n_steps = ntt_step_count(k, lgr); st < n_steps; st++) {
                unsigned stage, g;
                ntt_step_at(dit, lgr, k, st, &stage, &g);
                for (uint32_t u = 0, units = ntt_step_units(k, lc, g); u < units; u++) {
                    if (g == 3 && dit) ntt_step3<true>(s, tw, log_n, lo, lc, lg * C, stage, u);
                    else if (g == 3) ntt_step3<false>(s, tw, log_n, lo, lc, lg * C, stage, u);
                    else if (dit) ntt_step<true>(s, tw, log_n, lo, lc, lg * C, stage, g == 2, u);
                    else ntt_step<false>(s, tw, log_n, lo, lc, lg * C, stage, g == 2, u);
                }
            }
            for (uint32_t t = 0; t < tile; t++)
                x[base + ((size_t)(t >> lc) << lo) + (t & (C - 1))] = s[t];
        }
    }
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(7));
    for (unsigned log_n = 0; log_n <= 19; log_n++) {
        size_t n = (size_t)1 << log_n, m = n / 2 ? n / 2 : 1;
        const g16_domain *d;
        CHECK(g16_domain_get(&d, (int)log_n) == G16_OK, "domain 2^%u", log_n);
        g16_fr *x = (g16_fr *)malloc(n * sizeof *x), *want = (g16_fr *)malloc(n * sizeof *x);
        g16_fr *got = (g16_fr *)malloc(n * sizeof *x);
        g16_fr *tw = (g16_fr *)malloc(m * sizeof *tw), *twi = (g16_fr *)malloc(m * sizeof *tw);
        g16_fr w, wi;
        g16_fr_root_of_unity(&w, (int)log_n);
        g16_fr_inv(&wi, &w);
        g16_fr_set_one(&tw[0]);
        g16_fr_set_one(&twi[0]);
        for (size_t i = 1; i < m; i++) g16_fr_mul(&tw[i], &tw[i - 1], &w), g16_fr_mul(&twi[i], &twi[i - 1], &wi);
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            for (int k = 0; k < 4; k++) l[k] = g16_rng_u64(&rng);
            l[3] &= 0x3fffffffffffffffULL;
            g16_fr_from_canonical(&x[i], l);
        }
        g16_fr nf;
        g16_fr_from_u64(&nf, n);
        // radix 2, 4 and 8, upper passes of <= 8 and <= 9 stages (G16_CUDA_NTT_HIGH), a
        // low pass of 10 or 9 stages (G16_CUDA_NTT_LOW)
        for (int v = 0; v < 12; v++) {
            const unsigned lgr = 1 + v % 3, high = v % 6 < 3 ? 8 : 9, low = v < 6 ? 10 : 9;
            const int radix = 1 << lgr;
            if (high == 9 && ntt_make_plan(log_n, 9, low).np == ntt_make_plan(log_n, 8, low).np) continue;  // same plan
            if (low == 9 && log_n <= 9) continue;  // same plan as low 10
            // DIF: natural -> bit-reversed (CPU forward_nr)
            memcpy(want, x, n * sizeof *x);
            g16_ntt_forward_nr(d, want);
            memcpy(got, x, n * sizeof *x);
            emu_passes((g16_dfr *)got, log_n, (const g16_dfr *)tw, false, lgr, high, low);
            CHECK(memcmp(got, want, n * sizeof *x) == 0, "DIF 2^%u radix %d high %u low %u", log_n, radix, high, low);
            // DIT with ω^-1 brings it back to n·x (natural)
            emu_passes((g16_dfr *)got, log_n, (const g16_dfr *)twi, true, lgr, high, low);
            for (size_t i = 0; i < n; i++) g16_fr_mul(&want[i], &x[i], &nf);
            CHECK(memcmp(got, want, n * sizeof *x) == 0, "DIT round trip 2^%u radix %d", log_n, radix);
            // DIT: bit-reversed -> natural (CPU forward_rn)
            memcpy(want, x, n * sizeof *x);
            g16_ntt_forward_rn(d, want);
            memcpy(got, x, n * sizeof *x);
            emu_passes((g16_dfr *)got, log_n, (const g16_dfr *)tw, true, lgr, high, low);
            CHECK(memcmp(got, want, n * sizeof *x) == 0, "DIT 2^%u radix %d", log_n, radix);
        }
        free(x), free(want), free(got), free(tw), free(twi);
    }
    return g16_test_finish("host_ntt");
}
