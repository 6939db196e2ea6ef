/* Synthesis, density and the satisfaction check against naive per-row
 * evaluation; the generator's circuits are satisfied and have their profile's
 * shape. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "common/error.h"
#include "r1cs/r1cs.h"

static g16_rng rng;

/* Row r of m times z, with a plain product for every term (no shortcuts). */
static void naive_row(g16_fr *acc, const g16_circuit *c, const g16_csr *m, uint64_t r,
                      const g16_fr *z)
{
    g16_fr t;
    g16_fr_set_zero(acc);
    for (uint64_t k = m->row_start[r]; k < m->row_start[r + 1]; k++) {
        g16_fr_mul(&t, &c->coefs[m->coef[k]], &z[m->col[k]]);
        g16_fr_add(acc, acc, &t);
    }
}

/* a, b, c the way SYSTEM.md §1 defines them, input rows included. */
static void naive_synth(g16_fr *a, g16_fr *b, g16_fr *cc, const g16_circuit *c, const g16_fr *z)
{
    for (uint64_t r = 0; r < c->n_constraints; r++) {
        naive_row(&a[r], c, &c->a, r, z);
        naive_row(&b[r], c, &c->b, r, z);
        naive_row(&cc[r], c, &c->c, r, z);
    }
    for (uint64_t i = 0; i <= c->n_pub; i++) {
        a[c->n_constraints + i] = z[i];
        g16_fr_set_zero(&b[c->n_constraints + i]);
        g16_fr_set_zero(&cc[c->n_constraints + i]);
    }
}

/* Synthesis equals the naive evaluation; returns the first row where a·b != c
 * (UINT64_MAX when every row holds). */
static uint64_t check_synth(const g16_circuit *c, const g16_fr *z, const char *what)
{
    uint64_t rows = g16_circuit_rows(c);
    g16_fr *v = malloc(6 * rows * sizeof *v);
    g16_fr *a = v, *b = v + rows, *cc = v + 2 * rows, *na = v + 3 * rows, *nb = v + 4 * rows,
           *nc = v + 5 * rows;
    g16_status s = g16_synthesize(a, b, cc, c, z, (size_t)g16_circuit_vars(c));
    CHECK(s == G16_OK, "%s: synthesize: %s", what, g16_last_error());
    naive_synth(na, nb, nc, c, z);
    uint64_t diff = 0, first_bad = UINT64_MAX;
    for (uint64_t r = 0; r < rows; r++) {
        if (!g16_fr_eq(&a[r], &na[r]) || !g16_fr_eq(&b[r], &nb[r]) || !g16_fr_eq(&cc[r], &nc[r]))
            diff++;
        g16_fr ab;
        g16_fr_mul(&ab, &na[r], &nb[r]);
        if (first_bad == UINT64_MAX && !g16_fr_eq(&ab, &nc[r])) first_bad = r;
    }
    CHECK(diff == 0, "%s: %llu of %llu rows differ from the naive evaluation", what,
          (unsigned long long)diff, (unsigned long long)rows);
    free(v);
    return first_bad;
}

static void check_density(const g16_circuit *c, const char *what)
{
    g16_density d;
    CHECK(g16_circuit_density(&d, c) == G16_OK, "%s: density: %s", what, g16_last_error());
    uint64_t nv = g16_circuit_vars(c), first_aux = 1ull + c->n_pub;
    uint8_t *in_a = calloc(nv, 1), *in_b = calloc(nv, 1);
    for (uint64_t k = 0; k < c->a.row_start[c->n_constraints]; k++) in_a[c->a.col[k]] = 1;
    for (uint64_t k = 0; k < c->b.row_start[c->n_constraints]; k++) in_b[c->b.col[k]] = 1;
    uint64_t wrong = 0, pa = 0, pb = 0, pi = 0;
    for (uint64_t v = 0; v < first_aux; v++) {
        wrong += g16_bit(d.inputs_in_b, v) != in_b[v];
        pi += in_b[v];
    }
    for (uint64_t j = 0; j < c->n_aux; j++) {
        wrong += g16_bit(d.aux_in_a, j) != in_a[first_aux + j];
        wrong += g16_bit(d.aux_in_b, j) != in_b[first_aux + j];
        pa += in_a[first_aux + j];
        pb += in_b[first_aux + j];
    }
    CHECK(wrong == 0, "%s: %llu density bits differ from a naive scan", what, (unsigned long long)wrong);
    CHECK(d.n_aux_in_a == pa && d.n_aux_in_b == pb && d.n_inputs_in_b == pi,
          "%s: popcounts %llu/%llu/%llu, naive %llu/%llu/%llu", what,
          (unsigned long long)d.n_aux_in_a, (unsigned long long)d.n_aux_in_b,
          (unsigned long long)d.n_inputs_in_b, (unsigned long long)pa, (unsigned long long)pb,
          (unsigned long long)pi);
    free(in_a);
    free(in_b);
    g16_density_free(&d);
}

/* A random circuit built directly in CSR form, with a random (unsatisfying) z.
 * Coefficients include 1 and -1 so the shortcuts in synthesis are exercised. */
static void random_circuit(g16_circuit *c, g16_fr **z, uint32_t n_pub, uint32_t n_aux,
                           uint64_t n_cons, unsigned max_terms)
{
    memset(c, 0, sizeof *c);
    c->n_pub = n_pub;
    c->n_aux = n_aux;
    c->n_constraints = n_cons;
    c->n_coefs = 8;
    c->coefs = malloc(c->n_coefs * sizeof *c->coefs);
    g16_fr_set_one(&c->coefs[0]);
    g16_fr_neg(&c->coefs[1], &c->coefs[0]);
    for (uint32_t i = 2; i < c->n_coefs; i++) g16_test_rand_fr(&rng, &c->coefs[i]);
    uint64_t nv = 1ull + n_pub + n_aux;
    g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    for (int m = 0; m < 3; m++) {
        g16_csr_alloc_(ms[m], n_cons, n_cons * max_terms);
        uint64_t k = 0;
        for (uint64_t r = 0; r < n_cons; r++) {
            ms[m]->row_start[r] = k;
            unsigned nt = (unsigned)(g16_rng_u64(&rng) % (max_terms + 1));
            for (unsigned t = 0; t < nt; t++, k++) {
                ms[m]->col[k] = (uint32_t)(g16_rng_u64(&rng) % nv);
                ms[m]->coef[k] = (uint32_t)(g16_rng_u64(&rng) % c->n_coefs);
            }
        }
        ms[m]->row_start[n_cons] = k; /* fewer terms than allocated: fine */
    }
    *z = malloc(nv * sizeof **z);
    g16_fr_set_one(&(*z)[0]);
    for (uint64_t i = 1; i < nv; i++) {
        uint64_t pick = g16_rng_u64(&rng) % 4;
        if (pick == 0) g16_fr_set_zero(&(*z)[i]);
        else if (pick == 1) g16_fr_set_one(&(*z)[i]);
        else g16_test_rand_fr(&rng, &(*z)[i]);
    }
}

static void test_random(void)
{
    static const struct { uint32_t pub, aux; uint64_t cons; unsigned terms; } shapes[] = {
        {0, 1, 1, 1}, {0, 10, 7, 3}, {3, 50, 100, 5}, {70, 200, 9000, 4}, {1, 5000, 20000, 2}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        g16_circuit c;
        g16_fr *z;
        random_circuit(&c, &z, shapes[i].pub, shapes[i].aux, shapes[i].cons, shapes[i].terms);
        char what[64];
        snprintf(what, sizeof what, "random circuit %zu", i);
        uint64_t bad = check_synth(&c, z, what);
        check_density(&c, what);
        g16_status s = g16_circuit_is_satisfied(&c, z, (size_t)g16_circuit_vars(&c));
        if (bad == UINT64_MAX) {
            CHECK(s == G16_OK, "%s: naive says satisfied, check says %s", what, g16_last_error());
        } else {
            char want[64];
            snprintf(want, sizeof want, "constraint %llu is not", (unsigned long long)bad);
            CHECK(s == G16_ERR_UNSATISFIED && strstr(g16_last_error(), want),
                  "%s: first failing row %llu, check says %d '%s'", what, (unsigned long long)bad,
                  (int)s, g16_last_error());
        }
        /* wrong length and z[0] != 1 are argument errors */
        CHECK(g16_synthesize(NULL, NULL, NULL, &c, z, (size_t)g16_circuit_vars(&c) - 1) == G16_ERR_ARG,
              "%s: short z accepted", what);
        g16_fr keep = z[0];
        g16_fr_set_zero(&z[0]);
        CHECK(g16_circuit_is_satisfied(&c, z, (size_t)g16_circuit_vars(&c)) == G16_ERR_ARG,
              "%s: z[0] = 0 accepted", what);
        z[0] = keep;
        g16_circuit_free(&c);
        free(z);
    }
}

typedef struct stats {
    double a, b, c;     /* nonzeros per constraint */
    double aux_in_b;    /* fraction of aux variables in B */
    double zero_one;    /* fraction of aux values equal to 0 or 1 */
} stats;

static stats measure(const g16_circuit *c, const g16_witness *w)
{
    stats st;
    double n = (double)c->n_constraints;
    st.a = (double)c->a.row_start[c->n_constraints] / n;
    st.b = (double)c->b.row_start[c->n_constraints] / n;
    st.c = (double)c->c.row_start[c->n_constraints] / n;
    g16_density d;
    g16_circuit_density(&d, c);
    st.aux_in_b = (double)d.n_aux_in_b / c->n_aux;
    g16_density_free(&d);
    uint64_t zo = 0;
    for (uint64_t i = 1 + c->n_pub; i < w->n; i++)
        zo += g16_fr_is_zero(&w->z[i]) || g16_fr_is_one(&w->z[i]);
    st.zero_one = (double)zo / c->n_aux;
    return st;
}

static void test_profiles(void)
{
    static const g16_profile profiles[] = {G16_PROFILE_POREP, G16_PROFILE_DENSE, G16_PROFILE_BITS};
    static const struct { unsigned log_n; uint32_t pub; } sizes[] = {
        {2, 0}, {2, 2}, {5, 3}, {10, 0}, {12, 1}, {13, 328}, {14, 7}};
    uint64_t seed = g16_rng_u64(&rng);
    for (size_t p = 0; p < 3; p++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            g16_circuit_gen_args args = {profiles[p], sizes[i].log_n, sizes[i].pub, seed + i};
            g16_circuit *c;
            g16_witness *w;
            char what[96];
            snprintf(what, sizeof what, "%s 2^%u with %u inputs", g16_profile_name(profiles[p]),
                     sizes[i].log_n, sizes[i].pub);
            g16_status s = g16_circuit_generate(&c, &w, &args);
            CHECK(s == G16_OK, "%s: generate: %s", what, g16_last_error());
            if (s != G16_OK) continue;
            CHECK(g16_circuit_rows(c) == 1ull << sizes[i].log_n, "%s: %llu rows", what,
                  (unsigned long long)g16_circuit_rows(c));
            CHECK(w->n == g16_circuit_vars(c) && w->n_pub == c->n_pub, "%s: witness shape", what);
            uint64_t bad = check_synth(c, w->z, what);
            CHECK(bad == UINT64_MAX, "%s: row %llu has a·b != c", what, (unsigned long long)bad);
            CHECK(g16_circuit_check(c, w) == G16_OK, "%s: check: %s", what, g16_last_error());
            check_density(c, what);
            if (sizes[i].log_n >= 12) {
                stats st = measure(c, w);
                printf("%-32s nnz/row A %.2f B %.2f C %.2f, aux in B %.1f%%, 0/1 values %.1f%%\n",
                       what, st.a, st.b, st.c, 100 * st.aux_in_b, 100 * st.zero_one);
                if (profiles[p] == G16_PROFILE_POREP) {
                    CHECK(st.a > 2.2 && st.a < 2.6 && st.b > 0.95 && st.b < 1.05 && st.c > 2.0 &&
                              st.c < 2.4,
                          "%s: nnz per row %.2f/%.2f/%.2f off the PoRep shape", what, st.a, st.b, st.c);
                    CHECK(st.aux_in_b > 0.2 && st.aux_in_b < 0.3, "%s: %.3f of aux in B", what,
                          st.aux_in_b);
                    CHECK(st.zero_one >= 0.5, "%s: only %.3f of values are 0/1", what, st.zero_one);
                } else if (profiles[p] == G16_PROFILE_BITS) {
                    CHECK(st.zero_one >= 0.9, "%s: only %.3f of values are bits", what, st.zero_one);
                } else {
                    CHECK(st.zero_one < 0.01 && st.a >= 3.9 && st.b >= 2.9,
                          "%s: not dense (0/1 %.3f, A %.2f, B %.2f)", what, st.zero_one, st.a, st.b);
                }
            }
            /* the same arguments give the same circuit and witness, on any thread count */
            g16_set_threads(sizes[i].log_n % 2 ? 1 : 3);
            g16_circuit *c2;
            g16_witness *w2;
            CHECK(g16_circuit_generate(&c2, &w2, &args) == G16_OK, "%s: regenerate", what);
            g16_set_threads(0);
            int same = c2->n_coefs == c->n_coefs &&
                       !memcmp(c2->coefs, c->coefs, c->n_coefs * sizeof(g16_fr)) &&
                       !memcmp(w2->z, w->z, w->n * sizeof(g16_fr));
            const g16_csr *m1[3] = {&c->a, &c->b, &c->c}, *m2[3] = {&c2->a, &c2->b, &c2->c};
            for (int m = 0; m < 3 && same; m++) {
                uint64_t nnz = m1[m]->row_start[c->n_constraints];
                same = m2[m]->row_start[c->n_constraints] == nnz &&
                       !memcmp(m1[m]->row_start, m2[m]->row_start, 8 * (c->n_constraints + 1)) &&
                       !memcmp(m1[m]->col, m2[m]->col, 4 * nnz) &&
                       !memcmp(m1[m]->coef, m2[m]->coef, 4 * nnz);
            }
            CHECK(same, "%s: regenerating gave a different circuit", what);
            g16_circuit_destroy(c2);
            g16_witness_destroy(w2);

            /* change one aux value: the check must name a constraint that uses it */
            uint64_t v = 1 + c->n_pub + g16_rng_u64(&rng) % c->n_aux;
            g16_fr delta;
            do g16_test_rand_fr(&rng, &delta); while (g16_fr_is_zero(&delta));
            g16_fr_add(&w->z[v], &w->z[v], &delta);
            bad = check_synth(c, w->z, what);
            s = g16_circuit_check(c, w);
            if (bad != UINT64_MAX) {
                char want[64];
                snprintf(want, sizeof want, "constraint %llu is not", (unsigned long long)bad);
                CHECK(s == G16_ERR_UNSATISFIED && strstr(g16_last_error(), want) &&
                          strstr(g16_last_error(), "a·z = 0x"),
                      "%s: first failing row %llu, check says %d '%s'", what,
                      (unsigned long long)bad, (int)s, g16_last_error());
            }
            /* constraint v - 1 - n_pub defines variable v and is the first to use it */
            CHECK(bad == v - 1 - c->n_pub, "%s: changing variable %llu broke nothing",
                  what, (unsigned long long)v);
            g16_circuit_destroy(c);
            g16_witness_destroy(w);
        }
    g16_circuit_gen_args badargs[] = {{G16_PROFILE_POREP, 1, 0, 1}, {G16_PROFILE_POREP, 32, 0, 1},
                                      {G16_PROFILE_POREP, 3, 7, 1}, {(g16_profile)9, 10, 0, 1}};
    for (size_t i = 0; i < sizeof badargs / sizeof badargs[0]; i++) {
        g16_circuit *c = (g16_circuit *)&rng;
        CHECK(g16_circuit_generate(&c, NULL, &badargs[i]) == G16_ERR_ARG && c == NULL,
              "bad generator arguments %zu accepted", i);
    }
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x7231c5));
    test_random();
    test_profiles();
    return g16_test_finish("r1cs_synth");
}
