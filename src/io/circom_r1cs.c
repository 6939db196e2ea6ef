/* circom .r1cs reader and a direct constraint check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/circom.h"
#include "io/circom_bin.h"
#include "io/json.h"

static g16_status read_header(g16_circom_r1cs *r, g16_binfile *f, uint64_t *n_wires_total)
{
    g16_bin_cursor c;
    G16_TRY(g16_bin_section(&c, f, 1, "header"));
    G16_TRY(g16_bin_expect_prime(&c, g16_fr_modulus, G16_FR_LIMBS, "the field"));
    G16_TRY(g16_bin_u32(&c, &r->n_wires));
    G16_TRY(g16_bin_u32(&c, &r->n_pub_out));
    G16_TRY(g16_bin_u32(&c, &r->n_pub_in));
    G16_TRY(g16_bin_u32(&c, &r->n_prv_in));
    G16_TRY(g16_bin_u64(&c, &r->n_labels));
    G16_TRY(g16_bin_u32(&c, &r->n_constraints));
    G16_TRY(g16_bin_expect_end(&c));
    uint64_t need = 1ull + r->n_pub_out + r->n_pub_in + r->n_prv_in;
    if (r->n_wires == 0 || need > r->n_wires)
        return g16_fail(G16_ERR_FORMAT, "%s: section 1: %u wires cannot hold 1 + %u outputs + %u public + %u private inputs",
                        f->path, r->n_wires, r->n_pub_out, r->n_pub_in, r->n_prv_in);
    *n_wires_total = r->n_wires;
    return G16_OK;
}

/* Two passes over section 2: count terms (and check the structure), then decode. */
static g16_status read_constraints(g16_circom_r1cs *r, g16_binfile *f)
{
    g16_bin_cursor c;
    G16_TRY(g16_bin_section(&c, f, 2, "constraints"));
    const g16_bin_cursor start = c;
    uint64_t n_lc = 3ull * r->n_constraints, total = 0;
    for (uint64_t j = 0; j < n_lc; j++) {
        uint32_t nt;
        const uint8_t *p;
        G16_TRY(g16_bin_u32(&c, &nt));
        G16_TRY(g16_bin_bytes(&c, &p, (uint64_t)nt * 36));
        total += nt;
    }
    G16_TRY(g16_bin_expect_end(&c));
    r->lc_start = malloc((n_lc + 1) * sizeof *r->lc_start);
    r->wire = malloc((total ? total : 1) * sizeof *r->wire);
    r->coef = malloc((total ? total : 1) * sizeof *r->coef);
    if (!r->lc_start || !r->wire || !r->coef) return g16_fail(G16_ERR_NOMEM, "%s: constraints", f->path);
    c = start;
    uint64_t t = 0;
    for (uint64_t j = 0; j < n_lc; j++) {
        uint32_t nt;
        G16_TRY(g16_bin_u32(&c, &nt));
        r->lc_start[j] = t;
        for (uint32_t i = 0; i < nt; i++, t++) {
            const uint8_t *p;
            G16_TRY(g16_bin_u32(&c, &r->wire[t]));
            if (r->wire[t] >= r->n_wires) {
                c.pos -= 4;
                return g16_bin_fail(&c, "constraint %llu: wire %u >= %u wires", (unsigned long long)(j / 3),
                                    r->wire[t], r->n_wires);
            }
            G16_TRY(g16_bin_bytes(&c, &p, 32));
            if (g16_fr_from_le(&r->coef[t], p) != G16_OK) {
                c.pos -= 32;
                return g16_bin_fail(&c, "constraint %llu: coefficient is not below r", (unsigned long long)(j / 3));
            }
        }
    }
    r->lc_start[n_lc] = t;
    return G16_OK;
}

static g16_status read_labels(g16_circom_r1cs *r, g16_binfile *f)
{
    if (!g16_bin_has(f, 3)) return G16_OK;
    g16_bin_cursor c;
    G16_TRY(g16_bin_section(&c, f, 3, "wire-to-label map"));
    if (c.end - c.pos != 8ull * r->n_wires)
        return g16_bin_fail(&c, "the map has %llu bytes, expected 8 x %u wires", (unsigned long long)(c.end - c.pos),
                            r->n_wires);
    r->label = malloc((size_t)r->n_wires * 8);
    if (!r->label) return g16_fail(G16_ERR_NOMEM, "%s: labels", f->path);
    for (uint32_t i = 0; i < r->n_wires; i++) G16_TRY(g16_bin_u64(&c, &r->label[i]));
    return G16_OK;
}

g16_status g16_circom_r1cs_read(g16_circom_r1cs *out, const char *path)
{
    memset(out, 0, sizeof *out);
    g16_binfile f;
    G16_TRY(g16_bin_open(&f, path, "r1cs"));
    g16_status s = G16_OK;
    if (f.version != 1) s = g16_fail(G16_ERR_FORMAT, "%s: offset 4: version %u, expected 1", path, f.version);
    for (uint32_t i = 0; s == G16_OK && i < f.n_sections; i++)
        if (f.sec[i].id < 1 || f.sec[i].id > 3)
            s = g16_fail(G16_ERR_FORMAT, "%s: offset %llu: section %u (custom gates?) is not supported", path,
                         (unsigned long long)(f.sec[i].off - 12), f.sec[i].id);
    uint64_t nw;
    if (s == G16_OK) s = read_header(out, &f, &nw);
    if (s == G16_OK) s = read_constraints(out, &f);
    if (s == G16_OK) s = read_labels(out, &f);
    g16_bin_close(&f);
    if (s != G16_OK) g16_circom_r1cs_free(out);
    return s;
}

void g16_circom_r1cs_free(g16_circom_r1cs *r)
{
    free(r->lc_start);
    free(r->wire);
    free(r->coef);
    free(r->label);
    memset(r, 0, sizeof *r);
}

static void eval_lc(g16_fr *acc, const g16_circom_r1cs *r, uint64_t j, const g16_fr *w)
{
    g16_fr_set_zero(acc);
    for (uint64_t t = r->lc_start[j]; t < r->lc_start[j + 1]; t++) {
        g16_fr p;
        g16_fr_mul(&p, &r->coef[t], &w[r->wire[t]]);
        g16_fr_add(acc, acc, &p);
    }
}

g16_status g16_circom_r1cs_check(const g16_circom_r1cs *r, const g16_fr *w, size_t n_w)
{
    if (n_w != r->n_wires)
        return g16_fail(G16_ERR_ARG, "the witness has %zu values, the circuit %u wires", n_w, r->n_wires);
    if (!g16_fr_is_one(&w[0])) return g16_fail(G16_ERR_ARG, "witness value 0 is not 1");
    for (uint32_t k = 0; k < r->n_constraints; k++) {
        g16_fr a, b, c, ab;
        eval_lc(&a, r, 3ull * k, w);
        eval_lc(&b, r, 3ull * k + 1, w);
        eval_lc(&c, r, 3ull * k + 2, w);
        g16_fr_mul(&ab, &a, &b);
        if (!g16_fr_eq(&ab, &c)) {
            char da[80], db[80], dc[80];
            g16_fr_to_decimal(da, &a);
            g16_fr_to_decimal(db, &b);
            g16_fr_to_decimal(dc, &c);
            return g16_fail(G16_ERR_UNSATISFIED, "constraint %u of %u not satisfied: A*B = %s * %s, C = %s", k,
                            r->n_constraints, da, db, dc);
        }
    }
    return G16_OK;
}

/* Here, not in json.c, because it is per curve (json.c is compiled once). */
void g16_fr_to_decimal(char out[80], const g16_fr *a)
{
    uint64_t c[4];
    g16_fr_to_canonical(c, a);
    g16_limbs_to_decimal(out, c, 4);
}
