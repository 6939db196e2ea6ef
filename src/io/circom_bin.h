/* The binary container shared by circom's .r1cs and snarkjs's .wtns / .zkey:
 * 4-byte magic, u32 version, u32 section count, then sections (u32 id, u64 size,
 * payload); integers little-endian; nothing after the last section.  Sections may
 * come in any order and are looked up by id.  See docs/formats.md.
 *
 * The file is mapped read-only; readers take what they need out of it (copying into
 * aligned arrays) and close it. */
#ifndef G16_IO_CIRCOM_BIN_H
#define G16_IO_CIRCOM_BIN_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

#define G16_BIN_MAX_SECTIONS 64

typedef struct g16_bin_sec {
    uint32_t id;
    uint64_t off;   /* payload offset in the file */
    uint64_t size;  /* payload bytes */
} g16_bin_sec;

typedef struct g16_binfile {
    const char *path;     /* for messages (not owned) */
    const uint8_t *data;  /* the whole file */
    uint64_t size;
    uint32_t version;
    uint32_t n_sections;
    g16_bin_sec sec[G16_BIN_MAX_SECTIONS];
    void *map_;           /* private */
} g16_binfile;

/* A bounded cursor over one section, so every read names the section and the
 * absolute file offset when it runs past the end. */
typedef struct g16_bin_cursor {
    const g16_binfile *f;
    uint32_t id;
    uint64_t pos, end;    /* absolute offsets */
} g16_bin_cursor;

/* Maps `path` and parses the section table.
 * Returns: G16_OK; G16_ERR_IO when it cannot be opened or mapped; G16_ERR_FORMAT
 * ("PATH: offset N: ...") for a wrong magic, a truncated or overlong table, a
 * section that runs past the end, trailing bytes, or a repeated section id. */
g16_status g16_bin_open(g16_binfile *f, const char *path, const char magic[4]);
void g16_bin_close(g16_binfile *f);

/* Finds section `id`.  Out: cur: a cursor over its payload.
 * Returns: G16_OK; G16_ERR_FORMAT "PATH: section ID (what) missing" when absent. */
g16_status g16_bin_section(g16_bin_cursor *cur, const g16_binfile *f, uint32_t id, const char *what);
/* Returns: 1 when the file has section id. */
int g16_bin_has(const g16_binfile *f, uint32_t id);

/* Reads from the cursor and advances it; G16_ERR_FORMAT naming the section and
 * offset when fewer than the needed bytes remain. */
g16_status g16_bin_u32(g16_bin_cursor *c, uint32_t *v);
g16_status g16_bin_u64(g16_bin_cursor *c, uint64_t *v);
/* Out: p: a pointer into the mapping (no alignment guarantee). */
g16_status g16_bin_bytes(g16_bin_cursor *c, const uint8_t **p, uint64_t n);
/* G16_ERR_FORMAT "section ID: offset N: M bytes left over" unless the cursor is at its end. */
g16_status g16_bin_expect_end(const g16_bin_cursor *c);
/* Formats a G16_ERR_FORMAT message at the cursor's position. */
g16_status g16_bin_fail(const g16_bin_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Checks a field header "u32 n8, prime (n8 bytes LE)" against the expected prime
 * (r or q of the curve being read).  The other curve's prime gives G16_ERR_FORMAT
 * "this is a curve bn128 file, but it is read as bls12381 ..."; any other prime or
 * width, G16_ERR_FORMAT naming it. */
g16_status g16_bin_expect_prime(g16_bin_cursor *c, const uint64_t *prime, size_t limbs, const char *what);

/* The curve a .r1cs / .wtns / .zkey file is for, from its first field header
 * (f opened with its magic).  Returns: G16_OK; G16_ERR_FORMAT naming the section and
 * offset when the header is missing or its prime is neither curve's. */
g16_status g16_bin_curve(const g16_binfile *f, g16_curve_id *out);

#endif
