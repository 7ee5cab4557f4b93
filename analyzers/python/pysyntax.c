/* pysyntax: see pysyntax.h. */
#include "analyzers/engine/forest.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/pysym.h"

#include <stdlib.h>

#define PYSYNTAX_MAX_STRING 256
#define PYSYNTAX_MAX_NAME 128

bool pysyntax_is(TSNode n, const char *type) {
  return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

void pysyntax_children(PyChildren *it, TSNode n) {
  it->open = !ts_node_is_null(n);
  it->more = false;
  if (!it->open) return;
  it->cur = ts_tree_cursor_new(n);
  it->more = ts_tree_cursor_goto_first_child(&it->cur);
}

bool pysyntax_children_next(PyChildren *it, TSNode *child) {
  while (it->more) {
    TSNode c = ts_tree_cursor_current_node(&it->cur);
    it->more = ts_tree_cursor_goto_next_sibling(&it->cur);
    if (ts_node_is_named(c)) {
      *child = c;
      return true;
    }
  }
  pysyntax_children_end(it);
  return false;
}

void pysyntax_children_end(PyChildren *it) {
  if (it->open) ts_tree_cursor_delete(&it->cur);
  it->open = it->more = false;
}

size_t pysyntax_string_candidates(TSNode value, TSNode *out, size_t max) {
  size_t n = 0;
  TSNode stack[16];
  size_t sp = 0;
  stack[sp++] = value;
  while (sp > 0 && n < max) {
    TSNode v = stack[--sp];
    if (pysyntax_is(v, "string") || pysyntax_is(v, "concatenated_string")) {
      out[n++] = v;
    } else if (pysyntax_is(v, "binary_operator")) {
      TSNode l = pysym_child(v, PYFIELD_LEFT);
      if (pysyntax_is(l, "string")) out[n++] = v;
    } else if (pysyntax_is(v, "conditional_expression") && ts_node_named_child_count(v) == 3 && sp + 2 <= 16) {
      stack[sp++] = ts_node_named_child(v, 2);
      stack[sp++] = ts_node_named_child(v, 0);
    } else if (pysyntax_is(v, "parenthesized_expression") && ts_node_named_child_count(v) == 1 && sp < 16) {
      stack[sp++] = ts_node_named_child(v, 0);
    }
  }
  return n;
}

static void pysyntax__string_into(const PyFile *py, TSNode str, StrBuf *sb) {
  uint32_t n = ts_node_named_child_count(str);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(str, i);
    if (pysyntax_is(c, "string_content")) {
      sb_append(sb, py->text + ts_node_start_byte(c), ts_node_end_byte(c) - ts_node_start_byte(c));
    } else if (pysyntax_is(c, "interpolation")) {
      sb_puts(sb, "{}");
    } else if (pysyntax_is(c, "string")) { /* concatenated_string parts */
      pysyntax__string_into(py, c, sb);
    }
  }
}

char *pysyntax_string_value(const PyFile *py, TSNode str) {
  if (ts_node_is_null(str) || ts_node_end_byte(str) - ts_node_start_byte(str) > PYSYNTAX_MAX_STRING) return NULL;
  StrBuf sb;
  sb_init(&sb);
  if (pysyntax_is(str, "binary_operator")) {
    pysyntax__string_into(py, pysym_child(str, PYFIELD_LEFT), &sb);
    sb_puts(&sb, "{}");
  } else if (pysyntax_is(str, "string") || pysyntax_is(str, "concatenated_string")) {
    pysyntax__string_into(py, str, &sb);
  } else {
    sb_free(&sb);
    return NULL;
  }
  return sb_steal(&sb);
}

static bool pysyntax__spec_has(const char *spec, const char *s, size_t len) {
  for (const char *p = spec; p && *p;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    if (n == len && memcmp(p, s, len) == 0) return true;
    p = bar ? bar + 1 : NULL;
  }
  return false;
}

TSNode pysyntax_argument(const PyFile *py, TSNode args, const char *spec) {
  if (ts_node_is_null(args)) return args;
  uint32_t n = ts_node_named_child_count(args);
  int pos = 0;
  char idx[16];
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (pysyntax_is(a, "comment")) continue;
    if (pysyntax_is(a, "keyword_argument")) {
      TSNode k = pysym_child(a, PYFIELD_NAME);
      TSNode v = pysym_child(a, PYFIELD_VALUE);
      if (ts_node_is_null(k) || ts_node_is_null(v)) continue;
      uint32_t s = ts_node_start_byte(k), e = ts_node_end_byte(k);
      if (pysyntax__spec_has(spec, py->text + s, e - s)) return v;
      continue;
    }
    if (pysyntax_is(a, "list_splat") || pysyntax_is(a, "dictionary_splat")) {
      pos = -1000; /* positions after a splat are unknown */
      continue;
    }
    int len = snprintf(idx, sizeof idx, "%d", pos++);
    if (len > 0 && pysyntax__spec_has(spec, idx, (size_t)len)) return a;
  }
  return (TSNode){0};
}

TSNode pysyntax_unparen(TSNode n) {
  while (!ts_node_is_null(n) && pysym_of(n) == PYSYM_PARENTHESIZED_EXPRESSION && ts_node_named_child_count(n) == 1)
    n = ts_node_named_child(n, 0);
  return n;
}

bool pysyntax_is_name(const PyFile *py, TSNode n, const char *name, size_t len) {
  return pysym_of(n) == PYSYM_IDENTIFIER && ts_node_end_byte(n) - ts_node_start_byte(n) == len &&
         memcmp(py->text + ts_node_start_byte(n), name, len) == 0;
}

static bool pysyntax__ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool pysyntax_mentions(const PyFile *py, uint32_t s, uint32_t e, const char *name, size_t len) {
  for (uint32_t at = s; at + len <= e;) {
    const char *p = memmem(py->text + at, e - at, name, len);
    if (!p) return false;
    uint32_t i = (uint32_t)(p - py->text);
    bool left = i == s || !pysyntax__ident_char(py->text[i - 1]);
    bool right = i + len == e || !pysyntax__ident_char(py->text[i + len]);
    if (left && right) return true;
    at = i + 1;
  }
  return false;
}

char *pysyntax_name_text(const PyFile *py, TSNode n) {
  if (pysyntax_is(n, "string")) return pysyntax_string_value(py, n);
  TSNode base = n;
  while (pysyntax_is(base, "attribute")) base = pysym_child(base, PYFIELD_OBJECT);
  if (!pysyntax_is(base, "identifier")) return NULL;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e - s > PYSYNTAX_MAX_NAME) return NULL;
  StrBuf sb;
  sb_init(&sb);
  for (uint32_t i = s; i < e; i++) /* drop whitespace inside `a . b` */
    if (py->text[i] != ' ' && py->text[i] != '\t' && py->text[i] != '\n' && py->text[i] != '\r' &&
        py->text[i] != '\\')
      sb_putc(&sb, py->text[i]);
  return sb_steal(&sb);
}

static uint32_t pysyntax__line_end(const PyFile *py, uint32_t at) {
  while (at < py->len && py->text[at] != '\n' && py->text[at] != '\r') at++;
  if (at < py->len && py->text[at] == '\r') at++;
  if (at < py->len && py->text[at] == '\n' && (at == 0 || py->text[at - 1] != '\n')) at++;
  return at;
}

uint32_t pysyntax_import_point(const PyFile *py) {
  if (py->has_torch_import) return py->torch_import_plain ? py->torch_import_line_end : py->torch_import_line_start;
  if (py->import_insert_byte > 0) return py->import_insert_byte;
  uint32_t at = 0;
  ForestTops it = forest_tops(py->forest, true);
  size_t i = 0;
  for (TSNode c; forest_next_top(&it, &c);) {
    bool first = i++ == 0;
    if (pysyntax_is(c, "comment") && ts_node_start_byte(c) == at) {
      at = pysyntax__line_end(py, ts_node_end_byte(c));
      continue;
    }
    if (first || (at > 0 && ts_node_start_byte(c) >= at)) {
      if (pysyntax_is(c, "expression_statement") && ts_node_named_child_count(c) == 1 &&
          pysyntax_is(ts_node_named_child(c, 0), "string"))
        at = pysyntax__line_end(py, ts_node_end_byte(c));
    }
    break;
  }
  return at;
}

const char *pysyntax_eol(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\n') return "\n";
    if (text[i] == '\r') return (i + 1 < len && text[i + 1] == '\n') ? "\r\n" : "\r";
  }
  return "\n";
}

char *pysyntax_import_insertion(const PyFile *py, const char *stmt) {
  uint32_t at = pysyntax_import_point(py);
  const char *eol = py->eol; /* pysyntax_eol once per file: a long first line is not scanned per fix */
  bool need_lead = at > 0 && at == py->len && py->text[at - 1] != '\n' && py->text[at - 1] != '\r';
  return xasprintf("%s%s%s", need_lead ? eol : "", stmt, eol);
}
