/* lsp-latency: didChange -> publishDiagnostics latency of the real server,
 * driven over pipes.
 *
 *   lsp-latency BIN FILE MODE N [WARMUP [ROOT]]
 *
 * Starts `BIN --sync`, initializes, opens FILE, then sends N didChange
 * notifications (after WARMUP unmeasured ones) with the edits of
 * bench_edits.h; MODE is `char`, `line`, `import` or `string` (incremental
 * sync: one range change per notification; the server edits its tree and
 * re-parses incrementally) or one of them with `-full` (the same edits sent as a
 * full-text change, as a client with TextDocumentSyncKind.Full would; the
 * server then re-parses from scratch). For each edit the clock starts just
 * before the message is written and stops when the publishDiagnostics of
 * that document version has been read completely. Prints `key value` lines
 * (median, p99, max in milliseconds) and exits non-zero on a protocol error
 * or a timeout (10 s per edit). With ROOT the server gets that workspace
 * folder, so the project model is built for it and kept up to date as the
 * document changes; without it there is no model. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/bench/bench_edits.h"

typedef struct {
  char *data;
  size_t len, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = realloc(b->data, cap);
    if (!b->data) exit(70);
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void buf_printf(Buf *b, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  buf_add(b, tmp, (size_t)n);
}

/* JSON string contents of s[0, n). */
static void buf_json_str(Buf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  buf_add(b, "\"", 1);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    buf_add(b, s + run, i - run);
    run = i + 1;
    if (c == '"') buf_add(b, "\\\"", 2);
    else if (c == '\\') buf_add(b, "\\\\", 2);
    else if (c == '\n') buf_add(b, "\\n", 2);
    else if (c == '\t') buf_add(b, "\\t", 2);
    else {
      char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      buf_add(b, u, 6);
    }
  }
  buf_add(b, s + run, n - run);
  buf_add(b, "\"", 1);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int to_srv = -1, from_srv = -1;
static Buf inbuf;
static size_t inpos;

static void send_msg(const Buf *body) {
  char hdr[64];
  int h = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", body->len);
  Buf all = {0};
  buf_add(&all, hdr, (size_t)h);
  buf_add(&all, body->data, body->len);
  for (size_t off = 0; off < all.len;) {
    ssize_t w = write(to_srv, all.data + off, all.len - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      perror("lsp-latency: write");
      exit(1);
    }
    off += (size_t)w;
  }
  free(all.data);
}

/* Reads one framed message; returns its body (borrowed until the next
 * call) or NULL on EOF / timeout. */
static const char *read_msg(size_t *len, double deadline) {
  for (;;) {
    if (inpos > 0 && inpos * 2 > inbuf.len) {
      memmove(inbuf.data, inbuf.data + inpos, inbuf.len - inpos);
      inbuf.len -= inpos;
      inpos = 0;
    }
    char *base = inbuf.data ? inbuf.data + inpos : NULL;
    size_t avail = inbuf.len - inpos;
    char *sep = base ? memmem(base, avail, "\r\n\r\n", 4) : NULL;
    if (sep) {
      char *cl = strcasestr(base, "Content-Length:");
      if (!cl || cl > sep) {
        fprintf(stderr, "lsp-latency: a frame without Content-Length\n");
        exit(1);
      }
      size_t n = strtoul(cl + 15, NULL, 10);
      size_t hdr = (size_t)(sep + 4 - base);
      if (avail >= hdr + n) {
        *len = n;
        inpos += hdr + n;
        return base + hdr;
      }
    }
    double left = deadline - now();
    if (left <= 0) return NULL;
    struct pollfd pfd = {from_srv, POLLIN, 0};
    int pr = poll(&pfd, 1, (int)(left * 1000) + 1);
    if (pr <= 0) continue;
    char tmp[65536];
    ssize_t r = read(from_srv, tmp, sizeof tmp);
    if (r <= 0) return NULL;
    buf_add(&inbuf, tmp, (size_t)r);
  }
}

/* Waits for the publishDiagnostics of `version`; returns the time it was
 * read completely, or a negative value on timeout. */
static double wait_publish(long version, size_t *ndiag) {
  char want[64];
  snprintf(want, sizeof want, "\"version\":%ld,", version);
  double deadline = now() + 10.0;
  for (;;) {
    size_t len;
    const char *body = read_msg(&len, deadline);
    if (!body) return -1;
    double t = now();
    if (!memmem(body, len, "textDocument/publishDiagnostics", 31)) continue;
    if (!memmem(body, len, want, strlen(want))) continue;
    if (ndiag) {
      size_t n = 0;
      const char *p = body, *end = body + len;
      while ((p = memmem(p, (size_t)(end - p), "\"severity\":", 11))) {
        n++;
        p += 11;
      }
      *ndiag = n;
    }
    return t;
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fputs("usage: lsp-latency BIN FILE char|line|import|string[-full] N [WARMUP [ROOT]]\n", stderr);
    return 2;
  }
  const char *bin = argv[1], *path = argv[2], *mode = argv[3];
  long n = atol(argv[4]);
  long warm = argc > 5 ? atol(argv[5]) : 10;
  bool full = strstr(mode, "-full") != NULL;
  BenchEditMode em = strncmp(mode, "line", 4) == 0     ? BENCH_EDIT_LINE
                     : strncmp(mode, "import", 6) == 0 ? BENCH_EDIT_IMPORT
                     : strncmp(mode, "string", 6) == 0 ? BENCH_EDIT_STRING
                                                       : BENCH_EDIT_CHAR;

  FILE *fp = fopen(path, "rb");
  if (!fp) {
    perror(path);
    return 2;
  }
  Buf text = {0};
  char chunk[65536];
  size_t r;
  while ((r = fread(chunk, 1, sizeof chunk, fp)) > 0) buf_add(&text, chunk, r);
  fclose(fp);
  char abspath[4096], absroot[4096];
  if (!realpath(path, abspath)) return 2;
  if (argc > 6 && !realpath(argv[6], absroot)) return 2;

  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) return 2;
  signal(SIGPIPE, SIG_IGN);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    execl(bin, bin, "--sync", (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_srv = in[1];
  from_srv = out[0];

  Buf m = {0};
  buf_printf(&m, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,");
  if (argc > 6) buf_printf(&m, "\"rootUri\":\"file://%s\",\"capabilities\":{}}}", absroot);
  else buf_printf(&m, "\"rootUri\":null,\"capabilities\":{}}}");
  send_msg(&m);
  m.len = 0;
  buf_printf(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  send_msg(&m);
  Buf uri = {0};
  buf_printf(&uri, "file://%s", abspath); /* generated paths need no escaping */
  m.len = 0;
  buf_printf(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"%s\","
                 "\"languageId\":\"python\",\"version\":1,\"text\":",
             uri.data);
  buf_json_str(&m, text.data, text.len);
  buf_add(&m, "}}}", 3);
  double t0 = now();
  send_msg(&m);
  size_t ndiag = 0;
  double t1 = wait_publish(1, &ndiag);
  if (t1 < 0) {
    fprintf(stderr, "lsp-latency: no diagnostics for the opened document\n");
    kill(pid, SIGKILL);
    return 1;
  }
  printf("open_ms %.3f\nopen_diagnostics %zu\n", (t1 - t0) * 1e3, ndiag);

  BenchEdits g;
  bench_edits_init(&g, em, 42);
  double *lat = calloc((size_t)n, sizeof *lat);
  long version = 1;
  for (long i = 0; i < warm + n; i++) {
    BenchEdit e;
    bench_edits_next(&g, text.data, text.len, &e);
    /* apply locally */
    Buf nt = {0};
    buf_add(&nt, text.data, e.start);
    buf_add(&nt, e.text, e.len);
    buf_add(&nt, text.data + e.end, text.len - e.end);
    free(text.data);
    text = nt;
    version++;
    m.len = 0;
    buf_printf(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{"
                   "\"uri\":\"%s\",\"version\":%ld},\"contentChanges\":[{",
               uri.data, version);
    if (full) {
      buf_add(&m, "\"text\":", 7);
      buf_json_str(&m, text.data, text.len);
    } else {
      buf_printf(&m, "\"range\":{\"start\":{\"line\":%u,\"character\":%u},\"end\":{\"line\":%u,\"character\":%u}},\"text\":",
                 e.line, e.character, e.end_line, e.end_character);
      buf_json_str(&m, e.text, e.len);
    }
    buf_add(&m, "}]}}", 4);
    double a = now();
    send_msg(&m);
    double b = wait_publish(version, i == warm + n - 1 ? &ndiag : NULL);
    if (b < 0) {
      fprintf(stderr, "lsp-latency: no publishDiagnostics for version %ld within 10 s\n", version);
      kill(pid, SIGKILL);
      return 1;
    }
    if (i >= warm) lat[i - warm] = b - a;
  }
  m.len = 0;
  buf_printf(&m, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
  send_msg(&m);
  m.len = 0;
  buf_printf(&m, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
  send_msg(&m);
  close(to_srv);
  int st = 0;
  waitpid(pid, &st, 0);

  qsort(lat, (size_t)n, sizeof *lat, cmp_double);
  size_t p99 = (size_t)((double)n * 0.99);
  if (p99 >= (size_t)n) p99 = (size_t)n - 1;
  size_t lines = 0;
  for (size_t i = 0; i < text.len; i++) lines += text.data[i] == '\n';
  printf("mode %s\nedits %ld\nlines_at_end %zu\ndiagnostics_at_end %zu\n", mode, n, lines, ndiag);
  printf("median_ms %.4f\np99_ms %.4f\nmax_ms %.4f\nmin_ms %.4f\n", lat[n / 2] * 1e3, lat[p99] * 1e3,
         lat[n - 1] * 1e3, lat[0] * 1e3);
  printf("server_exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  free(lat);
  free(text.data);
  free(m.data);
  free(uri.data);
  free(inbuf.data);
  return 0;
}
