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

/* BN254 (bn128) r and q, little-endian limbs: recognised only to refuse them clearly. */
static const uint64_t bn128_r[4] = {0x43e1f593f0000001ull, 0x2833e84879b97091ull,
                                    0xb85045b68181585dull, 0x30644e72e131a029ull};
static const uint64_t bn128_q[4] = {0x3c208c16d87cfd47ull, 0x97816a916871ca8dull,
                                    0xb85045b68181585dull, 0x30644e72e131a029ull};

g16_status g16_bin_expect_prime(g16_bin_cursor *c, const uint64_t *prime, size_t limbs, const char *what)
{
    uint32_t n8;
    G16_TRY(g16_bin_u32(c, &n8));
    if (n8 == 32 && c->end - c->pos >= 32 &&
        (!memcmp(c->f->data + c->pos, bn128_r, 32) || !memcmp(c->f->data + c->pos, bn128_q, 32)))
        return g16_bin_fail(c, "curve bn128 is not supported yet (only bls12381)");
    if (n8 != limbs * 8)
        return g16_bin_fail(c, "%s is %u bytes wide, expected %zu (bls12381)", what, n8, limbs * 8);
    const uint8_t *p = NULL;
    G16_TRY(g16_bin_bytes(c, &p, n8));
    uint8_t want[48];
    for (size_t i = 0; i < limbs * 8; i++) want[i] = (uint8_t)(prime[i / 8] >> (8 * (i % 8)));
    if (memcmp(p, want, n8) != 0) {
        c->pos -= n8;
        return g16_bin_fail(c, "%s is not bls12381's", what);
    }
    return G16_OK;
}
