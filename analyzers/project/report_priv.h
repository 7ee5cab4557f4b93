/* report_priv: what report.c, report_blast.c and the renderers share and
 * nobody else needs. Not part of the public API. */
#ifndef ASC_REPORT_PRIV_H
#define ASC_REPORT_PRIV_H

#include "analyzers/project/report.h"

/* The English or Chinese form of a string (both static). */
static inline const char *report_l(bool zh, const char *en, const char *cn) {
  return zh ? cn : en;
}

/* Fills r->blast for the blocker groups: the project functions that wrap
 * each blocker and the call sites that reach them (report_blast.c). */
void report_blast_build(Report *r, const ReportFile *files, size_t n, const PhaseGraph *g, ReportReadFn read,
                        void *data);

/* Names of the phases in a mask, ", "-separated, into sb. */
void report_phase_list(const Report *r, uint64_t mask, StrBuf *sb);

#endif
