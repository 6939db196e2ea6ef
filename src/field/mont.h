/* Width-generic Montgomery arithmetic on little-endian arrays of 64-bit limbs.
 *
 * Every function takes the modulus p and its limb count n, so one body serves
 * Fp (n = 6) and Fr (n = 4); they are static inline so that calls with a
 * constant n are unrolled by the compiler.  This is the portable reference: the
 * x86-64 mulx/adx path (mont_x86_64.h) must agree with it bit for bit.
 *
 * Contract: inputs are fully reduced (< p); outputs are fully reduced.  The
 * modulus must leave the top bit of the top limb clear (true for BLS12-381's p
 * and r), which lets the final CIOS step skip a carry word.
 */
#ifndef G16_FIELD_MONT_H
#define G16_FIELD_MONT_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 g16_u128;

/* GCC vectorises the final constant-time selects into 8-byte stores followed by
 * 16-byte loads of the same bytes, which stalls store-to-load forwarding and made
 * the portable add cost 45% of a multiplication.  Keep these loops scalar. */
#if defined(__GNUC__) && !defined(__clang__)
#define G16_SCALAR_LOOPS __attribute__((optimize("no-tree-vectorize")))
#else
#define G16_SCALAR_LOOPS
#endif

#define G16_MAX_LIMBS 6

/* r = a + b mod p */
G16_SCALAR_LOOPS static inline void g16_mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *p, size_t n)
{
    uint64_t t[G16_MAX_LIMBS], s[G16_MAX_LIMBS];
    uint64_t carry = 0, borrow = 0;
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)a[i] + b[i] + carry;
        t[i] = (uint64_t)v;
        carry = (uint64_t)(v >> 64);
    }
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)t[i] - p[i] - borrow;
        s[i] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
    /* keep t when t < p, i.e. the subtraction borrowed past the carry word */
    uint64_t keep_t = (uint64_t)0 - (borrow & (carry ^ 1));
    for (size_t i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* r = a - b mod p */
G16_SCALAR_LOOPS static inline void g16_mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *p, size_t n)
{
    uint64_t t[G16_MAX_LIMBS];
    uint64_t borrow = 0, carry = 0;
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)a[i] - b[i] - borrow;
        t[i] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
    uint64_t mask = (uint64_t)0 - borrow;
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)t[i] + (p[i] & mask) + carry;
        r[i] = (uint64_t)v;
        carry = (uint64_t)(v >> 64);
    }
}

/* r = -a mod p (0 stays 0) */
G16_SCALAR_LOOPS static inline void g16_mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *p, size_t n)
{
    uint64_t nz = 0, borrow = 0;
    for (size_t i = 0; i < n; i++) nz |= a[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)p[i] - a[i] - borrow;
        r[i] = (uint64_t)v & mask;
        borrow = (uint64_t)(v >> 64) & 1;
    }
}

/* r = a·b·2^(-64n) mod p: CIOS with one reduction step per limb of b.
 * r may alias a or b.  With a, b < p the running value stays below a + p < 2p
 * < 2^(64n), so no word beyond n limbs is ever needed. */
static inline void g16_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                const uint64_t *p, uint64_t n0, size_t n)
{
    uint64_t t[G16_MAX_LIMBS] = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < n; j++) {
            g16_u128 v = (g16_u128)a[j] * b[i] + t[j] + carry;
            t[j] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        uint64_t top = carry;
        uint64_t m = t[0] * n0;
        g16_u128 v = (g16_u128)m * p[0] + t[0];
        carry = (uint64_t)(v >> 64);
        for (size_t j = 1; j < n; j++) {
            v = (g16_u128)m * p[j] + t[j] + carry;
            t[j - 1] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        t[n - 1] = top + carry;
    }
    uint64_t s[G16_MAX_LIMBS], borrow = 0;
    for (size_t i = 0; i < n; i++) {
        g16_u128 v = (g16_u128)t[i] - p[i] - borrow;
        s[i] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
    uint64_t keep_t = (uint64_t)0 - borrow;
    for (size_t i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* Returns 1 when a >= p (a is not a canonical residue). */
static inline int g16_mont_geq(const uint64_t *a, const uint64_t *p, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (a[i] != p[i]) return a[i] > p[i];
    }
    return 1;
}

static inline int g16_limbs_is_zero(const uint64_t *a, size_t n)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= a[i];
    return acc == 0;
}

static inline int g16_limbs_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= a[i] ^ b[i];
    return acc == 0;
}

/* Big-endian bytes (8n of them) to little-endian limbs. */
static inline void g16_limbs_from_be(uint64_t *r, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t w = 0;
        const uint8_t *q = in + 8 * (n - 1 - i);
        for (int k = 0; k < 8; k++) w = (w << 8) | q[k];
        r[i] = w;
    }
}

static inline void g16_limbs_to_be(uint8_t *out, const uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t w = a[i];
        uint8_t *q = out + 8 * (n - 1 - i);
        for (int k = 7; k >= 0; k--) { q[k] = (uint8_t)w; w >>= 8; }
    }
}

#endif
