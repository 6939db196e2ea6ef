/* snarkjs Groth16 .zkey reader and writer (of the curve of the compile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "field/fp_batch.h"
#include "field/fp_ifma.h"
#if G16_CURVE_BN254
#include "bn254/consts.h"
#endif
#include "io/circom_bin.h"
#include "io/snarkjs.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the zkey reader copies little-endian limbs directly: a big-endian host needs byte swaps"
#endif

/* snarkjs keeps Fq coordinates in Montgomery form with R = 2^(64·limbs) (2^384 on
 * bls12381, 2^256 on bn128), the same form as g16_fp, so a coordinate's LE bytes
 * are its limbs; only the bound is checked. */
static int fp_ok(const g16_fp *a)
{
    for (int i = G16_FP_LIMBS - 1; i >= 0; i--) {
        if (a->l[i] < g16_fp_modulus[i]) return 1;
        if (a->l[i] > g16_fp_modulus[i]) return 0;
    }
    return 0;
}

static int fr_raw_ok(const uint64_t *a)
{
    for (int i = G16_FR_LIMBS - 1; i >= 0; i--) {
        if (a[i] < g16_fr_modulus[i]) return 1;
        if (a[i] > g16_fr_modulus[i]) return 0;
    }
    return 0;
}

static int g1_ok(const g16_g1_affine *p)
{
    return fp_ok(&p->x) && fp_ok(&p->y) && (g16_g1_affine_is_infinity(p) || g16_g1_affine_on_curve(p));
}

static int g2_ok(const g16_g2_affine *p)
{
    return fp_ok(&p->x.c0) && fp_ok(&p->x.c1) && fp_ok(&p->y.c0) && fp_ok(&p->y.c1) &&
           (g16_g2_affine_is_infinity(p) || g16_g2_affine_on_curve(p));
}

typedef struct check_ctx {
    void *pts;
    const uint8_t *src; /* the section's bytes, copied into pts by the workers */
    int g2;
    size_t first_bad; /* smallest bad index seen (SIZE_MAX: none) */
} check_ctx;

#ifdef G16_IFMA_BUILD
#define SJ_IFMA 1
#endif

/* b of G1 and of the twist: 4 and 4(1 + u) on bls12381, 3 and 3/(9 + u) on bn128 */
static void curve_b(g16_fp *b1, g16_fp2 *b2)
{
#if G16_CURVE_BN254
    static const g16_fp bn_b1 = G16_BN254_G1_B;
    static const g16_fp2 bn_b2 = G16_BN254_G2_B;
    *b1 = bn_b1, *b2 = bn_b2;
#else
    g16_fp_from_u64(b1, 4);
    b2->c0 = *b1, b2->c1 = *b1;
#endif
}

#ifdef SJ_IFMA
/* y² = x³ + b for 8 points at once (IFMA, fp_ifma.h): the on-curve test is ~3
 * (G1) or ~7 (G2) Fp products per point, the bulk of reading a key.  Returns the
 * lanes of k that are on the curve; coordinates must be below p (fp_ok first). */
static IFMA_TARGET __mmask8 g1_on_curve8(const g16_g1_affine *p, __mmask8 k)
{
    v8 x, y, a[2], b[2], o[2], x3, b4;
    g16_fp b1;
    g16_fp2 b2;
    curve_b(&b1, &b2);
    v8_set1(&b4, &b1);
    load8(&x, &p->x, k, offsets(2));
    load8(&y, &p->y, k, offsets(2));
    a[0] = x, a[1] = y, b[0] = x, b[1] = y;
    mont8_2(o, a, b);
    mont8_1(&x3, &o[0], &x);
    v8_add(&x3, &x3, &b4);
    __mmask8 eq = k;
    for (int j = 0; j < FP_NL; j++) eq &= _mm512_cmpeq_epi64_mask(x3.l[j], o[1].l[j]);
    return eq;
}

static IFMA_TARGET __mmask8 g2_on_curve8(const g16_g2_affine *p, __mmask8 k)
{
    v8 x0, x1, y0, y1, a[2], b[2], o[2], q[2], t, u, bc0, bc1;
    g16_fp b1;
    g16_fp2 b2;
    curve_b(&b1, &b2);
    v8_set1(&bc0, &b2.c0);
    v8_set1(&bc1, &b2.c1);
    load8(&x0, &p->x.c0, k, offsets(4));
    load8(&x1, &p->x.c1, k, offsets(4));
    load8(&y0, &p->y.c0, k, offsets(4));
    load8(&y1, &p->y.c1, k, offsets(4));
    /* x² = (x0 + x1)(x0 − x1) + 2·x0·x1·u, y² likewise */
    v8_add(&a[0], &x0, &x1), v8_sub(&b[0], &x0, &x1);
    v8_add(&a[1], &y0, &y1), v8_sub(&b[1], &y0, &y1);
    mont8_2(o, a, b);
    a[0] = x0, a[1] = y0, b[0] = x1, b[1] = y1;
    mont8_2(q, a, b);
    v8 s0 = o[0], s1, r0 = o[1], r1;
    v8_add(&s1, &q[0], &q[0]);
    v8_add(&r1, &q[1], &q[1]);
    /* x³ = x²·x by Karatsuba */
    a[0] = s0, a[1] = s1, b[0] = x0, b[1] = x1;
    mont8_2(o, a, b);
    v8_add(&t, &s0, &s1);
    v8_add(&u, &x0, &x1);
    mont8_1(&t, &t, &u);
    v8_sub(&u, &o[0], &o[1]); /* c0 */
    v8_sub(&t, &t, &o[0]);
    v8_sub(&t, &t, &o[1]); /* c1 */
    /* + b */
    v8_add(&u, &u, &bc0);
    v8_add(&t, &t, &bc1);
    __mmask8 eq = k;
    for (int j = 0; j < FP_NL; j++)
        eq &= _mm512_cmpeq_epi64_mask(u.l[j], r0.l[j]) & _mm512_cmpeq_epi64_mask(t.l[j], r1.l[j]);
    return eq;
}
#endif

static void note_bad(check_ctx *c, size_t i)
{
    size_t cur = __atomic_load_n(&c->first_bad, __ATOMIC_RELAXED);
    while (i < cur && !__atomic_compare_exchange_n(&c->first_bad, &cur, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Copies and checks a range: both in the workers, since first touches of the
 * fresh buffer (page faults) cost about as much as the checks. */
static void check_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    check_ctx *c = vctx;
    size_t psz = c->g2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine);
    memcpy((uint8_t *)c->pts + begin * psz, c->src + begin * psz, (end - begin) * psz);
    size_t i = begin;
#ifdef SJ_IFMA
    if (g16_use_ifma) {
        for (; i + 8 <= end; i += 8) {
            __mmask8 want = 0;
            int fine = 1;
            for (int l = 0; l < 8; l++) {
                int inf;
                if (c->g2) {
                    const g16_g2_affine *p = (const g16_g2_affine *)c->pts + i + l;
                    fine &= fp_ok(&p->x.c0) && fp_ok(&p->x.c1) && fp_ok(&p->y.c0) && fp_ok(&p->y.c1);
                    inf = g16_g2_affine_is_infinity(p);
                } else {
                    const g16_g1_affine *p = (const g16_g1_affine *)c->pts + i + l;
                    fine &= fp_ok(&p->x) && fp_ok(&p->y);
                    inf = g16_g1_affine_is_infinity(p);
                }
                if (!inf) want |= (__mmask8)(1u << l);
            }
            if (fine && (c->g2 ? g2_on_curve8((const g16_g2_affine *)c->pts + i, want)
                               : g1_on_curve8((const g16_g1_affine *)c->pts + i, want)) == want)
                continue;
            /* a bad point in these 8: the scalar test names the first */
            for (size_t b = i; b < i + 8; b++) {
                if (!(c->g2 ? g2_ok((const g16_g2_affine *)c->pts + b) : g1_ok((const g16_g1_affine *)c->pts + b))) {
                    note_bad(c, b);
                    return;
                }
            }
        }
    }
#endif
    for (; i < end; i++) {
        int ok = c->g2 ? g2_ok((const g16_g2_affine *)c->pts + i) : g1_ok((const g16_g1_affine *)c->pts + i);
        if (!ok) {
            note_bad(c, i);
            return;
        }
    }
}

/* Copies count points of section id (exactly its size) and checks them. */
static g16_status read_points(void **out, const g16_binfile *f, uint32_t id, const char *what, uint64_t count,
                              int g2, int subgroup)
{
    g16_bin_cursor c;
    G16_TRY(g16_bin_section(&c, f, id, what));
    size_t psz = g2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine);
    if (c.end - c.pos != count * psz)
        return g16_bin_fail(&c, "%s: %llu bytes, expected %llu points of %zu bytes", what,
                            (unsigned long long)(c.end - c.pos), (unsigned long long)count, psz);
    void *pts = malloc(count ? count * psz : 1);
    if (!pts) return g16_fail(G16_ERR_NOMEM, "%s: %s: %llu points", f->path, what, (unsigned long long)count);
    check_ctx cc = {pts, f->data + c.pos, g2, SIZE_MAX};
    g16_parallel_for(count, 0, check_fn, &cc);
    for (size_t i = 0; subgroup && cc.first_bad == SIZE_MAX && i < count; i++) {
        int in = g2 ? g16_g2_affine_in_subgroup((g16_g2_affine *)pts + i) : g16_g1_affine_in_subgroup((g16_g1_affine *)pts + i);
        if (!in) {
            free(pts);
            c.pos += i * psz;
            return g16_bin_fail(&c, "%s: point %zu is not in the prime-order subgroup", what, i);
        }
    }
    if (cc.first_bad != SIZE_MAX) {
        free(pts);
        c.pos += cc.first_bad * psz;
        return g16_bin_fail(&c, "%s: point %zu has a coordinate >= p or is not on the curve", what, cc.first_bad);
    }
    *out = pts;
    return G16_OK;
}

static g16_status header_point(g16_bin_cursor *c, void *out, int g2, const char *name)
{
    const uint8_t *p;
    size_t psz = g2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine);
    G16_TRY(g16_bin_bytes(c, &p, psz));
    memcpy(out, p, psz);
    int ok = g2 ? g2_ok(out) : g1_ok(out);
    if (ok) ok = g2 ? g16_g2_affine_in_subgroup(out) : g16_g1_affine_in_subgroup(out);
    if (!ok) {
        c->pos -= psz;
        return g16_bin_fail(c, "%s is not a valid point of %s", name, g2 ? "G2" : "G1");
    }
    return G16_OK;
}

static g16_status read_header(g16_sj_pk *pk, const g16_binfile *f)
{
    g16_bin_cursor c;
    uint32_t proto;
    G16_TRY(g16_bin_section(&c, f, 1, "protocol"));
    G16_TRY(g16_bin_u32(&c, &proto));
    if (proto != 1) {
        c.pos -= 4;
        return g16_bin_fail(&c, "protocol %u (%s): only groth16 (1) is supported", proto,
                            proto == 2 ? "plonk" : proto == 10 ? "fflonk" : "unknown");
    }
    G16_TRY(g16_bin_expect_end(&c));
    G16_TRY(g16_bin_section(&c, f, 2, "groth16 header"));
    G16_TRY(g16_bin_expect_prime(&c, g16_fp_modulus, G16_FP_LIMBS, "the base field q"));
    G16_TRY(g16_bin_expect_prime(&c, g16_fr_modulus, G16_FR_LIMBS, "the scalar field r"));
    G16_TRY(g16_bin_u32(&c, &pk->n_vars));
    G16_TRY(g16_bin_u32(&c, &pk->n_public));
    G16_TRY(g16_bin_u32(&c, &pk->domain_size));
    if (pk->n_vars == 0 || pk->n_public >= pk->n_vars)
        return g16_bin_fail(&c, "%u public signals do not fit in %u variables", pk->n_public, pk->n_vars);
    uint32_t n = pk->domain_size;
    /* the prover evaluates on the 2n-th roots too */
    if (n == 0 || (n & (n - 1)) || n > (1ull << (G16_SJ_TWO_ADICITY - 1)))
        return g16_bin_fail(&c, "domain size %u is not a power of two up to 2^%u (%s)", n, G16_SJ_TWO_ADICITY - 1,
                            G16_SJ_CURVE_NAME);
    if (n < pk->n_public + 1u)
        return g16_bin_fail(&c, "domain size %u is below nPublic + 1 = %u", n, pk->n_public + 1);
    pk->log_n = (uint32_t)__builtin_ctz(n);
    G16_TRY(header_point(&c, &pk->alpha1, 0, "alpha_1"));
    G16_TRY(header_point(&c, &pk->beta1, 0, "beta_1"));
    G16_TRY(header_point(&c, &pk->beta2, 1, "beta_2"));
    G16_TRY(header_point(&c, &pk->gamma2, 1, "gamma_2"));
    G16_TRY(header_point(&c, &pk->delta1, 0, "delta_1"));
    G16_TRY(header_point(&c, &pk->delta2, 1, "delta_2"));
    return g16_bin_expect_end(&c);
}

static g16_status read_coefs(g16_sj_pk *pk, const g16_binfile *f)
{
    g16_bin_cursor c;
    uint32_t count;
    G16_TRY(g16_bin_section(&c, f, 4, "A/B coefficients"));
    G16_TRY(g16_bin_u32(&c, &count));
    if (c.end - c.pos != 44ull * count)
        return g16_bin_fail(&c, "%llu bytes for %u coefficients of 44 bytes", (unsigned long long)(c.end - c.pos), count);
    pk->n_coefs = count;
    pk->coefs = malloc((count ? count : 1) * sizeof *pk->coefs);
    if (!pk->coefs) return g16_fail(G16_ERR_NOMEM, "%s: %u coefficients", f->path, count);
    /* The stored value is coef·R² mod r (R = 2^256): read as Montgomery limbs it is
     * coef·R, so one Montgomery multiplication by the raw integer 1 gives g16's form. */
    static const g16_fr raw_one = {{1, 0, 0, 0}};
    for (uint32_t i = 0; i < count; i++) {
        g16_sj_coef *e = &pk->coefs[i];
        const uint8_t *p;
        uint64_t at = c.pos;
        G16_TRY(g16_bin_u32(&c, &e->m));
        G16_TRY(g16_bin_u32(&c, &e->row));
        G16_TRY(g16_bin_u32(&c, &e->signal));
        G16_TRY(g16_bin_bytes(&c, &p, 32));
        g16_fr raw;
        memcpy(raw.l, p, 32);
        if (e->m > 1 || e->row >= pk->domain_size || e->signal >= pk->n_vars || !fr_raw_ok(raw.l)) {
            c.pos = at;
            return g16_bin_fail(&c, "coefficient %u: matrix %u row %u signal %u (need matrix 0/1, row < %u, "
                                "signal < %u, value < r)", i, e->m, e->row, e->signal, pk->domain_size, pk->n_vars);
        }
        g16_fr_mul(&e->value, &raw, &raw_one);
    }
    return G16_OK;
}

g16_status g16_sj_zkey_read(g16_sj_pk *pk, const char *path)
{
    memset(pk, 0, sizeof *pk);
    g16_binfile f;
    G16_TRY(g16_bin_open(&f, path, "zkey"));
    g16_status s = G16_OK;
    if (f.version != 1) s = g16_fail(G16_ERR_FORMAT, "%s: offset 4: version %u, expected 1", path, f.version);
    if (s == G16_OK) s = read_header(pk, &f);
    void *p;
    uint64_t np = pk->n_vars, npriv = (uint64_t)pk->n_vars - pk->n_public - 1;
    if (s == G16_OK && (s = read_points(&p, &f, 3, "IC", pk->n_public + 1ull, 0, 1)) == G16_OK) pk->ic = p;
    if (s == G16_OK) s = read_coefs(pk, &f);
    if (s == G16_OK && (s = read_points(&p, &f, 5, "A points", np, 0, 0)) == G16_OK) pk->a = p;
    if (s == G16_OK && (s = read_points(&p, &f, 6, "B1 points", np, 0, 0)) == G16_OK) pk->b1 = p;
    if (s == G16_OK && (s = read_points(&p, &f, 7, "B2 points", np, 1, 0)) == G16_OK) pk->b2 = p;
    if (s == G16_OK && (s = read_points(&p, &f, 8, "C points", npriv, 0, 0)) == G16_OK) pk->c = p;
    if (s == G16_OK && (s = read_points(&p, &f, 9, "H points", pk->domain_size, 0, 0)) == G16_OK) pk->h = p;
    g16_bin_close(&f);
    if (s != G16_OK) g16_sj_pk_free(pk);
    return s;
}

/* ---------------------------------------------------------------------------
 * Writer. */

static int put(FILE *fp, const void *p, size_t n) { return fwrite(p, 1, n, fp) == n; }
static int put32(FILE *fp, uint32_t v) { return put(fp, &v, 4); }
static int put64(FILE *fp, uint64_t v) { return put(fp, &v, 8); }
static int sec(FILE *fp, uint32_t id, uint64_t size) { return put32(fp, id) && put64(fp, size); }

g16_status g16_sj_zkey_write(const g16_sj_pk *pk, const char *path)
{
    if (pk->dens_a || pk->dens_b) return g16_fail(G16_ERR_ARG, "%s: a compacted key cannot be written", path);
    FILE *fp = fopen(path, "wb");
    if (!fp) return g16_fail(G16_ERR_IO, "%s: cannot create", path);
    const size_t g1 = sizeof(g16_g1_affine), g2 = sizeof(g16_g2_affine);
    uint64_t npriv = (uint64_t)pk->n_vars - pk->n_public - 1;
    int ok = put(fp, "zkey", 4) && put32(fp, 1) && put32(fp, 10);
    ok = ok && sec(fp, 1, 4) && put32(fp, 1);
    ok = ok && sec(fp, 2, 4 + G16_FP_BYTES + 4 + 32 + 12 + 3 * g1 + 3 * g2) && put32(fp, G16_FP_BYTES) &&
         put(fp, g16_fp_modulus, G16_FP_BYTES) &&
         put32(fp, 32) && put(fp, g16_fr_modulus, 32) && put32(fp, pk->n_vars) && put32(fp, pk->n_public) &&
         put32(fp, pk->domain_size) && put(fp, &pk->alpha1, g1) && put(fp, &pk->beta1, g1) &&
         put(fp, &pk->beta2, g2) && put(fp, &pk->gamma2, g2) && put(fp, &pk->delta1, g1) && put(fp, &pk->delta2, g2);
    ok = ok && sec(fp, 3, (pk->n_public + 1ull) * g1) && put(fp, pk->ic, (pk->n_public + 1ull) * g1);
    ok = ok && sec(fp, 4, 4 + 44 * pk->n_coefs) && put32(fp, (uint32_t)pk->n_coefs);
    for (uint64_t i = 0; ok && i < pk->n_coefs; i++) {
        const g16_sj_coef *e = &pk->coefs[i];
        /* back to snarkjs's coef·R² mod r: Montgomery-multiply g16's coef·R by R² */
        g16_fr v, r1, r2;
        const uint64_t one[4] = {1, 0, 0, 0};
        g16_fr_from_canonical(&r1, one);   /* limbs: R mod r */
        g16_fr_from_canonical(&r2, r1.l);  /* limbs: R² mod r */
        g16_fr_mul(&v, &e->value, &r2);
        ok = put32(fp, e->m) && put32(fp, e->row) && put32(fp, e->signal) && put(fp, v.l, 32);
    }
    ok = ok && sec(fp, 5, pk->n_vars * g1) && put(fp, pk->a, pk->n_vars * g1);
    ok = ok && sec(fp, 6, pk->n_vars * g1) && put(fp, pk->b1, pk->n_vars * g1);
    ok = ok && sec(fp, 7, pk->n_vars * g2) && put(fp, pk->b2, pk->n_vars * g2);
    ok = ok && sec(fp, 8, npriv * g1) && put(fp, pk->c, npriv * g1);
    ok = ok && sec(fp, 9, (uint64_t)pk->domain_size * g1) && put(fp, pk->h, (uint64_t)pk->domain_size * g1);
    /* section 10: the contributions (none): a 64-byte zero hash and a count of 0 */
    static const uint8_t zero_hash[64];
    ok = ok && sec(fp, 10, 64 + 4) && put(fp, zero_hash, 64) && put32(fp, 0);
    if (fclose(fp) != 0) ok = 0;
    if (!ok) return g16_fail(G16_ERR_IO, "%s: write failed", path);
    return G16_OK;
}
