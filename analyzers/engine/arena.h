/* arena: many small allocations released together. A structure that owns
 * a tree of strings and arrays (the project configuration) allocates them
 * all from one Arena and frees them with one arena_free, instead of a free
 * per field.
 *
 * Memory comes in blocks of at least ARENA_BLOCK bytes; an allocation
 * larger than that gets a block of its own. Nothing is freed before
 * arena_free: arena_grow copies into a new allocation and leaves the old one
 * in place, so grow only small arrays. Allocations never fail (xmalloc).
 * Not thread-safe: one owner writes; readers may share the result once it
 * is built. */
#ifndef ASC_ARENA_H
#define ASC_ARENA_H

#include <stddef.h>

#define ARENA_BLOCK 4096

typedef struct ArenaBlock ArenaBlock;
typedef struct {
  ArenaBlock *head; /* newest block first; NULL for an empty arena */
} Arena;

/* n zeroed bytes, aligned for any type; valid until arena_free. */
void *arena_alloc(Arena *a, size_t n);
/* Copies of s (NULL gives NULL), valid until arena_free. */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
/* Moves a heap string into the arena: returns the arena's copy and frees s
 * (NULL gives NULL). */
char *arena_take(Arena *a, char *s);
/* A new allocation of new_bytes holding the first old_bytes of old (which
 * may be NULL when old_bytes is 0); the rest is zeroed. */
void *arena_grow(Arena *a, const void *old, size_t old_bytes, size_t new_bytes);
/* Releases every allocation; the arena is empty and reusable after. */
void arena_free(Arena *a);

#endif
