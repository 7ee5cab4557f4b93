/* pyfacts: definitions, calls, names and imports of a Python file for the
 * project model (see pyfacts.h). One cursor walk over the tree. */
#include "analyzers/engine/forest.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/python/pysym.h"
#include "analyzers/python/pysyntax.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef Array(uint32_t) PyfLines;

/* Owner frames of the walk: the definition a subtree belongs to. */
typedef struct {
  uint32_t end;
  int32_t owner;
  bool top_class; /* a top-level class: functions directly in it are methods */
} PyfFrame;

/* (owner, name) pairs already in a refs list: open addressing, index + 1.
 * `used` counts the slots taken: a statement's walk puts every name in it,
 * the file's join only the module's and the main block's (pyfacts__join). */
typedef struct {
  size_t *slots;
  size_t n, used;
} PyfRefSet;

/* A module-level import binding by where its statement starts: the
 * bindings sorted by (def_byte, binding index), so an import statement
 * finds its first binding by binary search. */
typedef struct {
  uint32_t def_byte;
  int32_t import; /* its index in the file's imports */
} PyfImportAt;

/* The file's module-level import bindings, built once per file. */
typedef struct {
  const int32_t *of;     /* per binding of py: its index in the file's imports, -1 (not module level) */
  const PyfImportAt *at; /* the module-level ones, sorted */
  size_t n_at;
} PyfImportIndex;

typedef struct {
  const PyFile *py;
  PyFacts *out;         /* one statement's facts (a part), or the file's for its imports */
  const PyFacts *file;  /* the file's: where its `__main__` block is */
  const PyfLines *lines;
  Array(PyfFrame) frames;
  PyfRefSet seen;       /* of out->refs */
  Array(PyRef) bound; /* names assigned or taken as parameters inside definitions */
  /* the last position asked for (byte, row, code points from its line start):
   * the next one on that line counts on from it */
  uint32_t last_byte, last_row, last_chr;
  bool have_last;
  const KbEntry *loaders; /* the "dynamic-loaders" row, or NULL */
  const KbEntry *plain;   /* the "plain-decorators" row, or NULL */
  const PyfImportIndex *imports; /* NULL for the file's own import pass */
} PyfBuild;

/* ---- positions ------------------------------------------------------------ */

/* Row and columns of `at`. Positions come mostly in document order, so the
 * code-point column continues from the last one on the same line: many
 * calls on one long line cost the line once, not once each. */
static PyPos pyfacts__pos(PyfBuild *b, uint32_t at) {
  size_t lo = 0, hi = b->lines->len;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (b->lines->items[mid] <= at) lo = mid;
    else hi = mid;
  }
  PyPos p = {at, (uint32_t)lo, at - b->lines->items[lo], 0};
  uint32_t from = b->lines->items[lo], chr = 0;
  if (b->have_last && b->last_row == lo && b->last_byte <= at) {
    from = b->last_byte;
    chr = b->last_chr;
  }
  for (uint32_t i = from; i < at; i++)
    if (((unsigned char)b->py->text[i] & 0xC0) != 0x80) chr++;
  b->last_byte = at;
  b->last_row = (uint32_t)lo;
  b->last_chr = chr;
  b->have_last = true;
  p.chr = chr;
  if (lo == 0 && b->py->len >= 3 && memcmp(b->py->text, "\xEF\xBB\xBF", 3) == 0 && p.chr > 0) p.chr--;
  return p;
}

/* ---- names ---------------------------------------------------------------- */

static size_t pyfacts__ref_hash(int32_t owner, const char *s, size_t n) {
  return (size_t)util_fnv(UTIL_FNV_SEED ^ (uint64_t)(uint32_t)owner, s, n);
}

/* Doubles the set, moving every slot taken (set->used of them). */
static void pyfacts__grow_seen(PyfRefSet *set, const PyFacts *out) {
  size_t n = set->n ? set->n * 2 : 256, *old = set->slots, old_n = set->n;
  set->slots = xcalloc(n, sizeof *set->slots);
  set->n = n;
  for (size_t j = 0; j < old_n; j++) {
    if (!old[j]) continue;
    const PyRef *r = &out->refs.items[old[j] - 1];
    size_t i = pyfacts__ref_hash(r->owner, r->name, strlen(r->name)) & (n - 1);
    while (set->slots[i]) i = (i + 1) & (n - 1);
    set->slots[i] = old[j];
  }
  free(old);
}

/* Adds (owner, name[0, n)) to out->refs unless it is there. */
/* Two mentions of one name by one owner: through one import (its statement
 * and a use of it: a use), or else as the name itself (-1). */
static int32_t pyfacts__merge_via(int32_t a, int32_t b) {
  if (a == b) return a;
  int32_t ia = a <= -2 ? -2 - a : a, ib = b <= -2 ? -2 - b : b;
  return ia >= 0 && ia == ib ? ia : -1;
}

/* The slot of (owner, name[0, n)) in the set: taken by that name, or free. */
static size_t *pyfacts__ref_slot(const PyFacts *out, PyfRefSet *set, int32_t owner, const char *name, size_t n) {
  if (2 * (set->used + 1) > set->n) pyfacts__grow_seen(set, out);
  size_t i = pyfacts__ref_hash(owner, name, n) & (set->n - 1);
  while (set->slots[i]) {
    const PyRef *r = &out->refs.items[set->slots[i] - 1];
    if (r->owner == owner && strncmp(r->name, name, n) == 0 && r->name[n] == '\0') break;
    i = (i + 1) & (set->n - 1);
  }
  return &set->slots[i];
}

/* A name already in the set (its slot taken) takes the new mention's `via`;
 * returns whether it was there. */
static bool pyfacts__ref_merged(PyFacts *out, const size_t *slot, int32_t via, bool plain, bool attr, bool keyed) {
  if (!*slot) return false;
  PyRef *r = &out->refs.items[*slot - 1];
  r->via = pyfacts__merge_via(r->via, via);
  r->plain = r->plain && plain;
  r->attr = r->attr && attr;
  r->keyed = r->keyed && keyed;
  return true;
}

/* Appends r to out->refs under its free slot. */
static void pyfacts__ref_push(PyFacts *out, PyfRefSet *set, size_t *slot, PyRef r) {
  array_push(&out->refs, r);
  *slot = out->refs.len;
  set->used++;
}

static void pyfacts__ref_add(PyFacts *out, PyfRefSet *set, int32_t owner, const char *name, size_t n, int32_t via,
                             bool plain, bool attr, bool keyed) {
  size_t *slot = pyfacts__ref_slot(out, set, owner, name, n);
  if (!pyfacts__ref_merged(out, slot, via, plain, attr, keyed))
    pyfacts__ref_push(out, set, slot, (PyRef){xstrndup(name, n), owner, via, plain, attr, keyed});
}

/* Records that `owner` mentions the name text[s, e), once; `key`: the
 * registry table entry whose value holds the mention (PyRef.keyed), or
 * NULL; `neutral`: the mention leaves PyRef.keyed as the others make it. */
static void pyfacts__ref(PyfBuild *b, int32_t owner, uint32_t s, uint32_t e, int32_t via, bool plain, bool attr,
                         const char *key, bool neutral) {
  size_t n = e - s;
  if (n == 0 || n > 128) return;
  pyfacts__ref_add(b->out, &b->seen, owner, b->py->text + s, n, via, plain, attr, key != NULL || neutral);
  if (key) array_push(&b->out->keyed, xasprintf("%.*s\t%s", (int)n, b->py->text + s, key));
}

/* A function's own import statement: its names are no mention (its uses
 * are, through their binding: pyfacts__local_via). */
#define PYFACTS_OWN_IMPORT INT32_MIN

/* For a name spelled in an import statement (a dotted name in it): -2 -
 * the index of the module-level import that statement makes (the statement
 * alone is no use; a use of an alias names the original too, see
 * pyfacts__alias_use), PYFACTS_OWN_IMPORT in a function's own import; -1
 * when not in an import statement. */
static int32_t pyfacts__statement_via(const PyfBuild *b, TSNode dotted) {
  if (!b->imports) return -1;
  TSNode st = ts_node_parent(dotted);
  bool alias = !ts_node_is_null(st) && strcmp(ts_node_type(st), "aliased_import") == 0;
  if (alias) st = ts_node_parent(st);
  PySym ss = ts_node_is_null(st) ? PYSYM_OTHER : pysym_of(st);
  if (ss != PYSYM_IMPORT_FROM_STATEMENT && ss != PYSYM_IMPORT_STATEMENT) return -1;
  uint32_t at = ts_node_start_byte(st);
  const PyfImportIndex *ix = b->imports;
  size_t lo = 0, hi = ix->n_at; /* the first entry at or after `at` */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ix->at[mid].def_byte < at) lo = mid + 1;
    else hi = mid;
  }
  if (lo == ix->n_at || ix->at[lo].def_byte != at) return PYFACTS_OWN_IMPORT;
  return -2 - ix->at[lo].import;
}

/* A use of a name an alias binds (`P` of `from models.t5 import parallelize
 * as P`) is a use of the original name too, which the project defines under
 * that name: a reference to it as well, through the same import. Only a
 * use counts; the import statement alone keeps nothing alive (Vchitect's
 * pipeline imported a T5 copy it never used). */
static void pyfacts__alias_use(PyfBuild *b, const PyBinding *bd, int32_t owner, int32_t via, bool plain) {
  if (!bd || !bd->qualname || !bd->local) return;
  const char *last = strrchr(bd->qualname, '.');
  last = last ? last + 1 : bd->qualname;
  if (strcmp(last, bd->local) != 0) pyfacts__ref_add(b->out, &b->seen, owner, last, strlen(last), via, plain, false, false);
}

/* A name a function's own import binds (`from transformers import
 * T5EncoderModel` inside a loader, shadowing the module's import of the
 * project's T5 copy) is reached through that package: through a
 * module-level import of the same top package when the module has one (the
 * model asks whether that package is the project's), else -1 (a plain
 * name, as a relative import's is). */
static int32_t pyfacts__local_via(const PyfBuild *b, const PyBinding *bd) {
  const char *mod = b->py->text + bd->module_start;
  size_t n = bd->module_end - bd->module_start, top = 0;
  while (top < n && mod[top] != '.') top++;
  if (top == 0) return -1;
  for (size_t i = 0; i < b->py->bindings.len; i++) {
    const PyBinding *o = &b->py->bindings.items[i];
    const char *om = b->py->text + o->module_start;
    size_t on = o->module_end - o->module_start;
    if (o->module_scope && on >= top && memcmp(om, mod, top) == 0 && (on == top || om[top] == '.'))
      return b->imports->of[i];
  }
  return -1;
}

/* The module-level import binding identifier `id` where it is, as an index
 * in the file's imports (a function's own import: pyfacts__local_via); -1
 * when none does. *bound (may be NULL): the binding, or NULL. */
static int32_t pyfacts__via(const PyfBuild *b, TSNode id, const PyBinding **bound) {
  if (bound) *bound = NULL;
  if (!b->imports || pysym_of(id) != PYSYM_IDENTIFIER) return -1;
  uint32_t s = ts_node_start_byte(id), e = ts_node_end_byte(id);
  const PyBinding *bd = pyfile_lookup(b->py, b->py->text + s, e - s, s);
  if (!bd) return -1;
  if (bound) *bound = bd;
  return bd->module_scope ? b->imports->of[bd - b->py->bindings.items] : pyfacts__local_via(b, bd);
}

/* ---- walk ----------------------------------------------------------------- */

static int32_t pyfacts__owner(const PyfBuild *b) {
  return b->frames.len ? b->frames.items[b->frames.len - 1].owner : -1;
}

static bool pyfacts__in_main(const PyfBuild *b, uint32_t at) {
  return b->file->has_main && at >= b->file->main_start && at < b->file->main_end;
}

/* The callee spelled for the model, or NULL when it is no name. */
static char *pyfacts__callee(const PyfBuild *b, TSNode fn, PyCallKind *kind) {
  const PyFile *py = b->py;
  PySym s = pysym_of(fn);
  if (s == PYSYM_SUBSCRIPT) { /* `kernel[grid](...)`: a Triton launch calls the kernel */
    fn = pysym_child(fn, PYFIELD_VALUE);
    s = ts_node_is_null(fn) ? PYSYM_OTHER : pysym_of(fn);
    if (s != PYSYM_IDENTIFIER && s != PYSYM_ATTRIBUTE) return NULL;
  }
  if (s == PYSYM_IDENTIFIER) {
    uint32_t a = ts_node_start_byte(fn), e = ts_node_end_byte(fn);
    const PyBinding *bd = pyfile_lookup(py, py->text + a, e - a, a);
    *kind = bd ? PYCALL_IMPORTED : PYCALL_LOCAL;
    return bd ? xstrdup(bd->qualname) : xstrndup(py->text + a, e - a);
  }
  if (s != PYSYM_ATTRIBUTE) return NULL;
  TSNode obj = pysym_child(fn, PYFIELD_OBJECT), attr = pysym_child(fn, PYFIELD_ATTRIBUTE);
  if (ts_node_is_null(obj) || ts_node_is_null(attr)) return NULL;
  if (pysym_of(obj) == PYSYM_IDENTIFIER && ts_node_end_byte(obj) - ts_node_start_byte(obj) == 4 &&
      memcmp(py->text + ts_node_start_byte(obj), "self", 4) == 0) {
    *kind = PYCALL_SELF;
    return pyfile_node_text(py, attr);
  }
  if (pysym_of(obj) == PYSYM_CALL) {
    TSNode f = pysym_child(obj, PYFIELD_FUNCTION);
    if (!ts_node_is_null(f) && pysym_of(f) == PYSYM_IDENTIFIER && ts_node_end_byte(f) - ts_node_start_byte(f) == 5 &&
        memcmp(py->text + ts_node_start_byte(f), "super", 5) == 0) {
      *kind = PYCALL_SUPER;
      return pyfile_node_text(py, attr);
    }
    return NULL;
  }
  char *q = pyfile_qualname(py, fn);
  if (q) {
    *kind = PYCALL_IMPORTED;
    return q;
  }
  *kind = PYCALL_LOCAL;
  return pysyntax_name_text(py, fn);
}

/* Whether `call` sits in the body of a try statement one of whose except
 * clauses catches ImportError (or ModuleNotFoundError): a probe for an
 * installed package, as in `for p in REQUIRED: try: import_module(p)`. */
static bool pyfacts__import_probe(const PyfBuild *b, TSNode call) {
  TSNode prev = call;
  for (TSNode n = ts_node_parent(call); !ts_node_is_null(n); prev = n, n = ts_node_parent(n)) {
    PySym k = pysym_of(n);
    if (k == PYSYM_FUNCTION_DEFINITION || k == PYSYM_CLASS_DEFINITION || k == PYSYM_MODULE) return false;
    if (k == PYSYM_EXCEPT_CLAUSE || k == PYSYM_FINALLY_CLAUSE || k == PYSYM_ELSE_CLAUSE) return false;
    if (k != PYSYM_TRY_STATEMENT || !ts_node_eq(prev, pysym_child(n, PYFIELD_BODY))) continue;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
      TSNode c = ts_node_named_child(n, i);
      if (pysym_of(c) != PYSYM_EXCEPT_CLAUSE || !ts_node_named_child_count(c)) continue;
      char *t = pyfile_node_text(b->py, ts_node_named_child(c, 0));
      bool hit = t && (strstr(t, "ImportError") || strstr(t, "ModuleNotFoundError"));
      free(t);
      if (hit) return true;
    }
    return false;
  }
  return false;
}

static void pyfacts__dynamic(PyfBuild *b, TSNode call) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  TSNode first = ts_node_is_null(args) ? args : pysyntax_argument(b->py, args, "0|name");
  /* the module an object is defined in (`import_module(model.__module__)`,
   * VILA's packing helper) or the caller's own (`__name__`) is loaded
   * already: the call loads nothing new */
  if (!ts_node_is_null(first) && pysyntax_is_name(b->py, first, "__name__", 8)) return;
  if (!ts_node_is_null(first) && pysym_of(first) == PYSYM_ATTRIBUTE &&
      pysyntax_is_name(b->py, pysym_child(first, PYFIELD_ATTRIBUTE), "__module__", 10))
    return;
  /* a bare name probed under `except ImportError` is whether a package is
   * installed: project modules are named with their package */
  if (!ts_node_is_null(first) && pysym_of(first) == PYSYM_IDENTIFIER && pyfacts__import_probe(b, call)) return;
  char *v = ts_node_is_null(first) || pysym_of(first) != PYSYM_STRING ? NULL : pysyntax_string_value(b->py, first);
  if (v && !strchr(v, '{')) array_push(&b->out->dynamic_imports, v);
  else {
    free(v);
    b->out->dynamic_unknown = true;
  }
}

/* The attribute of `self.<attr>`, or NULL for any other expression. Caller frees. */
static char *pyfacts__self_attr_of(const PyfBuild *b, TSNode e) {
  if (ts_node_is_null(e) || pysym_of(e) != PYSYM_ATTRIBUTE) return NULL;
  TSNode obj = pysym_child(e, PYFIELD_OBJECT), attr = pysym_child(e, PYFIELD_ATTRIBUTE);
  if (ts_node_is_null(obj) || ts_node_is_null(attr) || !pysyntax_is_name(b->py, obj, "self", 4)) return NULL;
  return pyfile_node_text(b->py, attr);
}

/* `self.<attr> = <call>` directly in a method `__init__`: the attribute. */
static char *pyfacts__self_attr(const PyfBuild *b, TSNode call, int32_t owner) {
  if (owner < 0 || b->out->defs.items[owner].kind != PYDEF_METHOD || strcmp(b->out->defs.items[owner].name, "__init__") != 0)
    return NULL;
  TSNode asg = ts_node_parent(call);
  if (ts_node_is_null(asg) || pysym_of(asg) != PYSYM_ASSIGNMENT) return NULL;
  TSNode left = pysym_child(asg, PYFIELD_LEFT), right = pysym_child(asg, PYFIELD_RIGHT);
  if (ts_node_is_null(right) || !ts_node_eq(right, call)) return NULL;
  return pyfacts__self_attr_of(b, left);
}

/* The parameter of d with a False default (a switch) that expression e
 * names, or NULL. */
static const PyParam *pyfacts__switch_named(const PyfBuild *b, const PyDef *d, TSNode e) {
  for (size_t k = 0; pysym_of(e) == PYSYM_IDENTIFIER && k < d->params.len; k++)
    if (d->params.items[k].off_default && pysyntax_is_name(b->py, e, d->params.items[k].name, strlen(d->params.items[k].name)))
      return &d->params.items[k];
  return NULL;
}

/* Whether expression e is a switch of definition `owner`: one a call can pass on. */
static bool pyfacts__own_switch(const PyfBuild *b, int32_t owner, TSNode e) {
  return owner >= 0 && pyfacts__switch_named(b, &b->out->defs.items[owner], e);
}

/* What a call passes: how many positional arguments, the keywords not set
 * to a literal None, whether it spreads any, and which of its caller's
 * switches it passes on by name (PyFacts.forwards). */
static void pyfacts__arguments(const PyfBuild *b, TSNode call, PyCall *c) {
  TSNode args = pysym_child(call, PYFIELD_ARGUMENTS);
  if (ts_node_is_null(args) || pysym_of(args) != PYSYM_ARGUMENT_LIST) return; /* a generator argument: one */
  StrBuf kw, fwd;
  sb_init(&kw);
  sb_init(&fwd);
  uint32_t n = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < n; i++) {
    TSNode a = ts_node_named_child(args, i);
    const char *type = ts_node_type(a);
    if (pysym_of(a) == PYSYM_COMMENT) continue;
    if (strcmp(type, "list_splat") == 0 || strcmp(type, "dictionary_splat") == 0) {
      c->flags |= PYCALL_SPREAD;
    } else if (pysym_of(a) == PYSYM_KEYWORD_ARGUMENT) {
      TSNode name = pysym_child(a, PYFIELD_NAME), value = pysym_child(a, PYFIELD_VALUE);
      if (ts_node_is_null(name) || (!ts_node_is_null(value) && strcmp(ts_node_type(value), "none") == 0)) continue;
      sb_append(&kw, b->py->text + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
      sb_putc(&kw, ' ');
      if (pyfacts__own_switch(b, c->owner, value)) {
        sb_append(&fwd, b->py->text + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
        sb_putc(&fwd, '=');
        sb_append(&fwd, b->py->text + ts_node_start_byte(value), ts_node_end_byte(value) - ts_node_start_byte(value));
        sb_putc(&fwd, ' ');
      }
    } else {
      c->n_pos++;
    }
  }
  if (kw.len) c->keywords = sb_steal(&kw);
  else sb_free(&kw);
  if (fwd.len) {
    PyForward w = {c->start.byte, c->end.byte, sb_steal(&fwd)};
    array_push(&b->out->forwards, w);
  } else {
    sb_free(&fwd);
  }
}

static void pyfacts__call(PyfBuild *b, TSNode call) {
  TSNode fn = pysym_child(call, PYFIELD_FUNCTION);
  if (ts_node_is_null(fn)) return;
  PyCallKind kind;
  char *callee = pyfacts__callee(b, fn, &kind);
  if (!callee) return;
  if (b->loaders && kb_pattern_match(b->loaders->arg, callee)) pyfacts__dynamic(b, call);
  else if (b->loaders && kind == PYCALL_IMPORTED && kb_pattern_match(b->loaders->value, callee))
    b->out->dynamic_unknown = true; /* code a configuration names (`_target_:`) */
  const PyFile *py = b->py;
  uint32_t at = ts_node_start_byte(fn);
  PyCall c = {callee, kind, pyfacts__owner(b), pyfacts__in_main(b, at), 0,
              pyfacts__pos(b, at), pyfacts__pos(b, ts_node_end_byte(fn)), NULL, 0, NULL, NULL};
  if (pyfile_in_ranges(py->guarded.items, py->guarded.len, at)) c.flags |= PYCALL_GUARDED;
  if (pyfile_in_ranges(py->npu_aware.items, py->npu_aware.len, at)) c.flags |= PYCALL_NPU_AWARE;
  if (pyfile_in_ranges(py->cuda_gated.items, py->cuda_gated.len, at)) c.flags |= PYCALL_CUDA_GATED;
  if (pyfile_in_ranges(py->optional_only.items, py->optional_only.len, at)) c.flags |= PYCALL_OPTIONAL;
  if (pyfile_in_ranges(py->dead.items, py->dead.len, at) || pyfile_in_ranges(py->skip_conds.items, py->skip_conds.len, at))
    c.flags |= PYCALL_DEAD;
  c.self_attr = pyfacts__self_attr(b, call, c.owner);
  c.gate = pyfile_option_at(py, at);
  pyfacts__arguments(b, call, &c);
  array_push(&b->out->calls, c);
}

/* Whether a definition's decorators may run or register it (a route, an op
 * registration, a CLI command): any decorator but the plain wrappers of the
 * "plain-decorators" row (`@triton.jit`, `@torch.jit.script`,
 * `@staticmethod`, ...), which leave the definition to whoever calls it. */
static bool pyfacts__registers(const PyfBuild *b, TSNode decorated) {
  const KbEntry *plain = b->plain;
  PyChildren it;
  pysyntax_children(&it, decorated);
  bool any = false;
  for (TSNode d; !any && pysyntax_children_next(&it, &d);) {
    if (pysym_of(d) != PYSYM_DECORATOR) continue;
    TSNode e = ts_node_named_child(d, 0);
    if (pysym_of(e) == PYSYM_CALL) e = ts_node_child(e, 0);
    char *q = pyfile_qualname(b->py, e);
    if (!q) q = pyfile_node_text(b->py, e);
    any = !plain || !plain->arg || !q || !kb_pattern_match(plain->arg, q);
    free(q);
  }
  pysyntax_children_end(&it);
  return any;
}

/* The operator of a comparison `<name> is None` ("is") or `<name> is not
 * None` ("is not"), else NULL. */
static const char *pyfacts__none_compare(const PyfBuild *b, TSNode c, const char *name, size_t len) {
  if (pysym_of(c) != PYSYM_COMPARISON_OPERATOR || ts_node_named_child_count(c) != 2 || ts_node_child_count(c) != 3)
    return NULL;
  TSNode l = ts_node_named_child(c, 0), r = ts_node_named_child(c, 1);
  if (!pysyntax_is_name(b->py, l, name, len) || strcmp(ts_node_type(r), "none") != 0) return NULL;
  const char *op = ts_node_type(ts_node_child(c, 1));
  return strcmp(op, "is") == 0 || strcmp(op, "is not") == 0 ? op : NULL;
}

/* Whether if statement st tests `<name> is None` (not `is not`). */
static bool pyfacts__is_none_test(const PyfBuild *b, TSNode st, const char *name, size_t len) {
  const char *op = pyfacts__none_compare(b, pysym_child(st, PYFIELD_CONDITION), name, len);
  return op && strcmp(op, "is") == 0;
}

/* The fallback of a conditional expression that picks parameter `name`
 * unless it is None (`name if name is not None else <fallback>`, `<fallback>
 * if name is None else name`), or a null node. */
static TSNode pyfacts__none_fallback(const PyfBuild *b, TSNode e, const char *name, size_t len) {
  if (pysym_of(e) != PYSYM_CONDITIONAL_EXPRESSION || ts_node_named_child_count(e) != 3) return (TSNode){0};
  TSNode then = ts_node_named_child(e, 0), other = ts_node_named_child(e, 2);
  const char *op = pyfacts__none_compare(b, ts_node_named_child(e, 1), name, len);
  if (op && strcmp(op, "is not") == 0 && pysyntax_is_name(b->py, then, name, len)) return other;
  if (op && strcmp(op, "is") == 0 && pysyntax_is_name(b->py, other, name, len)) return then;
  return (TSNode){0};
}

/* The branches of parameter p that only some callers run, from the
 * statements directly in the body of function fn: for a None default, the
 * first `if <name> is None:` without elif or else, or the fallback of the
 * first assignment whose value picks the parameter unless it is None
 * (`self.device = device if device is not None else "cuda"`): what runs
 * only when the caller left the default, p's none range; for a False
 * default, the body of the first `if <name>:` (what runs only when a caller
 * turned it on: its on range; the else is what runs otherwise). */
static void pyfacts__param_blocks(const PyfBuild *b, TSNode fn, PyParam *p, bool none_default) {
  TSNode body = pysym_child(fn, PYFIELD_BODY);
  size_t len = strlen(p->name);
  uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; i++) {
    TSNode st = ts_node_named_child(body, i);
    TSNode asg = none_default && pysym_of(st) == PYSYM_EXPRESSION_STATEMENT ? ts_node_named_child(st, 0) : (TSNode){0};
    TSNode fb = pysym_of(asg) == PYSYM_ASSIGNMENT ? pyfacts__none_fallback(b, pysym_child(asg, PYFIELD_RIGHT), p->name, len)
                                                  : (TSNode){0};
    if (!ts_node_is_null(fb)) {
      p->none_start = ts_node_start_byte(fb);
      p->none_end = ts_node_end_byte(fb);
      return;
    }
    if (pysym_of(st) != PYSYM_IF_STATEMENT) continue;
    if (none_default && ts_node_is_null(pysym_child(st, PYFIELD_ALTERNATIVE)) && pyfacts__is_none_test(b, st, p->name, len)) {
      p->none_start = ts_node_start_byte(st);
      p->none_end = ts_node_end_byte(st);
      return;
    }
    TSNode then = pysym_child(st, PYFIELD_CONSEQUENCE);
    if (!none_default && !ts_node_is_null(then) && pysyntax_is_name(b->py, pysym_child(st, PYFIELD_CONDITION), p->name, len)) {
      p->on_start = ts_node_start_byte(then);
      p->on_end = ts_node_end_byte(then);
      return;
    }
  }
}

/* The parameters with a default of function fn, in order. */
static void pyfacts__params(const PyfBuild *b, TSNode fn, PyDef *d) {
  TSNode ps = pysym_child(fn, PYFIELD_PARAMETERS);
  uint32_t n = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps), index = 0;
  bool keyword_only = false;
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(ps, i);
    const char *type = ts_node_type(c);
    if (strcmp(type, "positional_separator") == 0 || pysym_of(c) == PYSYM_COMMENT) continue;
    if (strcmp(type, "keyword_separator") == 0 || strcmp(type, "list_splat_pattern") == 0) {
      keyword_only = true;
      continue;
    }
    uint32_t at = keyword_only ? PYPARAM_KEYWORD_ONLY : index++;
    PySym k = pysym_of(c);
    if (k != PYSYM_DEFAULT_PARAMETER && k != PYSYM_TYPED_DEFAULT_PARAMETER) continue;
    TSNode name = pysym_child(c, PYFIELD_NAME), value = pysym_child(c, PYFIELD_VALUE);
    if (ts_node_is_null(name) || ts_node_is_null(value) || pysym_of(name) != PYSYM_IDENTIFIER) continue;
    PyParam p = {pyfile_node_text(b->py, name), at, ts_node_start_byte(value), ts_node_end_byte(value), 0, 0, 0, 0,
                 false, NULL};
    const char *vt = ts_node_type(value);
    if (strcmp(vt, "none") == 0 || strcmp(vt, "false") == 0) pyfacts__param_blocks(b, fn, &p, strcmp(vt, "none") == 0);
    p.off_default = strcmp(vt, "false") == 0;
    array_push(&d->params, p);
  }
}

/* The attributes `__init__` sets from its parameters: `self.<attr> = <name>`
 * statements directly in its body (the last one of a parameter counts). */
static void pyfacts__param_attrs(const PyfBuild *b, TSNode fn, PyDef *d) {
  TSNode body = pysym_child(fn, PYFIELD_BODY);
  uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n && d->params.len; i++) {
    TSNode st = ts_node_named_child(body, i);
    TSNode asg = pysym_of(st) == PYSYM_EXPRESSION_STATEMENT ? ts_node_named_child(st, 0) : (TSNode){0};
    if (pysym_of(asg) != PYSYM_ASSIGNMENT) continue;
    TSNode left = pysym_child(asg, PYFIELD_LEFT), right = pysym_child(asg, PYFIELD_RIGHT);
    char *attr = pyfacts__self_attr_of(b, left);
    for (size_t k = 0; attr && k < d->params.len; k++) {
      PyParam *p = &d->params.items[k];
      if (!pysyntax_is_name(b->py, right, p->name, strlen(p->name))) continue;
      free(p->attr);
      p->attr = xstrdup(attr);
    }
    free(attr);
  }
}

/* A top-level function or class, or a method of a top-level class, becomes
 * a definition; anything nested belongs to its owner. */
static void pyfacts__def(PyfBuild *b, TSNode n, TSNode parent, bool is_class) {
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  bool decorated = pysym_of(parent) == PYSYM_DECORATED_DEFINITION;
  if (decorated) start = ts_node_start_byte(parent);
  const PyfFrame *top = b->frames.len ? &b->frames.items[b->frames.len - 1] : NULL;
  bool method = top && top->top_class && !is_class && b->frames.len == 1;
  TSNode name = pysym_child(n, PYFIELD_NAME);
  if ((top && !method) || ts_node_is_null(name)) {
    PyfFrame f = {end, pyfacts__owner(b), false};
    array_push(&b->frames, f);
    return;
  }
  PyDef d = {0};
  d.name = pyfile_node_text(b->py, name);
  d.kind = is_class ? PYDEF_CLASS : method ? PYDEF_METHOD : PYDEF_FUNCTION;
  d.cls = method ? top->owner : -1;
  d.start = start;
  d.end = end;
  d.at = pyfacts__pos(b, ts_node_start_byte(name));
  d.decorated = decorated && pyfacts__registers(b, parent);
  TSNode sup = is_class ? pysym_child(n, PYFIELD_SUPERCLASSES) : (TSNode){0};
  uint32_t ns = ts_node_is_null(sup) ? 0 : ts_node_named_child_count(sup);
  for (uint32_t i = 0; i < ns; i++) {
    PyCallKind k;
    char *base = pyfacts__callee(b, ts_node_named_child(sup, i), &k);
    if (base) array_push(&d.bases, base);
  }
  if (!is_class) pyfacts__params(b, n, &d);
  if (method && strcmp(d.name, "__init__") == 0) pyfacts__param_attrs(b, n, &d);
  array_push(&b->out->defs, d);
  PyfFrame f = {end, (int32_t)b->out->defs.len - 1, is_class};
  array_push(&b->frames, f);
}

/* `__all__ = [...]`, `__all__ += [...]` at module level. */
static void pyfacts__all(PyfBuild *b, TSNode asg) {
  TSNode left = pysym_child(asg, PYFIELD_LEFT), right = pysym_child(asg, PYFIELD_RIGHT);
  if (ts_node_is_null(left) || ts_node_is_null(right) || pysym_of(left) != PYSYM_IDENTIFIER) return;
  uint32_t s = ts_node_start_byte(left), e = ts_node_end_byte(left);
  if (e - s != 7 || memcmp(b->py->text + s, "__all__", 7) != 0) return;
  b->out->has_all = true;
  uint32_t n = ts_node_named_child_count(right);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(right, i);
    char *v = pysym_of(c) == PYSYM_STRING ? pysyntax_string_value(b->py, c) : NULL;
    if (v) array_push(&b->out->all, v);
  }
}

/* Whether a top-level statement is a call statement (`main()`, `await
 * run()`; a docstring or an assignment is not one). */
static bool pyfacts__call_statement(TSNode stmt) {
  if (strcmp(ts_node_type(stmt), "expression_statement") != 0 || !ts_node_named_child_count(stmt)) return false;
  TSNode e = ts_node_named_child(stmt, 0);
  if (strcmp(ts_node_type(e), "await") == 0 && ts_node_named_child_count(e)) e = ts_node_named_child(e, 0);
  return strcmp(ts_node_type(e), "call") == 0;
}

/* Whether the module's docstring (its first statement, a string) says how
 * to run it: "Usage:", or a `python` command line (FastChat's
 * topic_clustering.py: "python3 topic_clustering.py --in arena.json"). */
static bool pyfacts__usage_doc(const PyFile *py, TSNode first) {
  if (ts_node_is_null(first) || strcmp(ts_node_type(first), "expression_statement") != 0) return false;
  TSNode str = ts_node_named_child(first, 0);
  if (ts_node_is_null(str) || pysym_of(str) != PYSYM_STRING) return false;
  uint32_t s = ts_node_start_byte(str), e = ts_node_end_byte(str);
  const char *t = py->text + s;
  return memmem(t, e - s, "Usage", 5) || memmem(t, e - s, "usage:", 6) || memmem(t, e - s, "python ", 7) ||
         memmem(t, e - s, "python3 ", 8) || memmem(t, e - s, "torchrun ", 9);
}

/* In one pass over the top-level statements: the docstring's usage, the
 * first `if __name__ == "__main__":` of the file, and whether module code
 * holds a call statement. */
static void pyfacts__main(const PyFile *py, PyFacts *f) {
  ForestTops it = forest_tops(py->forest, true);
  bool first = true;
  for (TSNode stmt; !(f->has_main && f->runs_calls) && forest_next_top(&it, &stmt); first = false) {
    if (first) f->usage_doc = pyfacts__usage_doc(py, stmt);
    f->runs_calls = f->runs_calls || pyfacts__call_statement(stmt);
    TSNode cond = pysym_of(stmt) == PYSYM_IF_STATEMENT ? pysym_child(stmt, PYFIELD_CONDITION) : (TSNode){0};
    if (f->has_main || ts_node_is_null(cond)) continue;
    uint32_t s = ts_node_start_byte(cond), e = ts_node_end_byte(cond);
    const char *t = py->text + s;
    if (!memmem(t, e - s, "__name__", 8) || !memmem(t, e - s, "__main__", 8)) continue;
    f->has_main = true;
    f->main_start = ts_node_start_byte(stmt);
    f->main_end = ts_node_end_byte(stmt);
  }
}

static void pyfacts__star(PyfBuild *b, TSNode stmt) {
  if (b->frames.len) return;
  uint32_t n = ts_node_named_child_count(stmt);
  bool star = false;
  for (uint32_t i = 0; i < n; i++) star = star || strcmp(ts_node_type(ts_node_named_child(stmt, i)), "wildcard_import") == 0;
  TSNode mod = pysym_child(stmt, PYFIELD_MODULE_NAME);
  if (star && !ts_node_is_null(mod)) array_push(&b->out->star_imports, pyfile_node_text(b->py, mod));
}

/* Whether an identifier binds a name where it stands (assignment target,
 * parameter, loop variable, `as` target). */
static bool pyfacts__binds(TSFieldId field, TSNode parent) {
  PySym ps = pysym_of(parent);
  const char *t = ts_node_type(parent);
  if ((ps == PYSYM_ASSIGNMENT || ps == PYSYM_FOR_STATEMENT || strcmp(t, "augmented_assignment") == 0) &&
      field == pysym_field_id(PYFIELD_LEFT))
    return true;
  if ((ps == PYSYM_DEFAULT_PARAMETER || ps == PYSYM_TYPED_DEFAULT_PARAMETER) && field == pysym_field_id(PYFIELD_NAME))
    return true;
  return strcmp(t, "parameters") == 0 || strcmp(t, "typed_parameter") == 0 || strcmp(t, "pattern_list") == 0 ||
         strcmp(t, "tuple_pattern") == 0 || strcmp(t, "as_pattern_target") == 0 || strcmp(t, "lambda_parameters") == 0;
}

/* Whether an identifier that binds nothing is read there (`f(x)`, `@f`,
 * `g(f)`), so Python looks it up in the scopes: not the name of a keyword
 * argument (`g(f=1)` names g's parameter) or of a global statement. */
static bool pyfacts__read(TSFieldId field, TSNode parent) {
  const char *t = ts_node_type(parent);
  if (strcmp(t, "keyword_argument") == 0) return field != pysym_field_id(PYFIELD_NAME);
  return strcmp(t, "global_statement") != 0 && strcmp(t, "nonlocal_statement") != 0;
}

/* Whether identifier n (below `up`, its ancestors innermost last, `depth`
 * of them) is a class a type test names: the second argument of
 * `isinstance(x, C)` or `issubclass(t, C)`, alone or in a tuple. Testing
 * against a class neither builds it nor calls it. */
static bool pyfacts__type_tested(const PyfBuild *b, TSNode n, const TSNode *up, size_t depth) {
  size_t k = depth;
  if (k >= 1 && strcmp(ts_node_type(up[k - 1]), "tuple") == 0) n = up[--k];
  if (k < 2 || pysym_of(up[k - 1]) != PYSYM_ARGUMENT_LIST || pysym_of(up[k - 2]) != PYSYM_CALL) return false;
  if (ts_node_named_child_count(up[k - 1]) != 2 || !ts_node_eq(ts_node_named_child(up[k - 1], 1), n)) return false;
  TSNode fn = pysym_child(up[k - 2], PYFIELD_FUNCTION);
  return pysyntax_is_name(b->py, fn, "isinstance", 10) || pysyntax_is_name(b->py, fn, "issubclass", 10);
}

/* The key of the registry table entry whose value holds n, a name module
 * code mentions: a module-level `NAME = {"key": value, ...}` (the pair
 * directly in the dict, the dict the assignment's right side), with a
 * string key; NULL elsewhere, in a nested pair (an inner table's keys
 * would be what a command names) or under a computed key. `up`: n's
 * ancestors, outermost first (the file's module or the top-level
 * statement the walk started at). Caller frees. */
static char *pyfacts__registry_key(const PyfBuild *b, TSNode n, const TSNode *up, size_t depth) {
  size_t k = pysym_of(up[0]) == PYSYM_MODULE ? 1 : 0;
  if (depth < k + 4 || pysym_of(up[k]) != PYSYM_EXPRESSION_STATEMENT || pysym_of(up[k + 1]) != PYSYM_ASSIGNMENT ||
      pysym_of(up[k + 2]) != PYSYM_DICTIONARY || pysym_of(up[k + 3]) != PYSYM_PAIR)
    return NULL;
  TSNode right = pysym_child(up[k + 1], PYFIELD_RIGHT), value = pysym_child(up[k + 3], PYFIELD_VALUE);
  TSNode key = pysym_child(up[k + 3], PYFIELD_KEY);
  TSNode below = depth > k + 4 ? up[k + 4] : n;
  if (ts_node_is_null(right) || ts_node_start_byte(right) != ts_node_start_byte(up[k + 2]) || ts_node_is_null(value) ||
      ts_node_start_byte(below) != ts_node_start_byte(value) || ts_node_is_null(key) || pysym_of(key) != PYSYM_STRING)
    return NULL;
  for (size_t i = k + 4; i < depth; i++)
    if (pysym_of(up[i]) == PYSYM_PAIR) return NULL;
  return pysyntax_string_value(b->py, key);
}

/* Whether a name lies in a type annotation (`manager: ModelManager`,
 * `-> Optional[Stream]`): it names a type and builds nothing, so it is no
 * use of the project's definition of that name. `up`: the name's
 * ancestors, outermost first. */
static bool pyfacts__in_annotation(const TSNode *up, size_t depth) {
  for (size_t i = depth; i-- > 0;) {
    PySym s = pysym_of(up[i]);
    if (s == PYSYM_TYPE) return true;
    if (pysym_is_statement(up[i]) || s == PYSYM_CALL || s == PYSYM_ARGUMENT_LIST) return false;
  }
  return false;
}

static void pyfacts__name(PyfBuild *b, const TSTreeCursor *cur, TSNode n, PySym sym, const TSNode *up, size_t depth) {
  TSFieldId field = ts_tree_cursor_current_field_id(cur);
  TSNode parent = up[depth - 1];
  PySym ps = pysym_of(parent);
  if (sym == PYSYM_IDENTIFIER && pyfacts__type_tested(b, n, up, depth)) return;
  if (pyfacts__in_annotation(up, depth)) return;
  if (sym == PYSYM_IDENTIFIER && b->frames.len && pyfacts__binds(field, parent)) {
    PyRef r = {pyfile_node_text(b->py, n), pyfacts__owner(b), -1, false, false, false};
    array_push(&b->bound, r);
  }
  if (sym == PYSYM_IDENTIFIER && field == pysym_field_id(PYFIELD_NAME) &&
      (ps == PYSYM_FUNCTION_DEFINITION || ps == PYSYM_CLASS_DEFINITION))
    return; /* a definition's own name is no use of it */
  if (sym == PYSYM_IDENTIFIER && ps == PYSYM_ATTRIBUTE && field == pysym_field_id(PYFIELD_ATTRIBUTE))
    return; /* the attribute's own visit records it, with its base */
  int32_t via = -1;
  bool plain = false, attr = false;
  const PyBinding *bound = NULL; /* a plain name's import binding */
  if (sym == PYSYM_ATTRIBUTE) {
    TSNode a = pysym_child(n, PYFIELD_ATTRIBUTE);
    if (ts_node_is_null(a)) return;
    /* the base of the chain: `torch.distributed.all_gather` is reached
     * through `torch`; a few links at most (each link of a long chain is
     * visited: following every one to its base would be quadratic) */
    TSNode base = pysym_child(n, PYFIELD_OBJECT);
    for (int hop = 0; hop < 8 && !ts_node_is_null(base) && pysym_of(base) == PYSYM_ATTRIBUTE; hop++)
      base = pysym_child(base, PYFIELD_OBJECT);
    if (!ts_node_is_null(base)) via = pyfacts__via(b, base, NULL);
    attr = via == -1;
    n = a;
  } else if (ps == PYSYM_DOTTED_NAME) {
    via = pyfacts__statement_via(b, parent);
    if (via == PYFACTS_OWN_IMPORT) return;
  } else if (!pyfacts__binds(field, parent)) {
    via = pyfacts__via(b, n, &bound);
    plain = sym == PYSYM_IDENTIFIER && via == -1 && pyfacts__read(field, parent);
  }
  uint32_t at = ts_node_start_byte(n);
  int32_t owner = pyfacts__owner(b);
  if (owner < 0 && pyfacts__in_main(b, at)) owner = PYREF_MAIN;
  /* an import statement's mention neither keys nor unkeys the name: the
   * table's `from .models.beta import BetaVLM` binds what its entries use */
  char *key = owner == PYREF_MODULE && ps != PYSYM_DOTTED_NAME ? pyfacts__registry_key(b, n, up, depth) : NULL;
  pyfacts__ref(b, owner, at, ts_node_end_byte(n), via, plain, attr, key, ps == PYSYM_DOTTED_NAME);
  free(key);
  /* (the alias in its own import statement binds it: no use) */
  if (via >= 0 && bound && strcmp(ts_node_type(parent), "aliased_import") != 0)
    pyfacts__alias_use(b, bound, owner, via, plain);
}

/* The gate of one operand of a branch's condition, if it is a switch: a
 * parameter of d with a False default, or an attribute of a name
 * (`self.is_vllm` in a method, `gpt.is_vllm`). */
static void pyfacts__gate_operand(const PyfBuild *b, TSNode e, TSNode then, const PyDef *d) {
  PyGate g = {NULL, false, false, ts_node_start_byte(then), ts_node_end_byte(then)};
  if (pysym_of(e) == PYSYM_IDENTIFIER) {
    const PyParam *p = pyfacts__switch_named(b, d, e);
    g.name = p ? xstrdup(p->name) : NULL;
  } else if (pysym_of(e) == PYSYM_ATTRIBUTE && pysym_of(pysym_child(e, PYFIELD_OBJECT)) == PYSYM_IDENTIFIER) {
    g.attr = true;
    g.self = d->kind == PYDEF_METHOD && pysyntax_is_name(b->py, pysym_child(e, PYFIELD_OBJECT), "self", 4);
    g.name = pyfile_node_text(b->py, g.self ? pysym_child(e, PYFIELD_ATTRIBUTE) : e);
  }
  if (g.name) array_push(&b->out->gates, g);
}

/* The gates an `if` or `elif` opens in its definition: its condition's
 * operands, through parentheses and `and` (an `or` or `not` opens none). */
static void pyfacts__gates(PyfBuild *b, TSNode branch) {
  int32_t owner = pyfacts__owner(b);
  if (owner < 0 || b->out->defs.items[owner].kind == PYDEF_CLASS) return;
  TSNode then = pysym_child(branch, PYFIELD_CONSEQUENCE);
  TSNode todo[16];
  size_t n = 0;
  todo[n++] = pysym_child(branch, PYFIELD_CONDITION);
  while (n && !ts_node_is_null(then)) {
    TSNode e = todo[--n];
    if (ts_node_is_null(e)) continue;
    if (pysym_of(e) == PYSYM_PARENTHESIZED_EXPRESSION && ts_node_named_child_count(e) == 1) {
      todo[n++] = ts_node_named_child(e, 0);
      continue;
    }
    TSNode op = pysym_child(e, PYFIELD_OPERATOR);
    if (strcmp(ts_node_type(e), "boolean_operator") == 0 && !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0) {
      if (n + 2 <= sizeof todo / sizeof todo[0]) {
        todo[n++] = pysym_child(e, PYFIELD_RIGHT);
        todo[n++] = pysym_child(e, PYFIELD_LEFT);
      }
      continue;
    }
    pyfacts__gate_operand(b, e, then, &b->out->defs.items[owner]);
  }
}

/* Visits n below `up` (its ancestors, innermost last, `depth` >= 1 of them). */
static void pyfacts__visit(PyfBuild *b, const TSTreeCursor *cur, TSNode n, const TSNode *up, size_t depth) {
  TSNode parent = up[depth - 1];
  uint32_t at = ts_node_start_byte(n);
  while (b->frames.len && at >= b->frames.items[b->frames.len - 1].end) b->frames.len--;
  PySym sym = pysym_of(n);
  switch (sym) {
  case PYSYM_FUNCTION_DEFINITION: pyfacts__def(b, n, parent, false); break;
  case PYSYM_CLASS_DEFINITION: pyfacts__def(b, n, parent, true); break;
  case PYSYM_CALL: pyfacts__call(b, n); break;
  case PYSYM_IMPORT_FROM_STATEMENT: pyfacts__star(b, n); break;
  case PYSYM_IF_STATEMENT:
  case PYSYM_ELIF_CLAUSE: pyfacts__gates(b, n); break;
  case PYSYM_ASSIGNMENT:
    if (!b->frames.len) pyfacts__all(b, n);
    break;
  case PYSYM_IDENTIFIER:
  case PYSYM_ATTRIBUTE: pyfacts__name(b, cur, n, sym, up, depth); break;
  default:
    if (!b->frames.len && strcmp(ts_node_type(n), "augmented_assignment") == 0) pyfacts__all(b, n);
    break;
  }
}

static void pyfacts__walk(PyfBuild *b, TSNode root) {
  Array(TSNode) parents = {0};
  array_push(&parents, root);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  bool more = ts_tree_cursor_goto_first_child(&cur);
  while (more) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    pyfacts__visit(b, &cur, n, parents.items, parents.len);
    if (ts_tree_cursor_goto_first_child(&cur)) {
      array_push(&parents, n);
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

/* An open-addressing set of the (owner, name) pairs of `bound`: index + 1
 * per slot, 2x the pairs at least. Caller frees. */
static size_t *pyfacts__bound_set(const PyfBuild *b, size_t *n_out) {
  size_t n = 16;
  while (n < 2 * b->bound.len) n *= 2;
  size_t *set = xcalloc(n, sizeof *set);
  for (size_t k = 0; k < b->bound.len; k++) {
    const PyRef *r = &b->bound.items[k];
    size_t i = pyfacts__ref_hash(r->owner, r->name, strlen(r->name)) & (n - 1);
    while (set[i]) i = (i + 1) & (n - 1);
    set[i] = k + 1;
  }
  *n_out = n;
  return set;
}

static bool pyfacts__is_bound(const PyfBuild *b, const size_t *set, size_t n, int32_t owner, const char *s,
                              size_t len) {
  for (size_t i = pyfacts__ref_hash(owner, s, len) & (n - 1); set[i]; i = (i + 1) & (n - 1)) {
    const PyRef *r = &b->bound.items[set[i] - 1];
    if (r->owner == owner && strlen(r->name) == len && memcmp(r->name, s, len) == 0) return true;
  }
  return false;
}

/* A call whose base name the function binds itself (`ring = len;
 * ring([])`) is not the module's `ring`: it is dropped (unknown), or for
 * an attribute of it (`layer.init_gpu()`) kept as a member call, which
 * names a method without saying whose. */
static void pyfacts__drop_shadowed(PyfBuild *b) {
  size_t n_set = 0, *set = pyfacts__bound_set(b, &n_set);
  size_t w = 0;
  for (size_t i = 0; i < b->out->calls.len; i++) {
    PyCall *c = &b->out->calls.items[i];
    bool shadowed = false;
    if (c->owner >= 0 && (c->kind == PYCALL_IMPORTED || c->kind == PYCALL_LOCAL)) {
      /* the base as spelled: the callee of a local call, the import's local name otherwise */
      uint32_t s = c->start.byte, e = s;
      while (e < b->py->len && (isalnum((unsigned char)b->py->text[e]) || b->py->text[e] == '_')) e++;
      shadowed = pyfacts__is_bound(b, set, n_set, c->owner, b->py->text + s, e - s);
    }
    if (shadowed && strchr(c->callee, '.') && c->kind == PYCALL_LOCAL) c->kind = PYCALL_MEMBER, shadowed = false;
    if (shadowed) {
      free(c->callee);
      free(c->self_attr);
      free(c->keywords);
      free(c->gate);
    } else {
      b->out->calls.items[w++] = *c;
    }
  }
  b->out->calls.len = w;
  free(set);
}

/* Whether byte `at` lies in a gate of its definition. */
static bool pyfacts__gated_at(const PyFacts *f, uint32_t at) {
  for (size_t i = 0; i < f->gates.len; i++)
    if (at >= f->gates.items[i].start && at < f->gates.items[i].end) return true;
  return false;
}

static void pyfacts__imports(PyfBuild *b) {
  const PyFile *py = b->py;
  for (size_t i = 0; i < py->bindings.len; i++) {
    const PyBinding *bd = &py->bindings.items[i];
    bool dead = pyfile_in_ranges(py->dead.items, py->dead.len, bd->def_byte); /* `if TYPE_CHECKING:`, torch 1.x */
    if (!bd->module_scope) { /* a function's own import: the module loads when that runs */
      if (dead) continue;
      array_push(&b->out->dynamic_imports, xstrndup(py->text + bd->module_start, bd->module_end - bd->module_start));
      if (bd->from_import) array_push(&b->out->dynamic_imports, xstrdup(bd->qualname));
      if (pyfacts__gated_at(b->out, bd->def_byte)) {
        PyGatedImport g = {xstrndup(py->text + bd->module_start, bd->module_end - bd->module_start), bd->def_byte};
        array_push(&b->out->gated, g);
        if (bd->from_import) array_push(&b->out->gated, ((PyGatedImport){xstrdup(bd->qualname), bd->def_byte}));
      }
      continue;
    }
    PyFactImport im = {0};
    im.local = xstrdup(bd->local);
    im.qualname = xstrdup(bd->qualname);
    im.module = xstrndup(py->text + bd->module_start, bd->module_end - bd->module_start);
    im.from_import = bd->from_import;
    im.guarded = pyfile_in_ranges(py->guarded.items, py->guarded.len, bd->def_byte);
    im.top = pyfacts__pos(b, bd->def_byte).col == 0;
    im.lazy = dead;
    uint32_t s = bd->from_import && bd->name_end ? bd->name_start : bd->module_start;
    uint32_t e = bd->from_import && bd->name_end ? bd->name_end : bd->module_end;
    im.start = pyfacts__pos(b, s);
    im.end = pyfacts__pos(b, e);
    array_push(&b->out->imports, im);
  }
}

/* ---- statements ------------------------------------------------------------ */

/* One top-level statement's facts as its walk found them: definitions
 * (their owner and class indices count from the statement's first),
 * calls, names, star and dynamic imports, `__all__`. Kept between
 * versions with what they read outside the statement (`context`): the
 * part of the `__main__` block and of the guarded, NPU-aware, dead and
 * skip-condition ranges inside it, relative to its start. */
typedef Array(int64_t) PyfContext;

typedef struct {
  uint64_t hash;           /* of the statement's text (its member's bytes) */
  uint32_t len;
  uint32_t start, row;     /* the member's first byte and row then */
  PyfContext context;
  PyFacts facts;
} PyfPart;

struct PyFactsCache {
  char *key;               /* the file facts the parts were made with */
  Array(PyfPart) parts;    /* in document order */
};

static void pyfacts__release(PyFacts *f);

static void pyfacts__part_free(PyfPart *p) {
  array_free(&p->context);
  pyfacts__release(&p->facts);
}

PyFactsCache *pyfacts_cache_new(void) { return xcalloc(1, sizeof(PyFactsCache)); }

void pyfacts_cache_free(PyFactsCache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->parts.len; i++) pyfacts__part_free(&c->parts.items[i]);
  array_free(&c->parts);
  free(c->key);
  free(c);
}

static void pyfacts__context_ranges(PyfContext *ctx, const ByteRange *r, size_t n, uint32_t s, uint32_t e) {
  size_t at = ctx->len;
  array_push(ctx, 0);
  for (size_t i = 0; i < n; i++)
    if (r[i].start < e && r[i].end > s) {
      array_push(ctx, (int64_t)r[i].start - s);
      array_push(ctx, (int64_t)r[i].end - s);
      ctx->items[at]++;
    }
}

/* What a statement's facts read outside it, relative to its start. */
static void pyfacts__context(const PyFile *py, const PyFacts *f, uint32_t s, uint32_t e, PyfContext *ctx) {
  bool main = f->has_main && f->main_start < e && f->main_end > s;
  array_push(ctx, main ? (int64_t)f->main_start - s : -1);
  array_push(ctx, main ? (int64_t)f->main_end - s : -1);
  pyfacts__context_ranges(ctx, py->guarded.items, py->guarded.len, s, e);
  pyfacts__context_ranges(ctx, py->npu_aware.items, py->npu_aware.len, s, e);
  pyfacts__context_ranges(ctx, py->dead.items, py->dead.len, s, e);
  pyfacts__context_ranges(ctx, py->skip_conds.items, py->skip_conds.len, s, e);
}

static bool pyfacts__same_context(const PyfPart *p, const PyfContext *ctx) {
  return p->context.len == ctx->len && memcmp(p->context.items, ctx->items, ctx->len * sizeof *ctx->items) == 0;
}

/* Whether a ref's name matches one of the '|' alternatives of `words`;
 * `bare`: not a ref whose every mention is an attribute of an object (the
 * builtin `eval(...)`, not a module's `model.eval()`). */
static bool pyfacts__refs_name(const PyFacts *f, const char *words, bool bare) {
  for (size_t k = 0; words && k < f->refs.len; k++)
    if (!(bare && f->refs.items[k].attr) && kb_pattern_match(words, f->refs.items[k].name)) return true;
  return false;
}

/* The walk of one statement into a part. */
static void pyfacts__part_build(const PyFile *py, const PyFacts *file, const PyfLines *lines, const KbEntry *const rows[2],
                                const PyfImportIndex *imports, TSNode root, PyFacts *out) {
  PyfBuild b = {py, out, file, lines, {0}, {NULL, 0, 0}, {0}, 0, 0, 0, false, rows[0], rows[1], imports};
  pyfacts__walk(&b, root);
  pyfacts__drop_shadowed(&b);
  /* read by every project link: decided here, once per statement's text */
  out->names_cli = pyfacts__refs_name(out, kb_template("cli-parser-names"), false);
  out->names_eval = pyfacts__refs_name(out, kb_template("names-by-string"), true);
  const KbEntry *training = kb_lookup(KB_DETECTOR, "training-calls", NULL, 0);
  for (size_t k = 0; training && training->arg && k < out->calls.len && !out->training_call; k++)
    out->training_call = kb_pattern_match(training->arg, out->calls.items[k].callee);
  for (size_t i = 0; i < b.bound.len; i++) free(b.bound.items[i].name);
  array_free(&b.bound);
  array_free(&b.frames);
  free(b.seen.slots);
}

static void pyfacts__shift_pos(PyPos *p, int64_t d, int64_t dr) {
  p->byte = (uint32_t)(p->byte + d);
  p->row = (uint32_t)(p->row + dr);
}

/* A kept part moved with its statement (columns stay: statements start a line). */
static void pyfacts__part_shift(PyfPart *p, uint32_t start, uint32_t row) {
  int64_t d = (int64_t)start - p->start, dr = (int64_t)row - p->row;
  for (size_t i = 0; i < p->facts.defs.len; i++) {
    PyDef *x = &p->facts.defs.items[i];
    x->start = (uint32_t)(x->start + d);
    x->end = (uint32_t)(x->end + d);
    pyfacts__shift_pos(&x->at, d, dr);
    for (size_t k = 0; k < x->params.len; k++) {
      PyParam *q = &x->params.items[k];
      q->dflt_start = (uint32_t)(q->dflt_start + d);
      q->dflt_end = (uint32_t)(q->dflt_end + d);
      if (q->none_end) {
        q->none_start = (uint32_t)(q->none_start + d);
        q->none_end = (uint32_t)(q->none_end + d);
      }
      if (q->on_end) {
        q->on_start = (uint32_t)(q->on_start + d);
        q->on_end = (uint32_t)(q->on_end + d);
      }
    }
  }
  for (size_t i = 0; i < p->facts.calls.len; i++) {
    pyfacts__shift_pos(&p->facts.calls.items[i].start, d, dr);
    pyfacts__shift_pos(&p->facts.calls.items[i].end, d, dr);
  }
  for (size_t i = 0; i < p->facts.gates.len; i++) {
    p->facts.gates.items[i].start = (uint32_t)(p->facts.gates.items[i].start + d);
    p->facts.gates.items[i].end = (uint32_t)(p->facts.gates.items[i].end + d);
  }
  for (size_t i = 0; i < p->facts.forwards.len; i++) {
    p->facts.forwards.items[i].start = (uint32_t)(p->facts.forwards.items[i].start + d);
    p->facts.forwards.items[i].end = (uint32_t)(p->facts.forwards.items[i].end + d);
  }
  p->start = start;
  p->row = row;
}

/* A part's facts join the file's without copying a string: the file's
 * borrows them from a part the cache keeps (`own` false), or takes them
 * from a part about to be freed (`own`: the part keeps none). Definition
 * indices move past the file's, and the module's and main block's names
 * stay unique. */
static void pyfacts__join(PyFacts *f, PyfRefSet *seen, PyFacts *part, bool own) {
  int32_t base = (int32_t)f->defs.len;
  array_reserve(&f->defs, part->defs.len);
  for (size_t i = 0; i < part->defs.len; i++) {
    PyDef d = part->defs.items[i];
    if (d.cls >= 0) d.cls += base;
    array_push(&f->defs, d);
  }
  array_reserve(&f->calls, part->calls.len);
  for (size_t i = 0; i < part->calls.len; i++) {
    PyCall c = part->calls.items[i];
    if (c.owner >= 0) c.owner += base;
    array_push(&f->calls, c);
  }
  array_reserve(&f->refs, part->refs.len);
  for (size_t i = 0; i < part->refs.len; i++) {
    PyRef r = part->refs.items[i];
    if (r.owner >= 0) { /* a definition of this part: unique in it already, and no other part names its owner */
      r.owner += base;
      array_push(&f->refs, r);
      continue;
    }
    size_t *slot = pyfacts__ref_slot(f, seen, r.owner, r.name, strlen(r.name));
    if (!pyfacts__ref_merged(f, slot, r.via, r.plain, r.attr, r.keyed)) pyfacts__ref_push(f, seen, slot, r);
    else if (own) free(r.name); /* named by an earlier part too */
  }
  for (size_t i = 0; i < part->forwards.len; i++) array_push(&f->forwards, part->forwards.items[i]);
  for (size_t i = 0; i < part->gates.len; i++) array_push(&f->gates, part->gates.items[i]);
  for (size_t i = 0; i < part->star_imports.len; i++) array_push(&f->star_imports, part->star_imports.items[i]);
  for (size_t i = 0; i < part->dynamic_imports.len; i++) array_push(&f->dynamic_imports, part->dynamic_imports.items[i]);
  for (size_t i = 0; i < part->all.len; i++) array_push(&f->all, part->all.items[i]);
  for (size_t i = 0; i < part->keyed.len; i++) array_push(&f->keyed, part->keyed.items[i]);
  f->has_all = f->has_all || part->has_all;
  f->dynamic_unknown = f->dynamic_unknown || part->dynamic_unknown;
  f->names_cli = f->names_cli || part->names_cli;
  f->names_eval = f->names_eval || part->names_eval;
  f->training_call = f->training_call || part->training_call;
  if (own) { /* every string is the file's now: the part frees its arrays alone */
    part->defs.len = part->calls.len = part->refs.len = part->forwards.len = part->gates.len = 0;
    part->star_imports.len = part->dynamic_imports.len = part->all.len = part->keyed.len = 0;
  }
}

/* The kept part of a statement with this text, or NULL; `from` moves over
 * the cache's parts, which are in document order too. */
static PyfPart *pyfacts__kept(PyFactsCache *c, size_t *from, uint64_t hash, uint32_t len) {
  for (size_t i = *from; i < c->parts.len; i++)
    if (c->parts.items[i].hash == hash && c->parts.items[i].len == len) {
      *from = i + 1;
      return &c->parts.items[i];
    }
  return NULL;
}

static int pyfacts__import_at_cmp(const void *a, const void *b) {
  const PyfImportAt *x = a, *y = b;
  if (x->def_byte != y->def_byte) return x->def_byte < y->def_byte ? -1 : 1;
  return x->import < y->import ? -1 : x->import > y->import;
}

/* The imports' order (pyfacts__imports): module-level bindings in binding
 * order; each one's index among them, and the same sorted by statement. */
static PyfImportIndex pyfacts__import_index(const PyFile *py) {
  int32_t *of = xcalloc(py->bindings.len + 1, sizeof *of);
  PyfImportAt *at = xcalloc(py->bindings.len + 1, sizeof *at);
  size_t k = 0;
  for (size_t i = 0; i < py->bindings.len; i++) {
    of[i] = py->bindings.items[i].module_scope ? (int32_t)k : -1;
    if (of[i] >= 0) at[k++] = (PyfImportAt){py->bindings.items[i].def_byte, of[i]};
  }
  qsort(at, k, sizeof *at, pyfacts__import_at_cmp);
  return (PyfImportIndex){of, at, k};
}

PyFacts *pyfacts_build_cached(const PyFile *py, PyFactsCache *cache, const char *key, const uint32_t *line_starts,
                              size_t n_lines) {
  PyFacts *f = xcalloc(1, sizeof *f);
  PyfLines lines = {0};
  if (line_starts && n_lines) lines.items = (uint32_t *)line_starts, lines.len = n_lines; /* borrowed: read only */
  else lines.items = util_line_starts(py->text, py->len, &lines.len), lines.cap = lines.len;
  pyfacts__main(py, f); /* first: the walks file names under it */
  bool keep = cache && key && cache->key && strcmp(cache->key, key) == 0;
  /* the rows the walks read: the "dynamic-loaders" and "plain-decorators" rows */
  const KbEntry *const rows[2] = {kb_lookup(KB_DETECTOR, "dynamic-loaders", NULL, 0),
                                  kb_lookup(KB_DETECTOR, "plain-decorators", NULL, 0)};
  Array(PyfPart) next = {0};
  PyfRefSet seen = {NULL, 0, 0};
  size_t from = 0;
  f->borrowed = cache != NULL;
  PyfImportIndex imports = pyfacts__import_index(py);
  const Forest *fo = py->forest;
  for (size_t m = 0; m < forest_size(fo); m++) {
    const ForestMember *mem = &fo->members.items[m];
    PyfPart part;
    memset(&part, 0, sizeof part);
    part.len = mem->end - mem->start;
    part.start = mem->start;
    part.row = mem->row;
    if (cache) { /* what the part is kept by */
      part.hash = forest_member_hash(mem, py->text);
      pyfacts__context(py, f, mem->start, mem->end, &part.context);
    }
    PyfPart *old = keep ? pyfacts__kept(cache, &from, part.hash, part.len) : NULL;
    if (old && pyfacts__same_context(old, &part.context)) {
      part.facts = old->facts; /* moved out of the cache, to where the statement is now */
      memset(&old->facts, 0, sizeof old->facts);
      part.start = old->start;
      part.row = old->row;
      pyfacts__part_shift(&part, mem->start, mem->row);
    } else {
      pyfacts__part_build(py, f, &lines, rows, &imports, forest_root(fo, m), &part.facts);
    }
    array_push(&next, part);
  }
  /* joined once every part is there: the file's arrays grow once */
  size_t n_defs = 0, n_calls = 0, n_refs = 0;
  for (size_t i = 0; i < next.len; i++) {
    n_defs += next.items[i].facts.defs.len;
    n_calls += next.items[i].facts.calls.len;
    n_refs += next.items[i].facts.refs.len;
  }
  array_reserve(&f->defs, n_defs);
  array_reserve(&f->calls, n_calls);
  array_reserve(&f->refs, n_refs);
  for (size_t i = 0; i < next.len; i++) pyfacts__join(f, &seen, &next.items[i].facts, !cache);
  if (!cache) {
    for (size_t i = 0; i < next.len; i++) pyfacts__part_free(&next.items[i]);
    array_free(&next);
  }
  free(seen.slots);
  free((void *)imports.of);
  free((void *)imports.at);
  PyfBuild b = {py, f, f, &lines, {0}, {NULL, 0, 0}, {0}, 0, 0, 0, false, NULL, NULL, NULL};
  if (f->borrowed) f->borrowed_dynamic = f->dynamic_imports.len; /* the file's own follow */
  pyfacts__imports(&b);
  if (lines.items != line_starts) array_free(&lines);
  if (cache) { /* this version's parts replace the cache's */
    for (size_t i = 0; i < cache->parts.len; i++) pyfacts__part_free(&cache->parts.items[i]);
    array_take(&cache->parts, &next);
    free(cache->key);
    cache->key = key ? xstrdup(key) : NULL;
  }
  return f;
}

PyFacts *pyfacts_build(const PyFile *py) { return pyfacts_build_cached(py, NULL, NULL, NULL, 0); }

static void pyfacts__strs_free(char **s, size_t n) {
  for (size_t i = 0; i < n; i++) free(s[i]);
}

/* Facts whose strings are all in one owned block: the arrays, then the block. */
static void pyfacts__release_arena(PyFacts *f) {
  for (size_t i = 0; i < f->defs.len; i++) {
    array_free(&f->defs.items[i].bases);
    array_free(&f->defs.items[i].params);
  }
  array_free(&f->defs);
  array_free(&f->calls);
  array_free(&f->forwards);
  array_free(&f->gates);
  array_free(&f->imports);
  array_free(&f->gated);
  array_free(&f->refs);
  array_free(&f->star_imports);
  array_free(&f->dynamic_imports);
  array_free(&f->all);
  array_free(&f->keyed);
  free(f->arena);
  f->arena = NULL;
}

static void pyfacts__release(PyFacts *f) {
  if (f->arena) {
    pyfacts__release_arena(f);
    return;
  }
  for (size_t i = 0; i < f->imports.len; i++) {
    free(f->imports.items[i].local);
    free(f->imports.items[i].qualname);
    free(f->imports.items[i].module);
  }
  array_free(&f->imports);
  for (size_t i = 0; i < f->gated.len; i++) free(f->gated.items[i].module);
  array_free(&f->gated);
  if (f->borrowed) { /* the rest's strings are a cache's */
    f->defs.len = f->calls.len = f->refs.len = f->forwards.len = f->gates.len = 0;
    f->star_imports.len = f->all.len = f->keyed.len = 0;
    size_t own = f->dynamic_imports.len - f->borrowed_dynamic;
    if (own) memmove(f->dynamic_imports.items, f->dynamic_imports.items + f->borrowed_dynamic, own * sizeof(char *));
    f->dynamic_imports.len = own;
  }
  for (size_t i = 0; i < f->defs.len; i++) {
    free(f->defs.items[i].name);
    pyfacts__strs_free(f->defs.items[i].bases.items, f->defs.items[i].bases.len);
    array_free(&f->defs.items[i].bases);
    for (size_t k = 0; k < f->defs.items[i].params.len; k++) {
      free(f->defs.items[i].params.items[k].name);
      free(f->defs.items[i].params.items[k].attr);
    }
    array_free(&f->defs.items[i].params);
  }
  for (size_t i = 0; i < f->calls.len; i++) {
    free(f->calls.items[i].callee);
    free(f->calls.items[i].self_attr);
    free(f->calls.items[i].keywords);
    free(f->calls.items[i].gate);
  }
  for (size_t i = 0; i < f->forwards.len; i++) free(f->forwards.items[i].pairs);
  for (size_t i = 0; i < f->gates.len; i++) free(f->gates.items[i].name);
  for (size_t i = 0; i < f->refs.len; i++) free(f->refs.items[i].name);
  pyfacts__strs_free(f->star_imports.items, f->star_imports.len);
  pyfacts__strs_free(f->dynamic_imports.items, f->dynamic_imports.len);
  pyfacts__strs_free(f->all.items, f->all.len);
  pyfacts__strs_free(f->keyed.items, f->keyed.len);
  array_free(&f->defs);
  array_free(&f->calls);
  array_free(&f->forwards);
  array_free(&f->gates);
  array_free(&f->refs);
  array_free(&f->star_imports);
  array_free(&f->dynamic_imports);
  array_free(&f->all);
  array_free(&f->keyed);
}

void pyfacts_free(PyFacts *f) {
  if (!f) return;
  pyfacts__release(f);
  free(f);
}

/* A deep copy's strings go to one block it owns (`arena`), as decoded
 * facts' do: one allocation instead of one per name (the server copies a
 * document's facts to the model on every analysis), and the model's
 * interning leaves them where they are. First the bytes, then the copy. */
static size_t pyfacts__bytes(const char *s) { return s ? strlen(s) + 1 : 0; }

static char *pyfacts__put(char **at, const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = memcpy(*at, s, n);
  *at += n;
  return d;
}

static size_t pyfacts__strs_bytes(char *const *s, size_t n) {
  size_t b = 0;
  for (size_t i = 0; i < n; i++) b += pyfacts__bytes(s[i]);
  return b;
}

static size_t pyfacts__copy_bytes(const PyFacts *f) {
  size_t b = 1;
  for (size_t i = 0; i < f->defs.len; i++) {
    const PyDef *d = &f->defs.items[i];
    b += pyfacts__bytes(d->name) + pyfacts__strs_bytes(d->bases.items, d->bases.len);
    for (size_t k = 0; k < d->params.len; k++) b += pyfacts__bytes(d->params.items[k].name) + pyfacts__bytes(d->params.items[k].attr);
  }
  for (size_t i = 0; i < f->calls.len; i++) {
    const PyCall *c = &f->calls.items[i];
    b += pyfacts__bytes(c->callee) + pyfacts__bytes(c->self_attr) + pyfacts__bytes(c->keywords) + pyfacts__bytes(c->gate);
  }
  for (size_t i = 0; i < f->forwards.len; i++) b += pyfacts__bytes(f->forwards.items[i].pairs);
  for (size_t i = 0; i < f->gates.len; i++) b += pyfacts__bytes(f->gates.items[i].name);
  for (size_t i = 0; i < f->gated.len; i++) b += pyfacts__bytes(f->gated.items[i].module);
  for (size_t i = 0; i < f->imports.len; i++) {
    const PyFactImport *im = &f->imports.items[i];
    b += pyfacts__bytes(im->local) + pyfacts__bytes(im->qualname) + pyfacts__bytes(im->module);
  }
  for (size_t i = 0; i < f->refs.len; i++) b += pyfacts__bytes(f->refs.items[i].name);
  return b + pyfacts__strs_bytes(f->star_imports.items, f->star_imports.len) +
         pyfacts__strs_bytes(f->dynamic_imports.items, f->dynamic_imports.len) +
         pyfacts__strs_bytes(f->all.items, f->all.len) + pyfacts__strs_bytes(f->keyed.items, f->keyed.len);
}

#define PYFACTS__PUT_STRS(dst, src, at)                                                \
  do {                                                                                 \
    array_reserve(&(dst), (src).len);                                                  \
    for (size_t k_ = 0; k_ < (src).len; k_++) array_push(&(dst), pyfacts__put(at, (src).items[k_])); \
  } while (0)

/* Copies an array of structs whose one string is `field` into dst, that
 * string into the block at *at. */
#define PYFACTS__PUT_FIELD(dst, src, field, at)                                   \
  do {                                                                            \
    array_reserve(&(dst), (src).len);                                             \
    for (size_t k_ = 0; k_ < (src).len; k_++) {                                   \
      array_push(&(dst), (src).items[k_]);                                        \
      (dst).items[(dst).len - 1].field = pyfacts__put(at, (src).items[k_].field); \
    }                                                                             \
  } while (0)

PyFacts *pyfacts_copy(const PyFacts *f) {
  if (!f) return NULL;
  PyFacts *c = xcalloc(1, sizeof *c);
  c->arena = xmalloc(pyfacts__copy_bytes(f));
  char *at = c->arena;
  array_reserve(&c->defs, f->defs.len);
  for (size_t i = 0; i < f->defs.len; i++) {
    PyDef d = f->defs.items[i];
    d.name = pyfacts__put(&at, d.name);
    memset(&d.bases, 0, sizeof d.bases);
    PYFACTS__PUT_STRS(d.bases, f->defs.items[i].bases, &at);
    memset(&d.params, 0, sizeof d.params);
    array_reserve(&d.params, f->defs.items[i].params.len);
    for (size_t k = 0; k < f->defs.items[i].params.len; k++) {
      PyParam p = f->defs.items[i].params.items[k];
      p.name = pyfacts__put(&at, p.name);
      p.attr = pyfacts__put(&at, p.attr);
      array_push(&d.params, p);
    }
    array_push(&c->defs, d);
  }
  array_reserve(&c->calls, f->calls.len);
  for (size_t i = 0; i < f->calls.len; i++) {
    PyCall k = f->calls.items[i];
    k.callee = pyfacts__put(&at, k.callee);
    k.self_attr = pyfacts__put(&at, k.self_attr);
    k.keywords = pyfacts__put(&at, k.keywords);
    k.gate = pyfacts__put(&at, k.gate);
    array_push(&c->calls, k);
  }
  PYFACTS__PUT_FIELD(c->gates, f->gates, name, &at);
  PYFACTS__PUT_FIELD(c->forwards, f->forwards, pairs, &at);
  PYFACTS__PUT_FIELD(c->gated, f->gated, module, &at);
  array_reserve(&c->imports, f->imports.len);
  for (size_t i = 0; i < f->imports.len; i++) {
    PyFactImport im = f->imports.items[i];
    im.local = pyfacts__put(&at, im.local);
    im.qualname = pyfacts__put(&at, im.qualname);
    im.module = pyfacts__put(&at, im.module);
    array_push(&c->imports, im);
  }
  PYFACTS__PUT_FIELD(c->refs, f->refs, name, &at);
  PYFACTS__PUT_STRS(c->star_imports, f->star_imports, &at);
  PYFACTS__PUT_STRS(c->dynamic_imports, f->dynamic_imports, &at);
  PYFACTS__PUT_STRS(c->all, f->all, &at);
  PYFACTS__PUT_STRS(c->keyed, f->keyed, &at);
  c->dynamic_unknown = f->dynamic_unknown;
  c->has_all = f->has_all;
  c->has_main = f->has_main;
  c->runs_calls = f->runs_calls;
  c->names_cli = f->names_cli;
  c->names_eval = f->names_eval;
  c->training_call = f->training_call;
  c->usage_doc = f->usage_doc;
  c->main_start = f->main_start;
  c->main_end = f->main_end;
  return c;
}

const char *pyfacts_forwards(const PyFacts *f, const PyCall *c) {
  for (size_t i = 0; i < f->forwards.len; i++)
    if (f->forwards.items[i].start == c->start.byte && f->forwards.items[i].end == c->end.byte) return f->forwards.items[i].pairs;
  return NULL;
}

int32_t pyfacts_def_at(const PyFacts *f, uint32_t at) {
  /* defs are in document order and methods follow their class: the last one
   * starting at or before `at` that still covers it is the innermost */
  size_t lo = 0, hi = f->defs.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (f->defs.items[mid].start <= at) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i-- > 0;) {
    const PyDef *d = &f->defs.items[i];
    if (at < d->end) return (int32_t)i;
    if (d->kind != PYDEF_METHOD) break; /* top-level definitions do not nest */
  }
  return -1;
}
