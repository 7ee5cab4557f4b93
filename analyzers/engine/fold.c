/* fold: see fold.h. Each pass marks the findings it absorbs as gone; the
 * gone ones are freed at the end, so indexes stay valid between passes. */
#include "analyzers/engine/arena.h"
#include "analyzers/engine/forest.h"
#include "analyzers/engine/fold.h"
#include "analyzers/engine/fold_reach.h"
#include "analyzers/engine/fold_optional.h"
#include "analyzers/engine/toml.h"
#include "analyzers/engine/names.h"

#include "analyzers/python/pyfacts.h"
#include "analyzers/python/resolver.h"

#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

#define FOLD_NONE UINT32_MAX

typedef struct {
  uint32_t stmt;  /* start of the enclosing statement, FOLD_NONE when none */
  uint32_t func;  /* start of the enclosing C function_definition, FOLD_NONE when none */
  TSNode fn_def;  /* that function_definition (null node when none) */
  TSNode sw;      /* innermost enclosing switch_statement (null when none) */
  TSNode case_;   /* innermost enclosing case_statement (null when none) */
  bool in_import; /* its statement is an import (Python) */
  uint32_t call_end; /* end of the call whose callee the finding is (Python), else its own end */
  bool gone;      /* absorbed by another finding */
  size_t into;    /* when gone: the finding that absorbed it */
} FoldSite;

typedef struct {
  const AnalyzeCtx *ctx;
  FindingList *l;
  FoldSite *sites;
  TSNode *host; /* C/C++: per kernel finding, the host function of its first launch (fold__launches) */
} Fold;

/* The walk up from [s, e): the Python file's kept paths, else the forest's. */
static ForestUp fold__up(const AnalyzeCtx *ctx, uint32_t s, uint32_t e) {
  return ctx->py ? forest_paths_up(ctx->py->paths, s, e) : forest_up(ctx->forest, s, e);
}

static bool fold__is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

static bool fold__is_statement(const char *t) {
  if (strcmp(t, "compound_statement") == 0) return false;
  return util_ends_with(t, "_statement") || strcmp(t, "declaration") == 0 || strcmp(t, "field_declaration") == 0 ||
         strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0 ||
         strcmp(t, "decorated_definition") == 0 || util_starts_with(t, "preproc_");
}

/* One node on the way down to a finding: what it says of the finding's
 * site. False when the node does not hold the finding (the way ends). */
static bool fold__site_step(const AnalyzeCtx *ctx, const Finding *f, TSNode n, FoldSite *s) {
  if (ts_node_start_byte(n) > f->start_byte || ts_node_end_byte(n) < f->end_byte) return false;
  if (ctx->kind == FILE_PYTHON) { /* kinds by symbol: every finding walks its whole path */
    PySym k = pysym_of(n);
    if (k == PYSYM_CALL) {
      TSNode callee = ts_node_child(n, 0);
      if (ts_node_start_byte(callee) == f->start_byte && ts_node_end_byte(callee) == f->end_byte)
        s->call_end = ts_node_end_byte(n); /* `torch.cuda.x(device="cuda:0")`: the call is the construct */
    }
    if (pysym_is_statement(n)) {
      s->stmt = ts_node_start_byte(n);
      s->in_import = k == PYSYM_IMPORT_STATEMENT || k == PYSYM_IMPORT_FROM_STATEMENT;
    }
    return true;
  }
  const char *t = ts_node_type(n);
  if (fold__is_statement(t)) {
    s->stmt = ts_node_start_byte(n);
    s->in_import = strcmp(t, "import_statement") == 0 || strcmp(t, "import_from_statement") == 0;
  }
  if (ctx->kind == FILE_CUDA) {
    if (strcmp(t, "function_definition") == 0) {
      s->func = ts_node_start_byte(n);
      s->fn_def = n;
      s->sw = s->case_ = (TSNode){0}; /* a switch outside the function is not its dispatch */
    } else if (strcmp(t, "case_statement") == 0) {
      s->case_ = n;
    } else if (strcmp(t, "switch_statement") == 0) {
      s->sw = n;
    }
  }
  return true;
}

/* Where a finding sits: its statement, function, switch and case. The way
 * down from the root to the finding's range is the walk up's, read root
 * first: kept for a Python file, else one cursor (the cost is the depth of
 * the tree, not its square: ts_node_parent walks from the root). */
static FoldSite fold__site(const AnalyzeCtx *ctx, const Finding *f) {
  FoldSite s;
  memset(&s, 0, sizeof s);
  s.stmt = s.func = FOLD_NONE;
  s.call_end = f->end_byte;
  if (!ctx->forest || f->end_byte <= f->start_byte) return s;
  if (ctx->py) {
    /* every step below the root holds the range (forest_up only goes into a
     * node that does): from the innermost up to the first statement, which
     * is the innermost statement; a call the finding is the callee of is
     * an expression below it */
    ForestUp up = forest_paths_up(ctx->py->paths, f->start_byte, f->end_byte);
    if (!up.n || !fold__site_step(ctx, f, up.steps[0].node, &s)) return s;
    for (size_t i = up.n; i-- > 1;) {
      fold__site_step(ctx, f, up.steps[i].node, &s);
      if (s.stmt != FOLD_NONE) break;
    }
    return s;
  }
  TSNode root = forest_root(ctx->forest, forest_member_at(ctx->forest, f->start_byte));
  if (ts_node_is_null(root)) return s;
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (bool more = true; more && fold__site_step(ctx, f, ts_tree_cursor_current_node(&cur), &s);)
    more = ts_tree_cursor_goto_first_child_for_byte(&cur, f->start_byte) >= 0;
  ts_tree_cursor_delete(&cur);
  return s;
}

/* Puts a site first among f's related locations (the carrier's own site
 * before the sites folded into it). */
static void fold__related_first(Finding *f, uint32_t start, uint32_t end, const char *message) {
  finding_add_related(f, start, end, message);
  Related r = f->related.items[f->related.len - 1];
  memmove(&f->related.items[1], &f->related.items[0], (f->related.len - 1) * sizeof r);
  f->related.items[0] = r;
}

static FixSafety fold__fix(FixSafety a, FixSafety b) {
  if (a == FIX_NONE) return b;
  if (b == FIX_NONE) return a;
  return a == FIX_UNSAFE || b == FIX_UNSAFE ? FIX_UNSAFE : FIX_SAFE;
}

/* Whether f's fix holds edit e already. */
static bool fold__has_edit(const Finding *f, const TextEdit *e) {
  for (size_t k = 0; k < f->edits.len; k++)
    if (f->edits.items[k].start == e->start && f->edits.items[k].end == e->end && strcmp(f->edits.items[k].text, e->text) == 0)
      return true;
  return false;
}

/* Moves what `from` says and edits into `into`: its site (with `message`,
 * or its own message; none when it is into's own range) and its related
 * sites become related locations of `into`, its edits join into's fix. */
static void fold__absorb(Finding *into, Finding *from, const char *message) {
  /* a finding on the same range is not another site */
  if (from->start_byte != into->start_byte || from->end_byte != into->end_byte)
    finding_add_related(into, from->start_byte, from->end_byte, message ? message : from->message);
  for (size_t i = 0; i < from->related.len; i++)
    finding_add_related(into, from->related.items[i].start, from->related.items[i].end, from->related.items[i].message);
  for (size_t i = 0; i < from->edits.len; i++) { /* two names of one import statement share its module edit */
    const TextEdit *e = &from->edits.items[i];
    if (!fold__has_edit(into, e)) finding_add_edit(into, e->start, e->end, e->text);
  }
  if (from->edits.len) into->fix = fold__fix(into->fix, from->fix);
  into->fix_needs_torch_npu = into->fix_needs_torch_npu || from->fix_needs_torch_npu;
  if (from->severity < into->severity) into->severity = from->severity;
  into->guarded = into->guarded && from->guarded;
}

static void fold__gone(Fold *fo, size_t into, size_t from, const char *message) {
  fold__absorb(&fo->l->items[into], &fo->l->items[from], message);
  fo->sites[from].gone = true;
  fo->sites[from].into = into;
}

/* The live finding that carries finding i (itself, or what absorbed it,
 * followed to the end). */
static size_t fold__carrier(const Fold *fo, size_t i) {
  for (size_t steps = 0; fo->sites[i].gone && steps < fo->l->len; steps++) i = fo->sites[i].into;
  return i;
}

/* A finding inside another's range, of the same domain: in C/C++ any
 * range; in Python one expression (the outer finding on one line, as
 * `.cuda(torch.cuda.current_device())`), since a Python range spanning
 * lines is a definition or block whose body holds items of their own. */
/* A finding's index with a key of it (its start row, its start byte):
 * sorted by key then index, the findings of one key are a run in list
 * order (fold__nested looks only at a row's run for Python). */
typedef struct {
  uint32_t key;
  size_t index;
} FoldKeyed;

static int fold__keyed_cmp(const void *x, const void *y) {
  const FoldKeyed *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* The first finding j (in list order) among cand[0..n) that holds `in`. */
static void fold__nest_into(Fold *fo, size_t i, const size_t *cand, size_t n, bool python) {
  FindingList *l = fo->l;
  const Finding *in = &l->items[i];
  int d = kb_domain(in->rule->code);
  for (size_t c = 0; c < n; c++) {
    size_t j = cand[c];
    const Finding *out = &l->items[j];
    if (j == i || fo->sites[j].gone || kb_domain(out->rule->code) != d) continue;
    if (python && out->start_row != out->end_row) continue;
    /* a note (an operator restriction the call meets) carries no live finding: the
     * `device="cuda"` of `torch.empty(1, device="cuda").requires_grad_()` stays the item */
    if (out->severity == SEV_HINT && in->severity != SEV_HINT) continue;
    uint32_t end = fo->sites[j].call_end > out->end_byte ? fo->sites[j].call_end : out->end_byte;
    /* an argument's quick fix joins the call's (one line, both mechanical edits) */
    if (python && end > out->end_byte && (in->end_row != out->start_row || !out->edits.len || !in->edits.len))
      end = out->end_byte;
    bool inside = out->start_byte <= in->start_byte && in->end_byte <= end &&
                  end - out->start_byte > in->end_byte - in->start_byte;
    if (inside) {
      fold__gone(fo, j, i, NULL);
      return;
    }
  }
}

static void fold__nested(Fold *fo) {
  FindingList *l = fo->l;
  bool python = fo->ctx->kind == FILE_PYTHON;
  /* a Python outer finding lies on one line, the line `in` starts on: only
   * that row's findings can hold it */
  FoldKeyed *rows = xmalloc((l->len + 1) * sizeof *rows);
  for (size_t i = 0; i < l->len; i++) rows[i] = (FoldKeyed){l->items[i].start_row, i};
  if (python) qsort(rows, l->len, sizeof *rows, fold__keyed_cmp);
  size_t *order = xmalloc((l->len + 1) * sizeof *order);
  for (size_t k = 0; k < l->len; k++) order[k] = rows[k].index;
  free(rows);
  size_t *pos = xmalloc((l->len + 1) * sizeof *pos); /* where each finding sits in order */
  for (size_t k = 0; k < l->len; k++) pos[order[k]] = k;
  for (size_t i = 0; i < l->len; i++) {
    const Finding *in = &l->items[i];
    if (python && (fo->sites[i].gone || kb_domain(in->rule->code) < 2)) continue;
    if (!python) {
      fold__nest_into(fo, i, order, l->len, false);
      continue;
    }
    size_t a = pos[i], b = pos[i];
    while (a > 0 && l->items[order[a - 1]].start_row == in->start_row) a--;
    while (b + 1 < l->len && l->items[order[b + 1]].start_row == in->start_row) b++;
    fold__nest_into(fo, i, order + a, b - a + 1, true);
  }
  free(pos);
  free(order);
}

/* A field read of a call's result whose object holds another finding of its
 * domain (`torch.cuda.get_device_properties(d).multi_processor_count`, or
 * the compute-capability gate on `.major` of the same call) is one
 * expression to rewrite: the field's finding, which names the NPU field
 * (or says there is none), carries the call's. The field's finding is on
 * the field's name, or its subject is the field (`.name`); a method called
 * on the result (`.name(...)`) is not a field. */
static void fold__member_of_result(Fold *fo) {
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    Finding *b = &l->items[i];
    if (fo->sites[i].gone || kb_domain(b->rule->code) < 2 || !b->subject || util_ends_with(b->subject, ")")) continue;
    /* the finding's node, its parent and theirs */
    TSNode way[3] = {{{0}, 0, 0}, {{0}, 0, 0}, {{0}, 0, 0}};
    ForestUp w = fold__up(fo->ctx, b->start_byte, b->end_byte);
    for (int k = 0; k < 3 && forest_up_next(&w, &way[k], NULL); k++) continue;
    forest_up_end(&w);
    TSNode name = way[0], attr = way[1], up = way[2];
    TSNode obj = ts_node_is_null(attr) ? attr : pysym_child(attr, PYFIELD_OBJECT);
    if (ts_node_is_null(obj) || pysym_of(attr) != PYSYM_ATTRIBUTE) continue;
    bool on_name = ts_node_eq(pysym_child(attr, PYFIELD_ATTRIBUTE), name) && pysym_of(obj) == PYSYM_CALL;
    if (!on_name && b->subject[0] != '.') continue;
    if (on_name && pysym_of(up) == PYSYM_CALL && ts_node_eq(pysym_child(up, PYFIELD_FUNCTION), attr)) continue;
    bool fixable = b->fix != FIX_NONE, folded = false;
    for (size_t j = 0; j < l->len; j++) {
      const Finding *a = &l->items[j];
      if (j != i && !fo->sites[j].gone && a->start_row == b->start_row && kb_domain(a->rule->code) == kb_domain(b->rule->code) &&
          a->start_byte >= ts_node_start_byte(obj) && a->end_byte <= ts_node_end_byte(obj)) {
        fold__gone(fo, i, j, NULL);
        folded = true;
      }
    }
    /* the call's rename alone leaves the field unported: no fix for the whole */
    if (folded && !fixable) finding_drop_fix(b);
  }
}

/* Same construct: one KB row (or, for detector findings, one subject). */
static bool fold__same_construct(const Finding *a, const Finding *b) {
  if (kb_domain(a->rule->code) < 2) return false; /* each dependency is its own item */
  if (strcmp(a->rule->code, b->rule->code) != 0 || a->entry != b->entry) return false;
  return a->entry || strcmp(a->subject, b->subject) == 0;
}

/* The first finding kept under each key (one construct with one statement
 * start or one row), so repeats are found by lookup, not by comparing every
 * pair. Open addressing over keys copied into the set's arena (a caller
 * builds each key in one reused buffer); `index` values are finding
 * indexes. */
typedef struct {
  char **keys;
  size_t *index;
  size_t cap, len;
  Arena arena;
} FoldKeys;

static size_t fold__hash(const char *key) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char *p = (const unsigned char *)key; *p; p++) h = (h ^ *p) * 0x100000001b3ull;
  return (size_t)h;
}

static size_t fold__slot(const FoldKeys *k, const char *key) {
  size_t h = fold__hash(key) & (k->cap - 1);
  while (k->keys[h] && strcmp(k->keys[h], key) != 0) h = (h + 1) & (k->cap - 1);
  return h;
}

/* The index stored at slot h, or SIZE_MAX when the slot is empty. */
static size_t fold__held(const FoldKeys *k, size_t h) { return k->keys[h] ? k->index[h] : SIZE_MAX; }

/* The index stored under key, or SIZE_MAX. */
static size_t fold__lookup(const FoldKeys *k, const char *key) { return k->cap ? fold__held(k, fold__slot(k, key)) : SIZE_MAX; }

/* Stores i under a copy of key unless a value is there already. */
static void fold__insert(FoldKeys *k, const char *key, size_t i) {
  if (2 * (k->len + 1) > k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 64;
    FoldKeys g = {xcalloc(cap, sizeof(char *)), xcalloc(cap, sizeof(size_t)), cap, 0, k->arena};
    for (size_t h = 0; h < k->cap; h++)
      if (k->keys[h]) {
        size_t t = fold__slot(&g, k->keys[h]);
        g.keys[t] = k->keys[h];
        g.index[t] = k->index[h];
        g.len++;
      }
    free(k->keys);
    free(k->index);
    *k = g;
  }
  size_t h = fold__slot(k, key);
  if (k->keys[h]) return;
  k->keys[h] = arena_strdup(&k->arena, key);
  k->index[h] = i;
  k->len++;
}

/* Stores i under a copy of key at slot h, the one fold__slot gave for it
 * (no key there): saves hashing the key again where the set has room. */
static void fold__insert_at(FoldKeys *k, size_t h, const char *key, size_t i) {
  if (2 * (k->len + 1) > k->cap) {
    fold__insert(k, key, i);
    return;
  }
  k->keys[h] = arena_strdup(&k->arena, key);
  k->index[h] = i;
  k->len++;
}

/* An empty set with room for n keys without growing (a pass over a list
 * of n findings stores at most n). */
static FoldKeys fold__keys_for(size_t n) {
  size_t cap = 64;
  while (cap < 2 * (n + 1)) cap *= 2;
  FoldKeys k = {xcalloc(cap, sizeof(char *)), xcalloc(cap, sizeof(size_t)), cap, 0, {0}};
  return k;
}

static void fold__keys_free(FoldKeys *k) {
  free(k->keys);
  free(k->index);
  arena_free(&k->arena);
}

/* What makes two findings one construct (fold__same_construct), as text,
 * written over what sb held. */
static const char *fold__construct_key(StrBuf *sb, const Finding *f, char kind, uint32_t where) {
  sb_clear(sb);
  sb_key(sb, f->rule->code);
  sb_key_u64(sb, (uint64_t)(uintptr_t)f->entry);
  sb_key(sb, f->entry ? "" : f->subject);
  sb_putc(sb, kind);
  sb_key_u64(sb, where);
  return sb->data;
}

/* Findings of one construct in one statement or on one line: each joins
 * the first earlier finding still standing that shares its statement or
 * its row. */
static void fold__repeats(Fold *fo) {
  FindingList *l = fo->l;
  FoldKeys by_stmt = fold__keys_for(l->len), by_row = fold__keys_for(l->len);
  StrBuf sbs, sbr;
  sb_init(&sbs);
  sb_init(&sbr);
  for (size_t j = 0; j < l->len; j++) {
    const Finding *f = &l->items[j];
    if (fo->sites[j].gone || kb_domain(f->rule->code) < 2) continue;
    bool stmt = fo->sites[j].stmt != FOLD_NONE;
    const char *ks = stmt ? fold__construct_key(&sbs, f, 's', fo->sites[j].stmt) : NULL;
    const char *kr = fold__construct_key(&sbr, f, 'r', f->start_row);
    size_t hs = ks ? fold__slot(&by_stmt, ks) : 0, hr = fold__slot(&by_row, kr);
    size_t a = ks ? fold__held(&by_stmt, hs) : SIZE_MAX, b = fold__held(&by_row, hr);
    size_t into = a < b ? a : b;
    if (into != SIZE_MAX) {
      fold__gone(fo, into, j, NULL);
      continue;
    }
    if (ks) fold__insert_at(&by_stmt, hs, ks, j);
    fold__insert_at(&by_row, hr, kr, j);
  }
  sb_free(&sbs);
  sb_free(&sbr);
  fold__keys_free(&by_stmt);
  fold__keys_free(&by_row);
}

/* Finding j joins the first finding kept under `key` (copied), or is kept
 * under it: returns the index it joined, or SIZE_MAX. */
static size_t fold__join_first(Fold *fo, FoldKeys *keys, const char *key, size_t j) {
  if (!keys->cap) { /* an empty set without slots yet: the first key */
    fold__insert(keys, key, j);
    return SIZE_MAX;
  }
  size_t h = fold__slot(keys, key), into = fold__held(keys, h);
  if (into == SIZE_MAX) {
    fold__insert_at(keys, h, key, j);
    return SIZE_MAX;
  }
  fold__gone(fo, into, j, NULL);
  return into;
}

/* Device-layer edits of one Python statement under different rules
 * (`x.cuda().to("cuda:0")`, `torch.cuda.synchronize(); torch.cuda.empty_cache()`
 * on one line): one edit of that statement, at the first. Only findings
 * with a fix that is not a hint, and of one fix safety (a safe fix folded
 * into an unsafe one would leave `fix` without it): the notes of other
 * rules (operator coverage) stay beside them. */
static void fold__statement(Fold *fo) {
  FindingList *l = fo->l;
  FoldKeys by_stmt = fold__keys_for(l->len);
  StrBuf key;
  sb_init(&key);
  for (size_t j = 0; j < l->len; j++) {
    const Finding *f = &l->items[j];
    if (fo->sites[j].gone || fo->sites[j].stmt == FOLD_NONE || fo->sites[j].in_import || kb_domain(f->rule->code) != 2 ||
        !fold_live(f) || !f->edits.len)
      continue;
    sb_clear(&key);
    sb_key_u64(&key, fo->sites[j].stmt);
    sb_key_u64(&key, (uint64_t)f->fix); /* a safe fix stays safe */
    fold__join_first(fo, &by_stmt, key.data, j);
  }
  sb_free(&key);
  fold__keys_free(&by_stmt);
}

/* Findings of the "fold-statement-codes" row's rules in one statement
 * (`is_fp16 = torch.cuda.is_available() and
 * torch.cuda.get_device_capability()[0] > 7`: one gate, one decision): one
 * item, carried by the most severe, the first on a tie. */
static void fold__statement_codes(Fold *fo) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-statement-codes", fo->ctx->opt->user_entries, fo->ctx->opt->n_user_entries);
  if (!row || !row->arg) return;
  FindingList *l = fo->l;
  Array(size_t) in = {0};
  for (size_t j = 0; j < l->len; j++)
    if (!fo->sites[j].gone && fold_live(&l->items[j]) && fo->sites[j].stmt != FOLD_NONE &&
        kb_pattern_match(row->arg, l->items[j].rule->code))
      array_push(&in, j);
  for (size_t a = 0; a < in.len; a++) {
    size_t j = in.items[a];
    for (size_t b = 0; b < a && !fo->sites[j].gone; b++) {
      size_t i = in.items[b];
      if (fo->sites[i].gone || fo->sites[i].stmt != fo->sites[j].stmt) continue;
      bool j_leads = l->items[j].severity < l->items[i].severity;
      fold__gone(fo, j_leads ? j : i, j_leads ? i : j, NULL);
    }
  }
  array_free(&in);
}

/* ---- device branches (Python) ---- */

/* The `if` (or `elif`) nearest above byte range [s, e) whose consequence
 * holds it, within its definition; *block is that consequence. Null when
 * there is none. */
static TSNode fold__branch_of(const AnalyzeCtx *ctx, uint32_t s, uint32_t e, TSNode *block) {
  ForestUp up = fold__up(ctx, s, e);
  TSNode c, found = {0}, consequence = {0};
  const char *field;
  for (bool own = true; forest_up_next(&up, &c, &field); own = false) {
    if (own) continue; /* the node itself: its branches are below it */
    if (!ts_node_is_null(consequence) && (fold__is(c, "if_statement") || fold__is(c, "elif_clause"))) {
      *block = consequence;
      found = c;
      break;
    }
    if (fold__is(c, "function_definition") || fold__is(c, "class_definition") || fold__is(c, "module")) break;
    consequence = fold__is(c, "block") && field && strcmp(field, "consequence") == 0 ? c : (TSNode){0};
  }
  forest_up_end(&up);
  return found;
}

/* Whether the byte range holds the word "cuda" (a test of a device name,
 * a flag or an attribute: `accelerator == "cuda"`, `use_cuda`, `x.is_cuda`). */
static bool fold__mentions_cuda(const AnalyzeCtx *ctx, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return memmem(ctx->text + s, e - s, "cuda", 4) != NULL;
}

/* `if not torch.cuda.is_available(): return 0` (or `if x.device.type !=
 * "cuda": return fallback(x)`) among the statements of a function body
 * before the one holding byte range [s, e): the rest of the body runs only
 * where the test let it through, a branch of that test like an if's
 * consequence. The exit's condition is *cond, the rest of the body
 * [*rs, *re). A test that raises is a requirement, not a branch. */
static bool fold__early_exit_of(const AnalyzeCtx *ctx, uint32_t s, uint32_t e, TSNode *cond, uint32_t *rs, uint32_t *re) {
  ForestUp up = fold__up(ctx, s, e);
  TSNode c, child = {0}, body = {0};
  const char *field, *child_field = NULL;
  while (forest_up_next(&up, &c, &field)) {
    if (fold__is(c, "function_definition")) {
      if (!ts_node_is_null(child) && child_field && strcmp(child_field, "body") == 0) body = child;
      break;
    }
    if (fold__is(c, "class_definition") || fold__is(c, "module")) break;
    child = c;
    child_field = field;
  }
  forest_up_end(&up);
  if (ts_node_is_null(body)) return false;
  /* the body's statement holding the range, then the statements before it
   * (read once by a cursor: ts_node_named_child(body, i) walks from the first) */
  Array(TSNode) before = {0};
  TSTreeCursor cur = ts_tree_cursor_new(body);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur)) {
    TSNode st = ts_tree_cursor_current_node(&cur);
    if (!ts_node_is_named(st)) continue;
    if (ts_node_start_byte(st) <= s && ts_node_end_byte(st) >= e) break;
    array_push(&before, st);
  }
  ts_tree_cursor_delete(&cur);
  bool found = false;
  for (size_t i = before.len; i-- > 0 && !found;) {
    TSNode st = before.items[i];
    if (!fold__is(st, "if_statement") || ts_node_named_child_count(st) != 2) continue; /* no elif/else */
    TSNode then = ts_node_child_by_field_name(st, "consequence", 11);
    uint32_t k = ts_node_is_null(then) ? 0 : ts_node_named_child_count(then);
    TSNode test = ts_node_child_by_field_name(st, "condition", 9);
    if (k == 0 || !fold__is(ts_node_named_child(then, k - 1), "return_statement") || ts_node_is_null(test) ||
        !fold__mentions_cuda(ctx, test))
      continue;
    *cond = test;
    *rs = ts_node_end_byte(st);
    *re = ts_node_end_byte(body);
    found = true;
  }
  array_free(&before);
  return found;
}

static bool fold__branch_domain(const Finding *f) {
  int d = kb_domain(f->rule->code);
  return d == 2 || d == 5;
}

/* Whether a block holds only torch.backends.* flag assignments (TF32,
 * cuDNN), directly or in ifs without else of the same kind (a capability
 * test around them): on the NPU they mean nothing and are right to skip.
 * An explicit stack of blocks, no recursion. */
static bool fold__flags_only(const AnalyzeCtx *ctx, TSNode block) {
  TSNode stack[8];
  size_t top = 0;
  stack[top++] = block;
  bool any = false;
  while (top) {
    TSNode b = stack[--top];
    for (uint32_t i = 0; i < ts_node_named_child_count(b); i++) {
      TSNode st = ts_node_named_child(b, i);
      if (fold__is(st, "comment")) continue;
      if (fold__is(st, "if_statement") && ts_node_is_null(ts_node_child_by_field_name(st, "alternative", 11)) && top < 8) {
        TSNode body = ts_node_child_by_field_name(st, "consequence", 11);
        if (ts_node_is_null(body)) return false;
        stack[top++] = body;
        continue;
      }
      TSNode a = fold__is(st, "expression_statement") ? ts_node_named_child(st, 0) : (TSNode){0};
      TSNode left = fold__is(a, "assignment") ? ts_node_child_by_field_name(a, "left", 4) : (TSNode){0};
      if (ts_node_is_null(left)) return false;
      uint32_t ls = ts_node_start_byte(left), le = ts_node_end_byte(left);
      if (le - ls < 15 || strncmp(ctx->text + ls, "torch.backends.", 15) != 0) return false;
      any = true;
    }
  }
  return any;
}

/* Whether every edit of `from` is one `into` makes already (a guard's edit
 * the device layer put into the fix of each call it guards). */
static bool fold__edits_within(const Finding *into, const Finding *from) {
  for (size_t i = 0; i < from->edits.len; i++)
    if (!fold__has_edit(into, &from->edits.items[i])) return false;
  return true;
}

/* Indexes into a fold's finding list. */
typedef Array(size_t) FoldIndexes;

static int fold__index_cmp(const void *x, const void *y) {
  size_t a = *(const size_t *)x, b = *(const size_t *)y;
  return a < b ? -1 : a > b;
}

/* Appends to `in` the indices of the candidates `at` (the live device and
 * distributed findings keyed by start byte: a branch asks only those
 * inside its test and its body) not yet gone lying wholly in [s, e]. */
static void fold__within(const Fold *fo, const FoldKeyed *at, size_t n, uint32_t s, uint32_t e, FoldIndexes *in) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (at[mid].key < s) lo = mid + 1;
    else hi = mid;
  }
  for (size_t k = lo; k < n && at[k].key <= e; k++)
    if (!fo->sites[at[k].index].gone && fo->l->items[at[k].index].end_byte <= e) array_push(in, at[k].index);
}

/* The device-layer and distributed findings in the branch of one CUDA test
 * are one change: `if torch.cuda.is_available(): device = torch.device("cuda")`
 * (a selection: the NPU gets its own branch there), `if accelerator ==
 * "cuda": torch.device("cuda", rank); torch.cuda.set_device(rank)`. The
 * most severe of them carries the others, the test's own finding on a tie
 * (a test that is no finding adds none). The rest of a function after an
 * early exit on a CUDA test (`if not torch.cuda.is_available(): return 0`)
 * is that test's branch too. A test whose branch sets TF32/cuDNN flags alone is
 * right to skip on the NPU (another branch, or none, runs there): it and
 * its branch are no finding. */
static void fold__device_branch(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  FindingList *l = fo->l;
  if (!ctx->forest || !ctx->text) return;
  /* liveness and domain do not change here: absorbing only raises a carrier's severity */
  FoldKeyed *at = xcalloc(l->len + 1, sizeof *at);
  size_t n = 0;
  for (size_t j = 0; j < l->len; j++)
    if (fold_live(&l->items[j]) && fold__branch_domain(&l->items[j])) at[n++] = (FoldKeyed){l->items[j].start_byte, j};
  if (n > 1) qsort(at, n, sizeof *at, fold__keyed_cmp);
  FoldIndexes test = {0}, both = {0};
  for (size_t j = 0; j < l->len; j++) {
    const Finding *f = &l->items[j];
    if (fo->sites[j].gone || !fold_live(f) || !fold__branch_domain(f)) continue;
    TSNode block = {0}, cond = {0}, stmt = fold__branch_of(ctx, f->start_byte, f->end_byte, &block);
    uint32_t bs, be;
    if (!ts_node_is_null(stmt)) {
      cond = ts_node_child_by_field_name(stmt, "condition", 9);
      bs = ts_node_start_byte(block);
      be = ts_node_end_byte(block);
    } else if (!fold__early_exit_of(ctx, f->start_byte, f->end_byte, &cond, &bs, &be)) {
      continue;
    }
    if (ts_node_is_null(cond)) continue;
    uint32_t cs = ts_node_start_byte(cond), ce = ts_node_end_byte(cond);
    test.len = both.len = 0;
    fold__within(fo, at, n, cs, ce, &test);
    if (test.len > 1) qsort(test.items, test.len, sizeof *test.items, fold__index_cmp);
    size_t carrier = test.len ? test.items[0] : SIZE_MAX; /* the test's first finding in list order */
    bool tested = carrier != SIZE_MAX;
    if (!tested && !fold__mentions_cuda(ctx, cond)) continue;
    bool skip = tested && !ts_node_is_null(block) && fold__flags_only(ctx, block); /* whatever other branches do */
    fold__within(fo, at, n, bs, be, &both);
    /* the most severe finding carries the item (its message is the headline): the first in list
     * order among the most severe, the test's on a tie with it */
    for (size_t q = 0, test_first = carrier; q < both.len; q++) {
      size_t k = both.items[q];
      Severity c = carrier == SIZE_MAX ? SEV_HINT : l->items[carrier].severity;
      if (carrier == SIZE_MAX || l->items[k].severity < c ||
          (l->items[k].severity == c && k < carrier && carrier != test_first))
        carrier = k;
    }
    for (size_t q = 0; q < test.len; q++) array_push(&both, test.items[q]);
    if (both.len > 1) qsort(both.items, both.len, sizeof *both.items, fold__index_cmp);
    for (size_t q = 0; q < both.len && carrier != SIZE_MAX; q++) {
      size_t k = both.items[q];
      if (k == carrier || (q && both.items[q - 1] == k)) continue; /* a test inside its own body: once */
      const Finding *g = &l->items[k];
      /* edits the carrier makes already bring no fix safety of their own */
      FixSafety own = l->items[k].fix;
      if (fold__edits_within(&l->items[carrier], g)) l->items[k].fix = FIX_NONE;
      fold__gone(fo, carrier, k, NULL);
      l->items[k].fix = own;
    }
    if (skip && carrier != SIZE_MAX) fo->sites[carrier].gone = true;
  }
  array_free(&test);
  array_free(&both);
  free(at);
}

/* The API families of the "fold-api-family" row (`arg`: `name=globs`
 * groups separated by `;`), split once per file: names[i] and globs[i]
 * point into `text`, which the caller frees. */
typedef struct {
  char *text;
  Array(const char *) names, globs;
  FoldKeys asked; /* subject -> its family's index + 1 (0: none): many findings share a subject */
} FoldFamilies;

static FoldFamilies fold__families_of(const Fold *fo) {
  FoldFamilies fam = {0};
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-api-family", fo->ctx->opt->user_entries, fo->ctx->opt->n_user_entries);
  if (!row || !row->arg) return fam;
  fam.text = xstrdup(row->arg);
  char *save = NULL;
  for (char *g = strtok_r(fam.text, ";", &save); g; g = strtok_r(NULL, ";", &save)) {
    char *eq = strchr(g, '=');
    if (!eq) continue;
    *eq = '\0';
    array_push(&fam.names, g);
    array_push(&fam.globs, eq + 1);
  }
  return fam;
}

static const char *fold__family(FoldFamilies *fam, const char *subject) {
  if (!subject || !fam->names.len) return NULL;
  size_t k = fold__lookup(&fam->asked, subject);
  if (k == SIZE_MAX) {
    k = 0;
    for (size_t i = 0; i < fam->names.len && !k; i++)
      if (kb_pattern_match(fam->globs.items[i], subject)) k = i + 1;
    fold__insert(&fam->asked, subject, k);
  }
  return k ? fam->names.items[k - 1] : NULL;
}

static void fold__families_free(FoldFamilies *fam) {
  fold__keys_free(&fam->asked);
  array_free(&fam->names);
  array_free(&fam->globs);
  free(fam->text);
}

/* Device-layer repeats of one construct in one Python function (or in the
 * code outside functions), and members of one API family of any domain
 * (`torch.cuda.empty_cache()` after each of three offloads, the two
 * `torch.cuda.synchronize()` of a timing pair, `device="cuda"` on each
 * tensor of one block): one edit applied several times is one work item,
 * at the first site, with the others related and their edits in its fix,
 * and the message says how many sites it covers. Different APIs stay
 * findings of their own (each is a line an editor should mark), unless
 * they are one family of one decision ("fold-api-family" row: a
 * function's CUDA streams and events, its cache releases). */
static void fold__in_function(Fold *fo) {
  const PyFile *py = fo->ctx->py;
  if (!py) return;
  /* the code outside every function (a script's module code, a Gradio
   * app's setup) is one scope too */
  static const PyFunction module_code = {.start = UINT32_MAX};
  FindingList *l = fo->l;
  FoldKeys by_fn = fold__keys_for(l->len);
  StrBuf key; /* each finding's, written over the last */
  sb_init(&key);
  FoldFamilies fam = fold__families_of(fo);
  uint32_t *sites = xcalloc(l->len, sizeof *sites);
  const PyFunction **fns = xcalloc(l->len, sizeof *fns);
  for (size_t j = 0; j < l->len; j++) {
    const Finding *f = &l->items[j];
    int domain = kb_domain(f->rule->code);
    if (fo->sites[j].gone || domain < 2) continue;
    /* one API (not only one row: torch.cuda.amp.* names GradScaler and autocast), or one family;
     * past the device layer by family only (an xformers mask and the call it is passed to, a
     * CUDA graph and its capture context) */
    const char *family = fold__family(&fam, f->subject);
    if (domain != 2 && !family) continue;
    const PyFunction *fn = pyfile_function_at(py, f->start_byte);
    if (!fn) fn = &module_code;
    fns[j] = fn;
    /* a hint (a branch the default run skips) and a live site are two items: the live one is work */
    bool live = fold_live(f);
    /* an API passed where its usual replacement does not apply (KB_PASSED_TO), or given
     * another replacement there (an ONNX Runtime provider string), is other work */
    bool passed = f->entry && f->entry->match == KB_PASSED_TO;
    sb_clear(&key);
    sb_key(&key, family ? "family" : f->rule->code);
    sb_key(&key, family ? family : f->subject);
    sb_key_u64(&key, fn->start);
    sb_key_u64(&key, live);
    sb_key_u64(&key, passed);
    if (!family) sb_key(&key, f->replacement);
    size_t into = fold__join_first(fo, &by_fn, key.data, j);
    if (into != SIZE_MAX) sites[into]++;
  }
  sb_free(&key);
  for (size_t i = 0; i < l->len; i++) {
    const PyFunction *fn = sites[i] ? fns[i] : NULL;
    if (!fn) continue;
    char *en = fn->name ? xasprintf("[%u sites in %s()]", sites[i] + 1, fn->name)
                        : xasprintf("[%u sites in the module's code]", sites[i] + 1);
    char *zh = fn->name ? xasprintf("［%s() 中共 %u 处］", fn->name, sites[i] + 1)
                        : xasprintf("［模块代码中共 %u 处］", sites[i] + 1);
    finding_append_note(&l->items[i], en, zh);
    free(en);
    free(zh);
  }
  free(sites);
  free(fns);
  fold__keys_free(&by_fn);
  fold__families_free(&fam);
}

/* Two rules on one range (a "cuda" string that is both a device string and
 * an autocast device type): the row with the narrower pattern stays. */
static bool fold__generic(const Finding *f) { return !f->entry || !f->entry->pattern || f->entry->pattern[0] == '*'; }

typedef struct {
  uint32_t start, end;
  size_t i;
} FoldRange;

static int fold__range_cmp(const void *x, const void *y) {
  const FoldRange *a = x, *b = y;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->end != b->end) return a->end < b->end ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* Each group of findings on one range, pairwise in list order (sorted by
 * range so that findings on other ranges are not compared). */
static void fold__same_range(Fold *fo) {
  FindingList *l = fo->l;
  FoldRange *r = xcalloc(l->len + 1, sizeof *r);
  for (size_t i = 0; i < l->len; i++) r[i] = (FoldRange){l->items[i].start_byte, l->items[i].end_byte, i};
  qsort(r, l->len, sizeof *r, fold__range_cmp);
  for (size_t g = 0, h; g < l->len; g = h) {
    for (h = g + 1; h < l->len && r[h].start == r[g].start && r[h].end == r[g].end;) h++;
    for (size_t x = g; x < h && r[g].end > r[g].start; x++) {
      size_t i = r[x].i;
      for (size_t y = x + 1; y < h && !fo->sites[i].gone; y++) {
        size_t j = r[y].i;
        Finding *a = &l->items[i], *b = &l->items[j];
        if (fo->sites[j].gone || kb_domain(a->rule->code) < 2 || kb_domain(b->rule->code) < 2 ||
            strcmp(a->rule->code, b->rule->code) == 0)
          continue;
        if (fold__generic(a) && !fold__generic(b)) fold__gone(fo, j, i, NULL);
        else fold__gone(fo, i, j, NULL);
      }
    }
  }
  free(r);
}

/* The same literal on one line named by two device-layer rules (`"cuda"`
 * of an autocast and of a `device == "cuda"` gate in one statement): one
 * edit of that line, kept at the first. */
static void fold__same_literal(Fold *fo) {
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    const Finding *a = &l->items[i];
    if (fo->sites[i].gone || kb_domain(a->rule->code) != 2 || !a->subject || a->subject[0] != '"' || !a->edits.len) continue;
    for (size_t j = i + 1; j < l->len; j++) {
      const Finding *b = &l->items[j];
      if (!fo->sites[j].gone && b->start_row == a->start_row && fo->sites[j].stmt == fo->sites[i].stmt &&
          kb_domain(b->rule->code) == 2 && b->subject && strcmp(a->subject, b->subject) == 0 && b->edits.len)
        fold__gone(fo, i, j, NULL);
    }
  }
}

/* Rules whose sites in one file are one decision ("fold-per-file" row: a
 * dtype the chip has no kernels for, FP8, is dropped or rerouted for the
 * file's code path as a whole): one finding per construct and file, at the
 * first site, the others related. */
static const char *fold__base(const char *path);

static void fold__per_file(Fold *fo) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-per-file", fo->ctx->opt->user_entries, fo->ctx->opt->n_user_entries);
  FindingList *l = fo->l;
  for (size_t i = 0; row && row->arg && i < l->len; i++) {
    if (fo->sites[i].gone || !kb_pattern_match(row->arg, l->items[i].rule->code)) continue;
    for (size_t j = i + 1; j < l->len; j++)
      if (!fo->sites[j].gone && fold__same_construct(&l->items[i], &l->items[j]) &&
          strcmp(l->items[i].subject, l->items[j].subject) == 0)
        fold__gone(fo, i, j, NULL);
  }
}

/* A packaging script that builds CUDA extensions (ASC412 in setup.py): its
 * device-layer findings (the GPU architecture detection that picks the
 * nvcc flags) go with the build decision, as sites of its first ASC412. */
static void fold__build_script(Fold *fo) {
  FindingList *l = fo->l;
  if (strcmp(fold__base(fo->ctx->path), "setup.py") != 0) return;
  size_t build = l->len;
  for (size_t i = 0; i < l->len && build == l->len; i++)
    if (!fo->sites[i].gone && strcmp(l->items[i].rule->code, "ASC412") == 0) build = i;
  for (size_t i = 0; build < l->len && i < l->len; i++)
    if (!fo->sites[i].gone && kb_domain(l->items[i].rule->code) == 2) fold__gone(fo, build, i, NULL);
}

/* A CUDA engine file (the "cuda-engine-file" row: an unguarded top-level
 * import of TensorRT, Polygraphy, cuda-python, ...) is replaced as a whole:
 * the findings of the engine libraries themselves (TensorRT's import and
 * first use, Polygraphy's buffers, cuda-python's runtime) are one item, at
 * the first, the others its sites; so are its device-layer findings
 * (streams, events, `.cuda()`: the rewrite replaces them), listed as sites
 * without their fixes, which would patch code about to go. */
static void fold__engine_file(Fold *fo) {
  const PyFile *py = fo->ctx->py;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cuda-engine-file", fo->ctx->opt->user_entries, fo->ctx->opt->n_user_entries);
  if (!row || !row->arg) return;
  bool engine = false;
  for (size_t i = 0; i < py->imports.len && !engine; i++) {
    const PyImport *im = &py->imports.items[i];
    engine = im->column == 0 && kb_pattern_match(row->arg, im->module) &&
             !pyfile_in_ranges(py->guarded.items, py->guarded.len, im->start);
  }
  FindingList *l = fo->l;
  /* a file of kernels (CuTe DSL, Triton) carries its engine findings at its
   * first kernel: they are rewritten with it */
  size_t carrier = SIZE_MAX;
  for (size_t j = 0; engine && j < l->len && carrier == SIZE_MAX; j++) {
    const Finding *f = &l->items[j];
    if (!fo->sites[j].gone && fold_live(f) && f->entry && f->entry->match == KB_DECORATOR &&
        kb_domain(f->rule->code) == 4)
      carrier = j;
  }
  for (size_t j = 0; engine && j < l->len; j++) {
    const Finding *f = &l->items[j];
    if (j == carrier || fo->sites[j].gone || !fold_live(f) || !f->subject || !kb_pattern_match(row->arg, f->subject))
      continue;
    if (carrier == SIZE_MAX) carrier = j;
    else fold__gone(fo, carrier, j, NULL);
  }
  for (size_t j = 0; carrier != SIZE_MAX && j < l->len; j++) {
    Finding *f = &l->items[j], *into = &l->items[carrier];
    if (j == carrier || fo->sites[j].gone || kb_domain(f->rule->code) != 2) continue;
    finding_add_related(into, f->start_byte, f->end_byte, f->message);
    for (size_t k = 0; k < f->related.len; k++)
      finding_add_related(into, f->related.items[k].start, f->related.items[k].end, f->related.items[k].message);
    fo->sites[j].gone = true;
    fo->sites[j].into = carrier;
  }
}

/* The import findings that finding i stands for: itself, and those an
 * earlier fold merged into it (`from torch.cuda.amp import custom_bwd,
 * custom_fwd` is one finding by then, and one edit serves both names). */
static void fold__import_members_of(const Fold *fo, size_t i, FoldIndexes *out) {
  out->len = 0;
  array_push(out, i);
  for (size_t k = 0; k < fo->l->len; k++)
    if (k != i && fo->sites[k].gone && fo->sites[k].in_import && fold__carrier(fo, k) == i) array_push(out, k);
}

/* Whether use j is of a name one of `names` imports: the same name with the
 * same rule (a bare decorator and a called one match different rows, and
 * are still the one import's uses). */
static bool fold__import_names(const Fold *fo, const size_t *names, size_t n, size_t j) {
  const Finding *b = &fo->l->items[j];
  for (size_t k = 0; k < n; k++) {
    const Finding *a = &fo->l->items[names[k]];
    if (kb_domain(a->rule->code) >= 2 && strcmp(a->rule->code, b->rule->code) == 0 && strcmp(a->subject, b->subject) == 0)
      return true;
  }
  return false;
}

/* A name imported from a library the finding is about, and its uses: one
 * item, reported at the first use (where the detail is), with the import
 * and the other uses as related sites. */
static void fold__import_uses(Fold *fo) {
  FindingList *l = fo->l;
  FoldIndexes names = {0};
  for (size_t i = 0; i < l->len; i++) {
    if (fo->sites[i].gone || !fo->sites[i].in_import) continue;
    fold__import_members_of(fo, i, &names);
    size_t carrier = l->len;
    for (size_t j = 0; j < l->len; j++) {
      if (j == i || fo->sites[j].gone || fo->sites[j].in_import || !fold__import_names(fo, names.items, names.len, j)) continue;
      if (carrier == l->len) {
        carrier = j;
        fold__gone(fo, j, i, NULL);
      } else {
        fold__gone(fo, carrier, j, NULL);
      }
    }
  }
  array_free(&names);
}

/* A use whose fix is an import's (`amp.autocast` under `import
 * torch.cuda.amp as amp`: the edit rewrites the import) is that import's
 * item: the import is where the work is, the uses are its sites. The
 * shared `import torch_npu` insertion does not count as a fix. */
static bool fold__fix_within(const Finding *into, const Finding *from) {
  size_t real = 0;
  for (size_t i = 0; i < from->edits.len; i++) {
    const TextEdit *e = &from->edits.items[i];
    if (e->start == e->end) continue;
    if (!fold__has_edit(into, e)) return false;
    real++;
  }
  return real > 0;
}

static void fold__import_fix(Fold *fo) {
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    const Finding *imp = &l->items[i];
    if (fo->sites[i].gone || !fo->sites[i].in_import || kb_domain(imp->rule->code) != 2 || !imp->edits.len) continue;
    for (size_t j = 0; j < l->len; j++)
      if (j != i && !fo->sites[j].gone && !fo->sites[j].in_import && strcmp(l->items[j].rule->code, imp->rule->code) == 0 &&
          fold__fix_within(imp, &l->items[j]))
        fold__gone(fo, i, j, NULL);
  }
}

/* An import of a module whose members the file's findings use
 * (`import flash_attn`, then `flash_attn.flash_attn_varlen_func(...)`), or
 * of a name they use under another rule (`from flash_attn.modules.mha
 * import FlashSelfAttention` in both branches of a version test, then
 * `FlashSelfAttention(...)`): replacing the uses is the work and drops the
 * import with them, so the import is a site of the first use of the same
 * domain. */
static bool fold__member_of(const char *module, const char *subject) {
  size_t n = strlen(module);
  return strncmp(subject, module, n) == 0 && (subject[n] == '.' || subject[n] == '\0');
}

static void fold__import_members(Fold *fo) {
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    const Finding *imp = &l->items[i];
    if (fo->sites[i].gone || !fo->sites[i].in_import || kb_domain(imp->rule->code) < 2 || !imp->subject) continue;
    for (size_t j = 0; j < l->len; j++) {
      const Finding *use = &l->items[j];
      if (j == i || fo->sites[j].gone || fo->sites[j].in_import || !use->subject || !fold_live(use) ||
          kb_domain(use->rule->code) != kb_domain(imp->rule->code) || !fold__member_of(imp->subject, use->subject))
        continue;
      fold__gone(fo, j, i, NULL);
      break;
    }
  }
}

/* A companion finding ("fold-companion" row) on the range of another
 * finding of another rule in its statement, one inside the other: one
 * item, carried by the other or by what already carries the other (the
 * more severe of the two stays). */
static bool fold__nests(const Finding *a, const Finding *b) {
  return (a->start_byte <= b->start_byte && b->end_byte <= a->end_byte) ||
         (b->start_byte <= a->start_byte && a->end_byte <= b->end_byte);
}

static void fold__companions(Fold *fo) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-companion", fo->ctx->opt->user_entries, fo->ctx->opt->n_user_entries);
  FindingList *l = fo->l;
  for (size_t j = 0; row && row->arg && j < l->len; j++) {
    const Finding *c = &l->items[j];
    if (fo->sites[j].gone || fo->sites[j].stmt == FOLD_NONE || !fold_live(c) || !kb_pattern_match(row->arg, c->rule->code))
      continue;
    for (size_t i = 0; i < l->len; i++) {
      const Finding *o = &l->items[i];
      if (i == j || fo->sites[i].stmt != fo->sites[j].stmt || !fold_live(o) || kb_domain(o->rule->code) < 2 ||
          kb_pattern_match(row->arg, o->rule->code) || !fold__nests(o, c))
        continue;
      /* the other finding may already be a related site of another (the
       * second `autocast(...)` of a dict of them): the companion joins
       * the item that carries it */
      size_t k = fold__carrier(fo, i);
      if (k == j || fo->sites[k].gone || !fold_live(&l->items[k])) continue;
      fold__gone(fo, k, j, NULL);
      break;
    }
  }
}

/* Device-layer findings inside a class's CUDA convenience method (the
 * "device-convenience-method" row's names: `def cuda(self): return
 * self.to("cuda")`, the container twin of Tensor.cuda): NPU code moves the
 * object with `.to(device)`, so the method is no work item; an `npu()` twin
 * is the library's choice. Hints, with that note. */
static void fold__convenience_methods(Fold *fo) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "device-convenience-method", fo->ctx->opt->user_entries,
                                 fo->ctx->opt->n_user_entries);
  const PyFile *py = fo->ctx->py;
  FindingList *l = fo->l;
  for (size_t i = 0; py && row && row->arg && i < l->len; i++) {
    Finding *f = &l->items[i];
    if (fo->sites[i].gone || !fold_live(f) || kb_domain(f->rule->code) != 2) continue;
    const PyFunction *fn = pyfile_function_at(py, f->start_byte);
    if (!fn || !fn->class_name || !kb_pattern_match(row->arg, fn->name)) continue;
    f->severity = SEV_HINT;
    finding_append_note(f, row->msg_en, row->msg_zh);
  }
}

/* A kernel defined inside another kernel's definition (a T.prim_func
 * returned by a @tilelang.jit factory) is part of it. A kernel-rule call
 * inside one (inline PTX) says more than the kernel's own advice: it
 * carries the kernel and the rest. */
static void fold__inner_kernels(Fold *fo) {
  const PyFile *py = fo->ctx->py;
  FindingList *l = fo->l;
  static const char *const kernel_codes = "ASC410|ASC417|ASC421";
  for (size_t i = 0; py && i < l->len; i++) {
    if (fo->sites[i].gone || !kb_pattern_match(kernel_codes, l->items[i].rule->code)) continue;
    const PyFunction *outer = NULL;
    for (size_t k = 0; k < py->functions.len && !outer; k++) {
      const PyFunction *fn = &py->functions.items[k];
      if (fn->start <= l->items[i].start_byte && l->items[i].start_byte < fn->body_start) outer = fn;
    }
    size_t carrier = i;
    for (size_t j = 0; outer && j < l->len && carrier == i; j++) {
      const Finding *in = &l->items[j];
      if (j != i && !fo->sites[j].gone && kb_pattern_match(kernel_codes, in->rule->code) && in->entry &&
          in->entry->match == KB_QUALNAME && in->start_byte >= outer->body_start && in->start_byte < outer->end)
        carrier = j;
    }
    if (carrier != i) fold__gone(fo, carrier, i, NULL);
    for (size_t j = 0; outer && j < l->len; j++) {
      const Finding *in = &l->items[j];
      if (j != i && j != carrier && !fo->sites[j].gone && kb_pattern_match(kernel_codes, in->rule->code) &&
          in->start_byte >= outer->body_start && in->start_byte < outer->end)
        fold__gone(fo, carrier, j, NULL);
    }
  }
}

/* CuTe DSL: the @cute.jit functions of a kernel class (or of a module
 * without classes) are its host side and helpers; they fold into the
 * group's first @cute.kernel, or into the group's first function. */
static void fold__dsl_groups(Fold *fo) {
  const PyFile *py = fo->ctx->py;
  const KbEntry *row = kb_lookup(KB_DECORATOR, "cutlass.cute.jit", fo->ctx->opt->user_entries, fo->ctx->opt->n_user_entries);
  FindingList *l = fo->l;
  for (size_t i = 0; py && row && i < l->len; i++) {
    if (fo->sites[i].gone || l->items[i].entry != row) continue;
    const PyClass *cls = pyfile_class_at(py, l->items[i].start_byte);
    size_t carrier = l->len;
    for (size_t j = i; j < l->len && carrier == l->len; j++)
      if (!fo->sites[j].gone && l->items[j].entry == row && pyfile_class_at(py, l->items[j].start_byte) == cls &&
          strstr(l->items[j].subject, "cute.kernel"))
        carrier = j;
    if (carrier == l->len) carrier = i;
    for (size_t j = i; j < l->len; j++)
      if (j != carrier && !fo->sites[j].gone && l->items[j].entry == row &&
          pyfile_class_at(py, l->items[j].start_byte) == cls)
        fold__gone(fo, carrier, j, NULL);
  }
}

/* Inside a library's own source (the file's first directory is the package
 * the finding names: flash_attn/modules/mha.py importing flash_attn.ops,
 * quack/gemm_base.py importing quack.copy_utils) the library is what is
 * being ported: its kernels and extensions are findings of their own, and
 * its modules calling each other are not dependencies. Dependency,
 * attention-library and kernel-library (ASC1xx, ASC3xx, ASC4xx) findings
 * about the own package are dropped. */
static bool fold__names_package(const char *s, const char *pkg, size_t n) {
  return s && strncmp(s, pkg, n) == 0 && (s[n] == '.' || s[n] == '\0');
}

static void fold__own_package(Fold *fo) {
  const char *path = fo->ctx->path, *slash = path ? strchr(path, '/') : NULL;
  if (!slash || slash == path) return;
  size_t n = (size_t)(slash - path);
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    const Finding *f = &l->items[i];
    int d = kb_domain(f->rule->code);
    if (d != 1 && d != 3 && d != 4) continue;
    const char *wraps = f->message ? strstr(f->message, " wraps ") : NULL;
    if (fold__names_package(f->subject, path, n) || (wraps && fold__names_package(wraps + 7, path, n)))
      fo->sites[i].gone = true;
  }
}

/* The function whose definition (decorators included) starts the finding. */
static const PyFunction *fold__def_at(const PyFile *py, uint32_t at) {
  for (size_t k = 0; py && k < py->functions.len; k++) {
    const PyFunction *fn = &py->functions.items[k];
    if (fn->start <= at && at < fn->body_start) return fn;
  }
  return NULL;
}

static bool fold__word_at(const char *text, size_t len, uint32_t i, size_t n) {
  bool left = i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_' || text[i - 1] == '.');
  return left && i + n < len;
}

/* Whether `name` followed by `next` ("(" a call, "[" a launch) occurs in [from, to). */
static bool fold__name_then(const char *text, size_t len, const char *name, char next, uint32_t from, uint32_t to) {
  size_t n = strlen(name);
  for (uint32_t at = from; at + n < to && at + n < len;) {
    const char *p = memmem(text + at, to - at, name, n);
    if (!p) return false;
    uint32_t i = (uint32_t)(p - text);
    if (fold__word_at(text, len, i, n) && text[i + n] == next) return true;
    at = i + 1;
  }
  return false;
}

/* A @triton.jit function that is never launched (`f[grid](...)`) but called
 * from another kernel of the file is a device helper of that kernel. One
 * no kernel of its file calls and that never asks which program it is (the
 * "triton-device-function" row: no `program_id`) is a device function of
 * kernels elsewhere: it compiles inside them, a hint with the row's note. */
static void fold__triton_helpers(Fold *fo) {
  const PyFile *py = fo->ctx->py;
  FindingList *l = fo->l;
  const KbEntry *device = kb_lookup(KB_DETECTOR, "triton-device-function", NULL, 0);
  for (size_t i = 0; py && i < l->len; i++) {
    if (fo->sites[i].gone || strcmp(l->items[i].rule->code, "ASC410") != 0) continue;
    const PyFunction *fn = fold__def_at(py, l->items[i].start_byte);
    if (!fn || fold__name_then(py->text, py->len, fn->name, '[', 0, (uint32_t)py->len)) continue;
    for (size_t j = 0; j < l->len; j++) {
      if (j == i || fo->sites[j].gone || strcmp(l->items[j].rule->code, "ASC410") != 0) continue;
      const PyFunction *caller = fold__def_at(py, l->items[j].start_byte);
      if (caller && caller != fn && fold__name_then(py->text, py->len, fn->name, '(', caller->body_start, caller->end)) {
        fold__gone(fo, j, i, NULL);
        break;
      }
    }
    Finding *f = &l->items[i];
    /* one that holds findings of its own (inline PTX) stays their item */
    if (fo->sites[i].gone || !device || !device->arg || f->severity == SEV_HINT || f->related.len ||
        util_has_any(py->text + fn->body_start, fn->end - fn->body_start, device->arg))
      continue;
    f->severity = SEV_HINT;
    finding_append_note(f, device->msg_en, device->msg_zh);
  }
}

/* The kernel finding (ASC410/417/421 on a definition) that [from, to)
 * launches (`k[grid](...)`, or `k(...)` for the DSLs), directly or through
 * a module-level function of the file that does (up to `depth` calls
 * deep); l->len when none. */
static size_t fold__launched_kernel(const Fold *fo, uint32_t from, uint32_t to, int depth) {
  const PyFile *py = fo->ctx->py;
  const FindingList *l = fo->l;
  static const char *const kernel_codes = "ASC410|ASC417|ASC421";
  for (size_t k = 0; k < l->len; k++) {
    if (fo->sites[k].gone || !kb_pattern_match(kernel_codes, l->items[k].rule->code)) continue;
    const PyFunction *fn = fold__def_at(py, l->items[k].start_byte);
    bool dsl_call = strcmp(l->items[k].rule->code, "ASC410") != 0;
    if (fn && (fold__name_then(py->text, py->len, fn->name, '[', from, to) ||
               (dsl_call && fold__name_then(py->text, py->len, fn->name, '(', from, to))))
      return k;
  }
  for (size_t f = 0; depth > 0 && f < py->functions.len; f++) {
    const PyFunction *fn = &py->functions.items[f];
    if (fn->class_name || (fn->start < to && fn->end > from)) continue;
    if (!fold__name_then(py->text, py->len, fn->name, '(', from, to)) continue;
    size_t k = fold__launched_kernel(fo, fn->body_start, fn->end, depth - 1);
    if (k < l->len) return k;
  }
  return l->len;
}

/* A custom autograd.Function (ASC411) that launches a kernel of its file is
 * that kernel's wrapper: porting the kernel is the work. */
static void fold__function_wrappers(Fold *fo) {
  const PyFile *py = fo->ctx->py;
  FindingList *l = fo->l;
  for (size_t i = 0; py && i < l->len; i++) {
    if (fo->sites[i].gone || strcmp(l->items[i].rule->code, "ASC411") != 0) continue;
    const PyClass *cls = pyfile_class_at(py, l->items[i].start_byte + 1);
    if (!cls) continue;
    size_t k = fold__launched_kernel(fo, cls->start, cls->end, 2);
    if (k < l->len) fold__gone(fo, k, i, NULL);
  }
}

/* In a test file, what is still reported is about the test harness (the
 * "test-harness-rules" row: GPU skip markers, backend selection): one
 * construct repeated over the file's tests is one change, at its first
 * site, the others related. */
static void fold__test_harness(Fold *fo) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "test-harness-rules", NULL, 0);
  FindingList *l = fo->l;
  if (!row || !context_is_test_path(fo->ctx->path)) return;
  for (size_t i = 0; i < l->len; i++) {
    if (fo->sites[i].gone || !kb_pattern_match(row->arg, l->items[i].rule->code)) continue;
    for (size_t j = i + 1; j < l->len; j++)
      if (!fo->sites[j].gone && fold__same_construct(&l->items[i], &l->items[j]) &&
          strcmp(l->items[i].subject, l->items[j].subject) == 0)
        fold__gone(fo, i, j, NULL);
  }
}

/* A file under a directory or with a name saying it is the NPU version
 * (backends/triton_ascend/, npu/, *_npu.py) is the Ascend port itself:
 * nothing in it is a migration item. Its words are split at '_', '-', '.'. */
static bool fold__npu_word(const char *s, size_t n) {
  return (n == 3 && strncasecmp(s, "npu", 3) == 0) || (n >= 6 && strncasecmp(s, "ascend", 6) == 0);
}

bool fold_npu_path(const char *path) {
  const char *w;
  size_t n;
  for (const char *p = path ? path : ""; util_path_word(&p, &w, &n);)
    if (fold__npu_word(w, n)) return true;
  return false;
}

static char *fold__text(const AnalyzeCtx *ctx, uint32_t s, uint32_t e, size_t max) {
  StrBuf sb;
  sb_init(&sb);
  bool blank = false;
  for (uint32_t i = s; i < e && i < ctx->len; i++) {
    char c = ctx->text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = sb.len > 0;
      continue;
    }
    if (blank) sb_putc(&sb, ' ');
    blank = false;
    sb_putc(&sb, c);
    bool inside = i + 1 < e && i + 1 < ctx->len && ((unsigned char)ctx->text[i + 1] & 0xC0) == 0x80; /* UTF-8 */
    if (sb.len >= max && !inside) {
      sb_puts(&sb, "...");
      break;
    }
  }
  return sb_steal(&sb);
}

/* "case 3" / "default" of a launch inside a switch, or NULL. Caller frees. */
static char *fold__case_label(const AnalyzeCtx *ctx, TSNode c) {
  if (ts_node_is_null(c)) return NULL;
  TSNode v = ts_node_child_by_field_name(c, "value", 5);
  if (ts_node_is_null(v)) return xstrdup("default");
  char *t = fold__text(ctx, ts_node_start_byte(v), ts_node_end_byte(v), 60);
  char *label = xasprintf("case %s", t);
  free(t);
  return label;
}

/* The name of a C function definition (its declarator's declarator). */
static TSNode fold__fn_name(TSNode def) {
  TSNode d = ts_node_child_by_field_name(def, "declarator", 10);
  for (int depth = 0; depth < 8 && !ts_node_is_null(d) && !fold__is(d, "function_declarator"); depth++) {
    TSNode inner = ts_node_child_by_field_name(d, "declarator", 10);
    /* a reference_declarator holds its declarator as a plain child */
    d = ts_node_is_null(inner) && ts_node_named_child_count(d) ? ts_node_named_child(d, ts_node_named_child_count(d) - 1) : inner;
  }
  return ts_node_is_null(d) ? d : ts_node_child_by_field_name(d, "declarator", 10);
}

/* The kernel a launch subject names: "ns::k<T, 3><<<g, b>>>" -> "ns::k". */
static char *fold__kernel_of(const char *subject) {
  size_t n = 0;
  while (subject[n] && subject[n] != '<' && subject[n] != ' ') n++;
  return xstrndup(subject, n);
}

static void fold__add_name(StrList *names, const char *s) {
  for (size_t i = 0; i < names->len; i++)
    if (strcmp(names->items[i], s) == 0) return;
  array_push(names, xstrdup(s));
}

/* The launches of one host function (ASC402): one finding at the switch
 * they share, else at the function's name, listing each launch. */
static void fold__dispatch(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-dispatch", ctx->opt->user_entries, ctx->opt->n_user_entries);
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len && row; i++) {
    FoldSite *si = &fo->sites[i];
    if (si->gone || si->func == FOLD_NONE || strcmp(l->items[i].rule->code, "ASC402") != 0) continue;
    size_t n = 1;
    bool one_switch = !ts_node_is_null(si->sw);
    for (size_t j = i + 1; j < l->len; j++) {
      FoldSite *sj = &fo->sites[j];
      if (sj->gone || sj->func != si->func || strcmp(l->items[j].rule->code, "ASC402") != 0) continue;
      n++;
      one_switch = one_switch && !ts_node_is_null(sj->sw) && ts_node_start_byte(sj->sw) == ts_node_start_byte(si->sw);
    }
    if (n < 2) continue;
    Finding *carrier = &l->items[i];
    StrList kernels = {0};
    Finding site = finding_copy(carrier); /* the carrier's own launch becomes its first related site */
    for (size_t j = i; j < l->len; j++) {
      FoldSite *sj = &fo->sites[j];
      if (sj->gone || sj->func != si->func || strcmp(l->items[j].rule->code, "ASC402") != 0) continue;
      Finding *f = j == i ? &site : &l->items[j];
      char *k = fold__kernel_of(f->subject);
      fold__add_name(&kernels, k);
      free(k);
      char *label = fold__case_label(ctx, sj->case_);
      char *msg = label ? xasprintf("%s: %s", label, f->subject) : xstrdup(f->subject);
      if (j == i) {
        fold__related_first(carrier, f->start_byte, f->end_byte, msg);
      } else {
        fold__gone(fo, i, j, msg);
      }
      free(msg);
      free(label);
    }
    finding_free(&site);
    TSNode at = fold__fn_name(si->fn_def);
    char *fn = ts_node_is_null(at) ? xstrdup("?") : fold__text(ctx, ts_node_start_byte(at), ts_node_end_byte(at), 80);
    char *head = NULL;
    if (one_switch) {
      TSNode cond = ts_node_child_by_field_name(si->sw, "condition", 9);
      uint32_t e = ts_node_is_null(cond) ? ts_node_start_byte(si->sw) + 6 : ts_node_end_byte(cond);
      head = fold__text(ctx, ts_node_start_byte(si->sw), e, 80);
      carrier->start_byte = ts_node_start_byte(si->sw);
      carrier->end_byte = e;
    } else if (!ts_node_is_null(at)) {
      carrier->start_byte = ts_node_start_byte(at);
      carrier->end_byte = ts_node_end_byte(at);
    }
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s()%s%s:", fn, head ? " " : "", head ? head : "");
    for (size_t k = 0; k < kernels.len; k++) sb_printf(&sb, "%s %s", k ? "," : "", kernels.items[k]);
    sb_printf(&sb, " (x%zu)", n);
    carrier->entry = row;
    kb_restate(carrier, sb.data, row->replacement);
    free(carrier->detail);
    carrier->detail = xasprintf("%zu launch sites folded into one dispatch", n);
    sb_free(&sb);
    free(head);
    free(fn);
    strlist_free(&kernels);
  }
}

/* CUDA runtime / library calls (ASC403-405) of one row in one function. */
static void fold__calls(Fold *fo) {
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    FoldSite *si = &fo->sites[i];
    const char *code = l->items[i].rule->code;
    bool call = strcmp(code, "ASC403") == 0 || strcmp(code, "ASC404") == 0 || strcmp(code, "ASC405") == 0;
    if (si->gone || si->func == FOLD_NONE || !call) continue;
    StrList names = {0};
    fold__add_name(&names, l->items[i].subject);
    size_t n = 1;
    for (size_t j = i + 1; j < l->len; j++) {
      if (fo->sites[j].gone || fo->sites[j].func != si->func || !fold__same_construct(&l->items[i], &l->items[j]))
        continue;
      fold__add_name(&names, l->items[j].subject);
      fold__gone(fo, i, j, NULL);
      n++;
    }
    if (n > 1) {
      Finding *c = &l->items[i];
      fold__related_first(c, c->start_byte, c->end_byte, c->message); /* the carrier's own call */
      TSNode at = fold__fn_name(si->fn_def);
      char *fn = ts_node_is_null(at) ? xstrdup("?") : fold__text(fo->ctx, ts_node_start_byte(at), ts_node_end_byte(at), 80);
      StrBuf subj;
      sb_init(&subj);
      for (size_t k = 0; k < names.len && k < 6; k++) sb_printf(&subj, "%s%s", k ? ", " : "", names.items[k]);
      if (names.len > 6) sb_printf(&subj, ", +%zu", names.len - 6);
      sb_printf(&subj, " in %s() (x%zu)", fn, n);
      kb_restate(c, subj.data, NULL);
      sb_free(&subj);
      free(fn);
    }
    strlist_free(&names);
  }
}

/* A launch-configuration call (cudaFuncSetAttribute: the "fold-launch-config"
 * row) belongs to the kernel it configures, like an include. */
static bool fold__launch_config(const AnalyzeOptions *opt, const Finding *f) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-launch-config", opt->user_entries, opt->n_user_entries);
  return row && row->arg && strcmp(f->rule->code, "ASC403") == 0 && f->subject && kb_pattern_match(row->arg, f->subject);
}

static bool fold__internal(const AnalyzeOptions *opt, const Finding *f, bool has_kernels) {
  const char *code = f->rule->code;
  return strcmp(code, "ASC406") == 0 || strcmp(code, "ASC407") == 0 || strcmp(code, "ASC408") == 0 ||
         strcmp(code, "ASC409") == 0 || (has_kernels && strcmp(code, "ASC403") == 0) || fold__launch_config(opt, f);
}

/* Whether `name` occurs as a word in [from, to) of the text. */
static bool fold__has_word(const char *text, size_t len, const char *name, uint32_t from, uint32_t to) {
  size_t n = strlen(name);
  for (uint32_t at = from; n && at + n <= to && at + n <= len;) {
    const char *p = memmem(text + at, to - at, name, n);
    if (!p) return false;
    uint32_t i = (uint32_t)(p - text);
    bool left = i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_');
    bool right = i + n >= len || !(isalnum((unsigned char)text[i + n]) || text[i + n] == '_');
    if (left && right) return true;
    at = i + 1;
  }
  return false;
}

/* A launch (ASC402) of a kernel the file defines (ASC401), by its name or
 * through a pointer the launching function sets from it (`auto kernel_func =
 * attn_kernel<...>; kernel_func<<<...>>>`), is part of that kernel's port:
 * a related site of the kernel finding. */
static void fold__launches(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  FindingList *l = fo->l;
  TSNode *host = fo->host;
  for (size_t i = 0; i < l->len; i++) {
    FoldSite *si = &fo->sites[i];
    if (si->gone || strcmp(l->items[i].rule->code, "ASC402") != 0) continue;
    char *k = fold__kernel_of(l->items[i].subject);
    const char *bare = strrchr(k, ':') ? strrchr(k, ':') + 1 : k;
    uint32_t from = si->func != FOLD_NONE ? ts_node_start_byte(si->fn_def) : 0;
    uint32_t to = si->func != FOLD_NONE ? ts_node_end_byte(si->fn_def) : 0;
    size_t owner = l->len;
    for (size_t j = 0; j < l->len && owner == l->len; j++)
      if (!fo->sites[j].gone && strcmp(l->items[j].rule->code, "ASC401") == 0 && strcmp(l->items[j].subject, bare) == 0)
        owner = j;
    for (size_t j = 0; j < l->len && owner == l->len && to > from; j++)
      if (!fo->sites[j].gone && strcmp(l->items[j].rule->code, "ASC401") == 0 &&
          fold__has_word(ctx->text, ctx->len, l->items[j].subject, from, to))
        owner = j;
    if (owner < l->len) fold__gone(fo, owner, i, NULL);
    if (owner < l->len && ts_node_is_null(host[owner]) && si->func != FOLD_NONE) host[owner] = si->fn_def;
    free(k);
  }
}

/* The kernels of a file that one host function launches (the phases of
 * one op: the labeling passes of a connected-components op) are one item
 * (the "fold-pipeline" row): the first kernel finding carries the others.
 * Kernel variants are one kernel by then (fold__kernel_variants). */
static void fold__pipelines(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const TSNode *host = fo->host;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-pipeline", ctx->opt->user_entries, ctx->opt->n_user_entries);
  FindingList *l = fo->l;
  for (size_t i = 0; row && i < l->len; i++) {
    if (fo->sites[i].gone || ts_node_is_null(host[i])) continue;
    size_t n = 1;
    for (size_t k = i + 1; k < l->len; k++)
      if (!fo->sites[k].gone && !ts_node_is_null(host[k]) && ts_node_eq(host[k], host[i])) {
        l->items[i].weight += l->items[k].weight; /* the effort is every kernel's lines */
        fold__gone(fo, i, k, NULL);
        n++;
      }
    if (n < 2) continue;
    TSNode name = fold__fn_name(host[i]);
    char *fn = ts_node_is_null(name) ? xstrdup("?")
                                     : xstrndup(ctx->text + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
    char count[24];
    snprintf(count, sizeof count, "%zu", n);
    kb_append_note(&l->items[i], row, fn, count);
    free(fn);
  }
}

static const char *fold__base(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* A runtime call of a .cu file that only launches a kernel or reports a
 * status (the "fold-kernel-glue" row: cudaGetErrorString, cudaLaunchKernelEx):
 * the glue of kernels an included header defines, ported with them. */
static bool fold__glue(const char *glue, const Finding *f) {
  return glue && strcmp(f->rule->code, "ASC403") == 0 && f->subject && kb_pattern_match(glue, f->subject);
}

/* Status checks alone in a .cu file that defines and launches no kernel
 * (`cudaGetErrorString(status)` of a launcher an included header defines):
 * ported with the kernels they report on, a hint with the row's note. */
static void fold__glue_hint(Finding *f, const KbEntry *glue_row) {
  f->severity = SEV_HINT;
  kb_append_note(f, glue_row, NULL, NULL);
}

/* The CUDA internals of a C/C++ source: one ASC418 finding at the first,
 * as severe as the most severe of them. In a file that defines kernels a
 * single internal (one header) is a related site of its first kernel
 * finding; elsewhere one internal stays a finding of its own. */
static void fold__internals(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-internals", ctx->opt->user_entries, ctx->opt->n_user_entries);
  const KbRule *rule = row ? context_rule(ctx->opt, row->code) : NULL;
  if (!rule || !context_code_selected(ctx->opt, rule->code)) return;
  FindingList *l = fo->l;
  /* a torch extension's host file (CUDA guards, streams or device checks, not only a header) is
   * ported as a whole: its runtime calls (cudaSetDevice, cudaMemcpyAsync) go with it */
  bool kernels = false, host = false;
  size_t launch = l->len; /* the first launch, in a file that defines no kernel */
  for (size_t i = 0; i < l->len; i++) {
    kernels = kernels || strcmp(l->items[i].rule->code, "ASC401") == 0;
    host = host || (!fo->sites[i].gone && fold__internal(ctx->opt, &l->items[i], false) &&
                    strcmp(l->items[i].rule->code, "ASC406") != 0);
    if (launch == l->len && !fo->sites[i].gone && strcmp(l->items[i].rule->code, "ASC402") == 0) launch = i;
  }
  if (kernels) launch = l->len;
  bool calls = kernels || host;
  const KbEntry *glue_row = kb_lookup(KB_DETECTOR, "fold-kernel-glue", ctx->opt->user_entries, ctx->opt->n_user_entries);
  const char *glue = glue_row && util_ends_with(ctx->path, ".cu") ? glue_row->arg : NULL;
  /* a launcher of kernels defined elsewhere: its setup in the launching function (the device
   * query that sizes the grid, the runtime header) and its status checks are replaced with the
   * launch */
  for (size_t i = 0; launch < l->len && i < l->len; i++) {
    const Finding *f = &l->items[i];
    if (fo->sites[i].gone || i == launch) continue;
    bool setup = fold__internal(ctx->opt, f, true) &&
                 (strcmp(f->rule->code, "ASC406") == 0 || fo->sites[i].func == fo->sites[launch].func);
    if (setup || fold__glue(glue, f)) fold__gone(fo, launch, i, NULL);
  }
#define FOLD__INTERNAL(f) (fold__internal(ctx->opt, (f), calls) || fold__glue(glue, (f)))
  size_t first = l->len, n = 0;
  static const char *const codes[] = {"ASC403", "ASC406", "ASC407", "ASC408", "ASC409"};
  size_t per[5] = {0};
  Severity worst = rule->severity;
  for (size_t i = 0; i < l->len; i++) {
    if (fo->sites[i].gone || !FOLD__INTERNAL(&l->items[i])) continue;
    if (first == l->len) first = i;
    n += 1 + l->items[i].related.len;
    if (l->items[i].severity < worst) worst = l->items[i].severity;
    for (size_t k = 0; k < 5; k++)
      if (strcmp(l->items[i].rule->code, codes[k]) == 0) per[k] += 1 + l->items[i].related.len;
  }
  if (n == 0) return;
  bool glue_only = !kernels && launch == l->len;
  for (size_t i = first; glue_only && i < l->len; i++)
    if (!fo->sites[i].gone && FOLD__INTERNAL(&l->items[i])) glue_only = fold__glue(glue, &l->items[i]);
  if (n < 2 && !kernels) {
    if (glue_only) fold__glue_hint(&l->items[first], glue_row);
    return;
  }
  if (kernels) { /* the internals of a kernel file are sites of its (first) kernel's port, not an item */
    for (size_t k = 0; k < l->len; k++)
      if (!fo->sites[k].gone && strcmp(l->items[k].rule->code, "ASC401") == 0) {
        for (size_t i = first; i < l->len; i++)
          if (!fo->sites[i].gone && FOLD__INTERNAL(&l->items[i])) fold__gone(fo, k, i, NULL);
        return;
      }
  }
  Finding *c = &l->items[first];
  Finding self = finding_copy(c);
  for (size_t i = 0; i < c->related.len; i++) free(c->related.items[i].message);
  c->related.len = 0;
  for (size_t k = 0; k < c->edits.len; k++) free(c->edits.items[k].text);
  c->edits.len = 0;
  c->fix = FIX_NONE;
  finding_add_related(c, self.start_byte, self.end_byte, self.message); /* its own site is the first */
  fold__absorb(c, &self, NULL);
  finding_free(&self);
  for (size_t i = first + 1; i < l->len; i++)
    if (!fo->sites[i].gone && FOLD__INTERNAL(&l->items[i])) fold__gone(fo, first, i, NULL);
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "%s (%zu sites:", fold__base(ctx->path), n);
  for (size_t k = 0, m = 0; k < 5; k++)
    if (per[k]) sb_printf(&sb, "%s %s x%zu", m++ ? "," : "", codes[k], per[k]);
  sb_puts(&sb, ")");
  c->rule = rule;
  c->entry = row;
  c->severity = worst;
  c->confidence = row->confidence;
  kb_restate(c, sb.data, row->replacement);
  free(c->detail);
  c->detail = NULL;
  sb_free(&sb);
  if (glue_only) fold__glue_hint(c, glue_row);
#undef FOLD__INTERNAL
}

/* Whether the guarded import body `src` imports a package with no Ascend
 * build: a finding there says so (a library error, ASC308 "no Ascend
 * build"). */
static bool fold__absent_on_npu(const FindingList *l, const ByteRange *src) {
  for (size_t i = 0; i < l->len; i++)
    if (l->items[i].severity == SEV_ERROR && l->items[i].start_byte >= src->start && l->items[i].start_byte < src->end)
      return true;
  return false;
}

/* After `assert FA3_ENABLED` (a function that requires an optional package:
 * resolver.h, requires) whose import has no Ascend build, the rest of the
 * function never runs on the NPU: an optional baseline. Its findings are
 * hints marked unreachable ("optional-baseline" row). */
static void fold__optional_baseline(const AnalyzeCtx *ctx, FindingList *l) {
  const PyFile *py = ctx->py;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "optional-baseline", ctx->opt->user_entries, ctx->opt->n_user_entries);
  for (size_t i = 0; py && row && i < l->len; i++) {
    Finding *f = &l->items[i];
    if (f->unreachable || f->severity == SEV_HINT || kb_domain(f->rule->code) < 2) continue;
    for (size_t k = 0; k < py->requires.len; k++) {
      const ByteRange *r = &py->requires.items[k], *at = &py->requires_at.items[k];
      if (f->start_byte < r->start || f->start_byte >= r->end || !fold__absent_on_npu(l, &py->requires_src.items[k]))
        continue;
      char *stmt = fold__text(ctx, at->start, at->end, 60);
      fold_mark_unreachable(f, row, stmt);
      free(stmt);
      break;
    }
  }
}

/* A kernel's name with its digits left out: the variants of one kernel
 * written per bit width or tile (VecQuant2MatMulKernel, VecQuant3...,
 * gemm_w4a16_T1 / _T2) share it. Caller frees. */
static char *fold__variant_stem(const char *name) {
  char *s = xstrdup(name ? name : "");
  size_t k = 0;
  for (const char *p = s; *p; p++)
    if (!isdigit((unsigned char)*p)) s[k++] = *p;
  s[k] = '\0';
  return s;
}

/* The kernels of one file that differ only in digits are one family: one
 * port with its variants as parameters, at the first, the others related
 * (with their launches). */
static void fold__kernel_variants(Fold *fo) {
  FindingList *l = fo->l;
  char **stem = xcalloc(l->len + 1, sizeof *stem); /* NULL: no kernel finding */
  for (size_t i = 0; i < l->len; i++)
    if (!fo->sites[i].gone && strcmp(l->items[i].rule->code, "ASC401") == 0) stem[i] = fold__variant_stem(l->items[i].subject);
  for (size_t i = 0; i < l->len; i++)
    for (size_t j = i + 1; stem[i] && !fo->sites[i].gone && j < l->len; j++)
      if (stem[j] && !fo->sites[j].gone && strcmp(l->items[i].subject, l->items[j].subject) != 0 &&
          strcmp(stem[i], stem[j]) == 0)
        fold__gone(fo, i, j, NULL);
  for (size_t i = 0; i < l->len; i++) free(stem[i]);
  free(stem);
}

/* The template a kernel instantiates: the callee of the one statement of its
 * body (`__global__ void TexFwdLinear1(const P p) { TexFwdTemplate<float, 1,
 * MODE_LINEAR>(p); }`), as text without its template arguments; NULL when the
 * body is anything else. Caller frees. */
static char *fold__instantiated(const Fold *fo, size_t i) {
  TSNode def = fo->sites[i].fn_def;
  TSNode body = ts_node_is_null(def) ? def : ts_node_child_by_field_name(def, "body", 4);
  if (ts_node_is_null(body) || ts_node_named_child_count(body) != 1) return NULL;
  TSNode st = ts_node_named_child(body, 0);
  TSNode call = fold__is(st, "expression_statement") && ts_node_named_child_count(st) == 1 ? ts_node_named_child(st, 0) : (TSNode){0};
  if (!fold__is(call, "call_expression")) return NULL;
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  if (fold__is(fn, "template_function")) fn = ts_node_child_by_field_name(fn, "name", 4);
  if (!fold__is(fn, "identifier") && !fold__is(fn, "qualified_identifier")) return NULL;
  const char *text = fo->ctx->text;
  return xstrndup(text + ts_node_start_byte(fn), ts_node_end_byte(fn) - ts_node_start_byte(fn));
}

/* Kernels whose whole body instantiates one template (nvdiffrast's
 * `TextureFwdKernelLinear1` ... `TextureFwdKernelCubeLinearMipmapLinearBO4`,
 * each a one-line call of TextureFwdKernelTemplate<...>) are one kernel to
 * port: the first carries the others (blind review of nvdiffrast). */
static void fold__template_instances(Fold *fo) {
  FindingList *l = fo->l;
  char **tmpl = xcalloc(l->len + 1, sizeof *tmpl);
  for (size_t i = 0; i < l->len; i++)
    if (!fo->sites[i].gone && strcmp(l->items[i].rule->code, "ASC401") == 0) tmpl[i] = fold__instantiated(fo, i);
  for (size_t i = 0; i < l->len; i++)
    for (size_t j = i + 1; tmpl[i] && !fo->sites[i].gone && j < l->len; j++)
      if (tmpl[j] && !fo->sites[j].gone && strcmp(tmpl[i], tmpl[j]) == 0) fold__gone(fo, i, j, NULL);
  for (size_t i = 0; i < l->len; i++) free(tmpl[i]);
  free(tmpl);
}

/* Whether live finding j comes from the row and rule of finding i. */
static bool fold__same_row(const Fold *fo, size_t i, size_t j) {
  const Finding *a = &fo->l->items[i], *b = &fo->l->items[j];
  return !fo->sites[j].gone && b->entry == a->entry && b->rule == a->rule;
}

/* The findings of one dependency family row (the "fold-package-family"
 * row's rules; a glob such as `nvidia-*`, or the names of one library) in
 * one file: one item at the most severe, the other packages its sites,
 * every edit kept. */
static void fold__package_family(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-package-family", ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !row->arg) return;
  FindingList *l = fo->l;
  for (size_t i = 0; i < l->len; i++) {
    const KbEntry *e = l->items[i].entry;
    /* a glob (`nvidia-*`) or alternatives naming one library (`pynvml|nvidia-ml-py`) */
    if (fo->sites[i].gone || !e || e->match != KB_PACKAGE || !strpbrk(e->pattern, "*|") ||
        !kb_pattern_match(row->arg, l->items[i].rule->code))
      continue;
    /* the most severe carries the item (a line in an extra off the NPU path is a hint), the first on a tie */
    size_t n = 0, carrier = i;
    for (size_t j = i + 1; j < l->len; j++)
      if (fold__same_row(fo, i, j) && l->items[j].severity < l->items[carrier].severity) carrier = j;
    for (size_t j = i; j < l->len; j++)
      if (j != carrier && fold__same_row(fo, i, j)) {
        fold__gone(fo, carrier, j, NULL);
        n++;
      }
    if (!n) continue;
    char more[24];
    snprintf(more, sizeof more, "%zu", n);
    kb_append_note(&l->items[carrier], row, l->items[carrier].subject ? l->items[carrier].subject : e->pattern, more);
  }
}

/* A conda environment's CUDA channel beside the CUDA packages it serves
 * (the "fold-cuda-channel" row): one item, at the first such package. */
static void fold__cuda_channel(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-cuda-channel", ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !row->arg || !row->value || ctx->kind != FILE_CONDA_ENV) return;
  FindingList *l = fo->l;
  size_t pkg = SIZE_MAX;
  for (size_t j = 0; j < l->len && pkg == SIZE_MAX; j++)
    if (!fo->sites[j].gone && fold_live(&l->items[j]) && kb_domain(l->items[j].rule->code) == 1 && l->items[j].subject &&
        strcmp(l->items[j].rule->code, row->code) != 0 && kb_pattern_match(row->value, l->items[j].subject))
      pkg = j;
  for (size_t i = 0; pkg != SIZE_MAX && i < l->len; i++)
    if (!fo->sites[i].gone && strcmp(l->items[i].rule->code, row->code) == 0 && l->items[i].subject &&
        kb_pattern_match(row->arg, l->items[i].subject))
      fold__gone(fo, pkg, i, NULL);
}

/* A pin older than the package's first NPU release (ASC108) on the line of
 * the same requirement's replacement finding (the row's `arg`: vllm needs
 * vllm-ascend, and 0.5.3 predates it): one decision, at the replacement,
 * with the pin as its note. */
static void fold__pin_before_npu(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-pin-before-npu", ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !row->arg) return;
  FindingList *l = fo->l;
  for (size_t j = 0; j < l->len; j++) {
    if (fo->sites[j].gone || strcmp(l->items[j].rule->code, row->code) != 0) continue;
    for (size_t i = 0; i < l->len; i++) {
      Finding *f = &l->items[i];
      if (i == j || fo->sites[i].gone || !kb_pattern_match(row->arg, f->rule->code) ||
          f->start_byte != l->items[j].start_byte || f->end_byte != l->items[j].end_byte)
        continue;
      kb_append_note(f, row, l->items[j].subject, l->items[j].replacement);
      fold__gone(fo, i, j, NULL);
      break;
    }
  }
}

/* Findings of the "scalar-branch" row's rules in the branch of a test that
 * only a Python number passes (`if isinstance(timestep, float):`) are hints
 * carrying the test: tensors take the other branch. */
static void fold__scalar_branch(Fold *fo) {
  const AnalyzeCtx *ctx = fo->ctx;
  const KbEntry *row = kb_lookup(KB_DETECTOR, "scalar-branch", ctx->opt->user_entries, ctx->opt->n_user_entries);
  if (!row || !row->arg || !row->value || !ctx->forest || !ctx->text) return;
  for (size_t j = 0; j < fo->l->len; j++) {
    Finding *f = &fo->l->items[j];
    if (fo->sites[j].gone || !fold_live(f) || !kb_pattern_match(row->value, f->rule->code)) continue;
    TSNode block, stmt = fold__branch_of(ctx, f->start_byte, f->end_byte, &block);
    TSNode cond = pysym_child(stmt, PYFIELD_CONDITION);
    if (ts_node_is_null(cond)) continue;
    char test[128];
    size_t n = 0;
    for (uint32_t b = ts_node_start_byte(cond); b < ts_node_end_byte(cond) && n + 1 < sizeof test; b++)
      if (ctx->text[b] != ' ' && ctx->text[b] != '\t' && ctx->text[b] != '\n' && ctx->text[b] != '\r') test[n++] = ctx->text[b];
    test[n] = '\0';
    if (n + 1 >= sizeof test || !kb_pattern_match(row->arg, test)) continue;
    f->severity = SEV_HINT;
    kb_append_note(f, row, test, NULL);
  }
}

void fold_findings(const AnalyzeCtx *ctx, FindingList *l) {
  if (l->len == 0) return;
  Fold fo = {ctx, l, xcalloc(l->len, sizeof(FoldSite)), xcalloc(l->len + 1, sizeof(TSNode))};
  for (size_t i = 0; i < l->len; i++) fo.sites[i] = fold__site(ctx, &l->items[i]);
  if (ctx->kind == FILE_CUDA || ctx->kind == FILE_PYTHON) fold__nested(&fo);
  if (ctx->kind == FILE_CUDA || ctx->kind == FILE_PYTHON) {
    fold__same_range(&fo);
    fold__repeats(&fo);
  }
  if (ctx->kind == FILE_PYTHON && ctx->forest) fold__member_of_result(&fo);
  if (ctx->kind == FILE_PYTHON) {
    fold__device_branch(&fo);
    fold__scalar_branch(&fo);
    fold__same_literal(&fo);
    fold__per_file(&fo);
    fold__build_script(&fo);
    fold__import_uses(&fo);
    fold__convenience_methods(&fo);
    fold__companions(&fo);
    fold__import_fix(&fo);
    fold__import_members(&fo);
    fold__statement(&fo);
    fold__statement_codes(&fo);
    fold__in_function(&fo);
    fold__inner_kernels(&fo);
    fold__dsl_groups(&fo);
    fold__triton_helpers(&fo);
    fold__function_wrappers(&fo);
    fold__own_package(&fo);
    fold__test_harness(&fo);
    fold__engine_file(&fo);
  }
  if (ctx->kind == FILE_CUDA) {
    fold__launches(&fo);
    fold__kernel_variants(&fo);
    fold__template_instances(&fo);
    fold__pipelines(&fo);
    fold__dispatch(&fo);
    fold__calls(&fo);
    fold__internals(&fo);
  }
  if (ctx->kind != FILE_CUDA && ctx->kind != FILE_ELF) fold__package_family(&fo);
  if (ctx->kind != FILE_CUDA && ctx->kind != FILE_ELF) fold__pin_before_npu(&fo);
  fold__cuda_channel(&fo);
  if (fold_npu_path(ctx->path))
    for (size_t i = 0; i < l->len; i++) fo.sites[i].gone = fo.sites[i].gone || kb_domain(l->items[i].rule->code) >= 2;
  bool *drop = xcalloc(l->len + 1, sizeof *drop);
  for (size_t i = 0; i < l->len; i++) drop[i] = fo.sites[i].gone;
  findings_drop(l, drop);
  free(drop);
  free(fo.sites);
  free(fo.host);
  if (ctx->kind == FILE_PYTHON) fold__optional_baseline(ctx, l);
}

/* ---- across the files of a project -------------------------------------------- */

#define FOLD_MAX_READ (8u << 20)

typedef struct {
  FoldFile *files;
  size_t n;
  const AnalyzeOptions *opt;
  char **text;     /* read on demand; NULL: not read yet or unreadable */
  size_t *len;
  bool *tried;
} FoldProject;

static const char *fold__text_of(FoldProject *p, size_t i) {
  if (!p->tried[i]) {
    p->tried[i] = true;
    if (util_read_file(p->files[i].abs, FOLD_MAX_READ, &p->text[i], &p->len[i]) != 0) p->text[i] = NULL;
  }
  return p->text[i];
}

static const char *fold__text_at(void *data, size_t i, size_t *len) {
  FoldProject *p = data;
  const char *t = fold__text_of(p, i);
  *len = t ? p->len[i] : 0;
  return t;
}

bool fold_live(const Finding *f) { return f->severity != SEV_HINT && !f->unreachable; }

void fold_mark_unreachable(Finding *f, const KbEntry *row, const char *subject) {
  f->unreachable = true;
  f->severity = SEV_HINT;
  kb_append_note(f, row, subject, NULL);
}

/* Index of the file whose path is `path`, or SIZE_MAX. */
static size_t fold__file(const FoldProject *p, const char *path) {
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->files[i].path, path) == 0) return i;
  return SIZE_MAX;
}

/* Moves `from` (a finding of file `fp`) into `into` (of another file) as
 * related sites, with their file named (fp NULL: the same file). */
static void fold__absorb_across(Finding *into, const Finding *from, const char *fp) {
  Related r = {.start = from->start_byte, .end = from->end_byte, .message = from->message,
               .start_row = from->start_row, .start_char = from->start_char, .end_row = from->end_row,
               .end_char = from->end_char, .path = (char *)fp, .start_col = from->start_col, .end_col = from->end_col};
  finding_add_related_at(into, &r);
  for (size_t k = 0; k < from->related.len; k++) {
    Related q = from->related.items[k];
    if (!q.path) q.path = (char *)fp;
    finding_add_related_at(into, &q);
  }
  if (from->severity < into->severity) into->severity = from->severity;
}

/* ---- C/C++: the include graph, kernel families, headers ---- */

typedef struct {
  Array(size_t) out; /* files this one includes (project files only) */
  Array(size_t) in;  /* files including this one */
} FoldNode;

/* The file-name extensions of C/C++ headers and of sources. */
static const char *const fold__header_exts[] = {".cuh", ".h", ".hpp", ".hh", ".hxx"};
static const char *const fold__source_exts[] = {".cu", ".cpp", ".cc", ".cxx"};
#define FOLD__COUNT(a) (sizeof(a) / sizeof(a)[0])

static bool fold__ends_with_any(const char *path, const char *const *ext, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (util_ends_with(path, ext[i])) return true;
  return false;
}

bool fold_header_path(const char *path) {
  return fold__ends_with_any(path, fold__header_exts, FOLD__COUNT(fold__header_exts));
}

/* The project file `#include "name"` in file i means: beside it, else the
 * first whose path ends with /name. SIZE_MAX when none. */
static size_t fold__resolve_include(const FoldProject *p, size_t i, const char *name) {
  const char *path = p->files[i].path, *slash = strrchr(path, '/');
  StrBuf sb;
  sb_init(&sb);
  if (slash) sb_printf(&sb, "%.*s/", (int)(slash - path), path);
  /* "../x.h" climbs from the file's directory */
  while (util_starts_with(name, "../")) {
    name += 3;
    if (sb.len > 0) sb.len--;
    while (sb.len > 0 && sb.data[sb.len - 1] != '/') sb.len--;
    sb.data[sb.len] = '\0';
  }
  sb_puts(&sb, name);
  size_t hit = fold__file(p, sb.data);
  sb_free(&sb);
  if (hit != SIZE_MAX) return hit;
  size_t n = strlen(name);
  for (size_t k = 0; k < p->n; k++) {
    const char *q = p->files[k].path;
    size_t m = strlen(q);
    if (k != i && p->files[k].kind == FILE_CUDA && m > n && q[m - n - 1] == '/' && strcmp(q + m - n, name) == 0)
      return k;
  }
  return SIZE_MAX;
}

static void fold__includes(FoldProject *p, size_t i, FoldNode *g) {
  const char *t = fold__text_of(p, i);
  size_t len = p->len[i];
  for (size_t at = 0; t && at < len;) {
    const char *nl = memchr(t + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - t) : len, s = at;
    while (s < end && (t[s] == ' ' || t[s] == '\t')) s++;
    if (s < end && t[s] == '#') {
      s++;
      while (s < end && (t[s] == ' ' || t[s] == '\t')) s++;
      if (end - s > 7 && strncmp(t + s, "include", 7) == 0) {
        const char *q = memchr(t + s + 7, '"', end - s - 7);
        const char *e = q ? memchr(q + 1, '"', (size_t)(t + end - q - 1)) : NULL;
        if (e && e > q + 1) {
          char *name = xstrndup(q + 1, (size_t)(e - q - 1));
          size_t k = fold__resolve_include(p, i, name);
          free(name);
          if (k != SIZE_MAX && k != i) {
            array_push(&g[i].out, k);
            array_push(&g[k].in, i);
          }
        }
      }
    }
    at = end + 1;
  }
}

/* The first live kernel finding (ASC401) of file i, or SIZE_MAX. */
static size_t fold__first_kernel(const FoldProject *p, size_t i) {
  const FindingList *l = p->files[i].findings;
  for (size_t k = 0; k < l->len; k++)
    if (fold_live(&l->items[k]) && strcmp(l->items[k].rule->code, "ASC401") == 0) return k;
  return SIZE_MAX;
}

static bool fold__internal_code(const AnalyzeOptions *opt, const Finding *f) {
  return strcmp(f->rule->code, "ASC418") == 0 || fold__internal(opt, f, true);
}

/* Breadth-first over the include graph from file `from` (forward only, or
 * both ways) to the nearest other file whose kernel finding (a live one
 * when `live`) `match` accepts; returns the file, *kernel its finding. */
typedef bool (*FoldKernelFn)(FoldProject *p, size_t from, size_t file, size_t kernel);

static size_t fold__nearest_kernel(FoldProject *p, const FoldNode *g, size_t from, bool both, bool live,
                                   FoldKernelFn match, size_t *kernel) {
  bool *seen = xcalloc(p->n, sizeof *seen);
  size_t *queue = xmalloc(p->n * sizeof *queue), head = 0, tail = 0, found = SIZE_MAX;
  queue[tail++] = from;
  seen[from] = true;
  while (head < tail && found == SIZE_MAX) {
    size_t f = queue[head++];
    if (f != from) {
      const FindingList *l = p->files[f].findings;
      for (size_t k = 0; k < l->len && found == SIZE_MAX; k++)
        if ((!live || fold_live(&l->items[k])) && strcmp(l->items[k].rule->code, "ASC401") == 0 && match(p, from, f, k)) {
          found = f;
          *kernel = k;
        }
    }
    for (int dir = 0; dir < (both ? 2 : 1); dir++) {
      const size_t *next = dir ? g[f].in.items : g[f].out.items;
      size_t nn = dir ? g[f].in.len : g[f].out.len;
      for (size_t k = 0; k < nn; k++)
        if (!seen[next[k]]) {
          seen[next[k]] = true;
          queue[tail++] = next[k];
        }
    }
  }
  free(seen);
  free(queue);
  return found;
}

/* A kernel whose name the launching file's text uses (`auto f = k<...>;`). */
static bool fold__named_in(FoldProject *p, size_t from, size_t file, size_t kernel) {
  const char *t = fold__text_of(p, from);
  return t && fold__has_word(t, p->len[from], p->files[file].findings->items[kernel].subject, 0, (uint32_t)p->len[from]);
}

static bool fold__any_kernel(FoldProject *p, size_t from, size_t file, size_t kernel) {
  (void)p, (void)from, (void)file, (void)kernel;
  return true;
}

/* Moves the findings of file i that `take` says yes to into kernel finding
 * k of file o. */
static void fold__move(FoldProject *p, size_t i, const bool *take, size_t o, size_t k) {
  FindingList *l = p->files[i].findings;
  for (size_t j = 0; j < l->len; j++)
    if (take[j]) fold__absorb_across(&p->files[o].findings->items[k], &l->items[j], p->files[i].path);
  findings_drop(l, take);
}

/* The launches of a kernel family defined in an included file, with the
 * launching file's internals: sites of that kernel's finding. */
static void fold__families(FoldProject *p, const FoldNode *g) {
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    if (p->files[i].kind != FILE_CUDA || p->files[i].test || fold__first_kernel(p, i) != SIZE_MAX) continue;
    bool launches = false;
    for (size_t j = 0; j < l->len; j++) launches = launches || (fold_live(&l->items[j]) && strcmp(l->items[j].rule->code, "ASC402") == 0);
    if (!launches) continue;
    size_t k = SIZE_MAX, o = fold__nearest_kernel(p, g, i, false, true, fold__named_in, &k);
    if (o == SIZE_MAX) continue;
    bool *take = xcalloc(l->len + 1, sizeof *take);
    for (size_t j = 0; j < l->len; j++)
      take[j] = fold_live(&l->items[j]) && (strcmp(l->items[j].rule->code, "ASC402") == 0 || fold__internal_code(p->opt, &l->items[j]));
    fold__move(p, i, take, o, k);
    free(take);
  }
}

/* A header with no kernel and only internals: sites of the nearest kernel
 * (a live one first; else one only optional or dead code reaches). */
static void fold__headers(FoldProject *p, const FoldNode *g) {
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    if (p->files[i].kind != FILE_CUDA || p->files[i].test || !fold_header_path(p->files[i].path) || l->len == 0) continue;
    bool only = true, any = false;
    for (size_t j = 0; j < l->len && only; j++) {
      if (!fold_live(&l->items[j]) || kb_domain(l->items[j].rule->code) < 2) continue;
      any = true;
      only = fold__internal_code(p->opt, &l->items[j]) || strcmp(l->items[j].rule->code, "ASC403") == 0;
    }
    if (!any || !only) continue;
    size_t k = SIZE_MAX, o = fold__nearest_kernel(p, g, i, true, true, fold__any_kernel, &k);
    /* kernels only optional or dead code reaches: the header is theirs all the same */
    if (o == SIZE_MAX) o = fold__nearest_kernel(p, g, i, true, false, fold__any_kernel, &k);
    if (o == SIZE_MAX) continue;
    bool *take = xcalloc(l->len + 1, sizeof *take);
    for (size_t j = 0; j < l->len; j++) take[j] = fold_live(&l->items[j]) && kb_domain(l->items[j].rule->code) >= 2;
    Finding *kf = &p->files[o].findings->items[k];
    Severity was = kf->severity; /* a kernel that is no item stays none with its header */
    fold__move(p, i, take, o, k);
    if (was == SEV_HINT) kf->severity = SEV_HINT;
    free(take);
  }
}

/* A header without kernels that one source alone includes (a CUTLASS
 * op's batch_gemm_softmax.h beside its .cu): its internals and dispatch
 * are that source's, one op to replace; they become sites of the source's
 * first kernel, internals or launch finding (blind review of ShadowKV). */
static void fold__sole_includer(FoldProject *p, const FoldNode *g) {
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    if (p->files[i].kind != FILE_CUDA || p->files[i].test || !fold_header_path(p->files[i].path) || g[i].in.len != 1 ||
        fold__first_kernel(p, i) != SIZE_MAX)
      continue;
    size_t o = g[i].in.items[0], k = SIZE_MAX;
    const FindingList *ol = p->files[o].findings;
    for (size_t j = 0; j < ol->len && k == SIZE_MAX && !p->files[o].test; j++) {
      const char *code = ol->items[j].rule->code;
      if (fold_live(&ol->items[j]) && (strcmp(code, "ASC401") == 0 || strcmp(code, "ASC418") == 0 || strcmp(code, "ASC402") == 0))
        k = j;
    }
    if (k == SIZE_MAX) continue;
    bool *take = xcalloc(l->len + 1, sizeof *take), any = false;
    for (size_t j = 0; j < l->len; j++) {
      const Finding *f = &l->items[j];
      take[j] = fold_live(f) && kb_domain(f->rule->code) >= 2 &&
                (fold__internal_code(p->opt, f) || strcmp(f->rule->code, "ASC402") == 0 || strcmp(f->rule->code, "ASC403") == 0);
      any = any || take[j];
    }
    if (any) fold__move(p, i, take, o, k);
    free(take);
  }
}

/* A C++ source (not .cu) without kernels whose only findings are internals
 * (a binding's `#include <cuda_fp16.h>`, its device checks) beside the one source of its folder
 * whose kernels are findings: one extension to port, its sites related
 * locations of that source's first kernel (blind review of SageAttention:
 * the fused extension's pybind.cpp). */
static void fold__internals_beside_kernels(FoldProject *p) {
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    /* a .cu without kernels is host code of an op of its own (a header's template) */
    if (p->files[i].kind != FILE_CUDA || p->files[i].test || fold_header_path(p->files[i].path) || l->len == 0 ||
        util_ends_with(p->files[i].path, ".cu") || fold__first_kernel(p, i) != SIZE_MAX)
      continue;
    bool only = true, any = false;
    for (size_t j = 0; j < l->len && only; j++) {
      if (!fold_live(&l->items[j]) || kb_domain(l->items[j].rule->code) < 2) continue;
      any = true;
      only = fold__internal_code(p->opt, &l->items[j]);
    }
    if (!any || !only) continue;
    const char *slash = strrchr(p->files[i].path, '/');
    size_t dir = slash ? (size_t)(slash - p->files[i].path) + 1 : 0;
    /* the one source of the folder with kernels: with several, which one
     * the file is built with is the build's to say (RWKV-LM's wkv_op.cpp
     * and wkv_op_v2.cpp beside wkv_cuda.cu and wkv_cuda_v2.cu) */
    size_t o = SIZE_MAX, k = SIZE_MAX, found = 0;
    for (size_t f = 0; f < p->n && found < 2; f++) {
      const char *path = p->files[f].path;
      if (f == i || p->files[f].kind != FILE_CUDA || p->files[f].test || strncmp(path, p->files[i].path, dir) != 0 ||
          strchr(path + dir, '/'))
        continue;
      size_t first = fold__first_kernel(p, f);
      if (first == SIZE_MAX) continue;
      found++;
      o = f;
      k = first;
    }
    if (found != 1) continue;
    bool *take = xcalloc(l->len + 1, sizeof *take);
    for (size_t j = 0; j < l->len; j++) take[j] = fold_live(&l->items[j]) && kb_domain(l->items[j].rule->code) >= 2;
    fold__move(p, i, take, o, k);
    free(take);
  }
}

/* ---- packages registered for CUDA devices only ---- */

/* Whether text holds `<keyword>=(` / `[` with string items that are all
 * device words of the row, at least one; `said` gets the spelling. */
static bool fold__cuda_only_registration(const char *t, size_t len, const KbEntry *row, char **said) {
  for (size_t at = 0; at < len; at++) {
    if (!(isalpha((unsigned char)t[at]) || t[at] == '_') || (at > 0 && (isalnum((unsigned char)t[at - 1]) || t[at - 1] == '_')))
      continue;
    size_t e = at;
    while (e < len && (isalnum((unsigned char)t[e]) || t[e] == '_')) e++;
    char *word = xstrndup(t + at, e - at);
    bool kw = kb_pattern_match(row->arg, word);
    free(word);
    size_t s = e;
    while (s < len && t[s] == ' ') s++;
    if (!kw || s >= len || t[s] != '=' || s + 1 >= len || t[s + 1] == '=') {
      at = e;
      continue;
    }
    s++;
    while (s < len && t[s] == ' ') s++;
    if (s >= len || (t[s] != '(' && t[s] != '[')) {
      at = e;
      continue;
    }
    char close = t[s] == '(' ? ')' : ']';
    size_t q = s + 1, items = 0;
    bool ok = true;
    while (q < len && ok && t[q] != close) {
      if (t[q] == ' ' || t[q] == ',' || t[q] == '\n') {
        q++;
        continue;
      }
      if (t[q] != '"' && t[q] != '\'') {
        ok = false;
        break;
      }
      const char *end = memchr(t + q + 1, t[q], len - q - 1);
      if (!end) {
        ok = false;
        break;
      }
      char *dev = xstrndup(t + q + 1, (size_t)(end - t - q - 1));
      ok = kb_pattern_match(row->value, dev);
      free(dev);
      items++;
      q = (size_t)(end - t) + 1;
    }
    if (ok && items > 0 && q < len) {
      *said = xstrndup(t + at, q + 1 - at);
      return true;
    }
    at = e;
  }
  return false;
}

/* Marks the live findings (domains 2-9) of file i unreachable, with `why`. */
void fold_mark_file_unreachable(FindingList *l, const KbEntry *row, const char *subject) {
  for (size_t j = 0; j < l->len; j++)
    if (fold_live(&l->items[j]) && kb_domain(l->items[j].rule->code) >= 2) fold_mark_unreachable(&l->items[j], row, subject);
}

static void fold__mark_unreachable(FoldProject *p, size_t i, const KbEntry *row, const char *why) {
  fold_mark_file_unreachable(p->files[i].findings, row, why);
}

static bool fold__under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  return n == 0 || (strncmp(path, dir, n) == 0 && path[n] == '/');
}

/* Whether `text` imports dotted module `mod` or one below it
 * (`import mod.x`, `from mod.x import y`). */
static bool fold__imports(const char *t, size_t len, const char *mod) {
  size_t n = strlen(mod);
  for (const char *s = t; t && (s = memmem(s, len - (size_t)(s - t), mod, n)) != NULL; s++) {
    size_t i = (size_t)(s - t);
    char after = i + n < len ? t[i + n] : '\n';
    if (after != '.' && after != ' ' && after != '\n' && after != '\r' && after != ',') continue;
    size_t b = i;
    while (b > 0 && t[b - 1] == ' ') b--;
    if ((b >= 6 && strncmp(t + b - 6, "import", 6) == 0) || (b >= 4 && strncmp(t + b - 4, "from", 4) == 0)) return true;
  }
  return false;
}

/* The dotted names a package directory may be imported by: its path's
 * suffixes of two parts or more ("src/pkg/ops/cute" -> "pkg.ops.cute",
 * "ops.cute"; "src.pkg.ops.cute"). */
static void fold__dotted(const char *dir, StrList *out) {
  char *d = xstrdup(dir);
  for (char *c = d; *c; c++)
    if (*c == '/') *c = '.';
  for (const char *s = d; s;) {
    if (strchr(s, '.')) array_push(out, xstrdup(s));
    const char *dot = strchr(s, '.');
    s = dot ? dot + 1 : NULL;
  }
  free(d);
}

/* Whether the test file i uses a CUDA-only package: a module-level import
 * of it, or an importorskip of a CUDA-only library ("cuda-engine-file"). */
static bool fold__test_needs(FoldProject *p, size_t i, const StrList *mods) {
  const char *t = fold__text_of(p, i);
  if (!t) return false;
  for (size_t m = 0; m < mods->len; m++)
    if (fold__imports(t, p->len[i], mods->items[m])) return true;
  const KbEntry *eng = kb_lookup(KB_DETECTOR, "cuda-engine-file", p->opt->user_entries, p->opt->n_user_entries);
  static const char skip[] = "importorskip(";
  for (const char *s = t; eng && (s = memmem(s, p->len[i] - (size_t)(s - t), skip, sizeof skip - 1)) != NULL; s++) {
    const char *q = s + sizeof skip - 1;
    if (q >= t + p->len[i] || (*q != '"' && *q != '\'')) continue;
    const char *e = memchr(q + 1, *q, (size_t)(t + p->len[i] - q - 1));
    if (!e) continue;
    char *name = xstrndup(q + 1, (size_t)(e - q - 1));
    bool cuda = kb_pattern_match(eng->arg, name);
    free(name);
    if (cuda) return true;
  }
  return false;
}

static void fold__cuda_only_packages(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cuda-only-registration", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg || !row->value) return;
  StrList dirs = {0}, mods = {0};
  for (size_t i = 0; i < p->n; i++) {
    const char *path = p->files[i].path, *slash = strrchr(path, '/');
    if (p->files[i].kind != FILE_PYTHON || p->files[i].test || strcmp(slash ? slash + 1 : path, "__init__.py") != 0) continue;
    const char *t = fold__text_of(p, i);
    char *said = NULL;
    if (!t || !fold__cuda_only_registration(t, p->len[i], row, &said)) continue;
    char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
    char *why = xasprintf("%s registers it for %s only", path, said);
    for (size_t k = 0; k < p->n; k++)
      if (fold__under(p->files[k].path, dir)) fold__mark_unreachable(p, k, row, why);
    /* a project package only this one loads (a separate CUDA wheel) */
    const PyFacts *pf = p->files[i].facts ? p->files[i].facts->py : NULL;
    for (size_t d = 0; pf && d < pf->dynamic_imports.len; d++) {
      char *top = xstrndup(pf->dynamic_imports.items[d], strcspn(pf->dynamic_imports.items[d], "."));
      bool only = true; /* no other code outside tests imports it */
      for (size_t k = 0; k < p->n && only; k++) {
        const FileFacts *ff = p->files[k].facts;
        if (p->files[k].test || fold__under(p->files[k].path, dir) || !ff || util_starts_with(p->files[k].path, top)) continue;
        for (size_t m = 0; m < ff->imports.len && only; m++)
          only = !(util_starts_with(ff->imports.items[m], top) &&
                   (ff->imports.items[m][strlen(top)] == '\0' || ff->imports.items[m][strlen(top)] == '.'));
      }
      for (size_t k = 0; k < p->n && only; k++) {
        const char *q = p->files[k].path;
        bool at_top = util_starts_with(q, top) && q[strlen(top)] == '/';
        if (at_top && !fold__under(q, dir)) {
          char *w2 = xasprintf("only %s (registered for %s) loads it", path, said);
          fold__mark_unreachable(p, k, row, w2);
          free(w2);
        }
      }
      free(top);
    }
    fold__dotted(dir, &mods);
    array_push(&dirs, dir);
    free(why);
    free(said);
  }
  for (size_t i = 0; i < p->n; i++) {
    if (!p->files[i].test || p->files[i].kind != FILE_PYTHON || p->files[i].findings->len == 0) continue;
    if (fold__test_needs(p, i, &mods)) fold__mark_unreachable(p, i, row, "this test needs one (it imports it or a CUDA-only library)");
  }
  strlist_free(&dirs);
  strlist_free(&mods);
}

/* ---- per-device backend folders ---- */

/* The folders directly under `parent` that files sit in, matching `pattern`,
 * comma-separated into *names; returns how many. */
static size_t fold__device_siblings(const FoldProject *p, const char *parent, const char *pattern, StrBuf *names) {
  StrList seen = {0};
  size_t n = strlen(parent);
  for (size_t k = 0; k < p->n; k++) {
    const char *q = p->files[k].path;
    if (strncmp(q, parent, n) != 0 || q[n] != '/') continue;
    const char *c = q + n + 1, *slash = strchr(c, '/');
    if (!slash) continue;
    char *dir = xstrndup(c, (size_t)(slash - c));
    bool dup = false;
    for (size_t i = 0; i < seen.len && !dup; i++) dup = strcmp(seen.items[i], dir) == 0;
    if (dup || !kb_pattern_match(pattern, dir)) {
      free(dir);
      continue;
    }
    sb_printf(names, "%s%s", seen.len ? ", " : "", dir);
    array_push(&seen, dir);
  }
  size_t count = seen.len;
  strlist_free(&seen);
  return count;
}

/* A CUDA folder among per-device backend folders (`backends/cuda/` beside
 * `cpu/`, `default/`, `xpu/`: the "device-backends" row): the NPU selects
 * another backend, so its findings are unreachable hints; the port is an
 * NPU backend beside them. */
/* The CUDA folder `backend` (path[0, end)) under `parent`, looked at once
 * per parent (`done`): with two backend folders beside it, its files'
 * findings are unreachable. */
static void fold__device_backend(FoldProject *p, const KbEntry *row, const char *path, size_t end, char *parent,
                                 StrList *done) {
  for (size_t d = 0; d < done->len; d++)
    if (strcmp(done->items[d], parent) == 0) {
      free(parent);
      return;
    }
  array_push(done, parent);
  StrBuf names;
  sb_init(&names);
  if (fold__device_siblings(p, parent, row->arg, &names) >= 2) {
    char *backend = xstrndup(path, end);
    char *why = xasprintf("%s is the CUDA backend beside %s", backend, names.data);
    for (size_t k = 0; k < p->n; k++)
      if (fold__under(p->files[k].path, backend)) fold__mark_unreachable(p, k, row, why);
    free(why);
    free(backend);
  }
  sb_free(&names);
}

static void fold__device_backends(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "device-backends", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg || !row->value) return;
  StrList done = {0};
  for (size_t i = 0; i < p->n; i++) {
    const char *path = p->files[i].path;
    for (const char *c = path, *slash; (slash = strchr(c, '/')) != NULL; c = slash + 1) {
      char *dir = xstrndup(c, (size_t)(slash - c));
      bool cuda = c > path && kb_pattern_match(row->value, dir);
      free(dir);
      if (cuda) fold__device_backend(p, row, path, (size_t)(slash - path), xstrndup(path, (size_t)(c - path - 1)), &done);
    }
  }
  strlist_free(&done);
}

/* ---- the project's own packages ---- */

/* The top-level package a project path's `__init__.py` makes ("xfuser" of
 * "xfuser/__init__.py" or "src/xfuser/__init__.py"), as [*pkg, +n); false
 * for any other path. */
static bool fold__top_package(const char *rel, const char **pkg, size_t *n) {
  if (util_starts_with(rel, "src/")) rel += 4;
  const char *slash = strchr(rel, '/');
  if (!slash || slash == rel || strcmp(slash, "/__init__.py") != 0) return false;
  *pkg = rel;
  *n = (size_t)(slash - rel);
  return true;
}

/* Findings of the "fold-own-package" row's rules (attention, distributed,
 * kernel libraries) that name one of the project's own top-level packages
 * (a sequence-parallel library's own modules importing each other, its
 * examples importing it) are about the code being ported, not a
 * dependency: dropped. */
static void fold__own_packages(FoldProject *p) {
  Array(const char *) pkgs = {0};
  Array(size_t) lens = {0};
  for (size_t i = 0; i < p->n; i++) {
    const char *pkg;
    size_t n;
    if (fold__top_package(p->files[i].rel ? p->files[i].rel : p->files[i].path, &pkg, &n)) {
      array_push(&pkgs, pkg);
      array_push(&lens, n);
    }
  }
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-own-package", p->opt->user_entries, p->opt->n_user_entries);
  for (size_t i = 0; row && row->arg && pkgs.len && i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    bool *drop = NULL;
    for (size_t j = 0; j < l->len; j++) {
      const Finding *f = &l->items[j];
      if (!kb_pattern_match(row->arg, f->rule->code) || !f->subject) continue;
      for (size_t k = 0; k < pkgs.len; k++)
        if (fold__names_package(f->subject, pkgs.items[k], lens.items[k])) {
          if (!drop) drop = xcalloc(l->len + 1, sizeof *drop);
          drop[j] = true;
        }
    }
    if (drop) findings_drop(l, drop);
    free(drop);
  }
  array_free(&pkgs);
  array_free(&lens);
}

/* ---- a sub-project's CUDA extension and its users ---- */

/* A related site of text [start, end) of file `i` (rows and columns from the text). */
static Related fold__site_in(FoldProject *p, size_t i, uint32_t start, uint32_t end, const char *message) {
  const char *t = p->text[i];
  uint32_t row = 0, line = 0, chars = 0;
  for (uint32_t k = 0; k < start; k++)
    if (t[k] == '\n') {
      row++;
      line = k + 1;
    }
  for (uint32_t k = line; k < start; k++) chars += ((unsigned char)t[k] & 0xC0) != 0x80;
  uint32_t n = 0;
  for (uint32_t k = start; k < end; k++) n += ((unsigned char)t[k] & 0xC0) != 0x80;
  Related r = {.start = start, .end = end, .message = (char *)message, .start_row = row, .start_char = chars,
               .end_row = row, .end_char = chars + n, .path = (char *)p->files[i].path, .start_col = start - line,
               .end_col = end - line};
  return r;
}

typedef StrList FoldNames;

/* The module named by the call at `q` (just past its '('): its first
 * argument or `name=`, a string literal. */
static void fold__extension_named(const char *q, FoldNames *out) {
  while (*q == ' ' || *q == '\n' || *q == '\t') q++;
  if (strncmp(q, "name", 4) == 0) {
    q += 4;
    while (*q == ' ' || *q == '=') q++;
  }
  if (*q != '"' && *q != '\'') return;
  const char *e = strchr(q + 1, *q);
  if (e && e > q + 1 && (size_t)(e - q) < 128) array_push(out, xstrndup(q + 1, (size_t)(e - q - 1)));
}

static bool fold__ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The calls of constructor `ctor` in t (a qualified `cpp_extension.CUDAExtension(` too). */
static void fold__constructor_calls(const char *t, const char *ctor, size_t n, FoldNames *out) {
  for (const char *at = t; (at = strstr(at, ctor)) != NULL; at += n) {
    if ((at > t && fold__ident_char(at[-1])) || at[n] != '(') continue;
    fold__extension_named(at + n + 1, out);
  }
}

/* The names assigned constructor `ctor` at the start of a line (`extension = CUDAExtension`). */
static void fold__constructor_aliases(const char *t, const char *ctor, size_t n, FoldNames *out) {
  for (const char *at = t; (at = strstr(at, ctor)) != NULL; at += n) {
    if ((at > t && fold__ident_char(at[-1])) || fold__ident_char(at[n])) continue;
    const char *e = at;
    while (e > t && e[-1] == ' ') e--;
    if (e == t || e[-1] != '=' || (e - 1 > t && strchr("=!<>", e[-2]))) continue;
    e--;
    while (e > t && e[-1] == ' ') e--;
    const char *s = e;
    while (s > t && fold__ident_char(s[-1])) s--;
    const char *b = s;
    while (b > t && (b[-1] == ' ' || b[-1] == '\t')) b--;
    if (s < e && (b == t || b[-1] == '\n')) array_push(out, xstrndup(s, (size_t)(e - s)));
  }
}

/* The modules a build script makes: each call of an extension constructor
 * (the "extension-constructors" template) or of a name assigned one. */
static void fold__extension_modules(const char *t, FoldNames *out) {
  const char *ctors = kb_template("extension-constructors");
  if (!ctors) return;
  FoldNames calls = {0};
  const char *w;
  size_t n;
  for (const char *c = ctors; util_alt_next(&c, &w, &n);) array_push(&calls, xstrndup(w, n));
  size_t own = calls.len;
  for (size_t i = 0; i < own; i++) fold__constructor_aliases(t, calls.items[i], strlen(calls.items[i]), &calls);
  for (size_t i = 0; i < calls.len; i++) fold__constructor_calls(t, calls.items[i], strlen(calls.items[i]), out);
  strlist_free(&calls);
}

/* The names a setup.py builds: each `CUDAExtension("name", ...)` module and
 * each package folder beside it (a folder with __init__.py). Caller frees. */
static void fold__built_names(FoldProject *p, size_t s, const char *dir, size_t dn, FoldNames *out) {
  fold__extension_modules(fold__text_of(p, s), out);
  for (size_t i = 0; i < p->n; i++) {
    const char *rel = p->files[i].rel ? p->files[i].rel : p->files[i].path;
    if (strncmp(rel, dir, dn) != 0 || rel[dn] != '/') continue;
    const char *pkg = rel + dn + 1, *slash = strchr(pkg, '/');
    if (slash && strcmp(slash, "/__init__.py") == 0) array_push(out, xstrndup(pkg, (size_t)(slash - pkg)));
  }
}

/* Whether module path `mod` is one of `names` or inside one ("rast" or "rast.render" for "rast"). */
static bool fold__names_module(char **names, size_t nn, const char *mod) {
  for (size_t k = 0; k < nn; k++) {
    size_t n = strlen(names[k]);
    if (strncmp(mod, names[k], n) == 0 && (mod[n] == '\0' || mod[n] == '.')) return true;
  }
  return false;
}

/* Whether a file's facts say it may import one of `names` (no facts: it may),
 * so that only those files are read for the import sites. */
static bool fold__may_import(const FoldFile *f, char **names, size_t nn) {
  const PyFacts *py = f->facts ? f->facts->py : NULL;
  if (!py) return true;
  for (size_t k = 0; k < py->imports.len; k++)
    if (fold__names_module(names, nn, py->imports.items[k].module)) return true;
  for (size_t k = 0; k < py->dynamic_imports.len; k++)
    if (fold__names_module(names, nn, py->dynamic_imports.items[k])) return true;
  return false;
}

/* Where file `i` imports one of `names` (`import x`, `import x as y`, `from x import ...`,
 * `from x.y import ...`): one related site each, at most `room`. */
static void fold__import_sites(FoldProject *p, size_t i, char **names, size_t nn, Finding *f, size_t room) {
  const char *t = fold__text_of(p, i);
  for (const char *ln = t; ln && *ln && room; ln = strchr(ln, '\n') ? strchr(ln, '\n') + 1 : NULL) {
    const char *q = ln;
    while (*q == ' ' || *q == '\t') q++;
    size_t kw = strncmp(q, "import ", 7) == 0 ? 7 : strncmp(q, "from ", 5) == 0 ? 5 : 0;
    if (!kw) continue;
    const char *m = q + kw;
    while (*m == ' ') m++;
    for (size_t k = 0; k < nn; k++) {
      size_t n = strlen(names[k]);
      if (strncmp(m, names[k], n) != 0 || !(m[n] == ' ' || m[n] == '.' || m[n] == '\n' || m[n] == '\r' || m[n] == ','))
        continue;
      char *msg = xasprintf("%.*s, which this build makes, is imported here", (int)n, names[k]);
      Related r = fold__site_in(p, i, (uint32_t)(m - t), (uint32_t)(m - t + n), msg);
      finding_add_related_at(f, &r);
      free(msg);
      room--;
      break;
    }
  }
}

/* A setup.py in a sub-folder that builds a CUDA extension (its ASC412) is a
 * component the project installs on its own (a rasterizer, a kernel
 * package): the project files that import what it builds are where the
 * extension is used, and a port replaces or rebuilds it there. They are
 * related sites of the build finding (at most FOLD__MAX_USERS). */
#define FOLD__MAX_USERS 24
static void fold__extension_users(FoldProject *p) {
  for (size_t s = 0; s < p->n; s++) {
    const char *rel = p->files[s].rel ? p->files[s].rel : p->files[s].path;
    const char *slash = strrchr(rel, '/');
    if (!slash || strcmp(slash + 1, "setup.py") != 0 || p->files[s].test) continue;
    Finding *build = NULL;
    FindingList *l = p->files[s].findings;
    for (size_t j = 0; j < l->len && !build; j++)
      if (fold_live(&l->items[j]) && strcmp(l->items[j].rule->code, "ASC412") == 0) build = &l->items[j];
    if (!build) continue;
    FoldNames names = {0};
    fold__built_names(p, s, rel, (size_t)(slash - rel), &names);
    for (size_t i = 0; names.len && i < p->n && build->related.len < FOLD__MAX_USERS; i++)
      if (i != s && p->files[i].kind == FILE_PYTHON && !p->files[i].test && fold__may_import(&p->files[i], names.items, names.len))
        fold__import_sites(p, i, names.items, names.len, build, FOLD__MAX_USERS - build->related.len);
    strlist_free(&names);
  }
}

/* ---- one construct across the project ---- */

typedef struct {
  const char *code, *subject; /* subject: its text, or "" when uses group by folder */
  size_t file, idx;
  const char *dir;            /* the file's folder, dir_len bytes of its path ("" with 0: by subject) */
  size_t dir_len;
  bool module;                /* by folder: its file is no script (no `__main__` block), so a script's
                                 use carries the group: the group runs when any of its scripts does */
} FoldUse;

static int fold__use_dir_cmp(const FoldUse *x, const FoldUse *y) {
  size_t n = x->dir_len < y->dir_len ? x->dir_len : y->dir_len;
  int c = memcmp(x->dir, y->dir, n);
  return c ? c : (x->dir_len > y->dir_len) - (x->dir_len < y->dir_len);
}

static bool fold__use_same(const FoldUse *x, const FoldUse *y) {
  return strcmp(x->code, y->code) == 0 && strcmp(x->subject, y->subject) == 0 && fold__use_dir_cmp(x, y) == 0;
}

/* By construct, then scripts first (by folder), then file order, then
 * place in the file. */
static int fold__use_cmp(const void *a, const void *b) {
  const FoldUse *x = a, *y = b;
  int c = strcmp(x->code, y->code);
  if (!c) c = strcmp(x->subject, y->subject);
  if (!c) c = fold__use_dir_cmp(x, y);
  if (!c) c = (int)x->module - (int)y->module;
  if (!c) c = (x->file > y->file) - (x->file < y->file);
  return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Whether a Python file has a `__main__` block (the facts say). */
static bool fold__script(const FoldFile *f) {
  return f->facts && f->facts->py && f->facts->py->has_main;
}

/* A folder's uses are one group with those of its subfolders: the group
 * is the outermost folder below the project's root named as a deployment
 * (`deploy`: the "fold-deployment-folder" row's globs; F5-TTS's
 * `runtime/triton_trtllm/`, whose uses sit only in its model repository,
 * patch and scripts subfolders), else the outermost one holding a use (a
 * TensorRT workflow's runner at its top, its model repository and
 * conversion scripts below). */
static void fold__widen_folders(FoldUse *uses, size_t n, const char *deploy) {
  char name[256];
  for (size_t i = 0; deploy && i < n; i++) {
    FoldUse *u = &uses[i];
    for (size_t s = 0, e; s < u->dir_len; s = e + 1) {
      for (e = s; e < u->dir_len && u->dir[e] != '/'; e++) continue;
      if (e - s >= sizeof name) continue;
      memcpy(name, u->dir + s, e - s);
      name[e - s] = '\0';
      if (!kb_pattern_match(deploy, name)) continue;
      u->dir_len = e;
      break;
    }
  }
  for (size_t i = 0; i < n; i++) {
    FoldUse *u = &uses[i];
    for (size_t k = 0; k < n; k++) {
      const FoldUse *o = &uses[k];
      if (o->dir_len && o->dir_len < u->dir_len && memcmp(o->dir, u->dir, o->dir_len) == 0 && u->dir[o->dir_len] == '/')
        u->dir_len = o->dir_len; /* the same prefix of another path: the bytes agree */
    }
  }
}

/* The "fold-deployment-folder" row: a group's folder named as a deployment
 * of the runtime its item replaces (`runtime/triton_trtllm/`: a TensorRT-LLM
 * serving recipe) goes with it as a whole, so every other live finding in
 * the folder is a site of that item (blind review of CosyVoice: 26 of 41
 * not-real findings were such sites). Marks what it takes in `take`. */
static void fold__deployment_folder(FoldProject *p, const KbEntry *row, Finding *into, const FoldUse *first,
                                    bool **take) {
  size_t base = first->dir_len;
  while (base > 0 && first->dir[base - 1] != '/') base--;
  char *name = xstrndup(first->dir + base, first->dir_len - base);
  bool deployment = first->dir_len && kb_pattern_match(row->arg, name);
  free(name);
  if (!deployment) return;
  char *folder = xstrndup(first->dir, first->dir_len);
  size_t taken = 0;
  for (size_t i = 0; i < p->n; i++) {
    const char *path = p->files[i].path;
    if (strncmp(path, folder, first->dir_len) != 0 || path[first->dir_len] != '/') continue;
    FindingList *l = p->files[i].findings;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (f == into || !fold_live(f) || (take[i] && take[i][j])) continue;
      fold__absorb_across(into, f, i == first->file ? NULL : path);
      if (!take[i]) take[i] = xcalloc(l->len + 1, sizeof **take);
      take[i][j] = true;
      taken++;
    }
  }
  if (taken) {
    char count[24];
    snprintf(count, sizeof count, "%zu", taken);
    kb_append_note(into, row, folder, count);
  }
  free(folder);
}

/* Rules whose construct is one work item wherever it is used (the
 * "fold-per-project" row: a custom op gets its NPU implementation once,
 * however many places call it; the "fold-test-suite" row, in test code
 * only: the suite's backend selection is changed once, in its conftest or
 * helper), or, `by_folder`, whose uses in one folder and its subfolders are
 * one work item whatever they name (the "fold-per-folder" row: the scripts
 * of one TensorRT workflow are replaced together, and with a deployment
 * folder everything in it): the first live finding of a group, in file
 * order, takes every other one as a related site. */
static void fold__per_project(FoldProject *p, const char *name, bool tests, bool by_folder) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, name, p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg) return;
  const KbEntry *deploy = by_folder ? kb_lookup(KB_DETECTOR, "fold-deployment-folder", p->opt->user_entries,
                                                p->opt->n_user_entries)
                                    : NULL;
  if (deploy && !deploy->arg) deploy = NULL;
  Array(FoldUse) uses = {0};
  for (size_t i = 0; i < p->n; i++) {
    const FindingList *l = p->files[i].findings;
    const char *slash = strrchr(p->files[i].path, '/');
    size_t dn = by_folder && slash ? (size_t)(slash - p->files[i].path) : 0;
    for (size_t j = 0; p->files[i].test == tests && j < l->len; j++) {
      const Finding *f = &l->items[j];
      if (fold_live(f) && f->subject && kb_pattern_match(row->arg, f->rule->code))
        array_push(&uses, ((FoldUse){f->rule->code, by_folder ? "" : f->subject, i, j, p->files[i].path, dn,
                                     by_folder && !fold__script(&p->files[i])}));
    }
  }
  if (by_folder) fold__widen_folders(uses.items, uses.len, deploy ? deploy->arg : NULL);
  if (uses.len > 1) qsort(uses.items, uses.len, sizeof *uses.items, fold__use_cmp);
  bool **take = xcalloc(p->n, sizeof *take);
  for (size_t a = 0, b; a < uses.len; a = b) {
    const FoldUse *first = &uses.items[a];
    Finding *into = &p->files[first->file].findings->items[first->idx];
    for (b = a + 1; b < uses.len && fold__use_same(first, &uses.items[b]); b++) {
      const FoldUse *u = &uses.items[b];
      fold__absorb_across(into, &p->files[u->file].findings->items[u->idx], u->file == first->file ? NULL : p->files[u->file].path);
      if (!take[u->file]) take[u->file] = xcalloc(p->files[u->file].findings->len + 1, sizeof **take);
      take[u->file][u->idx] = true;
    }
    if (b - a > 1) {
      char *folder = by_folder ? xstrndup(first->dir, first->dir_len) : NULL;
      kb_append_note(into, row, by_folder ? (first->dir_len ? folder : ".") : into->subject, NULL);
      free(folder);
    }
    if (deploy) fold__deployment_folder(p, deploy, into, first, take);
  }
  for (size_t i = 0; i < p->n; i++) {
    if (take[i]) findings_drop(p->files[i].findings, take[i]);
    free(take[i]);
  }
  free(take);
  array_free(&uses);
}

/* The C/C++/CUDA file of the project that registers operator namespace ns
 * (`TORCH_LIBRARY(ns, m)` or `TORCH_LIBRARY_FRAGMENT(ns, m)`), or SIZE_MAX. */
static size_t fold__registrar(FoldProject *p, const char *ns) {
  static const char *const macros[] = {"TORCH_LIBRARY(", "TORCH_LIBRARY_FRAGMENT("};
  size_t n = strlen(ns);
  for (size_t i = 0; i < p->n; i++) {
    if (p->files[i].kind != FILE_CUDA || p->files[i].test) continue;
    const char *t = fold__text_of(p, i);
    for (size_t k = 0; t && k < sizeof macros / sizeof macros[0]; k++)
      for (const char *at = t; (at = strstr(at, macros[k])) != NULL; at++) {
        const char *q = at + strlen(macros[k]);
        while (*q == ' ') q++;
        if (strncmp(q, ns, n) == 0 && (q[n] == ',' || q[n] == ' ' || q[n] == ')')) return i;
      }
  }
  return SIZE_MAX;
}

/* Whether the project's own kernels are findings outside its tests: live,
 * or optional behind a fallback (its ops and Functions come with them
 * either way). */
static bool fold__has_kernels(const FoldProject *p) {
  for (size_t i = 0; i < p->n; i++)
    for (size_t j = 0; !p->files[i].test && j < p->files[i].findings->len; j++)
      if ((fold_live(&p->files[i].findings->items[j]) || p->files[i].findings->items[j].guarded) &&
          strcmp(p->files[i].findings->items[j].rule->code, "ASC401") == 0)
        return true;
  return false;
}

/* A namespace looked up once: its registering file (SIZE_MAX: none). */
typedef struct {
  char *ns;
  size_t reg;
} FoldRegistrar;

/* A custom op (the "fold-own-extension-op" row's rules) whose namespace
 * the project's own C++ registers (called for a project whose kernels are
 * findings): its NPU registration is part of porting that extension (the
 * kernels' items), not an item of its own. */
static void fold__own_extension_ops(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-own-extension-op", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg) return;
  Array(FoldRegistrar) seen = {0}; /* the sources are scanned once per namespace */
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (!fold_live(f) || !f->subject || !kb_pattern_match(row->arg, f->rule->code) ||
          !util_starts_with(f->subject, "torch.ops."))
        continue;
      const char *ns = f->subject + strlen("torch.ops."), *dot = strchr(ns, '.');
      if (!dot) dot = ns + strlen(ns);
      if (dot == ns) continue;
      char *name = xstrndup(ns, (size_t)(dot - ns));
      size_t k = 0;
      while (k < seen.len && strcmp(seen.items[k].ns, name) != 0) k++;
      if (k == seen.len) array_push(&seen, ((FoldRegistrar){xstrdup(name), fold__registrar(p, name)}));
      size_t reg = seen.items[k].reg;
      if (reg != SIZE_MAX) {
        f->severity = SEV_HINT;
        kb_append_note(f, row, name, p->files[reg].path);
      }
      free(name);
    }
  }
  for (size_t k = 0; k < seen.len; k++) free(seen.items[k].ns);
  array_free(&seen);
}

/* The Python file defining custom op `op` ("ns::op") through one of the
 * callees `ends` names ("custom_op(|triton_op("): the quoted name after such a
 * call's opening on its line or the line before. SIZE_MAX: none. */
/* Whether a file's facts hold a call of a callee that `ends` names
 * ("register_custom_op(...)" for "custom_op("; no facts: it may). */
static bool fold__may_define_op(const FoldFile *f, const char *ends) {
  const PyFacts *py = f->facts ? f->facts->py : NULL;
  for (size_t k = 0; py && k < py->calls.len; k++)
    for (const char *e = ends; *e;) {
      size_t n = strcspn(e, "|");
      const char *callee = py->calls.items[k].callee;
      size_t c = strlen(callee);
      if (n > 1 && e[n - 1] == '(' && c >= n - 1 && memcmp(callee + c - (n - 1), e, n - 1) == 0) return true;
      e += n + (e[n] == '|');
    }
  return !py;
}

static size_t fold__python_definer(FoldProject *p, const char *op, const char *ends) {
  size_t n = strlen(op);
  for (size_t i = 0; i < p->n; i++) {
    if (p->files[i].kind != FILE_PYTHON || p->files[i].test || !fold__may_define_op(&p->files[i], ends)) continue;
    const char *t = fold__text_of(p, i);
    for (const char *at = t; at && (at = strstr(at, op)) != NULL; at += n) {
      if (at == t || (at[-1] != '"' && at[-1] != '\'') || at[n] != at[-1]) continue;
      const char *line = at; /* this line and the one before: `custom_op(\n    name="ns::op",` */
      for (int rows = 0; line > t && rows < 2; line--) rows += line[-1] == '\n';
      for (const char *e = ends; *e;) {
        size_t k = strcspn(e, "|");
        const char *hit = memmem(line, (size_t)(at - line), e, k);
        if (hit) return i;
        e += k + (e[k] == '|');
      }
    }
  }
  return SIZE_MAX;
}

/* A custom op (the "fold-python-op" row's rules) the project defines in
 * Python: a hint, its body's calls are the work. */
static void fold__python_ops(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-python-op", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg || !row->replacement) return;
  Array(FoldRegistrar) seen = {0}; /* op -> defining file, looked up once */
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (!fold_live(f) || f->severity == SEV_HINT || !f->subject || !kb_pattern_match(row->arg, f->rule->code) ||
          !util_starts_with(f->subject, "torch.ops."))
        continue;
      const char *ns = f->subject + strlen("torch.ops."), *dot = strchr(ns, '.');
      if (!dot || !dot[1] || strchr(dot + 1, '.')) continue;
      char *op = xasprintf("%.*s::%s", (int)(dot - ns), ns, dot + 1);
      size_t k = 0;
      while (k < seen.len && strcmp(seen.items[k].ns, op) != 0) k++;
      if (k == seen.len) array_push(&seen, ((FoldRegistrar){xstrdup(op), fold__python_definer(p, op, row->replacement)}));
      size_t def = seen.items[k].reg;
      if (def != SIZE_MAX) {
        f->severity = SEV_HINT;
        kb_append_note(f, row, op, p->files[def].rel ? p->files[def].rel : p->files[def].path);
      }
      free(op);
    }
  }
  for (size_t k = 0; k < seen.len; k++) free(seen.items[k].ns);
  array_free(&seen);
}

static bool fold__source_file(const char *path) {
  return fold__ends_with_any(path, fold__source_exts, FOLD__COUNT(fold__source_exts));
}

/* The names of the modules the project builds from its C/C++ sources: each
 * source's base name (`swin_window_process.cpp`) and each extension a build
 * script makes (`CUDAExtension("MultiScaleDeformableAttention", ...)`). */
static FoldNames fold__extension_names(FoldProject *p) {
  FoldNames names = {0};
  for (size_t i = 0; i < p->n; i++) {
    const char *path = p->files[i].rel ? p->files[i].rel : p->files[i].path;
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (p->files[i].kind == FILE_CUDA && fold__source_file(base)) {
      array_push(&names, xstrndup(base, strcspn(base, ".")));
    } else if (p->files[i].kind == FILE_PYTHON && (strcmp(base, "setup.py") == 0 || util_ends_with(base, "_setup.py"))) {
      fold__extension_modules(fold__text_of(p, i), &names);
    }
  }
  return names;
}

/* Whether a callee goes through a compiled extension module the project
 * builds: its package's `_C` (`_C.fn`, `pkg._C.fn`), or a module of one of
 * `names` (NULL: none; `swin_window_process.fn`, `MSDA.fn` bound to
 * `MultiScaleDeformableAttention`: the callee is spelled by qualified name). */
static bool fold__extension_callee(const char *callee, const FoldNames *names) {
  const char *at = strstr(callee, "_C.");
  if (at && (at == callee || at[-1] == '.')) return true;
  const char *last = strrchr(callee, '.');
  if (!last || !names) return false;
  const char *mod = last;
  while (mod > callee && mod[-1] != '.') mod--;
  size_t n = (size_t)(last - mod);
  for (size_t i = 0; i < names->len; i++)
    if (strlen(names->items[i]) == n && memcmp(names->items[i], mod, n) == 0) return true;
  return false;
}

/* Whether the class at def index c of facts calls its package's compiled
 * extension in one of its methods. */
static bool fold__calls_extension(const PyFacts *py, int32_t c, const FoldNames *names) {
  for (size_t k = 0; k < py->calls.len; k++) {
    const PyCall *call = &py->calls.items[k];
    /* a project module is named by an import: a local or member call is none of them */
    if (call->owner < 0 || !fold__extension_callee(call->callee, call->kind == PYCALL_IMPORTED ? names : NULL)) continue;
    if (call->owner == c || py->defs.items[call->owner].cls == c) return true;
  }
  return false;
}

/* An autograd Function (the "fold-extension-function" row's rules) whose
 * methods call the project's compiled extension (called for a project
 * whose kernels are findings): the ops it calls are those kernels, ported as
 * their items; the Function itself stays as it is. */
static void fold__extension_functions(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-extension-function", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg) return;
  FoldNames names = fold__extension_names(p);
  for (size_t i = 0; i < p->n; i++) {
    const PyFacts *py = p->files[i].facts ? p->files[i].facts->py : NULL;
    FindingList *l = p->files[i].findings;
    for (size_t j = 0; py && j < l->len; j++) {
      Finding *f = &l->items[j];
      if (!fold_live(f) || !kb_pattern_match(row->arg, f->rule->code)) continue;
      int32_t c = pyfacts_def_at(py, f->start_byte);
      if (c < 0 || py->defs.items[c].kind != PYDEF_CLASS || !fold__calls_extension(py, c, &names)) continue;
      f->severity = SEV_HINT;
      finding_append_note(f, row->msg_en, row->msg_zh);
    }
  }
  strlist_free(&names);
}

/* Headers named in file i's text (`#include "x.cuh"`, `<pkg/x.hpp>`, a
 * Python string that JIT-compiles one): their base names, with i. */
typedef struct {
  char *base;
  size_t file;
} FoldNamed;
typedef Array(FoldNamed) FoldNamedList;

static int fold__named_cmp(const void *a, const void *b) {
  return strcmp(((const FoldNamed *)a)->base, ((const FoldNamed *)b)->base);
}

static bool fold__name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.'; }

/* File names with one of the n extensions `ext` in a text (`#include
 * "x.cuh"`, a Python string naming `wkv_cuda.cu`), with the file holding
 * the text. With `stop_at_placeholder`, false at the first one built with a
 * placeholder (`f"cuda/wkv_{n}.cu"`: it may be any of them). */
static bool fold__names_with(const char *t, size_t len, size_t file, const char *const *ext, size_t n_ext,
                             bool stop_at_placeholder, FoldNamedList *out) {
  for (const char *dot = memchr(t, '.', len); dot; dot = memchr(dot + 1, '.', len - (size_t)(dot + 1 - t))) {
    size_t at = (size_t)(dot - t);
    for (size_t k = 0; k < n_ext; k++) {
      size_t n = strlen(ext[k]);
      if (at + n > len || memcmp(t + at, ext[k], n) != 0 || (at + n < len && (isalnum((unsigned char)t[at + n]) || t[at + n] == '_')))
        continue;
      if (at > 0 && t[at - 1] == '}' && stop_at_placeholder) return false;
      size_t s = at;
      while (s > 0 && fold__name_char(t[s - 1]) && t[s - 1] != '.') s--;
      if (s < at) array_push(out, ((FoldNamed){xstrndup(t + s, at + n - s), file}));
      break;
    }
  }
  return true;
}

/* Whether a file other than i names the base name of `path` in `named` (sorted by base). */
static bool fold__named_elsewhere(const FoldNamedList *named, const char *path, size_t i) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  FoldNamed key = {(char *)base, 0};
  FoldNamed *hit = named->len ? bsearch(&key, named->items, named->len, sizeof *named->items, fold__named_cmp) : NULL;
  while (hit && hit > named->items && strcmp(hit[-1].base, base) == 0) hit--;
  for (FoldNamed *h = hit; h && h < named->items + named->len && strcmp(h->base, base) == 0; h++)
    if (h->file != i) return true;
  return false;
}


/* In a Python extension (a C/C++ file holds a binding macro of the
 * "cxx-unreferenced" row), a header no other project file names is never
 * compiled (FlashMLA's unused pow_2.hpp): its findings are unreachable
 * hints ("cxx-unincluded" row). Only read when such a header has findings. */
static void fold__unincluded_headers(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cxx-unincluded", p->opt->user_entries, p->opt->n_user_entries);
  const KbEntry *bind = kb_lookup(KB_DETECTOR, "cxx-unreferenced", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !bind || !bind->arg) return;
  bool candidates = false, ext = false;
  for (size_t i = 0; i < p->n && !candidates; i++) {
    const FindingList *l = p->files[i].findings;
    for (size_t j = 0; p->files[i].kind == FILE_CUDA && fold_header_path(p->files[i].path) && j < l->len && !candidates; j++)
      candidates = fold_live(&l->items[j]) && kb_domain(l->items[j].rule->code) >= 2;
  }
  for (size_t i = 0; candidates && i < p->n && !ext; i++) {
    const char *t = p->files[i].kind == FILE_CUDA ? fold__text_of(p, i) : NULL;
    char *macros = t ? xstrdup(bind->arg) : NULL;
    for (char *m = macros ? strtok(macros, "|") : NULL; m && !ext; m = strtok(NULL, "|")) ext = memmem(t, p->len[i], m, strlen(m)) != NULL;
    free(macros);
  }
  if (!ext) return;
  /* the C/C++ sources first; Python's JIT strings only for what they leave unnamed */
  FoldNamedList named = {0};
  bool *open = xcalloc(p->n + 1, sizeof *open);
  size_t unnamed = 0;
  for (int pass = 0; pass < 2; pass++) {
    FileKind kind = pass == 0 ? FILE_CUDA : FILE_PYTHON;
    for (size_t i = 0; (pass == 0 || unnamed) && i < p->n; i++) {
      const char *t = p->files[i].kind == kind ? fold__text_of(p, i) : NULL;
      if (t) (void)fold__names_with(t, p->len[i], i, fold__header_exts, FOLD__COUNT(fold__header_exts), false, &named);
    }
    if (named.len > 1) qsort(named.items, named.len, sizeof *named.items, fold__named_cmp);
    unnamed = 0;
    for (size_t i = 0; i < p->n; i++) {
      if (p->files[i].kind != FILE_CUDA || p->files[i].test || !fold_header_path(p->files[i].path)) continue;
      bool other = fold__named_elsewhere(&named, p->files[i].path, i);
      open[i] = !other;
      unnamed += !other;
    }
  }
  for (size_t i = 0; i < p->n; i++) {
    const char *base = strrchr(p->files[i].path, '/');
    if (open[i]) fold__mark_unreachable(p, i, row, base ? base + 1 : p->files[i].path);
  }
  free(open);
  for (size_t k = 0; k < named.len; k++) free(named.items[k].base);
  array_free(&named);
}

/* The JIT helpers of a kernel DSL (the "fold-dsl-helper" row: `arg` = the
 * helpers' subjects, `@cute.jit` device and host functions; `value` = the
 * kernels', `@cute.kernel`) in a project with such kernels: each is inlined
 * into, or launches, kernels that are findings of their own, and is
 * rewritten with them: a hint with the row's note. */
static void fold__dsl_helpers(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "fold-dsl-helper", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg || !row->value) return;
  bool kernels = false;
  for (size_t i = 0; i < p->n && !kernels; i++)
    for (size_t j = 0; !p->files[i].test && j < p->files[i].findings->len && !kernels; j++) {
      const Finding *f = &p->files[i].findings->items[j];
      kernels = fold_live(f) && f->subject && kb_pattern_match(row->value, f->subject);
    }
  for (size_t i = 0; kernels && i < p->n; i++)
    for (size_t j = 0; j < p->files[i].findings->len; j++) {
      Finding *f = &p->files[i].findings->items[j];
      if (!fold_live(f) || strcmp(f->rule->code, row->code) != 0 || !f->subject || !kb_pattern_match(row->arg, f->subject))
        continue;
      f->severity = SEV_HINT;
      finding_append_note(f, row->msg_en, row->msg_zh);
    }
}


/* Whether folder abs[0, n) (ending in '/') holds one of `names` ('|' alternatives). */
static bool fold__has_build_file(const char *abs, size_t n, const char *names) {
  char path[4096];
  const char *w;
  size_t k;
  for (const char *c = names; util_alt_next(&c, &w, &k);) {
    struct stat st;
    if (n + k >= sizeof path) continue;
    memcpy(path, abs, n);
    memcpy(path + n, w, k);
    path[n + k] = '\0';
    if (stat(path, &st) == 0) return true;
  }
  return false;
}

/* Whether a build file (the "cxx-unnamed-source" row's value) sits in the
 * folder of file f or above it, up to the project's root: it may compile
 * any source below it by a glob. */
static bool fold__build_file_above(const FoldFile *f, const char *names) {
  const char *rel = f->rel ? f->rel : f->path;
  size_t al = strlen(f->abs), rl = strlen(rel);
  if (rl > al || strcmp(f->abs + al - rl, rel) != 0) return true; /* cannot tell where the root is: assume one */
  size_t root = al - rl; /* the root folder is abs[0, root), '/' included */
  for (size_t n = al; n > root;) {
    while (n > root && f->abs[n - 1] != '/') n--;
    if (fold__has_build_file(f->abs, n, names)) return true;
    if (n > root) n--; /* past the '/' */
  }
  return false; /* the last folder checked was the root */
}

/* A project that builds its extensions just in time
 * (`load(sources=["cuda/wkv_op.cpp", "cuda/wkv_cuda.cu"])`) compiles only
 * the sources its files name: a C/C++ source with findings that no other
 * project file names (Python, shell or C/C++ text) and that no build file
 * beside or above it could glob is never built, so its findings are
 * unreachable hints ("cxx-unnamed-source" row; RWKV's kernel variants
 * that no script loads). A source name built with a placeholder anywhere
 * turns this off. */
static void fold__unnamed_sources(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cxx-unnamed-source", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->value) return;
  bool *cand = xcalloc(p->n + 1, sizeof *cand);
  size_t n_cand = 0;
  for (size_t i = 0; i < p->n; i++) {
    const FoldFile *f = &p->files[i];
    if (f->kind != FILE_CUDA || f->test || !fold__source_file(f->path)) continue;
    for (size_t j = 0; j < f->findings->len && !cand[i]; j++)
      cand[i] = fold_live(&f->findings->items[j]) && kb_domain(f->findings->items[j].rule->code) >= 2;
    n_cand += cand[i];
  }
  FoldNamedList named = {0};
  bool ok = n_cand > 0;
  for (size_t i = 0; ok && i < p->n; i++) {
    FileKind k = p->files[i].kind;
    const char *t = k == FILE_PYTHON || k == FILE_SHELL || k == FILE_CUDA ? fold__text_of(p, i) : NULL;
    if (t) ok = fold__names_with(t, p->len[i], i, fold__source_exts, FOLD__COUNT(fold__source_exts), true, &named);
  }
  /* only a project whose Python names its sources builds them just in time */
  bool jit = false;
  for (size_t k = 0; ok && k < named.len && !jit; k++) jit = p->files[named.items[k].file].kind == FILE_PYTHON;
  ok = ok && jit;
  if (ok && named.len > 1) qsort(named.items, named.len, sizeof *named.items, fold__named_cmp);
  for (size_t i = 0; ok && i < p->n; i++) {
    if (!cand[i]) continue;
    const char *base = strrchr(p->files[i].path, '/');
    base = base ? base + 1 : p->files[i].path;
    if (!fold__named_elsewhere(&named, p->files[i].path, i) && !fold__build_file_above(&p->files[i], row->value))
      fold__mark_unreachable(p, i, row, base);
  }
  for (size_t k = 0; k < named.len; k++) free(named.items[k].base);
  array_free(&named);
  free(cand);
}

/* What pyproject.toml's [project] table says (PEP 621): whether there is
 * one, and the fields it leaves to setup.py (`dynamic`). */
typedef struct {
  const char *text;
  bool project;    /* a [project] table */
  StrList dynamic; /* owned: the names in [project].dynamic */
} FoldPyproject;

static bool fold__pyproject_visit(void *data, const TomlItem *it) {
  FoldPyproject *pp = data;
  if (!it->path->len || strcmp(it->path->items[0], "project") != 0) return false;
  pp->project = true;
  if (it->path->len != 2 || strcmp(it->path->items[1], "dynamic") != 0 || !toml_is(it->value, "array")) return false;
  for (uint32_t k = 0; k < ts_node_named_child_count(it->value); k++) {
    TSNode v = ts_node_named_child(it->value, k);
    if (toml_is(v, "string")) array_push(&pp->dynamic, toml_string(pp->text, v));
  }
  return false;
}

static void fold__read_pyproject(const char *text, size_t len, FoldPyproject *pp) {
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, analyze_language(FILE_PYPROJECT));
  TSTree *tree = analyze_parse(parser, NULL, text, len);
  pp->text = text;
  if (tree) toml_walk(ts_tree_root_node(tree), text, fold__pyproject_visit, pp);
  if (tree) ts_tree_delete(tree);
  ts_parser_delete(parser);
}

/* Whether the setup.py keyword a dependency finding was declared in (its
 * detail: "declared in extras_require.gpu") is one the pyproject's
 * [project] table takes over: the row's `value` pairs keyword:field, and
 * the field is not in `dynamic`. */
static bool fold__taken_over(const KbEntry *row, const FoldPyproject *pp, const char *detail) {
  const char *in = detail ? strstr(detail, "declared in ") : NULL;
  if (!in) return false;
  in += strlen("declared in ");
  const char *w;
  size_t k;
  for (const char *c = row->value; util_alt_next(&c, &w, &k);) {
    const char *colon = memchr(w, ':', k);
    if (!colon) continue;
    size_t kw = (size_t)(colon - w);
    if (strncmp(in, w, kw) != 0 || (in[kw] != '\0' && in[kw] != '.' && in[kw] != ';')) continue;
    char *field = xstrndup(colon + 1, k - kw - 1);
    bool dynamic = false;
    for (size_t i = 0; i < pp->dynamic.len && !dynamic; i++) dynamic = strcmp(pp->dynamic.items[i], field) == 0;
    free(field);
    return !dynamic;
  }
  return false;
}

/* setup.py's dependency findings beside a pyproject.toml with a [project]
 * table that does not leave them to setup.py (the
 * "setup-requires-overridden" row): setuptools ignores install_requires
 * (extras_require) unless `dynamic` names dependencies
 * (optional-dependencies), so those pins install nothing. */
static void fold__overridden_setup(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "setup-requires-overridden", p->opt->user_entries, p->opt->n_user_entries);
  for (size_t i = 0; row && row->arg && row->value && i < p->n; i++) {
    const FoldFile *setup = &p->files[i];
    const char *base = strrchr(setup->abs, '/');
    size_t dir = base ? (size_t)(base - setup->abs) + 1 : 0;
    if (setup->kind != FILE_PYTHON || strcmp(setup->abs + dir, "setup.py") != 0) continue;
    for (size_t j = 0; j < p->n; j++) {
      const FoldFile *toml = &p->files[j];
      if (toml->kind != FILE_PYPROJECT || strncmp(toml->abs, setup->abs, dir) != 0 || strcmp(toml->abs + dir, "pyproject.toml") != 0)
        continue;
      const char *text = fold__text_of(p, j);
      FoldPyproject pp = {0};
      if (text) fold__read_pyproject(text, p->len[j], &pp);
      for (size_t k = 0; pp.project && k < setup->findings->len; k++) {
        Finding *f = &setup->findings->items[k];
        if (fold_live(f) && kb_pattern_match(row->arg, f->rule->code) && fold__taken_over(row, &pp, f->detail))
          fold_mark_unreachable(f, row, toml->path);
      }
      strlist_free(&pp.dynamic);
      break;
    }
  }
}

/* ---- options off by default, defined in another file ---- */

/* An option an `add_argument(...)` call defines off by default. */
typedef struct {
  char *dest;   /* `lambda_tv` */
  char *option; /* `--lambda_tv` as written */
  size_t file;
} FoldSwitch;
typedef Array(FoldSwitch) FoldSwitches;

/* The end of the argument list that starts at text[at] (after its '('):
 * brackets counted, string literals skipped; len when it never closes. */
static size_t fold__args_end(const char *text, size_t len, size_t at) {
  int depth = 1;
  for (size_t i = at; i < len; i++) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      for (i++; i < len && text[i] != c && text[i] != '\n'; i++)
        if (text[i] == '\\') i++;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') depth++;
    if ((c == ')' || c == ']' || c == '}') && --depth == 0) return i;
  }
  return len;
}

/* The value of keyword `kw` (`action=`) in args[0, n) with blanks and quotes
 * dropped, into buf; empty when absent. */
static void fold__kwarg(const char *args, size_t n, const char *kw, char *buf, size_t cap) {
  buf[0] = '\0';
  size_t k = strlen(kw);
  for (const char *p = args; (p = memmem(p, n - (size_t)(p - args), kw, k)) != NULL; p += k) {
    if (p > args && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
    const char *v = p + k;
    while (v < args + n && (*v == ' ' || *v == '=' )) v++;
    size_t w = 0;
    for (; v < args + n && *v != ',' && *v != ')' && *v != '\n' && w + 1 < cap; v++)
      if (*v != '"' && *v != '\'' && *v != ' ') buf[w++] = *v;
    buf[w] = '\0';
    return;
  }
}

/* The first `--long-option` string of args[0, n), into buf; false when none. */
static bool fold__long_option(const char *args, size_t n, char *buf, size_t cap) {
  for (const char *p = args; (p = memmem(p, n - (size_t)(p - args), "--", 2)) != NULL; p += 2) {
    if (p == args || (p[-1] != '"' && p[-1] != '\'')) continue;
    size_t w = 0;
    for (const char *q = p; q < args + n && *q != p[-1] && w + 1 < cap; q++) buf[w++] = *q;
    buf[w] = '\0';
    return w > 2;
  }
  return false;
}

/* The options a Python file's argument parsers define off by default: a
 * store_true switch without `default=True`, or a numeric option whose
 * default is 0 (read from the text: `add_argument(` calls, their option
 * strings and keywords). */
static void fold__file_switches(const char *text, size_t len, size_t file, FoldSwitches *out) {
  static const char call[] = "add_argument(";
  for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), call, sizeof call - 1)) != NULL;) {
    size_t at = (size_t)(p - text) + sizeof call - 1, end = fold__args_end(text, len, at);
    p = text + at;
    char option[128], action[64], dflt[64], dest[128];
    if (end >= len || !fold__long_option(text + at, end - at, option, sizeof option)) continue;
    fold__kwarg(text + at, end - at, "action", action, sizeof action);
    fold__kwarg(text + at, end - at, "default", dflt, sizeof dflt);
    fold__kwarg(text + at, end - at, "dest", dest, sizeof dest);
    bool off = strcmp(action, "store_true") == 0 ? strcmp(dflt, "True") != 0
                                                 : !action[0] && dflt[0] && strspn(dflt, "0.") == strlen(dflt);
    if (!off) continue;
    if (!dest[0]) {
      snprintf(dest, sizeof dest, "%s", option + 2);
      for (char *c = dest; *c; c++)
        if (*c == '-') *c = '_';
    }
    FoldSwitch s = {xstrdup(dest), xstrdup(option), file};
    array_push(out, s);
  }
}

/* The README.md texts of the folder of file `i` and of every folder above
 * it, up to the project's root, one after another into *out (replacing it):
 * classification/README.md documents `python export.py --trt` for
 * classification/export.py. */
static void fold__readmes(const FoldProject *p, size_t i, StrBuf *out) {
  out->len = 0;
  if (out->data) out->data[0] = '\0';
  const char *rel = p->files[i].rel, *abs = p->files[i].abs;
  size_t ar = abs ? strlen(abs) : 0, rr = rel ? strlen(rel) : 0;
  if (!rel || !abs || ar < rr || strcmp(abs + ar - rr, rel) != 0) return;
  for (size_t cut = rr;;) {
    while (cut > 0 && rel[cut - 1] != '/') cut--; /* rel[0, cut): a folder of the file, "" the root */
    char *path = xasprintf("%.*s%.*sREADME.md", (int)(ar - rr), abs, (int)cut, rel);
    char *text = NULL;
    size_t len = 0;
    if (util_read_file(path, FOLD_MAX_READ, &text, &len) == 0) {
      sb_append(out, text, len);
      sb_append(out, "\n", 1);
    }
    free(text);
    free(path);
    if (cut == 0) break;
    cut--;
  }
}

/* Whether the README.md of some folder holding a file of the project (the
 * root's included) names one of `words` ('|' alternatives). */
static bool fold__any_readme_names(const FoldProject *p, const char *words) {
  StrList seen = {0};
  bool named = false;
  for (size_t i = 0; i < p->n && !named; i++) {
    const char *rel = p->files[i].rel, *abs = p->files[i].abs;
    size_t ar = abs ? strlen(abs) : 0, rr = rel ? strlen(rel) : 0;
    if (!rel || !abs || ar < rr || strcmp(abs + ar - rr, rel) != 0) continue;
    size_t cut = (size_t)(fold__base(rel) - rel); /* rel[0, cut): the file's folder with its slash */
    char *dir = xstrndup(rel, cut);
    bool known = false;
    for (size_t k = 0; k < seen.len && !known; k++) known = strcmp(seen.items[k], dir) == 0;
    if (known) {
      free(dir);
      continue;
    }
    array_push(&seen, dir);
    char *path = xasprintf("%.*s%sREADME.md", (int)(ar - rr), abs, dir);
    char *text = NULL;
    size_t len = 0;
    const char *w;
    size_t wn;
    if (util_read_file(path, FOLD_MAX_READ, &text, &len) == 0)
      for (const char *alts = words ? words : ""; !named && util_alt_next(&alts, &w, &wn);)
        named = memmem(text, len, w, wn) != NULL;
    free(text);
    free(path);
  }
  strlist_free(&seen);
  return named;
}

/* Whether `option` is spelled out in a shell launcher, a Python file other
 * than its own, or the READMEs of its folder and those above (`readmes`,
 * fold__readmes): then some documented run turns it on. */
static bool fold__option_used(FoldProject *p, const FoldSwitch *s, const StrBuf *readmes) {
  size_t n = strlen(s->option);
  if (readmes->len && memmem(readmes->data, readmes->len, s->option, n)) return true;
  for (size_t i = 0; i < p->n; i++) {
    if (i == s->file || (p->files[i].kind != FILE_SHELL && p->files[i].kind != FILE_PYTHON)) continue;
    const char *t = fold__text_of(p, i);
    if (t && memmem(t, p->len[i], s->option, n)) return true;
  }
  return false;
}

/* The off switch named `gate`, or NULL. */
static const FoldSwitch *fold__off_switch(const FoldSwitches *sw, const char *gate) {
  for (size_t k = 0; gate && k < sw->len; k++)
    if (strcmp(sw->items[k].dest, gate) == 0) return &sw->items[k];
  return NULL;
}

/* How a project name is used: its one definition, its calls and those
 * behind an off switch (with the switch of the first). */
typedef struct {
  size_t file;           /* its one definition, */
  int32_t def;           /* by index in that file's facts (-1: defined more than once) */
  size_t calls, off;
  const FoldSwitch *sw;
} FoldNameUse;

static const PyFacts *fold__py(const FoldProject *p, size_t i) {
  return p->files[i].kind == FILE_PYTHON && p->files[i].facts ? p->files[i].facts->py : NULL;
}

static const char *fold__last_part(const char *callee) {
  const char *dot = strrchr(callee, '.');
  return dot ? dot + 1 : callee;
}

/* The findings of a function or method whose name the project defines once,
 * that no module's `__all__` exports, and whose every call (by the last part
 * of the callee) is behind an off switch: unreachable by default (the
 * "cli-switch-callers" row). One level: what such a function calls keeps
 * its own callers. */
static void fold__switch_callers(FoldProject *p, const FoldSwitches *sw) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cli-switch-callers", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->arg || !sw->len) return;
  Names names = {0};
  Array(FoldNameUse) uses = {0};
  for (size_t i = 0; i < p->n; i++) {
    const PyFacts *py = fold__py(p, i);
    for (size_t d = 0; py && d < py->defs.len; d++) {
      const char *nm = py->defs.items[d].name;
      if (nm[0] == '_' && nm[1] == '_') continue;
      uint32_t id = names_intern(&names, nm, strlen(nm));
      if (id == uses.len) array_push(&uses, ((FoldNameUse){i, (int32_t)d, 0, 0, NULL}));
      else uses.items[id].def = -1;
    }
  }
  for (size_t j = 0; uses.len && j < p->n; j++) {
    const PyFacts *py = fold__py(p, j);
    for (size_t c = 0; py && c < py->calls.len; c++) {
      const PyCall *call = &py->calls.items[c];
      const char *last = fold__last_part(call->callee);
      int64_t id = names_find(&names, last, strlen(last));
      if (id < 0 || uses.items[id].def < 0 || (uses.items[id].file == j && call->owner == uses.items[id].def)) continue;
      FoldNameUse *u = &uses.items[id];
      const FoldSwitch *s = fold__off_switch(sw, call->gate);
      u->calls++;
      if (s) u->off++;
      if (s && !u->sw) u->sw = s;
    }
  }
  /* an exported name may be called anywhere */
  for (size_t j = 0; uses.len && j < p->n; j++) {
    const PyFacts *py = fold__py(p, j);
    for (size_t k = 0; py && k < py->all.len; k++) {
      int64_t id = names_find(&names, py->all.items[k], strlen(py->all.items[k]));
      if (id >= 0) uses.items[id].off = 0;
    }
  }
  for (size_t id = 0; id < uses.len; id++) {
    const FoldNameUse *u = &uses.items[id];
    if (u->def < 0 || !u->calls || u->off != u->calls) continue;
    const PyDef *d = &fold__py(p, u->file)->defs.items[u->def];
    FindingList *l = p->files[u->file].findings;
    for (size_t k = 0; k < l->len; k++) {
      Finding *f = &l->items[k];
      if (f->start_byte < d->start || f->start_byte >= d->end || !fold_live(f) || !kb_pattern_match(row->arg, f->rule->code))
        continue;
      char *label = xasprintf("%s()", d->name);
      f->unreachable = true;
      f->severity = SEV_HINT;
      kb_append_note(f, row, label, u->sw->option);
      free(label);
    }
  }
  array_free(&uses);
  names_free(&names);
}

static void fold__switches_free(FoldSwitches *sw) {
  for (size_t k = 0; k < sw->len; k++) {
    free(sw->items[k].dest);
    free(sw->items[k].option);
  }
  array_free(sw);
}

/* The options the project's findings and calls require on (Finding.gate,
 * PyCall.gate), into *out: only those switches matter. */
static void fold__gate_names(const FoldProject *p, Names *out) {
  for (size_t i = 0; i < p->n; i++) {
    const FindingList *l = p->files[i].findings;
    for (size_t j = 0; p->files[i].kind == FILE_PYTHON && j < l->len; j++)
      if (l->items[j].gate) names_intern(out, l->items[j].gate, strlen(l->items[j].gate));
    const PyFacts *py = fold__py(p, i);
    for (size_t c = 0; py && c < py->calls.len; c++)
      if (py->calls.items[c].gate) names_intern(out, py->calls.items[c].gate, strlen(py->calls.items[c].gate));
  }
}

/* A finding in a branch that requires an option on (Finding.gate) that
 * another file defines off by default and no documented run turns on: a
 * hint marked unreachable by the "cli-switch-elsewhere" row; and the
 * functions only such branches call (fold__switch_callers). Options that
 * pick the device or the distributed setup ("cli-switch-kept") keep theirs.
 * Only switches some gate names are looked up in the launchers and READMEs,
 * whose texts are read once per defining file. */
static void fold__switches_elsewhere(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "cli-switch-elsewhere", p->opt->user_entries, p->opt->n_user_entries);
  const char *kept = kb_template("cli-switch-kept");
  bool gates = false;
  for (size_t i = 0; row && i < p->n && !gates; i++)
    for (size_t j = 0; p->files[i].kind == FILE_PYTHON && j < p->files[i].findings->len && !gates; j++)
      gates = p->files[i].findings->items[j].gate != NULL;
  if (!gates) return;
  Names named = {0};
  fold__gate_names(p, &named);
  FoldSwitches sw = {0};
  for (size_t i = 0; i < p->n; i++) {
    const char *t = p->files[i].kind == FILE_PYTHON ? fold__text_of(p, i) : NULL;
    if (t && memmem(t, p->len[i], "add_argument(", 13)) fold__file_switches(t, p->len[i], i, &sw);
  }
  StrBuf readmes;
  sb_init(&readmes);
  size_t readmes_of = SIZE_MAX, w = 0;
  for (size_t k = 0; k < sw.len; k++) { /* in file order: one README read per defining file */
    FoldSwitch *s = &sw.items[k];
    bool off = names_find(&named, s->dest, strlen(s->dest)) >= 0 && !(kept && kb_pattern_match(kept, s->option));
    if (off && readmes_of != s->file) {
      fold__readmes(p, s->file, &readmes);
      readmes_of = s->file;
    }
    if (off && !fold__option_used(p, s, &readmes)) {
      sw.items[w++] = *s;
    } else {
      free(s->dest);
      free(s->option);
    }
  }
  sw.len = w;
  sb_free(&readmes);
  names_free(&named);
  for (size_t i = 0; sw.len && i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    for (size_t j = 0; p->files[i].kind == FILE_PYTHON && j < l->len; j++) {
      Finding *f = &l->items[j];
      const FoldSwitch *s = f->gate && fold_live(f) && kb_pattern_match(row->arg, f->rule->code) ? fold__off_switch(&sw, f->gate) : NULL;
      if (s) fold_mark_unreachable(f, row, s->option);
    }
  }
  fold__switch_callers(p, &sw);
  fold__switches_free(&sw);
}

/* Whether a Python file or shell launcher of the project other than file
 * `self` names `word` as a whole word (a text a file cannot read names
 * nothing). */
static bool fold__word_elsewhere(FoldProject *p, size_t self, const char *word) {
  for (size_t i = 0; i < p->n; i++) {
    if (i == self || (p->files[i].kind != FILE_PYTHON && p->files[i].kind != FILE_SHELL)) continue;
    const char *t = fold__text_of(p, i);
    if (t && fold__has_word(t, p->len[i], word, 0, (uint32_t)p->len[i])) return true;
  }
  return false;
}

/* A finding in the branch of `if self.<attr>:` whose file sets the
 * attribute only from a hard-coded False (Finding.gate "self.<attr>",
 * offflags.h) is a hint marked unreachable by the "off-flag" row when no
 * other Python file or shell launcher of the project names the attribute:
 * nothing turns it on. Each attribute is looked up once per file. */
static void fold__off_flags(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "off-flag", p->opt->user_entries, p->opt->n_user_entries);
  for (size_t i = 0; row && row->arg && i < p->n; i++) {
    FindingList *l = p->files[i].kind == FILE_PYTHON ? p->files[i].findings : NULL;
    const char *asked = NULL;
    bool elsewhere = true;
    for (size_t j = 0; l && j < l->len; j++) {
      Finding *f = &l->items[j];
      if (!f->gate || strncmp(f->gate, "self.", 5) != 0 || !fold_live(f) || !kb_pattern_match(row->arg, f->rule->code))
        continue;
      if (!asked || strcmp(asked, f->gate) != 0) elsewhere = fold__word_elsewhere(p, i, f->gate + 5);
      asked = f->gate;
      if (!elsewhere) fold_mark_unreachable(f, row, f->gate);
    }
  }
}

/* ---- optional packages nothing installs ---- */

/* Whether `subject` starts with package `pkg` (n bytes), '-' and '_' being
 * one (a requirement's `flash-attn`). */
static bool fold__names_prefix(const char *subject, const char *pkg, size_t n) {
  if (!subject) return false;
  for (size_t i = 0; i < n; i++) {
    char a = subject[i], b = pkg[i];
    if (a == '\0' || (a != b && !((a == '-' || a == '_') && (b == '-' || b == '_')))) return false;
  }
  return true;
}

/* Whether a dependency finding's `subject` names package `pkg`, or a module of it. */
static bool fold__names_requirement(const char *subject, const char *pkg, size_t n) {
  return fold__names_prefix(subject, pkg, n) && (subject[n] == '\0' || subject[n] == '.');
}

/* Whether a dependency finding's `subject` is package `pkg` (n bytes), alone
 * or with its version or markers (`liger-kernel==0.0.0`). */
static bool fold__names_pin(const char *subject, const char *pkg, size_t n) {
  return fold__names_prefix(subject, pkg, n) && strchr("=<>!~;[ ", subject[n]);
}

/* Whether a dependency file of the project (requirements, pyproject.toml,
 * setup.cfg, a conda environment, setup.py) installs package `pkg`: one of
 * its findings names it. */
static bool fold__installed(const FoldProject *p, const char *pkg, size_t n) {
  for (size_t i = 0; i < p->n; i++) {
    bool deps = p->files[i].kind == FILE_REQUIREMENTS || p->files[i].kind == FILE_PYPROJECT ||
                p->files[i].kind == FILE_SETUP_CFG || p->files[i].kind == FILE_CONDA_ENV ||
                strcmp(fold__base(p->files[i].path), "setup.py") == 0;
    for (size_t j = 0; deps && j < p->files[i].findings->len; j++)
      if (kb_domain(p->files[i].findings->items[j].rule->code) == 1 &&
          fold__names_requirement(p->files[i].findings->items[j].subject, pkg, n))
        return true;
  }
  return false;
}

/* The first module-level import of package `pkg` in facts f when every one
 * is guarded (try/except ImportError, an availability branch) and no
 * function imports it; NULL otherwise. */
static const PyFactImport *fold__only_guarded(const PyFacts *f, const char *pkg, size_t n) {
  const PyFactImport *first = NULL;
  for (size_t k = 0; k < f->imports.len; k++) {
    const PyFactImport *im = &f->imports.items[k];
    if (!fold__names_package(im->module, pkg, n) || im->lazy) continue;
    if (!im->guarded) return NULL;
    if (!first) first = im;
  }
  for (size_t k = 0; first && k < f->dynamic_imports.len; k++)
    if (fold__names_package(f->dynamic_imports.items[k], pkg, n)) return NULL;
  return first;
}

/* A package with no Ascend build (the "uninstalled-optional" row) that a
 * file imports only behind a fallback, where no dependency file of the
 * project installs it: the import fails on the NPU and the file's fallback
 * runs, so the file's uses of it are hints. */
static void fold__uninstalled_optional(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "uninstalled-optional", p->opt->user_entries, p->opt->n_user_entries);
  const char *pkg;
  size_t n;
  for (const char *alts = row ? row->arg : NULL; util_alt_next(&alts, &pkg, &n);) {
    bool installed = fold__installed(p, pkg, n);
    for (size_t i = 0; !installed && i < p->n; i++) {
      const PyFacts *pf = p->files[i].facts ? p->files[i].facts->py : NULL;
      const PyFactImport *im = pf && p->files[i].kind == FILE_PYTHON ? fold__only_guarded(pf, pkg, n) : NULL;
      if (!im) continue;
      char *where = xasprintf("%s:%u", p->files[i].rel ? p->files[i].rel : p->files[i].path, im->start.row + 1);
      FindingList *l = p->files[i].findings;
      for (size_t j = 0; j < l->len; j++) {
        Finding *f = &l->items[j];
        if (!fold_live(f) || kb_domain(f->rule->code) < 2 || !fold__names_package(f->subject, pkg, n)) continue;
        f->severity = SEV_HINT;
        f->guarded = true;
        kb_append_note(f, row, where, NULL);
      }
      free(where);
    }
  }
}

/* ---- dependencies nothing imports ---- */

/* kb_pattern_match(globs, name), asked only when name begins with one of
 * the globs' literal starts (most names of a project begin with none). */
static bool fold__matches(const KbStarts *st, const char *globs, const char *name) {
  return kb_starts_admit(st->items, st->len, name) && kb_pattern_match(globs, name);
}

/* Whether facts f import module `mod` (n bytes) at any level, or name one
 * of `users` (a reference, a keyword argument or a callee: `torch.compile`;
 * `st` holds their literal starts). */
static bool fold__uses_module(const PyFacts *f, const char *mod, size_t n, const char *users, const KbStarts *st) {
  for (size_t k = 0; k < f->imports.len; k++)
    if (fold__names_package(f->imports.items[k].module, mod, n) || fold__names_package(f->imports.items[k].qualname, mod, n))
      return true;
  for (size_t k = 0; k < f->dynamic_imports.len; k++)
    if (fold__names_package(f->dynamic_imports.items[k], mod, n)) return true;
  for (size_t k = 0; users && k < f->refs.len; k++)
    if (fold__matches(st, users, f->refs.items[k].name)) return true;
  for (size_t k = 0; users && k < f->calls.len; k++) {
    if (fold__matches(st, users, f->calls.items[k].callee)) return true;
    for (const char *kw = f->calls.items[k].keywords; kw && *kw;) { /* "name name " */
      size_t wn = strcspn(kw, " ");
      char name[128];
      if (wn && wn < sizeof name) {
        memcpy(name, kw, wn);
        name[wn] = '\0';
        if (fold__matches(st, users, name)) return true;
      }
      kw += wn;
      while (*kw == ' ') kw++;
    }
  }
  return false;
}

/* Whether the project's Python code (under folder `scope`, "name/", when
 * not NULL) uses module `mod`: some file imports it or names one of
 * `users`, or a Python file's facts are unknown (then it may). A project
 * with no Python code besides setup.py (its packaging alone) says nothing
 * either way. */
static bool fold__project_uses(const FoldProject *p, const char *mod, size_t n, const char *users, const char *scope) {
  bool python = false, used = false;
  KbStarts st = {0};
  kb_starts_add(users, &st);
  for (size_t i = 0; i < p->n && !used; i++) {
    if (p->files[i].kind != FILE_PYTHON || strcmp(fold__base(p->files[i].path), "setup.py") == 0) continue;
    if (scope && !(p->files[i].rel && util_starts_with(p->files[i].rel, scope))) continue;
    python = true;
    const PyFacts *pf = p->files[i].facts ? p->files[i].facts->py : NULL;
    used = !pf || fold__uses_module(pf, mod, n, users, &st);
  }
  array_free(&st);
  return used || !python;
}

/* The sub-project a dependency file installs for, as "name/": a top
 * folder holding the file, its own packaging (pyproject.toml or setup.py)
 * and Python code, as in a repository of several projects (VideoChat-Flash's
 * llava-train_videochat/ beside xtuner-train_internvideo2_5/, each with
 * its own requirements). NULL: the whole project. */
static char *fold__sub_project(const FoldProject *p, size_t i) {
  const char *rel = p->files[i].rel, *slash = rel ? strchr(rel, '/') : NULL;
  if (!slash || strchr(slash + 1, '/')) return NULL; /* at the root, or deeper than a top folder */
  char *top = xstrndup(rel, (size_t)(slash - rel) + 1);
  bool packaged = false, python = false;
  for (size_t k = 0; k < p->n && !(packaged && python); k++) {
    const char *r = p->files[k].rel;
    if (!r || !util_starts_with(r, top)) continue;
    const char *rest = r + strlen(top);
    packaged = packaged || strcmp(rest, "pyproject.toml") == 0 || strcmp(rest, "setup.py") == 0;
    python = python || (p->files[k].kind == FILE_PYTHON && strcmp(rest, "setup.py") != 0);
  }
  if (packaged && python) return top;
  free(top);
  return NULL;
}

/* The findings of dependency file i that name one of `dists` ('|'
 * alternatives) become hints with the row's note about `mod`. */
static void fold__not_involved(FoldProject *p, size_t i, const KbEntry *row, const char *dists, const char *mod) {
  FindingList *l = p->files[i].findings;
  for (size_t j = 0; j < l->len; j++) {
    Finding *f = &l->items[j];
    if (kb_domain(f->rule->code) != 1 || f->severity == SEV_HINT || !f->subject) continue;
    const char *d;
    size_t dn;
    bool named = false;
    /* the distribution, alone or with its version (`liger-kernel==0.0.0`) */
    for (const char *alts = dists; !named && util_alt_next(&alts, &d, &dn);)
      named = fold__names_pin(f->subject, d, dn);
    if (!named) continue;
    f->severity = SEV_HINT;
    kb_append_note(f, row, mod, NULL);
  }
}

/* A device string readvised for ONNX Runtime (the "ort-provider-device"
 * row) in a project whose dependency files install the CPU build of ONNX
 * Runtime and none of its accelerator builds (the "ort-cpu-build" row),
 * nor does a README tell to install one: the session runs on the CPU on a
 * GPU host already, and the same on the NPU host, so nothing changes
 * there. */
static void fold__cpu_onnxruntime(FoldProject *p) {
  const KbEntry *ort = kb_lookup(KB_DETECTOR, "ort-provider-device", p->opt->user_entries, p->opt->n_user_entries);
  const KbEntry *row = kb_lookup(KB_DETECTOR, "ort-cpu-build", p->opt->user_entries, p->opt->n_user_entries);
  if (!ort || !ort->replacement || !row || !row->arg || !fold__installed(p, row->arg, strlen(row->arg))) return;
  const char *d;
  size_t dn;
  for (const char *alts = row->value ? row->value : ""; util_alt_next(&alts, &d, &dn);)
    if (fold__installed(p, d, dn)) return;
  bool read = false;
  for (size_t i = 0; i < p->n; i++)
    for (size_t j = 0; j < p->files[i].findings->len; j++) {
      Finding *f = &p->files[i].findings->items[j];
      if (f->severity == SEV_HINT || !f->replacement || strcmp(f->replacement, ort->replacement) != 0) continue;
      /* a README that installs an accelerator build (efficientvit's gazesam app: onnxruntime-gpu) */
      if (!read && fold__any_readme_names(p, row->value)) return;
      read = true;
      f->severity = SEV_HINT;
      kb_append_note(f, row, row->arg, NULL);
    }
}

/* Whether file i's name is spelled in the READMEs of its folder and those
 * above (`readmes`), a shell launcher, or the Dockerfile of the project's
 * root or of its own folder. */
static bool fold__file_named(FoldProject *p, size_t i, const StrBuf *readmes) {
  const char *base = fold__base(p->files[i].rel ? p->files[i].rel : p->files[i].path);
  size_t n = strlen(base);
  if (readmes->len && memmem(readmes->data, readmes->len, base, n)) return true;
  for (size_t k = 0; k < p->n; k++) {
    const char *t = p->files[k].kind == FILE_SHELL ? fold__text_of(p, k) : NULL;
    if (t && memmem(t, p->len[k], base, n)) return true;
  }
  const char *rel = p->files[i].rel, *abs = p->files[i].abs;
  size_t ar = abs ? strlen(abs) : 0, rr = rel ? strlen(rel) : 0;
  if (!rel || !abs || ar < rr) return false;
  bool named = false;
  for (int own = 0; own < 2 && !named; own++) {
    size_t keep = own ? (size_t)(base - rel) : 0; /* the root, then the file's folder */
    char *path = xasprintf("%.*s%.*sDockerfile", (int)(ar - rr), abs, (int)keep, rel);
    char *text = NULL;
    size_t len = 0;
    named = util_read_file(path, FOLD_MAX_READ, &text, &len) == 0 && memmem(text, len, base, n);
    free(text);
    free(path);
  }
  return named;
}

/* A conda environment file that nothing documented names, in a project
 * whose READMEs install with pip (the "unnamed-environment" row's words):
 * a user follows the README, so the environment's CUDA packages are not
 * installed by anyone, and its findings are hints (PixArt-sigma,
 * Text2Video-Zero, GroundingDINO, stablediffusion: their READMEs say
 * `pip install -r requirements.txt` or `pip install -e .`). */
static void fold__unnamed_environments(FoldProject *p) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "unnamed-environment", p->opt->user_entries, p->opt->n_user_entries);
  if (!row || !row->value) return;
  StrBuf readmes = {0};
  for (size_t i = 0; i < p->n; i++) {
    FindingList *l = p->files[i].findings;
    bool live = false;
    for (size_t j = 0; j < l->len && !live; j++) live = l->items[j].severity != SEV_HINT;
    if (p->files[i].kind != FILE_CONDA_ENV || !live) continue;
    fold__readmes(p, i, &readmes);
    bool pip = false;
    const char *w;
    size_t wn;
    for (const char *alts = row->value; !pip && util_alt_next(&alts, &w, &wn);)
      pip = readmes.len && memmem(readmes.data, readmes.len, w, wn);
    if (!pip || fold__file_named(p, i, &readmes)) continue;
    const char *base = fold__base(p->files[i].rel ? p->files[i].rel : p->files[i].path);
    for (size_t j = 0; j < l->len; j++) {
      if (l->items[j].severity == SEV_HINT) continue;
      l->items[j].severity = SEV_HINT;
      kb_append_note(&l->items[j], row, base, NULL);
    }
  }
  sb_free(&readmes);
}

/* A package of an "unimported-dependency:<module>" row (its line installs
 * on an NPU host) that no Python code of the project, or of the
 * sub-project the dependency file installs for, imports asks no NPU work:
 * the file's findings of it are hints that say so. */
static void fold__unimported_dependencies(FoldProject *p) {
  static const char prefix[] = "unimported-dependency:";
  size_t n;
  const KbEntry *rows = kb_entries(&n);
  int8_t *whole = xmalloc(n ? n : 1); /* per row, whether the whole project uses it: -1 not asked yet */
  memset(whole, -1, n ? n : 1);
  for (size_t i = 0; i < p->n; i++) {
    bool deps = false;
    for (size_t j = 0; j < p->files[i].findings->len && !deps; j++) deps = kb_domain(p->files[i].findings->items[j].rule->code) == 1;
    if (!deps) continue;
    char *scope = fold__sub_project(p, i);
    for (size_t r = 0; r < n; r++) {
      const KbEntry *row = &rows[r];
      if (row->match != KB_DETECTOR || !row->arg || strncmp(row->pattern, prefix, sizeof prefix - 1) != 0) continue;
      const char *mod = row->pattern + sizeof prefix - 1;
      bool used;
      if (scope) {
        used = fold__project_uses(p, mod, strlen(mod), row->value, scope);
      } else {
        if (whole[r] < 0) whole[r] = fold__project_uses(p, mod, strlen(mod), row->value, NULL);
        used = whole[r];
      }
      if (!used) fold__not_involved(p, i, row, row->arg, mod);
    }
    free(scope);
  }
  free(whole);
}

void fold_project(FoldFile *files, size_t n, const AnalyzeOptions *opt) {
  if (n == 0) return;
  FoldProject p = {files, n, opt, xcalloc(n, sizeof(char *)), xcalloc(n, sizeof(size_t)), xcalloc(n, sizeof(bool))};
  fold__cuda_only_packages(&p);
  fold__device_backends(&p);
  fold__overridden_setup(&p);
  fold__switches_elsewhere(&p);
  fold__off_flags(&p);
  fold__uninstalled_optional(&p);
  fold__unimported_dependencies(&p);
  fold__cpu_onnxruntime(&p);
  fold__unnamed_environments(&p);
  bool any_optional = false;
  bool *optional = fold_optional_modules(files, n, &any_optional);
  fold_reach_cxx(files, n, opt, optional, fold__text_at, &p); /* guarded calls make optional code too */
  if (any_optional)
    fold_optional_mark(files, n, optional, kb_lookup(KB_DETECTOR, "optional-module", opt->user_entries, opt->n_user_entries));
  free(optional);
  FoldNode *g = xcalloc(n, sizeof *g);
  for (size_t i = 0; i < n; i++)
    if (files[i].kind == FILE_CUDA) fold__includes(&p, i, g);
  fold__families(&p, g);
  fold__headers(&p, g);
  fold__sole_includer(&p, g);
  fold__internals_beside_kernels(&p);
  fold__unincluded_headers(&p);
  fold__unnamed_sources(&p);
  fold__own_packages(&p);
  fold__per_project(&p, "fold-per-project", false, false);
  fold__per_project(&p, "fold-per-folder", false, true);
  fold__per_project(&p, "fold-test-suite", true, false);
  if (fold__has_kernels(&p)) { /* a project's own extension: its ops and Functions come with its kernels */
    fold__own_extension_ops(&p);
    fold__extension_functions(&p);
  }
  fold__dsl_helpers(&p);
  fold__python_ops(&p);
  fold__extension_users(&p);
  for (size_t i = 0; i < n; i++) {
    array_free(&g[i].out);
    array_free(&g[i].in);
    free(p.text[i]);
  }
  free(g);
  free(p.text);
  free(p.len);
  free(p.tried);
}
