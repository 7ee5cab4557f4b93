/* lsp_command: workspace/executeCommand. `ascend.generateReport` scans the
 * workspace on the libuv thread pool (open documents contribute their
 * unsaved text), reports `$/progress`, honours `$/cancelRequest`, writes the
 * report file, asks the client to show it (window/showDocument, before the
 * answer) and answers with its path and summary; `ascend.fixAll` asks the
 * client to apply every safe fix of a document. */
#include "server/lsp/session_internal.h"
#include "server/reportgen.h"
#include "server/workspace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
  char *path;
  char *text;
  size_t len;
} Overlay;

struct ReportJob {
  Session *s;
  uv_work_t work;
  uv_async_t progress;
  cJSON *id;            /* request id (owned copy) */
  char *token;          /* progress token */
  char *create_id;      /* our window/workDoneProgress/create request, until answered */
  bool token_ready;     /* the client knows the token */
  bool ended;
  bool finished;        /* the work is done; the answer waits for the create response */
  int work_status;      /* its uv status, for then */
  uv_timer_t wait;      /* ... at most LSP_CREATE_WAIT_MS */
  int open_handles;     /* progress and wait, until closed */
  atomic_int cancel;
  atomic_size_t done, total;
  size_t reported_pct;
  bool reported_all;    /* the "N/N files" report went out */
  char *root;
  char *output;         /* file to write */
  ReportGenOptions ro;
  Array(Overlay) overlays;
  /* results (written by the worker, read after_work) */
  int rc;
  char *error;
  ReportSummary sum;
  bool closed_async;
};

static char *lsp__overlay(void *data, const char *abs, size_t *len) {
  ReportJob *j = data;
  for (size_t i = 0; i < j->overlays.len; i++)
    if (strcmp(j->overlays.items[i].path, abs) == 0) {
      *len = j->overlays.items[i].len;
      return xstrndup(j->overlays.items[i].text, j->overlays.items[i].len);
    }
  return NULL;
}

static void lsp__progress(void *data, size_t done, size_t total) {
  ReportJob *j = data;
  atomic_store(&j->done, done);
  atomic_store(&j->total, total);
  uv_async_send(&j->progress);
}

static void lsp__progress_send(ReportJob *j, const char *kind, const char *msg, int pct) {
  if (strcmp(kind, "end") == 0) j->ended = true;
  if (!j->token || !j->token_ready) return;
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "token", j->token);
  cJSON *v = cJSON_AddObjectToObject(p, "value");
  cJSON_AddStringToObject(v, "kind", kind);
  if (strcmp(kind, "begin") == 0) {
    cJSON_AddStringToObject(v, "title", "Ascend migration report");
    cJSON_AddBoolToObject(v, "cancellable", 1);
  }
  if (msg) cJSON_AddStringToObject(v, "message", msg);
  if (pct >= 0) cJSON_AddNumberToObject(v, "percentage", pct);
  session_notify(j->s, "$/progress", p);
}

static void lsp__async_cb(uv_async_t *a) {
  ReportJob *j = a->data;
  size_t done = atomic_load(&j->done), total = atomic_load(&j->total);
  if (total == 0) return;
  size_t pct = done * 100 / total;
  if (pct == j->reported_pct && (done != total || j->reported_all)) return;
  j->reported_pct = pct;
  j->reported_all = done == total;
  char msg[64];
  snprintf(msg, sizeof msg, "%zu/%zu files", done, total);
  lsp__progress_send(j, "report", msg, (int)pct);
}

static void lsp__report_work(uv_work_t *w) {
  ReportJob *j = w->data;
  Workspace ws = {0};
  const char *paths[] = {j->root};
  WsOptions wo = {(const char *const *)j->s->config.exclude, j->s->config.n_exclude, 0};
  if (ws_collect(&ws, paths, 1, &wo) != 0) {
    j->rc = -ENOENT;
    j->error = xasprintf("cannot read the workspace folder %s", j->root);
    ws_free(&ws);
    return;
  }
  WsRun run = {.cache = j->s->cache, .ignores = config_file_ignore_codes, .ignores_data = &j->s->config,
               .progress = lsp__progress, .progress_data = j, .overlay = lsp__overlay, .overlay_data = j,
               .cancel = &j->cancel};
  /* the CLI's analysis: the project folds and the model too, so the editor's
   * report is the one `ascend-lsp report` writes over the same texts */
  if (ws_analyze_project(&ws, &j->s->opt, &run, config_filter_findings, &j->s->config) < 0) {
    j->rc = -ECANCELED;
    ws_free(&ws);
    return;
  }
  char *out = NULL;
  size_t len = 0;
  int rc = reportgen_render(&ws, &j->ro, &out, &len, &j->sum);
  if (rc == 0) {
    rc = reportgen_write_file(j->output, out, len);
    if (rc != 0) j->error = xasprintf("cannot write %s: %s", j->output, reportgen_write_strerror(rc));
  }
  j->rc = rc;
  free(out);
  ws_free(&ws);
}

static void lsp__job_free(ReportJob *j) {
  cJSON_Delete(j->id);
  free(j->token);
  free(j->create_id);
  free(j->root);
  free(j->output);
  free(j->error);
  for (size_t i = 0; i < j->overlays.len; i++) {
    free(j->overlays.items[i].path);
    free(j->overlays.items[i].text);
  }
  array_free(&j->overlays);
  free(j);
}

static cJSON *lsp__summary_json(const ReportSummary *m) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "verdict", m->verdict ? m->verdict : "");
  cJSON_AddStringToObject(o, "verdict_en", m->verdict_en ? m->verdict_en : "");
  cJSON_AddStringToObject(o, "verdict_id", m->verdict_id ? m->verdict_id : "");
  cJSON_AddNumberToObject(o, "weeks", m->weeks);
  cJSON_AddNumberToObject(o, "person_days", m->person_days);
  cJSON_AddNumberToObject(o, "files", (double)m->files);
  cJSON_AddNumberToObject(o, "findings", (double)m->findings);
  cJSON_AddNumberToObject(o, "blockers", (double)m->blockers);
  cJSON_AddNumberToObject(o, "p0", (double)m->p0);
  cJSON_AddNumberToObject(o, "p1", (double)m->p1);
  cJSON_AddNumberToObject(o, "not_involved", (double)m->not_involved);
  cJSON_AddNumberToObject(o, "phases", (double)m->phases);
  return o;
}

/* How long a finished report waits for the client to accept the progress
 * token it created before answering anyway (a client that never answers
 * must not hang the command). */
#define LSP_CREATE_WAIT_MS 2000

static void lsp__handle_closed(uv_handle_t *h) {
  ReportJob *j = h->data;
  if (--j->open_handles == 0) lsp__job_free(j);
}

static void lsp__job_close(ReportJob *j) {
  uv_close((uv_handle_t *)&j->progress, lsp__handle_closed);
  uv_close((uv_handle_t *)&j->wait, lsp__handle_closed);
}

/* Ends the job: the last progress, then the answer (and showDocument). */
static void lsp__report_finish(ReportJob *j, int status) {
  Session *s = j->s;
  if (s->report == j) s->report = NULL;
  bool cancelled = status == UV_ECANCELED || j->rc == -ECANCELED || atomic_load(&j->cancel);
  /* uv_async_send coalesces and may not have run yet: the last count goes
   * out before "end" and the reply, in that order */
  if (!cancelled) lsp__async_cb(&j->progress);
  lsp__progress_send(j, "end", cancelled ? "cancelled" : j->rc ? "failed" : "done", -1);
  if (s->exit_requested) {
    /* the client is gone; nothing to answer */
  } else if (cancelled) {
    session_reply_error(s, j->id, RPC_REQUEST_CANCELLED, "the report was cancelled");
  } else if (j->rc != 0) {
    session_reply_error(s, j->id, RPC_REQUEST_FAILED, j->error ? j->error : "the report failed");
  } else {
    char *uri = doc_path_to_uri(j->output);
    /* showDocument goes out before the answer: a client that opens the
     * report itself when its request returns (the VS Code extension) can
     * tell this one from others while its request is still in flight */
    if (s->client_show_document) {
      cJSON *p = cJSON_CreateObject();
      cJSON_AddStringToObject(p, "uri", uri);
      cJSON_AddBoolToObject(p, "takeFocus", 0);
      free(session_request(s, "window/showDocument", p));
    }
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "path", j->output);
    cJSON_AddStringToObject(r, "uri", uri);
    cJSON_AddItemToObject(r, "summary", lsp__summary_json(&j->sum));
    session_reply(s, j->id, r);
    free(uri);
  }
  lsp__job_close(j);
  if (s->reload_pending && !s->exit_requested) {
    session_reload_options(s);
    lsp_reanalyze_all(s);
  }
}

/* The client did not answer the create request in time: answer without
 * the progress (a late answer finds no report and is ignored). */
static void lsp__wait_cb(uv_timer_t *t) {
  ReportJob *j = t->data;
  if (j->finished) lsp__report_finish(j, j->work_status);
}

static void lsp__report_done(uv_work_t *w, int status) {
  ReportJob *j = w->data;
  /* the client has not yet accepted the progress token we created: its
   * begin and end go out once it has (lsp_response), then the answer, so
   * that the progress it was told of always ends */
  if (j->create_id && !j->s->exit_requested) {
    j->finished = true;
    j->work_status = status;
    uv_timer_start(&j->wait, lsp__wait_cb, LSP_CREATE_WAIT_MS, 0);
    return;
  }
  lsp__report_finish(j, status);
}

/* Arguments: optional [{format, output, lang}]; the token comes from the
 * request's workDoneToken, else one is created when the client allows. */
static void lsp__generate_report(Session *s, const cJSON *id, const cJSON *args, const cJSON *token) {
  if (s->report) {
    session_reply_error(s, id, RPC_REQUEST_FAILED, "a report is already being generated");
    return;
  }
  const cJSON *opts = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
  const char *format = lsp_str(opts, "format") ? lsp_str(opts, "format") : "md";
  const char *lang = lsp_str(opts, "lang") ? lsp_str(opts, "lang") : (s->lang_zh ? "zh" : "en");
  ReportGenFormat fmt;
  if (!reportgen_format_parse(format, &fmt)) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "format must be md, json, html or sarif");
    return;
  }
  if (strcmp(lang, "en") != 0 && strcmp(lang, "zh") != 0) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "lang must be en or zh");
    return;
  }
  const char *root = s->root ? s->root : ".";
  ReportJob *j = xcalloc(1, sizeof *j);
  j->s = s;
  j->id = cJSON_Duplicate(id, 1);
  j->root = xstrdup(root);
  const char *output = lsp_str(opts, "output");
  if (output && output[0] == '/') j->output = xstrdup(output);
  else if (output) j->output = xasprintf("%s/%s", root, output);
  else j->output = xasprintf("%s/ascend-migration-report.%s", root, reportgen_format_ext(fmt));
  j->ro.format = fmt;
  j->ro.zh = strcmp(lang, "zh") == 0;
  j->ro.phases = (const char *const *)s->config.phases;
  j->ro.n_phases = s->config.n_phases;
  j->ro.aopt = &s->opt;
  j->ro.overlay = lsp__overlay;
  j->ro.overlay_data = j;
  j->ro.cancel = &j->cancel;
  for (size_t i = 0; i < s->docs.docs.len; i++) { /* unsaved text wins over the disk copy */
    Document *d = s->docs.docs.items[i];
    Overlay o = {xstrdup(d->path), xstrndup(d->text.data, d->text.len), d->text.len};
    array_push(&j->overlays, o);
  }
  j->token_ready = true;
  if (cJSON_IsString(token)) {
    j->token = xstrdup(token->valuestring);
  } else if (cJSON_IsNumber(token)) {
    j->token = xasprintf("%lld", (long long)token->valuedouble);
  } else if (s->client_work_done) {
    /* progress on a server-created token starts once the client accepted it */
    j->token = xasprintf("ascend-report-%lld", (long long)++s->next_request_id);
    j->token_ready = false;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "token", j->token);
    j->create_id = session_request(s, "window/workDoneProgress/create", p);
  }
  uv_async_init(s->loop, &j->progress, lsp__async_cb);
  j->progress.data = j;
  uv_timer_init(s->loop, &j->wait);
  j->wait.data = j;
  j->open_handles = 2;
  j->work.data = j;
  s->report = j;
  lsp__progress_send(j, "begin", "scanning the workspace", 0);
  if (uv_queue_work(s->loop, &j->work, lsp__report_work, lsp__report_done) != 0) {
    s->report = NULL;
    session_reply_error(s, id, RPC_INTERNAL_ERROR, "cannot start the report");
    lsp__job_close(j);
  }
}

static void lsp__fix_all(Session *s, const cJSON *id, const cJSON *args) {
  const cJSON *a0 = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
  const char *uri = cJSON_IsString(a0) ? a0->valuestring : lsp_str(a0, "uri");
  Document *d = uri ? doc_find(&s->docs, uri) : NULL;
  if (!d) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "ascend.fixAll needs the URI of an open document");
    return;
  }
  cJSON *edit = lsp_fix_all_edit(s, d);
  if (edit && s->client_apply_edit) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "label", "Fix all safe Ascend migration issues");
    cJSON_AddItemToObject(p, "edit", edit);
    free(session_request(s, "workspace/applyEdit", p));
    session_reply(s, id, cJSON_CreateTrue());
  } else {
    session_reply(s, id, edit ? edit : cJSON_CreateNull());
  }
}

void lsp_execute_command(Session *s, const cJSON *id, const cJSON *params) {
  const char *cmd = lsp_str(params, "command");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  if (!cmd) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "executeCommand needs a command");
  } else if (strcmp(cmd, "ascend.generateReport") == 0) {
    lsp__generate_report(s, id, args, cJSON_GetObjectItemCaseSensitive(params, "workDoneToken"));
  } else if (strcmp(cmd, "ascend.fixAll") == 0) {
    lsp__fix_all(s, id, args);
  } else {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "unknown command");
  }
}

void lsp_cancel(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  const cJSON *cid = cJSON_GetObjectItemCaseSensitive(params, "id");
  if (s->report && cid && cJSON_Compare(cid, s->report->id, 1)) atomic_store(&s->report->cancel, 1);
}

void lsp_response(Session *s, const char *id, bool ok) {
  if (lsp_model_response(s, id, ok)) return;
  ReportJob *j = s->report;
  if (!j || !j->create_id || strcmp(j->create_id, id) != 0) return;
  free(j->create_id);
  j->create_id = NULL;
  if (ok && !j->ended) {
    j->token_ready = true;
    lsp__progress_send(j, "begin", "scanning the workspace", 0);
  }
  if (j->finished) lsp__report_finish(j, j->work_status);
}

void lsp_report_shutdown(Session *s) {
  if (!s->report) return;
  atomic_store(&s->report->cancel, 1);
  if (s->report->finished) lsp__report_finish(s->report, s->report->work_status);
}
