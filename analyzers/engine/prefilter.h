/* prefilter: a byte-level test that a Python file cannot produce any finding,
 * so that it need not be parsed.
 *
 * Every mapping row of the knowledge base (and every detector row) can only
 * match where one of its literal fragments occurs in the text: a qualified
 * name's components appear in the import and the attribute chain, a device
 * string's value appears in the literal, a detector's parameters name the
 * calls it looks at. The prefilter collects those fragments (identifier runs
 * of three or more bytes) into one Aho-Corasick automaton and scans the text
 * once. When any row has no such fragment the prefilter is disabled (every
 * file passes). Built once, read-only afterwards: thread-safe. */
#ifndef ASC_PREFILTER_H
#define ASC_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>

/* true when the text may contain a finding (contains a fragment). */
bool prefilter_may_match(const char *text, size_t len);
/* Number of fragments in the automaton (0 when disabled). For benchmarks. */
size_t prefilter_fragments(void);

#endif
