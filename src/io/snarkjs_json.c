/* snarkjs's JSON files: verification_key.json, proof.json, public.json (bls12381).
 * Points are projective decimal triples as ffjavascript's toObject writes them:
 * G1 [x, y, z], G2 [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]], z = 1 for a finite
 * point after toAffine and z = 0 at infinity.  Coordinates are canonical integers
 * (not Montgomery).  Other z values are read as Jacobian (x/z², y/z³), the
 * representation ffjavascript uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "curve/curve.h"
#include "io/circom.h"
#include "io/json.h"
#include "io/snarkjs.h"

static g16_status fp_from_json(g16_fp *out, const g16_json *v, const char *where)
{
    if (!v || v->type != G16_JSON_STRING)
        return g16_fail(G16_ERR_FORMAT, "%s: expected a decimal string", where);
    uint64_t limbs[G16_FP_LIMBS];
    g16_status s = g16_decimal_to_limbs(limbs, G16_FP_LIMBS, g16_fp_modulus, v->str);
    if (s != G16_OK) return g16_fail_ctx(s, "%s", where);
    return g16_fp_from_canonical(out, limbs);
}

static g16_status fp2_from_json(g16_fp2 *out, const g16_json *v, const char *where)
{
    if (!v || v->type != G16_JSON_ARRAY || v->n != 2)
        return g16_fail(G16_ERR_FORMAT, "%s: expected an array of 2 decimal strings", where);
    G16_TRY(fp_from_json(&out->c0, &v->child[0], where));
    return fp_from_json(&out->c1, &v->child[1], where);
}

/* Reads a point of G1 (g2 = 0) or G2 and checks it fully: on the curve and in the
 * prime-order subgroup (snarkjs's own verifier checks only the curve). */
static g16_status point_from_json(void *out, const g16_json *v, int g2, const char *where)
{
    if (!v || v->type != G16_JSON_ARRAY || v->n != 3)
        return g16_fail(G16_ERR_FORMAT, "%s: expected a point as an array of 3 coordinates", where);
    if (!g2) {
        g16_g1_jac j;
        G16_TRY(fp_from_json(&j.x, &v->child[0], where));
        G16_TRY(fp_from_json(&j.y, &v->child[1], where));
        G16_TRY(fp_from_json(&j.z, &v->child[2], where));
        g16_g1_affine a;
        if (g16_fp_is_zero(&j.z)) {
            g16_g1_affine_set_infinity(out);
            return G16_OK;
        }
        g16_g1_jac_to_affine(&a, &j);
        if (!g16_g1_affine_on_curve(&a)) return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: not on the G1 curve", where);
        if (!g16_g1_affine_in_subgroup(&a))
            return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "%s: not in the G1 subgroup", where);
        *(g16_g1_affine *)out = a;
        return G16_OK;
    }
    g16_g2_jac j;
    G16_TRY(fp2_from_json(&j.x, &v->child[0], where));
    G16_TRY(fp2_from_json(&j.y, &v->child[1], where));
    G16_TRY(fp2_from_json(&j.z, &v->child[2], where));
    if (g16_fp2_is_zero(&j.z)) {
        g16_g2_affine_set_infinity(out);
        return G16_OK;
    }
    g16_g2_affine a;
    g16_g2_jac_to_affine(&a, &j);
    if (!g16_g2_affine_on_curve(&a)) return g16_fail(G16_ERR_NOT_ON_CURVE, "%s: not on the G2 curve", where);
    if (!g16_g2_affine_in_subgroup(&a)) return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "%s: not in the G2 subgroup", where);
    *(g16_g2_affine *)out = a;
    return G16_OK;
}

static g16_status expect_string(const g16_json *root, const char *key, const char *want, const char *path)
{
    const g16_json *v = g16_json_get(root, key);
    if (!v) return G16_OK; /* optional: snarkjs does not need them either */
    if (v->type != G16_JSON_STRING || strcmp(v->str, want) != 0) {
        if (!strcmp(key, "curve") && v->type == G16_JSON_STRING && !strcmp(v->str, "bn128"))
            return g16_fail(G16_ERR_FORMAT, "%s: curve bn128 is not supported yet (only bls12381)", path);
        return g16_fail(G16_ERR_FORMAT, "%s: \"%s\" must be \"%s\"", path, key, want);
    }
    return G16_OK;
}

static g16_status member_point(void *out, const g16_json *root, const char *key, int g2, const char *path)
{
    char where[512];
    snprintf(where, sizeof where, "%s: %s", path, key);
    const g16_json *v = g16_json_get(root, key);
    if (!v) return g16_fail(G16_ERR_FORMAT, "%s: missing", where);
    return point_from_json(out, v, g2, where);
}

static g16_status read_vk(g16_sj_vk *vk, const g16_json *root, const char *path)
{
    if (root->type != G16_JSON_OBJECT) return g16_fail(G16_ERR_FORMAT, "%s: expected an object", path);
    G16_TRY(expect_string(root, "protocol", "groth16", path));
    G16_TRY(expect_string(root, "curve", "bls12381", path));
    const g16_json *np = g16_json_get(root, "nPublic"), *ic = g16_json_get(root, "IC");
    if (!np || np->type != G16_JSON_NUMBER) return g16_fail(G16_ERR_FORMAT, "%s: nPublic: expected a number", path);
    char *e;
    unsigned long n = strtoul(np->str, &e, 10);
    if (*e || n > (1ul << 30)) return g16_fail(G16_ERR_FORMAT, "%s: nPublic: %s is not a count", path, np->str);
    vk->n_public = (uint32_t)n;
    if (!ic || ic->type != G16_JSON_ARRAY || ic->n != n + 1)
        return g16_fail(G16_ERR_FORMAT, "%s: IC: expected an array of nPublic + 1 = %lu points", path, n + 1);
    G16_TRY(member_point(&vk->alpha1, root, "vk_alpha_1", 0, path));
    G16_TRY(member_point(&vk->beta2, root, "vk_beta_2", 1, path));
    G16_TRY(member_point(&vk->gamma2, root, "vk_gamma_2", 1, path));
    G16_TRY(member_point(&vk->delta2, root, "vk_delta_2", 1, path));
    vk->ic = malloc((n + 1) * sizeof *vk->ic);
    if (!vk->ic) return g16_fail(G16_ERR_NOMEM, "%s: IC", path);
    for (size_t i = 0; i <= n; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s: IC[%zu]", path, i);
        G16_TRY(point_from_json(&vk->ic[i], &ic->child[i], 0, where));
    }
    return G16_OK;
}

g16_status g16_sj_vk_read_json(g16_sj_vk *vk, const char *path)
{
    memset(vk, 0, sizeof *vk);
    g16_json *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = read_vk(vk, root, path);
    g16_json_free(root);
    if (s != G16_OK) g16_sj_vk_free(vk);
    return s;
}

g16_status g16_sj_proof_read_json(g16_sj_proof *proof, const char *path)
{
    g16_json *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = root->type == G16_JSON_OBJECT ? G16_OK : g16_fail(G16_ERR_FORMAT, "%s: expected an object", path);
    if (s == G16_OK) s = expect_string(root, "protocol", "groth16", path);
    if (s == G16_OK) s = expect_string(root, "curve", "bls12381", path);
    if (s == G16_OK) s = member_point(&proof->a, root, "pi_a", 0, path);
    if (s == G16_OK) s = member_point(&proof->b, root, "pi_b", 1, path);
    if (s == G16_OK) s = member_point(&proof->c, root, "pi_c", 0, path);
    g16_json_free(root);
    return s;
}

g16_status g16_sj_public_read_json(g16_fr **pub, size_t *n, const char *path)
{
    g16_json *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = G16_OK;
    g16_fr *out = NULL;
    if (root->type != G16_JSON_ARRAY) s = g16_fail(G16_ERR_FORMAT, "%s: expected an array of decimal strings", path);
    if (s == G16_OK && !(out = malloc((root->n ? root->n : 1) * sizeof *out)))
        s = g16_fail(G16_ERR_NOMEM, "%s", path);
    for (size_t i = 0; s == G16_OK && i < root->n; i++) {
        const g16_json *v = &root->child[i];
        uint64_t limbs[4];
        if (v->type != G16_JSON_STRING) s = g16_fail(G16_ERR_FORMAT, "%s: [%zu]: expected a decimal string", path, i);
        else if ((s = g16_decimal_to_limbs(limbs, 4, g16_fr_modulus, v->str)) != G16_OK)
            s = g16_fail_ctx(s, "%s: [%zu]", path, i);
        else s = g16_fr_from_canonical(&out[i], limbs);
    }
    if (s == G16_OK) {
        *pub = out;
        *n = root->n;
    } else {
        free(out);
    }
    g16_json_free(root);
    return s;
}

/* ---------------------------------------------------------------------------
 * Writers, laid out as snarkjs writes (JSON.stringify with an indent of 1). */

static void put_fp(FILE *fp, const g16_fp *a)
{
    uint64_t c[G16_FP_LIMBS];
    char d[8 * 20 + 1];
    g16_fp_to_canonical(c, a);
    g16_limbs_to_decimal(d, c, G16_FP_LIMBS);
    fprintf(fp, "\"%s\"", d);
}

static void put_g1(FILE *fp, const g16_g1_affine *p, const char *ind)
{
    if (g16_g1_affine_is_infinity(p)) {
        fprintf(fp, "[\n%s \"0\",\n%s \"1\",\n%s \"0\"\n%s]", ind, ind, ind, ind);
        return;
    }
    fprintf(fp, "[\n%s ", ind);
    put_fp(fp, &p->x);
    fprintf(fp, ",\n%s ", ind);
    put_fp(fp, &p->y);
    fprintf(fp, ",\n%s \"1\"\n%s]", ind, ind);
}

static void put_fp2(FILE *fp, const g16_fp2 *a, const char *ind)
{
    fprintf(fp, "[\n%s  ", ind);
    put_fp(fp, &a->c0);
    fprintf(fp, ",\n%s  ", ind);
    put_fp(fp, &a->c1);
    fprintf(fp, "\n%s ]", ind);
}

static void put_g2(FILE *fp, const g16_g2_affine *p, const char *ind)
{
    if (g16_g2_affine_is_infinity(p)) {
        fprintf(fp, "[\n%s [\n%s  \"0\",\n%s  \"0\"\n%s ],\n%s [\n%s  \"1\",\n%s  \"0\"\n%s ],\n%s [\n%s  \"0\",\n%s  \"0\"\n%s ]\n%s]",
                ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind);
        return;
    }
    fprintf(fp, "[\n%s ", ind);
    put_fp2(fp, &p->x, ind);
    fprintf(fp, ",\n%s ", ind);
    put_fp2(fp, &p->y, ind);
    fprintf(fp, ",\n%s [\n%s  \"1\",\n%s  \"0\"\n%s ]\n%s]", ind, ind, ind, ind, ind);
}

static g16_status finish(FILE *fp, const char *path)
{
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad) return g16_fail(G16_ERR_IO, "%s: write failed", path);
    return G16_OK;
}

g16_status g16_sj_proof_write_json(const g16_sj_proof *proof, const char *path)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return g16_fail(G16_ERR_IO, "%s: cannot create", path);
    fputs("{\n \"pi_a\": ", fp);
    put_g1(fp, &proof->a, " ");
    fputs(",\n \"pi_b\": ", fp);
    put_g2(fp, &proof->b, " ");
    fputs(",\n \"pi_c\": ", fp);
    put_g1(fp, &proof->c, " ");
    fputs(",\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}", fp);
    return finish(fp, path);
}

g16_status g16_sj_public_write_json(const g16_fr *pub, size_t n, const char *path)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return g16_fail(G16_ERR_IO, "%s: cannot create", path);
    fputs("[", fp);
    for (size_t i = 0; i < n; i++) {
        char d[80];
        g16_fr_to_decimal(d, &pub[i]);
        fprintf(fp, "%s\n \"%s\"", i ? "," : "", d);
    }
    fputs(n ? "\n]" : "]", fp);
    return finish(fp, path);
}

g16_status g16_sj_vk_write_json(const g16_sj_pk *pk, const char *path)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return g16_fail(G16_ERR_IO, "%s: cannot create", path);
    fprintf(fp, "{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": %u,\n \"vk_alpha_1\": ",
            pk->n_public);
    put_g1(fp, &pk->alpha1, " ");
    fputs(",\n \"vk_beta_2\": ", fp);
    put_g2(fp, &pk->beta2, " ");
    fputs(",\n \"vk_gamma_2\": ", fp);
    put_g2(fp, &pk->gamma2, " ");
    fputs(",\n \"vk_delta_2\": ", fp);
    put_g2(fp, &pk->delta2, " ");
    fputs(",\n \"IC\": [", fp);
    for (uint32_t i = 0; i <= pk->n_public; i++) {
        fputs(i ? ",\n  " : "\n  ", fp);
        put_g1(fp, &pk->ic[i], "  ");
    }
    fputs("\n ]\n}", fp);
    return finish(fp, path);
}
