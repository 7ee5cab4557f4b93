/* reach_facts: what one file tells the C/C++ reachability (fold_reach.h).
 *
 * Made once per version of a file and kept with its other facts (the CLI's
 * disk cache stores them), so that a run whose files did not change solves
 * the project's reachability without parsing a C/C++ file or reading a
 * Python one again. A C/C++ file gives its candidate definitions (free and
 * out-of-line functions, kernels: name and byte range), the names each
 * mentions and the names mentioned outside them, the regions its own
 * #defines compile out, and the capitalised names of the macro calls that
 * define functions (PYBIND11_MODULE: a binding makes the sources an
 * extension). A Python file gives the words it mentions outside comments.
 *
 * The facts depend on the text and the kind only, never on the options.
 * Ownership: a ReachFacts owns everything in it; free with
 * reach_facts_free. */
#ifndef ASC_REACH_FACTS_H
#define ASC_REACH_FACTS_H

#include <stdint.h>
#include "analyzers/engine/context.h"

typedef struct {
  uint32_t start, end;
  uint32_t name; /* index into words */
  bool binding;  /* a binding macro's registration of a C++ function under the Python name `name` */
} ReachFactDef;

typedef struct {
  uint32_t name;
  int32_t owner; /* the innermost candidate definition (index into defs), -1 outside every one */
} ReachFactMention;

typedef struct {
  uint32_t start, end;
  char *why; /* "`#if 0`" */
} ReachFactRegion;

typedef struct ReachFacts {
  char *text;                       /* the distinct names, each once and NUL-terminated, one
                                       after another (one allocation: a project holds many) */
  size_t text_len, text_cap;
  Array(uint32_t) words;            /* where each name starts in text */
  Array(ReachFactDef) defs;         /* in document order */
  Array(ReachFactMention) mentions; /* each (name, owner) once; empty when `top_words` */
  bool top_words;                   /* every word is mentioned outside definitions (Python) */
  Array(ReachFactRegion) regions;   /* disjoint, in document order */
  Array(uint32_t) caps;             /* words naming functions by a capitalised macro call */
} ReachFacts;

/* The facts of a text of the given kind: a new ReachFacts for C/C++ and
 * Python, NULL for every other kind. A C/C++ text the parser gives up on
 * yields what its #defines say and nothing else. text borrowed. */
ReachFacts *reach_facts_scan(FileKind kind, const char *text, size_t len);
/* Name k of f (borrowed). */
static inline const char *reach_facts_word(const ReachFacts *f, size_t k) { return f->text + f->words.items[k]; }
/* Appends a name to f->words (copied into f->text). */
void reach_facts_add_word(ReachFacts *f, const char *s, size_t n);
ReachFacts *reach_facts_copy(const ReachFacts *f); /* NULL for NULL */
void reach_facts_free(ReachFacts *f);              /* NULL is fine */

#endif
