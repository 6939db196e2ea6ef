/* `g16 engine run`: one multi-partition job through the proving engine, every
 * proof self-checked, the trace written, the summary printed.
 * `g16 bench pipeline`: sweeps the synthesis worker count (cmd_bench.c dispatches here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char engine_usage[] =
    "usage: g16 engine run [OPTIONS]\n"
    "\n"
    "Proves one job of P partitions through the engine (synthesis workers, device\n"
    "workers, finalizers, memory budget), verifies every proof, writes the trace.\n"
    "Without --circuit/--witness/--params it generates a synthetic circuit and a\n"
    "TEST-ONLY key (its secrets follow from --seed: never use such a key for real).\n"
    "\n"
    "  --partitions P      partitions in the job (10)\n"
    "  --jobs J            jobs submitted together (1)\n"
    "  --log-n N           rows per partition 2^N for a generated circuit (12)\n"
    "  --profile NAME      porep | dense | bits (porep)\n"
    "  --inputs K          public inputs of a generated circuit (4)\n"
    "  --seed S            generation and setup seed (1)\n"
    "  --circuit F.g16c --witness F.g16w --params F.params|F.g16k   prove these instead\n"
    "  --pw A --gw G       synthesis workers (2), device workers per device (1)\n"
    "  --backend NAME      cpu | cuda | auto (auto: every GPU when one is present, else the CPU)\n"
    "  --devices D         devices (default: every GPU with CUDA, 1 with the CPU backend);\n"
    "                      cpu:N: N CPU devices (the CPU backend, each with CPUs / N threads)\n"
    "  --gpus LIST         these GPUs, one device each, e.g. 0,1 (CUDA ordinals, as\n"
    "                      CUDA_VISIBLE_DEVICES leaves them; default: every visible GPU)\n"
    "  --budget BYTES      host memory budget, suffix K/M/G allowed (half the RAM)\n"
    "  --max-ahead K       partitions in synthesis or waiting for a device, at most\n"
    "                      (pw + 2 per device worker)\n"
    "  --priority NAME     critical | high | normal | low (normal)\n"
    "  --no-verify         skip the self-check (on by default)\n"
    "  --trace FILE        Chrome trace-event JSON (engine-trace.json; '-' none)\n"
    "  --out FILE          write the 192·P proof bytes\n"
    "  --debug             log every stage change with the counters\n";

static const char pipeline_usage[] =
    "usage: g16 bench pipeline [--jobs J] [--partitions P] [--log-n N] [--profile NAME]\n"
    "                          [--pw A,B,C] [--gw G] [--devices D|cpu:N] [--gpus 0,1 | --gpu-sets 0/0,1]\n"
    "                          [--budget BYTES] [--max-ahead K]\n"
    "                          [--backend cpu|cuda|auto]\n"
    "                          [--inputs K] [--seed S] [--no-verify] [--trace-dir DIR] [--json]\n"
    "Per pw setting: s/proof, the s/proof the stage times allow, device busy %,\n"
    "peak RSS above the pre-run baseline, peak reserved bytes.  Defaults: J 2, P 10,\n"
    "N 12, porep, pw 1,2,4,8, gw 1, budget half the RAM, backend auto (every GPU when\n"
    "one is present, else the CPU).  --devices cpu:N: N CPU devices; --gpus: these GPUs;\n"
    "--gpu-sets: each GPU list in turn (every pw for each), one circuit and key for all.\n"
    "With several devices each line (and --json) has every device's busy share and stages.\n";

/* "123", "64K", "512M", "4G" (powers of 1024). */
static int parse_bytes(uint64_t *out, const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0) return -1;
    double m = 1;
    if (*end == 'K' || *end == 'k') m = 1024.0, end++;
    else if (*end == 'M' || *end == 'm') m = 1048576.0, end++;
    else if (*end == 'G' || *end == 'g') m = 1073741824.0, end++;
    if (*end == 'i' && end[1] == 'B') end += 2;
    else if (*end == 'B') end++;
    if (*end) return -1;
    *out = (uint64_t)(v * m);
    return 0;
}

static int parse_uint(unsigned *out, const char *s, unsigned lo, unsigned hi)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v < lo || v > hi || s[0] == '-') return -1;
    *out = (unsigned)v;
    return 0;
}

/* --devices: "D", or "cpu:N" for N CPU devices (sets the backend too). */
static int parse_devices(unsigned *devices, int *backend, const char *v)
{
    if (!strncmp(v, "cpu:", 4)) {
        if (parse_uint(devices, v + 4, 1, G16_ENGINE_MAX_DEVICES)) return -1;
        *backend = G16_BACKEND_CPU;
        return 0;
    }
    return parse_uint(devices, v, 1, G16_ENGINE_MAX_DEVICES);
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bad_opt(const char *cmd, const char *o, const char *v)
{
    fprintf(stderr, "g16 %s: bad value '%s' for %s\n", cmd, v ? v : "(none)", o);
    return CLI_ERROR;
}

static int engine_run(int argc, char **argv)
{
    unsigned parts = 10, jobs = 1, log_n = 12, n_pub = 4, seed = 1;
    const char *circ_path = NULL, *wit_path = NULL, *params_path = NULL, *out_path = NULL;
    const char *trace = "engine-trace.json";
    g16_profile profile = G16_PROFILE_POREP;
    g16_priority prio = G16_PRIO_NORMAL;
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = 2;
    cfg.verify = 1;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(engine_usage, stdout);
            return CLI_OK;
        }
        if (!strcmp(o, "--no-verify")) { cfg.verify = 0; continue; }
        if (!strcmp(o, "--debug")) { cfg.debug = 1; continue; }
        if (!v) return bad_opt("engine run", o, v);
        i++;
        if (!strcmp(o, "--partitions")) { if (parse_uint(&parts, v, 1, 4096)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--jobs")) { if (parse_uint(&jobs, v, 1, 1024)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--log-n")) { if (parse_uint(&log_n, v, 2, 31)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--inputs")) { if (parse_uint(&n_pub, v, 0, 1u << 20)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--seed")) { if (parse_uint(&seed, v, 0, ~0u)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--pw")) { if (parse_uint(&cfg.pw, v, 1, 1024)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--gw")) { if (parse_uint(&cfg.gw, v, 1, 64)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--devices")) { if (parse_devices(&cfg.devices, &cfg.backend, v)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--gpus")) {
            if (g16_engine_parse_gpus(&cfg, v)) return cli_fail("engine run", G16_ERR_ARG);
        }
        else if (!strcmp(o, "--backend")) {
            g16_backend_kind k;
            if (g16_backend_parse(v, &k)) return bad_opt("engine run", o, v);
            cfg.backend = k;
        }
        else if (!strcmp(o, "--budget")) { if (parse_bytes(&cfg.budget_bytes, v)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--max-ahead")) { if (parse_uint(&cfg.max_ahead, v, 1, 1u << 20)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--profile")) { if (g16_profile_parse(&profile, v)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--priority")) { if (g16_priority_parse(&prio, v)) return bad_opt("engine run", o, v); }
        else if (!strcmp(o, "--circuit")) circ_path = v;
        else if (!strcmp(o, "--witness")) wit_path = v;
        else if (!strcmp(o, "--params")) params_path = v;
        else if (!strcmp(o, "--trace")) trace = strcmp(v, "-") ? v : NULL;
        else if (!strcmp(o, "--out")) out_path = v;
        else {
            fprintf(stderr, "g16 engine run: unknown option '%s'\n%s", o, engine_usage);
            return CLI_ERROR;
        }
    }
    if ((circ_path || wit_path || params_path) && !(circ_path && wit_path && params_path)) {
        fprintf(stderr, "g16 engine run: --circuit, --witness and --params go together\n");
        return CLI_ERROR;
    }
    cfg.trace_path = trace;

    g16_circuit *circ = NULL;
    g16_witness *wit = NULL;
    g16_key *key = NULL;
    g16_engine *e = NULL;
    g16_partition *pv = NULL;
    uint64_t *ids = NULL;
    uint8_t *proofs = NULL;
    int rc = CLI_ERROR;
    g16_status st;
    double t = mono();
    if (circ_path) {
        if ((st = g16_circuit_load(&circ, circ_path)) || (st = g16_witness_load(&wit, wit_path)) ||
            (st = cli_key_read(&key, params_path, 0))) {
            cli_fail("engine run", st);
            goto out;
        }
        printf("loaded %s, %s, %s in %.2f s\n", circ_path, wit_path, params_path, mono() - t);
    } else {
        g16_circuit_gen_args ga = {profile, log_n, n_pub, seed};
        uint64_t s64 = seed;
        if ((st = g16_circuit_generate(&circ, &wit, &ga)) ||
            (st = g16_setup(&key, circ, (const uint8_t *)&s64, sizeof s64))) {
            cli_fail("engine run", st);
            goto out;
        }
        printf("generated a %s circuit of 2^%u rows and its TEST-ONLY key in %.2f s\n",
               g16_profile_name(profile), log_n, mono() - t);
    }
    pv = calloc(parts, sizeof *pv);
    ids = calloc(jobs, sizeof *ids);
    proofs = malloc((size_t)parts * G16_PROOF_BYTES);
    if (!pv || !ids || !proofs) {
        fprintf(stderr, "g16 engine run: out of memory\n");
        goto out;
    }
    for (unsigned i = 0; i < parts; i++) pv[i] = (g16_partition){.circuit = circ, .witness = wit};
    if ((st = g16_engine_create(&e, &cfg))) {
        cli_fail("engine run", st);
        goto out;
    }
    t = mono();
    for (unsigned j = 0; j < jobs; j++)
        if ((st = g16_engine_submit(e, &ids[j], key, pv, parts, prio))) {
            cli_fail("engine run", st);
            goto out;
        }
    rc = CLI_OK;
    for (unsigned j = 0; j < jobs; j++) {
        g16_job_status js;
        st = g16_engine_await(e, ids[j], -1, proofs, (size_t)parts * G16_PROOF_BYTES, &js);
        if (st) {
            fprintf(stderr, "g16 engine run: job %llu %s in stage %s: %s\n", (unsigned long long)ids[j],
                    g16_status_str(st), js.stage, js.message);
            rc = CLI_ERROR;
            continue;
        }
        printf("job %llu: %u proofs (%u bytes) in %.3f s, %u self-check retr%s%s\n", (unsigned long long)ids[j],
               js.finished, js.finished * G16_PROOF_BYTES, js.run_s, js.retries, js.retries == 1 ? "y" : "ies",
               cfg.verify ? ", every proof verified" : "");
        if (out_path && j == 0) {
            FILE *f = fopen(out_path, "wb");
            if (!f || fwrite(proofs, G16_PROOF_BYTES, parts, f) != parts || fclose(f)) {
                fprintf(stderr, "g16 engine run: cannot write %s\n", out_path);
                rc = CLI_ERROR;
            }
        }
    }
    /* Idle pool buffers returned first, so "current" shows every counter back at 0. */
    g16_engine_trim(e);
    g16_engine_stats es;
    g16_engine_stats_get(e, &es);
    g16_engine_destroy(e, 1);
    e = NULL;
    g16_engine_stats_print(&es, stdout);
    if (trace) printf("trace: %s (open in https://ui.perfetto.dev)\n", trace);
out:
    g16_engine_destroy(e, 0);
    free(pv);
    free(ids);
    free(proofs);
    g16_key_release(key);
    g16_circuit_destroy(circ);
    g16_witness_destroy(wit);
    return rc;
}

int cli_engine(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(engine_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    if (!strcmp(argv[1], "run")) return engine_run(argc, argv);
    fprintf(stderr, "g16 engine: unknown subcommand '%s'\n%s", argv[1], engine_usage);
    return CLI_ERROR;
}

int cli_bench_pipeline(int argc, char **argv)
{
    unsigned jobs = 2, parts = 10, log_n = 12, n_pub = 4, seed = 1, gw = 1, devices = 0, max_ahead = 0;
    int backend = G16_BACKEND_AUTO;
    /* --gpus LIST, or --gpu-sets A/B/..: GPU lists run one after the other (each with
     * every pw), on one prepared circuit and key: 1 GPU against 2 in one call */
    enum { MAX_SETS = 8 };
    static g16_engine_config gsets[MAX_SETS];
    char gnames[MAX_SETS][64];
    unsigned n_sets = 0;
    unsigned pws[64] = {1, 2, 4, 8}, n_pw = 4;
    uint64_t budget = 0;
    int json = 0, verify = 1;
    const char *trace_dir = NULL;
    g16_profile profile = G16_PROFILE_POREP;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(pipeline_usage, stdout);
            return CLI_OK;
        }
        if (!strcmp(o, "--json")) { json = 1; continue; }
        if (!strcmp(o, "--no-verify")) { verify = 0; continue; }
        if (!v) return bad_opt("bench pipeline", o, v);
        i++;
        if (!strcmp(o, "--jobs")) { if (parse_uint(&jobs, v, 1, 1024)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--partitions")) { if (parse_uint(&parts, v, 1, 4096)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--log-n")) { if (parse_uint(&log_n, v, 2, 31)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--inputs")) { if (parse_uint(&n_pub, v, 0, 1u << 20)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--seed")) { if (parse_uint(&seed, v, 0, ~0u)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--gw")) { if (parse_uint(&gw, v, 1, 64)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--devices")) { if (parse_devices(&devices, &backend, v)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--gpus") || !strcmp(o, "--gpu-sets")) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            n_sets = 0;
            for (char *sv = NULL, *tok = strtok_r(buf, "/", &sv); tok; tok = strtok_r(NULL, "/", &sv)) {
                if (n_sets == MAX_SETS || (!strcmp(o, "--gpus") && n_sets == 1))
                    return bad_opt("bench pipeline", o, v);
                g16_engine_config_default(&gsets[n_sets]);
                if (g16_engine_parse_gpus(&gsets[n_sets], tok)) return cli_fail("bench pipeline", G16_ERR_ARG);
                snprintf(gnames[n_sets++], sizeof gnames[0], "%s", tok);
            }
            if (!n_sets) return bad_opt("bench pipeline", o, v);
        }
        else if (!strcmp(o, "--backend")) {
            g16_backend_kind k;
            if (g16_backend_parse(v, &k)) return bad_opt("bench pipeline", o, v);
            backend = k;
        }
        else if (!strcmp(o, "--budget")) { if (parse_bytes(&budget, v)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--max-ahead")) { if (parse_uint(&max_ahead, v, 1, 1u << 20)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--profile")) { if (g16_profile_parse(&profile, v)) return bad_opt("bench pipeline", o, v); }
        else if (!strcmp(o, "--trace-dir")) trace_dir = v;
        else if (!strcmp(o, "--pw")) {
            n_pw = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
                if (n_pw == 64 || parse_uint(&pws[n_pw++], tok, 1, 1024)) return bad_opt("bench pipeline", o, v);
            if (!n_pw) return bad_opt("bench pipeline", o, v);
        } else {
            fprintf(stderr, "g16 bench pipeline: unknown option '%s'\n%s", o, pipeline_usage);
            return CLI_ERROR;
        }
    }
    g16_bench_pipeline *b;
    double t = mono();
    g16_status st = g16_bench_pipeline_prepare(&b, profile, log_n, n_pub, seed);
    if (st) return cli_fail("bench pipeline", st);
    if (!json) {
        printf("pipeline: %u job(s) x %u partitions, %s 2^%u rows, gw %u, backend %s, prepared in %.1f s\n",
               jobs, parts, g16_profile_name(profile), log_n, gw,
               backend == G16_BACKEND_CPU ? "cpu" : backend == G16_BACKEND_CUDA ? "cuda" : "auto",
               mono() - t);
        printf("%4s %10s %10s %7s %8s %8s %12s %12s %12s %9s\n", "pw", "s/proof", "bound", "eff%", "busy%",
               "steady%", "rss_peak_MiB", "rss_eng_MiB", "reserved_MiB", "budget_MiB");
    }
    int rc = CLI_OK;
    const unsigned n_runs = (n_sets ? n_sets : 1) * n_pw;
    for (unsigned it = 0; it < n_runs; it++) {
        const unsigned gs = it / n_pw, k = it % n_pw; /* GPU set, pw */
        if (!json && n_sets && k == 0) printf("gpus %s:\n", gnames[gs]);
        g16_engine_config cfg;
        g16_engine_config_default(&cfg);
        cfg.pw = pws[k];
        cfg.gw = gw;
        cfg.devices = devices;
        cfg.backend = backend;
        if (n_sets) {
            memcpy(cfg.gpus, gsets[gs].gpus, sizeof cfg.gpus);
            cfg.n_gpus = gsets[gs].n_gpus;
        }
        cfg.max_ahead = max_ahead;
        cfg.budget_bytes = budget;
        cfg.verify = verify;
        char tp[4096];
        if (trace_dir) {
            if (n_sets)
                snprintf(tp, sizeof tp, "%s/pipeline-pw%u-gpus%s.json", trace_dir, pws[k], gnames[gs]);
            else
                snprintf(tp, sizeof tp, "%s/pipeline-pw%u.json", trace_dir, pws[k]);
            cfg.trace_path = tp;
        }
        g16_bench_pipeline_result r;
        st = g16_bench_pipeline_run(b, &r, &cfg, jobs, parts);
        if (st) {
            rc = cli_fail("bench pipeline", st);
            break;
        }
        if (!r.all_verified) {
            fprintf(stderr, "g16 bench pipeline: a returned proof does not verify\n");
            rc = CLI_ERROR;
        }
        const g16_engine_stats *s = &r.stats;
        double rss_eng = r.rss_peak > r.rss_base ? (double)(r.rss_peak - r.rss_base) : 0;
        /* Per proof: the device stage and its GPU parts (what is left is host work). */
        double np = r.proofs ? (double)r.proofs : 1, nd = s->dev_proofs ? (double)s->dev_proofs : 1;
        char parts_json[256] = "", dev_json[4096] = "";
        {
            /* per device: busy share of the active time, device stages, failed */
            size_t o = 0;
            o += snprintf(dev_json + o, sizeof dev_json - o,
                          ",\"devices_failed\":%u,\"reroutes\":%llu,\"early_starts\":%llu,\"dev\":[",
                          s->devices_failed, (unsigned long long)s->reroutes,
                          (unsigned long long)s->early_starts);
            for (unsigned d = 0; d < s->devices && o < sizeof dev_json - 128; d++)
                o += snprintf(dev_json + o, sizeof dev_json - o,
                              "%s{\"gpu\":%d,\"busy\":%.4f,\"stages\":%llu,\"errors\":%llu,\"failed\":%s}",
                              d ? "," : "", s->dev[d].gpu, s->dev[d].busy, (unsigned long long)s->dev[d].stages,
                              (unsigned long long)s->dev[d].errors, s->dev[d].failed ? "true" : "false");
            snprintf(dev_json + o, sizeof dev_json - o, "]");
        }
        if (s->dev_proofs)
            snprintf(parts_json, sizeof parts_json,
                     ",\"device_s\":%.4f,\"dev_h\":%.4f,\"dev_msm_h\":%.4f,\"dev_msm_l\":%.4f,"
                     "\"dev_msm_a\":%.4f,\"dev_msm_b1\":%.4f,\"dev_msm_b2\":%.4f",
                     s->busy_s / np, s->dev_part_s[0] / nd, s->dev_part_s[1] / nd, s->dev_part_s[2] / nd,
                     s->dev_part_s[3] / nd, s->dev_part_s[4] / nd, s->dev_part_s[5] / nd);
        if (json)
            printf("{\"bench\":\"pipeline\",\"gpus\":\"%s\",\"pw\":%u,\"gw\":%u,\"devices\":%u,\"jobs\":%u,\"partitions\":%u,"
                   "\"log_n\":%u,\"profile\":\"%s\",\"proofs\":%llu,\"wall_s\":%.4f,\"s_per_proof\":%.5f,"
                   "\"bound_s_per_proof\":%.5f,\"device_busy\":%.4f,\"device_busy_steady\":%.4f,"
                   "\"rss_proc_bytes\":%llu,\"rss_base_bytes\":%llu,"
                   "\"rss_peak_bytes\":%llu,\"peak_reserved_bytes\":%lld,\"budget_bytes\":%llu,"
                   "\"fixed_bytes\":%llu,\"peak_key_bytes\":%lld,\"peak_circuit_bytes\":%lld,"
                   "\"peak_witness_bytes\":%lld,"
                   "\"peak_waiting\":%lld,\"peak_abc_bytes\":%lld,\"synth_s\":%.4f%s%s,\"verified\":%s}\n",
                   n_sets ? gnames[gs] : "", pws[k], gw, s->devices, jobs, parts, log_n, g16_profile_name(profile),
                   (unsigned long long)r.proofs, r.wall_s, r.s_per_proof, r.bound_s, s->device_busy,
                   s->device_busy_steady,
                   (unsigned long long)r.rss_proc, (unsigned long long)r.rss_base,
                   (unsigned long long)r.rss_peak,
                   (long long)s->peak[G16_CTR_RESERVED_BYTES], (unsigned long long)s->budget_bytes,
                   (unsigned long long)s->fixed_bytes, (long long)s->peak[G16_CTR_KEY_BYTES],
                   (long long)s->peak[G16_CTR_CIRCUIT_BYTES], (long long)s->peak[G16_CTR_WITNESS_BYTES],
                   (long long)s->peak[G16_CTR_WAITING], (long long)s->peak[G16_CTR_ABC_BYTES],
                   s->synth_s / np, parts_json, dev_json, r.all_verified ? "true" : "false");
        else
            printf("%4u %10.4f %10.4f %7.1f %8.1f %8.1f %12.1f %12.1f %12.1f %9.0f\n", pws[k], r.s_per_proof,
                   r.bound_s, r.s_per_proof > 0 ? 100 * r.bound_s / r.s_per_proof : 0, 100 * s->device_busy,
                   100 * s->device_busy_steady,
                   r.rss_peak / 1048576.0, rss_eng / 1048576.0, s->peak[G16_CTR_RESERVED_BYTES] / 1048576.0,
                   s->budget_bytes / 1048576.0);
        if (!json && (s->devices > 1 || s->devices_failed)) {
            printf("     devices:");
            for (unsigned d = 0; d < s->devices; d++)
                printf(" %u busy %.1f%% %llu stages%s", d, 100 * s->dev[d].busy,
                       (unsigned long long)s->dev[d].stages, s->dev[d].failed ? " FAILED" : "");
            printf("\n");
        }
        fflush(stdout);
    }
    g16_bench_pipeline_free(b);
    return rc;
}
