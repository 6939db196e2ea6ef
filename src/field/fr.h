/* Fr: the BLS12-381 scalar field, r = 0x73eda753…00000001 (255 bits, 2-adicity 32).
 * Elements are kept in Montgomery form (a·2^256 mod r), four 64-bit limbs,
 * little-endian, always fully reduced.  With G16_CURVE_BN254 (docs/curve.md):
 * BN254's r = 0x30644e72…f0000001 (254 bits, 2-adicity 28), same layout. */
#ifndef G16_FIELD_FR_H
#define G16_FIELD_FR_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

#define G16_FR_LIMBS 4
#define G16_FR_BYTES 32

typedef struct g16_fr { uint64_t l[G16_FR_LIMBS]; } g16_fr;

extern const uint64_t g16_fr_modulus[G16_FR_LIMBS];
extern const g16_fr g16_fr_one_mont;

void g16_fr_set_zero(g16_fr *r);
void g16_fr_set_one(g16_fr *r);
void g16_fr_from_u64(g16_fr *r, uint64_t v);
void g16_fr_add(g16_fr *r, const g16_fr *a, const g16_fr *b);
void g16_fr_sub(g16_fr *r, const g16_fr *a, const g16_fr *b);
void g16_fr_dbl(g16_fr *r, const g16_fr *a);
void g16_fr_neg(g16_fr *r, const g16_fr *a);
void g16_fr_mul(g16_fr *r, const g16_fr *a, const g16_fr *b);
void g16_fr_sqr(g16_fr *r, const g16_fr *a);
void g16_fr_pow(g16_fr *r, const g16_fr *a, const uint64_t *e, size_t e_limbs);
void g16_fr_inv(g16_fr *r, const g16_fr *a);
int g16_fr_eq(const g16_fr *a, const g16_fr *b);
int g16_fr_is_zero(const g16_fr *a);
int g16_fr_is_one(const g16_fr *a);
void g16_fr_to_canonical(uint64_t out[G16_FR_LIMBS], const g16_fr *a);
g16_status g16_fr_from_canonical(g16_fr *r, const uint64_t in[G16_FR_LIMBS]);
void g16_fr_to_be(uint8_t out[G16_FR_BYTES], const g16_fr *a);
g16_status g16_fr_from_be(g16_fr *r, const uint8_t in[G16_FR_BYTES]);
/* Little-endian byte forms, as snarkjs/circom files store them. */
void g16_fr_to_le(uint8_t out[G16_FR_BYTES], const g16_fr *a);
g16_status g16_fr_from_le(g16_fr *r, const uint8_t in[G16_FR_BYTES]);
/* r = (big-endian integer of any length) mod r. */
void g16_fr_from_be_reduce(g16_fr *r, const uint8_t *in, size_t len);

#endif
