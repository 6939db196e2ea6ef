/* One body for Fp and Fr: G16_FIELD_IMPL(fp, g16_fp, 6, ...) defines every
 * g16_fp_* function declared in fp.h that does not depend on the modulus'
 * special shape.  Included only by fp.c and fr.c. */
#ifndef G16_FIELD_IMPL_H
#define G16_FIELD_IMPL_H

#include <string.h>

#include "common/error.h"
#include "field/cpu.h"
#include "field/mont.h"
#include "field/mont_x86_64.h"

/* The portable bodies of mul/sqr/add/sub live in separate noinline functions
 * so that each exported function stays a flag test and a tail jump on either
 * path: inlined, their stack frames made every call save up to six registers
 * before even testing the flag, which cost the assembly path about 10% of a
 * 6-limb multiplication. */
#if defined(__x86_64__) && defined(G16_HAVE_MULX)
#define G16_ASM_MUL(fn, r, a, b, p, n0) \
    if (g16_use_mulx) { fn(r, a, b, p, n0); return; }
#define G16_ASM_SQR(fn, r, a, p, n0) \
    if (g16_use_mulx) { fn(r, a, p, n0); return; }
/* add/sub/neg (x86_64/add_mod.S): the subtraction uses adox, so all three
 * share the multiplication's flag. */
#include "field/x86_64/add_mod.h"
/* n is a constant at every use, so the width test folds away */
#define G16_ASM_ADDSUB(op, r, a, b, p, n)                                     \
    if (g16_use_mulx) {                                                       \
        if ((n) == 6) g16_##op##_mod_384(r, a, b, p);                         \
        else g16_##op##_mod_256(r, a, b, p);                                  \
        return;                                                               \
    }
#define G16_ASM_NEG(r, a, p, n)                                               \
    if (g16_use_mulx) {                                                       \
        if ((n) == 6) g16_neg_mod_384(r, a, p);                               \
        else g16_neg_mod_256(r, a, p);                                        \
        return;                                                               \
    }
#else
#define G16_ASM_MUL(fn, r, a, b, p, n0)
#define G16_ASM_SQR(fn, r, a, p, n0)
#define G16_ASM_ADDSUB(op, r, a, b, p, n)
#define G16_ASM_NEG(r, a, p, n)
#endif

#define G16_FIELD_IMPL(F, T, N, NB, MOD, N0, ONE, R2, ASM_MUL, ASM_SQR)                   \
    void g16_##F##_set_zero(T *r) { memset(r, 0, sizeof *r); }                        \
    void g16_##F##_set_one(T *r) { *r = ONE; }                                        \
    _Static_assert((N) == 4 || (N) == 6, "the assembly path has 4- and 6-limb bodies only"); \
    __attribute__((noinline)) static void F##_add_portable(T *r, const T *a, const T *b) \
    {                                                                                 \
        g16_mont_add(r->l, a->l, b->l, MOD, N);                                       \
    }                                                                                 \
    __attribute__((noinline)) static void F##_sub_portable(T *r, const T *a, const T *b) \
    {                                                                                 \
        g16_mont_sub(r->l, a->l, b->l, MOD, N);                                       \
    }                                                                                 \
    void g16_##F##_add(T *r, const T *a, const T *b)                                  \
    {                                                                                 \
        G16_ASM_ADDSUB(add, r->l, a->l, b->l, MOD, N)                                 \
        F##_add_portable(r, a, b);                                                    \
    }                                                                                 \
    void g16_##F##_sub(T *r, const T *a, const T *b)                                  \
    {                                                                                 \
        G16_ASM_ADDSUB(sub, r->l, a->l, b->l, MOD, N)                                 \
        F##_sub_portable(r, a, b);                                                    \
    }                                                                                 \
    void g16_##F##_dbl(T *r, const T *a)                                              \
    {                                                                                 \
        G16_ASM_ADDSUB(add, r->l, a->l, a->l, MOD, N)                                 \
        F##_add_portable(r, a, a);                                                    \
    }                                                                                 \
    void g16_##F##_neg(T *r, const T *a)                                              \
    {                                                                                 \
        G16_ASM_NEG(r->l, a->l, MOD, N)                                               \
        g16_mont_neg(r->l, a->l, MOD, N);                                             \
    }                                                                                 \
    __attribute__((noinline)) static void F##_mul_portable(T *r, const T *a, const T *b) \
    {                                                                                 \
        g16_mont_mul(r->l, a->l, b->l, MOD, N0, N);                                   \
    }                                                                                 \
    void g16_##F##_mul(T *r, const T *a, const T *b)                                  \
    {                                                                                 \
        G16_ASM_MUL(ASM_MUL, r->l, a->l, b->l, MOD, N0)                               \
        F##_mul_portable(r, a, b);                                                    \
    }                                                                                 \
    void g16_##F##_sqr(T *r, const T *a)                                              \
    {                                                                                 \
        G16_ASM_SQR(ASM_SQR, r->l, a->l, MOD, N0)                                     \
        F##_mul_portable(r, a, a);                                                    \
    }                                                                                 \
    int g16_##F##_eq(const T *a, const T *b) { return g16_limbs_eq(a->l, b->l, N); }  \
    int g16_##F##_is_zero(const T *a) { return g16_limbs_is_zero(a->l, N); }          \
    int g16_##F##_is_one(const T *a) { return g16_limbs_eq(a->l, (ONE).l, N); }       \
    void g16_##F##_to_canonical(uint64_t out[N], const T *a)                          \
    {                                                                                 \
        static const uint64_t one_plain[N] = {1};                                     \
        g16_mont_mul(out, a->l, one_plain, MOD, N0, N);                               \
    }                                                                                 \
    g16_status g16_##F##_from_canonical(T *r, const uint64_t in[N])                   \
    {                                                                                 \
        if (g16_mont_geq(in, MOD, N))                                                 \
            return g16_fail(G16_ERR_NONCANONICAL, #F " element is not less than the modulus"); \
        T t;                                                                          \
        memcpy(t.l, in, sizeof t.l);                                                  \
        g16_##F##_mul(r, &t, &(R2));                                                  \
        return G16_OK;                                                                \
    }                                                                                 \
    void g16_##F##_from_u64(T *r, uint64_t v)                                         \
    {                                                                                 \
        uint64_t in[N] = {v}; /* both moduli exceed 2^64: always canonical */         \
        (void)g16_##F##_from_canonical(r, in);                                        \
    }                                                                                 \
    void g16_##F##_to_be(uint8_t out[NB], const T *a)                                \
    {                                                                                 \
        uint64_t c[N];                                                                \
        g16_##F##_to_canonical(c, a);                                                 \
        g16_limbs_to_be(out, c, N);                                                   \
    }                                                                                 \
    g16_status g16_##F##_from_be(T *r, const uint8_t in[NB])                         \
    {                                                                                 \
        uint64_t c[N];                                                                \
        g16_limbs_from_be(c, in, N);                                                  \
        return g16_##F##_from_canonical(r, c);                                        \
    }                                                                                 \
    void g16_##F##_pow(T *r, const T *a, const uint64_t *e, size_t e_limbs)           \
    {                                                                                 \
        /* fixed 4-bit windows from the top; variable time in e (exponents are public) */ \
        T table[16], acc = ONE;                                                       \
        table[0] = ONE;                                                               \
        for (int i = 1; i < 16; i++) g16_##F##_mul(&table[i], &table[i - 1], a);      \
        int started = 0;                                                              \
        for (size_t i = e_limbs; i-- > 0;) {                                          \
            for (int sh = 60; sh >= 0; sh -= 4) {                                     \
                unsigned w = (unsigned)(e[i] >> sh) & 15u;                            \
                if (started) {                                                        \
                    for (int k = 0; k < 4; k++) g16_##F##_sqr(&acc, &acc);            \
                }                                                                     \
                if (w) {                                                              \
                    g16_##F##_mul(&acc, &acc, &table[w]);                             \
                    started = 1;                                                      \
                }                                                                     \
            }                                                                         \
        }                                                                             \
        *r = acc;                                                                     \
    }                                                                                 \
    void g16_##F##_inv(T *r, const T *a)                                              \
    {                                                                                 \
        /* Fermat: a^(m-2); 0 maps to 0 since 0^(m-2) = 0 */                          \
        uint64_t e[N];                                                                \
        memcpy(e, MOD, sizeof e);                                                     \
        e[0] -= 2; /* the low limb of both moduli is odd and > 2: no borrow */        \
        g16_##F##_pow(r, a, e, N);                                                    \
    }

#endif
