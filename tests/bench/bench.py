#!/usr/bin/env python3
"""`make bench`: speed of ascend-lsp against the floor of its design and
against the method users have today, in one session, on the same files.

Measured (medians of --runs interleaved runs unless said otherwise):
  1. workspace `check` throughput (MB/s, files/s), --threads 1 and all cores;
  2. baselines on the same files: tree-sitter parse-only (bench-tool parse:
     the same file collection, read, parse, nothing else) and ripgrep running
     the seeds' grep list (cudaMalloc|cudaMemcpy|cublas|nccl|torch.cuda|numba.cuda
     over *.py, *.cu, *.cpp), each with 1 thread and all cores; ratios;
  3. peak RSS of `check` (GNU time, median of 3);
  4. the byte-level prefilter: files that contain no trigger substring, what
     analyzing them costs, and what the analyzer's own prefilter skips;
  5. didChange -> publishDiagnostics latency over pipes (lsp-latency, --sync),
     single-character edits and line inserts inside functions, import-block
     edits, string-opening line inserts (a copied docstring delimiter: the
     rest of the file changes from code to string), incremental vs
     full-text sync (a full re-analysis: the baseline),
     in the 10,000-line file and a 5,000-line file; the in-process split
     (incremental vs full parse, analysis alone) from bench-tool edit;
  6. a second report after one file changed (warm) vs cold: the
     `ascend.generateReport` command of one long-lived server when it exists
     (its content-hash cache lives there), else `ascend-lsp report` runs;
  7. pathological files, each at N and 2N, with the scaling ratio
     time(2N) / time(N) (linear: about 2; target <= 2.2): N lines of
     `import torch as tN`, and one line holding N `torch.cuda.synchronize();`;
     and a huge file just under the size limit (335,000
     `torch.cuda.synchronize()` lines): time, peak RSS and JSON output size
     of `check`, and the server's republish latency per edit of a
     40,000-line document;
  8. the project model in the server (generated project only): the full
     background build, then edits of a module 300 others import, each timed
     until an open dependent is re-published with changed diagnostics.
Then a table with the targets, each met or not met. Results also go to
OUT/results.json and OUT/results.txt.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_PATTERN = "cudaMalloc|cudaMemcpy|cublas|nccl|torch.cuda|numba.cuda"


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def kv(text):
    out = {}
    for line in text.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2:
            try:
                out[parts[0]] = float(parts[1]) if any(c in parts[1] for c in ".e") else int(parts[1])
            except ValueError:
                out[parts[0]] = parts[1]
    return out


def run_kv(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return kv(p.stdout)


def timed(cmds, runs, warmup=1):
    """cmds: {name: argv}. Runs the commands round-robin (one run of each per
    round, after `warmup` unmeasured rounds), so that load from anything
    else on the machine spreads over all of them instead of skewing one.
    Returns {name: {median, min, max, user, system, runs}} (seconds; user and
    system are medians of the child's rusage)."""
    samples = {n: [] for n in cmds}
    loads = []
    for r in range(warmup + runs):
        loads.append(os.getloadavg()[0])
        for n, argv in cmds.items():
            t0 = time.monotonic()
            p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.monotonic() - t0
            p.returncode = os.waitstatus_to_exitcode(status)
            if p.returncode not in (0, 1):
                raise RuntimeError("%s exited with %d" % (" ".join(argv), p.returncode))
            if r >= warmup:
                samples[n].append((wall, ru.ru_utime, ru.ru_stime))
    res = {}
    for n, xs in samples.items():
        res[n] = {"median": statistics.median(x[0] for x in xs), "min": min(x[0] for x in xs),
                  "max": max(x[0] for x in xs), "user": statistics.median(x[1] for x in xs),
                  "system": statistics.median(x[2] for x in xs), "runs": len(xs)}
    res["_load_max"] = max(loads)
    return res


def peak_rss_kb(cmd, runs=3):
    vals = []
    for _ in range(runs):
        p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        vals.append(int(p.stderr.strip().splitlines()[-1]))
    return statistics.median(vals)


def ensure_generated(out, repo):
    gen = os.path.join(HERE, "gen_project.py")
    stamp_val = str(os.path.getmtime(gen)) + open(gen).read()[-200:]
    lat = os.path.join(out, "latency")
    os.makedirs(lat, exist_ok=True)
    files = {"10k": os.path.join(lat, "big10k.py"), "5k": os.path.join(lat, "big5k.py")}
    stamp = os.path.join(out, ".generated")
    fresh = os.path.exists(stamp) and open(stamp).read() == stamp_val
    if not fresh:
        if not repo:
            log("generating the project (deterministic) ...")
            subprocess.run([sys.executable, gen, os.path.join(out, "project")], check=True)
        subprocess.run([sys.executable, gen, "--single", files["10k"], "--lines", "10000"], check=True)
        subprocess.run([sys.executable, gen, "--single", files["5k"], "--lines", "5000", "--seed", "7"], check=True)
        if not repo:
            open(stamp, "w").write(stamp_val)
    return (repo or os.path.join(out, "project")), files


PATHOLOGICAL = {
    # name: (N, text of a file at size n)
    "imports": (20000, lambda n: "".join("import torch as t%d\n" % i for i in range(n))),
    "one-line-calls": (10000, lambda n: "import torch\n" + "torch.cuda.synchronize();" * n + "\n"),
}
HUGE_LINES = 335000  # just under the 8 MiB file limit


def pathological(a):
    d = os.path.join(a.out, "pathological")
    os.makedirs(d, exist_ok=True)
    res = {}
    for name, (n, gen) in PATHOLOGICAL.items():
        files = {}
        for k in (n, 2 * n):
            files[k] = os.path.join(d, "%s-%d.py" % (name, k))
            if not os.path.exists(files[k]):
                open(files[k], "w").write(gen(k))
        log("pathological %s: %d and %d ..." % (name, n, 2 * n))
        T = timed({k: [a.bin, "check", "--no-cache", "--format", "json", "--exit-zero", f] for k, f in files.items()}, a.runs)
        res[name] = {"n": n, "t_n": T[n]["median"], "t_2n": T[2 * n]["median"], "ratio": T[2 * n]["median"] / T[n]["median"]}
    hd = os.path.join(d, "huge")
    os.makedirs(hd, exist_ok=True)
    huge = os.path.join(hd, "huge.py")
    if not os.path.exists(huge):
        open(huge, "w").write("import torch\n" + "torch.cuda.synchronize()\n" * HUGE_LINES)
    log("huge file: %d lines ..." % HUGE_LINES)
    cmd = [a.bin, "check", "--no-cache", "--format", "json", "--exit-zero", huge]
    T = timed({"huge": cmd}, max(1, a.runs // 2), warmup=0)
    out = subprocess.run(cmd, capture_output=True).stdout
    res["huge"] = {"lines": HUGE_LINES, "bytes": os.path.getsize(huge), "seconds": T["huge"]["median"],
                   "rss_kb": peak_rss_kb(cmd, runs=1), "json_bytes": len(out),
                   "parse_rss_kb": peak_rss_kb([a.tool, "parse", "--threads", "1", hd], runs=1)}
    doc = os.path.join(d, "doc40k.py")
    if not os.path.exists(doc):
        open(doc, "w").write("import torch\n" + "torch.cuda.synchronize()\n" * 40000)
    log("republish of a 40,000-line document ...")
    res["republish"] = run_kv([a.latency, a.bin, doc, "char", "20", "2"])
    return res


def rg_cmd(project, threads):
    # The seeds' command is grep -rE PATTERN --include=*.py --include=*.cu --include=*.cpp;
    # --no-ignore: grep reads every file too (the project may sit under a .gitignore'd dir).
    # Output goes to /dev/null, which ripgrep does not special-case (GNU grep would stop
    # at the first match), so every file is searched in full.
    return ["rg"] + (["-j1"] if threads == 1 else []) + ["--no-ignore", "--hidden", "-n", "-e", SEED_PATTERN,
                                                        "-g", "*.py", "-g", "*.cu", "-g", "*.cpp", project]


# ---- warm vs cold report ------------------------------------------------------------


class Lsp:
    def __init__(self, binary, root):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 100
        self.root = root

    def send(self, obj):
        b = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()

    def read(self):
        n = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(n))

    def request(self, method, params, timeout=600):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid and "method" not in m:
                return m
            if "method" in m and "id" in m:  # a server request (progress token, applyEdit): answer it
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def init(self):
        uri = "file://" + os.path.abspath(self.root)
        self.request("initialize", {"processId": None, "rootUri": uri, "capabilities": {"window": {"workDoneProgress": True}},
                                    "workspaceFolders": [{"uri": uri, "name": "bench"}]})
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def report(self):
        t = time.monotonic()
        r = self.request("workspace/executeCommand", {"command": "ascend.generateReport", "arguments": [{"format": "json"}]})
        return time.monotonic() - t, r

    def close(self):
        try:
            self.request("shutdown", None, timeout=30)
            self.send({"jsonrpc": "2.0", "method": "exit"})
            self.p.wait(timeout=30)
        except Exception:
            self.p.kill()


def touch_one(project, i):
    """Changes one Python file (appends a comment line); returns an undo."""
    cands = []
    for d, _, fs in os.walk(project):
        cands += [os.path.join(d, f) for f in fs if f.endswith(".py")]
        if len(cands) > 50:
            break
    path = sorted(cands)[i % len(sorted(cands))]
    orig = open(path, "rb").read()
    with open(path, "ab") as f:
        f.write(b"# bench edit %d\n" % i)
    return path, orig


def edit_one(project, i):
    """Changes one Python file's code (a statement at its top, so every later
    line moves and its results change); returns an undo."""
    path, orig = touch_one(project, i)
    open(path, "wb").write(b"import os  # bench edit %d\n" % i + orig)
    return path, orig


def warm_cold(binary, project, runs):
    res = {"method": None}
    # The LSP command first: a long-lived server holds the cache.
    s = Lsp(binary, project)
    try:
        s.init()
        t, r = s.report()
    except Exception as e:
        s.p.kill()
        r = {"error": {"message": str(e)}}
    if "error" in r:
        res["lsp_error"] = r["error"].get("message")
        s.close()
        # fall back to the CLI: one process per run, so nothing can be warm
        res["method"] = "cli report (no long-lived cache in the CLI)"
        cold, warm = [], []
        for i in range(runs):
            t0 = time.monotonic()
            subprocess.run([binary, "report", project, "--no-cache", "--format", "json", "-o", "/dev/null"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cold.append(time.monotonic() - t0)
            path, orig = touch_one(project, i)
            t0 = time.monotonic()
            subprocess.run([binary, "report", project, "--format", "json", "-o", "/dev/null"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            warm.append(time.monotonic() - t0)
            open(path, "wb").write(orig)
        res["cold"] = statistics.median(cold)
        res["warm"] = statistics.median(warm)
        return res
    res["method"] = "ascend.generateReport in one server (content-hash cache)"
    cold = [t]
    warm = []
    for i in range(runs):
        # (no didChangeWatchedFiles: the server only watches its configuration
        # files, and a change there rightly drops the cache)
        path, orig = touch_one(project, i)
        tw, _ = s.report()
        warm.append(tw)
        open(path, "wb").write(orig)
    s.close()
    for _ in range(max(0, min(runs, 3) - 1)):  # more cold runs: fresh servers
        s = Lsp(binary, project)
        s.init()
        tc, _ = s.report()
        cold.append(tc)
        s.close()
    res["cold"] = statistics.median(cold)
    res["warm"] = statistics.median(warm)
    return res


def disk_cache(binary, project, runs, out):
    """`check` through the on-disk cache: a cold run (empty cache folder), a
    second run of the unchanged tree, and a run after one file changed."""
    cache = tempfile.mkdtemp(prefix="asc-bench-cache-", dir=out)
    env = dict(os.environ, ASCEND_LSP_CACHE_DIR=cache)
    env.pop("ASCEND_LSP_NO_CACHE", None)
    cmd = [binary, "check", "--exit-zero", project]
    res = {k: [] for k in ("cold", "warm", "touched", "edited", "cold_cpu", "warm_cpu", "touched_cpu", "edited_cpu")}

    def one(key):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        res[key].append(time.monotonic() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        res[key + "_cpu"].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)

    try:
        for i in range(runs):
            shutil.rmtree(cache, ignore_errors=True)
            one("cold")
            one("warm")
            path, orig = touch_one(project, i)
            one("touched")
            open(path, "wb").write(orig)
            one("warm")  # back to the cached tree
            path, orig = edit_one(project, i)
            one("edited")
            open(path, "wb").write(orig)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return {k: statistics.median(v) for k, v in res.items()}


# ---- project model: an edit of a widely imported module -------------------------------

HUB_USERS = 300
# the same imports and definitions: an edit of a function body, the common case
HUB_HEAD = "import torch.nn.functional as F\nfrom flash_attn import flash_attn_func\n\n\ndef fused_attention(q, k, v):\n"
HUB_CUDA = HUB_HEAD + "    return flash_attn_func(q, k, v)\n"
HUB_PORTABLE = HUB_HEAD + "    return F.scaled_dot_product_attention(q, k, v)\n"
HUB_TAIL = "\n\ndef sdpa_attention(q, k, v):\n    return q @ k.transpose(-1, -2) @ v\n"


def model_project(out, project):
    """The generated project (hard links) plus a package `corelib.hub` whose
    attention.py HUB_USERS modules import (outside src/benchproj: a folder
    named bench... is benchmark code, where call sites are not reported)."""
    d = os.path.join(out, "modelproj")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(project, d, symlinks=True, copy_function=os.link)
    hub = os.path.join(d, "src", "corelib", "hub")
    os.makedirs(os.path.join(hub, "users"))
    open(os.path.join(hub, "__init__.py"), "w").write("")
    open(os.path.join(hub, "users", "__init__.py"), "w").write("")
    open(os.path.join(hub, "attention.py"), "w").write(HUB_CUDA + HUB_TAIL)
    for i in range(HUB_USERS):
        open(os.path.join(hub, "users", "block_%03d.py" % i), "w").write(
            "import torch\n\nfrom corelib.hub.attention import fused_attention\n\n\n"
            "def block_%d(x):\n    q = k = v = torch.relu(x)\n    return fused_attention(q, k, v)\n" % i)
    return d, os.path.join(hub, "attention.py"), os.path.join(hub, "users", "block_000.py")


def model_edit(binary, project, edits):
    """One server without --sync: the time from `initialized` to the end of
    the model build's $/progress (the full build), then `edits` full-text
    edits of the open attention.py that alternately add and remove its
    CUDA-only call; each timed until the open dependent block_000.py is
    re-published with changed diagnostics (its ASC801 appears or goes)."""
    root, hub, dep = model_project(os.path.dirname(project), project)
    hub_uri, dep_uri = "file://" + os.path.abspath(hub), "file://" + os.path.abspath(dep)
    s = Lsp(binary, root)
    res = {"users": HUB_USERS}
    try:
        t0 = time.monotonic()
        s.init()
        built = None
        while built is None:
            m = s.read()
            if "method" in m and "id" in m:
                s.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            elif m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "end":
                built = time.monotonic() - t0
        res["build_s"] = built
        for uri, path in ((dep_uri, dep), (hub_uri, hub)):
            s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "python", "version": 1, "text": open(path).read()}}})
        seen = {}
        while dep_uri not in seen or hub_uri not in seen or not any(d["code"] == "ASC801" for d in seen[dep_uri]):
            m = s.read()
            if m.get("method") == "textDocument/publishDiagnostics":
                seen[m["params"]["uri"]] = m["params"]["diagnostics"]
        lat = []
        for i in range(edits):
            text = (HUB_PORTABLE if i % 2 == 0 else HUB_CUDA) + HUB_TAIL
            t = time.monotonic()
            s.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": hub_uri, "version": i + 2}, "contentChanges": [{"text": text}]}})
            while True:
                m = s.read()
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == dep_uri:
                    has = any(d["code"] == "ASC801" for d in m["params"]["diagnostics"])
                    if has == (i % 2 == 1):
                        break
            lat.append((time.monotonic() - t) * 1e3)
        lat.sort()
        res.update({"edits": edits, "median_ms": statistics.median(lat), "p99_ms": lat[min(len(lat) - 1, int(0.99 * len(lat)))],
                    "max_ms": lat[-1]})
        status = dict(l.split(":", 1) for l in open("/proc/%d/status" % s.p.pid) if ":" in l)
        res["rss_mb"] = int(status["VmRSS"].split()[0]) / 1024
        res["peak_rss_mb"] = int(status["VmHWM"].split()[0]) / 1024
    finally:
        s.close()
        shutil.rmtree(root, ignore_errors=True)
    return res


# ---- main ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--latency", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--repo")
    ap.add_argument("--skip", default="", help="comma list of: throughput,rss,prefilter,latency,report,cache,pathological,model")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    os.makedirs(a.out, exist_ok=True)
    project, lat_files = ensure_generated(a.out, a.repo)
    cores = os.cpu_count() or 1
    R = {"project": project, "cores": cores, "runs": a.runs, "load_before": os.getloadavg()[0]}
    R["list"] = run_kv([a.tool, "list", project])
    mb = R["list"]["bytes"] / 1e6
    nfiles = R["list"]["files"]
    log("%d files, %d lines, %.1f MB in %s; %d cores; load %.2f" % (nfiles, R["list"]["lines"], mb, project, cores,
                                                                   R["load_before"]))

    if "throughput" not in skip:
        log("throughput: check, parse-only and ripgrep, %d interleaved rounds ..." % a.runs)
        cmds = {
            "check-1": [a.bin, "check", "--no-cache", "--threads", "1", "--exit-zero", project],
            "check-all": [a.bin, "check", "--no-cache", "--threads", "0", "--exit-zero", project],
            "parse-1": [a.tool, "parse", "--threads", "1", project],
            "parse-all": [a.tool, "parse", "--threads", "0", project],
            "rg-1": rg_cmd(project, 1),
            "rg-all": rg_cmd(project, 0),
        }
        R["time"] = timed(cmds, a.runs)
        # rg only reads *.py, *.cu, *.cpp: its bytes
        R["rg_bytes"] = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(project) for f in fs
                            if f.endswith((".py", ".cu", ".cpp")))
    if "rss" not in skip:
        log("peak RSS ...")
        R["rss_all_kb"] = peak_rss_kb([a.bin, "check", "--no-cache", "--threads", "0", "--exit-zero", project])
        R["rss_1_kb"] = peak_rss_kb([a.bin, "check", "--no-cache", "--threads", "1", "--exit-zero", project])
        R["rss_parse_kb"] = peak_rss_kb([a.tool, "parse", "--threads", "0", project])
    if "prefilter" not in skip:
        log("prefilter ...")
        p = subprocess.run([a.tool, "prefilter", project], capture_output=True, text=True, check=True)
        R["prefilter"] = kv(p.stdout)
        R["prefilter"]["misses"] = [l.split(None, 1)[1] for l in p.stdout.splitlines() if l.startswith("trigger_miss ")]
    if "latency" not in skip:
        R["latency"] = {}
        for size, f in (("10k", lat_files["10k"]), ("5k", lat_files["5k"])):
            modes = ["char", "line", "import", "string", "char-full", "line-full"] if size == "10k" else ["char", "line"]
            for mode in modes:
                log("latency %s %s, %d edits ..." % (size, mode, a.edits))
                R["latency"]["%s-%s" % (size, mode)] = run_kv([a.latency, a.bin, f, mode, str(a.edits)])
            for mode in ("char", "line", "import") if size == "10k" else ("char", "line"):
                R["latency"]["%s-inproc-%s" % (size, mode)] = run_kv([a.tool, "edit", f, str(min(a.edits, 100)), mode])
        # the same edits with the file's folder as the workspace: the project model is kept up to date too
        for mode in ("char", "line"):
            log("latency 10k %s in a workspace folder, %d edits ..." % (mode, a.edits))
            R["latency"]["10k-ws-%s" % mode] = run_kv([a.latency, a.bin, lat_files["10k"], mode, str(a.edits), "10",
                                                       os.path.dirname(lat_files["10k"])])
    if "report" not in skip:
        log("warm vs cold report ...")
        work = tempfile.mkdtemp(prefix="asc-bench-report-", dir=a.out)
        try:
            dst = os.path.join(work, "project")
            shutil.copytree(project, dst, symlinks=True)
            R["report"] = warm_cold(a.bin, dst, max(3, a.runs))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if "cache" not in skip:
        log("disk cache: cold, warm and one file touched ...")
        R["cache"] = disk_cache(a.bin, project, a.runs, a.out)
    if "pathological" not in skip:
        R["pathological"] = pathological(a)
    if "model" not in skip and not a.repo:
        log("project model: %d edits of a module %d others import ..." % (min(a.edits, 100), HUB_USERS))
        R["model"] = model_edit(a.bin, project, min(a.edits, 100))
    R["load_after"] = os.getloadavg()[0]
    json.dump(R, open(os.path.join(a.out, "results.json"), "w"), indent=1)
    text = table(R, mb, nfiles)
    open(os.path.join(a.out, "results.txt"), "w").write(text)
    print(text)


def table(R, mb, nfiles):
    L = []
    w = L.append
    w("ascend-lsp benchmark: %s" % R["project"])
    w("  %d files, %d lines, %.1f MB; %d cores; medians of %d runs; load average %.2f before, %.2f after%s" %
      (nfiles, R["list"]["lines"], mb, R["cores"], R["runs"], R["load_before"], R["load_after"],
       ", at most %.2f during the scans" % R["time"]["_load_max"] if "time" in R else ""))
    targets = []
    if "time" in R:
        T = R["time"]
        w("")
        w("Workspace scan (wall clock, median)      seconds   MB/s  files/s   CPU s   (runs interleaved)")
        for k, label in (("check-1", "ascend-lsp check, 1 thread"), ("check-all", "ascend-lsp check, all cores"),
                         ("parse-1", "parse-only floor, 1 thread"), ("parse-all", "parse-only floor, all cores"),
                         ("rg-1", "ripgrep seeds' grep list, 1 thread"), ("rg-all", "ripgrep seeds' grep list, all cores")):
            t = T[k]["median"]
            b = R["rg_bytes"] / 1e6 if k.startswith("rg") else mb
            w("  %-38s %8.2f %6.1f %8.0f %7.2f" % (label, t, b / t, nfiles / t, T[k]["user"] + T[k]["system"]))
        c1, ca, p1, pa, r1, ra = (T[k]["median"] for k in ("check-1", "check-all", "parse-1", "parse-all", "rg-1", "rg-all"))
        cpu = lambda k: T[k]["user"] + T[k]["system"]
        w("  ratios: check/parse-only %.2fx (1 thread), %.2fx (all cores); CPU time %.2fx" %
          (c1 / p1, ca / pa, cpu("check-1") / cpu("parse-1")))
        w("          check/ripgrep %.1fx (1 thread), %.1fx (all cores); all-core speed-up: check %.2fx, parse %.2fx, rg %.2fx" %
          (c1 / r1, ca / ra, c1 / ca, p1 / pa, r1 / ra))
        targets.append(("analysis <= 25% over the parse-only floor (1 thread)", "+%.0f%% (%.2f s vs %.2f s)" %
                        ((c1 / p1 - 1) * 100, c1, p1), c1 <= 1.25 * p1))
        targets.append(("check CPU time <= 1.3x the parse-only floor (1 thread)", "%.2fx (%.2f s vs %.2f s)" %
                        (cpu("check-1") / cpu("parse-1"), cpu("check-1"), cpu("parse-1")),
                        cpu("check-1") <= 1.3 * cpu("parse-1")))
        targets.append(("all-core scan >= 1.7x one core (%d cores)" % R["cores"], "%.2fx (%.2f s vs %.2f s)" % (c1 / ca, c1, ca),
                        c1 / ca >= 1.7))
    if "rss_all_kb" in R:
        w("")
        w("Peak RSS (median of 3): check all cores %.0f MB, 1 thread %.0f MB; parse-only %.0f MB" %
          (R["rss_all_kb"] / 1024, R["rss_1_kb"] / 1024, R["rss_parse_kb"] / 1024))
        targets.append(("peak RSS <= 150 MB at %.0fk lines" % (R["list"]["lines"] / 1000), "%.0f MB" % (R["rss_all_kb"] / 1024),
                        R["rss_all_kb"] <= 150 * 1024))
    if "prefilter" in R:
        P = R["prefilter"]
        w("")
        w("Byte-level prefilter (in process, 1 thread)")
        w("  trigger list (%s ...): %d of %d files (%.0f%%, %.1f MB) contain none; analyzing them costs %.2f s of %.2f s"
          " (%.0f%%); scanning every file for the triggers costs %.3f s; findings in them: %d" %
          ("cuda, nccl, flash, xformers, triton, float64, double, compile, jit, complex, __global__, .so", P["trigger_skip_files"],
           P["files"], 100.0 * P["trigger_skip_files"] / max(1, P["files"]), P["trigger_skip_bytes"] / 1e6,
           P["trigger_skip_analysis_seconds"], P["analysis_with_facts_seconds"],
           100.0 * P["trigger_skip_analysis_seconds"] / max(1e-9, P["analysis_with_facts_seconds"]), P["trigger_scan_seconds"],
           P["trigger_skip_findings"]))
        w("  the same list for Python files only: %d of %d Python files (%.1f MB) skippable, %.2f s of analysis (%.0f%%);"
          " findings in them: %d" % (P["trigger_skip_py_files"], P["python_files"], P["trigger_skip_py_bytes"] / 1e6,
                                     P["trigger_skip_py_analysis_seconds"],
                                     100.0 * P["trigger_skip_py_analysis_seconds"] / max(1e-9, P["analysis_with_facts_seconds"]),
                                     P["trigger_skip_py_findings"]))
        w("  extended by cpp_extension, load_inline, .to( (Python files only): %d files (%.1f MB) skippable, %.2f s of analysis"
          " (%.0f%%); findings in them: %d" % (P["trigger2_skip_py_files"], P["trigger2_skip_py_bytes"] / 1e6,
                                               P["trigger2_skip_py_analysis_seconds"],
                                               100.0 * P["trigger2_skip_py_analysis_seconds"] / max(1e-9, P["analysis_with_facts_seconds"]),
                                               P["trigger2_skip_py_findings"]))
        if P["misses"]:
            w("  findings in files without any trigger (the list is not enough for these kinds): %s%s" %
              ("; ".join(P["misses"][:6]), " ..." if len(P["misses"]) > 6 else ""))
        if P["prefilter_available"]:
            w("  analyzer prefilter (%d fragments): skips %d Python files (%.1f MB); they cost %.2f s to analyze, the scan %.3f s;"
              " findings in them: %d" % (P["prefilter_fragments"], P["prefilter_skip_files"], P["prefilter_skip_bytes"] / 1e6,
                                          P["prefilter_skip_analysis_seconds"], P["prefilter_scan_seconds"],
                                          P["prefilter_skip_findings"]))
            w("  analyze_text of every file: %.2f s as the workspace scan calls it (facts wanted: prefilter bypassed),"
              " %.2f s as the server calls it (no facts: prefilter applies)" %
              (P["analysis_with_facts_seconds"], P["analysis_without_facts_seconds"]))
        else:
            w("  no analyzer prefilter in this build")
    if "latency" in R:
        X = R["latency"]
        w("")
        w("didChange -> publishDiagnostics over pipes (--sync), %d edits each   median ms   p99 ms   max ms" % X["10k-char"]["edits"])
        for k, label in (("10k-char", "10,000 lines, 1-char edits, incremental"), ("10k-char-full", "10,000 lines, 1-char edits, full text"),
                         ("10k-line", "10,000 lines, line inserts, incremental"), ("10k-line-full", "10,000 lines, line inserts, full text"),
                         ("10k-import", "10,000 lines, import-block edits, incremental"),
                         ("10k-string", "10,000 lines, string-opening line inserts, incremental"),
                         ("5k-char", "5,000 lines, 1-char edits, incremental"), ("5k-line", "5,000 lines, line inserts, incremental"),
                         ("10k-ws-char", "10,000 lines, 1-char edits, in a workspace folder"),
                         ("10k-ws-line", "10,000 lines, line inserts, in a workspace folder")):
            if k in X:
                w("  %-58s %9.2f %8.2f %8.2f" % (label, X[k]["median_ms"], X[k]["p99_ms"], X[k]["max_ms"]))
        w("  (diagnostics in the 10,000-line file: %s; open + first analysis %.1f ms)" % (X["10k-char"]["open_diagnostics"],
                                                                                          X["10k-char"]["open_ms"]))
        # "one-tree parse": the baseline of a single tree for the file, edited and re-parsed incrementally
        w("In process, per edit (median / p99 ms)   one-tree parse   full parse   analysis only   doc_analyze (incr.)"
          "   full analysis   doc_analyze CPU   full CPU   units re-run / kept")
        for k in ("10k-inproc-char", "10k-inproc-line", "10k-inproc-import", "5k-inproc-char", "5k-inproc-line"):
            if k in X:
                Y = X[k]
                w("  %-38s %6.2f / %-6.2f %6.2f / %-6.2f %6.2f / %-6.2f %6.2f / %-6.2f %6.2f / %-6.2f %6.2f / %-6.2f"
                  " %6.2f / %-6.2f %6.1f / %.1f" % (
                    k.replace("-inproc-", " lines, ").replace("10k", "10,000").replace("5k", "5,000"),
                    Y["parse_incremental_median_ms"], Y["parse_incremental_p99_ms"], Y["parse_full_median_ms"],
                    Y["parse_full_p99_ms"], Y["analyze_only_median_ms"], Y["analyze_only_p99_ms"],
                    Y["doc_analyze_incremental_median_ms"], Y["doc_analyze_incremental_p99_ms"],
                    Y["analyze_full_median_ms"], Y["analyze_full_p99_ms"],
                    Y["doc_analyze_incremental_cpu_median_ms"], Y["doc_analyze_incremental_cpu_p99_ms"],
                    Y["analyze_full_cpu_median_ms"], Y["analyze_full_cpu_p99_ms"],
                    Y["units_ran_mean"], Y["units_reused_mean"]))
        p50 = max(X["10k-char"]["median_ms"], X["10k-line"]["median_ms"])
        targets.append(("p50 didChange->diagnostics <= 2 ms at 10,000 lines (edits in a function)",
                        "%.2f ms (1-char %.2f, line %.2f)" % (p50, X["10k-char"]["median_ms"], X["10k-line"]["median_ms"]),
                        p50 <= 2.0))
        p99 = max(X["10k-char"]["p99_ms"], X["10k-line"]["p99_ms"])
        targets.append(("p99 didChange->diagnostics <= 5 ms at 10,000 lines", "%.2f ms (1-char %.2f, line %.2f)" %
                        (p99, X["10k-char"]["p99_ms"], X["10k-line"]["p99_ms"]), p99 <= 5.0))
        if "10k-import" in X and "10k-char-full" in X:
            imp, full = X["10k-import"]["median_ms"], X["10k-char-full"]["median_ms"]
            targets.append(("import-block edit <= 1.2x a full re-analysis (full-text sync, same run)",
                            "%.2f ms vs %.2f ms (%.2fx)" % (imp, full, imp / max(1e-9, full)), imp <= 1.2 * full))
        if "10k-string" in X and "10k-char-full" in X:
            st, full = X["10k-string"]["median_ms"], X["10k-char-full"]["median_ms"]
            targets.append(("string-opening line insert (the rest of the file re-tokenized) <= 1.2x a full re-analysis",
                            "%.2f ms vs %.2f ms (%.2fx)" % (st, full, st / max(1e-9, full)), st <= 1.2 * full))
    if "cache" in R:
        C = R["cache"]
        w("")
        w("check through the disk cache (median wall / CPU seconds): cold %.2f / %.2f, unchanged tree %.2f / %.2f,"
          " one file touched (a comment appended) %.2f / %.2f, one file's code edited (every line moved) %.2f / %.2f" %
          (C["cold"], C["cold_cpu"], C["warm"], C["warm_cpu"], C["touched"], C["touched_cpu"], C["edited"],
           C["edited_cpu"]))
        targets.append(("second check of an unchanged tree <= 0.5 s", "%.2f s" % C["warm"], C["warm"] <= 0.5))
        targets.append(("check after touching one file <= 0.6 s", "%.2f s" % C["touched"], C["touched"] <= 0.6))
        targets.append(("check after editing one file's code <= 0.6 s", "%.2f s" % C["edited"], C["edited"] <= 0.6))
    if "report" in R:
        W = R["report"]
        w("")
        w("Report after one file changed: %s" % W["method"])
        if W.get("lsp_error"):
            w("  (the server answered ascend.generateReport with: %s)" % W["lsp_error"])
        w("  cold %.2f s, warm %.2f s: warm = %.1f%% of cold" % (W["cold"], W["warm"], 100 * W["warm"] / W["cold"]))
        targets.append(("warm re-report <= 10% of cold", "%.1f%% (%.2f s vs %.2f s)" % (100 * W["warm"] / W["cold"], W["warm"], W["cold"]),
                        W["warm"] <= 0.10 * W["cold"]))
    if "pathological" in R:
        P = R["pathological"]
        w("")
        w("Pathological files (check --format json, median)        N        t(N) s   t(2N) s   t(2N)/t(N)")
        for name, label in (("imports", "lines of `import torch as tN`"), ("one-line-calls", "x `torch.cuda.synchronize();` on one line")):
            X = P[name]
            w("  %-50s %7d %9.2f %9.2f %9.2f" % (label, X["n"], X["t_n"], X["t_2n"], X["ratio"]))
            targets.append(("%s scales linearly (t(2N)/t(N) <= 2.2)" % name, "%.2f" % X["ratio"], X["ratio"] <= 2.2))
        H = P["huge"]
        w("  huge file, %d lines (%.1f MB): %.2f s, peak RSS %.0f MB (parse-only %.0f MB), JSON output %.1f MB" %
          (H["lines"], H["bytes"] / 1e6, H["seconds"], H["rss_kb"] / 1024, H["parse_rss_kb"] / 1024, H["json_bytes"] / 1e6))
        # the syntax tree alone is most of it: the target is relative to the parse-only floor
        targets.append(("huge file: peak RSS <= 1.5x parse-only", "%.0f MB vs %.0f MB" % (H["rss_kb"] / 1024, H["parse_rss_kb"] / 1024),
                        H["rss_kb"] <= 1.5 * H["parse_rss_kb"]))
        targets.append(("huge file: JSON output <= 10 MB", "%.1f MB" % (H["json_bytes"] / 1e6), H["json_bytes"] <= 10e6))
        X = P["republish"]
        w("  40,000-line document, 1-char edits: republish median %.1f ms, p99 %.1f ms (%s diagnostics)" %
          (X["median_ms"], X["p99_ms"], X.get("diagnostics_at_end", "?")))
        targets.append(("40,000-line document: republish p99 <= 500 ms", "%.1f ms" % X["p99_ms"], X["p99_ms"] <= 500))
    if "model" in R:
        X = R["model"]
        w("")
        w("Project model (server, background build): full build %.2f s; an edit of attention.py (%d importers) ->"
          " an open dependent re-published: median %.1f ms, p99 %.1f ms, max %.1f ms (%d edits); median = %.2f%% of the"
          " full build; server RSS %.0f MB after the edits, peak %.0f MB" % (
              X["build_s"], X["users"], X["median_ms"], X["p99_ms"], X["max_ms"], X["edits"],
              100 * X["median_ms"] / 1e3 / X["build_s"], X["rss_mb"], X["peak_rss_mb"]))
        targets.append(("edit of a widely imported module -> dependents <= 50 ms", "%.1f ms (p99 %.1f ms)" %
                        (X["median_ms"], X["p99_ms"]), X["median_ms"] <= 50))
    w("")
    w("Targets")
    for name, val, ok in targets:
        w("  %-58s %-34s %s" % (name, val, "met" if ok else "NOT MET"))
    return "\n".join(L) + "\n"


if __name__ == "__main__":
    sys.exit(main())
