// Per-group constants of the device MSM (msm_impl.cuh) and the level-0 piece length,
// apart so that the host tests can check them (tests/gpu/host_msm.cu).
#ifndef G16_BACKEND_CUDA_MSM_TRAITS_CUH
#define G16_BACKEND_CUDA_MSM_TRAITS_CUH

#include <stddef.h>
#include <stdint.h>

#include "field.cuh"
#include "g16.h"

// G1's piece length of the bucket levels (see run_pieces for the measurements).
#define MSM_RUN_LEN 32u

// The bucket-accumulation kernels (bucket_accumulate, run_pieces, bucket_sum_parts)
// run G2 on g16_dfp2_hot, whose products are inlined, so their madd/padd
// (msm_reduce.cuh) inline too; field.cuh says why the other G2 kernels keep real
// calls (the reduction among them: G2's padd there is a call, G1's is inlined).
template <class F>
struct hot_field {
    typedef F type;
};
template <>
struct hot_field<g16_dfp2> {
    typedef g16_dfp2_hot type;
};
template <class F>
struct msm_traits;
template <>
struct msm_traits<g16_dfp> {
    static constexpr int block_sum_threads = 128;
    static constexpr unsigned ones_threads = 32768;  // ones_partial: about one wave
    static constexpr unsigned lg_big_window = 24;  // c = 20 from 2^24 points (msm_auto_window)
    static constexpr uint32_t run_len = MSM_RUN_LEN;
    // Large dense MSMs (≥ 2^27 pairs, ≥ dense_run a bucket on average: ≥ 2^24 random
    // scalars at c = 20) take pieces of dense_len: fewer partial sums for the next
    // level (session 7, G16_CUDA_MSM_RUN=64 for every MSM: G1 2^24 −1.5%, 2^26 −1.4 to
    // −2%, but a proof's sparse B1 and G2's B2 lost what its H query gained).  From
    // dense_len a bucket on average the pieces double, and again from 2·dense_len
    // (msm_run_len; fifteenth session, H100, G1 kernels at 2^24 / 2^25 / 2^26, 64 a
    // bucket at 2^25: 64 → 110.4 / 208.1 / 399.3 ms, 128 → 110.7 / 205.5 / 395.3,
    // 256 → 111.1 / 206.8 / 393.9: level 1 adds one partial less a bucket).
    static constexpr uint32_t dense_run = 32, dense_len = 64;
    static constexpr uint32_t pair_dense_run = 0, pair_dense_len = 0, pair_dense_max = 0;  // G1 has no lane pairs
    static constexpr g16_group group = G16_G1;
};
template <>
struct msm_traits<g16_dfp2> {
    static constexpr int block_sum_threads = 64;
    static constexpr unsigned ones_threads = 32768;
    // c = 20 from 2^25 points: after the lane pairs (H100, eighth session) 2^25 took 680 ms at
    // c = 20 against 755 at 16 and 700 at 19; 2^26 1281 at 20 against 1338 at 19, 1352 at 21
    static constexpr unsigned lg_big_window = 25;
    // G2 2^24 (H200, session 6): 441 ms with 16, 462 with 32
    static constexpr uint32_t run_len = 16;
    static constexpr uint32_t dense_run = 0, dense_len = 16;  // no dense length
    // Level 0 over lane pairs (field_pair.cuh) takes chunks of 64 in large dense MSMs
    // (H100, sixth session: 16 → 32 took 2^24 392 → 375 ms and a WindowPoSt B2 over 800
    // sectors 0.763 → 0.714 s; chunks of 8 lost: 425 ms.  Eleventh session, with the
    // upper levels over pairs too: 32 → 64 took 2^24 / 2^25 / 2^26 357.8 / 647.6 / 1218.2
    // → 355.9 / 636.3 / 1204.4 ms, half the partial sums for the levels above).
    // Fifteenth session, H100, pieces of 128 against 64: 2^25 637.7 → 635.5 ms, 2^26 1,207.5 →
    // 1,196.7 (one partial less a bucket for level 1, as for G1); 128 from 64 a bucket, no
    // longer (256 not measured).
    static constexpr uint32_t pair_dense_run = 32, pair_dense_len = 64, pair_dense_max = 128;
    static constexpr g16_group group = G16_G2;
};

// Level 0's piece length for `total` sorted pairs over nb buckets; `pairs`: G2's level 0
// runs over lane pairs (G16_CUDA_MSM_RUN overrides it for every MSM).  Dense G1 MSMs
// take dense_len, doubled from dense_len a bucket on average and again from 2·dense_len,
// capped at dense_max (G16_CUDA_MSM_DENSE_MAX; 64 gives the fourteenth session's lengths);
// dense G2 MSMs over lane pairs the same from pair_dense_len, capped at pair_dense_max too.
template <class F>
G16_HD uint32_t msm_run_len(size_t total, uint32_t nb, bool pairs = false, uint32_t dense_max = 256)
{
    typedef msm_traits<F> T;
    const uint32_t run = pairs ? T::pair_dense_run : T::dense_run;
    const bool dense = run && nb && total >= ((size_t)1 << 27) && total / nb >= run;
    if (!dense) return T::run_len;
    uint32_t len = pairs ? T::pair_dense_len : T::dense_len;
    uint32_t cap = dense_max;
    if (pairs && T::pair_dense_max < cap) cap = T::pair_dense_max;
    const size_t avg = total / nb;
    for (int k = 0; k < 2 && avg >= len && 2 * len <= cap; k++) len *= 2;
    return len;
}

#endif
