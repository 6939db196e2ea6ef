#!/usr/bin/env bash
# Several GPUs in one engine (issue 27).  The device machine has cmake and nvcc but none of
# our -dev libraries, so the binary is built on the dev machine and carried with its
# non-glibc shared libraries:
#
#   bench/gpu/multi.sh --pack        (dev machine) build-cuda/: Release, -DG16_CUDA=ON
#                                    -DG16_CUDA_ARCH=90; build-cuda/pack/{bin/g16,lib/*.so*}
#   bench/gpu/multi.sh --smoke       (GPU machine, carry build-cuda/pack; ≤ 3 min, one GPU is
#                                    enough) the multi-device CUDA path: per-device backends
#                                    made and closed, proofs through them, a device taken out
#                                    (one GPU: GPU 0 listed twice, two contexts on one card)
#   bench/gpu/multi.sh --multi       (GPU machine, carry build-cuda/pack) 1 GPU against 2 in
#                                    the same call, one circuit and key for both: the 10 × 2^27
#                                    job (MULTI_JOBS of them back to back), then the 2^26 sweep
#                                    (pw MULTI_PW26); a table of s/job, speed-up, per-device busy
#                                    share, peak host RSS against the budget.  On one GPU it runs
#                                    degenerately (GPU 0 only).
# Env:   PACK (default build-cuda/pack), OUT (default $OUT or ./multi-out)
#        MULTI_SIZES  sizes --multi runs, in order (default "27 26"; one per call keeps each
#                     call under the device tool's 10 minutes: MULTI_SIZES=27, then 26)
#        MULTI_JOBS (3), MULTI_PW27 (4), MULTI_PW26 (2,4,8), MULTI_BUDGET (200G: the two-H200
#        machine has 256 GiB), MULTI_TIMEOUT (570 s a size), MULTI_SETS (default "0/0,1" with
#        two GPUs or more, "0" with one)
# Exit status: 0 when every step passed (every proof verified).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:---smoke}
pack=${PACK:-$root/build-cuda/pack}
say() { echo "[multi.sh $(date -u +%H:%M:%S)] $*"; }

if [ "$mode" = "--pack" ]; then
    set -e
    bd=$root/build-cuda
    cmake -S "$root" -B "$bd" -DCMAKE_BUILD_TYPE=Release -DG16_CUDA=ON -DG16_CUDA_ARCH=90 >/dev/null
    cmake --build "$bd" -j "${JOBS:-2}" --target g16_cli
    rm -rf "$pack"
    mkdir -p "$pack/bin" "$pack/lib"
    cp "$bd/g16" "$pack/bin/"
    # the kernel benchmark and the differential test too, when built (run.sh with
    # G16_GPU_BIN=PACK/bin runs them)
    for b in g16_gpu_bench g16_gpu_diff g16_gpu_diff_bn254; do [ -x "$bd/$b" ] && cp "$bd/$b" "$pack/bin/"; done
    # glibc's own libraries and the CUDA driver come from the GPU machine; the rest travels.
    ldd "$bd/g16" | awk '/=> \//{print $3}' | while read -r lib; do
        case $(basename "$lib") in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libresolv.so*|libcuda.so*) ;;
        *) cp -L "$lib" "$pack/lib/" ;;
        esac
    done
    du -sh "$pack"
    say "packed $(ls "$pack/lib" | wc -l) libraries; carry build-cuda/pack"
    exit 0
fi

g16bin=(env "LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$pack/bin/g16")
g16() { "${g16bin[@]}" "$@"; }
[ -x "$pack/bin/g16" ] || { say "FAILED: no $pack/bin/g16 (run --pack on the dev machine, carry build-cuda/pack)"; exit 1; }
out=${OUT:-$PWD/multi-out}
mkdir -p "$out"
ngpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | wc -l)
say "GPUs: $ngpu ($(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1)); cores $(nproc); RAM $(free -g | awk '/Mem/{print $2}') GiB"
g16 --version 2>&1 | grep -i cuda

if [ "$mode" = "--smoke" ]; then
    fails=0
    # step NAME WANT_RC CMD...: runs one engine command (60 s at most: a hang is a failure)
    step() {
        local name=$1 want=$2 rc
        shift 2
        timeout 60 "$@" >"$out/smoke-$name.log" 2>&1
        rc=$?
        if { [ "$want" = 0 ] && [ $rc -eq 0 ]; } || { [ "$want" = fail ] && [ $rc -ne 0 ] && [ $rc -ne 124 ]; }; then
            say "ok   $name (rc $rc)"
        else
            say "FAIL $name (rc $rc, wanted $want; 124 = hung)"; fails=$((fails + 1))
            tail -n 15 "$out/smoke-$name.log"
        fi
        grep -E "^job|per device|taken out|last one left" "$out/smoke-$name.log" | head -6 | sed 's/^/     /'
    }
    if [ "$ngpu" -ge 2 ]; then pair=0,1; else pair=0,0; export G16_ENGINE_GPU_REPEAT=1; fi
    run=("${g16bin[@]}" engine run --backend cuda --log-n 16 --profile porep --budget 16G)
    step all-gpus 0 "${run[@]}" --partitions 6 --trace -
    step two-devices 0 env G16_CUDA_DEBUG=1 "${run[@]}" --gpus $pair --partitions 12 --trace "$out/smoke-two.json"
    grep -q "key_upload_all: query 0, .* to 2 GPUs" "$out/smoke-two-devices.log" ||
        { say "FAIL the key did not go to both devices in one upload"; fails=$((fails + 1)); }
    grep "key_upload_all" "$out/smoke-two-devices.log" | head -5 | sed 's/^/     /'
    grep -q '"device":1' "$out/smoke-two.json" 2>/dev/null && grep -q '"device":0' "$out/smoke-two.json" ||
        { say "FAIL the trace has no spans of both devices"; fails=$((fails + 1)); }
    step reroute 0 env G16_ENGINE_DEVICE_FAIL=1:2 "${run[@]}" --gpus $pair --partitions 12 --trace -
    grep -q "partition.* rerouted" "$out/smoke-reroute.log" && grep -q "FAILED" "$out/smoke-reroute.log" ||
        { say "FAIL no device taken out / no partition rerouted"; fails=$((fails + 1)); }
    # both fail: the first is taken out, the last one's error fails job 1, job 2 runs on it
    step all-fail fail env G16_ENGINE_DEVICE_FAIL=0:1,1:1 "${run[@]}" --gpus $pair --partitions 4 --jobs 2 --trace -
    grep -q "the last one left" "$out/smoke-all-fail.log" && grep -q "^job 2: 4 proofs" "$out/smoke-all-fail.log" ||
        { say "FAIL job 1 did not fail with the last device's error, or job 2 did not run"; fails=$((fails + 1)); }
    step pipeline 0 "${g16bin[@]}" bench pipeline --backend cuda --gpu-sets 0/$pair --log-n 14 --jobs 2 --partitions 4 --pw 2 --json
    grep '^{' "$out/smoke-pipeline.log" | python3 -c 'import json, sys
for l in sys.stdin:
    j = json.loads(l)
    print("     gpus %-4s s/proof %.4f verified %s busy %s" % (j["gpus"], j["s_per_proof"], j["verified"],
          " ".join("%.2f" % d["busy"] for d in j["dev"])))'
    say "smoke: $fails failure(s)"
    exit $((fails > 0))
fi

if [ "$mode" = "--multi" ]; then
    sets=${MULTI_SETS:-}
    if [ -z "$sets" ]; then
        if [ "$ngpu" -ge 2 ]; then sets=0/0,1; else sets=0; say "one GPU: degenerate run (GPU 0 only)"; fi
    fi
    rc_all=0
    for n in ${MULTI_SIZES:-27 26}; do
        if [ "$n" = 27 ]; then jobs=${MULTI_JOBS:-3} pw=${MULTI_PW27:-4}; else jobs=2 pw=${MULTI_PW26:-2,4,8}; fi
        say "2^$n: $jobs jobs x 10 partitions, gpu sets $sets, pw $pw, budget ${MULTI_BUDGET:-200G}"
        timeout "${MULTI_TIMEOUT:-570}" "${g16bin[@]}" bench pipeline --backend cuda --gpu-sets "$sets" \
            --jobs "$jobs" --partitions 10 --log-n "$n" --profile porep --pw "$pw" \
            --budget "${MULTI_BUDGET:-200G}" --json --trace-dir "$out" >"$out/multi-$n.jsonl" 2>"$out/multi-$n.err"
        rc=$?
        [ $rc -ne 0 ] && { say "2^$n rc $rc (124 = timeout)"; tail -n 5 "$out/multi-$n.err"; rc_all=1; }
        python3 - "$out/multi-$n.jsonl" <<'EOF' || rc_all=1
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]

def steady(r):
    # seconds a job after the first (the ramp-up: first syntheses, key uploads): the gap
    # between the first and the last job's end, from the trace's finalize/verify spans
    t = os.path.join(os.path.dirname(sys.argv[1]), "pipeline-pw%d-gpus%s.json" % (r["pw"], r["gpus"]))
    try:
        ev = json.load(open(t))["traceEvents"]
    except (OSError, ValueError):
        return 0
    end = {}
    for e in ev:
        if e.get("ph") == "X" and e["name"] in ("finalize", "verify"):
            j = e["args"]["job"]
            end[j] = max(end.get(j, 0), (e["ts"] + e["dur"]) / 1e6)
    ends = sorted(end.values())
    return (ends[-1] - ends[0]) / (len(ends) - 1) if len(ends) > 1 else 0

one = {}
for r in rows:
    r["sj"], r["st"] = r["wall_s"] / r["jobs"], steady(r)
    if r["devices"] == 1:
        one[r["pw"]] = r
print("%-5s %3s %4s %8s %9s %9s %8s %8s %-15s %-14s %s" % ("gpus", "pw", "log", "s/job", "steady", "s/proof",
      "speedup", "steady%", "busy/device", "RSS/budget GiB", "verified"))
bad = 0
for r in rows:
    o = one.get(r["pw"])
    # the speed-up of the steady job time (all jobs' wall time when there is no trace)
    sp = (o["st"] / r["st"] if o["st"] and r["st"] else o["sj"] / r["sj"]) if o else 1.0
    busy = "/".join("%.0f%%" % (100 * d["busy"]) for d in r["dev"])
    rss = "%.1f/%.1f" % ((r["rss_peak_bytes"] - r["rss_proc_bytes"]) / 2**30, r["budget_bytes"] / 2**30)
    print("%-5s %3d %4d %8.2f %9.2f %9.4f %7.2fx %7.1f%% %-15s %-14s %s" % (r["gpus"] or "all", r["pw"],
          r["log_n"], r["sj"], r["st"], r["s_per_proof"], sp, 100 * r["device_busy_steady"], busy, rss,
          r["verified"]))
    bad += not r["verified"] or r["rss_peak_bytes"] - r["rss_proc_bytes"] > r["budget_bytes"]
sys.exit(1 if bad or not rows else 0)
EOF
    done
    say "multi: rc $rc_all (JSON lines and traces in $out)"
    exit $rc_all
fi
echo "usage: bench/gpu/multi.sh --pack | --smoke | --multi" >&2
exit 2
