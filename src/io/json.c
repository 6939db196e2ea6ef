/* Small strict JSON reader and decimal conversions (see json.h). */
#include "io/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/circom.h"

typedef struct parser {
    const char *s, *end, *name;
    const char *p;
    int depth;
} parser;

static g16_status perr(const parser *ps, const char *what)
{
    int line = 1, col = 1;
    for (const char *q = ps->s; q < ps->p; q++) {
        if (*q == '\n') line++, col = 1;
        else col++;
    }
    return g16_fail(G16_ERR_FORMAT, "%s: line %d col %d: %s", ps->name, line, col, what);
}

static void ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static g16_status parse_string(parser *ps, char **out)
{
    ps->p++; /* opening quote */
    const char *start = ps->p;
    size_t len = 0;
    char *buf;
    for (const char *q = start;; q++) {
        if (q >= ps->end) return ps->p = q, perr(ps, "unterminated string");
        if (*q == '"') break;
        if ((unsigned char)*q < 0x20) return ps->p = q, perr(ps, "control character in a string");
        if (*q == '\\') q++;
        len++;
    }
    buf = malloc(len + 1);
    if (!buf) return g16_fail(G16_ERR_NOMEM, "%s: string", ps->name);
    size_t k = 0;
    while (*ps->p != '"') {
        char ch = *ps->p++;
        if (ch == '\\') {
            ch = *ps->p++;
            switch (ch) {
            case '"': case '\\': case '/': break;
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            default: free(buf); ps->p -= 2; return perr(ps, "unsupported escape in a string");
            }
        }
        buf[k++] = ch;
    }
    buf[k] = 0;
    ps->p++;
    *out = buf;
    return G16_OK;
}

static g16_status parse_value(parser *ps, g16_json *v);

static g16_status parse_container(parser *ps, g16_json *v, int object)
{
    if (++ps->depth > 64) return perr(ps, "nesting deeper than 64");
    ps->p++;
    size_t cap = 0;
    v->type = object ? G16_JSON_OBJECT : G16_JSON_ARRAY;
    ws(ps);
    if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) {
        ps->p++;
        ps->depth--;
        return G16_OK;
    }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? 2 * cap : 4;
            g16_json *nc = realloc(v->child, cap * sizeof *nc);
            if (!nc) return g16_fail(G16_ERR_NOMEM, "%s: json", ps->name);
            v->child = nc;
        }
        g16_json *c = &v->child[v->n];
        memset(c, 0, sizeof *c);
        v->n++;
        ws(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"') return perr(ps, "expected a member name");
            G16_TRY(parse_string(ps, &c->key));
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') return perr(ps, "expected ':'");
            ps->p++;
        }
        G16_TRY(parse_value(ps, c));
        ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) {
            ps->p++;
            ps->depth--;
            return G16_OK;
        }
        return perr(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static g16_status parse_value(parser *ps, g16_json *v)
{
    ws(ps);
    if (ps->p >= ps->end) return perr(ps, "expected a value");
    char ch = *ps->p;
    if (ch == '{' || ch == '[') return parse_container(ps, v, ch == '{');
    if (ch == '"') {
        v->type = G16_JSON_STRING;
        return parse_string(ps, &v->str);
    }
    static const struct { const char *lit; g16_json_type t; int b; } lits[] = {
        {"true", G16_JSON_BOOL, 1}, {"false", G16_JSON_BOOL, 0}, {"null", G16_JSON_NULL, 0}};
    for (size_t i = 0; i < 3; i++) {
        size_t l = strlen(lits[i].lit);
        if ((size_t)(ps->end - ps->p) >= l && !memcmp(ps->p, lits[i].lit, l)) {
            v->type = lits[i].t;
            v->boolean = lits[i].b;
            ps->p += l;
            return G16_OK;
        }
    }
    const char *st = ps->p;
    if (*ps->p == '-') ps->p++;
    const char *digits = ps->p;
    while (ps->p < ps->end && strchr("0123456789.eE+-", *ps->p)) ps->p++;
    if (ps->p == digits || *digits < '0' || *digits > '9') return ps->p = st, perr(ps, "expected a value");
    v->type = G16_JSON_NUMBER;
    v->str = strndup(st, (size_t)(ps->p - st));
    return v->str ? G16_OK : g16_fail(G16_ERR_NOMEM, "%s: json", ps->name);
}

static void free_contents(g16_json *v)
{
    for (size_t i = 0; i < v->n; i++) free_contents(&v->child[i]);
    free(v->child);
    free(v->str);
    free(v->key);
}

void g16_json_free(g16_json *j)
{
    if (!j) return;
    free_contents(j);
    free(j);
}

g16_status g16_json_parse(g16_json **root, const char *text, size_t len, const char *name)
{
    parser ps = {text, text + len, name, text, 0};
    g16_json *v = calloc(1, sizeof *v);
    if (!v) return g16_fail(G16_ERR_NOMEM, "%s: json", name);
    g16_status s = parse_value(&ps, v);
    if (s == G16_OK) {
        ws(&ps);
        if (ps.p != ps.end) s = perr(&ps, "text after the JSON value");
    }
    if (s != G16_OK) {
        g16_json_free(v);
        return s;
    }
    *root = v;
    return G16_OK;
}

g16_status g16_json_read_file(g16_json **root, const char *path)
{
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

const g16_json *g16_json_get(const g16_json *obj, const char *key)
{
    if (!obj || obj->type != G16_JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (!strcmp(obj->child[i].key, key)) return &obj->child[i];
    return NULL;
}

g16_status g16_decimal_to_limbs(uint64_t *out, size_t limbs, const uint64_t *modulus, const char *s)
{
    if (!s || !*s || (s[0] == '0' && s[1]) || strlen(s) > 20 * limbs)
        return g16_fail(G16_ERR_FORMAT, "\"%.40s\" is not a decimal number", s ? s : "");
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

void g16_fr_to_decimal(char out[80], const g16_fr *a)
{
    uint64_t c[4];
    g16_fr_to_canonical(c, a);
    g16_limbs_to_decimal(out, c, 4);
}
