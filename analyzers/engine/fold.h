/* fold: one finding per work item.
 *
 * The domain analyzers report every construct they match; a porting team
 * acts on fewer, larger items. fold_findings runs once per file, after
 * suppression, and merges the findings that are one piece of work into one
 * finding whose related locations (finding.h, Related) list the sites it
 * absorbed, and whose fix carries every edit of those sites:
 *
 *  - a C/C++ finding inside the range of another of the same domain (the
 *    stream argument of a <<<...>>> launch) belongs to the outer one;
 *  - findings of one KB row (or one detector subject) in one statement or on
 *    one line are one construct repeated (`assert a.is_cuda and b.is_cuda`);
 *  - the launches of one host function (the cases of a dispatch switch) are
 *    one dispatch, reported at the switch (or the function) with its cases;
 *  - CUDA runtime / library calls of one row in one function are one item;
 *  - the CUDA internals of a C/C++ source (headers, device-library
 *    includes, device checks, stream and context calls; runtime calls too
 *    when the file defines kernels) are one extension-level finding
 *    (ASC418).
 *
 * The messages of folded findings come from the KB_DETECTOR rows
 * "fold-dispatch" and "fold-internals" (kb_kernels.def). */
#ifndef ASC_FOLD_H
#define ASC_FOLD_H

#include "analyzers/engine/context.h"
#include "analyzers/engine/analyze.h"

/* One file of a project for fold_project. All pointers are borrowed for
 * the call; `findings` is changed in place (folded findings are freed). */
typedef struct {
  const char *path;         /* as the findings' output names it (Related.path of its sites elsewhere) */
  const char *abs;          /* where to read its text */
  FileKind kind;
  bool test;                /* test or benchmark code (its path inside the project) */
  FindingList *findings;
  const FileFacts *facts;   /* may be NULL; facts->py may be NULL */
  const char *rel;          /* its path inside the project ("pkg/mod.py"); NULL: `path` */
} FoldFile;

/* What is one work item across the files of a project, after each file's
 * own folds and before the project model reads the findings:
 *
 *  - a C/C++ launch (ASC402) of a kernel defined in a file it includes (a
 *    template instantiated in *_inst_*.cu files), with the file's internals
 *    and launch-configuration calls, is a related site of that kernel's
 *    finding (one finding per kernel family);
 *  - a header that defines no kernel and holds only internals (includes,
 *    device checks, runtime helpers) is part of the nearest kernel over
 *    the include graph: its findings become sites of that kernel's finding;
 *  - an attention or distributed library the project itself is (a
 *    top-level package of the project: `xfuser/__init__.py`, or under
 *    `src/`) is no dependency of it: findings naming it are dropped in
 *    every file (its scripts and examples too);
 *  - a construct of a "fold-per-project" rule (a custom op) used in
 *    several places is one item: its first use takes the others as
 *    related sites;
 *  - a package whose __init__.py registers it for CUDA devices only (the
 *    "cuda-only-registration" row: `devices=("cuda",)`), a project package
 *    only such packages load, and the tests that import them are never
 *    selected on the NPU: their findings become hints marked unreachable.
 *
 * Files are read from `abs` as needed (C/C++ sources and package inits). */
void fold_project(FoldFile *files, size_t n, const AnalyzeOptions *opt);

/* Whether a path names the NPU version by a directory or file word ("npu",
 * "ascend*": backends/_ascend/, npu/, *_npu.py). path borrowed. */
bool fold_npu_path(const char *path);

/* Whether a finding is still an item of work: not a hint, not unreachable. */
bool fold_live(const Finding *f);

/* Makes f a hint marked unreachable, with the note of `row` ({subject} =
 * subject, the reason). */
void fold_mark_unreachable(Finding *f, const KbEntry *row, const char *subject);

/* The same for every live finding of l past the dependency domain: what a
 * file that never runs (or is never built) asks of the port. */
void fold_mark_file_unreachable(FindingList *l, const KbEntry *row, const char *subject);

/* Whether path names a C/C++ header (.h, .cuh, .hpp, .hh, .hxx). */
bool fold_header_path(const char *path);

/* Folds ctx's file's findings in `l` in place (l is owned by the caller;
 * folded findings are freed). Byte ranges must be set and rows computed;
 * the caller computes the columns of related locations afterwards. */
void fold_findings(const AnalyzeCtx *ctx, FindingList *l);

#endif
