/* docstore: see docstore.h. */
#include "server/lsp/docstore.h"
#include "analyzers/engine/nesting.h"
#include "protocol/jsonrpc.h"

#include <stdio.h>
#include <stdlib.h>

void doc_store_init(DocStore *s) {
  memset(s, 0, sizeof *s);
  s->parser = ts_parser_new();
}

static void doc__free(Document *d) {
  free(d->uri);
  free(d->path);
  free(d->rel);
  free(d->npu_sibling);
  free(d->language_id);
  sb_free(&d->text);
  pos_index_free(&d->index);
  forest_free(&d->forest);
  analyze_memo_free(d->memo);
  findings_free(&d->findings);
  analyze_facts_free(&d->facts);
  free(d);
}

void doc_store_free(DocStore *s) {
  for (size_t i = 0; i < s->docs.len; i++) doc__free(s->docs.items[i]);
  array_free(&s->docs);
  ts_parser_delete(s->parser);
  s->parser = NULL;
}

static int doc__hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char *doc_uri_to_path(const char *uri) {
  if (strncmp(uri, "file://", 7) != 0) return NULL;
  const char *p = uri + 7;
  if (*p != '/') { /* file://host/path: keep only local paths */
    const char *slash = strchr(p, '/');
    if (!slash) return NULL;
    p = slash;
  }
  StrBuf sb;
  sb_init(&sb);
  for (; *p && *p != '?' && *p != '#'; p++) {
    int h, l;
    if (*p == '%' && (h = doc__hex(p[1])) >= 0 && (l = doc__hex(p[2])) >= 0) {
      char c = (char)(h * 16 + l);
      if (c == '\0') c = '_'; /* never let a NUL cut the path */
      sb_putc(&sb, c);
      p += 2;
    } else {
      sb_putc(&sb, *p);
    }
  }
  return sb_steal(&sb);
}

char *doc_path_to_uri(const char *path) {
  static const char hex[] = "0123456789ABCDEF";
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 strchr("/-_.~", *p);
    if (plain) {
      sb_putc(&sb, (char)*p);
    } else {
      char e[3] = {'%', hex[*p >> 4], hex[*p & 15]};
      sb_append(&sb, e, 3);
    }
  }
  return sb_steal(&sb);
}

Document *doc_find(DocStore *s, const char *uri) {
  for (size_t i = 0; i < s->docs.len; i++)
    if (strcmp(s->docs.items[i]->uri, uri) == 0) return s->docs.items[i];
  return NULL;
}

static void doc__reindex(Document *d) {
  pos_index_free(&d->index);
  pos_index_build(&d->index, d->text.data, d->text.len);
}

static size_t doc__count_opens(const char *t, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += t[i] == '(' || t[i] == '[' || t[i] == '{';
  return k;
}

Document *doc_open(DocStore *s, const char *uri, const char *language_id, int64_t version, const char *text,
                   size_t len) {
  doc_close(s, uri);
  Document *d = xcalloc(1, sizeof *d);
  d->uri = xstrdup(uri);
  d->path = doc_uri_to_path(uri);
  if (!d->path) d->path = xstrdup(uri);
  d->language_id = xstrdup(language_id ? language_id : "");
  d->version = version;
  sb_init(&d->text);
  sb_append(&d->text, text, len);
  d->opens = doc__count_opens(text, len);
  d->kind = context_file_kind(d->path);
  if (d->kind == FILE_UNKNOWN && strcmp(d->language_id, "python") == 0) d->kind = FILE_PYTHON;
  forest_init(&d->forest, d->kind);
  d->dirty = true;
  doc__reindex(d);
  array_push(&s->docs, d);
  return d;
}

bool doc_close(DocStore *s, const char *uri) {
  for (size_t i = 0; i < s->docs.len; i++) {
    if (strcmp(s->docs.items[i]->uri, uri) != 0) continue;
    doc__free(s->docs.items[i]);
    s->docs.items[i] = s->docs.items[--s->docs.len];
    return true;
  }
  return false;
}

/* Row and byte column of an offset in the current text. */
static TSPoint doc__point(const Document *d, size_t off) {
  uint32_t row = pos_row_of(&d->index, off);
  return (TSPoint){row, (uint32_t)(off - d->index.starts[row])};
}

/* The point reached after inserting text at `start`. */
static TSPoint doc__advance(TSPoint start, const char *text, size_t len) {
  TSPoint p = start;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
      p.row++;
      p.column = 0;
    } else if (text[i] != '\r') {
      p.column++;
    }
  }
  return p;
}

void doc_edit_bytes(Document *d, size_t start, size_t end, const char *text, size_t len) {
  if (end > d->text.len) end = d->text.len;
  if (start > end) start = end;
  TSInputEdit e;
  e.start_byte = (uint32_t)start;
  e.old_end_byte = (uint32_t)end;
  e.new_end_byte = (uint32_t)(start + len);
  e.start_point = doc__point(d, start);
  e.old_end_point = doc__point(d, end);
  e.new_end_point = doc__advance(e.start_point, text, len);
  d->opens = d->opens - doc__count_opens(d->text.data + start, end - start) + doc__count_opens(text, len);
  /* in place: the bytes after the edit move, the new ones go between */
  size_t tail = d->text.len - end;
  sb_reserve(&d->text, len > end - start ? len - (end - start) : 0);
  memmove(d->text.data + start + len, d->text.data + end, tail);
  memcpy(d->text.data + start, text, len);
  d->text.len = start + len + tail;
  d->text.data[d->text.len] = '\0';
  pos_index_edit(&d->index, d->text.data, d->text.len, start, end, len);
  forest_edit(&d->forest, d->text.data, d->text.len, &e);
  if (d->memo) analyze_memo_edit(d->memo, e.start_byte, e.old_end_byte, e.new_end_byte);
  d->dirty = true;
  d->published = false;
}

void doc_edit_range(Document *d, LspPosition start, LspPosition end, PosEncoding enc, const char *text, size_t len) {
  size_t s = pos_to_offset(&d->index, d->text.data, start, enc);
  size_t e = pos_to_offset(&d->index, d->text.data, end, enc);
  if (e < s) { /* a reversed range: LSP says start <= end; be lenient */
    size_t t = s;
    s = e;
    e = t;
  }
  doc_edit_bytes(d, s, e, text, len);
}

void doc_set_text(Document *d, const char *text, size_t len) {
  sb_free(&d->text);
  sb_init(&d->text);
  sb_append(&d->text, text, len);
  d->opens = doc__count_opens(text, len);
  doc__reindex(d);
  forest_free(&d->forest); /* whole-document replacement: no old trees to reuse */
  forest_init(&d->forest, d->kind);
  analyze_memo_free(d->memo); /* nor units */
  d->memo = NULL;
  d->dirty = true;
  d->published = false;
}

/* The units of the statements the last parse parsed again. */
static void doc__mark_parsed(Document *d) {
  Array(TSRange) r = {0};
  for (size_t i = 0; i < d->forest.members.len; i++) {
    const ForestMember *m = &d->forest.members.items[i];
    if (m->fresh) array_push(&r, ((TSRange){{0, 0}, {0, 0}, m->start, m->end}));
  }
  analyze_memo_changed(d->memo, r.items, r.len);
  array_free(&r);
}

bool doc_analyze(DocStore *s, Document *d, const AnalyzeOptions *opt, const char *const *ignores, size_t n_ignores) {
  if (!d->dirty) return false;
  d->dirty = false;
  findings_free(&d->findings);
  analyze_facts_free(&d->facts);
  memset(&d->facts, 0, sizeof d->facts);
  TSLanguage *lang = analyze_language(d->kind);
  d->too_deep = lang && d->opens > NESTING_MAX_DEPTH && nesting_file_too_deep(d->kind, d->text.data, d->text.len);
  if (d->too_deep) { /* parsed from an earlier, shallower text */
    forest_free(&d->forest);
    forest_init(&d->forest, d->kind);
    return true;
  }
  bool parsed = false;
  if (lang && d->text.len < UINT32_MAX / 2) {
    bool had = forest_size(&d->forest) > 0;
    parsed = forest_parse(&d->forest, s->parser, d->text.data, d->text.len);
    if (parsed) forest_hash(&d->forest, d->text.data); /* only what this parse parsed */
    if (parsed && had && d->memo) doc__mark_parsed(d);
  }
  if (!d->memo && d->kind == FILE_PYTHON && parsed) d->memo = analyze_memo_new();
  /* a NUL held as RPC_NUL_BYTE makes the text binary, as for the CLI */
  AnalyzeFile file = {.path = d->rel ? d->rel : d->path, .npu_sibling = d->npu_sibling, .file_ignores = ignores,
                      .n_file_ignores = n_ignores, .nul_byte = d->nul_marks ? RPC_NUL_BYTE : 0,
                      .memo = d->memo, .line_starts = d->index.starts, .n_lines = d->index.count};
  analyze_file(&file, d->text.data, d->text.len, parsed ? &d->forest : NULL, opt, &d->findings,
               d->kind == FILE_PYTHON && !s->no_facts ? &d->facts : NULL);
  return true;
}
