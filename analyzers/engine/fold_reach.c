/* fold_reach: dead C/C++ code across a project (see fold_reach.h).
 *
 * One cursor walk per C/C++ file records the candidate definitions (free
 * and out-of-line functions, kernels: name and byte range), the names each
 * mentions, the names mentioned outside them, and the regions the file's
 * own #defines compile out; a lexical scan adds the names Python code
 * mentions. A worklist then makes alive every definition of a name that
 * live code mentions. What stays dead, and what is compiled out, loses
 * its live findings to unreachable hints. */
#include "analyzers/engine/fold_reach.h"
#include "analyzers/engine/analyze.h"
#include "analyzers/engine/names.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define REACH_MAX_READ ((size_t)16 << 20)

/* ---- what the walks record ---- */

typedef struct {
  size_t file;
  uint32_t start, end;
  int32_t name;
  bool live;
} ReachDef;

typedef struct {
  int32_t name;
  int32_t owner; /* the innermost candidate definition, -1 outside every one */
} ReachMention;

typedef struct {
  size_t file;
  uint32_t start, end;
  char *why; /* owned: "`#if 0`" */
} ReachRegion;

typedef struct {
  const char *bindings; /* the binding macros (a kb pattern), or NULL */
  bool extension;       /* some C/C++ file defines a binding */
  Names names;
  Array(ReachDef) defs;
  Array(ReachMention) mentions;
  Array(ReachRegion) regions;
} Reach;

static void reach__mention(Reach *r, const char *s, size_t n, int32_t owner) {
  ReachMention m = {(int32_t)names_intern(&r->names, s, n), owner};
  array_push(&r->mentions, m);
}

static bool reach__word(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The words of t[0, n) (a macro body, a Python file without its comments). */
static void reach__words(Reach *r, const char *t, size_t n, int32_t owner) {
  for (size_t i = 0; i < n;) {
    if (!(isalpha((unsigned char)t[i]) || t[i] == '_') || (i && reach__word(t[i - 1]))) {
      i++;
      continue;
    }
    size_t e = i;
    while (e < n && reach__word(t[e])) e++;
    reach__mention(r, t + i, e - i, owner);
    i = e;
  }
}

/* ---- Python: every word outside comments ---- */

static void reach__python(Reach *r, const char *t, size_t n) {
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (c == '#') { /* a comment: to the end of the line */
      reach__words(r, t + run, i - run, -1);
      while (i < n && t[i] != '\n') i++;
      run = i;
    } else if (c == '"' || c == '\'') { /* strings are mentions: skip over them whole */
      bool triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
      size_t j = i + (triple ? 3 : 1);
      while (j < n) {
        if (t[j] == '\\') j += 2;
        else if (triple ? (j + 2 < n && t[j] == c && t[j + 1] == c && t[j + 2] == c) : (t[j] == c || t[j] == '\n')) break;
        else j++;
      }
      i = j < n ? j + (triple ? 2 : 0) : n;
    }
  }
  if (run < n) reach__words(r, t + run, n - run, -1);
}

/* ---- C/C++ ---- */

typedef struct {
  const char *name;
  long value;
  bool known;
} ReachDefine;

typedef Array(ReachDefine) ReachDefines;

/* `#define NAME <integer>` lines; a name defined twice or undefined is unknown. */
static void reach__defines(const char *t, size_t n, ReachDefines *out) {
  for (size_t i = 0; i < n;) {
    size_t e = i;
    while (e < n && t[e] != '\n') e++;
    size_t p = i;
    while (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
    bool undef = e - p > 6 && strncmp(t + p, "#undef", 6) == 0;
    if (p < e && t[p] == '#' && (undef || (e - p > 8 && strncmp(t + p, "#define", 7) == 0))) {
      p += undef ? 6 : 7;
      while (p < e && (t[p] == ' ' || t[p] == '\t')) p++;
      size_t ns = p;
      while (p < e && reach__word(t[p])) p++;
      char *name = xstrndup(t + ns, p - ns);
      char *end = NULL;
      long v = strtol(t + p, &end, 0);
      while (end && end < t + e && (*end == ' ' || *end == '\t' || *end == '\r')) end++;
      bool num = !undef && p < e && (t[p] == ' ' || t[p] == '\t') && end && end == t + e && end > t + p;
      bool seen = false;
      for (size_t k = 0; k < out->len && !seen; k++)
        if (strcmp(out->items[k].name, name) == 0) {
          seen = true;
          out->items[k].known = false;
        }
      if (!seen && *name) {
        ReachDefine d = {name, v, num};
        array_push(out, d);
      } else {
        free(name);
      }
    }
    i = e + 1;
  }
}

static void reach__defines_free(ReachDefines *d) {
  for (size_t i = 0; i < d->len; i++) free((char *)d->items[i].name);
  array_free(d);
}

static bool reach__is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

/* The value of a preprocessor condition: 0 false, 1 true, -1 unknown. */
static int reach__cond(TSNode c, const char *t, const ReachDefines *defs) {
  bool neg = false;
  for (int depth = 0; depth < 8; depth++) {
    if (reach__is(c, "parenthesized_expression")) c = ts_node_named_child(c, 0);
    else if (reach__is(c, "unary_expression") && t[ts_node_start_byte(c)] == '!') {
      neg = !neg;
      c = ts_node_child_by_field_name(c, "argument", 8);
    } else break;
  }
  if (ts_node_is_null(c)) return -1;
  uint32_t s = ts_node_start_byte(c), e = ts_node_end_byte(c);
  long v;
  if (reach__is(c, "number_literal")) {
    v = strtol(t + s, NULL, 0);
  } else if (reach__is(c, "identifier")) {
    const ReachDefine *d = NULL;
    for (size_t k = 0; k < defs->len && !d; k++)
      if (strlen(defs->items[k].name) == e - s && strncmp(defs->items[k].name, t + s, e - s) == 0) d = &defs->items[k];
    if (!d || !d->known) return -1;
    v = d->value;
  } else {
    return -1;
  }
  return (v != 0) != neg;
}

/* `#if COND` / `#elif COND` with a false condition: its body is compiled
 * out (the region is made here, before the body is visited). */
static void reach__preproc_if(Reach *r, size_t file, TSNode n, const char *t, const ReachDefines *defs) {
  TSNode cond = ts_node_child_by_field_name(n, "condition", 9);
  if (reach__cond(cond, t, defs) != 0) return;
  TSNode alt = ts_node_child_by_field_name(n, "alternative", 11);
  uint32_t cs = ts_node_start_byte(cond), ce = ts_node_end_byte(cond);
  ReachRegion g = {file, ce, ts_node_is_null(alt) ? ts_node_end_byte(n) : ts_node_start_byte(alt),
                   xasprintf("`#%s %.*s`", reach__is(n, "preproc_elif") ? "elif" : "if", (int)(ce - cs), t + cs)};
  array_push(&r->regions, g);
}

/* `#else` / `#elif` of a true condition: all of it is compiled out (the
 * region is made when the alternative is reached, after the live body). */
static void reach__preproc_alt(Reach *r, size_t file, TSNode n, const char *t, const ReachDefines *defs) {
  TSNode p = ts_node_parent(n);
  if (!reach__is(p, "preproc_if") && !reach__is(p, "preproc_elif")) return;
  TSNode alt = ts_node_child_by_field_name(p, "alternative", 11);
  if (ts_node_is_null(alt) || ts_node_start_byte(alt) != ts_node_start_byte(n)) return;
  TSNode cond = ts_node_child_by_field_name(p, "condition", 9);
  if (reach__cond(cond, t, defs) != 1) return;
  uint32_t cs = ts_node_start_byte(cond), ce = ts_node_end_byte(cond);
  ReachRegion g = {file, ts_node_start_byte(n), ts_node_end_byte(n),
                   xasprintf("the `#else` of `#%s %.*s`", reach__is(p, "preproc_elif") ? "elif" : "if", (int)(ce - cs),
                             t + cs)};
  array_push(&r->regions, g);
}

/* The regions of one file are disjoint and made in document order (a
 * region's #if is visited before what it holds, and nothing inside a dead
 * region is visited): only the newest can hold the node at hand. */
static bool reach__in_region(const Reach *r, size_t file, size_t from, uint32_t s, uint32_t e) {
  if (r->regions.len <= from) return false;
  const ReachRegion *g = &r->regions.items[r->regions.len - 1];
  return g->file == file && g->start <= s && e <= g->end;
}

/* The name node of a function definition's declarator, or a null node. */
static TSNode reach__def_name(TSNode def) {
  TSNode d = ts_node_child_by_field_name(def, "declarator", 10);
  for (int depth = 0; depth < 8 && !ts_node_is_null(d) && !reach__is(d, "function_declarator"); depth++)
    d = ts_node_child_by_field_name(d, "declarator", 10);
  if (ts_node_is_null(d)) return d;
  TSNode name = ts_node_child_by_field_name(d, "declarator", 10);
  for (int depth = 0; depth < 4 && reach__is(name, "qualified_identifier"); depth++)
    name = ts_node_child_by_field_name(name, "name", 4);
  if (reach__is(name, "template_function")) name = ts_node_child_by_field_name(name, "name", 4);
  return name;
}

/* Whether a definition is a candidate for being dead: not inside a class
 * body, named by a plain identifier that is not main or a macro's (a
 * binding macro's makes the sources an extension). */
static bool reach__candidate(Reach *r, TSNode def, TSNode name, const char *t) {
  TSNode p = ts_node_parent(def);
  if (reach__is(p, "template_declaration")) p = ts_node_parent(p);
  if (reach__is(p, "field_declaration_list")) return false;
  if (!reach__is(name, "identifier")) return false; /* operators, destructors, fields */
  uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
  if (e - s == 4 && strncmp(t + s, "main", 4) == 0) return false;
  bool caps = true;
  for (uint32_t i = s; i < e && caps; i++) caps = isupper((unsigned char)t[i]) || isdigit((unsigned char)t[i]) || t[i] == '_';
  if (caps && r->bindings && !r->extension) {
    char *w = xstrndup(t + s, e - s);
    r->extension = kb_pattern_match(r->bindings, w);
    free(w);
  }
  return !caps;
}

/* Whether an identifier is the name a function declarator declares (a
 * prototype's or a definition's own name): no mention. */
static bool reach__declared_name(TSNode id) {
  TSNode p = ts_node_parent(id);
  if (reach__is(p, "qualified_identifier") || reach__is(p, "template_function")) {
    id = p;
    p = ts_node_parent(p);
  }
  if (!reach__is(p, "function_declarator")) return false;
  TSNode d = ts_node_child_by_field_name(p, "declarator", 10);
  return ts_node_start_byte(d) == ts_node_start_byte(id) && ts_node_end_byte(d) == ts_node_end_byte(id);
}

typedef struct {
  uint32_t end;
  int32_t def;
} ReachOpen;

static void reach__cxx(Reach *r, size_t file, const char *t, size_t len, TSParser *parser) {
  TSTree *tree = analyze_parse(parser, NULL, t, len);
  if (!tree) return;
  ReachDefines defs = {0};
  reach__defines(t, len, &defs);
  size_t first_region = r->regions.len;
  Array(ReachOpen) open = {0};
  TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    while (open.len && s >= open.items[open.len - 1].end) open.len--;
    int32_t owner = open.len ? open.items[open.len - 1].def : -1;
    const char *type = ts_node_type(n);
    bool skip = strcmp(type, "comment") == 0 || reach__in_region(r, file, first_region, s, e);
    if (skip) { /* nothing in it counts */
    } else if (strcmp(type, "function_definition") == 0) {
      TSNode name = reach__def_name(n);
      if (!ts_node_is_null(name) && reach__candidate(r, n, name, t)) {
        ReachDef d = {file, s, e,
                      (int32_t)names_intern(&r->names, t + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name)),
                      false};
        array_push(&r->defs, d);
        ReachOpen o = {e, (int32_t)r->defs.len - 1};
        array_push(&open, o);
      }
    } else if (strcmp(type, "preproc_if") == 0 || strcmp(type, "preproc_elif") == 0) {
      reach__preproc_alt(r, file, n, t, &defs); /* an #elif is the alternative of the one before */
      skip = reach__in_region(r, file, first_region, s, e);
      if (!skip) reach__preproc_if(r, file, n, t, &defs);
    } else if (strcmp(type, "preproc_else") == 0) {
      reach__preproc_alt(r, file, n, t, &defs);
      skip = reach__in_region(r, file, first_region, s, e);
    } else if (strcmp(type, "identifier") == 0 || strcmp(type, "field_identifier") == 0 ||
               strcmp(type, "type_identifier") == 0) {
      if (!reach__declared_name(n)) reach__mention(r, t + s, e - s, owner);
    } else if (strcmp(type, "preproc_arg") == 0 || strcmp(type, "string_literal") == 0 ||
               strcmp(type, "raw_string_literal") == 0) {
      reach__words(r, t + s, e - s, owner);
      skip = true;
    }
    if (!skip && ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
  }
  ts_tree_cursor_delete(&cur);
  array_free(&open);
  reach__defines_free(&defs);
  ts_tree_delete(tree);
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

static void reach__solve(Reach *r) {
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
  for (size_t m = 0; m < r->mentions.len; m++) {
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
      if (d->live) continue;
      d->live = true;
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

void fold_reach_cxx(FoldFile *files, size_t n, const AnalyzeOptions *opt, FoldTextFn cxx_text, void *data) {
  const KbEntry *dead = kb_lookup(KB_DETECTOR, "cxx-unreferenced", opt->user_entries, opt->n_user_entries);
  const KbEntry *out = kb_lookup(KB_DETECTOR, "cxx-compiled-out", opt->user_entries, opt->n_user_entries);
  bool any = false;
  for (size_t i = 0; i < n && !any; i++) any = files[i].kind == FILE_CUDA && !files[i].test && reach__has_live(&files[i]);
  if (!any || (!dead && !out)) return;
  Reach r = {0};
  r.bindings = dead ? dead->arg : NULL;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, analyze_language(FILE_CUDA));
  for (size_t i = 0; i < n; i++) {
    size_t len = 0;
    if (files[i].kind == FILE_CUDA) {
      const char *t = cxx_text(data, i, &len);
      if (t) reach__cxx(&r, i, t, len, parser);
      continue;
    }
    char *t = NULL; /* Python is read once, here: nothing else in the folds needs it */
    if (files[i].kind != FILE_PYTHON || util_read_file(files[i].abs, REACH_MAX_READ, &t, &len) != 0) continue;
    reach__python(&r, t, len);
    free(t);
  }
  ts_parser_delete(parser);
  reach__solve(&r);
  reach__mark(&r, files, dead, out);
  reach__prune_related(&r, files, n);
  names_free(&r.names);
  for (size_t i = 0; i < r.regions.len; i++) free(r.regions.items[i].why);
  array_free(&r.regions);
  array_free(&r.defs);
  array_free(&r.mentions);
}
