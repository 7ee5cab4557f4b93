/* distributed: ASC5xx detectors. Backend strings, NCCL variables, collectives
 * and DataParallel are rows in kb_distributed.def matched by pymatch; this
 * file finds what only structure shows:
 *
 *  - ASC502: a call compared with a backend name (dist.get_backend() == "nccl"),
 *    with the string fix of its row;
 *  - ASC509: sequence-parallel patterns, reported once each: Ulysses (a
 *    function that calls all-to-all both before and after an attention call)
 *    and Ring (a loop that exchanges blocks point-to-point and calls
 *    attention). The ring finding absorbs the per-call P2P hints inside it;
 *  - ASC501 in a per-device table (`{"cuda": {"backend": "nccl"}}`): the advice
 *    becomes "add an npu entry", without an edit;
 *  - `NCCL_BACKEND = "nccl"` labels the backend: not a finding.
 *
 * Callee and attention names come from the detector rows. */
#include "analyzers/engine/forest.h"
#include "analyzers/domains/domains.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/python/resolver.h"

#include <stdlib.h>

#define DIST_NONE ((size_t)-1)

typedef struct {
  char *name;      /* last component of the called name */
  TSNode node;     /* the call */
  size_t fn;       /* innermost enclosing function, or DIST_NONE */
} DistCall;

typedef struct {
  AnalyzeCtx *ctx;
  const PyFile *py;
  Array(DistCall) calls;
  Array(TSNode) loops;
  Array(ByteRange) rings; /* reported ring loops */
  const KbEntry *ulysses, *ring, *compare, *table;
} Dist;

static const KbEntry *distributed__row(const Dist *d, const char *name) {
  return kb_lookup(KB_DETECTOR, name, d->ctx->opt->user_entries, d->ctx->opt->n_user_entries);
}

static size_t distributed__fn_index(const Dist *d, uint32_t at) {
  const PyFunction *f = pyfile_function_at(d->py, at);
  return f ? (size_t)(f - d->py->functions.items) : DIST_NONE;
}

static Finding *distributed__emit(Dist *d, const KbEntry *row, const char *subject, const char *repl, uint32_t s,
                                  uint32_t e, TSPoint sp, TSPoint ep) {
  const KbRule *rule = kb_rule(row->code);
  if (!rule) return NULL;
  return kb_emit(d->ctx->out, rule, row, subject, repl, s, e, sp.row, sp.column, ep.row, ep.column);
}

/* ---- backend comparisons ------------------------------------------------- */

/* `<call> == "nccl"` (either side) where the call's qualified name matches the
 * row's `arg` and the string its `value`. */
static void distributed__compare(Dist *d, TSNode cmp) {
  const KbEntry *row = d->compare;
  if (!row || ts_node_named_child_count(cmp) != 2) return;
  TSNode x = ts_node_named_child(cmp, 0), y = ts_node_named_child(cmp, 1);
  TSNode call = pysyntax_is(x, "call") ? x : y, str = pysyntax_is(x, "call") ? y : x;
  if (!pysyntax_is(call, "call") || !pysyntax_is(str, "string")) return;
  char *q = pyfile_qualname(d->py, pysym_child(call, PYFIELD_FUNCTION));
  char *v = pysyntax_string_value(d->py, str);
  if (q && v && kb_pattern_match(row->arg, q) && kb_pattern_match(row->value, v)) {
    char *subj = pyfile_node_text(d->py, cmp);
    Finding *f = distributed__emit(d, row, subj, NULL, ts_node_start_byte(cmp), ts_node_end_byte(cmp),
                                   ts_node_start_point(cmp), ts_node_end_point(cmp));
    uint32_t s = ts_node_start_byte(str), e = ts_node_end_byte(str);
    const char *hit = row->fix_from ? memmem(d->py->text + s, e - s, row->fix_from, strlen(row->fix_from)) : NULL;
    if (f && hit) {
      uint32_t at = (uint32_t)(hit - d->py->text);
      finding_add_edit(f, at, at + (uint32_t)strlen(row->fix_from), row->fix_to);
      f->fix = row->fix_safety;
    }
    free(subj);
  }
  free(q);
  free(v);
}

/* ---- the walk -------------------------------------------------------------- */

static void distributed__note_call(Dist *d, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (pysyntax_is(fn, "attribute")) fn = pysym_child(fn, PYFIELD_ATTRIBUTE);
  if (!pysyntax_is(fn, "identifier")) return;
  DistCall c = {pyfile_node_text(d->py, fn), call, distributed__fn_index(d, ts_node_start_byte(call))};
  array_push(&d->calls, c);
}

static bool distributed__visit(Dist *d, const PyVisit *v) {
  switch (v->sym) {
  case PYSYM_COMMENT: case PYSYM_STRING: case PYSYM_IMPORT_STATEMENT: case PYSYM_IMPORT_FROM_STATEMENT:
    return false;
  case PYSYM_CALL:
    distributed__note_call(d, v->node);
    break;
  case PYSYM_COMPARISON_OPERATOR:
    distributed__compare(d, v->node);
    break;
  case PYSYM_FOR_STATEMENT:
  case PYSYM_WHILE_STATEMENT:
    array_push(&d->loops, v->node);
    break;
  default:
    break;
  }
  return true;
}


/* ---- Ulysses ------------------------------------------------------------------ */

/* A function calling all-to-all both before and after an attention call.
 * One pass over the calls (in document order) fills every function's
 * first/last all-to-all and first attention call after it. */
typedef struct {
  const DistCall *first, *last, *attn;
  size_t n_a2a;
} DistUlysses;

static void distributed__ulysses(Dist *d) {
  const KbEntry *row = d->ulysses;
  size_t nf = d->py->functions.len;
  if (!row || nf == 0) return;
  DistUlysses *u = xcalloc(nf, sizeof *u);
  for (size_t i = 0; i < d->calls.len; i++) {
    const DistCall *c = &d->calls.items[i];
    if (c->fn == DIST_NONE) continue;
    DistUlysses *x = &u[c->fn];
    if (kb_pattern_match(row->arg, c->name)) {
      if (!x->first) x->first = c;
      x->last = c;
      x->n_a2a++;
    } else if (!x->attn && x->first && kb_pattern_match(row->value, c->name)) {
      x->attn = c;
    }
  }
  for (size_t fi = 0; fi < nf; fi++) {
    const DistUlysses *x = &u[fi];
    if (!x->attn || !x->last || ts_node_start_byte(x->last->node) < ts_node_end_byte(x->attn->node)) continue;
    const PyFunction *f = &d->py->functions.items[fi];
    char *subj = xasprintf("%s(): %zu %s() calls around %s()", f->name, x->n_a2a, x->first->name, x->attn->name);
    distributed__emit(d, row, subj, NULL, ts_node_start_byte(x->first->node), ts_node_end_byte(x->last->node),
                      ts_node_start_point(x->first->node), ts_node_end_point(x->last->node));
    free(subj);
  }
  free(u);
}

/* ---- Ring ---------------------------------------------------------------------- */

static bool distributed__inside(TSNode outer, TSNode n) {
  return ts_node_start_byte(n) >= ts_node_start_byte(outer) && ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* Appends "name()" to a ", "-separated list unless it is there already. */
static void distributed__add_name(StrBuf *sb, const char *name) {
  char *item = xasprintf("%s()", name);
  bool seen = false;
  for (const char *p = sb->len ? sb->data : NULL; p && !seen; p = strstr(p, ", ")) {
    if (*p == ',') p += 2;
    seen = strncmp(p, item, strlen(item)) == 0 && (p[strlen(item)] == ',' || p[strlen(item)] == '\0');
  }
  if (!seen) {
    if (sb->len) sb_puts(sb, ", ");
    sb_puts(sb, item);
  }
  free(item);
}

/* A loop that calls a P2P primitive and an attention function. */
static void distributed__ring_loop(Dist *d, TSNode loop) {
  const KbEntry *row = d->ring;
  if (pyfile_in_ranges(d->rings.items, d->rings.len, ts_node_start_byte(loop))) return;
  const DistCall *attn = NULL;
  StrBuf p2p;
  sb_init(&p2p);
  /* calls are in document order: start at the first one inside the loop */
  size_t lo = 0, hi = d->calls.len;
  uint32_t ls = ts_node_start_byte(loop), le = ts_node_end_byte(loop);
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ts_node_start_byte(d->calls.items[mid].node) < ls) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < d->calls.len && ts_node_start_byte(d->calls.items[i].node) < le; i++) {
    const DistCall *c = &d->calls.items[i];
    if (!distributed__inside(loop, c->node)) continue;
    if (kb_pattern_match(row->arg, c->name)) distributed__add_name(&p2p, c->name);
    else if (!attn && kb_pattern_match(row->value, c->name)) attn = c;
  }
  if (!p2p.len || !attn) {
    sb_free(&p2p);
    return;
  }
  const PyFunction *f = pyfile_function_at(d->py, ts_node_start_byte(loop));
  char *subj = xasprintf("%s%s: loop exchanging blocks with %s while calling %s()", f ? f->name : "module",
                         f ? "()" : "", p2p.data, attn->name);
  sb_free(&p2p);
  TSNode head = pysym_child(loop, PYFIELD_BODY);
  uint32_t end = ts_node_is_null(head) ? ts_node_end_byte(loop) : ts_node_start_byte(head);
  TSPoint ep = ts_node_is_null(head) ? ts_node_end_point(loop) : ts_node_start_point(head);
  distributed__emit(d, row, subj, NULL, ts_node_start_byte(loop), end, ts_node_start_point(loop), ep);
  ByteRange r = {ts_node_start_byte(loop), ts_node_end_byte(loop)};
  array_push(&d->rings, r);
  free(subj);
}

/* The ring finding stands for the point-to-point calls inside it. */
static bool distributed__absorbed_p2p(void *data, const Finding *f) {
  const Dist *d = data;
  return strcmp(f->rule->code, "ASC508") == 0 && pyfile_in_ranges(d->rings.items, d->rings.len, f->start_byte);
}

static void *distributed__begin(AnalyzeCtx *ctx) {
  if (ctx->kind != FILE_PYTHON || !ctx->py) return NULL;
  Dist *d = xcalloc(1, sizeof *d);
  d->ctx = ctx;
  d->py = ctx->py;
  d->ulysses = distributed__row(d, "ulysses");
  d->ring = distributed__row(d, "ring");
  d->compare = distributed__row(d, "backend-compare");
  d->table = distributed__row(d, "device-table");
  return d;
}

/* The device key of the table a named backend string sits in: `"cuda"` for
 * `{"cuda": {"backend": "nccl"}}`. Caller frees; NULL when not in one. */
static char *distributed__table_key(const Dist *d, TSNode str) {
  TSNode pair = ts_node_parent(str);
  TSNode dict = pysyntax_is(pair, "pair") ? ts_node_parent(pair) : (TSNode){0};
  TSNode outer = pysyntax_is(dict, "dictionary") ? ts_node_parent(dict) : (TSNode){0};
  if (!pysyntax_is(outer, "pair")) return NULL;
  TSNode key = pysym_child(outer, PYFIELD_KEY);
  return pysyntax_is(key, "string") ? pysyntax_string_value(d->py, key) : NULL;
}

/* A CUDA entry of a per-device table is right as it is: the advice is to
 * add the NPU entry, and there is no edit to make. */
static void distributed__device_tables(Dist *d) {
  for (size_t i = 0; d->table && i < d->ctx->out->len; i++) {
    Finding *f = &d->ctx->out->items[i];
    if (!f->entry || f->entry->match != KB_NAMED_STRING || strcmp(f->rule->code, d->table->code) != 0) continue;
    char *key = distributed__table_key(d, forest_node_at(d->ctx->forest, f->start_byte, f->end_byte));
    if (key && kb_pattern_match(d->table->arg, key)) {
      kb_restate(f, NULL, d->table->replacement);
      f->fix = FIX_NONE;
      for (size_t k = 0; k < f->edits.len; k++) free(f->edits.items[k].text);
      f->edits.len = 0;
    }
    free(key);
  }
}

static bool distributed__visit_node(void *state, const PyVisit *v) { return distributed__visit(state, v); }

/* `NCCL_BACKEND = "nccl"`: a constant named after the backend labels it; the
 * places that choose a backend with it are the findings, not the label. */
static bool distributed__label(void *data, const Finding *f) {
  const Dist *d = data;
  if (!f->entry || f->entry->match != KB_NAMED_STRING || kb_domain(f->rule->code) != 5) return false;
  TSNode str = forest_node_at(d->ctx->forest, f->start_byte, f->end_byte);
  TSNode asg = ts_node_parent(str);
  TSNode left = pysyntax_is(asg, "assignment") ? pysym_child(asg, PYFIELD_LEFT) : (TSNode){0};
  char *name = pysyntax_is(left, "identifier") ? pyfile_node_text(d->py, left) : NULL;
  bool label = name && (strstr(name, "NCCL") || strstr(name, "nccl"));
  free(name);
  return label;
}

static void distributed__end(void *state) {
  Dist *d = state;
  findings_drop_if(d->ctx->out, distributed__label, d);
  distributed__ulysses(d);
  for (size_t i = 0; d->ring && i < d->loops.len; i++) distributed__ring_loop(d, d->loops.items[i]);
  if (d->rings.len) findings_drop_if(d->ctx->out, distributed__absorbed_p2p, d);
  distributed__device_tables(d);
  for (size_t i = 0; i < d->calls.len; i++) free(d->calls.items[i].name);
  array_free(&d->calls);
  array_free(&d->loops);
  array_free(&d->rings);
  free(d);
}

const PyVisitor distributed_visitor = {distributed__begin, distributed__visit_node, distributed__end};
