/* compile: ASC7xx. torch.compile, TorchScript, CUDA graphs, TensorRT and
 * inductor settings are rows in kb_compile.def matched by pymatch; this file
 * makes their guidance specific to the site:
 *
 *  - torch.compile: the subject names the backend and mode the call passes
 *    (the keywords listed by the "compile-inference" row), and inference-only
 *    sites get the inference backends;
 *  - TorchScript in a file that imports transfer_to_npu: it is disabled there;
 *  - torch.compile for another device's backend is not a finding, nor are
 *    inductor settings in a file that compiles nothing (in test code the
 *    rule's not_in_tests applies, as for every rule).
 *
 * The findings pymatch made for this file are the tail of ctx->out. */
#include "analyzers/domains/domains.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"

#include <stdlib.h>

typedef struct {
  AnalyzeCtx *ctx;
  const PyFile *py;
  const KbEntry *infer, *jit, *other, *optin;
  Array(TSNode) calls; /* calls to restate once the matcher's findings exist */
  Array(ByteRange) flags; /* bodies of `if args.<flag>:` for a flag the file's command line defines */
  Array(char *) flag_names; /* "--compile" of each */
  bool *drop;          /* per finding of ctx->out: compiled for another device */
  bool compiles;       /* the file calls torch.compile (or dynamo) */
} Compile;

static const KbEntry *compile__row(const Compile *c, KbMatch m, const char *key) {
  return kb_lookup(m, key, c->ctx->opt->user_entries, c->ctx->opt->n_user_entries);
}

static Finding *compile__finding_at(const Compile *c, uint32_t at, const char *code) {
  for (size_t i = 0; i < c->ctx->out->len; i++) {
    Finding *f = &c->ctx->out->items[i];
    if (f->start_byte == at && strcmp(f->rule->code, code) == 0) return f;
  }
  return NULL;
}

/* `torch.compile(model, backend="x", mode="y")` -> subject with the keywords
 * of the row's `arg` list that the call passes. Caller frees; NULL if none. */
static char *compile__subject(const Compile *c, TSNode call, const char *qual) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (!pysyntax_is(args, "argument_list") || !c->infer->arg) return NULL;
  StrBuf sb;
  sb_init(&sb);
  for (const char *k = c->infer->arg; k && *k;) {
    const char *bar = strchr(k, '|');
    char *name = xstrndup(k, bar ? (size_t)(bar - k) : strlen(k));
    TSNode v = pysyntax_argument(c->py, args, name);
    if (!ts_node_is_null(v)) {
      char *vt = pyfile_node_text(c->py, v);
      sb_printf(&sb, "%s%s=%s", sb.len ? ", " : "", name, vt);
      free(vt);
    }
    free(name);
    k = bar ? bar + 1 : NULL;
  }
  char *r = sb.len ? xasprintf("%s(%s)", qual, sb.data) : NULL;
  sb_free(&sb);
  return r;
}

/* `torch.compile(m, backend="neuron")`: compiled for another device (or the
 * NPU already), by the "compile-other-backend" row; or with a backend that is
 * not written at the call. */
static bool compile__other_backend(const Compile *c, TSNode call) {
  if (!c->other) return false;
  TSNode v = pysyntax_argument(c->py, pysym_child(call, PYFIELD_ARGUMENTS), c->other->arg);
  /* `backend=get_accelerator().get_compile_backend()`: chosen by the caller
   * or the configuration, not written here */
  if (!ts_node_is_null(v) && !pysyntax_is(v, "string") && !pysyntax_is(v, "none")) return true;
  /* `torch.compile(layer, *args, **kwargs)`: forwards the caller's options */
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  for (uint32_t i = 0; ts_node_is_null(v) && !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++)
    if (pysyntax_is(ts_node_named_child(args, i), "dictionary_splat")) return true;
  char *s = pysyntax_is(v, "string") ? pysyntax_string_value(c->py, v) : NULL;
  bool r = s && kb_pattern_match(c->other->value, s);
  free(s);
  return r;
}

/* `if args.compile:` where the file defines `--compile` on its command
 * line: its body runs only when asked for. Records the body. */
static void compile__flag_branch(Compile *c, TSNode stmt) {
  TSNode cond = pysym_child(stmt, PYFIELD_CONDITION), body = pysym_child(stmt, PYFIELD_CONSEQUENCE);
  if (!pysyntax_is(cond, "attribute") || ts_node_is_null(body)) return;
  /* only a compile call in the branch asks for its flag: other branches read nothing outside the unit
   * (unless torch.compile is imported under another name) */
  uint32_t bs = ts_node_start_byte(body), be = ts_node_end_byte(body);
  bool may_compile = memmem(c->py->text + bs, be - bs, "compile", 7) != NULL;
  for (size_t i = 0; i < c->py->bindings.len && !may_compile; i++) {
    const PyBinding *b = &c->py->bindings.items[i];
    may_compile = strstr(b->qualname, "compile") && memmem(c->py->text + bs, be - bs, b->local, strlen(b->local));
  }
  if (!may_compile) return;
  char *attr = pyfile_node_text(c->py, pysym_child(cond, PYFIELD_ATTRIBUTE));
  if (!attr) return;
  char *opt = xasprintf("--%s", attr);
  for (char *p = opt + 2; *p; p++)
    if (*p == '_') *p = '-';
  char *q1 = xasprintf("\"%s\"", opt), *q2 = xasprintf("'%s'", opt), *q3 = xasprintf("\"--%s\"", attr);
  /* the flag is defined anywhere in the file (its argument parser): questions
   * the unit is kept by while their answers stay */
  bool defined = context_text_has(c->ctx, q1) || context_text_has(c->ctx, q2) || context_text_has(c->ctx, q3);
  free(q1);
  free(q2);
  free(q3);
  free(attr);
  if (!defined) {
    free(opt);
    return;
  }
  ByteRange r = {ts_node_start_byte(body), ts_node_end_byte(body)};
  array_push(&c->flags, r);
  array_push(&c->flag_names, opt);
}

/* The flag whose branch holds the call when it compiles with the default
 * backend and a mode without CUDA graphs ("compile-optin-default"); NULL else. */
static const char *compile__optin_default(const Compile *c, TSNode call) {
  if (!c->optin) return NULL;
  const char *flag = NULL;
  for (size_t i = 0; i < c->flags.len && !flag; i++)
    if (ts_node_start_byte(call) >= c->flags.items[i].start && ts_node_end_byte(call) <= c->flags.items[i].end)
      flag = c->flag_names.items[i];
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (!flag || !pysyntax_is(args, "argument_list")) return NULL;
  TSNode backend = pysyntax_argument(c->py, args, "backend"), mode = pysyntax_argument(c->py, args, "mode");
  char *b = pysyntax_is(backend, "string") ? pysyntax_string_value(c->py, backend) : NULL;
  char *m = pysyntax_is(mode, "string") ? pysyntax_string_value(c->py, mode) : NULL;
  bool ok = (ts_node_is_null(backend) || (b && kb_pattern_match(c->optin->value, b))) &&
            (ts_node_is_null(mode) || (m && !kb_pattern_match(c->optin->arg, m)));
  free(b);
  free(m);
  return ok ? flag : NULL;
}

static void compile__call(Compile *c, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  char *q = ts_node_is_null(fn) ? NULL : pyfile_qualname(c->py, fn);
  const KbEntry *row = q ? compile__row(c, KB_QUALNAME, q) : NULL;
  Finding *f = row && strcmp(row->code, c->infer->code) == 0
                   ? compile__finding_at(c, ts_node_start_byte(fn), row->code)
                   : NULL;
  if (row && strcmp(row->code, c->infer->code) == 0) c->compiles = true;
  if (f && compile__other_backend(c, call)) {
    c->drop[f - c->ctx->out->items] = true;
  } else if (f) {
    char *subj = compile__subject(c, call, q);
    bool infer = pyfile_in_ranges(c->py->inference.items, c->py->inference.len, ts_node_start_byte(call));
    if (infer) f->inference_only = true;
    if (subj || infer) kb_restate(f, subj, infer ? c->infer->replacement : NULL);
    free(subj);
    const char *flag = compile__optin_default(c, call);
    if (flag) {
      f->severity = SEV_HINT;
      kb_append_note(f, c->optin, flag, NULL);
    }
  }
  free(q);
}

static bool compile__visit(void *state, const PyVisit *v) {
  Compile *c = state;
  if (v->sym == PYSYM_CALL && c->infer) array_push(&c->calls, v->node);
  if (v->sym == PYSYM_IF_STATEMENT) compile__flag_branch(c, v->node);
  return v->sym != PYSYM_COMMENT && v->sym != PYSYM_STRING;
}

/* Under transfer_to_npu the script decorator is a no-op: say so at each use. */
static void compile__jit(Compile *c) {
  if (!c->py->transfer_to_npu) return;
  for (size_t i = 0; i < c->ctx->out->len; i++) {
    Finding *f = &c->ctx->out->items[i];
    if (f->entry && f->entry->match == KB_QUALNAME && strcmp(f->rule->code, c->jit->code) == 0)
      kb_restate(f, NULL, c->jit->replacement);
  }
}

static void *compile__begin(AnalyzeCtx *ctx) {
  if (ctx->kind != FILE_PYTHON || !ctx->py) return NULL;
  Compile *c = xcalloc(1, sizeof *c);
  c->ctx = ctx;
  c->py = ctx->py;
  c->infer = compile__row(c, KB_DETECTOR, "compile-inference");
  c->jit = compile__row(c, KB_DETECTOR, "jit-under-transfer");
  c->other = compile__row(c, KB_DETECTOR, "compile-other-backend");
  c->optin = compile__row(c, KB_DETECTOR, "compile-optin-default");
  return c;
}

static void compile__end(void *state) {
  Compile *c = state;
  c->drop = xcalloc(c->ctx->out->len + 1, sizeof *c->drop);
  for (size_t i = 0; i < c->calls.len; i++) compile__call(c, c->calls.items[i]);
  if (c->compiles) context_depends(c->ctx, UNIT_COMPILES);
  findings_drop(c->ctx->out, c->drop);
  free(c->drop);
  if (c->jit) compile__jit(c);
  array_free(&c->calls);
  array_free(&c->flags);
  for (size_t i = 0; i < c->flag_names.len; i++) free(c->flag_names.items[i]);
  array_free(&c->flag_names);
  free(c);
}

const PyVisitor compile_visitor = {compile__begin, compile__visit, compile__end};
