/* effort: the report's effort table (person-days per EffortKind), the
 * computation of a total from findings, and the feasibility verdict.
 *
 * The table is data (effort.c, one row per EffortKind with its unit, rate
 * and the reason for the number); docs/report.md reproduces it. Amounts are
 * integer hundredths of a person-day ("centidays") so that totals are exact
 * and print the same everywhere; weeks are person-days / 5, rounded up to
 * the next half week.
 *
 * Everything here is pure computation over caller-owned inputs; nothing is
 * allocated except in EffortSum, which owns nothing either. */
#ifndef ASC_EFFORT_H
#define ASC_EFFORT_H

#include "analyzers/engine/finding.h"

typedef enum {
  EFFORT_UNIT_NONE,       /* costs nothing */
  EFFORT_UNIT_OCCURRENCE, /* every finding */
  EFFORT_UNIT_PATTERN,    /* each distinct (subject, detail): one rewrite serves identical calls */
  EFFORT_UNIT_SUBJECT,    /* each distinct subject (API, package, kernel name) */
  EFFORT_UNIT_KERNEL,     /* each kernel: a base plus a rate per 100 lines (Finding.weight) */
  EFFORT_UNIT_FILE,       /* each distinct (rule, file): one edit pass over a file serves its sites */
} EffortUnit;

typedef struct {
  EffortKind kind;
  EffortUnit unit;
  int centidays;          /* per unit (per kernel: the base) */
  int centidays_per_100;  /* EFFORT_UNIT_KERNEL: per 100 lines of kernel */
  const char *label_en, *label_zh;
  const char *unit_en, *unit_zh; /* "per occurrence", "每处" */
  const char *why_en, *why_zh;
} EffortRate;

/* One row per EffortKind, in EffortKind order. Static. */
const EffortRate *effort_rates(size_t *count);
const EffortRate *effort_rate(EffortKind k);

/* Fixed costs, added once per phase and once per project. */
#define EFFORT_PHASE_VALIDATION_CD 100 /* 1 d: an acceptance run per phase (see effort.c) */
#define EFFORT_ENVIRONMENT_CD 100      /* 1 d: CANN + torch_npu installation and a smoke test (once, when any phase exists) */
/* A kernel (family) that an existing NPU op replaces costs this instead of
 * the rewrite rate: bind the op, adapt layouts, test precision. */
#define EFFORT_KERNEL_OP_CD 200
/* A guarded finding (a fallback exists) costs this share of its rate. */
#define EFFORT_GUARDED_PERCENT 50

/* What the effort computation needs of one finding (all borrowed). */
typedef struct {
  EffortKind kind;
  const char *subject; /* may be NULL */
  const char *detail;  /* may be NULL */
  uint32_t weight;     /* kernel lines */
  bool guarded;
  bool transfer;       /* transfer_to_npu makes it work at run time: costs nothing */
  const char *rule;    /* rule code, for EFFORT_UNIT_FILE (may be NULL) */
  size_t file;         /* file index, for EFFORT_UNIT_FILE */
  bool has_op;         /* EFFORT_UNIT_KERNEL: an NPU op replaces it (EFFORT_KERNEL_OP_CD) */
} EffortItem;

typedef struct {
  size_t units;        /* occurrences, distinct patterns, kernels, ... */
  size_t guarded_units;
  size_t transfer_units; /* findings transfer_to_npu handles (cost 0, not in units) */
  uint32_t lines;      /* kernel lines counted */
  int64_t centidays;
} EffortLine;

typedef struct {
  EffortLine lines[EFFORT__COUNT];
  size_t n_phases;
  int64_t validation;  /* n_phases x EFFORT_PHASE_VALIDATION_CD */
  int64_t environment; /* EFFORT_ENVIRONMENT_CD when anything is to be done */
  int64_t findings;    /* sum of lines */
  int64_t total;       /* findings + validation + environment */
} EffortSum;

/* Computes the effort of a set of findings for n_phases phases. Distinct
 * units are counted within this set; a unit is guarded only when every one
 * of its findings is. For per-pattern kinds, a finding without detail (an
 * import) joins the pattern of a finding with the same subject, so an
 * import and its call are one rewrite. With no phases the total is the
 * findings' cost only. When item_cost is not NULL (n entries) each unit's
 * cost is written to one of its findings (the first with a detail, else the
 * first) and 0 to the others, so per-row sums add up to the total. */
void effort_compute(const EffortItem *items, size_t n, size_t n_phases, EffortSum *out, int64_t *item_cost);
/* Cost of one unit of kind k (kernel lines for EFFORT_UNIT_KERNEL). */
int64_t effort_unit_cost(EffortKind k, uint32_t lines, bool guarded);

/* The calibrated range of a total: what one engineer needs at the fast
 * and the slow end, from the calibration set's spread (docs/report.md,
 * "Calibration"). Low and high in centidays. */
#define EFFORT_RANGE_LOW_PERCENT 60
#define EFFORT_RANGE_HIGH_PERCENT 160
void effort_range(int64_t centidays, int64_t *low, int64_t *high);

/* Weeks in halves: effort_half_weeks(total) / 2.0 weeks, at least one half
 * week when total > 0. */
int64_t effort_half_weeks(int64_t centidays);
/* "1.25", "3", "0.5": centidays as days without trailing zeros, into buf. */
const char *effort_days_str(int64_t centidays, char *buf, size_t size);
/* "2.5": half weeks as weeks, into buf. */
const char *effort_weeks_str(int64_t half_weeks, char *buf, size_t size);

/* ---- verdict ---------------------------------------------------------- */

typedef enum {
  VERDICT_FEASIBLE = 0,   /* 可行 */
  VERDICT_ADAPT,          /* 需适配 */
  VERDICT_DIFFICULT,      /* 困难 */
  VERDICT_INFEASIBLE,     /* 不可行 */
} Verdict;

/* What the verdict rules look at, per finding. */
typedef struct {
  Severity severity;
  EffortKind kind;
  bool p0;             /* reached by every phase */
  bool involved;       /* reached by at least one phase */
  bool guarded;
  bool has_replacement;
} VerdictItem;

/* Why a finding raises the verdict: the level it sets (VERDICT_FEASIBLE =
 * it does not). The rules, in docs/report.md:
 *  - 不可行: on the P0 path, unguarded, an unsupported dependency
 *    (EFFORT_DEP_UNSUPPORTED) with no replacement at all;
 *  - 困难: on the P0 path, unguarded, a hand-written CUDA or Triton kernel,
 *    an unsupported dependency, or a prebuilt CUDA binary;
 *  - 需适配: involved, severity error or warning, and not mechanical
 *    (anything but EFFORT_NONE / EFFORT_MECHANICAL);
 *  - 可行: everything else (mechanical rewrites, review-only information,
 *    findings no phase reaches). */
Verdict effort_item_verdict(const VerdictItem *it);
/* The worst level over the items (VERDICT_FEASIBLE for none). */
Verdict effort_verdict(const VerdictItem *items, size_t n);

const char *verdict_zh(Verdict v);   /* "需适配" */
const char *verdict_en(Verdict v);   /* "needs adaptation" */
const char *verdict_id(Verdict v);   /* "needs-adaptation" */

#endif
