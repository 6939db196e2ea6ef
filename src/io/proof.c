/* Proof files: the raw 192·k bytes of k proofs (A ‖ B ‖ C compressed each). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "curve/curve.h"
#include "groth16/groth16.h"

g16_status g16_proof_check(const uint8_t proof[G16_PROOF_BYTES], size_t index, size_t base_off, const char *path)
{
    static const struct { size_t off, len; const char *name; } part[3] = {
        {0, 48, "A"}, {48, 96, "B"}, {144, 48, "C"}};
    for (int i = 0; i < 3; i++) {
        g16_status st;
        if (part[i].len == 48) {
            g16_g1_affine p;
            st = g16_g1_decode(&p, proof + part[i].off, 48, 0);
        } else {
            g16_g2_affine p;
            st = g16_g2_decode(&p, proof + part[i].off, 96, 0);
        }
        if (st)
            return g16_fail_ctx(st, "%s: proof %zu: point %s at offset %zu", path ? path : "proof",
                                index, part[i].name, base_off + part[i].off);
    }
    return G16_OK;
}

g16_status g16_proof_file_read(uint8_t **out, size_t *k, const char *path, int validate)
{
    *out = NULL;
    *k = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return g16_fail(G16_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return g16_fail(G16_ERR_NOMEM, "%s: out of memory", path);
            }
            buf = p;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return g16_fail(G16_ERR_IO, "%s: read error", path);
    }
    if (n == 0 || n % G16_PROOF_BYTES) {
        free(buf);
        return g16_fail(G16_ERR_FORMAT,
                        "%s: offset %zu: %zu bytes is not a whole number of 192-byte proofs "
                        "(%zu bytes past the last whole proof)",
                        path, n - n % G16_PROOF_BYTES, n, n % G16_PROOF_BYTES);
    }
    if (validate) {
        for (size_t i = 0; i < n / G16_PROOF_BYTES; i++) {
            g16_status st = g16_proof_check(buf + i * G16_PROOF_BYTES, i, i * G16_PROOF_BYTES, path);
            if (st) {
                free(buf);
                return st;
            }
        }
    }
    *out = buf;
    *k = n / G16_PROOF_BYTES;
    return G16_OK;
}

g16_status g16_proof_file_write(const char *path, const uint8_t *proofs, size_t k)
{
    FILE *f = fopen(path, "wb");
    if (!f) return g16_fail(G16_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    size_t n = k * G16_PROOF_BYTES;
    int ok = fwrite(proofs, 1, n, f) == n;
    if (fclose(f) != 0) ok = 0;
    if (!ok) {
        remove(path);
        return g16_fail(G16_ERR_IO, "%s: write failed", path);
    }
    return G16_OK;
}
