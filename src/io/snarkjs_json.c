/* snarkjs's JSON files: verification_key.json, proof.json, public.json (of the
 * curve of the compile: G16_SJ_CURVE_NAME).
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

static g16_status fp_from_json(g16_fp *out, const json_t *v, const char *where)
{
    if (!json_is_string(v)) return g16_fail(G16_ERR_FORMAT, "%s: expected a decimal string", where);
    uint64_t limbs[G16_FP_LIMBS];
    g16_status s = g16_decimal_to_limbs(limbs, G16_FP_LIMBS, g16_fp_modulus, json_string_value(v));
    if (s != G16_OK) return g16_fail_ctx(s, "%s", where);
    return g16_fp_from_canonical(out, limbs);
}

static g16_status fp2_from_json(g16_fp2 *out, const json_t *v, const char *where)
{
    if (!json_is_array(v) || json_array_size(v) != 2)
        return g16_fail(G16_ERR_FORMAT, "%s: expected an array of 2 decimal strings", where);
    G16_TRY(fp_from_json(&out->c0, json_array_get(v, 0), where));
    return fp_from_json(&out->c1, json_array_get(v, 1), where);
}

/* Reads a point of G1 (g2 = 0) or G2 and checks it fully: on the curve and in the
 * prime-order subgroup (snarkjs's own verifier checks only the curve). */
static g16_status point_from_json(void *out, const json_t *v, int g2, const char *where)
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return g16_fail(G16_ERR_FORMAT, "%s: expected a point as an array of 3 coordinates", where);
    if (!g2) {
        g16_g1_jac j;
        G16_TRY(fp_from_json(&j.x, json_array_get(v, 0), where));
        G16_TRY(fp_from_json(&j.y, json_array_get(v, 1), where));
        G16_TRY(fp_from_json(&j.z, json_array_get(v, 2), where));
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
    G16_TRY(fp2_from_json(&j.x, json_array_get(v, 0), where));
    G16_TRY(fp2_from_json(&j.y, json_array_get(v, 1), where));
    G16_TRY(fp2_from_json(&j.z, json_array_get(v, 2), where));
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

static g16_status expect_string(const json_t *root, const char *key, const char *want, const char *path)
{
    const json_t *v = json_object_get(root, key);
    if (!v) return G16_OK; /* optional: snarkjs does not need them either */
    const char *got = json_string_value(v); /* NULL when not a string */
    if (!got || strcmp(got, want) != 0) {
        if (!strcmp(key, "curve") && got)
            return g16_fail(G16_ERR_FORMAT, "%s: this is a curve %.40s file, but it is read as %s (a file of the "
                            "other curve given with it?)", path, got, want);
        return g16_fail(G16_ERR_FORMAT, "%s: \"%s\" must be \"%s\"", path, key, want);
    }
    return G16_OK;
}

static g16_status member_point(void *out, const json_t *root, const char *key, int g2, const char *path)
{
    char where[512];
    snprintf(where, sizeof where, "%s: %s", path, key);
    const json_t *v = json_object_get(root, key);
    if (!v) return g16_fail(G16_ERR_FORMAT, "%s: missing", where);
    return point_from_json(out, v, g2, where);
}

static g16_status read_vk(g16_sj_vk *vk, const json_t *root, const char *path)
{
    if (!json_is_object(root)) return g16_fail(G16_ERR_FORMAT, "%s: expected an object", path);
    G16_TRY(expect_string(root, "protocol", "groth16", path));
    G16_TRY(expect_string(root, "curve", G16_SJ_CURVE_NAME, path));
    const json_t *np = json_object_get(root, "nPublic"), *ic = json_object_get(root, "IC");
    if (!json_is_number(np)) return g16_fail(G16_ERR_FORMAT, "%s: nPublic: expected a number", path);
    /* a count: a whole number (jansson keeps "1.0" and "1e3" as reals) in range */
    json_int_t n = json_is_integer(np) ? json_integer_value(np) : -1;
    if (n < 0 || n > (1 << 30)) {
        char *txt = json_dumps(np, JSON_ENCODE_ANY);
        g16_status s = g16_fail(G16_ERR_FORMAT, "%s: nPublic: %s is not a count", path, txt ? txt : "?");
        free(txt);
        return s;
    }
    vk->n_public = (uint32_t)n;
    if (!json_is_array(ic) || json_array_size(ic) != (size_t)n + 1)
        return g16_fail(G16_ERR_FORMAT, "%s: IC: expected an array of nPublic + 1 = %lu points", path,
                        (unsigned long)n + 1);
    G16_TRY(member_point(&vk->alpha1, root, "vk_alpha_1", 0, path));
    G16_TRY(member_point(&vk->beta2, root, "vk_beta_2", 1, path));
    G16_TRY(member_point(&vk->gamma2, root, "vk_gamma_2", 1, path));
    G16_TRY(member_point(&vk->delta2, root, "vk_delta_2", 1, path));
    vk->ic = malloc(((size_t)n + 1) * sizeof *vk->ic);
    if (!vk->ic) return g16_fail(G16_ERR_NOMEM, "%s: IC", path);
    for (size_t i = 0; i <= (size_t)n; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s: IC[%zu]", path, i);
        G16_TRY(point_from_json(&vk->ic[i], json_array_get(ic, i), 0, where));
    }
    return G16_OK;
}

g16_status g16_sj_vk_read_json(g16_sj_vk *vk, const char *path)
{
    memset(vk, 0, sizeof *vk);
    json_t *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = read_vk(vk, root, path);
    json_decref(root);
    if (s != G16_OK) g16_sj_vk_free(vk);
    return s;
}

g16_status g16_sj_proof_read_json(g16_sj_proof *proof, const char *path)
{
    json_t *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = json_is_object(root) ? G16_OK : g16_fail(G16_ERR_FORMAT, "%s: expected an object", path);
    if (s == G16_OK) s = expect_string(root, "protocol", "groth16", path);
    if (s == G16_OK) s = expect_string(root, "curve", G16_SJ_CURVE_NAME, path);
    if (s == G16_OK) s = member_point(&proof->a, root, "pi_a", 0, path);
    if (s == G16_OK) s = member_point(&proof->b, root, "pi_b", 1, path);
    if (s == G16_OK) s = member_point(&proof->c, root, "pi_c", 0, path);
    json_decref(root);
    return s;
}

g16_status g16_sj_public_read_json(g16_fr **pub, size_t *n, const char *path)
{
    json_t *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = G16_OK;
    g16_fr *out = NULL;
    size_t len = json_array_size(root); /* 0 when not an array */
    if (!json_is_array(root)) s = g16_fail(G16_ERR_FORMAT, "%s: expected an array of decimal strings", path);
    if (s == G16_OK && !(out = malloc((len ? len : 1) * sizeof *out)))
        s = g16_fail(G16_ERR_NOMEM, "%s", path);
    for (size_t i = 0; s == G16_OK && i < len; i++) {
        const char *v = json_string_value(json_array_get(root, i));
        uint64_t limbs[4];
        if (!v) s = g16_fail(G16_ERR_FORMAT, "%s: [%zu]: expected a decimal string", path, i);
        else if ((s = g16_decimal_to_limbs(limbs, 4, g16_fr_modulus, v)) != G16_OK)
            s = g16_fail_ctx(s, "%s: [%zu]", path, i);
        else s = g16_fr_from_canonical(&out[i], limbs);
    }
    if (s == G16_OK) {
        *pub = out;
        *n = len;
    } else {
        free(out);
    }
    json_decref(root);
    return s;
}

/* ---------------------------------------------------------------------------
 * Writers: the value snarkjs writes, laid out as JSON.stringify(value, null, 1)
 * does (jansson with an indent of 1, members in insertion order).  jansson's
 * constructors return NULL when out of memory and its "_new" setters accept and
 * drop a NULL, so one check of each result and of the final tree is enough. */

static json_t *fp_json(const g16_fp *a)
{
    uint64_t c[G16_FP_LIMBS];
    char d[8 * 20 + 1];
    g16_fp_to_canonical(c, a);
    g16_limbs_to_decimal(d, c, G16_FP_LIMBS);
    return json_string(d);
}

/* an array of the given values; NULL when any is NULL or memory runs out */
static json_t *arr(size_t n, json_t *const *v)
{
    json_t *a = json_array();
    int bad = !a;
    for (size_t i = 0; i < n; i++) {
        if (!v[i] || bad || json_array_append_new(a, v[i]) != 0) {
            json_decref(v[i]);
            bad = 1;
        }
    }
    if (bad) json_decref(a);
    return bad ? NULL : a;
}

static json_t *g1_json(const g16_g1_affine *p)
{
    if (g16_g1_affine_is_infinity(p))
        return arr(3, (json_t *[]){json_string("0"), json_string("1"), json_string("0")});
    return arr(3, (json_t *[]){fp_json(&p->x), fp_json(&p->y), json_string("1")});
}

static json_t *fp2_json(const g16_fp2 *a)
{
    return arr(2, (json_t *[]){fp_json(&a->c0), fp_json(&a->c1)});
}

static json_t *pair(const char *c0, const char *c1)
{
    return arr(2, (json_t *[]){json_string(c0), json_string(c1)});
}

static json_t *g2_json(const g16_g2_affine *p)
{
    if (g16_g2_affine_is_infinity(p)) return arr(3, (json_t *[]){pair("0", "0"), pair("1", "0"), pair("0", "0")});
    return arr(3, (json_t *[]){fp2_json(&p->x), fp2_json(&p->y), pair("1", "0")});
}

/* Sets members in order; NULL values (out of memory) make it fail. */
static int set(json_t *o, const char *key, json_t *v)
{
    if (!o || !v) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(o, key, v);
}

static g16_status write_tree(json_t *root, int ok, const char *path)
{
    g16_status s = (ok && root) ? g16_json_write_file(root, path, 1)
                                : g16_fail(G16_ERR_NOMEM, "%s: out of memory building the JSON", path);
    json_decref(root);
    return s;
}

g16_status g16_sj_proof_write_json(const g16_sj_proof *proof, const char *path)
{
    json_t *o = json_object();
    int ok = set(o, "pi_a", g1_json(&proof->a)) == 0;
    ok &= set(o, "pi_b", g2_json(&proof->b)) == 0;
    ok &= set(o, "pi_c", g1_json(&proof->c)) == 0;
    ok &= set(o, "protocol", json_string("groth16")) == 0;
    ok &= set(o, "curve", json_string(G16_SJ_CURVE_NAME)) == 0;
    return write_tree(o, ok, path);
}

g16_status g16_sj_public_write_json(const g16_fr *pub, size_t n, const char *path)
{
    json_t *a = json_array();
    int ok = a != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        char d[80];
        g16_fr_to_decimal(d, &pub[i]);
        ok = json_array_append_new(a, json_string(d)) == 0;
    }
    return write_tree(a, ok, path);
}

g16_status g16_sj_vk_write_json(const g16_sj_pk *pk, const char *path)
{
    json_t *o = json_object(), *ic = json_array();
    int ok = set(o, "protocol", json_string("groth16")) == 0;
    ok &= set(o, "curve", json_string(G16_SJ_CURVE_NAME)) == 0;
    ok &= set(o, "nPublic", json_integer(pk->n_public)) == 0;
    ok &= set(o, "vk_alpha_1", g1_json(&pk->alpha1)) == 0;
    ok &= set(o, "vk_beta_2", g2_json(&pk->beta2)) == 0;
    ok &= set(o, "vk_gamma_2", g2_json(&pk->gamma2)) == 0;
    ok &= set(o, "vk_delta_2", g2_json(&pk->delta2)) == 0;
    for (uint32_t i = 0; ic && ok && i <= pk->n_public; i++)
        ok = json_array_append_new(ic, g1_json(&pk->ic[i])) == 0;
    ok &= set(o, "IC", ic) == 0;
    return write_tree(o, ok, path);
}
