/* deps_toml: pyproject.toml, read from its TOML tree. Every key/value pair
 * gets its dotted path (table header + key), and a small table of path globs
 * says what the value holds: PEP 508 strings (PEP 621 dependencies and
 * optional-dependencies, build-system.requires, PEP 735 dependency-groups,
 * uv/pdm dev dependencies), Poetry `name = spec` pairs, or index URLs. An
 * inline table whose path matches nothing is opened in place (an explicit
 * work list, no recursion). */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/deps.h"
#include "analyzers/engine/toml.h"

#include <stdlib.h>

typedef enum { DEPS_TOML_SKIP, DEPS_TOML_LIST, DEPS_TOML_KEY, DEPS_TOML_INDEX } DepsTomlKind;

/* The pyproject.toml keys that declare packages or indexes (format facts,
 * first match wins). */
static const struct {
  const char *path;
  DepsTomlKind kind;
  bool no_add; /* build requirements: torch-npu is not added there */
} deps__toml_keys[] = {
    {"project.dependencies", DEPS_TOML_LIST, false},
    {"project.optional-dependencies.*", DEPS_TOML_LIST, false},
    {"build-system.requires", DEPS_TOML_LIST, true},
    {"dependency-groups.*", DEPS_TOML_LIST, false},
    {"tool.uv.dev-dependencies", DEPS_TOML_LIST, false},
    {"tool.uv.constraint-dependencies|tool.uv.override-dependencies", DEPS_TOML_LIST, false},
    {"tool.pdm.dev-dependencies.*", DEPS_TOML_LIST, false},
    {"tool.poetry.dependencies.python|tool.poetry.group.*.dependencies.python", DEPS_TOML_SKIP, false},
    {"tool.poetry.dependencies.*|tool.poetry.dev-dependencies.*|tool.poetry.group.*.dependencies.*", DEPS_TOML_KEY,
     false},
    {"tool.poetry.source.url|tool.uv.index.url|tool.pdm.source.url", DEPS_TOML_INDEX, false},
    {"tool.uv.index-url|tool.uv.extra-index-url|tool.uv.find-links|tool.pip.index-url|tool.pip.extra-index-url",
     DEPS_TOML_INDEX, false},
};

static int deps__toml_key(const char *path) {
  for (size_t i = 0; i < sizeof deps__toml_keys / sizeof deps__toml_keys[0]; i++)
    if (kb_pattern_match(deps__toml_keys[i].path, path)) return (int)i;
  return -1;
}

static bool deps__is(TSNode n, const char *type) { return toml_is(n, type); }

/* Content of a string node (inside its quotes). */
static DepsSpan deps__toml_content(const AnalyzeCtx *ctx, TSNode str) {
  DepsSpan sp;
  toml_string_span(ctx->text, str, &sp.start, &sp.end);
  return sp;
}

/* The key span of a pair's last key component (the package name in Poetry). */
static DepsSpan deps__toml_last_key(TSNode key) {
  while (deps__is(key, "dotted_key")) key = ts_node_named_child(key, ts_node_named_child_count(key) - 1);
  uint32_t s = ts_node_start_byte(key), e = ts_node_end_byte(key);
  if (deps__is(key, "quoted_key") && e - s >= 2) return (DepsSpan){s + 1, e - 1};
  return (DepsSpan){s, e};
}

/* ---- values ------------------------------------------------------------------ */

static void deps__toml_element(AnalyzeCtx *ctx, TSNode str, const char *path, bool no_add, DepsSites *sites) {
  DepsSpan c = deps__toml_content(ctx, str);
  DepsSite s;
  memset(&s, 0, sizeof s);
  if (!deps_req_parse(ctx->text, c.start, c.end, &s.req)) return;
  s.kind = DEPS_SITE_ELEMENT;
  s.item = (DepsSpan){ts_node_start_byte(str), ts_node_end_byte(str)};
  s.line = (DepsSpan){s.item.start, deps_line_end(ctx->text, ctx->len, s.item.end)};
  s.quote = ctx->text[s.item.start];
  s.no_add = no_add;
  snprintf(s.where, sizeof s.where, "%s", path);
  array_push(sites, s);
}

static void deps__toml_list(AnalyzeCtx *ctx, TSNode value, const char *path, bool no_add, DepsSites *sites) {
  if (deps__is(value, "string")) {
    deps__toml_element(ctx, value, path, no_add, sites);
    return;
  }
  if (!deps__is(value, "array")) return;
  uint32_t n = ts_node_named_child_count(value);
  for (uint32_t i = 0; i < n; i++) {
    TSNode el = ts_node_named_child(value, i);
    if (deps__is(el, "string")) deps__toml_element(ctx, el, path, no_add, sites);
  }
}

static void deps__toml_index(AnalyzeCtx *ctx, TSNode value, const char *option) {
  if (deps__is(value, "string")) {
    deps_emit_index(ctx, deps__toml_content(ctx, value), (DepsSpan){0, 0}, option);
  } else if (deps__is(value, "array")) {
    uint32_t n = ts_node_named_child_count(value);
    for (uint32_t i = 0; i < n; i++)
      if (deps__is(ts_node_named_child(value, i), "string"))
        deps_emit_index(ctx, deps__toml_content(ctx, ts_node_named_child(value, i)), (DepsSpan){0, 0}, option);
  }
}

/* Poetry's version string: "2.1.0" (exact), "^2.1", ">=2,<3", with an
 * optional local label. */
static void deps__poetry_version(const AnalyzeCtx *ctx, DepsSpan v, DepsReq *r) {
  if (v.end <= v.start) return;
  r->spec = v;
  const char *plus = memchr(ctx->text + v.start, '+', v.end - v.start);
  if (plus) {
    uint32_t ls = (uint32_t)(plus - ctx->text) + 1, le = ls;
    while (le < v.end && ctx->text[le] != ',' && ctx->text[le] != ' ') le++;
    if (le > ls) r->local = (DepsSpan){ls, le};
  }
  if (memchr(ctx->text + v.start, ',', v.end - v.start)) return;
  uint32_t p = v.start;
  while (p < v.end && (ctx->text[p] == '=' || ctx->text[p] == ' ')) p++;
  if (p < v.end && ctx->text[p] >= '0' && ctx->text[p] <= '9') r->pin = (DepsSpan){p, v.end};
}

/* The "version" string of an inline table { version = "...", source = "..." }. */
static TSNode deps__toml_version(const AnalyzeCtx *ctx, TSNode table) {
  uint32_t n = ts_node_named_child_count(table);
  for (uint32_t i = 0; i < n; i++) {
    TSNode pair = ts_node_named_child(table, i);
    TSNode k = ts_node_named_child(pair, 0), v = ts_node_named_child(pair, 1);
    if (deps__is(k, "bare_key") && ts_node_end_byte(k) - ts_node_start_byte(k) == 7 &&
        memcmp(ctx->text + ts_node_start_byte(k), "version", 7) == 0 && deps__is(v, "string"))
      return v;
  }
  TSNode none = {{0}, NULL, NULL};
  return none;
}

static void deps__toml_poetry(AnalyzeCtx *ctx, TSNode pair, const char *path, DepsSites *sites) {
  TSNode key = ts_node_named_child(pair, 0), value = ts_node_named_child(pair, 1);
  DepsSite s;
  memset(&s, 0, sizeof s);
  DepsSpan name = deps__toml_last_key(key);
  if (!deps_normalize(ctx->text + name.start, name.end - name.start, s.req.name_norm)) return;
  s.kind = DEPS_SITE_KEY;
  s.req.name = s.req.whole = name;
  if (deps__is(value, "inline_table")) value = deps__toml_version(ctx, value);
  if (deps__is(value, "string")) deps__poetry_version(ctx, deps__toml_content(ctx, value), &s.req);
  s.item = (DepsSpan){ts_node_start_byte(pair), ts_node_end_byte(pair)};
  s.line = (DepsSpan){s.item.start, deps_line_end(ctx->text, ctx->len, s.item.end)};
  const char *dot = strrchr(path, '.');
  snprintf(s.where, sizeof s.where, "%.*s", dot ? (int)(dot - path) : (int)strlen(path), path);
  array_push(sites, s);
}

/* ---- the walk -------------------------------------------------------------------- */

typedef struct {
  AnalyzeCtx *ctx;
  DepsSites *sites;
} DepsToml;

/* The dotted path the key table matches: array-table indexes left out
 * (every [[tool.poetry.source]] has its url). Caller frees. */
static char *deps__toml_path(const StrList *path) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < path->len; i++)
    if (path->items[i][0] != '#') sb_printf(&sb, "%s%s", sb.len ? "." : "", path->items[i]);
  return sb_steal(&sb);
}

/* A pair of a dependency key is read; an inline table under no such key is
 * opened (its pairs may be: `tool = {poetry = {dependencies = ...}}`). */
static bool deps__toml_visit(void *data, const TomlItem *it) {
  DepsToml *t = data;
  if (ts_node_is_null(it->value)) return false;
  char *path = deps__toml_path(it->path);
  int k = deps__toml_key(path);
  bool open = k < 0 && deps__is(it->value, "inline_table");
  if (k >= 0 && deps__toml_keys[k].kind == DEPS_TOML_LIST) {
    deps__toml_list(t->ctx, it->value, path, deps__toml_keys[k].no_add, t->sites);
  } else if (k >= 0 && deps__toml_keys[k].kind == DEPS_TOML_KEY) {
    deps__toml_poetry(t->ctx, it->pair, path, t->sites);
  } else if (k >= 0 && deps__toml_keys[k].kind == DEPS_TOML_INDEX) {
    const char *dot = strrchr(path, '.');
    deps__toml_index(t->ctx, it->value, dot ? dot + 1 : path);
  }
  free(path);
  return open;
}

void deps_pyproject(AnalyzeCtx *ctx) {
  DepsSites sites = {0};
  DepsToml t = {ctx, &sites};
  toml_walk(forest_root(ctx->forest, 0), ctx->text, deps__toml_visit, &t);
  deps_emit_sites(ctx, &sites);
  array_free(&sites);
}
