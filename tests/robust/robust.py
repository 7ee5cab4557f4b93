#!/usr/bin/env python3
"""The bad-input catalogue, driven against the real binary ($BIN).

Each test starts its own server (`--sync`, so the server analyzes right
after each message and every wait is deterministic), sends one kind of bad
input, asserts the exact answer (error code, log line, exit status), then
asserts that the server keeps serving and has lost no document state:
`expect_state` makes the server re-publish a document and compares its
diagnostics with those of a fresh didOpen of the text the client believes
the document holds. Every test also fails when the server's output is not
well-formed JSON-RPC or its stderr carries a sanitizer report.

usage: robust.py [NAME-SUBSTRING...]   (BIN, VALGRIND=0 to skip memcheck)
Prints `ok`/`FAIL`/`skip` per test and ends with `robust: N passed, N failed`.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server, ServerError  # noqa: E402

BIN = os.environ.get("BIN", "build/ascend-lsp")
TESTS = []
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer",
                   "ThreadSanitizer", "MemorySanitizer")


class Skip(Exception):
    pass


def test(fn):
    TESTS.append(fn)
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


# A document with two findings: ASC201 on line 3, ASC203 on line 4.
DOC = "import torch\n\n\ndef f(x):\n    torch.cuda.synchronize()\n    return x.cuda()\n"
DOC_URI = "file:///w/pkg/train.py"


def started(**kw):
    s = Server(BIN, **kw)
    s.initialize()
    return s


def open_doc(s, uri, text, version=1, lang="python"):
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": version, "text": text}})
    return s.publish(uri, version, timeout=60)["diagnostics"]


def change(s, uri, version, changes):
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})


def rng(l1, c1, l2, c2):
    return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}


def summary(diags):
    return sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                   d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in diags)


_probe = [0]


def expect_state(s, uri, text, version, timeout=20):
    """The server still holds `text` for `uri`: an empty edit at (0, 0)
    makes it re-publish, and the diagnostics equal a fresh open of `text`
    (under the same file name, so path-dependent rules agree). Also checks a
    request is answered. Returns the next version."""
    version += 1
    change(s, uri, version, [{"range": rng(0, 0, 0, 0), "text": ""}])
    got = s.publish(uri, version, timeout=timeout)["diagnostics"]
    _probe[0] += 1
    puri = "file:///probe%d/%s" % (_probe[0], uri.rsplit("/", 1)[-1])
    want = open_doc(s, puri, text)
    s.notify("textDocument/didClose", {"textDocument": {"uri": puri}})
    check(summary(got) == summary(want),
          "document state lost: the server's diagnostics for %s\n      %s\n    differ from a fresh open of the "
          "client's text\n      %s" % (uri, summary(got), summary(want)))
    rid = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    r = s.response(rid)
    check("result" in r, "hover after the bad input failed: %r" % r)
    return version


def alive(s):
    """A request is answered (and a document round trip works)."""
    uri = "file:///alive/check.py"
    d = open_doc(s, uri, DOC)
    check(len(d) == 2, "a fresh document gave %d diagnostics, want 2: %r" % (len(d), summary(d)))
    s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def error_of(m):
    check("error" in m, "expected an error response, got %r" % m)
    return m["error"]["code"]


def wait_error(s, rid_or_none, timeout=10):
    if rid_or_none is None:
        return s.wait(lambda m: "error" in m and m.get("id") is None, timeout, "an error response with id null")
    return s.response(rid_or_none, timeout)


def wait_log(s, needle, timeout=10):
    m = s.wait(lambda m: m.get("method") == "window/logMessage" and needle in m["params"]["message"], timeout,
               "a window/logMessage containing %r" % needle)
    return m["params"]["message"]


# ---- JSON-RPC error classes ------------------------------------------------------------


@test
def rpc_parse_error():
    s = started()
    v = 1
    open_doc(s, DOC_URI, DOC)
    s.frame('{"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {')
    check(error_of(wait_error(s, None)) == -32700, "want -32700")
    s.frame(b'{"jsonrpc":"2.0","id":4,"method":"shutdown"} trailing')
    check(error_of(wait_error(s, None)) == -32700, "trailing bytes: want -32700")
    s.frame(b"")
    check(error_of(wait_error(s, None)) == -32700, "empty body: want -32700")
    expect_state(s, DOC_URI, DOC, v)
    return s


@test
def rpc_invalid_request_batch():
    s = started()
    open_doc(s, DOC_URI, DOC)
    s.frame('[{"jsonrpc":"2.0","id":1,"method":"shutdown"},{"jsonrpc":"2.0","method":"exit"}]')
    m = wait_error(s, None)
    check(error_of(m) == -32600, "batch: want -32600, got %r" % m)
    # the batch's shutdown/exit were not executed: still running
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_invalid_request_version():
    s = started()
    open_doc(s, DOC_URI, DOC)
    s.frame('{"jsonrpc":"1.0","id":5,"method":"textDocument/hover","params":{}}')
    check(error_of(s.response(5)) == -32600, "jsonrpc 1.0: want -32600")
    s.frame('{"id":6,"method":"textDocument/hover","params":{}}')
    check(error_of(s.response(6)) == -32600, "missing jsonrpc: want -32600")
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_invalid_request_method_type():
    s = started()
    open_doc(s, DOC_URI, DOC)
    s.frame('{"jsonrpc":"2.0","id":7,"method":42,"params":{}}')
    check(error_of(s.response(7)) == -32600, "numeric method: want -32600")
    s.frame('{"jsonrpc":"2.0","id":8,"method":"' + "x" * 5000 + '"}')
    check(error_of(s.response(8)) == -32600, "5,000-byte method name: want -32600")
    s.frame('{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":"str"}')
    check(error_of(s.response(9)) == -32600, "string params: want -32600")
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_invalid_request_id_type():
    s = started()
    open_doc(s, DOC_URI, DOC)
    for bad in ('{"a":1}', "[1]", "true", "1.5"):
        s.frame('{"jsonrpc":"2.0","id":%s,"method":"textDocument/hover","params":{}}' % bad)
        m = wait_error(s, None)
        check(error_of(m) == -32600, "id %s: want -32600 with id null, got %r" % (bad, m))
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_method_not_found():
    s = started()
    open_doc(s, DOC_URI, DOC)
    rid = s.request("textDocument/definition", {"textDocument": {"uri": DOC_URI}, "position": {"line": 0, "character": 0}})
    check(error_of(s.response(rid)) == -32601, "unknown request: want -32601")
    # unknown notifications and $/ methods are ignored: the next answer is the next request's
    s.notify("custom/whatever", {})
    s.notify("$/setTrace", {"value": "off"})
    rid = s.request("$/unknownRequest", {})
    m = s.response(rid)
    check(error_of(m) == -32601, "unknown $/ request: want -32601")
    check(not [x for x in s.skipped if "id" in x], "unknown notifications were answered: %r" % s.skipped)
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_invalid_params():
    s = started()
    open_doc(s, DOC_URI, DOC)
    rid = s.request("textDocument/hover", {"textDocument": {"uri": DOC_URI}})
    check(error_of(s.response(rid)) == -32602, "hover without position: want -32602")
    rid = s.request("textDocument/codeAction", {"textDocument": {}})
    check(error_of(s.response(rid)) == -32602, "codeAction without uri/range: want -32602")
    rid = s.request("workspace/executeCommand", {})
    check(error_of(s.response(rid)) == -32602, "executeCommand without command: want -32602")
    rid = s.request("workspace/executeCommand", {"command": "ascend.fixAll", "arguments": ["file:///not/open.py"]})
    check(error_of(s.response(rid)) == -32602, "fixAll of a closed document: want -32602")
    rid = s.request("textDocument/hover", [1, 2, 3])
    check(error_of(s.response(rid)) == -32602, "hover with array params: want -32602")
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_before_initialize():
    s = Server(BIN)
    rid = s.request("textDocument/hover", {"textDocument": {"uri": DOC_URI}, "position": {"line": 0, "character": 0}})
    check(error_of(s.response(rid)) == -32002, "request before initialize: want -32002")
    rid = s.request("shutdown")
    check(error_of(s.response(rid)) == -32002, "shutdown before initialize: want -32002")
    # notifications before initialize are dropped: this document is never opened
    s.notify("textDocument/didOpen", {"textDocument": {"uri": DOC_URI, "languageId": "python", "version": 1, "text": DOC}})
    rid = s.request("initialize", "not an object")
    check(error_of(s.response(rid)) == -32600, "initialize with string params: want -32600 (params must be structured)")
    rid = s.request("initialize", [1, 2])
    check(error_of(s.response(rid)) == -32602, "initialize with array params: want -32602")
    s.initialize()
    check(not any(m.get("method") == "textDocument/publishDiagnostics" for m in s.log),
          "a didOpen sent before initialize was served")
    rid = s.request("initialize", {"capabilities": {}})
    check(error_of(s.response(rid)) == -32600, "second initialize: want -32600")
    open_doc(s, DOC_URI, DOC)
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def rpc_after_shutdown():
    s = started()
    open_doc(s, DOC_URI, DOC)
    rid = s.request("shutdown")
    check(s.response(rid).get("result", "x") is None, "shutdown: want result null")
    rid = s.request("textDocument/hover", {"textDocument": {"uri": DOC_URI}, "position": {"line": 0, "character": 0}})
    check(error_of(s.response(rid)) == -32600, "request after shutdown: want -32600")
    rid = s.request("shutdown")
    check(error_of(s.response(rid)) == -32600, "second shutdown: want -32600")
    change(s, DOC_URI, 2, [{"text": "x = 1\n"}])  # ignored, not answered
    s.notify("exit")
    rc = s.exit_code()
    check(rc == 0, "exit after shutdown: want exit status 0, got %s" % rc)
    check(not [m for m in s.log if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 2],
          "a didChange after shutdown was analyzed")
    return s


@test
def exit_codes():
    s = started()
    s.notify("exit")
    rc = s.exit_code()
    check(rc == 1, "exit without shutdown: want 1, got %s" % rc)
    s2 = started()
    s2.close_input()
    rc = s2.exit_code()
    check(rc == 1, "end of input without shutdown: want 1, got %s" % rc)
    s3 = started()
    rid = s3.request("shutdown")
    s3.response(rid)
    s3.close_input()
    rc = s3.exit_code()
    check(rc == 0, "end of input after shutdown: want 0, got %s" % rc)
    s4 = started()
    check(s4.shutdown_exit() == 0, "shutdown + exit: want 0")
    s5 = Server(BIN)
    s5.notify("exit")
    check(s5.exit_code() == 1, "exit before initialize: want 1")
    for x in (s2, s3, s4, s5):
        sanitizer_clean(x)
    return s


# ---- framing ---------------------------------------------------------------------------


def framing_case(header, needle, body=b""):
    """A malformed header block (optionally followed by the bytes of the body
    a client meant to send), then normal traffic: the error is logged, and
    the server answers the requests that follow."""
    s = started()
    open_doc(s, DOC_URI, DOC)
    s.write(header + body)
    wait_log(s, needle)
    v = expect_state(s, DOC_URI, DOC, 1, timeout=5)
    change(s, DOC_URI, v + 1, [{"range": rng(0, 0, 0, 0), "text": "import os\n"}])
    s.publish(DOC_URI, v + 1, timeout=5)
    expect_state(s, DOC_URI, "import os\n" + DOC, v + 1)
    return s


@test
def framing_content_length_missing():
    return framing_case(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n", "missing Content-Length")


@test
def framing_content_length_missing_with_body():
    return framing_case(b"Content-Type: application/json\r\n\r\n", "missing Content-Length",
                        b'{"jsonrpc":"2.0","method":"initialized","params":{}}')


@test
def framing_content_length_negative():
    return framing_case(b"Content-Length: -5\r\n\r\n", "negative Content-Length")


@test
def framing_content_length_negative_with_body():
    return framing_case(b"Content-Length: -2\r\n\r\n", "negative Content-Length", b"{}")


@test
def framing_content_length_overflowing():
    return framing_case(b"Content-Length: 99999999999999999999999999\r\n\r\n", "overflows")


@test
def framing_content_length_not_a_number():
    return framing_case(b"Content-Length: 12abc\r\n\r\n", "trailing garbage")


@test
def framing_headers_without_crlf():
    return framing_case(b"Content-Length: 2\n\n", "bare \\n")


@test
def framing_headers_without_crlf_with_body():
    return framing_case(b"Content-Length: 2\n\n", "bare \\n", b"{}")


@test
def framing_header_block_too_long():
    # 10 KiB of header lines without the blank line: dropped, then in sync again
    return framing_case(b"X-Junk: " + b"a" * 10240, "header block longer than")


def over_limit(total, head, chunk=1 << 20):
    """A message over the 64 MiB limit is skipped as it arrives (it used to
    end the session): a request gets an error with its id, a notification a
    log line, and the next message is served."""
    s = started()
    open_doc(s, DOC_URI, DOC)
    s.write(b"Content-Length: %d\r\n\r\n" % total + head)
    t0 = time.monotonic()
    sent = len(head)
    pad = b" " * chunk
    while sent < total and s.p.poll() is None:
        n = min(chunk, total - sent)
        if not s.write(pad[:n]):
            break
        sent += n
    check(s.p.poll() is None, "the server died on a %d-byte message: exit %s" % (total, s.p.poll()))
    check(time.monotonic() - t0 < 60, "skipping %d bytes took %.0f s" % (total, time.monotonic() - t0))
    return s


@test
def framing_request_over_limit():
    s = over_limit(70 << 20, b'{"jsonrpc":"2.0","id":77,"method":"textDocument/hover","params":{"x":"')
    m = s.response(77, timeout=30)
    check(error_of(m) == -32600 and m["error"]["message"] ==
          "textDocument/hover: Content-Length %d exceeds the limit of 67108864 bytes; skipped" % (70 << 20),
          "a 70 MB request: want error -32600 naming it, got %r" % m)
    expect_state(s, DOC_URI, DOC, 1)
    check(s.shutdown_exit() == 0, "exit status after shutdown")
    return s


@test
def framing_notification_100mb():
    s = over_limit(100 << 20, b'{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"' +
                   DOC_URI.encode() + b'","version":2},"contentChanges":[{"text":"')
    msg = wait_log(s, "exceeds the limit")
    check(msg == "ascend-lsp: textDocument/didChange: Content-Length %d exceeds the limit of 67108864 bytes; skipped"
          " (the document's text here is out of date: close and reopen it)" % (100 << 20), "the log line: %r" % msg)
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def framing_content_length_over_limit_without_id():
    s = over_limit((64 << 20) + 1, b"[1,2,3]")
    wait_log(s, "a message: Content-Length 67108865 exceeds the limit")
    alive(s)
    return s


@test
def framing_split_and_merged():
    """Messages split into 1-byte writes and several merged in one write."""
    s = started()
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                       "params": {"textDocument": {"uri": DOC_URI, "languageId": "python", "version": 1, "text": DOC}}}).encode()
    msg = b"Content-Length: %d\r\n\r\n" % len(body) + body
    for i in range(len(msg)):
        s.write(msg[i:i + 1])
    s.publish(DOC_URI, 1)
    reqs = b""
    for rid in (41, 42, 43):
        b = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "textDocument/hover",
                        "params": {"textDocument": {"uri": DOC_URI}, "position": {"line": 4, "character": 12}}}).encode()
        reqs += b"content-length:%d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" % len(b) + b
    s.write(reqs)
    for rid in (41, 42, 43):
        check("result" in s.response(rid), "merged request %d not answered" % rid)
    expect_state(s, DOC_URI, DOC, 1)
    return s


# ---- document text ---------------------------------------------------------------------


@test
def text_invalid_utf8():
    s = started()
    open_doc(s, DOC_URI, DOC)
    bad_uri = "file:///w/pkg/bad.py"
    text = b"import torch\nx = '\xff\xfe\xc3'\ntorch.cuda.synchronize()\n"
    body = b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"%s","languageId":"python","version":1,"text":"%s"}}}' % (
        bad_uri.encode(), text.replace(b"\n", b"\\n"))
    s.frame(body)
    d = s.publish(bad_uri, 1)["diagnostics"]
    check([x["code"] for x in d] == ["ASC201"], "invalid UTF-8 line: want ASC201 on line 2, got %r" % summary(d))
    check(d[0]["range"]["start"]["line"] == 2, "wrong line %r" % d[0])
    # Invalid UTF-8 outside document text, echoed back: the server may
    # reject the message (-32700) or answer, but what it writes must stay
    # valid JSON (RFC 8259 requires UTF-8), or the client cannot read it.
    s.frame(b'{"jsonrpc":"2.0","id":61,"method":"text\xffDocument/hover","params":{}}')
    m = s.wait(lambda m: m.get("id") in (61, None) and "method" not in m, 5, "an answer to a method name with invalid UTF-8")
    check(error_of(m) in (-32601, -32700), "invalid UTF-8 method: want -32601 or -32700, got %r" % m)
    s.frame(b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/\xfe.py",'
            b'"languageId":"python","version":1,"text":"import torch\\ntorch.cuda.synchronize()\\n"}}}')
    rid = s.request("textDocument/hover", {"textDocument": {"uri": DOC_URI}, "position": {"line": 0, "character": 0}})
    s.response(rid)
    check(not s.protocol_errors, "the server wrote invalid JSON (invalid UTF-8 echoed from the input): %s" % s.protocol_errors[:2])
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def text_nul_bytes():
    """U+0000 is a valid JSON string character and may sit in a document.
    The document is analyzed as binary (no findings) while it holds a NUL;
    once the client deletes the NUL the server must hold the whole text."""
    s = started()
    uri = "file:///w/pkg/nul.py"
    text = "a\u0000b\nimport torch\ntorch.cuda.synchronize()\n"
    d = open_doc(s, uri, text)
    check(d == [], "a document with a NUL byte: want no diagnostics (binary), got %r" % summary(d))
    change(s, uri, 2, [{"range": rng(0, 1, 0, 2), "text": ""}])  # delete the NUL
    s.publish(uri, 2)
    expect_state(s, uri, "ab\nimport torch\ntorch.cuda.synchronize()\n", 2)
    return s


@test
def text_lone_surrogates():
    """A lone surrogate escape is not valid JSON text for cJSON: -32700, and
    the server goes on. Positions that fall between the halves of a
    surrogate pair snap to the start of the character."""
    s = started()
    open_doc(s, DOC_URI, DOC)
    s.frame('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/s.py",'
            '"languageId":"python","version":1,"text":"x = \\"\\ud800\\"\\n"}}}')
    check(error_of(wait_error(s, None)) == -32700, "lone high surrogate: want -32700")
    s.frame('{"jsonrpc":"2.0","id":71,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/\\udc00.py"},'
            '"position":{"line":0,"character":0}}}')
    check(error_of(wait_error(s, None)) == -32700, "lone low surrogate: want -32700")
    uri = "file:///w/pkg/emoji.py"
    text = "s = '\U0001F600\U0001F600'\nimport torch\ntorch.cuda.synchronize()\n"
    open_doc(s, uri, text)
    # character 6 is between the halves of the first emoji (UTF-16: s = ' is 5 units, emoji 2)
    change(s, uri, 2, [{"range": rng(0, 6, 0, 6), "text": "X"}])
    s.publish(uri, 2)
    text = "s = 'X\U0001F600\U0001F600'\nimport torch\ntorch.cuda.synchronize()\n"
    # a range whose both ends are inside surrogate pairs: [start of 1st emoji, start of 2nd)
    change(s, uri, 3, [{"range": rng(0, 7, 0, 9), "text": ""}])
    s.publish(uri, 3)
    text = "s = 'X\U0001F600'\nimport torch\ntorch.cuda.synchronize()\n"
    v = expect_state(s, uri, text, 3)
    # move the finding: diagnostics must follow
    change(s, uri, v + 1, [{"range": rng(0, 0, 0, 0), "text": "\n"}])
    check([x["range"]["start"]["line"] for x in s.publish(uri, v + 1)["diagnostics"]] == [3], "finding did not move to line 3")
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def text_positions_past_end():
    s = started()
    uri = DOC_URI
    open_doc(s, uri, DOC)
    text = DOC
    # a character past the end of line 0 means its end
    change(s, uri, 2, [{"range": rng(0, 500, 0, 9999), "text": "  # x"}])
    s.publish(uri, 2)
    text = "import torch  # x\n" + DOC.split("\n", 1)[1]
    # a line past the end means the end of the document
    change(s, uri, 3, [{"range": rng(999, 0, 1000, 3), "text": "torch.cuda.empty_cache()\n"}])
    d = s.publish(uri, 3)["diagnostics"]
    text += "torch.cuda.empty_cache()\n"
    check(any(x["range"]["start"]["line"] == 6 for x in d), "text appended past the end not analyzed: %r" % summary(d))
    # a reversed range is accepted as [end, start)
    change(s, uri, 4, [{"range": rng(6, 5, 6, 0), "text": ""}])
    s.publish(uri, 4)
    text = text.replace("torch.cuda.empty_cache()\n", ".cuda.empty_cache()\n")
    # huge numbers
    change(s, uri, 5, [{"range": rng(2 ** 53, 2 ** 31, 2 ** 53, 2 ** 40), "text": "# end\n"}])
    s.publish(uri, 5)
    text += "# end\n"
    # negative and non-integer positions are malformed: the change is skipped (logged)
    change(s, uri, 6, [{"range": rng(-1, 0, 0, 0), "text": "BAD"}, {"range": rng(0, "a", 0, 0), "text": "BAD"}])
    s.publish(uri, 6)
    wait_log_any = [m for m in s.log if m.get("method") == "window/logMessage" and "malformed range" in m["params"]["message"]]
    check(len(wait_log_any) >= 1, "malformed ranges were not reported")
    expect_state(s, uri, text, 6)
    return s


@test
def text_crlf_and_lone_cr():
    s = started()
    uri = DOC_URI
    text = "import torch\r\n\r\ndef f(x):\r    torch.cuda.synchronize()\r\n    return x.cuda()\r"
    d = open_doc(s, uri, text)
    check(summary(d) == [("ASC201", 3, 4, 3, 26), ("ASC203", 4, 13, 4, 19)],
          "CRLF/CR line breaks: wrong positions %r" % summary(d))
    # an edit across a CRLF pair and at the end of a CR-terminated line
    change(s, uri, 2, [{"range": rng(0, 12, 1, 0), "text": "\n"}, {"range": rng(2, 9, 3, 0), "text": "\r\n"}])
    s.publish(uri, 2)
    text = "import torch\n\r\ndef f(x):\r\n    torch.cuda.synchronize()\r\n    return x.cuda()\r"
    # a position "between" \r and \n is the end of that line
    change(s, uri, 3, [{"range": rng(3, 100, 3, 100), "text": "  # sync"}])
    s.publish(uri, 3)
    text = text.replace("synchronize()\r\n", "synchronize()  # sync\r\n")
    expect_state(s, uri, text, 3)
    return s


@test
def text_lone_cr_is_a_line_break():
    """Python breaks lines at a lone CR; the grammar did not, so the call
    after one was neither reported nor fixed."""
    text = "import torch\nx = torch.randn(3).cuda()\rtorch.cuda.synchronize()\n"
    s = started()
    d = open_doc(s, "file:///w/cr/m.py", text)
    mine = [x for x in summary(d) if x[0] in ("ASC201", "ASC203")]  # other rules may see the .cuda() call too
    check(mine == [("ASC201", 2, 0, 2, 22), ("ASC203", 1, 19, 1, 25)], "server: %r" % summary(d))
    d = open_doc(s, "file:///w/cr/k.cu", "#include <cuda_runtime.h>\rvoid f() { float* p; cudaMalloc(&p, 4); }\n", lang="cuda")
    check(any(x["code"].startswith("ASC4") and x["range"]["start"]["line"] == 1 for x in d),
          "server, CUDA after a lone CR: %r" % summary(d))
    root = tempfile.mkdtemp(prefix="asc-cr-")
    try:
        path = os.path.join(root, "m.py")
        with open(path, "wb") as f:
            f.write(b"import torch\nx = torch.randn(3).cuda()\rtorch.cuda.synchronize()\n")
        p = subprocess.run([os.path.abspath(BIN), "check", "m.py"], capture_output=True, text=True, cwd=root, timeout=60)
        check("m.py:2:20: warning: ASC203 CUDA-only call .cuda(); on Ascend use .npu()\n"
              "m.py:3:1: warning: ASC201 CUDA-only API torch.cuda.synchronize; on Ascend use "
              "torch.npu.synchronize\n" in p.stdout, "check: %r" % p.stdout)
        p = subprocess.run([os.path.abspath(BIN), "fix", "m.py"], capture_output=True, text=True, cwd=root, timeout=60)
        got = open(path, "rb").read()
        check(got == b"import torch\nimport torch_npu\nx = torch.randn(3).npu()\rtorch.npu.synchronize()\n",
              "fix: %r (%s)" % (got, p.stdout))
    finally:
        shutil.rmtree(root)
    return s


@test
def text_million_character_line():
    s = started()
    uri = "file:///w/pkg/long.py"
    line = "x = '" + "a" * 1000000 + "'"
    text = "import torch\n" + line + "\ntorch.cuda.synchronize()\n"
    t0 = time.monotonic()
    d = open_doc(s, uri, text)
    check([x["code"] for x in d] == ["ASC201"], "1M-character line: want ASC201, got %r" % summary(d))
    check(d[0]["range"]["start"]["line"] == 2, "wrong line")
    # edit at the far end of the long line (UTF-16 column 1,000,006)
    change(s, uri, 2, [{"range": rng(1, 1000006, 1, 1000006), "text": "; y = torch.cuda.current_device()"}])
    d = s.publish(uri, 2, timeout=60)["diagnostics"]
    check(any(x["range"]["start"]["line"] == 1 and x["range"]["start"]["character"] > 1000000 for x in d),
          "finding at the end of the 1M-character line missing: %r" % summary(d))
    text = "import torch\n" + line + "; y = torch.cuda.current_device()\ntorch.cuda.synchronize()\n"
    expect_state(s, uri, text, 2)
    check(time.monotonic() - t0 < 60, "1M-character line took %.0f s" % (time.monotonic() - t0))
    return s


@test
def text_nested_10000_deep():
    s = started()
    cases = {
        "parens.py": "import torch\nx = " + "(" * 10000 + "torch.cuda.synchronize()" + ")" * 10000 + "\n",
        "lists.py": "import torch\nx = " + "[" * 10000 + "1" + "]" * 10000 + "\ntorch.cuda.synchronize()\n",
        "calls.py": "import torch\nx = " + "f(" * 10000 + "torch.cuda.synchronize()" + ")" * 10000 + "\n",
        "binops.py": "import torch\nx = 1" + " + 1" * 10000 + "\ntorch.cuda.synchronize()\n",
        "unclosed.py": "import torch\nx = " + "(" * 10000 + "\ntorch.cuda.synchronize()\n",
        "ifs.py": "import torch\n" + "".join(" " * i + "if x:\n" for i in range(2000)) + " " * 2000 + "torch.cuda.synchronize()\n",
    }
    for name, text in cases.items():
        uri = "file:///w/deep/" + name
        d = open_doc(s, uri, text)
        check(s.p.poll() is None, "%s: the server died" % name)
        if name != "unclosed.py":
            check(any(x["code"] == "ASC201" for x in d), "%s: the finding inside/after the nesting is missing: %r" % (name, summary(d)))
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    kern = "__global__ void k(float* x) { x[0] = " + "(" * 10000 + "1" + ")" * 10000 + "; cudaMalloc(0, 0); }\n"
    d = open_doc(s, "file:///w/deep/k.cu", kern, lang="cuda")
    check(any(x["code"].startswith("ASC4") for x in d), "deep CUDA kernel: no ASC4xx finding: %r" % summary(d))
    # JSON nested 100,000 deep: cJSON's nesting limit turns it into -32700
    s.frame('{"jsonrpc":"2.0","id":81,"method":"textDocument/hover","params":{"x":' + "[" * 100000 + "]" * 100000 + "}}")
    check(error_of(wait_error(s, None)) == -32700, "JSON nested 100,000 deep: want -32700")
    alive(s)
    return s


DEEP_TEXTS = {
    "parens.py": "import torch\nx = " + "(" * 100000 + "\ntorch.cuda.synchronize()\n",
    "mixed.py": "import torch\nx = " + "[{(" * 30000 + "\ntorch.cuda.synchronize()\n",
    "lines.py": "import torch\n" + "x = " + "(" * 30000 + "\n" + "y = " + "(" * 30000 + "\ntorch.cuda.synchronize()\n",
    "k.cu": "__global__ void k(float* x) { x[0] = " + "(" * 70000 + "; cudaMalloc(0, 0); }\n",
}
DEEP_NOTE = "skipped, brackets nested more than 50000 deep"


@test
def text_nested_past_the_limit():
    """Brackets open 65,535 deep make the tree-sitter 0.20 runtime free a
    subtree twice when the tree is deleted (the process aborts on didClose or
    the next edit). Past 50,000 the document is kept but not parsed: a log
    note, no diagnostics; back under the limit it is analyzed again."""
    s = started()
    for name, text in DEEP_TEXTS.items():
        uri = "file:///w/deep/" + name
        d = open_doc(s, uri, text, lang="cuda" if name.endswith(".cu") else "python")
        check(d == [], "%s: past the nesting limit: want no diagnostics, got %r" % (name, summary(d)))
        logs = [m["params"]["message"] for m in s.log if m.get("method") == "window/logMessage"]
        check("ascend-lsp: /w/deep/%s: %s" % (name, DEEP_NOTE) in logs, "%s: no note in the log: %r" % (name, logs[-3:]))
        change(s, uri, 2, [{"range": rng(1, 0, 1, 0), "text": "(" * 10}])
        s.publish(uri, 2, timeout=60)
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        check(s.p.poll() is None, "%s: the server died" % name)
    # a document that crosses the limit while edited, and comes back under it
    uri = "file:///w/deep/typing.py"
    open_doc(s, uri, DOC)
    change(s, uri, 2, [{"range": rng(0, 0, 0, 0), "text": "x = " + "(" * 70000 + "\n"}])
    check(s.publish(uri, 2, timeout=60)["diagnostics"] == [], "past the limit: want no diagnostics")
    change(s, uri, 3, [{"range": rng(0, 0, 1, 0), "text": ""}])
    d = s.publish(uri, 3, timeout=60)["diagnostics"]
    check(len(d) == 2, "back under the limit: want the 2 findings again, got %r" % summary(d))
    expect_state(s, uri, DOC, 3)
    alive(s)
    return s


@test
def scan_nested_past_the_limit():
    root = scan_tree()
    try:
        for name, text in DEEP_TEXTS.items():
            with open(os.path.join(root, "pkg", name), "w") as f:
                f.write(text)
        with open(os.path.join(root, "pyproject.toml"), "w") as f:
            f.write("[project]\nname = \"x\"\nversion = \"1\"\ndependencies = " + "[" * 70000 + "\n")
        for cmd in ("check", "fix", "report"):
            p = subprocess.run([BIN, cmd, root], capture_output=True, timeout=120)
            err = p.stderr.decode("utf-8", "replace")
            check(p.returncode in (0, 1), "%s: exit status %d%s\n%s" % (cmd, p.returncode, " (abort)" if p.returncode in (-6, 134) else "", err[-1500:]))
            for mark in SANITIZER_MARKS:
                check(mark not in err, "%s: sanitizer report:\n%s" % (cmd, err[-3000:]))
            if cmd == "check":
                for name in DEEP_TEXTS:
                    check("note: pkg/%s: %s\n" % (name, DEEP_NOTE) in err, "check: no note for %s:\n%s" % (name, err[-1500:]))
                check("note: pyproject.toml: %s\n" % DEEP_NOTE in err, "check: no note for pyproject.toml:\n%s" % err[-1500:])
                check("pkg/train.py" in p.stdout.decode(), "train.py is still analyzed")
    finally:
        shutil.rmtree(root)


@test
def text_attribute_chain_10000_long():
    """`x = torch.a.a. ... .a` (10,000 attributes, 20 kB): the server must
    stay responsive. Analysis time grows with the square of the chain
    (qualified names rebuilt for every prefix): 1.3 s at 2,500, 5.7 s at
    5,000, ~20 s at 10,000, blocking the server on every keystroke."""
    s = started()
    uri = "file:///w/deep/attrs.py"
    text = "import torch\nx = torch" + ".a" * 10000 + "\ntorch.cuda.synchronize()\n"
    t0 = time.monotonic()
    d = open_doc(s, uri, text)
    took = time.monotonic() - t0
    check(any(x["code"] == "ASC201" for x in d), "the finding after the chain is missing: %r" % summary(d))
    check(took < 2.0, "a 10,000-long attribute chain took %.1f s to analyze (limit 2 s)" % took)
    alive(s)
    return s


def check_seconds(path):
    """CPU seconds (user + system) of one `check`: steadier than wall time
    on a loaded machine."""
    p = subprocess.Popen([BIN, "check", "--no-cache", "--format", "json", "--exit-zero", path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    check(p.returncode == 0, "check %s: exit %d" % (path, p.returncode))
    return ru.ru_utime + ru.ru_stime


def scaling(name, gen, n):
    """time(2n) / time(n) of `check` on a generated file (CPU time, best of 2 each)."""
    d = tempfile.mkdtemp(prefix="asc-scale-")
    try:
        t = {}
        for k in (n, 2 * n):
            path = os.path.join(d, "%s%d.py" % (name, k))
            with open(path, "w") as f:
                f.write(gen(k))
            t[k] = min(check_seconds(path) for _ in range(2))
        return t[2 * n] / t[n], t
    finally:
        shutil.rmtree(d)


@test
def text_many_imports_scale_linearly():
    """Each import statement used to search every binding of the file:
    40,000 lines of `import torch as tN` took 9.5 s, 200,000 over 2
    minutes. A linear pass doubles its time when the file doubles (the
    bench asserts <= 2.2 on a quiet machine; 3 leaves room for load)."""
    r, t = scaling("imports", lambda n: "".join("import torch as t%d\nx%d = t%d.cuda.current_device()\n" % (i, i, i)
                                               for i in range(n)), 5000)
    check(r <= 3.0, "time(10,000 imports) / time(5,000) = %.2f (%.2f s / %.2f s), want <= 3" % (r, t[10000], t[5000]))


@test
def text_many_findings_on_one_line_scale_linearly():
    """Every finding on one line used to count the line's code points from
    its start, and every fix looked for the file's first line ending from
    the start: 20,000 `torch.cuda.synchronize();` on one line took 50 s."""
    r, t = scaling("oneline", lambda n: "import torch\n" + "torch.cuda.synchronize();" * n + "\n", 6000)
    check(r <= 3.0, "time(12,000 calls on one line) / time(6,000) = %.2f (%.2f s / %.2f s), want <= 3" % (r, t[12000], t[6000]))


def check_json_of(text):
    """The findings of `check --format json --no-cache` on a file holding text."""
    root = tempfile.mkdtemp(prefix="asc-gen-")
    try:
        path = os.path.join(root, "gen.py")
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([BIN, "check", "--format", "json", "--no-cache", path], capture_output=True, timeout=300)
        return json.loads(p.stdout)["findings"]
    finally:
        shutil.rmtree(root)


@test
def text_findings_per_file_limit():
    """A finding on every line of a huge file used to be kept, printed and
    published in full (335,000 lines: 1.95 GB, 315 MB of JSON). At most
    10,000 per file are listed, then one ASC003 note says how many more."""
    text = "import torch\n" + "torch.cuda.synchronize()\n" * 10005
    items = check_json_of(text)
    codes = [it.get("code") or it.get("rule") for it in items]
    check(len(codes) == 10001 and codes[:10000] == ["ASC201"] * 10000 and codes[10000] == "ASC003",
          "check: %d findings, the last %r" % (len(codes), codes[-2:]))
    last = items[-1]
    check(last.get("message") == "5 more findings in this file are not listed (at most 10000 per file)",
          "the ASC003 note: %r" % last)
    s = started()
    d = open_doc(s, "file:///w/cap/gen.py", text)
    check(len(d) == 10001 and d[-1]["code"] == "ASC003" and d[-1]["range"]["start"]["line"] == 10001,
          "server: %d diagnostics, the last %r" % (len(d), d[-1] if d else None))
    return s


@test
def text_raw_findings_budget():
    """Memory per file is bounded before refinement too: past 40,000 findings
    the detectors stop at the next top-level statement, and the ASC003 note
    gives the count left out as a lower bound. A file with a finding on each
    of 335,000 lines used to hold all of them until the cap (849 MB RSS)."""
    text = "import torch\n" + "torch.cuda.synchronize()\n" * 40005
    items = check_json_of(text)
    codes = [it.get("code") or it.get("rule") for it in items]
    check(len(codes) == 10001 and codes[10000] == "ASC003", "check: %d findings" % len(codes))
    check(items[-1].get("message") == "30000+ more findings in this file are not listed (at most 10000 per file)",
          "the ASC003 note: %r" % items[-1].get("message"))
    s = started()
    d = open_doc(s, "file:///w/raw/gen.py", text)
    check(len(d) == 10001 and d[-1]["message"].startswith("30000+ more findings"),
          "server: %d diagnostics, the last %r" % (len(d), d[-1] if d else None))
    return s


@test
def text_clean_documents():
    """Documents of every kind with nothing to report (but text the byte
    prefilter lets through) are analyzed to an empty list."""
    s = started()
    docs = {
        "file:///w/clean/util.py": ("python", "# works on cuda and cpu alike\ndef add(a, b):\n    return a + b\n"),
        "file:///w/clean/pyproject.toml": ("toml", "[project]\nname = \"x\"\nversion = \"1\"\n"),
        "file:///w/clean/setup.cfg": ("ini", "[metadata]\nname = x\n"),
        "file:///w/clean/requirements.txt": ("pip-requirements", "# nothing\n"),
    }
    for uri, (lang, text) in docs.items():
        d = open_doc(s, uri, text, lang=lang)
        check(d == [], "%s: want no diagnostics, got %r" % (uri, summary(d)))
    open_doc(s, DOC_URI, DOC)
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def text_cuda_documents():
    s = started()
    d = open_doc(s, "file:///w/csrc/k.cu", "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[0] = 1; }\n"
                 "void f() { float* d; cudaMalloc(&d, 4); }\n", lang="cuda")
    check(any(x["code"].startswith("ASC4") for x in d), "CUDA kernel: no ASC4xx finding: %r" % summary(d))
    d = open_doc(s, "file:///w/csrc/clean.cu", "int add(int a, int b) { return a + b; }\n", lang="cuda")
    check(d == [], "clean .cu: want no diagnostics, got %r" % summary(d))
    d = open_doc(s, "file:///w/csrc/broken.cu", "__global__ void k(float* x) { x[0] = (((1; }\n#include\n", lang="cuda")
    open_doc(s, DOC_URI, DOC)
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def text_cuda_half_typed_kernel():
    """A __global__ definition without a function declarator, as while
    typing `__global__ x {` (found by fuzz_python; crash reproducer in
    tests/fuzz/crashes/fuzz_python/)."""
    s = started()
    open_doc(s, DOC_URI, DOC)
    for i, text in enumerate(("__global__ x {}\n", "__global__ voidx, int n) {}\n", "__global__ void\n")):
        uri = "file:///w/csrc/typing%d.cu" % i
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}})
        s.publish(uri, 1)
    # the same while typing, one character at a time, into an open document
    uri = "file:///w/csrc/typing.cu"
    open_doc(s, uri, "", lang="cuda")
    typed = "__global__ x {}\n"
    for i, ch in enumerate(typed):
        change(s, uri, i + 2, [{"range": rng(0, i, 0, i), "text": ch}])
        s.publish(uri, i + 2)
    expect_state(s, DOC_URI, DOC, 1)
    return s


@test
def text_didchange_unknown_document():
    s = started()
    open_doc(s, DOC_URI, DOC)
    change(s, "file:///w/never/opened.py", 2, [{"text": "import torch\ntorch.cuda.synchronize()\n"}])
    wait_log(s, "not open")
    check(not [m for m in s.log if m.get("method") == "textDocument/publishDiagnostics"
               and m["params"]["uri"] == "file:///w/never/opened.py"], "diagnostics published for a document never opened")
    s.notify("textDocument/didClose", {"textDocument": {"uri": "file:///w/never/opened.py"}})
    s.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///w/x.py"}})  # no text
    wait_log(s, "didOpen without")
    change(s, DOC_URI, 2, [{"range": rng(0, 0, 0, 0)}])  # no text
    wait_log(s, "without text")
    change(s, DOC_URI, 3, "not an array")
    s.publish(DOC_URI, 3)
    expect_state(s, DOC_URI, DOC, 3)
    return s


# ---- the report command and cancellation -----------------------------------------------


@test
def cancel_running_report():
    root = tempfile.mkdtemp(prefix="asc-robust-")
    try:
        # enough files that the report is still running when the cancel arrives
        for i in range(400):
            os.makedirs(os.path.join(root, "pkg%d" % (i % 20)), exist_ok=True)
            with open(os.path.join(root, "pkg%d" % (i % 20), "m%d.py" % i), "w") as f:
                f.write("import torch\n" + "".join("def f%d(x):\n    return x.cuda()\n" % k for k in range(200)))
        s = Server(BIN)  # not --sync: the report runs on the thread pool while messages are read
        s.initialize(root=root, caps={"window": {"workDoneProgress": True}})
        rid = s.request("workspace/executeCommand", {"command": "ascend.generateReport", "arguments": [{"format": "json"}]})
        s.notify("$/cancelRequest", {"id": rid})
        m = s.response(rid, timeout=120)
        if "error" in m and m["error"]["code"] == -32602 and "unknown command" in m["error"]["message"]:
            s.kill()
            raise Skip("ascend.generateReport is not in this build yet (the server answers -32602 unknown command)")
        check("error" in m and m["error"]["code"] == -32800,
              "a report cancelled right after it started: want error -32800 (RequestCancelled), got %r" %
              (m if "error" in m else {"result": "..."}))
        # the server still works, and a second report completes
        rid = s.request("workspace/executeCommand", {"command": "ascend.generateReport", "arguments": [{"format": "json"}]})
        m = s.response(rid, timeout=300)
        check("result" in m, "a report after a cancelled one failed: %r" % m)
        open_doc(s, DOC_URI, DOC)
        expect_state(s, DOC_URI, DOC, 1)
        check(s.shutdown_exit() == 0, "exit status after shutdown")
        return s
    finally:
        shutil.rmtree(root, ignore_errors=True)


def report_tree(files=400, defs=200):
    """A workspace big enough that a report is still running a second later."""
    root = tempfile.mkdtemp(prefix="asc-robust-")
    for i in range(files):
        os.makedirs(os.path.join(root, "pkg%d" % (i % 20)), exist_ok=True)
        with open(os.path.join(root, "pkg%d" % (i % 20), "m%d.py" % i), "w") as f:
            f.write("import torch\n" + "".join("def f%d(x):\n    return x.cuda()\n" % k for k in range(defs)))
    return root


def start_report(s):
    # the report goes to the workspace folder (never to a device: see report_output_special_files)
    rid = s.request("workspace/executeCommand", {"command": "ascend.generateReport", "workDoneToken": "rep",
                                                 "arguments": [{"format": "json", "output": "report.json"}]})
    return rid


@test
def settings_change_during_report():
    """didChangeConfiguration while a report runs: the new settings are
    applied when the report ends, and the options in force meanwhile keep
    their strings (the old ones used to be freed at once: heap use after
    free in the analysis of the next edit)."""
    root = report_tree()
    try:
        s = Server(BIN)
        s.initialize(root=root, options={"select": ["ASC2"], "target": {"torchNpu": "2.5.1"}})
        uri = "file://" + root + "/pkg0/train.py"
        d = open_doc(s, uri, DOC)
        check(summary(d) == [("ASC201", 4, 4, 4, 26), ("ASC203", 5, 13, 5, 19)],
              "select ASC2: want ASC201 and ASC203, got %r" % summary(d))
        rid = start_report(s)
        time.sleep(0.3)
        s.notify("workspace/didChangeConfiguration", {"settings": {"select": ["ASC1"], "target": {"torchNpu": "2.6.0"}}})
        text = DOC + "torch.cuda.synchronize()\n"
        change(s, uri, 2, [{"text": text}])
        d = s.publish(uri, 2, timeout=60)["diagnostics"]
        m = s.response(rid, timeout=300)
        check("result" in m, "the report failed: %r" % m)
        if m["result"]["summary"]["files"] > 0 and not any(x["code"] == "ASC201" for x in d):
            # the report ended before the edit was analyzed: the new settings were in force
            check(d == [], "after the report: select ASC1 gives nothing, got %r" % summary(d))
        else:
            check(summary(d) == [("ASC201", 4, 4, 4, 26), ("ASC201", 6, 0, 6, 22), ("ASC203", 5, 13, 5, 19)],
                  "while the report runs the old options (select ASC2) hold: got %r" % summary(d))
        # once the report is done the new settings are in force
        d = s.publish(uri, 2, timeout=60)["diagnostics"] if any(x["code"] == "ASC201" for x in d) else d
        check(d == [], "after the report: select ASC1 gives nothing here, got %r" % summary(d))
        check(s.shutdown_exit() == 0, "exit status after shutdown")
        return s
    finally:
        shutil.rmtree(root, ignore_errors=True)


def exit_during_report(how):
    root = report_tree()
    try:
        s = Server(BIN)
        s.initialize(root=root)
        open_doc(s, "file://" + root + "/pkg0/train.py", DOC)
        start_report(s)
        s.wait(lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "report", 60,
               "report progress")
        if how == "shutdown":
            rid = s.request("shutdown")
            s.response(rid, timeout=60)
            s.notify("exit")
        elif how == "exit":
            s.notify("exit")
        s.close_input()
        rc = s.exit_code(timeout=120)
        check(rc == (0 if how == "shutdown" else 1),
              "%s while a report runs: exit status %d%s\n%s" % (how, rc, " (SIGSEGV)" if rc in (-11, 139) else "",
                                                                s.stderr[-2000:]))
        return s
    finally:
        shutil.rmtree(root, ignore_errors=True)


@test
def exit_during_report_notification():
    return exit_during_report("exit")


@test
def exit_during_report_eof():
    return exit_during_report("eof")


@test
def exit_during_report_after_shutdown():
    return exit_during_report("shutdown")


# ---- workspace scans (check CLI) -------------------------------------------------------


def run_check(args, timeout=120):
    p = subprocess.run([BIN, "check", "--format", "json"] + args, capture_output=True, timeout=timeout)
    for mark in SANITIZER_MARKS:
        check(mark not in p.stderr.decode("utf-8", "replace"), "check: sanitizer report:\n%s" % p.stderr.decode()[-3000:])
    check(p.returncode in (0, 1, 2), "check exited with %d (signal?)\n%s" % (p.returncode, p.stderr.decode()[-2000:]))
    try:
        out = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        raise AssertionError("check --format json printed invalid JSON: %s: %r" % (e, p.stdout[:300]))
    return p.returncode, out, p.stderr.decode("utf-8", "replace")


def findings_by_file(out):
    """{path: [codes]} from check's JSON, whatever its exact layout."""
    res = {}
    items = out if isinstance(out, list) else out.get("findings") or out.get("results") or out.get("files") or []
    for it in items:
        if isinstance(it, dict) and ("code" in it or "rule" in it):
            res.setdefault(it.get("path") or it.get("file") or it.get("filename"), []).append(it.get("code") or it.get("rule"))
        elif isinstance(it, dict) and "findings" in it:
            res[it.get("path")] = [f.get("code") for f in it["findings"]]
    return res


def scan_tree():
    root = tempfile.mkdtemp(prefix="asc-scan-")
    os.makedirs(os.path.join(root, "pkg"))
    with open(os.path.join(root, "pkg", "train.py"), "w") as f:
        f.write(DOC)
    # a package: its modules are what users import (a loose module in a
    # folder that nothing imports and that does nothing when run never runs)
    open(os.path.join(root, "pkg", "__init__.py"), "w").close()
    return root


@test
def scan_binary_py():
    root = scan_tree()
    try:
        with open(os.path.join(root, "pkg", "blob.py"), "wb") as f:
            f.write(bytes(range(256)) * 64 + b"torch.cuda.synchronize()\n")
        with open(os.path.join(root, "pkg", "elf.py"), "wb") as f:
            f.write(open("/bin/true", "rb").read())
        with open(os.path.join(root, "pkg", "latin1.py"), "wb") as f:
            f.write(b"# caf\xe9\nimport torch\ntorch.cuda.synchronize()\n")
        rc, out, err = run_check([root])
        check(rc == 1, "want exit 1 (findings in train.py), got %d" % rc)
        fb = findings_by_file(out)
        check(not any(k and ("blob.py" in k or "elf.py" in k) for k in fb), "findings in binary files: %r" % fb)
        check(any(k and k.endswith("train.py") for k in fb), "train.py not analyzed: %r" % fb)
        check(any(k and k.endswith("latin1.py") for k in fb), "a Latin-1 (invalid UTF-8) file must still be analyzed: %r" % fb)
    finally:
        shutil.rmtree(root)


@test
def scan_clean_project():
    root = tempfile.mkdtemp(prefix="asc-scan-")
    try:
        files = {
            "util.py": "# same on cuda and cpu\ndef add(a, b):\n    return a + b\n",
            "plain.py": "def sub(a, b):\n    return a - b\n",
            "csrc/add.cpp": "int add(int a, int b) { return a + b; }\n",
            "pyproject.toml": "[project]\nname = \"x\"\nversion = \"1\"\n",
            "setup.cfg": "[metadata]\nname = x\n",
            "requirements.txt": "# nothing yet\n",
            "run.sh": "#!/bin/sh\necho hi\n",
        }
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        rc, out, err = run_check([root])
        check(rc == 0, "a project with nothing to report: want exit 0, got %d\n%s" % (rc, err[-2000:]))
        check(findings_by_file(out) == {}, "unexpected findings: %r" % findings_by_file(out))
    finally:
        shutil.rmtree(root)


@test
def scan_half_typed_kernel():
    root = scan_tree()
    try:
        os.makedirs(os.path.join(root, "csrc"))
        with open(os.path.join(root, "csrc", "k.cu"), "w") as f:
            f.write("__global__ x {}\n")
        p = subprocess.run([BIN, "check", root], capture_output=True, timeout=60)
        check(p.returncode in (0, 1), "check of a .cu file holding `__global__ x {}`: exit status %d%s\n%s" % (
            p.returncode, " (SIGSEGV)" if p.returncode in (-11, 139) else "", p.stderr.decode("utf-8", "replace")[-1500:]))
    finally:
        shutil.rmtree(root)


@test
def scan_symlink_loops_and_special_files():
    root = scan_tree()
    try:
        os.symlink(".", os.path.join(root, "pkg", "loop"))
        os.symlink("..", os.path.join(root, "pkg", "up"))
        os.symlink(os.path.join(root, "a"), os.path.join(root, "b"))
        os.symlink(os.path.join(root, "b"), os.path.join(root, "a"))  # a -> b -> a
        os.symlink("/nonexistent/file.py", os.path.join(root, "dangling.py"))
        os.mkfifo(os.path.join(root, "fifo.py"))  # reading it would block forever
        os.symlink("/dev/zero", os.path.join(root, "zero.py"))  # endless
        rc, out, err = run_check([root], timeout=60)
        fb = findings_by_file(out)
        train = [k for k in fb if k and k.endswith("train.py")]
        check(len(train) == 1, "train.py must be reported once, not once per symlink path: %r" % train)
        check(rc == 1, "want exit 1, got %d" % rc)
    finally:
        shutil.rmtree(root)


@test
def scan_fifo_and_devices_named_as_sources():
    """A FIFO named on the command line used to block check and fix
    forever (opened without O_NONBLOCK, no regular-file check), and
    /dev/zero linked as a.py was skipped as "Is a directory"."""
    root = scan_tree()
    try:
        fifo = os.path.join(root, "pkg", "f.py")
        os.mkfifo(fifo)
        os.symlink("/dev/zero", os.path.join(root, "pkg", "a.py"))
        for cmd in ("check", "fix"):
            for args in ([fifo, os.path.join(root, "pkg", "a.py")], [root]):
                try:
                    p = subprocess.run([os.path.abspath(BIN), cmd] + args, capture_output=True, timeout=30, cwd=root)
                except subprocess.TimeoutExpired:
                    raise AssertionError("%s %s: still blocked after 30 s" % (cmd, " ".join(args)))
                err = p.stderr.decode("utf-8", "replace")
                shown = ["pkg/f.py", "pkg/a.py"] if args == [root] else args
                check("note: %s: skipped, not a regular file (a FIFO)\n" % shown[0] in err,
                      "%s: no note for the FIFO:\n%s" % (cmd, err[-1500:]))
                check("note: %s: skipped, not a regular file (a character device)\n" % shown[1] in err,
                      "%s: no note (or the wrong reason) for /dev/zero:\n%s" % (cmd, err[-1500:]))
                want = (0,) if args != [root] else (1,) if cmd == "check" else (0, 1)  # fix rewrites train.py
                check(p.returncode in want, "%s %s: exit %d" % (cmd, args, p.returncode))
    finally:
        shutil.rmtree(root)


@test
def report_output_special_files():
    """report -o used to rename its temporary file over whatever the path
    named: a device node became a regular file, a symbolic link was
    replaced (so -o /dev/stdout, or -o /dev/null as root, destroyed the
    node). Devices, FIFOs and terminals are written through, links are
    followed, the atomic rename is kept for regular files."""
    proj = scan_tree()
    out = tempfile.mkdtemp(prefix="asc-out-")
    try:
        want = subprocess.run([BIN, "report", proj], capture_output=True, timeout=60).stdout
        check(len(want) > 100, "report to stdout: %r" % want[:200])
        dev = os.path.join(out, "null")
        if os.geteuid() == 0:
            os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a copy of /dev/null
        else:
            os.symlink("/dev/null", dev)
        links = {"to_file.md": "target.md", "to_dev": "null", "stdout": "/proc/self/fd/1", "dangling.md": "new.md"}
        for name, target in links.items():
            os.symlink(target, os.path.join(out, name))
        with open(os.path.join(out, "target.md"), "w") as f:
            f.write("old\n")

        def report(path, **kw):
            return subprocess.run([BIN, "report", proj, "-o", path], capture_output=True, timeout=60, **kw)

        for path in (dev, os.path.join(out, "to_dev")):
            p = report(path)
            check(p.returncode == 0, "-o %s: exit %d: %s" % (path, p.returncode, p.stderr[-500:]))
        st = os.lstat(dev)
        check(stat.S_ISCHR(st.st_mode) or (os.geteuid() != 0 and stat.S_ISLNK(st.st_mode)),
              "-o on a character device replaced it (mode %o)" % st.st_mode)
        check(os.path.islink(os.path.join(out, "to_dev")), "-o on a link to a device replaced the link")
        p = report(os.path.join(out, "to_file.md"))
        check(p.returncode == 0 and os.path.islink(os.path.join(out, "to_file.md")), "-o on a link: the link was replaced")
        check(open(os.path.join(out, "target.md"), "rb").read() == want, "-o on a link: the target does not hold the report")
        p = report(os.path.join(out, "dangling.md"))
        check(p.returncode == 0 and os.path.islink(os.path.join(out, "dangling.md")), "-o on a dangling link: replaced")
        check(open(os.path.join(out, "new.md"), "rb").read() == want, "-o on a dangling link: the target was not created")
        p = report(os.path.join(out, "stdout"))  # like -o /dev/stdout, on a pipe
        check(p.returncode == 0 and p.stdout == want, "-o to a link to stdout: exit %d, %d bytes on stdout" % (p.returncode, len(p.stdout)))
        check(os.path.islink(os.path.join(out, "stdout")), "-o to a link to stdout: the link was replaced")
        fifo = os.path.join(out, "fifo")
        os.mkfifo(fifo)
        p = report(fifo)
        check(p.returncode == 2 and b"cannot write %s: a FIFO that no process is reading" % fifo.encode() in p.stderr,
              "-o on a FIFO without a reader: exit %d: %r" % (p.returncode, p.stderr[-300:]))
        got = []
        t = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
        t.start()
        time.sleep(0.2)
        p = report(fifo)
        t.join(timeout=30)
        check(p.returncode == 0 and got == [want], "-o on a FIFO with a reader: exit %d, read %r" % (p.returncode, [len(g) for g in got]))
        check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "-o on a FIFO replaced it")
        p = report(out)
        check(p.returncode == 2 and b"Is a directory" in p.stderr, "-o on a directory: %r" % p.stderr[-300:])
        # and the server's report command, to a device and through a link
        s = Server(BIN)
        s.initialize(root=proj)
        for path in (dev, os.path.join(out, "to_file.md")):
            rid = s.request("workspace/executeCommand", {"command": "ascend.generateReport", "arguments": [{"output": path}]})
            m = s.response(rid, timeout=120)
            check("result" in m, "report command -> %s: %r" % (path, m))
        check(stat.S_ISCHR(os.lstat(dev).st_mode) or os.geteuid() != 0, "the report command replaced a device")
        check(os.path.islink(os.path.join(out, "to_file.md")), "the report command replaced a link")
        check(s.shutdown_exit() == 0, "exit status after shutdown")
        return s
    finally:
        shutil.rmtree(proj)
        shutil.rmtree(out)


@test
def fix_link_out_of_the_root():
    """fix refuses to write through a symbolic link that leads out of the
    scanned directory; it used to say "Nothing to fix." and exit 0 while
    check still reported the file's findings."""
    proj = tempfile.mkdtemp(prefix="asc-fix-")
    ext = tempfile.mkdtemp(prefix="asc-ext-")
    try:
        with open(os.path.join(ext, "ext.py"), "w") as f:
            f.write(DOC)
        os.symlink(os.path.join(ext, "ext.py"), os.path.join(proj, "link.py"))
        p = subprocess.run([BIN, "fix", proj], capture_output=True, text=True, timeout=60)
        check(p.stdout == "Nothing to fix; 2 left: 2 in 1 file not written (see above)\n",
              "fix summary: %r" % p.stdout)
        check(p.stderr == "%s/link.py: not fixed: a symbolic link leads outside the scanned directory\n" % proj,
              "fix: what was skipped and why: %r" % p.stderr)
        check(p.returncode == 1, "fix with findings left in a file it did not write: exit %d, want 1" % p.returncode)
        check(open(os.path.join(ext, "ext.py")).read() == DOC, "the file outside was written")
    finally:
        shutil.rmtree(proj)
        shutil.rmtree(ext)


@test
def scan_unreadable_file():
    root = scan_tree()
    try:
        bad = os.path.join(root, "pkg", "secret.py")
        if os.geteuid() == 0:
            # root reads any mode-000 file: a path whose read fails with EIO instead
            os.symlink("/proc/self/mem", bad)
        else:
            with open(bad, "w") as f:
                f.write(DOC)
            os.chmod(bad, 0)
        rc, out, err = run_check([root])
        fb = findings_by_file(out)
        check(any(k and k.endswith("train.py") for k in fb), "the readable file was not analyzed: %r" % fb)
        check(rc in (1, 2), "want exit 1 or 2, got %d" % rc)
        p = subprocess.run([BIN, "check", root], capture_output=True, text=True)
        check("secret.py" in p.stdout + p.stderr, "the unreadable file is not mentioned:\n%s%s" % (p.stdout[-500:], p.stderr[-500:]))
    finally:
        shutil.rmtree(root)


@test
def scan_files_deleted_during_scan():
    root = tempfile.mkdtemp(prefix="asc-scan-")
    try:
        paths = []
        for i in range(3000):
            d = os.path.join(root, "p%d" % (i % 30))
            os.makedirs(d, exist_ok=True)
            p = os.path.join(d, "m%d.py" % i)
            with open(p, "w") as f:
                f.write(DOC * 20)
            paths.append(p)
        stop = threading.Event()

        def churn():
            k = 0
            while not stop.is_set():
                p = paths[k % len(paths)]
                try:
                    os.unlink(p)
                except FileNotFoundError:
                    with open(p, "w") as f:
                        f.write(DOC)
                k += 7
        t = threading.Thread(target=churn)
        t.start()
        try:
            for _ in range(3):
                rc, out, err = run_check(["--threads", "2", root], timeout=300)
                check(rc in (0, 1, 2), "exit %d" % rc)
        finally:
            stop.set()
            t.join()
        # and a directory removed under the walker
        rc, out, err = run_check([os.path.join(root, "p1"), os.path.join(root, "gone")])
        check(rc == 2, "a missing path: want exit 2, got %d" % rc)
    finally:
        shutil.rmtree(root)


# ---- valgrind -------------------------------------------------------------------------


@test
def valgrind_memcheck_transcript():
    if os.environ.get("VALGRIND", "1") == "0":
        raise Skip("VALGRIND=0")
    if not shutil.which("valgrind"):
        raise Skip("valgrind not installed")
    if subprocess.run(["sh", "-c", "nm -D '%s' 2>/dev/null | grep -q __asan_init" % BIN]).returncode == 0 or \
            subprocess.run(["sh", "-c", "nm '%s' 2>/dev/null | grep -q __asan_init" % BIN]).returncode == 0:
        raise Skip("the binary is built with ASan (valgrind cannot run it)")
    xml = tempfile.mktemp(suffix=".valgrind.log")
    s = Server(BIN, wrapper=["valgrind", "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=definite",
                             "--errors-for-leak-kinds=definite", "--error-exitcode=99", "--log-file=" + xml])
    try:
        s.initialize(encodings=["utf-16"])
        open_doc(s, DOC_URI, DOC)
        change(s, DOC_URI, 2, [{"range": rng(1, 0, 1, 0), "text": "x = torch.cuda.device_count()\n"}])
        s.publish(DOC_URI, 2, timeout=60)
        rid = s.request("textDocument/codeAction", {"textDocument": {"uri": DOC_URI}, "range": rng(0, 0, 7, 0),
                                                     "context": {"diagnostics": []}})
        s.response(rid, timeout=60)
        rid = s.request("textDocument/hover", {"textDocument": {"uri": DOC_URI}, "position": {"line": 5, "character": 10}})
        s.response(rid, timeout=60)
        rid = s.request("workspace/executeCommand", {"command": "ascend.fixAll", "arguments": [DOC_URI]})
        s.response(rid, timeout=60)
        s.frame(b"{bad json")
        s.write(b"Content-Length: -1\r\n\r\n")
        s.notify("workspace/didChangeConfiguration", {"settings": {"ascend-lsp": {"select": ["ASC2"], "lang": "zh"}}})
        open_doc(s, "file:///w/k.cu", "__global__ void k(float* x) {}\nvoid f() { cudaMalloc(0, 4); }\n", lang="cuda")
        open_doc(s, "file:///w/requirements.txt", "torch==2.1.0+cu121\nflash-attn\n", lang="pip-requirements")
        s.notify("textDocument/didClose", {"textDocument": {"uri": DOC_URI}})
        rid = s.request("shutdown")
        s.response(rid, timeout=60)
        s.notify("exit")
        rc = s.exit_code(timeout=120)
        log = open(xml).read()
        check(rc == 0, "under valgrind: exit status %d (99 = memcheck errors or definite leaks)\n%s" % (rc, log[-4000:]))
        check("ERROR SUMMARY: 0 errors" in log, "memcheck errors:\n%s" % log[-4000:])
        check("definitely lost: 0 bytes" in log or "no leaks are possible" in log, "definite leaks:\n%s" % log[-4000:])
    finally:
        s.kill()
        if os.path.exists(xml):
            os.unlink(xml)
    return s


# ---- runner ------------------------------------------------------------------------------


def sanitizer_clean(s):
    if s is None:
        return
    if s.p.poll() is None:
        s.close_input()
        try:
            s.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            s.kill()
    time.sleep(0.05)
    err = s.stderr
    for mark in SANITIZER_MARKS:
        check(mark not in err, "sanitizer report on stderr:\n%s" % err[-4000:])
    check(not s.protocol_errors, "malformed output from the server: %s" % s.protocol_errors[:3])


def main():
    want = sys.argv[1:]
    passed = failed = skipped = 0
    for fn in TESTS:
        name = fn.__name__
        if want and not any(w in name for w in want):
            continue
        t0 = time.monotonic()
        s = None
        try:
            s = fn()
            sanitizer_clean(s)
            passed += 1
            print("ok   %-45s %6.2f s" % (name, time.monotonic() - t0), flush=True)
        except Skip as e:
            skipped += 1
            print("skip %-45s %s" % (name, e), flush=True)
        except Exception as e:
            failed += 1
            print("FAIL %-45s %6.2f s" % (name, time.monotonic() - t0), flush=True)
            msg = str(e) if isinstance(e, AssertionError) else traceback.format_exc()
            for line in msg.splitlines()[:40]:
                print("     " + line)
        finally:
            if s is not None:
                s.kill()
    if skipped:
        print("(%d skipped, see above)" % skipped)
    print("robust: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
