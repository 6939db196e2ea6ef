#!/usr/bin/env bash
# Rebuilds the fuzzers' seed corpora (tests/fuzz/corpus/<harness>/) from real files:
# small circuits, witnesses, TEST-ONLY keys and proofs made by the g16 binary given,
# the circom/snarkjs fixtures of tests/interop, and the curve vectors of tests/vectors.
# usage: tests/fuzz/make-corpus.sh G16_BINARY
# Deterministic (fixed seeds), so a rebuild gives the same files.
set -euo pipefail
G=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
C=$here/corpus
fx=$root/tests/interop/fixtures
rm -rf "$C"
for h in g16c g16w params vk proof r1cs wtns zkey snarkjs_json point point_roundtrip field_diff ifma_diff \
         keycache vproof vproof_json api; do
    mkdir -p "$C/$h"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# g16 files: two profiles, 2^4 rows (2^3 for the key), 1 and 3 public inputs.
for spec in "porep 1 4" "dense 3 4" "bits 2 3"; do
    set -- $spec
    n="$1-$2-$3"
    "$G" circuit gen --log-n "$3" --inputs "$2" --profile "$1" --seed 7 -o "$n.g16c" >/dev/null
    cp "$n.g16c" "$C/g16c/"
    cp "$n.g16w" "$C/g16w/"
done
"$G" setup --circuit bits-2-3.g16c --seed fuzz -o k.params --vk k.vk >/dev/null
"$G" prove --params k.params --circuit bits-2-3.g16c --witness bits-2-3.g16w -o p1.bin --seed-rs a >/dev/null
"$G" prove --params k.params --circuit bits-2-3.g16c --witness bits-2-3.g16w -o p2.bin --seed-rs b >/dev/null
cp k.params "$C/params/bits-2-3.params"
cp k.vk "$C/vk/bits-2-3.vk"
cp k.vk "$C/params/vk-only.params"     # a vk alone: the params reader must refuse it cleanly
cp p1.bin "$C/proof/one.bin"
cat p1.bin p2.bin > "$C/proof/two.bin"
# the key cache of that key (about 28 KiB: a page of header, a page per section)
"$G" key cache k.params -o "$C/keycache/bits-2-3.g16k" >/dev/null

# Filecoin vanilla proofs: the 32 GiB-sector window PoSt proof of tests/filecoin (bincode,
# 25 KB) and the same cut to one inclusion proof (bincode and JSON: the whole JSON, 87 KB, is
# over the harness's 32 KiB and would slow every run)
cp "$root/tests/filecoin/window-post-32g-sector1.vproof" "$C/vproof/window-32g.vproof"
python3 - "$root/tests/filecoin/window-post-32g-sector1.json" "$C" <<'PY'
import json, struct, sys
j = json.load(open(sys.argv[1]))
for s in j["vanilla_proof"]["sectors"]:
    s["inclusion_proofs"] = s["inclusion_proofs"][:1]
json.dump(j, open(sys.argv[2] + "/vproof_json/one-proof.json", "w"), separators=(",", ":"))
def fr(v): return bytes(v)
def path(p): return struct.pack("<Q", len(p["path"])) + b"".join(
    struct.pack("<Q", len(e["hashes"])) + b"".join(fr(h) for h in e["hashes"]) + struct.pack("<Q", e["index"])
    for e in p["path"])
def merkle(m):
    (tag, b), = m["data"].items()
    if tag == "Single": return struct.pack("<I", 0) + fr(b["root"]) + fr(b["leaf"]) + path(b["path"])
    out = struct.pack("<I", 1 if tag == "Sub" else 2) + path(b["base_proof"]) + path(b["sub_proof"])
    if tag == "Top": out += path(b["top_proof"])
    return out + fr(b["root"]) + fr(b["leaf"])
out = struct.pack("<Q", j["sector_id"]) + fr(j["comm_r"]) + struct.pack("<Q", len(j["vanilla_proof"]["sectors"]))
for s in j["vanilla_proof"]["sectors"]:
    out += struct.pack("<Q", len(s["inclusion_proofs"])) + b"".join(merkle(m) for m in s["inclusion_proofs"])
    out += fr(s["comm_c"]) + fr(s["comm_r_last"])
open(sys.argv[2] + "/vproof/one-proof.vproof", "wb").write(out)
PY

# g16d request bodies and paths (fuzz_api.c: byte 0 even = a POST /v1/jobs body, odd = a path;
# /tmp/g16-fuzz-api is the harness's own tree)
api() { printf '%s' "$2" > "$C/api/$1"; }
T=/tmp/g16-fuzz-api/root
api body-paths "0{\"key\":\"k\",\"partitions\":[{\"circuit\":\"$T/c.g16c\",\"witness\":\"$T/w.g16w\"}],\"priority\":\"high\",\"request_id\":\"r-1\"}"
api body-two "0{\"key\":\"k\",\"partitions\":[{\"circuit\":\"$T/c.g16c\",\"witness\":\"$T/w.g16w\"},{\"circuit\":\"$T/sub/../c.g16c\",\"witness\":\"$T/out\"}]}"
api body-b64 "0{\"key\":\"k\",\"partitions\":[{\"circuit_b64\":\"ZzE2Yw==\",\"witness\":\"$T/w.g16w\"}]}"
api body-zkey "0{\"key\":\"z\",\"partitions\":[{\"wtns\":\"$T/w.g16w\"},{\"wtns_b64\":\"d3Rucw==\"}],\"priority\":\"low\"}"
api body-bad "0{\"key\":\"k\",\"partitions\":[],\"extra\":1}"
api path-ok "1$T/c.g16c"
api path-dots "1$T/sub/../../outside/f"
api path-link "1$T/out"
api path-loop "1$T/loop"

# circom / snarkjs fixtures (the small ones; max_len in tests/fuzz/run.sh is 32 KiB)
for d in multiplier multi range; do
    cp "$fx/$d/circuit.r1cs" "$C/r1cs/$d.r1cs"
    cp "$fx/$d/witness.wtns" "$C/wtns/$d.wtns"
    for j in proof public verification_key; do cp "$fx/$d/$j.json" "$C/snarkjs_json/$d-$j.json"; done
done
cp "$fx/multiplier/circuit.zkey" "$C/zkey/multiplier.zkey"
cp "$fx/multi/circuit.zkey" "$C/zkey/multi.zkey"

# Points and field elements: raw bytes, written by python.
python3 - "$root/tests/vectors" "$C" k.vk <<'PY'
import sys, os
vec, C, vk = sys.argv[1], sys.argv[2], open(sys.argv[3], 'rb').read()
def put(h, name, b):
    open(os.path.join(C, h, name), 'wb').write(b)
pts = {}
for g in ('g1', 'g2'):
    seen = []
    for line in open(os.path.join(vec, g + '.txt')):
        for w in line.split()[1:]:
            try: b = bytes.fromhex(w)
            except ValueError: continue
            if len(b) in (48, 96, 192) and b not in seen: seen.append(b)
        if len(seen) >= 4: break
    pts[g] = seen[:4]
# bellperson's vk starts alpha_g1, beta_g1 (96 bytes each), beta_g2 (192), all uncompressed
unc = {'g1': [vk[0:96], vk[96:192]], 'g2': [vk[192:384]]}
for g, form_c, form_u in (('g1', 0, 1), ('g2', 2, 3)):
    for i, b in enumerate(pts[g]):
        put('point', f'{g}c{i}', b)
        put('point_roundtrip', f'{g}c{i}', bytes([form_c]) + b)
    for i, b in enumerate(unc[g]):
        put('point', f'{g}u{i}', b)
        put('point_roundtrip', f'{g}u{i}', bytes([form_u]) + b)
n = 0
for line in open(os.path.join(vec, 'invalid.txt')):
    f = line.split()
    if len(f) == 3 and not line.startswith('#') and f[1] != '-':
        put('point', f'invalid{n}-{f[2]}', bytes.fromhex(f[1])); n += 1
p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
def fp(v): return v.to_bytes(48, 'big')
def fr(v): return v.to_bytes(32, 'big')
edge = [(p - 1, p - 2, r - 1, r - 2), (0, 1, 0, 1), (p - 1, 1, r - 1, 1), (2**380 - 1, 2**64 - 1, 2**254 - 1, 2**128),
        (p - 1, p - 1, r - 1, r - 1), (p // 2, p // 2 + 1, r // 2, r // 2 + 1)]
for i, (a, b, x, y) in enumerate(edge):
    put('field_diff', f'edge{i}', fp(a) + fp(b) + fr(x) + fr(y))
for i, k in enumerate((1, 7, 8, 9, 17)):
    rec = b''.join(bytes([j & 3]) + fp((p - 1 - j) % p) + fp((j * 0x1234567 + 1) % p) for j in range(k))
    put('ifma_diff', f'n{k}', rec)
PY
echo "make-corpus: $(find "$C" -type f | wc -l) files, $(du -sh "$C" | cut -f1)"
