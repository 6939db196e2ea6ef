// The device MSM's bucket reduction (src/backend/cuda/msm_reduce.cuh) run on the
// HOST, step by step as the kernels cut it (segments of L buckets, chunks of q
// segments, the chunks summed), against Σ (b + 1)·k_b·G computed by the CPU curve
// code, for buckets S_b = k_b·G.  Segment and chunk counts that do not divide
// evenly, one segment, empty buckets and equal neighbours (doublings in the
// running sums) are among the cases.
// Also level 0 of the accumulation in flat chunks (msm_flat.cuh): every thread's
// chunk, then each bucket's partial sums, against the CPU's Σ ±k·G of the bucket's
// entries — runs of 0, 1, K − 1, K, K + 1 and many K entries at every offset from a
// chunk boundary, negative digits, a point and its negation (the sum O), a base at
// infinity, and a sentinel tail.  And the pieces the upper levels cut the runs into.
#include <stdio.h>
#include <string.h>

#include "backend/cuda/msm_digits.cuh"
#include "backend/cuda/msm_flat.cuh"

extern "C" {
#include "curve/curve.h"
#include "check.h"
}

typedef g16_dxyzz<g16_dfp> X;

static X to_dev(const g16_g1_jac *p)
{
    g16_g1_xyzz x;
    g16_g1_jac_to_xyzz(&x, p);
    X d;
    static_assert(sizeof d == sizeof x, "layout");
    memcpy(&d, &x, sizeof d);
    return d;
}

// The running sum a's offset (msm_seg_off): its start ta and fa = −ta.
static msm_seg_off<g16_dfp> make_off(const g16_g1_jac *ta)
{
    g16_g1_jac f;
    g16_g1_jac_neg(&f, ta);
    msm_seg_off<g16_dfp> o;
    o.ta = to_dev(ta), o.fa = to_dev(&f);
    return o;
}

// One window of B buckets reduced with segments of L and chunks of q segments, the
// running sum a started at: 0 infinity (no offset), 1 a random multiple of G (as
// msm_impl.cuh's fixed one), 2 bucket 0's point (so the first sums double or cancel:
// the offset must not change the result, only the branches taken).
static void check_window(g16_rng *rng, uint32_t B, uint32_t L, uint32_t q, int pattern, int offs)
{
    g16_g1_jac g;
    g16_g1_jac_generator(&g);
    X *bk = new X[B];
    uint64_t total = 0;
    for (uint32_t b = 0; b < B; b++) {
        uint64_t k = g16_rng_u64(rng) % 1000;
        if (pattern == 1 && b % 3 == 0) k = 0;                 // empty buckets
        if (pattern == 2 && b > 0 && b % 2 == 1) k = 0;        // every other one empty
        if (pattern == 3) k = 7;                                // all equal
        uint64_t kk[4] = {k, 0, 0, 0};
        g16_g1_jac p;
        g16_g1_mul(&p, &g, kk);
        bk[b] = to_dev(&p);
        total += (b + 1) * k;
    }
    const uint32_t S = B / L, nt = (S + q - 1) / q;
    unsigned lg_l = 0;
    while ((1u << lg_l) < L) lg_l++;
    g16_g1_jac ta;
    if (offs == 1) {
        uint64_t ka[4];
        for (int i = 0; i < 4; i++) ka[i] = g16_rng_u64(rng);
        g16_g1_mul(&ta, &g, ka);
    } else if (offs == 2) {
        g16_djac<g16_dfp> b0 = bk[0].to_jac();
        memcpy(&ta, &b0, sizeof ta);
    } else {
        g16_g1_jac_set_infinity(&ta);
    }
    const msm_seg_off<g16_dfp> o = make_off(&ta);
    X *sacc = new X[S], *srun = new X[S];
    for (uint32_t j = 0; j < S; j++) msm_seg_sums<g16_dfp>(&sacc[j], &srun[j], bk + (size_t)j * L, L, o);
    X sum = X::inf();
    for (uint32_t u = 0; u < nt; u++) {
        uint32_t j0 = u * q, j1 = j0 + q < S ? j0 + q : S;
        sum = padd<g16_dfp>(sum, msm_seg_combine<g16_dfp>(sacc, srun, j0, j1, lg_l));
    }
    uint64_t kt[4] = {total, 0, 0, 0};
    g16_g1_jac want, got;
    g16_g1_mul(&want, &g, kt);
    g16_djac<g16_dfp> gj = sum.to_jac();
    memcpy(&got, &gj, sizeof got);
    CHECK(g16_g1_jac_eq(&want, &got), "reduction of %u buckets (L = %u, q = %u, pattern %d, offsets %d) != %llu G",
          B, L, q, pattern, offs, (unsigned long long)total);
    delete[] bk;
    delete[] sacc;
    delete[] srun;
}

// One sorted pair array: buckets with the given run lengths, entry i of the array
// pointing at base (i * 7) % nbase (bases k·G for k = 1..nbase), every third entry
// negative; then `tail` sentinel entries.  Each bucket's partials must add up.
static void check_flat(const uint32_t *len, uint32_t nb, uint32_t K, uint32_t tail,
                       const uint32_t *first_vals = NULL, uint32_t n_first = 0, bool inf0 = false)
{
    const uint32_t nbase = 50;
    g16_g1_jac g;
    g16_g1_jac_generator(&g);
    g16_daff<g16_dfp> bases[nbase];
    for (uint32_t i = 0; i < nbase; i++) {
        uint64_t k[4] = {i + 1, 0, 0, 0};
        g16_g1_jac p;
        g16_g1_affine a;
        g16_g1_mul(&p, &g, k);
        g16_g1_jac_to_affine(&a, &p);
        memcpy(&bases[i], &a, sizeof a);
    }
    if (inf0) memset(&bases[0], 0, sizeof bases[0]);  // base 0 at infinity: (0, 0)
    size_t total = tail;
    for (uint32_t b = 0; b < nb; b++) total += len[b];
    uint32_t *keys = new uint32_t[total], *vals = new uint32_t[total];
    uint32_t *bs = new uint32_t[nb], *be = new uint32_t[nb], *off = new uint32_t[nb + 1];
    int64_t *want = new int64_t[nb];
    size_t p = 0;
    for (uint32_t b = 0; b < nb; b++) {
        bs[b] = be[b] = 0;  // as the device's memset leaves an empty bucket
        want[b] = 0;
        if (len[b]) bs[b] = (uint32_t)p;
        for (uint32_t i = 0; i < len[b]; i++, p++) {
            uint32_t base = (uint32_t)((p * 7) % nbase), neg = p % 3 == 0;
            if (p < n_first) base = first_vals[p] & 0x7fffffffu, neg = first_vals[p] >> 31;
            keys[p] = b;
            vals[p] = base | (neg << 31);
            const int64_t wgt = inf0 && base == 0 ? 0 : (int64_t)(base + 1);
            want[b] += neg ? -wgt : wgt;
        }
        if (len[b]) be[b] = (uint32_t)p;
    }
    for (; p < total; p++) keys[p] = nb, vals[p] = 0;
    off[0] = 0;
    for (uint32_t b = 0; b < nb; b++) off[b + 1] = off[b] + msm_flat_items(bs[b], be[b], K);
    X *part = new X[off[nb] + 1];
    for (uint32_t i = 0; i <= off[nb]; i++) part[i] = X::inf();
    for (uint32_t t = 0; (size_t)t * K < total; t++)
        msm_flat_chunk<flat_whole<g16_dfp>>(part, off, bs, keys, vals, bases, total, nb, K, t);
    for (uint32_t b = 0; b < nb; b++) {
        X sum = X::inf();
        for (uint32_t i = off[b]; i < off[b + 1]; i++) sum = padd<g16_dfp>(sum, part[i]);
        uint64_t k[4] = {(uint64_t)(want[b] < 0 ? -want[b] : want[b]), 0, 0, 0};
        g16_g1_jac w, got;
        g16_g1_mul(&w, &g, k);
        if (want[b] < 0) g16_g1_jac_neg(&w, &w);
        g16_djac<g16_dfp> sj = sum.to_jac();
        memcpy(&got, &sj, sizeof got);
        CHECK(g16_g1_jac_eq(&w, &got), "flat chunks of %u: bucket %u (run %u at %u) != %lld G", K, b, len[b],
              bs[b], (long long)want[b]);
    }
    delete[] keys, delete[] vals, delete[] bs, delete[] be, delete[] off, delete[] want, delete[] part;
}

// The layout msm_chunk computes (msm_shape_of) for every window, bucket-set count and
// segment length: segments tile a set, chunks cover the segments, keys and the
// sentinel fit the sort's bits.  For small windows the reduction then runs with
// exactly those S, L and chunk counts (check_window).
static void check_shapes(g16_rng *rng)
{
    static const uint32_t segs[] = {1, 2, 8, 31, 32, 33, 4096};
    for (unsigned c = 2; c <= 22; c++) {
        const unsigned W = msm_windows(c);
        for (unsigned wr = 0; wr < 2; wr++) {
            const unsigned Wr = wr ? W : 1;
            for (unsigned si = 0; si < sizeof segs / sizeof *segs; si++) {
                msm_shape h = msm_shape_of(c, Wr, segs[si]);
                uint32_t pow2 = 1;
                while (pow2 * 2 <= segs[si]) pow2 *= 2;
                int ok = h.B == 1u << (c - 1) && h.nb == Wr * h.B && (uint64_t)h.S * h.L == h.B &&
                         h.L == (h.B < pow2 ? h.B : pow2) && (1u << h.lg_l) == h.L &&
                         h.nt * MSM_SEG_CHUNK >= h.S && (h.nt - 1) * MSM_SEG_CHUNK < h.S &&
                         ((uint64_t)1 << h.end_bit) > h.nb && ((uint64_t)1 << (h.end_bit - 1)) <= h.nb;
                CHECK(ok, "shape c = %u, %u sets, segments of %u: B %u nb %u S %u L %u nt %u bits %u", c, Wr,
                      segs[si], h.B, h.nb, h.S, h.L, h.nt, h.end_bit);
                if (c <= 9 && wr == 0 && (segs[si] == 2 || segs[si] == 32))
                    check_window(rng, h.B, h.L, MSM_SEG_CHUNK, 0, 1);
            }
        }
    }
}

// The pieces of the upper levels (msm_piece, as run_pieces and sum_parts_pair find
// them): pieces 0 .. T − 1 of runs of the given lengths (empty ones among them) cover
// each run exactly once, in order, with K entries each but the run's last.
static void check_pieces(const uint32_t *len, uint32_t nb, uint32_t K)
{
    uint32_t start[48], end[48], off[49], pos = 3;  // runs need not start at 0
    off[0] = 0;
    for (uint32_t b = 0; b < nb; b++) {
        start[b] = pos, end[b] = pos += len[b];
        off[b + 1] = off[b] + (len[b] + K - 1) / K;  // run_items, then the exclusive scan
    }
    uint32_t b = 0, next = start[0], bad = 0;
    for (uint32_t i = 0; i < off[nb]; i++) {
        uint32_t p, e;
        msm_piece(&p, &e, off, nb, start, end, i, K);
        while (b < nb && next == end[b]) next = start[++b < nb ? b : 0];  // runs done (empty ones)
        bad += b == nb || p != next || e <= p || e > end[b] || (e - p != K && e != end[b]);
        next = e;
    }
    while (b < nb && next == end[b]) next = start[++b < nb ? b : 0];
    CHECK(!bad && b == nb, "pieces of %u over %u runs: %u wrong, %u of %u runs covered", K, nb, bad, b, nb);
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, 6);
    // B, L, q: chunks that divide S and chunks that do not, one segment (S = 1), one
    // chunk, one segment per chunk, and L = 1.
    static const uint32_t cases[][3] = {{64, 8, 3},  {64, 8, 16}, {32, 32, 16}, {128, 4, 5},
                                        {128, 16, 1}, {16, 1, 4},  {256, 2, 7},  {512, 32, 16}};
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int pattern = 0; pattern < 4; pattern++)
            for (int offs = 0; offs < 3; offs++)
                check_window(&rng, cases[i][0], cases[i][1], cases[i][2], pattern, offs);
    check_shapes(&rng);
    // Flat chunks: run lengths around K at shifting offsets, long runs, empty buckets.
    static const uint32_t Ks[] = {1, 2, 4, 16, 32};
    for (uint32_t ki = 0; ki < sizeof Ks / sizeof *Ks; ki++) {
        const uint32_t K = Ks[ki];
        uint32_t len[40];
        for (uint32_t b = 0; b < 40; b++) {
            static const uint32_t pat[] = {0, 1, 2, 3, 0, 5, 8, 9, 17, 40, 1, 0, 33, 4, 16, 15};
            len[b] = pat[(b * 5 + K) % 16] % (3 * K + 2) + (b == 7 ? 5 * K : 0);
        }
        check_flat(len, 40, K, 0);
        check_flat(len, 40, K, 2 * K + 3);
        check_pieces(len, 40, K);
        len[39] = 0, len[0] = 0;  // empty first and last runs
        check_pieces(len, 40, K);
    }
    {  // a point and its negation (bucket 0: O; bucket 2 passes through O), a doubling
        uint32_t len[3] = {2, 0, 7};
        const uint32_t v[9] = {4, 4u | 1u << 31, 9, 9u | 1u << 31, 9, 9, 3, 3u | 1u << 31, 1};
        check_flat(len, 3, 4, 1, v, 9);
        check_flat(len, 3, 2, 0, v, 9);
        uint32_t one[1] = {200};  // one bucket over many chunks
        check_flat(one, 1, 16, 5);
        // base 0 at infinity, (0, 0): alone, twice in a row, negated, between others
        check_flat(len, 3, 4, 1, v, 9, true);
        uint32_t runs[5] = {9, 0, 33, 1, 64};
        const uint32_t w[12] = {0, 0, 5, 0u | 1u << 31, 0, 7, 7, 0, 8, 8u | 1u << 31, 0, 2};
        check_flat(runs, 5, 8, 3, w, 12, true);
        check_flat(runs, 5, 32, 0, w, 12, true);
    }
    return g16_test_finish("test_cuda_host_msm_reduce");
}
