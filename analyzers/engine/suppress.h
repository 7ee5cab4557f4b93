/* suppress: suppression comments, applied after analysis.
 *
 *   x.cuda()  # noqa                 every code on this line
 *   x.cuda()  # noqa: ASC203, ASC2   listed codes or prefixes
 *   x.cuda()  # ascend-lsp: ignore   every code (ignore[ASC203] for some)
 *   # ascend-lsp: noqa               anywhere on its own line: the whole file
 *   # ascend-lsp: noqa: ASC6         the whole file, for those codes
 *
 * In Python only real comments count (from the PyFile); in other files a
 * `#` or `//` comment on the line. Suppressed findings are removed (and
 * freed). With opt->report_unused_noqa, a line suppression that matched
 * nothing becomes an ASC001 finding, appended after the kept ones with its
 * rows and columns not yet set. Returns how many findings were kept (the
 * index of the first ASC001 finding). */
#ifndef ASC_SUPPRESS_H
#define ASC_SUPPRESS_H

#include "analyzers/engine/context.h"
#include "analyzers/python/resolver.h"

/* `starts` (n_lines of them, borrowed) are the text's line starts: a break
 * is "\n", "\r\n" or a lone "\r". With a Python file's kept word hits
 * (texthits.h), only rows holding a marker word are read. */
size_t suppress_apply(const char *text, size_t len, const uint32_t *starts, size_t n_lines, const PyFile *py,
                      struct TextHits *hits, const AnalyzeOptions *opt, FindingList *l);

/* Parses one comment. Returns 0 none, 1 line suppression, 2 file suppression;
 * *codes gets the comma/space separated code list ("" = all), caller frees. */
int suppress_parse(const char *comment, size_t len, char **codes);

#endif
