/* snarkjs .wtns reader. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/circom.h"
#include "io/circom_bin.h"

g16_status g16_circom_wtns_read(g16_circom_wtns *out, const char *path)
{
    memset(out, 0, sizeof *out);
    g16_binfile f;
    G16_TRY(g16_bin_open(&f, path, "wtns"));
    g16_status s = G16_OK;
    g16_bin_cursor c;
    uint32_t n = 0;
    if (f.version != 2) s = g16_fail(G16_ERR_FORMAT, "%s: offset 4: version %u, expected 2", path, f.version);
    if (s == G16_OK && f.n_sections != 2)
        s = g16_fail(G16_ERR_FORMAT, "%s: offset 8: %u sections, expected 2", path, f.n_sections);
    if (s == G16_OK) s = g16_bin_section(&c, &f, 1, "header");
    if (s == G16_OK) s = g16_bin_expect_prime(&c, g16_fr_modulus, G16_FR_LIMBS, "the field");
    if (s == G16_OK) s = g16_bin_u32(&c, &n);
    if (s == G16_OK) s = g16_bin_expect_end(&c);
    if (s == G16_OK && n == 0) s = g16_bin_fail(&c, "the witness has no values");
    if (s == G16_OK) s = g16_bin_section(&c, &f, 2, "values");
    if (s == G16_OK && c.end - c.pos != 32ull * n)
        s = g16_bin_fail(&c, "%llu bytes of values, the header says %u x 32", (unsigned long long)(c.end - c.pos), n);
    if (s == G16_OK) {
        out->n = n;
        out->w = malloc((size_t)n * sizeof *out->w);
        if (!out->w) s = g16_fail(G16_ERR_NOMEM, "%s: %u values", path, n);
    }
    for (uint32_t i = 0; s == G16_OK && i < n; i++) {
        const uint8_t *p;
        s = g16_bin_bytes(&c, &p, 32);
        if (s == G16_OK && g16_fr_from_le(&out->w[i], p) != G16_OK) {
            c.pos -= 32;
            s = g16_bin_fail(&c, "value %u is not below r", i);
        }
    }
    if (s == G16_OK && !g16_fr_is_one(&out->w[0])) s = g16_fail(G16_ERR_FORMAT, "%s: section 2: value 0 is not 1", path);
    g16_bin_close(&f);
    if (s != G16_OK) g16_circom_wtns_free(out);
    return s;
}

void g16_circom_wtns_free(g16_circom_wtns *w)
{
    free(w->w);
    memset(w, 0, sizeof *w);
}
