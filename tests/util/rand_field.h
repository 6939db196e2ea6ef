/* Uniform random field elements for tests, from the seeded test generator. */
#ifndef G16_TEST_RAND_FIELD_H
#define G16_TEST_RAND_FIELD_H

#include <stddef.h>

#include "check.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"

/* Rejection sampling below the modulus, so every residue is equally likely. */
void g16_test_rand_fp(g16_rng *rng, g16_fp *r);
void g16_test_rand_fp2(g16_rng *rng, g16_fp2 *r);
void g16_test_rand_fr(g16_rng *rng, g16_fr *r);
/* n elements, each 0, 1 or r − 1 (as stored) with odds 1 in `odds` apiece, else uniform:
 * the edge values a vector path must get right. */
void g16_test_fill_fr_edges(g16_rng *rng, g16_fr *v, size_t n, unsigned odds);

#endif
