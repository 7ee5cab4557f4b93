/* lsp_sync: document synchronization, settings and diagnostics. Changes are
 * applied as they arrive (text, line index and tree edit); analysis and
 * publishing happen once per loop turn (or after the debounce delay) for
 * every document that changed, so a burst of edits costs one analysis. */
#include "server/lsp/session_internal.h"
#include "analyzers/engine/fold_outcome.h"
#include "server/lsp/lsp_docs.h"
#include "analyzers/engine/nesting.h"
#include "protocol/jsonwrite.h"

#include <stdlib.h>

const char *lsp_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool lsp_int(const cJSON *o, const char *key, int64_t *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v) || v->valuedouble < -9007199254740992.0 || v->valuedouble > 9007199254740992.0) return false;
  *out = (int64_t)v->valuedouble;
  return true;
}

bool lsp_position(const cJSON *o, LspPosition *p) {
  int64_t line, ch;
  if (!lsp_int(o, "line", &line) || !lsp_int(o, "character", &ch) || line < 0 || ch < 0) return false;
  p->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
  p->character = ch > UINT32_MAX ? UINT32_MAX : (uint32_t)ch;
  return true;
}

/* Where a document sits, worked out once: inside the workspace folder the
 * analyzers see the path the CLI would print, so that "tests/" means the
 * project's tests and not a parent folder; outside it (or without one), the
 * path inside the document's own project. */
static void lsp__locate(const Session *s, Document *d) {
  d->located = true;
  if (!d->path) return;
  size_t n = s->root ? strlen(s->root) : 0;
  while (n > 1 && s->root[n - 1] == '/') n--;
  bool inside = n && strncmp(d->path, s->root, n) == 0 && d->path[n] == '/' && d->path[n + 1];
  d->rel = inside ? xstrdup(d->path + n + 1) : ws_project_relative(d->path);
  if (d->kind == FILE_PYTHON) d->npu_sibling = ws_npu_sibling(d->path);
}

/* Analyzes a changed document with the session's options and the
 * project's per-file ignores, exactly as the CLI does. */
void lsp_analyze(Session *s, Document *d) {
  if (!d->located) lsp__locate(s, d);
  if (!d->dirty) return;
  bool was_deep = d->too_deep;
  size_t n = 0;
  const char **ignores = config_file_ignore_codes(&s->config, d->path, &n);
  doc_analyze(&s->docs, d, &s->opt, ignores, n);
  free(ignores);
  fold_outcome_apply(s->folds, d->path, &d->findings); /* as `check` folds it with the other files */
  if (d->too_deep && !was_deep) session_log(s, 2, "ascend-lsp: %s: %s", d->path, nesting_note());
  /* the project model: this module replaced, then the open documents that
   * depend on it (one level of refresh; their own changes come through here) */
  if (lsp_model_after_analyze(s, d) && !s->model_refreshing) {
    s->model_refreshing = true;
    lsp_model_refresh_dependents(s, d);
    s->model_refreshing = false;
  }
}

Document *lsp_document(Session *s, const cJSON *params, bool analyze) {
  const char *uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
  Document *d = uri ? doc_find(&s->docs, uri) : NULL;
  if (d && analyze) lsp_analyze(s, d);
  return d;
}

/* ---- diagnostics -------------------------------------------------------------- */

static cJSON *lsp__position(Session *s, const Document *d, uint32_t off) {
  LspPosition p = pos_from_offset(&d->index, d->text.data, off, s->enc);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "line", p.line);
  cJSON_AddNumberToObject(o, "character", p.character);
  return o;
}

cJSON *lsp_range(Session *s, const Document *d, uint32_t start, uint32_t end) {
  cJSON *r = cJSON_CreateObject();
  cJSON_AddItemToObject(r, "start", lsp__position(s, d, start));
  cJSON_AddItemToObject(r, "end", lsp__position(s, d, end));
  return r;
}

char *lsp_rule_href(Session *s, const KbRule *r) {
  if (!s->docs_looked_up) {
    s->docs_base = lsp_docs_find("/proc/self/exe", getenv("ASCEND_LSP_DOCS_URL"));
    s->docs_looked_up = true;
  }
  return lsp_docs_href(s->docs_base, r);
}

const char *lsp_rule_href_kept(Session *s, const KbRule *r, char **own) {
  *own = NULL;
  size_t n;
  const KbRule *table = kb_rules(&n);
  uintptr_t at = (uintptr_t)r, first = (uintptr_t)table; /* a user rule is not in the table */
  if (at < first || at >= first + n * sizeof *table) return *own = lsp_rule_href(s, r);
  if (!s->rule_hrefs) s->rule_hrefs = xcalloc(n, sizeof *s->rule_hrefs);
  char **kept = &s->rule_hrefs[(at - first) / sizeof *table];
  if (!*kept) *kept = lsp_rule_href(s, r);
  return *kept;
}

static void lsp__position_write(StrBuf *sb, Session *s, const Document *d, uint32_t off) {
  LspPosition p = pos_from_offset(&d->index, d->text.data, off, s->enc);
  sb_puts(sb, "{\"line\":");
  jsonw_int(sb, p.line);
  sb_puts(sb, ",\"character\":");
  jsonw_int(sb, p.character);
  sb_putc(sb, '}');
}

static void lsp__range_write(StrBuf *sb, Session *s, const Document *d, uint32_t start, uint32_t end) {
  sb_puts(sb, "{\"start\":");
  lsp__position_write(sb, s, d, start);
  sb_puts(sb, ",\"end\":");
  lsp__position_write(sb, s, d, end);
  sb_putc(sb, '}');
}

/* A related place in another file (not open: code points stand for UTF-16
 * units, BMP, and bytes for UTF-8). */
static void lsp__other_file_write(StrBuf *sb, Session *s, const Related *r) {
  char *uri = doc_path_to_uri(r->path);
  sb_puts(sb, "{\"uri\":");
  jsonw_string(sb, uri);
  free(uri);
  sb_puts(sb, ",\"range\":{\"start\":{\"line\":");
  jsonw_int(sb, r->start_row);
  sb_puts(sb, ",\"character\":");
  jsonw_int(sb, s->enc == POS_UTF8 ? r->start_col : r->start_char);
  sb_puts(sb, "},\"end\":{\"line\":");
  jsonw_int(sb, r->end_row);
  sb_puts(sb, ",\"character\":");
  jsonw_int(sb, s->enc == POS_UTF8 ? r->end_col : r->end_char);
  sb_puts(sb, "}}}");
}

static void lsp__related_write(StrBuf *sb, Session *s, const Document *d, const Finding *f) {
  sb_puts(sb, ",\"relatedInformation\":[");
  for (size_t i = 0; i < f->related.len; i++) {
    const Related *r = &f->related.items[i];
    sb_puts(sb, i ? ",{\"location\":" : "{\"location\":");
    if (!r->path) {
      sb_puts(sb, "{\"uri\":");
      jsonw_string(sb, d->uri);
      sb_puts(sb, ",\"range\":");
      lsp__range_write(sb, s, d, r->start, r->end);
      sb_putc(sb, '}');
    } else {
      lsp__other_file_write(sb, s, r);
    }
    if (r->message) {
      sb_puts(sb, ",\"message\":");
      jsonw_string(sb, r->message);
    }
    sb_putc(sb, '}');
  }
  sb_putc(sb, ']');
}

/* One diagnostic as JSON text: the shape clients read (range, severity,
 * code and its page, message, the folded sites as related information) and
 * the server's own data (replacement, confidence, fix, guarded, unreachable). */
static void lsp__diagnostic_write(StrBuf *sb, Session *s, const Document *d, const Finding *f) {
  sb_puts(sb, "{\"range\":");
  lsp__range_write(sb, s, d, f->start_byte, f->end_byte);
  sb_puts(sb, ",\"severity\":");
  jsonw_int(sb, f->severity);
  sb_puts(sb, ",\"code\":");
  jsonw_string(sb, f->rule->code);
  char *own;
  const char *href = lsp_rule_href_kept(s, f->rule, &own);
  if (href) {
    sb_puts(sb, ",\"codeDescription\":{\"href\":");
    jsonw_string(sb, href);
    sb_putc(sb, '}');
  }
  free(own);
  sb_puts(sb, ",\"source\":\"ascend-lsp\"");
  const char *msg = s->lang_zh ? f->message_zh : f->message;
  if (msg) {
    sb_puts(sb, ",\"message\":");
    jsonw_string(sb, msg);
  }
  if (f->related.len) lsp__related_write(sb, s, d, f);
  sb_puts(sb, ",\"data\":{");
  bool first = true;
  if (f->replacement) {
    sb_puts(sb, "\"replacement\":");
    jsonw_string(sb, f->replacement);
    first = false;
  }
  sb_puts(sb, first ? "\"confidence\":" : ",\"confidence\":");
  jsonw_string(sb, confidence_name(f->confidence));
  sb_puts(sb, ",\"fix\":");
  jsonw_string(sb, f->fix == FIX_SAFE ? "safe" : f->fix == FIX_UNSAFE ? "unsafe" : "none");
  if (f->guarded) sb_puts(sb, ",\"guarded\":true");
  if (f->unreachable) sb_puts(sb, ",\"unreachable\":true");
  sb_putc(sb, '}');
  if (f->unreachable) sb_puts(sb, ",\"tags\":[1]"); /* DiagnosticTag.Unnecessary: shown faded */
  sb_putc(sb, '}');
}

cJSON *lsp_diagnostic(Session *s, const Document *d, const Finding *f) {
  StrBuf sb;
  sb_init(&sb);
  lsp__diagnostic_write(&sb, s, d, f);
  cJSON *o = cJSON_Parse(sb.data);
  sb_free(&sb);
  return o ? o : cJSON_CreateObject();
}

/* Written as text, not as a cJSON tree: this is the message of every edit. */
static void lsp__publish(Session *s, Document *d) {
  StrBuf sb;
  sb_init(&sb);
  sb_reserve(&sb, 512 + d->findings.len * 1024); /* a diagnostic is under 1 KiB but for long messages */
  rpc_notification_open(&sb, "textDocument/publishDiagnostics");
  sb_puts(&sb, "{\"uri\":");
  jsonw_string(&sb, d->uri);
  jsonw_key(&sb, "version", false);
  jsonw_int(&sb, d->version);
  sb_puts(&sb, ",\"diagnostics\":[");
  for (size_t i = 0; i < d->findings.len; i++) {
    if (i) sb_putc(&sb, ',');
    lsp__diagnostic_write(&sb, s, d, &d->findings.items[i]);
  }
  sb_puts(&sb, "]}");
  rpc_notification_close(&sb);
  session_send(s, sb_steal(&sb));
  d->published = true;
}

void lsp_flush(Session *s) {
  if (s->state != SESSION_RUNNING) return;
  /* a second pass publishes the dependents an analysis re-published */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < s->docs.docs.len; i++) {
      Document *d = s->docs.docs.items[i];
      if (!d->dirty && d->published) continue;
      lsp_analyze(s, d);
      if (lsp_model_waiting(s, d)) continue; /* published when the model is linked (lsp_model.c) */
      lsp__publish(s, d);
    }
}

void lsp_reanalyze_all(Session *s) {
  for (size_t i = 0; i < s->docs.docs.len; i++) {
    s->docs.docs.items[i]->dirty = true;
    s->docs.docs.items[i]->published = false;
  }
  session_schedule(s);
}

/* ---- document sync -------------------------------------------------------------- */

void lsp_did_open(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  const char *uri = lsp_str(td, "uri");
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(td, "text");
  int64_t version = 0;
  if (!uri || !cJSON_IsString(text)) {
    session_log(s, 2, "ascend-lsp: didOpen without textDocument.uri/text: skipped");
    return;
  }
  lsp_int(td, "version", &version);
  Document *d = doc_open(&s->docs, uri, lsp_str(td, "languageId"), version, text->valuestring,
                         strlen(text->valuestring));
  d->nul_marks = s->msg_nul_masked;
  session_schedule(s);
}

static bool lsp__range(const cJSON *range, LspPosition *a, LspPosition *b) {
  return lsp_position(cJSON_GetObjectItemCaseSensitive(range, "start"), a) &&
         lsp_position(cJSON_GetObjectItemCaseSensitive(range, "end"), b);
}

void lsp_did_change(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  Document *d = lsp_document(s, params, false);
  if (!d) {
    session_log(s, 2, "ascend-lsp: didChange for a document that is not open: skipped");
    return;
  }
  const cJSON *changes = cJSON_GetObjectItemCaseSensitive(params, "contentChanges");
  const cJSON *c;
  int64_t version;
  if (lsp_int(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "version", &version)) d->version = version;
  cJSON_ArrayForEach(c, changes) {
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(c, "text");
    if (!cJSON_IsString(text)) {
      session_log(s, 2, "ascend-lsp: a content change without text: skipped");
      continue;
    }
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(c, "range");
    LspPosition a, b;
    if (!range) doc_set_text(d, text->valuestring, strlen(text->valuestring));
    else if (lsp__range(range, &a, &b)) doc_edit_range(d, a, b, s->enc, text->valuestring, strlen(text->valuestring));
    else session_log(s, 2, "ascend-lsp: a content change with a malformed range: skipped");
  }
  d->published = false;
  if (s->msg_nul_masked) d->nul_marks = true;
  session_schedule(s);
}

void lsp_did_close(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  const char *uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
  if (!uri || !doc_close(&s->docs, uri)) return;
  /* clear the closed document's diagnostics, as clients expect */
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "uri", uri);
  cJSON_AddArrayToObject(p, "diagnostics");
  session_notify(s, "textDocument/publishDiagnostics", p);
}

void lsp_did_save(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  const char *uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
  if (uri && (strstr(uri, "pyproject.toml") || strstr(uri, ".ascend-lsp.toml"))) {
    session_reload_options(s);
    lsp_reanalyze_all(s);
  }
}

/* ---- settings -------------------------------------------------------------------- */

static void lsp__string_list(const cJSON *arr, StrList *out) {
  strlist_free(out);
  const cJSON *v;
  cJSON_ArrayForEach(v, arr) if (cJSON_IsString(v)) array_push(out, xstrdup(v->valuestring));
}

static void lsp__replace(char **dst, const char *v) {
  free(*dst);
  *dst = v ? xstrdup(v) : NULL;
}

/* Settings arrive as {"settings": {...}} or {"settings": {"ascend-lsp": {...}}};
 * initializationOptions use the same keys. */
void lsp_did_change_configuration(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(params, "settings");
  const cJSON *inner = cJSON_GetObjectItemCaseSensitive(st, "ascend-lsp");
  if (cJSON_IsObject(inner)) st = inner;
  if (!cJSON_IsObject(st)) return;
  const cJSON *v;
  SessionSettings *set = &s->settings; /* nothing in force points here (see SessionApplied) */
  if ((v = cJSON_GetObjectItemCaseSensitive(st, "select"))) lsp__string_list(v, &set->select);
  if ((v = cJSON_GetObjectItemCaseSensitive(st, "ignore"))) lsp__string_list(v, &set->ignore);
  const cJSON *target = cJSON_GetObjectItemCaseSensitive(st, "target");
  if (cJSON_IsObject(target)) {
    if (lsp_str(target, "chip")) lsp__replace(&set->chip, lsp_str(target, "chip"));
    if (lsp_str(target, "torchNpu")) lsp__replace(&set->torch_npu, lsp_str(target, "torchNpu"));
    if (lsp_str(target, "torch-npu")) lsp__replace(&set->torch_npu, lsp_str(target, "torch-npu"));
    v = cJSON_GetObjectItemCaseSensitive(target, "mindiesd");
    if (cJSON_IsBool(v)) set->mindiesd = cJSON_IsTrue(v);
  }
  const char *lang = lsp_str(st, "lang");
  if (lang) s->lang_zh = strcmp(lang, "zh") == 0;
  int64_t ms;
  if (lsp_int(st, "debounceMs", &ms) && ms >= 0 && ms <= 10000) s->debounce_ms = (unsigned)ms;
  if (s->state == SESSION_RUNNING) {
    session_reload_options(s);
    lsp_reanalyze_all(s);
  }
}

void lsp_did_change_watched_files(Session *s, const cJSON *id, const cJSON *params) {
  (void)id;
  lsp_model_watched(s, params); /* files that are not open: their modules */
  session_reload_options(s);
  lsp_reanalyze_all(s);
}

static void lsp__strlist_copy(StrList *dst, const StrList *src) {
  for (size_t i = 0; i < src->len; i++) array_push(dst, xstrdup(src->items[i]));
}

static void lsp__settings_copy(SessionSettings *dst, const SessionSettings *src) {
  memset(dst, 0, sizeof *dst);
  lsp__strlist_copy(&dst->select, &src->select);
  lsp__strlist_copy(&dst->ignore, &src->ignore);
  dst->chip = src->chip ? xstrdup(src->chip) : NULL;
  dst->torch_npu = src->torch_npu ? xstrdup(src->torch_npu) : NULL;
  dst->mindiesd = src->mindiesd;
}

void session_settings_free(SessionSettings *set) {
  strlist_free(&set->select);
  strlist_free(&set->ignore);
  free(set->chip);
  free(set->torch_npu);
  memset(set, 0, sizeof *set);
  set->mindiesd = -1;
}

void session_applied_free(SessionApplied *a) {
  session_settings_free(&a->from);
  free(a->select);
  free(a->ignore);
  a->select = a->ignore = NULL;
}

/* Client settings act like CLI flags on top of the configuration: select
 * replaces, ignore extends. o points into a. */
static void lsp__apply_settings(AnalyzeOptions *o, SessionApplied *a) {
  const SessionSettings *set = &a->from;
  if (set->chip && config_chip(set->chip)) o->chip = config_chip(set->chip);
  if (set->torch_npu) o->torch_npu = set->torch_npu;
  if (set->mindiesd >= 0) o->mindiesd = set->mindiesd;
  if (set->select.len) {
    a->select = xcalloc(set->select.len + 1, sizeof *a->select);
    for (size_t i = 0; i < set->select.len; i++) a->select[i] = set->select.items[i];
    o->select = a->select;
    o->n_select = set->select.len;
    o->report_unused_noqa = config_names_unused_noqa(o->select, o->n_select);
  }
  if (set->ignore.len) {
    a->ignore = xcalloc(o->n_ignore + set->ignore.len + 1, sizeof *a->ignore);
    for (size_t i = 0; i < o->n_ignore; i++) a->ignore[i] = o->ignore[i];
    for (size_t i = 0; i < set->ignore.len; i++) a->ignore[o->n_ignore + i] = set->ignore.items[i];
    o->ignore = a->ignore;
    o->n_ignore += set->ignore.len;
  }
}

/* Options = project config, then client settings on top, built aside and
 * swapped in whole. */
void session_reload_options(Session *s) {
  if (s->report || s->model_job) { /* a scan thread reads the options: reload when it is done */
    s->reload_pending = true;
    return;
  }
  s->reload_pending = false;
  Config config;
  int rc = config_load(&config, s->root ? s->root : ".", NULL);
  if (rc != 0) session_log(s, 2, "ascend-lsp: cannot read the project configuration: %s", util_strerror(rc));
  else if (config.error) session_log(s, 2, "ascend-lsp: %s: %s", config.path, config.error);
  SessionApplied applied = {0};
  lsp__settings_copy(&applied.from, &s->settings);
  AnalyzeOptions o;
  analyze_options_default(&o);
  config_apply(&config, &o);
  lsp__apply_settings(&o, &applied);
  config_free(&s->config);
  session_applied_free(&s->applied);
  s->config = config;
  s->applied = applied;
  s->opt = o;
  /* said once per version: a reload with the same target says nothing new */
  char *notice = config_support_notice(s->opt.torch_npu);
  if (notice && (!s->support_notice || strcmp(notice, s->support_notice) != 0)) session_log(s, 3, "ascend-lsp: %s", notice);
  free(s->support_notice);
  s->support_notice = notice;
  if (s->cache) ws_cache_clear(s->cache); /* results depend on the options */
}
