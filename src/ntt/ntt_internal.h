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

#endif
