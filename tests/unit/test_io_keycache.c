/* The native key cache (.g16k): a cached key is the .params key point for point
 * and proves the same bytes; every corrupted byte, every truncation, appended
 * bytes and a stale source are refused with the file, offset and reason; the
 * load-through-cache path rebuilds a bad or stale cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve/curve.h"
#include "files.h"
#include "test_groth16_util.h"

static char dir[64], params_path[128], params2_path[128], cache_path[128], bad_path[128];

static void spit(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(b, 1, n, f);
    fclose(f);
}

static int msg_has(const char *needle) { return strstr(g16_last_error(), needle) != NULL; }

static int keys_equal(const g16_key *x, const g16_key *y)
{
    const g16_vk *a = &x->vk, *b = &y->vk;
    if (!g16_g1_affine_eq(&a->alpha_g1, &b->alpha_g1) || !g16_g1_affine_eq(&a->beta_g1, &b->beta_g1) ||
        !g16_g1_affine_eq(&a->delta_g1, &b->delta_g1) || !g16_g2_affine_eq(&a->beta_g2, &b->beta_g2) ||
        !g16_g2_affine_eq(&a->gamma_g2, &b->gamma_g2) || !g16_g2_affine_eq(&a->delta_g2, &b->delta_g2))
        return 0;
    if (a->n_ic != b->n_ic || x->n_h != y->n_h || x->n_l != y->n_l || x->n_a != y->n_a ||
        x->n_b_g1 != y->n_b_g1 || x->n_b_g2 != y->n_b_g2)
        return 0;
    for (size_t i = 0; i < a->n_ic; i++) if (!g16_g1_affine_eq(&a->ic[i], &b->ic[i])) return 0;
    for (size_t i = 0; i < x->n_h; i++) if (!g16_g1_affine_eq(&x->h[i], &y->h[i])) return 0;
    for (size_t i = 0; i < x->n_l; i++) if (!g16_g1_affine_eq(&x->l[i], &y->l[i])) return 0;
    for (size_t i = 0; i < x->n_a; i++) if (!g16_g1_affine_eq(&x->a[i], &y->a[i])) return 0;
    for (size_t i = 0; i < x->n_b_g1; i++) if (!g16_g1_affine_eq(&x->b_g1[i], &y->b_g1[i])) return 0;
    for (size_t i = 0; i < x->n_b_g2; i++) if (!g16_g2_affine_eq(&x->b_g2[i], &y->b_g2[i])) return 0;
    return 1;
}

/* Reads bytes b[0..n) as a cache at bad_path; the key is released at once. */
static g16_status read_bad(const uint8_t *b, size_t n, unsigned flags)
{
    spit(bad_path, b, n);
    g16_key *k = (g16_key *)1;
    g16_status st = g16_key_cache_read(&k, bad_path, flags);
    if (st && k) CHECK(0, "a failed read left *out = %p", (void *)k);
    g16_key_release(k);
    return st;
}

/* A refusal names the file and an offset. */
static int clear_refusal(g16_status st) { return st == G16_ERR_FORMAT && msg_has(bad_path) && msg_has("offset"); }

static uint64_t get_u64(const uint8_t *b, size_t off)
{
    uint64_t v;
    memcpy(&v, b + off, 8);
    return v;
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(71));
    snprintf(dir, sizeof dir, "/tmp/g16_kc_testXXXXXX");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(params_path, sizeof params_path, "%s/k.params", dir);
    snprintf(params2_path, sizeof params2_path, "%s/k2.params", dir);
    snprintf(cache_path, sizeof cache_path, "%s/k.g16k", dir);
    snprintf(bad_path, sizeof bad_path, "%s/bad.g16k", dir);

    tg_circ t;
    tg_make(&t, &rng, 2, 40);
    g16_density d;
    tg_density(&d, &t);
    g16_key *key, *key2, *pk = NULL, *ck = NULL;
    CHECK(g16_setup(&key, &t.c, (const uint8_t *)"kc", 2) == G16_OK, "setup");
    CHECK(g16_setup(&key2, &t.c, (const uint8_t *)"k2", 2) == G16_OK, "setup 2");
    CHECK(g16_params_write(params_path, key) == G16_OK, "write params: %s", g16_last_error());
    CHECK(g16_params_write(params2_path, key2) == G16_OK, "write params 2: %s", g16_last_error());
    CHECK(g16_params_read(&pk, params_path, 0) == G16_OK, "read params: %s", g16_last_error());

    /* round trip: point for point, mapped, and the same proof bytes for fixed r, s */
    CHECK(g16_key_cache_write(cache_path, pk, params_path) == G16_OK, "write cache: %s",
          g16_last_error());
    CHECK(g16_key_cache_read(&ck, cache_path, 0) == G16_OK, "read cache: %s", g16_last_error());
    CHECK(ck && keys_equal(pk, ck), "cached key differs from the .params key");
    CHECK(ck && g16_key_is_mapped(ck) && !g16_key_is_mapped(pk), "mapped flags");
    uint8_t rs[64], p1[192], p2[192];
    g16_derive_rs(rs, (const uint8_t *)"rs", 2);
    uint8_t *x = tg_inputs(&t);
    CHECK(tg_prove(p1, pk, &t, &d, rs) == G16_OK, "prove from .params key");
    CHECK(ck && tg_prove(p2, ck, &t, &d, rs) == G16_OK, "prove from cached key: %s", g16_last_error());
    CHECK(!memcmp(p1, p2, 192), "proofs differ between the .params and the cached key");
    CHECK(ck && g16_verify(g16_key_vk(ck), p2, x, 2) == G16_OK, "cached key's proof verifies: %s",
          g16_last_error());
    /* a vk copied from a mapped key outlives it */
    g16_vk *vkc = ck ? g16_vk_copy(g16_key_vk(ck)) : NULL;
    g16_key_release(ck);
    ck = NULL;
    CHECK(vkc && g16_verify(vkc, p2, x, 2) == G16_OK, "vk copy after the key is unmapped");
    g16_vk_free(vkc);
    /* trusted read: same key */
    CHECK(g16_key_cache_read(&ck, cache_path, G16_KEY_CACHE_TRUST) == G16_OK, "trusted read: %s",
          g16_last_error());
    CHECK(ck && keys_equal(pk, ck), "trusted read differs");
    g16_key_release(ck);
    ck = NULL;

    /* header info */
    g16_key_cache_info ci;
    g16_key_info ki;
    g16_key_get_info(&ki, pk);
    CHECK(g16_key_cache_info_read(&ci, cache_path) == G16_OK, "info: %s", g16_last_error());
    size_t n = 0;
    uint8_t *file = g16_test_slurp(cache_path, &n, 16);
    CHECK(file && ci.version == 1 && ci.n_ic == ki.n_ic && ci.n_h == ki.n_h && ci.n_l == ki.n_l &&
              ci.n_a == ki.n_a && ci.n_b_g1 == ki.n_b_g1 && ci.n_b_g2 == ki.n_b_g2 &&
              ci.file_bytes == n && ci.n_chunks == 1,
          "info counts");
    /* the sections are page-aligned and hold the points exactly as in memory */
    const size_t off_h = (size_t)get_u64(file, 64 + 48 + 8);
    CHECK(off_h % 4096 == 0 && off_h + ki.n_h * 96 <= n &&
              !memcmp(file + off_h, pk->h, ki.n_h * sizeof *pk->h),
          "section h at %zu is not the in-memory h", off_h);
    const size_t header_bytes = (size_t)get_u64(file, 40);
    CHECK(header_bytes == 4096, "header bytes %zu", header_bytes);

    /* the source check: same .params ok; another setup of the same circuit (same
     * size) is stale, also when it replaces the file under the same name */
    CHECK(g16_key_cache_check(cache_path, params_path) == G16_OK, "check: %s", g16_last_error());
    CHECK(g16_key_cache_check(cache_path, params2_path) == G16_ERR_FORMAT && msg_has("stale") &&
              msg_has(cache_path) && msg_has(params2_path),
          "stale source: %s", g16_last_error());
    /* written without a source: never valid for a .params */
    CHECK(g16_key_cache_write(bad_path, pk, NULL) == G16_OK, "write without source");
    CHECK(g16_key_cache_check(bad_path, params_path) == G16_ERR_FORMAT && msg_has("no source"),
          "sourceless cache: %s", g16_last_error());

    /* every corrupted byte is refused (checksums); header bytes even when trusted */
    uint8_t *b = malloc(n + 16);
    int flip_bad = 0, trust_bad = 0;
    /* one byte rewritten in place per case: rewriting the whole file each time
     * made this loop take seconds of page-cache churn */
    spit(bad_path, file, n);
    FILE *bf = fopen(bad_path, "r+b");
    CHECK(bf != NULL, "open %s", bad_path);
    for (size_t i = 0; i < n && bf; i++) {
        uint8_t flipped = file[i] ^ (uint8_t)(1u << (i % 8));
        fseek(bf, (long)i, SEEK_SET);
        fputc(flipped, bf);
        fflush(bf);
        g16_key *k = NULL;
        g16_status st = g16_key_cache_read(&k, bad_path, 0);
        g16_key_release(k);
        if (!clear_refusal(st) && flip_bad++ < 5)
            CHECK(0, "byte %zu flipped: status %d: %s", i, st, g16_last_error());
        if (i < header_bytes) {
            k = NULL;
            st = g16_key_cache_read(&k, bad_path, G16_KEY_CACHE_TRUST);
            g16_key_release(k);
            if (!clear_refusal(st) && trust_bad++ < 5)
                CHECK(0, "header byte %zu flipped, trusted: status %d: %s", i, st, g16_last_error());
        }
        fseek(bf, (long)i, SEEK_SET);
        fputc(file[i], bf);
        fflush(bf);
    }
    if (bf) fclose(bf);
    CHECK(flip_bad == 0, "%d byte flips accepted or unclear", flip_bad);
    CHECK(trust_bad == 0, "%d header byte flips accepted when trusted", trust_bad);
    /* the chunk's error names the section and the offset of the chunk */
    memcpy(b, file, n);
    b[off_h + 5] ^= 4;
    CHECK(read_bad(b, n, 0) == G16_ERR_FORMAT && msg_has("checksum") && msg_has("corrupt") &&
              msg_has("offset 4096"),
          "payload flip message: %s", g16_last_error());
    memcpy(b, file, n);
    b[9] ^= 1;
    CHECK(read_bad(b, n, 0) == G16_ERR_FORMAT && msg_has("offset 8") && msg_has("version"),
          "version message: %s", g16_last_error());
    memcpy(b, file, n);
    b[0] = 'x';
    CHECK(read_bad(b, n, 0) == G16_ERR_FORMAT && msg_has("offset 0") && msg_has("magic"),
          "magic message: %s", g16_last_error());

    /* every truncation, and appended bytes */
    int trunc_bad = 0;
    for (size_t cut = 0; cut < n; cut += cut < header_bytes + 8 ? 1 : 7) {
        memcpy(b, file, cut);
        g16_status st = read_bad(b, cut, 0);
        if (!(st == G16_ERR_FORMAT && msg_has(bad_path) && msg_has("offset")) && trunc_bad++ < 5)
            CHECK(0, "truncated at %zu: status %d: %s", cut, st, g16_last_error());
    }
    CHECK(trunc_bad == 0, "%d truncations accepted or unclear", trunc_bad);
    memcpy(b, file, n);
    b[n] = 0;
    CHECK(read_bad(b, n + 1, G16_KEY_CACHE_TRUST) == G16_ERR_FORMAT && msg_has("appended"),
          "appended byte: %s", g16_last_error());
    memcpy(b, file, n);
    CHECK(read_bad(b, n - 4096, G16_KEY_CACHE_TRUST) == G16_ERR_FORMAT && msg_has("truncated"),
          "a page cut: %s", g16_last_error());
    /* a .params is not a cache */
    CHECK(g16_key_cache_read(&ck, params_path, 0) == G16_ERR_FORMAT && msg_has("magic"),
          ".params read as a cache: %s", g16_last_error());
    CHECK(g16_key_cache_read(&ck, "/nonexistent/k.g16k", 0) == G16_ERR_IO &&
              msg_has("/nonexistent"),
          "missing cache: %s", g16_last_error());
    CHECK(g16_key_cache_write("/nonexistent/k.g16k", pk, NULL) == G16_ERR_IO &&
              msg_has("/nonexistent"),
          "unwritable cache: %s", g16_last_error());

    /* load through the cache: miss (writes it), hit (mapped), stale (rebuilds),
     * corrupt (rebuilds) */
    unlink(cache_path);
    CHECK(g16_key_load_cached(&ck, params_path, cache_path, 0) == G16_OK, "load miss: %s",
          g16_last_error());
    CHECK(ck && !g16_key_is_mapped(ck) && keys_equal(pk, ck), "miss: the .params key");
    g16_key_release(ck);
    CHECK(access(cache_path, R_OK) == 0, "miss wrote the cache");
    CHECK(g16_key_load_cached(&ck, params_path, cache_path, 0) == G16_OK, "load hit: %s",
          g16_last_error());
    CHECK(ck && g16_key_is_mapped(ck) && keys_equal(pk, ck), "hit: the mapped key");
    g16_key_release(ck);
    /* params replaced under the same name by another setup: the cache is stale */
    size_t n2 = 0;
    uint8_t *p2file = g16_test_slurp(params2_path, &n2, 0);
    spit(params_path, p2file, n2);
    CHECK(g16_key_cache_check(cache_path, params_path) == G16_ERR_FORMAT && msg_has("stale"),
          "replaced .params: %s", g16_last_error());
    CHECK(g16_key_load_cached(&ck, params_path, cache_path, 0) == G16_OK, "load stale: %s",
          g16_last_error());
    CHECK(ck && !g16_key_is_mapped(ck) && keys_equal(key2, ck), "stale: the new .params key");
    g16_key_release(ck);
    CHECK(g16_key_cache_check(cache_path, params_path) == G16_OK, "stale cache rebuilt: %s",
          g16_last_error());
    CHECK(g16_key_load_cached(&ck, params_path, cache_path, 0) == G16_OK, "load rebuilt: %s",
          g16_last_error());
    CHECK(ck && g16_key_is_mapped(ck) && keys_equal(key2, ck), "rebuilt cache maps key 2");
    g16_key_release(ck);
    /* a corrupt payload byte: refused, rebuilt from the .params */
    size_t nc = 0;
    uint8_t *cf = g16_test_slurp(cache_path, &nc, 0);
    cf[nc - 100] ^= 1;
    spit(cache_path, cf, nc);
    free(cf);
    CHECK(g16_key_load_cached(&ck, params_path, cache_path, 0) == G16_OK, "load corrupt: %s",
          g16_last_error());
    CHECK(ck && !g16_key_is_mapped(ck) && keys_equal(key2, ck), "corrupt: the .params key");
    g16_key_release(ck);
    CHECK(g16_key_cache_read(&ck, cache_path, 0) == G16_OK, "corrupt cache rewritten: %s",
          g16_last_error());
    g16_key_release(ck);
    /* a missing .params is an error even with a good cache */
    CHECK(g16_key_load_cached(&ck, "/nonexistent/k.params", cache_path, 0) == G16_ERR_IO && !ck,
          "missing .params: %s", g16_last_error());

    free(p2file);
    free(b);
    free(file);
    free(x);
    unlink(params_path);
    unlink(params2_path);
    unlink(cache_path);
    unlink(bad_path);
    CHECK(rmdir(dir) == 0, "no temporary files left in %s", dir);
    g16_key_release(pk);
    g16_key_release(key);
    g16_key_release(key2);
    tg_density_free(&d);
    tg_free(&t);
    return g16_test_finish("io_keycache");
}
