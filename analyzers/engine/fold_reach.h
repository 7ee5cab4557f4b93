/* fold_reach: C/C++ code that nothing in the project runs.
 *
 * A porting team ports what runs. In an extension's sources, a function or
 * kernel whose name nothing mentions (no call, pointer or binding, in
 * C/C++ or Python, other than from code that is itself dead) is dead: a
 * vendored leftover, a debug kernel, a wrapper whose only call is
 * commented out. So is code the preprocessor compiles out in its own file
 * (`#if 0`, `#if FLAG` after `#define FLAG 0`, and the `#else` of a true
 * condition). Their live findings (domains 2-9) become hints marked
 * unreachable with the reason (the "cxx-unreferenced" and
 * "cxx-compiled-out" rows), as the project model does for Python.
 *
 * Names decide, as in the Python model: a mention outside dead code keeps
 * every definition of that name alive (overloads, templates, methods
 * called through objects). A definition's own name and prototypes are no
 * mentions, comments are not either; strings and macro bodies are (a
 * binding may name a symbol in a string, a macro may call it). Functions
 * defined inside a class body, operators, destructors, `main` and
 * definitions named by a macro call in capitals (PYBIND11_MODULE,
 * TORCH_LIBRARY) are always alive, and so is everything they mention.
 * Never recurses over the trees. */
#ifndef ASC_FOLD_REACH_H
#define ASC_FOLD_REACH_H

#include "analyzers/engine/fold.h"

/* The text of C/C++ file i (borrowed), or NULL when it cannot be read. */
typedef const char *(*FoldTextFn)(void *data, size_t i, size_t *len);

/* Marks the dead C/C++ findings of files[0, n) in place, when some C/C++
 * file has live findings. Each file's reach facts come from its
 * FileFacts.reach; a file without them is scanned from its text (C/C++ from
 * cxx_text, fold_project's cache, which its include graph reads too;
 * Python read from `abs`). A file that cannot be read mentions nothing and
 * loses nothing. */
/* `optional` (per file, may be NULL): the optional Python modules
 * (fold_optional.h); a live definition only their words reach is a guarded
 * hint (the "optional-extension" row). */
void fold_reach_cxx(FoldFile *files, size_t n, const AnalyzeOptions *opt, const bool *optional, FoldTextFn cxx_text,
                    void *data);

#endif
