/* JSON files through jansson, and decimal conversions (see json.h). */
#include "io/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/circom.h"

g16_status g16_json_parse(json_t **root, const char *text, size_t len, const char *name)
{
    *root = NULL;
    json_error_t e;
    /* DECODE_ANY: a top-level array or string is the caller's to refuse, with its
     * own message; REJECT_DUPLICATES: a second "pi_a" must not silently win. */
    json_t *j = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        if (json_error_code(&e) == json_error_out_of_memory)
            return g16_fail(G16_ERR_NOMEM, "%s: json: %s", name, e.text);
        return g16_fail(G16_ERR_FORMAT, "%s: line %d col %d: %s", name, e.line, e.column, e.text);
    }
    *root = j;
    return G16_OK;
}

g16_status g16_json_read_file(json_t **root, const char *path)
{
    *root = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) return g16_fail(G16_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (len < cap) break;
        if (cap >= ((size_t)1 << 30)) {
            free(buf);
            fclose(fp);
            return g16_fail(G16_ERR_FORMAT, "%s: larger than 1 GiB", path);
        }
        char *nb = realloc(buf, cap *= 2);
        if (!nb) free(buf);
        buf = nb;
    }
    int err = ferror(fp);
    fclose(fp);
    if (!buf) return g16_fail(G16_ERR_NOMEM, "%s", path);
    if (err) {
        free(buf);
        return g16_fail(G16_ERR_IO, "%s: read error", path);
    }
    g16_status s = g16_json_parse(root, buf, len, path);
    free(buf);
    return s;
}

g16_status g16_json_write_file(const json_t *root, const char *path, int indent)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return g16_fail(G16_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    int bad = json_dumpf(root, fp, JSON_INDENT(indent) | JSON_ENCODE_ANY) != 0;
    bad |= ferror(fp);
    if (fclose(fp) != 0 || bad) return g16_fail(G16_ERR_IO, "%s: write failed", path);
    return G16_OK;
}

g16_status g16_decimal_to_limbs(uint64_t *out, size_t limbs, const uint64_t *modulus, const char *s)
{
    if (!s || !*s || (s[0] == '0' && s[1]) || strspn(s, "0123456789") != strlen(s))
        return g16_fail(G16_ERR_FORMAT, "\"%.40s\" is not a decimal number", s ? s : "");
    /* a number too long for the limbs is a value >= the modulus (another curve's
     * coordinate, say), not a syntax error */
    if (strlen(s) > 20 * limbs) return g16_fail(G16_ERR_NONCANONICAL, "%.40s... is not below the modulus", s);
    uint64_t v[8] = {0};
    for (const char *q = s; *q; q++) {
        if (*q < '0' || *q > '9') return g16_fail(G16_ERR_FORMAT, "\"%.40s\" is not a decimal number", s);
        unsigned __int128 carry = (unsigned)(*q - '0');
        for (size_t i = 0; i <= limbs; i++) {
            unsigned __int128 t = (unsigned __int128)v[i] * 10 + carry;
            v[i] = (uint64_t)t;
            carry = t >> 64;
        }
        if (v[limbs]) return g16_fail(G16_ERR_NONCANONICAL, "%.40s... is not below the modulus", s);
    }
    for (size_t i = limbs; i-- > 0;) {
        if (v[i] < modulus[i]) break;
        if (v[i] > modulus[i] || i == 0)
            return g16_fail(G16_ERR_NONCANONICAL, "%.100s is not below the modulus", s);
    }
    memcpy(out, v, limbs * 8);
    return G16_OK;
}

void g16_limbs_to_decimal(char *out, const uint64_t *in, size_t limbs)
{
    uint64_t v[8];
    char tmp[8 * 20 + 1];
    size_t k = 0;
    memcpy(v, in, limbs * 8);
    for (;;) {
        /* divide by 10^19, emit 19 digits of the remainder */
        unsigned __int128 rem = 0;
        int nonzero = 0;
        for (size_t i = limbs; i-- > 0;) {
            unsigned __int128 cur = (rem << 64) | v[i];
            v[i] = (uint64_t)(cur / 10000000000000000000ull);
            rem = cur % 10000000000000000000ull;
            nonzero |= v[i] != 0;
        }
        uint64_t r = (uint64_t)rem;
        for (int d = 0; d < 19; d++) {
            tmp[k++] = (char)('0' + r % 10);
            r /= 10;
            if (!nonzero && r == 0) break;
        }
        if (!nonzero) break;
    }
    while (k > 1 && tmp[k - 1] == '0') k--;
    for (size_t i = 0; i < k; i++) out[i] = tmp[k - 1 - i];
    out[k] = 0;
}
