/* lsp_model: the project model in the language server.
 *
 * After `initialized` the workspace folder is scanned and the model built on
 * the libuv thread pool (open documents contribute their unsaved text, a
 * snapshot taken when the build starts), with `$/progress` when the client
 * allows it and cancellation through window/workDoneProgress/cancel or
 * shutdown. Diagnostics of open documents never wait for it: until it is
 * there they are the per-file ones. With --sync (transcript tests) the
 * build runs inline, so that output order is fixed.
 *
 * Afterwards the model is kept up to date on the loop thread: every
 * analysis of an open document replaces its module (model_set_module keeps
 * the model as it is when nothing the model uses changed), and when the
 * model changed the other open Python documents are analyzed again and
 * re-published only if their diagnostics changed. Watched-file events add,
 * re-read or drop modules of files that are not open. */
#include "server/lsp/session_internal.h"
#include "analyzers/project/model.h"

#include <errno.h>
#include <stdlib.h>

typedef struct {
  char *path, *text;
  size_t len;
} ModelOverlay;

struct ModelJob {
  Session *s;
  uv_work_t work;
  atomic_int cancel;
  char *root;
  Array(ModelOverlay) overlays;
  char *token;     /* progress token, NULL without client support */
  char *create_id; /* our window/workDoneProgress/create request, until answered */
  bool token_ready, ended;
  Model *model;    /* result */
  int rc;
};

static char *lsp_model__overlay(void *data, const char *abs, size_t *len) {
  ModelJob *j = data;
  for (size_t i = 0; i < j->overlays.len; i++)
    if (strcmp(j->overlays.items[i].path, abs) == 0) {
      *len = j->overlays.items[i].len;
      return xstrndup(j->overlays.items[i].text, j->overlays.items[i].len);
    }
  return NULL;
}

static void lsp_model__progress(ModelJob *j, const char *kind, const char *msg) {
  if (strcmp(kind, "end") == 0) j->ended = true;
  if (!j->token || !j->token_ready || j->s->stopped) return; /* after exit stdout is closed */
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "token", j->token);
  cJSON *v = cJSON_AddObjectToObject(p, "value");
  cJSON_AddStringToObject(v, "kind", kind);
  if (strcmp(kind, "begin") == 0) {
    cJSON_AddStringToObject(v, "title", "Ascend project model");
    cJSON_AddBoolToObject(v, "cancellable", 1);
  }
  if (msg) cJSON_AddStringToObject(v, "message", msg);
  session_notify(j->s, "$/progress", p);
}

static void lsp_model__work(uv_work_t *w) {
  ModelJob *j = w->data;
  Workspace ws = {0};
  const char *paths[] = {j->root};
  WsOptions wo = {(const char *const *)j->s->config.exclude, j->s->config.n_exclude, 0};
  if (ws_collect(&ws, paths, 1, &wo) != 0) {
    j->rc = -ENOENT;
    ws_free(&ws);
    return;
  }
  /* one thread: the editor's own analyses stay responsive */
  WsRun run = {.threads = 1, .cache = j->s->cache, .ignores = config_file_ignore_codes, .ignores_data = &j->s->config,
               .overlay = lsp_model__overlay, .overlay_data = j, .cancel = &j->cancel};
  if (ws_analyze(&ws, &j->s->opt, &run) != 0 || atomic_load(&j->cancel)) {
    j->rc = -ECANCELED;
    ws_free(&ws);
    return;
  }
  j->model = ws_model_build(&ws, true, true);
  ws_free(&ws);
}

static void lsp_model__job_free(ModelJob *j) {
  free(j->root);
  free(j->token);
  free(j->create_id);
  for (size_t i = 0; i < j->overlays.len; i++) {
    free(j->overlays.items[i].path);
    free(j->overlays.items[i].text);
  }
  array_free(&j->overlays);
  model_free(j->model);
  free(j);
}

/* Open documents analyzed since the snapshot replace their modules. */
static void lsp_model__adopt_open(Session *s) {
  for (size_t i = 0; i < s->docs.docs.len; i++) {
    Document *d = s->docs.docs.items[i];
    if (d->kind != FILE_PYTHON || !d->path) continue;
    d->dirty = true; /* analyzed again, with the model */
    d->published = false;
  }
}

static void lsp_model__done(uv_work_t *w, int status) {
  ModelJob *j = w->data;
  Session *s = j->s;
  if (s->model_job == j) s->model_job = NULL;
  bool cancelled = status == UV_ECANCELED || j->rc == -ECANCELED || atomic_load(&j->cancel);
  lsp_model__progress(j, "end", cancelled ? "cancelled" : j->rc ? "failed" : "done");
  if (!cancelled && j->model && !s->exit_requested) {
    model_free(s->model);
    s->model = j->model;
    j->model = NULL;
    lsp_model__adopt_open(s);
    session_schedule(s);
  } else if (j->rc == -ENOENT && !s->stopped) {
    session_log(s, 2, "ascend-lsp: cannot read the workspace folder %s: no project model", j->root);
  }
  lsp_model__job_free(j);
  if (s->reload_pending && !s->exit_requested && !s->report) {
    session_reload_options(s);
    lsp_reanalyze_all(s);
  }
}

void lsp_model_start(Session *s) {
  if (!s->root || s->model_job || s->state != SESSION_RUNNING) return;
  ModelJob *j = xcalloc(1, sizeof *j);
  j->s = s;
  j->root = xstrdup(s->root);
  for (size_t i = 0; i < s->docs.docs.len; i++) {
    const Document *d = s->docs.docs.items[i];
    if (!d->path) continue;
    ModelOverlay o = {xstrdup(d->path), xstrndup(d->text.data, d->text.len), d->text.len};
    array_push(&j->overlays, o);
  }
  j->work.data = j;
  s->model_job = j;
  if (s->sync) { /* transcript tests: a fixed order */
    lsp_model__work(&j->work);
    lsp_model__done(&j->work, 0);
    return;
  }
  if (s->client_work_done) {
    j->token = xasprintf("ascend-model-%lld", (long long)++s->next_request_id);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "token", j->token);
    j->create_id = session_request(s, "window/workDoneProgress/create", p);
  }
  if (uv_queue_work(s->loop, &j->work, lsp_model__work, lsp_model__done) != 0) {
    s->model_job = NULL;
    lsp_model__job_free(j);
  }
}

bool lsp_model_response(Session *s, const char *id, bool ok) {
  ModelJob *j = s->model_job;
  if (!j || !j->create_id || strcmp(j->create_id, id) != 0) return false;
  free(j->create_id);
  j->create_id = NULL;
  if (ok && !j->ended) {
    j->token_ready = true;
    lsp_model__progress(j, "begin", "building the project model");
  }
  return true;
}

void lsp_model_cancel(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(params, "token");
  ModelJob *j = s->model_job;
  if (j && j->token && cJSON_IsString(tok) && strcmp(tok->valuestring, j->token) == 0) atomic_store(&j->cancel, 1);
}

void lsp_model_shutdown(Session *s) {
  if (s->model_job) atomic_store(&s->model_job->cancel, 1);
}

void lsp_model_free(Session *s) {
  model_free(s->model);
  s->model = NULL;
}

/* A digest of what a document shows, to publish dependents only when their
 * diagnostics changed. */
static uint64_t lsp_model__digest(const FindingList *l) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < l->len; i++) {
    const Finding *f = &l->items[i];
    sb_printf(&sb, "%s/%u/%u/%d/%s\n", f->rule->code, f->start_byte, f->end_byte, (int)f->severity, f->message);
  }
  uint64_t h = ws_hash(sb.data ? sb.data : "", sb.len);
  sb_free(&sb);
  return h;
}

bool lsp_model_after_analyze(Session *s, Document *d) {
  if (!s->model || d->kind != FILE_PYTHON || !d->path) return false;
  model_set_module(s->model, d->path, d->rel, &d->facts, &d->findings);
  bool changed = model_is_dirty(s->model);
  model_apply(s->model, d->path, &s->opt, &d->findings);
  config_filter_findings(&s->config, d->path, &d->findings);
  d->shown_digest = lsp_model__digest(&d->findings);
  d->model_view = model_view_digest(s->model, d->path, &s->opt);
  return changed;
}

/* After the model changed: the other open Python documents whose view of
 * the model changed (model_view_digest) are analyzed again; those whose
 * diagnostics changed are published. The others are not touched. */
void lsp_model_refresh_dependents(Session *s, const Document *changed) {
  for (size_t i = 0; i < s->docs.docs.len; i++) {
    Document *d = s->docs.docs.items[i];
    if (d == changed || d->kind != FILE_PYTHON || d->dirty || !d->published || !d->path) continue;
    if (model_view_digest(s->model, d->path, &s->opt) == d->model_view) continue;
    uint64_t old = d->shown_digest;
    d->dirty = true;
    lsp_analyze(s, d);
    if (d->shown_digest != old) d->published = false;
  }
}

/* workspace/didChangeWatchedFiles: FileEvent type 1 created, 2 changed, 3 deleted. */
bool lsp_model_watched(Session *s, const cJSON *params) {
  if (!s->model) return false;
  bool any = false;
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(params, "changes")) {
    const char *uri = lsp_str(ev, "uri");
    int64_t type = 0;
    if (!uri || !lsp_int(ev, "type", &type) || doc_find(&s->docs, uri)) continue; /* open: its text wins */
    char *path = doc_uri_to_path(uri);
    if (!path || context_file_kind(path) != FILE_PYTHON) {
      free(path);
      continue;
    }
    char *text = NULL;
    size_t len = 0;
    if (type == 3 || util_read_file(path, WS_DEFAULT_MAX_FILE, &text, &len) != 0) {
      model_remove_module(s->model, path); /* deleted, or gone before we read it */
    } else {
      size_t n = s->root ? strlen(s->root) : 0;
      const char *rel = n && strncmp(path, s->root, n) == 0 && path[n] == '/' ? path + n + 1 : path;
      FindingList l = {0};
      FileFacts facts = {0};
      analyze_text(rel, text, len, NULL, &s->opt, &l, &facts);
      config_filter_findings(&s->config, path, &l);
      model_set_module(s->model, path, rel, &facts, &l);
      findings_free(&l);
      analyze_facts_free(&facts);
    }
    free(text);
    free(path);
    any = true;
  }
  return any && model_is_dirty(s->model);
}

char *lsp_model_chain(Session *s, const Document *d, uint32_t at) {
  return s->model && d->path ? model_chain_at(s->model, d->path, at) : NULL;
}
