"""A small strict LSP client for the robustness tests: starts the real
binary, writes raw bytes or JSON-RPC messages, and reads framed messages on
a thread so every wait has a timeout. Output that is not a well-formed
frame of valid JSON is recorded as a protocol error (the tests fail on it).
"""
import json
import os
import queue
import subprocess
import threading
import time


class ServerError(AssertionError):
    pass


EOF_MARK = object()  # queued once the server's output ends


class Server:
    def __init__(self, binary, args=("--sync",), cwd=None, env=None, wrapper=()):
        self.p = subprocess.Popen(list(wrapper) + [binary] + list(args), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.q = queue.Queue()
        self.protocol_errors = []
        self.stderr_chunks = []
        self.next_id = 1000
        self.log = []  # every message received, in order
        self.eof = False
        self.threads = [threading.Thread(target=self._read_out, daemon=True),
                        threading.Thread(target=self._read_err, daemon=True)]
        for t in self.threads:
            t.start()

    # ---- transport -------------------------------------------------------------

    def _read_out(self):
        f = self.p.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = f.readline()
                    if not line:
                        self.q.put(EOF_MARK)
                        return
                    if not line.endswith(b"\r\n"):
                        self.protocol_errors.append("header line without CRLF: %r" % line[:80])
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.partition(b":")
                    headers[k.strip().lower()] = v.strip()
                if b"content-length" not in headers:
                    self.protocol_errors.append("frame without Content-Length: %r" % headers)
                    self.q.put(EOF_MARK)
                    return
                n = int(headers[b"content-length"])
                body = f.read(n)
                if len(body) != n:
                    self.protocol_errors.append("truncated frame (%d of %d bytes)" % (len(body), n))
                    self.q.put(EOF_MARK)
                    return
                try:
                    msg = json.loads(body.decode("utf-8"))
                except (ValueError, UnicodeDecodeError) as e:
                    self.protocol_errors.append("invalid JSON from the server: %s: %r" % (e, body[:200]))
                    continue
                if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
                    self.protocol_errors.append("not a JSON-RPC 2.0 object: %r" % body[:200])
                self.log.append(msg)
                self.q.put(msg)
        except Exception as e:  # pragma: no cover
            self.protocol_errors.append("reader: %s" % e)
            self.q.put(EOF_MARK)

    def _read_err(self):
        for chunk in iter(lambda: self.p.stderr.read1(65536) if hasattr(self.p.stderr, "read1") else self.p.stderr.read(4096), b""):
            self.stderr_chunks.append(chunk)

    @property
    def stderr(self):
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")

    def write(self, data):
        try:
            self.p.stdin.write(data)
            self.p.stdin.flush()
            return True
        except (BrokenPipeError, ValueError):
            return False

    def frame(self, body):
        if isinstance(body, str):
            body = body.encode("utf-8")
        return self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send(self, obj):
        return self.frame(json.dumps(obj, ensure_ascii=False))

    def notify(self, method, params=None):
        m = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            m["params"] = params
        return self.send(m)

    def request(self, method, params=None, rid=None):
        if rid is None:
            self.next_id += 1
            rid = self.next_id
        m = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            m["params"] = params
        self.send(m)
        return rid

    def recv(self, timeout=10.0):
        """The next message; None on timeout or once the output has ended."""
        if self.eof:
            return None
        try:
            m = self.q.get(timeout=timeout)
        except queue.Empty:
            return None
        if m is EOF_MARK:
            self.eof = True
            return None
        return m

    def wait(self, pred, timeout=10.0, what="a message"):
        """Returns the first message matching pred; messages before it are
        kept in self.skipped. Raises on EOF or timeout."""
        deadline = time.monotonic() + timeout
        self.skipped = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                extra = ""
                if self.protocol_errors:
                    extra = "; meanwhile the server wrote output that is not valid JSON-RPC: %s" % self.protocol_errors[-2:]
                raise ServerError("timed out after %.0f s waiting for %s%s" % (timeout, what, extra))
            m = self.recv(left)
            if m is None:
                if self.eof:
                    raise ServerError("the server closed its output (exit %s) while waiting for %s; stderr: %s" %
                                      (self.p.poll(), what, self.stderr[-600:]))
                continue
            if pred(m):
                return m
            self.skipped.append(m)

    def response(self, rid, timeout=10.0):
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout, "the response to id %r" % (rid,))

    def publish(self, uri, version=None, timeout=10.0):
        def ok(m):
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            p = m.get("params", {})
            return p.get("uri") == uri and (version is None or p.get("version") == version)
        return self.wait(ok, timeout, "publishDiagnostics of %s version %s" % (uri, version))["params"]

    def close_input(self):
        try:
            self.p.stdin.close()
        except Exception:
            pass

    def exit_code(self, timeout=10.0):
        try:
            rc = self.p.wait(timeout=timeout)
            for t in self.threads:  # everything it wrote has been read
                t.join(timeout=5)
            return rc
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            raise ServerError("the server did not exit within %.0f s" % timeout)

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()

    # ---- lifecycle helpers -----------------------------------------------------

    def initialize(self, root=None, encodings=None, caps=None, options=None):
        params = {"processId": os.getpid(), "rootUri": ("file://" + root) if root else None,
                  "capabilities": caps or {}}
        if options is not None:
            params["initializationOptions"] = options
        if encodings:
            params["capabilities"].setdefault("general", {})["positionEncodings"] = encodings
        if root:
            params["workspaceFolders"] = [{"uri": "file://" + root, "name": os.path.basename(root)}]
        rid = self.request("initialize", params)
        r = self.response(rid)
        if "result" not in r:
            raise ServerError("initialize failed: %r" % r)
        self.notify("initialized", {})
        return r["result"]

    def shutdown_exit(self):
        rid = self.request("shutdown")
        r = self.response(rid)
        if r.get("result", "missing") is not None:
            raise ServerError("shutdown answered %r" % r)
        self.notify("exit")
        return self.exit_code()
