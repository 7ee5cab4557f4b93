/* deps_cfg: the two line-oriented formats, setup.cfg (INI) and conda's
 * environment.yml (the YAML subset conda files use: top-level keys and
 * "- item" lists, with a nested "- pip:" list of pip requirement lines).
 * Neither needs a full parser: requirements are one per line. */
#include "analyzers/domains/deps.h"

#include <stdlib.h>

static bool deps__blank_char(char c) { return c == ' ' || c == '\t' || c == '\r'; }

typedef struct {
  uint32_t start, end;    /* the line, EOL excluded */
  uint32_t content;       /* first non-blank byte */
  uint32_t indent;        /* content - start */
} DepsRawLine;

/* Next line at *pos; false at the end of the text. */
static bool deps__next_line(const AnalyzeCtx *ctx, uint32_t *pos, DepsRawLine *l) {
  if (*pos >= ctx->len) return false;
  const char *nl = memchr(ctx->text + *pos, '\n', ctx->len - *pos);
  l->start = *pos;
  l->end = nl ? (uint32_t)(nl - ctx->text) : (uint32_t)ctx->len;
  *pos = l->end + 1;
  if (l->end > l->start && ctx->text[l->end - 1] == '\r') l->end--;
  l->content = l->start;
  while (l->content < l->end && deps__blank_char(ctx->text[l->content])) l->content++;
  l->indent = l->content - l->start;
  return true;
}

static bool deps__line_is(const AnalyzeCtx *ctx, const DepsRawLine *l, const char *s) {
  size_t n = strlen(s);
  return l->end - l->content >= n && memcmp(ctx->text + l->content, s, n) == 0;
}

static void deps__prefix(const AnalyzeCtx *ctx, uint32_t from, uint32_t to, char *out, size_t n) {
  snprintf(out, n, "%.*s", (int)(to - from), ctx->text + from);
}

/* One requirement line (also pip options such as --extra-index-url). */
static void deps__req_line(AnalyzeCtx *ctx, uint32_t start, uint32_t end, uint32_t comment_from, const char *prefix,
                           const char *where, bool ini, DepsSites *sites) {
  DepsLine l;
  deps_line_parse(ctx->text, start, end, false, &l);
  if (l.kind == DEPS_LINE_INDEX || l.kind == DEPS_LINE_FIND_LINKS) {
    char *opt = xstrndup(ctx->text + l.option.start, l.option.end - l.option.start);
    deps_emit_index(ctx, l.arg, (DepsSpan){comment_from, end}, opt);
    free(opt);
  } else if (l.kind == DEPS_LINE_INCLUDE || l.kind == DEPS_LINE_CONSTRAINT) {
    deps_emit_include(ctx, (DepsSpan){l.option.start, l.arg.end}, l.arg);
  } else if (l.has_req) {
    DepsSite s;
    deps_site_line(ctx->text, ctx->len, &l.req, l.content, prefix, &s);
    s.line.start = comment_from;
    if (l.kind == DEPS_LINE_EDITABLE) s.item = (DepsSpan){l.content.start, l.req.whole.end};
    snprintf(s.where, sizeof s.where, "%s", where);
    s.no_comment = ini; /* configparser keeps inline comments in values */
    array_push(sites, s);
  }
}

/* ---- setup.cfg ------------------------------------------------------------------------- */

/* [options] keys that hold requirement lists; every key of [options.extras_require] does. */
static const char *const deps__cfg_keys = "install_requires|setup_requires|tests_require";

typedef struct {
  char section[64];
  char key[64];   /* the requirement key whose dangling list is open, or "" */
} DepsCfgState;

static void deps__cfg_key_line(AnalyzeCtx *ctx, const DepsRawLine *l, DepsCfgState *st, DepsSites *sites) {
  const char *t = ctx->text;
  uint32_t eq = l->content;
  while (eq < l->end && t[eq] != '=' && t[eq] != ':') eq++;
  uint32_t ke = eq;
  while (ke > l->content && deps__blank_char(t[ke - 1])) ke--;
  snprintf(st->key, sizeof st->key, "%.*s", (int)(ke - l->content), t + l->content);
  bool extras = strcmp(st->section, "options.extras_require") == 0;
  if (eq >= l->end || (!extras && !(strcmp(st->section, "options") == 0 && kb_pattern_match(deps__cfg_keys, st->key)))) {
    st->key[0] = '\0';
    return;
  }
  uint32_t v = eq + 1;
  while (v < l->end && deps__blank_char(t[v])) v++;
  if (v >= l->end || (l->end - v >= 5 && memcmp(t + v, "file:", 5) == 0)) return;
  char where[96];
  snprintf(where, sizeof where, extras ? "extras_require.%s" : "%s", st->key);
  /* a value on the key line cannot be commented out without breaking the key */
  deps__req_line(ctx, v, l->end, l->end, "", where, true, sites);
}

void deps_setup_cfg(AnalyzeCtx *ctx) {
  DepsSites sites = {0};
  DepsCfgState st;
  memset(&st, 0, sizeof st);
  DepsRawLine l;
  for (uint32_t pos = 0; deps__next_line(ctx, &pos, &l);) {
    char c = l.content < l.end ? ctx->text[l.content] : '\0';
    if (c == '\0' || c == '#' || c == ';') continue;
    if (c == '[' && l.indent == 0) {
      const char *close = memchr(ctx->text + l.content, ']', l.end - l.content);
      uint32_t e = close ? (uint32_t)(close - ctx->text) : l.end;
      snprintf(st.section, sizeof st.section, "%.*s", (int)(e - l.content - 1), ctx->text + l.content + 1);
      st.key[0] = '\0';
    } else if (l.indent > 0 && st.key[0]) {
      char prefix[24], where[96];
      deps__prefix(ctx, l.start, l.content, prefix, sizeof prefix);
      bool extras = strcmp(st.section, "options.extras_require") == 0;
      snprintf(where, sizeof where, extras ? "extras_require.%s" : "%s", st.key);
      deps__req_line(ctx, l.content, l.end, l.content, prefix, where, true, &sites);
    } else if (l.indent == 0) {
      deps__cfg_key_line(ctx, &l, &st, &sites);
    }
  }
  deps_emit_sites(ctx, &sites);
  array_free(&sites);
}

/* ---- environment.yml ------------------------------------------------------------------------ */

/* Conda packages that are the environment itself, not dependencies to audit. */
static const char *const deps__conda_skip = "python|pip";

typedef enum { DEPS_CONDA_OTHER, DEPS_CONDA_CHANNELS, DEPS_CONDA_DEPS, DEPS_CONDA_PIP } DepsCondaMode;

/* "name", "name=1.0", "name=1.0=build", "name>=1.0", "channel::name" (quotes
 * stripped by the caller) as a requirement whose build string is its local label. */
static bool deps__conda_spec(const AnalyzeCtx *ctx, uint32_t s, uint32_t e, DepsReq *r) {
  const char *t = ctx->text;
  memset(r, 0, sizeof *r);
  const char *cc = memmem(t + s, e - s, "::", 2);
  if (cc) s = (uint32_t)(cc - t) + 2;
  uint32_t ne = s;
  while (ne < e && t[ne] != '=' && t[ne] != '<' && t[ne] != '>' && t[ne] != '!' && t[ne] != '~' && t[ne] != ' ' &&
         t[ne] != '[')
    ne++;
  if (ne == s || !deps_normalize(t + s, ne - s, r->name_norm)) return false;
  r->name = (DepsSpan){s, ne};
  r->whole = (DepsSpan){s, e};
  uint32_t v = ne;
  while (v < e && (t[v] == '=' || t[v] == ' ')) v++;
  uint32_t ss = ne;
  while (ss < e && t[ss] == ' ') ss++;
  if (ss < e) r->spec = (DepsSpan){ss, e};
  bool single_eq = v > ne && t[ne] == '=' && (v - ne == 1 || t[ne + 1] != '=');
  if (v == ne || (t[ne] != '=')) return true;
  uint32_t ve = v;
  while (ve < e && t[ve] != '=' && t[ve] != ' ') ve++;
  if (ve > v && !memchr(t + v, '*', ve - v)) r->pin = (DepsSpan){v, ve};
  if (single_eq && ve + 1 < e && t[ve] == '=') r->local = (DepsSpan){ve + 1, e};
  return true;
}

static void deps__conda_package(AnalyzeCtx *ctx, const DepsRawLine *l, uint32_t s, uint32_t e, DepsSites *sites) {
  if (e > s && (ctx->text[s] == '"' || ctx->text[s] == '\'') && ctx->text[e - 1] == ctx->text[s]) {
    s++;
    e--;
  }
  DepsSite site;
  memset(&site, 0, sizeof site);
  if (!deps__conda_spec(ctx, s, e, &site.req) || kb_pattern_match(deps__conda_skip, site.req.name_norm)) return;
  site.kind = DEPS_SITE_LINE;
  site.line = (DepsSpan){l->content, l->end};
  site.item = site.req.whole;
  site.no_add = true; /* torch-npu is a pip package: it cannot join the conda list */
  snprintf(site.where, sizeof site.where, "conda dependencies");
  array_push(sites, site);
}

/* Content of a "- item" line without its dash, quotes-as-is and trailing comment. */
static bool deps__conda_item(const AnalyzeCtx *ctx, const DepsRawLine *l, uint32_t *s, uint32_t *e) {
  if (!deps__line_is(ctx, l, "- ") && !deps__line_is(ctx, l, "-\t")) return false;
  *s = l->content + 2;
  while (*s < l->end && deps__blank_char(ctx->text[*s])) (*s)++;
  *e = l->end;
  for (uint32_t i = *s; i < l->end; i++)
    if (ctx->text[i] == '#' && i > *s && deps__blank_char(ctx->text[i - 1])) {
      *e = i;
      break;
    }
  while (*e > *s && deps__blank_char(ctx->text[*e - 1])) (*e)--;
  return *e > *s;
}

static DepsCondaMode deps__conda_top(const AnalyzeCtx *ctx, const DepsRawLine *l) {
  if (deps__line_is(ctx, l, "channels:")) return DEPS_CONDA_CHANNELS;
  if (deps__line_is(ctx, l, "dependencies:")) return DEPS_CONDA_DEPS;
  return DEPS_CONDA_OTHER;
}

void deps_conda(AnalyzeCtx *ctx) {
  DepsSites sites = {0};
  DepsCondaMode mode = DEPS_CONDA_OTHER;
  uint32_t pip_indent = 0;
  DepsRawLine l;
  for (uint32_t pos = 0; deps__next_line(ctx, &pos, &l);) {
    uint32_t s, e;
    if (l.content >= l.end || ctx->text[l.content] == '#') continue;
    if (l.indent == 0 && ctx->text[l.content] != '-') {
      mode = deps__conda_top(ctx, &l);
      continue;
    }
    if (mode == DEPS_CONDA_PIP && l.indent <= pip_indent) mode = DEPS_CONDA_DEPS;
    if (!deps__conda_item(ctx, &l, &s, &e)) continue;
    if (mode == DEPS_CONDA_CHANNELS) {
      deps_emit_index(ctx, (DepsSpan){s, e}, (DepsSpan){l.content, l.end}, "channel");
    } else if (mode == DEPS_CONDA_DEPS && e - s == 4 && memcmp(ctx->text + s, "pip:", 4) == 0) {
      mode = DEPS_CONDA_PIP;
      pip_indent = l.indent;
    } else if (mode == DEPS_CONDA_DEPS) {
      deps__conda_package(ctx, &l, s, e, &sites);
    } else if (mode == DEPS_CONDA_PIP) {
      char prefix[24];
      deps__prefix(ctx, l.start, s, prefix, sizeof prefix);
      deps__req_line(ctx, s, l.end, l.content, prefix, "conda pip", false, &sites);
    }
  }
  deps_emit_sites(ctx, &sites);
  array_free(&sites);
}
