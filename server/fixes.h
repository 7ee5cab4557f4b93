/* fixes: applying findings' edits to a text, shared by `fix`, the LSP
 * fix-all action and the tests.
 *
 * Edits of the selected findings are sorted; identical edits (the same
 * range and text, e.g. one `import torch_npu` insertion wanted by many
 * fixes) are applied once; a finding whose edits overlap an edit already
 * taken is skipped whole (counted in *skipped) so a fix is never half
 * applied. Running the analysis again on the result finds the rest. */
#ifndef ASC_FIXES_H
#define ASC_FIXES_H

#include "analyzers/engine/finding.h"

typedef struct {
  size_t applied;  /* findings whose fix was applied */
  size_t skipped;  /* fixable findings not applied (overlap) */
  size_t unsafe;   /* findings with an unsafe fix left out */
  size_t unfixable;/* findings with no fix */
} FixStats;

/* Returns the fixed text (heap, NUL-terminated; *out_len set), or NULL when
 * nothing changed. `unsafe` also applies unsafe fixes. */
char *fixes_apply(const char *text, size_t len, const FindingList *l, bool unsafe, size_t *out_len, FixStats *st);

/* The merged, non-overlapping edit list (sorted by start) that fixes_apply
 * would apply. Caller frees with fixes_edits_free. */
typedef Array(TextEdit) TextEditList;
void fixes_collect(const FindingList *l, bool unsafe, TextEditList *out, FixStats *st);
void fixes_edits_free(TextEditList *l);

#endif
