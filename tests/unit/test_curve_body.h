/* Group-law, scalar-multiplication, subgroup and encoding tests written once and
 * instantiated for G1 and G2 by test_curve_group.c (like src/curve/curve_impl.h).
 * The includer defines CV(name), FE(name), FE_T, AFF, JAC, XYZZ, GNAME, ENC_C,
 * ENC_U and rand_fe(g16_rng *, FE_T *). */
#include <string.h>

#define T(name) CV(test_##name)

/* A random point of the curve that is (almost surely) NOT in the subgroup:
 * random x until x³ + b is a square; the cofactor is not cleared. */
static void T(rand_curve_point)(g16_rng *rng, AFF *p)
{
    for (;;) {
        AFF gen;
        FE_T rhs, y;
        CV(affine_generator)(&gen);
        rand_fe(rng, &p->x);
        /* b = y_G² − x_G³, taken from the generator so the test does not reuse
         * the library's constant */
        FE_T b, t;
        FE(sqr)(&b, &gen.y);
        FE(sqr)(&t, &gen.x);
        FE(mul)(&t, &t, &gen.x);
        FE(sub)(&b, &b, &t);
        FE(sqr)(&rhs, &p->x);
        FE(mul)(&rhs, &rhs, &p->x);
        FE(add)(&rhs, &rhs, &b);
        if (FE(sqrt)(&y, &rhs)) {
            p->y = y;
            return;
        }
    }
}

static void T(rand_scalar)(g16_rng *rng, uint64_t k[4])
{
    for (int i = 0; i < 4; i++) k[i] = g16_rng_u64(rng);
}

/* k·G through the plain NAF path (no endomorphism) */
static void T(rand_subgroup_point)(g16_rng *rng, JAC *p)
{
    uint64_t k[4];
    JAC g;
    T(rand_scalar)(rng, k);
    CV(jac_generator)(&g);
    CV(mul_limbs)(p, &g, k, 4);
}

static int T(is_order_r)(const JAC *p)
{
    JAC t;
    CV(mul_limbs)(&t, p, g16_curve_order, 4);
    return CV(jac_is_infinity)(&t);
}

static void T(constants)(void)
{
    AFF g;
    JAC gj;
    CV(affine_generator)(&g);
    CV(jac_generator)(&gj);
    CHECK(!CV(affine_is_infinity)(&g), "%s generator is O", GNAME);
    CHECK(CV(affine_on_curve)(&g), "%s generator off the curve", GNAME);
    CHECK(CV(jac_eq_affine)(&gj, &g), "%s jac generator differs", GNAME);
    CHECK(T(is_order_r)(&gj), "%s r·G != O", GNAME);
    CHECK(CV(jac_in_subgroup)(&gj), "%s G not in subgroup", GNAME);
    AFF o;
    CV(affine_set_infinity)(&o);
    CHECK(CV(affine_on_curve)(&o) && CV(affine_in_subgroup)(&o), "%s O rejected", GNAME);
}

/* Every path to 2P and P + Q agrees, on subgroup points and on points outside it. */
static void T(group_laws)(g16_rng *rng, int in_subgroup)
{
    JAC p, q, s, a, b, c, o;
    AFF pa, qa, ta;
    XYZZ px, qx, x1, x2;
    if (in_subgroup) {
        T(rand_subgroup_point)(rng, &p);
        T(rand_subgroup_point)(rng, &q);
        T(rand_subgroup_point)(rng, &s);
    } else {
        T(rand_curve_point)(rng, &pa); CV(jac_from_affine)(&p, &pa);
        T(rand_curve_point)(rng, &qa); CV(jac_from_affine)(&q, &qa);
        T(rand_curve_point)(rng, &ta); CV(jac_from_affine)(&s, &ta);
        /* give them nontrivial Z */
        CV(jac_dbl)(&p, &p); CV(jac_dbl)(&q, &q); CV(jac_dbl)(&s, &s);
    }
    CV(jac_set_infinity)(&o);
    CV(jac_to_affine)(&pa, &p);
    CV(jac_to_affine)(&qa, &q);
    CV(jac_to_xyzz)(&px, &p);
    CV(jac_to_xyzz)(&qx, &q);
    CHECK(CV(jac_on_curve)(&p) && CV(affine_on_curve)(&pa), "%s point off curve", GNAME);

    /* commutativity, associativity */
    CV(jac_add)(&a, &p, &q);
    CV(jac_add)(&b, &q, &p);
    CHECK(CV(jac_eq)(&a, &b), "%s P+Q != Q+P", GNAME);
    CHECK(CV(jac_on_curve)(&a), "%s P+Q off curve", GNAME);
    CV(jac_add)(&a, &a, &s);
    CV(jac_add)(&b, &q, &s);
    CV(jac_add)(&b, &p, &b);
    CHECK(CV(jac_eq)(&a, &b), "%s (P+Q)+S != P+(Q+S)", GNAME);

    /* identity and inverse */
    CV(jac_add)(&a, &p, &o);
    CV(jac_add)(&b, &o, &p);
    CHECK(CV(jac_eq)(&a, &p) && CV(jac_eq)(&b, &p), "%s P+O != P", GNAME);
    CV(jac_neg)(&a, &p);
    CV(jac_add)(&a, &p, &a);
    CHECK(CV(jac_is_infinity)(&a), "%s P-P != O", GNAME);
    AFF na;
    CV(affine_neg)(&na, &pa);
    CV(jac_add_affine)(&a, &p, &na);
    CHECK(CV(jac_is_infinity)(&a), "%s P+(-P) mixed != O", GNAME);
    CV(xyzz_add_affine)(&x1, &px, &na);
    CHECK(CV(xyzz_is_infinity)(&x1), "%s xyzz P+(-P) != O", GNAME);
    CV(xyzz_sub_affine)(&x1, &px, &pa);
    CHECK(CV(xyzz_is_infinity)(&x1), "%s xyzz P-P != O", GNAME);
    CV(xyzz_neg)(&x2, &px);
    CV(xyzz_add)(&x1, &px, &x2);
    CHECK(CV(xyzz_is_infinity)(&x1), "%s xyzz P+(-P) full != O", GNAME);

    /* 2P along every path */
    JAC d;
    CV(jac_dbl)(&d, &p);
    CV(jac_add)(&a, &p, &p);
    CHECK(CV(jac_eq)(&a, &d), "%s P+P != 2P (jac)", GNAME);
    CV(jac_add_affine)(&a, &p, &pa);
    CHECK(CV(jac_eq)(&a, &d), "%s P+P != 2P (mixed)", GNAME);
    CV(xyzz_dbl)(&x1, &px);
    CV(xyzz_to_jac)(&a, &x1);
    CHECK(CV(jac_eq)(&a, &d), "%s xyzz dbl != 2P", GNAME);
    CV(xyzz_add)(&x1, &px, &px);
    CV(xyzz_to_jac)(&a, &x1);
    CHECK(CV(jac_eq)(&a, &d), "%s xyzz P+P != 2P", GNAME);
    CV(xyzz_add_affine)(&x1, &px, &pa);
    CV(xyzz_to_jac)(&a, &x1);
    CHECK(CV(jac_eq)(&a, &d), "%s xyzz mixed P+P != 2P", GNAME);
    CV(xyzz_neg)(&x2, &px);
    CV(xyzz_sub_affine)(&x1, &x2, &pa);
    CV(xyzz_to_jac)(&a, &x1);
    CV(jac_neg)(&b, &d);
    CHECK(CV(jac_eq)(&a, &b), "%s xyzz (-P)-P != -2P", GNAME);
    /* an affine double starting from a non-trivial xyzz scaling */
    XYZZ p2x;
    CV(xyzz_dbl)(&p2x, &px);
    CV(jac_dbl)(&c, &d);
    AFF da;
    CV(jac_to_affine)(&da, &d);
    CV(xyzz_add_affine)(&x1, &p2x, &da);
    CV(xyzz_to_jac)(&a, &x1);
    CHECK(CV(jac_eq)(&a, &c), "%s xyzz 2P+2P (mixed, scaled) != 4P", GNAME);

    /* P + Q along every path */
    CV(jac_add)(&c, &p, &q);
    CV(jac_add_affine)(&a, &p, &qa);
    CHECK(CV(jac_eq)(&a, &c), "%s mixed add", GNAME);
    CV(xyzz_add)(&x1, &px, &qx);
    CV(xyzz_to_jac)(&a, &x1);
    CHECK(CV(jac_eq)(&a, &c), "%s xyzz add", GNAME);
    CV(xyzz_add_affine)(&x1, &px, &qa);
    CHECK(CV(xyzz_eq)(&x1, &x1), "%s xyzz_eq reflexive", GNAME);
    CV(xyzz_to_jac)(&a, &x1);
    CHECK(CV(jac_eq)(&a, &c), "%s xyzz mixed add", GNAME);
    AFF nq;
    CV(affine_neg)(&nq, &qa);
    CV(xyzz_sub_affine)(&x2, &x1, &qa);
    CV(xyzz_to_affine)(&ta, &x2);
    CHECK(CV(affine_eq)(&ta, &pa), "%s xyzz (P+Q)-Q != P", GNAME);
    CV(xyzz_add_affine)(&x2, &x1, &nq);
    CV(xyzz_to_affine)(&ta, &x2);
    CHECK(CV(affine_eq)(&ta, &pa), "%s xyzz (P+Q)+(-Q) != P", GNAME);

    /* infinity operands of the mixed forms */
    AFF oa;
    XYZZ ox;
    CV(affine_set_infinity)(&oa);
    CV(xyzz_set_infinity)(&ox);
    CV(jac_add_affine)(&a, &o, &qa);
    CHECK(CV(jac_eq)(&a, &q), "%s O+Q mixed", GNAME);
    CV(jac_add_affine)(&a, &p, &oa);
    CHECK(CV(jac_eq)(&a, &p), "%s P+O mixed", GNAME);
    CV(xyzz_add_affine)(&x1, &ox, &qa);
    CHECK(CV(xyzz_eq)(&x1, &qx), "%s xyzz O+Q", GNAME);
    CV(xyzz_add_affine)(&x1, &px, &oa);
    CHECK(CV(xyzz_eq)(&x1, &px), "%s xyzz P+O", GNAME);
    CV(xyzz_add)(&x1, &ox, &qx);
    CHECK(CV(xyzz_eq)(&x1, &qx), "%s xyzz O+Q full", GNAME);
    CV(xyzz_dbl)(&x1, &ox);
    CHECK(CV(xyzz_is_infinity)(&x1), "%s xyzz 2O", GNAME);
    CV(jac_dbl)(&a, &o);
    CHECK(CV(jac_is_infinity)(&a), "%s jac 2O", GNAME);
    CHECK(!CV(jac_eq)(&p, &o) && !CV(jac_eq)(&o, &p), "%s P == O", GNAME);
    CHECK(!CV(jac_eq)(&p, &q), "%s P == Q", GNAME);
    CV(xyzz_to_affine)(&ta, &ox);
    CHECK(CV(affine_is_infinity)(&ta), "%s xyzz O to affine", GNAME);
    CV(jac_to_affine)(&ta, &o);
    CHECK(CV(affine_is_infinity)(&ta), "%s jac O to affine", GNAME);
}

static void T(batch)(g16_rng *rng)
{
    enum { N = 9 };
    JAC j[N];
    XYZZ x[N];
    AFF out[N], one;
    for (int i = 0; i < N; i++) {
        if (i == 0 || i == 4 || i == N - 1) {
            CV(jac_set_infinity)(&j[i]);
        } else {
            T(rand_subgroup_point)(rng, &j[i]);
        }
        CV(jac_to_xyzz)(&x[i], &j[i]);
        CV(xyzz_dbl)(&x[i], &x[i]);   /* a scaling unlike the Jacobian one */
    }
    CV(jac_batch_to_affine)(out, j, N);
    for (int i = 0; i < N; i++) {
        CV(jac_to_affine)(&one, &j[i]);
        CHECK(CV(affine_eq)(&out[i], &one), "%s jac batch %d", GNAME, i);
        CHECK(CV(jac_eq_affine)(&j[i], &out[i]), "%s jac batch eq %d", GNAME, i);
    }
    CV(xyzz_batch_to_affine)(out, x, N);
    for (int i = 0; i < N; i++) {
        JAC d;
        CV(jac_dbl)(&d, &j[i]);
        CV(xyzz_to_affine)(&one, &x[i]);
        CHECK(CV(affine_eq)(&out[i], &one), "%s xyzz batch %d", GNAME, i);
        CHECK(CV(jac_eq_affine)(&d, &out[i]), "%s xyzz batch value %d", GNAME, i);
    }
    CV(jac_batch_to_affine)(out, j, 0);
    CV(jac_batch_to_affine)(out, j, 1);
    CHECK(CV(affine_is_infinity)(&out[0]), "%s batch of one O", GNAME);
}

/* 256-bit a + b (both < 2^254) and 128×128 → 256-bit products, done here by
 * schoolbook so the test does not lean on the library's scalar handling. */
static void T(add256)(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    unsigned __int128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (unsigned __int128)a[i] + b[i];
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

static void T(mul128)(uint64_t r[4], const uint64_t a[2], const uint64_t b[2])
{
    memset(r, 0, 4 * sizeof *r);
    for (int i = 0; i < 2; i++) {
        unsigned __int128 c = 0;
        for (int j = 0; j < 2; j++) {
            c += (unsigned __int128)a[i] * b[j] + r[i + j];
            r[i + j] = (uint64_t)c;
            c >>= 64;
        }
        r[i + 2] = (uint64_t)c;
    }
}

static void T(scalar_mult)(g16_rng *rng)
{
    JAC p, a, b, c;
    uint64_t ka[4], kb[4], ks[4];
    T(rand_subgroup_point)(rng, &p);

    /* (a + b)P = aP + bP */
    T(rand_scalar)(rng, ka);
    T(rand_scalar)(rng, kb);
    ka[3] >>= 2;
    kb[3] >>= 2;
    T(add256)(ks, ka, kb);
    CV(mul)(&a, &p, ka);
    CV(mul)(&b, &p, kb);
    CV(jac_add)(&a, &a, &b);
    CV(mul)(&c, &p, ks);
    CHECK(CV(jac_eq)(&a, &c), "%s (a+b)P != aP + bP (GLV)", GNAME);
    CV(mul_limbs)(&a, &p, ka, 4);
    CV(mul_limbs)(&b, &p, kb, 4);
    CV(jac_add)(&a, &a, &b);
    CHECK(CV(jac_eq)(&a, &c), "%s (a+b)P != aP + bP (NAF)", GNAME);

    /* (ab)P = a(bP) */
    uint64_t s1[2] = {g16_rng_u64(rng), g16_rng_u64(rng)}, s2[2] = {g16_rng_u64(rng), g16_rng_u64(rng)};
    T(mul128)(ks, s1, s2);
    CV(mul)(&c, &p, ks);
    CV(mul_limbs)(&a, &p, s2, 2);
    CV(mul_limbs)(&a, &a, s1, 2);
    CHECK(CV(jac_eq)(&a, &c), "%s (ab)P != a(bP)", GNAME);

    /* GLV against the plain path on full-width scalars (many of them >= r) */
    for (int i = 0; i < 4; i++) {
        T(rand_scalar)(rng, ka);
        if (i == 0) ka[3] |= 1ULL << 63;
        CV(mul)(&a, &p, ka);
        CV(mul_limbs)(&b, &p, ka, 4);
        CHECK(CV(jac_eq)(&a, &b), "%s GLV != NAF for k[3]=%016llx", GNAME, (unsigned long long)ka[3]);
    }

    /* edge scalars */
    JAC o, np, d;
    CV(jac_set_infinity)(&o);
    CV(jac_neg)(&np, &p);
    CV(jac_dbl)(&d, &p);
    uint64_t k0[4] = {0}, k1[4] = {1}, k2[4] = {2}, rm1[4], kr[4];
    memcpy(kr, g16_curve_order, sizeof kr);
    memcpy(rm1, g16_curve_order, sizeof rm1);
    rm1[0] -= 1;
    uint64_t kmax[4] = {~0ULL, ~0ULL, ~0ULL, ~0ULL >> 1}; /* 2^255 − 1 */
    JAC e255 = p;
    for (int i = 0; i < 255; i++) CV(jac_dbl)(&e255, &e255);
    CV(jac_add)(&e255, &e255, &np);
    struct { const uint64_t *k; const JAC *want; const char *name; } edge[] = {
        {k0, &o, "0"}, {k1, &p, "1"}, {k2, &d, "2"}, {rm1, &np, "r-1"}, {kr, &o, "r"},
        {kmax, &e255, "2^255-1"}};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        CV(mul)(&a, &p, edge[i].k);
        CHECK(CV(jac_eq)(&a, edge[i].want), "%s mul by %s", GNAME, edge[i].name);
        CV(mul_limbs)(&a, &p, edge[i].k, 4);
        CHECK(CV(jac_eq)(&a, edge[i].want), "%s mul_limbs by %s", GNAME, edge[i].name);
    }
    CV(mul)(&a, &o, kmax);
    CHECK(CV(jac_is_infinity)(&a), "%s k·O != O", GNAME);
    /* aliasing r = p */
    a = p;
    CV(mul)(&a, &a, k2);
    CHECK(CV(jac_eq)(&a, &d), "%s mul in place", GNAME);
}

/* Fast subgroup test against the definition r·P = O, on points in and out. */
static void T(subgroup)(g16_rng *rng)
{
    int seen_in = 0, seen_out = 0;
    for (int i = 0; i < 6; i++) {
        AFF pa;
        JAC p, c;
        T(rand_curve_point)(rng, &pa);
        CV(jac_from_affine)(&p, &pa);
        int fast = CV(jac_in_subgroup)(&p), slow = T(is_order_r)(&p);
        CHECK(fast == slow, "%s subgroup fast %d slow %d (random)", GNAME, fast, slow);
        CHECK(CV(affine_in_subgroup)(&pa) == slow, "%s affine subgroup", GNAME);
        seen_in += slow;
        seen_out += !slow;
        CV(clear_cofactor)(&c, &p);
        fast = CV(jac_in_subgroup)(&c);
        slow = T(is_order_r)(&c);
        CHECK(fast && slow, "%s cleared point: fast %d slow %d", GNAME, fast, slow);
        CHECK(!CV(jac_is_infinity)(&c), "%s cleared to O", GNAME);
        seen_in += slow;
        /* a subgroup point plus a non-subgroup point is outside */
        CV(jac_add)(&c, &c, &p);
        if (!T(is_order_r)(&p)) CHECK(!CV(jac_in_subgroup)(&c), "%s sum accepted", GNAME);
    }
#ifdef COFACTOR_ONE /* BN254 G1: every point of the curve is in the subgroup */
    CHECK(seen_in > 0 && seen_out == 0, "%s subgroup test saw in=%d out=%d", GNAME, seen_in, seen_out);
#else
    CHECK(seen_in > 0 && seen_out > 0, "%s subgroup test saw in=%d out=%d", GNAME, seen_in, seen_out);
#endif
}

#if G16_CURVE_BN254
/* BN254 encodings (docs/curve.md): uncompressed x‖y with no flags and all-zero
 * infinity (Ethereum/snarkjs), compressed with gnark's top-two-bit flags. */
static void T(encodings)(g16_rng *rng)
{
    uint8_t c[ENC_C], u[ENC_U], bad[ENC_U + 1];
    AFF p, q, n;
    JAC pj;
    for (int i = 0; i < 4; i++) {
        T(rand_subgroup_point)(rng, &pj);
        CV(jac_to_affine)(&p, &pj);
        CV(encode_compressed)(c, &p);
        CV(encode_uncompressed)(u, &p);
        CHECK((c[0] & 0x80) == 0x80 && (u[0] & 0xc0) == 0, "%s flags", GNAME);
        CHECK(memcmp(c + 1, u + 1, ENC_C - 1) == 0 && (c[0] & 0x3f) == u[0], "%s x differs", GNAME);
        CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_OK && CV(affine_eq)(&p, &q), "%s compressed round trip", GNAME);
        CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_OK && CV(affine_eq)(&p, &q), "%s uncompressed round trip", GNAME);
        CV(affine_neg)(&n, &p);
        uint8_t cn[ENC_C];
        CV(encode_compressed)(cn, &n);
        CHECK((cn[0] ^ c[0]) == 0x40 && memcmp(cn + 1, c + 1, ENC_C - 1) == 0, "%s -P differs beyond sign", GNAME);
        g16_curve_point any;
        CHECK(g16_curve_decode_any(&any, c, ENC_C, 0) == G16_OK && any.group == GROUP && any.compressed
              && CV(affine_eq)(&p, &any.ANYF), "%s decode_any compressed", GNAME);
        CHECK(g16_curve_decode_any(&any, u, ENC_U, 0) == G16_OK && any.group == GROUP && !any.compressed
              && CV(affine_eq)(&p, &any.ANYF), "%s decode_any uncompressed", GNAME);

        CHECK(CV(decode)(&q, c, ENC_C - 1, 0) == G16_ERR_LENGTH, "%s short", GNAME);
        memcpy(bad, u, ENC_U);
        bad[ENC_U] = 0;
        CHECK(CV(decode)(&q, bad, ENC_U + 1, 0) == G16_ERR_LENGTH, "%s long", GNAME);
        memcpy(bad, c, ENC_C);
        bad[0] &= 0x3f;
        CHECK(CV(decode)(&q, bad, ENC_C, 0) == G16_ERR_FLAGS, "%s compressed without flags", GNAME);
        memcpy(bad, u, ENC_U);
        bad[0] |= 0x80;
        CHECK(CV(decode)(&q, bad, ENC_U, 0) == G16_ERR_FLAGS, "%s uncompressed with a flag", GNAME);
        memcpy(bad, u, ENC_U);
        bad[ENC_U - 1] ^= 1;
        CHECK(CV(decode)(&q, bad, ENC_U, 0) == G16_ERR_NOT_ON_CURVE, "%s y+1", GNAME);
        memcpy(bad, c, ENC_C);
        g16_limbs_to_be(bad, g16_fp_modulus, G16_FP_LIMBS);
        bad[0] |= 0x80;
        CHECK(CV(decode)(&q, bad, ENC_C, 0) == G16_ERR_NONCANONICAL, "%s x = p", GNAME);
        memcpy(bad, u, ENC_U);
        g16_limbs_to_be(bad + ENC_U - G16_FP_BYTES, g16_fp_modulus, G16_FP_LIMBS);
        bad[ENC_U - 1] += 1;
        CHECK(CV(decode)(&q, bad, ENC_U, 0) == G16_ERR_NONCANONICAL, "%s y = p+1", GNAME);
    }
    AFF o;
    CV(affine_set_infinity)(&o);
    CV(encode_compressed)(c, &o);
    CV(encode_uncompressed)(u, &o);
    int zero_rest = 1;
    for (int i = 1; i < ENC_C; i++) zero_rest &= c[i] == 0;
    for (int i = 0; i < ENC_U; i++) zero_rest &= u[i] == 0;
    CHECK(c[0] == 0x40 && zero_rest, "%s infinity bytes", GNAME);
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_OK && CV(affine_is_infinity)(&q), "%s O compressed", GNAME);
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_OK && CV(affine_is_infinity)(&q), "%s O uncompressed", GNAME);
    c[ENC_C - 1] = 1;
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_INFINITY, "%s O with x bits", GNAME);
    c[ENC_C - 1] = 0;
    c[0] = 0x41;
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_INFINITY, "%s O with low bits of byte 0", GNAME);
    u[ENC_U - 1] = 1; /* (0, 1): not infinity and not on the curve */
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_ERR_NOT_ON_CURVE, "%s (0, 1)", GNAME);

#ifndef COFACTOR_ONE
    T(rand_curve_point)(rng, &p);
    CV(jac_from_affine)(&pj, &p);
    CHECK(!T(is_order_r)(&pj), "%s random point in subgroup", GNAME);
    CV(encode_compressed)(c, &p);
    CV(encode_uncompressed)(u, &p);
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_NOT_IN_SUBGROUP, "%s subgroup compressed", GNAME);
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_ERR_NOT_IN_SUBGROUP, "%s subgroup uncompressed", GNAME);
    CHECK(CV(decode)(&q, c, ENC_C, G16_CURVE_NO_SUBGROUP_CHECK) == G16_OK && CV(affine_eq)(&p, &q),
          "%s no-subgroup decode", GNAME);
    CHECK(CV(decode)(&q, u, ENC_U, G16_CURVE_NO_SUBGROUP_CHECK) == G16_OK && CV(affine_eq)(&p, &q),
          "%s no-subgroup decode (u)", GNAME);
#endif

    for (;;) {
        FE_T x, rhs, y;
        AFF gen;
        rand_fe(rng, &x);
        CV(affine_generator)(&gen);
        FE(sqr)(&rhs, &gen.y);
        FE(sqr)(&y, &gen.x);
        FE(mul)(&y, &y, &gen.x);
        FE(sub)(&rhs, &rhs, &y);
        FE(sqr)(&y, &x);
        FE(mul)(&y, &y, &x);
        FE(add)(&rhs, &rhs, &y);
        if (FE(sqrt)(&y, &rhs)) continue;
        p.x = x;
        p.y = x;
        CV(encode_compressed)(c, &p);
        c[0] = (uint8_t)((c[0] & 0x3f) | 0x80);
        CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_NOT_ON_CURVE, "%s x without y", GNAME);
        break;
    }
}
#else
static void T(encodings)(g16_rng *rng)
{
    uint8_t c[ENC_C], u[ENC_U], bad[ENC_U + 1];
    AFF p, q, n;
    JAC pj;
    for (int i = 0; i < 4; i++) {
        T(rand_subgroup_point)(rng, &pj);
        CV(jac_to_affine)(&p, &pj);
        CV(encode_compressed)(c, &p);
        CV(encode_uncompressed)(u, &p);
        CHECK((c[0] & 0xc0) == 0x80 && (u[0] & 0xe0) == 0, "%s flags", GNAME);
        CHECK(memcmp(c + 1, u + 1, ENC_C - 1) == 0 && (c[0] & 0x1f) == u[0], "%s x differs", GNAME);
        CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_OK && CV(affine_eq)(&p, &q), "%s compressed round trip", GNAME);
        CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_OK && CV(affine_eq)(&p, &q), "%s uncompressed round trip", GNAME);
        CV(affine_neg)(&n, &p);
        uint8_t cn[ENC_C];
        CV(encode_compressed)(cn, &n);
        CHECK((cn[0] ^ c[0]) == 0x20 && memcmp(cn + 1, c + 1, ENC_C - 1) == 0, "%s -P differs beyond sign", GNAME);
        g16_curve_point any;
        CHECK(g16_curve_decode_any(&any, c, ENC_C, 0) == G16_OK && any.group == GROUP && any.compressed
              && CV(affine_eq)(&p, &any.ANYF), "%s decode_any compressed", GNAME);
        CHECK(g16_curve_decode_any(&any, u, ENC_U, 0) == G16_OK && any.group == GROUP && !any.compressed
              && CV(affine_eq)(&p, &any.ANYF), "%s decode_any uncompressed", GNAME);

        /* each rejection reason */
        CHECK(CV(decode)(&q, c, ENC_C - 1, 0) == G16_ERR_LENGTH, "%s short", GNAME);
        memcpy(bad, u, ENC_U);
        bad[ENC_U] = 0;
        CHECK(CV(decode)(&q, bad, ENC_U + 1, 0) == G16_ERR_LENGTH, "%s long", GNAME);
        CHECK(CV(decode)(&q, c, 0, 0) == G16_ERR_LENGTH, "%s empty", GNAME);
        memcpy(bad, c, ENC_C);
        bad[0] &= 0x7f;
        CHECK(CV(decode)(&q, bad, ENC_C, 0) == G16_ERR_FLAGS, "%s compressed without C", GNAME);
        memcpy(bad, u, ENC_U);
        bad[0] |= 0x20;
        CHECK(CV(decode)(&q, bad, ENC_U, 0) == G16_ERR_FLAGS, "%s uncompressed with S", GNAME);
        memcpy(bad, u, ENC_U);
        bad[ENC_U - 1] ^= 1;
        CHECK(CV(decode)(&q, bad, ENC_U, 0) == G16_ERR_NOT_ON_CURVE, "%s y+1", GNAME);
        /* x.(top component) = p: noncanonical */
        memcpy(bad, c, ENC_C);
        g16_limbs_to_be(bad, g16_fp_modulus, G16_FP_LIMBS);
        bad[0] |= 0x80;
        CHECK(CV(decode)(&q, bad, ENC_C, 0) == G16_ERR_NONCANONICAL, "%s x = p", GNAME);
        memcpy(bad, u, ENC_U);
        g16_limbs_to_be(bad + ENC_U - G16_FP_BYTES, g16_fp_modulus, G16_FP_LIMBS);
        bad[ENC_U - 1] += 1; /* p + 1 */
        CHECK(CV(decode)(&q, bad, ENC_U, 0) == G16_ERR_NONCANONICAL, "%s y = p+1", GNAME);
    }
    /* infinity */
    AFF o;
    CV(affine_set_infinity)(&o);
    CV(encode_compressed)(c, &o);
    CV(encode_uncompressed)(u, &o);
    int zero_rest = 1;
    for (int i = 1; i < ENC_C; i++) zero_rest &= c[i] == 0;
    CHECK(c[0] == 0xc0 && zero_rest && u[0] == 0x40, "%s infinity bytes", GNAME);
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_OK && CV(affine_is_infinity)(&q), "%s O compressed", GNAME);
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_OK && CV(affine_is_infinity)(&q), "%s O uncompressed", GNAME);
    c[0] |= 0x20;
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_FLAGS, "%s O with sign", GNAME);
    c[0] = 0xc0;
    c[ENC_C - 1] = 1;
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_INFINITY, "%s O with x bits", GNAME);
    c[ENC_C - 1] = 0;
    c[0] = 0xc1;
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_INFINITY, "%s O with low bits of byte 0", GNAME);
    u[ENC_U - 1] = 1;
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_ERR_INFINITY, "%s O with y bits", GNAME);
    /* all-zero uncompressed bytes are (0,0), not on the curve */
    memset(u, 0, ENC_U);
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_ERR_NOT_ON_CURVE, "%s zero bytes", GNAME);

    /* a point outside the subgroup: refused by default, accepted on request */
    T(rand_curve_point)(rng, &p);
    CV(jac_from_affine)(&pj, &p);
    CHECK(!T(is_order_r)(&pj), "%s random point in subgroup", GNAME);
    CV(encode_compressed)(c, &p);
    CV(encode_uncompressed)(u, &p);
    CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_NOT_IN_SUBGROUP, "%s subgroup compressed", GNAME);
    CHECK(CV(decode)(&q, u, ENC_U, 0) == G16_ERR_NOT_IN_SUBGROUP, "%s subgroup uncompressed", GNAME);
    CHECK(CV(decode)(&q, c, ENC_C, G16_CURVE_NO_SUBGROUP_CHECK) == G16_OK && CV(affine_eq)(&p, &q),
          "%s no-subgroup decode", GNAME);
    CHECK(CV(decode)(&q, u, ENC_U, G16_CURVE_NO_SUBGROUP_CHECK) == G16_OK && CV(affine_eq)(&p, &q),
          "%s no-subgroup decode (u)", GNAME);

    /* an x with no point: x³ + b not a square */
    for (;;) {
        FE_T x, rhs, y;
        AFF gen;
        rand_fe(rng, &x);
        CV(affine_generator)(&gen);
        FE(sqr)(&rhs, &gen.y);
        FE(sqr)(&y, &gen.x);
        FE(mul)(&y, &y, &gen.x);
        FE(sub)(&rhs, &rhs, &y);   /* b */
        FE(sqr)(&y, &x);
        FE(mul)(&y, &y, &x);
        FE(add)(&rhs, &rhs, &y);
        if (FE(sqrt)(&y, &rhs)) continue;
        p.x = x;
        p.y = x;
        CV(encode_compressed)(c, &p);
        c[0] &= 0xdf;
        CHECK(CV(decode)(&q, c, ENC_C, 0) == G16_ERR_NOT_ON_CURVE, "%s x without y", GNAME);
        break;
    }
}
#endif /* G16_CURVE_BN254 */

static void T(all)(g16_rng *rng)
{
    T(constants)();
    for (int i = 0; i < 3; i++) {
        T(group_laws)(rng, 1);
        T(group_laws)(rng, 0);
    }
    T(batch)(rng);
    for (int i = 0; i < 3; i++) T(scalar_mult)(rng);
    T(subgroup)(rng);
    T(encodings)(rng);
}
#undef T
