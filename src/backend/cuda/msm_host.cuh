// Host side of the device MSM: the window combination, the sum of chunks' window sums
// and the bucket reduction's offset point, with the CPU curve code (included by
// msm_impl.cuh, which provides curve.cuh, msm_reduce.cuh and curve/curve.h).
#ifndef G16_BACKEND_CUDA_MSM_HOST_CUH
#define G16_BACKEND_CUDA_MSM_HOST_CUH

// Window combination (Horner, c doublings per window) plus the 1-scalar sum, on
// the HOST with the CPU curve code (same XYZZ layout): it is one chain of ~255
// dependent doublings, which a single GPU thread runs at its full multiplication
// latency; the W + 1 points cross the bus in microseconds.
#define G16_MSM_COMBINE(G, F)                                                             \
    static inline void msm_combine(g16_djac<F> *out, const g16_dxyzz<F> *win, unsigned W, \
                            unsigned c, const g16_dxyzz<F> *ones)                        \
    {                                                                                     \
        g16_##G##_xyzz acc, t;                                                            \
        memcpy(&acc, &win[W - 1], sizeof acc);                                            \
        for (int w = (int)W - 2; w >= 0; w--) {                                           \
            for (unsigned i = 0; i < c; i++) g16_##G##_xyzz_dbl(&acc, &acc);             \
            memcpy(&t, &win[w], sizeof t);                                                \
            g16_##G##_xyzz_add(&acc, &acc, &t);                                           \
        }                                                                                 \
        memcpy(&t, ones, sizeof t);                                                       \
        g16_##G##_xyzz_add(&acc, &acc, &t);                                               \
        g16_##G##_jac j;                                                                  \
        g16_##G##_xyzz_to_jac(&j, &acc);                                                  \
        memcpy(out, &j, sizeof j);                                                        \
    }
// acc[i] += in[i] for the m window sums of an MSM's chunks (host, like the combination).
#define G16_MSM_ACCUMULATE(G, F)                                                             \
    static inline void msm_accumulate(g16_dxyzz<F> *acc, const g16_dxyzz<F> *in, unsigned m) \
    {                                                                                        \
        for (unsigned i = 0; i < m; i++) {                                                   \
            g16_##G##_xyzz a, b;                                                             \
            memcpy(&a, &acc[i], sizeof a);                                                   \
            memcpy(&b, &in[i], sizeof b);                                                    \
            g16_##G##_xyzz_add(&a, &a, &b);                                                  \
            memcpy(&acc[i], &a, sizeof a);                                                   \
        }                                                                                    \
    }
// The bucket reduction's offset (msm_reduce.cuh, msm_seg_off): the generator times a
// fixed 256-bit constant (words of π's hexadecimal expansion, for want of a reason to
// pick another), made once a process.
#define G16_MSM_SEG_OFF(G, F)                                                                      \
    static inline g16_##G##_xyzz msm_seg_base_make_##G()                                           \
    {                                                                                              \
        static const uint64_t k[4] = {0x243f6a8885a308d3u, 0x13198a2e03707344u,                    \
                                      0xa4093822299f31d0u, 0x082efa98ec4e6c89u};                   \
        g16_##G##_jac g, p;                                                                        \
        g16_##G##_xyzz t;                                                                          \
        g16_##G##_jac_generator(&g);                                                               \
        g16_##G##_mul(&p, &g, k);                                                                  \
        g16_##G##_jac_to_xyzz(&t, &p);                                                             \
        return t;                                                                                  \
    }                                                                                              \
    static inline void msm_seg_offsets(msm_seg_off<F> *o)                                          \
    {                                                                                              \
        static const g16_##G##_xyzz t = msm_seg_base_make_##G(); /* thread-safe, once */           \
        g16_##G##_xyzz f;                                                                          \
        g16_##G##_xyzz_neg(&f, &t);                                                                \
        memcpy(&o->ta, &t, sizeof o->ta);                                                          \
        memcpy(&o->fa, &f, sizeof o->fa);                                                          \
    }
G16_MSM_COMBINE(g1, g16_dfp)
G16_MSM_COMBINE(g2, g16_dfp2)
G16_MSM_SEG_OFF(g1, g16_dfp)
G16_MSM_SEG_OFF(g2, g16_dfp2)
G16_MSM_ACCUMULATE(g1, g16_dfp)
G16_MSM_ACCUMULATE(g2, g16_dfp2)
static_assert(sizeof(g16_g1_xyzz) == sizeof(g16_dxyzz<g16_dfp>), "G1 XYZZ layout");
static_assert(sizeof(g16_g2_xyzz) == sizeof(g16_dxyzz<g16_dfp2>), "G2 XYZZ layout");

#endif
