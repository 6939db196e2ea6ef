/* Known answers from @noble/curves (tests/vectors/g1.txt, g2.txt, invalid.txt;
 * docs/vectors.md): every record is checked, records are counted, and a missing
 * or short file fails the test.  Every invalid encoding must be refused with
 * exactly its stated reason. */
#include <string.h>

#include "check.h"
#include "curve/curve.h"
#include "vectors.h"

typedef struct counts { long add, dbl, neg, mul, enc, other; } counts;

#define GROUP_VECTORS(G, AFF, JAC, XYZZ, NC, NU)                                              \
    static int G##_tok(const g16_vec_line *l, int i, AFF *p)                                  \
    {                                                                                         \
        uint8_t b[NC];                                                                        \
        if (!g16_vec_hex(l->tok[i], b, NC)) return 0;                                         \
        return g16_##G##_decode(p, b, NC, 0) == G16_OK;                                       \
    }                                                                                         \
    /* r must encode (compressed) to exactly the bytes of token i */                          \
    static int G##_matches(const g16_vec_line *l, int i, const JAC *r)                        \
    {                                                                                         \
        uint8_t want[NC], got[NC];                                                            \
        AFF a;                                                                                \
        if (!g16_vec_hex(l->tok[i], want, NC)) return 0;                                      \
        g16_##G##_jac_to_affine(&a, r);                                                       \
        g16_##G##_encode_compressed(got, &a);                                                 \
        return memcmp(want, got, NC) == 0;                                                    \
    }                                                                                         \
    static void G##_file(const char *name, counts *c)                                         \
    {                                                                                         \
        g16_vec_file *f = g16_vec_open(name);                                                 \
        CHECK(f != NULL, "cannot open %s", name);                                             \
        if (!f) return;                                                                       \
        g16_vec_line l;                                                                       \
        int rc;                                                                               \
        while ((rc = g16_vec_next(f, &l)) > 0) {                                              \
            AFF p, q;                                                                         \
            JAC pj, qj, r, r2;                                                                \
            XYZZ px, rx;                                                                      \
            int ok = l.ntok >= 2 && G##_tok(&l, 0, &p);                                       \
            if (ok) g16_##G##_jac_from_affine(&pj, &p);                                       \
            if (!strcmp(l.op, "add")) {                                                       \
                c->add++;                                                                     \
                ok = ok && l.ntok == 3 && G##_tok(&l, 1, &q);                                 \
                if (ok) {                                                                     \
                    g16_##G##_jac_from_affine(&qj, &q);                                       \
                    g16_##G##_jac_add(&r, &pj, &qj);                                          \
                    ok = G##_matches(&l, 2, &r);                                              \
                    g16_##G##_jac_add_affine(&r, &pj, &q);                                    \
                    ok = ok && G##_matches(&l, 2, &r);                                        \
                    g16_##G##_xyzz_from_affine(&px, &p);                                      \
                    g16_##G##_xyzz_add_affine(&rx, &px, &q);                                  \
                    g16_##G##_xyzz_to_jac(&r2, &rx);                                          \
                    ok = ok && G##_matches(&l, 2, &r2);                                       \
                }                                                                             \
            } else if (!strcmp(l.op, "dbl")) {                                                \
                c->dbl++;                                                                     \
                if (ok) {                                                                     \
                    g16_##G##_jac_dbl(&r, &pj);                                               \
                    ok = l.ntok == 2 && G##_matches(&l, 1, &r);                               \
                    g16_##G##_xyzz_from_affine(&px, &p);                                      \
                    g16_##G##_xyzz_dbl(&rx, &px);                                             \
                    g16_##G##_xyzz_to_jac(&r2, &rx);                                          \
                    ok = ok && G##_matches(&l, 1, &r2);                                       \
                }                                                                             \
            } else if (!strcmp(l.op, "neg")) {                                                \
                c->neg++;                                                                     \
                if (ok) {                                                                     \
                    g16_##G##_jac_neg(&r, &pj);                                               \
                    ok = l.ntok == 2 && G##_matches(&l, 1, &r);                               \
                }                                                                             \
            } else if (!strcmp(l.op, "mul")) {                                                \
                uint64_t k[4];                                                                \
                c->mul++;                                                                     \
                ok = ok && l.ntok == 3 && g16_vec_scalar(l.tok[1], k);                        \
                if (ok) {                                                                     \
                    g16_##G##_mul(&r, &pj, k);                                                \
                    ok = G##_matches(&l, 2, &r);                                              \
                    g16_##G##_mul_limbs(&r, &pj, k, 4);                                       \
                    ok = ok && G##_matches(&l, 2, &r);                                        \
                }                                                                             \
            } else if (!strcmp(l.op, "enc")) {                                                \
                uint8_t u[NU], cc[NC], out[NU];                                               \
                c->enc++;                                                                     \
                ok = l.ntok == 2 && g16_vec_hex(l.tok[0], u, NU) && g16_vec_hex(l.tok[1], cc, NC); \
                ok = ok && g16_##G##_decode(&p, u, NU, 0) == G16_OK;                          \
                ok = ok && g16_##G##_decode(&q, cc, NC, 0) == G16_OK;                         \
                if (ok) {                                                                     \
                    ok = g16_##G##_affine_eq(&p, &q);                                         \
                    g16_##G##_encode_uncompressed(out, &q);                                   \
                    ok = ok && memcmp(out, u, NU) == 0;                                       \
                    g16_##G##_encode_compressed(out, &p);                                     \
                    ok = ok && memcmp(out, cc, NC) == 0;                                      \
                }                                                                             \
            } else {                                                                          \
                c->other++;                                                                   \
                ok = 0;                                                                       \
            }                                                                                 \
            CHECK(ok, "%s:%ld: %s record failed", l.file, l.lineno, l.op);                    \
        }                                                                                     \
        CHECK(rc == 0, "%s: read error", name);                                               \
        g16_vec_close(f);                                                                     \
    }

GROUP_VECTORS(g1, g16_g1_affine, g16_g1_jac, g16_g1_xyzz, G16_G1_COMPRESSED_BYTES, G16_G1_UNCOMPRESSED_BYTES)
GROUP_VECTORS(g2, g16_g2_affine, g16_g2_jac, g16_g2_xyzz, G16_G2_COMPRESSED_BYTES, G16_G2_UNCOMPRESSED_BYTES)

static void check_counts(const char *name, const counts *c)
{
    /* docs/vectors.md: 18 add, 10 dbl, 10 neg, 48 mul, 12 enc per group */
    CHECK(c->add >= 18 && c->dbl >= 10 && c->neg >= 10 && c->mul >= 48 && c->enc >= 12 && c->other == 0,
          "%s short or unknown ops: add %ld dbl %ld neg %ld mul %ld enc %ld other %ld", name, c->add,
          c->dbl, c->neg, c->mul, c->enc, c->other);
    printf("%s: %ld add, %ld dbl, %ld neg, %ld mul, %ld enc\n", name, c->add, c->dbl, c->neg, c->mul, c->enc);
}

static const struct { const char *name; g16_status st; } reasons[] = {
    {"length", G16_ERR_LENGTH},         {"flags", G16_ERR_FLAGS},
    {"noncanonical", G16_ERR_NONCANONICAL}, {"not_on_curve", G16_ERR_NOT_ON_CURVE},
    {"not_in_subgroup", G16_ERR_NOT_IN_SUBGROUP}, {"infinity", G16_ERR_INFINITY}};
#define NREASONS (int)(sizeof reasons / sizeof reasons[0])

static void invalid_file(void)
{
    long seen[2][NREASONS] = {{0}};
    g16_vec_file *f = g16_vec_open("invalid.txt");
    CHECK(f != NULL, "%s", "cannot open invalid.txt");
    if (!f) return;
    g16_vec_line l;
    int rc;
    while ((rc = g16_vec_next(f, &l)) > 0) {
        uint8_t b[256];
        int gi = !strcmp(l.op, "g2") ? 1 : !strcmp(l.op, "g1") ? 0 : -1;
        int ri = -1;
        for (int i = 0; l.ntok == 2 && i < NREASONS; i++)
            if (!strcmp(l.tok[1], reasons[i].name)) ri = i;
        long n = l.ntok == 2 ? g16_vec_hex_any(l.tok[0], b, sizeof b) : -1;
        if (gi < 0 || ri < 0 || n < 0) {
            CHECK(0, "%s:%ld: malformed record", l.file, l.lineno);
            continue;
        }
        seen[gi][ri]++;
        g16_status st;
        g16_g1_affine p1;
        g16_g2_affine p2;
        memset(&p1, 0xa5, sizeof p1);
        memset(&p2, 0xa5, sizeof p2);
        g16_g1_affine keep1 = p1;
        g16_g2_affine keep2 = p2;
        st = gi == 0 ? g16_g1_decode(&p1, b, (size_t)n, 0) : g16_g2_decode(&p2, b, (size_t)n, 0);
        CHECK(st == reasons[ri].st, "%s:%ld: %s %s: got status %d, want %d (%s): %s", l.file, l.lineno, l.op,
              l.tok[1], (int)st, (int)reasons[ri].st, reasons[ri].name, g16_last_error());
        CHECK(!memcmp(&p1, &keep1, sizeof p1) && !memcmp(&p2, &keep2, sizeof p2),
              "%s:%ld: output written on failure", l.file, l.lineno);
        /* what skipping the subgroup test may change: only that one reason */
        st = gi == 0 ? g16_g1_decode(&p1, b, (size_t)n, G16_CURVE_NO_SUBGROUP_CHECK)
                     : g16_g2_decode(&p2, b, (size_t)n, G16_CURVE_NO_SUBGROUP_CHECK);
        if (reasons[ri].st == G16_ERR_NOT_IN_SUBGROUP)
            CHECK(st == G16_OK, "%s:%ld: off-subgroup point refused without the subgroup check", l.file, l.lineno);
        else
            CHECK(st == reasons[ri].st, "%s:%ld: reason changed without the subgroup check", l.file, l.lineno);
    }
    CHECK(rc == 0, "%s", "invalid.txt: read error");
    g16_vec_close(f);
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < NREASONS; i++)
#if G16_CURVE_BN254 /* G1 has cofactor 1: no point of it is outside the subgroup */
            if (!(g == 0 && reasons[i].st == G16_ERR_NOT_IN_SUBGROUP))
#endif
            CHECK(seen[g][i] >= 4, "invalid.txt: only %ld g%d lines for %s", seen[g][i], g + 1, reasons[i].name);
}

int main(void)
{
    counts c1 = {0}, c2 = {0};
    g1_file("g1.txt", &c1);
    g2_file("g2.txt", &c2);
    check_counts("g1.txt", &c1);
    check_counts("g2.txt", &c2);
    invalid_file();
    return g16_test_finish("test_curve_vectors");
}
