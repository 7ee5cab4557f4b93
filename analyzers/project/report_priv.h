/* report_priv: what report.c, report_blast.c and the renderers share and
 * nobody else needs. Not part of the public API. */
#ifndef ASC_REPORT_PRIV_H
#define ASC_REPORT_PRIV_H

#include "analyzers/project/report.h"

/* The English or Chinese form of a string (both static). */
static inline const char *report_l(bool zh, const char *en, const char *cn) {
  return zh ? cn : en;
}

/* Fills r->blast for the blocker groups: the project definitions that wrap
 * each blocker and the code that reaches them, from the project model's
 * call-site findings (report_blast.c). */
void report_blast_build(Report *r, const ReportFile *files, size_t n, const PhaseGraph *g);

/* The site a row is cited at: its first member some phase needs (a blocker
 * is shown where it blocks), else its first member. Borrowed from r. */
static inline const ReportItem *report_group_site(const Report *r, const ReportGroup *g) {
  for (size_t k = 0; k < g->items.len; k++)
    if (r->items.items[g->items.items[k]].prio != PRIO_NONE) return &r->items.items[g->items.items[k]];
  return &r->items.items[g->items.items[0]];
}

/* Kernel families (report_kernels.c). The family key of a kernel name
 * ("flash_fwd_splitkv_kernel" -> "flash_fwd"); caller frees. */
char *report_kernel_family(const char *name);
/* Whether a finding is an #include (its subject is "<...>" or "\"...\""). */
bool report_is_include(const Finding *f);
/* Whether a finding is a kernel (CUDA or Triton, not an include). */
bool report_is_kernel(const Finding *f);
/* Fills r->families from the kernel groups (items carry their family),
 * counts instantiation files and kernel lines, relabels the groups. */
void report_kernels_build(Report *r, const ReportFile *files, size_t n);
/* The NPU op a kernel finding's replacement names, or NULL (a rewrite).
 * Caller frees. */
char *report_kernel_op(const Finding *f);
/* Blockers whose every site is in a file holding kernels are ported with
 * those kernels: they stop being blockers. */
void report_kernels_unblock(Report *r);
/* Whether the project's own kernels are its product (docs/report.md). */
bool report_kernel_product(const Report *r);

/* Names of the phases in a mask, ", "-separated, into sb. */
void report_phase_list(const Report *r, uint64_t mask, StrBuf *sb);

#endif
