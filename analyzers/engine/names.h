/* names: interned strings, each numbered 0, 1, ... in the order first seen.
 *
 * Lets a pass over a whole project work on numbers instead of strings (the
 * project model's call graph, the C/C++ reachability's mentions). Open
 * addressing over ids + 1 (0: empty) in a power-of-two table, each slot
 * tagged with half of its name's hash.
 *
 * Ownership: a Names owns copies of its strings; free with names_free. The
 * zero value is an empty table. */
#ifndef ASC_NAMES_H
#define ASC_NAMES_H

#include <stdint.h>
#include "analyzers/engine/util.h"

typedef struct {
  uint32_t *slots;
  uint32_t *tags; /* per slot: the upper half of its name's hash */
  size_t n_slots;
  Array(char *) strs; /* by number */
} Names;

/* The number of s[0, n), a new one when it was not there. */
uint32_t names_intern(Names *t, const char *s, size_t n);
/* The number of s[0, n), or -1 when it was never interned. */
int64_t names_find(const Names *t, const char *s, size_t n);
void names_free(Names *t);

#endif
