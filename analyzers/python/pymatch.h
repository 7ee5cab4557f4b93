/* pymatch: the table-driven matcher over Python, the first visitor of the
 * shared walk. Every KB_QUALNAME ... KB_DECORATOR row of the knowledge base
 * is matched here; no API name appears in the code.
 *
 * It also adds to py the guarded and NPU-aware ranges found inside
 * expressions (conditional expressions), which the statement-level resolver
 * does not enter.
 *
 * Ownership: pymatch_begin returns a state freed by pymatch_end; ctx and py
 * are borrowed and must outlive it. */
#ifndef ASC_PYMATCH_H
#define ASC_PYMATCH_H

#include "analyzers/engine/context.h"

void *pymatch_begin(AnalyzeCtx *ctx, PyFile *py);
bool pymatch_visit(void *state, const PyVisit *v);
void pymatch_end(void *state);


#endif
