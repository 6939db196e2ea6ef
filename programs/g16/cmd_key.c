/* g16 key: the native key cache (.g16k) — make one, check one against its
 * .params, time a load. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char key_usage[] =
    "usage: g16 key cache PARAMS -o FILE.g16k [--check-subgroup]\n"
    "       g16 key check FILE.g16k --params PARAMS\n"
    "       g16 key load PATH [--cache FILE.g16k] [--trust] [--check-subgroup]\n"
    "\n"
    "cache: reads a bellperson .params (every point checked) and writes its key cache: the\n"
    "  points in the prover's in-memory form, checksummed, mapped without decoding when\n"
    "  read (g16 prove --params FILE.g16k, g16d).  Written atomically (temporary file,\n"
    "  then rename).\n"
    "check: the cache's header, every checksum, and that it was made from PARAMS (same\n"
    "  size and fingerprint).  Exit 1 when it is corrupt or stale.\n"
    "load: loads a key and prints the seconds it took: PATH a .params or a .g16k; with\n"
    "  --cache, PATH is a .params read through that cache (mapped when the cache is valid\n"
    "  for it, else read and the cache rewritten), as g16d does.  --trust skips the\n"
    "  payload checksums of a cache (only for a cache nobody else can write).\n"
    "Layout: docs/formats.md, \"Key cache\".\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_key_is_cache(const char *path)
{
    char head[8] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return got == 8 && !memcmp(head, "g16keyc", 8);
}

g16_status cli_key_read(g16_key **out, const char *path, unsigned flags)
{
    if (cli_key_is_cache(path)) return g16_key_cache_read(out, path, flags & G16_KEY_CACHE_TRUST);
    return g16_params_read(out, path, flags & G16_PARAMS_CHECK_SUBGROUP);
}

static void print_counts(const g16_key *k)
{
    g16_key_info ki;
    g16_key_get_info(&ki, k);
    printf("public inputs %llu  h %llu  l %llu  a %llu  b_g1 %llu  b_g2 %llu\n",
           (unsigned long long)ki.n_ic - 1, (unsigned long long)ki.n_h, (unsigned long long)ki.n_l,
           (unsigned long long)ki.n_a, (unsigned long long)ki.n_b_g1, (unsigned long long)ki.n_b_g2);
}

static int key_cache(int argc, char **argv)
{
    const char *params = NULL, *out = NULL;
    unsigned flags = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--check-subgroup"))
            flags |= G16_PARAMS_CHECK_SUBGROUP;
        else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) && i + 1 < argc)
            out = argv[++i];
        else if (!params && argv[i][0] != '-')
            params = argv[i];
        else {
            fprintf(stderr, "g16 key cache: unexpected argument '%s'\n%s", argv[i], key_usage);
            return CLI_ERROR;
        }
    }
    if (!params || !out) {
        fprintf(stderr, "g16 key cache: PARAMS and -o FILE are required\n%s", key_usage);
        return CLI_ERROR;
    }
    g16_key *k;
    double t0 = now();
    g16_status st = g16_params_read(&k, params, flags);
    if (st) return cli_fail("key cache", st);
    double t1 = now();
    st = g16_key_cache_write(out, k, params);
    double t2 = now();
    if (st) {
        g16_key_release(k);
        return cli_fail("key cache", st);
    }
    print_counts(k);
    g16_key_release(k);
    printf("read %s in %.3f s, wrote %s in %.3f s\n", params, t1 - t0, out, t2 - t1);
    return CLI_OK;
}

static int key_check(int argc, char **argv)
{
    const char *cache = NULL, *params = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--params") && i + 1 < argc)
            params = argv[++i];
        else if (!cache && argv[i][0] != '-')
            cache = argv[i];
        else {
            fprintf(stderr, "g16 key check: unexpected argument '%s'\n%s", argv[i], key_usage);
            return CLI_ERROR;
        }
    }
    if (!cache || !params) {
        fprintf(stderr, "g16 key check: FILE.g16k and --params PARAMS are required\n%s", key_usage);
        return CLI_ERROR;
    }
    g16_key *k = NULL;
    g16_status st = g16_key_cache_check(cache, params);
    if (!st) st = g16_key_cache_read(&k, cache, 0);
    g16_key_release(k);
    if (st == G16_ERR_IO) return cli_fail("key check", st);
    if (st) {
        printf("%s: not valid for %s: %s\n", cache, params, g16_last_error());
        return CLI_INVALID;
    }
    printf("%s: valid for %s (header, every checksum, source size and fingerprint)\n", cache, params);
    return CLI_OK;
}

static int key_load(int argc, char **argv)
{
    const char *path = NULL, *cache = NULL;
    unsigned flags = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--trust"))
            flags |= G16_KEY_CACHE_TRUST;
        else if (!strcmp(argv[i], "--check-subgroup"))
            flags |= G16_PARAMS_CHECK_SUBGROUP;
        else if (!strcmp(argv[i], "--cache") && i + 1 < argc)
            cache = argv[++i];
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr, "g16 key load: unexpected argument '%s'\n%s", argv[i], key_usage);
            return CLI_ERROR;
        }
    }
    if (!path) {
        fprintf(stderr, "g16 key load: PATH is required\n%s", key_usage);
        return CLI_ERROR;
    }
    g16_key *k;
    double t0 = now();
    g16_status st = cache ? g16_key_load_cached(&k, path, cache, flags) : cli_key_read(&k, path, flags);
    double t1 = now();
    if (st) return cli_fail("key load", st);
    print_counts(k);
    const char *how = !g16_key_is_mapped(k) ? "decoded from the .params"
                      : (flags & G16_KEY_CACHE_TRUST) ? "mapped from the cache, checksums skipped"
                                                      : "mapped from the cache, checksums checked";
    printf("loaded in %.3f s (%s)\n", t1 - t0, how);
    g16_key_release(k);
    return CLI_OK;
}

int cli_key(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(key_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    if (!strcmp(argv[1], "cache")) return key_cache(argc, argv);
    if (!strcmp(argv[1], "check")) return key_check(argc, argv);
    if (!strcmp(argv[1], "load")) return key_load(argc, argv);
    fprintf(stderr, "g16 key: unknown subcommand '%s'\n%s", argv[1], key_usage);
    return CLI_ERROR;
}
