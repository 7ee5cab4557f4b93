/* finding: what every analyzer produces, for every front end (LSP, CLI, report).
 *
 * A Finding carries byte offsets and tree-sitter style (row, byte column)
 * points into the analyzed text; it knows nothing of LSP or UTF-16. All its
 * strings, edits and related locations are owned by the finding: finding_free releases them.
 * A FindingList owns its findings: findings_free releases all of them.
 *
 * The CLI's disk cache stores findings field by field (server/resultcodec.c):
 * a field added here needs its encoding there too (tests/cache catches a
 * field that does not survive the cache). */
#ifndef ASC_FINDING_H
#define ASC_FINDING_H

#include <stdbool.h>
#include <stdint.h>
#include "analyzers/engine/util.h"

typedef enum { SEV_ERROR = 1, SEV_WARNING = 2, SEV_INFO = 3, SEV_HINT = 4 } Severity;
typedef enum { CONF_HIGH = 0, CONF_MEDIUM = 1, CONF_LOW = 2 } Confidence;
typedef enum { FIX_NONE = 0, FIX_SAFE = 1, FIX_UNSAFE = 2 } FixSafety;

/* Effort class of a finding, the key of the report's effort table. */
typedef enum {
  EFFORT_NONE = 0,        /* natively supported, nothing to do */
  EFFORT_MECHANICAL,      /* covered by a quick fix or transfer_to_npu */
  EFFORT_API_REVIEW,      /* an API with no direct equivalent: small manual change */
  EFFORT_ATTENTION,       /* attention rewrite, per distinct call pattern */
  EFFORT_TRITON,          /* Triton kernel */
  EFFORT_CUDA_KERNEL,     /* hand-written CUDA kernel, scaled by its size */
  EFFORT_NATIVE_LIB,      /* CUDA runtime / vendor library C API calls */
  EFFORT_DEP_REPLACE,     /* dependency with an Ascend counterpart */
  EFFORT_DEP_UNSUPPORTED, /* dependency with no Ascend path */
  EFFORT_PRECISION,       /* precision review */
  EFFORT_DISTRIBUTED,     /* distributed validation */
  EFFORT_COMPILE,         /* graph / compile review */
  EFFORT_REBUILD,         /* prebuilt binary that must be rebuilt */
  EFFORT__COUNT
} EffortKind;

/* The four classes of CUDA dependence (framework API, CUDA runtime API,
 * vendor libraries, hand-written kernels); DEP_CLASS_NONE for the rest. */
typedef enum {
  DEP_CLASS_NONE = 0,
  DEP_CLASS_FRAMEWORK,
  DEP_CLASS_RUNTIME,
  DEP_CLASS_VENDOR_LIB,
  DEP_CLASS_KERNEL,
} DepClass;

typedef struct {
  uint32_t start, end; /* byte range replaced */
  char *text;          /* owned replacement text */
  uint32_t start_row, start_char, end_row, end_char; /* filled by analyze_text (code points) */
} TextEdit;

/* Another place that belongs to a finding, with its own message: a folded
 * occurrence of the same work in the same file (a case of a dispatch
 * switch, a device check of an extension), or a place in another file (the
 * wrapper a call goes through and the CUDA-only construct inside it, from
 * the project model). Owns its strings. */
typedef struct {
  uint32_t start, end; /* byte range */
  char *message;       /* owned: English message of that place */
  uint32_t start_row, start_char, end_row, end_char; /* code points; filled by analyze_text for the same file */
  char *path;          /* owned; NULL: the finding's own file; else the file as the model was given it */
  uint32_t start_col, end_col; /* byte columns (another file: for UTF-8 clients) */
} Related;

typedef struct KbEntry KbEntry;
typedef struct KbRule KbRule;

typedef struct {
  const KbRule *rule;   /* borrowed: static table or config-owned user rule */
  const KbEntry *entry; /* borrowed, may be NULL for detector findings */
  Severity severity;    /* the rule's, possibly lowered (transfer_to_npu) */
  Confidence confidence;
  uint32_t start_byte, end_byte;
  uint32_t start_row, start_col, end_row, end_col; /* byte columns */
  uint32_t start_char, end_char; /* the same columns in Unicode code points (for CLI output) */
  char *subject;     /* owned: the construct, e.g. "torch.cuda.synchronize" */
  char *message;     /* shared text (finding_text_*): English message */
  char *message_zh;  /* shared text (finding_text_*): Chinese message */
  char *replacement; /* owned, may be NULL */
  char *detail;      /* owned, may be NULL: layout, kernel description, package status */
  char *gate;        /* owned, may be NULL: the option the innermost enclosing branch requires on (`x`
                        of `if args.x:`, `args.x > 0`, the else of `if not args.x:`), whose
                        default only the project knows (fold.c, the "cli-switch-elsewhere" row); or
                        `self.<attr>` for the branch of an attribute its file sets only from a
                        hard-coded False (offflags.h), whether nothing else sets it being the
                        project's to say too (the "off-flag" row) */
  char *scope;       /* owned, may be NULL: the project definition the finding is in ("Block.__init__"),
                        where the project model made it (its call sites: the report's blast radius) */
  bool guarded;          /* a fallback exists (try/except ImportError, availability flag) */
  bool transfer_covered; /* transfer_to_npu handles it at run time in this file */
  bool inference_only;   /* inside no_grad/inference_mode code */
  FixSafety fix;
  Array(TextEdit) edits; /* owned; empty when fix == FIX_NONE */
  bool fix_needs_torch_npu; /* applying the fix needs `import torch_npu` */
  uint32_t weight; /* size hint for effort: lines of a kernel, 0 otherwise */
  bool unreachable;  /* in code nothing in the project runs (the project model): a hint, not involved */
  Array(Related) related; /* owned; the occurrences folded into this one (fold.h), or other files' places */
  uint32_t origin; /* the per-file pipeline's bookkeeping while it joins a file's units: 1 + the index of
                      the unit whose detectors made it, 0 for the file's own passes (analyze.c); read
                      nowhere else */
} Finding;

typedef Array(Finding) FindingList;

/* Message text, shared: a finding's two messages are immutable strings with
 * a reference count in front, so copies of a finding (the server's memo,
 * the workspace) and repeated findings of one construct hold one text, not
 * one each. The count is atomic: a report thread may copy a document's
 * findings while the loop frees others. Never free() such a pointer. */
/* A shared copy of s (NULL for NULL). Release with finding_text_unref. */
char *finding_text_new(const char *s);
/* Takes a malloc'd string and returns it as shared text (frees s). */
char *finding_text_take(char *s);
/* Another reference to shared text t (NULL-safe); returns t. */
char *finding_text_ref(char *t);
/* Drops a reference; the last one frees the text. NULL-safe. */
void finding_text_unref(char *t);

void finding_free(Finding *f);
void findings_free(FindingList *l);
/* Copy of f: every string and edit duplicated, the messages shared. Caller frees with finding_free. */
Finding finding_copy(const Finding *f);
/* Removes f's edits: what is left of the work has no mechanical fix. */
void finding_drop_fix(Finding *f);
/* Adds an edit to f (text is copied). */
void finding_add_edit(Finding *f, uint32_t start, uint32_t end, const char *text);
/* Adds a related location to f (message is copied). */
void finding_add_related(Finding *f, uint32_t start, uint32_t end, const char *message);
/* Adds a copy of r (path and message duplicated) to f. */
void finding_add_related_at(Finding *f, const Related *r);
/* A copy of r with its own path and message (free with related_free). */
Related related_copy(const Related *r);
void related_free(Related *r);
/* Frees and removes the related sites of f that `drop` says yes to (data is
 * passed through), keeping the order of the rest. */
void finding_drop_related_if(Finding *f, bool (*drop)(void *data, const Related *r), void *data);
/* Appends a note to both messages: " <en>" to the English one, <zh> as given
 * to the Chinese one (which carries its own full-width punctuation). */
void finding_append_note(Finding *f, const char *en, const char *zh);
/* Moves the lines a finding's subject names as "(line N)" by `rows`, in the
 * subject and in both messages that quote it: a finding kept while its
 * unit moved across lines names the lines where they are now. */
void finding_shift_line_refs(Finding *f, int64_t rows);
/* Lowers a finding that transfer_to_npu handles at run time (its row's
 * transfer_covered) from error, warning or info to a hint marked
 * transfer_covered, with the "transfer-covered" note; `by` names the project
 * module that loads transfer_to_npu for this file (NULL: the file imports it
 * itself). Returns whether it lowered f. */
bool finding_mark_transfer(Finding *f, const char *by);
/* Frees and removes the findings whose drop[i] is set, keeping the order of
 * the rest; drop has at least l->len entries. */
void findings_drop(FindingList *l, const bool *drop);
/* Frees and removes the findings `drop` says yes to (data is passed
 * through), keeping the order of the rest. `drop` sees every finding before
 * any is removed. */
void findings_drop_if(FindingList *l, bool (*drop)(void *data, const Finding *f), void *data);
/* Sorts by start byte, then code. */
void findings_sort(FindingList *l);

const char *severity_name(Severity s);      /* "error", "warning", "info", "hint" */
const char *confidence_name(Confidence c);  /* "High", "Medium", "Low" */
const char *effort_name(EffortKind e);
const char *dep_class_name(DepClass d);

#endif
