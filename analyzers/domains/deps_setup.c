/* deps_setup: setup.py, read statically from its Python tree (nothing is
 * executed). One cursor walk finds the requirement keywords (install_requires,
 * setup_requires, tests_require, extras_require, as keyword arguments or
 * dict keys) and records every value a name is given (`x = [...]`,
 * `x += [...]`, `x.append(...)` / `.extend(...)`, `x["extra"] = [...]`).
 * A work list then expands each keyword's value through lists, `+`,
 * conditional expressions, dicts and those names, with a step cap so
 * self-referencing assignments terminate. */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/deps.h"
#include "analyzers/python/pysyntax.h"

#include <stdlib.h>

/* setuptools keywords that hold requirements (format facts). */
static const struct {
  const char *name;
  bool extras; /* a dict: extra name -> requirements */
  bool no_add; /* build requirements: torch-npu is not added there */
} deps__setup_keys[] = {
    {"install_requires", false, false},
    {"extras_require", true, false},
    {"setup_requires", false, true},
    {"tests_require", false, false},
};

#define DEPS_SETUP_MAX_STEPS 4096

typedef struct {
  char *name;     /* the variable */
  char *key;      /* `name["key"] = value`, else NULL */
  TSNode value;
} DepsSetupVar;

typedef struct {
  TSNode value;
  int key;        /* index in deps__setup_keys */
  char *group;    /* extra name, or NULL */
} DepsSetupWork;

typedef struct {
  AnalyzeCtx *ctx;
  Array(DepsSetupVar) vars;
  Array(DepsSetupWork) work;
  Array(uint32_t) seen; /* start bytes of expanded name references, to stop cycles */
  DepsSites sites;
  Array(int) site_keys; /* the keyword each site was reached from */
} DepsSetup;

static char *deps__node_text(const AnalyzeCtx *ctx, TSNode n) {
  return xstrndup(ctx->text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

static int deps__setup_key(const char *name) {
  for (size_t i = 0; i < sizeof deps__setup_keys / sizeof deps__setup_keys[0]; i++)
    if (strcmp(deps__setup_keys[i].name, name) == 0) return (int)i;
  return -1;
}

/* Literal content of a plain string: its string_content child up to the
 * first escape; false for f-strings with holes and concatenations. */
static bool deps__py_content(TSNode str, DepsSpan *out) {
  if (!pysyntax_is(str, "string")) return false;
  uint32_t n = ts_node_named_child_count(str);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(str, i);
    if (pysyntax_is(c, "interpolation")) return false;
    if (!pysyntax_is(c, "string_content")) continue;
    out->start = ts_node_start_byte(c);
    out->end = ts_node_end_byte(c);
    if (ts_node_named_child_count(c) > 0) out->end = ts_node_start_byte(ts_node_named_child(c, 0));
    return out->end > out->start;
  }
  return false;
}

static void deps__push_work(DepsSetup *s, TSNode value, int key, const char *group) {
  DepsSetupWork w = {value, key, group ? xstrdup(group) : NULL};
  array_push(&s->work, w);
}

/* ---- the collecting walk ---------------------------------------------------------- */

static void deps__record(DepsSetup *s, TSNode name, const char *key, TSNode value) {
  if (!pysyntax_is(name, "identifier") || ts_node_is_null(value)) return;
  DepsSetupVar v = {deps__node_text(s->ctx, name), key ? xstrdup(key) : NULL, value};
  array_push(&s->vars, v);
}

static void deps__visit_assignment(DepsSetup *s, TSNode n) {
  TSNode left = pysym_child(n, PYFIELD_LEFT), right = pysym_child(n, PYFIELD_RIGHT);
  if (pysyntax_is(left, "subscript")) {
    TSNode sub = pysym_child(left, PYFIELD_SUBSCRIPT);
    char *key = pysyntax_is(sub, "string") ? pysyntax_string_value(s->ctx->py, sub) : NULL;
    if (key) deps__record(s, pysym_child(left, PYFIELD_VALUE), key, right);
    free(key);
  } else {
    deps__record(s, left, NULL, right);
  }
}

/* `x.append(v)`, `x.extend(v)`, `x.insert(i, v)`: v joins x. */
static void deps__visit_call(DepsSetup *s, TSNode n) {
  static const char *const adders = "append|extend|insert";
  TSNode fn = pysym_child(n, PYFIELD_FUNCTION), args = pysym_child(n, PYFIELD_ARGUMENTS);
  if (!pysyntax_is(fn, "attribute") || !pysyntax_is(args, "argument_list")) return;
  char *method = deps__node_text(s->ctx, pysym_child(fn, PYFIELD_ATTRIBUTE));
  if (kb_pattern_match(adders, method)) {
    uint32_t k = ts_node_named_child_count(args);
    if (k > 0) deps__record(s, pysym_child(fn, PYFIELD_OBJECT), NULL, ts_node_named_child(args, k - 1));
  }
  free(method);
}

static void deps__visit_keyword(DepsSetup *s, TSNode name, TSNode value) {
  char *nm = pysyntax_is(name, "string") ? pysyntax_string_value(s->ctx->py, name) : deps__node_text(s->ctx, name);
  int key = nm ? deps__setup_key(nm) : -1;
  if (key >= 0 && !ts_node_is_null(value)) deps__push_work(s, value, key, NULL);
  free(nm);
}

static void deps__visit(DepsSetup *s, TSNode n) {
  const char *t = ts_node_type(n);
  if (strcmp(t, "assignment") == 0 || strcmp(t, "augmented_assignment") == 0) {
    deps__visit_assignment(s, n);
  } else if (strcmp(t, "call") == 0) {
    deps__visit_call(s, n);
  } else if (strcmp(t, "keyword_argument") == 0) {
    deps__visit_keyword(s, pysym_child(n, PYFIELD_NAME), pysym_child(n, PYFIELD_VALUE));
  } else if (strcmp(t, "pair") == 0) {
    deps__visit_keyword(s, pysym_child(n, PYFIELD_KEY), pysym_child(n, PYFIELD_VALUE));
  }
}

static void deps__collect(DepsSetup *s) {
  for (size_t m = 0; m < forest_size(s->ctx->forest); m++) {
    TSTreeCursor cur = ts_tree_cursor_new(forest_root(s->ctx->forest, m));
    bool more = true;
    while (more) {
      TSNode n = ts_tree_cursor_current_node(&cur);
      deps__visit(s, n);
      if (!pysyntax_is(n, "comment") && ts_tree_cursor_goto_first_child(&cur)) continue;
      while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
        if (!ts_tree_cursor_goto_parent(&cur)) break;
    }
    ts_tree_cursor_delete(&cur);
  }
}

/* ---- expansion ------------------------------------------------------------------------- */

static void deps__site(DepsSetup *s, TSNode str, const DepsSetupWork *w) {
  DepsSpan c;
  if (!deps__py_content(str, &c)) return;
  DepsSite site;
  memset(&site, 0, sizeof site);
  if (!deps_req_parse(s->ctx->text, c.start, c.end, &site.req)) return;
  site.kind = DEPS_SITE_ELEMENT;
  site.item = (DepsSpan){ts_node_start_byte(str), ts_node_end_byte(str)};
  site.line = (DepsSpan){site.item.start, deps_line_end(s->ctx->text, s->ctx->len, site.item.end)};
  site.quote = s->ctx->text[c.start - 1];
  site.no_add = deps__setup_keys[w->key].no_add;
  if (w->group) snprintf(site.where, sizeof site.where, "%s.%s", deps__setup_keys[w->key].name, w->group);
  else snprintf(site.where, sizeof site.where, "%s", deps__setup_keys[w->key].name);
  array_push(&s->sites, site);
  array_push(&s->site_keys, w->key);
}

/* A list shared by several keywords (`setup_requires=reqs` too) is reported
 * once, under the first keyword of deps__setup_keys that reaches it. */
static void deps__dedupe(DepsSetup *s, DepsSites *out) {
  for (size_t i = 0; i < s->sites.len; i++) {
    bool better = false;
    for (size_t k = 0; k < s->sites.len && !better; k++)
      better = k != i && s->sites.items[k].req.whole.start == s->sites.items[i].req.whole.start &&
               (s->site_keys.items[k] < s->site_keys.items[i] || (s->site_keys.items[k] == s->site_keys.items[i] && k < i));
    if (!better) array_push(out, s->sites.items[i]);
  }
}

/* A name: every value recorded for it joins the work list (once per reference). */
static void deps__expand_name(DepsSetup *s, TSNode id, const DepsSetupWork *w) {
  uint32_t at = ts_node_start_byte(id);
  for (size_t i = 0; i < s->seen.len; i++)
    if (s->seen.items[i] == at) return;
  array_push(&s->seen, at);
  char *name = deps__node_text(s->ctx, id);
  bool extras = deps__setup_keys[w->key].extras && !w->group;
  for (size_t i = 0; i < s->vars.len; i++) {
    const DepsSetupVar *v = &s->vars.items[i];
    if (strcmp(v->name, name) != 0) continue;
    if (v->key && extras) deps__push_work(s, v->value, w->key, v->key);
    else if (!v->key) deps__push_work(s, v->value, w->key, w->group);
  }
  free(name);
}

/* A dict of extras ({"gpu": [...]} or dict(gpu=[...])): each value with its extra name. */
static void deps__expand_extras(DepsSetup *s, TSNode n, const DepsSetupWork *w) {
  uint32_t k = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < k; i++) {
    TSNode p = ts_node_named_child(n, i);
    bool pair = pysyntax_is(p, "pair"), kw = pysyntax_is(p, "keyword_argument");
    if (!pair && !kw) continue;
    TSNode key = ts_node_child_by_field_name(p, pair ? "key" : "name", pair ? 3 : 4);
    char *g = pair ? pysyntax_string_value(s->ctx->py, key) : deps__node_text(s->ctx, key);
    deps__push_work(s, pysym_child(p, PYFIELD_VALUE), w->key, g ? g : "?");
    free(g);
  }
}

static void deps__expand(DepsSetup *s, const DepsSetupWork *w) {
  TSNode n = w->value;
  bool dict_level = deps__setup_keys[w->key].extras && !w->group;
  if (pysyntax_is(n, "identifier")) {
    deps__expand_name(s, n, w);
  } else if (dict_level && pysyntax_is(n, "dictionary")) {
    deps__expand_extras(s, n, w);
  } else if (dict_level && pysyntax_is(n, "call")) {
    deps__expand_extras(s, pysym_child(n, PYFIELD_ARGUMENTS), w);
  } else if (!dict_level && pysyntax_is(n, "string")) {
    deps__site(s, n, w);
  } else if (pysyntax_is(n, "list") || pysyntax_is(n, "tuple") || pysyntax_is(n, "set") ||
             pysyntax_is(n, "binary_operator") || pysyntax_is(n, "parenthesized_expression") ||
             pysyntax_is(n, "conditional_expression")) {
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) deps__push_work(s, ts_node_named_child(n, i), w->key, w->group);
  }
}

void deps_setup_py(AnalyzeCtx *ctx) {
  DepsSetup s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  deps__collect(&s);
  for (size_t i = 0; i < s.work.len && i < DEPS_SETUP_MAX_STEPS; i++) {
    DepsSetupWork w = s.work.items[i]; /* copy: expanding may grow the array */
    deps__expand(&s, &w);
  }
  DepsSites sites = {0};
  deps__dedupe(&s, &sites);
  deps_emit_sites(ctx, &sites);
  array_free(&sites);
  for (size_t i = 0; i < s.work.len; i++) free(s.work.items[i].group);
  for (size_t i = 0; i < s.vars.len; i++) {
    free(s.vars.items[i].name);
    free(s.vars.items[i].key);
  }
  array_free(&s.work);
  array_free(&s.vars);
  array_free(&s.seen);
  array_free(&s.sites);
  array_free(&s.site_keys);
}
