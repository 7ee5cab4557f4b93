/* deps_req: PEP 508 requirements and requirements.txt lines (see deps.h).
 * Lenient by design: anything that does not parse is skipped, never an
 * error, because a half-typed line in the editor is normal. */
#include "analyzers/domains/deps.h"

#include <ctype.h>
#include <stdlib.h>

static bool deps__ws(char c) { return c == ' ' || c == '\t'; }

static uint32_t deps__skip_ws(const char *t, uint32_t p, uint32_t end) {
  while (p < end && deps__ws(t[p])) p++;
  return p;
}

static uint32_t deps__trim_end(const char *t, uint32_t start, uint32_t end) {
  while (end > start && (deps__ws(t[end - 1]) || t[end - 1] == '\r')) end--;
  return end;
}

static bool deps__name_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.'; }

static bool deps__span_has(const char *t, DepsSpan s, const char *needle) {
  size_t n = strlen(needle);
  return s.end - s.start >= n && memmem(t + s.start, s.end - s.start, needle, n) != NULL;
}

static bool deps__span_ends(const char *t, DepsSpan s, const char *suffix) {
  size_t n = strlen(suffix);
  return s.end - s.start >= n && strncasecmp(t + s.end - n, suffix, n) == 0;
}

bool deps_normalize(const char *name, size_t n, char *out) {
  size_t w = 0;
  bool sep = false;
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    if (c == '-' || c == '_' || c == '.') {
      sep = w > 0;
      continue;
    }
    if (sep) {
      if (w + 1 >= DEPS_NAME_MAX) return false;
      out[w++] = '-';
      sep = false;
    }
    if (w + 1 >= DEPS_NAME_MAX) return false;
    out[w++] = (char)tolower((unsigned char)c);
  }
  out[w] = '\0';
  return w > 0;
}

/* ---- version clauses ---------------------------------------------------------- */

/* The local label of a version: the run after '+' up to a separator. */
static DepsSpan deps__local_in(const char *t, DepsSpan v, const char *stops) {
  DepsSpan none = {0, 0};
  const char *plus = memchr(t + v.start, '+', v.end - v.start);
  if (!plus) return none;
  uint32_t s = (uint32_t)(plus - t) + 1, e = s;
  while (e < v.end && !strchr(stops, t[e]) && !deps__ws(t[e])) e++;
  DepsSpan r = {s, e};
  return e > s ? r : none;
}

/* spec: "==2.1.0+cu121", "(>=1.0)", ">=2,<3". Fills spec, pin and local. */
static void deps__spec(const char *t, uint32_t s, uint32_t e, DepsReq *out) {
  s = deps__skip_ws(t, s, e);
  e = deps__trim_end(t, s, e);
  if (s < e && t[s] == '(') {
    s = deps__skip_ws(t, s + 1, e);
    if (e > s && t[e - 1] == ')') e = deps__trim_end(t, s, e - 1);
  }
  if (s >= e) return;
  out->spec = (DepsSpan){s, e};
  out->local = deps__local_in(t, out->spec, ",;)");
  if (memchr(t + s, ',', e - s) || e - s < 3 || t[s] != '=' || t[s + 1] != '=') return;
  uint32_t v = s + 2;
  if (v < e && t[v] == '=') v++;
  v = deps__skip_ws(t, v, e);
  if (v < e) out->pin = (DepsSpan){v, e};
}

/* ---- bare URLs and paths ------------------------------------------------------- */

static bool deps__is_location(const char *t, uint32_t p, uint32_t end) {
  uint32_t e = p;
  while (e < end && !deps__ws(t[e]) && t[e] != ';') e++;
  DepsSpan tok = {p, e};
  if (t[p] == '.' || t[p] == '/' || t[p] == '~') return true;
  return deps__span_has(t, tok, "://") || deps__span_has(t, tok, "/") || deps__span_ends(t, tok, ".whl") ||
         deps__span_ends(t, tok, ".tar.gz") || deps__span_ends(t, tok, ".zip");
}

/* `#egg=NAME` in a URL. */
static bool deps__egg(const char *t, DepsSpan url, DepsSpan *name) {
  const char *egg = memmem(t + url.start, url.end - url.start, "#egg=", 5);
  if (!egg) egg = memmem(t + url.start, url.end - url.start, "&egg=", 5);
  if (!egg) return false;
  uint32_t s = (uint32_t)(egg - t) + 5, e = s;
  while (e < url.end && deps__name_char(t[e])) e++;
  *name = (DepsSpan){s, e};
  return e > s;
}

/* Last path component of a URL or path, without fragment, query, VCS ref and `.git`. */
static DepsSpan deps__last_component(const char *t, DepsSpan url) {
  uint32_t e = url.end;
  for (uint32_t i = url.start; i < url.end; i++)
    if (t[i] == '#' || t[i] == '?') {
      e = i;
      break;
    }
  while (e > url.start && t[e - 1] == '/') e--;
  uint32_t s = e;
  while (s > url.start && t[s - 1] != '/') s--;
  const char *at = memchr(t + s, '@', e - s);
  if (at && (uint32_t)(at - t) > s) e = (uint32_t)(at - t);
  if (e - s > 4 && memcmp(t + e - 4, ".git", 4) == 0) e -= 4;
  return (DepsSpan){s, e};
}

/* Name and version of a wheel ("dist-1.0+cu121-cp310-...whl") or sdist ("dist-1.0.tar.gz"). */
static void deps__archive(const char *t, DepsSpan file, DepsSpan *name, DepsSpan *version) {
  const char *dash = memchr(t + file.start, '-', file.end - file.start);
  if (deps__span_ends(t, file, ".whl") && dash) {
    *name = (DepsSpan){file.start, (uint32_t)(dash - t)};
    uint32_t vs = name->end + 1, ve = vs;
    while (ve < file.end && t[ve] != '-') ve++;
    *version = (DepsSpan){vs, ve};
    return;
  }
  uint32_t e = file.end; /* sdist: the name ends at the last '-' before a digit */
  for (uint32_t i = file.end; i > file.start + 1; i--)
    if (t[i - 1] == '-' && i < file.end && isdigit((unsigned char)t[i])) {
      e = i - 1;
      *version = (DepsSpan){i, file.end};
      break;
    }
  *name = (DepsSpan){file.start, e};
}

static bool deps__location(const char *t, uint32_t p, uint32_t end, DepsReq *out) {
  uint32_t e = p;
  while (e < end && !deps__ws(t[e])) e++;
  out->url = out->whole = out->name = (DepsSpan){p, e};
  DepsSpan name = {0, 0}, version = {0, 0};
  if (!deps__egg(t, out->url, &name)) {
    DepsSpan last = deps__last_component(t, out->url);
    if (deps__span_ends(t, last, ".whl") || deps__span_ends(t, last, ".tar.gz") || deps__span_ends(t, last, ".zip"))
      deps__archive(t, last, &name, &version);
    else
      name = last;
  }
  if (version.end > version.start) {
    out->pin = version;
    out->local = deps__local_in(t, version, "-");
  }
  const char *semi = memchr(t + e, ';', end - e);
  if (semi) out->marker = (DepsSpan){deps__skip_ws(t, (uint32_t)(semi - t) + 1, end), end};
  return name.end > name.start && deps_normalize(t + name.start, name.end - name.start, out->name_norm);
}

/* ---- PEP 508 -------------------------------------------------------------------- */

bool deps_req_parse(const char *t, uint32_t start, uint32_t end, DepsReq *out) {
  memset(out, 0, sizeof *out);
  uint32_t p = deps__skip_ws(t, start, end);
  end = deps__trim_end(t, p, end);
  if (p >= end) return false;
  if (deps__is_location(t, p, end)) {
    bool ok = deps__location(t, p, end, out);
    if (!ok) memset(out, 0, sizeof *out);
    return ok;
  }
  uint32_t ns = p;
  while (p < end && deps__name_char(t[p])) p++;
  if (p == ns || !isalnum((unsigned char)t[ns]) || !deps_normalize(t + ns, p - ns, out->name_norm)) {
    memset(out, 0, sizeof *out);
    return false;
  }
  out->name = (DepsSpan){ns, p};
  out->whole = out->name;
  p = deps__skip_ws(t, p, end);
  if (p < end && t[p] == '[') {
    const char *close = memchr(t + p, ']', end - p);
    uint32_t ce = close ? (uint32_t)(close - t) : end;
    out->extras = (DepsSpan){p + 1, ce};
    out->whole.end = close ? ce + 1 : end;
    p = deps__skip_ws(t, out->whole.end, end);
  }
  const char *semi = memchr(t + p, ';', end - p);
  uint32_t rest_end = semi ? (uint32_t)(semi - t) : end;
  if (semi) out->marker = (DepsSpan){deps__skip_ws(t, rest_end + 1, end), end};
  if (p < rest_end && t[p] == '@') {
    uint32_t us = deps__skip_ws(t, p + 1, rest_end), ue = us;
    while (ue < rest_end && !deps__ws(t[ue])) ue++;
    out->url = (DepsSpan){us, ue};
    out->whole.end = ue;
    DepsSpan last = deps__last_component(t, out->url), nm, ver = {0, 0};
    if (deps__span_ends(t, last, ".whl")) deps__archive(t, last, &nm, &ver);
    if (ver.end > ver.start) out->local = deps__local_in(t, ver, "-");
    return true;
  }
  deps__spec(t, p, rest_end, out);
  if (out->spec.end > out->spec.start) out->whole.end = out->spec.end;
  return true;
}

/* ---- requirements.txt lines ------------------------------------------------------ */

static const struct {
  const char *name;
  DepsLineKind kind;
} deps__options[] = {
    {"-r", DEPS_LINE_INCLUDE},      {"--requirement", DEPS_LINE_INCLUDE},
    {"-c", DEPS_LINE_CONSTRAINT},   {"--constraint", DEPS_LINE_CONSTRAINT},
    {"-e", DEPS_LINE_EDITABLE},     {"--editable", DEPS_LINE_EDITABLE},
    {"-i", DEPS_LINE_INDEX},        {"--index-url", DEPS_LINE_INDEX},
    {"--extra-index-url", DEPS_LINE_INDEX},
    {"-f", DEPS_LINE_FIND_LINKS},   {"--find-links", DEPS_LINE_FIND_LINKS},
};

static DepsLineKind deps__option_kind(const char *t, DepsSpan opt) {
  for (size_t i = 0; i < sizeof deps__options / sizeof deps__options[0]; i++) {
    size_t n = strlen(deps__options[i].name);
    if (opt.end - opt.start == n && memcmp(t + opt.start, deps__options[i].name, n) == 0)
      return deps__options[i].kind;
  }
  return DEPS_LINE_OPTION;
}

/* End of the meaningful part of a line: a '#' at its start or after blank
 * space begins a comment (pip's rule; `#egg=` inside a URL is not one). */
static uint32_t deps__comment_start(const char *t, uint32_t s, uint32_t e) {
  for (uint32_t i = s; i < e; i++)
    if (t[i] == '#' && (i == s || deps__ws(t[i - 1]))) return i;
  return e;
}

static void deps__option_line(const char *t, uint32_t p, uint32_t e, DepsLine *out) {
  uint32_t oe = p;
  while (oe < e && !deps__ws(t[oe]) && t[oe] != '=') oe++;
  uint32_t as = oe;
  if (oe - p > 2 && t[p + 1] != '-') { /* short option with its value attached: -rfile.txt */
    oe = p + 2;
    as = oe;
  }
  out->option = (DepsSpan){p, oe};
  as = deps__skip_ws(t, as, e);
  if (as < e && t[as] == '=') as = deps__skip_ws(t, as + 1, e);
  out->arg = (DepsSpan){as, e};
  out->kind = deps__option_kind(t, out->option);
  if (out->kind == DEPS_LINE_EDITABLE) out->has_req = deps_req_parse(t, as, e, &out->req);
}

void deps_line_parse(const char *t, uint32_t start, uint32_t end, bool continued, DepsLine *out) {
  memset(out, 0, sizeof *out);
  end = deps__trim_end(t, start, end);
  uint32_t p = deps__skip_ws(t, start, end);
  out->content = (DepsSpan){p, end};
  uint32_t e = deps__trim_end(t, p, deps__comment_start(t, p, end));
  if (e > p && t[e - 1] == '\\') {
    out->continues = true;
    e = deps__trim_end(t, p, e - 1);
  }
  if (continued || p >= e) return;
  if (t[p] == '-') {
    deps__option_line(t, p, e, out);
    return;
  }
  /* per-requirement options (--hash=..., --global-option) end the requirement */
  for (uint32_t i = p + 1; i + 2 < e; i++)
    if (deps__ws(t[i]) && t[i + 1] == '-' && t[i + 2] == '-') {
      e = deps__trim_end(t, p, i);
      break;
    }
  out->kind = DEPS_LINE_REQ;
  out->has_req = deps_req_parse(t, p, e, &out->req);
}

/* ---- the requirements file ---------------------------------------------------------- */

static void deps__req_site(AnalyzeCtx *ctx, const DepsLine *l, const char *prefix, DepsSites *sites) {
  DepsSite s;
  deps_site_line(ctx->text, ctx->len, &l->req, l->content, prefix, &s);
  if (l->kind == DEPS_LINE_EDITABLE) s.item = (DepsSpan){l->content.start, l->req.whole.end};
  array_push(sites, s);
}

void deps_requirement_lines(AnalyzeCtx *ctx, uint32_t start, uint32_t end, const char *prefix, DepsSites *sites) {
  const char *t = ctx->text;
  bool continued = false;
  for (uint32_t ls = start; ls < end;) {
    const char *nl = memchr(t + ls, '\n', end - ls);
    uint32_t le = nl ? (uint32_t)(nl - t) : end;
    DepsLine l;
    deps_line_parse(t, ls, le, continued, &l);
    continued = l.continues;
    if ((l.kind == DEPS_LINE_REQ || l.kind == DEPS_LINE_EDITABLE) && l.has_req) {
      deps__req_site(ctx, &l, prefix, sites);
    } else if (l.kind == DEPS_LINE_INCLUDE || l.kind == DEPS_LINE_CONSTRAINT) {
      DepsSpan at = {l.option.start, l.arg.end};
      deps_emit_include(ctx, at, l.arg);
    } else if (l.kind == DEPS_LINE_INDEX || l.kind == DEPS_LINE_FIND_LINKS) {
      char *opt = xstrndup(t + l.option.start, l.option.end - l.option.start);
      deps_emit_index(ctx, l.arg, l.content, opt);
      free(opt);
    }
    ls = le + 1;
  }
}

void deps_requirements(AnalyzeCtx *ctx) {
  DepsSites sites = {0};
  deps_requirement_lines(ctx, 0, (uint32_t)ctx->len, "", &sites);
  deps_emit_sites(ctx, &sites);
  array_free(&sites);
}
