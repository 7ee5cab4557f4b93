/* workspace: finds the analyzable files under a set of paths and analyzes
 * them on a pool of threads.
 *
 * Walking skips version-control, build and virtualenv directories
 * (.git, build, dist, node_modules, venv/.venv/env with pyvenv.cfg,
 * __pycache__, .tox, site-packages, ...) and the configured excludes,
 * detects symlink loops (a directory already visited, by device and inode)
 * and skips files over the size limit; each skip is recorded as a note.
 * Nothing is executed.
 *
 * Ownership: a Workspace owns every WsFile, its strings and findings; free
 * with ws_free. The overlay callback lets the language server substitute
 * the text of open documents: it returns a heap copy the workspace frees. */
#ifndef ASC_WORKSPACE_H
#define ASC_WORKSPACE_H

#include <stdatomic.h>
#include "analyzers/engine/analyze.h"
#include "server/diskcache.h"

#define WS_DEFAULT_MAX_FILE ((size_t)8 << 20) /* 8 MiB */
#define WS_ELF_HEAD ((size_t)8 << 20)         /* bytes of a shared library read for its headers */

typedef struct {
  char *path;      /* relative to the root it was found under ("a/b.py"), or as given */
  char *abs;       /* path to open */
  char *rel;       /* path inside its project, what analyzers see (tests/ means the project's tests) */
  char *npu_sibling; /* the NPU twin beside a CUDA Python file (ws_npu_sibling), or NULL */
  FileKind kind;
  FindingList findings;
  FileFacts facts;
  uint64_t hash;   /* FNV-1a of the analyzed text (with a WsCache only) */
  size_t bytes;
  char *note;      /* why it was not analyzed, or NULL */
  DcKey deps;      /* with a disk cache: what the file's results depend on (zero without) */
  DcStamp stamp;   /* with a disk cache: the file's stamp taken before it was read (zero: none) */
  DcKey text;      /* with a disk cache: the digest of its text */
  DcKey outcome;   /* with a disk cache: the digest of its encoded results (what the project
                      phase reads of it), so an edit that changes no result reuses the project's */
  const char *pending; size_t pending_len; /* ws_analyze_project: the disk cache's results,
                      not decoded yet (borrowed from the DiskCache), or NULL */
} WsFile;

/* A configuration file the walk found that names code: read once, when
 * found; what the project model takes of it. */
typedef struct {
  char *path, *abs, *rel; /* as WsFile's */
  char *targets;          /* targets_scan of its text (never NULL: files naming nothing are not kept) */
} WsConfig;

/* A README.md of a folder holding Python files (or of one above it, up to
 * its project's top): what the project model and the project key read. */
typedef struct {
  char *rel, *abs, *text;
  size_t len;
} WsReadme;

typedef struct {
  char *root;            /* the directory paths are relative to */
  bool under_root;       /* paths are relative to root (one directory was scanned); else
                            they are complete, as given or prefixed by their argument */
  Array(WsFile) files;   /* sorted by path */
  Array(char *) notes;   /* skipped entries, "path: reason" */
  Array(WsConfig) configs; /* configuration files that name code (targets.h), sorted by path */
  Array(WsReadme) readmes; /* read once, on first use (workspace.c ws__readmes), owned */
  bool readmes_read;
} Workspace;

typedef struct {
  const char *const *exclude; size_t n_exclude; /* globs on relative paths or names */
  size_t max_file;       /* 0 = WS_DEFAULT_MAX_FILE */
} WsOptions;

/* Progress: called from the analyzing threads (serialized by the pool) with
 * files done and total. */
typedef void (*WsProgressFn)(void *data, size_t done, size_t total);
/* Overlay: heap copy of an open document's text for abs path, or NULL. */
typedef char *(*WsOverlayFn)(void *data, const char *abs, size_t *len);

/* Per-file ignores: the codes the project silences in `path` (absolute), as
 * a heap array the caller frees (strings borrowed from data), or NULL with
 * *n = 0. Called on an analyzing thread; the analysis applies them. */
typedef const char **(*WsIgnoresFn)(void *data, const char *path, size_t *n);
/* Filter of the findings the project model adds to a file (the per-file
 * ignores again); may remove (and must then free) findings. */
typedef void (*WsFilterFn)(void *data, const char *path, FindingList *findings);

/* A content-hash cache of per-file results, kept by a long-lived caller
 * (the language server) across scans: a file whose path, text hash and
 * options generation are unchanged is not analyzed again. Thread-safe.
 * Owns copies of everything it stores; free with ws_cache_free. */
typedef struct WsCache WsCache;
WsCache *ws_cache_new(void);
void ws_cache_free(WsCache *c);
/* Forget everything (e.g. when the options change). */
void ws_cache_clear(WsCache *c);
/* Files analyzed and files served from the cache by the last scan. */
void ws_cache_stats(const WsCache *c, size_t *analyzed, size_t *reused);

typedef struct {
  int threads;           /* 0 = number of cores */
  WsCache *cache;        /* optional */
  DiskCache *disk;       /* optional: results from and for earlier runs (the CLI) */
  WsIgnoresFn ignores; void *ignores_data;
  WsProgressFn progress; void *progress_data;
  WsOverlayFn overlay; void *overlay_data;
  const atomic_int *cancel; /* nonzero: stop as soon as possible */
  bool defer;            /* set by ws_analyze_project (never with a cache): disk hits stay encoded (WsFile.pending) */
} WsRun;

/* Collects files under each path (files are taken as given). Returns 0, or
 * -ENOENT when a path does not exist (the others are still collected). */
int ws_collect(Workspace *ws, const char *const *paths, size_t n, const WsOptions *opt) WARN_UNUSED;
/* Analyzes every collected file. Returns 0, or -ECANCELED. */
int ws_analyze(Workspace *ws, const AnalyzeOptions *aopt, const WsRun *run);
void ws_free(Workspace *ws);

uint64_t ws_hash(const char *text, size_t len);

/* The project model of an analyzed workspace (model.h): every Python file
 * as a module (id = its absolute path when `abs_ids`, else its path), the
 * shell scripts and packaging files as launchers and the folders' README.md
 * files (read from disk; one that cannot be read is left out). With `take_facts` the model takes each
 * file's facts.py (left NULL in ws). Caller frees with model_free. */
struct Model *ws_model_build(Workspace *ws, bool abs_ids, bool take_facts);
/* Adds the model's findings to every Python file of ws and marks its
 * unreachable ones (model_apply), then runs `filter` (may be NULL) on the
 * files it changed, like ws_analyze does. Each file's calls of its own
 * CUDA-only wrappers go to its facts.chains (model_local_chains). */
void ws_model_apply(Workspace *ws, struct Model *m, bool abs_ids, const AnalyzeOptions *aopt, WsFilterFn filter,
                    void *filter_data);
/* Everything a CLI run does to the files of a directory: ws_analyze, the
 * folds across files (ws_project_fold) and the project model
 * (ws_model_build, ws_model_apply with `filter`). With a disk cache, the
 * project's outcome (every file's final findings and facts, facts.py left
 * out) is kept under a digest of every file's dependencies (path, text,
 * NPU twin, per-file ignores) and of which files could not be analyzed: an
 * unchanged tree takes it from there and decodes no file's own results.
 * Returns 1 when the outcome came from the disk cache, 0 when it was
 * made, or -ECANCELED (then the results are incomplete). */
int ws_analyze_project(Workspace *ws, const AnalyzeOptions *aopt, const WsRun *run, WsFilterFn filter,
                       void *filter_data);
/* The identity of a scan for the disk cache: this build, everything in the
 * options that changes a finding (target, selection, user rules and rows),
 * and the scanned paths as the file system resolves them. */
DcKey ws_scan_identity(const AnalyzeOptions *aopt, const char *const *paths, size_t n);

/* The path of a file inside its project: relative to the nearest enclosing
 * directory holding .git, pyproject.toml, setup.py or setup.cfg, or just its
 * name when there is none (so that a parent folder named tests/ does not
 * make it test code). Caller frees. */
char *ws_project_relative(const char *path);

/* The folds across files (fold.h, fold_project) over the analyzed files'
 * findings, before the project model reads them. For a language server
 * (`replay`), files and the related sites folded in from them are named by
 * their absolute paths, as it names documents, and what the folds did is
 * returned to replay on later analyses of one file (fold_outcome.h; the
 * caller frees it with fold_outcome_free); else NULL. */
struct FoldOutcome *ws_project_fold(Workspace *ws, const AnalyzeOptions *aopt, bool replay);

/* For a Python file named for CUDA or the GPU (cuda_accelerator.py,
 * gpu_utils.py): the name of the NPU version beside it (npu_accelerator.py)
 * when that file exists, else NULL. Caller frees. */
char *ws_npu_sibling(const char *path);

#endif
