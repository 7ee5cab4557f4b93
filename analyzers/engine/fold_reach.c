/* fold_reach: dead C/C++ code across a project (see fold_reach.h).
 *
 * Each file's reach facts (reach_facts.h: candidate definitions, the names
 * each mentions, the names mentioned outside them, compiled-out regions;
 * for Python the names it mentions) come from its FileFacts, or are made
 * from its text when it has none. The C/C++ files' names are numbered
 * project-wide first, then each Python word is looked up among them (one
 * that names no C/C++ code keeps nothing alive), and a worklist makes alive
 * every definition of a name that live code mentions. What stays dead, and
 * what is compiled out, loses its live findings to unreachable hints. */
#include "analyzers/engine/fold_reach.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/engine/analyze.h"
#include "analyzers/engine/names.h"
#include "analyzers/engine/reach_facts.h"
#include "analyzers/kb/kb.h"

#include <stdlib.h>
#include <string.h>

#define REACH_MAX_READ ((size_t)16 << 20)

/* ---- the project's numbering ---- */

typedef struct {
  size_t file;
  uint32_t start, end;
  int32_t name;
  bool live;
  bool live_required; /* live without the optional modules' mentions (fold_optional.h) */
  bool binding;       /* a registration under a Python name (ReachFactDef.binding) */
} ReachDef;

typedef struct {
  int32_t name;
  int32_t owner; /* the innermost candidate definition, -1 outside every one */
  bool optional; /* a word of an optional Python module */
} ReachMention;

typedef struct {
  size_t file;
  uint32_t start, end;
  const char *why; /* borrowed from the file's facts: "`#if 0`" */
} ReachRegion;

typedef struct {
  const char *bindings; /* the binding macros (a kb pattern), or NULL */
  bool extension;       /* some C/C++ file defines a binding */
  Names names;
  Array(ReachDef) defs;
  Array(ReachMention) mentions;
  Array(ReachRegion) regions;
  Array(int32_t) py_names; /* names a Python file mentions */
  /* The names of the top-level Python functions and classes of the
   * project's modules that are not optional themselves: a Python wrapper
   * named like the binding it calls (stylegan3's `def bias_act(...)` over
   * `_plugin.bias_act`); and those an optional module defines */
  Names py_defs, py_defs_optional;
} Reach;

/* ---- one file's facts into the project's numbering ---- */

/* Whether dotted callee c names `name` as one of its parts ("K", "K.apply",
 * "ops.K", "mod.K.forward"). */
static bool reach__callee_names(const char *c, const char *name, size_t n) {
  for (const char *p = c; (p = strstr(p, name)) != NULL; p++)
    if ((p == c || p[-1] == '.') && (p[n] == '\0' || p[n] == '.')) return true;
  return false;
}

/* Whether definition `owner` of py (a function, or a method through its
 * class) runs only from calls of this file on an optional path or in the
 * CUDA branch of a device test, and some call runs it:
 * `Fn.apply(...)` of an autograd Function only inside `if
 * torch.cuda.is_available() and x.is_cuda:`, whose else is the PyTorch
 * fallback. A name the module exports (`__all__`) may be called anywhere. */
static bool reach__owner_guarded(const PyFacts *py, int32_t owner) {
  if (owner < 0) return false;
  const PyDef *d = &py->defs.items[owner];
  int32_t top = d->cls >= 0 ? d->cls : owner;
  const char *name = py->defs.items[top].name;
  size_t n = strlen(name), calls = 0;
  for (size_t i = 0; i < py->all.len; i++)
    if (strcmp(py->all.items[i], name) == 0) return false;
  for (size_t i = 0; i < py->calls.len; i++) {
    const PyCall *c = &py->calls.items[i];
    if (c->owner == top || c->owner == owner || !reach__callee_names(c->callee, name, n)) continue;
    if (!(c->flags & (PYCALL_OPTIONAL | PYCALL_CUDA_GATED))) return false;
    calls++;
  }
  return calls > 0;
}

/* Whether py defines a top-level function or class called `name`. */
static bool reach__defines(const PyFacts *py, const char *name) {
  for (size_t i = 0; i < py->defs.len; i++)
    if (py->defs.items[i].kind != PYDEF_METHOD && strcmp(py->defs.items[i].name, name) == 0) return true;
  return false;
}

/* Whether every call of `name` in py (its callee's last part) is guarded
 * (in a try body whose handler catches ImportError, an availability
 * branch or the CUDA branch of a device test with a fallback, itself or through the one function or class holding it), and
 * there is one: `import _kernels` in a try whose except defines the
 * PyTorch fallback, the binding called in the try body. */
static bool reach__guarded_calls(const PyFacts *py, const char *name) {
  size_t n = strlen(name), calls = 0;
  /* a bare call of a function the file defines is the Python wrapper's, not the binding's */
  bool wrapper = py && reach__defines(py, name);
  for (size_t i = 0; py && i < py->calls.len; i++) {
    const PyCall *c = &py->calls.items[i];
    size_t cn = strlen(c->callee);
    if (cn < n || strcmp(c->callee + cn - n, name) != 0 || (cn > n && c->callee[cn - n - 1] != '.')) continue;
    if (cn == n && wrapper) continue;
    if (!(c->flags & (PYCALL_GUARDED | PYCALL_CUDA_GATED)) && !reach__owner_guarded(py, c->owner)) return false;
    calls++;
  }
  return calls > 0;
}

/* Whether the file binds w only by guarded imports of a module outside the
 * project's Python (`try: from exllama_kernels import q4_matmul` / `except
 * ImportError:` a stand-in): the file is written to run without that
 * compiled extension, so its calls of w keep no kernel required (blind
 * review of AutoGPTQ: its exllama, exllamav2 and Marlin extensions). */
static bool reach__guarded_binding(const PyFacts *py, const char *w) {
  bool bound = false;
  for (size_t i = 0; i < py->imports.len; i++) {
    const PyFactImport *im = &py->imports.items[i];
    if (!im->local || strcmp(im->local, w) != 0) continue;
    if (!im->guarded || !im->module || im->module[0] == '.') return false;
    bound = true;
  }
  return bound;
}

/* Whether Python word w, in a file that does not define it, names a Python
 * function or class of another, required module: the importer calls that
 * wrapper, whose own file says how it reaches the binding (for the required
 * solve only). A wrapper in an optional module (SageAttention's guarded
 * `from . import sm80_compile`) says nothing of how its callers reach it. */
static bool reach__other_wrapper(const Reach *r, const PyFacts *py, const char *w) {
  size_t n = strlen(w);
  return names_find(&r->py_defs, w, n) >= 0 && names_find(&r->py_defs_optional, w, n) < 0 && !reach__defines(py, w);
}

/* Numbers the project's top-level Python definitions (Reach.py_defs and
 * py_defs_optional; `optional` as fold_reach_cxx's). */
static void reach__python_defs(Reach *r, const FoldFile *files, size_t n, const bool *optional) {
  for (size_t i = 0; i < n; i++) {
    const PyFacts *py = files[i].kind == FILE_PYTHON && files[i].facts ? files[i].facts->py : NULL;
    Names *into = optional[i] || files[i].test ? &r->py_defs_optional : &r->py_defs;
    for (size_t d = 0; py && d < py->defs.len; d++)
      if (py->defs.items[d].kind != PYDEF_METHOD) names_intern(into, py->defs.items[d].name, strlen(py->defs.items[d].name));
  }
}

/* Adds file `file`'s facts: a C/C++ file's words numbered project-wide,
 * its definitions and regions, its mentions with owners among the
 * project's definitions; a Python file's words that name C/C++ code, as
 * mentions outside every definition, optional for the required solve when
 * the file is (`optional`) or when it calls the name only behind a
 * fallback (py: its facts, may be NULL). */
static void reach__add(Reach *r, size_t file, const ReachFacts *f, bool test, bool optional, const PyFacts *py) {
  if (f->top_words) { /* Python: words only */
    /* a name no C/C++ file has (added first) keeps nothing alive: not numbered */
    for (size_t k = 0; k < f->words.len; k++) {
      const char *w = reach_facts_word(f, k);
      int64_t known = names_find(&r->names, w, strlen(w));
      if (known < 0) continue;
      bool aside = optional || reach__guarded_calls(py, w) || (py && reach__other_wrapper(r, py, w)) ||
                   (py && reach__guarded_binding(py, w));
      ReachMention men = {(int32_t)known, -1, aside};
      array_push(&r->mentions, men);
      array_push(&r->py_names, (int32_t)known);
    }
    return;
  }
  uint32_t *id = xcalloc(f->words.len + 1, sizeof *id);
  for (size_t k = 0; k < f->words.len; k++)
    id[k] = names_intern(&r->names, reach_facts_word(f, k), strlen(reach_facts_word(f, k)));
  int32_t base = (int32_t)r->defs.len;
  for (size_t d = 0; d < f->defs.len; d++) {
    ReachDef def = {file, f->defs.items[d].start, f->defs.items[d].end, (int32_t)id[f->defs.items[d].name], false,
                    false, f->defs.items[d].binding};
    array_push(&r->defs, def);
  }
  /* a C/C++ test (a standalone `main` timing the kernels) runs none of them for the product */
  for (size_t m = 0; !test && m < f->mentions.len; m++) {
    const ReachFactMention *fm = &f->mentions.items[m];
    ReachMention men = {(int32_t)id[fm->name], fm->owner < 0 ? -1 : base + fm->owner, false};
    array_push(&r->mentions, men);
  }
  for (size_t g = 0; g < f->regions.len; g++) {
    ReachRegion rg = {file, f->regions.items[g].start, f->regions.items[g].end, f->regions.items[g].why};
    array_push(&r->regions, rg);
  }
  for (size_t c = 0; r->bindings && !r->extension && c < f->caps.len; c++)
    r->extension = kb_pattern_match(r->bindings, reach_facts_word(f, f->caps.items[c]));
  free(id);
}

/* ---- the fixpoint ---- */

/* Items grouped by key (keys[i] in [0, n_keys), or -1: none): the items
 * of key k are of[first[k] .. first[k + 1]). */
typedef struct {
  size_t *first, *of;
} ReachIndex;

static ReachIndex reach__index(const int32_t *keys, size_t n_items, size_t n_keys) {
  ReachIndex x = {xcalloc(n_keys + 2, sizeof(size_t)), xcalloc(n_items + 1, sizeof(size_t))};
  size_t *fill = xcalloc(n_keys + 1, sizeof *fill);
  for (size_t i = 0; i < n_items; i++)
    if (keys[i] >= 0) x.first[keys[i] + 1]++;
  for (size_t k = 0; k < n_keys; k++) x.first[k + 1] += x.first[k];
  for (size_t i = 0; i < n_items; i++)
    if (keys[i] >= 0) x.of[x.first[keys[i]] + fill[keys[i]]++] = i;
  free(fill);
  return x;
}

static void reach__index_free(ReachIndex *x) {
  free(x->first);
  free(x->of);
}

/* A binding lives when Python mentions its name: the project's Python wraps
 * the extension and calls what it needs. When no Python file mentions any
 * binding, the extension itself is the surface (a C++-only package, or one
 * loaded by a name the project computes): every binding lives. */
static void reach__unwrapped_bindings(const Reach *r, bool *live_name, void *work_arr) {
  Array(int32_t) *work = work_arr;
  bool *py = xcalloc(r->names.strs.len + 1, sizeof *py);
  for (size_t i = 0; i < r->py_names.len; i++) py[r->py_names.items[i]] = true;
  bool wrapped = false;
  for (size_t d = 0; d < r->defs.len && !wrapped; d++) wrapped = r->defs.items[d].binding && py[r->defs.items[d].name];
  for (size_t d = 0; d < r->defs.len && !wrapped; d++) {
    int32_t k = r->defs.items[d].name;
    if (r->defs.items[d].binding && !live_name[k]) {
      live_name[k] = true;
      array_push(work, k);
    }
  }
  free(py);
}

/* Marks the live definitions: `required` leaves out the optional modules'
 * and tests' words and sets live_required, else live. */
static void reach__solve(Reach *r, bool required) {
  size_t nn = r->names.strs.len, nd = r->defs.len;
  bool *live_name = xcalloc(nn + 1, sizeof *live_name);
  /* definitions by name and mentions by owner */
  int32_t *keys = xcalloc((nd > r->mentions.len ? nd : r->mentions.len) + 1, sizeof *keys);
  for (size_t d = 0; d < nd; d++) keys[d] = r->defs.items[d].name;
  ReachIndex by_name = reach__index(keys, nd, nn);
  for (size_t m = 0; m < r->mentions.len; m++) keys[m] = r->mentions.items[m].owner;
  ReachIndex by_owner = reach__index(keys, r->mentions.len, nd);
  free(keys);
  const size_t *def_first = by_name.first, *def_of = by_name.of, *men_first = by_owner.first, *men_of = by_owner.of;
  Array(int32_t) work = {0};
  reach__unwrapped_bindings(r, live_name, &work); /* the same in both solves: whether Python wraps at all */
  for (size_t m = 0; m < r->mentions.len; m++) {
    if (required && r->mentions.items[m].optional) continue;
    int32_t k = r->mentions.items[m].name;
    if (r->mentions.items[m].owner < 0 && !live_name[k]) {
      live_name[k] = true;
      array_push(&work, k);
    }
  }
  while (work.len) {
    int32_t k = work.items[--work.len];
    for (size_t i = def_first[k]; i < def_first[k + 1]; i++) {
      ReachDef *d = &r->defs.items[def_of[i]];
      bool *live = required ? &d->live_required : &d->live;
      if (*live) continue;
      *live = true;
      for (size_t j = men_first[def_of[i]]; j < men_first[def_of[i] + 1]; j++) {
        int32_t q = r->mentions.items[men_of[j]].name;
        if (!live_name[q]) {
          live_name[q] = true;
          array_push(&work, q);
        }
      }
    }
  }
  array_free(&work);
  free(live_name);
  reach__index_free(&by_name);
  reach__index_free(&by_owner);
}

/* ---- marking ---- */

/* Whether file i is a Python build script (`setup.py`, `*_setup.py`) whose
 * folder's C/C++ sources hold optional code and no required code (state 1
 * at least once, never 2): the build of an optional extension. */
static bool reach__optional_build(const FoldFile *files, size_t n, size_t i, const uint8_t *state) {
  const char *p = files[i].rel ? files[i].rel : files[i].path, *slash = strrchr(p, '/');
  const char *base = slash ? slash + 1 : p;
  if (files[i].kind != FILE_PYTHON || !(strcmp(base, "setup.py") == 0 || util_ends_with(base, "_setup.py"))) return false;
  size_t dir = (size_t)(base - p), sources = 0;
  for (size_t k = 0; k < n; k++) {
    const char *q = files[k].rel ? files[k].rel : files[k].path;
    if (files[k].kind != FILE_CUDA || strncmp(q, p, dir) != 0) continue;
    if (state[k] & 2) return false;
    sources += state[k] == 1;
  }
  return sources > 0;
}

static void reach__optional_hint(Finding *f, const KbEntry *row) {
  f->severity = SEV_HINT;
  f->guarded = true;
  kb_append_note(f, row, NULL, NULL);
}

/* The live C/C++ definitions only optional modules reach: their findings
 * become guarded hints with the "optional-extension" row's note; so does
 * the rest of a file whose live definitions are all such (its includes and
 * their internals finding). */
static void reach__mark_optional(const Reach *r, FoldFile *files, size_t n, const KbEntry *row) {
  if (!row || !r->extension) return;
  uint8_t *state = xcalloc(n + 1, 1); /* per file: 1 an optional definition, 2 a required one */
  for (size_t d = 0; d < r->defs.len; d++) {
    const ReachDef *def = &r->defs.items[d];
    if (def->live) state[def->file] |= def->live_required ? 2 : 1;
    if (!def->live || def->live_required) continue;
    FindingList *l = files[def->file].findings;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (fold_live(f) && kb_domain(f->rule->code) >= 2 && f->start_byte >= def->start && f->start_byte < def->end)
        reach__optional_hint(f, row);
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (state[i] != 1 && !reach__optional_build(files, n, i, state)) continue;
    FindingList *l = files[i].findings;
    for (size_t j = 0; j < l->len; j++)
      if (fold_live(&l->items[j]) && kb_domain(l->items[j].rule->code) >= 2) reach__optional_hint(&l->items[j], row);
  }
  free(state);
}

/* A C/C++ source whose definitions are all dead (`cuda_version.cu`, whose one
 * function only an unbound helper calls; a CPU stub file the dispatcher never
 * calls): its includes and other file-level lines serve nothing either. */
static void reach__mark_dead_files(const Reach *r, FoldFile *files, size_t n, const KbEntry *dead) {
  uint8_t *state = xcalloc(n + 1, 1); /* per file: 1 a dead definition, 2 a live one */
  for (size_t d = 0; d < r->defs.len; d++) state[r->defs.items[d].file] |= r->defs.items[d].live ? 2 : 1;
  for (size_t i = 0; i < n; i++) {
    const char *p = files[i].rel ? files[i].rel : files[i].path, *slash = strrchr(p, '/');
    if (state[i] != 1 || files[i].kind != FILE_CUDA || fold_header_path(p)) continue;
    char *who = xasprintf("the functions of %s", slash ? slash + 1 : p);
    fold_mark_file_unreachable(files[i].findings, dead, who);
    free(who);
  }
  free(state);
}

static void reach__mark(const Reach *r, FoldFile *files, const KbEntry *dead, const KbEntry *out) {
  for (size_t d = 0; dead && r->extension && d < r->defs.len; d++) {
    const ReachDef *def = &r->defs.items[d];
    if (def->live) continue;
    FindingList *l = files[def->file].findings;
    char *who = NULL;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (!fold_live(f) || kb_domain(f->rule->code) < 2 || f->start_byte < def->start || f->start_byte >= def->end) continue;
      if (!who) who = xasprintf("%s()", r->names.strs.items[def->name]);
      fold_mark_unreachable(f, dead, who);
    }
    free(who);
  }
  for (size_t g = 0; out && g < r->regions.len; g++) {
    const ReachRegion *rg = &r->regions.items[g];
    FindingList *l = files[rg->file].findings;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (fold_live(f) && kb_domain(f->rule->code) >= 2 && f->start_byte >= rg->start && f->start_byte < rg->end)
        fold_mark_unreachable(f, out, rg->why);
    }
  }
}

/* Whether byte `at` of file `file` is in dead code. */
static bool reach__dead_at(const Reach *r, size_t file, uint32_t at) {
  for (size_t d = 0; r->extension && d < r->defs.len; d++) {
    const ReachDef *def = &r->defs.items[d];
    if (!def->live && def->file == file && def->start <= at && at < def->end) return true;
  }
  for (size_t g = 0; g < r->regions.len; g++)
    if (r->regions.items[g].file == file && r->regions.items[g].start <= at && at < r->regions.items[g].end) return true;
  return false;
}

typedef struct {
  const Reach *r;
  size_t file;
} ReachAt;

static bool reach__dead_site(void *data, const Related *q) {
  const ReachAt *a = data;
  return !q->path && reach__dead_at(a->r, a->file, q->start);
}

/* A live finding lists no sites of its file that are dead code (the
 * runtime calls of a dead launcher folded into the file's first kernel). */
static void reach__prune_related(const Reach *r, FoldFile *files, size_t n) {
  for (size_t i = 0; i < n; i++) {
    ReachAt a = {r, i};
    for (size_t j = 0; files[i].kind == FILE_CUDA && j < files[i].findings->len; j++)
      if (!files[i].findings->items[j].unreachable) finding_drop_related_if(&files[i].findings->items[j], reach__dead_site, &a);
  }
}

static bool reach__has_live(const FoldFile *f) {
  for (size_t j = 0; j < f->findings->len; j++)
    if (fold_live(&f->findings->items[j]) && kb_domain(f->findings->items[j].rule->code) >= 2) return true;
  return false;
}

/* The facts of file i: its own (FileFacts.reach), else made from its text
 * into *made (freed by the caller). NULL when it says nothing. */
static const ReachFacts *reach__facts_of(const FoldFile *file, size_t i, FoldTextFn cxx_text, void *data,
                                         ReachFacts **made) {
  *made = NULL;
  if (file->kind != FILE_CUDA && file->kind != FILE_PYTHON) return NULL;
  if (file->facts && file->facts->reach) return file->facts->reach;
  size_t len = 0;
  if (file->kind == FILE_CUDA) {
    const char *t = cxx_text(data, i, &len);
    if (t) *made = reach_facts_scan(FILE_CUDA, t, len);
    return *made;
  }
  char *t = NULL;
  if (util_read_file(file->abs, REACH_MAX_READ, &t, &len) != 0) return NULL;
  *made = reach_facts_scan(FILE_PYTHON, t, len);
  free(t);
  return *made;
}

void fold_reach_cxx(FoldFile *files, size_t n, const AnalyzeOptions *opt, const bool *optional, FoldTextFn cxx_text,
                    void *data) {
  const KbEntry *dead = kb_lookup(KB_DETECTOR, "cxx-unreferenced", opt->user_entries, opt->n_user_entries);
  const KbEntry *out = kb_lookup(KB_DETECTOR, "cxx-compiled-out", opt->user_entries, opt->n_user_entries);
  bool any = false;
  for (size_t i = 0; i < n && !any; i++) any = files[i].kind == FILE_CUDA && !files[i].test && reach__has_live(&files[i]);
  if (!any || (!dead && !out)) return;
  Reach r = {0};
  r.bindings = dead ? dead->arg : NULL;
  if (optional) reach__python_defs(&r, files, n, optional);
  ReachFacts **made = xcalloc(n, sizeof *made);
  for (int pass = 0; pass < 2; pass++) /* C/C++ first: their names are the ones that matter */
    for (size_t i = 0; i < n; i++) {
      if ((files[i].kind == FILE_CUDA) != (pass == 0)) continue;
      const ReachFacts *f = reach__facts_of(&files[i], i, cxx_text, data, &made[i]);
      /* the required solve leaves out the optional modules and the tests: what only they use is optional */
      bool aside = optional && files[i].kind == FILE_PYTHON && (optional[i] || files[i].test);
      const PyFacts *py = files[i].kind == FILE_PYTHON && files[i].facts ? files[i].facts->py : NULL;
      if (f) reach__add(&r, i, f, files[i].test && files[i].kind == FILE_CUDA, aside, optional ? py : NULL);
    }
  reach__solve(&r, false);
  reach__mark(&r, files, dead, out);
  if (dead && r.extension) reach__mark_dead_files(&r, files, n, dead);
  if (optional) {
    reach__solve(&r, true);
    reach__mark_optional(&r, files, n, kb_lookup(KB_DETECTOR, "optional-extension", opt->user_entries, opt->n_user_entries));
  }
  reach__prune_related(&r, files, n);
  names_free(&r.names);
  names_free(&r.py_defs);
  names_free(&r.py_defs_optional);
  array_free(&r.regions);
  array_free(&r.defs);
  array_free(&r.mentions);
  array_free(&r.py_names);
  for (size_t i = 0; i < n; i++) reach_facts_free(made[i]);
  free(made);
}
