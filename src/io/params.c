/* bellperson .params / .vk files.
 *
 * Layout (all points uncompressed, ZCash encoding: G1 96 bytes, G2 192 bytes;
 * counts u32 big-endian):
 *   vk:     α₁ β₁ β₂ γ₂ δ₁ δ₂, count, IC[count]
 *   params: vk, then h, l, a, b_g1 (G1) and b_g2 (G2), each as count + points.
 * The reader maps the file, checks each count against the bytes left before
 * touching a point, decodes the points on all threads, and reports the first bad
 * point (lowest index) with its section, index and byte offset. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "groth16/groth16.h"

#define G1U G16_G1_UNCOMPRESSED_BYTES
#define G2U G16_G2_UNCOMPRESSED_BYTES

/* ------------------------------------------------------------------ writer */

typedef struct {
    FILE *f;
    const char *path;
    uint8_t *buf;
    size_t cap; /* points per buffer */
} writer;

typedef struct {
    uint8_t *buf;
    const void *pts;
    int g2;
} enc_ctx;

static void do_encode(void *vctx, size_t b, size_t e, unsigned worker)
{
    enc_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        if (c->g2)
            g16_g2_encode_uncompressed(c->buf + i * G2U, (const g16_g2_affine *)c->pts + i);
        else
            g16_g1_encode_uncompressed(c->buf + i * G1U, (const g16_g1_affine *)c->pts + i);
    }
}

static g16_status put(writer *w, const void *p, size_t n)
{
    if (fwrite(p, 1, n, w->f) != n)
        return g16_fail(G16_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    return G16_OK;
}

static g16_status put_points(writer *w, const void *pts, size_t n, int g2)
{
    size_t sz = g2 ? G2U : G1U;
    for (size_t done = 0; done < n;) {
        size_t m = n - done < w->cap ? n - done : w->cap;
        enc_ctx c = {w->buf, (const uint8_t *)pts + done * (g2 ? sizeof(g16_g2_affine)
                                                                : sizeof(g16_g1_affine)), g2};
        g16_parallel_for(m, 1024, do_encode, &c);
        G16_TRY(put(w, w->buf, m * sz));
        done += m;
    }
    return G16_OK;
}

static g16_status put_count(writer *w, size_t n, const char *section)
{
    if (n > UINT32_MAX)
        return g16_fail(G16_ERR_ARG, "%s: section %s has %zu points, more than a u32 count holds",
                        w->path, section, n);
    uint8_t b[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    return put(w, b, 4);
}

static g16_status put_vk(writer *w, const g16_vk *vk)
{
    G16_TRY(put_points(w, &vk->alpha_g1, 1, 0));
    G16_TRY(put_points(w, &vk->beta_g1, 1, 0));
    G16_TRY(put_points(w, &vk->beta_g2, 1, 1));
    G16_TRY(put_points(w, &vk->gamma_g2, 1, 1));
    G16_TRY(put_points(w, &vk->delta_g1, 1, 0));
    G16_TRY(put_points(w, &vk->delta_g2, 1, 1));
    G16_TRY(put_count(w, vk->n_ic, "ic"));
    return put_points(w, vk->ic, vk->n_ic, 0);
}

static g16_status write_file(const char *path, const g16_key *key, const g16_vk *vk)
{
    writer w = {NULL, path, NULL, 1 << 16};
    w.buf = malloc(w.cap * G2U);
    if (!w.buf) return g16_fail(G16_ERR_NOMEM, "%s: out of memory", path);
    w.f = fopen(path, "wb");
    if (!w.f) {
        free(w.buf);
        return g16_fail(G16_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    g16_status st = put_vk(&w, vk);
    if (!st && key) {
        const struct { const void *p; size_t n; int g2; const char *name; } s[5] = {
            {key->h, key->n_h, 0, "h"},       {key->l, key->n_l, 0, "l"},
            {key->a, key->n_a, 0, "a"},       {key->b_g1, key->n_b_g1, 0, "b_g1"},
            {key->b_g2, key->n_b_g2, 1, "b_g2"}};
        for (int i = 0; i < 5 && !st; i++) {
            st = put_count(&w, s[i].n, s[i].name);
            if (!st) st = put_points(&w, s[i].p, s[i].n, s[i].g2);
        }
    }
    if (fclose(w.f) != 0 && !st) st = g16_fail(G16_ERR_IO, "%s: close failed: %s", path, strerror(errno));
    free(w.buf);
    if (st) unlink(path);
    return st;
}

g16_status g16_params_write(const char *path, const g16_key *key)
{
    return write_file(path, key, &key->vk);
}

g16_status g16_vk_write(const char *path, const g16_vk *vk) { return write_file(path, NULL, vk); }

/* ------------------------------------------------------------------ reader */

typedef struct {
    const char *path;
    const uint8_t *map;
    size_t size, off;
    unsigned flags;
} reader;

typedef struct {
    const reader *r;
    const uint8_t *src;
    void *dst;
    size_t base_off;
    int g2, refuse_identity;
    const char *section;
    pthread_mutex_t mu;
    size_t bad; /* lowest failing index, SIZE_MAX when none */
    g16_status st;
    char msg[512];
} dec_ctx;

static void do_decode(void *vctx, size_t b, size_t e, unsigned worker)
{
    dec_ctx *c = vctx;
    size_t sz = c->g2 ? G2U : G1U;
    unsigned fl = (c->r->flags & G16_PARAMS_CHECK_SUBGROUP) ? 0 : G16_CURVE_NO_SUBGROUP_CHECK;
    for (size_t i = b; i < e; i++) {
        g16_status st;
        int inf;
        if (c->g2) {
            g16_g2_affine *o = (g16_g2_affine *)c->dst + i;
            st = g16_g2_decode(o, c->src + i * sz, sz, fl);
            inf = !st && g16_g2_affine_is_infinity(o);
        } else {
            g16_g1_affine *o = (g16_g1_affine *)c->dst + i;
            st = g16_g1_decode(o, c->src + i * sz, sz, fl);
            inf = !st && g16_g1_affine_is_infinity(o);
        }
        if (st == G16_OK && !(inf && c->refuse_identity)) continue;
        pthread_mutex_lock(&c->mu);
        if (i < c->bad) {
            c->bad = i;
            c->st = st ? st : G16_ERR_INFINITY;
            snprintf(c->msg, sizeof c->msg, "%s", st ? g16_last_error() : "point at infinity, which bellperson refuses here");
        }
        pthread_mutex_unlock(&c->mu);
        return; /* later points of this chunk cannot be the lowest failure */
    }
}

static g16_status get_count(reader *r, uint32_t *n, const char *section)
{
    if (r->size - r->off < 4)
        return g16_fail(G16_ERR_FORMAT, "%s: section %s: offset %zu: file ends before the count (size %zu)",
                        r->path, section, r->off, r->size);
    const uint8_t *p = r->map + r->off;
    *n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    r->off += 4;
    return G16_OK;
}

/* The proving key's query sections, in file order (b_g2 holds G2 points). */
static const char *const query_names[5] = {"h", "l", "a", "b_g1", "b_g2"};

/* G16_OK when n points of sz bytes fit in what is left of the file. */
static g16_status check_room(const reader *r, size_t n, size_t sz, const char *section)
{
    if (n <= (r->size - r->off) / sz) return G16_OK;
    return g16_fail(G16_ERR_FORMAT,
                    "%s: section %s: offset %zu: %zu points of %zu bytes need %llu bytes, "
                    "only %zu left",
                    r->path, section, r->off, n, sz, (unsigned long long)n * sz, r->size - r->off);
}

/* G16_OK when nothing trails the last section. */
static g16_status check_end(const reader *r)
{
    if (r->off == r->size) return G16_OK;
    return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %zu unexpected bytes after section b_g2",
                    r->path, r->off, r->size - r->off);
}

/* Decodes n points of section at the reader's offset into dst (allocated). */
static g16_status get_points(reader *r, void **dst, size_t n, int g2, const char *section,
                             int refuse_identity)
{
    size_t sz = g2 ? G2U : G1U, esz = g2 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine);
    G16_TRY(check_room(r, n, sz, section));
    void *out = *dst;
    if (!out) {
        out = malloc(n ? n * esz : 1);
        if (!out) return g16_fail(G16_ERR_NOMEM, "%s: section %s: out of memory for %zu points",
                                  r->path, section, n);
    }
    dec_ctx c = {r, r->map + r->off, out, r->off, g2, refuse_identity, section,
                 PTHREAD_MUTEX_INITIALIZER, SIZE_MAX, G16_OK, {0}};
    g16_parallel_for(n, 4096, do_decode, &c);
    if (c.bad != SIZE_MAX) {
        if (!*dst) free(out);
        return g16_fail(c.st, "%s: section %s: point %zu at offset %zu: %s", r->path, section,
                        c.bad, c.base_off + c.bad * sz, c.msg);
    }
    *dst = out;
    r->off += n * sz;
    return G16_OK;
}

static g16_status get_vk(reader *r, g16_vk *vk)
{
    void *p;
    p = &vk->alpha_g1;
    G16_TRY(get_points(r, &p, 1, 0, "vk alpha_g1", 0));
    p = &vk->beta_g1;
    G16_TRY(get_points(r, &p, 1, 0, "vk beta_g1", 0));
    p = &vk->beta_g2;
    G16_TRY(get_points(r, &p, 1, 1, "vk beta_g2", 0));
    p = &vk->gamma_g2;
    G16_TRY(get_points(r, &p, 1, 1, "vk gamma_g2", 0));
    p = &vk->delta_g1;
    G16_TRY(get_points(r, &p, 1, 0, "vk delta_g1", 0));
    p = &vk->delta_g2;
    G16_TRY(get_points(r, &p, 1, 1, "vk delta_g2", 0));
    uint32_t n = 0;
    G16_TRY(get_count(r, &n, "ic"));
    void *ic = NULL;
    G16_TRY(get_points(r, &ic, n, 0, "ic", 0));
    vk->ic = ic;
    vk->n_ic = n;
    if (n == 0) return g16_fail(G16_ERR_FORMAT, "%s: section ic: no points (the one input is always there)", r->path);
    return G16_OK;
}

static g16_status map_file(reader *r, const char *path, unsigned flags)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->flags = flags;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return g16_fail(G16_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return g16_fail(G16_ERR_IO, "%s: not a regular file", path);
    }
    r->size = (size_t)sb.st_size;
    if (r->size == 0) {
        close(fd);
        return g16_fail(G16_ERR_FORMAT, "%s: offset 0: empty file", path);
    }
    void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return g16_fail(G16_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
    madvise(m, r->size, MADV_SEQUENTIAL);
    r->map = m;
    return G16_OK;
}

g16_status g16_vk_read(g16_vk **out, const char *path, unsigned flags, int allow_trailing)
{
    *out = NULL;
    reader r;
    G16_TRY(map_file(&r, path, flags));
    g16_vk *vk = calloc(1, sizeof *vk);
    g16_status st = vk ? get_vk(&r, vk) : g16_fail(G16_ERR_NOMEM, "%s: out of memory", path);
    if (!st && !allow_trailing && r.off != r.size)
        st = g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %zu unexpected bytes after the vk", path,
                      r.off, r.size - r.off);
    if (!st) st = g16_vk_prepare(vk);
    munmap((void *)r.map, r.size);
    if (st) {
        g16_vk_free(vk);
        return st;
    }
    *out = vk;
    return G16_OK;
}

g16_status g16_params_scan(g16_params_layout *out, const char *path)
{
    memset(out, 0, sizeof *out);
    reader r;
    G16_TRY(map_file(&r, path, 0));
    g16_vk vk;
    memset(&vk, 0, sizeof vk);
    g16_status st = get_vk(&r, &vk);
    out->n_ic = vk.n_ic;
    free(vk.ic);
    uint64_t *cnt[5] = {&out->n_h, &out->n_l, &out->n_a, &out->n_b_g1, &out->n_b_g2};
    for (int i = 0; i < 5 && !st; i++) {
        uint32_t n = 0;
        const size_t sz = i == 4 ? G2U : G1U;
        st = get_count(&r, &n, query_names[i]);
        if (!st) st = check_room(&r, n, sz, query_names[i]);
        if (st) break;
        out->off[i] = r.off;
        *cnt[i] = n;
        r.off += (size_t)n * sz;
    }
    if (!st) st = check_end(&r);
    out->size = r.size;
    munmap((void *)r.map, r.size);
    return st;
}

g16_status g16_params_read(g16_key **out, const char *path, unsigned flags)
{
    *out = NULL;
    reader r;
    G16_TRY(map_file(&r, path, flags));
    g16_key *k = g16_key_alloc();
    if (!k) {
        munmap((void *)r.map, r.size);
        return G16_ERR_NOMEM;
    }
    g16_status st = get_vk(&r, &k->vk);
    void **dst[5] = {(void **)&k->h, (void **)&k->l, (void **)&k->a, (void **)&k->b_g1,
                     (void **)&k->b_g2};
    size_t *cnt[5] = {&k->n_h, &k->n_l, &k->n_a, &k->n_b_g1, &k->n_b_g2};
    for (int i = 0; i < 5 && !st; i++) {
        uint32_t n = 0;
        st = get_count(&r, &n, query_names[i]);
        if (!st) st = get_points(&r, dst[i], n, i == 4, query_names[i], 1);
        if (!st) *cnt[i] = n;
    }
    if (!st) st = check_end(&r);
    munmap((void *)r.map, r.size);
    if (st) {
        g16_key_release(k);
        return st;
    }
    *out = k;
    return G16_OK;
}
