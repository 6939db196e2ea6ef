/* GPU benchmark: NTT 2^20..2^27, H step, G1 MSM 2^20..2^26 (27), G2 MSM 2^20..2^24 (27)
 * (as device memory allows), bases already on the GPU.  Each figure is the
 * median of several runs measured with CUDA events (kernel time: inputs already
 * on the device; total: including the host-to-device copy of the scalars /
 * vectors through pinned staging).
 *
 *   g16_gpu_bench [--quick] [--only ntt|h|g1|g2|pin|copy] [--lo L] [--hi H] [--no-hmsm] [--fold C]
 * (--lo/--hi bound the log sizes of the G1/G2 MSM loops, G1 to 2^26 unless --hi is
 * 27, G2 to 2^24 unless --hi is 25 to 27; --no-hmsm skips the
 * H step + H-query MSM pairs: for quick A/B runs of MSM tuning knobs.)
 * (g1 also times prove_start's H part: H step + H-query MSM from the device h.)
 * (--fold C: the G1 MSMs over bases folded for window C (g16_cuda_bases_fold; 0: its
 * default), reported as msm_g1f, and the fold's own time as fold_g1; the folded
 * copies of 2^hi bases must fit the card.)
 * (pin, only when asked: page-locking fresh 2 GiB host buffers, cold and after the
 * pages were touched by 8 threads, and NTT 2^24 round trips while another thread
 * page-locks buffers: the engine's pool does that from synthesis threads.)
 * (copy, only when asked: a 4 GiB upload from page-locked memory, and from ordinary
 * memory staged by 1..16 threads, as the key preload does; lines "COPY ...".)
 *
 * Prints one line per figure:  RESULT <what> <log2 size> <kernel ms> <total ms>
 * MSM bases: 2^18 (G1) / 2^16 (G2) distinct points tiled to the size (the work
 * of an MSM does not depend on the bases being distinct), scalars uniform.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "backend/cuda_ops.h"
#include "check.h"
#include "curve/curve.h"
#include "field/fr.h"

static g16_rng rng;

static void rand_scalars(g16_fr *s, size_t n)
{
    /* canonical < 2^254 < r, read as Montgomery form: still uniform-looking */
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++) s[i].l[k] = g16_rng_u64(&rng);
#if G16_CURVE_BN254
        s[i].l[3] &= 0x1fffffffffffffffULL; /* < 2^253 < BN254's r */
#else
        s[i].l[3] &= 0x3fffffffffffffffULL;
#endif
    }
}

static int cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, unsigned lg, float *k, float *t, int reps)
{
    qsort(k, (size_t)reps, sizeof *k, cmp_f);
    qsort(t, (size_t)reps, sizeof *t, cmp_f);
    printf("RESULT %s %u %.3f %.3f\n", what, lg, k[reps / 2], t[reps / 2]);
    fflush(stdout);
}

/* Stops growing an operation's size once one run takes this long: the figures
 * past it would cost minutes of device time and say nothing new. */
#define SLOW_MS 4000.0f

static int fail(const char *what)
{
    printf("FAILED %s: %s\n", what, g16_last_error());
    fflush(stdout);
    return 1;
}

#if !G16_CURVE_BN254
/* ---------------------------------------------------------------- pin */

#define PIN_BYTES ((size_t)2 << 30)
#define PIN_COUNT 4

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    char *p;
    size_t bytes;
} pin_slice;

static void *touch_slice(void *arg)
{
    pin_slice *s = arg;
    memset(s->p, 0, s->bytes);
    return NULL;
}

/* Fresh anonymous mapping; prefault: its pages touched by 8 threads first. */
static char *pin_map(int prefault)
{
    char *p = mmap(NULL, PIN_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if (prefault) {
        pthread_t t[8];
        pin_slice s[8];
        for (int i = 0; i < 8; i++) {
            s[i] = (pin_slice){p + (size_t)i * (PIN_BYTES / 8), PIN_BYTES / 8};
            pthread_create(&t[i], NULL, touch_slice, &s[i]);
        }
        for (int i = 0; i < 8; i++) pthread_join(t[i], NULL);
    }
    return p;
}

typedef struct {
    int prefault;
    volatile int done;
    double seconds; /* registration time, summed */
    int ok;
} pin_job;

static void *pin_thread(void *arg)
{
    pin_job *j = arg;
    char *bufs[PIN_COUNT];
    j->ok = 1;
    for (int i = 0; i < PIN_COUNT; i++) {
        bufs[i] = pin_map(j->prefault);
        double t0 = now_s();
        if (!bufs[i] || g16_cuda_host_register(bufs[i], PIN_BYTES) != G16_OK) j->ok = 0;
        j->seconds += now_s() - t0;
    }
    j->done = 1;
    for (int i = 0; i < PIN_COUNT; i++)
        if (bufs[i]) g16_cuda_host_unregister(bufs[i]), munmap(bufs[i], PIN_BYTES);
    return NULL;
}

/* NTT 2^24 round trips (pinned host vector) until the job is done, or n of them. */
static void ntt_while(g16_cuda_ctx *ctx, g16_fr *v, pin_job *j, int n, float *tot, int *count)
{
    *count = 0;
    while (*count < 64 && (j ? !j->done : *count < n)) {
        float k;
        if (g16_cuda_ntt(ctx, v, 24, 0, 0, 0, 0) != G16_OK) break;
        g16_cuda_last_times(ctx, &tot[*count], &k);
        (*count)++;
    }
}

static int bench_pin(g16_cuda_ctx *ctx)
{
    g16_fr *v;
    if (g16_cuda_host_alloc((void **)&v, ((size_t)1 << 24) * sizeof *v) != G16_OK) return fail("pinned");
    rand_scalars(v, (size_t)1 << 24);
    float tot[64], k[64];
    int n;
    ntt_while(ctx, v, NULL, 9, tot, &n);
    memcpy(k, tot, sizeof tot);
    qsort(k, (size_t)n, sizeof *k, cmp_f);
    printf("PIN ntt24 alone: median %.2f ms (%d runs)\n", k[n / 2], n);
    for (int prefault = 0; prefault < 2; prefault++) {
        pin_job j = {prefault, 0, 0, 0};
        pthread_t t;
        double t0 = now_s();
        pthread_create(&t, NULL, pin_thread, &j);
        ntt_while(ctx, v, &j, 0, tot, &n);
        pthread_join(t, NULL);
        double wall = now_s() - t0;
        qsort(tot, (size_t)n, sizeof *tot, cmp_f);
        printf("PIN %s: %d x 2 GiB registered in %.2f s (%.1f GB/s of registration; wall %.2f s incl. "
               "touching); ntt24 meanwhile: %d runs, median %.2f ms, max %.2f ms%s\n",
               prefault ? "prefaulted" : "cold", PIN_COUNT, j.seconds,
               PIN_COUNT * (double)PIN_BYTES / 1e9 / j.seconds, wall, n, n ? tot[n / 2] : 0.0f,
               n ? tot[n - 1] : 0.0f, j.ok ? "" : " (REGISTRATION FAILED)");
    }
    g16_cuda_host_free(v);
    return 0;
}

/* ---------------------------------------------------------------- copy */

/* Host-to-device bandwidth of a 4 GiB key-sized upload (g16_cuda_bases_upload): from
 * page-locked memory (the bus), and from ordinary memory through the staging buffer
 * with 1..16 copying threads (G16_CUDA_UPLOAD_THREADS, the key preload's path). */
static int bench_copy(g16_cuda_ctx *ctx)
{
    const size_t n = ((size_t)4 << 30) / sizeof(g16_g1_affine), bytes = n * sizeof(g16_g1_affine);
    g16_g1_affine *pin, *page = malloc(bytes);
    if (!page) return fail("host memory");
    if (g16_cuda_host_alloc((void **)&pin, bytes) != G16_OK) return free(page), fail("pinned memory");
    memset(page, 0x5a, bytes); /* touched: the preload's keys are in memory */
    memset(pin, 0x5a, bytes);
    static const int threads[] = {0, 1, 2, 4, 8, 12, 16}; /* 0: the page-locked source */
    const char *old = getenv("G16_CUDA_UPLOAD_THREADS");
    char keep[16] = "";
    if (old) snprintf(keep, sizeof keep, "%s", old);
    int bad = 0;
    for (size_t i = 0; i < sizeof threads / sizeof *threads && !bad; i++) {
        char nt[8];
        snprintf(nt, sizeof nt, "%d", threads[i] ? threads[i] : 1);
        setenv("G16_CUDA_UPLOAD_THREADS", nt, 1);
        double s[3];
        for (int r = 0; r < 3; r++) {
            g16_cuda_bases *b;
            double t0 = now_s();
            if (g16_cuda_bases_upload(ctx, &b, G16_G1, threads[i] ? page : pin, n) != G16_OK) {
                bad = fail("upload");
                break;
            }
            s[r] = now_s() - t0;
            g16_cuda_bases_free(b);
        }
        if (bad) break;
        double lo = s[0] < s[1] ? s[0] : s[1];
        lo = lo < s[2] ? lo : s[2];
        if (threads[i])
            printf("COPY pageable, %2d thread(s): %.2f GB in %.1f ms (best of 3) = %.1f GB/s\n", threads[i],
                   bytes / 1e9, lo * 1e3, bytes / 1e9 / lo);
        else
            printf("COPY page-locked source: %.2f GB in %.1f ms (best of 3) = %.1f GB/s\n", bytes / 1e9,
                   lo * 1e3, bytes / 1e9 / lo);
        fflush(stdout);
    }
    if (old) setenv("G16_CUDA_UPLOAD_THREADS", keep, 1);
    else unsetenv("G16_CUDA_UPLOAD_THREADS");
    g16_cuda_host_free(pin);
    free(page);
    return bad;
}

#endif

int main(int argc, char **argv)
{
    int quick = 0, no_hmsm = 0, fold = -1;
    unsigned lo_lg = 0, hi_lg = 99;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--lo") && i + 1 < argc) lo_lg = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hi") && i + 1 < argc) hi_lg = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-hmsm")) no_hmsm = 1;
        else if (!strcmp(argv[i], "--fold") && i + 1 < argc) fold = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    }
    g16_rng_seed(&rng, g16_test_seed(1));
    g16_cuda_ctx *ctx;
    if (g16_cuda_ctx_create(&ctx, 0) != G16_OK) return fail("context");
    int bad = 0;
#if G16_CURVE_BN254
    if (only && strcmp(only, "g1") && strcmp(only, "g2") && strcmp(only, "ntt") && strcmp(only, "h"))
        return fail("BN254: --only g1, g2, ntt or h");
#else
    if (only && (!strcmp(only, "pin") || !strcmp(only, "copy"))) {
        bad = !strcmp(only, "pin") ? bench_pin(ctx) : bench_copy(ctx);
        g16_cuda_ctx_destroy(ctx);
        return bad;
    }
#endif
    float k[7], t[7];
    /* G1 stops at 2^26 unless --hi asks for 2^27 (12.9 GB of bases), G2 at 2^24 unless
     * --hi asks for 2^25 .. 2^27 (12.9 GB of bases at 2^26, 25.8 at 2^27): at 2^27 an
     * MSM no longer fits one sort (msm_run's window groups) */
    const unsigned ntt_max = quick ? 22 : 27, g1_max = quick ? 20 : hi_lg == 27 ? 27 : 26;
    const unsigned g2_max = quick ? 18 : hi_lg >= 25 && hi_lg <= 27 ? hi_lg : 24;

    /* Host vectors are page-locked, as the engine keeps them (pinned staging):
     * the total then shows the bus, not a host memcpy. */
    size_t cap = (size_t)1 << ntt_max;
    g16_fr *v;
    if (g16_cuda_host_alloc((void **)&v, cap * sizeof *v) != G16_OK) return fail("pinned memory");
    for (int radix = 2; radix <= 8 && (!only || !strcmp(only, "ntt")); radix *= 2) {
        if (g16_cuda_set_ntt_radix(ctx, radix) != G16_OK) return fail("radix");
        const char *nn = radix == 2 ? "ntt_nn" : radix == 4 ? "ntt4_nn" : "ntt8_nn";
        const char *nb = radix == 2 ? "ntt_nb" : radix == 4 ? "ntt4_nb" : "ntt8_nb";
        for (unsigned lg = 20; lg <= ntt_max; lg++) {
            size_t n = (size_t)1 << lg;
            int reps = lg <= 24 ? 5 : 3;
            for (int r = 0; r < reps; r++) {
                rand_scalars(v, n);
                if (g16_cuda_ntt(ctx, v, lg, 0, 0, 0, 0) != G16_OK) {
                    bad |= fail("ntt");
                    break;
                }
                g16_cuda_last_times(ctx, &t[r], &k[r]);
            }
            report(nn, lg, k, t, reps);
            for (int r = 0; r < reps; r++) {
                if (g16_cuda_ntt(ctx, v, lg, 0, 0, 0, 1) != G16_OK) {
                    bad |= fail("ntt");
                    break;
                }
                g16_cuda_last_times(ctx, &t[r], &k[r]);
            }
            report(nb, lg, k, t, reps);
        }
    }
    g16_cuda_set_ntt_radix(ctx, 8); /* back to the default for the H step */
    if (!only || !strcmp(only, "h")) {
        for (unsigned lg = 20; lg <= (quick ? 20u : 26u); lg += 2) {
            size_t n = (size_t)1 << lg;
            g16_fr *a, *b, *c;
            if (g16_cuda_host_alloc((void **)&a, n * sizeof *a) != G16_OK ||
                g16_cuda_host_alloc((void **)&b, n * sizeof *a) != G16_OK ||
                g16_cuda_host_alloc((void **)&c, n * sizeof *a) != G16_OK) {
                bad |= fail("pinned memory");
                break;
            }
            rand_scalars(a, n), rand_scalars(b, n), rand_scalars(c, n);
            for (int r = 0; r < 3; r++) {
                if (g16_cuda_h_step(ctx, v, a, b, c, lg, 0) != G16_OK) {
                    bad |= fail("h step");
                    break;
                }
                g16_cuda_last_times(ctx, &t[r], &k[r]);
            }
            report("h_step", lg, k, t, 3);
            g16_cuda_host_free(a), g16_cuda_host_free(b), g16_cuda_host_free(c);
        }
    }
    g16_cuda_host_free(v);

    if (!only || !strcmp(only, "g1")) {
        size_t nmax = (size_t)1 << g1_max, distinct = (size_t)1 << 18;
        g16_g1_affine *bases = malloc(nmax * sizeof *bases);
        g16_g1_jac *tmp = malloc(distinct * sizeof *tmp);
        g16_fr *sc = malloc(nmax * sizeof *sc);
        if (!bases || !tmp || !sc) return fail("host memory");
        g16_g1_jac p, q;
        g16_g1_jac_generator(&q);
        p = q;
        for (size_t i = 0; i < distinct; i++) tmp[i] = p, g16_g1_jac_add(&p, &p, &q);
        g16_g1_jac_batch_to_affine(bases, tmp, distinct);
        for (size_t i = distinct; i < nmax; i++) bases[i] = bases[i % distinct];
        g16_cuda_bases *db;
        if (g16_cuda_bases_upload(ctx, &db, G16_G1, bases, nmax) != G16_OK) return fail("upload");
        rand_scalars(sc, nmax);
        g16_cuda_bases *fb = NULL; /* --fold: the folded copies of the largest size run */
        if (fold >= 0) {
            unsigned top = g1_max < hi_lg ? g1_max : hi_lg;
            g16_cuda_bases *pre;
            if (g16_cuda_bases_prefix(&pre, db, (size_t)1 << top) != G16_OK) return fail("prefix");
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            g16_status fs = g16_cuda_bases_fold(ctx, &fb, pre, (unsigned)fold);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            g16_cuda_bases_free(pre);
            if (fs != G16_OK) return fail("fold");
            float ms = (float)((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
            printf("RESULT fold_g1 %u %.3f %.3f\n", top, ms, ms);
        }
        for (unsigned lg = lo_lg > 20 ? lo_lg : 20; lg <= g1_max && lg <= hi_lg; lg++) {
            size_t n = (size_t)1 << lg;
            int reps = lg <= 24 ? 5 : 3;
            g16_cuda_bases *sub;
            if (g16_cuda_bases_prefix(&sub, fb ? fb : db, n) != G16_OK) return fail("prefix");
            for (int r = 0; r < reps; r++) {
                g16_g1_jac out;
                if (g16_cuda_msm_g1(ctx, &out, sub, sc, n, NULL, NULL) != G16_OK) {
                    bad |= fail("msm g1");
                    break;
                }
                g16_cuda_last_times(ctx, &t[r], &k[r]);
            }
            g16_cuda_bases_free(sub);
            report(fb ? "msm_g1f" : "msm_g1", lg, k, t, reps);
            if (k[reps / 2] > SLOW_MS) break;
        }
#if !G16_CURVE_BN254
        /* prove_start's H part: H step, then the H-query MSM from the device h */
        for (unsigned lg = 20; lg <= g1_max && !no_hmsm; lg += 2) {
            size_t n = (size_t)1 << lg;
            g16_fr *a, *h;
            g16_cuda_bases *sub;
            if (g16_cuda_host_alloc((void **)&a, 3 * n * sizeof *a) != G16_OK ||
                g16_cuda_host_alloc((void **)&h, n * sizeof *h) != G16_OK)
                return fail("pinned memory");
            rand_scalars(a, 3 * n);
            if (g16_cuda_bases_prefix(&sub, db, n - 1) != G16_OK) return fail("prefix");
            float ht, hk, mt, mk;
            for (int r = 0; r < 3; r++) {
                g16_g1_jac out;
                if (g16_cuda_h_step(ctx, h, a, a + n, a + 2 * n, lg, 0) != G16_OK) {
                    bad |= fail("h step");
                    break;
                }
                g16_cuda_last_times(ctx, &ht, &hk);
                if (g16_cuda_msm_g1_h(ctx, &out, sub, n - 1, NULL) != G16_OK) {
                    bad |= fail("msm g1 h");
                    break;
                }
                g16_cuda_last_times(ctx, &mt, &mk);
                k[r] = hk + mk, t[r] = ht + mt;
            }
            report("h+hmsm", lg, k, t, 3);
            g16_cuda_bases_free(sub);
            g16_cuda_host_free(a), g16_cuda_host_free(h);
        }
#else
        (void)no_hmsm;
#endif
        g16_cuda_bases_free(fb);
        g16_cuda_bases_free(db);
        free(bases), free(tmp), free(sc);
    }
    if (!only || !strcmp(only, "g2")) {
        size_t nmax = (size_t)1 << g2_max, distinct = (size_t)1 << 16;
        g16_g2_affine *bases = malloc(nmax * sizeof *bases);
        g16_g2_jac *tmp = malloc(distinct * sizeof *tmp);
        g16_fr *sc = malloc(nmax * sizeof *sc);
        if (!bases || !tmp || !sc) return fail("host memory");
        g16_g2_jac p, q;
        g16_g2_jac_generator(&q);
        p = q;
        for (size_t i = 0; i < distinct; i++) tmp[i] = p, g16_g2_jac_add(&p, &p, &q);
        g16_g2_jac_batch_to_affine(bases, tmp, distinct);
        for (size_t i = distinct; i < nmax; i++) bases[i] = bases[i % distinct];
        g16_cuda_bases *db;
        if (g16_cuda_bases_upload(ctx, &db, G16_G2, bases, nmax) != G16_OK) return fail("upload");
        rand_scalars(sc, nmax);
        for (unsigned lg = lo_lg > 20 - (quick ? 2u : 0u) ? lo_lg : 20 - (quick ? 2 : 0);
             lg <= g2_max && lg <= hi_lg; lg++) {
            size_t n = (size_t)1 << lg;
            g16_cuda_bases *sub;
            if (g16_cuda_bases_prefix(&sub, db, n) != G16_OK) return fail("prefix");
            for (int r = 0; r < 3; r++) {
                g16_g2_jac out;
                if (g16_cuda_msm_g2(ctx, &out, sub, sc, n, NULL, NULL) != G16_OK) {
                    bad |= fail("msm g2");
                    break;
                }
                g16_cuda_last_times(ctx, &t[r], &k[r]);
            }
            g16_cuda_bases_free(sub);
            report("msm_g2", lg, k, t, 3);
            if (k[1] > SLOW_MS) break;
        }
        g16_cuda_bases_free(db);
        free(bases), free(tmp), free(sc);
    }
    g16_cuda_ctx_destroy(ctx);
    return bad;
}
