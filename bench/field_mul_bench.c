/* Field arithmetic timing: dependent chains x = x·y through the exported
 * g16_fp_* / g16_fr_* functions (what callers see, call overhead included),
 * the median of several runs, for the portable C core and the mulx/adx path.
 *
 * Not part of the CMake build: compile against a build directory's libraries,
 * e.g.  cc -O2 -Iinclude -Isrc -DG16_HAVE_MULX bench/field_mul_bench.c \
 *          build/libg16_field.a build/libg16_common.a -o /tmp/field_mul_bench
 * (-DG16_HAVE_MULX on x86-64 builds with the assembly path, for the lazy rows)
 * Usage: field_mul_bench [iterations] [runs]   (default 1000000 and 7)
 * The figure the performance bar refers to is the wall-time median of the
 * dependent chain; the others help read results on a busy machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "field/cpu.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/mont_x86_64.h"
#include "field/x86_64/inline.h"

static long iters = 1000000;
static int runs = 7;

static double clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A sink the compiler cannot see through, so the chains are not removed. */
static volatile uint64_t sink;

typedef void (*kernel_fn)(void);

/* Prints the median and minimum over the runs of wall time (CLOCK_MONOTONIC)
 * and of this thread's CPU time: on a shared machine the wall median counts
 * time spent descheduled, the thread CPU time does not. */
static void measure(const char *label, kernel_fn k, long ops_per_run)
{
    double wall[32], cpu[32];
    k(); /* warm-up: page faults, frequency ramp */
    for (int r = 0; r < runs; r++) {
        double w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        k();
        cpu[r] = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / (double)ops_per_run;
        wall[r] = (clock_ns(CLOCK_MONOTONIC) - w0) / (double)ops_per_run;
    }
    qsort(wall, (size_t)runs, sizeof wall[0], cmp_double);
    qsort(cpu, (size_t)runs, sizeof cpu[0], cmp_double);
    printf("  %-18s %7.2f %7.2f   %7.2f %7.2f\n", label, wall[runs / 2], wall[0], cpu[runs / 2], cpu[0]);
}

static g16_fp fx, fy;
static g16_fr rx, ry;

static void fp_mul_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_mul(&x, &x, &fy);
    sink ^= x.l[0];
}

static void fp_mul_4chains(void)
{
    g16_fp x[4] = {fx, fy, fx, fy};
    for (long i = 0; i < iters; i++) {
        g16_fp_mul(&x[0], &x[0], &fy);
        g16_fp_mul(&x[1], &x[1], &fy);
        g16_fp_mul(&x[2], &x[2], &fx);
        g16_fp_mul(&x[3], &x[3], &fx);
    }
    sink ^= x[0].l[0] ^ x[1].l[0] ^ x[2].l[0] ^ x[3].l[0];
}

static void fp_sqr_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_sqr(&x, &x);
    sink ^= x.l[0];
}

static void fp_add_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_add(&x, &x, &fy);
    sink ^= x.l[0];
}

static void fp_sub_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_sub(&x, &x, &fy);
    sink ^= x.l[0];
}

static void fp_neg_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_neg(&x, &x);
    sink ^= x.l[0];
}

static void fp_dbl_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_dbl(&x, &x);
    sink ^= x.l[0];
}

static void fr_mul_chain(void)
{
    g16_fr x = rx;
    for (long i = 0; i < iters; i++) g16_fr_mul(&x, &x, &ry);
    sink ^= x.l[0];
}

static void fr_mul_4chains(void)
{
    g16_fr x[4] = {rx, ry, rx, ry};
    for (long i = 0; i < iters; i++) {
        g16_fr_mul(&x[0], &x[0], &ry);
        g16_fr_mul(&x[1], &x[1], &ry);
        g16_fr_mul(&x[2], &x[2], &rx);
        g16_fr_mul(&x[3], &x[3], &rx);
    }
    sink ^= x[0].l[0] ^ x[1].l[0] ^ x[2].l[0] ^ x[3].l[0];
}

static void fr_sqr_chain(void)
{
    g16_fr x = rx;
    for (long i = 0; i < iters; i++) g16_fr_sqr(&x, &x);
    sink ^= x.l[0];
}

static void fr_add_chain(void)
{
    g16_fr x = rx;
    for (long i = 0; i < iters; i++) g16_fr_add(&x, &x, &ry);
    sink ^= x.l[0];
}

#if G16_FP_INLINE
/* the inline forms the hot loops use (field/x86_64/inline.h): no call, no path test */
static void fp_add_inl_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_add_inl(&x, &x, &fy);
    sink ^= x.l[0];
}

static void fp_sub_inl_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_fp_sub_inl(&x, &x, &fy);
    sink ^= x.l[0];
}

static void fr_add_inl_chain(void)
{
    g16_fr x = rx;
    for (long i = 0; i < iters; i++) g16_fr_add_inl(&x, &x, &ry);
    sink ^= x.l[0];
}
#endif

#if defined(G16_HAVE_MULX)
/* the lazy (< 2p) mulx product the batch inversion uses, called directly */
static void fp_mul_lazy_chain(void)
{
    g16_fp x = fx;
    for (long i = 0; i < iters; i++) g16_mulx_mont_384_lazy(x.l, x.l, fy.l, g16_fp_modulus, G16_FP_N0);
    sink ^= x.l[0];
}

static void fp_mul_lazy_4chains(void)
{
    g16_fp x[4] = {fx, fy, fx, fy};
    for (long i = 0; i < iters; i++) {
        g16_mulx_mont_384_lazy(x[0].l, x[0].l, fy.l, g16_fp_modulus, G16_FP_N0);
        g16_mulx_mont_384_lazy(x[1].l, x[1].l, fy.l, g16_fp_modulus, G16_FP_N0);
        g16_mulx_mont_384_lazy(x[2].l, x[2].l, fx.l, g16_fp_modulus, G16_FP_N0);
        g16_mulx_mont_384_lazy(x[3].l, x[3].l, fx.l, g16_fp_modulus, G16_FP_N0);
    }
    sink ^= x[0].l[0] ^ x[1].l[0] ^ x[2].l[0] ^ x[3].l[0];
}
#endif

static void report(void)
{
    printf("path: %s            ns/op: wall median, min; thread-CPU median, min\n", g16_arith_path());
    measure("fp mul (chain)", fp_mul_chain, iters);
    measure("fp mul (4 chains)", fp_mul_4chains, 4 * iters);
    measure("fp sqr (chain)", fp_sqr_chain, iters);
    measure("fp add (chain)", fp_add_chain, iters);
    measure("fp sub (chain)", fp_sub_chain, iters);
    measure("fp dbl (chain)", fp_dbl_chain, iters);
    measure("fp neg (chain)", fp_neg_chain, iters);
    measure("fr mul (chain)", fr_mul_chain, iters);
    measure("fr mul (4 chains)", fr_mul_4chains, 4 * iters);
    measure("fr sqr (chain)", fr_sqr_chain, iters);
    measure("fr add (chain)", fr_add_chain, iters);
#if G16_FP_INLINE
    measure("fp add inline", fp_add_inl_chain, iters);
    measure("fp sub inline", fp_sub_inl_chain, iters);
    measure("fr add inline", fr_add_inl_chain, iters);
#endif
#if defined(G16_HAVE_MULX)
    if (g16_use_mulx) {
        measure("fp mul lazy (chain)", fp_mul_lazy_chain, iters);
        measure("fp mul lazy (4 ch.)", fp_mul_lazy_4chains, 4 * iters);
    }
#endif
}

int main(int argc, char **argv)
{
    if (argc > 1) iters = atol(argv[1]);
    if (argc > 2) runs = atoi(argv[2]);
    if (iters < 1 || runs < 1 || runs > 32) {
        fprintf(stderr, "usage: %s [iterations >= 1] [runs 1..32]\n", argv[0]);
        return 2;
    }
    g16_fp_from_u64(&fx, 0x1234567890abcdefULL);
    g16_fp_from_u64(&fy, 0xfedcba0987654321ULL);
    g16_fp_inv(&fy, &fy); /* a full-width multiplier, not a small one */
    g16_fr_from_u64(&rx, 0x1234567890abcdefULL);
    g16_fr_from_u64(&ry, 0xfedcba0987654321ULL);
    g16_fr_inv(&ry, &ry);
    printf("%ld chained operations per run, median of %d runs\n", iters, runs);
    g16_field_force_portable(1);
    report();
    if (g16_cpu_can_mulx()) {
        g16_field_force_portable(0);
        report();
    } else {
        printf("mulx/adx path not available in this build or on this CPU\n");
    }
    return 0;
}
