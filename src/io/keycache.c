/* The native key cache (.g16k): a proving key in the prover's in-memory form,
 * mapped rather than decoded.  Layout and guarantees: include/g16_groth16.h and
 * docs/formats.md, "Key cache".
 *
 * Why chunked checksums: one XXH3 over a 47 GiB payload runs on one core; a
 * table of per-chunk XXH3-64 values (itself covered by the header's checksum)
 * lets every thread check its own chunks, so a warm load costs the memory
 * bandwidth of one pass and a cold one the disk's read speed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "common/error.h"
#include "common/pool.h"
#include "groth16/groth16.h"

#define KC_MAGIC "g16keyc" /* 7 characters and the NUL: 8 bytes */
#define KC_VERSION 1u
#define KC_BOM 0x01020304u
#define KC_PAGE ((uint64_t)4096)
#define KC_CHUNK ((uint64_t)64 << 20)
#define KC_SECTIONS 6

/* The header as it lies at offset 0 (native byte order; no padding, so the
 * struct is the file layout).  The chunk table (n_chunks XXH3-64 values, one per
 * KC_CHUNK bytes of payload) follows it; the payload starts at header_bytes. */
typedef struct kc_header {
    char magic[8];
    uint32_t version;
    uint32_t bom;                   /* KC_BOM as the writer stored it */
    uint32_t g1_bytes, g2_bytes;    /* sizeof the in-memory affine points */
    uint64_t header_hash;           /* XXH3-64 of [0, header_bytes) with this field zero */
    uint64_t file_bytes;
    uint64_t header_bytes;          /* header + chunk table, page-rounded */
    uint64_t chunk_bytes;
    uint64_t n_chunks;
    uint64_t count[KC_SECTIONS];    /* ic, h, l, a, b_g1, b_g2 */
    uint64_t off[KC_SECTIONS];      /* section offsets in the file */
    uint64_t source_bytes;          /* size of the .params it came from (0: none) */
    uint8_t source_fp[16];          /* XXH3-128 canonical (big-endian) fingerprint */
    uint64_t reserved[4];
    g16_g1_affine alpha_g1, beta_g1, delta_g1;
    g16_g2_affine beta_g2, gamma_g2, delta_g2;
} kc_header;

_Static_assert(sizeof(g16_g1_affine) == 96 && sizeof(g16_g2_affine) == 192,
               "the cache stores points as the prover holds them: 12 and 24 limbs");
_Static_assert(offsetof(kc_header, header_hash) == 24 && offsetof(kc_header, count) == 64 &&
                   offsetof(kc_header, alpha_g1) == 216 && sizeof(kc_header) == 1080,
               "the header layout is the file format (docs/formats.md)");

static const char *const sec_name[KC_SECTIONS] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

static uint64_t sec_elem(int i) { return i == 5 ? sizeof(g16_g2_affine) : sizeof(g16_g1_affine); }

static uint64_t round_page(uint64_t x) { return (x + KC_PAGE - 1) & ~(KC_PAGE - 1); }

/* The canonical layout of counts: sections back to back from header_bytes, each
 * starting on a page.  Writer and reader both derive it, so a reader compares the
 * stored offsets with it instead of trusting them.  Counts must be bounded by the
 * caller (no overflow below 2^60 points). */
static void layout(kc_header *h)
{
    uint64_t payload = 0, rel[KC_SECTIONS];
    for (int i = 0; i < KC_SECTIONS; i++) {
        rel[i] = payload;
        payload += round_page(h->count[i] * sec_elem(i));
    }
    h->chunk_bytes = KC_CHUNK;
    h->n_chunks = (payload + KC_CHUNK - 1) / KC_CHUNK;
    h->header_bytes = round_page(sizeof(kc_header) + 8 * h->n_chunks);
    for (int i = 0; i < KC_SECTIONS; i++) h->off[i] = h->header_bytes + rel[i];
    h->file_bytes = h->header_bytes + payload;
}

static uint64_t header_hash(const uint8_t *hdr, uint64_t header_bytes)
{
    static const uint8_t zero[8];
    XXH3_state_t *st = XXH3_createState();
    if (!st) return 0; /* a zero hash never matches a real one by chance worth fearing */
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, hdr, offsetof(kc_header, header_hash));
    XXH3_64bits_update(st, zero, 8);
    XXH3_64bits_update(st, hdr + offsetof(kc_header, file_bytes),
                       header_bytes - offsetof(kc_header, file_bytes));
    uint64_t v = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return v;
}

/* ------------------------------------------------------------ fingerprint */

/* The .params' size and XXH3-128 of its vk bytes (α₁ … IC) and query counts: a
 * different setup changes the vk (IC depends on τ, α, β, γ), a different circuit
 * the counts.  Only the vk part is read, so this takes milliseconds. */
static g16_status source_fingerprint(uint64_t *bytes, uint8_t fp[16], const char *params)
{
    g16_params_layout lay;
    G16_TRY(g16_params_scan(&lay, params));
    size_t vk_end = (size_t)lay.off[0] - 4; /* the h count follows the IC points */
    uint8_t *buf = malloc(vk_end);
    if (!buf) return g16_fail(G16_ERR_NOMEM, "%s: out of memory for the vk bytes", params);
    int fd = open(params, O_RDONLY);
    ssize_t got = fd < 0 ? -1 : pread(fd, buf, vk_end, 0);
    int err = errno;
    if (fd >= 0) close(fd);
    if (got != (ssize_t)vk_end) {
        free(buf);
        return g16_fail(G16_ERR_IO, "%s: cannot read the vk bytes: %s", params,
                        got < 0 ? strerror(err) : "short read");
    }
    const uint64_t counts[5] = {lay.n_h, lay.n_l, lay.n_a, lay.n_b_g1, lay.n_b_g2};
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        free(buf);
        return g16_fail(G16_ERR_NOMEM, "%s: out of memory for a hash state", params);
    }
    XXH3_128bits_reset(st);
    XXH3_128bits_update(st, buf, vk_end);
    XXH3_128bits_update(st, counts, sizeof counts);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(st));
    XXH3_freeState(st);
    free(buf);
    memcpy(fp, c.digest, 16);
    *bytes = lay.size;
    return G16_OK;
}

/* ------------------------------------------------------------ writer */

/* Streams the payload to fd, hashing each KC_CHUNK bytes as it goes. */
typedef struct {
    int fd;
    const char *path;
    uint64_t pos; /* payload bytes written */
    uint64_t *hashes;
    size_t n_hashes;
    XXH3_state_t *st;
} hash_writer;

static g16_status write_all(int fd, const char *path, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(fd, b, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return g16_fail(G16_ERR_IO, "%s: write failed: %s", path, strerror(errno));
        b += w;
        n -= (size_t)w;
    }
    return G16_OK;
}

static g16_status hw_put(hash_writer *w, const void *p, uint64_t n)
{
    const uint8_t *b = p;
    while (n) {
        uint64_t room = KC_CHUNK - w->pos % KC_CHUNK, m = n < room ? n : room;
        XXH3_64bits_update(w->st, b, (size_t)m);
        G16_TRY(write_all(w->fd, w->path, b, (size_t)m));
        w->pos += m;
        b += m;
        n -= m;
        if (w->pos % KC_CHUNK == 0) {
            w->hashes[w->n_hashes++] = XXH3_64bits_digest(w->st);
            XXH3_64bits_reset(w->st);
        }
    }
    return G16_OK;
}

static g16_status hw_pad(hash_writer *w)
{
    static const uint8_t zero[4096];
    uint64_t pad = round_page(w->pos) - w->pos;
    return hw_put(w, zero, pad);
}

static g16_status write_body(int fd, const char *tmp, kc_header *h, const g16_key *key)
{
    const void *src[KC_SECTIONS] = {key->vk.ic, key->h, key->l, key->a, key->b_g1, key->b_g2};
    size_t tab_bytes = (size_t)(h->header_bytes - sizeof *h);
    uint8_t *head = calloc(1, (size_t)h->header_bytes);
    XXH3_state_t *st = XXH3_createState();
    if (!head || !st) {
        free(head);
        XXH3_freeState(st);
        return g16_fail(G16_ERR_NOMEM, "%s: out of memory for the header", tmp);
    }
    hash_writer w = {fd, tmp, 0, (uint64_t *)(head + sizeof *h), 0, st};
    XXH3_64bits_reset(st);
    g16_status s = G16_OK;
    if (lseek(fd, (off_t)h->header_bytes, SEEK_SET) < 0)
        s = g16_fail(G16_ERR_IO, "%s: seek failed: %s", tmp, strerror(errno));
    for (int i = 0; i < KC_SECTIONS && !s; i++) {
        s = hw_put(&w, src[i], h->count[i] * sec_elem(i));
        if (!s) s = hw_pad(&w);
    }
    if (!s && w.pos % KC_CHUNK) w.hashes[w.n_hashes++] = XXH3_64bits_digest(st);
    if (!s && (w.n_hashes != h->n_chunks || w.n_hashes * 8 > tab_bytes ||
               h->header_bytes + w.pos != h->file_bytes))
        s = g16_fail(G16_ERR_INTERNAL, "%s: wrote %zu chunks, %llu bytes; the layout said otherwise",
                     tmp, w.n_hashes, (unsigned long long)w.pos);
    if (!s) {
        memcpy(head, h, sizeof *h);
        uint64_t hh = header_hash(head, h->header_bytes);
        memcpy(head + offsetof(kc_header, header_hash), &hh, 8);
        if (pwrite(fd, head, (size_t)h->header_bytes, 0) != (ssize_t)h->header_bytes)
            s = g16_fail(G16_ERR_IO, "%s: cannot write the header: %s", tmp, strerror(errno));
    }
    if (!s && fdatasync(fd) != 0) s = g16_fail(G16_ERR_IO, "%s: fdatasync: %s", tmp, strerror(errno));
    XXH3_freeState(st);
    free(head);
    return s;
}

g16_status g16_key_cache_write(const char *path, const g16_key *key, const char *source_params)
{
    kc_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, KC_MAGIC, 8);
    h.version = KC_VERSION;
    h.bom = KC_BOM;
    h.g1_bytes = sizeof(g16_g1_affine);
    h.g2_bytes = sizeof(g16_g2_affine);
    const uint64_t cnt[KC_SECTIONS] = {key->vk.n_ic, key->n_h, key->n_l, key->n_a, key->n_b_g1,
                                       key->n_b_g2};
    memcpy(h.count, cnt, sizeof cnt);
    layout(&h);
    h.alpha_g1 = key->vk.alpha_g1;
    h.beta_g1 = key->vk.beta_g1;
    h.delta_g1 = key->vk.delta_g1;
    h.beta_g2 = key->vk.beta_g2;
    h.gamma_g2 = key->vk.gamma_g2;
    h.delta_g2 = key->vk.delta_g2;
    if (source_params) G16_TRY(source_fingerprint(&h.source_bytes, h.source_fp, source_params));

    /* The temporary file sits beside path so that rename() is atomic. */
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) return g16_fail(G16_ERR_NOMEM, "%s: out of memory", path);
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        g16_status s = g16_fail(G16_ERR_IO, "%s: cannot create a temporary file: %s", path,
                                strerror(errno));
        free(tmp);
        return s;
    }
    (void)fchmod(fd, 0644); /* mkstemp makes 0600; a cache is as readable as a .params */
    g16_status s = write_body(fd, tmp, &h, key);
    if (close(fd) != 0 && !s) s = g16_fail(G16_ERR_IO, "%s: close: %s", tmp, strerror(errno));
    if (!s && rename(tmp, path) != 0)
        s = g16_fail(G16_ERR_IO, "%s: cannot rename %s over it: %s", path, tmp, strerror(errno));
    if (s) unlink(tmp);
    free(tmp);
    return s;
}

/* ------------------------------------------------------------ reader */

typedef struct {
    const char *path;
    uint8_t *map;
    uint64_t size;
    kc_header h;
} kc_file;

static void kc_close(kc_file *f)
{
    if (f->map) munmap(f->map, f->size);
    f->map = NULL;
}

static g16_status bad(const kc_file *f, size_t field, const char *what)
{
    return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %s", f->path, field, what);
}

/* Checks the header against the file's length and the canonical layout. */
static g16_status check_header(kc_file *f)
{
    char m[200];
    kc_header *h = &f->h;
    if (f->size < 8 || memcmp(f->map, KC_MAGIC, 8) != 0)
        return bad(f, 0, "not a g16 key cache (magic \"g16keyc\" expected)");
    if (f->size < sizeof *h) {
        snprintf(m, sizeof m, "file of %llu bytes ends inside the %zu-byte header",
                 (unsigned long long)f->size, sizeof *h);
        return bad(f, 0, m);
    }
    memcpy(h, f->map, sizeof *h);
    if (h->version != KC_VERSION) {
        snprintf(m, sizeof m, "version %u, expected %u", h->version, KC_VERSION);
        return bad(f, offsetof(kc_header, version), m);
    }
    if (h->bom != KC_BOM) {
        snprintf(m, sizeof m, "byte-order mark 0x%08x, expected 0x%08x (a cache is native: "
                 "this one was written on a machine of the other byte order)", h->bom, KC_BOM);
        return bad(f, offsetof(kc_header, bom), m);
    }
    if (h->g1_bytes != sizeof(g16_g1_affine) || h->g2_bytes != sizeof(g16_g2_affine)) {
        snprintf(m, sizeof m, "points of %u/%u bytes, expected %zu/%zu (another build's layout)",
                 h->g1_bytes, h->g2_bytes, sizeof(g16_g1_affine), sizeof(g16_g2_affine));
        return bad(f, offsetof(kc_header, g1_bytes), m);
    }
    if (h->file_bytes != f->size) {
        snprintf(m, sizeof m, "the header says the file has %llu bytes, it has %llu (%s)",
                 (unsigned long long)h->file_bytes, (unsigned long long)f->size,
                 h->file_bytes > f->size ? "truncated" : "bytes appended");
        return bad(f, offsetof(kc_header, file_bytes), m);
    }
    if (h->header_bytes < sizeof *h || h->header_bytes > f->size ||
        h->n_chunks > (h->header_bytes - sizeof *h) / 8) {
        snprintf(m, sizeof m, "header of %llu bytes with %llu chunk checksums does not fit "
                 "%zu + 8 per chunk within the %llu-byte file",
                 (unsigned long long)h->header_bytes, (unsigned long long)h->n_chunks,
                 sizeof *h, (unsigned long long)f->size);
        return bad(f, offsetof(kc_header, header_bytes), m);
    }
    uint64_t want = header_hash(f->map, h->header_bytes);
    if (want != h->header_hash) {
        snprintf(m, sizeof m, "header checksum %016llx, computed %016llx over bytes 0..%llu: "
                 "the header is corrupt", (unsigned long long)h->header_hash,
                 (unsigned long long)want, (unsigned long long)h->header_bytes);
        return bad(f, offsetof(kc_header, header_hash), m);
    }
    /* A checksummed header that disagrees with its own layout came from a broken
     * writer; still refused with the field that is off. */
    for (int i = 0; i < KC_SECTIONS; i++)
        if (h->count[i] > f->size / sec_elem(i)) {
            snprintf(m, sizeof m, "section %s: %llu points of %llu bytes cannot fit a %llu-byte "
                     "file", sec_name[i], (unsigned long long)h->count[i],
                     (unsigned long long)sec_elem(i), (unsigned long long)f->size);
            return bad(f, offsetof(kc_header, count) + 8 * (size_t)i, m);
        }
    if (h->count[0] == 0) return bad(f, offsetof(kc_header, count), "section ic: no points (the one input is always there)");
    kc_header c = *h;
    layout(&c);
    for (int i = 0; i < KC_SECTIONS; i++)
        if (c.off[i] != h->off[i]) {
            snprintf(m, sizeof m, "section %s at offset %llu, expected %llu", sec_name[i],
                     (unsigned long long)h->off[i], (unsigned long long)c.off[i]);
            return bad(f, offsetof(kc_header, off) + 8 * (size_t)i, m);
        }
    if (c.chunk_bytes != h->chunk_bytes || c.n_chunks != h->n_chunks ||
        c.header_bytes != h->header_bytes || c.file_bytes != h->file_bytes) {
        snprintf(m, sizeof m, "layout (chunks %llu of %llu bytes, header %llu, file %llu bytes), "
                 "expected (%llu of %llu, %llu, %llu) from the counts",
                 (unsigned long long)h->n_chunks, (unsigned long long)h->chunk_bytes,
                 (unsigned long long)h->header_bytes, (unsigned long long)h->file_bytes,
                 (unsigned long long)c.n_chunks, (unsigned long long)c.chunk_bytes,
                 (unsigned long long)c.header_bytes, (unsigned long long)c.file_bytes);
        return bad(f, offsetof(kc_header, file_bytes), m);
    }
    return G16_OK;
}

static g16_status kc_open(kc_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return g16_fail(G16_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return g16_fail(G16_ERR_IO, "%s: not a regular file", path);
    }
    f->size = (uint64_t)sb.st_size;
    if (f->size == 0) {
        close(fd);
        return g16_fail(G16_ERR_FORMAT, "%s: offset 0: empty file", path);
    }
    void *m = mmap(NULL, (size_t)f->size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return g16_fail(G16_ERR_IO, "%s: cannot map: %s", path, strerror(errno));
    f->map = m;
    g16_status s = check_header(f);
    if (s) kc_close(f);
    return s;
}

typedef struct {
    const kc_file *f;
    const uint64_t *table;
    pthread_mutex_t mu;
    uint64_t bad, got; /* lowest failing chunk (UINT64_MAX: none) and its hash */
} sum_ctx;

static void sum_chunks(void *vctx, size_t b, size_t e, unsigned worker)
{
    (void)worker;
    sum_ctx *c = vctx;
    const kc_header *h = &c->f->h;
    for (size_t i = b; i < e; i++) {
        uint64_t off = h->header_bytes + i * h->chunk_bytes;
        uint64_t len = h->file_bytes - off < h->chunk_bytes ? h->file_bytes - off : h->chunk_bytes;
        uint64_t v = XXH3_64bits(c->f->map + off, (size_t)len);
        if (v == c->table[i]) continue;
        pthread_mutex_lock(&c->mu);
        if (i < c->bad) c->bad = i, c->got = v;
        pthread_mutex_unlock(&c->mu);
        return;
    }
}

static g16_status check_payload(const kc_file *f)
{
    const kc_header *h = &f->h;
    sum_ctx c = {f, (const uint64_t *)(f->map + sizeof *h), PTHREAD_MUTEX_INITIALIZER,
                 UINT64_MAX, 0};
    /* Read-ahead of the whole payload: on a cold page cache the disk streams
     * while the threads hash. */
    (void)madvise(f->map + h->header_bytes, (size_t)(h->file_bytes - h->header_bytes), MADV_WILLNEED);
    g16_parallel_for((size_t)h->n_chunks, 1, sum_chunks, &c);
    if (c.bad == UINT64_MAX) return G16_OK;
    uint64_t off = h->header_bytes + c.bad * h->chunk_bytes;
    uint64_t end = off + h->chunk_bytes < h->file_bytes ? off + h->chunk_bytes : h->file_bytes;
    int first = 0, last = 0; /* the sections the chunk overlaps */
    for (int i = 0; i < KC_SECTIONS; i++) {
        if (h->off[i] <= off) first = i;
        if (h->off[i] < end) last = i;
    }
    char secs[32];
    if (first == last)
        snprintf(secs, sizeof secs, "section %s", sec_name[first]);
    else
        snprintf(secs, sizeof secs, "sections %s to %s", sec_name[first], sec_name[last]);
    return g16_fail(G16_ERR_FORMAT,
                    "%s: offset %llu: chunk %llu (bytes %llu..%llu, %s) has checksum %016llx, "
                    "expected %016llx: the file is corrupt",
                    f->path, (unsigned long long)off, (unsigned long long)c.bad,
                    (unsigned long long)off, (unsigned long long)end, secs,
                    (unsigned long long)c.got, (unsigned long long)c.table[c.bad]);
}

g16_status g16_key_cache_read(g16_key **out, const char *path, unsigned flags)
{
    *out = NULL;
    kc_file f;
    G16_TRY(kc_open(&f, path));
    g16_status s = (flags & G16_KEY_CACHE_TRUST) ? G16_OK : check_payload(&f);
    g16_key *k = s ? NULL : g16_key_alloc();
    if (!s && !k) s = G16_ERR_NOMEM;
    if (s) {
        kc_close(&f);
        return s;
    }
    const kc_header *h = &f.h;
    k->vk.alpha_g1 = h->alpha_g1;
    k->vk.beta_g1 = h->beta_g1;
    k->vk.delta_g1 = h->delta_g1;
    k->vk.beta_g2 = h->beta_g2;
    k->vk.gamma_g2 = h->gamma_g2;
    k->vk.delta_g2 = h->delta_g2;
    /* The vk is copied: it outlives keys (g16_vk_copy) and is freed with free(). */
    k->vk.ic = malloc((size_t)h->count[0] * sizeof *k->vk.ic);
    if (!k->vk.ic) {
        g16_key_release(k);
        kc_close(&f);
        return g16_fail(G16_ERR_NOMEM, "%s: out of memory for the vk", path);
    }
    memcpy(k->vk.ic, f.map + h->off[0], (size_t)h->count[0] * sizeof *k->vk.ic);
    k->vk.n_ic = (size_t)h->count[0];
    void **dst[5] = {(void **)&k->h, (void **)&k->l, (void **)&k->a, (void **)&k->b_g1,
                     (void **)&k->b_g2};
    size_t *cnt[5] = {&k->n_h, &k->n_l, &k->n_a, &k->n_b_g1, &k->n_b_g2};
    for (int i = 0; i < 5; i++) {
        *dst[i] = h->count[i + 1] ? f.map + h->off[i + 1] : NULL;
        *cnt[i] = (size_t)h->count[i + 1];
    }
    k->map = f.map;
    k->map_bytes = (size_t)f.size;
    *out = k;
    return G16_OK;
}

g16_status g16_key_cache_info_read(g16_key_cache_info *out, const char *path)
{
    memset(out, 0, sizeof *out);
    kc_file f;
    G16_TRY(kc_open(&f, path));
    const kc_header *h = &f.h;
    out->version = h->version;
    out->n_ic = h->count[0];
    out->n_h = h->count[1];
    out->n_l = h->count[2];
    out->n_a = h->count[3];
    out->n_b_g1 = h->count[4];
    out->n_b_g2 = h->count[5];
    out->file_bytes = h->file_bytes;
    out->chunk_bytes = h->chunk_bytes;
    out->n_chunks = h->n_chunks;
    out->source_bytes = h->source_bytes;
    memcpy(out->source_fp, h->source_fp, 16);
    kc_close(&f);
    return G16_OK;
}

static void hex16(char out[33], const uint8_t fp[16])
{
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", fp[i]);
}

g16_status g16_key_cache_check(const char *cache_path, const char *params_path)
{
    g16_key_cache_info ci;
    G16_TRY(g16_key_cache_info_read(&ci, cache_path));
    uint64_t bytes;
    uint8_t fp[16];
    G16_TRY(source_fingerprint(&bytes, fp, params_path));
    if (ci.source_bytes == bytes && !memcmp(ci.source_fp, fp, 16)) return G16_OK;
    char a[33], b[33];
    hex16(a, ci.source_fp);
    hex16(b, fp);
    if (!ci.source_bytes)
        return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: no source .params recorded, so it cannot "
                        "be matched to %s", cache_path, offsetof(kc_header, source_bytes), params_path);
    return g16_fail(G16_ERR_FORMAT,
                    "%s: offset %zu: stale: made from a .params of %llu bytes, fingerprint %s; "
                    "%s has %llu bytes, fingerprint %s",
                    cache_path, offsetof(kc_header, source_bytes),
                    (unsigned long long)ci.source_bytes, a, params_path, (unsigned long long)bytes, b);
}

g16_status g16_key_load_cached(g16_key **out, const char *params_path, const char *cache_path,
                               unsigned flags)
{
    *out = NULL;
    if (g16_key_cache_check(cache_path, params_path) == G16_OK &&
        g16_key_cache_read(out, cache_path, flags) == G16_OK)
        return G16_OK;
    G16_TRY(g16_params_read(out, params_path, flags & G16_PARAMS_CHECK_SUBGROUP));
    /* A cache that cannot be written (read-only folder, full disk) only costs the
     * next start its speed: the key itself is good. */
    (void)g16_key_cache_write(cache_path, *out, params_path);
    g16_clear_error();
    return G16_OK;
}
