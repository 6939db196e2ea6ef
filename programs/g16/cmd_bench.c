/* g16 bench: micro-benchmarks.  Timings are medians of repeated runs; --json prints
 * one object per line for scripts (docs/BENCHMARKS.md records the results). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_BENCH 64

static const char bench_usage[] =
    "usage: g16 bench field [--quick] [--json]\n"
    "       g16 bench ntt --log-n A[..B] [--threads T] [--coset] [--reps R] [--seed S] [--json]\n"
    "       g16 bench msm --group g1|g2 --log-n A[..B] [--threads T] [--ones F] [--zeros F]\n"
    "                     [--reps R] [--seed S] [--json]\n"
    "\n"
    "field: ns/op (median) of Fp mul/sqr/inverse, Fr mul, G1 add/double/mixed add, G2 mixed add,\n"
    "       G1 and G2 scalar multiplication, Miller loop and final exponentiation.\n"
    "ntt:   seconds (median) of one forward Fr NTT of 2^log_n elements (coset with --coset).\n"
    "msm:   seconds (median) of one MSM of 2^log_n random bases; --ones/--zeros set the fraction\n"
    "       of scalars equal to 1 and 0 (the rest full-width random).\n"
    "--threads 0 (default) means G16_THREADS or the CPU count.\n";

static int bench_field(int argc, char **argv)
{
    int json = 0, quick = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else {
            fprintf(stderr, "g16 bench field: unknown option '%s'\n", argv[i]);
            return CLI_ERROR;
        }
    }
    g16_bench_result r[MAX_BENCH];
    size_t n = 0;
    g16_status s = g16_bench_field(r, MAX_BENCH, &n, quick);
    if (s != G16_OK) return cli_fail("bench field", s);
    if (n > MAX_BENCH) n = MAX_BENCH;
    if (!json) {
        printf("field arithmetic: %s\n", g16_arith_path());
        printf("%-28s %14s %10s\n", "operation", "ns/op", "ops/run");
    }
    for (size_t i = 0; i < n; i++) {
        if (json)
            printf("{\"bench\":\"field\",\"op\":\"%s\",\"ns\":%.1f,\"iters\":%llu,\"path\":\"%s\"}\n",
                   r[i].op, r[i].ns, (unsigned long long)r[i].iters, g16_arith_path());
        else
            printf("%-28s %14.1f %10llu\n", r[i].op, r[i].ns, (unsigned long long)r[i].iters);
    }
    return CLI_OK;
}

/* Shared option parsing of the kernel benchmarks. */
static int parse_kernel_args(int argc, char **argv, const char *what, int is_msm,
                             g16_bench_kernel_args *a, int *lo, int *hi, int *json)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->group = G16_G1;
    *lo = *hi = -1;
    *json = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(o, "--json")) {
            *json = 1;
            continue;
        }
        if (!is_msm && !strcmp(o, "--coset")) {
            a->coset = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "g16 bench %s: option '%s' needs a value (or is unknown)\n", what, o);
            return -1;
        }
        i++;
        if (!strcmp(o, "--log-n")) {
            if (cli_parse_range(v, lo, hi)) {
                fprintf(stderr, "g16 bench %s: --log-n wants A or A..B (0..40), got '%s'\n", what, v);
                return -1;
            }
        } else if (!strcmp(o, "--threads")) {
            long t = strtol(v, &end, 10);
            if (*end || t < 0 || t > 4096) goto bad;
            a->threads = (unsigned)t;
        } else if (!strcmp(o, "--reps")) {
            long t = strtol(v, &end, 10);
            if (*end || t < 0 || t > 1000) goto bad;
            a->reps = (int)t;
        } else if (!strcmp(o, "--seed")) {
            a->seed = strtoull(v, &end, 0);
            if (*end) goto bad;
        } else if (is_msm && !strcmp(o, "--group")) {
            if (!strcmp(v, "g1"))
                a->group = G16_G1;
            else if (!strcmp(v, "g2"))
                a->group = G16_G2;
            else
                goto bad;
        } else if (is_msm && (!strcmp(o, "--ones") || !strcmp(o, "--zeros"))) {
            double f = strtod(v, &end);
            if (*end || f < 0 || f > 1) goto bad;
            if (o[2] == 'o')
                a->ones = f;
            else
                a->zeros = f;
        } else {
            fprintf(stderr, "g16 bench %s: unknown option '%s'\n", what, o);
            return -1;
        }
        continue;
    bad:
        fprintf(stderr, "g16 bench %s: bad value '%s' for %s\n", what, v, o);
        return -1;
    }
    if (*lo < 0) {
        fprintf(stderr, "g16 bench %s: --log-n is required\n", what);
        return -1;
    }
    if (a->ones + a->zeros > 1.0) {
        fprintf(stderr, "g16 bench %s: --ones + --zeros exceeds 1\n", what);
        return -1;
    }
    return 0;
}

static int bench_kernel(int argc, char **argv, int is_msm)
{
    const char *what = is_msm ? "msm" : "ntt";
    g16_bench_kernel_args a;
    int lo, hi, json;
    if (parse_kernel_args(argc, argv, what, is_msm, &a, &lo, &hi, &json)) return CLI_ERROR;
    if (!json) {
        if (is_msm)
            printf("%-6s %6s %8s %6s %6s %12s\n", "group", "log_n", "threads", "ones", "zeros",
                   "seconds");
        else
            printf("%-6s %6s %8s %12s\n", "coset", "log_n", "threads", "seconds");
    }
    for (int k = lo; k <= hi; k++) {
        a.log_n = k;
        double sec = 0;
        g16_status s = is_msm ? g16_bench_msm(&sec, &a) : g16_bench_ntt(&sec, &a);
        if (s != G16_OK) return cli_fail(is_msm ? "bench msm" : "bench ntt", s);
        unsigned th = g16_threads();
        if (is_msm) {
            const char *g = a.group == G16_G1 ? "g1" : "g2";
            if (json)
                printf("{\"bench\":\"msm\",\"group\":\"%s\",\"log_n\":%d,\"threads\":%u,"
                       "\"ones\":%.3f,\"zeros\":%.3f,\"seconds\":%.6f}\n",
                       g, k, th, a.ones, a.zeros, sec);
            else
                printf("%-6s %6d %8u %6.2f %6.2f %12.6f\n", g, k, th, a.ones, a.zeros, sec);
        } else {
            if (json)
                printf("{\"bench\":\"ntt\",\"log_n\":%d,\"threads\":%u,\"coset\":%s,"
                       "\"seconds\":%.6f}\n",
                       k, th, a.coset ? "true" : "false", sec);
            else
                printf("%-6s %6d %8u %12.6f\n", a.coset ? "yes" : "no", k, th, sec);
        }
        fflush(stdout);
    }
    return CLI_OK;
}

int cli_bench(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(bench_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    if (!strcmp(argv[1], "field")) return bench_field(argc, argv);
    if (!strcmp(argv[1], "ntt")) return bench_kernel(argc, argv, 0);
    if (!strcmp(argv[1], "msm")) return bench_kernel(argc, argv, 1);
    if (!strcmp(argv[1], "pipeline")) return cli_bench_pipeline(argc, argv);
    fprintf(stderr, "g16 bench: unknown benchmark '%s'\n", argv[1]);
    fputs(bench_usage, stderr);
    return CLI_ERROR;
}
