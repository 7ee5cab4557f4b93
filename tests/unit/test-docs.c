/* Unit tests of lsp_docs: the rule links of the server point at the
 * docs/rules.md found beside the binary (build tree, .vsix, install
 * prefix), or under ASCEND_LSP_DOCS_URL, and the anchors they carry are
 * the headings of docs/rules.md. */
#include "tests/unit/test.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/cli/rulesdoc.h"
#include "server/lsp/lsp_docs.h"

static void docs_t__write(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* A scratch tree: <tmp>/<layout bin>/ascend-lsp and, when docs is set,
 * <tmp>/<docs>/rules.md. Returns <tmp> (caller frees and removes). */
static char *docs_t__tree(const char *bin, const char *docs) {
  char tmpl[] = "/tmp/ascend-docs-XXXXXX";
  char *root = xstrdup(mkdtemp(tmpl));
  char *cmd = xasprintf("mkdir -p %s/%s %s/%s", root, bin, root, docs ? docs : bin);
  if (system(cmd) != 0) root[0] = '\0';
  free(cmd);
  char *exe = xasprintf("%s/%s/ascend-lsp", root, bin);
  docs_t__write(exe, "");
  free(exe);
  if (docs) {
    char *rules = xasprintf("%s/%s/rules.md", root, docs);
    docs_t__write(rules, "# rules\n");
    free(rules);
  }
  return root;
}

static void docs_t__rm(char *root) {
  char *cmd = xasprintf("rm -rf %s", root);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", root);
  free(cmd);
  free(root);
}

/* Whether lsp_docs_find, for a binary in <tmp>/bin with docs in <tmp>/docs,
 * gives file://<tmp>/<want_rel>/ (or NULL when want_rel is). */
static bool docs_t__found(const char *bin, const char *docs, const char *want_rel) {
  char *root = docs_t__tree(bin, docs);
  char *exe = xasprintf("%s/%s/ascend-lsp", root, bin);
  char *base = lsp_docs_find(exe, NULL);
  char *want = want_rel ? xasprintf("file://%s/%s/", root, want_rel) : NULL;
  bool ok = want ? base && strcmp(base, want) == 0 : base == NULL;
  if (!ok) fprintf(stderr, "  docs of %s: got %s, want %s\n", bin, base ? base : "NULL", want ? want : "NULL");
  free(want);
  free(base);
  free(exe);
  docs_t__rm(root);
  return ok;
}

TEST(docs_found_beside_the_binary) {
  ASSERT(docs_t__found("build", "docs", "docs"));                             /* a build tree */
  ASSERT(docs_t__found("build/asan", "docs", "docs"));                        /* a build variant */
  ASSERT(docs_t__found("extension/bin", "extension/docs", "extension/docs")); /* the .vsix */
  ASSERT(docs_t__found("usr/bin", "usr/share/doc/ascend-lsp", "usr/share/doc/ascend-lsp")); /* installed */
  ASSERT(docs_t__found("build", NULL, NULL));                                 /* no docs: no link */
  char *none = lsp_docs_find("/nonexistent/bin/ascend-lsp", NULL);
  ASSERT(none == NULL);
}

TEST(docs_url_from_the_environment) {
  char *a = lsp_docs_find("/nonexistent", "https://docs.example.org/ascend-lsp");
  ASSERT_STR_EQ(a, "https://docs.example.org/ascend-lsp/");
  char *b = lsp_docs_find(NULL, "https://docs.example.org/x/");
  ASSERT_STR_EQ(b, "https://docs.example.org/x/");
  char *empty = lsp_docs_find("/nonexistent", "");
  ASSERT(empty == NULL);
  const KbRule *r = kb_rule("ASC201");
  char *h = lsp_docs_href(a, r);
  ASSERT_STR_EQ(h, "https://docs.example.org/ascend-lsp/rules.md#asc201-torch-cuda-api");
  ASSERT(lsp_docs_href(NULL, r) == NULL);
  free(h);
  free(a);
  free(b);
}

/* Every built-in rule's anchor is a heading of the repository's
 * docs/rules.md ("### ASC201 torch-cuda-api" -> asc201-torch-cuda-api). */
TEST(docs_anchors_are_headings_of_rules_md) {
  FILE *f = fopen("docs/rules.md", "r");
  ASSERT(f != NULL);
  StrBuf sb;
  sb_init(&sb);
  char line[4096];
  while (fgets(line, sizeof line, f)) sb_puts(&sb, line);
  fclose(f);
  size_t n;
  const KbRule *rules = kb_rules(&n);
  ASSERT(n > 50);
  for (size_t i = 0; i < n; i++) {
    char *heading = xasprintf("\n### %s %s\n", rules[i].code, rules[i].name);
    char *anchor = rulesdoc_anchor(&rules[i]);
    char *want = xasprintf("%s-%s", rules[i].code, rules[i].name);
    for (char *p = want; *p; p++) *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    ASSERT(strstr(sb.data, heading) != NULL);
    ASSERT_STR_EQ(anchor, want);
    free(want);
    free(anchor);
    free(heading);
  }
  sb_free(&sb);
}
