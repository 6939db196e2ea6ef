/* `g16 selftest`: known answers from @noble/curves (selftest_kat.h) run through
 * the public paths, plus cross-checks that need no stored answer (bilinearity,
 * the assembly path against the portable core). */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "curve/curve.h"
#include "field/cpu.h"
#include "field/fp.h"
#include "field/fr.h"
#include "pairing/pairing.h"
#include "diag/selftest_kat.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Returns the byte count, or -1 when the string is not hex of at most cap bytes. */
static long unhex(uint8_t *out, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

static void scalar_limbs(uint64_t k[4], const uint8_t be[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = w << 8 | be[8 * (3 - i) + j];
        k[i] = w;
    }
}

static g16_status reason_status(const char *reason)
{
    static const struct { const char *name; g16_status s; } map[] = {
        {"length", G16_ERR_LENGTH},         {"flags", G16_ERR_FLAGS},
        {"noncanonical", G16_ERR_NONCANONICAL}, {"not_on_curve", G16_ERR_NOT_ON_CURVE},
        {"not_in_subgroup", G16_ERR_NOT_IN_SUBGROUP}, {"infinity", G16_ERR_INFINITY}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i].name, reason)) return map[i].s;
    return G16_ERR_INTERNAL;
}

/* Runs one known-answer record; on failure writes what differed into detail. */
static int run_kat(const selftest_kat *k, char *detail, size_t cap)
{
    uint8_t a[192], b[192], c[576], got[576];
    long na = unhex(a, sizeof a, k->arg[0]);
    long nb = unhex(b, sizeof b, k->arg[1]);
    long nc = unhex(c, sizeof c, k->arg[2]);
    const char *kind = k->kind;
    if (!strcmp(kind, "fp_mul") || !strcmp(kind, "fp_inv") || !strcmp(kind, "fp_sqrt")) {
        g16_fp x, y, r;
        if (g16_fp_from_be(&x, a) != G16_OK) return snprintf(detail, cap, "bad operand"), 0;
        if (!strcmp(kind, "fp_mul")) {
            if (g16_fp_from_be(&y, b) != G16_OK) return snprintf(detail, cap, "bad operand"), 0;
            g16_fp_mul(&r, &x, &y);
        } else if (!strcmp(kind, "fp_inv")) {
            g16_fp_inv(&r, &x);
            nc = nb;
            memcpy(c, b, 48);
        } else {
            int ok = g16_fp_sqrt(&r, &x);
            if (!strcmp(k->arg[1], "none"))
                return ok ? (snprintf(detail, cap, "found a root of a non-square"), 0) : 1;
            if (!ok) return snprintf(detail, cap, "no root found"), 0;
            g16_fp ref, neg;
            g16_fp_from_be(&ref, b);
            g16_fp_neg(&neg, &ref);
            if (g16_fp_eq(&r, &ref) || g16_fp_eq(&r, &neg)) return 1;
            return snprintf(detail, cap, "root differs from the reference (and its negation)"), 0;
        }
        g16_fp_to_be(got, &r);
        if (nc == 48 && !memcmp(got, c, 48)) return 1;
        return snprintf(detail, cap, "result differs"), 0;
    }
    if (!strcmp(kind, "fr_mul")) {
        g16_fr x, y, r;
        if (g16_fr_from_be(&x, a) || g16_fr_from_be(&y, b)) return snprintf(detail, cap, "bad operand"), 0;
        g16_fr_mul(&r, &x, &y);
        g16_fr_to_be(got, &r);
        if (nc == 32 && !memcmp(got, c, 32)) return 1;
        return snprintf(detail, cap, "result differs"), 0;
    }
    if (!strcmp(kind, "g1_mul") || !strcmp(kind, "g1_add")) {
        g16_g1_affine p, q, ra;
        g16_g1_jac pj, rj;
        if (g16_g1_decode(&p, a, (size_t)na, 0)) return snprintf(detail, cap, "decode: %s", g16_last_error()), 0;
        g16_g1_jac_from_affine(&pj, &p);
        if (kind[3] == 'm') {
            uint64_t s[4];
            scalar_limbs(s, b);
            g16_g1_mul(&rj, &pj, s);
        } else {
            if (g16_g1_decode(&q, b, (size_t)nb, 0)) return snprintf(detail, cap, "decode: %s", g16_last_error()), 0;
            g16_g1_jac_add_affine(&rj, &pj, &q);
        }
        g16_g1_jac_to_affine(&ra, &rj);
        g16_g1_encode_compressed(got, &ra);
        if (nc == 48 && !memcmp(got, c, 48)) return 1;
        return snprintf(detail, cap, "result differs"), 0;
    }
    if (!strcmp(kind, "g2_mul") || !strcmp(kind, "g2_add")) {
        g16_g2_affine p, q, ra;
        g16_g2_jac pj, rj;
        if (g16_g2_decode(&p, a, (size_t)na, 0)) return snprintf(detail, cap, "decode: %s", g16_last_error()), 0;
        g16_g2_jac_from_affine(&pj, &p);
        if (kind[3] == 'm') {
            uint64_t s[4];
            scalar_limbs(s, b);
            g16_g2_mul(&rj, &pj, s);
        } else {
            if (g16_g2_decode(&q, b, (size_t)nb, 0)) return snprintf(detail, cap, "decode: %s", g16_last_error()), 0;
            g16_g2_jac_add_affine(&rj, &pj, &q);
        }
        g16_g2_jac_to_affine(&ra, &rj);
        g16_g2_encode_compressed(got, &ra);
        if (nc == 96 && !memcmp(got, c, 96)) return 1;
        return snprintf(detail, cap, "result differs"), 0;
    }
    if (!strcmp(kind, "reject_g1") || !strcmp(kind, "reject_g2")) {
        g16_g1_affine p;
        g16_g2_affine q;
        if (na < 0) na = 0; /* "-" stands for the empty encoding */
        g16_status want = reason_status(k->arg[1]);
        g16_status s = kind[8] == '1' ? g16_g1_decode(&p, a, (size_t)na, 0)
                                      : g16_g2_decode(&q, a, (size_t)na, 0);
        if (s == want) return 1;
        return snprintf(detail, cap, "got '%s', expected '%s'", g16_status_str(s), g16_status_str(want)), 0;
    }
    if (!strcmp(kind, "pairing")) {
        g16_g1_affine p;
        g16_g2_affine q;
        g16_fp12 e;
        if (g16_g1_decode(&p, a, (size_t)na, 0) || g16_g2_decode(&q, b, (size_t)nb, 0))
            return snprintf(detail, cap, "decode: %s", g16_last_error()), 0;
        g16_pairing(&e, &p, &q);
        g16_fp12_to_bytes(got, &e);
        if (nc == 576 && !memcmp(got, c, 576)) return 1;
        return snprintf(detail, cap, "result differs"), 0;
    }
    return snprintf(detail, cap, "unknown check kind '%s'", kind), 0;
}

/* e(a·P, b·Q) = e(ab·P, Q): no stored answer, exercises scalar mult and pairing. */
static int check_bilinear(char *detail, size_t cap)
{
    uint64_t ka[4] = {0x1234567890abcdefULL, 0x0fedcba987654321ULL, 0x1111, 0x2222};
    uint64_t kb[4] = {0xdeadbeefULL, 0xfeedfaceULL, 0x5, 0};
    g16_fr a, b, ab;
    g16_fr_from_canonical(&a, ka);
    g16_fr_from_canonical(&b, kb);
    g16_fr_mul(&ab, &a, &b);
    uint64_t kab[4];
    g16_fr_to_canonical(kab, &ab);
    g16_g1_jac g, pa, pab;
    g16_g2_jac h, qb;
    g16_g1_jac_generator(&g);
    g16_g2_jac_generator(&h);
    g16_g1_mul(&pa, &g, ka);
    g16_g1_mul(&pab, &g, kab);
    g16_g2_mul(&qb, &h, kb);
    g16_g1_affine p1, p2;
    g16_g2_affine q1, q2;
    g16_g1_jac_to_affine(&p1, &pa);
    g16_g1_jac_to_affine(&p2, &pab);
    g16_g2_jac_to_affine(&q1, &qb);
    g16_g2_affine_generator(&q2);
    g16_fp12 e1, e2;
    g16_pairing(&e1, &p1, &q1);
    g16_pairing(&e2, &p2, &q2);
    if (g16_fp12_eq(&e1, &e2) && !g16_fp12_is_one(&e1)) return 1;
    return snprintf(detail, cap, "e(aP, bQ) != e(abP, Q)"), 0;
}

/* The assembly path and the portable core agree on a chain of products. */
static int check_paths(char *detail, size_t cap)
{
    if (!g16_cpu_can_mulx()) return 1; /* only one path exists here */
    int saved = g16_use_mulx;
    g16_fp x[2], y;
    g16_fr u[2], v;
    g16_fp_from_u64(&y, 0xfeedbeef);
    g16_fp_inv(&y, &y);
    g16_fr_from_u64(&v, 0xc0ffee);
    g16_fr_inv(&v, &v);
    for (int path = 0; path < 2; path++) {
        g16_field_force_portable(path == 0);
        g16_fp_set_one(&x[path]);
        g16_fr_set_one(&u[path]);
        for (int i = 0; i < 10000; i++) {
            g16_fp_mul(&x[path], &x[path], &y);
            g16_fp_sqr(&x[path], &x[path]);
            g16_fp_add(&x[path], &x[path], &y);
            g16_fr_mul(&u[path], &u[path], &v);
            g16_fr_add(&u[path], &u[path], &v);
        }
    }
    g16_use_mulx = saved;
    if (g16_fp_eq(&x[0], &x[1]) && g16_fr_eq(&u[0], &u[1])) return 1;
    return snprintf(detail, cap, "portable and assembly results differ"), 0;
}

g16_status g16_selftest(g16_check_result *results, size_t cap, size_t *count)
{
    if (!count || (!results && cap)) return g16_fail(G16_ERR_ARG, "selftest: null argument");
    size_t n = 0, failed = 0;
    size_t nk = sizeof selftest_kats / sizeof selftest_kats[0];
    for (size_t i = 0; i < nk + 2; i++, n++) {
        char detail[96] = "";
        const char *name;
        int ok;
        if (i < nk) {
            name = selftest_kats[i].name;
            ok = run_kat(&selftest_kats[i], detail, sizeof detail);
        } else if (i == nk) {
            name = "pairing bilinearity e(aP,bQ) = e(abP,Q)";
            ok = check_bilinear(detail, sizeof detail);
        } else {
            name = "mulx/adx path equals portable C";
            ok = check_paths(detail, sizeof detail);
        }
        failed += !ok;
        if (n < cap) {
            results[n].name = name;
            results[n].passed = ok;
            snprintf(results[n].detail, sizeof results[n].detail, "%s", detail);
        }
    }
    *count = n;
    g16_clear_error();
    if (failed) return g16_fail(G16_ERR_INTERNAL, "selftest: %zu of %zu checks failed", failed, n);
    return G16_OK;
}
