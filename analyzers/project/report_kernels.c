/* report_kernels: kernel families, template instantiation files and the
 * kernel-product test of the report (see report_priv.h).
 *
 * A kernel family is what one port replaces: kernels whose names share
 * their first word and direction (flash_fwd_kernel, flash_fwd_splitkv_kernel
 * and FlashAttnFwdSm90 are the "flash_fwd" family), together with the
 * template instantiation files named after it (flash_fwd_hdim128_bf16_sm90.cu:
 * the same words once sizes, dtypes and variants are dropped). */
#include "analyzers/project/report_priv.h"
#include "analyzers/kb/kb.h"

#include <ctype.h>

/* Kernel lines below which a project is not a kernel product by its share:
 * one small kernel next to a small script is not a kernel library. */
#define REPORT_PRODUCT_MIN_LINES 500
#include <stdlib.h>

/* Words that say nothing about what a kernel does. */
static const char report_kernels__noise[] =
    "kernel|kernels|attn|attention|cuda|impl|device|global|launch|template|run|mha|"
    "fp16|bf16|fp32|fp8|e4m3|e5m2|half|float|causal|softcap|softcapall|paged|split|packgqa|local|alibi|"
    "dropout|varlen|hdim|hdimall|hdimdiff|sm|inst|py|cu|cuh|cpp|cc|cxx|h|hpp";

static bool report_kernels__is_noise(const char *w, size_t n) {
  const char *s = report_kernels__noise;
  while (*s) {
    size_t sl = strcspn(s, "|");
    if (sl == n && strncmp(s, w, n) == 0) return true;
    s += sl;
    if (*s == '|') s++;
  }
  return false;
}

static bool report_kernels__is_direction(const char *w, size_t n) {
  return (n == 3 && (!strncmp(w, "fwd", 3) || !strncmp(w, "bwd", 3))) || (n == 7 && !strncmp(w, "forward", 7)) ||
         (n == 8 && !strncmp(w, "backward", 8));
}

/* Lower-case words of a name, split at '_', '.', '-' and camel case;
 * words holding a digit or in the noise list are dropped. */
static void report_kernels__words(const char *name, StrList *out) {
  const char *p = name;
  while (*p) {
    while (*p && !isalnum((unsigned char)*p)) p++;
    if (!*p) break;
    const char *s = p++;
    while (*p && isalnum((unsigned char)*p) && !(isupper((unsigned char)*p) && islower((unsigned char)p[-1]))) p++;
    size_t n = (size_t)(p - s);
    char *w = xstrndup(s, n);
    bool digit = false;
    for (char *c = w; *c; c++) {
      *c = (char)tolower((unsigned char)*c);
      if (isdigit((unsigned char)*c)) digit = true;
    }
    /* the first word names the family even when it is a generic one
     * ("attn_fwd"), unless it is "kernel" itself */
    bool noise = report_kernels__is_noise(w, n) && (out->len > 0 || strcmp(w, "kernel") == 0);
    if (digit || noise) free(w);
    else array_push(out, w);
  }
}

char *report_kernel_family(const char *name) {
  /* "@triton.jit ssd_chunk_scan": the decorator says how, the name what */
  if (name && name[0] == '@' && strrchr(name, ' ')) name = strrchr(name, ' ') + 1;
  StrList w = {0};
  report_kernels__words(name ? name : "", &w);
  char *key;
  if (w.len == 0) {
    key = xstrdup(name && *name ? name : "kernel");
  } else {
    /* the words before the direction (at most three), then the direction;
     * without a direction the first two words */
    size_t dir = (size_t)-1;
    for (size_t i = 1; i < w.len && dir == (size_t)-1; i++)
      if (report_kernels__is_direction(w.items[i], strlen(w.items[i]))) dir = i;
    StrBuf sb;
    sb_init(&sb);
    size_t lead = dir == (size_t)-1 ? (w.len > 1 ? 2 : 1) : (dir < 3 ? dir : 3);
    for (size_t i = 0; i < lead; i++) sb_printf(&sb, "%s%s", i ? "_" : "", w.items[i]);
    if (dir != (size_t)-1) sb_printf(&sb, "_%s", w.items[dir]);
    key = sb_steal(&sb);
  }
  strlist_free(&w);
  return key;
}

bool report_is_include(const Finding *f) {
  return f->subject && (f->subject[0] == '<' || f->subject[0] == '"');
}

bool report_is_kernel(const Finding *f) {
  EffortKind k = f->rule->effort;
  /* a kernel has a body: its size is known (a module import is not a kernel) */
  return (k == EFFORT_CUDA_KERNEL || k == EFFORT_TRITON) && !report_is_include(f) && f->subject && *f->subject &&
         f->weight > 0;
}

/* "attention" from a kernel finding's detail ("...; function: attention (from its name); ..."). */
static char *report_kernels__what(const Finding *f) {
  const char *d = f->detail ? strstr(f->detail, "function: ") : NULL;
  if (!d) return NULL;
  d += 10;
  size_t n = strcspn(d, "(;");
  while (n && d[n - 1] == ' ') n--;
  return n ? xstrndup(d, n) : NULL;
}

/* The NPU op a kernel's replacement names: "... candidates: X (candidates)"
 * or "X; otherwise rewrite ..."; NULL when only a rewrite fits. Caller frees. */
char *report_kernel_op(const Finding *f) {
  const char *r = f->replacement;
  if (!r || !*r || strncmp(r, "rewrite", 7) == 0) return NULL;
  const char *c = strstr(r, "candidates: ");
  if (c) {
    c += 12;
    const char *end = strstr(c, " (candidates)");
    return end ? xstrndup(c, (size_t)(end - c)) : xstrdup(c);
  }
  const char *cut = strstr(r, "; otherwise");
  if (cut == r) return NULL;
  return cut ? xstrndup(r, (size_t)(cut - r)) : xstrdup(r);
}

static bool report_kernels__native(const ReportFile *f) {
  return f->kind == FILE_CUDA;
}

/* A native file without kernels of its own whose name is a family key plus
 * sizes/dtypes/variants: a template instantiation file. */
static bool report_kernels__inst_key(const ReportFile *f, char **key) {
  const char *base = strrchr(f->path, '/');
  base = base ? base + 1 : f->path;
  bool digit = false;
  for (const char *c = base; *c && *c != '.'; c++) digit |= isdigit((unsigned char)*c) != 0;
  if (!digit || !report_kernels__native(f)) return false;
  char *stem = xstrndup(base, strcspn(base, "."));
  *key = report_kernel_family(stem);
  free(stem);
  return true;
}

static bool report_kernels__in_tests(const char *path) {
  return util_starts_with(path, "tests/") || util_starts_with(path, "test/") || strstr(path, "/tests/") ||
         strstr(path, "/test/") || util_starts_with(path, "benchmarks/") || strstr(path, "/benchmarks/");
}

void report_kernels_build(Report *r, const ReportFile *files, size_t n) {
  /* families from the groups whose members are kernels */
  for (size_t gi = 0; gi < r->groups.len; gi++) {
    ReportGroup *g = &r->groups.items[gi];
    const ReportItem *first = &r->items.items[g->items.items[0]];
    if (!first->family) continue;
    ReportFamily fam = {0};
    fam.key = xstrdup(first->family);
    fam.group = gi;
    for (size_t k = 0; k < g->items.len; k++) {
      const ReportItem *it = &r->items.items[g->items.items[k]];
      bool dup = false;
      for (size_t q = 0; q < fam.kernels.len && !dup; q++) dup = strcmp(fam.kernels.items[q], it->f->subject) == 0;
      if (!dup) {
        array_push(&fam.kernels, xstrdup(it->f->subject));
        fam.lines += it->f->weight;
      }
      if (!fam.what) fam.what = report_kernels__what(it->f);
      if (!fam.op) fam.op = report_kernel_op(it->f);
    }
    array_push(&r->families, fam);
  }
  /* instantiation files, and the lines that are kernel code */
  uint8_t *kernel_file = xcalloc(n ? n : 1, 1);
  for (size_t i = 0; i < r->items.len; i++)
    if (r->items.items[i].family) kernel_file[r->items.items[i].file] = 1;
  size_t kernel_lines = 0, code_lines = 0;
  for (size_t i = 0; i < n; i++) {
    const ReportFile *f = &files[i];
    if (f->kind != FILE_PYTHON && f->kind != FILE_CUDA) continue;
    size_t lines = f->facts ? f->facts->lines : 0;
    if (report_kernels__in_tests(f->path)) continue;
    code_lines += lines;
    char *key = NULL;
    if (kernel_file[i]) {
      kernel_lines += lines;
    } else if (report_kernels__inst_key(f, &key)) {
      for (size_t k = 0; k < r->families.len; k++) {
        ReportFamily *fam = &r->families.items[k];
        if (strcmp(fam->key, key) != 0) continue;
        if (!fam->inst_files++) fam->inst_example = xstrdup(f->path);
        kernel_lines += lines;
        break;
      }
    }
    free(key);
  }
  free(kernel_file);
  r->kernel_lines = kernel_lines;
  r->code_lines = code_lines;
  /* the labels the matrix shows */
  for (size_t k = 0; k < r->families.len; k++) {
    ReportFamily *fam = &r->families.items[k];
    ReportGroup *g = &r->groups.items[fam->group];
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, kb_text(KBT_FAMILY_LABEL, r->zh), fam->key, fam->kernels.len);
    if (fam->inst_files) sb_printf(&sb, kb_text(KBT_FAMILY_INST, r->zh), fam->inst_files);
    sb_puts(&sb, kb_text(KBT_FAMILY_CLOSE, r->zh));
    free(g->label);
    g->label = sb_steal(&sb);
    g->label_is_code = false;
    if (fam->op) {
      free(g->replacement);
      g->replacement = xstrdup(fam->op);
    }
  }
}

void report_kernels_unblock(Report *r) {
  if (!r->families.len) return;
  uint8_t *kfile = NULL;
  size_t nf = 0;
  for (size_t i = 0; i < r->items.len; i++)
    if (r->items.items[i].file + 1 > nf) nf = r->items.items[i].file + 1;
  kfile = xcalloc(nf ? nf : 1, 1);
  for (size_t i = 0; i < r->items.len; i++)
    if (r->items.items[i].family) kfile[r->items.items[i].file] = 1;
  size_t w = 0;
  for (size_t b = 0; b < r->blockers.len; b++) {
    size_t gi = r->blockers.items[b];
    ReportGroup *g = &r->groups.items[gi];
    bool in_kernels = !r->items.items[g->items.items[0]].family;
    for (size_t k = 0; k < g->items.len && in_kernels; k++) in_kernels = kfile[r->items.items[g->items.items[k]].file];
    if (in_kernels) g->blocker = false; /* ported with the kernels of its file */
    else r->blockers.items[w++] = gi;
  }
  r->blockers.len = w;
  free(kfile);
}

bool report_kernel_product(const Report *r) {
  bool unguarded = false, api = false;
  for (size_t k = 0; k < r->families.len; k++) {
    const ReportGroup *g = &r->groups.items[r->families.items[k].group];
    if (g->guarded || g->prio == PRIO_NONE) continue; /* a fallback exists, or nothing runs it */
    unguarded = true;
    /* a library whose public API reaches its kernels ships them */
    if (r->library && (g->phases & 1)) api = true;
  }
  if (!unguarded) return false;
  if (api) return true;
  /* most of the code (and more than a helper or two) is kernels */
  return r->kernel_lines >= REPORT_PRODUCT_MIN_LINES && r->kernel_lines * 2 >= r->code_lines;
}
