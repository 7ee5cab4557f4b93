/* conclude: see conclude.h. */
#include "analyzers/engine/conclude.h"
#include "analyzers/kb/kb.h"
#include "analyzers/python/resolver.h"

#include <stdlib.h>
#include <string.h>

/* ---- 1. library rows: the first unit --------------------------------------------- */

static size_t conclude__unit_of(const uint32_t *starts, size_t n, uint32_t at) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (starts[mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo ? lo - 1 : 0;
}

typedef struct {
  const KbEntry *entry;
  size_t unit; /* the first unit reporting it outside an import line */
} ConcludeFirst;

typedef struct {
  const uint32_t *starts;
  size_t n;
  Array(ConcludeFirst) firsts;
} ConcludeLibraries;

static bool conclude__library_repeat(void *data, const Finding *f) {
  const ConcludeLibraries *o = data;
  if (!kb_entry_is_library(f->entry)) return false;
  for (size_t i = 0; i < o->firsts.len; i++)
    if (o->firsts.items[i].entry == f->entry) return conclude__unit_of(o->starts, o->n, f->start_byte) > o->firsts.items[i].unit;
  return false;
}

static void conclude__libraries(const PyFile *py, const uint32_t *starts, size_t n, FindingList *out) {
  if (n < 2) return;
  ConcludeLibraries o = {starts, n, {0}};
  for (size_t i = 0; i < out->len; i++) {
    const Finding *f = &out->items[i];
    if (!kb_entry_is_library(f->entry) || pyfile_import_row(py, f->start_row)) continue;
    bool seen = false;
    for (size_t k = 0; k < o.firsts.len && !seen; k++) seen = o.firsts.items[k].entry == f->entry;
    if (!seen) array_push(&o.firsts, ((ConcludeFirst){f->entry, conclude__unit_of(starts, n, f->start_byte)}));
  }
  if (o.firsts.len) findings_drop_if(out, conclude__library_repeat, &o);
  array_free(&o.firsts);
}

/* ---- 2. once per file ------------------------------------------------------------- */

typedef struct {
  const char *code, *subject; /* borrowed from a finding kept */
} ConcludeSeen;

typedef struct {
  const char *codes;
  KbMatchMemo *memo;        /* the template against rule codes: a file has a few dozen */
  Array(ConcludeSeen) seen; /* the first finding kept of each code and subject */
} ConcludeOnce;

static bool conclude__once_repeat(void *data, const Finding *f) {
  ConcludeOnce *o = data;
  if (!f->subject || !kb_pattern_match_memo(o->memo, o->codes, f->rule->code)) return false;
  for (size_t i = 0; i < o->seen.len; i++)
    if (strcmp(o->seen.items[i].code, f->rule->code) == 0 && strcmp(o->seen.items[i].subject, f->subject) == 0)
      return true;
  /* findings_drop_if marks every finding before it frees any: these stay valid */
  ConcludeSeen k = {f->rule->code, f->subject};
  array_push(&o->seen, k);
  return false;
}

/* ---- 3. rules that need the file to compile -------------------------------------- */

typedef struct {
  const char *codes;
  KbMatchMemo *memo;
} ConcludeIdle;

static bool conclude__idle(void *data, const Finding *f) {
  const ConcludeIdle *c = data;
  return kb_pattern_match_memo(c->memo, c->codes, f->rule->code);
}

void conclude_file(const PyFile *py, const uint32_t *unit_starts, size_t n_units, unsigned flags, FindingList *out) {
  conclude__libraries(py, unit_starts, n_units, out);
  KbMatchMemo *memo = xcalloc(1, sizeof *memo);
  const char *once = kb_template("file-once-rules");
  if (once && *once) {
    ConcludeOnce o = {once, memo, {0}};
    findings_drop_if(out, conclude__once_repeat, &o);
    array_free(&o.seen);
  }
  const char *compile_only = kb_template("compile-only-rules");
  if (compile_only && *compile_only && !(flags & UNIT_COMPILES)) {
    ConcludeIdle c = {compile_only, memo};
    findings_drop_if(out, conclude__idle, &c);
  }
  free(memo);
}
