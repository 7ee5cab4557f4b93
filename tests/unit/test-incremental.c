/* Incremental analysis by units: seeded random edit scripts over the
 * Python fixtures are applied to an open document as a language server
 * applies them (doc_edit_bytes, then doc_analyze after some of the edits,
 * which re-parses and re-runs only the units the edits touched). After
 * every analysis the document's findings must be exactly those of a fresh
 * analysis of the same text: every field, every edit, every message. */
#include "tests/unit/test.h"

#include <dirent.h>
#include <stdlib.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/python/pyfacts.h"
#include "server/lsp/docstore.h"

static bool inc_t__str_eq(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* Whether two findings are the same in everything a front end shows. */
static bool inc_t__same(const Finding *a, const Finding *b) {
  if (a->rule != b->rule || a->entry != b->entry || a->severity != b->severity || a->confidence != b->confidence ||
      a->start_byte != b->start_byte || a->end_byte != b->end_byte || a->start_row != b->start_row ||
      a->start_col != b->start_col || a->end_row != b->end_row || a->end_col != b->end_col ||
      a->start_char != b->start_char || a->end_char != b->end_char || a->guarded != b->guarded ||
      a->transfer_covered != b->transfer_covered || a->inference_only != b->inference_only || a->fix != b->fix ||
      a->edits.len != b->edits.len || a->weight != b->weight || a->fix_needs_torch_npu != b->fix_needs_torch_npu)
    return false;
  if (!inc_t__str_eq(a->subject, b->subject) || !inc_t__str_eq(a->message, b->message) ||
      !inc_t__str_eq(a->message_zh, b->message_zh) || !inc_t__str_eq(a->replacement, b->replacement) ||
      !inc_t__str_eq(a->detail, b->detail))
    return false;
  for (size_t i = 0; i < a->edits.len; i++) {
    const TextEdit *x = &a->edits.items[i], *y = &b->edits.items[i];
    if (x->start != y->start || x->end != y->end || x->start_row != y->start_row || x->start_char != y->start_char ||
        x->end_row != y->end_row || x->end_char != y->end_char || !inc_t__str_eq(x->text, y->text))
      return false;
  }
  return true;
}

static uint64_t inc_t__rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* A line start at random, or the end of the text. */
static size_t inc_t__line_start(const Document *d, uint64_t *rng) {
  size_t line = (size_t)(inc_t__rand(rng) % (d->index.count + 1));
  return line < d->index.count ? d->index.starts[line] : d->text.len;
}

static size_t inc_t__line_end(const Document *d, size_t at) {
  while (at < d->text.len && d->text.data[at] != '\n') at++;
  return at;
}

/* One random edit: typing, deleting, duplicating or removing a line,
 * inserting a line that names CUDA, editing the import block. */
static void inc_t__edit(Document *d, uint64_t *rng) {
  static const char *const chars[] = {" ", "x", "(", ")", ":", "\n", "#", "'", "a", "."};
  static const char *const lines[] = {"    torch.cuda.synchronize()\n", "import torch_npu\n",
                                      "x = y.cuda()\n", "from flash_attn import flash_attn_func\n",
                                      "        out = F.scaled_dot_product_attention(q, k, v)\n",
                                      "def helper(x):\n    return x.to(\"cuda\")\n", "    # noqa\n",
                                      "if torch.cuda.is_available():\n"};
  size_t len = d->text.len;
  switch (inc_t__rand(rng) % 7) {
  case 0: { /* type a character */
    size_t at = len ? (size_t)(inc_t__rand(rng) % (len + 1)) : 0;
    const char *c = chars[inc_t__rand(rng) % (sizeof chars / sizeof *chars)];
    doc_edit_bytes(d, at, at, c, 1);
    break;
  }
  case 1: { /* delete a few bytes */
    size_t at = len ? (size_t)(inc_t__rand(rng) % len) : 0;
    doc_edit_bytes(d, at, at + 1 + inc_t__rand(rng) % 8, "", 0);
    break;
  }
  case 2: { /* duplicate a line */
    size_t s = inc_t__line_start(d, rng), e = inc_t__line_end(d, s);
    char *copy = xasprintf("%.*s\n", (int)(e - s), d->text.data + s);
    doc_edit_bytes(d, s, s, copy, strlen(copy));
    free(copy);
    break;
  }
  case 3: { /* delete a line */
    size_t s = inc_t__line_start(d, rng), e = inc_t__line_end(d, s);
    doc_edit_bytes(d, s, e < len ? e + 1 : e, "", 0);
    break;
  }
  case 4: { /* insert a line that matters */
    size_t s = inc_t__line_start(d, rng);
    const char *l = lines[inc_t__rand(rng) % (sizeof lines / sizeof *lines)];
    doc_edit_bytes(d, s, s, l, strlen(l));
    break;
  }
  case 5: { /* the import block: add or drop an import at the top */
    bool add = inc_t__rand(rng) & 1;
    if (add) doc_edit_bytes(d, 0, 0, "import os\n", 10);
    else if (len >= 10 && memcmp(d->text.data, "import os\n", 10) == 0) doc_edit_bytes(d, 0, 10, "", 0);
    break;
  }
  default: { /* type a word at the end of a line, one character at a time */
    size_t e = inc_t__line_end(d, inc_t__line_start(d, rng));
    for (const char *w = " # ok42x"; *w; w++, e++) doc_edit_bytes(d, e, e, w, 1);
    break;
  }
  }
}

static bool inc_t__pos_eq(PyPos a, PyPos b) { return a.byte == b.byte && a.row == b.row && a.col == b.col && a.chr == b.chr; }

static bool inc_t__strs_eq(char *const *a, size_t na, char *const *b, size_t nb) {
  if (na != nb) return false;
  for (size_t i = 0; i < na; i++)
    if (strcmp(a[i], b[i]) != 0) return false;
  return true;
}

/* Whether two files' project-model facts are the same in every field. */
static bool inc_t__facts_eq(const PyFacts *a, const PyFacts *b) {
  if (!a || !b) return a == b;
  if (a->defs.len != b->defs.len || a->calls.len != b->calls.len || a->imports.len != b->imports.len ||
      a->refs.len != b->refs.len || a->dynamic_unknown != b->dynamic_unknown || a->has_all != b->has_all ||
      a->has_main != b->has_main || a->main_start != b->main_start || a->main_end != b->main_end ||
      !inc_t__strs_eq(a->star_imports.items, a->star_imports.len, b->star_imports.items, b->star_imports.len) ||
      !inc_t__strs_eq(a->dynamic_imports.items, a->dynamic_imports.len, b->dynamic_imports.items, b->dynamic_imports.len) ||
      !inc_t__strs_eq(a->all.items, a->all.len, b->all.items, b->all.len))
    return false;
  for (size_t i = 0; i < a->defs.len; i++) {
    const PyDef *x = &a->defs.items[i], *y = &b->defs.items[i];
    if (strcmp(x->name, y->name) || x->kind != y->kind || x->cls != y->cls || x->start != y->start || x->end != y->end ||
        !inc_t__pos_eq(x->at, y->at) || x->decorated != y->decorated ||
        !inc_t__strs_eq(x->bases.items, x->bases.len, y->bases.items, y->bases.len))
      return false;
  }
  for (size_t i = 0; i < a->calls.len; i++) {
    const PyCall *x = &a->calls.items[i], *y = &b->calls.items[i];
    if (strcmp(x->callee, y->callee) || x->kind != y->kind || x->owner != y->owner || x->in_main != y->in_main ||
        x->flags != y->flags || !inc_t__pos_eq(x->start, y->start) || !inc_t__pos_eq(x->end, y->end) ||
        !inc_t__str_eq(x->self_attr, y->self_attr))
      return false;
  }
  for (size_t i = 0; i < a->imports.len; i++) {
    const PyFactImport *x = &a->imports.items[i], *y = &b->imports.items[i];
    if (strcmp(x->local, y->local) || strcmp(x->qualname, y->qualname) || strcmp(x->module, y->module) ||
        x->from_import != y->from_import || x->guarded != y->guarded || x->top != y->top ||
        !inc_t__pos_eq(x->start, y->start) || !inc_t__pos_eq(x->end, y->end))
      return false;
  }
  for (size_t i = 0; i < a->refs.len; i++)
    if (strcmp(a->refs.items[i].name, b->refs.items[i].name) || a->refs.items[i].owner != b->refs.items[i].owner ||
        a->refs.items[i].via != b->refs.items[i].via || a->refs.items[i].plain != b->refs.items[i].plain ||
        a->refs.items[i].attr != b->refs.items[i].attr)
      return false;
  return true;
}

static bool inc_t__matches_fresh(Document *d, const AnalyzeOptions *opt) {
  FindingList fresh = {0};
  FileFacts facts = {0};
  AnalyzeFile file = {.path = d->path};
  analyze_file(&file, d->text.data, d->text.len, NULL, opt, &fresh, &facts);
  bool facts_same = inc_t__facts_eq(facts.py, d->facts.py);
  if (!facts_same) fprintf(stderr, "  %s: the project-model facts differ from a fresh analysis\n", d->path);
  analyze_facts_free(&facts);
  bool same = facts_same && fresh.len == d->findings.len;
  for (size_t i = 0; same && i < fresh.len; i++) same = inc_t__same(&fresh.items[i], &d->findings.items[i]);
  if (!same) {
    fprintf(stderr, "  %s: %zu findings incrementally, %zu fresh; text:\n%.*s\n", d->path, d->findings.len, fresh.len,
            (int)(d->text.len > 3000 ? 3000 : d->text.len), d->text.data);
    for (size_t i = 0; i < d->findings.len || i < fresh.len; i++)
      fprintf(stderr, "    %s@%u %s | %s@%u %s\n", i < d->findings.len ? d->findings.items[i].rule->code : "-",
              i < d->findings.len ? d->findings.items[i].start_byte : 0,
              i < d->findings.len ? d->findings.items[i].message : "", i < fresh.len ? fresh.items[i].rule->code : "-",
              i < fresh.len ? fresh.items[i].start_byte : 0, i < fresh.len ? fresh.items[i].message : "");
  }
  findings_free(&fresh);
  return same;
}

/* Runs `n` seeded edits over one file; returns the units reused overall
 * (-1 on a mismatch). */
static long inc_t__script(const char *path, uint64_t seed, int n, const AnalyzeOptions *opt) {
  char *text = NULL;
  size_t len = 0;
  if (util_read_file(path, 1 << 20, &text, &len) != 0) return -1;
  DocStore s;
  doc_store_init(&s);
  char *uri = xasprintf("file:///w/%s", path);
  Document *d = doc_open(&s, uri, "python", 1, text, len);
  free(uri);
  free(text);
  uint64_t rng = seed * 2654435761u + 1;
  long reused = 0;
  bool ok = true;
  doc_analyze(&s, d, opt, NULL, 0);
  for (int i = 0; i < n && ok; i++) {
    inc_t__edit(d, &rng);
    if (inc_t__rand(&rng) % 3 == 0) continue; /* a debounced edit: analyzed with the next one */
    doc_analyze(&s, d, opt, NULL, 0);
    size_t r = 0, ran = 0;
    if (d->memo) analyze_memo_stats(d->memo, &r, &ran);
    reused += (long)r;
    ok = inc_t__matches_fresh(d, opt);
  }
  doc_store_free(&s);
  return ok ? reused : -1;
}

/* A file past the raw-findings budget (ANALYZE_RAW_LIMIT): nine functions
 * of 500 lines with ten CUDA calls each, 45,000 findings before refinement.
 * Edits that shrink and grow the first function move the point where the
 * walk stops; kept units must never hide that move. */
TEST(incremental_past_the_raw_findings_budget) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "import torch\n");
  for (int f = 0; f < 9; f++) {
    sb_printf(&sb, "\ndef step%d():\n", f);
    for (int l = 0; l < 500; l++) {
      sb_puts(&sb, "   ");
      for (int c = 0; c < 10; c++) sb_puts(&sb, " torch.cuda.synchronize();");
      sb_puts(&sb, "\n");
    }
  }
  DocStore s;
  doc_store_init(&s);
  Document *d = doc_open(&s, "file:///w/budget.py", "python", 1, sb.data, sb.len);
  sb_free(&sb);
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  ASSERT(d->findings.len == ANALYZE_MAX_FINDINGS + 1);
  ASSERT_STR_EQ(d->findings.items[ANALYZE_MAX_FINDINGS].message,
                "30000+ more findings in this file are not listed (at most 10000 per file)");
  const char *cut = strstr(d->text.data, "def step0():\n") + strlen("def step0():\n");
  size_t at = (size_t)(cut - d->text.data), line = (size_t)(strchr(cut, '\n') - cut) + 1;
  char *saved = xstrndup(cut, line * 300);
  doc_edit_bytes(d, at, at + line * 300, "", 0); /* 3,000 findings fewer: the walk goes further */
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  doc_edit_bytes(d, at, at, saved, line * 300); /* and back */
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  uint64_t rng = 99;
  for (int i = 0; i < 6; i++) {
    inc_t__edit(d, &rng);
    doc_analyze(&s, d, &opt, NULL, 0);
    ASSERT(inc_t__matches_fresh(d, &opt));
  }
  free(saved);
  doc_store_free(&s);
}

static const char *const inc_t__fixtures[] = {
    "tests/fixtures/dit-model/dit/attention.py", "tests/fixtures/dit-model/dit/parallel.py",
    "tests/fixtures/dit-model/dit/model.py",     "tests/fixtures/dit-model/dit/sampler.py",
};

TEST(incremental_edit_scripts_match_fresh_analysis) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  for (size_t f = 0; f < sizeof inc_t__fixtures / sizeof *inc_t__fixtures; f++) {
    long reused = inc_t__script(inc_t__fixtures[f], 7 + f, 150, &opt);
    if (reused < 0) TEST_FAIL("%s: incremental findings differ from a fresh analysis", inc_t__fixtures[f]);
    ASSERT(reused > 0); /* the script did take the incremental path */
  }
}

/* The same over every Python fixture, fewer edits each, with unused-noqa
 * reports on (suppressions are file-level). */
TEST(incremental_edit_scripts_every_fixture) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  opt.report_unused_noqa = true;
  StrList files = {0};
  StrList stack = {0};
  array_push(&stack, xstrdup("tests/fixtures"));
  while (stack.len) {
    char *dir = stack.items[--stack.len];
    DIR *dh = opendir(dir);
    for (struct dirent *e; dh && (e = readdir(dh));) {
      if (e->d_name[0] == '.') continue;
      char *p = xasprintf("%s/%s", dir, e->d_name);
      if (util_ends_with(p, ".py")) array_push(&files, p);
      else if (e->d_type == DT_DIR) array_push(&stack, p);
      else free(p);
    }
    if (dh) closedir(dh);
    free(dir);
  }
  array_free(&stack);
  ASSERT(files.len >= 40);
  for (size_t i = 0; i < files.len; i++)
    if (inc_t__script(files.items[i], 100 + i, 40, &opt) < 0)
      TEST_FAIL("%s: incremental findings differ from a fresh analysis", files.items[i]);
  strlist_free(&files);
}

/* Without a project model (no workspace folder) nothing reads the facts:
 * a store that leaves them out gives the findings of one that keeps them,
 * edit after edit, and a store asked for them again has them. */
TEST(incremental_without_facts_same_findings) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  char *text = NULL;
  size_t len = 0;
  ASSERT(util_read_file("tests/fixtures/dit-model/dit/attention.py", 1 << 20, &text, &len) == 0);
  DocStore with, without;
  doc_store_init(&with);
  doc_store_init(&without);
  without.no_facts = true;
  Document *a = doc_open(&with, "file:///w/attention.py", "python", 1, text, len);
  Document *b = doc_open(&without, "file:///w/attention.py", "python", 1, text, len);
  free(text);
  uint64_t ra = 7, rb = 7;
  for (int i = 0; i < 12; i++) {
    doc_analyze(&with, a, &opt, NULL, 0);
    doc_analyze(&without, b, &opt, NULL, 0);
    ASSERT(a->facts.py != NULL);
    ASSERT(b->facts.py == NULL);
    ASSERT_EQ(a->findings.len, b->findings.len);
    for (size_t k = 0; k < a->findings.len; k++) ASSERT(inc_t__same(&a->findings.items[k], &b->findings.items[k]));
    inc_t__edit(a, &ra);
    inc_t__edit(b, &rb);
  }
  without.no_facts = false; /* a model arrived: the next analysis has them, as a fresh one would */
  doc_analyze(&without, b, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(b, &opt));
  doc_store_free(&with);
  doc_store_free(&without);
}

/* The attention pass keeps each unit's conclusion while what the unit read
 * from other units stands. A kernel wrapper called only under no_grad gets
 * the inference advice; an edit of another unit that takes the caller out
 * of no_grad must give it the training advice, and an edit that leaves the
 * callers alone must keep the conclusion. */
static const Finding *inc_t__code_at(const Document *d, const char *code, const char *text_at) {
  const char *p = strstr(d->text.data, text_at);
  for (size_t i = 0; p && i < d->findings.len; i++)
    if (strcmp(d->findings.items[i].rule->code, code) == 0 && d->findings.items[i].start_byte == (uint32_t)(p - d->text.data))
      return &d->findings.items[i];
  return NULL;
}

static void inc_t__replace(Document *d, const char *old, const char *with) {
  const char *p = strstr(d->text.data, old);
  if (!p) return;
  size_t at = (size_t)(p - d->text.data);
  doc_edit_bytes(d, at, at + strlen(old), with, strlen(with));
}

TEST(incremental_attention_conclusion_follows_callers) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  const char *src = "import torch\n"
                    "from flash_attn import flash_attn_func\n\n\n"
                    "def attend(q, k, v):\n"
                    "    return flash_attn_func(q, k, v)\n\n\n"
                    "def generate(q, k, v):\n"
                    "    with torch.no_grad():\n"
                    "        return attend(q, k, v)\n\n\n"
                    "def helper(x):\n"
                    "    return x\n";
  DocStore s;
  doc_store_init(&s);
  Document *d = doc_open(&s, "file:///w/attend.py", "python", 1, src, strlen(src));
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  const Finding *f = inc_t__code_at(d, "ASC301", "flash_attn_func(q");
  ASSERT(f != NULL && f->inference_only);
  char *inference_advice = xstrdup(f->replacement ? f->replacement : "");
  inc_t__replace(d, "return x", "return x + 1"); /* another unit: the conclusion stands */
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC301", "flash_attn_func(q");
  ASSERT(f != NULL && f->inference_only);
  ASSERT_STR_EQ(f->replacement ? f->replacement : "", inference_advice);
  inc_t__replace(d, "with torch.no_grad():", "if q is not None:"); /* the caller trains now */
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC301", "flash_attn_func(q");
  ASSERT(f != NULL && !f->inference_only);
  ASSERT(strcmp(f->replacement ? f->replacement : "", inference_advice) != 0);
  inc_t__replace(d, "if q is not None:", "with torch.no_grad():"); /* and back */
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC301", "flash_attn_func(q");
  ASSERT(f != NULL && f->inference_only);
  inc_t__replace(d, "def helper(x):\n    return x + 1\n", "def helper(x):\n    return attend(x, x, x)\n"); /* a second caller */
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC301", "flash_attn_func(q");
  ASSERT(f != NULL && !f->inference_only);
  ASSERT(inc_t__code_at(d, "ASC309", "attend(x") != NULL); /* the wrapper's new call site */
  free(inference_advice);
  doc_store_free(&s);
}

/* A unit kept by what it asked of the whole text: the compile call behind
 * `args.compile` is an opt-in hint while the file defines `--compile`, and
 * an edit in another unit that renames the option must make the unit run
 * again (its question now has another answer), then renaming it back too. */
TEST(incremental_text_question_follows_other_units) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  const char *src = "import argparse\n"
                    "import torch\n\n\n"
                    "def build(args, model):\n"
                    "    if args.compile:\n"
                    "        model = torch.compile(model)\n"
                    "    return model\n\n\n"
                    "def main():\n"
                    "    parser = argparse.ArgumentParser()\n"
                    "    parser.add_argument(\"--compile\", action=\"store_true\")\n"
                    "    return parser.parse_args()\n";
  DocStore s;
  doc_store_init(&s);
  Document *d = doc_open(&s, "file:///w/train.py", "python", 1, src, strlen(src));
  doc_analyze(&s, d, &opt, NULL, 0);
  const Finding *f = inc_t__code_at(d, "ASC701", "torch.compile(model)");
  ASSERT(f != NULL && f->severity == SEV_HINT);
  inc_t__replace(d, "\"--compile\"", "\"--fast\"");
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC701", "torch.compile(model)");
  ASSERT(f != NULL && f->severity == SEV_INFO);
  inc_t__replace(d, "\"--fast\"", "\"--compile\"");
  doc_analyze(&s, d, &opt, NULL, 0);
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC701", "torch.compile(model)");
  ASSERT(f != NULL && f->severity == SEV_HINT);
  doc_store_free(&s);
}

/* A unit whose message names one of its own lines ("on float64 (line N)")
 * is kept when a line is inserted above it: the kept finding names the
 * line where it is now, exactly as a fresh analysis does, without running
 * the unit again. */
TEST(incremental_named_line_moves_with_its_unit) {
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  const char *src = "import torch\n\n\n"
                    "def warmup():\n"
                    "    torch.cuda.synchronize()\n\n\n"
                    "def rope(dim, pos):\n"
                    "    freqs = torch.arange(0, dim, 2, dtype=torch.float64) / dim\n"
                    "    angles = torch.outer(pos, freqs)\n"
                    "    return torch.polar(torch.ones_like(angles), angles)\n";
  DocStore s;
  doc_store_init(&s);
  Document *d = doc_open(&s, "file:///w/rope.py", "python", 1, src, strlen(src));
  doc_analyze(&s, d, &opt, NULL, 0);
  const Finding *f = inc_t__code_at(d, "ASC602", "torch.polar(");
  ASSERT(f != NULL && strstr(f->subject, "(line 9)") != NULL);
  inc_t__replace(d, "    torch.cuda.synchronize()\n", "    torch.cuda.synchronize()\n    torch.cuda.synchronize()\n");
  doc_analyze(&s, d, &opt, NULL, 0);
  size_t reused = 0, ran = 0;
  analyze_memo_stats(d->memo, &reused, &ran);
  ASSERT_EQ(ran, 1); /* warmup only */
  ASSERT(inc_t__matches_fresh(d, &opt));
  f = inc_t__code_at(d, "ASC602", "torch.polar(");
  ASSERT(f != NULL && strstr(f->subject, "(line 10)") != NULL && strstr(f->message, "(line 10)") != NULL &&
         strstr(f->message_zh, "(line 10)") != NULL);
  doc_store_free(&s);
}
