#!/usr/bin/env bash
# GPU check and benchmark of the CUDA backend, for the GPU machine:
#   1. configure + build (Release, -DG16_CUDA=ON -DG16_CUDA_ARCH=90) in build-gpu/;
#   2. the differential test (CPU vs CUDA, fresh random inputs: tests/gpu/diff.c);
#   3. the benchmark (tests/gpu/bench.c);
#   4. whole proofs with the CUDA backend (bench/gpu/prove.sh): CPU and CUDA proofs
#      byte-identical, prove_start at 2^24, 2^26 and 2^27 (2^24 only with --quick);
#   5. the engine on the GPU (--pipeline only: g16 bench pipeline, 2^PIPE_LOG rows);
#   6. one table: size, kernel time, total time, floor / peer figure, diff verdict.
#   --porep32 instead of 2-6: the real-scale run of issue 22, a 32 GiB PoRep's shape: 3 jobs x
#      10 partitions x 2^27 rows back to back, pw 1, 2, 4, budget 100G, every proof verified,
#      --json lines (s/proof, steady device stage, synth_s, rss_peak_bytes against budget_bytes)
#      in OUT/porep32.jsonl, the traces in OUT and their timeline OUT/porep32.svg
#      (bench/trace-svg.py; PIPE_PW, PIPE_BUDGET, PIPE_TIMEOUT apply)
#   --preload instead of 2-6: issue 22 point 2, the first job's ramp-up: g16_gpu_bench --only
#      copy (4 GiB uploads: page-locked source, staged by 1..16 threads), then a 2^PRELOAD_LOG
#      (default 27) 10-partition job at pw 1 with the key staged by threads (the default;
#      PRELOAD_JOBS jobs, default 2: the first with ramp-up, the next steady) and one job with
#      G16_CUDA_KEY_PIN=1 (the key page-locked for its copy); every proof verified; the
#      per-job table of bench/trace-jobs.py last.  PRELOAD_MODES (default "staged pinned";
#      also "huge": staged with G16_POOL_HUGE=1) and PRELOAD_JOBS choose the runs.  G16_GPU_BIN may be a multi.sh pack (bin/).
#   --early instead of 2-6: the engine's early device start (G16_ENGINE_EARLY): 3 one-partition
#      jobs of the dense profile at 2^EARLY_LOG (default 26) with it off, then on; then one porep
#      2^27 x 10 job with it on (EARLY_POREP=0 skips it); every proof verified; per-job table last.
# Usage: bench/gpu/run.sh [--quick] [--pipeline] [--porep32] [--preload] [--early]
# Env:   OUT        folder for the logs (default build-gpu/out)
#        G16_GPU_BIN  folder holding prebuilt g16_gpu_diff and g16_gpu_bench: skip step 1
#        DIFF_TIMEOUT, BENCH_TIMEOUT, PIPE_TIMEOUT  seconds (default 900, 1500, 400)
#        DIFF_QUICK=1  short differential test, full benchmark
#        PIPE_LOG, PIPE_PW, PIPE_BUDGET, PIPE_JOBS  the --pipeline step's rows (24; a list such as
#                     "25 26" runs one sweep per size), pw list (1,2,4,8), host budget (32G)
#        TRACE_DIR (default OUT), PIPE_EXTRA (more bench pipeline options, e.g. --json)
#        NO_BENCH=1  skip the kernel benchmark;  PROVE_SIZES  prove_start sizes (default 24 26 27)
#        FOLD_AB=1  also the folded-bases G1 MSM (g16_cuda_bases_fold): its differential test
#                     (g16_gpu_diff --fold-only) and timings 2^20..2^FOLD_HI (default 24) as msm_g1f
#        NTT_AB=1   also the NTT alone: the default (radix-8) pass kernel's differential set to
#                     2^20 and the NTT timings (rows ntt_*, ntt4_*, ntt8_*: radix 2, 4, 8 (default))
#        AFFINE_AB=1  also the batch-affine G1 bucket accumulation (G16_CUDA_MSM_AFFINE=1): its
#                     differential test (the MSM sets to 2^20) and G1 timings (rows msm_g1a)
#        G2INL_BIN=dir  also the binaries of a build with another -DG16_CUDA_G2_INLINE level (0 or
#                     2; the default is 1): their quick differential test and G2 MSM timings
#                     (rows msm_g2i), for an A/B
#        PROVE_AB="ENV;ENV..."  also one prove_start at 2^AB_LOG (default 26) with the default
#                     settings and one per ENV (e.g. "G16_CUDA_MSM_CMIN=19 G16_CUDA_MSM_CMAX=19"),
#                     printed as AB rows with each stage's seconds, for an A/B in the proof
#        NTT_ENV="ENV ..."  also the NTT differential set (to 2^20) and the NTT timings under
#                     these environment settings (e.g. G16_CUDA_NTT_T128=1), rows ntt*e_*
#        G2PAIR_AB="MODES"  also G2's level 0 under each G16_CUDA_MSM_G2_PAIR mode (e.g. "0 1 3 4":
#                     0 a point a thread, else over lane pairs compiled for that many blocks a
#                     multiprocessor): the G2 differential set to 2^16 with the
#                     edge chunks (g16_gpu_diff --g2-only) and the G2 timings (rows msm_g2pMODE)
#        OVERLAP_AB=1  also run the differential test and a 2^26 prove_start with
#                     G16_CUDA_OVERLAP=0 (H-step uploads not overlapped), for an A/B against the default
# Exit status: 0 when the build and the differential test passed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
quick=""; pipeline=""; porep32=""; preload=""; early=""
for a in "$@"; do
    [ "$a" = "--early" ] && early=1
    [ "$a" = "--preload" ] && preload=1
    [ "$a" = "--quick" ] && quick="--quick"
    [ "$a" = "--pipeline" ] && pipeline=1
    [ "$a" = "--porep32" ] && porep32=1
done
out=${OUT:-$root/build-gpu/out}
mkdir -p "$out"
say() { echo "[run.sh $(date +%H:%M:%S)] $*"; }
# The differential test of an A/B variant: variant_diff WHAT LOG CMD...; prints the
# first failures and the summary line; returns CMD's status.
variant_diff() {
    local what=$1 log=$out/$2 rc
    shift 2
    timeout "${DIFF_TIMEOUT:-900}" "$@" >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { say "FAILED: $what differential test (rc $rc)"; grep FAIL "$log" | head; }
    tail -n 1 "$log"
    return $rc
}

(nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv 2>&1 || echo "nvidia-smi failed") >"$out/device.txt"
say "device: $(tail -n +2 "$out/device.txt" | head -1)"

bin=${G16_GPU_BIN:-}
if [ -z "$bin" ]; then
    bin=$root/build-gpu
    say "building in $bin"
    if ! { cmake -S "$root" -B "$bin" -DCMAKE_BUILD_TYPE=Release -DG16_CUDA=ON -DG16_CUDA_ARCH=90 &&
           cmake --build "$bin" -j "$(nproc)" --target g16_gpu_diff g16_gpu_bench test_cuda_host_field g16_cli; } \
           >"$out/build.log" 2>&1; then
        say "FAILED: build; last lines of $out/build.log:"
        grep -E "error|Error" "$out/build.log" | head -20
        tail -n 20 "$out/build.log"
        exit 1
    fi
    "$bin/test_cuda_host_field" >"$out/host_field.log" 2>&1 || say "FAILED: host_field (see host_field.log)"
fi
need="g16_gpu_diff g16_gpu_bench g16"; [ -n "$preload" ] && need="g16_gpu_bench g16"; [ -n "$early" ] && need=g16; [ -n "$porep32" ] && need=g16
for p in $need; do
    if [ ! -x "$bin/$p" ]; then say "FAILED: $bin/$p missing"; exit 1; fi
done

if [ -n "$early" ]; then
    lg=${EARLY_LOG:-26} rc=0 runs=""
    for on in 0 1; do
        say "dense 2^$lg, 3 jobs x 1 partition, pw 1, G16_ENGINE_EARLY=$on"
        mkdir -p "$out/early$on"
        timeout "${PIPE_TIMEOUT:-300}" env G16_ENGINE_EARLY=$on "$bin/g16" bench pipeline --backend cuda --jobs 3 \
            --partitions 1 --log-n "$lg" --profile dense --pw 1 --budget "${PIPE_BUDGET:-100G}" --json \
            --trace-dir "$out/early$on" >"$out/early$on.jsonl" 2>"$out/early$on.err" || rc=$?
        cat "$out/early$on.jsonl"; grep -iE "error|fail" "$out/early$on.err" | head -5
        runs="$runs $out/early$on/pipeline-pw1.json"
    done
    if [ "${EARLY_POREP:-1}" != 0 ]; then
        say "porep 2^27, 1 job x 10 partitions, pw 1, early start on"
        mkdir -p "$out/earlyporep"
        timeout "${PIPE_TIMEOUT:-300}" "$bin/g16" bench pipeline --backend cuda --jobs 1 --partitions 10 \
            --log-n 27 --profile porep --pw 1 --budget "${PIPE_BUDGET:-100G}" --json \
            --trace-dir "$out/earlyporep" >"$out/earlyporep.jsonl" 2>"$out/earlyporep.err" || rc=$?
        cat "$out/earlyporep.jsonl"; grep -iE "error|fail" "$out/earlyporep.err" | head -5
        runs="$runs $out/earlyporep/pipeline-pw1.json"
    fi
    say "early rc $rc"
    python3 "$root/bench/trace-jobs.py" $runs
    exit $rc
fi

if [ -n "$preload" ]; then
    lg=${PRELOAD_LOG:-27}
    say "copy bandwidth (g16_gpu_bench --only copy)"
    [ -z "${PRELOAD_NO_COPY:-}" ] && timeout 300 "$bin/g16_gpu_bench" --only copy 2>&1 | tee "$out/copy.txt"
    rc=0
    say "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
    for mode in ${PRELOAD_MODES:-staged pinned}; do
        huge=0 pin=0 jobs=${PRELOAD_JOBS:-2}
        case $mode in pinned) pin=1 jobs=1 ;; huge) huge=1 ;; esac
        say "2^$lg x 10 partitions, pw 1, $jobs job(s), $mode (G16_CUDA_KEY_PIN=$pin G16_POOL_HUGE=$huge)"
        mkdir -p "$out/$mode"
        timeout "${PIPE_TIMEOUT:-400}" env G16_CUDA_KEY_PIN=$pin G16_POOL_HUGE=$huge G16_CUDA_DEBUG=1 "$bin/g16" bench pipeline \
            --backend cuda --jobs "$jobs" --partitions 10 --log-n "$lg" --profile porep --pw 1 \
            --budget "${PIPE_BUDGET:-100G}" --json --trace-dir "$out/$mode" >"$out/preload-$mode.jsonl" \
            2>"$out/preload-$mode.err" || rc=$?
        cat "$out/preload-$mode.jsonl"
        grep "key_upload" "$out/preload-$mode.err" | head -12
        grep -iE "error|fail|invalid" "$out/preload-$mode.err" | head -5
    done
    say "preload rc $rc"
    for mode in ${PRELOAD_MODES:-staged pinned}; do python3 "$root/bench/trace-jobs.py" "$out/$mode"/pipeline-pw*.json; done
    exit $rc
fi

if [ -n "$porep32" ]; then
    say "real scale: 3 jobs x 10 partitions x 2^27, pw ${PIPE_PW:-1,2,4}, budget ${PIPE_BUDGET:-100G}"
    timeout "${PIPE_TIMEOUT:-3000}" "$bin/g16" bench pipeline --backend cuda --jobs 3 --partitions 10 \
        --log-n 27 --profile porep --pw "${PIPE_PW:-1,2,4}" --budget "${PIPE_BUDGET:-100G}" --json \
        --trace-dir "${TRACE_DIR:-$out}" >"$out/porep32.jsonl" 2>"$out/porep32.err"
    rc=$?
    cat "$out/porep32.jsonl"
    tail -n 5 "$out/porep32.err"
    # the timeline plot of docs/BENCHMARKS.md (python3's standard library only)
    if command -v python3 >/dev/null; then
        python3 "$root/bench/trace-svg.py" "$out/porep32.svg" "${TRACE_DIR:-$out}"/pipeline-pw*.json &&
            say "timeline: $out/porep32.svg"
    fi
    say "porep32 rc $rc"
    exit $rc
fi

say "differential test"
# DIFF_QUICK=1: the short differential test with the full benchmark.
dq=$quick; [ -n "${DIFF_QUICK:-}" ] && dq=--quick
timeout "${DIFF_TIMEOUT:-900}" "$bin/g16_gpu_diff" $dq >"$out/diff.log" 2>&1
diff_rc=$?
if [ $diff_rc -eq 0 ]; then diff_verdict=pass; else
    diff_verdict="FAIL(rc=$diff_rc)"
    say "FAILED: differential test (rc $diff_rc; 124 = timeout); first failures:"
    grep -E "FAIL|failed" "$out/diff.log" | head -25
fi
tail -n 3 "$out/diff.log"

if [ -z "${NO_BENCH:-}" ]; then
    say "benchmark"
    timeout "${BENCH_TIMEOUT:-1500}" "$bin/g16_gpu_bench" $quick >"$out/bench.log" 2>&1
    bench_rc=$?
    [ $bench_rc -ne 0 ] && { say "FAILED: benchmark (rc $bench_rc; 124 = timeout):"; grep FAILED "$out/bench.log" | head; }
else
    : >"$out/bench.log"
fi

say "whole proofs (prove.sh)"
if [ -n "$quick" ]; then sizes=24; else sizes=${PROVE_SIZES:-24 26 27}; fi
"$root/bench/gpu/prove.sh" "$bin" "$out" $sizes >"$out/prove.txt" 2>&1
prove_rc=$?
[ $prove_rc -ne 0 ] && say "FAILED: prove.sh (rc $prove_rc); see $out/prove.log"

if [ -n "${OVERLAP_AB:-}" ]; then
    say "H-step uploads not overlapped: differential test (quick) and 2^26 prove_start"
    variant_diff "no-overlap" diff-overlap.log env G16_CUDA_OVERLAP=0 "$bin/g16_gpu_diff" --quick
    ov_rc=$?
    j=$(G16_CUDA_OVERLAP=0 timeout 400 "$bin/g16" bench prove --log-n 26 --backend cuda --reps 2 --timing-key --json 2>>"$out/prove.log")
    echo "OVERLAP diff_rc=$ov_rc $j" >>"$out/prove.txt"
fi

if [ -n "${PROVE_AB:-}" ]; then
    say "prove_start A/B at 2^${AB_LOG:-26}: default; ${PROVE_AB}"
    IFS=';' read -ra abs <<<"$PROVE_AB"
    for e in "" "${abs[@]}"; do
        j=$(env $e timeout 300 "$bin/g16" bench prove --log-n "${AB_LOG:-26}" --backend cuda --reps 2 \
            --timing-key --json 2>>"$out/prove.log")
        f=$(printf '%s' "$j" | python3 -c 'import json, sys
j = json.load(sys.stdin)
print(" ".join("%s=%.4f" % (k, j[k]) for k in
      ("prove_start", "h_ntt", "msm_h", "msm_l", "msm_a", "msm_b1", "msm_b2")))' 2>/dev/null || printf '%s' "$j")
        echo "AB [${e:-default}] $f" >>"$out/prove.txt"
    done
fi

if [ -n "${AFFINE_AB:-}" ]; then
    say "batch-affine G1 accumulation: differential test and G1 MSM timings"
    variant_diff "batch-affine" diff-affine.log env G16_CUDA_MSM_AFFINE=1 "$bin/g16_gpu_diff" &&
        G16_CUDA_MSM_AFFINE=1 timeout "${BENCH_TIMEOUT:-1500}" "$bin/g16_gpu_bench" --only g1 \
        --no-hmsm 2>&1 | sed 's/^RESULT msm_g1 /RESULT msm_g1a /' >>"$out/bench.log"
fi

if [ -n "${G2INL_BIN:-}" ]; then
    say "G2 build with another inlining level: quick differential test and G2 MSM timings"
    variant_diff "G2-inlining" diff-g2i.log "$G2INL_BIN/g16_gpu_diff" --quick &&
        timeout "${BENCH_TIMEOUT:-1500}" "$G2INL_BIN/g16_gpu_bench" --only g2 2>&1 |
        sed 's/^RESULT msm_g2 /RESULT msm_g2i /' >>"$out/bench.log"
fi

if [ -n "${G2PAIR_AB:-}" ]; then
    for m in $G2PAIR_AB; do
        say "G2 level 0 with G16_CUDA_MSM_G2_PAIR=$m: G2 differential set and timings"
        variant_diff "G2 pair mode $m" "diff-g2p$m.log" env G16_CUDA_MSM_G2_PAIR=$m "$bin/g16_gpu_diff" --g2-only 65536 &&
            G16_CUDA_MSM_G2_PAIR=$m timeout "${BENCH_TIMEOUT:-1500}" "$bin/g16_gpu_bench" --only g2 2>&1 |
            sed "s/^RESULT msm_g2 /RESULT msm_g2p$m /" >>"$out/bench.log"
    done
fi

if [ -n "${NTT_AB:-}" ]; then
    say "NTT: differential set to 2^20 (default radix 8) and timings of radix 2, 4, 8"
    variant_diff "NTT" diff-ntt8.log "$bin/g16_gpu_diff" --ntt-only 20 &&
        timeout "${BENCH_TIMEOUT:-1500}" "$bin/g16_gpu_bench" --only ntt >>"$out/bench.log" 2>&1
fi

if [ -n "${NTT_ENV:-}" ]; then
    say "NTT under ${NTT_ENV}: differential set to 2^20 and timings (rows ntt*e_*)"
    variant_diff "NTT ($NTT_ENV)" diff-ntt-env.log env $NTT_ENV "$bin/g16_gpu_diff" --ntt-only 20 &&
        env $NTT_ENV timeout "${BENCH_TIMEOUT:-1500}" "$bin/g16_gpu_bench" --only ntt 2>&1 |
        sed -E 's/^RESULT (ntt[48]?)_/RESULT \1e_/' >>"$out/bench.log"
fi

if [ -n "${FOLD_AB:-}" ]; then
    say "folded bases: differential test and G1 MSM timings"
    variant_diff "folded-bases" diff-fold.log "$bin/g16_gpu_diff" --fold-only 262144
    fold_rc=$?
    [ $fold_rc -eq 0 ] && timeout "${BENCH_TIMEOUT:-1500}" "$bin/g16_gpu_bench" --only g1 --no-hmsm --fold 0 \
        --hi "${FOLD_HI:-24}" >>"$out/bench.log" 2>&1
    # whole proofs with the H query folded (G16_CUDA_FOLD_H=1): identical to the CPU's, and timed
    [ $fold_rc -eq 0 ] && mkdir -p "$out/fold" && G16_CUDA_FOLD_H=1 "$root/bench/gpu/prove.sh" "$bin" "$out/fold" 24 \
        2>&1 | sed 's/^/FOLD_H /' >>"$out/prove.txt"
fi

: >"$out/pipeline.txt"
if [ -n "$pipeline" ]; then
    for plg in ${PIPE_LOG:-24}; do
        say "engine on the GPU (bench pipeline, 2^$plg rows)"
        echo "== bench pipeline 2^$plg ==" >>"$out/pipeline.txt"
        timeout "${PIPE_TIMEOUT:-400}" "$bin/g16" bench pipeline --backend cuda --jobs "${PIPE_JOBS:-2}" --partitions 10 \
            --log-n "$plg" --profile porep --pw "${PIPE_PW:-1,2,4,8}" --budget "${PIPE_BUDGET:-32G}" \
            --trace-dir "${TRACE_DIR:-$out}" ${PIPE_EXTRA:-} >>"$out/pipeline.txt" 2>&1
        say "pipeline 2^$plg rc $?"
    done
fi

# Verdict per operation from the diff log ("ntt + h step 2^k: ok", "msm g1 n=...: ok").
verdict() { if grep -q "^$1.*FAIL" "$out/diff.log"; then echo FAIL;
            elif grep -q "^$1.*ok" "$out/diff.log"; then echo pass; else echo "n/a"; fi; }
v_ntt=$(verdict "ntt + h step"); v_g1=$(verdict "msm g1"); v_g2=$(verdict "msm g2")
# Floors (docs/KERNELS.md, measured on our H200): NTT 2^27 ≈ 28 ms (integer bound),
# G1 MSM 2^24 ≈ 70 ms with XYZZ buckets, G2 ≈ 3× G1; scaled ∝ n (NTT ∝ n·log n).
# Peer: sppark on the same H200 (NTT 2^24/26/27: 4.74/23.8/44.4 ms; G1 2^20/22/24/26:
# 22.4/54.0/156/561 ms).  Bars: NTT 2^27 ≤ 40 ms, G1 2^24 ≤ 80 ms, 2^26 ≤ 300 ms.
echo
echo "== g16 CUDA on $(tail -n +2 "$out/device.txt" | head -1 | cut -d, -f1) (diff test: $diff_verdict) =="
printf "%-8s %5s %11s %11s %11s %9s %6s\n" what "log n" "kernel ms" "total ms" "floor ms" "peer ms" diff
awk -v vn="$v_ntt" -v v1="$v_g1" -v v2="$v_g2" '
/^RESULT/ {
    w=$2; lg=$3; k=$4; t=$5; n=2^lg; floor="-"; peer="-"; v="n/a"
    if (w == "h+hmsm") { v = vn }
    else if (w ~ /^ntt/ || w == "h_step") {
        f = 28.0 * (n / 2^27) * (lg / 27.0); if (w == "h_step") f *= 7; floor = sprintf("%.2f", f); v = vn
        if (w == "ntt8_nn") { if (lg == 24) peer = 4.74; if (lg == 26) peer = 23.8; if (lg == 27) peer = 44.4 }
    } else if (w == "msm_g1" || w == "msm_g1f" || w == "msm_g1a") {
        floor = sprintf("%.1f", 70.0 * n / 2^24); v = v1
        if (lg == 20) peer = 22.4; if (lg == 22) peer = 54.0; if (lg == 24) peer = 156; if (lg == 26) peer = 561
    } else if (w ~ /^msm_g2/) { floor = sprintf("%.1f", 210.0 * n / 2^24); v = v2 }
    printf "%-8s %5d %11.2f %11.2f %11s %9s %6s\n", w, lg, k, t, floor, peer, v
}' "$out/bench.log"
echo
grep -E "^(IDENTICAL|PROVE|OVERLAP|FOLD_H|AB)" "$out/prove.txt"
[ -n "$pipeline" ] && cat "$out/pipeline.txt"
[ $diff_rc -eq 0 ] && [ $prove_rc -eq 0 ]
