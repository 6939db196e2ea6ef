/* Eight Poseidon traces at once (filecoin/poseidon_ifma.c) against the scalar trace:
 * arities 2, 4, 8 and 11, every lane count 1..8, random inputs with 0, 1 and r − 1
 * sprinkled in, lanes writing to scattered places; every value equal bit for bit, the
 * lanes beyond the count untouched, the length g16_poseidon_trace_len says.  On a CPU
 * without IFMA the batch must decline (return 0, write nothing), and does the same
 * under g16_fp_batch_force_scalar. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "field/fp_batch.h"
#include "filecoin/poseidon.h"

static g16_rng rng;

static void fill(g16_fr *v, size_t n) { g16_test_fill_fr_edges(&rng, v, n, 8); }

#define SLOT 700 /* > 598, the longest trace */

static void one_case(const g16_poseidon *p, unsigned lanes, g16_fr *buf)
{
    size_t len = g16_poseidon_trace_len(p);
    g16_fr in[8][11];
    const g16_fr *inp[8];
    g16_fr *aux[8];
    /* lanes go to slots in a shuffled order, one slot apart, so a lane mix-up shows */
    unsigned order[8] = {5, 2, 7, 0, 3, 6, 1, 4};
    memset(buf, 0xa5, 16 * SLOT * sizeof *buf);
    for (unsigned k = 0; k < 8; k++) {
        fill(in[k], p->arity);
        inp[k] = in[k];
        aux[k] = buf + 2 * order[k] * SLOT;
    }
    size_t got = g16_poseidon_hash_trace8(p, inp, aux, lanes);
    if (!g16_use_ifma) {
        g16_fr probe;
        memset(&probe, 0xa5, sizeof probe);
        CHECK(got == 0 && !memcmp(buf, &probe, sizeof probe), "arity %u: without IFMA the batch declines",
              p->arity);
        return;
    }
    CHECK(got == len, "arity %u, %u lanes: %zu values a lane, want %zu", p->arity, lanes, got, len);
    g16_fr want[SLOT], dig;
    for (unsigned k = 0; k < 8; k++) {
        if (k < lanes) {
            size_t n = g16_poseidon_hash_trace(&dig, p, in[k], want);
            CHECK(n == len && !memcmp(aux[k], want, len * sizeof *want) && g16_fr_eq(&aux[k][len - 1], &dig),
                  "arity %u, %u lanes: lane %u equals the scalar trace", p->arity, lanes, k);
        } else {
            int untouched = 1;
            for (size_t i = 0; i < SLOT * sizeof(g16_fr); i++) untouched &= ((unsigned char *)aux[k])[i] == 0xa5;
            CHECK(untouched, "arity %u, %u lanes: lane %u is not written", p->arity, lanes, k);
        }
    }
}

int main(void)
{
    g16_rng_seed(&rng, 0x5ead8);
    const unsigned arities[4] = {2, 4, 8, 11};
    static const size_t lens[4] = {311, 377, 505, 598};
    g16_fr *buf = malloc(16 * SLOT * sizeof *buf);
    if (!buf) return 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (!g16_use_ifma) break; /* already the scalar side */
            g16_fp_batch_force_scalar(1);
        }
        for (int a = 0; a < 4; a++) {
            const g16_poseidon *p = g16_poseidon_get(arities[a]);
            CHECK(p != NULL, "constants for arity %u", arities[a]);
            if (!p) continue;
            CHECK(g16_poseidon_trace_len(p) == lens[a], "arity %u: trace of %zu values", arities[a],
                  g16_poseidon_trace_len(p));
            for (unsigned lanes = 1; lanes <= 8; lanes++)
                for (int rep = 0; rep < (pass ? 1 : 4); rep++) one_case(p, lanes, buf);
        }
    }
    g16_fp_batch_force_scalar(0);
    if (!g16_use_ifma) printf("test_filecoin_poseidon_ifma: this CPU has no AVX-512 IFMA; only the fallback was checked\n");
    free(buf);
    return g16_test_finish("test_filecoin_poseidon_ifma");
}
