/* Group-independent parts of the MSM: scalar preparation (Montgomery → canonical,
 * density, 0/1 split), Booth digits, window choice.  Internal to src/msm. */
#ifndef G16_MSM_INTERNAL_H
#define G16_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "msm/msm.h"

/* Scalars of one chunk, ready for Pippenger.  Entries are in no particular order. */
typedef struct msm_prep {
    uint64_t (*k)[4];   /* canonical scalars (< r) of the "rest", m of them */
    uint32_t *idx;      /* idx[j]: index into the caller's bases of k[j] */
    size_t m;
    uint32_t *ones;     /* indices into bases of the scalars equal to 1 (split on) */
    size_t n_ones;
    size_t cap;         /* entries allocated in each array */
} msm_prep;

/* Allocates the arrays for up to cap scalars.  Returns G16_OK or G16_ERR_NOMEM. */
g16_status g16_msm_prep_alloc(msm_prep *p, size_t cap);
void g16_msm_prep_free(msm_prep *p);

/* Fills p from scalars[0, count) (count <= p->cap).  density: NULL or the caller's
 * bitmap already advanced so that bit 0 is scalars[0] (the chunk start is a
 * multiple of 64); base0: the index into bases of the first selected scalar.
 * Zeros are dropped; ones go to p->ones when split, else to the rest.
 * Returns: G16_OK, or G16_ERR_NOMEM (p is then empty). */
g16_status g16_msm_prep_fill(msm_prep *p, const g16_fr *scalars, size_t count,
                             const uint64_t *density, size_t base0, int split);

/* Number of set bits among the first n bits of bitmap. */
size_t g16_msm_popcount(const uint64_t *bitmap, size_t n);

/* Number of windows for window size c: bits 0..254 are covered (scalars < r < 2^255). */
static inline unsigned msm_windows(unsigned c) { return (255 + c - 1) / c; }

/* Buckets window w needs: 2^(c−1) for signed windows; the top window is unsigned
 * (no window above it to take a borrow) and its digit is at most 2^t, t = its bit
 * count, which can reach 2^c when c divides 255. */
static inline size_t msm_window_buckets(unsigned c, unsigned w)
{
    unsigned nw = msm_windows(c);
    if (w + 1 < nw) return (size_t)1 << (c - 1);
    unsigned t = 255 - (nw - 1) * c;
    return (size_t)1 << t;
}

/* Booth digit of window w: d = Σ_{j<c} 2^j·b[wc+j] + b[wc−1] − 2^c·b[wc+c−1], so that
 * k = Σ_w d_w·2^(wc) with every |d_w| <= 2^(c−1) (top window: no subtraction). */
static inline int32_t msm_digit(const uint64_t k[4], unsigned w, unsigned c, int top)
{
    uint64_t v;
    if (w == 0) {
        v = k[0] << 1;
    } else {
        unsigned pos = w * c - 1, limb = pos >> 6, sh = pos & 63;
        v = k[limb] >> sh;
        if (sh && limb < 3) v |= k[limb + 1] << (64 - sh);
    }
    v &= ((uint64_t)2 << c) - 1;
    int32_t d = (int32_t)((v >> 1) + (v & 1));
    if (!top) d -= (int32_t)((v >> c) & 1) << c;
    return d;
}

/* Window for m non-trivial scalars (see g16_msm_pick_window). */
unsigned g16_msm_window_for(size_t m, unsigned threads, int group);

/* Number of point ranges each window is split into, so that `threads` threads get
 * enough (window, range) tasks with little imbalance, without multiplying the
 * bucket reductions (one per task) needlessly. */
unsigned g16_msm_parts(unsigned c, unsigned threads, size_t m);

#endif
