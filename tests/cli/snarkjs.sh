#!/usr/bin/env bash
# circom/snarkjs interop, both directions, on the committed fixtures
# (tests/interop/fixtures, made by tests/interop/make-fixtures.sh with snarkjs):
#  - snarkjs's proofs pass `g16 snarkjs verify`;
#  - g16's proofs from the same .zkey + .wtns pass `snarkjs groth16 verify` and g16's own;
#  - a tampered public input and a tampered proof fail in BOTH verifiers;
#  - malformed inputs: unsatisfied witness (names the constraint), a bn128 file with bls12381 ones,
#    truncated zkey.
# Needs node and node_modules/.bin/snarkjs (scripts/install-deps.sh): fails, never skips.
# usage: snarkjs.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
src=$2
fx=$src/tests/interop/fixtures
snarkjs=$src/node_modules/.bin/snarkjs
circom=$src/node_modules/.bin/circom2
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if ! command -v node >/dev/null 2>&1 || [ ! -x "$snarkjs" ] || [ ! -x "$circom" ]; then
    echo "FAIL: node, $snarkjs or $circom missing: run scripts/install-deps.sh (npm ci)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_exit NAME WANT CMD...: exit status of CMD must be WANT.
expect_exit() {
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    local code=$?
    if [ "$code" = "$want" ]; then ok; else bad "$name: exit $code, want $want: $(head -c 400 "$tmp/out")"; fi
}
# snarkjs_says NAME OK|BAD VK PUBLIC PROOF: queued, and run at the end in one node
# process (snarkjs-verify.mjs calls the function behind `snarkjs groth16 verify`;
# one real CLI call is made below too).  The files must stay in place until then.
snarkjs_says() {
    echo "$2 ${1// /_} $3 $4 $5" >> "$tmp/sj_checks"
}
# first public signal + 1 (a valid field element, a wrong statement)
tamper_public() {
    node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
p[0]=(BigInt(p[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}
# pi_c replaced by pi_a: valid points, wrong proof
tamper_proof() {
    node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
p.pi_c=p.pi_a;fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}

for c in multiplier poseidon merkle range multi; do
    d=$fx/$c
    vk=$d/verification_key.json
    mkdir -p "$tmp/$c"
    # snarkjs -> g16
    expect_exit "$c: g16 verifies snarkjs's proof" 0 "$g16" snarkjs verify --vk "$vk" --proof "$d/proof.json" --public "$d/public.json"
    tamper_public "$d/public.json" "$tmp/$c/pub_bad.json"
    tamper_proof "$d/proof.json" "$tmp/$c/proof_bad.json"
    expect_exit "$c: g16 rejects snarkjs's proof with a tampered input" 1 "$g16" snarkjs verify --vk "$vk" --proof "$d/proof.json" --public "$tmp/$c/pub_bad.json"
    expect_exit "$c: g16 rejects a tampered snarkjs proof" 1 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/proof_bad.json" --public "$d/public.json"
    # g16 -> snarkjs
    expect_exit "$c: g16 proves" 0 "$g16" snarkjs prove --zkey "$d/circuit.zkey" --wtns "$d/witness.wtns" --r1cs "$d/circuit.r1cs" \
        --proof "$tmp/$c/proof.json" --public "$tmp/$c/public.json"
    if cmp -s "$tmp/$c/public.json" "$d/public.json"; then ok; else bad "$c: public.json differs from snarkjs's"; fi
    snarkjs_says "$c: snarkjs verifies g16's proof" OK "$vk" "$tmp/$c/public.json" "$tmp/$c/proof.json"
    expect_exit "$c: g16 verifies g16's proof" 0 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/proof.json" --public "$tmp/$c/public.json"
    tamper_public "$tmp/$c/public.json" "$tmp/$c/g16_pub_bad.json"
    tamper_proof "$tmp/$c/proof.json" "$tmp/$c/g16_proof_bad.json"
    snarkjs_says "$c: snarkjs rejects g16's proof with a tampered input" BAD "$vk" "$tmp/$c/g16_pub_bad.json" "$tmp/$c/proof.json"
    snarkjs_says "$c: snarkjs rejects a tampered g16 proof" BAD "$vk" "$tmp/$c/public.json" "$tmp/$c/g16_proof_bad.json"
    snarkjs_says "$c: snarkjs rejects its own proof with a tampered input" BAD "$vk" "$tmp/$c/pub_bad.json" "$d/proof.json"
    expect_exit "$c: g16 rejects g16's proof with a tampered input" 1 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/proof.json" --public "$tmp/$c/g16_pub_bad.json"
    expect_exit "$c: g16 rejects a tampered g16 proof" 1 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/g16_proof_bad.json" --public "$tmp/$c/public.json"
done

d=$fx/multiplier
# An unsatisfied witness: wire 5 (a*b) changed.  Values start at byte 76, 32 bytes each.
cp "$d/witness.wtns" "$tmp/bad.wtns"
printf '\x07' | dd of="$tmp/bad.wtns" bs=1 seek=$((76 + 5 * 32)) conv=notrunc status=none
expect_exit "unsatisfied witness is refused" 1 "$g16" snarkjs prove --zkey "$d/circuit.zkey" --wtns "$tmp/bad.wtns" \
    --r1cs "$d/circuit.r1cs" --proof "$tmp/p.json" --public "$tmp/q.json"
grep -q "constraint 0 of 2 not satisfied" "$tmp/out" && ok || bad "unsatisfied: message does not name constraint 0: $(cat "$tmp/out")"
# A bn128 circuit with a bls12381 key is refused by name (tests/cli/snarkjs_bn128.sh
# has the other mix-ups).
"$circom" "$src/tests/interop/circuits/multiplier.circom" --r1cs -o "$tmp" >/dev/null 2>&1 || bad "circom2 failed on multiplier (bn128)"
expect_exit "bn128 r1cs with a bls12381 key is refused" 2 "$g16" snarkjs prove --zkey "$d/circuit.zkey" --wtns "$d/witness.wtns" \
    --r1cs "$tmp/multiplier.r1cs" --proof "$tmp/p.json" --public "$tmp/q.json"
grep -q "multiplier.r1cs is a bn128 file but .*circuit.zkey is bls12381" "$tmp/out" && ok || bad "bn128: message: $(cat "$tmp/out")"
# A truncated zkey: the error names the section table entry and offset.
head -c 3000 "$d/circuit.zkey" > "$tmp/short.zkey"
expect_exit "truncated zkey is refused" 2 "$g16" snarkjs prove --zkey "$tmp/short.zkey" --wtns "$d/witness.wtns" \
    --proof "$tmp/p.json" --public "$tmp/q.json"
grep -q "offset" "$tmp/out" && ok || bad "truncated zkey: message has no offset: $(cat "$tmp/out")"
# A verifying key for another circuit (same public count) does not accept the proof;
# a public count that does not match the key is an error, not a verdict.
expect_exit "wrong verifying key" 1 "$g16" snarkjs verify --vk "$fx/poseidon/verification_key.json" \
    --proof "$fx/merkle/proof.json" --public "$fx/merkle/public.json"
expect_exit "public count mismatch" 2 "$g16" snarkjs verify --vk "$fx/poseidon/verification_key.json" \
    --proof "$fx/range/proof.json" --public "$fx/range/public.json"

# The general commands route snarkjs files here: g16 prove --zkey, g16 verify --vk *.json.
d=$fx/multi
expect_exit "g16 prove --zkey" 0 "$g16" prove --zkey "$d/circuit.zkey" --wtns "$d/witness.wtns" \
    --proof "$tmp/proof.json" --public "$tmp/public.json"
expect_exit "g16 verify --vk verification_key.json" 0 "$g16" verify --vk "$d/verification_key.json" \
    --proof "$tmp/proof.json" --public "$tmp/public.json"
# one check through snarkjs's command line itself
out=$("$snarkjs" groth16 verify "$d/verification_key.json" "$tmp/public.json" "$tmp/proof.json" 2>&1)
case "$out" in *"OK!"*) ok ;; *) bad "snarkjs groth16 verify (CLI) rejects g16 prove --zkey's proof: $out" ;; esac

# the queued snarkjs verdicts
if out=$(node "$src/tests/interop/snarkjs-verify.mjs" < "$tmp/sj_checks" 2>&1); then ok; else bad "$out"; fi
echo "$out" | tail -1

echo "snarkjs interop: $pass passed, $fail failed"
[ "$fail" = 0 ]
