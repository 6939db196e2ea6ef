#!/usr/bin/env bash
# circom/snarkjs interop on BN254 ("bn128"), both directions, on the committed
# fixtures of tests/interop/fixtures/bn128 (tests/interop/make-fixtures.sh --curve bn128):
#  - snarkjs's proofs pass `g16 snarkjs verify`; g16's proofs from the same .zkey +
#    .wtns pass `snarkjs groth16 verify` and g16's own;
#  - a tampered public input, proof or verifying key fails in BOTH verifiers;
#  - `g16 snarkjs testkey` on a bn128 r1cs: g16 proves with it and snarkjs accepts,
#    snarkjs proves with it and g16 accepts;
#  - files of the two curves mixed are refused, naming both; a bad witness, a
#    truncated key and a key point off the curve are refused with the offset.
# In a build without the BN254 snarkjs prover (G16_BN254_SNARKJS, docs/curve.md) the
# bn128 files must be refused by name; that is all this checks then, and it says so.
# Needs node and node_modules/.bin/snarkjs (scripts/install-deps.sh): fails, never skips.
# usage: snarkjs_bn128.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
src=$2
fx=$src/tests/interop/fixtures/bn128
bls=$src/tests/interop/fixtures
snarkjs=$src/node_modules/.bin/snarkjs
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if ! command -v node >/dev/null 2>&1 || [ ! -x "$snarkjs" ]; then
    echo "FAIL: node or $snarkjs missing: run scripts/install-deps.sh (npm ci)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_exit() {
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    local code=$?
    if [ "$code" = "$want" ]; then ok; else bad "$name: exit $code, want $want: $(head -c 400 "$tmp/out")"; fi
}
# expect_msg NAME REGEX: the last command's output matches
expect_msg() { grep -q -- "$2" "$tmp/out" && ok || bad "$1: message: $(head -c 400 "$tmp/out")"; }
snarkjs_says() { echo "$2 ${1// /_} $3 $4 $5" >> "$tmp/sj_checks"; }
tamper_public() {
    node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
p[0]=(BigInt(p[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}
tamper_proof() {
    node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
p.pi_c=p.pi_a;fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}
# IC[0] replaced by alpha: a valid key for a different statement
tamper_vk() {
    node -e 'const fs=require("fs");const v=JSON.parse(fs.readFileSync(process.argv[1]));
v.IC[0]=v.vk_alpha_1;fs.writeFileSync(process.argv[2],JSON.stringify(v));' "$1" "$2"
}

d=$fx/multiplier
"$g16" snarkjs verify --vk "$d/verification_key.json" --proof "$d/proof.json" --public "$d/public.json" >"$tmp/out" 2>&1
if grep -q "built without the BN254 snarkjs prover" "$tmp/out"; then
    # this build has no BN254 prover: every bn128 command must say so
    expect_exit "verify without BN254" 2 "$g16" snarkjs verify --vk "$d/verification_key.json" --proof "$d/proof.json" --public "$d/public.json"
    expect_msg "verify without BN254" "curve bn128: this g16 was built without the BN254 snarkjs prover"
    expect_exit "prove without BN254" 2 "$g16" prove --zkey "$d/circuit.zkey" --wtns "$d/witness.wtns" --proof "$tmp/p.json" --public "$tmp/q.json"
    expect_msg "prove without BN254" "curve bn128: this g16 was built without"
    expect_exit "testkey without BN254" 2 "$g16" snarkjs testkey --r1cs "$d/circuit.r1cs" --tau 1 --zkey "$tmp/k.zkey" --vk "$tmp/k.json"
    expect_msg "testkey without BN254" "curve bn128: this g16 was built without"
    expect_exit "mix without BN254" 2 "$g16" prove --zkey "$d/circuit.zkey" --wtns "$bls/multiplier/witness.wtns" --proof "$tmp/p.json" --public "$tmp/q.json"
    expect_msg "mix without BN254" "witness.wtns is a bls12381 file but .*circuit.zkey is bn128"
    echo "snarkjs bn128: BN254 snarkjs prover not in this build: only its refusal was checked"
    echo "snarkjs bn128: $pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit
fi

for c in multiplier poseidon range multi; do
    d=$fx/$c
    vk=$d/verification_key.json
    mkdir -p "$tmp/$c"
    # snarkjs -> g16
    expect_exit "$c: g16 verifies snarkjs's proof" 0 "$g16" snarkjs verify --vk "$vk" --proof "$d/proof.json" --public "$d/public.json"
    tamper_public "$d/public.json" "$tmp/$c/pub_bad.json"
    tamper_proof "$d/proof.json" "$tmp/$c/proof_bad.json"
    tamper_vk "$vk" "$tmp/$c/vk_bad.json"
    expect_exit "$c: g16 rejects snarkjs's proof with a tampered input" 1 "$g16" snarkjs verify --vk "$vk" --proof "$d/proof.json" --public "$tmp/$c/pub_bad.json"
    expect_exit "$c: g16 rejects a tampered snarkjs proof" 1 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/proof_bad.json" --public "$d/public.json"
    expect_exit "$c: g16 rejects snarkjs's proof under a tampered vk" 1 "$g16" snarkjs verify --vk "$tmp/$c/vk_bad.json" --proof "$d/proof.json" --public "$d/public.json"
    # g16 -> snarkjs
    expect_exit "$c: g16 proves" 0 "$g16" snarkjs prove --zkey "$d/circuit.zkey" --wtns "$d/witness.wtns" --r1cs "$d/circuit.r1cs" \
        --proof "$tmp/$c/proof.json" --public "$tmp/$c/public.json"
    if cmp -s "$tmp/$c/public.json" "$d/public.json"; then ok; else bad "$c: public.json differs from snarkjs's"; fi
    grep -q '"curve": "bn128"' "$tmp/$c/proof.json" && ok || bad "$c: g16's proof.json does not say bn128"
    snarkjs_says "$c: snarkjs verifies g16's proof" OK "$vk" "$tmp/$c/public.json" "$tmp/$c/proof.json"
    expect_exit "$c: g16 verifies g16's proof" 0 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/proof.json" --public "$tmp/$c/public.json"
    # the same through BN254's CPU ops table (the path --backend cuda takes on a GPU)
    expect_exit "$c: g16 proves through the BN254 cpu backend" 0 "$g16" prove --zkey "$d/circuit.zkey" --wtns "$d/witness.wtns" \
        --backend cpu --time --proof "$tmp/$c/proof_be.json" --public "$tmp/$c/public_be.json"
    expect_msg "$c: the proof names its backend" "g16 prove: backend cpu"
    snarkjs_says "$c: snarkjs verifies g16's proof from the cpu backend" OK "$vk" "$tmp/$c/public_be.json" "$tmp/$c/proof_be.json"
    tamper_public "$tmp/$c/public.json" "$tmp/$c/g16_pub_bad.json"
    tamper_proof "$tmp/$c/proof.json" "$tmp/$c/g16_proof_bad.json"
    snarkjs_says "$c: snarkjs rejects g16's proof with a tampered input" BAD "$vk" "$tmp/$c/g16_pub_bad.json" "$tmp/$c/proof.json"
    snarkjs_says "$c: snarkjs rejects a tampered g16 proof" BAD "$vk" "$tmp/$c/public.json" "$tmp/$c/g16_proof_bad.json"
    snarkjs_says "$c: snarkjs rejects g16's proof under a tampered vk" BAD "$tmp/$c/vk_bad.json" "$tmp/$c/public.json" "$tmp/$c/proof.json"
    snarkjs_says "$c: snarkjs rejects its own proof with a tampered input" BAD "$vk" "$tmp/$c/pub_bad.json" "$d/proof.json"
    expect_exit "$c: g16 rejects g16's proof with a tampered input" 1 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/proof.json" --public "$tmp/$c/g16_pub_bad.json"
    expect_exit "$c: g16 rejects a tampered g16 proof" 1 "$g16" snarkjs verify --vk "$vk" --proof "$tmp/$c/g16_proof_bad.json" --public "$tmp/$c/public.json"
    expect_exit "$c: g16 rejects g16's proof under a tampered vk" 1 "$g16" snarkjs verify --vk "$tmp/$c/vk_bad.json" --proof "$tmp/$c/proof.json" --public "$tmp/$c/public.json"
done

# g16 snarkjs testkey on a bn128 circuit: g16 proves with the key and snarkjs accepts;
# snarkjs proves with the same key (so it reads g16's .zkey) and g16 accepts.
d=$fx/poseidon
expect_exit "testkey (bn128)" 0 "$g16" snarkjs testkey --r1cs "$d/circuit.r1cs" --tau 20260101 --zkey "$tmp/tk.zkey" --vk "$tmp/tk.json"
expect_exit "g16 proves with the bn128 testkey" 0 "$g16" prove --zkey "$tmp/tk.zkey" --wtns "$d/witness.wtns" --proof "$tmp/tk_proof.json" --public "$tmp/tk_public.json"
snarkjs_says "snarkjs verifies g16's proof with the testkey" OK "$tmp/tk.json" "$tmp/tk_public.json" "$tmp/tk_proof.json"
"$snarkjs" groth16 prove "$tmp/tk.zkey" "$d/witness.wtns" "$tmp/tk_sj_proof.json" "$tmp/tk_sj_public.json" >"$tmp/out" 2>&1 \
    && ok || bad "snarkjs cannot prove with g16's bn128 testkey: $(head -c 400 "$tmp/out")"
expect_exit "g16 verifies snarkjs's proof with the testkey" 0 "$g16" verify --vk "$tmp/tk.json" --proof "$tmp/tk_sj_proof.json" --public "$tmp/tk_sj_public.json"
# one check through snarkjs's command line itself
out=$("$snarkjs" groth16 verify "$tmp/tk.json" "$tmp/tk_public.json" "$tmp/tk_proof.json" 2>&1)
case "$out" in *"OK!"*) ok ;; *) bad "snarkjs groth16 verify (CLI) rejects g16's bn128 proof: $out" ;; esac

# Curve mix-ups: refused before any proving, naming both files and curves.
d=$fx/multiplier
expect_exit "bn128 zkey with a bls12381 witness" 2 "$g16" prove --zkey "$d/circuit.zkey" --wtns "$bls/multiplier/witness.wtns" \
    --proof "$tmp/p.json" --public "$tmp/q.json"
expect_msg "bn128 zkey with a bls12381 witness" "multiplier/witness.wtns is a bls12381 file but .*bn128/multiplier/circuit.zkey is bn128"
expect_exit "bls12381 zkey with a bn128 r1cs" 2 "$g16" snarkjs prove --zkey "$bls/multiplier/circuit.zkey" --wtns "$bls/multiplier/witness.wtns" \
    --r1cs "$d/circuit.r1cs" --proof "$tmp/p.json" --public "$tmp/q.json"
expect_msg "bls12381 zkey with a bn128 r1cs" "bn128/multiplier/circuit.r1cs is a bn128 file but"
expect_exit "bls12381 vk with a bn128 proof" 2 "$g16" verify --vk "$bls/multiplier/verification_key.json" --proof "$d/proof.json" \
    --public "$d/public.json"
expect_msg "bls12381 vk with a bn128 proof" "is a bn128 file but .*is bls12381"
# a proof.json without "curve" is read as the vk's curve: a bls12381 proof's
# coordinates are then no bn128 field elements, so it is invalid (as snarkjs says)
node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));delete p.curve;
fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$bls/multiplier/proof.json" "$tmp/nocurve.json"
expect_exit "a bls12381 proof without curve under a bn128 vk" 1 "$g16" verify --vk "$d/verification_key.json" --proof "$tmp/nocurve.json" \
    --public "$d/public.json"
expect_msg "a bls12381 proof without curve under a bn128 vk" "INVALID: .*nocurve.json: pi_a"

# Bad files: an unsatisfied witness names the constraint; a truncated key and a
# key point off the curve are refused with the offset.
cp "$d/witness.wtns" "$tmp/bad.wtns"
printf '\x07' | dd of="$tmp/bad.wtns" bs=1 seek=$((76 + 5 * 32)) conv=notrunc status=none
expect_exit "unsatisfied bn128 witness is refused" 1 "$g16" snarkjs prove --zkey "$d/circuit.zkey" --wtns "$tmp/bad.wtns" \
    --r1cs "$d/circuit.r1cs" --proof "$tmp/p.json" --public "$tmp/q.json"
expect_msg "unsatisfied bn128 witness" "constraint 0 of 2 not satisfied"
head -c 2000 "$d/circuit.zkey" > "$tmp/short.zkey"
expect_exit "truncated bn128 zkey is refused" 2 "$g16" snarkjs prove --zkey "$tmp/short.zkey" --wtns "$d/witness.wtns" \
    --proof "$tmp/p.json" --public "$tmp/q.json"
expect_msg "truncated bn128 zkey" "offset"
# alpha_1's y (header section 2: n8q, q, n8r, r, 3 counts, then alpha_1 = x, y) + 1
python3 - "$d/circuit.zkey" "$tmp/offcurve.zkey" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
pos, n = 12, struct.unpack_from("<I", d, 8)[0]
for _ in range(n):
    sid, size = struct.unpack_from("<IQ", d, pos)
    if sid == 2:
        y = pos + 12 + 4 + 32 + 4 + 32 + 12 + 32
        d[y] ^= 1
    pos += 12 + size
open(sys.argv[2], "wb").write(d)
PY
expect_exit "bn128 zkey with alpha_1 off the curve is refused" 2 "$g16" snarkjs prove --zkey "$tmp/offcurve.zkey" --wtns "$d/witness.wtns" \
    --proof "$tmp/p.json" --public "$tmp/q.json"
expect_msg "bn128 zkey alpha_1 off the curve" "section 2: offset 124: alpha_1 is not a valid point of G1"

# the queued snarkjs verdicts
if out=$(node "$src/tests/interop/snarkjs-verify.mjs" < "$tmp/sj_checks" 2>&1); then ok; else bad "$out"; fi
echo "$out" | tail -1

echo "snarkjs bn128: $pass passed, $fail failed"
[ "$fail" = 0 ]
