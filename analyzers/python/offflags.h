/* offflags: attributes a file turns off for good.
 *
 * A feature its authors switched off often stays in the code behind a flag
 * set from a hard-coded False: `use_trt_engine = False` in `__init__`, then
 * `self.parallel_decode = use_trt_engine`, and `if self.parallel_decode:`
 * in other methods. What such a branch holds never runs, unless something
 * else sets the attribute. Within the file that is decided here: the
 * attribute is written once, as `self.<attr> = <local>` directly in a
 * block, the statement before it in that block that mentions the local is
 * `<local> = False`, and every other mention of the attribute's name in
 * the file is a read of `self.<attr>`. A literal `self.<attr> = False` does
 * not count: that is how a toggle a library sets from outside starts
 * (`gradient_checkpointing`). Whether another file of the project sets it
 * is the project's to say (fold.c).
 *
 * Ownership: a PyOffFlags memo (the caller's, zeroed) keeps the verdict of
 * every name asked in one analysis and owns the names; free it with
 * pyoffflags_free. */
#ifndef ASC_OFFFLAGS_H
#define ASC_OFFFLAGS_H

#include "analyzers/python/resolver.h"

typedef struct {
  char *name;
  bool off;
} PyOffFlag;

typedef struct {
  Array(PyOffFlag) asked; /* every attribute asked about, with its verdict */
  bool scanned, any;      /* whether the text was scanned for a `<local> = False` statement, and found one */
} PyOffFlags;

typedef struct TextHits TextHits;

/* The attribute of the innermost `if self.<attr>:` branch (`elif` too;
 * `self.<attr>` may be one operand of an `and` chain) holding [start, end)
 * when the attribute is hard-coded off in the file; else NULL. The name is
 * borrowed from memo. `hits` (the file's kept word hits, texthits.h)
 * answers whether the file has a `<local> = False` statement at all. */
const char *pyoffflags_branch(const PyFile *py, TextHits *hits, PyOffFlags *memo, uint32_t start, uint32_t end);

void pyoffflags_free(PyOffFlags *memo);

#endif
