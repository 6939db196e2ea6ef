/* The CUDA backend: the ops table (groth16/ops.h) on one GPU through cuda_ops.h.
 *
 * One context (stream, memory pool, staging buffer) per backend, used under one
 * mutex: the GPU lock of the pipeline (held only around device work).  A proving
 * key's queries are uploaded on first use and stay resident, keyed by the key's
 * serial; beyond the residency budget (a share of the device's memory) or when an
 * upload runs out of memory, the least recently used key is evicted.  The B2 (G2)
 * MSM runs on the device too: on the CPU it would take longer than the whole of
 * prove_start on the GPU and the finalizers could not keep up. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "common/fault.h"
#include "common/error.h"
#include "common/rss.h"
#include "curve/curve.h"

#ifdef G16_WITH_CUDA
#include "backend/cuda_ops.h"
#include "backend/cuda_settle.h"

enum { Q_H, Q_L, Q_A, Q_B1, Q_B2, Q_COUNT };
#define MAX_KEYS 8

typedef struct resident_key {
    uint64_t serial; /* 0: free slot */
    g16_cuda_bases *q[Q_COUNT];
    size_t n[Q_COUNT]; /* the key's point counts (key_resident needs them without the key) */
    size_t bytes;
    uint64_t used;
} resident_key;

typedef struct cuda_backend {
    g16_backend base; /* first: the ops table sees a g16_backend */
    pthread_mutex_t lock;
    /* Guards the slots' serial and query pointers for key_resident, which must not
     * wait behind a proof holding `lock`; written with both held, read with either. */
    pthread_mutex_t meta;
    g16_cuda_ctx *ctx;
    int device;
    resident_key keys[MAX_KEYS];
    size_t resident, cap;
    uint64_t tick;
    size_t host_fixed; /* RSS the context and its staging added when opened */
} cuda_backend;

static const g16_backend_ops cuda_ops;

/* One process, several GPUs: the key mover page-locks a key query for its copy to one
 * GPU and unlocks it after, while another GPU's device stage may be copying the same
 * query (a key not yet resident there), directly since the memory looks page-locked
 * then.  Unlocking under that copy is undefined, so both hold this lock around their
 * copies of key memory (taken after a backend's own lock, never before it). */
static pthread_mutex_t key_pin_mu = PTHREAD_MUTEX_INITIALIZER;

/* How a preload moves a key query: staged through the context's page-locked buffer
 * by several copying threads (default; g16_cuda_upload), or with G16_CUDA_KEY_PIN=1
 * by page-locking the query itself for its copy.  Page-locking ran at ≈ 12.5 GB/s
 * and unlocking took half as long again on the H200 host (docs/BENCHMARKS.md, issue
 * 22), where the copy itself runs at ≈ 55 GB/s. */
static int key_pin(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("G16_CUDA_KEY_PIN");
        v = e && atoi(e) == 1;
    }
    return v;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void key_drop(cuda_backend *cb, resident_key *k)
{
    pthread_mutex_lock(&cb->meta);
    g16_cuda_bases *q[Q_COUNT];
    memcpy(q, k->q, sizeof q);
    cb->resident -= k->bytes;
    memset(k, 0, sizeof *k);
    pthread_mutex_unlock(&cb->meta);
    for (int i = 0; i < Q_COUNT; i++) g16_cuda_bases_free(q[i]);
}

/* Evicts the least recently used key other than `keep`; 0 when there is none. */
static int evict_lru(cuda_backend *cb, const resident_key *keep)
{
    resident_key *v = NULL;
    for (int i = 0; i < MAX_KEYS; i++) {
        resident_key *k = &cb->keys[i];
        if (k->serial && k != keep && (!v || k->used < v->used)) v = k;
    }
    if (!v) return 0;
    key_drop(cb, v);
    return 1;
}

/* G16_CUDA_FOLD_H=1 (opt-in): the H query is kept folded (g16_cuda_bases_fold: 12
 * shifted copies at the default window, 12 times its memory) so the H MSM adds each
 * scalar 12 times instead of 16; when the card has no room for the copies the plain
 * query serves.  Measured in session 4: H MSM at 2^24 0.130 -> 0.118 s, and at 2^26
 * the copies (77 GB) do not fit beside the rest, hence not the default. */
static int fold_h(void)
{
    const char *v = getenv("G16_CUDA_FOLD_H");
    return v && atoi(v) > 0;
}

/* The device copy of query q of key (uploaded on first use).  preload: for
 * key_upload, which must never push out another key (a job still using it would
 * upload it again, and the two would take turns): when the query does not fit
 * beside the resident keys it is left for the device stage, *out NULL. */
static g16_status query_as(cuda_backend *cb, g16_cuda_bases **out, const g16_key *key, int q,
                           int preload)
{
    *out = NULL;
    resident_key *k = NULL, *free_slot = NULL;
    for (int i = 0; i < MAX_KEYS; i++) {
        if (cb->keys[i].serial == key->serial) k = &cb->keys[i];
        else if (!cb->keys[i].serial && !free_slot) free_slot = &cb->keys[i];
    }
    if (!k) {
        if (!free_slot && preload) return G16_OK;
        if (!free_slot) {
            evict_lru(cb, NULL);
            for (int i = 0; i < MAX_KEYS && !free_slot; i++)
                if (!cb->keys[i].serial) free_slot = &cb->keys[i];
        }
        k = free_slot;
        const size_t n[Q_COUNT] = {key->n_h, key->n_l, key->n_a, key->n_b_g1, key->n_b_g2};
        pthread_mutex_lock(&cb->meta);
        k->serial = key->serial;
        memcpy(k->n, n, sizeof n);
        pthread_mutex_unlock(&cb->meta);
    }
    k->used = ++cb->tick;
    if (k->q[q]) {
        *out = k->q[q];
        return G16_OK;
    }
    static const size_t g1 = sizeof(g16_g1_affine), g2 = sizeof(g16_g2_affine);
    const void *pts[Q_COUNT] = {key->h, key->l, key->a, key->b_g1, key->b_g2};
    size_t ns[Q_COUNT] = {key->n_h, key->n_l, key->n_a, key->n_b_g1, key->n_b_g2};
    size_t bytes = ns[q] * (q == Q_B2 ? g2 : g1);
    if (preload && cb->resident + bytes > cb->cap) return G16_OK;
    while (cb->resident + bytes > cb->cap && evict_lru(cb, k)) {
    }
    g16_status st;
    g16_cuda_bases *up = NULL;
    for (;;) {
        if (!preload) pthread_mutex_lock(&key_pin_mu); /* key_upload holds it already */
        st = g16_cuda_bases_upload(cb->ctx, &up, q == Q_B2 ? G16_G2 : G16_G1, pts[q], ns[q]);
        if (!preload) pthread_mutex_unlock(&key_pin_mu);
        if (st != G16_ERR_NOMEM || preload || !evict_lru(cb, k)) break;
    }
    pthread_mutex_lock(&cb->meta);
    k->q[q] = up;
    pthread_mutex_unlock(&cb->meta);
    if (st) return g16_fail(st, "cuda backend: uploading a key query of %zu points: %s", ns[q],
                            g16_last_error());
    if (q == Q_H && ns[q] && fold_h()) {
        g16_cuda_bases *f = NULL;
        if (g16_cuda_bases_fold(cb->ctx, &f, k->q[q], 0) == G16_OK) {
            pthread_mutex_lock(&cb->meta);
            k->q[q] = f;
            pthread_mutex_unlock(&cb->meta);
            g16_cuda_bases_free(up);
            bytes = g16_cuda_bases_device_bytes(f);
        } else {
            g16_clear_error(); /* no room for the copies: the plain query serves */
        }
    }
    k->bytes += bytes;
    cb->resident += bytes;
    *out = k->q[q];
    return G16_OK;
}

static g16_status query(cuda_backend *cb, g16_cuda_bases **out, const g16_key *key, int q)
{
    return query_as(cb, out, key, q, 0);
}

/* Every operation ends here: a failed one first settles the context (g16_cuda_settle), so
 * what it left queued cannot reach the next operation's buffers. */
static g16_status settled(cuda_backend *cb, g16_status st)
{
    if (st) g16_cuda_settle(cb->ctx);
    return st;
}

static g16_status cu_ntt(g16_backend *be, g16_fr *data, unsigned log_n, g16_ntt_kind kind)
{
    cuda_backend *cb = (cuda_backend *)be;
    pthread_mutex_lock(&cb->lock);
    g16_status st = g16_cuda_ntt(cb->ctx, data, log_n, kind == G16_NTT_INVERSE ||
                                 kind == G16_NTT_COSET_INVERSE,
                                 kind == G16_NTT_COSET_FORWARD || kind == G16_NTT_COSET_INVERSE,
                                 0, 0);
    st = settled(cb, st);
    pthread_mutex_unlock(&cb->lock);
    return st;
}

static g16_status cu_h_step(g16_backend *be, g16_fr *a, g16_fr *b, g16_fr *c, unsigned log_n)
{
    cuda_backend *cb = (cuda_backend *)be;
    pthread_mutex_lock(&cb->lock);
    g16_status st = settled(cb, g16_cuda_h_step(cb->ctx, a, a, b, c, log_n, 0));
    pthread_mutex_unlock(&cb->lock);
    return st;
}

/* Generic MSMs take host bases: uploaded for the call, freed after. */
static g16_status cu_msm(cuda_backend *cb, void *out, g16_group grp, const void *bases,
                         size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density)
{
    g16_cuda_bases *b = NULL;
    pthread_mutex_lock(&cb->lock);
    g16_status st = g16_cuda_bases_upload(cb->ctx, &b, grp, bases, n_bases);
    if (!st)
        st = grp == G16_G1 ? g16_cuda_msm_g1(cb->ctx, out, b, s, n, density, NULL)
                           : g16_cuda_msm_g2(cb->ctx, out, b, s, n, density, NULL);
    st = settled(cb, st);
    g16_cuda_bases_free(b);
    pthread_mutex_unlock(&cb->lock);
    return st;
}

static g16_status cu_msm_g1(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases,
                            size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density)
{
    return cu_msm((cuda_backend *)be, out, G16_G1, bases, n_bases, s, n, density);
}

static g16_status cu_msm_g2(g16_backend *be, g16_g2_jac *out, const g16_g2_affine *bases,
                            size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density)
{
    return cu_msm((cuda_backend *)be, out, G16_G2, bases, n_bases, s, n, density);
}

/* The H step and the H MSM, under the lock; a, b, c are released on every path. */
static g16_status h_locked(cuda_backend *cb, g16_g1_jac *out, const g16_key *key,
                           g16_prove_input *in, unsigned log_n, g16_prove_times *tm)
{
    g16_cuda_bases *hq = NULL;
    double t = now();
    g16_status st =
        settled(cb, g16_cuda_h_step_rows(cb->ctx, NULL, in->a, in->b, in->c, in->n_rows, log_n, 0));
    /* a, b, c are on the device now (or the step failed and no copy reads them): release them. */
    g16_prove_release(in, &in->a);
    g16_prove_release(in, &in->b);
    g16_prove_release(in, &in->c);
    tm->h_ntt = now() - t;
    t = now();
    if (!st) st = query(cb, &hq, key, Q_H);
    if (!st) st = g16_cuda_msm_g1_h(cb->ctx, out, hq, key->n_h, NULL);
    tm->msm_h = now() - t;
    return settled(cb, st);
}

static g16_status cu_prove_h(g16_backend *be, g16_g1_jac *out, const g16_key *key,
                             g16_prove_input *in, unsigned log_n, g16_prove_times *tm)
{
    cuda_backend *cb = (cuda_backend *)be;
    pthread_mutex_lock(&cb->lock);
    g16_status st = h_locked(cb, out, key, in, log_n, tm);
    pthread_mutex_unlock(&cb->lock);
    return st;
}

/* The L MSM over z[n_in, n_z) in two MSMs split at aux index m, the first over
 * the head of a split upload while the rest of z travels (g16_cuda_scalars_upload_split). */
static g16_status msm_l_split(cuda_backend *cb, g16_g1_jac *l, g16_cuda_bases *ql, size_t n_in,
                              size_t n_aux, size_t m)
{
    g16_cuda_bases *lo = NULL, *hi = NULL;
    g16_g1_jac sl, sh;
    g16_status st = g16_cuda_bases_range(&lo, ql, 0, m);
    if (!st) st = g16_cuda_bases_range(&hi, ql, m, n_aux - m);
    if (!st) st = g16_cuda_msm_g1_resident(cb->ctx, &sl, lo, n_in, m, NULL, NULL);
    if (!st) st = g16_cuda_msm_g1_resident(cb->ctx, &sh, hi, n_in + m, n_aux - m, NULL, NULL);
    if (!st) g16_g1_jac_add(l, &sl, &sh);
    g16_cuda_bases_free(lo);
    g16_cuda_bases_free(hi);
    return st;
}

/* G16_CUDA_EARLY_WAIT=1: an early proof waits for its a, b, c before B2 and sends them
 * beside it whether or not they were complete (the GPU idles meanwhile): makes that
 * path run in tests whose synthesis outlasts the MSMs before B2. */
static int early_wait(void)
{
    const char *v = getenv("G16_CUDA_EARLY_WAIT");
    return v && atoi(v) == 1;
}

/* The L, A, B1 (and B2) MSMs over z, already uploaded (l_split: the L MSM in two
 * at that aux index, 0: in one), under the lock. */
static g16_status msms_locked(cuda_backend *cb, g16_g1_jac *l, g16_g1_jac *a, g16_g1_jac *b1,
                              g16_g2_jac *b2, const g16_key *key, size_t n_z,
                              const uint64_t *abits, const uint64_t *bbits, size_t l_split,
                              double t, g16_prove_times *tm, g16_prove_input *early,
                              unsigned log_n, int *prefetched)
{
    g16_cuda_bases *ql = NULL, *qa = NULL, *qb = NULL, *q2 = NULL;
    size_t n_in = key->vk.n_ic;
    g16_status st = query(cb, &ql, key, Q_L);
    if (!st && l_split) st = msm_l_split(cb, l, ql, n_in, n_z - n_in, l_split);
    else if (!st) st = g16_cuda_msm_g1_resident(cb->ctx, l, ql, n_in, n_z - n_in, NULL, NULL);
    tm->msm_l = now() - t; /* from t: the upload of z counts here */
    t = now();
    if (!st) st = query(cb, &qa, key, Q_A);
    if (!st) st = g16_cuda_msm_g1_resident(cb->ctx, a, qa, 0, n_z, abits, NULL);
    tm->msm_a = now() - t;
    t = now();
    if (!st) st = query(cb, &qb, key, Q_B1);
    if (!st) st = g16_cuda_msm_g1_resident(cb->ctx, b1, qb, 0, n_z, bbits, NULL);
    tm->msm_b1 = now() - t;
    /* An early proof whose synthesis has ended by now: a, b, c go up beside B2 (on the
     * copy stream) instead of after it (a full WindowPoSt partition: ≈ 12 GB, 64 ms of
     * its H step, tenth session).  Never waits: unfinished, they go up after B2. */
    if (!st && early && ((early->abc_ready && early->abc_ready(early->abc_user)) || early_wait())) {
        st = early->abc_wait(early->abc_user);
        if (!st) st = g16_cuda_h_prefetch(cb->ctx, early->a, early->b, early->c, early->n_rows, log_n);
        if (!st) *prefetched = 1;
        if (getenv("G16_CUDA_DEBUG"))
            fprintf(stderr, "g16 cuda prove_start: early proof's a, b, c on their way beside B2 (%s)\n",
                    st ? "failed" : "prefetched");
    }
    t = now();
    if (!st && b2) st = query(cb, &q2, key, Q_B2);
    if (!st && b2) st = g16_cuda_msm_g2_resident(cb->ctx, b2, q2, 0, n_z, bbits, NULL);
    tm->msm_b2 = b2 ? now() - t : 0;
    return st;
}

static g16_status cu_prove_msms_g1(g16_backend *be, g16_g1_jac *l, g16_g1_jac *a, g16_g1_jac *b1,
                                   g16_g2_jac *b2, const g16_key *key, const g16_fr *z, size_t n_z,
                                   const uint64_t *abits, const uint64_t *bbits,
                                   g16_prove_times *tm)
{
    cuda_backend *cb = (cuda_backend *)be;
    pthread_mutex_lock(&cb->lock);
    double t = now();
    g16_status st = g16_cuda_scalars_upload(cb->ctx, z, n_z);
    if (!st) st = msms_locked(cb, l, a, b1, b2, key, n_z, abits, bbits, 0, t, tm, NULL, 0, NULL);
    st = settled(cb, st);
    pthread_mutex_unlock(&cb->lock);
    return st;
}

/* G16_CUDA_MSMS_FIRST=0: prove_start in the old order (H step first, a, b, c copied
 * beside its transforms), for A/B runs. */
static int msms_first(void)
{
    const char *v = getenv("G16_CUDA_MSMS_FIRST");
    return !(v && atoi(v) == 0);
}

/* Where prove_start splits the upload of z and the L MSM (0: not at all).  The GPU
 * idles while the head goes up (z at 2^26: 39.5 ms, H200, session 10), so the head
 * is z[0, n_in) (one and the inputs) and the first third of aux: the L MSM over that third
 * (about a third of L's ≈ 100 ms of kernels) outlasts the copy of the other two
 * thirds.  Below 2^22 scalars the whole copy takes under 3 ms, less than the
 * second L MSM's fixed costs.  G16_CUDA_Z_SPLIT=0 never splits, =1 always does
 * (the differential proofs at small sizes). */
static size_t z_split_at(size_t n_z, size_t n_in)
{
    const char *v = getenv("G16_CUDA_Z_SPLIT");
    const int mode = v ? atoi(v) : -1;
    const size_t n_aux = n_z - n_in;
    if (mode == 0 || n_aux < 3 || (mode != 1 && n_z < ((size_t)1 << 22))) return 0;
    return n_aux / 3;
}

/* prove_start's first uploads, under the lock: the density bitmaps, then z (its head
 * alone when it splits: *m the aux index of the L MSM's split, 0 for none). */
static g16_status z_up(cuda_backend *cb, size_t *m, const g16_key *key, const g16_prove_input *in,
                       const uint64_t *abits, const uint64_t *bbits, double t)
{
    const size_t n_in = key->vk.n_ic;
    int split = 0;
    *m = in->n_z > n_in ? z_split_at(in->n_z, n_in) : 0;
    /* the bitmaps first: sent later they would wait behind the long copies after them */
    g16_status st = abits ? g16_cuda_density_preload(cb->ctx, 0, abits, in->n_z) : G16_OK;
    if (!st && bbits) st = g16_cuda_density_preload(cb->ctx, 1, bbits, in->n_z);
    if (!st) st = g16_cuda_scalars_upload_split(cb->ctx, in->z, in->n_z, *m ? n_in + *m : in->n_z, &split);
    if (!split) *m = 0; /* z was not page-locked: all of it went up, one L MSM is cheaper */
    if (getenv("G16_CUDA_DEBUG")) /* the GPU idles meanwhile: how long? */
        fprintf(stderr, "g16 cuda prove_start: z upload %.2f ms until the MSMs start (%zu scalars, %s)\n",
                (now() - t) * 1e3, in->n_z, split ? "the head; L split" : "all");
    return st;
}

/* All of prove_start's device work in one hold of the lock: z goes up first (the
 * head of it, see z_split_at, the rest on its own stream), then a, b, c travel on
 * the copy stream while the L, A, B1, B2 MSMs run, so the H step finds them on the
 * device (at 2^26 about 40 ms of their 6.4 GB copy was not hidden behind a's
 * transforms in the H-first order). */
static g16_status cu_prove_all(g16_backend *be, g16_g1_jac *h, g16_g1_jac *l, g16_g1_jac *a,
                               g16_g1_jac *b1, g16_g2_jac *b2, const g16_key *key,
                               g16_prove_input *in, unsigned log_n, const uint64_t *abits,
                               const uint64_t *bbits, g16_prove_times *tm)
{
    cuda_backend *cb = (cuda_backend *)be;
    g16_status st;
    if (!msms_first()) {
        st = cu_prove_h(be, h, key, in, log_n, tm);
        return st ? st
                  : cu_prove_msms_g1(be, l, a, b1, b2, key, in->z, in->n_z, abits, bbits, tm);
    }
    pthread_mutex_lock(&cb->lock);
    double t = now();
    size_t m = 0;
    st = z_up(cb, &m, key, in, abits, bbits, t);
    if (!st) st = g16_cuda_h_prefetch(cb->ctx, in->a, in->b, in->c, in->n_rows, log_n);
    if (!st) st = msms_locked(cb, l, a, b1, b2, key, in->n_z, abits, bbits, m, t, tm, NULL, 0, NULL);
    st = settled(cb, st);
    g16_cuda_density_forget(cb->ctx); /* the caller may free the bitmaps after we return */
    if (!st) {
        st = h_locked(cb, h, key, in, log_n, tm); /* releases a, b, c */
    } else {
        g16_cuda_h_prefetch_drop(cb->ctx); /* no copy may still read a, b, c */
        g16_prove_release(in, &in->a);
        g16_prove_release(in, &in->b);
        g16_prove_release(in, &in->c);
    }
    pthread_mutex_unlock(&cb->lock);
    return st;
}

/* prove_start's device work for an early proof (in->abc_wait: a, b, c still being
 * written): z up and the MSMs over it as in cu_prove_all, a, b, c moved beside B2 when
 * their synthesis has ended by then (msms_locked), else waited for after the MSMs
 * outside the lock, then the H step. */
static g16_status cu_prove_early(g16_backend *be, g16_g1_jac *h, g16_g1_jac *l, g16_g1_jac *a,
                                 g16_g1_jac *b1, g16_g2_jac *b2, const g16_key *key,
                                 g16_prove_input *in, unsigned log_n, const uint64_t *abits,
                                 const uint64_t *bbits, g16_prove_times *tm)
{
    cuda_backend *cb = (cuda_backend *)be;
    pthread_mutex_lock(&cb->lock);
    double t = now();
    size_t m = 0;
    int pre = 0;
    g16_status st = z_up(cb, &m, key, in, abits, bbits, t);
    if (!st) st = msms_locked(cb, l, a, b1, b2, key, in->n_z, abits, bbits, m, t, tm, in, log_n, &pre);
    st = settled(cb, st);
    g16_cuda_density_forget(cb->ctx);
    if (!st && pre) {
        st = h_locked(cb, h, key, in, log_n, tm); /* releases a, b, c */
    } else if (pre) {
        g16_cuda_h_prefetch_drop(cb->ctx); /* no copy may still read a, b, c */
    }
    pthread_mutex_unlock(&cb->lock);
    if (st || pre) return st; /* prove_start releases what is left */
    if ((st = in->abc_wait(in->abc_user))) return st;
    return cu_prove_h(be, h, key, in, log_n, tm);
}

static g16_status cu_prove_msm_g2(g16_backend *be, g16_g2_jac *out, const g16_key *key,
                                  const g16_fr *s, size_t n)
{
    cuda_backend *cb = (cuda_backend *)be;
    g16_cuda_bases *q = NULL;
    pthread_mutex_lock(&cb->lock);
    g16_status st = query(cb, &q, key, Q_B2);
    if (!st) st = g16_cuda_msm_g2(cb->ctx, out, q, s, n, NULL, NULL);
    st = settled(cb, st);
    pthread_mutex_unlock(&cb->lock);
    return st;
}

static void cu_key_evict(g16_backend *be, uint64_t serial)
{
    cuda_backend *cb = (cuda_backend *)be;
    pthread_mutex_lock(&cb->lock);
    for (int i = 0; i < MAX_KEYS; i++)
        if (cb->keys[i].serial == serial) key_drop(cb, &cb->keys[i]);
    pthread_mutex_unlock(&cb->lock);
}

/* The whole key to the device, one query per hold of the lock, so a proof of
 * another key waits at most one query's copy.  An empty query (no B2 points) has
 * nothing to copy; a query that does not fit beside the resident keys is left to
 * the device stage (query_as), so key_resident then says 0. */
static g16_status cu_key_upload(g16_backend *be, const g16_key *key)
{
    cuda_backend *cb = (cuda_backend *)be;
    const size_t ns[Q_COUNT] = {key->n_h, key->n_l, key->n_a, key->n_b_g1, key->n_b_g2};
    const void *pts[Q_COUNT] = {key->h, key->l, key->a, key->b_g1, key->b_g2};
    const int pin = key_pin();
    /* the mover's thread serves every GPU: register on this one's */
    g16_status st = g16_cuda_use(cb->ctx);
    for (int q = 0; q < Q_COUNT && !st; q++) {
        if (!ns[q]) continue;
        g16_cuda_bases *b;
        pthread_mutex_lock(&cb->lock);
        pthread_mutex_lock(&key_pin_mu);
        double t0 = now();
        /* G16_CUDA_KEY_PIN=1: page-locked for the copy, the query goes up directly at
         * bus speed; locking and unlocking then take most of the time.  Not resident:
         * only then is there anything to copy. */
        uintptr_t lo = 0, hi = 0;
        int there = 0;
        for (int i = 0; i < MAX_KEYS; i++)
            there |= cb->keys[i].serial == key->serial && cb->keys[i].q[q] != NULL;
        if (pin && !there) {
            size_t bytes = ns[q] * (q == Q_B2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine));
            lo = (uintptr_t)pts[q] & ~(uintptr_t)4095;
            hi = ((uintptr_t)pts[q] + bytes + 4095) & ~(uintptr_t)4095;
            if (g16_cuda_host_register((void *)lo, hi - lo) != G16_OK) {
                g16_clear_error(); /* the staged copy serves */
                lo = 0;
            }
        }
        double t1 = now();
        st = settled(cb, query_as(cb, &b, key, q, 1)); /* no copy may read the pages unregistered next */
        double t2 = now();
        if (lo) g16_cuda_host_unregister((void *)lo);
        pthread_mutex_unlock(&key_pin_mu);
        pthread_mutex_unlock(&cb->lock);
        if (getenv("G16_CUDA_DEBUG")) /* where a preload's time goes */
            fprintf(stderr, "g16 cuda key_upload: query %d, %zu points%s: register %.1f ms, copy %.1f ms, "
                            "unregister %.1f ms\n", q, ns[q], lo ? " (page-locked)" : there ? " (resident)" : "",
                    (t1 - t0) * 1e3, (t2 - t1) * 1e3, (now() - t2) * 1e3);
    }
    return st;
}

/* Whether query q of key is on cb's GPU (meta: never behind a proof). */
static int query_there(cuda_backend *cb, uint64_t serial, int q)
{
    int yes = 0;
    pthread_mutex_lock(&cb->meta);
    for (int i = 0; i < MAX_KEYS; i++) yes |= cb->keys[i].serial == serial && cb->keys[i].q[q] != NULL;
    pthread_mutex_unlock(&cb->meta);
    return yes;
}

uint64_t g16_backend_key_upload_all(g16_backend *const *bes, unsigned n, const g16_key *key)
{
    if (n < 2 || n > 64 || !key_pin()) return 0;
    for (unsigned i = 0; i < n; i++)
        if (!g16_backend_is_cuda(bes[i])) return 0;
    const size_t ns[Q_COUNT] = {key->n_h, key->n_l, key->n_a, key->n_b_g1, key->n_b_g2};
    const void *pts[Q_COUNT] = {key->h, key->l, key->a, key->b_g1, key->b_g2};
    uint64_t done = n == 64 ? ~0ull : (1ull << n) - 1;
    for (int q = 0; q < Q_COUNT && done; q++) {
        if (!ns[q]) continue;
        uint64_t need = 0;
        for (unsigned i = 0; i < n; i++)
            if ((done >> i & 1) && !query_there((cuda_backend *)bes[i], key->serial, q)) need |= 1ull << i;
        if (!need) continue;
        /* key_pin_mu before any backend's lock here, so those are only tried: a device
         * stage holds its lock and then waits for key_pin_mu */
        pthread_mutex_lock(&key_pin_mu);
        double t0 = now();
        size_t bytes = ns[q] * (q == Q_B2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine));
        uintptr_t lo = (uintptr_t)pts[q] & ~(uintptr_t)4095;
        uintptr_t hi = ((uintptr_t)pts[q] + bytes + 4095) & ~(uintptr_t)4095;
        if (g16_cuda_use(((cuda_backend *)bes[0])->ctx) != G16_OK ||
            g16_cuda_host_register((void *)lo, hi - lo) != G16_OK) {
            g16_clear_error(); /* the staged copy serves */
            lo = 0;
        }
        double t1 = now();
        for (unsigned i = 0; i < n; i++) {
            if (!(need >> i & 1)) continue;
            cuda_backend *cb = (cuda_backend *)bes[i];
            g16_cuda_bases *b = NULL;
            if (pthread_mutex_trylock(&cb->lock) != 0) { /* proving: its own upload, later */
                done &= ~(1ull << i);
                continue;
            }
            if (query_as(cb, &b, key, q, 1) != G16_OK || !b) {
                g16_clear_error();
                done &= ~(1ull << i);
            }
            pthread_mutex_unlock(&cb->lock);
        }
        double t2 = now();
        if (lo) g16_cuda_host_unregister((void *)lo);
        pthread_mutex_unlock(&key_pin_mu);
        if (getenv("G16_CUDA_DEBUG"))
            fprintf(stderr, "g16 cuda key_upload_all: query %d, %zu points to %u GPUs%s: register %.1f ms, "
                            "copies %.1f ms, unregister %.1f ms\n", q, ns[q], n, lo ? " (page-locked)" : "",
                    (t1 - t0) * 1e3, (t2 - t1) * 1e3, (now() - t2) * 1e3);
    }
    return done;
}

static int cu_key_resident(g16_backend *be, uint64_t serial)
{
    cuda_backend *cb = (cuda_backend *)be;
    int yes = 0;
    pthread_mutex_lock(&cb->meta);
    for (int i = 0; i < MAX_KEYS && !yes; i++) {
        const resident_key *k = &cb->keys[i];
        if (k->serial != serial) continue;
        /* a query of zero points is never uploaded: such a key counts without it */
        yes = 1;
        for (int q = 0; q < Q_COUNT; q++) yes &= k->q[q] != NULL || k->n[q] == 0;
    }
    pthread_mutex_unlock(&cb->meta);
    return yes;
}

/* On the GPU the H buffers, the MSM scalars and the B2 MSM live in device memory:
 * the host keeps only small per-call arrays (the merged bitmaps are counted by
 * the engine with the circuit's bitmaps). */
static void cu_host_need(g16_backend *be, uint64_t N, uint64_t n_vars, size_t *scratch,
                         size_t *pending)
{
    *scratch = 1 << 20;
    *pending = 0;
}

static size_t cu_host_fixed(g16_backend *be)
{
    return ((cuda_backend *)be)->host_fixed;
}

static const g16_backend_ops cuda_ops = {
    .ntt = cu_ntt,
    .h_step = cu_h_step,
    .msm_g1 = cu_msm_g1,
    .msm_g2 = cu_msm_g2,
    .batch_add_g1 = g16_batch_add_by_msm,
    .prove_h = cu_prove_h,
    .prove_msms_g1 = cu_prove_msms_g1,
    .prove_all = cu_prove_all,
    .prove_early = cu_prove_early,
    .g2_in_start = 1,
    .prove_msm_g2 = cu_prove_msm_g2,
    .host_need = cu_host_need,
    .host_fixed = cu_host_fixed,
    .key_evict = cu_key_evict,
    .key_upload = cu_key_upload,
    .key_resident = cu_key_resident,
};

g16_status g16_cuda_backend_open(g16_backend **out, int device)
{
    *out = NULL;
    cuda_backend *cb = g16_calloc(1, sizeof *cb);
    if (!cb) return g16_fail(G16_ERR_NOMEM, "cuda backend: out of memory");
    /* The context's host memory (driver state, the staging buffer) is resident
     * for as long as the backend is open and outside every buffer the engine
     * reserves: measured here so the engine can take it off its budget.  At 2^26
     * on the H200 leaving it out put peak RSS up to 147 MiB over a 64 GiB budget.
     * (Another thread allocating meanwhile would be counted too: an
     * overestimate, the safe side.) */
    uint64_t rss0 = g16_rss_bytes();
    g16_status st = g16_cuda_ctx_create(&cb->ctx, device);
    if (!st) st = g16_cuda_stage_reserve(cb->ctx);
    uint64_t rss1 = g16_rss_bytes();
    cb->host_fixed = rss1 > rss0 ? (size_t)(rss1 - rss0) : 0;
    size_t free_b = 0, total_b = 0;
    if (!st) st = g16_cuda_mem_info(cb->ctx, &free_b, &total_b);
    if (st) {
        g16_cuda_ctx_destroy(cb->ctx);
        free(cb);
        return g16_fail(st, "cuda backend on GPU %d: %s", device, g16_last_error());
    }
    /* Resident keys may take half of what is free now; the rest is the working
     * memory of the NTTs and MSMs (about 30 GB for a 2^26-row proof). */
    cb->cap = free_b / 2;
    cb->device = device;
    pthread_mutex_init(&cb->lock, NULL);
    pthread_mutex_init(&cb->meta, NULL);
    cb->base.ops = &cuda_ops;
    cb->base.curve = G16_BACKEND_CURVE;
    char desc[128] = "";
    g16_cuda_devices(desc, sizeof desc);
    snprintf(cb->base.name, sizeof cb->base.name, "cuda:%d (%.40s)", device, desc);
    *out = &cb->base;
    return G16_OK;
}

void g16_cuda_backend_close(g16_backend *be)
{
    if (!be || be->ops != &cuda_ops) return;
    cuda_backend *cb = (cuda_backend *)be;
    for (int i = 0; i < MAX_KEYS; i++)
        if (cb->keys[i].serial) key_drop(cb, &cb->keys[i]);
    g16_cuda_ctx_destroy(cb->ctx);
    pthread_mutex_destroy(&cb->lock);
    pthread_mutex_destroy(&cb->meta);
    free(cb);
}

int g16_backend_is_cuda(const g16_backend *be)
{
    return be && be->ops == &cuda_ops;
}

size_t g16_backend_resident_bytes(const g16_backend *be)
{
    return g16_backend_is_cuda(be) ? ((const cuda_backend *)be)->cap : 0;
}

/* Registered portable: every GPU of the process reads it at bus speed.  On be's GPU,
 * not whichever the calling thread (synthesis, the freer) would open by default. */
void g16_backend_pin(const g16_backend *be, void *p, size_t bytes)
{
    if (!g16_backend_is_cuda(be)) return;
    if (g16_cuda_use(((const cuda_backend *)be)->ctx) != G16_OK ||
        g16_cuda_host_register(p, bytes) != G16_OK)
        g16_clear_error();
}

void g16_backend_unpin(const g16_backend *be, void *p)
{
    if (!g16_backend_is_cuda(be)) return;
    if (g16_cuda_use(((const cuda_backend *)be)->ctx) != G16_OK) g16_clear_error();
    g16_cuda_host_unregister(p);
}

#else /* no CUDA in this build */

uint64_t g16_backend_key_upload_all(g16_backend *const *bes, unsigned n, const g16_key *key)
{
    return 0;
}

void g16_backend_pin(const g16_backend *be, void *p, size_t bytes)
{
}

void g16_backend_unpin(const g16_backend *be, void *p)
{
}


g16_status g16_cuda_backend_open(g16_backend **out, int device)
{
    *out = NULL;
    return g16_fail(G16_ERR_BACKEND, "backend cuda: this build has no CUDA backend");
}

void g16_cuda_backend_close(g16_backend *be)
{
}

int g16_backend_is_cuda(const g16_backend *be)
{
    return 0;
}

size_t g16_backend_resident_bytes(const g16_backend *be)
{
    return 0;
}

#endif
