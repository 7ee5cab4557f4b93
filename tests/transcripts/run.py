#!/usr/bin/env python3
"""Transcript tests: drive the real binary over JSON-RPC and compare exact output.

Each cases/NAME.jsonl line is a message to send (JSON), a comment (#...), or
`!raw "<json string>"` to send raw bytes (malformed framing), or
`!body "<json string>"` to send a correctly framed but arbitrary body. The driver sends
messages one by one and, after a request, waits for its response, so output
order is deterministic with --sync. Output messages are written one per line
as canonical JSON (sorted keys) to compare with cases/NAME.out; the workspace
path is replaced by $ROOT and the repository's (where the rule links point:
docs/rules.md beside build/) by $REPO. UPDATE=1 rewrites the goldens. Prints
"transcripts: N passed, N failed".
"""
import json
import os
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "workspace")
REPO = os.path.realpath(os.path.join(HERE, "..", ".."))
BIN = os.path.abspath(os.environ.get("BIN", "build/ascend-lsp"))
TIMEOUT = 20.0


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Reader:
    def __init__(self, fd):
        self.fd = fd
        self.buf = b""
        self.eof = False

    def _fill(self, deadline):
        while not self.eof:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    self.eof = True
                self.buf += chunk
                return True
        return False

    def next(self, deadline):
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                n = int(head.split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            if not self._fill(deadline):
                return None


def load_case(path):
    """Returns (items, sync). `!nosync` runs the server without --sync;
    `!batch` ... `!end` sends the messages between them in one write;
    `!wait N` reads N messages before sending more."""
    items = []
    sync = True
    batch = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        line = line.replace("$ROOT", ROOT)
        if line == "!nosync":
            sync = False
        elif line.startswith("!wait "):
            items.append(("wait", int(line[6:])))
        elif line == "!batch":
            batch = b""
        elif line == "!end":
            items.append(("raw", batch))
            batch = None
        elif batch is not None:
            batch += frame(json.dumps(json.loads(line), ensure_ascii=False).encode("utf-8"))
        elif line.startswith("!body "):
            items.append(("raw", frame(json.loads(line[6:]).encode("utf-8", "surrogateescape"))))
        elif line.startswith("!raw "):
            items.append(("raw", json.loads(line[5:]).encode("utf-8", "surrogateescape")))
        else:
            items.append(("msg", json.loads(line)))
    return items, sync


def intermediate_progress(msg):
    """$/progress reports between begin and end depend on thread timing."""
    return msg.get("method") == "$/progress" and msg.get("params", {}).get("value", {}).get("kind") == "report"


def normalize(msg):
    return json.dumps(msg, sort_keys=True, ensure_ascii=False).replace(ROOT, "$ROOT").replace(REPO, "$REPO")


def run_case(path):
    items, sync = load_case(path)
    proc = subprocess.Popen([BIN, "--sync"] if sync else [BIN, "--stdio"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    reader = Reader(proc.stdout.fileno())
    out = []
    deadline = time.monotonic() + TIMEOUT
    try:
        for kind, item in items:
            if kind == "wait":
                for _ in range(item):
                    m = reader.next(deadline)
                    out.append(normalize(m) if m is not None else "timeout waiting for a message")
                continue
            if kind == "raw":
                proc.stdin.write(item)
                proc.stdin.flush()
                continue
            proc.stdin.write(frame(json.dumps(item, ensure_ascii=False).encode("utf-8")))
            proc.stdin.flush()
            if "id" in item and "method" in item:
                while True:
                    m = reader.next(deadline)
                    if m is None:
                        out.append("timeout waiting for response %r" % (item["id"],))
                        break
                    if not intermediate_progress(m):
                        out.append(normalize(m))
                    if m.get("id") == item["id"] and "method" not in m:
                        break
        proc.stdin.close()
        while True:
            m = reader.next(deadline)
            if m is None:
                break
            if not intermediate_progress(m):
                out.append(normalize(m))
        rc = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    except (BrokenPipeError, subprocess.TimeoutExpired):
        proc.kill()
        rc = proc.wait()
    out.append("exit: %d" % rc)
    return "\n".join(out) + "\n"


def main():
    cases = sorted(f for f in os.listdir(os.path.join(HERE, "cases")) if f.endswith(".jsonl"))
    only = sys.argv[1:] or None
    passed = failed = 0
    for c in cases:
        name = c[:-6]
        if only and name not in only:
            continue
        got = run_case(os.path.join(HERE, "cases", c))
        golden = os.path.join(HERE, "cases", name + ".out")
        if os.environ.get("UPDATE") == "1":
            with open(golden, "w", encoding="utf-8") as f:
                f.write(got)
        want = open(golden, encoding="utf-8").read() if os.path.exists(golden) else ""
        if got == want:
            passed += 1
        else:
            failed += 1
            print("FAIL transcripts/%s" % name)
            import difflib
            for l in list(difflib.unified_diff(want.splitlines(), got.splitlines(), "want", "got", lineterm=""))[:40]:
                print("  " + l[:300])
    print("transcripts: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
