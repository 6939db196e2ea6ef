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
 * Small dense linear algebra over Fr, row-vector convention (v · M). */
typedef g16_fr mat[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T];

/* out = a⁻¹ for an n×n matrix (Gauss–Jordan); -1 when singular. */
static int mat_inv(mat out, mat a_in, unsigned n)
{
    mat a, r;
    memcpy(a, a_in, sizeof a);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            if (i == j) g16_fr_set_one(&r[i][j]);
            else g16_fr_set_zero(&r[i][j]);
        }
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && g16_fr_is_zero(&a[p][c])) p++;
        if (p == n) return -1;
        for (unsigned j = 0; j < n && p != c; j++) {
            g16_fr tmp = a[c][j];
            a[c][j] = a[p][j];
            a[p][j] = tmp;
            tmp = r[c][j];
            r[c][j] = r[p][j];
            r[p][j] = tmp;
        }
        g16_fr inv;
        g16_fr_inv(&inv, &a[c][c]);
        for (unsigned j = 0; j < n; j++) {
            g16_fr_mul(&a[c][j], &a[c][j], &inv);
            g16_fr_mul(&r[c][j], &r[c][j], &inv);
        }
        for (unsigned i = 0; i < n; i++) {
            if (i == c || g16_fr_is_zero(&a[i][c])) continue;
            g16_fr f = a[i][c], t;
            for (unsigned j = 0; j < n; j++) {
                g16_fr_mul(&t, &f, &a[c][j]);
                g16_fr_sub(&a[i][j], &a[i][j], &t);
                g16_fr_mul(&t, &f, &r[c][j]);
                g16_fr_sub(&r[i][j], &r[i][j], &t);
            }
        }
    }
    memcpy(out, r, sizeof r);
    return 0;
}

/* out = v · m (out may alias v) */
static void vec_mat(g16_fr *out, const g16_fr *v, const g16_fr m[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T],
                    unsigned n)
{
    g16_fr r[G16_POSEIDON_MAX_T], q;
    for (unsigned j = 0; j < n; j++) {
        g16_fr_set_zero(&r[j]);
        for (unsigned i = 0; i < n; i++) {
            g16_fr_mul(&q, &v[i], &m[i][j]);
            g16_fr_add(&r[j], &r[j], &q);
        }
    }
    memcpy(out, r, n * sizeof *r);
}

static void mat_mul(mat out, mat a, mat b, unsigned n)
{
    mat r;
    g16_fr q;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            g16_fr_set_zero(&r[i][j]);
            for (unsigned k = 0; k < n; k++) {
                g16_fr_mul(&q, &a[i][k], &b[k][j]);
                g16_fr_add(&r[i][j], &r[i][j], &q);
            }
        }
    memcpy(out, r, sizeof r);
}

/* neptune's preprocessing, rederived:
 * - Constants move backward through the (invertible) MDS: adding c after the MDS
 *   equals adding c · M⁻¹ before it, i.e. right after the previous S-box.  In a
 *   partial round only element 0 passes the S-box, so elements 1.. of such a
 *   post-key keep moving back through the partial rounds; what reaches the last
 *   first-half full round is its post-key.  Round 0 keeps its own constants as
 *   pre-keys (added before its S-box).
 * - The partial rounds' matrix is factored from the last round backward:
 *   C = C' · C'' with C' = diag(1, Ĉ) and C'' = [[c00, c_row], [c_col · Ĉ⁻¹, I]].
 *   C' leaves element 0 alone, so it commutes with the previous S-box and is
 *   folded into the previous matrix (M · C'); after rp steps what remains is the
 *   dense "pre-sparse" matrix of the last first-half full round. */
static int build_optimized(g16_poseidon *p)
{
    unsigned t = p->t, half = p->rf / 2, rp = p->rp;
    mat minv;
    if (mat_inv(minv, p->mds, t)) return -1;
    p->n_crc = (size_t)p->rf * t + rp;
    p->crc = malloc(p->n_crc * sizeof *p->crc);
    p->w_hat = malloc((size_t)rp * t * sizeof *p->w_hat);
    p->v_rest = malloc((size_t)rp * (t - 1) * sizeof *p->v_rest);
    g16_fr *pk = malloc(rp * sizeof *pk);
    if (!p->crc || !p->w_hat || !p->v_rest || !pk) {
        free(pk);
        return -1;
    }
#define RK(r) (&p->rc[(size_t)(r) * t])
    size_t n = 0;
    memcpy(&p->crc[n], RK(0), t * sizeof *p->crc);
    n += t;
    for (unsigned i = 0; i + 1 < half; i++, n += t) vec_mat(&p->crc[n], RK(i + 1), minv, t);
    g16_fr acc[G16_POSEIDON_MAX_T], inv[G16_POSEIDON_MAX_T];
    memcpy(acc, RK(half + rp), t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        vec_mat(inv, acc, minv, t);
        pk[i] = inv[0];
        g16_fr_set_zero(&inv[0]);
        const g16_fr *prev = RK(half + rp - i - 1);
        for (unsigned j = 0; j < t; j++) g16_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    vec_mat(&p->crc[n], acc, minv, t);
    n += t;
    for (unsigned i = 0; i < rp; i++) p->crc[n++] = pk[rp - 1 - i];
    for (unsigned i = 1; i < half; i++, n += t) vec_mat(&p->crc[n], RK(i + half + rp), minv, t);
#undef RK
    free(pk);
    if (n != p->n_crc) return -1;

    mat cur;
    memcpy(cur, p->mds, sizeof cur);
    for (unsigned k = 0; k < rp; k++) {
        mat hat, hat_inv, prime;
        for (unsigned i = 1; i < t; i++)
            for (unsigned j = 1; j < t; j++) hat[i - 1][j - 1] = cur[i][j];
        if (mat_inv(hat_inv, hat, t - 1)) return -1;
        g16_fr w[G16_POSEIDON_MAX_T], wh[G16_POSEIDON_MAX_T];
        for (unsigned i = 1; i < t; i++) w[i - 1] = cur[i][0];
        vec_mat(wh, w, hat_inv, t - 1);
        /* the sparse matrix C'' of partial round rp − 1 − k */
        unsigned slot = rp - 1 - k;
        p->w_hat[slot * t] = cur[0][0];
        for (unsigned i = 1; i < t; i++) {
            p->w_hat[slot * t + i] = wh[i - 1];
            p->v_rest[slot * (t - 1) + i - 1] = cur[0][i];
        }
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                if (i == 0 || j == 0) {
                    if (i == j) g16_fr_set_one(&prime[i][j]);
                    else g16_fr_set_zero(&prime[i][j]);
                } else {
                    prime[i][j] = cur[i][j];
                }
            }
        mat_mul(cur, p->mds, prime, t);
    }
    memcpy(p->pre_sparse, cur, sizeof cur);
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
        vec_mat(s, s, p->mds, t);
    }
    *out = s[1];
}

/* S-box on every element, then its post-key (none on the last round). */
static const g16_fr *full_sbox(g16_fr *s, unsigned t, const g16_fr *keys)
{
    for (unsigned i = 0; i < t; i++) {
        quintic(&s[i]);
        if (keys) g16_fr_add(&s[i], &s[i], &keys[i]);
    }
    return keys ? keys + t : NULL;
}

void g16_poseidon_hash(g16_fr *out, const g16_poseidon *p, const g16_fr *in)
{
    unsigned t = p->t, half = p->rf / 2;
    g16_fr s[G16_POSEIDON_MAX_T], q;
    init_state(s, p, in);
    const g16_fr *k = p->crc;
    for (unsigned i = 0; i < t; i++) g16_fr_add(&s[i], &s[i], &k[i]);
    k += t;
    for (unsigned r = 0; r < half; r++) {
        k = full_sbox(s, t, k);
        vec_mat(s, s, r + 1 == half ? p->pre_sparse : p->mds, t);
    }
    for (unsigned r = 0; r < p->rp; r++) {
        quintic(&s[0]);
        g16_fr_add(&s[0], &s[0], k++);
        const g16_fr *w = &p->w_hat[r * t], *v = &p->v_rest[r * (t - 1)];
        g16_fr x0 = s[0];
        g16_fr_mul(&s[0], &x0, &w[0]);
        for (unsigned j = 1; j < t; j++) {
            g16_fr_mul(&q, &s[j], &w[j]);
            g16_fr_add(&s[0], &s[0], &q);
            g16_fr_mul(&q, &x0, &v[j - 1]);
            g16_fr_add(&s[j], &s[j], &q);
        }
    }
    for (unsigned r = 0; r < half; r++) {
        k = full_sbox(s, t, r + 1 == half ? NULL : k);
        vec_mat(s, s, p->mds, t);
    }
    *out = s[1];
}

/* One S-box as neptune's legacy circuit allocates it: l (unless l is an input of
 * round 0, where x = in + pre-key is not allocated), l², l⁴, l⁵ + post-key. */
static g16_fr *trace_sbox(g16_fr *aux, g16_fr *x, const g16_fr *post, int alloc_l)
{
    if (alloc_l) *aux++ = *x;
    g16_fr l2, l4;
    g16_fr_sqr(&l2, x);
    g16_fr_sqr(&l4, &l2);
    *aux++ = l2;
    *aux++ = l4;
    g16_fr_mul(x, &l4, x);
    if (post) g16_fr_add(x, x, post);
    *aux++ = *x;
    return aux;
}

size_t g16_poseidon_hash_trace(g16_fr *out, const g16_poseidon *p, const g16_fr *in, g16_fr *aux)
{
    unsigned t = p->t, half = p->rf / 2;
    g16_fr s[G16_POSEIDON_MAX_T], q, *a = aux;
    init_state(s, p, in);
    const g16_fr *k = p->crc;
    for (unsigned i = 0; i < t; i++) g16_fr_add(&s[i], &s[i], &k[i]);
    k += t;
    /* round 0: the tag's S-box is a constant, the inputs' S-boxes take 3 rows */
    quintic(&s[0]);
    g16_fr_add(&s[0], &s[0], &k[0]);
    for (unsigned i = 1; i < t; i++) a = trace_sbox(a, &s[i], &k[i], 0);
    k += t;
    vec_mat(s, s, half == 1 ? p->pre_sparse : p->mds, t);
    for (unsigned r = 1; r < half; r++) {
        for (unsigned i = 0; i < t; i++) a = trace_sbox(a, &s[i], &k[i], 1);
        k += t;
        vec_mat(s, s, r + 1 == half ? p->pre_sparse : p->mds, t);
    }
    for (unsigned r = 0; r < p->rp; r++) {
        a = trace_sbox(a, &s[0], k++, 1);
        const g16_fr *w = &p->w_hat[r * t], *v = &p->v_rest[r * (t - 1)];
        g16_fr x0 = s[0];
        g16_fr_mul(&s[0], &x0, &w[0]);
        for (unsigned j = 1; j < t; j++) {
            g16_fr_mul(&q, &s[j], &w[j]);
            g16_fr_add(&s[0], &s[0], &q);
            g16_fr_mul(&q, &x0, &v[j - 1]);
            g16_fr_add(&s[j], &s[j], &q);
        }
    }
    for (unsigned r = 0; r < half; r++) {
        int last = r + 1 == half;
        for (unsigned i = 0; i < t; i++) a = trace_sbox(a, &s[i], last ? NULL : &k[i], 1);
        if (!last) k += t;
        vec_mat(s, s, p->mds, t);
    }
    *a++ = s[1]; /* the digest, allocated */
    *out = s[1];
    return (size_t)(a - aux);
}
