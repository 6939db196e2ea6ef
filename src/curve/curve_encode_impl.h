/* Part of the one body of point code (curve_impl.h, which includes this at its end): the
 * point encodings (ZCash/bellperson flags on BLS12-381, Ethereum/gnark on BN254) and decoding. */
/* --------------------------------------------------------------- encodings */

/* Field element ↔ big-endian bytes (G2: c1 then c0).  fe_from_bytes reports
 * G16_ERR_NONCANONICAL naming the coordinate ("x", "y") in its message. */
static void fe_to_bytes(uint8_t *out, const FE_T *a);
static g16_status fe_from_bytes(FE_T *r, const uint8_t *in, const char *form, const char *coord);

#if G16_CURVE_BN254
/* BN254 (docs/curve.md): uncompressed is the Ethereum/snarkjs form, x then y
 * big-endian (G2 c1 first, as EIP-197), no flags, infinity = all zeros.  Compressed
 * is gnark's form: the top two bits of byte 0 (always clear in a value < p < 2^254)
 * are 0b10 (y ≤ (p−1)/2), 0b11 (y larger) or 0b01 (infinity, all other bits 0). */
#define FLAG_MASK 0xc0u
#define FLAG_SMALL 0x80u
#define FLAG_LARGE 0xc0u
#define FLAG_INF 0x40u

void CV(encode_compressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, FE_BYTES);
        out[0] = FLAG_INF;
        return;
    }
    fe_to_bytes(out, &p->x);
    out[0] |= (uint8_t)(FE(is_lex_largest)(&p->y) ? FLAG_LARGE : FLAG_SMALL);
}

void CV(encode_uncompressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, 2 * FE_BYTES);
        return;
    }
    fe_to_bytes(out, &p->x);
    fe_to_bytes(out + FE_BYTES, &p->y);
}

g16_status CV(decode)(AFF *out, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != FE_BYTES && len != 2 * FE_BYTES)
        return g16_fail(G16_ERR_LENGTH, G_NAME ": %zu bytes is neither %d (compressed) nor %d (uncompressed)",
                        len, FE_BYTES, 2 * FE_BYTES);
    int compressed = len == FE_BYTES;
    const char *form = compressed ? G_NAME " compressed" : G_NAME " uncompressed";
    unsigned top = in[0] & FLAG_MASK;
    unsigned acc = in[0] & ~FLAG_MASK & 0xffu;
    for (size_t i = 1; i < len; i++) acc |= in[i];
    if (!compressed && top)
        return g16_fail(G16_ERR_FLAGS, "%s: top bits 0x%02x set (uncompressed BN254 points have no flags)",
                        form, top);
    if (compressed && !top)
        return g16_fail(G16_ERR_FLAGS, "%s: no compression flag in the top two bits of byte 0", form);
    if ((compressed && top == FLAG_INF) || (!compressed && !acc)) {
        if (compressed && acc)
            return g16_fail(G16_ERR_INFINITY, "%s: infinity flag set but other bits are not zero", form);
        CV(affine_set_infinity)(out);
        return G16_OK;
    }
    uint8_t buf[FE_BYTES];
    memcpy(buf, in, FE_BYTES);
    buf[0] &= (uint8_t)~FLAG_MASK;
    AFF p;
    G16_TRY(fe_from_bytes(&p.x, buf, form, "x"));
    if (compressed) {
        FE_T rhs;
        FE(sqr)(&rhs, &p.x);
        FE(mul)(&rhs, &rhs, &p.x);
        FE(add)(&rhs, &rhs, &curve_b);
        if (!FE(sqrt)(&p.y, &rhs))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: x³ + b has no square root (no point with this x)", form);
        if (FE(is_lex_largest)(&p.y) != (top == FLAG_LARGE)) FE(neg)(&p.y, &p.y);
    } else {
        G16_TRY(fe_from_bytes(&p.y, in + FE_BYTES, form, "y"));
        if (!CV(affine_on_curve)(&p))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: (x, y) is not on the curve", form);
    }
    if (!(flags & G16_CURVE_NO_SUBGROUP_CHECK) && !CV(affine_in_subgroup)(&p))
        return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "%s: point is not in the order-r subgroup", form);
    *out = p;
    return G16_OK;
}
#undef FLAG_MASK
#undef FLAG_SMALL
#undef FLAG_LARGE
#undef FLAG_INF
#else
#define FLAG_C 0x80u
#define FLAG_I 0x40u
#define FLAG_S 0x20u

void CV(encode_compressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, FE_BYTES);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    fe_to_bytes(out, &p->x);
    out[0] |= (uint8_t)(FLAG_C | (FE(is_lex_largest)(&p->y) ? FLAG_S : 0));
}

void CV(encode_uncompressed)(uint8_t *out, const AFF *p)
{
    if (CV(affine_is_infinity)(p)) {
        memset(out, 0, 2 * FE_BYTES);
        out[0] = FLAG_I;
        return;
    }
    fe_to_bytes(out, &p->x);
    fe_to_bytes(out + FE_BYTES, &p->y);
}

g16_status CV(decode)(AFF *out, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != FE_BYTES && len != 2 * FE_BYTES)
        return g16_fail(G16_ERR_LENGTH, G_NAME ": %zu bytes is neither %d (compressed) nor %d (uncompressed)",
                        len, FE_BYTES, 2 * FE_BYTES);
    int compressed = len == FE_BYTES;
    const char *form = compressed ? G_NAME " compressed" : G_NAME " uncompressed";
    unsigned top = in[0];
    if (!!(top & FLAG_C) != compressed)
        return g16_fail(G16_ERR_FLAGS, "%s: compression bit is %s on a %zu-byte encoding", form,
                        compressed ? "clear" : "set", len);
    if (top & FLAG_I) {
        if (top & FLAG_S) return g16_fail(G16_ERR_FLAGS, "%s: sign bit set on infinity", form);
        unsigned acc = top & 0x1fu;
        for (size_t i = 1; i < len; i++) acc |= in[i];
        if (acc) return g16_fail(G16_ERR_INFINITY, "%s: infinity bit set but other bits are not zero", form);
        CV(affine_set_infinity)(out);
        return G16_OK;
    }
    if (!compressed && (top & FLAG_S))
        return g16_fail(G16_ERR_FLAGS, "%s: sign bit set on an uncompressed encoding", form);
    uint8_t buf[FE_BYTES];
    memcpy(buf, in, FE_BYTES);
    buf[0] &= 0x1f;
    AFF p;
    G16_TRY(fe_from_bytes(&p.x, buf, form, "x"));
    if (compressed) {
        FE_T rhs;
        FE(sqr)(&rhs, &p.x);
        FE(mul)(&rhs, &rhs, &p.x);
        FE(add)(&rhs, &rhs, &curve_b);
        if (!FE(sqrt)(&p.y, &rhs))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: x³ + b has no square root (no point with this x)", form);
        if (FE(is_lex_largest)(&p.y) != !!(top & FLAG_S)) FE(neg)(&p.y, &p.y);
    } else {
        G16_TRY(fe_from_bytes(&p.y, in + FE_BYTES, form, "y"));
        /* (0,0) is our infinity and is never on the curve, so this also refuses it */
        if (CV(affine_is_infinity)(&p) || !CV(affine_on_curve)(&p))
            return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: (x, y) is not on the curve", form);
    }
    if (!(flags & G16_CURVE_NO_SUBGROUP_CHECK) && !CV(affine_in_subgroup)(&p))
        return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "%s: point is not in the order-r subgroup", form);
    *out = p;
    return G16_OK;
}
#undef FLAG_C
#undef FLAG_I
#undef FLAG_S
#endif /* G16_CURVE_BN254 */
