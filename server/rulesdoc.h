/* rulesdoc: the rule reference as Markdown (`rules --format md`), the text
 * linked from each diagnostic's codeDescription and shown on hover. */
#ifndef ASC_RULESDOC_H
#define ASC_RULESDOC_H

#include <stdio.h>
#include "analyzers/kb.h"

/* Writes the reference for one code (or every rule when code is NULL).
 * Returns the exit code: 0, or 2 for an unknown code. */
int rulesdoc_markdown(FILE *out, const char *code);
/* Markdown explanation of one rule for hover. Caller frees. */
char *rulesdoc_hover(const KbRule *r, const Finding *f);

#define RULESDOC_URL "https://github.com/ascend-lsp/ascend-lsp/blob/main/docs/rules.md"

#endif
