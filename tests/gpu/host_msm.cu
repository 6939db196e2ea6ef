// The device MSM's signed window digits (src/backend/cuda/msm_digits.cuh) run on
// the HOST for every window width c = 2..22: the digits of scalars < r recombine
// to the scalar, each lies in [-2^(c-1), 2^(c-1)], and none carries out of the
// top window — and where msm_windows adds a window, r - 1 does carry out without
// it (the bug the H200 found at n = 1000, c = 5).  Also the window choice.
#include <stdio.h>
#include <string.h>

#include "backend/cuda/msm_digits.cuh"
#include "backend/cuda/msm_traits.cuh"

extern "C" {
#include "check.h"
}

static const uint64_t R[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                              0x73eda753299d7d48ull};

static g16_dfr from_u64(const uint64_t v[4])
{
    g16_dfr s;
    for (int i = 0; i < 4; i++) s.l[2 * i] = (uint32_t)v[i], s.l[2 * i + 1] = (uint32_t)(v[i] >> 32);
    return s;
}

static int below_r(const uint64_t v[4])
{
    for (int i = 3; i >= 0; i--)
        if (v[i] != R[i]) return v[i] < R[i];
    return 0;
}

// acc (6 limbs, mod 2^384) += sign·m·2^shift with m < 2^23, shift < 384 - 64.
static void add_shifted(uint64_t acc[6], uint64_t m, unsigned shift, int negative)
{
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    unsigned q = shift / 64, sh = shift % 64;
    t[q] = m << sh;
    if (sh && q + 1 < 6) t[q + 1] = m >> (64 - sh);
    unsigned __int128 c = 0;
    if (!negative) {
        for (int i = 0; i < 6; i++) {
            c += (unsigned __int128)acc[i] + t[i];
            acc[i] = (uint64_t)c;
            c >>= 64;
        }
    } else {
        uint64_t borrow = 0;
        for (int i = 0; i < 6; i++) {
            unsigned __int128 d = (unsigned __int128)acc[i] - t[i] - borrow;
            acc[i] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) ? 1 : 0;
        }
    }
}

// 1 when the digits of v with W windows of c bits are valid and recombine to v.
static int digits_ok(const uint64_t v[4], unsigned c, unsigned W, uint32_t *carry_out)
{
    g16_dfr s = from_u64(v);
    uint64_t acc[6] = {0, 0, 0, 0, 0, 0};
    uint32_t carry = 0;
    const int32_t B = 1 << (c - 1);
    int ok = 1;
    for (unsigned w = 0; w < W; w++) {
        int32_t d = msm_signed_digit(s, w, c, carry);
        if (d < -B || d > B) ok = 0;
        add_shifted(acc, (uint64_t)(d < 0 ? -d : d), c * w, d < 0);
    }
    *carry_out = carry;
    return ok && carry == 0 && !memcmp(acc, v, 32) && acc[4] == 0 && acc[5] == 0;
}

// 1 when the sorted pairs of v's nonzero digits (msm_pair, plain and folded with
// the given stride) address the right bucket and base copy and recombine to v.
static int pairs_ok(const uint64_t v[4], unsigned c, unsigned W, size_t stride, uint32_t bi)
{
    g16_dfr s = from_u64(v);
    uint64_t acc[6] = {0, 0, 0, 0, 0, 0};
    uint32_t carry = 0;
    const uint32_t B = 1u << (c - 1);
    int ok = 1;
    for (unsigned w = 0; w < W; w++) {
        int32_t d = msm_signed_digit(s, w, c, carry);
        if (d == 0) continue;
        uint32_t key, val;
        msm_pair(d, w, B, bi, stride, &key, &val);
        const int neg = (val >> 31) != 0;
        const uint32_t idx = val & 0x7fffffffu;
        unsigned win;
        if (stride) {  // one bucket set; the copy index gives the window
            ok &= key < B && idx % stride == bi;
            win = (unsigned)(idx / stride);
        } else {
            ok &= key < W * B && idx == bi;
            win = key / B;
        }
        ok &= win == w && neg == (d < 0);
        add_shifted(acc, (uint64_t)(key % B) + 1, c * win, neg);
    }
    return ok && !memcmp(acc, v, 32) && acc[4] == 0 && acc[5] == 0;
}

// 1 when v's pairs written window group by window group (msm_scalar_pairs, groups of
// g windows) are the pairs of all W windows at once: plain keys shifted by the group's
// first window, the "no digit" sentinel Wc·B in place of W·B, folded pairs unchanged,
// and no carry out of the top window.  A scalar that is not live writes sentinels.
static int groups_ok(const uint64_t v[4], unsigned c, unsigned W, unsigned g, size_t fold, uint32_t bi)
{
    const g16_dfr s = from_u64(v);
    const uint32_t B = 1u << (c - 1);
    uint32_t fk[130], fv[130], gk[130], gv[130];
    if (msm_scalar_pairs(fk, fv, s, true, bi, c, 0, W, fold, 0, 1) != 0) return 0;
    // the whole MSM's pairs themselves: they recombine to v (plain keys: window w's
    // bucket is key − w·B; folded: the copy index of the value is w)
    uint64_t acc[6] = {0, 0, 0, 0, 0, 0};
    for (unsigned w = 0; w < W; w++) {
        if (fk[w] == (fold ? B : W * B)) continue;  // no digit
        const uint32_t m = fold ? fk[w] : fk[w] - w * B, idx = fv[w] & 0x7fffffffu;
        if (m >= B || idx != (fold ? w * fold + bi : bi)) return 0;
        add_shifted(acc, (uint64_t)m + 1, c * w, (fv[w] >> 31) != 0);
    }
    if (memcmp(acc, v, 32) || acc[4] || acc[5]) return 0;
    for (unsigned w0 = 0; w0 < W; w0 += g) {
        const unsigned Wc = W - w0 < g ? W - w0 : g;
        // the group's pairs at a stride of 3 from slot 1, as a run of 3 scalars would hold them
        uint32_t k3[3 * 130], v3[3 * 130];
        memset(k3, 0xee, sizeof k3);
        const uint32_t carry = msm_scalar_pairs(k3, v3, s, true, bi, c, w0, Wc, fold, 1, 3);
        if (w0 + Wc == W && carry) return 0;
        for (unsigned j = 0; j < Wc; j++) {
            if (k3[3 * j] != 0xeeeeeeeeu || k3[3 * j + 2] != 0xeeeeeeeeu) return 0;  // neighbours kept
            gk[w0 + j] = k3[3 * j + 1];
            gv[w0 + j] = v3[3 * j + 1];
        }
        for (unsigned j = 3 * Wc; j < 3 * 130; j++)
            if (k3[j] != 0xeeeeeeeeu) return 0;  // nothing past the group
        uint32_t dk[130], dv[130];
        msm_scalar_pairs(dk, dv, s, false, bi, c, w0, Wc, fold, 0, 1);
        for (unsigned j = 0; j < Wc; j++)
            if (dk[j] != (fold ? B : Wc * B) || dv[j] != 0) return 0;
        for (unsigned j = 0; j < Wc; j++) {
            const unsigned w = w0 + j;
            uint32_t want = fk[w];
            if (!fold) want = fk[w] == W * B ? Wc * B : fk[w] - w0 * B;
            if (gk[w] != want || gv[w] != fv[w]) return 0;
        }
    }
    return 1;
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(23));
    uint64_t rm1[4] = {R[0] - 1, R[1], R[2], R[3]}, rm2[4] = {R[0] - 2, R[1], R[2], R[3]};
    for (unsigned c = 2; c <= 22; c++) {
        unsigned W = msm_windows(c);
        CHECK(W >= (255 + c - 1) / c && W <= (255 + c - 1) / c + 1, "c=%u: W=%u", c, W);
        uint32_t co;
        CHECK(digits_ok(rm1, c, W, &co), "c=%u: r-1", c);
        CHECK(digits_ok(rm2, c, W, &co), "c=%u: r-2", c);
        uint64_t small[4] = {1, 0, 0, 0}, zero[4] = {0, 0, 0, 0};
        CHECK(digits_ok(small, c, W, &co), "c=%u: 1", c);
        CHECK(digits_ok(zero, c, W, &co), "c=%u: 0", c);
        // every window at its largest value B... (B+1 borrows), below r
        for (unsigned pat = 0; pat < 4; pat++) {
            uint64_t v[4] = {0, 0, 0, 0};
            for (unsigned w = 0; w * c < 254; w++) {
                uint64_t d = pat == 0 ? (1ull << (c - 1)) : pat == 1 ? (1ull << (c - 1)) + 1
                             : pat == 2 ? (1ull << c) - 1 : (w & 1 ? (1ull << c) - 1 : 1ull << (c - 1));
                for (unsigned b = 0; b < c && w * c + b < 254; b++)
                    if ((d >> b) & 1) v[(w * c + b) / 64] |= 1ull << ((w * c + b) % 64);
            }
            CHECK(below_r(v) && digits_ok(v, c, W, &co), "c=%u: pattern %u", c, pat);
        }
        for (int i = 0; i < 3000; i++) {
            uint64_t v[4];
            do {
                for (int k = 0; k < 4; k++) v[k] = g16_rng_u64(&rng);
                v[3] &= 0x7fffffffffffffffull;
                if (i & 1) v[3] |= 0x7000000000000000ull;  // near r's top, where carries bite
            } while (!below_r(v));
            if (!digits_ok(v, c, W, &co)) {
                CHECK(0, "c=%u: random scalar %d (carry out %u)", c, i, co);
                break;
            }
        }
        // Where a window was added, it is needed: r - 1 carries out without it.
        if (W > (255 + c - 1) / c) {
            CHECK(!digits_ok(rm1, c, W - 1, &co) && co == 1, "c=%u: r-1 needs the extra window", c);
        }
    }
    // Sorted pairs, plain and folded (stride: bases per shifted copy), at the
    // default fold window and a few others; index bi kept below the stride.
    for (unsigned c : {8u, 13u, 17u, 21u, 22u}) {
        const unsigned W = msm_windows(c);
        for (int i = 0; i < 500; i++) {
            uint64_t v[4];
            do {
                for (int k = 0; k < 4; k++) v[k] = g16_rng_u64(&rng);
                v[3] &= 0x7fffffffffffffffull;
            } while (!below_r(v));
            const size_t stride = 1 + (size_t)(g16_rng_u64(&rng) % (0x7fffffffu / W));
            const uint32_t bi = (uint32_t)(g16_rng_u64(&rng) % stride);
            if (!pairs_ok(v, c, W, 0, bi) || !pairs_ok(v, c, W, stride, bi)) {
                CHECK(0, "c=%u: sorted pairs of random scalar %d (stride %zu)", c, i, stride);
                break;
            }
        }
        CHECK(pairs_ok(rm1, c, W, (size_t)1 << 26, 5) || W * ((size_t)1 << 26) > 0x7fffffffu,
              "c=%u: pairs of r-1", c);
    }
    // What counts towards the window: a base (density bit) and not 0, nor 1 when split.
    {
        const uint64_t one[4] = {1, 0, 0, 0}, two[4] = {2, 0, 0, 0}, zero[4] = {0, 0, 0, 0};
        g16_dfr m1 = g16_dfr::one(), m2 = from_u64(two), z = from_u64(zero), raw1 = from_u64(one);
        const uint64_t dens[2] = {0x5ull, 1ull << 63};  // bits 0, 2 and 127
        CHECK(!msm_counts(z, NULL, 0, 1) && !msm_counts(z, NULL, 0, 0), "0 counts");
        CHECK(!msm_counts(m1, NULL, 3, 1) && msm_counts(m1, NULL, 3, 0), "1 with / without split");
        CHECK(msm_counts(m2, NULL, 7, 1) && msm_counts(raw1, NULL, 7, 1), "other values count");
        CHECK(msm_counts(m2, dens, 0, 1) && !msm_counts(m2, dens, 1, 1) && msm_counts(m2, dens, 2, 1),
              "density bits of word 0");
        CHECK(!msm_counts(m2, dens, 126, 1) && msm_counts(m2, dens, 127, 1), "density bits of word 1");
    }
    // The window choice: 4..16 by size, 20 from 2^lg_big (G1 24, G2 25), capped by c_max.
    CHECK(msm_traits<g16_dfp>::lg_big_window == 24 && msm_traits<g16_dfp2>::lg_big_window == 25,
          "c = 20 from 2^24 points (G1), 2^25 (G2)");
    CHECK(msm_auto_window((size_t)1 << 25, 22, msm_traits<g16_dfp2>::lg_big_window) == 20 &&
              msm_auto_window(((size_t)1 << 25) - 1, 22, msm_traits<g16_dfp2>::lg_big_window) == 16,
          "G2: 16 below 2^25, 20 from it");
    CHECK(msm_auto_window(1, 22, 24) == 4 && msm_auto_window(1u << 10, 22, 24) == 6, "small windows");
    CHECK(msm_auto_window(1u << 20, 22, 24) == 16 && msm_auto_window((1u << 24) - 1, 22, 24) == 16,
          "c = 16 cap");
    CHECK(msm_auto_window(1u << 24, 22, 24) == 20 && msm_auto_window(1u << 24, 22, 26) == 16, "2^24");
    CHECK(msm_auto_window((size_t)1 << 26, 22, 26) == 20, "2^26: c = 20");
    CHECK(msm_auto_window((size_t)1 << 26, 18, 24) == 18, "c_max caps");
    // Level 0's piece length: 64 for G1 MSMs of >= 2^27 pairs averaging >= 32 a bucket
    // (a 2^24-point MSM at c = 20: 13 windows of 2^19 buckets, 32 a bucket), 128 from 64
    // a bucket, 256 from 128, else 32; G2 16, or over lane pairs when dense 64, 128 from 64
    // a bucket.
    {
        const size_t big = (size_t)13 << 24;
        const uint32_t nb20 = 13u << 19;
        CHECK(msm_run_len<g16_dfp>(big, nb20) == 64, "G1 2^24 at c = 20: 64");
        CHECK(msm_run_len<g16_dfp>(big - 1, nb20) == 32, "G1 below 32 a bucket: 32");
        CHECK(msm_run_len<g16_dfp>((size_t)1 << 27, (1u << 27) / 32) == 64, "G1 at 2^27 pairs: 64");
        CHECK(msm_run_len<g16_dfp>(((size_t)1 << 27) - 32, (1u << 27) / 32 - 1) == 32,
              "G1 below 2^27 pairs: 32");
        CHECK(msm_run_len<g16_dfp>((size_t)1 << 24, 1u << 19) == 32, "G1 2^20 uniform: 32");
        CHECK(msm_run_len<g16_dfp>(big, 0) == 32, "no buckets: 32");
        CHECK(msm_run_len<g16_dfp2>(big, nb20) == 16 && msm_run_len<g16_dfp2>(1, 1) == 16, "G2: 16");
        CHECK(msm_run_len<g16_dfp2>(big, nb20, true) == 64 && msm_run_len<g16_dfp2>(1, 1, true) == 16 &&
                  msm_run_len<g16_dfp2>(big, big / 31, true) == 16,
              "G2 over lane pairs: 64 when dense, else 16");
        CHECK(msm_run_len<g16_dfp>(big, nb20, true) == 32, "G1 has no lane pairs: its plain length");
        // from 64 a bucket 128, from 128 a bucket 256, never above dense_max
        CHECK(msm_run_len<g16_dfp>(2 * big, nb20) == 128 && msm_run_len<g16_dfp>(2 * big - 13, nb20) == 64,
              "G1 2^25 at c = 20: 128, just below 64 a bucket: 64");
        CHECK(msm_run_len<g16_dfp>(4 * big, nb20) == 256 && msm_run_len<g16_dfp>(4 * big - 13, nb20) == 128,
              "G1 2^26 at c = 20: 256, just below 128 a bucket: 128");
        CHECK(msm_run_len<g16_dfp>(64 * big, nb20) == 256, "G1 2^30 at c = 20: 256 (the cap)");
        CHECK(msm_run_len<g16_dfp>(4 * big, nb20, false, 64) == 64 &&
                  msm_run_len<g16_dfp>(4 * big, nb20, false, 128) == 128,
              "dense_max caps the doubling");
        CHECK(msm_run_len<g16_dfp2>(2 * big, nb20, true) == 128 && msm_run_len<g16_dfp2>(2 * big - 13, nb20, true) == 64 &&
                  msm_run_len<g16_dfp2>(8 * big, nb20, true) == 128 && msm_run_len<g16_dfp2>(4 * big, nb20) == 16,
              "G2 over lane pairs: 128 from 64 a bucket, never 256; a point a thread: 16");
        CHECK(msm_run_len<g16_dfp2>(4 * big, nb20, true, 64) == 64, "dense_max caps G2 too");
    }
    // Window groups' pairs: every group size, plain and folded, random scalars and r - 1.
    for (unsigned c : {5u, 13u, 17u, 20u, 22u}) {
        const unsigned W = msm_windows(c);
        int ok = 1, bad_g = 0, bad_i = 0;
        for (int i = 0; i < 60 && ok; i++) {
            uint64_t v[4];
            do {
                for (int k = 0; k < 4; k++) v[k] = g16_rng_u64(&rng);
                v[3] &= 0x7fffffffffffffffull;
                if (i & 1) v[3] |= 0x7000000000000000ull;
            } while (!below_r(v));
            const uint32_t bi = (uint32_t)(g16_rng_u64(&rng) % 1000);
            for (unsigned g = 1; g <= W && ok; g++)
                if (!groups_ok(i ? v : rm1, c, W, g, 0, bi) || !groups_ok(i ? v : rm1, c, W, g, 1000, bi))
                    ok = 0, bad_g = (int)g, bad_i = i;
        }
        CHECK(ok, "c=%u: window groups of %d windows, scalar %d (0: r - 1)", c, bad_g, bad_i);
    }
    // Window groups: every window in exactly one group of at most cap pairs, the fewest
    // such groups, all of one size but the last.
    {
        CHECK(msm_group_windows(13, 0, 64) == 13 && msm_group_windows(13, 5, 65) == 13,
              "no live scalars, or all windows fit: one group");
        CHECK(msm_group_windows(13, (size_t)1 << 27, (size_t)1 << 30) == 7,
              "2^27 live at c = 20 in 2^30 pairs: groups of 7 and 6");
        CHECK(msm_group_windows(13, 5, 64) == 7 && msm_group_windows(13, 64, 64) == 1,
              "13 windows of 5 in 64: 7 + 6; a sort of one window each");
        CHECK(msm_group_windows(16, 10, 1) == 1, "n_live above cap (cannot happen): 1");
        for (unsigned W = 1; W <= 130; W++)
            for (size_t live = 1; live <= 40; live++)
                for (size_t cap = live; cap <= 4 * W * live; cap += 1 + cap / 7) {
                    const unsigned g = msm_group_windows(W, live, cap), k = (W + g - 1) / g;
                    const size_t fewest = (W + cap / live - 1) / (cap / live);
                    if (g < 1 || g > W || (size_t)g * live > cap || k != fewest) {
                        CHECK(0, "window groups of W = %u, %zu live, cap %zu: %u a group", W, live,
                              cap, g);
                        return g16_test_finish("test_cuda_host_msm");
                    }
                }
    }
    return g16_test_finish("test_cuda_host_msm");
}
