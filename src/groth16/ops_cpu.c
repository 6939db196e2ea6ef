/* The CPU backend: the reference implementation of the ops table (ops.h) on the
 * ntt and msm layers, multi-threaded on the default pool. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/bigmem.h"
#include "common/error.h"
#include "common/fault.h"
#include "groth16/ops.h"
#include "msm/msm.h"
#include "ntt/ntt.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void g16_prove_release(const g16_prove_input *in, g16_fr **buf)
{
    if (!*buf) return;
    if (in->release)
        in->release(in->release_user, *buf);
    else
        free(*buf);
    *buf = NULL;
}

static g16_status cpu_ntt(g16_backend *be, g16_fr *data, unsigned log_n, g16_ntt_kind kind)
{
    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, (int)log_n));
    switch (kind) {
    case G16_NTT_FORWARD: g16_ntt_forward_nn(d, data); break;
    case G16_NTT_INVERSE: g16_ntt_inverse_nn(d, data); break;
    case G16_NTT_COSET_FORWARD: g16_ntt_coset_forward_nn(d, data); break;
    case G16_NTT_COSET_INVERSE: g16_ntt_coset_inverse_nn(d, data); break;
    default: return g16_fail(G16_ERR_ARG, "ntt: unknown kind %d", (int)kind);
    }
    return G16_OK;
}

static g16_status cpu_h_step(g16_backend *be, g16_fr *a, g16_fr *b, g16_fr *c, unsigned log_n)
{
    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, (int)log_n));
    return g16_ntt_h_step(d, a, b, c, 0);
}

static g16_status cpu_msm_g1(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases,
                             size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density)
{
    return g16_msm_g1(out, bases, n_bases, s, n, density);
}

static g16_status cpu_msm_g2(g16_backend *be, g16_g2_jac *out, const g16_g2_affine *bases,
                             size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density)
{
    return g16_msm_g2(out, bases, n_bases, s, n, density);
}

/* An MSM whose scalars are all one, with bits as the density: every MSM of the
 * table splits off 1-scalars and sums their bases by (parallel) batch addition,
 * so this costs what a dedicated routine would, on any backend. */
g16_status g16_batch_add_by_msm(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases,
                                size_t n, const uint64_t *bits)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) m += (bits[i >> 6] >> (i & 63)) & 1;
    g16_fr *ones = g16_big_alloc((n ? n : 1) * sizeof *ones);
    g16_g1_affine *sel = g16_big_alloc((m ? m : 1) * sizeof *sel);
    g16_status st;
    if (!ones || !sel) {
        st = g16_fail(G16_ERR_NOMEM, "batch_add: out of memory for %zu points", n);
    } else {
        for (size_t i = 0; i < n; i++) g16_fr_set_one(&ones[i]);
        for (size_t i = 0, k = 0; i < n; i++)
            if ((bits[i >> 6] >> (i & 63)) & 1) sel[k++] = bases[i];
        st = be->ops->msm_g1(be, out, sel, m, ones, n, bits);
    }
    free(ones);
    free(sel);
    return st;
}

/* Copies rows entries of *src into a fresh N-entry buffer (zero padded) and
 * releases *src, so the caller's buffer is free as soon as it is copied. */
static g16_status load_padded(g16_fr **out, g16_prove_input *in, g16_fr **src, size_t N,
                              const char *what)
{
    size_t rows = in->n_rows;
    g16_fr *w = g16_big_alloc(N * sizeof *w);
    if (!w) return g16_fail(G16_ERR_NOMEM, "prove: cannot allocate %zu entries for %s", N, what);
    memcpy(w, *src, rows * sizeof *w);
    memset(w + rows, 0, (N - rows) * sizeof *w);
    g16_prove_release(in, src);
    *out = w;
    return G16_OK;
}

/* a and b to the coset, multiply, drop b's buffer for c, combine: at most two
 * N-entry buffers of our own live at once. */
static g16_status cpu_prove_h(g16_backend *be, g16_g1_jac *out, const g16_key *key,
                              g16_prove_input *in, unsigned log_n, g16_prove_times *tm)
{
    size_t N = (size_t)1 << log_n;
    g16_fr *wa = NULL, *wb = NULL;
    g16_status st;
    double t = now();
    if ((st = load_padded(&wa, in, &in->a, N, "a"))) goto done;
    if ((st = g16_h_to_coset(wa, log_n))) goto done;
    if ((st = load_padded(&wb, in, &in->b, N, "b"))) goto done;
    if ((st = g16_h_to_coset(wb, log_n))) goto done;
    g16_h_mul(wa, wb, log_n);
    memcpy(wb, in->c, in->n_rows * sizeof *wb);
    memset(wb + in->n_rows, 0, (N - in->n_rows) * sizeof *wb);
    g16_prove_release(in, &in->c);
    if ((st = g16_h_to_coset(wb, log_n))) goto done;
    if ((st = g16_h_combine(wa, NULL, wb, log_n))) goto done;
    free(wb);
    wb = NULL;
    tm->h_ntt = now() - t;
    t = now();
    st = g16_msm_g1(out, key->h, key->n_h, wa, N - 1, NULL);
    tm->msm_h = now() - t;
done:
    g16_prove_release(in, &in->a);
    g16_prove_release(in, &in->b);
    g16_prove_release(in, &in->c);
    free(wa);
    free(wb);
    return st;
}

/* L, A, B1; *hint: B1's grouping of equal values (NULL where merging does not
 * apply), for B2 over the same scalars compacted (cpu_prove_msm_g2_hinted). */
static g16_status cpu_prove_msms_g1_hinted(g16_backend *be, g16_g1_jac *l, g16_g1_jac *a,
                                           g16_g1_jac *b1, const g16_key *key, const g16_fr *z,
                                           size_t n_z, const uint64_t *abits,
                                           const uint64_t *bbits, g16_prove_times *tm,
                                           void **hint)
{
    size_t n_in = key->vk.n_ic;
    *hint = NULL;
    double t = now();
    G16_TRY(g16_msm_g1_merged(l, key->l, key->n_l, z + n_in, n_z - n_in, NULL));
    tm->msm_l = now() - t;
    t = now();
    G16_TRY(g16_msm_g1_merged(a, key->a, key->n_a, z, n_z, abits));
    tm->msm_a = now() - t;
    t = now();
    g16_msm_merge_plan *plan = NULL;
    G16_TRY(g16_msm_merge_plan_new(&plan, z, n_z, bbits, key->n_b_g1));
    g16_status st = g16_msm_g1_merged_plan(b1, key->b_g1, key->n_b_g1, z, n_z, bbits, plan);
    tm->msm_b1 = now() - t;
    if (st != G16_OK) {
        g16_msm_merge_plan_free(plan);
        return st;
    }
    *hint = plan;
    return G16_OK;
}

static void cpu_hint_free(void *hint) { g16_msm_merge_plan_free(hint); }

static g16_status cpu_prove_msms_g1(g16_backend *be, g16_g1_jac *l, g16_g1_jac *a,
                                    g16_g1_jac *b1, g16_g2_jac *b2, const g16_key *key,
                                    const g16_fr *z,
                                    size_t n_z, const uint64_t *abits, const uint64_t *bbits,
                                    g16_prove_times *tm)
{
    if (b2) return g16_fail(G16_ERR_INTERNAL, "prove: the CPU backend runs B2 in the background");
    void *hint = NULL;
    g16_status st = cpu_prove_msms_g1_hinted(be, l, a, b1, key, z, n_z, abits, bbits, tm, &hint);
    cpu_hint_free(hint);
    return st;
}

static g16_status cpu_prove_msm_g2(g16_backend *be, g16_g2_jac *out, const g16_key *key,
                                   const g16_fr *s, size_t n)
{
    return g16_msm_g2_merged(out, key->b_g2, key->n_b_g2, s, n, NULL);
}

/* With B1's grouping (the B-dense scalars compacted: scalar i has base i); without
 * one (B1 found merging not worth it, or too many variables for it) the merged MSM
 * judges for itself. */
static g16_status cpu_prove_msm_g2_hinted(g16_backend *be, g16_g2_jac *out, const g16_key *key,
                                          const g16_fr *s, size_t n, const void *hint)
{
    if (!hint) return cpu_prove_msm_g2(be, out, key, s, n);
    return g16_msm_g2_merged_plan(out, key->b_g2, key->n_b_g2, s, n, NULL, hint);
}

/* prove_start: two N-entry H buffers, then an MSM's scalar preparation (about
 * 2·N·32 bytes at most, for the h query) or a merged MSM's grouping and compact
 * copy (msm.h); the pending proof: the B-dense copy of z and the G2 MSM's scalar
 * preparation or merged copy. */
static void cpu_host_need(g16_backend *be, uint64_t N, uint64_t n_vars, size_t *scratch,
                          size_t *pending)
{
    size_t merge1 = 0, merge2 = 0;
    if (n_vars >= G16_MSM_MERGE_MIN && n_vars <= G16_MSM_MERGE_MAX) {
        merge1 = G16_MSM_MERGE_BYTES(n_vars, sizeof(g16_g1_affine)) + 2 * n_vars * sizeof(g16_fr);
        merge2 = G16_MSM_MERGE_BYTES(n_vars, sizeof(g16_g2_affine)) + 2 * n_vars * sizeof(g16_fr);
    }
    *scratch = (size_t)(4 * N * sizeof(g16_fr));
    if (merge1 > *scratch) *scratch = merge1;
    *pending = (size_t)(n_vars * sizeof(g16_fr)) + (merge2 > n_vars * sizeof(g16_fr) ? merge2 : n_vars * sizeof(g16_fr));
}

static const g16_backend_ops cpu_ops = {
    .ntt = cpu_ntt,
    .h_step = cpu_h_step,
    .msm_g1 = cpu_msm_g1,
    .msm_g2 = cpu_msm_g2,
    .batch_add_g1 = g16_batch_add_by_msm,
    .prove_h = cpu_prove_h,
    .prove_msms_g1 = cpu_prove_msms_g1,
    .prove_msm_g2 = cpu_prove_msm_g2,
    .prove_msms_g1_hinted = cpu_prove_msms_g1_hinted,
    .prove_msm_g2_hinted = cpu_prove_msm_g2_hinted,
    .hint_free = cpu_hint_free,
    .host_need = cpu_host_need,
    .key_evict = NULL,
};

static g16_backend cpu_backend = {.ops = &cpu_ops, .name = "cpu", .curve = G16_BACKEND_CURVE};

g16_backend *g16_cpu_backend(void)
{
    return &cpu_backend;
}
