/* model: the project model shared by the CLI, the report and the language
 * server. Its modules are the project's Python files (with their per-file
 * facts, pyfacts.h, and the CUDA-only constructs their analysis found);
 * from them it links
 *
 *  - the import graph: absolute, relative and `from pkg import name`
 *    imports resolved to modules and definitions, re-exports in
 *    `__init__.py` followed, `import *` searched, imports that cannot be
 *    resolved inside the project recorded as such (a missing project
 *    module makes the importing file unimportable; a third-party one is
 *    unknown, not missing; an import under `if TYPE_CHECKING:` loads
 *    nothing, and in a library copy it binds its name lazily: importing
 *    the name loads its module);
 *  - the call graph: calls through imported names, module attributes
 *    (`utils.get_device()`), local names, `self.method()` and
 *    `super().method()` (through the project's base classes);
 *  - a summary per top-level function, class and method: the first
 *    unguarded CUDA-only construct it reaches and the chain to it, found by
 *    a worklist fixpoint (no recursion), so a wrapper of a wrapper is a
 *    wrapper; a class needs CUDA when its constructor, forward or a base
 *    class does;
 *  - reachability: entry points (scripts, `__main__` blocks of modules the
 *    project does not import, console scripts and shell launchers, the
 *    public names of importable packages but not of a project's copy of a
 *    third-party library (the "vendored-packages" row), definitions a decorator may
 *    register (not plain wrappers such as @triton.jit: the
 *    "plain-decorators" row) and test code) and the names reachable code
 *    mentions decide what runs; a definition a later one of its name
 *    replaces never does; the rest is reported with the reason.
 *
 * model_apply turns this into findings of one file: a finding at every call
 * or import of a project name that needs CUDA (rules ASC801-ASC803, with
 * the chain and related locations), and every finding in code that never
 * runs lowered to a hint marked unreachable. Such a finding's related
 * locations are the chain: the definitions on the way (the first hops and
 * the holder of the construct when it is long), each message starting with
 * the definition's label and a blank ("flash_attention() calls ...",
 * "Block uses Block.forward()", "norm() holds the CUDA-only construct"),
 * then the construct itself; its scope is the definition holding the call
 * (the report's blast radius reads both).
 *
 * Updates are incremental: a module is kept with digests of its input and
 * of its shape (what other modules' links read of it: definitions,
 * imports); model_link relinks only what changed (see model_link), and the
 * result is the same as a model built from scratch over the same modules
 * (tests/unit/test-model.c checks it over random edit scripts). Not
 * thread-safe: one model is used by one thread at a time (the server hands
 * it to a worker thread to link and takes it back). Ownership: a Model owns
 * copies of everything it is given (names are interned in it once, so a
 * long session keeps every name it has seen); free with model_free. */
#ifndef ASC_MODEL_H
#define ASC_MODEL_H

#include "analyzers/engine/analyze.h"

#include <stdatomic.h>

typedef struct Model Model;

Model *model_new(void);
void model_free(Model *m);

/* Adds or replaces the module with this id. `id` names the file in
 * findings' related locations (a display path for the CLI, an absolute path
 * for the server); `rel` is its path inside the project ("pkg/mod.py"),
 * which gives its dotted module name; `facts` (may be NULL: not Python or
 * not parsed) and `findings` (the file's own analysis) are copied. */
void model_set_module(Model *m, const char *id, const char *rel, const FileFacts *facts, const FindingList *findings);
/* The same, taking ownership of facts->py (set to NULL): no copy of the
 * largest part of a file's facts when the caller has no further use. */
void model_take_module(Model *m, const char *id, const char *rel, FileFacts *facts, const FindingList *findings);
/* Whether a change is waiting for model_link. model_set_module leaves the
 * model clean when the module's facts and constructs are the ones it has. */
bool model_is_dirty(const Model *m);
/* Forgets a module (the file was deleted). No-op when unknown. */
void model_remove_module(Model *m, const char *id);
/* Forgets the module, launcher or configuration `path` and every one whose
 * id is under the folder `path` (a deleted or renamed folder). */
void model_remove_under(Model *m, const char *path);
/* A launcher or packaging file (shell script, pyproject.toml, setup.py,
 * setup.cfg) with its path in its project (`rel`, NULL: the id): its text
 * (copied; NULL removes it) names entry points (`python -m pkg.mod`,
 * `python path/x.py`, `pkg.mod:func`), and the packaging files at the top
 * say whether the project's packages are a library. */
void model_set_launcher(Model *m, const char *id, const char *rel, const char *text, size_t len);
/* A README.md with its path in its project (copied; NULL removes it): it
 * launches nothing, but a command-line module of a package it names stays
 * an entry point where launchers run only its siblings. */
void model_set_readme(Model *m, const char *id, const char *rel, const char *text, size_t len);
/* A configuration file (targets.h) with its path in its project: the
 * dotted names it gives code by (`target: pkg.mod.Class`, as targets_scan
 * returns them: one per line; copied; NULL removes it). When the
 * configurations name project code, a computed import
 * (`importlib.import_module` over a configuration's string) loads the
 * modules they name and the definitions named are entry points, instead of
 * every module of the importer's top folder loading with its public names.
 * The same targets again change nothing. */
void model_set_config(Model *m, const char *id, const char *rel, const char *targets);

/* Relinks after changes (imports, calls, summaries, reachability). Called by
 * model_apply when needed; explicit calls make timing predictable. A change
 * of module bodies only (the same definitions and imports) relinks the
 * calls of the changed modules and runs the summary fixpoint and
 * reachability again (linear, on interned names); a module added or
 * removed, a changed definition or import or launcher relinks the whole
 * model. */
void model_link(Model *m);
/* The same on another thread than the model's user (the model is not
 * touched by anyone else meanwhile): returns false when *cancel was set
 * before it finished; the model is then left dirty and consistent (the
 * next link is whole). */
bool model_link_cancellable(Model *m, const atomic_int *cancel);

/* Adds the model's findings for module `id` to out (out holds that file's
 * own analysis) and lowers findings in unreachable code to unreachable
 * hints. Codes not selected by opt are not added. No-op for an unknown id. */
void model_apply(Model *m, const char *id, const AnalyzeOptions *opt, FindingList *out);

/* The call sites of module `id` that reach a CUDA-only construct through
 * definitions of the same module, in code that runs, added to out as
 * findings of model_apply's rules: not reported (in the wrapper's own file
 * the construct is in sight), but the report's blast radius lists them.
 * `own` is the file's analysis (a call one of its findings covers is left
 * out). No-op for an unknown id. */
void model_local_chains(Model *m, const char *id, const AnalyzeOptions *opt, const FindingList *own, FindingList *out);

/* A digest of what model_apply does to module `id`'s findings: the
 * call-site and import findings it adds (messages, related locations) and
 * what decides the unreachable hints (its definitions' reachability, its
 * broken reason, whether its `__main__` block runs). Equal digests before
 * and after a change: the module's diagnostics did not change, it need not
 * be analyzed again. 0 for an unknown module. */
uint64_t model_view_digest(Model *m, const char *id, const AnalyzeOptions *opt);

/* Statistics of the last link. */
typedef struct {
  size_t modules, defs, calls, resolved_calls, needs_cuda, unreachable_defs, broken_modules;
} ModelStats;
void model_stats(const Model *m, ModelStats *st);

/* The chain of the call or import at byte `at` of module `id` (the text
 * model_apply puts in its finding's message), or NULL. Caller frees. */
char *model_chain_at(Model *m, const char *id, uint32_t at);

/* Whether module `to` (an id) is reachable from module `from` through
 * resolved imports (the report's phase and blast-radius query). */
bool model_imports_reach(Model *m, const char *from, const char *to);

#endif
