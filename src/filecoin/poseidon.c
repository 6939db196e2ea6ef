/* Poseidon constants (Grain LFSR, Cauchy MDS) and the native hash (poseidon.h). */
#include "filecoin/poseidon.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/* neptune round_numbers.rs, Standard strength, for the widths Filecoin uses
 * (arity 2, 4, 8, 11).  Other widths are refused rather than guessed. */
unsigned g16_poseidon_partial_rounds(unsigned t)
{
    switch (t) {
    case 3: return 55;
    case 5: return 56;
    case 9: return 57;
    case 12: return 57;
    default: return 0;
    }
}

/* ---------------------------------------------------------------------------
 * Grain LFSR: 80 bits of state seeded from the parameters, 160 warm-up bits,
 * then bit pairs (a, b) yield b when a = 1 (self-shrinking). */
typedef struct grain {
    uint8_t s[80];
    unsigned head; /* s[head] is the oldest bit */
} grain;

static int grain_step(grain *g)
{
#define GB(i) g->s[(g->head + (i)) % 80]
    int nb = GB(62) ^ GB(51) ^ GB(38) ^ GB(23) ^ GB(13) ^ GB(0);
#undef GB
    g->s[g->head] = (uint8_t)nb;
    g->head = (g->head + 1) % 80;
    return nb;
}

static int grain_bit(grain *g)
{
    for (;;) {
        int a = grain_step(g);
        int b = grain_step(g);
        if (a) return b;
    }
}

static void grain_put(grain *g, unsigned *k, uint64_t v, unsigned bits)
{
    for (unsigned i = 0; i < bits; i++) g->s[(*k)++] = (uint8_t)((v >> (bits - 1 - i)) & 1);
}

g16_status g16_poseidon_grain(g16_fr *out, size_t count, unsigned sbox, unsigned n, unsigned t,
                              unsigned rf, unsigned rp)
{
    if (n == 0 || n > 255) return g16_fail(G16_ERR_ARG, "poseidon constants: field size %u bits", n);
    grain g = {.head = 0};
    unsigned k = 0;
    grain_put(&g, &k, 1, 2); /* field: prime */
    grain_put(&g, &k, sbox, 4);
    grain_put(&g, &k, n, 12);
    grain_put(&g, &k, t, 12);
    grain_put(&g, &k, rf, 10);
    grain_put(&g, &k, rp, 10);
    grain_put(&g, &k, (1ull << 30) - 1, 30);
    for (int i = 0; i < 160; i++) grain_step(&g);
    for (size_t c = 0; c < count;) {
        uint8_t be[32] = {0};
        unsigned lead = 256 - n; /* leading zero bits of the 32-byte big-endian form */
        for (unsigned i = 0; i < n; i++) {
            unsigned pos = lead + i;
            if (grain_bit(&g)) be[pos / 8] |= (uint8_t)(0x80u >> (pos % 8));
        }
        if (g16_fr_from_be(&out[c], be) == G16_OK) c++; /* a sample >= r is rejected */
    }
    return G16_OK;
}

/* ---------------------------------------------------------------------------
 * Small dense linear algebra over Fr for the optimized schedule. */
typedef g16_fr mat[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T];

/* Solves a·x = b for an n×n invertible a (Gauss–Jordan; a and b are copies). */
static int solve(g16_fr *x, mat a_in, const g16_fr *b_in, unsigned n)
{
    mat a;
    g16_fr b[G16_POSEIDON_MAX_T];
    memcpy(a, a_in, sizeof a);
    memcpy(b, b_in, n * sizeof *b);
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && g16_fr_is_zero(&a[p][c])) p++;
        if (p == n) return -1;
        if (p != c) {
            for (unsigned j = 0; j < n; j++) {
                g16_fr tmp = a[c][j];
                a[c][j] = a[p][j];
                a[p][j] = tmp;
            }
            g16_fr tmp = b[c];
            b[c] = b[p];
            b[p] = tmp;
        }
        g16_fr inv;
        g16_fr_inv(&inv, &a[c][c]);
        for (unsigned j = 0; j < n; j++) g16_fr_mul(&a[c][j], &a[c][j], &inv);
        g16_fr_mul(&b[c], &b[c], &inv);
        for (unsigned r = 0; r < n; r++) {
            if (r == c || g16_fr_is_zero(&a[r][c])) continue;
            g16_fr f = a[r][c], t;
            for (unsigned j = 0; j < n; j++) {
                g16_fr_mul(&t, &f, &a[c][j]);
                g16_fr_sub(&a[r][j], &a[r][j], &t);
            }
            g16_fr_mul(&t, &f, &b[c]);
            g16_fr_sub(&b[r], &b[r], &t);
        }
    }
    memcpy(x, b, n * sizeof *b);
    return 0;
}

static void mat_vec(g16_fr *out, mat m, const g16_fr *v, unsigned t)
{
    g16_fr r[G16_POSEIDON_MAX_T], p;
    for (unsigned i = 0; i < t; i++) {
        g16_fr_set_zero(&r[i]);
        for (unsigned j = 0; j < t; j++) {
            g16_fr_mul(&p, &m[i][j], &v[j]);
            g16_fr_add(&r[i], &r[i], &p);
        }
    }
    memcpy(out, r, t * sizeof *r);
}

/* The optimized schedule, derived from the plain constants:
 * 1. In a partial round only element 0 passes the S-box, so the constants added
 *    to elements 1.. commute with it: they are moved past the S-box and the MDS
 *    (as M·c) into the next round's constants, leaving one constant a round.
 * 2. Each partial round's matrix A factors as A = P·S with P = diag(1, Â) and
 *    S = [[a00, a_row], [Â⁻¹·a_col, I]].  P leaves element 0 alone, so it commutes
 *    with the next round's S-box and is folded into the next matrix (M·P).  Only
 *    the last partial round keeps a dense matrix. */
static int build_optimized(g16_poseidon *p)
{
    unsigned t = p->t, half = p->rf / 2, rounds = p->rf + p->rp;
    p->orc = malloc((size_t)rounds * t * sizeof *p->orc);
    p->sp_row = malloc((size_t)p->rp * t * sizeof *p->sp_row);
    p->sp_col = malloc((size_t)p->rp * (t - 1) * sizeof *p->sp_col);
    if (!p->orc || !p->sp_row || !p->sp_col) return -1;
    memcpy(p->orc, p->rc, (size_t)rounds * t * sizeof *p->orc);
    for (unsigned r = half; r < half + p->rp; r++) {
        g16_fr tail[G16_POSEIDON_MAX_T], moved[G16_POSEIDON_MAX_T];
        g16_fr_set_zero(&tail[0]);
        for (unsigned i = 1; i < t; i++) {
            tail[i] = p->orc[r * t + i];
            g16_fr_set_zero(&p->orc[r * t + i]);
        }
        mat_vec(moved, p->mds, tail, t);
        for (unsigned i = 0; i < t; i++) g16_fr_add(&p->orc[(r + 1) * t + i], &p->orc[(r + 1) * t + i], &moved[i]);
    }
    mat a;
    memcpy(a, p->mds, sizeof a);
    for (unsigned k = 0; k + 1 < p->rp; k++) {
        mat hat;
        g16_fr col[G16_POSEIDON_MAX_T];
        for (unsigned i = 1; i < t; i++) {
            col[i - 1] = a[i][0];
            for (unsigned j = 1; j < t; j++) hat[i - 1][j - 1] = a[i][j];
        }
        for (unsigned j = 0; j < t; j++) p->sp_row[k * t + j] = a[0][j];
        if (solve(&p->sp_col[k * (t - 1)], hat, col, t - 1)) return -1;
        /* next A = M · diag(1, Â) */
        mat next;
        for (unsigned i = 0; i < t; i++) {
            next[i][0] = p->mds[i][0];
            for (unsigned j = 1; j < t; j++) {
                g16_fr s, q;
                g16_fr_set_zero(&s);
                for (unsigned m = 1; m < t; m++) {
                    g16_fr_mul(&q, &p->mds[i][m], &hat[m - 1][j - 1]);
                    g16_fr_add(&s, &s, &q);
                }
                next[i][j] = s;
            }
        }
        memcpy(a, next, sizeof a);
    }
    memcpy(p->last, a, sizeof a);
    return 0;
}

static g16_poseidon g_pos[4];
static int g_ok[4];
static pthread_once_t g_once[4] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                   PTHREAD_ONCE_INIT};
static const unsigned g_arities[4] = {2, 4, 8, 11};

static void build(unsigned slot)
{
    g16_poseidon *p = &g_pos[slot];
    p->arity = g_arities[slot];
    p->t = p->arity + 1;
    p->rf = G16_POSEIDON_FULL_ROUNDS;
    p->rp = g16_poseidon_partial_rounds(p->t);
    g16_fr_from_u64(&p->tag, (1ull << p->arity) - 1);
    for (unsigned i = 0; i < p->t; i++)
        for (unsigned j = 0; j < p->t; j++) {
            g16_fr d;
            g16_fr_from_u64(&d, i + p->t + j);
            g16_fr_inv(&p->mds[i][j], &d);
        }
    size_t n = (size_t)(p->rf + p->rp) * p->t;
    p->rc = malloc(n * sizeof *p->rc);
    /* neptune passes sbox = 1 to the Grain seed (its generate_constants call) and
     * the field size in bits of Fr (255). */
    if (!p->rc || g16_poseidon_grain(p->rc, n, 1, 255, p->t, p->rf, p->rp) != G16_OK) return;
    if (build_optimized(p)) return;
    g_ok[slot] = 1;
}

static void build0(void) { build(0); }
static void build1(void) { build(1); }
static void build2(void) { build(2); }
static void build3(void) { build(3); }

const g16_poseidon *g16_poseidon_get(unsigned arity)
{
    static void (*const fns[4])(void) = {build0, build1, build2, build3};
    for (unsigned s = 0; s < 4; s++)
        if (g_arities[s] == arity) {
            pthread_once(&g_once[s], fns[s]);
            return g_ok[s] ? &g_pos[s] : NULL;
        }
    return NULL;
}

static inline void quintic(g16_fr *x)
{
    g16_fr x2, x4;
    g16_fr_sqr(&x2, x);
    g16_fr_sqr(&x4, &x2);
    g16_fr_mul(x, &x4, x);
}

static void init_state(g16_fr *s, const g16_poseidon *p, const g16_fr *in)
{
    s[0] = p->tag;
    memcpy(&s[1], in, p->arity * sizeof *in);
}

void g16_poseidon_hash_plain(g16_fr *out, const g16_poseidon *p, const g16_fr *in)
{
    unsigned t = p->t, half = p->rf / 2;
    g16_fr s[G16_POSEIDON_MAX_T];
    init_state(s, p, in);
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        for (unsigned i = 0; i < t; i++) g16_fr_add(&s[i], &s[i], &p->rc[r * t + i]);
        int full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < (full ? t : 1); i++) quintic(&s[i]);
        mat_vec(s, (g16_fr(*)[G16_POSEIDON_MAX_T])p->mds, s, t);
    }
    *out = s[1];
}

static void full_round(g16_fr *s, const g16_poseidon *p, unsigned r)
{
    for (unsigned i = 0; i < p->t; i++) {
        g16_fr_add(&s[i], &s[i], &p->orc[r * p->t + i]);
        quintic(&s[i]);
    }
    mat_vec(s, (g16_fr(*)[G16_POSEIDON_MAX_T])p->mds, s, p->t);
}

void g16_poseidon_hash(g16_fr *out, const g16_poseidon *p, const g16_fr *in)
{
    unsigned t = p->t, half = p->rf / 2;
    g16_fr s[G16_POSEIDON_MAX_T], q;
    init_state(s, p, in);
    for (unsigned r = 0; r < half; r++) full_round(s, p, r);
    for (unsigned k = 0; k < p->rp; k++) {
        unsigned r = half + k;
        g16_fr_add(&s[0], &s[0], &p->orc[r * t]);
        quintic(&s[0]);
        if (k + 1 == p->rp) {
            mat_vec(s, (g16_fr(*)[G16_POSEIDON_MAX_T])p->last, s, t);
            break;
        }
        const g16_fr *row = &p->sp_row[k * t], *col = &p->sp_col[k * (t - 1)];
        g16_fr x0 = s[0], y0;
        g16_fr_mul(&y0, &row[0], &x0);
        for (unsigned j = 1; j < t; j++) {
            g16_fr_mul(&q, &row[j], &s[j]);
            g16_fr_add(&y0, &y0, &q);
            g16_fr_mul(&q, &col[j - 1], &x0);
            g16_fr_add(&s[j], &s[j], &q);
        }
        s[0] = y0;
    }
    for (unsigned r = half + p->rp; r < p->rf + p->rp; r++) full_round(s, p, r);
    *out = s[1];
}
