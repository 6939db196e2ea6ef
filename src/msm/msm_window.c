/* Choice of the Pippenger window and of the task split. */
#include "msm/msm_internal.h"

/* Relative costs, in units of one batch-affine bucket addition: a bucket of the
 * reduction costs two XYZZ additions (mixed + full, ~24 M against ~6.5 M).  The
 * numbers were fitted to the measurements in docs/msm.md. */
#define COST_REDUCE 2.0

static double plan_cost(unsigned c, unsigned threads, size_t m, unsigned bits, unsigned *parts_out)
{
    unsigned nw = msm_windows_b(c, bits), best = 1;
    double best_cost = 0, nb = (double)((size_t)1 << (c - 1));
    if (threads == 0) threads = 1;
    for (unsigned p = 1; p <= 64; p++) {
        if (p > 1 && m / p < ((size_t)1 << (c - 1))) break;
        unsigned tasks = nw * p, rounds = (tasks + threads - 1) / threads;
        double cost = rounds * ((double)m / p + COST_REDUCE * nb);
        if (p == 1 || cost < best_cost) {
            best_cost = cost;
            best = p;
        }
    }
    if (parts_out) *parts_out = best;
    return best_cost;
}

unsigned g16_msm_parts(unsigned c, unsigned threads, size_t m, unsigned bits)
{
    unsigned p;
    plan_cost(c, threads, m, bits, &p);
    return p;
}

unsigned g16_msm_window_for(size_t m, unsigned threads, int group)
{
    (void)group;
    return g16_msm_window_bits(m, threads, MSM_FULL_BITS);
}

unsigned g16_msm_window_bits(size_t m, unsigned threads, unsigned bits)
{
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= G16_MSM_MAX_WINDOW; c++) {
        double cost = plan_cost(c, threads, m, bits, NULL);
        if (c == 1 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

unsigned g16_msm_pick_window(size_t m, unsigned threads, int group)
{
    return g16_msm_window_for(m, threads, group);
}

size_t g16_msm_scratch_bytes(size_t n, int group)
{
    unsigned threads = g16_threads();
    unsigned c = g16_msm_window_for(n, threads, group);
    size_t chunk = n < G16_MSM_CHUNK ? n : G16_MSM_CHUNK;
    size_t aff = group == 2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine);
    size_t fe = aff / 2;
    /* per bucket: state, affine point, overflow index and the XYZZ overflow bucket
     * (two affine points' worth); per batch entry: the bucket, point and
     * sign lists (three), the denominators, products, lambdas and affine temporaries;
     * msm_impl.h caps the batch at 4096 (G16_MSM_BATCH, a tuning hook, aside) */
    size_t nb = ((size_t)1 << (c - 1)) + 1, batch = 4096;
    size_t worker = nb * (1 + 4 + 3 * aff) + batch * (3 * 16 + 4 * fe + aff + 128);
    return 36 * chunk + (size_t)threads * worker;
}
