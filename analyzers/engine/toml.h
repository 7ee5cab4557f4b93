/* toml: reading TOML documents from their tree-sitter tree, shared by every
 * reader of TOML (the project configuration, pyproject.toml's dependency
 * tables).
 *
 * toml_walk visits the document's values in document order with their full
 * key path: `[a.b]` then `c.d = 1` is the path a, b, c, d; the elements of
 * an `[[x]]` array table and of an array of inline tables get a "#N"
 * segment (N counting from 0 per array); a table header is visited too,
 * with no value, so a reader can tell that an empty `[tool.x]` exists. The
 * visitor decides whether an inline table (or an array of inline tables) is
 * opened: its pairs then follow it at once, before the next pair of the
 * enclosing table. Nothing is recursive; nesting deeper than TOML_MAX_DEPTH
 * key segments is not opened.
 *
 * Every string returned is the caller's to free; nodes and text are
 * borrowed from the caller's tree. */
#ifndef ASC_TOML_H
#define ASC_TOML_H

#include <stdbool.h>
#include <tree_sitter/api.h>
#include "analyzers/engine/util.h"

#define TOML_MAX_DEPTH 16

typedef struct {
  const StrList *path; /* key segments, unquoted and unescaped; borrowed for the call */
  TSNode pair;         /* the pair (null for a table header) */
  TSNode key;          /* its key, or the header's key */
  TSNode value;        /* null for a table header */
} TomlItem;

/* Returns true to open item's inline table or array of inline tables
 * (ignored for other values). */
typedef bool (*TomlVisit)(void *data, const TomlItem *item);

void toml_walk(TSNode root, const char *text, TomlVisit visit, void *data);

/* Whether a value is a table the walk can open: an inline table, or an
 * array whose every element is one (the `rules = [{...}, {...}]` spelling
 * of [[rules]]). */
bool toml_is_table(TSNode v);

/* Whether n is a node of this type (false for a null node). */
bool toml_is(TSNode n, const char *type);
/* The value of a string node (basic, literal, multi-line), escapes decoded.
 * Caller frees. */
char *toml_string(const char *text, TSNode n);
/* The byte range of a string node's content, inside its quotes. */
void toml_string_span(const char *text, TSNode n, uint32_t *start, uint32_t *end);
/* The path joined with '.' (for matching dotted globs). Caller frees. */
char *toml_path_text(const StrList *path);

#endif
