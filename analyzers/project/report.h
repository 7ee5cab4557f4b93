/* report: the migration assessment model behind `ascend-lsp report` and the
 * `ascend.generateReport` command.
 *
 * Input: the project's files (path relative to the root, kind, findings,
 * facts), all borrowed, plus options (project name, phase overrides,
 * language, target profile) and a reader for the few texts the model needs
 * beyond the facts (shell scripts, packaging files, Python sources for the
 * blast radius). Output: a Report that holds everything a renderer prints,
 * already decided: phases and their minimal migration sets, the dependency
 * matrix, findings per domain with their priority (P0 / P1 / not
 * involved), the domain-1 compatibility matrix, the four CUDA dependency
 * classes and the recommended route, the roadmap, the risk matrix, the
 * acceptance checklist, the effort computation and the verdict.
 *
 * Nothing here lists rule codes: a finding is placed by its rule's metadata
 * (domain digit, severity, EffortKind, DepClass) and its own fields
 * (guarded, subject, detail "status: ...", weight).
 *
 * Renderers (report_md.c, report_json.c, report_html.c) only format a
 * Report. Ownership: report_build fills a caller-provided Report that owns
 * its strings and arrays (free with report_free); findings, facts and paths
 * stay borrowed from the input and must outlive the Report. */
#ifndef ASC_REPORT_H
#define ASC_REPORT_H

#include "analyzers/engine/analyze.h"
#include "analyzers/project/effort.h"
#include "analyzers/project/phases.h"

typedef struct {
  const char *path;            /* relative to the project root */
  FileKind kind;
  const FindingList *findings; /* may be NULL */
  const FileFacts *facts;      /* may be NULL */
} ReportFile;

/* Heap copy of file `index`'s text (the report frees it), or NULL. */
typedef char *(*ReportReadFn)(void *data, size_t index, size_t *len);

typedef struct {
  const char *project;         /* NULL: [project] name from pyproject.toml, else root_name */
  const char *root_name;       /* the root directory's name */
  const char *const *phases; size_t n_phases; /* "NAME=GLOB" overrides (borrowed) */
  bool zh;                     /* the whole report in Chinese */
  unsigned chip;               /* CHIP_* ; 0 = 910B */
  const char *torch_npu;       /* NULL: the default profile's; a bare release names its profile's build (kb_meta.def) */
  const char *cann;            /* NULL: the CANN of the torch_npu profile, else "matching" */
  bool mindiesd;
  ReportReadFn read; void *read_data; /* may be NULL: no scripts */
  const char *const *notes; size_t n_notes; /* scan notes to carry (borrowed) */
} ReportOptions;

typedef enum { PRIO_P0 = 0, PRIO_P1, PRIO_NONE } ReportPriority;
typedef enum { LEVEL_LOW = 0, LEVEL_MEDIUM, LEVEL_HIGH } ReportLevel;
typedef enum {
  COMPAT_COMPATIBLE = 0,
  COMPAT_REPLACE,
  COMPAT_UNSUPPORTED,
  COMPAT_NOT_INVOLVED,
} CompatStatus;
typedef enum { ROUTE_A = 0, ROUTE_B, ROUTE_C } RouteId;

typedef struct {
  const Finding *f;      /* borrowed */
  size_t file;           /* index into the input files */
  const char *path;      /* borrowed */
  uint32_t line, column; /* 1-based (column in code points) */
  int domain;            /* kb_domain of the rule */
  uint64_t phases;       /* phases that need it (bit = phase index) */
  ReportPriority prio;
  size_t group;          /* index into Report.groups */
  char *family;          /* kernel family key for kernels (owned), else NULL */
  bool own_api;          /* an attention call of the project's own module (costs nothing) */
} ReportItem;

/* A row of the dependency matrix: findings of one rule, split by subject
 * when each subject is its own piece of work (packages, blockers,
 * per-subject effort units). */
typedef struct {
  const KbRule *rule;
  char *label;              /* "flash_attn.flash_attn_func" or the rule title */
  bool label_is_code;       /* label is a construct (subject), not prose */
  char *replacement;        /* members' distinct replacements, "; "-joined (up to 3, then "..."); may be NULL */
  int domain;
  Severity severity;        /* the most severe member */
  uint64_t phases;
  ReportPriority prio;
  Array(size_t) items;      /* indices into Report.items, in item order */
  bool guarded;             /* every member is guarded */
  bool blocker;
  Verdict level;            /* the verdict level the group sets */
  int64_t centidays;        /* effort of the members alone */
} ReportGroup;

typedef struct {
  char *name;               /* localized for the known kinds */
  PhaseKind kind;
  StrList entries;          /* entry labels */
  StrList how;              /* per entry: why it is in this phase (localized) */
  StrList tasks;            /* task choices the entries declare */
  bool multi_device;        /* an entry runs under torchrun / deepspeed / accelerate */
  size_t n_reached;         /* files reached */
  StrList reached;          /* their paths, in input order */
  Array(size_t) groups;     /* minimal migration set: groups it needs (matrix order) */
  Array(size_t) files;      /* files to change: reached input files with findings */
  EffortSum effort;         /* its findings + one validation + environment */
  int64_t half_weeks;
} ReportPhase;

typedef struct {
  char *package;            /* as found (subject) */
  char *declared;           /* "requirements.txt:3" */
  CompatStatus status;
  CompatStatus declared_status; /* the analyzer's, before "not involved" */
  const char *replacement;  /* borrowed; may be NULL */
  uint64_t phases;
  ReportPriority prio;
  size_t item;
} ReportCompat;

/* A kernel family: the kernels one port replaces, with the template
 * instantiation files named after them. */
typedef struct {
  char *key;                /* "flash_fwd" */
  char *what;               /* "attention" (may be NULL) */
  char *op;                 /* the NPU op that replaces it, or NULL (rewrite) */
  StrList kernels;          /* distinct kernel names */
  uint32_t lines;           /* their lines */
  size_t inst_files;        /* instantiation files of the family */
  char *inst_example;       /* one of them, or NULL */
  size_t group;             /* its matrix row */
} ReportFamily;

typedef struct {
  char *text;
  Array(size_t) items;      /* items it cites (may be empty) */
} ReportLine;

typedef struct {
  char *title;
  Array(ReportLine) lines;
} ReportStep;

typedef struct {
  char *risk, *mitigation;
  ReportLevel likelihood, impact;
} ReportRisk;

typedef struct {
  char *area, *item, *threshold;
} ReportCheck;

typedef struct {
  char *path;
  uint32_t line;
  char *function;           /* the definition holding the call site, or NULL (module level) */
  uint64_t phases;
} ReportSite;

typedef struct {
  char *symbol;             /* "attention", "Block" or "Block.forward" */
  char *path;
  uint32_t line;            /* its definition */
  Array(ReportSite) callers;
  size_t more;              /* callers not listed */
} ReportWrapper;

typedef struct {
  size_t group;
  Array(ReportWrapper) wrappers; /* innermost first: the holder of the construct, then its callers' */
} ReportBlast;

typedef struct {
  size_t findings, involved, groups;
} ReportClassCount;

typedef struct {
  bool zh;
  char *project;
  const char *chip;                 /* static */
  char *torch, *torch_npu, *cann;
  bool mindiesd;

  Verdict verdict;
  StrList verdict_reasons;          /* which rule set it, localized */
  Array(size_t) blockers;           /* group indices */

  Array(ReportItem) items;          /* by domain, path, line, column */
  Array(ReportGroup) groups;        /* matrix order: P0, P1, not involved; then level, effort */
  Array(ReportPhase) phases;
  bool implicit_phase;              /* no entry point found */
  bool library;                     /* the phase is a library's public API */
  StrList tooling;                  /* "label (reason)": entries that are tooling, not phases */
  Array(ReportCompat) compat;       /* domain 1 */
  Array(ReportFamily) families;     /* kernel inventory, matrix order */
  size_t kernel_lines, code_lines;  /* kernel code vs all non-test code (lines) */
  bool kernel_product;              /* the project's kernels are its product */
  ReportClassCount classes[5];      /* by DepClass */
  RouteId route;
  StrList route_reasons;
  Array(ReportStep) roadmap;
  Array(ReportRisk) risks;
  Array(ReportCheck) checklist;
  Array(ReportBlast) blast;

  EffortSum effort;                 /* everything some phase needs */
  int64_t half_weeks;
  EffortSum optional;               /* findings no phase reaches */
  int64_t domain_cd[8];             /* effort of involved findings per domain */

  size_t n_files, n_lines, n_python;
  size_t n_test_findings;           /* findings in test and benchmark code, not listed */
  size_t by_severity[5];            /* index Severity */
  size_t n_p0, n_p1, n_none, n_guarded;
  StrList notes;
  StrList patterns;                 /* long replacements, printed once in the appendix */
} Report;

/* Replacements longer than this are printed once, as a pattern of the
 * appendix, and referenced by name from table cells. */
#define REPORT_PATTERN_MIN 100
/* No table cell is longer than this many bytes (text is cut with "..."). */
#define REPORT_CELL_MAX 200

/* Builds the report. Never fails; unreadable inputs become notes. */
void report_build(Report *r, const ReportFile *files, size_t n, const ReportOptions *opt);
void report_free(Report *r);

/* Renderers. Each returns a NUL-terminated heap string (caller frees) and
 * its length in *len (may be NULL). */
char *report_markdown(const Report *r, size_t *len);
char *report_json(const Report *r, size_t *len);
char *report_html(const Report *r, size_t *len);

/* What the editor shows after generating: all strings static. */
typedef struct {
  const char *verdict;     /* "需适配" */
  const char *verdict_en;  /* "needs adaptation" */
  const char *verdict_id;  /* "needs-adaptation" */
  double weeks, person_days;
  size_t files, findings, blockers, p0, p1, not_involved, phases;
} ReportSummary;

void report_summary(const Report *r, ReportSummary *s);

/* Index of a long replacement in r->patterns, or -1 when it is short. */
long report_pattern_of(const Report *r, const char *replacement);

/* How a renderer writes one part of a replacement: a pattern reference
 * (its number), code (one token) or prose. Strings borrowed for the call. */
typedef struct {
  void (*pattern)(void *data, long number);
  void (*code)(void *data, const char *part);
  void (*prose)(void *data, const char *part);
  void (*separator)(void *data); /* between "; "-joined parts */
  void (*none)(void *data);      /* no replacement at all */
} ReportReplWriter;

/* Walks a row's replacement part by part ("; "-joined), telling each part's
 * kind to w: the one split shared by the Markdown and HTML renderers. */
void report_write_replacement(const Report *r, const char *s, const ReportReplWriter *w, void *data);

/* Small helpers the renderers share. */
const char *report_priority_name(ReportPriority p, bool zh); /* "P0", "P1", "not involved"/"不涉及" */
const char *report_priority_id(ReportPriority p);            /* "P0", "P1", "not-involved" */
const char *report_level_name(ReportLevel l, bool zh);       /* "High"/"高" */
const char *report_compat_name(CompatStatus s, bool zh);     /* "needs replacement"/"需替换" */
const char *report_compat_id(CompatStatus s);                /* "needs-replacement" */
const char *report_class_name(DepClass c, bool zh);          /* "framework API"/"框架 API" */
const char *report_class_id(DepClass c);                     /* "framework-api" */
const char *report_route_name(RouteId id, bool zh);          /* "framework-level migration" */
const char *report_domain_title(int domain, bool zh);        /* "Domain 2: Device Layer" */
const char *report_domain_short(int domain, bool zh);        /* "Device layer"; 0 and unknown: "Other" */
const char *report_chip_name(unsigned chip);                 /* "910B" */

#endif
