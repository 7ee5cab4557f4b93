/* Unit tests for the bracket-nesting scan (analyzers/engine/nesting.c) that
 * keeps files the parser cannot delete safely away from it. */
#include "tests/unit/test.h"

#include <stdlib.h>

#include "analyzers/engine/nesting.h"

static size_t test_nesting__py(const char *s) { return nesting_depth(s, strlen(s), NESTING_PYTHON); }

TEST(nesting_counts_open_brackets_across_lines) {
  ASSERT_EQ(test_nesting__py("x = f(a[1], {2: (3)})\n"), 3);
  ASSERT_EQ(test_nesting__py("x = ((\n((\n"), 4);   /* Python brackets continue over lines */
  ASSERT_EQ(test_nesting__py(")))]]} x = (1)\n"), 1); /* stray closers do not go below zero */
  ASSERT_EQ(test_nesting__py(""), 0);
}

TEST(nesting_skips_comments_and_strings) {
  ASSERT_EQ(test_nesting__py("x = 1  # (((( [[[\ny = '((((' + \"[[[[\" + (1)\n"), 1);
  ASSERT_EQ(test_nesting__py("s = '''((\n(('''\nt = r'\\'' + '(\\'(' + (2)\n"), 1);
  ASSERT_EQ(test_nesting__py("s = 'unterminated (((\nx = (1)\n"), 1);
  ASSERT_EQ(test_nesting__py("s = b\"((\" + rb'((' + u'(('\n"), 0);
  /* f-string interpolations are parsed as code: they count */
  ASSERT_EQ(test_nesting__py("s = f'{((1))}'\n"), 3);
  ASSERT_EQ(test_nesting__py("s = rf\"{(1)}\" + name'((('\n"), 2); /* `name'` is no prefix: a plain string */
  const char *c = "/* ((( */ int f(int a) { // (((\n  return g(\"((\", '(');\n}\n";
  ASSERT_EQ(nesting_depth(c, strlen(c), NESTING_C), 2);
  const char *toml = "# [[[\na = [\"[[\", '[[', \"\"\"[[\"\"\", [1]]\n";
  ASSERT_EQ(nesting_depth(toml, strlen(toml), NESTING_TOML), 2);
}

TEST(nesting_limit) {
  size_t n = NESTING_MAX_DEPTH + 4;
  char *t = malloc(n + 1);
  memcpy(t, "x = ", 4);
  memset(t + 4, '(', NESTING_MAX_DEPTH);
  t[n] = '\0';
  ASSERT(!nesting_too_deep(t, n, NESTING_PYTHON)); /* exactly at the limit is still parsed */
  t[3] = '[';
  ASSERT(nesting_too_deep(t, n, NESTING_PYTHON));
  ASSERT(nesting_file_too_deep(FILE_PYTHON, t, n));
  ASSERT(nesting_file_too_deep(FILE_CUDA, t, n));
  ASSERT(!nesting_file_too_deep(FILE_REQUIREMENTS, t, n)); /* not parsed with tree-sitter */
  free(t);
  ASSERT_STR_EQ(nesting_note(), "skipped, brackets nested more than 50000 deep");
}
