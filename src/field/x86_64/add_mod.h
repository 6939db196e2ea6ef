/* x86-64 modular addition, subtraction and negation (add_mod.S), the companions of the
 * mulx/adx multiplication in field/mont_x86_64.h.
 * Contract as g16_mont_add / _sub / _neg in field/mont.h: inputs < p, output
 * < p, r may alias a or b, p < 2^(64n-1).  The subtraction uses adox, so all
 * are only called when g16_use_mulx is set (BMI2 + ADX, see field/cpu.h). */
#ifndef G16_FIELD_X86_64_ADD_MOD_H
#define G16_FIELD_X86_64_ADD_MOD_H

#include <stdint.h>

/* r = a + b mod p */
void g16_add_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                     const uint64_t p[6]);
void g16_add_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                     const uint64_t p[4]);
/* r = a - b mod p */
void g16_sub_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                     const uint64_t p[6]);
void g16_sub_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                     const uint64_t p[4]);

/* r = -a mod p (0 stays 0) */
void g16_neg_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t p[6]);
void g16_neg_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t p[4]);

#endif
