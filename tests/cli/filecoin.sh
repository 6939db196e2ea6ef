#!/usr/bin/env bash
# `g16 filecoin poseidon|post-check|circuit|post-prove`: known answers, the real 32 GiB
# WindowPoSt sector proof, corrupted copies of it, the PoSt circuit counts, and PoSt
# proofs with TEST-ONLY keys at 2 KiB, 8 MiB and WinningPoSt 32 GiB.
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

# post-prove (TEST-ONLY keys from g16 setup on the partition's matrices; synthetic
# vanilla proofs: consistent sparse Merkle trees whose paths open the challenged leaves)
R=$(printf 'ab%.0s' {1..32}); P=$(printf '01%.0s' {1..32}); R2=$(printf 'ac%.0s' {1..32})
for s in 7 9 11; do
    run "make-vanilla 2KiB sector $s" 0 "$g16" filecoin make-vanilla --kind window --sector-size 2KiB \
        --sector-id $s --randomness $R --seed "s$s" -o "$tmp/v$s.vp"
done
run "circuit -o 2KiB partition" 0 "$g16" filecoin circuit --kind window --sector-size 2KiB -o "$tmp/w2k.g16c" &&
    has "2KiB partition rows" "$tmp/out" "21866 constraints, 23 inputs"
run "setup 2KiB" 0 "$g16" setup --circuit "$tmp/w2k.g16c" --seed 5 -o "$tmp/w2k.params" --vk "$tmp/w2k.vk"
# three sectors, two a partition: two proofs, the second partition repeats sector 11
run "post-prove window 2KiB" 0 "$g16" filecoin post-prove --kind window --sector-size 2KiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/v7.vp" --vanilla "$tmp/v9.vp" --vanilla "$tmp/v11.vp" --randomness $R --prover-id $P \
    -o "$tmp/w2k.proofs" --inputs-out "$tmp/w2k.inputs" &&
    has "two partitions" "$tmp/out" "^2 partition(s), 3 sector(s): 2 proof(s) verified" &&
    has "window job high" "$tmp/out" "engine job priority high$"
[ "$(stat -c %s "$tmp/w2k.proofs")" = 384 ] && ok || bad "post-prove 2KiB: not 2 x 192 bytes"
[ "$(wc -l <"$tmp/w2k.inputs")" = 44 ] && ok || bad "post-prove 2KiB: not 2 x 22 inputs"
# padding: partition 1 is sector 11 twice (inputs 23..33 = 34..44), partition 0 two sectors
[ "$(sed -n 23,33p "$tmp/w2k.inputs")" = "$(sed -n 34,44p "$tmp/w2k.inputs")" ] && ok || bad "short partition not padded with its last sector"
[ "$(sed -n 1,11p "$tmp/w2k.inputs")" != "$(sed -n 12,22p "$tmp/w2k.inputs")" ] && ok || bad "partition 0 holds one sector twice"
run "verify 2KiB proofs" 0 "$g16" verify --vk "$tmp/w2k.vk" --proof "$tmp/w2k.proofs" --inputs "$tmp/w2k.inputs"
{ sed -n 23,44p "$tmp/w2k.inputs"; sed -n 1,22p "$tmp/w2k.inputs"; } >"$tmp/w2k.swapped"
run "verify 2KiB swapped inputs" 1 "$g16" verify --vk "$tmp/w2k.vk" --proof "$tmp/w2k.proofs" --inputs "$tmp/w2k.swapped"
# a proof for other randomness opens other leaves; a changed byte; a key of another shape
run "post-prove other randomness" 1 "$g16" filecoin post-prove --kind window --sector-size 2KiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/v7.vp" --randomness $R2 --prover-id $P -o "$tmp/x.proofs" &&
    has "other randomness message" "$tmp/out" "the randomness challenges leaf"
flip "$tmp/v7.vp" 300 "$tmp/v7bad.vp"
run "post-prove changed sibling" 1 "$g16" filecoin post-prove --kind window --sector-size 2KiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/v7bad.vp" --randomness $R --prover-id $P -o "$tmp/x.proofs" &&
    has "changed sibling message" "$tmp/out" "does not hash to comm_r_last"
run "post-prove 2KiB proof as 8MiB" 1 "$g16" filecoin post-prove --kind window --sector-size 8MiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/v7.vp" --randomness $R --prover-id $P -o "$tmp/x.proofs" && has "2KiB as 8MiB" "$tmp/out" "^invalid: "
run "post-prove no randomness" 2 "$g16" filecoin post-prove --kind window --sector-size 2KiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/v7.vp" --prover-id $P -o "$tmp/x.proofs"
# 8 MiB: two sectors, one partition
for s in 1 2; do
    run "make-vanilla 8MiB sector $s" 0 "$g16" filecoin make-vanilla --kind window --sector-size 8MiB \
        --sector-id $s --randomness $R --seed "m$s" -o "$tmp/m$s.vp"
done
run "circuit -o 8MiB partition" 0 "$g16" filecoin circuit --kind window --sector-size 8MiB -o "$tmp/w8m.g16c"
run "setup 8MiB" 0 "$g16" setup --circuit "$tmp/w8m.g16c" --seed 6 -o "$tmp/w8m.params" --vk "$tmp/w8m.vk"
run "post-prove window 8MiB" 0 "$g16" filecoin post-prove --kind window --sector-size 8MiB --params "$tmp/w8m.params" \
    --vanilla "$tmp/m1.vp" --vanilla "$tmp/m2.vp" --randomness $R --prover-id $P -o "$tmp/w8m.proofs" \
    --inputs-out "$tmp/w8m.inputs" && has "8MiB one partition" "$tmp/out" "^1 partition(s), 2 sector(s)"
run "verify 8MiB proof" 0 "$g16" verify --vk "$tmp/w8m.vk" --proof "$tmp/w8m.proofs" --inputs "$tmp/w8m.inputs"
run "post-prove 2KiB key for 8MiB" 2 "$g16" filecoin post-prove --kind window --sector-size 8MiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/m1.vp" --randomness $R --prover-id $P -o "$tmp/x.proofs" && has "key mismatch" "$tmp/err" "does not fit the key"
# WinningPoSt 32 GiB on the CPU: 66 one-challenge circuit sectors of one sector
run "make-vanilla winning 32GiB" 0 "$g16" filecoin make-vanilla --kind winning --sector-size 32GiB --sector-id 4242 \
    --randomness $R --seed w -o "$tmp/win.vp"
run "circuit -o winning 32GiB" 0 "$g16" filecoin circuit --kind winning --sector-size 32GiB -o "$tmp/win.g16c" &&
    has "winning partition rows" "$tmp/out" "370590 constraints, 133 inputs"
# the cached shape's matrices are the builder's, byte for byte in the circuit file
run "circuit winning from vanilla" 0 "$g16" filecoin circuit --kind winning --sector-size 32GiB --vanilla "$tmp/win.vp" \
    -o "$tmp/winb.g16c" && has "winning vanilla satisfied" "$tmp/out" "^satisfied$"
cmp -s "$tmp/win.g16c" "$tmp/winb.g16c" && ok || bad "winning: cached matrices differ from the builder's"
run "setup winning" 0 "$g16" setup --circuit "$tmp/win.g16c" --seed 8 -o "$tmp/win.params" --vk "$tmp/win.vk"
run "post-prove winning 32GiB" 0 "$g16" filecoin post-prove --kind winning --sector-size 32GiB --params "$tmp/win.params" \
    --vanilla "$tmp/win.vp" --randomness $R --prover-id $P -o "$tmp/win.proof" --inputs-out "$tmp/win.inputs" --backend cpu &&
    has "winning proved" "$tmp/out" "^1 partition(s), 1 sector(s): 1 proof(s) verified" &&
    has "winning job critical" "$tmp/out" "engine job priority critical$"
[ "$(stat -c %s "$tmp/win.proof")" = 192 ] && ok || bad "winning: not 192 bytes"
run "verify winning" 0 "$g16" verify --vk "$tmp/win.vk" --proof "$tmp/win.proof" --inputs "$tmp/win.inputs"
run "post-prove winning two sectors" 2 "$g16" filecoin post-prove --kind winning --sector-size 32GiB --params "$tmp/win.params" \
    --vanilla "$tmp/win.vp" --vanilla "$tmp/win.vp" --randomness $R --prover-id $P -o "$tmp/x.proof"
# the real sector passes the plan's checks with its own randomness (a full 32 GiB
# WindowPoSt partition does not fit this machine: the 2 KiB key is refused after them)
rnd=$(python3 -c 'import json,base64,sys; print(base64.b64decode(json.load(open(sys.argv[1]))["Randomness"]).hex())' "$pub")
run "post-prove real sector, wrong key" 2 "$g16" filecoin post-prove --kind window --sector-size 32GiB \
    --params "$tmp/w2k.params" --vanilla "$vp" --randomness $rnd --prover-id $P -o "$tmp/x.proofs" &&
    has "real sector checked, key refused" "$tmp/err" "partition has 25839"
run "post-prove real sector, other randomness" 1 "$g16" filecoin post-prove --kind window --sector-size 32GiB \
    --params "$tmp/w2k.params" --vanilla "$vp" --randomness $R --prover-id $P -o "$tmp/x.proofs" &&
    has "real sector other randomness" "$tmp/out" "opens leaf 707914199"

# vanilla proofs in serde_json's form: our script converts the real sector; the result is
# the committed fixture, passes post-check and proves like the bincode; changed fields fail
python3 "$2/tests/filecoin/vproof_to_json.py" "$vp" "$tmp/real.json" &&
    cmp -s "$tmp/real.json" "$fx/window-post-32g-sector1.json" && ok || bad "vproof_to_json.py: not the committed fixture"
run "post-check JSON" 0 "$g16" filecoin post-check "$tmp/real.json" --pub "$pub" && has "JSON valid" "$tmp/out" "^valid: sector 1"
sed 's/"comm_c":\[\([0-9]*\),/"comm_c":[7,/' "$tmp/real.json" >"$tmp/cc.json"
run "post-check JSON changed comm_c" 1 "$g16" filecoin post-check "$tmp/cc.json" --pub "$pub" &&
    has "changed comm_c" "$tmp/out" "Poseidon-2(comm_c, comm_r_last)"
sed 's/"leaf":\[\([0-9]*\),/"leaf":[9,/' "$tmp/real.json" >"$tmp/lf.json"
run "post-check JSON changed leaf" 1 "$g16" filecoin post-check "$tmp/lf.json" --pub "$pub"
sed 's/"sector_id":1,/"sector_id":2,/' "$tmp/real.json" >"$tmp/id.json"
run "post-check JSON other sector" 1 "$g16" filecoin post-check "$tmp/id.json" --pub "$pub"
sed 's/"index":\([0-9]\)}/"index":8}/' "$tmp/real.json" >"$tmp/ix.json"
run "post-check JSON index 8" 2 "$g16" filecoin post-check "$tmp/ix.json" --pub "$pub" &&
    has "JSON index message" "$tmp/err" "index below the arity"
sed 's/"sector_id"/"sectorid"/' "$tmp/real.json" >"$tmp/nm.json"
run "post-check JSON renamed field" 2 "$g16" filecoin post-check "$tmp/nm.json" --pub "$pub" &&
    has "JSON field message" "$tmp/err" 'missing field "sector_id"'
head -c 5000 "$tmp/real.json" >"$tmp/tr.json"
run "post-check JSON truncated" 2 "$g16" filecoin post-check "$tmp/tr.json" --pub "$pub"
python3 "$2/tests/filecoin/vproof_to_json.py" "$tmp/v7.vp" "$tmp/v7.json"
run "post-prove JSON + bincode" 0 "$g16" filecoin post-prove --kind window --sector-size 2KiB --params "$tmp/w2k.params" \
    --vanilla "$tmp/v7.json" --vanilla "$tmp/v9.vp" --randomness $R --prover-id $P -o "$tmp/j.proofs" \
    --inputs-out "$tmp/j.inputs" --priority low && has "priority override" "$tmp/out" "engine job priority low$"
[ "$(cat "$tmp/j.inputs")" = "$(sed -n 1,22p "$tmp/w2k.inputs")" ] && ok || bad "JSON vanilla: other public inputs"
run "circuit from JSON" 0 "$g16" filecoin circuit --kind window --sector-size 32GiB --vanilla "$tmp/real.json" &&
    has "JSON satisfied" "$tmp/out" "^satisfied$"

# post-bench: the real sector repeated to 2 circuit sectors, every row checked (2 x 53,333
# constraints + 1 + 2 x 11 input rows), a proof with a TIMING-ONLY key; a changed leaf makes
# the witness fail its root row (exit 1); a truncated file is an error (exit 2)
run "post-bench 2 sectors" 0 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$vp" \
    --sectors 2 --reps 1 --backend cpu &&
    has "post-bench rows" "$tmp/out" "^check: a·b = c on all 106689 rows" &&
    has "post-bench not valid" "$tmp/out" "TIMING-ONLY key (0 with the synthesis beside the MSMs): NOT valid, not verified"
# --overlap: the second proof synthesizes beside its MSMs (prove_start's abc_wait)
run "post-bench overlap" 0 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$vp" \
    --sectors 1 --reps 2 --backend cpu --overlap &&
    has "post-bench overlapped" "$tmp/out" "^2 proof(s) with a TIMING-ONLY key (1 with the synthesis beside the MSMs)"
run "post-bench JSON" 0 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$tmp/real.json" \
    --sectors 1 --reps 1 --backend cpu --json &&
    has "post-bench JSON" "$tmp/out" '"circuit_sectors":1,"full_sectors":2349,"rows":53345,.*"timing_key":true,"valid":null'
run "post-bench changed leaf" 1 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$tmp/lf.json" \
    --sectors 1 --reps 1 --backend cpu && has "post-bench changed leaf" "$tmp/out" "^not satisfied: post bench: row"
# --witness-only: the witness alone, 3 circuit sectors of 10 paths of 10 levels; on a CPU with
# AVX-512 IFMA all 300 path hashes come from the batched pass, under G16_NO_IFMA none
ifma=0
grep -qw avx512ifma /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo && ifma=300
run "post-bench witness only" 0 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$vp" \
    --sectors 3 --reps 2 --witness-only --json &&
    has "witness only JSON" "$tmp/out" "\"circuit_sectors\":3,\"full_sectors\":2349,\"witness_only\":true,\"distinct_sectors\":0,\"reps\":2,.*\"witness_batched\":$ifma,"
run "post-bench witness scalar" 0 env G16_NO_IFMA=1 "$g16" filecoin post-bench --kind window --sector-size 32GiB \
    --vanilla "$vp" --sectors 3 --reps 1 --witness-only &&
    has "witness scalar" "$tmp/out" "witness only (.* MiB, 0 path hashes batched)"
# --distinct: each circuit sector its own synthetic sector proof (no value repeats across
# sectors, as in a real partition); every row still checks
run "post-bench distinct" 0 "$g16" filecoin post-bench --kind window --sector-size 32GiB --distinct \
    --sectors 2 --reps 1 --backend cpu &&
    has "distinct values" "$tmp/out" "^values: 2 TEST-ONLY synthetic sector proofs" &&
    has "distinct rows" "$tmp/out" "^check: a·b = c on all 106689 rows"
run "post-bench distinct and vanilla" 2 "$g16" filecoin post-bench --kind window --sector-size 32GiB --distinct \
    --vanilla "$vp" --sectors 1
run "post-bench truncated" 2 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$tmp/tr.json" --sectors 1
run "post-bench no kind" 2 "$g16" filecoin post-bench --sector-size 32GiB --vanilla "$vp"
run "post-bench sectors 0" 2 "$g16" filecoin post-bench --kind window --sector-size 32GiB --vanilla "$vp" --sectors 0

# WinningPoSt's sector from the set: the CLI against an independent reading of the rule
# (SHA-256(prover id || masked randomness || 0 u64le), first 8 bytes little-endian, mod N)
for n in 1 7 1000 123456789; do
    want=$(python3 -c "import hashlib,sys; r=bytes.fromhex('$R'); r=r[:31]+bytes([r[31]&0x3f]); h=hashlib.sha256(bytes.fromhex('$P')+r+bytes(8)).digest(); print(int.from_bytes(h[:8],'little')%$n)")
    run "winning-sector of $n" 0 "$g16" filecoin winning-sector --randomness $R --prover-id $P --sector-set-size $n &&
        has "winning-sector of $n" "$tmp/out" "^sector index $want$"
done
run "winning-sector of 0" 2 "$g16" filecoin winning-sector --randomness $R --prover-id $P --sector-set-size 0

finish filecoin.sh
