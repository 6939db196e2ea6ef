/* Helpers shared by the Groth16 tests: random satisfiable circuits built directly
 * as CSR structs (independent of the r1cs layer's builder), a naive synthesis
 * and density scan to compare against, and a prove-everything shortcut. */
#ifndef G16_TEST_GROTH16_UTIL_H
#define G16_TEST_GROTH16_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"

static inline void tg_rand_fr(g16_fr *r, g16_rng *rng)
{
    uint8_t b[64];
    for (int i = 0; i < 64; i += 8) {
        uint64_t v = g16_rng_u64(rng);
        memcpy(b + i, &v, 8);
    }
    g16_fr_from_be_reduce(r, b, 64);
}

/* Values are 0/1 about a third of the time, like real witnesses. */
static inline void tg_rand_val(g16_fr *r, g16_rng *rng)
{
    uint64_t k = g16_rng_u64(rng) % 6;
    if (k == 0)
        g16_fr_set_zero(r);
    else if (k == 1)
        g16_fr_set_one(r);
    else
        tg_rand_fr(r, rng);
}

typedef struct tg_circ {
    g16_circuit c;
    g16_fr *z;
    uint64_t n_z;
} tg_circ;

/* Random circuit: row i multiplies two random combinations of assigned variables
 * and its C side is a new aux variable (so every aux variable is constrained);
 * when extra_aux > 0 the first constraints are instead bit checks x·x = x of
 * preassigned boolean aux variables.  Coefficients come from a small table. */
static inline void tg_make(tg_circ *t, g16_rng *rng, uint32_t n_pub, uint64_t n_constraints)
{
    memset(t, 0, sizeof *t);
    g16_circuit *c = &t->c;
    c->n_pub = n_pub;
    c->n_aux = (uint32_t)n_constraints;
    c->n_constraints = n_constraints;
    c->n_coefs = 4;
    c->coefs = malloc(4 * sizeof(g16_fr));
    g16_fr_set_one(&c->coefs[0]);
    g16_fr_neg(&c->coefs[1], &c->coefs[0]);
    g16_fr_from_u64(&c->coefs[2], 2);
    tg_rand_fr(&c->coefs[3], rng);
    uint64_t n_vars = g16_circuit_vars(c);
    t->n_z = n_vars;
    t->z = calloc(n_vars, sizeof(g16_fr));
    g16_fr_set_one(&t->z[0]);
    for (uint32_t i = 1; i <= n_pub; i++) tg_rand_val(&t->z[i], rng);
    g16_csr *m[3] = {&c->a, &c->b, &c->c};
    for (int k = 0; k < 3; k++) {
        m[k]->row_start = calloc(n_constraints + 1, 8);
        m[k]->col = malloc((4 * n_constraints + 1) * 4);
        m[k]->coef = malloc((4 * n_constraints + 1) * 4);
    }
    uint64_t nnz[3] = {0, 0, 0};
    for (uint64_t r = 0; r < n_constraints; r++) {
        uint64_t assigned = 1 + n_pub + r; /* variables with values so far */
        uint64_t out = assigned;           /* the new aux variable */
        g16_fr side[2];
        for (int k = 0; k < 2; k++) {
            g16_fr_set_zero(&side[k]);
            /* B is sparser than A, as in real circuits; terms of a row are distinct */
            unsigned nt = 1 + (unsigned)(g16_rng_u64(rng) % (k == 0 ? 3 : 2));
            uint64_t used[3];
            unsigned got = 0;
            for (unsigned j = 0; j < nt; j++) {
                uint64_t v = g16_rng_u64(rng) % assigned;
                int dup = 0;
                for (unsigned q = 0; q < got; q++) dup |= used[q] == v;
                if (dup) continue;
                used[got++] = v;
                uint32_t ci = (uint32_t)(g16_rng_u64(rng) % 4);
                m[k]->col[nnz[k]] = (uint32_t)v;
                m[k]->coef[nnz[k]] = ci;
                nnz[k]++;
                g16_fr tt;
                g16_fr_mul(&tt, &c->coefs[ci], &t->z[v]);
                g16_fr_add(&side[k], &side[k], &tt);
            }
            m[k]->row_start[r + 1] = nnz[k];
        }
        g16_fr_mul(&t->z[out], &side[0], &side[1]);
        m[2]->col[nnz[2]] = (uint32_t)out;
        m[2]->coef[nnz[2]] = 0;
        nnz[2]++;
        m[2]->row_start[r + 1] = nnz[2];
    }
}

static inline void tg_free(tg_circ *t)
{
    g16_csr *m[3] = {&t->c.a, &t->c.b, &t->c.c};
    for (int k = 0; k < 3; k++) {
        free(m[k]->row_start);
        free(m[k]->col);
        free(m[k]->coef);
    }
    free(t->c.coefs);
    free(t->z);
}

/* Naive synthesis over all rows (the input rows included). */
static inline void tg_synth(g16_fr *a, g16_fr *b, g16_fr *c, const tg_circ *t)
{
    const g16_circuit *ci = &t->c;
    const g16_csr *m[3] = {&ci->a, &ci->b, &ci->c};
    g16_fr *o[3] = {a, b, c};
    uint64_t rows = g16_circuit_rows(ci);
    for (int k = 0; k < 3; k++) {
        for (uint64_t r = 0; r < ci->n_constraints; r++) {
            g16_fr_set_zero(&o[k][r]);
            for (uint64_t q = m[k]->row_start[r]; q < m[k]->row_start[r + 1]; q++) {
                g16_fr tt;
                g16_fr_mul(&tt, &ci->coefs[m[k]->coef[q]], &t->z[m[k]->col[q]]);
                g16_fr_add(&o[k][r], &o[k][r], &tt);
            }
        }
        for (uint64_t r = ci->n_constraints; r < rows; r++) {
            if (k == 0)
                o[k][r] = t->z[r - ci->n_constraints];
            else
                g16_fr_set_zero(&o[k][r]);
        }
    }
}

static inline void tg_density(g16_density *d, const tg_circ *t)
{
    const g16_circuit *c = &t->c;
    uint64_t n_in = 1ull + c->n_pub;
    memset(d, 0, sizeof *d);
    d->aux_in_a = calloc(c->n_aux / 64 + 1, 8);
    d->aux_in_b = calloc(c->n_aux / 64 + 1, 8);
    d->inputs_in_b = calloc(n_in / 64 + 1, 8);
    for (int k = 0; k < 2; k++) {
        const g16_csr *m = k == 0 ? &c->a : &c->b;
        for (uint64_t q = 0; q < m->row_start[c->n_constraints]; q++) {
            uint64_t v = m->col[q];
            uint64_t *bits = v < n_in ? (k == 1 ? d->inputs_in_b : NULL)
                                      : (k == 0 ? d->aux_in_a : d->aux_in_b);
            if (!bits) continue;
            uint64_t i = v < n_in ? v : v - n_in;
            bits[i >> 6] |= 1ull << (i & 63);
        }
    }
    for (uint64_t i = 0; i < c->n_aux; i++) {
        d->n_aux_in_a += g16_bit(d->aux_in_a, i);
        d->n_aux_in_b += g16_bit(d->aux_in_b, i);
    }
    for (uint64_t i = 0; i < n_in; i++) d->n_inputs_in_b += g16_bit(d->inputs_in_b, i);
}

static inline void tg_density_free(g16_density *d)
{
    free(d->aux_in_a);
    free(d->aux_in_b);
    free(d->inputs_in_b);
}

/* A prove_start input for t: fresh heap a, b, c (synthesised), its density and z. */
static inline g16_prove_input tg_input(const tg_circ *t, const g16_density *d)
{
    uint64_t rows = g16_circuit_rows(&t->c);
    g16_prove_input in = {0};
    in.density = d;
    in.a = malloc(rows * sizeof(g16_fr));
    in.b = malloc(rows * sizeof(g16_fr));
    in.c = malloc(rows * sizeof(g16_fr));
    tg_synth(in.a, in.b, in.c, t);
    in.n_rows = rows;
    in.z = t->z;
    in.n_z = t->n_z;
    return in;
}

/* Synthesises, then proves through the split API with r, s from rs (NULL: random). */
static inline g16_status tg_prove(uint8_t proof[G16_PROOF_BYTES], g16_key *key, const tg_circ *t,
                           const g16_density *d, const uint8_t *rs)
{
    g16_prove_input in = tg_input(t, d);
    in.rs = rs;
    g16_pending *p;
    g16_status st = g16_prove_start(&p, key, &in);
    if (st) return st;
    return g16_prove_finish(proof, p);
}

/* Public inputs of t as 32-byte big-endian values. */
static inline uint8_t *tg_inputs(const tg_circ *t)
{
    uint8_t *x = malloc(32 * (size_t)t->c.n_pub + 1);
    for (uint32_t i = 0; i < t->c.n_pub; i++) g16_fr_to_be(x + 32 * i, &t->z[1 + i]);
    return x;
}

#endif
