/* circom/snarkjs binary container: section table, bounded cursors, prime checks. */
#include "io/circom_bin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "io/snarkjs_files.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

g16_status g16_bin_open(g16_binfile *f, const char *path, const char magic[4])
{
    memset(f, 0, sizeof *f);
    f->path = path;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return g16_fail(G16_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return g16_fail(G16_ERR_IO, "%s: cannot stat: %s", path, strerror(errno));
    }
    f->size = (uint64_t)st.st_size;
    if (f->size < 12) {
        close(fd);
        return g16_fail(G16_ERR_FORMAT, "%s: offset 0: file of %llu bytes is too short for a %.4s header",
                        path, (unsigned long long)f->size, magic);
    }
    void *m = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return g16_fail(G16_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
    f->map_ = m;
    f->data = m;
    if (memcmp(f->data, magic, 4) != 0) {
        g16_bin_close(f);
        return g16_fail(G16_ERR_FORMAT, "%s: offset 0: magic is not \"%.4s\"", path, magic);
    }
    f->version = rd32(f->data + 4);
    uint32_t n = rd32(f->data + 8);
    if (n > G16_BIN_MAX_SECTIONS) {
        g16_bin_close(f);
        return g16_fail(G16_ERR_FORMAT, "%s: offset 8: %u sections (at most %u expected)", path, n,
                        G16_BIN_MAX_SECTIONS);
    }
    uint64_t pos = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (f->size - pos < 12) {
            g16_bin_close(f);
            return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: section header %u of %u is truncated", path,
                            (unsigned long long)pos, i + 1, n);
        }
        uint32_t id = rd32(f->data + pos);
        uint64_t sz = rd64(f->data + pos + 4);
        if (sz > f->size - pos - 12) {
            g16_bin_close(f);
            return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: section %u claims %llu bytes, only %llu remain",
                            path, (unsigned long long)pos, id, (unsigned long long)sz,
                            (unsigned long long)(f->size - pos - 12));
        }
        for (uint32_t j = 0; j < i; j++)
            if (f->sec[j].id == id) {
                g16_bin_close(f);
                return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: section %u appears twice", path,
                                (unsigned long long)pos, id);
            }
        f->sec[i] = (g16_bin_sec){id, pos + 12, sz};
        pos += 12 + sz;
    }
    if (pos != f->size) {
        g16_bin_close(f);
        return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: %llu bytes after the last section", path,
                        (unsigned long long)pos, (unsigned long long)(f->size - pos));
    }
    f->n_sections = n;
    return G16_OK;
}

void g16_bin_close(g16_binfile *f)
{
    if (f->map_) munmap(f->map_, f->size);
    f->map_ = NULL;
    f->data = NULL;
}

int g16_bin_has(const g16_binfile *f, uint32_t id)
{
    for (uint32_t i = 0; i < f->n_sections; i++)
        if (f->sec[i].id == id) return 1;
    return 0;
}

g16_status g16_bin_section(g16_bin_cursor *cur, const g16_binfile *f, uint32_t id, const char *what)
{
    for (uint32_t i = 0; i < f->n_sections; i++)
        if (f->sec[i].id == id) {
            *cur = (g16_bin_cursor){f, id, f->sec[i].off, f->sec[i].off + f->sec[i].size};
            return G16_OK;
        }
    return g16_fail(G16_ERR_FORMAT, "%s: section %u (%s) missing", f->path, id, what);
}

g16_status g16_bin_fail(const g16_bin_cursor *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return g16_fail(G16_ERR_FORMAT, "%s: section %u: offset %llu: %s", c->f->path, c->id,
                    (unsigned long long)c->pos, msg);
}

g16_status g16_bin_bytes(g16_bin_cursor *c, const uint8_t **p, uint64_t n)
{
    if (c->end - c->pos < n)
        return g16_bin_fail(c, "need %llu bytes, the section has %llu left", (unsigned long long)n,
                            (unsigned long long)(c->end - c->pos));
    *p = c->f->data + c->pos;
    c->pos += n;
    return G16_OK;
}

g16_status g16_bin_u32(g16_bin_cursor *c, uint32_t *v)
{
    const uint8_t *p = NULL;
    G16_TRY(g16_bin_bytes(c, &p, 4));
    *v = rd32(p);
    return G16_OK;
}

g16_status g16_bin_u64(g16_bin_cursor *c, uint64_t *v)
{
    const uint8_t *p = NULL;
    G16_TRY(g16_bin_bytes(c, &p, 8));
    *v = rd64(p);
    return G16_OK;
}

g16_status g16_bin_expect_end(const g16_bin_cursor *c)
{
    if (c->pos != c->end)
        return g16_bin_fail(c, "%llu bytes left over at the end of the section",
                            (unsigned long long)(c->end - c->pos));
    return G16_OK;
}

/* The curves snarkjs names, with their primes as little-endian limbs: a file's
 * header says which curve it is for (g16_bin_curve), and a reader of one curve can
 * name the other's file instead of calling its prime unknown. */
typedef struct known_curve {
    const char *name;      /* snarkjs's name */
    g16_curve_id id;
    size_t limbs;          /* of q; r has 4 */
    uint64_t q[6], r[4];
} known_curve;

static const known_curve curves[] = {
    {"bls12381", G16_CURVE_ID_BLS12_381, 6,
     {0xb9feffffffffaaabull, 0x1eabfffeb153ffffull, 0x6730d2a0f6b0f624ull, 0x64774b84f38512bfull,
      0x4b1ba7b6434bacd7ull, 0x1a0111ea397fe69aull},
     {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull, 0x73eda753299d7d48ull}},
    {"bn128", G16_CURVE_ID_BN254, 4,
     {0x3c208c16d87cfd47ull, 0x97816a916871ca8dull, 0xb85045b68181585dull, 0x30644e72e131a029ull},
     {0x43e1f593f0000001ull, 0x2833e84879b97091ull, 0xb85045b68181585dull, 0x30644e72e131a029ull}},
};

static int limbs_eq(const uint8_t *p, const uint64_t *v, size_t limbs)
{
    for (size_t i = 0; i < limbs * 8; i++)
        if (p[i] != (uint8_t)(v[i / 8] >> (8 * (i % 8)))) return 0;
    return 1;
}

/* The curve whose q (or r, as is_r says) is the n8 bytes at p; NULL if none. */
static const known_curve *curve_of_prime(const uint8_t *p, uint32_t n8, int *is_r)
{
    for (size_t k = 0; k < sizeof curves / sizeof *curves; k++) {
        if (n8 == curves[k].limbs * 8 && limbs_eq(p, curves[k].q, curves[k].limbs)) return *is_r = 0, &curves[k];
        if (n8 == 32 && limbs_eq(p, curves[k].r, 4)) return *is_r = 1, &curves[k];
    }
    return NULL;
}

const char *g16_sj_curve_name(g16_curve_id id)
{
    for (size_t k = 0; k < sizeof curves / sizeof *curves; k++)
        if (curves[k].id == id) return curves[k].name;
    return "unknown";
}

g16_status g16_bin_expect_prime(g16_bin_cursor *c, const uint64_t *prime, size_t limbs, const char *what)
{
    int want_r = 0;
    uint8_t want[48];
    for (size_t i = 0; i < limbs * 8; i++) want[i] = (uint8_t)(prime[i / 8] >> (8 * (i % 8)));
    const known_curve *expected = curve_of_prime(want, (uint32_t)(limbs * 8), &want_r);
    const char *ename = expected ? expected->name : "?";
    uint32_t n8;
    G16_TRY(g16_bin_u32(c, &n8));
    int got_r = 0;
    const known_curve *got = n8 <= 48 && c->end - c->pos >= n8 ? curve_of_prime(c->f->data + c->pos, n8, &got_r) : NULL;
    if (got && got != expected)
        return g16_bin_fail(c, "this is a curve %s file, but it is read as %s (a file of the other curve given "
                            "with it?)", got->name, ename);
    if (n8 != limbs * 8) return g16_bin_fail(c, "%s is %u bytes wide, expected %zu (%s)", what, n8, limbs * 8, ename);
    const uint8_t *p = NULL;
    G16_TRY(g16_bin_bytes(c, &p, n8));
    if (memcmp(p, want, n8) != 0) {
        c->pos -= n8;
        return g16_bin_fail(c, "%s is not %s's", what, ename);
    }
    return G16_OK;
}

g16_status g16_bin_curve(const g16_binfile *f, g16_curve_id *out)
{
    /* the first field header: r1cs and wtns section 1 (r), zkey section 2 (q) */
    uint32_t id = !memcmp(f->data, "zkey", 4) ? 2 : 1;
    g16_bin_cursor c = {0};
    G16_TRY(g16_bin_section(&c, f, id, "header"));
    uint32_t n8;
    const uint8_t *p = NULL;
    G16_TRY(g16_bin_u32(&c, &n8));
    if (n8 == 0 || n8 > 48) return g16_bin_fail(&c, "field width %u is not a known curve's (32 or 48 bytes)", n8);
    G16_TRY(g16_bin_bytes(&c, &p, n8));
    int is_r;
    const known_curve *k = curve_of_prime(p, n8, &is_r);
    if (!k) {
        c.pos -= n8;
        return g16_bin_fail(&c, "the %u-byte prime is neither bls12381's nor bn128's", n8);
    }
    *out = k->id;
    return G16_OK;
}
