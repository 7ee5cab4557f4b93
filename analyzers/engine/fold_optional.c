/* fold_optional: see fold_optional.h. Modules are known by their dotted
 * path inside the project (`extensions/kernels/cauchy.py` is
 * `extensions.kernels.cauchy`), and an import names one when it spells
 * that path or its tail (a `src/` layout). */
#include "analyzers/engine/fold_optional.h"
#include "analyzers/kb/kb.h"
#include "analyzers/python/pyfacts.h"

#include <stdlib.h>
#include <string.h>

/* The dotted module path of a Python file's project path ("a/b/__init__.py"
 * is "a.b"), or NULL for another kind. Caller frees. */
static char *optional__dotted(const FoldFile *f) {
  const char *rel = f->rel ? f->rel : f->path;
  if (f->kind != FILE_PYTHON || !util_ends_with(rel, ".py")) return NULL;
  char *d = xstrndup(rel, strlen(rel) - 3);
  size_t n = strlen(d);
  if (n >= 9 && strcmp(d + n - 9, "/__init__") == 0) d[n - 9] = '\0';
  for (char *c = d; *c; c++)
    if (*c == '/') *c = '.';
  return d;
}

/* The absolute module an import of file `from` (dotted `at`) spells: a
 * relative one resolved against its package. Caller frees; NULL when it
 * climbs above the project. */
static char *optional__absolute(const char *spelled, const char *at, bool is_init) {
  if (spelled[0] != '.') return xstrdup(spelled);
  size_t dots = strspn(spelled, ".");
  char *base = xstrdup(at);
  for (size_t k = is_init ? 1 : 0; k < dots; k++) {
    char *d = strrchr(base, '.');
    if (!d && !*base) {
      free(base);
      return NULL;
    }
    if (d) *d = '\0';
    else base[0] = '\0';
  }
  const char *rest = spelled + dots;
  char *r = !*base ? xstrdup(rest) : *rest ? xasprintf("%s.%s", base, rest) : xstrdup(base);
  free(base);
  return r;
}

typedef struct {
  size_t guarded, plain; /* imports of the module by other non-test files */
  size_t first;          /* the file of its first guarded import */
  uint32_t first_row;
} OptionalUses;

/* Module name `m` names the module at dotted path `d` when it is `d` or
 * its tail after a folder the project keeps its packages in
 * (`kernels.cauchy` names `extensions.kernels.cauchy`). The index holds
 * every such tail of every module, so an import finds the modules it
 * names by one lookup instead of a comparison with every file: a project
 * of a thousand modules made that test a million times per import. */
typedef struct {
  const char *tail; /* borrowed from the dotted paths */
  size_t len;
  size_t file;
  size_t next; /* next entry with the same slot, or SIZE_MAX */
} OptionalTail;

typedef struct {
  OptionalTail *items;
  size_t len;
  size_t *head; /* per slot: first entry, or SIZE_MAX */
  size_t mask;
  size_t *seen; /* per file: the last import that counted it (1-based) */
} OptionalIndex;

static size_t optional__slot(const OptionalIndex *ix, const char *s, size_t n) {
  return (size_t)util_fnv(0, s, n) & ix->mask;
}

static void optional__index(OptionalIndex *ix, char *const *dotted, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    for (const char *c = dotted[i]; c && *c; c++) total += *c == '.';
  total += n;
  size_t slots = 16;
  while (slots < 2 * total) slots *= 2;
  ix->mask = slots - 1;
  ix->head = xmalloc(slots * sizeof *ix->head);
  for (size_t k = 0; k < slots; k++) ix->head[k] = SIZE_MAX;
  ix->items = xmalloc((total ? total : 1) * sizeof *ix->items);
  ix->len = 0;
  ix->seen = xcalloc(n + 1, sizeof *ix->seen);
  for (size_t i = 0; i < n; i++) {
    if (!dotted[i] || !*dotted[i]) continue;
    for (const char *t = dotted[i]; t; t = strchr(t, '.') ? strchr(t, '.') + 1 : NULL) {
      size_t len = strlen(t), h = optional__slot(ix, t, len);
      ix->items[ix->len] = (OptionalTail){t, len, i, ix->head[h]};
      ix->head[h] = ix->len++;
    }
  }
}

static void optional__index_free(OptionalIndex *ix) {
  free(ix->items);
  free(ix->head);
  free(ix->seen);
}

/* Counts import number `id` (1-based, unique per import) of file i, of
 * module name m, for every other module it names, once each. */
static void optional__names(const OptionalIndex *ix, const char *m, size_t i, size_t id, bool guarded, uint32_t row,
                            OptionalUses *uses) {
  size_t nm = strlen(m);
  if (!nm) return;
  for (size_t e = ix->head[optional__slot(ix, m, nm)]; e != SIZE_MAX; e = ix->items[e].next) {
    const OptionalTail *t = &ix->items[e];
    if (t->file == i || t->len != nm || memcmp(t->tail, m, nm) != 0 || ix->seen[t->file] == id) continue;
    ix->seen[t->file] = id;
    OptionalUses *u = &uses[t->file];
    if (guarded) {
      if (!u->guarded++) u->first = i, u->first_row = row;
    } else {
      u->plain++;
    }
  }
}

static void optional__count(const FoldFile *files, size_t i, char *const *dotted, OptionalIndex *ix, size_t *id,
                            OptionalUses *uses) {
  const PyFacts *py = files[i].facts ? files[i].facts->py : NULL;
  const char *rel = files[i].rel ? files[i].rel : files[i].path;
  bool init = util_ends_with(rel, "__init__.py");
  for (size_t k = 0; py && k < py->imports.len; k++) {
    const PyFactImport *im = &py->imports.items[k];
    if (im->lazy) continue;
    char *mod = optional__absolute(im->module, dotted[i], init);
    char *qual = mod && im->from_import ? optional__absolute(im->qualname, dotted[i], init) : NULL;
    ++*id; /* `from a import b` names module a or a.b: counted once */
    if (mod) optional__names(ix, mod, i, *id, im->guarded, im->start.row, uses);
    if (qual) optional__names(ix, qual, i, *id, im->guarded, im->start.row, uses);
    free(mod);
    free(qual);
  }
  for (size_t k = 0; py && k < py->dynamic_imports.len; k++) /* a function's own import is no guard */
    optional__names(ix, py->dynamic_imports.items[k], i, ++*id, false, 0, uses);
}

static OptionalUses *optional__uses(const FoldFile *files, size_t n, char ***dotted_out) {
  char **dotted = xcalloc(n + 1, sizeof *dotted);
  for (size_t i = 0; i < n; i++) dotted[i] = files[i].test ? NULL : optional__dotted(&files[i]);
  OptionalUses *uses = xcalloc(n + 1, sizeof *uses);
  OptionalIndex ix;
  optional__index(&ix, dotted, n);
  size_t id = 0;
  for (size_t i = 0; i < n; i++)
    if (dotted[i]) optional__count(files, i, dotted, &ix, &id, uses);
  optional__index_free(&ix);
  *dotted_out = dotted;
  return uses;
}

bool *fold_optional_modules(const FoldFile *files, size_t n, bool *any) {
  char **dotted;
  OptionalUses *uses = optional__uses(files, n, &dotted);
  bool *optional = xcalloc(n + 1, sizeof *optional);
  *any = false;
  for (size_t i = 0; i < n; i++) {
    optional[i] = dotted[i] && uses[i].guarded && !uses[i].plain;
    *any = *any || optional[i];
    free(dotted[i]);
  }
  free(dotted);
  free(uses);
  return optional;
}

void fold_optional_mark(FoldFile *files, size_t n, const bool *optional, const KbEntry *row) {
  char **dotted;
  OptionalUses *uses = optional__uses(files, n, &dotted);
  for (size_t i = 0; row && i < n; i++) {
    if (!optional[i]) continue;
    const FoldFile *by = &files[uses[i].first];
    char *where = xasprintf("%s:%u", by->rel ? by->rel : by->path, uses[i].first_row + 1);
    FindingList *l = files[i].findings;
    for (size_t j = 0; j < l->len; j++) {
      Finding *f = &l->items[j];
      if (!fold_live(f) || kb_domain(f->rule->code) < 2) continue;
      f->severity = SEV_HINT;
      f->guarded = true;
      kb_append_note(f, row, where, NULL);
    }
    free(where);
  }
  for (size_t i = 0; i < n; i++) free(dotted[i]);
  free(dotted);
  free(uses);
}
