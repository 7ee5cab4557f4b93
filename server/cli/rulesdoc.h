/* rulesdoc: the rule reference, one text for every place a rule is
 * explained: `rules CODE` (plain text), `rules --format md` (docs/rules.md),
 * SARIF help (text and Markdown) and the hover.
 *
 * Each rule is explained from the knowledge base: what it flags (title and
 * the patterns of its mapping rows), why, the Ascend replacement, the
 * confidence and fix safety of each pattern, and an example before/after.
 * User rules (ASC9xx, from the project configuration) are explained the
 * same way when their rows are passed in. Nothing here keeps state. */
#ifndef ASC_RULESDOC_H
#define ASC_RULESDOC_H

#include <stdio.h>
#include "analyzers/kb/kb.h"

#define RULESDOC_URL "https://github.com/ascend-lsp/ascend-lsp/blob/main/docs/rules.md"
#define RULESDOC_CONFIG_URL "https://github.com/ascend-lsp/ascend-lsp/blob/main/docs/configuration.md"

/* Writes the reference for one code (or, when code is NULL, the whole
 * reference: index, then every built-in rule by domain, then the user
 * rules passed in). Returns the exit code: 0, or 2 for an unknown code. */
int rulesdoc_markdown_user(FILE *out, const char *code, const KbRule *user_rules, size_t n_user_rules,
                           const KbEntry *user_entries, size_t n_user_entries);
/* rulesdoc_markdown_user without user rules. */
int rulesdoc_markdown(FILE *out, const char *code);

/* The Markdown section of one rule (heading "### ASC201 name", whose
 * anchor is rulesdoc_anchor). `user` rows are searched with the built-in
 * table. Caller frees. */
char *rulesdoc_rule_markdown(const KbRule *r, const KbEntry *user, size_t n_user);
/* The plain-text explanation printed by `rules CODE`. Caller frees. */
char *rulesdoc_rule_text(const KbRule *r, const KbEntry *user, size_t n_user);
/* One line: "ASC201  warning  torch-cuda-api  title". Caller frees. */
char *rulesdoc_rule_line(const KbRule *r);

/* The anchor of a rule's section in docs/rules.md: the lower-case code, a
 * dash and the rule name ("asc201-torch-cuda-api"), as GitHub derives it
 * from the heading. Caller frees. */
char *rulesdoc_anchor(const KbRule *r);
/* The web documentation link of a rule in the CLI's outputs (JSON url,
 * SARIF helpUri, `rules CODE`; the server links to local docs instead, see
 * server/lsp/lsp_docs.h): RULESDOC_URL#anchor, or the user-rules section of the configuration
 * reference for ASC9xx codes. Caller frees. */
char *rulesdoc_url(const KbRule *r);

/* The pattern of a mapping row as a reader would write it: `torch.cuda.*`,
 * `.cuda()`, `import flash_attn`, `env CUDA_VISIBLE_DEVICES`, ... Caller
 * frees. */
char *rulesdoc_pattern(const KbEntry *e);
/* The domain of a code's hundreds digit, with domain 9 named for the
 * project's own rules. Static string. */
const char *rulesdoc_domain_name(int domain, bool zh);
/* "safe", "unsafe" or "none". */
const char *rulesdoc_fix_name(const KbEntry *e);

/* Markdown explanation of one rule for hover: the finding's replacement,
 * confidence and fix safety (when f is given), then the rule's section as
 * in docs/rules.md with only the pattern f matched, and the link `url` to
 * the full section (borrowed; none when NULL). Caller frees. */
char *rulesdoc_hover(const KbRule *r, const Finding *f, const char *url);
/* The same in plain text (the `rules CODE` text with only the pattern f
 * matched), for clients that show hovers as plain text. Caller frees. */
char *rulesdoc_hover_text(const KbRule *r, const Finding *f, const char *url);

#endif
