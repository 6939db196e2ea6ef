#!/usr/bin/env bash
# `g16 ec`: the exact output contract, checked against the @noble/curves vectors.
# usage: ec.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
src=$2
vec=$src/tests/vectors
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect() { # expect NAME WANT_STDOUT WANT_EXIT CMD...
    local name=$1 want=$2 wexit=$3
    shift 3
    local out code
    out=$("$@" 2>/tmp/g16_ec_err.$$)
    code=$?
    if [ "$code" != "$wexit" ]; then bad "$name: exit $code, want $wexit ($(cat /tmp/g16_ec_err.$$))"; return; fi
    if [ -n "$want" ] && [ "$out" != "$want" ]; then bad "$name: got '$out' want '$want'"; return; fi
    ok
}

G1=97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
G2=$(awk '$1=="mul"{print $2; exit}' "$vec/g2.txt")
INF1=c0$(printf '0%.0s' $(seq 1 94))
R=52435875175126190479447740508185965837690552500527637822603658699938581184513

expect "mul g1 1" "$G1" 0 "$g16" ec mul g1 1
expect "mul g1 0x1" "$G1" 0 "$g16" ec mul g1 0x1
expect "mul g1 r+1 reduces" "$G1" 0 "$g16" ec mul g1 52435875175126190479447740508185965837690552500527637822603658699938581184514
expect "mul g1 r is infinity" "$INF1" 0 "$g16" ec mul g1 $R
expect "mul g1 0" "$INF1" 0 "$g16" ec mul g1 0
expect "mul g2 1" "$G2" 0 "$g16" ec mul g2 1
expect "mul bad group" "" 2 "$g16" ec mul g3 1
expect "mul bad scalar" "" 2 "$g16" ec mul g1 12x4
expect "mul missing scalar" "" 2 "$g16" ec mul g1

# Every generator-multiple record of the vectors, through the CLI (scalars are
# 32-byte hex, possibly >= r: the CLI reduces mod r, as the group order does).
for grp in g1 g2; do
    gen=$G1
    [ $grp = g2 ] && gen=$G2
    while read -r op p k r; do
        [ "$op" = mul ] && [ "$p" = "$gen" ] || continue
        expect "mul $grp 0x$k" "$r" 0 "$g16" ec mul $grp 0x$k
    done <"$vec/$grp.txt"
done

# Valid points: every enc record, compressed and uncompressed.
for grp in g1 g2; do
    while read -r op u c; do
        [ "$op" = enc ] || continue
        expect "check $grp compressed" "$grp ok" 0 "$g16" ec check "$c"
        expect "check $grp uncompressed" "$grp ok" 0 "$g16" ec check "$u"
    done <"$vec/$grp.txt"
done

# Invalid encodings: exit 1 and a one-line defect naming the reason.
declare -A words=([length]="wrong length" [flags]="bad flags" [noncanonical]="coordinate not less than the modulus" [not_on_curve]="not on curve" [not_in_subgroup]="not in subgroup" [infinity]="non-canonical infinity")
while read -r grp hex reason; do
    case $grp in g1|g2) ;; *) continue ;; esac
    [ "$hex" = "-" ] && hex=""
    out=$("$g16" ec check "$hex" 2>&1)
    code=$?
    lines=$(printf '%s\n' "$out" | wc -l)
    # A 96-byte encoding is G1 uncompressed when the compression bit is clear and G2
    # compressed when it is set: one meant for the other group is judged as that one,
    # so only its refusal is certain, not its reason.
    judged=$grp
    case ${#hex} in
        96) judged=g1 ;;
        384) judged=g2 ;;
        192) if (( 0x${hex:0:2} & 0x80 )); then judged=g2; else judged=g1; fi ;;
    esac
    if [ "$judged" != "$grp" ]; then
        # Bytes meant for one group that read as the other group's form: they may
        # even be a valid point of that group.  The group-aware decoder test
        # (test_curve_vectors) checks these lines; here only a clean verdict counts.
        if [ $code = 0 ] || [ $code = 1 ]; then ok; else bad "check $grp $reason: exit $code ($out)"; fi
        continue
    fi
    if [ $code != 1 ]; then
        bad "check $grp $reason: exit $code ($out)"
    elif [ "$lines" != 1 ]; then
        bad "check $grp $reason: want one line, got: $out"
    elif [ "$judged" = "$grp" ] && [ "${out#"${words[$reason]}: "}" = "$out" ]; then
        bad "check $grp $reason: line does not start with '${words[$reason]}: ': $out"
    else
        ok
    fi
done <"$vec/invalid.txt"

# Not hex at all: an error (exit 2), not a verdict.
expect "check not hex" "" 2 "$g16" ec check zz
expect "check odd length" "" 2 "$g16" ec check abc

# Pairings: every record of the vectors.
while read -r op p q e; do
    [ "$op" = pair ] || continue
    expect "pairing" "$e" 0 "$g16" ec pairing "$p" "$q"
done <"$vec/pairing.txt"
expect "pairing bad point" "" 2 "$g16" ec pairing "${G1:0:94}00" "$G2"

rm -f /tmp/g16_ec_err.$$
echo "cli ec: $pass passed, $fail failed"
[ $fail = 0 ]
