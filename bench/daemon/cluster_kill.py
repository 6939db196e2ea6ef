#!/usr/bin/env python3
"""g16d cluster under random node kills (issue 24's bar): a throwaway PostgreSQL, 3 nodes,
JOBS jobs of 1-3 partitions of mixed priority; every 1-3 s a random node is kill -9'ed and
started again on the same name, until every job has ended.  Then: 0 lost (every accepted job
done), 0 duplicated (one row a job, each partition stored once), every proof valid; and, for
each kill, how long until the dead node's leases were back in the queue.

usage: cluster_kill.py BUILD_DIR [--jobs N] [--lease S] [--log-n N]
"""
import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "daemon"))
import harness  # noqa: E402
from harness import TEMPS, run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("build")
ap.add_argument("--jobs", type=int, default=100)
ap.add_argument("--lease", type=float, default=10.0)
ap.add_argument("--log-n", type=int, default=13)
a = ap.parse_args()
G16, G16D = os.path.join(a.build, "g16"), os.path.join(a.build, "g16d")
TMP = tempfile.mkdtemp(prefix="g16_ckill_")
TEMPS.append(TMP)
TOKEN = "ckill-token-0123456789abcdef"
PG = harness.Postgres(TMP)
assert PG.start().returncode == 0
IN = harness.Inputs(G16, TMP, TOKEN, a.log_n)
C, W = IN.circuit, IN.witness


def Node(i):
    return harness.ClusterNode(G16D, TMP, TOKEN, IN, PG.url, a.lease, i)


nodes = [Node(i).start() for i in range(3)]
jobs = {}
for k in range(a.jobs):
    st, r = nodes[k % 3].submit([(C, W)] * (1 + k % 3), prio=random.choice(["critical", "high", "normal", "low"]))
    assert st == 202, (st, r)
    jobs[r["id"]] = 1 + k % 3
t0 = time.time()
failover, kills = [], 0
stop = threading.Event()


def leases(of):
    rows = PG.sql(f"SELECT count(*) FROM g16_parts WHERE state = 1 AND owner LIKE 'node{of}#%'")
    return int(rows[0][0]) if rows else -1


def remaining():
    rows = PG.sql("SELECT count(*) FROM g16_jobs WHERE state < 2")
    return int(rows[0][0]) if rows else -1


while remaining() > 0:
    time.sleep(random.uniform(1, 3))
    victim = random.randrange(3)
    held = leases(victim)
    nodes[victim].proc.kill()
    nodes[victim].proc.wait()
    nodes[victim].log.close()
    kills += 1
    tk = time.time()
    if held > 0:  # measure its leases' return (the restart below would give them back at once)
        while leases(victim) > 0 and time.time() - tk < a.lease + 10:
            time.sleep(0.05)
        failover.append(time.time() - tk)
    nodes[victim] = Node(victim).start()
elapsed = time.time() - t0
done = PG.sql("SELECT count(*) FILTER (WHERE state = 2), count(*), count(DISTINCT id) FROM g16_jobs")[0]
parts = PG.sql("SELECT count(*) FILTER (WHERE state = 2 AND proof IS NOT NULL), count(*), max(attempts) "
               "FROM g16_parts")[0]
proofs, n_total = bytearray(), 0
for jid, n in jobs.items():
    st, data, _ = nodes[0].request("GET", f"/v1/jobs/{jid}/proof")
    proofs += data if st == 200 else b""
    n_total += n
ver = IN.verify_all(G16, TMP, proofs, n_total)
for n in nodes:
    n.stop()
lost = a.jobs - int(done[0])
print(f"jobs {a.jobs} ({n_total} partitions of 2^{a.log_n} rows), 3 nodes, lease {a.lease} s, {kills} kill -9 "
      f"in {elapsed:.1f} s")
print(f"lost {lost}, job rows {done[1]} (distinct {done[2]}), partitions stored {parts[0]} of {parts[1]}, "
      f"max attempts {parts[2]}")
if failover:
    print(f"failover (a killed node's leases back in the queue) over {len(failover)} kills that held leases: "
          f"max {max(failover):.2f} s, median {statistics.median(failover):.2f} s (bar: lease + 1 = {a.lease + 1:.1f} s)")
print(f"g16 verify of all {n_total} proofs: {ver.stdout.strip() or ver.stderr.strip()}")
