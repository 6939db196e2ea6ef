/* g16 ec: curve checks by hand.  The output format of these three commands is an
 * external interface: keep it exactly as documented in `g16 ec --help`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char ec_usage[] =
    "usage: g16 ec [--curve bls12-381|bn254] mul|check|pairing ...  (default bls12-381)\n"
    "       g16 ec mul g1|g2 SCALAR     compressed hex of SCALAR·generator\n"
    "                                    (SCALAR decimal or 0x-hex, reduced mod r)\n"
    "       g16 ec check HEX            'g1 ok' / 'g2 ok', or the defect (exit 1);\n"
    "                                    group and form told by length: 48/96 bytes G1,\n"
    "                                    96/192 bytes G2 (96 is G1 uncompressed if the\n"
    "                                    compression bit is clear, else G2 compressed)\n"
    "       g16 ec pairing G1HEX G2HEX  e(P, Q) as 576 bytes of hex: 12 Fp coefficients,\n"
    "                                    48-byte big-endian each, c0.c0.c0, c0.c0.c1, ...,\n"
    "                                    c1.c2.c1 (Fp12 = c0 + c1 w, Fp6 = c0 + c1 v + c2 v^2,\n"
    "                                    Fp2 = c0 + c1 u)\n"
    "  --curve bn254 (alias bn128): the same on BN254 (alt_bn128): mul prints the\n"
    "  uncompressed form, x then y big-endian (G1 64 bytes, G2 128 with c1 before c0, as\n"
    "  EIP-196/197 and snarkjs); check takes 64/128-byte uncompressed (no flags, all zeros =\n"
    "  infinity) or 32/64-byte compressed encodings (gnark's flags: top two bits 10 or 11 =\n"
    "  sign of y, 01 = infinity; 64 bytes are G2 compressed when a top bit is set);\n"
    "  pairing prints 384 bytes (12 coefficients of 32 bytes, same order).\n";

/* The entry points of one curve (docs/curve.md: BN254's are its own compile of
 * src/diag/ec.c and scalar.c) and its sizes. */
typedef struct ec_curve {
    g16_status (*scalar_parse)(uint8_t *, const char *);
    g16_status (*mul_generator)(uint8_t *, size_t, g16_group, const uint8_t *);
    g16_status (*check)(g16_group *, const uint8_t *, size_t);
    g16_status (*pairing)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t);
    size_t mul_g1, mul_g2, pairing_bytes;
} ec_curve;

static const ec_curve ec_bls = {g16_scalar_parse, g16_ec_mul_generator, g16_ec_check, g16_ec_pairing,
                                48, 96, 576};
static const ec_curve ec_bn254 = {g16_bn254_scalar_parse, g16_bn254_ec_mul_generator,
                                  g16_bn254_ec_check, g16_bn254_ec_pairing, 64, 128, 384};
static const ec_curve *cur = &ec_bls;

static int ec_mul(int argc, char **argv)
{
    if (argc != 4) {
        fputs(ec_usage, stderr);
        return CLI_ERROR;
    }
    g16_group g;
    if (!strcmp(argv[2], "g1"))
        g = G16_G1;
    else if (!strcmp(argv[2], "g2"))
        g = G16_G2;
    else {
        fprintf(stderr, "g16 ec mul: group must be g1 or g2, not '%s'\n", argv[2]);
        return CLI_ERROR;
    }
    uint8_t k[32], out[128];
    g16_status s = cur->scalar_parse(k, argv[3]);
    if (s != G16_OK) return cli_fail("ec mul", s);
    size_t len = g == G16_G1 ? cur->mul_g1 : cur->mul_g2;
    s = cur->mul_generator(out, len, g, k);
    if (s != G16_OK) return cli_fail("ec mul", s);
    cli_hex_print(out, len);
    return CLI_OK;
}

static int ec_check(int argc, char **argv)
{
    if (argc != 3) {
        fputs(ec_usage, stderr);
        return CLI_ERROR;
    }
    /* Any length decodes: a wrong length is a verdict (exit 1), not an error. */
    static uint8_t buf[4096];
    long n = cli_hex_decode(buf, sizeof buf, argv[2], "ec check");
    if (n < 0) return CLI_ERROR;
    g16_group g = 0;
    g16_status s = cur->check(&g, buf, (size_t)n);
    if (s == G16_OK) {
        printf("%s ok\n", g == G16_G1 ? "g1" : "g2");
        return CLI_OK;
    }
    /* One line: the defect's category first (stable, for scripts), then the detail. */
    const char *msg = g16_last_error();
    if (msg && *msg)
        printf("%s: %s\n", g16_status_str(s), msg);
    else
        printf("%s\n", g16_status_str(s));
    return CLI_INVALID;
}

static int ec_pairing(int argc, char **argv)
{
    if (argc != 4) {
        fputs(ec_usage, stderr);
        return CLI_ERROR;
    }
    uint8_t p[192], q[192], out[576];
    long np = cli_hex_decode(p, sizeof p, argv[2], "ec pairing G1");
    long nq = cli_hex_decode(q, sizeof q, argv[3], "ec pairing G2");
    if (np < 0 || nq < 0) return CLI_ERROR;
    g16_status s = cur->pairing(out, p, (size_t)np, q, (size_t)nq);
    if (s != G16_OK) return cli_fail("ec pairing", s);
    cli_hex_print(out, cur->pairing_bytes);
    return CLI_OK;
}

int cli_ec(int argc, char **argv)
{
    /* argv[0] = "ec"; "--curve NAME" may come anywhere and is taken out */
    cur = &ec_bls;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--curve") != 0) continue;
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 ec: --curve needs a name (bls12-381 or bn254)\n");
            return CLI_ERROR;
        }
        g16_curve_id id;
        g16_status s = g16_curve_parse(argv[i + 1], &id);
        if (s != G16_OK) return cli_fail("ec", s);
        cur = id == G16_CURVE_ID_BN254 ? &ec_bn254 : &ec_bls;
        for (int j = i; j + 2 < argc; j++) argv[j] = argv[j + 2];
        argc -= 2;
        i--;
    }
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(ec_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    if (!strcmp(argv[1], "mul")) return ec_mul(argc, argv);
    if (!strcmp(argv[1], "check")) return ec_check(argc, argv);
    if (!strcmp(argv[1], "pairing")) return ec_pairing(argc, argv);
    fprintf(stderr, "g16 ec: unknown command '%s'\n", argv[1]);
    fputs(ec_usage, stderr);
    return CLI_ERROR;
}
