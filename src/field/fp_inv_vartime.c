/* Variable-time Fp inversion (fp.h: g16_fp_inv_vartime) for batch inversions.
 *
 * Binary extended GCD with word-sized approximations (T. Pornin, "Optimized
 * Binary GCD for Modular Inversion", 2020, IACR ePrint 2020/972): the binary GCD
 * step on (a, b) (a odd and a < b: swap; a odd: a -= b; then a /= 2) is run 31
 * times on 64-bit stand-ins for a and b made of their top 33 and exact low 31
 * bits; the steps are recorded as a matrix [f0 g0; f1 g1] with
 * 2^31·(a', b') = M·(a, b), which is then applied to the full values and to the
 * cofactors (u, v) (a ≡ u·y, b ≡ v·y mod p).  The low bits being exact, every
 * parity decision is right and M·(a, b) is divisible by 2^31; a comparison made
 * on the approximations may be wrong, which at worst leaves a' or b' negative
 * (negated, with its row of M) and costs progress, not correctness.  When a
 * reaches 0, b = gcd(y, p) = 1 and v = 1/y.
 *
 * Why not Fermat (g16_fp_inv): a^(p−2) costs ~480 multiplications (~16 µs
 * here); this costs ~25 rounds of 31 cheap word steps and four short linear
 * combinations.  The batch inversion pays one per batch, and small MSMs (a few
 * hundred points per batch) paid ~10% of their time for it.  Variable time:
 * fine for the MSM, whose control flow already depends on its inputs. */
#include <string.h>

#include "field/fp.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

#define NL G16_FP_LIMBS /* limbs of a, b, u, v */
#define STEPS 31    /* binary GCD steps per round */
#define MAX_ROUNDS 64 /* 2·381 − 1 steps need ~25 rounds; a safety cap */

static int bitlen(const uint64_t x[NL])
{
    for (int i = NL - 1; i >= 0; i--)
        if (x[i]) return 64 * i + 64 - __builtin_clzll(x[i]);
    return 0;
}

/* bits [pos, pos + 64) of x (zeros beyond the top) */
static uint64_t bits_at(const uint64_t x[NL], int pos)
{
    int w = pos >> 6, s = pos & 63;
    uint64_t lo = w < NL ? x[w] >> s : 0;
    if (s && w + 1 < NL) lo |= x[w + 1] << (64 - s);
    return lo;
}

/* r = |f·a + g·b| / 2^31 (the division exact by construction); returns 1 when
 * f·a + g·b was negative.  a, b < 2^384, |f| + |g| <= 2^31, so |r| <= max(a, b). */
static int lincomb_shift(uint64_t r[NL], const uint64_t a[NL], int64_t f, const uint64_t b[NL],
                         int64_t g)
{
    uint64_t t[NL + 1];
    i128 acc = 0;
    for (int i = 0; i < NL; i++) {
        acc += (i128)(u128)a[i] * f + (i128)(u128)b[i] * g;
        t[i] = (uint64_t)acc;
        acc >>= 64; /* arithmetic: GCC and Clang keep the sign */
    }
    t[NL] = (uint64_t)acc;
    int neg = (int64_t)t[NL] < 0;
    if (neg) { /* two's complement negation over NL + 1 words */
        uint64_t c = 1;
        for (int i = 0; i <= NL; i++) {
            u128 s = (u128)(~t[i]) + c;
            t[i] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
    }
    for (int i = 0; i < NL; i++) r[i] = (t[i] >> STEPS) | (t[i + 1] << (64 - STEPS));
    return neg;
}

/* r = (f·u + g·v) / 2^31 mod p, u, v in [0, p), |f| + |g| <= 2^31; r in [0, p).
 * pinv = p^-1 mod 2^64. */
static void lincomb_mod(uint64_t r[NL], const uint64_t u[NL], int64_t f, const uint64_t v[NL],
                        int64_t g, uint64_t pinv)
{
    const uint64_t *p = g16_fp_modulus;
    /* t = f·u + g·v, |t| <= 2^31·p: NL + 1 signed words */
    uint64_t t[NL + 1];
    i128 acc = 0;
    for (int i = 0; i < NL; i++) {
        acc += (i128)(u128)u[i] * f + (i128)(u128)v[i] * g;
        t[i] = (uint64_t)acc;
        acc >>= 64;
    }
    t[NL] = (uint64_t)acc;
    /* t += k·p with k = −t·p^-1 mod 2^31, so that 2^31 divides t; t stays in
     * (−2^31·p, 2^32·p) */
    uint64_t k = (0 - t[0] * pinv) & ((1ull << STEPS) - 1);
    u128 c = 0;
    for (int i = 0; i < NL; i++) {
        c += (u128)k * p[i] + t[i];
        t[i] = (uint64_t)c;
        c >>= 64;
    }
    t[NL] += (uint64_t)c;
    /* shift: r in (−p, 2p), sign in the top word */
    int64_t top = (int64_t)t[NL] >> STEPS;
    for (int i = 0; i < NL; i++) r[i] = (t[i] >> STEPS) | (t[i + 1] << (64 - STEPS));
    if (top < 0) { /* r += p; the wrap-around cancels the negative top word */
        c = 0;
        for (int i = 0; i < NL; i++) {
            c += (u128)r[i] + p[i];
            r[i] = (uint64_t)c;
            c >>= 64;
        }
        return;
    }
    uint64_t s[NL], borrow = 0;
    for (int i = 0; i < NL; i++) {
        u128 d = (u128)r[i] - p[i] - borrow;
        s[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    if (!borrow) memcpy(r, s, sizeof s); /* r >= p */
}

/* 1/y as an integer mod p (not Montgomery); 0 when y = 0.  Returns 0 when the
 * round cap was hit (never expected; the caller then falls back to Fermat). */
static int inv_plain(uint64_t out[NL], const uint64_t y[NL])
{
    uint64_t a[NL], b[NL], u[NL] = {1}, v[NL] = {0}, na[NL], nb[NL], nu[NL], nv[NL];
    memcpy(a, y, sizeof a);
    memcpy(b, g16_fp_modulus, sizeof b);
    /* p^-1 mod 2^64 by Newton's iteration (each step doubles the correct bits) */
    uint64_t pinv = g16_fp_modulus[0];
    for (int i = 0; i < 6; i++) pinv *= 2 - g16_fp_modulus[0] * pinv;
    const uint64_t low = (1ull << STEPS) - 1;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        int la = bitlen(a), lb = bitlen(b), len = la > lb ? la : lb;
        if (la == 0) {
            memset(out, 0, NL * sizeof *out);
            if (lb == 1) memcpy(out, v, NL * sizeof *out); /* b = gcd = 1 */
            return 1;
        }
        uint64_t xa, xb;
        if (len <= 64) {
            xa = a[0], xb = b[0];
        } else {
            int pos = len - 33;
            xa = ((bits_at(a, pos) & 0x1ffffffffull) << STEPS) | (a[0] & low);
            xb = ((bits_at(b, pos) & 0x1ffffffffull) << STEPS) | (b[0] & low);
        }
        int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
        for (int i = 0; i < STEPS; i++) {
            /* branch-free: the parities and comparisons are data, not patterns */
            uint64_t odd = 0 - (xa & 1);
            uint64_t sw = odd & (0 - (uint64_t)(xa < xb));
            uint64_t tx = (xa ^ xb) & sw;
            xa ^= tx, xb ^= tx;
            int64_t tf = (f0 ^ f1) & (int64_t)sw, tg = (g0 ^ g1) & (int64_t)sw;
            f0 ^= tf, f1 ^= tf, g0 ^= tg, g1 ^= tg;
            xa -= xb & odd;
            f0 -= f1 & (int64_t)odd;
            g0 -= g1 & (int64_t)odd;
            xa >>= 1;
            f1 *= 2, g1 *= 2;
        }
        int nega = lincomb_shift(na, a, f0, b, g0);
        int negb = lincomb_shift(nb, a, f1, b, g1);
        if (nega) f0 = -f0, g0 = -g0;
        if (negb) f1 = -f1, g1 = -g1;
        lincomb_mod(nu, u, f0, v, g0, pinv);
        lincomb_mod(nv, u, f1, v, g1, pinv);
        memcpy(a, na, sizeof a);
        memcpy(b, nb, sizeof b);
        memcpy(u, nu, sizeof u);
        memcpy(v, nv, sizeof v);
    }
    return 0;
}

void g16_fp_inv_vartime(g16_fp *r, const g16_fp *x)
{
    /* x = X·R (Montgomery, R = 2^384, 2^256 for BN254); inv_plain gives (X·R)^-1 and the result
     * must be X^-1·R = (X·R)^-1·R²: one Montgomery product with R³ mod p, which
     * from_canonical makes from R mod p (g16_fp_one_mont's limbs) in two steps. */
    uint64_t v[NL];
    if (!inv_plain(v, x->l)) {
        g16_fp_inv(r, x);
        return;
    }
    g16_fp r2, r3, t;
    (void)g16_fp_from_canonical(&r2, g16_fp_one_mont.l); /* limbs R² mod p */
    (void)g16_fp_from_canonical(&r3, r2.l);              /* limbs R³ mod p */
    memcpy(t.l, v, sizeof t.l);
    g16_fp_mul(r, &t, &r3);
}
