#!/usr/bin/env bash
# The budget counts everything a job makes the process hold (issue 22 point 5), on the
# CPU at 2^16 rows: a job that can never fit is refused at submit with the bytes it
# needs; under a budget that binds (room for two partitions beside the key, circuit and
# witness) the peak RSS sampled during the run, less the process's own baseline (its code
# and libraries, resident before the bench makes anything), stays within the budget, and the
# circuit and witness show in their counters.
# usage: pipeline_budget.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
. "$2/tests/cli/lib/common.sh"

B="bench pipeline --backend cpu --log-n 16 --inputs 4 --json"
run "never fits" 2 "$g16" $B --jobs 1 --partitions 2 --pw 1 --budget 1M
has "refusal gives the bytes" "$tmp/err" "a partition needs [0-9]* bytes: [0-9]* of its own, [0-9]* for its circuit and witness"
need=$(sed -n 's/.*a partition needs \([0-9]*\) bytes: \([0-9]*\) of its own.*/\1/p' "$tmp/err")
own=$(sed -n 's/.*a partition needs \([0-9]*\) bytes: \([0-9]*\) of its own.*/\2/p' "$tmp/err")
if [ -z "$need" ] || [ -z "$own" ]; then
    bad "could not read the refusal's byte counts"
    finish pipeline_budget.sh
    exit 1
fi
budget=$((need + own))
field() { sed -n "s/.*\"$1\":\([0-9.a-z]*\).*/\1/p" "$tmp/out"; }
for pw in 1 3; do
    run "pw $pw under a binding budget" 0 "$g16" $B --jobs 2 --partitions 4 --pw $pw --budget $budget
    has "pw $pw: every proof verified" "$tmp/out" '"verified":true'
    rss=$(field rss_peak_bytes)
    # the process's own code and libraries (resident before anything the bench makes: about
    # 9 MB with libcurl, OpenSSL and libpq linked) hold no job's bytes: the budget bounds the
    # rest, which is what a job makes the process hold
    proc=$(field rss_proc_bytes)
    rss=$(( ${rss:-0} - ${proc:-0} ))
    res=$(field peak_reserved_bytes)
    circ=$(field peak_circuit_bytes)
    wit=$(field peak_witness_bytes)
    key=$(field peak_key_bytes)
    echo "pw $pw: budget $budget, rss peak above the process's baseline ${rss:-?} (baseline ${proc:-?}), reserved peak ${res:-?}, circuit ${circ:-?}, witness ${wit:-?}, key ${key:-?}"
    [ -n "$rss" ] && [ "$rss" -le "$budget" ] && ok || bad "pw $pw: RSS peak $rss above the budget $budget"
    [ -n "$res" ] && [ "$res" -le "$budget" ] && ok || bad "pw $pw: reserved peak $res above the budget $budget"
    # the budget binds: a third partition never fit beside two
    [ -n "$res" ] && [ "$res" -gt $((budget - own)) ] && ok || bad "pw $pw: reserved peak $res: the budget did not bind"
    [ -n "$circ" ] && [ "$circ" -gt 0 ] && [ -n "$wit" ] && [ "$wit" -gt 0 ] && ok ||
        bad "pw $pw: circuit ($circ) and witness ($wit) not charged"
    [ $((key + circ + wit + own)) -eq "$need" ] && ok || bad "pw $pw: key $key + circuit $circ + witness $wit + own $own is not the refusal's $need"
done
finish pipeline_budget.sh
