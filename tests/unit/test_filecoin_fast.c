/* The cached PoSt matrices and the streaming witness (post_fast.h) against the
 * general builder: the same circuit (every CSR array, the coefficient table) and
 * the same assignment, bit for bit, on the real 32 GiB sector (WindowPoSt, one
 * circuit sector) and on the WinningPoSt 32 GiB shape (66 circuit sectors);
 * a vanilla proof of the wrong shape is refused naming the circuit sector. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "files.h"
#include "field/fp_batch.h"
#include "filecoin/post_fast.h"

#define FIXTURES G16_VECTOR_DIR "/../filecoin/"

static int csr_eq(const g16_csr *x, const g16_csr *y, uint64_t rows)
{
    uint64_t nnz = x->row_start[rows];
    return nnz == y->row_start[rows] && !memcmp(x->row_start, y->row_start, (rows + 1) * 8) &&
           !memcmp(x->col, y->col, nnz * 4) && !memcmp(x->coef, y->coef, nnz * 4);
}

/* The fast witness with its path hashes batched (AVX-512 IFMA, where the CPU has it) and
 * one at a time: the same values; with IFMA every path hash came from the batch. */
static void batched_witness(const char *what, g16_witness **wf, const g16_fc_post_config *cfg,
                            const g16_fc_sector_ref *refs, unsigned n, uint64_t path_hashes)
{
    uint64_t batched = 0, scalar_batched = 1;
    g16_witness *ws = NULL;
    CHECK(g16_fc_post_witness_n(wf, &batched, cfg, refs, n) == G16_OK, "%s: fast witness: %s", what,
          g16_last_error());
    g16_fp_batch_force_scalar(1);
    CHECK(g16_fc_post_witness_n(&ws, &scalar_batched, cfg, refs, n) == G16_OK, "%s: scalar witness: %s", what,
          g16_last_error());
    g16_fp_batch_force_scalar(0);
    CHECK(scalar_batched == 0, "%s: without IFMA nothing is batched (%llu)", what,
          (unsigned long long)scalar_batched);
    uint64_t want = g16_use_ifma ? path_hashes : 0;
    CHECK(batched == want, "%s: %llu of %llu path hashes batched (IFMA %d)", what, (unsigned long long)batched,
          (unsigned long long)want, g16_use_ifma);
    if (*wf && ws)
        CHECK(ws->n == (*wf)->n && !memcmp(ws->z, (*wf)->z, ws->n * sizeof(g16_fr)),
              "%s: batched and one-at-a-time witnesses equal", what);
    g16_witness_destroy(ws);
}

static void compare(const char *what, const g16_fc_post_config *cfg, const g16_fc_vproof *v,
                    const g16_fc_sector_ref *refs, unsigned n, uint64_t path_hashes)
{
    g16_circuit *cb = NULL, *cf = NULL;
    g16_witness *wb = NULL, *wf = NULL;
    g16_fc_counts cnt;
    CHECK(g16_fc_post_build(&cb, &wb, &cnt, cfg, v) == G16_OK, "%s: builder: %s", what, g16_last_error());
    CHECK(g16_fc_post_circuit(&cf, cfg, n) == G16_OK, "%s: fast circuit: %s", what, g16_last_error());
    batched_witness(what, &wf, cfg, refs, n, path_hashes);
    if (cb && cf && wb && wf) {
        CHECK(cb->n_pub == cf->n_pub && cb->n_aux == cf->n_aux && cb->n_constraints == cf->n_constraints,
              "%s: sizes (%u/%u, %u/%u, %llu/%llu)", what, cb->n_pub, cf->n_pub, cb->n_aux, cf->n_aux,
              (unsigned long long)cb->n_constraints, (unsigned long long)cf->n_constraints);
        if (cb->n_constraints == cf->n_constraints) {
            CHECK(cb->n_coefs == cf->n_coefs && !memcmp(cb->coefs, cf->coefs, cb->n_coefs * sizeof(g16_fr)),
                  "%s: coefficient tables equal", what);
            CHECK(csr_eq(&cb->a, &cf->a, cb->n_constraints), "%s: A equal", what);
            CHECK(csr_eq(&cb->b, &cf->b, cb->n_constraints), "%s: B equal", what);
            CHECK(csr_eq(&cb->c, &cf->c, cb->n_constraints), "%s: C equal", what);
        }
        CHECK(wb->n == wf->n && wb->n_pub == wf->n_pub && !memcmp(wb->z, wf->z, wb->n * sizeof(g16_fr)),
              "%s: the fast witness equals the builder's bit for bit", what);
        CHECK(g16_circuit_check(cf, wf) == G16_OK, "%s: fast circuit and witness satisfied: %s", what,
              g16_last_error());
        /* the assignment's last aux is the last path's digest: changed, a row fails */
        g16_fr one;
        g16_fr_set_one(&one);
        g16_fr_add(&wf->z[wf->n - 1], &wf->z[wf->n - 1], &one);
        CHECK(g16_circuit_check(cf, wf) == G16_ERR_UNSATISFIED, "%s: a changed value is caught", what);
    }
    g16_circuit_destroy(cb);
    g16_circuit_destroy(cf);
    g16_witness_destroy(wb);
    g16_witness_destroy(wf);
}

static void test_real_window(void)
{
    g16_fc_vproof v;
    if (g16_fc_vproof_read(&v, FIXTURES "window-post-32g-sector1.vproof") != G16_OK) {
        CHECK(0, "fixture: %s", g16_last_error());
        return;
    }
    g16_fc_post_config cfg;
    g16_fc_post_config_for(&cfg, G16_FC_WINDOW, 32ull << 30);
    g16_fc_sector_ref ref = {&v, 0, 0};
    compare("window 32 GiB real sector", &cfg, &v, &ref, 1, 10 * 10);
    g16_fc_layout lay;
    CHECK(g16_fc_layout_for(&lay, &cfg) == G16_OK && lay.circuit_sectors == 2349 && lay.pub == 11 &&
              lay.rows == 53333,
          "window 32 GiB layout: %u sectors, %llu inputs, %llu rows a sector", lay.circuit_sectors,
          (unsigned long long)lay.pub, (unsigned long long)lay.rows);
    /* a WinningPoSt circuit sector is one challenge: proof 9 is the last that exists */
    g16_fc_post_config_for(&cfg, G16_FC_WINNING, 32ull << 30);
    g16_fc_sector_ref refs[2] = {{&v, 0, 9}, {&v, 0, 10}};
    g16_witness *w = NULL;
    CHECK(g16_fc_post_witness(&w, &cfg, refs, 2) == G16_ERR_ARG && !w &&
              strstr(g16_last_error(), "circuit sector 1"),
          "a missing inclusion proof names its circuit sector: %s", g16_last_error());
    /* a 32 GiB path is not an 8 MiB one */
    g16_fc_post_config_for(&cfg, G16_FC_WINDOW, 8ull << 20);
    CHECK(g16_fc_post_witness(&w, &cfg, refs, 1) == G16_ERR_ARG && !w, "another shape is refused: %s",
          g16_last_error());
    g16_fc_vproof_free(&v);
}

/* The WinningPoSt 32 GiB shape from the real sector's ten paths repeated (as
 * test_filecoin_circuit: valid paths to one comm_r_last). */
static void test_winning(void)
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
    buf[48] = 66;
    for (size_t j = 0; j < 66; j++) memcpy(buf + head + j * each, real + head + (j % 10) * each, each);
    memcpy(buf + head + 66 * each, real + n - 64, 64);
    g16_fc_vproof v;
    if (g16_fc_vproof_parse(&v, buf, m, "winning") == G16_OK) {
        g16_fc_post_config cfg;
        g16_fc_post_config_for(&cfg, G16_FC_WINNING, 32ull << 30);
        g16_fc_sector_ref refs[66];
        for (unsigned j = 0; j < 66; j++) refs[j] = (g16_fc_sector_ref){&v, 0, j};
        compare("winning 32 GiB", &cfg, &v, refs, 66, 66 * 10);
        const g16_circuit *c1 = NULL, *c2 = NULL;
        CHECK(g16_fc_post_circuit_cached(&c1, &cfg) == G16_OK && c1 && c1->n_constraints == 370590 &&
                  c1->n_pub == 132,
              "cached winning circuit: %s", g16_last_error());
        CHECK(g16_fc_post_circuit_cached(&c2, &cfg) == G16_OK && c2 == c1, "the cache hands the same circuit");
        g16_fc_post_cache_clear();
        g16_fc_vproof_free(&v);
    } else {
        CHECK(0, "synthetic winning proof: %s", g16_last_error());
    }
    free(buf);
    free(real);
}

int main(void)
{
    test_real_window();
    test_winning();
    return g16_test_finish("test_filecoin_fast");
}
