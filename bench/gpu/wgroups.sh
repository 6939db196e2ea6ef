#!/usr/bin/env bash
# Window groups (docs/cuda.md, "Window groups"; BENCHMARKS "Window groups instead of chunks
# of scalars"): the one device call that checks them and measures them against the chunks.
#
#   HERE:   cmake --build build-cuda -j2 --target g16_cli g16_gpu_bench g16_gpu_diff
#           JOBS=2 bash bench/gpu/multi.sh --pack
#           strip --strip-debug build-cuda/pack/bin/*
#           (cd build-cuda && rm -f pack.tar.xz && tar cJf pack.tar.xz pack)
#   DEVICE: [LIMIT=s] bash bench/gpu/wgroups.sh   (carry: build-cuda/pack.tar.xz; LIMIT = the
#           call's limit_s when under 600)
#
# Either card: g16_gpu_diff --quick (its 4n-pair variants run groups of at least four
# windows and, with the groups off, chunks of whole MSMs; G1 v14 and G2 v11 groups over
# chunks of a third of the scalars), then --g2-only 65536.
# H100 (< 100 GB): g16_gpu_bench --only g1|g2 at 2^27, G16_CUDA_MSM_WGROUP=1 against =0,
# alternated, twice each, then c = 22 against 20 with the groups.  H200: the full
# WindowPoSt 32 GiB partition (post-bench --overlap, 3 proofs with a timing-only key),
# groups on against off (its key does not fit an H100), then the 2^27 PoRep job
# (run.sh --porep32, pw 1) with the groups on if time is left.  Logs under $OUT (default
# /tmp/wgroups-out); a table last.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if [ -f build-cuda/pack.tar.xz ]; then rm -rf build-cuda/pack; tar xJf build-cuda/pack.tar.xz -C build-cuda; fi
[ -x build-cuda/pack/bin/g16_gpu_diff ] || { echo "wgroups.sh: no build-cuda/pack (see the header)" >&2; exit 2; }
export LD_LIBRARY_PATH=$root/build-cuda/pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=$root/build-cuda/pack/bin
O=${OUT:-/tmp/wgroups-out}
# The call's limit in seconds (run's limit_s, less when little device time is left): every
# step below starts only while its worst case still fits, so the table always prints.
L=${LIMIT:-600}
mkdir -p "$O"
mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$O/gpu.txt"
say() { echo "## $(date +%T) t=${SECONDS}s $*"; }
table=()

say "diff --quick"
timeout $((L / 2 < 200 ? L / 2 : 200)) "$B/g16_gpu_diff" --quick > "$O/diff_quick.log" 2>&1
rc=$?; tail -3 "$O/diff_quick.log"; table+=("g16_gpu_diff --quick: rc $rc, $(tail -1 "$O/diff_quick.log")")
say "diff --g2-only 65536"
timeout $((L / 5 < 120 ? L / 5 : 120)) "$B/g16_gpu_diff" --g2-only 65536 > "$O/diff_g2.log" 2>&1
rc=$?; tail -3 "$O/diff_g2.log"; table+=("g16_gpu_diff --g2-only 65536: rc $rc, $(tail -1 "$O/diff_g2.log")")

if [ "$mem" -lt 100000 ]; then
    for g in g1 g2; do for r in 1 2; do for w in 1 0; do
        [ $SECONDS -lt $((L - 120)) ] || break
        say "bench $g 2^27 WGROUP=$w round $r"
        G16_CUDA_MSM_WGROUP=$w timeout 120 "$B/g16_gpu_bench" --only $g --lo 27 --hi 27 --no-hmsm \
            > "$O/bench_${g}_w${w}_r$r.log" 2>&1
        tail -3 "$O/bench_${g}_w${w}_r$r.log"
        table+=("$g 2^27 WGROUP=$w r$r: $(grep -E '^(RESULT|FAILED)' "$O/bench_${g}_w${w}_r$r.log" | tr '\n' ' ')")
    done; done; done
    # With the groups, c = 22 (12 windows, not 13) at 2^27 once more (it lost at 2^26 in
    # session 6: 455 against 426 ms); BENCHMARKS has the prediction.
    for w in 22 20; do
        [ $SECONDS -lt $((L - 100)) ] || break
        say "bench g1 2^27 WGROUP=1 c=$w"
        G16_CUDA_MSM_WGROUP=1 G16_CUDA_MSM_CMIN=$w G16_CUDA_MSM_CMAX=$w timeout 90 "$B/g16_gpu_bench" \
            --only g1 --lo 27 --hi 27 --no-hmsm > "$O/bench_g1_c$w.log" 2>&1
        table+=("g1 2^27 WGROUP=1 c=$w: $(grep -E '^(RESULT|FAILED)' "$O/bench_g1_c$w.log" | tr '\n' ' ')")
    done
else
    for w in 1 0; do
        [ $SECONDS -lt $((L - 270)) ] || break
        say "full WindowPoSt partition, WGROUP=$w"
        G16_CUDA_MSM_WGROUP=$w timeout 250 "$B/g16" filecoin post-bench --kind window --sector-size 32GiB \
            --vanilla tests/filecoin/window-post-32g-sector1.vproof --backend cuda --reps 3 --overlap \
            > "$O/post_w$w.log" 2>&1
        rc=$?; tail -12 "$O/post_w$w.log"
        table+=("partition WGROUP=$w: rc $rc; $(grep -iE 'total|prove' "$O/post_w$w.log" | tail -2 | tr '\n' ' ')")
    done
    # The whole 2^27 PoRep job with the groups on (issue 22; 18.1 s a steady job in the
    # eighth session), when the differential test passed and ≈ 280 s are left.
    if grep -q ' 0 failed' "$O/diff_quick.log" && [ $SECONDS -lt $((L - 300)) ]; then
        say "porep32, pw 1, WGROUP=1"
        mkdir -p "$O/porep32"
        G16_CUDA_MSM_WGROUP=1 G16_GPU_BIN=$B PIPE_PW=1 PIPE_TIMEOUT=$((L - 15 - SECONDS)) OUT=$O/porep32 \
            bash bench/gpu/run.sh --porep32 > "$O/porep32.log" 2>&1
        rc=$?; tail -6 "$O/porep32.log"
        table+=("porep32 pw 1 WGROUP=1: rc $rc (jobs: $O/porep32/porep32.jsonl)")
    fi
fi
say done
printf '%s\n' "${table[@]}"
