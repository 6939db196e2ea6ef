// Which Hopper pipes a field product could share (fourteenth session).
//
// Question: the Fp product is bound by IMAD.WIDE (docs/cuda.md, "Left": 10 SM clocks a
// product at 64 lanes a clock).  Hopper also has 64 FP64 FMA lanes a clock an SM and an
// integer ALU pipe (IADD3/LOP3).  If DFMA and IADD3 issue beside IMAD, part of a product
// could move there.  Each kernel runs 8 independent chains a stream per thread; the mixed
// kernels run the single kernels' streams in one loop: time(mix) ≈ max(parts) means they
// overlap, ≈ sum means they share a pipe or the issue slot.  (ptxas folds the iadd
// stream's repeated adds of one value, so its own rate reads above the issue limit:
// only the imad and dfma columns are rates.)  Rates a clock use the clock attribute.
//
// Then field.cuh's product against field52.cuh's two FP64-pipe products (rate and
// correctness).  CMake target g16_pipes_probe; run on the GPU machine, no arguments.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "field52.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

template <int NI, int ND, int NA>
__global__ void __launch_bounds__(256) mix(uint64_t *out, uint32_t y, double m, double c, int iters)
{
    uint64_t acc[8];
    double d[8];
    uint32_t v[8];
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < 8; j++) acc[j] = t * 7 + j, d[j] = t + j, v[j] = t ^ j;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int r = 0; r < 4; r++) {
#pragma unroll
            for (int j = 0; j < 8; j++) {
                if (NI) {
#pragma unroll
                    for (int k = 0; k < NI; k++)
                        asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(acc[j]) : "r"((uint32_t)acc[j]), "r"(y));
                }
                if (ND) {
#pragma unroll
                    for (int k = 0; k < ND; k++) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(d[j]) : "d"(m), "d"(c));
                }
                if (NA) {
#pragma unroll
                    for (int k = 0; k < NA; k++) asm volatile("add.u32 %0, %0, %1;" : "+r"(v[j]) : "r"(y));
                }
            }
        }
    }
    uint64_t s = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) s += acc[j] + (uint64_t)__double_as_longlong(d[j]) + v[j];
    if (s == 0x123456789ull) out[0] = s;
}

__global__ void __launch_bounds__(256) fpmul(g16_dfp *out, g16_dfp y, int iters)
{
    g16_dfp a = y, b = y;
    a.l[0] ^= blockIdx.x * blockDim.x + threadIdx.x;
    b.l[1] ^= threadIdx.x;
    for (int it = 0; it < iters; it++) {
        a = a * y;
        b = b * y;
    }
    if (a.l[0] == 0x12345 && b.l[3] == 7) out[0] = a;
}

template <int V>
__global__ void __launch_bounds__(256) fpmul52(g16_dfp *out, g16_dfp y, int iters)
{
    g16_dfp a = y, b = y;
    a.l[0] ^= blockIdx.x * blockDim.x + threadIdx.x;
    b.l[1] ^= threadIdx.x;
    for (int it = 0; it < iters; it++) {
        a = V ? mul52h(a, y) : mul52(a, y);
        b = V ? mul52h(b, y) : mul52(b, y);
    }
    if (a.l[0] == 0x12345 && b.l[3] == 7) out[0] = a;
}

// mul52, mul52h and sop52h against field.cuh's operator* and sop on n pairs (and the
// products of their results); bad[0] counts the differences.
__global__ void check52(const g16_dfp *x, const g16_dfp *y, int n, unsigned *bad)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const g16_dfp a = x[i], b = y[i], e = a * b, e2 = e * e;
    const g16_dfp r = mul52(a, b), h = mul52h(a, b);
    unsigned d = !r.eq(e) + !mul52(r, r).eq(e2) + !h.eq(e) + !mul52h(h, h).eq(e2);
    d += !sop52h(a, b, e, b).eq(g16_dfp::sop(a, b, e, b));
    if (d) atomicAdd(bad, d);
}

template <class K>
static float timeit(K launch)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    launch();  // warm-up
    cudaDeviceSynchronize();
    float best = 1e30f;
    for (int r = 0; r < 3; r++) {
        cudaEventRecord(e0);
        launch();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (ms < best) best = ms;
    }
    return best;
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int clk_khz = 0;
    cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0);
    const int sms = p.multiProcessorCount, blocks = sms * 8, thr = 256, iters = 2000;
    printf("%s: %d SMs, clock attr %.0f MHz\n", p.name, sms, clk_khz / 1e3);
    uint64_t *out;
    CK(cudaMalloc(&out, 1 << 20));
    const double threads = (double)blocks * thr, per = 4.0 * 8 * iters;  // ops a stream a thread
    const double sm_clk = (double)sms * clk_khz * 1e3;                // SM-clocks a second (attr)
    struct row { const char *name; int ni, nd, na; float ms; } rows[] = {
        {"imad", 1, 0, 0, 0}, {"dfma", 0, 1, 0, 0}, {"iadd", 0, 0, 1, 0},
        {"imad+dfma", 1, 1, 0, 0}, {"imad+iadd", 1, 0, 1, 0}, {"dfma+iadd", 0, 1, 1, 0},
        {"imad+dfma+iadd", 1, 1, 1, 0}, {"imad+2iadd", 1, 0, 2, 0}, {"imad+dfma+2iadd", 1, 1, 2, 0},
    };
    const uint32_t y = 0x9e3779b9u;
    const double m = 1.0 + 0x1p-40, c = 0x1p-30;
#define RUN(I, D, A) timeit([&] { mix<I, D, A><<<blocks, thr>>>(out, y, m, c, iters); })
    rows[0].ms = RUN(1, 0, 0);
    rows[1].ms = RUN(0, 1, 0);
    rows[2].ms = RUN(0, 0, 1);
    rows[3].ms = RUN(1, 1, 0);
    rows[4].ms = RUN(1, 0, 1);
    rows[5].ms = RUN(0, 1, 1);
    rows[6].ms = RUN(1, 1, 1);
    rows[7].ms = RUN(1, 0, 2);
    rows[8].ms = RUN(1, 1, 2);
    CK(cudaGetLastError());
    printf("%-18s %9s %14s %14s %14s\n", "kernel", "ms", "imad/clk/SM", "dfma/clk/SM", "iadd/clk/SM");
    for (auto &r : rows) {
        double ops = threads * per / (r.ms * 1e-3) / sm_clk;  // one stream's lanes a clock an SM
        printf("%-18s %9.3f %14.1f %14.1f %14.1f\n", r.name, r.ms, r.ni * ops, r.nd * ops, r.na * ops);
    }
    g16_dfp yy = g16_dfp::one();
    yy.l[0] ^= 0x1234567u;
    const int fiters = 400;
    float fms = timeit([&] { fpmul<<<blocks, thr>>>((g16_dfp *)out, yy, fiters); });
    CK(cudaGetLastError());
    double prods = threads * 2.0 * fiters;
    printf("fp mul (12x32 IMAD): %.3f ms, %.2f G/s, %.2f SM-clocks a product (attr clock)\n", fms,
           prods / (fms * 1e-3) / 1e9, sm_clk / (prods / (fms * 1e-3)));
    const int fiters52 = 400;
    for (int v = 0; v < 2; v++) {
        float f52 = timeit([&] {
            if (v) fpmul52<1><<<blocks, thr>>>((g16_dfp *)out, yy, fiters52);
            else fpmul52<0><<<blocks, thr>>>((g16_dfp *)out, yy, fiters52);
        });
        CK(cudaGetLastError());
        printf("%s: %.3f ms, %.2f G/s, %.2f SM-clocks a product (attr clock)\n",
               v ? "fp mul52h (IMAD a*b, FP64 REDC)" : "fp mul52 (8x52 all FP64)", f52,
               prods / (f52 * 1e-3) / 1e9, sm_clk / (prods / (f52 * 1e-3)));
    }
    // correctness: random reduced values (top word < 2^28 keeps them below p) and edge values
    const int n = 1 << 20;
    g16_dfp *hx = new g16_dfp[n], *hy = new g16_dfp[n];
    uint64_t st = 0x853c49e6748fea9bull;
    for (int i = 0; i < n; i++)
        for (int w = 0; w < 12; w++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            hx[i].l[w] = (uint32_t)(st >> 32);
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            hy[i].l[w] = (uint32_t)(st >> 32);
            if (w == 11) hx[i].l[w] &= 0x0fffffffu, hy[i].l[w] &= 0x0fffffffu;
        }
    for (int w = 0; w < 12; w++) {  // p-1 squared, (p-1)·1, 0·x
        hx[0].l[w] = hy[0].l[w] = g16_fp_params::mod(w);
        hx[1].l[w] = g16_fp_params::mod(w), hy[1].l[w] = w == 0;
        hx[2].l[w] = 0;
    }
    hx[0].l[0] -= 1, hy[0].l[0] -= 1, hx[1].l[0] -= 1;
    g16_dfp *dx, *dy;
    unsigned *dbad, bad = 0;
    CK(cudaMalloc(&dx, n * sizeof(g16_dfp)));
    CK(cudaMalloc(&dy, n * sizeof(g16_dfp)));
    CK(cudaMalloc(&dbad, 4));
    CK(cudaMemcpy(dx, hx, n * sizeof(g16_dfp), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, hy, n * sizeof(g16_dfp), cudaMemcpyHostToDevice));
    CK(cudaMemset(dbad, 0, 4));
    check52<<<(n + 255) / 256, 256>>>(dx, dy, n, dbad);
    CK(cudaMemcpy(&bad, dbad, 4, cudaMemcpyDeviceToHost));
    printf("checks: %d pairs x 5 (mul52, mul52h, their squares, sop52h), %u differ\n", n, bad);
    return bad ? 1 : 0;
}
