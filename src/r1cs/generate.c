/* Synthetic circuits with satisfying witnesses (profiles porep, dense, bits).
 *
 * Every constraint defines exactly one new aux variable (constraint r defines
 * variable 1 + n_pub + r), choosing its operands among variables defined earlier,
 * so the witness satisfies the circuit by construction and n_aux = n_constraints.
 *
 * To run on every thread and still be reproducible, rows are cut into chunks of a
 * fixed size, each with its own random streams seeded from (seed, chunk): a chunk
 * only refers to its own variables and the public inputs.  Two passes: the first
 * only draws the row shapes (from the "shape" stream) and counts terms per
 * matrix, so the second can write each chunk straight into its place in the CSR
 * arrays; operand picks and values come from a separate "pick" stream that the
 * first pass never touches.  No per-row allocation. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "r1cs/r1cs_internal.h"

#define CHUNK_ROWS 4096u
#define RING 64u

/* Coefficient table: 1, -1, 2^1 .. 2^63, then N_RAND random values. */
#define CI_ONE 0u
#define CI_M1 1u
#define CI_POW2(i) ((i) == 0 ? CI_ONE : 1u + (i)) /* 2^i, i < 64 */
#define CI_RAND0 65u
#define N_RAND 64u
#define N_COEFS (CI_RAND0 + N_RAND)

enum kind { K_BOOL, K_XOR, K_AND, K_PACK_A, K_PACK_C, K_MUL, K_DENSE, K_SEED, N_KINDS };

/* Row mixes, in 256ths.  Chosen to land on the statistics in docs/r1cs.md. */
static const uint8_t mix_porep[N_KINDS] = {[K_BOOL] = 58, [K_XOR] = 77, [K_AND] = 26,
                                           [K_PACK_A] = 26, [K_PACK_C] = 26, [K_MUL] = 43};
static const uint8_t mix_bits[N_KINDS] = {[K_BOOL] = 102, [K_XOR] = 77, [K_AND] = 64,
                                          [K_PACK_A] = 13};
static const uint8_t mix_dense[N_KINDS] = {[K_DENSE] = 255};

#define PACK_A_BITS 8
/* Products share their B operand in runs (a hash state times round values): this is
 * what keeps the share of aux variables in B near PoRep's 25%. */
#define HUB_ROWS 8
#define PACK_C_BITS 6

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t stream_seed(uint64_t seed, uint64_t chunk, uint64_t stream)
{
    uint64_t s = seed ^ (chunk * 0xd1b54a32d192ed03ull) ^ (stream << 56);
    splitmix(&s);
    return s;
}

/* A uniformly spread value below r: the top limb kept under 2^62 < r's top limb.
 * Read as a Montgomery representation it is just another field element. */
static void rand_fr(g16_fr *v, uint64_t *s)
{
    for (int i = 0; i < 4; i++) v->l[i] = splitmix(s);
    v->l[3] &= 0x3fffffffffffffffull;
}

/* The variables a chunk may pick from: the last RING defined of each class. */
typedef struct ring {
    uint32_t v[RING];
    unsigned head, n;
} ring;

static void ring_push(ring *r, uint32_t var, int emit)
{
    if (emit) r->v[r->head % RING] = var;
    r->head++;
    if (r->n < RING) r->n++;
}

/* Entry `back` places before the newest (0 = newest). */
static uint32_t ring_at(const ring *r, unsigned back) { return r->v[(r->head - 1 - back) % RING]; }

typedef struct gen_ctx {
    const uint8_t *mix;
    uint64_t seed, n_constraints;
    uint32_t n_pub;
    uint64_t n_chunks;
    uint64_t (*counts)[3];
    g16_circuit *c;
    g16_fr *z;
} gen_ctx;

typedef struct chunk {
    const gen_ctx *g;
    int emit;
    uint64_t shape, pick; /* random streams */
    ring bits, dbits, fulls; /* booleans (checked), derived bits, full-width values */
    uint32_t hub;          /* K_MUL's B operand, renewed every HUB_ROWS products */
    unsigned n_mul;
    uint64_t k[3];         /* next term position per matrix */
    g16_csr *m[3];
    const g16_fr *coefs;
    g16_fr *z;
} chunk;

static inline void term(chunk *ch, int m, uint32_t var, uint32_t coef)
{
    if (ch->emit) {
        ch->m[m]->col[ch->k[m]] = var;
        ch->m[m]->coef[ch->k[m]] = coef;
    }
    ch->k[m]++;
}

static unsigned pick_below(chunk *ch, unsigned n) { return (unsigned)(splitmix(&ch->pick) % n); }

static void sum_terms(g16_fr *acc, const chunk *ch, int m, uint64_t from, uint64_t to)
{
    g16_fr t;
    g16_fr_set_zero(acc);
    for (uint64_t k = from; k < to; k++) {
        g16_fr_mul(&t, &ch->coefs[ch->m[m]->coef[k]], &ch->z[ch->m[m]->col[k]]);
        g16_fr_add(acc, acc, &t);
    }
}

static int is_bit_one(const chunk *ch, uint32_t v) { return g16_fr_is_one(&ch->z[v]); }

static void set_bit_value(g16_fr *v, int bit)
{
    if (bit)
        g16_fr_set_one(v);
    else
        g16_fr_set_zero(v);
}

/* Which kind row gets, given the mix and what the rings can supply. */
static enum kind choose(chunk *ch)
{
    unsigned r = (unsigned)(splitmix(&ch->shape) & 255), acc = 0;
    enum kind k = K_BOOL;
    for (int i = 0; i < N_KINDS; i++) {
        acc += ch->g->mix[i];
        if (r < acc) {
            k = (enum kind)i;
            break;
        }
    }
    switch (k) {
    case K_XOR: return ch->bits.n >= 2 ? k : K_BOOL;
    case K_AND: return ch->bits.n >= 1 && ch->dbits.n >= 1 ? k : K_BOOL;
    case K_PACK_A: return ch->dbits.n >= PACK_A_BITS ? k : K_BOOL;
    case K_PACK_C: return ch->bits.n >= PACK_C_BITS ? k : K_BOOL;
    case K_MUL: return ch->fulls.n >= 3 && ch->dbits.n >= 1 ? k : K_BOOL;
    case K_DENSE: return ch->fulls.n >= 4 ? k : K_SEED;
    default: return k;
    }
}

/* Emits row `row`, which defines variable x. */
static void gen_row(chunk *ch, uint64_t row)
{
    const uint32_t x = (uint32_t)(1 + ch->g->n_pub + row);
    const int e = ch->emit;
    uint64_t k0[3];
    for (int m = 0; m < 3; m++) {
        k0[m] = ch->k[m];
        if (e) ch->m[m]->row_start[row] = ch->k[m];
    }
    g16_fr *zx = e ? &ch->z[x] : NULL;
    enum kind kd = choose(ch);
    switch (kd) {
    case K_BOOL: /* (1 - x)·x = 0 */
        term(ch, 0, 0, CI_ONE);
        term(ch, 0, x, CI_M1);
        term(ch, 1, x, CI_ONE);
        if (e) set_bit_value(zx, (int)(splitmix(&ch->pick) & 1));
        ring_push(&ch->bits, x, e);
        return;
    case K_XOR: { /* (2a)·b = a + b - x */
        uint32_t a = 0, b = 0;
        if (e) {
            unsigned i = pick_below(ch, ch->bits.n), j = pick_below(ch, ch->bits.n - 1);
            a = ring_at(&ch->bits, i);
            b = ring_at(&ch->bits, j >= i ? j + 1 : j);
        }
        term(ch, 0, a, CI_POW2(1));
        term(ch, 1, b, CI_ONE);
        term(ch, 2, a, CI_ONE);
        term(ch, 2, b, CI_ONE);
        term(ch, 2, x, CI_M1);
        if (e) set_bit_value(zx, is_bit_one(ch, a) ^ is_bit_one(ch, b));
        ring_push(&ch->dbits, x, e);
        return;
    }
    case K_AND: { /* a·b = x; b is the newest checked bit, as in a bit-serial gadget */
        uint32_t a = 0, b = 0;
        if (e) {
            a = ring_at(&ch->dbits, pick_below(ch, ch->dbits.n));
            b = ring_at(&ch->bits, 0);
        }
        term(ch, 0, a, CI_ONE);
        term(ch, 1, b, CI_ONE);
        term(ch, 2, x, CI_ONE);
        if (e) set_bit_value(zx, is_bit_one(ch, a) & is_bit_one(ch, b));
        ring_push(&ch->dbits, x, e);
        return;
    }
    case K_PACK_A:   /* (Σ 2^i d_i)·1 = x */
    case K_PACK_C: { /* x·1 = Σ 2^i b_i */
        int in_a = kd == K_PACK_A;
        const ring *src = in_a ? &ch->dbits : &ch->bits;
        unsigned nb = in_a ? PACK_A_BITS : PACK_C_BITS;
        unsigned start = e ? pick_below(ch, src->n - nb + 1) : 0;
        uint64_t packed = 0;
        for (unsigned i = 0; i < nb; i++) {
            uint32_t v = e ? ring_at(src, start + i) : 0;
            term(ch, in_a ? 0 : 2, v, CI_POW2(i));
            if (e) packed |= (uint64_t)is_bit_one(ch, v) << i;
        }
        term(ch, in_a ? 2 : 0, x, CI_ONE);
        term(ch, 1, 0, CI_ONE);
        if (e) g16_fr_from_u64(zx, packed);
        ring_push(&ch->fulls, x, e);
        return;
    }
    case K_MUL: /* (r1 f1 + r2 f2 + r3 f3 + r4)·y = x + r5 f1 + d  (a round of a hash) */
    case K_DENSE: { /* (4 terms)·(3 terms) = x + (2 terms), random coefficients */
        int mul = kd == K_MUL;
        if (mul && e && ch->n_mul++ % HUB_ROWS == 0) ch->hub = ring_at(&ch->fulls, 0);
        unsigned na = mul ? 3 : 4, nb = mul ? 1 : 3, nc = 2;
        unsigned sa = e ? pick_below(ch, ch->fulls.n - na + 1) : 0;
        unsigned sb = e ? pick_below(ch, ch->fulls.n - nb + 1) : 0;
        unsigned sc = e ? pick_below(ch, ch->fulls.n - nc + 1) : 0;
        for (unsigned i = 0; i < na; i++)
            term(ch, 0, e ? ring_at(&ch->fulls, sa + i) : 0, CI_RAND0 + (e ? pick_below(ch, N_RAND) : 0));
        if (mul) term(ch, 0, 0, CI_RAND0 + (e ? pick_below(ch, N_RAND) : 0));
        for (unsigned i = 0; i < nb; i++)
            term(ch, 1, e ? (mul ? ch->hub : ring_at(&ch->fulls, sb + i)) : 0,
                 mul ? CI_ONE : CI_RAND0 + (e ? pick_below(ch, N_RAND) : 0));
        term(ch, 2, x, CI_ONE);
        if (mul) {
            term(ch, 2, e ? ring_at(&ch->fulls, sa) : 0, CI_RAND0 + (e ? pick_below(ch, N_RAND) : 0));
            term(ch, 2, e ? ring_at(&ch->dbits, pick_below(ch, ch->dbits.n)) : 0, CI_ONE);
        } else {
            for (unsigned i = 0; i < nc; i++)
                term(ch, 2, e ? ring_at(&ch->fulls, sc + i) : 0,
                     CI_RAND0 + (e ? pick_below(ch, N_RAND) : 0));
        }
        if (e) {
            /* x = (A·z)(B·z) − (the other C terms), x's own C term being first */
            g16_fr av, bv, cv;
            sum_terms(&av, ch, 0, k0[0], ch->k[0]);
            sum_terms(&bv, ch, 1, k0[1], ch->k[1]);
            sum_terms(&cv, ch, 2, k0[2] + 1, ch->k[2]);
            g16_fr_mul(&av, &av, &bv);
            g16_fr_sub(zx, &av, &cv);
        }
        ring_push(&ch->fulls, x, e);
        return;
    }
    case K_SEED: /* r·1 = x: a full-width constant to start a chunk's pool */
        term(ch, 0, 0, CI_RAND0 + (e ? pick_below(ch, N_RAND) : 0));
        term(ch, 1, 0, CI_ONE);
        term(ch, 2, x, CI_ONE);
        if (e) *zx = ch->coefs[ch->m[0]->coef[k0[0]]];
        ring_push(&ch->fulls, x, e);
        return;
    default: return;
    }
}

static void run_chunk(const gen_ctx *g, uint64_t ci, int emit, const uint64_t start[3])
{
    chunk ch;
    memset(&ch, 0, sizeof ch);
    ch.g = g;
    ch.emit = emit;
    ch.shape = stream_seed(g->seed, ci, 1);
    ch.pick = stream_seed(g->seed, ci, 2);
    ch.m[0] = &g->c->a;
    ch.m[1] = &g->c->b;
    ch.m[2] = &g->c->c;
    ch.coefs = g->c->coefs;
    ch.z = g->z;
    for (int m = 0; m < 3; m++) ch.k[m] = start ? start[m] : 0;
    /* each chunk starts with a few public inputs as full-width operands, so inputs
     * occur in A, B and C like a real circuit's commitments */
    unsigned n_in = g->n_pub < 4 ? g->n_pub : 4;
    uint32_t first = emit && n_in ? 1 + (uint32_t)(splitmix(&ch.pick) % (g->n_pub - n_in + 1)) : 0;
    for (unsigned i = 0; i < n_in; i++) ring_push(&ch.fulls, first + i, emit);
    uint64_t r0 = ci * CHUNK_ROWS, r1 = r0 + CHUNK_ROWS;
    if (r1 > g->n_constraints) r1 = g->n_constraints;
    for (uint64_t r = r0; r < r1; r++) gen_row(&ch, r);
    if (!emit)
        for (int m = 0; m < 3; m++) g->counts[ci][m] = ch.k[m];
}

static void count_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    for (size_t ci = begin; ci < end; ci++) run_chunk(vctx, ci, 0, NULL);
}

static void emit_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const gen_ctx *g = vctx;
    for (size_t ci = begin; ci < end; ci++) run_chunk(g, ci, 1, g->counts[ci]);
}

g16_status g16_profile_parse(g16_profile *out, const char *name)
{
    static const struct { const char *n; g16_profile p; } t[] = {
        {"porep", G16_PROFILE_POREP}, {"dense", G16_PROFILE_DENSE}, {"bits", G16_PROFILE_BITS}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(name, t[i].n)) {
            *out = t[i].p;
            return G16_OK;
        }
    return g16_fail(G16_ERR_ARG, "unknown circuit profile '%s' (expected porep, dense or bits)", name);
}

const char *g16_profile_name(g16_profile p)
{
    switch (p) {
    case G16_PROFILE_POREP: return "porep";
    case G16_PROFILE_DENSE: return "dense";
    case G16_PROFILE_BITS: return "bits";
    }
    return "?";
}

static g16_status make_coefs(g16_fr **out, uint64_t seed)
{
    g16_fr *t = g16_malloc(N_COEFS * sizeof *t);
    if (!t) return g16_fail(G16_ERR_NOMEM, "coefficient table");
    g16_fr_set_one(&t[CI_ONE]);
    g16_fr_neg(&t[CI_M1], &t[CI_ONE]);
    for (unsigned i = 1; i < 64; i++) g16_fr_from_u64(&t[CI_POW2(i)], 1ull << i);
    uint64_t s = stream_seed(seed, UINT64_MAX, 3);
    for (unsigned i = CI_RAND0; i < N_COEFS; i++) {
        int again;
        do { /* the table holds distinct nonzero values (a collision is ~2^-250 likely) */
            rand_fr(&t[i], &s);
            again = g16_fr_is_zero(&t[i]);
            for (unsigned j = 0; j < i && !again; j++) again = g16_fr_eq(&t[i], &t[j]);
        } while (again);
    }
    *out = t;
    return G16_OK;
}

g16_status g16_circuit_generate(g16_circuit **circ, g16_witness **wit,
                                const g16_circuit_gen_args *args)
{
    *circ = NULL;
    if (wit) *wit = NULL;
    const uint8_t *mix = args->profile == G16_PROFILE_POREP   ? mix_porep
                         : args->profile == G16_PROFILE_DENSE ? mix_dense
                         : args->profile == G16_PROFILE_BITS  ? mix_bits
                                                              : NULL;
    if (!mix) return g16_fail(G16_ERR_ARG, "unknown circuit profile %d", (int)args->profile);
    if (args->log_n < 2 || args->log_n > 31)
        return g16_fail(G16_ERR_ARG, "log_n = %u, expected 2 .. 31", args->log_n);
    uint64_t rows = 1ull << args->log_n;
    if ((uint64_t)args->n_pub + 2 > rows)
        return g16_fail(G16_ERR_ARG, "%u inputs leave no constraint in 2^%u rows (need inputs + 2 <= rows)",
                        args->n_pub, args->log_n);
    gen_ctx g = {mix, args->seed, rows - 1 - args->n_pub, args->n_pub, 0, NULL, NULL, NULL};
    g.n_chunks = (g.n_constraints + CHUNK_ROWS - 1) / CHUNK_ROWS;
    g16_circuit *c;
    g16_witness *w = NULL;
    G16_TRY(g16_circuit_alloc_(&c));
    c->n_pub = args->n_pub;
    c->n_aux = (uint32_t)g.n_constraints;
    c->n_constraints = g.n_constraints;
    c->n_coefs = N_COEFS;
    g16_status s = make_coefs(&c->coefs, args->seed);
    if (s == G16_OK) s = g16_witness_alloc_(&w, g16_circuit_vars(c), args->n_pub);
    if (s == G16_OK && !(g.counts = g16_malloc(g.n_chunks * sizeof *g.counts)))
        s = g16_fail(G16_ERR_NOMEM, "generator chunk table");
    if (s != G16_OK) goto fail;
    g.c = c;
    g.z = w->z;
    uint64_t is = stream_seed(args->seed, UINT64_MAX, 4);
    for (uint32_t i = 1; i <= args->n_pub; i++) rand_fr(&w->z[i], &is);

    g16_parallel_for((size_t)g.n_chunks, 1, count_range, &g);
    uint64_t tot[3] = {0, 0, 0};
    for (uint64_t ci = 0; ci < g.n_chunks; ci++)
        for (int m = 0; m < 3; m++) {
            uint64_t n = g.counts[ci][m];
            g.counts[ci][m] = tot[m];
            tot[m] += n;
        }
    g16_csr *ms[3] = {&c->a, &c->b, &c->c};
    for (int m = 0; m < 3 && s == G16_OK; m++) s = g16_csr_alloc_(ms[m], g.n_constraints, tot[m]);
    if (s != G16_OK) goto fail;
    g16_parallel_for((size_t)g.n_chunks, 1, emit_range, &g);
    free(g.counts);
    *circ = c;
    if (wit)
        *wit = w;
    else
        g16_witness_destroy(w);
    return G16_OK;
fail:
    free(g.counts);
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    return s;
}
