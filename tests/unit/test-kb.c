/* Knowledge-base patterns: globs, alternatives and exclusions. */
#include "tests/unit/test.h"
#include "analyzers/kb/kb.h"

TEST(kb_pattern_alternatives) {
  ASSERT(kb_pattern_match("torch.cuda.*|torch.backends.cudnn", "torch.cuda.synchronize"));
  ASSERT(kb_pattern_match("torch.cuda.*|torch.backends.cudnn", "torch.backends.cudnn"));
  ASSERT(!kb_pattern_match("torch.cuda.*|torch.backends.cudnn", "torch.backends.cudnn.benchmark"));
  ASSERT(!kb_pattern_match("", "x"));
}

TEST(kb_pattern_exclusion_wins_over_any_alternative) {
  const char *norm = "*Norm*|*norm*|!*ormaliz*";
  ASSERT(kb_pattern_match(norm, "WanRMSNorm"));
  ASSERT(kb_pattern_match(norm, "rms_norm"));
  ASSERT(kb_pattern_match(norm, "WanRMS_norm"));
  ASSERT(!kb_pattern_match(norm, "normalized_guidance"));
  ASSERT(!kb_pattern_match(norm, "GroupNormalization"));
  /* the exclusion may come first */
  ASSERT(!kb_pattern_match("!*ormaliz*|*norm*", "normalize"));
  ASSERT(kb_pattern_match("!*ormaliz*|*norm*", "layer_norm"));
  /* exclusions alone match nothing */
  ASSERT(!kb_pattern_match("!foo", "bar"));
}
