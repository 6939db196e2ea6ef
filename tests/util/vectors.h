/* Reader for the test vectors in tests/vectors (made by scripts/gen-vectors.mjs from
 * @noble/curves; the format is described in docs/vectors.md).
 *
 * A vector file is plain text, one record per line, whitespace-separated tokens; the
 * first token is the op name, the rest are its operands.  Lines starting with '#' and
 * blank lines are skipped.  Numbers are lowercase big-endian hex without 0x, of fixed
 * width; an Fp2 element is one token "c0hex,c1hex"; "-" stands for an empty byte
 * string.
 *
 * Typical use:
 *     g16_vec_file *f = g16_vec_open("fp.txt");
 *     g16_vec_line l;
 *     int rc;
 *     while ((rc = g16_vec_next(f, &l)) > 0) { if (!strcmp(l.op, "add")) ... }
 *     CHECK(rc == 0, "%s", "read error");
 *     g16_vec_close(f);
 *
 * Depends only on libc and the field layer (g16_testutil links g16_field only). */
#ifndef G16_TEST_VECTORS_H
#define G16_TEST_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"

/* Most operands any record has (pow a e r has 3; pair P Q E has 3). */
#define G16_VEC_MAX_TOK 8

typedef struct g16_vec_file g16_vec_file;

typedef struct g16_vec_line {
    const char *op;                   /* first token of the record */
    int ntok;                         /* number of operands after op */
    const char *tok[G16_VEC_MAX_TOK]; /* operands, NUL-terminated */
    const char *file;                 /* file name as given to g16_vec_open */
    long lineno;                      /* 1-based line number, for messages */
} g16_vec_line;

/* Opens G16_VECTOR_DIR "/" name.  Returns NULL (and prints why on stderr) when the
 * file cannot be opened: callers must treat that as a test failure, not a skip. */
g16_vec_file *g16_vec_open(const char *name);

/* Reads the next record into *line.  Returns 1 for a record, 0 at end of file, -1 on
 * a read error or a malformed line (more than G16_VEC_MAX_TOK operands); the reason
 * is printed on stderr.  The strings in *line stay valid until the next call to
 * g16_vec_next or g16_vec_close on the same file. */
int g16_vec_next(g16_vec_file *f, g16_vec_line *line);

/* Closes f (NULL is allowed). */
void g16_vec_close(g16_vec_file *f);

/* Decodes tok into exactly len bytes.  Returns 1 on success, 0 when tok is not
 * exactly 2·len hex digits (len 0 matches only "-"). */
int g16_vec_hex(const char *tok, uint8_t *out, size_t len);

/* Decodes tok of any length up to cap bytes ("-" is the empty string).  Returns the
 * number of bytes, or -1 on bad hex or when it does not fit. */
long g16_vec_hex_any(const char *tok, uint8_t *out, size_t cap);

/* Field elements from their big-endian hex (96 hex chars for Fp, 64 for Fr, and
 * "c0,c1" for Fp2).  Return 1 on success, 0 on a bad token or a value >= the
 * modulus. */
int g16_vec_fp(const char *tok, g16_fp *out);
int g16_vec_fr(const char *tok, g16_fr *out);
int g16_vec_fp2(const char *tok, g16_fp2 *out);

/* A 32-byte big-endian scalar (may be >= r) as four little-endian 64-bit limbs.
 * Returns 1 on success, 0 on a bad token. */
int g16_vec_scalar(const char *tok, uint64_t out[4]);

#endif
