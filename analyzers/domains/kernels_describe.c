/* kernels_describe: what a kernel does and what replaces it (see kernels.h).
 * The keyword -> op knowledge is the KB_KERNEL_KIND_ROWS table in
 * kb_kernels.def; this file only matches it. */
#include "analyzers/domains/kernels.h"

#include <ctype.h>
#include <stdlib.h>

static const KernelKind kernels__kinds[] = {
#define KB_KERNEL_KIND_ROWS
#include "analyzers/kb/kb_kernels.def"
#undef KB_KERNEL_KIND_ROWS
};

#define KERNELS_NAME_MAX 256
#define KERNELS_MAX_CALLEES 256

static void kernels__lower(const char *s, char *out, size_t n) {
  size_t i = 0;
  for (; s[i] && i + 1 < n; i++) out[i] = (char)tolower((unsigned char)s[i]);
  out[i] = '\0';
}

/* Last component of a callee ("tl.math.rsqrt" -> "rsqrt", "cub::Sum" -> "sum"), lower-cased. */
static void kernels__last(const char *callee, char *out, size_t n) {
  const char *p = callee, *last = callee;
  for (; *p; p++)
    if (*p == '.' || *p == ':') last = p + 1;
  kernels__lower(last, out, n);
}

const KernelKind *kernels_classify(const char *name, const StrList *callees, bool *by_name) {
  size_t n = sizeof kernels__kinds / sizeof kernels__kinds[0];
  char low[KERNELS_NAME_MAX];
  kernels__lower(name ? name : "", low, sizeof low);
  *by_name = true;
  for (size_t i = 0; i < n; i++)
    if (kernels__kinds[i].name && kb_pattern_match(kernels__kinds[i].name, low)) return &kernels__kinds[i];
  *by_name = false;
  for (size_t i = 0; i < n && callees; i++) {
    if (!kernels__kinds[i].body) continue;
    for (size_t k = 0; k < callees->len; k++) {
      kernels__last(callees->items[k], low, sizeof low);
      if (kb_pattern_match(kernels__kinds[i].body, low)) return &kernels__kinds[i];
    }
  }
  return NULL;
}

static const char *kernels__lines(uint32_t n) { return n == 1 ? "line" : "lines"; }

char *kernels_replacement(const KernelKind *k, uint32_t lines, const char *runner) {
  if (runner)
    return k && k->op ? xasprintf("%s; candidate NPU ops to analyse it against: %s (candidates)", runner, k->op)
                      : xstrdup(runner);
  if (k && k->op)
    return xasprintf("analyse what it computes, then rewrite in AscendC (%u %s) or use an NPU op; candidates: %s "
                     "(candidates)",
                     lines, kernels__lines(lines), k->op);
  return xasprintf("rewrite in AscendC or Triton-Ascend (%u %s)", lines, kernels__lines(lines));
}

char *kernels_describe(const KernelKind *k, bool by_name, uint32_t lines, const char *runner) {
  if (!k) return runner ? xasprintf("function: not recognized; run it with %s", runner)
                        : xasprintf("function: not recognized; AscendC rewrite of %u %s", lines, kernels__lines(lines));
  return xasprintf("function: looks like %s (a keyword in its %s, not verified); candidates: %s (confidence %s)",
                   k->kind, by_name ? "name" : "body", k->op ? k->op : "AscendC rewrite", confidence_name(k->confidence));
}

static bool kernels__is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

/* Callee text without blanks, template arguments or a Triton launch grid (`k[grid]`). */
static char *kernels__callee(const char *text, TSNode fn) {
  if (kernels__is(fn, "template_function")) fn = ts_node_child_by_field_name(fn, "name", 4);
  uint32_t s = ts_node_start_byte(fn), e = ts_node_end_byte(fn);
  if (e - s > 200) return NULL;
  char *out = xmalloc(e - s + 1);
  size_t w = 0;
  for (uint32_t i = s; i < e && text[i] != '<' && text[i] != '(' && text[i] != '['; i++)
    if (!isspace((unsigned char)text[i])) out[w++] = text[i];
  out[w] = '\0';
  return out;
}

static void kernels__add_unique(StrList *out, char *s) {
  for (size_t i = 0; i < out->len; i++)
    if (strcmp(out->items[i], s) == 0) {
      free(s);
      return;
    }
  if (out->len >= KERNELS_MAX_CALLEES) {
    free(s);
    return;
  }
  array_push(out, s);
}

void kernels_callees(const char *text, TSNode node, StrList *out) {
  TSTreeCursor cur = ts_tree_cursor_new(node);
  bool more = true;
  while (more) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (kernels__is(n, "call") || kernels__is(n, "call_expression")) {
      char *c = kernels__callee(text, ts_node_child_by_field_name(n, "function", 8));
      if (c && *c) kernels__add_unique(out, c);
      else free(c);
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
      if (!ts_tree_cursor_goto_parent(&cur)) break;
  }
  ts_tree_cursor_delete(&cur);
}

char *kernels_squash(const char *text, size_t len, size_t max) {
  StrBuf sb;
  sb_init(&sb);
  bool blank = false;
  for (size_t i = 0; i < len; i++) {
    if (isspace((unsigned char)text[i])) {
      blank = sb.len > 0;
      continue;
    }
    if (blank) sb_putc(&sb, ' ');
    blank = false;
    sb_putc(&sb, text[i]);
    if (sb.len >= max) {
      sb_puts(&sb, "...");
      break;
    }
  }
  return sb_steal(&sb);
}
