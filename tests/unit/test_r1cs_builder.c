/* Builder: merging of duplicate variables, dropping of zero terms, coefficient
 * interning, variable numbering, and the message of an unsatisfied witness. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "r1cs/r1cs.h"

static g16_fr fr(int64_t v)
{
    g16_fr r;
    g16_fr_from_u64(&r, (uint64_t)(v < 0 ? -v : v));
    if (v < 0) g16_fr_neg(&r, &r);
    return r;
}

static g16_term T(g16_var v, int64_t c) { return (g16_term){v, fr(c)}; }

/* The (col, coefficient value) pairs of row r of m, as a canonical small integer
 * each (coefficients in these tests are small or negated small). */
static int row_is(const g16_circuit *c, const g16_csr *m, uint64_t r, size_t n,
                  const uint32_t *cols, const int64_t *vals)
{
    if (m->row_start[r + 1] - m->row_start[r] != n) return 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = m->row_start[r] + i;
        g16_fr want = fr(vals[i]);
        if (m->col[k] != cols[i] || !g16_fr_eq(&c->coefs[m->coef[k]], &want)) return 0;
    }
    return 1;
}

static void test_merge(void)
{
    g16_builder *b;
    CHECK(g16_builder_new(&b) == G16_OK, "new");
    g16_var x, y, in, w;
    g16_fr vx = fr(3), vy = fr(5), vin = fr(7);
    /* aux first, input later: the input must still be numbered before every aux */
    CHECK(g16_builder_alloc_aux(b, &x, &vx) == G16_OK, "alloc x");
    CHECK(g16_builder_alloc_aux(b, &y, &vy) == G16_OK, "alloc y");
    CHECK(g16_builder_alloc_input(b, &in, &vin) == G16_OK, "alloc input");
    /* (2x + 3y + 5x)·(1 + y - y) = w + 4in - 4in + 0x, i.e. (7x + 3y)·1 = w */
    g16_term a[] = {T(x, 2), T(y, 3), T(x, 5)};
    g16_term bb[] = {T(G16_VAR_ONE, 1), T(y, 1), T(y, -1)};
    g16_fr v = fr(7 * 3 + 3 * 5); /* A·z = 7x + 3y = 36 */
    CHECK(g16_builder_alloc_aux(b, &w, &v) == G16_OK, "alloc w");
    g16_term c[] = {T(w, 1), T(in, 4), T(in, -4), T(x, 0)};
    CHECK(g16_builder_enforce(b, a, 3, bb, 3, c, 4) == G16_OK, "enforce 1: %s", g16_last_error());
    /* a second constraint reusing coefficients 1 and 7: the table must not grow for them */
    g16_term a2[] = {T(in, 7)};
    g16_term b2[] = {T(x, 1)};
    g16_fr v2 = fr(7 * 7 * 3);
    g16_var u;
    CHECK(g16_builder_alloc_aux(b, &u, &v2) == G16_OK, "alloc u");
    g16_term c2[] = {T(u, 1)};
    CHECK(g16_builder_enforce(b, a2, 1, b2, 1, c2, 1) == G16_OK, "enforce 2");
    /* an empty constraint is allowed (0·0 = 0) */
    CHECK(g16_builder_enforce(b, NULL, 0, NULL, 0, NULL, 0) == G16_OK, "enforce empty");
    /* a handle never handed out is refused and leaves nothing behind */
    g16_term badt[] = {T(0x80000000u | 99, 1)};
    CHECK(g16_builder_enforce(b, a2, 1, badt, 1, c2, 1) == G16_ERR_ARG, "bad handle accepted");
    g16_term badi[] = {T(9, 1)};
    CHECK(g16_builder_enforce(b, badi, 1, NULL, 0, NULL, 0) == G16_ERR_ARG, "bad input handle accepted");
    CHECK(g16_builder_constraints(b) == 3 && g16_builder_vars(b) == 6, "counts %llu %llu",
          (unsigned long long)g16_builder_constraints(b), (unsigned long long)g16_builder_vars(b));
    uint64_t ix = g16_builder_var_index(b, x), iy = g16_builder_var_index(b, y),
             iw = g16_builder_var_index(b, w), iu = g16_builder_var_index(b, u),
             iin = g16_builder_var_index(b, in);
    CHECK(iin == 1 && ix == 2 && iy == 3 && iw == 4 && iu == 5, "numbering %llu %llu %llu %llu %llu",
          (unsigned long long)iin, (unsigned long long)ix, (unsigned long long)iy,
          (unsigned long long)iw, (unsigned long long)iu);

    g16_circuit *circ;
    g16_witness *wit;
    CHECK(g16_builder_finish(b, &circ, &wit) == G16_OK, "finish: %s", g16_last_error());
    CHECK(circ->n_pub == 1 && circ->n_aux == 4 && circ->n_constraints == 3, "shape %u %u %llu",
          circ->n_pub, circ->n_aux, (unsigned long long)circ->n_constraints);
    /* 4in - 4in cancels and 0x is dropped before interning: the table is {7, 3, 1} */
    CHECK(circ->n_coefs == 3, "%u distinct coefficients, want 3 (7, 3, 1)", circ->n_coefs);
    uint32_t ca[] = {2, 3};
    int64_t va[] = {7, 3};
    CHECK(row_is(circ, &circ->a, 0, 2, ca, va), "row 0 of A is not 7·x + 3·y");
    uint32_t cb[] = {0};
    int64_t vb[] = {1};
    CHECK(row_is(circ, &circ->b, 0, 1, cb, vb), "row 0 of B is not 1 (y - y dropped)");
    uint32_t cc[] = {4};
    int64_t vc[] = {1};
    CHECK(row_is(circ, &circ->c, 0, 1, cc, vc), "row 0 of C is not w (4in - 4in and 0x dropped)");
    uint32_t ca2[] = {1}, cb2[] = {2}, cc2[] = {5};
    int64_t va2[] = {7}, vb2[] = {1}, vc2[] = {1};
    CHECK(row_is(circ, &circ->a, 1, 1, ca2, va2) && row_is(circ, &circ->b, 1, 1, cb2, vb2) &&
              row_is(circ, &circ->c, 1, 1, cc2, vc2),
          "row 1 is not 7·in · x = u");
    CHECK(row_is(circ, &circ->a, 2, 0, NULL, NULL) && row_is(circ, &circ->c, 2, 0, NULL, NULL),
          "row 2 is not empty");
    g16_fr z_expect[6] = {fr(1), vin, vx, vy, v, v2};
    CHECK(wit->n == 6 && wit->n_pub == 1 && !memcmp(wit->z, z_expect, sizeof z_expect),
          "witness values not in circuit order");
    CHECK(g16_circuit_check(circ, wit) == G16_OK, "satisfied witness refused: %s", g16_last_error());

    /* break constraint 1: u = 7·in·x + 1 */
    g16_fr one = fr(1);
    g16_fr_add(&wit->z[5], &wit->z[5], &one);
    g16_status s = g16_circuit_check(circ, wit);
    char want_c[67];
    uint8_t be[32];
    g16_fr_to_be(be, &wit->z[5]);
    strcpy(want_c, "0x");
    g16_hex_encode(want_c + 2, be, 32);
    CHECK(s == G16_ERR_UNSATISFIED && strstr(g16_last_error(), "constraint 1 ") &&
              strstr(g16_last_error(), want_c),
          "unsatisfied witness: status %d, message '%s' (want constraint 1 and c·z = %s)", (int)s,
          g16_last_error(), want_c);
    /* the message also gives a·z = 49 and b·z = 3 */
    CHECK(strstr(g16_last_error(), "a·z = 0x0000000000000000000000000000000000000000000000000000000000000031") &&
              strstr(g16_last_error(), "b·z = 0x0000000000000000000000000000000000000000000000000000000000000003"),
          "a·z / b·z missing from '%s'", g16_last_error());
    /* the builder is reusable after finish */
    CHECK(g16_builder_vars(b) == 1 && g16_builder_constraints(b) == 0, "builder not emptied");
    g16_var z1;
    CHECK(g16_builder_alloc_aux(b, &z1, &one) == G16_OK, "reuse alloc");
    g16_term bl[] = {T(z1, 1)}, bo[] = {T(G16_VAR_ONE, 1), T(z1, -1)};
    CHECK(g16_builder_enforce(b, bo, 2, bl, 1, NULL, 0) == G16_OK, "reuse enforce");
    g16_circuit *c3;
    g16_witness *w3;
    CHECK(g16_builder_finish(b, &c3, &w3) == G16_OK && c3->n_aux == 1 && c3->n_coefs == 2,
          "reuse finish");
    CHECK(g16_circuit_check(c3, w3) == G16_OK, "boolean 1 refused");
    g16_fr_add(&w3->z[1], &w3->z[1], &one);
    CHECK(g16_circuit_check(c3, w3) == G16_ERR_UNSATISFIED && strstr(g16_last_error(), "constraint 0 "),
          "boolean 2 accepted");
    /* wrong public-input count between circuit and witness */
    CHECK(g16_circuit_check(c3, wit) == G16_ERR_ARG, "mismatched witness accepted");
    g16_circuit_destroy(c3);
    g16_witness_destroy(w3);
    g16_circuit_destroy(circ);
    g16_witness_destroy(wit);
    g16_builder_free(b);
}

/* Many random constraints with many repeated coefficients: interning must give
 * one table entry per distinct value, and the table must survive rehashing. */
static void test_interning(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(0xb01d));
    g16_builder *b;
    g16_builder_new(&b);
    enum { NV = 50, NC = 3000, NDIST = 700 };
    g16_var vars[NV];
    for (int i = 0; i < NV; i++) {
        g16_fr v = fr(i);
        g16_builder_alloc_aux(b, &vars[i], &v);
    }
    uint8_t used[NDIST + 1] = {0};
    for (int r = 0; r < NC; r++) {
        g16_term t[6];
        for (int i = 0; i < 6; i++) {
            int64_t cv = 1 + (int64_t)(g16_rng_u64(&rng) % NDIST);
            /* distinct variables per combination, so no merging changes the values */
            t[i] = T(vars[(r + 7 * i) % NV], cv);
            used[cv] = 1;
        }
        CHECK(g16_builder_enforce(b, t, 2, t + 2, 2, t + 4, 2) == G16_OK, "enforce %d", r);
    }
    g16_circuit *c;
    g16_witness *w;
    CHECK(g16_builder_finish(b, &c, &w) == G16_OK, "finish");
    uint32_t distinct = 0;
    for (int i = 1; i <= NDIST; i++) distinct += used[i];
    CHECK(c->n_coefs == distinct, "%u table entries for %u distinct values", c->n_coefs, distinct);
    int dup = 0;
    for (uint32_t i = 0; i < c->n_coefs; i++)
        for (uint32_t j = 0; j < i; j++) dup += g16_fr_eq(&c->coefs[i], &c->coefs[j]);
    CHECK(dup == 0, "%d duplicate table entries", dup);
    CHECK(c->a.row_start[NC] == 2 * NC && c->b.row_start[NC] == 2 * NC && c->c.row_start[NC] == 2 * NC,
          "term counts");
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    g16_builder_free(b);
}

int main(void)
{
    test_merge();
    test_interning();
    return g16_test_finish("r1cs_builder");
}
