/* fuzz_model: differential test of the incrementally maintained project
 * model. The input is an edit script over five module paths (a package with
 * an __init__.py, two modules, a subpackage module and a script); each
 * edit replaces one module with fuzzed Python text or removes it, on one
 * long-lived model. After the script, the findings every module gets
 * (model_apply, rendered with their related locations) must be exactly
 * those of a model built from scratch over the final texts.
 *
 * Path 5 is a configuration file (conf/model.yaml): its text goes through
 * targets_scan to model_set_config, so that computed imports load what it
 * names (a config loader in pkg/core.py gives them one to load).
 *
 * Input layout, repeated: 1 byte op (low 3 bits: the path, 6 and 7 wrapping
 * to the modules; bit 3: remove;
 * bit 4: link after this edit, as the server does between edits, so that
 * later edits take the partial relink when they keep the module's shape;
 * bit 5: append the text to the module's text instead of replacing it, an
 * edit that mostly keeps the shape), 1 byte length N, N bytes of text. On a
 * mismatch (findings or statistics) both renderings are printed before
 * aborting. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/project/model.h"
#include "analyzers/project/targets.h"

static const char *const fuzz__paths[] = {"pkg/__init__.py", "pkg/core.py", "pkg/mid.py", "pkg/sub/leaf.py", "app.py"};
#define FUZZ_N (sizeof fuzz__paths / sizeof fuzz__paths[0])
#define FUZZ_CONFIG FUZZ_N /* the op's path that names the configuration file */
static const char fuzz__config[] = "conf/model.yaml";

/* The configuration's text (NULL: none) into model m. */
static void fuzz__config_set(Model *m, const char *text) {
  char *targets = text ? targets_scan(text, strlen(text)) : NULL;
  model_set_config(m, fuzz__config, NULL, targets);
  free(targets);
}

static void fuzz__set(Model *m, const char *path, const char *text, size_t len) {
  AnalyzeOptions o;
  analyze_options_default(&o);
  FindingList l = {0};
  FileFacts facts = {0};
  analyze_text(path, text, len, NULL, &o, &l, &facts);
  model_set_module(m, path, path, &facts, &l);
  findings_free(&l);
  analyze_facts_free(&facts);
}

static char *fuzz__render(Model *m, char *const *texts, const size_t *lens) {
  StrBuf sb;
  sb_init(&sb);
  AnalyzeOptions o;
  analyze_options_default(&o);
  for (size_t i = 0; i < FUZZ_N; i++) {
    if (!texts[i]) continue;
    FindingList l = {0};
    FileFacts facts = {0};
    analyze_text(fuzz__paths[i], texts[i], lens[i], NULL, &o, &l, &facts);
    model_apply(m, fuzz__paths[i], &o, &l);
    for (size_t k = 0; k < l.len; k++) {
      const Finding *f = &l.items[k];
      sb_printf(&sb, "%s:%u:%u %d %s %s %d\n", fuzz__paths[i], f->start_byte, f->end_byte, (int)f->severity,
                f->rule->code, f->message, f->unreachable);
      for (size_t r = 0; r < f->related.len; r++)
        sb_printf(&sb, "  %s:%u %s\n", f->related.items[r].path, f->related.items[r].start, f->related.items[r].message);
    }
    findings_free(&l);
    analyze_facts_free(&facts);
  }
  return sb_steal(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *texts[FUZZ_N] = {0};
  size_t lens[FUZZ_N] = {0};
  char *config = NULL;
  Model *inc = model_new();
  size_t at = 0;
  while (at + 2 <= size) {
    unsigned op = data[at], n = data[at + 1];
    at += 2;
    if (n > size - at) n = (unsigned)(size - at);
    if ((op & 7) == FUZZ_CONFIG) {
      char *add = xstrndup((const char *)data + at, n);
      char *next = op & 8 ? NULL : (op & 32) && config ? xasprintf("%s%s", config, add) : xstrdup(add);
      free(add);
      free(config);
      config = next;
      if (config) fuzz__config_set(inc, config);
      else model_remove_under(inc, "conf");
      if (op & 16) model_link(inc);
      at += n;
      continue;
    }
    size_t f = (op & 7) % FUZZ_N;
    char *old = texts[f];
    texts[f] = NULL;
    if (op & 8) {
      model_remove_module(inc, fuzz__paths[f]);
    } else {
      char *add = xstrndup((const char *)data + at, n);
      texts[f] = (op & 32) && old ? xasprintf("%s%s", old, add) : xstrdup(add);
      free(add);
      lens[f] = strlen(texts[f]); /* up to a NUL: binary text is its own case in analyze_text */
      fuzz__set(inc, fuzz__paths[f], texts[f], lens[f]);
    }
    free(old);
    if (op & 16) model_link(inc);
    at += n;
  }
  Model *scratch = model_new();
  for (size_t i = 0; i < FUZZ_N; i++)
    if (texts[i]) fuzz__set(scratch, fuzz__paths[i], texts[i], lens[i]);
  if (config) fuzz__config_set(scratch, config);
  char *a = fuzz__render(inc, texts, lens), *b = fuzz__render(scratch, texts, lens);
  ModelStats sa, sb;
  model_link(inc);
  model_link(scratch);
  model_stats(inc, &sa);
  model_stats(scratch, &sb);
  if (strcmp(a, b) != 0 || memcmp(&sa, &sb, sizeof sa) != 0) {
    fprintf(stderr, "incremental:\n%s\nfrom scratch:\n%s\n", a, b);
    abort();
  }
  free(a);
  free(b);
  model_free(inc);
  model_free(scratch);
  for (size_t i = 0; i < FUZZ_N; i++) free(texts[i]);
  free(config);
  return 0;
}
