#!/usr/bin/env python3
"""Rewrites a FallbackPoSt sector vanilla proof from the Rust library's bincode form
into the JSON serde_json writes for the same value (compact, serde's field order):
a field element (PoseidonDomain) is the array of its 32 little-endian bytes, the
sector id and path indices are numbers, ProofData is externally tagged.

usage: vproof_to_json.py IN.vproof OUT.json"""
import json
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d, self.o = data, 0

    def take(self, n):
        if self.o + n > len(self.d):
            raise SystemExit(f"truncated at offset {self.o}")
        b = self.d[self.o:self.o + n]
        self.o += n
        return b

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def fr(self):
        return list(self.take(32))


def path(r):
    return {"path": [{"hashes": [r.fr() for _ in range(r.u64())], "index": r.u64()} for _ in range(r.u64())]}


def merkle(r):
    tag = r.u32()
    if tag == 0:
        root, leaf = r.fr(), r.fr()
        return {"data": {"Single": {"root": root, "leaf": leaf, "path": path(r)}}}
    body = {"base_proof": path(r), "sub_proof": path(r)}
    if tag == 2:
        body["top_proof"] = path(r)
    elif tag != 1:
        raise SystemExit(f"unknown merkle proof tag {tag}")
    body["root"], body["leaf"] = r.fr(), r.fr()
    return {"data": {("Sub" if tag == 1 else "Top"): body}}


def main():
    r = Reader(open(sys.argv[1], "rb").read())
    out = {"sector_id": r.u64(), "comm_r": r.fr()}
    sectors = []
    for _ in range(r.u64()):
        incl = [merkle(r) for _ in range(r.u64())]
        sectors.append({"inclusion_proofs": incl, "comm_c": r.fr(), "comm_r_last": r.fr()})
    out["vanilla_proof"] = {"sectors": sectors}
    if r.o != len(r.d):
        raise SystemExit(f"{len(r.d) - r.o} trailing bytes")
    with open(sys.argv[2], "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
