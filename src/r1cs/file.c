/* Compiled circuit (.g16c) and witness (.g16w) files; layouts in docs/r1cs.md.
 *
 * Readers map the file and trust nothing in it: every count is checked against
 * the file size with overflow-safe arithmetic before any array is touched, and
 * every index and value is checked before the circuit is handed out.  Large
 * arrays are validated in parallel; the lowest failing offset is reported so the
 * message does not depend on the thread count. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "r1cs/r1cs_internal.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .g16c arrays are used in place: little-endian hosts only"
#endif

static const char circ_magic[8] = {'g', '1', '6', 'c', 'i', 'r', 'c', 0};
static const char wit_magic[8] = {'g', '1', '6', 'w', 'i', 't', 'n', 0};
#define CIRC_VERSION 1u
#define WIT_VERSION 1u
#define CIRC_HEADER 64u
#define WIT_HEADER 32u
#define GRAIN (1u << 16)

typedef unsigned long long ull;

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void wr64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* ---------------------------------------------------------------------------
 * Mapping */

static g16_status map_file(g16_r1cs_map *m, const char *path)
{
    memset(m, 0, sizeof *m);
    int fd = g16_fault_hit(G16_FAULT_FILE) ? (errno = EIO, -1) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return g16_fail(G16_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return g16_fail(G16_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return g16_fail(G16_ERR_IO, "%s: not a regular file", path);
    }
    m->len = (size_t)st.st_size;
    if (m->len == 0) {
        close(fd);
        return G16_OK; /* nothing to map; the header check reports it */
    }
    m->base = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m->base == MAP_FAILED) {
        m->base = NULL;
        return g16_fail(G16_ERR_IO, "%s: cannot map %zu bytes: %s", path, m->len, strerror(e));
    }
    return G16_OK;
}

static void unmap(g16_r1cs_map *m)
{
    if (m->base) munmap(m->base, m->len);
    m->base = NULL;
}

/* ---------------------------------------------------------------------------
 * Parallel scans that find the lowest failing element */

enum scan_kind { SCAN_ROWS, SCAN_BELOW32, SCAN_FR_LE };

typedef struct scan_ctx {
    enum scan_kind kind;
    const uint8_t *p; /* the array in the mapping */
    uint64_t limit;   /* SCAN_BELOW32: values must be < limit */
    g16_fr *out;      /* SCAN_FR_LE: converted values (may be NULL) */
    int nonzero;      /* SCAN_FR_LE: zero is refused too */
    _Atomic uint64_t first_bad;
} scan_ctx;

static void note_bad(scan_ctx *x, uint64_t i)
{
    uint64_t cur = atomic_load_explicit(&x->first_bad, memory_order_relaxed);
    while (i < cur && !atomic_compare_exchange_weak(&x->first_bad, &cur, i)) {
    }
}

static void scan_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    scan_ctx *x = vctx;
    switch (x->kind) {
    case SCAN_ROWS: { /* element i fails when row_start[i+1] < row_start[i] */
        const uint64_t *rs = (const uint64_t *)x->p;
        for (size_t i = begin; i < end; i++)
            if (rs[i + 1] < rs[i]) return note_bad(x, i + 1);
        break;
    }
    case SCAN_BELOW32: {
        const uint32_t *v = (const uint32_t *)x->p;
        uint32_t lim = x->limit > UINT32_MAX ? UINT32_MAX : (uint32_t)x->limit;
        int all = x->limit > UINT32_MAX;
        if (all) break;
        for (size_t i = begin; i < end; i++)
            if (v[i] >= lim) return note_bad(x, i);
        break;
    }
    case SCAN_FR_LE: {
        g16_fr t;
        for (size_t i = begin; i < end; i++) {
            g16_fr *o = x->out ? &x->out[i] : &t;
            if (g16_fr_from_le(o, x->p + 32 * i) != G16_OK || (x->nonzero && g16_fr_is_zero(o)))
                return note_bad(x, i);
        }
        break;
    }
    }
}

/* Returns: the lowest failing index of n elements, or UINT64_MAX. */
static uint64_t scan(scan_ctx *x, uint64_t n)
{
    atomic_store(&x->first_bad, UINT64_MAX);
    g16_parallel_for((size_t)n, GRAIN, scan_range, x);
    return atomic_load(&x->first_bad);
}

/* ---------------------------------------------------------------------------
 * .g16c layout */

typedef struct sect {
    const char *name;
    uint64_t off, len; /* len includes the padding to 8 bytes */
} sect;

#define N_SECT 10

/* Places the sections after the header; returns 0 when a size overflows 64 bits. */
static int layout(sect s[N_SECT], uint32_t n_coefs, uint64_t n_constraints, const uint64_t nnz[3])
{
    static const char *names[N_SECT] = {"coefficient table", "A row_start", "A col", "A coef",
                                        "B row_start",       "B col",       "B coef",
                                        "C row_start",       "C col",       "C coef"};
    uint64_t off = CIRC_HEADER, rows_bytes, len;
    if (__builtin_add_overflow(n_constraints, 1, &rows_bytes) ||
        __builtin_mul_overflow(rows_bytes, 8, &rows_bytes))
        return 0;
    for (int i = 0; i < N_SECT; i++) {
        if (i == 0)
            len = (uint64_t)n_coefs * 32;
        else if (i % 3 == 1)
            len = rows_bytes;
        else if (__builtin_mul_overflow(nnz[(i - 1) / 3], 4, &len) ||
                 __builtin_add_overflow(len, 7, &len))
            return 0;
        else
            len &= ~7ull;
        s[i].name = names[i];
        s[i].off = off;
        s[i].len = len;
        if (__builtin_add_overflow(off, len, &off)) return 0;
    }
    return 1;
}

static g16_status bad(const char *path, uint64_t off, const char *fmt, ...) G16_PRINTF(3, 4);
static g16_status bad(const char *path, uint64_t off, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: %s", path, (ull)off, what);
}

static g16_status check_padding(const char *path, const uint8_t *base, const sect *s,
                                uint64_t used)
{
    for (uint64_t o = s->off + used; o < s->off + s->len; o++)
        if (base[o])
            return bad(path, o, "padding byte of the %s section is 0x%02x, expected 0", s->name,
                       base[o]);
    return G16_OK;
}

static g16_status check_matrix(const char *path, const uint8_t *base, const sect *s, char name,
                               uint64_t n_constraints, uint64_t nnz, uint64_t n_vars,
                               uint32_t n_coefs)
{
    const uint64_t *rs = (const uint64_t *)(base + s[0].off);
    if (rs[0] != 0)
        return bad(path, s[0].off, "%c row_start[0] is %llu, expected 0", name, (ull)rs[0]);
    scan_ctx x = {.kind = SCAN_ROWS, .p = base + s[0].off};
    uint64_t i = scan(&x, n_constraints);
    if (i != UINT64_MAX)
        return bad(path, s[0].off + 8 * i, "%c row_start[%llu] = %llu is below row_start[%llu] = %llu (must not decrease)",
                   name, (ull)i, (ull)rs[i], (ull)(i - 1), (ull)rs[i - 1]);
    if (rs[n_constraints] != nnz)
        return bad(path, s[0].off + 8 * n_constraints,
                   "%c row_start[%llu] = %llu, expected the term count %llu", name,
                   (ull)n_constraints, (ull)rs[n_constraints], (ull)nnz);
    scan_ctx y = {.kind = SCAN_BELOW32, .p = base + s[1].off, .limit = n_vars};
    if ((i = scan(&y, nnz)) != UINT64_MAX)
        return bad(path, s[1].off + 4 * i, "%c col[%llu] = %u, expected a variable index < %llu",
                   name, (ull)i, ((const uint32_t *)(base + s[1].off))[i], (ull)n_vars);
    scan_ctx z = {.kind = SCAN_BELOW32, .p = base + s[2].off, .limit = n_coefs};
    if ((i = scan(&z, nnz)) != UINT64_MAX)
        return bad(path, s[2].off + 4 * i,
                   "%c coef[%llu] = %u, expected a coefficient index < %u", name, (ull)i,
                   ((const uint32_t *)(base + s[2].off))[i], n_coefs);
    G16_TRY(check_padding(path, base, &s[1], 4 * nnz));
    return check_padding(path, base, &s[2], 4 * nnz);
}

static g16_status parse_circuit(g16_circuit *out, const char *path, const uint8_t *base,
                                uint64_t size)
{
    if (size < CIRC_HEADER)
        return bad(path, size, "file ends inside the %u-byte header (the file has %llu bytes)",
                   CIRC_HEADER, (ull)size);
    if (memcmp(base, circ_magic, 8))
        return bad(path, 0, "expected the magic \"g16circ\\0\" of a compiled circuit (.g16c)");
    uint32_t version = rd32(base + 8), flags = rd32(base + 12);
    if (version != CIRC_VERSION)
        return bad(path, 8, "format version %u, expected %u", version, CIRC_VERSION);
    if (flags) return bad(path, 12, "flags 0x%x, expected 0 (no flags are defined)", flags);
    uint32_t n_pub = rd32(base + 16), n_aux = rd32(base + 20), n_coefs = rd32(base + 32);
    uint64_t n_constraints = rd64(base + 24), nnz[3] = {rd64(base + 40), rd64(base + 48), rd64(base + 56)};
    if (rd32(base + 36)) return bad(path, 36, "reserved field is %u, expected 0", rd32(base + 36));
    uint64_t n_vars = 1ull + n_pub + n_aux;
    if (n_vars > UINT32_MAX)
        return bad(path, 16, "1 + %u inputs + %u aux = %llu variables, expected at most 2^32 - 1",
                   n_pub, n_aux, (ull)n_vars);
    sect s[N_SECT];
    if (!layout(s, n_coefs, n_constraints, nnz))
        return bad(path, 24, "counts (%llu constraints, %llu/%llu/%llu terms) overflow 64-bit sizes",
                   (ull)n_constraints, (ull)nnz[0], (ull)nnz[1], (ull)nnz[2]);
    for (int i = 0; i < N_SECT; i++)
        if (s[i].off > size || s[i].len > size - s[i].off)
            return bad(path, size < s[i].off ? size : s[i].off,
                       "file ends inside the %s section (%llu bytes at offset %llu; the file has %llu)",
                       s[i].name, (ull)s[i].len, (ull)s[i].off, (ull)size);
    uint64_t end = s[N_SECT - 1].off + s[N_SECT - 1].len;
    if (end != size)
        return bad(path, end, "%llu bytes after the last section, expected the end of the file",
                   (ull)(size - end));
    if ((n_constraints + 1) > SIZE_MAX / 8 || nnz[0] > SIZE_MAX / 4)
        return bad(path, 24, "counts too large for this machine");

    out->coefs = g16_malloc(n_coefs ? (size_t)n_coefs * sizeof(g16_fr) : 1);
    if (!out->coefs) return g16_fail(G16_ERR_NOMEM, "%s: coefficient table (%u)", path, n_coefs);
    scan_ctx x = {.kind = SCAN_FR_LE, .p = base + s[0].off, .out = out->coefs, .nonzero = 1};
    uint64_t i = scan(&x, n_coefs);
    if (i != UINT64_MAX)
        return bad(path, s[0].off + 32 * i,
                   "coefficient %llu is not a canonical nonzero value (expected 0 < c < r, little-endian)",
                   (ull)i);
    g16_csr *ms[3] = {&out->a, &out->b, &out->c};
    for (int m = 0; m < 3; m++) {
        G16_TRY(check_matrix(path, base, &s[1 + 3 * m], (char)('A' + m), n_constraints, nnz[m],
                             n_vars, n_coefs));
        ms[m]->row_start = (uint64_t *)(base + s[1 + 3 * m].off);
        ms[m]->col = (uint32_t *)(base + s[2 + 3 * m].off);
        ms[m]->coef = (uint32_t *)(base + s[3 + 3 * m].off);
    }
    out->n_pub = n_pub;
    out->n_aux = n_aux;
    out->n_constraints = n_constraints;
    out->n_coefs = n_coefs;
    return G16_OK;
}

g16_status g16_circuit_read(g16_circuit *out, const char *path)
{
    memset(out, 0, sizeof *out);
    g16_r1cs_map m;
    G16_TRY(map_file(&m, path));
    g16_status s = parse_circuit(out, path, m.base, m.len);
    g16_r1cs_map *owner = NULL;
    if (s == G16_OK && !(owner = g16_malloc(sizeof *owner)))
        s = g16_fail(G16_ERR_NOMEM, "%s: mapping record", path);
    if (s != G16_OK) {
        free(out->coefs);
        memset(out, 0, sizeof *out);
        unmap(&m);
        return s;
    }
    *owner = m;
    out->owner_ = owner;
    return G16_OK;
}

g16_status g16_circuit_load(g16_circuit **out, const char *path)
{
    G16_TRY(g16_circuit_alloc_(out));
    g16_status s = g16_circuit_read(*out, path);
    if (s != G16_OK) {
        free(*out);
        *out = NULL;
    }
    return s;
}

/* ---------------------------------------------------------------------------
 * Writers */

typedef struct writer {
    FILE *f;
    const char *path;
    uint64_t off;
    int err;
} writer;

static void put(writer *w, const void *p, uint64_t n)
{
    if (w->err || !n) return;
    if (fwrite(p, 1, (size_t)n, w->f) != n) w->err = errno ? errno : EIO;
    w->off += n;
}

static void pad8(writer *w)
{
    static const uint8_t zeros[8];
    put(w, zeros, (8 - (w->off & 7)) & 7);
}

static g16_status open_writer(writer *w, const char *path)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->f = fopen(path, "wb");
    if (!w->f) return g16_fail(G16_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    return G16_OK;
}

static g16_status close_writer(writer *w)
{
    if (fclose(w->f) != 0 && !w->err) w->err = errno ? errno : EIO;
    if (w->err) {
        remove(w->path);
        return g16_fail(G16_ERR_IO, "%s: write failed at offset %llu: %s", w->path, (ull)w->off,
                        strerror(w->err));
    }
    return G16_OK;
}

/* Values go out in blocks converted in parallel (to canonical little-endian). */
typedef struct conv_ctx {
    const g16_fr *in;
    uint8_t *out;
} conv_ctx;

static void conv_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    conv_ctx *x = vctx;
    for (size_t i = begin; i < end; i++) g16_fr_to_le(x->out + 32 * i, &x->in[i]);
}

static g16_status put_fr(writer *w, const g16_fr *v, uint64_t n)
{
    enum { BLOCK = 1 << 15 };
    uint8_t *buf = g16_malloc(32 * (size_t)(n < BLOCK ? (n ? n : 1) : BLOCK));
    if (!buf) return g16_fail(G16_ERR_NOMEM, "%s: write buffer", w->path);
    for (uint64_t i = 0; i < n && !w->err; i += BLOCK) {
        uint64_t k = n - i < BLOCK ? n - i : BLOCK;
        conv_ctx x = {v + i, buf};
        g16_parallel_for((size_t)k, 4096, conv_range, &x);
        put(w, buf, 32 * k);
    }
    free(buf);
    return G16_OK;
}

g16_status g16_circuit_write(const g16_circuit *c, const char *path)
{
    uint8_t h[CIRC_HEADER] = {0};
    const g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    memcpy(h, circ_magic, 8);
    wr32(h + 8, CIRC_VERSION);
    wr32(h + 16, c->n_pub);
    wr32(h + 20, c->n_aux);
    wr64(h + 24, c->n_constraints);
    wr32(h + 32, c->n_coefs);
    for (int m = 0; m < 3; m++) wr64(h + 40 + 8 * m, g16_csr_nnz(ms[m], c->n_constraints));
    writer w;
    G16_TRY(open_writer(&w, path));
    put(&w, h, sizeof h);
    g16_status s = put_fr(&w, c->coefs, c->n_coefs);
    for (int m = 0; m < 3 && s == G16_OK; m++) {
        uint64_t nnz = g16_csr_nnz(ms[m], c->n_constraints);
        put(&w, ms[m]->row_start, 8 * (c->n_constraints + 1));
        put(&w, ms[m]->col, 4 * nnz);
        pad8(&w);
        put(&w, ms[m]->coef, 4 * nnz);
        pad8(&w);
    }
    if (s != G16_OK) {
        fclose(w.f);
        remove(path);
        return s;
    }
    return close_writer(&w);
}

g16_status g16_circuit_save(const g16_circuit *c, const char *path)
{
    return g16_circuit_write(c, path);
}

/* ---------------------------------------------------------------------------
 * .g16w */

g16_status g16_witness_save(const g16_witness *wt, const char *path)
{
    uint8_t h[WIT_HEADER] = {0};
    memcpy(h, wit_magic, 8);
    wr32(h + 8, WIT_VERSION);
    wr64(h + 16, wt->n);
    wr32(h + 24, wt->n_pub);
    writer w;
    G16_TRY(open_writer(&w, path));
    put(&w, h, sizeof h);
    g16_status s = put_fr(&w, wt->z, wt->n);
    if (s != G16_OK) {
        fclose(w.f);
        remove(path);
        return s;
    }
    return close_writer(&w);
}

/* Checks a witness file's header and its size against the values it announces.
 * Out: *n values, *n_pub inputs. */
static g16_status witness_header(uint64_t *n_out, uint32_t *n_pub_out, const char *path,
                                 const uint8_t *base, uint64_t size)
{
    if (size < WIT_HEADER)
        return bad(path, size, "file ends inside the %u-byte header (the file has %llu bytes)",
                   WIT_HEADER, (ull)size);
    if (memcmp(base, wit_magic, 8))
        return bad(path, 0, "expected the magic \"g16witn\\0\" of a witness (.g16w)");
    uint32_t version = rd32(base + 8), flags = rd32(base + 12), n_pub = rd32(base + 24);
    if (version != WIT_VERSION)
        return bad(path, 8, "format version %u, expected %u", version, WIT_VERSION);
    if (flags) return bad(path, 12, "flags 0x%x, expected 0 (no flags are defined)", flags);
    if (rd32(base + 28)) return bad(path, 28, "reserved field is %u, expected 0", rd32(base + 28));
    uint64_t n = rd64(base + 16), bytes;
    if (n < 1ull + n_pub)
        return bad(path, 16, "%llu values, expected at least 1 + %u inputs", (ull)n, n_pub);
    if (n > UINT32_MAX)
        return bad(path, 16, "%llu values, expected at most 2^32 - 1 (32-bit variable indices)",
                   (ull)n);
    bytes = 32 * n;
    if (bytes > size - WIT_HEADER)
        return bad(path, size, "file ends inside the values (%llu values need %llu bytes; the file has %llu)",
                   (ull)n, (ull)(WIT_HEADER + bytes), (ull)size);
    if (bytes < size - WIT_HEADER)
        return bad(path, WIT_HEADER + bytes, "%llu bytes after the last value, expected the end of the file",
                   (ull)(size - WIT_HEADER - bytes));
    *n_out = n;
    *n_pub_out = n_pub;
    return G16_OK;
}

static g16_status parse_witness(g16_witness **out, const char *path, const uint8_t *base,
                                uint64_t size)
{
    uint64_t n = 0;
    uint32_t n_pub = 0;
    G16_TRY(witness_header(&n, &n_pub, path, base, size));
    g16_witness *w;
    G16_TRY(g16_witness_alloc_(&w, n, n_pub));
    scan_ctx x = {.kind = SCAN_FR_LE, .p = base + WIT_HEADER, .out = w->z};
    uint64_t i = scan(&x, n);
    if (i != UINT64_MAX) {
        g16_witness_destroy(w);
        return bad(path, WIT_HEADER + 32 * i,
                   "value %llu is not canonical (expected < r, 32 bytes little-endian)", (ull)i);
    }
    if (!g16_fr_is_one(&w->z[0])) {
        g16_witness_destroy(w);
        return bad(path, WIT_HEADER, "value 0 (the constant one) is not 1");
    }
    *out = w;
    return G16_OK;
}

g16_status g16_witness_peek(uint64_t *n, uint32_t *n_pub, const char *path)
{
    g16_r1cs_map m;
    G16_TRY(map_file(&m, path));
    g16_status s = witness_header(n, n_pub, path, m.base, m.len);
    unmap(&m);
    return s;
}

g16_status g16_witness_inputs(uint8_t *out, uint32_t n_pub, const char *path)
{
    g16_r1cs_map m;
    G16_TRY(map_file(&m, path));
    uint64_t n = 0;
    uint32_t np = 0;
    g16_status s = witness_header(&n, &np, path, m.base, m.len);
    if (s == G16_OK && np != n_pub)
        s = bad(path, 24, "%u public inputs, expected %u", np, n_pub);
    for (uint32_t i = 0; s == G16_OK && i < n_pub; i++) {
        g16_fr v;
        if (g16_fr_from_le(&v, m.base + WIT_HEADER + 32ull * (i + 1)) != G16_OK)
            s = bad(path, WIT_HEADER + 32ull * (i + 1), "value %u is not canonical (expected < r)", i + 1);
        else
            g16_fr_to_be(out + 32ull * i, &v);
    }
    unmap(&m);
    return s;
}

g16_status g16_witness_load(g16_witness **out, const char *path)
{
    *out = NULL;
    g16_r1cs_map m;
    G16_TRY(map_file(&m, path));
    g16_status s = parse_witness(out, path, m.base, m.len);
    unmap(&m);
    return s;
}
