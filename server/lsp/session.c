/* session: the language server's event loop, transport, dispatch and
 * lifecycle. stdin/stdout are libuv pipes or ttys (files are read with
 * uv_fs_read and written synchronously); every message is Content-Length
 * framed; the dispatcher enforces the LSP lifecycle (initialize first,
 * nothing but exit after shutdown) and answers malformed input with the
 * JSON-RPC error codes without ever stopping. */
#include "server/lsp/session.h"
#include "server/lsp/session_internal.h"
#include "server/cli/cli.h"
#include "server/workspace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SESSION_READ_CHUNK 65536

/* ---- output ---------------------------------------------------------------- */

typedef struct {
  uv_write_t req;
  Session *s;
  size_t len;
  char data[];
} WriteReq;

static void session__write_cb(uv_write_t *req, int status) {
  WriteReq *w = (WriteReq *)req;
  w->s->bytes_in_flight -= w->len;
  if (status < 0 && status != UV_ECANCELED) fprintf(stderr, "ascend-lsp: write failed: %s\n", uv_strerror(status));
  free(w);
}

static void session__write_fd(const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(1, p, n);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return; /* the client is gone: nothing left to tell it */
    }
    p += w;
    n -= (size_t)w;
  }
}

void session_send(Session *s, char *body) {
  if (s->stopped) { /* after exit or the end of input: late callbacks have no one to tell */
    free(body);
    return;
  }
  size_t blen = strlen(body);
  if (!util_utf8_valid(body, blen)) { /* input echoed back (a URI, a method name) may be invalid UTF-8 */
    char *clean = util_utf8_sanitize(body, blen, &blen);
    free(body);
    body = clean;
  }
  StrBuf sb;
  sb_init(&sb);
  framing_encode(&sb, body, blen);
  free(body);
  if (!s->out_is_stream) {
    session__write_fd(sb.data, sb.len);
    sb_free(&sb);
    return;
  }
  WriteReq *w = xmalloc(sizeof *w + sb.len);
  w->s = s;
  w->len = sb.len;
  memcpy(w->data, sb.data, sb.len);
  sb_free(&sb);
  uv_buf_t buf = uv_buf_init(w->data, (unsigned)w->len);
  s->bytes_in_flight += w->len;
  if (uv_write(&w->req, s->out, &buf, 1, session__write_cb) != 0) {
    s->bytes_in_flight -= w->len;
    free(w);
  }
}

void session_reply(Session *s, const cJSON *id, cJSON *result) { session_send(s, rpc_result(id, result)); }

void session_reply_error(Session *s, const cJSON *id, int code, const char *message) {
  session_send(s, rpc_error(id, code, message));
}

void session_notify(Session *s, const char *method, cJSON *params) {
  session_send(s, rpc_notification(method, params));
}

char *session_request(Session *s, const char *method, cJSON *params) {
  char *idstr = xasprintf("ascend-lsp-%lld", (long long)++s->next_request_id);
  cJSON *id = cJSON_CreateString(idstr);
  session_send(s, rpc_request(id, method, params));
  cJSON_Delete(id);
  return idstr;
}

void session_log(Session *s, int type, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cJSON *p = cJSON_CreateObject();
  cJSON_AddNumberToObject(p, "type", type);
  cJSON_AddStringToObject(p, "message", msg);
  session_notify(s, "window/logMessage", p);
}

/* ---- lifecycle handlers -------------------------------------------------------- */

static void session__client_caps(Session *s, const cJSON *caps) {
  const cJSON *general = cJSON_GetObjectItemCaseSensitive(caps, "general");
  const cJSON *encs = cJSON_GetObjectItemCaseSensitive(general, "positionEncodings");
  const cJSON *e;
  s->enc = POS_UTF16;
  cJSON_ArrayForEach(e, encs) if (cJSON_IsString(e) && strcmp(e->valuestring, "utf-8") == 0) s->enc = POS_UTF8;
  const cJSON *window = cJSON_GetObjectItemCaseSensitive(caps, "window");
  s->client_show_document =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(window, "showDocument"), "support"));
  s->client_work_done = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(window, "workDoneProgress"));
  const cJSON *ws = cJSON_GetObjectItemCaseSensitive(caps, "workspace");
  s->client_apply_edit = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ws, "applyEdit"));
  const cJSON *watch = cJSON_GetObjectItemCaseSensitive(ws, "didChangeWatchedFiles");
  s->client_dynamic_watch = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(watch, "dynamicRegistration"));
  const cJSON *hover = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(caps, "textDocument"), "hover");
  const cJSON *fmt0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(hover, "contentFormat"), 0);
  s->client_hover_plaintext = cJSON_IsString(fmt0) && strcmp(fmt0->valuestring, "plaintext") == 0;
}

static void session__root(Session *s, const cJSON *params) {
  const cJSON *folders = cJSON_GetObjectItemCaseSensitive(params, "workspaceFolders");
  const char *uri = NULL;
  if (cJSON_IsArray(folders) && cJSON_GetArraySize(folders) > 0)
    uri = lsp_str(cJSON_GetArrayItem(folders, 0), "uri");
  if (!uri) uri = lsp_str(params, "rootUri");
  free(s->root);
  s->root = uri ? doc_uri_to_path(uri) : NULL;
  if (!s->root && lsp_str(params, "rootPath")) s->root = xstrdup(lsp_str(params, "rootPath"));
  s->docs.no_facts = s->root == NULL; /* the project model is built for a workspace folder only */
}

static cJSON *session__capabilities(Session *s) {
  cJSON *caps = cJSON_CreateObject();
  cJSON_AddStringToObject(caps, "positionEncoding", s->enc == POS_UTF8 ? "utf-8" : "utf-16");
  cJSON *sync = cJSON_AddObjectToObject(caps, "textDocumentSync");
  cJSON_AddBoolToObject(sync, "openClose", 1);
  cJSON_AddNumberToObject(sync, "change", 2);
  cJSON *save = cJSON_AddObjectToObject(sync, "save");
  cJSON_AddBoolToObject(save, "includeText", 0);
  cJSON *ca = cJSON_AddObjectToObject(caps, "codeActionProvider");
  cJSON *kinds = cJSON_AddArrayToObject(ca, "codeActionKinds");
  static const char *const k[] = {"quickfix", "source.fixAll.ascend", "source.ascend.transferToNpu"};
  for (size_t i = 0; i < 3; i++) cJSON_AddItemToArray(kinds, cJSON_CreateString(k[i]));
  cJSON_AddBoolToObject(ca, "resolveProvider", 0);
  cJSON_AddBoolToObject(caps, "hoverProvider", 1);
  cJSON *ex = cJSON_AddObjectToObject(caps, "executeCommandProvider");
  cJSON *cmds = cJSON_AddArrayToObject(ex, "commands");
  cJSON_AddItemToArray(cmds, cJSON_CreateString("ascend.generateReport"));
  cJSON_AddItemToArray(cmds, cJSON_CreateString("ascend.fixAll"));
  cJSON_AddBoolToObject(ex, "workDoneProgress", 1);
  cJSON *ws = cJSON_AddObjectToObject(caps, "workspace");
  cJSON *wf = cJSON_AddObjectToObject(ws, "workspaceFolders");
  cJSON_AddBoolToObject(wf, "supported", 1);
  /* the project model follows Python files and folders the editor creates, renames or deletes */
  cJSON *fo = cJSON_AddObjectToObject(ws, "fileOperations");
  static const char *const ops[] = {"didCreate", "didRename", "didDelete"};
  for (size_t i = 0; i < 3; i++) {
    cJSON *filters = cJSON_AddArrayToObject(cJSON_AddObjectToObject(fo, ops[i]), "filters");
    for (int k = 0; k < 2; k++) {
      cJSON *f = cJSON_CreateObject();
      cJSON_AddStringToObject(f, "scheme", "file");
      cJSON *pat = cJSON_AddObjectToObject(f, "pattern");
      cJSON_AddStringToObject(pat, "glob", k ? "**" : "**/*.py");
      if (k) cJSON_AddStringToObject(pat, "matches", "folder");
      cJSON_AddItemToArray(filters, f);
    }
  }
  return caps;
}

static void session__initialize(Session *s, const cJSON *id, const cJSON *params) {
  if (s->state != SESSION_STARTING) {
    session_reply_error(s, id, RPC_INVALID_REQUEST, "initialize may only be sent once");
    return;
  }
  if (!cJSON_IsObject(params)) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "initialize needs InitializeParams");
    return;
  }
  session__client_caps(s, cJSON_GetObjectItemCaseSensitive(params, "capabilities"));
  session__root(s, params);
  const cJSON *init = cJSON_GetObjectItemCaseSensitive(params, "initializationOptions");
  if (init) {
    cJSON *wrap = cJSON_CreateObject();
    cJSON_AddItemToObject(wrap, "settings", cJSON_Duplicate(init, 1));
    lsp_did_change_configuration(s, NULL, wrap);
    cJSON_Delete(wrap);
  }
  session_reload_options(s);
  s->state = SESSION_RUNNING;
  cJSON *r = cJSON_CreateObject();
  cJSON_AddItemToObject(r, "capabilities", session__capabilities(s));
  cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
  cJSON_AddStringToObject(info, "name", "ascend-lsp");
  cJSON_AddStringToObject(info, "version", ASCEND_LSP_VERSION);
  session_reply(s, id, r);
}

static void session__initialized(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  (void)params;
  lsp_model_start(s);
  if (!s->client_dynamic_watch) return;
  /* Reload the project configuration when it changes on disk. */
  cJSON *p = cJSON_CreateObject();
  cJSON *regs = cJSON_AddArrayToObject(p, "registrations");
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "id", "ascend-lsp-config-watch");
  cJSON_AddStringToObject(r, "method", "workspace/didChangeWatchedFiles");
  cJSON *ro = cJSON_AddObjectToObject(r, "registerOptions");
  cJSON *w = cJSON_AddArrayToObject(ro, "watchers");
  /* Python files and configuration files naming code (targets.h): the
   * project model follows creations, changes and deletions */
  static const char *const globs[] = {"**/pyproject.toml", "**/.ascend-lsp.toml", "**/*.py", "**/*.{yaml,yml}"};
  for (size_t i = 0; i < sizeof globs / sizeof globs[0]; i++) {
    cJSON *g = cJSON_CreateObject();
    cJSON_AddStringToObject(g, "globPattern", globs[i]);
    cJSON_AddItemToArray(w, g);
  }
  cJSON_AddItemToArray(regs, r);
  free(session_request(s, "client/registerCapability", p));
}

static void session__shutdown(Session *s, const cJSON *id, const cJSON *params) {
  (void)params;
  s->state = SESSION_SHUT_DOWN;
  lsp_report_shutdown(s);
  lsp_model_shutdown(s);
  session_reply(s, id, cJSON_CreateNull());
}

static void session__stop(Session *s);

static void session__exit(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  (void)params;
  s->exit_code = s->state == SESSION_SHUT_DOWN ? 0 : 1;
  s->exit_requested = true;
  session__stop(s);
}

/* ---- dispatch --------------------------------------------------------------------- */

enum { SESSION_REQUEST = 1, SESSION_NOTIFICATION = 2 };

typedef struct {
  const char *method;
  SessionHandler fn;
  int kind;
} Route;

/* Sorted by method (strcmp) for bsearch. */
static const Route session__routes[] = {
    {"$/cancelRequest", lsp_cancel, SESSION_NOTIFICATION},
    {"exit", session__exit, SESSION_NOTIFICATION},
    {"initialize", session__initialize, SESSION_REQUEST},
    {"initialized", session__initialized, SESSION_NOTIFICATION},
    {"shutdown", session__shutdown, SESSION_REQUEST},
    {"textDocument/codeAction", lsp_code_action, SESSION_REQUEST},
    {"textDocument/didChange", lsp_did_change, SESSION_NOTIFICATION},
    {"textDocument/didClose", lsp_did_close, SESSION_NOTIFICATION},
    {"textDocument/didOpen", lsp_did_open, SESSION_NOTIFICATION},
    {"textDocument/didSave", lsp_did_save, SESSION_NOTIFICATION},
    {"textDocument/hover", lsp_hover, SESSION_REQUEST},
    {"window/workDoneProgress/cancel", lsp_model_cancel, SESSION_NOTIFICATION},
    {"workspace/didChangeConfiguration", lsp_did_change_configuration, SESSION_NOTIFICATION},
    {"workspace/didChangeWatchedFiles", lsp_did_change_watched_files, SESSION_NOTIFICATION},
    {"workspace/didCreateFiles", lsp_model_did_create_files, SESSION_NOTIFICATION},
    {"workspace/didDeleteFiles", lsp_model_did_delete_files, SESSION_NOTIFICATION},
    {"workspace/didRenameFiles", lsp_model_did_rename_files, SESSION_NOTIFICATION},
    {"workspace/executeCommand", lsp_execute_command, SESSION_REQUEST},
};

static int session__route_cmp(const void *key, const void *r) {
  return strcmp((const char *)key, ((const Route *)r)->method);
}

static void session__dispatch(Session *s, const RpcMessage *m) {
  bool request = m->kind == RPC_REQUEST;
  const Route *r = bsearch(m->method, session__routes, sizeof session__routes / sizeof session__routes[0],
                           sizeof session__routes[0], session__route_cmp);
  if (r && r->fn == session__exit) {
    session__exit(s, NULL, NULL);
    return;
  }
  if (s->state == SESSION_STARTING && !(r && r->fn == session__initialize)) {
    if (request) session_reply_error(s, m->id, RPC_SERVER_NOT_INITIALIZED, "the server is not initialized yet");
    return;
  }
  if (s->state == SESSION_SHUT_DOWN) {
    if (request) session_reply_error(s, m->id, RPC_INVALID_REQUEST, "the server is shut down; only exit is accepted");
    return;
  }
  if (!r || (request && r->kind != SESSION_REQUEST) || (!request && r->kind != SESSION_NOTIFICATION)) {
    if (request) {
      char msg[320];
      snprintf(msg, sizeof msg, "unknown method %s", m->method);
      session_reply_error(s, m->id, RPC_METHOD_NOT_FOUND, msg);
    }
    return; /* unknown notifications (and $/ ones) are ignored, as LSP says */
  }
  r->fn(s, request ? m->id : NULL, m->params);
}

static void session__message(Session *s, const char *body, size_t len) {
  RpcMessage m;
  RpcError err;
  if (rpc_parse(body, len, &m, &err) != 0) {
    if (err.answer) session_reply_error(s, err.id, err.code, err.message);
    else fprintf(stderr, "ascend-lsp: skipped a malformed notification: %s\n", err.message);
    cJSON_Delete(err.id);
    return;
  }
  s->msg_nul_masked = m.nul_masked;
  if (m.kind != RPC_RESPONSE) session__dispatch(s, &m);
  else if (cJSON_IsString(m.id)) lsp_response(s, m.id->valuestring, cJSON_GetObjectItemCaseSensitive(m.root, "error") == NULL);
  rpc_message_free(&m);
}

/* The value of a top-level-looking `"key": value` (a number or a string
 * without escapes) in the first bytes of a message, or NULL. A skipped
 * message cannot be parsed; clients write "id" and "method" before
 * "params", so what comes before "params" is trusted. Caller frees. */
static cJSON *session__peek(const char *head, size_t len, const char *key) {
  char pat[16];
  snprintf(pat, sizeof pat, "\"%s\"", key);
  const char *params = memmem(head, len, "\"params\"", 8);
  size_t scope = params ? (size_t)(params - head) : len;
  const char *p = memmem(head, scope, pat, strlen(pat));
  if (!p) return NULL;
  const char *end = head + len;
  for (p += strlen(pat); p < end && (*p == ' ' || *p == ':' || *p == '\t'); p++) {}
  if (p < end && *p == '"') {
    const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
    if (!q || memchr(p + 1, '\\', (size_t)(q - p - 1))) return NULL;
    char *v = xstrndup(p + 1, (size_t)(q - p - 1));
    cJSON *r = cJSON_CreateString(v);
    free(v);
    return r;
  }
  char num[32];
  size_t k = 0;
  while (p < end && k + 1 < sizeof num && ((*p >= '0' && *p <= '9') || *p == '-')) num[k++] = *p++;
  num[k] = '\0';
  return k && (p == end || *p == ',' || *p == '}' || *p == ' ') ? cJSON_CreateNumber(strtod(num, NULL)) : NULL;
}

/* A message over the size limit is skipped unread: a request gets an
 * error (with its id when the first bytes show it), anything else a log
 * line; the session goes on with the next message. */
static void session__too_large(Session *s, const char *head, size_t len, const char *err) {
  cJSON *id = session__peek(head, len, "id");
  cJSON *method = session__peek(head, len, "method");
  const char *m = cJSON_IsString(method) ? method->valuestring : "a message";
  fprintf(stderr, "ascend-lsp: %s: %s\n", m, err);
  if (id) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", m, err);
    session_reply_error(s, id, RPC_INVALID_REQUEST, msg);
  } else {
    session_log(s, 1, "ascend-lsp: %s: %s%s", m, err,
                cJSON_IsString(method) && strncmp(m, "textDocument/did", 16) == 0
                    ? " (the document's text here is out of date: close and reopen it)" : "");
  }
  cJSON_Delete(id);
  cJSON_Delete(method);
}

static void session__feed(Session *s, const char *data, size_t n) {
  framing_feed(&s->framer, data, n);
  for (;;) {
    const char *body, *err;
    size_t len;
    FramingStatus st = framing_next(&s->framer, &body, &len, &err);
    if (st == FRAMING_NEED_MORE || s->exit_requested) return;
    if (st == FRAMING_MESSAGE) {
      session__message(s, body, len);
      if (s->sync) lsp_flush(s); /* deterministic order for transcript tests */
    } else if (st == FRAMING_BAD_HEADER) {
      fprintf(stderr, "ascend-lsp: skipped a malformed header: %s\n", err);
      session_log(s, 1, "ascend-lsp: skipped a malformed message header: %s", err);
    } else if (st == FRAMING_TOO_LARGE) {
      session__too_large(s, body, len, err);
    } else {
      fprintf(stderr, "ascend-lsp: %s; closing the input\n", err ? err : "framing error");
      s->exit_code = 1;
      session__stop(s);
      return;
    }
  }
}

/* ---- input --------------------------------------------------------------------- */

static void session__alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  Session *s = h->data;
  (void)suggested;
  buf->base = s->in_buf;
  buf->len = SESSION_READ_CHUNK;
}

static void session__eof(Session *s) {
  if (!s->exit_requested) s->exit_code = s->state == SESSION_SHUT_DOWN ? 0 : 1;
  session__stop(s);
}

static void session__read_cb(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf) {
  Session *s = st->data;
  (void)buf;
  if (nread > 0) session__feed(s, s->in_buf, (size_t)nread);
  else if (nread < 0) session__eof(s); /* UV_EOF or a read error */
}

static void session__file_read_cb(uv_fs_t *req) {
  Session *s = req->data;
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  if (n <= 0) {
    session__eof(s);
    return;
  }
  s->in_offset += n;
  session__feed(s, s->in_buf, (size_t)n);
  if (s->exit_requested) return;
  uv_buf_t b = uv_buf_init(s->in_buf, SESSION_READ_CHUNK);
  uv_fs_read(s->loop, &s->in_req, s->in_file, &b, 1, -1, session__file_read_cb);
}

static uv_stream_t *session__open_stream(Session *s, int fd, bool readable) {
  uv_handle_type t = uv_guess_handle(fd);
  if (t == UV_TTY) {
    uv_tty_t *tty = xcalloc(1, sizeof *tty);
    if (uv_tty_init(s->loop, tty, fd, readable) == 0) return (uv_stream_t *)tty;
    free(tty);
  } else if (t == UV_NAMED_PIPE || t == UV_TCP) {
    uv_pipe_t *p = xcalloc(1, sizeof *p);
    if (uv_pipe_init(s->loop, p, 0) == 0 && uv_pipe_open(p, fd) == 0) return (uv_stream_t *)p;
    free(p);
  }
  return NULL;
}

static void session__start_input(Session *s) {
  s->in_buf = xmalloc(SESSION_READ_CHUNK);
  s->in = session__open_stream(s, 0, true);
  if (s->in) {
    s->in->data = s;
    uv_read_start(s->in, session__alloc_cb, session__read_cb);
    return;
  }
  s->in_file = 0; /* a regular file or /dev/null: read it in order */
  s->in_req.data = s;
  uv_buf_t b = uv_buf_init(s->in_buf, SESSION_READ_CHUNK);
  uv_fs_read(s->loop, &s->in_req, s->in_file, &b, 1, -1, session__file_read_cb);
}

/* ---- scheduling and shutdown ------------------------------------------------------- */

static void session__flush_cb(uv_check_t *h) {
  Session *s = h->data;
  if (s->debounce_ms == 0) lsp_flush(s);
}

static void session__debounce_cb(uv_timer_t *t) { lsp_flush(t->data); }

void session_schedule(Session *s) {
  if (s->debounce_ms > 0) uv_timer_start(&s->debounce, session__debounce_cb, s->debounce_ms, 0);
}

static void session__free_handle(uv_handle_t *h) { free(h); }

static void session__shutdown_cb(uv_shutdown_t *req, int status) {
  (void)status;
  uv_close((uv_handle_t *)req->handle, session__free_handle);
  free(req);
}

static void session__stop(Session *s) {
  if (s->stopped) return;
  s->stopped = true;
  s->exit_requested = true;
  lsp_report_shutdown(s);
  lsp_model_shutdown(s);
  if (s->in) {
    uv_read_stop(s->in);
    if (!uv_is_closing((uv_handle_t *)s->in)) uv_close((uv_handle_t *)s->in, session__free_handle);
    s->in = NULL;
  }
  if (!uv_is_closing((uv_handle_t *)&s->flush)) uv_close((uv_handle_t *)&s->flush, NULL);
  if (!uv_is_closing((uv_handle_t *)&s->debounce)) uv_close((uv_handle_t *)&s->debounce, NULL);
  if (s->out && !uv_is_closing((uv_handle_t *)s->out)) {
    /* let queued writes drain before closing stdout */
    uv_shutdown_t *req = xcalloc(1, sizeof *req);
    if (uv_shutdown(req, s->out, session__shutdown_cb) != 0) {
      free(req);
      uv_close((uv_handle_t *)s->out, session__free_handle);
    }
    s->out = NULL;
  }
}

static void session__init(Session *s, uv_loop_t *loop) {
  memset(s, 0, sizeof *s);
  s->loop = loop;
  s->enc = POS_UTF16;
  s->settings.mindiesd = -1;
  s->applied.from.mindiesd = -1;
  s->exit_code = 1;
  framing_init(&s->framer, FRAMING_DEFAULT_LIMIT);
  doc_store_init(&s->docs);
  analyze_options_default(&s->opt);
  s->cache = ws_cache_new();
  uv_check_init(loop, &s->flush);
  s->flush.data = s;
  uv_check_start(&s->flush, session__flush_cb);
  uv_timer_init(loop, &s->debounce);
  s->debounce.data = s;
}

static void session__free(Session *s) {
  framing_free(&s->framer);
  doc_store_free(&s->docs);
  config_free(&s->config);
  session_settings_free(&s->settings);
  session_applied_free(&s->applied);
  lsp_model_free(s);
  ws_cache_free(s->cache);
  free(s->support_notice);
  free(s->root);
  free(s->docs_base);
  size_t n_rules;
  kb_rules(&n_rules);
  for (size_t i = 0; s->rule_hrefs && i < n_rules; i++) free(s->rule_hrefs[i]);
  free(s->rule_hrefs);
  free(s->in_buf);
}

int session_run_stdio(bool sync) {
  util_keep_freed_memory();
  uv_loop_t loop;
  if (uv_loop_init(&loop) != 0) return 1;
  Session s;
  session__init(&s, &loop);
  s.sync = sync;
  s.out = session__open_stream(&s, 1, false);
  s.out_is_stream = s.out != NULL;
  if (s.out) s.out->data = &s;
  session__start_input(&s);
  uv_run(&loop, UV_RUN_DEFAULT);
  /* close whatever is still open (e.g. after an input error) */
  session__stop(&s);
  uv_run(&loop, UV_RUN_DEFAULT);
  int rc = s.exit_code;
  session__free(&s);
  uv_loop_close(&loop);
  return rc;
}
