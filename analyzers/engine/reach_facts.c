/* reach_facts: one file's facts for the C/C++ reachability (see
 * reach_facts.h). One cursor walk per C/C++ file, one lexical scan per
 * Python file; names are numbered while scanning and each (name, owner)
 * pair is kept once. */
#include "analyzers/engine/reach_facts.h"
#include "analyzers/engine/analyze.h"
#include "analyzers/engine/names.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  Names names;
  ReachFacts *f;
  bool words_only;      /* Python: every word is a mention outside definitions (top_words) */
  const KbEntry *binds; /* the "cxx-unreferenced" row: binding macros (arg), their registering methods (value) */
  uint32_t binding_end; /* the end of the binding macro body being walked (0: none) */
} Scan;

static void scan__mention(Scan *s, const char *w, size_t n, int32_t owner) {
  ReachFactMention m = {names_intern(&s->names, w, n), owner};
  if (!s->words_only) array_push(&s->f->mentions, m);
}

static bool scan__word(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Whether t[e, n) starts with the extension of a C/C++ or CUDA source
 * (".cu", ".cpp", ".h", ...) that ends there: the word before it names a
 * file (`sources=["kernels/gather_copy.cu"]`, `#include "rope.cuh"`), not
 * a function. */
static bool scan__source_ext(const char *t, size_t e, size_t n) {
  static const char *const exts[] = {"cu", "cuh", "cpp", "cc", "cxx", "c", "h", "hpp", "hh", "inl"};
  if (e >= n || t[e] != '.') return false;
  for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++) {
    size_t l = strlen(exts[k]);
    if (e + 1 + l <= n && strncmp(t + e + 1, exts[k], l) == 0 && (e + 1 + l == n || !scan__word(t[e + 1 + l])))
      return true;
  }
  return false;
}

/* The words of t[0, n) (a macro body, a string, a Python file without its
 * comments), but file names. */
static void scan__words(Scan *s, const char *t, size_t n, int32_t owner) {
  for (size_t i = 0; i < n;) {
    if (!(isalpha((unsigned char)t[i]) || t[i] == '_') || (i && scan__word(t[i - 1]))) {
      i++;
      continue;
    }
    size_t e = i;
    while (e < n && scan__word(t[e])) e++;
    if (!scan__source_ext(t, e, n)) scan__mention(s, t + i, e - i, owner);
    i = e;
  }
}

/* ---- Python: every word outside comments ---- */

static void scan__python(Scan *s, const char *t, size_t n) {
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (c == '#') { /* a comment: to the end of the line */
      scan__words(s, t + run, i - run, -1);
      while (i < n && t[i] != '\n') i++;
      run = i;
    } else if (c == '"' || c == '\'') { /* strings are mentions: skip over them whole */
      bool triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
      size_t j = i + (triple ? 3 : 1);
      while (j < n) {
        if (t[j] == '\\') j += 2;
        else if (triple ? (j + 2 < n && t[j] == c && t[j + 1] == c && t[j + 2] == c) : (t[j] == c || t[j] == '\n')) break;
        else j++;
      }
      i = j < n ? j + (triple ? 2 : 0) : n;
    }
  }
  if (run < n) scan__words(s, t + run, n - run, -1);
}

/* ---- C/C++ ---- */

typedef struct {
  const char *name;
  long value;
  bool known;
} ScanDefine;

typedef Array(ScanDefine) ScanDefines;

/* `#define NAME <integer>` lines; a name defined twice or undefined is unknown. */
static void scan__defines(const char *t, size_t n, ScanDefines *out) {
  for (size_t i = 0; i < n;) {
    size_t e = i;
    while (e < n && t[e] != '\n') e++;
    size_t p = i;
    while (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
    bool undef = e - p > 6 && strncmp(t + p, "#undef", 6) == 0;
    if (p < e && t[p] == '#' && (undef || (e - p > 8 && strncmp(t + p, "#define", 7) == 0))) {
      p += undef ? 6 : 7;
      while (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
      size_t ns = p;
      while (p < e && scan__word(t[p])) p++;
      char *name = xstrndup(t + ns, p - ns);
      char *end = NULL;
      long v = strtol(t + p, &end, 0);
      while (end && end < t + e && (*end == ' ' || *end == '\t' || *end == '\r')) end++;
      bool num = !undef && p < e && (t[p] == ' ' || t[p] == '\t') && end && end == t + e && end > t + p;
      bool seen = false;
      for (size_t k = 0; k < out->len && !seen; k++)
        if (strcmp(out->items[k].name, name) == 0) {
          seen = true;
          out->items[k].known = false;
        }
      if (!seen && *name) {
        ScanDefine d = {name, v, num};
        array_push(out, d);
      } else {
        free(name);
      }
    }
    i = e + 1;
  }
}

static void scan__defines_free(ScanDefines *d) {
  for (size_t i = 0; i < d->len; i++) free((char *)d->items[i].name);
  array_free(d);
}

static bool scan__is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

/* The value of a preprocessor condition: 0 false, 1 true, -1 unknown. */
static int scan__cond(TSNode c, const char *t, const ScanDefines *defs) {
  bool neg = false;
  for (int depth = 0; depth < 8; depth++) {
    if (scan__is(c, "parenthesized_expression")) c = ts_node_named_child(c, 0);
    else if (scan__is(c, "unary_expression") && t[ts_node_start_byte(c)] == '!') {
      neg = !neg;
      c = ts_node_child_by_field_name(c, "argument", 8);
    } else break;
  }
  if (ts_node_is_null(c)) return -1;
  uint32_t s = ts_node_start_byte(c), e = ts_node_end_byte(c);
  long v;
  if (scan__is(c, "number_literal")) {
    v = strtol(t + s, NULL, 0);
  } else if (scan__is(c, "identifier")) {
    const ScanDefine *d = NULL;
    for (size_t k = 0; k < defs->len && !d; k++)
      if (strlen(defs->items[k].name) == e - s && strncmp(defs->items[k].name, t + s, e - s) == 0) d = &defs->items[k];
    if (!d || !d->known) return -1;
    v = d->value;
  } else {
    return -1;
  }
  return (v != 0) != neg;
}

/* `#if COND` / `#elif COND` with a false condition: its body is compiled
 * out (the region is made here, before the body is visited). */
static void scan__preproc_if(Scan *s, TSNode n, const char *t, const ScanDefines *defs) {
  TSNode cond = ts_node_child_by_field_name(n, "condition", 9);
  if (scan__cond(cond, t, defs) != 0) return;
  TSNode alt = ts_node_child_by_field_name(n, "alternative", 11);
  uint32_t cs = ts_node_start_byte(cond), ce = ts_node_end_byte(cond);
  ReachFactRegion g = {ce, ts_node_is_null(alt) ? ts_node_end_byte(n) : ts_node_start_byte(alt),
                       xasprintf("`#%s %.*s`", scan__is(n, "preproc_elif") ? "elif" : "if", (int)(ce - cs), t + cs)};
  array_push(&s->f->regions, g);
}

/* `#else` / `#elif` of a true condition: all of it is compiled out (the
 * region is made when the alternative is reached, after the live body). */
static void scan__preproc_alt(Scan *s, TSNode n, const char *t, const ScanDefines *defs) {
  TSNode p = ts_node_parent(n);
  if (!scan__is(p, "preproc_if") && !scan__is(p, "preproc_elif")) return;
  TSNode alt = ts_node_child_by_field_name(p, "alternative", 11);
  if (ts_node_is_null(alt) || ts_node_start_byte(alt) != ts_node_start_byte(n)) return;
  TSNode cond = ts_node_child_by_field_name(p, "condition", 9);
  if (scan__cond(cond, t, defs) != 1) return;
  uint32_t cs = ts_node_start_byte(cond), ce = ts_node_end_byte(cond);
  ReachFactRegion g = {ts_node_start_byte(n), ts_node_end_byte(n),
                       xasprintf("the `#else` of `#%s %.*s`", scan__is(p, "preproc_elif") ? "elif" : "if",
                                 (int)(ce - cs), t + cs)};
  array_push(&s->f->regions, g);
}

/* The regions are disjoint and made in document order (a region's #if is
 * visited before what it holds, and nothing inside a dead region is
 * visited): only the newest can hold the node at hand. */
static bool scan__in_region(const Scan *s, uint32_t start, uint32_t end) {
  if (!s->f->regions.len) return false;
  const ReachFactRegion *g = &s->f->regions.items[s->f->regions.len - 1];
  return g->start <= start && end <= g->end;
}

/* The name node of a function definition's declarator, or a null node. */
static TSNode scan__def_name(TSNode def) {
  TSNode d = ts_node_child_by_field_name(def, "declarator", 10);
  for (int depth = 0; depth < 8 && !ts_node_is_null(d) && !scan__is(d, "function_declarator"); depth++)
    d = ts_node_child_by_field_name(d, "declarator", 10);
  if (ts_node_is_null(d)) return d;
  TSNode name = ts_node_child_by_field_name(d, "declarator", 10);
  for (int depth = 0; depth < 4 && scan__is(name, "qualified_identifier"); depth++)
    name = ts_node_child_by_field_name(name, "name", 4);
  if (scan__is(name, "template_function")) name = ts_node_child_by_field_name(name, "name", 4);
  return name;
}

/* Whether a definition is a candidate for being dead: not inside a class
 * body, named by a plain identifier that is not main or a macro's (whose
 * name is kept: a binding macro's makes the sources an extension). */
static bool scan__candidate(Scan *s, TSNode def, TSNode name, const char *t) {
  TSNode p = ts_node_parent(def);
  if (scan__is(p, "template_declaration")) p = ts_node_parent(p);
  if (scan__is(p, "field_declaration_list")) return false;
  if (!scan__is(name, "identifier")) return false; /* operators, destructors, fields */
  uint32_t b = ts_node_start_byte(name), e = ts_node_end_byte(name);
  if (e - b == 4 && strncmp(t + b, "main", 4) == 0) return false;
  bool caps = true;
  for (uint32_t i = b; i < e && caps; i++) caps = isupper((unsigned char)t[i]) || isdigit((unsigned char)t[i]) || t[i] == '_';
  if (caps) array_push(&s->f->caps, names_intern(&s->names, t + b, e - b));
  if (caps && s->binds && s->binds->arg && kb_pattern_match(s->binds->arg, s->names.strs.items[s->f->caps.items[s->f->caps.len - 1]]))
    s->binding_end = ts_node_end_byte(def);
  return !caps;
}

/* Whether an identifier is the name a function declarator declares (a
 * prototype's or a definition's own name): no mention. */
static bool scan__declared_name(TSNode id) {
  TSNode p = ts_node_parent(id);
  if (scan__is(p, "qualified_identifier") || scan__is(p, "template_function")) {
    id = p;
    p = ts_node_parent(p);
  }
  if (!scan__is(p, "function_declarator")) return false;
  TSNode d = ts_node_child_by_field_name(p, "declarator", 10);
  return ts_node_start_byte(d) == ts_node_start_byte(id) && ts_node_end_byte(d) == ts_node_end_byte(id);
}

typedef struct {
  uint32_t end;
  int32_t def;
} ScanOpen;

/* A function definition: a candidate opens until its end. */
static void scan__definition(Scan *s, TSNode n, const char *t, void *open_arr) {
  Array(ScanOpen) *open = open_arr;
  TSNode name = scan__def_name(n);
  if (ts_node_is_null(name) || !scan__candidate(s, n, name, t)) return;
  uint32_t b = ts_node_start_byte(name);
  ReachFactDef d = {ts_node_start_byte(n), ts_node_end_byte(n), names_intern(&s->names, t + b, ts_node_end_byte(name) - b), false};
  array_push(&s->f->defs, d);
  ScanOpen o = {d.end, (int32_t)s->f->defs.len - 1};
  array_push(open, o);
}

/* In a binding macro's body, a registration (`m.def("gather_copy",
 * &gather_copy)`, `m.impl("op", &op_cuda)`: the row's `value` names the
 * methods) is a definition named by the Python name it registers, whose
 * mentions (the C++ function) live only when some file mentions that name:
 * a binding no Python code calls keeps nothing alive. */
static void scan__binding(Scan *s, TSNode call, const char *t, void *open_arr) {
  Array(ScanOpen) *open = open_arr;
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  TSNode field = scan__is(fn, "field_expression") ? ts_node_child_by_field_name(fn, "field", 5) : fn;
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  if (!scan__is(fn, "field_expression") || ts_node_is_null(field) || ts_node_is_null(args) || !s->binds->value) return;
  char *method = xstrndup(t + ts_node_start_byte(field), ts_node_end_byte(field) - ts_node_start_byte(field));
  bool registers = kb_pattern_match(s->binds->value, method);
  free(method);
  TSNode lit = ts_node_named_child(args, 0);
  if (!registers || !scan__is(lit, "string_literal")) return;
  uint32_t b = ts_node_start_byte(lit) + 1, e = b;
  while (e < ts_node_end_byte(lit) && scan__word(t[e])) e++;
  if (e == b) return;
  ReachFactDef d = {ts_node_start_byte(call), ts_node_end_byte(call), names_intern(&s->names, t + b, e - b), true};
  array_push(&s->f->defs, d);
  ScanOpen o = {d.end, (int32_t)s->f->defs.len - 1};
  array_push(open, o);
}

static void scan__cxx(Scan *s, const char *t, size_t len) {
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, analyze_language(FILE_CUDA));
  TSTree *tree = analyze_parse(parser, NULL, t, len);
  ts_parser_delete(parser);
  if (!tree) return;
  ScanDefines defs = {0};
  scan__defines(t, len, &defs);
  Array(ScanOpen) open = {0};
  TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    while (open.len && b >= open.items[open.len - 1].end) open.len--;
    int32_t owner = open.len ? open.items[open.len - 1].def : -1;
    const char *type = ts_node_type(n);
    bool skip = strcmp(type, "comment") == 0 || scan__in_region(s, b, e);
    if (skip) { /* nothing in it counts */
    } else if (strcmp(type, "function_definition") == 0) {
      scan__definition(s, n, t, &open);
    } else if (b < s->binding_end && s->binds && strcmp(type, "call_expression") == 0) {
      scan__binding(s, n, t, &open);
    } else if (strcmp(type, "preproc_if") == 0 || strcmp(type, "preproc_elif") == 0) {
      scan__preproc_alt(s, n, t, &defs); /* an #elif is the alternative of the one before */
      skip = scan__in_region(s, b, e);
      if (!skip) scan__preproc_if(s, n, t, &defs);
    } else if (strcmp(type, "preproc_else") == 0) {
      scan__preproc_alt(s, n, t, &defs);
      skip = scan__in_region(s, b, e);
    } else if (strcmp(type, "identifier") == 0 || strcmp(type, "field_identifier") == 0 ||
               strcmp(type, "type_identifier") == 0) {
      if (!scan__declared_name(n)) scan__mention(s, t + b, e - b, owner);
    } else if (strcmp(type, "preproc_arg") == 0 || strcmp(type, "string_literal") == 0 ||
               strcmp(type, "raw_string_literal") == 0) {
      scan__words(s, t + b, e - b, owner);
      skip = true;
    }
    if (!skip && ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
  }
  ts_tree_cursor_delete(&cur);
  array_free(&open);
  scan__defines_free(&defs);
  ts_tree_delete(tree);
}

/* ---- the facts ---- */

static int scan__mention_cmp(const void *x, const void *y) {
  const ReachFactMention *a = x, *b = y;
  if (a->owner != b->owner) return a->owner < b->owner ? -1 : 1;
  return a->name < b->name ? -1 : a->name > b->name;
}

static int scan__u32_cmp(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

/* Each (name, owner) once, each capitalised name once; the numbered words
 * copied into the facts' text. */
static void scan__finish(Scan *s) {
  ReachFacts *f = s->f;
  size_t k = 0;
  if (f->mentions.len) qsort(f->mentions.items, f->mentions.len, sizeof *f->mentions.items, scan__mention_cmp);
  for (size_t i = 0; i < f->mentions.len; i++)
    if (!k || scan__mention_cmp(&f->mentions.items[k - 1], &f->mentions.items[i]) != 0) f->mentions.items[k++] = f->mentions.items[i];
  f->mentions.len = k;
  k = 0;
  if (f->caps.len) qsort(f->caps.items, f->caps.len, sizeof *f->caps.items, scan__u32_cmp);
  for (size_t i = 0; i < f->caps.len; i++)
    if (!k || f->caps.items[k - 1] != f->caps.items[i]) f->caps.items[k++] = f->caps.items[i];
  f->caps.len = k;
  array_reserve(&f->words, s->names.strs.len);
  for (size_t i = 0; i < s->names.strs.len; i++) reach_facts_add_word(f, s->names.strs.items[i], strlen(s->names.strs.items[i]));
  names_free(&s->names);
}

void reach_facts_add_word(ReachFacts *f, const char *s, size_t n) {
  if (f->text_len + n + 1 > f->text_cap) {
    size_t c = f->text_cap ? f->text_cap : 256;
    while (c < f->text_len + n + 1) c *= 2;
    f->text = xrealloc(f->text, c);
    f->text_cap = c;
  }
  memcpy(f->text + f->text_len, s, n);
  f->text[f->text_len + n] = '\0';
  array_push(&f->words, (uint32_t)f->text_len);
  f->text_len += n + 1;
}

ReachFacts *reach_facts_scan(FileKind kind, const char *text, size_t len) {
  if (kind != FILE_CUDA && kind != FILE_PYTHON) return NULL;
  Scan s = {{0}, xcalloc(1, sizeof(ReachFacts)), kind == FILE_PYTHON, kb_lookup(KB_DETECTOR, "cxx-unreferenced", NULL, 0), 0};
  s.f->top_words = s.words_only; /* a Python file's mentions are its words: kept once */
  if (kind == FILE_CUDA) scan__cxx(&s, text, len);
  else scan__python(&s, text, len);
  scan__finish(&s);
  return s.f;
}

ReachFacts *reach_facts_copy(const ReachFacts *f) {
  if (!f) return NULL;
  ReachFacts *c = xcalloc(1, sizeof *c);
  c->text = xmalloc(f->text_len + 1);
  memcpy(c->text, f->text ? f->text : "", f->text_len);
  c->text_len = c->text_cap = f->text_len;
  for (size_t i = 0; i < f->words.len; i++) array_push(&c->words, f->words.items[i]);
  for (size_t i = 0; i < f->defs.len; i++) array_push(&c->defs, f->defs.items[i]);
  for (size_t i = 0; i < f->mentions.len; i++) array_push(&c->mentions, f->mentions.items[i]);
  c->top_words = f->top_words;
  for (size_t i = 0; i < f->caps.len; i++) array_push(&c->caps, f->caps.items[i]);
  for (size_t i = 0; i < f->regions.len; i++) {
    ReachFactRegion g = f->regions.items[i];
    g.why = xstrdup(g.why);
    array_push(&c->regions, g);
  }
  return c;
}

void reach_facts_free(ReachFacts *f) {
  if (!f) return;
  free(f->text);
  array_free(&f->words);
  array_free(&f->defs);
  array_free(&f->mentions);
  array_free(&f->caps);
  for (size_t i = 0; i < f->regions.len; i++) free(f->regions.items[i].why);
  array_free(&f->regions);
  free(f);
}
