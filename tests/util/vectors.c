#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef G16_VECTOR_DIR
#error "G16_VECTOR_DIR must be defined by the build (see CMakeLists.txt)"
#endif

struct g16_vec_file {
    FILE *fp;
    char *name;
    char *buf; /* getline buffer, reused; tokens point into it */
    size_t cap;
    long lineno;
};

g16_vec_file *g16_vec_open(const char *name)
{
    size_t n = strlen(G16_VECTOR_DIR) + 1 + strlen(name) + 1;
    char *path = malloc(n);
    g16_vec_file *f = calloc(1, sizeof *f);
    if (!path || !f) {
        free(path);
        free(f);
        fprintf(stderr, "vectors: out of memory opening %s\n", name);
        return NULL;
    }
    snprintf(path, n, "%s/%s", G16_VECTOR_DIR, name);
    f->fp = fopen(path, "r");
    if (!f->fp) {
        fprintf(stderr, "vectors: cannot open %s (run `make vectors`?)\n", path);
        free(path);
        free(f);
        return NULL;
    }
    free(path);
    f->name = strdup(name);
    return f;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int g16_vec_next(g16_vec_file *f, g16_vec_line *line)
{
    for (;;) {
        ssize_t len = getline(&f->buf, &f->cap, f->fp);
        if (len < 0) {
            if (ferror(f->fp)) {
                fprintf(stderr, "vectors: %s: read error after line %ld\n", f->name, f->lineno);
                return -1;
            }
            return 0;
        }
        f->lineno++;
        char *p = f->buf;
        while (is_space(*p)) p++;
        if (*p == 0 || *p == '#') continue;

        memset(line, 0, sizeof *line);
        line->file = f->name;
        line->lineno = f->lineno;
        int n = -1; /* -1: the op itself */
        while (*p) {
            char *start = p;
            while (*p && !is_space(*p)) p++;
            if (*p) *p++ = 0;
            if (n < 0) {
                line->op = start;
            } else if (n < G16_VEC_MAX_TOK) {
                line->tok[n] = start;
            } else {
                fprintf(stderr, "vectors: %s:%ld: more than %d operands\n", f->name, f->lineno,
                        G16_VEC_MAX_TOK);
                return -1;
            }
            n++;
            while (is_space(*p)) p++;
        }
        line->ntok = n;
        return 1;
    }
}

void g16_vec_close(g16_vec_file *f)
{
    if (!f) return;
    fclose(f->fp);
    free(f->buf);
    free(f->name);
    free(f);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long g16_vec_hex_any(const char *tok, uint8_t *out, size_t cap)
{
    if (!strcmp(tok, "-")) return 0;
    size_t n = strlen(tok);
    if (n == 0 || n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(tok[2 * i]), lo = hexval(tok[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

int g16_vec_hex(const char *tok, uint8_t *out, size_t len)
{
    if (strlen(tok) != (len ? 2 * len : 1)) return 0;
    return g16_vec_hex_any(tok, out, len) == (long)len;
}

int g16_vec_fp(const char *tok, g16_fp *out)
{
    uint8_t b[G16_FP_BYTES];
    return g16_vec_hex(tok, b, sizeof b) && g16_fp_from_be(out, b) == G16_OK;
}

int g16_vec_fr(const char *tok, g16_fr *out)
{
    uint8_t b[G16_FR_BYTES];
    return g16_vec_hex(tok, b, sizeof b) && g16_fr_from_be(out, b) == G16_OK;
}

int g16_vec_fp2(const char *tok, g16_fp2 *out)
{
    char c0[2 * G16_FP_BYTES + 1];
    const char *comma = strchr(tok, ',');
    if (!comma || comma - tok != 2 * G16_FP_BYTES) return 0;
    memcpy(c0, tok, 2 * G16_FP_BYTES);
    c0[2 * G16_FP_BYTES] = 0;
    return g16_vec_fp(c0, &out->c0) && g16_vec_fp(comma + 1, &out->c1);
}

int g16_vec_scalar(const char *tok, uint64_t out[4])
{
    uint8_t b[32];
    if (!g16_vec_hex(tok, b, sizeof b)) return 0;
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = w << 8 | b[8 * (3 - i) + j];
        out[i] = w;
    }
    return 1;
}
