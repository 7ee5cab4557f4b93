/* names: interned strings (see names.h). */
#include "analyzers/engine/names.h"

#include <stdlib.h>
#include <string.h>

static size_t names__hash(const char *s, size_t n) { return (size_t)util_fnv(UTIL_FNV_SEED, s, n); }

static bool names__is(const char *o, const char *s, size_t n) { return strncmp(o, s, n) == 0 && o[n] == '\0'; }

int64_t names_find(const Names *t, const char *s, size_t n) {
  if (!t->n_slots) return -1;
  for (size_t i = names__hash(s, n) & (t->n_slots - 1); t->slots[i]; i = (i + 1) & (t->n_slots - 1))
    if (names__is(t->strs.items[t->slots[i] - 1], s, n)) return t->slots[i] - 1;
  return -1;
}

static void names__grow(Names *t) {
  size_t ns = t->n_slots ? t->n_slots * 2 : 4096;
  uint32_t *slots = xcalloc(ns, sizeof *slots);
  for (size_t k = 0; k < t->strs.len; k++) {
    size_t i = names__hash(t->strs.items[k], strlen(t->strs.items[k])) & (ns - 1);
    while (slots[i]) i = (i + 1) & (ns - 1);
    slots[i] = (uint32_t)k + 1;
  }
  free(t->slots);
  t->slots = slots;
  t->n_slots = ns;
}

uint32_t names_intern(Names *t, const char *s, size_t n) {
  if (2 * (t->strs.len + 1) > t->n_slots) names__grow(t);
  size_t i = names__hash(s, n) & (t->n_slots - 1);
  for (; t->slots[i]; i = (i + 1) & (t->n_slots - 1))
    if (names__is(t->strs.items[t->slots[i] - 1], s, n)) return t->slots[i] - 1;
  array_push(&t->strs, xstrndup(s, n));
  t->slots[i] = (uint32_t)t->strs.len;
  return (uint32_t)t->strs.len - 1;
}

void names_free(Names *t) {
  for (size_t k = 0; k < t->strs.len; k++) free(t->strs.items[k]);
  array_free(&t->strs);
  free(t->slots);
  memset(t, 0, sizeof *t);
}
