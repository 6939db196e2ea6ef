/* bellperson .params / .vk files: round trips, and malformed files (truncated at
 * many offsets, overflowing counts, points off the curve or outside the subgroup,
 * identities where bellperson refuses them, trailing bytes) give clear errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve/curve.h"
#include "files.h"
#include "test_groth16_util.h"

static char dir[64], params_path[128], vk_path[128], bad_path[128];

static uint8_t *slurp(const char *path, size_t *n)
{
    return g16_test_slurp(path, n, 1);
}

static void spit(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(b, 1, n, f);
    fclose(f);
}

static int keys_equal(const g16_key *x, const g16_key *y)
{
    const g16_vk *a = &x->vk, *b = &y->vk;
    if (!g16_g1_affine_eq(&a->alpha_g1, &b->alpha_g1) || !g16_g1_affine_eq(&a->beta_g1, &b->beta_g1) ||
        !g16_g1_affine_eq(&a->delta_g1, &b->delta_g1) || !g16_g2_affine_eq(&a->beta_g2, &b->beta_g2) ||
        !g16_g2_affine_eq(&a->gamma_g2, &b->gamma_g2) || !g16_g2_affine_eq(&a->delta_g2, &b->delta_g2))
        return 0;
    if (a->n_ic != b->n_ic || x->n_h != y->n_h || x->n_l != y->n_l || x->n_a != y->n_a ||
        x->n_b_g1 != y->n_b_g1 || x->n_b_g2 != y->n_b_g2)
        return 0;
    for (size_t i = 0; i < a->n_ic; i++) if (!g16_g1_affine_eq(&a->ic[i], &b->ic[i])) return 0;
    for (size_t i = 0; i < x->n_h; i++) if (!g16_g1_affine_eq(&x->h[i], &y->h[i])) return 0;
    for (size_t i = 0; i < x->n_l; i++) if (!g16_g1_affine_eq(&x->l[i], &y->l[i])) return 0;
    for (size_t i = 0; i < x->n_a; i++) if (!g16_g1_affine_eq(&x->a[i], &y->a[i])) return 0;
    for (size_t i = 0; i < x->n_b_g1; i++) if (!g16_g1_affine_eq(&x->b_g1[i], &y->b_g1[i])) return 0;
    for (size_t i = 0; i < x->n_b_g2; i++) if (!g16_g2_affine_eq(&x->b_g2[i], &y->b_g2[i])) return 0;
    return 1;
}

/* Offsets of the sections of a params file with the given counts. */
typedef struct { size_t ic, h, l, a, b_g1, b_g2, end; } layout;

static layout layout_of(const g16_key *k)
{
    layout L;
    L.ic = 3 * 96 + 3 * 192;
    L.h = L.ic + 4 + 96 * k->vk.n_ic;
    L.l = L.h + 4 + 96 * k->n_h;
    L.a = L.l + 4 + 96 * k->n_l;
    L.b_g1 = L.a + 4 + 96 * k->n_a;
    L.b_g2 = L.b_g1 + 4 + 96 * k->n_b_g1;
    L.end = L.b_g2 + 4 + 192 * k->n_b_g2;
    return L;
}

static g16_status read_bad(const uint8_t *b, size_t n, unsigned flags)
{
    spit(bad_path, b, n);
    g16_key *k = NULL;
    g16_status st = g16_params_read(&k, bad_path, flags);
    g16_key_release(k);
    return st;
}

static int msg_has(const char *needle)
{
    return strstr(g16_last_error(), needle) != NULL;
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(61));
    snprintf(dir, sizeof dir, "/tmp/g16_io_testXXXXXX");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(params_path, sizeof params_path, "%s/k.params", dir);
    snprintf(vk_path, sizeof vk_path, "%s/k.vk", dir);
    snprintf(bad_path, sizeof bad_path, "%s/bad.params", dir);

    tg_circ t;
    tg_make(&t, &rng, 2, 25);
    g16_density d;
    tg_density(&d, &t);
    g16_key *key, *back = NULL;
    CHECK(g16_setup(&key, &t.c, (const uint8_t *)"io", 2) == G16_OK, "setup");

    /* round trips */
    CHECK(g16_params_write(params_path, key) == G16_OK, "write: %s", g16_last_error());
    CHECK(g16_vk_write(vk_path, g16_key_vk(key)) == G16_OK, "write vk: %s", g16_last_error());
    size_t n = 0;
    uint8_t *file = slurp(params_path, &n);
    layout L = layout_of(key);
    CHECK(n == L.end, "params size %zu, expected %zu", n, L.end);
    CHECK(g16_params_read(&back, params_path, G16_PARAMS_CHECK_SUBGROUP) == G16_OK, "read: %s",
          g16_last_error());
    CHECK(back && keys_equal(key, back), "params round trip differs");
    g16_key_release(back);
    CHECK(g16_params_read(&back, params_path, 0) == G16_OK, "read unchecked");
    CHECK(back && keys_equal(key, back), "params round trip (no subgroup check) differs");
    /* the read key proves, the read vk verifies */
    g16_vk *vk = NULL;
    CHECK(g16_vk_read(&vk, vk_path, G16_PARAMS_CHECK_SUBGROUP, 0) == G16_OK, "vk read: %s",
          g16_last_error());
    uint8_t proof[192];
    CHECK(tg_prove(proof, back, &t, &d, NULL) == G16_OK, "prove with read key");
    uint8_t *x = tg_inputs(&t);
    CHECK(vk && g16_verify(vk, proof, x, 2) == G16_OK, "verify with read vk: %s", g16_last_error());
    g16_vk_free(vk);
    /* the vk part of a params file, read as a vk */
    CHECK(g16_vk_read(&vk, params_path, 0, 1) == G16_OK, "vk from params");
    CHECK(vk && g16_verify(vk, proof, x, 2) == G16_OK, "verify with params' vk");
    g16_vk_free(vk);
    CHECK(g16_vk_read(&vk, params_path, 0, 0) == G16_ERR_FORMAT && msg_has("unexpected bytes"),
          "params read as a strict vk: %s", g16_last_error());
    g16_key_release(back);
    free(x);

    /* truncated at many offsets: every byte of the vk and section heads, a stride elsewhere */
    uint8_t *b = malloc(n + 16);
    int trunc_bad = 0;
    for (size_t cut = 0; cut < n; cut += (cut < L.h + 8 || (cut + 8 > L.b_g2 && cut < L.b_g2 + 8)) ? 1 : 13) {
        memcpy(b, file, cut);
        g16_status st = read_bad(b, cut, 0);
        if (st != G16_ERR_FORMAT || !msg_has(bad_path) || !msg_has("offset")) {
            if (trunc_bad++ < 5)
                CHECK(0, "truncated at %zu: status %d: %s", cut, st, g16_last_error());
        }
    }
    CHECK(trunc_bad == 0, "%d truncations not reported as format errors", trunc_bad);
    /* trailing bytes */
    memcpy(b, file, n);
    b[n] = 0;
    CHECK(read_bad(b, n + 1, 0) == G16_ERR_FORMAT && msg_has("unexpected bytes"), "trailing: %s",
          g16_last_error());
    /* counts that overflow the file */
    memcpy(b, file, n);
    memset(b + L.h, 0xff, 4);
    CHECK(read_bad(b, n, 0) == G16_ERR_FORMAT && msg_has("section h") && msg_has("4294967295"),
          "huge h count: %s", g16_last_error());
    memcpy(b, file, n);
    memset(b + L.b_g2, 0x7f, 4);
    CHECK(read_bad(b, n, 0) == G16_ERR_FORMAT && msg_has("section b_g2"), "huge b_g2 count: %s",
          g16_last_error());
    memcpy(b, file, n);
    b[L.l + 3] += 1; /* one more l point than present: the rest shifts */
    CHECK(read_bad(b, n, 0) != G16_OK, "l count + 1 accepted");
    /* a point off the curve: l[1]'s last y byte */
    memcpy(b, file, n);
    size_t off = L.l + 4 + 96 * 1;
    b[off + 95] ^= 1;
    char want[64];
    snprintf(want, sizeof want, "offset %zu", off);
    CHECK(read_bad(b, n, 0) == G16_ERR_NOT_ON_CURVE && msg_has("section l") && msg_has("point 1") &&
              msg_has(want),
          "l[1] off curve: %s", g16_last_error());
    /* off curve in b_g2 (G2) and in the vk */
    memcpy(b, file, n);
    b[L.b_g2 + 4 + 191] ^= 1;
    CHECK(read_bad(b, n, 0) == G16_ERR_NOT_ON_CURVE && msg_has("section b_g2") && msg_has("point 0"),
          "b_g2[0] off curve: %s", g16_last_error());
    memcpy(b, file, n);
    b[96 + 95] ^= 1;
    CHECK(read_bad(b, n, 0) == G16_ERR_NOT_ON_CURVE && msg_has("beta_g1"), "vk beta_g1: %s",
          g16_last_error());
    /* identity: refused in h, l, a, b_g1, b_g2, allowed in the vk's IC */
    static const char *names[5] = {"section h", "section l", "section a", "section b_g1", "section b_g2"};
    size_t starts[5] = {L.h, L.l, L.a, L.b_g1, L.b_g2};
    for (int s = 0; s < 5; s++) {
        memcpy(b, file, n);
        size_t sz = s == 4 ? 192 : 96;
        memset(b + starts[s] + 4, 0, sz);
        b[starts[s] + 4] = 0x40;
        CHECK(read_bad(b, n, 0) == G16_ERR_INFINITY && msg_has(names[s]) && msg_has("infinity"),
              "identity in %s: %s", names[s], g16_last_error());
    }
    memcpy(b, file, n);
    memset(b + L.ic + 4, 0, 96);
    b[L.ic + 4] = 0x40;
    CHECK(read_bad(b, n, 0) == G16_OK, "identity in ic refused: %s", g16_last_error());
    /* wrong flag bits in an uncompressed point: the compression bit set */
    memcpy(b, file, n);
    b[L.a + 4 + 96 * 2] |= 0x80;
    CHECK(read_bad(b, n, 0) == G16_ERR_FLAGS && msg_has("section a") && msg_has("point 2"),
          "compressed flag in a[2]: %s", g16_last_error());
    /* on the curve but outside the subgroup: refused only when asked */
    g16_g1_affine ns;
    uint8_t comp[48];
    CHECK(g16_hex_decode(comp, 48,
                         "b31f576726b21aa7f40a5b736a78432cf18ef51073a72497771f548f456ab37a080284e3e5a5a51ceb021b11708f1dd9") == 48,
          "hex");
    CHECK(g16_g1_decode(&ns, comp, 48, G16_CURVE_NO_SUBGROUP_CHECK) == G16_OK, "non-subgroup point");
    CHECK(!g16_g1_affine_in_subgroup(&ns), "vector point is in the subgroup");
    memcpy(b, file, n);
    g16_g1_encode_uncompressed(b + L.b_g1 + 4, &ns);
    CHECK(read_bad(b, n, G16_PARAMS_CHECK_SUBGROUP) == G16_ERR_NOT_IN_SUBGROUP &&
              msg_has("section b_g1"),
          "non-subgroup b_g1 with check: %s", g16_last_error());
    CHECK(read_bad(b, n, 0) == G16_OK, "non-subgroup b_g1 without check: %s", g16_last_error());
    /* a missing file, an empty file */
    g16_key *k2;
    CHECK(g16_params_read(&k2, "/nonexistent/x.params", 0) == G16_ERR_IO && msg_has("/nonexistent"),
          "missing file: %s", g16_last_error());
    CHECK(read_bad(b, 0, 0) == G16_ERR_FORMAT, "empty file: %s", g16_last_error());

    free(b);
    free(file);
    unlink(params_path);
    unlink(vk_path);
    unlink(bad_path);
    rmdir(dir);
    g16_key_release(key);
    tg_density_free(&d);
    tg_free(&t);
    return g16_test_finish("io_params");
}
