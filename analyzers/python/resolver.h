/* resolver: Python name resolution and file facts, built in one cursor walk.
 *
 * It records every import binding with its scope (module or the enclosing
 * function), so `import torch as th`, `from torch import cuda`,
 * `from torch.cuda.amp import autocast as ac` and function-local imports
 * all map local names to qualified names. resolver_qualname turns an
 * expression (identifier, attribute chain, or a call's function) into its
 * qualified name, e.g. `th.cuda.synchronize` -> "torch.cuda.synchronize".
 *
 * Facts collected in the same walk: guarded ranges (a try body whose handler
 * catches ImportError, or an if branch testing an availability flag),
 * inference-only ranges (no_grad / inference_mode), function definitions,
 * comments by row (for suppressions) and the insertion point for a new
 * import. Never recurses over the tree.
 *
 * Ownership: the TSTree and text are borrowed and must outlive it. PyFile
 * owns all its strings, except one pyfile_build_cached built with a cache
 * (`borrowed`): the names of its bindings, functions, classes and imports
 * are then the cache's statements', valid until that cache builds again or
 * is freed (its functions' class names and its comments stay its own).
 * Free with pyfile_free (either kind). */
#ifndef ASC_RESOLVER_H
#define ASC_RESOLVER_H

#include <tree_sitter/api.h>
#include "analyzers/engine/util.h"

typedef struct {
  char *local;        /* bound name, e.g. "th" (for `import a.b`, "a") */
  char *qualname;     /* what it denotes, e.g. "torch" or "torch.cuda.amp.autocast" */
  uint32_t scope_start, scope_end; /* byte range where the binding is visible */
  uint32_t def_byte;  /* where the import statement starts */
  uint32_t module_start, module_end; /* the dotted module name in the statement */
  uint32_t name_start, name_end;     /* the imported name (from-import) or 0,0 */
  bool from_import;
  bool module_scope;
} PyBinding;

typedef struct {
  char *name;
  uint32_t start, end;       /* whole definition, decorators included */
  uint32_t body_start;
  uint32_t start_row, end_row;
  char *class_name;          /* enclosing class or NULL */
  uint32_t outer;            /* index + 1 of the innermost function holding this one, 0: none */
} PyFunction;

typedef struct {
  char *name;
  uint32_t start, end;
} PyClass;

typedef struct {
  char *module;              /* imported module (absolute or with leading dots) */
  uint32_t row;
  uint32_t start;            /* the import statement's first byte */
  uint32_t column;           /* its byte column: 0 at the top level of the module */
} PyImport;

/* An import guard that is not one: `try: from x import f` / `except
 * ImportError: f = None`, then `f` used on the default path without a check
 * of it. Found by pyfile_required_fallbacks (fallback.c). */
typedef struct {
  uint32_t start, end;       /* the try body: no longer a guarded range */
  char *name;                /* the name set to None */
  uint32_t use_row;          /* 0-based row of its first unchecked use */
} PyRequired;

struct PyFile {
  const char *text;
  size_t len;
  const struct Forest *forest; /* the syntax (forest.h), borrowed */
  struct ForestPaths *paths; /* owned: the walks up asked of this version (forest_paths_up) */
  Array(PyBinding) bindings; /* in document order of their statements */
  uint64_t name_bloom[4];    /* bits of the bound local names: most lookups miss */
  /* Bindings by local name, so that a lookup visits only its name's: open
   * addressing on the name, each slot the first and last binding of a name
   * (index + 1, 0 = empty); next[i] is the binding after i with its name. */
  struct { uint32_t first, last; } *name_slots;
  size_t n_name_slots, n_names;
  Array(uint32_t) name_next;
  const char *eol;           /* the file's first line ending, "\n" when it has none */
  Array(ByteRange) guarded;
  Array(ByteRange) npu_aware; /* branches on a condition that names the NPU: already ported */
  Array(ByteRange) skip_conds; /* conditions of test-skip decorators: where a test runs, not code */
  Array(ByteRange) dead;     /* never runs with torch_npu: skipped tests, torch < 2 fallbacks, `if TYPE_CHECKING:` */
  Array(ByteRange) type_checking; /* `if TYPE_CHECKING:` bodies (dead too): their imports bind names lazily */
  Array(ByteRange) optin;    /* guarded by an opt-in flag (args.enable_x, USE_X), not by availability */
  /* The CUDA branch of an if that tests a CUDA device and has a fallback (`if
   * torch.cuda.is_available() and x.is_cuda: <here> else: <PyTorch path>`): the
   * NPU takes the fallback (the "cuda-device-gates" template). */
  Array(ByteRange) cuda_gated;
  /* What runs only where an optional package loaded: a guarded import's `try:` body, the branch
   * an availability test (not an opt-in flag) or a flag it sets opens, the operand a conditional
   * on such a flag picks. Unlike `guarded`, never the fallback beside it. */
  Array(ByteRange) optional_only;
  /* The assignments flags were derived from (`self.use_flash_attn = config.use_flash_attn and
   * has_flash_attn`), where a branch or a conditional tested them: a statement that read one in
   * another statement is walked again on the next version. */
  Array(ByteRange) flag_srcs;
  Array(ByteRange) inference;
  /* The left operand of `A and B` as a with item (`with torch.cuda.amp.autocast() and
   * torch.no_grad():`): `and` yields B, so A is built and never entered. */
  Array(ByteRange) unentered;
  /* Branches that run only when an option is on: the body of `if args.x:` (or of an `and` chain
   * holding it, `args.x > 0`, `args.x != 0`), the else of `if not args.x:`; option_names[i] is the
   * bytes of that branch's attribute (`x`). The object is a name other than self, or
   * `self.<name>` (`self.opt.x`). Whether x is an option off by default is the project's to say
   * (fold.c). */
  Array(ByteRange) option_gates;
  Array(ByteRange) option_names;
  /* The rest of a function after a statement that requires an optional
   * package (`assert FA3_ENABLED`, `if not HAS_X: raise`, the flag set in a
   * guarded `try:` import): `requires_at[i]` is that statement,
   * `requires_src[i]` the `try:` body that sets the flag. Whether the
   * package is absent on the NPU is the findings' to say (fold.c). */
  Array(ByteRange) requires;
  Array(ByteRange) requires_at;
  Array(ByteRange) requires_src;
  Array(ByteRange) main_blocks; /* `if __name__ == "__main__":` statements at the top level */
  Array(PyRequired) required; /* None-fallback imports used without a check (fallback.c) */
  Array(PyFunction) functions;
  Array(PyClass) classes;
  Array(PyImport) imports;   /* every import, for the project import graph */
  char **comments;           /* comments[row] = comment text on that row or NULL */
  size_t n_rows;
  uint32_t import_insert_byte; /* start of the line after the last top-level import */
  /* The first top-level import of torch or a torch submodule: torch_npu must
   * be imported before anything uses torch.npu, so its import goes right
   * after a plain `import torch` or else on the line before that import. */
  bool has_torch_import, torch_import_plain;
  uint32_t torch_import_line_start, torch_import_line_end;
  bool has_main_guard;       /* if __name__ == "__main__": */
  bool imports_torch_npu;
  bool transfer_to_npu;      /* torch_npu.contrib.transfer_to_npu imported */
  bool borrowed;             /* see Ownership above */
};
typedef struct PyFile PyFile;

/* Builds the facts of a parsed Python file. Caller frees with pyfile_free. */
PyFile *pyfile_build(const struct Forest *forest, const char *text, size_t len);
void pyfile_free(PyFile *py);

/* The walk's results of each top-level statement, kept between versions of
 * one document (a server's): pyfile_build_cached walks only the statements
 * whose text, or the guarded ranges and bindings before them, changed (a statement whose
 * walk found a flag set in another statement is always walked again), and
 * gives exactly what pyfile_build gives; the cache then holds this
 * version's statements. Owned by the caller: pyfile_cache_free. */
typedef struct PyFileCache PyFileCache;
PyFileCache *pyfile_cache_new(void);
void pyfile_cache_free(PyFileCache *c);
/* `n_lines`: the text's line count when the caller knows it (a break is
 * "\n", "\r\n" or a lone "\r"); 0: counted here. */
PyFile *pyfile_build_cached(const struct Forest *forest, const char *text, size_t len, PyFileCache *cache,
                            size_t n_lines);

/* Binding visible for `name` at byte `at`, innermost scope first; NULL if
 * the name is not bound by an import. Borrowed from py. */
const PyBinding *pyfile_lookup(const PyFile *py, const char *name, size_t name_len, uint32_t at);

/* Qualified name of an identifier / attribute chain (or of a call's
 * function). NULL when the base name is not imported. Caller frees. */
char *pyfile_qualname(const PyFile *py, TSNode expr);

/* The next identifier spelled `name` (n bytes) that starts in [*at, to), in
 * document order, and moves *at past it; a null node when there is none.
 * Words in comments and strings are not identifiers and never match. */
TSNode pyfile_next_name(const PyFile *py, const char *name, size_t n, uint32_t *at, uint32_t to);

/* Source text of a node. Caller frees. */
char *pyfile_node_text(const PyFile *py, TSNode n);

/* Whether a condition names the NPU (is_npu, "npu", torch_npu): code under
 * it already has an Ascend path. */
bool pyfile_is_npu_check(const PyFile *py, TSNode cond);

/* Whether a condition tests an availability flag (is_available(),
 * *_AVAILABLE, HAS_*, USE_*, ...): a branch on it is a guarded choice. */
bool pyfile_is_availability(const PyFile *py, TSNode cond);

bool pyfile_in_ranges(const ByteRange *r, size_t n, uint32_t at);
/* Whether tree-sitter row `row` holds an import statement: an import's
 * finding is about the import, not a use of what it imports. */
bool pyfile_import_row(const PyFile *py, uint32_t row);
/* The option the innermost option-gated branch holding byte `at` requires
 * (PyFile.option_gates), as a new string, or NULL. Caller frees. */
char *pyfile_option_at(const PyFile *py, uint32_t at);

/* Finds the try/except ImportError guards whose handler sets an imported
 * name to None while the name is used somewhere without a check of it
 * (`if f is not None:`, `f and f(x)`, an early `if f is None: raise`, a
 * flag assigned from `f is not None`): their try bodies stop being guarded
 * ranges and are recorded in py->required. Called by pyfile_build. */
void pyfile_required_fallbacks(PyFile *py);

/* Whether an ImportError handler of the guarded try statement whose body
 * holds byte `at` binds `name` again (to None or to a fallback definition):
 * a use of the name then has the fallback's path (fallback.c). */
bool pyfile_handler_rebinds(const PyFile *py, uint32_t at, const char *name);
/* Innermost function containing `at`, or NULL. */
const PyFunction *pyfile_function_at(const PyFile *py, uint32_t at);
/* pyfile_function_at for offsets mostly asked in ascending order (the calls
 * of a file, in order): *n (0 before the first) keeps how many functions
 * start at or before the last offset asked, so a sweep costs one pass. */
const PyFunction *pyfile_function_at_sweep(const PyFile *py, size_t *n, uint32_t at);
/* The function holding f (f nested in its body), or NULL. */
const PyFunction *pyfile_function_outer(const PyFile *py, const PyFunction *f);
/* The innermost class whose body holds byte `at`, or NULL. */
const PyClass *pyfile_class_at(const PyFile *py, uint32_t at);

#endif
