/* Unit tests for server/config.c: TOML keys, user rules, errors, the
 * upward search, per-file-ignores and config_apply. */
#include "tests/unit/test.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/config.h"

static bool test_config__parse(Config *c, const char *toml, bool pyproject) {
  return config_parse(c, toml, strlen(toml), pyproject ? "pyproject.toml" : ".ascend-lsp.toml", pyproject);
}

static bool test_config__has(char **list, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i], s) == 0) return true;
  return false;
}

TEST(config_pyproject_keys) {
  const char *toml = "[project]\nname = \"x\"\n\n"
                     "[tool.ruff]\nselect = [\"E\"]\n\n"
                     "[tool.ascend-lsp]\n"
                     "select = [\"ASC2\", \"ASC1\"]   # a comment\n"
                     "extend-select = [\"ASC001\"]\n"
                     "ignore = [\"ASC213\"]\n"
                     "exclude = [\"legacy\", \"third_party/*\"]\n"
                     "[tool.ascend-lsp.per-file-ignores]\n"
                     "\"tests/*.py\" = [\"ASC204\", \"ASC6\"]\n"
                     "[tool.ascend-lsp.target]\n"
                     "chip = \"A3\"\ntorch-npu = \"2.6.0\"\ncann = \"8.1.RC1\"\nmindiesd = true\n"
                     "[tool.ascend-lsp.phases]\ntrain = \"train*.py\"\ninfer = [\"gen.py\", \"serve/*\"]\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, true));
  if (c.error) TEST_FAIL("unexpected error: %s", c.error);
  ASSERT_EQ(c.n_select, 2);
  ASSERT_STR_EQ(c.select[0], "ASC2");
  ASSERT_EQ(c.n_extend_select, 1);
  ASSERT(test_config__has(c.ignore, c.n_ignore, "ASC213"));
  ASSERT(test_config__has(c.exclude, c.n_exclude, "third_party/*"));
  ASSERT_EQ(c.n_per_file_ignores, 1);
  ASSERT_STR_EQ(c.per_file_ignores[0].glob, "tests/*.py");
  ASSERT_EQ(c.per_file_ignores[0].n_codes, 2);
  ASSERT_EQ(c.chip, CHIP_A3);
  ASSERT(c.chip_set);
  ASSERT_STR_EQ(c.torch_npu, "2.6.0");
  ASSERT_STR_EQ(c.cann, "8.1.RC1");
  ASSERT(c.mindiesd && c.mindiesd_set);
  ASSERT_EQ(c.n_phases, 3);
  ASSERT(test_config__has(c.phases, c.n_phases, "train=train*.py"));
  ASSERT(test_config__has(c.phases, c.n_phases, "infer=serve/*"));
  ASSERT(c.report_unused_noqa);
  ASSERT_EQ(c.n_opt_select, 3); /* select + extend-select */
  config_free(&c);
}

TEST(config_other_tools_only) {
  Config c;
  ASSERT(!test_config__parse(&c, "[tool.ruff]\nselect = [\"E\"]\n", true));
  ASSERT(c.error == NULL);
  config_free(&c);
}

TEST(config_dotted_and_inline) {
  const char *toml = "target = {chip = \"310P\", mindiesd = false}\n"
                     "target.torch-npu = '2.5.1'\n"
                     "per-file-ignores = {\"a.py\" = [\"ASC2\"]}\n"
                     "ignore = \"ASC6\"\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, false));
  if (c.error) TEST_FAIL("unexpected error: %s", c.error);
  ASSERT_EQ(c.chip, CHIP_310P);
  ASSERT(c.mindiesd_set && !c.mindiesd);
  ASSERT_STR_EQ(c.torch_npu, "2.5.1");
  ASSERT_EQ(c.n_per_file_ignores, 1);
  ASSERT_STR_EQ(c.per_file_ignores[0].glob, "a.py");
  ASSERT_EQ(c.n_ignore, 1);
  config_free(&c);
}

TEST(config_strings) {
  const char *toml = "[tool.ascend-lsp.phases]\n"
                     "a = \"caf\\u00e9\\t\\\"q\\\"\"\n"
                     "b = 'C:\\raw\\n'\n"
                     "c = \"\"\"\nmulti\\\n    line\"\"\"\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, true));
  if (c.error) TEST_FAIL("unexpected error: %s", c.error);
  ASSERT_EQ(c.n_phases, 3);
  ASSERT_STR_EQ(c.phases[0], "a=caf\xC3\xA9\t\"q\"");
  ASSERT_STR_EQ(c.phases[1], "b=C:\\raw\\n");
  ASSERT_STR_EQ(c.phases[2], "c=multiline");
  config_free(&c);
}

TEST(config_errors_are_reported_not_fatal) {
  const char *toml = "[tool.ascend-lsp]\n"
                     "selct = [\"ASC2\"]\n"
                     "ignore = [\"E501\", \"ASC6\"]\n"
                     "[tool.ascend-lsp.target]\n"
                     "chip = \"H100\"\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, true));
  ASSERT(c.error != NULL);
  ASSERT(strstr(c.error, "2: unknown key 'selct'") != NULL);
  ASSERT(strstr(c.error, "'E501' is not a rule code") != NULL);
  ASSERT(strstr(c.error, "unknown chip 'H100'") != NULL);
  ASSERT_EQ(c.n_ignore, 1); /* the valid code is kept */
  ASSERT_STR_EQ(c.ignore[0], "ASC6");
  ASSERT(!c.chip_set);
  config_free(&c);
}

TEST(config_syntax_error_keeps_the_rest) {
  const char *toml = "[tool.ascend-lsp]\nignore = [\"ASC6\"]\nselect = [\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, true));
  ASSERT(c.error != NULL);
  ASSERT(strstr(c.error, "syntax error") != NULL);
  config_free(&c);
}

TEST(config_user_rules) {
  const char *toml = "[[tool.ascend-lsp.rules]]\n"
                     "code = \"ASC901\"\n"
                     "pattern = \"mylib.cuda_op\"\n"
                     "replacement = \"mylib.npu_op\"\n"
                     "fix = \"mylib.npu_op\"\n"
                     "severity = \"error\"\n"
                     "message = \"{subject}: use {replacement}\"\n"
                     "[[tool.ascend-lsp.rules]]\n"
                     "code = \"ASC901\"\n"
                     "pattern = \"mylib.cuda_*\"\n"
                     "fix = \"x\"\n"
                     "[[tool.ascend-lsp.rules]]\n"
                     "code = \"ASC902\"\n"
                     "kind = \"env\"\n"
                     "pattern = \"MYLIB_CUDA_HOME\"\n"
                     "fix = \"MYLIB_NPU_HOME\"\n"
                     "[[tool.ascend-lsp.rules]]\n"
                     "code = \"ASC201\"\n"
                     "pattern = \"a.b\"\n"
                     "[[tool.ascend-lsp.rules]]\n"
                     "code = \"ASC903\"\n"
                     "kind = \"regex\"\n"
                     "pattern = \"a.b\"\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, true));
  ASSERT(c.error != NULL);
  ASSERT(strstr(c.error, "code 'ASC201' is not a user code: user rules use ASC900-ASC999") != NULL);
  ASSERT(strstr(c.error, "unknown kind 'regex'") != NULL);
  ASSERT(strstr(c.error, "`fix` needs a pattern without wildcards") != NULL);
  ASSERT_EQ(c.n_user_entries, 3);
  ASSERT_EQ(c.n_user_rules, 2);
  const KbEntry *e = &c.user_entries[0];
  ASSERT_STR_EQ(e->code, "ASC901");
  ASSERT_EQ(e->match, KB_QUALNAME);
  ASSERT_EQ(e->fix_kind, KBFIX_RENAME_QUAL);
  ASSERT_EQ(e->fix_safety, FIX_SAFE);
  ASSERT_STR_EQ(e->fix_from, "mylib.cuda_op");
  ASSERT_STR_EQ(e->fix_to, "mylib.npu_op");
  ASSERT_STR_EQ(e->msg_en, "{subject}: use {replacement}");
  ASSERT_EQ(c.user_entries[1].fix_kind, KBFIX_NONE); /* glob: kept without a fix */
  ASSERT_EQ(c.user_entries[2].match, KB_ENV);
  ASSERT_EQ(c.user_entries[2].fix_kind, KBFIX_STRING_SUB);
  const KbRule *r = config_rule(&c, "ASC901");
  ASSERT(r != NULL);
  ASSERT_EQ(r->severity, SEV_ERROR);
  ASSERT_STR_EQ(r->name, "project-asc901");
  ASSERT(config_rule(&c, "ASC201") != NULL); /* built-in */
  ASSERT(config_rule(&c, "ASC999") == NULL);
  config_free(&c);
}

TEST(config_user_rules_inline_array) {
  const char *toml = "rules = [\n"
                     "  {code = \"ASC910\", pattern = \"a.cuda\", kind = \"qualname\"},\n"
                     "  {code = \"ASC911\", pattern = \"cuda_x\", kind = \"method\", fix = \"npu_x\"},\n"
                     "]\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, false));
  if (c.error) TEST_FAIL("unexpected error: %s", c.error);
  ASSERT_EQ(c.n_user_entries, 2);
  ASSERT_EQ(c.user_entries[1].match, KB_METHOD);
  ASSERT_EQ(c.user_entries[1].fix_kind, KBFIX_RENAME_NAME);
  config_free(&c);
}

TEST(config_apply_fills_options) {
  const char *toml = "select = [\"ASC2\"]\nextend-select = [\"ASC0\"]\nignore = [\"ASC204\"]\n"
                     "target = {chip = \"310P\", torch-npu = \"2.6.0\", mindiesd = true}\n"
                     "[[rules]]\ncode = \"ASC950\"\npattern = \"p.q\"\n";
  Config c;
  ASSERT(test_config__parse(&c, toml, false));
  AnalyzeOptions o;
  analyze_options_default(&o);
  config_apply(&c, &o);
  ASSERT_EQ(o.chip, CHIP_310P);
  ASSERT_STR_EQ(o.torch_npu, "2.6.0");
  ASSERT(o.mindiesd);
  ASSERT_EQ(o.n_select, 2);
  ASSERT(o.report_unused_noqa);
  ASSERT(context_code_selected(&o, "ASC201"));
  ASSERT(context_code_selected(&o, "ASC001"));
  ASSERT(!context_code_selected(&o, "ASC204"));
  ASSERT(!context_code_selected(&o, "ASC601"));
  ASSERT_EQ(o.n_user_entries, 1);
  ASSERT_EQ(o.n_user_rules, 1);
  config_free(&c);

  /* no config: the defaults stand */
  Config none;
  memset(&none, 0, sizeof none);
  analyze_options_default(&o);
  config_apply(&none, &o);
  ASSERT_EQ(o.chip, CHIP_910B);
  ASSERT_EQ(o.n_select, 0);
  ASSERT(!o.report_unused_noqa);
}

TEST(config_unused_noqa_needs_explicit_asc0) {
  const char *all[] = {"ASC"}, *meta[] = {"ASC2", "ASC0"}, *exact[] = {"ASC001"}, *other[] = {"ASC002"};
  ASSERT(!config_names_unused_noqa(all, 1));
  ASSERT(config_names_unused_noqa(meta, 2));
  ASSERT(config_names_unused_noqa(exact, 1));
  ASSERT(!config_names_unused_noqa(other, 1));
  ASSERT(config_code_valid("ASC"));
  ASSERT(config_code_valid("ASC2"));
  ASSERT(config_code_valid("ASC201"));
  ASSERT(!config_code_valid("ASC2011"));
  ASSERT(!config_code_valid("asc2"));
  ASSERT(!config_code_valid("E501"));
}

/* ---- files on disk ------------------------------------------------------------- */

static void test_config__write(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* A scratch tree: root/{.ascend-lsp.toml,pyproject.toml}, root/sub/pyproject.toml
 * (no section of ours), root/sub/deep/. Caller removes it with test_config__rm. */
static char *test_config__tree(void) {
  char tmpl[] = "/tmp/asc-config-XXXXXX";
  if (!mkdtemp(tmpl)) return NULL;
  char *root = strdup(tmpl);
  char p[512];
  snprintf(p, sizeof p, "%s/.ascend-lsp.toml", root);
  test_config__write(p, "ignore = [\"ASC6\"]\nexclude = [\"sub/gen\"]\n[per-file-ignores]\n\"sub/deep/*\" = [\"ASC2\"]\n");
  snprintf(p, sizeof p, "%s/pyproject.toml", root);
  test_config__write(p, "[tool.ascend-lsp]\nignore = [\"ASC7\"]\n");
  snprintf(p, sizeof p, "%s/sub", root);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/sub/pyproject.toml", root);
  test_config__write(p, "[tool.black]\nline-length = 100\n");
  snprintf(p, sizeof p, "%s/sub/deep", root);
  mkdir(p, 0755);
  return root;
}

static void test_config__rm(char *root) {
  if (!root) return;
  char *cmd = NULL;
  size_t n = strlen(root) + 16;
  cmd = malloc(n);
  snprintf(cmd, n, "rm -rf '%s'", root);
  if (system(cmd) != 0) fprintf(stderr, "  could not remove %s\n", root);
  free(cmd);
  free(root);
}

TEST(config_load_searches_upward) {
  char *root = test_config__tree();
  ASSERT(root != NULL);
  char deep[512];
  snprintf(deep, sizeof deep, "%s/sub/deep", root);
  Config c;
  int rc = config_load(&c, deep, NULL);
  ASSERT_EQ(rc, 0);
  /* sub/pyproject.toml has no section of ours; at the root .ascend-lsp.toml wins */
  bool ok = c.path && strstr(c.path, ".ascend-lsp.toml") && c.n_ignore == 1 && strcmp(c.ignore[0], "ASC6") == 0;
  /* per-file-ignores globs are relative to the config's directory */
  bool ignored = config_file_ignores(&c, "x.py", "ASC201"); /* relative to base = sub/deep */
  bool other = config_file_ignores(&c, "x.py", "ASC601");
  char abs[600];
  snprintf(abs, sizeof abs, "%s/sub/x.py", root);
  bool outside = config_file_ignores(&c, abs, "ASC201");
  size_t nex = 0;
  const char **ex = config_excludes_for(&c, root, &nex);
  bool ex_root = nex == 1 && strcmp(ex[0], "sub/gen") == 0;
  free(ex);
  char sub[512];
  snprintf(sub, sizeof sub, "%s/sub", root);
  ex = config_excludes_for(&c, sub, &nex);
  bool ex_sub = nex == 1 && strcmp(ex[0], "gen") == 0;
  free(ex);
  config_free(&c);
  Config none;
  rc = config_load(&none, "/", NULL);
  bool empty = rc == 0 && none.path == NULL;
  config_free(&none);
  test_config__rm(root);
  ASSERT(ok);
  ASSERT(ignored);
  ASSERT(!other);
  ASSERT(!outside);
  ASSERT(ex_root);
  ASSERT(ex_sub);
  ASSERT(empty);
}

TEST(config_load_explicit) {
  char *root = test_config__tree();
  ASSERT(root != NULL);
  char p[512];
  snprintf(p, sizeof p, "%s/pyproject.toml", root);
  Config c;
  int rc = config_load(&c, root, p);
  bool ok = rc == 0 && c.n_ignore == 1 && strcmp(c.ignore[0], "ASC7") == 0;
  config_free(&c);
  snprintf(p, sizeof p, "%s/missing.toml", root);
  rc = config_load(&c, root, p);
  config_free(&c);
  test_config__rm(root);
  ASSERT(ok);
  ASSERT(rc < 0);
}

TEST(config_file_ignore_codes_by_glob) {
  Config c;
  ASSERT(test_config__parse(&c, "[per-file-ignores]\n\"tests\" = [\"ASC2\"]\n\"*_test.py\" = [\"ASC001\"]\n", false));
  c.root = arena_strdup(&c.arena, "/proj"); /* a Config's strings live in its arena */
  c.base = arena_strdup(&c.arena, "/proj");
  size_t n = 0;
  const char **codes = config_file_ignore_codes(&c, "tests/unit/a.py", &n); /* a directory covers what is under it */
  ASSERT_EQ(n, 1);
  ASSERT_STR_EQ(codes[0], "ASC2");
  free(codes);
  codes = config_file_ignore_codes(&c, "/proj/tests/model_test.py", &n); /* bare name globs match the file name */
  ASSERT_EQ(n, 2);
  ASSERT_STR_EQ(codes[0], "ASC2");
  ASSERT_STR_EQ(codes[1], "ASC001");
  free(codes);
  ASSERT(config_file_ignore_codes(&c, "src/tests.py", &n) == NULL);
  ASSERT_EQ(n, 0);
  ASSERT(!config_file_ignores(&c, "src/tests.py", "ASC201"));
  config_free(&c);
}

/* The analysis applies per-file ignores itself, after suppressions. */
TEST(analyze_file_applies_file_ignores) {
  const char *src = "import torch\ntorch.cuda.synchronize()\nx = torch.randn(2).cuda()\n";
  AnalyzeOptions o;
  analyze_options_default(&o);
  FindingList all = {0}, some = {0};
  AnalyzeFile file = {.path = "m.py"};
  analyze_file(&file, src, strlen(src), NULL, &o, &all, NULL);
  const char *ignores[] = {"ASC2"};
  file.file_ignores = ignores;
  file.n_file_ignores = 1;
  analyze_file(&file, src, strlen(src), NULL, &o, &some, NULL);
  size_t asc2 = 0;
  for (size_t i = 0; i < all.len; i++) asc2 += util_starts_with(all.items[i].rule->code, "ASC2");
  ASSERT(asc2 > 0);
  ASSERT_EQ(some.len, all.len - asc2);
  for (size_t i = 0; i < some.len; i++) ASSERT(!util_starts_with(some.items[i].rule->code, "ASC2"));
  findings_free(&all);
  findings_free(&some);
}

/* ---- rule docs for built-in and user rules ------------------------------------------ */

#include "server/cli/rulesdoc.h"

static size_t test_config__count(const char *s, const char *needle) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

TEST(rulesdoc_hover_and_links) {
  const KbRule *r = kb_rule("ASC201");
  ASSERT(r != NULL);
  size_t n;
  const KbEntry *rows = kb_entries(&n);
  const KbEntry *e = NULL;
  for (size_t i = 0; i < n && !e; i++) /* a mapping row: detector rows name no API */
    if (strcmp(rows[i].code, "ASC201") == 0 && rows[i].match == KB_QUALNAME) e = &rows[i];
  ASSERT(e != NULL);
  FindingList l = {0};
  Finding *f = kb_emit(&l, r, e, e->pattern, NULL, 0, 1, 0, 0, 0, 1);
  f->fix = FIX_SAFE;
  char *url0 = rulesdoc_url(r);
  char *md = rulesdoc_hover(r, f, url0);
  ASSERT(strstr(md, "### ASC201 torch-cuda-api\n") != NULL);
  ASSERT(strstr(md, "**Ascend replacement:**") != NULL);
  ASSERT_EQ(test_config__count(md, "\n| `"), 1); /* only the matched pattern */
  ASSERT(strstr(md, "docs/rules.md#asc201-torch-cuda-api") != NULL);
  ASSERT(strstr(md, "<br>") == NULL); /* clients show hover Markdown without HTML */
  ASSERT(strstr(md, "**torch.cuda API with a torch.npu equivalent**\n\n存在 torch.npu 对应接口的 torch.cuda API\n") != NULL);
  free(md);
  char *txt0 = rulesdoc_hover_text(r, f, NULL);
  ASSERT(strstr(txt0, "\n\nASC201 (torch-cuda-api): torch.cuda API with a torch.npu equivalent\n") != NULL);
  ASSERT(strstr(txt0, "**") == NULL && strstr(txt0, "<br>") == NULL);
  ASSERT_EQ(test_config__count(txt0, " -> "), 1);
  ASSERT(strstr(txt0, "More:") == NULL); /* no docs: no link */
  free(txt0);
  free(url0);
  findings_free(&l);
  char *full = rulesdoc_rule_markdown(r, NULL, 0);
  ASSERT(test_config__count(full, "\n| `") > 1);
  free(full);
  char *anchor = rulesdoc_anchor(r);
  ASSERT_STR_EQ(anchor, "asc201-torch-cuda-api");
  free(anchor);

  Config c;
  ASSERT(test_config__parse(&c, "[[rules]]\ncode = \"ASC905\"\npattern = \"a.cuda_b\"\nreplacement = \"a.npu_b\"\n", false));
  const KbRule *u = config_rule(&c, "ASC905");
  ASSERT(u != NULL);
  char *url = rulesdoc_url(u);
  ASSERT(strstr(url, "configuration.md#user-rules") != NULL);
  free(url);
  char *txt = rulesdoc_rule_text(u, c.user_entries, c.n_user_entries);
  ASSERT(strstr(txt, "a.cuda_b -> a.npu_b") != NULL);
  ASSERT(strstr(txt, "Domain:     9, Project rules") != NULL);
  free(txt);
  config_free(&c);
}
