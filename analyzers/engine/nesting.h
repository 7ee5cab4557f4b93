/* nesting: how deeply a source file nests its brackets, measured with one
 * byte scan before it is parsed.
 *
 * The tree-sitter 0.20 runtime frees a subtree twice when it deletes the
 * tree of a file holding about 65,000 brackets open at once (any mix of
 * ( [ {, closed or not, over any number of lines), which aborts the
 * process. Files nested deeper than NESTING_MAX_DEPTH are therefore never
 * parsed: every front end treats them like binary files (a note, no
 * findings, the text kept). The scan counts ( [ { and ) ] } outside
 * comments and string literals; in Python f-strings it counts them too,
 * since tree-sitter parses their interpolations as code. Pure functions,
 * thread-safe, no allocation. */
#ifndef ASC_NESTING_H
#define ASC_NESTING_H

#include <stdbool.h>
#include <stddef.h>
#include "analyzers/engine/analyze.h"

#define NESTING_MAX_DEPTH 50000

typedef enum {
  NESTING_PYTHON, /* # comments; '...' "..." and triple quotes; string prefixes (r, b, f, u) */
  NESTING_C,      /* // and block comments; '...' "..." (C, C++, CUDA) */
  NESTING_TOML,   /* # comments; '...' "..." and triple quotes */
} NestingSyntax;

/* The deepest bracket nesting of text. A closing bracket with nothing open
 * is ignored. */
size_t nesting_depth(const char *text, size_t len, NestingSyntax syn);

/* Whether text nests deeper than NESTING_MAX_DEPTH (stops scanning there). */
bool nesting_too_deep(const char *text, size_t len, NestingSyntax syn);

/* The same for a file of the given kind: false for kinds that are not
 * parsed with tree-sitter. */
bool nesting_file_too_deep(FileKind kind, const char *text, size_t len);

/* The note front ends print for such a file (a static string). */
const char *nesting_note(void);

#endif
