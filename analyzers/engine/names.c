/* names: interned strings (see names.h). */
#include "analyzers/engine/names.h"

#include <stdlib.h>
#include <string.h>

/* Eight bytes a step: interning is most of what building the project
 * model costs, and names are long dotted paths. */
static uint64_t names__hash(const char *s, size_t n) { return util_mix_words(0x9e3779b97f4a7c15ull ^ n, s, n); }

/* The slot's tag: the hash's upper half, which the slot index does not use,
 * so that most slots of other names are passed over without a compare. */
static uint32_t names__tag(uint64_t h) { return (uint32_t)(h >> 32); }

static bool names__is(const char *o, const char *s, size_t n) { return memcmp(o, s, n) == 0 && o[n] == '\0'; }

/* The slot holding s[0, n), or the empty slot where it would go. */
static size_t names__slot(const Names *t, const char *s, size_t n, uint64_t h) {
  size_t mask = t->n_slots - 1, i = (size_t)h & mask;
  uint32_t tag = names__tag(h);
  for (; t->slots[i]; i = (i + 1) & mask)
    if (t->tags[i] == tag && names__is(t->strs.items[t->slots[i] - 1], s, n)) break;
  return i;
}

int64_t names_find(const Names *t, const char *s, size_t n) {
  if (!t->n_slots) return -1;
  size_t i = names__slot(t, s, n, names__hash(s, n));
  return t->slots[i] ? (int64_t)t->slots[i] - 1 : -1;
}

static void names__grow(Names *t) {
  size_t ns = t->n_slots ? t->n_slots * 2 : 4096;
  uint32_t *slots = xcalloc(ns, sizeof *slots), *tags = xcalloc(ns, sizeof *tags);
  for (size_t k = 0; k < t->strs.len; k++) {
    uint64_t h = names__hash(t->strs.items[k], strlen(t->strs.items[k]));
    size_t i = (size_t)h & (ns - 1);
    while (slots[i]) i = (i + 1) & (ns - 1);
    slots[i] = (uint32_t)k + 1;
    tags[i] = names__tag(h);
  }
  free(t->slots);
  free(t->tags);
  t->slots = slots;
  t->tags = tags;
  t->n_slots = ns;
}

uint32_t names_intern(Names *t, const char *s, size_t n) {
  if (2 * (t->strs.len + 1) > t->n_slots) names__grow(t);
  uint64_t h = names__hash(s, n);
  size_t i = names__slot(t, s, n, h);
  if (t->slots[i]) return t->slots[i] - 1;
  array_push(&t->strs, xstrndup(s, n));
  t->slots[i] = (uint32_t)t->strs.len;
  t->tags[i] = names__tag(h);
  return (uint32_t)t->strs.len - 1;
}

void names_free(Names *t) {
  for (size_t k = 0; k < t->strs.len; k++) free(t->strs.items[k]);
  array_free(&t->strs);
  free(t->slots);
  free(t->tags);
  memset(t, 0, sizeof *t);
}
