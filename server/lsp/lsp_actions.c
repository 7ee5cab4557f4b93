/* lsp_actions: code actions (a quickfix per fixable finding, "disable for
 * this line", fix-all of the safe fixes, and migration route A on entry
 * points) and hover. Actions are built from the findings of the document's
 * current version; a dirty document is analyzed first. */
#include "server/lsp/session_internal.h"
#include "server/fixes.h"
#include "server/cli/rulesdoc.h"
#include "analyzers/python/pysyntax.h"

#include <stdlib.h>

static cJSON *lsp__text_edit(Session *s, const Document *d, uint32_t start, uint32_t end, const char *text) {
  cJSON *e = cJSON_CreateObject();
  cJSON_AddItemToObject(e, "range", lsp_range(s, d, start, end));
  cJSON_AddStringToObject(e, "newText", text);
  return e;
}

/* {"changes": {uri: [edits]}} taking ownership of the edit array. */
static cJSON *lsp__workspace_edit(const Document *d, cJSON *edits) {
  cJSON *we = cJSON_CreateObject();
  cJSON *ch = cJSON_AddObjectToObject(we, "changes");
  cJSON_AddItemToObject(ch, d->uri, edits);
  return we;
}

static cJSON *lsp__action(const char *title, const char *kind, cJSON *edit) {
  cJSON *a = cJSON_CreateObject();
  cJSON_AddStringToObject(a, "title", title);
  cJSON_AddStringToObject(a, "kind", kind);
  cJSON_AddItemToObject(a, "edit", edit);
  return a;
}

static cJSON *lsp__quickfix(Session *s, Document *d, const Finding *f) {
  cJSON *edits = cJSON_CreateArray();
  for (size_t i = 0; i < f->edits.len; i++)
    cJSON_AddItemToArray(edits, lsp__text_edit(s, d, f->edits.items[i].start, f->edits.items[i].end,
                                               f->edits.items[i].text));
  char *title = f->replacement ? xasprintf("Replace with %s%s", f->replacement, f->fix == FIX_UNSAFE ? " (unsafe)" : "")
                               : xasprintf("Apply the %s fix%s", f->rule->code, f->fix == FIX_UNSAFE ? " (unsafe)" : "");
  cJSON *a = lsp__action(title, "quickfix", lsp__workspace_edit(d, edits));
  free(title);
  cJSON *diags = cJSON_AddArrayToObject(a, "diagnostics");
  cJSON_AddItemToArray(diags, lsp_diagnostic(s, d, f));
  if (f->fix == FIX_SAFE) cJSON_AddBoolToObject(a, "isPreferred", 1);
  return a;
}

/* "# noqa: CODE" at the end of the finding's first line (extending an
 * existing noqa list). */
static cJSON *lsp__noqa(Session *s, Document *d, const Finding *f) {
  uint32_t row = f->start_row < d->index.count ? f->start_row : (uint32_t)d->index.count - 1;
  size_t ls = d->index.starts[row];
  size_t le = row + 1 < d->index.count ? d->index.starts[row + 1] : d->text.len;
  while (le > ls && (d->text.data[le - 1] == '\n' || d->text.data[le - 1] == '\r')) le--;
  const char *line = d->text.data + ls;
  const char *noqa = memmem(line, le - ls, "# noqa:", 7);
  const char *cm = d->kind == FILE_CUDA ? "//" : "#";
  char *text;
  uint32_t at = (uint32_t)le;
  if (noqa) text = xasprintf(", %s", f->rule->code);
  else text = xasprintf("  %s noqa: %s", cm, f->rule->code);
  cJSON *edits = cJSON_CreateArray();
  cJSON_AddItemToArray(edits, lsp__text_edit(s, d, at, at, text));
  free(text);
  char *title = xasprintf("Disable %s for this line", f->rule->code);
  cJSON *a = lsp__action(title, "quickfix", lsp__workspace_edit(d, edits));
  free(title);
  cJSON *diags = cJSON_AddArrayToObject(a, "diagnostics");
  cJSON_AddItemToArray(diags, lsp_diagnostic(s, d, f));
  return a;
}

cJSON *lsp_fix_all_edit(Session *s, Document *d) {
  lsp_analyze(s, d);
  TextEditList edits = {0};
  FixStats st;
  fixes_collect(&d->findings, false, &edits, &st);
  if (edits.len == 0) {
    fixes_edits_free(&edits);
    return NULL;
  }
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < edits.len; i++)
    cJSON_AddItemToArray(arr, lsp__text_edit(s, d, edits.items[i].start, edits.items[i].end, edits.items[i].text));
  fixes_edits_free(&edits);
  return lsp__workspace_edit(d, arr);
}

static bool lsp__kind_wanted(const cJSON *only, const char *kind) {
  if (!cJSON_IsArray(only)) return true;
  const cJSON *k;
  cJSON_ArrayForEach(k, only) {
    if (!cJSON_IsString(k)) continue;
    size_t n = strlen(k->valuestring);
    if (strncmp(kind, k->valuestring, n) == 0 && (kind[n] == '\0' || kind[n] == '.')) return true;
  }
  return false;
}

/* Migration route A: on an entry point, turn on transfer_to_npu. */
static cJSON *lsp__route_a(Session *s, Document *d) {
  if (d->kind != FILE_PYTHON || !forest_size(&d->forest)) return NULL;
  PyFile *py = pyfile_build(&d->forest, d->text.data, d->text.len);
  cJSON *a = NULL;
  if (py->has_main_guard && !py->transfer_to_npu) {
    const char *eol = pysyntax_eol(d->text.data, d->text.len);
    char *stmts = py->imports_torch_npu ? xasprintf("from torch_npu.contrib import transfer_to_npu")
                                        : xasprintf("import torch_npu%sfrom torch_npu.contrib import transfer_to_npu", eol);
    char *ins = pysyntax_import_insertion(py, stmts);
    uint32_t at = pysyntax_import_point(py);
    cJSON *edits = cJSON_CreateArray();
    cJSON_AddItemToArray(edits, lsp__text_edit(s, d, at, at, ins));
    a = lsp__action("Migrate this entry point with transfer_to_npu (route A)", "source.ascend.transferToNpu",
                    lsp__workspace_edit(d, edits));
    free(ins);
    free(stmts);
  }
  pyfile_free(py);
  return a;
}

static bool lsp__overlaps(const Finding *f, uint32_t a, uint32_t b) {
  return f->start_byte <= b && f->end_byte >= a;
}

void lsp_code_action(Session *s, const cJSON *id, const cJSON *params) {
  Document *d = lsp_document(s, params, true);
  const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
  LspPosition ps, pe;
  bool has_uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri") != NULL;
  if (!has_uri || !lsp_position(cJSON_GetObjectItemCaseSensitive(range, "start"), &ps) ||
      !lsp_position(cJSON_GetObjectItemCaseSensitive(range, "end"), &pe)) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "codeAction needs textDocument.uri and range");
    return;
  }
  if (!d) { /* not open: nothing to offer */
    session_reply(s, id, cJSON_CreateArray());
    return;
  }
  uint32_t a = (uint32_t)pos_to_offset(&d->index, d->text.data, ps, s->enc);
  uint32_t b = (uint32_t)pos_to_offset(&d->index, d->text.data, pe, s->enc);
  const cJSON *only = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "context"), "only");
  cJSON *out = cJSON_CreateArray();
  if (lsp__kind_wanted(only, "quickfix")) {
    for (size_t i = 0; i < d->findings.len; i++) {
      const Finding *f = &d->findings.items[i];
      if (!lsp__overlaps(f, a, b)) continue;
      if (f->fix != FIX_NONE && f->edits.len) cJSON_AddItemToArray(out, lsp__quickfix(s, d, f));
    }
    for (size_t i = 0; i < d->findings.len; i++)
      if (lsp__overlaps(&d->findings.items[i], a, b) && strcmp(d->findings.items[i].rule->code, "ASC001") != 0)
        cJSON_AddItemToArray(out, lsp__noqa(s, d, &d->findings.items[i]));
  }
  if (lsp__kind_wanted(only, "source.fixAll.ascend")) {
    cJSON *edit = lsp_fix_all_edit(s, d);
    if (edit) cJSON_AddItemToArray(out, lsp__action("Fix all safe Ascend migration issues", "source.fixAll.ascend", edit));
  }
  if (only && lsp__kind_wanted(only, "source.ascend.transferToNpu")) {
    cJSON *ra = lsp__route_a(s, d);
    if (ra) cJSON_AddItemToArray(out, ra);
  } else if (!only) {
    cJSON *ra = lsp__route_a(s, d);
    if (ra) cJSON_AddItemToArray(out, ra);
  }
  session_reply(s, id, out);
}

void lsp_hover(Session *s, const cJSON *id, const cJSON *params) {
  Document *d = lsp_document(s, params, true);
  LspPosition p;
  bool has_uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri") != NULL;
  bool has_pos = lsp_position(cJSON_GetObjectItemCaseSensitive(params, "position"), &p);
  if (!has_uri || !has_pos) {
    session_reply_error(s, id, RPC_INVALID_PARAMS, "hover needs textDocument.uri and position");
    return;
  }
  if (!d) { /* not open: nothing to say */
    session_reply(s, id, cJSON_CreateNull());
    return;
  }
  uint32_t at = (uint32_t)pos_to_offset(&d->index, d->text.data, p, s->enc);
  for (size_t i = 0; i < d->findings.len; i++) {
    const Finding *f = &d->findings.items[i];
    if (at < f->start_byte || at > f->end_byte) continue;
    char *href = lsp_rule_href(s, f->rule);
    char *md = s->client_hover_plaintext ? rulesdoc_hover_text(f->rule, f, href) : rulesdoc_hover(f->rule, f, href);
    free(href);
    char *chain = lsp_model_chain(s, d, at);
    if (chain) { /* a call into the project's CUDA-only code: the chain first */
      char *both = xasprintf(s->client_hover_plaintext ? "Chain: %s\n\n%s" : "**Chain:** %s\n\n%s", chain, md);
      free(md);
      md = both;
      free(chain);
    }
    cJSON *r = cJSON_CreateObject();
    cJSON *c = cJSON_AddObjectToObject(r, "contents");
    cJSON_AddStringToObject(c, "kind", s->client_hover_plaintext ? "plaintext" : "markdown");
    cJSON_AddStringToObject(c, "value", md);
    cJSON_AddItemToObject(r, "range", lsp_range(s, d, f->start_byte, f->end_byte));
    free(md);
    session_reply(s, id, r);
    return;
  }
  session_reply(s, id, cJSON_CreateNull());
}
