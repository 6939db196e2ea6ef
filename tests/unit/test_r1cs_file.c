/* .g16c / .g16w files: round trips, and every kind of malformed file refused with
 * G16_ERR_FORMAT (or G16_ERR_IO) and a message naming the file and the offset.
 * Offsets are computed here from the layout in docs/r1cs.md, not taken from the
 * reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "common/error.h"
#include "r1cs/r1cs.h"

static char path_c[256], path_w[256];

static uint8_t *slurp(const char *path, size_t *len)
{
    return g16_test_slurp(path, len, 64);
}

static void spit(const char *path, const uint8_t *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (len) fwrite(p, 1, len, f);
    fclose(f);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static int same_circuit(const g16_circuit *x, const g16_circuit *y)
{
    if (x->n_pub != y->n_pub || x->n_aux != y->n_aux || x->n_constraints != y->n_constraints ||
        x->n_coefs != y->n_coefs || memcmp(x->coefs, y->coefs, x->n_coefs * sizeof(g16_fr)))
        return 0;
    const g16_csr *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    for (int m = 0; m < 3; m++) {
        uint64_t nnz = mx[m]->row_start[x->n_constraints];
        if (my[m]->row_start[y->n_constraints] != nnz ||
            memcmp(mx[m]->row_start, my[m]->row_start, 8 * (x->n_constraints + 1)) ||
            (nnz && (memcmp(mx[m]->col, my[m]->col, 4 * nnz) || memcmp(mx[m]->coef, my[m]->coef, 4 * nnz))))
            return 0;
    }
    return 1;
}

/* Section offsets of a .g16c file, from the documented layout. */
typedef struct layout {
    uint64_t coefs, rs[3], col[3], coef[3], end;
} layout;

static layout layout_of(const g16_circuit *c)
{
    layout l;
    uint64_t off = 64;
    l.coefs = off;
    off += 32ull * c->n_coefs;
    const g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    for (int m = 0; m < 3; m++) {
        uint64_t nnz = ms[m]->row_start[c->n_constraints];
        l.rs[m] = off;
        off += 8 * (c->n_constraints + 1);
        l.col[m] = off;
        off += (4 * nnz + 7) / 8 * 8;
        l.coef[m] = off;
        off += (4 * nnz + 7) / 8 * 8;
    }
    l.end = off;
    return l;
}

/* Writes bytes to a file, reads it as a circuit (witness), and checks the status and
 * that the message names the file and contains `want` (e.g. "offset 8:"). */
static void expect_bad(int witness, const uint8_t *p, size_t len, g16_status want_s,
                       const char *want, const char *what)
{
    const char *path = witness ? path_w : path_c;
    spit(path, p, len);
    g16_status s;
    if (witness) {
        g16_witness *w = (g16_witness *)&s;
        s = g16_witness_load(&w, path);
        CHECK(s != G16_OK || w != NULL, "%s: ok without a witness", what);
        if (s == G16_OK) g16_witness_destroy(w);
        else CHECK(w == NULL, "%s: failed load left a handle", what);
    } else {
        g16_circuit *c = (g16_circuit *)&s;
        s = g16_circuit_load(&c, path);
        if (s == G16_OK) g16_circuit_destroy(c);
        else CHECK(c == NULL, "%s: failed load left a handle", what);
    }
    const char *msg = g16_last_error();
    CHECK(s == want_s && strstr(msg, path) && strstr(msg, want),
          "%s: status %d (want %d), message '%s' (want '%s')", what, (int)s, (int)want_s, msg, want);
}

static void test_circuit_file(g16_circuit *c, const char *what)
{
    CHECK(g16_circuit_save(c, path_c) == G16_OK, "%s: save: %s", what, g16_last_error());
    g16_circuit *r;
    g16_status s = g16_circuit_load(&r, path_c);
    CHECK(s == G16_OK, "%s: load: %s", what, g16_last_error());
    if (s != G16_OK) return;
    CHECK(same_circuit(c, r), "%s: circuit differs after a round trip", what);
    /* and written again from the mapping, byte for byte the same file */
    size_t len1 = 0, len2 = 0;
    uint8_t *f1 = slurp(path_c, &len1);
    CHECK(g16_circuit_save(r, path_w) == G16_OK, "%s: save from mapping", what);
    uint8_t *f2 = slurp(path_w, &len2);
    CHECK(len1 == len2 && !memcmp(f1, f2, len1), "%s: re-saved file differs", what);
    free(f2);
    g16_circuit_destroy(r);
    layout l = layout_of(c);
    CHECK(len1 == l.end, "%s: file has %zu bytes, layout says %llu", what, len1, (unsigned long long)l.end);
    char want[160];
    uint8_t *b = malloc(len1 + 64);

    /* truncated anywhere (every length below 600, then a spread) */
    for (size_t n = 0; n < len1; n += n < 600 ? 1 : 1 + len1 / 97) {
        if (n < 64)
            snprintf(want, sizeof want, "offset %zu: file ends inside the 64-byte header", n);
        else
            snprintf(want, sizeof want, ": file ends inside the ");
        expect_bad(0, f1, n, G16_ERR_FORMAT, want, what);
    }
    /* a cut inside the C coef section names that section's offset */
    if (l.end > l.coef[2]) {
        snprintf(want, sizeof want, "offset %llu: file ends inside the C coef section",
                 (unsigned long long)l.coef[2]);
        expect_bad(0, f1, (size_t)l.end - 1, G16_ERR_FORMAT, want, what);
    }
    memcpy(b, f1, len1);
    b[len1] = 0;
    snprintf(want, sizeof want, "offset %zu: 1 bytes after the last section", len1);
    expect_bad(0, b, len1 + 1, G16_ERR_FORMAT, want, what);

#define MUTATE(code, wantstr, label)                                    \
    do {                                                                \
        memcpy(b, f1, len1);                                            \
        code;                                                           \
        expect_bad(0, b, len1, G16_ERR_FORMAT, wantstr, label);         \
    } while (0)

    for (int i = 0; i < 8; i++) MUTATE(b[i] ^= 0x20, "offset 0: expected the magic", "bad magic");
    MUTATE(put32(b + 8, 2), "offset 8: format version 2", "version 2");
    MUTATE(put32(b + 8, 0), "offset 8: format version 0", "version 0");
    MUTATE(put32(b + 12, 1), "offset 12: flags", "flags");
    MUTATE(put32(b + 36, 5), "offset 36: reserved", "reserved");
    MUTATE(put32(b + 20, 0xffffffffu), "offset 16:", "n_vars over 2^32");
    MUTATE(put64(b + 40, 1ull << 63), "offset 24: counts", "2^63 terms in A");
    MUTATE(put64(b + 56, UINT64_MAX / 2), "offset 24: counts", "2^63 terms in C");
    MUTATE(put64(b + 24, UINT64_MAX), "offset 24: counts", "2^64 - 1 constraints");
    MUTATE(put64(b + 24, 1ull << 61), "offset 24: counts", "2^61 constraints");
    MUTATE(put64(b + 48, 1ull << 40), "file ends inside", "2^40 terms in B");
    MUTATE(put32(b + 32, 0xffffffffu), "file ends inside", "2^32 - 1 coefficients");
    MUTATE(put64(b + 24, c->n_constraints + 1), "file ends inside", "one constraint more");

    /* coefficient table: r itself, all ones, zero */
    static const uint8_t r_le[32] = {0x01, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                     0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09,
                                     0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53,
                                     0xa7, 0xed, 0x73};
    uint32_t last = c->n_coefs - 1;
    if (c->n_coefs) {
        snprintf(want, sizeof want, "offset %llu: coefficient %u is not", (unsigned long long)(l.coefs + 32 * last), last);
        MUTATE(memcpy(b + l.coefs + 32 * last, r_le, 32), want, "coefficient = r");
        MUTATE(memset(b + l.coefs + 32 * last, 0xff, 32), want, "coefficient = 2^256 - 1");
        MUTATE(memset(b + l.coefs + 32 * last, 0, 32), want, "coefficient = 0");
        /* r - 1 is canonical: accepted */
        memcpy(b, f1, len1);
        memcpy(b + l.coefs + 32 * last, r_le, 32);
        b[l.coefs + 32 * last] = 0;
        spit(path_c, b, len1);
        g16_circuit *ok;
        CHECK(g16_circuit_load(&ok, path_c) == G16_OK, "%s: coefficient r - 1 refused: %s", what,
              g16_last_error());
        g16_circuit_destroy(ok);
    }
    const g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    for (int m = 0; m < 3; m++) {
        char name = (char)('A' + m);
        uint64_t nnz = ms[m]->row_start[c->n_constraints], n = c->n_constraints;
        snprintf(want, sizeof want, "offset %llu: %c row_start[0] is 1", (unsigned long long)l.rs[m], name);
        MUTATE(put64(b + l.rs[m], 1), want, "row_start[0] = 1");
        snprintf(want, sizeof want, "offset %llu: %c row_start[%llu] = ", (unsigned long long)(l.rs[m] + 8 * n), name,
                 (unsigned long long)n);
        /* (with no constraints the end is row_start[0], covered just above) */
        if (n) MUTATE(put64(b + l.rs[m] + 8 * n, nnz + 1), want, "row_start end past the terms");
        if (nnz)
            MUTATE(put64(b + l.rs[m] + 8 * n, nnz - 1), want, "row_start end before the terms");
        if (n >= 2) {
            /* row 1 starts after row 2: non-monotonic, reported at row 2 */
            uint64_t r1 = get64(f1 + l.rs[m] + 8);
            snprintf(want, sizeof want, "offset %llu: %c row_start[2]", (unsigned long long)(l.rs[m] + 16), name);
            MUTATE(put64(b + l.rs[m] + 8, get64(f1 + l.rs[m] + 16) + 1), want, "row_start decreasing");
            (void)r1;
        }
        if (nnz) {
            uint64_t k = nnz / 2;
            snprintf(want, sizeof want, "offset %llu: %c col[%llu] = %llu, expected a variable index < %llu",
                     (unsigned long long)(l.col[m] + 4 * k), name, (unsigned long long)k,
                     (unsigned long long)g16_circuit_vars(c), (unsigned long long)g16_circuit_vars(c));
            MUTATE(put32(b + l.col[m] + 4 * k, (uint32_t)g16_circuit_vars(c)), want, "col = n_vars");
            snprintf(want, sizeof want, "offset %llu: %c col[%llu] = 4294967295", (unsigned long long)(l.col[m] + 4 * k), name,
                     (unsigned long long)k);
            MUTATE(put32(b + l.col[m] + 4 * k, UINT32_MAX), want, "col = 2^32 - 1");
            snprintf(want, sizeof want, "offset %llu: %c coef[%llu] = %u, expected a coefficient index < %u",
                     (unsigned long long)(l.coef[m] + 4 * k), name, (unsigned long long)k, c->n_coefs, c->n_coefs);
            MUTATE(put32(b + l.coef[m] + 4 * k, c->n_coefs), want, "coef = n_coefs");
            if (nnz % 2) {
                snprintf(want, sizeof want, "offset %llu: padding byte", (unsigned long long)(l.col[m] + 4 * nnz + 2));
                MUTATE(b[l.col[m] + 4 * nnz + 2] = 1, want, "padding");
            }
        }
    }
#undef MUTATE
    free(b);
    free(f1);
}

static void test_witness_file(const g16_witness *w, const char *what)
{
    CHECK(g16_witness_save(w, path_w) == G16_OK, "%s: save witness: %s", what, g16_last_error());
    g16_witness *r;
    CHECK(g16_witness_load(&r, path_w) == G16_OK, "%s: load witness: %s", what, g16_last_error());
    CHECK(r && r->n == w->n && r->n_pub == w->n_pub && !memcmp(r->z, w->z, w->n * sizeof(g16_fr)),
          "%s: witness differs after a round trip", what);
    CHECK(g16_witness_len(r) == w->n && g16_witness_pub(r) == w->n_pub, "%s: accessors", what);
    uint8_t be[32], be2[32];
    g16_fr_to_be(be2, &w->z[w->n - 1]);
    CHECK(g16_witness_get(be, r, w->n - 1) == G16_OK && !memcmp(be, be2, 32), "%s: get", what);
    CHECK(g16_witness_get(be, r, w->n) == G16_ERR_ARG, "%s: get past the end", what);
    g16_witness_destroy(r);
    size_t len = 0;
    uint8_t *f = slurp(path_w, &len);
    CHECK(len == 32 + 32 * w->n, "%s: witness file has %zu bytes", what, len);
    uint8_t *b = malloc(len + 64);
    char want[160];
    for (size_t n = 0; n < len; n += n < 300 ? 1 : 1 + len / 50) {
        if (n < 32) snprintf(want, sizeof want, "offset %zu: file ends inside the 32-byte header", n);
        else snprintf(want, sizeof want, "offset %zu: file ends inside the values", n);
        expect_bad(1, f, n, G16_ERR_FORMAT, want, "truncated witness");
    }
#define MUTATE(code, wantstr, label)                                  \
    do {                                                              \
        memcpy(b, f, len);                                            \
        code;                                                         \
        expect_bad(1, b, len, G16_ERR_FORMAT, wantstr, label);        \
    } while (0)
    MUTATE(b[3] ^= 1, "offset 0: expected the magic", "witness magic");
    MUTATE(put32(b + 8, 7), "offset 8: format version 7", "witness version");
    MUTATE(put32(b + 12, 1), "offset 12: flags", "witness flags");
    MUTATE(put32(b + 28, 1), "offset 28: reserved", "witness reserved");
    MUTATE(put64(b + 16, 1ull << 59), "offset 16:", "2^59 values");
    MUTATE(put64(b + 16, UINT64_MAX), "offset 16:", "2^64 - 1 values");
    MUTATE(put32(b + 24, (uint32_t)w->n), "offset 16:", "more inputs than values");
    MUTATE(put64(b + 16, w->n + 1), "file ends inside the values", "one value more");
    MUTATE(memset(b + 32, 0, 32), "offset 32: value 0 (the constant one) is not 1", "z[0] = 0");
    snprintf(want, sizeof want, "offset %zu: value %llu is not canonical", len - 32, (unsigned long long)(w->n - 1));
    MUTATE(memset(b + len - 32, 0xff, 32), want, "value 2^256 - 1");
#undef MUTATE
    memcpy(b, f, len);
    b[len] = 0;
    snprintf(want, sizeof want, "offset %zu: 1 bytes after the last value", len);
    expect_bad(1, b, len + 1, G16_ERR_FORMAT, want, "witness trailing byte");
    free(b);
    free(f);
}

/* Random byte corruptions: a file is either refused with G16_ERR_FORMAT or, when
 * the change happens to keep it valid, fully usable (synthesis over it stays in
 * bounds: the sanitizer build checks that). */
static void test_corruption(const g16_circuit *c)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(0xc0ff));
    CHECK(g16_circuit_save(c, path_c) == G16_OK, "save");
    size_t len = 0;
    uint8_t *f = slurp(path_c, &len), *b = malloc(len);
    uint64_t rows = g16_circuit_rows(c), nv = g16_circuit_vars(c);
    g16_fr *z = calloc(nv, sizeof *z), *out = malloc(3 * rows * sizeof *out);
    for (uint64_t i = 0; i < nv; i++) g16_fr_from_u64(&z[i], i * i + 1);
    int refused = 0, accepted = 0;
    for (int it = 0; it < 1500; it++) {
        memcpy(b, f, len);
        int flips = 1 + (int)(g16_rng_u64(&rng) % 4);
        for (int k = 0; k < flips; k++) {
            size_t at = (size_t)(g16_rng_u64(&rng) % len);
            /* half of them in the header, where the counts are */
            if (k == 0 && it % 2) at %= 64;
            b[at] ^= (uint8_t)(1u << (g16_rng_u64(&rng) % 8));
        }
        spit(path_c, b, len);
        g16_circuit *r;
        g16_status s = g16_circuit_load(&r, path_c);
        if (s == G16_OK) {
            accepted++;
            if (g16_circuit_vars(r) == nv && g16_circuit_rows(r) == rows)
                CHECK(g16_synthesize(out, out + rows, out + 2 * rows, r, z, (size_t)nv) == G16_OK,
                      "synthesis over an accepted corrupted file");
            g16_circuit_destroy(r);
        } else {
            refused++;
            CHECK(s == G16_ERR_FORMAT && strstr(g16_last_error(), "offset "),
                  "corruption %d: status %d '%s'", it, (int)s, g16_last_error());
        }
    }
    printf("random corruptions: %d refused, %d still valid\n", refused, accepted);
    CHECK(refused > 1000, "only %d of 1500 corruptions refused", refused);
    free(z);
    free(out);
    free(b);
    free(f);
}

static void test_io_errors(void)
{
    g16_circuit *c;
    g16_witness *w;
    CHECK(g16_circuit_load(&c, "/nonexistent/x.g16c") == G16_ERR_IO && strstr(g16_last_error(), "/nonexistent/x.g16c"),
          "missing file: '%s'", g16_last_error());
    CHECK(g16_circuit_load(&c, "/") == G16_ERR_IO, "directory accepted");
    CHECK(g16_witness_load(&w, "/nonexistent/x.g16w") == G16_ERR_IO, "missing witness");
    g16_circuit_gen_args args = {G16_PROFILE_BITS, 4, 1, 1};
    CHECK(g16_circuit_generate(&c, &w, &args) == G16_OK, "generate");
    CHECK(g16_circuit_save(c, "/nonexistent/dir/x.g16c") == G16_ERR_IO, "write to a missing dir");
    CHECK(g16_witness_save(w, "/nonexistent/dir/x.g16w") == G16_ERR_IO, "witness to a missing dir");
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path_c, sizeof path_c, "%s/g16_test_r1cs_%d.g16c", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    snprintf(path_w, sizeof path_w, "%s/g16_test_r1cs_%d.g16w", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    uint64_t seed = g16_test_seed(0xf11e);
    static const struct { g16_profile p; unsigned log_n; uint32_t pub; } gens[] = {
        {G16_PROFILE_POREP, 6, 3}, {G16_PROFILE_DENSE, 5, 0}, {G16_PROFILE_BITS, 7, 1}};
    for (size_t i = 0; i < 3; i++) {
        g16_circuit_gen_args args = {gens[i].p, gens[i].log_n, gens[i].pub, seed + i};
        g16_circuit *c;
        g16_witness *w;
        CHECK(g16_circuit_generate(&c, &w, &args) == G16_OK, "generate");
        char what[64];
        snprintf(what, sizeof what, "%s 2^%u", g16_profile_name(gens[i].p), gens[i].log_n);
        test_circuit_file(c, what);
        if (i == 0) test_corruption(c);
        test_witness_file(w, what);
        /* the loaded pair is still a satisfied pair */
        g16_circuit_save(c, path_c);
        g16_witness_save(w, path_w);
        g16_circuit *lc;
        g16_witness *lw;
        CHECK(g16_circuit_load(&lc, path_c) == G16_OK && g16_witness_load(&lw, path_w) == G16_OK,
              "%s: reload", what);
        CHECK(g16_circuit_check(lc, lw) == G16_OK, "%s: loaded pair unsatisfied: %s", what, g16_last_error());
        g16_circuit_destroy(lc);
        g16_witness_destroy(lw);
        g16_circuit_destroy(c);
        g16_witness_destroy(w);
    }
    /* builder-made circuits: an odd term count (padding) and an empty circuit */
    g16_builder *b;
    g16_builder_new(&b);
    g16_var x;
    g16_fr v;
    g16_fr_from_u64(&v, 9);
    g16_builder_alloc_aux(b, &x, &v);
    g16_term t = {x, v};
    g16_builder_enforce(b, &t, 1, &t, 1, &t, 1);
    g16_circuit *c;
    g16_witness *w;
    g16_builder_finish(b, &c, &w);
    test_circuit_file(c, "one term");
    test_witness_file(w, "one term");
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    g16_builder_finish(b, &c, &w);
    CHECK(c->n_constraints == 0 && c->n_coefs == 0, "empty builder");
    test_circuit_file(c, "empty");
    test_witness_file(w, "empty");
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    g16_builder_free(b);
    test_io_errors();
    unlink(path_c);
    unlink(path_w);
    return g16_test_finish("r1cs_file");
}
