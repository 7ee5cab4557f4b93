/* toml: see toml.h. */
#include "analyzers/engine/toml.h"

#include <stdio.h>
#include <stdlib.h>

bool toml_is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

/* ---- strings ----------------------------------------------------------------- */

static void toml__utf8(StrBuf *sb, unsigned long cp) {
  if (cp < 0x80) {
    sb_putc(sb, (char)cp);
  } else if (cp < 0x800) {
    sb_putc(sb, (char)(0xC0 | (cp >> 6)));
    sb_putc(sb, (char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    sb_putc(sb, (char)(0xE0 | (cp >> 12)));
    sb_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sb_putc(sb, (char)(0x80 | (cp & 0x3F)));
  } else if (cp <= 0x10FFFF) {
    sb_putc(sb, (char)(0xF0 | (cp >> 18)));
    sb_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
    sb_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sb_putc(sb, (char)(0x80 | (cp & 0x3F)));
  }
}

/* One escape of a basic string at s (after the backslash); returns the
 * bytes consumed. In multi-line strings a backslash at the end of a line
 * swallows the following whitespace. */
static size_t toml__escape(StrBuf *sb, const char *s, const char *end, bool multiline) {
  static const char from[] = "btnfr\"\\", to[] = "\b\t\n\f\r\"\\";
  if (s >= end) return 0;
  const char *m = strchr(from, *s);
  if (m && *s) {
    sb_putc(sb, to[m - from]);
    return 1;
  }
  if (*s == 'u' || *s == 'U') {
    size_t digits = *s == 'u' ? 4 : 8;
    if ((size_t)(end - s) <= digits) return 1;
    char hex[9] = {0};
    memcpy(hex, s + 1, digits);
    toml__utf8(sb, strtoul(hex, NULL, 16));
    return digits + 1;
  }
  if (multiline && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
    const char *q = s;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
    return (size_t)(q - s);
  }
  sb_putc(sb, '\\');
  return 0;
}

/* The quote width of a string node: 3 for multi-line strings, else 1. */
static size_t toml__quote(const char *s, size_t len) {
  return len >= 6 && (strncmp(s, "\"\"\"", 3) == 0 || strncmp(s, "'''", 3) == 0) ? 3 : 1;
}

void toml_string_span(const char *text, TSNode n, uint32_t *start, uint32_t *end) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  uint32_t q = (uint32_t)toml__quote(text + s, e - s);
  *start = e - s < 2 * q ? s : s + q;
  *end = e - s < 2 * q ? s : e - q;
}

char *toml_string(const char *text, TSNode n) {
  const char *s = text + ts_node_start_byte(n);
  size_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
  size_t d = toml__quote(s, len);
  if (len < 2 * d) return xstrdup("");
  bool basic = s[0] == '"';
  const char *b = s + d, *end = s + len - d;
  if (d == 3 && b < end && *b == '\n') b++;
  else if (d == 3 && end - b >= 2 && b[0] == '\r' && b[1] == '\n') b += 2;
  if (!basic) return xstrndup(b, (size_t)(end - b));
  StrBuf sb;
  sb_init(&sb);
  while (b < end) {
    if (*b == '\\') {
      b++;
      b += toml__escape(&sb, b, end, d == 3);
    } else {
      sb_putc(&sb, *b++);
    }
  }
  return sb_steal(&sb);
}

char *toml_path_text(const StrList *path) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < path->len; i++) sb_printf(&sb, "%s%s", i ? "." : "", path->items[i]);
  return sb_steal(&sb);
}

/* ---- keys -------------------------------------------------------------------- */

static bool toml__is_key(TSNode n) {
  return toml_is(n, "bare_key") || toml_is(n, "quoted_key") || toml_is(n, "dotted_key");
}

static char *toml__key_text(const char *text, TSNode n) {
  if (toml_is(n, "quoted_key")) return toml_string(text, n);
  return xstrndup(text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

/* Appends the segments of a (possibly dotted, left-nested) key, left to
 * right, with a cursor over its leaves. */
static void toml__key_segs(const char *text, TSNode key, StrList *out) {
  if (!toml_is(key, "dotted_key")) {
    array_push(out, toml__key_text(text, key));
    return;
  }
  TSTreeCursor cur = ts_tree_cursor_new(key);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (toml_is(n, "dotted_key") && ts_tree_cursor_goto_first_child(&cur)) continue;
    if (toml_is(n, "bare_key") || toml_is(n, "quoted_key")) array_push(out, toml__key_text(text, n));
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cur);
}

static void toml__copy(StrList *to, const StrList *from) {
  for (size_t i = 0; i < from->len; i++) array_push(to, xstrdup(from->items[i]));
}

/* ---- the walk ---------------------------------------------------------------- */

/* Work still to visit: the pairs of `table` (an inline table, a [table] or
 * the document) from child `next` on, under `path`. */
typedef struct {
  TSNode table;
  uint32_t next;
  StrList path;
} TomlFrame;

typedef struct {
  const char *text;
  TomlVisit visit;
  void *data;
  Array(TomlFrame) stack;
  StrList array_names; /* "[[a.b]]" paths seen, with their counts */
  Array(unsigned) array_counts;
} TomlWalker;

static bool toml__array_of_tables(TSNode v) {
  return toml_is(v, "array") && toml_is_table(v);
}

bool toml_is_table(TSNode v) {
  if (toml_is(v, "inline_table")) return true;
  if (!toml_is(v, "array") || ts_node_named_child_count(v) == 0) return false;
  for (uint32_t i = 0; i < ts_node_named_child_count(v); i++) {
    TSNode e = ts_node_named_child(v, i);
    if (!toml_is(e, "inline_table") && !toml_is(e, "comment")) return false;
  }
  return true;
}

static void toml__push(TomlWalker *w, TSNode table, const StrList *path, const char *extra) {
  TomlFrame f = {table, 0, {0}};
  toml__copy(&f.path, path);
  if (extra) array_push(&f.path, xstrdup(extra));
  array_push(&w->stack, f);
}

/* Opens v's tables on top of the stack: the last element first, so that
 * the first one is visited first. */
static void toml__open(TomlWalker *w, TSNode v, const StrList *path) {
  if (path->len >= TOML_MAX_DEPTH) return;
  if (toml_is(v, "inline_table")) {
    toml__push(w, v, path, NULL);
    return;
  }
  unsigned n = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(v); i++) n += toml_is(ts_node_named_child(v, i), "inline_table");
  for (uint32_t i = ts_node_named_child_count(v); i-- > 0;) {
    TSNode e = ts_node_named_child(v, i);
    if (!toml_is(e, "inline_table")) continue;
    char idx[16];
    snprintf(idx, sizeof idx, "#%u", --n);
    toml__push(w, e, path, idx);
  }
}

static void toml__pair(TomlWalker *w, const StrList *prefix, TSNode pair) {
  /* key, then the value; a trailing comment is a named child too */
  uint32_t n = ts_node_named_child_count(pair);
  TSNode key = n ? ts_node_named_child(pair, 0) : (TSNode){0}, v = {0};
  for (uint32_t i = 1; i < n && ts_node_is_null(v); i++)
    if (!toml_is(ts_node_named_child(pair, i), "comment")) v = ts_node_named_child(pair, i);
  if (ts_node_is_null(v) || !toml__is_key(key)) return;
  StrList path = {0};
  toml__copy(&path, prefix);
  toml__key_segs(w->text, key, &path);
  TomlItem item = {&path, pair, key, v};
  bool open = w->visit(w->data, &item);
  if (open && (toml_is(v, "inline_table") || toml__array_of_tables(v))) toml__open(w, v, &path);
  strlist_free(&path);
}

/* The next index of the array table named by path ("[[a.b]]"). */
static unsigned toml__array_index(TomlWalker *w, const StrList *path) {
  char *name = toml_path_text(path);
  for (size_t i = 0; i < w->array_names.len; i++)
    if (strcmp(w->array_names.items[i], name) == 0) {
      free(name);
      return w->array_counts.items[i]++;
    }
  array_push(&w->array_names, name);
  array_push(&w->array_counts, 1u);
  return 0;
}

/* A [table] or [[array table]]: its header is visited, its pairs follow. */
static void toml__table(TomlWalker *w, TSNode t) {
  StrList path = {0};
  TSNode key = ts_node_named_child_count(t) ? ts_node_named_child(t, 0) : (TSNode){0};
  bool has_key = toml__is_key(key);
  if (has_key) toml__key_segs(w->text, key, &path);
  if (toml_is(t, "table_array_element")) {
    char idx[16];
    snprintf(idx, sizeof idx, "#%u", toml__array_index(w, &path));
    array_push(&path, xstrdup(idx));
  }
  TomlItem header = {.path = &path};
  if (has_key) header.key = key;
  w->visit(w->data, &header);
  TomlFrame f = {t, has_key ? 1 : 0, path};
  array_push(&w->stack, f);
}

/* Visits the frames on the stack until it is empty: one pair at a time
 * from the top frame, which a pair's opened tables cover until done. */
static void toml__drain(TomlWalker *w) {
  while (w->stack.len) {
    TomlFrame *top = &w->stack.items[w->stack.len - 1];
    if (top->next >= ts_node_named_child_count(top->table)) {
      strlist_free(&top->path);
      w->stack.len--;
      continue;
    }
    TSNode c = ts_node_named_child(top->table, top->next++);
    if (!toml_is(c, "pair")) continue;
    StrList prefix = {0};
    toml__copy(&prefix, &top->path); /* the stack may move while the pair is visited */
    toml__pair(w, &prefix, c);
    strlist_free(&prefix);
  }
}

void toml_walk(TSNode root, const char *text, TomlVisit visit, void *data) {
  TomlWalker w = {.text = text, .visit = visit, .data = data};
  StrList none = {0};
  uint32_t n = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(root, i);
    if (toml_is(c, "pair")) toml__pair(&w, &none, c);
    else if (toml_is(c, "table") || toml_is(c, "table_array_element")) toml__table(&w, c);
    toml__drain(&w);
  }
  array_free(&w.stack);
  strlist_free(&w.array_names);
  array_free(&w.array_counts);
}
