/* Knowledge-base patterns: globs, alternatives and exclusions. */
#include "tests/unit/test.h"
#include "analyzers/kb/kb.h"
#include "server/config.h"

#include <dirent.h>
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

/* Every template name the analyzers ask for is a row: a misspelled name
 * would silently expand to nothing. Reads the sources (tests run from the
 * repository root). */
static void kb__check_names(const char *path, const char *call, int *failed, int *seen) {
  char *text = NULL;
  size_t len = 0;
  if (util_read_file(path, (size_t)4 << 20, &text, &len) != 0) return;
  size_t n = strlen(call);
  for (const char *p = text; (p = strstr(p, call)) != NULL; p += n) {
    const char *q = p + n, *e = strchr(q, '"');
    if (!e) break;
    char *name = xstrndup(q, (size_t)(e - q));
    (*seen)++;
    if (!kb_template(name)) {
      fprintf(stderr, "  %s: no template row named \"%s\"\n", path, name);
      *failed = 1;
    }
    free(name);
  }
  free(text);
}

TEST(kb_template_names_used_in_sources_exist) {
  int seen = 0;
  DIR *top = opendir("analyzers");
  ASSERT(top != NULL);
  struct dirent *d;
  while ((d = readdir(top)) != NULL) {
    if (d->d_name[0] == '.') continue;
    char *sub = xasprintf("analyzers/%s", d->d_name);
    DIR *dir = opendir(sub);
    struct dirent *f;
    while (dir && (f = readdir(dir)) != NULL) {
      if (!util_ends_with(f->d_name, ".c")) continue;
      char *path = xasprintf("%s/%s", sub, f->d_name);
      kb__check_names(path, "kb_template(\"", test__failed, &seen);
      kb__check_names(path, "kb_render(\"", test__failed, &seen);
      kb__check_names(path, "attention__form(\"", test__failed, &seen);
      free(path);
    }
    if (dir) closedir(dir);
    free(sub);
  }
  closedir(top);
  ASSERT(seen >= 20);
}

/* The target profiles: exactly one default, oldest first, and the default is
 * a release whose own support list the tables hold (a default without one
 * would check every project against another release's list). */
TEST(kb_profiles_one_default_with_its_own_list) {
  size_t n, ndef = 0;
  const KbProfile *p = kb_profiles(&n);
  ASSERT(n >= 2);
  for (size_t i = 0; i < n; i++) {
    if (p[i].is_default) ndef++;
    if (i) ASSERT(kb_support_compare(p[i - 1].torch_npu, p[i].torch_npu) < 0);
    ASSERT(p[i].cann && *p[i].cann && p[i].source && *p[i].source);
  }
  ASSERT_EQ(ndef, 1);
  const KbProfile *d = kb_profile_default();
  ASSERT(d->is_default);
  bool fallback = true;
  ASSERT(kb_support_version(d->torch_npu, &fallback) >= 0);
  ASSERT(!fallback);
}

TEST(kb_profile_find_by_leading_numbers) {
  const KbProfile *p = kb_profile_find("2.7.1.post8");
  ASSERT(p != NULL);
  ASSERT_STR_EQ(p->torch_npu, "2.7.1");
  ASSERT_STR_EQ(p->package, "2.7.1.post2");
  ASSERT_STR_EQ(p->cann, "8.5.0");
  p = kb_profile_find("2.14.0");
  ASSERT(p != NULL);
  ASSERT_STR_EQ(p->cann, "9.2.0");
  ASSERT_STR_EQ(p->torchnpu, "26.2.0");
  ASSERT(kb_profile_find("2.5.1") == NULL);
  ASSERT(kb_profile_find("") == NULL);
  ASSERT(kb_profile_find(NULL) == NULL);
}

/* A version newer than the newest list reads the newest one, said as such;
 * one older than the oldest reads the oldest. */
TEST(kb_support_version_outside_the_lists) {
  size_t n;
  const KbSupportVersion *vs = kb_support_versions(&n);
  bool fallback = false;
  ASSERT_EQ(kb_support_version("99.0.0", &fallback), (int)n - 1);
  ASSERT(fallback);
  ASSERT_EQ(kb_support_version("1.0.0", &fallback), 0);
  ASSERT(fallback);
  char *want = xasprintf("torch_npu 99.0.0 has no support list; operator coverage uses the torch_npu %s list "
                         "(the newest one)", vs[n - 1].version);
  char *have = config_support_notice("99.0.0");
  ASSERT_STR_EQ(have, want);
  free(want);
  free(have);
  have = config_support_notice("2.7.0");
  ASSERT_STR_EQ(have, "torch_npu 2.7.0 has no support list; operator coverage uses the torch_npu 2.6.0 list "
                      "(the nearest lower one)");
  free(have);
}
