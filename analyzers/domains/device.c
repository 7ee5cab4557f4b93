/* device: ASC2xx detectors that need code rather than a mapping row. The
 * device-layer mappings themselves (torch.cuda.*, .cuda(), device strings,
 * environment variables) are rows in kb.c matched by pymatch; this file also
 * folds a torch.cuda.is_available() guard into the calls it guards. */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/domains.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"
#include "analyzers/python/pysym.h"

#include <stdlib.h>

/* The detector rows of kb_device.def (user rows first). */
static const KbEntry *device__row(const AnalyzeCtx *ctx, const char *name) {
  return kb_lookup(KB_DETECTOR, name, ctx->opt->user_entries, ctx->opt->n_user_entries);
}

/* `.to(0)` / `.to(local_rank)`: an integer device means CUDA. */
static void device__int_to(AnalyzeCtx *ctx, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (!pysyntax_is(fn, "attribute") || !pysyntax_is(args, "argument_list")) return;
  TSNode name = pysym_child(fn, PYFIELD_ATTRIBUTE);
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  if (ne - ns != 2 || memcmp(ctx->text + ns, "to", 2) != 0) return;
  TSNode a = pysyntax_argument(ctx->py, args, "0|device");
  const KbEntry *row = device__row(ctx, "int-device-index");
  if (ts_node_is_null(a) || !row) return;
  bool is_int = pysyntax_is(a, "integer");
  char *txt = NULL;
  if (!is_int) {
    txt = pysyntax_name_text(ctx->py, a);
    /* an imported name (`from .memory import gpu`) holds what its module made, often a torch.device */
    if (!txt || pysyntax_is(a, "string") || !kb_pattern_match(row->arg, txt) ||
        (pysyntax_is(a, "identifier") && pyfile_lookup(ctx->py, txt, strlen(txt), ts_node_start_byte(a)))) {
      free(txt);
      return;
    }
  } else {
    txt = pyfile_node_text(ctx->py, a);
  }
  char *subj = xasprintf(".to(%s)", txt);
  char *repl = xasprintf(".to(f\"npu:{%s}\")", txt);
  TSPoint s = ts_node_start_point(a), e = ts_node_end_point(a);
  Finding *f = kb_emit(ctx->out, kb_rule(row->code), row, subj, repl, ts_node_start_byte(a),
                       ts_node_end_byte(a), s.row, s.column, e.row, e.column);
  f->fix = FIX_UNSAFE;
  char *edit = xasprintf("f\"npu:{%s}\"", txt);
  finding_add_edit(f, ts_node_start_byte(a), ts_node_end_byte(a), edit);
  if (!ctx->py->imports_torch_npu) {
    char *ins = pysyntax_import_insertion(ctx->py, "import torch_npu");
    uint32_t at = pysyntax_import_point(ctx->py);
    finding_add_edit(f, at, at, ins);
    f->fix_needs_torch_npu = true;
    free(ins);
  }
  free(edit);
  free(repl);
  free(subj);
  free(txt);
}

/* `torch.cuda.get_device_properties(i).major` and `.minor` */
static void device__props_fields(AnalyzeCtx *ctx, TSNode attr) {
  TSNode obj = pysym_child(attr, PYFIELD_OBJECT);
  TSNode name = pysym_child(attr, PYFIELD_ATTRIBUTE);
  if (!pysyntax_is(obj, "call") || ts_node_is_null(name)) return;
  const KbEntry *row = device__row(ctx, "capability-fields");
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  char *field = xstrndup(ctx->text + ns, ne - ns);
  bool hit = row && kb_pattern_match(row->value, field);
  free(field);
  if (!hit) return;
  char *q = pyfile_qualname(ctx->py, obj);
  if (q && kb_pattern_match(row->arg, q)) {
    char *subj = xasprintf("%s(...).%.*s", q, (int)(ne - ns), ctx->text + ns);
    TSPoint s = ts_node_start_point(name), e = ts_node_end_point(name);
    kb_emit(ctx->out, kb_rule(row->code), row, subj, NULL, ns, ne, s.row, s.column, e.row, e.column);
    free(subj);
  }
  free(q);
}

static void *device__begin(AnalyzeCtx *ctx) { return ctx->kind == FILE_PYTHON && ctx->py ? ctx : NULL; }

static bool device__visit(void *state, const PyVisit *v) {
  AnalyzeCtx *ctx = state;
  if (v->sym == PYSYM_CALL) device__int_to(ctx, v->node);
  else if (v->sym == PYSYM_ATTRIBUTE) device__props_fields(ctx, v->node);
  return v->sym != PYSYM_COMMENT && v->sym != PYSYM_IMPORT_STATEMENT && v->sym != PYSYM_IMPORT_FROM_STATEMENT;
}

/* ---- availability guards (ASC211) ------------------------------------------ */

/* The if statement whose condition holds n, or a null node. */
static TSNode device__guarding_if(TSNode n) {
  for (TSNode c = ts_node_parent(n); !ts_node_is_null(c); n = c, c = ts_node_parent(c)) {
    if (pysyntax_is(c, "if_statement"))
      return ts_node_eq(ts_node_child_by_field_name(c, "condition", 9), n) ? c : (TSNode){0};
    if (pysyntax_is(c, "block") || pysyntax_is(c, "module")) break;
  }
  return (TSNode){0};
}

static Finding *device__finding_in(FindingList *out, TSNode stmt) {
  for (size_t i = 0; i < out->len; i++)
    if (out->items[i].start_byte >= ts_node_start_byte(stmt) && out->items[i].end_byte <= ts_node_end_byte(stmt) &&
        out->items[i].edits.len && kb_domain(out->items[i].rule->code) == 2)
      return &out->items[i];
  return NULL;
}

/* Moves the guard's edits into f (once: both may add `import torch_npu`)
 * and says so in f's message (the note: English, Chinese). */
static void device__fold_as(Finding *f, const Finding *g, const char *en, const char *zh) {
  for (size_t k = 0; k < g->edits.len; k++) {
    const TextEdit *e = &g->edits.items[k];
    bool dup = false;
    for (size_t j = 0; j < f->edits.len && !dup; j++)
      dup = f->edits.items[j].start == e->start && strcmp(f->edits.items[j].text, e->text) == 0;
    if (!dup) finding_add_edit(f, e->start, e->end, e->text);
  }
  finding_append_note(f, en, zh);
}

#define DEVICE_GUARD_NOTE_EN "(with its torch.cuda.is_available() guard)"
#define DEVICE_GUARD_NOTE_ZH "（连同其 torch.cuda.is_available() 判断）"

static void device__fold(Finding *f, const Finding *g) { device__fold_as(f, g, DEVICE_GUARD_NOTE_EN, DEVICE_GUARD_NOTE_ZH); }

/* `"cuda" if torch.cuda.is_available() else "cpu"`: the device string and its
 * guard change together, or the NPU gets "cpu". */
static bool device__conditional(AnalyzeCtx *ctx, const Finding *g, TSNode site) {
  TSNode c = ts_node_parent(site);
  if (pysyntax_is(c, "call")) c = ts_node_parent(c);
  if (!pysyntax_is(c, "conditional_expression") || ts_node_named_child_count(c) != 3) return false;
  TSNode cond = ts_node_named_child(c, 1);
  if (ts_node_start_byte(site) < ts_node_start_byte(cond) || ts_node_end_byte(site) > ts_node_end_byte(cond)) return false;
  Finding *f = device__finding_in(ctx->out, ts_node_named_child(c, 0));
  if (!f || !g->edits.len) return false;
  device__fold(f, g);
  return true;
}

/* Folds g into every other finding with a fix inside [from, to), with the
 * note en/zh: each fix of the guarded code, applied alone or with the
 * others, changes the guard too. Returns how many. */
static size_t device__fold_range_as(FindingList *out, const Finding *g, uint32_t from, uint32_t to, const char *en,
                                    const char *zh) {
  size_t n = 0;
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    if (f != g && f->fix != FIX_NONE && f->edits.len && f->start_byte >= from && f->end_byte <= to) {
      device__fold_as(f, g, en, zh);
      n++;
    }
  }
  return n;
}

static size_t device__fold_range(FindingList *out, const Finding *g, uint32_t from, uint32_t to) {
  return device__fold_range_as(out, g, from, to, DEVICE_GUARD_NOTE_EN, DEVICE_GUARD_NOTE_ZH);
}

/* Whether the is_available() call at site is the left side of `... and x`. */
static bool device__and_left(TSNode site) {
  TSNode call = site, up = ts_node_parent(site);
  while (pysyntax_is(up, "call") || pysyntax_is(up, "attribute")) call = up, up = ts_node_parent(up);
  return pysyntax_is(up, "boolean_operator") && ts_node_eq(ts_node_child_by_field_name(up, "left", 4), call) &&
         strcmp(ts_node_type(ts_node_child(up, 1)), "and") == 0;
}

/* Whether site is negated (`not ...`) on its way up to the condition cond. */
static bool device__negated(TSNode site, TSNode cond) {
  for (TSNode n = site; !ts_node_is_null(n) && !ts_node_eq(n, cond); n = ts_node_parent(n))
    if (pysyntax_is(n, "not_operator")) return true;
  return pysyntax_is(cond, "not_operator");
}

/* The else branch of an if statement, or a null node. */
static TSNode device__else_body(TSNode stmt) {
  for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++) {
    TSNode c = ts_node_named_child(stmt, i);
    if (pysyntax_is(c, "else_clause")) return ts_node_child_by_field_name(c, "body", 4);
  }
  return (TSNode){0};
}

/* Whether a block ends by leaving it (return, raise, continue, break). */
static bool device__exits(TSNode block) {
  uint32_t n = ts_node_named_child_count(block);
  TSNode last = n ? ts_node_named_child(block, n - 1) : (TSNode){0};
  return pysyntax_is(last, "return_statement") || pysyntax_is(last, "raise_statement") ||
         pysyntax_is(last, "continue_statement") || pysyntax_is(last, "break_statement");
}

/* `@skipIf(not torch.cuda.is_available(), ...)` (unittest's, pytest's
 * skipif) or `@skipUnless(torch.cuda.is_available(), ...)` above a test:
 * the decorated definition, or a null node. `call` is the is_available()
 * call. */
static TSNode device__skipped_test(AnalyzeCtx *ctx, TSNode call) {
  TSNode n = call, args = ts_node_parent(call);
  while (pysyntax_is(args, "not_operator") || pysyntax_is(args, "boolean_operator")) n = args, args = ts_node_parent(args);
  TSNode deco = pysyntax_is(args, "argument_list") ? ts_node_parent(args) : (TSNode){0};
  if (!pysyntax_is(deco, "call") || !ts_node_eq(ts_node_named_child(args, 0), n) ||
      !pysyntax_is(ts_node_parent(deco), "decorator"))
    return (TSNode){0};
  TSNode def = ts_node_parent(ts_node_parent(deco));
  char *fn = pyfile_node_text(ctx->py, pysym_child(deco, PYFIELD_FUNCTION));
  bool negated = device__negated(call, n);
  bool runs_if_cuda = fn && ((negated && (util_ends_with(fn, "skipIf") || util_ends_with(fn, "skipif"))) ||
                             (!negated && util_ends_with(fn, "skipUnless")));
  free(fn);
  return runs_if_cuda && pysyntax_is(def, "decorated_definition") ? def : (TSNode){0};
}

/* The code that runs only when the torch.cuda.is_available() call at site
 * is True, as a byte range: the branch of `if ...:` (or the else of
 * `if not ...:`, or what follows `if not ...: return`), or the right side
 * of `... and x`, or a test skipped without CUDA. False when site guards
 * nothing. */
static bool device__guarded_range(AnalyzeCtx *ctx, TSNode site, uint32_t *from, uint32_t *to) {
  TSNode call = site, up = ts_node_parent(site);
  while (pysyntax_is(up, "call") || pysyntax_is(up, "attribute")) call = up, up = ts_node_parent(up);
  TSNode test = device__skipped_test(ctx, call);
  if (!ts_node_is_null(test)) {
    *from = ts_node_start_byte(test);
    *to = ts_node_end_byte(test);
    return true;
  }
  if (device__and_left(site)) {
    TSNode right = ts_node_child_by_field_name(up, "right", 5);
    *from = ts_node_start_byte(right);
    *to = ts_node_end_byte(right);
    return !ts_node_is_null(right);
  }
  TSNode stmt = device__guarding_if(site);
  if (ts_node_is_null(stmt)) return false;
  TSNode body = ts_node_child_by_field_name(stmt, "consequence", 11);
  if (!device__negated(site, ts_node_child_by_field_name(stmt, "condition", 9))) {
    if (ts_node_is_null(body)) return false;
    *from = ts_node_start_byte(body);
    *to = ts_node_end_byte(body);
    return true;
  }
  TSNode other = device__else_body(stmt);
  if (!ts_node_is_null(other)) {
    *from = ts_node_start_byte(other);
    *to = ts_node_end_byte(other);
    return true;
  }
  TSNode block = ts_node_parent(stmt);
  if (ts_node_is_null(body) || ts_node_is_null(block) || !device__exits(body)) return false;
  *from = ts_node_end_byte(stmt);
  *to = ts_node_end_byte(block);
  return true;
}

/* What a plain guard (an if without elif/else, not negated) holds: only
 * TF32/cuDNN flags (*flags: right to skip on the NPU), or a statement with
 * a finding whose fix rewrites it (*calls: the guard's edit joins those
 * findings, so the guard and what it guards are one work item). */
static void device__guard_body(AnalyzeCtx *ctx, TSNode site, bool *flags, bool *calls) {
  *flags = *calls = false;
  TSNode stmt = device__guarding_if(site);
  TSNode body = ts_node_is_null(stmt) ? stmt : ts_node_child_by_field_name(stmt, "consequence", 11);
  if (ts_node_is_null(body) || !ts_node_is_null(ts_node_child_by_field_name(stmt, "alternative", 11)))
    return; /* with elif/else: a selection */
  if (device__negated(site, ts_node_child_by_field_name(stmt, "condition", 9))) return;
  *flags = ts_node_named_child_count(body) > 0;
  PyChildren it;
  pysyntax_children(&it, body);
  for (TSNode st; pysyntax_children_next(&it, &st);) {
    if (pysyntax_is(st, "comment")) continue; /* `if ...:  # why` puts the comment in the body */
    char *t = pyfile_node_text(ctx->py, st);
    *flags = *flags && t && util_starts_with(t, "torch.backends.");
    free(t);
    *calls = *calls || device__finding_in(ctx->out, st);
  }
}

/* `use_cuda = torch.cuda.is_available()` (or `... and torch.cuda.is_available()`):
 * the name is the guard, and each `if use_cuda:` or `x if use_cuda else y`
 * in the same function (or file) guards its branch. */
static void device__fold_flag(AnalyzeCtx *ctx, const Finding *g, TSNode site) {
  TSNode a = site;
  while (!ts_node_is_null(a) && !pysyntax_is(a, "assignment") && !pysyntax_is(a, "block") && !pysyntax_is(a, "module"))
    a = ts_node_parent(a);
  TSNode name = pysyntax_is(a, "assignment") ? pysym_child(a, PYFIELD_LEFT) : (TSNode){0};
  TSNode value = ts_node_is_null(name) ? name : pysym_child(a, PYFIELD_RIGHT);
  if (!pysyntax_is(name, "identifier") || ts_node_is_null(value) || device__negated(site, value)) return;
  const PyFunction *fn = pyfile_function_at(ctx->py, g->start_byte);
  uint32_t end = fn ? fn->end : (uint32_t)ctx->len;
  uint32_t ns = ts_node_start_byte(name), nl = ts_node_end_byte(name) - ns;
  for (uint32_t at = ts_node_end_byte(a);;) {
    TSNode u = pyfile_next_name(ctx->py, ctx->text + ns, nl, &at, end);
    if (ts_node_is_null(u)) return;
    uint32_t from, to;
    TSNode c = ts_node_parent(u);
    if (pysyntax_is(c, "conditional_expression") && ts_node_named_child_count(c) == 3 &&
        ts_node_eq(ts_node_named_child(c, 1), u)) {
      TSNode yes = ts_node_named_child(c, 0);
      device__fold_range(ctx->out, g, ts_node_start_byte(yes), ts_node_end_byte(yes));
    } else if (device__guarded_range(ctx, u, &from, &to)) {
      device__fold_range(ctx->out, g, from, to);
    }
  }
}

/* `if torch.cuda.is_available(): torch.backends.cuda.matmul.allow_tf32 = True`
 * is right to skip on the NPU (the flags mean nothing there): no finding.
 * `if torch.cuda.is_available(): torch.cuda.empty_cache()` is one change: the
 * guard's edit joins the finding of the call it guards. In any other form
 * (with an else, around other statements, negated, `... and call()`) the
 * guard stays a finding, and still each fix of what it guards changes it:
 * a rewritten call behind an unchanged CUDA test would never run on the
 * NPU. Returns whether the guard finding is to be dropped. */
/* Whether the and-chain holding the is_available() call at site also tests
 * the build's platform (the "platform-build-test" row): ROCm or CUDA-build
 * detection, False on the NPU either way. Its operands are read with an
 * explicit stack. */
static bool device__platform_test(AnalyzeCtx *ctx, TSNode site) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "platform-build-test", ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !row->arg) return false;
  TSNode top = site, up = ts_node_parent(site);
  while (pysyntax_is(up, "call") || pysyntax_is(up, "attribute")) top = up, up = ts_node_parent(up);
  bool chain = false;
  for (; pysyntax_is(up, "boolean_operator") || pysyntax_is(up, "parenthesized_expression"); up = ts_node_parent(up)) {
    if (pysyntax_is(up, "boolean_operator") && strcmp(ts_node_type(ts_node_child(up, 1)), "and") != 0) break;
    top = up;
    chain = chain || pysyntax_is(up, "boolean_operator");
  }
  if (!chain) return false;
  Array(TSNode) stack = {0};
  array_push(&stack, top);
  bool found = false;
  while (stack.len && !found) {
    TSNode n = stack.items[--stack.len];
    if (pysyntax_is(n, "attribute")) {
      char *q = pyfile_qualname(ctx->py, n);
      found = q && kb_pattern_match(row->arg, q);
      free(q);
      continue;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n) && stack.len < 64; i++) array_push(&stack, ts_node_named_child(n, i));
  }
  array_free(&stack);
  return found;
}

/* `if torch.cuda.is_available(): torch.cuda.empty_cache()` (no elif or
 * else) whose branch only keeps house (the "cuda-guarded-housekeeping"
 * row: caches, memory statistics, synchronization): on the NPU the branch
 * is skipped and nothing the program computes changes, so its findings are
 * hints with the row's note. */
static void device__housekeeping(AnalyzeCtx *ctx, TSNode site, uint32_t from, uint32_t to) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cuda-guarded-housekeeping", ctx->opt->user_entries, ctx->opt->n_user_entries);
  TSNode stmt = device__guarding_if(site);
  if (!row || !row->arg || ts_node_is_null(stmt) || !ts_node_is_null(device__else_body(stmt)) ||
      device__negated(site, ts_node_child_by_field_name(stmt, "condition", 9)))
    return;
  for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++)
    if (pysyntax_is(ts_node_named_child(stmt, i), "elif_clause")) return;
  size_t n = 0;
  for (size_t i = 0; i < ctx->out->len; i++) {
    const Finding *f = &ctx->out->items[i];
    if (f->start_byte < from || f->end_byte > to || kb_domain(f->rule->code) != 2) continue;
    if (!f->subject || !kb_pattern_match(row->arg, f->subject)) return;
    n++;
  }
  for (size_t i = 0; n && i < ctx->out->len; i++) {
    Finding *f = &ctx->out->items[i];
    if (f->start_byte < from || f->end_byte > to || kb_domain(f->rule->code) != 2) continue;
    f->severity = SEV_HINT;
    finding_append_note(f, row->msg_en, row->msg_zh);
  }
}

static bool device__guard(AnalyzeCtx *ctx, const Finding *g) {
  TSNode site = forest_node_at(ctx->forest, g->start_byte, g->end_byte);
  if (device__platform_test(ctx, site)) return true;
  if (device__conditional(ctx, g, site)) return true;
  bool flags, calls;
  device__guard_body(ctx, site, &flags, &calls);
  if (flags) return true;
  if (!g->edits.len) return false;
  uint32_t from, to;
  if (!device__guarded_range(ctx, site, &from, &to)) {
    device__fold_flag(ctx, g, site);
    return false;
  }
  size_t folded = device__fold_range(ctx->out, g, from, to);
  device__housekeeping(ctx, site, from, to);
  /* `torch.cuda.is_available() and torch.cuda.is_bf16_supported()`: one test, one change */
  return calls || (folded && device__and_left(site));
}

/* `if x.device.type == "cuda": torch.cuda.empty_cache()`: the device check
 * and what it guards are one change (a rewritten call behind an unchanged
 * "cuda" test never runs on the NPU). The check's edit joins each finding in
 * the branch; the check is no finding of its own when the branch holds only
 * statements with findings (an `if` without elif/else whose whole condition
 * is the `==` test). */
static bool device__drop_device_check(void *data, const Finding *g) {
  AnalyzeCtx *ctx = data;
  if (kb_domain(g->rule->code) != 2 || !g->edits.len) return false;
  TSNode site = forest_node_at(ctx->forest, g->start_byte, g->end_byte);
  TSNode cmp = pysyntax_is(site, "string") ? ts_node_parent(site) : (TSNode){0};
  if (!pysyntax_is(cmp, "comparison_operator") || ts_node_child_count(cmp) != 3 ||
      strcmp(ts_node_type(ts_node_child(cmp, 1)), "==") != 0)
    return false;
  TSNode stmt = device__guarding_if(site);
  if (ts_node_is_null(stmt) || !ts_node_eq(ts_node_child_by_field_name(stmt, "condition", 9), cmp)) return false;
  bool flags, calls;
  device__guard_body(ctx, site, &flags, &calls);
  if (!calls) return false;
  TSNode body = ts_node_child_by_field_name(stmt, "consequence", 11);
  device__fold_range_as(ctx->out, g, ts_node_start_byte(body), ts_node_end_byte(body), "(with its device check)",
                        "（连同其设备判断）");
  return true;
}

static bool device__drop_guard(void *data, const Finding *f) {
  AnalyzeCtx *ctx = data;
  const KbEntry *row = kb_lookup(KB_QUALNAME, "torch.cuda.is_available", ctx->opt->user_entries, ctx->opt->n_user_entries);
  return row && f->entry == row && device__guard(ctx, f);
}

/* ---- load-only devices (ASC204) ------------------------------------------------ */

/* `device = "cuda" if ... else "cpu"` used only as torch.load's map_location
 * (a conversion script): where the checkpoint is read changes nothing on the
 * NPU, the CPU takes it. Uses are words in the same function (or file). */
static bool device__load_only(const AnalyzeCtx *ctx, const Finding *f) {
  TSNode n = forest_node_at(ctx->forest, f->start_byte, f->end_byte);
  while (!ts_node_is_null(n) && !pysyntax_is(n, "assignment") && !pysyntax_is(n, "block") && !pysyntax_is(n, "module"))
    n = ts_node_parent(n);
  TSNode name = pysyntax_is(n, "assignment") ? pysym_child(n, PYFIELD_LEFT) : (TSNode){0};
  if (!pysyntax_is(name, "identifier")) return false;
  const PyFunction *fn = pyfile_function_at(ctx->py, f->start_byte);
  uint32_t to = fn ? fn->end : (uint32_t)ctx->len;
  context_reads(ctx, ts_node_end_byte(n), to);
  uint32_t ns = ts_node_start_byte(name), nl = ts_node_end_byte(name) - ns;
  size_t uses = 0;
  for (uint32_t at = ts_node_end_byte(n);;) {
    TSNode u = pyfile_next_name(ctx->py, ctx->text + ns, nl, &at, to);
    if (ts_node_is_null(u)) return uses > 0;
    TSNode kw = ts_node_parent(u);
    TSNode key = pysyntax_is(kw, "keyword_argument") ? pysym_child(kw, PYFIELD_NAME) : (TSNode){0};
    char *k = ts_node_is_null(key) ? NULL : pyfile_node_text(ctx->py, key);
    bool load = k && strcmp(k, "map_location") == 0 && ts_node_eq(pysym_child(kw, PYFIELD_VALUE), u);
    free(k);
    if (!load) return false;
    uses++;
  }
}

static bool device__drop_load(void *data, const Finding *f) {
  return f->entry && f->entry->match == KB_NAMED_STRING && kb_domain(f->rule->code) == 2 && device__load_only(data, f);
}

/* ---- redundant seeding (ASC201) ------------------------------------------------ */

#define DEVICE_SEED_LOOKBACK 8 /* statements before the CUDA seed searched for the general one */

/* Whether statement st calls one of `pattern` (qualified). */
static bool device__calls(const AnalyzeCtx *ctx, TSNode st, const char *pattern) {
  TSNode call = pysyntax_is(st, "expression_statement") ? ts_node_named_child(st, 0) : (TSNode){0};
  char *q = pysyntax_is(call, "call") ? pyfile_qualname(ctx->py, pysym_child(call, PYFIELD_FUNCTION)) : NULL;
  bool is = q && kb_pattern_match(pattern, q);
  free(q);
  return is;
}

/* The statement that holds expression statement n in its block: n, or the
 * `if` whose body n opens, after other CUDA seeding calls only (`if
 * torch.cuda.is_available(): torch.cuda.manual_seed(s);
 * torch.cuda.manual_seed_all(s)`), climbing while that holds. */
static TSNode device__seed_statement(const AnalyzeCtx *ctx, TSNode n, const char *seeds) {
  for (int depth = 0; depth < 8; depth++) {
    TSNode block = ts_node_parent(n), stmt = ts_node_parent(block);
    if (!pysyntax_is(block, "block") || !pysyntax_is(stmt, "if_statement")) break;
    bool first = true;
    for (uint32_t i = 0; first && i < ts_node_named_child_count(block); i++) {
      TSNode c = ts_node_named_child(block, i);
      if (ts_node_eq(c, n)) break;
      first = pysyntax_is(c, "comment") || device__calls(ctx, c, seeds);
    }
    if (!first) break;
    n = stmt;
  }
  return n;
}

/* `torch.manual_seed(0)` then `torch.cuda.manual_seed_all(0)` (directly or
 * under a CUDA check, a few statements later in the same block): the first
 * already seeds the NPU, the second does nothing there and needs no port. */
static bool device__drop_seed(void *data, const Finding *f) {
  AnalyzeCtx *ctx = data;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "redundant-seed", ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !f->subject || !kb_pattern_match(row->arg, f->subject)) return false;
  TSNode n = forest_node_at(ctx->forest, f->start_byte, f->end_byte);
  while (!ts_node_is_null(n) && !pysyntax_is(n, "expression_statement")) n = ts_node_parent(n);
  if (ts_node_is_null(n)) return false;
  bool redundant = false;
  TSNode prev = forest_prev_named_sibling(ctx->forest, device__seed_statement(ctx, n, row->arg));
  for (int k = 0; k < DEVICE_SEED_LOOKBACK && !redundant && !ts_node_is_null(prev); k++) {
    redundant = device__calls(ctx, prev, row->value);
    prev = forest_prev_named_sibling(ctx->forest, prev);
  }
  return redundant;
}

static void device__end(void *state) {
  AnalyzeCtx *ctx = state;
  if (!ctx) return;
  findings_drop_if(ctx->out, device__drop_guard, ctx);
  findings_drop_if(ctx->out, device__drop_device_check, ctx);
  findings_drop_if(ctx->out, device__drop_load, ctx);
  findings_drop_if(ctx->out, device__drop_seed, ctx);
}

const PyVisitor device_visitor = {device__begin, device__visit, device__end};
