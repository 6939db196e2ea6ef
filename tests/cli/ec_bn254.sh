#!/usr/bin/env bash
# `g16 ec --curve bn254`: the output contract against the @noble/curves bn254 vectors
# (tests/vectors/bn254, docs/vectors.md).
# usage: ec_bn254.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
src=$2
vec=$src/tests/vectors/bn254
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect() { # expect NAME WANT_STDOUT WANT_EXIT CMD...
    local name=$1 want=$2 wexit=$3
    shift 3
    local out code
    out=$("$@" 2>/tmp/g16_ecbn_err.$$)
    code=$?
    if [ "$code" != "$wexit" ]; then bad "$name: exit $code, want $wexit ($(cat /tmp/g16_ecbn_err.$$))"; return; fi
    if [ -n "$want" ] && [ "$out" != "$want" ]; then bad "$name: got '$out' want '$want'"; return; fi
    ok
}
ec() { "$g16" ec --curve bn254 "$@"; }

z() { printf '0%.0s' $(seq 1 "$1"); }
G1=$(z 63)1$(z 63)2
# EIP-197's generator, x.c1 x.c0 y.c1 y.c0
G2=198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa
R=21888242871839275222246405745257275088548364400416034343698204186575808495617

expect "mul g1 1" "$G1" 0 ec mul g1 1
expect "mul g1 r+1 reduces" "$G1" 0 ec mul g1 21888242871839275222246405745257275088548364400416034343698204186575808495618
expect "mul g1 r is infinity" "$(z 128)" 0 ec mul g1 $R
expect "mul g2 1" "$G2" 0 ec mul g2 1
expect "bn128 alias" "$G1" 0 "$g16" ec --curve bn128 mul g1 1
expect "--curve after the command" "$G1" 0 "$g16" ec mul --curve bn254 g1 1
expect "unknown curve" "" 2 "$g16" ec --curve bls12-377 mul g1 1
expect "mul bad scalar" "" 2 ec mul g1 12x4

# Every generator-multiple record: the uncompressed output must decode to the point
# of the (compressed) vector; `ec check` of both forms says the group.
for grp in g1 g2; do
    gen=$(awk '$1=="enc"{print $3; exit}' "$vec/$grp.txt")
    declare -A unc=()
    while read -r op u c; do [ "$op" = enc ] && unc[$c]=$u; done <"$vec/$grp.txt"
    while read -r op p k r; do
        [ "$op" = mul ] && [ "$p" = "$gen" ] || continue
        out=$(ec mul $grp 0x$k)
        [ $? = 0 ] || { bad "mul $grp 0x$k failed"; continue; }
        if [ -n "${unc[$r]:-}" ]; then
            [ "$out" = "${unc[$r]}" ] && ok || bad "mul $grp 0x$k: $out != ${unc[$r]}"
        fi
        expect "check mul $grp" "$grp ok" 0 ec check "$out"
        expect "check vec $grp" "$grp ok" 0 ec check "$r"
    done <"$vec/$grp.txt"
    while read -r op u c; do
        [ "$op" = enc ] || continue
        expect "check $grp compressed" "$grp ok" 0 ec check "$c"
        expect "check $grp uncompressed" "$grp ok" 0 ec check "$u"
    done <"$vec/$grp.txt"
    unset unc
done

# Invalid encodings: exit 1, one line naming the reason (64-byte inputs are judged as
# G1 uncompressed or G2 compressed by their top bits: only the refusal is certain when
# the line was meant for the other group).
declare -A words=([length]="wrong length" [flags]="bad flags" [noncanonical]="coordinate not less than the modulus" [not_on_curve]="not on curve" [not_in_subgroup]="not in subgroup" [infinity]="non-canonical infinity")
while read -r grp hex reason; do
    case $grp in g1|g2) ;; *) continue ;; esac
    [ "$hex" = "-" ] && hex=""
    out=$(ec check "$hex" 2>&1)
    code=$?
    judged=$grp
    case ${#hex} in
        64) judged=g1 ;;
        256) judged=g2 ;;
        128) if (( 0x${hex:0:2} & 0xc0 )); then judged=g2; else judged=g1; fi ;;
    esac
    if [ "$judged" != "$grp" ]; then
        if [ $code = 0 ] || [ $code = 1 ]; then ok; else bad "check $grp $reason: exit $code ($out)"; fi
        continue
    fi
    if [ $code != 1 ]; then
        bad "check $grp $reason: exit $code ($out)"
    elif [ "${out#"${words[$reason]}: "}" = "$out" ]; then
        bad "check $grp $reason: line does not start with '${words[$reason]}: ': $out"
    else
        ok
    fi
done <"$vec/invalid.txt"

while read -r op p q e; do
    [ "$op" = pair ] || continue
    expect "pairing" "$e" 0 ec pairing "$p" "$q"
done <"$vec/pairing.txt"
expect "pairing bad point" "" 2 ec pairing "${G1:0:126}03" "$G2"

# `g16 bench field|ntt|msm --curve bn254` reach the BN254 compile (names the curve);
# other benchmarks refuse the option.  (Timings are not checked: docs/BENCHMARKS.md.)
out=$("$g16" bench msm --curve bn254 --group g2 --log-n 4 --reps 1 --json 2>&1)
case $out in *'"curve":"bn254"'*'"group":"g2"'*) ok ;; *) bad "bench msm --curve bn254: $out" ;; esac
out=$("$g16" bench ntt --log-n 4 --curve bn128 --reps 1 --json 2>&1)
case $out in *'"curve":"bn254"'*) ok ;; *) bad "bench ntt --curve bn128: $out" ;; esac
expect "bench prove --curve refused" "" 2 "$g16" bench prove --curve bn254

rm -f /tmp/g16_ecbn_err.$$
echo "cli ec bn254: $pass passed, $fail failed"
[ $fail = 0 ]
