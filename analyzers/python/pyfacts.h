/* pyfacts: what the project model needs of one Python file, extracted from
 * the tree and the PyFile that analyze_text already builds, in one cursor
 * walk (never recursing over the tree).
 *
 * Definitions: top-level functions and classes, and the methods directly in
 * a top-level class body, each with its byte range (decorators included).
 * Nested functions and classes belong to the definition around them.
 * Calls: every call with its callee spelled the way the model resolves it
 * (through the file's imports when its base name is imported, `self.m`,
 * `super().m`, or the plain local name), the definition it is in, and
 * whether the call is guarded (a fallback exists), NPU-aware or dead there,
 * and the attribute of `self` it is assigned to in `__init__` (`self.attn =
 * Attention(dim)`: later `self.attn(x)` calls that class).
 * Names: every identifier and attribute name each definition (or the
 * module's own code, or its `if __name__ == "__main__":` block) mentions,
 * once per owner: what keeps other code alive when passed as a callback.
 * Module-level imports (with their guard state), `from m import *`,
 * `__all__`, the `__main__` block, literal `importlib.import_module` calls.
 *
 * Ownership: nothing is borrowed from the tree or the text once built. A
 * PyFacts owns all its strings, except one that pyfacts_build_cached joined
 * from a cache's statements (`borrowed`): the strings of its definitions,
 * calls, names and string lists (and the definitions' bases and parameter
 * arrays) are the cache's, valid until that cache builds again or is freed;
 * its imports, its gated imports and the dynamic imports after the first
 * `borrowed_dynamic` (a function's own imports, which the file's bindings
 * give) are its own. A
 * PyFacts decoded from the disk cache keeps every string in one block it
 * owns (`arena`): its strings are never freed or replaced one by one (the
 * project model's interning leaves them where they are). Free with pyfacts_free (any kind);
 * pyfacts_copy makes a deep copy that owns everything, its strings in one
 * block (`arena`) as decoded facts keep theirs (the caller frees it):
 * whoever keeps facts past the next build copies them. */
#ifndef ASC_PYFACTS_H
#define ASC_PYFACTS_H

#include "analyzers/python/resolver.h"

typedef enum { PYDEF_FUNCTION, PYDEF_CLASS, PYDEF_METHOD } PyDefKind;

/* A source position: byte offset, row, byte column and code-point column. */
typedef struct {
  uint32_t byte, row, col, chr;
} PyPos;

/* A parameter of a function or method that has a default: whoever calls
 * without it gets the default. */
typedef struct {
  char *name;          /* "device" */
  uint32_t index;      /* its position (self counts), PYPARAM_KEYWORD_ONLY after `*` */
  uint32_t dflt_start, dflt_end; /* the default expression */
  /* a None default's `if <name> is None:` statement directly in the body, what a
   * caller passing the parameter never runs (0, 0: none) */
  uint32_t none_start, none_end;
  /* a False default's first `if <name>:` statement directly in the body: its branch, what only a
   * caller passing the parameter runs (0, 0: none) */
  uint32_t on_start, on_end;
  bool off_default;    /* the default is a literal False: a switch callers turn on */
  char *attr;          /* in a method `__init__`, `self.<attr> = <name>` directly in its body: the
                          attribute that carries the parameter to the other methods; else NULL */
} PyParam;

/* A branch of a definition that runs only when a switch is on: the body of
 * `if <name>:`, `if self.<name>:` or `if <object>.<name>:` (`elif` too; the
 * switch may be one operand of an `and` chain: `if self.is_vllm and
 * sys.platform == "linux":`), anywhere in the definition. Whether the
 * switch is a parameter (or the attribute an `__init__` sets from one) is
 * the project's to say. */
typedef struct {
  char *name;          /* "use_vllm"; "gpt.is_vllm" for an attribute of another object than self */
  bool attr;           /* an attribute: `self.<name>` or `<object>.<name>` */
  bool self;           /* `self.<name>` in a method */
  uint32_t start, end; /* the branch's body */
} PyGate;

/* A function's own import inside a gate of its definition (listed in
 * dynamic_imports too): it loads the module only when the switch is on. */
typedef struct {
  char *module;        /* as dynamic_imports spells it */
  uint32_t at;         /* where it binds */
} PyGatedImport;

#define PYPARAM_KEYWORD_ONLY UINT32_MAX

typedef struct {
  char *name;          /* "flash_attention", "FusedRMSNorm", "forward" */
  PyDefKind kind;
  int32_t cls;         /* for a method: index of its class in defs; else -1 */
  uint32_t start, end; /* whole definition, decorators included */
  PyPos at;            /* its name */
  bool decorated;      /* a decorator that may run or register it (not a plain wrapper such as
                          @triton.jit or @staticmethod: the "plain-decorators" row) */
  Array(char *) bases; /* classes: base expressions spelled like callees (see PyCall.callee) */
  Array(PyParam) params; /* functions and methods: the parameters with a default */
} PyDef;

typedef enum {
  PYCALL_IMPORTED, /* callee = qualified name through the file's imports ("pkg.utils.get_device") */
  PYCALL_LOCAL,    /* callee = dotted name whose base is not imported ("helper", "Norm.build") */
  PYCALL_SELF,     /* callee = method name called as self.<name>(...) */
  PYCALL_SUPER,    /* callee = method name called as super().<name>(...) */
  PYCALL_MEMBER,   /* callee = `<local>.<name>` through a name the function binds itself
                      (`layer.init_gpu(...)` in `for layer in ...`): a method of an untyped
                      object, which resolves to no definition */
} PyCallKind;

/* Where a call's effect is cut off in its file. */
enum { PYCALL_GUARDED = 1u << 0, PYCALL_NPU_AWARE = 1u << 1, PYCALL_DEAD = 1u << 2 };
/* The call spreads arguments (`f(*args)`, `f(**kw)`): which parameters it passes is unknown. */
enum { PYCALL_SPREAD = 1u << 3 };
/* The call is in the CUDA branch of a device test with a fallback (PyFile.cuda_gated). */
enum { PYCALL_CUDA_GATED = 1u << 4 };
/* The call runs only where an optional package loaded (PyFile.optional_only): GUARDED too, but
 * never a call in the fallback beside the optional path. */
enum { PYCALL_OPTIONAL = 1u << 5 };

typedef struct {
  char *callee;
  PyCallKind kind;
  int32_t owner;       /* innermost definition holding the call, -1: module code */
  bool in_main;        /* inside the `__main__` block */
  unsigned flags;      /* PYCALL_* */
  PyPos start, end;    /* the callee expression */
  char *self_attr;     /* in a method `__init__`: `self.<self_attr> = <this call>`; else NULL */
  uint32_t n_pos;      /* positional arguments */
  char *keywords;      /* names of its keyword arguments whose value is not a literal None, each
                          followed by a blank ("device dtype "); NULL: none */
  char *gate;          /* the option the innermost enclosing branch requires on (PyFile.option_gates:
                          `x` of `if args.x:`), or NULL */
} PyCall;

/* A call that passes on switches of its owner by name: its keyword arguments
 * whose value is a parameter of the owner with a False default. Kept beside
 * the calls, by the callee's range, since few calls have any. */
typedef struct {
  uint32_t start, end; /* the callee expression (PyCall.start, .end) */
  char *pairs;         /* `kw=name ` each (`use_vllm=use_vllm `) */
} PyForward;

/* A module-level import binding (`import a.b as c`, `from .m import f`). */
typedef struct {
  char *local;         /* the bound name */
  char *qualname;      /* what it denotes; relative ones keep their leading dots */
  char *module;        /* the module named by the statement */
  bool from_import;
  bool guarded;        /* in a try/except ImportError or an availability branch */
  bool top;            /* the statement starts a line at column 0: it always runs */
  bool lazy;           /* under `if TYPE_CHECKING:` (or in code that never runs): binds the name for
                          readers and loads nothing when the module runs */
  PyPos start, end;    /* the imported name (or the module for `import m`) */
} PyFactImport;

/* A name mentioned by an owner (a definition index, or -1 module code, or
 * -2 the `__main__` block). `via`: the module-level import that binds the
 * name, or for an attribute (`dist.all_gather`) the one binding its base
 * (an index in imports), when every mention of the name by this owner goes
 * through it; -2 - index when the only mention is the import statement
 * itself (`from .blocks import LabelEmbedder`, never used); -1 otherwise. A
 * name reached through another package's import is no mention of the
 * project's definition of that name, nor is a name only imported. */
typedef struct {
  char *name;
  int32_t owner;
  int32_t via;
  bool plain; /* every mention is a bare name read (`f(x)`, `C()`), no attribute, binding or import:
                 Python finds it in this file's globals, so a definition of the file by that name is it */
  bool attr;  /* every mention is an attribute of an object no import binds (`model.name`, `self.name`):
                 no module-level definition of the project (PyFacts codec: bit 1 beside plain) */
  bool keyed; /* module code's every mention lies in the value of an entry of a module-level dict
                 literal with string keys, a registry table (`MODELS = {"wan-t2v": partial(WanT2V,
                 ...)}`); PyFacts.keyed says which keys (codec: bit 2) */
} PyRef;

#define PYREF_MODULE (-1)
#define PYREF_MAIN (-2)

typedef struct PyFacts {
  Array(PyDef) defs;      /* in document order */
  Array(PyCall) calls;    /* in document order */
  Array(PyFactImport) imports;
  Array(char *) star_imports;   /* modules of module-level `from m import *` */
  Array(char *) dynamic_imports; /* modules loaded at run time: imports inside functions,
                                    literal importlib.import_module("m") / __import__("m") */
  bool dynamic_unknown;   /* an import_module call with a computed name */
  Array(char *) all;      /* __all__ entries */
  Array(char *) keyed;    /* "name\tkey" per mention in a registry table's entry (PyRef.keyed) */
  Array(PyGatedImport) gated; /* function imports inside a gate (always the facts' own strings) */
  Array(PyForward) forwards;  /* in document order (strings as the calls' are owned) */
  Array(PyGate) gates;        /* switch branches of the definitions, each in the innermost
                                 definition holding it (pyfacts_def_at); strings as the calls' */
  bool has_all;
  bool has_main;
  uint32_t main_start, main_end; /* the `if __name__ == "__main__":` statement */
  bool runs_calls;        /* module code has a call statement (`main()`, `fire.Fire(...)`,
                             `sys.path.insert(...)`): running the file does something */
  Array(PyRef) refs;      /* unique per (owner, name) */
  bool names_cli;         /* a ref names a command-line parser (the "cli-parser-names" template) */
  bool names_eval;        /* a ref evaluates names from strings (the "names-by-string" template) */
  bool training_call;     /* a call makes a backward pass (the "training-calls" row) */
  bool usage_doc;         /* the module's docstring shows how to run it ("Usage: python x.py ...") */
  bool borrowed;          /* see Ownership above */
  char *arena;            /* see Ownership above */
  size_t borrowed_dynamic;
} PyFacts;

/* Builds the facts of a parsed Python file. Caller frees with pyfacts_free. */
PyFacts *pyfacts_build(const PyFile *py);

/* The facts of each top-level statement, kept between versions of one
 * document (a server's): pyfacts_build_cached walks only the statements
 * whose text is new (a hash of the forest member's bytes, forest.h) or
 * whose surroundings changed (the
 * `__main__` block, guarded, NPU-aware, dead ranges in it), when `key`
 * (the file facts the statements' facts read: imports, options) is the
 * cache's; else every statement. The result equals pyfacts_build's (both
 * build by statements and join them the same way); the cache then holds
 * this version's, and the result borrows their strings (`borrowed`).
 * Owned by the caller: pyfacts_cache_free. */
typedef struct PyFactsCache PyFactsCache;
PyFactsCache *pyfacts_cache_new(void);
void pyfacts_cache_free(PyFactsCache *c);
/* `line_starts` (n_lines, borrowed; NULL: found here) are the text's line
 * starts, a break being "\n", "\r\n" or a lone "\r". */
PyFacts *pyfacts_build_cached(const PyFile *py, PyFactsCache *cache, const char *key, const uint32_t *line_starts,
                              size_t n_lines);
void pyfacts_free(PyFacts *f);
/* Deep copy, or NULL for NULL. Caller frees with pyfacts_free. */
PyFacts *pyfacts_copy(const PyFacts *f);

/* Index of the innermost definition holding byte `at`, or -1. */
int32_t pyfacts_def_at(const PyFacts *f, uint32_t at);

/* The switches call c passes on (PyForward.pairs, borrowed), or NULL. */
const char *pyfacts_forwards(const PyFacts *f, const PyCall *c);

#endif
