/* JSON through jansson (the project's one JSON library: snarkjs files here, the
 * daemon's requests above), plus decimal <-> field-element conversion.
 *
 * Files are read whole (at most 1 GiB) and parsed strictly: RFC 8259 syntax, valid
 * UTF-8, no duplicate member names, any value at the top (public.json is an array;
 * callers check the type), nesting bounded by jansson's parser depth limit (2048),
 * so hostile input fails with an error rather than exhausting the stack. */
#ifndef G16_IO_JSON_H
#define G16_IO_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "g16.h"

/* Parses a whole file.  Out: root (json_decref).
 * Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT "PATH: line L col C: what" (jansson's
 * reason) or "PATH: larger than 1 GiB"; G16_ERR_NOMEM. */
g16_status g16_json_read_file(json_t **root, const char *path);
/* As g16_json_read_file on len bytes of text; name labels the messages. */
g16_status g16_json_parse(json_t **root, const char *text, size_t len, const char *name);

/* Writes root to path as JSON.stringify(root, null, indent) would (members in
 * insertion order, no trailing newline).  Returns G16_OK or G16_ERR_IO. */
g16_status g16_json_write_file(const json_t *root, const char *path, int indent);

/* Parses a decimal string (digits only, no sign, no leading zeros except "0")
 * into little-endian limbs and requires value < modulus.
 * Returns: G16_OK; G16_ERR_FORMAT (not a decimal number); G16_ERR_NONCANONICAL (>= modulus). */
g16_status g16_decimal_to_limbs(uint64_t *out, size_t limbs, const uint64_t *modulus, const char *s);

/* Writes the little-endian integer as decimal.  out must hold 20·limbs + 1 chars. */
void g16_limbs_to_decimal(char *out, const uint64_t *in, size_t limbs);

#endif
