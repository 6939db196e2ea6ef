#!/usr/bin/env python3
"""g16d benchmarks (issue 23's bar), on this machine, loopback only:

  overhead  sequential 2^10 jobs: client submit -> done wall time against the engine's own
            submit -> end time of the same job (run_s, measured inside the in-process engine);
            the difference is what the API, the store and the dispatcher add per job.
  get       GET /v1/jobs/{id} requests/s with wrk (2 threads, 16 connections, 10 s) while a
            stream of jobs is being proved.
  kill      N random kill -9 of the daemon under a submitting load, restarted on the same
            data dir each time; then every accepted job must end done exactly once, with a
            proof that verifies.

usage: bench.py BUILD_DIR [--kills N] [--jobs N] [--only overhead|get|kill]
Prints a table; the figures go to docs/BENCHMARKS.md.
"""
import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "daemon"))

ap = argparse.ArgumentParser()
ap.add_argument("build")
ap.add_argument("--kills", type=int, default=20)
ap.add_argument("--jobs", type=int, default=50)
ap.add_argument("--only")
a = ap.parse_args()
G16, G16D = os.path.join(a.build, "g16"), os.path.join(a.build, "g16d")
TMP = tempfile.mkdtemp(prefix="g16_dbench_")
ROOT = os.path.join(TMP, "in")
os.makedirs(ROOT)
TOKEN = "bench-token-0123456789abcdef"
TOKEN_FILE = os.path.join(TMP, "token")
open(TOKEN_FILE, "w").write(TOKEN + "\n")
os.chmod(TOKEN_FILE, 0o600)

import http.client  # noqa: E402


def run(*args):
    subprocess.run(args, check=True, capture_output=True)


C = os.path.join(ROOT, "c.g16c")
W = C[:-5] + ".g16w"
run(G16, "circuit", "gen", "--log-n", "10", "--inputs", "2", "--profile", "porep", "--seed", "1", "-o", C)
KEY, VK = os.path.join(TMP, "k.params"), os.path.join(TMP, "k.vk")
run(G16, "setup", "--circuit", C, "--seed", "1", "-o", KEY, "--vk", VK)
DATA = os.path.join(TMP, "data")


def start():
    addr = os.path.join(DATA, "g16d.addr")
    if os.path.exists(addr):
        os.unlink(addr)
    p = subprocess.Popen([G16D, "--listen", "127.0.0.1:0", "--data-dir", DATA, "--token-file", TOKEN_FILE,
                          "--root", ROOT, "--key", f"k={KEY}", "--pw", "1", "--gw", "1", "--budget", "2G",
                          "--max-queued", "100000"],
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(TMP, "log"), "a"))
    while not os.path.exists(addr):
        time.sleep(0.01)
    host, port = open(addr).read().strip().rsplit(":", 1)
    return p, host, int(port)


class Client:
    def __init__(self, host, port):
        self.c = http.client.HTTPConnection(host, port, timeout=120)

    def req(self, method, path, body=None):
        self.c.request(method, path, body=json.dumps(body) if body else None,
                       headers={"Authorization": f"Bearer {TOKEN}"})
        r = self.c.getresponse()
        return r.status, r.read()

    def submit(self):
        st, b = self.req("POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": C, "witness": W}]})
        return st, json.loads(b) if b else {}


rows = []

if a.only in (None, "overhead"):
    p, host, port = start()
    cl = Client(host, port)
    while cl.req("GET", "/readyz")[0] != 200:
        time.sleep(0.05)
    over, walls, engine = [], [], []
    for i in range(a.jobs + 5):
        t0 = time.perf_counter()
        st, r = cl.submit()
        st, b = cl.req("GET", f"/v1/jobs/{r['id']}?wait=60")
        wall = time.perf_counter() - t0
        j = json.loads(b)
        assert j["state"] == "done", j
        if i >= 5:  # warm-up left out
            walls.append(wall)
            engine.append(j["run_s"])
            over.append(wall - j["run_s"])
    p.send_signal(signal.SIGTERM)
    p.wait()
    rows.append(("API overhead per job (median)", f"{statistics.median(over) * 1e3:.2f} ms",
                 f"wall {statistics.median(walls) * 1e3:.2f} ms vs engine {statistics.median(engine) * 1e3:.2f} ms, "
                 f"p90 overhead {sorted(over)[int(len(over) * 0.9)] * 1e3:.2f} ms, {len(over)} jobs"))

if a.only in (None, "get"):
    p, host, port = start()
    cl = Client(host, port)
    while cl.req("GET", "/readyz")[0] != 200:
        time.sleep(0.05)
    st, r = cl.submit()
    jid = r["id"]
    stop = threading.Event()
    proved = [0]

    def load():
        c2 = Client(host, port)
        while not stop.is_set():
            st, r = c2.submit()
            c2.req("GET", f"/v1/jobs/{r['id']}?wait=60")
            proved[0] += 1

    th = threading.Thread(target=load)
    th.start()
    time.sleep(1)
    out = subprocess.run(["wrk", "-t2", "-c16", "-d10s", "-H", f"Authorization: Bearer {TOKEN}",
                          f"http://{host}:{port}/v1/jobs/{jid}"], capture_output=True, text=True).stdout
    stop.set()
    th.join()
    p.send_signal(signal.SIGTERM)
    p.wait()
    rps = next((ln.split()[1] for ln in out.splitlines() if ln.startswith("Requests/sec")), "?")
    non2xx = next((ln.strip() for ln in out.splitlines() if "Non-2xx" in ln), "0 non-2xx")
    rows.append(("GET /v1/jobs/{id} while proving", f"{rps} req/s",
                 f"wrk -t2 -c16 -d10s; {proved[0]} jobs proved meanwhile; {non2xx}"))

if a.only in (None, "kill"):
    shutil.rmtree(DATA, ignore_errors=True)
    accepted, lock, stop = [], threading.Lock(), threading.Event()
    state = {"port": None, "host": None}
    p, state["host"], state["port"] = start()

    def submitter():
        while not stop.is_set():
            try:
                cl = Client(state["host"], state["port"])
                st, r = cl.submit()
                if st == 202:
                    with lock:
                        accepted.append(r["id"])
            except Exception:
                time.sleep(0.05)  # the daemon is down: retry (a job whose 202 never came is not accepted)

    th = [threading.Thread(target=submitter) for _ in range(2)]
    [t.start() for t in th]
    for k in range(a.kills):
        time.sleep(random.uniform(0.5, 2.0))
        p.send_signal(signal.SIGKILL)
        p.wait()
        p, state["host"], state["port"] = start()
    stop.set()
    [t.join() for t in th]
    cl = Client(state["host"], state["port"])
    lost, bad, done = [], [], 0
    for jid in accepted:
        st, b = cl.req("GET", f"/v1/jobs/{jid}?wait=120")
        j = json.loads(b) if st == 200 else {}
        if st != 200:
            lost.append(jid)
        elif j["state"] != "done":
            bad.append((jid, j["state"]))
        else:
            done += 1
    st, b = cl.req("GET", "/v1/jobs")
    listed = [x["id"] for x in json.loads(b)["jobs"]]
    dup = len(listed) - len(set(listed))
    # every proof verifies (one batch of all of them)
    proofs = bytearray()
    for jid in accepted:
        st, b = cl.req("GET", f"/v1/jobs/{jid}/proof")
        proofs += b
    pf, inf = os.path.join(TMP, "all.bin"), os.path.join(TMP, "all.in")
    open(pf, "wb").write(proofs)
    st, b = cl.req("GET", f"/v1/jobs/{accepted[0]}")
    ins = json.loads(b)["partitions"][0]["inputs"]
    open(inf, "w").write("\n".join(ins * len(accepted)) + "\n")
    ver = subprocess.run([G16, "verify", "--vk", VK, "--proof", pf, "--inputs", inf], capture_output=True, text=True)
    p.send_signal(signal.SIGTERM)
    p.wait()
    rows.append((f"{a.kills} kill -9 under load", f"{len(lost)} lost, {dup} duplicated",
                 f"{len(accepted)} accepted, {done} done, {len(bad)} not done; g16 verify: {ver.stdout.strip() or ver.stderr.strip()}"))

shutil.rmtree(TMP, ignore_errors=True)
w = max(len(r[0]) for r in rows)
for r in rows:
    print(f"{r[0]:<{w}}  {r[1]:>16}  {r[2]}")
