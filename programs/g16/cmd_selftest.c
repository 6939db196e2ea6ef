/* g16 selftest: the built-in known-answer checks, then a short benchmark. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define MAX_CHECKS 64
#define MAX_BENCH 32

int cli_selftest(int argc, char **argv)
{
    int bench = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-bench"))
            bench = 0;
        else if (!strcmp(argv[i], "--help")) {
            puts("usage: g16 selftest [--no-bench]\n"
                 "Runs the known-answer checks (field, curve, encodings, pairing) and a short\n"
                 "benchmark of the core operations; exit 0 when every check passed.");
            return CLI_OK;
        } else {
            fprintf(stderr, "g16 selftest: unknown option '%s'\n", argv[i]);
            return CLI_ERROR;
        }
    }
    g16_check_result res[MAX_CHECKS];
    size_t n = 0;
    g16_status s = g16_selftest(res, MAX_CHECKS, &n);
    if (n > MAX_CHECKS) n = MAX_CHECKS;
    printf("g16 %s selftest (field arithmetic: %s)\n\n", g16_version(), g16_arith_path());
    printf("%-44s %s\n", "known-answer check", "result");
    printf("%-44s %s\n", "--------------------------------------------", "------");
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        printf("%-44s %s%s%s\n", res[i].name, res[i].passed ? "ok" : "FAIL",
               res[i].passed ? "" : ": ", res[i].passed ? "" : res[i].detail);
        failed += !res[i].passed;
    }
    printf("\n%zu passed, %zu failed\n", n - failed, failed);
    if (bench) {
        g16_bench_result b[MAX_BENCH];
        size_t nb = 0;
        g16_status bs = g16_bench_field(b, MAX_BENCH, &nb, 1);
        if (bs != G16_OK) return cli_fail("selftest bench", bs);
        printf("\n%-28s %14s\n", "operation (quick bench)", "ns/op (median)");
        printf("%-28s %14s\n", "----------------------------", "--------------");
        for (size_t i = 0; i < nb && i < MAX_BENCH; i++) printf("%-28s %14.1f\n", b[i].op, b[i].ns);
    }
    return s == G16_OK && failed == 0 ? CLI_OK : CLI_INVALID;
}
