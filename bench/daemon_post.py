#!/usr/bin/env python3
"""WinningPoSt 32 GiB through g16d against `g16 filecoin post-prove`, interleaved.

usage: bench/daemon_post.py BUILD_DIR WORK_DIR [RUNS]

Makes (once, in WORK_DIR) a TEST-ONLY WinningPoSt 32 GiB key (`g16 setup` on the cached
matrices, then its .g16k cache) and a synthetic vanilla proof, starts one g16d on loopback with
the key warm, then RUNS times: a post-prove (vanilla proof to verified proof, the key read from
the .g16k) and a daemon job (submit to done, then its proof fetched and checked with
`g16 verify`).  Prints each pair and the medians.  A benchmark, not a test: docs/BENCHMARKS.md.
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "daemon"))
import harness  # noqa: E402

B, W = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 10
G16, G16D = os.path.join(B, "g16"), os.path.join(B, "g16d")
R, P = "cd" * 32, "01" * 32
os.makedirs(W, exist_ok=True)


def sh(*a):
    return subprocess.run(a, check=True, capture_output=True, text=True)


def f(name):
    return os.path.join(W, name)


if not os.path.exists(f("w.g16k")):
    sh(G16, "filecoin", "make-vanilla", "--kind", "winning", "--sector-size", "32GiB", "--sector-id", "4242",
       "--randomness", R, "--seed", "w", "-o", f("w.vp"))
    sh(G16, "filecoin", "circuit", "--kind", "winning", "--sector-size", "32GiB", "-o", f("w.g16c"))
    sh(G16, "setup", "--circuit", f("w.g16c"), "--seed", "8", "-o", f("w.params"), "--vk", f("w.vk"))
    sh(G16, "key", "cache", f("w.params"), "-o", f("w.g16k"))
TOKEN = "bench-token-0123456789abcdef"
with open(f("token"), "w") as t:
    t.write(TOKEN + "\n")
os.chmod(f("token"), 0o600)


class Daemon(harness.Daemon):
    def args(self, config=None):
        return ["--listen", "127.0.0.1:0", "--data-dir", f("data"), "--token-file", f("token"), "--root", W,
                "--key", f"win={f('w.g16k')}"]


d = Daemon(G16D, f("data"), W, TOKEN).start()
cli, dmn = [], []
for i in range(RUNS):
    t0 = time.time()
    sh(G16, "filecoin", "post-prove", "--kind", "winning", "--sector-size", "32GiB", "--params", f("w.g16k"),
       "--vanilla", f("w.vp"), "--randomness", R, "--prover-id", P, "-o", f("cli.proof"), "--backend", "cpu")
    cli.append(time.time() - t0)
    t0 = time.time()
    st, r = d.json("POST", "/v1/jobs", {"key": "win", "post": {"kind": "winning", "sector_size": "32GiB",
                                                              "randomness": R, "vanilla": [f("w.vp")]}})
    st, j = d.wait(r["id"])
    st, data, _ = d.request("GET", f"/v1/jobs/{r['id']}/proof")
    open(f("d.proof"), "wb").write(data)
    with open(f("d.in"), "w") as fi:
        fi.write("\n".join(j["partitions"][0]["inputs"]) + "\n")
    sh(G16, "verify", "--vk", f("w.vk"), "--proof", f("d.proof"), "--inputs", f("d.in"))
    dmn.append(time.time() - t0)
    print(f"run {i}: post-prove {cli[-1]:.3f} s, g16d submit to verified {dmn[-1]:.3f} s "
          f"(engine run {j.get('run_s', 0):.3f} s, state {j['state']})", flush=True)
    d.request("DELETE", f"/v1/jobs/{r['id']}")
d.stop()
print(json.dumps({"runs": RUNS, "post_prove_median_s": statistics.median(cli), "post_prove_min_s": min(cli),
                  "g16d_median_s": statistics.median(dmn), "g16d_min_s": min(dmn),
                  "g16d_under_3s": sum(x <= 3 for x in dmn), "post_prove_under_3s": sum(x <= 3 for x in cli)}))
