/* Circuit lifetime, synthesis (a = A·z, b = B·z, c = C·z), density bitmaps and the
 * satisfaction check. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/bigmem.h"
#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "r1cs/r1cs_internal.h"

/* Rows per parallel chunk: large enough that the pool's per-chunk cost vanishes,
 * small enough that 2^20-row circuits still spread over every thread. */
#define ROW_GRAIN 4096

void g16_circuit_free(g16_circuit *c)
{
    if (!c) return;
    g16_r1cs_map *map = c->owner_;
    if (map) {
        munmap(map->base, map->len);
        free(map);
    } else {
        g16_csr *ms[3] = {&c->a, &c->b, &c->c};
        for (int i = 0; i < 3; i++) {
            free(ms[i]->row_start);
            free(ms[i]->col);
            free(ms[i]->coef);
        }
    }
    free(c->coefs);
    memset(c, 0, sizeof *c);
}

static size_t pages(uint64_t bytes)
{
    return (size_t)((bytes + 4095) / 4096 * 4096);
}

size_t g16_circuit_bytes(const g16_circuit *c)
{
    const g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    size_t total = pages((uint64_t)c->n_coefs * sizeof(g16_fr));
    for (int i = 0; i < 3; i++) {
        uint64_t nnz = g16_csr_nnz(ms[i], c->n_constraints);
        total += pages((c->n_constraints + 1) * 8) + 2 * pages(nnz * 4);
    }
    return total;
}

void g16_circuit_destroy(g16_circuit *c)
{
    g16_circuit_free(c);
    free(c);
}

g16_status g16_circuit_alloc_(g16_circuit **out)
{
    *out = g16_calloc(1, sizeof **out);
    return *out ? G16_OK : g16_fail(G16_ERR_NOMEM, "circuit handle");
}

g16_status g16_csr_alloc_(g16_csr *m, uint64_t n_rows, uint64_t nnz)
{
    memset(m, 0, sizeof *m);
    if (n_rows >= SIZE_MAX / 8 || nnz >= SIZE_MAX / 4)
        return g16_fail(G16_ERR_NOMEM, "CSR of %llu rows, %llu terms", (unsigned long long)n_rows,
                        (unsigned long long)nnz);
    /* written once in full (in parallel for PoSt's repeated sectors): 2 MiB pages from
     * 2 MiB up; one element at least, so NULL always means failure */
    m->row_start = g16_big_alloc((size_t)(n_rows + 1) * sizeof *m->row_start);
    m->col = g16_big_alloc((size_t)(nnz ? nnz : 1) * sizeof *m->col);
    m->coef = g16_big_alloc((size_t)(nnz ? nnz : 1) * sizeof *m->coef);
    if (!m->row_start || !m->col || !m->coef) {
        free(m->row_start);
        free(m->col);
        free(m->coef);
        memset(m, 0, sizeof *m);
        return g16_fail(G16_ERR_NOMEM, "CSR of %llu rows, %llu terms", (unsigned long long)n_rows,
                        (unsigned long long)nnz);
    }
    m->row_start[0] = 0;
    m->row_start[n_rows] = nnz;
    return G16_OK;
}

void g16_circuit_get_info(g16_circuit_info *out, const g16_circuit *c)
{
    memset(out, 0, sizeof *out);
    out->n_pub = c->n_pub;
    out->n_aux = c->n_aux;
    out->n_vars = g16_circuit_vars(c);
    out->n_constraints = c->n_constraints;
    out->rows = g16_circuit_rows(c);
    out->n_coefs = c->n_coefs;
    out->nnz_a = g16_csr_nnz(&c->a, c->n_constraints);
    out->nnz_b = g16_csr_nnz(&c->b, c->n_constraints);
    out->nnz_c = g16_csr_nnz(&c->c, c->n_constraints);
}

/* ---------------------------------------------------------------------------
 * Witnesses */

g16_status g16_witness_alloc_(g16_witness **out, uint64_t n, uint32_t n_pub)
{
    *out = NULL;
    if (n == 0 || n >= SIZE_MAX / sizeof(g16_fr) || n < 1ull + n_pub)
        return g16_fail(G16_ERR_ARG, "witness of %llu values with %u inputs",
                        (unsigned long long)n, n_pub);
    g16_witness *w = g16_calloc(1, sizeof *w);
    if (!w) return g16_fail(G16_ERR_NOMEM, "witness handle");
    /* a large witness is written once by many threads: zeroed 2 MiB pages, no serial memset */
    size_t bytes = (size_t)n * sizeof *w->z;
    w->z = bytes >= ((size_t)2 << 20) ? g16_big_map(bytes, &w->z_map) : NULL;
    if (!w->z) w->z = g16_calloc((size_t)n, sizeof *w->z);
    if (!w->z) {
        free(w);
        return g16_fail(G16_ERR_NOMEM, "witness of %llu values", (unsigned long long)n);
    }
    w->n = n;
    w->n_pub = n_pub;
    g16_fr_set_one(&w->z[0]);
    *out = w;
    return G16_OK;
}

void g16_witness_destroy(g16_witness *w)
{
    if (!w) return;
    if (w->z_map) g16_big_unmap(w->z, w->z_map);
    else free(w->z);
    free(w);
}

uint64_t g16_witness_len(const g16_witness *w) { return w->n; }
uint32_t g16_witness_pub(const g16_witness *w) { return w->n_pub; }

g16_status g16_witness_get(uint8_t out32[32], const g16_witness *w, uint64_t i)
{
    if (i >= w->n)
        return g16_fail(G16_ERR_ARG, "witness value %llu of %llu", (unsigned long long)i,
                        (unsigned long long)w->n);
    g16_fr_to_be(out32, &w->z[i]);
    return G16_OK;
}

/* ---------------------------------------------------------------------------
 * Satisfaction: every chunk finds its own first failing row, the lowest wins. */

typedef struct sat_ctx {
    const g16_circuit *circ;
    const g16_fr *z;
    const uint8_t *kinds;
    _Atomic uint64_t first_bad; /* UINT64_MAX: none yet */
} sat_ctx;

static void eval_three(g16_fr v[3], const g16_circuit *circ, uint64_t r, const uint8_t *kinds,
                       const g16_fr *z)
{
    if (r < circ->n_constraints) {
        g16_r1cs_eval_row_(&v[0], &circ->a, r, circ->coefs, kinds, z);
        g16_r1cs_eval_row_(&v[1], &circ->b, r, circ->coefs, kinds, z);
        g16_r1cs_eval_row_(&v[2], &circ->c, r, circ->coefs, kinds, z);
    } else {
        v[0] = z[r - circ->n_constraints];
        g16_fr_set_zero(&v[1]);
        g16_fr_set_zero(&v[2]);
    }
}

static void sat_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    sat_ctx *x = vctx;
    g16_fr v[3], ab;
    for (uint64_t r = begin; r < end; r++) {
        if (r >= atomic_load_explicit(&x->first_bad, memory_order_relaxed)) return;
        eval_three(v, x->circ, r, x->kinds, x->z);
        g16_fr_mul(&ab, &v[0], &v[1]);
        if (!g16_fr_eq(&ab, &v[2])) {
            uint64_t cur = atomic_load_explicit(&x->first_bad, memory_order_relaxed);
            while (r < cur && !atomic_compare_exchange_weak(&x->first_bad, &cur, r)) {
            }
            return;
        }
    }
}

static void fr_hex(char out[67], const g16_fr *v)
{
    static const char digits[] = "0123456789abcdef";
    uint8_t be[32];
    g16_fr_to_be(be, v);
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < 32; i++) {
        out[2 + 2 * i] = digits[be[i] >> 4];
        out[3 + 2 * i] = digits[be[i] & 15];
    }
    out[66] = 0;
}

g16_status g16_circuit_is_satisfied(const g16_circuit *circ, const g16_fr *z, size_t n_z)
{
    G16_TRY(g16_r1cs_check_z_(circ, z, n_z));
    uint8_t *kinds;
    G16_TRY(g16_r1cs_coef_kinds_(&kinds, circ));
    sat_ctx x = {circ, z, kinds, UINT64_MAX};
    g16_parallel_for((size_t)g16_circuit_rows(circ), ROW_GRAIN, sat_range, &x);
    uint64_t r = atomic_load(&x.first_bad);
    if (r == UINT64_MAX) {
        free(kinds);
        return G16_OK;
    }
    g16_fr v[3];
    eval_three(v, circ, r, kinds, z);
    free(kinds);
    char ha[67], hb[67], hc[67];
    fr_hex(ha, &v[0]);
    fr_hex(hb, &v[1]);
    fr_hex(hc, &v[2]);
    if (r < circ->n_constraints)
        return g16_fail(G16_ERR_UNSATISFIED, "constraint %llu is not satisfied: a·z = %s, b·z = %s, c·z = %s",
                        (unsigned long long)r, ha, hb, hc);
    return g16_fail(G16_ERR_UNSATISFIED, "input row %llu is not satisfied: a·z = %s, b·z = %s, c·z = %s",
                    (unsigned long long)(r - circ->n_constraints), ha, hb, hc);
}

g16_status g16_circuit_check(const g16_circuit *c, const g16_witness *w)
{
    if (w->n_pub != c->n_pub)
        return g16_fail(G16_ERR_ARG, "witness has %u public inputs, the circuit %u", w->n_pub,
                        c->n_pub);
    return g16_circuit_is_satisfied(c, w->z, (size_t)w->n);
}

/* ---------------------------------------------------------------------------
 * Density: chunks of rows set bits with atomic ORs (a word is read first, so
 * bits already set cost no write traffic). */

typedef struct dens_ctx {
    const g16_circuit *circ;
    uint64_t *aux_in_a, *inputs_in_b, *aux_in_b;
} dens_ctx;

static void set_bit(uint64_t *bits, uint64_t i)
{
    uint64_t m = 1ull << (i & 63);
    if (!(__atomic_load_n(&bits[i >> 6], __ATOMIC_RELAXED) & m))
        __atomic_fetch_or(&bits[i >> 6], m, __ATOMIC_RELAXED);
}

static void dens_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const dens_ctx *x = vctx;
    const g16_circuit *circ = x->circ;
    uint64_t first_aux = 1ull + circ->n_pub;
    const g16_csr *a = &circ->a, *b = &circ->b;
    for (uint64_t k = a->row_start[begin], e = a->row_start[end]; k < e; k++)
        if (a->col[k] >= first_aux) set_bit(x->aux_in_a, a->col[k] - first_aux);
    for (uint64_t k = b->row_start[begin], e = b->row_start[end]; k < e; k++) {
        uint32_t v = b->col[k];
        if (v >= first_aux)
            set_bit(x->aux_in_b, v - first_aux);
        else
            set_bit(x->inputs_in_b, v);
    }
}

static uint64_t popcount_bits(const uint64_t *bits, uint64_t n)
{
    uint64_t s = 0;
    for (uint64_t i = 0; i < (n + 63) / 64; i++) s += (uint64_t)__builtin_popcountll(bits[i]);
    return s;
}

g16_status g16_circuit_density(g16_density *out, const g16_circuit *c)
{
    memset(out, 0, sizeof *out);
    size_t aux_words = ((size_t)c->n_aux + 63) / 64 + 1, in_words = ((size_t)c->n_pub + 1 + 63) / 64;
    out->aux_in_a = g16_calloc(aux_words, 8);
    out->aux_in_b = g16_calloc(aux_words, 8);
    out->inputs_in_b = g16_calloc(in_words, 8);
    if (!out->aux_in_a || !out->aux_in_b || !out->inputs_in_b) {
        g16_density_free(out);
        return g16_fail(G16_ERR_NOMEM, "density bitmaps for %u aux variables", c->n_aux);
    }
    dens_ctx x = {c, out->aux_in_a, out->inputs_in_b, out->aux_in_b};
    g16_parallel_for((size_t)c->n_constraints, ROW_GRAIN, dens_range, &x);
    out->n_aux_in_a = popcount_bits(out->aux_in_a, c->n_aux);
    out->n_aux_in_b = popcount_bits(out->aux_in_b, c->n_aux);
    out->n_inputs_in_b = popcount_bits(out->inputs_in_b, 1ull + c->n_pub);
    return G16_OK;
}

void g16_density_free(g16_density *d)
{
    if (!d) return;
    free(d->aux_in_a);
    free(d->inputs_in_b);
    free(d->aux_in_b);
    memset(d, 0, sizeof *d);
}
