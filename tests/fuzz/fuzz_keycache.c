/* .g16k key caches through g16_key_cache_read (checksums on and G16_KEY_CACHE_TRUST) and
 * g16_key_cache_info_read.  A mutated file almost never keeps its XXH3 header checksum, so
 * each input is also read a second time with its checksums made right (the header's and, for
 * a one-chunk payload, the chunk table's): the search then reaches the layout checks behind
 * them.  On success: the key's counts are the header's, and info agrees with read. */
#include <stddef.h>
#include <string.h>
#include <xxhash.h>

#include "fuzz_util.h"
#include "g16_groth16.h"

#define HDR 1080     /* sizeof(kc_header): the layout is the file format (src/io/keycache.c) */
#define OFF_HASH 24
#define OFF_FILE 32  /* file_bytes, header_bytes, chunk_bytes, n_chunks follow */

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Rewrites the checksums of buf so that only the fields behind them decide. */
static void fix_sums(uint8_t *buf, size_t size)
{
    if (size < HDR) return;
    uint64_t hb = get64(buf + OFF_FILE + 8), cb = get64(buf + OFF_FILE + 16), nc = get64(buf + OFF_FILE + 24);
    if (hb < HDR || hb > size) return;
    if (nc == 1 && (hb - HDR) >= 8 && cb) {
        uint64_t len = size - hb < cb ? size - hb : cb;
        uint64_t v = XXH3_64bits(buf + hb, (size_t)len);
        memcpy(buf + HDR, &v, 8);
    }
    static const uint8_t zero[8];
    XXH3_state_t *st = XXH3_createState();
    if (!st) return;
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, buf, OFF_HASH);
    XXH3_64bits_update(st, zero, 8);
    XXH3_64bits_update(st, buf + OFF_FILE, (size_t)hb - OFF_FILE);
    uint64_t h = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    memcpy(buf + OFF_HASH, &h, 8);
}

static void read_all(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    g16_key_cache_info info;
    g16_status si = g16_key_cache_info_read(&info, path);
    for (int trust = 0; trust < 2; trust++) {
        g16_key *k = NULL;
        g16_status s = g16_key_cache_read(&k, path, trust ? G16_KEY_CACHE_TRUST : 0);
        if (s != G16_OK) continue;
        FUZZ_CHECK(si == G16_OK, "read accepted what info refused: %s", g16_last_error());
        g16_key_info ki;
        g16_key_get_info(&ki, k);
        FUZZ_CHECK(ki.n_ic == info.n_ic && ki.n_h == info.n_h && ki.n_l == info.n_l && ki.n_a == info.n_a && ki.n_b_g1 == info.n_b_g1 &&
                       ki.n_b_g2 == info.n_b_g2,
                   "the key's counts are not the header's");
        FUZZ_CHECK(info.file_bytes == size, "info: %llu bytes, file %zu", (unsigned long long)info.file_bytes, size);
        g16_key_release(k);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size);
    if (size >= HDR) {
        uint8_t *copy = malloc(size);
        if (!copy) return 0;
        memcpy(copy, data, size);
        fix_sums(copy, size);
        if (memcmp(copy, data, size)) read_all(copy, size);
        free(copy);
    }
    return 0;
}
