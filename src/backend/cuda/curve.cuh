// Device point arithmetic for G1 (F = g16_dfp) and G2 (F = g16_dfp2), one template.
// Layouts equal the CPU's (curve/point.h): affine (x, y) with (0, 0) = infinity;
// XYZZ (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ), ZZ = 0 at infinity; Jacobian Z = 0 at
// infinity.  Formulas: EFD add-2008-s, madd-2008-s, dbl-2008-s-1, mdbl-2008-s-1
// (a = 0); every special case (infinity, P = Q, P = -Q) is handled, so buckets may
// receive any multiset of subgroup points.
#ifndef G16_BACKEND_CUDA_CURVE_CUH
#define G16_BACKEND_CUDA_CURVE_CUH

#include "field.cuh"

// Point operations are real calls on the device: inlining a dozen field
// multiplications into every caller made ptxas/cicc take many minutes per file
// (G2: ~40 Fp products per addition) for no measurable gain.
#define G16_PT __host__ __device__ __noinline__

template <class F>
struct g16_daff {
    F x, y;
    G16_HD bool is_inf() const { return x.is_zero() && y.is_zero(); }
};

template <class F>
struct g16_djac {
    F x, y, z;
};

template <class F>
struct g16_dxyzz {
    F x, y, zz, zzz;

    G16_HD static g16_dxyzz inf()
    {
        return {F::zero(), F::zero(), F::zero(), F::zero()};
    }
    G16_HD bool is_inf() const { return zz.is_zero(); }

    G16_HD static g16_dxyzz from_affine(const g16_daff<F> &q)
    {
        if (q.is_inf()) return inf();
        return {q.x, q.y, F::one(), F::one()};
    }

    // 2·q for affine q (mdbl-2008-s-1); y = 0 gives V = 0 hence infinity.
    G16_PT static g16_dxyzz dbl_affine(const g16_daff<F> &q)
    {
        F u = q.y.dbl(), v = u.sqr(), w = u * v, s = q.x * v;
        F xx = q.x.sqr(), m = xx.dbl() + xx;
        F x3 = m.sqr() - s.dbl();
        F y3 = g16_mul_sub(m, s - x3, w, q.y);
        return {x3, y3, v, w};
    }

    // 2·this (dbl-2008-s-1).
    G16_PT g16_dxyzz dbl() const
    {
        F u = y.dbl(), v = u.sqr(), w = u * v, s = x * v;
        F xx = x.sqr(), m = xx.dbl() + xx;
        F x3 = m.sqr() - s.dbl();
        F y3 = g16_mul_sub(m, s - x3, w, y);
        return {x3, y3, v * zz, w * zzz};
    }

    // this + q for affine q (madd-2008-s); `negate` adds -q instead (signed digits).
    G16_PT g16_dxyzz add_affine(const g16_daff<F> &q0, bool negate = false) const
    {
        return add_affine_inl(q0, negate);
    }
    G16_HD g16_dxyzz add_affine_inl(const g16_daff<F> &q0, bool negate = false) const
    {
        g16_daff<F> q = q0;
        if (q.is_inf()) return *this;
        if (negate) q.y = q.y.neg();
        if (is_inf()) return {q.x, q.y, F::one(), F::one()};
        F u2 = q.x * zz, s2 = q.y * zzz;
        F p = u2 - x, r = s2 - y;
        if (p.is_zero()) {
            if (r.is_zero()) return dbl_affine(q);
            return inf();
        }
        F pp = p.sqr(), ppp = p * pp, qq = x * pp;
        F x3 = r.sqr() - ppp - qq.dbl();
        F y3 = g16_mul_sub(r, qq - x3, y, ppp);
        return {x3, y3, zz * pp, zzz * ppp};
    }

    // this + o (add-2008-s).
    G16_PT g16_dxyzz add(const g16_dxyzz &o) const
    {
        return add_inl(o);
    }
    G16_HD g16_dxyzz add_inl(const g16_dxyzz &o) const
    {
        if (o.is_inf()) return *this;
        if (is_inf()) return o;
        F u1 = x * o.zz, u2 = o.x * zz;
        F s1 = y * o.zzz, s2 = o.y * zzz;
        F p = u2 - u1, r = s2 - s1;
        if (p.is_zero()) {
            if (r.is_zero()) return dbl();
            return inf();
        }
        F pp = p.sqr(), ppp = p * pp, qq = u1 * pp;
        F x3 = r.sqr() - ppp - qq.dbl();
        F y3 = g16_mul_sub(r, qq - x3, s1, ppp);
        return {x3, y3, zz * o.zz * pp, zzz * o.zzz * ppp};
    }

    G16_HD g16_dxyzz neg() const { return {x, y.neg(), zz, zzz}; }

    // Jacobian (X·ZZ², Y·ZZZ², ZZZ): x = X/ZZ and y = Y/ZZZ because ZZZ² = ZZ³;
    // infinity (ZZ = ZZZ = 0) maps to Z = 0.
    G16_PT g16_djac<F> to_jac() const
    {
        if (is_inf()) return {F::one(), F::one(), F::zero()};
        return {x * zz.sqr(), y * zzz.sqr(), zzz};
    }
};

// 2^bits · a (the shifted copies of folded MSM bases).
template <class F>
G16_HD g16_dxyzz<F> g16_dxyzz_shift(g16_dxyzz<F> a, unsigned bits)
{
    for (unsigned j = 0; j < bits; j++) a = a.dbl();
    return a;
}

// Affine forms (X/ZZ, Y/ZZZ) of m XYZZ points with ONE inversion: Montgomery's trick
// over the products d = ZZ·ZZZ, then 1/ZZ = ZZZ/d and 1/ZZZ = ZZ/d; infinities give
// (0, 0) and stay out of the chain.  scratch: m field elements.  9 products a point
// besides the shared inversion (F::inv is Fermat: slow, for one-off conversions).
template <class F>
G16_HD void g16_dxyzz_batch_affine(g16_daff<F> *out, const g16_dxyzz<F> *in, int m, F *scratch)
{
    F acc = F::one();
    for (int i = 0; i < m; i++) {
        scratch[i] = acc;  // the product of the denominators before i
        if (!in[i].is_inf()) acc = acc * (in[i].zz * in[i].zzz);
    }
    F inv = acc.inv();
    for (int i = m - 1; i >= 0; i--) {
        if (in[i].is_inf()) {
            out[i] = {F::zero(), F::zero()};
            continue;
        }
        F d = in[i].zz * in[i].zzz, t = inv * scratch[i];  // t = 1/d
        inv = inv * d;
        out[i] = {in[i].x * (t * in[i].zzz), in[i].y * (t * in[i].zz)};
    }
}

// Affine P + Q in two halves around a shared (batched) inversion: g16_daff_add_den
// gives the denominator d (never 0) and the kind of sum, g16_daff_add_fin the sum
// from 1/d.  Kinds: 0 general (d = xQ − xP), 1 doubling (d = 2·yP; yP ≠ 0 for points
// of odd order), 2 no product needed (d = 1: one side at infinity, or Q = −P).
template <class F>
G16_HD int g16_daff_add_den(F *d, const g16_daff<F> &p, const g16_daff<F> &q)
{
    if (p.is_inf() || q.is_inf()) {
        *d = F::one();
        return 2;
    }
    F dx = q.x - p.x;
    if (!dx.is_zero()) {
        *d = dx;
        return 0;
    }
    if (q.y.eq(p.y)) {
        *d = p.y.dbl();
        return 1;
    }
    *d = F::one();
    return 2;
}
template <class F>
G16_HD g16_daff<F> g16_daff_add_fin(const g16_daff<F> &p, const g16_daff<F> &q, const F &inv, int kind)
{
    if (kind == 2) {
        if (p.is_inf()) return q;
        if (q.is_inf()) return p;
        return {F::zero(), F::zero()};  // Q = −P
    }
    F lam;
    if (kind == 0) {
        lam = (q.y - p.y) * inv;
    } else {
        F xx = p.x.sqr();
        lam = (xx.dbl() + xx) * inv;  // 3x²/(2y)
    }
    F x3 = lam.sqr() - p.x - q.x;
    return {x3, lam * (p.x - x3) - p.y};
}

typedef g16_daff<g16_dfp> g16_dg1_aff;
typedef g16_dxyzz<g16_dfp> g16_dg1_xyzz;
typedef g16_daff<g16_dfp2> g16_dg2_aff;
typedef g16_dxyzz<g16_dfp2> g16_dg2_xyzz;

#endif
