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
#          thread), then every point fails once, kind by kind (one process per kind), with job B
#          alongside on the same GPU (WALK_BUDGET seconds in all, default 300: a longer walk
#          takes every S-th point of a kind and says so; kinds not started by WALK_DEADLINE,
#          default 420 s, are skipped; KINDS="3 4" walks those kinds only: 0 host alloc,
#          1 page-lock, 2 device alloc, 3 CUDA call, 4 kernel, 5 file read, 6 thread), then
#          every point of g16_engine_create;
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
    export G16_FAULT_VERBOSE=1   # one line per run in the logs: a crash or hang names its k
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1
    start=$(date +%s)
    rc=0
    # one process per kind (a crash or hang at one point costs only that kind's walk), then
    # engine create's own points, each with its share of WALK_BUDGET
    kinds=${KINDS:-0 1 2 3 4 5 6}
    per=$(( ${WALK_BUDGET:-300} / $(echo $kinds | wc -w) ))
    for k in $kinds; do
        if [ $(( $(date +%s) - start )) -gt "${WALK_DEADLINE:-420}" ]; then
            echo "kind $k: skipped (the walk's deadline passed)" >"$out/walk-$k.log"; rc=1; continue
        fi
        timeout $((per + 60)) "$t" --cuda --table --kind $k --no-create --budget $per >"$out/walk-$k.log" 2>&1 || rc=1
    done
    timeout 120 "$t" --cuda --create-only >"$out/walk-create.log" 2>&1 || rc=1
    timeout 150 "$t" --cuda --wrong "$nw" >"$out/wrong.log" 2>&1
    rj=$?
    echo "== CUDA fault walk (rc $rc), $(( $(date +%s) - start )) s: logs $out/walk-*.log"
    grep -h -m1 '^fault walk (cuda)' "$out/walk-${kinds%% *}.log"
    printf '%-13s %8s %8s %14s %9s %5s %14s  %s\n' kind points fired "failed clean" absorbed bad "engine start" \
        "run (every S-th; checks)"
    for k in $kinds; do
        l=$out/walk-$k.log
        row=$(grep -E '^(host alloc|page-lock|device alloc|cuda call|kernel|file read|thread) ' "$l" |
              sed -n "$((k + 1))p")
        printf '%s  %s; %s\n' "${row:-kind $k: no table (crashed or timed out?)}" \
            "$(grep -o 'every [0-9]*-th' "$l" | head -1)" "$(grep -h '^test_engine_fault:' "$l")"
    done
    grep -h -E '^(engine create walk|test_engine_fault)' "$out/walk-create.log"
    for l in "$out"/walk-*.log; do
        grep -q '^test_engine_fault:.* 0 failed' "$l" && continue
        echo "-- $(basename "$l"): first failures / last lines"
        grep -m5 'failed:' "$l"
        tail -n 3 "$l"
    done
    echo "== wrong-result injector (rc $rj): $out/wrong.log"
    grep -E '^(wrong-result injector|test_engine_fault)' "$out/wrong.log"
    grep -m5 'failed:' "$out/wrong.log"
    [ $rc = 0 ] && [ $rj = 0 ]
    ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
