/* workspace: see workspace.h. */
#include "server/workspace.h"
#include "analyzers/engine/fold_outcome.h"
#include "analyzers/engine/nesting.h"
#include "analyzers/engine/reach_facts.h"
#include "analyzers/python/pyfacts.h"
#include "analyzers/project/model.h"
#include "analyzers/project/targets.h"
#include "server/resultcodec.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const ws__skip_dirs =
    ".git|.hg|.svn|build|dist|node_modules|__pycache__|.tox|.nox|.mypy_cache|.pytest_cache|.ruff_cache|"
    "site-packages|.eggs|*.egg-info|.venv|venv|.ipynb_checkpoints|.idea|.vscode";

typedef struct {
  dev_t dev;
  ino_t ino;
} WsDirId;

typedef struct {
  Workspace *ws;
  const WsOptions *opt;
  Array(WsDirId) seen;
  bool explicit; /* adding a file named on the command line, not found by the walk */
} Walker;

uint64_t ws_hash(const char *text, size_t len) { return util_fnv(UTIL_FNV_SEED, text, len); }

static void ws__note(Workspace *ws, const char *path, const char *why) {
  array_push(&ws->notes, xasprintf("%s: %s", path, why));
}

/* What a file that is not regular is, for the note that skips it. */
static const char *ws__special(mode_t mode) {
  if (S_ISFIFO(mode)) return "skipped, not a regular file (a FIFO)";
  if (S_ISCHR(mode)) return "skipped, not a regular file (a character device)";
  if (S_ISBLK(mode)) return "skipped, not a regular file (a block device)";
  if (S_ISSOCK(mode)) return "skipped, not a regular file (a socket)";
  return "skipped, not a regular file";
}

static bool ws__excluded(const WsOptions *opt, const char *rel, const char *name) {
  for (size_t i = 0; i < opt->n_exclude; i++)
    if (kb_pattern_match(opt->exclude[i], rel) || kb_pattern_match(opt->exclude[i], name)) return true;
  return false;
}

static void ws__add_file(Walker *w, const char *rel, const char *abs, const struct stat *st) {
  FileKind k = context_file_kind(rel);
  if (k == FILE_UNKNOWN) return;
  size_t max = w->opt->max_file ? w->opt->max_file : WS_DEFAULT_MAX_FILE;
  if ((size_t)st->st_size > max && k != FILE_ELF) { /* binaries are read only up to their headers */
    char why[64];
    snprintf(why, sizeof why, "skipped, larger than %zu bytes", max);
    ws__note(w->ws, rel, why);
    return;
  }
  WsFile f = {0};
  f.path = xstrdup(rel);
  f.abs = xstrdup(abs);
  f.rel = w->explicit ? ws_project_relative(abs) : xstrdup(rel);
  f.npu_sibling = k == FILE_PYTHON ? ws_npu_sibling(abs) : NULL;
  f.kind = k;
  array_push(&w->ws->files, f);
}

/* A configuration file that names code (targets.h) joins ws->configs. */
static void ws__add_config(Walker *w, const char *rel, const char *abs, const struct stat *st) {
  if (!targets_config_path(rel) || (size_t)st->st_size > TARGETS_MAX_FILE) return;
  char *text = NULL;
  size_t len = 0;
  if (util_read_file(abs, TARGETS_MAX_FILE, &text, &len) != 0) return; /* gone: it names nothing */
  char *targets = targets_scan(text, len);
  free(text);
  if (!targets) return;
  WsConfig c = {xstrdup(rel), xstrdup(abs), xstrdup(rel), targets};
  array_push(&w->ws->configs, c);
}

static bool ws__seen(Walker *w, const struct stat *st) {
  for (size_t i = 0; i < w->seen.len; i++)
    if (w->seen.items[i].dev == st->st_dev && w->seen.items[i].ino == st->st_ino) return true;
  WsDirId id = {st->st_dev, st->st_ino};
  array_push(&w->seen, id);
  return false;
}

/* Whether the folder at abs is a virtualenv: its `pyvenv.cfg` beside the
 * interpreter's folders (`bin/` or `lib/`; `Scripts/` or `Lib/` on
 * Windows). A `pyvenv.cfg` alone is a stray file committed with the
 * sources (GOT-OCR2.0's source folder holds one), not an environment. */
static bool ws__is_venv(const char *abs) {
  static const char *const dirs[] = {"bin", "lib", "Scripts", "Lib"};
  char *cfg = xasprintf("%s/pyvenv.cfg", abs);
  bool r = access(cfg, F_OK) == 0;
  free(cfg);
  bool layout = false;
  for (size_t i = 0; r && !layout && i < sizeof dirs / sizeof dirs[0]; i++) {
    char *d = xasprintf("%s/%s", abs, dirs[i]);
    struct stat st;
    layout = stat(d, &st) == 0 && S_ISDIR(st.st_mode);
    free(d);
  }
  return r && layout;
}

/* Whether the folder at abs is a Python package (holds `__init__.py`):
 * then a conventional exclude's name is the package's (StableAvatar's
 * `wan/dist/`, which its models import), not a build's output. */
static bool ws__is_package(const char *abs) {
  char *init = xasprintf("%s/__init__.py", abs);
  bool r = access(init, F_OK) == 0;
  free(init);
  return r;
}

/* Iterative walk: a stack of (relative, absolute) directory paths. */
static void ws__walk(Walker *w, const char *root_abs) {
  Array(char *) stack = {0};
  array_push(&stack, xstrdup(""));
  while (stack.len > 0) {
    char *rel = stack.items[--stack.len];
    char *dabs = *rel ? xasprintf("%s/%s", root_abs, rel) : xstrdup(root_abs);
    DIR *d = opendir(dabs);
    if (!d) {
      ws__note(w->ws, *rel ? rel : ".", strerror(errno));
      free(dabs);
      free(rel);
      continue;
    }
    struct dirent *de;
    while ((de = readdir(d))) {
      const char *name = de->d_name;
      if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
      char *crel = *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name);
      char *cabs = xasprintf("%s/%s", dabs, name);
      struct stat st;
      if (stat(cabs, &st) != 0) {
        struct stat lst;
        ws__note(w->ws, crel, lstat(cabs, &lst) == 0 ? "skipped, dangling symbolic link" : strerror(errno));
      } else if (ws__excluded(w->opt, crel, name)) {
        /* excluded by configuration: silent, as the user asked for it */
      } else if (S_ISDIR(st.st_mode)) {
        if ((kb_pattern_match(ws__skip_dirs, name) && !ws__is_package(cabs)) || ws__is_venv(cabs)) {
          /* conventional excludes */
        } else if (ws__seen(w, &st)) {
          ws__note(w->ws, crel, "skipped, symbolic link loop (directory already visited)");
        } else {
          array_push(&stack, xstrdup(crel));
        }
      } else if (S_ISREG(st.st_mode)) {
        ws__add_file(w, crel, cabs, &st);
        ws__add_config(w, crel, cabs, &st);
      } else if (context_file_kind(crel) != FILE_UNKNOWN) {
        ws__note(w->ws, crel, ws__special(st.st_mode));
      }
      free(crel);
      free(cabs);
    }
    closedir(d);
    free(dabs);
    free(rel);
  }
  array_free(&stack);
}

static int ws__config_cmp(const void *a, const void *b) {
  return strcmp(((const WsConfig *)a)->path, ((const WsConfig *)b)->path);
}

static int ws__cmp(const void *a, const void *b) {
  return strcmp(((const WsFile *)a)->path, ((const WsFile *)b)->path);
}

/* The NPU twin of a module in a subdirectory: `ops/rms_norm.py` has one when
 * a file of the same name lies below `ops/` under a directory named for the
 * NPU (`ops/backends/_ascend/ops/rms_norm.py`): the project's NPU backend
 * replaces it there. Package files (__init__.py, __main__.py), setup.py and
 * conftest.py name no module of their own. The twin is named relative to
 * the module's directory. */
static void ws__npu_twins(Workspace *ws) {
  static const char *const generic = "__init__.py|__main__.py|setup.py|conftest.py";
  Array(size_t) npu = {0};
  for (size_t i = 0; i < ws->files.len; i++)
    if (ws->files.items[i].kind == FILE_PYTHON && fold_npu_path(ws->files.items[i].path)) array_push(&npu, i);
  for (size_t i = 0; npu.len && i < ws->files.len; i++) {
    WsFile *f = &ws->files.items[i];
    if (f->kind != FILE_PYTHON || f->npu_sibling || fold_npu_path(f->path)) continue;
    const char *slash = strrchr(f->path, '/'), *base = slash ? slash + 1 : f->path;
    size_t dir = slash ? (size_t)(slash - f->path) + 1 : 0;
    if (kb_pattern_match(generic, base)) continue;
    for (size_t k = 0; k < npu.len && !f->npu_sibling; k++) {
      const char *q = ws->files.items[npu.items[k]].path, *qs = strrchr(q, '/');
      if (!qs || strcmp(qs + 1, base) != 0 || strncmp(q, f->path, dir) != 0) continue;
      char *between = xstrndup(q + dir, (size_t)(qs - q) - dir); /* the directories below the module's */
      if (fold_npu_path(between)) f->npu_sibling = xstrdup(q + dir);
      free(between);
    }
  }
  array_free(&npu);
}

int ws_collect(Workspace *ws, const char *const *paths, size_t n, const WsOptions *opt) {
  static const char *const dot[] = {"."};
  if (n == 0) {
    paths = dot;
    n = 1;
  }
  Walker w = {ws, opt, {0}, false};
  int rc = 0;
  if (!ws->root) ws->root = xstrdup(paths[0]);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0) {
      ws__note(ws, paths[i], strerror(errno));
      rc = -ENOENT;
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      size_t before = ws->files.len, configs = ws->configs.len;
      ws__seen(&w, &st);
      ws__walk(&w, paths[i]);
      /* files from a second root keep that root as a prefix */
      ws->under_root = n == 1 && strcmp(paths[i], ws->root) == 0;
      if (!ws->under_root) {
        for (size_t k = before; k < ws->files.len; k++) {
          char *p = xasprintf("%s/%s", paths[i], ws->files.items[k].path);
          free(ws->files.items[k].path);
          ws->files.items[k].path = p;
        }
        for (size_t k = configs; k < ws->configs.len; k++) {
          char *p = xasprintf("%s/%s", paths[i], ws->configs.items[k].path);
          free(ws->configs.items[k].path);
          ws->configs.items[k].path = p;
        }
      }
    } else if (context_file_kind(paths[i]) == FILE_UNKNOWN) {
      ws__note(ws, paths[i], "not a file kind ascend-lsp analyzes");
    } else if (!S_ISREG(st.st_mode)) {
      ws__note(ws, paths[i], ws__special(st.st_mode));
    } else {
      w.explicit = true;
      ws__add_file(&w, paths[i], paths[i], &st);
      w.explicit = false;
    }
  }
  array_free(&w.seen);
  if (ws->files.len > 1) qsort(ws->files.items, ws->files.len, sizeof *ws->files.items, ws__cmp);
  if (ws->configs.len > 1) qsort(ws->configs.items, ws->configs.len, sizeof *ws->configs.items, ws__config_cmp);
  ws__npu_twins(ws);
  return rc;
}

/* ---- cache ------------------------------------------------------------------ */

typedef struct {
  char *path;
  uint64_t hash;
  size_t bytes;
  FindingList findings;
  FileFacts facts;
} WsCacheEntry;

struct WsCache {
  pthread_mutex_t lock;
  Array(WsCacheEntry) entries;
  size_t *slots;    /* open addressing by path hash: entry index + 1, 0 = empty */
  size_t n_slots;   /* a power of two, at least twice the entries */
  size_t analyzed, reused;
};

/* Slot of path: where it is, or the empty slot where it would go. */
static size_t *ws__slot(WsCache *c, const char *path) {
  size_t i = (size_t)ws_hash(path, strlen(path)) & (c->n_slots - 1);
  while (c->slots[i] && strcmp(c->entries.items[c->slots[i] - 1].path, path) != 0) i = (i + 1) & (c->n_slots - 1);
  return &c->slots[i];
}

static void ws__rehash(WsCache *c) {
  free(c->slots);
  c->n_slots = 64;
  while (c->n_slots < 2 * (c->entries.len + 1)) c->n_slots *= 2;
  c->slots = xcalloc(c->n_slots, sizeof *c->slots);
  for (size_t k = 0; k < c->entries.len; k++) *ws__slot(c, c->entries.items[k].path) = k + 1;
}

WsCache *ws_cache_new(void) {
  WsCache *c = xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  return c;
}

static void ws__copy_results(FindingList *dst, FileFacts *dfacts, const FindingList *src, const FileFacts *sfacts) {
  for (size_t i = 0; i < src->len; i++) array_push(dst, finding_copy(&src->items[i]));
  dfacts->has_main_guard = sfacts->has_main_guard;
  dfacts->runs_code = sfacts->runs_code;
  dfacts->lines = sfacts->lines;
  dfacts->test_findings = sfacts->test_findings;
  for (size_t i = 0; i < sfacts->imports.len; i++) array_push(&dfacts->imports, xstrdup(sfacts->imports.items[i]));
  dfacts->py = pyfacts_copy(sfacts->py);
  dfacts->reach = reach_facts_copy(sfacts->reach);
  for (size_t i = 0; i < sfacts->chains.len; i++) array_push(&dfacts->chains, finding_copy(&sfacts->chains.items[i]));
}

static void ws__entry_free(WsCacheEntry *e) {
  free(e->path);
  findings_free(&e->findings);
  analyze_facts_free(&e->facts);
}

void ws_cache_clear(WsCache *c) {
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->entries.len; i++) ws__entry_free(&c->entries.items[i]);
  c->entries.len = 0;
  ws__rehash(c);
  pthread_mutex_unlock(&c->lock);
}

void ws_cache_free(WsCache *c) {
  if (!c) return;
  ws_cache_clear(c);
  array_free(&c->entries);
  free(c->slots);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

void ws_cache_stats(const WsCache *c, size_t *analyzed, size_t *reused) {
  *analyzed = c->analyzed;
  *reused = c->reused;
}

static bool ws__cache_get(WsCache *c, WsFile *f) {
  bool hit = false;
  pthread_mutex_lock(&c->lock);
  size_t *slot = c->n_slots ? ws__slot(c, f->path) : NULL;
  WsCacheEntry *e = slot && *slot ? &c->entries.items[*slot - 1] : NULL;
  if (e && e->hash == f->hash && e->bytes == f->bytes) {
    ws__copy_results(&f->findings, &f->facts, &e->findings, &e->facts);
    hit = true;
  }
  if (hit) c->reused++;
  else c->analyzed++;
  pthread_mutex_unlock(&c->lock);
  return hit;
}

static void ws__cache_put(WsCache *c, const WsFile *f) {
  WsCacheEntry e = {.path = xstrdup(f->path), .hash = f->hash, .bytes = f->bytes};
  ws__copy_results(&e.findings, &e.facts, &f->findings, &f->facts);
  pthread_mutex_lock(&c->lock);
  if (2 * (c->entries.len + 1) > c->n_slots) ws__rehash(c);
  size_t *slot = ws__slot(c, f->path);
  if (*slot) {
    ws__entry_free(&c->entries.items[*slot - 1]);
    c->entries.items[*slot - 1] = e;
  } else {
    array_push(&c->entries, e);
    *slot = c->entries.len;
  }
  pthread_mutex_unlock(&c->lock);
}

/* ---- analysis pool --------------------------------------------------------- */

typedef struct Pool Pool;
struct Pool {
  Workspace *ws;
  const AnalyzeOptions *aopt;
  const WsRun *run;
  void (*each)(Pool *p, WsFile *f); /* the work on one file */
  pthread_mutex_t lock;
  size_t next, done;
};

/* The digest of a file's text. */
static DcKey ws__text_digest(const char *text, size_t len) {
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_u64(&h, len);
  dc_hash_bytes(&h, text, len);
  return dc_hash_final(&h);
}

/* What a file's analysis depends on besides the options: its text (its
 * digest f->text), the path the analyzers see, its NPU twin and its kind. */
static DcKey ws__deps(const WsFile *f, const AnalyzeFile *file) {
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_str(&h, f->rel ? f->rel : f->path);
  dc_hash_str(&h, f->npu_sibling);
  dc_hash_u64(&h, file->n_file_ignores); /* the per-file ignores the analysis applied */
  for (size_t i = 0; i < file->n_file_ignores; i++) dc_hash_str(&h, file->file_ignores[i]);
  dc_hash_u64(&h, (uint64_t)f->kind);
  dc_hash_u64(&h, f->text.lo);
  dc_hash_u64(&h, f->text.hi);
  return dc_hash_final(&h);
}

static bool ws__launcher(const WsFile *f);

/* The digest of an encoding past its header (what the project phase reads). */
static DcKey ws__outcome(const char *data, size_t n) {
  uint32_t lines;
  size_t head = rc_header(data, n, &lines);
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_bytes(&h, data + head, n - head);
  return dc_hash_final(&h);
}

/* The disk cache's results for f, analyzed as `file` says (its per-file
 * ignores are part of the key). The entry is recorded again so the next
 * save keeps it; a deferred one (WsRun.defer) when it is used. */
static bool ws__disk_get(Pool *p, WsFile *f, const AnalyzeFile *file) {
  const char *data;
  size_t n;
  f->deps = ws__deps(f, file);
  if (!dc_lookup(p->run->disk, f->path, f->deps, &data, &n)) return false;
  f->outcome = ws__outcome(data, n);
  if (p->run->defer) {
    f->pending = data;
    f->pending_len = n;
    return true;
  }
  if (rc_decode(data, n, p->aopt, &f->findings, &f->facts) != 0) return false;
  dc_note_hit(p->run->disk);
  dc_record_file(p->run->disk, f->path, f->deps, &f->stamp, f->text, data, n);
  return true;
}

static void ws__disk_put(Pool *p, WsFile *f) {
  StrBuf sb;
  sb_init(&sb);
  rc_encode(&f->findings, &f->facts, &sb);
  f->outcome = ws__outcome(sb.data, sb.len);
  dc_record_file(p->run->disk, f->path, f->deps, &f->stamp, f->text, sb.data, sb.len);
  sb_free(&sb);
}

/* How f is analyzed: its project path, NPU twin and per-file ignores (the
 * returned array, for the caller to free). */
static const char **ws__analyze_file(const Pool *p, const WsFile *f, AnalyzeFile *file) {
  *file = (AnalyzeFile){.path = f->rel ? f->rel : f->path, .npu_sibling = f->npu_sibling};
  const char **ignores = p->run->ignores ? p->run->ignores(p->run->ignores_data, f->path, &file->n_file_ignores) : NULL;
  file->file_ignores = ignores;
  return ignores;
}

/* The findings and facts of f's text: from the disk cache, else analyzed
 * (and recorded there). A disk hit needs no nesting check: a text too
 * deep to parse is never recorded. */
static void ws__analyze_text(Pool *p, WsFile *f, const char *text, size_t len) {
  AnalyzeFile file;
  const char **ignores = ws__analyze_file(p, f, &file);
  if (p->run->disk) f->text = ws__text_digest(text, len);
  bool done = p->run->disk && ws__disk_get(p, f, &file);
  if (!done && nesting_file_too_deep(f->kind, text, len)) {
    f->note = xstrdup(nesting_note());
  } else if (!done) {
    analyze_file(&file, text, len, NULL, p->aopt, &f->findings, &f->facts);
    f->facts.reach = reach_facts_scan(f->kind, text, len); /* for the project's C/C++ reachability */
    if (p->run->disk) ws__disk_put(p, f);
  }
  free(ignores);
  if (p->run->cache && !f->note) ws__cache_put(p->run->cache, f);
}

/* A disk hit known from the file's stamp alone: its text, unchanged since it
 * was recorded, is not read (nor its digest computed) again. */
static bool ws__stamp_hit(Pool *p, WsFile *f) {
  if (!dc_stamp_of(f->abs, &f->stamp) || !dc_known_text(p->run->disk, f->path, &f->stamp, &f->text)) return false;
  AnalyzeFile file;
  const char **ignores = ws__analyze_file(p, f, &file);
  bool hit = ws__disk_get(p, f, &file);
  free(ignores);
  if (hit) f->bytes = (size_t)f->stamp.size;
  return hit;
}

static void ws__analyze_one(Pool *p, WsFile *f) {
  char *text = NULL;
  size_t len = 0;
  if (p->run->overlay) text = p->run->overlay(p->run->overlay_data, f->abs, &len);
  /* the stamp is taken before the read: a change after it shows in the next run's stamp */
  if (!text && p->run->disk && !p->run->cache && f->kind != FILE_ELF && ws__stamp_hit(p, f)) return;
  if (!text) {
    /* DT_NEEDED is found through the program headers near the start of an ELF file */
    int rc = f->kind == FILE_ELF ? util_read_head(f->abs, WS_ELF_HEAD, &text, &len)
                                 : util_read_file(f->abs, WS_DEFAULT_MAX_FILE * 4, &text, &len);
    if (rc != 0) {
      f->note = xasprintf("not analyzed: %s", util_strerror(rc));
      return;
    }
  }
  f->bytes = len;
  if (p->run->cache) f->hash = ws_hash(text, len); /* what the server's cache compares */
  if (f->kind != FILE_ELF && memchr(text, '\0', len)) f->note = xstrdup("skipped, binary content");
  else if (!p->run->cache || !ws__cache_get(p->run->cache, f)) ws__analyze_text(p, f, text, len);
  free(text);
}

static void *ws__worker(void *arg) {
  Pool *p = arg;
  for (;;) {
    if (p->run->cancel && atomic_load(p->run->cancel)) break;
    pthread_mutex_lock(&p->lock);
    size_t i = p->next++;
    pthread_mutex_unlock(&p->lock);
    if (i >= p->ws->files.len) break;
    p->each(p, &p->ws->files.items[i]);
    pthread_mutex_lock(&p->lock);
    p->done++;
    if (p->run->progress) p->run->progress(p->run->progress_data, p->done, p->ws->files.len);
    pthread_mutex_unlock(&p->lock);
  }
  return NULL;
}

/* Runs `each` on every file of ws on run->threads threads. */
static void ws__pool(Workspace *ws, const AnalyzeOptions *aopt, const WsRun *run, void (*each)(Pool *, WsFile *)) {
  int threads = run->threads > 0 ? run->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  if ((size_t)threads > ws->files.len) threads = ws->files.len ? (int)ws->files.len : 1;
  Pool p = {ws, aopt, run, each, PTHREAD_MUTEX_INITIALIZER, 0, 0};
  pthread_t *tids = xcalloc((size_t)threads, sizeof *tids);
  int started = 0;
  for (int i = 1; i < threads; i++)
    if (pthread_create(&tids[started], NULL, ws__worker, &p) == 0) started++;
  ws__worker(&p); /* the calling thread works too */
  for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
  free(tids);
  pthread_mutex_destroy(&p.lock);
}

int ws_analyze(Workspace *ws, const AnalyzeOptions *aopt, const WsRun *run) {
  static const WsRun none = {0};
  if (!run) run = &none;
  if (run->cache) run->cache->analyzed = run->cache->reused = 0;
  ws__pool(ws, aopt, run, ws__analyze_one);
  for (size_t i = 0; i < ws->files.len; i++)
    if (ws->files.items[i].note) ws__note(ws, ws->files.items[i].path, ws->files.items[i].note);
  return run->cancel && atomic_load(run->cancel) ? -ECANCELED : 0;
}

void ws_free(Workspace *ws) {
  for (size_t i = 0; i < ws->files.len; i++) {
    WsFile *f = &ws->files.items[i];
    free(f->path);
    free(f->abs);
    free(f->rel);
    free(f->npu_sibling);
    free(f->note);
    findings_free(&f->findings);
    analyze_facts_free(&f->facts);
  }
  array_free(&ws->files);
  for (size_t i = 0; i < ws->readmes.len; i++) {
    free(ws->readmes.items[i].rel);
    free(ws->readmes.items[i].abs);
    free(ws->readmes.items[i].text);
  }
  array_free(&ws->readmes);
  for (size_t i = 0; i < ws->configs.len; i++) {
    WsConfig *c = &ws->configs.items[i];
    free(c->path);
    free(c->abs);
    free(c->rel);
    free(c->targets);
  }
  array_free(&ws->configs);
  for (size_t i = 0; i < ws->notes.len; i++) free(ws->notes.items[i]);
  array_free(&ws->notes);
  free(ws->root);
  ws->root = NULL;
}

static void ws__hash_list(DcHasher *h, const char *const *l, size_t n) {
  dc_hash_u64(h, n);
  for (size_t i = 0; i < n; i++) dc_hash_str(h, l[i]);
}

DcKey ws_scan_identity(const AnalyzeOptions *o, const char *const *paths, size_t n) {
  DcHasher h;
  dc_hash_init(&h);
  DcKey build = dc_build_id();
  dc_hash_u64(&h, build.lo);
  dc_hash_u64(&h, build.hi);
  dc_hash_u64(&h, o->chip);
  dc_hash_str(&h, o->torch_npu);
  dc_hash_u64(&h, (uint64_t)o->mindiesd << 1 | o->report_unused_noqa);
  ws__hash_list(&h, o->select, o->n_select);
  ws__hash_list(&h, o->ignore, o->n_ignore);
  for (size_t i = 0; i < o->n_user_rules; i++) {
    const KbRule *r = &o->user_rules[i];
    const char *strs[] = {r->code, r->name, r->title_en, r->title_zh, r->msg_en, r->msg_zh};
    ws__hash_list(&h, strs, 6);
    dc_hash_u64(&h, (uint64_t)r->severity << 32 | (uint64_t)r->effort << 16 | r->dep_class);
  }
  for (size_t i = 0; i < o->n_user_entries; i++) {
    const KbEntry *e = &o->user_entries[i];
    const char *strs[] = {e->code, e->pattern, e->arg, e->value, e->replacement, e->fix_from, e->fix_to,
                          e->msg_en, e->msg_zh};
    ws__hash_list(&h, strs, 9);
    dc_hash_u64(&h, (uint64_t)e->match << 32 | (uint64_t)e->confidence << 24 | (uint64_t)e->fix_kind << 16 |
                        (uint64_t)e->fix_safety << 8 | e->chips);
  }
  for (size_t i = 0; i < n; i++) {
    char *real = realpath(paths[i], NULL);
    dc_hash_str(&h, real ? real : paths[i]);
    free(real);
  }
  return dc_hash_final(&h);
}

char *ws_project_relative(const char *path) {
  char buf[PATH_MAX];
  if (!realpath(path, buf)) {
    const char *b = strrchr(path, '/');
    return xstrdup(b ? b + 1 : path);
  }
  static const char *const markers[] = {".git", "pyproject.toml", "setup.py", "setup.cfg"};
  for (char *slash = strrchr(buf, '/'); slash && slash > buf; slash = memrchr(buf, '/', (size_t)(slash - buf))) {
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
      char *probe = xasprintf("%.*s/%s", (int)(slash - buf), buf, markers[i]);
      bool found = access(probe, F_OK) == 0;
      free(probe);
      if (found) return xstrdup(slash + 1);
    }
  }
  const char *b = strrchr(buf, '/');
  return xstrdup(b ? b + 1 : buf);
}

char *ws_npu_sibling(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (!util_ends_with(base, ".py")) return NULL;
  static const char *const names[] = {"cuda", "gpu", "CUDA", "GPU"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const char *hit = strstr(base, names[i]);
    if (!hit) continue;
    char *sib = xasprintf("%.*s%s%s", (int)(hit - base), base, islower((unsigned char)names[i][0]) ? "npu" : "NPU",
                          hit + strlen(names[i]));
    char *probe = xasprintf("%.*s%s", (int)(base - path), path, sib);
    bool found = access(probe, F_OK) == 0;
    free(probe);
    if (found) return sib;
    free(sib);
  }
  return NULL;
}

/* ---- across files ------------------------------------------------------------ */

FoldOutcome *ws_project_fold(Workspace *ws, const AnalyzeOptions *aopt, bool replay) {
  FoldFile *ff = xcalloc(ws->files.len + 1, sizeof *ff);
  for (size_t i = 0; i < ws->files.len; i++) {
    WsFile *f = &ws->files.items[i];
    ff[i] = (FoldFile){replay ? f->abs : f->path, f->abs, f->kind, context_is_test_path(f->rel ? f->rel : f->path),
                       &f->findings, &f->facts, f->rel};
  }
  FoldOutcome *o = replay ? fold_outcome_begin(ff, ws->files.len) : NULL;
  fold_project(ff, ws->files.len, aopt);
  fold_outcome_end(o, ff, ws->files.len);
  free(ff);
  return o;
}

/* ---- project model ----------------------------------------------------------- */

static bool ws__launcher(const WsFile *f) {
  const char *b = strrchr(f->path, '/');
  b = b ? b + 1 : f->path;
  return f->kind == FILE_SHELL || f->kind == FILE_PYPROJECT || f->kind == FILE_SETUP_CFG || strcmp(b, "setup.py") == 0;
}

static int ws__strcmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The README.md files of the folders holding Python files and of the
 * folders above them up to their project's top, as "rel\tabs" lines
 * sorted and unique (ws__readmes keeps those that can be read). */
static void ws__readme_paths(const Workspace *ws, StrList *out) {
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *f = &ws->files.items[i];
    const char *rel = f->rel ? f->rel : f->path;
    size_t rl = strlen(rel), al = strlen(f->abs);
    if (f->kind != FILE_PYTHON || al < rl || strcmp(f->abs + al - rl, rel) != 0) continue;
    size_t top = al - rl; /* abs = its project's top + rel */
    for (size_t d = rl; d-- > 0;) {
      if (rel[d] != '/') continue;
      array_push(out, xasprintf("%.*s/README.md\t%.*s/README.md", (int)d, rel, (int)(top + d), f->abs));
    }
    array_push(out, xasprintf("README.md\t%.*sREADME.md", (int)top, f->abs));
  }
  if (out->len) qsort(out->items, out->len, sizeof *out->items, ws__strcmp);
  size_t w = 0;
  for (size_t i = 0; i < out->len; i++) {
    if (w && strcmp(out->items[w - 1], out->items[i]) == 0) free(out->items[i]);
    else out->items[w++] = out->items[i];
  }
  out->len = w;
}

/* The README.md files ws__readme_paths lists that can be read, read the
 * first time they are asked for (the project key and the model both want
 * them). */
static const WsReadme *ws__readmes(Workspace *ws, size_t *n) {
  if (!ws->readmes_read) {
    ws->readmes_read = true;
    StrList paths = {0};
    ws__readme_paths(ws, &paths);
    for (size_t i = 0; i < paths.len; i++) {
      char *tab = strchr(paths.items[i], '\t');
      WsReadme r = {NULL, NULL, NULL, 0};
      *tab = '\0';
      if (util_read_file(tab + 1, WS_DEFAULT_MAX_FILE, &r.text, &r.len) != 0) continue;
      r.rel = xstrdup(paths.items[i]);
      r.abs = xstrdup(tab + 1);
      array_push(&ws->readmes, r);
    }
    strlist_free(&paths);
  }
  *n = ws->readmes.len;
  return ws->readmes.items;
}

Model *ws_model_build(Workspace *ws, bool abs_ids, bool take_facts) {
  Model *m = model_new();
  for (size_t i = 0; i < ws->files.len; i++) {
    WsFile *f = &ws->files.items[i];
    const char *id = abs_ids ? f->abs : f->path;
    if (f->kind == FILE_PYTHON && f->facts.py && take_facts) model_take_module(m, id, f->rel ? f->rel : f->path, &f->facts, &f->findings);
    else if (f->kind == FILE_PYTHON && f->facts.py) model_set_module(m, id, f->rel ? f->rel : f->path, &f->facts, &f->findings);
    if (!ws__launcher(f)) continue;
    char *text = NULL;
    size_t len = 0;
    if (util_read_file(f->abs, WS_DEFAULT_MAX_FILE, &text, &len) != 0) continue; /* vanished: no entry points */
    model_set_launcher(m, id, f->rel ? f->rel : f->path, text, len);
    free(text);
  }
  for (size_t i = 0; i < ws->configs.len; i++) {
    const WsConfig *c = &ws->configs.items[i];
    model_set_config(m, abs_ids ? c->abs : c->path, c->rel, c->targets);
  }
  size_t n_readmes;
  const WsReadme *readmes = ws__readmes(ws, &n_readmes);
  for (size_t i = 0; i < n_readmes; i++)
    model_set_readme(m, abs_ids ? readmes[i].abs : readmes[i].rel, readmes[i].rel, readmes[i].text, readmes[i].len);
  model_link(m);
  return m;
}

void ws_model_apply(Workspace *ws, Model *m, bool abs_ids, const AnalyzeOptions *aopt, WsFilterFn filter,
                    void *filter_data) {
  for (size_t i = 0; i < ws->files.len; i++) {
    WsFile *f = &ws->files.items[i];
    if (f->kind != FILE_PYTHON) continue; /* a module the model does not know is left as it is */
    findings_free(&f->facts.chains);
    model_local_chains(m, abs_ids ? f->abs : f->path, aopt, &f->findings, &f->facts.chains);
    model_apply(m, abs_ids ? f->abs : f->path, aopt, &f->findings);
    if (filter) filter(filter_data, f->path, &f->findings);
  }
}

/* ---- the project's outcome through the disk cache ------------------------------ */

/* A deferred disk hit decoded (and recorded for the next save); one that
 * does not decode is analyzed from the file again. */
static void ws__decode_pending(Pool *p, WsFile *f) {
  const char *data = f->pending;
  f->pending = NULL;
  if (!data) return;
  if (rc_decode(data, f->pending_len, p->aopt, &f->findings, &f->facts) == 0) {
    dc_note_hit(p->run->disk);
    dc_record_file(p->run->disk, f->path, f->deps, &f->stamp, f->text, data, f->pending_len);
    return;
  }
  WsRun again = *p->run;
  again.defer = false;
  Pool one = *p;
  one.run = &again;
  ws__analyze_one(&one, f);
}

/* What the project's outcome depends on: every file's path and results
 * (or why it was not analyzed), the text of the files the model reads
 * itself (launchers: their entry points) and the configurations' targets
 * with their paths. Keyed by results, not texts, an
 * edit that changes no file's results (a comment, a blank line at the end)
 * finds the project's outcome of the run before (an early cutoff). */
static DcKey ws__project_key(Workspace *ws) {
  DcHasher h;
  dc_hash_init(&h);
  dc_hash_u64(&h, ws->files.len);
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *f = &ws->files.items[i];
    DcKey k = ws__launcher(f) ? f->deps : f->outcome;
    dc_hash_str(&h, f->path);
    dc_hash_str(&h, f->note);
    dc_hash_u64(&h, k.lo);
    dc_hash_u64(&h, k.hi);
  }
  dc_hash_u64(&h, ws->configs.len);
  for (size_t i = 0; i < ws->configs.len; i++) { /* what the model reads of them: their targets */
    dc_hash_str(&h, ws->configs.items[i].path);
    dc_hash_str(&h, ws->configs.items[i].targets);
  }
  size_t n_readmes; /* the model and the project's folds read them */
  const WsReadme *readmes = ws__readmes(ws, &n_readmes);
  for (size_t i = 0; i < n_readmes; i++) {
    dc_hash_str(&h, readmes[i].rel);
    dc_hash_bytes(&h, readmes[i].text, readmes[i].len);
  }
  return dc_hash_final(&h);
}

#define WS_PROJECT_ENTRY "" /* no file has an empty path */

/* Every file's final findings and facts (without facts.py and the reach
 * facts, which only the project phase reads), in file order. */
static void ws__project_put(const Workspace *ws, DiskCache *disk, DcKey key) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *f = &ws->files.items[i];
    FileFacts view = f->facts;
    view.py = NULL;
    view.reach = NULL;
    rc_encode(&f->findings, &view, &sb); /* one after another (rc_decode_next) */
  }
  dc_record(disk, WS_PROJECT_ENTRY, key, sb.data, sb.len);
  sb_free(&sb);
}

/* The stored outcome into ws's files (the deferred hits recorded as they
 * are); false, with nothing changed, when there is none for key or it does
 * not decode. */
static bool ws__project_get(Workspace *ws, DiskCache *disk, DcKey key, const AnalyzeOptions *aopt) {
  const char *data, *at;
  size_t len, left;
  if (!dc_lookup(disk, WS_PROJECT_ENTRY, key, &data, &len)) return false;
  FindingList *found = xcalloc(ws->files.len + 1, sizeof *found);
  FileFacts *facts = xcalloc(ws->files.len + 1, sizeof *facts);
  size_t i = 0;
  at = data;
  left = len;
  while (i < ws->files.len && rc_decode_next(&at, &left, aopt, &found[i], &facts[i]) == 0) i++;
  bool ok = i == ws->files.len && left == 0;
  for (size_t k = 0; k < ws->files.len && ok; k++) {
    WsFile *f = &ws->files.items[k];
    uint32_t lines = f->facts.lines; /* the header is this run's (ws__outcome leaves it out) */
    if (f->pending) rc_header(f->pending, f->pending_len, &lines);
    findings_free(&f->findings);
    analyze_facts_free(&f->facts);
    f->findings = found[k];
    f->facts = facts[k];
    f->facts.lines = lines;
    if (f->pending) {
      dc_note_hit(disk);
      dc_record_file(disk, f->path, f->deps, &f->stamp, f->text, f->pending, f->pending_len);
      f->pending = NULL;
    }
  }
  for (size_t k = 0; k < i && !ok; k++) {
    findings_free(&found[k]);
    analyze_facts_free(&facts[k]);
  }
  free(found);
  free(facts);
  if (ok) dc_record(disk, WS_PROJECT_ENTRY, key, data, len);
  return ok;
}

int ws_analyze_project(Workspace *ws, const AnalyzeOptions *aopt, const WsRun *run, WsFilterFn filter,
                       void *filter_data) {
  WsRun r = *run;
  r.defer = run->disk && !run->cache;
  int rc = ws_analyze(ws, aopt, &r);
  DcKey key = ws__project_key(ws);
  if (rc == 0 && r.defer && ws__project_get(ws, run->disk, key, aopt)) return 1;
  if (r.defer) ws__pool(ws, aopt, &r, ws__decode_pending);
  if (rc != 0) return rc;
  ws_project_fold(ws, aopt, false);
  for (size_t i = 0; i < ws->files.len; i++) { /* read by the folds only: not kept through the model */
    reach_facts_free(ws->files.items[i].facts.reach);
    ws->files.items[i].facts.reach = NULL;
  }
  Model *m = ws_model_build(ws, false, true);
  ws_model_apply(ws, m, false, aopt, filter, filter_data);
  model_free(m);
  if (run->disk) ws__project_put(ws, run->disk, key);
  return 0;
}
