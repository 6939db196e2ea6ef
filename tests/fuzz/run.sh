#!/usr/bin/env bash
# Runs the libFuzzer harnesses of a G16_FUZZ build (docs/reliability.md).
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS [JOBS] [HARNESS...]
#   SECONDS > 0: fuzz each harness that long (JOBS at a time, at nice 10), starting
#                from its committed seeds (corpus/<h>) and the inputs it found before
#                (BUILD_DIR/fuzz-work/<h>/corpus, kept between runs);
#   SECONDS = 0: only replay the committed seeds and regression inputs once each.
# Exit status 1 when any harness crashed, leaked, hung or failed its own check; the
# input that did it is under BUILD_DIR/fuzz-work/<h>/artifacts/.  Per harness a line:
# name, executions, coverage (libFuzzer's cov and ft), result.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "$1" && pwd); S=$2; J=${3:-1}; shift 3 2>/dev/null || shift $#
all="g16c g16w params vk proof r1cs wtns zkey snarkjs_json point point_roundtrip field_diff ifma_diff
     keycache vproof vproof_json api"
list=${*:-$all}

# per harness: max input length and dictionary
opts() {
    case $1 in
        g16c) echo "-max_len=16384 -dict=$here/dict/g16c.dict" ;;
        g16w) echo "-max_len=4096 -dict=$here/dict/g16w.dict" ;;
        params|vk) echo "-max_len=8192 -dict=$here/dict/params.dict" ;;
        proof) echo "-max_len=1024 -dict=$here/dict/point.dict" ;;
        r1cs|wtns|zkey) echo "-max_len=32768 -dict=$here/dict/circom.dict" ;;
        snarkjs_json) echo "-max_len=16384 -dict=$here/dict/json.dict" ;;
        point|point_roundtrip) echo "-max_len=256 -dict=$here/dict/point.dict" ;;
        field_diff) echo "-max_len=256" ;;
        ifma_diff) echo "-max_len=2048" ;;
        keycache) echo "-max_len=65536 -dict=$here/dict/keycache.dict" ;;
        vproof) echo "-max_len=32768 -dict=$here/dict/vproof.dict" ;;
        vproof_json) echo "-max_len=32768 -dict=$here/dict/vproof.dict" ;;
        api) echo "-max_len=4096 -dict=$here/dict/api.dict" ;;
    esac
}

one() {
    h=$1
    bin=$B/fuzz/fuzz-$h
    w=$B/fuzz-work/$h
    mkdir -p "$w/corpus" "$w/artifacts"
    seeds=("$here/corpus/$h")
    [ -d "$here/regress/$h" ] && seeds+=("$here/regress/$h")
    common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$w/artifacts/" $(opts "$h"))
    if [ "$S" = 0 ]; then
        # replay: each file once (libFuzzer runs the files it is given when there is no -runs/-max_total_time)
        files=$(find "${seeds[@]}" -type f)
        "$bin" "${common[@]}" $files >"$w/log" 2>&1
    else
        nice -n 10 "$bin" "${common[@]}" -max_total_time="$S" "$w/corpus" "${seeds[@]}" >"$w/log" 2>&1
    fi
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$w/log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$w/log" | tail -1)
    extra=$(grep -m1 -E '^fuzz-[a-z_]+: ' "$w/log")
    if [ $rc = 0 ]; then res=ok; else res="FAILED (rc $rc, log $w/log)"; fi
    printf '%-16s execs %-10s %-22s %s%s\n' "$h" "${execs:-?}" "${cov:-}" "$res" "${extra:+ [$extra]}"
    [ $rc = 0 ]
}
export -f one opts
export B S here
fail=0
printf '%s\n' $list | xargs -P "$J" -I{} bash -c 'one {}' || fail=1
exit $fail
