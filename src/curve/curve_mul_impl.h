/* Part of the one body of point code (curve_impl.h, which includes this at its end): scalar
 * multiplication (wNAF, the GLV/GLS splits), cofactor clearing and the subgroup test. */
/* ------------------------------------------------------ scalar multiplication */

#define WNAF_W 5
#define WNAF_TABLE (1 << (WNAF_W - 2)) /* odd multiples P, 3P, ..., 15P */

/* Signed width-5 NAF of k (n limbs): digits odd in [−15, 15] or 0, at most one
 * nonzero in any 5 consecutive.  Returns the number of digits (≤ 64n + 1). */
static size_t wnaf(int8_t *d, const uint64_t *k, size_t n)
{
    uint64_t t[G16_CURVE_MAX_SCALAR_LIMBS + 1];
    size_t m = n, len = 0;
    memcpy(t, k, n * sizeof *k);
    t[n] = 0;
    while (m > 0 && t[m - 1] == 0) m--;
    while (m > 0) {
        int8_t digit = 0;
        if (t[0] & 1) {
            int v = (int)(t[0] & ((1u << WNAF_W) - 1));
            if (v >= 1 << (WNAF_W - 1)) v -= 1 << WNAF_W;
            digit = (int8_t)v;
            if (v > 0) {
                t[0] -= (uint64_t)v;        /* low bits equal v: no borrow */
            } else {
                uint64_t c = (uint64_t)-v;  /* t − v = t + |v| */
                for (size_t i = 0; i <= m && c; i++) {
                    t[i] += c;
                    c = t[i] < c;
                }
                if (t[m]) m++;
            }
        }
        d[len++] = digit;
        /* t is even now: shift right by one (skipping ahead is not worth it at w = 5) */
        for (size_t i = 0; i < m; i++) t[i] = (t[i] >> 1) | (i + 1 < m ? t[i + 1] << 63 : 0);
        while (m > 0 && t[m - 1] == 0) m--;
    }
    return len;
}

static void odd_multiples(JAC tab[WNAF_TABLE], const JAC *p)
{
    JAC p2;
    CV(jac_dbl)(&p2, p);
    tab[0] = *p;
    for (int i = 1; i < WNAF_TABLE; i++) CV(jac_add)(&tab[i], &tab[i - 1], &p2);
}

static inline void add_digit(JAC *acc, const JAC tab[WNAF_TABLE], int digit)
{
    if (digit > 0) {
        CV(jac_add)(acc, acc, &tab[digit >> 1]);
    } else {
        JAC n;
        CV(jac_neg)(&n, &tab[(-digit) >> 1]);
        CV(jac_add)(acc, acc, &n);
    }
}

/* acc = Σ k_j·P_j over m (table, digits) pairs, interleaved (Straus): the
 * doublings are shared, so their number is the longest digit string. */
static void wnaf_eval(JAC *r, JAC tabs[][WNAF_TABLE], int8_t digits[][130], const size_t *lens, int m)
{
    JAC acc;
    CV(jac_set_infinity)(&acc);
    size_t len = 0;
    for (int j = 0; j < m; j++) len = lens[j] > len ? lens[j] : len;
    int started = 0;
    for (size_t i = len; i-- > 0;) {
        if (started) CV(jac_dbl)(&acc, &acc);
        for (int j = 0; j < m; j++) {
            if (i < lens[j] && digits[j][i]) {
                add_digit(&acc, tabs[j], digits[j][i]);
                started = 1;
            }
        }
    }
    *r = acc;
}

void CV(mul_limbs)(JAC *r, const JAC *p, const uint64_t *k, size_t n)
{
    int8_t d[64 * G16_CURVE_MAX_SCALAR_LIMBS + 1];
    JAC tab[WNAF_TABLE], acc;
    if (n > G16_CURVE_MAX_SCALAR_LIMBS) n = G16_CURVE_MAX_SCALAR_LIMBS;
    size_t len = wnaf(d, k, n);
    if (len == 0 || CV(jac_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    odd_multiples(tab, p);
    acc = tab[(d[len - 1] > 0 ? d[len - 1] : -d[len - 1]) >> 1]; /* top digit is positive */
    for (size_t i = len - 1; i-- > 0;) {
        CV(jac_dbl)(&acc, &acc);
        if (d[i]) add_digit(&acc, tab, d[i]);
    }
    *r = acc;
}

#if G16_CURVE_BN254
#define REDUCE_PASSES 5 /* BN254: 2^256 < 6r */
#else
#define REDUCE_PASSES 2
#endif

/* k mod r for any 256-bit k (k < 2^256 < 3r, so at most two subtractions; five for
 * BN254's 254-bit r). */
static void reduce_mod_r(uint64_t out[4], const uint64_t k[4])
{
    memcpy(out, k, 4 * sizeof *k);
    for (int pass = 0; pass < REDUCE_PASSES; pass++) {
        uint64_t t[4], borrow = 0;
        for (int i = 0; i < 4; i++) {
            g16_u128 v = (g16_u128)out[i] - g16_curve_order[i] - borrow;
            t[i] = (uint64_t)v;
            borrow = (uint64_t)(v >> 64) & 1;
        }
        if (borrow) break;
        memcpy(out, t, sizeof t);
    }
}

#if G16_CURVE_BN254 && defined(BN254_GLV)
/* out (n + m limbs) = a (n limbs) · b (m limbs) */
static void glv_mul(uint64_t *out, const uint64_t *a, size_t n, const uint64_t *b, size_t m)
{
    memset(out, 0, (n + m) * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        g16_u128 c = 0;
        for (size_t j = 0; j < m; j++) {
            c += (g16_u128)a[i] * b[j] + out[i + j];
            out[i + j] = (uint64_t)c;
            c >>= 64;
        }
        out[i + m] = (uint64_t)c;
    }
}

/* acc −= x (4 limbs, mod 2^256) */
static void glv_sub4(uint64_t acc[4], const uint64_t *x)
{
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        g16_u128 v = (g16_u128)acc[i] - x[i] - borrow;
        acc[i] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
}

/* v (4 limbs, two's complement) → |v| in two limbs and its sign; 0 when |v| ≥ 2^128 */
static int glv_abs128(uint64_t out[2], int *neg, const uint64_t v[4])
{
    uint64_t t[4];
    memcpy(t, v, sizeof t);
    *neg = (int)(t[3] >> 63);
    if (*neg) {
        uint64_t z[4] = {0};
        glv_sub4(z, t);
        memcpy(t, z, sizeof t);
    }
    out[0] = t[0], out[1] = t[1];
    return !t[2] && !t[3];
}

/* GLV on BN254's G1 (Gallant–Lambert–Vanstone 2001; Guide to ECC alg. 3.74): k mod r
 * = k1 + k2·λ with |k1|, |k2| < 2^128 from the short basis (a1, b1), (a2, b2) of
 * src/curve/gen_consts_bn254.py (Babai rounding by the precomputed g1, g2; the script
 * checks the bound), then k·P = k1·P + k2·φ(P) by a joint width-5 NAF: 128
 * doublings instead of 254.  Should a piece not fit (it cannot), the plain NAF runs. */
void CV(mul)(JAC *r, const JAC *p, const uint64_t k[4])
{
    static const uint64_t a1[1] = G16_BN254_GLV_A1, b1[2] = G16_BN254_GLV_B1_ABS,
                          a2[2] = G16_BN254_GLV_A2, b2[1] = G16_BN254_GLV_B2,
                          g1[2] = G16_BN254_GLV_G1, g2[3] = G16_BN254_GLV_G2;
    uint64_t kr[4], t[7], c1[2], c2[2], k1[4], k2[4], pieces[2][2];
    int neg[2];
    if (CV(jac_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    reduce_mod_r(kr, k);
    glv_mul(t, kr, 4, g1, 2); /* c1 = k·g1 >> 256 < 2^64 */
    c1[0] = t[4], c1[1] = t[5];
    glv_mul(t, kr, 4, g2, 3); /* c2 = k·g2 >> 256 < 2^128 */
    c2[0] = t[4], c2[1] = t[5];
    memcpy(k1, kr, sizeof k1); /* k1 = k − c1·a1 − c2·a2 */
    glv_mul(t, c1, 2, a1, 1);
    t[3] = 0;
    glv_sub4(k1, t);
    glv_mul(t, c2, 2, a2, 2);
    glv_sub4(k1, t);
    glv_mul(k2, c1, 2, b1, 2); /* k2 = c1·|b1| − c2·b2 */
    glv_mul(t, c2, 2, b2, 1);
    t[3] = 0;
    glv_sub4(k2, t);
    if (!glv_abs128(pieces[0], &neg[0], k1) || !glv_abs128(pieces[1], &neg[1], k2)) {
        CV(mul_limbs)(r, p, kr, 4);
        return;
    }
    JAC tabs[2][WNAF_TABLE];
    int8_t d[2][130];
    size_t lens[2];
    JAC base = *p;
    if (neg[0]) CV(jac_neg)(&base, p);
    odd_multiples(tabs[0], &base);
    for (int i = 0; i < WNAF_TABLE; i++) {
        g16_g1_jac_phi(&tabs[1][i], &tabs[0][i]); /* φ(±(2i+1)P) */
        if (neg[0] != neg[1]) CV(jac_neg)(&tabs[1][i], &tabs[1][i]);
    }
    for (int j = 0; j < 2; j++) lens[j] = wnaf(d[j], pieces[j], 2);
    wnaf_eval(r, tabs, d, lens, 2);
}
#else
#ifndef ENDO_ABS_X /* the four-way split divides by |x| instead (g16_bls_x_digits) */
#if G16_CURVE_BN254
/* BN254's G2 (GLS): ψ acts as μ = 6x² = p − r (128 bits) on G2, and k < r < μ·2^127,
 * so the same split k = q·μ + k1 gives two halves below 2^128 */
static const uint64_t mu_z2[2] = G16_BN254_SIX_X2;
#else
static const uint64_t mu_z2[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL}; /* x² */
#endif

/* k (< r = μ² − μ + 1, μ = x²) = q·μ + k1 with q, k1 < μ < 2^128 (BN254's G2: μ = 6x²,
 * k < r < 2^127·μ, so q < 2^127 and k1 < μ < 2^128): shift-and-subtract
 * long division, 128 steps of 4-limb arithmetic (about 1% of a multiplication). */
static void split_mu(uint64_t q[2], uint64_t k1[2], const uint64_t k[4])
{
    uint64_t rem[4], dv[4];
    memcpy(rem, k, sizeof rem);
    /* dv = μ << 127 */
    dv[0] = 0;
    dv[1] = mu_z2[0] << 63;
    dv[2] = (mu_z2[0] >> 1) | (mu_z2[1] << 63);
    dv[3] = mu_z2[1] >> 1;
    q[0] = q[1] = 0;
    for (int bit = 127; bit >= 0; bit--) {
        int ge = 1;
        for (int i = 3; i >= 0; i--) {
            if (rem[i] != dv[i]) { ge = rem[i] > dv[i]; break; }
        }
        if (ge) {
            uint64_t borrow = 0;
            for (int i = 0; i < 4; i++) {
                g16_u128 v = (g16_u128)rem[i] - dv[i] - borrow;
                rem[i] = (uint64_t)v;
                borrow = (uint64_t)(v >> 64) & 1;
            }
            q[bit >> 6] |= 1ULL << (bit & 63);
        }
        for (int i = 0; i < 3; i++) dv[i] = (dv[i] >> 1) | (dv[i + 1] << 63);
        dv[3] >>= 1;
    }
    k1[0] = rem[0];
    k1[1] = rem[1];
}
#endif

/* Group-specific: r = μ·p = x²·p for p in the subgroup, by an endomorphism
 * (G1: −φ, G2: ψ²), a few field multiplications.  Defined by the includer.
 * With ENDO_ABS_X defined (G2) the includer also defines endo_abs_x: r = |x|·p
 * (−ψ), and the scalar is split four ways instead of two. */
static void endo_mu(JAC *r, const JAC *p);
#ifdef ENDO_ABS_X
static void endo_abs_x(JAC *r, const JAC *p);
#define ENDO_DIMS 4
#else
#define ENDO_DIMS 2
#endif

/* GLV / GLS: k·P = Σ k_j·(B^j·P) with 128-bit (2 dims, B = x²) or 64-bit (4 dims,
 * B = |x|) pieces, so the doublings drop from 255 to 128 or 64. */
void CV(mul)(JAC *r, const JAC *p, const uint64_t k[4])
{
    uint64_t kr[4], pieces[ENDO_DIMS][2];
    int8_t d[ENDO_DIMS][130];
    size_t lens[ENDO_DIMS];
    JAC tabs[ENDO_DIMS][WNAF_TABLE];
    if (CV(jac_is_infinity)(p)) { CV(jac_set_infinity)(r); return; }
    reduce_mod_r(kr, k);
    odd_multiples(tabs[0], p);
#ifdef ENDO_ABS_X
    /* k = a0 + a1|x| + a2|x|² + a3|x|³ (curve.h, the split the G2 MSM uses too) */
    uint64_t digits[4];
    g16_bls_x_digits(digits, kr);
    for (int j = 0; j < 4; j++) pieces[j][0] = digits[j], pieces[j][1] = 0;
    for (int i = 0; i < WNAF_TABLE; i++) {
        endo_abs_x(&tabs[1][i], &tabs[0][i]);
        endo_mu(&tabs[2][i], &tabs[0][i]);
        endo_abs_x(&tabs[3][i], &tabs[2][i]);
    }
#else
    uint64_t q[2], k1[2];
    split_mu(q, k1, kr);
    memcpy(pieces[0], k1, sizeof k1);
    memcpy(pieces[1], q, sizeof q);
    for (int i = 0; i < WNAF_TABLE; i++) endo_mu(&tabs[1][i], &tabs[0][i]);
#endif
    for (int j = 0; j < ENDO_DIMS; j++) lens[j] = wnaf(d[j], pieces[j], 2);
    wnaf_eval(r, tabs, d, lens, ENDO_DIMS);
}
#undef ENDO_DIMS
#endif /* G16_CURVE_BN254 && BN254_GLV */

void CV(mul_fr)(JAC *r, const JAC *p, const g16_fr *k)
{
    uint64_t l[4];
    g16_fr_to_canonical(l, k);
    CV(mul)(r, p, l);
}

void CV(clear_cofactor)(JAC *r, const JAC *p)
{
    CV(mul_limbs)(r, p, cofactor, sizeof cofactor / sizeof cofactor[0]);
}

#if !G16_CURVE_BN254
/* r = |x|·p by double-and-add over the six set bits of |x| (63 doublings). */
static void mul_abs_x(JAC *r, const JAC *p)
{
    JAC acc = *p;
    for (int bit = 62; bit >= 0; bit--) {
        CV(jac_dbl)(&acc, &acc);
        if ((G16_BLS_X_ABS >> bit) & 1) CV(jac_add)(&acc, &acc, p);
    }
    *r = acc;
}
#endif

static int subgroup_check(const JAC *p);

int CV(jac_in_subgroup)(const JAC *p)
{
    if (CV(jac_is_infinity)(p)) return 1;
    return subgroup_check(p);
}

int CV(affine_in_subgroup)(const AFF *p)
{
    JAC j;
    CV(jac_from_affine)(&j, p);
    return CV(jac_in_subgroup)(&j);
}

#undef WNAF_W
#undef WNAF_TABLE
