/* fixes: see fixes.h. */
#include "server/fixes.h"

#include <stdlib.h>

static bool fixes__same(const TextEdit *a, const TextEdit *b) {
  return a->start == b->start && a->end == b->end && strcmp(a->text, b->text) == 0;
}

/* Two edits conflict when their ranges overlap, or both insert at one point
 * with different text (the order would be arbitrary). */
static bool fixes__conflict(const TextEdit *a, const TextEdit *b) {
  if (fixes__same(a, b)) return false;
  if (a->start == a->end && b->start == b->end) return a->start == b->start;
  if (a->start == a->end) return a->start > b->start && a->start < b->end;
  if (b->start == b->end) return b->start > a->start && b->start < a->end;
  return a->start < b->end && b->start < a->end;
}

static int fixes__cmp(const void *x, const void *y) {
  const TextEdit *a = x, *b = y;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->end != b->end) return a->end < b->end ? -1 : 1;
  return strcmp(a->text, b->text);
}

void fixes_collect(const FindingList *l, bool unsafe, TextEditList *out, FixStats *st) {
  FixStats none;
  if (!st) st = &none;
  memset(st, 0, sizeof *st);
  for (size_t i = 0; i < l->len; i++) {
    const Finding *f = &l->items[i];
    if (f->fix == FIX_NONE || f->edits.len == 0) {
      st->unfixable++;
      continue;
    }
    if (f->fix == FIX_UNSAFE && !unsafe) {
      st->unsafe++;
      continue;
    }
    bool ok = true;
    for (size_t k = 0; k < f->edits.len && ok; k++)
      for (size_t j = 0; j < out->len && ok; j++) ok = !fixes__conflict(&f->edits.items[k], &out->items[j]);
    if (!ok) {
      st->skipped++;
      continue;
    }
    for (size_t k = 0; k < f->edits.len; k++) {
      bool dup = false;
      for (size_t j = 0; j < out->len && !dup; j++) dup = fixes__same(&f->edits.items[k], &out->items[j]);
      if (dup) continue;
      TextEdit e = f->edits.items[k];
      e.text = xstrdup(e.text);
      array_push(out, e);
    }
    st->applied++;
  }
  if (out->len > 1) qsort(out->items, out->len, sizeof *out->items, fixes__cmp);
}

void fixes_edits_free(TextEditList *l) {
  for (size_t i = 0; i < l->len; i++) free(l->items[i].text);
  array_free(l);
}

char *fixes_apply(const char *text, size_t len, const FindingList *l, bool unsafe, size_t *out_len, FixStats *st) {
  TextEditList edits = {0};
  fixes_collect(l, unsafe, &edits, st);
  if (edits.len == 0) {
    fixes_edits_free(&edits);
    return NULL;
  }
  StrBuf sb;
  sb_init(&sb);
  size_t at = 0;
  for (size_t i = 0; i < edits.len; i++) {
    const TextEdit *e = &edits.items[i];
    if (e->start > len || e->end > len || e->start < at) continue; /* defensive: stale edit */
    sb_append(&sb, text + at, e->start - at);
    sb_puts(&sb, e->text);
    at = e->end;
  }
  sb_append(&sb, text + at, len - at);
  fixes_edits_free(&edits);
  *out_len = sb.len;
  return sb_steal(&sb);
}
