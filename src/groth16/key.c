/* Key objects (reference counting, vk copies) and the test-only secret derivation. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/bigmem.h"
#include "common/fault.h"
#include "common/error.h"
#include "groth16/groth16.h"
#include "ntt/ntt.h"

g16_key *g16_key_alloc(void)
{
    g16_key *k = g16_calloc(1, sizeof *k);
    if (!k) {
        g16_fail(G16_ERR_NOMEM, "proving key: out of memory");
        return NULL;
    }
    static _Atomic uint64_t next_serial = 1;
    atomic_init(&k->refs, 1);
    k->serial = atomic_fetch_add(&next_serial, 1);
    return k;
}

/* One calloc per array: sizes multiply by the point size, so each is checked. */
static g16_status alloc_array(void **out, size_t n, size_t size, const char *what)
{
    *out = NULL;
    if (n == 0) return G16_OK;
    if (n > SIZE_MAX / size) return g16_fail(G16_ERR_NOMEM, "%s: %zu points overflow", what, n);
    *out = g16_big_alloc(n * size);
    if (!*out) return g16_fail(G16_ERR_NOMEM, "%s: cannot allocate %zu points", what, n);
    return G16_OK;
}

g16_status g16_key_alloc_arrays(g16_key *k, size_t n_ic, size_t n_h, size_t n_l, size_t n_a,
                                size_t n_b_g1, size_t n_b_g2)
{
    G16_TRY(alloc_array((void **)&k->vk.ic, n_ic, sizeof(g16_g1_affine), "ic"));
    k->vk.n_ic = n_ic;
    G16_TRY(alloc_array((void **)&k->h, n_h, sizeof(g16_g1_affine), "h"));
    k->n_h = n_h;
    G16_TRY(alloc_array((void **)&k->l, n_l, sizeof(g16_g1_affine), "l"));
    k->n_l = n_l;
    G16_TRY(alloc_array((void **)&k->a, n_a, sizeof(g16_g1_affine), "a"));
    k->n_a = n_a;
    G16_TRY(alloc_array((void **)&k->b_g1, n_b_g1, sizeof(g16_g1_affine), "b_g1"));
    k->n_b_g1 = n_b_g1;
    G16_TRY(alloc_array((void **)&k->b_g2, n_b_g2, sizeof(g16_g2_affine), "b_g2"));
    k->n_b_g2 = n_b_g2;
    return G16_OK;
}

void g16_vk_clear(g16_vk *vk)
{
    free(vk->ic);
    free(vk->prep);
    vk->ic = NULL;
    vk->prep = NULL;
    vk->n_ic = 0;
}

void g16_key_retain(g16_key *key) { atomic_fetch_add(&key->refs, 1); }

void g16_key_release(g16_key *key)
{
    if (!key || atomic_fetch_sub(&key->refs, 1) != 1) return;
    g16_vk_clear(&key->vk);
    if (key->map) {
        munmap(key->map, key->map_bytes);
    } else {
        free(key->h);
        free(key->l);
        free(key->a);
        free(key->b_g1);
        free(key->b_g2);
    }
    free(key);
}

void g16_key_get_info(g16_key_info *out, const g16_key *key)
{
    out->n_ic = key->vk.n_ic;
    out->n_h = key->n_h;
    out->n_l = key->n_l;
    out->n_a = key->n_a;
    out->n_b_g1 = key->n_b_g1;
    out->n_b_g2 = key->n_b_g2;
}

const g16_vk *g16_key_vk(const g16_key *key) { return &key->vk; }

int g16_key_is_mapped(const g16_key *key) { return key->map != NULL; }

g16_vk *g16_vk_copy(const g16_vk *vk)
{
    g16_vk *c = g16_calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *vk;
    c->prep = NULL;
    c->ic = NULL;
    if (vk->n_ic) {
        c->ic = g16_malloc(vk->n_ic * sizeof *c->ic);
        if (!c->ic) {
            free(c);
            return NULL;
        }
        memcpy(c->ic, vk->ic, vk->n_ic * sizeof *c->ic);
    }
    return c;
}

void g16_vk_free(g16_vk *vk)
{
    if (!vk) return;
    g16_vk_clear(vk);
    free(vk);
}

uint64_t g16_vk_inputs(const g16_vk *vk) { return vk->n_ic ? vk->n_ic - 1 : 0; }

g16_status g16_vk_prepare(g16_vk *vk)
{
    if (vk->prep) return G16_OK;
    g16_g2_prepared *p = g16_malloc(3 * sizeof *p);
    if (!p) return g16_fail(G16_ERR_NOMEM, "vk: cannot prepare G2 points");
    g16_g2_prepare(&p[0], &vk->beta_g2);
    g16_g2_prepare(&p[1], &vk->gamma_g2);
    g16_g2_prepare(&p[2], &vk->delta_g2);
    vk->prep = p;
    return G16_OK;
}

/* ------------------------------------------------------------ secrets */

void g16_derive_scalar(g16_fr *out, const char *label, const uint8_t *seed, size_t seed_len)
{
    static const char dst[] = "g16 test setup v1";
    uint8_t wide[64];
    for (uint8_t ctr = 0; ctr < 2; ctr++) {
        /* The label's terminating NUL is hashed too, so "a"+"bc" and "ab"+"c" differ. */
        uint8_t sep = ctr;
        uint8_t lab[64];
        size_t ln = strlen(label);
        if (ln > sizeof lab - 1) ln = sizeof lab - 1;
        memcpy(lab, label, ln);
        lab[ln] = 0;
        g16_sha256(wide + 32 * ctr, dst, sizeof dst - 1, lab, ln + 1, &sep, 1, seed, seed_len);
    }
    g16_fr_from_be_reduce(out, wide, sizeof wide);
}

void g16_derive_rs(uint8_t rs[64], const uint8_t *seed, size_t seed_len)
{
    g16_fr r, s;
    g16_derive_scalar(&r, "r", seed, seed_len);
    g16_derive_scalar(&s, "s", seed, seed_len);
    g16_fr_to_be(rs, &r);
    g16_fr_to_be(rs + 32, &s);
}

unsigned g16_domain_log(uint64_t rows)
{
    unsigned l = 0;
    while (((uint64_t)1 << l) < rows) l++;
    return l;
}

void g16_domain_root(g16_fr *omega, unsigned log_n)
{
    /* the NTT layer's root, so the setup's Lagrange basis is the prover's domain */
    g16_fr_root_of_unity(omega, (int)log_n);
}
