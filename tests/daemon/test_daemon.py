#!/usr/bin/env python3
"""g16d end to end: the daemon on a random loopback port in a temp data dir.

usage: test_daemon.py G16 G16D SOURCE_DIR

Submits by HTTP and by `g16 remote`, verifies every proof with `g16 verify`, checks priorities,
cancel, idempotency, the bad-request table (each answer's status and that the daemon keeps
serving), kill -9 and restart (the job ends once, valid), 200 concurrent submissions with
bounded memory, SIGTERM, the config file and the unix socket.  Prints 'N passed, N failed'.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import TEMPS, check, run  # noqa: E402
import threading
import time

G16, G16D = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None  # the source tree: snarkjs fixtures
TMP = tempfile.mkdtemp(prefix="g16_daemon_")
ROOT = os.path.join(TMP, "in")
TOKEN = "test-token-0123456789abcdef"
TOKEN_FILE = os.path.join(TMP, "token")
TEMPS.append(TMP)


class Daemon(harness.Daemon):
    """A g16d of this test: its data dir, the token, ROOT, the keys named."""

    def __init__(self, data, extra=(), keys=("k",)):
        super().__init__(G16D, data, TMP, TOKEN)
        self.extra, self.keys = list(extra), keys

    def args(self, config=None):
        if config:
            return ["--config", config] + self.extra
        a = ["--listen", "127.0.0.1:0", "--data-dir", self.data, "--token-file", TOKEN_FILE, "--root", ROOT,
             "--pw", "1", "--gw", "1", "--budget", "2G"]
        for k in self.keys:
            a += ["--key", f"{k}={KEYS[k]}"]
        return a + self.extra


def verify(name, d, jid, job, vk=None):
    """Fetches the job's proofs and checks each with `g16 verify` against its inputs."""
    st, data, hdr = d.request("GET", f"/v1/jobs/{jid}/proof")
    check(f"{name}: proof 200", st == 200, f"{st} {data[:200]}")
    check(f"{name}: proof type", hdr.get("Content-Type") == "application/octet-stream", str(hdr))
    n = len(job["partitions"])
    check(f"{name}: proof bytes", len(data) == 192 * n, f"{len(data)} for {n}")
    pf, inf = os.path.join(TMP, "p.bin"), os.path.join(TMP, "p.in")
    open(pf, "wb").write(data)
    with open(inf, "w") as f:
        for p in job["partitions"]:
            f.write("\n".join(p["inputs"]) + "\n")
    p = run(G16, "verify", "--vk", vk or VK, "--proof", pf, "--inputs", inf, check_rc=False)
    check(f"{name}: g16 verify", p.returncode == 0, p.stderr + p.stdout)


def gen(name, log_n, seed, inputs=2):
    c = os.path.join(ROOT, f"{name}.g16c")
    run(G16, "circuit", "gen", "--log-n", str(log_n), "--inputs", str(inputs), "--profile", "porep",
        "--seed", str(seed), "-o", c)
    return c, c[:-5] + ".g16w"


# ------------------------------------------------------------------ fixtures
os.makedirs(ROOT)
with open(TOKEN_FILE, "w") as f:
    f.write(TOKEN + "\n")
os.chmod(TOKEN_FILE, 0o600)
small = gen("small", 10, 7)
big = gen("big", 13, 8)          # the same circuit shape at 2^13: a slower partition
other = gen("other", 11, 9)      # a circuit the key does not fit
KEY = os.path.join(TMP, "k.params")
VK = os.path.join(TMP, "k.vk")
run(G16, "setup", "--circuit", small[0], "--seed", "7", "-o", KEY, "--vk", VK)
KEY_BIG = os.path.join(TMP, "kb.params")
VK_BIG = os.path.join(TMP, "kb.vk")
run(G16, "setup", "--circuit", big[0], "--seed", "8", "-o", KEY_BIG, "--vk", VK_BIG)
KEYS = {"k": KEY, "kb": KEY_BIG}
outside = os.path.join(TMP, "outside.g16w")
shutil.copy(small[1], outside)
os.symlink(outside, os.path.join(ROOT, "link.g16w"))
os.symlink(TMP, os.path.join(ROOT, "up"))

data = os.path.join(TMP, "data")
d = Daemon(data, keys=("k", "kb")).start()

# ------------------------------------------------------------------ auth, health
st, _, _ = d.request("GET", "/healthz", token=None)
check("healthz without a token", st == 200, st)
for path in ("/v1/status", "/metrics", "/readyz", "/v1/jobs"):
    st, _, hdr = d.request("GET", path, token=None)
    check(f"{path} without a token: 401", st == 401 and "Bearer" in hdr.get("WWW-Authenticate", ""), st)
    st, _, _ = d.request("GET", path, token=TOKEN + "x")
    check(f"{path} wrong token: 401", st == 401, st)
st, s = d.json("GET", "/v1/status")
check("status", st == 200 and {k["name"]: k["tier"] for k in s["keys"]} == {"k": "warm", "kb": "warm"}, s)

# ------------------------------------------------------------------ submit by HTTP, verify
st, r = d.submit([small, small], prio="high", request_id="req-1")
check("submit 202", st == 202 and r["state"] == "queued" and len(r["id"]) == 32, (st, r))
jid = r["id"]
st, j = d.wait(jid)
check("job done", st == 200 and j["state"] == "done", j)
check("per-partition stage", all(p["stage"] == "done" and p["seconds"]["synthesis"] > 0
                                 for p in j["partitions"]), j["partitions"])
verify("http job", d, jid, j)
st, r2 = d.submit([small, small], prio="high", request_id="req-1")
check("same request_id: same job", st == 200 and r2["id"] == jid and r2["existing"] and r2["state"] == "done",
      (st, r2))
st, lst = d.json("GET", "/v1/jobs?state=done")
check("list by state", st == 200 and jid in [x["id"] for x in lst["jobs"]], lst)

# ------------------------------------------------------------------ the client
url = "http://" + d.addr
p = run(G16, "remote", "submit", "--url", url, "--token-file", TOKEN_FILE, "--key", "k",
        "--part", f"{small[0]}:{small[1]}", "--priority", "low", check_rc=False)
cid = p.stdout.strip()
check("remote submit", p.returncode == 0 and len(cid) == 32, p.stderr)
p = run(G16, "remote", "wait", cid, "--url", url, "--token-file", TOKEN_FILE, check_rc=False)
check("remote wait", p.returncode == 0 and '"done"' in p.stdout, p.stderr + p.stdout)
pf = os.path.join(TMP, "remote.bin")
p = run(G16, "remote", "proof", cid, "-o", pf, "--url", url, "--token-file", TOKEN_FILE, check_rc=False)
p2 = run(G16, "verify", "--vk", VK, "--proof", pf, "--inputs", small[1], check_rc=False)
check("remote proof verifies", p.returncode == 0 and p2.returncode == 0, p.stderr + p2.stderr)
p = run(G16, "remote", "metrics", "--url", url, "--token-file", TOKEN_FILE, check_rc=False)
check("remote metrics", p.returncode == 0 and 'g16_jobs_finished_total{outcome="done"} 2' in p.stdout, p.stdout[:300])
p = run(G16, "remote", "status", "0" * 32, "--url", url, "--token-file", TOKEN_FILE, check_rc=False)
check("remote status of an unknown job: exit 2", p.returncode == 2 and "404" in p.stderr, p.stderr)

# ------------------------------------------------------------------ priorities
lows = [d.submit([big, big], prio="low", key="kb")[1]["id"] for _ in range(6)]
# the critical job comes as soon as the first low one runs, and is judged by the low jobs that
# still waited then (a fixed sleep let a fast machine finish most of them before it came)
t0 = time.time()
while time.time() - t0 < 30:
    waiting = [x for x in lows if d.json("GET", f"/v1/jobs/{x}")[1].get("state") == "queued"]
    if len(waiting) < len(lows):
        break
    time.sleep(0.01)
st, r = d.submit([big], prio="critical", key="kb")
crit = r["id"]
check("low jobs still waiting when the critical one came", len(waiting) >= 2, waiting)
st, cj = d.wait(crit)
jl = {x: d.wait(x)[1] for x in lows}
overtaken = [x for x in waiting if jl[x]["finished"] > cj["finished"]]
early = [x for x in lows if jl[x]["started"] > cj["created"] and jl[x]["finished"] < cj["finished"]]
check("critical ends before low jobs queued earlier", cj["state"] == "done" and overtaken and not early,
      (len(waiting), len(overtaken), early, cj["state"]))
print(f"critical job: {len(waiting)} of the 6 low jobs waited when it came, {len(overtaken)} of them ended after it")
st, m, _ = d.request("GET", "/metrics")
check("queue depth metric", b'g16_queue_depth{priority="low"} 0' in m, m[:200])

# ------------------------------------------------------------------ cancel
st, r = d.submit([big] * 16, prio="normal", key="kb")
cjid = r["id"]
time.sleep(0.3)
st, c = d.json("DELETE", f"/v1/jobs/{cjid}")
check("cancel accepted", st in (200, 202), (st, c))
st, j = d.wait(cjid)
check("cancelled", j.get("state") == "cancelled", j)
st, r = d.submit([big] * 4, prio="low", key="kb")
qid = r["id"]
st, c = d.json("DELETE", f"/v1/jobs/{qid}")
st, j = d.wait(qid)
check("cancel (queued or running) ends cancelled", j.get("state") == "cancelled", j)
time.sleep(0.5)
st, m, _ = d.request("GET", "/metrics")
for ctr in ("abc_bytes", "assign_bytes", "synth", "waiting", "device", "final"):
    check(f"counter {ctr} back to 0", f'g16_engine_counter{{name="{ctr}"}} 0'.encode() in m,
          [l for l in m.decode().splitlines() if ctr in l])
st, _, _ = d.request("DELETE", f"/v1/jobs/{cjid}")
check("delete an ended job", st == 200, st)
st, _, _ = d.request("GET", f"/v1/jobs/{cjid}")
check("deleted job is gone", st == 404, st)

# ------------------------------------------------------------------ bad requests
deep = "[" * 5000 + "]" * 5000
bad_requests = [
    ("malformed JSON", "POST", "/v1/jobs", '{"key": "k", "partitions": [', 400),
    ("not an object", "POST", "/v1/jobs", "[1,2]", 400),
    ("deep JSON", "POST", "/v1/jobs", deep, 400),
    ("unknown field", "POST", "/v1/jobs", {"key": "k", "partitions": [], "x": 1}, 400),
    ("no partitions", "POST", "/v1/jobs", {"key": "k", "partitions": []}, 400),
    ("bad priority", "POST", "/v1/jobs", {"key": "k", "priority": "urgent",
                                          "partitions": [{"circuit": small[0], "witness": small[1]}]}, 400),
    ("unknown key", "POST", "/v1/jobs", {"key": "nope", "partitions": [{"circuit": small[0], "witness": small[1]}]}, 422),
    ("path outside the roots", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0], "witness": outside}]}, 403),
    ("relative path", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": "in/small.g16c", "witness": small[1]}]}, 403),
    (".. escape", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0],
                                                                  "witness": ROOT + "/../outside.g16w"}]}, 403),
    ("symlink escape", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0],
                                                                       "witness": ROOT + "/link.g16w"}]}, 403),
    ("symlinked folder escape", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0],
                                                                                "witness": ROOT + "/up/outside.g16w"}]}, 403),
    ("missing file", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0], "witness": ROOT + "/no.g16w"}]}, 403),
    ("wrong witness", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0], "witness": other[1]}]}, 422),
    ("witness is a circuit", "POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0], "witness": small[0]}]}, 422),
    ("unknown job", "GET", "/v1/jobs/" + "f" * 32, None, 404),
    ("proof of an unknown job", "GET", "/v1/jobs/" + "f" * 32 + "/proof", None, 404),
    ("unknown endpoint", "GET", "/v2/nothing", None, 404),
    ("wrong method", "PUT", "/v1/jobs", "{}", 405),
    ("bad wait", "GET", f"/v1/jobs/{jid}?wait=abc", None, 400),
    ("bad state filter", "GET", "/v1/jobs?state=sleeping", None, 400),
    ("preload an unknown key", "POST", "/v1/keys/nope/preload", None, 404),
]
for name, method, path, body, want in bad_requests:
    st, j = d.json(method, path, body)
    ok = st == want and isinstance(j.get("error"), dict) and j["error"].get("code") and j["error"].get("message")
    check(f"bad request: {name}: {want}", ok, (st, str(j)[:300]))


def raw(d, head, body=b""):
    """Sends head (and body) on a plain socket and returns the status line's code."""
    host, port = d.addr.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as so:
        so.sendall(head.encode() + body)
        line = so.makefile("rb").readline().decode()
    return int(line.split()[1]) if line.startswith("HTTP/") else 0


auth = f"Authorization: Bearer {TOKEN}\r\n"
check("huge body announced: 413 before it is read",
      raw(d, f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\n{auth}Content-Length: {64 << 20}\r\n\r\n", b"{") == 413)
chunk = b"x" * 65536
chunked = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(20)) + b"0\r\n\r\n"
check("huge chunked body: 413",
      raw(d, f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\n{auth}Transfer-Encoding: chunked\r\n\r\n", chunked) == 413)
check("body of a request without a token is not read: 401",
      raw(d, f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: {64 << 20}\r\n\r\n", b"{") == 401)
st, _, _ = d.request("GET", "/healthz", token=None)
check("still serving after the bad requests", st == 200, st)
st, r = d.submit([small])
check("still proving after the bad requests", d.wait(r["id"])[1].get("state") == "done", r)
# the key the big circuit needs is not the small one's: a job of mismatched key fails cleanly
st, r = d.submit([big], key="k")
st, j = d.wait(r["id"]) if st == 202 else (st, r)
check("circuit that does not fit the key: fails with a reason",
      (st == 422) or (j.get("state") == "failed" and j["error"]["message"]), (st, j))

# ------------------------------------------------------------------ connections: the cap answers 503
d.stop()
d = Daemon(data, extra=["--max-connections", "4", "--timeout", "1"], keys=("k", "kb")).start()
host, port = d.addr.rsplit(":", 1)
held = [socket.create_connection((host, int(port))) for _ in range(6)]
time.sleep(0.3)
st, j, hdr = d.request("GET", "/v1/status")
check("past max_connections: 503 with Retry-After", st == 503 and hdr.get("Retry-After") == "5", (st, j))
for so in held:
    so.close()
time.sleep(0.3)
st, _, _ = d.request("GET", "/v1/status")
check("connections closed: served again", st == 200, st)
slow = socket.create_connection((host, int(port)))
slow.sendall(b"GET /v1/status HTTP/1.1\r\n")   # and never more
check("server still serving beside a slow client", d.request("GET", "/healthz", token=None)[0] == 200)
slow.settimeout(10)
t0 = time.time()
try:
    closed = slow.recv(100) == b""
except (ConnectionResetError, socket.timeout):
    closed = False
check("a slow client is cut off after --timeout", closed and time.time() - t0 < 5, time.time() - t0)
slow.close()

# ------------------------------------------------------------------ inputs uploaded in the request
import base64  # noqa: E402
b64 = lambda path: base64.b64encode(open(path, "rb").read()).decode()
st, r = d.json("POST", "/v1/jobs", {"key": "k", "partitions": [
    {"circuit_b64": b64(small[0]), "witness_b64": b64(small[1])},
    {"circuit": small[0], "witness_b64": b64(small[1])}]})
check("upload: 202", st == 202, (st, r))
st, j = d.wait(r["id"])
check("upload: done", j.get("state") == "done", j)
verify("uploaded inputs", d, r["id"], j)
updir = os.path.join(data, "uploads", r["id"])
check("upload: files kept while the job is", os.path.isfile(os.path.join(updir, "p0.g16w")), updir)
d.request("DELETE", f"/v1/jobs/{r['id']}")
check("upload: files removed with the job", not os.path.exists(updir), updir)
st, j = d.json("POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0], "witness_b64": "not base64!"}]})
check("upload: bad base64: 400", st == 400 and j["error"]["code"] == "bad_request", (st, j))
st, j = d.json("POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0],
                                                                  "witness_b64": base64.b64encode(b"g16witn" + b"\0" * 60).decode()}]})
check("upload: a bad witness file: 422 with its offset", st == 422 and "offset" in j["error"]["message"], (st, j))
check("upload: a refused job leaves no files", os.listdir(os.path.join(data, "uploads")) == [],
      os.listdir(os.path.join(data, "uploads")))
st, j = d.json("POST", "/v1/jobs", {"key": "k", "partitions": [{"circuit": small[0], "witness": small[1],
                                                                  "witness_b64": b64(small[1])}]})
check("upload: a path and an upload of the same file: 400", st == 400, (st, j))

# ------------------------------------------------------------------ keys: preload, evict
st, r = d.json("POST", "/v1/keys/kb/evict")
check("evict", st == 200 and r["tier"] == "cold", (st, r))
st, r = d.json("POST", "/v1/keys/kb/preload")
check("preload", st == 200 and r["tier"] in ("warm", "hot"), (st, r))
st, s = d.json("GET", "/v1/status")
kb = [k for k in s["keys"] if k["name"] == "kb"][0]
check("preload read the cache", kb["loaded_from"] == "cache", kb)

# ------------------------------------------------------------------ 200 concurrent submissions
tiny = gen("tiny", 8, 11)
run(G16, "setup", "--circuit", tiny[0], "--seed", "9", "-o", os.path.join(TMP, "kt.params"), "--vk",
    os.path.join(TMP, "kt.vk"))
check("restart for the burst: exit 0", d.stop() == 0)
KEYS["kt"] = os.path.join(TMP, "kt.params")
d = Daemon(data, keys=("k", "kb", "kt")).start()
rss0 = d.rss_peak_kb()
ids, errs = [], []


def burst(n):
    for _ in range(n):
        st, r = d.submit([tiny], key="kt")
        (ids if st == 202 else errs).append(r.get("id") or (st, r))


th = [threading.Thread(target=burst, args=(20,)) for _ in range(10)]
[t.start() for t in th]
[t.join() for t in th]
check("200 concurrent submissions accepted", len(ids) == 200 and not errs, (len(ids), errs[:3]))
states = [d.wait(i)[1].get("state") for i in ids]
check("200 concurrent jobs done", states.count("done") == 200, {s: states.count(s) for s in set(states)})
rss = d.rss_peak_kb()
check("memory bounded under 200 jobs", rss < 400 * 1024, f"peak RSS {rss} kB (start {rss0} kB)")

# ------------------------------------------------------------------ kill -9 while a job runs
st, r = d.submit([big] * 12, prio="normal", request_id="survivor", key="kb")
kid = r["id"]
for _ in range(200):
    st, j = d.json("GET", f"/v1/jobs/{kid}")
    if j["state"] == "running":
        break
    time.sleep(0.02)
check("job running before the kill", j["state"] == "running", j)
d.proc.kill()
d.proc.wait()
d.log.close()
d = Daemon(data, keys=("k", "kb", "kt")).start()
st, j = d.wait(kid)
check("job survives kill -9 and ends done", j.get("state") == "done" and j["attempts"] == 2, j)
verify("after restart", d, kid, j, VK_BIG)
st, lst = d.json("GET", "/v1/jobs")
check("exactly one job for the request", [x["id"] for x in lst["jobs"]].count(kid) == 1, lst)
st, r = d.submit([big] * 12, prio="normal", request_id="survivor", key="kb")
check("request_id still known after the restart", st == 200 and r["id"] == kid, (st, r))
st, m, _ = d.request("GET", "/metrics")
check("recovered metric", b"g16_jobs_recovered_total 1" in m, m[:100])

# ------------------------------------------------------------------ SIGTERM keeps queued work
ids = [d.submit([big] * 4, prio="low", key="kb")[1]["id"] for _ in range(5)]
time.sleep(0.2)
rc = d.stop(signal.SIGTERM)
check("SIGTERM: exit 0", rc == 0, rc)
cfg = os.path.join(TMP, "g16d.json")
sock = os.path.join(TMP, "g16d.sock")
json.dump({"listen": "unix:" + sock, "data_dir": data, "token_file": TOKEN_FILE, "roots": [ROOT],
           "keys": {"k": KEY, "kb": KEY_BIG}, "pw": 1, "gw": 1, "budget": "2G", "log_format": "json"},
          open(cfg, "w"))
d = Daemon(data).start(config=cfg)
check("config file + unix socket", d.addr == "unix:" + sock, d.addr)
states = [d.wait(i)[1].get("state") for i in ids]
check("jobs queued at SIGTERM run after the restart", states.count("done") == 5, states)
p = run(G16, "remote", "jobs", "--state", "done", "--url", "unix:" + sock, "--token-file", TOKEN_FILE,
        check_rc=False)
check("remote over the unix socket", p.returncode == 0 and ids[0] in p.stdout, p.stderr)
check("last stop: exit 0", d.stop() == 0)
log = open(d.log.name).read().splitlines()
check("json logs", log and all(json.loads(l).get("ts") for l in log if l.startswith("{")), log[:2])

# ------------------------------------------------------------------ snarkjs jobs (.zkey + .wtns)
fx = os.path.join(SRC, "tests", "interop", "fixtures")
zroot = os.path.join(TMP, "zk")
shutil.copytree(fx, zroot)
d.stop()
d = Daemon(data, extra=["--root", zroot, "--key", f"mul={zroot}/multiplier/circuit.zkey",
                        "--key", f"pos={zroot}/poseidon/circuit.zkey",
                        "--key", f"bpos={zroot}/bn128/poseidon/circuit.zkey"], keys=("k",)).start()
st, s = d.json("GET", "/v1/status")
zc = {k["name"]: k.get("curve") for k in s["keys"]}
check("zkey keys name their curve", zc.get("pos") == "bls12381" and zc.get("bpos") == "bn128", zc)
check("zkey keys warm at start", {k["name"]: k["tier"] for k in s["keys"]}.get("pos") == "warm", s["keys"])
zk = {k["name"]: k for k in s["keys"]}
check("zkey keys charged to the budget", s["budget"]["reserved"] >= sum(k["bytes"] for k in s["keys"]) and
      zk["pos"]["bytes"] > 0 and zk["mul"]["bytes"] > 0, s)
check("zkey keys say what a proof charges", zk["pos"].get("proof_bytes", 0) > zk["mul"].get("proof_bytes", 0) > 0, zk)
jobs = {}
zkey_of = {"multiplier": "mul", "poseidon": "pos", "bn128/poseidon": "bpos"}
for c in zkey_of:
    st, r = d.json("POST", "/v1/jobs", {"key": zkey_of[c], "partitions": [
        {"wtns": f"{zroot}/{c}/witness.wtns"}, {"wtns_b64": b64(f"{zroot}/{c}/witness.wtns")}]})
    check(f"zkey job {c}: 202", st == 202, (st, r))
    jobs[c] = r.get("id")
sj_lines = []
for c, jid in jobs.items():
    st, j = d.wait(jid)
    check(f"zkey job {c}: done", j.get("state") == "done" and j.get("kind") == "snarkjs", j)
    for part in (0, 1):
        tag = c.replace("/", "-")
        pf, uf = os.path.join(TMP, f"{tag}{part}.proof.json"), os.path.join(TMP, f"{tag}{part}.public.json")
        st1, b1, _ = d.request("GET", f"/v1/jobs/{jid}/proof.json?part={part}")
        st2, b2, _ = d.request("GET", f"/v1/jobs/{jid}/public.json?part={part}")
        open(pf, "wb").write(b1)
        open(uf, "wb").write(b2)
        check(f"zkey job {c}: proof.json and public.json", st1 == 200 and st2 == 200, (st1, st2))
        vk = f"{zroot}/{c}/verification_key.json"
        p = run(G16, "verify", "--vk", vk, "--proof", pf, "--public", uf, check_rc=False)
        check(f"zkey job {c} partition {part}: g16 verify", p.returncode == 0, p.stdout + p.stderr)
        check(f"zkey job {c}: public.json equals snarkjs's", json.loads(b2) == json.load(open(f"{zroot}/{c}/public.json")))
        sj_lines.append(f"OK {tag}{part} {vk} {uf} {pf}")
    st, all_, hdr = d.request("GET", f"/v1/jobs/{jid}/proof")
    check(f"zkey job {c}: /proof is JSON of both", st == 200 and len(json.loads(all_)["partitions"]) == 2, st)
node_verify = os.path.join(SRC, "tests", "interop", "snarkjs-verify.mjs")
if shutil.which("node") and os.path.isdir(os.path.join(SRC, "node_modules", "snarkjs")):
    p = subprocess.run(["node", node_verify], input="\n".join(sj_lines) + "\n", capture_output=True, text=True,
                       cwd=SRC)
    check("snarkjs's own verifier accepts the daemon's proofs", p.returncode == 0, p.stdout + p.stderr)
else:
    check("node and snarkjs present (scripts/install-deps.sh installs them)", False)
st, j = d.json("POST", "/v1/jobs", {"key": "mul", "partitions": [{"circuit": small[0], "witness": small[1]}]})
check("zkey key with .params-style partitions: 400", st == 400, (st, j))
st, j = d.json("POST", "/v1/jobs", {"key": "mul", "partitions": [{"wtns": f"{zroot}/poseidon/witness.wtns"}]})
check("zkey: a witness of another circuit: 422", st == 422, (st, j))
st, j = d.json("POST", "/v1/jobs", {"key": "bpos", "partitions": [{"wtns": f"{zroot}/poseidon/witness.wtns"}]})
check("zkey: a bls12381 witness for a bn128 key: 422 naming both curves", st == 422 and
      "bn128" in j["error"]["message"] and "bls12381" in j["error"]["message"], (st, j))
st, j = d.json("POST", "/v1/jobs", {"key": "mul", "partitions": [{"wtns": small[1]}]})
check("zkey: a file that is not a .wtns: 422", st == 422 and j["error"]["message"], (st, j))
st, j = d.json("POST", "/v1/jobs", {"key": "k", "partitions": [{"wtns": f"{zroot}/multiplier/witness.wtns"}]})
check(".params key with wtns partitions: 400", st == 400, (st, j))
st, j = d.json("GET", f"/v1/jobs/{jobs['poseidon']}/proof.json?part=7")
check("zkey: no such partition: 404", st == 404, (st, j))
d.stop()

# the budget holds snarkjs keys and proofs too: a proof that cannot fit beside the keys
# evicts an idle key; one larger than the whole budget fails the job with the bytes
pos_b, pos_p, mul_b = zk["pos"]["bytes"], zk["pos"]["proof_bytes"], zk["mul"]["bytes"]
for budget, what in ((pos_b + pos_p + mul_b - 1, "evicts"), (pos_b + pos_p - 1, "too big")):
    d = Daemon(data, extra=["--root", zroot, "--key", f"mul={zroot}/multiplier/circuit.zkey",
                            "--key", f"pos={zroot}/poseidon/circuit.zkey", "--budget", str(budget)], keys=()).start()
    st, s = d.json("GET", "/v1/status")
    tiers = {k["name"]: k["tier"] for k in s["keys"]}
    if what == "evicts":
        check("budget: both zkey keys fit at start", tiers == {"mul": "warm", "pos": "warm"}, s["keys"])
    st, r = d.json("POST", "/v1/jobs", {"key": "pos", "partitions": [{"wtns": f"{zroot}/poseidon/witness.wtns"}]})
    check(f"budget ({what}): the job is accepted", st == 202, (st, r))
    st, j = d.wait(r.get("id"))
    st, s = d.json("GET", "/v1/status")
    tiers = {k["name"]: k["tier"] for k in s["keys"]}
    if what == "evicts":
        check("budget: the proof evicted the idle key and ran", j.get("state") == "done" and tiers.get("mul") == "cold"
              and tiers.get("pos") == "warm", (j, s["keys"]))
        check("budget: the proof's charge given back", s["budget"]["reserved"] == pos_b, s["budget"])
        check("budget: never past the budget", s["budget"]["reserved_peak"] <= budget, s["budget"])
    else:
        check("budget: a proof larger than the budget fails the job, with the bytes", j.get("state") == "failed" and
              "more than the budget" in j.get("error", {}).get("message", ""), j)
    d.stop()

# ------------------------------------------------------------------ systemd notify
ns_path = os.path.join(TMP, "notify.sock")
ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
ns.bind(ns_path)
ns.settimeout(60)
d = Daemon(data)
d.start(env=dict(os.environ, NOTIFY_SOCKET=ns_path))
msg = ns.recv(4096).decode()
check("systemd notify: READY=1 once the keys are loaded", "READY=1" in msg, msg)
d.proc.send_signal(signal.SIGTERM)
msg = ns.recv(4096).decode()
check("systemd notify: STOPPING=1 on SIGTERM", "STOPPING=1" in msg, msg)
check("stop after notify: exit 0", d.stop() == 0)
ns.close()

# every graceful stop exited 0, and no sanitizer (ASan/UBSan/LSan builds) said anything
harness.sanitizer_clean(TMP)
harness.finish()
