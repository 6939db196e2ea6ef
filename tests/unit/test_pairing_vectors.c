/* Known answers from @noble/curves (tests/vectors/pairing.txt, docs/vectors.md):
 * every `pair P Q E` record, through the single pairing, the prepared path and the
 * 576-byte serialiser. */
#include <string.h>

#include "check.h"
#include "curve/curve.h"
#include "pairing/pairing.h"
#include "vectors.h"

int main(void)
{
    g16_vec_file *f = g16_vec_open("pairing.txt");
    CHECK(f != NULL, "%s", "cannot open pairing.txt");
    if (!f) return g16_test_finish("test_pairing_vectors");
    g16_vec_line l;
    int rc, records = 0, inf_records = 0;
    while ((rc = g16_vec_next(f, &l)) > 0) {
        if (strcmp(l.op, "pair") != 0) {
            CHECK(0, "%s:%ld: unknown op %s", l.file, l.lineno, l.op);
            continue;
        }
        uint8_t pb[G16_G1_COMPRESSED_BYTES], qb[G16_G2_COMPRESSED_BYTES], eb[G16_FP12_BYTES];
        uint8_t got[G16_FP12_BYTES];
        g16_g1_affine P;
        g16_g2_affine Q;
        if (l.ntok != 3 || !g16_vec_hex(l.tok[0], pb, sizeof pb) ||
            !g16_vec_hex(l.tok[1], qb, sizeof qb) || !g16_vec_hex(l.tok[2], eb, sizeof eb)) {
            CHECK(0, "%s:%ld: malformed record", l.file, l.lineno);
            continue;
        }
        CHECK(g16_g1_decode(&P, pb, sizeof pb, 0) == G16_OK, "%s:%ld: P decodes", l.file, l.lineno);
        CHECK(g16_g2_decode(&Q, qb, sizeof qb, 0) == G16_OK, "%s:%ld: Q decodes", l.file, l.lineno);
        inf_records += g16_g1_affine_is_infinity(&P) | g16_g2_affine_is_infinity(&Q);

        g16_fp12 e, e2, ref;
        g16_pairing(&e, &P, &Q);
        g16_fp12_to_bytes(got, &e);
        CHECK(memcmp(got, eb, sizeof eb) == 0, "%s:%ld: e(P, Q) matches noble", l.file, l.lineno);
        CHECK(g16_fp12_from_bytes(&ref, eb) == G16_OK && g16_fp12_eq(&ref, &e),
              "%s:%ld: E parses to the same element", l.file, l.lineno);

        static g16_g2_prepared prep;
        const g16_g2_prepared *pp[1] = {&prep};
        g16_g2_prepare(&prep, &Q);
        g16_miller_loop_mixed(&e2, NULL, NULL, 0, &P, pp, 1);
        g16_final_exp(&e2, &e2);
        CHECK(g16_fp12_eq(&e2, &e), "%s:%ld: prepared path matches", l.file, l.lineno);
        records++;
    }
    CHECK(rc == 0, "%s", "read error in pairing.txt");
    g16_vec_close(f);
    /* the file's documented content: generators, random multiples, two infinities */
    CHECK(records >= 7, "only %d pairing records", records);
    CHECK(inf_records >= 2, "only %d records with infinity", inf_records);
    return g16_test_finish("test_pairing_vectors");
}
