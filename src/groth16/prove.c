/* Proving through the split API: prove_start (H step, G1 MSMs) and a pending
 * proof whose G2 MSM and assembly run on a background pthread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "common/error.h"
#include "common/fault.h"
#include "curve/curve.h"
#include "groth16/groth16.h"
#include "groth16/ops.h"

_Thread_local g16_prove_times g16_last_prove_times;

struct g16_pending {
    g16_key *key;          /* one reference held */
    g16_backend *be;       /* runs the B2 MSM (outlives the pending proof: caller's rule) */
    g16_fr r, s;
    g16_g1_jac a_msm, b1_msm, h, l;
    g16_fr *zb;            /* the z entries of the B-dense variables, compacted */
    void *hint;            /* the backend's note from the G1 MSMs to B2 (ops.h) */
    g16_g2_jac b2;         /* the B2 MSM when the backend ran it in prove_start */
    int have_b2;
    size_t n_zb;
    pthread_t thread;
    int started;
    g16_status st;
    char err[512];
    uint8_t proof[G16_PROOF_BYTES];
    double t_b2, t_asm;
    g16_prove_times times;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* B2 MSM and assembly (see docs/groth16.md for the derivation of C):
 *   A = α₁ + A_msm + r·δ₁
 *   B = β₂ + B2_msm + s·δ₂
 *   C = s·A_msm + r·B1_msm + r·s·δ₁ + s·α₁ + r·β₁ + H + L */
static void finish_work(g16_pending *p)
{
    const g16_key *k = p->key;
    double t0 = now();
    g16_g2_jac b2 = p->b2;
    g16_status st = G16_OK;
    const g16_backend_ops *ops = p->be->ops;
    if (!p->have_b2)
        st = ops->prove_msm_g2_hinted ? ops->prove_msm_g2_hinted(p->be, &b2, k, p->zb, p->n_zb, p->hint)
                                      : ops->prove_msm_g2(p->be, &b2, k, p->zb, p->n_zb);
    free(p->zb);
    p->zb = NULL;
    if (p->hint && ops->hint_free) ops->hint_free(p->hint);
    p->hint = NULL;
    if (st) {
        p->st = st;
        snprintf(p->err, sizeof p->err, "b_g2 msm: %s", g16_last_error());
        return;
    }
    double t1 = now();
    g16_g1_jac A, C, t, d1, a1, b1;
    g16_g2_jac B, t2, d2;
    g16_g1_jac_from_affine(&d1, &k->vk.delta_g1);
    g16_g1_jac_from_affine(&a1, &k->vk.alpha_g1);
    g16_g1_jac_from_affine(&b1, &k->vk.beta_g1);
    g16_g2_jac_from_affine(&d2, &k->vk.delta_g2);

    g16_g1_mul_fr(&A, &d1, &p->r);
    g16_g1_jac_add(&A, &A, &p->a_msm);
    g16_g1_jac_add(&A, &A, &a1);

    g16_g2_mul_fr(&B, &d2, &p->s);
    g16_g2_jac_add(&B, &B, &b2);
    g16_g2_jac_from_affine(&t2, &k->vk.beta_g2);
    g16_g2_jac_add(&B, &B, &t2);

    g16_fr rs;
    g16_fr_mul(&rs, &p->r, &p->s);
    g16_g1_mul_fr(&C, &d1, &rs);
    g16_g1_mul_fr(&t, &p->a_msm, &p->s);
    g16_g1_jac_add(&C, &C, &t);
    g16_g1_mul_fr(&t, &p->b1_msm, &p->r);
    g16_g1_jac_add(&C, &C, &t);
    g16_g1_mul_fr(&t, &a1, &p->s);
    g16_g1_jac_add(&C, &C, &t);
    g16_g1_mul_fr(&t, &b1, &p->r);
    g16_g1_jac_add(&C, &C, &t);
    g16_g1_jac_add(&C, &C, &p->h);
    g16_g1_jac_add(&C, &C, &p->l);

    g16_g1_affine Aa, Ca;
    g16_g2_affine Ba;
    g16_g1_jac_to_affine(&Aa, &A);
    g16_g2_jac_to_affine(&Ba, &B);
    g16_g1_jac_to_affine(&Ca, &C);
    g16_g1_encode_compressed(p->proof, &Aa);
    g16_g2_encode_compressed(p->proof + 48, &Ba);
    g16_g1_encode_compressed(p->proof + 144, &Ca);
    p->t_b2 = p->have_b2 ? p->times.msm_b2 : t1 - t0;
    p->t_asm = now() - t1;
    p->st = G16_OK;
}

static void *finish_thread(void *arg)
{
    finish_work(arg);
    return NULL;
}

static g16_status read_random(g16_fr *r)
{
    uint8_t buf[64];
    size_t got = 0;
    while (got < sizeof buf) {
        ssize_t n = getrandom(buf + got, sizeof buf - got, 0);
        if (n < 0) return g16_fail(G16_ERR_IO, "prove: getrandom failed");
        got += (size_t)n;
    }
    g16_fr_from_be_reduce(r, buf, sizeof buf);
    return G16_OK;
}

/* The bitmap over z = (one, inputs, aux): n_in input bits (in_bits NULL: all
 * set), then the n_aux aux bits shifted into place a word at a time (at 2^26
 * variables a bit-by-bit loop took a quarter of a second). */
static uint64_t *merge_bits(uint64_t n_in, const uint64_t *in_bits, uint64_t n_aux,
                            const uint64_t *aux_bits)
{
    uint64_t n = n_in + n_aux, words = n / 64 + 2;
    uint64_t *bits = g16_calloc(words, 8);
    if (!bits) return NULL;
    for (uint64_t i = 0; i < n_in; i++)
        if (!in_bits || g16_bit(in_bits, i)) bits[i >> 6] |= 1ull << (i & 63);
    unsigned sh = (unsigned)(n_in & 63);
    uint64_t base = n_in >> 6;
    for (uint64_t k = 0; k < (n_aux + 63) / 64; k++) {
        uint64_t v = aux_bits[k];
        if (k == n_aux / 64) v &= (1ull << (n_aux & 63)) - 1; /* bits past n_aux */
        bits[base + k] |= v << sh;
        if (sh) bits[base + k + 1] |= v >> (64 - sh);
    }
    return bits;
}

/* The L, A, B1 MSMs (and B2 where the backend runs it in start); a backend with the
 * hinted op leaves B1's grouping of the B scalars to the background B2. */
static g16_status msms_g1(g16_backend *be, g16_pending *p, const g16_key *key, const g16_prove_input *in,
                          const uint64_t *abits, const uint64_t *bbits, g16_prove_times *tm)
{
    if (!p->have_b2 && be->ops->prove_msms_g1_hinted)
        return be->ops->prove_msms_g1_hinted(be, &p->l, &p->a_msm, &p->b1_msm, key, in->z, in->n_z, abits,
                                             bbits, tm, &p->hint);
    return be->ops->prove_msms_g1(be, &p->l, &p->a_msm, &p->b1_msm, p->have_b2 ? &p->b2 : NULL, key, in->z,
                                  in->n_z, abits, bbits, tm);
}

g16_status g16_prove_start(g16_pending **out, g16_key *key, const g16_prove_input *in_)
{
    g16_prove_input in = *in_;
    g16_fr *a = in.a, *b = in.b, *c = in.c;
    uint64_t *abits = NULL, *bbits = NULL;
    g16_pending *p = NULL;
    g16_status st = G16_OK;
    g16_prove_times tm = {0};
    double t0 = now();
    *out = NULL;

    if (!key || !in.density || !in.z || !a || !b || !c) {
        st = g16_fail(G16_ERR_ARG, "prove: missing key, density, assignment or a/b/c");
        goto done;
    }
    const g16_density *d = in.density;
    uint64_t n_in = key->vk.n_ic, n_aux = key->n_l, N = key->n_h + 1;
    if (n_in == 0 || in.n_z != n_in + n_aux) {
        st = g16_fail(G16_ERR_ARG, "prove: assignment has %llu entries, key expects %llu",
                      (unsigned long long)in.n_z, (unsigned long long)(n_in + n_aux));
        goto done;
    }
    if (!g16_fr_is_one(&in.z[0])) {
        st = g16_fail(G16_ERR_ARG, "prove: z[0] is not one");
        goto done;
    }
    if (in.n_rows == 0 || in.n_rows > N || ((uint64_t)1 << g16_domain_log(in.n_rows)) != N) {
        st = g16_fail(G16_ERR_ARG, "prove: %llu rows do not match the key's domain of %llu",
                      (unsigned long long)in.n_rows, (unsigned long long)N);
        goto done;
    }
    if (key->n_a != n_in + d->n_aux_in_a || key->n_b_g1 != d->n_inputs_in_b + d->n_aux_in_b ||
        key->n_b_g2 != key->n_b_g1) {
        st = g16_fail(G16_ERR_ARG,
                      "prove: density (%llu aux in A, %llu inputs + %llu aux in B) does not match "
                      "the key (a %zu, b_g1 %zu, b_g2 %zu points)",
                      (unsigned long long)d->n_aux_in_a, (unsigned long long)d->n_inputs_in_b,
                      (unsigned long long)d->n_aux_in_b, key->n_a, key->n_b_g1, key->n_b_g2);
        goto done;
    }
    p = g16_calloc(1, sizeof *p);
    if (!p) {
        st = g16_fail(G16_ERR_NOMEM, "prove: out of memory");
        goto done;
    }
    if (in.rs) {
        g16_fr_from_be_reduce(&p->r, in.rs, 32);
        g16_fr_from_be_reduce(&p->s, in.rs + 32, 32);
    } else if ((st = read_random(&p->r)) || (st = read_random(&p->s))) {
        goto done;
    }

    g16_backend *be = in.backend ? in.backend : g16_cpu_backend();
    p->be = be;
    abits = merge_bits(n_in, NULL, n_aux, d->aux_in_a);
    bbits = merge_bits(n_in, d->inputs_in_b, n_aux, d->aux_in_b);
    if (!abits || !bbits) {
        st = g16_fail(G16_ERR_NOMEM, "prove: out of memory for density bitmaps");
        goto done;
    }
    p->have_b2 = be->ops->g2_in_start;
    tm.b2_in_start = p->have_b2;
    /* H: the backend consumes a, b, c (released as soon as it is done with them). */
    unsigned log_n = g16_domain_log(N);
    in.a = a, in.b = b, in.c = c;
    a = b = c = NULL;
    if (in.abc_wait && be->ops->prove_early) {
        st = be->ops->prove_early(be, &p->h, &p->l, &p->a_msm, &p->b1_msm, p->have_b2 ? &p->b2 : NULL, key, &in,
                                  log_n, abits, bbits, &tm);
        a = in.a, b = in.b, c = in.c; /* NULL once the backend took them */
        if (st) goto done;
    } else if (in.abc_wait) {
        /* z first: a, b, c are not written yet (the engine's early device start) */
        st = msms_g1(be, p, key, &in, abits, bbits, &tm);
        if (!st) st = in.abc_wait(in.abc_user);
        if (!st) st = be->ops->prove_h(be, &p->h, key, &in, log_n, &tm);
        a = in.a, b = in.b, c = in.c; /* NULL once prove_h took them */
        if (st) goto done;
    } else if (be->ops->prove_all) {
        st = be->ops->prove_all(be, &p->h, &p->l, &p->a_msm, &p->b1_msm,
                                p->have_b2 ? &p->b2 : NULL, key, &in, log_n, abits, bbits, &tm);
        a = in.a, b = in.b, c = in.c; /* NULL unless the backend failed before taking them */
        if (st) goto done;
    } else {
        st = be->ops->prove_h(be, &p->h, key, &in, log_n, &tm);
        a = in.a, b = in.b, c = in.c;
        if (st) goto done;
        if ((st = msms_g1(be, p, key, &in, abits, bbits, &tm))) goto done;
    }

    if (!p->have_b2 && !(p->zb = g16_malloc((key->n_b_g2 ? key->n_b_g2 : 1) * sizeof *p->zb))) {
        st = g16_fail(G16_ERR_NOMEM, "prove: out of memory");
        goto done;
    }
    for (uint64_t k = 0; p->zb && k < (in.n_z + 63) / 64; k++)
        for (uint64_t w = bbits[k]; w; w &= w - 1) {
            uint64_t j = k * 64 + (uint64_t)__builtin_ctzll(w);
            if (j < in.n_z) p->zb[p->n_zb++] = in.z[j];
        }

    g16_key_retain(key);
    p->key = key;
    tm.start_total = now() - t0;
    p->times = tm;
    g16_last_prove_times = tm;
    if (g16_thread_create(&p->thread, finish_thread, p) == 0)
        p->started = 1;
    else
        finish_work(p); /* no thread to be had: finish here rather than fail */
    *out = p;
    p = NULL;
done:
    if (st && in.abc_wait && (a || b || c)) {
        /* a failed early proof: another thread may still be writing a, b, c, and the
         * release below hands them back to their owner (the engine's pool, for another
         * partition): wait for that thread first, keeping this failure's message */
        char msg[512];
        snprintf(msg, sizeof msg, "%s", g16_last_error());
        (void)in.abc_wait(in.abc_user);
        g16_fail(st, "%s", msg);
    }
    g16_prove_release(&in, &a);
    g16_prove_release(&in, &b);
    g16_prove_release(&in, &c);
    free(abits);
    free(bbits);
    if (p) g16_pending_free(p);
    return st;
}

static void join(g16_pending *p)
{
    if (p->started) {
        pthread_join(p->thread, NULL);
        p->started = 0;
    }
}

void g16_pending_free(g16_pending *p)
{
    if (!p) return;
    join(p);
    free(p->zb);
    if (p->hint && p->be && p->be->ops->hint_free) p->be->ops->hint_free(p->hint);
    g16_key_release(p->key);
    free(p);
}

g16_status g16_prove_finish(uint8_t proof[G16_PROOF_BYTES], g16_pending *p)
{
    if (!p) return g16_fail(G16_ERR_ARG, "prove_finish: no pending proof");
    join(p);
    g16_status st = p->st;
    if (st == G16_OK) {
        memcpy(proof, p->proof, G16_PROOF_BYTES);
        g16_last_prove_times = p->times;
        g16_last_prove_times.msm_b2 = p->t_b2;
        g16_last_prove_times.assembly = p->t_asm;
    } else {
        g16_fail(st, "%s", p->err);
    }
    g16_pending_free(p);
    return st;
}
