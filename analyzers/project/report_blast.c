/* report_blast: for each blocker, the project definitions that wrap it and
 * the code that reaches them, read from the project model's findings: no
 * file is read or parsed again, and a cached outcome gives the same section.
 *
 * A call-site finding of the model (the "report-chain-codes" row) carries
 * its chain as related locations (model.h): the definitions on the way, from
 * the one the call names to the one holding the construct, then the
 * construct; the calls in the wrapper's own file, which are not reported,
 * are kept in the file's facts (FileFacts.chains) the same way. A
 * blocker's wrappers are the definitions of every chain ending at one of
 * its sites; a wrapper's callers are the call sites whose chain
 * starts with it and the definitions just before it in a chain. An import of
 * a package (module level) is reached through what its file does with the
 * package: the chains ending at that package's constructs in the file.
 * Chains in code that never runs reach nothing and are left out. */
#include "analyzers/project/report_priv.h"
#include "analyzers/kb/kb.h"

#include <stdlib.h>

#define BLAST_MAX_CALLERS 10

typedef struct {
  const Finding *f;   /* the call site's finding, its chain in f->related */
  size_t file;        /* the call site's file */
  size_t end_file;    /* the construct's file, or SIZE_MAX when not an input */
  const Finding *end; /* the construct's finding there, or NULL */
} BlastChain;

typedef Array(BlastChain) BlastChains;

typedef struct {
  const char *path; /* borrowed from the input files */
  size_t file;
} BlastPath;

typedef struct {
  BlastPath *items; /* sorted by path */
  size_t n;
} BlastPaths;

static int blast__path_cmp(const void *a, const void *b) {
  return strcmp(((const BlastPath *)a)->path, ((const BlastPath *)b)->path);
}

static void blast__paths_init(BlastPaths *p, const ReportFile *files, size_t n) {
  p->n = n;
  p->items = xmalloc((n ? n : 1) * sizeof *p->items);
  for (size_t i = 0; i < n; i++) p->items[i] = (BlastPath){files[i].path, i};
  if (n > 1) qsort(p->items, n, sizeof *p->items, blast__path_cmp);
}

static size_t blast__path_find(const BlastPaths *p, const char *path) {
  BlastPath key = {path, 0};
  const BlastPath *hit = p->n ? bsearch(&key, p->items, p->n, sizeof key, blast__path_cmp) : NULL;
  return hit ? hit->file : SIZE_MAX;
}

/* The finding of file `file` that starts where related location `r` does. */
static const Finding *blast__finding_at(const ReportFile *file, const Related *r) {
  for (size_t i = 0; i < file->findings->len; i++)
    if (file->findings->items[i].start_byte == r->start) return &file->findings->items[i];
  return NULL;
}

static void blast__chains_of(BlastChains *out, const ReportFile *files, size_t file, const FindingList *l,
                             const BlastPaths *paths, const char *codes) {
  for (size_t k = 0; l && k < l->len; k++) {
    const Finding *f = &l->items[k];
    if (f->unreachable || f->related.len < 2 || !kb_pattern_match(codes, f->rule->code)) continue;
    const Related *c = &f->related.items[f->related.len - 1];
    BlastChain ch = {f, file, c->path ? blast__path_find(paths, c->path) : file, NULL};
    if (ch.end_file != SIZE_MAX) ch.end = blast__finding_at(&files[ch.end_file], c);
    array_push(out, ch);
  }
}

/* Every chain of the model in code that runs: the call sites reported in
 * other files and those in the wrappers' own files (FileFacts.chains). */
static void blast__chains(BlastChains *out, const ReportFile *files, size_t n, const BlastPaths *paths) {
  const char *codes = kb_template("report-chain-codes");
  for (size_t i = 0; i < n; i++) {
    blast__chains_of(out, files, i, files[i].findings, paths, codes);
    if (files[i].facts) blast__chains_of(out, files, i, &files[i].facts->chains, paths, codes);
  }
}

/* Whether two subjects name the same package: their first dotted parts
 * are equal, '-' read as '_' ("flash-attn" and "flash_attn.ops"). */
static bool blast__same_package(const char *a, const char *b) {
  if (!a || !b || !*a || *a == '.') return false;
  for (;; a++, b++) {
    bool ea = !*a || *a == '.', eb = !*b || *b == '.';
    if (ea || eb) return ea && eb;
    if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b)) return false;
  }
}

/* Whether chain ch ends at blocker item it: at its line, or (an import)
 * at a construct of the same package in its file. */
static bool blast__reaches(const BlastChain *ch, const ReportItem *it) {
  if (ch->end_file != it->file) return false;
  const Related *c = &ch->f->related.items[ch->f->related.len - 1];
  if (c->start_row == it->f->start_row) return true;
  if (!it->f->entry || it->f->entry->match != KB_IMPORT || !ch->end) return false;
  return blast__same_package(it->f->subject, ch->end->subject);
}

/* The label a chain step's message starts with, "()" dropped ("Block.forward"). */
static char *blast__label(const char *message, const char **rest) {
  const char *sp = strchr(message, ' ');
  size_t n = sp ? (size_t)(sp - message) : strlen(message);
  *rest = sp ? sp + 1 : message + n;
  if (n >= 2 && message[n - 2] == '(' && message[n - 1] == ')') n -= 2;
  return xstrndup(message, n);
}

/* Whether step k of a chain calls step k+1 (a long chain's related
 * locations skip the middle hops; a class uses its methods, it does not
 * call them: the class is a wrapper of its own). */
static bool blast__calls_next(const Finding *f, size_t k) {
  const char *rest, *next_rest;
  char *self = blast__label(f->related.items[k].message, &rest);
  char *next = blast__label(f->related.items[k + 1].message, &next_rest);
  free(self);
  const char *callee = util_starts_with(rest, "calls ") ? rest + 6 : NULL;
  size_t n = strlen(next);
  bool ok = callee && strncmp(callee, next, n) == 0 && (callee[n] == '\0' || callee[n] == '(');
  free(next);
  return ok;
}

static const char *blast__path_of(const BlastChain *ch, const Related *r, const ReportFile *files) {
  return r->path ? r->path : files[ch->file].path;
}

/* A blocker's entry while it is built: its wrappers' distances from the
 * construct (the holder is 0), for their order. */
typedef struct {
  ReportBlast bl;
  Array(size_t) depth; /* one per wrapper */
} BlastBuild;

static ReportWrapper *blast__wrapper(BlastBuild *b, const char *path, uint32_t line, const char *message,
                                     size_t depth) {
  for (size_t w = 0; w < b->bl.wrappers.len; w++) {
    ReportWrapper *o = &b->bl.wrappers.items[w];
    if (o->line != line || strcmp(o->path, path) != 0) continue;
    if (depth < b->depth.items[w]) b->depth.items[w] = depth;
    return o;
  }
  const char *rest;
  ReportWrapper nw = {0};
  nw.symbol = blast__label(message, &rest);
  nw.path = xstrdup(path);
  nw.line = line;
  array_push(&b->bl.wrappers, nw);
  array_push(&b->depth, depth);
  return &b->bl.wrappers.items[b->bl.wrappers.len - 1];
}

/* Adds a caller to w unless it has that site, or (a definition calling
 * w, `inner`) a call site of that definition already. */
static void blast__add_site(ReportWrapper *w, const char *path, uint32_t line, char *function, uint64_t phases,
                            bool inner) {
  for (size_t i = 0; i < w->callers.len; i++) {
    const ReportSite *o = &w->callers.items[i];
    bool same = o->line == line && strcmp(o->path, path) == 0;
    if (inner && !same) same = o->function && function && strcmp(o->function, function) == 0 && strcmp(o->path, path) == 0;
    if (same) {
      free(function);
      return;
    }
  }
  ReportSite s = {xstrdup(path), line, function, phases};
  array_push(&w->callers, s);
}

/* Adds chain ch's definitions to bl as wrappers, and its call site as a
 * caller of the first (`inner` false) or the definitions calling each
 * other along it as callers of the later ones (`inner` true: after every
 * call site, so that a definition whose call is a site of its own is not
 * listed twice). */
static void blast__add_chain(BlastBuild *bl, const BlastChain *ch, const ReportFile *files, const BlastPaths *paths,
                             const PhaseGraph *g, bool inner) {
  const Finding *f = ch->f;
  size_t steps = f->related.len - 1;
  for (size_t k = 0; k < steps; k++) {
    const Related *r = &f->related.items[k];
    ReportWrapper *w = blast__wrapper(bl, blast__path_of(ch, r, files), r->start_row + 1, r->message, steps - 1 - k);
    if (k == 0 && !inner) {
      blast__add_site(w, files[ch->file].path, f->start_row + 1, f->scope ? xstrdup(f->scope) : NULL,
                      phases_of_file(g, ch->file), false);
    } else if (k > 0 && inner && blast__calls_next(f, k - 1)) {
      const Related *p = &f->related.items[k - 1];
      const char *pp = blast__path_of(ch, p, files), *rest;
      size_t pf = blast__path_find(paths, pp);
      blast__add_site(w, pp, p->start_row + 1, blast__label(p->message, &rest),
                      pf == SIZE_MAX ? 0 : phases_of_file(g, pf), true);
    }
  }
}

static int blast__site_cmp(const ReportSite *a, const ReportSite *b) {
  int c = strcmp(a->path, b->path);
  return c ? c : (a->line > b->line) - (a->line < b->line);
}

static int blast__wrapper_cmp(const ReportWrapper *a, size_t da, const ReportWrapper *b, size_t db) {
  if (da != db) return da < db ? -1 : 1;
  int c = strcmp(a->path, b->path);
  return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Innermost wrappers first (the one to port), callers by place, at most
 * BLAST_MAX_CALLERS each (the rest counted in `more`). */
static void blast__order(BlastBuild *bb) {
  ReportBlast *bl = &bb->bl;
  size_t *depth = bb->depth.items;
  for (size_t a = 1; a < bl->wrappers.len; a++) {
    ReportWrapper v = bl->wrappers.items[a];
    size_t dv = depth[a], b = a;
    for (; b > 0 && blast__wrapper_cmp(&bl->wrappers.items[b - 1], depth[b - 1], &v, dv) > 0; b--) {
      bl->wrappers.items[b] = bl->wrappers.items[b - 1];
      depth[b] = depth[b - 1];
    }
    bl->wrappers.items[b] = v;
    depth[b] = dv;
  }
  /* a definition only its class reaches is listed through the class */
  size_t keep = 0;
  for (size_t w = 0; w < bl->wrappers.len; w++) {
    ReportWrapper *wr = &bl->wrappers.items[w];
    if (wr->callers.len || depth[w] == 0) {
      bl->wrappers.items[keep++] = *wr;
      continue;
    }
    free(wr->symbol);
    free(wr->path);
    array_free(&wr->callers);
  }
  bl->wrappers.len = keep;
  for (size_t w = 0; w < bl->wrappers.len; w++) {
    ReportWrapper *wr = &bl->wrappers.items[w];
    for (size_t a = 1; a < wr->callers.len; a++) {
      ReportSite v = wr->callers.items[a];
      size_t b = a;
      for (; b > 0 && blast__site_cmp(&wr->callers.items[b - 1], &v) > 0; b--) wr->callers.items[b] = wr->callers.items[b - 1];
      wr->callers.items[b] = v;
    }
    while (wr->callers.len > BLAST_MAX_CALLERS) {
      ReportSite *s = &wr->callers.items[--wr->callers.len];
      free(s->path);
      free(s->function);
      wr->more++;
    }
  }
}

void report_blast_build(Report *r, const ReportFile *files, size_t n, const PhaseGraph *g) {
  BlastPaths paths;
  blast__paths_init(&paths, files, n);
  BlastChains chains = {0};
  blast__chains(&chains, files, n, &paths);
  for (size_t b = 0; b < r->blockers.len && chains.len; b++) {
    size_t gi = r->blockers.items[b];
    const ReportGroup *gr = &r->groups.items[gi];
    BlastBuild bb = {{gi, {0}}, {0}};
    for (int inner = 0; inner < 2; inner++)
      for (size_t k = 0; k < gr->items.len; k++) {
        const ReportItem *it = &r->items.items[gr->items.items[k]];
        for (size_t c = 0; c < chains.len; c++)
          if (blast__reaches(&chains.items[c], it)) blast__add_chain(&bb, &chains.items[c], files, &paths, g, inner);
      }
    if (bb.bl.wrappers.len) {
      blast__order(&bb);
      array_push(&r->blast, bb.bl);
    }
    array_free(&bb.depth);
  }
  /* entries in matrix order, like the renderers' other sections */
  for (size_t a = 1; a < r->blast.len; a++) {
    ReportBlast v = r->blast.items[a];
    size_t b = a;
    for (; b > 0 && r->blast.items[b - 1].group > v.group; b--) r->blast.items[b] = r->blast.items[b - 1];
    r->blast.items[b] = v;
  }
  array_free(&chains);
  free(paths.items);
}
