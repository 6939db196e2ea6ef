#!/usr/bin/env bash
# The CUDA fault walk and the wrong-GPU-result injector of issue 26 (docs/reliability.md,
# "Fault injection"), in two steps:
#
#   here (nvcc, no GPU):  bench/gpu/fault.sh pack
#       configures build-gpu-fault/ (Release, -DG16_CUDA=ON -DG16_CUDA_ARCH=90
#       -DG16_FAULT_INJECT=ON), builds test_engine_fault and puts it with the shared
#       libraries it loads in build-gpu-fault/carry/ (scripts/carry-libs.sh);
#   on the GPU machine:   bench/gpu/fault.sh run [N_WRONG]      (carry build-gpu-fault/carry)
#       1. the fault walk on the CUDA backend: a dry run counts job A's failure points per
#          kind (host alloc, page-lock, device alloc, CUDA call, kernel launch, file read,
#          thread), then every point fails once, kind by kind, with job B alongside on the same
#          GPU (WALK_BUDGET seconds, default 300: a longer walk takes every S-th point);
#       2. N_WRONG (default 40) jobs with one MSM bucket corrupted (a different MSM of the
#          proof each time): the self-check must catch each and the CPU retry prove it;
#       3. one table.  Logs: $OUT (default build-gpu-fault/out).
# Exit status 0 when both passed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$root/build-gpu-fault
case "${1:-}" in
pack)
    cmake -S "$root" -B "$B" -DCMAKE_BUILD_TYPE=Release -DG16_CUDA=ON -DG16_CUDA_ARCH=90 \
        -DG16_FAULT_INJECT=ON >/dev/null || exit 1
    cmake --build "$B" -j "${JOBS:-2}" --target test_engine_fault || exit 1
    rm -rf "$B/carry"
    bash "$root/scripts/carry-libs.sh" "$B/carry" "$B/test_engine_fault"
    ;;
run)
    nw=${2:-40}
    out=${OUT:-$B/out}
    mkdir -p "$out"
    t=$B/carry/bin/test_engine_fault
    export LD_LIBRARY_PATH=$B/carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1
    timeout 540 "$t" --cuda --table --budget "${WALK_BUDGET:-300}" >"$out/walk.log" 2>&1
    rw=$?
    timeout 300 "$t" --cuda --wrong "$nw" >"$out/wrong.log" 2>&1
    rj=$?
    echo "== CUDA fault walk (rc $rw): $out/walk.log"
    grep -E '^(fault walk|engine create walk|kind|host alloc|page-lock|device alloc|cuda call|kernel|file read|thread|test_engine_fault)' "$out/walk.log"
    grep -m5 'failed:' "$out/walk.log"
    echo "== wrong-result injector (rc $rj): $out/wrong.log"
    grep -E '^(wrong-result injector|test_engine_fault)' "$out/wrong.log"
    grep -m5 'failed:' "$out/wrong.log"
    [ $rw = 0 ] && [ $rj = 0 ]
    ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
