#!/usr/bin/env python3
"""Writes the language server's report of a folder: starts BIN, opens the
folder as the workspace, runs `ascend.generateReport` with the given format
and output file, and shuts down. Exits non-zero when the command fails.

usage: lsp-report.py BIN FOLDER FORMAT OUTPUT
"""
import json
import os
import select
import subprocess
import sys
import time


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def responses(fd, want, deadline):
    """Reads messages until the response with id `want` (returned)."""
    buf = b""
    while time.monotonic() < deadline:
        head, sep, rest = buf.partition(b"\r\n\r\n")
        if sep:
            n = int(head.split(b":")[1])
            if len(rest) >= n:
                buf = rest[n:]
                msg = json.loads(rest[:n])
                if msg.get("id") == want and "method" not in msg:
                    return msg
                continue
        r, _, _ = select.select([fd], [], [], 1.0)
        if r:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            buf += chunk
    return None


def main():
    bin_, folder, fmt, output = sys.argv[1:5]
    root = os.path.realpath(folder)
    p = subprocess.Popen([bin_], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    send = lambda m: (p.stdin.write(frame(m)), p.stdin.flush())
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}})
    ok = responses(p.stdout.fileno(), 1, deadline) is not None
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
          "params": {"command": "ascend.generateReport",
                     "arguments": [{"format": fmt, "output": os.path.abspath(output)}]}})
    answer = responses(p.stdout.fileno(), 2, deadline)
    ok = ok and answer is not None and "result" in answer
    if answer is not None and "error" in answer:
        print(answer["error"], file=sys.stderr)
    send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    responses(p.stdout.fileno(), 3, deadline)
    send({"jsonrpc": "2.0", "method": "exit"})
    p.stdin.close()
    ok = p.wait(timeout=10) == 0 and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
