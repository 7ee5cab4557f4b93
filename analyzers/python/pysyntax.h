/* pysyntax: small helpers over tree-sitter-python nodes shared by the Python
 * analyzers (string values, call arguments, names, import insertion). All
 * returned strings are heap-allocated and freed by the caller; nodes are
 * borrowed from the PyFile's tree. */
#ifndef ASC_PYSYNTAX_H
#define ASC_PYSYNTAX_H

#include <tree_sitter/api.h>
#include "analyzers/python/resolver.h"

bool pysyntax_is(TSNode n, const char *type);

/* The named children of a node in order, with a cursor: ts_node_named_child(n, i)
 * walks from the first child each time, which is quadratic over a block of
 * statements. Begin, call next until it returns false (end is then done);
 * call end when stopping early. */
typedef struct {
  TSTreeCursor cur;
  bool open, more;
} PyChildren;
void pysyntax_children(PyChildren *it, TSNode n);
bool pysyntax_children_next(PyChildren *it, TSNode *child);
void pysyntax_children_end(PyChildren *it);

/* String nodes that `value` can evaluate to: the string itself, both arms of
 * a conditional expression, the inside of parentheses, the left string of a
 * `+` concatenation. Returns how many were stored in out (at most max). */
size_t pysyntax_string_candidates(TSNode value, TSNode *out, size_t max);

/* Content of a string literal, f-string holes as "{}"; for `"a" + x`, "a{}".
 * NULL when not a string (or a null node) or longer than 256 bytes. */
char *pysyntax_string_value(const PyFile *py, TSNode str);

/* Argument of a call by spec: "0" (positional index), "name" (keyword), or
 * alternatives "0|device". A null node when absent. */
TSNode pysyntax_argument(const PyFile *py, TSNode argument_list, const char *spec);

/* Dotted name of an identifier or attribute chain ("args.device"), or the
 * value of a string key; NULL otherwise or when longer than 128 bytes. */
char *pysyntax_name_text(const PyFile *py, TSNode n);

/* n without the parentheses around it (`((x))` is x); a null node stays null. */
TSNode pysyntax_unparen(TSNode n);

/* Whether n is the identifier spelled name[0, len). */
bool pysyntax_is_name(const PyFile *py, TSNode n, const char *name, size_t len);
/* Whether the text [s, e) holds name[0, len) as a whole word (in code,
 * strings or comments alike: a cheap over-approximation of a mention). */
bool pysyntax_mentions(const PyFile *py, uint32_t s, uint32_t e, const char *name, size_t len);

/* Where a new top-level import goes: right after the first plain
 * `import torch` (or on the line before the first torch from-import), so
 * that torch_npu is loaded before anything uses torch.npu; without a torch
 * import, after the last top-level import, else after a shebang/encoding
 * comment and the module docstring. */
uint32_t pysyntax_import_point(const PyFile *py);
/* The line to insert there ("import torch_npu" + the file's line ending),
 * with a leading line break when the point is at an unterminated last line. */
char *pysyntax_import_insertion(const PyFile *py, const char *stmt);
/* The file's line ending: "\r\n", "\r" or "\n" (from its first line break). */
const char *pysyntax_eol(const char *text, size_t len);

#endif
