/* fuzz_jsonrpc: the whole language server, in process, on a byte stream:
 * framing, rpc_parse, the lifecycle checks, dispatch and every handler
 * (document sync with analysis after each message, code actions, hover,
 * commands). session_run_stdio reads fd 0 and writes fd 1, so each input
 * is written to a memfd that becomes fd 0, and fd 1 is another memfd that
 * is checked afterwards.
 *
 * Input layout: byte 0 holds flags, the rest is the stream.
 *   bit 0 set: raw mode, the stream is fed as is (headers and all);
 *          clear: the stream is split at 0x1E bytes and each piece is sent
 *          as one message with a correct Content-Length header, so that
 *          mutations explore JSON-RPC rather than header arithmetic;
 *   bit 1: an initialize request is sent first;
 *   bit 2: shutdown and exit are sent last.
 * Checked properties: no crash, leak or sanitizer report; the server
 * terminates; its output is a well-framed sequence of JSON-RPC 2.0 objects
 * (responses, notifications or requests), each one parseable by rpc_parse. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "protocol/framing.h"
#include "protocol/jsonrpc.h"
#include "server/lsp/session.h"

#define FUZZ_CHECK(c)                                                                \
  do {                                                                               \
    if (!(c)) {                                                                      \
      fprintf(stderr, "fuzz_jsonrpc: check failed: %s (line %d)\n", #c, __LINE__);   \
      abort();                                                                       \
    }                                                                                \
  } while (0)

static const char fuzz__init[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"capabilities\":{"
    "\"general\":{\"positionEncodings\":[\"utf-16\"]}},\"rootUri\":null}}";
static const char fuzz__initialized[] = "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}";
static const char fuzz__shutdown[] = "{\"jsonrpc\":\"2.0\",\"id\":999999,\"method\":\"shutdown\"}";
static const char fuzz__exit[] = "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}";

static void fuzz__frame(StrBuf *sb, const char *body, size_t len) { framing_encode(sb, body, len); }

/* An empty directory as the working directory: the server reads the
 * project configuration from there when the client names no root, and
 * `ascend.generateReport` scans it and writes its report there. (The
 * corpus and artifact paths run-fuzz.sh passes are absolute.) */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  char tmpl[] = "/tmp/fuzz_jsonrpc.XXXXXX";
  if (!mkdtemp(tmpl) || chdir(tmpl) != 0) perror("fuzz_jsonrpc: cannot enter an empty directory");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t flags = data[0];
  const char *p = (const char *)data + 1;
  size_t n = size - 1;
  StrBuf in;
  sb_init(&in);
  if (flags & 2) {
    fuzz__frame(&in, fuzz__init, sizeof fuzz__init - 1);
    fuzz__frame(&in, fuzz__initialized, sizeof fuzz__initialized - 1);
  }
  if (flags & 1) {
    sb_append(&in, p, n);
  } else {
    const char *start = p;
    for (size_t i = 0; i <= n; i++) {
      if (i == n || p[i] == 0x1E) {
        if (p + i > start) fuzz__frame(&in, start, (size_t)(p + i - start));
        start = p + i + 1;
      }
    }
  }
  if (flags & 4) {
    fuzz__frame(&in, fuzz__shutdown, sizeof fuzz__shutdown - 1);
    fuzz__frame(&in, fuzz__exit, sizeof fuzz__exit - 1);
  }

  int infd = memfd_create("fuzz-in", MFD_CLOEXEC);
  int outfd = memfd_create("fuzz-out", MFD_CLOEXEC);
  FUZZ_CHECK(infd >= 0 && outfd >= 0);
  for (size_t off = 0; off < in.len;) {
    ssize_t w = write(infd, in.data + off, in.len - off);
    FUZZ_CHECK(w > 0);
    off += (size_t)w;
  }
  lseek(infd, 0, SEEK_SET);
  int saved0 = dup(0), saved1 = dup(1);
  dup2(infd, 0);
  dup2(outfd, 1);
  int rc = session_run_stdio(true);
  fflush(stdout);
  dup2(saved0, 0);
  dup2(saved1, 1);
  close(saved0);
  close(saved1);
  close(infd);
  FUZZ_CHECK(rc == 0 || rc == 1);
  if (flags & 4) {
    /* shutdown + exit came last: unless an earlier exit or a fatal framing
     * error stopped the server, it must report success. Not asserted: the
     * stream may contain its own exit. */
  }

  /* the output: framed JSON-RPC messages and nothing else */
  off_t outlen = lseek(outfd, 0, SEEK_END);
  char *out = NULL;
  if (outlen > 0) {
    out = malloc((size_t)outlen);
    FUZZ_CHECK(pread(outfd, out, (size_t)outlen, 0) == outlen);
  }
  close(outfd);
  Framer f;
  framing_init(&f, FRAMING_DEFAULT_LIMIT);
  if (outlen > 0) framing_feed(&f, out, (size_t)outlen);
  for (;;) {
    const char *body, *err;
    size_t len;
    FramingStatus st = framing_next(&f, &body, &len, &err);
    if (st == FRAMING_NEED_MORE) break;
    if (st != FRAMING_MESSAGE) {
      fprintf(stderr, "fuzz_jsonrpc: the server wrote a bad frame: %s\n", err ? err : "?");
      abort();
    }
    RpcMessage m;
    RpcError e;
    if (rpc_parse(body, len, &m, &e) != 0) {
      fprintf(stderr, "fuzz_jsonrpc: the server wrote an invalid message (%s): %.*s\n", e.message,
              (int)(len > 400 ? 400 : len), body);
      abort();
    }
    rpc_message_free(&m);
  }
  /* every byte written belongs to a complete frame */
  FUZZ_CHECK(!f.in_body && f.buf.len == f.start);
  framing_free(&f);
  free(out);
  sb_free(&in);
  return 0;
}
