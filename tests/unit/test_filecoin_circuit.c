/* PoSt circuit gadgets and counts: the Poseidon gadget's rows per arity and its
 * digest against the native hash, insert's rows and its permutation for every
 * index, the FallbackPoSt counts the Rust library's tests and sources state, and
 * a one-sector 32 GiB WindowPoSt circuit built from the real vanilla proof whose
 * witness satisfies every row (and stops doing so when one value changes). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "files.h"
#include "filecoin/gadgets.h"
#include "filecoin/post_circuit.h"

#define FIXTURES G16_VECTOR_DIR "/../filecoin/"

static g16_fr fr_u(uint64_t v)
{
    g16_fr r;
    g16_fr_from_u64(&r, v);
    return r;
}

/* neptune's legacy circuit: 311 / 377 / 505 / 598 constraints a hash
 * (neptune circuit.rs tests; FILECOIN.md), counted and built alike. */
static void test_poseidon_gadget(void)
{
    const unsigned ar[4] = {2, 4, 8, 11};
    const uint64_t rows[4] = {311, 377, 505, 598};
    for (int k = 0; k < 4; k++) {
        const g16_poseidon *p = g16_poseidon_get(ar[k]);
        g16_fc_cs cnt = {0};
        g16_fc_num in[11], out;
        CHECK(g16_fc_poseidon_gadget(&cnt, &out, p, in) == G16_OK, "count arity %u", ar[k]);
        CHECK(cnt.constraints == rows[k] && cnt.inputs == 0, "arity %u: %llu rows, want %llu", ar[k],
              (unsigned long long)cnt.constraints, (unsigned long long)rows[k]);
        g16_builder *b;
        CHECK(g16_builder_new(&b) == G16_OK, "builder");
        g16_fc_cs cs = {.b = b};
        g16_fr vals[11];
        for (unsigned i = 0; i < ar[k]; i++) {
            vals[i] = fr_u(1000 + 7 * i);
            g16_fc_alloc(&cs, &in[i], &vals[i]);
        }
        CHECK(g16_fc_poseidon_gadget(&cs, &out, p, in) == G16_OK, "build arity %u: %s", ar[k], g16_last_error());
        g16_fr want;
        g16_poseidon_hash(&want, p, vals);
        CHECK(g16_fr_eq(&out.val, &want), "arity %u: gadget digest = native digest", ar[k]);
        CHECK(cs.constraints == rows[k] && cs.aux == cnt.aux + ar[k], "arity %u: built as counted", ar[k]);
        g16_circuit *c = NULL;
        g16_witness *w = NULL;
        CHECK(g16_builder_finish(b, &c, &w) == G16_OK, "finish");
        CHECK(c && c->n_constraints == rows[k], "arity %u: circuit rows", ar[k]);
        CHECK(c && g16_circuit_check(c, w) == G16_OK, "arity %u satisfied: %s", ar[k], g16_last_error());
        /* the digest variable is the last aux: changing it breaks a row */
        if (c && w) {
            g16_fr one;
            g16_fr_set_one(&one);
            g16_fr_add(&w->z[w->n - 1], &w->z[w->n - 1], &one);
            CHECK(g16_circuit_check(c, w) == G16_ERR_UNSATISFIED, "arity %u: a wrong digest is caught", ar[k]);
        }
        g16_circuit_destroy(c);
        g16_witness_destroy(w);
        g16_builder_free(b);
    }
}

/* insertion.rs: 2 / 8 / 22 rows, and out = siblings with x at the index. */
static void test_insert(void)
{
    const unsigned ar[3] = {2, 4, 8}, rows[3] = {2, 8, 22};
    for (int k = 0; k < 3; k++) {
        unsigned a = ar[k], nbits = k + 1;
        for (unsigned idx = 0; idx < a; idx++) {
            g16_builder *b;
            g16_builder_new(&b);
            g16_fc_cs cs = {.b = b};
            g16_fc_num x, sib[7], bits[3], out[8];
            g16_fr vx = fr_u(99);
            g16_fc_alloc(&cs, &x, &vx);
            for (unsigned i = 0; i + 1 < a; i++) {
                g16_fr v = fr_u(10 + i);
                g16_fc_alloc(&cs, &sib[i], &v);
            }
            for (unsigned i = 0; i < nbits; i++) g16_fc_alloc_bit(&cs, &bits[i], (idx >> i) & 1);
            uint64_t before = cs.constraints;
            CHECK(g16_fc_insert(&cs, out, &x, bits, sib, a) == G16_OK, "insert %u", a);
            CHECK(cs.constraints - before == rows[k], "insert %u: %llu rows", a,
                  (unsigned long long)(cs.constraints - before));
            for (unsigned pos = 0, s = 0; pos < a; pos++) {
                g16_fr want = pos == idx ? vx : fr_u(10 + s++);
                CHECK(g16_fr_eq(&out[pos].val, &want), "insert %u at %u: position %u", a, idx, pos);
            }
            g16_circuit *c = NULL;
            g16_witness *w = NULL;
            g16_builder_finish(b, &c, &w);
            CHECK(c && g16_circuit_check(c, w) == G16_OK, "insert %u at %u satisfied", a, idx);
            g16_circuit_destroy(c);
            g16_witness_destroy(w);
            g16_builder_free(b);
        }
    }
}

static g16_fc_shape shape(unsigned base_levels, unsigned sub, unsigned top)
{
    g16_fc_shape s = {.base_arity = 8, .base_levels = base_levels, .sub_arity = sub, .top_arity = top};
    return s;
}

static void test_counts(void)
{
    g16_fc_counts n;
    /* storage-proofs-post fallback tests: 3 sectors × 5 challenges on trees of 64
     * leaves per base tree (shapes 8, 8-4, 8-4-2), 19 inputs */
    g16_fc_shape s8 = shape(2, 0, 0), s84 = shape(2, 4, 0), s842 = shape(2, 4, 2);
    CHECK(g16_fc_fallback_count(&n, &s8, 3, 5) == G16_OK && n.constraints == 16869 && n.inputs == 19,
          "shape 8: %llu / %llu", (unsigned long long)n.constraints, (unsigned long long)n.inputs);
    CHECK(g16_fc_fallback_count(&n, &s84, 3, 5) == G16_OK && n.constraints == 22674 && n.inputs == 19,
          "shape 8-4: %llu", (unsigned long long)n.constraints);
    CHECK(g16_fc_fallback_count(&n, &s842, 3, 5) == G16_OK && n.constraints == 27384 && n.inputs == 19,
          "shape 8-4-2: %llu", (unsigned long long)n.constraints);
    /* 2 sectors × 5 challenges, 13 inputs */
    CHECK(g16_fc_fallback_count(&n, &s8, 2, 5) == G16_OK && n.constraints == 11246 && n.inputs == 13,
          "2 sectors: %llu / %llu", (unsigned long long)n.constraints, (unsigned long long)n.inputs);
    /* a 32 GiB tree (base 8 × 9 levels + sub 8), 5 sectors × 10 challenges */
    g16_fc_shape s32 = shape(9, 8, 0);
    CHECK(g16_fc_fallback_count(&n, &s32, 5, 10) == G16_OK && n.constraints == 266665,
          "32 GiB tree, 5 × 10: %llu", (unsigned long long)n.constraints);
    /* filecoin-proofs constants.rs: 2349 sectors "gives 125,279,217 constraints" */
    g16_fc_post_config cfg;
    g16_fc_post_config_for(&cfg, G16_FC_WINDOW, 32ull << 30);
    CHECK(g16_fc_post_count(&n, &cfg) == G16_OK && n.constraints == 125279217 && n.inputs == 25840,
          "WindowPoSt 32 GiB: %llu / %llu", (unsigned long long)n.constraints, (unsigned long long)n.inputs);
    g16_fc_post_config_for(&cfg, G16_FC_WINNING, 32ull << 30);
    CHECK(g16_fc_post_count(&n, &cfg) == G16_OK && n.constraints == 370590 && n.inputs == 133,
          "WinningPoSt 32 GiB: %llu / %llu", (unsigned long long)n.constraints, (unsigned long long)n.inputs);
    /* 64 GiB: constants.rs says 2300 sectors give 129,887,900 constraints */
    g16_fc_post_config_for(&cfg, G16_FC_WINDOW, 64ull << 30);
    CHECK(g16_fc_post_count(&n, &cfg) == G16_OK && n.constraints == 129887900,
          "WindowPoSt 64 GiB: %llu", (unsigned long long)n.constraints);
}

/* A one-sector 32 GiB WindowPoSt circuit from the real vanilla proof. */
static void test_real_sector(void)
{
    g16_fc_vproof v;
    if (g16_fc_vproof_read(&v, FIXTURES "window-post-32g-sector1.vproof") != G16_OK) {
        CHECK(0, "fixture: %s", g16_last_error());
        return;
    }
    g16_fc_shape sh;
    g16_fc_shape_for(&sh, 32ull << 30);
    g16_builder *b;
    g16_builder_new(&b);
    g16_fc_cs cs = {.b = b};
    CHECK(g16_fc_post_sector(&cs, &sh, 10, &v, 0, 0) == G16_OK, "build: %s", g16_last_error());
    CHECK(cs.constraints == 53333 && cs.inputs == 11, "one sector: %llu rows, %llu inputs",
          (unsigned long long)cs.constraints, (unsigned long long)cs.inputs);
    g16_circuit *c = NULL;
    g16_witness *w = NULL;
    CHECK(g16_builder_finish(b, &c, &w) == G16_OK, "finish");
    CHECK(c && g16_circuit_check(c, w) == G16_OK, "real sector satisfies every row: %s", g16_last_error());
    if (c && w) {
        /* inputs: comm_r, then the challenged leaf of each of the 10 paths */
        g16_fr leaf0 = fr_u(v.incl[0].leaf_index), leaf9 = fr_u(v.incl[9].leaf_index);
        CHECK(g16_fr_eq(&w->z[1], &v.comm_r), "input 1 is comm_r");
        CHECK(g16_fr_eq(&w->z[2], &leaf0) && g16_fr_eq(&w->z[11], &leaf9), "inputs 2..11 are the leaves");
        g16_fr one;
        g16_fr_set_one(&one);
        g16_fr_add(&w->z[2], &w->z[2], &one);
        CHECK(g16_circuit_check(c, w) == G16_ERR_UNSATISFIED, "a wrong leaf index is caught");
        g16_fr_sub(&w->z[2], &w->z[2], &one);
        g16_fr_add(&w->z[w->n / 2], &w->z[w->n / 2], &one);
        CHECK(g16_circuit_check(c, w) == G16_ERR_UNSATISFIED, "a changed aux value is caught");
    }
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    g16_builder_free(b);
    g16_fc_vproof_free(&v);
}

/* WinningPoSt 32 GiB: 66 circuit sectors of one challenge each, from one sector
 * proof of 66 inclusion proofs.  No real Winning vanilla proof is at hand, so its
 * proofs are the real sector's ten paths repeated (proof j = path j mod 10): each
 * is a valid path to the same comm_r_last, which is all the circuit checks (the
 * leaf indices are inputs). */
static void test_winning_build(void)
{
    size_t n = 0;
    uint8_t *real = g16_test_slurp(FIXTURES "window-post-32g-sector1.vproof", &n, 0);
    if (!real || n != 24960) {
        CHECK(0, "fixture");
        free(real);
        return;
    }
    const size_t head = 56, each = 2484;
    size_t m = head + 66 * each + 64;
    uint8_t *buf = malloc(m);
    memcpy(buf, real, head);
    buf[48] = 66; /* inclusion_proofs length (u64 little-endian; bytes 49..55 stay 0) */
    for (size_t j = 0; j < 66; j++) memcpy(buf + head + j * each, real + head + (j % 10) * each, each);
    memcpy(buf + head + 66 * each, real + n - 64, 64);
    g16_fc_vproof v;
    g16_status st = g16_fc_vproof_parse(&v, buf, m, "winning");
    CHECK(st == G16_OK, "synthetic winning proof parses: %s", g16_last_error());
    if (st == G16_OK) {
        g16_fc_post_config cfg;
        g16_fc_post_config_for(&cfg, G16_FC_WINNING, 32ull << 30);
        g16_circuit *c = NULL;
        g16_witness *w = NULL;
        g16_fc_counts cnt, want;
        CHECK(g16_fc_post_build(&c, &w, &cnt, &cfg, &v) == G16_OK, "build winning: %s", g16_last_error());
        g16_fc_post_count(&want, &cfg);
        CHECK(cnt.constraints == 370590 && cnt.inputs == 133 && cnt.aux == want.aux,
              "winning built: %llu rows, %llu inputs, %llu aux", (unsigned long long)cnt.constraints,
              (unsigned long long)cnt.inputs, (unsigned long long)cnt.aux);
        CHECK(c && g16_circuit_check(c, w) == G16_OK, "winning circuit satisfied: %s", g16_last_error());
        /* circuit sector 13 opens path 3: its leaf input is that path's leaf index */
        if (w) {
            g16_fr leaf = fr_u(v.incl[3].leaf_index);
            CHECK(g16_fr_eq(&w->z[1 + 13 * 2 + 1], &leaf), "sector 13's leaf input");
        }
        g16_circuit_destroy(c);
        g16_witness_destroy(w);
        /* a WindowPoSt sector takes exactly 10 inclusion proofs */
        g16_fc_post_config_for(&cfg, G16_FC_WINDOW, 32ull << 30);
        CHECK(g16_fc_post_build(&c, &w, &cnt, &cfg, &v) == G16_ERR_ARG && !c && !w, "66 paths are not a window sector");
        g16_fc_vproof_free(&v);
    }
    free(buf);
    free(real);
}

int main(void)
{
    test_poseidon_gadget();
    test_insert();
    test_counts();
    test_real_sector();
    test_winning_build();
    return g16_test_finish("test_filecoin_circuit");
}
