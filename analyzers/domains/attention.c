/* attention: ASC3xx. The CUDA attention APIs themselves (flash-attn, xformers,
 * SDPA, backend toggles, imports) are rows in kb_attention.def matched by
 * pymatch; this file adds what rows cannot express:
 *
 *  - per call site: the tensor layout (Finding.detail), whether the site is
 *    inference-only (no_grad/inference_mode, or only called from such code in
 *    this file), the NPU call built from the site's own arguments, and an
 *    unsafe fix that writes it (npu_fusion_attention for training,
 *    npu_fused_infer_attention_score or mindiesd.attention_forward for
 *    inference);
 *  - ASC309: calls of project functions that wrap a CUDA-only kernel;
 *  - ASC304: hand-written attention, Q·Kᵀ then softmax then ·V in one function.
 *
 * The findings pymatch made for this file are the tail of ctx->out (every
 * front end analyzes one file into a fresh list). No API names appear here:
 * rows carry them, and the call builder only knows parameter roles. */
#include "analyzers/engine/forest.h"
#include "analyzers/engine/texthits.h"
#include "analyzers/domains/domains.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"

#include <ctype.h>
#include <stdlib.h>

#define ATTN_NONE ((size_t)-1)

/* A call of an attention API with a mapping row in domain 3. */
typedef struct {
  TSNode call, callee;
  const KbEntry *row;
} AttnSite;

/* A call of a name that may be a function of this file: `f(...)` or
 * `self.f(...)`. */
typedef struct {
  char *name;
  bool method;
  uint32_t start, end; /* the callee */
  size_t fn; /* innermost enclosing function (index into py->functions) */
  uint32_t hash; /* util_fnv of name */
} AttnCall;

typedef enum { EV_QK, EV_SOFTMAX, EV_MATMUL } AttnEvKind;

/* One step of a possible hand-written attention. */
typedef struct {
  AttnEvKind kind;
  TSNode node;
  TSNode a, b;         /* operands of a product (b untransposed for QK) */
  const char *layout;  /* for EV_QK */
  size_t fn;
} AttnEvent;

/* The answer of one scan for folding calls over [from, to). */
typedef struct {
  uint32_t from, to;
  bool folded;
} AttnFolded;

typedef struct {
  AnalyzeCtx *ctx;
  const PyFile *py;
  Array(AttnSite) sites;
  Array(AttnCall) calls;
  size_t borrowed;  /* the file pass: its first calls are the units' (names borrowed) */
  Array(AttnEvent) events;
  Array(ByteRange) imports;
  bool *inference; /* per function: reached only from inference code */
  uint32_t *fn_hash; /* per function: util_fnv of its name (attention__fn_hashes) */
  const KbEntry *mm_row, *sm_row, *tr_row;
  /* whether a range (a class, or the file) calls a folding name: every
   * BMHK site of a class asks about the same range, so it is scanned once */
  Array(AttnFolded) folded;
  /* the file pass: kernel sites of every unit with sites (the walked
   * units' and those of units whose conclusion holds), for wrappers */
  Array(UnitSite) seeds;
  Array(uint32_t) file_asks; /* sites that asked whether the file calls a folding name */
} Attn;

/* ---- small helpers -------------------------------------------------------- */

static const KbEntry *attention__row(const Attn *a, KbMatch m, const char *key) {
  return kb_lookup(m, key, a->ctx->opt->user_entries, a->ctx->opt->n_user_entries);
}

/* Source text of n with every line break (and the indentation after it)
 * folded into one space, so a multi-line argument fits a one-line message. */
static char *attention__text(const Attn *a, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  StrBuf sb;
  sb_init(&sb);
  for (uint32_t i = s; i < e; i++) {
    char c = a->py->text[i];
    if (c == '\\' && i + 1 < e && (a->py->text[i + 1] == '\n' || a->py->text[i + 1] == '\r')) continue;
    if (c != '\n' && c != '\r') {
      sb_putc(&sb, c);
      continue;
    }
    while (sb.len && (sb.data[sb.len - 1] == ' ' || sb.data[sb.len - 1] == '\t')) sb.data[--sb.len] = '\0';
    while (i + 1 < e && strchr(" \t\r\n", a->py->text[i + 1])) i++;
    if (sb.len && sb.data[sb.len - 1] != '(' && sb.data[sb.len - 1] != '[') sb_putc(&sb, ' ');
  }
  return sb_steal(&sb);
}

static bool attention__text_is(const Attn *a, TSNode n, const char *s) {
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return strlen(s) == e - b && memcmp(a->py->text + b, s, e - b) == 0;
}

/* The called name: `f` for f(...), `m` for x.m(...). Caller frees. */
static char *attention__callee_name(const Attn *a, TSNode fn) {
  if (pysyntax_is(fn, "attribute")) fn = pysym_child(fn, PYFIELD_ATTRIBUTE);
  return pysyntax_is(fn, "identifier") ? pyfile_node_text(a->py, fn) : NULL;
}

static bool attention__qual_matches(const Attn *a, TSNode n, const char *glob) {
  if (!glob) return false;
  char *q = pyfile_qualname(a->py, n);
  bool r = q && kb_pattern_match(glob, q);
  free(q);
  return r;
}

/* x.<method>(...) with the method name matching glob (receiver not a module). */
static bool attention__method_matches(const Attn *a, TSNode call, const char *glob) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (!glob || !pysyntax_is(fn, "attribute")) return false;
  char *q = pyfile_qualname(a->py, fn);
  bool module = q != NULL;
  free(q);
  if (module) return false;
  char *nm = attention__callee_name(a, fn);
  bool r = nm && kb_pattern_match(glob, nm);
  free(nm);
  return r;
}

static size_t attention__fn_index(const Attn *a, uint32_t at) {
  const PyFunction *f = pyfile_function_at(a->py, at);
  return f ? (size_t)(f - a->py->functions.items) : ATTN_NONE;
}

/* Positional arguments of a call, skipping keywords and comments. */
static size_t attention__positional(TSNode args, TSNode *out, size_t max) {
  size_t n = 0;
  uint32_t c = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < c && n < max; i++) {
    TSNode x = ts_node_named_child(args, i);
    if (pysyntax_is(x, "keyword_argument") || pysyntax_is(x, "comment")) continue;
    out[n++] = x;
  }
  return n;
}

/* The pymatch finding of `code` starting at `at`, or NULL. */
static Finding *attention__finding_at(const Attn *a, uint32_t at, const char *code) {
  for (size_t i = 0; i < a->ctx->out->len; i++) {
    Finding *f = &a->ctx->out->items[i];
    if (f->start_byte == at && strcmp(f->rule->code, code) == 0) return f;
  }
  return NULL;
}

static void attention__add_import(const Attn *a, Finding *f, const char *module) {
  char *stmt = xasprintf("import %s", module);
  char *ins = pysyntax_import_insertion(a->py, stmt);
  uint32_t at = pysyntax_import_point(a->py);
  finding_add_edit(f, at, at, ins);
  free(ins);
  free(stmt);
}

/* ---- the walk --------------------------------------------------------------- */

/* The hash every index of call and function names uses. */
static uint32_t attention__hash(const char *name) { return (uint32_t)util_fnv(UTIL_FNV_SEED, name, strlen(name)); }

static void attention__note_call_name(Attn *a, TSNode call, TSNode fn) {
  bool method = false;
  if (pysyntax_is(fn, "attribute")) {
    TSNode obj = pysym_child(fn, PYFIELD_OBJECT);
    if (!attention__text_is(a, obj, "self") && !attention__text_is(a, obj, "cls")) return;
    method = true;
  } else if (!pysyntax_is(fn, "identifier")) {
    return;
  }
  if (a->ctx->unit->file) return; /* the file pass has every unit's calls */
  AttnCall c = {attention__callee_name(a, fn), method, ts_node_start_byte(fn), ts_node_end_byte(fn),
                attention__fn_index(a, ts_node_start_byte(call)), 0};
  if (!c.name) return;
  c.hash = attention__hash(c.name);
  array_push(&a->calls, c);
}

static void attention__note_site(Attn *a, TSNode call, TSNode fn) {
  char *q = pyfile_qualname(a->py, fn);
  const KbEntry *row = q ? attention__row(a, KB_QUALNAME, q) : NULL;
  free(q);
  if (row && kb_domain(row->code) == 3) {
    AttnSite s = {call, fn, row};
    array_push(&a->sites, s);
  }
}

/* Integer literal value (with a leading minus), for transpose dimensions. */
static bool attention__int(const Attn *a, TSNode n, long *v) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e - s == 0 || e - s > 8) return false;
  char buf[16];
  size_t k = 0;
  for (uint32_t i = s; i < e; i++)
    if (a->py->text[i] != ' ') buf[k++] = a->py->text[i];
  buf[k] = '\0';
  char *end;
  *v = strtol(buf, &end, 10);
  return k > 0 && *end == '\0';
}

/* Is the dimension pair a swap of the last two axes? (-2,-1) in any order,
 * or neighbouring positive axes past the batch axis ((1,2) for 3-D bmm,
 * (2,3) for 4-D). *three_d tells the 3-D case apart for the layout. */
static bool attention__last_two(long x, long y, bool *three_d) {
  long lo = x < y ? x : y, hi = x < y ? y : x;
  *three_d = lo == 1 && hi == 2;
  if (lo == -2 && hi == -1) return true;
  return lo >= 1 && hi == lo + 1;
}

/* When n is K transposed over its last two axes (k.transpose(-2, -1),
 * torch.transpose(k, 2, 3), k.permute(0, 2, 3, 1), k.mT), stores K in *k
 * and the layout of the product. */
static bool attention__transposed(const Attn *a, TSNode n, TSNode *k, const char **layout) {
  while (pysyntax_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  *layout = "BNSD";
  if (pysyntax_is(n, "attribute")) {
    TSNode name = pysym_child(n, PYFIELD_ATTRIBUTE);
    char *nm = pyfile_node_text(a->py, name);
    bool ok = nm && kb_pattern_match(a->tr_row->value, nm);
    free(nm);
    *k = pysym_child(n, PYFIELD_OBJECT);
    return ok;
  }
  if (!pysyntax_is(n, "call")) return false;
  TSNode fn = pysym_child(n, PYFIELD_FUNCTION), args = pysym_child(n, PYFIELD_ARGUMENTS);
  TSNode pos[8];
  size_t np = pysyntax_is(args, "argument_list") ? attention__positional(args, pos, 8) : 0;
  bool fn_form = attention__qual_matches(a, fn, a->tr_row->arg);
  if (!fn_form && !attention__method_matches(a, n, a->tr_row->value)) return false;
  TSNode *dims = fn_form ? pos + 1 : pos;
  size_t nd = fn_form ? (np ? np - 1 : 0) : np;
  *k = fn_form ? (np ? pos[0] : (TSNode){0}) : pysym_child(fn, PYFIELD_OBJECT);
  long d[8];
  for (size_t i = 0; i < nd; i++)
    if (!attention__int(a, dims[i], &d[i])) return false;
  bool three_d = false;
  if (nd == 2 && attention__last_two(d[0], d[1], &three_d)) {
    if (three_d) *layout = "(B*N)SD";
    return !ts_node_is_null(*k);
  }
  return nd >= 3 && d[nd - 2] == (long)nd - 1 && !ts_node_is_null(*k); /* permute(..., D, S) */
}

/* "binc,bjnc->bnij": Q·Kᵀ when both operands end with the contracted index
 * and the output keeps the two sequence indices; the layout is where Q's
 * sequence index sits. */
static const char *attention__einsum_qk(const char *spec) {
  const char *arrow = strstr(spec, "->"), *comma = strchr(spec, ',');
  if (!arrow || !comma || comma > arrow) return NULL;
  const char *third = strchr(comma + 1, ',');
  if (third && third < arrow) return NULL; /* two operands only */
  size_t l1 = (size_t)(comma - spec), l2 = (size_t)(arrow - comma - 1), lo = strlen(arrow + 2);
  if (l1 < 2 || l2 < 2 || lo < 2) return NULL;
  char c = spec[l1 - 1];
  if (comma[l2] != c || memchr(arrow + 2, c, lo)) return NULL;
  char sq = arrow[2 + lo - 2];
  const char *p = memchr(spec, sq, l1);
  if (!p) return NULL;
  if (l1 == 3) return "(B*N)SD";
  if (l1 == 4) return p - spec == 1 ? "BSND" : "BNSD";
  return "BNSD";
}

static void attention__push_event(Attn *a, AttnEvKind kind, TSNode node, TSNode x, TSNode y, const char *layout) {
  AttnEvent ev = {kind, node, x, y, layout, attention__fn_index(a, ts_node_start_byte(node))};
  array_push(&a->events, ev);
}

/* A product node: `@`, or a call of a matmul-like function or method. */
static void attention__product(Attn *a, TSNode node, TSNode x, TSNode y) {
  TSNode k;
  const char *layout;
  if (!ts_node_is_null(y) && attention__transposed(a, y, &k, &layout))
    attention__push_event(a, EV_QK, node, x, k, layout);
  attention__push_event(a, EV_MATMUL, node, x, y, NULL);
}

static void attention__matmul_call(Attn *a, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION), args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (!pysyntax_is(args, "argument_list")) return;
  TSNode pos[4];
  size_t np = attention__positional(args, pos, 4);
  if (attention__qual_matches(a, fn, a->mm_row->arg)) {
    if (np >= 3 && pysyntax_is(pos[0], "string")) { /* einsum */
      char *spec = pysyntax_string_value(a->py, pos[0]);
      const char *layout = spec ? attention__einsum_qk(spec) : NULL;
      if (layout) attention__push_event(a, EV_QK, call, pos[1], pos[2], layout);
      attention__push_event(a, EV_MATMUL, call, pos[1], pos[2], NULL);
      free(spec);
    } else if (np >= 2) {
      attention__product(a, call, pos[np - 2], pos[np - 1]);
    }
  } else if (attention__method_matches(a, call, a->mm_row->value) && np >= 1) {
    attention__product(a, call, pysym_child(fn, PYFIELD_OBJECT), pos[0]);
  }
}

static void attention__call(Attn *a, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (ts_node_is_null(fn)) return;
  attention__note_site(a, call, fn);
  attention__note_call_name(a, call, fn);
  attention__matmul_call(a, call);
  if (attention__qual_matches(a, fn, a->sm_row->arg) || attention__method_matches(a, call, a->sm_row->value))
    attention__push_event(a, EV_SOFTMAX, call, (TSNode){0}, (TSNode){0}, NULL);
}

static void attention__binary(Attn *a, TSNode n) {
  TSNode op = pysym_child(n, PYFIELD_OPERATOR);
  if (ts_node_is_null(op) || strcmp(ts_node_type(op), "@") != 0) return;
  attention__product(a, n, pysym_child(n, PYFIELD_LEFT), pysym_child(n, PYFIELD_RIGHT));
}

/* Visits a node; returns false when its subtree is not walked. */
static bool attention__visit(Attn *a, const PyVisit *v) {
  switch (v->sym) {
  case PYSYM_IMPORT_STATEMENT:
  case PYSYM_IMPORT_FROM_STATEMENT: {
    ByteRange r = {ts_node_start_byte(v->node), ts_node_end_byte(v->node)};
    array_push(&a->imports, r);
    return false;
  }
  case PYSYM_COMMENT:
  case PYSYM_STRING:
    return false;
  case PYSYM_CALL:
    attention__call(a, v->node);
    return true;
  case PYSYM_BINARY_OPERATOR:
    attention__binary(a, v->node);
    return true;
  default:
    return true;
  }
}


/* ---- inference-only reachability ------------------------------------------ */

static bool attention__call_in_inference(const Attn *a, const AttnCall *c) {
  if (pyfile_in_ranges(a->py->inference.items, a->py->inference.len, c->start)) return true;
  return c->fn != ATTN_NONE && a->inference && a->inference[c->fn];
}

/* Names grouped for lookup: a chained hash over n names, each chain in
 * index order (who calls f, which functions are named like a call). A
 * chain also holds other names of the same bucket: compare before use. */
typedef struct {
  size_t *head, *next, mask;
} AttnNames;

#define ATTN_END SIZE_MAX

static size_t attention__name_slot(const AttnNames *ix, uint32_t hash) { return (size_t)hash & ix->mask; }

/* Every function's name hashed once per pass: the no_grad fixpoint and
 * the wrapper search look functions up by name round after round. */
static const uint32_t *attention__fn_hashes(Attn *a) {
  if (!a->fn_hash) {
    size_t n = a->py->functions.len;
    a->fn_hash = xmalloc((n ? n : 1) * sizeof *a->fn_hash);
    for (size_t i = 0; i < n; i++) a->fn_hash[i] = attention__hash(a->py->functions.items[i].name);
  }
  return a->fn_hash;
}

/* `hash_of(items, i)` is the hash of the i-th name. */
static void attention__names_build(AttnNames *ix, const void *items, size_t n, uint32_t (*hash_of)(const void *, size_t)) {
  size_t slots = 16;
  while (slots < 2 * n) slots *= 2;
  ix->mask = slots - 1;
  ix->head = xmalloc(slots * sizeof *ix->head);
  ix->next = xmalloc((n ? n : 1) * sizeof *ix->next);
  for (size_t i = 0; i < slots; i++) ix->head[i] = ATTN_END;
  for (size_t i = n; i-- > 0;) {
    size_t h = attention__name_slot(ix, hash_of(items, i));
    ix->next[i] = ix->head[h];
    ix->head[h] = i;
  }
}

static void attention__names_free(AttnNames *ix) {
  free(ix->head);
  free(ix->next);
}

static uint32_t attention__call_hash(const void *calls, size_t i) { return ((const AttnCall *)calls)[i].hash; }

static uint32_t attention__fn_hash(const void *hashes, size_t i) { return ((const uint32_t *)hashes)[i]; }

/* A function is inference-only when it is defined under no_grad, or when
 * it has callers in this file and every one of them is inference-only. */
static bool attention__fn_inference(const Attn *a, size_t fi, const AttnNames *callers_of) {
  const PyFunction *f = &a->py->functions.items[fi];
  if (pyfile_in_ranges(a->py->inference.items, a->py->inference.len, f->body_start)) return true;
  size_t callers = 0;
  for (size_t i = callers_of->head[attention__name_slot(callers_of, a->fn_hash[fi])]; i != ATTN_END; i = callers_of->next[i]) {
    const AttnCall *c = &a->calls.items[i];
    if (strcmp(c->name, f->name) != 0 || c->method != (f->class_name != NULL) || c->fn == fi) continue;
    if (!attention__call_in_inference(a, c)) return false;
    callers++;
  }
  return callers > 0;
}

static void attention__inference(Attn *a) {
  size_t n = a->py->functions.len;
  a->inference = xcalloc(n ? n : 1, sizeof *a->inference);
  AttnNames callers_of;
  attention__fn_hashes(a);
  attention__names_build(&callers_of, a->calls.items, a->calls.len, attention__call_hash);
  for (bool changed = true; changed;) { /* monotone: ends after at most n rounds */
    changed = false;
    for (size_t i = 0; i < n; i++)
      if (!a->inference[i] && attention__fn_inference(a, i, &callers_of)) a->inference[i] = changed = true;
  }
  attention__names_free(&callers_of);
}

/* Inside a torch.autograd.Function: its forward runs without autograd (and
 * often under no_grad) but it is training code, with a backward. */
static bool attention__in_autograd_function(const Attn *a, TSNode call) {
  uint32_t at = ts_node_start_byte(call);
  for (size_t i = 0; i < a->py->classes.len; i++) {
    const PyClass *c = &a->py->classes.items[i];
    if (at < c->start || at >= c->end) continue;
    TSNode cls = forest_node_at(a->ctx->forest, c->start, c->end);
    while (!ts_node_is_null(cls) && !pysyntax_is(cls, "class_definition")) cls = ts_node_parent(cls);
    TSNode bases = ts_node_is_null(cls) ? cls : ts_node_child_by_field_name(cls, "superclasses", 12);
    char *t = ts_node_is_null(bases) ? NULL : pyfile_node_text(a->py, bases);
    bool fn = t && strstr(t, "Function") != NULL;
    free(t);
    if (fn) return true;
  }
  return false;
}

static bool attention__site_inference(const Attn *a, TSNode call) {
  if (attention__in_autograd_function(a, call)) return false;
  if (pyfile_in_ranges(a->py->inference.items, a->py->inference.len, ts_node_start_byte(call))) return true;
  size_t fi = attention__fn_index(a, ts_node_start_byte(call));
  return fi != ATTN_NONE && a->inference && a->inference[fi];
}

/* ---- building the NPU call ------------------------------------------------- */

typedef enum {
  ROLE_Q, ROLE_K, ROLE_V, ROLE_DROPOUT, ROLE_SCALE, ROLE_CAUSAL, ROLE_MASK, ROLE_CUQ, ROLE_CUK, ROLE_WINDOW, ROLE__N
} Role;

/* Arguments of one attention call, by role. */
typedef struct {
  TSNode role[ROLE__N];
  char *unmapped; /* first argument the NPU call cannot express, or NULL */
} AttnArgs;

/* Parameter names by role, and parameters safe to drop: kb_attention.def. */
static const struct {
  const char *names;
  int role;
} attention__roles[] = {
#define KB_ATTN_ROLE(names, role) {names, role},
#define KB_ATTN_ROLE_ROWS
#include "analyzers/kb/kb_attention.def"
#undef KB_ATTN_ROLE_ROWS
#undef KB_ATTN_ROLE
};

static const struct {
  const char *names, *values; /* values: '|' alternatives, "*" = any */
} attention__droppables[] = {
#define KB_ATTN_DROPPABLE(names, values) {names, values},
#define KB_ATTN_DROPPABLE_ROWS
#include "analyzers/kb/kb_attention.def"
#undef KB_ATTN_DROPPABLE_ROWS
#undef KB_ATTN_DROPPABLE
};

static int attention__role(const char *name) {
  const size_t n = sizeof attention__roles / sizeof attention__roles[0];
  for (size_t i = 0; i < n; i++)
    if (kb_pattern_match(attention__roles[i].names, name)) return attention__roles[i].role;
  return -1;
}

/* Parameters the NPU call has no use for, harmless at these values. */
static bool attention__droppable(const Attn *a, const char *name, TSNode v) {
  const size_t n = sizeof attention__droppables / sizeof attention__droppables[0];
  char *txt = pyfile_node_text(a->py, v);
  bool r = false;
  for (size_t i = 0; i < n && !r; i++)
    r = kb_pattern_match(attention__droppables[i].names, name) &&
        (strcmp(attention__droppables[i].values, "*") == 0 || kb_pattern_match(attention__droppables[i].values, txt));
  free(txt);
  return r;
}

static void attention__bind(const Attn *a, AttnArgs *out, const char *name, TSNode v) {
  int role = attention__role(name);
  bool none = pysyntax_is(v, "none");
  if (role == ROLE_MASK && none) return; /* no mask: the default */
  if (role == ROLE_WINDOW && attention__droppable(a, name, v)) return; /* (-1, -1): no window */
  if (role >= 0 && role != ROLE_MASK) {
    out->role[role] = v;
    return;
  }
  if (!attention__droppable(a, name, v) && !out->unmapped) out->unmapped = xstrdup(name);
}

/* Maps the call's arguments to roles through the row's parameter list. */
static void attention__args(const Attn *a, TSNode args, const char *params, AttnArgs *out) {
  memset(out, 0, sizeof *out);
  uint32_t n = ts_node_named_child_count(args);
  size_t pos = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode x = ts_node_named_child(args, i);
    if (pysyntax_is(x, "comment")) continue;
    if (pysyntax_is(x, "keyword_argument")) {
      TSNode k = pysym_child(x, PYFIELD_NAME), v = pysym_child(x, PYFIELD_VALUE);
      if (ts_node_is_null(k) || ts_node_is_null(v)) continue; /* error recovery */
      char *nm = pyfile_node_text(a->py, k);
      attention__bind(a, out, nm, v);
      free(nm);
      continue;
    }
    if (pysyntax_is(x, "list_splat") || pysyntax_is(x, "dictionary_splat")) {
      if (!out->unmapped) out->unmapped = xstrdup("*args");
      continue;
    }
    const char *p = params;
    for (size_t k = 0; p && k < pos; k++) p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    pos++;
    if (!p) {
      if (!out->unmapped) out->unmapped = xstrdup("extra positional argument");
      continue;
    }
    char *nm = xstrndup(p, strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p));
    attention__bind(a, out, nm, x);
    free(nm);
  }
}

static bool attention__simple(TSNode n) {
  return pysyntax_is(n, "identifier") || pysyntax_is(n, "attribute") || pysyntax_is(n, "subscript") ||
         pysyntax_is(n, "call") || pysyntax_is(n, "integer") || pysyntax_is(n, "float");
}

/* Text of an operand, parenthesized when it is not a primary expression. */
static char *attention__operand(const Attn *a, TSNode n) {
  char *t = attention__text(a, n);
  if (attention__simple(n)) return t;
  char *p = xasprintf("(%s)", t);
  free(t);
  return p;
}

static bool attention__is_zero(const Attn *a, TSNode n) {
  return ts_node_is_null(n) || attention__text_is(a, n, "0") || attention__text_is(a, n, "0.0") ||
         attention__text_is(a, n, "0.");
}

/* What the builder knows about one site. */
typedef struct {
  const char *layout;   /* row layout: BSND, TND, BNSD, BMHK */
  bool tuple_taken;     /* the call is followed by [0]: the API returned a tuple */
  bool torch_bound;     /* `torch` is imported (the causal mask needs it) */
} AttnShape;

static const char *attention__npu_layout(const char *layout) {
  return strcmp(layout, "BMHK") == 0 ? "BSND" : layout;
}

static int attention__head_axis(const char *layout) {
  return strcmp(layout, "BSND") == 0 || strcmp(layout, "BMHK") == 0 ? 2 : 1;
}

/* The holes every attention template may use (kb_attention.def), filled
 * for one site. Strings are owned by the struct: attention__vars_free. */
enum { AV_Q, AV_K, AV_V, AV_HEADS, AV_LAYOUT, AV_VARLEN, AV_SCALE, AV_KEEP_PROB, AV_CAUSAL, AV_INDEX, AV_OPEN,
       AV_CLOSE, AV_HEAD_FIRST, AV_OP_TYPE, AV__N };
static const char *const attention__hole[AV__N] = {"q",     "k",         "v",     "heads",  "layout",
                                                   "varlen", "scale",    "keep_prob", "causal", "index",
                                                   "open",  "close",     "head_first", "op_type"};

typedef struct {
  char *value[AV__N];
} AttnVars;

static void attention__vars_free(AttnVars *av) {
  for (int i = 0; i < AV__N; i++) free(av->value[i]);
}

static char *attention__expand(const char *name, const AttnVars *av) {
  KbVar vars[AV__N];
  for (int i = 0; i < AV__N; i++) vars[i] = (KbVar){attention__hole[i], av->value[i]};
  return kb_render(name, vars, AV__N);
}

/* A template whose holes are one operand expression and q. Caller frees. */
static char *attention__form(const char *name, const char *hole, const char *text, const char *q) {
  const KbVar vars[] = {{hole, text}, {"q", q}};
  return kb_render(name, vars, 2);
}

/* scale=...: the given one, the default 1/sqrt(d) (npu ops default to 1.0). */
static char *attention__scale(const Attn *a, const AttnArgs *x, const char *q) {
  TSNode s = x->role[ROLE_SCALE];
  if (ts_node_is_null(s) || pysyntax_is(s, "none")) return attention__form("attn-scale-default", "scale", NULL, q);
  bool literal = pysyntax_is(s, "float") || pysyntax_is(s, "integer");
  char *t = literal ? attention__text(a, s) : attention__operand(a, s);
  char *r = attention__form(literal ? "attn-scale-literal" : "attn-scale-optional", "scale", t, q);
  free(t);
  return r;
}

static char *attention__keep_prob(const Attn *a, const AttnArgs *x) {
  if (attention__is_zero(a, x->role[ROLE_DROPOUT])) return kb_render("attn-keep-prob", NULL, 0);
  char *d = attention__operand(a, x->role[ROLE_DROPOUT]);
  char *r = attention__form("attn-keep-prob-dropout", "dropout", d, NULL);
  free(d);
  return r;
}

/* Causal attention done right: the mask template with sparse_mode=3; "" when
 * the site is not causal. */
static char *attention__causal(const Attn *a, const AttnArgs *x, const char *q) {
  TSNode c = x->role[ROLE_CAUSAL];
  if (ts_node_is_null(c) || pysyntax_is(c, "false")) return NULL;
  char *mask = attention__form("attn-causal-mask", "mask", NULL, q);
  char *t = pysyntax_is(c, "true") ? NULL : attention__operand(a, c);
  const KbVar vars[] = {{"mask", mask}, {"causal", t}};
  char *r = kb_render(t ? "attn-causal-optional" : "attn-causal", vars, 2);
  free(t);
  free(mask);
  return r;
}

/* One side of a window_size tuple literal for the NPU op: flash-attn's -1
 * (unbounded) is the op's 2147483647; NULL when not a literal. */
static char *attention__window_side(const Attn *a, TSNode w, uint32_t i) {
  if (!pysyntax_is(w, "tuple") || ts_node_named_child_count(w) != 2) return NULL;
  TSNode e = ts_node_named_child(w, i);
  char *t = attention__text(a, e);
  if (strcmp(t, "-1") == 0) {
    free(t);
    return xstrdup("2147483647");
  }
  return t;
}

/* A sliding window (`window_size=(left, right)`): the op's band mode,
 * sparse_mode=4 with the mask template, pre = left and next = right (0
 * when causal); NULL when the call has no window. */
static char *attention__window(const Attn *a, const AttnArgs *x, const char *q, bool train) {
  TSNode w = x->role[ROLE_WINDOW], c = x->role[ROLE_CAUSAL];
  if (ts_node_is_null(w)) return NULL;
  bool causal = !ts_node_is_null(c) && !pysyntax_is(c, "false");
  char *left = attention__window_side(a, w, 0), *right = causal ? xstrdup("0") : attention__window_side(a, w, 1);
  char *op = left && right ? NULL : attention__operand(a, w);
  if (!left) left = xasprintf("%s[0]", op);
  if (!right) right = xasprintf("%s[1]", op);
  char *mask = attention__form("attn-causal-mask", "mask", NULL, q);
  const KbVar vars[] = {{"mask", mask}, {"left", left}, {"right", right}};
  char *r = kb_render(train ? "attn-window-train" : "attn-window-infer", vars, 3);
  free(mask);
  free(left);
  free(right);
  free(op);
  return r;
}

/* A call without cu_seqlens (a wrapper's own signature) is inexact
 * (attention__inexact): the template names the missing operands. */
static char *attention__varlen(const Attn *a, const AttnArgs *x, const char *tmpl) {
  TSNode nq = x->role[ROLE_CUQ], nk = x->role[ROLE_CUK];
  char *cq = ts_node_is_null(nq) ? xstrdup("cu_seqlens_q") : attention__operand(a, nq);
  char *ck = ts_node_is_null(nk) ? xstrdup("cu_seqlens_k") : attention__operand(a, nk);
  const KbVar vars[] = {{"cu_q", cq}, {"cu_k", ck}};
  char *r = kb_render(tmpl, vars, 2);
  free(cq);
  free(ck);
  return r;
}

/* The holes of the training and inference templates. */
static void attention__fill(const Attn *a, AttnVars *av, const AttnArgs *x, const AttnShape *sh, bool train) {
  const char *q = av->value[AV_Q];
  av->value[AV_HEADS] = xasprintf("%d", attention__head_axis(sh->layout));
  av->value[AV_LAYOUT] = xstrdup(attention__npu_layout(sh->layout));
  if (strcmp(sh->layout, "TND") == 0)
    av->value[AV_VARLEN] = attention__varlen(a, x, train ? "attn-varlen-train" : "attn-varlen-infer");
  av->value[AV_SCALE] = attention__scale(a, x, q);
  if (train) av->value[AV_KEEP_PROB] = attention__keep_prob(a, x);
  av->value[AV_CAUSAL] = ts_node_is_null(x->role[ROLE_WINDOW]) ? attention__causal(a, x, q) : attention__window(a, x, q, train);
  av->value[AV_INDEX] = xstrdup(sh->tuple_taken ? "" : "[0]");
}

/* The holes of the MindIE-SD template (forward only); op_type from the row. */
static void attention__fill_mindiesd(const Attn *a, AttnVars *av, const AttnArgs *x, const AttnShape *sh,
                                     const char *op_type) {
  TSNode s = x->role[ROLE_SCALE];
  if (!ts_node_is_null(s) && !pysyntax_is(s, "none")) {
    char *t = attention__text(a, s);
    av->value[AV_SCALE] = attention__form("attn-scale-literal", "scale", t, NULL);
    free(t);
  }
  av->value[AV_OPEN] = xstrdup(sh->tuple_taken ? "(" : "");
  av->value[AV_CLOSE] = xstrdup(sh->tuple_taken ? ",)" : "");
  av->value[AV_HEAD_FIRST] = xstrdup(strcmp(sh->layout, "BNSD") == 0 ? "True" : "False");
  av->value[AV_OP_TYPE] = op_type ? xstrdup(op_type) : kb_render("attn-mindiesd-default-op", NULL, 0);
}

typedef enum { BUILD_TRAIN, BUILD_INFER, BUILD_MINDIESD } BuildKind;

/* Why the built call is not an exact rewrite of this site, or NULL. */
static const char *attention__inexact(const Attn *a, const AttnArgs *x, const AttnShape *sh, BuildKind kind) {
  if (x->unmapped) return x->unmapped;
  if (ts_node_is_null(x->role[ROLE_Q]) || ts_node_is_null(x->role[ROLE_K]) || ts_node_is_null(x->role[ROLE_V]))
    return "q/k/v";
  if (strcmp(sh->layout, "TND") == 0 && (ts_node_is_null(x->role[ROLE_CUQ]) || ts_node_is_null(x->role[ROLE_CUK])))
    return "cu_seqlens";
  TSNode c = x->role[ROLE_CAUSAL], w = x->role[ROLE_WINDOW];
  bool causal = !ts_node_is_null(c) && !pysyntax_is(c, "false");
  if ((causal || !ts_node_is_null(w)) && !sh->torch_bound) return "causal (no `torch` import for the mask)";
  if (!ts_node_is_null(w) && !pysyntax_is(w, "tuple")) return "window_size (-1, unbounded, is 2147483647 on the NPU)";
  if (kind != BUILD_TRAIN && !attention__is_zero(a, x->role[ROLE_DROPOUT])) return "dropout_p (inference has no dropout)";
  if (kind == BUILD_INFER && strcmp(sh->layout, "TND") == 0) return "TND actual_seq_lengths (check their form)";
  return NULL;
}

static BuildKind attention__build_kind(const Attn *a, const AttnArgs *x, const AttnShape *sh, bool inference) {
  if (!inference) return BUILD_TRAIN;
  TSNode c = x->role[ROLE_CAUSAL];
  bool causal = !ts_node_is_null(c) && !pysyntax_is(c, "false");
  if (a->ctx->opt->mindiesd && !causal && ts_node_is_null(x->role[ROLE_WINDOW]) && strcmp(sh->layout, "TND") != 0)
    return BUILD_MINDIESD;
  return BUILD_INFER;
}

/* ---- call sites ------------------------------------------------------------- */

static bool attention__followed_by_index0(const Attn *a, TSNode call) {
  uint32_t e = ts_node_end_byte(call);
  while (e < a->py->len && (a->py->text[e] == ' ' || a->py->text[e] == '\t')) e++;
  return e + 3 <= a->py->len && memcmp(a->py->text + e, "[0]", 3) == 0;
}

static bool attention__torch_bound(const Attn *a, uint32_t at) {
  const PyBinding *b = pyfile_lookup(a->py, "torch", 5, at);
  return b && strcmp(b->qualname, "torch") == 0;
}

static char *attention__detail(const char *layout) {
  const KbVar vars[] = {{"layout", layout}};
  return kb_render(strcmp(layout, "TND") == 0 ? "attn-detail-varlen" : "attn-detail", vars, 1);
}

/* Builds the site's NPU call into *repl; returns true when it is an exact
 * rewrite that may become the fix. */
static bool attention__build(const Attn *a, const AttnSite *s, bool inference, char **repl, BuildKind *kind_out) {
  TSNode args = pysym_child(s->call, PYFIELD_ARGUMENTS);
  AttnArgs x;
  attention__args(a, args, s->row->arg, &x);
  AttnShape sh = {s->row->value, attention__followed_by_index0(a, s->call),
                  attention__torch_bound(a, ts_node_start_byte(s->call))};
  BuildKind kind = attention__build_kind(a, &x, &sh, inference);
  const char *why = attention__inexact(a, &x, &sh, kind);
  AttnVars av = {0};
  av.value[AV_Q] = ts_node_is_null(x.role[ROLE_Q]) ? xstrdup("q") : attention__operand(a, x.role[ROLE_Q]);
  av.value[AV_K] = ts_node_is_null(x.role[ROLE_K]) ? xstrdup("k") : attention__operand(a, x.role[ROLE_K]);
  av.value[AV_V] = ts_node_is_null(x.role[ROLE_V]) ? xstrdup("v") : attention__operand(a, x.role[ROLE_V]);
  static const char *const tmpl[] = {[BUILD_TRAIN] = "attn-train", [BUILD_INFER] = "attn-infer",
                                     [BUILD_MINDIESD] = "attn-mindiesd"};
  if (kind == BUILD_MINDIESD) attention__fill_mindiesd(a, &av, &x, &sh, s->row->fix_to);
  else attention__fill(a, &av, &x, &sh, kind == BUILD_TRAIN);
  char *call = attention__expand(tmpl[kind], &av);
  if (why) {
    const KbVar vars[] = {{"why", why}};
    char *note = kb_render("attn-review", vars, 1);
    *repl = xasprintf("%s%s", call, note);
    free(note);
    free(call);
  } else {
    *repl = call;
  }
  *kind_out = kind;
  attention__vars_free(&av);
  free(x.unmapped);
  return why == NULL;
}

/* A kernel site on 310P: the only fused attention there is the prompt-flash
 * one (SDPA and the backend toggles keep their own advice). */
static bool attention__chip_override(const Attn *a, const AttnSite *s, Finding *f) {
  const KbRule *rule = kb_rule(s->row->code);
  if (!(a->ctx->opt->chip & CHIP_310P) || !rule || rule->dep_class != DEP_CLASS_VENDOR_LIB) return false;
  const KbEntry *r = attention__row(a, KB_DETECTOR, "attention-310p");
  if (!r) return false;
  kb_set_replacement(f, r->replacement);
  f->fix = FIX_NONE;
  return true;
}

/* Inference text for rows the builder cannot use: the row's own advice when
 * it already names the inference op (KV-cache decoding), else the generic
 * call; either with the causal mask when the call is causal (`causal=True`
 * prefill: without the mask the NPU op attends to every key). */
static void attention__inference_text(const Attn *a, Finding *f, const AttnSite *s) {
  const char *own = s->row->replacement;
  const KbVar vars[] = {{"layout", attention__npu_layout(s->row->value)}};
  char *t = own && strstr(own, "npu_fused_infer_attention_score") ? xstrdup(own) : kb_render("attn-infer-generic", vars, 1);
  TSNode args = pysym_child(s->call, PYFIELD_ARGUMENTS);
  TSNode c = ts_node_is_null(args) ? args : pysyntax_argument(a->py, args, "causal|is_causal");
  if (!ts_node_is_null(c) && !pysyntax_is(c, "false") && !pysyntax_is(c, "none")) {
    char *note = kb_render("attn-infer-causal-note", NULL, 0);
    char *both = xasprintf("%s%s", t, note ? note : "");
    free(note);
    free(t);
    t = both;
  }
  kb_set_replacement(f, t);
  free(t);
}

static void attention__fix(const Attn *a, Finding *f, const AttnSite *s, const char *text, BuildKind kind) {
  f->fix = FIX_UNSAFE;
  finding_add_edit(f, ts_node_start_byte(s->call), ts_node_end_byte(s->call), text);
  if (kind == BUILD_MINDIESD) {
    attention__add_import(a, f, "mindiesd");
  } else if (!a->py->imports_torch_npu) {
    attention__add_import(a, f, "torch_npu");
    f->fix_needs_torch_npu = true;
  }
}

/* Whether [from, to) calls a name the "attention-folded-heads" row lists. */
static bool attention__calls_folding(const Attn *a, const KbEntry *r, uint32_t from, uint32_t to) {
  const char *t = a->py->text;
  /* a one-alternative `*word*` pattern: no name matches where the word is absent */
  const char *pat = r->arg;
  size_t pn = strlen(pat);
  if (pn > 2 && pat[0] == '*' && pat[pn - 1] == '*' && !strpbrk(pat + 1, "|!?[") && !memchr(pat + 1, '*', pn - 2) &&
      !texthits_within(a->ctx->hits, t, a->py->len, pat + 1, pn - 2, from, to))
    return false;
  for (const char *p = t + from; (p = memmem(p, (size_t)(t + to - p), "(", 1)) != NULL; p++) {
    const char *b = p;
    while (b > t + from && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
    char name[128]; /* no folding name is longer */
    if (b == p || (size_t)(p - b) >= sizeof name) continue;
    memcpy(name, b, (size_t)(p - b));
    name[p - b] = '\0';
    if (kb_pattern_match(r->arg, name)) return true;
  }
  return false;
}

/* The arguments of the call whose "(" is at t[open], to the matching ")"
 * before `end`: how many there are at the top level, and whether the first
 * is a product (`b * self.heads`). 0 when the list does not close. */
static size_t attention__args_shape(const char *t, size_t open, size_t end, bool *first_product) {
  int depth = 0;
  size_t n = 1;
  *first_product = false;
  for (size_t i = open + 1; i < end; i++) {
    char c = t[i];
    if (c == '(' || c == '[' || c == '{') depth++;
    else if ((c == ')' || c == ']' || c == '}') && depth-- == 0) return i == open + 1 ? 0 : n;
    else if (c == ',' && depth == 0) n++;
    else if (c == '*' && depth == 0 && n == 1 && t[i + 1] != '*') *first_product = true;
  }
  return 0;
}

/* Whether the einops pattern whose "->" is at t[arrow] makes three axes the
 * first of which is a group (`"b h n d -> (b h) n d"`), up to the quote. */
static bool attention__pattern_folds(const char *t, size_t arrow, size_t end) {
  size_t groups = 0, i = arrow + 2;
  bool first_group = false;
  int depth = 0;
  for (; i < end && t[i] != '"' && t[i] != '\'' && t[i] != '\n'; i++) {
    if (t[i] == ' ') continue;
    if (depth == 0) {
      groups++;
      if (groups == 1) first_group = t[i] == '(';
    }
    if (t[i] == '(') depth++;
    else if (t[i] == ')') depth--;
    while (depth == 0 && i + 1 < end && t[i] != ')' && t[i + 1] != ' ' && t[i + 1] != '"' && t[i + 1] != '\'' &&
           t[i + 1] != '(')
      i++;
  }
  return i < end && t[i] != '\n' && groups == 3 && first_group;
}

/* Whether [from, to) folds the heads into the batch by hand: a reshape
 * (the row's `value` methods) to three axes whose first is a product
 * (`.reshape(b * self.heads, n, d)`), or an einops pattern to `(b h) n d`. */
static bool attention__folds_by_shape(const Attn *a, const char *methods, uint32_t from, uint32_t to) {
  const char *t = a->py->text;
  for (size_t i = from; i + 2 < to; i++) {
    if (t[i] == '-' && t[i + 1] == '>' && attention__pattern_folds(t, i, to)) return true;
    if (t[i] != '(' || i == from) continue;
    size_t b = i;
    while (b > from && (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_')) b--;
    char name[32];
    if (b == i || b == from || t[b - 1] != '.' || i - b >= sizeof name) continue;
    memcpy(name, t + b, i - b);
    name[i - b] = '\0';
    bool product;
    if (kb_pattern_match(methods, name) && attention__args_shape(t, i, to, &product) == 3 && product) return true;
  }
  return false;
}

/* Whether [from, to) calls a name row r lists, scanned once per range. */
static bool attention__range_folds(Attn *a, const KbEntry *r, uint32_t from, uint32_t to) {
  size_t k = 0;
  while (k < a->folded.len && (a->folded.items[k].from != from || a->folded.items[k].to != to)) k++;
  if (k == a->folded.len) array_push(&a->folded, ((AttnFolded){from, to, attention__calls_folding(a, r, from, to)}));
  return a->folded.items[k].folded;
}

/* A BMHK call in a function that folds heads into the batch (the
 * "attention-folded-heads" row): 3-D inputs, advice without a rewrite. */
static bool attention__folded_heads(Attn *a, const AttnSite *s, Finding *f) {
  const KbEntry *r = attention__row(a, KB_DETECTOR, "attention-folded-heads");
  if (!r || !s->row->value || strcmp(s->row->value, "BMHK") != 0) return false;
  const PyFunction *fn = pyfile_function_at(a->py, ts_node_start_byte(s->call));
  const char *methods = kb_template("attention-fold-methods");
  bool folded = fn && methods && attention__folds_by_shape(a, methods, fn->start, ts_node_start_byte(s->call));
  if (!folded) {
    /* the fold may happen in the caller (a processor's __call__), so look in
     * the enclosing class, else the file, for a call of a folding name */
    const PyClass *cls = pyfile_class_at(a->py, ts_node_start_byte(s->call));
    uint32_t from = cls ? cls->start : 0, to = cls ? cls->end : (uint32_t)a->py->len;
    if (!cls) array_push(&a->file_asks, ts_node_start_byte(s->call)); /* read outside the unit */
    folded = attention__range_folds(a, r, from, to);
  }
  if (!folded) return false;
  kb_set_replacement(f, r->replacement);
  free(f->detail);
  f->detail = attention__detail(r->value);
  return true;
}

static void attention__site(Attn *a, const AttnSite *s) {
  Finding *f = attention__finding_at(a, ts_node_start_byte(s->callee), s->row->code);
  if (!f) return;
  bool inference = attention__site_inference(a, s->call);
  f->inference_only = f->inference_only || inference;
  if (s->row->value && !f->detail) f->detail = attention__detail(s->row->value);
  if (attention__chip_override(a, s, f)) return;
  if (!s->row->arg) {
    if (inference && s->row->value) attention__inference_text(a, f, s);
    return;
  }
  if (attention__folded_heads(a, s, f)) return;
  bool native = s->row->fix_kind == KBFIX_NONE; /* SDPA: only the inference advice */
  if (native && !inference) return;
  char *text;
  BuildKind kind;
  bool exact = attention__build(a, s, inference, &text, &kind);
  if (native) {
    const KbVar vars[] = {{"call", text}};
    char *t = kb_render("attn-native-faster", vars, 1);
    kb_set_replacement(f, t);
    free(t);
  } else {
    kb_set_replacement(f, text);
    if (exact) attention__fix(a, f, s, text, kind);
  }
  free(text);
}

/* ---- wrappers (ASC309) --------------------------------------------------------- */

/* What a project function wraps: the kernel site, and the function it calls
 * to reach it (ATTN_NONE when it calls the kernel itself). */
typedef struct {
  const UnitSite *site;
  size_t via;
} AttnWrap;

/* Whether call c reaches function fi: same name; for `self.m()`, the method
 * of the caller's own class when it defines one (another class's `m` is
 * then a different method), else a method of another class (a base). */
static bool attention__calls_fn(const Attn *a, const AttnCall *c, size_t fi) {
  const PyFunction *f = &a->py->functions.items[fi];
  if (strcmp(c->name, f->name) != 0 || c->method != (f->class_name != NULL) || c->fn == fi) return false;
  const char *cls = c->method && c->fn != ATTN_NONE ? a->py->functions.items[c->fn].class_name : NULL;
  if (!cls || strcmp(cls, f->class_name) == 0) return true;
  for (size_t i = 0; i < a->py->functions.len; i++) {
    const PyFunction *g = &a->py->functions.items[i];
    if (g->class_name && strcmp(g->class_name, cls) == 0 && strcmp(g->name, c->name) == 0) return false;
  }
  return true;
}

/* The first function named like call c (in index order) that wraps a site
 * and that c reaches, or ATTN_END. */
static size_t attention__wrapped_callee(const Attn *a, const AttnCall *c, const AttnWrap *w, const AttnNames *fns) {
  for (size_t fi = fns->head[attention__name_slot(fns, c->hash)]; fi != ATTN_END; fi = fns->next[fi])
    if (w[fi].site && attention__calls_fn(a, c, fi)) return fi;
  return ATTN_END;
}

static void attention__wrappers(const Attn *a, AttnWrap *w, const AttnNames *fns) {
  size_t n = a->py->functions.len;
  for (size_t i = 0; i < n; i++) w[i] = (AttnWrap){NULL, ATTN_NONE};
  bool any = false;
  for (size_t i = 0; i < a->seeds.len; i++) {
    const UnitSite *s = &a->seeds.items[i];
    const KbRule *r = kb_rule(s->entry->code);
    size_t fi = attention__fn_index(a, s->start);
    if (r && r->dep_class == DEP_CLASS_VENDOR_LIB && fi != ATTN_NONE && !w[fi].site) w[fi].site = s, any = true;
  }
  for (bool changed = any; changed;) { /* each round wraps at least one more function */
    changed = false;
    for (size_t i = 0; i < a->calls.len; i++) {
      const AttnCall *c = &a->calls.items[i];
      if (c->fn == ATTN_NONE || w[c->fn].site) continue;
      size_t fi = attention__wrapped_callee(a, c, w, fns);
      if (fi == ATTN_END) continue;
      w[c->fn] = (AttnWrap){w[fi].site, fi};
      changed = true;
    }
  }
}

static void attention__emit_wrapper_call(const Attn *a, const AttnCall *c, size_t fi, const AttnWrap *w) {
  const KbEntry *row = attention__row(a, KB_DETECTOR, "attention-wrapper");
  const KbRule *rule = kb_rule("ASC309");
  if (!row || !rule) return;
  const PyFunction *f = &a->py->functions.items[fi];
  const char *q = w[fi].site->kernel;
  uint32_t line = w[fi].site->row + 1;
  char *subj = xasprintf("%s()", f->name);
  char *kernel = q ? xstrdup(q) : kb_render("attn-kernel-unknown", NULL, 0);
  char *ln = xasprintf("%u", line);
  const PyFunction *via = w[fi].via == ATTN_NONE ? NULL : &a->py->functions.items[w[fi].via];
  char *via_ln = via ? xasprintf("%u", via->start_row + 1) : NULL;
  const KbVar vars[] = {{"kernel", kernel}, {"line", ln}, {"fn", f->name}, {"via", via ? via->name : NULL},
                        {"via_line", via_ln}};
  char *repl = kb_render(via ? "attn-wrapper-via" : "attn-wrapper-direct", vars, 5);
  free(via_ln);
  free(ln);
  free(kernel);
  /* rows and columns are set from the bytes by the pipeline */
  Finding *out = kb_emit(a->ctx->out, rule, row, subj, repl, c->start, c->end, 0, 0, 0, 0);
  if (w[fi].site->entry->value) out->detail = attention__detail(w[fi].site->entry->value);
  free(repl);
  free(subj);
}

static void attention__wrapper_calls(Attn *a) {
  size_t n = a->py->functions.len;
  if (!n) return;
  AttnWrap *w = xcalloc(n, sizeof *w);
  AttnNames fns;
  attention__names_build(&fns, attention__fn_hashes(a), n, attention__fn_hash);
  attention__wrappers(a, w, &fns);
  for (size_t i = 0; i < a->calls.len; i++) {
    size_t fi = attention__wrapped_callee(a, &a->calls.items[i], w, &fns);
    if (fi != ATTN_END) attention__emit_wrapper_call(a, &a->calls.items[i], fi, w);
  }
  attention__names_free(&fns);
  free(w);
}

/* ---- hand-written attention (ASC304) --------------------------------------------- */

static int attention__event_cmp(const void *x, const void *y) {
  const AttnEvent *p = x, *q = y;
  uint32_t pe = ts_node_end_byte(p->node), qe = ts_node_end_byte(q->node);
  if (pe != qe) return pe < qe ? -1 : 1;
  return (int)p->kind - (int)q->kind;
}

/* Short one-line text of n for a subject. Caller frees. */
static char *attention__short(const Attn *a, TSNode n) {
  char *t = attention__text(a, n);
  if (strlen(t) > 48) strcpy(t + 45, "...");
  return t;
}

static void attention__emit_handwritten(const Attn *a, const AttnEvent *qk, const AttnEvent *pv) {
  const KbRule *rule = kb_rule("ASC304");
  const KbEntry *row = a->mm_row;
  uint32_t s = ts_node_start_byte(qk->node) < ts_node_start_byte(pv->node) ? ts_node_start_byte(qk->node)
                                                                           : ts_node_start_byte(pv->node);
  TSNode first = s == ts_node_start_byte(qk->node) ? qk->node : pv->node;
  char *qs = attention__short(a, qk->node), *ps = attention__short(a, pv->node);
  const KbVar sv[] = {{"qk", qs}, {"pv", ps}};
  char *subj = kb_render("attn-handwritten-subject", sv, 2);
  char *q = attention__operand(a, qk->a), *k = attention__operand(a, qk->b), *v = attention__operand(a, pv->b);
  bool infer = attention__site_inference(a, qk->node);
  bool flat = strcmp(qk->layout, "(B*N)SD") == 0;
  char *view = flat ? kb_render("attn-handwritten-flat-view", NULL, 0) : NULL;
  const KbVar rv[] = {{"view", view}, {"q", q}, {"k", k}, {"v", v}, {"layout", flat ? "BNSD" : qk->layout}};
  char *repl = kb_render(infer ? "attn-handwritten-infer" : "attn-handwritten-train", rv, 5);
  free(view);
  TSPoint sp = ts_node_start_point(first), ep = ts_node_end_point(pv->node);
  Finding *f = kb_emit(a->ctx->out, rule, row, subj, repl, s, ts_node_end_byte(pv->node), sp.row, sp.column, ep.row,
                       ep.column);
  f->detail = attention__detail(qk->layout);
  f->inference_only = infer;
  free(repl);
  free(q);
  free(k);
  free(v);
  free(subj);
  free(qs);
  free(ps);
}

/* In each function, in evaluation order: Q·Kᵀ, then a softmax, then a
 * product (with V); reported once over that span. */
static void attention__handwritten(Attn *a) {
  if (a->events.len < 3) return;
  qsort(a->events.items, a->events.len, sizeof *a->events.items, attention__event_cmp);
  for (size_t i = 0; i < a->events.len; i++) {
    const AttnEvent *qk = &a->events.items[i];
    if (qk->kind != EV_QK) continue;
    const AttnEvent *sm = NULL;
    size_t j = i + 1;
    for (; j < a->events.len; j++) {
      const AttnEvent *e = &a->events.items[j];
      if (e->fn != qk->fn) continue;
      if (!sm && e->kind == EV_SOFTMAX) sm = e;
      else if (sm && e->kind == EV_MATMUL && !ts_node_eq(e->node, qk->node)) break;
    }
    if (!sm || j >= a->events.len) continue;
    attention__emit_handwritten(a, qk, &a->events.items[j]);
    i = j; /* one finding per chain */
  }
}

/* ---- clean-up ----------------------------------------------------------------------- */

/* On an import line only the import rule speaks: the names it imports are
 * reported where they are called. Fixes that produced no edit are dropped. */
static void attention__tidy(Attn *a) {
  FindingList *out = a->ctx->out;
  size_t w = 0;
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    bool mine = kb_domain(f->rule->code) == 3 && strcmp(f->rule->code, "ASC308") != 0;
    if (mine && pyfile_in_ranges(a->imports.items, a->imports.len, f->start_byte)) {
      finding_free(f);
      continue;
    }
    if (kb_domain(f->rule->code) == 3 && f->fix != FIX_NONE && f->edits.len == 0) f->fix = FIX_NONE;
    out->items[w++] = *f;
  }
  out->len = w;
}

static void *attention__begin(AnalyzeCtx *ctx) {
  if (ctx->kind != FILE_PYTHON || !ctx->py) return NULL;
  Attn *a = xcalloc(1, sizeof *a);
  a->ctx = ctx;
  a->py = ctx->py;
  a->mm_row = attention__row(a, KB_DETECTOR, "attention-matmul");
  a->sm_row = attention__row(a, KB_DETECTOR, "attention-softmax");
  a->tr_row = attention__row(a, KB_DETECTOR, "attention-transpose");
  if (!a->mm_row || !a->sm_row || !a->tr_row) {
    free(a);
    return NULL;
  }
  const UnitCalls *calls = &ctx->unit->calls;
  size_t sweep = 0; /* the units' calls come in document order */
  if (ctx->unit->file) array_reserve(&a->calls, calls->len);
  for (size_t i = 0; ctx->unit->file && i < calls->len; i++) {
    const UnitCall *u = &calls->items[i];
    const PyFunction *f = pyfile_function_at_sweep(a->py, &sweep, u->start);
    AttnCall c = {u->name, u->method, u->start, u->end, f ? (size_t)(f - a->py->functions.items) : ATTN_NONE, u->hash};
    array_push(&a->calls, c);
  }
  a->borrowed = a->calls.len; /* the units' calls outlive the pass */
  return a;
}

static bool attention__visit_node(void *state, const PyVisit *v) { return attention__visit(state, v); }

/* Sites and hand-written attention need the whole file: whether a function
 * runs only under no_grad depends on its callers, and a wrapper of a site is
 * reported where it is called, in any unit. A unit with either leaves its
 * attention findings to the pass over the whole file. */
static bool attention__links(const Attn *a) {
  if (a->sites.len) return true;
  for (size_t i = 0; i < a->events.len; i++)
    if (a->events.items[i].kind == EV_QK) return true;
  return false;
}

static void attention__free(Attn *a) {
  for (size_t i = a->borrowed; i < a->calls.len; i++) free(a->calls.items[i].name);
  array_free(&a->calls);
  array_free(&a->sites);
  array_free(&a->events);
  array_free(&a->imports);
  array_free(&a->folded);
  for (size_t i = 0; i < a->seeds.len; i++) free(a->seeds.items[i].kernel);
  array_free(&a->seeds);
  array_free(&a->file_asks);
  free(a->inference);
  free(a->fn_hash);
  free(a);
}

/* A unit hands its calls to the file: the pass over the file links them. */
static void attention__keep_calls(Attn *a) {
  UnitCalls *to = &a->ctx->unit->calls;
  for (size_t i = 0; i < a->calls.len; i++) {
    UnitCall u = {a->calls.items[i].name, a->calls.items[i].method, a->calls.items[i].start, a->calls.items[i].end,
                  a->calls.items[i].hash};
    array_push(to, u);
  }
  a->calls.len = 0;
}

/* The end of a unit's walk (the pass over the file has attention_file_end):
 * its calls go to the file; with sites or hand-written attention its
 * findings wait for the file pass, which needs every unit's calls (the unit
 * itself, its other detectors' findings and its calls, is kept while its
 * text is, and the pass's conclusion about it while attention_file_holds). */
static void attention__end(void *state) {
  Attn *a = state;
  attention__keep_calls(a);
  if (attention__links(a)) context_depends(a->ctx, UNIT_ATTN_LINKS);
  else attention__tidy(a);
  attention__free(a);
}

const PyVisitor attention_visitor = {attention__begin, attention__visit_node, attention__end};

/* ---- the pass over the file ------------------------------------------------------- */

void *attention_file_begin(AnalyzeCtx *ctx) {
  Attn *a = attention__begin(ctx);
  if (a && ctx->unit->file) attention__inference(a); /* kept units are judged by it before any walk */
  return a;
}

static size_t attention__fn_first(const Attn *a, uint32_t start) {
  size_t lo = 0, hi = a->py->functions.len; /* functions come in document order */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (a->py->functions.items[mid].start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Whether the file-range scan for a folding name says `folded`. */
static bool attention__file_folds(Attn *a) {
  const KbEntry *r = attention__row(a, KB_DETECTOR, "attention-folded-heads");
  return r && attention__range_folds(a, r, 0, (uint32_t)a->py->len);
}

bool attention_file_holds(void *st, const UnitLinks *l, uint32_t start, uint32_t end) {
  Attn *a = st;
  size_t k = 0;
  for (size_t i = attention__fn_first(a, start); i < a->py->functions.len && a->py->functions.items[i].start < end; i++, k++)
    if (k >= l->inference.len || l->inference.items[k] != a->inference[i]) return false;
  if (k != l->inference.len) return false;
  return l->file_fold < 0 || (int)attention__file_folds(a) == l->file_fold;
}

void attention_file_seed(void *st, const UnitLinks *l) {
  Attn *a = st;
  for (size_t i = 0; i < l->sites.len; i++) {
    UnitSite s = l->sites.items[i];
    s.kernel = s.kernel ? xstrdup(s.kernel) : NULL;
    array_push(&a->seeds, s);
  }
}

size_t attention_file_end(void *st, size_t *handwritten) {
  Attn *a = st;
  /* which functions run only under no_grad matters for attention sites only */
  if (!a->inference && (a->sites.len || a->events.len)) attention__inference(a);
  for (size_t i = 0; i < a->sites.len; i++) attention__site(a, &a->sites.items[i]);
  for (size_t i = 0; i < a->sites.len; i++) {
    const AttnSite *s = &a->sites.items[i];
    UnitSite u = {ts_node_start_byte(s->call), ts_node_start_point(s->call).row, pyfile_qualname(a->py, s->callee), s->row};
    array_push(&a->seeds, u);
  }
  size_t before = a->ctx->out->len;
  attention__wrapper_calls(a);
  size_t wrappers = a->ctx->out->len - before;
  before = a->ctx->out->len;
  attention__handwritten(a);
  *handwritten = a->ctx->out->len - before;
  attention__tidy(a); /* drops only the walked units' findings on their import lines */
  return wrappers;
}

void attention_file_keep(void *st, uint32_t start, uint32_t end, UnitLinks *l) {
  Attn *a = st;
  for (size_t i = 0; i < a->seeds.len; i++) {
    UnitSite s = a->seeds.items[i];
    if (s.start < start || s.start >= end) continue;
    s.kernel = s.kernel ? xstrdup(s.kernel) : NULL;
    array_push(&l->sites, s);
  }
  for (size_t i = attention__fn_first(a, start); i < a->py->functions.len && a->py->functions.items[i].start < end; i++)
    array_push(&l->inference, a->inference ? a->inference[i] : false);
  l->file_fold = -1;
  for (size_t i = 0; i < a->file_asks.len; i++)
    if (a->file_asks.items[i] >= start && a->file_asks.items[i] < end) l->file_fold = attention__file_folds(a);
}

void attention_file_free(void *st) {
  if (st) attention__free(st);
}
