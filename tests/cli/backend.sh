#!/usr/bin/env bash
# --backend in prove, bench prove, engine run and bench pipeline: cpu works, cuda
# without a GPU (or without CUDA in the build) is a clear error (exit 2), unknown
# names are refused, auto proves; proofs are identical across backends for the
# same deterministic r, s (on a GPU machine cuda and cpu are compared too).
# usage: backend.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
. "$2/tests/cli/lib/common.sh"

gpus=0
if "$g16" --version | grep -q "^backends: cpu, cuda"; then
    gpus=$("$g16" --version | sed -n 's/^cuda devices: \([0-9]*\).*/\1/p')
fi
echo "GPUs visible: ${gpus:-0}"

run gen 0 "$g16" circuit gen --log-n 10 --inputs 2 --seed 5 -o "$tmp/c.g16c"
run setup 0 "$g16" setup --circuit "$tmp/c.g16c" --seed s5 -o "$tmp/k.params" --vk "$tmp/k.vk"
P="--params $tmp/k.params --circuit $tmp/c.g16c --witness $tmp/c.g16w --seed-rs r5"
run "prove cpu" 0 "$g16" prove $P --backend cpu -o "$tmp/p.cpu" --inputs-out "$tmp/in.txt"
run "prove auto" 0 "$g16" prove $P --backend auto -o "$tmp/p.auto"
cmp -s "$tmp/p.cpu" "$tmp/p.auto" && ok || bad "auto and cpu proofs differ"
run "verify auto proof" 0 "$g16" verify --vk "$tmp/k.vk" --proof "$tmp/p.auto" --inputs "$tmp/in.txt"
run "prove bogus backend" 2 "$g16" prove $P --backend gpu -o "$tmp/p.x"
has "bogus backend message" "$tmp/err" "expected cpu, cuda or auto"
[ ! -e "$tmp/p.x" ] && ok || bad "a proof file was written after a backend error"
if [ "${gpus:-0}" -gt 0 ]; then
    run "prove cuda" 0 "$g16" prove $P --backend cuda -o "$tmp/p.cuda"
    cmp -s "$tmp/p.cpu" "$tmp/p.cuda" && ok || bad "cuda and cpu proofs differ"
else
    run "prove cuda without a GPU" 2 "$g16" prove $P --backend cuda -o "$tmp/p.cuda"
    has "cuda without a GPU message" "$tmp/err" "backend cuda"
    run "bench prove cuda without a GPU" 2 "$g16" bench prove --log-n 8 --backend cuda
    run "engine run cuda without a GPU" 2 "$g16" engine run --partitions 2 --log-n 8 --backend cuda --trace -
    has "engine cuda message" "$tmp/err" "backend cuda"
fi
run "bench prove cpu" 0 "$g16" bench prove --log-n 8 --backend cpu --reps 2 --json
has "bench prove names the backend" "$tmp/out" '"backend":"cpu"'
run "bench prove timing key" 0 "$g16" bench prove --log-n 8 --backend cpu --timing-key
has "timing key labelled" "$tmp/out" "TIMING-ONLY"
run "bench pipeline cpu" 0 "$g16" bench pipeline --backend cpu --jobs 1 --partitions 2 --log-n 8 --pw 1 --json
has "pipeline steady busy" "$tmp/out" '"device_busy_steady"'
# a snarkjs zkey of either curve on cuda: a valid proof with a GPU; without one a clear
# error and no proof
for zc in bn128/multiplier bn128/poseidon multiplier; do
    fx=$2/tests/interop/fixtures/$zc
    rm -f "$tmp/p.json"
    if [ "${gpus:-0}" -gt 0 ]; then
        run "zkey prove ($zc) with cuda" 0 "$g16" prove --zkey "$fx/circuit.zkey" --wtns "$fx/witness.wtns" \
            --proof "$tmp/p.json" --public "$tmp/pub.json" --backend cuda
        run "zkey ($zc) cuda proof verifies" 0 "$g16" verify --vk "$fx/verification_key.json" \
            --proof "$tmp/p.json" --public "$tmp/pub.json"
    else
        run "zkey prove ($zc) with cuda and no GPU" 2 "$g16" prove --zkey "$fx/circuit.zkey" --wtns "$fx/witness.wtns" \
            --proof "$tmp/p.json" --public "$tmp/pub.json" --backend cuda
        has "zkey ($zc) cuda message" "$tmp/err" "backend cuda"
        [ ! -e "$tmp/p.json" ] && ok || bad "zkey ($zc) cuda: a proof was written"
    fi
done
run "zkey prove bogus backend" 2 "$g16" prove --zkey "$tmp/x.zkey" --wtns "$tmp/x.wtns" \
    --proof "$tmp/p.json" --public "$tmp/pub.json" --backend gpu
run "engine run cpu" 0 "$g16" engine run --partitions 2 --log-n 8 --backend cpu --trace -
has "engine summary gives the device stage's parts" "$tmp/out" "device stage .* H step"
run "engine run max-ahead" 0 "$g16" engine run --partitions 3 --log-n 8 --pw 2 --max-ahead 1 --trace -
run "engine run max-ahead 0 refused" 2 "$g16" engine run --partitions 2 --log-n 8 --max-ahead 0 --trace -
has "max-ahead message" "$tmp/err" "--max-ahead"
run "bench pipeline device parts" 0 "$g16" bench pipeline --backend cpu --jobs 1 --partitions 2 --log-n 8 --pw 2 --max-ahead 1 --json
has "pipeline reports prove_start's parts" "$tmp/out" '"dev_msm_h"'

finish backend.sh
