/* Which curve a snarkjs file is for, and the one dispatch to that curve's
 * file-level functions (snarkjs_files.h).  Compiled once: it reads no field
 * element, only a header's prime or a JSON "curve" member. */
#include <string.h>

#include "common/error.h"
#include "io/circom_bin.h"
#include "io/json.h"
#include "io/snarkjs_files.h"

static const g16_sj_ops bls_ops = {G16_CURVE_ID_BLS12_381, g16_sj_prove_files, g16_sj_verify_files,
                                   g16_sj_testkey_files, g16_sj_key_load, g16_sj_key_free,
                                   g16_sj_key_prove, g16_sj_wtns_count};
#ifdef G16_WITH_BN254_SNARKJS
static const g16_sj_ops bn254_ops = {G16_CURVE_ID_BN254, g16_bn254_sj_prove_files, g16_bn254_sj_verify_files,
                                     g16_bn254_sj_testkey_files, g16_bn254_sj_key_load, g16_bn254_sj_key_free,
                                     g16_bn254_sj_key_prove, g16_bn254_sj_wtns_count};
#endif

static g16_status json_curve(const char *path, g16_curve_id *curve, int *known)
{
    json_t *root;
    G16_TRY(g16_json_read_file(&root, path));
    g16_status s = G16_OK;
    const json_t *v = json_is_object(root) ? json_object_get(root, "curve") : NULL;
    *known = 0;
    if (v) {
        const char *name = json_string_value(v);
        if (name && !strcmp(name, "bls12381")) *curve = G16_CURVE_ID_BLS12_381, *known = 1;
        else if (name && !strcmp(name, "bn128")) *curve = G16_CURVE_ID_BN254, *known = 1;
        else s = g16_fail(G16_ERR_FORMAT, "%s: \"curve\": %s%.40s%s is not supported (bls12381 or bn128)", path,
                          name ? "\"" : "", name ? name : "a non-string", name ? "\"" : "");
    }
    json_decref(root);
    return s;
}

g16_status g16_sj_file_curve(const char *path, g16_curve_id *curve, int *known)
{
    static const char *const magics[] = {"r1cs", "wtns", "zkey"};
    const size_t len = strlen(path);
    if (len >= 5 && !strcmp(path + len - 5, ".json")) return json_curve(path, curve, known);
    for (size_t i = 0; i < 3; i++) {
        if (len < 5 || strcmp(path + len - 4, magics[i])) continue;
        g16_binfile f;
        G16_TRY(g16_bin_open(&f, path, magics[i]));
        g16_status s = g16_bin_curve(&f, curve);
        g16_bin_close(&f);
        *known = s == G16_OK;
        return s;
    }
    /* no telling suffix: the binary kinds by their magic, then JSON */
    for (size_t i = 0; i < 3; i++) {
        g16_binfile f;
        if (g16_bin_open(&f, path, magics[i]) != G16_OK) continue;
        g16_status s = g16_bin_curve(&f, curve);
        g16_bin_close(&f);
        *known = s == G16_OK;
        return s;
    }
    return json_curve(path, curve, known);
}

g16_status g16_sj_pick(const g16_sj_ops **ops, const char *const *paths, size_t n)
{
    const char *first = NULL;
    g16_curve_id curve = G16_CURVE_ID_BLS12_381, c;
    for (size_t i = 0; i < n; i++) {
        int known = 0;
        if (!paths[i]) continue;
        G16_TRY(g16_sj_file_curve(paths[i], &c, &known));
        if (!known) continue;
        if (first && c != curve)
            return g16_fail(G16_ERR_FORMAT, "%s is a %s file but %s is %s: the files must be for one curve", paths[i],
                            g16_sj_curve_name(c), first, g16_sj_curve_name(curve));
        if (!first) first = paths[i], curve = c;
    }
    if (curve == G16_CURVE_ID_BLS12_381) {
        *ops = &bls_ops;
        return G16_OK;
    }
#ifdef G16_WITH_BN254_SNARKJS
    *ops = &bn254_ops;
    return G16_OK;
#else
    return g16_fail(G16_ERR_ARG, "%s: curve bn128: this g16 was built without the BN254 snarkjs prover "
                    "(docs/curve.md)", first);
#endif
}
