/* kernels_py: completes the Python-side ASC4xx findings (see kernels.h).
 * The findings themselves come from rows (KB_DECORATOR triton.jit,
 * KB_SUBCLASS torch.autograd.Function, KB_QUALNAME CUDAExtension / load)
 * matched by pymatch, which runs first; this walk finds the definition or
 * call each one sits on and fills in Finding.detail (size, what the kernel
 * does, what a Function wraps, the sources an extension compiles) and, when
 * a torch_npu op fits, a sharper replacement. A finding is completed once:
 * only findings without a detail are considered. */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/kernels.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"

#include <stdlib.h>

/* The autograd.Function protocol methods whose calls show what it wraps. */
#define KERNELS_FUNCTION_METHODS "forward|backward|setup_context|jvp|vmap"
/* Calls that say nothing about what is wrapped: the context object, Python builtins. */
#define KERNELS_BORING_CALLS                                                                                     \
  "ctx.*|self.*|super|super.*|len|range|isinstance|tuple|list|dict|int|float|bool|str|print|getattr|hasattr|" \
  "setattr|zip|enumerate|max|min|type|any|all|sorted|reversed|map|filter"
#define KERNELS_MAX_LISTED 8

typedef Array(size_t) KernelsPending;

static bool kernels__mine(const Finding *f) {
  static const char *const codes = "ASC410|ASC411|ASC412|ASC413|ASC417|ASC421";
  return !f->detail && f->rule && kb_pattern_match(codes, f->rule->code);
}

/* The pending finding of `code` that starts and ends where n does, or NULL. */
static Finding *kernels__pending(AnalyzeCtx *ctx, const KernelsPending *p, const char *code, TSNode n) {
  for (size_t i = 0; i < p->len; i++) {
    Finding *f = &ctx->out->items[p->items[i]];
    if (!f->detail && strcmp(f->rule->code, code) == 0 && f->start_byte == ts_node_start_byte(n) &&
        f->end_byte == ts_node_end_byte(n))
      return f;
  }
  return NULL;
}

/* Replaces the finding's replacement and re-renders its messages. */
static void kernels__set_replacement(Finding *f, const char *repl) {
  free(f->replacement);
  finding_text_unref(f->message);
  finding_text_unref(f->message_zh);
  f->replacement = xstrdup(repl);
  f->message = finding_text_take(kb_format(f->rule->msg_en, f->subject, f->replacement));
  f->message_zh = finding_text_take(kb_format(f->rule->msg_zh, f->subject, f->replacement));
}

static char *kernels__squash(const AnalyzeCtx *ctx, TSNode n, size_t max) {
  return kernels_squash(ctx->text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n), max);
}

/* "a, b, c" of the interesting callees (at most KERNELS_MAX_LISTED). */
static void kernels__list_calls(StrBuf *sb, const StrList *calls) {
  size_t shown = 0;
  for (size_t i = 0; i < calls->len; i++) {
    if (kb_pattern_match(KERNELS_BORING_CALLS, calls->items[i])) continue;
    if (shown == KERNELS_MAX_LISTED) {
      sb_puts(sb, ", ...");
      break;
    }
    sb_printf(sb, "%s%s", shown++ ? ", " : "", calls->items[i]);
  }
  if (!shown) sb_puts(sb, "nothing notable");
}

/* ---- Triton and numba.cuda kernels ------------------------------------------------------ */

/* A decorated kernel: its signature, size, decorators and what it does.
 * `runner`: what runs it on Ascend as it is (triton-ascend), NULL when it
 * must be rewritten. */
static void kernels__kernel(AnalyzeCtx *ctx, Finding *f, TSNode dd, const char *runner) {
  TSNode def = pysym_child(dd, PYFIELD_DEFINITION);
  TSNode name = pysym_child(def, PYFIELD_NAME), params = pysym_child(def, PYFIELD_PARAMETERS);
  if (ts_node_is_null(name)) return;
  char *id = pyfile_node_text(ctx->py, name);
  StrList calls = {0};
  kernels_callees(ctx->text, pysym_child(def, PYFIELD_BODY), &calls);
  bool by_name = false;
  const KernelKind *kind = kernels_classify(id, &calls, &by_name);
  uint32_t lines = ts_node_end_point(def).row - ts_node_start_point(def).row + 1;
  StrBuf sb;
  sb_init(&sb);
  char *sig = ts_node_is_null(params) ? xstrdup("()") : kernels__squash(ctx, params, 200);
  sb_printf(&sb, "kernel: %s%s; lines: %u; decorators:", id, sig, lines);
  for (uint32_t i = 0; i < ts_node_named_child_count(dd); i++) {
    TSNode d = ts_node_named_child(dd, i);
    if (!pysyntax_is(d, "decorator") || ts_node_named_child_count(d) < 1) continue;
    char *q = pyfile_qualname(ctx->py, ts_node_named_child(d, 0));
    char *shown = q ? q : kernels__squash(ctx, ts_node_named_child(d, 0), 60);
    sb_printf(&sb, " @%s", shown);
    free(shown);
  }
  char *what = kernels_describe(kind, by_name, lines, runner);
  sb_printf(&sb, "; %s", what);
  f->detail = sb_steal(&sb);
  f->weight = lines;
  char *repl = kernels_replacement(kind, lines, runner);
  kernels__set_replacement(f, repl);
  free(repl);
  free(what);
  free(sig);
  free(id);
  strlist_free(&calls);
}

/* ---- autograd.Function ----------------------------------------------------------------- */

/* The protocol methods of a class body, each with the calls it makes. */
static void kernels__methods(AnalyzeCtx *ctx, TSNode body, StrBuf *sb, StrList *forward_calls, StrList *all_calls) {
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode fn = ts_node_named_child(body, i);
    if (pysyntax_is(fn, "decorated_definition")) fn = pysym_child(fn, PYFIELD_DEFINITION);
    if (!pysyntax_is(fn, "function_definition")) continue;
    char *nm = pyfile_node_text(ctx->py, pysym_child(fn, PYFIELD_NAME));
    if (kb_pattern_match(KERNELS_FUNCTION_METHODS, nm)) {
      StrList calls = {0};
      kernels_callees(ctx->text, pysym_child(fn, PYFIELD_BODY), &calls);
      sb_printf(sb, "; %s (%u lines) calls ", nm, ts_node_end_point(fn).row - ts_node_start_point(fn).row + 1);
      kernels__list_calls(sb, &calls);
      bool fwd = strcmp(nm, "forward") == 0;
      for (size_t k = 0; fwd && k < calls.len; k++) array_push(forward_calls, xstrdup(calls.items[k]));
      for (size_t k = 0; k < calls.len; k++) array_push(all_calls, xstrdup(calls.items[k]));
      strlist_free(&calls);
    }
    free(nm);
  }
}

/* Whether a callee of a Function's methods may hide CUDA: its name is
 * imported (absolutely) from a module that is neither torch nor a plain
 * library (the "autograd-function-plain" row): a compiled extension
 * (`import pkg._C as _C`), a third-party kernel library. A module-level
 * function of the file is looked into once (`scaled_softmax(x)` calling
 * `fused_ext_cuda.scaled_softmax`); relative imports, and absolute ones of
 * a package the file sits in, are project code, whose CUDA-only calls the
 * project model reports. */
/* Whether an absolute module name is the project's own Python: its
 * top-level name is a folder the file sits in (`from nanotron import
 * distributed as dist` in src/nanotron/parallel/functional.py), and it does
 * not name a compiled extension (`pkg._C`, `pkg.fused_cuda`, `pkg._ext`). */
static bool kernels__own_module(const char *path, const char *qualname) {
  if (strstr(qualname, "cuda") || strstr(qualname, "._") || strstr(qualname, "_ext")) return false;
  size_t top = strcspn(qualname, ".");
  for (const char *p = path; top && p && *p;) {
    size_t n = strcspn(p, "/\\");
    if (!p[n]) break; /* the file's own name is no folder */
    if (n == top && memcmp(p, qualname, n) == 0) return true;
    p += n + 1;
  }
  return false;
}

/* Whether a call's full name is a row of the tables (xformers' fmha
 * functions, flash_attn's): its site is a finding of its own, the work the
 * Function holds is there. */
static bool kernels__own_finding(AnalyzeCtx *ctx, const char *qualname, const char *rest) {
  char *full = xasprintf("%s%.*s", qualname, (int)strcspn(rest, "[("), rest);
  const KbEntry *e = kb_lookup(KB_QUALNAME, full, ctx->opt->user_entries, ctx->opt->n_user_entries);
  free(full);
  return e && kb_domain(e->code) >= 2;
}

/* The import binding a callee's first name comes from (absolutely) when it
 * is neither torch, a plain library nor the project's own Python: a library
 * that may hide CUDA; NULL otherwise. *n gets the length of that name. */
static const PyBinding *kernels__foreign(AnalyzeCtx *ctx, const KbEntry *plain, const char *callee, uint32_t at, size_t *n) {
  *n = strcspn(callee, ".[(");
  const PyBinding *b = pyfile_lookup(ctx->py, callee, *n, at);
  bool foreign = b && b->qualname && b->qualname[0] != '.' && !kb_pattern_match(plain->arg, b->qualname) &&
                 !kernels__own_module(ctx->path, b->qualname);
  return foreign ? b : NULL;
}

/* Whether such a callee is a call with a finding of its own (kernels__own_finding). */
static bool kernels__own_finding_call(AnalyzeCtx *ctx, const KbEntry *plain, const char *callee, uint32_t at) {
  size_t n;
  const PyBinding *b = kernels__foreign(ctx, plain, callee, at, &n);
  return b && kernels__own_finding(ctx, b->qualname, callee + n);
}

static bool kernels__opaque_name(AnalyzeCtx *ctx, const KbEntry *plain, const char *callee, uint32_t at) {
  size_t n;
  const PyBinding *b = kernels__foreign(ctx, plain, callee, at, &n);
  return b && !kernels__own_finding(ctx, b->qualname, callee + n);
}

static bool kernels__opaque(AnalyzeCtx *ctx, const KbEntry *plain, const char *callee, uint32_t at) {
  if (kernels__opaque_name(ctx, plain, callee, at)) return true;
  if (strchr(callee, '.')) return false;
  for (size_t i = 0; i < ctx->py->functions.len; i++) {
    const PyFunction *fn = &ctx->py->functions.items[i];
    if (fn->class_name || strcmp(fn->name, callee) != 0) continue;
    context_depends(ctx, UNIT_READS_FILE); /* the helper may sit in another unit */
    TSNode def = forest_node_at(ctx->forest, fn->body_start, fn->end);
    StrList calls = {0};
    kernels_callees(ctx->text, def, &calls);
    bool hidden = false;
    for (size_t k = 0; k < calls.len && !hidden; k++) hidden = kernels__opaque_name(ctx, plain, calls.items[k], fn->body_start);
    strlist_free(&calls);
    return hidden;
  }
  return false;
}

static void kernels__function(AnalyzeCtx *ctx, Finding *f, TSNode cls) {
  TSNode name = pysym_child(cls, PYFIELD_NAME), body = pysym_child(cls, PYFIELD_BODY);
  if (ts_node_is_null(name) || ts_node_is_null(body)) return;
  char *id = pyfile_node_text(ctx->py, name);
  uint32_t lines = ts_node_end_point(cls).row - ts_node_start_point(cls).row + 1;
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "autograd.Function %s; lines: %u", id, lines);
  StrList fwd = {0}, all = {0};
  kernels__methods(ctx, body, &sb, &fwd, &all);
  /* a Function that calls only torch, plain libraries and the project: the
   * ops are the findings (if any), the Function itself is no work */
  const KbEntry *plain = kb_lookup(KB_DETECTOR, "autograd-function-plain", ctx->opt->user_entries, ctx->opt->n_user_entries);
  const KbEntry *covered = kb_lookup(KB_DETECTOR, "autograd-function-covered", ctx->opt->user_entries, ctx->opt->n_user_entries);
  bool opaque = !plain, own = false;
  uint32_t at = ts_node_start_byte(cls);
  for (size_t i = 0; i < all.len && !opaque; i++) {
    opaque = kernels__opaque(ctx, plain, all.items[i], at);
    own = own || kernels__own_finding_call(ctx, plain, all.items[i], at);
  }
  strlist_free(&all);
  bool by_name = false;
  const KernelKind *kind = kernels_classify(id, &fwd, &by_name);
  if (kind && kind->op) {
    sb_printf(&sb, "; function: looks like %s (a keyword in its %s, not verified)", kind->kind, by_name ? "name" : "body");
    char *repl = xasprintf("check that every op it calls runs on NPU; candidate NPU ops: %s (candidates)", kind->op);
    kernels__set_replacement(f, repl);
    free(repl);
  }
  /* the note after the message is final (a replacement rewrites it) */
  const KbEntry *why = own && covered ? covered : plain;
  if (!opaque) {
    f->severity = SEV_HINT;
    finding_append_note(f, why->msg_en, why->msg_zh);
  }
  f->detail = sb_steal(&sb);
  free(id);
  strlist_free(&fwd);
}

/* ---- CUDAExtension / load / load_inline --------------------------------------------------- */

/* The value of the module-level assignment `name = value` (the last one),
 * or a null node: a build usually lists its sources in a variable. */
static TSNode kernels__module_value(AnalyzeCtx *ctx, TSNode id) {
  TSNode found = {{0}, NULL, NULL};
  context_depends(ctx, UNIT_READS_FILE); /* assignments anywhere at the top level */
  uint32_t len = ts_node_end_byte(id) - ts_node_start_byte(id);
  const char *name = ctx->text + ts_node_start_byte(id);
  ForestTops it = forest_tops(ctx->forest, true);
  for (TSNode st; forest_next_top(&it, &st);) {
    TSNode a = pysyntax_is(st, "expression_statement") ? ts_node_named_child(st, 0) : st;
    if (!pysyntax_is(a, "assignment")) continue;
    TSNode l = pysym_child(a, PYFIELD_LEFT);
    if (pysyntax_is(l, "identifier") && ts_node_end_byte(l) - ts_node_start_byte(l) == len &&
        memcmp(ctx->text + ts_node_start_byte(l), name, len) == 0)
      found = pysym_child(a, PYFIELD_RIGHT);
  }
  return found;
}

/* Appends the sources a value names: string literals (inline code is
 * summarized), the elements of a list (also through a module-level
 * variable), or the text of anything else. */
static void kernels__sources(AnalyzeCtx *ctx, TSNode v, StrBuf *sb, size_t *n, size_t *cuda) {
  if (ts_node_is_null(v)) return;
  if (pysyntax_is(v, "identifier")) {
    TSNode value = kernels__module_value(ctx, v);
    if (!ts_node_is_null(value) && !pysyntax_is(value, "identifier")) v = value;
  }
  bool list = pysyntax_is(v, "list") || pysyntax_is(v, "tuple");
  uint32_t count = list ? ts_node_named_child_count(v) : 1;
  for (uint32_t i = 0; i < count; i++) {
    TSNode s = list ? ts_node_named_child(v, i) : v;
    char *val = pysyntax_is(s, "string") ? pysyntax_string_value(ctx->py, s) : NULL;
    char *shown;
    if (val && strpbrk(val, "\n{;(")) shown = xstrdup("<inline code>"); /* load_inline takes code, not paths */
    else shown = val ? xstrdup(val) : kernels__squash(ctx, s, 80);
    if (val && (util_ends_with(val, ".cu") || util_ends_with(val, ".cuh"))) (*cuda)++;
    sb_printf(sb, "%s%s", (*n)++ ? ", " : "", shown);
    free(shown);
    free(val);
  }
}

static void kernels__extension(AnalyzeCtx *ctx, Finding *f, TSNode call) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (!pysyntax_is(args, "argument_list")) return;
  TSNode name = pysyntax_argument(ctx->py, args, "0|name");
  char *nm = pysyntax_is(name, "string") ? pysyntax_string_value(ctx->py, name) : NULL;
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "extension: %s; sources: ", nm ? nm : "?");
  size_t n = 0, cuda = 0;
  kernels__sources(ctx, pysyntax_argument(ctx->py, args, "1|sources|cpp_sources"), &sb, &n, &cuda);
  TSNode inline_cuda = pysyntax_argument(ctx->py, args, "cuda_sources");
  if (!ts_node_is_null(inline_cuda)) {
    kernels__sources(ctx, inline_cuda, &sb, &n, &cuda);
    cuda++;
  }
  if (!n) sb_puts(&sb, "none listed");
  sb_printf(&sb, " (%zu CUDA)", cuda);
  f->detail = sb_steal(&sb);
  free(nm);
}

/* ---- the walk ---------------------------------------------------------------------------- */

static void kernels__visit(AnalyzeCtx *ctx, const KernelsPending *p, TSNode n) {
  const char *t = ts_node_type(n);
  if (strcmp(t, "decorated_definition") == 0) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      Finding *f = kernels__pending(ctx, p, "ASC410", ts_node_named_child(n, i));
      if (f) kernels__kernel(ctx, f, n, "triton-ascend (Atlas A2/A3)");
      f = kernels__pending(ctx, p, "ASC417", ts_node_named_child(n, i));
      if (f) kernels__kernel(ctx, f, n, NULL);
      f = kernels__pending(ctx, p, "ASC421", ts_node_named_child(n, i));
      if (f) kernels__kernel(ctx, f, n, "tilelang-ascend (Atlas A2/A3), adapted to the Ascend memory hierarchy");
    }
  } else if (strcmp(t, "class_definition") == 0) {
    Finding *f = kernels__pending(ctx, p, "ASC411", pysym_child(n, PYFIELD_NAME));
    if (f) kernels__function(ctx, f, n);
  } else if (strcmp(t, "call") == 0) {
    TSNode fn = pysym_child(n, PYFIELD_FUNCTION);
    Finding *f = kernels__pending(ctx, p, "ASC412", fn);
    if (!f) f = kernels__pending(ctx, p, "ASC413", fn);
    if (f) kernels__extension(ctx, f, n);
  }
}

/* Every node of the subtree at n, in document order. */
static void kernels__walk(AnalyzeCtx *ctx, KernelsPending *pending, TSNode n) {
  TSTreeCursor cur = ts_tree_cursor_new(n);
  bool more = true;
  while (more) {
    kernels__visit(ctx, pending, ts_tree_cursor_current_node(&cur));
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
  }
  ts_tree_cursor_delete(&cur);
}

void kernels_python(AnalyzeCtx *ctx) {
  KernelsPending pending = {0};
  for (size_t i = 0; i < ctx->out->len; i++)
    if (kernels__mine(&ctx->out->items[i])) array_push(&pending, i);
  if (pending.len == 0) return;
  /* the unit's top-level nodes and their subtrees */
  const Forest *fo = ctx->forest;
  for (size_t m = forest_member_at(fo, ctx->unit->start); m < forest_size(fo); m++) {
    TSTreeCursor top = ts_tree_cursor_new(forest_root(fo, m));
    bool any = ts_tree_cursor_goto_first_child_for_byte(&top, ctx->unit->start) >= 0, past = false;
    for (; any; any = ts_tree_cursor_goto_next_sibling(&top)) {
      TSNode n = ts_tree_cursor_current_node(&top);
      if ((past = ts_node_start_byte(n) >= ctx->unit->end && ts_node_end_byte(n) > ts_node_start_byte(n))) break;
      if (ts_node_end_byte(n) <= ctx->unit->start && ts_node_end_byte(n) > ts_node_start_byte(n)) continue;
      kernels__walk(ctx, &pending, n);
    }
    ts_tree_cursor_delete(&top);
    if (past) break;
  }
  array_free(&pending);
}
