/* Checks every record of tests/vectors/fp.txt, fr.txt and fp2.txt (computed by
 * @noble/curves, see docs/vectors.md) against the g16 field API. */
#include <string.h>

#include "check.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"
#include "vectors.h"

/* Records per op the generator writes at least (docs/vectors.md); a shorter file means a
 * truncated or stale vector set and fails the test. */
#define MIN_FP_OP 40
#define MIN_FR_OP 40
#define MIN_FP2_OP 20

enum { OP_ADD, OP_SUB, OP_MUL, OP_SQR, OP_NEG, OP_INV, OP_POW, OP_SQRT, OP_N };
static const char *const op_names[OP_N] = {"add", "sub", "mul", "sqr", "neg", "inv", "pow", "sqrt"};
static const int op_arity[OP_N] = {3, 3, 3, 2, 2, 2, 3, 2};

static int op_index(const char *op)
{
    for (int i = 0; i < OP_N; i++)
        if (!strcmp(op, op_names[i])) return i;
    return -1;
}

/* A 48-byte big-endian exponent as six little-endian limbs for g16_*_pow. */
static int exponent(const char *tok, uint64_t e[6])
{
    uint8_t b[48];
    if (!g16_vec_hex(tok, b, sizeof b)) return 0;
    for (int i = 0; i < 6; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = w << 8 | b[8 * (5 - i) + j];
        e[i] = w;
    }
    return 1;
}

/* Common record framing: known op with the right operand count.  Returns the op index
 * or -1 after recording a failure. */
static int frame(const g16_vec_line *l, int allow_sqrt, long counts[OP_N])
{
    int op = op_index(l->op);
    CHECK(op >= 0 && (op != OP_SQRT || allow_sqrt), "%s:%ld: unknown op %s", l->file, l->lineno,
          l->op);
    if (op < 0 || (op == OP_SQRT && !allow_sqrt)) return -1;
    CHECK(l->ntok == op_arity[op], "%s:%ld: %s has %d operands", l->file, l->lineno, l->op,
          l->ntok);
    if (l->ntok != op_arity[op]) return -1;
    counts[op]++;
    return op;
}

static void check_counts(const char *file, const long counts[OP_N], int with_sqrt, long min)
{
    for (int i = 0; i < OP_N; i++) {
        if (i == OP_SQRT && !with_sqrt) continue;
        CHECK(counts[i] >= min, "%s: only %ld %s records (want >= %ld)", file, counts[i],
              op_names[i], min);
    }
}

static void test_fp(void)
{
    long counts[OP_N] = {0};
    g16_vec_file *f = g16_vec_open("fp.txt");
    CHECK(f != NULL, "%s", "fp.txt missing");
    if (!f) return;
    g16_vec_line l;
    int rc;
    while ((rc = g16_vec_next(f, &l)) > 0) {
        int op = frame(&l, 1, counts);
        if (op < 0) continue;
        g16_fp a, b, want, got;
        uint64_t e[6];
        int ok = g16_vec_fp(l.tok[0], &a);
        if (op == OP_SQRT && !strcmp(l.tok[1], "none")) {
            CHECK(ok, "%s:%ld: bad operand", l.file, l.lineno);
            CHECK(!g16_fp_sqrt(&got, &a), "%s:%ld: sqrt of a non-square accepted", l.file,
                  l.lineno);
            CHECK(!g16_fp_is_square(&a), "%s:%ld: non-square reported square", l.file, l.lineno);
            continue;
        }
        ok &= g16_vec_fp(l.tok[l.ntok - 1], &want);
        if (op_arity[op] == 3) ok &= op == OP_POW ? exponent(l.tok[1], e) : g16_vec_fp(l.tok[1], &b);
        CHECK(ok, "%s:%ld: bad operand", l.file, l.lineno);
        if (!ok) continue;
        switch (op) {
        case OP_ADD: g16_fp_add(&got, &a, &b); break;
        case OP_SUB: g16_fp_sub(&got, &a, &b); break;
        case OP_MUL: g16_fp_mul(&got, &a, &b); break;
        case OP_SQR: g16_fp_sqr(&got, &a); break;
        case OP_NEG: g16_fp_neg(&got, &a); break;
        case OP_INV: g16_fp_inv(&got, &a); break;
        case OP_POW: g16_fp_pow(&got, &a, e, 6); break;
        case OP_SQRT: {
            /* Either root is acceptable: it must square to a and be ±(noble's root). */
            g16_fp sq, neg;
            int found = g16_fp_sqrt(&got, &a);
            CHECK(found, "%s:%ld: sqrt of a square refused", l.file, l.lineno);
            if (!found) continue;
            g16_fp_sqr(&sq, &got);
            g16_fp_neg(&neg, &want);
            CHECK(g16_fp_eq(&sq, &a), "%s:%ld: root does not square back", l.file, l.lineno);
            CHECK(g16_fp_eq(&got, &want) || g16_fp_eq(&got, &neg), "%s:%ld: root is not ±noble's",
                  l.file, l.lineno);
            CHECK(g16_fp_is_square(&a), "%s:%ld: square reported non-square", l.file, l.lineno);
            continue;
        }
        }
        CHECK(g16_fp_eq(&got, &want), "%s:%ld: %s mismatch", l.file, l.lineno, l.op);
    }
    CHECK(rc == 0, "%s", "fp.txt read error");
    g16_vec_close(f);
    check_counts("fp.txt", counts, 1, MIN_FP_OP);
}

static void test_fr(void)
{
    long counts[OP_N] = {0};
    g16_vec_file *f = g16_vec_open("fr.txt");
    CHECK(f != NULL, "%s", "fr.txt missing");
    if (!f) return;
    g16_vec_line l;
    int rc;
    while ((rc = g16_vec_next(f, &l)) > 0) {
        int op = frame(&l, 0, counts);
        if (op < 0) continue;
        g16_fr a, b, want, got;
        uint64_t e[6];
        int ok = g16_vec_fr(l.tok[0], &a) && g16_vec_fr(l.tok[l.ntok - 1], &want);
        if (op_arity[op] == 3) ok &= op == OP_POW ? exponent(l.tok[1], e) : g16_vec_fr(l.tok[1], &b);
        CHECK(ok, "%s:%ld: bad operand", l.file, l.lineno);
        if (!ok) continue;
        switch (op) {
        case OP_ADD: g16_fr_add(&got, &a, &b); break;
        case OP_SUB: g16_fr_sub(&got, &a, &b); break;
        case OP_MUL: g16_fr_mul(&got, &a, &b); break;
        case OP_SQR: g16_fr_sqr(&got, &a); break;
        case OP_NEG: g16_fr_neg(&got, &a); break;
        case OP_INV: g16_fr_inv(&got, &a); break;
        case OP_POW: g16_fr_pow(&got, &a, e, 6); break;
        }
        CHECK(g16_fr_eq(&got, &want), "%s:%ld: %s mismatch", l.file, l.lineno, l.op);
        /* The byte round trip is part of what the vectors pin down. */
        uint8_t be[G16_FR_BYTES], raw[G16_FR_BYTES];
        g16_fr_to_be(be, &want);
        g16_vec_hex(l.tok[l.ntok - 1], raw, sizeof raw);
        CHECK(!memcmp(be, raw, sizeof be), "%s:%ld: to_be round trip", l.file, l.lineno);
    }
    CHECK(rc == 0, "%s", "fr.txt read error");
    g16_vec_close(f);
    check_counts("fr.txt", counts, 0, MIN_FR_OP);
}

static void test_fp2(void)
{
    long counts[OP_N] = {0};
    g16_vec_file *f = g16_vec_open("fp2.txt");
    CHECK(f != NULL, "%s", "fp2.txt missing");
    if (!f) return;
    g16_vec_line l;
    int rc;
    while ((rc = g16_vec_next(f, &l)) > 0) {
        int op = frame(&l, 1, counts);
        if (op < 0) continue;
        CHECK(op != OP_POW, "%s:%ld: fp2 has no pow records", l.file, l.lineno);
        if (op == OP_POW) continue;
        g16_fp2 a, b, want, got;
        int ok = g16_vec_fp2(l.tok[0], &a);
        if (op == OP_SQRT && !strcmp(l.tok[1], "none")) {
            CHECK(ok, "%s:%ld: bad operand", l.file, l.lineno);
            CHECK(!g16_fp2_sqrt(&got, &a), "%s:%ld: sqrt of a non-square accepted", l.file,
                  l.lineno);
            continue;
        }
        ok &= g16_vec_fp2(l.tok[l.ntok - 1], &want);
        if (op_arity[op] == 3) ok &= g16_vec_fp2(l.tok[1], &b);
        CHECK(ok, "%s:%ld: bad operand", l.file, l.lineno);
        if (!ok) continue;
        switch (op) {
        case OP_ADD: g16_fp2_add(&got, &a, &b); break;
        case OP_SUB: g16_fp2_sub(&got, &a, &b); break;
        case OP_MUL: g16_fp2_mul(&got, &a, &b); break;
        case OP_SQR: g16_fp2_sqr(&got, &a); break;
        case OP_NEG: g16_fp2_neg(&got, &a); break;
        case OP_INV: g16_fp2_inv(&got, &a); break;
        case OP_SQRT: {
            g16_fp2 sq, neg;
            int found = g16_fp2_sqrt(&got, &a);
            CHECK(found, "%s:%ld: sqrt of a square refused", l.file, l.lineno);
            if (!found) continue;
            g16_fp2_sqr(&sq, &got);
            g16_fp2_neg(&neg, &want);
            CHECK(g16_fp2_eq(&sq, &a), "%s:%ld: root does not square back", l.file, l.lineno);
            CHECK(g16_fp2_eq(&got, &want) || g16_fp2_eq(&got, &neg),
                  "%s:%ld: root is not ±noble's", l.file, l.lineno);
            continue;
        }
        }
        CHECK(g16_fp2_eq(&got, &want), "%s:%ld: %s mismatch", l.file, l.lineno, l.op);
    }
    CHECK(rc == 0, "%s", "fp2.txt read error");
    g16_vec_close(f);
    counts[OP_POW] = MIN_FP2_OP; /* fp2.txt has no pow by design */
    check_counts("fp2.txt", counts, 1, MIN_FP2_OP);
}

/* The reader itself: exact-length hex, the empty token, Fp2 splitting, range checks. */
static void test_reader(void)
{
    uint8_t b[4];
    CHECK(g16_vec_hex("0a0B0c0d", b, 4) && b[0] == 0x0a && b[1] == 0x0b && b[3] == 0x0d, "%s",
          "hex decode");
    CHECK(!g16_vec_hex("0a0b0c", b, 4), "%s", "short token accepted");
    CHECK(!g16_vec_hex("0a0b0c0d0e", b, 4), "%s", "long token accepted");
    CHECK(!g16_vec_hex("0a0b0c0g", b, 4), "%s", "non-hex accepted");
    CHECK(g16_vec_hex("-", b, 0) && !g16_vec_hex("-", b, 1), "%s", "empty token");
    CHECK(g16_vec_hex_any("-", b, 4) == 0 && g16_vec_hex_any("abc", b, 4) == -1 &&
              g16_vec_hex_any("0102", b, 4) == 2 && g16_vec_hex_any("0102030405", b, 4) == -1,
          "%s", "hex_any lengths");

    /* p itself must be refused as an Fp element; p - 1 accepted. */
#if G16_CURVE_BN254
    const char *p_hex = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
    const char *pm1_hex = "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd46";
#else
    const char *p_hex = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
    const char *pm1_hex = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaaa";
#endif
    g16_fp x;
    g16_fp2 y;
    char two[2 * 96 + 2];
    CHECK(!g16_vec_fp(p_hex, &x) && g16_vec_fp(pm1_hex, &x), "%s", "fp range check");
    snprintf(two, sizeof two, "%s,%s", pm1_hex, p_hex);
    CHECK(!g16_vec_fp2(two, &y), "%s", "fp2 with c1 = p accepted");
    snprintf(two, sizeof two, "%s,%s", pm1_hex, pm1_hex);
    CHECK(g16_vec_fp2(two, &y) && g16_fp_eq(&y.c0, &x) && g16_fp_eq(&y.c1, &x), "%s", "fp2 split");
    CHECK(!g16_vec_fp2(pm1_hex, &y), "%s", "fp2 without comma accepted");

    uint64_t k[4];
    CHECK(g16_vec_scalar("ffffffffffffffff0000000000000002000000000000000300000000000000ff", k) &&
              k[0] == 0xff && k[1] == 3 && k[2] == 2 && k[3] == ~0ULL,
          "%s", "scalar limb order");
    CHECK(g16_vec_open("no-such-file.txt") == NULL, "%s", "missing file opened");
}

int main(void)
{
    test_reader();
    test_fp();
    test_fr();
    test_fp2();
    return g16_test_finish("test_field_vectors");
}
