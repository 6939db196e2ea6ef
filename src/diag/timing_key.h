/* TIMING-ONLY proving keys: the sizes a setup of a circuit would give, every
 * query filled with a few thousand distinct multiples of the generator tiled to
 * length.  An MSM's work does not depend on its bases being distinct, so such a
 * key times a prover exactly; proofs made with it are NOT valid and must never
 * be verified or kept.  It exists so that 2^24..2^27-row circuits can be timed
 * without the minutes (or, at 2^27, the ~70 GB and hours) of a real setup. */
#ifndef G16_DIAG_TIMING_KEY_H
#define G16_DIAG_TIMING_KEY_H

#include "groth16/groth16.h"
#include "r1cs/r1cs.h"

/* Out: *out: a TIMING-ONLY key for circ with density d (release with
 * g16_key_release).  The tiling runs on the default pool.
 * Returns G16_OK, or G16_ERR_NOMEM. */
g16_status g16_timing_key(g16_key **out, const g16_circuit *circ, const g16_density *d);

#endif
