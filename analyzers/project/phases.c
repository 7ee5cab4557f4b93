/* phases: see phases.h. */
#include "analyzers/project/phases.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#define PHASES_NONE ((size_t)-1)

/* ---------------------------------------------------------------------------
 * Phases - Private: paths
 * ------------------------------------------------------------------------- */

/* Merge sort of file indices by path: qsort would need a global for its
 * comparator to reach the paths, and the module keeps no mutable globals. */
static void phases__sort_paths(const PhaseFile *files, size_t *idx, size_t n) {
  size_t *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = strcmp(files[idx[i]].path, files[idx[j]].path) <= 0 ? idx[i++] : idx[j++];
      while (i < mid) tmp[k++] = idx[i++];
      while (j < hi) tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, n * sizeof *idx);
  }
  free(tmp);
}

size_t phases_find(const PhaseGraph *g, const char *path) {
  size_t lo = 0, hi = g->n_files;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(g->files[g->by_path[mid]].path, path);
    if (c == 0) return g->by_path[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return PHASES_NONE;
}

/* Directory part of a path ("a/b.py" -> "a", "b.py" -> ""). Caller frees. */
static char *phases__dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
}

static const char *phases__basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Joins and normalizes "a/b" + "../c/./d" -> "a/c/d". Returns NULL when the
 * path climbs above the project root. Caller frees. */
static char *phases__join(const char *dir, const char *rel) {
  StrList parts = {0};
  StrBuf sb;
  sb_init(&sb);
  const char *srcs[2] = {dir, rel};
  bool bad = false;
  for (int s = 0; s < 2 && !bad; s++) {
    const char *p = srcs[s];
    if (!p) continue;
    while (*p) {
      size_t n = strcspn(p, "/");
      if (n == 0 || (n == 1 && p[0] == '.')) {
        /* skip empty and "." segments */
      } else if (n == 2 && p[0] == '.' && p[1] == '.') {
        if (parts.len == 0) bad = true;
        else free(parts.items[--parts.len]);
      } else {
        array_push(&parts, xstrndup(p, n));
      }
      p += n;
      if (*p == '/') p++;
    }
  }
  for (size_t i = 0; i < parts.len; i++) {
    if (i) sb_putc(&sb, '/');
    sb_puts(&sb, parts.items[i]);
  }
  strlist_free(&parts);
  if (bad) {
    sb_free(&sb);
    return NULL;
  }
  return sb_steal(&sb);
}

static bool phases__is_python(const PhaseFile *f) {
  return f->kind == FILE_PYTHON && util_ends_with(f->path, ".py");
}

/* File of module path `mod` ("a/b/c", '/'-separated) under directory dir:
 * dir/a/b/c.py, then dir/a/b/c/__init__.py. */
static size_t phases__module_file(const PhaseGraph *g, const char *dir, const char *mod) {
  char *p = *dir ? xasprintf("%s/%s.py", dir, mod) : xasprintf("%s.py", mod);
  size_t f = phases_find(g, p);
  free(p);
  if (f != PHASES_NONE) return f;
  p = *dir ? xasprintf("%s/%s/__init__.py", dir, mod) : xasprintf("%s/__init__.py", mod);
  f = phases_find(g, p);
  free(p);
  return f;
}

/* Whether any project file lies under dir. */
static bool phases__dir_exists(const PhaseGraph *g, const char *dir) {
  if (!*dir) return true;
  size_t n = strlen(dir);
  for (size_t i = 0; i < g->n_files; i++)
    if (strncmp(g->files[i].path, dir, n) == 0 && g->files[i].path[n] == '/') return true;
  return false;
}

static bool phases__dir_is_package(const PhaseGraph *g, const char *dir) {
  if (!*dir) return false;
  char *p = xasprintf("%s/__init__.py", dir);
  bool r = phases_find(g, p) != PHASES_NONE;
  free(p);
  return r;
}

/* ---------------------------------------------------------------------------
 * Phases - Private: import resolution
 * ------------------------------------------------------------------------- */

typedef Array(size_t) IdxList;

static void phases__push_unique(IdxList *l, size_t v) {
  for (size_t i = 0; i < l->len; i++)
    if (l->items[i] == v) return;
  array_push(l, v);
}

/* Longest prefix of the dotted module (as "a/b/c") that is a file under dir;
 * appends it and its parent packages' __init__.py files to out. Returns the
 * number of components matched (0 = none). */
static size_t phases__resolve_under(const PhaseGraph *g, const char *dir, const char *slashed, IdxList *out) {
  size_t ncomp = 1;
  for (const char *c = slashed; *c; c++)
    if (*c == '/') ncomp++;
  size_t matched = 0, file = PHASES_NONE;
  for (size_t k = ncomp; k >= 1; k--) {
    /* the first k components */
    size_t seen = 0, i = 0;
    for (; slashed[i]; i++)
      if (slashed[i] == '/' && ++seen == k) break;
    char *pre = xstrndup(slashed, i);
    file = phases__module_file(g, dir, pre);
    free(pre);
    if (file != PHASES_NONE) {
      matched = k;
      break;
    }
  }
  if (matched) {
    phases__push_unique(out, file);
    /* parent packages run their __init__ first */
    for (size_t k = 1; k < matched; k++) {
      size_t seen = 0, i = 0;
      for (; slashed[i]; i++)
        if (slashed[i] == '/' && ++seen == k) break;
      char *pre = xstrndup(slashed, i);
      char *p = *dir ? xasprintf("%s/%s/__init__.py", dir, pre) : xasprintf("%s/__init__.py", pre);
      size_t f = phases_find(g, p);
      if (f != PHASES_NONE) phases__push_unique(out, f);
      free(p);
      free(pre);
    }
  }
  return matched;
}

static char *phases__slashed(const char *dotted) {
  char *s = xstrdup(dotted);
  for (char *c = s; *c; c++)
    if (*c == '.') *c = '/';
  return s;
}

/* Every file an import statement makes Python execute (the module and its
 * parent packages), appended to out. */
static void phases__resolve_all(const PhaseGraph *g, size_t from, const char *module, IdxList *out) {
  if (!module || !*module) return;
  if (module[0] == '.') {
    size_t dots = strspn(module, ".");
    char *dir = phases__dirname(g->files[from].path);
    for (size_t i = 1; i < dots && dir; i++) {
      if (!*dir) {
        free(dir);
        dir = NULL;
        break;
      }
      char *up = phases__dirname(dir);
      free(dir);
      dir = up;
    }
    if (!dir) return;
    const char *rest = module + dots;
    if (!*rest) {
      char *p = *dir ? xasprintf("%s/__init__.py", dir) : xstrdup("__init__.py");
      size_t f = phases_find(g, p);
      if (f != PHASES_NONE) phases__push_unique(out, f);
      free(p);
    } else {
      char *sl = phases__slashed(rest);
      phases__resolve_under(g, dir, sl, out);
      free(sl);
    }
    free(dir);
    return;
  }
  char *sl = phases__slashed(module);
  /* candidate roots: the file's own directory when it is not inside a
   * package (Python puts a script's directory first on sys.path), then the
   * project's import roots; the longest match wins, ties in root order */
  char *own = phases__dirname(g->files[from].path);
  bool use_own = !phases__dir_is_package(g, own);
  size_t best = 0;
  IdxList best_files = {0};
  for (size_t r = 0; r < g->roots.len + 1; r++) {
    const char *root = r == 0 ? own : g->roots.items[r - 1];
    if (r == 0 && !use_own) continue;
    if (r > 0 && use_own && strcmp(root, own) == 0) continue;
    IdxList got = {0};
    size_t m = phases__resolve_under(g, root, sl, &got);
    if (m > best) {
      best = m;
      array_free(&best_files);
      best_files = got;
    } else {
      array_free(&got);
    }
  }
  for (size_t i = 0; i < best_files.len; i++) phases__push_unique(out, best_files.items[i]);
  array_free(&best_files);
  free(own);
  free(sl);
}

size_t phases_resolve(const PhaseGraph *g, size_t from, const char *module) {
  IdxList l = {0};
  phases__resolve_all(g, from, module, &l);
  size_t r = l.len ? l.items[0] : PHASES_NONE;
  array_free(&l);
  return r;
}

static void phases__add_root(StrList *roots, const char *r) {
  for (size_t i = 0; i < roots->len; i++)
    if (strcmp(roots->items[i], r) == 0) return;
  array_push(roots, xstrdup(r));
}

/* Import roots: "", "src" when present, and the directory above every
 * top-level package (a directory with __init__.py whose parent has none). */
static void phases__find_roots(PhaseGraph *g) {
  phases__add_root(&g->roots, "");
  for (size_t i = 0; i < g->n_files; i++)
    if (util_starts_with(g->files[i].path, "src/")) {
      phases__add_root(&g->roots, "src");
      break;
    }
  for (size_t i = 0; i < g->n_files; i++) {
    const char *p = g->files[i].path;
    if (strcmp(phases__basename(p), "__init__.py") != 0) continue;
    char *pkg = phases__dirname(p);
    char *parent = phases__dirname(pkg);
    if (*pkg && !phases__dir_is_package(g, parent)) phases__add_root(&g->roots, parent);
    free(parent);
    free(pkg);
  }
}

/* ---------------------------------------------------------------------------
 * Phases - Private: native links (Python code that builds or loads C/CUDA)
 * ------------------------------------------------------------------------- */

static bool phases__is_native_source(const PhaseFile *f) {
  return f->kind == FILE_CUDA;
}

/* Python module an ELF extension provides: "pkg/_C.cpython-310-x86_64-linux-gnu.so" -> "pkg/_C". */
static char *phases__elf_module(const char *path) {
  const char *base = phases__basename(path);
  size_t n = strcspn(base, ".");
  char *dir = phases__dirname(path);
  char *r = *dir ? xasprintf("%s/%.*s", dir, (int)n, base) : xstrndup(base, n);
  free(dir);
  return r;
}

/* Strings in Python text that name a native source file: every maximal run
 * of path characters ending in a C/CUDA extension. Calls fn for each. */
static void phases__scan_native_mentions(const char *text, size_t len, void (*fn)(void *, const char *, size_t),
                                         void *data) {
  static const char *const exts[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp"};
  size_t i = 0;
  while (i < len) {
    unsigned char c = (unsigned char)text[i];
    if (!(isalnum(c) || c == '_' || c == '/' || c == '.' || c == '-')) {
      i++;
      continue;
    }
    size_t start = i;
    while (i < len) {
      unsigned char d = (unsigned char)text[i];
      if (!(isalnum(d) || d == '_' || d == '/' || d == '.' || d == '-')) break;
      i++;
    }
    size_t n = i - start;
    for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
      size_t el = strlen(exts[e]);
      if (n > el && memcmp(text + start + n - el, exts[e], el) == 0) {
        fn(data, text + start, n);
        break;
      }
    }
  }
}

typedef struct {
  PhaseGraph *g;
  IdxList *out;
} MentionCtx;

/* A mention links to every native file whose path ends with it (sources
 * are usually written relative to the script: "csrc/fused.cu"). */
static void phases__mention(void *data, const char *s, size_t n) {
  MentionCtx *m = data;
  char *want = xstrndup(s, n);
  char *norm = phases__join(NULL, want);
  free(want);
  if (!norm || !*norm) {
    free(norm);
    return;
  }
  size_t nl = strlen(norm);
  for (size_t i = 0; i < m->g->n_files; i++) {
    const PhaseFile *f = &m->g->files[i];
    if (!phases__is_native_source(f)) continue;
    size_t pl = strlen(f->path);
    if (pl < nl || strcmp(f->path + pl - nl, norm) != 0) continue;
    if (pl > nl && f->path[pl - nl - 1] != '/') continue;
    phases__push_unique(m->out, i);
  }
  free(norm);
}

/* ---------------------------------------------------------------------------
 * Phases - Private: edges
 * ------------------------------------------------------------------------- */

typedef struct {
  size_t from, to;
} Edge;
typedef Array(Edge) EdgeList;

static void phases__edges_of_file(PhaseGraph *g, size_t i, EdgeList *edges) {
  const PhaseFile *f = &g->files[i];
  if (!phases__is_python(f) || !f->facts) return;
  IdxList to = {0};
  for (size_t k = 0; k < f->facts->imports.len; k++) phases__resolve_all(g, i, f->facts->imports.items[k], &to);
  for (size_t k = 0; k < to.len; k++)
    if (to.items[k] != i) array_push(edges, ((Edge){i, to.items[k]}));
  array_free(&to);
}

/* Whether import `im` written in file `from` names the module at `modpath`
 * ("pkg/_C", relative to the project root) or something inside it. Every
 * spelling is turned into candidate paths: relative imports from the
 * file's directory, absolute ones under each import root. */
static bool phases__import_names(const PhaseGraph *g, size_t from, const char *im, const char *modpath) {
  size_t ml = strlen(modpath);
  bool hit = false;
  if (im[0] == '.') {
    size_t dots = strspn(im, ".");
    char *dir = phases__dirname(g->files[from].path);
    for (size_t d = 1; d < dots && dir; d++) {
      char *up = *dir ? phases__dirname(dir) : NULL;
      free(dir);
      dir = up;
    }
    if (!dir) return false;
    char *sl = phases__slashed(im + dots);
    char *full = phases__join(dir, sl);
    hit = full && strncmp(full, modpath, ml) == 0 && (full[ml] == '\0' || full[ml] == '/');
    free(full);
    free(sl);
    free(dir);
    return hit;
  }
  char *sl = phases__slashed(im);
  for (size_t r = 0; r < g->roots.len && !hit; r++) {
    char *full = phases__join(g->roots.items[r], sl);
    hit = full && strncmp(full, modpath, ml) == 0 && (full[ml] == '\0' || full[ml] == '/');
    free(full);
  }
  free(sl);
  return hit;
}

/* Edges from every Python file importing the module at modpath to `to`. */
static void phases__importer_edges(PhaseGraph *g, const char *modpath, const size_t *to, size_t n_to,
                                   EdgeList *edges) {
  for (size_t i = 0; i < g->n_files; i++) {
    const PhaseFile *f = &g->files[i];
    if (!phases__is_python(f) || !f->facts) continue;
    for (size_t k = 0; k < f->facts->imports.len; k++) {
      if (!phases__import_names(g, i, f->facts->imports.items[k], modpath)) continue;
      for (size_t t = 0; t < n_to; t++) array_push(edges, ((Edge){i, to[t]}));
      break;
    }
  }
}

/* Python -> ELF extension: "pkg/_C.cpython-310-x86_64-linux-gnu.so" is the
 * module pkg._C of its directory. */
static void phases__elf_edges(PhaseGraph *g, EdgeList *edges) {
  for (size_t e = 0; e < g->n_files; e++) {
    if (g->files[e].kind != FILE_ELF) continue;
    char *mod = phases__elf_module(g->files[e].path);
    phases__importer_edges(g, mod, &e, 1, edges);
    free(mod);
  }
}

/* setup.py `CUDAExtension("pkg._C", sources=[...])` (the constructors of
 * the "extension-constructors" template): the extension module name links
 * its sources to every Python file importing that module. */
static void phases__extension_edges(PhaseGraph *g, const char *text, EdgeList *edges) {
  const char *c;
  size_t cn;
  for (const char *ctors = kb_template("extension-constructors"); util_alt_next(&ctors, &c, &cn);) {
    char ctor[64];
    if (cn + 2 > sizeof ctor) continue;
    memcpy(ctor, c, cn);
    ctor[cn] = '(';
    ctor[cn + 1] = '\0';
    const char *p = text;
    while ((p = strstr(p, ctor))) {
      if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
        p++;
        continue;
      }
      p += cn + 1;
      /* the call's extent: up to the matching ')' */
      int depth = 1;
      const char *end = p;
      while (*end && depth > 0) {
        if (*end == '(' || *end == '[' || *end == '{') depth++;
        else if (*end == ')' || *end == ']' || *end == '}') depth--;
        end++;
      }
      /* first string literal: the module name */
      const char *q = p;
      while (q < end && *q != '"' && *q != '\'') q++;
      if (q >= end) continue;
      char quote = *q;
      const char *qe = memchr(q + 1, quote, (size_t)(end - q - 1));
      if (!qe) continue;
      char *modname = xstrndup(q + 1, (size_t)(qe - q - 1));
      IdxList srcs = {0};
      char *body = xstrndup(qe + 1, (size_t)(end - qe - 1));
      MentionCtx m = {g, &srcs};
      phases__scan_native_mentions(body, strlen(body), phases__mention, &m);
      free(body);
      if (srcs.len) {
        char *sl = phases__slashed(modname);
        /* the dotted name is relative to an import root */
        for (size_t r = 0; r < g->roots.len; r++) {
          char *full = phases__join(g->roots.items[r], sl);
          if (full) phases__importer_edges(g, full, srcs.items, srcs.len, edges);
          free(full);
        }
        free(sl);
      }
      array_free(&srcs);
      free(modname);
    }
  }
}

/* `#include "x.h"` in a native file: an edge to the project file it names,
 * looked up from the including file's directory, then from each directory
 * above it (include paths are usually the source root). Angle-bracket
 * includes are system or library headers. */
static void phases__include_edges(PhaseGraph *g, size_t from, const char *text, size_t len, EdgeList *edges) {
  const char *p = text, *end = text + len;
  char *dir = phases__dirname(g->files[from].path);
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *q = p;
    while (q < le && (*q == ' ' || *q == '\t')) q++;
    if (q < le && *q == '#') {
      q++;
      while (q < le && (*q == ' ' || *q == '\t')) q++;
      if ((size_t)(le - q) > 8 && strncmp(q, "include", 7) == 0) {
        q += 7;
        while (q < le && (*q == ' ' || *q == '\t')) q++;
        const char *close = q < le && *q == '"' ? memchr(q + 1, '"', (size_t)(le - q - 1)) : NULL;
        if (close) {
          char *rel = xstrndup(q + 1, (size_t)(close - q - 1));
          char *base = xstrdup(dir);
          for (int up = 0; up < 16; up++) {
            char *path = phases__join(base, rel);
            size_t f = path ? phases_find(g, path) : PHASES_NONE;
            free(path);
            if (f != PHASES_NONE && f != from) {
              array_push(edges, ((Edge){from, f}));
              break;
            }
            if (!*base) break;
            char *parent = phases__dirname(base);
            free(base);
            base = parent;
          }
          free(base);
          free(rel);
        }
      }
    }
    p = le + 1;
  }
  free(dir);
}

static int phases__edge_cmp(const void *a, const void *b) {
  const Edge *x = a, *y = b;
  if (x->from != y->from) return x->from < y->from ? -1 : 1;
  return x->to < y->to ? -1 : x->to > y->to;
}

static void phases__build_edges(PhaseGraph *g, PhaseReadFn read, void *data) {
  EdgeList edges = {0};
  bool any_native = false;
  for (size_t i = 0; i < g->n_files; i++) {
    phases__edges_of_file(g, i, &edges);
    if (phases__is_native_source(&g->files[i])) any_native = true;
  }
  phases__elf_edges(g, &edges);
  if (any_native && read) {
    for (size_t i = 0; i < g->n_files; i++) {
      const PhaseFile *f = &g->files[i];
      if (phases__is_native_source(f)) {
        size_t len = 0;
        char *text = read(data, i, &len);
        if (text) phases__include_edges(g, i, text, len, &edges);
        free(text);
        continue;
      }
      if (!phases__is_python(f)) continue;
      size_t len = 0;
      char *text = read(data, i, &len);
      if (!text) continue;
      IdxList to = {0};
      MentionCtx m = {g, &to};
      phases__scan_native_mentions(text, len, phases__mention, &m);
      for (size_t k = 0; k < to.len; k++) array_push(&edges, ((Edge){i, to.items[k]}));
      array_free(&to);
      if (strcmp(phases__basename(f->path), "setup.py") == 0) phases__extension_edges(g, text, &edges);
      free(text);
    }
  }
  if (edges.len > 1) qsort(edges.items, edges.len, sizeof *edges.items, phases__edge_cmp);
  g->edge_start = xcalloc(g->n_files + 1, sizeof *g->edge_start);
  g->edge_to = xmalloc((edges.len ? edges.len : 1) * sizeof *g->edge_to);
  size_t w = 0;
  for (size_t i = 0; i < edges.len; i++) {
    if (i > 0 && edges.items[i].from == edges.items[i - 1].from && edges.items[i].to == edges.items[i - 1].to)
      continue;
    g->edge_to[w++] = edges.items[i].to;
    g->edge_start[edges.items[i].from + 1]++;
  }
  for (size_t i = 0; i < g->n_files; i++) g->edge_start[i + 1] += g->edge_start[i];
  array_free(&edges);
}

/* ---------------------------------------------------------------------------
 * Phases - Private: naming
 * ------------------------------------------------------------------------- */

/* Word stems per phase kind (the "phase-words-*" templates); a word of the
 * name that starts with a stem classifies it ("trainer", "sampling",
 * "tests"). Training is checked first so that "pretrain_eval" stays a
 * training entry. */
static const struct {
  PhaseKind kind;
  const char *template;
} phases__stems[] = {
    {PHASE_TRAINING, "phase-words-training"},
    {PHASE_INFERENCE, "phase-words-inference"},
    {PHASE_EVALUATION, "phase-words-evaluation"},
};

static bool phases__word_has_stem(const char *w, size_t n, const char *stems) {
  const char *s = stems;
  while (*s) {
    size_t sl = strcspn(s, "|");
    if (n >= sl && strncasecmp(w, s, sl) == 0) return true;
    s += sl;
    if (*s == '|') s++;
  }
  return false;
}

PhaseKind phases_classify(const char *name) {
  if (!name) return PHASE_CUSTOM;
  for (size_t k = 0; k < sizeof phases__stems / sizeof phases__stems[0]; k++) {
    const char *stems = kb_template(phases__stems[k].template), *p = name;
    while (stems && *p) {
      while (*p && !isalpha((unsigned char)*p)) p++;
      size_t n = 0;
      while (isalpha((unsigned char)p[n])) n++;
      if (n && phases__word_has_stem(p, n, stems)) return phases__stems[k].kind;
      p += n;
    }
    /* "fine_tune" / "fine-tune" */
    if (phases__stems[k].kind == PHASE_TRAINING && strcasestr(name, "fine") && strcasestr(name, "tun"))
      return PHASE_TRAINING;
  }
  return PHASE_CUSTOM;
}

const char *phases_kind_name(PhaseKind k, bool zh) {
  switch (k) {
  case PHASE_TRAINING: return zh ? "训练" : "Training";
  case PHASE_INFERENCE: return zh ? "推理" : "Inference";
  case PHASE_EVALUATION: return zh ? "评估" : "Evaluation";
  case PHASE_API: return zh ? "公共 API" : "Public API";
  case PHASE_CUSTOM: break;
  }
  return NULL;
}

/* The entry's own name: the file name without extension; for __main__.py
 * and __init__.py the package directory's name. Caller frees. */
static char *phases__entry_name(const char *path) {
  const char *base = phases__basename(path);
  if (strcmp(base, "__main__.py") == 0 || strcmp(base, "__init__.py") == 0) {
    char *dir = phases__dirname(path);
    char *r = xstrdup(*dir ? phases__basename(dir) : base);
    free(dir);
    return r;
  }
  const char *dot = strrchr(base, '.');
  return dot ? xstrndup(base, (size_t)(dot - base)) : xstrdup(base);
}

/* ---------------------------------------------------------------------------
 * Phases - Private: entries
 * ------------------------------------------------------------------------- */

typedef struct {
  EntryKind kind;
  char *label, *launcher;
  char *name_hint, *name_hint2; /* words that name the phase, in priority order */
  char *name_fallback;          /* the entry's own name when no word does */
  size_t source, target;
  StrList implied;
  IdxList starts;
} RawEntry;
typedef Array(RawEntry) RawEntries;

static void phases__raw_free(RawEntry *e) {
  free(e->label);
  free(e->launcher);
  free(e->name_hint);
  free(e->name_hint2);
  free(e->name_fallback);
  strlist_free(&e->implied);
  array_free(&e->starts);
}

/* A Python entry target: the file and, for a package run with -m, its
 * __main__.py. */
static void phases__add_module_target(const PhaseGraph *g, size_t from, const char *module, IdxList *starts,
                                      size_t *target) {
  IdxList got = {0};
  phases__resolve_all(g, from, module, &got);
  if (got.len) {
    size_t f = got.items[0];
    /* `python -m pkg` runs pkg/__main__.py */
    if (strcmp(phases__basename(g->files[f].path), "__init__.py") == 0) {
      char *dir = phases__dirname(g->files[f].path);
      char *p = xasprintf("%s/__main__.py", dir);
      size_t m = phases_find(g, p);
      if (m != PHASES_NONE) {
        phases__push_unique(starts, m);
        if (*target == PHASES_NONE) *target = m;
      }
      free(p);
      free(dir);
    }
    if (*target == PHASES_NONE) *target = f;
    for (size_t i = 0; i < got.len; i++) phases__push_unique(starts, got.items[i]);
  }
  array_free(&got);
}

/* Console script "mod.sub:func" (extras "[x]" ignored). */
static void phases__console_entry(PhaseGraph *g, RawEntries *out, size_t source, const char *name,
                                  const char *value) {
  char *v = xstrdup(value);
  char *br = strchr(v, '[');
  if (br) *br = '\0';
  char *colon = strchr(v, ':');
  char *mod = xstrndup(v, colon ? (size_t)(colon - v) : strlen(v));
  /* trim */
  char *m = mod;
  while (isspace((unsigned char)*m)) m++;
  size_t ml = strlen(m);
  while (ml && isspace((unsigned char)m[ml - 1])) m[--ml] = '\0';
  RawEntry e = {0};
  e.kind = ENTRY_CONSOLE;
  e.source = source;
  e.target = PHASES_NONE;
  char *tv = xstrdup(value);
  for (char *t = tv; *t; t++)
    if (*t == '\n' || *t == '\r') *t = ' ';
  e.label = xasprintf("%s = %s", name, tv);
  free(tv);
  e.launcher = xstrdup("console script");
  e.name_hint = xstrdup(name);
  e.name_hint2 = xstrdup(m);
  e.name_fallback = xstrdup(name);
  phases__add_module_target(g, source, m, &e.starts, &e.target);
  if (e.starts.len) {
    array_push(out, e);
  } else {
    array_push(&g->notes, xasprintf("%s: console script %s: module %s is not part of the project",
                                    g->files[source].path, name, m));
    phases__raw_free(&e);
  }
  free(mod);
  free(v);
}

/* Lines `name = "module:func"` inside the TOML tables that declare scripts. */
static void phases__pyproject_scripts(PhaseGraph *g, size_t source, const char *text, RawEntries *out) {
  bool in_scripts = false;
  const char *p = text;
  while (*p) {
    size_t n = strcspn(p, "\n");
    char *line = xstrndup(p, n);
    p += n;
    if (*p) p++;
    char *l = line;
    while (isspace((unsigned char)*l)) l++;
    if (*l == '[') {
      in_scripts = strncmp(l, "[project.scripts]", 17) == 0 || strncmp(l, "[project.gui-scripts]", 21) == 0 ||
                   strncmp(l, "[tool.poetry.scripts]", 21) == 0 ||
                   strncmp(l, "[project.entry-points.console_scripts]", 38) == 0 ||
                   strncmp(l, "[project.entry-points.\"console_scripts\"]", 40) == 0;
    } else if (in_scripts && *l && *l != '#') {
      char *eq = strchr(l, '=');
      if (eq) {
        char *k = xstrndup(l, (size_t)(eq - l));
        size_t kl = strlen(k);
        while (kl && isspace((unsigned char)k[kl - 1])) k[--kl] = '\0';
        char *key = k;
        if (*key == '"' || *key == '\'') {
          key++;
          kl = strlen(key);
          if (kl) key[kl - 1] = '\0';
        }
        const char *v = eq + 1;
        while (isspace((unsigned char)*v)) v++;
        if (*v == '"' || *v == '\'') {
          char q = *v++;
          const char *ve = strchr(v, q);
          if (ve) {
            char *val = xstrndup(v, (size_t)(ve - v));
            phases__console_entry(g, out, source, key, val);
            free(val);
          }
        }
        free(k);
      }
    }
    free(line);
  }
}

/* `name = module:func` specs anywhere in setup.py string literals, or on the
 * lines of setup.cfg's [options.entry_points] section. */
static bool phases__parse_spec(const char *s, size_t n, char **name, char **value) {
  const char *end = s + n;
  while (s < end && isspace((unsigned char)*s)) s++;
  const char *ns = s;
  while (s < end && (isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.')) s++;
  if (s == ns) return false;
  const char *ne = s;
  while (s < end && isspace((unsigned char)*s)) s++;
  if (s >= end || *s != '=') return false;
  s++;
  while (s < end && isspace((unsigned char)*s)) s++;
  const char *vs = s;
  bool colon = false;
  while (s < end && (isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == ':' || *s == '[' ||
                     *s == ']' || *s == ',' || *s == ' ')) {
    if (*s == ':') colon = true;
    s++;
  }
  const char *ve = s;
  while (ve > vs && isspace((unsigned char)ve[-1])) ve--;
  while (s < end && isspace((unsigned char)*s)) s++;
  if (s != end || !colon || ve == vs || !(isalpha((unsigned char)*vs) || *vs == '_')) return false;
  *name = xstrndup(ns, (size_t)(ne - ns));
  *value = xstrndup(vs, (size_t)(ve - vs));
  return true;
}

static void phases__setup_py_scripts(PhaseGraph *g, size_t source, const char *text, RawEntries *out) {
  if (!strstr(text, "console_scripts") && !strstr(text, "gui_scripts")) return;
  const char *p = text;
  while ((p = strpbrk(p, "\"'"))) {
    char q = *p++;
    const char *e = strchr(p, q);
    if (!e) break;
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl) {
      char *name, *value;
      if (phases__parse_spec(p, (size_t)(e - p), &name, &value)) {
        phases__console_entry(g, out, source, name, value);
        free(name);
        free(value);
      }
    }
    p = e + 1;
  }
}

static void phases__setup_cfg_scripts(PhaseGraph *g, size_t source, const char *text, RawEntries *out) {
  bool in_section = false, in_key = false;
  const char *p = text;
  while (*p) {
    size_t n = strcspn(p, "\n");
    const char *l = p;
    p += n;
    if (*p) p++;
    bool indented = n && (l[0] == ' ' || l[0] == '\t');
    const char *t = l;
    while (t < l + n && isspace((unsigned char)*t)) t++;
    if (t == l + n || *t == '#' || *t == ';') continue;
    if (!indented && *t == '[') {
      in_section = strncmp(t, "[options.entry_points]", 22) == 0;
      in_key = false;
      continue;
    }
    if (!in_section) continue;
    if (!indented) {
      in_key = strncmp(t, "console_scripts", 15) == 0 || strncmp(t, "gui_scripts", 11) == 0;
      continue;
    }
    if (!in_key) continue;
    char *name, *value;
    if (phases__parse_spec(t, (size_t)(l + n - t), &name, &value)) {
      phases__console_entry(g, out, source, name, value);
      free(name);
      free(value);
    }
  }
}

/* --- shell scripts -------------------------------------------------------- */

/* Shell words of one logical line: quotes removed, `;` `&&` `||` `|` `&`
 * as separate words, a comment ends the line. */
static void phases__shell_words(const char *s, size_t n, StrList *words) {
  size_t i = 0;
  while (i < n) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    if (i >= n) break;
    if (s[i] == '#') break;
    if (s[i] == ';' || s[i] == '&' || s[i] == '|') {
      size_t k = 1;
      if (i + 1 < n && (s[i + 1] == '&' || s[i + 1] == '|') && s[i] != ';') k = 2;
      array_push(words, xstrdup(";"));
      i += k;
      continue;
    }
    StrBuf w;
    sb_init(&w);
    while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != ';' && s[i] != '&' && s[i] != '|') {
      if (s[i] == '"' || s[i] == '\'') {
        char q = s[i++];
        while (i < n && s[i] != q) {
          if (q == '"' && s[i] == '\\' && i + 1 < n) i++;
          sb_putc(&w, s[i++]);
        }
        if (i < n) i++;
      } else if (s[i] == '\\' && i + 1 < n) {
        sb_putc(&w, s[i + 1]);
        i += 2;
      } else {
        sb_putc(&w, s[i++]);
      }
    }
    array_push(words, sb_steal(&w));
  }
}

static bool phases__is_assignment(const char *w) {
  if (!(isalpha((unsigned char)*w) || *w == '_')) return false;
  while (isalnum((unsigned char)*w) || *w == '_') w++;
  return *w == '=';
}

static bool phases__is_python_prog(const char *prog) {
  if (strcmp(prog, "python") == 0 || strcmp(prog, "python3") == 0 || strcmp(prog, "python2") == 0) return true;
  if (!util_starts_with(prog, "python3.")) return false;
  for (const char *c = prog + 8; *c; c++)
    if (!isdigit((unsigned char)*c)) return false;
  return true;
}

static bool phases__dotted_ident(const char *w) {
  if (!(isalpha((unsigned char)*w) || *w == '_')) return false;
  for (; *w; w++)
    if (!(isalnum((unsigned char)*w) || *w == '_' || *w == '.')) return false;
  return true;
}

/* Path to try for a script word: drops leading "$VAR/" and "${VAR}/" parts
 * (the project root, usually). Caller frees; NULL when nothing is left. */
static char *phases__strip_vars(const char *w) {
  while (*w == '$') {
    const char *slash = strchr(w, '/');
    if (!slash) return NULL;
    w = slash + 1;
  }
  if (strchr(w, '$') || *w == '/' || !*w) return NULL;
  return xstrdup(w);
}

/* What a launcher command runs: a script path or a module. */
typedef struct {
  const char *launcher; /* static */
  const char *implied;  /* static package name or NULL */
  char *script, *module;
} ShellRun;

/* Arguments after a distributed launcher (torchrun, accelerate launch,
 * deepspeed): its own options may take values we cannot tell apart from the
 * script, so the script is the first word ending in ".py", or with -m /
 * --module the first dotted name after it. */
static void phases__launcher_args(StrList *w, size_t i, size_t end, ShellRun *run) {
  bool module = false;
  for (size_t k = i; k < end; k++) {
    const char *a = w->items[k];
    if (strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0) module = true;
    if (a[0] != '-' && util_ends_with(a, ".py")) {
      run->script = xstrdup(a);
      return;
    }
  }
  if (module)
    for (size_t k = i; k < end; k++) {
      const char *a = w->items[k];
      if ((strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0) && k + 1 < end) {
        for (size_t j = k + 1; j < end; j++)
          if (w->items[j][0] != '-' && phases__dotted_ident(w->items[j]) &&
              (j == k + 1 || strchr(w->items[j], '.') || j + 1 == end)) {
            run->module = xstrdup(w->items[j]);
            return;
          }
      }
    }
}

/* Interprets one command (words [i, end)). Returns true when it launches
 * Python code. */
static bool phases__shell_command(StrList *w, size_t i, size_t end, ShellRun *run) {
  const char *prefixes = kb_template("launcher-prefixes");
  memset(run, 0, sizeof *run);
  for (;;) {
    while (i < end && phases__is_assignment(w->items[i])) i++;
    if (i >= end) return false;
    if (!prefixes || !kb_pattern_match(prefixes, w->items[i])) break;
    i++;
    while (i < end && w->items[i][0] == '-') i++; /* prefix options (env -u, srun -N) */
  }
  const char *prog = phases__basename(w->items[i]);
  i++;
  if (phases__is_python_prog(prog)) {
    run->launcher = "python";
    while (i < end) {
      const char *a = w->items[i];
      if (strcmp(a, "-m") == 0 && i + 1 < end) {
        const char *mod = w->items[i + 1];
        if (strcmp(mod, "torch.distributed.run") == 0 || strcmp(mod, "torch.distributed.launch") == 0) {
          run->launcher = "torchrun";
          phases__launcher_args(w, i + 2, end, run);
        } else if (strcmp(mod, "accelerate.commands.launch") == 0) {
          run->launcher = "accelerate launch";
          run->implied = "accelerate";
          phases__launcher_args(w, i + 2, end, run);
        } else if (strcmp(mod, "deepspeed.launcher.runner") == 0) {
          run->launcher = "deepspeed";
          run->implied = "deepspeed";
          phases__launcher_args(w, i + 2, end, run);
        } else {
          run->launcher = "python -m";
          run->module = xstrdup(mod);
        }
        break;
      }
      if (strcmp(a, "-c") == 0) return false;
      if ((strcmp(a, "-W") == 0 || strcmp(a, "-X") == 0) && i + 1 < end) {
        i += 2;
        continue;
      }
      if (a[0] == '-') {
        i++;
        continue;
      }
      run->script = xstrdup(a);
      break;
    }
  } else if (strcmp(prog, "torchrun") == 0) {
    run->launcher = "torchrun";
    phases__launcher_args(w, i, end, run);
  } else if (strcmp(prog, "accelerate") == 0 && i < end && strcmp(w->items[i], "launch") == 0) {
    run->launcher = "accelerate launch";
    run->implied = "accelerate";
    phases__launcher_args(w, i + 1, end, run);
  } else if (strcmp(prog, "deepspeed") == 0) {
    run->launcher = "deepspeed";
    run->implied = "deepspeed";
    phases__launcher_args(w, i, end, run);
  } else {
    return false;
  }
  return run->script || run->module;
}

static void phases__shell_entries(PhaseGraph *g, size_t source, const char *text, size_t len, RawEntries *out) {
  const char *path = g->files[source].path;
  char *sdir = phases__dirname(path);
  char *cwd = NULL; /* after a `cd DIR` the script runs relative to DIR */
  size_t pos = 0;
  uint32_t row = 0;
  while (pos < len) {
    /* one logical line: backslash-newline continues it */
    StrBuf line;
    sb_init(&line);
    uint32_t first_row = row + 1;
    for (;;) {
      size_t n = 0;
      while (pos + n < len && text[pos + n] != '\n') n++;
      size_t keep = n;
      if (keep && text[pos + keep - 1] == '\r') keep--;
      bool cont = keep && text[pos + keep - 1] == '\\';
      sb_append(&line, text + pos, cont ? keep - 1 : keep);
      pos += n + (pos + n < len);
      row++;
      if (!cont || pos >= len) break;
      sb_putc(&line, ' ');
    }
    StrList words = {0};
    phases__shell_words(line.data, line.len, &words);
    size_t start = 0;
    for (size_t k = 0; k <= words.len; k++) {
      if (k < words.len && strcmp(words.items[k], ";") != 0) continue;
      if (k > start) {
        if (strcmp(words.items[start], "cd") == 0) {
          free(cwd);
          cwd = NULL;
          if (k > start + 1) {
            char *d = phases__strip_vars(words.items[start + 1]);
            if (d) cwd = phases__join(strchr(words.items[start + 1], '$') ? "" : sdir, d);
            if (d && cwd && !phases__dir_exists(g, cwd)) {
              /* relative to the root if not relative to the script */
              char *alt = phases__join("", d);
              free(cwd);
              cwd = alt;
            }
            free(d);
          }
        } else {
          ShellRun run;
          if (phases__shell_command(&words, start, k, &run)) {
            RawEntry e = {0};
            e.kind = ENTRY_SHELL;
            e.source = source;
            e.target = PHASES_NONE;
            e.launcher = xstrdup(run.launcher);
            if (run.implied) array_push(&e.implied, xstrdup(run.implied));
            const char *what = run.script ? run.script : run.module;
            e.label = xasprintf("%s:%u: %s%s%s", path, first_row,
                                strcmp(run.launcher, "python -m") == 0 ? "python -m" : run.launcher, " ", what);
            e.name_hint = xstrdup(path);
            if (run.script) {
              char *rel = phases__strip_vars(run.script);
              const char *bases[3] = {cwd, "", sdir};
              for (size_t b = 0; b < 3 && rel && e.target == PHASES_NONE; b++) {
                if (!bases[b]) continue;
                char *p = phases__join(bases[b], rel);
                size_t f = p ? phases_find(g, p) : PHASES_NONE;
                if (f != PHASES_NONE && phases__is_python(&g->files[f])) e.target = f;
                free(p);
              }
              free(rel);
              if (e.target != PHASES_NONE) phases__push_unique(&e.starts, e.target);
            } else {
              phases__add_module_target(g, source, run.module, &e.starts, &e.target);
            }
            if (e.target != PHASES_NONE) {
              e.name_fallback = phases__entry_name(g->files[e.target].path);
              e.name_hint2 = xstrdup(g->files[e.target].path);
              phases__push_unique(&e.starts, source);
              array_push(out, e);
            } else {
              array_push(&g->notes, xasprintf("%s:%u: %s %s is not a file of the project", path, first_row,
                                              run.launcher, what));
              phases__raw_free(&e);
            }
            free(run.script);
            free(run.module);
          }
        }
      }
      start = k + 1;
    }
    strlist_free(&words);
    sb_free(&line);
  }
  free(cwd);
  free(sdir);
}

/* ---------------------------------------------------------------------------
 * Phases - Private: phases and reachability
 * ------------------------------------------------------------------------- */

/* Phase of an entry: the first of its name hints that names a kind (the
 * launcher's name before the target's: `sample.sh` running `main.py`
 * samples; a file's own name before its directories), otherwise the
 * entry's own name. */
static void phases__name_of(const RawEntry *e, PhaseKind *kind, char **name) {
  PhaseKind k = phases_classify(e->name_hint);
  if (k == PHASE_CUSTOM && e->name_hint2) k = phases_classify(e->name_hint2);
  *kind = k;
  *name = k == PHASE_CUSTOM ? xstrdup(e->name_fallback ? e->name_fallback : "entry")
                            : xstrdup(phases_kind_name(k, false));
}

static size_t phases__phase_index(PhaseGraph *g, const char *name, PhaseKind kind) {
  for (size_t p = 0; p < g->phases.len; p++)
    if (strcmp(g->phases.items[p].name, name) == 0) return p;
  if (g->phases.len == PHASES_MAX) return PHASES_MAX - 1;
  Phase ph = {0};
  ph.name = xstrdup(name);
  ph.kind = kind;
  array_push(&g->phases, ph);
  return g->phases.len - 1;
}

static void phases__reach(PhaseGraph *g, Phase *ph, const IdxList *starts) {
  ph->reach = xcalloc(g->n_files ? g->n_files : 1, 1);
  size_t *queue = xmalloc((g->n_files ? g->n_files : 1) * sizeof *queue);
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < starts->len; i++) {
    size_t s = starts->items[i];
    if (!ph->reach[s]) {
      ph->reach[s] = 1;
      queue[tail++] = s;
    }
  }
  while (head < tail) {
    size_t f = queue[head++];
    for (size_t e = g->edge_start[f]; e < g->edge_start[f + 1]; e++) {
      size_t t = g->edge_to[e];
      if (!ph->reach[t]) {
        ph->reach[t] = 1;
        queue[tail++] = t;
      }
    }
  }
  ph->n_reached = tail;
  free(queue);
}

/* Order of the report's columns: Public API, Training, Inference,
 * Evaluation, then the others by name. Sorts g->phases and remaps the entries' phase indices. */
static void phases__order(PhaseGraph *g, bool keep_given_order) {
  size_t n = g->phases.len;
  if (keep_given_order || n < 2) return;
  size_t *perm = xmalloc(n * sizeof *perm);
  for (size_t i = 0; i < n; i++) perm[i] = i;
  for (size_t i = 1; i < n; i++) { /* insertion sort: a handful of phases */
    size_t v = perm[i], j = i;
    while (j > 0) {
      const Phase *a = &g->phases.items[perm[j - 1]], *b = &g->phases.items[v];
      /* a library's public API comes first */
      int ka = a->kind == PHASE_API ? -1 : (int)a->kind, kb = b->kind == PHASE_API ? -1 : (int)b->kind;
      bool after = ka > kb || (ka == kb && strcmp(a->name, b->name) > 0);
      if (!after) break;
      perm[j] = perm[j - 1];
      j--;
    }
    perm[j] = v;
  }
  Phase *sorted = xmalloc(n * sizeof *sorted);
  size_t *where = xmalloc(n * sizeof *where);
  for (size_t i = 0; i < n; i++) {
    sorted[i] = g->phases.items[perm[i]];
    where[perm[i]] = i;
  }
  memcpy(g->phases.items, sorted, n * sizeof *sorted);
  for (size_t e = 0; e < g->entries.len; e++) g->entries.items[e].phase = where[g->entries.items[e].phase];
  free(sorted);
  free(where);
  free(perm);
}

/* Whether file i is a script without a `__main__` guard: module code that
 * calls something (`demo.launch()`), outside any package, that no project
 * file imports (a helper's `sys.path.append(...)` is no entry point) and
 * that is no test or benchmark code. */
static bool phases__bare_script(const PhaseGraph *g, size_t i, const uint8_t *imported) {
  const PhaseFile *f = &g->files[i];
  if (!f->facts || !f->facts->runs_code || f->facts->has_main_guard || imported[i] || context_is_test_path(f->path))
    return false;
  char *dir = phases__dirname(f->path);
  bool pkg = *dir && phases__dir_is_package(g, dir);
  free(dir);
  return !pkg;
}

static void phases__collect_entries(PhaseGraph *g, PhaseReadFn read, void *data, RawEntries *raw) {
  uint8_t *imported = xcalloc(g->n_files + 1, 1);
  for (size_t i = 0; g->edge_start && i < g->n_files; i++)
    for (size_t k = g->edge_start[i]; k < g->edge_start[i + 1]; k++)
      if (g->edge_to[k] != i) imported[g->edge_to[k]] = 1;
  for (size_t i = 0; i < g->n_files; i++) {
    const PhaseFile *f = &g->files[i];
    const char *base = phases__basename(f->path);
    if (phases__is_python(f) && strcmp(base, "setup.py") != 0 &&
        ((f->facts && f->facts->has_main_guard) || strcmp(base, "__main__.py") == 0 || phases__bare_script(g, i, imported))) {
      RawEntry e = {0};
      e.kind = ENTRY_MAIN;
      e.source = e.target = i;
      e.label = xstrdup(f->path);
      e.launcher = xstrdup("");
      /* the path without extension: the file's name first, then its dirs */
      e.name_fallback = phases__entry_name(f->path);
      e.name_hint = xstrdup(e.name_fallback);
      e.name_hint2 = xstrdup(f->path);
      array_push(&e.starts, i);
      array_push(raw, e);
    }
  }
  free(imported);
  if (!read) return;
  for (size_t i = 0; i < g->n_files; i++) {
    const PhaseFile *f = &g->files[i];
    const char *base = phases__basename(f->path);
    bool shell = f->kind == FILE_SHELL, pyproject = f->kind == FILE_PYPROJECT,
         setup_py = phases__is_python(f) && strcmp(base, "setup.py") == 0, setup_cfg = f->kind == FILE_SETUP_CFG;
    if (!shell && !pyproject && !setup_py && !setup_cfg) continue;
    size_t len = 0;
    char *text = read(data, i, &len);
    if (!text) continue;
    if (shell) phases__shell_entries(g, i, text, len, raw);
    else if (pyproject) phases__pyproject_scripts(g, i, text, raw);
    else if (setup_py) phases__setup_py_scripts(g, i, text, raw);
    else phases__setup_cfg_scripts(g, i, text, raw);
    free(text);
  }
}

/* NAME=GLOB overrides: every matching file starts the phase; a matching
 * shell script starts it with the Python files it runs. */
static void phases__override_entries(PhaseGraph *g, const char *const *ov, size_t n, PhaseReadFn read, void *data,
                                     RawEntries *raw) {
  for (size_t o = 0; o < n; o++) {
    const char *eq = strchr(ov[o], '=');
    if (!eq || eq == ov[o] || !eq[1]) {
      array_push(&g->notes, xasprintf("phase override '%s' is not NAME=GLOB", ov[o]));
      continue;
    }
    char *name = xstrndup(ov[o], (size_t)(eq - ov[o]));
    const char *glob = eq + 1;
    size_t matched = 0;
    for (size_t i = 0; i < g->n_files; i++) {
      const PhaseFile *f = &g->files[i];
      if (!util_glob(glob, f->path)) continue;
      matched++;
      RawEntry e = {0};
      e.kind = ENTRY_OVERRIDE;
      e.source = i;
      e.target = phases__is_python(f) ? i : PHASES_NONE;
      e.label = xasprintf("%s (%s=%s)", f->path, name, glob);
      e.launcher = xstrdup("");
      e.name_fallback = xstrdup(name);
      array_push(&e.starts, i);
      if (f->kind == FILE_SHELL && read) {
        size_t len = 0;
        char *text = read(data, i, &len);
        if (text) {
          RawEntries sub = {0};
          phases__shell_entries(g, i, text, len, &sub);
          for (size_t s = 0; s < sub.len; s++) {
            for (size_t k = 0; k < sub.items[s].starts.len; k++) phases__push_unique(&e.starts, sub.items[s].starts.items[k]);
            for (size_t k = 0; k < sub.items[s].implied.len; k++) array_push(&e.implied, xstrdup(sub.items[s].implied.items[k]));
            if (e.target == PHASES_NONE) e.target = sub.items[s].target;
            phases__raw_free(&sub.items[s]);
          }
          array_free(&sub);
          free(text);
        }
      }
      array_push(raw, e);
    }
    if (!matched) array_push(&g->notes, xasprintf("phase %s: '%s' matches no file", name, glob));
    free(name);
  }
}

/* ---------------------------------------------------------------------------
 * Phases - Private: tooling, task choices and folding
 * ------------------------------------------------------------------------- */

/* Word stems (start of a word of the entry's file name) and directories
 * that make an entry tooling, first match wins. */
static const struct {
  PhaseToolReason reason;
  const char *dirs;  /* '|'-separated directory names, or NULL */
  const char *words; /* '|'-separated word stems, or NULL */
} phases__tool_rules[] = {
    {TOOL_CI, ".github|.circleci|.gitlab|ci|.ci", "=ci"},
    {TOOL_RELEASE, NULL, "bump|release|=version|changelog|publish|=tag"},
    {TOOL_CODEGEN, NULL, "=gen|codegen|instantiat|=stub|=stubs"},
    {TOOL_DEV, "tools|dev|devtools", "repro|racecheck|debug|sass|lint|format|parse|search|sweep|autotune|profil"},
    {TOOL_DATA, NULL, "convert|conversion|merge|preprocess|prepare|inspect|download|export|upload|tokeniz"},
};

static const struct {
  const char *en, *zh;
} phases__tool_names[] = {
    [TOOL_CI] = {"CI", "CI 脚本"},
    [TOOL_RELEASE] = {"release", "发布"},
    [TOOL_CODEGEN] = {"code generation", "代码生成"},
    [TOOL_DEV] = {"developer tool", "开发工具"},
    [TOOL_DATA] = {"data preparation / checkpoint conversion", "数据准备 / 权重转换"},
    [TOOL_NO_MODEL] = {"imports no ML framework", "不导入任何机器学习框架"},
    [TOOL_SELFTEST] = {"a module's self-test", "模块自测"},
};

const char *phases_tool_reason(PhaseToolReason r, bool zh) {
  if ((unsigned)r > TOOL_SELFTEST) return "";
  return zh ? phases__tool_names[r].zh : phases__tool_names[r].en;
}

/* Modules whose import means the entry runs a model. */
static const char phases__framework_modules[] =
    "torch|tensorflow|jax|mindspore|paddle|transformers|diffusers|deepspeed|triton|cutlass|cupy|accelerate|"
    "lightning|pytorch_lightning|megatron|vllm|apex|flash_attn|xformers|onnxruntime|tensorrt";

/* Whether a '|'-list holds the n-byte word w (whole words, any case) or,
 * when `stem`, a prefix of it; a list item written "=word" is matched as a
 * whole word even then. */
static bool phases__in_list(const char *list, const char *w, size_t n, bool stem) {
  const char *s = list;
  while (*s) {
    size_t sl = strcspn(s, "|");
    bool whole = !stem || *s == '=';
    const char *item = *s == '=' ? s + 1 : s;
    size_t il = *s == '=' ? sl - 1 : sl;
    if ((whole ? n == il : n >= il) && strncasecmp(w, item, il) == 0) return true;
    s += sl;
    if (*s == '|') s++;
  }
  return false;
}

/* Whether a word of `name` (letters only) starts with a stem of `stems`. */
static bool phases__has_word(const char *name, const char *stems) {
  const char *p = name;
  while (*p) {
    while (*p && !isalpha((unsigned char)*p)) p++;
    size_t n = 0;
    while (isalpha((unsigned char)p[n])) n++;
    if (n && phases__in_list(stems, p, n, true)) return true;
    p += n;
  }
  return false;
}

/* Whether a directory of `path` (not its file name) is one of `dirs`. */
static bool phases__has_dir(const char *path, const char *dirs) {
  const char *p = path;
  for (;;) {
    size_t n = strcspn(p, "/");
    if (!p[n]) return false; /* the file name */
    if (phases__in_list(dirs, p, n, false)) return true;
    p += n + 1;
  }
}

static bool phases__reaches_framework(const PhaseGraph *g, const uint8_t *reach) {
  for (size_t i = 0; i < g->n_files; i++) {
    if (!reach[i]) continue;
    const PhaseFile *f = &g->files[i];
    if (phases__is_native_source(f)) return true;
    if (!f->facts) continue;
    for (size_t k = 0; k < f->facts->imports.len; k++) {
      const char *im = f->facts->imports.items[k];
      size_t n = strcspn(im, ".");
      if (n && phases__in_list(phases__framework_modules, im, n, false)) return true;
    }
  }
  return false;
}

/* -1 when the entry is a task, else its PhaseToolReason. Directories of the
 * launching script and of the target count, words of the target's name;
 * reaching no ML framework counts only when the project uses one. */
static int phases__tool_of(const PhaseGraph *g, const RawEntry *e, PhaseKind kind, const uint8_t *reach,
                           bool uses_framework) {
  const char *paths[2] = {e->source < g->n_files ? g->files[e->source].path : NULL,
                          e->target < g->n_files ? g->files[e->target].path : NULL};
  const char *name = e->name_fallback ? e->name_fallback : "";
  /* `generate_kernels.py` generates sources; `generate.py` runs a model */
  if (phases__has_word(name, "generat") && phases__has_word(name, "kernel|code|doc|source|config|file|instance"))
    return TOOL_CODEGEN;
  /* a tools/ script whose name says it trains, infers or evaluates is a task */
  bool named = kind != PHASE_CUSTOM;
  for (size_t k = 0; k < sizeof phases__tool_rules / sizeof phases__tool_rules[0]; k++) {
    bool dir_wins = phases__tool_rules[k].reason == TOOL_CI || !named;
    for (int p = 0; p < 2 && phases__tool_rules[k].dirs && dir_wins; p++)
      if (paths[p] && phases__has_dir(paths[p], phases__tool_rules[k].dirs)) return (int)phases__tool_rules[k].reason;
    if (phases__tool_rules[k].words && phases__has_word(name, phases__tool_rules[k].words))
      return (int)phases__tool_rules[k].reason;
  }
  if (uses_framework && e->kind != ENTRY_CONSOLE && !phases__reaches_framework(g, reach)) return TOOL_NO_MODEL;
  return -1;
}

/* ---- task choices ------------------------------------------------------- */

static const char *phases__memmem(const char *hay, size_t n, const char *needle, size_t m) {
  if (m == 0 || m > n) return NULL;
  for (size_t i = 0; i + m <= n; i++)
    if (hay[i] == needle[0] && memcmp(hay + i, needle, m) == 0) return hay + i;
  return NULL;
}

/* The string literal at *p ('...' or "..."); advances past it. Caller frees;
 * NULL when *p is not a quote. */
static char *phases__string_at(const char **p, const char *end) {
  char q = **p;
  if (q != '"' && q != '\'') return NULL;
  const char *s = *p + 1, *c = s;
  while (c < end && *c != q && *c != '\n') c += (*c == '\\' && c + 1 < end) ? 2 : 1;
  if (c >= end || *c != q) return NULL;
  *p = c + 1;
  return xstrndup(s, (size_t)(c - s));
}

/* End of the bracketed group opening at p (one past its closer), skipping
 * strings; `end` when unbalanced. */
static const char *phases__group_end(const char *p, const char *end) {
  int depth = 0;
  while (p < end) {
    if (*p == '"' || *p == '\'') {
      char *lit = phases__string_at(&p, end);
      if (lit) {
        free(lit);
        continue;
      }
      p++;
      continue;
    }
    if (*p == '(' || *p == '[' || *p == '{') depth++;
    else if (*p == ')' || *p == ']' || *p == '}') {
      if (--depth == 0) return p + 1;
    }
    p++;
  }
  return end;
}

/* String keys at the top level of a dict literal `NAME = {...}` in text. */
static void phases__dict_keys(const char *text, size_t len, const char *name, StrList *out) {
  const char *end = text + len, *p = text;
  size_t nl = strlen(name);
  while ((p = phases__memmem(p, (size_t)(end - p), name, nl)) != NULL) {
    bool word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
    const char *q = p + nl;
    p = q;
    if (!word_start) continue;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q >= end || *q != '=' || (q + 1 < end && q[1] == '=')) continue;
    q++;
    while (q < end && isspace((unsigned char)*q)) q++;
    if (q >= end || *q != '{') continue;
    const char *close = phases__group_end(q, end);
    int depth = 0;
    for (const char *c = q; c < close; c++) {
      if (*c == '{' || *c == '[' || *c == '(') depth++;
      else if (*c == '}' || *c == ']' || *c == ')') depth--;
      else if (depth == 1 && (*c == '"' || *c == '\'')) {
        const char *at = c;
        char *lit = phases__string_at(&at, close);
        if (!lit) continue;
        const char *after = at;
        while (after < close && isspace((unsigned char)*after)) after++;
        if (after < close && *after == ':') array_push(out, lit);
        else free(lit);
        c = at - 1;
      }
    }
    return;
  }
}

/* The `choices=` of the add_argument call around flag `at` in text[0, len)
 * into out: string literals of a list, or the keys of the dict a
 * `list(NAME.keys())` / `NAME.keys()` / `NAME` names (looked up in the
 * files the entry reaches). */
static void phases__choices_at(const PhaseGraph *g, const char *text, size_t len, const char *at, const uint8_t *reach,
                               PhaseReadFn read, void *data, StrList *out) {
  const char *end = text + len;
  /* the call around it: back to "add_argument(" on the same statement */
  const char *open = at;
  while (open > text && *open != '(') open--;
  const char *close = phases__group_end(open, end);
  const char *ch = phases__memmem(at, (size_t)(close - at), "choices", 7);
  if (!ch) return;
  ch += 7;
  while (ch < close && (isspace((unsigned char)*ch) || *ch == '=')) ch++;
  if (ch < close && (*ch == '[' || *ch == '(')) {
    const char *ge = phases__group_end(ch, close);
    for (const char *c = ch; c < ge; c++) {
      const char *s = c;
      char *lit = phases__string_at(&s, ge);
      if (lit) {
        array_push(out, lit);
        c = s - 1;
      }
    }
    return;
  }
  /* list(NAME.keys()) / NAME.keys() / NAME */
  if (strncmp(ch, "list(", 5) == 0 || strncmp(ch, "sorted(", 7) == 0) ch = strchr(ch, '(') + 1;
  size_t n = 0;
  while (ch + n < close && (isalnum((unsigned char)ch[n]) || ch[n] == '_')) n++;
  if (!n || !read) return;
  char *name = xstrndup(ch, n);
  for (size_t i = 0; i < g->n_files && out->len == 0; i++) {
    if (!reach[i] || !phases__is_python(&g->files[i])) continue;
    size_t tl = 0;
    char *t = read(data, i, &tl);
    if (!t) continue;
    phases__dict_keys(t, tl, name, out);
    free(t);
  }
  free(name);
}

/* The task choices of an entry's text: the `choices=` of the first flag of
 * the "task-choice-flags" template ("--task", in either quotes) that has
 * any. */
static void phases__task_choices(const PhaseGraph *g, const char *text, size_t len, const uint8_t *reach,
                                 PhaseReadFn read, void *data, StrList *out) {
  const char *flag;
  size_t fn;
  for (const char *alts = kb_template("task-choice-flags"); out->len == 0 && util_alt_next(&alts, &flag, &fn);)
    for (int q = 0; q < 2 && out->len == 0 && fn + 3 <= 64; q++) {
      char needle[64];
      snprintf(needle, sizeof needle, "%c%.*s%c", q ? '\'' : '"', (int)fn, flag, q ? '\'' : '"');
      const char *at = phases__memmem(text, len, needle, strlen(needle));
      if (at) phases__choices_at(g, text, len, at, reach, read, data, out);
    }
}

/* ---- folding ------------------------------------------------------------ */

typedef struct {
  RawEntry *r;
  uint8_t *reach;
  int tool;           /* -1: a task */
  PhaseKind kind;
  char *name;
  size_t owner;       /* FOLD_SELFTEST: the candidate whose phase it joins */
  PhaseFold fold;
  size_t phase;
  bool in_package;    /* a __main__ in a module of a package (not __main__.py) */
} PhaseCand;

/* Whether the entry is a module's own `__main__` inside a package. */
static bool phases__in_package(const PhaseGraph *g, const RawEntry *e) {
  if (e->kind != ENTRY_MAIN || e->target >= g->n_files) return false;
  const char *path = g->files[e->target].path;
  if (strcmp(phases__basename(path), "__main__.py") == 0) return false;
  char *dir = phases__dirname(path);
  bool pkg = phases__dir_is_package(g, dir);
  free(dir);
  return pkg;
}

static bool phases__is_start(const PhaseCand *c, size_t f) {
  for (size_t k = 0; k < c->r->starts.len; k++)
    if (c->r->starts.items[k] == f) return true;
  return false;
}

static void phases__bfs(const PhaseGraph *g, const IdxList *starts, uint8_t *reach, size_t *count) {
  size_t *queue = xmalloc((g->n_files ? g->n_files : 1) * sizeof *queue);
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < starts->len; i++) {
    size_t s = starts->items[i];
    if (!reach[s]) {
      reach[s] = 1;
      queue[tail++] = s;
    }
  }
  while (head < tail) {
    size_t f = queue[head++];
    for (size_t e = g->edge_start[f]; e < g->edge_start[f + 1]; e++) {
      size_t t = g->edge_to[e];
      if (!reach[t]) {
        reach[t] = 1;
        queue[tail++] = t;
      }
    }
  }
  if (count) *count = tail;
  free(queue);
}

/* Whether the files candidate c reaches, apart from its own start files
 * (the script itself), are all in b. */
static bool phases__subset(const PhaseCand *c, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (c->reach[i] && !b[i] && !phases__is_start(c, i)) return false;
  return true;
}

/* Same files reached, apart from each one's own start files. */
static bool phases__same_reach(const PhaseCand *a, const PhaseCand *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a->reach[i] != b->reach[i] && !phases__is_start(a, i) && !phases__is_start(b, i)) return false;
  return true;
}

/* The phase index of a name, created with `kind` when new. */
static size_t phases__phase_named(PhaseGraph *g, const char *name, PhaseKind kind) {
  for (size_t p = 0; p < g->phases.len; p++)
    if (strcmp(g->phases.items[p].name, name) == 0) return p;
  Phase ph = {0};
  ph.name = xstrdup(name);
  ph.kind = kind;
  array_push(&g->phases, ph);
  return g->phases.len - 1;
}

/* A module's own __main__ that another task entry imports: that entry's
 * phase runs it. Mutual imports do not fold. */
static void phases__fold_selftests(const PhaseGraph *g, PhaseCand *c, size_t n) {
  for (size_t i = 0; i < n; i++) {
    /* an entry whose name says what it does (train.py) is a task even when a test imports it */
    if (c[i].tool >= 0 || c[i].r->kind != ENTRY_MAIN || c[i].kind != PHASE_CUSTOM) continue;
    size_t t = c[i].r->target;
    /* an importer whose name says what it does first */
    for (int pass = 0; pass < 2 && c[i].owner == PHASES_NONE; pass++)
      for (size_t j = 0; j < n; j++) {
        if (j == i || c[j].tool >= 0 || c[j].owner != PHASES_NONE || c[j].r->target == t) continue;
        if (pass == 0 && c[j].kind == PHASE_CUSTOM) continue;
        size_t tj = c[j].r->target;
        if (!c[j].reach[t] || (tj < g->n_files && c[i].reach[tj])) continue;
        c[i].owner = j;
        c[i].fold = FOLD_SELFTEST;
        break;
      }
  }
}

/* Union of the reach of the candidates already in phase p. */
static void phases__phase_union(const PhaseCand *c, size_t n, size_t p, uint8_t *u, size_t nf) {
  memset(u, 0, nf ? nf : 1);
  for (size_t i = 0; i < n; i++)
    if (c[i].phase == p)
      for (size_t f = 0; f < nf; f++) u[f] |= c[i].reach[f];
}

/* Phases of the task candidates (not tooling, not self-tests): named kinds
 * first, then the others by subset, same reach, or their own name; past
 * PHASES_COLUMNS the unnamed ones share "Other". */
static void phases__assign(PhaseGraph *g, PhaseCand *c, size_t n) {
  size_t nf = g->n_files;
  for (size_t i = 0; i < n; i++) {
    if (c[i].tool >= 0 || c[i].owner != PHASES_NONE || c[i].kind == PHASE_CUSTOM) continue;
    c[i].phase = phases__phase_named(g, c[i].name, c[i].kind);
    c[i].fold = FOLD_NAMED;
  }
  size_t named = g->phases.len;
  uint8_t *u = xmalloc(nf ? nf : 1);
  for (size_t i = 0; i < n; i++) {
    if (c[i].tool >= 0 || c[i].owner != PHASES_NONE || c[i].kind != PHASE_CUSTOM) continue;
    size_t best = PHASES_NONE, best_size = 0;
    for (size_t p = 0; p < named; p++) {
      phases__phase_union(c, n, p, u, nf);
      if (!phases__subset(&c[i], u, nf)) continue;
      size_t size = 0;
      for (size_t f = 0; f < nf; f++) size += u[f];
      if (best == PHASES_NONE || size < best_size) best = p, best_size = size;
    }
    if (best != PHASES_NONE) {
      c[i].phase = best;
      c[i].fold = FOLD_SUBSET;
      continue;
    }
    for (size_t j = 0; j < i && best == PHASES_NONE; j++)
      if (c[j].tool < 0 && c[j].owner == PHASES_NONE && c[j].kind == PHASE_CUSTOM && c[j].phase != PHASES_NONE &&
          phases__same_reach(&c[j], &c[i], nf))
        best = c[j].phase;
    if (best != PHASES_NONE) {
      c[i].phase = best;
      c[i].fold = FOLD_SAME_REACH;
      continue;
    }
    if (c[i].in_package) { /* a module's self-test nothing else runs */
      c[i].tool = TOOL_SELFTEST;
      continue;
    }
    c[i].phase = phases__phase_named(g, c[i].name, PHASE_CUSTOM);
    c[i].fold = FOLD_NAMED;
  }
  free(u);
  if (g->phases.len > PHASES_COLUMNS && named < PHASES_COLUMNS) {
    /* keep the first custom phases up to the limit, the rest share "Other" */
    size_t keep = PHASES_COLUMNS - 1;
    for (size_t p = g->phases.len; p-- > keep;) {
      free(g->phases.items[p].name);
      g->phases.len--;
    }
    size_t other = phases__phase_named(g, "Other", PHASE_CUSTOM);
    for (size_t i = 0; i < n; i++)
      if (c[i].phase != PHASES_NONE && c[i].phase >= keep && c[i].owner == PHASES_NONE) {
        c[i].phase = other;
        c[i].fold = FOLD_OTHER;
      }
  }
  for (size_t i = 0; i < n; i++) { /* self-tests follow their owner (chains end: owners are never self-tests of i) */
    size_t o = c[i].owner;
    for (int hop = 0; hop < 8 && o != PHASES_NONE && c[o].owner != PHASES_NONE; hop++) o = c[o].owner;
    if (o == PHASES_NONE) continue;
    c[i].phase = c[o].phase;
    /* an owner that is tooling (a self-test nothing else runs) takes its self-tests along */
    if (c[o].tool >= 0) c[i].tool = c[o].tool;
    else if (c[i].phase == PHASES_NONE) c[i].tool = TOOL_SELFTEST; /* a chain past the hop limit */
  }
}

/* A packaged project with no application entry at its root is a library:
 * the starts of its public API are the __init__.py of the packages next to
 * each packaging file (or its top-level modules when it has no package). */
static bool phases__library_starts(const PhaseGraph *g, const PhaseCand *c, size_t n, IdxList *starts) {
  for (size_t i = 0; i < n; i++) {
    if (c[i].tool >= 0) continue;
    if (c[i].r->kind == ENTRY_CONSOLE) return false;
    size_t t = c[i].r->target;
    if (t < g->n_files && !strchr(g->files[t].path, '/')) return false;
  }
  for (size_t i = 0; i < g->n_files; i++) {
    const PhaseFile *f = &g->files[i];
    const char *base = phases__basename(f->path);
    if (f->kind != FILE_PYPROJECT && strcmp(base, "setup.py") != 0) continue;
    char *dir = phases__dirname(f->path);
    size_t dl = strlen(dir), before = starts->len;
    for (size_t k = 0; k < g->n_files; k++) {
      const char *p = g->files[k].path;
      if (dl && (strncmp(p, dir, dl) != 0 || p[dl] != '/')) continue;
      const char *rest = dl ? p + dl + 1 : p;
      const char *slash = strchr(rest, '/');
      if (slash && strcmp(slash + 1, "__init__.py") == 0 && !phases__has_dir(rest, "tests|test|benchmarks|examples|docs"))
        phases__push_unique(starts, k);
    }
    if (starts->len == before)
      for (size_t k = 0; k < g->n_files; k++) {
        const char *p = g->files[k].path;
        if (!phases__is_python(&g->files[k]) || k == i) continue;
        if (dl && (strncmp(p, dir, dl) != 0 || p[dl] != '/')) continue;
        const char *rest = dl ? p + dl + 1 : p;
        if (strchr(rest, '/') || util_starts_with(rest, "test") || strcmp(rest, "setup.py") == 0 ||
            (g->files[k].facts && g->files[k].facts->has_main_guard))
          continue;
        phases__push_unique(starts, k);
      }
    free(dir);
  }
  return starts->len > 0;
}

/* The public API is the product when its packages reach at least half as
 * many files as the largest task entry (a package whose __init__.py
 * imports nothing is a namespace, not an API). */
static bool phases__api_is_product(const PhaseGraph *g, const PhaseCand *c, size_t n, const IdxList *api) {
  uint8_t *reach = xcalloc(g->n_files ? g->n_files : 1, 1);
  size_t api_n = 0, most = 0;
  phases__bfs(g, api, reach, &api_n);
  free(reach);
  for (size_t i = 0; i < n; i++) {
    if (c[i].tool >= 0) continue;
    size_t k = 0;
    for (size_t f = 0; f < g->n_files; f++) k += c[i].reach[f];
    if (k > most) most = k;
  }
  return api_n * 2 >= most;
}

static bool phases__multi_launcher(const char *l) {
  return l && *l && strcmp(l, "python") != 0 && strcmp(l, "python -m") != 0 && strcmp(l, "console script") != 0;
}

/* Detected entries -> tooling and task phases (see phases.h). */
typedef Array(IdxList) StartLists;

static void phases__fold(PhaseGraph *g, RawEntries *raw, PhaseReadFn read, void *data, StartLists *starts) {
  size_t n = raw->len, nf = g->n_files;
  PhaseCand *c = xcalloc(n ? n : 1, sizeof *c);
  uint8_t *all = xmalloc(nf ? nf : 1);
  memset(all, 1, nf ? nf : 1);
  bool uses_framework = phases__reaches_framework(g, all);
  free(all);
  for (size_t i = 0; i < n; i++) {
    c[i].r = &raw->items[i];
    c[i].reach = xcalloc(nf ? nf : 1, 1);
    phases__bfs(g, &c[i].r->starts, c[i].reach, NULL);
    phases__name_of(c[i].r, &c[i].kind, &c[i].name);
    c[i].in_package = phases__in_package(g, c[i].r);
    if (c[i].in_package && c[i].kind != PHASE_CUSTOM && phases_classify(c[i].r->name_hint) == PHASE_CUSTOM) {
      /* a module of a package is named by its own file, not by the package
       * it sits in (cosmos_predict2/... does not predict) */
      c[i].kind = PHASE_CUSTOM;
      free(c[i].name);
      c[i].name = xstrdup(c[i].r->name_fallback ? c[i].r->name_fallback : "entry");
    }
    c[i].tool = phases__tool_of(g, c[i].r, c[i].kind, c[i].reach, uses_framework);
    c[i].owner = c[i].phase = PHASES_NONE;
  }
  phases__fold_selftests(g, c, n);
  IdxList api = {0};
  if (phases__library_starts(g, c, n, &api) && phases__api_is_product(g, c, n, &api)) {
    g->library = true;
    phases__phase_named(g, "Public API", PHASE_API);
  }
  phases__assign(g, c, n);
  while (starts->len < g->phases.len) array_push(starts, ((IdxList){0}));
  for (size_t k = 0; k < api.len && g->library; k++) phases__push_unique(&starts->items[0], api.items[k]);
  array_free(&api);
  char **via = xcalloc(n ? n : 1, sizeof *via);
  for (size_t i = 0; i < n; i++)
    if (c[i].fold == FOLD_SELFTEST && c[i].owner != PHASES_NONE) via[i] = xstrdup(c[c[i].owner].r->label);
  for (size_t i = 0; i < n; i++) {
    RawEntry *r = c[i].r;
    if (c[i].tool >= 0) {
      PhaseTool t = {r->label, (PhaseToolReason)c[i].tool};
      r->label = NULL;
      array_push(&g->tooling, t);
      continue;
    }
    size_t p = c[i].phase;
    Phase *ph = &g->phases.items[p];
    for (size_t k = 0; k < r->starts.len; k++) phases__push_unique(&starts->items[p], r->starts.items[k]);
    if (phases__multi_launcher(r->launcher)) ph->multi_device = true;
    if (ph->tasks.len == 0 && read && r->target < nf && phases__is_python(&g->files[r->target])) {
      size_t len = 0;
      char *text = read(data, r->target, &len);
      if (text) phases__task_choices(g, text, len, c[i].reach, read, data, &ph->tasks);
      free(text);
    }
    PhaseEntry e = {r->kind, r->label, r->launcher, r->source, r->target, r->implied, p, c[i].fold, via[i]};
    via[i] = NULL;
    r->label = r->launcher = NULL;
    memset(&r->implied, 0, sizeof r->implied);
    array_push(&g->entries, e);
    array_push(&ph->entries, g->entries.len - 1);
  }
  for (size_t i = 0; i < n; i++) free(via[i]);
  free(via);
  for (size_t i = 0; i < n; i++) {
    free(c[i].reach);
    free(c[i].name);
    phases__raw_free(c[i].r);
  }
  free(c);
}

void phases_build(PhaseGraph *g, const PhaseFile *files, size_t n, const char *const *overrides, size_t n_overrides,
                  PhaseReadFn read, void *read_data) {
  memset(g, 0, sizeof *g);
  g->files = files;
  g->n_files = n;
  g->by_path = xmalloc((n ? n : 1) * sizeof *g->by_path);
  for (size_t i = 0; i < n; i++) g->by_path[i] = i;
  phases__sort_paths(files, g->by_path, n);
  phases__find_roots(g);
  phases__build_edges(g, read, read_data);

  RawEntries raw = {0};
  bool given = n_overrides > 0;
  StartLists starts = {0};
  if (given) {
    phases__override_entries(g, overrides, n_overrides, read, read_data, &raw);
    for (size_t i = 0; i < raw.len; i++) {
      RawEntry *r = &raw.items[i];
      size_t p = phases__phase_index(g, r->name_fallback, phases_classify(r->name_fallback));
      while (starts.len < g->phases.len) array_push(&starts, ((IdxList){0}));
      for (size_t k = 0; k < r->starts.len; k++) phases__push_unique(&starts.items[p], r->starts.items[k]);
      PhaseEntry e = {r->kind, r->label, r->launcher, r->source, r->target, r->implied, p, FOLD_OVERRIDE, NULL};
      r->label = r->launcher = NULL;
      memset(&r->implied, 0, sizeof r->implied);
      array_push(&g->entries, e);
      array_push(&g->phases.items[p].entries, g->entries.len - 1);
      phases__raw_free(r);
    }
  } else {
    phases__collect_entries(g, read, read_data, &raw);
    phases__fold(g, &raw, read, read_data, &starts);
  }
  array_free(&raw);

  if (g->phases.len == 0 && !given) {
    /* nothing runs the code we can see: judge the project as one whole */
    g->implicit = true;
    Phase ph = {0};
    ph.name = xstrdup("Project");
    ph.kind = PHASE_CUSTOM;
    array_push(&g->phases, ph);
    IdxList all = {0};
    for (size_t i = 0; i < n; i++) array_push(&all, i);
    array_push(&starts, all);
  }
  while (starts.len < g->phases.len) array_push(&starts, ((IdxList){0}));
  for (size_t p = 0; p < g->phases.len; p++) phases__reach(g, &g->phases.items[p], &starts.items[p]);
  for (size_t p = 0; p < starts.len; p++) array_free(&starts.items[p]);
  array_free(&starts);
  phases__order(g, given);
}

void phases_free(PhaseGraph *g) {
  for (size_t p = 0; p < g->phases.len; p++) {
    free(g->phases.items[p].name);
    free(g->phases.items[p].reach);
    array_free(&g->phases.items[p].entries);
    strlist_free(&g->phases.items[p].tasks);
  }
  array_free(&g->phases);
  for (size_t e = 0; e < g->entries.len; e++) {
    free(g->entries.items[e].label);
    free(g->entries.items[e].launcher);
    free(g->entries.items[e].via);
    strlist_free(&g->entries.items[e].implied);
  }
  array_free(&g->entries);
  free(g->edge_start);
  free(g->edge_to);
  strlist_free(&g->notes);
  for (size_t t = 0; t < g->tooling.len; t++) free(g->tooling.items[t].label);
  array_free(&g->tooling);
  strlist_free(&g->roots);
  free(g->by_path);
  memset(g, 0, sizeof *g);
}

/* ---------------------------------------------------------------------------
 * Phases - queries
 * ------------------------------------------------------------------------- */

uint64_t phases_all(const PhaseGraph *g) {
  size_t n = g->phases.len;
  return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

uint64_t phases_of_file(const PhaseGraph *g, size_t file) {
  uint64_t m = 0;
  if (file >= g->n_files) return 0;
  for (size_t p = 0; p < g->phases.len; p++)
    if (g->phases.items[p].reach[file]) m |= (uint64_t)1 << p;
  return m;
}

/* Distribution names whose import name differs from the normalized name. */
static const struct {
  const char *dist; /* normalized: lower case, '_' and '.' as '-' ; glob */
  const char *modules; /* '|'-separated */
} phases__dist_map[] = {
    {"flash-attn", "flash_attn|flash_attn_interface"},
    {"flash-attn-3", "flash_attn_interface"},
    {"flash-attn-npu", "flash_attn"},
    {"nvidia-ml-py*", "pynvml"},
    {"pynvml", "pynvml"},
    {"cupy-cuda*", "cupy"},
    {"cuda-python", "cuda"},
    {"apex", "apex|amp_C"},
    {"torch-tensorrt", "torch_tensorrt"},
    {"tensorrt*", "tensorrt"},
    {"nvidia-dali*", "nvidia.dali"},
    {"opencv-python*", "cv2"},
    {"pytorch-lightning", "pytorch_lightning|lightning"},
    {"scikit-learn", "sklearn"},
    {"pillow", "PIL"},
    {"pyyaml", "yaml"},
    {"pytorch", "torch"}, /* conda's name */
};

/* Packages nobody imports that make up the CUDA environment itself (conda's
 * toolkit packages, the CUDA runtime wheels): every phase runs on them. */
static const char phases__environment_dists[] =
    "nvidia-*|cuda-toolkit|cudatoolkit*|cuda-runtime|cuda-libraries*|cuda-nvcc|cuda-cudart*|cudnn|nccl|"
    "pytorch-cuda|libcublas*|libcudnn*|libnccl*";

static char *phases__normalize_dist(const char *dist) {
  while (isspace((unsigned char)*dist)) dist++;
  size_t n = 0;
  while (isalnum((unsigned char)dist[n]) || dist[n] == '-' || dist[n] == '_' || dist[n] == '.') n++;
  char *s = xstrndup(dist, n);
  for (char *c = s; *c; c++) {
    *c = (char)tolower((unsigned char)*c);
    if (*c == '_' || *c == '.') *c = '-';
  }
  return s;
}

size_t phases_dist_modules(const char *dist, char *buf, size_t bufsize, const char **names, size_t max) {
  char *norm = phases__normalize_dist(dist);
  size_t n = 0;
  for (size_t i = 0; i < sizeof phases__dist_map / sizeof phases__dist_map[0] && n == 0; i++) {
    if (!util_glob(phases__dist_map[i].dist, norm)) continue;
    /* split into buf */
    const char *m = phases__dist_map[i].modules;
    size_t used = 0;
    while (*m && n < max) {
      size_t l = strcspn(m, "|");
      if (used + l + 1 > bufsize) break;
      memcpy(buf + used, m, l);
      buf[used + l] = '\0';
      names[n++] = buf + used;
      used += l + 1;
      m += l;
      if (*m == '|') m++;
    }
  }
  if (n == 0 && *norm && max > 0 && strlen(norm) + 1 <= bufsize) {
    strcpy(buf, norm);
    for (char *c = buf; *c; c++)
      if (*c == '-') *c = '_';
    names[n++] = buf;
  }
  free(norm);
  return n;
}

static bool phases__imports_module(const FileFacts *facts, const char *mod) {
  size_t ml = strlen(mod);
  for (size_t k = 0; k < facts->imports.len; k++) {
    const char *im = facts->imports.items[k];
    if (strncmp(im, mod, ml) == 0 && (im[ml] == '\0' || im[ml] == '.')) return true;
  }
  return false;
}

bool phases_is_environment_dist(const char *dist) {
  char *norm = phases__normalize_dist(dist);
  bool env = *norm && kb_pattern_match(phases__environment_dists, norm) && !util_starts_with(norm, "nvidia-ml-py") &&
             !util_starts_with(norm, "nvidia-dali");
  free(norm);
  return env;
}

uint64_t phases_of_package(const PhaseGraph *g, const char *dist) {
  while (isspace((unsigned char)*dist)) dist++;
  char *norm = phases__normalize_dist(dist);
  /* not a package name (an index URL, an option) or a CUDA runtime wheel
   * that nobody imports: it shapes the whole environment */
  size_t word = strcspn(dist, " \t");
  bool environment = !*norm || dist[word] != '\0' || memchr(dist, '/', word) || memchr(dist, ':', word) ||
                     dist[0] == '-' ||
                     (kb_pattern_match(phases__environment_dists, norm) && !util_starts_with(norm, "nvidia-ml-py") &&
                      !util_starts_with(norm, "nvidia-dali"));
  free(norm);
  if (environment) return phases_all(g);
  char buf[256];
  const char *mods[8];
  size_t nm = phases_dist_modules(dist, buf, sizeof buf, mods, 8);
  uint64_t mask = 0;
  for (size_t p = 0; p < g->phases.len; p++) {
    const Phase *ph = &g->phases.items[p];
    bool used = false;
    for (size_t e = 0; e < ph->entries.len && !used; e++) {
      const PhaseEntry *en = &g->entries.items[ph->entries.items[e]];
      for (size_t k = 0; k < en->implied.len && !used; k++)
        for (size_t m = 0; m < nm && !used; m++) used = strcmp(en->implied.items[k], mods[m]) == 0;
    }
    for (size_t i = 0; i < g->n_files && !used; i++) {
      if (!ph->reach[i] || !g->files[i].facts) continue;
      for (size_t m = 0; m < nm && !used; m++) used = phases__imports_module(g->files[i].facts, mods[m]);
    }
    if (used) mask |= (uint64_t)1 << p;
  }
  return mask;
}
