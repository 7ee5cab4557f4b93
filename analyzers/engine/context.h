/* context: the types every detector shares, and nothing else.
 *
 * A detector (a domain analyzer in analyzers/domains/, the table-driven
 * matcher in analyzers/python/pymatch.c, the suppression pass) sees one file
 * through an AnalyzeCtx and writes Findings to ctx->out. This header depends
 * only on the finding, knowledge-base and node-kind headers, never on the
 * pipeline that calls the detectors (analyze.h), so the pipeline can include
 * the detectors without a cycle.
 *
 * Ownership: every pointer in AnalyzeOptions and AnalyzeCtx is borrowed from
 * the caller for the duration of one analysis. context_rule returns a rule
 * borrowed from the options (user rules) or the static table. */
#ifndef ASC_CONTEXT_H
#define ASC_CONTEXT_H

#include <tree_sitter/api.h>
#include "analyzers/engine/finding.h"
#include "analyzers/kb/kb.h"
#include "analyzers/python/pysym.h"

typedef enum {
  FILE_UNKNOWN = 0,
  FILE_PYTHON,       /* .py, .pyi (setup.py is also FILE_PYTHON and gets dependency rules) */
  FILE_CUDA,         /* .cu .cuh .cpp .cc .cxx .c .h .hpp .hh */
  FILE_REQUIREMENTS, /* requirements*.txt, constraints*.txt, *.requirements.txt, requirements/<name>.txt */
  FILE_PYPROJECT,    /* pyproject.toml */
  FILE_SETUP_CFG,    /* setup.cfg */
  FILE_CONDA_ENV,    /* environment*.yml / .yaml */
  FILE_SHELL,        /* .sh .bash */
  FILE_ELF,          /* .so, .so.N */
} FileKind;

/* Classifies a path by its name only. */
FileKind context_file_kind(const char *path);

/* What to report, the same for every file of a run. */
typedef struct {
  unsigned chip;            /* CHIP_* (default CHIP_910B) */
  const char *torch_npu;    /* e.g. "2.7.1" (borrowed) */
  bool mindiesd;            /* mindiesd available */
  /* rule selection: prefixes like "ASC2" or codes; NULL/empty select = all */
  const char *const *select; size_t n_select;
  const char *const *ignore; size_t n_ignore;
  const KbEntry *user_entries; size_t n_user_entries; /* extra mapping rows (config) */
  const KbRule *user_rules; size_t n_user_rules;
  bool report_unused_noqa;  /* ASC001 */
} AnalyzeOptions;

/* A Python file is analyzed by units: each top-level function, class or
 * decorated definition is one, and so is each run of other top-level
 * statements (imports, assignments, `if __name__ == ...`). A unit's findings
 * are a function of its text and the file's facts (imports and aliases,
 * flags; see analyze.h), so a server can keep them while edits elsewhere
 * leave the unit alone. A detector that reads beyond its unit says so with
 * context_depends, and the server then re-runs the unit on every version. */
enum {
  UNIT_READS_FILE = 1u << 0, /* read the text or tree outside the unit */
  UNIT_READS_ROWS = 1u << 1, /* a subject names a line of the unit as "(line N)": a kept
                                unit's moves with it (finding_shift_line_refs) */
  UNIT_COMPILES = 1u << 2,   /* calls torch.compile (the compile detector's file fact) */
  UNIT_ATTN_LINKS = 1u << 3, /* attention sites or hand-written attention: the
                                attention detector needs the whole file's calls */
};

/* A call of a name that may be a function of this file: `f(...)`,
 * `self.f(...)`, `cls.f(...)`. Units record their calls so that what spans
 * functions (who calls whom) is computed over the file without walking
 * units that did not change. */
typedef struct {
  char *name;              /* owned: the called name, `f` */
  bool method;             /* self.f / cls.f */
  uint32_t start, end;     /* the callee's bytes */
  uint32_t hash;           /* util_fnv of name: kept with the unit, so the file's
                              index of calls hashes only the walked units' names */
} UnitCall;

typedef Array(UnitCall) UnitCalls;

/* A question a unit asked of the whole text (context_text_has), with its
 * answer: the unit is kept on a later version only while every one of its
 * questions still gets the same answer (the file's kept word hits say). */
typedef struct {
  char *needle;            /* owned */
  bool found;
} UnitQuery;

typedef Array(UnitQuery) UnitQueries;

/* An attention kernel's call site as the pass over the file reports the
 * project functions that wrap it (their calls may sit in any unit). */
typedef struct {
  uint32_t start;          /* the call's first byte */
  uint32_t row;            /* its tree-sitter row */
  char *kernel;            /* owned: the kernel's qualified name; NULL: unknown */
  const KbEntry *entry;    /* borrowed: the call's mapping row */
} UnitSite;

/* What the attention pass over the whole file concluded about one unit
 * with UNIT_ATTN_LINKS. The pass reads every unit's calls, so the unit
 * cannot keep it like its own findings; a later version takes it instead
 * of walking the unit again while the unit's text is unchanged and what
 * the unit read from outside itself is the same: which of its functions
 * run only under no_grad (that depends on their callers), and whether the
 * file calls a folding name (attention_file_holds). Owned. */
typedef struct {
  bool kept;               /* the fields below hold a conclusion */
  FindingList findings;    /* the unit's findings after the pass, every detector's, in order */
  FindingList added;       /* hand-written attention the pass reported in the unit, in order */
  Array(UnitSite) sites;   /* its kernel sites, in walk order */
  Array(bool) inference;   /* per function of the unit, in order: runs only under no_grad */
  int file_fold;           /* -1: not asked; else whether the file calls a folding name */
} UnitLinks;

/* Frees what l owns and leaves it empty (not kept). */
void unit_links_free(UnitLinks *l);

typedef struct {
  uint32_t start, end;     /* bytes of the unit (whole file for other kinds) */
  unsigned flags;          /* UNIT_* the detectors noted */
  bool file;               /* the whole file: a file-level pass, not a unit */
  UnitCalls calls;         /* a unit's calls, in order (the attention detector
                              fills them); for the file pass, every unit's */
  UnitQueries queries;     /* what it asked of the whole text (owned) */
} AnalyzeUnit;

/* Per-file context handed to each detector. */
typedef struct PyFile PyFile;
typedef struct Forest Forest;
typedef struct TextHits TextHits;
typedef struct {
  const char *path;        /* as given (relative or absolute); used for kind and messages */
  FileKind kind;
  const char *text;
  size_t len;
  const Forest *forest;    /* the syntax (forest.h); NULL for kinds parsed without tree-sitter */
  const PyFile *py;        /* Python facts and names; NULL unless FILE_PYTHON */
  const AnalyzeOptions *opt;
  FindingList *out;        /* this detector's findings so far (see analyze.h) */
  AnalyzeUnit *unit;       /* the unit being analyzed (never NULL) */
  bool truncated;          /* Python: a unit's walk stopped at ANALYZE_RAW_LIMIT */
  TextHits *hits;          /* Python: the words asked of the whole text, kept between
                              versions (texthits.h); NULL: each question reads the text */
} AnalyzeCtx;

/* Notes a dependency of the current unit's findings (UNIT_* flags). */
static inline void context_depends(const AnalyzeCtx *ctx, unsigned flags) { ctx->unit->flags |= flags; }

/* Notes UNIT_READS_FILE when [from, to) reaches outside the current unit. */
static inline void context_reads(const AnalyzeCtx *ctx, uint32_t from, uint32_t to) {
  if (from < ctx->unit->start || to > ctx->unit->end) ctx->unit->flags |= UNIT_READS_FILE;
}

/* Whether the file's text holds `needle` anywhere: a read outside the unit
 * that is recorded with its answer instead of making the unit re-run on
 * every version (context.c). */
bool context_text_has(const AnalyzeCtx *ctx, const char *needle);

/* True while every question of `u` gets the answer it got, in text[0, len)
 * whose words `hits` keeps (only the bytes edited since are read). */
bool context_queries_hold(const AnalyzeUnit *u, TextHits *hits, const char *text, size_t len);

/* Frees the unit's questions. */
void context_queries_free(UnitQueries *q);

typedef void (*AnalyzerFn)(AnalyzeCtx *ctx);

/* One node of the shared walk over a Python file. */
typedef struct {
  TSNode node;
  PySym sym;        /* its kind */
  TSFieldId field;  /* for identifiers and attributes: their field in the parent
                       (0: none); compare with pysym_field_id */
  TSNode parent;
} PyVisit;

/* Python files are walked once per unit for all detectors: each visitor
 * sees every node of the unit (in document order) until it declines a
 * subtree. `begin` returns the visitor's state for this unit, or NULL to
 * sit it out; `visit` returns false to skip the node's subtree (for this
 * visitor only); `end` runs after the unit's walk and frees the state.
 * What a rule concludes about the file as a whole (said once per file, only
 * where the file compiles) is not a visitor's: conclude.h decides it, from
 * kb data, after every unit. */
typedef struct {
  void *(*begin)(AnalyzeCtx *ctx);
  bool (*visit)(void *state, const PyVisit *v);
  void (*end)(void *state);
} PyVisitor;

/* Whether a path is test, benchmark or documentation code (tests/, test/,
 * bench..., docs/ and doc/ directories, test_*.py, *_test.py, benchmark*.py, bench_*.py, *_bench.py,
 * *_benchmark.py, conftest.py, testing_utils.py). path borrowed. */
bool context_is_test_path(const char *path);

/* The rule of a code: the options' user rules first (codes ASC9xx from the
 * project configuration), then the built-in table. NULL when unknown. */
const KbRule *context_rule(const AnalyzeOptions *opt, const char *code);

/* Whether `code` passes the options' select/ignore lists. */
bool context_code_selected(const AnalyzeOptions *opt, const char *code);

#endif
