/* model: modules, imports, calls, summaries and reachability of a project
 * (see model.h). Linking is a sequence of passes over flat arrays; every
 * graph walk is a worklist, never recursion. */
#include "analyzers/project/model.h"
#include "analyzers/engine/names.h"
#include "analyzers/kb/kb.h"
#include "analyzers/python/pyfacts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MODEL__MAX_HOPS 16 /* re-export and base-class chains followed */

/* A CUDA-only construct of a module, kept from its analysis. */
typedef struct {
  char *subject, *message;
  Severity severity;
  bool guarded;
  int32_t def; /* local definition holding it, -1: module code */
  uint32_t start_byte, end_byte, start_row, start_col, end_row, end_col, start_char, end_char;
  bool import; /* an import of CUDA-only code: what calls through its name needs it */
  bool transferable; /* transfer_to_npu would handle it at run time (its row's transfer_covered) */
} MConstruct;

/* A module a module's gated imports load (PyGatedImport), and where one of
 * them binds: loaded only while that gate's switch can be on. */
typedef struct {
  int32_t to;
  uint32_t at;
} MGatedDep;

/* A switch an `__init__` stores for its other methods (PyParam.attr): its
 * attribute, its `__init__` and class (global), and the parameter's index. */
typedef struct {
  const char *attr; /* borrowed from the facts */
  int32_t init, cls;
  uint32_t param;
} MSwitchAttr;

/* A definition by its interned name: a module's definitions sorted by
 * (name, index) find a name by binary search. */
typedef struct {
  uint32_t id, idx;
} MDefKey;

typedef struct {
  char *id, *rel;
  Array(uint32_t) ref_ids; /* per reference of facts: its interned name */
  Array(uint32_t) def_ids; /* per definition: its interned name */
  Array(MDefKey) def_order; /* the definitions sorted by (name, index) */
  uint64_t digest; /* of rel, facts and constructs: an unchanged module is not relinked */
  uint64_t shape;  /* of what other modules' links read of it (see model__shape) */
  bool summed;     /* digest and shape are set: computed when the module is first set
                      again, so a one-shot build (the CLI) never computes them */
  bool undigested; /* summed, but the digest is not: the body moved when last set (model__moved) */
  bool stale;      /* its body changed since the last link, its shape did not */
  PyFacts *facts; /* owned; NULL when not Python */
  Array(MConstruct) cons;
  /* linked */
  char *name, *alt;      /* dotted name by packages; by the whole path */
  bool is_init, in_package, test;
  bool stub;             /* a type stub (.pyi): it never runs, and names no module that does */
  bool evals;            /* it mentions eval, exec, globals, locals or vars: names by strings */
  bool cli;              /* it parses a command line (model__cli), from its facts */
  bool cli_top;          /* ... in its module code (`args = parser.parse_args()` at the top level) */
  bool imports_transfer; /* it imports transfer_to_npu at module level (model__patches), from its facts */
  bool script_dir;       /* under a folder of scripts (the "script-folders" row) */
  bool run_beside;       /* a script of its own folder imports it by its bare name, or it is that
                            script (model__script_sibling): the folder runs as scripts, no API */
  bool documented_pkg;   /* in a package a script that a README's command runs imports
                            (model__documented_packages): the script's helper, no API */
  bool surface;          /* its public names are API: the package's surface, a one-file library (model__roots) */
  bool vendored;         /* in a project's copy of a third-party package (the "vendored-packages" row) */
  bool unlaunched;       /* a command-line module launchers leave out among launched siblings (model__unlaunched_sibling) */
  uint32_t def_base;     /* its first definition in Model.defs */
  bool broken;
  char *broken_reason;
  int32_t importer;      /* a module importing it (-1: none) */
  int32_t computed_by;   /* a module whose computed import (importlib.import_module(name)) is
                            what loads it, when nothing else does (-1: none; model__loaded) */
  bool by_targets;       /* that import loads it because a configuration names it */
  int32_t narrowed_by;   /* a computed import of its top folder that loads only what the
                            configurations name (-1: none; model__load_unknown) */
  bool imported_by_code; /* a module that is no test imports it */
  bool main_entry;       /* its `__main__` block runs */
  bool loaded;           /* some entry point, the package's surface or a loaded module imports it */
  bool code_loaded;      /* loaded without counting the tests as entry points: a module only
                            tests load is their support code */
  int32_t transfer_by;   /* a module importing transfer_to_npu that every process running this
                            one loads (see model__transfer); -1: none */
  Array(int32_t) call_target;   /* per call: definition, -1 */
  Array(int32_t) import_target; /* per import: definition, -1 */
  Array(uint8_t) import_ours;   /* per import: it may name project code (model__ref_ours) */
  Array(int32_t) deps;          /* modules it imports */
  Array(MGatedDep) gated_deps;  /* modules only its gated imports load (model__gated_deps) */
  Array(uint32_t) ref_order;    /* refs by owner */
  Array(uint32_t) call_order;   /* calls by owner (same layout as refs) */
  Array(uint32_t) call_first;
  Array(uint32_t) ref_first;    /* per owner + 2: first position in ref_order, with a sentinel */
  Array(uint8_t) ref_unnamed;   /* per ref: an entry of a registry table no documented run names
                                   (model__registry_entries): it keeps nothing alive */
} MModule;

typedef struct {
  int32_t mod, idx;
  int32_t need_mod, need_cons; /* root construct, -1: does not need CUDA */
  int32_t via;                 /* next definition of the chain, -1: the construct is its own */
  uint32_t depth;
  bool reachable;
  bool code_reachable;         /* reachable without the tests as roots: one only tests reach is their helper */
  int32_t shadow;              /* local index of a later definition of its name that replaces it, -1: none */
} MDef;

typedef struct {
  const char *key;
  int32_t val;
} MIndexRow;
typedef Array(MIndexRow) MIndex;

/* What a launcher-like input is: a launcher or packaging file (its text
 * names entry points), a configuration file (its text is its targets, one
 * per line: targets_scan), or a README (read for the modules its commands
 * run and the paths it names; it launches none). */
typedef enum { MINPUT_LAUNCHER, MINPUT_CONFIG, MINPUT_README } MInputKind;

typedef struct {
  char *id, *rel, *text; /* rel: its path in its project */
  size_t len;
  MInputKind kind;
} MLauncher;

/* What a text runs (model__scan_runs): modules (`-m pkg.mod`), script paths
 * (`scripts/train.py`) and console-script functions (`pkg.mod:func`). */
typedef struct {
  Array(char *) modules, paths, funcs;
} MRuns;

/* A configuration's target resolved: the module a computed import of its
 * name loads and the definition it names (-1: the name is the module). */
typedef struct {
  int32_t mod, def;
  bool active; /* a loaded computed import that builds from configurations loads it (model__load_targets) */
} MTarget;


/* A set of borrowed strings: open addressing, a power-of-two table. */
typedef struct {
  const char **slots;
  size_t n_slots, len;
} MSet;

typedef Array(uint32_t) MOffsets;
typedef Array(uint64_t) MUses;

struct Model {
  Array(MModule) mods;
  uint32_t *id_slots;  /* modules by id: open addressing over mods (index + 1, 0: empty) */
  size_t n_id_slots;   /* a power of two, at least twice the modules */
  Array(MLauncher) launchers;
  bool dirty;
  bool relink; /* a module was added or removed, a shape or a launcher changed: the next link is whole */
  Array(MDef) defs;
  MIndex mod_names;
  Names names;         /* every name a module defines or refers to, numbered once when the module is set */
  Array(uint32_t) byname_first; /* per name id + sentinel: first of its definitions in byname_defs */
  Array(int32_t) byname_defs;   /* definitions grouped by name */
  Array(uint8_t) mentioned;     /* per name id: some module but a test refers to it */
  Array(MSwitchAttr) switch_attrs; /* every `__init__`'s stored switches, rebuilt per link */
  Array(uint8_t) keyed_only;    /* per name id: registry entries no documented run passes refer to
                                   it (MModule.ref_unnamed) */
  MIndex mod_suffixes; /* tails of whole-path names ("pkg.sub.mod" of "src.pkg.sub.mod"): src layouts,
                          namespace subpackages; used when no name matches exactly */
  MSet tops;      /* first components of module names: other names are no project's */
  Array(char *) top_names;
  Array(char *) ns_roots; /* folders without __init__.py the project imports through (`from ldm.util
                             import x` for ldm/util.py): namespace packages, rebuilt per link */
  MRuns entries;               /* what the launchers and packaging files run */
  MRuns doc_runs;              /* what the READMEs' commands run (model__documented_packages) */
  Array(char *) doc_paths;     /* `.py` paths the READMEs name (model__documented_config) */
  Array(MTarget) targets;      /* the configurations' targets that name project code, per link */
  Array(int32_t) class_pairs;  /* (callee, caller) edges of the classes' structure (model__class_pairs):
                                  what the shapes decide, kept between body-only links */
  /* per definition + sentinel, the first of its bases in `bases`: each the project class (global)
   * the base expression names, or -1 (model__resolve_bases; shapes decide them, so they are made
   * by whole links and kept between body-only ones) */
  MOffsets bases_first;
  Array(int32_t) bases;
  bool trains;                 /* code that runs makes a backward pass (model__trains, per link) */
  bool any_gated;              /* some module has gated_deps (model__gated_deps, per link) */
  bool shapes_relinked;        /* this link is whole (or the first): what only shapes decide (the
                                  class pairs, which imports may name project code) is made again */
  /* made by each link (model__index_uses): per definition + sentinel, the first of its calls in
   * `calls_of` (module << 32 | call); per name id + sentinel, the first of its mentions in
   * `mentions_of` (module << 32 | reference) */
  MOffsets calls_first, mentions_first;
  MUses calls_of, mentions_of;
  ModelStats st;
};

/* ---- small helpers --------------------------------------------------------- */

static int model__row_cmp(const void *a, const void *b) {
  const MIndexRow *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->val > y->val) - (x->val < y->val);
}

static void model__index_sort(MIndex *ix) {
  if (ix->len > 1) qsort(ix->items, ix->len, sizeof *ix->items, model__row_cmp);
}

/* First row of key in the sorted index, or ix->len. */
static size_t model__index_find(const MIndex *ix, const char *key) {
  size_t lo = 0, hi = ix->len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(ix->items[mid].key, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < ix->len && strcmp(ix->items[lo].key, key) == 0 ? lo : ix->len;
}

static void model__index_push(MIndex *ix, const char *key, int32_t val) {
  MIndexRow r = {key, val};
  array_push(ix, r);
}

static size_t model__str_hash(const char *s) { return (size_t)util_fnv(UTIL_FNV_SEED, s, strlen(s)); }

static bool model__set_has(const MSet *st, const char *key) {
  if (!st->n_slots) return false;
  for (size_t i = model__str_hash(key) & (st->n_slots - 1); st->slots[i]; i = (i + 1) & (st->n_slots - 1))
    if (strcmp(st->slots[i], key) == 0) return true;
  return false;
}

/* Adds key; returns false when it was there already. */
static bool model__set_add(MSet *st, const char *key) {
  if (2 * (st->len + 1) > st->n_slots) {
    MSet big = {xcalloc(st->n_slots ? st->n_slots * 2 : 1024, sizeof(char *)), st->n_slots ? st->n_slots * 2 : 1024, 0};
    for (size_t i = 0; i < st->n_slots; i++)
      if (st->slots[i]) model__set_add(&big, st->slots[i]);
    free(st->slots);
    *st = big;
  }
  size_t i = model__str_hash(key) & (st->n_slots - 1);
  for (; st->slots[i]; i = (i + 1) & (st->n_slots - 1))
    if (strcmp(st->slots[i], key) == 0) return false;
  st->slots[i] = key;
  st->len++;
  return true;
}

static void model__set_free(MSet *st) {
  free(st->slots);
  memset(st, 0, sizeof *st);
}

static int model__def_key_cmp(const void *a, const void *b) {
  const MDefKey *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The body a module had before its facts were set again (model__set),
 * with its names interned: a keystroke keeps most names where they were,
 * so the new facts' k-th name, when it is the old k-th, takes the old one's
 * number without hashing it. */
typedef struct {
  PyFacts *facts;    /* owned by whoever set it up (model__set frees it after) */
  uint32_t *ref_ids;
} MWas;

static uint32_t model__intern_at(Names *t, const MWas *was, size_t k, const char *name) {
  if (was && was->facts && k < was->facts->refs.len && strcmp(was->facts->refs.items[k].name, name) == 0)
    return was->ref_ids[k];
  return names_intern(t, name, strlen(name));
}

/* The interned names of a module's references and definitions, and its
 * definitions in name order (def_order). The module's facts then borrow the interned text of their references and
 * callees instead of holding a copy each (most of a project's names repeat:
 * one string per name, not per use); model__body_free gives them back
 * before freeing the facts. */
static void model__intern_module(Names *t, MModule *mm, const MWas *was) {
  if (!mm->facts) return;
  array_reserve(&mm->ref_ids, mm->facts->refs.len);
  array_reserve(&mm->def_ids, mm->facts->defs.len);
  for (size_t k = 0; k < mm->facts->refs.len; k++) {
    PyRef *r = &mm->facts->refs.items[k];
    uint32_t id = model__intern_at(t, was, k, r->name);
    array_push(&mm->ref_ids, id);
    if (!mm->facts->arena) free(r->name);
    r->name = t->strs.items[id];
  }
  for (size_t k = 0; k < mm->facts->calls.len; k++) {
    PyCall *c = &mm->facts->calls.items[k];
    char *old = was && was->facts && k < was->facts->calls.len ? was->facts->calls.items[k].callee : NULL;
    char *interned = old;
    if (!old || strcmp(old, c->callee) != 0) {
      uint32_t id = names_intern(t, c->callee, strlen(c->callee)); /* may move t->strs */
      interned = t->strs.items[id];
    }
    if (!mm->facts->arena) free(c->callee);
    c->callee = interned;
  }
  for (size_t k = 0; k < mm->facts->defs.len; k++) array_push(&mm->def_ids, names_intern(t, mm->facts->defs.items[k].name, strlen(mm->facts->defs.items[k].name)));
  array_reserve(&mm->def_order, mm->def_ids.len);
  for (size_t k = 0; k < mm->def_ids.len; k++) array_push(&mm->def_order, ((MDefKey){mm->def_ids.items[k], (uint32_t)k}));
  if (mm->def_order.len > 1) qsort(mm->def_order.items, mm->def_order.len, sizeof *mm->def_order.items, model__def_key_cmp);
}

static bool model__mentioned(const Model *m, const char *name) {
  int64_t id = names_find(&m->names, name, strlen(name));
  return id >= 0 && (size_t)id < m->mentioned.len && m->mentioned.items[id];
}

/* Whether only registry entries no documented run passes mention `name`
 * (an unmentioned name: model__mentioned is false). */
static bool model__keyed_only(const Model *m, const char *name) {
  int64_t id = names_find(&m->names, name, strlen(name));
  return id >= 0 && (size_t)id < m->keyed_only.len && m->keyed_only.items[id];
}

static bool model__is_test_path(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (util_starts_with(base, "test_") || util_ends_with(base, "_test.py") || strcmp(base, "conftest.py") == 0)
    return true;
  for (const char *d = path; (d = strstr(d, "test")) != NULL; d++) {
    const char *e = d + 4 + (d[4] == 's');
    if ((d == path || d[-1] == '/') && *e == '/') return true;
  }
  return false;
}

static bool model__word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* `__init__`, `__call__`: a protocol method, which Python calls on its class's instances. */
static bool model__dunder(const char *name) {
  return util_starts_with(name, "__") && util_ends_with(name, "__") && strlen(name) > 4;
}

static bool model__private(const char *name) { return name[0] == '_' && !model__dunder(name); }

/* ---- modules ---------------------------------------------------------------- */

Model *model_new(void) {
  Model *m = xcalloc(1, sizeof(Model));
  m->shapes_relinked = true;
  return m;
}

/* The links of a module's own calls, imports and references. */
static void model__links_free(MModule *mm) {
  array_free(&mm->call_target);
  array_free(&mm->import_target);
  array_free(&mm->import_ours);
  array_free(&mm->ref_order);
  array_free(&mm->ref_first);
  array_free(&mm->call_order);
  array_free(&mm->call_first);
}

static void model__module_clear_link(MModule *mm) {
  free(mm->name);
  free(mm->alt);
  free(mm->broken_reason);
  mm->name = mm->alt = mm->broken_reason = NULL;
  model__links_free(mm);
  array_free(&mm->deps);
  array_free(&mm->gated_deps);
  array_free(&mm->ref_unnamed);
}

/* Frees a module's facts, whose reference and callee names are the
 * model's (interned). */
static void model__facts_free(PyFacts *f) {
  for (size_t k = 0; f && k < f->refs.len; k++) f->refs.items[k].name = NULL;
  for (size_t k = 0; f && k < f->calls.len; k++) f->calls.items[k].callee = NULL;
  pyfacts_free(f);
}

/* The parts of a module its body decides: facts, constructs and the links
 * of its own calls and references. */
static void model__body_free(MModule *mm) {
  model__facts_free(mm->facts);
  mm->facts = NULL;
  for (size_t i = 0; i < mm->cons.len; i++) {
    free(mm->cons.items[i].subject);
    free(mm->cons.items[i].message);
  }
  array_free(&mm->cons);
  array_free(&mm->ref_ids);
  array_free(&mm->def_ids);
  array_free(&mm->def_order);
  model__links_free(mm);
}

static void model__module_free(MModule *mm) {
  free(mm->id);
  free(mm->rel);
  model__body_free(mm);
  model__module_clear_link(mm);
}

static void model__strs_free(char **s, size_t n) {
  for (size_t i = 0; i < n; i++) free(s[i]);
}

static void model__runs_clear(MRuns *r) {
  model__strs_free(r->modules.items, r->modules.len);
  model__strs_free(r->paths.items, r->paths.len);
  model__strs_free(r->funcs.items, r->funcs.len);
  r->modules.len = r->paths.len = r->funcs.len = 0;
}

static void model__runs_free(MRuns *r) {
  model__runs_clear(r);
  array_free(&r->modules);
  array_free(&r->paths);
  array_free(&r->funcs);
}

static void model__entries_clear(Model *m) {
  model__runs_clear(&m->entries);
  model__runs_clear(&m->doc_runs);
  model__strs_free(m->doc_paths.items, m->doc_paths.len);
  m->doc_paths.len = 0;
}

void model_free(Model *m) {
  if (!m) return;
  for (size_t i = 0; i < m->mods.len; i++) model__module_free(&m->mods.items[i]);
  array_free(&m->mods);
  free(m->id_slots);
  for (size_t i = 0; i < m->launchers.len; i++) {
    free(m->launchers.items[i].id);
    free(m->launchers.items[i].rel);
    free(m->launchers.items[i].text);
  }
  array_free(&m->launchers);
  array_free(&m->defs);
  array_free(&m->mod_names);
  array_free(&m->mod_suffixes);
  names_free(&m->names);
  array_free(&m->byname_first);
  array_free(&m->byname_defs);
  array_free(&m->mentioned);
  array_free(&m->switch_attrs);
  array_free(&m->keyed_only);
  model__set_free(&m->tops);
  model__strs_free(m->top_names.items, m->top_names.len);
  array_free(&m->top_names);
  model__strs_free(m->ns_roots.items, m->ns_roots.len);
  array_free(&m->ns_roots);
  array_free(&m->class_pairs);
  array_free(&m->bases_first);
  array_free(&m->bases);
  array_free(&m->calls_first);
  array_free(&m->mentions_first);
  array_free(&m->calls_of);
  array_free(&m->mentions_of);
  model__entries_clear(m);
  model__runs_free(&m->entries);
  model__runs_free(&m->doc_runs);
  array_free(&m->doc_paths);
  array_free(&m->targets);
  free(m);
}

static size_t model__id_slot(const Model *m, const char *id) {
  size_t mask = m->n_id_slots - 1, i = (size_t)util_fnv(UTIL_FNV_SEED, id, strlen(id)) & mask;
  while (m->id_slots[i] && strcmp(m->mods.items[m->id_slots[i] - 1].id, id) != 0) i = (i + 1) & mask;
  return i;
}

/* Indexes every module by id again (after modules were added past the
 * table's room, or removed: the indices behind a removed one move). */
static void model__ids_rebuild(Model *m) {
  size_t n = 64;
  while (n < 2 * (m->mods.len + 1)) n *= 2;
  free(m->id_slots);
  m->id_slots = xcalloc(n, sizeof *m->id_slots);
  m->n_id_slots = n;
  for (size_t i = 0; i < m->mods.len; i++) m->id_slots[model__id_slot(m, m->mods.items[i].id)] = (uint32_t)i + 1;
}

/* Indexes the module just added at the end of mods. */
static void model__ids_add(Model *m) {
  if (2 * (m->mods.len + 1) > m->n_id_slots) {
    model__ids_rebuild(m);
    return;
  }
  m->id_slots[model__id_slot(m, m->mods.items[m->mods.len - 1].id)] = (uint32_t)m->mods.len;
}

static MModule *model__find(Model *m, const char *id) {
  if (!m->n_id_slots) return NULL;
  uint32_t s = m->id_slots[model__id_slot(m, id)];
  return s ? &m->mods.items[s - 1] : NULL;
}

/* The constructs a module's summary is made of: its Python findings of the
 * CUDA-only domains (device, attention, kernels, distributed, compile; a
 * precision review such as float64 is no CUDA dependence), in the
 * definition they are in. */
static void model__constructs(MModule *mm, const FindingList *findings) {
  for (size_t i = 0; findings && mm->facts && i < findings->len; i++) {
    const Finding *f = &findings->items[i];
    int d = f->rule ? kb_domain(f->rule->code) : 0;
    if (d < 2 || d > 7 || d == 6 || f->unreachable) continue;
    MConstruct c = {xstrdup(f->subject ? f->subject : f->rule->code), xstrdup(f->message), f->severity,
                    f->guarded || f->transfer_covered, pyfacts_def_at(mm->facts, f->start_byte),
                    f->start_byte, f->end_byte, f->start_row, f->start_col, f->end_row, f->end_col,
                    f->start_char, f->end_char, f->entry && f->entry->match == KB_IMPORT,
                    f->entry && f->entry->transfer_covered};
    array_push(&mm->cons, c);
  }
}

/* Digests of a module's input (in memory only; positions and flags are
 * most of what is mixed). */
static uint64_t model__mix(uint64_t h, const void *p, size_t n) { return util_mix_words(h, p, n); }

static uint64_t model__mix_str(uint64_t h, const char *s) { return model__mix(h, s ? s : "", s ? strlen(s) + 1 : 1); }

/* An import's names and flags, mixed into h. */
static uint64_t model__mix_import(uint64_t h, const PyFactImport *im) {
  h = model__mix_str(h, im->local);
  h = model__mix_str(h, im->qualname);
  h = model__mix_str(h, im->module);
  unsigned flags = im->from_import | im->guarded << 1 | im->top << 2 | im->lazy << 3;
  return model__mix(h, &flags, sizeof flags);
}

/* Everything linking reads of a module, hashed. */
static uint64_t model__digest(const MModule *mm) {
  uint64_t h = model__mix_str(UTIL_FNV_SEED, mm->rel);
  const PyFacts *f = mm->facts;
  for (size_t i = 0; f && i < f->defs.len; i++) {
    const PyDef *d = &f->defs.items[i];
    h = model__mix_str(h, d->name);
    h = model__mix(h, &d->kind, sizeof d->kind);
    h = model__mix(h, &d->cls, sizeof d->cls);
    h = model__mix(h, &d->start, sizeof d->start);
    h = model__mix(h, &d->end, sizeof d->end);
    h = model__mix(h, &d->at, sizeof d->at);
    h = model__mix(h, &d->decorated, sizeof d->decorated);
    for (size_t b = 0; b < d->bases.len; b++) h = model__mix_str(h, d->bases.items[b]);
    for (size_t k = 0; k < d->params.len; k++) {
      const PyParam *q = &d->params.items[k];
      const uint32_t at[] = {q->index,    q->dflt_start, q->dflt_end, q->none_start, q->none_end,
                             q->on_start, q->on_end,     q->off_default};
      h = model__mix(model__mix_str(model__mix_str(h, q->name), q->attr), at, sizeof at);
    }
  }
  for (size_t i = 0; f && i < f->calls.len; i++) {
    const PyCall *c = &f->calls.items[i];
    h = model__mix_str(h, c->callee);
    h = model__mix(h, &c->kind, sizeof c->kind);
    h = model__mix(h, &c->owner, sizeof c->owner);
    h = model__mix(h, &c->in_main, sizeof c->in_main);
    h = model__mix(h, &c->flags, sizeof c->flags);
    h = model__mix(h, &c->start, sizeof c->start);
    h = model__mix(h, &c->end, sizeof c->end);
    h = model__mix_str(h, c->self_attr);
    h = model__mix(h, &c->n_pos, sizeof c->n_pos);
    h = model__mix_str(h, c->keywords);
    h = model__mix_str(h, c->gate);
  }
  for (size_t i = 0; f && i < f->gates.len; i++) {
    const PyGate *g = &f->gates.items[i];
    const uint32_t at[] = {g->attr, g->self, g->start, g->end};
    h = model__mix(model__mix_str(h, g->name), at, sizeof at);
  }
  for (size_t i = 0; f && i < f->forwards.len; i++) {
    const PyForward *w = &f->forwards.items[i];
    h = model__mix(model__mix(model__mix_str(h, w->pairs), &w->start, sizeof w->start), &w->end, sizeof w->end);
  }
  for (size_t i = 0; f && i < f->gated.len; i++)
    h = model__mix(model__mix_str(h, f->gated.items[i].module), &f->gated.items[i].at, sizeof f->gated.items[i].at);
  for (size_t i = 0; f && i < f->imports.len; i++) {
    const PyFactImport *im = &f->imports.items[i];
    h = model__mix_import(h, im);
    h = model__mix(h, &im->start, sizeof im->start);
    h = model__mix(h, &im->end, sizeof im->end);
  }
  for (size_t i = 0; f && i < f->refs.len; i++) {
    const PyRef *r = &f->refs.items[i];
    unsigned bits = r->plain | r->attr << 1;
    h = model__mix_str(h, r->name);
    h = model__mix(h, &r->owner, sizeof r->owner);
    h = model__mix(h, &r->via, sizeof r->via);
    h = model__mix(h, &bits, sizeof bits);
  }
  for (size_t i = 0; f && i < f->star_imports.len; i++) h = model__mix_str(h, f->star_imports.items[i]);
  for (size_t i = 0; f && i < f->dynamic_imports.len; i++) h = model__mix_str(h, f->dynamic_imports.items[i]);
  for (size_t i = 0; f && i < f->all.len; i++) h = model__mix_str(h, f->all.items[i]);
  if (f) {
    unsigned flags = f->has_all | f->has_main << 1 | f->dynamic_unknown << 2 | f->runs_calls << 3 | f->training_call << 4;
    h = model__mix(h, &flags, sizeof flags);
    h = model__mix(h, &f->main_start, sizeof f->main_start);
    h = model__mix(h, &f->main_end, sizeof f->main_end);
  }
  for (size_t i = 0; i < mm->cons.len; i++) {
    const MConstruct *c = &mm->cons.items[i];
    h = model__mix_str(h, c->subject);
    h = model__mix_str(h, c->message);
    h = model__mix(h, &c->severity, sizeof c->severity);
    h = model__mix(h, &c->guarded, sizeof c->guarded);
    h = model__mix(h, &c->def, sizeof c->def);
    h = model__mix(h, &c->start_byte, sizeof c->start_byte * 8);
    h = model__mix(h, &c->import, sizeof c->import);
    h = model__mix(h, &c->transferable, sizeof c->transferable);
  }
  return h;
}

/* What linking other modules reads of a module: its path (its name), its
 * definitions' names, kinds, classes and bases, its imports, and for a
 * package `__init__` the names its module code binds (model__import asks
 * whether a package binds a name). Positions, calls, references and
 * constructs are its body: when only they change, only its own calls are
 * resolved again. */
static uint64_t model__shape(const char *rel, const PyFacts *f) {
  uint64_t h = model__mix_str(UTIL_FNV_SEED, rel);
  if (!f) return h;
  for (size_t i = 0; i < f->defs.len; i++) {
    const PyDef *d = &f->defs.items[i];
    h = model__mix_str(h, d->name);
    h = model__mix(h, &d->kind, sizeof d->kind);
    h = model__mix(h, &d->cls, sizeof d->cls);
    h = model__mix(h, &d->bases.len, sizeof d->bases.len);
    for (size_t b = 0; b < d->bases.len; b++) h = model__mix_str(h, d->bases.items[b]);
  }
  h = model__mix(h, &f->defs.len, sizeof f->defs.len);
  for (size_t i = 0; i < f->imports.len; i++) {
    h = model__mix_import(h, &f->imports.items[i]);
  }
  h = model__mix(h, &f->imports.len, sizeof f->imports.len);
  for (size_t i = 0; i < f->star_imports.len; i++) h = model__mix_str(h, f->star_imports.items[i]);
  h = model__mix(h, &f->star_imports.len, sizeof f->star_imports.len);
  for (size_t i = 0; i < f->dynamic_imports.len; i++) h = model__mix_str(h, f->dynamic_imports.items[i]);
  h = model__mix(h, &f->dynamic_imports.len, sizeof f->dynamic_imports.len);
  const char *b = strrchr(rel, '/');
  b = b ? b + 1 : rel;
  if (strcmp(b, "__init__.py") == 0 || strcmp(b, "__init__.pyi") == 0)
    for (size_t i = 0; i < f->refs.len; i++)
      if (f->refs.items[i].owner == PYREF_MODULE) h = model__mix_str(h, f->refs.items[i].name);
  return h;
}

bool model_is_dirty(const Model *m) { return m->dirty; }

/* Whether the facts import transfer_to_npu at module level (guarded or not:
 * the guard is torch_npu's presence, which is the NPU). */
static bool model__facts_transfer(const PyFacts *f) {
  const char *pat = kb_template("transfer-to-npu-module");
  for (size_t k = 0; f && pat && k < f->imports.len; k++) {
    const PyFactImport *im = &f->imports.items[k];
    if (kb_pattern_match(pat, im->qualname) || (im->module && kb_pattern_match(pat, im->module))) return true;
  }
  return false;
}

/* Whether the module code (outside every definition) refers to one of `words`. */
static bool model__module_code_names(const PyFacts *f, const char *words) {
  /* a name only its import statement mentions (via <= -2) is not used there */
  for (size_t k = 0; words && k < f->refs.len; k++)
    if (f->refs.items[k].owner == PYREF_MODULE && f->refs.items[k].via > -2 && kb_pattern_match(words, f->refs.items[k].name))
      return true;
  return false;
}

/* A module's new body: its facts (taken), constructs (the array taken) and
 * input digest, with its names interned. */
static void model__set_body(Model *m, MModule *mm, PyFacts *facts, MConstruct *items, size_t len, size_t cap,
                            uint64_t digest, const MWas *was) {
  mm->facts = facts;
  mm->cons.items = items;
  mm->cons.len = len;
  mm->cons.cap = cap;
  mm->digest = digest;
  model__intern_module(&m->names, mm, was);
  /* read by every link: the facts decided them, once per statement */
  mm->evals = facts && facts->names_eval;
  mm->cli = facts && facts->names_cli;
  mm->cli_top = mm->cli && model__module_code_names(facts, kb_template("cli-parser-names"));
  mm->imports_transfer = model__facts_transfer(facts);
}

static void model__set(Model *m, const char *id, const char *rel, const FileFacts *facts, PyFacts *owned,
                       const FindingList *findings);

void model_set_module(Model *m, const char *id, const char *rel, const FileFacts *facts, const FindingList *findings) {
  model__set(m, id, rel, facts, NULL, findings);
}

void model_take_module(Model *m, const char *id, const char *rel, FileFacts *facts, const FindingList *findings) {
  PyFacts *owned = facts ? facts->py : NULL;
  if (facts) facts->py = NULL;
  FileFacts view = {0};
  view.py = owned;
  model__set(m, id, rel, owned ? &view : NULL, owned, findings);
}

/* A module set for the first time is interned without its digest and
 * shape (model__summed computes them when it is set again). */
static void model__add(Model *m, const char *id, const char *rel, PyFacts *facts, MConstruct *items, size_t len,
                       size_t cap) {
  array_push(&m->mods, (MModule){0});
  MModule *mm = &m->mods.items[m->mods.len - 1];
  mm->id = xstrdup(id);
  mm->rel = xstrdup(rel ? rel : id);
  model__ids_add(m);
  m->dirty = m->relink = true;
  model__set_body(m, mm, facts, items, len, cap, 0, NULL);
}

/* Whether module facts b differ from a in where a call or a definition is,
 * or in how many there are: then their digests differ (model__digest mixes
 * those positions), and hashing both would only confirm it. */
static bool model__moved(const PyFacts *a, const PyFacts *b) {
  if (!a || !b) return false;
  if (a->calls.len != b->calls.len || a->defs.len != b->defs.len || a->refs.len != b->refs.len) return true;
  for (size_t k = 0; k < a->calls.len; k++)
    if (a->calls.items[k].start.byte != b->calls.items[k].start.byte || a->calls.items[k].end.byte != b->calls.items[k].end.byte)
      return true;
  for (size_t k = 0; k < a->defs.len; k++)
    if (a->defs.items[k].start != b->defs.items[k].start || a->defs.items[k].end != b->defs.items[k].end) return true;
  return false;
}

static void model__summed(MModule *mm) {
  if (mm->summed && !mm->undigested) return;
  mm->digest = model__digest(mm);
  if (!mm->summed) mm->shape = model__shape(mm->rel, mm->facts);
  mm->summed = true;
  mm->undigested = false;
}

static void model__set(Model *m, const char *id, const char *rel, const FileFacts *facts, PyFacts *owned,
                       const FindingList *findings) {
  MModule fresh = {0};
  fresh.rel = (char *)(rel ? rel : id);
  fresh.facts = facts ? facts->py : NULL;
  MModule *mm = model__find(m, id);
  Array(MConstruct) cons = {0};
  MModule probe = fresh;
  probe.cons.items = NULL;
  model__constructs(&probe, findings);
  cons.items = probe.cons.items;
  cons.len = probe.cons.len;
  cons.cap = probe.cons.cap;
  if (!mm) {
    model__add(m, id, rel, owned ? owned : facts ? pyfacts_copy(facts->py) : NULL, cons.items, cons.len, cons.cap);
    return;
  }
  /* the digest of the new input, computed on borrowed parts first; a body
   * whose calls or definitions moved differs, and its digest is left to
   * the next setting that needs it (a keystroke moves everything after it) */
  bool moved = model__moved(mm->facts, fresh.facts);
  uint64_t digest = 0;
  if (moved && !mm->summed) mm->shape = model__shape(mm->rel, mm->facts);
  if (!moved) {
    model__summed(mm);
    digest = model__digest(&probe);
  }
  if (!moved && mm->digest == digest) {
    pyfacts_free(owned);
    for (size_t i = 0; i < cons.len; i++) {
      free(cons.items[i].subject);
      free(cons.items[i].message);
    }
    array_free(&cons);
    return;
  }
  uint64_t shape = model__shape(fresh.rel, fresh.facts);
  m->dirty = true;
  if (mm->shape == shape && (mm->facts != NULL) == (fresh.facts != NULL)) {
    /* the same shape: the links of the other modules stand; the old
     * body's names are read while the new one's are interned */
    MWas was = {mm->facts, mm->ref_ids.items};
    mm->facts = NULL;
    memset(&mm->ref_ids, 0, sizeof mm->ref_ids);
    model__body_free(mm);
    model__set_body(m, mm, owned ? owned : facts ? pyfacts_copy(facts->py) : NULL, cons.items, cons.len, cons.cap,
                    digest, &was);
    model__facts_free(was.facts);
    free(was.ref_ids);
    mm->shape = shape;
    mm->summed = true;
    mm->undigested = moved; /* the digest of the facts kept, when next asked (model__summed) */
    mm->stale = true;
    return;
  }
  m->relink = true;
  model__module_free(mm);
  memset(mm, 0, sizeof *mm);
  mm->id = xstrdup(id);
  mm->rel = xstrdup(rel ? rel : id);
  mm->shape = shape;
  mm->summed = true;
  mm->undigested = moved;
  model__set_body(m, mm, owned ? owned : facts ? pyfacts_copy(facts->py) : NULL, cons.items, cons.len, cons.cap,
                    digest, NULL);
}

void model_remove_module(Model *m, const char *id) {
  MModule *mm = model__find(m, id);
  if (!mm) return;
  model__module_free(mm);
  size_t i = (size_t)(mm - m->mods.items);
  memmove(mm, mm + 1, (m->mods.len - i - 1) * sizeof *mm);
  m->mods.len--;
  m->dirty = m->relink = true;
  model__ids_rebuild(m);
}

void model_remove_under(Model *m, const char *path) {
  size_t n = strlen(path), kept = 0;
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    if (strcmp(mm->id, path) == 0 || (strncmp(mm->id, path, n) == 0 && mm->id[n] == '/')) {
      model__module_free(mm);
      m->dirty = m->relink = true;
    } else {
      m->mods.items[kept++] = *mm;
    }
  }
  m->mods.len = kept;
  model__ids_rebuild(m);
  kept = 0;
  for (size_t i = 0; i < m->launchers.len; i++) { /* launchers and configurations there name nothing now */
    MLauncher *l = &m->launchers.items[i];
    if (strcmp(l->id, path) == 0 || (strncmp(l->id, path, n) == 0 && l->id[n] == '/')) {
      free(l->id);
      free(l->rel);
      free(l->text);
      m->dirty = m->relink = true;
    } else {
      m->launchers.items[kept++] = *l;
    }
  }
  m->launchers.len = kept;
}

static void model__set_input(Model *m, const char *id, const char *rel, const char *text, size_t len, MInputKind kind) {
  for (size_t i = 0; i < m->launchers.len; i++) {
    MLauncher *l = &m->launchers.items[i];
    if (strcmp(l->id, id) != 0) continue;
    /* the same targets again (a configuration edited elsewhere): nothing to link */
    if (text && l->kind == kind && l->len == len && memcmp(l->text, text, len) == 0) return;
    l->kind = kind;
    free(l->text);
    if (!text) {
      free(l->id);
      free(l->rel);
      *l = m->launchers.items[--m->launchers.len];
    } else {
      l->text = xstrndup(text, len);
      l->len = len;
    }
    m->dirty = m->relink = true;
    return;
  }
  if (!text) return;
  MLauncher l = {xstrdup(id), xstrdup(rel ? rel : id), xstrndup(text, len), len, kind};
  array_push(&m->launchers, l);
  m->dirty = m->relink = true;
}

void model_set_launcher(Model *m, const char *id, const char *rel, const char *text, size_t len) {
  model__set_input(m, id, rel, text, len, MINPUT_LAUNCHER);
}

void model_set_readme(Model *m, const char *id, const char *rel, const char *text, size_t len) {
  model__set_input(m, id, rel, text, len, MINPUT_README);
}

void model_set_config(Model *m, const char *id, const char *rel, const char *targets) {
  model__set_input(m, id, rel, targets, targets ? strlen(targets) : 0, MINPUT_CONFIG);
}

/* ---- names ---------------------------------------------------------------- */

static int model__mod_cmp(const void *a, const void *b) {
  return strcmp(((const MModule *)a)->id, ((const MModule *)b)->id);
}

/* "a/b/c.py" -> "a/b"; "c.py" -> "". Caller frees. */
static char *model__dir(const char *rel) {
  const char *s = strrchr(rel, '/');
  return s ? xstrndup(rel, (size_t)(s - rel)) : xstrdup("");
}

static char *model__dotted(const char *path) {
  char *d = xstrdup(path);
  size_t n = strlen(d);
  if (util_ends_with(d, ".pyi")) d[n - 4] = '\0';
  else if (util_ends_with(d, ".py")) d[n - 3] = '\0';
  n = strlen(d);
  if (util_ends_with(d, "/__init__")) d[n - 9] = '\0';
  else if (strcmp(d, "__init__") == 0) d[0] = '\0';
  for (char *p = d; *p; p++)
    if (*p == '/') *p = '.';
  return d;
}

/* Module names: from the topmost directory of its package chain (a file
 * outside any package is a top-level module named by its stem), and by its
 * whole path for namespace packages. */
/* Whether a folder of path (not its file name) is named by `pattern`. */
static bool model__in_script_folder(const char *path, const char *pattern) {
  bool in = false;
  for (const char *c = path, *slash; pattern && !in && (slash = strchr(c, '/')) != NULL; c = slash + 1) {
    char *dir = xstrndup(c, (size_t)(slash - c));
    in = kb_pattern_match(pattern, dir);
    free(dir);
  }
  return in;
}

/* The folder of a library copy ("deployment/transformers" for
 * deployment/transformers/src/transformers/...): its package's folder, out
 * of src/. Caller frees. */
static char *model__copy_root(const MModule *mm) {
  size_t n = strlen(mm->rel) - strlen(mm->name) - (mm->is_init ? strlen("/__init__.py") : strlen(".py"));
  char *root = xstrndup(mm->rel, n > 0 ? n - 1 : 0); /* the folder above the package */
  size_t k = strlen(root);
  if (k >= 4 && strcmp(root + k - 4, "/src") == 0) root[k - 4] = '\0';
  return root;
}

/* The rest of a library copy's folder (its utils/, scripts/ and templates/:
 * the library's own tooling) is the copy too; the files directly in the
 * folder are the project's additions (KVQuant's gradients/run-fisher.py). */
static void model__vendored_tools(Model *m) {
  Array(char *) roots = {0};
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    if (!mm->vendored || !mm->is_init || strchr(mm->name, '.')) continue;
    char *r = model__copy_root(mm);
    if (*r) array_push(&roots, r);
    else free(r);
  }
  for (size_t i = 0; roots.len && i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    for (size_t k = 0; k < roots.len && !mm->vendored; k++) {
      size_t n = strlen(roots.items[k]);
      mm->vendored = strncmp(mm->rel, roots.items[k], n) == 0 && mm->rel[n] == '/' && strchr(mm->rel + n + 1, '/');
    }
  }
  model__strs_free(roots.items, roots.len);
  array_free(&roots);
}

/* Whether launcher l packages code for installation: a setup.py, a
 * setup.cfg or pyproject.toml with a packaging table (the
 * "packaging-tables" template). */
static bool model__packaging(const MLauncher *l) {
  if (l->kind != MINPUT_LAUNCHER) return false;
  const char *b = strrchr(l->rel, '/');
  b = b ? b + 1 : l->rel;
  if (strcmp(b, "setup.py") == 0) return true;
  if (strcmp(b, "setup.cfg") != 0 && strcmp(b, "pyproject.toml") != 0) return false;
  return util_has_any(l->text, l->len, kb_template("packaging-tables"));
}

/* The folders of the packaging files, into *dirs ("" for the project's top). */
static void model__packaging_dirs(const Model *m, StrList *dirs) {
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    const char *slash = strrchr(l->rel, '/');
    if (model__packaging(l)) array_push(dirs, xstrndup(l->rel, slash ? (size_t)(slash - l->rel) : 0));
  }
}

/* Whether one of the packaging folders `dirs` holds path `rel` (the
 * project's top, or a sub-project's folder above it). */
static bool model__packaged(const StrList *dirs, const char *rel) {
  for (size_t i = 0; i < dirs->len; i++) {
    size_t d = strlen(dirs->items[i]);
    if (d == 0 || (strncmp(rel, dirs->items[i], d) == 0 && rel[d] == '/')) return true;
  }
  return false;
}

/* Whether module mm is a script outside packages: what runs an application. */
static bool model__loose_script(const MModule *mm) {
  return !mm->in_package && !mm->test && mm->facts && (mm->facts->has_main || mm->cli);
}

/* An application's packages: a package whose folder sits beside a script
 * (`models/` next to `inference.py`), where nothing packages it, is that
 * script's helper, as in a folder of scripts. Where no script sits beside
 * it (a script elsewhere may reach it through a path set at run time) or
 * something packages it, its public names stay API. */
static void model__application_packages(Model *m) {
  MIndex script_dirs = {0};
  Array(char *) dirs = {0};
  for (size_t i = 0; i < m->mods.len; i++) {
    if (!model__loose_script(&m->mods.items[i])) continue;
    char *d = model__dir(m->mods.items[i].rel);
    array_push(&dirs, d);
    model__index_push(&script_dirs, d, (int32_t)i);
  }
  model__index_sort(&script_dirs);
  StrList packaging = {0};
  if (script_dirs.len) model__packaging_dirs(m, &packaging);
  for (size_t i = 0; script_dirs.len && i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    if (!mm->in_package || mm->test || mm->script_dir) continue;
    /* the folder above its top package: rel less the dotted name's path */
    size_t tail = strlen(mm->name) + (mm->is_init ? strlen("/__init__.py") : strlen(".py"));
    size_t n = strlen(mm->rel) > tail ? strlen(mm->rel) - tail : 0;
    char *above = xstrndup(mm->rel, n ? n - 1 : 0);
    mm->script_dir = model__index_find(&script_dirs, above) < script_dirs.len && !model__packaged(&packaging, mm->rel);
    free(above);
  }
  strlist_free(&packaging);
  model__strs_free(dirs.items, dirs.len);
  array_free(&dirs);
  array_free(&script_dirs);
}

/* Whether a folder below the top package of path `pkg_rel` (its package
 * path from the top package down) is named like a library of `pattern`: a
 * copy the project carries inside its own package. */
static bool model__nested_copy(const char *pkg_rel, const char *pattern) {
  const char *p = pattern ? strchr(pkg_rel, '/') : NULL; /* the top package itself is checked by name */
  for (const char *slash; p && (slash = strchr(p + 1, '/')); p = slash) {
    char part[64];
    size_t n = (size_t)(slash - p - 1);
    if (n == 0 || n >= sizeof part) continue;
    memcpy(part, p + 1, n);
    part[n] = '\0';
    if (kb_pattern_match(pattern, part)) return true;
  }
  return false;
}

static void model__names(Model *m) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "script-folders", NULL, 0);
  const char *scripts = row ? row->arg : NULL;
  const KbEntry *vrow = kb_lookup(KB_DETECTOR, "vendored-packages", NULL, 0);
  const char *vendored = vrow ? vrow->arg : NULL, *nested = vrow ? vrow->value : NULL;
  MIndex pkgs = {0};
  Array(char *) dirs = {0};
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    const char *b = strrchr(mm->rel, '/');
    b = b ? b + 1 : mm->rel;
    mm->is_init = strcmp(b, "__init__.py") == 0 || strcmp(b, "__init__.pyi") == 0;
    if (mm->is_init) {
      char *d = model__dir(mm->rel);
      array_push(&dirs, d);
      model__index_push(&pkgs, d, (int32_t)i);
    }
  }
  model__index_sort(&pkgs);
  bool top_packaged = false;
  for (size_t i = 0; i < m->launchers.len && !top_packaged; i++)
    top_packaged = model__packaging(&m->launchers.items[i]) && !strchr(m->launchers.items[i].rel, '/');
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    mm->test = model__is_test_path(mm->rel);
    mm->stub = util_ends_with(mm->rel, ".pyi");
    mm->script_dir = model__in_script_folder(mm->rel, scripts);
    mm->vendored = false;
    char *dir = model__dir(mm->rel);
    mm->in_package = *dir && model__index_find(&pkgs, dir) < pkgs.len;
    /* a folder without __init__.py inside a package is a namespace portion
     * of it (`pkg/ops/fused.py` is `pkg.ops.fused`): name it from there */
    char *top = xstrdup(dir);
    while (!mm->in_package && *top) {
      char *up = model__dir(top);
      free(top);
      top = up;
      mm->in_package = *top && model__index_find(&pkgs, top) < pkgs.len;
    }
    /* climb while the parent is a package too */
    if (mm->in_package) {
      for (;;) {
        char *up = model__dir(top);
        bool pkg = *up && model__index_find(&pkgs, up) < pkgs.len;
        if (!pkg) {
          free(up);
          break;
        }
        free(top);
        top = up;
      }
      char *above = model__dir(top);
      size_t cut = *above ? strlen(above) + 1 : 0;
      mm->name = model__dotted(mm->rel + cut);
      /* a known library's package below the project's top, or at its top
       * where nothing packages the project (Step-Audio's `funasr_detach/`
       * beside its scripts; a library's own repository packages it): a
       * copy the project carries */
      const char *base = strrchr(top, '/');
      bool copy_dir = *above ? strcmp(above, "src") != 0 : !top_packaged;
      mm->vendored = (vendored && copy_dir && kb_pattern_match(vendored, base ? base + 1 : top)) ||
                     model__nested_copy(mm->rel + cut, nested);
      free(above);
    } else {
      const char *b = strrchr(mm->rel, '/');
      mm->name = model__dotted(b ? b + 1 : mm->rel);
    }
    mm->alt = model__dotted(mm->rel);
    free(top);
    free(dir);
    /* a stub of a package (stubs/torch/__init__.pyi) is not that package:
     * imports of it go to the installed one */
    if (mm->stub) continue;
    if (*mm->name) model__index_push(&m->mod_names, mm->name, (int32_t)i);
    for (int k = 0; k < 2; k++) {
      const char *nm = k ? mm->alt : mm->name;
      char *top = xstrndup(nm, strcspn(nm, "."));
      if (*top && model__set_add(&m->tops, top)) array_push(&m->top_names, top);
      else free(top);
    }
    if (*mm->alt && strcmp(mm->alt, mm->name) != 0) model__index_push(&m->mod_names, mm->alt, (int32_t)i);
    for (const char *d = strchr(mm->alt, '.'); d && strchr(d + 1, '.'); d = strchr(d + 1, '.'))
      if (strcmp(d + 1, mm->name) != 0) {
        model__index_push(&m->mod_suffixes, d + 1, (int32_t)i);
        char *top = xstrndup(d + 1, strcspn(d + 1, "."));
        if (model__set_add(&m->tops, top)) array_push(&m->top_names, top);
        else free(top);
      }
  }
  model__index_sort(&m->mod_names);
  model__index_sort(&m->mod_suffixes);
  model__application_packages(m);
  model__vendored_tools(m);
  array_free(&pkgs);
  model__strs_free(dirs.items, dirs.len);
  array_free(&dirs);
}

static int32_t model__module_named(const Model *m, const char *name) {
  size_t k = model__index_find(&m->mod_names, name);
  if (k < m->mod_names.len) return m->mod_names.items[k].val;
  k = model__index_find(&m->mod_suffixes, name);
  return k < m->mod_suffixes.len ? m->mod_suffixes.items[k].val : -1;
}

/* A module `name` in the folder of script mi (one with a `__main__`
 * block) inside a package: run as a file, its folder is first on sys.path,
 * so `from calculate_lpips import f` in eval/common_metrics/eval.py is
 * eval/common_metrics/calculate_lpips.py, whatever package holds both;
 * -1 when there is none or mi is no script. */
static int32_t model__script_sibling(const Model *m, const char *name, int32_t mi) {
  const MModule *mm = &m->mods.items[mi];
  const char *dot = mm->alt ? strrchr(mm->alt, '.') : NULL;
  if (!dot || !mm->facts || !mm->facts->has_main || mm->is_init) return -1;
  char *q = xasprintf("%.*s.%s", (int)(dot - mm->alt), mm->alt, name);
  size_t k = model__index_find(&m->mod_names, q);
  free(q);
  return k < m->mod_names.len ? m->mod_names.items[k].val : -1;
}

/* A module named `name` as module `mi` imports it: one in mi's own folder
 * first (a script's folder is first on sys.path, so `from parallel import f`
 * in lumina_t2i/train.py is lumina_t2i/parallel.py, not another folder's
 * parallel.py), else the first of that name. */
static int32_t model__module_near(const Model *m, const char *name, int32_t mi) {
  size_t k = model__index_find(&m->mod_names, name);
  if (k == m->mod_names.len) {
    int32_t t = model__module_named(m, name);
    return t >= 0 ? t : model__script_sibling(m, name, mi);
  }
  const char *rel = m->mods.items[mi].rel, *slash = strrchr(rel, '/');
  size_t dn = slash ? (size_t)(slash - rel) : 0;
  for (size_t j = k; dn && j < m->mod_names.len && strcmp(m->mod_names.items[j].key, name) == 0; j++) {
    const char *c = m->mods.items[m->mod_names.items[j].val].rel;
    if (strncmp(c, rel, dn) == 0 && c[dn] == '/') return m->mod_names.items[j].val;
  }
  return m->mod_names.items[k].val;
}

/* The module an absolute name is in (`from pkg import name`: the longest
 * prefix that is a module), as module `near` imports it (-1: any), or -1;
 * *whole: the name is that module itself. */
static int32_t model__longest_module(const Model *m, const char *abs, int32_t near, bool *whole) {
  char *q = xstrdup(abs);
  int32_t to;
  while ((to = near >= 0 ? model__module_near(m, q, near) : model__module_named(m, q)) < 0 && strrchr(q, '.'))
    *strrchr(q, '.') = '\0';
  *whole = to >= 0 && strcmp(q, abs) == 0;
  free(q);
  return to;
}

/* `q`'s leading dots climbed from dotted module name `from` (a package's
 * own name when is_init): NULL when they climb above its top, which a
 * package name reaches at its top package and a path one step above. Caller
 * frees. */
static char *model__climb(const char *from, bool is_init, const char *q, bool package) {
  size_t dots = strspn(q, ".");
  char *base = xstrdup(from);
  if (!is_init) {
    char *d = strrchr(base, '.');
    if (d) *d = '\0';
    else base[0] = '\0';
  }
  for (size_t k = 1; k < dots; k++) {
    char *d = strrchr(base, '.');
    if (d) *d = '\0';
    else if (*base && !package) base[0] = '\0';
    else {
      free(base);
      return NULL;
    }
  }
  const char *rest = q + dots;
  char *r = !*base ? (*rest ? xstrdup(rest) : NULL) : *rest ? xasprintf("%s.%s", base, rest) : xstrdup(base);
  free(base);
  return r;
}

/* An import spelled in module `mi` made absolute: leading dots climb from
 * its package. NULL when it climbs above the top. Caller frees. */
static char *model__absolute(const Model *m, int32_t mi, const char *q) {
  if (q[0] != '.') return xstrdup(q);
  const MModule *mm = &m->mods.items[mi];
  /* a relative import outside any __init__.py package is one of a namespace
   * package (radial_attn/models/wan/attention.py's `from ...attn_mask`):
   * its package is its folder, from the project's top */
  char *r = model__climb(mm->in_package ? mm->name : mm->alt, mm->is_init, q, mm->in_package);
  /* a package below a folder without __init__.py is named from that folder,
   * but imported through it as a namespace portion (x-flux's
   * src/flux/annotator/hed/__init__.py, imported as .annotator.hed by
   * src/flux/util.py, climbs `...` to src.flux): climb its path */
  if (!r && mm->in_package) r = model__climb(mm->alt, mm->is_init, q, false);
  return r;
}

/* ---- resolution ---------------------------------------------------------------- */

/* The first of module mm's definitions named `id` in its def_order (or
 * where it would be). */
static size_t model__first_def(const MModule *mm, uint32_t id) {
  const MDefKey *o = mm->def_order.items;
  size_t lo = 0, hi = mm->def_order.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (o[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Top-level definition `name` (n bytes) of module mi (a method of class
 * `cls` when cls >= 0), as a local index, or -1. Of several, the last: the
 * one the name is bound to once the module (or class body) has run. */
static int32_t model__local_def(const Model *m, int32_t mi, const char *name, size_t n, int32_t cls) {
  const MModule *mm = &m->mods.items[mi];
  const PyFacts *f = mm->facts;
  /* every definition's name is interned: a name that is not names none */
  int64_t id = f && f->defs.len ? names_find(&m->names, name, n) : -1;
  if (id < 0) return -1;
  const MDefKey *o = mm->def_order.items;
  size_t end = model__first_def(mm, (uint32_t)id);
  while (end < mm->def_order.len && o[end].id == (uint32_t)id) end++;
  for (size_t k = end; k-- > 0 && o[k].id == (uint32_t)id;) { /* the last one first */
    const PyDef *d = &f->defs.items[o[k].idx];
    if (cls < 0 ? d->kind != PYDEF_METHOD : d->cls == cls) return (int32_t)o[k].idx;
  }
  return -1;
}

/* Whether module mm defines `id` outside classes: a bare name it reads is that definition. */
static bool model__local_name(const MModule *mm, uint32_t id) {
  for (size_t k = model__first_def(mm, id); k < mm->def_order.len && mm->def_order.items[k].id == id; k++)
    if (mm->facts->defs.items[mm->def_order.items[k].idx].kind != PYDEF_METHOD) return true;
  return false;
}

/* Whether module mm reads the bare name `id` (PyRef.plain) anywhere. */
static bool model__reads_own(const MModule *mm, uint32_t id) {
  for (size_t k = 0; k < mm->ref_ids.len; k++)
    if (mm->ref_ids.items[k] == id && mm->facts->refs.items[k].plain) return true;
  return false;
}

static int32_t model__global(const Model *m, int32_t mi, int32_t local) {
  return local < 0 ? -1 : (int32_t)(m->mods.items[mi].def_base + (uint32_t)local);
}

/* `rest` ("f", "C.m") inside module mi: a definition, or the binding or
 * star import it comes through (then *next is the name to follow). */
static int32_t model__in_module(const Model *m, int32_t mi, const char *rest, char **next) {
  const char *dot = strchr(rest, '.');
  size_t n = dot ? (size_t)(dot - rest) : strlen(rest);
  int32_t d = model__local_def(m, mi, rest, n, -1);
  const PyFacts *f = m->mods.items[mi].facts;
  if (d >= 0) {
    if (dot && f->defs.items[d].kind == PYDEF_CLASS) {
      const char *mn = dot + 1;
      size_t mlen = strcspn(mn, ".");
      int32_t meth = model__local_def(m, mi, mn, mlen, d);
      return model__global(m, mi, meth >= 0 ? meth : d);
    }
    return model__global(m, mi, d);
  }
  for (size_t i = 0; f && i < f->imports.len; i++) {
    const PyFactImport *im = &f->imports.items[i];
    if (strlen(im->local) != n || memcmp(im->local, rest, n) != 0) continue;
    char *abs = model__absolute(m, mi, im->qualname);
    if (!abs) return -1;
    *next = dot ? xasprintf("%s%s", abs, dot) : xstrdup(abs);
    free(abs);
    return -1;
  }
  for (size_t i = 0; f && i < f->star_imports.len; i++) {
    char *abs = model__absolute(m, mi, f->star_imports.items[i]);
    int32_t s = abs ? model__module_named(m, abs) : -1;
    if (s >= 0 && s != mi && model__local_def(m, s, rest, n, -1) >= 0) {
      *next = xasprintf("%s.%s", abs, rest);
      free(abs);
      return -1;
    }
    free(abs);
  }
  return -1;
}

/* Whether a dotted name's first component is a project module's: else it
 * names no project code. */
static bool model__maybe_ours(const Model *m, const char *qual) {
  char top[128];
  size_t n = strcspn(qual, ".");
  if (n >= sizeof top) return false;
  memcpy(top, qual, n);
  top[n] = '\0';
  return model__set_has(&m->tops, top);
}

/* Whether reference k of a module can mean a project definition: not a
 * name reached through another package's import (`dist.all_gather` with
 * `import torch.distributed as dist`, `Attention` imported from diffusers),
 * nor a name a module only imports and never uses (a package's __init__
 * re-exports what it imports; a module that calls eval() or globals() may
 * use any name it imports). */
static bool model__ref_ours(const MModule *mm, size_t k) {
  int32_t via = mm->facts->refs.items[k].via;
  bool only_imported = via <= -2;
  size_t at = (size_t)(only_imported ? -2 - via : via);
  if (via == -1 || at >= mm->import_ours.len) return true;
  if (!mm->import_ours.items[at]) return false;
  /* a package's `__init__` re-exports its surface; a library copy's surface
   * is used where the project's code names it */
  return !only_imported || (mm->is_init && !mm->vendored) || mm->evals;
}

/* Which imports of each module may name project code (the references read
 * it per reference): every module's after a whole link, else only those
 * whose links were dropped (imports are shape: a body-only link keeps them). */
static void model__imports_ours(Model *m) {
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    size_t n = mm->facts ? mm->facts->imports.len : 0;
    if (!m->shapes_relinked && mm->import_ours.len == n) continue;
    array_reserve(&mm->import_ours, n + 1);
    mm->import_ours.len = n;
    for (size_t k = 0; k < n; k++) {
      const char *q = mm->facts->imports.items[k].qualname;
      mm->import_ours.items[k] = q[0] == '.' || model__maybe_ours(m, q);
    }
  }
}

/* An absolute dotted name to a definition: the longest module prefix, then
 * definitions, bindings and star imports, for a bounded number of hops
 * (re-export cycles end). -1 when it is no project definition; *module
 * gets the module when the name is one. */
static int32_t model__resolve(const Model *m, const char *qual, int32_t *module, int32_t from) {
  if (module) *module = -1;
  if (!model__maybe_ours(m, qual)) return -1; /* torch.*, os.*: most names */
  char *q = xstrdup(qual);
  int32_t found = -1;
  if (module) *module = -1;
  for (int hop = 0; hop < MODEL__MAX_HOPS && q; hop++) {
    size_t len = strlen(q);
    int32_t mi = -1;
    while (len > 0) {
      char save = q[len];
      q[len] = '\0';
      mi = from >= 0 ? model__module_near(m, q, from) : model__module_named(m, q);
      q[len] = save;
      if (mi >= 0) break;
      while (len > 0 && q[len - 1] != '.') len--;
      if (len > 0) len--;
    }
    if (mi < 0) break;
    if (!q[len]) {
      if (module) *module = mi;
      break;
    }
    char *next = NULL;
    found = model__in_module(m, mi, q + len + 1, &next);
    free(q);
    q = next;
    from = mi; /* a re-export's name is resolved from the module that makes it */
    if (found >= 0) break;
  }
  free(q);
  return found;
}

/* A name used in module mi: a local definition, or through its imports. */
static int32_t model__resolve_in(const Model *m, int32_t mi, const char *name, bool local_first) {
  char *next = NULL;
  int32_t d = -1;
  if (local_first) {
    d = model__in_module(m, mi, name, &next);
    if (d >= 0 || !next) {
      free(next);
      return d;
    }
  } else {
    next = model__absolute(m, mi, name);
  }
  if (next) d = model__resolve(m, next, NULL, mi);
  free(next);
  return d;
}

/* The project class (global) a class's base expression names (PyDef.bases:
 * a local name, or spelled through the file's imports like an imported
 * callee), or -1. */
static int32_t model__base(const Model *m, int32_t mi, const char *spelled) {
  int32_t d = model__resolve_in(m, mi, spelled, true);
  return d >= 0 ? d : model__resolve_in(m, mi, spelled, false);
}

/* The bases of every class definition resolved once per whole link (a
 * method lookup walks them for every `self.m()` and `super().m()` call). */
static void model__resolve_bases(Model *m) {
  array_reserve(&m->bases_first, m->defs.len + 1);
  m->bases_first.len = 0;
  m->bases.len = 0;
  for (size_t g = 0; g < m->defs.len; g++) {
    array_push(&m->bases_first, (uint32_t)m->bases.len);
    const PyDef *d = &m->mods.items[m->defs.items[g].mod].facts->defs.items[m->defs.items[g].idx];
    for (size_t b = 0; d->kind == PYDEF_CLASS && b < d->bases.len; b++)
      array_push(&m->bases, model__base(m, m->defs.items[g].mod, d->bases.items[b]));
  }
  array_push(&m->bases_first, (uint32_t)m->bases.len);
}

/* Method `name` of class definition cls (global) or of its project bases,
 * breadth-first; `skip_self` starts at the bases (super()). */
static int32_t model__method(const Model *m, int32_t cls, const char *name, bool skip_self) {
  int32_t queue[MODEL__MAX_HOPS];
  size_t head = 0, tail = 0;
  queue[tail++] = cls;
  while (head < tail) {
    int32_t c = queue[head++];
    const MDef *cd = &m->defs.items[c];
    if (!(skip_self && c == cls)) {
      int32_t meth = model__local_def(m, cd->mod, name, strlen(name), cd->idx);
      if (meth >= 0) return model__global(m, cd->mod, meth);
    }
    for (uint32_t b = m->bases_first.items[c]; b < m->bases_first.items[c + 1] && tail < MODEL__MAX_HOPS; b++) {
      int32_t base = m->bases.items[b];
      if (base >= 0 && m->mods.items[m->defs.items[base].mod].facts->defs.items[m->defs.items[base].idx].kind == PYDEF_CLASS)
        queue[tail++] = base;
    }
  }
  return -1;
}

static const PyDef *model__pydef(const Model *m, int32_t g) {
  const MDef *d = &m->defs.items[g];
  return &m->mods.items[d->mod].facts->defs.items[d->idx];
}

/* The class a call's owner is in (global), or -1. */
static int32_t model__owner_class(const Model *m, int32_t mi, int32_t owner) {
  if (owner < 0) return -1;
  const PyDef *d = &m->mods.items[mi].facts->defs.items[owner];
  if (d->kind == PYDEF_METHOD) return model__global(m, mi, d->cls);
  return d->kind == PYDEF_CLASS ? model__global(m, mi, owner) : -1;
}

static int32_t model__call_target(const Model *m, int32_t mi, const PyCall *c) {
  switch (c->kind) {
  case PYCALL_IMPORTED: return model__resolve_in(m, mi, c->callee, false);
  case PYCALL_LOCAL: return model__resolve_in(m, mi, c->callee, true);
  case PYCALL_SELF:
  case PYCALL_SUPER: {
    int32_t cls = model__owner_class(m, mi, c->owner);
    return cls < 0 ? -1 : model__method(m, cls, c->callee, c->kind == PYCALL_SUPER);
  }
  case PYCALL_MEMBER: return -1;
  }
  return -1;
}

/* ---- linking passes ----------------------------------------------------------- */

/* Whether module code (outside every definition) mentions the interned
 * `name`: a table or registry may hold the first of two definitions of it. */
static bool model__module_mentions(const MModule *mm, uint32_t name) {
  for (size_t k = 0; k < mm->facts->refs.len; k++)
    if (mm->facts->refs.items[k].owner == PYREF_MODULE && mm->ref_ids.items[k] == name) return true;
  return false;
}

/* Whether a module-level definition starts a line (`def f`, `async def f`,
 * `class C`: its name at column 4, 10 or 6), not a branch of an `if`/`try`. */
static bool model__at_column_0(const PyDef *d) {
  return d->kind == PYDEF_CLASS ? d->at.col == 6 : d->at.col == 4 || d->at.col == 10;
}

/* A definition that a later one of the same name at the same level
 * replaces before anything can call it (`def f` ... `def f` in one module
 * or one class body, the first undecorated, its name unmentioned by module
 * code) never runs: Python binds the name to the last one. Definitions in
 * branches (`if X: def f` / `else: def f`) are alternatives, not
 * replacements: only those at the same column count. One backward sweep
 * per module, with the last definition seen of each name. */
static void model__shadows(Model *m) {
  size_t n = m->names.strs.len;
  int32_t *last = xmalloc((n + 1) * sizeof *last);
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    const PyFacts *f = mm->facts;
    if (!f || !f->defs.len) continue;
    for (size_t k = 0; k < f->defs.len; k++) last[mm->def_ids.items[k]] = -1;
    for (size_t k = f->defs.len; k-- > 0;) {
      m->defs.items[mm->def_base + k].shadow = -1;
      const PyDef *d = &f->defs.items[k];
      uint32_t id = mm->def_ids.items[k];
      int32_t later = last[id];
      last[id] = (int32_t)k;
      if (later < 0 || d->decorated) continue;
      const PyDef *e = &f->defs.items[later];
      if (e->cls != d->cls || e->at.col != d->at.col || (d->kind == PYDEF_METHOD) != (e->kind == PYDEF_METHOD)) continue;
      if (d->kind != PYDEF_METHOD && (!model__at_column_0(d) || model__module_mentions(mm, id))) continue;
      m->defs.items[mm->def_base + k].shadow = later;
    }
  }
  free(last);
}

static void model__defs(Model *m) {
  model__strs_free(m->ns_roots.items, m->ns_roots.len);
  m->ns_roots.len = 0;
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    mm->def_base = (uint32_t)m->defs.len;
    mm->importer = -1;
    mm->computed_by = -1;
    mm->imported_by_code = false;
    mm->run_beside = false;
    for (size_t k = 0; mm->facts && k < mm->facts->defs.len; k++) {
      MDef d = {(int32_t)i, (int32_t)k, -1, -1, -1, 0, false, false, -1};
      array_push(&m->defs, d);
    }
  }
  /* the definitions of each name, grouped (a counting sort over name ids) */
  size_t n = m->names.strs.len;
  m->byname_first.len = 0;
  array_reserve(&m->byname_first, n + 1);
  m->byname_first.len = n + 1;
  memset(m->byname_first.items, 0, (n + 1) * sizeof *m->byname_first.items);
  for (size_t g = 0; g < m->defs.len; g++) {
    const MDef *d = &m->defs.items[g];
    m->byname_first.items[m->mods.items[d->mod].def_ids.items[d->idx] + 1]++;
  }
  for (size_t i = 0; i < n; i++) m->byname_first.items[i + 1] += m->byname_first.items[i];
  array_reserve(&m->byname_defs, m->defs.len + 1);
  m->byname_defs.len = m->defs.len;
  Array(uint32_t) fill = {0};
  array_reserve(&fill, n + 1);
  memcpy(fill.items, m->byname_first.items, n * sizeof *fill.items);
  for (size_t g = 0; g < m->defs.len; g++) {
    const MDef *d = &m->defs.items[g];
    m->byname_defs.items[fill.items[m->mods.items[d->mod].def_ids.items[d->idx]]++] = (int32_t)g;
  }
  array_free(&fill);
}

/* Whether an absolute module name that resolves to nothing belongs to the
 * project (its top package is one of ours): then it is missing, not
 * third-party. */
static bool model__ours(const Model *m, const char *abs) {
  size_t n = strcspn(abs, ".");
  char *top = xstrndup(abs, n);
  int32_t t = model__module_named(m, top);
  free(top);
  return t >= 0 && m->mods.items[t].is_init;
}

/* Whether a module that is not among the sources may be built: a compiled
 * extension (`pkg._C`: a private name) or one the packaging files name
 * (setup.py's ext_modules). Then it is unknown, not missing. */
static bool model__built_name(const Model *m, const char *last, size_t n) {
  if (last[0] == '_') return true;
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    if (l->kind == MINPUT_README) continue; /* a README names modules it documents, not ones a build makes */
    for (const char *p = l->text; (p = memmem(p, l->len - (size_t)(p - l->text), last, n)) != NULL; p++)
      if ((p == l->text || !model__word(p[-1])) && !model__word(p[n])) return true;
  }
  return false;
}

/* The first part of the name that is not a project module decides:
 * `pkg._C.ops` is a name inside the built `pkg._C`, whose attributes the
 * sources cannot show. */
static bool model__maybe_built(const Model *m, const char *abs) {
  char *q = xstrdup(abs);
  size_t n = strlen(q);
  for (const char *p = strchr(abs, '.'); p; p = strchr(p + 1, '.')) {
    q[p - abs] = '\0';
    bool have = model__module_named(m, q) >= 0;
    q[p - abs] = '.';
    if (!have) {
      n = (size_t)(p - abs);
      break;
    }
  }
  free(q);
  const char *start = abs + n;
  while (start > abs && start[-1] != '.') start--;
  return model__built_name(m, start, (size_t)(abs + n - start));
}

/* A directory of modules without __init__.py (a namespace package): some
 * module's name continues `abs` with a dot. */
static bool model__continued(const MIndex *ix, const char *abs) {
  size_t n = strlen(abs), lo = 0, hi = ix->len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(ix->items[mid].key, abs) <= 0) lo = mid + 1;
    else hi = mid;
  }
  for (size_t k = lo; k < ix->len && strncmp(ix->items[k].key, abs, n) == 0; k++)
    if (ix->items[k].key[n] == '.') return true;
  return false;
}

static bool model__namespace(const Model *m, const char *abs) {
  return model__continued(&m->mod_names, abs) || model__continued(&m->mod_suffixes, abs);
}

static void model__add_dep(MModule *mm, int32_t to) {
  for (size_t i = 0; i < mm->deps.len; i++)
    if (mm->deps.items[i] == to) return;
  array_push(&mm->deps, to);
}

/* The length of a dotted name's first component. */
static size_t model__first_len(const char *dotted) { return strcspn(dotted, "."); }

/* Whether the folder `root` (a first component) is a namespace the project
 * imports through. */
static bool model__is_ns_root(const Model *m, const char *root, size_t n) {
  for (size_t i = 0; i < m->ns_roots.len; i++)
    if (strlen(m->ns_roots.items[i]) == n && strncmp(m->ns_roots.items[i], root, n) == 0) return true;
  return false;
}

/* An import that reached module `to` by its whole path (`ldm.util` for
 * ldm/util.py, named `util`): its first folder is a namespace package, and
 * the packages below it are its subpackages, not top-level ones. */
static void model__note_namespace(Model *m, const char *abs, const MModule *to) {
  size_t n = model__first_len(abs);
  if (!to->alt || strncmp(to->alt, abs, n) != 0 || to->alt[n] != '.' ||
      (strncmp(to->name, abs, n) == 0 && (to->name[n] == '.' || to->name[n] == '\0')) || model__is_ns_root(m, abs, n))
    return;
  array_push(&m->ns_roots, xstrndup(abs, n));
}

/* A missing name whose top package the project may only import through a
 * namespace folder: decided once every import has noted its namespaces. */
typedef struct {
  int32_t mod;
  char *abs;
} MMissing;
typedef Array(MMissing) MMissings;

/* The length of the folder part of a path (0: none). */
static size_t model__dir_len(const char *rel, size_t n) {
  while (n > 0 && rel[n - 1] != '/') n--;
  return n ? n - 1 : 0;
}

/* Whether the project's package named like abs's first component is one it
 * imports through a namespace folder (`projects.llava_sam2.datasets`, whose
 * folder also makes a top-level `datasets`) and module mi does not sit beside
 * it (a script's own folder comes first in its imports, so there the name
 * is that package): a bare `from datasets import Dataset` that the package
 * does not bind is then the library of that name (Hugging Face's), unknown
 * rather than missing. */
static bool model__shadow_top(const Model *m, int32_t mi, const char *abs) {
  char *top = xstrndup(abs, model__first_len(abs));
  int32_t t = model__module_named(m, top);
  free(top);
  if (t < 0) return false;
  const MModule *pkg = &m->mods.items[t], *mm = &m->mods.items[mi];
  if (!pkg->alt || strcmp(pkg->alt, pkg->name) == 0 || !model__is_ns_root(m, pkg->alt, model__first_len(pkg->alt)))
    return false;
  size_t pkg_dir = model__dir_len(pkg->rel, strlen(pkg->rel)); /* .../datasets */
  size_t above = model__dir_len(pkg->rel, pkg_dir), own = model__dir_len(mm->rel, strlen(mm->rel));
  return !(own == above && strncmp(mm->rel, pkg->rel, own) == 0);
}

static void model__mark_missing(Model *m, int32_t mi, const char *what) {
  MModule *mm = &m->mods.items[mi];
  if (mm->broken) return; /* the first missing import is the reason */
  mm->broken = true;
  mm->broken_reason = xasprintf("%s imports %s, which is not in the project", mm->rel, what);
}

/* The module an import of module mi spelled so loads (the longest prefix
 * of its absolute name that is a module), or -1. */
static int32_t model__resolve_quiet(const Model *m, int32_t mi, const char *spelled) {
  char *abs = model__absolute(m, mi, spelled);
  bool whole;
  int32_t to = abs ? model__longest_module(m, abs, mi, &whole) : -1;
  free(abs);
  return to;
}

/* How many of n strings equal s. */
static size_t model__count_str(char *const *strs, size_t n, const char *s) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += strcmp(strs[i], s) == 0;
  return c;
}

/* Whether module mi imports module `to` outside every gate: at its top, by
 * a star, or in a function where no gate holds the import (a dynamic
 * import spelled as often as gated ones are all gated). */
static bool model__imports_ungated(const Model *m, int32_t mi, int32_t to) {
  const PyFacts *f = m->mods.items[mi].facts;
  for (size_t k = 0; k < f->imports.len; k++) {
    const PyFactImport *im = &f->imports.items[k];
    if (model__resolve_quiet(m, mi, im->from_import ? im->qualname : im->module) == to) return true;
    if (im->from_import && model__resolve_quiet(m, mi, im->module) == to) return true;
  }
  for (size_t k = 0; k < f->star_imports.len; k++)
    if (model__resolve_quiet(m, mi, f->star_imports.items[k]) == to) return true;
  for (size_t k = 0; k < f->dynamic_imports.len; k++) {
    const char *d = f->dynamic_imports.items[k];
    size_t gated = 0;
    for (size_t g = 0; g < f->gated.len; g++) gated += strcmp(f->gated.items[g].module, d) == 0;
    if (model__count_str(f->dynamic_imports.items, f->dynamic_imports.len, d) > gated && model__resolve_quiet(m, mi, d) == to)
      return true;
  }
  return false;
}

/* One import of module mi: a dependency edge, or the module is broken (a
 * name of a package that may be a namespace's goes to `later`). */
static void model__import(Model *m, int32_t mi, const char *spelled, bool required, MMissings *later) {
  MModule *mm = &m->mods.items[mi];
  char *abs = model__absolute(m, mi, spelled);
  int32_t to = -1;
  if (abs) {
    bool whole;
    to = model__longest_module(m, abs, mi, &whole);
    if (to >= 0 && to != mi) model__add_dep(mm, to);
    if (to >= 0 && m->mods.items[to].importer < 0 && to != mi) m->mods.items[to].importer = mi;
    if (to >= 0 && to != mi && !mm->test) m->mods.items[to].imported_by_code = true;
    if (to >= 0 && to != mi) model__note_namespace(m, abs, &m->mods.items[to]);
    if (to >= 0 && to != mi && spelled[0] != '.' && mm->facts->has_main) {
      char *first = xstrndup(abs, model__first_len(abs));
      if (model__script_sibling(m, first, mi) == to) mm->run_beside = m->mods.items[to].run_beside = true;
      free(first);
    }
    if (whole || !required || mm->broken) {
      free(abs);
      return;
    }
    if (to >= 0 && !m->mods.items[to].is_init) to = -2; /* a name in a module: unknown, not missing */
  }
  if (required && (to == -1 || (to >= 0 && m->mods.items[to].is_init)) && (!abs || spelled[0] == '.' || model__ours(m, abs))) {
    /* the prefix found is a package without that submodule or name: only a
     * submodule could be missing (a name may be assigned in __init__) */
    bool missing = to == -1;
    if (!missing && abs) {
      const MModule *pkg = &m->mods.items[to];
      const char *last = strrchr(abs, '.');
      last = last ? last + 1 : abs;
      bool bound = pkg->facts && pkg->facts->star_imports.len > 0; /* `from .x import *` may bind it */
      for (size_t r = 0; pkg->facts && r < pkg->facts->refs.len && !bound; r++)
        bound = pkg->facts->refs.items[r].owner == PYREF_MODULE && strcmp(pkg->facts->refs.items[r].name, last) == 0;
      /* an import binds it too, a guarded one included (`try: from xfuser... import
       * get_sp_group` with `get_sp_group = None` in the handler: StableAvatar's wan/dist) */
      for (size_t r = 0; pkg->facts && r < pkg->facts->imports.len && !bound; r++)
        bound = strcmp(pkg->facts->imports.items[r].local, last) == 0;
      missing = !bound && model__local_def(m, to, last, strlen(last), -1) < 0;
    }
    if (missing && abs && (model__maybe_built(m, abs) || model__namespace(m, abs))) missing = false;
    if (missing && abs && !mm->broken && to >= 0) { /* the namespaces are known once every import is linked */
      array_push(later, ((MMissing){mi, abs}));
      abs = NULL;
    } else if (missing) {
      model__mark_missing(m, mi, abs ? abs : spelled);
    }
  }
  free(abs);
}

/* `from pkg import Name` where pkg is a package of a library copy that binds
 * Name lazily (under `if TYPE_CHECKING:`, loaded on first use, as
 * transformers and diffusers do): module mi loads the module Name comes
 * from, through lazy re-exports up to MODEL__MAX_HOPS deep. */
static void model__lazy_dep(Model *m, int32_t mi, const char *spelled) {
  char *abs = model__absolute(m, mi, spelled);
  for (int hop = 0; abs && hop < MODEL__MAX_HOPS; hop++) {
    char *dot = strrchr(abs, '.');
    if (!dot) break;
    *dot = '\0';
    int32_t p = model__module_named(m, abs);
    const MModule *pkg = p >= 0 ? &m->mods.items[p] : NULL;
    if (!pkg || !pkg->is_init || !pkg->vendored || !pkg->facts) break;
    const PyFactImport *lazy = NULL;
    for (size_t k = 0; k < pkg->facts->imports.len && !lazy; k++) {
      const PyFactImport *im = &pkg->facts->imports.items[k];
      if (im->lazy && strcmp(im->local, dot + 1) == 0) lazy = im;
    }
    if (!lazy) break;
    char *next = model__absolute(m, p, lazy->from_import ? lazy->qualname : lazy->module);
    free(abs);
    abs = next;
    if (!abs) break;
    bool whole;
    int32_t to = model__longest_module(m, abs, -1, &whole); /* the module the name is in */
    if (to >= 0 && to != mi) model__add_dep(&m->mods.items[mi], to);
    if (to < 0 || whole || !lazy->from_import) break;
  }
  free(abs);
}

static void model__link_imports(Model *m) {
  MMissings later = {0};
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    if (!mm->facts || mm->stub) continue;
    for (size_t k = 0; k < mm->facts->imports.len; k++) {
      const PyFactImport *im = &mm->facts->imports.items[k];
      if (im->lazy && mm->vendored) continue; /* a library copy's lazy binding: loaded where it is imported */
      bool required = im->top && !im->guarded && !im->lazy;
      model__import(m, (int32_t)i, im->from_import ? im->qualname : im->module, required, &later);
      if (im->from_import) model__import(m, (int32_t)i, im->module, required, &later);
      if (im->from_import && !im->lazy) model__lazy_dep(m, (int32_t)i, im->qualname);
    }
    for (size_t k = 0; k < mm->facts->star_imports.len; k++) model__import(m, (int32_t)i, mm->facts->star_imports.items[k], false, &later);
    for (size_t k = 0; k < mm->facts->dynamic_imports.len; k++)
      model__import(m, (int32_t)i, mm->facts->dynamic_imports.items[k], false, &later);
  }
  for (size_t k = 0; k < later.len; k++) {
    if (!model__shadow_top(m, later.items[k].mod, later.items[k].abs)) model__mark_missing(m, later.items[k].mod, later.items[k].abs);
    free(later.items[k].abs);
  }
  array_free(&later);
  /* a module importing an unimportable one cannot be imported either */
  Array(int32_t) work = {0};
  for (size_t i = 0; i < m->mods.len; i++)
    if (m->mods.items[i].broken) array_push(&work, (int32_t)i);
  for (size_t w = 0; w < work.len; w++) {
    int32_t b = work.items[w];
    for (size_t i = 0; i < m->mods.len; i++) {
      MModule *mm = &m->mods.items[i];
      if (mm->broken || !mm->facts) continue;
      bool uses = false;
      for (size_t k = 0; k < mm->facts->imports.len && !uses; k++) {
        const PyFactImport *im = &mm->facts->imports.items[k];
        if (!im->top || im->guarded) continue;
        char *abs = model__absolute(m, (int32_t)i, im->module);
        uses = abs && model__module_named(m, abs) == b;
        free(abs);
      }
      if (!uses) continue;
      mm->broken = true;
      mm->broken_reason = xstrdup(m->mods.items[b].broken_reason);
      array_push(&work, (int32_t)i);
    }
  }
  array_free(&work);
}

/* ---- summaries: the fixpoint ----------------------------------------------------- */

typedef struct {
  Array(uint32_t) first; /* per definition + sentinel: first caller in `from` */
  Array(int32_t) from;
} MEdges;

/* Reverse edges "caller needs callee": unguarded calls between
 * definitions, and a class's constructor, forward and project bases. */
/* The edges of the classes' structure: a class needs its constructor,
 * forward and __call__, a subclass its project bases. They depend on
 * definitions and imports only, which a body-only link keeps. */
static void model__class_pairs(Model *m) {
  m->class_pairs.len = 0;
  for (size_t g = 0; g < m->defs.len; g++) {
    const PyDef *d = model__pydef(m, (int32_t)g);
    if (d->kind != PYDEF_METHOD) continue;
    if (strcmp(d->name, "__init__") && strcmp(d->name, "forward") && strcmp(d->name, "__call__")) continue;
    array_push(&m->class_pairs, (int32_t)g);
    array_push(&m->class_pairs, model__global(m, m->defs.items[g].mod, d->cls));
  }
  for (size_t g = 0; g < m->defs.len; g++) {
    for (uint32_t b = m->bases_first.items[g]; b < m->bases_first.items[g + 1]; b++) {
      int32_t base = m->bases.items[b];
      if (base < 0 || base == (int32_t)g || model__pydef(m, base)->kind != PYDEF_CLASS) continue;
      array_push(&m->class_pairs, base);
      array_push(&m->class_pairs, (int32_t)g);
    }
  }
}

static void model__edges(Model *m, MEdges *e) {
  Array(int32_t) pairs = {0}; /* (callee, caller) */
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    for (size_t k = 0; mm->facts && k < mm->facts->calls.len; k++) {
      const PyCall *c = &mm->facts->calls.items[k];
      int32_t t = mm->call_target.items[k], o = model__global(m, (int32_t)i, c->owner);
      if (t < 0 || o < 0 || t == o || (c->flags & (PYCALL_GUARDED | PYCALL_NPU_AWARE | PYCALL_DEAD))) continue;
      array_push(&pairs, t);
      array_push(&pairs, o);
    }
  }
  if (m->shapes_relinked) model__class_pairs(m);
  for (size_t p = 0; p < m->class_pairs.len; p++) array_push(&pairs, m->class_pairs.items[p]);
  size_t n = m->defs.len;
  array_reserve(&e->first, n + 1);
  e->first.len = n + 1;
  memset(e->first.items, 0, (n + 1) * sizeof *e->first.items);
  for (size_t p = 0; p < pairs.len; p += 2) e->first.items[pairs.items[p] + 1]++;
  for (size_t i = 0; i < n; i++) e->first.items[i + 1] += e->first.items[i];
  array_reserve(&e->from, pairs.len / 2 + 1);
  e->from.len = pairs.len / 2;
  Array(uint32_t) fill = {0};
  array_reserve(&fill, n + 1);
  memcpy(fill.items, e->first.items, n * sizeof *fill.items);
  for (size_t p = 0; p < pairs.len; p += 2) e->from.items[fill.items[pairs.items[p]]++] = pairs.items[p + 1];
  array_free(&fill);
  array_free(&pairs);
}

/* Whether a construct of mm makes its holder need CUDA: not guarded, not
 * lowered, and not one transfer_to_npu handles in every process that runs mm. */
static bool model__counts(const MModule *mm, const MConstruct *c) {
  return !c->guarded && c->severity <= SEV_WARNING && !(c->transferable && mm->transfer_by >= 0);
}

typedef Array(int32_t) MDefList; /* global definition indices */

/* Whether a call's callee (qualified through the file's imports) is the
 * imported module or name `subject` or something under it. */
static bool model__calls_into(const PyCall *c, const char *subject) {
  size_t n = strlen(subject);
  return c->kind == PYCALL_IMPORTED && strncmp(c->callee, subject, n) == 0 && (c->callee[n] == '\0' || c->callee[n] == '.');
}

/* A definition with no construct of its own that calls through an import
 * of CUDA-only code (`flash_attn_cuda.fwd(...)` under `import
 * flash_attn_2_cuda as flash_attn_cuda`) needs it: the import is its
 * construct. Added to `work` like the definitions holding constructs. */
static void model__import_uses(Model *m, size_t i, MDefList *work) {
  const MModule *mm = &m->mods.items[i];
  for (size_t k = 0; k < mm->cons.len; k++) {
    const MConstruct *c = &mm->cons.items[k];
    if (c->def >= 0 || !c->import || !model__counts(mm, c)) continue;
    for (size_t j = 0; j < mm->facts->calls.len; j++) {
      const PyCall *call = &mm->facts->calls.items[j];
      if (call->owner < 0 || (call->flags & (PYCALL_GUARDED | PYCALL_NPU_AWARE | PYCALL_DEAD))) continue;
      if (!model__calls_into(call, c->subject)) continue;
      MDef *d = &m->defs.items[mm->def_base + (uint32_t)call->owner];
      if (d->need_cons >= 0) continue;
      d->need_mod = (int32_t)i;
      d->need_cons = (int32_t)k;
      array_push(work, (int32_t)(mm->def_base + (uint32_t)call->owner));
    }
  }
}

static size_t model__overridden(const Model *m, const MModule *mm, uint32_t at, const PyParam **param);

static void model__summaries(Model *m) {
  MDefList work = {0};
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    for (size_t k = 0; k < mm->cons.len; k++) {
      const MConstruct *c = &mm->cons.items[k];
      /* a default every call passes never takes effect: no caller needs it */
      if (c->def < 0 || !model__counts(mm, c) || model__overridden(m, mm, c->start_byte, NULL)) continue;
      MDef *d = &m->defs.items[mm->def_base + (uint32_t)c->def];
      const MConstruct *old = d->need_cons >= 0 ? &mm->cons.items[d->need_cons] : NULL;
      if (old && old->severity <= c->severity) continue;
      if (!old) array_push(&work, (int32_t)(mm->def_base + (uint32_t)c->def));
      d->need_mod = (int32_t)i;
      d->need_cons = (int32_t)k;
    }
  }
  for (size_t i = 0; i < m->mods.len; i++)
    if (m->mods.items[i].facts) model__import_uses(m, i, &work);
  /* breadth-first from the constructs: the shortest chain wins; a
   * definition is settled once, so cycles end */
  MEdges e = {0};
  model__edges(m, &e);
  for (size_t w = 0; w < work.len; w++) {
    int32_t t = work.items[w];
    const MDef *td = &m->defs.items[t];
    for (uint32_t k = e.first.items[t]; k < e.first.items[t + 1]; k++) {
      MDef *u = &m->defs.items[e.from.items[k]];
      if (u->need_cons >= 0) continue;
      u->need_mod = td->need_mod;
      u->need_cons = td->need_cons;
      u->via = t;
      u->depth = td->depth + 1;
      array_push(&work, e.from.items[k]);
    }
  }
  m->st.needs_cuda = work.len;
  array_free(&work);
  array_free(&e.first);
  array_free(&e.from);
}

typedef Array(int32_t) MQueue;

/* Switches and gates (defined with the defaults callers pass, which decide them). */
static bool model__gated_off(const Model *m, const MModule *mm, int32_t to);
static const PyGate *model__off_gate(const Model *m, const MModule *mm, uint32_t at, const PyParam **param, size_t *calls);
static void model__switch_attrs(Model *m);
static void model__gated_deps(Model *m);

/* What loading mm loads first, appended to out: the packages above it
 * (importing `a.b.c` runs `a` and `a.b`) and the modules it imports,
 * less those only imports behind off switches load (model__gated_off). */
static void model__next(const Model *m, const MModule *mm, MQueue *out) {
  char *up = xstrdup(mm->name);
  for (char *dot; (dot = strrchr(up, '.')) != NULL;) {
    *dot = '\0';
    int32_t p = model__module_named(m, up);
    if (p >= 0 && m->mods.items[p].is_init) array_push(out, p);
  }
  free(up);
  for (size_t k = 0; k < mm->deps.len; k++)
    if (!model__gated_off(m, mm, mm->deps.items[k])) array_push(out, mm->deps.items[k]);
}

/* ---- entry points and reachability ----------------------------------------------- */


/* The end of the path-like token (name characters, dots, slashes) that
 * starts at t[i], or i when none starts there (one does only after a
 * character that could not be part of it). */
static size_t model__token_end(const char *t, size_t len, size_t i) {
  if (!model__word(t[i]) || (i > 0 && (model__word(t[i - 1]) || t[i - 1] == '.' || t[i - 1] == '/'))) return i;
  size_t e = i;
  while (e < len && (model__word(t[e]) || t[e] == '.' || t[e] == '/')) e++;
  return e;
}

/* Whether token t[i, e) is a `.py` path. */
static bool model__py_path(const char *t, size_t i, size_t e) { return e - i > 3 && memcmp(t + e - 3, ".py", 3) == 0; }

/* Scans a README for the `.py` paths it names (`bash tools/dist.sh train
 * projects/llava_sam2/configs/sa2va_4b.py 8`): they launch nothing, but
 * one that is a configuration is executed by the tool it is passed to. */
static void model__scan_doc_paths(Model *m, const char *t, size_t len) {
  for (size_t i = 0; i < len; i++) {
    size_t e = model__token_end(t, len, i);
    if (e == i) continue;
    if (model__py_path(t, i, e) && memchr(t + i, '/', e - i)) array_push(&m->doc_paths, xstrndup(t + i, e - i));
    i = e;
  }
}

/* Scans a launcher or a README's text for what it runs: `-m pkg.mod`,
 * `something.py`, `pkg.mod:func`, into *r. */
static void model__scan_runs(MRuns *r, const char *t, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (t[i] == '-' && i + 2 < len && t[i + 1] == 'm' && (t[i + 2] == ' ' || t[i + 2] == '\t') && (i == 0 || !model__word(t[i - 1]))) {
      size_t s = i + 2;
      while (s < len && (t[s] == ' ' || t[s] == '\t')) s++;
      size_t e = s;
      while (e < len && (model__word(t[e]) || t[e] == '.')) e++;
      if (e > s) array_push(&r->modules, xstrndup(t + s, e - s));
      i = e;
      continue;
    }
    size_t e = model__token_end(t, len, i);
    if (e == i) continue;
    if (model__py_path(t, i, e)) {
      array_push(&r->paths, xstrndup(t + i, e - i));
    } else if (e < len && t[e] == ':' && e + 1 < len && model__word(t[e + 1]) && memchr(t + i, '.', e - i)) {
      size_t f = e + 1;
      while (f < len && model__word(t[f])) f++;
      array_push(&r->funcs, xstrndup(t + i, f - i));
      e = f;
    }
    i = e;
  }
}

typedef struct {
  Model *m;
  Array(int32_t) work;
  uint8_t *reached; /* per name id: already followed */
  const char *opt_in; /* the "opt-in-methods" row's pattern, or NULL */
  const KbEntry *training; /* the "training-only-methods" row, or NULL when the project trains */
} MReach;

/* Whether class definition d names a base of the kb pattern `bases`. */
static bool model__has_base(const PyDef *d, const char *bases) {
  for (size_t i = 0; bases && i < d->bases.len; i++)
    if (kb_pattern_match(bases, d->bases.items[i])) return true;
  return false;
}

static bool model__helper_pkg(const MModule *mm);

/* Whether method md of class cls (of module mm) is one autograd calls only
 * in a backward pass (the row's `arg`) of an application's autograd
 * Function (a base of its `value`), in a project that never trains (the
 * caller passes the row only then). A library's Function runs backward in
 * its users' training. */
static bool model__backward_only(const MModule *mm, const PyDef *cls, const PyDef *md, const KbEntry *training) {
  return training && kb_pattern_match(training->arg, md->name) && (!mm->in_package || model__helper_pkg(mm)) &&
         model__has_base(cls, training->value);
}

static void model__reach_def(MReach *r, int32_t g) {
  MDef *d = &r->m->defs.items[g];
  if (d->reachable || d->shadow >= 0 || r->m->mods.items[d->mod].broken || !r->m->mods.items[d->mod].loaded) return;
  d->reachable = true;
  array_push(&r->work, g);
}

/* A name mentioned by reachable code keeps every definition of that name
 * alive (callbacks, getattr, registries: unknown stays reachable). */
static void model__reach_name(MReach *r, uint32_t id) {
  if (r->reached[id]) return;
  r->reached[id] = 1;
  const Model *m = r->m;
  if ((size_t)id + 1 >= m->byname_first.len) return; /* a name no definition has (new since the last whole link) */
  for (uint32_t k = m->byname_first.items[id]; k < m->byname_first.items[id + 1]; k++) model__reach_def(r, m->byname_defs.items[k]);
}

/* Calls grouped by owner: -2 the __main__ block, -1 the other module code. */
static int32_t model__call_owner(const PyCall *c) { return c->owner >= 0 ? c->owner : c->in_main ? PYREF_MAIN : PYREF_MODULE; }

static void model__call_groups(MModule *mm) {
  const PyFacts *f = mm->facts;
  size_t owners = f->defs.len + 2;
  array_reserve(&mm->call_first, owners + 1);
  mm->call_first.len = owners + 1;
  memset(mm->call_first.items, 0, (owners + 1) * sizeof *mm->call_first.items);
  for (size_t k = 0; k < f->calls.len; k++) mm->call_first.items[model__call_owner(&f->calls.items[k]) + 2 + 1]++;
  for (size_t o = 0; o < owners; o++) mm->call_first.items[o + 1] += mm->call_first.items[o];
  array_reserve(&mm->call_order, f->calls.len + 1);
  mm->call_order.len = f->calls.len;
  Array(uint32_t) fill = {0};
  array_reserve(&fill, owners);
  memcpy(fill.items, mm->call_first.items, owners * sizeof *fill.items);
  for (size_t k = 0; k < f->calls.len; k++)
    mm->call_order.items[fill.items[model__call_owner(&f->calls.items[k]) + 2]++] = (uint32_t)k;
  array_free(&fill);
}

static void model__ref_groups(MModule *mm) {
  const PyFacts *f = mm->facts;
  model__call_groups(mm);
  size_t owners = f->defs.len + 2;
  array_reserve(&mm->ref_first, owners + 1);
  mm->ref_first.len = owners + 1;
  memset(mm->ref_first.items, 0, (owners + 1) * sizeof *mm->ref_first.items);
  for (size_t k = 0; k < f->refs.len; k++) mm->ref_first.items[f->refs.items[k].owner + 2 + 1]++;
  for (size_t o = 0; o < owners; o++) mm->ref_first.items[o + 1] += mm->ref_first.items[o];
  array_reserve(&mm->ref_order, f->refs.len + 1);
  mm->ref_order.len = f->refs.len;
  Array(uint32_t) fill = {0};
  array_reserve(&fill, owners);
  memcpy(fill.items, mm->ref_first.items, owners * sizeof *fill.items);
  for (size_t k = 0; k < f->refs.len; k++) mm->ref_order.items[fill.items[f->refs.items[k].owner + 2]++] = (uint32_t)k;
  array_free(&fill);
}

/* A bare name the module reads (PyRef.plain) that the module defines at its
 * top level is that definition (every one by that name: a conditional
 * redefinition is one of them), not any definition of that name elsewhere.
 * Returns whether it named one. */
static bool model__reach_local(MReach *r, int32_t mi, uint32_t id) {
  const MModule *mm = &r->m->mods.items[mi];
  const MDefKey *o = mm->def_order.items;
  bool found = false;
  for (size_t k = model__first_def(mm, id); k < mm->def_order.len && o[k].id == id; k++)
    if (mm->facts->defs.items[o[k].idx].kind != PYDEF_METHOD) {
      model__reach_def(r, model__global(r->m, mi, (int32_t)o[k].idx));
      found = true;
    }
  return found;
}

/* A bare name the module binds with an import that resolves to a project
 * definition (`from humo.models.wan_modules.model_humo import
 * sinusoidal_embedding_1d`) is that definition (and its conditional
 * redefinitions in its module), not another module's of that name (HuMo's
 * unused wan_modules/model.py beside model_humo.py: 8 of 29 sampled
 * findings judged not real). Every mention by the owner goes through the
 * import (PyRef.via). Module code keeps the name's every definition alive
 * as before. Returns whether it named one. */
static bool model__reach_imported(MReach *r, int32_t mi, const PyRef *rf) {
  const MModule *mm = &r->m->mods.items[mi];
  int32_t via = rf->via;
  /* module code's mentions include the import statement itself, so only a
   * definition's or the `__main__` block's mention is a use */
  if (rf->owner == PYREF_MODULE || via < 0 || (size_t)via >= mm->import_target.len || !mm->facts->imports.items[via].from_import ||
      strcmp(mm->facts->imports.items[via].local, rf->name) != 0)
    return false; /* not the name the import binds: an attribute of it (`f.x`), or no import */
  int32_t t = mm->import_target.items[via];
  if (t < 0) return false;
  const MDef *d = &r->m->defs.items[t];
  if (!model__reach_local(r, d->mod, r->m->mods.items[d->mod].def_ids.items[d->idx])) model__reach_def(r, t);
  return true;
}

static int32_t model__resolve(const Model *m, const char *qual, int32_t *module, int32_t from);

/* `mar.__dict__[args.model](...)`: a module's namespace indexed by a string
 * may give any public definition of its top level, so all of them are
 * reached (the module is the one import `via` of module mi names). */
static void model__reach_namespace(MReach *r, int32_t mi, int32_t via) {
  const MModule *mm = &r->m->mods.items[mi];
  if (via < 0 || (size_t)via >= mm->facts->imports.len) return;
  int32_t mod = -1;
  if (model__resolve(r->m, mm->facts->imports.items[via].qualname, &mod, mi) >= 0 || mod < 0) return;
  const MModule *tm = &r->m->mods.items[mod];
  for (size_t k = 0; tm->facts && k < tm->facts->defs.len; k++) {
    const PyDef *d = &tm->facts->defs.items[k];
    if (d->kind != PYDEF_METHOD && !model__private(d->name)) model__reach_def(r, model__global(r->m, mod, (int32_t)k));
  }
}

static size_t model__depth(const Model *m, const MModule *mm);

/* Whether mm belongs to a package that runs only as its scripts' helper:
 * one beside them (script_dir) or one documented runs use
 * (documented_pkg). Its public names are no API. */
static bool model__helper_pkg(const MModule *mm) { return mm->script_dir || mm->documented_pkg; }

/* Whether reference k of mm is only a re-export by a package below the
 * surface (`from .text2video import WanT2V` in
 * causvid/models/wan/wan_base/__init__.py) or by an application's package
 * (one beside its scripts that nothing packages: MultiTalk's wan/): it
 * keeps nothing alive, since a module that uses the name names it itself
 * (blind reviews of CausVid and MultiTalk: 11 and 20 findings in classes
 * only such an `__init__` named). */
static bool model__reexport_only(const Model *m, const MModule *mm, size_t k) {
  return mm->facts->refs.items[k].via <= -2 && mm->is_init && !mm->evals && (model__depth(m, mm) > 1 || model__helper_pkg(mm));
}

static void model__reach_owner(MReach *r, int32_t mi, int32_t owner) {
  MModule *mm = &r->m->mods.items[mi];
  for (uint32_t k = mm->ref_first.items[owner + 2]; k < mm->ref_first.items[owner + 3]; k++) {
    uint32_t ref = mm->ref_order.items[k];
    const PyRef *rf = &mm->facts->refs.items[ref];
    if (!model__ref_ours(mm, ref)) continue;
    if (rf->plain && model__reach_local(r, mi, mm->ref_ids.items[ref])) continue;
    if (model__reach_imported(r, mi, rf)) continue;
    if (model__reexport_only(r->m, mm, ref) || mm->ref_unnamed.items[ref]) continue;
    /* `super(Net, self).__init__` names a protocol method, which runs with its
     * class (model__reach_all) or is a call the links resolve: naming it keeps
     * no other class's alive (ConsisID's unbuilt VGGPerceptualLoss) */
    if (!rf->plain && strcmp(rf->name, "__dict__") == 0) model__reach_namespace(r, mi, rf->via);
    if (!rf->plain && model__dunder(rf->name)) continue;
    model__reach_name(r, mm->ref_ids.items[ref]);
  }
  for (uint32_t k = mm->call_first.items[owner + 2]; k < mm->call_first.items[owner + 3]; k++) {
    int32_t t = mm->call_target.items[mm->call_order.items[k]];
    if (t >= 0) model__reach_def(r, t);
  }
}

/* Whether path `tail` ends path `path` at a folder boundary
 * ("serve/api.py" ends "pkg/serve/api.py", not "pkg/serve/openai_api.py"). */
static bool model__path_tail(const char *path, const char *tail) {
  size_t n = strlen(path), t = strlen(tail);
  return t <= n && strcmp(path + n - t, tail) == 0 && (t == n || path[n - t - 1] == '/');
}

/* Whether the runs r name module mm. */
static bool model__runs_name(const MRuns *r, const MModule *mm) {
  for (size_t i = 0; i < r->modules.len; i++)
    if (strcmp(r->modules.items[i], mm->name) == 0 || strcmp(r->modules.items[i], mm->alt) == 0) return true;
  for (size_t i = 0; i < r->paths.len; i++) {
    const char *p = r->paths.items[i];
    if (model__path_tail(mm->rel, p) || model__path_tail(p, mm->rel)) return true;
  }
  for (size_t i = 0; i < r->funcs.len; i++) {
    const char *e = r->funcs.items[i];
    size_t n = strcspn(e, ":");
    if (strlen(mm->name) == n && memcmp(e, mm->name, n) == 0) return true;
  }
  return false;
}

static bool model__launched(const Model *m, const MModule *mm) { return model__runs_name(&m->entries, mm); }

/* Who imports a module: a module naming it, else one whose computed import
 * loads it; -1: nothing does. */
static int32_t model__importer(const MModule *mm) { return mm->importer >= 0 ? mm->importer : mm->computed_by; }

/* A module that parses a command line is a script even when others import
 * it (for its constants or classes): its `__main__` block is an entry. */
static bool model__cli(const MModule *mm) { return mm->cli; }

/* Dots in a module's name: 0 for the top package, 1 for its modules and
 * subpackages (`pkg.mod`, `pkg.sub`), the package's surface. A package
 * below a namespace folder the project imports through counts from that
 * folder (ldm/modules/encoders/modules.py is ldm.modules.encoders.modules). */
static size_t model__depth(const Model *m, const MModule *mm) {
  const char *nm = mm->name;
  size_t top = model__first_len(mm->alt ? mm->alt : "");
  if (mm->alt && mm->in_package && model__is_ns_root(m, mm->alt, top) &&
      !(strncmp(mm->name, mm->alt, top) == 0 && (mm->name[top] == '.' || mm->name[top] == '\0')))
    nm = mm->alt;
  size_t n = 0;
  for (const char *p = nm; *p; p++) n += *p == '.';
  return n;
}

/* A module outside packages, in a folder, that does nothing when run: no
 * `__main__` block and no call statement in its module code. Nothing runs
 * it as a script; it runs only when something imports it. */
static bool model__idle_loose(const MModule *mm) {
  return !mm->in_package && strchr(mm->rel, '/') && !mm->facts->has_main && !mm->facts->runs_calls;
}

/* Whether text names a module whose file stem is stem[0..n): as a file
 * (`its.py`) or as the last part of a dotted name (`llava.eval.its`), not
 * as a word of prose. */
static bool model__names_stem(const char *text, size_t len, const char *stem, size_t n) {
  for (const char *p = text; n && (p = memmem(p, len - (size_t)(p - text), stem, n)) != NULL; p++) {
    size_t at = (size_t)(p - text), end = at + n;
    bool after_ok = end == len || !(model__word(text[end]) || text[end] == '.');
    if (end + 3 <= len && memcmp(text + end, ".py", 3) == 0) return true;
    if (at > 0 && text[at - 1] == '.' && after_ok) return true;
  }
  return false;
}

/* Whether a command-line module of a package is one of a folder whose
 * scripts the project launches by name, and nothing names it: LLaVA's
 * launchers run `python -m llava.eval.model_vqa_loader` and other modules of
 * llava/eval/, and no launcher, packaging file or README names
 * llava/eval/model_qa.py, a leftover (blind reviews of LLaVA, Video-LLaVA
 * and VILA: such eval modules judged not run). The launched sibling's
 * package must lie below the top package (`llava.eval`, not `llava`):
 * launching llava.train.train_mem says nothing of llava/serve/. A module
 * whose docstring shows how to run it is documented (usage_doc). */
static bool model__unlaunched_sibling(const Model *m, const MModule *mm) {
  if (!mm->in_package || mm->is_init || mm->facts->usage_doc) return false; /* it documents its own run */
  bool covered = false;
  for (size_t i = 0; i < m->entries.modules.len && !covered; i++) {
    const char *e = m->entries.modules.items[i], *dot = strrchr(e, '.');
    size_t pkg = dot ? (size_t)(dot - e) : 0;
    covered = pkg && memchr(e, '.', pkg) && strncmp(mm->name, e, pkg) == 0 && mm->name[pkg] == '.' &&
              strcmp(mm->name, e) != 0;
  }
  /* `torchrun llava/eval/egoschema.py`: a launched file two folders deep or more */
  for (size_t i = 0; i < m->entries.paths.len && !covered; i++) {
    const char *e = m->entries.paths.items[i], *slash = strrchr(e, '/');
    size_t dir = slash ? (size_t)(slash - e) : 0;
    covered = dir && memchr(e, '/', dir) && strncmp(mm->rel, e, dir + 1) == 0 && strcmp(mm->rel, e) != 0;
  }
  if (!covered) return false;
  const char *base = strrchr(mm->rel, '/');
  base = base ? base + 1 : mm->rel;
  size_t n = strlen(base) - (util_ends_with(base, ".py") ? 3 : 0);
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    if (l->kind != MINPUT_CONFIG && model__names_stem(l->text, l->len, base, n)) return false;
  }
  return true;
}

/* Whether mm is a configuration a README passes to a tool by its path: a
 * module that nothing imports and that has no `__main__` block does
 * nothing when run, so a documented command naming it hands it to a tool
 * that executes it (an mmengine or xtuner config: `type=SAM2TrainRunner`
 * in its module code builds the project's classes). Its module code runs. */
static bool model__documented_config(const Model *m, const MModule *mm) {
  if (mm->facts->has_main || mm->importer >= 0 || mm->computed_by >= 0) return false;
  for (size_t i = 0; i < m->doc_paths.len; i++)
    if (model__path_tail(m->doc_paths.items[i], mm->rel)) return true;
  return false;
}

/* Whether a module runs without being imported: tests, modules outside
 * packages (scripts, top-level modules; not an idle one in a folder, see
 * model__idle_loose), a package's surface (its `__init__` and the modules
 * one level below: what users import), modules a launcher or console
 * script names, configurations a README hands to a tool
 * (model__documented_config), and modules that parse a command line. A deeper module
 * nothing imports whose `__main__` block is all it has to run is a
 * self-test, not a script. */
static bool model__seed(const Model *m, const MModule *mm) {
  if (mm->test || model__launched(m, mm) || model__documented_config(m, mm)) return true;
  if (mm->vendored) return false; /* a copy of a library runs where the project imports it */
  /* a command line parsed under `__main__`, or by the module code itself (a
   * script in a package's folder, run with `python -m`, that no import runs) */
  if ((mm->facts->has_main || mm->cli_top) && model__cli(mm) && !mm->unlaunched) return true;
  if (!mm->in_package) return !model__idle_loose(mm);
  /* in a folder of scripts a package is a helper; its scripts are those
   * with a __main__ block, less those launchers leave out among launched
   * siblings (InspireMusic's inspiremusic/bin/flow_only_infer.py) */
  if (mm->script_dir) return mm->facts->has_main && mm->importer < 0 && !mm->unlaunched;
  /* a package documented runs use keeps the library's rule for the
   * `__main__` blocks of its deeper modules (self-tests, unless a README
   * runs them) but has no API to seed its surface */
  if (mm->documented_pkg)
    return mm->facts->has_main && mm->importer < 0 && (model__depth(m, mm) <= 1 || model__runs_name(&m->doc_runs, mm));
  return model__depth(m, mm) <= 1;
}

/* The folders of the library copies the project carries (model__copy_root
 * of each vendored top package), into *roots (the caller frees them). */
static void model__copy_roots(const Model *m, StrList *roots) {
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    if (mm->vendored && mm->is_init && !strchr(mm->name, '.')) array_push(roots, model__copy_root(mm));
  }
}

/* Whether path `rel` lies in one of the copies' folders: a launcher there
 * (the copy's own pyproject.toml or run scripts) starts the library's
 * tools, not the project's code. */
static bool model__in_copy(const StrList *roots, const char *rel) {
  for (size_t i = 0; i < roots->len; i++) {
    size_t n = strlen(roots->items[i]);
    if (n && strncmp(rel, roots->items[i], n) == 0 && rel[n] == '/') return true;
  }
  return false;
}

/* Whether a README's code imports the package `top` (`from fastvideo import
 * VideoGenerator`, `>>> import pkg.sub`): then users import it from their
 * own code, and it is a library whatever else the README runs. */
static bool model__readme_imports(const Model *m, const StrList *copies, const char *top) {
  size_t n = strlen(top);
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    if (l->kind != MINPUT_README || model__in_copy(copies, l->rel)) continue;
    for (const char *p = l->text, *end = l->text + l->len; p < end;) {
      const char *eol = memchr(p, '\n', (size_t)(end - p));
      eol = eol ? eol : end;
      while (p < eol && (*p == ' ' || *p == '\t' || *p == '>')) p++;
      size_t kw = util_starts_with(p, "from ") ? 5 : util_starts_with(p, "import ") ? 7 : 0;
      if (kw && (size_t)(eol - p) > kw + n && memcmp(p + kw, top, n) == 0 && !model__word(p[kw + n]))
        return true;
      p = eol + 1;
    }
  }
  return false;
}

/* The packages that documented runs use: a README command that runs a
 * project script (`python generate.py`, `python
 * examples/unianimate_wan/inference_unianimate_wan_480p.py`: one with a
 * `__main__` block or a command line, or one nothing imports) shows how the
 * project is used, so a package such a script imports is its helper even
 * where a setup.py packages it (UniAnimate-DiT's `diffsynth`: 41 of 50
 * findings of a blind review sat in models, pipelines and GUIs the
 * documented runs never reach). Its public names are then no API, as for a
 * package beside its scripts (model__application_packages). A command that
 * runs a module of the package itself (`python -m pkg.serve.cli`) or a
 * test (`python3 test_cli.py` in tests/README.md) leaves the package as it
 * is: a library documents its own tools and tests too; so does a README
 * whose code imports the package (model__readme_imports). */
static void model__documented_packages(Model *m, const StrList *copies) {
  MSet tops = {0};
  StrList owned = {0};
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *s = &m->mods.items[i];
    if (!s->facts || s->vendored || s->test || !(s->facts->has_main || s->cli || s->importer < 0) || !model__runs_name(&m->doc_runs, s))
      continue;
    size_t own = s->in_package ? model__first_len(s->name) : 0;
    for (size_t k = 0; k < s->deps.len; k++) {
      const MModule *d = &m->mods.items[s->deps.items[k]];
      size_t n = model__first_len(d->name);
      if (!d->in_package || d->vendored || d->test || (own == n && strncmp(s->name, d->name, n) == 0)) continue;
      char *top = xstrndup(d->name, n);
      if (!model__set_has(&tops, top) && !model__readme_imports(m, copies, top) && model__set_add(&tops, top))
        array_push(&owned, top);
      else free(top);
    }
  }
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    mm->documented_pkg = false;
    if (!tops.len || !mm->in_package || mm->test || mm->vendored) continue;
    char *top = xstrndup(mm->name, model__first_len(mm->name));
    mm->documented_pkg = model__set_has(&tops, top);
    free(top);
  }
  model__set_free(&tops);
  strlist_free(&owned);
}

/* The targets of the configurations outside library copies that name
 * project code (model__maybe_ours), each once: the module a computed import
 * of the name loads (its longest module prefix) and the definition the rest
 * names, through re-exports. */
static void model__targets(Model *m, const StrList *copies) {
  m->targets.len = 0;
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    if (l->kind != MINPUT_CONFIG || model__in_copy(copies, l->rel)) continue;
    for (const char *p = l->text; *p;) {
      size_t n = strcspn(p, "\n");
      char *name = xstrndup(p, n);
      p += n + (p[n] == '\n');
      bool whole = false;
      int32_t mod = model__maybe_ours(m, name) ? model__longest_module(m, name, -1, &whole) : -1;
      MTarget t = {mod, mod >= 0 && !whole ? model__resolve(m, name, NULL, -1) : -1, false};
      free(name);
      bool seen = mod < 0;
      for (size_t k = 0; k < m->targets.len && !seen; k++)
        seen = m->targets.items[k].mod == t.mod && m->targets.items[k].def == t.def;
      if (!seen) array_push(&m->targets, t);
    }
  }
}

/* ---- transfer_to_npu across the project ------------------------------------------ */

/* Whether mm imports transfer_to_npu at module level and runs. */
static bool model__patches(const MModule *mm) { return mm->facts && mm->imports_transfer && !mm->stub && !mm->broken; }

/* The modules a process entry may be: scripts (outside packages, launched,
 * with a `__main__` block, or parsing a command line in their module code),
 * not tests and not a package's surface, which runs in its user's process. */
static bool model__process_seed(const Model *m, const MModule *mm, bool surface) {
  if (!mm->facts || mm->test || mm->broken || !model__seed(m, mm)) return false;
  return surface || !mm->in_package || model__launched(m, mm) || mm->facts->has_main || mm->cli_top;
}

/* The "loads first" graph (model__next) of the modules that run, once:
 * module i's targets are to[first[i], first[i + 1]). */
typedef struct {
  Array(uint32_t) first;
  MQueue to;
} MLoads;

static void model__loads(const Model *m, MLoads *g) {
  size_t n = m->mods.len;
  array_reserve(&g->first, n + 1);
  g->first.len = n + 1;
  g->first.items[0] = 0;
  for (size_t i = 0; i < n; i++) {
    const MModule *mm = &m->mods.items[i];
    if (mm->facts && !mm->broken) model__next(m, mm, &g->to);
    g->first.items[i + 1] = (uint32_t)g->to.len;
  }
}

/* The same graph reversed: who loads module i first. */
static void model__loads_reversed(const MLoads *g, size_t n, MLoads *r) {
  array_reserve(&r->first, n + 1);
  r->first.len = n + 1;
  memset(r->first.items, 0, (n + 1) * sizeof *r->first.items);
  for (size_t k = 0; k < g->to.len; k++) r->first.items[g->to.items[k] + 1]++;
  for (size_t i = 0; i < n; i++) r->first.items[i + 1] += r->first.items[i];
  array_reserve(&r->to, g->to.len + 1);
  r->to.len = g->to.len;
  Array(uint32_t) fill = {0}; /* where the next loader of each module goes */
  array_reserve(&fill, n + 1);
  for (size_t i = 0; i < n; i++) fill.items[i] = r->first.items[i];
  for (size_t i = 0; i < n; i++)
    for (uint32_t k = g->first.items[i]; k < g->first.items[i + 1]; k++)
      r->to.items[fill.items[g->to.items[k]]++] = (int32_t)i;
  array_free(&fill);
}

/* Marks with `bit` the modules that run (no stub, nothing broken) which the
 * modules of `queue` reach over g (queue is consumed). */
static void model__mark_closure(const Model *m, const MLoads *g, MQueue *queue, uint8_t *mark, uint8_t bit) {
  for (size_t q = 0; q < queue->len; q++) {
    int32_t i = queue->items[q];
    for (uint32_t k = g->first.items[i]; k < g->first.items[i + 1]; k++) {
      int32_t d = g->to.items[k];
      const MModule *dm = &m->mods.items[d];
      if ((mark[d] & bit) || !dm->facts || dm->broken || dm->stub) continue;
      mark[d] |= bit;
      array_push(queue, d);
    }
  }
  queue->len = 0;
}

/* transfer_to_npu patches torch.cuda for the whole process once any module
 * imports it, so a project that loads it from a configuration module every
 * script imports (`from opensora.npu_config import npu_config`) has every
 * torch.cuda call of the modules those scripts load handled at run time. A
 * module is covered when it is loaded by some process entry whose load
 * closure holds a module importing transfer_to_npu, and by no entry whose
 * closure does not (a script that never loads it runs the same code on
 * plain torch_npu). Without scripts, the package's surface is the entry.
 * Linear: the entries that load a patching module are found backwards from
 * those modules, then each group's closure forwards, over one load graph. */
static void model__transfer(Model *m) {
  size_t n = m->mods.len;
  int32_t by = -1;
  for (size_t i = 0; i < n; i++) m->mods.items[i].transfer_by = -1;
  for (size_t i = 0; i < n && by < 0; i++)
    if (model__patches(&m->mods.items[i])) by = (int32_t)i;
  if (by < 0) return;
  MLoads fw = {0}, bw = {0};
  model__loads(m, &fw);
  model__loads_reversed(&fw, n, &bw);
  /* bit 1: loads a patching module; 2: loaded by an entry that does; 4: by one that does not */
  uint8_t *mark = xcalloc(n, 1);
  MQueue queue = {0};
  for (size_t i = (size_t)by; i < n; i++)
    if (model__patches(&m->mods.items[i])) {
      mark[i] |= 1;
      array_push(&queue, (int32_t)i);
    }
  for (size_t q = 0; q < queue.len; q++) /* backwards: every module whose loads reach a patching one */
    for (uint32_t k = bw.first.items[queue.items[q]]; k < bw.first.items[queue.items[q] + 1]; k++)
      if (!(mark[bw.to.items[k]] & 1)) {
        mark[bw.to.items[k]] |= 1;
        array_push(&queue, bw.to.items[k]);
      }
  queue.len = 0;
  bool surface = true;
  for (size_t i = 0; i < n && surface; i++) surface = !model__process_seed(m, &m->mods.items[i], false);
  for (uint8_t bit = 2; bit <= 4; bit *= 2) {
    for (size_t i = 0; i < n; i++)
      if (model__process_seed(m, &m->mods.items[i], surface) && ((mark[i] & 1) != 0) == (bit == 2)) {
        mark[i] |= bit;
        array_push(&queue, (int32_t)i);
      }
    model__mark_closure(m, &fw, &queue, mark, bit);
  }
  for (size_t i = 0; i < n; i++)
    if ((mark[i] & 6) == 2) m->mods.items[i].transfer_by = by;
  free(mark);
  array_free(&queue);
  array_free(&fw.first);
  array_free(&fw.to);
  array_free(&bw.first);
  array_free(&bw.to);
}

static void model__load(Model *m, int32_t i, MQueue *queue) {
  MModule *d = &m->mods.items[i];
  if (d->loaded || !d->facts || d->broken || d->stub) return;
  d->loaded = true;
  array_push(queue, i);
}

/* Which modules are loaded: the seeds and, over the import graph, every
 * module a loaded one imports (anywhere in it). A loaded module that
 * imports by a computed name (importlib.import_module(name)) could load
 * any module of its top folder (of the project, for a file at the root):
 * then all of them are (not for a library copy's: its lazy loader loads
 * what the project imports from it). In two phases over one queue: the seeds
 * that are not tests first (what they load is code_loaded), then the tests
 * (what only they add is their support code). */
static void model__load_queue(Model *m, MQueue *queue, size_t *q, MQueue *unknown) {
  MQueue next = {0};
  for (; *q < queue->len; (*q)++) {
    const MModule *mm = &m->mods.items[queue->items[*q]];
    /* a library copy's computed imports load its own lazy parts, which the project's imports name */
    if (mm->facts->dynamic_unknown && !mm->vendored) array_push(unknown, queue->items[*q]);
    next.len = 0;
    model__next(m, mm, &next);
    for (size_t k = 0; k < next.len; k++) model__load(m, next.items[k], queue);
  }
  array_free(&next);
}

/* The length of a path's top folder ("lumina_t2i" of lumina_t2i/train.py), 0 for a file at the root. */
static size_t model__top_len(const char *rel) {
  const char *slash = strchr(rel, '/');
  return slash ? (size_t)(slash - rel) : 0;
}

static bool model__in_top(const MModule *mm, const char *rel, size_t n) {
  return n == 0 || (model__top_len(mm->rel) == n && strncmp(mm->rel, rel, n) == 0);
}

/* Whether module u loads by computed names only what configurations name:
 * every call of a dynamic loader in it is in a function of the
 * "config-loaders" row (`get_obj_from_str`) or is a loader of that row's
 * own (hydra's `instantiate`). */
static bool model__config_loader(const MModule *u) {
  const KbEntry *dyn = kb_lookup(KB_DETECTOR, "dynamic-loaders", NULL, 0);
  const KbEntry *cfg = kb_lookup(KB_DETECTOR, "config-loaders", NULL, 0);
  if (!dyn || !cfg || !u->facts) return false;
  const PyFacts *f = u->facts;
  bool any = false;
  for (size_t k = 0; k < f->calls.len; k++) {
    const PyCall *c = &f->calls.items[k];
    if (!kb_pattern_match(dyn->arg, c->callee) && !(dyn->value && kb_pattern_match(dyn->value, c->callee))) continue;
    any = true;
    bool own = cfg->value && kb_pattern_match(cfg->value, c->callee);
    if (!own && !(c->owner >= 0 && kb_pattern_match(cfg->arg, f->defs.items[c->owner].name))) return false;
  }
  return any;
}

/* A computed import of module u (at `rel`, top folder n bytes long) that
 * turns configuration strings into objects (model__config_loader), in a
 * project whose configurations name its code, loads what they name
 * (`target: pkg.mod.Class`, in any folder: ControlNet's ldm/util.py builds
 * cldm.cldm.ControlLDM), and those definitions are its roots; the other
 * modules of its folder load only through imports. False otherwise: then
 * it may load any module of its folder. */
static bool model__load_targets(Model *m, int32_t u, const char *rel, size_t n, MQueue *queue) {
  if (!m->targets.len || !model__config_loader(&m->mods.items[u])) return false;
  bool named = false;
  for (size_t t = 0; t < m->targets.len; t++) {
    MTarget *tg = &m->targets.items[t];
    MModule *mi = &m->mods.items[tg->mod];
    named = tg->active = true;
    if (!mi->loaded) {
      mi->computed_by = u;
      mi->by_targets = true;
    }
    if (tg->def < 0) mi->by_targets = false; /* the module itself is named: all of it is used */
    model__load(m, tg->mod, queue);
  }
  for (size_t i = 0; named && i < m->mods.len; i++)
    if (model__in_top(&m->mods.items[i], rel, n)) m->mods.items[i].narrowed_by = u;
  return named;
}

/* The modules a computed import of module u may load: those the
 * configurations name when it builds from them (model__load_targets), else
 * every module of its top folder (of the project for a file at the root),
 * once per folder. */
static void model__load_unknown(Model *m, const MQueue *unknown, size_t *done, MQueue *queue, MQueue *tops) {
  for (; *done < unknown->len; (*done)++) {
    const char *rel = m->mods.items[unknown->items[*done]].rel;
    size_t n = model__top_len(rel);
    if (model__load_targets(m, unknown->items[*done], rel, n, queue)) continue;
    bool seen = false;
    for (size_t k = 0; k < tops->len && !seen; k++) {
      const char *t = m->mods.items[tops->items[k]].rel;
      size_t tn = model__top_len(t);
      seen = tn == 0 || (tn == n && strncmp(t, rel, n) == 0);
    }
    if (seen) continue;
    array_push(tops, unknown->items[*done]);
    for (size_t i = 0; i < m->mods.len; i++) {
      MModule *mi = &m->mods.items[i];
      if (!model__in_top(mi, rel, n)) continue;
      /* one loaded already but imported by nothing (a surface module of an
       * application's package: Matrix-Game's GameWorld/3d_consistency.py,
       * which only `import_module(f"GameWorld.{dimension}")` names) is
       * used by names the code does not spell too; a script stays one */
      if (!mi->loaded || (mi->importer < 0 && mi->facts && !mi->facts->has_main)) mi->computed_by = unknown->items[*done];
      model__load(m, (int32_t)i, queue);
    }
  }
}

static void model__loaded(Model *m) {
  MQueue queue = {0}, unknown = {0}, tops = {0};
  size_t q = 0, done = 0;
  for (size_t i = 0; i < m->mods.len; i++) {
    m->mods.items[i].loaded = m->mods.items[i].by_targets = false;
    m->mods.items[i].computed_by = m->mods.items[i].narrowed_by = -1;
  }
  for (size_t t = 0; t < m->targets.len; t++) m->targets.items[t].active = false;
  for (int tests = 0; tests < 2; tests++) {
    for (size_t i = 0; i < m->mods.len; i++)
      if (m->mods.items[i].facts && m->mods.items[i].test == (tests == 1) && model__seed(m, &m->mods.items[i]))
        model__load(m, (int32_t)i, &queue);
    while (q < queue.len || done < unknown.len) {
      model__load_queue(m, &queue, &q, &unknown);
      model__load_unknown(m, &unknown, &done, &queue, &tops);
    }
    for (size_t i = 0; tests == 0 && i < m->mods.len; i++) m->mods.items[i].code_loaded = m->mods.items[i].loaded;
  }
  array_free(&queue);
  array_free(&unknown);
  array_free(&tops);
}

/* The roots of a loaded module: its own code, its `__main__` block when it
 * is a script, and the definitions that are entry points. */
static void model__roots(MReach *r, int32_t mi, bool tests) {
  Model *m = r->m;
  MModule *mm = &m->mods.items[mi];
  if (mm->broken || !mm->facts || !mm->loaded || mm->test != tests) return;
  /* a module only a computed import loads is imported too (a config's
   * `target: pkg.mod.Class`): its `__main__` block is a self-test */
  mm->main_entry = mm->facts->has_main && (model__importer(mm) < 0 || model__launched(m, mm) || (model__cli(mm) && !mm->unlaunched));
  model__reach_owner(r, mi, PYREF_MODULE);
  if (mm->main_entry) model__reach_owner(r, mi, PYREF_MAIN);
  /* the public names of a package's surface are its API; so are a loose
   * top-level module's (a one-file library), unless it is a script (a
   * `__main__` block runs it and says what it calls) or the project's own
   * code imports it (VAR's dist.py beside train.py: the scripts' helper);
   * deeper modules, loose modules in folders and packages among scripts
   * are their users' business: what runs mentions what they need */
  bool public_mod = mm->in_package ? model__depth(m, mm) <= 1 && !model__helper_pkg(mm) && !mm->run_beside
                                   : !mm->facts->has_main && !strchr(mm->rel, '/') && !mm->imported_by_code;
  /* a module only a computed import loads is used by names the code does
   * not spell (`getattr(importlib.import_module(m), cls)`): its public
   * names stay reachable, unknown rather than guessed dead; not in a
   * library copy, whose own loaders (diffusers' community pipelines) load
   * what the project asks of it by names the project spells; nor in a
   * command line the launchers leave out among launched siblings, run by
   * its `__main__` block if at all */
  public_mod = public_mod || (mm->importer < 0 && mm->computed_by >= 0 && !mm->by_targets && !mm->vendored && !mm->unlaunched);
  for (const char *p = mm->name; public_mod && *p; p++)
    if (*p == '_' && (p == mm->name || p[-1] == '.') && !mm->is_init) public_mod = false;
  mm->surface = public_mod;
  for (size_t k = 0; k < mm->facts->defs.len; k++) {
    const PyDef *d = &mm->facts->defs.items[k];
    /* a definition inside a `__main__` block that does not run (a self-test's
     * decorated helpers) is no entry point, whatever decorates it */
    bool in_main = mm->facts->has_main && d->start >= mm->facts->main_start && d->start < mm->facts->main_end;
    if (in_main && !mm->main_entry) continue;
    /* a library copy's registries fill where the project builds from them: a
     * registering decorator there makes no entry point */
    bool root = mm->test || (d->decorated && !mm->vendored) ||
                (public_mod && d->kind != PYDEF_METHOD && !model__private(d->name));
    /* `__all__` lists what `import *` takes; it makes API only on the
     * surface (HuMo's wan_modules/model.py: `__all__ = ['WanModel']` in an
     * unused module three packages down) */
    for (size_t a = 0; public_mod && a < mm->facts->all.len && !root; a++) root = strcmp(mm->facts->all.items[a], d->name) == 0;
    for (size_t e = 0; e < m->entries.funcs.len && !root; e++) {
      const char *ef = m->entries.funcs.items[e], *colon = strchr(ef, ':');
      root = colon && strcmp(colon + 1, d->name) == 0 && strlen(mm->name) == (size_t)(colon - ef) &&
             memcmp(ef, mm->name, (size_t)(colon - ef)) == 0;
    }
    if (root) model__reach_def(r, model__global(m, mi, (int32_t)k));
  }
}

/* Whether class definition g (global) has a base that is no class of the
 * project: a library's (torch's DataLoader, nn.Module). */
static bool model__external_base(const Model *m, int32_t g) {
  for (uint32_t b = m->bases_first.items[g]; b < m->bases_first.items[g + 1]; b++)
    if (m->bases.items[b] < 0) return true;
  return false;
}

/* Follows r's work list from *w to its end: what each reached definition
 * mentions and calls, and an instance's public and protocol methods. */
static void model__reach_all(MReach *r, size_t *at) {
  Model *m = r->m;
  for (size_t w = *at; w < r->work.len; w = ++*at) {
    int32_t g = r->work.items[w];
    const MDef *d = &m->defs.items[g];
    model__reach_owner(r, d->mod, d->idx);
    const PyDef *pd = model__pydef(m, g);
    if (pd->kind != PYDEF_CLASS) continue;
    /* an instance's public methods and protocol methods can run; an opt-in
     * toggle (`enable_sequential_cpu_offload`: the "opt-in-methods" row) of a
     * class off the library's surface runs only where the project names it */
    const MModule *mm = &m->mods.items[d->mod];
    const PyFacts *f = mm->facts;
    bool external = model__external_base(m, g);
    for (size_t k = (size_t)d->idx + 1; k < f->defs.len && f->defs.items[k].kind == PYDEF_METHOD; k++) {
      const PyDef *md = &f->defs.items[k];
      if (md->cls != d->idx) continue;
      /* autograd calls an autograd Function's backward only in a backward pass */
      if (model__backward_only(mm, pd, md, r->training) && !m->mentioned.items[mm->def_ids.items[k]]) continue;
      /* a protected method nothing in the project names, in a class extending a
       * library's, is a hook the library calls (`_get_iterator` of a DataLoader) */
      if (model__private(md->name) && !(external && !m->mentioned.items[mm->def_ids.items[k]])) continue;
      if (r->opt_in && !mm->surface && kb_pattern_match(r->opt_in, md->name) && !md->decorated &&
          !m->mentioned.items[mm->def_ids.items[k]])
        continue;
      model__reach_def(r, model__global(m, d->mod, (int32_t)k));
    }
  }
}

/* Whether code that runs makes a backward pass: a call the
 * "training-calls" row names (`loss.backward()`, `accelerator.backward(loss)`,
 * `torch.autograd.grad`, `trainer.fit()`) in a loaded module that is not a
 * test (a library copy's own training loop trains nothing of the project). */
static bool model__trains(const Model *m) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "training-calls", NULL, 0);
  if (!row || !row->arg) return true;
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    if (mm->facts && mm->loaded && !mm->test && !mm->vendored && mm->facts->training_call) return true;
  }
  return false;
}

static void model__reachability(Model *m) {
  model__shadows(m); /* read from the bodies too (decorators, module code): every link */
  for (size_t i = 0; i < m->mods.len; i++) /* grouped once per body */
    if (m->mods.items[i].facts && !m->mods.items[i].ref_first.len) model__ref_groups(&m->mods.items[i]);
  model__loaded(m);
  /* in two phases over one work list: the roots that are not tests first
   * (what they reach is code_reachable), then the tests' */
  const KbEntry *opt_in = kb_lookup(KB_DETECTOR, "opt-in-methods", NULL, 0);
  m->trains = model__trains(m);
  const KbEntry *training = m->trains ? NULL : kb_lookup(KB_DETECTOR, "training-only-methods", NULL, 0);
  MReach r = {m, {0}, xcalloc(m->names.strs.len + 1, 1), opt_in ? opt_in->arg : NULL, training};
  size_t at = 0;
  for (size_t i = 0; i < m->mods.len; i++) m->mods.items[i].main_entry = m->mods.items[i].surface = false;
  for (int tests = 0; tests < 2; tests++) {
    for (size_t i = 0; i < m->mods.len; i++) model__roots(&r, (int32_t)i, tests == 1);
    /* what the configurations name, where a computed import turns it into objects */
    for (size_t t = 0; tests == 0 && t < m->targets.len; t++)
      if (m->targets.items[t].active && m->targets.items[t].def >= 0) model__reach_def(&r, m->targets.items[t].def);
    model__reach_all(&r, &at);
    for (size_t g = 0; tests == 0 && g < m->defs.len; g++) m->defs.items[g].code_reachable = m->defs.items[g].reachable;
  }
  array_free(&r.work);
  free(r.reached);
  for (size_t g = 0; g < m->defs.len; g++)
    if (!m->defs.items[g].reachable) m->st.unreachable_defs++;
}

static void model__group(const uint32_t *keys, const uint64_t *ids, size_t n, size_t n_keys, MOffsets *first,
                         MUses *of);

/* The `self.<attr> = <call>` assignments of a module's `__init__`
 * methods grouped by attribute name, in order (model__group): each
 * `self.<attr>(...)` reads only those of its name. */
typedef struct {
  Names names;
  MOffsets first; /* per name: its assignments are of[first[id], first[id + 1]) */
  MUses of;       /* call indexes */
} MAttrs;

static void model__attrs_build(MAttrs *a, const PyFacts *f) {
  Array(uint32_t) keys = {0};
  Array(uint64_t) ids = {0};
  for (size_t k = 0; k < f->calls.len; k++) {
    const char *attr = f->calls.items[k].self_attr;
    if (!attr) continue;
    array_push(&keys, names_intern(&a->names, attr, strlen(attr)));
    array_push(&ids, (uint64_t)k);
  }
  model__group(keys.items, ids.items, keys.len, a->names.strs.len, &a->first, &a->of);
  array_free(&keys);
  array_free(&ids);
}

static void model__attrs_free(MAttrs *a) {
  names_free(&a->names);
  array_free(&a->first);
  array_free(&a->of);
}

/* `self.<attr>(...)` that no method answers, where `__init__` of the same
 * class assigned `self.<attr> = C(...)` and C is a project class: the
 * instance is called, so C.forward (an nn.Module) or C.__call__. The first
 * such assignment of the name in the class decides. */
static int32_t model__attr_call(const Model *m, int32_t mi, const PyCall *c, const MModule *mm, const MAttrs *attrs) {
  int32_t cls = model__owner_class(m, mi, c->owner);
  int64_t id = cls >= 0 ? names_find(&attrs->names, c->callee, strlen(c->callee)) : -1;
  for (uint32_t j = id >= 0 ? attrs->first.items[id] : 0; id >= 0 && j < attrs->first.items[id + 1]; j++) {
    uint32_t k = (uint32_t)attrs->of.items[j];
    const PyCall *as = &mm->facts->calls.items[k];
    if (model__global(m, mi, mm->facts->defs.items[as->owner].cls) != cls) continue;
    int32_t t = mm->call_target.items[k];
    if (t < 0 || model__pydef(m, t)->kind != PYDEF_CLASS) return -1;
    int32_t meth = model__method(m, t, "forward", false);
    return meth >= 0 ? meth : model__method(m, t, "__call__", false);
  }
  return -1;
}

/* Call targets already resolved in one module: a call's target depends on
 * its callee (interned: one pointer per name), its kind and, for `self.` and
 * `super().` calls, its class, and a module calls the same names again and
 * again (`torch.cuda.synchronize` in every method). Open addressing. */
typedef struct {
  const char *callee;
  int32_t kind, cls, target;
} MCallSeen;

static int32_t model__call_target_seen(const Model *m, int32_t mi, const PyCall *c, MCallSeen *seen, size_t mask) {
  bool own = c->kind == PYCALL_SELF || c->kind == PYCALL_SUPER;
  int32_t cls = own ? model__owner_class(m, mi, c->owner) : -1;
  uint64_t h = ((uint64_t)(uintptr_t)c->callee * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(uint32_t)cls << 3) ^ (uint64_t)c->kind;
  for (size_t s = (size_t)(h ^ (h >> 29)) & mask;; s = (s + 1) & mask) {
    MCallSeen *e = &seen[s];
    if (!e->callee) {
      *e = (MCallSeen){c->callee, (int32_t)c->kind, cls, model__call_target(m, mi, c)};
      return e->target;
    }
    if (e->callee == c->callee && e->kind == (int32_t)c->kind && e->cls == cls) return e->target;
  }
}

/* The links of one module's own calls and from-imports. */
static void model__link_module_calls(Model *m, int32_t i) {
  MModule *mm = &m->mods.items[i];
  if (!mm->facts) return;
  size_t cap = 16;
  while (cap < mm->facts->calls.len * 2) cap *= 2;
  MCallSeen *seen = xcalloc(cap, sizeof *seen);
  for (size_t k = 0; k < mm->facts->calls.len; k++)
    array_push(&mm->call_target, model__call_target_seen(m, i, &mm->facts->calls.items[k], seen, cap - 1));
  free(seen);
  MAttrs attrs = {0};
  model__attrs_build(&attrs, mm->facts);
  for (size_t k = 0; k < mm->facts->calls.len && attrs.of.len; k++) {
    const PyCall *c = &mm->facts->calls.items[k];
    if (c->kind == PYCALL_SELF && mm->call_target.items[k] < 0)
      mm->call_target.items[k] = model__attr_call(m, i, c, mm, &attrs);
  }
  model__attrs_free(&attrs);
  for (size_t k = 0; k < mm->facts->imports.len; k++) {
    const PyFactImport *im = &mm->facts->imports.items[k];
    /* a lazy binding (`if TYPE_CHECKING:`) imports nothing here: no finding at it */
    array_push(&mm->import_target, im->from_import && !im->lazy ? model__resolve_in(m, i, im->qualname, false) : -1);
  }
}

/* What every link recomputes from the call graph: the names code mentions,
 * the summaries (the fixpoint from the constructs), reachability and the
 * statistics. Linear in the project's calls, references and definitions. */
/* Groups n items (keys[i] < n_keys, UINT32_MAX: none) by key, as
 * first[key]..first[key + 1] into `of` (each item's `ids[i]`). */
static void model__group(const uint32_t *keys, const uint64_t *ids, size_t n, size_t n_keys, MOffsets *first,
                         MUses *of) {
  array_reserve(first, n_keys + 1);
  first->len = n_keys + 1;
  memset(first->items, 0, (n_keys + 1) * sizeof *first->items);
  for (size_t i = 0; i < n; i++)
    if (keys[i] != UINT32_MAX) first->items[keys[i] + 1]++;
  for (size_t k = 0; k < n_keys; k++) first->items[k + 1] += first->items[k];
  array_reserve(of, first->items[n_keys] + 1);
  of->len = first->items[n_keys];
  uint32_t *fill = xcalloc(n_keys + 1, sizeof *fill);
  memcpy(fill, first->items, n_keys * sizeof *fill);
  for (size_t i = 0; i < n; i++)
    if (keys[i] != UINT32_MAX) of->items[fill[keys[i]]++] = ids[i];
  free(fill);
}

/* The calls of each definition and the mentions of each name, over the
 * project (what a default every call passes is read from). */
static void model__index_uses(Model *m) {
  Array(uint32_t) keys = {0};
  Array(uint64_t) ids = {0};
  for (int pass = 0; pass < 2; pass++) {
    keys.len = ids.len = 0;
    for (size_t i = 0; i < m->mods.len; i++) {
      const MModule *mm = &m->mods.items[i];
      size_t n = !mm->facts ? 0 : pass ? mm->ref_ids.len : mm->facts->calls.len;
      for (size_t k = 0; k < n; k++) {
        int32_t t = pass ? (int32_t)mm->ref_ids.items[k] : mm->call_target.items[k];
        array_push(&keys, t < 0 ? UINT32_MAX : (uint32_t)t);
        array_push(&ids, (uint64_t)i << 32 | k);
      }
    }
    if (pass) model__group(keys.items, ids.items, keys.len, m->names.strs.len, &m->mentions_first, &m->mentions_of);
    else model__group(keys.items, ids.items, keys.len, m->defs.len, &m->calls_first, &m->calls_of);
  }
  array_free(&keys);
  array_free(&ids);
}

/* The option values the READMEs' and launchers' commands pass, into
 * *tokens (borrowing from *store, which owns them): `--model Lumina_DiMOO`,
 * `--task=t2v-14B`; a word elsewhere (prose, a code sample's
 * `quant_method="gguf"`) names no run's choice. */
static void model__doc_tokens(const Model *m, MSet *tokens, StrList *store) {
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    const char *t = l->text;
    if (l->kind == MINPUT_CONFIG) continue;
    for (size_t a = 0; a + 2 < l->len; a++) {
      if (t[a] != '-' || t[a + 1] != '-' || (a > 0 && !isspace((unsigned char)t[a - 1]))) continue;
      size_t e = a + 2;
      while (e < l->len && (model__word(t[e]) || t[e] == '-')) e++;
      if (e == a + 2 || e >= l->len || (t[e] != ' ' && t[e] != '=')) continue;
      size_t v = e + 1;
      while (t[e] == ' ' && v < l->len && t[v] == ' ') v++;
      size_t w = v;
      while (w < l->len && (model__word(t[w]) || strchr(".-/:+", t[w]))) w++;
      if (w == v || w - v > 128 || t[v] == '-') continue;
      char *tok = xstrndup(t + v, w - v);
      if (model__set_add(tokens, tok)) array_push(store, tok);
      else free(tok);
      a = w - 1;
    }
  }
}

/* Registry tables: module code's mentions inside the values of a
 * module-level dict with string keys (PyRef.keyed: VLMEvalKit's
 * `supported_VLM` parts, `"Lumina_DiMOO": partial(Lumina_DiMOO, ...)`)
 * name what a run may pick by key. When the documented runs pass some key
 * of a module's tables as an option's value, an entry none of whose keys
 * they pass keeps nothing alive (the other model wrappers: 37 of 50
 * sampled findings in Lumina-DiMOO judged not real); where they name none,
 * which entry runs is unknown and every entry stays. */
static void model__registry_entries(Model *m) {
  MSet tokens = {0};
  StrList store = {0};
  array_reserve(&m->keyed_only, m->names.strs.len + 1);
  m->keyed_only.len = m->names.strs.len;
  memset(m->keyed_only.items, 0, m->keyed_only.len);
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    size_t n = mm->facts ? mm->facts->refs.len : 0;
    array_reserve(&mm->ref_unnamed, n + 1);
    mm->ref_unnamed.len = n;
    if (n) memset(mm->ref_unnamed.items, 0, n);
    if (!mm->facts || !mm->facts->keyed.len) continue;
    if (!store.len && !tokens.len) model__doc_tokens(m, &tokens, &store);
    MSet named = {0};
    StrList names = {0};
    for (size_t k = 0; k < mm->facts->keyed.len; k++) {
      const char *e = mm->facts->keyed.items[k], *tab = strchr(e, '\t');
      if (!tab || !model__set_has(&tokens, tab + 1)) continue;
      char *name = xstrndup(e, (size_t)(tab - e));
      if (model__set_add(&named, name)) array_push(&names, name);
      else free(name);
    }
    for (size_t k = 0; named.len && k < n; k++) {
      const PyRef *rf = &mm->facts->refs.items[k];
      mm->ref_unnamed.items[k] = rf->owner == PYREF_MODULE && rf->keyed && !model__set_has(&named, rf->name);
      if (mm->ref_unnamed.items[k] && mm->ref_ids.items[k] < m->keyed_only.len) m->keyed_only.items[mm->ref_ids.items[k]] = 1;
    }
    model__set_free(&named);
    strlist_free(&names);
  }
  model__set_free(&tokens);
  strlist_free(&store);
}

static void model__link_graph(Model *m) {
  model__imports_ours(m);
  model__index_uses(m);
  model__entries_clear(m);
  StrList roots = {0};
  model__copy_roots(m, &roots);
  for (size_t i = 0; i < m->launchers.len; i++) {
    const MLauncher *l = &m->launchers.items[i];
    if (l->kind == MINPUT_CONFIG || model__in_copy(&roots, l->rel)) continue;
    model__scan_runs(l->kind == MINPUT_README ? &m->doc_runs : &m->entries, l->text, l->len);
    if (l->kind == MINPUT_README) model__scan_doc_paths(m, l->text, l->len);
  }
  model__documented_packages(m, &roots); /* before model__reexport_only is asked */
  model__registry_entries(m);
  array_reserve(&m->mentioned, m->names.strs.len + 1);
  m->mentioned.len = m->names.strs.len;
  memset(m->mentioned.items, 0, m->mentioned.len);
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    /* what only the tests name is the tests' business: their mentions reach it
     * when they run, and keep no opt-in toggle alive for the code (a diffusers
     * copy's tests call every pipeline's enable_sequential_cpu_offload) */
    if (mm->test) continue;
    /* a bare name read where the module defines it is that definition, no other's */
    for (size_t k = 0; k < mm->ref_ids.len; k++)
      if (model__ref_ours(mm, k) && !model__reexport_only(m, mm, k) && !mm->ref_unnamed.items[k] &&
          !(mm->facts->refs.items[k].plain && model__local_name(mm, mm->ref_ids.items[k])))
        m->mentioned.items[mm->ref_ids.items[k]] = 1;
  }
  for (size_t g = 0; g < m->defs.len; g++) {
    MDef *d = &m->defs.items[g];
    d->need_mod = d->need_cons = d->via = -1;
    d->depth = 0;
    d->reachable = false;
  }
  memset(&m->st, 0, sizeof m->st);
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    mm->main_entry = false;
    m->st.calls += mm->call_target.len;
    for (size_t k = 0; k < mm->call_target.len; k++) m->st.resolved_calls += mm->call_target.items[k] >= 0;
    m->st.broken_modules += mm->broken;
  }
  for (size_t i = 0; i < m->mods.len; i++) { /* before anything asks model__seed */
    MModule *mm = &m->mods.items[i];
    mm->unlaunched = mm->facts && model__cli(mm) && model__unlaunched_sibling(m, mm);
  }
  model__targets(m, &roots);
  strlist_free(&roots);
  model__switch_attrs(m);
  model__gated_deps(m); /* before anything loads */
  model__transfer(m);
  model__summaries(m);
  model__reachability(m);
  m->shapes_relinked = false;
  m->st.modules = m->mods.len;
  m->st.defs = m->defs.len;
}

static bool model__cancelled(const atomic_int *cancel) { return cancel && atomic_load(cancel); }

/* Everything from the modules' inputs; false when cancelled. */
static bool model__link_whole(Model *m, const atomic_int *cancel) {
  m->shapes_relinked = true;
  if (m->mods.len > 1) qsort(m->mods.items, m->mods.len, sizeof *m->mods.items, model__mod_cmp);
  model__ids_rebuild(m); /* the modules moved */
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    model__module_clear_link(mm);
    mm->broken = mm->stale = false;
  }
  m->defs.len = m->mod_names.len = m->mod_suffixes.len = 0;
  model__set_free(&m->tops);
  model__strs_free(m->top_names.items, m->top_names.len);
  m->top_names.len = 0;
  model__names(m);
  model__defs(m);
  model__resolve_bases(m);
  for (size_t i = 0; i < m->mods.len; i++) {
    if (i % 64 == 0 && model__cancelled(cancel)) return false;
    model__link_module_calls(m, (int32_t)i);
  }
  model__link_imports(m);
  return !model__cancelled(cancel);
}

/* Only bodies changed: names, definitions, imports and the other modules'
 * call links stand (they read shapes only); the changed modules' calls are
 * linked again. */
static void model__link_bodies(Model *m) {
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    if (!mm->stale) continue;
    model__link_module_calls(m, (int32_t)i);
    mm->stale = false;
  }
}

bool model_link_cancellable(Model *m, const atomic_int *cancel) {
  if (!m->dirty) return true;
  if (m->relink && !model__link_whole(m, cancel)) return false; /* half linked: still dirty, the next link is whole */
  if (!m->relink) model__link_bodies(m);
  if (model__cancelled(cancel)) return false;
  model__link_graph(m);
  m->dirty = m->relink = false;
  return true;
}

void model_link(Model *m) { model_link_cancellable(m, NULL); }

void model_stats(const Model *m, ModelStats *st) { *st = m->st; }

/* ---- findings -------------------------------------------------------------------- */

static void model__def_label(const Model *m, int32_t g, StrBuf *sb) {
  const PyDef *d = model__pydef(m, g);
  if (d->kind == PYDEF_METHOD) {
    const PyDef *c = &m->mods.items[m->defs.items[g].mod].facts->defs.items[d->cls];
    sb_printf(sb, "%s.%s()", c->name, d->name);
  } else {
    sb_printf(sb, d->kind == PYDEF_CLASS ? "%s" : "%s()", d->name);
  }
}

static const MConstruct *model__root(const Model *m, int32_t g) {
  const MDef *d = &m->defs.items[g];
  return d->need_cons < 0 ? NULL : &m->mods.items[d->need_mod].cons.items[d->need_cons];
}

/* "a() → b() → flash_attn_varlen_func (pkg/attention.py:7)". Caller frees. */
static char *model__chain(const Model *m, int32_t g) {
  StrBuf sb;
  sb_init(&sb);
  /* long chains show their two first hops and the holder of the construct */
  uint32_t depth = m->defs.items[g].depth, k = 0;
  for (int32_t d = g; d >= 0; d = m->defs.items[d].via, k++) {
    if (depth > 3 && k >= 2 && k < depth) {
      if (k == 2) sb_puts(&sb, "… → ");
      continue;
    }
    model__def_label(m, d, &sb);
    sb_puts(&sb, " → ");
  }
  const MConstruct *c = model__root(m, g);
  const char *s = c->subject, *last = strrchr(s, '.');
  if (last && !util_starts_with(s, "torch.") && !strchr(s, ' ') && !strchr(s, '"')) s = last + 1;
  sb_printf(&sb, "%s (%s:%u)", s, m->mods.items[m->defs.items[g].need_mod].rel, c->start_row + 1);
  return sb_steal(&sb);
}

/* The last token of a name ("flash_attention" -> "attention"). */
static const char *model__tail(const char *name) {
  const char *u = strrchr(name, '_');
  return u && u[1] ? u + 1 : name;
}

/* The way out: a sibling definition of the construct's holder that needs
 * no CUDA, and porting the holder once. Caller frees. */
static char *model__way_out(const Model *m, int32_t g) {
  int32_t r = g;
  while (m->defs.items[r].via >= 0) r = m->defs.items[r].via;
  const MDef *rd = &m->defs.items[r];
  const MModule *mm = &m->mods.items[rd->mod];
  const PyDef *pd = model__pydef(m, r);
  const char *sib = NULL;
  for (size_t k = 0; k < mm->facts->defs.len && !sib; k++) {
    const PyDef *o = &mm->facts->defs.items[k];
    const MDef *od = &m->defs.items[mm->def_base + k];
    if ((int32_t)k == rd->idx || o->kind != pd->kind || o->cls != pd->cls || model__private(o->name) || od->need_cons >= 0)
      continue;
    if (strcmp(model__tail(o->name), model__tail(pd->name)) == 0) sib = o->name;
  }
  StrBuf label;
  sb_init(&label);
  model__def_label(m, r, &label);
  char *out = sib ? xasprintf("call %s%s instead (no CUDA-only code), or port %s once (%s:%u): every caller follows", sib,
                              pd->kind == PYDEF_CLASS ? "" : "()", label.data, mm->rel, pd->at.row + 1)
                  : xasprintf("port %s once (%s:%u): every caller follows", label.data, mm->rel, pd->at.row + 1);
  sb_free(&label);
  return out;
}

static Related model__related_def(const Model *m, int32_t g) {
  const PyDef *d = model__pydef(m, g);
  const MModule *mm = &m->mods.items[m->defs.items[g].mod];
  uint32_t n = (uint32_t)strlen(d->name);
  Related r = {.start = d->at.byte, .end = d->at.byte + n, .start_row = d->at.row, .start_char = d->at.chr,
               .end_row = d->at.row, .end_char = d->at.chr + n, .path = mm->id, .start_col = d->at.col,
               .end_col = d->at.col + n};
  StrBuf sb;
  sb_init(&sb);
  model__def_label(m, g, &sb);
  int32_t next = m->defs.items[g].via;
  if (next >= 0) {
    sb_puts(&sb, model__pydef(m, g)->kind == PYDEF_CLASS ? " uses " : " calls ");
    model__def_label(m, next, &sb);
  } else {
    sb_puts(&sb, " holds the CUDA-only construct");
  }
  r.message = sb_steal(&sb);
  return r;
}

static void model__add_related(const Model *m, Finding *f, int32_t g) {
  uint32_t k = 0;
  for (int32_t d = g; d >= 0; d = m->defs.items[d].via, k++) {
    if (k >= 3 && m->defs.items[d].via >= 0) continue; /* the first hops and the holder */
    Related r = model__related_def(m, d);
    finding_add_related_at(f, &r);
    free(r.message);
  }
  const MConstruct *c = model__root(m, g);
  Related r = {.start = c->start_byte, .end = c->end_byte, .message = c->message, .start_row = c->start_row,
               .start_char = c->start_char, .end_row = c->end_row, .end_char = c->end_char,
               .path = m->mods.items[m->defs.items[g].need_mod].id, .start_col = c->start_col, .end_col = c->end_col};
  finding_add_related_at(f, &r);
}

static bool model__taken(const FindingList *out, uint32_t s, uint32_t e) {
  for (size_t i = 0; i < out->len; i++)
    if (out->items[i].start_byte >= s && out->items[i].start_byte < (e > s ? e : s + 1)) return true;
  return false;
}

/* "Block.__init__", "main": the definition (local index) a call site is in,
 * or NULL at module level (Finding.scope). */
static char *model__scope(const MModule *mm, int32_t owner) {
  if (owner < 0) return NULL;
  const PyDef *d = &mm->facts->defs.items[owner];
  if (d->kind == PYDEF_METHOD) return xasprintf("%s.%s", mm->facts->defs.items[d->cls].name, d->name);
  return xstrdup(d->name);
}

static void model__emit(const Model *m, const MModule *mm, int32_t owner, const AnalyzeOptions *opt, FindingList *out,
                        int32_t t, const char *detector, PyPos s, PyPos e, bool guarded) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, detector, opt->user_entries, opt->n_user_entries);
  const KbRule *rule = row ? context_rule(opt, row->code) : NULL;
  if (!rule || !context_code_selected(opt, rule->code)) return;
  /* test code exercises the wrapper as it is: it follows once the wrapper is ported */
  if (rule->not_in_tests && (mm->test || (owner >= 0 && util_starts_with(mm->facts->defs.items[owner].name, "test"))))
    return;
  char *chain = model__chain(m, t), *way = model__way_out(m, t);
  Finding *f = kb_emit(out, rule, row, chain, way, s.byte, e.byte, s.row, s.col, e.row, e.col);
  f->start_char = s.chr;
  f->end_char = e.chr;
  f->guarded = guarded;
  f->scope = model__scope(mm, owner);
  /* the rule's severity, a hint (kb_emit): the work item is the construct,
   * reported where it is; every caller follows once the wrapper is ported */
  if (guarded) finding_append_note(f, "[guarded: a fallback exists]", "［已有回退路径］");
  model__add_related(m, f, t);
  free(chain);
  free(way);
}

/* The loaded module whose import behind a switch no call turns on is the
 * only way to module `to`, with that switch; NULL when none. */
static const MModule *model__gated_by(const Model *m, int32_t to, const PyParam **p) {
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *im = &m->mods.items[i];
    size_t n;
    for (size_t k = 0; im->loaded && k < im->gated_deps.len; k++)
      if (im->gated_deps.items[k].to == to && model__off_gate(m, im, im->gated_deps.items[k].at, p, &n)) return im;
  }
  return NULL;
}

/* Why module mm does not load when only an import behind a switch no
 * call turns on would load it or a package above it (ChatTTS's
 * velocity/worker.py, below the vLLM copy gpt.py imports when use_vllm is
 * on): that import's module and switch. False when none does. */
static bool model__gated_reason(const Model *m, const MModule *mm, char **own) {
  if (!m->any_gated) return false;
  char *name = xstrdup(mm->name);
  const MModule *by = NULL, *pkg = NULL;
  const PyParam *p = NULL;
  for (char *dot = NULL; !by;) {
    int32_t to = dot ? model__module_named(m, name) : (int32_t)(mm - m->mods.items);
    if (to >= 0) by = model__gated_by(m, to, &p), pkg = &m->mods.items[to];
    if (by || !(dot = strrchr(name, '.'))) break;
    *dot = '\0';
  }
  free(name);
  if (!by) return false;
  *own = xasprintf("only an import behind a switch no call turns on loads %s (%s, when %s is on)", pkg->rel, by->rel, p->name);
  return true;
}

static const char *model__unreachable_reason(const Model *m, const MModule *mm, uint32_t at, char **own) {
  if (mm->broken) return mm->broken_reason;
  if (mm->stub) {
    *own = xasprintf("%s is a type stub: it declares types and never runs", mm->rel);
    return *own;
  }
  if (!mm->loaded && mm->narrowed_by >= 0) {
    *own = xasprintf("nothing that runs imports %s, and no configuration names it (the computed import in %s loads the "
                     "modules the configurations' targets name)",
                     mm->rel, m->mods.items[mm->narrowed_by].rel);
    return *own;
  }
  if (!mm->loaded && model__idle_loose(mm)) {
    *own = xasprintf("nothing that runs imports %s, and running it does nothing (no `__main__` block, no call in its module code)",
                     mm->rel);
    return *own;
  }
  if (!mm->loaded && model__gated_reason(m, mm, own)) return *own;
  if (!mm->loaded) {
    *own = xasprintf("nothing that runs imports %s (no entry point, test or public module of the package loads it)", mm->rel);
    return *own;
  }
  if (!mm->test && !mm->code_loaded) {
    *own = xasprintf("only the tests import %s: it is their support code", mm->rel);
    return *own;
  }
  int32_t l = pyfacts_def_at(mm->facts, at);
  if (l >= 0) {
    int32_t g = model__global(m, (int32_t)(mm - m->mods.items), l);
    if (model__pydef(m, g)->kind == PYDEF_METHOD && !m->defs.items[model__global(m, (int32_t)(mm - m->mods.items),
                                                                                  model__pydef(m, g)->cls)].reachable)
      g = model__global(m, (int32_t)(mm - m->mods.items), model__pydef(m, g)->cls);
    if (m->defs.items[g].reachable && (m->defs.items[g].code_reachable || mm->test)) return NULL;
    const char *name = model__pydef(m, g)->name;
    if (m->defs.items[g].reachable) {
      StrBuf sb;
      sb_init(&sb);
      model__def_label(m, g, &sb);
      *own = xasprintf("only the tests call %s: it is their helper", sb.data);
      sb_free(&sb);
      return *own;
    }
    const PyDef *gd = model__pydef(m, g);
    const KbEntry *training = m->trains ? NULL : kb_lookup(KB_DETECTOR, "training-only-methods", NULL, 0);
    if (gd->kind == PYDEF_METHOD &&
        model__backward_only(mm, model__pydef(m, model__global(m, (int32_t)(mm - m->mods.items), gd->cls)), gd, training)) {
      StrBuf sb;
      sb_init(&sb);
      model__def_label(m, g, &sb);
      *own = xasprintf("the project never trains (no backward pass in code that runs): autograd never calls %s", sb.data);
      sb_free(&sb);
      return *own;
    }
    if (m->defs.items[g].shadow >= 0) {
      const PyDef *later = &mm->facts->defs.items[m->defs.items[g].shadow];
      *own = xasprintf("%s is defined again at line %u, which replaces this definition", name, later->at.row + 1);
      return *own;
    }
    bool used = model__mentioned(m, name) || model__reads_own(mm, mm->def_ids.items[l]);
    bool keyed = !used && model__keyed_only(m, name);
    StrBuf sb;
    sb_init(&sb);
    model__def_label(m, g, &sb);
    *own = xasprintf(used    ? "%s is used only by code that never runs"
                     : keyed ? "only registry entries that no documented command selects name %s"
                             : "nothing in the project calls %s",
                     sb.data);
    sb_free(&sb);
    return *own;
  }
  if (mm->facts->has_main && !mm->main_entry && at >= mm->facts->main_start && at < mm->facts->main_end) {
    *own = mm->importer >= 0 ? xasprintf("the __main__ block of a module the project imports (%s): a self-test",
                                         m->mods.items[mm->importer].rel)
                             : xasprintf("the __main__ block of a module loaded by a computed import (%s): a self-test",
                                         m->mods.items[model__importer(mm)].rel);
    return *own;
  }
  return NULL;
}

/* Whether f sits on one of the module's top-level import statements. */
static bool model__on_import(const MModule *mm, const Finding *f) {
  for (size_t k = 0; k < mm->facts->imports.len; k++) {
    const PyFactImport *im = &mm->facts->imports.items[k];
    if (im->top && im->start.row == f->start_row) return true;
  }
  return false;
}

/* An import carrying its uses in the file (`import torch.cuda.amp as amp`
 * with each `amp.autocast(...)` a related site) when every use is in code
 * that never runs: importing works on any device, so nothing runs that
 * needs changing (blind review of CausVid: three such imports, their uses
 * in classes nothing builds). */
static const char *model__uses_never_run(const Model *m, const MModule *mm, const Finding *f, char **own) {
  if (!f->related.len || !model__on_import(mm, f)) return NULL;
  for (size_t r = 0; r < f->related.len; r++) {
    char *why = NULL;
    if (f->related.items[r].path || !model__unreachable_reason(m, mm, f->related.items[r].start, &why)) {
      free(why);
      return NULL;
    }
    free(why);
  }
  *own = xasprintf("every use of this import in %s is in code that never runs", mm->rel);
  return *own;
}

static void model__mark_unreachable(const Model *m, const MModule *mm, FindingList *out) {
  for (size_t i = 0; i < out->len; i++) {
    Finding *f = &out->items[i];
    if (!f->rule || kb_domain(f->rule->code) < 2 || f->unreachable) continue;
    char *own = NULL;
    const char *why = model__unreachable_reason(m, mm, f->start_byte, &own);
    if (!why) why = model__uses_never_run(m, mm, f, &own);
    if (!why) continue;
    f->unreachable = true;
    f->severity = SEV_HINT;
    char *en = xasprintf("[unreachable: %s]", why), *zh = xasprintf("［不可达：%s］", why);
    finding_append_note(f, en, zh);
    free(en);
    free(zh);
    free(own);
  }
}

/* ---- defaults every caller overrides --------------------------------------------- */

/* Whether call c surely passes parameter p: by keyword (`f(**kw, device=d)`
 * too), or positionally (`shift` = 1 when the call leaves out self: a class
 * built, super().__init__) when it spreads nothing: after a spread the
 * positions are unknown. */
static bool model__passes_keyword(const PyCall *c, const PyParam *p) {
  size_t n = strlen(p->name);
  for (const char *k = c->keywords; k && *k;) {
    const char *sp = strchr(k, ' ');
    size_t len = sp ? (size_t)(sp - k) : strlen(k);
    if (len == n && memcmp(k, p->name, n) == 0) return true;
    k = sp ? sp + 1 : k + len;
  }
  return false;
}

static bool model__passes(const PyCall *c, const PyParam *p, uint32_t shift) {
  if (model__passes_keyword(c, p)) return true;
  if (c->flags & PYCALL_SPREAD) return false;
  return p->index != PYPARAM_KEYWORD_ONLY && p->index >= shift && c->n_pos > p->index - shift;
}

/* The chains of switches passed on that a question of the defaults
 * follows (model__forwards_off): how deep, and how many callers' switches in
 * all before it answers "not off" (the answer on a budget cut short is the
 * safe one). A public method passing its switch to a helper that builds a
 * class is 3 deep. */
typedef struct {
  int depth;
  size_t *budget;
} MForward;

#define MODEL_FORWARD_DEPTH 4
#define MODEL_FORWARD_BUDGET 64
#define MODEL_NO_FORWARD ((MForward){0, NULL})

static size_t model__all_pass(const Model *m, int32_t g, const PyParam *p, bool passing, MForward fw);

/* The last dotted part of a callee. */
static const char *model__last_part(const char *callee) {
  const char *dot = strrchr(callee, '.');
  return dot ? dot + 1 : callee;
}

/* The parameter of d with a False default named name[0..n), or NULL. */
static const PyParam *model__switch(const PyDef *d, const char *name, size_t n) {
  for (size_t q = 0; q < d->params.len; q++) {
    const PyParam *p = &d->params.items[q];
    if (p->off_default && strlen(p->name) == n && memcmp(p->name, name, n) == 0) return p;
  }
  return NULL;
}

/* Whether call c (of module mod) passes parameter p a switch of its own
 * definition, by keyword (`use_vllm=use_vllm`), that is off itself: a False
 * default no call turns on (Chat.load(use_vllm=False) -> self._load(...,
 * use_vllm=use_vllm) -> GPT(..., use_vllm=use_vllm)). Then p stays off too. */
static bool model__forwards_off(const Model *m, uint32_t mod, const PyCall *c, const PyParam *p, MForward fw) {
  if (c->owner < 0 || !fw.budget || fw.depth >= MODEL_FORWARD_DEPTH || !*fw.budget) return false;
  const char *pairs = pyfacts_forwards(m->mods.items[mod].facts, c);
  size_t n = strlen(p->name);
  for (const char *k = pairs; k && *k;) {
    const char *eq = strchr(k, '='), *sp = eq ? strchr(eq, ' ') : NULL;
    if (!eq || !sp) return false;
    if ((size_t)(eq - k) == n && memcmp(k, p->name, n) == 0) {
      const PyParam *op = model__switch(&m->mods.items[mod].facts->defs.items[c->owner], eq + 1, (size_t)(sp - eq - 1));
      if (!op) return false;
      (*fw.budget)--;
      MForward up = {fw.depth + 1, fw.budget};
      return model__all_pass(m, model__global(m, (int32_t)mod, c->owner), op, false, up) > 0;
    }
    k = sp + 1;
  }
  return false;
}

/* Whether call c of module mod does what `passing` asks of parameter p:
 * passes it, or surely leaves it out (no spread that could pass it; a
 * switch passed on that is off counts as left out). */
static bool model__agrees(const Model *m, uint32_t mod, const PyCall *c, const PyParam *p, uint32_t shift, bool passing,
                          MForward fw) {
  if (passing) return model__passes(c, p, shift);
  /* passed by name, a spread cannot pass it again */
  if (model__passes_keyword(c, p)) return p->off_default && model__forwards_off(m, mod, c, p, fw);
  return !(c->flags & PYCALL_SPREAD) && !model__passes(c, p, shift);
}

/* The calls of definition t (in calls_of) as [*from, *to); empty for t < 0. */
static void model__calls_of(const Model *m, int32_t t, uint32_t *from, uint32_t *to) {
  *from = *to = 0;
  if (t >= 0) *from = m->calls_first.items[t], *to = m->calls_first.items[t + 1];
}

/* Whether call c is by `owner`, a PyRef owner: a definition, module code
 * (-1) or the `__main__` block (-2, which a call marks with in_main). */
static bool model__call_by(const PyCall *c, int32_t owner) {
  return owner >= 0 ? c->owner == owner : c->owner == -1 && c->in_main == (owner == PYREF_MAIN);
}

/* Whether a call of g (or of class cls, -1: none) is in `owner` (a PyRef
 * owner) of module mod. */
static bool model__calls_in(const Model *m, int32_t g, int32_t cls, uint32_t mod, int32_t owner) {
  const int32_t targets[2] = {g, cls};
  for (int w = 0; w < 2; w++) {
    uint32_t j, end;
    for (model__calls_of(m, targets[w], &j, &end); j < end; j++) {
      uint64_t id = m->calls_of.items[j];
      if ((uint32_t)(id >> 32) != mod) continue;
      if (model__call_by(&m->mods.items[mod].facts->calls.items[(uint32_t)id], owner)) return true;
    }
  }
  return false;
}

/* Whether `owner` of module mod calls a method of class cls (global, -1:
 * none) through the class (`WanVideoPipeline.from_model_manager(...)`): a
 * mention of the class that builds nothing itself and hands it to no one. */
static bool model__calls_member(const Model *m, int32_t cls, uint32_t mod, int32_t owner) {
  if (cls < 0) return false;
  const MModule *mm = &m->mods.items[mod];
  const PyDef *cd = model__pydef(m, cls);
  for (size_t k = 0; k < mm->facts->calls.len; k++) {
    const PyCall *c = &mm->facts->calls.items[k];
    int32_t t = mm->call_target.items[k];
    if (t < 0 || !model__call_by(c, owner)) continue;
    const PyDef *td = model__pydef(m, t);
    if (td->kind == PYDEF_METHOD && m->defs.items[t].mod == m->defs.items[cls].mod &&
        model__global(m, m->defs.items[t].mod, td->cls) == cls && strstr(c->callee, cd->name))
      return true;
  }
  return false;
}

/* Whether `owner` (a definition of mm) is a class with an `__init__` of its
 * own: naming a class among its bases constructs nothing through the base's
 * `__init__`; its own calls it through `super().__init__(...)`, a call. */
static bool model__subclass_with_init(const MModule *mm, int32_t owner) {
  const PyFacts *f = mm->facts;
  if (owner < 0 || (size_t)owner >= f->defs.len || f->defs.items[owner].kind != PYDEF_CLASS) return false;
  for (size_t k = (size_t)owner + 1; k < f->defs.len && f->defs.items[k].cls == owner; k++)
    if (strcmp(f->defs.items[k].name, "__init__") == 0) return true;
  return false;
}

/* Whether a mention of the name (id `name`) of g by `owner` of module mod
 * is none of a caller's: g's own class naming itself (`super(Net,
 * self).__init__()`), a subclass that has an `__init__` of its own naming
 * its base, or a module with a definition of that name of its own, which
 * its mentions mean. */
static bool model__own_mention(const Model *m, int32_t g, int32_t cls, uint32_t mod, int32_t owner, uint32_t name) {
  const MModule *mm = &m->mods.items[mod];
  int32_t o = model__global(m, (int32_t)mod, owner);
  if (o >= 0 && (o == g || o == cls || (cls >= 0 && model__global(m, (int32_t)mod, model__pydef(m, o)->cls) == cls)))
    return true;
  if (cls >= 0 && model__subclass_with_init(mm, owner)) return true;
  if ((int32_t)mod == m->defs.items[g].mod) return false;
  for (size_t k = 0; k < mm->def_ids.len; k++)
    if (mm->def_ids.items[k] == name && mm->facts->defs.items[k].kind != PYDEF_METHOD) return true;
  return false;
}

/* Whether call c names method `name` through a receiver: `self.name`,
 * `super().name`, `<anything>.name`. */
static bool model__names_method(const PyCall *c, const char *name) {
  if (c->kind == PYCALL_SELF || c->kind == PYCALL_SUPER) return strcmp(c->callee, name) == 0;
  size_t n = strlen(name), cn = strlen(c->callee);
  return cn > n && c->callee[cn - n - 1] == '.' && memcmp(c->callee + cn - n, name, n) == 0;
}

/* Whether call c of `owner` (a definition of module mod) names another
 * method `name` than g: a library's (`torch.load(...)` through an import of
 * no project package), or the owner's own class's (`self.encode_prompt(...)`
 * in a pipeline class with an encode_prompt of its own, beside its
 * prompter's). */
static bool model__other_method(const Model *m, uint32_t mod, int32_t owner, const PyCall *c, const char *name,
                                int32_t g) {
  if (c->kind == PYCALL_IMPORTED) return !model__maybe_ours(m, c->callee);
  const PyFacts *f = m->mods.items[mod].facts;
  if (c->kind != PYCALL_SELF || owner < 0 || f->defs.items[owner].kind != PYDEF_METHOD) return false;
  int32_t cls = f->defs.items[owner].cls;
  const PyDef *gd = model__pydef(m, g);
  if (model__global(m, (int32_t)mod, cls) == model__global(m, m->defs.items[g].mod, gd->cls)) return false;
  for (size_t k = (size_t)cls + 1; k < f->defs.len && f->defs.items[k].kind == PYDEF_METHOD; k++)
    if (f->defs.items[k].cls == cls && strcmp(f->defs.items[k].name, name) == 0) return true;
  return false;
}

/* The calls of method g by its name by `owner` of module mod (receivers are
 * not typed: every `<x>.name(...)` counts, whichever class x is, but a
 * library's and the owner's own class's, model__other_method): added to
 * *calls when each passes p, as bound calls; false when one does not or
 * when the owner mentions the name without calling it. */
static bool model__method_calls_in(const Model *m, uint32_t mod, int32_t owner, int32_t g, const PyParam *p,
                                   bool passing, MForward fw, size_t *calls) {
  const PyFacts *f = m->mods.items[mod].facts;
  const char *name = model__pydef(m, g)->name;
  size_t found = 0, others = 0;
  for (size_t k = 0; k < f->calls.len; k++) {
    const PyCall *c = &f->calls.items[k];
    if (!model__call_by(c, owner) || !model__names_method(c, name)) continue;
    if (model__other_method(m, mod, owner, c, name, g)) {
      others++;
      continue;
    }
    if (!model__agrees(m, mod, c, p, 1, passing, fw)) return false;
    found++;
  }
  *calls += found;
  return found > 0 || others > 0;
}

/* How many calls in the project of method g (not __init__) pass p (or, not
 * `passing`, surely leave it out), when every call by its name does and
 * every mention of the name is such a call; 0 otherwise. Methods the framework calls by itself (`forward` through
 * `module(x)`, dunders: the row's `value`) have callers no name shows. */
static size_t model__method_all_pass(const Model *m, int32_t g, const PyParam *p, bool passing, MForward fw) {
  const PyDef *d = model__pydef(m, g);
  const KbEntry *row = kb_lookup(KB_DETECTOR, "overridden-default", NULL, 0);
  if (d->decorated || !row || (row->value && kb_pattern_match(row->value, d->name))) return 0;
  const MModule *home = &m->mods.items[m->defs.items[g].mod];
  uint32_t name = home->def_ids.items[g - (int32_t)home->def_base];
  size_t calls = 0;
  for (uint32_t j = m->mentions_first.items[name]; j < m->mentions_first.items[name + 1]; j++) {
    uint64_t id = m->mentions_of.items[j];
    uint32_t mod = (uint32_t)(id >> 32);
    const PyRef *ref = &m->mods.items[mod].facts->refs.items[(uint32_t)id];
    if (ref->via <= -2) continue;
    if (!model__method_calls_in(m, mod, ref->owner, g, p, passing, fw, &calls)) return 0;
  }
  return calls;
}

/* Whether a mention in module mod, not g's, can name g (global): through an
 * import that may name project code, or else when mod imports g's module
 * or a package module that imports it (a re-export, a star import). A name
 * nothing of the project binds in mod is another object's attribute
 * (`model.load_state_dict(...)`, torch's method beside the project's
 * function of that name) or mod's own. */
static bool model__may_name(const Model *m, int32_t g, uint32_t mod, const PyRef *ref) {
  int32_t home = m->defs.items[g].mod;
  const MModule *mm = &m->mods.items[mod];
  if ((int32_t)mod == home) return true;
  if (ref->via >= 0) return (size_t)ref->via >= mm->import_ours.len || mm->import_ours.items[ref->via];
  for (size_t k = 0; k < mm->deps.len; k++) {
    const MModule *dm = &m->mods.items[mm->deps.items[k]];
    if (mm->deps.items[k] == home) return true;
    for (size_t q = 0; dm->is_init && q < dm->deps.len; q++)
      if (dm->deps.items[q] == home) return true;
  }
  return false;
}

/* How many calls in the project reach definition g (global: a function, a
 * method, or a method __init__ through its class) and pass p (or, not
 * `passing`, surely leave it out), when every call does and every mention
 * of the name is such a call (a callback could call it otherwise); 0
 * otherwise. */
static size_t model__all_pass(const Model *m, int32_t g, const PyParam *p, bool passing, MForward fw) {
  const PyDef *d = model__pydef(m, g);
  bool init = d->kind == PYDEF_METHOD && strcmp(d->name, "__init__") == 0;
  if ((size_t)g + 1 >= m->calls_first.len) return 0;
  if (d->kind == PYDEF_METHOD && !init) return model__method_all_pass(m, g, p, passing, fw);
  if (d->kind != PYDEF_FUNCTION && !init) return 0;
  const MModule *home = &m->mods.items[m->defs.items[g].mod];
  int32_t cls = init ? model__global(m, m->defs.items[g].mod, d->cls) : -1;
  uint32_t name = home->def_ids.items[(init ? cls : g) - (int32_t)home->def_base];
  size_t calls = 0;
  const int32_t targets[2] = {g, cls};
  const KbEntry *builders = init ? kb_lookup(KB_DETECTOR, "config-builders", NULL, 0) : NULL;
  for (int w = 0; w < 2; w++) {
    uint32_t j, end;
    for (model__calls_of(m, targets[w], &j, &end); j < end; j++) {
      uint64_t id = m->calls_of.items[j];
      const PyCall *c = &m->mods.items[id >> 32].facts->calls.items[(uint32_t)id];
      /* `Cls.from_pretrained(...)`: a factory (the "config-builders" row) builds
       * the class with what a configuration holds, which no call shows */
      if (w == 1 && builders && kb_pattern_match(builders->arg, model__last_part(c->callee)) &&
          strcmp(model__last_part(c->callee), model__pydef(m, cls)->name) != 0)
        return 0;
      if (!model__agrees(m, (uint32_t)(id >> 32), c, p, init, passing, fw)) return 0;
      calls++;
    }
  }
  for (uint32_t j = m->mentions_first.items[name]; calls && j < m->mentions_first.items[name + 1]; j++) {
    uint64_t id = m->mentions_of.items[j];
    uint32_t mod = (uint32_t)(id >> 32);
    const PyRef *ref = &m->mods.items[mod].facts->refs.items[(uint32_t)id];
    if (ref->via <= -2 || ref->attr || model__own_mention(m, g, cls, mod, ref->owner, name) ||
        !model__may_name(m, g, mod, ref))
      continue;
    /* through an import of another definition of that name (wan/utils.py's
     * create_block_mask_cached beside hyvideo/utils.py's): none of g's */
    const MModule *rm = &m->mods.items[mod];
    int32_t t = ref->via >= 0 && (size_t)ref->via < rm->import_target.len ? rm->import_target.items[ref->via] : -1;
    if (t >= 0 && t != g && t != cls) continue;
    if (!model__calls_in(m, g, cls, mod, ref->owner) && !model__calls_member(m, cls, mod, ref->owner)) return 0;
  }
  return calls;
}

/* How many calls leave switch p of definition g (global) off, when every
 * call does (following switches passed on: model__forwards_off); 0 otherwise. */
static size_t model__off_calls(const Model *m, int32_t g, const PyParam *p) {
  size_t budget = MODEL_FORWARD_BUDGET;
  MForward fw = {0, &budget};
  return model__all_pass(m, g, p, false, fw);
}

/* ---- switches kept in attributes and the branches they open ---------------------- */

/* Every `__init__` parameter with a False default that its `__init__`
 * stores in an attribute, for the gates that test the attribute. */
static void model__switch_attrs(Model *m) {
  m->switch_attrs.len = 0;
  for (size_t i = 0; i < m->mods.len; i++) {
    const MModule *mm = &m->mods.items[i];
    for (size_t k = 0; mm->facts && k < mm->facts->defs.len; k++) {
      const PyDef *d = &mm->facts->defs.items[k];
      if (d->kind != PYDEF_METHOD || strcmp(d->name, "__init__") != 0) continue;
      for (size_t q = 0; q < d->params.len; q++) {
        if (!d->params.items[q].attr || !d->params.items[q].off_default) continue;
        MSwitchAttr a = {d->params.items[q].attr, model__global(m, (int32_t)i, (int32_t)k),
                         model__global(m, (int32_t)i, d->cls), (uint32_t)q};
        array_push(&m->switch_attrs, a);
      }
    }
  }
}

/* Whether a variable's name names class `cls` (`gpt` for GPT, `vae` for
 * VAE): case and underscores aside. */
static bool model__names_class(const char *var, size_t n, const char *cls) {
  size_t i = 0, j = 0;
  for (; i < n || cls[j]; i++, j++) {
    while (i < n && var[i] == '_') i++;
    while (cls[j] == '_') j++;
    if (i >= n || !cls[j]) return i >= n && !cls[j];
    if (tolower((unsigned char)var[i]) != tolower((unsigned char)cls[j])) return false;
  }
  return true;
}

/* The switch gate gt of definition k (local, of mm) tests: k's own
 * parameter; for `self.<attr>`, the parameter k's class's `__init__`
 * stores there; for `<var>.<attr>`, the one so stored by a class `var`
 * names (several: unknown). Its definition (global) goes to *g; NULL: none. */
static const PyParam *model__gate_param(const Model *m, const MModule *mm, int32_t k, const PyGate *gt, int32_t *g) {
  const PyDef *d = &mm->facts->defs.items[k];
  int32_t mi = (int32_t)(mm - m->mods.items);
  if (!gt->attr) {
    *g = model__global(m, mi, k);
    return model__switch(d, gt->name, strlen(gt->name));
  }
  const char *dot = gt->self ? NULL : strchr(gt->name, '.'), *attr = dot ? dot + 1 : gt->name;
  int32_t cls = gt->self ? model__global(m, mi, d->cls) : -1;
  const MSwitchAttr *found = NULL;
  for (size_t i = 0; i < m->switch_attrs.len; i++) {
    const MSwitchAttr *a = &m->switch_attrs.items[i];
    if (strcmp(a->attr, attr) != 0) continue;
    if (gt->self ? a->cls != cls : !dot || !model__names_class(gt->name, (size_t)(dot - gt->name), model__pydef(m, a->cls)->name))
      continue;
    if (found) return NULL;
    found = a;
  }
  if (!found) return NULL;
  *g = found->init;
  return &model__pydef(m, found->init)->params.items[found->param];
}

/* The gate of mm holding byte `at` whose switch every call of the project
 * leaves off, with that switch (*param) and how many calls (*calls); NULL:
 * none. */
static const PyGate *model__off_gate(const Model *m, const MModule *mm, uint32_t at, const PyParam **param, size_t *calls) {
  int32_t k = mm->facts ? pyfacts_def_at(mm->facts, at) : -1;
  for (size_t i = 0; k >= 0 && i < mm->facts->gates.len; i++) {
    const PyGate *gt = &mm->facts->gates.items[i];
    if (at < gt->start || at >= gt->end) continue;
    int32_t g;
    const PyParam *p = model__gate_param(m, mm, k, gt, &g);
    size_t n = p ? model__off_calls(m, g, p) : 0;
    if (!n) continue;
    *param = p;
    *calls = n;
    return gt;
  }
  return NULL;
}

/* Each module's gated imports (PyFacts.gated) that load a module nothing
 * else of it imports: at its top, by a star, or in a function outside
 * every gate (a gated import is in dynamic_imports too). */
static void model__gated_deps(Model *m) {
  m->any_gated = false;
  for (size_t i = 0; i < m->mods.len; i++) {
    MModule *mm = &m->mods.items[i];
    mm->gated_deps.len = 0;
    const PyFacts *f = mm->facts;
    for (size_t k = 0; f && k < f->gated.len; k++) {
      int32_t to = model__resolve_quiet(m, (int32_t)i, f->gated.items[k].module);
      if (to < 0 || to == (int32_t)i || model__imports_ungated(m, (int32_t)i, to)) continue;
      MGatedDep d = {to, f->gated.items[k].at};
      array_push(&mm->gated_deps, d);
      m->any_gated = true;
    }
  }
}

/* Whether mm loads module `to` only through gated imports, each in a gate
 * whose switch no call turns on. */
static bool model__gated_off(const Model *m, const MModule *mm, int32_t to) {
  bool any = false;
  for (size_t k = 0; k < mm->gated_deps.len; k++) {
    if (mm->gated_deps.items[k].to != to) continue;
    const PyParam *p;
    size_t n;
    if (!model__off_gate(m, mm, mm->gated_deps.items[k].at, &p, &n)) return false;
    any = true;
  }
  return any;
}

/* The parameter of a definition of mm whose default, or whose None branch,
 * holds byte `at`, with its definition (local), or NULL. */
static const PyParam *model__param_at(const PyFacts *f, uint32_t at, int32_t *def) {
  int32_t k = pyfacts_def_at(f, at);
  if (k < 0) return NULL;
  const PyDef *d = &f->defs.items[k];
  for (size_t i = 0; i < d->params.len; i++) {
    const PyParam *p = &d->params.items[i];
    if ((at >= p->dflt_start && at < p->dflt_end) || (at >= p->none_start && at < p->none_end)) {
      *def = k;
      return p;
    }
  }
  return NULL;
}

/* How many calls pass the default (or reach past the None branch) that
 * holds byte `at` of mm, when every call of its definition passes it (the
 * parameter to *param); 0 otherwise. */
static size_t model__overridden(const Model *m, const MModule *mm, uint32_t at, const PyParam **param) {
  int32_t k;
  const PyParam *p = mm->facts ? model__param_at(mm->facts, at, &k) : NULL;
  if (param) *param = p;
  return p ? model__all_pass(m, model__global(m, (int32_t)(mm - m->mods.items), k), p, true, MODEL_NO_FORWARD) : 0;
}

/* A finding of mm in the `if <param>:` branch of a False default that no call
 * in the project passes (`def __init__(self, cfg, parallel=False)` built as
 * `VisualizationDemo(cfg)` everywhere) is a hint with the "off-parameter"
 * note: the branch never runs. */
static void model__off_parameters(const Model *m, const MModule *mm, FindingList *out, size_t own) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "off-parameter", NULL, 0);
  for (size_t i = 0; row && i < own; i++) {
    Finding *f = &out->items[i];
    if (!f->rule || f->severity == SEV_HINT || !kb_pattern_match(row->arg, f->rule->code)) continue;
    /* the switch's branch: `if <param>:` in its own definition, or a gate
     * on it (`if self.<attr> and ...:` in another method) */
    const PyParam *p = NULL;
    size_t n = 0;
    int32_t k = pyfacts_def_at(mm->facts, f->start_byte);
    const PyDef *d = k >= 0 ? &mm->facts->defs.items[k] : NULL;
    for (size_t q = 0; d && q < d->params.len && !p; q++)
      if (f->start_byte >= d->params.items[q].on_start && f->start_byte < d->params.items[q].on_end) p = &d->params.items[q];
    if (p) n = model__off_calls(m, model__global(m, (int32_t)(mm - m->mods.items), k), p);
    if (!n) model__off_gate(m, mm, f->start_byte, &p, &n);
    if (!n) continue;
    char calls[32];
    snprintf(calls, sizeof calls, n == 1 ? "%zu call" : "%zu calls", n);
    f->severity = SEV_HINT;
    kb_append_note(f, row, p->name, calls);
  }
}

/* A device-layer finding of mm in a default every call passes is lowered to
 * a hint with the "overridden-default" note. */
static void model__overridden_defaults(const Model *m, const MModule *mm, FindingList *out, size_t own) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "overridden-default", NULL, 0);
  for (size_t i = 0; row && i < own; i++) {
    Finding *f = &out->items[i];
    if (!f->rule || f->severity == SEV_HINT || !kb_pattern_match(row->arg, f->rule->code)) continue;
    const PyParam *p;
    size_t n = model__overridden(m, mm, f->start_byte, &p);
    if (!n) continue;
    char calls[32];
    snprintf(calls, sizeof calls, n == 1 ? "%zu call" : "%zu calls", n);
    f->severity = SEV_HINT;
    kb_append_note(f, row, p->name, calls);
  }
}

/* Whether definition t (global) runs only from guarded calls: at least one
 * call of it in the project, each on an optional path (PYCALL_OPTIONAL: the
 * branch a `has_flash_attn` flag opens, an optional import's try body; not
 * the fallback beside it), none
 * from its own body, and every mention of its name by an owner that has
 * such a call (a class kept in a table or passed as a callback may be built
 * anywhere). A name its module's `__all__` lists or a package's `__init__`
 * imports is the package's API: its users call it as they like. */
static bool model__guarded_only(const Model *m, int32_t t) {
  if (t < 0 || (size_t)t + 1 >= m->calls_first.len) return false;
  const MModule *home = &m->mods.items[m->defs.items[t].mod];
  uint32_t name = home->def_ids.items[t - (int32_t)home->def_base];
  uint32_t j, end;
  model__calls_of(m, t, &j, &end);
  bool ok = j < end;
  for (; ok && j < end; j++) {
    uint64_t id = m->calls_of.items[j];
    const PyCall *c = &m->mods.items[id >> 32].facts->calls.items[(uint32_t)id];
    ok = (c->flags & PYCALL_OPTIONAL) && model__global(m, (int32_t)(id >> 32), c->owner) != t;
  }
  const char *dname = model__pydef(m, t)->name;
  for (size_t a = 0; ok && a < home->facts->all.len; a++) ok = strcmp(home->facts->all.items[a], dname) != 0;
  for (uint32_t k = m->mentions_first.items[name]; ok && k < m->mentions_first.items[name + 1]; k++) {
    uint64_t id = m->mentions_of.items[k];
    const MModule *by = &m->mods.items[id >> 32];
    const PyRef *ref = &by->facts->refs.items[(uint32_t)id];
    if (ref->via <= -2) { /* only its import statement: an export when a package's __init__ does it */
      ok = !by->is_init;
      continue;
    }
    ok = model__calls_in(m, t, -1, (uint32_t)(id >> 32), ref->owner);
  }
  return ok;
}

/* A live finding of mm in a definition that runs only from guarded calls
 * (itself, or a method through its class) is guarded too, a hint: the
 * `FlashAttention` module a model builds only `if self.use_flash_attn:`
 * (the "guarded-callers" row, {subject} = that definition). */
static void model__guarded_callers(const Model *m, const MModule *mm, FindingList *out, size_t own) {
  const KbEntry *row = kb_lookup(KB_DETECTOR, "guarded-callers", NULL, 0);
  int32_t mi = (int32_t)(mm - m->mods.items);
  for (size_t i = 0; row && i < own; i++) {
    Finding *f = &out->items[i];
    if (!f->rule || f->severity == SEV_HINT || f->guarded || kb_domain(f->rule->code) < 2) continue;
    int32_t l = pyfacts_def_at(mm->facts, f->start_byte);
    if (l < 0) continue;
    int32_t g = model__global(m, mi, l), cls = mm->facts->defs.items[l].cls;
    int32_t gc = cls >= 0 ? model__global(m, mi, cls) : -1;
    int32_t t = model__guarded_only(m, g) ? g : model__guarded_only(m, gc) ? gc : -1;
    if (t < 0) continue;
    StrBuf sb;
    sb_init(&sb);
    model__def_label(m, t, &sb);
    f->guarded = true;
    f->severity = SEV_HINT;
    kb_append_note(f, row, sb.data, NULL);
    sb_free(&sb);
  }
}

/* The call sites of mm that reach a construct, added to out: through
 * definitions of other modules (`local` false) or of mm itself (`local`
 * true). A call that one of the first `own` findings of `covered` (the
 * file's own analysis) covers is left out. */
static void model__call_sites(const Model *m, const MModule *mm, const AnalyzeOptions *opt, const FindingList *covered,
                              size_t own, bool local, FindingList *out) {
  const PyFacts *f = mm->facts;
  for (size_t k = 0; k < f->calls.len; k++) {
    const PyCall *c = &f->calls.items[k];
    int32_t t = mm->call_target.items[k];
    if (t < 0 || m->defs.items[t].need_cons < 0 || (c->flags & (PYCALL_NPU_AWARE | PYCALL_DEAD))) continue;
    if (model__global(m, (int32_t)(mm - m->mods.items), c->owner) == t) continue; /* recursion */
    if (c->kind == PYCALL_SUPER) continue; /* the subclass itself is reported where it is built */
    if ((m->defs.items[t].mod == (int32_t)(mm - m->mods.items)) != local) continue;
    FindingList view = {covered->items, own, own}; /* read again: covered may be out, which grows */
    if (model__taken(&view, c->start.byte, c->end.byte)) continue;
    bool cls = model__pydef(m, t)->kind == PYDEF_CLASS;
    model__emit(m, mm, c->owner, opt, out, t, cls ? "project-class-instantiation" : "project-function-call", c->start, c->end,
                (c->flags & PYCALL_GUARDED) != 0);
  }
}

void model_apply(Model *m, const char *id, const AnalyzeOptions *opt, FindingList *out) {
  model_link(m);
  const MModule *mm = model__find(m, id);
  if (!mm || !mm->facts) return;
  const PyFacts *f = mm->facts;
  size_t own = out->len;
  /* in the wrapper's own file the construct is in sight already */
  model__call_sites(m, mm, opt, out, own, false, out);
  for (size_t k = 0; k < f->imports.len; k++) {
    const PyFactImport *im = &f->imports.items[k];
    int32_t t = mm->import_target.items[k];
    if (t < 0 || m->defs.items[t].need_cons < 0) continue;
    FindingList view = {out->items, own, own};
    if (model__taken(&view, im->start.byte, im->end.byte)) continue;
    model__emit(m, mm, -1, opt, out, t, "project-name-import", im->start, im->end, im->guarded);
  }
  for (size_t i = 0; mm->transfer_by >= 0 && i < out->len; i++)
    finding_mark_transfer(&out->items[i], m->mods.items[mm->transfer_by].rel);
  model__overridden_defaults(m, mm, out, own);
  model__off_parameters(m, mm, out, own);
  model__guarded_callers(m, mm, out, own);
  model__mark_unreachable(m, mm, out);
  findings_sort(out);
}

void model_local_chains(Model *m, const char *id, const AnalyzeOptions *opt, const FindingList *own, FindingList *out) {
  model_link(m);
  const MModule *mm = model__find(m, id);
  if (!mm || !mm->facts) return;
  FindingList sites = {0};
  model__call_sites(m, mm, opt, own, own->len, true, &sites);
  for (size_t i = 0; i < sites.len; i++) {
    char *why = NULL;
    bool dead = model__unreachable_reason(m, mm, sites.items[i].start_byte, &why) != NULL;
    free(why);
    if (dead) finding_free(&sites.items[i]);
    else array_push(out, sites.items[i]);
  }
  array_free(&sites);
}

uint64_t model_view_digest(Model *m, const char *id, const AnalyzeOptions *opt) {
  model_link(m);
  const MModule *mm = model__find(m, id);
  if (!mm || !mm->facts) return 0;
  FindingList l = {0};
  model_apply(m, id, opt, &l);
  uint64_t h = UTIL_FNV_SEED;
  for (size_t i = 0; i < l.len; i++) {
    const Finding *f = &l.items[i];
    h = model__mix_str(h, f->rule->code);
    h = model__mix_str(h, f->message);
    h = model__mix(h, &f->start_byte, sizeof f->start_byte);
    h = model__mix(h, &f->severity, sizeof f->severity);
    for (size_t k = 0; k < f->related.len; k++) {
      const Related *r = &f->related.items[k];
      h = model__mix_str(model__mix_str(h, r->path), r->message);
      h = model__mix(h, &r->start, sizeof r->start);
      h = model__mix(h, &r->start_row, sizeof r->start_row);
    }
  }
  findings_free(&l);
  /* what lowers the file's own findings: which of its code runs, and why not */
  h = model__mix_str(h, mm->broken ? mm->broken_reason : "");
  h = model__mix(h, &mm->main_entry, sizeof mm->main_entry);
  h = model__mix(h, &mm->loaded, sizeof mm->loaded);
  h = model__mix(h, &mm->code_loaded, sizeof mm->code_loaded);
  char *gated = NULL; /* which import behind a switch is the only way to it: other modules decide */
  if (!mm->loaded && model__gated_reason(m, mm, &gated)) h = model__mix_str(h, gated);
  free(gated);
  h = model__mix_str(h, mm->transfer_by >= 0 ? m->mods.items[mm->transfer_by].rel : "");
  if (mm->facts->has_main && !mm->main_entry && model__importer(mm) >= 0) {
    h = model__mix_str(h, m->mods.items[model__importer(mm)].rel);
    h = model__mix(h, &mm->importer, sizeof mm->importer);
  }
  for (size_t k = 0; k < mm->facts->defs.len; k++) {
    const MDef *d = &m->defs.items[mm->def_base + k];
    bool used = !d->reachable && (model__mentioned(m, mm->facts->defs.items[k].name) ||
                                  model__reads_own(mm, mm->def_ids.items[k]));
    bool keyed = !d->reachable && model__keyed_only(m, mm->facts->defs.items[k].name);
    unsigned bits = d->reachable | used << 1 | keyed << 2;
    h = model__mix(h, &bits, sizeof bits);
    /* which of its defaults every call passes (other modules' calls decide) */
    const PyDef *pd = &mm->facts->defs.items[k];
    for (size_t q = 0; q < pd->params.len; q++) {
      size_t n = model__all_pass(m, (int32_t)(mm->def_base + k), &pd->params.items[q], true, MODEL_NO_FORWARD);
      /* (a switch's gates are mixed after the definitions) */
      size_t off = pd->params.items[q].on_end ? model__off_calls(m, (int32_t)(mm->def_base + k), &pd->params.items[q]) : 0;
      h = model__mix(h, &n, sizeof n);
      h = model__mix(h, &off, sizeof off);
    }
    bool guarded = model__guarded_only(m, (int32_t)(mm->def_base + k)); /* other modules' calls decide */
    h = model__mix(h, &guarded, sizeof guarded);
  }
  for (size_t q = 0; q < mm->facts->gates.len; q++) { /* and whether its switches' branches run */
    const PyParam *p;
    size_t n = 0;
    model__off_gate(m, mm, mm->facts->gates.items[q].start, &p, &n);
    h = model__mix(h, &n, sizeof n);
  }
  return h;
}

char *model_chain_at(Model *m, const char *id, uint32_t at) {
  model_link(m);
  const MModule *mm = model__find(m, id);
  if (!mm || !mm->facts) return NULL;
  for (size_t k = 0; k < mm->facts->calls.len; k++) {
    const PyCall *c = &mm->facts->calls.items[k];
    int32_t t = mm->call_target.items[k];
    if (at >= c->start.byte && at <= c->end.byte && t >= 0 && m->defs.items[t].need_cons >= 0) return model__chain(m, t);
  }
  for (size_t k = 0; k < mm->facts->imports.len; k++) {
    const PyFactImport *im = &mm->facts->imports.items[k];
    int32_t t = mm->import_target.items[k];
    if (at >= im->start.byte && at <= im->end.byte && t >= 0 && m->defs.items[t].need_cons >= 0) return model__chain(m, t);
  }
  return NULL;
}

bool model_imports_reach(Model *m, const char *from, const char *to) {
  model_link(m);
  const MModule *a = model__find(m, from), *b = model__find(m, to);
  if (!a || !b) return false;
  int32_t target = (int32_t)(b - m->mods.items);
  bool *seen = xcalloc(m->mods.len, 1);
  Array(int32_t) work = {0};
  array_push(&work, (int32_t)(a - m->mods.items));
  seen[work.items[0]] = true;
  bool found = false;
  for (size_t w = 0; w < work.len && !found; w++) {
    const MModule *mm = &m->mods.items[work.items[w]];
    found = work.items[w] == target;
    for (size_t k = 0; k < mm->deps.len; k++)
      if (!seen[mm->deps.items[k]]) {
        seen[mm->deps.items[k]] = true;
        array_push(&work, mm->deps.items[k]);
      }
  }
  array_free(&work);
  free(seen);
  return found;
}
