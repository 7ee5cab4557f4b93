/* forest: a file's syntax as one tree-sitter tree per top-level statement
 * of a Python file (pysplit.h says where they start), one tree for other
 * kinds. Each tree is parsed with the text's bytes outside its statement
 * excluded (included ranges), so its nodes carry the file's own byte offsets
 * and rows, and its root is a `module` holding that statement.
 *
 * Why: tree-sitter re-parses an edited tree incrementally, but in Python an
 * edit next to an indentation token (a comment typed after `if x:` or at the
 * end of a block) makes it re-lex the rest of the file: 60 ms per keystroke
 * at 10,000 lines. With a tree per statement an edit re-parses its
 * statement (and the split is re-read from it to the next boundary that did
 * not move); every other tree is only shifted. For valid code each member's
 * statement is exactly the subtree one parse of the file gives.
 *
 * Ownership: a Forest owns its trees; forest_free releases them. Nodes
 * handed out are borrowed and valid until the next forest_edit or
 * forest_parse. The parser is the caller's. */
#ifndef ASC_FOREST_H
#define ASC_FOREST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analyzers/engine/context.h"

typedef struct {
  uint32_t start, end; /* the member's bytes [start, end) of the text */
  uint32_t row;        /* tree-sitter row of start */
  TSTree *tree;        /* owned; NULL: to be parsed (new, or split again by an edit) */
  bool edited;         /* one tree for the file: edited since parsed, re-parsed from `tree` */
  bool fresh;          /* parsed by the last forest_parse */
  uint64_t hash;       /* forest_member_hash of its text after forest_hash (0: none); kept while
                          the member is not parsed again, so an edit elsewhere hashes nothing */
} ForestMember;

typedef struct Forest {
  FileKind kind;
  bool split;          /* one member per top-level statement (Python) */
  Array(ForestMember) members;
} Forest;

void forest_init(Forest *f, FileKind kind);
void forest_free(Forest *f);

/* Parses what is not parsed: every member the first time, the edited ones
 * after forest_edit (those are marked `fresh`). Returns false when the
 * text cannot be parsed (no grammar, too long, tree-sitter gave up); the
 * forest is then empty. */
bool forest_parse(Forest *f, TSParser *parser, const char *text, size_t len);

/* Digests every member whose text was parsed since its last digest (a
 * server after each parse: then an edit hashes only what it parsed). */
void forest_hash(Forest *f, const char *text);
/* The digest of member m's text (util_fnv, never 0), and for a tree with a
 * syntax error of its place too: the kept one, else computed now. */
uint64_t forest_member_hash(const ForestMember *m, const char *text);

/* Bytes e->start_byte..e->old_end_byte of the text became
 * ..e->new_end_byte; `text` is the new text. Members the edit touches are
 * split again and marked for forest_parse; the others move. */
void forest_edit(Forest *f, const char *text, size_t len, const TSInputEdit *e);

/* Members, and the root node of member i (a null node when not parsed). */
size_t forest_size(const Forest *f);
TSNode forest_root(const Forest *f, size_t i);
/* The member holding byte `at` (the last one starting at or before it). */
size_t forest_member_at(const Forest *f, uint32_t at);
/* The top-level nodes of the file in order, member after member:
 *   ForestTops it = forest_tops(f); for (TSNode c; forest_next_top(&it, &c);) ...
 * named ones only when `named`. */
typedef struct {
  const Forest *f;
  size_t member;
  uint32_t child;
  bool named;
} ForestTops;
ForestTops forest_tops(const Forest *f, bool named);
bool forest_next_top(ForestTops *it, TSNode *out);
/* The smallest node spanning [start, end) in the member holding `start`. */
TSNode forest_node_at(const Forest *f, uint32_t start, uint32_t end);
/* A walk up from the smallest node spanning [start, end) (forest_node_at's)
 * to the root of its member, O(1) a step: ts_node_parent walks down from
 * the root, so a loop of it is quadratic in the depth of the tree.
 *   ForestUp up = forest_up(f, s, e);
 *   for (TSNode n; forest_up_next(&up, &n, &field);) ...
 *   forest_up_end(&up);
 * `field` (may be NULL) is the field name of n in its parent, NULL when none.
 * A walk of forest_up owns a tree cursor (forest_up_end frees it); one of
 * forest_paths_up reads a kept path (forest_up_end does nothing). */
typedef struct {
  TSNode node;
  const char *field; /* its field name in its parent (NULL: none) */
} ForestStep;

typedef struct {
  TSTreeCursor cursor;
  bool live, started;
  const ForestStep *steps; /* a kept path (forest_paths_up), root first; NULL: the cursor walks */
  size_t n;                /* steps not yet handed out */
} ForestUp;
ForestUp forest_up(const Forest *f, uint32_t start, uint32_t end);
bool forest_up_next(ForestUp *up, TSNode *out, const char **field);
void forest_up_end(ForestUp *up);

/* The walks up one analysis asks, kept. The refinement asks about a
 * finding's ancestors several times (its statement, its branch, the call
 * it is the callee of), and each walk down from a member's root steps over
 * the children, hidden ones too, of every level it passes: a few thousand
 * instructions for a call in a method. forest_paths_up gives the walk
 * forest_up gives, the second time from memory.
 * Ownership: the caller's (forest_paths_free); valid while the forest is
 * neither edited nor parsed; one thread. */
typedef struct ForestPaths ForestPaths;
ForestPaths *forest_paths_new(const Forest *f);
void forest_paths_free(ForestPaths *p);
/* forest_up over p's forest; p NULL: a plain forest_up is impossible, so
 * the walk is empty. */
ForestUp forest_paths_up(ForestPaths *p, uint32_t start, uint32_t end);
/* The named sibling before n; for a top-level statement, the last one of
 * the member before. */
TSNode forest_prev_named_sibling(const Forest *f, TSNode n);

#endif
