/* Synthesis: a = A·z, b = B·z, c = C·z over the CSR matrices, each term by the
 * cheapest means its coefficient allows.
 *
 * Real circuits' coefficients are mostly ±1 and small constants (bit packing
 * uses 2^i): a Montgomery product costs about as much as five to eight modular
 * additions, so a term with coefficient ±k, k small, is k·v by doublings and
 * additions (k = 2^i: i doublings), ±1 a plain addition or subtraction, and only
 * the other coefficients a product.  Modular arithmetic is exact, so every path
 * gives the same canonical value as the product would: results are bit-identical
 * to g16_synthesize_ref_ (tests/unit/test_r1cs_eval.c). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "r1cs/r1cs_internal.h"

/* Rows per parallel chunk: large enough that the pool's per-chunk cost vanishes,
 * small enough that 2^20-row circuits still spread over every thread. */
#define ROW_GRAIN 4096

/* The row's sum stays in four registers, the limbs of a value < r.  Through
 * g16_fr_add (two calls a term) or a g16_fr in memory (whose limb-wise stores and
 * whole-struct copies stall store forwarding: 15% of the loop in perf) a term cost
 * more than its addition. */
typedef struct acc4 {
    uint64_t l0, l1, l2, l3;
} acc4;

#if defined(__x86_64__) && defined(__GNUC__)
#define R0 0xffffffff00000001ULL
#define R1 0x53bda402fffe5bfeULL
#define R2 0x3339d80809a1d805ULL
#define R3 0x73eda753299d7d48ULL

/* s = s + b mod r (s, b < r): add, subtract r, keep the sum on a borrow */
static inline __attribute__((always_inline)) void acc_add(acc4 *s, uint64_t b0, uint64_t b1,
                                                          uint64_t b2, uint64_t b3)
{
    uint64_t t0 = s->l0, t1 = s->l1, t2 = s->l2, t3 = s->l3;
    __asm__("addq %[b0], %[t0]\n\t"
            "adcq %[b1], %[t1]\n\t"
            "adcq %[b2], %[t2]\n\t"
            "adcq %[b3], %[t3]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3)
            : [b0] "rm"(b0), [b1] "rm"(b1), [b2] "rm"(b2), [b3] "rm"(b3)
            : "cc");
    uint64_t u0 = t0, u1 = t1, u2 = t2, u3 = t3;
    __asm__("subq %[p0], %[u0]\n\t"
            "sbbq %[p1], %[u1]\n\t"
            "sbbq %[p2], %[u2]\n\t"
            "sbbq %[p3], %[u3]\n\t"
            "cmovcq %[t0], %[u0]\n\t"
            "cmovcq %[t1], %[u1]\n\t"
            "cmovcq %[t2], %[u2]\n\t"
            "cmovcq %[t3], %[u3]"
            : [u0] "+&r"(u0), [u1] "+&r"(u1), [u2] "+&r"(u2), [u3] "+&r"(u3)
            : [t0] "r"(t0), [t1] "r"(t1), [t2] "r"(t2), [t3] "r"(t3), [p0] "r"(R0), [p1] "r"(R1),
              [p2] "r"(R2), [p3] "r"(R3)
            : "cc");
    s->l0 = u0, s->l1 = u1, s->l2 = u2, s->l3 = u3;
}

/* s = s − b mod r: subtract, add r back masked by the borrow */
static inline __attribute__((always_inline)) void acc_sub(acc4 *s, uint64_t b0, uint64_t b1,
                                                          uint64_t b2, uint64_t b3)
{
    uint64_t t0 = s->l0, t1 = s->l1, t2 = s->l2, t3 = s->l3, m;
    __asm__("subq %[b0], %[t0]\n\t"
            "sbbq %[b1], %[t1]\n\t"
            "sbbq %[b2], %[t2]\n\t"
            "sbbq %[b3], %[t3]\n\t"
            "sbbq %[m], %[m]"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [m] "=&r"(m)
            : [b0] "rm"(b0), [b1] "rm"(b1), [b2] "rm"(b2), [b3] "rm"(b3)
            : "cc");
    uint64_t q0 = R0 & m, q1 = R1 & m, q2 = R2 & m, q3 = R3 & m;
    __asm__("addq %[q0], %[t0]\n\t"
            "adcq %[q1], %[t1]\n\t"
            "adcq %[q2], %[t2]\n\t"
            "adcq %[q3], %[t3]"
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3)
            : [q0] "r"(q0), [q1] "r"(q1), [q2] "r"(q2), [q3] "r"(q3)
            : "cc");
    s->l0 = t0, s->l1 = t1, s->l2 = t2, s->l3 = t3;
}
#else
static inline void acc_add(acc4 *s, uint64_t b0, uint64_t b1, uint64_t b2, uint64_t b3)
{
    g16_fr x = {{s->l0, s->l1, s->l2, s->l3}}, y = {{b0, b1, b2, b3}};
    g16_fr_add(&x, &x, &y);
    s->l0 = x.l[0], s->l1 = x.l[1], s->l2 = x.l[2], s->l3 = x.l[3];
}

static inline void acc_sub(acc4 *s, uint64_t b0, uint64_t b1, uint64_t b2, uint64_t b3)
{
    g16_fr x = {{s->l0, s->l1, s->l2, s->l3}}, y = {{b0, b1, b2, b3}};
    g16_fr_sub(&x, &x, &y);
    s->l0 = x.l[0], s->l1 = x.l[1], s->l2 = x.l[2], s->l3 = x.l[3];
}
#endif

g16_status g16_r1cs_coef_kinds_(uint8_t **kinds, const g16_circuit *c)
{
    *kinds = g16_malloc(c->n_coefs ? c->n_coefs : 1);
    if (!*kinds) return g16_fail(G16_ERR_NOMEM, "coefficient kinds (%u)", c->n_coefs);
    for (uint32_t i = 0; i < c->n_coefs; i++) {
        uint64_t v[4], m[4];
        g16_fr neg;
        g16_fr_to_canonical(v, &c->coefs[i]);
        g16_fr_neg(&neg, &c->coefs[i]);
        g16_fr_to_canonical(m, &neg);
        uint8_t k = G16_COEF_MUL;
        if (!v[1] && !v[2] && !v[3] && v[0] && v[0] <= G16_COEF_SMALL_MAX)
            k = (uint8_t)v[0];
        else if (!m[1] && !m[2] && !m[3] && m[0] && m[0] <= G16_COEF_SMALL_MAX)
            k = (uint8_t)(G16_COEF_NEG | m[0]);
        (*kinds)[i] = k;
    }
    return G16_OK;
}

/* t = k·v for 2 <= k <= G16_COEF_SMALL_MAX: left-to-right doublings and additions. */
static inline __attribute__((always_inline)) acc4 mul_small(const g16_fr *v, unsigned k)
{
    acc4 t = {v->l[0], v->l[1], v->l[2], v->l[3]};
    for (int b = 30 - __builtin_clz(k); b >= 0; b--) {
        acc_add(&t, t.l0, t.l1, t.l2, t.l3);
        if (k >> b & 1) acc_add(&t, v->l[0], v->l[1], v->l[2], v->l[3]);
    }
    return t;
}

void g16_r1cs_eval_row_(g16_fr *acc, const g16_csr *m, uint64_t r, const g16_fr *coefs,
                        const uint8_t *kinds, const g16_fr *z)
{
    uint64_t k = m->row_start[r], e = m->row_start[r + 1];
    acc4 s = {0, 0, 0, 0};
    /* the first term of most rows has coefficient 1: it starts the sum as is */
    if (k < e && kinds[m->coef[k]] == G16_COEF_ONE) {
        const g16_fr *v = &z[m->col[k++]];
        s = (acc4){v->l[0], v->l[1], v->l[2], v->l[3]};
    }
    for (; k < e; k++) {
        const g16_fr *v = &z[m->col[k]];
        uint32_t ci = m->coef[k];
        unsigned kind = kinds[ci];
        if (kind == G16_COEF_ONE) {
            acc_add(&s, v->l[0], v->l[1], v->l[2], v->l[3]);
        } else if (kind == G16_COEF_MINUS_ONE) {
            acc_sub(&s, v->l[0], v->l[1], v->l[2], v->l[3]);
        } else if (kind == G16_COEF_MUL) {
            g16_fr t;
            g16_fr_mul(&t, &coefs[ci], v);
            acc_add(&s, t.l[0], t.l[1], t.l[2], t.l[3]);
        } else {
            acc4 t = mul_small(v, kind & ~G16_COEF_NEG);
            if (kind & G16_COEF_NEG)
                acc_sub(&s, t.l0, t.l1, t.l2, t.l3);
            else
                acc_add(&s, t.l0, t.l1, t.l2, t.l3);
        }
    }
    acc->l[0] = s.l0, acc->l[1] = s.l1, acc->l[2] = s.l2, acc->l[3] = s.l3;
}

/* Every term as a Montgomery product: the reference the classes must equal. */
static void eval_row_ref(g16_fr *acc, const g16_csr *m, uint64_t r, const g16_fr *coefs,
                         const g16_fr *z)
{
    g16_fr t;
    g16_fr_set_zero(acc);
    for (uint64_t k = m->row_start[r], e = m->row_start[r + 1]; k < e; k++) {
        g16_fr_mul(&t, &coefs[m->coef[k]], &z[m->col[k]]);
        g16_fr_add(acc, acc, &t);
    }
}

g16_status g16_r1cs_check_z_(const g16_circuit *circ, const g16_fr *z, size_t n_z)
{
    if (n_z != g16_circuit_vars(circ))
        return g16_fail(G16_ERR_ARG, "assignment has %zu values, the circuit %llu variables", n_z,
                        (unsigned long long)g16_circuit_vars(circ));
    if (!g16_fr_is_one(&z[0])) return g16_fail(G16_ERR_ARG, "assignment value 0 is not one");
    return G16_OK;
}

typedef struct synth_ctx {
    const g16_circuit *circ;
    const g16_fr *z;
    const uint8_t *kinds; /* NULL: the reference (every term a product) */
    g16_fr *a, *b, *c;
} synth_ctx;

static void synth_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const synth_ctx *x = vctx;
    const g16_circuit *circ = x->circ;
    uint64_t n = circ->n_constraints;
    uint64_t stop = end < n ? end : n;
    for (uint64_t r = begin; r < stop; r++) {
        if (x->kinds) {
            g16_r1cs_eval_row_(&x->a[r], &circ->a, r, circ->coefs, x->kinds, x->z);
            g16_r1cs_eval_row_(&x->b[r], &circ->b, r, circ->coefs, x->kinds, x->z);
            g16_r1cs_eval_row_(&x->c[r], &circ->c, r, circ->coefs, x->kinds, x->z);
        } else {
            eval_row_ref(&x->a[r], &circ->a, r, circ->coefs, x->z);
            eval_row_ref(&x->b[r], &circ->b, r, circ->coefs, x->z);
            eval_row_ref(&x->c[r], &circ->c, r, circ->coefs, x->z);
        }
    }
    for (uint64_t r = begin > n ? begin : n; r < end; r++) {
        /* bellperson's per-input row: input_i · 0 = 0 */
        x->a[r] = x->z[r - n];
        g16_fr_set_zero(&x->b[r]);
        g16_fr_set_zero(&x->c[r]);
    }
}

static g16_status synthesize(g16_fr *a, g16_fr *b, g16_fr *c, const g16_circuit *circ,
                             const g16_fr *z, size_t n_z, int ref)
{
    G16_TRY(g16_r1cs_check_z_(circ, z, n_z));
    synth_ctx x = {circ, z, NULL, a, b, c};
    uint8_t *kinds = NULL;
    if (!ref) G16_TRY(g16_r1cs_coef_kinds_(&kinds, circ));
    x.kinds = kinds;
    g16_parallel_for((size_t)g16_circuit_rows(circ), ROW_GRAIN, synth_range, &x);
    free(kinds);
    return G16_OK;
}

g16_status g16_synthesize(g16_fr *a, g16_fr *b, g16_fr *c, const g16_circuit *circ,
                          const g16_fr *z, size_t n_z)
{
    return synthesize(a, b, c, circ, z, n_z, 0);
}

g16_status g16_synthesize_ref_(g16_fr *a, g16_fr *b, g16_fr *c, const g16_circuit *circ,
                               const g16_fr *z, size_t n_z)
{
    return synthesize(a, b, c, circ, z, n_z, 1);
}
