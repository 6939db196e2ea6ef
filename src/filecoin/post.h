/* Proofs of Spacetime (FallbackPoSt): tree shapes and partition sizes per sector
 * size, the public side of a WindowPoSt, the challenged leaves, and the native
 * check of a vanilla proof (what the circuit proves, without the circuit). */
#ifndef G16_FILECOIN_POST_H
#define G16_FILECOIN_POST_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/vproof.h"

typedef enum g16_fc_post_kind { G16_FC_WINNING = 0, G16_FC_WINDOW = 1 } g16_fc_post_kind;

/* The comm_r_last tree of a sector: base levels of arity 8, then at most one sub
 * level and one top level (0: absent).  leaves = sector size / 32. */
typedef struct g16_fc_shape {
    uint64_t sector_size, leaves;
    unsigned base_arity, base_levels, sub_arity, top_arity;
} g16_fc_shape;

/* Filecoin's shapes (filecoin-proofs constants.rs): 2 KiB, 8 MiB, 512 MiB base 8
 * only; 32 GiB 8-8; 64 GiB 8-8-2.  Returns G16_ERR_ARG for other sizes. */
g16_status g16_fc_shape_for(g16_fc_shape *out, uint64_t sector_size);

/* Parses "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (or a byte count).
 * Returns G16_ERR_ARG when the text is neither. */
g16_status g16_fc_parse_sector_size(uint64_t *out, const char *text);

/* Sectors a partition and challenges a sector: Winning 1 sector (66 challenges;
 * the circuit repeats it 66 times with one challenge each, see post_circuit.c),
 * Window 10 challenges with 2349 (32 GiB), 2300 (64 GiB) or 2 sectors. */
typedef struct g16_fc_post_config {
    g16_fc_post_kind kind;
    g16_fc_shape shape;
    unsigned sectors;    /* sectors a partition (Winning: 1) */
    unsigned challenges; /* challenges a sector (Winning: 66) */
} g16_fc_post_config;
g16_status g16_fc_post_config_for(g16_fc_post_config *out, g16_fc_post_kind kind, uint64_t sector_size);

/* The public side of a WindowPoSt as Go's proof.WindowPoStVerifyInfo JSON holds
 * it: Randomness (base64 of 32 bytes), Proofs[0].PoStProof (registered proof
 * type), ChallengedSectors[] {SectorNumber, SealedCID {"/": CID}}, Prover. */
typedef struct g16_fc_post_pub {
    uint8_t randomness[32];
    int64_t proof_type;
    g16_fc_post_kind kind;
    uint64_t sector_size;
    uint64_t prover;
    size_t n_sectors;
    struct {
        uint64_t number;
        uint8_t comm_r_le[32]; /* the sealed CID's multihash digest */
    } *sectors;
} g16_fc_post_pub;

/* Reads the JSON file.  Returns G16_OK, G16_ERR_IO, G16_ERR_FORMAT ("PATH: what":
 * a missing or mistyped field, bad base64, a CID that is not a v1
 * fil-commitment-sealed / poseidon-bls12_381-a2-fc1 commitment, an unknown
 * proof type), G16_ERR_NOMEM. */
g16_status g16_fc_post_pub_read(g16_fc_post_pub *out, const char *path);
void g16_fc_post_pub_free(g16_fc_post_pub *p);

/* Decodes a sealed-sector CID string (multibase 'b', base32).  Out: comm_r_le.
 * Returns G16_ERR_FORMAT naming what is wrong. */
g16_status g16_fc_cid_to_comm_r(uint8_t comm_r_le[32], const char *cid);

/* The challenged leaf: the first 8 bytes (u64 little-endian) of
 * SHA-256(randomness ‖ sector_id u64 LE ‖ index u64 LE) mod leaves. */
uint64_t g16_fc_challenge_leaf(const uint8_t randomness[32], uint64_t sector_id, uint64_t index, uint64_t leaves);

/* Checks a vanilla proof natively against its public side: the sector and its
 * comm_r are the public ones, Poseidon-2(comm_c, comm_r_last) = comm_r, each
 * inclusion proof has the sector's tree shape, hashes from its leaf to its root
 * and that root is comm_r_last, there are as many as the proof type challenges,
 * and proof j opens the leaf challenge j names (randomness byte 31 masked with
 * 0x3f first, as the FVM and Lotus do).
 * Returns G16_OK (valid), G16_ERR_UNSATISFIED (invalid; the message says which
 * check failed and where), G16_ERR_NOMEM. */
g16_status g16_fc_post_check(const g16_fc_vproof *v, const g16_fc_post_pub *pub);

/* Hashes one inclusion path from its leaf.  Out: root.  Returns G16_ERR_ARG when
 * a level's arity has no Poseidon (cannot happen for a parsed proof). */
g16_status g16_fc_path_root(g16_fr *root, const g16_fc_vproof *v, const g16_fc_inclusion *inc);

#endif
