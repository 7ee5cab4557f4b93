/* lsp_docs: where the server's rule links point (each diagnostic's
 * codeDescription.href and the hover's documentation link). They point at
 * the rule reference the user has: docs/rules.md shipped with the binary,
 * found from the binary's own location (a build, <repo>/build/ascend-lsp
 * or <repo>/build/<variant>/ascend-lsp, links to <repo>/docs/; the .vsix,
 * extension/bin/ascend-lsp, to
 * extension/docs/; an install, <prefix>/bin/ascend-lsp, to
 * <prefix>/share/doc/ascend-lsp/), as file URIs with the rule's anchor. The
 * environment variable ASCEND_LSP_DOCS_URL replaces that with any base URL
 * (a web copy of docs/). Without either there is no link rather than one
 * that goes nowhere. No state. */
#ifndef ASC_LSP_DOCS_H
#define ASC_LSP_DOCS_H

#include "analyzers/kb/kb.h"

/* The base URL of the documentation, ending in '/': env_url when set and
 * not empty, else the file URI of the docs directory found from the binary
 * `exe` (a path; symbolic links are followed), else NULL. Caller frees. */
char *lsp_docs_find(const char *exe, const char *env_url);

/* The link of rule r under base (rules.md#<anchor>, or the user-rules
 * section of configuration.md for ASC9xx codes); NULL when base is NULL.
 * Caller frees. */
char *lsp_docs_href(const char *base, const KbRule *r);

#endif
