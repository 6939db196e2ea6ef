/* The circuit builder: constraints one at a time into growing CSR arrays, with
 * coefficients interned through an open-addressing hash table. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "r1cs/r1cs_internal.h"

/* Handles: inputs are numbered 1.. as they will be in the circuit; aux handles
 * carry this tag bit, because their final index depends on how many inputs
 * exist when the builder finishes. */
#define AUX_TAG 0x80000000u
#define MAX_KIND 0x7fffffffu

typedef struct vec {
    void *p;
    size_t len, cap, elem;
} vec;

static int vec_reserve(vec *v, size_t extra)
{
    if (v->len + extra <= v->cap) return 1;
    size_t cap = v->cap ? v->cap : 64;
    while (cap < v->len + extra) cap *= 2;
    void *p = g16_realloc(v->p, cap * v->elem);
    if (!p) return 0;
    v->p = p;
    v->cap = cap;
    return 1;
}

typedef struct mat {
    vec row_start; /* uint64_t, one per constraint (the final end is added at finish) */
    vec col;       /* uint32_t: handles until finish, indices after */
    vec coef;      /* uint32_t */
} mat;

struct g16_builder {
    vec inputs, aux; /* g16_fr values */
    mat m[3];
    vec coefs;       /* g16_fr, distinct */
    uint32_t *slots; /* hash table: coefficient index + 1, 0 = empty */
    size_t n_slots;  /* power of two */
    vec scratch;     /* g16_term, one combination being merged */
};

static void vec_init(vec *v, size_t elem)
{
    memset(v, 0, sizeof *v);
    v->elem = elem;
}

static void builder_init(g16_builder *b)
{
    memset(b, 0, sizeof *b);
    vec_init(&b->inputs, sizeof(g16_fr));
    vec_init(&b->aux, sizeof(g16_fr));
    for (int i = 0; i < 3; i++) {
        vec_init(&b->m[i].row_start, sizeof(uint64_t));
        vec_init(&b->m[i].col, sizeof(uint32_t));
        vec_init(&b->m[i].coef, sizeof(uint32_t));
    }
    vec_init(&b->coefs, sizeof(g16_fr));
    vec_init(&b->scratch, sizeof(g16_term));
}

static void builder_release(g16_builder *b)
{
    free(b->inputs.p);
    free(b->aux.p);
    for (int i = 0; i < 3; i++) {
        free(b->m[i].row_start.p);
        free(b->m[i].col.p);
        free(b->m[i].coef.p);
    }
    free(b->coefs.p);
    free(b->slots);
    free(b->scratch.p);
}

g16_status g16_builder_new(g16_builder **out)
{
    *out = g16_malloc(sizeof **out);
    if (!*out) return g16_fail(G16_ERR_NOMEM, "builder");
    builder_init(*out);
    return G16_OK;
}

void g16_builder_free(g16_builder *b)
{
    if (!b) return;
    builder_release(b);
    free(b);
}

uint64_t g16_builder_vars(const g16_builder *b) { return 1ull + b->inputs.len + b->aux.len; }
uint64_t g16_builder_constraints(const g16_builder *b) { return b->m[0].row_start.len; }

uint64_t g16_builder_var_index(const g16_builder *b, g16_var v)
{
    return (v & AUX_TAG) ? 1ull + b->inputs.len + (v & ~AUX_TAG) : v;
}

static g16_status alloc_var(vec *vals, g16_var *var, const g16_fr *value, g16_var tag,
                            const char *what)
{
    if (vals->len >= MAX_KIND) return g16_fail(G16_ERR_ARG, "more than %u %s", MAX_KIND, what);
    if (!vec_reserve(vals, 1)) return g16_fail(G16_ERR_NOMEM, "%s values", what);
    ((g16_fr *)vals->p)[vals->len] = *value;
    /* inputs count from 1: the constant one is handle 0 */
    *var = tag ? (g16_var)(tag | vals->len) : (g16_var)(vals->len + 1);
    vals->len++;
    return G16_OK;
}

g16_status g16_builder_alloc_input(g16_builder *b, g16_var *var, const g16_fr *value)
{
    return alloc_var(&b->inputs, var, value, 0, "inputs");
}

g16_status g16_builder_alloc_aux(g16_builder *b, g16_var *var, const g16_fr *value)
{
    return alloc_var(&b->aux, var, value, AUX_TAG, "aux variables");
}

/* ---------------------------------------------------------------------------
 * Coefficient interning */

static uint64_t fr_hash(const g16_fr *v)
{
    uint64_t h = v->l[0] ^ (v->l[1] * 0x9e3779b97f4a7c15ull) ^ (v->l[2] << 17) ^ v->l[3];
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

static int rehash(g16_builder *b, size_t n_slots)
{
    uint32_t *slots = g16_calloc(n_slots, sizeof *slots);
    if (!slots) return 0;
    const g16_fr *cs = b->coefs.p;
    for (size_t i = 0; i < b->coefs.len; i++) {
        size_t s = fr_hash(&cs[i]) & (n_slots - 1);
        while (slots[s]) s = (s + 1) & (n_slots - 1);
        slots[s] = (uint32_t)(i + 1);
    }
    free(b->slots);
    b->slots = slots;
    b->n_slots = n_slots;
    return 1;
}

static g16_status intern(g16_builder *b, uint32_t *index, const g16_fr *v)
{
    /* keep the table at most half full so probes stay short */
    if (2 * (b->coefs.len + 1) > b->n_slots && !rehash(b, b->n_slots ? 2 * b->n_slots : 64))
        return g16_fail(G16_ERR_NOMEM, "coefficient table");
    const g16_fr *cs = b->coefs.p;
    size_t s = fr_hash(v) & (b->n_slots - 1);
    while (b->slots[s]) {
        if (g16_fr_eq(&cs[b->slots[s] - 1], v)) {
            *index = b->slots[s] - 1;
            return G16_OK;
        }
        s = (s + 1) & (b->n_slots - 1);
    }
    if (b->coefs.len >= UINT32_MAX - 1)
        return g16_fail(G16_ERR_ARG, "more than 2^32 - 2 distinct coefficients");
    if (!vec_reserve(&b->coefs, 1)) return g16_fail(G16_ERR_NOMEM, "coefficient table");
    ((g16_fr *)b->coefs.p)[b->coefs.len] = *v;
    *index = (uint32_t)b->coefs.len;
    b->slots[s] = (uint32_t)++b->coefs.len;
    return G16_OK;
}

/* ---------------------------------------------------------------------------
 * Constraints */

static int term_cmp(const void *x, const void *y)
{
    g16_var a = ((const g16_term *)x)->var, b = ((const g16_term *)y)->var;
    return (a > b) - (a < b);
}

static int valid_handle(const g16_builder *b, g16_var v)
{
    if (v & AUX_TAG) return (v & ~AUX_TAG) < b->aux.len;
    return v <= b->inputs.len;
}

/* Sorts a copy of the terms by variable, merges equal variables, drops zeros and
 * appends the result to matrix m. */
static g16_status add_lc(g16_builder *b, mat *m, const g16_term *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!valid_handle(b, t[i].var))
            return g16_fail(G16_ERR_ARG, "term %zu names variable handle 0x%x, not allocated", i,
                            t[i].var);
    b->scratch.len = 0;
    if (!vec_reserve(&b->scratch, n)) return g16_fail(G16_ERR_NOMEM, "builder scratch");
    g16_term *s = b->scratch.p;
    if (n) memcpy(s, t, n * sizeof *t);
    if (n > 1) qsort(s, n, sizeof *s, term_cmp);
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        g16_term acc = s[i++];
        while (i < n && s[i].var == acc.var) g16_fr_add(&acc.coef, &acc.coef, &s[i++].coef);
        if (!g16_fr_is_zero(&acc.coef)) s[out++] = acc;
    }
    if (!vec_reserve(&m->row_start, 1) || !vec_reserve(&m->col, out) || !vec_reserve(&m->coef, out))
        return g16_fail(G16_ERR_NOMEM, "constraint matrices");
    ((uint64_t *)m->row_start.p)[m->row_start.len++] = m->col.len;
    uint32_t *cols = m->col.p, *coefs = m->coef.p;
    for (size_t i = 0; i < out; i++) {
        uint32_t ci = 0;
        G16_TRY(intern(b, &ci, &s[i].coef));
        cols[m->col.len++] = s[i].var;
        coefs[m->coef.len++] = ci;
    }
    return G16_OK;
}

g16_status g16_builder_enforce(g16_builder *b, const g16_term *a, size_t na, const g16_term *bt,
                               size_t nb, const g16_term *c, size_t nc)
{
    /* a failure part-way must not leave a half-added constraint behind */
    size_t saved[3][2];
    for (int i = 0; i < 3; i++) {
        saved[i][0] = b->m[i].row_start.len;
        saved[i][1] = b->m[i].col.len;
    }
    const g16_term *lcs[3] = {a, bt, c};
    size_t ns[3] = {na, nb, nc};
    for (int i = 0; i < 3; i++) {
        g16_status s = add_lc(b, &b->m[i], lcs[i], ns[i]);
        if (s != G16_OK) {
            for (int j = 0; j < 3; j++) {
                b->m[j].row_start.len = saved[j][0];
                b->m[j].col.len = b->m[j].coef.len = saved[j][1];
            }
            return s;
        }
    }
    return G16_OK;
}

/* ---------------------------------------------------------------------------
 * Finish: renumber aux handles, hand the arrays over to the circuit. */

static void *shrink(vec *v)
{
    void *p = g16_realloc(v->p, (v->len ? v->len : 1) * v->elem);
    p = p ? p : v->p;
    v->p = NULL;
    v->len = v->cap = 0;
    return p;
}

g16_status g16_builder_finish(g16_builder *b, g16_circuit **circ, g16_witness **wit)
{
    *circ = NULL;
    *wit = NULL;
    uint64_t n_pub = b->inputs.len, n_aux = b->aux.len;
    if (1 + n_pub + n_aux > UINT32_MAX)
        return g16_fail(G16_ERR_ARG, "%llu variables do not fit 32-bit indices",
                        (unsigned long long)(1 + n_pub + n_aux));
    g16_circuit *c;
    g16_witness *w;
    G16_TRY(g16_circuit_alloc_(&c));
    g16_status s = g16_witness_alloc_(&w, 1 + n_pub + n_aux, (uint32_t)n_pub);
    if (s != G16_OK) {
        free(c);
        return s;
    }
    for (int i = 0; i < 3; i++)
        if (!vec_reserve(&b->m[i].row_start, 1)) {
            free(c);
            g16_witness_destroy(w);
            return g16_fail(G16_ERR_NOMEM, "constraint matrices");
        }
    if (n_pub) memcpy(&w->z[1], b->inputs.p, n_pub * sizeof(g16_fr));
    if (n_aux) memcpy(&w->z[1 + n_pub], b->aux.p, n_aux * sizeof(g16_fr));
    c->n_pub = (uint32_t)n_pub;
    c->n_aux = (uint32_t)n_aux;
    c->n_constraints = b->m[0].row_start.len;
    c->n_coefs = (uint32_t)b->coefs.len;
    g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    for (int i = 0; i < 3; i++) {
        mat *m = &b->m[i];
        ((uint64_t *)m->row_start.p)[m->row_start.len++] = m->col.len;
        uint32_t *cols = m->col.p;
        for (size_t k = 0; k < m->col.len; k++)
            if (cols[k] & AUX_TAG) cols[k] = (uint32_t)(1 + n_pub + (cols[k] & ~AUX_TAG));
        ms[i]->row_start = shrink(&m->row_start);
        ms[i]->col = shrink(&m->col);
        ms[i]->coef = shrink(&m->coef);
    }
    c->coefs = shrink(&b->coefs);
    /* start over empty; the allocations that remain (hash table, scratch) are reused */
    free(b->inputs.p);
    free(b->aux.p);
    vec_init(&b->inputs, sizeof(g16_fr));
    vec_init(&b->aux, sizeof(g16_fr));
    free(b->slots);
    b->slots = NULL;
    b->n_slots = 0;
    *circ = c;
    *wit = w;
    return G16_OK;
}
