/* g16 verify: checks 192-byte proofs against a verifying key and public inputs.
 * Exit 0 valid, 1 invalid (pairing check fails or the proof bytes are not valid
 * points), 2 error (unreadable key, inputs or proof file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char verify_usage[] =
    "usage: g16 verify (--vk KEY.vk | --params KEY.params|KEY.g16k) --proof PROOF\n"
    "                  (--inputs FILE | --inputs-hex H1,H2,...)\n"
    "\n"
    "PROOF holds k >= 1 proofs of 192 bytes; with k > 1 they are checked as one batch\n"
    "(random linear combination, one multi-pairing) and the inputs list k groups.\n"
    "Public inputs (the constant one is implicit, never listed):\n"
    "  --inputs FILE      a text file: one number per line, decimal or 0x-hex, blank\n"
    "                     lines and '#' comments ignored; or a .g16w witness file, whose\n"
    "                     public values are used\n"
    "  --inputs-hex LIST  comma-separated hex numbers (an empty string: no inputs)\n"
    "Exit status: 0 valid, 1 invalid proof, 2 error.\n"
    "--params also takes a key cache (g16 key cache): mapped, its checksums checked.\n"
    "A snarkjs verification_key.json as --vk: see g16 snarkjs --help.\n";

typedef struct {
    uint8_t *v; /* 32-byte big-endian values */
    size_t n, cap;
} inputs;

static int push(inputs *in, const uint8_t be[32])
{
    if (in->n == in->cap) {
        size_t cap = in->cap ? 2 * in->cap : 16;
        uint8_t *v = realloc(in->v, cap * 32);
        if (!v) return -1;
        in->v = v, in->cap = cap;
    }
    memcpy(in->v + 32 * in->n++, be, 32);
    return 0;
}

/* Parses a decimal or 0x-hex number of up to 256 bits (not reduced: the verifier
 * rejects values >= r).  Returns 0, or -1 with a message. */
static int parse_number(uint8_t be[32], const char *s, size_t len, const char *where)
{
    memset(be, 0, 32);
    if (len == 0) {
        fprintf(stderr, "g16 verify: %s: empty number\n", where);
        return -1;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2, len -= 2;
        if (len > 64) goto too_big;
        for (size_t i = 0; i < len; i++) {
            char ch = s[len - 1 - i];
            int d = ch >= '0' && ch <= '9' ? ch - '0'
                    : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                    : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
            if (d < 0) goto bad;
            be[31 - i / 2] |= (uint8_t)(d << (4 * (i % 2)));
        }
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') goto bad;
        unsigned carry = (unsigned)(s[i] - '0');
        for (int j = 31; j >= 0; j--) {
            unsigned v = be[j] * 10u + carry;
            be[j] = (uint8_t)v;
            carry = v >> 8;
        }
        if (carry) goto too_big;
    }
    return 0;
bad:
    fprintf(stderr, "g16 verify: %s: '%.*s' is not a decimal or 0x-hex number\n", where, (int)len, s);
    return -1;
too_big:
    fprintf(stderr, "g16 verify: %s: number longer than 256 bits\n", where);
    return -1;
}

static int inputs_from_hex_list(inputs *in, const char *list)
{
    const char *p = list;
    size_t idx = 0;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char where[48];
        snprintf(where, sizeof where, "--inputs-hex item %zu", idx++);
        uint8_t be[32];
        char buf[80];
        /* hex without the prefix is allowed here: add it */
        if (len > 66) {
            fprintf(stderr, "g16 verify: %s: number longer than 256 bits\n", where);
            return -1;
        }
        snprintf(buf, sizeof buf, "%s%.*s", (len > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? "" : "0x",
                 (int)len, p);
        if (parse_number(be, buf, strlen(buf), where) || push(in, be)) return -1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static int inputs_from_file(inputs *in, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "g16 verify: %s: cannot open\n", path);
        return -1;
    }
    char magic[8] = {0};
    size_t got = fread(magic, 1, 8, f);
    if (got == 8 && !memcmp(magic, "g16witn", 8)) {
        fclose(f);
        g16_witness *w;
        g16_status st = g16_witness_load(&w, path);
        if (st) {
            cli_fail("verify", st);
            return -1;
        }
        for (uint32_t i = 1; i <= g16_witness_pub(w); i++) {
            uint8_t be[32];
            if (g16_witness_get(be, w, i) || push(in, be)) {
                g16_witness_destroy(w);
                return -1;
            }
        }
        g16_witness_destroy(w);
        return 0;
    }
    rewind(f);
    char line[512];
    long lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line;
        char *hash = strchr(s, '#');
        if (hash) *hash = 0;
        while (*s == ' ' || *s == '\t') s++;
        size_t len = strcspn(s, " \t\r\n");
        char rest = s[len + strspn(s + len, " \t\r\n")];
        if (len == 0) continue;
        char where[600];
        snprintf(where, sizeof where, "%s:%ld", path, lineno);
        if (rest) {
            fprintf(stderr, "g16 verify: %s: one number per line\n", where);
            fclose(f);
            return -1;
        }
        uint8_t be[32];
        if (parse_number(be, s, len, where) || push(in, be)) {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

int cli_verify(int argc, char **argv)
{
    const char *vk_path = NULL, *params = NULL, *proof_path = NULL, *in_file = NULL, *in_hex = NULL;
    for (int i = 1; i + 1 < argc; i++) { /* snarkjs verification_key.json: the interop path */
        size_t l = strlen(argv[i + 1]);
        if (!strcmp(argv[i], "--vk") && l > 5 && !strcmp(argv[i + 1] + l - 5, ".json"))
            return cli_verify_snarkjs(argc, argv);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(verify_usage, stdout);
            return CLI_OK;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 verify: option '%s' needs a value (or is unknown)\n%s", a, verify_usage);
            return CLI_ERROR;
        }
        if (!strcmp(a, "--vk"))
            vk_path = argv[++i];
        else if (!strcmp(a, "--params"))
            params = argv[++i];
        else if (!strcmp(a, "--proof"))
            proof_path = argv[++i];
        else if (!strcmp(a, "--inputs"))
            in_file = argv[++i];
        else if (!strcmp(a, "--inputs-hex"))
            in_hex = argv[++i];
        else {
            fprintf(stderr, "g16 verify: unknown option '%s'\n%s", a, verify_usage);
            return CLI_ERROR;
        }
    }
    if (!!vk_path + !!params != 1 || !proof_path || !!in_file + !!in_hex != 1) {
        fprintf(stderr, "g16 verify: one of --vk/--params, --proof and one of --inputs/--inputs-hex "
                        "are required\n%s", verify_usage);
        return CLI_ERROR;
    }
    inputs in = {0};
    if (in_file ? inputs_from_file(&in, in_file) : inputs_from_hex_list(&in, in_hex)) {
        free(in.v);
        return CLI_ERROR;
    }
    uint8_t *proofs = NULL;
    size_t k = 0;
    /* not validated here: bad points in a well-sized file make the proof invalid (1) */
    g16_status rst = g16_proof_file_read(&proofs, &k, proof_path, 0);
    if (rst) {
        free(in.v);
        return cli_fail("verify", rst);
    }
    g16_vk *own_vk = NULL;
    g16_key *cache_key = NULL; /* a .g16k: its points were checked when it was made */
    g16_status st = params && cli_key_is_cache(params)
                        ? cli_key_read(&cache_key, params, 0)
                        : g16_vk_read(&own_vk, vk_path ? vk_path : params, G16_PARAMS_CHECK_SUBGROUP,
                                      params != NULL);
    const g16_vk *vk = cache_key ? g16_key_vk(cache_key) : own_vk;
    if (st) {
        free(proofs);
        free(in.v);
        return cli_fail("verify", st);
    }
    int rc;
    uint64_t want = g16_vk_inputs(vk);
    if (in.n != want * k) {
        fprintf(stderr, "g16 verify: %zu public inputs given, the key expects %llu per proof (%zu proofs)\n",
                in.n, (unsigned long long)want, k);
        rc = CLI_ERROR;
    } else {
        st = k == 1 ? g16_verify(vk, proofs, in.v, (size_t)want)
                    : g16_verify_batch(vk, proofs, k, in.v, (size_t)want);
        if (st == G16_OK) {
            printf("valid (%zu proof%s)\n", k, k > 1 ? "s" : "");
            rc = CLI_OK;
        } else if (st == G16_ERR_ARG || st == G16_ERR_NOMEM || st == G16_ERR_IO) {
            rc = cli_fail("verify", st);
        } else {
            printf("invalid: %s\n", g16_last_error());
            rc = CLI_INVALID;
        }
    }
    g16_vk_free(own_vk);
    g16_key_release(cache_key);
    free(proofs);
    free(in.v);
    return rc;
}
