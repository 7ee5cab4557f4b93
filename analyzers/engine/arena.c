/* arena: see arena.h. */
#include "analyzers/engine/arena.h"
#include "analyzers/engine/util.h"

#include <stdalign.h>
#include <stdlib.h>

struct ArenaBlock {
  ArenaBlock *next;
  size_t used, size;
  alignas(max_align_t) unsigned char data[];
};

void *arena_alloc(Arena *a, size_t n) {
  const size_t align = alignof(max_align_t);
  n = (n + align - 1) / align * align;
  if (n == 0) n = align;
  ArenaBlock *b = a->head;
  if (!b || b->size - b->used < n) {
    size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    b = xmalloc(sizeof *b + size);
    b->size = size;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  if (!s) return NULL;
  char *d = arena_alloc(a, n + 1);
  memcpy(d, s, n);
  return d;
}

char *arena_strdup(Arena *a, const char *s) { return s ? arena_strndup(a, s, strlen(s)) : NULL; }

char *arena_take(Arena *a, char *s) {
  char *d = arena_strdup(a, s);
  free(s);
  return d;
}

void *arena_grow(Arena *a, const void *old, size_t old_bytes, size_t new_bytes) {
  void *p = arena_alloc(a, new_bytes);
  if (old_bytes) memcpy(p, old, old_bytes < new_bytes ? old_bytes : new_bytes);
  return p;
}

void arena_free(Arena *a) {
  for (ArenaBlock *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  a->head = NULL;
}
