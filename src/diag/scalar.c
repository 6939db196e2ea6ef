/* Scalars typed by people: decimal or 0x-hex of any length, reduced mod r. */
#include <ctype.h>
#include <string.h>

#include "common/error.h"
#include "field/fr.h"

g16_status g16_scalar_parse(uint8_t out32[32], const char *text)
{
    if (!text || !out32) return g16_fail(G16_ERR_ARG, "scalar: null argument");
    const char *s = text;
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s) return g16_fail(G16_ERR_FORMAT, "scalar '%s': no digits", text);
    g16_fr acc, k, d;
    g16_fr_set_zero(&acc);
    g16_fr_from_u64(&k, base);
    for (const char *q = s; *q; q++) {
        int v;
        if (isdigit((unsigned char)*q))
            v = *q - '0';
        else if (base == 16 && isxdigit((unsigned char)*q))
            v = tolower((unsigned char)*q) - 'a' + 10;
        else
            return g16_fail(G16_ERR_FORMAT, "scalar '%s': unexpected character '%c' at position %zu"
                            " (expected a %s digit)", text, *q, (size_t)(q - text),
                            base == 16 ? "hexadecimal" : "decimal");
        g16_fr_mul(&acc, &acc, &k);
        g16_fr_from_u64(&d, (uint64_t)v);
        g16_fr_add(&acc, &acc, &d);
    }
    g16_fr_to_be(out32, &acc);
    return G16_OK;
}
