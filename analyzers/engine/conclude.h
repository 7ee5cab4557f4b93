/* conclude: what a Python file as a whole says about its units' findings.
 *
 * Units are analyzed apart (context.h), so a rule that speaks once per file,
 * or only when something elsewhere in the file holds, cannot decide inside
 * its unit. conclude_file decides once, over every unit's findings and the
 * file passes' (the last part of step 1 in analyze.h), in this order, each
 * conclusion read from kb data:
 *
 *   1. a library row (kb_entry_is_library: `xformers.*`, `tensorrt.*`)
 *      speaks in the first unit that reports it outside an import line;
 *      its findings in later units are repeats and go;
 *   2. the rules of the "file-once-rules" template say an API once per
 *      file: of the findings with one code and subject, the first stays;
 *   3. the rules of the "compile-only-rules" template configure
 *      compilation: in a file that compiles nothing (no unit noted
 *      UNIT_COMPILES) they go.
 *
 * Detectors make no file-wide edits of their own: this is the one place.
 * Ownership: `out` is edited in place (dropped findings freed); everything
 * else is borrowed. */
#ifndef ASC_CONCLUDE_H
#define ASC_CONCLUDE_H

#include "analyzers/engine/context.h"

/* unit_starts: the units' first bytes, ascending (n_units of them); flags:
 * the UNIT_* flags of all units or-ed together. */
void conclude_file(const PyFile *py, const uint32_t *unit_starts, size_t n_units, unsigned flags, FindingList *out);

#endif
