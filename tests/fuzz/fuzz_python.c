/* fuzz_python: analyze_text (parse + every domain analyzer + the file-wide
 * passes) on arbitrary bytes, as each file kind the analyzers read.
 *
 * Byte 0 picks the file name (hence the kind and the readers that run):
 * Python, setup.py, CUDA/C++, pyproject.toml, setup.cfg, requirements.txt,
 * environment.yml, a shell script; bit 7 selects the rules by prefix
 * (exercising the filter pass). The rest is the file text, analyzed once
 * with a forest parsed here and once without (analyze_text parses): both
 * must give the same findings. Every finding must lie inside the text, and
 * every edit range too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/engine/nesting.h"
#include "analyzers/kb/kb.h"

#define FUZZ_CHECK(c)                                                              \
  do {                                                                             \
    if (!(c)) {                                                                    \
      fprintf(stderr, "fuzz_python: check failed: %s (line %d)\n", #c, __LINE__);  \
      abort();                                                                     \
    }                                                                              \
  } while (0)

static const char *const fuzz__paths[] = {
    "pkg/train.py", "setup.py",         "csrc/kernel.cu",  "pyproject.toml",
    "setup.cfg",    "requirements.txt", "environment.yml", "scripts/run.sh",
    "pkg/stub.pyi", "csrc/ops.cpp",     "constraints.in",  "pkg/__init__.py",
};

static bool fuzz__same(const Finding *a, const Finding *b) {
  return a->rule == b->rule && a->start_byte == b->start_byte && a->end_byte == b->end_byte &&
         a->severity == b->severity && strcmp(a->message, b->message) == 0 && a->edits.len == b->edits.len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const char *path = fuzz__paths[(data[0] & 0x7F) % (sizeof fuzz__paths / sizeof fuzz__paths[0])];
  /* analyze_text takes text + len; a NUL terminator is not promised by the
   * API, so give it none: ASan catches reads past len. */
  size_t len = size - 1;
  char *text = malloc(len ? len : 1);
  memcpy(text, data + 1, len);

  AnalyzeOptions opt;
  analyze_options_default(&opt);
  static const char *const sel[] = {"ASC2", "ASC1"};
  if (data[0] & 0x80) {
    opt.select = sel;
    opt.n_select = 2;
  }

  FindingList a = {0}, b = {0};
  FileFacts fa = {0};
  analyze_text(path, text, len, NULL, &opt, &a, &fa);

  TSLanguage *lang = analyze_language(context_file_kind(path));
  Forest forest;
  forest_init(&forest, context_file_kind(path));
  bool parsed = false;
  TSParser *parser = NULL;
  /* past the nesting limit the runtime's tree delete double-frees: never parsed */
  if (lang && len < UINT32_MAX / 2 && !nesting_file_too_deep(context_file_kind(path), text, len)) {
    parser = ts_parser_new();
    parsed = forest_parse(&forest, parser, text, len);
  }
  analyze_text(path, text, len, parsed ? &forest : NULL, &opt, &b, NULL);

  FUZZ_CHECK(a.len == b.len);
  for (size_t i = 0; i < a.len; i++) {
    const Finding *f = &a.items[i];
    FUZZ_CHECK(fuzz__same(f, &b.items[i]));
    FUZZ_CHECK(f->rule && f->message && f->message_zh);
    FUZZ_CHECK(f->start_byte <= f->end_byte && f->end_byte <= len);
    for (size_t k = 0; k < f->edits.len; k++)
      FUZZ_CHECK(f->edits.items[k].start <= f->edits.items[k].end && f->edits.items[k].end <= len);
  }
  findings_free(&a);
  findings_free(&b);
  analyze_facts_free(&fa);
  forest_free(&forest);
  if (parser) ts_parser_delete(parser);
  free(text);
  return 0;
}
