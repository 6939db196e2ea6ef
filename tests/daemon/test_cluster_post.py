#!/usr/bin/env python3
"""PoSt jobs in a g16d cluster: two nodes sharing a throwaway PostgreSQL and one folder of inputs.

usage: test_cluster_post.py G16 G16D

A WindowPoSt 2 KiB of five sectors (three partitions, two sectors each, the last padded) and a
WinningPoSt 2 KiB submitted to one node and read from the other: default priorities, every
partition's proof verified with `g16 verify` against the public inputs the cluster stored, which
must equal `g16 filecoin post-prove`'s; each node lays out only the partitions it claimed.  A
vanilla proof that parses but does not check out, a key of another shape and a vanilla proof gone
before its partition ran each end the job failed, naming what was wrong.  Prints 'N passed,
N failed'.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import TEMPS, check, run  # noqa: E402

G16, G16D = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TMP = tempfile.mkdtemp(prefix="g16_clpost_")
TEMPS.append(TMP)
os.chmod(TMP, 0o755)
TOKEN = "clpost-token-0123456789abcdef"
LEASE = 3.0
R = "ab" * 32
P = "01" * 32

PG = harness.start_postgres(TMP)

IN = harness.Inputs(G16, TMP, TOKEN, 12)  # the token, the root and a small key "k"
ROOT = IN.root


def path(name):
    return os.path.join(ROOT, name)


SECTORS = (7, 9, 11, 13, 15)
harness.post_fixtures(G16, ROOT, SECTORS, R)
V5 = [path(f"v{s}.vp") for s in SECTORS]
CLI_IN = path("w2k.cli.inputs")
args = [G16, "filecoin", "post-prove", "--kind", "window", "--sector-size", "2KiB", "--params", path("w2k.params"),
        "--randomness", R, "--prover-id", P, "-o", path("w2k.cli.proofs"), "--inputs-out", CLI_IN,
        "--backend", "cpu"]
for v in V5:
    args += ["--vanilla", v]
run(*args)
# the third sector's proof with one sibling changed: it parses, its path does not hash to comm_r_last
data = bytearray(open(path("v11.vp"), "rb").read())
data[300] ^= 1
open(path("v11bad.vp"), "wb").write(data)
open(path("gone.vp"), "wb").write(open(path("v13.vp"), "rb").read())


def Node(i):
    return harness.ClusterNode(G16D, TMP, TOKEN, IN, PG.url, LEASE, i,
                               keys=[f"w2k={path('w2k.params')}", f"win={path('win.params')}"])


nodes = [Node(i).start() for i in range(2)]


def submit(d, key, kind, vanilla, **top):
    b = {"key": key, "post": {"kind": kind, "sector_size": "2KiB", "randomness": R, "vanilla": vanilla}}
    b.update(top)
    return d.json("POST", "/v1/jobs", b)


def verify(name, d, jid, job, vk):
    return harness.verify_post(G16, d, jid, job, vk, path(name))


# ------------------------------------------------------------------ WindowPoSt: 5 sectors, 3 partitions
st, r = submit(nodes[0], "w2k", "window", V5, request_id="cl-window-1")
check("window: 202 in cluster mode", st == 202, (st, r))
wid = r.get("id")
st, j = nodes[1].wait(wid)
check("window: done, read from the other node", j.get("state") == "done", j)
check("window: kind window-post, default priority high", j.get("kind") == "window-post" and
      j.get("priority") == "high", (j.get("kind"), j.get("priority")))
parts = j.get("partitions", [])
check("window: three partitions, each proved by a node", len(parts) == 3 and
      all(q.get("stage") == "done" and q.get("node") in ("node0", "node1") for q in parts), parts)
print("window partitions proved by", [q.get("node") for q in parts])
check("window: the request is shown with its paths", j.get("post", {}).get("vanilla") == V5 and
      j["post"].get("sector_size") == "2048" and j["post"].get("randomness") == R, j.get("post"))
lines = verify("window", nodes[1], wid, j, path("w2k.vk"))
cli = [x.strip() for x in open(CLI_IN) if x.strip()]
check("window: public inputs equal post-prove's", lines == cli and len(cli) == 66, (len(lines), len(cli)))
check("window: the short partition repeats its last sector", lines[44:55] == lines[55:66])
st, r = submit(nodes[1], "w2k", "window", V5, request_id="cl-window-1")
check("window: same request_id on the other node, same job", st == 200 and r.get("id") == wid and r.get("existing"),
      (st, r))
st, lst = nodes[0].json("GET", "/v1/jobs")
mine = [x for x in lst.get("jobs", []) if x.get("id") == wid]
check("window: listed with its kind", mine and mine[0].get("kind") == "window-post", mine)

# ------------------------------------------------------------------ WinningPoSt
st, r = submit(nodes[1], "win", "winning", [path("win.vp")])
check("winning: 202", st == 202, (st, r))
st, j = nodes[0].wait(r.get("id"))
check("winning: done, critical", j.get("state") == "done" and j.get("priority") == "critical" and
      j.get("kind") == "winning-post", (j.get("state"), j.get("priority"), j.get("error")))
verify("winning", nodes[0], r.get("id"), j, path("win.vk"))

# ------------------------------------------------------------------ a rolling upgrade
st, v = nodes[0].json("GET", "/v1/cluster")
check("every node shows schema 2", st == 200 and [n.get("schema") for n in v.get("nodes", [])] == [2, 2], v)
# a live node of the schema before PoSt jobs would claim a PoSt partition and fail it: refused while it runs
PG.sql("UPDATE g16_nodes SET schema = 1 WHERE name = 'node1'")
st, r = submit(nodes[0], "win", "winning", [path("win.vp")])
check("a PoSt while an older node is live: 503 naming it", st == 503 and
      "node1" in r.get("error", {}).get("message", ""), (st, r))
st, r = nodes[0].submit([(IN.circuit, IN.witness)], prio="normal")
check("other jobs are still taken", st == 202, (st, r))
nodes[0].wait(r.get("id"))
PG.sql("UPDATE g16_nodes SET schema = 2 WHERE name = 'node1'")

# ------------------------------------------------------------------ failures found by the claiming node
bad = V5[:2] + [path("v11bad.vp")] + V5[3:]
st, r = submit(nodes[0], "w2k", "window", bad)
check("a changed sibling parses: 202", st == 202, (st, r))
st, j = nodes[1].wait(r.get("id"))
err = j.get("error", {})
check("a changed sibling: failed, invalid_input, naming vanilla proof 2 and its path",
      j.get("state") == "failed" and err.get("code") == "invalid_input" and "vanilla proof 2" in err.get("message", "")
      and "does not hash to comm_r_last" in err.get("message", ""), j)

st, r = submit(nodes[1], "win", "window", V5[:2])
check("a WindowPoSt against the WinningPoSt key: 202", st == 202, (st, r))
st, j = nodes[0].wait(r.get("id"))
err = j.get("error", {})
check("a key of another shape: failed, naming the inputs", j.get("state") == "failed" and
      err.get("code") == "invalid_input" and "public inputs" in err.get("message", ""), j)

# a vanilla proof gone between submit and its partition's run: the node that claims it says which
# file.  One node, busy with 8 NORMAL partitions (it holds at most 3), so the LOW PoSt is claimed
# only after at least five of them have been proved, long after the file is moved away.
nodes[1].stop()
st, r = nodes[0].submit([(IN.circuit, IN.witness)] * 8, prio="normal")
check("8 normal partitions: 202", st == 202, (st, r))
busy = r.get("id")
st, r = submit(nodes[0], "w2k", "window", V5[:2] + [path("v13.vp")], priority="low")
check("a PoSt whose third file goes away: 202", st == 202, (st, r))
os.rename(path("v13.vp"), path("v13.moved"))
st, j = nodes[0].wait(r.get("id"))
err = j.get("error", {})
check("a vanilla proof gone before its partition ran: failed, naming the file and its index",
      j.get("state") == "failed" and "v13.vp" in err.get("message", "") and
      "post.vanilla[2]" in err.get("message", ""), j)
st, j = nodes[0].wait(busy)
check("the normal job ran first: done", j.get("state") == "done", j.get("state"))
os.rename(path("v13.moved"), path("v13.vp"))
check("node0: SIGTERM exit 0", nodes[0].stop() == 0)
harness.sanitizer_clean(TMP, "node0")
harness.sanitizer_clean(TMP, "node1")
harness.finish()
