/* Synthesis by coefficient classes (src/r1cs/eval.c) equals the general path,
 * every term a Montgomery product (g16_synthesize_ref_), bit for bit: random CSR
 * circuits whose coefficient table holds every class (±1, ±k for small k on both
 * sides of the threshold, ±2^i for every i, values near r, random values) over
 * assignments full of edge values (0, 1, r − 1, r − 2, (r ± 1)/2, small, random);
 * and the classification itself. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "common/error.h"
#include "r1cs/r1cs_internal.h"

static g16_rng rng;

static void fr_small(g16_fr *r, int64_t v)
{
    g16_fr_from_u64(r, (uint64_t)(v < 0 ? -v : v));
    if (v < 0) g16_fr_neg(r, r);
}

/* The table: every class and the values around each boundary. */
static uint32_t make_coefs(g16_fr *t)
{
    uint32_t n = 0;
    for (int64_t k = 1; k <= G16_COEF_SMALL_MAX + 3; k++) {
        fr_small(&t[n++], k);
        fr_small(&t[n++], -k);
    }
    for (int i = 0; i < 64; i++) {
        g16_fr_from_u64(&t[n], 1ull << i);
        g16_fr_neg(&t[n + 1], &t[n]);
        n += 2;
    }
    g16_fr one, half;
    g16_fr_set_one(&one);
    g16_fr_from_u64(&half, 2);
    g16_fr_inv(&half, &half);        /* (r + 1)/2 */
    t[n++] = half;
    g16_fr_neg(&t[n++], &half);      /* (r − 1)/2 */
    g16_fr_sub(&t[n], &half, &one);  /* (r − 1)/2 as well, reached another way */
    n++;
    for (int i = 0; i < 24; i++) g16_test_rand_fr(&rng, &t[n++]);
    return n;
}

static void make_value(g16_fr *v)
{
    g16_fr one;
    g16_fr_set_one(&one);
    switch (g16_rng_u64(&rng) % 8) {
    case 0: g16_fr_set_zero(v); break;
    case 1: *v = one; break;
    case 2: g16_fr_neg(v, &one); break;                          /* r − 1 */
    case 3: g16_fr_neg(v, &one), g16_fr_sub(v, v, &one); break;  /* r − 2 */
    case 4: fr_small(v, (int64_t)(g16_rng_u64(&rng) % 300) - 150); break;
    case 5: g16_fr_from_u64(v, 2), g16_fr_inv(v, v); break;      /* (r + 1)/2 */
    default: g16_test_rand_fr(&rng, v);
    }
}

static void random_circuit(g16_circuit *c, g16_fr **z, uint32_t n_pub, uint32_t n_aux, uint64_t n_cons,
                           unsigned max_terms)
{
    memset(c, 0, sizeof *c);
    c->n_pub = n_pub;
    c->n_aux = n_aux;
    c->n_constraints = n_cons;
    c->coefs = malloc(512 * sizeof *c->coefs);
    c->n_coefs = make_coefs(c->coefs);
    uint64_t nv = 1ull + n_pub + n_aux;
    g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    for (int m = 0; m < 3; m++) {
        CHECK(g16_csr_alloc_(ms[m], n_cons, n_cons * max_terms) == G16_OK, "csr");
        uint64_t k = 0;
        for (uint64_t r = 0; r < n_cons; r++) {
            ms[m]->row_start[r] = k;
            unsigned nt = (unsigned)(g16_rng_u64(&rng) % (max_terms + 1));
            for (unsigned t = 0; t < nt; t++, k++) {
                ms[m]->col[k] = (uint32_t)(g16_rng_u64(&rng) % nv);
                /* half the rows start with a 1 (the fast first term), the rest anything */
                ms[m]->coef[k] = t == 0 && r % 2 ? 0 : (uint32_t)(g16_rng_u64(&rng) % c->n_coefs);
            }
        }
        ms[m]->row_start[n_cons] = k;
    }
    *z = malloc(nv * sizeof **z);
    g16_fr_set_one(&(*z)[0]);
    for (uint64_t i = 1; i < nv; i++) make_value(&(*z)[i]);
}

static void test_kinds(void)
{
    g16_circuit c;
    memset(&c, 0, sizeof c);
    c.coefs = malloc(512 * sizeof *c.coefs);
    c.n_coefs = make_coefs(c.coefs);
    uint8_t *kinds;
    CHECK(g16_r1cs_coef_kinds_(&kinds, &c) == G16_OK, "kinds");
    uint32_t i = 0;
    int bad = 0;
    for (unsigned k = 1; k <= G16_COEF_SMALL_MAX + 3; k++, i += 2) {
        unsigned want = k <= G16_COEF_SMALL_MAX ? k : G16_COEF_MUL;
        unsigned want_neg = k <= G16_COEF_SMALL_MAX ? (G16_COEF_NEG | k) : G16_COEF_MUL;
        if (kinds[i] != want || kinds[i + 1] != want_neg) {
            if (bad++ < 5)
                fprintf(stderr, "k = %u: kinds %u, %u; want %u, %u\n", k, kinds[i], kinds[i + 1], want, want_neg);
        }
    }
    CHECK(bad == 0, "%d small coefficients misclassified", bad);
    CHECK(kinds[0] == G16_COEF_ONE && kinds[1] == G16_COEF_MINUS_ONE, "±1 are ONE and MINUS_ONE");
    CHECK(kinds[i + 2 * 6] == 64 && kinds[i + 2 * 6 + 1] == (G16_COEF_NEG | 64) &&
              kinds[i + 2 * 7] == G16_COEF_MUL && kinds[i + 2 * 7 + 1] == G16_COEF_MUL,
          "±2^6 small (%u, %u), ±2^7 = 128 products (%u, %u)", kinds[i + 2 * 6], kinds[i + 2 * 6 + 1],
          kinds[i + 2 * 7], kinds[i + 2 * 7 + 1]);
    int big = 0;
    for (uint32_t j = i + 2 * 7; j < c.n_coefs; j++) big += kinds[j] != G16_COEF_MUL;
    CHECK(big == 0, "%d large or random coefficients not classed as products", big);
    free(kinds);
    free(c.coefs);
}

static void test_equal_to_products(void)
{
    static const struct { uint32_t pub, aux; uint64_t cons; unsigned terms; } shapes[] = {
        {0, 1, 1, 1}, {0, 10, 7, 3}, {3, 50, 300, 8}, {70, 200, 9000, 4}, {1, 5000, 20000, 12}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        g16_circuit c;
        g16_fr *z;
        random_circuit(&c, &z, shapes[s].pub, shapes[s].aux, shapes[s].cons, shapes[s].terms);
        uint64_t rows = g16_circuit_rows(&c), nv = g16_circuit_vars(&c);
        g16_fr *v = malloc(6 * rows * sizeof *v);
        CHECK(g16_synthesize(v, v + rows, v + 2 * rows, &c, z, nv) == G16_OK, "classes: %s", g16_last_error());
        CHECK(g16_synthesize_ref_(v + 3 * rows, v + 4 * rows, v + 5 * rows, &c, z, nv) == G16_OK, "ref: %s",
              g16_last_error());
        uint64_t diff = 0;
        for (int m = 0; m < 3; m++)
            for (uint64_t r = 0; r < rows; r++)
                diff += memcmp(&v[m * rows + r], &v[(3 + m) * rows + r], sizeof(g16_fr)) != 0;
        CHECK(diff == 0, "shape %zu: %llu of %llu values differ from the all-products path", s,
              (unsigned long long)diff, (unsigned long long)(3 * rows));
        free(v);
        free(z);
        g16_circuit_free(&c);
    }
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x5e7a1u));
    test_kinds();
    test_equal_to_products();
    return g16_test_finish("test_r1cs_eval");
}
