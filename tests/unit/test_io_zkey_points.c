/* The zkey reader's point checks (copy and on-curve test in the workers, eight
 * points at a time with AVX-512 IFMA) on both field paths: the merkle fixture's
 * key reads; one point made off the curve (a flipped bit of y) in each point
 * section (A, B1, B2, C, H) at the first, 8-lane boundary, middle and last
 * indices is rejected naming that section and index; of two bad points the
 * first is named; a coordinate >= p is rejected the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "common/error.h"
#include "field/fp_batch.h"
#include "io/snarkjs.h"

#define FX G16_VECTOR_DIR "/../interop/fixtures/"

static uint8_t *slurp(const char *path, size_t *n)
{
    return g16_test_slurp(path, n, 0);
}

static char path[64];

static g16_status read_with(const uint8_t *b, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (fp) {
        fwrite(b, 1, n, fp);
        fclose(fp);
    }
    g16_sj_pk pk;
    g16_status s = g16_sj_zkey_read(&pk, path);
    if (s == G16_OK) g16_sj_pk_free(&pk);
    return s;
}

static int names(unsigned id, size_t idx)
{
    char sec[32], pt[48];
    snprintf(sec, sizeof sec, "section %u", id);
    snprintf(pt, sizeof pt, "point %zu ", idx);
    return strstr(g16_last_error(), sec) && strstr(g16_last_error(), pt);
}

static void run(const char *what, uint8_t *b, size_t n)
{
    CHECK(read_with(b, n) == G16_OK, "%s: fixture: %s", what, g16_last_error());
    uint32_t ns;
    memcpy(&ns, b + 8, 4);
    size_t pos = 12;
    int seen = 0;
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t id;
        uint64_t sz;
        memcpy(&id, b + pos, 4);
        memcpy(&sz, b + pos + 4, 8);
        size_t off = pos + 12;
        pos += 12 + sz;
        if (id < 5 || id > 9) continue;
        size_t psz = id == 7 ? 192 : 96, cnt = sz / psz, yoff = id == 7 ? 96 : 48;
        seen++;
        size_t idx[] = {0, 7, 8, 9, 15, 16, cnt / 2, cnt - 1};
        for (size_t t = 0; t < sizeof idx / sizeof idx[0]; t++) {
            if (idx[t] >= cnt) continue;
            uint8_t *y = b + off + idx[t] * psz + yoff;
            y[0] ^= 1;
            CHECK(read_with(b, n) == G16_ERR_FORMAT && names(id, idx[t]), "%s: section %u point %zu off the curve: %s",
                  what, id, idx[t], g16_last_error());
            y[0] ^= 1;
        }
        if (cnt > 12) { /* two bad points: the first one is named */
            b[off + 11 * psz + yoff] ^= 1;
            b[off + 3 * psz + yoff] ^= 1;
            CHECK(read_with(b, n) == G16_ERR_FORMAT && names(id, 3), "%s: section %u first of two: %s", what, id,
                  g16_last_error());
            b[off + 11 * psz + yoff] ^= 1;
            b[off + 3 * psz + yoff] ^= 1;
            /* x >= p (top byte of x) */
            uint8_t keep = b[off + 10 * psz + 47];
            b[off + 10 * psz + 47] = 0xff;
            CHECK(read_with(b, n) == G16_ERR_FORMAT && names(id, 10), "%s: section %u x >= p: %s", what, id,
                  g16_last_error());
            b[off + 10 * psz + 47] = keep;
        }
    }
    CHECK(seen == 5, "%s: %d point sections", what, seen);
    CHECK(read_with(b, n) == G16_OK, "%s: restored", what);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/g16_test_zkey_%d.bin", (int)getpid());
    size_t n;
    uint8_t *b = slurp(FX "merkle/circuit.zkey", &n);
    CHECK(b != NULL, "read the merkle fixture");
    if (b) {
        run(g16_use_ifma ? "ifma" : "scalar", b, n);
        g16_fp_batch_force_scalar(1);
        run("scalar", b, n);
        g16_fp_batch_force_scalar(0);
        free(b);
    }
    remove(path);
    return g16_test_finish("io_zkey_points");
}
