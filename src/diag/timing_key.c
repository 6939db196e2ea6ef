/* TIMING-ONLY keys (timing_key.h). */
#include "diag/timing_key.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"

#define TILE_G1 4096
#define TILE_G2 1024

typedef struct tile_job {
    void *dst;
    const void *src;
    size_t elem, tile;
} tile_job;

/* A 2^27-row key is ~60 GB of points: written on every thread, a block of
 * whole tiles at a time, so the copy runs at memory speed. */
static void tile_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    const tile_job *j = ctx;
    (void)worker;
    for (size_t i = begin; i < end; i++)
        memcpy((char *)j->dst + i * j->elem, (const char *)j->src + (i % j->tile) * j->elem, j->elem);
}

static void tile(void *dst, size_t n, const void *src, size_t elem, size_t tile_n)
{
    tile_job j = {dst, src, elem, tile_n};
    g16_parallel_for(n, 1 << 16, tile_range, &j);
}

g16_status g16_timing_key(g16_key **out, const g16_circuit *circ, const g16_density *d)
{
    uint64_t N = (uint64_t)1 << g16_domain_log(g16_circuit_rows(circ));
    size_t n_ic = 1 + circ->n_pub;
    size_t n_a = n_ic + d->n_aux_in_a, n_b = d->n_inputs_in_b + d->n_aux_in_b;
    g16_key *k = g16_key_alloc();
    if (!k) return g16_fail(G16_ERR_NOMEM, "timing key: out of memory");
    g16_g1_affine *p1 = malloc(TILE_G1 * sizeof *p1);
    g16_g2_affine *p2 = malloc(TILE_G2 * sizeof *p2);
    g16_status st = g16_key_alloc_arrays(k, n_ic, N - 1, circ->n_aux, n_a, n_b, n_b);
    if (!st && (!p1 || !p2)) st = g16_fail(G16_ERR_NOMEM, "timing key: out of memory");
    if (st) goto done;
    g16_g1_jac j1, g1;
    g16_g2_jac j2, g2;
    g16_g1_jac_generator(&g1);
    g16_g2_jac_generator(&g2);
    j1 = g1;
    for (int i = 0; i < TILE_G1; i++) {
        g16_g1_jac_to_affine(&p1[i], &j1);
        g16_g1_jac_add(&j1, &j1, &g1);
    }
    j2 = g2;
    for (int i = 0; i < TILE_G2; i++) {
        g16_g2_jac_to_affine(&p2[i], &j2);
        g16_g2_jac_add(&j2, &j2, &g2);
    }
    k->vk.alpha_g1 = p1[1], k->vk.beta_g1 = p1[2], k->vk.delta_g1 = p1[3];
    k->vk.beta_g2 = p2[1], k->vk.gamma_g2 = p2[2], k->vk.delta_g2 = p2[3];
    tile(k->vk.ic, n_ic, p1, sizeof *p1, TILE_G1);
    tile(k->h, k->n_h, p1, sizeof *p1, TILE_G1);
    tile(k->l, k->n_l, p1, sizeof *p1, TILE_G1);
    tile(k->a, k->n_a, p1, sizeof *p1, TILE_G1);
    tile(k->b_g1, k->n_b_g1, p1, sizeof *p1, TILE_G1);
    tile(k->b_g2, k->n_b_g2, p2, sizeof *p2, TILE_G2);
done:
    free(p1);
    free(p2);
    if (st) {
        g16_key_release(k);
        return st;
    }
    *out = k;
    return G16_OK;
}
