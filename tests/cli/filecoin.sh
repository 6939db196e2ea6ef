#!/usr/bin/env bash
# `g16 filecoin poseidon|post-check|circuit`: known answers, the real 32 GiB WindowPoSt
# sector proof, corrupted copies of it, and the PoSt circuit counts.
# usage: filecoin.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
. "$2/tests/cli/lib/common.sh"

# poseidon: neptune's poseidon.rs `hash_values` known answers (preimage 0..arity-1),
# written here big-endian; inputs in decimal and in hex give the same digest
run "poseidon 2" 0 "$g16" filecoin poseidon --arity 2 0 1 &&
    has "poseidon 2" "$tmp/out" "^0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff$"
run "poseidon 2 hex" 0 "$g16" filecoin poseidon --arity 2 0x0 0x01 &&
    has "poseidon 2 hex" "$tmp/out" "^0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff$"
run "poseidon 4" 0 "$g16" filecoin poseidon --arity 4 0 1 2 3 &&
    has "poseidon 4" "$tmp/out" "^0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d$"
run "poseidon 8" 0 "$g16" filecoin poseidon --arity 8 0 1 2 3 4 5 6 7 &&
    has "poseidon 8" "$tmp/out" "^0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6$"
run "poseidon 11" 0 "$g16" filecoin poseidon --arity 11 0 1 2 3 4 5 6 7 8 9 10 &&
    has "poseidon 11" "$tmp/out" "^0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163$"
# bad input: not below r, not a number, wrong count, bad arity
r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
run "poseidon x = r" 2 "$g16" filecoin poseidon --arity 2 0 $r && has "x = r message" "$tmp/err" "not below the field modulus"
run "poseidon decimal r" 2 "$g16" filecoin poseidon --arity 2 0 52435875175126190479447740508185965837690552500527637822603658699938581184513 &&
    has "decimal r message" "$tmp/err" "not below the field modulus"
run "poseidon junk" 2 "$g16" filecoin poseidon --arity 2 0 12ab && has "junk message" "$tmp/err" "not a decimal"
run "poseidon too few" 2 "$g16" filecoin poseidon --arity 4 0 1 2
run "poseidon arity 3" 2 "$g16" filecoin poseidon --arity 3 0 1 2
run "poseidon no arity" 2 "$g16" filecoin poseidon 0 1

# post-check: the real 32 GiB WindowPoSt sector proof (Curio testgolden) is valid
fx="$2/tests/filecoin"
vp="$fx/window-post-32g-sector1.vproof"
pub="$fx/window-post-32g-sector1.pub.json"
run "post-check real" 0 "$g16" filecoin post-check "$vp" --pub "$pub" &&
    has "post-check real" "$tmp/out" "^valid: sector 1, 1 sector proof(s), 10 inclusion proofs"
# one changed byte in each field kind: exit 1 (a check failed) or 2 (malformed), never 0
flip() { # flip SRC OFFSET DST: DST = SRC with byte OFFSET xor 0x01
    cp "$1" "$3"
    local o
    o=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((o ^ 1)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}
for off in 0 8 39 40 48 56 60 68 76 300 364 2470 2476 2508 2539 12000 24895 24896 24928 24959; do
    flip "$vp" $off "$tmp/m.vproof"
    "$g16" filecoin post-check "$tmp/m.vproof" --pub "$pub" >"$tmp/out" 2>"$tmp/err"
    code=$?
    { [ $code = 1 ] || [ $code = 2 ]; } && ok || bad "byte $off flipped: exit $code"
done
flip "$vp" 200 "$tmp/m.vproof"
run "sibling changed" 1 "$g16" filecoin post-check "$tmp/m.vproof" --pub "$pub" &&
    has "sibling changed message" "$tmp/out" "^invalid: sector proof 0, inclusion proof 0 (offset 56): the path hashes to 0x"
flip "$vp" 24930 "$tmp/m.vproof"
run "comm_c changed" 1 "$g16" filecoin post-check "$tmp/m.vproof" --pub "$pub" &&
    has "comm_c changed message" "$tmp/out" "Poseidon-2(comm_c, comm_r_last)"
head -c 24000 "$vp" >"$tmp/short.vproof"
run "truncated" 2 "$g16" filecoin post-check "$tmp/short.vproof" --pub "$pub" && has "truncated message" "$tmp/err" "short.vproof: offset [0-9]*: "
{ cat "$vp"; printf x; } >"$tmp/long.vproof"
run "extended" 2 "$g16" filecoin post-check "$tmp/long.vproof" --pub "$pub" && has "extended message" "$tmp/err" "offset 24960"
sed 's/"SectorNumber":1/"SectorNumber":2/' "$pub" >"$tmp/pub2.json"
run "other sector" 1 "$g16" filecoin post-check "$vp" --pub "$tmp/pub2.json"
sed 's/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=/AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=/' "$pub" >"$tmp/pub3.json"
run "other randomness" 1 "$g16" filecoin post-check "$vp" --pub "$tmp/pub3.json" && has "other randomness message" "$tmp/out" "names leaf"
run "missing proof file" 2 "$g16" filecoin post-check "$tmp/none.vproof" --pub "$pub"
run "missing --pub" 2 "$g16" filecoin post-check "$vp"
echo '{' >"$tmp/bad.json"
run "bad json" 2 "$g16" filecoin post-check "$vp" --pub "$tmp/bad.json"

# circuit --count: the counts the Rust library states (filecoin-proofs constants.rs:
# 2349 sectors "gives 125,279,217 constraints", 2300 at 64 GiB 129,887,900) and the
# WinningPoSt 32 GiB 370,590 / 133 inputs
run "count window 32GiB" 0 "$g16" filecoin circuit --kind window --sector-size 32GiB --count &&
    has "window 32GiB constraints" "$tmp/out" "^constraints 125279217$" &&
    has "window 32GiB inputs" "$tmp/out" "^inputs 25840$" && has "window 32GiB aux" "$tmp/out" "^aux [0-9]*$"
run "count window 64GiB" 0 "$g16" filecoin circuit --kind window --sector-size 64GiB --count &&
    has "window 64GiB constraints" "$tmp/out" "^constraints 129887900$"
run "count winning 32GiB" 0 "$g16" filecoin circuit --kind winning --sector-size 32GiB --count &&
    has "winning 32GiB constraints" "$tmp/out" "^constraints 370590$" && has "winning inputs" "$tmp/out" "^inputs 133$"
run "count window 2KiB" 0 "$g16" filecoin circuit --kind window --sector-size 2KiB --count &&
    has "window 2KiB inputs" "$tmp/out" "^inputs 23$"
run "count bad size" 2 "$g16" filecoin circuit --kind window --sector-size 4KiB --count
run "count bad kind" 2 "$g16" filecoin circuit --kind porep --sector-size 32GiB --count
# --vanilla: the real sector's circuit and witness satisfy every row
run "circuit from vanilla" 0 "$g16" filecoin circuit --kind window --sector-size 32GiB --vanilla "$vp" &&
    has "vanilla rows" "$tmp/out" "^constraints 53333$" && has "vanilla satisfied" "$tmp/out" "^satisfied$"
flip "$vp" 200 "$tmp/m.vproof"
run "circuit from changed vanilla" 1 "$g16" filecoin circuit --kind window --sector-size 32GiB --vanilla "$tmp/m.vproof" &&
    has "changed vanilla" "$tmp/out" "^not satisfied: "
# -o: the circuit and witness go to files; TEST-ONLY keys prove and verify them, and the
# public inputs are comm_r (big-endian here) and the ten challenged leaves
run "circuit -o" 0 "$g16" filecoin circuit --kind window --sector-size 32GiB --vanilla "$vp" -o "$tmp/sec.g16c" &&
    [ -s "$tmp/sec.g16c" ] && [ -s "$tmp/sec.g16w" ] && ok || bad "circuit -o: files not written"
run "setup sector" 0 "$g16" setup --circuit "$tmp/sec.g16c" --seed 7 -o "$tmp/sec.params" --vk "$tmp/sec.vk"
run "prove sector" 0 "$g16" prove --params "$tmp/sec.params" --circuit "$tmp/sec.g16c" --witness "$tmp/sec.g16w" \
    -o "$tmp/sec.proof" --inputs-out "$tmp/sec.inputs" --backend cpu
head -1 "$tmp/sec.inputs" | grep -q "^0x6b329f1c186ebcd98b881bf243ed5c8e93c5d4138790455ac973c6e3861069df$" && ok ||
    bad "input 1 is not comm_r"
sed -n 2p "$tmp/sec.inputs" | grep -q "^0x0*2a31e9d7$" && ok || bad "input 2 is not leaf 707914199"
run "verify sector" 0 "$g16" verify --vk "$tmp/sec.vk" --proof "$tmp/sec.proof" --inputs "$tmp/sec.inputs"
sed '2s/7$/8/' "$tmp/sec.inputs" >"$tmp/sec.bad"
run "verify other leaf" 1 "$g16" verify --vk "$tmp/sec.vk" --proof "$tmp/sec.proof" --inputs "$tmp/sec.bad"
run "winning circuit from a window proof" 2 "$g16" filecoin circuit --kind winning --sector-size 32GiB --vanilla "$vp" &&
    has "winning wants 66" "$tmp/err" "WinningPoSt challenges 66"
run "circuit vanilla wrong shape" 2 "$g16" filecoin circuit --kind window --sector-size 64GiB --vanilla "$vp"

finish filecoin.sh
