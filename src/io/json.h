/* A small JSON reader (whole document into a tree) for snarkjs's key, proof and
 * public-signal files, and decimal <-> field-element conversion.  Strict RFC 8259
 * syntax; strings keep their escapes decoded only for \" \\ \/ \n \t \r \b \f
 * (\u escapes are refused: snarkjs never writes them).  Depth is limited to 64. */
#ifndef G16_IO_JSON_H
#define G16_IO_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

typedef enum g16_json_type {
    G16_JSON_NULL, G16_JSON_BOOL, G16_JSON_NUMBER, G16_JSON_STRING, G16_JSON_ARRAY, G16_JSON_OBJECT
} g16_json_type;

typedef struct g16_json {
    g16_json_type type;
    char *str;               /* STRING: the text; NUMBER: its literal text; object member: key in `key` */
    char *key;               /* set on members of an object */
    size_t n;                /* ARRAY/OBJECT: number of children */
    struct g16_json *child;  /* ARRAY/OBJECT: n children */
    int boolean;
} g16_json;

/* Parses a whole file.  Out: root (free with g16_json_free).
 * Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT "PATH: line L col C: what was expected". */
g16_status g16_json_read_file(g16_json **root, const char *path);
g16_status g16_json_parse(g16_json **root, const char *text, size_t len, const char *name);
void g16_json_free(g16_json *j);

/* Returns: the member named key of an object, or NULL. */
const g16_json *g16_json_get(const g16_json *obj, const char *key);

/* Parses a decimal string (digits only, no sign, no leading zeros except "0")
 * into little-endian limbs and requires value < modulus.
 * Returns: G16_OK; G16_ERR_FORMAT (not a decimal number); G16_ERR_NONCANONICAL (>= modulus). */
g16_status g16_decimal_to_limbs(uint64_t *out, size_t limbs, const uint64_t *modulus, const char *s);

/* Writes the little-endian integer as decimal.  out must hold 20·limbs + 1 chars. */
void g16_limbs_to_decimal(char *out, const uint64_t *in, size_t limbs);

#endif
