/* context: file classification, rule lookup and selection over the shared options (see context.h). */
#include "analyzers/engine/context.h"

#include "analyzers/engine/texthits.h"

static const char *context__base(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

FileKind context_file_kind(const char *path) {
  const char *b = context__base(path);
  if (util_ends_with(b, ".py") || util_ends_with(b, ".pyi")) return FILE_PYTHON;
  if (strcmp(b, "pyproject.toml") == 0) return FILE_PYPROJECT;
  if (strcmp(b, "setup.cfg") == 0) return FILE_SETUP_CFG;
  if ((util_starts_with(b, "requirements") || util_starts_with(b, "constraints") ||
       util_ends_with(b, "-requirements.txt") || util_ends_with(b, ".requirements.txt") ||
       util_ends_with(b, "_requirements.txt")) &&
      (util_ends_with(b, ".txt") || util_ends_with(b, ".in")))
    return FILE_REQUIREMENTS;
  /* a requirements folder's lists (generative-models' requirements/pt2.txt) */
  if ((util_ends_with(b, ".txt") || util_ends_with(b, ".in")) && b - path >= 13 && strncmp(b - 13, "requirements/", 13) == 0)
    return FILE_REQUIREMENTS;
  if (util_starts_with(b, "environment") && (util_ends_with(b, ".yml") || util_ends_with(b, ".yaml")))
    return FILE_CONDA_ENV;
  static const char *const cuda_ext[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx"};
  for (size_t i = 0; i < sizeof cuda_ext / sizeof cuda_ext[0]; i++)
    if (util_ends_with(b, cuda_ext[i])) return FILE_CUDA;
  if (util_ends_with(b, ".sh") || util_ends_with(b, ".bash")) return FILE_SHELL;
  if (util_ends_with(b, ".so") || strstr(b, ".so.")) return FILE_ELF;
  return FILE_UNKNOWN;
}

/* Whether a path is test or benchmark code: under tests/, test/,
 * benchmarks/ or any directory named bench..., test_*.py, *_test.py,
 * benchmark*.py, bench_*.py, conftest.py. */
/* Whether a requirements file is the developers' (dev-requirements.txt,
 * requirements-test.txt, requirements/docs.txt): what tests, docs and
 * linters need, not the product's install. */
static bool context__dev_requirements(const char *path, const char *base) {
  static const char *const words[] = {"dev", "test", "tests", "docs", "doc", "lint", "bench", "benchmark"};
  bool in_dir = base - path >= 13 && strncmp(base - 13, "requirements/", 13) == 0;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    size_t n = strlen(words[i]);
    const char *w = words[i];
    if (in_dir && strncmp(base, w, n) == 0 && (base[n] == '.' || base[n] == '-' || base[n] == '_')) return true;
    if (strncmp(base, w, n) == 0 && (base[n] == '-' || base[n] == '_') && util_starts_with(base + n + 1, "requirements"))
      return true;
    if (util_starts_with(base, "requirements") && (base[12] == '-' || base[12] == '_') && strncmp(base + 13, w, n) == 0 &&
        (base[13 + n] == '.' || base[13 + n] == '-' || base[13 + n] == '_'))
      return true;
  }
  return false;
}

bool context_is_test_path(const char *path) {
  if (!path) return false;
  const char *base = context__base(path);
  if (context__dev_requirements(path, base)) return true;
  if (util_starts_with(base, "test_") || util_ends_with(base, "_test.py") || strcmp(base, "conftest.py") == 0 ||
      strcmp(base, "testing_utils.py") == 0 || /* the test helpers of a library (diffusers, transformers) */
      strcmp(base, "collect_env.py") == 0 ||   /* the environment report for bug reports (PyTorch's, mmcv's) */
      util_starts_with(base, "benchmark") || util_starts_with(base, "bench_") || util_ends_with(base, "_bench.py") ||
      strcmp(base, "bench.py") == 0 || strcmp(base, "gentests.py") == 0 || strcmp(base, "run_tests.py") == 0 ||
      util_ends_with(base, "_tests.py") ||
      /* `test.py` beside a kernel (`kernels/attn/test.py`) checks it; at the top a script may be named so */
      ((strcmp(base, "test.py") == 0 || strcmp(base, "tests.py") == 0) && base != path) ||
      util_ends_with(base, "_benchmark.py"))
    return true;
  for (const char *d = path; (d = strstr(d, "test")) != NULL; d++) {
    const char *e = d + 4 + (d[4] == 's');
    if ((d == path || d[-1] == '/') && *e == '/') return true;
  }
  for (const char *d = path; (d = strstr(d, "bench")) != NULL; d++)
    if ((d == path || d[-1] == '/') && strchr(d, '/')) return true;
  /* nor is what lives in a hidden folder (.dev_scripts/, .github/, .circleci/): the developers' tooling */
  for (const char *d = path; *d; d++)
    if ((d == path || d[-1] == '/') && d[0] == '.' && d[1] && d[1] != '/' && d[1] != '.' && strchr(d, '/')) return true;
  /* the documentation's examples and configuration are no product code either */
  for (const char *d = path; (d = strstr(d, "doc")) != NULL; d++)
    if ((d == path || d[-1] == '/') && (d[3] == '/' || (d[3] == 's' && d[4] == '/'))) return true;
  /* nor the examples and evaluation scripts beside them (examples/, inference_examples/, evaluate/) */
  for (const char *c = path, *slash; (slash = strchr(c, '/')) != NULL; c = slash + 1) {
    size_t n = (size_t)(slash - c);
    /* demos/ of a library, baselines/ (the vendor-library versions a kernel is timed against) and
     * a library's testing/ helpers (flashinfer.testing: timers and seeds for its tests and benchmarks) */
    static const char *const dirs[] = {"examples", "example", "demos", "evaluate", "evaluation", "baselines", "testing"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
      if (n == strlen(dirs[i]) && strncmp(c, dirs[i], n) == 0) return true;
    if ((n > 9 && strncmp(slash - 9, "_examples", 9) == 0) || (n > 8 && strncmp(slash - 8, "_example", 8) == 0)) return true;
    /* a project's own test folder under another name: block_sparse_tests/, kernel_test/ */
    if ((n > 6 && strncmp(slash - 6, "_tests", 6) == 0) || (n > 5 && strncmp(slash - 5, "_test", 5) == 0)) return true;
  }
  for (const char *d = path; (d = strstr(d, "tutorial")) != NULL; d++)
    if ((d == path || d[-1] == '/') && (d[8] == '/' || (d[8] == 's' && d[9] == '/'))) return true;
  /* teaching material: educational/, educational_b200/ */
  for (const char *d = path; (d = strstr(d, "educational")) != NULL; d++)
    if ((d == path || d[-1] == '/') && strchr(d, '/')) return true;
  return false;
}

static bool context__code_in(const char *const *list, size_t n, const char *code) {
  for (size_t i = 0; i < n; i++)
    if (list[i] && *list[i] && util_starts_with(code, list[i])) return true;
  return false;
}

const KbRule *context_rule(const AnalyzeOptions *opt, const char *code) {
  for (size_t i = 0; opt && i < opt->n_user_rules; i++)
    if (strcmp(opt->user_rules[i].code, code) == 0) return &opt->user_rules[i];
  return kb_rule(code);
}

bool context_code_selected(const AnalyzeOptions *opt, const char *code) {
  if (opt->n_select > 0 && !context__code_in(opt->select, opt->n_select, code)) return false;
  return !context__code_in(opt->ignore, opt->n_ignore, code);
}

/* ---- questions a unit asks of the whole text -------------------------------- */

/* Whether text[0, len) holds needle: from the kept word hits, else read. */
static bool context__has(TextHits *hits, const char *text, size_t len, const char *needle) {
  size_t n = strlen(needle), count = 0;
  if (!n) return false;
  if (!hits) return memmem(text, len, needle, n) != NULL;
  texthits_find(hits, text, len, needle, n, &count);
  return count > 0;
}

bool context_text_has(const AnalyzeCtx *ctx, const char *needle) {
  bool hit = context__has(ctx->hits, ctx->text, ctx->len, needle);
  if (ctx->unit && !ctx->unit->file) {
    UnitQuery q = {xstrdup(needle), hit};
    array_push(&ctx->unit->queries, q);
  }
  return hit;
}

bool context_queries_hold(const AnalyzeUnit *u, TextHits *hits, const char *text, size_t len) {
  for (size_t i = 0; i < u->queries.len; i++)
    if (context__has(hits, text, len, u->queries.items[i].needle) != u->queries.items[i].found) return false;
  return true;
}

void context_queries_free(UnitQueries *q) {
  for (size_t i = 0; i < q->len; i++) free(q->items[i].needle);
  array_free(q);
}

void unit_links_free(UnitLinks *l) {
  findings_free(&l->findings);
  findings_free(&l->added);
  for (size_t i = 0; i < l->sites.len; i++) free(l->sites.items[i].kernel);
  array_free(&l->sites);
  array_free(&l->inference);
  l->kept = false;
  l->file_fold = -1;
}
