#!/usr/bin/env bash
# BN254 on the GPU (issue 28): the device NTT, H step and MSMs against the reference and
# the CPU's BN254 code (g16_gpu_diff_bn254: NTTs to 2^20 in every direction/coset/order,
# H step + H MSM, G1 to 2^20, folded G1, G2 to 2^16, fresh random inputs with 0, 1,
# r − 1 and small scalars, density bitmaps); bn128 zkeys proved through BN254's CUDA ops
# table (`g16 prove --zkey --backend cuda`) and checked by g16's verifier, against the
# CPU table's time; then NTT, H-step, G1 and G2 MSM timings of BN254 and of BLS12-381 in
# the same call (g16_gpu_bench_bn254, g16_gpu_bench: CUDA events, median of 5, bases on
# the device, scalars from page-locked memory), and the table of the bar: BN254 G1 MSM
# at 2^24 ≤ 0.55 × BLS12-381's.
# usage: bench/gpu/bn254.sh --pack        here: builds build-cuda (Release, CUDA on, sm_90)
#                                         and copies the programs and the g16 CLI with its
#                                         libraries (scripts/carry-libs.sh) to build-cuda/bnpack
#        OUT=DIR bench/gpu/bn254.sh BIN   on the GPU machine, BIN = the carried bnpack
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = "--pack" ]; then
    set -e
    cmake -S "$root" -B "$root/build-cuda" -DG16_CUDA=ON -DG16_CUDA_ARCH=90 -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$root/build-cuda" -j "$(nproc)" --target g16_gpu_diff_bn254 g16_gpu_bench_bn254 g16_gpu_bench g16_cli
    rm -rf "$root/build-cuda/bnpack" && mkdir -p "$root/build-cuda/bnpack"
    cp "$root"/build-cuda/{g16_gpu_diff_bn254,g16_gpu_bench_bn254,g16_gpu_bench} "$root/build-cuda/bnpack/"
    bash "$root/scripts/carry-libs.sh" "$root/build-cuda/bnpack/cli" "$root/build-cuda/g16" >/dev/null
    echo "packed: $(du -sh "$root/build-cuda/bnpack" | cut -f1) in build-cuda/bnpack"
    exit 0
fi
bin=${1:?usage: bench/gpu/bn254.sh BIN}
out=${OUT:-/tmp/bn254-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader > "$out/gpu.txt" 2>&1
rc=0
timeout 600 "$bin/g16_gpu_diff_bn254" > "$out/diff_bn254.log" 2>&1 || rc=$?
tail -3 "$out/diff_bn254.log"
diff_ok=$([ $rc = 0 ] && echo pass || echo "FAIL($rc)")
# bn128 zkeys through BN254's CUDA ops table, verified; the CPU table's time beside
g16() { LD_LIBRARY_PATH=$bin/cli/lib "$bin/cli/bin/g16" "$@"; }
zk_ok=pass
# zk NAME ZKEY WTNS VK BACKEND: proves, verifies, prints the backend, the prove step and the verdict
zk() {
    local c=$1 log=$out/zkey-$1-$5.log
    if ! g16 prove --zkey "$2" --wtns "$3" --backend "$5" --time --proof "$out/$c-$5.json" \
            --public "$out/$c-$5-pub.json" > "$log" 2>&1 ||
        ! g16 verify --vk "$4" --proof "$out/$c-$5.json" --public "$out/$c-$5-pub.json" >> "$log" 2>&1; then
        zk_ok="FAIL ($c, $5)"
        rc=1
    fi
    echo "$c $5: $(grep -o 'backend .*' "$log" | head -1); $(grep -o 'prove [0-9.]* s.*' "$log" | head -1); $(tail -1 "$log")"
}
for c in multiplier poseidon range multi; do
    fx=$root/tests/interop/fixtures/bn128/$c
    for be in cuda cpu; do zk "$c" "$fx/circuit.zkey" "$fx/witness.wtns" "$fx/verification_key.json" $be; done
done
# optional: a bigger bn128 circuit (CHAIN=DIR holding NAME.zkey, NAME.wtns, NAME.vk.json from
# bench/snarkjs/run.sh --curve bn128, e.g. chain68 at 2^14), each backend twice, verified
if [ -n "${CHAIN:-}" ]; then
    for z in "$CHAIN"/*.zkey; do
        c=$(basename "$z" .zkey)
        for be in cuda cpu cuda cpu; do zk "$c" "$z" "$CHAIN/$c.wtns" "$CHAIN/$c.vk.json" $be; done
    done
fi
cmp -s "$out/multiplier-cuda-pub.json" "$root/tests/interop/fixtures/bn128/multiplier/public.json" || zk_ok="FAIL (public.json)"
# the device NTT and H step of both curves (2^20..2^22, the three pass kernels; H at 2^20)
timeout 300 "$bin/g16_gpu_bench_bn254" --quick --only ntt > "$out/bn_ntt.log" 2>&1
timeout 300 "$bin/g16_gpu_bench" --quick --only ntt > "$out/bls_ntt.log" 2>&1
timeout 300 "$bin/g16_gpu_bench_bn254" --quick --only h > "$out/bn_h.log" 2>&1
timeout 300 "$bin/g16_gpu_bench" --quick --only h > "$out/bls_h.log" 2>&1
# alternate the curves: G1 2^20..2^24 and G2 2^20..2^22, twice each
for round in 1 2; do
    timeout 300 "$bin/g16_gpu_bench_bn254" --only g1 --lo 20 --hi 24 > "$out/bn_g1_$round.log" 2>&1
    timeout 300 "$bin/g16_gpu_bench" --only g1 --lo 20 --hi 24 --no-hmsm > "$out/bls_g1_$round.log" 2>&1
done
timeout 300 "$bin/g16_gpu_bench_bn254" --only g2 --lo 20 --hi 22 > "$out/bn_g2.log" 2>&1
timeout 300 "$bin/g16_gpu_bench" --only g2 --lo 20 --hi 22 > "$out/bls_g2.log" 2>&1
python3 - "$out" "$diff_ok" "$zk_ok" <<'PY'
import glob, os, re, sys
out, diff_ok, zk_ok = sys.argv[1], sys.argv[2], sys.argv[3]
def rows(pat):
    r = {}
    for f in sorted(glob.glob(os.path.join(out, pat))):
        for line in open(f):
            m = re.match(r"RESULT (msm_g[12]|ntt\d?_n[nb]|h_step) (\d+) ([\d.]+) ([\d.]+)", line)
            if m:
                r.setdefault((m[1], int(m[2])), []).append((float(m[3]), float(m[4])))
    return {k: min(v) for k, v in r.items()}  # the better of the rounds (each a median of 5)
bn, bls = rows("bn_*.log"), rows("bls_*.log")
print(f"BN254 differential test (device vs reference and CPU: NTT, H step, MSMs): {diff_ok}")
print(f"bn128 zkeys proved through the CUDA and CPU ops tables, verified: {zk_ok}")
print(f"{'op':8} {'size':>5} {'BN254 kern ms':>14} {'BLS kern ms':>12} {'ratio':>6} {'BN254 total':>12} {'BLS total':>10}")
for k in sorted(set(bn) | set(bls)):
    b, s = bn.get(k), bls.get(k)
    ratio = f"{b[0] / s[0]:.3f}" if b and s else "-"
    f = lambda v, i: f"{v[i]:.2f}" if v else "-"
    print(f"{k[0]:8} 2^{k[1]:<3} {f(b, 0):>14} {f(s, 0):>12} {ratio:>6} {f(b, 1):>12} {f(s, 1):>10}")
g = bn.get(("msm_g1", 24)), bls.get(("msm_g1", 24))
if g[0] and g[1]:
    print(f"bar: BN254 G1 2^24 / BLS12-381 = {g[0][0] / g[1][0]:.3f} (<= 0.55: {'met' if g[0][0] / g[1][0] <= 0.55 else 'missed'})")
PY
exit $rc
