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
 * Afterwards every analysis of an open document replaces its module on the
 * loop thread (model_set_module: a copy of one module's facts, nothing
 * when nothing the model uses changed). When the model changed it is
 * linked on the thread pool (model_link_cancellable: a body edit relinks
 * that module's calls and the fixpoint, a changed import or definition the
 * whole model); the worker owns the model meanwhile, and documents
 * analyzed in that time wait (lsp_model_waiting) with their modules
 * applied when it is back. Back on the loop thread, the open Python
 * documents whose view of the model changed (model_view_digest) are
 * analyzed again and re-published only if their diagnostics changed.
 * Watched-file events and file operations (create, rename, delete) add,
 * re-read or drop modules of files that are not open, and the targets of
 * configuration files (targets.h); those arriving while
 * the model is away are applied when it is back. With --sync the link runs
 * inline. Shutdown cancels a running link. */
#include "server/lsp/session_internal.h"
#include "analyzers/project/model.h"
#include "analyzers/project/targets.h"
#include "analyzers/engine/fold_outcome.h"

#include <errno.h>
#include <sys/stat.h>
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
  FoldOutcome *folds; /* result: the folds across files */
  int rc;
};

struct LinkJob {
  Session *s;
  uv_work_t work;
  atomic_int cancel;
  Model *model; /* owned while the job runs */
};

static void lsp_model__events(Session *s);
static void lsp_model__link_start(Session *s);

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
  j->folds = ws_project_fold(&ws, &j->s->opt, true);
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
  fold_outcome_free(j->folds);
  free(j);
}

/* Open documents analyzed since the snapshot replace their modules; the
 * others the new folds change are analyzed again too. */
static void lsp_model__adopt_open(Session *s, const FoldOutcome *old) {
  for (size_t i = 0; i < s->docs.docs.len; i++) {
    Document *d = s->docs.docs.items[i];
    if (!d->path) continue;
    if (d->kind != FILE_PYTHON && !fold_outcome_has(s->folds, d->path) && !fold_outcome_has(old, d->path)) continue;
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
    FoldOutcome *old = s->folds;
    s->folds = j->folds;
    j->folds = NULL;
    lsp_model__adopt_open(s, old);
    fold_outcome_free(old);
    lsp_model__events(s);
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
  if (s->model_link) atomic_store(&s->model_link->cancel, 1);
}

void lsp_model_free(Session *s) {
  model_free(s->model);
  s->model = NULL;
  fold_outcome_free(s->folds);
  s->folds = NULL;
  for (size_t i = 0; i < s->model_pending.len; i++) free(s->model_pending.items[i]);
  array_free(&s->model_pending);
  for (size_t i = 0; i < s->model_events.len; i++) cJSON_Delete(s->model_events.items[i]);
  array_free(&s->model_events);
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

/* The model's findings added to d's own (d->findings holds its analysis). */
static void lsp_model__show(Session *s, Document *d) {
  model_apply(s->model, d->path, &s->opt, &d->findings);
  config_filter_findings(&s->config, d->path, &d->findings);
  d->shown_digest = lsp_model__digest(&d->findings);
  d->model_view = model_view_digest(s->model, d->path, &s->opt);
}

static void lsp_model__pend(Session *s, const Document *d) {
  for (size_t i = 0; i < s->model_pending.len; i++)
    if (strcmp(s->model_pending.items[i], d->uri) == 0) return;
  array_push(&s->model_pending, xstrdup(d->uri));
}

bool lsp_model_waiting(Session *s, const Document *d) {
  for (size_t i = 0; i < s->model_pending.len; i++)
    if (strcmp(s->model_pending.items[i], d->uri) == 0) return true;
  return false;
}

bool lsp_model_after_analyze(Session *s, Document *d) {
  if (d->kind != FILE_PYTHON || !d->path) return false;
  if (s->model_link) { /* the model is being linked: this module joins it when it is back */
    lsp_model__pend(s, d);
    return false;
  }
  if (!s->model) return false;
  model_set_module(s->model, d->path, d->rel, &d->facts, &d->findings);
  bool changed = model_is_dirty(s->model);
  if (changed && !s->sync) {
    lsp_model__pend(s, d);
    lsp_model__link_start(s);
    return false;
  }
  lsp_model__show(s, d);
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

static void lsp_model__link_work(uv_work_t *w) {
  LinkJob *j = w->data;
  model_link_cancellable(j->model, &j->cancel);
}

/* The model is back: the events and documents that waited join it; when
 * that changed it again it goes out again, else the waiting documents get
 * the model's findings and the other open ones are refreshed. */
static void lsp_model__link_done(uv_work_t *w, int status) {
  (void)status;
  LinkJob *j = w->data;
  Session *s = j->s;
  s->model_link = NULL;
  s->model = j->model;
  free(j);
  if (s->exit_requested) return;
  lsp_model__events(s);
  for (size_t i = 0; i < s->model_pending.len; i++) {
    Document *d = doc_find(&s->docs, s->model_pending.items[i]);
    if (d && !d->dirty) model_set_module(s->model, d->path, d->rel, &d->facts, &d->findings);
  }
  if (model_is_dirty(s->model)) {
    lsp_model__link_start(s);
    return;
  }
  for (size_t i = 0; i < s->model_pending.len; i++) {
    Document *d = doc_find(&s->docs, s->model_pending.items[i]);
    free(s->model_pending.items[i]);
    if (!d || d->dirty) continue; /* changed again: analyzed (and waits) anew */
    lsp_model__show(s, d);
    d->published = false;
  }
  s->model_pending.len = 0;
  lsp_model_refresh_dependents(s, NULL);
  session_schedule(s);
}

static void lsp_model__link_start(Session *s) {
  if (s->model_link || !s->model) return;
  LinkJob *j = xcalloc(1, sizeof *j);
  j->s = s;
  j->model = s->model;
  j->work.data = j;
  s->model = NULL;
  s->model_link = j;
  if (uv_queue_work(s->loop, &j->work, lsp_model__link_work, lsp_model__link_done) != 0) {
    lsp_model__link_work(&j->work); /* no thread pool: here */
    lsp_model__link_done(&j->work, 0);
  }
}

/* A path inside the workspace folder relative to it; others as they are. */
static const char *lsp_model__rel(const Session *s, const char *path) {
  size_t n = s->root ? strlen(s->root) : 0;
  return n && strncmp(path, s->root, n) == 0 && path[n] == '/' ? path + n + 1 : path;
}

/* The module of a file that is not open, read from disk, or dropped when
 * it is gone; a folder (created, renamed to) brings every Python file in
 * it, a deleted one drops every module under it. */
static void lsp_model__read_module(Session *s, const char *path) {
  char *text = NULL;
  size_t len = 0;
  if (util_read_file(path, WS_DEFAULT_MAX_FILE, &text, &len) != 0) {
    model_remove_module(s->model, path); /* deleted, or gone before we read it */
    return;
  }
  const char *rel = lsp_model__rel(s, path);
  FindingList l = {0};
  FileFacts facts = {0};
  analyze_text(rel, text, len, NULL, &s->opt, &l, &facts);
  config_filter_findings(&s->config, path, &l);
  model_set_module(s->model, path, rel, &facts, &l);
  findings_free(&l);
  analyze_facts_free(&facts);
  free(text);
}

/* A configuration file's targets, read from disk (targets.h); gone or
 * naming nothing: the model forgets it. */
static void lsp_model__read_config(Session *s, const char *path) {
  char *text = NULL, *targets = NULL;
  size_t len = 0;
  if (util_read_file(path, TARGETS_MAX_FILE, &text, &len) == 0) targets = targets_scan(text, len);
  const char *rel = lsp_model__rel(s, path);
  model_set_config(s->model, path, rel, targets);
  free(targets);
  free(text);
}

static bool lsp_model__open_path(const Session *s, const char *path) {
  for (size_t i = 0; i < s->docs.docs.len; i++)
    if (s->docs.docs.items[i]->path && strcmp(s->docs.docs.items[i]->path, path) == 0) return true;
  return false;
}

static void lsp_model__path_event(Session *s, const char *path, bool deleted) {
  if (deleted) {
    model_remove_under(s->model, path);
    return;
  }
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
    if (context_file_kind(path) == FILE_PYTHON) lsp_model__read_module(s, path);
    else if (targets_config_path(path)) lsp_model__read_config(s, path);
    return;
  }
  Workspace ws = {0};
  const char *paths[] = {path};
  WsOptions wo = {(const char *const *)s->config.exclude, s->config.n_exclude, 0};
  if (ws_collect(&ws, paths, 1, &wo) == 0)
    for (size_t i = 0; i < ws.files.len; i++)
      if (ws.files.items[i].kind == FILE_PYTHON && !lsp_model__open_path(s, ws.files.items[i].abs))
        lsp_model__read_module(s, ws.files.items[i].abs);
  for (size_t i = 0; i < ws.configs.len; i++) lsp_model__read_config(s, ws.configs.items[i].abs);
  ws_free(&ws);
}

/* One event list: {"changes": [{uri, type}]}, FileEvent type 1 created,
 * 2 changed, 3 deleted. Open documents are skipped: their text wins. */
static void lsp_model__apply_changes(Session *s, const cJSON *params) {
  const cJSON *ev;
  cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(params, "changes")) {
    const char *uri = lsp_str(ev, "uri");
    int64_t type = 0;
    if (!uri || !lsp_int(ev, "type", &type) || doc_find(&s->docs, uri)) continue;
    char *path = doc_uri_to_path(uri);
    if (path) lsp_model__path_event(s, path, type == 3);
    free(path);
  }
}

static void lsp_model__events(Session *s) {
  for (size_t i = 0; i < s->model_events.len; i++) {
    if (s->model) lsp_model__apply_changes(s, s->model_events.items[i]);
    cJSON_Delete(s->model_events.items[i]);
  }
  s->model_events.len = 0;
}

/* Events for the model: applied now, or kept until it is back from its
 * build or link; a change is linked (inline with --sync, then the open
 * documents whose view changed are refreshed). */
static void lsp_model__changes(Session *s, cJSON *changes) {
  if (s->model_job || s->model_link) {
    array_push(&s->model_events, changes);
    return;
  }
  if (s->model) lsp_model__apply_changes(s, changes);
  cJSON_Delete(changes);
  if (!s->model || !model_is_dirty(s->model)) return;
  if (!s->sync) {
    lsp_model__link_start(s);
    return;
  }
  model_link(s->model);
  lsp_model_refresh_dependents(s, NULL);
}

bool lsp_model_watched(Session *s, const cJSON *params) {
  if (!s->model && !s->model_job && !s->model_link) return false;
  lsp_model__changes(s, cJSON_Duplicate(params, 1));
  return s->model && model_is_dirty(s->model);
}

static void lsp_model__event(cJSON *changes, const char *uri, int type) {
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "uri", uri);
  cJSON_AddNumberToObject(e, "type", type);
  cJSON_AddItemToArray(changes, e);
}

/* workspace/didCreateFiles (type 1), didDeleteFiles (3), didRenameFiles
 * (0): the same as the watched-file events they amount to (a rename: the
 * old name deleted, the new one created). */
static void lsp_model__file_ops(Session *s, const cJSON *params, int type) {
  if (!s->model && !s->model_job && !s->model_link) return;
  cJSON *p = cJSON_CreateObject();
  cJSON *changes = cJSON_AddArrayToObject(p, "changes");
  const cJSON *f;
  cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(params, "files")) {
    const char *uri = lsp_str(f, "uri"), *old = lsp_str(f, "oldUri"), *new = lsp_str(f, "newUri");
    if (old && new) {
      lsp_model__event(changes, old, 3);
      lsp_model__event(changes, new, 1);
    } else if (uri) {
      lsp_model__event(changes, uri, type);
    }
  }
  lsp_model__changes(s, p);
}

void lsp_model_did_create_files(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  lsp_model__file_ops(s, params, 1);
}

void lsp_model_did_rename_files(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  lsp_model__file_ops(s, params, 0);
}

void lsp_model_did_delete_files(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  lsp_model__file_ops(s, params, 3);
}

char *lsp_model_chain(Session *s, const Document *d, uint32_t at) {
  return s->model && d->path ? model_chain_at(s->model, d->path, at) : NULL;
}
