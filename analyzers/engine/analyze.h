/* analyze: the single entry point every front end uses to analyze one file.
 *
 * analyze_text parses (or reuses the caller's tree), runs every domain
 * analyzer from the static table in analyze.c, then applies file-wide post
 * passes: guarded marking, transfer_to_npu awareness, target filtering and
 * suppression comments. Results go to out (the caller owns and frees them
 * with findings_free). Analysis never fails on bad input: binary or invalid
 * text yields a single note finding or nothing. Thread-safe: each call uses
 * its own parser. */
#ifndef ASC_ANALYZE_H
#define ASC_ANALYZE_H

#include <tree_sitter/api.h>
#include "analyzers/engine/finding.h"
#include "analyzers/kb/kb.h"
#include "analyzers/python/pysym.h"

typedef enum {
  FILE_UNKNOWN = 0,
  FILE_PYTHON,       /* .py, .pyi (setup.py is also FILE_PYTHON and gets dependency rules) */
  FILE_CUDA,         /* .cu .cuh .cpp .cc .cxx .c .h .hpp .hh */
  FILE_REQUIREMENTS, /* requirements*.txt, constraints*.txt, *.requirements.txt */
  FILE_PYPROJECT,    /* pyproject.toml */
  FILE_SETUP_CFG,    /* setup.cfg */
  FILE_CONDA_ENV,    /* environment*.yml / .yaml */
  FILE_SHELL,        /* .sh .bash */
  FILE_ELF,          /* .so, .so.N */
} FileKind;

/* Classifies a path by its name only. */
FileKind analyze_file_kind(const char *path);
TSLanguage *analyze_language(FileKind kind); /* NULL for kinds parsed without tree-sitter */

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

void analyze_options_default(AnalyzeOptions *o);

/* Per-file context handed to each domain analyzer. */
typedef struct PyFile PyFile;
typedef struct {
  const char *path;        /* as given (relative or absolute); used for kind and messages */
  FileKind kind;
  const char *text;
  size_t len;
  TSTree *tree;            /* NULL for kinds parsed without tree-sitter */
  const PyFile *py;        /* Python facts and names; NULL unless FILE_PYTHON */
  const AnalyzeOptions *opt;
  FindingList *out;
} AnalyzeCtx;

typedef void (*AnalyzerFn)(AnalyzeCtx *ctx);

/* What the workspace model needs of a file beyond its findings (import
 * graph, entry points). Owned by the caller: free with analyze_facts_free.
 * The CLI's disk cache stores every field (server/resultcodec.c): a field
 * added here needs its encoding there too. */
typedef struct PyFacts PyFacts;
typedef struct {
  Array(char *) imports;  /* modules imported (Python), relative ones with leading dots */
  bool has_main_guard;    /* if __name__ == "__main__": */
  uint32_t lines;
  PyFacts *py;            /* owned: definitions, calls and names for the project model
                             (pyfacts.h); NULL unless Python */
  uint32_t test_findings; /* findings in test and benchmark code, not reported */
} FileFacts;

void analyze_facts_free(FileFacts *f);

/* Analyzes text. `tree` may be a tree already parsed from exactly this text
 * (borrowed; not modified); pass NULL to parse here. `facts` may be NULL. */
void analyze_text(const char *path, const char *text, size_t len, TSTree *tree,
                  const AnalyzeOptions *opt, FindingList *out, FileFacts *facts);

/* A file with an NPU version beside it (cuda_accelerator.py next to
 * npu_accelerator.py) is the CUDA implementation of an abstraction the
 * project already ported: its Python findings are replaced by one ASC002
 * hint naming `sibling` (borrowed). For files the caller found a sibling for. */
void analyze_npu_sibling(const AnalyzeOptions *opt, const char *sibling, FindingList *out);

/* The rule of a code: the options' user rules first (codes ASC9xx from the
 * project configuration), then the built-in table. NULL when unknown. */
const KbRule *analyze_rule(const AnalyzeOptions *opt, const char *code);

/* Whether `code` passes the options' select/ignore lists. */
bool analyze_code_selected(const AnalyzeOptions *opt, const char *code);

/* One node of the shared walk over a Python file. */
typedef struct {
  TSNode node;
  PySym sym;        /* its kind */
  TSFieldId field;  /* for identifiers and attributes: their field in the parent
                       (0: none); compare with pysym_field_id */
  TSNode parent;
} PyVisit;

/* Python files are walked once for all domains: each visitor sees every
 * node (in document order) until it declines a subtree. `begin` returns
 * the visitor's state for this file, or NULL to sit the file out; `visit`
 * returns false to skip the node's subtree (for this visitor only); `end`
 * runs after the walk, in domain order, and frees the state. */
typedef struct {
  void *(*begin)(AnalyzeCtx *ctx);
  bool (*visit)(void *state, const PyVisit *v);
  void (*end)(void *state);
} PyVisitor;

/* Domain analyzers (one per file in analyzers/): whole-file entry points
 * for the kinds they serve, and visitors of the shared Python walk. */
void deps_analyze(AnalyzeCtx *ctx);       /* ASC1xx: dependency files (and setup.py) */
void kernels_analyze(AnalyzeCtx *ctx);    /* ASC4xx: CUDA/C++ sources, ELF, Python kernel details */
extern const PyVisitor device_visitor;      /* ASC2xx */
extern const PyVisitor attention_visitor;   /* ASC3xx */
extern const PyVisitor distributed_visitor; /* ASC5xx */
extern const PyVisitor precision_visitor;   /* ASC6xx */
extern const PyVisitor compile_visitor;     /* ASC7xx */

/* The table-driven matcher over Python (KB_QUALNAME ... KB_DECORATOR rows):
 * the first visitor of the walk. It adds to py the guarded ranges found
 * inside expressions (conditional expressions). */
void *pymatch_begin(AnalyzeCtx *ctx, PyFile *py);
bool pymatch_visit(void *state, const PyVisit *v);
void pymatch_end(void *state);

#endif
