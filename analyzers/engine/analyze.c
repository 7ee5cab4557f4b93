/* analyze: file classification, the domain table and the refinement stage
 * that follows the detectors (see analyze.h for the order). */
#include "analyzers/engine/forest.h"
#include "analyzers/engine/analyze.h"
#include "analyzers/engine/conclude.h"
#include "analyzers/engine/nesting.h"
#include "analyzers/domains/domains.h"
#include "analyzers/engine/fold.h"
#include "analyzers/engine/prefilter.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/engine/reach_facts.h"
#include "analyzers/engine/suppress.h"
#include "analyzers/engine/texthits.h"
#include "analyzers/python/offflags.h"
#include "analyzers/python/pymatch.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"
#include "analyzers/python/switches.h"

#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>

TSLanguage *tree_sitter_python(void);
TSLanguage *tree_sitter_cuda(void);
TSLanguage *tree_sitter_toml(void);

typedef struct {
  int domain;
  AnalyzerFn fn;             /* work after the walk; may be NULL */
  bool per_unit;             /* for Python: fn runs after each unit's walk (else once per file) */
  const PyVisitor *visitor;  /* part of the shared Python walk; may be NULL */
} DomainAnalyzer;

/* Every detector, in domain order. The table-driven Python matcher walks
 * first; the domain detectors add what needs code. */
static const DomainAnalyzer analyze__table[] = {
    {1, deps_analyze, false, NULL},   {2, NULL, false, &device_visitor},      {3, NULL, false, &attention_visitor},
    {4, kernels_analyze, true, NULL}, {5, NULL, false, &distributed_visitor}, {6, NULL, false, &precision_visitor},
    {7, NULL, false, &compile_visitor},   {2, NULL, false, &coverage_visitor},
};

#define ANALYZE__DOMAINS (sizeof analyze__table / sizeof analyze__table[0])

typedef struct {
  bool (*visit)(void *state, const PyVisit *v);
  void *state;
  size_t skip_depth; /* nonzero: declined the subtree of the node at this depth */
} WalkSlot;

/* The single cursor walk over the top-level nodes `tops` of a Python tree
 * and their subtrees. A node is descended into when some visitor still
 * wants its subtree; a visitor that declined one is not called again until
 * the walk leaves that subtree. The walk stops before the next top-level
 * node once `out` holds `budget` findings (ANALYZE_RAW_LIMIT) and then
 * returns true: the rest is not looked at. */
static bool analyze__walk(const TSNode *tops, size_t n_tops, WalkSlot *slots, size_t n,
                          const FindingList *out, size_t budget) {
  Array(TSNode) parents = {0};
  bool cut = false;
  for (size_t t = 0; t < n_tops && !(cut = out->len >= budget); t++) {
    parents.len = 0;
    array_push(&parents, ts_tree_root_node(tops[t].tree)); /* its member's root (forest.h) */
    TSTreeCursor cur = ts_tree_cursor_new(tops[t]);
    for (bool more = true; more;) {
      size_t depth = parents.len;
      PyVisit v = {ts_tree_cursor_current_node(&cur), PYSYM_OTHER, 0, parents.items[depth - 1]};
      v.sym = pysym_of(v.node);
      /* only names need their field (is it an attribute's object? an alias?) */
      if (v.sym == PYSYM_IDENTIFIER || v.sym == PYSYM_ATTRIBUTE)
        v.field = depth == 1 ? 0 : ts_tree_cursor_current_field_id(&cur);
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
  }
  array_free(&parents);
  return cut;
}

/* ---- units ------------------------------------------------------------------ */

typedef struct {
  AnalyzeUnit u;
  size_t first, n;     /* its top-level nodes: tops[first, first + n) */
  uint32_t start_row;  /* tree-sitter row of u.start */
  bool kept;           /* its findings came from the memo: the detectors did not run */
} AnalyzeSpan;

typedef struct {
  Array(TSNode) tops;  /* every top-level node, in order */
  Array(AnalyzeSpan) spans;
} AnalyzeUnits;

/* A unit kept between versions (the memo, below). */
typedef struct {
  AnalyzeUnit u;          /* bytes in the text as edited so far */
  uint32_t orig_start, orig_end; /* its bytes when the findings were made */
  uint32_t start_row;     /* tree-sitter row of orig_start */
  bool dirty;             /* an edit or a syntax change touched it */
  FindingList findings;   /* the detectors' findings, before the file-level work */
  Array(ByteRange) ranges[2]; /* guarded, NPU-aware ranges the matcher added */
  UnitLinks links;        /* with UNIT_ATTN_LINKS: the attention pass's conclusion */
} MemoUnit;

static bool analyze__definition(TSNode n) {
  PySym k = pysym_of(n);
  return k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_CLASS_DEFINITION || k == PYSYM_DECORATED_DEFINITION;
}

/* Statements of a run of module-level code in one unit: a run is analyzed
 * together (a flag set by one statement guards the next), but a generated
 * file's run of 40,000 statements in one unit would make every edit re-run
 * all of them. Comments do not count, so typing one moves no boundary. */
#define ANALYZE__RUN_CHUNK 256

/* Splits the module into units: each definition alone, each run of other
 * top-level statements (comments included) together, in chunks of
 * ANALYZE__RUN_CHUNK statements. */
static void analyze__units(const Forest *forest, AnalyzeUnits *us) {
  array_reserve(&us->tops, forest_size(forest) + forest_size(forest) / 4); /* a member's statement and a comment or two */
  for (size_t m = 0; m < forest_size(forest); m++) {
    TSNode root = forest_root(forest, m);
    uint32_t n = ts_node_is_null(root) ? 0 : ts_node_child_count(root);
    if (n <= 4) { /* a member holds one statement (and its comments): no cursor to allocate */
      for (uint32_t i = 0; i < n; i++) array_push(&us->tops, ts_node_child(root, i));
      continue;
    }
    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur))
      array_push(&us->tops, ts_tree_cursor_current_node(&cur));
    ts_tree_cursor_delete(&cur);
  }
  array_reserve(&us->spans, us->tops.len);
  for (size_t i = 0; i < us->tops.len;) {
    size_t j = i + 1;
    if (!analyze__definition(us->tops.items[i])) {
      size_t stmts = pysym_of(us->tops.items[i]) != PYSYM_COMMENT;
      for (; j < us->tops.len && !analyze__definition(us->tops.items[j]); j++) {
        bool comment = pysym_of(us->tops.items[j]) == PYSYM_COMMENT;
        if (!comment && stmts == ANALYZE__RUN_CHUNK) break;
        stmts += !comment;
      }
    }
    TSNode first = us->tops.items[i], last = us->tops.items[j - 1];
    AnalyzeSpan sp = {{ts_node_start_byte(first), ts_node_end_byte(last), 0, false, {0}, {0}}, i, j - i,
                      ts_node_start_point(first).row, false};
    array_push(&us->spans, sp);
    i = j;
  }
}

/* Runs every detector on one unit: the shared walk, then each domain's
 * post-walk work in domain order. Findings go to ctx->out. Returns whether
 * the walk stopped at `budget` findings. */
static bool analyze__unit(AnalyzeCtx *ctx, PyFile *py, const TSNode *tops, size_t n_tops, size_t budget) {
  WalkSlot slots[ANALYZE__DOMAINS + 1];
  void *states[ANALYZE__DOMAINS] = {0};
  size_t n = 0;
  void *matcher = pymatch_begin(ctx, py);
  if (matcher) slots[n++] = (WalkSlot){pymatch_visit, matcher, 0};
  for (size_t i = 0; i < ANALYZE__DOMAINS; i++) {
    const PyVisitor *pv = analyze__table[i].visitor;
    if (pv && (states[i] = pv->begin(ctx))) slots[n++] = (WalkSlot){pv->visit, states[i], 0};
  }
  bool cut = n && analyze__walk(tops, n_tops, slots, n, ctx->out, budget);
  if (matcher) pymatch_end(matcher);
  for (size_t i = 0; i < ANALYZE__DOMAINS; i++) {
    if (states[i]) analyze__table[i].visitor->end(states[i]);
    if (analyze__table[i].fn && analyze__table[i].per_unit) analyze__table[i].fn(ctx);
  }
  return cut;
}

/* ---- the attention pass over the file ------------------------------------------ */

/* The span that holds byte `at` (the last one starting at or before it). */
static size_t analyze__span_at(const AnalyzeUnits *us, uint32_t at) {
  size_t lo = 0, hi = us->spans.len;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (us->spans.items[mid].u.start <= at) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* The findings of units whose kept conclusion holds give way to it, in
 * place: a unit's findings are contiguous (joined in unit order), and the
 * pass only changes or drops them, so the conclusion is the same slice. */
static void analyze__links_take(FindingList *out, const bool *reuse, const MemoUnit *mus) {
  FindingList next = {0};
  array_reserve(&next, out->len);
  uint32_t last = 0;
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    uint32_t o = f->origin;
    if (!o || !reuse[o - 1]) {
      array_push(&next, *f);
      continue;
    }
    if (o != last) { /* the unit's first finding: its conclusion goes here, whole */
      const FindingList *kept = &mus[o - 1].links.findings;
      for (size_t k = 0; k < kept->len; k++) {
        array_push(&next, finding_copy(&kept->items[k]));
        next.items[next.len - 1].origin = o;
      }
    }
    last = o;
    finding_free(f);
  }
  free(out->items);
  *out = next;
}

/* The hand-written attention of the walked units (out[from, len), in
 * document order) and the kept units' (copies), merged in unit order. */
static void analyze__links_added(FindingList *out, size_t from, const AnalyzeUnits *us, const bool *reuse,
                                 const MemoUnit *mus) {
  FindingList walked = {0};
  for (size_t i = from; i < out->len; i++) array_push(&walked, out->items[i]);
  out->len = from;
  size_t w = 0;
  for (size_t i = 0; i < us->spans.len; i++) {
    for (; w < walked.len && analyze__span_at(us, walked.items[w].start_byte) <= i; w++) array_push(out, walked.items[w]);
    for (size_t k = 0; reuse[i] && k < mus[i].links.added.len; k++) array_push(out, finding_copy(&mus[i].links.added.items[k]));
  }
  for (; w < walked.len; w++) array_push(out, walked.items[w]);
  array_free(&walked);
}

/* What the pass concluded about each walked unit the memo keeps. */
static void analyze__links_keep(void *st, const FindingList *out, size_t tail, size_t added, const AnalyzeUnits *us,
                                const bool *walk, MemoUnit *mus) {
  for (size_t i = 0; i < us->spans.len; i++) {
    if (!walk[i] || (mus[i].u.flags & UNIT_READS_FILE)) continue;
    unit_links_free(&mus[i].links);
    attention_file_keep(st, us->spans.items[i].u.start, us->spans.items[i].u.end, &mus[i].links);
    mus[i].links.kept = true;
  }
  /* out: the units' findings [0, tail), wrapper calls, hand-written attention [added, len) */
  for (size_t i = 0; i < out->len; i++) {
    const Finding *f = &out->items[i];
    if (i >= tail && i < added) continue; /* wrapper calls are found again on every version */
    size_t u = i < tail ? (size_t)f->origin : analyze__span_at(us, f->start_byte) + 1;
    if (!u || !walk[u - 1] || (mus[u - 1].u.flags & UNIT_READS_FILE)) continue;
    array_push(i < tail ? &mus[u - 1].links.findings : &mus[u - 1].links.added, finding_copy(f));
  }
}

/* The attention detector over the units with sites, linked to every unit's
 * calls (ctx->unit is the file). A unit the memo kept whose conclusion
 * still holds is not walked: its findings are the conclusion's. `mus`: the
 * memo's units, one per span, or NULL. */
static void analyze__attention_pass(AnalyzeCtx *ctx, const AnalyzeUnits *us, MemoUnit *mus) {
  void *st = attention_file_begin(ctx);
  if (!st) return;
  bool *reuse = xcalloc(us->spans.len + 1, sizeof *reuse), *walk = xcalloc(us->spans.len + 1, sizeof *walk);
  bool any = false;
  for (size_t i = 0; i < us->spans.len; i++) {
    const AnalyzeSpan *sp = &us->spans.items[i];
    if (!(sp->u.flags & UNIT_ATTN_LINKS)) continue;
    reuse[i] = mus && sp->kept && mus[i].links.kept && attention_file_holds(st, &mus[i].links, sp->u.start, sp->u.end);
    walk[i] = !reuse[i];
    any = any || reuse[i];
    if (reuse[i]) attention_file_seed(st, &mus[i].links);
  }
  if (any) analyze__links_take(ctx->out, reuse, mus);
  for (size_t i = 0; i < us->spans.len; i++) {
    const AnalyzeSpan *sp = &us->spans.items[i];
    WalkSlot slot = {attention_visitor.visit, st, 0};
    if (walk[i])
      analyze__walk(us->tops.items + sp->first, sp->n, &slot, 1, ctx->out,
                    SIZE_MAX); /* the units' walks kept to the limit already */
  }
  size_t handwritten, wrappers = attention_file_end(st, &handwritten);
  size_t tail = ctx->out->len - handwritten - wrappers; /* the units' findings end here */
  analyze__links_added(ctx->out, tail + wrappers, us, reuse, mus);
  if (mus) analyze__links_keep(st, ctx->out, tail, tail + wrappers, us, walk, mus);
  attention_file_free(st);
  free(reuse);
  free(walk);
}

/* Whole-file work of the Python detectors, after every unit: the domains'
 * once-per-file entry points (setup.py dependencies), the attention pass,
 * then what the file concludes about all of them (conclude.h). ctx->out
 * holds every unit's findings; `calls` every unit's calls (borrowed);
 * `mus` the memo's units, one per span, or NULL. */
static void analyze__file_detectors(AnalyzeCtx *ctx, PyFile *py, AnalyzeUnits *us, unsigned flags,
                                    const UnitCalls *calls, MemoUnit *mus) {
  AnalyzeUnit whole = {0, (uint32_t)ctx->len, 0, true, *calls, {0}};
  AnalyzeUnit *saved = ctx->unit;
  ctx->unit = &whole;
  for (size_t i = 0; i < ANALYZE__DOMAINS; i++)
    if (analyze__table[i].fn && !analyze__table[i].per_unit) analyze__table[i].fn(ctx);
  if (flags & UNIT_ATTN_LINKS) analyze__attention_pass(ctx, us, mus);
  ctx->unit = saved;
  /* last: what the file as a whole concludes about every unit's findings */
  uint32_t *starts = xcalloc(us->spans.len + 1, sizeof *starts);
  for (size_t i = 0; i < us->spans.len; i++) starts[i] = us->spans.items[i].u.start;
  conclude_file(py, starts, us->spans.len, flags, ctx->out);
  free(starts);
}

static const char *analyze__base(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}


TSLanguage *analyze_language(FileKind kind) {
  switch (kind) {
  case FILE_PYTHON: return tree_sitter_python();
  case FILE_CUDA: return tree_sitter_cuda();
  case FILE_PYPROJECT: return tree_sitter_toml();
  default: return NULL;
  }
}

typedef struct {
  const char *text;
  size_t len;
  char buf[4096];
} AnalyzeCrInput;

/* TSInput read: the text from byte `at`, a lone CR given as LF. */
static const char *analyze__cr_read(void *payload, uint32_t at, TSPoint pt, uint32_t *read) {
  (void)pt;
  AnalyzeCrInput *in = payload;
  if (at >= in->len) {
    *read = 0;
    return "";
  }
  size_t n = in->len - at < sizeof in->buf ? in->len - at : sizeof in->buf;
  memcpy(in->buf, in->text + at, n);
  for (size_t i = 0; i < n; i++)
    if (in->buf[i] == '\r' && (at + i + 1 >= in->len || in->text[at + i + 1] != '\n')) in->buf[i] = '\n';
  *read = (uint32_t)n;
  return in->buf;
}

bool analyze_has_lone_cr(const char *text, size_t len) {
  for (const char *p = memchr(text, '\r', len); p; p = memchr(p + 1, '\r', len - (size_t)(p + 1 - text)))
    if ((size_t)(p + 1 - text) >= len || p[1] != '\n') return true;
  return false;
}

TSTree *analyze_parse(TSParser *parser, TSTree *old, const char *text, size_t len) {
  return analyze_parse_as(parser, old, text, len, analyze_has_lone_cr(text, len));
}

TSTree *analyze_parse_as(TSParser *parser, TSTree *old, const char *text, size_t len, bool lone_cr) {
  if (len > UINT32_MAX / 2) return NULL;
  if (!lone_cr) return ts_parser_parse_string(parser, old, text, (uint32_t)len);
  AnalyzeCrInput *in = xmalloc(sizeof *in);
  in->text = text;
  in->len = len;
  TSInput input = {in, analyze__cr_read, TSInputEncodingUTF8};
  TSTree *t = ts_parser_parse(parser, old, input);
  free(in);
  return t;
}


void analyze_options_default(AnalyzeOptions *o) {
  memset(o, 0, sizeof *o);
  o->chip = CHIP_910B;
  /* the default target profile (kb_meta.def) */
  o->torch_npu = kb_profile_default()->torch_npu;
}

/* Findings of domain 2 and above (everything Python says about the code;
 * dependency findings stay) or of one domain: `data` points at the domain,
 * 0 for "2 and above", -1 for every domain (a requirements file's
 * dependencies are all it says). */
static bool analyze__in_domain(void *data, const Finding *f) {
  int want = *(const int *)data, d = kb_domain(f->rule->code);
  return want > 0 ? d == want : d >= (want < 0 ? 1 : 2);
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
  const KbRule *rule = row ? context_rule(ctx->opt, row->code) : NULL;
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

/* Whether a top-level `test.py` / `tests.py` (a name scripts use too) is a
 * test module: it imports a test framework (the "test-framework-modules"
 * row) and defines a test function or a Test* class. */
static bool analyze__test_module(const char *path, const PyFile *py) {
  if (strcmp(path, "test.py") != 0 && strcmp(path, "tests.py") != 0) return false;
  const char *frameworks = kb_template("test-framework-modules");
  bool imports = false;
  for (size_t i = 0; frameworks && i < py->imports.len && !imports; i++)
    imports = py->imports.items[i].column == 0 && kb_pattern_match(frameworks, py->imports.items[i].module);
  for (size_t i = 0; imports && i < py->functions.len; i++) {
    const PyFunction *f = &py->functions.items[i];
    if (util_starts_with(f->name, "test") || (f->class_name && util_starts_with(f->class_name, "Test"))) return true;
  }
  return false;
}

/* Test code: the whole file (`file`: by its path or content), a `test*` /
 * `benchmark*` / `bench_*` function (at any depth), a method of a Test*
 * class, or the self-test block of a package module. */
static bool analyze__in_test(bool file, const PyFile *py, uint32_t at, bool package) {
  if (file) return true;
  for (const PyFunction *f = pyfile_function_at(py, at); f; f = pyfile_function_outer(py, f))
    if (util_starts_with(f->name, "test") || util_starts_with(f->name, "benchmark") ||
        util_starts_with(f->name, "bench_") || (f->class_name && util_starts_with(f->class_name, "Test")))
      return true;
  return package && pyfile_in_ranges(py->main_blocks.items, py->main_blocks.len, at);
}

/* Whether a finding is dropped from test code: every rule but the meta ones
 * and those about the test harness itself (`row`, the "test-harness-rules"
 * row). `codes` keeps its answers across a file's findings (they share a
 * few dozen codes), or NULL. */
static bool analyze__test_rule_memo(const KbEntry *row, KbMatchMemo *codes, const Finding *f) {
  return kb_domain(f->rule->code) >= 2 && !(row && kb_pattern_match_memo(codes, row->arg, f->rule->code));
}

static bool analyze__test_rule(const Finding *f) {
  return analyze__test_rule_memo(kb_lookup(KB_DETECTOR, "test-harness-rules", NULL, 0), NULL, f);
}

/* A finding in the try body of a None-fallback import that is used without
 * a check says where (row: the "required-import" row's note). */
static void analyze__note_required(const PyFile *py, const KbEntry *row, Finding *f) {
  for (size_t i = 0; row && i < py->required.len; i++) {
    const PyRequired *r = &py->required.items[i];
    if (f->start_byte < r->start || f->start_byte >= r->end) continue;
    char line[16];
    snprintf(line, sizeof line, "%u", r->use_row + 1);
    kb_append_note(f, row, r->name, line);
    return;
  }
}

/* Whether an if statement has a fallback beside the branch it opens: an
 * else, or a branch that ends by returning (the code after it is the other
 * path). A branch that raises is a requirement, not a choice. */
static bool analyze__if_has_fallback(TSNode stmt) {
  uint32_t n = ts_node_named_child_count(stmt);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysym_of(c) == PYSYM_ELSE_CLAUSE) return true;
  }
  TSNode body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  uint32_t k = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  return k && strcmp(ts_node_type(ts_node_named_child(body, k - 1)), "return_statement") == 0;
}

/* Whether a finding lies in the condition of an if statement with a
 * fallback (the "fast-path-gate" row). Walks up to the statement only. */
static bool analyze__fast_path_gate(const PyFile *py, const Finding *f) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  bool cond = false, gate = false;
  const char *field;
  for (TSNode c; forest_up_next(&up, &c, &field);) {
    PySym k = pysym_of(c);
    if (k == PYSYM_IF_STATEMENT || k == PYSYM_ELIF_CLAUSE) {
      gate = cond && analyze__if_has_fallback(k == PYSYM_IF_STATEMENT ? c : ts_node_parent(c));
      break;
    }
    if (k == PYSYM_BLOCK || k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_MODULE) break;
    cond = field && strcmp(field, "condition") == 0;
  }
  forest_up_end(&up);
  return gate;
}

/* Whether a finding lies in the left operand of `A and B` that is an item of
 * a with statement (`with torch.cuda.amp.autocast() and torch.no_grad():`):
 * `and` yields B, so A is built but never entered (PyFile.unentered). */
static bool analyze__with_and_left(const PyFile *py, const Finding *f) {
  for (size_t i = 0; i < py->unentered.len; i++)
    if (py->unentered.items[i].start <= f->start_byte && f->end_byte <= py->unentered.items[i].end) return true;
  return false;
}

/* Whether statement s is `<name> = <wrap>(<name>, ...)` with wrap (its
 * qualified name) among `wrappers`: a name rebound to a compiled version of
 * itself (`flex_attention = torch.compile(flex_attention)`). */
static bool analyze__rebinds_wrapped(const PyFile *py, TSNode s, const char *wrappers) {
  if (pysym_of(s) != PYSYM_EXPRESSION_STATEMENT || ts_node_named_child_count(s) != 1) return false;
  TSNode a = ts_node_named_child(s, 0);
  if (pysym_of(a) != PYSYM_ASSIGNMENT) return false;
  TSNode left = pysym_child(a, PYFIELD_LEFT), right = pysym_child(a, PYFIELD_RIGHT);
  if (ts_node_is_null(left) || ts_node_is_null(right) || pysym_of(right) != PYSYM_CALL) return false;
  TSNode fn = pysym_child(right, PYFIELD_FUNCTION), args = pysym_child(right, PYFIELD_ARGUMENTS);
  if (ts_node_is_null(fn) || ts_node_is_null(args) || !ts_node_named_child_count(args)) return false;
  char *q = pyfile_qualname(py, fn);
  bool hit = q && kb_pattern_match(wrappers, q);
  free(q);
  TSNode first = ts_node_named_child(args, 0);
  uint32_t ln = ts_node_end_byte(left) - ts_node_start_byte(left), fa = ts_node_end_byte(first) - ts_node_start_byte(first);
  return hit && ln == fa && memcmp(py->text + ts_node_start_byte(left), py->text + ts_node_start_byte(first), ln) == 0;
}

/* Whether a finding lies in an if statement without elif or else that
 * tests CUDA's availability (the "cuda-availability-call" template) and
 * whose body only rebinds names to compiled versions of themselves (the
 * "cuda-only-speedup" row's `value`): on the NPU the test is False and the
 * plain functions run, as they do without CUDA. */
static bool analyze__cuda_speedup(const PyFile *py, const Finding *f, const char *wrappers) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  bool hit = false;
  const char *field, *avail = kb_template("cuda-availability-call");
  for (TSNode c; forest_up_next(&up, &c, &field);) {
    PySym k = pysym_of(c);
    if (k == PYSYM_IF_STATEMENT) {
      TSNode cond = pysym_child(c, PYFIELD_CONDITION), body = pysym_child(c, PYFIELD_CONSEQUENCE);
      uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
      char *ct = ts_node_is_null(cond) ? NULL : pyfile_node_text(py, cond);
      uint32_t parts = 0; /* condition and body: no elif, no else (a comment may sit between) */
      for (uint32_t i = 0; i < ts_node_named_child_count(c); i++) parts += pysym_of(ts_node_named_child(c, i)) != PYSYM_COMMENT;
      hit = ct && avail && strstr(ct, avail) && !strstr(ct, "not ") && !strstr(ct, " or ") && n > 0 && parts == 2;
      free(ct);
      for (uint32_t i = 0; hit && i < n; i++) {
        TSNode s = ts_node_named_child(body, i);
        hit = pysym_of(s) == PYSYM_COMMENT || analyze__rebinds_wrapped(py, s, wrappers);
      }
      break;
    }
    if (k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_MODULE || k == PYSYM_ELIF_CLAUSE || k == PYSYM_ELSE_CLAUSE) break;
  }
  forest_up_end(&up);
  return hit;
}

/* The first string of n (itself, or a list's or tuple's first item) when
 * it matches `values`: its content (caller frees), or NULL. */
static char *analyze__string_of(const PyFile *py, TSNode n, const char *values) {
  PySym k = pysym_of(n);
  if ((k == PYSYM_LIST || k == PYSYM_TUPLE) && ts_node_named_child_count(n)) n = ts_node_named_child(n, 0);
  char *v = pysym_of(n) == PYSYM_STRING ? pysyntax_string_value(py, n) : NULL;
  if (v && kb_pattern_match(values, v)) return v;
  free(v);
  return NULL;
}

/* Whether the condition text tests CUDA's availability, negated or not,
 * with nothing `or` could make true without it. */
static bool analyze__tests_cuda(const char *ct, bool negated) {
  const char *avail = kb_template("cuda-availability-call"), *at = ct && avail ? strstr(ct, avail) : NULL;
  if (!at || strstr(ct, " or ")) return false;
  bool neg = strstr(ct, "not ") || strstr(at, "is False") || strstr(at, "== False");
  return neg == negated;
}

/* Whether cond holds only where CUDA is absent: a negated availability
 * test, alone or an operand of `and` (`torch.cuda.is_available() is False
 * and (load_jit or load_trt)`). */
static bool analyze__without_cuda(const PyFile *py, TSNode cond) {
  const char *avail = kb_template("cuda-availability-call");
  for (int hop = 0; hop < 8 && !ts_node_is_null(cond) && strcmp(ts_node_type(cond), "boolean_operator") == 0; hop++) {
    TSNode op = pysym_child(cond, PYFIELD_OPERATOR), left = pysym_child(cond, PYFIELD_LEFT);
    if (ts_node_is_null(op) || strcmp(ts_node_type(op), "and") != 0 || ts_node_is_null(left)) return false;
    char *lt = pyfile_node_text(py, left);
    bool in_left = lt && avail && strstr(lt, avail);
    free(lt);
    cond = in_left ? left : pysym_child(cond, PYFIELD_RIGHT);
  }
  char *ct = ts_node_is_null(cond) ? NULL : pyfile_node_text(py, cond);
  bool hit = analyze__tests_cuda(ct, true);
  free(ct);
  return hit;
}

/* The nearest of what f is part of, within its statement: a conditional
 * expression `A if T else B` (*arm: 0 in A, 1 in T, 2 in B), else an if
 * statement whose condition holds f (*arm 1). A null node when neither. */
static TSNode analyze__choice_of(const PyFile *py, const Finding *f, int *arm) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode prev = {0}, found = {0};
  const char *field;
  for (TSNode c; forest_up_next(&up, &c, &field); prev = c) {
    PySym k = pysym_of(c);
    if (k == PYSYM_CONDITIONAL_EXPRESSION && ts_node_named_child_count(c) == 3 && !ts_node_is_null(prev)) {
      for (int i = 0; i < 3 && ts_node_is_null(found); i++)
        if (ts_node_eq(prev, ts_node_named_child(c, (uint32_t)i))) found = c, *arm = i;
      break;
    }
    if (k == PYSYM_IF_STATEMENT) {
      if (!ts_node_is_null(prev) && ts_node_eq(prev, pysym_child(c, PYFIELD_CONDITION))) found = c, *arm = 1;
      break;
    }
    if (k == PYSYM_BLOCK || k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_MODULE || k == PYSYM_EXPRESSION_STATEMENT)
      break;
  }
  forest_up_end(&up);
  return found;
}

/* The test of choice c (analyze__choice_of), as text (caller frees). */
static char *analyze__choice_test(const PyFile *py, TSNode c) {
  return pyfile_node_text(py, pysym_of(c) == PYSYM_IF_STATEMENT ? pysym_child(c, PYFIELD_CONDITION) : ts_node_named_child(c, 1));
}

/* When the finding is the test of choice c (arm 1: analyze__choice_of) of
 * `A if torch.cuda.is_available() else B` (or of an if statement without
 * else whose body assigns such an A), the A it picks if A is a string
 * `values` matches (`"CUDAExecutionProvider"`, or a list starting with it):
 * its content (caller frees), else NULL. */
static char *analyze__cuda_only_selection(const PyFile *py, TSNode c, int arm, const char *values) {
  if (ts_node_is_null(c) || arm != 1) return NULL;
  char *ct = analyze__choice_test(py, c), *hit = NULL;
  bool cuda = analyze__tests_cuda(ct, false);
  free(ct);
  if (cuda && pysym_of(c) == PYSYM_CONDITIONAL_EXPRESSION) return analyze__string_of(py, ts_node_named_child(c, 0), values);
  TSNode body = cuda ? pysym_child(c, PYFIELD_CONSEQUENCE) : (TSNode){0};
  uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n && !hit; i++) {
    TSNode s = ts_node_named_child(body, i), a = ts_node_named_child_count(s) ? ts_node_named_child(s, 0) : s;
    TSNode right = pysym_of(a) == PYSYM_ASSIGNMENT ? pysym_child(a, PYFIELD_RIGHT) : (TSNode){0};
    if (!ts_node_is_null(right)) hit = analyze__string_of(py, right, values);
  }
  return hit;
}

/* Whether the finding, in arm `arm` of choice c (analyze__choice_of), is
 * in the CUDA branch or the test of `A if torch.cuda.is_available() else
 * B()` where B is a no-op `values` names (`nullcontext()`): the
 * "cuda-optional-fallback" row. */
static bool analyze__cuda_optional(const PyFile *py, TSNode c, int arm, const char *values) {
  if (ts_node_is_null(c) || pysym_of(c) != PYSYM_CONDITIONAL_EXPRESSION || arm > 1) return false;
  TSNode alt = ts_node_named_child(c, 2);
  char *ct = analyze__choice_test(py, c);
  char *callee = pysym_of(alt) == PYSYM_CALL ? pyfile_node_text(py, pysym_child(alt, PYFIELD_FUNCTION)) : NULL;
  bool hit = analyze__tests_cuda(ct, false) && callee && kb_pattern_match(values, callee);
  free(ct);
  free(callee);
  return hit;
}

/* Whether statement s only sets names to False or None (`a, b = False,
 * False`), or is a call spelled like one of `calls` (logging), or a
 * comment. */
static bool analyze__switches_off(const PyFile *py, TSNode s, const char *calls) {
  if (pysym_of(s) == PYSYM_COMMENT) return true;
  if (pysym_of(s) != PYSYM_EXPRESSION_STATEMENT || ts_node_named_child_count(s) != 1) return false;
  TSNode e = ts_node_named_child(s, 0);
  if (pysym_of(e) == PYSYM_CALL) {
    char *q = pyfile_node_text(py, pysym_child(e, PYFIELD_FUNCTION)); /* as spelled: a project may re-export logging */
    bool log = q && kb_pattern_match(calls, q);
    free(q);
    return log;
  }
  TSNode right = pysym_of(e) == PYSYM_ASSIGNMENT ? pysym_child(e, PYFIELD_RIGHT) : (TSNode){0};
  if (ts_node_is_null(right)) return false;
  uint32_t n = ts_node_named_child_count(right);
  bool list = strcmp(ts_node_type(right), "expression_list") == 0 || pysym_of(right) == PYSYM_TUPLE;
  for (uint32_t i = 0; i < (list ? n : 1); i++) {
    const char *t = ts_node_type(list ? ts_node_named_child(right, i) : right);
    if (strcmp(t, "false") != 0 && strcmp(t, "none") != 0) return false;
  }
  return !list || n > 0;
}

/* Whether the finding is in the test of choice c (analyze__choice_of), an
 * `if not torch.cuda.is_available():` (or `... is False`, with `and`
 * conditions) without elif or else whose body only turns options off
 * (analyze__switches_off): the "cuda-off-switch" row. */
static bool analyze__cuda_off_switch(const PyFile *py, TSNode c, const char *calls) {
  if (ts_node_is_null(c) || pysym_of(c) != PYSYM_IF_STATEMENT) return false;
  TSNode body = pysym_child(c, PYFIELD_CONSEQUENCE);
  uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body), parts = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(c); i++) parts += pysym_of(ts_node_named_child(c, i)) != PYSYM_COMMENT;
  bool hit = parts == 2 && n > 0 && analyze__without_cuda(py, pysym_child(c, PYFIELD_CONDITION)); /* no elif, no else */
  for (uint32_t i = 0; hit && i < n; i++) hit = analyze__switches_off(py, ts_node_named_child(body, i), calls);
  return hit;
}

/* Whether the function holding f (or, outside functions, the file) names
 * `needle` in its text: a device string there picks what the needle names
 * (an ONNX Runtime execution provider), not a torch device. */
static bool analyze__function_names(const PyFile *py, const Finding *f, const char *needle) {
  const PyFunction *fn = pyfile_function_at(py, f->start_byte);
  uint32_t from = fn ? fn->start : 0, to = fn ? fn->end : (uint32_t)py->len;
  return to > from && memmem(py->text + from, to - from, needle, strlen(needle)) != NULL;
}

/* Whether f is the first argument of a call of one of `callees` ('|'
 * literals: `.to("cuda")`, `torch.device("cuda")`): a torch device there,
 * whatever else its scope names. */
static bool analyze__argument_of(const PyFile *py, const Finding *f, const char *callees) {
  uint32_t at = f->start_byte;
  while (at > 0 && (py->text[at - 1] == ' ' || py->text[at - 1] == '\t')) at--;
  if (at == 0 || py->text[at - 1] != '(') return false;
  const char *w;
  size_t n;
  for (const char *alts = callees; util_alt_next(&alts, &w, &n);)
    if (at - 1 >= n && memcmp(py->text + at - 1 - n, w, n) == 0) return true;
  return false;
}

/* The name a device string is bound to: the parameter it is the default of
 * (`def f(device="cuda")`) or the name a plain assignment gives it
 * (`device = "cuda"`); a null node otherwise. */
static TSNode analyze__bound_name(const PyFile *py, const Finding *f) {
  TSNode s = forest_node_at(py->forest, f->start_byte, f->end_byte);
  TSNode up = ts_node_is_null(s) ? s : ts_node_parent(s);
  PySym k = pysym_of(up);
  if (k == PYSYM_DEFAULT_PARAMETER || k == PYSYM_TYPED_DEFAULT_PARAMETER) return pysym_child(up, PYFIELD_NAME);
  if (k == PYSYM_ASSIGNMENT && ts_node_eq(pysym_child(up, PYFIELD_RIGHT), s)) return pysym_child(up, PYFIELD_LEFT);
  return (TSNode){0};
}

/* Whether the name f's string is bound to is the first argument of a call
 * of one of `callees` ('|' literals, as analyze__argument_of) in f's
 * function (or the file, outside functions): `def f(device="cuda")` with
 * `model.to(device)` is a torch device, whatever providers the function
 * also lists (ConsisID's face metrics). */
static bool analyze__bound_to(const PyFile *py, const Finding *f, const char *callees) {
  TSNode id = analyze__bound_name(py, f);
  if (pysym_of(id) != PYSYM_IDENTIFIER) return false;
  const char *nm = py->text + ts_node_start_byte(id);
  size_t n = ts_node_end_byte(id) - ts_node_start_byte(id);
  const PyFunction *fn = pyfile_function_at(py, f->start_byte);
  const char *from = py->text + (fn ? fn->start : 0), *to = py->text + (fn ? fn->end : (uint32_t)py->len);
  const char *w;
  size_t wn;
  for (const char *alts = callees; util_alt_next(&alts, &w, &wn);)
    for (const char *p = from; p < to && (p = memmem(p, (size_t)(to - p), w, wn)) != NULL; p += wn) {
      const char *q = p + wn;
      if (q >= to || *q != '(') continue;
      for (q++; q < to && (*q == ' ' || *q == '\n'); q++) {
      }
      if ((size_t)(to - q) > n && memcmp(q, nm, n) == 0 && !isalnum((unsigned char)q[n]) && q[n] != '_' &&
          q[n] != '.')
        return true;
    }
  return false;
}

/* Gives f the row's replacement in its own message templates and no fix. */
static void analyze__readvise(Finding *f, const KbEntry *row) {
  kb_set_replacement(f, row->replacement);
  f->fix = FIX_NONE;
}

/* Whether statement s is `<name> = <expr>.<m>()` with m among `methods`. */
static bool analyze__method_assignment(const PyFile *py, TSNode s, const char *methods) {
  if (pysym_of(s) != PYSYM_EXPRESSION_STATEMENT || ts_node_named_child_count(s) != 1) return false;
  TSNode a = ts_node_named_child(s, 0);
  TSNode right = pysym_of(a) == PYSYM_ASSIGNMENT ? pysym_child(a, PYFIELD_RIGHT) : a;
  if (ts_node_is_null(right) || pysym_of(right) != PYSYM_CALL) return false;
  TSNode fn = pysym_child(right, PYFIELD_FUNCTION), args = pysym_child(right, PYFIELD_ARGUMENTS);
  if (ts_node_is_null(fn) || pysym_of(fn) != PYSYM_ATTRIBUTE || ts_node_is_null(args) || ts_node_named_child_count(args))
    return false;
  char *m = pyfile_node_text(py, pysym_child(fn, PYFIELD_ATTRIBUTE));
  bool hit = m && kb_pattern_match(methods, m);
  free(m);
  return hit;
}

/* Whether a finding lies in the condition of an if statement without a
 * fallback whose branch only re-lays tensors out (`q = q.contiguous()`:
 * the "cuda-workaround-branch" row's methods): a CUDA bug's workaround the
 * NPU skips with nothing lost. */
static bool analyze__workaround_branch(const PyFile *py, const Finding *f, const char *methods) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  bool cond = false, hit = false;
  const char *field;
  for (TSNode c; forest_up_next(&up, &c, &field);) {
    PySym k = pysym_of(c);
    if (k == PYSYM_IF_STATEMENT) {
      TSNode body = pysym_child(c, PYFIELD_CONSEQUENCE);
      uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
      hit = cond && n > 0 && ts_node_named_child_count(c) == 2; /* condition and body: no elif, no else */
      for (uint32_t i = 0; hit && i < n; i++) {
        TSNode s = ts_node_named_child(body, i);
        hit = pysym_of(s) == PYSYM_COMMENT || analyze__method_assignment(py, s, methods);
      }
      break;
    }
    if (k == PYSYM_BLOCK || k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_MODULE || k == PYSYM_ELIF_CLAUSE) break;
    cond = field && strcmp(field, "condition") == 0;
  }
  forest_up_end(&up);
  return hit;
}

static bool analyze__drop_any(void *data, const Finding *f) {
  (void)data;
  (void)f;
  return true;
}

static bool analyze__drop_test(void *data, const Finding *f) {
  (void)data;
  return analyze__test_rule(f);
}

/* Whether a finding is a use of a name bound by a guarded import whose
 * ImportError handler binds it again (`except ImportError: def rms_norm(...)`
 * or `f = None`, not one the None check says is required): the handler's
 * binding is its fallback. */
static bool analyze__fallback_bound(const PyFile *py, const Finding *f) {
  uint32_t s = f->start_byte, e = s;
  while (e < py->len && (isalnum((unsigned char)py->text[e]) || py->text[e] == '_')) e++;
  if (e == s || e - s > 128) return false;
  const PyBinding *b = pyfile_lookup(py, py->text + s, e - s, s);
  if (!b || !pyfile_in_ranges(py->guarded.items, py->guarded.len, b->def_byte)) return false;
  char *name = xstrndup(py->text + s, e - s);
  bool rebinds = pyfile_handler_rebinds(py, b->def_byte, name);
  free(name);
  return rebinds;
}

/* A finding in the default of a parameter that the function's body sets
 * again, in its leading statements, before any of them reads it: the line
 * (1-based) of that assignment, or 0. The parameter's name goes to *name.
 * When no statement of the body mentions the parameter at all, *unread is
 * set instead (with the name): the default never reaches anything. A
 * decorated function may hand its parameters on (`@register_to_config`
 * keeps them), and `locals()` or `vars()` read every name: neither is
 * unread. */
static uint32_t analyze__dead_default(const PyFile *py, const Finding *f, char **name, bool *unread) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode param = {0}, def = {0};
  const char *field;
  for (TSNode c; forest_up_next(&up, &c, &field);) {
    const char *t = ts_node_type(c);
    if (ts_node_is_null(param) && (strcmp(t, "default_parameter") == 0 || strcmp(t, "typed_default_parameter") == 0))
      param = c;
    if (strcmp(t, "function_definition") == 0) {
      def = c;
      break;
    }
    if (strcmp(t, "block") == 0 || strcmp(t, "lambda") == 0) break;
  }
  forest_up_end(&up);
  TSNode id = ts_node_is_null(param) || ts_node_is_null(def) ? (TSNode){0} : pysym_child(param, PYFIELD_NAME);
  TSNode body = ts_node_is_null(id) ? (TSNode){0} : pysym_child(def, PYFIELD_BODY);
  if (ts_node_is_null(body) || pysym_of(id) != PYSYM_IDENTIFIER) return 0;
  uint32_t ns = ts_node_start_byte(id), n = ts_node_end_byte(id) - ns;
  const char *nm = py->text + ns;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode st = ts_node_named_child(body, i);
    TSNode e = pysym_of(st) == PYSYM_EXPRESSION_STATEMENT ? ts_node_named_child(st, 0) : (TSNode){0};
    if (pysym_of(e) == PYSYM_STRING || pysym_of(st) == PYSYM_COMMENT) continue; /* the docstring */
    if (pysym_of(e) == PYSYM_ASSIGNMENT) {
      TSNode left = pysym_child(e, PYFIELD_LEFT), right = pysym_child(e, PYFIELD_RIGHT);
      if (pysyntax_is_name(py, left, nm, n) && !ts_node_is_null(right) &&
          !pysyntax_mentions(py, ts_node_start_byte(right), ts_node_end_byte(right), nm, n)) {
        *name = xstrndup(nm, n);
        return ts_node_start_point(st).row + 1;
      }
    }
    if (pysyntax_mentions(py, ts_node_start_byte(st), ts_node_end_byte(st), nm, n)) return 0; /* read first */
  }
  uint32_t bs = ts_node_start_byte(body), be = ts_node_end_byte(body);
  *unread = pysym_of(ts_node_parent(def)) != PYSYM_DECORATED_DEFINITION && !pysyntax_mentions(py, bs, be, "locals", 6) &&
            !pysyntax_mentions(py, bs, be, "vars", 4);
  if (*unread) *name = xstrndup(nm, n);
  return 0;
}

/* Whether call passes parameter `name` (spelled name[0, n)), which is the
 * function's positional parameter `pos` (-1: keyword only): by keyword, or
 * by position when no argument is spread before it. */
static bool analyze__call_passes(const PyFile *py, TSNode call, const char *name, uint32_t n, int pos) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (ts_node_is_null(args)) return false;
  uint32_t positional = 0;
  bool spread = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
    TSNode a = ts_node_named_child(args, i);
    const char *t = ts_node_type(a);
    if (strcmp(t, "keyword_argument") == 0) {
      if (pysyntax_is_name(py, pysym_child(a, PYFIELD_NAME), name, n)) return true;
    } else if (strcmp(t, "list_splat") == 0 || strcmp(t, "dictionary_splat") == 0) {
      spread = spread || t[0] == 'l';
    } else if (strcmp(t, "comment") != 0) {
      positional += !spread;
    }
  }
  return pos >= 0 && !spread && positional > (uint32_t)pos;
}

/* A finding in the default of a parameter of a function defined inside
 * another function (EasyAnimate's training loop defines `generate_noise(...,
 * device="cuda")` and calls it with `device=latents.device`): such a
 * function is seen only in the enclosing one, so when every mention of its
 * name there is a call passing the parameter, the default never applies.
 * The number of calls (0: not so); the parameter's name to *name. */
static size_t analyze__nested_default(const PyFile *py, const Finding *f, char **name) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode param = {0}, def = {0}, outer = {0};
  const char *field;
  for (TSNode c; forest_up_next(&up, &c, &field);) {
    const char *t = ts_node_type(c);
    if (ts_node_is_null(def) && ts_node_is_null(param) &&
        (strcmp(t, "default_parameter") == 0 || strcmp(t, "typed_default_parameter") == 0))
      param = c;
    else if (strcmp(t, "function_definition") == 0 && ts_node_is_null(param))
      break; /* in a body, not a default */
    else if (strcmp(t, "function_definition") == 0 && ts_node_is_null(def))
      def = c;
    else if (strcmp(t, "function_definition") == 0) {
      outer = c;
      break;
    } else if (strcmp(t, "class_definition") == 0 || strcmp(t, "lambda") == 0 ||
               (ts_node_is_null(def) && strcmp(t, "block") == 0))
      break;
  }
  forest_up_end(&up);
  if (ts_node_is_null(outer)) return 0;
  TSNode id = pysym_child(param, PYFIELD_NAME), fname = pysym_child(def, PYFIELD_NAME);
  TSNode params = pysym_child(def, PYFIELD_PARAMETERS), body = pysym_child(outer, PYFIELD_BODY);
  if (pysym_of(id) != PYSYM_IDENTIFIER || ts_node_is_null(fname) || ts_node_is_null(params) || ts_node_is_null(body))
    return 0;
  int pos = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
    TSNode p = ts_node_named_child(params, i);
    if (ts_node_eq(p, param)) break;
    const char *t = ts_node_type(p);
    pos = pos < 0 || strstr(t, "splat") || strcmp(t, "keyword_separator") == 0 ? -1 : pos + 1;
  }
  const char *pn = py->text + ts_node_start_byte(id), *fn = py->text + ts_node_start_byte(fname);
  uint32_t pl = ts_node_end_byte(id) - ts_node_start_byte(id), fl = ts_node_end_byte(fname) - ts_node_start_byte(fname);
  size_t calls = 0;
  bool other = false;
  TSTreeCursor cur = ts_tree_cursor_new(body);
  for (bool more = true; more && !other;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (!ts_node_eq(n, fname) && pysyntax_is_name(py, n, fn, fl)) {
      TSNode call = ts_node_parent(n);
      bool called = pysym_of(call) == PYSYM_CALL && ts_node_eq(pysym_child(call, PYFIELD_FUNCTION), n);
      if (called && analyze__call_passes(py, call, pn, pl, pos)) calls++;
      else other = true;
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), body)) {
        more = false;
        break;
      }
  }
  ts_tree_cursor_delete(&cur);
  if (other || !calls) return 0;
  *name = xstrndup(pn, pl);
  return calls;
}

/* Whether identifier id reads its name: not a member (`x.device`), a
 * keyword's name (`f(device=...)`), the binding `left` itself or another
 * plain assignment to the name (`torch_dtype = torch.float32` in the
 * branches after it: a write). */
static bool analyze__reads(TSNode id, TSNode left) {
  if (ts_node_eq(id, left)) return false;
  TSNode up = ts_node_parent(id);
  PySym k = pysym_of(up);
  if (k == PYSYM_ATTRIBUTE && ts_node_eq(pysym_child(up, PYFIELD_ATTRIBUTE), id)) return false;
  if (k == PYSYM_ASSIGNMENT && ts_node_eq(pysym_child(up, PYFIELD_LEFT), id)) return false;
  return !(k == PYSYM_KEYWORD_ARGUMENT && ts_node_eq(pysym_child(up, PYFIELD_NAME), id));
}

/* A finding in the value of an assignment to a local name that nothing in
 * the function reads (`device = torch.device(f"cuda:{rank}")` left over in
 * a handler): the name, or NULL. Caller frees. */
static char *analyze__unused_local(const PyFile *py, const Finding *f) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode asg = {0}, def = {0};
  const char *field;
  for (TSNode c; forest_up_next(&up, &c, &field);) {
    PySym k = pysym_of(c);
    if (ts_node_is_null(asg) && k == PYSYM_ASSIGNMENT) {
      TSNode right = pysym_child(c, PYFIELD_RIGHT);
      if (ts_node_is_null(right) || f->start_byte < ts_node_start_byte(right)) break; /* the target, not the value */
      asg = c;
    }
    if (k == PYSYM_FUNCTION_DEFINITION) {
      def = c;
      break;
    }
    if (k == PYSYM_CLASS_DEFINITION || k == PYSYM_MODULE || strcmp(ts_node_type(c), "lambda") == 0) break;
  }
  forest_up_end(&up);
  TSNode left = ts_node_is_null(asg) || ts_node_is_null(def) ? (TSNode){0} : pysym_child(asg, PYFIELD_LEFT);
  if (ts_node_is_null(left) || pysym_of(left) != PYSYM_IDENTIFIER) return NULL;
  char *name = pyfile_node_text(py, left);
  uint32_t at = ts_node_start_byte(def), to = ts_node_end_byte(def);
  for (TSNode id; !ts_node_is_null(id = pyfile_next_name(py, name, strlen(name), &at, to));)
    if (analyze__reads(id, left)) {
      free(name);
      return NULL;
    }
  return name;
}

/* Whether the construct at f, with its parenthesized arguments to the end
 * of the line they close on, names `keyword` (`@custom_fwd(cast_inputs=...)`). */
static bool analyze__names_keyword(const PyFile *py, const Finding *f, const char *keyword) {
  uint32_t e = f->start_byte, limit = f->start_byte + 4096 < py->len ? f->start_byte + 4096 : (uint32_t)py->len;
  for (int depth = 0; e < limit; e++) {
    char c = py->text[e];
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if ((c == '\n' || c == '\r') && depth <= 0) break;
  }
  return memmem(py->text + f->start_byte, e - f->start_byte, keyword, strlen(keyword)) != NULL;
}

/* The first byte in text[from, to) where one of `markers` ('|'
 * alternatives) occurs, or UINT32_MAX; a marker that starts with a letter
 * (`del `) counts only where no name or attribute runs into it (`model =
 * ...` is no `del `). */
static uint32_t analyze__first_marker(const PyFile *py, uint32_t from, uint32_t to, const char *markers) {
  uint32_t first = UINT32_MAX;
  const char *m;
  size_t n;
  for (const char *alts = markers; util_alt_next(&alts, &m, &n);) {
    bool word = isalpha((unsigned char)m[0]);
    for (const char *p = py->text + from, *end = py->text + (first < to ? first : to);
         (p = memmem(p, (size_t)(end - p), m, n)) != NULL; p++)
      if (!word || p == py->text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) {
        first = (uint32_t)(p - py->text);
        break;
      }
  }
  return first;
}

/* Whether f sits in a class's constructor (`__init__`, not nested deeper)
 * before anything there could leave freed device memory in the cache: a
 * release (the "cache-releases" template's markers: `del `, `.cpu()`, `=
 * None`, ...), or a conversion after a move to the device (`.cuda().half()`
 * frees the copy it converted; the "cache-device-moves" and
 * "cache-conversions" templates). A cache release there returns nothing,
 * on any device. */
static bool analyze__fresh_constructor(const PyFile *py, const Finding *f, const char *releases, const char *moves,
                                       const char *conversions) {
  const PyFunction *fn = pyfile_function_at(py, f->start_byte);
  if (!fn || !fn->class_name || strcmp(fn->name, "__init__") != 0 || fn->body_start > f->start_byte) return false;
  if (analyze__first_marker(py, fn->body_start, f->start_byte, releases) != UINT32_MAX) return false;
  uint32_t moved = analyze__first_marker(py, fn->body_start, f->start_byte, moves);
  return moved == UINT32_MAX || analyze__first_marker(py, moved, f->start_byte, conversions) == UINT32_MAX;
}

/* f becomes a hint with the row's note: the NPU does not run it as it stands. */
static void analyze__hint(Finding *f, const KbEntry *row) {
  f->severity = SEV_HINT;
  finding_append_note(f, row->msg_en, row->msg_zh);
}

/* Whether f is (part of) the exception type an `except` clause names: the
 * walk up meets the clause before any block (its body, or the body of
 * whatever holds it). */
static bool analyze__caught_type(const PyFile *py, const Finding *f) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode c;
  const char *field;
  bool caught = false;
  while (forest_up_next(&up, &c, &field)) {
    PySym k = pysym_of(c);
    if (k == PYSYM_EXCEPT_CLAUSE) caught = true;
    if (caught || k == PYSYM_BLOCK || k == PYSYM_MODULE) break;
  }
  forest_up_end(&up);
  return caught;
}

/* Whether the text of fn (a call's function: `print`, `logger.info`,
 * `"{}".format`) matches pattern; false for a null node or a long one. */
static bool analyze__callee_is(const PyFile *py, TSNode fn, const char *pattern) {
  if (ts_node_is_null(fn)) return false;
  uint32_t s = ts_node_start_byte(fn), e = ts_node_end_byte(fn);
  char name[96];
  if (e - s >= sizeof name) return false;
  memcpy(name, py->text + s, e - s);
  name[e - s] = '\0';
  return kb_pattern_match(pattern, name);
}

/* Whether an `if` without `else` or `elif` only reports in its branch:
 * every statement calls a reporting function (`if torch.cuda.is_available():
 * warnings.warn("running on the CPU while CUDA is available")`). */
static bool analyze__reports_only(const PyFile *py, TSNode ifs, const char *reports) {
  TSNode body = pysym_child(ifs, PYFIELD_CONSEQUENCE);
  if (ts_node_is_null(body) || !ts_node_is_null(pysym_child(ifs, PYFIELD_ALTERNATIVE))) return false;
  uint32_t n = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode st = ts_node_named_child(body, i);
    if (pysym_of(st) == PYSYM_COMMENT) continue;
    TSNode call = pysym_of(st) == PYSYM_EXPRESSION_STATEMENT ? ts_node_named_child(st, 0) : (TSNode){0};
    TSNode fn = pysym_of(call) == PYSYM_CALL ? pysym_child(call, PYFIELD_FUNCTION) : (TSNode){0};
    if (!analyze__callee_is(py, fn, reports)) return false;
    n++;
  }
  return n > 0;
}

/* Whether f's value goes only into a message: up from it through
 * expressions (f-strings, concatenation, `x if f else y`, tuples) and the
 * calls that pass an argument on in another form (`passes`), to the
 * arguments of a call that reports (`reports`), or to the condition of an
 * `if` whose branch only reports. */
static bool analyze__reported_only(const PyFile *py, const Finding *f, const char *reports, const char *passes) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode c;
  const char *field, *below_field = NULL;
  bool reported = false;
  while (forest_up_next(&up, &c, &field)) {
    PySym k = pysym_of(c);
    const char *t = ts_node_type(c);
    bool pass = k == PYSYM_ATTRIBUTE || k == PYSYM_ARGUMENT_LIST || k == PYSYM_CONDITIONAL_EXPRESSION ||
                strcmp(t, "interpolation") == 0 || strcmp(t, "string") == 0 || strcmp(t, "concatenated_string") == 0 ||
                strcmp(t, "binary_operator") == 0 || strcmp(t, "parenthesized_expression") == 0 ||
                strcmp(t, "tuple") == 0 || strcmp(t, "list") == 0 || strcmp(t, "keyword_argument") == 0 ||
                strcmp(t, "boolean_operator") == 0 || strcmp(t, "not_operator") == 0;
    if (k == PYSYM_CALL && !(below_field && strcmp(below_field, "function") == 0)) {
      TSNode fn = pysym_child(c, PYFIELD_FUNCTION);
      if (analyze__callee_is(py, fn, reports)) {
        reported = true;
        break;
      }
      pass = analyze__callee_is(py, fn, passes);
    } else if (k == PYSYM_CALL) {
      pass = true; /* the query's own call */
    } else if (k == PYSYM_IF_STATEMENT && below_field && strcmp(below_field, "condition") == 0) {
      reported = analyze__reports_only(py, c, reports);
      break;
    }
    if (!pass) break;
    below_field = field;
  }
  forest_up_end(&up);
  return reported;
}

/* The statement holding f, when it is one of a block's (or module's)
 * statements; null otherwise. The walk up keeps the node below each
 * ancestor (ts_node_parent would start from the root every step). */
static TSNode analyze__own_statement(const PyFile *py, const Finding *f) {
  ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
  TSNode c, below = {0}, st = {0};
  const char *field;
  while (forest_up_next(&up, &c, &field)) {
    const char *t = ts_node_type(c);
    if (strcmp(t, "block") == 0 || strcmp(t, "module") == 0) {
      if (!ts_node_is_null(below) && strstr(ts_node_type(below), "statement")) st = below;
      break;
    }
    if (pysym_of(c) == PYSYM_FUNCTION_DEFINITION || pysym_of(c) == PYSYM_CLASS_DEFINITION) break;
    below = c;
  }
  forest_up_end(&up);
  return st;
}

/* A CUDA call the code pairs with the NPU's own (`torch.cuda.empty_cache()`
 * then `if device == "npu": torch.npu.empty_cache()`, FastChat): within the
 * next few statements of its block an `if` whose condition names `word`
 * calls the finding's own replacement (a renamed API: its row's rename gave
 * it). Returns that call's line (1-based), 0 when there is none. */
static uint32_t analyze__npu_pair(const PyFile *py, const Finding *f, const char *word) {
  const char *npu = f->replacement;
  if (!npu || !*npu || !f->entry || f->entry->fix_kind != KBFIX_RENAME_QUAL) return 0;
  TSNode st = analyze__own_statement(py, f);
  if (ts_node_is_null(st) || ts_node_end_byte(st) > f->end_byte + 4) return 0; /* the call is the statement */
  uint32_t line = 0;
  TSNode next = ts_node_next_named_sibling(st);
  for (int k = 0; k < 4 && !line && !ts_node_is_null(next); k++, next = ts_node_next_named_sibling(next)) {
    if (pysym_of(next) != PYSYM_IF_STATEMENT) continue;
    TSNode cond = pysym_child(next, PYFIELD_CONDITION), body = pysym_child(next, PYFIELD_CONSEQUENCE);
    if (ts_node_is_null(cond) || ts_node_is_null(body)) continue;
    uint32_t cs = ts_node_start_byte(cond), bs = ts_node_start_byte(body);
    const char *hit = memmem(py->text + bs, ts_node_end_byte(body) - bs, npu, strlen(npu));
    if (memmem(py->text + cs, ts_node_end_byte(cond) - cs, word, strlen(word)) && hit)
      line = ts_node_start_point(body).row + 1;
  }
  return line;
}

/* The off-by-default switch (row "cli-switch-off") whose branch holds f,
 * or NULL. The file's switches are read once, on the first finding that
 * asks. */
typedef struct {
  const KbEntry *row;
  bool scanned;
  PySwitches sw;
} AnalyzeSwitches;

static const char *analyze__switch(const PyFile *py, TextHits *hits, AnalyzeSwitches *s, KbMatchMemo *codes,
                                   const Finding *f) {
  if (!s->row || !s->row->value || f->severity == SEV_HINT || !kb_pattern_match_memo(codes, s->row->arg, f->rule->code))
    return NULL;
  if (!s->scanned) pyswitches_scan(py, hits, s->row->value, kb_template("cli-switch-kept"), &s->sw);
  s->scanned = true;
  return pyswitches_branch(py, &s->sw, f->start_byte, f->end_byte);
}

/* Guarded, inference-only and transfer_to_npu marks come from the Python
 * facts; they change priority, not presence. */
static void analyze__mark_python(const char *path, const PyFile *py, TextHits *hits, FindingList *out, uint32_t *tests) {
  /* Code under a condition that names the NPU already has its Ascend path;
   * the condition of a test-skip decorator is not code to port; skipped
   * tests and torch 1.x fallbacks never run with torch_npu; rules marked
   * not_in_tests do not apply to test code. */
  size_t w = 0;
  KbMatchMemo codes = {0}; /* rows against rule codes: a dozen rows ask about every finding */
  bool package = py->main_blocks.len && analyze__main_is_selftest(py);
  bool test_file = context_is_test_path(path) || analyze__test_module(path, py);
  const KbEntry *harness = kb_lookup(KB_DETECTOR, "test-harness-rules", NULL, 0);
  for (size_t i = 0; i < out->len; i++) {
    uint32_t at = out->items[i].start_byte;
    bool test = analyze__test_rule_memo(harness, &codes, &out->items[i]) && analyze__in_test(test_file, py, at, package);
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
  const KbEntry *gates = kb_lookup(KB_DETECTOR, "fast-path-gate", NULL, 0);
  const KbEntry *workaround = kb_lookup(KB_DETECTOR, "cuda-workaround-branch", NULL, 0);
  const KbEntry *dead_defaults = kb_lookup(KB_DETECTOR, "dead-default", NULL, 0);
  const KbEntry *unread_default = kb_lookup(KB_DETECTOR, "unread-default", NULL, 0);
  const KbEntry *unused = kb_lookup(KB_DETECTOR, "unused-local", NULL, 0);
  const KbEntry *overridden = kb_lookup(KB_DETECTOR, "overridden-default", NULL, 0);
  const KbEntry *unentered = kb_lookup(KB_DETECTOR, "with-and-unentered", NULL, 0);
  const KbEntry *speedup = kb_lookup(KB_DETECTOR, "cuda-only-speedup", NULL, 0);
  const KbEntry *selection = kb_lookup(KB_DETECTOR, "cuda-only-selection", NULL, 0);
  const KbEntry *off_switch = kb_lookup(KB_DETECTOR, "cuda-off-switch", NULL, 0);
  const KbEntry *optional = kb_lookup(KB_DETECTOR, "cuda-optional-fallback", NULL, 0);
  const KbEntry *amp = kb_lookup(KB_DETECTOR, "amp-decorator-unchanged", NULL, 0);
  const KbEntry *ort = kb_lookup(KB_DETECTOR, "ort-provider-device", NULL, 0);
  const KbEntry *paired = kb_lookup(KB_DETECTOR, "npu-paired-call", NULL, 0);
  const KbEntry *caught = kb_lookup(KB_DETECTOR, "caught-cuda-error", NULL, 0);
  const KbEntry *reported = kb_lookup(KB_DETECTOR, "reported-only", NULL, 0);
  const KbEntry *required = kb_lookup(KB_DETECTOR, "required-import", NULL, 0);
  const KbEntry *off_flag = kb_lookup(KB_DETECTOR, "off-flag", NULL, 0);
  const KbEntry *fresh = kb_lookup(KB_DETECTOR, "constructor-cache-release", NULL, 0);
  const char *releases = kb_template("cache-releases"), *moves = kb_template("cache-device-moves"),
             *conversions = kb_template("cache-conversions");
  if (!releases || !moves || !conversions || (fresh && !fresh->value)) fresh = NULL;
  PyOffFlags off_flags = {0}; /* attributes asked about, with their verdicts */
  const char *reports = kb_template("report-calls"), *passes = kb_template("report-pass-through");
  if (!reports || !passes) reported = NULL;
  if (ort && (!ort->value || !ort->replacement)) ort = NULL;
  int ort_named = -1; /* whether the file names the provider: scanned for the first device string asked about */
  AnalyzeSwitches switches = {kb_lookup(KB_DETECTOR, "cli-switch-off", NULL, 0), false, {{0}, {0}}};
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    f->guarded = f->guarded || pyfile_in_ranges(py->guarded.items, py->guarded.len, f->start_byte) ||
                 analyze__fallback_bound(py, f);
    f->inference_only = f->inference_only || pyfile_in_ranges(py->inference.items, py->inference.len, f->start_byte);
    if (py->transfer_to_npu) finding_mark_transfer(f, NULL);
    analyze__note_required(py, required, f);
    bool optin = pyfile_in_ranges(py->optin.items, py->optin.len, f->start_byte);
    if (f->guarded && !strstr(f->message, "[guarded")) /* behind an opt-in flag the default path is the fallback */
      finding_append_note(f, optin ? "[guarded: behind an opt-in flag]" : "[guarded: a fallback exists]",
                          optin ? "［受可选开关保护］" : "［已有回退路径］");
    /* a fallback the NPU takes (an import guarded with a fallback, an availability flag, an opt-in
     * flag off by default) leaves nothing that must change there: porting the fast path is an
     * optimization, a hint (blind reviews: 2 of 18 opt-in findings real, then 1 of 7 guarded ones) */
    if (f->guarded && kb_domain(f->rule->code) >= 2) f->severity = SEV_HINT;
    if (!f->gate && kb_domain(f->rule->code) >= 2 && py->option_gates.len) f->gate = pyfile_option_at(py, f->start_byte);
    /* the innermost branch of a flag the file turns off for good decides: whether another file
     * turns it on is the project's to say (fold.c) */
    const char *flag = off_flag && off_flag->arg && f->severity != SEV_HINT && kb_pattern_match_memo(&codes, off_flag->arg, f->rule->code)
                           ? pyoffflags_branch(py, hits, &off_flags, f->start_byte, f->end_byte)
                           : NULL;
    if (flag) {
      free(f->gate);
      f->gate = xasprintf("self.%s", flag);
    }
    const char *sw = analyze__switch(py, hits, &switches, &codes, f);
    if (sw) {
      f->severity = SEV_HINT;
      kb_append_note(f, switches.row, sw, NULL);
    }
    char *param = NULL;
    bool unread = false;
    uint32_t set_at = dead_defaults && kb_pattern_match_memo(&codes, dead_defaults->arg, f->rule->code)
                          ? analyze__dead_default(py, f, &param, &unread)
                          : 0;
    if (set_at) {
      char line[16];
      snprintf(line, sizeof line, "%u", set_at);
      f->severity = SEV_HINT;
      kb_append_note(f, dead_defaults, param, line);
    } else if (unread && unread_default) {
      f->severity = SEV_HINT;
      kb_append_note(f, unread_default, param, NULL);
    }
    free(param);
    param = NULL;
    size_t passed = !set_at && !unread && overridden && kb_pattern_match_memo(&codes, overridden->arg, f->rule->code) ? analyze__nested_default(py, f, &param) : 0;
    if (passed) {
      char calls[32];
      snprintf(calls, sizeof calls, passed == 1 ? "%zu call" : "%zu calls", passed);
      f->severity = SEV_HINT;
      kb_append_note(f, overridden, param, calls);
    }
    free(param);
    char *local = unused && kb_pattern_match_memo(&codes, unused->arg, f->rule->code) ? analyze__unused_local(py, f) : NULL;
    if (local) {
      f->severity = SEV_HINT;
      kb_append_note(f, unused, local, NULL);
      free(local);
    }
    if (ort && kb_pattern_match_memo(&codes, ort->arg, f->rule->code) && ort_named < 0)
      ort_named = texthits_within(hits, py->text, py->len, ort->value, strlen(ort->value), 0, py->len);
    if (ort_named > 0 && kb_pattern_match_memo(&codes, ort->arg, f->rule->code) && analyze__function_names(py, f, ort->value) &&
        !analyze__argument_of(py, f, kb_template("torch-device-calls")) &&
        !analyze__bound_to(py, f, kb_template("torch-device-calls")))
      analyze__readvise(f, ort);
    if (speedup && speedup->value && kb_pattern_match_memo(&codes, speedup->arg, f->rule->code) &&
        analyze__cuda_speedup(py, f, speedup->value))
      analyze__hint(f, speedup);
    /* the three availability rows ask of the same choice: found once */
    bool asks_selection = selection && selection->value && kb_pattern_match_memo(&codes, selection->arg, f->rule->code);
    bool asks_optional = optional && optional->value && kb_pattern_match_memo(&codes, optional->arg, f->rule->code);
    bool asks_off = off_switch && off_switch->value && kb_pattern_match_memo(&codes, off_switch->arg, f->rule->code);
    int arm = -1;
    TSNode choice = asks_selection || asks_optional || asks_off ? analyze__choice_of(py, f, &arm) : (TSNode){0};
    char *picked = asks_selection ? analyze__cuda_only_selection(py, choice, arm, selection->value) : NULL;
    if (picked) {
      f->severity = SEV_HINT;
      kb_append_note(f, selection, picked, NULL);
      free(picked);
    }
    if (asks_optional && analyze__cuda_optional(py, choice, arm, optional->value)) analyze__hint(f, optional);
    if (asks_off && analyze__cuda_off_switch(py, choice, off_switch->value)) analyze__hint(f, off_switch);
    if (amp && amp->arg && amp->value && f->subject && strcmp(f->rule->code, amp->code) == 0 &&
        kb_pattern_match(amp->arg, f->subject) &&
        !analyze__names_keyword(py, f, amp->value))
      analyze__hint(f, amp);
    if (unentered && kb_pattern_match_memo(&codes, unentered->arg, f->rule->code) && analyze__with_and_left(py, f))
      analyze__hint(f, unentered);
    if (caught && caught->value && f->subject && kb_pattern_match_memo(&codes, caught->arg, f->rule->code) &&
        kb_pattern_match(caught->value, f->subject) && analyze__caught_type(py, f))
      analyze__hint(f, caught);
    if (fresh && f->subject && kb_pattern_match_memo(&codes, fresh->arg, f->rule->code) &&
        kb_pattern_match(fresh->value, f->subject) && analyze__fresh_constructor(py, f, releases, moves, conversions))
      analyze__hint(f, fresh);
    if (reported && reported->value && f->subject && kb_pattern_match_memo(&codes, reported->arg, f->rule->code) &&
        kb_pattern_match(reported->value, f->subject) && analyze__reported_only(py, f, reports, passes))
      analyze__hint(f, reported);
    uint32_t pair = paired && paired->value && kb_pattern_match_memo(&codes, paired->arg, f->rule->code)
                        ? analyze__npu_pair(py, f, paired->value)
                        : 0;
    if (pair) {
      char line[16];
      snprintf(line, sizeof line, "%u", pair);
      f->severity = SEV_HINT;
      kb_append_note(f, paired, f->subject, line);
    }
    if (workaround && workaround->value && kb_pattern_match_memo(&codes, workaround->arg, f->rule->code) &&
        analyze__workaround_branch(py, f, workaround->value)) {
      analyze__hint(f, workaround);
    } else if (gates && kb_pattern_match_memo(&codes, gates->arg, f->rule->code) && analyze__fast_path_gate(py, f)) {
      if (f->fix == FIX_SAFE) f->fix = FIX_UNSAFE; /* rewritten, the gate sends the NPU into the unported kernel */
      analyze__hint(f, gates);
    }
  }
  pyswitches_free(&switches.sw);
  pyoffflags_free(&off_flags);
}

/* Drops findings of unselected codes and rows that do not apply to the chip. */
static void analyze__filter(const AnalyzeOptions *opt, FindingList *out) {
  size_t w = 0;
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    bool keep = context_code_selected(opt, f->rule->code) &&
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
  reach_facts_free(f->reach);
  f->reach = NULL;
  findings_free(&f->chains);
}

typedef Array(uint32_t) LineStarts;

static void analyze__line_starts(const char *text, size_t len, LineStarts *ls) {
  ls->items = util_line_starts(text, len, &ls->len);
  ls->cap = ls->len;
}

static void analyze__facts(const char *text, size_t len, const PyFile *py, PyFactsCache *cache, const char *key,
                           const LineStarts *ls, FileFacts *facts) {
  /* the line starts count a lone CR too; without one they are the newlines plus one */
  uint32_t lines = len > 0 ? 1 : 0;
  if (len > 0 && ls->len && !memchr(text, '\r', len)) lines = (uint32_t)ls->len;
  else
    for (const char *p = text, *end = text + len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) lines++;
  if (len > 0 && text[len - 1] == '\n') lines--;
  facts->lines = lines;
  if (!py) return;
  facts->has_main_guard = py->has_main_guard;
  facts->py = pyfacts_build_cached(py, cache, key, ls->items, ls->len);
  facts->runs_code = facts->py && facts->py->runs_calls;
  for (size_t i = 0; i < py->imports.len; i++) array_push(&facts->imports, xstrdup(py->imports.items[i].module));
}

/* A byte offset and where its row and code-point column go. */
typedef struct {
  uint32_t at;
  uint32_t *row, *col;
} AnalyzePos;

typedef Array(AnalyzePos) AnalyzePosList;

/* Sorts by offset: a merge of runs, for the list is mostly in order (each
 * finding's own offsets ascend, and units come in document order), without
 * qsort's call per comparison. */
static void analyze__pos_sort(AnalyzePosList *p) {
  size_t n = p->len;
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; i++) sorted = p->items[i - 1].at <= p->items[i].at;
  if (sorted) return;
  AnalyzePos *a = p->items, *b = xmalloc(n * sizeof *b);
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) b[k++] = a[j].at < a[i].at ? a[j++] : a[i++];
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    AnalyzePos *t = a;
    a = b;
    b = t;
  }
  if (a != p->items) {
    memcpy(p->items, a, n * sizeof *a);
    b = a;
  }
  free(b);
}

/* Rows and code-point columns of every offset in one sweep: in offset
 * order, each column continues from the previous offset on its line, so
 * many findings on one long line cost the line once, not once each. */
static void analyze__points(const char *text, const LineStarts *ls, AnalyzePosList *p) {
  analyze__pos_sort(p);
  size_t line = 0;
  uint32_t from = 0, col = 0;
  for (size_t i = 0; i < p->len; i++) {
    uint32_t at = p->items[i].at;
    size_t before = line;
    if (line + 1 < ls->len && ls->items[line + 1] <= at) { /* a later line: the last start <= at */
      size_t lo = line + 1, hi = ls->len;
      while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ls->items[mid] <= at) lo = mid;
        else hi = mid;
      }
      line = lo;
    }
    if (line != before) {
      from = ls->items[line];
      col = 0;
    }
    for (; from < at; from++)
      if (((unsigned char)text[from] & 0xC0) != 0x80) col++;
    *p->items[i].row = (uint32_t)line;
    *p->items[i].col = col;
  }
}

static void analyze__want(AnalyzePosList *p, uint32_t at, uint32_t *row, uint32_t *col) {
  AnalyzePos x = {at, row, col};
  array_push(p, x);
}

/* Keeps a finding's ranges inside the text (start <= end <= len). */
static void analyze__clamp(Finding *f, size_t len) {
  for (size_t k = 0; k < f->edits.len; k++) {
    TextEdit *e = &f->edits.items[k];
    if (e->end > len) e->end = (uint32_t)len;
    if (e->start > e->end) e->start = e->end;
  }
  for (size_t k = 0; k < f->related.len; k++) {
    Related *r = &f->related.items[k];
    if (r->end > len) r->end = (uint32_t)len;
    if (r->start > r->end) r->start = r->end;
  }
  if (f->end_byte > len) f->end_byte = (uint32_t)len;
  if (f->start_byte > f->end_byte) f->start_byte = f->end_byte;
}

/* Rows and columns of every finding, related place and edit from byte offsets with the
 * file's line starts (*ls, found once per version): tree-sitter counts rows
 * at "\n" only, LSP and editors also break at a lone "\r". Code-point
 * columns skip a UTF-8 byte-order mark on the first line. All offsets are
 * placed in one sweep (analyze__points). */
static void analyze__columns(const char *text, size_t len, const LineStarts *ls, FindingList *l) {
  if (!l->len) return;
  AnalyzePosList want = {0};
  array_reserve(&want, 2 * l->len);
  for (size_t i = 0; i < l->len; i++) {
    Finding *f = &l->items[i];
    analyze__clamp(f, len);
    for (size_t k = 0; k < f->edits.len; k++) {
      TextEdit *e = &f->edits.items[k];
      analyze__want(&want, e->start, &e->start_row, &e->start_char);
      analyze__want(&want, e->end, &e->end_row, &e->end_char);
    }
    for (size_t k = 0; k < f->related.len; k++) {
      Related *r = &f->related.items[k];
      analyze__want(&want, r->start, &r->start_row, &r->start_char);
      analyze__want(&want, r->end, &r->end_row, &r->end_char);
    }
    analyze__want(&want, f->start_byte, &f->start_row, &f->start_char);
    analyze__want(&want, f->end_byte, &f->end_row, &f->end_char);
  }
  analyze__points(text, ls, &want);
  array_free(&want);
  bool bom = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
  for (size_t i = 0; i < l->len; i++) {
    Finding *f = &l->items[i];
    for (size_t k = 0; k < f->edits.len && bom; k++) {
      TextEdit *e = &f->edits.items[k];
      if (e->start_row == 0 && e->start_char > 0) e->start_char--;
      if (e->end_row == 0 && e->end_char > 0) e->end_char--;
    }
    f->start_col = f->start_byte - ls->items[f->start_row];
    f->end_col = f->end_byte - ls->items[f->end_row];
    if (bom && f->start_row == 0 && f->start_char > 0) f->start_char--;
    if (bom && f->end_row == 0 && f->end_char > 0) f->end_char--;
  }
}

/* What suppression and the folds read before the findings are final: each
 * finding's first and last row (analyze__columns places everything after). */
static void analyze__rows(size_t len, const LineStarts *ls, FindingList *l) {
  for (size_t i = 0; i < l->len; i++) {
    Finding *f = &l->items[i];
    analyze__clamp(f, len);
    f->start_row = util_row_of(ls->items, ls->len, f->start_byte);
    f->end_row = util_row_of(ls->items, ls->len, f->end_byte);
  }
}

/* Keeps the first ANALYZE_MAX_FINDINGS findings (sorted) and puts one
 * ASC003 note in place of the rest; its count is a lower bound ("N+") when
 * the walk stopped at ANALYZE_RAW_LIMIT. */
static void analyze__cap(FindingList *l, bool truncated) {
  const KbRule *rule = kb_rule("ASC003");
  if (l->len <= ANALYZE_MAX_FINDINGS || !rule) return;
  const Finding first = l->items[ANALYZE_MAX_FINDINGS]; /* position of the first one left out */
  uint32_t at = first.start_byte, row = first.start_row, col = first.start_col, ch = first.start_char;
  size_t more = l->len - ANALYZE_MAX_FINDINGS;
  for (size_t i = ANALYZE_MAX_FINDINGS; i < l->len; i++) finding_free(&l->items[i]);
  l->len = ANALYZE_MAX_FINDINGS;
  char subj[32];
  snprintf(subj, sizeof subj, truncated ? "%zu+" : "%zu", more); /* truncated: the walk stopped early */
  Finding *f = kb_emit(l, rule, NULL, subj, NULL, at, at, row, col, row, col);
  f->start_char = f->end_char = ch;
}

/* The file's domain findings, if it has any, give way to one ASC002 hint
 * of `row` at its start, saying `subj` (taken). */
static void analyze__give_way(const AnalyzeOptions *opt, const KbEntry *row, char *subj, FindingList *out, int python) {
  const KbRule *rule = row ? context_rule(opt, row->code) : NULL;
  bool any = false;
  for (size_t i = 0; rule && i < out->len && !any; i++) any = analyze__in_domain(&python, &out->items[i]);
  if (any) {
    findings_drop_if(out, analyze__in_domain, &python);
    Finding *f = kb_emit(out, rule, row, subj, row->replacement, 0, 0, 0, 0, 0, 0);
    f->start_char = f->end_char = 0;
  }
  free(subj);
}

/* Step 8: a file with an NPU version beside it (cuda_accelerator.py next to
 * npu_accelerator.py) is the CUDA implementation of an abstraction the
 * project already ported: its Python findings are replaced by one ASC002
 * hint naming the twin, at the start of the file. */
static void analyze__npu_sibling(const AnalyzeOptions *opt, const char *sibling, FindingList *out) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "other-device-stack", opt->user_entries, opt->n_user_entries);
  analyze__give_way(opt, row, xasprintf("CUDA, with the NPU version beside it (%s)", sibling), out, 0);
}

/* The other device a path names (the "other-device-path" row: a folder
 * or file-name word such as `xpu`, `hpu`, `metax`, `gcu`), or NULL. Only
 * the part inside the project: where a checkout lives says nothing. */
static const char *analyze__device_word(const KbEntry *row, const char *path, char *word, size_t cap) {
  if (!path || path[0] == '/' || path[0] == '\\') return NULL; /* absolute: not known inside a project */
  const char *w;
  size_t n;
  for (const char *p = path; util_path_word(&p, &w, &n);) {
    if (n >= cap) continue;
    for (size_t k = 0; k < n; k++) word[k] = (char)tolower((unsigned char)w[k]);
    word[n] = '\0';
    if (kb_pattern_match(row->arg, word)) return word;
  }
  return NULL;
}

/* Step 10 too: a file whose path names another accelerator's backend
 * (`backends/hpu/ops.py`, `ops/norm/enflame_gcu/layer_norm.py`,
 * `platform/metax_cuda.py`) is that device's code, selected where that
 * device is: its findings give way to one ASC002 hint at its start. A
 * requirements file so named (`requirements-mac.txt`, `requirements_rocm.txt`)
 * is that platform's install: its dependency findings give way too. */
static void analyze__other_device_path(const AnalyzeOptions *opt, const char *rel, FileKind kind, FindingList *out) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "other-device-path", opt->user_entries, opt->n_user_entries);
  char word[32];
  const char *dev = row && row->arg ? analyze__device_word(row, rel, word, sizeof word) : NULL;
  if (dev)
    analyze__give_way(opt, row, xasprintf("another device (its path names %s)", dev), out, kind == FILE_REQUIREMENTS ? -1 : 0);
}

/* Step 9: codes the project's configuration ignores for this file. */
static bool analyze__file_ignored(void *data, const Finding *f) {
  const AnalyzeFile *file = data;
  for (size_t i = 0; i < file->n_file_ignores; i++)
    if (file->file_ignores[i] && util_starts_with(f->rule->code, file->file_ignores[i])) return true;
  return false;
}

/* Binary content: a NUL (or the byte standing for one), or more than the
 * 32-bit offsets of the findings can address. An ELF file is binary by
 * nature and read by its own parser. */
static bool analyze__binary(const AnalyzeFile *file, FileKind kind, const char *text, size_t len) {
  if (file->nul_byte && memchr(text, file->nul_byte, len)) return true;
  return kind != FILE_ELF && (memchr(text, '\0', len) || len > UINT32_MAX / 2);
}

/* Where a module-level flag is set (`HAS_FA3 = find_spec(...)` at column 0):
 * the byte of its name, or UINT32_MAX. */
static uint32_t analyze__flag_set_at(const PyFile *py, const char *name, size_t n) {
  for (const char *t = py->text, *at = t; (at = memmem(at, py->len - (size_t)(at - t), name, n)) != NULL; at++) {
    if (at > t && at[-1] != '\n') continue;
    const char *q = at + n;
    while (q < t + py->len && *q == ' ') q++;
    if (q + 1 < t + py->len && q[0] == '=' && q[1] != '=') return (uint32_t)(at - t);
  }
  return UINT32_MAX;
}

/* The module-level flag an availability condition tests, where it is set:
 * false when none of its names is such a flag. */
static bool analyze__cond_flag(const PyFile *py, TSNode cond, uint32_t *at, uint32_t *len) {
  TSTreeCursor cur = ts_tree_cursor_new(cond);
  bool found = false;
  for (bool down = true;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (down && pysym_of(n) == PYSYM_IDENTIFIER) {
      uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
      uint32_t set = analyze__flag_set_at(py, py->text + s, e - s);
      if (set != UINT32_MAX && set != s) {
        *at = set;
        *len = e - s;
        found = true;
        break;
      }
    }
    if (down && ts_tree_cursor_goto_first_child(&cur)) continue;
    if (ts_tree_cursor_goto_next_sibling(&cur)) {
      down = true;
      continue;
    }
    if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), cond)) break;
    down = false;
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

/* A guarded finding in a branch on a module-level availability flag
 * (`if HAS_FA3 and is_hopper_arch():` after `HAS_FA3 =
 * importlib.util.find_spec("flash_attn_interface") is not None`) has the
 * flag's definition as a related location: where a port settles the
 * choice for the NPU. The innermost such branch counts. */
typedef struct {
  uint32_t cond, at, len; /* a condition's start byte; where its flag is set (len 0: none) */
} AnalyzeFlagSeen;

static void analyze__guard_flags(const PyFile *py, FindingList *l) {
  Array(AnalyzeFlagSeen) seen = {0}; /* the findings of one branch share its condition: one scan of the file each */
  for (size_t i = 0; i < l->len; i++) {
    Finding *f = &l->items[i];
    if (!f->guarded) continue;
    ForestUp up = forest_paths_up(py->paths, f->start_byte, f->end_byte);
    const char *field, *from = NULL;
    for (TSNode c; forest_up_next(&up, &c, &field); from = field) {
      PySym k = pysym_of(c);
      if (k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_CLASS_DEFINITION) break;
      if ((k != PYSYM_IF_STATEMENT && k != PYSYM_ELIF_CLAUSE) || !from || strcmp(from, "consequence") != 0) continue;
      TSNode cond = pysym_child(c, PYFIELD_CONDITION);
      if (ts_node_is_null(cond)) continue;
      size_t j = 0;
      while (j < seen.len && seen.items[j].cond != ts_node_start_byte(cond)) j++;
      if (j == seen.len) {
        AnalyzeFlagSeen e = {ts_node_start_byte(cond), 0, 0};
        if (pyfile_is_availability(py, cond) && !analyze__cond_flag(py, cond, &e.at, &e.len)) e.len = 0;
        array_push(&seen, e);
      }
      uint32_t at = seen.items[j].at, len = seen.items[j].len;
      if (!len) continue;
      char *msg = xasprintf("%.*s, set here, selects this path", (int)len, py->text + at);
      finding_add_related(f, at, at + len, msg);
      free(msg);
      break;
    }
    forest_up_end(&up);
  }
  array_free(&seen);
}

/* Steps 2 to 11 over the detectors' findings of one file (see analyze.h).
 * Returns how many findings test code dropped (FileFacts.test_findings). */
static uint32_t analyze__refine(const AnalyzeFile *file, const AnalyzeCtx *ctx, const PyFile *py, FindingList *mine,
                                const LineStarts *ls) {
  const AnalyzeOptions *opt = ctx->opt;
  uint32_t tests = 0;
  if (py) analyze__other_device(ctx, py, mine);
  if (py) analyze__mark_python(ctx->path, py, ctx->hits, mine, &tests);
  if (ctx->kind == FILE_CUDA && context_is_test_path(ctx->path)) { /* kernel tests and benchmarks */
    for (size_t i = 0; i < mine->len; i++) tests += analyze__test_rule(&mine->items[i]);
    findings_drop_if(mine, analyze__drop_test, NULL);
  }
  /* the developers' requirements (dev-requirements.txt, requirements/test.txt)
   * install nothing the product runs: their packages are test code's */
  if (ctx->kind == FILE_REQUIREMENTS && context_is_test_path(ctx->path)) {
    tests += (uint32_t)mine->len;
    findings_drop_if(mine, analyze__drop_any, NULL);
  }
  analyze__filter(opt, mine);
  analyze__rows(ctx->len, ls, mine);
  suppress_apply(ctx->text, ctx->len, ls->items, ls->len, py, ctx->hits, opt, mine);
  /* one finding per work item (needs rows); the folds compare findings
   * pairwise, so a file past the findings limit keeps them unfolded (then
   * capped below) */
  if (mine->len <= ANALYZE_MAX_FINDINGS) fold_findings(ctx, mine);
  if (py) analyze__guard_flags(py, mine);
  /* folds move ranges and add related locations, suppression adds ASC001
   * findings: place them all, once, with the same line starts */
  analyze__columns(ctx->text, ctx->len, ls, mine);
  if (file->npu_sibling) analyze__npu_sibling(opt, file->npu_sibling, mine);
  else if (file->path) analyze__other_device_path(opt, file->path, ctx->kind, mine);
  if (file->n_file_ignores) findings_drop_if(mine, analyze__file_ignored, (void *)file);
  findings_sort(mine);
  analyze__cap(mine, ctx->truncated);
  return tests;
}

/* ---- the memo: unit results kept between versions --------------------------- */

struct AnalyzeMemo {
  Array(MemoUnit) units;
  char *key;              /* file facts and options the units were made with; NULL: none */
  PyFactsCache *facts;    /* the project model's facts of each statement (pyfacts.h) */
  PyFileCache *pyfile;    /* the resolver's walk of each statement (resolver.h) */
  TextHits *hits;         /* words asked of the whole text (texthits.h) */
  size_t reused, ran;
};

AnalyzeMemo *analyze_memo_new(void) {
  AnalyzeMemo *m = xcalloc(1, sizeof *m);
  m->facts = pyfacts_cache_new();
  m->pyfile = pyfile_cache_new();
  m->hits = texthits_new();
  return m;
}

static void analyze__calls_free(UnitCalls *c) {
  for (size_t i = 0; i < c->len; i++) free(c->items[i].name);
  array_free(c);
}

static void analyze__memo_unit_free(MemoUnit *m) {
  analyze__calls_free(&m->u.calls);
  context_queries_free(&m->u.queries);
  findings_free(&m->findings);
  array_free(&m->ranges[0]);
  array_free(&m->ranges[1]);
  unit_links_free(&m->links);
}

static void analyze__memo_clear(AnalyzeMemo *m) {
  for (size_t i = 0; i < m->units.len; i++) analyze__memo_unit_free(&m->units.items[i]);
  m->units.len = 0;
  free(m->key);
  m->key = NULL;
}

void analyze_memo_free(AnalyzeMemo *m) {
  if (!m) return;
  analyze__memo_clear(m);
  pyfacts_cache_free(m->facts);
  pyfile_cache_free(m->pyfile);
  texthits_free(m->hits);
  array_free(&m->units);
  free(m);
}

void analyze_memo_edit(AnalyzeMemo *m, uint32_t start, uint32_t old_end, uint32_t new_end) {
  int64_t delta = (int64_t)new_end - (int64_t)old_end;
  texthits_edit(m->hits, start, old_end, new_end);
  for (size_t i = 0; i < m->units.len; i++) {
    AnalyzeUnit *u = &m->units.items[i].u;
    if (u->end < start) continue;
    if (u->start > old_end) { /* wholly after the edit: moves */
      u->start = (uint32_t)(u->start + delta);
      u->end = (uint32_t)(u->end + delta);
      continue;
    }
    /* touched, or the edit is at its edge (typing at the end of a unit's last line extends it) */
    m->units.items[i].dirty = true;
    u->end = u->end >= old_end ? (uint32_t)(u->end + delta) : new_end;
  }
}

void analyze_memo_changed(AnalyzeMemo *m, const TSRange *r, size_t n) {
  /* half-open both: a statement parsed again up to the next unit's first
   * byte (its trailing blank lines) leaves that unit's syntax alone */
  for (size_t k = 0; k < n; k++)
    for (size_t i = 0; i < m->units.len; i++) {
      AnalyzeUnit *u = &m->units.items[i].u;
      if (r[k].start_byte < u->end && r[k].end_byte > u->start) m->units.items[i].dirty = true;
    }
}

void analyze_memo_stats(const AnalyzeMemo *m, size_t *reused, size_t *ran) {
  *reused = m->reused;
  *ran = m->ran;
}

/* What every unit's findings depend on besides the unit's own text: the
 * options, the path, the module-level import bindings (with their places:
 * a lookup takes the last import before the use), every binding's root
 * for "imports torch", the torch_npu and transfer_to_npu flags and where
 * an `import torch_npu` would go. Two versions with the same key and the
 * same unit text give the unit the same findings. Caller frees. */
static char *analyze__key(const AnalyzeFile *file, const AnalyzeOptions *o, const PyFile *py) {
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s\n%u %s %d %d %p %zu %p %zu\n", file->path, o->chip, o->torch_npu ? o->torch_npu : "",
            o->mindiesd, o->report_unused_noqa, (const void *)o->user_entries, o->n_user_entries,
            (const void *)o->user_rules, o->n_user_rules);
  for (size_t i = 0; i < o->n_select; i++) sb_printf(&sb, "+%s", o->select[i] ? o->select[i] : "");
  for (size_t i = 0; i < o->n_ignore; i++) sb_printf(&sb, "-%s", o->ignore[i] ? o->ignore[i] : "");
  bool torch = false;
  for (size_t i = 0; i < py->bindings.len; i++) {
    const PyBinding *b = &py->bindings.items[i];
    torch = torch || util_starts_with(b->qualname, "torch");
    if (b->module_scope)
      sb_printf(&sb, "\n%s=%s %d %u %u %u %u %u", b->local, b->qualname, b->from_import, b->def_byte, b->module_start,
                b->module_end, b->name_start, b->name_end);
  }
  char *ins = pysyntax_import_insertion(py, "import torch_npu");
  sb_printf(&sb, "\n%d %d %d %d %d %u %u %u %u %s", torch, py->imports_torch_npu, py->transfer_to_npu,
            py->has_torch_import, py->torch_import_plain, py->torch_import_line_start, py->torch_import_line_end,
            py->import_insert_byte, pysyntax_import_point(py), ins ? ins : "");
  free(ins);
  return sb_steal(&sb);
}

/* Moves a kept unit's findings and ranges to where the unit is now: offsets
 * inside the unit move with it (those outside, like the import point, stay);
 * tree-sitter rows move by the unit's row delta, and so do the lines its
 * messages name (UNIT_READS_ROWS: always lines of the unit itself). */
static void analyze__memo_shift(MemoUnit *m, uint32_t new_row) {
  int64_t d = (int64_t)m->u.start - (int64_t)m->orig_start;
  int64_t dr = (int64_t)new_row - (int64_t)m->start_row;
  uint32_t lo = m->orig_start, hi = m->orig_end;
#define ANALYZE__MOVE(x) ((x) = ((x) >= lo && (x) <= hi) ? (uint32_t)((x) + d) : (x))
  FindingList *lists[] = {&m->findings, &m->links.findings, &m->links.added};
  for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
    for (size_t i = 0; i < lists[l]->len; i++) {
      Finding *f = &lists[l]->items[i];
      ANALYZE__MOVE(f->start_byte);
      ANALYZE__MOVE(f->end_byte);
      f->start_row = (uint32_t)(f->start_row + dr);
      f->end_row = (uint32_t)(f->end_row + dr);
      if (m->u.flags & UNIT_READS_ROWS) finding_shift_line_refs(f, dr);
      for (size_t k = 0; k < f->edits.len; k++) {
        ANALYZE__MOVE(f->edits.items[k].start);
        ANALYZE__MOVE(f->edits.items[k].end);
      }
    }
  for (size_t i = 0; i < m->links.sites.len; i++) {
    ANALYZE__MOVE(m->links.sites.items[i].start);
    m->links.sites.items[i].row = (uint32_t)(m->links.sites.items[i].row + dr);
  }
  for (size_t i = 0; i < m->u.calls.len; i++) {
    ANALYZE__MOVE(m->u.calls.items[i].start);
    ANALYZE__MOVE(m->u.calls.items[i].end);
  }
  for (int r = 0; r < 2; r++)
    for (size_t i = 0; i < m->ranges[r].len; i++) {
      ANALYZE__MOVE(m->ranges[r].items[i].start);
      ANALYZE__MOVE(m->ranges[r].items[i].end);
    }
#undef ANALYZE__MOVE
  m->orig_start = m->u.start;
  m->orig_end = m->u.end;
  m->start_row = new_row;
}

/* The kept unit that is exactly this span, clean and free of outside reads,
 * whose questions of the text still get their answers, or NULL. `from`
 * advances over the memo's units (both lists are in document order). */
static MemoUnit *analyze__memo_find(AnalyzeMemo *m, size_t *from, const AnalyzeSpan *sp, const char *text,
                                    size_t len) {
  while (*from < m->units.len && m->units.items[*from].u.start < sp->u.start) (*from)++;
  if (*from >= m->units.len) return NULL;
  MemoUnit *mu = &m->units.items[*from];
  if (mu->u.start != sp->u.start || mu->u.end != sp->u.end || mu->dirty) return NULL;
  if (mu->u.flags & UNIT_READS_FILE) return NULL;
  if (!context_queries_hold(&mu->u, m->hits, text, len)) return NULL;
  return mu;
}

/* Appends n ranges to an Array(ByteRange) of any declaration. */
#define analyze__push_ranges(to, r, n)                                                                           \
  do {                                                                                                           \
    for (size_t i_ = 0; i_ < (n); i_++) array_push((to), (r)[i_]);                                               \
  } while (0)

typedef Array(MemoUnit) MemoUnits;

/* Runs the detectors on one unit of this version into a new MemoUnit,
 * with the guarded and NPU-aware ranges its matcher added; the walk stops
 * at `budget` findings (the file's rest of ANALYZE_RAW_LIMIT). */
static MemoUnit analyze__run_unit(AnalyzeCtx *ctx, PyFile *py, const AnalyzeUnits *us, const AnalyzeSpan *sp,
                                  size_t budget) {
  MemoUnit mu = {0};
  mu.links.file_fold = -1;
  mu.u = sp->u;
  mu.orig_start = sp->u.start;
  mu.orig_end = sp->u.end;
  mu.start_row = sp->start_row;
  size_t g0 = py->guarded.len, n0 = py->npu_aware.len;
  ctx->out = &mu.findings;
  ctx->unit = &mu.u;
  if (analyze__unit(ctx, py, us->tops.items + sp->first, sp->n, budget)) {
    mu.u.flags |= UNIT_READS_FILE; /* cut by the file's budget: never kept */
    ctx->truncated = true;
  }
  ctx->unit = NULL;
  analyze__push_ranges(&mu.ranges[0], py->guarded.items + g0, py->guarded.len - g0);
  analyze__push_ranges(&mu.ranges[1], py->npu_aware.items + n0, py->npu_aware.len - n0);
  return mu;
}

/* A unit's findings and calls join the file's: copies when the memo keeps
 * the unit (then it goes to `next`), else moved and the unit dropped. */
static void analyze__join_unit(MemoUnit *mu, uint32_t origin, FindingList *all, UnitCalls *calls, MemoUnits *next) {
  /* a unit that reads outside itself is never taken from the memo: its
   * findings move, and the memo keeps only its place */
  bool copy = next && !(mu->u.flags & UNIT_READS_FILE);
  array_reserve(all, mu->findings.len);
  for (size_t k = 0; k < mu->findings.len; k++) {
    array_push(all, copy ? finding_copy(&mu->findings.items[k]) : mu->findings.items[k]);
    all->items[all->len - 1].origin = origin; /* which unit's: the attention pass may replace them */
  }
  if (next && !copy) mu->findings.len = 0;
  /* calls are moved, or borrowed from the unit the memo keeps (they are read
   * before the memo changes again) */
  array_reserve(calls, mu->u.calls.len);
  for (size_t k = 0; k < mu->u.calls.len; k++) array_push(calls, mu->u.calls.items[k]);
  if (next) {
    array_push(next, *mu);
    return;
  }
  array_free(&mu->u.calls);
  context_queries_free(&mu->u.queries);
  array_free(&mu->findings);
  array_free(&mu->ranges[0]);
  array_free(&mu->ranges[1]);
  unit_links_free(&mu->links);
}

/* The memo's units become this version's. */
static void analyze__memo_install(AnalyzeMemo *memo, MemoUnits *next, const char *key, size_t reused) {
  analyze__memo_clear(memo);
  array_free(&memo->units);
  memo->units.items = next->items;
  memo->units.len = next->len;
  memo->units.cap = next->cap;
  memo->key = xstrdup(key);
  memo->ran = next->len - reused;
  memo->reused = reused;
}

/* Runs (or takes from the memo) every unit of a Python file, in order,
 * appending copies of their findings to ctx->out and their calls to
 * `calls` (borrowed from the memo's units when there is a memo, else
 * moved); the memo then holds this version's units. Returns the or of the
 * units' flags (each span gets its unit's). */
static unsigned analyze__python_units(AnalyzeCtx *ctx, PyFile *py, AnalyzeUnits *us, AnalyzeMemo *memo,
                                      const char *key, UnitCalls *calls) {
  bool keep = memo && memo->key && strcmp(memo->key, key) == 0;
  MemoUnit **kept = xcalloc(us->spans.len + 1, sizeof *kept);
  size_t from = 0, reused = 0;
  /* the ranges kept units' matchers found are facts of this version too */
  for (size_t i = 0; keep && i < us->spans.len; i++)
    if ((kept[i] = analyze__memo_find(memo, &from, &us->spans.items[i], ctx->text, ctx->len))) {
      analyze__memo_shift(kept[i], us->spans.items[i].start_row);
      analyze__push_ranges(&py->guarded, kept[i]->ranges[0].items, kept[i]->ranges[0].len);
      analyze__push_ranges(&py->npu_aware, kept[i]->ranges[1].items, kept[i]->ranges[1].len);
    }
  FindingList *all = ctx->out;
  MemoUnits next = {0};
  if (memo) array_reserve(&next, us->spans.len);
  if (keep) { /* the last version's totals: the lists are filled without growing */
    size_t nf = 0, nc = 0;
    for (size_t i = 0; i < memo->units.len; i++) nf += memo->units.items[i].findings.len, nc += memo->units.items[i].u.calls.len;
    array_reserve(all, nf + nf / 8);
    array_reserve(calls, nc + nc / 8);
  }
  unsigned flags = 0;
  for (size_t i = 0; i < us->spans.len; i++) {
    MemoUnit mu;
    /* a kept unit whose findings no longer fit the file's budget runs again (cut as a fresh run would be) */
    if (kept[i] && all->len + kept[i]->findings.len >= ANALYZE_RAW_LIMIT) {
      analyze__memo_unit_free(kept[i]);
      memset(kept[i], 0, sizeof *kept[i]);
      kept[i] = NULL;
    }
    if (kept[i]) {
      mu = *kept[i];
      memset(kept[i], 0, sizeof *kept[i]); /* moved to next */
      reused++;
      us->spans.items[i].kept = true;
    } else {
      mu = analyze__run_unit(ctx, py, us, &us->spans.items[i],
                             all->len < ANALYZE_RAW_LIMIT ? ANALYZE_RAW_LIMIT - all->len : 0);
    }
    flags |= mu.u.flags;
    us->spans.items[i].u.flags = mu.u.flags;
    analyze__join_unit(&mu, (uint32_t)(i + 1), all, calls, memo ? &next : NULL);
  }
  ctx->out = all;
  free(kept);
  if (memo) analyze__memo_install(memo, &next, key, reused);
  return flags;
}

/* Every detector over a Python file: by units, then the whole-file work. */
static void analyze__python(const AnalyzeFile *file, AnalyzeCtx *ctx, PyFile *py, const char *key) {
  AnalyzeUnits us = {0};
  analyze__units(ctx->forest, &us);
  UnitCalls calls = {0};
  unsigned flags = analyze__python_units(ctx, py, &us, file->memo, key, &calls);
  analyze__file_detectors(ctx, py, &us, flags, &calls, file->memo ? file->memo->units.items : NULL);
  if (file->memo) array_free(&calls); /* borrowed from the memo's units */
  else analyze__calls_free(&calls);
  array_free(&us.tops);
  array_free(&us.spans);
}

/* Every detector over a file of another kind: one unit, the whole file. */
static void analyze__other(AnalyzeCtx *ctx) {
  AnalyzeUnit whole = {0, (uint32_t)ctx->len, 0, true, {0}, {0}};
  ctx->unit = &whole;
  for (size_t i = 0; i < ANALYZE__DOMAINS; i++)
    if (analyze__table[i].fn) analyze__table[i].fn(ctx);
  ctx->unit = NULL;
}

void analyze_file(const AnalyzeFile *file, const char *text, size_t len, const Forest *forest,
                  const AnalyzeOptions *opt, FindingList *out, FileFacts *facts) {
  const char *path = file->path;
  AnalyzeCtx ctx = {path, context_file_kind(path), text, len, NULL, NULL, opt, out, NULL, false, NULL};
  /* a memo holds the units of the last version analyzed by units */
  if (file->memo && (ctx.kind != FILE_PYTHON || !forest)) analyze__memo_clear(file->memo);
  if (ctx.kind == FILE_UNKNOWN) return;
  /* Files that cannot match any row are not parsed (facts need the parse). */
  if (ctx.kind == FILE_PYTHON && !facts && opt->n_user_entries == 0 && !opt->report_unused_noqa &&
      strcmp(analyze__base(path), "setup.py") != 0 && !prefilter_may_match(text, len))
    return;
  /* binary text, or brackets nested past the parser's limit (nesting.h) */
  if (analyze__binary(file, ctx.kind, text, len) || (!forest && nesting_file_too_deep(ctx.kind, text, len))) {
    if (file->memo) analyze__memo_clear(file->memo);
    return;
  }
  TSParser *parser = NULL;
  Forest own;
  if (analyze_language(ctx.kind)) {
    if (!forest) {
      parser = ts_parser_new();
      forest_init(&own, ctx.kind);
      if (!forest_parse(&own, parser, text, len)) {
        forest_free(&own);
        ts_parser_delete(parser);
        return;
      }
      forest = &own;
    }
    ctx.forest = forest;
  }
  /* rows break at a lone CR too (LSP's, the suppressions' and the project
   * facts' lines): the caller's line starts, or our own */
  LineStarts ls = {0};
  bool own_lines = !(file->line_starts && file->n_lines);
  if (own_lines) analyze__line_starts(text, len, &ls);
  else ls.items = (uint32_t *)file->line_starts, ls.len = file->n_lines; /* borrowed: read only */
  PyFile *py = ctx.kind == FILE_PYTHON ? pyfile_build_cached(ctx.forest, text, len, file->memo ? file->memo->pyfile : NULL, ls.len)
                                        : NULL;
  TextHits *own_hits = NULL; /* without a memo the words asked live for this analysis */
  if (py) ctx.hits = file->memo ? file->memo->hits : (own_hits = texthits_new());
  ctx.py = py;
  /* detectors write this file's findings to `mine`; the refinement stage
   * runs on them before they join the caller's list */
  FindingList mine = {0};
  ctx.out = &mine;
  /* what the kept units and statement facts were made with (the memo's) */
  char *key = py && file->memo ? analyze__key(file, opt, py) : NULL;
  if (py) analyze__python(file, &ctx, py, key);
  else analyze__other(&ctx);
  uint32_t tests = analyze__refine(file, &ctx, py, &mine, &ls);
  array_reserve(out, mine.len);
  for (size_t i = 0; i < mine.len; i++) array_push(out, mine.items[i]);
  array_free(&mine);
  if (facts) analyze__facts(text, len, py, file->memo ? file->memo->facts : NULL, key, &ls, facts);
  if (own_lines) array_free(&ls);
  free(key);
  if (facts) facts->test_findings = tests;
  if (ctx.hits && file->memo) texthits_settle(file->memo->hits);
  texthits_free(own_hits);
  pyfile_free(py);
  if (parser) {
    forest_free(&own);
    ts_parser_delete(parser);
  }
}

void analyze_text(const char *path, const char *text, size_t len, const Forest *forest, const AnalyzeOptions *opt,
                  FindingList *out, FileFacts *facts) {
  AnalyzeFile file = {.path = path};
  analyze_file(&file, text, len, forest, opt, out, facts);
}
