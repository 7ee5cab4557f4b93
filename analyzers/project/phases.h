/* phases: the project's own import graph, its entry points and the task
 * phases they define (seed step 7).
 *
 * Input is the list of workspace files (path relative to the project root,
 * kind, FileFacts) plus a reader for the few texts that are needed beyond
 * the facts: shell scripts (the commands they run), pyproject.toml /
 * setup.py / setup.cfg (console scripts) and, when native sources exist,
 * Python files (to find which Python code builds or loads a .cu/.cpp file).
 *
 * - Import resolution is path based: an absolute import `a.b.c` is looked
 *   up under every import root (the project root, `src/`, the directory
 *   above each top-level package, and the importing file's own directory
 *   when that is not a package), taking the longest module prefix that is a
 *   project file; the parent packages' `__init__.py` are edges too.
 *   Relative imports climb from the importing file's directory. Directories
 *   without `__init__.py` work as namespace packages.
 * - Entry points: `if __name__ == "__main__":` files and `__main__.py`,
 *   console scripts (`[project.scripts]`, `[project.gui-scripts]`,
 *   `[tool.poetry.scripts]`, setup.py / setup.cfg `console_scripts`), and
 *   shell-script lines running `python x.py`, `python -m pkg`, `torchrun`,
 *   `accelerate launch` or `deepspeed`.
 * - Tooling is not a phase: entries of CI, release, code generation,
 *   developer tools, data preparation and checkpoint conversion (by their
 *   directories and words, or because nothing they reach imports an ML
 *   framework) are listed in PhaseGraph.tooling and get no phase.
 * - Phases are named by what the entry does (train/finetune/pretrain ->
 *   Training; generate/infer/sample/predict/serve/demo -> Inference;
 *   eval/test/bench -> Evaluation). Entries of the same kind form one
 *   phase. Entries are folded by the modules they reach: a module's own
 *   `__main__` that another entry imports joins that entry's phase; an
 *   entry of no known kind whose reached files are a subset of a named
 *   phase's joins it; entries that reach the same files form one phase;
 *   past PHASES_COLUMNS the remaining ones form one "Other" phase.
 * - A packaged project without an application entry at its root is a
 *   library: its phase is the public API (its packages' __init__.py).
 * - Task choices the entry declares (`--task`/`--mode` argparse choices,
 *   literal or `list(NAME.keys())` of a dict in a reached file) are kept
 *   on the phase: one phase runs all of them.
 * - `NAME=GLOB` overrides replace the detected phases. A project without
 *   any entry point gets one phase, "Project", that reaches every file.
 * - Reachability is an iterative breadth-first search (no recursion).
 *
 * At most PHASES_MAX phases exist (phase sets are 64-bit masks); entries
 * beyond that join the last phase. Ownership: a PhaseGraph owns everything
 * it holds except the borrowed input facts; free with phases_free. */
#ifndef ASC_PHASES_H
#define ASC_PHASES_H

#include "analyzers/engine/analyze.h"

#define PHASES_MAX 64

typedef struct {
  const char *path;        /* relative to the project root, '/' separated (borrowed) */
  FileKind kind;
  const FileFacts *facts;  /* borrowed; may be NULL */
} PhaseFile;

/* Returns a heap copy of file `index`'s text (caller = phases frees it),
 * or NULL when it cannot be read. */
typedef char *(*PhaseReadFn)(void *data, size_t index, size_t *len);

typedef enum {
  PHASE_TRAINING = 0,
  PHASE_INFERENCE,
  PHASE_EVALUATION,
  PHASE_API,      /* a library's public API */
  PHASE_CUSTOM,
} PhaseKind;

/* Why an entry belongs to its phase (the report's derivation column). */
typedef enum {
  FOLD_NAMED = 0,  /* its words name the phase's kind (or it is the phase's own name) */
  FOLD_SELFTEST,   /* a module's own __main__; `via` imports it */
  FOLD_SUBSET,     /* reaches a subset of the phase's files */
  FOLD_SAME_REACH, /* reaches the same files as the phase's first entry */
  FOLD_OTHER,      /* beyond PHASES_COLUMNS: the "Other" phase */
  FOLD_API,        /* a package of the library's public API */
  FOLD_OVERRIDE,   /* matched a NAME=GLOB override */
} PhaseFold;

/* Why an entry is tooling and not a phase. */
typedef enum {
  TOOL_CI = 0,     /* CI scripts (.github/, ci/) */
  TOOL_RELEASE,    /* release, version bumps, tags */
  TOOL_CODEGEN,    /* generates sources or docs */
  TOOL_DEV,        /* developer tools (tools/, repro, lint, log parsing, tuning searches) */
  TOOL_DATA,       /* data preparation, checkpoint conversion */
  TOOL_NO_MODEL,   /* nothing it reaches imports an ML framework */
  TOOL_SELFTEST,   /* a module's own __main__ in a package that no task runs */
} PhaseToolReason;

typedef struct {
  char *label;        /* as PhaseEntry.label */
  PhaseToolReason reason;
} PhaseTool;

/* Columns the detection produces at most; more become "Other". */
#define PHASES_COLUMNS 5

typedef enum {
  ENTRY_MAIN,     /* a file with a __main__ guard, or a __main__.py */
  ENTRY_CONSOLE,  /* console script from packaging metadata */
  ENTRY_SHELL,    /* a command in a shell script */
  ENTRY_OVERRIDE, /* a file matched by a NAME=GLOB override */
} EntryKind;

typedef struct {
  EntryKind kind;
  char *label;        /* what the user sees: "train.py", "phasekit-train = phasekit.cli:main",
                         "scripts/sample.sh:3: torchrun generate.py" */
  char *launcher;     /* "python", "torchrun", "accelerate launch", "deepspeed", "console script",
                         or "" for __main__ files */
  size_t source;      /* file that declares it (the script, pyproject, or the file itself) */
  size_t target;      /* the Python file it runs, or (size_t)-1 when it runs none */
  StrList implied;    /* packages the launcher itself needs ("deepspeed", "accelerate") */
  size_t phase;
  PhaseFold fold;     /* why it is in that phase */
  char *via;          /* FOLD_SELFTEST: the entry label that imports it; else NULL */
} PhaseEntry;

typedef struct {
  char *name;         /* "Training", "Inference", "Evaluation", or the entry's name */
  PhaseKind kind;
  Array(size_t) entries; /* indices into PhaseGraph.entries */
  uint8_t *reach;     /* reach[file] != 0 when the phase reaches that file */
  size_t n_reached;
  StrList tasks;      /* task choices its entries declare ("t2v-14B", ...) */
  bool multi_device;  /* some entry runs under torchrun / deepspeed / accelerate */
} Phase;

typedef struct {
  size_t n_files;
  const PhaseFile *files;   /* borrowed input */
  Array(Phase) phases;
  Array(PhaseEntry) entries;
  /* import graph in compressed rows: edges of file i are
   * edge_to[edge_start[i] .. edge_start[i+1]) */
  size_t *edge_start;
  size_t *edge_to;
  StrList notes;            /* unresolved launcher targets, empty overrides, ... */
  Array(PhaseTool) tooling; /* entries that are tooling, not phases */
  bool implicit;            /* no entry point: the single "Project" phase */
  bool library;             /* the phase is the public API of a library */
  /* private: sorted path index and import roots */
  size_t *by_path;
  StrList roots;
} PhaseGraph;

/* Builds the graph and the phases. `overrides` are "NAME=GLOB" strings
 * (borrowed); when any is given the detected entry points are not used.
 * `read` may be NULL (no shell scripts, console scripts or native links).
 * Never fails: unreadable inputs become notes. Free with phases_free. */
void phases_build(PhaseGraph *g, const PhaseFile *files, size_t n,
                  const char *const *overrides, size_t n_overrides,
                  PhaseReadFn read, void *read_data);
void phases_free(PhaseGraph *g);

/* Set of phases (bit p = phase p) that reach a file. */
uint64_t phases_of_file(const PhaseGraph *g, size_t file);
/* Set of phases that use a third-party package: phases reaching a file that
 * imports one of its modules, or whose launcher needs it. `dist` is a
 * distribution name as written in a requirement ("flash-attn>=2" works).
 * Names that are not packages (index URLs, conda channels, options) and the
 * CUDA environment's own packages (nvidia-* runtime wheels, cudatoolkit,
 * cudnn, nccl, pytorch-cuda) concern the whole environment: every phase. */
uint64_t phases_of_package(const PhaseGraph *g, const char *dist);
/* Whether a distribution is part of the CUDA environment itself (nvidia-*
 * runtime wheels, cudatoolkit, cudnn, nccl, pytorch-cuda): installing CANN
 * replaces it. */
bool phases_is_environment_dist(const char *dist);
/* Mask with every phase set. */
uint64_t phases_all(const PhaseGraph *g);

/* File index an import written in `from` resolves to, or (size_t)-1 when
 * it is not a project module. `module` as recorded in FileFacts (leading
 * dots for relative imports). */
size_t phases_resolve(const PhaseGraph *g, size_t from, const char *module);
/* Index of a path, or (size_t)-1. */
size_t phases_find(const PhaseGraph *g, const char *path);

/* Phase kind of a name by its words ("train_lora" -> PHASE_TRAINING);
 * PHASE_CUSTOM when no word matches. */
PhaseKind phases_classify(const char *name);
/* "Training"/"训练", "Public API"/"公共 API", ... for a kind; NULL for
 * PHASE_CUSTOM. Static. */
const char *phases_kind_name(PhaseKind k, bool zh);

/* Import module names of a distribution ("flash-attn" -> "flash_attn",
 * "nvidia-ml-py" -> "pynvml"); writes up to max names (static strings or
 * pointers into buf) and returns how many. */
/* "CI", "release", ... for a tooling reason. Static. */
const char *phases_tool_reason(PhaseToolReason r, bool zh);

size_t phases_dist_modules(const char *dist, char *buf, size_t bufsize, const char **names, size_t max);

#endif
