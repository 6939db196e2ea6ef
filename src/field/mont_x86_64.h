/* x86-64 Montgomery multiplication with mulx/adcx/adox (BMI2 + ADX).
 * Same contract as g16_mont_mul in mont.h (inputs < p, output < p, r may alias);
 * only called when g16_use_mulx is set (see cpu.h).  The 384-bit ones also take
 * inputs below 2p (BLS12-381's p < 2^381, so 4p < 2^384 keeps the bound of
 * mont_mulx.S) and still return a canonical result (the lazy one: below 2p);
 * tests/unit/test_field_inline.c checks both. */
#ifndef G16_FIELD_MONT_X86_64_H
#define G16_FIELD_MONT_X86_64_H

#include <stdint.h>

void g16_mulx_mont_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                       const uint64_t p[6], uint64_t n0);
/* r ≡ a·b·2^-384 (mod p) with r < 2p (not fully reduced); a, b < 2p. */
void g16_mulx_mont_384_lazy(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                            const uint64_t p[6], uint64_t n0);
void g16_mulx_sqr_mont_384(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
                           uint64_t n0);
void g16_mulx_mont_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                       const uint64_t p[4], uint64_t n0);
void g16_mulx_sqr_mont_256(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
                           uint64_t n0);

#endif
