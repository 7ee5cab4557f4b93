/* fold_optional: project code that runs only when an optional import works.
 *
 * A kernel package often ships an accelerated path its users import behind
 * a fallback (`try: from extensions.kernels.cauchy import cauchy_mult
 * except ImportError: cauchy_mult = None`, then the naive or pykeops kernel):
 * on the NPU the import fails and the fallback runs, so that package's code
 * is nothing the port must change. A Python module of the project is
 * optional when something in the project imports it and every import of it
 * (outside tests) is guarded; a function imported inside another function
 * is no guarded import. The C/C++ reachability (fold_reach.h) then tells
 * the kernels only optional modules reach.
 *
 * Ownership: the returned array is the caller's (free()). */
#ifndef ASC_FOLD_OPTIONAL_H
#define ASC_FOLD_OPTIONAL_H

#include "analyzers/engine/fold.h"

/* Per file of files[0, n): whether it is an optional Python module; *any
 * tells whether one is. */
bool *fold_optional_modules(const FoldFile *files, size_t n, bool *any);

/* Lowers the live findings (domains 2-9) of the optional modules to hints
 * with the "optional-module" row's note ({subject}: the first guarded
 * import of it, "path:line"). */
void fold_optional_mark(FoldFile *files, size_t n, const bool *optional, const KbEntry *row);

#endif
