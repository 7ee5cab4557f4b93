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

#include "analyzers/engine/analyze.h"

/* Folds ctx's file's findings in `l` in place (l is owned by the caller;
 * folded findings are freed). Byte ranges must be set and rows computed;
 * the caller computes the columns of related locations afterwards. */
void fold_findings(const AnalyzeCtx *ctx, FindingList *l);

#endif
