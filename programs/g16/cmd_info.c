/* g16 info: what a file is (by magic or layout), its counts, whether it is valid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char info_usage[] =
    "usage: g16 info FILE [--check-subgroup | --quick]\n"
    "\n"
    "Recognises compiled circuits (.g16c), witnesses (.g16w), bellperson proving keys\n"
    "(.params), key caches (.g16k: header and every checksum checked), verifying keys (.vk)\n"
    "and proof files (192 bytes per proof); prints the\n"
    "counts and whether the file is valid (every point decoded and checked: on the curve,\n"
    "and in the subgroup for vk and proof points, for key points with --check-subgroup).\n"
    "--quick: for a proving key, check the vk and the layout (every count against the\n"
    "file size) without decoding the queries: seconds for keys of tens of GiB; for a key\n"
    "cache, the header only.\n"
    "Exit status: 0 valid, 1 recognised or not but invalid, 2 unreadable.\n";

static int invalid(const char *path, const char *kind, g16_status st)
{
    printf("%s: %s\nvalid: no (%s: %s)\n", path, kind, g16_status_str(st), g16_last_error());
    return CLI_INVALID;
}

/* n: ic, h, l, a, b_g1, b_g2 counts of a proving key. */
static void print_key_counts(const char *path, long size, const uint64_t n[6])
{
    printf("%s: proving key (bellperson .params), %ld bytes\n", path, size);
    printf("public inputs %llu  ic %llu  h %llu (domain %llu)  l %llu  a %llu  b_g1 %llu  b_g2 %llu\n",
           (unsigned long long)n[0] - 1, (unsigned long long)n[0], (unsigned long long)n[1],
           (unsigned long long)n[1] + 1, (unsigned long long)n[2], (unsigned long long)n[3],
           (unsigned long long)n[4], (unsigned long long)n[5]);
}

static int info_cache(const char *path, long size, int quick)
{
    g16_key_cache_info ci;
    g16_status st = g16_key_cache_info_read(&ci, path);
    if (st == G16_ERR_IO) return cli_fail("info", st);
    if (st) return invalid(path, "key cache (.g16k)", st);
    g16_key *k = NULL;
    if (!quick) st = g16_key_cache_read(&k, path, 0);
    g16_key_release(k);
    if (st) return invalid(path, "key cache (.g16k)", st);
    printf("%s: key cache (.g16k) version %u, %ld bytes, %llu checksummed chunks of %llu bytes\n",
           path, ci.version, size, (unsigned long long)ci.n_chunks,
           (unsigned long long)ci.chunk_bytes);
    printf("public inputs %llu  ic %llu  h %llu (domain %llu)  l %llu  a %llu  b_g1 %llu  b_g2 %llu\n",
           (unsigned long long)ci.n_ic - 1, (unsigned long long)ci.n_ic,
           (unsigned long long)ci.n_h, (unsigned long long)ci.n_h + 1,
           (unsigned long long)ci.n_l, (unsigned long long)ci.n_a,
           (unsigned long long)ci.n_b_g1, (unsigned long long)ci.n_b_g2);
    if (ci.source_bytes) {
        printf("source: a .params of %llu bytes, fingerprint ", (unsigned long long)ci.source_bytes);
        for (int i = 0; i < 16; i++) printf("%02x", ci.source_fp[i]);
        printf(" (g16 key check FILE --params P compares)\n");
    } else {
        printf("source: none recorded\n");
    }
    printf(quick ? "valid: header only (--quick: payload checksums not checked)\n"
                 : "valid: yes (header and every payload checksum)\n");
    return CLI_OK;
}

static int info_proofs(const char *path)
{
    uint8_t *p;
    size_t k;
    g16_status st = g16_proof_file_read(&p, &k, path, 1);
    if (st == G16_ERR_IO) return cli_fail("info", st);
    if (st) return invalid(path, "proof file", st);
    free(p);
    printf("%s: proof file, %zu proof(s) of 192 bytes (A G1 || B G2 || C G1, compressed)\n", path, k);
    printf("valid: yes (every point on the curve and in the subgroup)\n");
    return CLI_OK;
}

int cli_info(int argc, char **argv)
{
    const char *path = NULL;
    unsigned flags = 0;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(info_usage, stdout);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--check-subgroup"))
            flags |= G16_PARAMS_CHECK_SUBGROUP;
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr, "g16 info: unexpected argument '%s'\n%s", argv[i], info_usage);
            return CLI_ERROR;
        }
    }
    if (!path || (quick && flags)) {
        if (path) fprintf(stderr, "g16 info: --quick checks no points; it cannot take --check-subgroup\n");
        fputs(info_usage, stderr);
        return CLI_ERROR;
    }
    struct stat sb;
    FILE *f = fopen(path, "rb");
    if (!f || stat(path, &sb) != 0) {
        if (f) fclose(f);
        fprintf(stderr, "g16 info: %s: cannot open\n", path);
        return CLI_ERROR;
    }
    uint8_t head[8] = {0};
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    long size = (long)sb.st_size;
    if (got == 8 && !memcmp(head, "g16circ", 8)) {
        g16_circuit *c;
        g16_status st = g16_circuit_load(&c, path);
        if (st) return invalid(path, "compiled circuit (.g16c)", st);
        g16_circuit_info ci;
        g16_circuit_get_info(&ci, c);
        g16_circuit_destroy(c);
        printf("%s: compiled circuit (.g16c), %ld bytes\n", path, size);
        printf("inputs %u  aux %u  vars %llu  constraints %llu  rows %llu  coefs %u  "
               "nnz A %llu B %llu C %llu\n",
               ci.n_pub, ci.n_aux, (unsigned long long)ci.n_vars,
               (unsigned long long)ci.n_constraints, (unsigned long long)ci.rows, ci.n_coefs,
               (unsigned long long)ci.nnz_a, (unsigned long long)ci.nnz_b,
               (unsigned long long)ci.nnz_c);
        printf("valid: yes\n");
        return CLI_OK;
    }
    if (got == 8 && !memcmp(head, "g16witn", 8)) {
        g16_witness *w;
        g16_status st = g16_witness_load(&w, path);
        if (st) return invalid(path, "witness (.g16w)", st);
        printf("%s: witness (.g16w), %ld bytes\nvalues %llu  public inputs %u\nvalid: yes\n", path,
               size, (unsigned long long)g16_witness_len(w), g16_witness_pub(w));
        g16_witness_destroy(w);
        return CLI_OK;
    }
    if (got == 8 && !memcmp(head, "g16keyc", 8)) {
        if (flags) {
            fprintf(stderr, "g16 info: a key cache's points were checked when it was made; "
                            "--check-subgroup applies to a .params\n");
            return CLI_ERROR;
        }
        return info_cache(path, size, quick);
    }
    /* Proofs start with a compressed G1 point (bit 0x80 set); bellperson keys with
     * an uncompressed one (bit clear). */
    if (got >= 1 && (head[0] & 0x80) && size % G16_PROOF_BYTES == 0 && size > 0)
        return info_proofs(path);
    if (got >= 1 && !(head[0] & 0x80)) {
        g16_vk *vk;
        g16_status st = g16_vk_read(&vk, path, G16_PARAMS_CHECK_SUBGROUP, 0);
        if (!st) {
            printf("%s: verifying key (.vk), %ld bytes\npublic inputs %llu (IC points %llu)\n"
                   "valid: yes (every point on the curve and in the subgroup)\n",
                   path, size, (unsigned long long)g16_vk_inputs(vk),
                   (unsigned long long)g16_vk_inputs(vk) + 1);
            g16_vk_free(vk);
            return CLI_OK;
        }
        if (quick) {
            g16_params_layout lay;
            st = g16_params_scan(&lay, path);
            if (st == G16_ERR_IO) return cli_fail("info", st);
            if (st) return invalid(path, "unrecognised (read as .params)", st);
            const uint64_t n[6] = {lay.n_ic, lay.n_h, lay.n_l, lay.n_a, lay.n_b_g1, lay.n_b_g2};
            print_key_counts(path, size, n);
            printf("valid: layout only (--quick: vk points checked, counts match the size; "
                   "query points not decoded)\n");
            return CLI_OK;
        }
        g16_key *k;
        st = g16_params_read(&k, path, flags);
        if (!st) {
            g16_key_info ki;
            g16_key_get_info(&ki, k);
            g16_key_release(k);
            const uint64_t n[6] = {ki.n_ic, ki.n_h, ki.n_l, ki.n_a, ki.n_b_g1, ki.n_b_g2};
            print_key_counts(path, size, n);
            printf("valid: yes (points on the curve%s; no identity in the queries)\n",
                   flags ? " and in the subgroup" : "");
            return CLI_OK;
        }
        return invalid(path, "unrecognised (read as .params)", st);
    }
    printf("%s: unrecognised file (%ld bytes): no .g16c/.g16w magic, not a whole number of proofs\n"
           "valid: no\n", path, size);
    return CLI_INVALID;
}
