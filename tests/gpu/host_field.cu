// Runs the device field and point code on the HOST (the PTX carry chains are
// emulated in C by field.cuh), against the CPU field library, so the exact
// algorithm of the kernels is checked on machines without a GPU.
#include <stdio.h>
#include <string.h>

#include "backend/cuda/curve.cuh"

extern "C" {
#include "curve/curve.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"
#include "check.h"
}

template <class D, class H>
static D to_d(const H &h)
{
    static_assert(sizeof(D) == sizeof(H), "layout");
    D d;
    memcpy(&d, &h, sizeof d);
    return d;
}

static void rand_fp(g16_fp *r, g16_rng *rng)
{
    uint64_t l[G16_FP_LIMBS];
    for (int i = 0; i < G16_FP_LIMBS; i++) l[i] = g16_rng_u64(rng);
    l[G16_FP_LIMBS - 1] &= 0x0fffffffffffffffULL;  // below p (top limb 0x1a01… / BN254 0x3064…)
    g16_fp_from_canonical(r, l);
}
// Below r: BLS12-381's r starts 0x73ed…, BN254's 0x3064….
#if G16_CURVE_BN254
#define FR_TOP_MASK 0x0fffffffffffffffULL
#else
#define FR_TOP_MASK 0x3fffffffffffffffULL
#endif
// 32-bit words of an Fp element
#define NW (2 * G16_FP_LIMBS)
static void rand_fr(g16_fr *r, g16_rng *rng)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++) l[i] = g16_rng_u64(rng);
    l[3] &= FR_TOP_MASK;
    g16_fr_from_canonical(r, l);
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(6));
    // Edge values: 0, 1, p-1 (largest reduced value) besides random ones.
    g16_fp fpe[3];
    g16_fp_set_zero(&fpe[0]);
    g16_fp_set_one(&fpe[1]);
    g16_fp_neg(&fpe[2], &fpe[1]);
    g16_fr fre[3];
    g16_fr_set_zero(&fre[0]);
    g16_fr_set_one(&fre[1]);
    g16_fr_neg(&fre[2], &fre[1]);
    for (int it = 0; it < 20000; it++) {
        g16_fp a, b, r;
        g16_fr x, y, z;
        if (it < 9) {
            a = fpe[it / 3], b = fpe[it % 3];
            x = fre[it / 3], y = fre[it % 3];
        } else {
            rand_fp(&a, &rng), rand_fp(&b, &rng);
            rand_fr(&x, &rng), rand_fr(&y, &rng);
        }
        g16_dfp da = to_d<g16_dfp>(a), db = to_d<g16_dfp>(b), dr;
        g16_fp_mul(&r, &a, &b);
        dr = da * db;
        CHECK(memcmp(&dr, &r, sizeof r) == 0, "fp mul differs at iteration %d", it);
        g16_fp_sqr(&r, &a);
        dr = da.sqr();
        CHECK(memcmp(&dr, &r, sizeof r) == 0, "fp sqr differs at iteration %d", it);
        {
            // one reduction for a sum of two products (the Y of the point additions):
            // all 81 combinations of the edge values first, then random ones
            g16_fp c, d, t;
            if (it < 81) {
                a = fpe[it % 3], b = fpe[it / 3 % 3], c = fpe[it / 9 % 3], d = fpe[it / 27];
                da = to_d<g16_dfp>(a), db = to_d<g16_dfp>(b);
            } else {
                rand_fp(&c, &rng), rand_fp(&d, &rng);
            }
            g16_fp_mul(&r, &a, &b);
            g16_fp_mul(&t, &c, &d);
            g16_fp_add(&r, &r, &t);
#if !G16_CURVE_BN254  // sop needs p < 2^(32N−3): BLS12-381's Fp only
            dr = g16_dfp::sop(da, db, to_d<g16_dfp>(c), to_d<g16_dfp>(d));
            CHECK(memcmp(&dr, &r, sizeof r) == 0, "fp sop differs at iteration %d", it);
#endif
            g16_fp_mul(&r, &a, &b);
            g16_fp_sub(&r, &r, &t);
            dr = g16_mul_sub(da, db, to_d<g16_dfp>(c), to_d<g16_dfp>(d));
            CHECK(memcmp(&dr, &r, sizeof r) == 0, "fp a*b - c*d differs at iteration %d", it);
        }
        g16_fp_add(&r, &a, &b);
        dr = da + db;
        CHECK(memcmp(&dr, &r, sizeof r) == 0, "fp add differs at iteration %d", it);
        g16_fp_sub(&r, &a, &b);
        dr = da - db;
        CHECK(memcmp(&dr, &r, sizeof r) == 0, "fp sub differs at iteration %d", it);
        g16_dfr dx = to_d<g16_dfr>(x), dy = to_d<g16_dfr>(y), dz;
        g16_fr_mul(&z, &x, &y);
        dz = dx * dy;
        CHECK(memcmp(&dz, &z, sizeof z) == 0, "fr mul differs at iteration %d", it);
        g16_fr_sqr(&z, &x);
        dz = dx.sqr();
        CHECK(memcmp(&dz, &z, sizeof z) == 0, "fr sqr differs at iteration %d", it);
        g16_fr_sub(&z, &x, &y);
        dz = dx - dy;
        CHECK(memcmp(&dz, &z, sizeof z) == 0, "fr sub differs at iteration %d", it);
        g16_fr_add(&z, &x, &y);
        dz = dx + dy;
        CHECK(memcmp(&dz, &z, sizeof z) == 0, "fr add differs at iteration %d", it);
        {
            g16_fp2 p = {a, b}, q = {b, a}, s;
            g16_fp2_mul(&s, &p, &q);
            g16_dfp2 ds = to_d<g16_dfp2>(p) * to_d<g16_dfp2>(q);
            CHECK(memcmp(&ds, &s, sizeof s) == 0, "fp2 mul differs at iteration %d", it);
            g16_fp2_sqr(&s, &p);
            ds = to_d<g16_dfp2>(p).sqr();
            CHECK(memcmp(&ds, &s, sizeof s) == 0, "fp2 sqr differs at iteration %d", it);
            // the inlined type of the G2 accumulation kernels (field.cuh)
            g16_dfp2_hot dh = to_d<g16_dfp2_hot>(p) * to_d<g16_dfp2_hot>(q);
            g16_fp2_mul(&s, &p, &q);
            CHECK(memcmp(&dh, &s, sizeof s) == 0, "fp2 mul (inlined type) differs at iteration %d", it);
            dh = to_d<g16_dfp2_hot>(p).sqr();
            g16_fp2_sqr(&s, &p);
            CHECK(memcmp(&dh, &s, sizeof s) == 0, "fp2 sqr (inlined type) differs at iteration %d", it);
        }
    }
    // The dedicated squaring's carries: limbs of 0 and 0xffffffff (every product's
    // high word and every chain's carry at their largest), then below p and below
    // p by a little (the top limbs of p itself), in Montgomery form as stored.
    for (int it = 0; it < 4000; it++) {
        uint32_t w[NW];
        for (int k = 0; k < NW; k++) {
            uint64_t r = g16_rng_u64(&rng);
            w[k] = (r & 3) == 0 ? 0u : (r & 3) == 1 ? (uint32_t)(r >> 32) : 0xffffffffu;
        }
        g16_dfp d;
        for (int k = 0; k < NW; k++) d.l[k] = w[k];
        if (it & 1) {  // just below p: p − (a value below 2^32·k)
            g16_dfp pm;
            for (int k = 0; k < NW; k++) pm.l[k] = g16_fp_params::mod(k);
            for (int k = 1 + (it >> 1) % (NW - 1); k < NW; k++) d.l[k] = 0;
            d = pm - d;  // d < p so this is p − d < p
        } else {
            d.l[NW - 1] &= 0x0fffffffu;  // below p
        }
        g16_fp h;
        memcpy(&h, &d, sizeof h);
        g16_fp r;
        g16_fp_sqr(&r, &h);
        g16_dfp ds = d.sqr();
        CHECK(memcmp(&ds, &r, sizeof r) == 0, "fp sqr of a carry pattern differs at iteration %d", it);
#if !G16_CURVE_BN254
        g16_fp_add(&r, &r, &r);
        ds = g16_dfp::sop(d, d, d, d);  // 2·d², every chain's carries at their largest
        CHECK(memcmp(&ds, &r, sizeof r) == 0, "fp sop of a carry pattern differs at iteration %d", it);
#endif
        // products of two patterns (every chain's carries at their largest, in both
        // operands), and Fp2 products of them (the Karatsuba half sums a0 + a1 of two
        // patterns carry their largest too)
        {
            static g16_dfp prev;  // the previous iteration's pattern (0 at first)
            g16_fp hp;
            memcpy(&hp, &prev, sizeof hp);
            g16_fp_mul(&r, &h, &hp);
            ds = d * prev;
            CHECK(memcmp(&ds, &r, sizeof r) == 0, "fp mul of carry patterns differs at iteration %d", it);
            g16_fp_mul(&r, &h, &h);
            ds = d * d;
            CHECK(memcmp(&ds, &r, sizeof r) == 0, "fp mul of a carry pattern by itself differs at iteration %d", it);
            g16_fp2 p2 = {h, hp}, q2 = {hp, h}, s2;
            if (it & 2) q2 = p2;
            g16_fp2_mul(&s2, &p2, &q2);
            g16_dfp2 d2 = to_d<g16_dfp2>(p2) * to_d<g16_dfp2>(q2);
            CHECK(memcmp(&d2, &s2, sizeof s2) == 0, "fp2 mul of carry patterns differs at iteration %d", it);
            g16_dfp2_hot dh2 = to_d<g16_dfp2_hot>(p2) * to_d<g16_dfp2_hot>(q2);
            CHECK(memcmp(&dh2, &s2, sizeof s2) == 0, "fp2 mul (inlined type) of carry patterns differs at iteration %d", it);
            prev = d;
        }
        g16_dfr x;
        for (int k = 0; k < 8; k++) x.l[k] = w[k];
        x.l[7] &= (uint32_t)(FR_TOP_MASK >> 32);  // below r
        g16_fr hx, z;
        memcpy(&hx, &x, sizeof hx);
        g16_fr_sqr(&z, &hx);
        g16_dfr xs = x.sqr();
        CHECK(memcmp(&xs, &z, sizeof z) == 0, "fr sqr of a carry pattern differs at iteration %d", it);
    }
    // Points: XYZZ sums of multiples of the generator, incl. P + P, P - P and O.
    g16_g1_jac gj;
    g16_g1_jac_generator(&gj);
    g16_g1_affine pts[8];
    g16_g1_jac acc = gj;
    for (int i = 0; i < 8; i++) {
        g16_g1_jac_to_affine(&pts[i], &acc);
        g16_g1_jac_add(&acc, &acc, &gj);  // pts[i] = (i+1)·G
    }
    g16_dg1_xyzz s = g16_dg1_xyzz::inf();
    for (int i = 0; i < 8; i++) s = s.add_affine(to_d<g16_dg1_aff>(pts[i]));   // 36 G
    s = s.add_affine(to_d<g16_dg1_aff>(pts[0]), true);                          // 35 G
    s = s.add(s);                                                               // 70 G
    g16_dg1_xyzz t = g16_dg1_xyzz::from_affine(to_d<g16_dg1_aff>(pts[1]));
    t = t.add_affine(to_d<g16_dg1_aff>(pts[1]));                                // 4 G (doubling)
    t = t.add_affine(to_d<g16_dg1_aff>(pts[3]), true);                          // O
    CHECK(t.is_inf(), "4G - 4G is not infinity");
    s = s.add(t).dbl();                                                         // 140 G
    g16_djac<g16_dfp> sj = s.to_jac();
    g16_g1_jac want, got;
    uint64_t k[4] = {140, 0, 0, 0};
    g16_g1_mul(&want, &gj, k);
    memcpy(&got, &sj, sizeof got);
    CHECK(g16_g1_jac_eq(&want, &got), "XYZZ chain != 140 G");

    // Affine pair additions around a shared inversion (the batch-affine MSM mode):
    // general, doubling, cancellation and infinity on either side, against the CPU.
    {
        const g16_dg1_aff inf = {g16_dfp::zero(), g16_dfp::zero()};
        g16_dg1_aff neg3 = to_d<g16_dg1_aff>(pts[2]);
        neg3.y = neg3.y.neg();
        struct { g16_dg1_aff p, q; int kind; uint64_t want; bool want_inf; } cases[] = {
            {to_d<g16_dg1_aff>(pts[2]), to_d<g16_dg1_aff>(pts[4]), 0, 8, false},  // 3G + 5G
            {to_d<g16_dg1_aff>(pts[6]), to_d<g16_dg1_aff>(pts[6]), 1, 14, false}, // 7G + 7G
            {to_d<g16_dg1_aff>(pts[2]), neg3, 2, 0, true},                        // 3G − 3G
            {inf, to_d<g16_dg1_aff>(pts[1]), 2, 2, false},                        // O + 2G
            {to_d<g16_dg1_aff>(pts[1]), inf, 2, 2, false},                        // 2G + O
            {inf, inf, 2, 0, true},                                               // O + O
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            g16_dfp d;
            int kind = g16_daff_add_den(&d, cases[c].p, cases[c].q);
            CHECK(kind == cases[c].kind && !d.is_zero(), "affine pair %zu: kind %d (want %d)", c, kind,
                  cases[c].kind);
            g16_dg1_aff r = g16_daff_add_fin(cases[c].p, cases[c].q, d.inv(), kind);
            if (cases[c].want_inf) {
                CHECK(r.is_inf(), "affine pair %zu: not infinity", c);
                continue;
            }
            g16_g1_affine ra;
            memcpy(&ra, &r, sizeof ra);
            g16_g1_jac w;
            uint64_t kk[4] = {cases[c].want, 0, 0, 0};
            g16_g1_mul(&w, &gj, kk);
            CHECK(g16_g1_jac_eq_affine(&w, &ra), "affine pair %zu: not %llu G", c,
                  (unsigned long long)cases[c].want);
        }
    }

    // Inversion (Fermat) against the CPU's, incl. 0 -> 0 and 1 -> 1.
    for (int it = 0; it < 40; it++) {
        g16_fp a, ai;
        g16_fr b, bi;
        if (it == 0) g16_fp_set_zero(&a), g16_fr_set_zero(&b);
        else if (it == 1) g16_fp_set_one(&a), g16_fr_set_one(&b);
        else rand_fp(&a, &rng), rand_fr(&b, &rng);
        g16_dfp da = to_d<g16_dfp>(a).inv();
        g16_dfr db = to_d<g16_dfr>(b).inv();
        if (it == 0) {
            CHECK(da.is_zero() && db.is_zero(), "inverse of 0 is not 0");
            continue;
        }
        g16_fp_inv(&ai, &a);
        g16_fr_inv(&bi, &b);
        CHECK(memcmp(&da, &ai, sizeof ai) == 0, "fp inv differs at iteration %d", it);
        CHECK(memcmp(&db, &bi, sizeof bi) == 0, "fr inv differs at iteration %d", it);
    }
    // The folded MSM's shifted copies: 2^(c·k)·P by c·k doublings, then affine,
    // against the CPU's scalar multiplication; infinity stays (0, 0).
    {
        g16_g1_affine p = pts[6];  // 7 G
        const unsigned c = 22, kk = 3;
        g16_dg1_xyzz sh = g16_dxyzz_shift(g16_dg1_xyzz::from_affine(to_d<g16_dg1_aff>(p)), c * kk);
        g16_dg1_aff da;
        g16_dfp scratch[6];
        g16_dxyzz_batch_affine(&da, &sh, 1, scratch);
        g16_g1_jac pj, wj;
        g16_g1_jac_from_affine(&pj, &p);
        uint64_t e[4] = {0, 0, 0, 0};
        e[(c * kk) / 64] = 1ull << ((c * kk) % 64);
        g16_g1_mul(&wj, &pj, e);
        g16_g1_affine wa;
        g16_g1_jac_to_affine(&wa, &wj);
        CHECK(memcmp(&da, &wa, sizeof wa) == 0, "2^66 * 7G through shift + affine conversion differs");
        g16_dg1_xyzz zi = g16_dxyzz_shift(g16_dg1_xyzz::inf(), 5);
        g16_dg1_aff z;
        g16_dxyzz_batch_affine(&z, &zi, 1, scratch);
        CHECK(z.is_inf(), "shifted infinity is not (0, 0)");
        // the batch conversion (one inversion for six points) against the CPU's
        // one-by-one conversion of the same points, infinity included
        g16_dg1_xyzz q[6];
        g16_dg1_aff batch[6];
        g16_g1_affine cpu[6];
        for (int j = 0; j < 6; j++) {
            q[j] = j == 2 ? g16_dg1_xyzz::inf()
                          : g16_dxyzz_shift(g16_dg1_xyzz::from_affine(to_d<g16_dg1_aff>(pts[j])), 3 + j);
            g16_djac<g16_dfp> qj = q[j].to_jac();
            g16_g1_jac cj;
            memcpy(&cj, &qj, sizeof cj);
            g16_g1_jac_to_affine(&cpu[j], &cj);
        }
        g16_dxyzz_batch_affine(batch, q, 6, scratch);
        CHECK(memcmp(batch, cpu, sizeof batch) == 0, "batch affine differs from the CPU's conversion");
        CHECK(batch[2].is_inf(), "batch affine of infinity");
    }
    return g16_test_finish("host_field");
}
