// Tuning knobs of the device MSM, read from the environment per call (msm_impl.cuh).
#ifndef G16_BACKEND_CUDA_MSM_TUNING_CUH
#define G16_BACKEND_CUDA_MSM_TUNING_CUH

#include <stdint.h>
#include <stdlib.h>

// Buckets per thread of the bucket reduction's first step (msm_reduce.cuh).
#define MSM_SEG_LEN 32u

// Tuning knobs for benchmarks on the GPU machine (environment, read per call):
//   G16_CUDA_MSM_RUN=K   piece length of the bucket levels (default G1 32, G2 16; longer
//                        in dense MSMs: msm_run_len)
//   G16_CUDA_MSM_OCC=1   G1 level-0 pieces with 4 blocks/SM (128 registers)
//   G16_CUDA_MSM_FLAT_TPB=32|64|128  threads a block of the flat level 0 (default 128)
//   G16_CUDA_MSM_FLAT_LB=1|3  which instance of G1's flat level 0: compiled for 1 or 3
//                        (default) blocks of 128 a multiprocessor (192 registers, 8
//                        warps / 168, 36 B spilled, 12 warps; session 10: 3 took G1
//                        2^24 111.5 → 108.7 ms; 4 blocks, 128 registers with 156 B
//                        spilled, was slower than both: 112.5 ms)
//   G16_CUDA_MSM_SEG=L   buckets per thread of the bucket reduction (default 32)
//   G16_CUDA_MSM_CMAX=c  cap on the automatic window (default 22: no cap)
//   G16_CUDA_MSM_CMIN=c  floor on the automatic window (default 2: none; with CMAX
//                        the same, every MSM runs at c, e.g. to time a proof's H MSM
//                        at 19: docs/cuda.md, Left)
//   G16_CUDA_MSM_AFFINE=1  G1 buckets by batch-affine rounds (msm_affine.cuh)
//   G16_CUDA_MSM_BIG=lg    c = 20 from 2^lg points (default G1 24, G2 25; msm_auto_window)
//   G16_CUDA_MSM_FLAT=0    level 0 of the accumulation in pieces of each bucket's run
//                        (run_pieces) instead of flat chunks (msm_flat.cuh)
//   G16_CUDA_MSM_LIVEWIN=0 window sized by the bases only, not by the device scalars
//                        that are not 0 or 1 (msm_run)
//   G16_CUDA_MSM_G2_PAIR=0|1|3|4  G2's flat level 0: 0 a point a thread (g16_dfp2_hot),
//                        else over lane pairs (field_pair.cuh) in the instance compiled
//                        for that many blocks of 128 a multiprocessor (2 means 1);
//                        default 1: unspilled at 254 registers, it beat 3 (168
//                        registers, 80 B spilled) and 4 (H100, sixth session: G2 2^24
//                        388 / 423 / 426 ms against 504 a point a thread)
//   G16_CUDA_MSM_G2_PAIR_UP=0|1|2  G2's levels above level 0 and its 1-scalar sum over
//                        lane pairs where level 0 runs over them (2, the default), only
//                        the levels (1: sum_parts_pair, msm_flat.cuh; the 1-scalar sum a
//                        point a thread, ones_partial, msm_ones.cuh), or neither (0:
//                        run_pieces, bucket_sum_parts).  H100, eleventh session: G2 2^24 /
//                        2^25 / 2^26 372.9 / 677.9 / 1282.6 ms at 0, 357.8 / 647.6 /
//                        1218.2 at 1; twelfth: B2 of a 2^26 porep proof 48.5 ms at 1,
//                        47.0 at 2 (medians of 4, bench/gpu/ab.sh)
//   G16_CUDA_MSM_SEG_OFF=0 the bucket reduction's running sum a starts at infinity, not
//                        at the fixed offset (msm_seg_off, msm_reduce.cuh)
//   G16_CUDA_MSM_WGROUP=0  an MSM too large for one sort runs in chunks of scalars, each
//                        a whole MSM over all windows, instead of sorting its windows in
//                        groups over all its scalars (msm_run; the default since the
//                        eighteenth session: H100, 2^27, G1 791.0 -> 770.7 ms, G2 2412.0
//                        -> 2328.0 / 2337.6 ms, docs/BENCHMARKS.md "Window groups")
//   G16_CUDA_MSM_DENSE_MAX=K  longest level-0 piece of a dense G1 MSM (default 256) and
//                        of a dense G2 one over lane pairs (at most 128); 64: the lengths
//                        before the fifteenth session; msm_run_len
struct msm_tuning {
    uint32_t run_len, seg_len, c_max, c_min;  // run_len 0: the group's (msm_traits)
    int occupancy, affine, live_window, flat;
    unsigned lg_big, flat_tpb, flat_lb;
    int g2_pair;
    int g2_pair_up;
    int seg_off;
    uint32_t dense_max;
    int wgroups;
};
static msm_tuning msm_tuning_get()
{
    msm_tuning t = {0, MSM_SEG_LEN, 22, 2, 0, 0, 1, 1, 0, 128, 3, 1, 2, 1, 256, 1};
    const char *v;
    if ((v = getenv("G16_CUDA_MSM_RUN")) && atoi(v) >= 2 && atoi(v) <= 4096) t.run_len = (uint32_t)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_SEG")) && atoi(v) >= 1 && atoi(v) <= 4096) t.seg_len = (uint32_t)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_CMAX")) && atoi(v) >= 4 && atoi(v) <= 22) t.c_max = (uint32_t)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_CMIN")) && atoi(v) >= 2 && atoi(v) <= 22) t.c_min = (uint32_t)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_OCC"))) t.occupancy = atoi(v) != 0;
    if ((v = getenv("G16_CUDA_MSM_AFFINE"))) t.affine = atoi(v) != 0;
    if ((v = getenv("G16_CUDA_MSM_LIVEWIN"))) t.live_window = atoi(v) != 0;
    if ((v = getenv("G16_CUDA_MSM_FLAT"))) t.flat = atoi(v) != 0;
    if ((v = getenv("G16_CUDA_MSM_BIG")) && atoi(v) >= 4 && atoi(v) <= 32) t.lg_big = (unsigned)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_FLAT_TPB")) && (atoi(v) == 32 || atoi(v) == 64 || atoi(v) == 128))
        t.flat_tpb = (unsigned)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_FLAT_LB")) && (atoi(v) == 1 || atoi(v) == 3))
        t.flat_lb = (unsigned)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_G2_PAIR")) && atoi(v) >= 0 && atoi(v) <= 4) t.g2_pair = atoi(v);
    if ((v = getenv("G16_CUDA_MSM_G2_PAIR_UP")) && atoi(v) >= 0 && atoi(v) <= 2) t.g2_pair_up = atoi(v);
    if ((v = getenv("G16_CUDA_MSM_SEG_OFF"))) t.seg_off = atoi(v) != 0;
    if ((v = getenv("G16_CUDA_MSM_DENSE_MAX")) && atoi(v) >= 16 && atoi(v) <= 4096)
        t.dense_max = (uint32_t)atoi(v);
    if ((v = getenv("G16_CUDA_MSM_WGROUP"))) t.wgroups = atoi(v) != 0;
    return t;
}

#endif
