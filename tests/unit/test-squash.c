/* kernels_squash: whitespace runs become one space, and a cut at `max`
 * bytes never splits a UTF-8 sequence (the text goes into JSON). */
#include "tests/unit/test.h"
#include "analyzers/engine/analyze.h"
#include "analyzers/domains/kernels.h"

#include <stdlib.h>

TEST(squash_collapses_blanks) {
  char *s = kernels_squash("a  b\n\tc", 7, 80);
  ASSERT_STR_EQ(s, "a b c");
  free(s);
}

TEST(squash_cut_keeps_utf8_whole) {
  /* "ab" then an em dash (3 bytes): a cut at 3 bytes would split it */
  const char *t = "ab\xe2\x80\x94 cd";
  char *s = kernels_squash(t, strlen(t), 3);
  ASSERT_STR_EQ(s, "ab\xe2\x80\x94...");
  free(s);
}

TEST(squash_cut_at_ascii) {
  char *s = kernels_squash("abcdef", 6, 3);
  ASSERT_STR_EQ(s, "abc...");
  free(s);
}
