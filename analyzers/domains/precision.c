/* precision: ASC6xx detectors. float64/complex128/bf16 names are rows in
 * kb_precision.def matched by pymatch; this file finds the patterns:
 *
 *  - ASC602: a complex-producing call (torch.polar, view_as_complex) fed
 *    float64, in its arguments or earlier in the same function (Wan RoPE);
 *  - ASC603: fp32 protection, `A(x.float()).type_as(x)` anywhere, and any
 *    upcast inside a normalization scope. A hand-written RMSNorm gets the
 *    fused call as its fix, other sites a fix that drops the upcast. A bare
 *    `.float()` elsewhere (data loading, logging) is not a finding;
 *  - ASC604: autocast regions with an explicit dtype worth a review;
 *  - ASC606: assertions on float dtypes.
 *
 * Every name (callees, methods, scope globs) comes from the detector rows. */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/domains.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"

#include <ctype.h>
#include <stdlib.h>

/* A plain-name assignment, for where a `.double()` receiver was made. */
typedef struct {
  TSNode name;
  bool host;
} PrecBinding;

typedef struct {
  AnalyzeCtx *ctx;
  const PyFile *py;
  Array(TSNode) markers;   /* float64 markers (qualified names or method calls) */
  Array(TSNode) complexes; /* complex-producing calls */
  Array(TSNode) upcasts;   /* x.float() */
  Array(TSNode) restores;  /* a.type_as(x) */
  Array(TSNode) rms_marks; /* rsqrt calls */
  Array(TSNode) products;  /* a * b */
  Array(TSNode) self_attrs;/* self.<name> */
  Array(TSNode) moves;     /* x.to(...), x.cuda(): a tensor moved to a device */
  Array(uint32_t) fed;     /* starts of float64 markers that feed a complex128 finding */
  StrList fp32_attrs;      /* X of `self.X = FP32LayerNorm(...)`: upcasts by itself */
  Array(ByteRange) host_blocks; /* with torch.device("cpu"): */
  Array(PrecBinding) names;     /* `x = ...` with whether x is then a host tensor */
  const KbEntry *cplx, *upcast, *roundtrip, *rms, *autocast, *follows, *dassert, *helper, *host, *selfcast, *rms_upcast,
      *normfn;
  bool uses_torch; /* the file imports torch: method rows apply to call results */
} Prec;

/* ---- helpers ------------------------------------------------------------------ */

static const KbEntry *precision__row(const Prec *p, const char *name) {
  return kb_lookup(KB_DETECTOR, name, p->ctx->opt->user_entries, p->ctx->opt->n_user_entries);
}

static bool precision__inside(TSNode outer, TSNode n) {
  return ts_node_start_byte(n) >= ts_node_start_byte(outer) && ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* Whether an attribute chain can match glob at all, before its name is
 * resolved: its qualified name ends with ".<attribute>", and an alternative
 * without '*' or '?' matches only a name equal to it. True when unsure. */
static bool precision__may_match(const Prec *p, TSNode n, const char *glob) {
  if (pysym_of(n) != PYSYM_ATTRIBUTE || strpbrk(glob, "*?")) return true;
  TSNode a = pysym_child(n, PYFIELD_ATTRIBUTE);
  if (ts_node_is_null(a)) return true;
  const char *name = p->py->text + ts_node_start_byte(a);
  size_t k = ts_node_end_byte(a) - ts_node_start_byte(a);
  const char *alt;
  size_t len;
  for (const char *alts = glob; util_alt_next(&alts, &alt, &len);)
    if (*alt != '!' && len > k && alt[len - k - 1] == '.' && memcmp(alt + len - k, name, k) == 0) return true;
  return false;
}

static bool precision__qual_matches(const Prec *p, TSNode n, const char *glob) {
  if (!glob || ts_node_is_null(n) || !precision__may_match(p, n, glob)) return false;
  char *q = pyfile_qualname(p->py, n);
  bool r = q && kb_pattern_match(glob, q);
  free(q);
  return r;
}

static bool precision__text_has(const Prec *p, TSNode n, const char *glob) {
  char *t = pyfile_node_text(p->py, n);
  bool r = t && kb_pattern_match(glob, t);
  free(t);
  return r;
}

/* For `recv.m(...)` on a non-module receiver: the method name. Caller frees. */
static char *precision__method(const Prec *p, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (!pysyntax_is(fn, "attribute")) return NULL;
  char *q = pyfile_qualname(p->py, fn);
  bool module = q != NULL;
  free(q);
  return module ? NULL : pyfile_node_text(p->py, pysym_child(fn, PYFIELD_ATTRIBUTE));
}

static TSNode precision__receiver(TSNode call) {
  return pysym_child(ts_node_child_by_field_name(call, "function", 8), PYFIELD_OBJECT);
}

static uint32_t precision__argc(TSNode call) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  return pysyntax_is(args, "argument_list") ? ts_node_named_child_count(args) : 0;
}

static bool precision__same_text(const Prec *p, TSNode x, TSNode y) {
  uint32_t xs = ts_node_start_byte(x), xe = ts_node_end_byte(x), ys = ts_node_start_byte(y), ye = ts_node_end_byte(y);
  return xe - xs == ye - ys && memcmp(p->py->text + xs, p->py->text + ys, xe - xs) == 0;
}

/* Does a '|' glob list hold a ".name" alternative matching this method? */
static bool precision__method_marker(const char *globs, const char *method) {
  char *dotted = xasprintf(".%s", method);
  bool r = kb_pattern_match(globs, dotted);
  free(dotted);
  return r;
}

static Finding *precision__emit(Prec *p, const KbEntry *row, TSNode at, const char *subject, const char *repl) {
  const KbRule *rule = kb_rule(row->code);
  if (!rule) return NULL;
  TSPoint s = ts_node_start_point(at), e = ts_node_end_point(at);
  Finding *f = kb_emit(p->ctx->out, rule, row, subject, repl, ts_node_start_byte(at), ts_node_end_byte(at), s.row,
                       s.column, e.row, e.column);
  return f;
}

/* Subject text: the node's source, cut to one short line. Caller frees. */
static char *precision__subject(const Prec *p, TSNode n) {
  /* line breaks and indentation collapse to one space: `(\n    a * b\n)` reads `( a * b )` */
  StrBuf sb;
  sb_init(&sb);
  bool space = false;
  for (uint32_t i = ts_node_start_byte(n), e = ts_node_end_byte(n); i < e && sb.len < 64; i++) {
    char c = p->py->text[i];
    bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (ws) {
      space = true;
      continue;
    }
    if (space && sb.len) sb_putc(&sb, ' ');
    space = false;
    sb_putc(&sb, c);
  }
  char *t = sb_steal(&sb);
  if (strlen(t) > 60) {
    char *cut = xasprintf("%.57s...", t);
    free(t);
    return cut;
  }
  return t;
}

static void precision__need_torch_npu(const Prec *p, Finding *f) {
  if (p->py->imports_torch_npu) return;
  char *ins = pysyntax_import_insertion(p->py, "import torch_npu");
  uint32_t at = pysyntax_import_point(p->py);
  finding_add_edit(f, at, at, ins);
  f->fix_needs_torch_npu = true;
  free(ins);
}

/* ---- the walk ------------------------------------------------------------------ */

/* autocast(..., dtype=<a reviewed dtype>) */
static void precision__autocast(Prec *p, TSNode call) {
  const KbEntry *row = p->autocast;
  if (!row || !precision__qual_matches(p, pysym_child(call, PYFIELD_FUNCTION), row->arg)) return;
  TSNode dt = pysyntax_argument(p->py, pysym_child(call, PYFIELD_ARGUMENTS), "dtype");
  if (ts_node_is_null(dt) || !precision__qual_matches(p, dt, row->value)) return;
  char *subj = precision__subject(p, call);
  Finding *f = precision__emit(p, row, call, subj, NULL);
  free(subj);
  /* a region whose device type follows a device (`device_type=x.device.type`)
   * is an NPU region once the device is the NPU: nothing to change here */
  const KbEntry *follows = p->follows;
  TSNode dev = follows ? pysyntax_argument(p->py, pysym_child(call, PYFIELD_ARGUMENTS), follows->value) : (TSNode){0};
  char *dname = ts_node_is_null(dev) ? NULL : pysyntax_name_text(p->py, dev);
  if (f && dname && kb_pattern_match(follows->arg, dname)) {
    f->severity = SEV_HINT;
    kb_append_note(f, follows, dname, NULL);
  }
  free(dname);
}

/* `torch.arange(n).double()`: the table matcher takes a receiver that is a
 * call of an imported function for a module and skips it, so method rows of
 * this domain are matched here for call receivers (once per site). */
static void precision__method_on_call(Prec *p, TSNode call, const char *method) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (!p->uses_torch || !pysyntax_is(pysym_child(fn, PYFIELD_OBJECT), "call")) return;
  const KbEntry *row = kb_lookup(KB_METHOD, method, p->ctx->opt->user_entries, p->ctx->opt->n_user_entries);
  if (!row || kb_domain(row->code) != 6) return;
  TSNode name = pysym_child(fn, PYFIELD_ATTRIBUTE);
  for (size_t i = 0; i < p->ctx->out->len; i++)
    if (p->ctx->out->items[i].start_byte == ts_node_start_byte(name) &&
        strcmp(p->ctx->out->items[i].rule->code, row->code) == 0)
      return;
  char *subj = xasprintf(".%s()", method);
  Finding *f = precision__emit(p, row, name, subj, NULL);
  if (f) {
    f->end_byte = ts_node_end_byte(call);
    f->end_row = ts_node_end_point(call).row;
    f->end_col = ts_node_end_point(call).column;
  }
  if (f && row->fix_kind == KBFIX_RENAME_NAME && row->fix_to) {
    f->fix = row->fix_safety;
    finding_add_edit(f, ts_node_start_byte(name), ts_node_end_byte(name), row->fix_to);
    if (row->needs_torch_npu) precision__need_torch_npu(p, f);
  }
  free(subj);
}

static void precision__call(Prec *p, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (p->cplx && precision__qual_matches(p, fn, p->cplx->arg)) array_push(&p->complexes, call);
  precision__autocast(p, call);
  char *m = precision__method(p, call);
  if (m) {
    if (p->upcast && kb_pattern_match(p->upcast->value, m) && precision__argc(call) == 0) array_push(&p->upcasts, call);
    if (p->upcast && p->upcast->fix_from && kb_pattern_match(p->upcast->fix_from, m) && precision__argc(call) == 1)
      array_push(&p->restores, call);
    if (p->cplx && precision__method_marker(p->cplx->value, m)) array_push(&p->markers, call);
    if (p->host && p->host->fix_from && kb_pattern_match(p->host->fix_from, m)) array_push(&p->moves, call);
    precision__method_on_call(p, call, m);
  }
  TSNode name = pysyntax_is(fn, "attribute") ? pysym_child(fn, PYFIELD_ATTRIBUTE) : fn;
  char *last = pysyntax_is(name, "identifier") ? pyfile_node_text(p->py, name) : NULL;
  if (last && p->rms && kb_pattern_match(p->rms->value, last)) array_push(&p->rms_marks, call);
  free(last);
  free(m);
}

static void precision__attribute(Prec *p, TSNode n) {
  if (p->cplx && precision__qual_matches(p, n, p->cplx->value)) array_push(&p->markers, n);
  TSNode obj = pysym_child(n, PYFIELD_OBJECT);
  uint32_t s = ts_node_start_byte(obj), e = ts_node_end_byte(obj);
  if (e - s == 4 && memcmp(p->py->text + s, "self", 4) == 0) array_push(&p->self_attrs, n);
}

/* `x = step(pred.to(torch.float32))` before `assert x.dtype == torch.float32`:
 * the last assignment to x in the block makes that dtype explicit, so the
 * assertion documents it. */
static bool precision__cast_before(const Prec *p, TSNode stmt, TSNode tested, TSNode dtype) {
  TSNode x = pysym_child(tested, PYFIELD_OBJECT);
  if (ts_node_is_null(x)) return false;
  /* the last assignment to x earlier in the same block decides */
  for (TSNode prev = forest_prev_named_sibling(p->ctx->forest, stmt); !ts_node_is_null(prev);
       prev = forest_prev_named_sibling(p->ctx->forest, prev)) {
    context_reads(p->ctx, ts_node_start_byte(prev), ts_node_end_byte(prev));
    TSNode asg = pysyntax_is(prev, "expression_statement") ? ts_node_named_child(prev, 0) : (TSNode){0};
    if (!pysyntax_is(asg, "assignment")) continue;
    TSNode left = pysym_child(asg, PYFIELD_LEFT), right = pysym_child(asg, PYFIELD_RIGHT);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !precision__same_text(p, left, x)) continue;
    char *d = pyfile_node_text(p->py, dtype);
    uint32_t s = ts_node_start_byte(right), e = ts_node_end_byte(right);
    bool r = d && *d && memmem(p->py->text + s, e - s, d, strlen(d)) != NULL;
    free(d);
    return r;
  }
  return false;
}

/* assert <x>.dtype == <dtype> (in any comparison of the condition). */
static void precision__assert(Prec *p, TSNode stmt) {
  const KbEntry *row = p->dassert;
  if (!row) return;
  uint32_t n = ts_node_named_child_count(stmt);
  TSNode cond = n ? ts_node_named_child(stmt, 0) : (TSNode){0};
  TSNode cmp[4];
  size_t nc = 0;
  if (pysyntax_is(cond, "comparison_operator")) cmp[nc++] = cond;
  for (uint32_t i = 0; pysyntax_is(cond, "boolean_operator") && i < ts_node_named_child_count(cond) && nc < 4; i++)
    if (pysyntax_is(ts_node_named_child(cond, i), "comparison_operator")) cmp[nc++] = ts_node_named_child(cond, i);
  for (size_t i = 0; i < nc; i++) {
    if (ts_node_named_child_count(cmp[i]) != 2) continue;
    TSNode x = ts_node_named_child(cmp[i], 0), y = ts_node_named_child(cmp[i], 1);
    char *xt = pyfile_node_text(p->py, x);
    bool hit = util_ends_with(xt, "dtype") && precision__qual_matches(p, y, row->value);
    free(xt);
    if (!hit || (pysyntax_is(x, "attribute") && precision__cast_before(p, stmt, x, y))) continue;
    char *subj = precision__subject(p, stmt);
    precision__emit(p, row, stmt, subj, NULL);
    free(subj);
    return; /* one finding per assertion */
  }
}

static bool precision__host_tensor(const Prec *p, TSNode call);

/* `self.norm1 = FP32LayerNorm(dim) if cross_norm else nn.Identity()`, and
 * `x = torch.rand(n)` (x is a host tensor from here on). */
static void precision__assignment(Prec *p, TSNode asg) {
  TSNode left = pysym_child(asg, PYFIELD_LEFT), right = pysym_child(asg, PYFIELD_RIGHT);
  if (pysyntax_is(left, "identifier") && !ts_node_is_null(right)) {
    PrecBinding b = {left, p->host && pysyntax_is(right, "call") && precision__host_tensor(p, right)};
    array_push(&p->names, b);
  }
  if (!p->selfcast || !pysyntax_is(left, "attribute") || ts_node_is_null(right)) return;
  char *obj = pyfile_node_text(p->py, pysym_child(left, PYFIELD_OBJECT));
  bool self = obj && strcmp(obj, "self") == 0;
  free(obj);
  if (self && precision__text_has(p, right, p->selfcast->arg))
    array_push(&p->fp32_attrs, pyfile_node_text(p->py, pysym_child(left, PYFIELD_ATTRIBUTE)));
}

/* `with torch.device("cpu"):` -- tensors made inside live on the host. */
static void precision__with(Prec *p, TSNode stmt) {
  if (!p->host) return;
  TSNode clause = ts_node_named_child(stmt, 0);
  for (uint32_t i = 0; pysyntax_is(clause, "with_clause") && i < ts_node_named_child_count(clause); i++) {
    TSNode item = ts_node_named_child(clause, i);
    TSNode v = ts_node_named_child_count(item) ? ts_node_named_child(item, 0) : (TSNode){0};
    if (!pysyntax_is(v, "call") || !precision__qual_matches(p, pysym_child(v, PYFIELD_FUNCTION), "torch.device"))
      continue;
    TSNode dev = pysyntax_argument(p->py, pysym_child(v, PYFIELD_ARGUMENTS), "0|type");
    char *d = pysyntax_is(dev, "string") ? pysyntax_string_value(p->py, dev) : NULL;
    if (d && kb_pattern_match(p->host->value, d)) {
      ByteRange r = {ts_node_start_byte(stmt), ts_node_end_byte(stmt)};
      array_push(&p->host_blocks, r);
    }
    free(d);
  }
}

static bool precision__visit(Prec *p, const PyVisit *v) {
  TSNode n = v->node;
  switch (v->sym) {
  case PYSYM_COMMENT: case PYSYM_STRING: case PYSYM_IMPORT_STATEMENT: case PYSYM_IMPORT_FROM_STATEMENT:
    return false;
  case PYSYM_CALL:
    precision__call(p, n);
    break;
  case PYSYM_ATTRIBUTE:
    precision__attribute(p, n);
    break;
  case PYSYM_ASSERT_STATEMENT:
    precision__assert(p, n);
    break;
  case PYSYM_ASSIGNMENT:
    precision__assignment(p, n);
    break;
  case PYSYM_WITH_STATEMENT:
    precision__with(p, n);
    break;
  case PYSYM_BINARY_OPERATOR: {
    TSNode op = pysym_child(n, PYFIELD_OPERATOR);
    if (!ts_node_is_null(op) && ts_node_end_byte(op) - ts_node_start_byte(op) == 1 &&
        p->ctx->text[ts_node_start_byte(op)] == '*')
      array_push(&p->products, n);
    break;
  }
  default:
    break;
  }
  return true;
}


/* ---- float64 off the device (ASC601) -------------------------------------------- */

/* The call whose arguments hold n (through keyword arguments, parentheses
 * and conditional arms); a null node when n is used another way. */
static TSNode precision__arg_of(TSNode n) {
  for (TSNode c = ts_node_parent(n); !ts_node_is_null(c); c = ts_node_parent(c)) {
    if (pysyntax_is(c, "argument_list")) return ts_node_parent(c);
    if (!pysyntax_is(c, "keyword_argument") && !pysyntax_is(c, "parenthesized_expression") &&
        !pysyntax_is(c, "conditional_expression"))
      break;
  }
  return (TSNode){0};
}

/* `maybe_adjust_dtype_for_device(torch.float64, x.device)`: a project helper
 * that picks the dtype for the device gets float64 as a request, not a tensor. */
static bool precision__dtype_helper(const Prec *p, TSNode call, TSNode site) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  char *q = pyfile_qualname(p->py, fn);
  bool torch_api = q && (strcmp(q, "torch") == 0 || util_starts_with(q, "torch."));
  free(q);
  TSNode name = pysyntax_is(fn, "attribute") ? pysym_child(fn, PYFIELD_ATTRIBUTE) : fn;
  if (torch_api || !pysyntax_is(name, "identifier") || !precision__text_has(p, name, p->helper->arg)) return false;
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++) {
    TSNode a = ts_node_named_child(args, i);
    if (!precision__inside(a, site) && precision__text_has(p, a, p->helper->value)) return true;
  }
  return false;
}

/* Whether the tensor a call makes lives on the host: a factory of the row
 * without device= (or with a host device), or `.to(dtype)` / `.double()` of
 * such a tensor. False when it names a device or when we cannot tell. */
static bool precision__host_tensor(const Prec *p, TSNode call) {
  for (int depth = 0; depth < 8 && pysyntax_is(call, "call"); depth++) {
    TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
    TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
    if (precision__qual_matches(p, fn, p->host->arg)) {
      TSNode dev = pysyntax_argument(p->py, args, "device");
      if (ts_node_is_null(dev)) return true;
      if (pysyntax_is(dev, "call")) dev = pysyntax_argument(p->py, pysym_child(dev, PYFIELD_ARGUMENTS), "0|type");
      char *v = pysyntax_is(dev, "string") ? pysyntax_string_value(p->py, dev) : NULL;
      bool host = v && kb_pattern_match(p->host->value, v);
      free(v);
      return host;
    }
    char *m = precision__method(p, call);
    bool cast = m && (strcmp(m, "to") == 0 || strcmp(m, "double") == 0 || strcmp(m, "type") == 0);
    free(m);
    if (!cast || precision__argc(call) > 1) return false;
    TSNode a = precision__argc(call) ? ts_node_named_child(args, 0) : (TSNode){0};
    if (!ts_node_is_null(a) && !precision__qual_matches(p, a, "torch.*")) return false; /* .to(device) */
    call = precision__receiver(call);
  }
  return false;
}

/* The statement of a node: the child of its block or module. */
static TSNode precision__statement(TSNode n) {
  for (TSNode c = ts_node_parent(n); !ts_node_is_null(c); n = c, c = ts_node_parent(c))
    if (pysyntax_is(c, "block") || pysyntax_is(c, "module")) return n;
  return n;
}

/* A move without a dtype: `.to(device)`, `.cuda()`, not `.to(device, torch.float32)`. */
static bool precision__move_keeps_dtype(const Prec *p, TSNode move) {
  TSNode args = pysym_child(move, PYFIELD_ARGUMENTS);
  if (!ts_node_is_null(pysyntax_argument(p->py, args, "dtype"))) return false;
  for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++)
    if (precision__qual_matches(p, ts_node_named_child(args, i), "torch.*")) return false;
  return true;
}

/* Whether expression e uses the name or attribute chain `name` (as a whole
 * word: `(sigmas[i] * 1000)` uses `sigmas`). */
static bool precision__mentions(const Prec *p, TSNode e, TSNode name) {
  uint32_t es = ts_node_start_byte(e), ee = ts_node_end_byte(e);
  uint32_t ns = ts_node_start_byte(name), nl = ts_node_end_byte(name) - ns;
  const char *t = p->py->text;
  for (uint32_t at = es; nl && at + nl <= ee; at++) {
    if (memcmp(t + at, t + ns, nl) != 0) continue;
    char b = at > es ? t[at - 1] : ' ', a = at + nl < ee ? t[at + nl] : ' ';
    bool word_b = isalnum((unsigned char)b) || b == '_' || b == '.';
    bool word_a = isalnum((unsigned char)a) || a == '_';
    if (!word_b && !word_a) return true;
  }
  return false;
}

/* Does the host tensor made at `call` go to a device? Its assignment target
 * (`x = ...`, `x[i] = ...`) must be moved later in the same function. */
static bool precision__reaches_device(const Prec *p, TSNode call) {
  TSNode stmt = precision__statement(call);
  TSNode asg = ts_node_named_child_count(stmt) ? ts_node_named_child(stmt, 0) : (TSNode){0};
  if (!pysyntax_is(asg, "assignment") && !pysyntax_is(asg, "augmented_assignment")) return false;
  TSNode target = pysym_child(asg, PYFIELD_LEFT);
  while (pysyntax_is(target, "subscript")) target = ts_node_child_by_field_name(target, "value", 5);
  if (ts_node_is_null(target) || precision__inside(target, call)) return false;
  const PyFunction *fn = pyfile_function_at(p->py, ts_node_start_byte(call));
  for (size_t i = 0; i < p->moves.len; i++) {
    TSNode mv = p->moves.items[i];
    if (ts_node_start_byte(mv) < ts_node_end_byte(stmt) || pyfile_function_at(p->py, ts_node_start_byte(mv)) != fn)
      continue;
    if (precision__mentions(p, precision__receiver(mv), target) && precision__move_keeps_dtype(p, mv)) return true;
  }
  return false;
}

/* `x.double()` where x was last bound, in the same function, to a host tensor. */
static bool precision__host_name(const Prec *p, TSNode recv, TSNode at) {
  if (!pysyntax_is(recv, "identifier")) return pysyntax_is(recv, "call") && precision__host_tensor(p, recv);
  const PyFunction *fn = pyfile_function_at(p->py, ts_node_start_byte(at));
  bool host = false;
  for (size_t i = 0; i < p->names.len; i++) {
    TSNode n = p->names.items[i].name;
    if (ts_node_start_byte(n) >= ts_node_start_byte(at)) break;
    if (pyfile_function_at(p->py, ts_node_start_byte(n)) == fn && precision__same_text(p, n, recv))
      host = p->names.items[i].host;
  }
  return host;
}

static TSNode precision__enclosing_call(TSNode n) {
  for (int i = 0; i < 3 && !ts_node_is_null(n); i++, n = ts_node_parent(n))
    if (pysyntax_is(n, "call")) return n;
  return (TSNode){0};
}

/* `functools.partial(torch.tensor, dtype=torch.double, device='mlu')`: the
 * call names a device that is not the accelerator being ported. */
static bool precision__other_device_arg(const Prec *p, TSNode call) {
  TSNode dev = pysyntax_argument(p->py, pysym_child(call, PYFIELD_ARGUMENTS), "device");
  char *v = pysyntax_is(dev, "string") ? pysyntax_string_value(p->py, dev) : NULL;
  bool other = v && kb_pattern_match(p->host->value, v);
  free(v);
  return other;
}

/* A call that makes or moves a tensor with the dtype it gets: a torch API or
 * a method (`x.to(dtype)`); a project function decides for itself. */
static bool precision__tensor_call(const Prec *p, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  char *q = pyfile_qualname(p->py, fn);
  bool torch_api = q && (strcmp(q, "torch") == 0 || util_starts_with(q, "torch."));
  free(q);
  if (torch_api) return true;
  char *m = precision__method(p, call);
  bool method = m != NULL;
  free(m);
  return method;
}

/* `freqs_dtype = torch.float32 if is_mps else torch.float64` whose every later
 * use in the function is an argument of project functions
 * (get_1d_rotary_pos_embed(..., freqs_dtype=freqs_dtype)), which pick the
 * dtype per device as the dtype helpers do, or of host factories whose
 * tensor stays on the host. */
static bool precision__dtype_var_to_helpers(const Prec *p, TSNode site) {
  TSNode stmt = precision__statement(site);
  TSNode asg = ts_node_named_child_count(stmt) ? ts_node_named_child(stmt, 0) : (TSNode){0};
  TSNode name = pysyntax_is(asg, "assignment") ? pysym_child(asg, PYFIELD_LEFT) : (TSNode){0};
  if (!pysyntax_is(name, "identifier")) return false;
  const PyFunction *fn = pyfile_function_at(p->py, ts_node_start_byte(site));
  if (!fn) return false;
  uint32_t ns = ts_node_start_byte(name), nl = ts_node_end_byte(name) - ns;
  for (uint32_t at = ts_node_end_byte(stmt);;) {
    TSNode use = pyfile_next_name(p->py, p->py->text + ns, nl, &at, fn->end);
    if (ts_node_is_null(use)) return true;
    TSNode call = precision__arg_of(use);
    if (ts_node_is_null(call)) return false;
    bool host = p->host && precision__host_tensor(p, call) && !precision__reaches_device(p, call);
    if (precision__tensor_call(p, call) && !host) return false;
  }
}

/* A host float64 that feeds torch.polar / view_as_complex stays a finding:
 * the complex128 it makes goes to the device (Wan's rope_params). */
static bool precision__off_device(const Prec *p, const Finding *f) {
  for (size_t i = 0; i < p->fed.len; i++)
    if (p->fed.items[i] == f->start_byte) return false;
  TSNode site = forest_node_at(p->ctx->forest, f->start_byte, f->end_byte);
  if (p->host && pyfile_in_ranges(p->host_blocks.items, p->host_blocks.len, f->start_byte))
    return !precision__reaches_device(p, site);
  if (f->entry->match == KB_METHOD) {
    TSNode mcall = precision__enclosing_call(site);
    return p->host && !ts_node_is_null(mcall) && precision__host_name(p, precision__receiver(mcall), mcall) &&
           !precision__reaches_device(p, mcall);
  }
  TSNode call = precision__arg_of(site);
  if (ts_node_is_null(call)) return p->helper && precision__dtype_var_to_helpers(p, site);
  if (p->helper && precision__dtype_helper(p, call, site)) return true;
  if (p->host && precision__other_device_arg(p, call)) return true;
  return p->host && precision__host_tensor(p, call) && !precision__reaches_device(p, call);
}

/* The float64 findings (names and `.double()`) the matcher made for
 * host-only or helper-adjusted sites are dropped. */
static bool precision__float64_off_device(void *data, const Finding *f) {
  const Prec *p = data;
  const char *code = (p->host ? p->host : p->helper)->code;
  return f->entry && (f->entry->match == KB_QUALNAME || f->entry->match == KB_METHOD) &&
         strcmp(f->rule->code, code) == 0 && precision__off_device(p, f);
}

/* ---- complex128 (ASC602) ------------------------------------------------------- */

/* `torch.polar(a, b).to(torch.complex64)`: the result is complex64 already. */
static bool precision__cast_complex64(const Prec *p, TSNode call) {
  TSNode attr = ts_node_parent(call);
  TSNode cast = pysyntax_is(attr, "attribute") ? ts_node_parent(attr) : (TSNode){0};
  if (!pysyntax_is(cast, "call")) return false;
  TSNode a = pysyntax_argument(p->py, pysym_child(cast, PYFIELD_ARGUMENTS), "0|dtype");
  return precision__qual_matches(p, a, "torch.complex64|torch.cfloat");
}

/* Markers inside the call become fix_to (qualified names only: a `.double()`
 * is its own float64 finding); with the float64 earlier in the function, the
 * result is cast with fix_from. */
static void precision__complex(Prec *p, TSNode call) {
  const KbEntry *row = p->cplx;
  const PyFunction *fn = pyfile_function_at(p->py, ts_node_start_byte(call));
  TSNode inside[8], before = {0};
  size_t n_in = 0;
  for (size_t i = 0; i < p->markers.len; i++) {
    TSNode m = p->markers.items[i];
    TSNode helper = precision__arg_of(m);
    if (p->helper && !ts_node_is_null(helper) && precision__dtype_helper(p, helper, m)) continue;
    if (precision__inside(call, m)) {
      if (n_in < 8) inside[n_in++] = m;
    } else if (ts_node_end_byte(m) <= ts_node_start_byte(call) && pyfile_function_at(p->py, ts_node_start_byte(m)) == fn &&
               fn) {
      before = m;
    }
  }
  if (!n_in && ts_node_is_null(before)) return;
  if (precision__cast_complex64(p, call) ||
      pyfile_in_ranges(p->host_blocks.items, p->host_blocks.len, ts_node_start_byte(call)))
    return;
  for (size_t i = 0; i < n_in; i++) array_push(&p->fed, ts_node_start_byte(inside[i]));
  if (!ts_node_is_null(before)) array_push(&p->fed, ts_node_start_byte(before));
  char *callee = pyfile_qualname(p->py, pysym_child(call, PYFIELD_FUNCTION));
  TSNode src = n_in ? inside[0] : before;
  char *subj = xasprintf("%s(...) on float64 (line %u)", callee ? callee : "complex", ts_node_start_point(src).row + 1);
  context_depends(p->ctx, UNIT_READS_ROWS);
  Finding *f = precision__emit(p, row, call, subj, NULL);
  if (f && n_in) {
    for (size_t i = 0; i < n_in; i++)
      if (!pysyntax_is(inside[i], "call"))
        finding_add_edit(f, ts_node_start_byte(inside[i]), ts_node_end_byte(inside[i]), row->fix_to);
  } else if (f && row->fix_from) {
    finding_add_edit(f, ts_node_end_byte(call), ts_node_end_byte(call), row->fix_from);
  }
  if (f) f->fix = f->edits.len ? row->fix_safety : FIX_NONE;
  free(subj);
  free(callee);
}

/* ---- fp32 protection (ASC603) ----------------------------------------------------- */

/* Does the innermost function (or its class) look like a normalization? */
static bool precision__norm_scope(const Prec *p, uint32_t at) {
  const PyFunction *f = pyfile_function_at(p->py, at);
  if (!f) return false;
  return (p->normfn && kb_pattern_match(p->normfn->arg, f->name)) ||
         (f->class_name && kb_pattern_match(p->upcast->arg, f->class_name));
}

/* `self.<eps>` inside the class, by the row's name glob. */
static TSNode precision__eps_attr(const Prec *p, const PyClass *c) {
  for (size_t i = 0; i < p->self_attrs.len; i++) {
    TSNode a = p->self_attrs.items[i];
    if (ts_node_start_byte(a) < c->start || ts_node_end_byte(a) > c->end) continue;
    char *nm = pyfile_node_text(p->py, pysym_child(a, PYFIELD_ATTRIBUTE));
    bool ok = kb_pattern_match(p->rms->fix_from, nm);
    free(nm);
    if (ok) return a;
  }
  return (TSNode){0};
}

/* A hand-written RMSNorm: `<restore> * self.<w>` in a class named like an
 * RMS norm that calls the rsqrt marker. Returns the product to replace and
 * fills the weight and epsilon. */
static bool precision__rms(const Prec *p, TSNode restore, TSNode *product, TSNode *weight, TSNode *eps) {
  if (!p->rms) return false;
  const PyClass *c = pyfile_class_at(p->py, ts_node_start_byte(restore));
  if (!c || !kb_pattern_match(p->rms->arg, c->name)) return false;
  bool marked = false;
  for (size_t i = 0; i < p->rms_marks.len && !marked; i++)
    marked = ts_node_start_byte(p->rms_marks.items[i]) >= c->start && ts_node_end_byte(p->rms_marks.items[i]) <= c->end;
  *eps = precision__eps_attr(p, c);
  if (!marked || ts_node_is_null(*eps)) return false;
  for (size_t i = 0; i < p->products.len; i++) {
    TSNode m = p->products.items[i];
    TSNode l = pysym_child(m, PYFIELD_LEFT), r = pysym_child(m, PYFIELD_RIGHT);
    TSNode other = ts_node_eq(l, restore) ? r : ts_node_eq(r, restore) ? l : (TSNode){0};
    if (ts_node_is_null(other) || !pysyntax_is(other, "attribute")) continue;
    char *ot = pyfile_node_text(p->py, other);
    bool self_attr = util_starts_with(ot, "self.");
    free(ot);
    if (!self_attr) continue;
    *product = m;
    *weight = other;
    return true;
  }
  return false;
}

/* `self.norm1(x.float())`: the upcast is an argument of a call named like a
 * norm (the round-trip row's `arg`). */
static bool precision__feeds_norm(const Prec *p, TSNode upcast) {
  TSNode call = precision__arg_of(upcast);
  if (ts_node_is_null(call) || !p->roundtrip->arg) return false;
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  TSNode name = pysyntax_is(fn, "attribute") ? pysym_child(fn, PYFIELD_ATTRIBUTE) : fn;
  return pysyntax_is(name, "identifier") && precision__text_has(p, name, p->roundtrip->arg);
}

/* `self.<nm> = FP32LayerNorm(...)` in another unit of the file (the module
 * is often made in one class and used in another's forward). */
static bool precision__fp32_attr_elsewhere(const Prec *p, const char *nm) {
  if (!p->selfcast || p->ctx->unit->file) return false;
  context_depends(p->ctx, UNIT_READS_FILE);
  size_t n = strlen(nm);
  for (uint32_t at = 0;;) {
    TSNode id = pyfile_next_name(p->py, nm, n, &at, (uint32_t)p->py->len);
    if (ts_node_is_null(id)) return false;
    if (ts_node_start_byte(id) >= p->ctx->unit->start && ts_node_start_byte(id) < p->ctx->unit->end) continue;
    TSNode attr = ts_node_parent(id), asg = ts_node_parent(attr);
    if (!pysyntax_is(attr, "attribute") || !pysyntax_is(asg, "assignment") ||
        !ts_node_eq(pysym_child(asg, PYFIELD_LEFT), attr) || !ts_node_eq(pysym_child(attr, PYFIELD_ATTRIBUTE), id))
      continue;
    TSNode obj = pysym_child(attr, PYFIELD_OBJECT), right = pysym_child(asg, PYFIELD_RIGHT);
    uint32_t os = ts_node_start_byte(obj), oe = ts_node_end_byte(obj);
    bool self = oe - os == 4 && memcmp(p->py->text + os, "self", 4) == 0;
    if (self && !ts_node_is_null(right) && precision__text_has(p, right, p->selfcast->arg)) return true;
  }
}

/* `self.norm(x.float())` with `self.norm = FP32LayerNorm(...)`: the module
 * upcasts by itself, so the call site adds nothing. */
static bool precision__feeds_self_upcasting(const Prec *p, TSNode upcast) {
  TSNode call = precision__arg_of(upcast);
  TSNode fn = ts_node_is_null(call) ? call : pysym_child(call, PYFIELD_FUNCTION);
  if (!pysyntax_is(fn, "attribute")) return false;
  char *nm = pyfile_node_text(p->py, pysym_child(fn, PYFIELD_ATTRIBUTE));
  bool hit = false;
  for (size_t i = 0; nm && i < p->fp32_attrs.len && !hit; i++) hit = strcmp(p->fp32_attrs.items[i], nm) == 0;
  if (nm && !hit) hit = precision__fp32_attr_elsewhere(p, nm);
  free(nm);
  return hit;
}

/* `A(x.float()).type_as(x)` -> `A(x)`: the text of A with the upcast removed. */
static char *precision__drop_upcast(const Prec *p, TSNode restore, TSNode upcast) {
  TSNode recv = precision__receiver(restore), inner = precision__receiver(upcast);
  uint32_t rs = ts_node_start_byte(recv), re = ts_node_end_byte(recv);
  uint32_t us = ts_node_start_byte(upcast), ue = ts_node_end_byte(upcast);
  uint32_t is = ts_node_start_byte(inner), ie = ts_node_end_byte(inner);
  return xasprintf("%.*s%.*s%.*s", (int)(us - rs), p->py->text + rs, (int)(ie - is), p->py->text + is,
                   (int)(re - ue), p->py->text + ue);
}

static void precision__restore_fix(Prec *p, TSNode restore, TSNode upcast) {
  TSNode product, weight, eps;
  TSNode x = precision__receiver(upcast);
  if (precision__rms(p, restore, &product, &weight, &eps)) {
    char *subj = precision__subject(p, product);
    char *xt = pyfile_node_text(p->py, x), *wt = pyfile_node_text(p->py, weight), *et = pyfile_node_text(p->py, eps);
    char *call = xasprintf("%s(%s, %s, epsilon=%s)[0]", p->rms->fix_to, xt, wt, et);
    Finding *f = precision__emit(p, p->rms, product, subj, call);
    if (f) {
      f->fix = p->rms->fix_safety;
      finding_add_edit(f, ts_node_start_byte(product), ts_node_end_byte(product), call);
      precision__need_torch_npu(p, f);
    }
    free(call);
    free(xt);
    free(wt);
    free(et);
    free(subj);
    return;
  }
  bool scope = precision__norm_scope(p, ts_node_start_byte(restore));
  if ((!scope && !precision__feeds_norm(p, upcast)) || precision__feeds_self_upcasting(p, upcast)) return;
  const KbEntry *row = scope ? p->upcast : p->roundtrip;
  char *subj = precision__subject(p, restore);
  char *text = precision__drop_upcast(p, restore, upcast);
  char *repl = xasprintf("%s (%s)", text, row->replacement);
  Finding *f = precision__emit(p, row, restore, subj, repl);
  if (f) {
    f->fix = row->fix_safety;
    finding_add_edit(f, ts_node_start_byte(restore), ts_node_end_byte(restore), text);
  }
  free(repl);
  free(text);
  free(subj);
}

/* Is the upcast part of an RMSNorm: in a class or function named like one,
 * or fed to a call named like one (F.rms_norm)? */
static bool precision__rms_context(const Prec *p, TSNode upcast) {
  if (!p->rms || !p->rms_upcast) return false;
  const PyFunction *f = pyfile_function_at(p->py, ts_node_start_byte(upcast));
  if (f && (kb_pattern_match(p->rms->arg, f->name) || (f->class_name && kb_pattern_match(p->rms->arg, f->class_name))))
    return true;
  TSNode call = precision__arg_of(upcast);
  if (ts_node_is_null(call)) return false;
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  TSNode name = pysyntax_is(fn, "attribute") ? pysym_child(fn, PYFIELD_ATTRIBUTE) : fn;
  return pysyntax_is(name, "identifier") && precision__text_has(p, name, p->rms->arg);
}

static void precision__upcasts(Prec *p) {
  bool *used = xcalloc(p->upcasts.len + 1, sizeof *used);
  /* `x.float() if needs_fp32 else x`: the upcast is already a setting */
  for (size_t k = 0; k < p->upcasts.len; k++)
    used[k] = pysyntax_is(ts_node_parent(p->upcasts.items[k]), "conditional_expression");
  for (size_t i = 0; i < p->restores.len; i++) {
    TSNode r = p->restores.items[i];
    TSNode recv = precision__receiver(r);
    TSNode target = ts_node_named_child(pysym_child(r, PYFIELD_ARGUMENTS), 0);
    for (size_t k = 0; k < p->upcasts.len; k++) {
      TSNode u = p->upcasts.items[k];
      if (used[k] || !precision__inside(recv, u) || !precision__same_text(p, precision__receiver(u), target)) continue;
      used[k] = true;
      precision__restore_fix(p, r, u);
      for (size_t j = 0; j < p->upcasts.len; j++) used[j] = used[j] || precision__inside(recv, p->upcasts.items[j]);
      break;
    }
  }
  uint32_t stmt_end = 0; /* one finding per statement: `(x.float() * (1 + s.float()))` is one change */
  const PyFunction *rms_fn = NULL;
  for (size_t k = 0; k < p->upcasts.len; k++) {
    TSNode u = p->upcasts.items[k];
    if (used[k] || ts_node_start_byte(u) < stmt_end || !precision__norm_scope(p, ts_node_start_byte(u))) continue;
    bool rms = precision__rms_context(p, u);
    const PyFunction *fn = pyfile_function_at(p->py, ts_node_start_byte(u));
    if (rms && fn && fn == rms_fn) continue; /* one fused call replaces every upcast of the norm */
    if (rms) rms_fn = fn;
    stmt_end = ts_node_end_byte(precision__statement(u));
    char *subj = precision__subject(p, u);
    precision__emit(p, rms ? p->rms_upcast : p->upcast, u, subj, NULL);
    free(subj);
  }
  free(used);
}

static void *precision__begin(AnalyzeCtx *ctx) {
  if (ctx->kind != FILE_PYTHON || !ctx->py) return NULL;
  Prec *p = xcalloc(1, sizeof *p);
  p->ctx = ctx;
  p->py = ctx->py;
  p->cplx = precision__row(p, "complex-from-float64");
  p->upcast = precision__row(p, "norm-upcast");
  p->roundtrip = precision__row(p, "fp32-roundtrip");
  p->rms = precision__row(p, "rms-norm");
  p->autocast = precision__row(p, "autocast-dtype");
  p->follows = precision__row(p, "autocast-follows-device");
  p->dassert = precision__row(p, "dtype-assert");
  p->helper = precision__row(p, "float64-dtype-helper");
  p->host = precision__row(p, "float64-host-factory");
  p->selfcast = precision__row(p, "self-upcasting-norm");
  p->rms_upcast = precision__row(p, "rms-upcast");
  p->normfn = precision__row(p, "norm-function");
  for (size_t i = 0; i < p->py->bindings.len && !p->uses_torch; i++)
    p->uses_torch = util_starts_with(p->py->bindings.items[i].qualname, "torch");
  return p;
}

static bool precision__visit_node(void *state, const PyVisit *v) { return precision__visit(state, v); }

static void precision__end(void *state) {
  Prec *p = state;
  for (size_t i = 0; p->cplx && i < p->complexes.len; i++) precision__complex(p, p->complexes.items[i]);
  if (p->upcast && p->roundtrip) precision__upcasts(p);
  if (p->host || p->helper) findings_drop_if(p->ctx->out, precision__float64_off_device, p);
  array_free(&p->markers);
  array_free(&p->complexes);
  array_free(&p->upcasts);
  array_free(&p->restores);
  array_free(&p->rms_marks);
  array_free(&p->products);
  array_free(&p->self_attrs);
  array_free(&p->moves);
  array_free(&p->fed);
  strlist_free(&p->fp32_attrs);
  array_free(&p->host_blocks);
  array_free(&p->names);
  free(p);
}

const PyVisitor precision_visitor = {precision__begin, precision__visit_node, precision__end};
