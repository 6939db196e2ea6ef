/* `g16 filecoin post-bench`: one PoSt partition from a vanilla proof, stage by
 * stage, proved with a TIMING-ONLY key (diag/bench_post.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/error.h"
#include "diag/bench_post.h"

static void stage_row(const char *what, const g16_bench_post_stage *s)
{
    if (s->overlapped)
        printf("%-6s witness %.3f s (%.2f core-s)  synthesis %.3f s beside the MSMs  prove %.3f s  total %.3f s "
               "(overlapped)\n", what, s->witness, s->witness_cpu, s->synth, s->prove, s->total);
    else
        printf("%-6s witness %.3f s (%.2f core-s)  synthesis %.3f s (%.2f core-s)  prove %.3f s  total %.3f s\n",
               what, s->witness, s->witness_cpu, s->synth, s->synth_cpu, s->prove, s->total);
    printf("       prove: h_ntt %.3f  msm_h %.3f  msm_l %.3f  msm_a %.3f  msm_b1 %.3f  msm_b2 %.3f%s  "
           "assembly %.3f  prove_start %.3f s\n",
           s->h_ntt, s->msm_h, s->msm_l, s->msm_a, s->msm_b1, s->msm_b2, s->b2_in_start ? " (in start)" : "",
           s->assembly, s->prove_start);
}

static void stage_json(const char *what, const g16_bench_post_stage *s)
{
    printf("\"%s\":{\"witness\":%.6f,\"witness_cpu\":%.6f,\"synthesis\":%.6f,\"synthesis_cpu\":%.6f,"
           "\"h_ntt\":%.6f,\"msm_h\":%.6f,\"msm_l\":%.6f,\"msm_a\":%.6f,\"msm_b1\":%.6f,\"msm_b2\":%.6f,"
           "\"b2_in_start\":%s,\"assembly\":%.6f,\"prove_start\":%.6f,\"prove\":%.6f,\"total\":%.6f,"
           "\"overlapped\":%s}",
           what, s->witness, s->witness_cpu, s->synth, s->synth_cpu, s->h_ntt, s->msm_h, s->msm_l, s->msm_a,
           s->msm_b1, s->msm_b2, s->b2_in_start ? "true" : "false", s->assembly, s->prove_start, s->prove,
           s->total, s->overlapped ? "true" : "false");
}

int cli_filecoin_post_bench(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *vanilla = NULL, *backend = "auto";
    unsigned long sectors = 0, reps = 2;
    int json = 0, progress = 0, overlap = 0, witness_only = 0, distinct = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const struct {
            const char *name;
            int *on;
        } flags[] = {{"--json", &json},           {"--progress", &progress}, {"--overlap", &overlap},
                     {"--witness-only", &witness_only}, {"--distinct", &distinct}};
        size_t f = 0;
        while (f < sizeof flags / sizeof flags[0] && strcmp(o, flags[f].name)) f++;
        if (f < sizeof flags / sizeof flags[0]) {
            *flags[f].on = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 filecoin post-bench: option '%s' needs a value (or is unknown)\n", o);
            return CLI_ERROR;
        }
        const char *v = argv[++i];
        char *end = NULL;
        if (!strcmp(o, "--kind")) kind = v;
        else if (!strcmp(o, "--sector-size")) size = v;
        else if (!strcmp(o, "--vanilla")) vanilla = v;
        else if (!strcmp(o, "--backend")) backend = v;
        else if (!strcmp(o, "--sectors") || !strcmp(o, "--reps")) {
            unsigned long x = strtoul(v, &end, 10);
            if (!*v || *end || x == 0 || x > 100000) {
                fprintf(stderr, "g16 filecoin post-bench: %s %s: want 1..100000\n", o, v);
                return CLI_ERROR;
            }
            if (!strcmp(o, "--sectors")) sectors = x;
            else reps = x;
        } else {
            fprintf(stderr, "g16 filecoin post-bench: unknown option '%s' (g16 filecoin --help)\n", o);
            return CLI_ERROR;
        }
    }
    g16_bench_post_args a = {0};
    if (kind && !strcmp(kind, "window")) a.kind = G16_FC_WINDOW;
    else if (kind && !strcmp(kind, "winning")) a.kind = G16_FC_WINNING;
    else {
        fprintf(stderr, "g16 filecoin post-bench: --kind window|winning is required\n");
        return CLI_ERROR;
    }
    if (!size || (!vanilla && !distinct) || (vanilla && distinct)) {
        fprintf(stderr, "g16 filecoin post-bench: --sector-size and one of --vanilla F or --distinct are required\n");
        return CLI_ERROR;
    }
    g16_backend_kind bk;
    g16_status st = g16_backend_parse(backend, &bk);
    if (st == G16_OK) st = g16_fc_parse_sector_size(&a.sector_size, size);
    if (st != G16_OK) return cli_fail("filecoin post-bench", st);
    g16_fc_vproof v = {0};
    if (vanilla && (st = g16_fc_vproof_read(&v, vanilla)) != G16_OK) return cli_fail("filecoin post-bench", st);
    a.v = &v;
    a.distinct = distinct;
    a.sectors = (unsigned)sectors;
    a.backend = (int)bk;
    a.reps = (unsigned)reps;
    a.progress = progress;
    a.overlap = overlap;
    a.witness_only = witness_only;
    g16_bench_post_result r;
    st = g16_bench_post(&r, &a);
    g16_fc_vproof_free(&v);
    if (st == G16_ERR_UNSATISFIED) {
        printf("not satisfied: %s\n", g16_last_error());
        return CLI_INVALID;
    }
    if (st != G16_OK) return cli_fail("filecoin post-bench", st);
    if (r.witness_only) {
        if (json)
            printf("{\"kind\":\"%s\",\"circuit_sectors\":%u,\"full_sectors\":%u,\"witness_only\":true,"
                   "\"distinct_sectors\":%u,\"reps\":%u,\"witness_bytes\":%zu,\"witness_batched\":%llu,"
                   "\"first\":{\"witness\":%.6f,"
                   "\"witness_cpu\":%.6f},\"best\":{\"witness\":%.6f,\"witness_cpu\":%.6f},\"peak_rss_kb\":%ld}\n",
                   kind, r.circuit_sectors, r.full_sectors, r.distinct_sectors, r.reps, r.witness_bytes,
                   (unsigned long long)r.witness_batched, r.first.witness, r.first.witness_cpu, r.best.witness,
                   r.best.witness_cpu, r.peak_rss_kb);
        else
            printf("%s PoSt %s, %u of %u circuit sectors%s, witness only (%.1f MiB, %llu path hashes batched):\n"
                   "first  witness %.3f s (%.2f core-s)\nbest   witness %.3f s (%.2f core-s) of %u\n",
                   kind, size, r.circuit_sectors, r.full_sectors, r.distinct_sectors ? " (synthetic)" : "",
                   (double)r.witness_bytes / (1 << 20),
                   (unsigned long long)r.witness_batched, r.first.witness, r.first.witness_cpu, r.best.witness,
                   r.best.witness_cpu, r.reps);
        return CLI_OK;
    }
    if (json) {
        printf("{\"kind\":\"%s\",\"circuit_sectors\":%u,\"full_sectors\":%u,\"rows\":%llu,\"inputs\":%llu,"
               "\"aux\":%llu,\"aux_in_a\":%llu,\"aux_in_b\":%llu,\"domain\":%llu,\"terms\":%llu,\"matrices\":%.6f,\"matrices_cpu\":%.6f,"
               "\"matrix_bytes\":%zu,\"density\":%.6f,\"key\":%.6f,\"key_bytes\":%zu,\"upload\":%.6f,"
               "\"witness_bytes\":%zu,\"rows_checked\":%llu,\"check\":%.6f,\"reps\":%u,\"overlapped_reps\":%u,"
               "\"backend\":\"%s\",\"witness_batched\":%llu,\"distinct_sectors\":%u,"
               "\"peak_rss_kb\":%ld,\"timing_key\":true,\"valid\":null,",
               kind, r.circuit_sectors, r.full_sectors, (unsigned long long)r.rows, (unsigned long long)r.inputs,
               (unsigned long long)r.aux, (unsigned long long)r.aux_in_a, (unsigned long long)r.aux_in_b,
               (unsigned long long)r.domain, (unsigned long long)r.terms, r.matrices,
               r.matrices_cpu, r.matrix_bytes, r.density, r.key, r.key_bytes, r.upload, r.witness_bytes,
               (unsigned long long)r.rows_checked, r.check, r.reps, r.overlapped_reps, r.backend,
               (unsigned long long)r.witness_batched, r.distinct_sectors, r.peak_rss_kb);
        stage_json("first", &r.first);
        putchar(',');
        stage_json("best", &r.best);
        puts("}");
        return CLI_OK;
    }
    printf("%s PoSt %s, %u of %u circuit sectors: %llu rows (domain 2^%d), %llu inputs, %llu aux, %llu terms; "
           "backend %s\n",
           kind, size, r.circuit_sectors, r.full_sectors, (unsigned long long)r.rows, __builtin_ctzll(r.domain),
           (unsigned long long)r.inputs, (unsigned long long)r.aux, (unsigned long long)r.terms, r.backend);
    if (r.distinct_sectors)
        printf("values: %u TEST-ONLY synthetic sector proofs (made in %.3f s, not timed)\n", r.distinct_sectors,
               r.distinct_secs);
    else
        printf("values: sector proof 0 of %s in every circuit sector\n", vanilla);
    printf("once:  matrices %.3f s (%.2f core-s, %.1f MiB), density %.3f s (aux in A %llu, in B %llu), "
           "TIMING-ONLY key %.3f s (%.1f MiB), key upload %.3f s\n",
           r.matrices, r.matrices_cpu, (double)r.matrix_bytes / (1 << 20), r.density,
           (unsigned long long)r.aux_in_a, (unsigned long long)r.aux_in_b, r.key, (double)r.key_bytes / (1 << 20),
           r.upload);
    printf("check: a·b = c on all %llu rows (%.3f s, not in the totals); witness %.1f MiB, %llu path hashes "
           "batched\n",
           (unsigned long long)r.rows_checked, r.check, (double)r.witness_bytes / (1 << 20),
           (unsigned long long)r.witness_batched);
    stage_row("first", &r.first);
    stage_row("best", &r.best);
    printf("%u proof(s) with a TIMING-ONLY key (%u with the synthesis beside the MSMs): NOT valid, not "
           "verified; peak RSS %.1f GiB\n", r.reps, r.overlapped_reps, (double)r.peak_rss_kb / (1 << 20));
    return CLI_OK;
}
