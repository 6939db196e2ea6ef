/* Group-independent parts of the MSM: scalar preparation (Montgomery → canonical,
 * density, 0/1 split), Booth digits, window choice.  Internal to src/msm. */
#ifndef G16_MSM_INTERNAL_H
#define G16_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "msm/msm.h"

/* Scalars of one chunk, ready for Pippenger.  Entries are in no particular order.
 * Two forms: full scalars (k, < r), or, for the ψ split on BLS12-381's G2
 * (psi_n > 0), the scalars' base-|x| digits (k64, < |x| < 2^64), digit j of the
 * scalar of base i being entry (digit, plane j, base i): idx = j·2^30 + i, the
 * base |x|^j·bases[i] (msm_impl.h keeps one array a plane). */
typedef struct msm_prep {
    uint64_t (*k)[4];   /* canonical scalars (< r) of the "rest", m of them */
    uint64_t *k64;      /* the ψ split's digits instead (k is then NULL) */
    uint32_t *idx;      /* idx[j]: index into the caller's bases of k[j] */
    size_t m;
    uint32_t *ones;     /* indices into bases of the scalars equal to 1 (split on) */
    size_t n_ones;
    size_t cap;         /* scalars of a chunk (the digit form holds 4 entries a scalar) */
    /* digit form: called from the pool's workers with up to MSM_PSI_BATCH bases (each
     * base once in all) whose digits j >= 1 are not all zero, so that the caller
     * makes just the images |x|^j·base that the MSM will read */
    void (*psi_fn)(void *ctx, const uint32_t *bases, size_t n);
    void *psi_ctx;
} msm_prep;

/* The ψ split's planes: base index bits and planes (|x|^0 .. |x|^3). */
#define MSM_PSI_SHIFT 30
#define MSM_PSI_PLANES 4
#define MSM_PSI_BATCH 32
/* Bits of the digits (< |x| < 2^64) and of full scalars (< r < 2^255). */
#define MSM_PSI_BITS 64u
#define MSM_FULL_BITS 255u

/* Allocates the arrays for up to cap scalars, in the digit form when psi is set.
 * Returns G16_OK or G16_ERR_NOMEM. */
g16_status g16_msm_prep_alloc(msm_prep *p, size_t cap, int psi);
void g16_msm_prep_free(msm_prep *p);

/* Fills p from scalars[0, count) (count <= p->cap).  density: NULL or the caller's
 * bitmap already advanced so that bit 0 is scalars[0] (the chunk start is a
 * multiple of 64); base0: the index into bases of the first selected scalar.
 * Zeros are dropped; ones go to p->ones when split, else to the rest; in the digit
 * form (p->k64) every other scalar gives one entry a non-zero digit.
 * Returns: G16_OK, or G16_ERR_NOMEM (p is then empty). */
g16_status g16_msm_prep_fill(msm_prep *p, const g16_fr *scalars, size_t count,
                             const uint64_t *density, size_t base0, int split);

/* Number of set bits among the first n bits of bitmap. */
size_t g16_msm_popcount(const uint64_t *bitmap, size_t n);

/* Number of windows for window size c when scalars have `bits` bits (255: below
 * r < 2^255; 64: the ψ split's digits). */
static inline unsigned msm_windows_b(unsigned c, unsigned bits) { return (bits + c - 1) / c; }
static inline unsigned msm_windows(unsigned c) { return msm_windows_b(c, MSM_FULL_BITS); }

/* Buckets window w needs: 2^(c−1) for signed windows; the top window is unsigned
 * (no window above it to take a borrow) and its digit is at most 2^t, t = its bit
 * count, which can reach 2^c when c divides the bit count (64 at c = 16). */
static inline size_t msm_window_buckets_b(unsigned c, unsigned w, unsigned bits)
{
    unsigned nw = msm_windows_b(c, bits);
    if (w + 1 < nw) return (size_t)1 << (c - 1);
    unsigned t = bits - (nw - 1) * c;
    return (size_t)1 << t;
}
static inline size_t msm_window_buckets(unsigned c, unsigned w)
{
    return msm_window_buckets_b(c, w, MSM_FULL_BITS);
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

/* The same for a 64-bit digit (the ψ split): bit 63 is the top window's last. */
static inline int32_t msm_digit64(uint64_t k, unsigned w, unsigned c, int top)
{
    uint64_t v = w == 0 ? k << 1 : k >> (w * c - 1);
    v &= ((uint64_t)2 << c) - 1;
    int32_t d = (int32_t)((v >> 1) + (v & 1));
    if (!top) d -= (int32_t)((v >> c) & 1) << c;
    return d;
}

/* Window for m non-trivial scalars (see g16_msm_pick_window); _bits: for scalars
 * of that many bits (MSM_FULL_BITS or MSM_PSI_BITS). */
unsigned g16_msm_window_for(size_t m, unsigned threads, int group);
unsigned g16_msm_window_bits(size_t m, unsigned threads, unsigned bits);

/* Number of point ranges each window is split into, so that `threads` threads get
 * enough (window, range) tasks with little imbalance, without multiplying the
 * bucket reductions (one per task) needlessly. */
unsigned g16_msm_parts(unsigned c, unsigned threads, size_t m, unsigned bits);

#endif
