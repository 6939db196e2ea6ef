/* Shared between the NTT files and its benchmark; not part of the NTT contract. */
#ifndef G16_NTT_NTT_INTERNAL_H
#define G16_NTT_NTT_INTERNAL_H

/* log2 of the block size below which all remaining stages run on one block in
 * cache.  Read when a domain is built; changing it later affects only domains
 * built afterwards (the bench uses it to compare block sizes). */
extern int g16_ntt_block_log;

/* Frees every cached domain so that the next g16_domain_get rebuilds it (with the
 * current g16_ntt_block_log).  For tests and benchmarks only: no domain may be
 * in use by any thread. */
void g16_ntt_domain_cache_clear(void);

#include <stddef.h>

#include "field/fr.h"

/* Scaling fused into a pass: element i is multiplied by c0·ratio^i (ratio 1 when
 * !has_ratio). */
typedef struct g16_ntt_scale {
    int on, has_ratio;
    g16_fr c0, ratio;
} g16_ntt_scale;

/* The 8-lane AVX-512 IFMA form of ntt.c's passes (ntt_ifma.c).  Runs items [b, e) of
 * one radix-4 (radix 4: two stages, sub-transform sizes s and s/2) or radix-2 pass over
 * the blocks of s elements at a (item t: block t / (s/radix), offset t % (s/radix)),
 * DIF or DIT, inverse twiddles when inv, ω_s^e = tw[e·st]; sc (or NULL) scales the
 * elements by their index in a, before a DIF pass and after a DIT one.  The results
 * equal the scalar butterflies' bit for bit.  Returns 0, having done nothing, when
 * the IFMA path is off or the shape does not fit 8 lanes (s/radix or b or e not a
 * multiple of 8): the caller then runs its scalar loop. */
int g16_ntt_v8_pass(g16_fr *a, size_t s, int radix, size_t b, size_t e, const g16_fr *tw, size_t st,
                    int inv, int dif, const g16_ntt_scale *sc);

/* Every stage of one block of 2^block_log elements at x (ntt.c's in-cache stages: DIF
 * from the largest sub-transform down, DIT up), twiddles tw[e·(B/s)] from the block
 * table; 0 when the IFMA path is off or block_log < 4. */
int g16_ntt_v8_block(g16_fr *x, int block_log, const g16_fr *tw, int inv, int dif);

/* g16_ntt_pointwise's items [i0, i1) (multiples of 16); 0 when the IFMA path is off. */
int g16_ntt_v8_hq(g16_fr *a, const g16_fr *b, const g16_fr *c, const g16_fr *z, size_t i0, size_t i1);

#endif
