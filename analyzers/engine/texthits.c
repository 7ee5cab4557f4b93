/* texthits: see texthits.h. */
#include "analyzers/engine/texthits.h"

#include <stdlib.h>
#include <string.h>

#include "analyzers/engine/util.h"

typedef struct {
  char *needle;
  size_t n;
  Array(uint32_t) at; /* ascending starts */
  bool fresh;         /* `at` holds every hit: no edit since the word was read */
  bool asked;         /* asked since the last settle */
} TextWord;

struct TextHits {
  Array(TextWord) words;
  Array(ByteRange) touched; /* bytes edits wrote since the last settle (current offsets) */
  size_t len;               /* the text's length after the edits; SIZE_MAX: no text seen */
};

TextHits *texthits_new(void) {
  TextHits *h = xcalloc(1, sizeof *h);
  h->len = SIZE_MAX;
  return h;
}

static void texthits__forget(TextHits *h, size_t keep_asked) {
  size_t w = 0;
  for (size_t i = 0; i < h->words.len; i++) {
    TextWord *t = &h->words.items[i];
    if (keep_asked && t->asked) {
      t->asked = false;
      h->words.items[w++] = *t;
      continue;
    }
    free(t->needle);
    array_free(&t->at);
  }
  h->words.len = w;
}

void texthits_free(TextHits *h) {
  if (!h) return;
  texthits__forget(h, false);
  array_free(&h->words);
  array_free(&h->touched);
  free(h);
}

/* Moves the n ranges r through an edit: bytes [start, old_end) became
 * [start, new_end). A range after the edit moves with it; one the edit
 * reaches into grows or shrinks to the edit's new bytes. */
static void texthits__ranges_edit(ByteRange *r, size_t n, uint32_t start, uint32_t old_end, uint32_t new_end) {
  int64_t delta = (int64_t)new_end - (int64_t)old_end;
  for (size_t i = 0; i < n; i++) {
    if (r[i].start >= old_end) r[i].start = (uint32_t)(r[i].start + delta);
    else if (r[i].start > start) r[i].start = start;
    if (r[i].end >= old_end) r[i].end = (uint32_t)(r[i].end + delta);
    else if (r[i].end > start) r[i].end = new_end;
  }
}

void texthits_edit(TextHits *h, uint32_t start, uint32_t old_end, uint32_t new_end) {
  int64_t delta = (int64_t)new_end - (int64_t)old_end;
  if (h->len != SIZE_MAX) h->len = (size_t)((int64_t)h->len + delta);
  for (size_t i = 0; i < h->words.len; i++) {
    TextWord *t = &h->words.items[i];
    size_t w = 0;
    for (size_t k = 0; k < t->at.len; k++) {
      uint32_t p = t->at.items[k];
      if (p < old_end && p + t->n > start) continue; /* written over, or split by an insert */
      t->at.items[w++] = p >= old_end ? (uint32_t)(p + delta) : p;
    }
    t->at.len = w;
    t->fresh = false;
  }
  texthits__ranges_edit(h->touched.items, h->touched.len, start, old_end, new_end);
  ByteRange r = {start, new_end};
  array_push(&h->touched, r);
}

/* Every hit in text[from, to), appended to out. */
static void texthits__scan(const char *text, size_t from, size_t to, const char *needle, size_t n, void *out) {
  Array(uint32_t) *at = out;
  for (const char *p = text + from, *end = text + to; (size_t)(end - p) >= n;) {
    const char *hit = memmem(p, (size_t)(end - p), needle, n);
    if (!hit) break;
    array_push(at, (uint32_t)(hit - text));
    p = hit + 1;
  }
}

static int texthits__cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The hits the edits may have made: a word's length around each touched
 * range (an occurrence holds a written byte, or spans where bytes went). */
static void texthits__refresh(TextHits *h, TextWord *t, const char *text, size_t len) {
  size_t before = t->at.len;
  for (size_t i = 0; i < h->touched.len; i++) {
    const ByteRange *r = &h->touched.items[i];
    size_t from = r->start >= t->n - 1 ? r->start - (t->n - 1) : 0;
    size_t to = (size_t)r->end + t->n - 1 < len ? (size_t)r->end + t->n - 1 : len;
    if (from < to) texthits__scan(text, from, to, t->needle, t->n, &t->at);
  }
  if (t->at.len > before) { /* windows may overlap each other and kept hits */
    qsort(t->at.items, t->at.len, sizeof *t->at.items, texthits__cmp);
    size_t w = 0;
    for (size_t k = 0; k < t->at.len; k++)
      if (!w || t->at.items[w - 1] != t->at.items[k]) t->at.items[w++] = t->at.items[k];
    t->at.len = w;
  }
  t->fresh = true;
}

const uint32_t *texthits_find(TextHits *h, const char *text, size_t len, const char *needle, size_t n, size_t *count) {
  if (!n) {
    *count = 0;
    return NULL;
  }
  if (h->len != len) { /* a text the edits do not explain: read everything again */
    texthits__forget(h, false);
    h->touched.len = 0;
    h->len = len;
  }
  TextWord *t = NULL;
  for (size_t i = 0; i < h->words.len && !t; i++)
    if (h->words.items[i].n == n && memcmp(h->words.items[i].needle, needle, n) == 0) t = &h->words.items[i];
  if (!t) {
    TextWord w = {xstrndup(needle, n), n, {0}, true, false};
    texthits__scan(text, 0, len, needle, n, &w.at);
    array_push(&h->words, w);
    t = &h->words.items[h->words.len - 1];
  } else if (!t->fresh) {
    texthits__refresh(h, t, text, len);
  }
  t->asked = true;
  *count = t->at.len;
  return t->at.items;
}

bool texthits_within(TextHits *h, const char *text, size_t len, const char *needle, size_t n, size_t from, size_t to) {
  size_t count;
  const uint32_t *at = texthits_find(h, text, len, needle, n, &count);
  size_t lo = 0, hi = count; /* the first hit at or after `from` */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (at[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && at[lo] + n <= to;
}

void texthits_settle(TextHits *h) {
  texthits__forget(h, true);
  h->touched.len = 0;
}
