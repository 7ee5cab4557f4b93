/* report_blast: for each blocker, the project functions that wrap it and
 * the call sites that reach those functions (one level of callers).
 *
 * A wrapper is the outermost function around the blocker (for a method, its
 * class, since callers reach methods through instances of the class). Call
 * sites are found in the wrapper's own file and in every file that imports
 * it (reverse import edges): a call whose callee resolves, through the
 * file's imports, to the wrapper's module and name. Only the files involved
 * are parsed, one at a time. Python only: native blockers have no wrappers. */
#include "analyzers/engine/forest.h"
#include "analyzers/project/report_priv.h"
#include "analyzers/python/resolver.h"
#include "analyzers/engine/nesting.h"

#include <stdlib.h>

#define BLAST_MAX_CALLERS 10
/* Files analyzed per blocker: the section is for reading, and a blocker
 * spread over hundreds of files is a pattern, not a call chain. */
#define BLAST_MAX_FILES 10

typedef struct {
  size_t blast;   /* index into r->blast */
  size_t wrapper; /* index into its wrappers */
  size_t file;
  char *match;    /* name callers use: the function, or the class of a method */
} BlastTarget;

typedef Array(BlastTarget) BlastTargets;

/* Outermost function containing byte `at`, or NULL. */
static const PyFunction *report_blast__outer(const PyFile *py, uint32_t at) {
  const PyFunction *best = NULL;
  for (size_t i = 0; i < py->functions.len; i++) {
    const PyFunction *f = &py->functions.items[i];
    if (at < f->start || at >= f->end) continue;
    if (!best || f->start < best->start) best = f;
  }
  return best;
}

static char *report_blast__fn_name(const PyFunction *f) {
  return f->class_name ? xasprintf("%s.%s", f->class_name, f->name) : xstrdup(f->name);
}

static uint32_t report_blast__row(const char *text, uint32_t at) {
  uint32_t row = 0;
  for (uint32_t i = 0; i < at && text[i]; i++)
    if (text[i] == '\n') row++;
  return row;
}

typedef struct {
  TSParser *parser;
  Forest forest;
  PyFile *py;
  char *text;
  size_t len;
} BlastParsed;

static bool report_blast__parse(BlastParsed *p, ReportReadFn read, void *data, size_t file) {
  memset(p, 0, sizeof *p);
  p->text = read(data, file, &p->len);
  if (!p->text || p->len > UINT32_MAX / 2 || nesting_too_deep(p->text, p->len, NESTING_PYTHON)) {
    free(p->text);
    p->text = NULL;
    return false;
  }
  p->parser = ts_parser_new();
  forest_init(&p->forest, FILE_PYTHON);
  if (!forest_parse(&p->forest, p->parser, p->text, p->len)) {
    forest_free(&p->forest);
    ts_parser_delete(p->parser);
    free(p->text);
    memset(p, 0, sizeof *p);
    return false;
  }
  p->py = pyfile_build(&p->forest, p->text, p->len);
  return true;
}

static void report_blast__unparse(BlastParsed *p) {
  if (p->py) pyfile_free(p->py);
  forest_free(&p->forest);
  if (p->parser) ts_parser_delete(p->parser);
  free(p->text);
  memset(p, 0, sizeof *p);
}

static void report_blast__add_site(Report *r, const BlastTarget *t, const ReportFile *files, size_t file,
                                   const BlastParsed *p, uint32_t at, const PhaseGraph *g) {
  ReportWrapper *w = &r->blast.items[t->blast].wrappers.items[t->wrapper];
  uint32_t line = report_blast__row(p->text, at) + 1;
  for (size_t i = 0; i < w->callers.len; i++)
    if (w->callers.items[i].line == line && strcmp(w->callers.items[i].path, files[file].path) == 0) return;
  /* the wrapper's own definition line is not a call site */
  if (file == t->file && w->line == line) return;
  if (w->callers.len >= BLAST_MAX_CALLERS) {
    w->more++;
    return;
  }
  ReportSite s = {0};
  s.path = xstrdup(files[file].path);
  s.line = line;
  const PyFunction *fn = report_blast__outer(p->py, at);
  s.function = fn ? report_blast__fn_name(fn) : NULL;
  s.phases = phases_of_file(g, file);
  array_push(&w->callers, s);
}

/* Scans one statement's tree for calls of any target (cursor walk, no recursion). */
static void report_blast__scan_tree(Report *r, const BlastTargets *targets, const ReportFile *files, size_t file,
                                    const BlastParsed *p, const PhaseGraph *g, TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (strcmp(ts_node_type(n), "call") == 0) {
      TSNode fn = ts_node_child_by_field_name(n, "function", 8);
      char *q = ts_node_is_null(fn) ? NULL : pyfile_qualname(p->py, fn);
      char *local = NULL;
      if (!q && !ts_node_is_null(fn) && strcmp(ts_node_type(fn), "identifier") == 0) local = pyfile_node_text(p->py, fn);
      size_t target_file = (size_t)-1;
      const char *name = NULL;
      char *mod = NULL;
      if (q) {
        /* split "module.name"; the leading dots of a relative import stay
         * with the module (".f" from `from . import f` is "." + "f") */
        size_t lead = strspn(q, ".");
        const char *dot = strrchr(q, '.');
        if (dot && (size_t)(dot - q) >= lead) {
          mod = xstrndup(q, (size_t)(dot - q));
          name = dot + 1;
        } else if (lead && q[lead]) {
          mod = xstrndup(q, lead);
          name = q + lead;
        }
        if (mod && *mod) target_file = phases_resolve(g, file, mod);
      }
      for (size_t t = 0; t < targets->len; t++) {
        const BlastTarget *bt = &targets->items[t];
        bool hit = (local && bt->file == file && strcmp(local, bt->match) == 0) ||
                   (name && target_file == bt->file && strcmp(name, bt->match) == 0);
        if (hit) report_blast__add_site(r, bt, files, file, p, ts_node_start_byte(n), g);
      }
      free(mod);
      free(q);
      free(local);
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        moved = true;
      } else if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
    }
  }
}

/* Scans one parsed file for calls of any target. */
static void report_blast__scan(Report *r, const BlastTargets *targets, const ReportFile *files, size_t file,
                               const BlastParsed *p, const PhaseGraph *g) {
  for (size_t m = 0; m < forest_size(&p->forest); m++)
    report_blast__scan_tree(r, targets, files, file, p, g, forest_root(&p->forest, m));
}

/* Module-level blockers: the import statements that load the module. */
static void report_blast__scan_imports(Report *r, const BlastTargets *targets, const ReportFile *files, size_t file,
                                       const BlastParsed *p, const PhaseGraph *g) {
  for (size_t b = 0; b < p->py->bindings.len; b++) {
    const PyBinding *bd = &p->py->bindings.items[b];
    if (bd->module_end <= bd->module_start) continue;
    char *mod = xstrndup(p->text + bd->module_start, bd->module_end - bd->module_start);
    size_t to = phases_resolve(g, file, mod);
    /* `from pkg import module` names the module after the package */
    size_t to2 = (size_t)-1;
    if (bd->from_import) to2 = phases_resolve(g, file, bd->qualname);
    free(mod);
    for (size_t t = 0; t < targets->len; t++) {
      const BlastTarget *bt = &targets->items[t];
      if (*bt->match) continue;
      if (bt->file != file && (to == bt->file || to2 == bt->file))
        report_blast__add_site(r, bt, files, file, p, bd->def_byte, g);
    }
  }
}

/* Marks in `chosen` (one byte per file) the Python files analyzed for a
 * blocker group: the first BLAST_MAX_FILES files of its sites. Returns how
 * many of its sites lie in files left out. */
static size_t report_blast__choose(const Report *r, const ReportGroup *gr, const ReportFile *files, uint8_t *chosen) {
  size_t nfiles = 0, more = 0;
  for (size_t k = 0; k < gr->items.len; k++) {
    size_t f = r->items.items[gr->items.items[k]].file;
    if (files[f].kind != FILE_PYTHON) continue;
    if (chosen[f]) continue;
    if (nfiles == BLAST_MAX_FILES) {
      more++;
      continue;
    }
    chosen[f] = 1;
    nfiles++;
  }
  return more;
}

void report_blast_build(Report *r, const ReportFile *files, size_t n, const PhaseGraph *g, ReportReadFn read,
                        void *data) {
  BlastTargets targets = {0};
  uint8_t *wrap_file = xcalloc(n ? n : 1, 1);
  /* per blocker, the files to analyze */
  uint8_t **chosen = xcalloc(r->blockers.len ? r->blockers.len : 1, sizeof *chosen);
  size_t *left_out = xcalloc(r->blockers.len ? r->blockers.len : 1, sizeof *left_out);
  uint8_t *any_chosen = xcalloc(n ? n : 1, 1);
  for (size_t b = 0; b < r->blockers.len; b++) {
    chosen[b] = xcalloc(n ? n : 1, 1);
    left_out[b] = report_blast__choose(r, &r->groups.items[r->blockers.items[b]], files, chosen[b]);
    for (size_t f = 0; f < n; f++) any_chosen[f] |= chosen[b][f];
  }
  /* 1. wrappers: parse each chosen blocker file once */
  for (size_t f = 0; f < n; f++) {
    if (!any_chosen[f]) continue;
    BlastParsed p;
    if (!report_blast__parse(&p, read, data, f)) continue;
    for (size_t b = 0; b < r->blockers.len; b++) {
      size_t gi = r->blockers.items[b];
      const ReportGroup *gr = &r->groups.items[gi];
      size_t bi = (size_t)-1;
      for (size_t x = 0; x < r->blast.len; x++)
        if (r->blast.items[x].group == gi) bi = x;
      if (!chosen[b][f]) continue;
      for (size_t k = 0; k < gr->items.len; k++) {
        const ReportItem *it = &r->items.items[gr->items.items[k]];
        if (it->file != f) continue;
        const PyFunction *fn = report_blast__outer(p.py, it->f->start_byte);
        char *symbol = fn ? report_blast__fn_name(fn) : NULL;
        const char *match = fn ? (fn->class_name ? fn->class_name : fn->name) : "";
        if (bi == (size_t)-1) {
          ReportBlast nb = {gi, {0}, left_out[b]};
          array_push(&r->blast, nb);
          bi = r->blast.len - 1;
        }
        ReportBlast *bl = &r->blast.items[bi];
        bool dup = false;
        for (size_t w = 0; w < bl->wrappers.len && !dup; w++) {
          const ReportWrapper *ow = &bl->wrappers.items[w];
          dup = strcmp(ow->path, it->path) == 0 &&
                ((!symbol && !ow->symbol) || (symbol && ow->symbol && strcmp(symbol, ow->symbol) == 0));
        }
        if (dup) {
          free(symbol);
          continue;
        }
        ReportWrapper w = {0};
        w.symbol = symbol;
        w.path = xstrdup(it->path);
        w.line = fn ? fn->start_row + 1 : it->line;
        array_push(&bl->wrappers, w);
        BlastTarget t = {bi, bl->wrappers.len - 1, f, xstrdup(match)};
        array_push(&targets, t);
        wrap_file[f] = 1;
      }
    }
    report_blast__unparse(&p);
  }
  /* 2. callers: the wrapper files and the files importing them */
  for (size_t f = 0; f < n && targets.len; f++) {
    if (files[f].kind != FILE_PYTHON) continue;
    bool relevant = wrap_file[f] != 0;
    for (size_t e = g->edge_start[f]; e < g->edge_start[f + 1] && !relevant; e++) relevant = wrap_file[g->edge_to[e]] != 0;
    if (!relevant) continue;
    BlastParsed p;
    if (!report_blast__parse(&p, read, data, f)) continue;
    report_blast__scan(r, &targets, files, f, &p, g);
    report_blast__scan_imports(r, &targets, files, f, &p, g);
    report_blast__unparse(&p);
  }
  for (size_t t = 0; t < targets.len; t++) free(targets.items[t].match);
  array_free(&targets);
  free(wrap_file);
  for (size_t b = 0; b < r->blockers.len; b++) free(chosen[b]);
  free(chosen);
  free(left_out);
  free(any_chosen);
  /* blast entries in blocker order */
  for (size_t a = 1; a < r->blast.len; a++) {
    ReportBlast v = r->blast.items[a];
    size_t b = a;
    while (b > 0 && r->blast.items[b - 1].group > v.group) {
      r->blast.items[b] = r->blast.items[b - 1];
      b--;
    }
    r->blast.items[b] = v;
  }
}
