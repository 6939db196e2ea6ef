/* Inline Fr addition and subtraction for the butterflies.
 *
 * The exported g16_fr_add/sub are calls through a CPU-flag test; a butterfly
 * does one add and one sub per multiplication, and inlined they stay in
 * registers.  Fr's modulus is below 2^255, so a + b never carries out of four
 * limbs: one conditional subtraction suffices.  Same contract as the exported
 * ones: inputs fully reduced, output fully reduced, r may alias a or b. */
#ifndef G16_NTT_FR_INLINE_H
#define G16_NTT_FR_INLINE_H

#include "field/fr.h"
#include "field/mont.h"

static inline void ntt_fr_add(g16_fr *r, const g16_fr *a, const g16_fr *b)
{
    const uint64_t *p = g16_fr_modulus;
    uint64_t t[4], s[4], c = 0, br = 0;
    for (int i = 0; i < 4; i++) {
        g16_u128 v = (g16_u128)a->l[i] + b->l[i] + c;
        t[i] = (uint64_t)v;
        c = (uint64_t)(v >> 64);
    }
    for (int i = 0; i < 4; i++) {
        g16_u128 v = (g16_u128)t[i] - p[i] - br;
        s[i] = (uint64_t)v;
        br = (uint64_t)(v >> 64) & 1;
    }
    uint64_t keep_t = (uint64_t)0 - br; /* t < p */
    for (int i = 0; i < 4; i++) r->l[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

static inline void ntt_fr_sub(g16_fr *r, const g16_fr *a, const g16_fr *b)
{
    const uint64_t *p = g16_fr_modulus;
    uint64_t t[4], br = 0, c = 0;
    for (int i = 0; i < 4; i++) {
        g16_u128 v = (g16_u128)a->l[i] - b->l[i] - br;
        t[i] = (uint64_t)v;
        br = (uint64_t)(v >> 64) & 1;
    }
    uint64_t m = (uint64_t)0 - br;
    for (int i = 0; i < 4; i++) {
        g16_u128 v = (g16_u128)t[i] + (p[i] & m) + c;
        r->l[i] = (uint64_t)v;
        c = (uint64_t)(v >> 64);
    }
}

#endif
