/* BLS12-381's G2 endomorphism constants (Montgomery form, from src/curve/gen_consts.py),
 * shared by g2.c (ψ on Jacobian points, G_mul's split, the subgroup test) and
 * g2_split.c (ψ on affine points for the G2 MSM's split).  Limbs little-endian. */
#ifndef G16_CURVE_G2_PSI_H
#define G16_CURVE_G2_PSI_H

#define G16_BLS_FP_(a, b, c, d, e, f) {{a##ULL, b##ULL, c##ULL, d##ULL, e##ULL, f##ULL}}

/* ψ(x, y) = (conj(x)·cx, conj(y)·cy), cx = 1/ξ^((p−1)/3), cy = 1/ξ^((p−1)/2), ξ = 1 + u */
#define G16_BLS_PSI_CX                                                                      \
    {G16_BLS_FP_(0, 0, 0, 0, 0, 0),                                                         \
     G16_BLS_FP_(0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c,                \
                 0xa20d1b8c7e881024, 0x14e4f04fe2db9068, 0x14e56d3f1564853a)}
#define G16_BLS_PSI_CY                                                                      \
    {G16_BLS_FP_(0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732,                \
                 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8),               \
     G16_BLS_FP_(0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1,                \
                 0xd1ca2087da74d4a7, 0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2)}
/* ψ²(x, y) = (x·cx·conj(cx), −y): cx·conj(cx) lies in Fp (and cy·conj(cy) = −1) */
#define G16_BLS_PSI2_CX                                                                     \
    G16_BLS_FP_(0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95,                 \
                0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2, 0x18f0206554638741)

#endif
