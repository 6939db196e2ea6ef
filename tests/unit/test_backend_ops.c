/* The backend layer: names and errors of g16_backend_open, and every operation
 * of the ops table of the backend `auto` picks (the CPU here; the CUDA backend
 * on a GPU machine) against independent computations: the NTT kinds against a
 * quadratic DFT, the H step against the polynomial identity a·b − c = h·Z at a
 * random point, the MSMs and the 0/1 batch addition against sums of scalar
 * multiplications, and whole proofs against the CPU backend's bytes (also through the
 * prover's prove_all and prove_early branches, with wrapped CPU tables). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "check.h"
#include "common/error.h"
#include "curve/curve.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "rand_field.h"
#include "test_groth16_util.h"

static g16_rng rng;

/* X[i] = s·Σ_k x[k]·(g·ω^i)^k with g = 7 for a coset (1 otherwise), s = 1; the
 * inverse kinds are checked as round trips. */
static void dft(g16_fr *out, const g16_fr *x, unsigned log_n, int coset)
{
    size_t n = (size_t)1 << log_n;
    g16_fr w, wi, pt, acc, t, g;
    g16_fr_root_of_unity(&w, (int)log_n);
    g16_fr_from_u64(&g, 7);
    g16_fr_set_one(&wi);
    for (size_t i = 0; i < n; i++) {
        pt = wi;
        if (coset) g16_fr_mul(&pt, &pt, &g);
        memset(&acc, 0, sizeof acc);
        g16_fr pk;
        g16_fr_set_one(&pk);
        for (size_t k = 0; k < n; k++) {
            g16_fr_mul(&t, &x[k], &pk);
            g16_fr_add(&acc, &acc, &t);
            g16_fr_mul(&pk, &pk, &pt);
        }
        out[i] = acc;
        g16_fr_mul(&wi, &wi, &w);
    }
}

static void check_ntt(g16_backend *be)
{
    for (unsigned lg = 0; lg <= 7; lg++) {
        size_t n = (size_t)1 << lg;
        g16_fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *r = malloc(n * sizeof *r);
        for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &x[i]);
        for (int coset = 0; coset <= 1; coset++) {
            memcpy(y, x, n * sizeof *y);
            g16_status st = be->ops->ntt(be, y, lg, coset ? G16_NTT_COSET_FORWARD : G16_NTT_FORWARD);
            dft(r, x, lg, coset);
            CHECK(st == G16_OK && !memcmp(y, r, n * sizeof *y), "%s ntt forward coset=%d 2^%u",
                  be->name, coset, lg);
            st = be->ops->ntt(be, y, lg, coset ? G16_NTT_COSET_INVERSE : G16_NTT_INVERSE);
            CHECK(st == G16_OK && !memcmp(y, x, n * sizeof *y), "%s ntt round trip coset=%d 2^%u",
                  be->name, coset, lg);
        }
        free(x), free(y), free(r);
    }
    g16_fr one;
    g16_fr_set_one(&one);
    CHECK(be->ops->ntt(be, &one, 0, (g16_ntt_kind)9) == G16_ERR_ARG, "unknown NTT kind refused");
}

/* p(x) at x from natural-order coefficients. */
static void horner(g16_fr *out, const g16_fr *c, size_t n, const g16_fr *x)
{
    memset(out, 0, sizeof *out);
    for (size_t i = n; i-- > 0;) {
        g16_fr_mul(out, out, x);
        g16_fr_add(out, out, &c[i]);
    }
}

static void check_h_step(g16_backend *be)
{
    for (unsigned lg = 1; lg <= 10; lg += 3) {
        size_t n = (size_t)1 << lg;
        g16_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
        g16_fr *ca = malloc(n * sizeof *ca), *cb = malloc(n * sizeof *cb), *cc = malloc(n * sizeof *cc);
        for (size_t i = 0; i < n; i++) {
            g16_test_rand_fr(&rng, &a[i]);
            g16_test_rand_fr(&rng, &b[i]);
            g16_fr_mul(&c[i], &a[i], &b[i]); /* c = a∘b on H: Z divides A·B − C (a satisfied R1CS) */
        }
        memcpy(ca, a, n * sizeof *a), memcpy(cb, b, n * sizeof *b), memcpy(cc, c, n * sizeof *c);
        g16_status st = be->ops->h_step(be, a, b, c, lg);
        CHECK(st == G16_OK, "%s h_step 2^%u: %s", be->name, lg, g16_last_error());
        /* The quotient computed independently: A, B, C interpolated (CPU inverse
         * NTT), A·B − C by schoolbook multiplication, divided by x^n − 1. */
        const g16_domain *d;
        g16_domain_get(&d, (int)lg);
        g16_ntt_inverse_nn(d, ca), g16_ntt_inverse_nn(d, cb), g16_ntt_inverse_nn(d, cc);
        /* A·B − C has degree ≤ 2n − 2; divide by x^n − 1: q[i] = p[i + n] + q[i + n] */
        g16_fr *p = calloc(2 * n, sizeof *p), *q = calloc(2 * n, sizeof *q), t;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                g16_fr_mul(&t, &ca[i], &cb[j]);
                g16_fr_add(&p[i + j], &p[i + j], &t);
            }
        for (size_t i = 0; i < n; i++) g16_fr_sub(&p[i], &p[i], &cc[i]);
        for (size_t i = 2 * n; i-- > n;) {
            q[i - n] = p[i];
            g16_fr_add(&p[i - n], &p[i - n], &p[i]); /* remainder update: + p[i]·x^(i−n) */
        }
        int rem0 = 1;
        for (size_t i = 0; i < n; i++) rem0 &= g16_fr_is_zero(&p[i]);
        CHECK(rem0, "test setup: x^n − 1 divides A·B − C at 2^%u", lg);
        CHECK(!memcmp(a, q, n * sizeof *a), "%s h_step 2^%u equals (A·B − C) / (x^n − 1)",
              be->name, lg);
        g16_fr x, hv, av;
        g16_test_rand_fr(&rng, &x);
        horner(&hv, a, n, &x), horner(&av, q, n, &x);
        CHECK(!memcmp(&hv, &av, sizeof hv), "%s h_step 2^%u at a random point", be->name, lg);
        free(p), free(q);
        free(a), free(b), free(c), free(ca), free(cb), free(cc);
    }
}

static void check_msm(g16_backend *be)
{
    size_t sizes[] = {1, 7, 64, 300};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        g16_g1_affine *b1 = malloc(n * sizeof *b1), *sel = malloc(n * sizeof *sel);
        g16_g2_affine *b2 = malloc(n * sizeof *b2);
        g16_fr *s = malloc(n * sizeof *s);
        uint64_t *bits = calloc(n / 64 + 1, 8);
        g16_g1_jac e1, t1, got1, p1;
        g16_g2_jac e2, t2, got2, p2;
        g16_g1_jac_generator(&p1);
        g16_g2_jac_generator(&p2);
        memset(&e1, 0, sizeof e1), memset(&e2, 0, sizeof e2);
        g16_g1_jac sum_sel;
        memset(&sum_sel, 0, sizeof sum_sel);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            g16_fr k;
            g16_test_rand_fr(&rng, &k);
            g16_g1_mul_fr(&t1, &p1, &k);
            g16_g1_jac_to_affine(&b1[i], &t1);
            g16_g2_mul_fr(&t2, &p2, &k);
            g16_g2_jac_to_affine(&b2[i], &t2);
            uint64_t v = g16_rng_u64(&rng) % 4;
            if (v == 0) memset(&s[i], 0, sizeof s[i]);
            else if (v == 1) g16_fr_set_one(&s[i]);
            else g16_test_rand_fr(&rng, &s[i]);
            g16_g1_jac_from_affine(&t1, &b1[i]);
            g16_g1_mul_fr(&t1, &t1, &s[i]);
            g16_g1_jac_add(&e1, &e1, &t1);
            g16_g2_jac_from_affine(&t2, &b2[i]);
            g16_g2_mul_fr(&t2, &t2, &s[i]);
            g16_g2_jac_add(&e2, &e2, &t2);
            if (g16_rng_u64(&rng) & 1) {
                bits[i >> 6] |= 1ull << (i & 63);
                sel[m++] = b1[i];
                g16_g1_jac_from_affine(&t1, &b1[i]);
                g16_g1_jac_add(&sum_sel, &sum_sel, &t1);
            }
        }
        CHECK(be->ops->msm_g1(be, &got1, b1, n, s, n, NULL) == G16_OK &&
                  g16_g1_jac_eq(&got1, &e1), "%s msm_g1 n=%zu", be->name, n);
        CHECK(be->ops->msm_g2(be, &got2, b2, n, s, n, NULL) == G16_OK &&
                  g16_g2_jac_eq(&got2, &e2), "%s msm_g2 n=%zu", be->name, n);
        CHECK(be->ops->batch_add_g1(be, &got1, b1, n, bits) == G16_OK &&
                  g16_g1_jac_eq(&got1, &sum_sel), "%s batch_add_g1 n=%zu (%zu selected)", be->name,
              n, m);
        /* density: only the selected bases take part, with their scalars */
        g16_g1_jac ed;
        memset(&ed, 0, sizeof ed);
        for (size_t i = 0; i < n; i++)
            if ((bits[i >> 6] >> (i & 63)) & 1) {
                g16_g1_jac_from_affine(&t1, &b1[i]);
                g16_g1_mul_fr(&t1, &t1, &s[i]);
                g16_g1_jac_add(&ed, &ed, &t1);
            }
        CHECK(be->ops->msm_g1(be, &got1, sel, m, s, n, bits) == G16_OK && g16_g1_jac_eq(&got1, &ed),
              "%s msm_g1 with density n=%zu", be->name, n);
        CHECK(be->ops->msm_g1(be, &got1, sel, m + 1, s, n, bits) == G16_ERR_ARG,
              "%s msm_g1 refuses a base count that does not match the bitmap", be->name);
        free(b1), free(sel), free(b2), free(s), free(bits);
    }
}

/* A small circuit, its TEST-ONLY key and a deterministic r, s. */
typedef struct {
    tg_circ t;
    g16_key *key;
    uint8_t rs[64];
    g16_witness w;
} prove_fix;

static void fix_make(prove_fix *f)
{
    uint8_t seed[4] = {1, 2, 3, 4};
    tg_make(&f->t, &rng, 3, 300);
    f->key = NULL;
    CHECK(g16_setup(&f->key, &f->t.c, seed, sizeof seed) == G16_OK, "setup: %s", g16_last_error());
    g16_derive_rs(f->rs, seed, sizeof seed);
    f->w = (g16_witness){.n = g16_circuit_vars(&f->t.c), .n_pub = 3, .z = f->t.z};
}

static void fix_free(prove_fix *f)
{
    g16_key_release(f->key);
    tg_free(&f->t);
}

/* Proofs through be equal the CPU backend's for the same r, s (and verify). */
static void check_prove(g16_backend *be)
{
    prove_fix f;
    fix_make(&f);
    uint8_t p_cpu[G16_PROOF_BYTES], p_be[G16_PROOF_BYTES];
    CHECK(g16_prove_on(p_cpu, f.key, &f.t.c, &f.w, f.rs, NULL) == G16_OK, "prove cpu: %s",
          g16_last_error());
    CHECK(g16_prove_on(p_be, f.key, &f.t.c, &f.w, f.rs, be) == G16_OK, "prove %s: %s", be->name,
          g16_last_error());
    CHECK(!memcmp(p_cpu, p_be, sizeof p_cpu), "%s proof bytes equal the CPU's", be->name);
    uint8_t *x = tg_inputs(&f.t);
    CHECK(g16_verify(g16_key_vk(f.key), p_be, x, 3) == G16_OK, "%s proof verifies", be->name);
    free(x);
    fix_free(&f);
}

/* prove.c's prove_all branch (the CUDA table's path) without a GPU: a backend whose
 * table is the CPU's plus a prove_all that runs the MSMs first and the H step last,
 * as the CUDA one does.  Mode 0 must give the CPU's proof bytes; modes 1 and 2 fail
 * before and after the MSMs without releasing a, b, c, which prove_start must then
 * release (ASan/LSan in the unit stage) and report with the backend's message. */
typedef struct {
    g16_backend base; /* first: the ops table sees a g16_backend */
    int mode, calls;
} wrap_backend;

static g16_status wrap_prove(g16_backend *be, g16_g1_jac *h, g16_g1_jac *l, g16_g1_jac *a,
                             g16_g1_jac *b1, g16_g2_jac *b2, const g16_key *key,
                             g16_prove_input *in, unsigned log_n, const uint64_t *abits,
                             const uint64_t *bbits, g16_prove_times *tm)
{
    wrap_backend *w = (wrap_backend *)be;
    g16_backend *cpu = g16_cpu_backend();
    w->calls++;
    if (w->mode == 1) return g16_fail(G16_ERR_BACKEND, "wrapped backend: failing before the MSMs");
    g16_status st = cpu->ops->prove_msms_g1(cpu, l, a, b1, b2, key, in->z, in->n_z, abits, bbits, tm);
    if (!st && w->mode == 2) st = g16_fail(G16_ERR_BACKEND, "wrapped backend: failing after the MSMs");
    if (!st && in->abc_wait) { /* prove_early: a, b, c may still be being written */
        (void)in->abc_ready(in->abc_user);
        st = in->abc_wait(in->abc_user);
    }
    return st ? st : cpu->ops->prove_h(cpu, h, key, in, log_n, tm);
}

static void check_prove_all(void)
{
    static g16_backend_ops ops;
    ops = *g16_cpu_backend()->ops;
    ops.prove_all = wrap_prove;
    wrap_backend w = {.base = {.ops = &ops, .name = "wrapped cpu (prove_all)"}};
    check_prove(&w.base);
    CHECK(w.calls == 1, "the prover went through prove_all (%d calls)", w.calls);
    prove_fix f;
    fix_make(&f);
    uint8_t p_w[G16_PROOF_BYTES];
    for (int mode = 1; mode <= 2; mode++) {
        w.mode = mode;
        g16_status st = g16_prove_on(p_w, f.key, &f.t.c, &f.w, f.rs, &w.base);
        CHECK(st == G16_ERR_BACKEND && strstr(g16_last_error(), "wrapped backend: failing"),
              "prove_all failure %d reported: %d %s", mode, (int)st, g16_last_error());
    }
    fix_free(&f);
}

/* prove.c's prove_early branch (the CUDA table's early path) without a GPU: a, b, c
 * are synthesized by another thread while prove_start runs, as in the engine's early
 * device start.  The wrapped prove_early (wrap_prove with abc_wait set) runs the MSMs
 * over z, asks abc_ready, waits with abc_wait and then runs the H step, as the CUDA one
 * does.  Mode 0 must give the CPU's proof bytes; modes 1 and 2 fail before and after
 * the MSMs without touching a, b, c; mode 3 is a failed synthesis (abc_wait's error).  In every mode each buffer
 * is released once, and only after the synthesis thread has finished with it.  The
 * synthesis starts when abc_wait is first called (or after 300 ms), so a prover that
 * released a, b, c without waiting would do so while they are still being written. */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int go, done, fail, waits, readies, released, released_early;
    g16_prove_input *in;
    const tg_circ *t;
} early_synth;

static void *early_synth_thread(void *user)
{
    early_synth *es = user;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 300000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&es->mu);
    while (!es->go && pthread_cond_timedwait(&es->cv, &es->mu, &until) == 0) {
    }
    pthread_mutex_unlock(&es->mu);
    g16_status st = g16_synthesize(es->in->a, es->in->b, es->in->c, &es->t->c, es->t->z,
                                   g16_circuit_vars(&es->t->c));
    pthread_mutex_lock(&es->mu);
    es->done = st == G16_OK ? 1 : -1;
    pthread_cond_broadcast(&es->cv);
    pthread_mutex_unlock(&es->mu);
    return NULL;
}

static g16_status early_wait(void *user)
{
    early_synth *es = user;
    pthread_mutex_lock(&es->mu);
    es->waits++;
    es->go = 1;
    pthread_cond_broadcast(&es->cv);
    while (!es->done) pthread_cond_wait(&es->cv, &es->mu);
    int ok = es->done > 0 && !es->fail;
    pthread_mutex_unlock(&es->mu);
    return ok ? G16_OK : g16_fail(G16_ERR_ARG, "early synthesis: failed on purpose");
}

static int early_ready(void *user)
{
    early_synth *es = user;
    pthread_mutex_lock(&es->mu);
    es->readies++;
    int d = es->done;
    pthread_mutex_unlock(&es->mu);
    return d != 0;
}

static void early_release(void *user, g16_fr *buf)
{
    early_synth *es = user;
    pthread_mutex_lock(&es->mu);
    es->released++;
    if (!es->done) es->released_early++;
    pthread_mutex_unlock(&es->mu);
    free(buf);
}

static void check_prove_early(void)
{
    static g16_backend_ops ops;
    ops = *g16_cpu_backend()->ops;
    ops.prove_early = wrap_prove;
    wrap_backend w = {.base = {.ops = &ops, .name = "wrapped cpu (prove_early)"}};
    prove_fix f;
    fix_make(&f);
    uint8_t p_cpu[G16_PROOF_BYTES], p_w[G16_PROOF_BYTES];
    CHECK(g16_prove_on(p_cpu, f.key, &f.t.c, &f.w, f.rs, NULL) == G16_OK, "prove cpu: %s",
          g16_last_error());
    g16_density d;
    CHECK(g16_circuit_density(&d, &f.t.c) == G16_OK, "density: %s", g16_last_error());
    uint64_t rows = g16_circuit_rows(&f.t.c);
    for (int mode = 0; mode <= 3; mode++) {
        w.mode = mode, w.calls = 0;
        early_synth es = {.fail = mode == 3, .t = &f.t};
        pthread_mutex_init(&es.mu, NULL);
        pthread_cond_init(&es.cv, NULL);
        g16_prove_input in = {
            .density = &d,
            .a = malloc(rows * sizeof(g16_fr)),
            .b = malloc(rows * sizeof(g16_fr)),
            .c = malloc(rows * sizeof(g16_fr)),
            .n_rows = rows,
            .release = early_release,
            .release_user = &es,
            .z = f.t.z,
            .n_z = g16_circuit_vars(&f.t.c),
            .rs = f.rs,
            .backend = &w.base,
            .abc_wait = early_wait,
            .abc_ready = early_ready,
            .abc_user = &es,
        };
        es.in = &in;
        pthread_t th;
        int started = in.a && in.b && in.c && pthread_create(&th, NULL, early_synth_thread, &es) == 0;
        CHECK(started, "early mode %d: buffers and synthesis thread", mode);
        if (!started) { /* without the thread abc_wait would never return */
            free(in.a), free(in.b), free(in.c);
            break;
        }
        g16_pending *p = NULL;
        g16_status st = g16_prove_start(&p, f.key, &in);
        if (mode == 0) {
            CHECK(st == G16_OK && g16_prove_finish(p_w, p) == G16_OK, "early proof: %s", g16_last_error());
            CHECK(!memcmp(p_cpu, p_w, sizeof p_w), "early proof bytes equal the CPU's");
            CHECK(es.readies == 1, "the backend asked abc_ready once (%d)", es.readies);
        } else {
            const char *want = mode == 3 ? "early synthesis: failed on purpose" : "wrapped backend: failing";
            CHECK(st != G16_OK && p == NULL && strstr(g16_last_error(), want),
                  "early failure %d reported with its message: %d %s", mode, (int)st, g16_last_error());
            if (p) g16_pending_free(p);
        }
        pthread_join(th, NULL);
        CHECK(w.calls == 1, "early mode %d went through prove_early (%d calls)", mode, w.calls);
        CHECK(es.waits >= 1, "early mode %d: abc_wait called (%d)", mode, es.waits);
        CHECK(es.released == 3 && es.released_early == 0,
              "early mode %d: a, b, c released once each after the synthesis (%d, %d early)", mode,
              es.released, es.released_early);
        pthread_mutex_destroy(&es.mu);
        pthread_cond_destroy(&es.cv);
    }
    g16_density_free(&d);
    fix_free(&f);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(61));
    g16_backend_kind k;
    CHECK(g16_backend_parse("cpu", &k) == G16_OK && k == G16_BACKEND_CPU, "parse cpu");
    CHECK(g16_backend_parse("cuda", &k) == G16_OK && k == G16_BACKEND_CUDA, "parse cuda");
    CHECK(g16_backend_parse("auto", &k) == G16_OK && k == G16_BACKEND_AUTO, "parse auto");
    CHECK(g16_backend_parse("gpu", &k) == G16_ERR_ARG && strstr(g16_last_error(), "cpu, cuda or auto"),
          "parse gpu refused with the accepted words: %s", g16_last_error());

    g16_backend *cpu = NULL, *be = NULL;
    CHECK(g16_backend_open(&cpu, G16_BACKEND_CPU, 0) == G16_OK && cpu == g16_cpu_backend() &&
              !strcmp(g16_backend_name(cpu), "cpu"), "open cpu");
    char desc[256];
    int gpus = g16_cuda_built() ? g16_cuda_devices(desc, sizeof desc) : 0;
    g16_status st = g16_backend_open(&be, G16_BACKEND_CUDA, 0);
    if (gpus > 0) {
        CHECK(st == G16_OK && g16_backend_is_cuda(be), "open cuda with a GPU: %s", g16_last_error());
        g16_backend_close(be);
    } else {
        CHECK(st == G16_ERR_BACKEND && be == NULL && strstr(g16_last_error(), "backend cuda"),
              "open cuda without a GPU is a clear error: %s", g16_last_error());
    }
    CHECK(g16_backend_open(&be, G16_BACKEND_CUDA, -1) != G16_OK, "negative device refused");
    CHECK(g16_backend_open(&be, G16_BACKEND_AUTO, 0) == G16_OK, "open auto");
    CHECK(g16_backend_is_cuda(be) == (gpus > 0), "auto is CUDA exactly when a GPU is present");
    printf("testing backend %s\n", g16_backend_name(be));

    check_ntt(be);
    check_h_step(be);
    check_msm(be);
    check_prove(be);
    check_prove_all();
    check_prove_early();
    if (be != cpu) { /* the CPU reference too */
        check_ntt(cpu), check_h_step(cpu), check_msm(cpu);
    }
    g16_backend_close(be);
    g16_backend_close(cpu); /* a no-op for the shared CPU backend */
    return g16_test_finish("test_backend_ops");
}
