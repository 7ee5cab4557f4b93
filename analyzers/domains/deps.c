/* deps: ASC1xx entry point and the emission shared by every dependency file
 * format (see deps.h). The package facts are KB_PACKAGE rows in
 * kb_deps.def; this file turns a row into a finding, its status and its
 * edits, and never names a package itself. */
#include "analyzers/domains/deps.h"
#include "analyzers/engine/fold.h"
#include "analyzers/python/pysyntax.h"

#include <stdlib.h>

static const DepsTorchNpu deps__torch_npu_rows[] = {
#define KB_TORCH_NPU_ROWS
#include "analyzers/kb/kb_deps.def"
#undef KB_TORCH_NPU_ROWS
};

static const DepsNpuSince deps__npu_since_rows[] = {
#define KB_NPU_SINCE_ROWS
#include "analyzers/kb/kb_deps.def"
#undef KB_NPU_SINCE_ROWS
};

/* The status each ASC1xx code stands for (one code per status). */
static const struct {
  const char *code, *status;
} deps__statuses[] = {
    {"ASC101", "needs replacement"}, {"ASC102", "unsupported"},       {"ASC103", "compatible"},
    {"ASC104", "not involved"},      {"ASC105", "needs replacement"}, {"ASC108", "needs replacement"},
};

const char *deps_status(const char *code) {
  for (size_t i = 0; i < sizeof deps__statuses / sizeof deps__statuses[0]; i++)
    if (strcmp(deps__statuses[i].code, code) == 0) return deps__statuses[i].status;
  return NULL;
}

const DepsNpuSince *deps_npu_since(const char *name) {
  for (size_t i = 0; i < sizeof deps__npu_since_rows / sizeof deps__npu_since_rows[0]; i++)
    if (kb_pattern_match(deps__npu_since_rows[i].package, name)) return &deps__npu_since_rows[i];
  return NULL;
}

const DepsTorchNpu *deps_torch_npu(const char *v, size_t n) {
  for (size_t i = 0; i < sizeof deps__torch_npu_rows / sizeof deps__torch_npu_rows[0]; i++)
    if (strlen(deps__torch_npu_rows[i].torch) == n && memcmp(deps__torch_npu_rows[i].torch, v, n) == 0)
      return &deps__torch_npu_rows[i];
  return NULL;
}

/* Length of "X.Y." in v, or 0. */
static size_t deps__minor_prefix(const char *v, size_t n) {
  size_t dots = 0;
  for (size_t i = 0; i < n; i++)
    if (v[i] == '.' && ++dots == 2) return i + 1;
  return 0;
}

const DepsTorchNpu *deps_torch_npu_line(const char *v, size_t n) {
  size_t k = deps__minor_prefix(v, n);
  if (!k || deps_torch_npu(v, n)) return NULL;
  for (size_t i = 0; i < sizeof deps__torch_npu_rows / sizeof deps__torch_npu_rows[0]; i++)
    if (deps__minor_prefix(deps__torch_npu_rows[i].torch, strlen(deps__torch_npu_rows[i].torch)) == k &&
        strncmp(deps__torch_npu_rows[i].torch, v, k) == 0)
      return &deps__torch_npu_rows[i];
  return NULL;
}

/* ---- text positions -------------------------------------------------------------- */

uint32_t deps_line_start(const char *text, uint32_t at) {
  while (at > 0 && text[at - 1] != '\n') at--;
  return at;
}

uint32_t deps_line_end(const char *text, size_t len, uint32_t at) {
  while (at < len && text[at] != '\n') at++;
  if (at > 0 && at <= len && text[at - 1] == '\r' && (at == len || text[at] == '\n')) at--;
  return at;
}

void deps_point(const char *text, uint32_t at, uint32_t *row, uint32_t *col) {
  uint32_t r = 0, ls = 0;
  for (uint32_t i = 0; i < at; i++)
    if (text[i] == '\n') {
      r++;
      ls = i + 1;
    }
  *row = r;
  *col = at - ls;
}

static char *deps__text(const AnalyzeCtx *ctx, DepsSpan s) { return xstrndup(ctx->text + s.start, s.end - s.start); }

void deps_site_line(const char *text, size_t len, const DepsReq *req, DepsSpan content, const char *prefix,
                    DepsSite *out) {
  memset(out, 0, sizeof *out);
  out->kind = DEPS_SITE_LINE;
  out->req = *req;
  out->line = (DepsSpan){content.start, deps_line_end(text, len, content.start)};
  out->item = req->whole;
  snprintf(out->prefix, sizeof out->prefix, "%s", prefix);
}

/* ---- knowledge rows ---------------------------------------------------------------- */

/* First detector row of `code` whose pattern matches s: user rows (KB_DETECTOR
 * with that code) first, then kb_side_entries. */
static const KbEntry *deps__detector(const AnalyzeCtx *ctx, const char *code, const char *s) {
  for (size_t i = 0; i < ctx->opt->n_user_entries; i++) {
    const KbEntry *e = &ctx->opt->user_entries[i];
    if (e->match == KB_DETECTOR && strcmp(e->code, code) == 0 && kb_pattern_match(e->pattern, s)) return e;
  }
  size_t n;
  const KbEntry *side = kb_side_entries(&n);
  for (size_t i = 0; i < n; i++) {
    const KbEntry *e = &side[i];
    if (strcmp(e->code, code) == 0 && kb_pattern_match(e->pattern, s)) return e;
  }
  return NULL;
}

static Finding *deps__emit(AnalyzeCtx *ctx, const KbEntry *row, const char *subject, const char *repl, DepsSpan at) {
  const KbRule *rule = context_rule(ctx->opt, row ? row->code : "ASC107");
  if (!rule) return NULL;
  uint32_t sr, sc, er, ec;
  deps_point(ctx->text, at.start, &sr, &sc);
  deps_point(ctx->text, at.end, &er, &ec);
  return kb_emit(ctx->out, rule, row, subject, repl, at.start, at.end, sr, sc, er, ec);
}

/* ---- edits ---------------------------------------------------------------------------- */

/* Position just after a ',' that follows `at` on the same line, or 0. */
static uint32_t deps__comma_after(const AnalyzeCtx *ctx, uint32_t at) {
  while (at < ctx->len && (ctx->text[at] == ' ' || ctx->text[at] == '\t')) at++;
  return at < ctx->len && ctx->text[at] == ',' ? at + 1 : 0;
}

static bool deps__blank(const char *t, uint32_t s, uint32_t e) {
  for (uint32_t i = s; i < e; i++)
    if (t[i] != ' ' && t[i] != '\t' && t[i] != '\r') return false;
  return true;
}

/* A list element alone on its line: only blanks before it, and after it
 * (and its comma) only blanks or a comment. */
static bool deps__alone(const AnalyzeCtx *ctx, DepsSpan item) {
  uint32_t ls = deps_line_start(ctx->text, item.start), le = deps_line_end(ctx->text, ctx->len, item.end);
  uint32_t after = deps__comma_after(ctx, item.end);
  if (!after) after = item.end;
  while (after < le && (ctx->text[after] == ' ' || ctx->text[after] == '\t')) after++;
  return deps__blank(ctx->text, ls, item.start) && (after == le || ctx->text[after] == '#');
}

static char *deps__indent(const AnalyzeCtx *ctx, uint32_t at) {
  uint32_t ls = deps_line_start(ctx->text, at), e = ls;
  while (e < at && (ctx->text[e] == ' ' || ctx->text[e] == '\t')) e++;
  return xstrndup(ctx->text + ls, e - ls);
}

static void deps__fix_rename(AnalyzeCtx *ctx, Finding *f, const DepsSite *s, const char *to) {
  if (s->kind == DEPS_SITE_KEY) {
    char *pair = xasprintf("%s = \"*\"", to);
    finding_add_edit(f, s->item.start, s->item.end, pair);
    free(pair);
  } else {
    DepsSpan at = s->kind == DEPS_SITE_LINE ? s->item : s->req.whole;
    finding_add_edit(f, at.start, at.end, to);
  }
  (void)ctx;
}

/* Drops a list element that shares its line with others, with one comma. */
static void deps__drop_element(AnalyzeCtx *ctx, Finding *f, DepsSpan item) {
  uint32_t after = deps__comma_after(ctx, item.end);
  if (after) {
    while (after < ctx->len && ctx->text[after] == ' ') after++;
    finding_add_edit(f, item.start, after, "");
    return;
  }
  uint32_t b = item.start;
  while (b > 0 && (ctx->text[b - 1] == ' ' || ctx->text[b - 1] == '\t')) b--;
  finding_add_edit(f, b > 0 && ctx->text[b - 1] == ',' ? b - 1 : item.start, item.end, "");
}

static void deps__fix_remove(AnalyzeCtx *ctx, Finding *f, const DepsSite *s, const KbEntry *row, const char *name) {
  const char *status = deps_status(row->code);
  char *why = row->arg ? xstrdup(row->arg) : xasprintf("is %s on Ascend", status ? status : "unsupported");
  char *comment = row->fix_to ? xasprintf("# removed for Ascend: %s %s; use %s", name, why, row->fix_to)
                              : xasprintf("# removed for Ascend: %s %s", name, why);
  if (s->kind != DEPS_SITE_ELEMENT) {
    if (s->line.end > s->line.start) finding_add_edit(f, s->line.start, s->line.end, comment);
  } else if (deps__alone(ctx, s->item)) {
    uint32_t after = deps__comma_after(ctx, s->item.end);
    finding_add_edit(f, s->item.start, after ? after : s->item.end, comment);
  } else {
    deps__drop_element(ctx, f, s->item);
  }
  free(comment);
  free(why);
}

/* The companion requirement (torch-npu beside torch) in PEP 508 and Poetry form. */
typedef struct {
  char pep508[192];
  char poetry[128];
  bool guessed;   /* same version string as torch: no known pairing */
  bool pinned;
  const char *move_to; /* the torch release of the pinned version's line that torch-npu is built for
                          (the pin has none), or NULL */
  Confidence confidence;
} DepsCompanion;

/* Text of span s without the local label (and the separator before it). */
static char *deps__without_local(const AnalyzeCtx *ctx, DepsSpan s, DepsSpan local) {
  if (local.end <= local.start || local.start <= s.start || local.end > s.end) return deps__text(ctx, s);
  return xasprintf("%.*s%.*s", (int)(local.start - 1 - s.start), ctx->text + s.start, (int)(s.end - local.end),
                   ctx->text + local.end);
}

static void deps__companion(const AnalyzeCtx *ctx, const DepsSite *s, const char *comp, DepsCompanion *c) {
  memset(c, 0, sizeof *c);
  c->confidence = CONF_HIGH;
  const DepsReq *r = &s->req;
  if (r->pin.end > r->pin.start) {
    char *v = deps__without_local(ctx, r->pin, r->local);
    const DepsTorchNpu *pair = deps_torch_npu(v, strlen(v)), *line = pair ? NULL : deps_torch_npu_line(v, strlen(v));
    if (line) pair = line, c->move_to = line->torch;
    const char *nv = pair ? pair->torch_npu : v;
    c->guessed = !pair;
    c->pinned = true;
    c->confidence = pair ? pair->confidence : CONF_MEDIUM;
    snprintf(c->pep508, sizeof c->pep508, "%s==%s", comp, nv);
    snprintf(c->poetry, sizeof c->poetry, "%s", nv);
    free(v);
  } else if (r->spec.end > r->spec.start) {
    char *v = deps__without_local(ctx, r->spec, r->local);
    c->guessed = true;
    c->confidence = CONF_MEDIUM;
    snprintf(c->pep508, sizeof c->pep508, "%s%s", comp, v);
    snprintf(c->poetry, sizeof c->poetry, "%s", v);
    free(v);
  } else {
    snprintf(c->pep508, sizeof c->pep508, "%s", comp);
    snprintf(c->poetry, sizeof c->poetry, "*");
  }
}

static void deps__add_element(AnalyzeCtx *ctx, Finding *f, const DepsSite *s, const char *req) {
  const char *eol = pysyntax_eol(ctx->text, ctx->len);
  char q = s->quote ? s->quote : '"';
  uint32_t comma = deps__comma_after(ctx, s->item.end);
  bool alone = deps__alone(ctx, s->item);
  char *ind = deps__indent(ctx, s->item.start);
  char *ins;
  uint32_t at = s->item.end;
  if (comma && alone) {
    ins = xasprintf("%s%s%c%s%c,", eol, ind, q, req, q);
    at = comma;
  } else if (!comma && alone) {
    ins = xasprintf(",%s%s%c%s%c", eol, ind, q, req, q);
  } else {
    ins = xasprintf(", %c%s%c", q, req, q);
  }
  finding_add_edit(f, at, at, ins);
  free(ins);
  free(ind);
}

static void deps__fix_add(AnalyzeCtx *ctx, Finding *f, const DepsSite *s, const char *comp, const DepsCompanion *c) {
  const char *eol = pysyntax_eol(ctx->text, ctx->len);
  char *ins = NULL;
  if (s->kind == DEPS_SITE_LINE) {
    bool note = c->guessed && !s->no_comment;
    ins = xasprintf("%s%s%s%s", eol, s->prefix, c->pep508,
                    note ? "  # same version as torch: verify against the torch_npu releases" : "");
  } else if (s->kind == DEPS_SITE_KEY) {
    char *ind = deps__indent(ctx, s->line.start);
    ins = xasprintf("%s%s%s = \"%s\"", eol, ind, comp, c->poetry);
    free(ind);
  }
  if (ins) finding_add_edit(f, s->line.end, s->line.end, ins);
  else deps__add_element(ctx, f, s, c->pep508);
  free(ins);
}

static bool deps__listed(const DepsSites *sites, const char *name) {
  for (size_t i = 0; i < sites->len; i++)
    if (strcmp(sites->items[i].req.name_norm, name) == 0) return true;
  return false;
}

/* ---- findings -------------------------------------------------------------------------- */

static void deps__detail_common(StrBuf *sb, const AnalyzeCtx *ctx, const DepsSite *s) {
  if (s->where[0]) sb_printf(sb, "; declared in %s", s->where);
  if (s->req.extras.end > s->req.extras.start)
    sb_printf(sb, "; extras: %.*s", (int)(s->req.extras.end - s->req.extras.start), ctx->text + s->req.extras.start);
  if (s->req.marker.end > s->req.marker.start)
    sb_printf(sb, "; marker: %.*s", (int)(s->req.marker.end - s->req.marker.start), ctx->text + s->req.marker.start);
}

static void deps__companion_note(StrBuf *sb, const DepsCompanion *c) {
  if (c->move_to)
    sb_printf(sb, "; add %s and pin torch==%s (torch_npu is built for that release of the line, not for the "
                  "pinned one)", c->pep508, c->move_to);
  else if (c->guessed && c->pinned)
    sb_printf(sb, "; add %s (same version string as torch: no known torch/torch-npu pairing, verify against the "
                  "torch_npu releases)", c->pep508);
  else if (c->guessed)
    sb_printf(sb, "; add %s (same specifier as torch: verify against the torch_npu releases)", c->pep508);
  else
    sb_printf(sb, "; add %s", c->pep508);
}

static char *deps__subject_name(const AnalyzeCtx *ctx, const DepsSite *s) {
  if (s->req.url.end > s->req.url.start && s->req.name.start == s->req.url.start) return xstrdup(s->req.name_norm);
  return deps__text(ctx, s->req.name);
}

/* A compatible (or unknown) package pinned to a CUDA build: ASC105. */
static void deps__emit_gpu_build(AnalyzeCtx *ctx, const DepsSite *s, const KbEntry *pkg, const KbEntry *row,
                                 const DepsSites *sites) {
  const DepsReq *r = &s->req;
  char *name = deps__subject_name(ctx, s);
  char *ver = deps__without_local(ctx, r->pin.end > r->pin.start ? r->pin : r->spec, r->local);
  char *subject = s->kind == DEPS_SITE_KEY ? xasprintf("%s %.*s", name, (int)(r->spec.end - r->spec.start),
                                                        ctx->text + r->spec.start)
                                           : deps__text(ctx, r->whole);
  const char *comp = pkg->fix_kind == KBFIX_CUSTOM && pkg->fix_from && strcmp(pkg->fix_from, "add") == 0 ? pkg->fix_to : NULL;
  bool add = comp && !s->no_add && !deps__listed(sites, comp);
  DepsCompanion c;
  memset(&c, 0, sizeof c);
  if (comp) deps__companion(ctx, s, comp, &c);
  char *repl = comp ? xasprintf("%s==%s (CPU build) plus %s", name, c.move_to ? c.move_to : ver, c.pep508)
                     : xasprintf("%s==%s (CPU build)", name, ver);
  Finding *f = deps__emit(ctx, row, subject, repl, r->whole);
  if (f) {
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "status: needs replacement; GPU build %.*s", (int)(r->local.end - r->local.start),
              ctx->text + r->local.start);
    if (comp) deps__companion_note(&sb, &c);
    deps__detail_common(&sb, ctx, s);
    f->detail = sb_steal(&sb);
    if (c.move_to) finding_add_edit(f, r->pin.start, r->pin.end, c.move_to); /* the version and its label */
    else finding_add_edit(f, r->local.start - 1, r->local.end, "");
    if (add) deps__fix_add(ctx, f, s, comp, &c);
    f->fix = c.guessed || c.move_to ? FIX_UNSAFE : row->fix_safety; /* another torch release is a decision */
    if (comp && c.confidence > f->confidence) f->confidence = c.confidence;
  }
  free(repl);
  free(subject);
  free(ver);
  free(name);
}

static void deps__apply_row_fix(AnalyzeCtx *ctx, Finding *f, const DepsSite *s, const KbEntry *row,
                                const DepsSites *sites, const char *name, StrBuf *detail) {
  if (row->fix_kind == KBFIX_RENAME_NAME && row->fix_to) {
    deps__fix_rename(ctx, f, s, row->fix_to);
    f->fix = row->fix_safety;
  } else if (row->fix_kind == KBFIX_CUSTOM && row->fix_from && strcmp(row->fix_from, "remove") == 0) {
    deps__fix_remove(ctx, f, s, row, name);
    f->fix = row->fix_safety;
  } else if (row->fix_kind == KBFIX_CUSTOM && row->fix_from && strcmp(row->fix_from, "add") == 0 && row->fix_to &&
             !s->no_add && !deps__listed(sites, row->fix_to)) {
    DepsCompanion c;
    deps__companion(ctx, s, row->fix_to, &c);
    if (c.move_to) finding_add_edit(f, s->req.pin.start, s->req.pin.end, c.move_to);
    deps__fix_add(ctx, f, s, row->fix_to, &c);
    deps__companion_note(detail, &c);
    f->fix = c.guessed || c.move_to ? FIX_UNSAFE : row->fix_safety;
  }
}

static void deps__emit_status(AnalyzeCtx *ctx, const DepsSite *s, const KbEntry *row, const DepsSites *sites) {
  char *name = deps__subject_name(ctx, s);
  Finding *f = deps__emit(ctx, row, name, NULL, s->req.whole);
  if (f) {
    StrBuf sb;
    sb_init(&sb);
    const char *status = deps_status(row->code);
    sb_printf(&sb, "status: %s", status ? status : "not involved");
    deps__apply_row_fix(ctx, f, s, row, sites, name, &sb);
    deps__detail_common(&sb, ctx, s);
    f->detail = sb_steal(&sb);
    if (f->edits.len == 0) f->fix = FIX_NONE;
  }
  free(name);
}

/* An exact pin older than the package's first NPU-capable release: ASC108. */
static void deps__emit_before_npu(AnalyzeCtx *ctx, const DepsSite *s) {
  const DepsReq *r = &s->req;
  const DepsNpuSince *since = r->pin.end > r->pin.start ? deps_npu_since(r->name_norm) : NULL;
  if (!since) return;
  char *pin = deps__without_local(ctx, r->pin, r->local);
  const KbEntry *row = kb_support_compare(pin, since->since) < 0 ? deps__detector(ctx, "ASC108", r->name_norm) : NULL;
  if (row) {
    char *name = deps__subject_name(ctx, s);
    char *subject = xasprintf("%s==%s", name, pin);
    char *repl = xasprintf("%s; pin %s>=%s", since->what_en, name, since->since);
    Finding *f = deps__emit(ctx, row, subject, repl, r->whole);
    if (f) {
      char *repl_zh = xasprintf("%s；请固定为 %s>=%s", since->what_zh, name, since->since);
      finding_text_unref(f->message_zh);
      f->message_zh = finding_text_take(kb_format(f->rule->msg_zh, subject, repl_zh));
      f->confidence = since->confidence;
      f->detail = xasprintf("status: needs replacement; first NPU-capable release %s (source: %s)", since->since,
                            since->source);
      free(repl_zh);
    }
    free(repl);
    free(subject);
    free(name);
  }
  free(pin);
}

static void deps__emit_site(AnalyzeCtx *ctx, const DepsSite *s, const DepsSites *sites) {
  deps__emit_before_npu(ctx, s);
  const KbEntry *row = kb_lookup(KB_PACKAGE, s->req.name_norm, ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !context_rule(ctx->opt, row->code)) row = deps__detector(ctx, "ASC104", s->req.name_norm);
  if (!row) return;
  const DepsReq *r = &s->req;
  if (r->local.end > r->local.start && context_rule(ctx->opt, row->code)->severity == SEV_HINT) {
    char *label = deps__text(ctx, r->local);
    const KbEntry *gpu = deps__detector(ctx, "ASC105", label);
    free(label);
    if (gpu) {
      deps__emit_gpu_build(ctx, s, row, gpu, sites);
      return;
    }
  }
  deps__emit_status(ctx, s, row, sites);
}

/* The extra (or dependency group) a site is declared in, when its name
 * matches the "backend-extra" row (it selects another backend); NULL
 * otherwise. */
static const char *deps__backend_extra(const KbEntry *row, const DepsSite *s) {
  static const char *const sections[] = {"project.optional-dependencies.", "optional-dependencies.", "extras_require.",
                                         "dependency-groups."};
  for (size_t i = 0; row && row->arg && i < sizeof sections / sizeof sections[0]; i++) {
    if (!util_starts_with(s->where, sections[i])) continue;
    const char *name = s->where + strlen(sections[i]);
    return *name && kb_pattern_match(row->arg, name) ? name : NULL;
  }
  return NULL;
}

void deps_emit_sites(AnalyzeCtx *ctx, const DepsSites *sites) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "backend-extra", ctx->opt->user_entries, ctx->opt->n_user_entries);
  for (size_t i = 0; i < sites->len; i++) {
    bool seen = false; /* a list held in a variable may be referenced twice */
    for (size_t k = 0; k < i && !seen; k++) seen = sites->items[k].req.whole.start == sites->items[i].req.whole.start;
    if (seen || !sites->items[i].req.name_norm[0]) continue;
    size_t before = ctx->out->len;
    deps__emit_site(ctx, &sites->items[i], sites);
    const char *extra = deps__backend_extra(row, &sites->items[i]);
    for (size_t k = before; extra && k < ctx->out->len; k++)
      if (!ctx->out->items[k].unreachable) fold_mark_unreachable(&ctx->out->items[k], row, extra);
  }
}

void deps_emit_index(AnalyzeCtx *ctx, DepsSpan url, DepsSpan line, const char *option) {
  if (url.end <= url.start) return;
  char *u = deps__text(ctx, url);
  const KbEntry *row = deps__detector(ctx, "ASC106", u);
  if (row) {
    char *subject = option && *option ? xasprintf("%s %s", option, u) : xstrdup(u);
    Finding *f = deps__emit(ctx, row, subject, NULL, url);
    if (f) {
      f->detail = xasprintf("index: %s", u);
      if (row->fix_to) {
        finding_add_edit(f, url.start, url.end, row->fix_to);
        f->fix = row->fix_safety;
      } else if (line.end > line.start) {
        char *c = xasprintf("# removed for Ascend: %s serves CUDA wheels", subject);
        finding_add_edit(f, line.start, line.end, c);
        f->fix = row->fix_safety;
        free(c);
      }
    }
    free(subject);
  }
  free(u);
}

void deps_emit_include(AnalyzeCtx *ctx, DepsSpan at, DepsSpan path) {
  if (path.end <= path.start) return;
  char *p = deps__text(ctx, path);
  char *subject = deps__text(ctx, at);
  bool scanned = context_file_kind(p) == FILE_REQUIREMENTS;
  const char *repl = scanned ? "analyzed on its own as a requirements file"
                             : "not analyzed: only requirements*.txt and constraints*.txt files are scanned";
  Finding *f = deps__emit(ctx, NULL, subject, repl, at);
  if (f) f->detail = xasprintf("include: %s", p);
  /* an included file that is scanned anyway leaves nothing to do: a hint */
  if (f && scanned) f->severity = SEV_HINT;
  free(subject);
  free(p);
}

/* ---- entry point ------------------------------------------------------------------------ */

static bool deps__is_setup_py(const char *path) {
  const char *b = strrchr(path, '/');
  return strcmp(b ? b + 1 : path, "setup.py") == 0;
}

void deps_analyze(AnalyzeCtx *ctx) {
  switch (ctx->kind) {
  case FILE_REQUIREMENTS: deps_requirements(ctx); break;
  case FILE_PYPROJECT:
    if (ctx->forest) deps_pyproject(ctx);
    break;
  case FILE_SETUP_CFG: deps_setup_cfg(ctx); break;
  case FILE_CONDA_ENV: deps_conda(ctx); break;
  case FILE_PYTHON:
    if (ctx->py && deps__is_setup_py(ctx->path)) deps_setup_py(ctx);
    break;
  default: break;
  }
}
