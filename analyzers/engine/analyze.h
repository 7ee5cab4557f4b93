/* analyze: the per-file pipeline, the single call every front end makes.
 *
 * analyze_file parses the text (or reuses the caller's forest), runs every
 * detector of the domain table in analyze.c, then one refinement stage whose
 * steps run in this order, each over the findings the previous ones left:
 *
 *   1. detectors, in domain order (the table-driven matcher walks first;
 *      Python detectors share one walk, see context.h). A Python file is
 *      walked by units (context.h); then, once per file: the matcher's
 *      once-per-file library rows, setup.py dependencies, the attention
 *      detector over the units with attention sites (linked to every
 *      unit's calls), and last the file's conclusions (conclude.h:
 *      library rows in their first unit, rules said once per file,
 *      inductor settings in a file that compiles nothing)
 *   2. file classes: a file built on another device's stack or on a CUDA
 *      engine (TensorRT, PyCUDA) gives way to one hint / drops its device layer
 *   3. Python facts: NPU-aware branches, skipped tests, dead fallbacks and
 *      not_in_tests rules in test code drop findings; guarded, inference-only
 *      and transfer_to_npu marks change priority
 *   4. test code: C/C++ tests and benchmarks drop the rules that do not
 *      apply there (counted in FileFacts.test_findings, as step 3's)
 *   5. selection: select/ignore lists and the chip
 *   6. rows, from bytes (what steps 7 and 8 read)
 *   7. suppression comments (ASC001 for unused ones)
 *   8. folds: findings that are one work item become one (fold.h)
 *   9. rows and columns of everything, once: findings, related places, edits
 *  10. the NPU twin: a CUDA file with an NPU version beside it gives way to
 *      one ASC002 hint naming it; so does a file whose path names another
 *      device's backend (`backends/xpu/`, `metax_cuda.py`)
 *  11. the project's per-file ignores
 *  12. sort by position, then code
 *
 * Nothing after analyze_file edits findings: front ends only render them.
 * Analysis never fails on bad input: binary or invalid text yields a single
 * note finding or nothing. Thread-safe: each call uses its own parser. */
#ifndef ASC_ANALYZE_H
#define ASC_ANALYZE_H

#include <tree_sitter/api.h>
#include "analyzers/engine/context.h"
#include "analyzers/engine/forest.h"

TSLanguage *analyze_language(FileKind kind); /* NULL for kinds parsed without tree-sitter */

/* At most this many findings of one file are kept, the first in position
 * order; past it one ASC003 finding at the first one left out says how many
 * more there are. Bounds the memory, the output and the diagnostics of a
 * file with a finding on every line. A file with more findings than this
 * before folding is not folded (fold.c compares findings pairwise): its
 * findings are listed one per site, up to the cap. */
#define ANALYZE_MAX_FINDINGS 10000
/* Findings a Python file's detectors may make before refinement: past it
 * the walk stops at the next top-level statement, so memory per file stays
 * bounded however many constructs the file holds (the ASC003 note then
 * gives its count as a lower bound, "N+"). */
#define ANALYZE_RAW_LIMIT (4 * ANALYZE_MAX_FINDINGS)

/* Parses text with parser (its language set), reusing old (edited to match)
 * when not NULL. A lone "\r" is a line break to Python and to editors, not
 * to the grammars: the parser reads it as "\n" (byte offsets are the same,
 * the text is not changed). Returns a new tree (caller frees with
 * ts_tree_delete) or NULL. */
TSTree *analyze_parse(TSParser *parser, TSTree *old, const char *text, size_t len);
/* The same, told whether the text holds a lone "\r" (analyze_has_lone_cr):
 * a caller parsing one text many times (forest.h) looks once. */
TSTree *analyze_parse_as(TSParser *parser, TSTree *old, const char *text, size_t len, bool lone_cr);
bool analyze_has_lone_cr(const char *text, size_t len);

void analyze_options_default(AnalyzeOptions *o);

/* What the workspace model needs of a file beyond its findings (import
 * graph, entry points). Owned by the caller: free with analyze_facts_free.
 * The CLI's disk cache stores every field (server/resultcodec.c): a field
 * added here needs its encoding there too. */
typedef struct PyFacts PyFacts;
typedef struct ReachFacts ReachFacts;
typedef struct {
  Array(char *) imports;  /* modules imported (Python), relative ones with leading dots */
  bool has_main_guard;    /* if __name__ == "__main__": */
  bool runs_code;         /* module code has a call statement outside any guard or function (a
                             script without a `__main__` guard: `demo.launch()`; PyFacts.runs_calls) */
  uint32_t lines;
  PyFacts *py;            /* owned: definitions, calls and names for the project model
                             (pyfacts.h); NULL unless Python */
  uint32_t test_findings; /* findings in test and benchmark code, not reported */
  ReachFacts *reach;      /* owned: what the C/C++ reachability reads of the file
                             (reach_facts.h); NULL when not made (analyze_file
                             leaves it to the project's front end) */
  FindingList chains;     /* owned: calls of this file's own CUDA-only wrappers, set by the
                             project model (model_local_chains), for the report; not reported */
} FileFacts;

void analyze_facts_free(FileFacts *f);

/* The units of one document between versions, for a server that edits it
 * (see "units" in context.h): each unit's findings with where it is, and
 * the file facts and options they were made with. analyze_file with a memo
 * runs only the units an edit or a syntax change touched (or every unit
 * when the facts changed) and gives exactly the findings a fresh analysis
 * of the same text gives; the project model's facts (FileFacts.py) are
 * kept per statement the same way (pyfacts_build_cached), and so is the
 * resolver's walk (pyfile_build_cached). Owned by the
 * caller: analyze_memo_free. */
typedef struct AnalyzeMemo AnalyzeMemo;
AnalyzeMemo *analyze_memo_new(void);
void analyze_memo_free(AnalyzeMemo *m);
/* Bytes [start, old_end) of the text the memo last saw became [start,
 * new_end): call for every edit, in order, before the next analysis. */
void analyze_memo_edit(AnalyzeMemo *m, uint32_t start, uint32_t old_end, uint32_t new_end);
/* Ranges whose syntax changed in the re-parse (the forest's fresh members,
 * in the new text's bytes). */
void analyze_memo_changed(AnalyzeMemo *m, const TSRange *r, size_t n);
/* Units taken from the memo and units run by the last analysis. */
void analyze_memo_stats(const AnalyzeMemo *m, size_t *reused, size_t *ran);

/* Who the file is in its project, beyond its text. Every pointer is
 * borrowed for the call. */
typedef struct {
  const char *path;        /* the path the detectors see: project-relative when
                              known ("tests/..." marks test code); also picks the kind */
  const char *npu_sibling; /* the NPU version beside a CUDA file, or NULL */
  const char *const *file_ignores; size_t n_file_ignores; /* codes or prefixes the
                              project configuration ignores for this file */
  unsigned char nul_byte;  /* the byte that stands for U+0000 in the text: 0, or
                              RPC_NUL_BYTE for text that came through JSON-RPC
                              with NULs masked; either makes the text binary */
  AnalyzeMemo *memo;       /* units of the previous version to reuse, updated
                              to this one (needs the caller's forest); NULL: none */
  const uint32_t *line_starts; size_t n_lines; /* the text's line starts when the caller
                              keeps them (a break is "\n", "\r\n" or a lone "\r"); NULL: found here */
} AnalyzeFile;

/* Analyzes one file and appends its final findings to out (the caller owns
 * them: findings_free). `forest` may be the syntax already parsed from
 * exactly this text (borrowed; not modified); pass NULL to parse here.
 * `facts` may be NULL. */
void analyze_file(const AnalyzeFile *file, const char *text, size_t len, const Forest *forest,
                  const AnalyzeOptions *opt, FindingList *out, FileFacts *facts);

/* analyze_file for a file known only by its path. */
void analyze_text(const char *path, const char *text, size_t len, const Forest *forest, const AnalyzeOptions *opt,
                  FindingList *out, FileFacts *facts);

#endif
