/* bench-tool: the in-process parts of `make bench`. Links the core objects.
 *
 *   bench-tool list DIR...                 files and bytes the workspace scan collects
 *   bench-tool parse [--threads N] DIR...  the floor: collect + read + tree-sitter parse
 *                                          of every file, nothing else (N = 0: all cores)
 *   bench-tool prefilter DIR...            which files the byte-level prefilters would
 *                                          skip, and what analyzing them costs
 *   bench-tool edit FILE N [char|line|import|string]
 *                                          N edits applied in process: incremental vs
 *                                          full re-parse, the server's incremental
 *                                          re-analysis, analysis alone, per edit
 *   bench-tool model DIR                   the project model: scan + analysis, model build
 *                                          and link, its memory, and one edit of the most
 *                                          imported module (relink + its dependents' findings)
 *
 * Output is `key value` lines (one per figure) that tests/bench/bench.py reads.
 * Timings use CLOCK_MONOTONIC. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "analyzers/engine/analyze.h"
#include "server/lsp/docstore.h"
#include "server/workspace.h"
#include "analyzers/project/model.h"
#include "analyzers/python/pyfacts.h"
#include <sys/resource.h>
#include "tests/bench/bench_edits.h"

/* The analyzer's own prefilter, when this tree has one (weak: the tool
 * also builds on trees without it). */
bool prefilter_may_match(const char *text, size_t len) __attribute__((weak));
size_t prefilter_fragments(void) __attribute__((weak));

/* CPU time of this thread: on a loaded machine, what the work itself cost. */
static double bench__cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double bench__now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench__collect(Workspace *ws, int argc, char **argv) {
  WsOptions wo = {0};
  int rc = ws_collect(ws, (const char *const *)argv, (size_t)argc, &wo);
  if (rc != 0) fprintf(stderr, "bench-tool: some paths do not exist\n");
  return rc;
}

/* ---- list ---------------------------------------------------------------------- */

static int bench__list(int argc, char **argv) {
  Workspace ws = {0};
  if (bench__collect(&ws, argc, argv) != 0) return 2;
  size_t bytes = 0, lines = 0, kinds[16] = {0};
  for (size_t i = 0; i < ws.files.len; i++) {
    char *text;
    size_t len;
    if (util_read_file(ws.files.items[i].abs, (size_t)1 << 30, &text, &len) != 0) continue;
    bytes += len;
    for (size_t k = 0; k < len; k++) lines += text[k] == '\n';
    kinds[ws.files.items[i].kind & 15]++;
    free(text);
  }
  printf("files %zu\nbytes %zu\nlines %zu\n", ws.files.len, bytes, lines);
  printf("python_files %zu\ncuda_files %zu\n", kinds[FILE_PYTHON], kinds[FILE_CUDA]);
  ws_free(&ws);
  return 0;
}

/* ---- parse ------------------------------------------------------------------- */

typedef struct {
  Workspace *ws;
  atomic_size_t next;
  atomic_size_t bytes;
} ParsePool;

static void *bench__parse_worker(void *arg) {
  ParsePool *p = arg;
  TSParser *parser = ts_parser_new();
  for (;;) {
    size_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->ws->files.len) break;
    WsFile *f = &p->ws->files.items[i];
    char *text;
    size_t len;
    if (util_read_file(f->abs, WS_DEFAULT_MAX_FILE * 4, &text, &len) != 0) continue;
    atomic_fetch_add(&p->bytes, len);
    TSLanguage *lang = analyze_language(f->kind);
    if (lang && !memchr(text, '\0', len)) {
      ts_parser_set_language(parser, lang);
      TSTree *t = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
      if (t) ts_tree_delete(t);
    }
    free(text);
  }
  ts_parser_delete(parser);
  return NULL;
}

static int bench__parse(int argc, char **argv) {
  int threads = 1;
  if (argc >= 2 && strcmp(argv[0], "--threads") == 0) {
    threads = atoi(argv[1]);
    argc -= 2;
    argv += 2;
  }
  if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  double t0 = bench__now();
  Workspace ws = {0};
  if (bench__collect(&ws, argc, argv) != 0) return 2;
  ParsePool p = {&ws, 0, 0};
  pthread_t tids[256];
  int n = threads > 256 ? 256 : threads;
  for (int i = 1; i < n; i++) pthread_create(&tids[i], NULL, bench__parse_worker, &p);
  bench__parse_worker(&p);
  for (int i = 1; i < n; i++) pthread_join(tids[i], NULL);
  double t1 = bench__now();
  printf("files %zu\nbytes %zu\nseconds %.6f\nthreads %d\n", ws.files.len, (size_t)p.bytes, t1 - t0, n);
  ws_free(&ws);
  return 0;
}

/* ---- prefilter ------------------------------------------------------------------- */

/* The literal triggers of the knowledge base domains, as the brief of the
 * byte-level prefilter lists them: a file containing none of them cannot
 * produce a finding of any current rule. */
static const char *const bench__triggers[] = {
    "cuda", "CUDA", "nccl", "flash", "xformers", "triton", "float64", "double", "compile", "jit", "complex",
    "__global__", ".so",
};

/* The list extended by what the first one misses on the generated project:
 * torch.utils.cpp_extension.load/load_inline (ASC413) and `.to(<int>)`
 * device indices (ASC216). */
static const char *const bench__triggers2[] = {"cpp_extension", "load_inline", ".to("};

static bool bench__has_trigger(const char *text, size_t len) {
  for (size_t i = 0; i < sizeof bench__triggers / sizeof bench__triggers[0]; i++)
    if (memmem(text, len, bench__triggers[i], strlen(bench__triggers[i]))) return true;
  return false;
}

static bool bench__has_trigger2(const char *text, size_t len) {
  if (bench__has_trigger(text, len)) return true;
  for (size_t i = 0; i < sizeof bench__triggers2 / sizeof bench__triggers2[0]; i++)
    if (memmem(text, len, bench__triggers2[i], strlen(bench__triggers2[i]))) return true;
  return false;
}

static int bench__prefilter(int argc, char **argv) {
  Workspace ws = {0};
  if (bench__collect(&ws, argc, argv) != 0) return 2;
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  size_t n_trig_skip = 0, b_trig_skip = 0, n_pf_skip = 0, b_pf_skip = 0, n_py = 0, bytes = 0;
  size_t find_trigless = 0, find_pfless = 0, findings_full = 0, findings_pf = 0;
  size_t n_trig_py = 0, b_trig_py = 0, find_trig_py = 0;
  size_t n_trig2 = 0, b_trig2 = 0, find_trig2 = 0;
  double t_trig_py = 0, t_trig2 = 0;
  double t_scan_trig = 0, t_scan_pf = 0, t_full = 0, t_pf = 0, t_trigless = 0, t_pfless = 0;
  for (size_t i = 0; i < ws.files.len; i++) {
    WsFile *f = &ws.files.items[i];
    char *text;
    size_t len;
    if (util_read_file(f->abs, WS_DEFAULT_MAX_FILE * 4, &text, &len) != 0) continue;
    bytes += len;
    double a = bench__now();
    bool trig = bench__has_trigger(text, len);
    double b = bench__now();
    bool pf = prefilter_may_match ? prefilter_may_match(text, len) : true;
    double c = bench__now();
    t_scan_trig += b - a;
    t_scan_pf += c - b;
    /* As the workspace scan calls it (facts wanted: the analyzer's
     * prefilter does not apply) ... */
    FindingList out = {0};
    FileFacts facts = {0};
    double d = bench__now();
    analyze_text(f->path, text, len, NULL, &opt, &out, &facts);
    double e = bench__now();
    size_t nf = out.len;
    findings_free(&out);
    analyze_facts_free(&facts);
    /* ... and as the language server calls it (no facts: it applies). */
    analyze_text(f->path, text, len, NULL, &opt, &out, NULL);
    double g = bench__now();
    findings_pf += out.len;
    findings_free(&out);
    t_full += e - d;
    t_pf += g - e;
    findings_full += nf;
    if (f->kind == FILE_PYTHON) n_py++;
    if (!trig && nf) { /* the trigger list missed these: name them */
      FindingList again = {0};
      analyze_text(f->path, text, len, NULL, &opt, &again, NULL);
      for (size_t k = 0; k < again.len; k++)
        printf("trigger_miss %s:%u %s %s\n", f->path, again.items[k].start_row + 1, again.items[k].rule->code,
               again.items[k].subject ? again.items[k].subject : "");
      findings_free(&again);
    }
    if (f->kind == FILE_PYTHON && !bench__has_trigger2(text, len)) {
      n_trig2++;
      b_trig2 += len;
      t_trig2 += e - d;
      find_trig2 += nf;
    }
    if (!trig && f->kind == FILE_PYTHON) { /* the proposal: Python files only */
      n_trig_py++;
      b_trig_py += len;
      t_trig_py += e - d;
      find_trig_py += nf;
    }
    if (!trig) {
      n_trig_skip++;
      b_trig_skip += len;
      t_trigless += e - d;
      find_trigless += nf;
    }
    if (!pf && f->kind == FILE_PYTHON) {
      n_pf_skip++;
      b_pf_skip += len;
      t_pfless += e - d;
      find_pfless += nf;
    }
    free(text);
  }
  printf("files %zu\nbytes %zu\npython_files %zu\n", ws.files.len, bytes, n_py);
  printf("trigger_skip_files %zu\ntrigger_skip_bytes %zu\ntrigger_skip_findings %zu\n", n_trig_skip, b_trig_skip,
         find_trigless);
  printf("trigger_scan_seconds %.6f\ntrigger_skip_analysis_seconds %.6f\n", t_scan_trig, t_trigless);
  printf("trigger_skip_py_files %zu\ntrigger_skip_py_bytes %zu\ntrigger_skip_py_findings %zu\n"
         "trigger_skip_py_analysis_seconds %.6f\n", n_trig_py, b_trig_py, find_trig_py, t_trig_py);
  printf("trigger2_skip_py_files %zu\ntrigger2_skip_py_bytes %zu\ntrigger2_skip_py_findings %zu\n"
         "trigger2_skip_py_analysis_seconds %.6f\n", n_trig2, b_trig2, find_trig2, t_trig2);
  printf("prefilter_available %d\nprefilter_fragments %zu\n", prefilter_may_match != NULL,
         prefilter_fragments ? prefilter_fragments() : 0);
  printf("prefilter_skip_files %zu\nprefilter_skip_bytes %zu\nprefilter_skip_findings %zu\n", n_pf_skip, b_pf_skip,
         find_pfless);
  printf("prefilter_scan_seconds %.6f\nprefilter_skip_analysis_seconds %.6f\n", t_scan_pf, t_pfless);
  printf("analysis_with_facts_seconds %.6f\nanalysis_without_facts_seconds %.6f\n", t_full, t_pf);
  printf("findings_with_facts %zu\nfindings_without_facts %zu\n", findings_full, findings_pf);
  ws_free(&ws);
  return 0;
}

/* ---- edit ------------------------------------------------------------------------ */

static int bench__cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void bench__stats(const char *name, double *v, size_t n) {
  qsort(v, n, sizeof *v, bench__cmp_double);
  size_t p99 = (size_t)((double)n * 0.99);
  if (p99 >= n) p99 = n - 1;
  printf("%s_median_ms %.4f\n%s_p99_ms %.4f\n%s_max_ms %.4f\n", name, v[n / 2] * 1e3, name, v[p99] * 1e3, name,
         v[n - 1] * 1e3);
}

/* The tree-sitter point (row, byte column) of byte `off`. */
static TSPoint bench__point(const char *t, size_t off) {
  TSPoint p = {0, 0};
  for (size_t i = 0; i < off; i++) {
    if (t[i] == '\n') {
      p.row++;
      p.column = 0;
    } else {
      p.column++;
    }
  }
  return p;
}

static int bench__edit(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *path = argv[0];
  size_t n = (size_t)atol(argv[1]);
  const char *mode = argc > 2 ? argv[2] : "char";
  /* "server" as a fourth argument times the server's path alone (for a profiler) */
  int server_only = argc > 3 && strcmp(argv[3], "server") == 0;
  util_keep_freed_memory(); /* as the server does */
  char *text;
  size_t len;
  if (util_read_file(path, (size_t)1 << 30, &text, &len) != 0) {
    fprintf(stderr, "bench-tool: cannot read %s\n", path);
    return 2;
  }
  DocStore s;
  doc_store_init(&s);
  char *uri = doc_path_to_uri(path);
  Document *d = doc_open(&s, uri, "python", 1, text, len);
  free(text);
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  doc_analyze(&s, d, &opt, NULL, 0);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, analyze_language(FILE_PYTHON));
  /* the baseline: one tree for the whole file, edited and re-parsed incrementally */
  TSTree *single = ts_parser_parse_string(parser, NULL, d->text.data, (uint32_t)d->text.len);
  double *t_doc = calloc(n, sizeof *t_doc), *t_inc = calloc(n, sizeof *t_inc), *t_full = calloc(n, sizeof *t_full),
         *t_an = calloc(n, sizeof *t_an), *t_fulldoc = calloc(n, sizeof *t_fulldoc),
         *c_doc = calloc(n, sizeof *c_doc), *c_full = calloc(n, sizeof *c_full);
  BenchEdits ed;
  bench_edits_init(&ed, strcmp(mode, "line") == 0     ? BENCH_EDIT_LINE
                        : strcmp(mode, "import") == 0 ? BENCH_EDIT_IMPORT
                        : strcmp(mode, "string") == 0 ? BENCH_EDIT_STRING
                                                      : BENCH_EDIT_CHAR,
                   42);
  size_t units_reused = 0, units_ran = 0;
  for (size_t i = 0; i < n; i++) {
    BenchEdit e;
    bench_edits_next(&ed, d->text.data, d->text.len, &e);
    TSInputEdit te = {(uint32_t)e.start, (uint32_t)e.end, (uint32_t)(e.start + e.len),
                      bench__point(d->text.data, e.start), bench__point(d->text.data, e.end), {0, 0}};
    doc_edit_bytes(d, e.start, e.end, e.text, e.len);
    te.new_end_point = bench__point(d->text.data, e.start + e.len);
    ts_tree_edit(single, &te);
    if (server_only) {
      double s0 = bench__now();
      doc_analyze(&s, d, &opt, NULL, 0);
      t_doc[i] = t_inc[i] = t_full[i] = t_an[i] = t_fulldoc[i] = bench__now() - s0;
      continue;
    }
    /* parse only: the one tree with its edited old tree, and from scratch */
    double a = bench__now();
    TSTree *t1 = ts_parser_parse_string(parser, single, d->text.data, (uint32_t)d->text.len);
    double b = bench__now();
    TSTree *t2 = ts_parser_parse_string(parser, NULL, d->text.data, (uint32_t)d->text.len);
    double c = bench__now();
    ts_tree_delete(single);
    single = t1;
    ts_tree_delete(t2);
    Forest fresh;
    forest_init(&fresh, FILE_PYTHON);
    forest_parse(&fresh, parser, d->text.data, d->text.len);
    /* what the server does: incremental re-parse + analysis */
    double cpu0 = bench__cpu(), d0 = bench__now();
    doc_analyze(&s, d, &opt, NULL, 0);
    c_doc[i] = bench__cpu() - cpu0;
    double dd = bench__now();
    size_t ur = 0, un = 0;
    if (d->memo) analyze_memo_stats(d->memo, &ur, &un);
    units_reused += ur;
    units_ran += un;
    /* analysis alone, on the parsed statements */
    FindingList out = {0};
    analyze_text(d->path, d->text.data, d->text.len, &fresh, &opt, &out, NULL);
    double e2 = bench__now();
    findings_free(&out);
    /* full: analyze_text parses from scratch */
    double cpu1 = bench__cpu();
    analyze_text(d->path, d->text.data, d->text.len, NULL, &opt, &out, NULL);
    c_full[i] = bench__cpu() - cpu1;
    double f2 = bench__now();
    findings_free(&out);
    forest_free(&fresh);
    t_inc[i] = b - a;
    t_full[i] = c - b;
    t_doc[i] = dd - d0;
    t_an[i] = e2 - dd;
    t_fulldoc[i] = f2 - e2;
  }
  printf("edits %zu\nlines %zu\nbytes %zu\n", n, d->index.count, d->text.len);
  bench__stats("parse_incremental", t_inc, n);
  bench__stats("parse_full", t_full, n);
  bench__stats("doc_analyze_incremental", t_doc, n);
  bench__stats("analyze_only", t_an, n);
  bench__stats("analyze_full", t_fulldoc, n);
  bench__stats("doc_analyze_incremental_cpu", c_doc, n);
  bench__stats("analyze_full_cpu", c_full, n);
  free(c_doc);
  free(c_full);
  /* units the server re-ran per edit, and kept */
  printf("units_ran_mean %.2f\nunits_reused_mean %.2f\n", (double)units_ran / (double)n, (double)units_reused / (double)n);
  free(t_doc);
  free(t_inc);
  free(t_full);
  free(t_an);
  free(t_fulldoc);
  free(uri);
  ts_tree_delete(single);
  ts_parser_delete(parser);
  doc_store_free(&s);
  return 0;
}

/* ---- model ---------------------------------------------------------------------- */

static long bench__rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return kb;
}

/* The module most others import: the edit that touches the most dependents. */
static size_t bench__most_imported(const Workspace *ws, size_t *importers) {
  size_t best = 0, best_n = 0;
  for (size_t i = 0; i < ws->files.len; i++) {
    const WsFile *f = &ws->files.items[i];
    if (f->kind != FILE_PYTHON || !f->facts.py) continue;
    const char *b = strrchr(f->rel, '/');
    char *stem = xstrdup(b ? b + 1 : f->rel);
    char *dot = strrchr(stem, '.');
    if (dot) *dot = '\0';
    size_t n = 0;
    for (size_t k = 0; k < ws->files.len && strcmp(stem, "__init__") != 0; k++) {
      const FileFacts *ff = &ws->files.items[k].facts;
      for (size_t m = 0; m < ff->imports.len; m++) {
        const char *im = ff->imports.items[m], *last = strrchr(im, '.');
        if (strcmp(last ? last + 1 : im, stem) == 0) {
          n++;
          break;
        }
      }
    }
    free(stem);
    if (n > best_n) {
      best_n = n;
      best = i;
    }
  }
  *importers = best_n;
  return best;
}

static int bench__model(int argc, char **argv) {
  Workspace ws = {0};
  double t0 = bench__now();
  if (bench__collect(&ws, argc, argv) != 0) return 2;
  AnalyzeOptions o;
  analyze_options_default(&o);
  WsRun run = {0};
  ws_analyze(&ws, &o, &run);
  double t1 = bench__now();
  long rss0 = bench__rss_kb();
  Model *m = ws_model_build(&ws, false, false);
  double t2 = bench__now();
  long rss1 = bench__rss_kb();
  ModelStats st;
  model_stats(m, &st);
  printf("scan_analyze_s %.3f\nmodel_build_s %.3f\nmodel_rss_mb %.1f\nprocess_rss_mb %.1f\n", t1 - t0, t2 - t1,
         (double)(rss1 - rss0) / 1024.0, (double)rss1 / 1024.0);
  printf("modules %zu\ndefs %zu\ncalls %zu\nresolved_calls %zu\nneeds_cuda %zu\nunreachable_defs %zu\n"
         "broken_modules %zu\n", st.modules, st.defs, st.calls, st.resolved_calls, st.needs_cuda, st.unreachable_defs,
         st.broken_modules);
  /* one edit of the most imported module: a CUDA call added at its end */
  size_t importers = 0, e = bench__most_imported(&ws, &importers);
  WsFile *f = &ws.files.items[e];
  char *text = NULL;
  size_t len = 0;
  if (util_read_file(f->abs, WS_DEFAULT_MAX_FILE, &text, &len) == 0) {
    char *edited = xasprintf("%.*s\nimport torch\n\n\ndef bench_edit():\n    torch.cuda.synchronize()\n", (int)len, text);
    double a = bench__now();
    FindingList l = {0};
    FileFacts facts = {0};
    analyze_text(f->rel, edited, strlen(edited), NULL, &o, &l, &facts);
    model_set_module(m, f->path, f->rel, &facts, &l);
    double b = bench__now();
    model_link(m);
    double c = bench__now();
    /* the dependents' findings, as the server computes them for open documents */
    size_t deps = 0;
    for (size_t i = 0; i < ws.files.len && deps < 20; i++) {
      WsFile *g = &ws.files.items[i];
      if (g->kind != FILE_PYTHON || !g->facts.py || i == e) continue;
      if (!model_imports_reach(m, g->path, f->path)) continue;
      FindingList copy = {0};
      for (size_t k = 0; k < g->findings.len; k++) array_push(&copy, finding_copy(&g->findings.items[k]));
      model_apply(m, g->path, &o, &copy);
      findings_free(&copy);
      deps++;
    }
    double d = bench__now();
    printf("edit_module %s\nedit_importers %zu\nedit_analyze_ms %.2f\nedit_relink_ms %.2f\nedit_20_dependents_ms %.2f\n"
           "edit_total_ms %.2f\n", f->path, importers, (b - a) * 1e3, (c - b) * 1e3, (d - c) * 1e3, (d - a) * 1e3);
    findings_free(&l);
    analyze_facts_free(&facts);
    /* then an edit of that function's body only (same imports and definitions): the partial relink */
    char *body = xasprintf("%.*s\nimport torch\n\n\ndef bench_edit():\n    torch.zeros(1)\n", (int)len, text);
    memset(&l, 0, sizeof l);
    memset(&facts, 0, sizeof facts);
    analyze_text(f->rel, body, strlen(body), NULL, &o, &l, &facts);
    model_set_module(m, f->path, f->rel, &facts, &l);
    double e0 = bench__now();
    model_link(m);
    double e1 = bench__now();
    printf("edit_body_relink_ms %.2f\n", (e1 - e0) * 1e3);
    findings_free(&l);
    analyze_facts_free(&facts);
    free(body);
    free(edited);
    free(text);
  }
  model_free(m);
  ws_free(&ws);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: bench-tool list|parse|prefilter|edit|model ...\n", stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "list") == 0) return bench__list(argc - 2, argv + 2);
  if (strcmp(cmd, "parse") == 0) return bench__parse(argc - 2, argv + 2);
  if (strcmp(cmd, "prefilter") == 0) return bench__prefilter(argc - 2, argv + 2);
  if (strcmp(cmd, "edit") == 0) return bench__edit(argc - 2, argv + 2);
  if (strcmp(cmd, "model") == 0) return bench__model(argc - 2, argv + 2);
  fprintf(stderr, "bench-tool: unknown mode %s\n", cmd);
  return 2;
}
