"""Shared by the g16d tests (test_daemon.py, test_cluster.py): checks with a pass/fail count,
commands, and a g16d process with an HTTP client for it (TCP or unix socket)."""
import atexit
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

passed = failed = 0
STARTED, TEMPS = [], []


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {name} {detail}", file=sys.stderr, flush=True)


def finish():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def run(*args, check_rc=True, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    if check_rc and p.returncode != 0:
        raise RuntimeError(f"{args}: exit {p.returncode}: {p.stderr}")
    return p


@atexit.register
def _cleanup():
    """A test that dies half-way leaves no daemon and no temp dir behind."""
    for p in STARTED:
        if p.poll() is None:
            p.kill()
            p.wait()
    for t in TEMPS:
        shutil.rmtree(t, ignore_errors=True)


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=60):
        super().__init__("localhost", timeout=timeout)
        self.path_ = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path_)


class Daemon:
    """One g16d process: args() gives its command line; start() waits for DATA/g16d.addr and /readyz."""

    def __init__(self, g16d, data, tmp, token, log_name="g16d"):
        self.g16d, self.data, self.tmp, self.token, self.log_name = g16d, data, tmp, token, log_name
        self.proc = None

    def args(self, config=None):
        raise NotImplementedError

    def start(self, config=None, env=None):
        addr_file = os.path.join(self.data, "g16d.addr")
        if os.path.exists(addr_file):
            os.unlink(addr_file)
        self.log = open(os.path.join(self.tmp, f"{self.log_name}-{time.time():.6f}.log"), "w")
        self.proc = subprocess.Popen([self.g16d] + self.args(config), stdout=self.log, stderr=subprocess.STDOUT,
                                     env=env)
        STARTED.append(self.proc)
        for _ in range(1500):
            if os.path.exists(addr_file):
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"g16d exited {self.proc.returncode}: {open(self.log.name).read()}")
            time.sleep(0.02)
        self.addr = open(addr_file).read().strip()
        for _ in range(1200):
            if self.request("GET", "/readyz")[0] == 200:
                return self
            time.sleep(0.05)
        raise RuntimeError("g16d never became ready")

    def request(self, method, path, body=None, token="", headers=None, timeout=120):
        token = self.token if token == "" else token
        if self.addr.startswith("unix:"):
            c = UnixHTTPConnection(self.addr[5:], timeout=timeout)
        else:
            host, port = self.addr.rsplit(":", 1)
            c = http.client.HTTPConnection(host, int(port), timeout=timeout)
        h = dict(headers or {})
        if token is not None:
            h["Authorization"] = f"Bearer {token}"
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            data = r.read()
            return r.status, data, dict(r.getheaders())
        finally:
            c.close()

    def json(self, method, path, body=None, **kw):
        st, data, _ = self.request(method, path, body, **kw)
        try:
            return st, json.loads(data)
        except ValueError:
            return st, {"raw": data[:200]}

    def submit(self, parts, prio="normal", request_id=None, key="k"):
        b = {"key": key, "priority": prio,
             "partitions": [{"circuit": c, "witness": w} for c, w in parts]}
        if request_id:
            b["request_id"] = request_id
        return self.json("POST", "/v1/jobs", b)

    def wait(self, jid, limit=300):
        t = time.time() + limit
        while time.time() < t:
            st, j = self.json("GET", f"/v1/jobs/{jid}?wait=30")
            if st != 200 or j["state"] in ("done", "failed", "cancelled"):
                return st, j
        return 0, {}

    def stop(self, sig=signal.SIGTERM, timeout=120):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode

    def rss_peak_kb(self):
        for line in open(f"/proc/{self.proc.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0


def sanitizer_clean(tmp, prefix="g16d"):
    """Every log of a g16d in tmp: no sanitizer report (ASan/UBSan/LSan builds)."""
    for name in sorted(os.listdir(tmp)):
        if name.startswith(prefix + "-") and name.endswith(".log"):
            text = open(os.path.join(tmp, name)).read()
            check(f"{name}: no sanitizer report", "Sanitizer" not in text and "runtime error" not in text,
                  text[-2000:])


class Postgres:
    """A throwaway PostgreSQL server in tmp/pg on a free loopback port (initdb and pg_ctl run as
    Debian's postgres user when we are root: the server refuses to run as root); stopped at exit."""

    def __init__(self, tmp):
        import glob
        import pwd
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins:
            raise RuntimeError("no PostgreSQL server: scripts/install-deps.sh installs it")
        self.bin = os.path.dirname(bins[-1])
        self.data = os.path.join(tmp, "pg")
        self.user = "postgres" if os.getuid() == 0 else None
        os.chmod(tmp, 0o755)
        os.mkdir(self.data, 0o700)
        if self.user:
            pw = pwd.getpwnam(self.user)
            os.chown(self.data, pw.pw_uid, pw.pw_gid)
        import socket
        with socket.socket() as so:
            so.bind(("127.0.0.1", 0))
            self.port = so.getsockname()[1]
        p = self.ctl("initdb", "-D", self.data, "-A", "trust", "-U", "g16", "--no-sync")
        if p.returncode:
            raise RuntimeError(f"initdb: {p.stderr}")
        self.opts = (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off "
                     f"-c max_connections=200")
        self.url = f"postgresql://g16@127.0.0.1:{self.port}/postgres"
        atexit.register(lambda: self.ctl("pg_ctl", "-D", self.data, "-m", "immediate", "stop"))

    def ctl(self, prog, *args):
        cmd = [os.path.join(self.bin, prog)] + list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--"] + cmd
        return run(*cmd, check_rc=False)

    def start(self):
        return self.ctl("pg_ctl", "-D", self.data, "-o", self.opts, "-l", os.path.join(self.data, "log"), "-w",
                        "start")

    def stop(self, mode="fast"):
        return self.ctl("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def sql(self, query):
        """Rows of a query as lists of strings (psql -At)."""
        out = run(os.path.join(self.bin, "psql"), self.url, "-At", "-c", query, check_rc=False).stdout
        return [line.split("|") for line in out.strip().splitlines()]


def start_postgres(tmp):
    """A started throwaway PostgreSQL in tmp (Postgres), its start checked; ends the test when the
    machine has no server."""
    try:
        pg = Postgres(tmp)
    except RuntimeError as e:
        check("a PostgreSQL server", False, str(e))
        finish()
    p = pg.start()
    check("PostgreSQL started", p.returncode == 0, p.stderr + p.stdout)
    return pg


def post_fixtures(g16, root, sectors, rnd):
    """2 KiB PoSt fixtures in root: a synthetic WindowPoSt vanilla proof v<id>.vp for each sector
    id, a WinningPoSt one win.vp (sector 5), and the circuits and TEST-ONLY keys (.params, .vk)
    of both partitions: w2k (window) and win (winning)."""
    def path(name):
        return os.path.join(root, name)
    for s in sectors:
        run(g16, "filecoin", "make-vanilla", "--kind", "window", "--sector-size", "2KiB", "--sector-id", str(s),
            "--randomness", rnd, "--seed", f"s{s}", "-o", path(f"v{s}.vp"))
    run(g16, "filecoin", "make-vanilla", "--kind", "winning", "--sector-size", "2KiB", "--sector-id", "5",
        "--randomness", rnd, "--seed", "w", "-o", path("win.vp"))
    for kind, name, seed in (("window", "w2k", 5), ("winning", "win", 3)):
        run(g16, "filecoin", "circuit", "--kind", kind, "--sector-size", "2KiB", "-o", path(f"{name}.g16c"))
        run(g16, "setup", "--circuit", path(f"{name}.g16c"), "--seed", str(seed), "-o", path(f"{name}.params"),
            "--vk", path(f"{name}.vk"))


def verify_post(g16, d, jid, job, vk, stem):
    """A PoSt job's proofs from d (192 bytes a partition) checked by `g16 verify` against the
    public inputs its GET listed; files stem.bin, stem.in.  Returns the inputs, a line each."""
    name = os.path.basename(stem)
    st, data, _ = d.request("GET", f"/v1/jobs/{jid}/proof")
    n = len(job.get("partitions", []))
    check(f"{name}: {192 * n} proof bytes", st == 200 and len(data) == 192 * n, (st, len(data), n))
    pf, inf = stem + ".bin", stem + ".in"
    open(pf, "wb").write(data)
    lines = [x for q in job["partitions"] for x in q.get("inputs", [])]
    with open(inf, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = run(g16, "verify", "--vk", vk, "--proof", pf, "--inputs", inf, check_rc=False)
    check(f"{name}: g16 verify", p.returncode == 0, p.stderr + p.stdout)
    return lines


class Inputs:
    """A token file and one porep-profile circuit with its witness under tmp/in, a TEST-ONLY key
    and vk for it, and its public inputs as `g16 verify --inputs` reads them."""

    def __init__(self, g16, tmp, token, log_n, seed=5):
        self.root = os.path.join(tmp, "in")
        os.makedirs(self.root, exist_ok=True)
        self.token_file = os.path.join(tmp, "token")
        with open(self.token_file, "w") as f:
            f.write(token + "\n")
        os.chmod(self.token_file, 0o600)
        self.circuit = os.path.join(self.root, "c.g16c")
        self.witness = self.circuit[:-5] + ".g16w"
        run(g16, "circuit", "gen", "--log-n", str(log_n), "--inputs", "2", "--profile", "porep", "--seed",
            str(seed), "-o", self.circuit)
        self.key, self.vk = os.path.join(tmp, "k.params"), os.path.join(tmp, "k.vk")
        run(g16, "setup", "--circuit", self.circuit, "--seed", str(seed), "-o", self.key, "--vk", self.vk)
        self.inputs = os.path.join(tmp, "inputs.txt")
        run(g16, "prove", "--params", self.key, "--circuit", self.circuit, "--witness", self.witness, "-o",
            os.path.join(tmp, "p.bin"), "--inputs-out", self.inputs)

    def verify_all(self, g16, tmp, proofs, n):
        """g16 verify of n concatenated proofs of this circuit (one batch)."""
        pf, inf = os.path.join(tmp, "all.bin"), os.path.join(tmp, "all.in")
        with open(pf, "wb") as f:
            f.write(proofs)
        with open(inf, "w") as f:
            f.write("\n".join(open(self.inputs).read().strip().splitlines() * n) + "\n")
        return run(g16, "verify", "--vk", self.vk, "--proof", pf, "--inputs", inf, check_rc=False)


class ClusterNode(Daemon):
    """Node i of a test cluster: g16d --cluster URL on a free loopback port, the inputs' root and
    key (as "k"), 1 synthesis and 1 device worker, a 2G budget, named node<i>."""

    def __init__(self, g16d, tmp, token, inputs, url, lease, i, keys=()):
        super().__init__(g16d, os.path.join(tmp, f"data{i}"), tmp, token, log_name=f"node{i}")
        self.inputs, self.url, self.lease, self.i, self.keys = inputs, url, lease, i, list(keys)

    def args(self, config=None):
        a = ["--listen", "127.0.0.1:0", "--data-dir", self.data, "--token-file", self.inputs.token_file,
             "--root", self.inputs.root, "--key", f"k={self.inputs.key}", "--pw", "1", "--gw", "1",
             "--budget", "2G", "--cluster", self.url, "--lease", str(self.lease), "--node-name", f"node{self.i}"]
        for k in self.keys:
            a += ["--key", k]
        return a
