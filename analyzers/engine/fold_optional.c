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

/* Whether module name `m` names the module at dotted path `d` (itself, or
 * its tail after a folder the project keeps its packages in). */
static bool optional__names(const char *m, const char *d) {
  size_t nm = strlen(m), nd = strlen(d);
  return nm && (strcmp(m, d) == 0 || (nd > nm && d[nd - nm - 1] == '.' && strcmp(d + nd - nm, m) == 0));
}

typedef struct {
  size_t guarded, plain; /* imports of the module by other non-test files */
  size_t first;          /* the file of its first guarded import */
  uint32_t first_row;
} OptionalUses;

static void optional__count(const FoldFile *files, size_t i, char *const *dotted, size_t n, OptionalUses *uses) {
  const PyFacts *py = files[i].facts ? files[i].facts->py : NULL;
  const char *rel = files[i].rel ? files[i].rel : files[i].path;
  bool init = util_ends_with(rel, "__init__.py");
  for (size_t k = 0; py && k < py->imports.len; k++) {
    const PyFactImport *im = &py->imports.items[k];
    char *mod = optional__absolute(im->module, dotted[i], init);
    char *qual = im->from_import ? optional__absolute(im->qualname, dotted[i], init) : NULL;
    for (size_t t = 0; mod && t < n; t++) {
      if (t == i || !dotted[t] || !(optional__names(mod, dotted[t]) || (qual && optional__names(qual, dotted[t]))))
        continue;
      if (im->guarded && !im->lazy) {
        if (!uses[t].guarded++) uses[t].first = i, uses[t].first_row = im->start.row;
      } else if (!im->lazy) {
        uses[t].plain++;
      }
    }
    free(mod);
    free(qual);
  }
  for (size_t k = 0; py && k < py->dynamic_imports.len; k++) /* a function's own import is no guard */
    for (size_t t = 0; t < n; t++)
      if (t != i && dotted[t] && optional__names(py->dynamic_imports.items[k], dotted[t])) uses[t].plain++;
}

static OptionalUses *optional__uses(const FoldFile *files, size_t n, char ***dotted_out) {
  char **dotted = xcalloc(n + 1, sizeof *dotted);
  for (size_t i = 0; i < n; i++) dotted[i] = files[i].test ? NULL : optional__dotted(&files[i]);
  OptionalUses *uses = xcalloc(n + 1, sizeof *uses);
  for (size_t i = 0; i < n; i++)
    if (dotted[i]) optional__count(files, i, dotted, n, uses);
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
