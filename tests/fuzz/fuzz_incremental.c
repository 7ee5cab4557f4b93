/* fuzz_incremental: differential test of incremental analysis. A random
 * edit script is applied to an open document through doc_edit_bytes (which
 * re-splits the statements an edit touched in the document's forest and
 * moves or touches its units) and doc_analyze (which parses those
 * statements again and, for Python, re-runs only the units the edits and
 * the re-parsed statements touched, keeping the others' findings), analyzing after some of the edits as a
 * language server would; after every analysis the findings must be exactly
 * those of a from-scratch analysis of the same text.
 *
 * Input layout:
 *   byte 0        file kind (Python, CUDA, pyproject.toml, requirements.txt)
 *   bytes 1-2     length L of the initial text (big endian, clamped)
 *   L bytes       the initial text
 *   edits, each:  op (bit 0: analyze after this edit; bit 1: the position is
 *                 a line start, found by counting lines), 2 position bytes,
 *                 1 byte deleted length, 1 byte inserted length N, N bytes.
 * On a mismatch both finding lists are printed before aborting. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/engine/analyze.h"
#include "analyzers/kb/kb.h"
#include "server/lsp/docstore.h"

static const char *const fuzz__uris[] = {"file:///w/pkg/train.py", "file:///w/csrc/k.cu", "file:///w/pyproject.toml",
                                         "file:///w/requirements.txt"};

static bool fuzz__str_eq(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static bool fuzz__same(const Finding *a, const Finding *b) {
  if (a->rule != b->rule || a->entry != b->entry || a->severity != b->severity || a->confidence != b->confidence ||
      a->start_byte != b->start_byte || a->end_byte != b->end_byte || a->start_row != b->start_row ||
      a->start_col != b->start_col || a->end_row != b->end_row || a->end_col != b->end_col ||
      a->start_char != b->start_char || a->end_char != b->end_char || a->guarded != b->guarded ||
      a->transfer_covered != b->transfer_covered || a->inference_only != b->inference_only || a->fix != b->fix ||
      a->edits.len != b->edits.len || a->weight != b->weight)
    return false;
  if (!fuzz__str_eq(a->subject, b->subject) || !fuzz__str_eq(a->message, b->message) ||
      !fuzz__str_eq(a->replacement, b->replacement) || !fuzz__str_eq(a->detail, b->detail) ||
      !fuzz__str_eq(a->message_zh, b->message_zh) || a->fix_needs_torch_npu != b->fix_needs_torch_npu)
    return false;
  for (size_t i = 0; i < a->edits.len; i++) {
    const TextEdit *x = &a->edits.items[i], *y = &b->edits.items[i];
    if (x->start != y->start || x->end != y->end || x->start_row != y->start_row || x->start_char != y->start_char ||
        x->end_row != y->end_row || x->end_char != y->end_char || !fuzz__str_eq(x->text, y->text))
      return false;
  }
  return true;
}

static void fuzz__dump(const char *what, const FindingList *l) {
  fprintf(stderr, "%s (%zu):\n", what, l->len);
  for (size_t i = 0; i < l->len; i++) {
    const Finding *f = &l->items[i];
    fprintf(stderr, "  %s [%u,%u) %u:%u-%u:%u %s%s\n", f->rule->code, f->start_byte, f->end_byte, f->start_row,
            f->start_col, f->end_row, f->end_col, f->message, f->guarded ? " (guarded)" : "");
  }
}

/* Aborts, after printing both, unless the document's findings are those of
 * a fresh analysis of its text. */
static void fuzz__check(Document *d, const AnalyzeOptions *opt) {
  FindingList fresh = {0};
  analyze_text(d->path, d->text.data, d->text.len, NULL, opt, &fresh, NULL);
  bool same = fresh.len == d->findings.len;
  for (size_t i = 0; same && i < fresh.len; i++) same = fuzz__same(&fresh.items[i], &d->findings.items[i]);
  if (!same) {
    fprintf(stderr, "fuzz_incremental: incremental findings differ from a fresh analysis of %s\n", d->path);
    fprintf(stderr, "final text (%zu bytes):\n%.*s\n", d->text.len, (int)(d->text.len > 2000 ? 2000 : d->text.len),
            d->text.data);
    fuzz__dump("incremental", &d->findings);
    fuzz__dump("from scratch", &fresh);
    for (size_t m = 0; m < forest_size(&d->forest); m++) {
      char *a = ts_node_string(forest_root(&d->forest, m));
      fprintf(stderr, "incremental statement %zu: %.500s\n", m, a);
      free(a);
    }
    abort();
  }
  findings_free(&fresh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  const char *uri = fuzz__uris[data[0] % 4];
  size_t L = (size_t)data[1] << 8 | data[2];
  const uint8_t *p = data + 3, *end = data + size;
  if (L > (size_t)(end - p)) L = (size_t)(end - p);
  AnalyzeOptions opt;
  analyze_options_default(&opt);
  DocStore s;
  doc_store_init(&s);
  Document *d = doc_open(&s, uri, "python", 1, (const char *)p, L);
  p += L;
  doc_analyze(&s, d, &opt, NULL, 0);
  int edits = 0;
  while (end - p >= 5 && edits < 64) {
    uint8_t op = p[0];
    size_t pos = (size_t)p[1] << 8 | p[2];
    size_t del = p[3], ins = p[4];
    p += 5;
    if (ins > (size_t)(end - p)) ins = (size_t)(end - p);
    if (op & 2) { /* a line start: pos counts lines */
      size_t line = pos % (d->index.count + 1);
      pos = line < d->index.count ? d->index.starts[line] : d->text.len;
    } else {
      pos %= d->text.len + 1;
    }
    size_t e = pos + del > d->text.len ? d->text.len : pos + del;
    doc_edit_bytes(d, pos, e, (const char *)p, ins);
    p += ins;
    edits++;
    if (op & 1) {
      doc_analyze(&s, d, &opt, NULL, 0);
      fuzz__check(d, &opt);
    }
  }
  doc_analyze(&s, d, &opt, NULL, 0);
  fuzz__check(d, &opt);
  doc_store_free(&s);
  return 0;
}

