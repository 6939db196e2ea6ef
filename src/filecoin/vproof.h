/* FallbackPoSt vanilla proofs as the Rust proofs library serializes them with
 * bincode 1 (fixed-width little-endian integers: u64 lengths and usize, u32 enum
 * tags; a field element is its 32-byte little-endian canonical value):
 *
 *   FallbackPoStSectorProof = sector_id u64, comm_r Fr, sectors Vec<SectorProof>
 *   SectorProof  = inclusion_proofs Vec<MerkleProof>, comm_c Fr, comm_r_last Fr
 *   MerkleProof  = tag u32: 0 Single {root, leaf, path}
 *                           1 Sub    {base path, sub path, root, leaf}
 *                           2 Top    {base path, sub path, top path, root, leaf}
 *   path         = Vec<PathElement>;  PathElement = hashes Vec<Fr>, index u64
 *
 * Every count is checked against the bytes left before anything is allocated, so
 * a hostile length fails with a message instead of a huge allocation. */
#ifndef G16_FILECOIN_VPROOF_H
#define G16_FILECOIN_VPROOF_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

/* One tree level of an inclusion path: the node's position among arity
 * children and the arity − 1 siblings (hashes[first .. first + arity − 2]). */
typedef struct g16_fc_level {
    uint32_t arity;
    uint32_t index;
    uint64_t first;
    uint64_t offset; /* file offset of the element, for messages */
} g16_fc_level;

typedef struct g16_fc_inclusion {
    uint32_t kind;         /* 0 single, 1 sub, 2 top */
    uint32_t n_levels[3];  /* base, sub, top */
    uint64_t level0;       /* first level in g16_fc_vproof.levels */
    g16_fr root, leaf;
    uint64_t leaf_index;   /* Σ index_i · Π arity_j<i: the leaf the path opens */
    uint64_t offset;
} g16_fc_inclusion;

typedef struct g16_fc_sector {
    uint64_t n_incl, incl0;
    g16_fr comm_c, comm_r_last;
    uint64_t offset;
} g16_fc_sector;

typedef struct g16_fc_vproof {
    uint64_t sector_id;
    g16_fr comm_r;
    uint8_t comm_r_le[32];
    uint64_t n_sectors, n_incl, n_levels, n_hashes;
    g16_fc_sector *sectors;
    g16_fc_inclusion *incl;
    g16_fc_level *levels;
    g16_fr *hashes;
} g16_fc_vproof;

/* Parses one FallbackPoStSectorProof from buf (name is used in messages).
 * Returns G16_OK, G16_ERR_FORMAT ("NAME: offset N: ...": truncated, a length that
 * cannot fit, an unknown tag, an arity other than 2/4/8, an index >= arity, a
 * non-canonical field element, trailing bytes), G16_ERR_NOMEM. */
g16_status g16_fc_vproof_parse(g16_fc_vproof *out, const uint8_t *buf, size_t len, const char *name);
/* Parses the same proof as serde_json writes it: {"sector_id": N, "comm_r": Fr,
 * "vanilla_proof": {"sectors": [{"inclusion_proofs": [{"data": {"Single" | "Sub" |
 * "Top": {...}}}], "comm_c": Fr, "comm_r_last": Fr}]}}, a field element an array of
 * its 32 little-endian bytes, a path {"path": [{"hashes": [Fr...], "index": N}]}.
 * Every field is checked (no missing, unknown or duplicate key, types, 32 bytes
 * 0..255 below r, 1/3/7 siblings, index below the arity); messages name the JSON
 * path ("NAME: $.vanilla_proof.sectors[0]...: what was expected"). */
g16_status g16_fc_vproof_parse_json(g16_fc_vproof *out, const uint8_t *buf, size_t len, const char *name);
/* Reads and parses a file, bincode or JSON (a file whose first non-blank byte
 * is '{' and is not a valid bincode proof); G16_ERR_IO when it cannot be read. */
g16_status g16_fc_vproof_read(g16_fc_vproof *out, const char *path);
void g16_fc_vproof_free(g16_fc_vproof *v);

#endif
