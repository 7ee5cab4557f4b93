/* Knowledge-base patterns: globs, alternatives and exclusions. */
#include "tests/unit/test.h"
#include "analyzers/kb/kb.h"

#include <stdlib.h>

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

TEST(kb_expand_fills_named_holes_once) {
  const KbVar vars[] = {{"q", "query"}, {"layout", "BSND"}, {"empty", NULL}};
  char *s = kb_expand("f({q}, layout=\"{layout}\"{empty}) {unknown} {q", vars, 3);
  ASSERT_STR_EQ(s, "f(query, layout=\"BSND\") {unknown} {q");
  free(s);
  /* a value is not expanded again */
  const KbVar self[] = {{"a", "{b}"}, {"b", "x"}};
  s = kb_expand("{a}{b}", self, 2);
  ASSERT_STR_EQ(s, "{b}x");
  free(s);
}

TEST(kb_render_attention_templates) {
  const KbVar vars[] = {{"q", "q"}, {"k", "k"}, {"v", "v"}, {"heads", "2"}, {"layout", "BSND"},
                        {"scale", ", scale=0.125"}, {"keep_prob", ", keep_prob=1.0"}, {"index", "[0]"},
                        {"varlen", NULL},  {"causal", NULL}};
  char *s = kb_render("attn-train", vars, 10);
  ASSERT_STR_EQ(s, "torch_npu.npu_fusion_attention(q, k, v, q.shape[2], input_layout=\"BSND\", scale=0.125, "
                   "keep_prob=1.0)[0]");
  free(s);
  ASSERT(kb_template("attn-no-such-template") == NULL);
  s = kb_render("attn-no-such-template", vars, 8);
  ASSERT_STR_EQ(s, "");
  free(s);
}
