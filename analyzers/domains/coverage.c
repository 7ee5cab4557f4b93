/* coverage: operator coverage (ASC219-ASC223). Every resolved call of an
 * ordinary torch API (the "coverage-scope" row: torch.*, torch.nn.functional,
 * torch.linalg, torch.fft, nn modules) and every Tensor method called on a
 * receiver known to be a tensor (a tensor-producing torch call, or a
 * parameter annotated torch.Tensor) is looked up in the torch_npu support
 * list of the target version and chip (kb_support_lookup):
 *
 *  - marked unsupported: ASC219 at each call;
 *  - a visible breach of the listed restriction (a float64 / complex
 *    argument the dtype list leaves out, a shape with more dimensions than
 *    the limit): ASC221 at each call;
 *  - may fall back to the CPU: ASC222, once per API and file;
 *  - a restriction that says more than the call can show: ASC220 (a hint:
 *    something to check, not work), once per API and file. A dtype list
 *    that names fp32, a dimension limit with no argument visibly outside it,
 *    and the list notes that say nothing about this call (the
 *    "coverage-note:" rows: a keyword it does not pass, a caveat true on
 *    every device, another chip) say so in the message
 *    ("coverage-dtype-only"). Predicates and containers
 *    ("coverage-dtype-plumbing") and nn module constructors (their dtype
 *    line is about the input of forward) get no dtype finding at all;
 *  - not listed (or not for the chip): ASC223, once per API and file.
 *
 * A chip the list does not cover (310P, 910A) gets no coverage findings:
 * the list says nothing about it. All names come from kb rows. */
#include "analyzers/engine/context.h"
#include "analyzers/domains/domains.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"
#include "analyzers/python/pysym.h"

#include <stdlib.h>

/* A name bound in [start, end): a tensor parameter (value null) or a plain
 * assignment (value = its right-hand side, end = the end of the enclosing
 * function or file). */
typedef struct {
  uint32_t name_start, name_len;
  uint32_t start, end;
  TSNode value;
} CovName;

typedef struct {
  AnalyzeCtx *ctx;
  const PyFile *py;
  int version;                   /* index of the support list */
  const KbSupportVersion *list;
  const KbEntry *scope, *tensor, *shape, *plumbing, *dtype_only;
  Array(const KbEntry *) notes;  /* the "coverage-note:" rows for this chip */
  const KbEntry *dtype_rows[3];  /* fp64, complex64, complex128 */
  StrList once;                  /* "<code> <api>" already reported in this file */
  /* Both filled as the walk goes (document order), so nothing walks up the
   * tree (ts_node_parent starts from the root each time). */
  Array(CovName) params;         /* parameters annotated as tensors, innermost function last */
  Array(CovName) assigns;        /* `name = value` statements seen so far */
} Cov;

/* The first child: a call's function, an attribute's object, an
 * assignment's left side. Cheaper than a field lookup, and the walk asks
 * for it at every call. */
static TSNode coverage__head(TSNode n) { return ts_node_child(n, 0); }

static const char *const coverage__dtypes[3] = {"fp64", "complex64", "complex128"};

static const KbEntry *coverage__row(const AnalyzeCtx *ctx, const char *name) {
  return kb_lookup(KB_DETECTOR, name, ctx->opt->user_entries, ctx->opt->n_user_entries);
}

static const char *coverage__chip(unsigned chip, bool zh) {
  switch (chip) {
  case CHIP_A3: return zh ? "Atlas A3 训练系列产品" : "Atlas A3";
  case CHIP_950: return "Ascend 950DT";
  case CHIP_910A: return zh ? "Atlas 训练系列产品" : "Atlas training (910A)";
  default: return zh ? "Atlas A2 训练系列产品" : "Atlas A2 (910B)";
  }
}

static bool coverage__any_selected(const AnalyzeOptions *o) {
  static const char *const codes[] = {"ASC219", "ASC220", "ASC221", "ASC222", "ASC223"};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (context_code_selected(o, codes[i])) return true;
  return false;
}

static void *coverage__begin(AnalyzeCtx *ctx) {
  if (ctx->kind != FILE_PYTHON || !ctx->py || !ctx->py->has_torch_import || !coverage__any_selected(ctx->opt))
    return NULL;
  bool fallback;
  int v = kb_support_version(ctx->opt->torch_npu, &fallback);
  size_t nv;
  const KbSupportVersion *vs = kb_support_versions(&nv);
  const KbEntry *scope = coverage__row(ctx, "coverage-scope");
  if (v < 0 || !(vs[v].chips & ctx->opt->chip) || !scope) return NULL;
  Cov *c = xcalloc(1, sizeof *c);
  c->ctx = ctx;
  c->py = ctx->py;
  c->version = v;
  c->list = &vs[v];
  c->scope = scope;
  c->tensor = coverage__row(ctx, "coverage-tensor");
  c->shape = coverage__row(ctx, "coverage-shape");
  c->plumbing = coverage__row(ctx, "coverage-dtype-plumbing");
  c->dtype_only = coverage__row(ctx, "coverage-dtype-only");
  size_t ne;
  const KbEntry *rows = kb_entries(&ne);
  for (size_t i = 0; i < ne; i++)
    if (rows[i].match == KB_DETECTOR && util_starts_with(rows[i].pattern, "coverage-note:") && rows[i].arg &&
        (!rows[i].chips || (rows[i].chips & ctx->opt->chip)))
      array_push(&c->notes, &rows[i]);
  for (size_t i = 0; i < 3; i++) {
    char name[40];
    snprintf(name, sizeof name, "coverage-dtype-%s", coverage__dtypes[i]);
    c->dtype_rows[i] = coverage__row(ctx, name);
  }
  return c;
}

/* ---- what the call is ------------------------------------------------------------ */

static bool coverage__qual_matches(const Cov *c, TSNode n, const char *glob) {
  if (!glob || ts_node_is_null(n)) return false;
  char *q = pyfile_qualname(c->py, n);
  bool r = q && kb_pattern_match(glob, q);
  free(q);
  return r;
}

/* The name of `recv.m(...)`'s method when recv is not a module; NULL else. Caller frees. */
static char *coverage__method(const Cov *c, TSNode fn) {
  if (!pysyntax_is(fn, "attribute")) return NULL;
  return pyfile_node_text(c->py, pysym_child(fn, PYFIELD_ATTRIBUTE));
}

static bool coverage__same_name(const Cov *c, const CovName *b, uint32_t s, uint32_t n) {
  return b->name_len == n && memcmp(c->py->text + b->name_start, c->py->text + s, n) == 0;
}

/* Records the parameters of a function definition annotated as tensors. */
static void coverage__function(Cov *c, TSNode fn) {
  TSNode ps = pysym_child(fn, PYFIELD_PARAMETERS);
  uint32_t np = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
  for (uint32_t i = 0; i < np && c->tensor && c->tensor->value; i++) {
    TSNode p = ts_node_named_child(ps, i);
    bool typed = pysyntax_is(p, "typed_parameter");
    if (!typed && !pysyntax_is(p, "typed_default_parameter")) continue;
    TSNode type = ts_node_child_by_field_name(p, "type", 4);
    TSNode name = typed ? ts_node_named_child(p, 0) : pysym_child(p, PYFIELD_NAME);
    if (pysyntax_is(type, "type") && ts_node_named_child_count(type) == 1) type = ts_node_named_child(type, 0);
    /* most annotations are not tensors: look at the spelling before resolving it */
    uint32_t te = ts_node_is_null(type) ? 0 : ts_node_end_byte(type);
    bool tensorish = te >= 6 && memcmp(c->py->text + te - 6, "Tensor", 6) == 0;
    if (tensorish && pysyntax_is(name, "identifier") && coverage__qual_matches(c, type, c->tensor->value)) {
      CovName b;
      memset(&b, 0, sizeof b);
      b.name_start = ts_node_start_byte(name);
      b.name_len = ts_node_end_byte(name) - b.name_start;
      b.start = ts_node_start_byte(fn);
      b.end = ts_node_end_byte(fn);
      array_push(&c->params, b);
    }
  }
}

/* Records `name = <call>` (a plain name on the left): the casts and shapes
 * a later argument may name. Its scope is checked when it is looked up. */
static void coverage__assignment(Cov *c, TSNode a) {
  TSNode left = coverage__head(a);
  if (!pysyntax_is(left, "identifier")) return;
  TSNode right = pysym_child(a, PYFIELD_RIGHT);
  if (!pysyntax_is(right, "call")) return;
  CovName b;
  memset(&b, 0, sizeof b);
  b.name_start = ts_node_start_byte(left);
  b.name_len = ts_node_end_byte(left) - b.name_start;
  b.start = ts_node_end_byte(a);
  b.end = UINT32_MAX;
  b.value = right;
  array_push(&c->assigns, b);
}

/* Whether the receiver of a method call is known to be a tensor: a tensor
 * parameter or a tensor-producing torch call, possibly through a chain of
 * method calls on it (`x.clamp(0, 1).acos_()`). */
static bool coverage__is_tensor(Cov *c, TSNode recv) {
  if (!c->tensor) return false;
  for (TSNode fn; pysyntax_is(recv, "call") && pysyntax_is(fn = coverage__head(recv), "attribute");) {
    char *q = pyfile_qualname(c->py, fn);
    free(q);
    if (q) break;
    recv = coverage__head(fn);
  }
  if (pysyntax_is(recv, "call")) return coverage__qual_matches(c, coverage__head(recv), c->tensor->arg);
  if (!pysyntax_is(recv, "identifier") || !c->tensor->value) return false;
  uint32_t s = ts_node_start_byte(recv), e = ts_node_end_byte(recv);
  if ((e - s == 4 && memcmp(c->py->text + s, "self", 4) == 0) || (e - s == 3 && memcmp(c->py->text + s, "cls", 3) == 0))
    return false;
  for (size_t i = c->params.len; i-- > 0;) {
    const CovName *p = &c->params.items[i];
    if (p->start <= s && s < p->end && coverage__same_name(c, p, s, e - s)) return true;
  }
  return false;
}

/* The API a call names ("torch.linalg.norm", "torch.Tensor.add_"), or NULL. Caller frees. */
static char *coverage__api(Cov *c, TSNode call) {
  TSNode fn = coverage__head(call);
  char *q = pyfile_qualname(c->py, fn);
  if (q) {
    if (strncmp(q, "torch.", 6) == 0 && kb_pattern_match(c->scope->arg, q)) return q;
    free(q);
    return NULL;
  }
  if (!pysyntax_is(fn, "attribute") || !coverage__is_tensor(c, coverage__head(fn))) return NULL;
  char *m = coverage__method(c, fn);
  if (!m || m[0] == '_') {
    free(m);
    return NULL;
  }
  char *api = xasprintf("torch.Tensor.%s", m);
  free(m);
  if (kb_pattern_match(c->scope->arg, api)) return api; /* the scope row holds the methods torch_npu adds */
  free(api);
  return NULL;
}

/* ---- visible breaches --------------------------------------------------------------- */

/* The dtype (support-list spelling) an argument visibly has: a dtype name
 * (dtype=torch.float64), a cast (x.double(), x.to(torch.float64)) or a
 * factory with an explicit dtype. NULL when not visible. */
static const char *coverage__arg_dtype(const Cov *c, TSNode a) {
  TSNode inner = a;
  if (pysyntax_is(a, "call")) {
    TSNode fn = coverage__head(a);
    TSNode args = pysym_child(a, PYFIELD_ARGUMENTS);
    char *q = pyfile_qualname(c->py, fn);
    char *m = q ? NULL : coverage__method(c, fn);
    free(q);
    for (size_t i = 0; m && i < 3; i++)
      if (c->dtype_rows[i] && kb_pattern_match(c->dtype_rows[i]->value, m)) {
        free(m);
        return coverage__dtypes[i];
      }
    const char *spec = m && (strcmp(m, "to") == 0 || strcmp(m, "type") == 0) ? "0|dtype" : "dtype";
    free(m);
    inner = pysyntax_is(args, "argument_list") ? pysyntax_argument(c->py, args, spec) : (TSNode){0};
  }
  for (size_t i = 0; i < 3; i++)
    if (c->dtype_rows[i] && coverage__qual_matches(c, inner, c->dtype_rows[i]->arg)) return coverage__dtypes[i];
  return NULL;
}

/* Dimensions of a visible shape: torch.randn(2, 3, 4) or x.view(a, b, c)
 * (integer arguments, or one tuple / list of them); 0 when not visible. */
static uint32_t coverage__arg_dims(const Cov *c, TSNode a) {
  if (!c->shape || !pysyntax_is(a, "call")) return 0;
  TSNode fn = coverage__head(a);
  TSNode args = pysym_child(a, PYFIELD_ARGUMENTS);
  bool shaped = coverage__qual_matches(c, fn, c->shape->arg);
  if (!shaped) {
    char *q = pyfile_qualname(c->py, fn);
    char *m = q ? NULL : coverage__method(c, fn);
    shaped = m && kb_pattern_match(c->shape->value, m);
    free(q);
    free(m);
  }
  if (!shaped || !pysyntax_is(args, "argument_list")) return 0;
  uint32_t n = 0, na = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < na; i++) {
    TSNode x = ts_node_named_child(args, i);
    if (pysyntax_is(x, "keyword_argument") || pysyntax_is(x, "comment")) continue;
    if ((pysyntax_is(x, "tuple") || pysyntax_is(x, "list")) && na == 1) return ts_node_named_child_count(x);
    n++;
  }
  return n;
}

/* The value last assigned to identifier `id` by a plain `id = value`
 * earlier in the same function (or module); `id` itself when there is none. */
static TSNode coverage__assigned(const Cov *c, TSNode id) {
  if (!pysyntax_is(id, "identifier")) return id;
  uint32_t s = ts_node_start_byte(id), n = ts_node_end_byte(id) - s;
  for (size_t i = c->assigns.len; i-- > 0;) {
    const CovName *a = &c->assigns.items[i];
    if (a->start <= s && coverage__same_name(c, a, s, n))
      return pyfile_function_at(c->py, a->start) == pyfile_function_at(c->py, s) ? a->value : id;
  }
  return id;
}

/* What the call visibly breaks, in English and Chinese (caller frees both), or false. */
static bool coverage__breach(const Cov *c, const KbSupport *s, TSNode call, char **en, char **zh) {
  bool dtypes = *s->dtypes && (kb_support_excludes(s->dtypes, "fp64") || kb_support_excludes(s->dtypes, "complex64") ||
                               kb_support_excludes(s->dtypes, "complex128"));
  if (!dtypes && !s->max_dims) return false;
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  TSNode fn = coverage__head(call);
  uint32_t na = pysyntax_is(args, "argument_list") ? ts_node_named_child_count(args) : 0;
  /* a Tensor method's receiver is its `self` */
  char *fq = pyfile_qualname(c->py, fn);
  TSNode recv = pysyntax_is(fn, "attribute") && !fq ? coverage__head(fn) : (TSNode){0};
  free(fq);
  for (uint32_t i = 0; i <= na; i++) {
    TSNode a = i < na ? ts_node_named_child(args, i) : recv;
    if (ts_node_is_null(a)) continue;
    if (pysyntax_is(a, "keyword_argument")) a = pysym_child(a, PYFIELD_VALUE);
    a = coverage__assigned(c, a);
    const char *d = dtypes ? coverage__arg_dtype(c, a) : NULL;
    if (d && kb_support_excludes(s->dtypes, d)) {
      *en = xasprintf("a %s input; the list says %s", strcmp(d, "fp64") == 0 ? "float64" : d, s->note_en);
      *zh = xasprintf("输入为 %s；清单说明：%s", strcmp(d, "fp64") == 0 ? "float64" : d, s->note_zh);
      return true;
    }
    uint32_t dims = s->max_dims ? coverage__arg_dims(c, a) : 0;
    if (dims > s->max_dims) {
      *en = xasprintf("a %u-D input where the list allows at most %u dimensions", dims, s->max_dims);
      *zh = xasprintf("输入为 %u 维，清单规定最大支持 %u 维", dims, s->max_dims);
      return true;
    }
  }
  return false;
}

/* ---- findings ------------------------------------------------------------------------- */

static bool coverage__first(Cov *c, const char *code, const char *api) {
  char *key = xasprintf("%s %s", code, api);
  for (size_t i = 0; i < c->once.len; i++)
    if (strcmp(c->once.items[i], key) == 0) {
      free(key);
      return false;
    }
  array_push(&c->once, key);
  return true;
}

/* Emits `code` at the call's function with the list named in front of what it says. */
static Finding *coverage__emit(Cov *c, const char *code, TSNode call, const char *api, const char *en, const char *zh) {
  const KbRule *rule = context_rule(c->ctx->opt, code);
  if (!rule) return NULL;
  TSNode fn = coverage__head(call);
  TSPoint s = ts_node_start_point(fn), e = ts_node_end_point(fn);
  unsigned chip = c->ctx->opt->chip;
  char *repl = xasprintf("torch_npu %s list, %s%s%s", c->list->version, coverage__chip(chip, false), *en ? ": " : "", en);
  char *repl_zh = xasprintf("torch_npu %s 支持清单，%s%s%s", c->list->version, coverage__chip(chip, true), *zh ? "：" : "", zh);
  Finding *f = kb_emit(c->ctx->out, rule, NULL, api, repl, ts_node_start_byte(fn), ts_node_end_byte(fn), s.row,
                       s.column, e.row, e.column);
  finding_text_unref(f->message_zh);
  f->message_zh = finding_text_take(kb_format(rule->msg_zh, api, repl_zh));
  free(repl);
  free(repl_zh);
  return f;
}

/* Whether a dtype list names no model dtype at all (complex only). */
static bool coverage__no_model_dtype(const KbSupport *s) {
  return kb_support_excludes(s->dtypes, "bf16") && kb_support_excludes(s->dtypes, "fp16") &&
         kb_support_excludes(s->dtypes, "fp32");
}

/* A class of torch.nn (CapWords last part): its dtype line is about the
 * input of forward, not the constructor's arguments. */
static bool coverage__constructor(const char *api) {
  const char *last = strrchr(api, '.');
  return util_starts_with(api, "torch.nn.") && last && last[1] >= 'A' && last[1] <= 'Z';
}

/* A segment of the list's note that is a dtype list ("`input`仅支持fp16，fp32",
 * "属性`mode`为constant时，`input`仅支持bf16，..."): "支持" right before a dtype. */
static bool coverage__dtype_segment(const char *seg, size_t n) {
  static const char *const dt[] = {"bf16", "fp16", "fp32", "fp64", "uint8", "int8", "int16", "int32", "int64", "bool", "complex"};
  static const char mark[] = "支持";
  for (const char *p = seg; (p = memmem(p, n - (size_t)(p - seg), mark, sizeof mark - 1)) != NULL; p++) {
    /* "仅支持fp16..." or with a word between ("仅支持输出fp16，fp32"): up to two CJK characters */
    for (size_t skip = 0; skip <= 6; skip += 3) {
      const char *after = p + sizeof mark - 1 + skip;
      for (size_t i = 0; after < seg + n && i < sizeof dt / sizeof dt[0]; i++)
        if ((size_t)(seg + n - after) >= strlen(dt[i]) && strncmp(after, dt[i], strlen(dt[i])) == 0) return true;
    }
  }
  return false;
}

/* Whether a note segment says something about this call: no "coverage-note:"
 * row matches it, or the row's keyword is passed. */
static bool coverage__segment_applies(const Cov *c, const char *seg, size_t n, TSNode call) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  for (size_t i = 0; i < c->notes.len; i++) {
    const KbEntry *r = c->notes.items[i];
    if (!memmem(seg, n, r->arg, strlen(r->arg))) continue;
    return r->value && pysyntax_is(args, "argument_list") && !ts_node_is_null(pysyntax_argument(c->py, args, r->value));
  }
  return true;
}

/* Whether any note of the list (the segments of note_zh that are not dtype
 * lists) says something about this call. */
static bool coverage__notes_apply(const Cov *c, const KbSupport *s, TSNode call) {
  const char *z = s->note_zh;
  while (z && *z) {
    const char *semi = strstr(z, "; ");
    size_t n = semi ? (size_t)(semi - z) : strlen(z);
    if (n && !coverage__dtype_segment(z, n) && coverage__segment_applies(c, z, n, call)) return true;
    z = semi ? semi + 2 : NULL;
  }
  return false;
}

/* What the list's restriction is at this call: 2 a note of the list that
 * applies to it, 1 a dtype list or dimension limit the call shows nothing
 * outside of (the finding says so), 0 nothing worth a finding. */
static int coverage__restricts(const Cov *c, const KbSupport *s, const char *api, TSNode call) {
  bool plumbing = !*s->dtypes || (c->plumbing && kb_pattern_match(c->plumbing->arg, api)) || coverage__constructor(api);
  if (s->other && coverage__notes_apply(c, s, call)) return 2;
  if (!plumbing && coverage__no_model_dtype(s)) return 2;
  bool dtypes = !plumbing && (kb_support_excludes(s->dtypes, "bf16") || kb_support_excludes(s->dtypes, "fp16") ||
                              kb_support_excludes(s->dtypes, "fp32"));
  return s->max_dims || s->other || dtypes ? 1 : 0;
}

static void coverage__call(Cov *c, TSNode call) {
  char *api = coverage__api(c, call);
  if (!api) return;
  bool listed;
  const KbSupport *s = kb_support_lookup(api, c->version, c->ctx->opt->chip, &listed);
  if (!listed) { /* listed under its defining module (torch.nn.Parameter is torch.nn.parameter.Parameter) */
    char *key = xasprintf("coverage-alias:%s", api);
    const KbEntry *alias = coverage__row(c->ctx, key);
    free(key);
    if (alias && alias->value) s = kb_support_lookup(alias->value, c->version, c->ctx->opt->chip, &listed);
  }
  char *en = NULL, *zh = NULL;
  if (!s) {
    if (coverage__first(c, "ASC223", api))
      coverage__emit(c, "ASC223", call, api, listed ? "the list gives no status for this product" : "not in the list",
                     listed ? "清单未给出该产品的支持情况" : "不在清单中");
  } else if (s->status == KBS_UNSUPPORTED) {
    coverage__emit(c, "ASC219", call, api, "", "");
  } else if (coverage__breach(c, s, call, &en, &zh)) {
    coverage__emit(c, "ASC221", call, api, en, zh);
  } else if (s->cpu_fallback) {
    if (coverage__first(c, "ASC222", api)) coverage__emit(c, "ASC222", call, api, s->note_en, s->note_zh);
  } else {
    int r = coverage__restricts(c, s, api, call);
    if (r && coverage__first(c, r == 2 ? "ASC220" : "ASC220-hint", api)) {
      Finding *f = coverage__emit(c, "ASC220", call, api, s->note_en, s->note_zh);
      if (f && r == 1 && c->dtype_only) {
        f->severity = SEV_HINT;
        finding_append_note(f, c->dtype_only->msg_en, c->dtype_only->msg_zh);
      }
    }
  }
  free(en);
  free(zh);
  free(api);
}

static bool coverage__visit(void *state, const PyVisit *v) {
  Cov *c = state;
  if (v->sym == PYSYM_CALL) coverage__call(c, v->node);
  else if (v->sym == PYSYM_FUNCTION_DEFINITION) coverage__function(c, v->node);
  else if (v->sym == PYSYM_ASSIGNMENT) coverage__assignment(c, v->node);
  return v->sym != PYSYM_COMMENT && v->sym != PYSYM_STRING && v->sym != PYSYM_IMPORT_STATEMENT &&
         v->sym != PYSYM_IMPORT_FROM_STATEMENT;
}

static bool coverage__is_note(const Finding *f) {
  const char *k = f->rule->code;
  return strcmp(k, "ASC220") == 0 || strcmp(k, "ASC222") == 0 || strcmp(k, "ASC223") == 0;
}

/* A coverage note (restricted, fallback, unverified) on the very range of
 * another rule's finding (ASC306 on scaled_dot_product_attention) gives way:
 * that rule says what to do with the call, and one range is one item. */
static bool coverage__drop_shadowed(void *data, const Finding *f) {
  const FindingList *out = data;
  if (!coverage__is_note(f)) return false;
  for (size_t i = 0; i < out->len; i++) {
    const Finding *g = &out->items[i];
    if (g != f && g->start_byte == f->start_byte && g->end_byte == f->end_byte && kb_domain(g->rule->code) >= 2 &&
        !coverage__is_note(g) && strcmp(g->rule->code, "ASC219") != 0 && strcmp(g->rule->code, "ASC221") != 0)
      return true;
  }
  return false;
}

static void coverage__end(void *state) {
  Cov *c = state;
  findings_drop_if(c->ctx->out, coverage__drop_shadowed, c->ctx->out);
  strlist_free(&c->once);
  array_free(&c->notes);
  array_free(&c->params);
  array_free(&c->assigns);
  free(c);
}

const PyVisitor coverage_visitor = {coverage__begin, coverage__visit, coverage__end};
