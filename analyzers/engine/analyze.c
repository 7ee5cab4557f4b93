/* analyze: file classification, the domain table and the file-wide passes
 * that follow the domain analyzers (see analyze.h). */
#include "analyzers/engine/analyze.h"
#include "analyzers/engine/fold.h"
#include "analyzers/engine/prefilter.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/python/resolver.h"
#include "analyzers/engine/suppress.h"

#include <stdio.h>
#include <stdlib.h>

TSLanguage *tree_sitter_python(void);
TSLanguage *tree_sitter_cuda(void);
TSLanguage *tree_sitter_toml(void);

typedef struct {
  int domain;
  AnalyzerFn fn;             /* whole-file work, after the walk; may be NULL */
  const PyVisitor *visitor;  /* part of the shared Python walk; may be NULL */
} DomainAnalyzer;

/* Every domain analyzer, in domain order. The table-driven Python matcher
 * walks first; the domain analyzers add what needs code (detectors). */
static const DomainAnalyzer analyze__table[] = {
    {1, deps_analyze, NULL},        {2, NULL, &device_visitor},   {3, NULL, &attention_visitor},
    {4, kernels_analyze, NULL},     {5, NULL, &distributed_visitor}, {6, NULL, &precision_visitor},
    {7, NULL, &compile_visitor},
};

#define ANALYZE__DOMAINS (sizeof analyze__table / sizeof analyze__table[0])

typedef struct {
  bool (*visit)(void *state, const PyVisit *v);
  void *state;
  size_t skip_depth; /* nonzero: declined the subtree of the node at this depth */
} WalkSlot;

/* The single cursor walk over a Python tree. A node is descended into when
 * some visitor still wants its subtree; a visitor that declined one is
 * not called again until the walk leaves that subtree. */
static void analyze__walk(TSTree *tree, WalkSlot *slots, size_t n) {
  TSNode root = ts_tree_root_node(tree);
  Array(TSNode) parents = {0};
  array_push(&parents, root);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  bool more = ts_tree_cursor_goto_first_child(&cur);
  while (more) {
    size_t depth = parents.len;
    PyVisit v = {ts_tree_cursor_current_node(&cur), PYSYM_OTHER, 0, parents.items[depth - 1]};
    v.sym = pysym_of(v.node);
    /* only names need their field (is it an attribute's object? an alias?) */
    if (v.sym == PYSYM_IDENTIFIER || v.sym == PYSYM_ATTRIBUTE) v.field = ts_tree_cursor_current_field_id(&cur);
    bool descend = false;
    for (size_t i = 0; i < n; i++) {
      WalkSlot *w = &slots[i];
      if (w->skip_depth && depth > w->skip_depth) continue;
      w->skip_depth = 0;
      if (w->visit(w->state, &v)) descend = true;
      else w->skip_depth = depth;
    }
    if (descend && ts_tree_cursor_goto_first_child(&cur)) {
      array_push(&parents, v.node);
      continue;
    }
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur))) {
      if (parents.len <= 1 || !ts_tree_cursor_goto_parent(&cur)) break;
      parents.len--;
    }
  }
  ts_tree_cursor_delete(&cur);
  array_free(&parents);
}

/* Runs every domain on one file: the shared walk for Python, then each
 * domain's post-walk work and whole-file entry point, in domain order. */
static void analyze__domains(AnalyzeCtx *ctx, PyFile *py) {
  WalkSlot slots[ANALYZE__DOMAINS + 1];
  void *states[ANALYZE__DOMAINS] = {0};
  size_t n = 0;
  void *matcher = NULL;
  if (py) {
    matcher = pymatch_begin(ctx, py);
    if (matcher) slots[n++] = (WalkSlot){pymatch_visit, matcher, 0};
    for (size_t i = 0; i < ANALYZE__DOMAINS; i++) {
      const PyVisitor *pv = analyze__table[i].visitor;
      if (pv && (states[i] = pv->begin(ctx))) slots[n++] = (WalkSlot){pv->visit, states[i], 0};
    }
    if (n) analyze__walk(ctx->tree, slots, n);
    if (matcher) pymatch_end(matcher);
  }
  for (size_t i = 0; i < ANALYZE__DOMAINS; i++) {
    if (states[i]) analyze__table[i].visitor->end(states[i]);
    if (analyze__table[i].fn) analyze__table[i].fn(ctx);
  }
}

static const char *analyze__base(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* Whether a path is test or benchmark code: under tests/, test/,
 * benchmarks/ or any directory named bench..., test_*.py, *_test.py,
 * benchmark*.py, bench_*.py, conftest.py. */
static bool analyze__is_test_path(const char *path) {
  if (!path) return false;
  const char *base = analyze__base(path);
  if (util_starts_with(base, "test_") || util_ends_with(base, "_test.py") || strcmp(base, "conftest.py") == 0 ||
      util_starts_with(base, "benchmark") || util_starts_with(base, "bench_"))
    return true;
  for (const char *d = path; (d = strstr(d, "test")) != NULL; d++) {
    const char *e = d + 4 + (d[4] == 's');
    if ((d == path || d[-1] == '/') && *e == '/') return true;
  }
  for (const char *d = path; (d = strstr(d, "bench")) != NULL; d++)
    if ((d == path || d[-1] == '/') && strchr(d, '/')) return true;
  return false;
}

FileKind analyze_file_kind(const char *path) {
  const char *b = analyze__base(path);
  if (util_ends_with(b, ".py") || util_ends_with(b, ".pyi")) return FILE_PYTHON;
  if (strcmp(b, "pyproject.toml") == 0) return FILE_PYPROJECT;
  if (strcmp(b, "setup.cfg") == 0) return FILE_SETUP_CFG;
  if ((util_starts_with(b, "requirements") || util_starts_with(b, "constraints") ||
       util_ends_with(b, "-requirements.txt") || util_ends_with(b, ".requirements.txt") ||
       util_ends_with(b, "_requirements.txt")) &&
      (util_ends_with(b, ".txt") || util_ends_with(b, ".in")))
    return FILE_REQUIREMENTS;
  if (util_starts_with(b, "environment") && (util_ends_with(b, ".yml") || util_ends_with(b, ".yaml")))
    return FILE_CONDA_ENV;
  static const char *const cuda_ext[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx"};
  for (size_t i = 0; i < sizeof cuda_ext / sizeof cuda_ext[0]; i++)
    if (util_ends_with(b, cuda_ext[i])) return FILE_CUDA;
  if (util_ends_with(b, ".sh") || util_ends_with(b, ".bash")) return FILE_SHELL;
  if (util_ends_with(b, ".so") || strstr(b, ".so.")) return FILE_ELF;
  return FILE_UNKNOWN;
}

TSLanguage *analyze_language(FileKind kind) {
  switch (kind) {
  case FILE_PYTHON: return tree_sitter_python();
  case FILE_CUDA: return tree_sitter_cuda();
  case FILE_PYPROJECT: return tree_sitter_toml();
  default: return NULL;
  }
}

void analyze_options_default(AnalyzeOptions *o) {
  memset(o, 0, sizeof *o);
  o->chip = CHIP_910B;
  o->torch_npu = "2.7.1";
}

static bool analyze__code_in(const char *const *list, size_t n, const char *code) {
  for (size_t i = 0; i < n; i++)
    if (list[i] && *list[i] && util_starts_with(code, list[i])) return true;
  return false;
}

const KbRule *analyze_rule(const AnalyzeOptions *opt, const char *code) {
  for (size_t i = 0; opt && i < opt->n_user_rules; i++)
    if (strcmp(opt->user_rules[i].code, code) == 0) return &opt->user_rules[i];
  return kb_rule(code);
}

bool analyze_code_selected(const AnalyzeOptions *opt, const char *code) {
  if (opt->n_select > 0 && !analyze__code_in(opt->select, opt->n_select, code)) return false;
  return !analyze__code_in(opt->ignore, opt->n_ignore, code);
}

/* Findings of domain 2 and above (everything Python says about the code;
 * dependency findings stay) or of one domain: `data` points at the domain,
 * 0 for "2 and above". */
static bool analyze__in_domain(void *data, const Finding *f) {
  int want = *(const int *)data, d = kb_domain(f->rule->code);
  return want ? d == want : d >= 2;
}

/* The first import matching a glob that is required: unguarded, and at the
 * top level of the module when `top_level` (a function importing it uses
 * it; the file is not built on it). NULL when there is none. */
static const PyImport *analyze__required_import(const PyFile *py, const char *glob, bool top_level) {
  for (size_t i = 0; i < py->imports.len; i++) {
    const PyImport *im = &py->imports.items[i];
    if (kb_pattern_match(glob, im->module) && !pyfile_in_ranges(py->guarded.items, py->guarded.len, im->start) &&
        (!top_level || im->column == 0))
      return im;
  }
  return NULL;
}

/* A file importing another device's stack (the "other-device-stack" row) is
 * written for that device: its Python findings give way to one hint at the
 * import saying so. An optional import (one backend among several) does not
 * make the file another device's; a required one does. */
static void analyze__other_device(const AnalyzeCtx *ctx, const PyFile *py, FindingList *out) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "other-device-stack", ctx->opt->user_entries, ctx->opt->n_user_entries);
  const KbRule *rule = row ? analyze_rule(ctx->opt, row->code) : NULL;
  const PyImport *im = rule ? analyze__required_import(py, row->arg, false) : NULL;
  if (!im) return;
  int python = 0;
  findings_drop_if(out, analyze__in_domain, &python);
  uint32_t end = im->start;
  while (end < py->len && py->text[end] != '\n' && py->text[end] != '\r') end++;
  /* rows and columns are set from the bytes by analyze__columns */
  kb_emit(out, rule, row, im->module, row->replacement, im->start, end, im->row, im->column, im->row,
          im->column + (end - im->start));
}

/* A CUDA engine file (a top-level TensorRT / PyCUDA / cuda-python import) is
 * replaced whole: its device-layer findings give way to the library's. */
static void analyze__cuda_engine(const AnalyzeCtx *ctx, const PyFile *py, FindingList *out) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cuda-engine-file", ctx->opt->user_entries, ctx->opt->n_user_entries);
  int device = 2;
  if (row && analyze__required_import(py, row->arg, true)) findings_drop_if(out, analyze__in_domain, &device);
}

/* Whether a module's `if __name__ == "__main__":` block is a self-test
 * rather than the entry point of a script: the module imports relatively
 * (it lives in a package, run with -m at most), or the block is about
 * testing (`--test`, unittest.main(), a test_* call). */
static bool analyze__main_is_selftest(const PyFile *py) {
  for (size_t i = 0; i < py->imports.len; i++)
    if (py->imports.items[i].module[0] == '.') return true;
  for (size_t i = 0; i < py->main_blocks.len; i++) {
    const ByteRange *r = &py->main_blocks.items[i];
    for (uint32_t k = r->start; k + 4 <= r->end; k++) {
      if (memcmp(py->text + k, "test", 4) != 0) continue;
      char before = k > r->start ? py->text[k - 1] : ' ';
      bool word = !(before >= 'a' && before <= 'z') || (k >= r->start + 4 && memcmp(py->text + k - 4, "unit", 4) == 0);
      if (word) return true; /* "test", "--test", "_test", "unittest"; not "latest" */
    }
  }
  return false;
}

/* Test code: the file's path, a `test*` / `benchmark*` / `bench_*` function
 * (at any depth), a method of a Test* class, or the self-test block of a
 * package module. */
static bool analyze__in_test(const char *path, const PyFile *py, uint32_t at, bool package) {
  if (analyze__is_test_path(path)) return true;
  for (size_t i = 0; i < py->functions.len; i++) {
    const PyFunction *f = &py->functions.items[i];
    if (f->start <= at && at < f->end &&
        (util_starts_with(f->name, "test") || util_starts_with(f->name, "benchmark") ||
         util_starts_with(f->name, "bench_") || (f->class_name && util_starts_with(f->class_name, "Test"))))
      return true;
  }
  return package && pyfile_in_ranges(py->main_blocks.items, py->main_blocks.len, at);
}

/* Whether a finding is dropped from test code: every rule but the meta ones
 * and those about the test harness itself (the "test-harness-rules" row). */
static bool analyze__test_rule(const Finding *f) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "test-harness-rules", NULL, 0);
  return kb_domain(f->rule->code) >= 2 && !(row && kb_pattern_match(row->arg, f->rule->code));
}

/* A finding in the try body of a None-fallback import that is used without
 * a check says where (the "required-import" row's note). */
static void analyze__note_required(const PyFile *py, Finding *f) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "required-import", NULL, 0);
  for (size_t i = 0; row && i < py->required.len; i++) {
    const PyRequired *r = &py->required.items[i];
    if (f->start_byte < r->start || f->start_byte >= r->end) continue;
    char line[16];
    snprintf(line, sizeof line, "%u", r->use_row + 1);
    char *en = kb_format(row->msg_en, r->name, line), *zh = kb_format(row->msg_zh, r->name, line);
    finding_append_note(f, en, zh);
    free(en);
    free(zh);
    return;
  }
}

static bool analyze__drop_test(void *data, const Finding *f) {
  (void)data;
  return analyze__test_rule(f);
}

/* Guarded, inference-only and transfer_to_npu marks come from the Python
 * facts; they change priority, not presence. */
static void analyze__mark_python(const char *path, const PyFile *py, FindingList *out, uint32_t *tests) {
  /* Code under a condition that names the NPU already has its Ascend path;
   * the condition of a test-skip decorator is not code to port; skipped
   * tests and torch 1.x fallbacks never run with torch_npu; rules marked
   * not_in_tests do not apply to test code. */
  size_t w = 0;
  bool package = py->main_blocks.len && analyze__main_is_selftest(py);
  for (size_t i = 0; i < out->len; i++) {
    uint32_t at = out->items[i].start_byte;
    bool test = analyze__test_rule(&out->items[i]) && analyze__in_test(path, py, at, package);
    if (pyfile_in_ranges(py->npu_aware.items, py->npu_aware.len, at) ||
        pyfile_in_ranges(py->skip_conds.items, py->skip_conds.len, at) ||
        pyfile_in_ranges(py->dead.items, py->dead.len, at) || test) {
      *tests += test;
      finding_free(&out->items[i]);
    } else {
      out->items[w++] = out->items[i];
    }
  }
  out->len = w;
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    f->guarded = f->guarded || pyfile_in_ranges(py->guarded.items, py->guarded.len, f->start_byte);
    f->inference_only = f->inference_only || pyfile_in_ranges(py->inference.items, py->inference.len, f->start_byte);
    if (py->transfer_to_npu && f->entry && f->entry->transfer_covered && f->severity < SEV_INFO) {
      f->severity = SEV_INFO;
      f->transfer_covered = true;
      finding_append_note(f, "(handled at run time by transfer_to_npu)", "（运行时由 transfer_to_npu 处理）");
    }
    analyze__note_required(py, f);
    bool optin = pyfile_in_ranges(py->optin.items, py->optin.len, f->start_byte);
    if (f->guarded && !strstr(f->message, "[guarded")) /* behind an opt-in flag the default path is the fallback */
      finding_append_note(f, optin ? "[guarded: behind an opt-in flag]" : "[guarded: a fallback exists]",
                          optin ? "［受可选开关保护］" : "［已有回退路径］");
  }
}

/* Drops findings of unselected codes and rows that do not apply to the chip. */
static void analyze__filter(const AnalyzeOptions *opt, FindingList *out) {
  size_t w = 0;
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    bool keep = analyze_code_selected(opt, f->rule->code) &&
                !(f->entry && f->entry->chips && !(f->entry->chips & opt->chip));
    if (keep) out->items[w++] = *f;
    else finding_free(f);
  }
  out->len = w;
}

void analyze_facts_free(FileFacts *f) {
  for (size_t i = 0; i < f->imports.len; i++) free(f->imports.items[i]);
  array_free(&f->imports);
  pyfacts_free(f->py);
  f->py = NULL;
}

static void analyze__facts(const char *text, size_t len, const PyFile *py, FileFacts *facts) {
  uint32_t lines = len > 0 ? 1 : 0;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n') lines++;
  if (len > 0 && text[len - 1] == '\n') lines--;
  facts->lines = lines;
  if (!py) return;
  facts->has_main_guard = py->has_main_guard;
  facts->py = pyfacts_build(py);
  for (size_t i = 0; i < py->imports.len; i++) array_push(&facts->imports, xstrdup(py->imports.items[i].module));
}

/* Code points between the start of the line holding `at` and `at`. */
static uint32_t analyze__cp_column(const char *text, uint32_t at, uint32_t byte_col) {
  uint32_t n = 0;
  for (uint32_t i = at - byte_col; i < at; i++)
    if (((unsigned char)text[i] & 0xC0) != 0x80) n++;
  return n;
}

typedef Array(uint32_t) LineStarts;

static void analyze__line_starts(const char *text, size_t len, LineStarts *ls) {
  array_push(ls, 0);
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n')))
      array_push(ls, (uint32_t)i + 1);
}

/* Row and code-point column of a byte offset. */
static void analyze__point(const char *text, const LineStarts *ls, uint32_t at, uint32_t *row, uint32_t *col) {
  size_t lo = 0, hi = ls->len;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (ls->items[mid] <= at) lo = mid;
    else hi = mid;
  }
  *row = (uint32_t)lo;
  *col = analyze__cp_column(text, at, at - ls->items[lo]);
}

/* Rows and columns from byte offsets with our own line starts: tree-sitter
 * counts rows at "\n" only, LSP and editors also break at a lone "\r".
 * Code-point columns skip a UTF-8 byte-order mark on the first line. */
static void analyze__columns(const char *text, size_t len, FindingList *l) {
  if (l->len == 0) return;
  LineStarts ls = {0};
  analyze__line_starts(text, len, &ls);
  bool bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
  for (size_t i = 0; i < l->len; i++) {
    Finding *f = &l->items[i];
    for (size_t k = 0; k < f->edits.len; k++) {
      TextEdit *e = &f->edits.items[k];
      if (e->end > len) e->end = (uint32_t)len;
      if (e->start > e->end) e->start = e->end;
      analyze__point(text, &ls, e->start, &e->start_row, &e->start_char);
      analyze__point(text, &ls, e->end, &e->end_row, &e->end_char);
      if (bom && e->start_row == 0 && e->start_char > 0) e->start_char--;
      if (bom && e->end_row == 0 && e->end_char > 0) e->end_char--;
    }
    for (size_t k = 0; k < f->related.len; k++) {
      Related *r = &f->related.items[k];
      if (r->end > len) r->end = (uint32_t)len;
      if (r->start > r->end) r->start = r->end;
      analyze__point(text, &ls, r->start, &r->start_row, &r->start_char);
      analyze__point(text, &ls, r->end, &r->end_row, &r->end_char);
    }
    if (f->end_byte > len) f->end_byte = (uint32_t)len;
    if (f->start_byte > f->end_byte) f->start_byte = f->end_byte;
    analyze__point(text, &ls, f->start_byte, &f->start_row, &f->start_char);
    analyze__point(text, &ls, f->end_byte, &f->end_row, &f->end_char);
    f->start_col = f->start_byte - ls.items[f->start_row];
    f->end_col = f->end_byte - ls.items[f->end_row];
    if (bom && f->start_row == 0 && f->start_char > 0) f->start_char--;
    if (bom && f->end_row == 0 && f->end_char > 0) f->end_char--;
  }
  array_free(&ls);
}

void analyze_text(const char *path, const char *text, size_t len, TSTree *tree, const AnalyzeOptions *opt,
                  FindingList *out, FileFacts *facts) {
  AnalyzeCtx ctx = {path, analyze_file_kind(path), text, len, NULL, NULL, opt, out};
  if (ctx.kind == FILE_UNKNOWN) return;
  /* Files that cannot match any row are not parsed (facts need the parse). */
  if (ctx.kind == FILE_PYTHON && !facts && opt->n_user_entries == 0 && !opt->report_unused_noqa &&
      strcmp(analyze__base(path), "setup.py") != 0 && !prefilter_may_match(text, len))
    return;
  if (ctx.kind != FILE_ELF && (memchr(text, '\0', len) || len > UINT32_MAX / 2)) return; /* binary */
  TSParser *parser = NULL;
  TSLanguage *lang = analyze_language(ctx.kind);
  if (lang) {
    if (tree) {
      ctx.tree = tree;
    } else {
      parser = ts_parser_new();
      ts_parser_set_language(parser, lang);
      ctx.tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
      if (!ctx.tree) {
        ts_parser_delete(parser);
        return;
      }
    }
  }
  PyFile *py = ctx.kind == FILE_PYTHON ? pyfile_build(ctx.tree, text, len) : NULL;
  ctx.py = py;
  /* analyzers write this file's findings to `mine`; the post passes run on
   * them before they join the caller's list */
  FindingList mine = {0};
  ctx.out = &mine;
  analyze__domains(&ctx, py);
  if (py) analyze__other_device(&ctx, py, &mine);
  if (py) analyze__cuda_engine(&ctx, py, &mine);
  uint32_t tests = 0;
  if (py) analyze__mark_python(path, py, &mine, &tests);
  if (ctx.kind == FILE_CUDA && analyze__is_test_path(path)) { /* kernel tests and benchmarks */
    for (size_t i = 0; i < mine.len; i++) tests += analyze__test_rule(&mine.items[i]);
    findings_drop_if(&mine, analyze__drop_test, NULL);
  }
  analyze__filter(opt, &mine);
  analyze__columns(text, len, &mine); /* suppressions match rows with lone-CR line breaks too */
  suppress_apply(text, len, py, opt, &mine);
  fold_findings(&ctx, &mine); /* one finding per work item */
  analyze__columns(text, len, &mine); /* and ASC001 findings get their columns */
  findings_sort(&mine);
  array_reserve(out, mine.len);
  for (size_t i = 0; i < mine.len; i++) array_push(out, mine.items[i]);
  array_free(&mine);
  if (facts) analyze__facts(text, len, py, facts);
  if (facts) facts->test_findings = tests;
  pyfile_free(py);
  if (parser) {
    ts_tree_delete(ctx.tree);
    ts_parser_delete(parser);
  }
}

void analyze_npu_sibling(const AnalyzeOptions *opt, const char *sibling, FindingList *out) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "other-device-stack", opt->user_entries, opt->n_user_entries);
  const KbRule *rule = row ? analyze_rule(opt, row->code) : NULL;
  int python = 0;
  bool any = false;
  for (size_t i = 0; i < out->len && !any; i++) any = analyze__in_domain(&python, &out->items[i]);
  if (!rule || !any) return;
  findings_drop_if(out, analyze__in_domain, &python);
  char *subj = xasprintf("CUDA, with the NPU version beside it (%s)", sibling);
  Finding *f = kb_emit(out, rule, row, subj, row->replacement, 0, 0, 0, 0, 0, 0);
  f->start_char = f->end_char = 0;
  free(subj);
  findings_sort(out);
}
