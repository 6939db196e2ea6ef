#!/usr/bin/env bash
# Filecoin PoSt on the H200 (issue 25's bar: a full WindowPoSt 32 GiB partition, 125,279,217
# constraints, <= 4 s including synthesis from the vanilla proofs; synthesis <= 60 core-s).
#
# Two steps, because the device machine has cmake and nvcc but none of the -dev libraries
# (jansson, xxhash, curl...) that the configure needs:
#   HERE:   bash bench/gpu/post.sh pack [G16_BINARY]
#           copies a CUDA build of g16 (default build-cuda/g16: cmake -S . -B build-cuda
#           -DG16_CUDA=ON -DG16_CUDA_ARCH=90 -DCMAKE_BUILD_TYPE=Release; cmake --build
#           build-cuda --target g16_cli) and every shared library it needs except glibc's into
#           build-post/ (git-ignored; carry it);
#   DEVICE: bash bench/gpu/post.sh run [build-post]       (carry: build-post)
#           1. `g16 filecoin post-bench --kind window --sector-size 32GiB --vanilla
#              tests/filecoin/window-post-32g-sector1.vproof --backend cuda --reps 3`: the real
#              sector repeated to the 2349 circuit sectors of a full partition (as a short
#              partition is padded), matrices built once, witness streamed from the vanilla
#              proof, synthesis, a·b = c checked on every row, then 3 proofs with a TIMING-ONLY
#              key of tiled points (2^27 domain; generated in the call, ~60 GB): those proofs
#              are NOT valid and are not verified; proofs after the first with --overlap (the
#              synthesis beside the MSMs over z, as the engine's early device start);
#           2. WinningPoSt 32 GiB on cuda: a TEST-ONLY setup (2^19, seconds on 16 cores), then
#              three `g16 filecoin post-prove --backend cuda` runs, each proof verified, and a
#              fourth with G16_CUDA_EARLY_WAIT=1 (a, b, c sent beside B2, cuda.md), verified;
#           3. the window bench with --backend cpu --sectors 235 (a tenth; CPU prove for
#              comparison), skipped when SKIP_CPU=1 or when 330 s have gone already;
#           4. a short table; the logs under $OUT (default build-post/out).
#           Step 0, first: the full partition's witness alone (`post-bench --witness-only`), with
#           the path hashes batched on AVX-512 IFMA and one at a time (G16_NO_IFMA=1), twice each,
#           then batched over distinct synthetic sectors.  POST_DISTINCT=1: step 1 again with
#           --distinct (a synthetic sector proof per circuit sector, no value repeated).
# Env: POST_TIMEOUT (seconds for step 1, default 360; step 2 gets at most 180), POST_REPS (default 3),
#      POST_SECTORS=N (step 1 on N circuit sectors instead of the full partition: an H100's 80 GB
#      do not hold the full partition's key; the sixth session used 800),
#      SKIP_WINNING=1 (no step 2), SKIP_CPU=1 (no step 3), SKIP_WITNESS=1 (no step 0),
#      POST_WINDOWS="21 22" (step 1c: step 1 again once per window, every MSM at that window).
# Exit status: 0 when step 1 ran and every row checked.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cmd=${1:-}

pack() {
    local bin=${1:-build-cuda/g16} dst=build-post
    [ -x "$bin" ] || { echo "post.sh pack: $bin is not an executable (build it first)" >&2; exit 2; }
    rm -rf "$dst"
    mkdir -p "$dst/lib"
    cp "$bin" "$dst/g16"
    strip --strip-debug "$dst/g16" 2>/dev/null || true
    # every resolved library but glibc's own (the device machine has those)
    ldd "$bin" | awk '/=> \// {print $3}' | while read -r lib; do
        case $(basename "$lib") in
            libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|libresolv.so.*) ;;
            *) cp -L "$lib" "$dst/lib/" ;;
        esac
    done
    du -sh "$dst"
    echo "packed $bin into $dst: carry [\"$dst\"] and run: bash bench/gpu/post.sh run $dst"
}

run() {
    local dir=${1:-build-post}
    local g16=$root/$dir/g16 out=${OUT:-$root/$dir/out}
    export LD_LIBRARY_PATH=$root/$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    mkdir -p "$out"
    local vp=tests/filecoin/window-post-32g-sector1.vproof
    say() { echo "[post.sh $(date -u +%H:%M:%S)] $*"; }
    say "host: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(nvidia-smi -L 2>/dev/null | head -1)"
    "$g16" --version 2>/dev/null | head -1
    say "0. WindowPoSt 32 GiB, full partition, the witness alone: path hashes batched (IFMA) / one at a time"
    local modes="batched scalar batched scalar distinct"
    [ "${SKIP_WITNESS:-0}" = 1 ] && modes="" && say "step 0 skipped (SKIP_WITNESS=1)"
    for mode in $modes; do
        local src=(--vanilla "$vp") ifma_env="G16_NO_IFMA=0"
        [ $mode = scalar ] && ifma_env="G16_NO_IFMA=1"
        [ $mode = distinct ] && src=(--distinct)
        env $ifma_env timeout 60 "$g16" filecoin post-bench --kind window --sector-size 32GiB "${src[@]}" \
            --witness-only --reps 3 2>&1 | sed "s/^/[$mode] /" | tee -a "$out/window-witness.txt"
    done
    say "1. WindowPoSt 32 GiB, full partition, cuda (TIMING-ONLY key: proofs NOT valid, not verified)"
    local t0=$SECONDS rc
    timeout "${POST_TIMEOUT:-360}" "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$vp" \
        --backend cuda --reps "${POST_REPS:-3}" --overlap --progress ${POST_SECTORS:+--sectors "$POST_SECTORS"} \
        >"$out/window-cuda.txt" 2>&1
    rc=$?
    cat "$out/window-cuda.txt"
    say "step 1: rc $rc, $((SECONDS - t0)) s"
    if [ "${POST_DISTINCT:-0}" = 1 ]; then
        say "1b. the same with a synthetic sector proof per circuit sector (--distinct: no repeated values)"
        t0=$SECONDS
        timeout "${POST_TIMEOUT:-360}" "$g16" filecoin post-bench --kind window --sector-size 32GiB --distinct \
            --backend cuda --reps "${POST_REPS:-3}" --overlap --progress ${POST_SECTORS:+--sectors "$POST_SECTORS"} \
            >"$out/window-cuda-distinct.txt" 2>&1
        local rcd=$?
        cat "$out/window-cuda-distinct.txt"
        say "step 1b: rc $rcd, $((SECONDS - t0)) s"
    fi
    for c in ${POST_WINDOWS:-}; do
        say "1c. the same (one sector repeated) with every MSM at window $c (G16_CUDA_MSM_CMIN = CMAX = $c)"
        t0=$SECONDS
        G16_CUDA_MSM_CMIN=$c G16_CUDA_MSM_CMAX=$c timeout "${POST_TIMEOUT:-360}" "$g16" filecoin post-bench \
            --kind window --sector-size 32GiB --vanilla "$vp" --backend cuda --reps "${POST_REPS:-3}" --overlap \
            ${POST_SECTORS:+--sectors "$POST_SECTORS"} >"$out/window-cuda-c$c.txt" 2>&1
        say "step 1c, window $c: rc $?, $((SECONDS - t0)) s"
    done
    local w=$out/win R=cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd
    local P=0101010101010101010101010101010101010101010101010101010101010101
    mkdir -p "$w"
    if [ "${SKIP_WINNING:-0}" = 1 ]; then
        say "2. WinningPoSt skipped (SKIP_WINNING=1)"
    elif say "2. WinningPoSt 32 GiB on cuda, a real TEST-ONLY key (setup here), verified proofs" &&
        timeout 90 bash -c "'$g16' filecoin make-vanilla --kind winning --sector-size 32GiB --sector-id 4242 \
            --randomness $R --seed w -o '$w/win.vp' && '$g16' filecoin circuit --kind winning --sector-size 32GiB \
            -o '$w/win.g16c' && '$g16' setup --circuit '$w/win.g16c' --seed 8 -o '$w/win.params' --vk '$w/win.vk' &&
            '$g16' key cache '$w/win.params' -o '$w/win.g16k'" >"$out/winning-setup.txt" 2>&1; then
        for rep in 1 2 3 early; do
            # the last one through prove_early's prefetch beside B2 (G16_CUDA_EARLY_WAIT), verified
            local ew=(); [ $rep = early ] && ew=(G16_CUDA_EARLY_WAIT=1 G16_CUDA_DEBUG=1)
            env "${ew[@]}" timeout 40 "$g16" filecoin post-prove --kind winning \
                --sector-size 32GiB --params "$w/win.g16k" --vanilla "$w/win.vp" --randomness $R --prover-id $P \
                -o "$w/win.proof" --backend cuda 2>&1 | grep -E "^times|verified|error|g16 filecoin|beside B2"
        done
    else
        echo "winning setup failed:"; tail -3 "$out/winning-setup.txt"
    fi
    rm -f "$w"/win.params "$w"/win.g16k "$w"/win.g16c
    # step 3 only while the call has time left (one device call is 10 minutes)
    if [ "${SKIP_CPU:-0}" != 1 ] && [ $SECONDS -lt 330 ]; then
        say "3. WindowPoSt 32 GiB, 235 circuit sectors (a tenth), cpu, 16 threads"
        timeout 180 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$vp" \
            --backend cpu --reps 1 --sectors 235 >"$out/window-cpu-235.txt" 2>&1
        cat "$out/window-cpu-235.txt"
    fi
    say "4. table (bar: full partition <= 4 s incl. synthesis; synthesis <= 60 core-s)"
    [ -f "$out/window-witness.txt" ] && grep -E '^\[(batched|scalar|distinct)\] best' "$out/window-witness.txt"
    grep -E '^(once|check|first|best|  )' "$out/window-cuda.txt"
    [ -f "$out/window-cuda-distinct.txt" ] && echo "--distinct:" &&
        grep -E '^(values|once|check|first|best|  )' "$out/window-cuda-distinct.txt"
    for c in ${POST_WINDOWS:-}; do
        echo "window $c:"; grep -E '^(first|best|  )' "$out/window-cuda-c$c.txt"
    done
    return $rc
}

case $cmd in
    pack) shift; pack "$@" ;;
    run) shift; run "$@" ;;
    *) echo "usage: bench/gpu/post.sh pack [G16_BINARY] | run [DIR]" >&2; exit 2 ;;
esac
