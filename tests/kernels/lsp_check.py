#!/usr/bin/env python3
"""Editor path check: every served file of the cuda-ext fixture is opened in
the language server, and the ASC1xx/ASC4xx diagnostics it publishes must be
exactly the findings `check` of the directory reports for that file (same
lines and codes, and the same related locations: the sites folded into a
finding are its relatedInformation, those of other files too). The folds
across files (a kernel family's instantiation files, headers that are
internals of a kernel) come from the server's workspace build, which runs
inline after `initialized` with --sync.

usage: lsp_check.py BIN FIXTURE CHECK_JSON

Prints one line per file ("ok FILE" or "FAIL FILE: ..."); exit status 0.
"""
import json
import os
import select
import subprocess
import sys
import time

PREFIXES = ("ASC1", "ASC4")
TIMEOUT = 20.0
# The document kinds the server serves (the .so is only read by workspace scans).
SERVED = (".py", ".txt", ".toml", ".cfg", ".yml", ".cu", ".cuh", ".cpp", ".h")


def frame(msg):
    body = json.dumps(msg).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(fd, buf, deadline):
    while True:
        head, sep, rest = buf[0].partition(b"\r\n\r\n")
        if sep:
            n = int(head.split(b":")[1])
            if len(rest) >= n:
                buf[0] = rest[n:]
                return json.loads(rest[:n])
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return None
        buf[0] += chunk


def main():
    binary, fixture, check_json = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    root = os.path.abspath(fixture)
    expected = {}
    found = json.load(open(check_json, encoding="utf-8"))["findings"]
    for f in found:
        # `file` is relative to the scanned root (or, in older builds, to the current directory)
        rel = f["file"] if os.path.exists(os.path.join(root, f["file"])) else \
            os.path.relpath(os.path.abspath(f["file"]), root)
        if f["code"].startswith(PREFIXES):
            related = tuple(sorted((r["line"], r["message"]) for r in f.get("related", [])))
            expected.setdefault(rel, set()).add((f["line"], f["code"], related))
    files = []
    for d, _, names in os.walk(root):
        files += [os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(SERVED)]
    proc = subprocess.Popen([binary, "--sync"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=root)
    buf = [b""]
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + TIMEOUT
    proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}}))
    proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    proc.stdin.flush()
    while True:
        m = read_message(fd, buf, deadline)
        if m is None or m.get("id") == 1:
            break
    for rel in sorted(files):
        uri = "file://" + os.path.join(root, rel)
        text = open(os.path.join(root, rel), encoding="utf-8").read()
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                "params": {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1,
                                                            "text": text}}}))
        proc.stdin.flush()
        got = None
        while got is None:
            m = read_message(fd, buf, deadline)
            if m is None:
                break
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                got = {(d["range"]["start"]["line"] + 1, d["code"],
                        tuple(sorted((r["location"]["range"]["start"]["line"] + 1, r["message"])
                                     for r in d.get("relatedInformation", []))))
                       for d in m["params"]["diagnostics"] if str(d.get("code", "")).startswith(PREFIXES)}
        want = expected.get(rel, set())
        if got is None:
            print("FAIL %s: no diagnostics published" % rel)
        elif got != want:
            print("FAIL %s: missing %s, extra %s" % (rel, sorted(want - got), sorted(got - want)))
        else:
            print("ok %s (%d)" % (rel, len(got)))
    proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    proc.stdin.close()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()


if __name__ == "__main__":
    main()
