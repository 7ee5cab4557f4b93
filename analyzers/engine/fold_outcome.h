/* fold_outcome: what fold_project did to each file, kept so that it can be
 * done again to a later analysis of one file.
 *
 * The language server analyzes open documents one at a time, while the
 * folds across files (fold.h, fold_project) need the whole project: they
 * run in the background build, over the workspace's findings. The outcome
 * records, per file, which findings fold_project folded into another
 * file's finding (dropped here), which it marked unreachable (with the
 * note it added) and which received sites of other files (the related
 * locations and the severity they brought). fold_outcome_apply replays
 * that on a fresh finding list of the same file, so an open document shows
 * what `check` shows for it.
 *
 * A finding is known by its rule code, its subject and its rank among the
 * file's findings with the same code and subject, not by its position:
 * edits elsewhere in the document keep it. A finding the build did not see
 * (new code) is left alone; the outcome is that of the last build.
 *
 * Ownership: a FoldOutcome owns copies of everything it keeps; the files
 * passed in are borrowed for the call. Free with fold_outcome_free. */
#ifndef ASC_FOLD_OUTCOME_H
#define ASC_FOLD_OUTCOME_H

#include "analyzers/engine/fold.h"

typedef struct FoldOutcome FoldOutcome;

/* Call with the files just before fold_project(files, n, ...) ... */
FoldOutcome *fold_outcome_begin(const FoldFile *files, size_t n);
/* ... and with the same files just after it. The outcome knows each file
 * by `path` of its FoldFile. */
void fold_outcome_end(FoldOutcome *o, const FoldFile *files, size_t n);

/* Replays the outcome for the file known as `path` on l (its findings
 * after analysis, owned by the caller). Returns whether it changed l. A
 * NULL outcome changes nothing. */
bool fold_outcome_apply(const FoldOutcome *o, const char *path, FindingList *l);

/* Whether the outcome changes findings of the file known as `path` (for a
 * server that re-analyzes those open documents when a new outcome arrives). */
bool fold_outcome_has(const FoldOutcome *o, const char *path);

void fold_outcome_free(FoldOutcome *o);

#endif
