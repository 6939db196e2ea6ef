/* From vanilla proofs to the circuit sectors of a PoSt's partitions, as the Rust
 * proofs library lays them out, and TEST-ONLY synthetic vanilla proofs.
 *
 * Challenges: proof j of a sector opens leaf u64le(SHA-256(randomness ‖ sector id
 * ‖ j)[0..8]) mod leaves (ApiVersion 1.2's rule: the challenge index restarts at 0
 * for every sector), the randomness's byte 31 first masked with 0x3f as Lotus and
 * the FVM do.  WindowPoSt: the sectors in the order given, cfg->sectors a
 * partition; a short last partition repeats its last sector.  WinningPoSt: one
 * sector (the one its sector challenge picked), 66 circuit sectors of one
 * challenge each. */
#ifndef G16_FILECOIN_POST_PLAN_H
#define G16_FILECOIN_POST_PLAN_H

#include "filecoin/post_fast.h"

/* Checks every vanilla proof (one sector proof each, the shape's tree, the
 * configured number of inclusion proofs, each opening its challenged leaf, comm_r
 * = Poseidon-2(comm_c, comm_r_last), every path hashing to comm_r_last) and lays
 * out the partitions.  Out: *refs (malloc'd; partitions × circuit_sectors of the
 * layout, partition-major), *partitions.
 * Returns G16_ERR_UNSATISFIED naming the file index, sector and proof for a proof
 * that does not check out, G16_ERR_ARG for a wrong count of vanilla proofs. */
g16_status g16_fc_post_plan(g16_fc_sector_ref **refs, unsigned *partitions, const g16_fc_post_config *cfg,
                            const g16_fc_vproof *v, size_t n_v, const uint8_t randomness[32]);

/* Which vanilla proofs partition `part` of a PoSt over n_v of them takes:
 * [*first, *first + *count) (WindowPoSt cfg->sectors a partition, the last one
 * short; WinningPoSt its one proof).  Returns G16_ERR_ARG for a partition the PoSt
 * does not have. */
g16_status g16_fc_post_part_files(uint64_t *first, uint64_t *count, const g16_fc_post_config *cfg, uint64_t n_v,
                                  unsigned part);

/* g16_fc_post_plan for one partition alone (a cluster node proving the partition it
 * claimed reads and checks only that partition's vanilla proofs): v[0 .. n) are the
 * PoSt's vanilla proofs first .. first + n − 1 (g16_fc_post_part_files), checked as
 * g16_fc_post_plan checks them (its messages number them from first).  Out: *refs
 * (malloc'd; the layout's circuit_sectors, a short partition padded as there). */
g16_status g16_fc_post_plan_one(g16_fc_sector_ref **refs, const g16_fc_post_config *cfg, const g16_fc_vproof *v,
                                size_t n, size_t first, const uint8_t randomness[32]);

/* WinningPoSt's sector: index n's challenge picks u64le(SHA-256(prover_id ‖
 * randomness ‖ n u64 LE)[0..8]) mod set_len of the prover's sector set (Filecoin
 * challenges one, n = 0); the randomness's byte 31 masked with 0x3f first, as
 * Lotus does.  Returns the index (0 when set_len is 0, which callers refuse). */
uint64_t g16_fc_winning_sector(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                               uint64_t set_len);

/* TEST-ONLY: a consistent FallbackPoSt sector vanilla proof in bincode for a
 * sector of this configuration: a sparse tree whose leaves and off-path nodes are
 * drawn from seed (SHA-256), the challenged paths hashed up to one comm_r_last,
 * comm_c drawn, comm_r = Poseidon-2(comm_c, comm_r_last).  Out: *buf (malloc'd),
 * *len. */
g16_status g16_fc_vproof_synth(uint8_t **buf, size_t *len, const g16_fc_post_config *cfg, uint64_t sector_id,
                               const uint8_t randomness[32], const uint8_t *seed, size_t seed_len);

#endif
